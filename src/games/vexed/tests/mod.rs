//! Vexed tests: parsing, the sample, hand-derived trap puzzles and the solution's layout here;
//! the checker in `checker.rs`; the engines' agreement and budgets in `search.rs`; the proof mode (`--max-moves`) in `proof.rs`; the level-pack report in `levels.rs`.

mod checker;
mod proof;
mod search;
mod stores;
mod sweep;

use super::grid::Grid;
use super::*;
use crate::game::{Budget, Rules, Verdict};
use proptest::prelude::*;

/// A random board for the property tests (`search`, `proof`): cells drawn from the weights,
/// then settled so it is stable.
fn random_grid() -> impl Strategy<Value = Grid> {
    (2usize..=6, 3usize..=7).prop_flat_map(|(rows, cols)| {
        let cell = prop_oneof![5 => Just(b'-'), 2 => Just(b'#'), 1 => Just(b'A'), 1 => Just(b'B'), 1 => Just(b'C')];
        proptest::collection::vec(cell, rows * cols).prop_map(move |cells| {
            let mut grid = Grid::new(rows, cols, cells);
            grid.settle();
            grid
        })
    })
}

/// The bundled hard and mixed sets, input and expected output (written by the reference
/// engine, a breadth-first search).
const BUNDLED_SETS: [(&str, &str); 2] = [
    (
        include_str!("../../../../corpora/vexed/hard/vexed-hard-1-0.in"),
        include_str!("../../../../corpora/vexed/hard/vexed-hard-1-0.out"),
    ),
    (
        include_str!("../../../../corpora/vexed/mixed/vexed-throughput-1-0.in"),
        include_str!("../../../../corpora/vexed/mixed/vexed-throughput-1-0.out"),
    ),
];
const SAMPLE_IN: &str = include_str!("../../../../corpora/vexed/sample.in");
const SAMPLE_OUT: &str = include_str!("../../../../corpora/vexed/sample.out");
const TRAPS_IN: &str = include_str!("../../../../corpora/vexed/traps.in");
const TRAPS_OUT: &str = include_str!("../../../../corpora/vexed/traps.out");
/// Unsolvable puzzles stay out of the corpora (`run --check` exits non-zero on `unsolved`).
/// TRAP-LONELY and "Two  words  here" have a letter with one block; TRAP-WALLED has no legal
/// move at all. The name keeps its inner spaces and loses the trailing ones.
const UNSOLVABLE_IN: &str = "2 5 TRAP-LONELY\n#A--#\n#####\n2 5 TRAP-WALLED\n#A#A#\n#####\n\
                             3 7 Two  words  here  \n#-----#\n#B-A-B#\n#######\n0 0 END\n";
const UNSOLVABLE_OUT: &str =
    "TRAP-LONELY: No solution\nTRAP-WALLED: No solution\nTwo  words  here: No solution\n";

fn puzzles(text: &str) -> Vec<Puzzle> {
    Vexed::parse(text.as_bytes(), &crate::game::Reading::STATEMENT)
        .into_iter()
        .map(|p| p.case.expect("valid case"))
        .collect()
}

/// The whole judge output of `engine` on `input`.
fn solve_all(engine: &str, input: &str) -> String {
    let engine = Vexed::ENGINES.iter().find(|e| e.name == engine).unwrap();
    puzzles(input)
        .iter()
        .enumerate()
        .map(|(i, p)| Vexed::format_case(i + 1, p, &(engine.solve)(p, &Budget::UNLIMITED).unwrap()))
        .collect()
}

/// Checks every block of `output` against `expected` with the replaying checker.
fn check_all(input: &str, expected: &str, output: &str) {
    let cases = puzzles(input);
    let actual = Vexed::split_output(output);
    let wanted = Vexed::split_output(expected);
    assert_eq!(actual.len(), cases.len());
    for ((case, a), e) in cases.iter().zip(&actual).zip(&wanted) {
        if let Err(error) = Vexed::check(case, e, a) {
            panic!("{}: {error}\n{a}", case.name);
        }
    }
}

#[test]
fn parses_names_sizes_and_the_end_marker() {
    let parsed = Vexed::parse(SAMPLE_IN.as_bytes(), &crate::game::Reading::STATEMENT);
    assert_eq!(parsed.len(), 2);
    assert_eq!(
        (parsed[0].label.as_str(), parsed[0].size.as_str()),
        ("SAMPLE-01", "4x5")
    );
    assert_eq!((parsed[1].line, parsed[1].size.as_str()), (6, "6x7"));
    let traps = puzzles(UNSOLVABLE_IN);
    assert_eq!(traps.last().unwrap().name, "Two  words  here");
    // Any zero in the header ends the input; CRLF is accepted.
    assert_eq!(
        Vexed::parse(
            b"1 2 A\r\nAB\r\n3 0 STOP\n1 2 B\nAB\n",
            &crate::game::Reading::STATEMENT
        )
        .len(),
        1
    );
}

#[test]
fn large_boards_up_to_128_cells_parse() {
    let mut text = String::from("7 12 WIDE\n");
    for _ in 0..7 {
        text.push_str("#----------#\n");
    }
    text.push_str("10 13 BIG\n");
    for _ in 0..10 {
        text.push_str("#############\n");
    }
    text.push_str("0 0 END\n");
    let parsed = Vexed::parse(text.as_bytes(), &crate::game::Reading::STATEMENT);
    assert!(parsed[0].case.is_ok());
    assert_eq!(parsed[1].case.as_ref().unwrap_err().line, 9); // 130 cells
}

#[test]
fn bad_input_is_reported_by_line_and_skipped() {
    let text = b"2 3 BAD\n#x#\n###\nfoo\n1 2 OK\nAA\n99999999999999999999 1 HUGE\n2 2 SHORT\n##\n";
    let parsed = Vexed::parse(text, &crate::game::Reading::STATEMENT);
    assert_eq!(parsed.len(), 4);
    assert_eq!(parsed[0].case.as_ref().unwrap_err().line, 2);
    assert!(parsed[1].case.is_ok());
    assert_eq!(parsed[2].case.as_ref().unwrap_err().line, 7);
    assert_eq!(parsed[3].case.as_ref().unwrap_err().line, 10);
    let too_big = Vexed::parse(b"12 11 X\n", &crate::game::Reading::STATEMENT);
    assert!(
        too_big[0]
            .case
            .as_ref()
            .unwrap_err()
            .message
            .contains("128")
    );
    for bytes in [
        &b"\xff\xfe 3"[..],
        b"3",
        b"3 3",
        b"-1 2 X\n",
        b"2 2\n",
        b"1 1 \xff\nA\n",
    ] {
        let _ = Vexed::parse(bytes, &crate::game::Reading::STATEMENT);
    }
}

#[test]
fn reference_reproduces_the_sample_byte_for_byte() {
    assert_eq!(solve_all("reference", SAMPLE_IN), SAMPLE_OUT);
}

#[test]
fn bitset_solves_the_sample_minimally() {
    check_all(SAMPLE_IN, SAMPLE_OUT, &solve_all("bitset", SAMPLE_IN));
}

#[test]
fn reference_solves_the_traps_as_derived_by_hand() {
    // Derivations (rows from 0 at the top):
    // - TRAP-ROW0: A(0,1) R lands on the wall at (1,2) in row 0, beside A(0,3): K = 1.
    // - TRAP-FALL: A(0,1) R falls past (1,2), beside A(1,3), to (2,2) without matching; A(1,3)
    //   L then rests on it and both go. No single move clears: K = 2; breadth-first order
    //   expands the board after A(0,1) R first.
    // - TRAP-STACK: B(1,2) R reaches B(1,4); the A it carried falls to (1,2), beside A(1,1);
    //   all four go at once: K = 1 (the moves of A(0,2), A(1,1) come first and fail).
    // - TRAP-LEDGE: A(0,1) R falls off the ledge to (2,2), beside A(2,3): K = 1.
    // - TRAP-CHAIN: A(3,2) R meets A(3,4); B and C above fall one row and meet B(3,1), C(2,1):
    //   K = 1, and it is the first move that clears in row-major order.
    // - TRAP-EMPTY: no blocks, K = 0, header only.
    assert_eq!(solve_all("reference", TRAPS_IN), TRAPS_OUT);
}

#[test]
fn both_engines_prove_the_unsolvable_traps() {
    assert_eq!(solve_all("reference", UNSOLVABLE_IN), UNSOLVABLE_OUT);
    assert_eq!(solve_all("bitset", UNSOLVABLE_IN), UNSOLVABLE_OUT);
}

#[test]
fn bitset_solves_the_traps() {
    let output = solve_all("bitset", TRAPS_IN);
    check_all(TRAPS_IN, TRAPS_OUT, &output);
    assert!(output.ends_with("TRAP-EMPTY: Minimum solution length = 0\n"));
}

#[test]
fn budgets_stop_both_engines() {
    let sample = &puzzles(SAMPLE_IN)[1];
    let budget = Budget {
        max_states: Some(3),
        time_limit: None,
        memory: None,
        threads: 1,
        max_moves: None,
        stop: None,
        scratch: None,
    };
    for engine in Vexed::ENGINES {
        let outcome = (engine.solve)(sample, &budget).unwrap();
        assert_eq!(outcome.verdict, Verdict::Budget, "{}", engine.name);
        assert_eq!(
            Vexed::format_case(2, sample, &outcome),
            "SAMPLE-02: Search budget exhausted\n"
        );
    }
}

/// A set stop flag ends a search at the meter's next look, as a deadline would: `budget`, with
/// the states expanded until then.
#[test]
fn a_stop_flag_ends_the_search_as_a_deadline_would() {
    let stopped = Budget {
        stop: Some(crate::game::Stop(std::sync::Arc::new(
            std::sync::atomic::AtomicBool::new(true),
        ))),
        ..Budget::UNLIMITED
    };
    // The bundled hard puzzle on which the reference search expands the most boards.
    let (free, hard) = puzzles(BUNDLED_SETS[0].0)
        .into_iter()
        .map(|p| (reference::solve(&p, &Budget::UNLIMITED).unwrap().work, p))
        .max_by_key(|(work, _)| *work)
        .unwrap();
    assert!(free > 2 * 1024, "{free} states");
    let outcome = reference::solve(&hard, &stopped).unwrap();
    assert_eq!(outcome.verdict, Verdict::Budget);
    assert_eq!(outcome.work, 1024);
    assert!(outcome.answer.is_none());
}
/// The solution text is the moves' `Display` joined by single spaces, four to a line, after
/// the header `NAME: Minimum solution length = K` (the spec's layout), for every length up to
/// three lines and rows and columns of one to three digits.
#[test]
fn a_solution_is_formatted_as_the_moves_display() {
    use crate::games::vexed::grid::{Dir, Move};
    let mut rng = crate::games::vexed::test_rng::Rng(0x0f0e_a7ed);
    for len in 0..=3 * MOVES_PER_LINE {
        let moves: Vec<Move> = (0..len)
            .map(|_| Move {
                letter: b'A' + rng.below(26) as u8,
                row: [0, 9, 10, 99, 127][rng.below(5)],
                col: rng.below(128),
                dir: if rng.below(2) == 0 {
                    Dir::Left
                } else {
                    Dir::Right
                },
            })
            .collect();
        let mut expected = format!("Level 7: Minimum solution length = {len}\n");
        for line in moves.chunks(MOVES_PER_LINE) {
            let shown: Vec<String> = line.iter().map(Move::to_string).collect();
            expected.push_str(&shown.join(" "));
            expected.push('\n');
        }
        assert_eq!(format_solution("Level 7", &moves), expected);
    }
}

/// Boards given unsettled (floating blocks, touching pairs, letters that settling removes
/// entirely): `bitset` settles them on its bit planes, the reference settles the grid
/// (`Puzzle::start`); they agree on the verdict and K, and `bitset`'s moves pass the checker,
/// which replays them from the settled grid. The first board is built by hand: rows `-B---`
/// and `AA-B-` (no walls): the two `A`s touch on the bottom row and go, which removes the
/// letter; the `B` they held falls to (1,1), one cell from the other `B` at (1,3); one push
/// (either `B` towards the other) clears the board, so K = 1.
#[test]
fn bitset_settles_unsettled_boards_like_the_reference() {
    use crate::games::vexed::test_rng::Rng;
    const BOARDS: usize = 300;
    let by_hand = Puzzle {
        name: "U".to_string(),
        grid: Grid::new(2, 5, b"-B---AA-B-".to_vec()),
    };
    for engine in [reference::solve, bitset::solve] {
        let outcome = engine(&by_hand, &Budget::UNLIMITED).unwrap();
        assert_eq!(Vexed::score(&outcome.answer), Some(1));
    }
    let mut rng = Rng(0x5e77_1ed0);
    let (mut compared, mut unsettled) = (0, 0);
    for i in 0..BOARDS {
        let (rows, cols) = (2 + rng.below(4), 3 + rng.below(4));
        let cells = (0..rows * cols)
            .map(|_| rng.pick(&[(b'-', 5), (b'#', 2), (b'A', 1), (b'B', 1), (b'C', 1)]))
            .collect();
        let puzzle = Puzzle {
            name: format!("U{i}"),
            grid: Grid::new(rows, cols, cells),
        };
        unsettled += usize::from(puzzle.start() != puzzle.grid);
        let slow = reference::solve(&puzzle, &Budget::UNLIMITED).unwrap();
        let fast = bitset::solve(&puzzle, &Budget::UNLIMITED).unwrap();
        let drawn = puzzle.grid.draw();
        assert_eq!(slow.verdict, fast.verdict, "{drawn}");
        assert_eq!(
            Vexed::score(&slow.answer),
            Vexed::score(&fast.answer),
            "{drawn}"
        );
        if let Some(moves) = &fast.answer {
            let out = format_solution(&puzzle.name, moves);
            assert_eq!(check_output(&puzzle, &out, None), Ok(()), "{drawn}");
        }
        compared += 1;
    }
    assert!(
        compared == BOARDS && unsettled > BOARDS / 2,
        "{unsettled} unsettled"
    );
}

/// A meter with a deadline affords a pause only if it ends before the deadline; without a
/// time limit, any pause.
#[test]
fn a_meter_affords_a_pause_only_before_its_deadline() {
    use std::time::{Duration, Instant};
    let unlimited = Meter::new(&Budget::UNLIMITED);
    assert!(unlimited.affords(Instant::now(), Duration::from_secs(1 << 20)));
    let budget = Budget {
        max_states: None,
        time_limit: Some(Duration::from_secs(60)),
        memory: None,
        threads: 1,
        max_moves: None,
        stop: None,
        scratch: None,
    };
    let meter = Meter::new(&budget);
    let now = Instant::now();
    assert!(meter.affords(now, Duration::from_secs(1)));
    assert!(!meter.affords(now, Duration::from_secs(61)));
    assert!(!meter.affords(now + Duration::from_secs(60), Duration::ZERO));
}

#[test]
fn each_puzzle_alone_is_an_input_whose_output_is_its_block() {
    // The expected outputs come from the files (the statement's sample and the hand-derived
    // traps); each puzzle written alone must parse back to itself and give its own block.
    for (input, expected) in [(SAMPLE_IN, SAMPLE_OUT), (TRAPS_IN, TRAPS_OUT)] {
        let blocks = Vexed::split_output(expected);
        let all = puzzles(input);
        assert_eq!(all.len(), blocks.len());
        for (puzzle, block) in all.iter().zip(&blocks) {
            let alone = Vexed::case_input(puzzle).unwrap();
            // A complete judge input: the `0 0 END` line included.
            assert!(Vexed::validate(alone.as_bytes()).is_valid(), "{alone}");
            assert_eq!(puzzles(&alone), std::slice::from_ref(puzzle), "{alone}");
            check_all(&alone, block, &solve_all("reference", &alone));
        }
    }
}
