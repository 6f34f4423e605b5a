//! SameGame's case edits for `stress` (reductions) and `hunt` (mutations).
//!
//! Reductions of a grid, biggest cuts first: drop runs of selections, of rows and of columns
//! (halves, quarters, ..., single ones; selections above or right of removed lines move with
//! their cells), bring out-of-range selection coordinates down to one past the edge, renumber the
//! largest value to the smallest unused smaller one (the same game up to names), and lower one
//! cell's value. The input is written in the canonical layout: header, one line per grid row
//! (bottom row first), one pair per line, `0 0`, then the `0 0` header that ends the file.
//! A selection is never written as `0 0` (that would end the grid's selections), and no
//! reduction lowers a selection's row to 0: a pair `0 c` reads differently under
//! `--zero-pair ends-list` (RULES.md, Checking an answer), so shrinking never creates one.

use std::ops::Range;

use gamebench_generators::Dice;

use super::{Game, MAX_VALUE, SameGame, Selection};
use crate::game::{CaseSize, Shrink, runs};

impl Shrink for SameGame {
    const MOVES: &'static str = "selections";
    /// The statement sets no limit on the number of grids in a file.
    const MAX_CASES: usize = usize::MAX;

    fn write_input(cases: &[&Game]) -> String {
        let mut text = String::new();
        for game in cases {
            text.push_str(&format!("{} {}\n", game.rows, game.cols));
            for row in game.cells.chunks(game.cols) {
                let values: Vec<String> = row.iter().map(u8::to_string).collect();
                text.push_str(&values.join(" "));
                text.push('\n');
            }
            for s in &game.selections {
                text.push_str(&format!("{} {}\n", s.row, s.col));
            }
            text.push_str("0 0\n");
        }
        text.push_str("0 0\n");
        text
    }

    fn size(game: &Game) -> CaseSize {
        let values: u64 = game.cells.iter().map(|&v| u64::from(v)).sum();
        let coordinates: u64 = game
            .selections
            .iter()
            .map(|s| u64::from(s.row) + u64::from(s.col))
            .sum();
        CaseSize {
            cells: game.rows * game.cols,
            moves: game.selections.len(),
            magnitude: values + coordinates,
        }
    }

    fn reductions(game: &Game) -> Vec<Game> {
        let mut out = Vec::new();
        // Runs of selections, rows and columns, the longest first (delta debugging).
        for run in runs(game.selections.len()) {
            let mut selections = game.selections.clone();
            selections.drain(run);
            out.extend(Game::new(
                game.rows,
                game.cols,
                game.cells.clone(),
                selections,
            ));
        }
        for run in runs(game.rows) {
            out.extend(without_rows(game, run));
        }
        for run in runs(game.cols) {
            out.extend(without_cols(game, run));
        }
        out.extend(lower_selections(game));
        out.extend(renumbered(game));
        for (i, &value) in game.cells.iter().enumerate() {
            for lower in 0..value {
                let mut cells = game.cells.clone();
                cells[i] = lower;
                out.extend(Game::new(
                    game.rows,
                    game.cols,
                    cells,
                    game.selections.clone(),
                ));
            }
        }
        out
    }

    /// Every grid the parser accepts is playable: the engines never fail on one, so there is
    /// nothing to check (and no reason to play the case once more for every candidate).
    fn admissible(_case: &Game) -> bool {
        true
    }

    fn mutate(game: &Game, dice: &mut Dice) -> Game {
        let mut next = game.clone();
        let top = game.cells.iter().copied().max().unwrap_or(0).max(1);
        if next.selections.is_empty() || dice.chance(1, 2) {
            let i = dice.below(next.cells.len() as u64) as usize;
            next.cells[i] = dice.range(0, u64::from(top)) as u8;
        } else {
            let i = dice.below(next.selections.len() as u64) as usize;
            next.selections[i] = Selection {
                row: dice.range(1, game.rows as u64) as u32,
                col: dice.range(1, game.cols as u64) as u32,
            };
        }
        next
    }
}

/// A selection's coordinate (1-based) after the lines `removed` (0-based) of its axis are
/// removed: beyond them, moved back by their number; on one of them, the line that slides into
/// its place; before them, unchanged.
fn shifted(coordinate: u32, removed: &Range<usize>) -> u32 {
    let c = coordinate as usize;
    if c > removed.end {
        coordinate - removed.len() as u32
    } else if c > removed.start {
        removed.start as u32 + 1
    } else {
        coordinate
    }
}

/// The selection, unless it would read as the `0 0` that ends a grid's selections.
fn not_terminator(s: Selection) -> Option<Selection> {
    (s.row != 0 || s.col != 0).then_some(s)
}

/// The game without the rows `removed` (0-based, bottom first); `None` if none would be left.
fn without_rows(game: &Game, removed: Range<usize>) -> Option<Game> {
    let cells: Vec<u8> = game
        .cells
        .chunks(game.cols)
        .enumerate()
        .filter(|(r, _)| !removed.contains(r))
        .flat_map(|(_, cells)| cells.iter().copied())
        .collect();
    let selections = game
        .selections
        .iter()
        .map(|s| Selection {
            row: shifted(s.row, &removed),
            col: s.col,
        })
        .filter_map(not_terminator)
        .collect();
    Game::new(game.rows - removed.len(), game.cols, cells, selections)
}

/// The game without the columns `removed` (0-based); `None` if none would be left.
fn without_cols(game: &Game, removed: Range<usize>) -> Option<Game> {
    let cells: Vec<u8> = game
        .cells
        .iter()
        .enumerate()
        .filter(|(i, _)| !removed.contains(&(i % game.cols)))
        .map(|(_, &v)| v)
        .collect();
    let selections = game
        .selections
        .iter()
        .map(|s| Selection {
            row: s.row,
            col: shifted(s.col, &removed),
        })
        .filter_map(not_terminator)
        .collect();
    Game::new(game.rows, game.cols - removed.len(), cells, selections)
}

/// Out-of-range coordinates brought down to one past the edge (still ignored by the rules).
fn lower_selections(game: &Game) -> Vec<Game> {
    let (rows, cols) = (game.rows as u32 + 1, game.cols as u32 + 1);
    let mut out = Vec::new();
    for (i, s) in game.selections.iter().enumerate() {
        let lowered = Selection {
            row: s.row.min(rows),
            col: s.col.min(cols),
        };
        if lowered != *s {
            let mut selections = game.selections.clone();
            selections[i] = lowered;
            out.extend(Game::new(
                game.rows,
                game.cols,
                game.cells.clone(),
                selections,
            ));
        }
    }
    out
}

/// The largest value renamed to the smallest value below it that no cell holds: the same game
/// with smaller numbers.
fn renumbered(game: &Game) -> Option<Game> {
    let mut used = [false; MAX_VALUE as usize + 1];
    for &v in &game.cells {
        used[usize::from(v)] = true;
    }
    let largest = used.iter().rposition(|&u| u)? as u8;
    let free = used.iter().position(|&u| !u)? as u8;
    (free < largest).then(|| {
        let cells = game
            .cells
            .iter()
            .map(|&v| if v == largest { free } else { v })
            .collect();
        Game::new(game.rows, game.cols, cells, game.selections.clone())
    })?
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;

    fn game(rows: usize, cols: usize, cells: &[u8], selections: &[(u32, u32)]) -> Game {
        let selections = selections
            .iter()
            .map(|&(row, col)| Selection { row, col })
            .collect();
        Game::new(rows, cols, cells.to_vec(), selections).unwrap()
    }

    #[test]
    fn the_written_input_reads_back_as_the_same_games() {
        let a = game(2, 3, &[1, 1, 2, 0, 9, 2], &[(1, 1), (0, 5), (123456, 2)]);
        let b = game(1, 1, &[4], &[]);
        let text = SameGame::write_input(&[&a, &b]);
        assert_eq!(
            text,
            "2 3\n1 1 2\n0 9 2\n1 1\n0 5\n123456 2\n0 0\n1 1\n4\n0 0\n0 0\n"
        );
        let parsed: Vec<Game> = SameGame::parse(text.as_bytes(), &crate::game::Reading::STATEMENT)
            .into_iter()
            .map(|p| p.case.unwrap())
            .collect();
        assert_eq!(parsed, vec![a, b]);
    }

    #[test]
    fn every_reduction_is_smaller_and_none_writes_a_terminator() {
        let g = game(
            2,
            3,
            &[1, 1, 2, 3, 0, 2],
            &[(1, 1), (2, 1), (99, 99), (1, 3)],
        );
        let reductions = SameGame::reductions(&g);
        assert!(!reductions.is_empty());
        for r in &reductions {
            assert!(SameGame::size(r) < SameGame::size(&g), "{r:?}");
            assert!(r.selections.iter().all(|s| s.row != 0 || s.col != 0));
            // No reduction makes a row 0, so none creates a pair `0 c`, which the two
            // readings of `--zero-pair` would read differently.
            assert!(r.selections.iter().all(|s| s.row != 0), "{r:?}");
        }
        // Removing the bottom row moves the selection on row 2 down to row 1.
        assert!(reductions.contains(&game(1, 3, &[3, 0, 2], &[(1, 1), (1, 1), (98, 99), (1, 3)])));
        // Column 1 removed: (1,3) becomes (1,2); (1,1) and (2,1) stay.
        assert!(reductions.contains(&game(
            2,
            2,
            &[1, 2, 3, 2],
            &[(1, 1), (2, 1), (99, 98), (1, 2)]
        )));
        // An out-of-range selection lowered to one past the edge.
        assert!(reductions.contains(&game(
            2,
            3,
            &[1, 1, 2, 3, 0, 2],
            &[(1, 1), (2, 1), (3, 4), (1, 3)]
        )));
        assert_eq!(
            renumbered(&game(1, 3, &[0, 5, 5], &[])),
            Some(game(1, 3, &[0, 1, 1], &[]))
        );
        assert_eq!(renumbered(&game(1, 3, &[0, 1, 2], &[])), None);
    }
}
