//! SameGame's `--zero-pair ends-list`: the variant where any selection pair `0 c` ends a grid's
//! selection list (RULES.md, Checking an answer), on `solve`, `check`, `run`, `invoke`, `gen`,
//! `hunt` and `stress`.
//!
//! The hand input `tests/data/zero-pair/samegame/zero-pair.in` and both expected outputs were
//! worked out by hand, not with gamebench:
//!
//! ```text
//! 1 2 / 5 5 / 1 1 / 0 0        grid 1: 1x2, selecting (1,1) removes both 5s: Game Won
//! 2 2 / 1 1 / 2 3              grid 2: row 1 (bottom) = 1 1, row 2 = 2 3
//! 3 0 / 0 2 / 1 1 / 0 0        its selections
//! 0 0                          the terminating header
//! ```
//!
//! - Statement: `3 0` and `0 2` are ignored out-of-range cells; `1 1` removes the bottom row's
//!   two 1s, the 2 and the 3 fall: row 2 empty, row 1 `2 3`. Two grids.
//! - Ends-list: `3 0` is ignored (its row is not 0), `0 2` ends grid 2's list, so grid 2 is
//!   printed as given. Reading goes on at `1 1 0 0 0 0`: grid 3 is 1x1 holding 0, its list
//!   closed by `0 0`, then the header `0 0` ends the input. Three grids.

use std::path::Path;

use crate::common;
use common::{assert_exit, assert_exit_saying, root, s, text};

const INPUT: &str = "tests/data/zero-pair/samegame/zero-pair.in";
/// The statement's expected output (the `.out` beside the input).
const STATEMENT_OUT: &str = "Grid 1.\n    Game Won\n\nGrid 2.\n       \n    2 3\n";
/// The expected output when any `0 c` ends the list.
const ENDS_LIST_OUT: &str =
    "Grid 1.\n    Game Won\n\nGrid 2.\n    2 3\n    1 1\n\nGrid 3.\n    0\n";

use common::run_from_root as gamebench;

/// A program following the ends-list reading: gamebench's own solver told to read that way.
fn ends_list_program() -> String {
    format!(
        "p=cmd:{} solve samegame --zero-pair ends-list",
        env!("CARGO_BIN_EXE_gamebench")
    )
}

#[test]
fn the_expected_output_beside_the_input_is_the_hand_derived_one() {
    let beside = std::fs::read_to_string(root().join(INPUT).with_extension("out")).unwrap();
    assert_eq!(beside, STATEMENT_OUT);
}

#[test]
fn solve_reads_as_the_statement_by_default_and_as_told() {
    for (extra, expected) in [
        (&[][..], STATEMENT_OUT),
        (&["--zero-pair", "as-statement"][..], STATEMENT_OUT),
        (&["--zero-pair", "ends-list"][..], ENDS_LIST_OUT),
    ] {
        for engine in ["reference", "bitboard"] {
            let mut args = vec!["solve", "samegame", INPUT, "-e", engine];
            args.extend_from_slice(extra);
            let out = gamebench(&args);
            assert_exit(&out, 0);
            assert_eq!(text(&out.stdout), expected, "{engine} {extra:?}");
        }
    }
}

#[test]
fn a_game_without_the_variant_refuses_it() {
    let out = gamebench(&[
        "solve",
        "vexed",
        "corpora/vexed/sample.in",
        "--zero-pair",
        "ends-list",
    ]);
    assert_exit_saying(
        &out,
        2,
        "vexed has no variant `--zero-pair ends-list` (its variants: none)",
    );
    let out = gamebench(&["run", "corpora/vexed", "-q", "--zero-pair", "ends-list"]);
    assert_exit_saying(&out, 2, "--zero-pair ends-list: no game of the files");
}

/// Writes `content` to `dir/name` and returns its path.
fn write(dir: &Path, name: &str, content: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    s(&path).to_string()
}

#[test]
fn check_judges_under_the_chosen_reading() {
    let dir = tempfile::tempdir().unwrap();
    let ends_list = write(dir.path(), "ends.out", ENDS_LIST_OUT);
    let statement = write(dir.path(), "statement.out", STATEMENT_OUT);
    // The ends-list answer is wrong for the statement (grid 2 differs on its line 2).
    let out = gamebench(&["check", "samegame", INPUT, &ends_list]);
    assert_exit(&out, 1);
    assert!(
        text(&out.stdout).contains("case 2: wrong-answer: line 2, column"),
        "{}",
        text(&out.stdout)
    );
    let out = gamebench(&["check", "samegame", INPUT, &statement]);
    assert_exit(&out, 0);
    // Under the variant it is right, and the statement's answer is wrong (grid 3 missing).
    let variant = ["--zero-pair", "ends-list"];
    let out = gamebench(&[&["check", "samegame", INPUT, &ends_list][..], &variant].concat());
    assert_exit(&out, 0);
    assert!(text(&out.stdout).contains("3 passed, 0 failed"));
    let out = gamebench(&[&["check", "samegame", INPUT, &statement][..], &variant].concat());
    assert_exit(&out, 1);
    assert!(
        text(&out.stdout).contains("case 3: wrong-answer: the output has no block"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn run_checks_under_the_chosen_reading() {
    let (dir, folder) = common::game_folder("samegame");
    let input = std::fs::read(root().join(INPUT)).unwrap();
    std::fs::write(folder.join("z.in"), &input).unwrap();
    std::fs::write(folder.join("z.out"), ENDS_LIST_OUT).unwrap();
    let csv = dir.path().join("r.csv");
    let run = |extra: &[&str]| {
        let mut args = vec!["run", s(dir.path()), "--check", "-q", "--csv", s(&csv)];
        args.extend_from_slice(extra);
        let out = gamebench(&args);
        (out, common::column(&csv, "status"))
    };
    let (out, status) = run(&[]);
    assert_exit(&out, 1);
    assert_eq!(status, ["ok", "mismatch"]);
    let (out, status) = run(&["--zero-pair", "ends-list", "-e", "all"]);
    assert_exit(&out, 0);
    assert_eq!(status, ["ok"; 6]);
}

#[test]
fn invoke_judges_every_solution_under_the_chosen_reading() {
    let (_dir, folder) = common::game_folder("samegame");
    std::fs::copy(root().join(INPUT), folder.join("z.in")).unwrap();
    let program = ends_list_program();
    let args = [
        "invoke",
        s(&folder),
        "-e",
        "reference",
        "--expect",
        "reference=main",
        "-e",
        &program,
        "--expect",
        "p=accepted",
    ];
    let out = gamebench(&args);
    assert_exit(&out, 1);
    assert!(text(&out.stdout).contains("WA"), "{}", text(&out.stdout));
    let out = gamebench(&[&args[..], &["--zero-pair", "ends-list"]].concat());
    assert_exit(&out, 0);
    assert!(
        text(&out.stdout).contains("zero-pair.in#3") || text(&out.stdout).contains("z.in#3"),
        "three grids under the variant: {}",
        text(&out.stdout)
    );
}

#[test]
fn stress_finds_the_variant_only_without_the_option() {
    let dir = tempfile::tempdir().unwrap();
    let program = ends_list_program();
    let stress = |extra: &[&str]| {
        let mut args = vec![
            "stress",
            "samegame",
            "-e",
            "reference",
            "-e",
            &program,
            "-p",
            "random",
            "--cases",
            "200",
            "-o",
            s(dir.path()),
        ];
        args.extend_from_slice(extra);
        gamebench(&args)
    };
    // The generator writes ignored pairs `0 c`, which the program reads as the list's end.
    let out = stress(&[]);
    assert_exit(&out, 1);
    let shrunk = dir.path().join("samegame/stress-1-min.in");
    // The shrunk input still means two things: the two readings answer it differently (other
    // grids, or one that cannot be read: an error and a failing exit for the program).
    let as_statement = gamebench(&["solve", "samegame", s(&shrunk)]);
    let ends_list = gamebench(&["solve", "samegame", s(&shrunk), "--zero-pair", "ends-list"]);
    assert_exit(&as_statement, 0);
    assert!(
        as_statement.stdout != ends_list.stdout || !ends_list.status.success(),
        "{}",
        text(&ends_list.stdout)
    );
    for file in common::inputs(&dir.path().join("samegame")) {
        assert_exit(&gamebench(&["validate", "samegame", s(&file)]), 0);
    }
    // Read that way by both, no difference.
    let out = stress(&["--zero-pair", "ends-list"]);
    assert_exit(&out, 0);
    assert!(
        text(&out.stdout).contains("no difference in 200 case(s)"),
        "{}",
        text(&out.stdout)
    );
    // A game without the variant refuses it.
    let out = gamebench(&[
        "stress",
        "vexed",
        "-e",
        "reference",
        "-e",
        "bitset",
        "-p",
        "easy",
        "--zero-pair",
        "ends-list",
    ]);
    assert_exit_saying(&out, 2, "vexed has no variant");
}

/// `gen` and `hunt` write files that mean the same under both readings when told the
/// variant; without it `gen` writes `0 c` pairs, which the two readings answer differently.
#[test]
fn gen_and_hunt_write_files_both_readings_agree_on_under_the_variant() {
    let dir = tempfile::tempdir().unwrap();
    let answers = |file: &Path| {
        let statement = gamebench(&["solve", "samegame", s(file)]);
        let ends_list = gamebench(&["solve", "samegame", s(file), "--zero-pair", "ends-list"]);
        (statement.stdout, ends_list.stdout)
    };
    for (sub, extra) in [
        ("plain", &[][..]),
        ("variant", &["--zero-pair", "ends-list"][..]),
    ] {
        let out_dir = dir.path().join(sub);
        let mut args = vec!["gen", "samegame", "-n", "3", "-s", "5", "-o", s(&out_dir)];
        args.extend_from_slice(extra);
        assert_exit(&gamebench(&args), 0);
        let files = common::inputs(&out_dir);
        assert_eq!(files.len(), 3);
        let agreeing = files
            .iter()
            .filter(|f| {
                let (a, b) = answers(f);
                a == b
            })
            .count();
        if extra.is_empty() {
            assert!(agreeing < 3, "no `0 c` pair in the plain files");
        } else {
            assert_eq!(
                agreeing, 3,
                "a file of gen --zero-pair ends-list reads two ways"
            );
        }
    }
    let hunted = dir.path().join("hunt");
    let out = gamebench(&[
        "hunt",
        "samegame",
        "-e",
        "bitboard",
        "-p",
        "random",
        "--evaluations",
        "20",
        "--zero-pair",
        "ends-list",
        "-o",
        s(&hunted),
    ]);
    assert_exit(&out, 0);
    let files = common::inputs(&hunted);
    assert!(!files.is_empty(), "{}", text(&out.stdout));
    for file in files {
        let (a, b) = answers(&file);
        assert_eq!(a, b, "{} reads two ways", file.display());
    }
}

/// The expected output of the hand input when any pair with a zero ends the list
/// (`--zero-pair any-zero-ends-list`, worked out by hand): grid 1 as before; grid 2's list
/// ends at `3 0` (a zero column), so grid 2 is printed as given; reading goes on at `0 2`, a
/// header with a zero, which ends the input. Two grids.
const ANY_ZERO_OUT: &str = "Grid 1.\n    Game Won\n\nGrid 2.\n    2 3\n    1 1\n";

#[test]
fn any_pair_with_a_zero_ends_the_list_under_its_variant() {
    for engine in ["reference", "bitboard"] {
        let out = gamebench(&[
            "solve",
            "samegame",
            INPUT,
            "-e",
            engine,
            "--zero-pair",
            "any-zero-ends-list",
        ]);
        assert_exit(&out, 0);
        assert_eq!(text(&out.stdout), ANY_ZERO_OUT, "{engine}");
    }
    // A solution that ends its list on `r 0` too is accepted under that reading only.
    let dir = tempfile::tempdir().unwrap();
    let expected = write(dir.path(), "any.out", ANY_ZERO_OUT);
    let check = |extra: &[&str]| {
        let mut args = vec!["check", "samegame", INPUT, &expected];
        args.extend_from_slice(extra);
        gamebench(&args)
    };
    assert_exit(&check(&["--zero-pair", "any-zero-ends-list"]), 0);
    assert_ne!(check(&["--zero-pair", "ends-list"]).status.code(), Some(0));
}

#[test]
fn gen_under_any_zero_ends_list_writes_files_every_reading_agrees_on() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("any");
    let args = [
        "gen",
        "samegame",
        "-n",
        "3",
        "-s",
        "5",
        "-o",
        s(&out_dir),
        "--zero-pair",
        "any-zero-ends-list",
    ];
    assert_exit(&gamebench(&args), 0);
    let files = common::inputs(&out_dir);
    assert_eq!(files.len(), 3);
    for file in &files {
        let statement = gamebench(&["solve", "samegame", s(file)]).stdout;
        for reading in ["ends-list", "any-zero-ends-list"] {
            let other = gamebench(&["solve", "samegame", s(file), "--zero-pair", reading]).stdout;
            assert_eq!(statement, other, "{} under {reading}", file.display());
        }
    }
}

/// A `.out` written under another reading than the one the tests are read with is said up
/// front, naming that reading.
#[test]
fn invoke_says_up_front_which_reading_an_expected_output_was_written_under() {
    let (_dir, folder) = common::game_folder("samegame");
    std::fs::copy(root().join(INPUT), folder.join("z.in")).unwrap();
    std::fs::write(folder.join("z.out"), STATEMENT_OUT).unwrap();
    let out = gamebench(&[
        "invoke",
        s(&folder),
        "-e",
        "reference",
        "--zero-pair",
        "ends-list",
    ]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("z.out has 2 blocks for the 3 cases")
            && stderr.contains("written under the statement's reading"),
        "{stderr}"
    );
    // Under the reading it was written under, nothing is said.
    let out = gamebench(&["invoke", s(&folder), "-e", "reference"]);
    assert_exit(&out, 0);
    assert!(
        !text(&out.stderr).contains("warning"),
        "{}",
        text(&out.stderr)
    );
}
