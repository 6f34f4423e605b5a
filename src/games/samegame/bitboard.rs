//! The fast engine: one packed word per column, bit-parallel regions, word-level gravity.
//!
//! A column is one `u64` ([`ColumnWord`]): row r's value (0..=9) in bits `4r..4r+4`, so the
//! ten rows fit in 40 bits, plus its height (gravity keeps every column packed at the bottom, so
//! the cells of column c are exactly rows `0..height[c]`). A set of rows of one column
//! ([`Rows`]) uses the same layout with one flag bit per row (bit `4r`), which makes the
//! "rows holding value v" mask a handful of SWAR operations on the column word.
//!
//! A region grows bit-parallel, a column at a time: a column's part takes the rows its two
//! neighbours' parts share with its same-value mask and is closed vertically by a branch-free
//! occluded fill ([`Rows::fill_within`]); a column whose part grew puts its neighbours on a
//! worklist (a bitmask of columns), until the list is empty. Most rejected selections never get
//! there: a cell with no equal neighbour is a singleton, found by four cheap tests.
//!
//! Gravity removes the region's rows from a column word by shifting the part above each removed
//! row down by one row; empty columns are then squeezed out of the column array in one pass,
//! however many vanished at once.
//!
//! Invariants of [`Board`]: columns `0..width` have height >= 1, columns `width..` height 0;
//! nibbles at or above a column's height are zero; `remaining` is the sum of the heights.

use super::{Game, Leftover, MAX_COLS, MAX_ROWS, MIN_REGION};
use crate::game::{Budget, CaseError, Outcome};

/// Bits per row in a column word (one nibble holds a value 0..=9).
const ROW_BITS: u32 = 4;
/// Mask of one row's value bits.
const ROW_VALUE_MASK: u64 = (1 << ROW_BITS) - 1;
/// The flag bit (lowest bit) of each of the [`MAX_ROWS`] rows: `0x11_1111_1111`.
const ROW_FLAGS: u64 = {
    let mut flags = 0u64;
    let mut row = 0;
    while row < MAX_ROWS {
        flags |= 1 << (row as u32 * ROW_BITS);
        row += 1;
    }
    flags
};

/// Bit position of the top row's nibble.
const TOP_ROW_SHIFT: u32 = (MAX_ROWS as u32 - 1) * ROW_BITS;

/// Bits 0 and 2: shifted by a column c and back by one, the columns on both sides of c.
const NEIGHBOUR_BITS: u64 = 0b101;

/// A set of rows of one column: row r is bit `4r` (the flag bit of its nibble).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rows(u64);

impl Rows {
    pub const NONE: Rows = Rows(0);

    /// The set holding row `row` (< [`MAX_ROWS`]) alone.
    #[inline]
    pub fn single(row: usize) -> Rows {
        debug_assert!(row < MAX_ROWS);
        Rows(1 << (row as u32 * ROW_BITS))
    }

    /// Rows `0..height` (`height` <= [`MAX_ROWS`]).
    #[inline]
    pub fn below(height: usize) -> Rows {
        debug_assert!(height <= MAX_ROWS);
        Rows(ROW_FLAGS & ((1u64 << (height as u32 * ROW_BITS)) - 1))
    }

    /// The set plus the rows just above and just below its members (a row above the top
    /// may appear; callers intersect with a real mask).
    #[inline]
    pub fn with_vertical_neighbours(self) -> Rows {
        Rows(self.0 | (self.0 << ROW_BITS) | (self.0 >> ROW_BITS))
    }

    #[inline]
    pub fn union(self, other: Rows) -> Rows {
        Rows(self.0 | other.0)
    }

    #[inline]
    pub fn intersection(self, other: Rows) -> Rows {
        Rows(self.0 & other.0)
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of rows in the set. Multiplying by [`ROW_FLAGS`] sums every flag into the top
    /// row's nibble (at most 10 < 16, and no lower nibble carries), which is cheaper than
    /// `count_ones` on targets without a popcount instruction (the x86-64 baseline).
    #[inline]
    pub fn len(self) -> usize {
        ((self.0.wrapping_mul(ROW_FLAGS) >> TOP_ROW_SHIFT) & ROW_VALUE_MASK) as usize
    }

    /// The highest row of the set.
    #[inline]
    pub fn highest(self) -> Option<usize> {
        (self.0 != 0).then(|| ((u64::BITS - 1 - self.0.leading_zeros()) / ROW_BITS) as usize)
    }

    /// The rows of `mask` connected to the set through rows of `mask` (the set's members
    /// outside `mask` are dropped): a branch-free occluded fill up and down, by 1, 2, 4 and 8
    /// rows, which covers the at most 9 steps of a column.
    #[inline(always)]
    pub fn fill_within(self, mask: Rows) -> Rows {
        let m = mask.0;
        let mut up = self.0 & m;
        let mut down = up;
        let (mut open_up, mut open_down) = (m, m);
        for step in [ROW_BITS, 2 * ROW_BITS, 4 * ROW_BITS, 8 * ROW_BITS] {
            up |= (up << step) & open_up;
            open_up &= open_up << step;
            down |= (down >> step) & open_down;
            open_down &= open_down >> step;
        }
        Rows(up | down)
    }

    /// The set without row `row`.
    #[inline]
    pub fn without(self, row: usize) -> Rows {
        Rows(self.0 & !Rows::single(row).0)
    }
}

/// The values of one column, row r in bits `4r..4r+4` (row 0 = bottom).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ColumnWord(u64);

impl ColumnWord {
    /// A column from its values, bottom first (at most [`MAX_ROWS`]).
    pub fn from_values(values: impl IntoIterator<Item = u8>) -> ColumnWord {
        let mut word = 0u64;
        for (row, value) in values.into_iter().enumerate() {
            debug_assert!(row < MAX_ROWS && u64::from(value) <= ROW_VALUE_MASK);
            word |= u64::from(value) << (row as u32 * ROW_BITS);
        }
        ColumnWord(word)
    }

    /// The value in row `row`.
    #[inline]
    pub fn value(self, row: usize) -> u8 {
        ((self.0 >> (row as u32 * ROW_BITS)) & ROW_VALUE_MASK) as u8
    }

    /// The rows below `height` holding `value`, by SWAR: XOR with `value` in every nibble
    /// zeroes exactly the matching nibbles; OR-folding each nibble onto its flag bit marks the
    /// non-matching ones.
    #[inline]
    pub fn rows_holding(self, value: u8, height: usize) -> Rows {
        let diff = self.0 ^ (u64::from(value) * ROW_FLAGS);
        let differs = (diff | (diff >> 1) | (diff >> 2) | (diff >> 3)) & ROW_FLAGS;
        Rows(!differs & Rows::below(height).0)
    }

    /// Gravity: the column with the values of `rows` removed, everything above each removed
    /// row falling by one row per removed row below it. Zeroes come in at the top.
    #[inline]
    pub fn without(self, rows: Rows) -> ColumnWord {
        let mut word = self.0;
        let mut left = rows;
        // Highest first, so the positions of the lower removed rows are not disturbed.
        while let Some(row) = left.highest() {
            let below = (1u64 << (row as u32 * ROW_BITS)) - 1;
            word = (word & below) | ((word >> ROW_BITS) & !below);
            left = left.without(row);
        }
        ColumnWord(word)
    }
}

/// A game in progress.
#[derive(Debug, Clone)]
pub struct Board {
    rows: usize,
    cols: usize,
    words: [ColumnWord; MAX_COLS],
    heights: [u8; MAX_COLS],
    /// Columns `0..width` are non-empty.
    width: usize,
    /// Cells left on the board.
    remaining: usize,
    /// Scratch for [`Board::select`]: `region[c + 1]` is column c's part of the region being
    /// grown, so every column has two readable neighbours; all empty between selections.
    region: [Rows; MAX_COLS + 2],
}

impl Board {
    pub fn new(game: &Game) -> Board {
        let (rows, cols) = (game.rows(), game.cols());
        let mut words = [ColumnWord::default(); MAX_COLS];
        let mut heights = [0u8; MAX_COLS];
        for (c, word) in words.iter_mut().enumerate().take(cols) {
            *word = ColumnWord::from_values((0..rows).map(|r| game.value(r, c)));
            heights[c] = rows as u8;
        }
        Board {
            rows,
            cols,
            words,
            heights,
            width: cols,
            remaining: rows * cols,
            region: [Rows::NONE; MAX_COLS + 2],
        }
    }

    /// True when every cell was removed.
    pub fn is_won(&self) -> bool {
        self.remaining == 0
    }

    /// Selects 0-based `(row, col)` (inside the grid's shape): removes its region if the cell
    /// holds a value and the region has at least [`MIN_REGION`] cells, then applies gravity
    /// and column collapse. Returns whether a region was removed.
    pub fn select(&mut self, row: usize, col: usize) -> bool {
        if col >= self.width || row >= usize::from(self.heights[col]) {
            return false; // empty: above the column's top, or a vacated column
        }
        let value = self.words[col].value(row);
        let seed = Rows::single(row);
        let same_here = self.same(col, value);
        // Most rejected selections are singletons: test the four neighbours before growing.
        let vertical = seed.with_vertical_neighbours().intersection(same_here);
        let left = col > 0 && self.holds(col - 1, row, value);
        let right = self.holds(col + 1, row, value);
        if vertical == seed && !left && !right {
            return false;
        }
        let (lo, hi, size) = self.grow_region(col, seed.fill_within(same_here), value);
        debug_assert!(size >= MIN_REGION);
        let mut emptied = false;
        for c in lo..=hi {
            let removed = self.region[c + 1];
            self.region[c + 1] = Rows::NONE; // leave the scratch clean for the next selection
            self.words[c] = self.words[c].without(removed);
            self.heights[c] -= removed.len() as u8;
            emptied |= self.heights[c] == 0;
        }
        self.remaining -= size;
        if emptied {
            self.collapse_from(lo);
        }
        true
    }

    /// The rows of column `c` holding `value`.
    #[inline(always)]
    fn same(&self, c: usize, value: u8) -> Rows {
        self.words[c].rows_holding(value, usize::from(self.heights[c]))
    }

    /// True when column `c` has a cell in row `row` holding `value` (false past the width).
    #[inline(always)]
    fn holds(&self, c: usize, row: usize, value: u8) -> bool {
        c < self.width && row < usize::from(self.heights[c]) && self.words[c].value(row) == value
    }

    /// Grows the region of `value` from `start` (column `col`'s part, already closed
    /// vertically) into `self.region`, bit-parallel: a column is re-examined whenever a
    /// neighbour's part grows, and takes the rows its neighbours share with its same-value
    /// mask, closed vertically. Returns the column span and the number of cells.
    fn grow_region(&mut self, col: usize, start: Rows, value: u8) -> (usize, usize, usize) {
        let columns = (1u64 << self.width) - 1;
        // Bits c-1 and c+1 of the columns to re-examine once column c has grown.
        let around = |c: usize| ((NEIGHBOUR_BITS << c) >> 1) & columns;
        self.region[col + 1] = start;
        let mut dirty = around(col);
        let (mut lo, mut hi) = (col, col);
        while dirty != 0 {
            let c = dirty.trailing_zeros() as usize;
            dirty &= dirty - 1;
            let same = self.same(c, value);
            let before = self.region[c + 1];
            let touching = self.region[c].union(self.region[c + 2]).intersection(same);
            if touching.intersection(before) == touching {
                continue; // nothing new reaches this column
            }
            let after = before.union(touching).fill_within(same);
            if after != before {
                self.region[c + 1] = after;
                dirty |= around(c);
                lo = lo.min(c);
                hi = hi.max(c);
            }
        }
        let size = self.region[lo + 1..=hi + 1].iter().map(|r| r.len()).sum();
        (lo, hi, size)
    }

    /// Squeezes the empty columns at or right of `from` out, in one pass.
    fn collapse_from(&mut self, from: usize) {
        let mut write = from;
        for read in from..self.width {
            if self.heights[read] != 0 {
                self.words[write] = self.words[read];
                self.heights[write] = self.heights[read];
                write += 1;
            }
        }
        for c in write..self.width {
            self.words[c] = ColumnWord::default();
            self.heights[c] = 0;
        }
        self.width = write;
    }

    /// The board as a grid of optional values.
    pub fn leftover(&self) -> Leftover {
        let mut left = Leftover::empty(self.rows, self.cols);
        for c in 0..self.width {
            for r in 0..usize::from(self.heights[c]) {
                left.set(r, c, Some(self.words[c].value(r)));
            }
        }
        left
    }
}

/// Replays every selection of `game`; the work counter is the number of regions removed.
pub fn solve(game: &Game, _budget: &Budget) -> Result<Outcome<Leftover>, CaseError> {
    let mut board = Board::new(game);
    let mut removals = 0;
    for selection in game.selections() {
        if board.is_won() {
            break; // the remaining pairs are skipped
        }
        if let Some((row, col)) = selection.cell(game.rows(), game.cols())
            && board.select(row, col)
        {
            removals += 1;
        }
    }
    Ok(Outcome::solved(board.leftover(), removals))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_flags_mark_ten_nibbles() {
        assert_eq!(ROW_FLAGS, 0x11_1111_1111);
        assert_eq!(Rows::below(MAX_ROWS).0, ROW_FLAGS);
        assert_eq!(Rows::below(0), Rows::NONE);
        assert_eq!(Rows::below(3).0, 0x111);
    }

    #[test]
    fn rows_grow_and_count() {
        let mid = Rows::single(4);
        let grown = mid.with_vertical_neighbours();
        assert_eq!(grown, Rows::single(3).union(mid).union(Rows::single(5)));
        assert_eq!(grown.len(), 3);
        assert_eq!(Rows::NONE.len(), 0);
        assert_eq!(Rows::below(MAX_ROWS).len(), MAX_ROWS);
        assert_eq!(Rows::single(9).union(Rows::single(0)).len(), 2);
        assert_eq!(grown.highest(), Some(5));
        assert_eq!(Rows::NONE.highest(), None);
        assert_eq!(grown.without(5).highest(), Some(4));
        // The bottom row does not wrap around.
        assert_eq!(Rows::single(0).with_vertical_neighbours().len(), 2);
        assert!(Rows::single(0).intersection(Rows::single(1)).is_empty());
    }

    #[test]
    fn fill_stays_inside_the_runs_of_the_mask() {
        let rows = |list: &[usize]| {
            list.iter()
                .fold(Rows::NONE, |s, &r| s.union(Rows::single(r)))
        };
        // Mask: runs {0,1,2}, {4}, {6,7,8,9}.
        let mask = rows(&[0, 1, 2, 4, 6, 7, 8, 9]);
        assert_eq!(Rows::single(1).fill_within(mask), rows(&[0, 1, 2]));
        assert_eq!(Rows::single(4).fill_within(mask), rows(&[4]));
        assert_eq!(Rows::single(9).fill_within(mask), rows(&[6, 7, 8, 9]));
        assert_eq!(
            rows(&[0, 7]).fill_within(mask),
            rows(&[0, 1, 2, 6, 7, 8, 9])
        );
        // Seeds outside the mask are dropped; a full column fills from either end.
        assert_eq!(Rows::single(3).fill_within(mask), Rows::NONE);
        let full = Rows::below(MAX_ROWS);
        assert_eq!(Rows::single(0).fill_within(full), full);
        assert_eq!(Rows::single(9).fill_within(full), full);
    }

    #[test]
    fn column_word_reads_values_and_matches_them() {
        // Bottom to top: 0 3 0 9 3 (0 is an ordinary value).
        let column = ColumnWord::from_values([0, 3, 0, 9, 3]);
        assert_eq!(
            (0..5).map(|r| column.value(r)).collect::<Vec<_>>(),
            [0, 3, 0, 9, 3]
        );
        assert_eq!(
            column.rows_holding(3, 5),
            Rows::single(1).union(Rows::single(4))
        );
        assert_eq!(
            column.rows_holding(0, 5),
            Rows::single(0).union(Rows::single(2))
        );
        // Above the height the zero nibbles are no cells.
        assert_eq!(
            column.rows_holding(0, 3),
            Rows::single(0).union(Rows::single(2))
        );
        assert_eq!(column.rows_holding(9, 5), Rows::single(3));
        assert_eq!(column.rows_holding(7, 5), Rows::NONE);
        // Every value in every one of ten rows.
        let full = ColumnWord::from_values([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        for v in 0..10u8 {
            assert_eq!(full.rows_holding(v, MAX_ROWS), Rows::single(usize::from(v)));
        }
    }

    #[test]
    fn gravity_drops_the_cells_above_removed_rows() {
        let column = ColumnWord::from_values([1, 2, 3, 4, 5, 6]);
        // Remove rows 0, 2 and 3 (values 1, 3, 4): 2 5 6 remain, packed at the bottom.
        let removed = Rows::single(0)
            .union(Rows::single(2))
            .union(Rows::single(3));
        assert_eq!(column.without(removed), ColumnWord::from_values([2, 5, 6]));
        assert_eq!(column.without(Rows::NONE), column);
        assert_eq!(column.without(Rows::below(6)), ColumnWord::default());
        // The top row of a full column.
        let full = ColumnWord::from_values([9; MAX_ROWS]);
        assert_eq!(
            full.without(Rows::single(9)),
            ColumnWord::from_values([9; 9])
        );
    }
}
