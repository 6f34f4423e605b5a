//! The streaming validator gives what the whole-input validator it replaced gave (kept here as
//! the oracle, with the line helpers it used in `crate::validate::oracle`), on the bundled
//! files and broken copies of them, whatever sizes the reads have.

use super::validate::{validate, validate_reader};
use crate::validate::oracle::{assert_same, inputs};

/// The whole-input validator as it was before the validator read a line at a time.
mod whole {
    use crate::games::linkpop::{MAX_SIDE, parse_token};
    use crate::validate::oracle::{self, closes, next_case_line};
    use crate::validate::{
        Line, Terminator, Validation, Violation, check_line, end_line, lines, number, quoted,
        single_spaced,
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
        let lines = lines(input);
        let mut out = Validation::default();
        let mut i = 0;
        let mut case = 0usize;
        while !out.full() {
            let Some((line, first)) = next_case_line(&lines, &mut i, case, &TERMINATOR, &mut out)
            else {
                break;
            };
            let Some((n, m)) = header_fields(line.text) else {
                // The parser makes an (error) case of it: count it the same.
                case += 1;
                out.push(Violation::new(
                    Some(case),
                    line.number,
                    format!("expected a header `n m`, found {}", quoted(line.text)),
                    HEADER,
                ));
                i = resync(&lines, i + 1);
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
                closes(&TERMINATOR, &lines, i, first, case, &mut out);
                break;
            }
            case += 1;
            if case == MAX_CASES + 1 {
                out.push(Violation::new(
                    Some(case),
                    line.number,
                    format!("case {case} starts here"),
                    CASES,
                ));
            }
            let side = 1..=MAX_SIDE as u64;
            if !(side.contains(&n) && side.contains(&m)) {
                out.push(Violation::new(
                    Some(case),
                    line.number,
                    format!("board size {} x {}", quoted_number(n), quoted_number(m)),
                    SIZE,
                ));
                i = resync(&lines, i + 1);
                continue;
            }
            i = rows(&lines, i + 1, case, n as usize, m as usize, &mut out);
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
    fn resync(lines: &[Line<'_>], i: usize) -> usize {
        oracle::resync(lines, i, |text| header_fields(text).is_some())
    }

    /// Checks the `n` rows of case `case` starting at line index `i`; returns where the next case
    /// starts.
    fn rows(
        lines: &[Line<'_>],
        mut i: usize,
        case: usize,
        n: usize,
        m: usize,
        out: &mut Validation,
    ) -> usize {
        let mut row = 0;
        while row < n {
            let Some(line) = lines.get(i) else {
                out.push(Violation::new(
                    Some(case),
                    end_line(lines),
                    format!("the input ends after {row} of the {n} rows"),
                    ROWS,
                ));
                return i;
            };
            check_line(line, Some(case), out);
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
}

#[test]
fn the_streaming_validator_gives_what_the_whole_input_one_gave() {
    let inputs = inputs("linkpop", "0 0", "2 2");
    assert_same(&inputs, whole::validate, validate, validate_reader);
}
