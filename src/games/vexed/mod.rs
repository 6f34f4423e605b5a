//! Vexed — "A Vexing Problem" (ICPC World Finals 2001, UVa 1008): minimum-move solutions.
//!
//! A judge file is a list of puzzles, each a header `NR NC NAME` and NR rows of NC cells
//! (`#` wall, `-` empty, `A`-`Z` block), ended by a header with a zero size (`0 0 END`). For each
//! puzzle the output is `NAME: Minimum solution length = K` and the K moves `(L,r,c,D)`, four per
//! line; see `spec/vexed.md`. Engines that cannot finish print `NAME: No solution` (proven) or
//! `NAME: Search budget exhausted` (stopped by the [`Budget`]).
//!
//! Modules: [`grid`] holds the rules applied literally to a grid of cells (used by
//! [`reference`], a breadth-first search, and by [`check`]); [`bitset`] is the fast engine: bit
//! planes in one `u128` per plane ([`planes`]), an admissible lower bound ([`bound`]), best-first
//! A* search ([`astar`]) and, past A*'s memory budget, iterative deepening with a transposition
//! table ([`ida`], [`table`]). Boards hold at most [`MAX_CELLS`] cells (any NR x NC up to 128,
//! e.g. the judge's 9x9, the original game's 8x10 or the level packs' 7x12). A board that is not
//! stable as given is settled (gravity and removals) before searching and replaying.

pub mod astar;
pub mod bitset;
pub mod bound;
pub mod check;
pub mod deadlock;
pub mod generator;
pub mod grid;
pub mod ida;
pub mod planes;
pub mod reference;
pub mod table;
#[cfg(test)]
mod test_rng;

use crate::game::{Budget, CaseError, Engine, Outcome, Parsed, Rules, Verdict, split_blocks};
pub use check::{CheckError, check_output};
use grid::{EMPTY, Grid, Move, WALL, is_block};

/// The most cells a board may have (one bit per cell in a `u128` plane).
pub const MAX_CELLS: usize = 128;
/// Moves printed per output line.
pub const MOVES_PER_LINE: usize = 4;

/// One puzzle: its name and its board (as given, possibly not yet settled).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    pub name: String,
    pub grid: Grid,
}

impl Puzzle {
    /// The board every engine starts from: the given one after gravity and removals.
    pub fn start(&self) -> Grid {
        let mut grid = self.grid.clone();
        grid.settle();
        grid
    }
}

/// An engine's answer: the moves of a minimum solution, or `None` when it found none (the
/// verdict then says whether none exists or the budget ran out).
pub type Solution = Option<Vec<Move>>;

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

    fn engines() -> &'static [Engine<Puzzle, Solution>] {
        &[
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
        ]
    }

    fn parse(input: &[u8]) -> Vec<Parsed<Puzzle>> {
        parse_puzzles(input)
    }

    fn format_case(_index: usize, case: &Puzzle, outcome: &Outcome<Solution>) -> String {
        match (&outcome.answer, outcome.verdict) {
            (Some(moves), Verdict::Solved) => format_solution(&case.name, moves),
            (_, Verdict::Budget) => format!("{}: {BUDGET_TEXT}\n", case.name),
            _ => format!("{}: {NO_SOLUTION_TEXT}\n", case.name),
        }
    }

    fn split_output(output: &str) -> Vec<String> {
        // Every line that is not a line of moves starts a new puzzle's block.
        split_blocks(output, |line| !line.starts_with('('))
    }

    fn score(answer: &Solution) -> Option<u64> {
        answer.as_ref().map(|moves| moves.len() as u64)
    }

    fn check(case: &Puzzle, expected: &str, actual: &str) -> Result<(), String> {
        check_output(case, actual, Some(expected)).map_err(|e| e.to_string())
    }
}

/// Printed after `NAME: ` for a puzzle proven to have no solution.
pub const NO_SOLUTION_TEXT: &str = "No solution";
/// Printed after `NAME: ` for a puzzle whose search ran out of budget.
pub const BUDGET_TEXT: &str = "Search budget exhausted";
/// Printed after `NAME: ` before K.
pub const LENGTH_TEXT: &str = "Minimum solution length = ";

/// The judge output block of a solved puzzle.
///
/// Written byte by byte into one string sized up front (measured: the `format!` per move and
/// the joined vector per line took 2.5% of the mixed set's instructions); the same text as
/// the moves' `Display` joined by spaces, four to a line (a test checks it).
pub fn format_solution(name: &str, moves: &[Move]) -> String {
    /// Bytes of a move, at most: `(A,99,99,L) `.
    const MOVE_BYTES: usize = 12;
    /// Bytes of the header past the name, at most (K has at most 20 digits).
    const HEADER_BYTES: usize = 2 + LENGTH_TEXT.len() + 20 + 1;
    let mut text = String::with_capacity(name.len() + HEADER_BYTES + MOVE_BYTES * moves.len());
    text.push_str(name);
    text.push_str(": ");
    text.push_str(LENGTH_TEXT);
    push_number(&mut text, moves.len());
    text.push('\n');
    for line in moves.chunks(MOVES_PER_LINE) {
        for (i, mv) in line.iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            text.push('(');
            text.push(char::from(mv.letter));
            text.push(',');
            push_number(&mut text, mv.row);
            text.push(',');
            push_number(&mut text, mv.col);
            text.push(',');
            text.push(mv.dir.letter());
            text.push(')');
        }
        text.push('\n');
    }
    text
}

/// Appends `n` in decimal.
fn push_number(text: &mut String, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // Only ASCII digits.
    text.extend(digits[start..].iter().map(|&d| char::from(d)));
}

/// Shows input bytes in an error message, whatever they are.
fn shown(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A header line: `Ok(Some((rows, cols, name)))`, `Ok(None)` for the end marker (a zero size).
type Header = Option<(usize, usize, String)>;

/// Reads `NR NC NAME`. Rows never start with a digit, so "starts like a header" is also how the
/// parser finds the next case after an error.
fn parse_header(text: &[u8]) -> Result<Header, String> {
    let text = text.trim_ascii();
    let mut rest = text;
    let mut numbers = [0usize; 2];
    for number in &mut numbers {
        let end = rest
            .iter()
            .position(|b| b.is_ascii_whitespace())
            .unwrap_or(rest.len());
        let field = &rest[..end];
        *number = std::str::from_utf8(field)
            .ok()
            .and_then(|f| f.parse().ok())
            .ok_or_else(|| format!("expected a header `NR NC NAME`, found {:?}", shown(text)))?;
        rest = rest[end..].trim_ascii_start();
    }
    let [rows, cols] = numbers;
    if rows == 0 || cols == 0 {
        return Ok(None);
    }
    if rows.saturating_mul(cols) > MAX_CELLS {
        return Err(format!(
            "board {rows}x{cols} has more than {MAX_CELLS} cells"
        ));
    }
    Ok(Some((rows, cols, shown(rest).trim().to_string())))
}

fn looks_like_header(text: &[u8]) -> bool {
    text.trim_ascii_start()
        .first()
        .is_some_and(u8::is_ascii_digit)
}

/// Splits a judge input into puzzles. Never panics; after a bad case it resumes at the next
/// line that starts like a header.
pub fn parse_puzzles(input: &[u8]) -> Vec<Parsed<Puzzle>> {
    let lines: Vec<&[u8]> = input
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .collect();
    let mut cases = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let text = lines[i];
        if text.trim_ascii().is_empty() {
            i += 1;
            continue;
        }
        let line = i + 1;
        match parse_header(text) {
            Ok(None) => break,
            Ok(Some((rows, cols, name))) => {
                let rows_text = lines.get(i + 1..i + 1 + rows).unwrap_or(&lines[i + 1..]);
                let case = parse_board(line, rows, cols, rows_text);
                let bad = case.is_err();
                cases.push(Parsed {
                    line,
                    label: name.clone(),
                    size: format!("{rows}x{cols}"),
                    case: case.map(|grid| Puzzle { name, grid }),
                });
                i += 1 + rows_text.len();
                if bad {
                    while i < lines.len() && !looks_like_header(lines[i]) {
                        i += 1;
                    }
                }
            }
            Err(message) => {
                cases.push(Parsed {
                    line,
                    label: String::new(),
                    size: String::new(),
                    case: Err(CaseError::new(line, message)),
                });
                i += 1;
                while i < lines.len() && !looks_like_header(lines[i]) {
                    i += 1;
                }
            }
        }
    }
    cases
}

/// Reads the rows of a board whose header is on line `header_line`.
fn parse_board(
    header_line: usize,
    rows: usize,
    cols: usize,
    text: &[&[u8]],
) -> Result<Grid, CaseError> {
    if text.len() < rows {
        return Err(CaseError::new(
            header_line + text.len() + 1,
            format!("expected {rows} rows, the input ends after {}", text.len()),
        ));
    }
    let mut cells = Vec::with_capacity(rows * cols);
    for (k, row) in text.iter().enumerate() {
        let line = header_line + k + 1;
        let row = row.trim_ascii_end();
        if row.len() != cols {
            return Err(CaseError::new(
                line,
                format!("expected a row of {cols} cells, found {:?}", shown(row)),
            ));
        }
        if let Some(&bad) = row
            .iter()
            .find(|&&c| c != WALL && c != EMPTY && !is_block(c))
        {
            return Err(CaseError::new(
                line,
                format!("cell {:?} is not `#`, `-` or A-Z", shown(&[bad])),
            ));
        }
        cells.extend_from_slice(row);
    }
    Ok(Grid::new(rows, cols, cells))
}

/// A budget tracker shared by both engines: counts expanded states, watches the clock.
#[derive(Clone, Copy)]
pub(crate) struct Meter {
    max_states: u64,
    deadline: Option<std::time::Instant>,
    pub expanded: u64,
}

impl Meter {
    /// How many expansions pass between two looks at the clock.
    const CLOCK_EVERY: u64 = 1024;

    pub fn new(budget: &Budget) -> Meter {
        Meter {
            max_states: budget.max_states.unwrap_or(u64::MAX),
            deadline: budget.deadline(std::time::Instant::now()),
            expanded: 0,
        }
    }

    /// Counts one expansion; returns false when the budget is exhausted.
    pub fn tick(&mut self) -> bool {
        if self.expanded >= self.max_states {
            return false;
        }
        self.expanded += 1;
        if self.expanded.is_multiple_of(Self::CLOCK_EVERY)
            && let Some(deadline) = self.deadline
        {
            return std::time::Instant::now() < deadline;
        }
        true
    }

    /// True if a pause of `pause` from `now` ends before the deadline (or there is none).
    pub fn affords(&self, now: std::time::Instant, pause: std::time::Duration) -> bool {
        self.deadline.is_none_or(|deadline| now + pause < deadline)
    }
}

#[cfg(test)]
mod tests;
