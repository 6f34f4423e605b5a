//! The judge input of SameGame: a byte-level tokenizer and the stream parser.
//!
//! Line structure means nothing in this format (pairs share lines, one token per line, tabs,
//! blank lines all occur), so the input is read as a stream of whitespace-separated tokens
//! ([`Tokens`]); lines matter only for error messages and are counted on demand ([`Lines`]).
//! A token is a number when it is all ASCII digits; its value saturates at `u32::MAX`, which is
//! harmless because every limit in the format is far smaller (huge selections are out of range,
//! huge sizes or values are errors). Any other token (`-1`, `x`, non-UTF-8 bytes) is bad.
//!
//! Resynchronisation: the format counts tokens (M*N values, then pairs through `0 0`), so a bad
//! token or an out-of-range value inside a grid spoils only that grid: the parser keeps counting
//! tokens and continues with the next grid. A bad token where a header `M N` is expected leaves
//! no way to find the next grid, so the rest of the input is one error. The input may end right
//! after a grid's `0 0` (the terminating header with a zero is then missing; that is accepted);
//! anything after the terminating header is never read, as in a judge solution.

use super::{Game, MAX_COLS, MAX_ROWS, MAX_VALUE, Selection, ZeroPair};
use crate::game::{CaseError, Parsed, grid_size};
use crate::validate::quoted;

/// Largest value a number token keeps: more digits saturate here.
const SATURATED: u64 = u32::MAX as u64;

/// One token of the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token<'a> {
    /// All digits; the value saturates at `u32::MAX`.
    Number(u32),
    /// Anything else, as it appeared.
    Bad(&'a [u8]),
}

/// A token and the byte offset where it starts (its line: [`Lines::line_at`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Located<'a> {
    pub token: Token<'a>,
    pub offset: usize,
}

/// Space, tab, newline, vertical tab, form feed, carriage return (C's `isspace`).
#[inline(always)]
fn is_space(b: u8) -> bool {
    b == b' ' || b.wrapping_sub(b'\t') <= b'\r' - b'\t'
}

/// Splits bytes into whitespace-separated tokens.
///
/// A plain `Copy` value with no line bookkeeping, so that the compiler keeps the position in a
/// register in the parser's loops (one token is a few nanoseconds; a store and reload of the
/// position per token was a measurable share of the parse).
#[derive(Debug, Clone, Copy)]
pub struct Tokens<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Byte offset just past the last token returned.
    last_end: usize,
}

impl<'a> Tokens<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Tokens {
            bytes,
            pos: 0,
            last_end: 0,
        }
    }

    /// Offset of the last byte of the last token returned (0 before any).
    pub fn last_token_offset(&self) -> usize {
        self.last_end.saturating_sub(1)
    }

    /// The position of the next non-whitespace byte (or the end).
    #[inline(always)]
    fn skip_space(&self) -> usize {
        let bytes = self.bytes;
        let mut pos = self.pos;
        while pos < bytes.len() && is_space(bytes[pos]) {
            pos += 1;
        }
        pos
    }

    /// Consumes `length` bytes at `start`.
    #[inline(always)]
    fn consume(&mut self, start: usize, length: usize) {
        self.pos = start + length;
        self.last_end = self.pos;
    }

    /// The next token, or `None` at the end of the input.
    #[inline(always)]
    pub fn next_token(&mut self) -> Option<Located<'a>> {
        let pos = self.skip_space();
        if let Some((length, value)) = small_number_at(self.bytes, pos) {
            self.consume(pos, length);
            return Some(Located {
                token: Token::Number(value),
                offset: pos,
            });
        }
        let (token, end) = slow_token(self.bytes, pos)?;
        self.consume(pos, end - pos);
        Some(Located { token, offset: pos })
    }

    /// The next token when it is a number of one or two digits; otherwise `None`, having
    /// consumed only whitespace. The parser's loops use this (and [`Tokens::next_digit`]) for
    /// the common case and fall back to [`Tokens::next_token`] for anything else.
    #[inline(always)]
    pub fn next_small(&mut self) -> Option<u32> {
        let pos = self.skip_space();
        self.pos = pos;
        let (length, value) = small_number_at(self.bytes, pos)?;
        self.consume(pos, length);
        Some(value)
    }

    /// The next token when it is a single digit (a valid cell value); otherwise `None`, having
    /// consumed only whitespace.
    #[inline(always)]
    pub fn next_digit(&mut self) -> Option<u8> {
        let pos = self.skip_space();
        self.pos = pos;
        let &[digit, after] = self.bytes.get(pos..pos + 2)? else {
            return None;
        };
        let value = digit.wrapping_sub(b'0');
        if value < 10 && is_space(after) {
            self.consume(pos, 1);
            return Some(value);
        }
        None
    }
}

/// `(length, value)` of a number of one or two digits at `pos` followed by whitespace: every
/// cell value and almost every selection. Branches, not arithmetic, find the token's end: the
/// CPU predicts them, so finding the next token never waits for this one's value. A number at
/// the very end of the input (no byte after it) is left to [`slow_token`].
#[inline(always)]
fn small_number_at(bytes: &[u8], pos: usize) -> Option<(usize, u32)> {
    let &[first, second, third] = bytes.get(pos..pos + 3)? else {
        return None;
    };
    let (high, low) = (first.wrapping_sub(b'0'), second.wrapping_sub(b'0'));
    if high >= 10 {
        None
    } else if is_space(second) {
        Some((1, u32::from(high)))
    } else if low < 10 && is_space(third) {
        Some((2, u32::from(high) * 10 + u32::from(low)))
    } else {
        None
    }
}

/// The token starting at `pos` (whitespace already skipped) and the offset past it, one byte at
/// a time: long numbers, bad tokens and the last bytes of the input. `None` at the end.
#[inline(never)]
fn slow_token(bytes: &[u8], start: usize) -> Option<(Token<'_>, usize)> {
    if start >= bytes.len() {
        return None;
    }
    let mut pos = start;
    let mut value: u64 = 0;
    while pos < bytes.len() {
        let digit = bytes[pos].wrapping_sub(b'0');
        if digit >= 10 {
            break;
        }
        value = (value * 10 + u64::from(digit)).min(SATURATED);
        pos += 1;
    }
    if pos == bytes.len() || is_space(bytes[pos]) {
        return Some((Token::Number(value as u32), pos));
    }
    // Not all digits: the whole run up to the next whitespace is one bad token.
    while pos < bytes.len() && !is_space(bytes[pos]) {
        pos += 1;
    }
    Some((Token::Bad(&bytes[start..pos]), pos))
}

/// Line numbers of byte offsets, counted on demand: resuming from the last offset asked about,
/// so asking in increasing order costs one pass over the input in total.
#[derive(Debug, Clone)]
pub struct Lines<'a> {
    bytes: &'a [u8],
    /// `line` is the 1-based line of byte offset `counted_to`.
    counted_to: usize,
    line: usize,
}

impl<'a> Lines<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Lines {
            bytes,
            counted_to: 0,
            line: 1,
        }
    }

    /// The 1-based line of byte offset `offset` (offsets past the end: the last line).
    pub fn line_at(&mut self, offset: usize) -> usize {
        let offset = offset.min(self.bytes.len());
        if offset < self.counted_to {
            self.counted_to = 0;
            self.line = 1;
        }
        let newlines = self.bytes[self.counted_to..offset]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.line += newlines;
        self.counted_to = offset;
        self.line
    }
}

/// The error for a bad token found where `what` was expected.
fn bad_token(line: usize, bytes: &[u8], what: &str) -> CaseError {
    CaseError::new(
        line,
        format!("{} is not a non-negative integer ({what})", quoted(bytes)),
    )
}

/// Parses the whole stream: one [`Parsed`] per grid, in order, selection lists closed as
/// `zero_pair` says. Never panics.
pub fn parse_stream(input: &[u8], zero_pair: ZeroPair) -> Vec<Parsed<Game>> {
    let mut reader = Reader {
        tokens: Tokens::new(input),
        lines: Lines::new(input),
        selections: Vec::new(),
        zero_pair,
    };
    let mut grids = Vec::new();
    while let Some(grid) = reader.grid(grids.len() + 1) {
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

impl GridRead {
    /// A grid that could not be read; `stop` when the rest of the input cannot be read either.
    fn failed(line: usize, size: String, error: CaseError, stop: bool) -> GridRead {
        GridRead {
            parsed: Parsed {
                line,
                label: String::new(),
                size,
                case: Err(error),
            },
            stop,
        }
    }
}

/// The stream parser's state: where the tokens are, and the line counter for messages.
struct Reader<'a> {
    tokens: Tokens<'a>,
    lines: Lines<'a>,
    /// Scratch for a grid's selections, reused so that each grid gets one exact allocation
    /// instead of a chain of reallocations.
    selections: Vec<Selection>,
    /// Which pairs close a selection list.
    zero_pair: ZeroPair,
}

impl Reader<'_> {
    /// The line where the input ended too early.
    fn end_line(&mut self) -> usize {
        let offset = self.tokens.last_token_offset();
        self.lines.line_at(offset)
    }

    /// Reads the header number `what` of grid `number`: `Ok(None)` at the end of the input,
    /// `Err` when the token is bad (the rest of the input is then one error).
    fn header_number(
        &mut self,
        number: usize,
        what: &str,
    ) -> Result<Option<(u32, usize)>, CaseError> {
        let Some(Located { token, offset }) = self.tokens.next_token() else {
            return Ok(None);
        };
        let line = self.lines.line_at(offset);
        match token {
            Token::Number(n) => Ok(Some((n, line))),
            Token::Bad(bytes) => Err(CaseError::new(
                line,
                format!(
                    "{} is not a non-negative integer ({what} of grid {number}); the grids \
                     after it cannot be found",
                    quoted(bytes)
                ),
            )),
        }
    }

    /// Reads grid `number`. `None` at the end of the input or at the terminating header.
    fn grid(&mut self, number: usize) -> Option<GridRead> {
        let (rows, line) = match self.header_number(number, "the row count M") {
            Ok(Some(found)) => found,
            // The input may end where a header is expected (the terminator is then missing).
            Ok(None) => return None,
            Err(error) => return Some(GridRead::failed(error.line, String::new(), error, true)),
        };
        if rows == 0 {
            return None; // the terminating header (its N is not needed)
        }
        let cols = match self.header_number(number, "the column count N") {
            Ok(Some((cols, _))) => cols,
            Ok(None) => {
                let message = format!("the input ends after M = {rows}; N is missing");
                let error = CaseError::new(self.end_line(), message);
                return Some(GridRead::failed(line, String::new(), error, true));
            }
            Err(error) => return Some(GridRead::failed(line, String::new(), error, true)),
        };
        if cols == 0 {
            return None; // the terminating header
        }
        let size = grid_size(rows.into(), cols.into());
        let mut error: Option<CaseError> = None;
        if rows as usize > MAX_ROWS || cols as usize > MAX_COLS {
            error = Some(CaseError::new(
                line,
                format!("grid {rows}x{cols} exceeds {MAX_ROWS} rows or {MAX_COLS} columns"),
            ));
        }
        // Even an oversized grid is skipped by counting its M*N values, to find the next grid;
        // the count is bounded by the input's length because every step consumes a token.
        let count = u64::from(rows) * u64::from(cols);
        let mut cells = Vec::with_capacity(if error.is_none() { count as usize } else { 0 });
        let mut tokens = self.tokens; // a local copy lives in registers in the hot loops
        let mut read = 0;
        if error.is_none() {
            // Every valid cell is one digit: read those in a tight loop, the rest below.
            while read < count {
                let Some(value) = tokens.next_digit() else {
                    break;
                };
                cells.push(value);
                read += 1;
            }
        }
        for index in read..count {
            let Some(Located { token, offset }) = tokens.next_token() else {
                self.tokens = tokens;
                let message =
                    format!("the input ends inside grid {number}: {index} of {count} values read");
                let error = CaseError::new(self.end_line(), message);
                return Some(GridRead::failed(line, size, error, true));
            };
            match token {
                Token::Number(v) if v <= u32::from(MAX_VALUE) => {
                    if error.is_none() {
                        cells.push(v as u8);
                    }
                }
                _ if error.is_some() => {}
                Token::Number(v) => {
                    let (r, c) = (index / u64::from(cols) + 1, index % u64::from(cols) + 1);
                    let message = format!("cell ({r},{c}) = {v} is not a value 0-{MAX_VALUE}");
                    error = Some(CaseError::new(self.lines.line_at(offset), message));
                }
                Token::Bad(bytes) => {
                    let (r, c) = (index / u64::from(cols) + 1, index % u64::from(cols) + 1);
                    let what = format!("cell ({r},{c})");
                    error = Some(bad_token(self.lines.line_at(offset), bytes, &what));
                }
            }
        }
        // Taken out of `self` so that its length lives in a register while pairs are pushed.
        let mut selections = std::mem::take(&mut self.selections);
        selections.clear();
        loop {
            // Fast path: a pair of numbers of one or two digits (almost every pair).
            let before = tokens;
            if let (Some(row), Some(col)) = (tokens.next_small(), tokens.next_small()) {
                if self.zero_pair.closes(row, col) {
                    break;
                }
                selections.push(Selection { row, col });
                continue;
            }
            tokens = before;
            let (Some(first), Some(second)) = (tokens.next_token(), tokens.next_token()) else {
                self.tokens = tokens;
                let message = format!("the input ends before the `0 0` that closes grid {number}");
                let error = CaseError::new(self.end_line(), message);
                return Some(GridRead::failed(line, size, error, true));
            };
            match (first.token, second.token) {
                (Token::Number(row), Token::Number(col)) if self.zero_pair.closes(row, col) => {
                    break;
                }
                (Token::Number(row), Token::Number(col)) => selections.push(Selection { row, col }),
                _ if error.is_some() => {}
                (Token::Bad(bytes), _) => {
                    let line = self.lines.line_at(first.offset);
                    error = Some(bad_token(line, bytes, "a selection row"));
                }
                (_, Token::Bad(bytes)) => {
                    let line = self.lines.line_at(second.offset);
                    error = Some(bad_token(line, bytes, "a selection column"));
                }
            }
        }
        self.tokens = tokens;
        let case = match error {
            Some(error) => Err(error),
            None => Game::new(rows as usize, cols as usize, cells, selections.clone())
                .ok_or_else(|| CaseError::new(line, "grid breaks the size or value limits")),
        };
        self.selections = selections;
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
}

/// How many bytes a [`GridStream`] asks its reader for at a time (more when a grid is larger).
const STREAM_BLOCK: usize = 64 << 10;

/// The grids of an input read incrementally from a [`BufRead`]: the same [`Parsed`] grids,
/// lines and errors as [`parse_stream`], holding in memory only the grid being read (and a
/// block of input). A grid is parsed from the bytes buffered so far; when its parse touched
/// the end of the buffer before the end of the input (a token, or the input, may go on), the
/// buffer is refilled and the grid parsed again, so a block boundary never changes a result.
pub struct GridStream<R> {
    source: R,
    buffer: Vec<u8>,
    /// Where the next grid starts in `buffer`.
    pos: usize,
    /// The line count state of [`Lines`] over `buffer` (`line` is the line of `counted_to`).
    counted_to: usize,
    line: usize,
    /// End of the last token read (see [`Tokens::last_token_offset`]).
    last_end: usize,
    /// The source is exhausted: `buffer` holds the rest of the input.
    eof: bool,
    /// The terminator (or an unreadable rest) was found: no more grids.
    done: bool,
    grids: usize,
    selections: Vec<Selection>,
    zero_pair: ZeroPair,
}

impl<R: std::io::BufRead> GridStream<R> {
    /// The grids of `source`, selection lists closed as `zero_pair` says.
    pub fn new(source: R, zero_pair: ZeroPair) -> Self {
        GridStream {
            zero_pair,
            source,
            buffer: Vec::new(),
            pos: 0,
            counted_to: 0,
            line: 1,
            last_end: 0,
            eof: false,
            done: false,
            grids: 0,
            selections: Vec::new(),
        }
    }

    /// Drops the bytes before the next grid and appends at least a block of input (at least
    /// as much as is buffered, so a large grid is parsed again only a logarithmic number of
    /// times). `Err` on a read error.
    fn refill(&mut self) -> std::io::Result<()> {
        if self.pos > 0 {
            let mut lines = Lines {
                bytes: &self.buffer,
                counted_to: self.counted_to,
                line: self.line,
            };
            self.line = lines.line_at(self.pos);
            self.buffer.drain(..self.pos);
            self.last_end = self.last_end.saturating_sub(self.pos);
            self.counted_to = 0;
            self.pos = 0;
        }
        let want = self.buffer.len().max(STREAM_BLOCK);
        let start = self.buffer.len();
        while self.buffer.len() - start < want {
            let available = match self.source.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                self.eof = true;
                break;
            }
            let n = available.len();
            self.buffer.extend_from_slice(available);
            self.source.consume(n);
        }
        Ok(())
    }
}

impl<R: std::io::BufRead> Iterator for GridStream<R> {
    type Item = Parsed<Game>;

    fn next(&mut self) -> Option<Parsed<Game>> {
        if self.done {
            return None;
        }
        loop {
            let mut reader = Reader {
                tokens: Tokens {
                    bytes: &self.buffer,
                    pos: self.pos,
                    last_end: self.last_end,
                },
                lines: Lines {
                    bytes: &self.buffer,
                    counted_to: self.counted_to,
                    line: self.line,
                },
                selections: std::mem::take(&mut self.selections),
                zero_pair: self.zero_pair,
            };
            let grid = reader.grid(self.grids + 1);
            let (tokens, lines) = (reader.tokens, reader.lines);
            self.selections = reader.selections;
            // Final when the input is all here, or when something other than white space
            // follows the last token read (so neither it nor the input ended at the buffer's
            // end: the parse would be the same with more bytes).
            let rest = &self.buffer[tokens.last_end.max(self.pos)..];
            if !self.eof && rest.iter().all(|&b| is_space(b)) {
                if let Err(e) = self.refill() {
                    self.done = true;
                    let line = Lines {
                        bytes: &self.buffer,
                        counted_to: self.counted_to,
                        line: self.line,
                    }
                    .line_at(self.buffer.len());
                    return Some(crate::game::read_error(line, &e));
                }
                continue;
            }
            (self.pos, self.last_end) = (tokens.pos, tokens.last_end);
            (self.counted_to, self.line) = (lines.counted_to, lines.line);
            match grid {
                None => {
                    self.done = true;
                    return None;
                }
                Some(grid) => {
                    self.grids += 1;
                    self.done = grid.stop;
                    return Some(grid.parsed);
                }
            }
        }
    }
}

#[cfg(test)]
mod stream_tests;
