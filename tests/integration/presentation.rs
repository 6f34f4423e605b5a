//! Differences in white space: named as such, invisible characters escaped (`check`, `run`,
//! `stress`), and forgiven with `--presentation accept`. Expected outputs are the bundled
//! corpora's `.out` files; the damaged outputs are made here by hand (a newline removed, a
//! space added), so the message each must give is known without the code under test.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common;
use common::{assert_exit, root, s};

use common::run_from_root as gamebench;

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `path` (relative to the repository) with `damage` applied, written into `dir`.
fn damaged(dir: &Path, path: &str, damage: impl Fn(&str) -> String) -> PathBuf {
    let text = std::fs::read_to_string(root().join(path)).unwrap();
    let out = dir.join("damaged.out");
    std::fs::write(&out, damage(&text)).unwrap();
    out
}

fn check(game: &str, input: &str, output: &Path, expected: &str, extra: &[&str]) -> Output {
    let mut args = vec!["check", game, input, s(output), "--expected", expected];
    args.extend_from_slice(extra);
    gamebench(&args)
}

#[test]
fn yut_without_its_final_newline_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let expected = "corpora/yut/yut-sample1.out";
    let lines = std::fs::read_to_string(root().join(expected))
        .unwrap()
        .lines()
        .count();
    let output = damaged(dir.path(), expected, |t| {
        t.strip_suffix('\n').unwrap().into()
    });
    let out = check("yut", "corpora/yut/yut-sample1.in", &output, expected, &[]);
    assert_exit(&out, 4);
    let text = stdout(&out);
    assert!(
        text.contains(&format!(
            "case 1: presentation-error: line {lines}: missing final newline\n"
        )),
        "{text}"
    );
    let out = check(
        "yut",
        "corpora/yut/yut-sample1.in",
        &output,
        expected,
        &["--presentation", "accept"],
    );
    assert_exit(&out, 0);
}

#[test]
fn vexed_with_a_trailing_space_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let expected = "corpora/vexed/sample.out";
    // Sample 1's moves: `(B,1,3,L) (A,0,1,R)` on line 2 of its block.
    let output = damaged(dir.path(), expected, |t| {
        t.replacen("(A,0,1,R)\n", "(A,0,1,R) \n", 1)
    });
    let out = check("vexed", "corpora/vexed/sample.in", &output, expected, &[]);
    assert_exit(&out, 4);
    let text = stdout(&out);
    assert!(
        text.contains(
            "case 1: presentation-error: line 2: trailing space: \
             expected \"(B,1,3,L)·(A,0,1,R)\", got \"(B,1,3,L)·(A,0,1,R)·\"\n"
        ),
        "{text}"
    );
    assert!(!text.contains("is not a move"), "{text}");
    let out = check(
        "vexed",
        "corpora/vexed/sample.in",
        &output,
        expected,
        &["--presentation", "accept"],
    );
    assert_exit(&out, 0);
}

#[test]
fn vexed_moves_wrapped_five_to_a_line_are_a_presentation_error_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let expected = "corpora/vexed/sample.out";
    // Sample 2's first line of moves takes the first move of the next line.
    let output = damaged(dir.path(), expected, |t| {
        t.replacen("(Z,1,2,R)\n(Z,1,3,R) ", "(Z,1,2,R) (Z,1,3,R)\n", 1)
    });
    let out = check("vexed", "corpora/vexed/sample.in", &output, expected, &[]);
    assert_exit(&out, 4);
    let text = stdout(&out);
    // Four moves of 9 characters and 3 spaces: the fifth starts at column 40.
    assert!(
        text.contains(
            "case 2: presentation-error: line 2, column 40: line break in a different place: \
             expected \"(Y,0,3,R)·(Z,4,5,L)·(X,1,3,R)·(Z,1,2,R)\", \
             got \"(Y,0,3,R)·(Z,4,5,L)·(X,1,3,R)·(Z,1,2,R)·(Z,1,3,R)\"\n"
        ),
        "{text}"
    );
}

#[test]
fn a_text_difference_stays_a_wrong_answer_whatever_the_setting() {
    let dir = tempfile::tempdir().unwrap();
    let expected = "corpora/linkpop/linkpop-sample.out";
    let output = damaged(dir.path(), expected, |t| format!("{t}extra\n"));
    for extra in [&[][..], &["--presentation", "accept"][..]] {
        let out = check(
            "linkpop",
            "corpora/linkpop/linkpop-sample.in",
            &output,
            expected,
            extra,
        );
        assert_exit(&out, 1);
        assert!(stdout(&out).contains("wrong-answer"), "{}", stdout(&out));
    }
}

/// A program that prints the reference's output with a space at the end of every line.
fn trailing_spaces_program() -> String {
    format!(
        "p=cmd:{} solve samegame | sed 's/$/ /'",
        env!("CARGO_BIN_EXE_gamebench")
    )
}

#[test]
fn stress_reports_a_presentation_error_and_accepts_it_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let program = trailing_spaces_program();
    let stress = |extra: &[&str]| {
        let mut args = vec![
            "stress",
            "samegame",
            "-e",
            "reference",
            "-e",
            &program,
            "--cases",
            "30",
            "--out",
            s(dir.path()),
        ];
        args.extend_from_slice(extra);
        gamebench(&args)
    };
    let out = stress(&[]);
    assert_exit(&out, 1);
    let text = stdout(&out);
    assert!(
        text.contains("p: presentation error against reference: line 1: trailing space"),
        "{text}"
    );
    let out = stress(&["--presentation", "accept"]);
    assert_exit(&out, 0);
    assert!(
        stdout(&out).contains("no difference in 30 case(s)"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn run_check_accepts_presentation_errors_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let program = trailing_spaces_program();
    let csv = dir.path().join("r.csv");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "run",
            "corpora/samegame/sample.in",
            "-e",
            &program,
            "--check",
            "--csv",
            s(&csv),
            "--quiet",
        ];
        args.extend_from_slice(extra);
        gamebench(&args)
    };
    let out = run(&[]);
    assert_exit(&out, 1);
    let verdicts = common::column(&csv, "verdict");
    assert!(
        verdicts.iter().all(|v| v == "presentation-error"),
        "{verdicts:?}"
    );
    let out = run(&["--presentation", "accept"]);
    assert_exit(&out, 0);
    let statuses = common::column(&csv, "status");
    assert!(statuses.iter().all(|v| v == "ok"), "{statuses:?}");
}
