//! The lenient parser of Link and Pop judge inputs, read a line at a time ([`Cases`]): what
//! `Rules::parse` (on a slice) and `Rules::cases` (on a reader) both are, so a file of any
//! size parses in the memory of one case.
//!
//! Blank lines are skipped; `0 0` or the end of the input ends it (nothing after `0 0` is
//! read). After a malformed case the parser skips to the next line that looks like a header
//! `n m` (a board row never does, since its tokens are letters), so one bad case costs one
//! error; a row that breaks a case is itself looked at as the next header (a case cut short).

use super::{Board, MAX_SIDE, parse_token};
use std::io::BufRead;

use crate::game::{CaseError, LineReader, Parsed, read_error};
use crate::validate::quoted;

pub(super) fn fields(text: &[u8]) -> Vec<&[u8]> {
    text.split(|b| b.is_ascii_whitespace())
        .filter(|f| !f.is_empty())
        .collect()
}

/// A line of exactly two unsigned decimal numbers, read without overflow (a huge number reads
/// as `u64::MAX`, which is out of range anyway).
pub(super) fn header(text: &[u8]) -> Option<(u64, u64)> {
    let number = |f: &[u8]| {
        f.iter().all(u8::is_ascii_digit).then(|| {
            f.iter().fold(0u64, |n, &d| {
                n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
            })
        })
    };
    match fields(text)[..] {
        [n, m] => Some((number(n)?, number(m)?)),
        _ => None,
    }
}

/// Parses a whole judge input (see [`Cases`]).
pub fn parse_file(input: &[u8]) -> Vec<Parsed<Board>> {
    Cases::new(LineReader::new(input)).collect()
}

/// The cases of a judge input, read as they are asked for.
pub struct Cases<R> {
    lines: LineReader<R>,
    done: bool,
}

impl<R: BufRead> Cases<R> {
    pub fn new(lines: LineReader<R>) -> Self {
        Cases { lines, done: false }
    }

    /// Passes over the lines up to the next one that looks like a header.
    fn resync(&mut self) {
        while self
            .lines
            .peek_non_blank()
            .is_some_and(|l| header(l.text).is_none())
        {
            self.lines.skip_line();
        }
    }

    /// Reads `n` rows of `m` tokens. A row that breaks the case is left unread (it may be the
    /// next header); the error names its line.
    fn rows(&mut self, n: usize, m: usize) -> Result<Board, CaseError> {
        let mut cells = Vec::with_capacity(n * m);
        for k in 0..n {
            let Some(row) = self.lines.peek_non_blank() else {
                let line = self.lines.pieces();
                return Err(CaseError::new(
                    line,
                    format!("expected {n} rows, the input ends after {k}"),
                ));
            };
            let line = row.number;
            let tokens = fields(row.text);
            if tokens.len() != m {
                return Err(CaseError::new(
                    line,
                    format!(
                        "expected {m} blocks in row {}, found {}",
                        k + 1,
                        tokens.len()
                    ),
                ));
            }
            for (j, token) in tokens.iter().enumerate() {
                let block = parse_token(token).ok_or_else(|| {
                    CaseError::new(
                        line,
                        format!(
                            "block {} of row {} is {}, not a capital letter then one of UDLRS",
                            j + 1,
                            k + 1,
                            quoted(token)
                        ),
                    )
                })?;
                cells.push(Some(block));
            }
            self.lines.skip_line();
        }
        Ok(Board {
            rows: n,
            cols: m,
            cells,
        })
    }
}

impl<R: BufRead> Iterator for Cases<R> {
    type Item = Parsed<Board>;

    fn next(&mut self) -> Option<Parsed<Board>> {
        if self.done {
            return None;
        }
        let Some(first) = self.lines.next_non_blank() else {
            self.done = true;
            let error = self.lines.error()?;
            return Some(read_error(self.lines.end_line(), &error));
        };
        let line = first.number;
        let parsed = |size: String, case: Result<Board, CaseError>| Parsed {
            line,
            label: String::new(),
            size,
            case,
        };
        let side = 1..=MAX_SIDE as u64;
        let case = match header(&first.text) {
            Some((0, 0)) => {
                self.done = true;
                return None;
            }
            Some((n, m)) if side.contains(&n) && side.contains(&m) => {
                let (n, m) = (n as usize, m as usize);
                let rows = self.rows(n, m);
                let ok = rows.is_ok();
                let case = parsed(format!("{n}x{m}"), rows);
                if ok {
                    return Some(case);
                }
                case
            }
            Some((n, m)) => parsed(
                String::new(),
                Err(CaseError::new(
                    line,
                    format!("board size {n} x {m} is outside 1..={MAX_SIDE} x 1..={MAX_SIDE}"),
                )),
            ),
            None => parsed(
                String::new(),
                Err(CaseError::new(
                    line,
                    format!("expected a header `n m`, found {}", quoted(&first.text)),
                )),
            ),
        };
        self.resync();
        Some(case)
    }
}

#[cfg(test)]
mod stream_tests;
