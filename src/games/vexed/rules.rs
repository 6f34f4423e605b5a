//! The game's types and its judge formats: a [`Puzzle`] and its parsing from a judge input
//! ([`parse_puzzles`]), an engine's answer ([`Solution`]) and its judge output block
//! ([`format_solution`]). The rules of a move live in [`super::grid`]; `RULES.md` says how the
//! statement is read.
//!
//! Invariants: a parsed puzzle's board has at most [`MAX_CELLS`] cells and holds only `#`,
//! `-` and `A`-`Z`; parsing never panics and resumes after a bad case at the next line that
//! starts like a header.

use super::grid::{EMPTY, Grid, Move, WALL, is_block};
use crate::game::{CaseError, Parsed};
use crate::validate::quoted;

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

/// Printed after `NAME: ` for a puzzle proven to have no solution.
pub const NO_SOLUTION_TEXT: &str = "No solution";
/// Printed after `NAME: ` for a puzzle whose search ran out of budget.
pub const BUDGET_TEXT: &str = "Search budget exhausted";
/// Printed after `NAME: ` before K.
pub const LENGTH_TEXT: &str = "Minimum solution length = ";

/// The judge output block of a solved puzzle.
///
/// Written byte by byte into one string sized up front (no `format!` per move, no joined
/// vector per line: this runs once per solved puzzle of a batch); the same text as
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
            .ok_or_else(|| format!("expected a header `NR NC NAME`, found {}", quoted(text)))?;
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
                format!("expected a row of {cols} cells, found {}", quoted(row)),
            ));
        }
        if let Some(&bad) = row
            .iter()
            .find(|&&c| c != WALL && c != EMPTY && !is_block(c))
        {
            return Err(CaseError::new(
                line,
                format!("cell {} is not `#`, `-` or A-Z", quoted(&[bad])),
            ));
        }
        cells.extend_from_slice(row);
    }
    Ok(Grid::new(rows, cols, cells))
}
