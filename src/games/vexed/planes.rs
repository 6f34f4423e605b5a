//! The board as bit planes: one bit per cell in a `u128` (cell `r * cols + c`), for boards of
//! up to [`MAX_CELLS`] cells.
//!
//! [`Geometry`] holds what never changes (board size, walls, column masks). A [`State`] holds
//! the blocks as `P` bit-sliced letter planes: a block's letter code `1..=L` (dense codes for
//! the letters present, see [`Geometry::letters`]) is written in binary across the planes, so a
//! cell is occupied iff some plane has its bit, and `P = ceil(log2(L + 1))` planes suffice
//! (at most 5 for 26 letters). States are small, `Copy`, and cheap to hash.
//!
//! Gravity and removal are word operations: a block falls while the cell below it (one row =
//! `cols` bits further) is neither wall nor block nor past the bottom edge; a block is removed
//! when its plane, shifted by one cell in any of the four directions (masked at the left and
//! right edges), overlaps itself.

use super::MAX_CELLS;
use super::grid::{Dir, Grid, Move, WALL, is_block};

/// A set of cells, one bit per cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Cells(pub u128);

impl Cells {
    pub const EMPTY: Cells = Cells(0);

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub fn contains(self, cell: usize) -> bool {
        cell < MAX_CELLS && self.0 >> cell & 1 == 1
    }

    /// The cells in increasing index order (row-major).
    pub fn iter(self) -> impl Iterator<Item = usize> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let cell = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(cell)
        })
    }
}

/// The fixed part of a board.
#[derive(Debug, Clone)]
pub struct Geometry {
    pub rows: usize,
    pub cols: usize,
    /// Every cell of the board.
    pub board: u128,
    pub walls: u128,
    /// The bottom row: blocks there rest on the board's edge.
    pub bottom: u128,
    /// Cells not in column 0 (a block there may have a left neighbour).
    pub not_first_col: u128,
    /// Cells not in the last column.
    pub not_last_col: u128,
    /// Column of each cell index.
    pub col_of: Vec<u8>,
    /// The letters present, by code: `letters[code - 1]`.
    pub letters: Vec<u8>,
}

/// The blocks of a board as `P` bit-sliced letter planes.
#[derive(Debug, Clone, Copy, Eq)]
pub struct State<const P: usize> {
    planes: [u128; P],
}

impl<const P: usize> PartialEq for State<P> {
    /// Word by word and without early exit (the derived one calls `memcmp`).
    fn eq(&self, other: &Self) -> bool {
        self.planes
            .iter()
            .zip(&other.planes)
            .fold(0, |diff, (a, b)| diff | (a ^ b))
            == 0
    }
}

impl<const P: usize> std::hash::Hash for State<P> {
    /// One well-mixed word per state (the derived hash would feed the planes byte by byte).
    fn hash<H: std::hash::Hasher>(&self, hasher: &mut H) {
        hasher.write_u64(self.digest());
    }
}

/// How many planes `letters` letter codes (1..=letters) need.
pub fn planes_needed(letters: usize) -> usize {
    (usize::BITS - letters.leading_zeros()) as usize
}

fn bit(cell: usize) -> u128 {
    1u128 << cell
}

impl Geometry {
    /// The geometry of a grid (`rows * cols <= MAX_CELLS`).
    pub fn new(grid: &Grid) -> Geometry {
        let (rows, cols) = (grid.rows(), grid.cols());
        assert!(rows * cols <= MAX_CELLS, "board too large for u128 planes");
        let mut geo = Geometry {
            rows,
            cols,
            board: 0,
            walls: 0,
            bottom: 0,
            not_first_col: 0,
            not_last_col: 0,
            col_of: (0..rows * cols).map(|i| (i % cols) as u8).collect(),
            letters: Vec::new(),
        };
        for (i, &cell) in grid.cells().iter().enumerate() {
            let (row, col) = (i / cols, i % cols);
            geo.board |= bit(i);
            if cell == WALL {
                geo.walls |= bit(i);
            }
            if row + 1 == rows {
                geo.bottom |= bit(i);
            }
            if col > 0 {
                geo.not_first_col |= bit(i);
            }
            if col + 1 < cols {
                geo.not_last_col |= bit(i);
            }
            if is_block(cell) && !geo.letters.contains(&cell) {
                geo.letters.push(cell);
            }
        }
        geo.letters.sort_unstable();
        geo
    }

    /// Letter code of a block letter (1-based), if present.
    pub fn code(&self, letter: u8) -> Option<usize> {
        self.letters
            .iter()
            .position(|&l| l == letter)
            .map(|i| i + 1)
    }

    /// Cells next to a cell of `set` horizontally or vertically.
    pub fn neighbours(&self, set: u128) -> u128 {
        ((set << 1) & self.not_first_col)
            | ((set >> 1) & self.not_last_col)
            | (set << self.cols)
            | (set >> self.cols)
    }

    /// The move pushing the block on `cell` towards `dir`, as printed.
    pub fn describe<const P: usize>(&self, state: &State<P>, cell: usize, dir: Dir) -> Move {
        let code = state.code_at(cell);
        Move {
            letter: self.letters[code - 1],
            row: cell / self.cols,
            col: cell % self.cols,
            dir,
        }
    }
}

impl<const P: usize> State<P> {
    /// The state without blocks.
    pub const EMPTY: State<P> = State { planes: [0; P] };

    /// A state from its planes (for tests of containers of states).
    #[cfg(test)]
    pub fn from_planes(planes: [u128; P]) -> State<P> {
        State { planes }
    }

    /// The blocks of `grid` (whose letters are all in `geo`, which needs at most `P` planes).
    pub fn new(geo: &Geometry, grid: &Grid) -> State<P> {
        let mut planes = [0u128; P];
        for (i, &cell) in grid.cells().iter().enumerate() {
            if let Some(code) = is_block(cell).then(|| geo.code(cell)).flatten() {
                for (b, plane) in planes.iter_mut().enumerate() {
                    if code >> b & 1 == 1 {
                        *plane |= bit(i);
                    }
                }
            }
        }
        State { planes }
    }

    /// A 64-bit digest of the planes (multiply-xorshift mixing, murmur3's finaliser at the end).
    pub fn digest(&self) -> u64 {
        const K: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut h = 0u64;
        for plane in &self.planes {
            h = (h ^ (*plane as u64)).wrapping_mul(K).rotate_left(31);
            h = (h ^ ((*plane >> 64) as u64))
                .wrapping_mul(K)
                .rotate_left(31);
        }
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }

    /// Every occupied cell.
    pub fn occupied(&self) -> u128 {
        self.planes.iter().fold(0, |acc, p| acc | p)
    }

    /// The cells holding letter code `code`.
    pub fn letter(&self, code: usize) -> u128 {
        let mut set = self.occupied();
        for (b, plane) in self.planes.iter().enumerate() {
            set &= if code >> b & 1 == 1 { *plane } else { !*plane };
        }
        set
    }

    /// The letter code on an occupied cell.
    pub fn code_at(&self, cell: usize) -> usize {
        self.planes
            .iter()
            .enumerate()
            .map(|(b, p)| usize::from(Cells(*p).contains(cell)) << b)
            .sum()
    }

    /// True when a letter has exactly one block left: the board can never be cleared.
    pub fn has_lonely_letter(&self, geo: &Geometry) -> bool {
        (1..=geo.letters.len()).any(|code| self.letter(code).count_ones() == 1)
    }

    pub fn is_clear(&self) -> bool {
        self.occupied() == 0
    }

    /// Blocks that can be pushed left and right: the neighbouring cell is empty and in-board.
    pub fn movers(&self, geo: &Geometry) -> (u128, u128) {
        let occupied = self.occupied();
        let free = geo.board & !geo.walls & !occupied;
        let left = occupied & (free << 1) & geo.not_first_col;
        let right = occupied & (free >> 1) & geo.not_last_col;
        (left, right)
    }

    /// Every legal push and the settled board it gives: left pushes first, then right, each
    /// in ascending cell order (the search's move order).
    pub fn children<'a>(
        &'a self,
        geo: &'a Geometry,
    ) -> impl Iterator<Item = (usize, Dir, Self)> + 'a {
        let (left, right) = self.movers(geo);
        [(left, Dir::Left), (right, Dir::Right)]
            .into_iter()
            .flat_map(move |(set, dir)| {
                let mut bits = set;
                std::iter::from_fn(move || {
                    if bits == 0 {
                        return None;
                    }
                    let cell = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let mut child = *self;
                    child.push(geo, cell, dir);
                    Some((cell, dir, child))
                })
            })
    }

    /// Pushes the block on `cell` one cell towards `dir` (the target must be free), then
    /// settles the board.
    pub fn push(&mut self, geo: &Geometry, cell: usize, dir: Dir) {
        let to = cell.wrapping_add_signed(dir.delta());
        let (from_bit, to_bit) = (bit(cell), bit(to));
        for plane in &mut self.planes {
            if *plane & from_bit != 0 {
                *plane = (*plane & !from_bit) | to_bit;
            }
        }
        self.settle_after(geo, to_bit);
    }

    /// Gravity and simultaneous group removal until stable.
    pub fn settle(&mut self, geo: &Geometry) {
        self.settle_after(geo, self.occupied());
    }

    /// Settles a board that was stable except for the blocks on `moved`: a new match needs a
    /// block that moved, so only the letters of moved (pushed or fallen) blocks are checked.
    fn settle_after(&mut self, geo: &Geometry, moved: u128) {
        let mut moved = moved | self.fall(geo);
        loop {
            let doomed = self.matched(geo, moved);
            if doomed == 0 {
                return;
            }
            for plane in &mut self.planes {
                *plane &= !doomed;
            }
            moved = self.fall(geo);
        }
    }

    /// Every block drops until supported (each round drops all unsupported blocks one row).
    /// Returns the cells where blocks that fell came to rest.
    fn fall(&mut self, geo: &Geometry) -> u128 {
        let mut occupied = self.occupied();
        let mut landed = 0u128;
        loop {
            let supported = ((geo.walls | occupied) >> geo.cols) | geo.bottom;
            let falling = occupied & !supported;
            if falling == 0 {
                return landed & occupied;
            }
            for plane in &mut self.planes {
                let moving = *plane & falling;
                *plane = (*plane & !falling) | (moving << geo.cols);
            }
            landed = (landed & !falling) | (falling << geo.cols);
            occupied = (occupied & !falling) | (falling << geo.cols);
        }
    }

    /// Blocks touching a block of the same letter, among letters that have a block in `moved`.
    fn matched(&self, geo: &Geometry, moved: u128) -> u128 {
        // Usually one or two blocks moved: read their letters rather than scan every letter.
        let mut codes = 0u32;
        let mut bits = moved & self.occupied();
        while bits != 0 {
            codes |= 1 << self.code_at(bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
        let mut doomed = 0;
        while codes != 0 {
            let code = codes.trailing_zeros() as usize;
            codes &= codes - 1;
            let set = self.letter(code);
            doomed |= set & geo.neighbours(set);
        }
        doomed
    }

    /// Back to a grid (for tests and messages).
    pub fn to_grid(&self, geo: &Geometry) -> Grid {
        let cells = (0..geo.rows * geo.cols)
            .map(|i| {
                if geo.walls & bit(i) != 0 {
                    WALL
                } else if self.occupied() & bit(i) != 0 {
                    geo.letters[self.code_at(i) - 1]
                } else {
                    super::grid::EMPTY
                }
            })
            .collect();
        Grid::new(geo.rows, geo.cols, cells)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> Grid {
        Grid::new(rows.len(), rows[0].len(), rows.concat().into_bytes())
    }

    #[test]
    fn cells_iterate_in_order() {
        let set = Cells(bit(3) | bit(100) | bit(127));
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![3, 100, 127]);
        assert_eq!(set.len(), 3);
        assert!(set.contains(127) && !set.contains(4) && !set.contains(200));
        assert!(Cells::EMPTY.is_empty());
    }

    #[test]
    fn planes_needed_counts_bits() {
        assert_eq!(planes_needed(1), 1);
        assert_eq!(planes_needed(3), 2);
        assert_eq!(planes_needed(4), 3);
        assert_eq!(planes_needed(7), 3);
        assert_eq!(planes_needed(8), 4);
        assert_eq!(planes_needed(26), 5);
    }

    #[test]
    fn letters_round_trip_through_planes() {
        let g = grid(&["#ABC#", "#DEF#", "#GHA#", "#####"]);
        let geo = Geometry::new(&g);
        let state = State::<4>::new(&geo, &g);
        assert_eq!(state.to_grid(&geo), g);
        assert_eq!(state.letter(geo.code(b'A').unwrap()), bit(1) | bit(13));
    }

    #[test]
    fn edges_do_not_wrap() {
        // A at the end of row 0 and A at the start of row 1 are not neighbours.
        let g = grid(&["--A", "A--"]);
        let geo = Geometry::new(&g);
        let a = bit(2) | bit(3);
        assert_eq!(a & geo.neighbours(a), 0);
        let (left, right) = State::<1>::new(&geo, &g).movers(&geo);
        assert_eq!((left, right), (bit(2), bit(3)));
    }

    #[test]
    fn settling_matches_the_grid_rules() {
        // A stack B over C over nothing, beside a C: both fall, the Cs touch and go, B drops.
        let g = grid(&["B---", "C---", "--C-", "-#B-"]);
        let geo = Geometry::new(&g);
        let mut state = State::<2>::new(&geo, &g);
        state.settle(&geo);
        let mut literal = g.clone();
        literal.settle();
        assert_eq!(state.to_grid(&geo), literal);
    }
}
