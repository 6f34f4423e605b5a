//! The board as bit planes: one bit per cell in a `u128` (cell `r * cols + c`), for boards of
//! up to [`MAX_CELLS`] cells.
//!
//! [`Geometry`] holds what never changes (board size, walls, edge masks, per-cell column
//! masks). A [`State`] holds
//! the blocks as `P` bit-sliced letter planes: a block's letter code `1..=L` (dense codes for
//! the letters present, see [`Geometry::letters`]) is written in binary across the planes, so a
//! cell is occupied iff some plane has its bit, and `P = ceil(log2(L + 1))` planes suffice
//! (at most 5 for 26 letters). States are small, `Copy`, and cheap to hash.
//!
//! Gravity and removal are word operations: a block falls while the cell below it (one row =
//! `cols` bits further) is neither wall nor block nor past the bottom edge; a block is removed
//! when its plane, shifted by one cell in any of the four directions (masked at the left and
//! right edges), overlaps itself.
//!
//! [`State::push`] expects a stable board (every block supported, no two touching blocks of one
//! letter), as [`State::new`] of a settled grid and every push leave it. On such a board a push
//! moves few blocks in a way known in advance: the pushed block slides and drops onto whatever
//! is below its new cell, and the stack standing on its old cell drops one row. Those moves are
//! computed directly from per-cell column masks and the occupancy word; the general
//! gravity/removal loop runs only when a group is removed. The general loop alone is used by
//! [`State::settle`], for any board.

use crate::games::vexed::MAX_CELLS;
use crate::games::vexed::grid::{Dir, EMPTY, Grid, Move, WALL, is_block};

/// A set of cells, one bit per cell (cell `r * cols + c`, at most [`MAX_CELLS`]): the one
/// bitboard type of the engine, for walls, masks, letter planes and letter sets alike.
///
/// The operators are the word's (`&`, `|`, `^`, `!`, shifts by a number of cells) and inline
/// to single instructions. `!set` is the complement over all 128 bits, past the board too:
/// callers mask with [`Geometry::board`] where it matters. Shifts move every cell by a number
/// of indices; a row is `cols` indices, see [`Geometry::row_down`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Cells(u128);

impl Cells {
    /// No cell.
    pub(crate) const EMPTY: Cells = Cells(0);
    /// Every cell index, `0..MAX_CELLS`.
    pub(crate) const ALL: Cells = Cells(!0);

    /// The set whose bit `i` is cell `i`.
    #[inline(always)]
    pub(crate) const fn from_bits(bits: u128) -> Cells {
        Cells(bits)
    }

    /// The bits of the set (bit `i` is cell `i`).
    #[inline(always)]
    pub(crate) const fn bits(self) -> u128 {
        self.0
    }

    /// The one cell `cell` (`cell < MAX_CELLS`).
    #[inline(always)]
    pub(crate) const fn cell(cell: usize) -> Cells {
        Cells(1 << cell)
    }

    /// Cells `0..count` (`count <= MAX_CELLS`).
    #[inline(always)]
    pub(crate) const fn first_cells(count: usize) -> Cells {
        if count >= MAX_CELLS {
            Cells::ALL
        } else {
            Cells((1 << count) - 1)
        }
    }

    #[inline(always)]
    pub(crate) const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when the two sets share a cell.
    #[inline(always)]
    pub(crate) const fn intersects(self, other: Cells) -> bool {
        self.0 & other.0 != 0
    }

    /// How many cells.
    #[inline(always)]
    pub(crate) const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether cell `cell` (below [`MAX_CELLS`]) is in the set.
    #[inline(always)]
    pub(crate) const fn contains(self, cell: usize) -> bool {
        debug_assert!(cell < MAX_CELLS);
        self.0 >> (cell % MAX_CELLS) & 1 == 1
    }

    /// The lowest cell index (the set must not be empty).
    #[inline(always)]
    pub(crate) const fn first(self) -> usize {
        debug_assert!(self.0 != 0);
        self.0.trailing_zeros() as usize
    }

    /// The highest cell index (the set must not be empty).
    #[inline(always)]
    pub(crate) const fn last(self) -> usize {
        debug_assert!(self.0 != 0);
        (u128::BITS - 1 - self.0.leading_zeros()) as usize
    }

    /// The set without its lowest cell.
    #[inline(always)]
    pub(crate) const fn without_first(self) -> Cells {
        Cells(self.0 & self.0.wrapping_sub(1))
    }

    /// The cells strictly between the lowest and the highest of the set (which must have at
    /// least one cell), whether in the set or not.
    #[inline(always)]
    pub(crate) const fn between(self) -> Cells {
        let low = self.0 & self.0.wrapping_neg();
        let high = 1 << (u128::BITS - 1 - self.0.leading_zeros());
        Cells((high - 1) & !(low | (low - 1)))
    }

    /// Every cell moved `n` indices up, dropping those past the last index (`n` may be 128
    /// or more: then none is left).
    #[inline(always)]
    pub(crate) const fn shifted_up(self, n: u32) -> Cells {
        Cells(self.0.unbounded_shl(n))
    }

    /// Every cell moved `n` indices down, dropping those below 0 (`n` may be 128 or more).
    #[inline(always)]
    pub(crate) const fn shifted_down(self, n: u32) -> Cells {
        Cells(self.0.unbounded_shr(n))
    }

    /// The cells in increasing index order (row-major).
    pub(crate) fn iter(self) -> impl Iterator<Item = usize> {
        let mut rest = self;
        std::iter::from_fn(move || {
            if rest.is_empty() {
                return None;
            }
            let cell = rest.first();
            rest = rest.without_first();
            Some(cell)
        })
    }
}

/// The indices of the set bits of a small mask (of blocks, letters or groups, not cells), in
/// increasing order.
pub(crate) fn indices(mask: u32) -> impl Iterator<Item = usize> {
    Cells(u128::from(mask)).iter()
}

/// Implements a binary operator and its assigning form on [`Cells`] from the word's.
macro_rules! cells_operator {
    ($trait:ident, $method:ident, $assign:ident, $assign_method:ident, $op:tt) => {
        impl std::ops::$trait for Cells {
            type Output = Cells;
            #[inline(always)]
            fn $method(self, other: Cells) -> Cells {
                Cells(self.0 $op other.0)
            }
        }
        impl std::ops::$assign for Cells {
            #[inline(always)]
            fn $assign_method(&mut self, other: Cells) {
                self.0 = self.0 $op other.0;
            }
        }
    };
}

cells_operator!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
cells_operator!(BitOr, bitor, BitOrAssign, bitor_assign, |);
cells_operator!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl std::ops::Not for Cells {
    type Output = Cells;
    #[inline(always)]
    fn not(self) -> Cells {
        Cells(!self.0)
    }
}

/// `set << n`: every cell `n` indices up (`n < 128`; one column right within a row).
impl std::ops::Shl<u32> for Cells {
    type Output = Cells;
    #[inline(always)]
    fn shl(self, n: u32) -> Cells {
        Cells(self.0 << n)
    }
}

/// `set >> n`: every cell `n` indices down (`n < 128`; one column left within a row).
impl std::ops::Shr<u32> for Cells {
    type Output = Cells;
    #[inline(always)]
    fn shr(self, n: u32) -> Cells {
        Cells(self.0 >> n)
    }
}

/// The fixed part of a board.
#[derive(Debug, Clone)]
pub(crate) struct Geometry {
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    /// Every cell of the board.
    pub(crate) board: Cells,
    pub(crate) walls: Cells,
    /// The bottom row: blocks there rest on the board's edge.
    pub(crate) bottom: Cells,
    /// Cells not in column 0 (a block there may have a left neighbour).
    pub(crate) not_first_col: Cells,
    /// Cells not in the last column.
    pub(crate) not_last_col: Cells,
    /// Masks around each cell index (`masks[cell % MAX_CELLS]`: the modulo lets the compiler
    /// drop the bounds check); entries past the board are unused.
    pub(crate) masks: [CellMasks; MAX_CELLS],
    /// Column of each cell index.
    pub(crate) col_of: Vec<u8>,
    /// The letters present, by code: `letters[code - 1]`.
    pub(crate) letters: Vec<u8>,
}

/// Lookup masks of one cell (tables beat variable `u128` shifts, several instructions each).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct CellMasks {
    /// The cell itself.
    pub(crate) bit: Cells,
    /// The cells of its column above it.
    pub(crate) above: Cells,
    /// The cells of its column below it.
    pub(crate) below: Cells,
    /// The cell right above it (none in the top row).
    pub(crate) over: Cells,
    /// The cell right below it (none in the bottom row).
    pub(crate) under: Cells,
}

/// The blocks of a board as `P` bit-sliced letter planes.
#[derive(Debug, Clone, Copy, Eq)]
pub(crate) struct State<const P: usize> {
    planes: [Cells; P],
}

impl<const P: usize> PartialEq for State<P> {
    /// Word by word and without early exit (the derived one calls `memcmp`).
    fn eq(&self, other: &Self) -> bool {
        self.changed(other).is_empty()
    }
}

impl<const P: usize> std::hash::Hash for State<P> {
    /// One well-mixed word per state (the derived hash would feed the planes byte by byte).
    fn hash<H: std::hash::Hasher>(&self, hasher: &mut H) {
        hasher.write_u64(self.digest());
    }
}

/// Most planes a state needs: 26 letter codes fit in 5 bits.
pub(crate) const MAX_PLANES: usize = 5;

/// How many planes `letters` letter codes (1..=letters) need.
pub(crate) fn planes_needed(letters: usize) -> usize {
    (usize::BITS - letters.leading_zeros()) as usize
}

impl Geometry {
    /// The geometry of a grid (`rows * cols <= MAX_CELLS`).
    pub(crate) fn new(grid: &Grid) -> Geometry {
        let mut geo = Geometry {
            rows: 0,
            cols: 0,
            board: Cells::EMPTY,
            walls: Cells::EMPTY,
            bottom: Cells::EMPTY,
            not_first_col: Cells::EMPTY,
            not_last_col: Cells::EMPTY,
            masks: [CellMasks::default(); MAX_CELLS],
            col_of: Vec::new(),
            letters: Vec::new(),
        };
        geo.reset(grid);
        geo
    }

    /// Makes this the geometry of `grid` (`rows * cols <= MAX_CELLS`), keeping its memory: a
    /// thread solving many small puzzles reuses one geometry instead of building (and moving)
    /// its 10 KB of masks each time. Only the board's cells are written: the masks past it are
    /// never read.
    pub(crate) fn reset(&mut self, grid: &Grid) {
        let (rows, cols) = (grid.rows(), grid.cols());
        let cells = rows * cols;
        assert!(cells <= MAX_CELLS, "board too large for u128 planes");
        self.rows = rows;
        self.cols = cols;
        self.col_of.clear();
        self.letters.clear();
        // Built on plain words, one cell at a time. Column 0's cells; column `c`'s are these
        // shifted by `c`.
        let first_column = (0..rows).fold(0u128, |set, row| set | 1 << (row * cols));
        let (mut walls, mut present) = (0u128, 0u32);
        // Row by row with running masks: no division and no variable shift per cell, and
        // each cell's masks written once.
        let board = Cells::first_cells(cells).bits();
        let mut i = 0;
        let mut cell_bit = 1u128;
        // The cell below the current one (shifted out past 128 cells, masked past the board).
        let mut under = 1u128.unbounded_shl(cols as u32);
        let mut row_start = 0u128;
        self.col_of.reserve(cells);
        for (row, line) in grid.cells().chunks_exact(cols.max(1)).enumerate() {
            let mut column = first_column;
            // The cell above the current one (none in the top row).
            let mut over = if row == 0 { 0 } else { row_start };
            row_start = cell_bit;
            for (col, &cell) in line.iter().enumerate() {
                if cell == WALL {
                    walls |= cell_bit;
                }
                if is_block(cell) {
                    present |= 1 << (cell - b'A');
                }
                // The column's cells: lower indices are above, higher below.
                let lower = cell_bit - 1;
                self.masks[i] = CellMasks {
                    bit: Cells::from_bits(cell_bit),
                    above: Cells::from_bits(column & lower),
                    below: Cells::from_bits(column & !lower & !cell_bit),
                    over: Cells::from_bits(over),
                    under: Cells::from_bits(under & board),
                };
                self.col_of.push(col as u8);
                i += 1;
                cell_bit <<= 1;
                column <<= 1;
                over <<= 1;
                under <<= 1;
            }
        }
        let last_column = first_column.unbounded_shl(cols.saturating_sub(1) as u32);
        self.board = Cells::from_bits(board);
        self.walls = Cells::from_bits(walls);
        self.bottom = Cells::from_bits(board & !board.unbounded_shr(cols as u32));
        self.not_first_col = Cells::from_bits(board & !first_column);
        self.not_last_col = Cells::from_bits(board & !last_column);
        // The letters present, in alphabetical order.
        self.letters
            .extend((b'A'..=b'Z').filter(|&letter| present >> (letter - b'A') & 1 == 1));
    }

    /// Letter code of a block letter (1-based), if present.
    pub(crate) fn code(&self, letter: u8) -> Option<usize> {
        self.letters
            .iter()
            .position(|&l| l == letter)
            .map(|i| i + 1)
    }

    /// The cells one row below those of `set`. (A plain shift by `cols` would overflow on a
    /// one-row board of 128 cells, which has no row below.)
    #[inline(always)]
    pub(crate) fn row_down(&self, set: Cells) -> Cells {
        set.shifted_up(self.cols as u32)
    }

    /// The cells one row above those of `set`.
    #[inline(always)]
    pub(crate) fn row_up(&self, set: Cells) -> Cells {
        set.shifted_down(self.cols as u32)
    }

    /// Cells next to a cell of `set` horizontally or vertically.
    #[cfg(test)]
    pub(crate) fn neighbours(&self, set: Cells) -> Cells {
        ((set << 1) & self.not_first_col)
            | ((set >> 1) & self.not_last_col)
            | self.row_down(set)
            | self.row_up(set)
    }

    /// The move pushing the block on `cell` towards `dir`, as printed.
    pub(crate) fn describe<const P: usize>(&self, state: &State<P>, cell: usize, dir: Dir) -> Move {
        let code = state.code_at(cell);
        Move {
            letter: self.letters[code - 1],
            row: cell / self.cols,
            col: cell % self.cols,
            dir,
        }
    }
}

/// A board as A*'s arena stores it ([`State::pack`], [`Packed::unpack`]): its planes in `W`
/// words. A board whose blocks can only be on cells below 64 ([`Geometry::narrow`]: every
/// level of the original game, whose bottom row is wall) keeps one word per plane (`W == P`),
/// the high halves being zero; any other keeps two (`W == 2 * P`). Only `u64`s, so a node's
/// alignment is 8, not the 16 of a `u128`: a node of four planes takes 48 bytes instead of 80.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Packed<const W: usize>([u64; W]);

impl<const W: usize> Packed<W> {
    /// The board of `P` planes these words hold (`W` is `P` or `2 * P`).
    #[inline(always)]
    pub(crate) fn unpack<const P: usize>(&self) -> State<P> {
        const { assert!(W == P || W == 2 * P) };
        let mut planes = [Cells::EMPTY; P];
        for (i, plane) in planes.iter_mut().enumerate() {
            let bits = if W == P {
                u128::from(self.0[i])
            } else {
                u128::from(self.0[2 * i]) | u128::from(self.0[2 * i + 1]) << 64
            };
            *plane = Cells::from_bits(bits);
        }
        State { planes }
    }
}

impl Geometry {
    /// Whether every cell a block can be on is below 64, so that boards fit [`Packed`] words
    /// of one per plane.
    pub(crate) fn narrow(&self) -> bool {
        let open = self.board & !self.walls;
        open.is_empty() || open.last() < 64
    }
}

impl<const P: usize> State<P> {
    /// The state without blocks.
    pub(crate) const EMPTY: State<P> = State {
        planes: [Cells::EMPTY; P],
    };

    /// A state from its planes (bit `b` of each block's letter code in plane `b`).
    pub(crate) fn from_planes(planes: [Cells; P]) -> State<P> {
        State { planes }
    }

    /// The planes: bit `b` of each block's letter code in plane `b`.
    pub(crate) fn planes(&self) -> &[Cells; P] {
        &self.planes
    }

    /// The board in `W` words ([`Packed`]): `W == P` only for boards of a narrow geometry
    /// ([`Geometry::narrow`]), whose planes' high halves are zero.
    #[inline(always)]
    pub(crate) fn pack<const W: usize>(&self) -> Packed<W> {
        const { assert!(W == P || W == 2 * P) };
        let mut words = [0; W];
        for (i, plane) in self.planes.iter().enumerate() {
            let bits = plane.bits();
            if W == P {
                debug_assert_eq!(bits >> 64, 0, "a narrow board has no cell past 63");
                words[i] = bits as u64;
            } else {
                words[2 * i] = bits as u64;
                words[2 * i + 1] = (bits >> 64) as u64;
            }
        }
        Packed(words)
    }

    /// The blocks of `grid` (whose letters are all in `geo`, which needs at most `P` planes).
    pub(crate) fn new(geo: &Geometry, grid: &Grid) -> State<P> {
        let mut planes = [Cells::EMPTY; P];
        for (i, &cell) in grid.cells().iter().enumerate() {
            if let Some(code) = is_block(cell).then(|| geo.code(cell)).flatten() {
                for (b, plane) in planes.iter_mut().enumerate() {
                    if code >> b & 1 == 1 {
                        *plane |= Cells::cell(i);
                    }
                }
            }
        }
        State { planes }
    }

    /// A 64-bit digest of the planes: each plane's two halves, offset by their own constants,
    /// are multiplied into 128 bits and folded (wyhash's "mum" mix); the planes' products are
    /// independent, so they overlap in the CPU, and one last mix spreads the bits.
    pub(crate) fn digest(&self) -> u64 {
        const SEEDS: [u64; 2 * MAX_PLANES] = [
            0xa076_1d64_78bd_642f,
            0xe703_7ed1_a0b4_28db,
            0x8ebc_6af0_9c88_c6e3,
            0x5899_65cc_7537_4cc3,
            0x1d8e_4e27_c47d_124f,
            0x9e37_79b9_7f4a_7c15,
            0xbf58_476d_1ce4_e5b9,
            0x94d0_49bb_1331_11eb,
            0xff51_afd7_ed55_8ccd,
            0xc4ce_b9fe_1a85_ec53,
        ];
        let mum = |a: u64, b: u64| {
            let product = u128::from(a) * u128::from(b);
            (product as u64) ^ ((product >> 64) as u64)
        };
        let mut h = 0u64;
        for (i, plane) in self.planes.iter().enumerate() {
            h ^= mum(
                (plane.bits() as u64) ^ SEEDS[2 * i],
                ((plane.bits() >> 64) as u64) ^ SEEDS[2 * i + 1],
            );
        }
        mum(h ^ SEEDS[0], SEEDS[1] ^ P as u64)
    }

    /// The cells whose content (a letter or nothing) differs between `self` and `other`.
    pub(crate) fn changed(&self, other: &State<P>) -> Cells {
        self.planes
            .iter()
            .zip(&other.planes)
            .fold(Cells::EMPTY, |diff, (&a, &b)| diff | (a ^ b))
    }

    /// Every occupied cell.
    pub(crate) fn occupied(&self) -> Cells {
        self.planes.iter().fold(Cells::EMPTY, |acc, &p| acc | p)
    }

    /// The cells holding letter code `code`.
    pub(crate) fn letter(&self, code: usize) -> Cells {
        // A code with a one bit among the planes' selects that plane, which already leaves
        // out the empty cells: no need to AND with `occupied()`. Code 0 is no letter.
        let mut set = if code & ((1 << P) - 1) == 0 {
            Cells::EMPTY
        } else {
            Cells::ALL
        };
        for (b, plane) in self.planes.iter().enumerate() {
            set &= if code >> b & 1 == 1 { *plane } else { !*plane };
        }
        set
    }

    /// The letter code on an occupied cell.
    pub(crate) fn code_at(&self, cell: usize) -> usize {
        self.planes
            .iter()
            .enumerate()
            .map(|(b, p)| usize::from(p.contains(cell)) << b)
            .sum()
    }

    pub(crate) fn is_clear(&self) -> bool {
        self.occupied().is_empty()
    }

    /// Blocks that can be pushed left and right: the neighbouring cell is empty and in-board.
    pub(crate) fn movers(&self, geo: &Geometry) -> (Cells, Cells) {
        let occupied = self.occupied();
        let free = geo.board & !geo.walls & !occupied;
        let left = occupied & (free << 1) & geo.not_first_col;
        let right = occupied & (free >> 1) & geo.not_last_col;
        (left, right)
    }

    /// Every legal push and the settled board it gives: left pushes first, then right, each
    /// in ascending cell order (the search's move order). `self` must be stable (see
    /// [`State::push`]).
    pub(crate) fn children<'a>(
        &'a self,
        geo: &'a Geometry,
    ) -> impl Iterator<Item = (usize, Dir, Self)> + 'a {
        let occupied = self.occupied();
        let (left, right) = self.movers(geo);
        Children {
            parent: *self,
            geo,
            occupied,
            left,
            right,
        }
    }

    /// Pushes the block on `cell` one cell towards `dir` (the target must be a free in-board
    /// cell), then settles the board. The board must be stable before the push (every block
    /// supported, no two touching blocks of one letter), as boards made by [`State::new`] from
    /// a settled grid, by [`State::settle`] and by earlier pushes are.
    pub(crate) fn push(&mut self, geo: &Geometry, cell: usize, dir: Dir) {
        self.push_within(geo, self.occupied(), cell, dir);
    }

    /// [`State::push`] given the occupied cells before the push.
    ///
    /// On a stable board the only blocks that move before any removal are the pushed block,
    /// which slides to `to` and drops to the first wall or block below it in its new column
    /// (or the bottom row), and the stack of blocks standing on its old cell, which drops
    /// exactly one row (its bottom block now rests on what held the pushed block; everything
    /// else was supported before and still is). Nothing falls onto `to`: on a stable board the
    /// cell above an empty cell is empty or a wall. Only pairs with a moved block can touch:
    /// the new vertical pairs are the two below, tested cell by cell; the horizontal ones are
    /// tested over the whole board (one constant shift per plane). Only when some pair touches
    /// does the general removal/gravity loop run.
    #[inline(always)]
    fn push_within(&mut self, geo: &Geometry, occupied: Cells, cell: usize, dir: Dir) {
        debug_assert!(self.is_stable(geo), "push on a board that is not stable");
        let to = cell.wrapping_add_signed(dir.delta());
        let from = &geo.masks[cell % MAX_CELLS];
        let target = &geo.masks[to % MAX_CELLS];
        // The stack: the blocks in the pushed block's column from the row above it up to the
        // first empty cell or wall (the lowest "stop"), or up to the top row.
        let stops = from.above & !occupied;
        let stack = if stops.is_empty() {
            from.above
        } else {
            from.above & geo.masks[stops.last() % MAX_CELLS].below
        };
        // The landing cell: right above the first wall or block below `to` in its column (its
        // `support`), or the column's bottom cell (no support: the board's edge).
        let blockers = (geo.walls | occupied) & target.below;
        let (landing, support) = if blockers.is_empty() {
            (geo.bottom & (target.below | target.bit), Cells::EMPTY)
        } else {
            let support = &geo.masks[blockers.first() % MAX_CELLS];
            (support.over, support.bit)
        };
        // New vertical pairs (their cells after the push): the landed block on its support,
        // and the stack's bottom block (from `over`, now on `cell`) on what held the pushed
        // block (`under`). Letters are compared on the planes before the push (these blocks
        // keep their letters).
        let mut vertical = if support.intersects(occupied) && self.same_letter(from.bit, support) {
            landing | support
        } else {
            Cells::EMPTY
        };
        let occupied = if stack.is_empty() {
            for plane in &mut self.planes {
                let carried = if plane.intersects(from.bit) {
                    landing
                } else {
                    Cells::EMPTY
                };
                *plane = (*plane & !from.bit) | carried;
            }
            (occupied & !from.bit) | landing
        } else {
            if from.under.intersects(occupied) && self.same_letter(from.over, from.under) {
                vertical |= from.bit | from.under;
            }
            let vacated = stack | from.bit;
            for plane in &mut self.planes {
                let carried = if plane.intersects(from.bit) {
                    landing
                } else {
                    Cells::EMPTY
                };
                *plane = (*plane & !vacated) | geo.row_down(*plane & stack) | carried;
            }
            (occupied & !vacated) | geo.row_down(stack) | landing
        };
        // Horizontal pairs: testing the whole board costs one constant shift per plane.
        let mut across = Cells::EMPTY;
        for &plane in &self.planes {
            across |= plane ^ (plane >> 1);
        }
        let horizontal = occupied & (occupied >> 1) & geo.not_last_col & !across;
        if !(vertical | horizontal).is_empty() {
            // Every touching pair is new (the board was stable), so these are all the
            // blocks that go: what `matched` would find, without scanning the board again.
            let doomed = vertical | horizontal | (horizontal << 1);
            debug_assert_eq!(doomed, self.matched(geo, occupied));
            self.remove_and_settle(geo, occupied, doomed);
        }
    }

    /// Whether the blocks on cells `a` and `b` (one bit each, both occupied) have one letter.
    #[inline(always)]
    fn same_letter(&self, a: Cells, b: Cells) -> bool {
        // Per plane, the two bits are equal iff the plane holds an even number of the two.
        let pair = a | b;
        let mut odd = 0;
        for &plane in &self.planes {
            odd |= (plane & pair).len();
        }
        odd & 1 == 0
    }

    /// Gravity and simultaneous group removal until stable.
    pub(crate) fn settle(&mut self, geo: &Geometry) {
        let occupied = self.occupied();
        let occupied = self.fall(geo, occupied).unwrap_or(occupied);
        let doomed = self.matched(geo, occupied);
        if !doomed.is_empty() {
            self.remove_and_settle(geo, occupied, doomed);
        }
    }

    /// Whether nothing would fall or go: what [`State::push`] expects.
    fn is_stable(&self, geo: &Geometry) -> bool {
        let occupied = self.occupied();
        let supported = geo.row_up(geo.walls | occupied) | geo.bottom;
        (occupied & !supported).is_empty() && self.matched(geo, occupied).is_empty()
    }

    /// Removes the `doomed` blocks (from the `occupied` cells), then gravity and removals until
    /// stable (the general loop, for the rarer pushes that remove a group). When nothing
    /// falls after a removal the board is stable: the blocks left did not move and none of
    /// them touched its letter before.
    #[cold]
    fn remove_and_settle(&mut self, geo: &Geometry, mut occupied: Cells, mut doomed: Cells) {
        while !doomed.is_empty() {
            for plane in &mut self.planes {
                *plane &= !doomed;
            }
            match self.fall(geo, occupied & !doomed) {
                Some(landed) => occupied = landed,
                None => return,
            }
            doomed = self.matched(geo, occupied);
        }
    }

    /// Every block drops until supported (each round drops all unsupported blocks one row),
    /// given the `occupied` cells. Returns the occupied cells after, or `None` if no block
    /// fell.
    fn fall(&mut self, geo: &Geometry, mut occupied: Cells) -> Option<Cells> {
        let mut fell = false;
        loop {
            let supported = geo.row_up(geo.walls | occupied) | geo.bottom;
            let falling = occupied & !supported;
            if falling.is_empty() {
                return fell.then_some(occupied);
            }
            fell = true;
            for plane in &mut self.planes {
                let moving = *plane & falling;
                *plane = (*plane & !falling) | geo.row_down(moving);
            }
            occupied = (occupied & !falling) | geo.row_down(falling);
        }
    }

    /// Every block touching a block of the same letter (`occupied` = the occupied cells): two
    /// neighbours hold the same letter when no plane differs between them.
    #[inline(always)]
    fn matched(&self, geo: &Geometry, occupied: Cells) -> Cells {
        let (mut across, mut down) = (Cells::EMPTY, Cells::EMPTY);
        for &plane in &self.planes {
            across |= plane ^ (plane >> 1);
            down |= plane ^ geo.row_up(plane);
        }
        // A cell whose right neighbour (resp. the cell below) holds the same letter.
        let right = occupied & (occupied >> 1) & geo.not_last_col & !across;
        let below = occupied & geo.row_up(occupied) & !down;
        right | (right << 1) | below | geo.row_down(below)
    }

    /// Back to a grid (for tests and messages).
    pub(crate) fn to_grid(self, geo: &Geometry) -> Grid {
        let cells = (0..geo.rows * geo.cols)
            .map(|i| {
                if geo.walls.contains(i) {
                    WALL
                } else if self.occupied().contains(i) {
                    geo.letters[self.code_at(i) - 1]
                } else {
                    EMPTY
                }
            })
            .collect();
        Grid::new(geo.rows, geo.cols, cells)
    }
}

/// The iterator of [`State::children`]: the pushes left of the blocks in `left`, then right of
/// those in `right`, lowest cell first.
struct Children<'a, const P: usize> {
    parent: State<P>,
    geo: &'a Geometry,
    /// The parent's occupied cells (computed once for all its pushes).
    occupied: Cells,
    left: Cells,
    right: Cells,
}

impl<const P: usize> Iterator for Children<'_, P> {
    type Item = (usize, Dir, State<P>);

    // Inlined into the caller's loop, the child is built in place: returned through memory,
    // its planes were written as 64-bit halves and read back as 128-bit words, a
    // store-forwarding stall per push.
    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        let (movers, dir) = if !self.left.is_empty() {
            (&mut self.left, Dir::Left)
        } else if !self.right.is_empty() {
            (&mut self.right, Dir::Right)
        } else {
            return None;
        };
        let cell = movers.first();
        *movers = movers.without_first();
        let mut child = self.parent;
        child.push_within(self.geo, self.occupied, cell, dir);
        Some((cell, dir, child))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.left.len() + self.right.len()) as usize;
        (n, Some(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::vexed::test_rng::{Rng, random_grid};

    fn bit(cell: usize) -> Cells {
        Cells::cell(cell)
    }

    fn grid(rows: &[&str]) -> Grid {
        Grid::new(rows.len(), rows[0].len(), rows.concat().into_bytes())
    }

    #[test]
    fn cells_iterate_in_order() {
        let set = bit(3) | bit(100) | bit(127);
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![3, 100, 127]);
        assert_eq!(set.len(), 3);
        assert!(set.contains(127) && !set.contains(4));
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
    fn boards_pack_into_words_and_back() {
        // 6 x 10 = 60 cells: narrow, one word per plane. 9 x 9: blocks up to cell 71, two.
        let narrow = grid(&[
            "#ABC-----#",
            "#DEF#----#",
            "#GHA#----#",
            "#--------#",
            "#-------H#",
            "##########",
        ]);
        let geo = Geometry::new(&narrow);
        assert!(geo.narrow());
        let state = State::<4>::new(&geo, &narrow);
        assert!(state.pack::<4>().unpack::<4>() == state);
        assert!(state.pack::<8>().unpack::<4>() == state);
        let mut rows = vec!["---------"; 8];
        rows[7] = "-------AA";
        let wide = grid(&rows);
        let geo = Geometry::new(&wide);
        assert!(!geo.narrow());
        let state = State::<1>::new(&geo, &wide);
        assert!(state.pack::<2>().unpack::<1>() == state);
        assert_eq!(state.pack::<2>().unpack::<1>().to_grid(&geo), wide);
    }

    #[test]
    fn edges_do_not_wrap() {
        // A at the end of row 0 and A at the start of row 1 are not neighbours.
        let g = grid(&["--A", "A--"]);
        let geo = Geometry::new(&g);
        let a = bit(2) | bit(3);
        assert!((a & geo.neighbours(a)).is_empty());
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

    #[test]
    fn a_push_drops_the_stack_one_row_and_the_block_to_the_floor() {
        // The A at (2,1) carries B over C; pushed right it falls off the ledge to (3,2); the
        // stack drops one row: B to (1,1), C to (2,1). Nothing touches its own letter:
        //   "-B--"      "----"
        //   "-C--"  ->  "-B--"
        //   "-A--"      "-C--"
        //   "-#--"      "-#A-"
        let g = grid(&["-B--", "-C--", "-A--", "-#--"]);
        let geo = Geometry::new(&g);
        let mut state = State::<2>::new(&geo, &g);
        state.push(&geo, 2 * 4 + 1, Dir::Right);
        assert_eq!(state.to_grid(&geo), grid(&["----", "-B--", "-C--", "-#A-"]));
        // Pushed left instead it lands on the bottom row at (3,0), and nothing else changes.
        let mut state = State::<2>::new(&geo, &g);
        state.push(&geo, 2 * 4 + 1, Dir::Left);
        assert_eq!(state.to_grid(&geo), grid(&["----", "-B--", "-C--", "A#--"]));
    }

    #[test]
    fn a_dropped_stack_can_start_a_chain() {
        // Pushing the A at (2,1) right: it slides to (2,2) and falls to the bottom row (3,2),
        // beside the B at (3,1) (no match). The stack C over B drops one row: C to (2,1),
        // beside the C at (2,0): both Cs go. Then the B at (1,1) falls onto the B at (3,1)
        // and both go. Only the wall and the A are left.
        //   "-B--"      "----"      "----"      "----"
        //   "-C--"  ->  "-B--"  ->  "----"  ->  "----"
        //   "CA--"      "CC--"      "-B--"      "----"
        //   "#B--"      "#BA-"      "#BA-"      "#-A-"
        let g = grid(&["-B--", "-C--", "CA--", "#B--"]);
        let geo = Geometry::new(&g);
        let mut state = State::<2>::new(&geo, &g);
        state.push(&geo, 2 * 4 + 1, Dir::Right);
        assert_eq!(state.to_grid(&geo), grid(&["----", "----", "----", "#-A-"]));
    }

    #[test]
    fn a_reset_geometry_is_a_new_one_on_the_board() {
        // Reused across boards of every shape (bigger and smaller, other letters), a geometry
        // reads the same as one built for the board alone, on every field a search reads.
        let mut rng = Rng(0x0006_e0e0);
        let mut reused = Geometry::new(&grid(&["AB#", "CD-"]));
        for _ in 0..200 {
            let board = random_board(&mut rng);
            reused.reset(&board);
            let fresh = Geometry::new(&board);
            let cells = board.rows() * board.cols();
            assert_eq!(
                (
                    reused.rows,
                    reused.cols,
                    reused.board,
                    reused.walls,
                    reused.bottom
                ),
                (
                    fresh.rows,
                    fresh.cols,
                    fresh.board,
                    fresh.walls,
                    fresh.bottom
                )
            );
            assert_eq!(
                (reused.not_first_col, reused.not_last_col),
                (fresh.not_first_col, fresh.not_last_col)
            );
            assert_eq!(reused.masks[..cells], fresh.masks[..cells]);
            assert_eq!(
                (&reused.col_of, &reused.letters),
                (&fresh.col_of, &fresh.letters)
            );
        }
    }

    #[test]
    fn geometry_masks_of_a_small_board() {
        // 3 rows x 2 columns, a wall at (1,1):
        //   cells 0 1 / 2 3 / 4 5; bottom row 4, 5; column 0 = 0, 2, 4; column 1 = 1, 3, 5.
        let geo = Geometry::new(&grid(&["B-", "A#", "BA"]));
        assert_eq!(geo.board, Cells::first_cells(6));
        assert_eq!(geo.walls, bit(3));
        assert_eq!(geo.bottom, bit(4) | bit(5));
        assert_eq!(geo.not_first_col, bit(1) | bit(3) | bit(5));
        assert_eq!(geo.not_last_col, bit(0) | bit(2) | bit(4));
        assert_eq!(geo.letters, b"AB");
        assert_eq!(geo.col_of, [0, 1, 0, 1, 0, 1]);
        let middle = CellMasks {
            bit: bit(2),
            above: bit(0),
            below: bit(4),
            over: bit(0),
            under: bit(4),
        };
        assert_eq!(geo.masks[2], middle);
        let corner = CellMasks {
            bit: bit(5),
            above: bit(1) | bit(3),
            below: Cells::EMPTY,
            over: bit(3),
            under: Cells::EMPTY,
        };
        assert_eq!(geo.masks[5], corner);
    }

    /// Board shapes: the judge's 9x9, the original game's 8x10, the level packs' 7x12, and
    /// shapes with exactly [`MAX_CELLS`] cells (rows of one word, a single row or column).
    const SHAPES: [(usize, usize); 9] = [
        (9, 9),
        (8, 10),
        (7, 12),
        (8, 16),
        (16, 8),
        (4, 32),
        (2, 64),
        (1, 128),
        (128, 1),
    ];

    /// A random board, not settled: a shape from [`SHAPES`] or any size up to [`MAX_CELLS`]
    /// cells, 1..=8 letters (sometimes up to 26), and random wall and block densities (dense
    /// boards give stacks and chains, walls give ledges).
    fn random_board(rng: &mut Rng) -> Grid {
        random_grid(rng, &SHAPES, |rng| {
            if rng.below(8) == 0 {
                1 + rng.below(26)
            } else {
                1 + rng.below(8)
            }
        })
    }

    /// Every push of `State<P>` (through `children`, which uses the parent's occupancy, and
    /// through `push`) against `Grid::play`; and `settle` against `Grid::settle`.
    fn compare<const P: usize>(geo: &Geometry, unsettled: &Grid, stable: &Grid) {
        let mut state = State::<P>::new(geo, unsettled);
        state.settle(geo);
        assert_eq!(
            state.to_grid(geo),
            *stable,
            "settle of\n{}",
            unsettled.draw()
        );
        assert!(state.letter(0).is_empty());
        for (i, &letter) in geo.letters.iter().enumerate() {
            let cells = stable.cells().iter().enumerate();
            let expected = cells
                .filter(|&(_, &c)| c == letter)
                .fold(Cells::EMPTY, |s, (j, _)| s | bit(j));
            assert_eq!(state.letter(i + 1), expected, "{}", letter as char);
        }
        let moves = stable.moves();
        let children: Vec<_> = state.children(geo).collect();
        assert_eq!(children.len(), moves.len(), "moves of\n{}", stable.draw());
        for (cell, dir, child) in children {
            let mv = geo.describe(&state, cell, dir);
            let mut literal = stable.clone();
            literal.play(&mv).unwrap();
            assert_eq!(child.to_grid(geo), literal, "{mv} on\n{}", stable.draw());
            let mut pushed = state;
            pushed.push(geo, cell, dir);
            assert_eq!(pushed, child, "{mv} on\n{}", stable.draw());
        }
    }

    #[test]
    fn pushes_and_settles_match_the_grid_rules_on_random_boards() {
        const BOARDS: usize = 6000;
        let mut rng = Rng(0x5eed);
        for _ in 0..BOARDS {
            let unsettled = random_board(&mut rng);
            let mut stable = unsettled.clone();
            stable.settle();
            // The letters of the unsettled board: settling may remove some.
            let geo = Geometry::new(&unsettled);
            match planes_needed(geo.letters.len()) {
                1 => compare::<1>(&geo, &unsettled, &stable),
                2 => compare::<2>(&geo, &unsettled, &stable),
                3 => compare::<3>(&geo, &unsettled, &stable),
                4 => compare::<4>(&geo, &unsettled, &stable),
                _ => compare::<5>(&geo, &unsettled, &stable),
            }
        }
    }
}
