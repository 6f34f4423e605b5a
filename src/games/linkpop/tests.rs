//! Rule tests for Link and Pop. Every expected board below is derived by hand in the comments
//! (or copied from the statement); none is produced by the code under test. Each hand-built
//! board fails one wrong reading of the rules that both samples let through.

use super::*;
use crate::game::{Budget, Outcome};
use gamebench_generators::{Dice, file_rng};

/// Solves `input` (a whole judge file) with every engine and checks each output against
/// `expected`, byte for byte.
fn assert_file(input: &str, expected: &str) {
    let parsed = LinkPop::parse(input.as_bytes(), &crate::game::Reading::STATEMENT);
    for engine in LinkPop::ENGINES {
        let mut output = String::new();
        for (k, case) in parsed.iter().enumerate() {
            let board = case.case.as_ref().expect("test input parses");
            let outcome = (engine.solve)(board, &Budget::UNLIMITED).expect("solves");
            output.push_str(&LinkPop::format_case(k + 1, board, &outcome));
        }
        assert_eq!(output, expected, "engine {}", engine.name);
    }
}

/// Solves one board given as rows of tokens with every engine; returns nothing but asserts
/// the drawing equals `expected` (rows joined by newlines).
fn assert_board(rows: &[&str], expected: &[&str]) {
    let board = Board::from_rows(rows).expect("test board is well formed");
    let want: String = expected.iter().map(|r| format!("{r}\n")).collect();
    for engine in LinkPop::ENGINES {
        let outcome = (engine.solve)(&board, &Budget::UNLIMITED).expect("solves");
        assert_eq!(
            outcome.answer.draw(),
            want,
            "engine {} on {rows:?}",
            engine.name
        );
    }
}

#[test]
fn statement_sample_byte_exact() {
    assert_file(
        include_str!("../../../corpora/linkpop/linkpop-sample.in"),
        include_str!("../../../corpora/linkpop/linkpop-sample.out"),
    );
}

#[test]
fn japanese_extra_test_byte_exact() {
    // Case 1 links B..B through the ring above the board; case 2 is traced in the README.
    assert_file(
        include_str!("../../../corpora/linkpop/linkpop-extra.in"),
        include_str!("../../../corpora/linkpop/linkpop-extra.out"),
    );
}

#[test]
fn hand_built_rule_corpus_byte_exact() {
    // `corpora/linkpop/rules.*` holds the boards of the tests below as one judge file, with
    // the expected boards derived by hand in those tests' comments.
    assert_file(
        include_str!("../../../corpora/linkpop/rules.in"),
        include_str!("../../../corpora/linkpop/rules.out"),
    );
}

#[test]
fn moved_right_block_is_not_checked_again() {
    // C R, A S, A S, D L. The A pair (adjacent) pops: C . . D.
    // Turn 1: C moves to cell 1 and is not checked again there; cell 2 is empty; D (cell 3)
    // moves left into cell 2. Turn 2: C's right is D, D's left is C: nothing moves.
    // Re-checking C at cell 1 would carry it on to cell 2 and leave D at cell 3 (..CD).
    assert_board(&["CR AS AS DL"], &[".CD."]);
}

#[test]
fn moved_down_block_is_not_checked_again() {
    // Column C D / A S / A S / D U: the A pair pops. Turn 1: C moves down to row 1 (not
    // checked again in row 1); row 2 is empty; D (row 3) moves up into row 2. Turn 2: C's
    // cell below is D, D's cell above is C. Re-checking would give . . C D.
    assert_board(&["CD", "AS", "AS", "DU"], &[".", "C", "D", "."]);
}

#[test]
fn moves_happen_immediately_not_from_a_snapshot() {
    // C S  Q D  D S
    // P S  X L  Y L
    // P S  E S  F S      P (1,0)-(2,0) is the only pair (adjacent) and pops.
    // Turn 1: row 0: Q (down) sees X below: stays. Row 1: X moves left into (1,0); Y then
    // sees (1,1) empty at once and moves into it. Turn 2: Q sees Y below; X is at the edge;
    // Y sees X. Final: CQD / XY. / .EF.
    // Deciding turn 1 from a snapshot leaves Y at (1,2); in turn 2 Q (checked first) then
    // drops into (1,1), which is a different board whatever happens to Y.
    assert_board(
        &["CS QD DS", "PS XL YL", "PS ES FS"],
        &["CQD", "XY.", ".EF"],
    );
}

#[test]
fn fewer_segments_beat_an_earlier_position() {
    // A S  B S  A S
    // C S  D S  A S
    // (0,0)-(0,2) links with 3 segments through the ring above; (0,2)-(1,2) is adjacent: 1
    // segment, so it pops although (0,0) comes first. (0,0)-(1,2) needs 4 segments. Final:
    // AB. / CD. Position first would pop (0,0)-(0,2): .B. / CDA.
    assert_board(&["AS BS AS", "CS DS AS"], &["AB.", "CD."]);
}

#[test]
fn first_block_then_second_block_break_ties() {
    // A A A in a row: (0,0)-(0,1) and (0,1)-(0,2) are 1-segment pairs; (0,0)-(0,2) is not
    // (a block between). The smallest first block wins: ..A.
    assert_board(&["AS AS AS"], &["..A"]);
    // A A / A B: (0,0)-(0,1) and (0,0)-(1,0) share the first block; the second decides:
    // (0,1) comes before (1,0). Final .. / AB.
    assert_board(&["AS AS", "AS BS"], &["..", "AB"]);
}

#[test]
fn ring_above_the_board_links() {
    // A..A in row 0 with B between: up, across the ring, down: 3 segments.
    assert_board(&["AS BS AS", "CS DS ES"], &[".B.", "CDE"]);
}

#[test]
fn ring_below_the_board_links() {
    assert_board(&["CS DS ES", "AS BS AS"], &["CDE", ".B."]);
}

#[test]
fn ring_left_of_the_board_links() {
    // Column 0 holds A B A: left, down the ring, right.
    assert_board(&["AS CS", "BS DS", "AS ES"], &[".C", "BD", ".E"]);
}

#[test]
fn ring_right_of_the_board_links() {
    assert_board(&["CS AS", "DS BS", "ES AS"], &["C.", "DB", "E."]);
}

#[test]
fn paths_never_pass_through_blocks() {
    // The A pair in the middle row has B between them, and every way round the ring needs
    // five segments (left, down/up, across, back, in): no pair links, nothing changes.
    assert_board(
        &["CS DS ES", "AS BS AS", "FS GS HS"],
        &["CDE", "ABA", "FGH"],
    );
    // A S  B S  B S  A S  C L: a line stops at the first block, so the As (3 segments round
    // the ring) wait for the B pair (adjacent, 1 segment); then the As link in one segment
    // through the emptied cells, and C slides left one cell per turn to the edge: C....
    assert_board(&["AS BS BS AS CL"], &["C...."]);
}

#[test]
fn one_by_one_board_is_left_alone() {
    assert_board(&["AS"], &["A"]);
    assert_board(&["AL"], &["A"]);
}

#[test]
fn one_row_uses_the_ring_and_turns_repeat() {
    // A B A B C(L): no 1- or 2-segment pair (one row); (0,0)-(0,2) links through the ring
    // (3 segments) and comes first: . B . B C. C's left is B: stays. Now B (0,1)-(0,3) links
    // in one segment: . . . . C. C moves left one cell per turn until the edge: C....
    assert_board(&["AS BS AS BS CL"], &["C...."]);
}

#[test]
fn one_column_with_an_odd_count() {
    // Column A B A B A (three As): no 1-segment pair; (0)-(2) and (0)-(4) both link through
    // the left ring with 3 segments, and (0)-(2) has the smaller second block. Then the Bs
    // link in one segment through the emptied row 2, leaving the last A: ....A.
    // Choosing (0)-(4) instead would leave . B A B . and then pop the Bs round the ring.
    assert_board(&["AS", "BS", "AS", "BS", "AS"], &[".", ".", ".", ".", "A"]);
}

#[test]
fn two_segment_links_turn_once() {
    // A S  B S
    // C S  A S    A(0,0)-A(1,1): both corners (0,1)=B and (1,0)=C are blocks, so no 2
    // segments; round the ring: up, right, down to (1,2), left into A = 4. Unchanged.
    assert_board(&["AS BS", "CS AS"], &["AB", "CA"]);
    // B B A / C D A / A E F -> B pair (1 segment) pops first: . . A / C D A / A E F. Now the
    // As (0,2)-(1,2) are adjacent (1 segment): . . . / C D . / A E F. The last A is alone.
    assert_board(
        &["BS BS AS", "CS DS AS", "AS ES FS"],
        &["...", "CD.", "AEF"],
    );
    // A S  B S  C S
    // D S  E S  A S   nothing at 1 segment; A(0,0)-A(1,2): corner
    // (0,2)=C and (1,0)=D are blocks; around the ring: up, right to column 3, down to row 1,
    // left into (1,2): 4 segments. No link: unchanged.
    assert_board(&["AS BS CS", "DS ES AS"], &["ABC", "DEA"]);
    // X S X S A S / Y S Y S A S / A S Z S Z S: 1 segment: X (0,0)-(0,1) first -> . . A / Y Y A / A Z Z. Next 1-segment pairs in order:
    // (0,2)-(1,2) A adjacent -> . . . / Y Y . / A Z Z; then Y (1,0)-(1,1) -> . . . / . . . /
    // A Z Z; then Z (2,1)-(2,2) -> ... / ... / A.. .
    assert_board(
        &["XS XS AS", "YS YS AS", "AS ZS ZS"],
        &["...", "...", "A.."],
    );
    // A 2-segment link: A S  X S  X S / Y S  Y S  B S / B S  Z S  A S.
    // 1 segment in order: X (0,1)-(0,2) -> A . . / Y Y B / B Z A. Then Y (1,0)-(1,1) ->
    // A . . / . . B / B Z A. 1-segment pairs now: A(0,0): right none, below (2,0) B: no.
    // B(1,2): below A: no. B(2,0): right Z. None. 2 segments: A(0,0) -> right along row 0 to
    // (0,2), down column 2: (1,2) is B, not A; down column 1 from (0,1): (1,1) empty, (2,1)
    // Z. Down from A: (1,0) empty, then right along row 1: (1,1) empty, (1,2) B. No A.
    // B(1,2): left along row 1 to (1,0), down column 0 from (1,0)... (2,0) is B: 2 segments
    // (left, down) -> pair (1,2)-(2,0) pops: A . . / . . . / . Z A. Then A(0,0)-(2,2):
    // right to (0,2), down to (1,2), (2,2) is A: 2 segments -> ... / ... / .Z. .
    assert_board(
        &["AS XS XS", "YS YS BS", "BS ZS AS"],
        &["...", "...", ".Z."],
    );
}

#[test]
fn parser_reads_sizes_and_stops_at_zero_zero() {
    let parsed = LinkPop::parse(
        b"2 3\nAS BD CL\nDR EU FS\n0 0\n1 1\nAS\n",
        &crate::game::Reading::STATEMENT,
    );
    assert_eq!(parsed.len(), 1);
    assert_eq!(parsed[0].size, "2x3");
    assert_eq!(parsed[0].line, 1);
    let board = parsed[0].case.as_ref().unwrap();
    assert_eq!(
        board.get(1, 0),
        Some(Block {
            symbol: b'D',
            attr: Attr::Right
        })
    );
    // End of file without `0 0` is fine too, and so are CRLF and extra spaces.
    let parsed = LinkPop::parse(b"1 2\r\n  AS\tBS \r\n", &crate::game::Reading::STATEMENT);
    assert_eq!(parsed.len(), 1);
    assert!(parsed[0].case.is_ok());
}

#[test]
fn parser_names_lines_and_resynchronises() {
    let input =
        b"2 2\nAS BS\nAS\n1 1\nQS\n3 1\nAS\nZZ\nBS\n1 2\nAS BS\n31 2\nAS BS\n1 1\nCS\n0 0\n";
    let parsed = LinkPop::parse(input, &crate::game::Reading::STATEMENT);
    let summary: Vec<Result<String, usize>> = parsed
        .iter()
        .map(|p| p.case.as_ref().map(|b| b.draw()).map_err(|e| e.line))
        .collect();
    assert_eq!(
        summary,
        vec![
            Err(3),                 // row 2 of case 1 has one block
            Ok("Q\n".to_string()),  // resynchronised on `1 1`
            Err(8),                 // ZZ is not a block
            Ok("AB\n".to_string()), // resynchronised on `1 2` after skipping `BS`
            Err(12),                // 31 rows is too many
            Ok("C\n".to_string()),
        ]
    );
    // A truncated case names the line after the last one.
    let parsed = LinkPop::parse(b"3 1\nAS\nBS\n", &crate::game::Reading::STATEMENT);
    assert_eq!(parsed[0].case.as_ref().unwrap_err().line, 4);
    // A bad row that is itself a header starts the next case.
    let parsed = LinkPop::parse(b"2 1\nAS\n1 1\nBS\n0 0\n", &crate::game::Reading::STATEMENT);
    assert_eq!(parsed.len(), 2);
    assert!(parsed[0].case.is_err());
    assert_eq!(parsed[1].case.as_ref().unwrap().draw(), "B\n");
}

#[test]
fn parser_never_panics_on_garbage() {
    let inputs: [&[u8]; 8] = [
        b"",
        b"0 0",
        b"\xff\xfe\n1 1\nAS\n",
        b"99999999999999999999999 1\nAS\n",
        b"1 1\n\xc3\x28\n",
        b"-1 2\n",
        b"1\n",
        b"1 1 1\nAS\n",
    ];
    for input in inputs {
        for p in LinkPop::parse(input, &crate::game::Reading::STATEMENT) {
            if let Err(e) = &p.case {
                assert!(e.line >= 1);
            }
        }
    }
    let mut dice = Dice::new(file_rng("linkpop", "garbage", 1, 0));
    let alphabet = b"0123 \n\nASUDLRSZ9x\r";
    for _ in 0..2000 {
        let len = dice.range_usize(0, 60);
        let bytes: Vec<u8> = (0..len).map(|_| *dice.pick(alphabet)).collect();
        let _ = LinkPop::parse(&bytes, &crate::game::Reading::STATEMENT);
    }
}

#[test]
fn split_output_inverts_format() {
    let text = include_str!("../../../corpora/linkpop/linkpop-extra.out");
    let blocks = LinkPop::split_output(text);
    assert_eq!(blocks, vec!["Case 1\nA..\n", "Case 2\n...\nF..\n...\n"]);
    assert_eq!(blocks.concat(), text);
}

/// A random board: `rows x cols`, `symbols` letters, attributes drawn with `weights`
/// (U, D, L, R, S).
fn random_board(
    dice: &mut Dice,
    rows: usize,
    cols: usize,
    symbols: usize,
    weights: &[u64; 5],
) -> Board {
    const ATTRS: [Attr; 5] = [Attr::Up, Attr::Down, Attr::Left, Attr::Right, Attr::Still];
    let cells = (0..rows * cols)
        .map(|_| {
            let symbol = b'A' + dice.below(symbols as u64) as u8;
            Some(Block {
                symbol,
                attr: ATTRS[dice.weighted(weights)],
            })
        })
        .collect();
    Board { rows, cols, cells }
}

fn engines_agree_on(board: &Board) -> Outcome<Board> {
    let reference = reference::solve(board, &Budget::UNLIMITED).unwrap();
    let fast = bitboard_engine::solve(board, &Budget::UNLIMITED).unwrap();
    assert_eq!(
        fast.answer.draw(),
        reference.answer.draw(),
        "boards differ on {board:?}"
    );
    assert_eq!(fast.work, reference.work, "pop counts differ on {board:?}");
    reference
}

/// Attribute mixes: all still, uniform, few still, one direction heavy.
const WEIGHT_MIXES: [[u64; 5]; 5] = [
    [0, 0, 0, 0, 1],
    [1, 1, 1, 1, 1],
    [1, 1, 1, 1, 0],
    [4, 1, 1, 1, 1],
    [1, 1, 1, 4, 2],
];

#[test]
fn engines_agree_on_random_small_boards() {
    let mut dice = Dice::new(file_rng("linkpop", "agree", 2026, 0));
    let mut pops = 0;
    for _ in 0..2500 {
        let rows = dice.range_usize(1, 12);
        let cols = dice.range_usize(1, 12);
        let symbols = dice.range_usize(1, 12);
        let weights = *dice.pick(&WEIGHT_MIXES);
        pops += engines_agree_on(&random_board(&mut dice, rows, cols, symbols, &weights)).work;
    }
    assert!(pops > 10_000, "the boards exercise the game ({pops} pops)");
}

#[test]
#[ignore = "stress: many 30x30 boards through the slow reference engine"]
fn engines_agree_on_many_30x30_boards() {
    let mut dice = Dice::new(file_rng("linkpop", "stress", 2026, 0));
    for _ in 0..100 {
        let symbols = dice.range_usize(1, 26);
        let weights = *dice.pick(&WEIGHT_MIXES);
        engines_agree_on(&random_board(&mut dice, 30, 30, symbols, &weights));
    }
}
