//! The streaming validator gives what the whole-input validator it replaced gave (kept here as
//! the oracle, with the line helpers it used in `crate::validate::oracle`), on the bundled
//! files and broken copies of them, whatever sizes the reads have: the format's violations
//! first, then the search's, as before.

use super::validate::{validate, validate_reader};
use crate::validate::oracle::{assert_same, inputs};

/// The whole-input validator as it was before the validator read a line at a time.
mod whole {
    use crate::game::{Budget, Verdict};
    use crate::games::vexed::{MAX_CELLS, bitset, parse_puzzles};
    use crate::validate::oracle::{self, closes, next_case_line};
    use crate::validate::{
        Line, Terminator, Validation, Violation, check_line, lines, number, quoted,
    };

    /// The statement's limit on NR and NC.
    pub const MAX_SIDE: usize = 9;
    /// The statement's promise: "a solution requiring 11 or fewer moves".
    pub const MAX_MOVES: usize = 11;
    /// Boards the search that checks [`MAX_MOVES`] may expand per puzzle: a hundred times what
    /// the hardest bundled puzzles need, a bound on the validator's time (a fraction of a second).
    pub const SEARCH_STATES: u64 = 100_000;

    const HEADER: &str =
        "a header line holds NR, NC and the puzzle's name, separated by one or more spaces";
    const NAME: &str = "the name is a string of characters terminated by the end of line";
    const SIZE: &str = "1 <= NR, NC <= 9";
    const ROW: &str = "NR rows of NC characters: # (wall), - (open space) or a capital letter";
    const WALLS: &str = "the outer walls on the left, right and bottom are part of the puzzle (#)";
    const STABLE: &str = "blocks are arranged in a stable pattern";
    const SOLVABLE: &str =
        "every puzzle has a solution (a letter with one block can never be removed)";
    const MOVES: &str =
        "every input puzzle is guaranteed to have a solution requiring 11 or fewer moves";
    const BLANK: &str = "no blank lines (the statement has none)";
    const END: &str = "a puzzle with zero dimensions (0 0) marks the end of the input";
    const TERMINATOR: Terminator = Terminator {
        after: "text after the end marker",
        marker: "0 0 END",
        end: END,
        blank: BLANK,
    };

    const WALL: u8 = b'#';
    const EMPTY: u8 = b'-';

    /// What a header line says.
    enum Header<'a> {
        /// `NR NC NAME` with NR and NC as the parser reads them.
        Puzzle { rows: usize, cols: usize },
        /// A zero size: the end of the input.
        End { both_zero: bool },
        /// Not a header at all.
        Bad(&'a [u8]),
    }

    fn looks_like_header(text: &[u8]) -> bool {
        text.trim_ascii_start()
            .first()
            .is_some_and(u8::is_ascii_digit)
    }

    /// Reads a header line, reporting its strict-format violations.
    fn header<'a>(line: &Line<'a>, case: Option<usize>, out: &mut Validation) -> Header<'a> {
        let text = line.text;
        if text.first().is_some_and(|b| b.is_ascii_whitespace()) {
            out.push(Violation::new(
                case,
                line.number,
                format!("a leading space in {}", quoted(text)),
                HEADER,
            ));
        }
        let mut rest = text.trim_ascii_start();
        let mut values = [0usize; 2];
        for value in &mut values {
            let end = rest
                .iter()
                .position(|b| b.is_ascii_whitespace())
                .unwrap_or(rest.len());
            let field = &rest[..end];
            // The parser's reading decides the structure (a number that fits a usize).
            let Some(lenient) = std::str::from_utf8(field)
                .ok()
                .and_then(|f| f.parse::<usize>().ok())
            else {
                return Header::Bad(text);
            };
            if let Err(e) = number(field) {
                out.push(Violation::new(case, line.number, e.describe(field), HEADER));
            }
            *value = lenient;
            let after = &rest[end..];
            if after.first().is_some_and(|&b| b != b' ') {
                out.push(Violation::new(
                    case,
                    line.number,
                    format!("white space other than spaces in {}", quoted(text)),
                    HEADER,
                ));
            }
            rest = after.trim_ascii_start();
        }
        let [rows, cols] = values;
        if rows == 0 || cols == 0 {
            return Header::End {
                both_zero: rows == 0 && cols == 0,
            };
        }
        if rest.is_empty() {
            out.push(Violation::new(
                case,
                line.number,
                format!("no name in {}", quoted(text)),
                NAME,
            ));
        } else if rest.last().is_some_and(|b| b.is_ascii_whitespace()) {
            out.push(Violation::new(
                case,
                line.number,
                format!("a trailing space in {}", quoted(text)),
                NAME,
            ));
        }
        Header::Puzzle { rows, cols }
    }

    /// The next line at or after `i` that starts like a header.
    fn resync(lines: &[Line<'_>], i: usize) -> usize {
        oracle::resync(lines, i, looks_like_header)
    }

    /// Validates a whole Vexed judge input.
    pub fn validate(input: &[u8]) -> Validation {
        let lines = lines(input);
        let mut out = Validation::default();
        let mut i = 0;
        let mut case = 0usize;
        // Per case (0-based), whether its board passed every check but the search.
        let mut searchable: Vec<bool> = Vec::new();
        while !out.full() {
            searchable.resize(case, false);
            let Some((line, first)) = next_case_line(&lines, &mut i, case, &TERMINATOR, &mut out)
            else {
                break;
            };
            match header(line, Some(case + 1), &mut out) {
                Header::Bad(text) => {
                    // The parser makes an (error) case of it: count it the same.
                    case += 1;
                    out.push(Violation::new(
                        Some(case),
                        line.number,
                        format!("expected a header `NR NC NAME`, found {}", quoted(text)),
                        HEADER,
                    ));
                    i = resync(&lines, i + 1);
                }
                Header::End { both_zero } => {
                    if !both_zero {
                        out.push(Violation::new(
                            (case > 0).then_some(case),
                            line.number,
                            format!("{} has one zero size", quoted(line.text)),
                            END,
                        ));
                    }
                    closes(&TERMINATOR, &lines, i, first, case, &mut out);
                    break;
                }
                Header::Puzzle { rows, cols } => {
                    case += 1;
                    let sides = 1..=MAX_SIDE;
                    if !(sides.contains(&rows) && sides.contains(&cols)) {
                        out.push(Violation::new(
                            Some(case),
                            line.number,
                            format!("board size {rows} x {cols}"),
                            SIZE,
                        ));
                    }
                    if rows.saturating_mul(cols) > MAX_CELLS {
                        // The parser reads no rows of such a board: resume as it does.
                        i = resync(&lines, i + 1);
                        continue;
                    }
                    let end = (i + 1 + rows).min(lines.len());
                    let before = out.violations.len();
                    let good = board(&lines[i + 1..end], line, case, rows, cols, &mut out);
                    searchable.resize(case, false);
                    searchable[case - 1] = out.violations[before..]
                        .iter()
                        .all(|v| v.case != Some(case));
                    i = end;
                    if !good {
                        i = resync(&lines, i);
                    }
                }
            }
        }
        out.cases = case;
        if searchable.iter().any(|&s| s) && !out.full() {
            check_moves(input, &searchable, &mut out);
        }
        out
    }

    /// The promise of a solution within [`MAX_MOVES`], for the puzzles marked `searchable` (by
    /// 0-based case, the parser's numbering).
    fn check_moves(input: &[u8], searchable: &[bool], out: &mut Validation) {
        let budget = Budget {
            max_states: Some(SEARCH_STATES),
            ..Budget::UNLIMITED
        };
        for (index, parsed) in parse_puzzles(input).iter().enumerate() {
            let (Some(true), Ok(puzzle)) = (searchable.get(index), &parsed.case) else {
                continue;
            };
            let case = Some(index + 1);
            let found = match bitset::solve(puzzle, &budget) {
                Err(e) => Some(e.message),
                Ok(outcome) => match (outcome.verdict, &outcome.answer) {
                    (Verdict::Solved, Some(moves)) if moves.len() <= MAX_MOVES => None,
                    (Verdict::Solved, Some(moves)) => {
                        Some(format!("the minimum solution has {} moves", moves.len()))
                    }
                    (Verdict::Budget, _) => Some(format!(
                        "no solution found within {SEARCH_STATES} search states"
                    )),
                    _ => Some("the puzzle has no solution".to_string()),
                },
            };
            if let Some(found) = found
                && !out.push(Violation::new(case, parsed.line, found, MOVES))
            {
                return;
            }
        }
    }

    /// Checks the rows of puzzle `case` (the lines after its header, at most `rows` of them);
    /// false when the board could not be read (the parser resynchronises then).
    fn board(
        text: &[Line<'_>],
        header: &Line<'_>,
        case: usize,
        rows: usize,
        cols: usize,
        out: &mut Validation,
    ) -> bool {
        let at = Some(case);
        let mut cells: Vec<&[u8]> = Vec::with_capacity(rows);
        let mut readable = true;
        for (r, line) in text.iter().enumerate() {
            check_line(line, at, out);
            let row = line.text;
            if row.len() != cols {
                out.push(Violation::new(
                    at,
                    line.number,
                    format!(
                        "row {r} is {} ({} characters, NC = {cols})",
                        quoted(row),
                        row.len()
                    ),
                    ROW,
                ));
                readable = false;
            } else if let Some(c) = row
                .iter()
                .position(|&b| !(b == WALL || b == EMPTY || b.is_ascii_uppercase()))
            {
                out.push(Violation::new(
                    at,
                    line.number,
                    format!("row {r}, column {c} is {}", quoted(&row[c..=c])),
                    ROW,
                ));
                readable = false;
            }
            cells.push(row);
        }
        if text.len() < rows {
            let line = text.last().map_or(header.number, |l| l.number) + 1;
            out.push(Violation::new(
                at,
                line,
                format!(
                    "the input ends after {} of the NR = {rows} rows",
                    text.len()
                ),
                ROW,
            ));
            return false;
        }
        if readable {
            board_rules(text, &cells, case, out);
        }
        readable
    }

    /// The constraints on a well-formed board: outer walls, a stable pattern, every letter at
    /// least twice.
    fn board_rules(text: &[Line<'_>], cells: &[&[u8]], case: usize, out: &mut Validation) {
        let at = Some(case);
        let rows = cells.len();
        let cols = cells[0].len();
        let line = |r: usize| text[r].number;
        for (r, row) in cells.iter().enumerate() {
            for c in [0, cols - 1] {
                if row[c] != WALL {
                    out.push(Violation::new(
                        at,
                        line(r),
                        format!(
                            "row {r}, column {c} is {}, not an outer wall",
                            quoted(&row[c..=c])
                        ),
                        WALLS,
                    ));
                }
            }
        }
        if let Some(c) = cells[rows - 1].iter().position(|&b| b != WALL) {
            out.push(Violation::new(
                at,
                line(rows - 1),
                format!(
                    "the bottom row has {} at column {c}",
                    quoted(&cells[rows - 1][c..=c])
                ),
                WALLS,
            ));
        }
        let mut count = [0usize; 26];
        let mut first_line = [0usize; 26];
        for (r, row) in cells.iter().enumerate() {
            for (c, &cell) in row.iter().enumerate() {
                if !cell.is_ascii_uppercase() {
                    continue;
                }
                let letter = usize::from(cell - b'A');
                count[letter] += 1;
                if first_line[letter] == 0 {
                    first_line[letter] = line(r);
                }
                if r + 1 < rows && cells[r + 1][c] == EMPTY {
                    out.push(Violation::new(
                        at,
                        line(r),
                        format!("block {} at ({r},{c}) has nothing under it", cell as char),
                        STABLE,
                    ));
                }
                let right = (c + 1 < cols).then(|| row[c + 1]);
                let below = (r + 1 < rows).then(|| cells[r + 1][c]);
                if right == Some(cell) || below == Some(cell) {
                    out.push(Violation::new(
                        at,
                        line(r),
                        format!(
                            "two blocks {} touch at ({r},{c}) and would be removed",
                            cell as char
                        ),
                        STABLE,
                    ));
                }
            }
        }
        for (letter, &n) in count.iter().enumerate() {
            if n == 1 {
                out.push(Violation::new(
                    at,
                    first_line[letter],
                    format!(
                        "letter {} has a single block",
                        (b'A' + letter as u8) as char
                    ),
                    SOLVABLE,
                ));
            }
        }
    }
}

/// A puzzle in the format with no solution (the search's violation).
const UNSOLVABLE: &str = "3 4 STUCK\n#AB#\n#BA#\n####\n";
/// A puzzle that breaks the format (a block with nothing under it).
const FLOATING: &str = "3 4 FLOAT\n#AA#\n#--#\n####\n";
/// A good puzzle (one move).
const GOOD: &str = "3 5 GOOD\n#A-A#\n#B-B#\n#####\n";

/// Inputs where the search's violations and the format's are interleaved in the file, up to
/// past the cap on violations: the report keeps the format's first.
fn searched_inputs() -> Vec<(String, Vec<u8>)> {
    let mut inputs = Vec::new();
    for copies in [1, 3, 40, 60, 120] {
        let body = [UNSOLVABLE, GOOD, FLOATING].concat().repeat(copies);
        inputs.push((
            format!("{copies} x 3 puzzles"),
            format!("{body}0 0 END\n").into_bytes(),
        ));
        inputs.push((format!("{copies} x 3 puzzles, no end"), body.into_bytes()));
        let searched_only = UNSOLVABLE.repeat(copies) + "0 0 END\n";
        inputs.push((format!("{copies} unsolvable"), searched_only.into_bytes()));
    }
    inputs
}

#[test]
fn the_streaming_validator_gives_what_the_whole_input_one_gave() {
    let mut inputs = inputs("vexed", "0 0 END", "2 3 X");
    let searched = searched_inputs();
    // The inputs have what they are for: the search's violations after the format's of a
    // later puzzle, and the search's past the cap.
    let mixed = whole::validate(&searched[0].1);
    let lines: Vec<usize> = mixed.violations.iter().map(|v| v.line).collect();
    assert_eq!(lines, [10, 10, 10, 1], "{mixed:?}");
    let capped = whole::validate(&searched.last().expect("inputs").1);
    assert!(capped.truncated, "{capped:?}");
    inputs.extend(searched);
    assert_same(&inputs, whole::validate, validate, validate_reader);
}
