//! `gamebench shrink`: a failing case of a corpus file shrunk by the same game-aware shrinking
//! as `stress`, to the same minimum, with the same report and files.

use crate::common;
use common::{assert_exit, assert_exit_saying, run_from_root, s, text};

/// The deliberately wrong SameGame solution (no column collapse).
const BUG: &str = "bug=cmd:python3 tests/wrong/samegame_no_collapse.py";
/// A bundled SameGame file on which the wrong solution fails.
const FILE: &str = "corpora/samegame/samegame-shapes-1-0.in";

fn read(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn shrink_reaches_the_minimum_stress_finds_from_the_same_case() {
    let tmp = tempfile::tempdir().unwrap();
    // The first case of the file the wrong solution fails, as `run --check` finds it.
    let csv = tmp.path().join("results.csv");
    let out = run_from_root(&[
        "run",
        FILE,
        "-e",
        BUG,
        "--check",
        "--quiet",
        "--csv",
        s(&csv),
    ]);
    assert_exit(&out, 1);
    let rows = common::columns(&csv, &["case", "status"]);
    let case = rows
        .iter()
        .find(|r| r[1] == "mismatch")
        .map(|r| r[0].clone())
        .expect("the wrong solution fails a case of the file");

    let shrink_out = tmp.path().join("shrink");
    let out = run_from_root(&[
        "shrink",
        "samegame",
        FILE,
        "-e",
        "reference",
        "-e",
        BUG,
        "--case",
        &case,
        "--out",
        s(&shrink_out),
    ]);
    assert_exit(&out, 1);
    let report = text(&out.stdout);
    assert!(
        report.contains(&format!("found in {FILE}, case {case}")),
        "{report}"
    );
    assert!(
        report.contains("on the shrunk input: bug: wrong answer against reference"),
        "{report}"
    );

    // `stress` on the same file (an external generator that prints it) isolates the same
    // first failing case and shrinks it.
    let stress_out = tmp.path().join("stress");
    // `{seed}` in a comment: the generator prints the file whatever the seed.
    let generator = format!("cmd:cat {FILE} # {{seed}}");
    let out = run_from_root(&[
        "stress",
        "samegame",
        "-e",
        "reference",
        "-e",
        BUG,
        "--generator",
        &generator,
        "--cases",
        "1000",
        "--out",
        s(&stress_out),
    ]);
    assert_exit(&out, 1);
    let stress_report = text(&out.stdout);
    assert!(
        stress_report.contains(&format!("generated file 0, case {case})")),
        "{stress_report}"
    );

    let (shrink_dir, stress_dir) = (shrink_out.join("samegame"), stress_out.join("samegame"));
    let stem = "shrink-samegame-shapes-1-0";
    // The same isolated case, the same minimum, the same outputs on it.
    assert_eq!(
        read(&shrink_dir.join(format!("{stem}.in"))),
        read(&stress_dir.join("stress-1.in"))
    );
    let minimum = read(&shrink_dir.join(format!("{stem}-min.in")));
    assert_eq!(minimum, read(&stress_dir.join("stress-1-min.in")));
    assert!(minimum.len() < read(&shrink_dir.join(format!("{stem}.in"))).len());
    for engine in ["reference", "bug"] {
        assert_eq!(
            read(&shrink_dir.join(format!("{stem}-min.{engine}.out"))),
            read(&stress_dir.join(format!("stress-1-min.{engine}.out"))),
            "{engine}"
        );
    }
    // The report file is what was printed before the `wrote` lines.
    assert!(report.starts_with(&read(&shrink_dir.join(format!("{stem}.txt")))));
}

#[test]
fn engines_that_agree_leave_nothing_to_shrink() {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("out");
    let out = run_from_root(&[
        "shrink",
        "samegame",
        FILE,
        "-e",
        "reference",
        "-e",
        "bitboard",
        "--out",
        s(&out_dir),
    ]);
    assert_exit(&out, 0);
    assert!(
        text(&out.stdout).contains("nothing to shrink"),
        "{}",
        text(&out.stdout)
    );
    assert!(!out_dir.exists());
}

#[test]
fn a_case_the_file_does_not_have_is_a_usage_error() {
    let out = run_from_root(&[
        "shrink",
        "samegame",
        FILE,
        "-e",
        "reference",
        "-e",
        "bitboard",
        "--case",
        "999",
    ]);
    assert_exit_saying(&out, 2, "no case 999");
    let out = run_from_root(&[
        "shrink",
        "samegame",
        "no-such.in",
        "-e",
        "reference",
        "-e",
        "bitboard",
    ]);
    assert_exit_saying(&out, 2, "cannot read no-such.in");
}

/// A Kattis package of SameGame under `dir`: `problem.yaml`, a sample and a secret test with
/// `.ans` files. The sample, a 1 x 2 grid with no selection, is printed as it is by any
/// solution (the wrong one included); the secret one is a file the wrong solution fails.
fn samegame_package(dir: &std::path::Path) -> std::path::PathBuf {
    let pkg = dir.join("pkg");
    let sample = pkg.join("data/sample");
    std::fs::create_dir_all(&sample).unwrap();
    std::fs::write(sample.join("1.in"), "1 2\n1 2\n0 0\n0 0\n").unwrap();
    std::fs::write(sample.join("1.ans"), "Grid 1.\n    1 2\n").unwrap();
    let secret = pkg.join("data/secret");
    std::fs::create_dir_all(&secret).unwrap();
    let from = common::root().join(FILE);
    std::fs::copy(&from, secret.join("2.in")).unwrap();
    std::fs::copy(from.with_extension("out"), secret.join("2.ans")).unwrap();
    std::fs::write(
        pkg.join("problem.yaml"),
        "problem_format_version: 2025-09\nname: samegame\ngamebench:\n  game: samegame\n",
    )
    .unwrap();
    pkg
}

#[test]
fn stress_on_a_packages_tests_finds_and_shrinks_the_failing_one() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = samegame_package(tmp.path());
    let out_dir = tmp.path().join("stress");
    let out = run_from_root(&[
        "stress",
        "samegame",
        "--tests",
        s(&pkg),
        "-e",
        "reference",
        "-e",
        BUG,
        "--out",
        s(&out_dir),
    ]);
    assert_exit(&out, 1);
    let report = text(&out.stdout);
    let failing = pkg.join("data/secret/2.in");
    assert!(
        report.contains(&format!("found in {}, case ", failing.display())),
        "{report}"
    );
    assert!(
        report.contains("on the shrunk input: bug: wrong answer against reference"),
        "{report}"
    );
    // The files are named after the test, as `shrink` names them.
    assert!(
        out_dir.join("samegame/shrink-2-min.in").is_file(),
        "{report}"
    );
}

/// `stress samegame --tests PKG` with two internal engines, which agree.
fn stress_agreeing(pkg: &std::path::Path) -> std::process::Output {
    run_from_root(&[
        "stress",
        "samegame",
        "--tests",
        s(pkg),
        "-e",
        "reference",
        "-e",
        "bitboard",
    ])
}

#[test]
fn stress_on_tests_where_the_engines_agree_counts_the_files_and_names_an_unreadable_one() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = samegame_package(tmp.path());
    let out = stress_agreeing(&pkg);
    assert_exit(&out, 0);
    assert!(
        text(&out.stdout).contains("of 2 test file(s)"),
        "{}",
        text(&out.stdout)
    );
    // A test that is not SameGame input: said with its name, the others still judged, exit 2.
    std::fs::write(pkg.join("data/secret/3.in"), "not a grid\n").unwrap();
    let out = stress_agreeing(&pkg);
    assert_exit_saying(&out, 2, "3.in");
    assert!(
        text(&out.stdout).contains("of 2 test file(s)"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn stress_on_tests_needs_no_profile_where_generated_cases_do() {
    // Vexed has no `random` profile: generated cases need --profile, given tests do not.
    let out = run_from_root(&["stress", "vexed", "-e", "reference", "-e", "bitset"]);
    assert_exit_saying(&out, 2, "stress vexed: --profile is required");
    let out = run_from_root(&[
        "stress",
        "vexed",
        "--tests",
        "corpora/vexed/sample.in",
        "-e",
        "reference",
        "-e",
        "bitset",
    ]);
    assert_exit(&out, 0);
    assert!(
        text(&out.stdout).contains("of 1 test file(s)"),
        "{}",
        text(&out.stdout)
    );
}
