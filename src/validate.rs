//! Strict validation of judge inputs against the statements' constraints: what `gamebench
//! validate` and `run --validate` report, separate from the lenient parsers the engines use.
//!
//! A game's validator ([`crate::game::Rules::validate_reader`], in `src/games/<game>/validate.rs`)
//! reads the raw bytes and returns a [`Validation`]: the number of cases it found and every
//! [`Violation`], each naming the case (when there is one), the 1-based line and the
//! constraint broken, in the statement's words where it has them. This module is the generic
//! part: the violation type and how it prints, the one helper that quotes (and shortens) input
//! in messages ([`quoted`]), the lines of an input, whole ([`lines`]) or read as they are
//! asked for ([`LineSource`], so that a file of any size validates in the memory of a case;
//! the one line reader, which the incremental parsers read through too, as a [`LineReader`])
//! (`lines.rs`), the steps every line-based validator takes between cases (`cases.rs`), the checks
//! every line-based format shares ([`check_line`], [`single_spaced`]) and strict number
//! reading ([`number`]).
//!
//! Invariants:
//! - validating never panics and is linear in the input: numbers are read with a bounded
//!   number of digits, and a file yields at most [`MAX_VIOLATIONS`] violations (the validator
//!   stops reading there and says so), so a huge garbage file gives a short report;
//! - every violation has a line number inside the input (or one past its last line, for
//!   "the input ends too early");
//! - a valid file has no violation; every file the bundled generators write is valid (tested
//!   over every profile).

use std::fmt;

mod cases;
mod lines;
#[cfg(test)]
pub(crate) mod oracle;
#[cfg(test)]
pub mod testing;

pub use cases::{Terminator, next_case_line, resync};
pub use lines::{
    Line, LineReader, LineSource, MAX_LINE_BYTES, OwnedLine, end_line, lines, read_line,
};

/// Most violations kept for one file; a validator stops reading once it has this many.
pub const MAX_VIOLATIONS: usize = 100;
/// Characters of input shown in a message before it is cut (see [`quoted`]).
pub const SHOWN_CHARS: usize = 32;
/// Most digits a number may have before it is reported as too long (never parsed further, so
/// a line of a million digits costs nothing); far above every limit of the statements.
pub const MAX_DIGITS: usize = 18;

/// One broken constraint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The 1-based case the line belongs to, as the validator counts cases; `None` for the
    /// file as a whole (e.g. before the first case, or a missing terminator).
    pub case: Option<usize>,
    /// 1-based line in the file.
    pub line: usize,
    /// What was found, with the input quoted ([`quoted`]).
    pub found: String,
    /// The constraint broken, in the statement's words where it has them.
    pub constraint: String,
}

impl Violation {
    pub fn new(
        case: Option<usize>,
        line: usize,
        found: impl Into<String>,
        constraint: impl Into<String>,
    ) -> Self {
        Violation {
            case,
            line,
            found: found.into(),
            constraint: constraint.into(),
        }
    }

    /// The message without the case: `line L: FOUND (constraint: C)`.
    pub fn without_case(&self) -> String {
        format!(
            "line {}: {} (constraint: {})",
            self.line, self.found, self.constraint
        )
    }
}

impl fmt::Display for Violation {
    /// `case K: line L: FOUND (constraint: C)`, without `case K: ` for the file as a whole.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(case) = self.case {
            write!(f, "case {case}: ")?;
        }
        f.write_str(&self.without_case())
    }
}

/// What a validator found in one file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Validation {
    /// Cases found (those the validator could delimit, valid or not).
    pub cases: usize,
    /// Every violation, in input order, at most [`MAX_VIOLATIONS`].
    pub violations: Vec<Violation>,
    /// The validator reached [`MAX_VIOLATIONS`] and stopped reading; there may be more.
    pub truncated: bool,
}

impl Validation {
    pub fn is_valid(&self) -> bool {
        self.violations.is_empty()
    }

    /// Records a violation; returns false once the file has [`MAX_VIOLATIONS`] (the validator
    /// should then stop).
    pub fn push(&mut self, violation: Violation) -> bool {
        if self.violations.len() >= MAX_VIOLATIONS {
            return false;
        }
        self.violations.push(violation);
        // Validators stop reading here, so whatever follows is unknown.
        self.truncated = self.violations.len() >= MAX_VIOLATIONS;
        !self.truncated
    }

    /// Whether the validator should stop reading.
    pub fn full(&self) -> bool {
        self.violations.len() >= MAX_VIOLATIONS
    }

    /// Index (0-based) of the case each violation concerns among cases starting at the given
    /// 1-based lines (a parser's cases, in order): the last case starting at or before the
    /// violation's line, or the first case for a line before every case. Empty when there
    /// are no cases. This is how `run --validate` ties violations to the parser's cases
    /// without knowing the game.
    pub fn per_case(&self, case_lines: &[usize]) -> Vec<Vec<&Violation>> {
        violations_per_case(&self.violations, case_lines)
    }
}

/// A violation located in a file, as `validate` prints it: `FILE: case K: line L: ...`.
pub struct InFile<'a> {
    pub file: &'a str,
    pub violation: &'a Violation,
}

/// [`Validation::per_case`] for any violations in line order (a streamed file's share of them).
pub fn violations_per_case<'a>(
    violations: &'a [Violation],
    case_lines: &[usize],
) -> Vec<Vec<&'a Violation>> {
    let mut per: Vec<Vec<&Violation>> = vec![Vec::new(); case_lines.len()];
    if per.is_empty() {
        return per;
    }
    for violation in violations {
        let after = case_lines.partition_point(|&start| start <= violation.line);
        per[after.saturating_sub(1)].push(violation);
    }
    per
}

impl fmt::Display for InFile<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.violation)
    }
}

/// Input bytes quoted for a message: escaped like a Rust string (so control bytes, tabs and
/// trailing spaces are visible), invalid UTF-8 replaced, and cut after [`SHOWN_CHARS`]
/// characters with the total length given, so a megabyte of garbage on one line prints as
/// `"xxxx…" (1048576 bytes)`. The one helper every message quoting input uses (with
/// [`excerpt`], its form for a window further into the text).
pub fn quoted(bytes: &[u8]) -> String {
    excerpt(bytes, 0)
}

/// Bytes of a long field kept to quote it ([`quoted_head`]): enough for [`SHOWN_CHARS`]
/// characters of up to 4 bytes each and one more, so a streaming validator need not keep a
/// field of any length to print it exactly as [`quoted`] would.
pub const HEAD_BYTES: usize = 4 * SHOWN_CHARS + 4;

/// [`quoted`] of a field of which only the first bytes (`head`, at least [`HEAD_BYTES`] of
/// them or all) are kept and whose length is `total`: the same text [`quoted`] gives on the
/// whole field.
pub fn quoted_head(head: &[u8], total: usize) -> String {
    let text = String::from_utf8_lossy(head);
    let mut chars = text.chars();
    let shown: String = chars.by_ref().take(SHOWN_CHARS).collect();
    if chars.next().is_none() && head.len() == total {
        format!("{shown:?}")
    } else {
        let escaped = format!("{shown:?}");
        let open = &escaped[..escaped.len() - 1];
        format!("{open}…\" ({total} bytes)")
    }
}

/// Like [`quoted`], but from character `start` on (a `…` in front says text was left out):
/// shows where two long lines differ.
pub fn excerpt(bytes: &[u8], start: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut chars = text.chars().skip(start);
    let head: String = chars.by_ref().take(SHOWN_CHARS).collect();
    let before = if start > 0 { "…" } else { "" };
    if chars.next().is_none() {
        format!("{before}{head:?}")
    } else {
        let escaped = format!("{head:?}");
        let open = &escaped[..escaped.len() - 1];
        format!("{before}{open}…\" ({} bytes)", bytes.len())
    }
}

/// Constraint: every line of a line-based format ends with `\n`.
pub const NEWLINE: &str = "every line ends with a newline (\\n)";
/// Constraint: line-based formats are printable ASCII.
pub const PRINTABLE: &str =
    "lines hold printable ASCII only (no carriage return, tab or control byte)";

/// The checks every line of a line-based format gets: ended by `\n`, printable ASCII only
/// (a `\r` of a CRLF line ending, a tab or a control byte is named with its column).
/// Records at most one violation per problem kind.
pub fn check_line(line: &Line<'_>, case: Option<usize>, out: &mut Validation) {
    if let Some(column) = line.text.iter().position(|&b| !(b' '..=b'~').contains(&b)) {
        let byte = line.text[column];
        let what = match byte {
            b'\r' => "a carriage return (CRLF line ending?)".to_string(),
            b'\t' => "a tab".to_string(),
            _ => format!("byte 0x{byte:02x}"),
        };
        out.push(Violation::new(
            case,
            line.number,
            format!("{what} at column {} in {}", column + 1, quoted(line.text)),
            PRINTABLE,
        ));
    }
    if !line.terminated {
        out.push(Violation::new(
            case,
            line.number,
            format!("the last line {} has no newline", quoted(line.text)),
            NEWLINE,
        ));
    }
}

/// Splits a line at single spaces. The fields are returned whatever happens; `Err` also says
/// what breaks "separated by single spaces": a leading or trailing space, or two spaces in a
/// row (with the column).
pub fn single_spaced(text: &[u8]) -> (Vec<&[u8]>, Option<String>) {
    let fields: Vec<&[u8]> = text
        .split(|&b| b == b' ')
        .filter(|f| !f.is_empty())
        .collect();
    let problem = if text.first() == Some(&b' ') {
        Some(format!("a leading space in {}", quoted(text)))
    } else if text.last() == Some(&b' ') {
        Some(format!("a trailing space in {}", quoted(text)))
    } else {
        text.windows(2).position(|w| w == b"  ").map(|at| {
            format!(
                "two spaces in a row at column {} in {}",
                at + 1,
                quoted(text)
            )
        })
    };
    (fields, problem)
}

/// Why a field is not a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberError {
    /// Not all ASCII digits (or empty).
    NotANumber,
    /// A `0` before other digits.
    LeadingZero,
    /// More than [`MAX_DIGITS`] digits.
    TooLong,
}

impl NumberError {
    /// What is wrong with `field`, for a message.
    pub fn describe(self, field: &[u8]) -> String {
        self.describe_head(field, field.len())
    }

    /// [`NumberError::describe`] of a field of which only the first bytes are kept (see
    /// [`quoted_head`]) and whose length is `total`.
    pub fn describe_head(self, head: &[u8], total: usize) -> String {
        let shown = quoted_head(head, total);
        match self {
            NumberError::NotANumber => format!("{shown} is not a non-negative integer"),
            NumberError::LeadingZero => format!("{shown} has a leading zero"),
            NumberError::TooLong => {
                format!("{shown} has {total} digits, more than any limit allows")
            }
        }
    }
}

/// A non-negative decimal integer written canonically: digits only, no sign, no leading zero
/// (`0` itself is fine), at most [`MAX_DIGITS`] digits.
pub fn number(field: &[u8]) -> Result<u64, NumberError> {
    if field.is_empty() || !field.iter().all(u8::is_ascii_digit) {
        return Err(NumberError::NotANumber);
    }
    if field.len() > 1 && field[0] == b'0' {
        return Err(NumberError::LeadingZero);
    }
    if field.len() > MAX_DIGITS {
        return Err(NumberError::TooLong);
    }
    Ok(field
        .iter()
        .fold(0u64, |n, &d| n * 10 + u64::from(d - b'0')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_escapes_and_shortens() {
        assert_eq!(quoted(b"AB CD"), "\"AB CD\"");
        assert_eq!(quoted(b"a\tb\r"), "\"a\\tb\\r\"");
        let long = vec![b'x'; 1000];
        let shown = quoted(&long);
        assert!(shown.starts_with("\"xxxx"), "{shown}");
        assert!(shown.ends_with("…\" (1000 bytes)"), "{shown}");
        assert!(shown.len() < 60, "{shown}");
        assert_eq!(quoted(&[0xff, b'a']), "\"\u{fffd}a\"");
        assert_eq!(excerpt(b"abcdef", 2), "…\"cdef\"");
        for field in [
            &b""[..],
            b"AB CD",
            b"a\tb",
            &long,
            &[0xff; 300],
            "é".repeat(200).as_bytes(),
        ] {
            let head = &field[..field.len().min(HEAD_BYTES)];
            assert_eq!(quoted_head(head, field.len()), quoted(field));
        }
        let window = excerpt(&long, 500);
        assert!(window.starts_with("…\"xxx") && window.ends_with("…\" (1000 bytes)"));
    }

    #[test]
    fn single_spaces_only() {
        assert_eq!(single_spaced(b"1 2"), (vec![&b"1"[..], b"2"], None));
        assert!(single_spaced(b" 1 2").1.unwrap().contains("leading"));
        assert!(single_spaced(b"1 2 ").1.unwrap().contains("trailing"));
        assert!(single_spaced(b"1  2").1.unwrap().contains("column 2"));
    }

    #[test]
    fn numbers_are_canonical_and_bounded() {
        assert_eq!(number(b"0"), Ok(0));
        assert_eq!(number(b"30"), Ok(30));
        assert_eq!(number(b"030"), Err(NumberError::LeadingZero));
        assert_eq!(number(b"-1"), Err(NumberError::NotANumber));
        assert_eq!(number(b""), Err(NumberError::NotANumber));
        assert_eq!(number(&[b'9'; 19]), Err(NumberError::TooLong));
        assert_eq!(number(&[b'9'; 18]), Ok(999_999_999_999_999_999));
    }

    #[test]
    fn violations_go_to_the_case_whose_lines_hold_them() {
        let mut v = Validation::default();
        for line in [1, 2, 5, 9, 40] {
            v.push(Violation::new(None, line, "x", "y"));
        }
        let per = v.per_case(&[2, 5, 9]);
        let lines: Vec<Vec<usize>> = per
            .iter()
            .map(|c| c.iter().map(|v| v.line).collect())
            .collect();
        assert_eq!(lines, vec![vec![1, 2], vec![5], vec![9, 40]]);
        assert!(v.per_case(&[]).is_empty());
    }

    #[test]
    fn messages_name_case_line_and_constraint() {
        let v = Violation::new(Some(3), 12, "found \"x\"", "1 <= n <= 30");
        assert_eq!(
            v.to_string(),
            "case 3: line 12: found \"x\" (constraint: 1 <= n <= 30)"
        );
        let in_file = InFile {
            file: "a.in",
            violation: &v,
        };
        assert!(in_file.to_string().starts_with("a.in: case 3: line 12: "));
        let mut full = Validation::default();
        for _ in 1..MAX_VIOLATIONS {
            assert!(full.push(v.clone()));
        }
        assert!(!full.truncated);
        assert!(!full.push(v.clone()));
        assert!(!full.push(v.clone()));
        assert_eq!(full.violations.len(), MAX_VIOLATIONS);
        assert!(full.truncated && full.full());
    }
}
