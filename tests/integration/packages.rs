//! Judges' packages read as they are: expected outputs named `.ans` (Kattis, DOMjudge) as well
//! as `.out`, and the error when both are present and differ.

use std::path::Path;

use crate::common;
use common::{assert_exit, gamebench, results, root, s, text};
use gamebench::status::Status;

/// Copies the bundled corpus `corpora/<game>/<stem>.in|out` to `dir/<name>.in|<extension>`.
fn copy_case(game: &str, stem: &str, dir: &Path, name: &str, extension: &str) {
    std::fs::create_dir_all(dir).unwrap();
    let from = root().join("corpora").join(game);
    std::fs::copy(
        from.join(format!("{stem}.in")),
        dir.join(format!("{name}.in")),
    )
    .unwrap();
    std::fs::copy(
        from.join(format!("{stem}.out")),
        dir.join(format!("{name}.{extension}")),
    )
    .unwrap();
}

#[test]
fn run_check_reads_ans_files() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    copy_case("yut", "yut-sample1", &data.join("sample"), "1", "ans");
    copy_case("yut", "yut-sample2", &data.join("secret"), "2", "ans");
    let csv = dir.path().join("r.csv");
    let out = gamebench()
        .arg("run")
        .arg(&data)
        .args(["--check", "-q", "--game", "yut", "--csv", s(&csv)])
        .output()
        .unwrap();
    assert_exit(&out, 0);
    let rows = results(&csv);
    assert!(rows.len() >= 2, "{rows:?}");
    assert!(
        rows.iter().all(|r| r.status == Status::Ok),
        "{:?}",
        rows.iter().map(|r| (&r.file, r.status)).collect::<Vec<_>>()
    );
}

#[test]
fn a_wrong_ans_is_caught() {
    // The .ans is really compared with: sample 2's answer given to sample 1 is wrong.
    let dir = tempfile::tempdir().unwrap();
    let yut = root().join("corpora/yut");
    std::fs::copy(yut.join("yut-sample1.in"), dir.path().join("1.in")).unwrap();
    std::fs::copy(yut.join("yut-sample2.out"), dir.path().join("1.ans")).unwrap();
    let csv = dir.path().join("r.csv");
    let out = gamebench()
        .arg("run")
        .arg(dir.path().join("1.in"))
        .args(["--check", "-q", "--game", "yut", "--csv", s(&csv)])
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let rows = results(&csv);
    assert!(rows.iter().any(|r| r.status != Status::Ok), "{rows:?}");
}

#[test]
fn out_and_ans_that_differ_are_an_error_naming_both() {
    let dir = tempfile::tempdir().unwrap();
    let yut = root().join("corpora/yut");
    std::fs::copy(yut.join("yut-sample1.in"), dir.path().join("1.in")).unwrap();
    std::fs::copy(yut.join("yut-sample1.out"), dir.path().join("1.out")).unwrap();
    std::fs::copy(yut.join("yut-sample2.out"), dir.path().join("1.ans")).unwrap();
    let out = gamebench()
        .arg("invoke")
        .arg(dir.path())
        .args(["--game", "yut", "-e", "reference"])
        .output()
        .unwrap();
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    assert!(err.contains("1.out") && err.contains("1.ans"), "{err}");
    // The same bytes under both names are one expected output.
    std::fs::copy(yut.join("yut-sample1.out"), dir.path().join("1.ans")).unwrap();
    let out = gamebench()
        .arg("invoke")
        .arg(dir.path())
        .args([
            "--game",
            "yut",
            "-e",
            "reference",
            "--expect",
            "reference=accepted",
        ])
        .output()
        .unwrap();
    assert_exit(&out, 0);
}

#[test]
fn run_check_with_out_and_ans_that_differ_is_an_error_row() {
    let dir = tempfile::tempdir().unwrap();
    let yut = root().join("corpora/yut");
    std::fs::copy(yut.join("yut-sample1.in"), dir.path().join("1.in")).unwrap();
    std::fs::copy(yut.join("yut-sample1.out"), dir.path().join("1.out")).unwrap();
    std::fs::copy(yut.join("yut-sample2.out"), dir.path().join("1.ans")).unwrap();
    let csv = dir.path().join("r.csv");
    let out = gamebench()
        .arg("run")
        .arg(dir.path().join("1.in"))
        .args(["--check", "-q", "--game", "yut", "--csv", s(&csv)])
        .output()
        .unwrap();
    assert_exit(&out, 2);
    let rows = results(&csv);
    assert!(
        rows.iter().all(|r| r.status == Status::Error
            && r.message.contains("1.out")
            && r.message.contains("1.ans")),
        "{rows:?}"
    );
}

