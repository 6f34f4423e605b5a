//! A package's `data/` beyond its tests: `run` and `validate` read a package (or its `data/`)
//! as a corpus of its tests alone, `validate` checks that `data/invalid_input` is rejected, and
//! `invoke` judges `data/invalid_output` and `data/valid_output` with the game's checker.

use std::path::{Path, PathBuf};

use crate::common;
use common::{assert_exit, gamebench, results, root, s, text};
use gamebench::status::Status;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(from, to).unwrap();
}

/// A Yut package (its folder not named after the game): sample 1 and 2 as tests, an invalid
/// input, an invalid output (sample 2's answer given to sample 1) and a valid one, and an
/// accepted submission that runs gamebench's solver.
fn package(dir: &Path) -> PathBuf {
    let pkg = dir.join("pkg");
    write(
        &pkg.join("problem.yaml"),
        "problem_format_version: 2025-09\nname: yut\ngamebench:\n  game: yut\nlimits:\n  time_limit: 5\n",
    );
    let yut = root().join("corpora/yut");
    let (in1, out1) = (yut.join("yut-sample1.in"), yut.join("yut-sample1.out"));
    let (in2, out2) = (yut.join("yut-sample2.in"), yut.join("yut-sample2.out"));
    let data = pkg.join("data");
    copy(&in1, &data.join("sample/1.in"));
    copy(&out1, &data.join("sample/1.ans"));
    copy(&in2, &data.join("secret/2.in"));
    copy(&out2, &data.join("secret/2.ans"));
    write(&data.join("invalid_input/garbage.in"), "not an input\n");
    copy(&in1, &data.join("invalid_output/swapped.in"));
    copy(&out1, &data.join("invalid_output/swapped.ans"));
    copy(&out2, &data.join("invalid_output/swapped.out"));
    copy(&in2, &data.join("valid_output/same.in"));
    copy(&out2, &data.join("valid_output/same.ans"));
    copy(&out2, &data.join("valid_output/same.out"));
    write(
        &pkg.join("submissions/accepted/solve.c"),
        &format!(
            "#include <unistd.h>\nint main(void) {{ execl(\"{}\", \"gamebench\", \"solve\", \"yut\", (char *)0); return 1; }}\n",
            env!("CARGO_BIN_EXE_gamebench")
        ),
    );
    pkg
}

#[test]
fn run_reads_a_package_or_its_data_as_its_tests_alone() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = package(dir.path());
    for path in [pkg.clone(), pkg.join("data")] {
        let csv = dir.path().join("r.csv");
        let out = gamebench()
            .arg("run")
            .arg(&path)
            .args(["--check", "-q", "--game", "yut", "--csv", s(&csv)])
            .output()
            .unwrap();
        assert_exit(&out, 0);
        let rows = results(&csv);
        let mut files: Vec<String> = rows.iter().map(|r| r.file.clone()).collect();
        files.dedup();
        // Only the tests: the invalid input and the output cases are not cases to run.
        assert_eq!(files.len(), 2, "{files:?}");
        assert!(
            files
                .iter()
                .all(|f| f.contains("sample") || f.contains("secret")),
            "{files:?}"
        );
        assert!(rows.iter().all(|r| r.status == Status::Ok), "{rows:?}");
    }
}

#[test]
fn validate_checks_a_packages_invalid_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = package(dir.path());
    let out = gamebench()
        .args(["validate", "yut"])
        .arg(&pkg)
        .output()
        .unwrap();
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("garbage.in: rejected, as the package says"),
        "{stdout}"
    );
    // The tests are validated, the invalid input is not counted among them.
    assert!(
        text(&out.stderr).contains("2 valid, 0 invalid"),
        "{}",
        text(&out.stderr)
    );
    // A valid input among the invalid ones fails the package (through its data/ as well).
    copy(
        &pkg.join("data/sample/1.in"),
        &pkg.join("data/invalid_input/valid.in"),
    );
    let out = gamebench()
        .args(["validate", "yut"])
        .arg(pkg.join("data"))
        .output()
        .unwrap();
    assert_exit(&out, 3);
    assert!(
        text(&out.stdout).contains("valid.in: invalid input accepted"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn invoke_judges_the_packages_output_cases_with_the_checker() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = package(dir.path());
    let build = dir.path().join("build");
    let invoke = || {
        gamebench()
            .arg("invoke")
            .arg(&pkg)
            .args(["--build-dir", s(&build), "-j", "2"])
            .output()
            .unwrap()
    };
    let out = invoke();
    assert_exit(&out, 0);
    assert!(
        text(&out.stdout).contains("output cases: all 2 judged by the checker as the package says"),
        "{}",
        text(&out.stdout)
    );
    // A right output among the invalid ones, a wrong one among the valid: both named, exit 1.
    copy(
        &pkg.join("data/sample/1.ans"),
        &pkg.join("data/invalid_output/swapped.out"),
    );
    write(&pkg.join("data/valid_output/same.out"), "nonsense\n");
    let out = invoke();
    assert_exit(&out, 1);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("invalid output accepted: ") && stdout.contains("swapped.out"),
        "{stdout}"
    );
    assert!(
        stdout.contains("valid output rejected: ") && stdout.contains("same.out: case 1:"),
        "{stdout}"
    );
}
