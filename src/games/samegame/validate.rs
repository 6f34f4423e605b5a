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

//!
//! The validator reads the input through a buffered reader, a token at a time, and keeps
//! nothing of a token but its first [`HEAD_BYTES`] bytes (to quote it), so its memory does not
//! depend on the input's size: the whole-text form ([`validate`]) is the same code on a slice.

use std::io::{self, BufRead};

use super::{MAX_COLS, MAX_ROWS, MAX_VALUE};
use crate::validate::{HEAD_BYTES, MAX_DIGITS, NumberError, Validation, Violation, quoted_head};

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

/// A token with its line: its first bytes (to quote it), its length, and its value as the
/// parser reads it (saturated), or `None` when it is not all digits.
struct Token {
    /// The first bytes of a short token, where most tokens fit (no allocation).
    inline: [u8; INLINE],
    /// The first bytes (at most [`HEAD_BYTES`]) of a token longer than [`INLINE`].
    spill: Vec<u8>,
    len: usize,
    line: usize,
    value: Option<u64>,
}

/// Bytes of a token kept without an allocation: every number of a valid input fits.
const INLINE: usize = 24;

impl Token {
    /// The kept first bytes of the token.
    fn head(&self) -> &[u8] {
        if self.len <= INLINE {
            &self.inline[..self.len]
        } else {
            &self.spill
        }
    }

    /// Appends the next bytes of the token.
    fn extend(&mut self, piece: &[u8]) {
        let len = self.len + piece.len();
        if len <= INLINE {
            self.inline[self.len..len].copy_from_slice(piece);
        } else {
            if self.spill.is_empty() {
                self.spill.extend_from_slice(&self.inline[..self.len]);
            }
            let keep = piece.len().min(HEAD_BYTES.saturating_sub(self.spill.len()));
            self.spill.extend_from_slice(&piece[..keep]);
        }
        self.len = len;
    }

    /// The token quoted as [`crate::validate::quoted`] quotes the whole of it.
    fn quoted(&self) -> String {
        quoted_head(self.head(), self.len)
    }

    /// What [`crate::validate::number`] says of the whole token.
    fn number_error(&self) -> Option<NumberError> {
        if self.value.is_none() {
            Some(NumberError::NotANumber)
        } else if self.len > 1 && self.head()[0] == b'0' {
            Some(NumberError::LeadingZero)
        } else if self.len > MAX_DIGITS {
            Some(NumberError::TooLong)
        } else {
            None
        }
    }
}

/// The token stream over a buffered reader, counting lines and reporting white space the
/// statement does not allow. A read error ends the stream (as the end of the input would)
/// and is kept for the caller.
struct Stream<'r> {
    input: &'r mut dyn BufRead,
    /// Bytes read and not yet consumed: `buf[pos..end]`.
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    line: usize,
    error: Option<io::Error>,
}

/// Bytes the stream reads at a time (its whole memory, with the violations).
const CHUNK: usize = 64 * 1024;

impl Stream<'_> {
    /// The bytes read and not yet consumed, reading more when there are none; empty at the
    /// end of the input or after an error. Scanning the stream's own buffer, not the
    /// reader's, keeps the per-token cost that of slicing.
    fn fill<'a>(
        input: &mut dyn BufRead,
        buf: &'a mut [u8],
        pos: &mut usize,
        end: &mut usize,
        error: &mut Option<io::Error>,
    ) -> &'a [u8] {
        while *pos == *end && error.is_none() {
            match input.read(buf) {
                Ok(read) => {
                    *pos = 0;
                    *end = read;
                    if read == 0 {
                        break;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => *error = Some(e),
            }
        }
        &buf[*pos..*end]
    }

    fn next(&mut self, case: Option<usize>, out: &mut Validation) -> Option<Token> {
        let Stream {
            input,
            buf: bytes,
            pos,
            end,
            line,
            error,
        } = self;
        // A `\r` seen last: white space the statement allows only before a `\n`.
        let mut cr_at: Option<usize> = None;
        let lone_cr = |at: usize, out: &mut Validation| {
            out.push(Violation::new(
                case,
                at,
                format!("white space byte 0x{:02x}", b'\r'),
                SPACE,
            ));
        };
        'skip: loop {
            let buf = Self::fill(*input, bytes, pos, end, error);
            if buf.is_empty() {
                break 'skip;
            }
            // The common white space (spaces and `\n`) is skipped without a look at each byte
            // for the rare ones the statement forbids.
            let run = buf
                .iter()
                .position(|&b| b != b' ' && b != b'\n')
                .unwrap_or(buf.len());
            if run > 0 {
                if let Some(at) = cr_at.take()
                    && buf[0] != b'\n'
                {
                    lone_cr(at, out);
                }
                *line += buf[..run].iter().filter(|&&b| b == b'\n').count();
            }
            let mut used = run;
            let mut found = false;
            for &b in &buf[run..] {
                if let Some(at) = cr_at.take()
                    && b != b'\n'
                {
                    lone_cr(at, out);
                }
                if !is_space(b) {
                    found = true;
                    break;
                }
                if b == 0x0b || b == 0x0c {
                    out.push(Violation::new(
                        case,
                        *line,
                        format!("white space byte 0x{b:02x}"),
                        SPACE,
                    ));
                }
                if b == b'\r' {
                    cr_at = Some(*line);
                }
                if b == b'\n' {
                    *line += 1;
                }
                used += 1;
            }
            *pos += used;
            if found {
                break 'skip;
            }
        }
        if let Some(at) = cr_at {
            lone_cr(at, out);
        }
        let mut token = Token {
            inline: [0; INLINE],
            spill: Vec::new(),
            len: 0,
            line: *line,
            value: Some(0),
        };
        loop {
            let buf = Self::fill(*input, bytes, pos, end, error);
            if buf.is_empty() {
                break;
            }
            let end = buf.iter().position(|&b| is_space(b));
            let piece = &buf[..end.unwrap_or(buf.len())];
            token.extend(piece);
            token.value = piece
                .iter()
                .try_fold(token.value, |n, &b| {
                    b.is_ascii_digit().then(|| {
                        n.map(|n| n.saturating_mul(10).saturating_add(u64::from(b - b'0')))
                    })
                })
                .flatten();
            *pos += piece.len();
            if end.is_some() {
                break;
            }
        }
        if token.len == 0 {
            return None;
        }
        match token.number_error() {
            None => {}
            // Selections may be any non-negative integer, however long.
            Some(NumberError::TooLong) => {}
            Some(e) => {
                let shown = e.describe_head(token.head(), token.len);
                out.push(Violation::new(case, token.line, shown, NUMBERS));
            }
        }
        Some(token)
    }

    fn end_line(&self) -> usize {
        self.line
    }
}

/// Validates a whole SameGame judge input (the streaming validator on a slice).
pub fn validate(input: &[u8]) -> Validation {
    // Reading a slice cannot fail.
    validate_reader(&mut &input[..]).unwrap_or_default()
}

/// Validates a SameGame judge input read from `input` as it comes, in memory independent of
/// its size; the same violations as [`validate`] on the whole text. A read error is returned
/// (the violations found before it are lost with it).
pub fn validate_reader(input: &mut dyn BufRead) -> io::Result<Validation> {
    let mut out = Validation::default();
    let mut stream = Stream {
        input,
        buf: vec![0; CHUNK],
        pos: 0,
        end: 0,
        line: 1,
        error: None,
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
                    format!("a header holds {}", bad.quoted()),
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
                    format!("{} after the terminating header", extra.quoted()),
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
                    format!("cell {} holds {}", read + 1, token.quoted()),
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
    match stream.error {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inputs with every kind of violation, tokens longer than what is kept of them, and
    /// white space a chunk boundary can split (`\r\n`, a lone `\r`).
    fn inputs() -> Vec<Vec<u8>> {
        let long = "7".repeat(300);
        let garbage = "é".repeat(100);
        let texts = [
            "2 2\n1 2\r\n3 4\n0 0\r\n1 1 0 0\n0 0\n",
            "1 2\r3 3 0 0 0 0\n",
            "1 2\r\x0b3 3 0 0 0 0\r",
            "1 2\n3 03\n0 0\n0 0\n",
            "1 2\n3 -3\n0 0\n0 0\n",
            "11 1\n1 41\n",
            "2 2\n1 1\n1\n",
            "1 2\n3 3\n1 1\n",
            "0 0\n1 1\n",
            "1 2 3 3 0 0 0\n",
            "1 x\n",
            "",
            "\r",
        ];
        let mut all: Vec<Vec<u8>> = texts.iter().map(|t| t.as_bytes().to_vec()).collect();
        all.push(format!("1 2\n3 {long}\n0 0\n0 0\n").into_bytes());
        all.push(format!("1 2\n3 3\n{long} 0 0 0\n0 0\n").into_bytes());
        all.push(format!("1 2\n3 {garbage}\n0 0\n").into_bytes());
        all.push(format!("1 2\n3 0{long}\n0 0\n0 0\n").into_bytes());
        let mut bad = Vec::new();
        for _ in 0..crate::validate::MAX_VIOLATIONS + 5 {
            bad.extend_from_slice(b"1 1\n10 0 0\n");
        }
        all.push(bad);
        all
    }

    /// A reader giving at most `step` bytes a read, so that every read ends at a chunk
    /// boundary of the test's choosing.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.step).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    fn trickle(bytes: &[u8], step: usize) -> io::BufReader<Trickle<'_>> {
        io::BufReader::with_capacity(step, Trickle { bytes, step })
    }

    #[test]
    fn a_chunk_boundary_anywhere_gives_the_same_violations() {
        for input in inputs() {
            let whole = validate(&input);
            for capacity in (1..=9).chain([HEAD_BYTES - 1, HEAD_BYTES, HEAD_BYTES + 1, 4096]) {
                let mut reader = trickle(&input, capacity);
                let chunked = validate_reader(&mut reader).expect("a slice reads");
                assert_eq!(
                    chunked,
                    whole,
                    "{:?} read {capacity} bytes at a time",
                    String::from_utf8_lossy(&input)
                );
            }
        }
    }

    #[test]
    fn split_tokens_and_line_ends_are_read_whole() {
        // Derived by hand: the lone `\r` is on line 1 of case 1, and the 300-digit cell is
        // quoted by its first 32 digits and its length, whatever the reads.
        for capacity in [1, 3, 64] {
            let input = format!("1 2\r3 3 0 0\n1 1\n{} 0 0\n0 0\n", "7".repeat(300));
            let mut reader = trickle(input.as_bytes(), capacity);
            let found = validate_reader(&mut reader).expect("a slice reads");
            let shown: Vec<String> = found.violations.iter().map(|v| v.to_string()).collect();
            assert_eq!(
                shown,
                [
                    format!("case 1: line 1: white space byte 0x0d (constraint: {SPACE})"),
                    format!(
                        "case 2: line 3: cell 1 holds \"{}…\" (300 bytes) (constraint: {VALUE})",
                        "7".repeat(32)
                    ),
                ]
            );
            assert_eq!(found.cases, 2);
        }
    }

    /// A reader that fails after some bytes.
    struct Failing(usize);

    impl io::Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0 == 0 {
                return Err(io::Error::other("disk gone"));
            }
            let n = buf.len().min(self.0);
            buf[..n].fill(b'1');
            self.0 -= n;
            Ok(n)
        }
    }

    #[test]
    fn a_read_error_is_returned() {
        let mut reader = io::BufReader::with_capacity(8, Failing(20));
        let error = validate_reader(&mut reader).expect_err("the read fails");
        assert_eq!(error.to_string(), "disk gone");
    }
}
