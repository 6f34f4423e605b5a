//! The judge input of SameGame: a byte-level tokenizer and the stream parser.
//!
//! Line structure means nothing in this format (pairs share lines, one token per line, tabs,
//! blank lines all occur), so the input is read as a stream of whitespace-separated tokens; the
//! tokenizer only counts newlines so that errors can name a line. A token is a number when it is
//! all ASCII digits; its value saturates at `u32::MAX`, which is harmless because every limit in
//! the format is far smaller (huge selections are out of range, huge sizes or values are errors).
//! Any other token (`-1`, `x`, non-UTF-8 bytes) is a bad token.
//!
//! Resynchronisation: the format counts tokens (M*N values, then pairs through `0 0`), so a bad
//! token or an out-of-range value inside a grid spoils only that grid: the parser keeps counting
//! tokens and continues with the next grid. A bad token where a header `M N` is expected leaves
//! no way to find the next grid, so the rest of the input is one error. The input may end right
//! after a grid's `0 0` (the terminating header with a zero is then missing; that is accepted);
//! anything after the terminating header is never read, as in a judge solution.

use super::{Game, MAX_COLS, MAX_ROWS, MAX_VALUE, Selection};
use crate::game::{CaseError, Parsed};

/// Longest excerpt of a bad token shown in an error message.
const SHOWN_TOKEN_BYTES: usize = 24;

/// One token of the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token<'a> {
    /// All digits; the value saturates at `u32::MAX`.
    Number(u32),
    /// Anything else, as it appeared.
    Bad(&'a [u8]),
}

/// A token and the 1-based line it is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Located<'a> {
    pub token: Token<'a>,
    pub line: usize,
}

/// Splits bytes into whitespace-separated tokens, counting lines.
pub struct Tokens<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
    /// The line of the last token returned (1 before any).
    last_token_line: usize,
}

/// Space, tab, newline, vertical tab, form feed, carriage return.
#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

impl<'a> Tokens<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Tokens {
            bytes,
            pos: 0,
            line: 1,
            last_token_line: 1,
        }
    }

    /// The line the tokenizer is on (after the last token read; at the end, the last line).
    pub fn line(&self) -> usize {
        self.line
    }

    /// The line of the last token returned: where an input that ends too early stops making
    /// sense (trailing blank lines are not more helpful).
    pub fn last_token_line(&self) -> usize {
        self.last_token_line
    }

    /// The next token, or `None` at the end of the input.
    #[inline]
    pub fn next_token(&mut self) -> Option<Located<'a>> {
        let bytes = self.bytes;
        let mut pos = self.pos;
        // Skip whitespace, counting newlines.
        loop {
            let &b = bytes.get(pos)?;
            if !is_space(b) {
                break;
            }
            if b == b'\n' {
                self.line += 1;
            }
            pos += 1;
        }
        let start = pos;
        let mut value: u32 = 0;
        let mut digits_only = true;
        while let Some(&b) = bytes.get(pos) {
            if is_space(b) {
                break;
            }
            let digit = b.wrapping_sub(b'0');
            if digit < 10 {
                value = value.saturating_mul(10).saturating_add(u32::from(digit));
            } else {
                digits_only = false;
            }
            pos += 1;
        }
        self.pos = pos;
        self.last_token_line = self.line;
        let token = if digits_only {
            Token::Number(value)
        } else {
            Token::Bad(&bytes[start..pos])
        };
        Some(Located {
            token,
            line: self.line,
        })
    }
}

/// Shows a bad token in a message, whatever its bytes and length.
fn shown(bytes: &[u8]) -> String {
    let cut = &bytes[..bytes.len().min(SHOWN_TOKEN_BYTES)];
    let more = if bytes.len() > SHOWN_TOKEN_BYTES {
        "..."
    } else {
        ""
    };
    format!("{:?}{more}", String::from_utf8_lossy(cut))
}

/// The error for a bad token found where `what` was expected.
fn bad_token(line: usize, bytes: &[u8], what: &str) -> CaseError {
    CaseError::new(
        line,
        format!("{} is not a non-negative integer ({what})", shown(bytes)),
    )
}

/// Parses the whole stream: one [`Parsed`] per grid, in order. Never panics.
pub fn parse_stream(input: &[u8]) -> Vec<Parsed<Game>> {
    let mut tokens = Tokens::new(input);
    let mut grids = Vec::new();
    while let Some(grid) = parse_grid(&mut tokens, grids.len() + 1) {
        let stop = grid.stop;
        grids.push(grid.parsed);
        if stop {
            break;
        }
    }
    grids
}

/// A grid as read, and whether the stream cannot go on after it.
struct GridRead {
    parsed: Parsed<Game>,
    stop: bool,
}

/// Reads the header number `what` of grid `number`; `Err` = the rest of the input is one error.
fn header_number(
    tokens: &mut Tokens<'_>,
    number: usize,
    what: &str,
) -> Result<Option<(u32, usize)>, CaseError> {
    match tokens.next_token() {
        None => Ok(None),
        Some(Located {
            token: Token::Number(n),
            line,
        }) => Ok(Some((n, line))),
        Some(Located {
            token: Token::Bad(bytes),
            line,
        }) => Err(CaseError::new(
            line,
            format!(
                "{} is not a non-negative integer ({what} of grid {number}); the grids after \
                 it cannot be found",
                shown(bytes)
            ),
        )),
    }
}

/// Reads one grid. `None` at the end of the input or at the terminating header.
fn parse_grid(tokens: &mut Tokens<'_>, number: usize) -> Option<GridRead> {
    let whole_rest_error = |line: usize, error: CaseError| GridRead {
        parsed: Parsed {
            line,
            label: String::new(),
            size: String::new(),
            case: Err(error),
        },
        stop: true,
    };
    let (rows, line) = match header_number(tokens, number, "the row count M") {
        Ok(Some(found)) => found,
        // The input may end where a header is expected (the terminator is then missing).
        Ok(None) => return None,
        Err(error) => return Some(whole_rest_error(error.line, error)),
    };
    if rows == 0 {
        return None; // the terminating header (its N is not needed)
    }
    let cols = match header_number(tokens, number, "the column count N") {
        Ok(Some((cols, _))) => cols,
        Ok(None) => {
            let error = CaseError::new(
                tokens.last_token_line(),
                format!("the input ends after M = {rows}; the column count N is missing"),
            );
            return Some(whole_rest_error(line, error));
        }
        Err(error) => return Some(whole_rest_error(line, error)),
    };
    if cols == 0 {
        return None; // the terminating header
    }
    let size = format!("{rows}x{cols}");
    let mut error: Option<CaseError> = None;
    let rows_ok = (rows as usize) <= MAX_ROWS;
    let cols_ok = (cols as usize) <= MAX_COLS;
    if !rows_ok || !cols_ok {
        error = Some(CaseError::new(
            line,
            format!("grid {rows}x{cols} exceeds {MAX_ROWS} rows or {MAX_COLS} columns"),
        ));
    }
    // Even an oversized grid is skipped by counting its M*N values, to find the next grid;
    // the count is bounded by the input's length because every step consumes a token.
    let count = u64::from(rows) * u64::from(cols);
    let mut cells = Vec::with_capacity(if error.is_none() { count as usize } else { 0 });
    for index in 0..count {
        let Some(Located { token, line: at }) = tokens.next_token() else {
            let error = CaseError::new(
                tokens.last_token_line(),
                format!("the input ends inside grid {number}: {index} of {count} cell values read"),
            );
            return Some(GridRead {
                parsed: failed(line, size, error),
                stop: true,
            });
        };
        let cell = || (index / u64::from(cols) + 1, index % u64::from(cols) + 1);
        match token {
            Token::Number(v) if v <= u32::from(MAX_VALUE) => {
                if error.is_none() {
                    cells.push(v as u8);
                }
            }
            Token::Number(v) => {
                let (r, c) = cell();
                error.get_or_insert_with(|| {
                    CaseError::new(
                        at,
                        format!("cell ({r},{c}) = {v} is not a value 0-{MAX_VALUE}"),
                    )
                });
            }
            Token::Bad(bytes) => {
                let (r, c) = cell();
                error.get_or_insert_with(|| bad_token(at, bytes, &format!("cell ({r},{c})")));
            }
        }
    }
    let mut selections = Vec::new();
    loop {
        let (Some(first), Some(second)) = (tokens.next_token(), tokens.next_token()) else {
            let error = CaseError::new(
                tokens.last_token_line(),
                format!("the input ends before the pair `0 0` that closes grid {number}"),
            );
            return Some(GridRead {
                parsed: failed(line, size, error),
                stop: true,
            });
        };
        match (first.token, second.token) {
            (Token::Number(0), Token::Number(0)) => break,
            (Token::Number(row), Token::Number(col)) => selections.push(Selection { row, col }),
            (Token::Bad(bytes), _) => {
                error.get_or_insert_with(|| bad_token(first.line, bytes, "a selection row"));
            }
            (_, Token::Bad(bytes)) => {
                error.get_or_insert_with(|| bad_token(second.line, bytes, "a selection column"));
            }
        }
    }
    let case = match error {
        Some(error) => Err(error),
        None => Game::new(rows as usize, cols as usize, cells, selections)
            .ok_or_else(|| CaseError::new(line, "grid breaks the size or value limits")),
    };
    Some(GridRead {
        parsed: Parsed {
            line,
            label: String::new(),
            size,
            case,
        },
        stop: false,
    })
}

/// A grid that could not be read.
fn failed(line: usize, size: String, error: CaseError) -> Parsed<Game> {
    Parsed {
        line,
        label: String::new(),
        size,
        case: Err(error),
    }
}
