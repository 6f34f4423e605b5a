//! The reference engine: the statement followed literally, simple and slow on purpose.
//!
//! The grid is a 2-D array of `Option<u8>` (`None` = empty), `grid[row][col]` with row 0 at the
//! bottom. A selection is range-checked, its region found by a flood fill with an explicit stack
//! (no recursion), removed when it has at least [`MIN_REGION`] cells; then gravity runs in every
//! column and every empty column is dropped, the columns to its right sliding left. Once the
//! grid is empty the remaining selections are skipped. It is the oracle for [`super::bitboard`],
//! and its [`Board`] is the model the generator plays its games on.

use super::{Game, Leftover, MIN_REGION};
use crate::game::{Budget, CaseError, Outcome};

/// Replays every selection of `game`; the work counter is the number of regions removed.
pub fn solve(game: &Game, _budget: &Budget) -> Result<Outcome<Leftover>, CaseError> {
    let (rows, cols) = (game.rows(), game.cols());
    let mut board = Board::new(rows, cols, |r, c| game.value(r, c));
    let mut removals = 0;
    for selection in game.selections() {
        if board.is_empty() {
            break; // won: the remaining pairs are skipped
        }
        let Some((row, col)) = selection.cell(rows, cols) else {
            continue; // out of range
        };
        // An empty cell (above a column's top, or in a vacated column) has no region.
        let region = board.region(row, col);
        if region.len() < MIN_REGION {
            continue; // a single cell is not removed
        }
        board.remove(&region);
        removals += 1;
    }
    let mut left = Leftover::empty(rows, cols);
    for (r, cells) in board.grid.iter().enumerate() {
        for (c, &cell) in cells.iter().enumerate() {
            left.set(r, c, cell);
        }
    }
    Ok(Outcome::solved(left, removals))
}

/// A grid in play, as the statement describes it: rows of `Option<u8>` cells (`None` = empty),
/// `grid[row][col]` with row 0 at the bottom. Invariant: settled, i.e. every column's cells
/// are at its bottom and the non-empty columns are at the left, in their original order. The
/// generator plays its games on it too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Board {
    grid: Vec<Vec<Option<u8>>>,
}

impl Board {
    /// A full `rows x cols` board (both at least 1) with `value(row, col)` in every cell.
    pub(crate) fn new(rows: usize, cols: usize, value: impl Fn(usize, usize) -> u8) -> Board {
        Board {
            grid: (0..rows)
                .map(|r| (0..cols).map(|c| Some(value(r, c))).collect())
                .collect(),
        }
    }

    pub(crate) fn rows(&self) -> usize {
        self.grid.len()
    }

    pub(crate) fn cols(&self) -> usize {
        self.grid[0].len()
    }

    /// The value at 0-based `(row, col)`; `None` when empty or outside the grid.
    pub(crate) fn get(&self, row: usize, col: usize) -> Option<u8> {
        self.grid.get(row)?.get(col).copied().flatten()
    }

    /// The number of cells left in column `col` (they are its lowest).
    pub(crate) fn height(&self, col: usize) -> usize {
        self.grid
            .iter()
            .take_while(|row| row[col].is_some())
            .count()
    }

    /// True when every cell was removed.
    pub(crate) fn is_empty(&self) -> bool {
        self.grid.iter().all(|row| row.iter().all(Option::is_none))
    }

    /// The 4-connected cells holding the value of `(row, col)` reachable from it, by
    /// depth-first search with an explicit stack; empty when the cell is empty.
    pub(crate) fn region(&self, row: usize, col: usize) -> Vec<(usize, usize)> {
        let Some(value) = self.get(row, col) else {
            return Vec::new();
        };
        let (rows, cols) = (self.rows(), self.cols());
        let mut seen = vec![vec![false; cols]; rows];
        let mut region = Vec::new();
        let mut stack = vec![(row, col)];
        seen[row][col] = true;
        while let Some((r, c)) = stack.pop() {
            region.push((r, c));
            let neighbours = [
                (r.wrapping_sub(1), c),
                (r + 1, c),
                (r, c.wrapping_sub(1)),
                (r, c + 1),
            ];
            for (nr, nc) in neighbours {
                // wrapping_sub turns "-1" into usize::MAX, which the range checks reject.
                if nr < rows && nc < cols && !seen[nr][nc] && self.grid[nr][nc] == Some(value) {
                    seen[nr][nc] = true;
                    stack.push((nr, nc));
                }
            }
        }
        region
    }

    /// Removes the cells of `region`, then settles: gravity, then column collapse.
    pub(crate) fn remove(&mut self, region: &[(usize, usize)]) {
        for &(r, c) in region {
            self.grid[r][c] = None;
        }
        self.apply_gravity();
        self.collapse_empty_columns();
    }

    /// Lets the cells of every column fall down over the empty cells below them.
    fn apply_gravity(&mut self) {
        let rows = self.rows();
        for c in 0..self.cols() {
            let column: Vec<u8> = (0..rows).filter_map(|r| self.grid[r][c]).collect();
            for (r, row) in self.grid.iter_mut().enumerate() {
                row[c] = column.get(r).copied();
            }
        }
    }

    /// Drops every column with no cell left; the columns to its right slide left and empty
    /// columns fill the right edge.
    fn collapse_empty_columns(&mut self) {
        let cols = self.cols();
        let kept: Vec<usize> = (0..cols)
            .filter(|&c| self.grid.iter().any(|row| row[c].is_some()))
            .collect();
        for row in self.grid.iter_mut() {
            let slid: Vec<Option<u8>> = (0..cols)
                .map(|i| kept.get(i).and_then(|&c| row[c]))
                .collect();
            *row = slid;
        }
    }
}
