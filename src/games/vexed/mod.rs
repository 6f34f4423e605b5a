//! Vexed — "A Vexing Problem" (ICPC World Finals 2001, UVa 1008): minimum-move solutions.
//!
//! A judge file is a list of puzzles, each a header `NR NC NAME` and NR rows of NC cells
//! (`#` wall, `-` empty, `A`-`Z` block), ended by a header with a zero size (`0 0 END`). For each
//! puzzle the output is `NAME: Minimum solution length = K` and the K moves `(L,r,c,D)`, four per
//! line; see `RULES.md` in this folder. Engines that cannot finish print `NAME: No solution` (proven) or
//! `NAME: Search budget exhausted` (stopped by the [`Budget`]).
//!
//! `RULES.md` (beside this file) is the reading of the statement the code cites: the board,
//! the moves, tie-breaks, the formats.
//!
//! Modules: [`rules`] holds the puzzle type and the judge formats (parsing, output blocks);
//! [`grid`] the rules applied literally to a grid of cells, used by [`reference`] (a
//! breadth-first search, the oracle the fast engine is tested against) and by [`check`] (the
//! replaying checker); [`bitset`] is the fast engine (bit planes, an admissible lower bound, A*
//! with an iterative-deepening fallback past its memory budget); [`meter`] is the budget both
//! engines count their work against. Boards hold at most [`MAX_CELLS`] cells (any NR x NC up
//! to 128, e.g. the judge's 9x9, the original game's 8x10 or the level packs' 7x12). A board
//! that is not stable as given is settled (gravity and removals) before searching and
//! replaying.

pub mod bitset;
pub mod check;
mod draw;
pub mod generator;
pub mod grid;
pub mod levels;
mod meter;
pub mod reference;
mod rules;
pub mod shrink;
#[cfg(test)]
mod test_rng;
pub mod validate;
#[cfg(test)]
mod validate_tests;

use crate::game::{CaseStream, Engine, LineReader, Outcome, Parsed, Reading, Rules, Verdict};
use crate::validate::Validation;
pub use check::{CheckError, check_output};
pub(crate) use meter::Meter;
pub use rules::{
    BUDGET_TEXT, LENGTH_TEXT, MAX_CELLS, MOVES_PER_LINE, NO_SOLUTION_TEXT, Puzzle, Solution,
    format_solution, parse_puzzles,
};

/// The game's entry in the registry.
pub struct Vexed;

impl Rules for Vexed {
    type Case = Puzzle;
    type Answer = Solution;

    const NAME: &'static str = "vexed";
    const TITLE: &'static str =
        "Vexed minimum solutions (ICPC WF 2001 \"A Vexing Problem\", UVa 1008)";
    const WORK_UNIT: &'static str = "states";
    const DEFAULT_ENGINE: &'static str = "bitset";

    const ENGINES: &'static [Engine<Puzzle, Solution>] = &[
        Engine {
            name: "reference",
            about: "breadth-first search over whole boards with a visited set (blocks in row-major order, left before right)",
            solve: reference::solve,
        },
        Engine {
            name: "bitset",
            about: "bit planes in u128 words; A* with an admissible per-letter bound (wall-aware pair distances, removal-group partitions) and dead-state pruning; IDA* with a transposition table past a memory budget",
            solve: bitset::solve,
        },
    ];

    fn parse(input: &[u8], _reading: &Reading) -> Vec<Parsed<Puzzle>> {
        parse_puzzles(input)
    }

    /// The same puzzles as [`parse_puzzles`], read a line at a time.
    fn cases(input: Box<dyn std::io::BufRead + Send>, _reading: &Reading) -> CaseStream<Puzzle> {
        Box::new(rules::Puzzles::new(LineReader::new(input)))
    }

    fn validate_reader(input: &mut dyn std::io::BufRead) -> std::io::Result<Validation> {
        validate::validate_reader(input)
    }

    fn draw(case: &Puzzle, expected: Option<&str>) -> Option<crate::game::Drawing> {
        draw::draw(case, expected)
    }

    fn draw_answer(case: &Puzzle, block: &str) -> Option<String> {
        draw::answer(case, block)
    }

    fn format_case(_index: usize, case: &Puzzle, outcome: &Outcome<Solution>) -> String {
        match (&outcome.answer, outcome.verdict) {
            (Some(moves), Verdict::Solved) => format_solution(&case.name, moves),
            (_, Verdict::Budget) => format!("{}: {BUDGET_TEXT}\n", case.name),
            _ => format!("{}: {NO_SOLUTION_TEXT}\n", case.name),
        }
    }

    /// Every line that is not a line of moves (a puzzle's name, then its moves).
    fn starts_block(line: &str) -> bool {
        !line.starts_with('(')
    }

    /// The puzzle's header and board, then the `0 0 END` line, as the shrinker writes a file
    /// of one puzzle: Vexed's output names puzzles, never numbers them, so a puzzle alone prints
    /// the same block.
    fn case_input(puzzle: &Puzzle) -> Option<String> {
        Some(<Vexed as crate::game::Shrink>::write_input(&[puzzle]))
    }

    /// The board's cells (the search's cost grows with depth far more than with them).
    fn cells(puzzle: &Puzzle) -> Option<u64> {
        Some((puzzle.grid.rows() * puzzle.grid.cols()) as u64)
    }

    fn score(answer: &Solution) -> Option<u64> {
        answer.as_ref().map(|moves| moves.len() as u64)
    }

    fn check(case: &Puzzle, expected: &str, actual: &str) -> Result<(), String> {
        check_output(case, actual, Some(expected)).map_err(|e| e.to_string())
    }

    /// Readable in the judge's layout, for this puzzle, and a solution that replays.
    fn well_formed(case: &Puzzle, block: &str) -> Result<(), String> {
        check_output(case, block, None).map_err(|e| e.to_string())
    }

    /// The header line, then the moves four to a line, whatever white space separated them.
    fn presentation(block: &str) -> String {
        let trimmed = block.trim_start();
        let (header, moves) = trimmed.split_at(trimmed.find('(').unwrap_or(trimmed.len()));
        let mut text = header.trim_end().to_string();
        text.push('\n');
        let moves: Vec<&str> = moves.split_whitespace().collect();
        for line in moves.chunks(MOVES_PER_LINE) {
            text.push_str(&line.join(" "));
            text.push('\n');
        }
        text
    }
}

#[cfg(test)]
mod tests;
