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

/// A token and the byte offset where it starts (see [`Tokens::line_at`] for its line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Located<'a> {
    pub token: Token<'a>,
    pub offset: usize,
}

/// Splits bytes into whitespace-separated tokens.
///
/// Lines are not counted while tokenizing (that would cost a branch per whitespace byte on the
/// hot path); [`Tokens::line_at`] counts the newlines before an offset on demand, resuming from
/// the last offset it was asked about, so asking in increasing order costs one pass in total.
pub struct Tokens<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Byte offset of the end of the last token returned.
    last_end: usize,
    /// `counted_line` is the 1-based line of byte offset `counted_to`.
    counted_to: usize,
    counted_line: usize,
}

/// Largest value a number token keeps: more digits saturate here.
const SATURATED: u64 = u32::MAX as u64;

/// Bytes read at once by the tokenizer's fast path.
const SWAR_BYTES: usize = 8;

/// Eight ASCII bytes in a `u64` (little-endian: byte 0 is the first character).
mod swar {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH_NIBBLES: u64 = 0xf0 * ONES;
    const LOW_NIBBLES: u64 = 0x0f * ONES;
    const LOW7: u64 = 0x7f * ONES;
    const HIGH_BITS: u64 = 0x80 * ONES;

    /// The high bit of every byte of `x` that is not zero (exact: no carry crosses a byte).
    #[inline(always)]
    fn nonzero_bytes(x: u64) -> u64 {
        (((x & LOW7) + LOW7) | x) & HIGH_BITS
    }

    /// How many of the first bytes are ASCII digits (8 when all are). A digit has high nibble
    /// 3 and a low nibble that does not reach 16 when 6 is added (0x30..=0x39).
    #[inline(always)]
    pub fn leading_digits(word: u64) -> usize {
        let wrong_high = (word & HIGH_NIBBLES) ^ (0x30 * ONES);
        let low_too_big = ((word & LOW_NIBBLES) + 0x06 * ONES) & (0x10 * ONES);
        (nonzero_bytes(wrong_high | low_too_big).trailing_zeros() / 8) as usize
    }

    /// The value of the first `digits` (1..=7) bytes, all ASCII digits: they are shifted to
    /// the top so that zero bytes stand for leading zeros, then combined pairwise.
    #[inline(always)]
    pub fn parse_digits(word: u64, digits: usize) -> u32 {
        let mut v = (word & LOW_NIBBLES) << (8 * (8 - digits as u32));
        v = (v.wrapping_mul(10) + (v >> 8)) & 0x00ff_00ff_00ff_00ff;
        v = (v.wrapping_mul(100) + (v >> 16)) & 0x0000_ffff_0000_ffff;
        v = (v.wrapping_mul(10_000) + (v >> 32)) & 0xffff_ffff;
        v as u32
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        fn word(text: &[u8; 8]) -> u64 {
            u64::from_le_bytes(*text)
        }

        #[test]
        fn digits_are_counted_and_read() {
            assert_eq!(leading_digits(word(b"7 123456")), 1);
            assert_eq!(leading_digits(word(b"40\n1 2 3")), 2);
            assert_eq!(leading_digits(word(b"1234567\t")), 7);
            assert_eq!(leading_digits(word(b"12345678")), 8);
            assert_eq!(leading_digits(word(b"x1234567")), 0);
            // Bytes next to the digits in the ASCII table, and high bytes.
            assert_eq!(leading_digits(word(b"09/:\xb0\xb9\xff ")), 2);
            assert_eq!(leading_digits(word(b"9:      ")), 1);
            assert_eq!(parse_digits(word(b"7 123456"), 1), 7);
            assert_eq!(parse_digits(word(b"40\n1 2 3"), 2), 40);
            assert_eq!(parse_digits(word(b"123456 x"), 6), 123_456);
            assert_eq!(parse_digits(word(b"9999999 "), 7), 9_999_999);
            assert_eq!(parse_digits(word(b"0000012 "), 7), 12);
        }
    }
}

/// Space, tab, newline, vertical tab, form feed, carriage return (C's `isspace`).
#[inline(always)]
fn is_space(b: u8) -> bool {
    b == b' ' || b.wrapping_sub(b'\t') <= b'\r' - b'\t'
}

impl<'a> Tokens<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Tokens {
            bytes,
            pos: 0,
            last_end: 0,
            counted_to: 0,
            counted_line: 1,
        }
    }

    /// The 1-based line of byte offset `offset`.
    pub fn line_at(&mut self, offset: usize) -> usize {
        let offset = offset.min(self.bytes.len());
        if offset < self.counted_to {
            self.counted_to = 0;
            self.counted_line = 1;
        }
        let newlines = self.bytes[self.counted_to..offset]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.counted_line += newlines;
        self.counted_to = offset;
        self.counted_line
    }

    /// The line of the last byte of the last token returned (1 before any): where an input that
    /// ends too early stops making sense (trailing blank lines are not more helpful).
    pub fn last_token_line(&mut self) -> usize {
        self.line_at(self.last_end.saturating_sub(1))
    }

    /// The next token, or `None` at the end of the input.
    #[inline(always)]
    pub fn next_token(&mut self) -> Option<Located<'a>> {
        let bytes = self.bytes;
        let mut pos = self.pos;
        while pos < bytes.len() && is_space(bytes[pos]) {
            pos += 1;
        }
        // Fast path: a number of 1..=7 digits followed by whitespace, read eight bytes at a
        // time without a branch per digit. Everything else takes the byte loop below.
        if let Some(chunk) = bytes.get(pos..pos + SWAR_BYTES) {
            let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
            let digits = swar::leading_digits(word);
            if (1..SWAR_BYTES).contains(&digits) && is_space(chunk[digits]) {
                self.pos = pos + digits;
                self.last_end = self.pos;
                let value = swar::parse_digits(word, digits);
                return Some(Located {
                    token: Token::Number(value),
                    offset: pos,
                });
            }
        }
        self.slow_token(pos)
    }

    /// The token starting at `pos` (after any whitespace), one byte at a time: long numbers,
    /// bad tokens and the last bytes of the input.
    #[inline(never)]
    fn slow_token(&mut self, mut pos: usize) -> Option<Located<'a>> {
        let bytes = self.bytes;
        if pos == bytes.len() {
            self.pos = pos;
            return None;
        }
        let start = pos;
        let mut value: u64 = 0;
        while pos < bytes.len() {
            let digit = bytes[pos].wrapping_sub(b'0');
            if digit >= 10 {
                break;
            }
            value = (value * 10 + u64::from(digit)).min(SATURATED);
            pos += 1;
        }
        let token = if pos == bytes.len() || is_space(bytes[pos]) {
            Token::Number(value as u32)
        } else {
            // Not all digits: the whole run up to the next whitespace is one bad token.
            while pos < bytes.len() && !is_space(bytes[pos]) {
                pos += 1;
            }
            Token::Bad(&bytes[start..pos])
        };
        self.pos = pos;
        self.last_end = pos;
        Some(Located {
            token,
            offset: start,
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
            offset,
        }) => Ok(Some((n, tokens.line_at(offset)))),
        Some(Located {
            token: Token::Bad(bytes),
            offset,
        }) => Err(CaseError::new(
            tokens.line_at(offset),
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
        let Some(Located { token, offset: at }) = tokens.next_token() else {
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
                        tokens.line_at(at),
                        format!("cell ({r},{c}) = {v} is not a value 0-{MAX_VALUE}"),
                    )
                });
            }
            Token::Bad(bytes) => {
                let (r, c) = cell();
                error.get_or_insert_with(|| {
                    bad_token(tokens.line_at(at), bytes, &format!("cell ({r},{c})"))
                });
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
                error.get_or_insert_with(|| {
                    bad_token(tokens.line_at(first.offset), bytes, "a selection row")
                });
            }
            (_, Token::Bad(bytes)) => {
                error.get_or_insert_with(|| {
                    bad_token(tokens.line_at(second.offset), bytes, "a selection column")
                });
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
