//! The reference engine: the statement followed literally, simple and slow on purpose.
//!
//! The grid is a 2-D array of `Option<u8>` (`None` = empty), `grid[row][col]` with row 0 at the
//! bottom. A selection is range-checked, its region found by a flood fill with an explicit stack
//! (no recursion), removed when it has at least [`MIN_REGION`] cells; then gravity runs in every
//! column and every empty column is dropped, the columns to its right sliding left. Once the
//! grid is empty the remaining selections are skipped. It is the oracle for [`super::bitboard`].

use super::{Game, Leftover, MIN_REGION};
use crate::game::{Budget, CaseError, Outcome};

/// Rows of cells, bottom row first.
type Grid = Vec<Vec<Option<u8>>>;

/// Replays every selection of `game`; the work counter is the number of regions removed.
pub fn solve(game: &Game, _budget: &Budget) -> Result<Outcome<Leftover>, CaseError> {
    let (rows, cols) = (game.rows(), game.cols());
    let mut grid: Grid = (0..rows)
        .map(|r| (0..cols).map(|c| Some(game.value(r, c))).collect())
        .collect();
    let mut removals = 0;
    for selection in game.selections() {
        if is_empty(&grid) {
            break; // won: the remaining pairs are skipped
        }
        let Some((row, col)) = selection.cell(rows, cols) else {
            continue; // out of range
        };
        let Some(value) = grid[row][col] else {
            continue; // an empty cell: above a column's top, or in a vacated column
        };
        let region = region_of(&grid, row, col, value);
        if region.len() < MIN_REGION {
            continue; // a single cell is not removed
        }
        for &(r, c) in &region {
            grid[r][c] = None;
        }
        apply_gravity(&mut grid);
        collapse_empty_columns(&mut grid);
        removals += 1;
    }
    let mut left = Leftover::empty(rows, cols);
    for (r, cells) in grid.iter().enumerate() {
        for (c, &cell) in cells.iter().enumerate() {
            left.set(r, c, cell);
        }
    }
    Ok(Outcome::solved(left, removals))
}

fn is_empty(grid: &Grid) -> bool {
    grid.iter().all(|row| row.iter().all(Option::is_none))
}

/// The 4-connected cells holding `value` reachable from `(row, col)`, by depth-first search
/// with an explicit stack.
fn region_of(grid: &Grid, row: usize, col: usize, value: u8) -> Vec<(usize, usize)> {
    let rows = grid.len();
    let cols = grid[0].len();
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
            if nr < rows && nc < cols && !seen[nr][nc] && grid[nr][nc] == Some(value) {
                seen[nr][nc] = true;
                stack.push((nr, nc));
            }
        }
    }
    region
}

/// Lets the cells of every column fall down over the empty cells below them.
fn apply_gravity(grid: &mut Grid) {
    let rows = grid.len();
    for c in 0..grid[0].len() {
        let column: Vec<u8> = (0..rows).filter_map(|r| grid[r][c]).collect();
        for (r, row) in grid.iter_mut().enumerate() {
            row[c] = column.get(r).copied();
        }
    }
}

/// Drops every column with no cell left; the columns to its right slide left and empty
/// columns fill the right edge.
fn collapse_empty_columns(grid: &mut Grid) {
    let cols = grid[0].len();
    let kept: Vec<usize> = (0..cols)
        .filter(|&c| grid.iter().any(|row| row[c].is_some()))
        .collect();
    for row in grid.iter_mut() {
        let slid: Vec<Option<u8>> = (0..cols)
            .map(|i| kept.get(i).and_then(|&c| row[c]))
            .collect();
        *row = slid;
    }
}
