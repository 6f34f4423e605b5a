//! The game's types and its judge formats: a [`Puzzle`] and its parsing from a judge input
//! ([`parse_puzzles`]), an engine's answer ([`Solution`]) and its judge output block
//! ([`format_solution`]). The rules of a move live in [`super::grid`]; `RULES.md` says how the
//! statement is read.
//!
//! Invariants: a parsed puzzle's board has at most [`MAX_CELLS`] cells and holds only `#`,
//! `-` and `A`-`Z`; parsing never panics and resumes after a bad case at the next line that
//! starts like a header.

use super::grid::{EMPTY, Grid, Move, WALL, is_block};
use std::io::BufRead;

use crate::game::{CaseError, LineReader, Parsed, grid_size, read_error};
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

/// Splits a judge input into puzzles (see [`Puzzles`]).
pub fn parse_puzzles(input: &[u8]) -> Vec<Parsed<Puzzle>> {
    Puzzles::new(LineReader::new(input)).collect()
}

/// The puzzles of a judge input read a line at a time, as they are asked for: what
/// `Rules::parse` (on a slice) and `Rules::cases` (on a reader) both are. Never panics; after a
/// bad case it resumes at the next line that starts like a header. Lines are the input split at
/// every `\n` (a final `\n` leaves an empty last line, which a board may take as a row), each
/// without one trailing `\r`.
pub struct Puzzles<R> {
    lines: LineReader<R>,
    done: bool,
}

impl<R: BufRead> Puzzles<R> {
    pub fn new(lines: LineReader<R>) -> Self {
        Puzzles {
            lines: lines.with_final_piece(),
            done: false,
        }
    }

    /// The next line, without one trailing `\r`.
    fn next_line(&mut self) -> Option<(usize, Vec<u8>)> {
        let mut line = self.lines.next_line()?;
        if line.text.last() == Some(&b'\r') {
            line.text.pop();
        }
        Some((line.number, line.text))
    }

    /// Passes over the lines up to the next one that starts like a header.
    fn resync(&mut self) {
        while self
            .lines
            .peek()
            .is_some_and(|l| !looks_like_header(l.text))
        {
            self.lines.skip_line();
        }
    }

    /// Reads the `rows` rows of a board whose header is on line `header_line` (all of them,
    /// or up to the end, even after a bad one). The input ending first is the error, else
    /// the first bad row.
    fn board(&mut self, header_line: usize, rows: usize, cols: usize) -> Result<Grid, CaseError> {
        let mut cells = Vec::with_capacity(rows * cols);
        let mut first_error = None;
        for k in 0..rows {
            let Some((line, text)) = self.next_line() else {
                return Err(CaseError::new(
                    header_line + k + 1,
                    format!("expected {rows} rows, the input ends after {k}"),
                ));
            };
            if first_error.is_some() {
                continue;
            }
            let row = text.trim_ascii_end();
            if row.len() != cols {
                first_error = Some(CaseError::new(
                    line,
                    format!("expected a row of {cols} cells, found {}", quoted(row)),
                ));
            } else if let Some(&bad) = row
                .iter()
                .find(|&&c| c != WALL && c != EMPTY && !is_block(c))
            {
                first_error = Some(CaseError::new(
                    line,
                    format!("cell {} is not `#`, `-` or A-Z", quoted(&[bad])),
                ));
            } else {
                cells.extend_from_slice(row);
            }
        }
        match first_error {
            Some(error) => Err(error),
            None => Ok(Grid::new(rows, cols, cells)),
        }
    }
}

impl<R: BufRead> Iterator for Puzzles<R> {
    type Item = Parsed<Puzzle>;

    fn next(&mut self) -> Option<Parsed<Puzzle>> {
        while !self.done {
            let Some((line, text)) = self.next_line() else {
                self.done = true;
                let error = self.lines.error()?;
                return Some(read_error(self.lines.end_line(), &error));
            };
            if text.trim_ascii().is_empty() {
                continue;
            }
            return match parse_header(&text) {
                Ok(None) => {
                    self.done = true;
                    None
                }
                Ok(Some((rows, cols, name))) => {
                    let case = self.board(line, rows, cols);
                    if case.is_err() {
                        self.resync();
                    }
                    Some(Parsed {
                        line,
                        label: name.clone(),
                        size: grid_size(rows as u64, cols as u64),
                        case: case.map(|grid| Puzzle { name, grid }),
                    })
                }
                Err(message) => {
                    self.resync();
                    Some(Parsed {
                        line,
                        label: String::new(),
                        size: String::new(),
                        case: Err(CaseError::new(line, message)),
                    })
                }
            };
        }
        None
    }
}

#[cfg(test)]
mod stream_tests;
