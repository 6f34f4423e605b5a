//! Rule, format and parser tests for SameGame. Every expected output below is derived by hand
//! from `spec/samegame.md`, with the derivation in the comments. Grids are drawn top row first,
//! `.` for an empty cell; `(r,c)` is 1-based from the lower-left corner as in the statement.

use super::*;
use crate::game::{Budget, CaseError};

/// Solves every grid of `input` with every engine, checks that the engines agree (output and
/// work), and returns the joined judge output and the work of each grid.
fn run(input: &str) -> (String, Vec<u64>) {
    let parsed = SameGame::parse(input.as_bytes(), &crate::game::Reading::STATEMENT);
    let mut joined: Option<(String, Vec<u64>)> = None;
    for engine in SameGame::ENGINES {
        let mut blocks = Vec::new();
        let mut work = Vec::new();
        for (k, p) in parsed.iter().enumerate() {
            let game = p
                .case
                .as_ref()
                .unwrap_or_else(|e| panic!("grid {}: {e}", k + 1));
            let outcome = (engine.solve)(game, &Budget::UNLIMITED).unwrap();
            blocks.push(SameGame::format_case(k + 1, game, &outcome));
            work.push(outcome.work);
        }
        let result = (blocks.join(SameGame::SEPARATOR), work);
        match &joined {
            None => joined = Some(result),
            Some(first) => assert_eq!(first, &result, "engine {} disagrees", engine.name),
        }
    }
    joined.expect("at least one engine")
}

/// The errors of `input`'s grids (`None` for a grid that parsed).
fn errors(input: &[u8]) -> Vec<Option<CaseError>> {
    SameGame::parse(input, &crate::game::Reading::STATEMENT)
        .into_iter()
        .map(|p| p.case.err())
        .collect()
}

const SAMPLE_IN: &str = "3 5\n1 2 3 5 5\n2 2 3 5 1\n1 3 5 2 2\n3 5\n2 2\n1 2\n1 2\n1 1\n0 0\n\n\
                         3 5\n1 2 3 5 5\n2 2 3 5 1\n1 3 5 2 2\n2 2   1 2   1 4   1 2\n99 99 0 0\n\n\
                         4 3\n1 4 4\n4 4 2\n1 2 3\n3 1 3\n1 2 1 1 1 3 1 1 0 0\n0 0\n";
/// The spec's corrected sample output (rows of 3 + 2*5 = 13 characters).
const SAMPLE_OUT: &str = "Grid 1.\n    Game Won\n\nGrid 2.\n             \n    1   2    \n    \
                          1 2 1    \n\nGrid 3.\n    Game Won\n";

#[test]
fn sample_byte_for_byte() {
    assert_eq!(run(SAMPLE_IN).0, SAMPLE_OUT);
}

#[test]
fn every_kind_of_ignored_selection() {
    // 2x3, bottom row first in the input:   2 | 1 2 4
    //                                       1 | 1 3 3
    let input = "2 3\n1 3 3\n1 2 4\n\
                 0 5\n3 0\n99 99\n123456 1\n99999999999999999999 2\n\
                 2 2\n1 3\n2 3\n1 1\n1 3\n1 1\n0 0\n0 0\n";
    // `0 5`, `3 0` (one zero each: out of range, not the end), `99 99`, `123456 1` and the
    // saturated 20-digit row: out of range, ignored.
    // `2 2` = 2, its neighbours are 3, 1, 4: a singleton, ignored.
    // `1 3` = 3: region {(1,2),(1,3)} removed; 2 and 4 fall:   1 . .
    //                                                          1 2 4
    // `2 3`: above column 3's top (empty), ignored.
    // `1 1` = 1: region {(1,1),(2,1)} removed; column 1 is empty and columns 2-3 slide left:
    //                                                          . . .
    //                                                          2 4 .
    // `1 3`: a cell of the vacated column, ignored. `1 1` = 2 next to 4: singleton, ignored.
    let (out, work) = run(input);
    assert_eq!(out, "Grid 1.\n         \n    2 4  \n");
    assert_eq!(work, [2]);
}

#[test]
fn several_columns_collapse_at_once() {
    // 2x5:   7 7 7 7 7
    //        7 1 7 2 7
    // `1 1` = 7: the 7s are one region through the top row (8 cells); columns 1, 3 and 5 empty
    // at once, 1 and 2 (already at the bottom) slide to columns 1 and 2:
    //        . . . . .
    //        1 2 . . .
    // `1 1` = 1 next to 2: singleton, ignored.
    let (out, work) = run("2 5  7 1 7 2 7  7 7 7 7 7  1 1  1 1  0 0  0 0");
    assert_eq!(out, "Grid 1.\n             \n    1 2      \n");
    assert_eq!(work, [1]);
}

#[test]
fn pairs_after_a_win_are_skipped_through_zero_zero() {
    // Grid 1 is 1x2 `4 4`: `1 1` removes both cells, a win. `1 2 0 5 3 0` must be skipped;
    // `0 5` and `3 0` are not terminators, so `0 0` closes grid 1 and grid 2 (1x1 `0`) follows.
    // Grid 2: `1 1` selects a single 0, ignored; the grid prints as `    0`.
    let (out, work) = run("1 2\n4 4\n1 1 1 2 0 5 3 0 0 0\n1 1\n0\n1 1 0 0\n0 0\n");
    assert_eq!(out, "Grid 1.\n    Game Won\n\nGrid 2.\n    0\n");
    assert_eq!(work, [1, 0]);
}

#[test]
fn zero_is_an_ordinary_value() {
    // Grid 1, 2x2 of 0s: `1 1` removes the 4-cell region of 0s: won.
    // Grid 2, 1x3 `0 0 1`: `1 2` removes the two 0s; columns 1 and 2 vanish, 1 slides to
    // column 1: `    1    ` (3 + 2*3 = 9 characters).
    // Grid 3, 2x1, bottom 5 top 0: `2 1` = 0, a singleton: unchanged, top row first.
    let (out, work) = run("2 2 0 0 0 0 1 1 0 0\n1 3 0 0 1 1 2 0 0\n2 1 5 0 2 1 0 0\n0 0\n");
    assert_eq!(
        out,
        "Grid 1.\n    Game Won\n\nGrid 2.\n    1    \n\nGrid 3.\n    0\n    5\n"
    );
    assert_eq!(work, [1, 1, 0]);
}

#[test]
fn gravity_runs_before_the_next_selection() {
    // 3x2 (top first):  1 2
    //                   2 1
    //                   1 2
    // `1 1` = 1: singleton (neighbours 2, 2), ignored. `2 1` = 2: singleton, ignored.
    // Nothing connects, so the grid prints unchanged.
    let (out, _) = run("3 2 1 2 2 1 1 2 1 1 2 1 0 0 0 0");
    assert_eq!(out, "Grid 1.\n    1 2\n    2 1\n    1 2\n");
    // 3x2 (top first):  5 5
    //                   3 4
    //                   3 4
    // `1 1` = 3: column 1's 3s go, the 5 above falls to row 1:  . 5 / . 4 / 5 4 (top first).
    // `3 2` = 5: its neighbours are (2,2) = 4 and the empty (3,1); (1,1) = 5 is not adjacent:
    // a singleton, ignored.
    // `1 2` = 4: {(1,2),(2,2)} removed, 5 falls to (1,2): now row 1 is `5 5`.
    // `1 1` = 5: {(1,1),(1,2)} removed: won.
    let (out, work) = run("3 2 3 4 3 4 5 5 1 1 3 2 1 2 1 1 0 0 0 0");
    assert_eq!(out, "Grid 1.\n    Game Won\n");
    assert_eq!(work, [3]);
}

#[test]
fn every_layout_reads_the_same() {
    let tokens: Vec<&str> = SAMPLE_IN.split_ascii_whitespace().collect();
    let one_line = tokens.join(" ");
    let one_per_line = tokens.join("\n") + "\n";
    let tabs = tokens.join("\t\t");
    let blank_lines = tokens.join("\n\n\n");
    let crlf = tokens
        .chunks(3)
        .map(|c| c.join(" \t"))
        .collect::<Vec<_>>()
        .join("\r\n");
    for input in [one_line, one_per_line, tabs, blank_lines, crlf] {
        assert_eq!(run(&input).0, SAMPLE_OUT, "{input:?}");
    }
}

#[test]
fn a_single_cell_is_never_removed() {
    // 1x1 games cannot be won (a region needs 2 cells); a 1x1 grid stays.
    let (out, _) = run("1 1 3 1 1 0 0 0 0");
    assert_eq!(out, "Grid 1.\n    3\n");
}

#[test]
fn split_output_inverts_the_joined_blocks() {
    let blocks = SameGame::split_output(SAMPLE_OUT);
    assert_eq!(
        blocks,
        [
            "Grid 1.\n    Game Won\n",
            "Grid 2.\n             \n    1   2    \n    1 2 1    \n",
            "Grid 3.\n    Game Won\n"
        ]
    );
    assert_eq!(blocks.join(SameGame::SEPARATOR), SAMPLE_OUT);
    // A stray blank line at the end stays in the last block, where `check` will see it.
    assert_eq!(
        SameGame::split_output("Grid 1.\n    5\n\n"),
        ["Grid 1.\n    5\n\n"]
    );
}

#[test]
fn sizes_and_lines_are_reported() {
    let parsed = SameGame::parse(SAMPLE_IN.as_bytes(), &crate::game::Reading::STATEMENT);
    let summary: Vec<(usize, &str)> = parsed.iter().map(|p| (p.line, p.size.as_str())).collect();
    // Grid 1 starts on line 1, grid 2 on line 12 (after the blank line 11), grid 3 on line 19.
    assert_eq!(summary, [(1, "3x5"), (12, "3x5"), (19, "4x3")]);
}

#[test]
fn a_bad_cell_spoils_only_its_grid() {
    // Grid 1 has `x` on line 2; grid 2 (1x2 `5 5`, `1 1` wins) is read normally.
    let input = b"1 2\n3 x\n1 1 0 0\n1 2\n5 5\n1 1 0 0\n0 0\n";
    let errs = errors(input);
    assert_eq!(errs.len(), 2);
    let first = errs[0].as_ref().expect("grid 1 is bad");
    assert_eq!(first.line, 2);
    assert!(first.message.contains("\"x\""), "{}", first.message);
    assert!(errs[1].is_none());
    // A value above 9 (line 3) and a non-UTF-8 token in a selection (line 4).
    let errs = errors(b"1 2\n\n3 10\n1 1 0 0\n1 2 5 5\n2 \xff\xfe 0 0\n1 1 1 1 1 0 0 0 0");
    assert_eq!(
        errs.iter()
            .map(|e| e.as_ref().map(|e| e.line))
            .collect::<Vec<_>>(),
        [Some(3), Some(6), None]
    );
}

#[test]
fn one_token_per_line_errors_name_the_token_line() {
    // Tokens: 1 2 5 5 1 1 0 0 / 1 2 5 -5 ... : `-5` is token 12, on line 12.
    let input = "1\n2\n5\n5\n1\n1\n0\n0\n1\n2\n5\n-5\n0\n0\n0\n0\n";
    let errs = errors(input.as_bytes());
    assert!(errs[0].is_none());
    assert_eq!(errs[1].as_ref().map(|e| e.line), Some(12));
    assert_eq!(errs.len(), 2);
}

#[test]
fn oversized_grids_are_skipped_by_counting() {
    // 11x1 exceeds 10 rows: its 11 values and pairs are skipped; the next grid is read.
    let input = "11 1 1 2 3 4 5 6 7 8 9 0 1 1 1 0 0\n1 1 4 0 0\n0 0";
    let parsed = SameGame::parse(input.as_bytes(), &crate::game::Reading::STATEMENT);
    assert_eq!(parsed.len(), 2);
    assert_eq!(parsed[0].size, "11x1");
    assert!(
        parsed[0]
            .case
            .as_ref()
            .unwrap_err()
            .message
            .contains("exceeds")
    );
    assert!(parsed[1].case.is_ok());
    // 1x41 exceeds 40 columns.
    assert!(errors(b"1 41 0 0").into_iter().next().unwrap().is_some());
}

#[test]
fn huge_numbers_never_overflow() {
    // A huge header: counting its cells runs into the end of the input: one error.
    let errs = errors(b"123456 99999999999999999999999 1 2 3\n0 0");
    assert_eq!(errs.len(), 1);
    assert!(
        errs[0]
            .as_ref()
            .unwrap()
            .message
            .contains("ends inside grid 1")
    );
    // Huge selections are only out of range.
    let (out, _) = run("1 2 6 6 4294967296 1 1 4294967295 0 0 0 0");
    assert_eq!(out, "Grid 1.\n    6 6\n");
}

#[test]
fn a_bad_header_makes_the_rest_one_error() {
    let input = "1 2 5 5 0 0\nfoo 2\n1 2 5 5 0 0\n0 0\n";
    let errs = errors(input.as_bytes());
    assert_eq!(errs.len(), 2);
    assert!(errs[0].is_none());
    let err = errs[1].as_ref().unwrap();
    assert_eq!(err.line, 2);
    assert!(err.message.contains("cannot be found"), "{}", err.message);
}

#[test]
fn truncated_input_is_an_error_and_a_missing_terminator_is_not() {
    // Ends inside the cells (line 2), inside the selections (line 3), after M.
    assert_eq!(
        errors(b"2 2\n1 2 3")
            .into_iter()
            .map(|e| e.map(|e| e.line))
            .collect::<Vec<_>>(),
        [Some(2)]
    );
    let errs = errors(b"1 2\n5 5\n1 1\n");
    assert!(errs[0].as_ref().unwrap().message.contains("`0 0`"));
    assert_eq!(errs[0].as_ref().unwrap().line, 3);
    assert!(errors(b"1 2 5 5 0 0 3")[1].is_some());
    // No terminating header: the grid is read; an empty input has no grid.
    assert_eq!(errors(b"1 2 5 5 1 1 0 0\n"), [None]);
    assert!(errors(b"").is_empty());
    assert!(errors(b" \n\t\r\n").is_empty());
    // Anything after the terminator is not read.
    assert_eq!(errors(b"1 1 5 0 0 0 7 junk"), [None]);
}

#[test]
fn terminator_is_a_header_with_one_zero() {
    // `0 5` and `5 0` both end the input.
    assert!(errors(b"0 5 1 1 3 0 0").is_empty());
    assert!(errors(b"5 0 1 1 3 0 0").is_empty());
}

#[test]
fn tokenizer_finds_tokens_and_lines() {
    let input = b"12\n\n 7\t+3 \r\n0099 1a\x0b\x0c\xff 4294967296 5";
    let mut tokens = parse::Tokens::new(input);
    let mut seen = Vec::new();
    while let Some(t) = tokens.next_token() {
        seen.push((t.token, t.offset));
    }
    use parse::Token::*;
    assert_eq!(
        seen,
        [
            (Number(12), 0),
            (Number(7), 5),
            (Bad(b"+3"), 7),
            (Number(99), 12),
            (Bad(b"1a"), 17),
            (Bad(b"\xff"), 21),
            (Number(u32::MAX), 23),
            (Number(5), 34)
        ]
    );
    assert_eq!(tokens.next_token(), None);
    assert_eq!(tokens.next_token(), None);
    assert_eq!(tokens.last_token_offset(), 34);
    let mut lines = parse::Lines::new(input);
    let found: Vec<usize> = seen
        .iter()
        .map(|&(_, offset)| lines.line_at(offset))
        .collect();
    assert_eq!(found, [1, 3, 3, 4, 4, 4, 4, 4]);
    // Asking out of order recounts from the start; past the end is the last line.
    assert_eq!(lines.line_at(0), 1);
    assert_eq!(lines.line_at(usize::MAX), 4);
}

#[test]
fn fast_paths_fall_back_without_consuming_a_token() {
    let input = b"  7 42 123 x9 5";
    let mut tokens = parse::Tokens::new(input);
    assert_eq!(tokens.next_digit(), Some(7));
    assert_eq!(tokens.next_digit(), None); // `42` has two digits
    assert_eq!(tokens.next_small(), Some(42));
    assert_eq!(tokens.next_small(), None); // `123` has three
    assert_eq!(
        tokens.next_token().map(|t| t.token),
        Some(parse::Token::Number(123))
    );
    assert_eq!(tokens.next_small(), None);
    assert_eq!(tokens.next_digit(), None);
    assert_eq!(
        tokens.next_token().map(|t| t.token),
        Some(parse::Token::Bad(b"x9"))
    );
    // The last token has no byte after it: the slow path reads it.
    assert_eq!(tokens.next_small(), None);
    assert_eq!(
        tokens.next_token().map(|t| (t.token, t.offset)),
        Some((parse::Token::Number(5), 14))
    );
    assert_eq!(tokens.next_token(), None);
}

/// A digit moved to another column moves only spaces, but spaces are empty cells: the check
/// names the first wrong cell (row 2 is the top row of a 2-row grid, columns from the left).
#[test]
fn a_moved_digit_is_a_wrong_cell_not_white_space() {
    let parsed = SameGame::parse(
        b"2 3\n1 2 3\n4 5 6\n0 0\n0 0\n",
        &crate::game::Reading::STATEMENT,
    );
    let game = parsed[0].case.as_ref().unwrap();
    let expected = "Grid 1.\n    4    \n    1 2 3\n";
    let actual = "Grid 1.\n      4  \n    1 2 3\n";
    let why = SameGame::check(game, expected, actual).unwrap_err();
    assert_eq!(
        why,
        "line 2, column 5: row 2, column 1 (from the lower left) expected 4, got empty: \
         expected \"    4    \", got \"      4  \""
    );
    // The bottom row, a digit changed: row 1, column 3.
    let actual = "Grid 1.\n    4    \n    1 2 7\n";
    let why = SameGame::check(game, expected, actual).unwrap_err();
    assert!(
        why.starts_with(
            "line 3, column 9: row 1, column 3 (from the lower left) expected 3, got 7"
        ),
        "{why}"
    );
    // Not a row (the header): the plain difference.
    let actual = "Grid 2.\n    4    \n    1 2 3\n";
    let why = SameGame::check(game, expected, actual).unwrap_err();
    assert_eq!(
        why,
        "line 1, column 6: expected \"Grid 1.\", got \"Grid 2.\""
    );
    assert_eq!(SameGame::check(game, expected, expected), Ok(()));
}
