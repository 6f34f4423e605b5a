//! The line-at-a-time parser gives what the whole-input parser it replaced gave (kept here as
//! the oracle), on the bundled files and broken copies of them, whatever sizes the reads have.

use super::{Cases, parse_file};
use crate::game::{LineReader, test_inputs, trickle};

/// The whole-input parser as it was before the parser read lines one at a time.
mod whole {
    use crate::game::{CaseError, Parsed};
    use crate::games::linkpop::{Board, MAX_SIDE, parse_token};
    use crate::validate::quoted;

    fn fields(text: &[u8]) -> Vec<&[u8]> {
        text.split(|b| b.is_ascii_whitespace())
            .filter(|f| !f.is_empty())
            .collect()
    }

    /// A line of exactly two unsigned decimal numbers, read without overflow (a huge number reads
    /// as `u64::MAX`, which is out of range anyway).
    fn header(text: &[u8]) -> Option<(u64, u64)> {
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

    /// Parses a whole judge input. Blank lines are skipped; `0 0` or the end of the input ends it.
    /// After a malformed case the parser skips to the next line that looks like a header `n m`
    /// (a board row never does, since its tokens are letters), so one bad case costs one error.
    pub(super) fn parse_file(input: &[u8]) -> Vec<Parsed<Board>> {
        let lines: Vec<(usize, &[u8])> = input
            .split(|&b| b == b'\n')
            .enumerate()
            .map(|(i, l)| (i + 1, l))
            .filter(|(_, l)| !l.trim_ascii().is_empty())
            .collect();
        let last_line = input.split(|&b| b == b'\n').count();
        let mut cases = Vec::new();
        let mut i = 0;
        while let Some(&(line, text)) = lines.get(i) {
            let failed = |message: String, size: String| Parsed {
                line,
                label: String::new(),
                size,
                case: Err(CaseError::new(line, message)),
            };
            match header(text) {
                Some((0, 0)) => break,
                Some((n, m))
                    if (1..=MAX_SIDE as u64).contains(&n) && (1..=MAX_SIDE as u64).contains(&m) =>
                {
                    let (n, m) = (n as usize, m as usize);
                    let size = format!("{n}x{m}");
                    match parse_rows(&lines[i + 1..], n, m, last_line) {
                        Ok(board) => {
                            cases.push(Parsed {
                                line,
                                label: String::new(),
                                size,
                                case: Ok(board),
                            });
                            i += 1 + n;
                            continue;
                        }
                        Err((bad, error)) => {
                            cases.push(Parsed {
                                line,
                                label: String::new(),
                                size,
                                case: Err(error),
                            });
                            // Resynchronise from the bad row: it may itself be the next header
                            // (a case cut short); the skip below passes over it otherwise.
                            i += 1 + bad;
                        }
                    }
                }
                Some((n, m)) => {
                    cases.push(failed(
                        format!("board size {n} x {m} is outside 1..={MAX_SIDE} x 1..={MAX_SIDE}"),
                        String::new(),
                    ));
                    i += 1;
                }
                None => {
                    cases.push(failed(
                        format!("expected a header `n m`, found {}", quoted(text)),
                        String::new(),
                    ));
                    i += 1;
                }
            }
            while lines.get(i).is_some_and(|(_, t)| header(t).is_none()) {
                i += 1;
            }
        }
        cases
    }

    /// Reads `n` rows of `m` tokens from `lines`. On error returns the index (into `lines`) of the
    /// offending row and the error naming its line.
    fn parse_rows(
        lines: &[(usize, &[u8])],
        n: usize,
        m: usize,
        last_line: usize,
    ) -> Result<Board, (usize, CaseError)> {
        let mut cells = Vec::with_capacity(n * m);
        for k in 0..n {
            let Some(&(line, text)) = lines.get(k) else {
                let line = last_line;
                return Err((
                    k,
                    CaseError::new(line, format!("expected {n} rows, the input ends after {k}")),
                ));
            };
            let tokens = fields(text);
            if tokens.len() != m {
                return Err((
                    k,
                    CaseError::new(
                        line,
                        format!(
                            "expected {m} blocks in row {}, found {}",
                            k + 1,
                            tokens.len()
                        ),
                    ),
                ));
            }
            for (j, token) in tokens.iter().enumerate() {
                let block = parse_token(token).ok_or_else(|| {
                    (
                        k,
                        CaseError::new(
                            line,
                            format!(
                                "block {} of row {} is {}, not a capital letter then one of UDLRS",
                                j + 1,
                                k + 1,
                                quoted(token)
                            ),
                        ),
                    )
                })?;
                cells.push(Some(block));
            }
        }
        Ok(Board {
            rows: n,
            cols: m,
            cells,
        })
    }
}

#[test]
fn streamed_cases_are_the_whole_parse_whatever_the_reads() {
    for (name, input) in test_inputs("linkpop") {
        let oracle = format!("{:?}", whole::parse_file(&input));
        assert_eq!(format!("{:?}", parse_file(&input)), oracle, "{name}");
        for step in (1..=9).chain([4096]) {
            let streamed: Vec<_> = Cases::new(LineReader::new(trickle(&input, step))).collect();
            assert_eq!(
                format!("{streamed:?}"),
                oracle,
                "{name} read {step} bytes at a time"
            );
        }
    }
}
