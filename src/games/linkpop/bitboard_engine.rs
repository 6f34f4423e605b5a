//! The optimized engine: the padded board as [`Bitboard`]s, pairs found in priority order.
//!
//! Coordinates are padded: board cell (r, c) is (r + 1, c + 1), and rows 0 and n + 1, columns
//! 0 and m + 1 are the empty ring paths may use. Invariants of [`Table`]: `occupied` and
//! `empty` partition the padded rectangle (cells outside it are in neither, so every ray stops
//! there without a hit); `by_symbol[s]` are the occupied cells holding symbol `s`; `movable`
//! the occupied cells whose attribute is not `S`; the ring is never occupied.
//!
//! Pair search follows the rule's priority and stops at the first pair it can prove is the
//! answer:
//! 1. one segment: for each block a in row-major order, the nearest block to its right and
//!    below it (one bit scan each); the first equal one wins (right before below: same row).
//! 2. two segments (only when no one-segment pair exists): for each block a in row-major order
//!    whose symbol has a block in a later row, the first block below each cell of the empty
//!    run left/right of a (a column-word bit scan), and the nearest blocks left and right of
//!    each cell of the empty run below a (row-word bit scans); the smallest equal one wins.
//!    Partners above a are never needed: a pair is always found from its first block.
//! 3. three segments (only when no pair of fewer segments exists anywhere, so every block
//!    reached with at most three segments is reached with exactly three): the cells of the
//!    second segment are seeded (horizontal runs from a's vertical run, vertical runs from
//!    a's horizontal run), then filled along the third direction over row words or column
//!    words; hits after a with a's symbol are candidates and the smallest wins.
//!
//! Movement checks only the blocks that can move (see [`Table::settle`]): those next to a cell
//! emptied since they were last checked, and those that moved in the previous turn, in
//! row-major order within each turn, with a per-turn mark on blocks that moved right or down.

use super::bitboard::{Bitboard, SIDE, bits, next_above, next_below, run_above, run_below};
use super::{Attr, Block, Board, SYMBOLS};
use crate::game::{Budget, CaseError, Outcome};

/// Width of the empty ring around the board.
const RING: usize = 1;
/// Bits of a symbol index (26 symbols fit in 5).
const PLANES: usize = 5;

/// A padded cell (row, column).
type Cell = (usize, usize);

/// The game state in bitboards plus per-cell block data.
struct Table {
    /// Board rows and columns (unpadded).
    n: usize,
    m: usize,
    occupied: Bitboard,
    empty: Bitboard,
    movable: Bitboard,
    by_symbol: [Bitboard; SYMBOLS],
    /// Bit k of the symbol index of every occupied cell (plane k holds the cells whose symbol
    /// index has bit k set): lets a whole row compare symbols with its neighbours at once.
    planes: [Bitboard; PLANES],
    /// Per symbol, its number of blocks in each row, and the rows where it has any (bit r):
    /// a block has a partner below it only if its symbol's row mask has a bit below its row.
    per_row: [[u8; SIDE]; SYMBOLS],
    rows_of: [u32; SYMBOLS],
    /// Symbol index and attribute of the block on each padded cell (`r * SIDE + c`); stale
    /// where the cell is empty.
    symbol: [u8; SIDE * SIDE],
    attr: [Attr; SIDE * SIDE],
}

fn index((r, c): Cell) -> usize {
    r * SIDE + c
}

impl Table {
    fn new(board: &Board) -> Box<Table> {
        let mut table = Box::new(Table {
            n: board.rows,
            m: board.cols,
            occupied: Bitboard::EMPTY,
            empty: Bitboard::rectangle(board.rows + 2 * RING, board.cols + 2 * RING),
            movable: Bitboard::EMPTY,
            by_symbol: [Bitboard::EMPTY; SYMBOLS],
            planes: [Bitboard::EMPTY; PLANES],
            per_row: [[0; SIDE]; SYMBOLS],
            rows_of: [0; SYMBOLS],
            symbol: [0; SIDE * SIDE],
            attr: [Attr::Still; SIDE * SIDE],
        });
        for r in 0..board.rows {
            for c in 0..board.cols {
                if let Some(block) = board.get(r, c) {
                    table.place((r + RING, c + RING), block);
                }
            }
        }
        table
    }

    fn place(&mut self, cell: Cell, block: Block) {
        let (r, c) = cell;
        self.occupied.insert(r, c);
        self.empty.remove(r, c);
        self.by_symbol[block.symbol_index()].insert(r, c);
        self.enter_row(block.symbol_index(), r);
        for (k, plane) in self.planes.iter_mut().enumerate() {
            if block.symbol_index() >> k & 1 == 1 {
                plane.insert(r, c);
            }
        }
        if block.attr != Attr::Still {
            self.movable.insert(r, c);
        }
        self.symbol[index(cell)] = block.symbol_index() as u8;
        self.attr[index(cell)] = block.attr;
    }

    fn pop(&mut self, cell: Cell) {
        let (r, c) = cell;
        self.occupied.remove(r, c);
        self.empty.insert(r, c);
        self.movable.remove(r, c);
        let s = usize::from(self.symbol[index(cell)]);
        self.by_symbol[s].remove(r, c);
        self.leave_row(s, r);
        for (k, plane) in self.planes.iter_mut().enumerate() {
            if s >> k & 1 == 1 {
                plane.remove(r, c);
            }
        }
    }

    /// Moves the (movable) block on `from` to the empty cell `to`.
    fn shift(&mut self, from: Cell, to: Cell) {
        self.occupied.relocate(from, to);
        self.empty.relocate(to, from);
        self.movable.relocate(from, to);
        let s = self.symbol[index(from)];
        self.by_symbol[usize::from(s)].relocate(from, to);
        if from.0 != to.0 {
            self.leave_row(usize::from(s), from.0);
            self.enter_row(usize::from(s), to.0);
        }
        for (k, plane) in self.planes.iter_mut().enumerate() {
            if s >> k & 1 == 1 {
                plane.relocate(from, to);
            }
        }
        self.symbol[index(to)] = s;
        self.attr[index(to)] = self.attr[index(from)];
    }

    /// The first one-segment pair in priority order.
    ///
    /// A one-segment pair is two consecutive blocks of a row or of a column with equal
    /// symbols. Rows are swept bottom-up carrying, per column, the symbol planes of the
    /// nearest block below: a row's blocks whose planes all agree have an equal block below.
    /// Columns are swept right to left the same way over column words. The first such block
    /// in row-major order is the pair's first block; its partner to the right (same row)
    /// comes before its partner below.
    fn one_segment(&self) -> Option<(Cell, Cell)> {
        let (top, bottom) = (RING, RING + self.n - 1);
        let (left, right) = (RING, RING + self.m - 1);
        // Lowest row holding a block with an equal block below it, with those blocks.
        let mut vertical: Option<(usize, u32)> = None;
        let mut seen = 0u32;
        let mut nearest = [0u32; PLANES];
        for r in (top..=bottom).rev() {
            let row = self.occupied.row(r);
            let mut differ = 0u32;
            for (k, plane) in self.planes.iter().enumerate() {
                let bits = plane.row(r);
                differ |= bits ^ nearest[k];
                nearest[k] = (nearest[k] & !row) | bits;
            }
            let equal = row & seen & !differ;
            if equal != 0 {
                vertical = Some((r, equal));
            }
            seen |= row;
        }
        // Per column: the rows whose block has an equal block to its right.
        let mut horizontal = [0u32; SIDE];
        let mut first_row = SIDE;
        seen = 0;
        nearest = [0; PLANES];
        for c in (left..=right).rev() {
            let col = self.occupied.col(c);
            let mut differ = 0u32;
            for (k, plane) in self.planes.iter().enumerate() {
                let bits = plane.col(c);
                differ |= bits ^ nearest[k];
                nearest[k] = (nearest[k] & !col) | bits;
            }
            horizontal[c] = col & seen & !differ;
            first_row = first_row.min(horizontal[c].trailing_zeros() as usize);
            seen |= col;
        }
        let row = match vertical {
            Some((r, _)) => r.min(first_row),
            None if first_row < SIDE => first_row,
            None => return None,
        };
        let mut firsts = vertical.filter(|&(r, _)| r == row).map_or(0, |(_, w)| w);
        let mut rightwards = 0u32;
        for (c, &rows) in horizontal.iter().enumerate().take(right + 1).skip(left) {
            rightwards |= (rows >> row & 1) << c;
        }
        firsts |= rightwards;
        let c = firsts.trailing_zeros() as usize;
        let partner = if rightwards >> c & 1 == 1 {
            (row, next_above(self.occupied.row(row), c)?)
        } else {
            (next_above(self.occupied.col(c), row)?, c)
        };
        Some(((row, c), partner))
    }

    fn enter_row(&mut self, s: usize, r: usize) {
        self.per_row[s][r] += 1;
        self.rows_of[s] |= 1 << r;
    }

    fn leave_row(&mut self, s: usize, r: usize) {
        self.per_row[s][r] -= 1;
        if self.per_row[s][r] == 0 {
            self.rows_of[s] &= !(1 << r);
        }
    }

    /// The first pair found by `search` from blocks in row-major order. Blocks whose symbol
    /// has no block in a later row (nor, when `same_row` is set, later in their own row)
    /// cannot be a first block and are skipped without searching.
    fn first_pair(
        &self,
        same_row: bool,
        search: impl Fn(&Self, Cell, &Bitboard) -> Option<Cell>,
    ) -> Option<(Cell, Cell)> {
        for r in RING..RING + self.n {
            for c in bits(self.occupied.row(r)) {
                let s = usize::from(self.symbol[index((r, c))]);
                let same = &self.by_symbol[s];
                let later = self.rows_of[s] >> r >> 1 != 0
                    || (same_row && next_above(same.row(r), c).is_some());
                if later && let Some(b) = search(self, (r, c), same) {
                    return Some(((r, c), b));
                }
            }
        }
        None
    }

    /// The smallest block of `same` after `a` linked to `a` by two segments. Both shapes go
    /// down from a's row: along a's row through empty cells, then down a column to the first
    /// block there (one bit scan of the column word per cell of the run); or down a's column
    /// through empty cells, then along a row to the nearest block on either side (two bit
    /// scans of the row word per cell of the run).
    fn two_segments_from(&self, (r, c): Cell, same: &Bitboard) -> Option<Cell> {
        let mut best: Option<Cell> = None;
        let free = self.empty.row(r);
        for x in bits(run_below(free, c) | run_above(free, c)) {
            if let Some(y) = next_above(self.occupied.col(x), r)
                && same.contains(y, x)
            {
                keep_smaller(&mut best, (y, x));
            }
        }
        for y in bits(run_above(self.empty.col(c), r)) {
            if best.is_some_and(|b| b.0 < y) {
                break; // every later candidate is in a later row
            }
            let row = self.occupied.row(y);
            for x in [next_below(row, c), next_above(row, c)]
                .into_iter()
                .flatten()
            {
                if same.contains(y, x) {
                    keep_smaller(&mut best, (y, x));
                }
            }
        }
        best
    }

    /// The smallest block of `same` after `a` reached from `a` by a third segment.
    fn three_segments_from(&self, (r, c): Cell, same: &Bitboard) -> Option<Cell> {
        let mut best: Option<Cell> = None;
        let mut offer = |cell: Cell| {
            if cell > (r, c) && best.is_none_or(|b| cell < b) {
                best = Some(cell);
            }
        };
        // Vertical, horizontal, vertical: seeds are the horizontal runs from a's column run.
        let column_run = run_below(self.empty.col(c), r) | run_above(self.empty.col(c), r);
        if column_run != 0 {
            let mut seeds = [0u32; SIDE];
            for y in bits(column_run) {
                let free = self.empty.row(y);
                seeds[y] = run_below(free, c) | run_above(free, c) | 1 << c;
            }
            let (top, bottom) = span(column_run);
            // Cells of a's row right of a, and every cell of the rows below, come after a.
            let after = |y: usize| match y.cmp(&r) {
                std::cmp::Ordering::Less => 0,
                std::cmp::Ordering::Equal => !((2u32 << c) - 1),
                std::cmp::Ordering::Greater => u32::MAX,
            };
            let mut falling = 0;
            for (y, &seed) in seeds.iter().enumerate().skip(top) {
                let found = falling & self.occupied.row(y) & same.row(y) & after(y);
                if found != 0 {
                    offer((y, found.trailing_zeros() as usize));
                }
                falling = (falling & self.empty.row(y)) | seed;
                if falling == 0 && y >= bottom {
                    break;
                }
            }
            // Rising lines only reach rows above their seeds; rows above a's never matter.
            let mut rising = 0;
            for y in (r..=bottom).rev() {
                let found = rising & self.occupied.row(y) & same.row(y) & after(y);
                if found != 0 {
                    offer((y, found.trailing_zeros() as usize));
                }
                rising = (rising & self.empty.row(y)) | seeds[y];
            }
        }
        // Horizontal, vertical, horizontal: seeds are the vertical runs from a's row run.
        let row_run = run_below(self.empty.row(r), c) | run_above(self.empty.row(r), c);
        if row_run != 0 {
            let mut seeds = [0u32; SIDE];
            for x in bits(row_run) {
                let free = self.empty.col(x);
                seeds[x] = run_below(free, r) | run_above(free, r) | 1 << r;
            }
            let (left, right) = span(row_run);
            let after_row = !((2u32 << r) - 1);
            let mut offer_column = |x: usize, found: u32| {
                let later = found & after_row;
                if later != 0 {
                    offer((later.trailing_zeros() as usize, x));
                }
                if found >> r & 1 == 1 && x > c {
                    offer((r, x));
                }
            };
            let mut going = 0;
            for (x, &seed) in seeds.iter().enumerate().skip(left) {
                offer_column(x, going & self.occupied.col(x) & same.col(x));
                going = (going & self.empty.col(x)) | seed;
                if going == 0 && x >= right {
                    break;
                }
            }
            going = 0;
            for x in (0..=right).rev() {
                offer_column(x, going & self.occupied.col(x) & same.col(x));
                going = (going & self.empty.col(x)) | seeds[x];
                if going == 0 && x <= left {
                    break;
                }
            }
        }
        best
    }

    /// The pair to pop, if any.
    fn choose_pair(&self) -> Option<(Cell, Cell)> {
        self.one_segment()
            .or_else(|| self.first_pair(false, Table::two_segments_from))
            .or_else(|| self.first_pair(true, Table::three_segments_from))
    }

    /// The target of the block on `cell` if it may move there now: inside the board, empty.
    fn target(&self, (r, c): Cell) -> Option<Cell> {
        let target = match self.attr[index((r, c))] {
            Attr::Up if r > RING => (r - 1, c),
            Attr::Down if r < self.n => (r + 1, c),
            Attr::Left if c > RING => (r, c - 1),
            Attr::Right if c < self.m => (r, c + 1),
            _ => return None,
        };
        self.empty.contains(target.0, target.1).then_some(target)
    }

    /// The blocks whose move would take them into `cell` (the neighbours pointing at it).
    fn pointing_into(&self, (r, c): Cell) -> impl Iterator<Item = Cell> + '_ {
        [
            ((r - 1, c), Attr::Down),
            ((r + 1, c), Attr::Up),
            ((r, c - 1), Attr::Right),
            ((r, c + 1), Attr::Left),
        ]
        .into_iter()
        .filter(|&(n, attr)| self.movable.contains(n.0, n.1) && self.attr[index(n)] == attr)
        .map(|(n, _)| n)
    }

    /// Plays turns of checking after `vacated` cells were emptied, until a turn moves nothing.
    ///
    /// Every turn checks every block in row-major order, but only some can move: the board was
    /// at rest before the pop, so a block moves in a turn only if it moved in the previous turn
    /// or its target cell was emptied since it was last checked. Those candidates are kept as
    /// row words: `now` for this turn (a cell emptied during the turn wakes the block pointing
    /// into it in this turn if that block is still to be checked, else in the next turn) and
    /// `next`. Checking any other block would find it blocked, so the result is the same as
    /// checking them all.
    fn settle(&mut self, vacated: &[Cell]) {
        let mut now = [0u32; SIDE];
        for &cell in vacated {
            for (r, c) in self.pointing_into(cell) {
                now[r] |= 1 << c;
            }
        }
        while now.iter().any(|&w| w != 0) {
            let mut next = [0u32; SIDE];
            // Blocks that moved right or down in this turn: not checked again.
            let mut moved = [0u32; SIDE];
            for r in RING..RING + self.n {
                while now[r] != 0 {
                    let c = now[r].trailing_zeros() as usize;
                    now[r] &= now[r] - 1;
                    if moved[r] >> c & 1 == 1 || !self.movable.contains(r, c) {
                        continue;
                    }
                    let Some(to) = self.target((r, c)) else {
                        continue;
                    };
                    self.shift((r, c), to);
                    next[to.0] |= 1 << to.1;
                    if to > (r, c) {
                        moved[to.0] |= 1 << to.1;
                    }
                    for n in self.pointing_into((r, c)) {
                        if n > (r, c) && moved[n.0] >> n.1 & 1 == 0 {
                            now[n.0] |= 1 << n.1;
                        } else {
                            next[n.0] |= 1 << n.1;
                        }
                    }
                }
            }
            now = next;
        }
    }

    fn board(&self) -> Board {
        let mut cells = vec![None; self.n * self.m];
        for (r, c) in self.occupied.cells() {
            let symbol = b'A' + self.symbol[index((r, c))];
            cells[(r - RING) * self.m + c - RING] = Some(Block {
                symbol,
                attr: self.attr[index((r, c))],
            });
        }
        Board {
            rows: self.n,
            cols: self.m,
            cells,
        }
    }
}

/// Keeps in `best` the smaller (row-major) of itself and `cell`.
fn keep_smaller(best: &mut Option<Cell>, cell: Cell) {
    if best.is_none_or(|b| cell < b) {
        *best = Some(cell);
    }
}

/// Lowest and highest set bit of a non-zero word.
fn span(word: u32) -> (usize, usize) {
    (
        word.trailing_zeros() as usize,
        31 - word.leading_zeros() as usize,
    )
}

pub fn solve(board: &Board, _budget: &Budget) -> Result<Outcome<Board>, CaseError> {
    let mut table = Table::new(board);
    let mut pops = 0;
    while let Some((a, b)) = table.choose_pair() {
        table.pop(a);
        table.pop(b);
        pops += 1;
        table.settle(&[a, b]);
    }
    Ok(Outcome::solved(table.board(), pops))
}
