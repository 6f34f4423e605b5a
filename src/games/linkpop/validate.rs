//! The strict validator of Link and Pop judge inputs (RULES.md, "Validation"): the statement's
//! format exactly, where the parser ([`super::parse_file`]) is lenient.
//!
//! It delimits cases as the parser does (a header line `n m`, then `n` rows; blank lines are
//! skipped after being reported; after a broken case it resumes at the next line that is a
//! header), so its case numbers are the parser's, and reports every violation on the way.
//! It reads the lines as it goes ([`LineSource`]) and holds one case's at a time, so a file of
//! any size validates in the memory of a case; a whole input is read the same way.

use super::{MAX_SIDE, parse_token};
use std::io::BufRead;

use crate::validate::{
    self, LineSource, Terminator, Validation, Violation, check_line, next_case_line, number,
    quoted, single_spaced,
};

/// The statement's limit on cases per file.
pub const MAX_CASES: usize = 30;

const CASES: &str = "the input contains no more than 30 test cases";
const HEADER: &str = "the first line of each test case contains 2 integers n, m";
const SIZE: &str = "1 <= n, m <= 30";
const ROWS: &str = "n more lines, each containing m strings";
const SPACES: &str = "strings separated by single spaces";
const TOKEN: &str = "each string is two capital letters, the second one of U, D, L, R, S";
const BLANK: &str = "there are no blank lines between test cases";
const END: &str = "the input ends with a line of two 0s: 0 0";
const TERMINATOR: Terminator = Terminator {
    after: "text after `0 0`",
    marker: "0 0",
    end: END,
    blank: BLANK,
};

/// A line that is a header: exactly two numeric fields (any spacing); the resynchronisation
/// point of the parser, and so of the validator.
fn header_fields(text: &[u8]) -> Option<(&[u8], &[u8])> {
    let mut fields = text
        .split(|b| b.is_ascii_whitespace())
        .filter(|f| !f.is_empty());
    let (n, m) = (fields.next()?, fields.next()?);
    let numeric = |f: &[u8]| f.iter().all(u8::is_ascii_digit);
    (fields.next().is_none() && numeric(n) && numeric(m)).then_some((n, m))
}

/// Validates a whole Link and Pop judge input.
pub fn validate(input: &[u8]) -> Validation {
    validate_lines(&mut LineSource::new(input))
}

/// [`validate`] of an input read from `input`, a case at a time.
pub fn validate_reader(input: &mut dyn BufRead) -> std::io::Result<Validation> {
    let mut lines = LineSource::new(input);
    let validation = validate_lines(&mut lines);
    match lines.error() {
        Some(error) => Err(error),
        None => Ok(validation),
    }
}

/// Validates the lines of an input.
fn validate_lines<R: BufRead>(lines: &mut LineSource<R>) -> Validation {
    let mut out = Validation::default();
    let mut i = 0;
    let mut case = 0usize;
    while !out.full() {
        let Some((line, first)) = next_case_line(lines, &mut i, case, &TERMINATOR, &mut out) else {
            break;
        };
        let header_line = line.number;
        let Some((n, m)) = header_fields(line.text) else {
            // The parser makes an (error) case of it: count it the same.
            case += 1;
            out.push(Violation::new(
                Some(case),
                line.number,
                format!("expected a header `n m`, found {}", quoted(line.text)),
                HEADER,
            ));
            i = resync(lines, i + 1);
            continue;
        };
        if let (_, Some(problem)) = single_spaced(line.text) {
            out.push(Violation::new(Some(case + 1), line.number, problem, SPACES));
        }
        for field in [n, m] {
            if let Err(e) = number(field) {
                out.push(Violation::new(
                    Some(case + 1),
                    line.number,
                    e.describe(field),
                    HEADER,
                ));
            }
        }
        // The structure follows the parser's reading (leading zeros allowed, saturating), so
        // that the cases are the parser's.
        let (n, m) = (lenient(n), lenient(m));
        if (n, m) == (0, 0) {
            TERMINATOR.closes(lines, i, first, case, &mut out);
            break;
        }
        case += 1;
        if case == MAX_CASES + 1 {
            out.push(Violation::new(
                Some(case),
                header_line,
                format!("case {case} starts here"),
                CASES,
            ));
        }
        let side = 1..=MAX_SIDE as u64;
        if !(side.contains(&n) && side.contains(&m)) {
            out.push(Violation::new(
                Some(case),
                header_line,
                format!("board size {} x {}", quoted_number(n), quoted_number(m)),
                SIZE,
            ));
            i = resync(lines, i + 1);
            continue;
        }
        i = rows(lines, i + 1, case, n as usize, m as usize, &mut out);
    }
    out.cases = case;
    out
}

/// A field of digits read as the parser reads it: saturating, leading zeros allowed.
fn lenient(field: &[u8]) -> u64 {
    field.iter().fold(0u64, |n, &d| {
        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    })
}

/// A saturated number for a message.
fn quoted_number(n: u64) -> String {
    if n == u64::MAX {
        "(huge)".to_string()
    } else {
        n.to_string()
    }
}

/// The next header line at or after `i` (or the end).
fn resync<R: BufRead>(lines: &mut LineSource<R>, i: usize) -> usize {
    validate::resync(lines, i, |text| header_fields(text).is_some())
}

/// Checks the `n` rows of case `case` starting at line index `i`; returns where the next case
/// starts. The rows are released as they are read.
fn rows<R: BufRead>(
    lines: &mut LineSource<R>,
    mut i: usize,
    case: usize,
    n: usize,
    m: usize,
    out: &mut Validation,
) -> usize {
    let mut row = 0;
    while row < n {
        lines.release(i);
        let Some(line) = lines.get(i) else {
            let end = lines.end_line();
            out.push(Violation::new(
                Some(case),
                end,
                format!("the input ends after {row} of the {n} rows"),
                ROWS,
            ));
            return i;
        };
        check_line(&line, Some(case), out);
        if line.is_blank() {
            out.push(Violation::new(
                Some(case),
                line.number,
                "a blank line",
                BLANK,
            ));
            i += 1;
            continue;
        }
        if header_fields(line.text).is_some() {
            out.push(Violation::new(
                Some(case),
                line.number,
                format!(
                    "a header {} where row {} of {n} is expected",
                    quoted(line.text),
                    row + 1
                ),
                ROWS,
            ));
            return i;
        }
        let (tokens, problem) = single_spaced(line.text);
        if let Some(problem) = problem {
            out.push(Violation::new(Some(case), line.number, problem, SPACES));
        }
        if tokens.len() != m {
            out.push(Violation::new(
                Some(case),
                line.number,
                format!("row {} has {} strings, not m = {m}", row + 1, tokens.len()),
                ROWS,
            ));
        }
        if let Some((k, bad)) = tokens
            .iter()
            .enumerate()
            .find(|(_, t)| parse_token(t).is_none())
        {
            out.push(Violation::new(
                Some(case),
                line.number,
                format!("string {} of row {} is {}", k + 1, row + 1, quoted(bad)),
                TOKEN,
            ));
        }
        row += 1;
        i += 1;
    }
    i
}
