//! The fast engine: one packed word per column, bit-parallel regions, word-level gravity.
//!
//! A column is one `u64` ([`ColumnWord`]): row r's value (0..=9) in bits `4r..4r+4`, so the
//! ten rows fit in 40 bits, plus its height (gravity keeps every column packed at the bottom, so
//! the cells of column c are exactly rows `0..height[c]`). A set of rows of one column
//! ([`Rows`]) uses the same layout with one flag bit per row (bit `4r`), which makes the
//! "rows holding value v" mask a handful of SWAR operations on the column word.
//!
//! A region grows bit-parallel: every column's region mask gains its vertical neighbours
//! (shifts by one row) and the masks of the columns on both sides, intersected with the
//! same-value mask, until nothing changes. Gravity removes the region's rows from a column word
//! by shifting the part above each removed row down by one row; empty columns are then squeezed
//! out of the column array in one pass, however many vanished at once.
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

    /// Number of rows in the set.
    #[inline]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The highest row of the set.
    #[inline]
    pub fn highest(self) -> Option<usize> {
        (self.0 != 0).then(|| ((u64::BITS - 1 - self.0.leading_zeros()) / ROW_BITS) as usize)
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
        // region[c + 1] is column c's part of the region; region[0] and region[width + 1]
        // stay empty so that every column has two neighbours to read.
        let mut region = [Rows::NONE; MAX_COLS + 2];
        region[col + 1] = Rows::single(row);
        let (mut lo, mut hi) = (col, col);
        loop {
            let mut grew = false;
            for c in lo.saturating_sub(1)..=(hi + 1).min(self.width - 1) {
                let same = self.words[c].rows_holding(value, usize::from(self.heights[c]));
                let before = region[c + 1];
                let mut rows = before
                    .union(region[c])
                    .union(region[c + 2])
                    .intersection(same);
                // Close the column vertically at once, so long vertical runs cost no passes.
                loop {
                    let next = rows.with_vertical_neighbours().intersection(same);
                    if next == rows {
                        break;
                    }
                    rows = next;
                }
                if rows != before {
                    region[c + 1] = rows;
                    grew = true;
                    lo = lo.min(c);
                    hi = hi.max(c);
                }
            }
            if !grew {
                break;
            }
        }
        let size: usize = region[lo + 1..=hi + 1].iter().map(|r| r.len()).sum();
        if size < MIN_REGION {
            return false;
        }
        let mut emptied = false;
        for c in lo..=hi {
            let removed = region[c + 1];
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
        assert_eq!(grown.highest(), Some(5));
        assert_eq!(Rows::NONE.highest(), None);
        assert_eq!(grown.without(5).highest(), Some(4));
        // The bottom row does not wrap around.
        assert_eq!(Rows::single(0).with_vertical_neighbours().len(), 2);
        assert!(Rows::single(0).intersection(Rows::single(1)).is_empty());
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
