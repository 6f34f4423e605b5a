//! The strict validator of SameGame judge inputs (RULES.md, "Validation"). The statement
//! fixes no line structure ("non-negative integers without regard to line structure"), so
//! white space is free, but only spaces, tabs and line ends (`\n`, `\r\n`); what it checks is
//! the stream: canonical numbers, sizes, cell values, every grid's `0 0`, and the terminating
//! header with nothing after it. The parser ([`super::parse`]) accepts more (leading zeros,
//! any C white space, no terminating header).
//!
//! Tokens are split exactly where the parser splits them and grids are delimited the same way
//! (a bad token inside a grid is counted as one token; a bad header ends the reading), so the
//! validator's grid numbers are the parser's.

use super::{MAX_COLS, MAX_ROWS, MAX_VALUE};
use crate::validate::{Validation, Violation, number, quoted};

const NUMBERS: &str = "the input consists entirely of non-negative integers";
const SPACE: &str =
    "integers are separated by white space: spaces, tabs and line ends (\\n or \\r\\n)";
const SIZE: &str = "each grid has no more than 10 rows and 40 columns (1 <= M <= 10, 1 <= N <= 40)";
const VALUE: &str = "each cell holds an integer in the range 0 through 9";
const GRID: &str = "M and N are followed by the M x N integers of the grid";
const PAIRS: &str = "the pairs of a grid end with a pair of zeroes";
const END: &str = "a header M N with a zero terminates the input (nothing follows it)";

/// C's `isspace`, where the parser splits tokens.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// A token with its line; its value as the parser reads it (saturated), or `None` when it is
/// not all digits.
struct Token<'a> {
    text: &'a [u8],
    line: usize,
    value: Option<u64>,
}

/// The token stream, counting lines and reporting white space the statement does not allow.
struct Stream<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
}

impl<'a> Stream<'a> {
    fn next(&mut self, case: Option<usize>, out: &mut Validation) -> Option<Token<'a>> {
        while self.pos < self.bytes.len() && is_space(self.bytes[self.pos]) {
            let b = self.bytes[self.pos];
            let lone_cr = b == b'\r' && self.bytes.get(self.pos + 1) != Some(&b'\n');
            if b == 0x0b || b == 0x0c || lone_cr {
                out.push(Violation::new(
                    case,
                    self.line,
                    format!("white space byte 0x{b:02x}"),
                    SPACE,
                ));
            }
            if b == b'\n' {
                self.line += 1;
            }
            self.pos += 1;
        }
        let start = self.pos;
        while self.pos < self.bytes.len() && !is_space(self.bytes[self.pos]) {
            self.pos += 1;
        }
        let text = &self.bytes[start..self.pos];
        if text.is_empty() {
            return None;
        }
        let value = text.iter().all(u8::is_ascii_digit).then(|| {
            text.iter().fold(0u64, |n, &d| {
                n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
            })
        });
        match number(text) {
            Ok(_) => {}
            // Selections may be any non-negative integer, however long.
            Err(crate::validate::NumberError::TooLong) => {}
            Err(e) => {
                out.push(Violation::new(case, self.line, e.describe(text), NUMBERS));
            }
        }
        Some(Token {
            text,
            line: self.line,
            value,
        })
    }

    fn end_line(&self) -> usize {
        self.line
    }
}

/// Validates a whole SameGame judge input.
pub fn validate(input: &[u8]) -> Validation {
    let mut out = Validation::default();
    let mut stream = Stream {
        bytes: input,
        pos: 0,
        line: 1,
    };
    let mut case = 0usize;
    'grids: while !out.full() {
        let current = (case > 0).then_some(case);
        let Some(m) = stream.next(current, &mut out) else {
            out.push(Violation::new(
                current,
                stream.end_line(),
                "the input ends without a header with a zero",
                END,
            ));
            break;
        };
        let n = stream.next(current, &mut out);
        let (rows, cols) = match (m.value, n.as_ref().map(|n| n.value)) {
            // The parser cannot find the next grid after a bad header: neither can this.
            (None, _) | (Some(1..), Some(None)) => {
                let bad = if m.value.is_none() {
                    &m
                } else {
                    n.as_ref().expect("matched")
                };
                case += 1;
                out.push(Violation::new(
                    Some(case),
                    bad.line,
                    format!("a header holds {}", quoted(bad.text)),
                    NUMBERS,
                ));
                break;
            }
            // M without N: a grid cut short (the parser counts it as one).
            (Some(1..), None) => {
                case += 1;
                out.push(Violation::new(
                    Some(case),
                    stream.end_line(),
                    "the input ends after M, without N",
                    END,
                ));
                break;
            }
            (Some(0), None) => {
                out.push(Violation::new(
                    current,
                    m.line,
                    "the terminating header has no N",
                    END,
                ));
                break;
            }
            (Some(rows), Some(cols)) => (rows, cols.unwrap_or(0)),
        };
        if rows == 0 || cols == 0 {
            if let Some(extra) = stream.next(current, &mut out) {
                out.push(Violation::new(
                    current,
                    extra.line,
                    format!("{} after the terminating header", quoted(extra.text)),
                    END,
                ));
            }
            break;
        }
        let header_line = m.line;
        case += 1;
        let at = Some(case);
        if rows > MAX_ROWS as u64 || cols > MAX_COLS as u64 {
            out.push(Violation::new(
                at,
                header_line,
                format!("a {rows} x {cols} grid"),
                SIZE,
            ));
        }
        let cells = rows.saturating_mul(cols);
        let mut read = 0u64;
        while read < cells {
            if out.full() {
                break 'grids;
            }
            let Some(token) = stream.next(at, &mut out) else {
                out.push(Violation::new(
                    at,
                    stream.end_line(),
                    format!("the input ends after {read} of the {rows} x {cols} values"),
                    GRID,
                ));
                break 'grids;
            };
            if token.value.is_some_and(|v| v > u64::from(MAX_VALUE)) {
                out.push(Violation::new(
                    at,
                    token.line,
                    format!("cell {} holds {}", read + 1, quoted(token.text)),
                    VALUE,
                ));
            }
            read += 1;
        }
        loop {
            if out.full() {
                break 'grids;
            }
            let (Some(row), Some(col)) = (stream.next(at, &mut out), stream.next(at, &mut out))
            else {
                out.push(Violation::new(
                    at,
                    stream.end_line(),
                    "the input ends before the pair `0 0`",
                    PAIRS,
                ));
                break 'grids;
            };
            if row.value == Some(0) && col.value == Some(0) {
                break;
            }
        }
    }
    out.cases = case;
    out
}
