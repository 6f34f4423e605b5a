//! Vexed's case edits for `stress` (reductions) and `hunt` (mutations).
//!
//! Reductions, biggest cuts first: remove one row or one column; empty both blocks of a pair of
//! one letter, or one block; knock out one wall; rename the largest letter to the smallest
//! unused smaller one; lower one block's letter to a smaller letter in use; shorten the name to
//! its first character. A candidate is admissible only if it is a puzzle a judge could give:
//! stable as written (nothing falls, no two touching blocks of a letter) and solved by the
//! default engine, within [`ADMISSIBLE_STATES`] expanded states, in at most
//! [`JUDGE_MOVE_LIMIT`] moves. The input is written as the statement shows it: `NR NC NAME`,
//! the rows, and the `0 0 END` line.

use gamebench_generators::Dice;

use super::grid::{EMPTY, Grid, WALL, is_block};
use super::{Puzzle, Vexed, bitset};
use crate::game::{Budget, Verdict};
use crate::game::{CaseSize, Shrink};

/// The judge's promise: every puzzle is solved in at most this many moves.
pub const JUDGE_MOVE_LIMIT: usize = 11;
/// The search budget of the admissibility check: a puzzle of at most
/// [`JUDGE_MOVE_LIMIT`] moves on a judge-sized board needs far fewer.
pub const ADMISSIBLE_STATES: u64 = 200_000;
/// The line that ends a judge input.
const END_LINE: &str = "0 0 END\n";
/// Letters A-Z.
const LETTERS: usize = 26;

fn puzzle(name: &str, rows: usize, cols: usize, cells: Vec<u8>) -> Puzzle {
    Puzzle {
        name: name.to_string(),
        grid: Grid::new(rows, cols, cells),
    }
}

fn with_cells(p: &Puzzle, cells: Vec<u8>) -> Puzzle {
    puzzle(&p.name, p.grid.rows(), p.grid.cols(), cells)
}

impl Shrink for Vexed {
    const MOVES: &'static str = "blocks";
    /// The statement sets no limit on the number of puzzles in a file.
    const MAX_CASES: usize = usize::MAX;

    fn write_input(cases: &[&Puzzle]) -> String {
        let mut text = String::new();
        for p in cases {
            text.push_str(&format!("{} {} {}\n", p.grid.rows(), p.grid.cols(), p.name));
            text.push_str(&p.grid.draw());
        }
        text.push_str(END_LINE);
        text
    }

    fn size(p: &Puzzle) -> CaseSize {
        let cells = p.grid.cells();
        let walls = cells.iter().filter(|&&c| c == WALL).count() as u64;
        let letters: u64 = cells
            .iter()
            .filter(|&&c| is_block(c))
            .map(|&c| u64::from(c - b'A'))
            .sum();
        CaseSize {
            cells: cells.len(),
            moves: cells.iter().filter(|&&c| is_block(c)).count(),
            magnitude: walls + letters + p.name.len() as u64,
        }
    }

    fn reductions(p: &Puzzle) -> Vec<Puzzle> {
        let (rows, cols) = (p.grid.rows(), p.grid.cols());
        let cells = p.grid.cells();
        let mut out = Vec::new();
        if rows > 1 {
            for r in 0..rows {
                let kept = cells
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i / cols != r)
                    .map(|(_, &c)| c)
                    .collect();
                out.push(puzzle(&p.name, rows - 1, cols, kept));
            }
        }
        if cols > 1 {
            for c in 0..cols {
                let kept = cells
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i % cols != c)
                    .map(|(_, &v)| v)
                    .collect();
                out.push(puzzle(&p.name, rows, cols - 1, kept));
            }
        }
        let blocks: Vec<usize> = (0..cells.len()).filter(|&i| is_block(cells[i])).collect();
        for (k, &a) in blocks.iter().enumerate() {
            for &b in &blocks[k + 1..] {
                if cells[a] == cells[b] {
                    let mut next = cells.to_vec();
                    next[a] = EMPTY;
                    next[b] = EMPTY;
                    out.push(with_cells(p, next));
                }
            }
        }
        for &a in &blocks {
            let mut next = cells.to_vec();
            next[a] = EMPTY;
            out.push(with_cells(p, next));
        }
        for (i, _) in cells.iter().enumerate().filter(|&(_, &c)| c == WALL) {
            let mut next = cells.to_vec();
            next[i] = EMPTY;
            out.push(with_cells(p, next));
        }
        let mut used = [false; LETTERS];
        for &a in &blocks {
            used[usize::from(cells[a] - b'A')] = true;
        }
        if let (Some(largest), Some(free)) =
            (used.iter().rposition(|&u| u), used.iter().position(|&u| !u))
            && free < largest
        {
            let renamed = cells
                .iter()
                .map(|&c| {
                    if is_block(c) && usize::from(c - b'A') == largest {
                        b'A' + free as u8
                    } else {
                        c
                    }
                })
                .collect();
            out.push(with_cells(p, renamed));
        }
        for &a in &blocks {
            for (lower, &in_use) in used.iter().enumerate().take(usize::from(cells[a] - b'A')) {
                if in_use {
                    let mut next = cells.to_vec();
                    next[a] = b'A' + lower as u8;
                    out.push(with_cells(p, next));
                }
            }
        }
        if let Some(first) = p.name.chars().next()
            && p.name.len() > first.len_utf8()
        {
            out.push(Puzzle {
                name: first.to_string(),
                grid: p.grid.clone(),
            });
        }
        out
    }

    fn mutate(p: &Puzzle, dice: &mut Dice) -> Puzzle {
        let mut cells = p.grid.cells().to_vec();
        let n = cells.len() as u64;
        let (i, j) = (dice.below(n) as usize, dice.below(n) as usize);
        if dice.chance(1, 2) {
            cells.swap(i, j);
        } else if is_block(cells[i]) {
            let letters: Vec<u8> = p
                .grid
                .cells()
                .iter()
                .copied()
                .filter(|&c| is_block(c))
                .collect();
            cells[i] = *dice.pick(&letters);
        }
        with_cells(p, cells)
    }

    fn admissible(p: &Puzzle) -> bool {
        if p.start() != p.grid {
            return false;
        }
        let budget = Budget {
            max_states: Some(ADMISSIBLE_STATES),
            ..Budget::UNLIMITED
        };
        matches!(
            bitset::solve(p, &budget),
            Ok(outcome) if outcome.verdict == Verdict::Solved
                && outcome.answer.as_ref().is_some_and(|m| m.len() <= JUDGE_MOVE_LIMIT)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;

    fn read(text: &str) -> Puzzle {
        Vexed::parse(text.as_bytes(), &crate::game::Reading::STATEMENT)
            .into_iter()
            .next()
            .unwrap()
            .case
            .unwrap()
    }

    #[test]
    fn the_written_input_reads_back_and_reductions_are_smaller() {
        let text = "3 5 Two pairs\n#A--#\n#B-A#\n##B##\n0 0 END\n";
        let p = read(text);
        assert_eq!(Vexed::write_input(&[&p]), text);
        // B right (lands on B), A right (falls), the other A left onto it: 3 moves.
        assert!(Vexed::admissible(&p));
        let reductions = Vexed::reductions(&p);
        for r in &reductions {
            assert!(Vexed::size(r) < Vexed::size(&p));
        }
        // The B pair emptied: the top A is in the air, so the board is not stable.
        let unstable = read("3 5 Two pairs\n#A--#\n#--A#\n##-##\n0 0 END\n");
        assert!(reductions.contains(&unstable));
        assert!(!Vexed::admissible(&unstable));
        // One A removed: a lone A can never be cleared.
        let lone = read("3 5 Two pairs\n#---#\n#B-A#\n##B##\n0 0 END\n");
        assert!(reductions.contains(&lone));
        assert!(!Vexed::admissible(&lone));
        assert!(reductions.contains(&read("3 5 T\n#A--#\n#B-A#\n##B##\n0 0 END\n")));
    }
}

#[cfg(test)]
mod shrinking {
    use super::*;
    use crate::registry;
    use crate::shrink::{Input, Predicate, shrink};

    /// The minimum solution length the reference engine finds.
    fn minimum(input: &Input) -> usize {
        let p = input.cases[0].case.as_ref().unwrap();
        let p = p.downcast_ref::<Puzzle>().unwrap();
        let outcome = super::super::reference::solve(p, &Budget::UNLIMITED).unwrap();
        outcome.answer.map_or(usize::MAX, |m| m.len())
    }

    #[test]
    fn a_shrunk_puzzle_stays_stable_and_solvable_within_the_judge_limit() {
        let game = registry::find("vexed").unwrap();
        // A judge's puzzle (walls left, right and below; 7 moves), as `gen` writes it.
        let text = "7 6 Deep\n#A---#\n#B---#\n##B--#\n#-A--#\n#B#A-#\n#A-BA#\n######\n0 0 END\n";
        let start = Input::read(game, text.to_string(), &crate::game::Reading::STATEMENT).unwrap();
        let needed = minimum(&start);
        assert!((3..=JUDGE_MOVE_LIMIT).contains(&needed), "{needed}");
        // "Fails" while the puzzle still needs at least 3 moves.
        let shrunk = shrink(game, start, &mut Predicate(|i: &Input| minimum(i) >= 3));
        let p = shrunk.input.cases[0].case.as_ref().unwrap();
        let p = p.downcast_ref::<Puzzle>().unwrap();
        assert!(Vexed::admissible(p), "{}", shrunk.input.text);
        assert_eq!(p.start(), p.grid, "stable as written");
        let k = minimum(&shrunk.input);
        assert!(
            (3..=JUDGE_MOVE_LIMIT).contains(&k),
            "{k}: {}",
            shrunk.input.text
        );
        assert!(Vexed::size(p).cells < 42, "{}", shrunk.input.text);
        assert!(game.validate(shrunk.input.text.as_bytes()).is_valid());
    }
}
