//! The line-at-a-time parser gives what the whole-input parser it replaced gave (kept here as
//! the oracle), on the bundled files and broken copies of them, whatever sizes the reads have.

use super::{Puzzles, parse_puzzles};
use crate::game::{LineReader, test_inputs, trickle};

/// The whole-input parser as it was before the parser read lines one at a time.
mod whole {
    use super::super::{Puzzle, looks_like_header, parse_header};
    use crate::game::{CaseError, Parsed};
    use crate::games::vexed::grid::{EMPTY, Grid, WALL, is_block};
    use crate::validate::quoted;

    /// Splits a judge input into puzzles. Never panics; after a bad case it resumes at the next
    /// line that starts like a header.
    pub(super) fn parse_puzzles(input: &[u8]) -> Vec<Parsed<Puzzle>> {
        let lines: Vec<&[u8]> = input
            .split(|&b| b == b'\n')
            .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
            .collect();
        let mut cases = Vec::new();
        let mut i = 0;
        while i < lines.len() {
            let text = lines[i];
            if text.trim_ascii().is_empty() {
                i += 1;
                continue;
            }
            let line = i + 1;
            match parse_header(text) {
                Ok(None) => break,
                Ok(Some((rows, cols, name))) => {
                    let rows_text = lines.get(i + 1..i + 1 + rows).unwrap_or(&lines[i + 1..]);
                    let case = parse_board(line, rows, cols, rows_text);
                    let bad = case.is_err();
                    cases.push(Parsed {
                        line,
                        label: name.clone(),
                        size: format!("{rows}x{cols}"),
                        case: case.map(|grid| Puzzle { name, grid }),
                    });
                    i += 1 + rows_text.len();
                    if bad {
                        while i < lines.len() && !looks_like_header(lines[i]) {
                            i += 1;
                        }
                    }
                }
                Err(message) => {
                    cases.push(Parsed {
                        line,
                        label: String::new(),
                        size: String::new(),
                        case: Err(CaseError::new(line, message)),
                    });
                    i += 1;
                    while i < lines.len() && !looks_like_header(lines[i]) {
                        i += 1;
                    }
                }
            }
        }
        cases
    }

    /// Reads the rows of a board whose header is on line `header_line`.
    fn parse_board(
        header_line: usize,
        rows: usize,
        cols: usize,
        text: &[&[u8]],
    ) -> Result<Grid, CaseError> {
        if text.len() < rows {
            return Err(CaseError::new(
                header_line + text.len() + 1,
                format!("expected {rows} rows, the input ends after {}", text.len()),
            ));
        }
        let mut cells = Vec::with_capacity(rows * cols);
        for (k, row) in text.iter().enumerate() {
            let line = header_line + k + 1;
            let row = row.trim_ascii_end();
            if row.len() != cols {
                return Err(CaseError::new(
                    line,
                    format!("expected a row of {cols} cells, found {}", quoted(row)),
                ));
            }
            if let Some(&bad) = row
                .iter()
                .find(|&&c| c != WALL && c != EMPTY && !is_block(c))
            {
                return Err(CaseError::new(
                    line,
                    format!("cell {} is not `#`, `-` or A-Z", quoted(&[bad])),
                ));
            }
            cells.extend_from_slice(row);
        }
        Ok(Grid::new(rows, cols, cells))
    }
}

#[test]
fn streamed_puzzles_are_the_whole_parse_whatever_the_reads() {
    for (name, input) in test_inputs("vexed") {
        let oracle = format!("{:?}", whole::parse_puzzles(&input));
        assert_eq!(format!("{:?}", parse_puzzles(&input)), oracle, "{name}");
        for step in (1..=9).chain([4096]) {
            let streamed: Vec<_> = Puzzles::new(LineReader::new(trickle(&input, step))).collect();
            assert_eq!(
                format!("{streamed:?}"),
                oracle,
                "{name} read {step} bytes at a time"
            );
        }
    }
}
