//! `run --fail-if-slower` / `--interleave`: interleaved A/B rounds of programs, their verdict
//! and exit codes.
use crate::common;

use common::{assert_exit, run, s, text};

/// A `cmd:` engine named `name` that spins `n` iterations of a shell loop, then reads its
/// input (it prints nothing: outputs are not compared here).
fn spin(name: &str, n: u32) -> String {
    format!("{name}=cmd:i=0; while [ $i -lt {n} ]; do i=$((i+1)); done; cat >/dev/null")
}

#[test]
fn identical_programs_exit_0_and_ten_times_the_work_exits_6() {
    let dir = common::yut_samples();
    let (old, same, slow) = (spin("old", 2_000), spin("new", 2_000), spin("new", 20_000));
    let out = run(&[
        "run",
        s(dir.path()),
        "-e",
        &old,
        "-e",
        &same,
        "--runs",
        "4",
        "--fail-if-slower",
        "3%",
    ]);
    assert_exit(&out, 0);
    let said = text(&out.stdout);
    assert!(said.contains("interleaved: 2 files x 4 rounds"), "{said}");
    assert!(said.contains("new / old: x"), "{said}");
    assert!(!said.contains("SLOWER"), "{said}");
    let out = run(&[
        "run",
        s(dir.path()),
        "-e",
        &old,
        "-e",
        &slow,
        "--runs",
        "4",
        "--fail-if-slower",
        "3",
    ]);
    assert_exit(&out, 6);
    let said = text(&out.stdout);
    assert!(said.contains("SLOWER by more than 3"), "{said}");
    // The same run with the slow program as the baseline: faster, exit 0.
    let out = run(&[
        "run",
        s(dir.path()),
        "-e",
        &old,
        "-e",
        &slow,
        "--runs",
        "4",
        "--fail-if-slower",
        "3",
        "--baseline",
        "new",
    ]);
    assert_exit(&out, 0);
    assert!(
        text(&out.stdout).contains("faster by more than 3"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn interleaving_refuses_what_it_does_not_do_and_bad_percentages() {
    let dir = common::yut_samples();
    let old = spin("old", 10);
    let new = spin("new", 10);
    let base = ["run", s(dir.path()), "-e", &old, "-e", &new];
    let csv = dir.path().join("x.csv");
    let out = run(&[&base[..], &["--interleave", "--csv", s(&csv)]].concat());
    common::assert_exit_saying(&out, 2, "--csv is not available");
    assert!(!csv.exists());
    for bad in ["x", "-3", "0", "nan%"] {
        let out = run(&[&base[..], &["--fail-if-slower", bad]].concat());
        assert_exit(&out, 2);
    }
    let out = run(&[
        "run",
        s(dir.path()),
        "-e",
        &old,
        "--interleave",
        "--runs",
        "2",
    ]);
    common::assert_exit_saying(&out, 2, "at least two engines");
    let out = run(&[
        &base[..],
        &["--interleave", "--runs", "2", "--baseline", "nope"],
    ]
    .concat());
    common::assert_exit_saying(&out, 2, "baseline \"nope\"");
}

#[test]
fn internal_engines_interleave_case_by_case() {
    let dir = common::yut_samples();
    let out = run(&[
        "run",
        s(dir.path()),
        "-e",
        "all",
        "--runs",
        "3",
        "--interleave",
    ]);
    assert_exit(&out, 0);
    let said = text(&out.stdout);
    assert!(said.contains("x 3 rounds, every (case, engine)"), "{said}");
    assert!(said.contains("rounds: 3 as asked"), "{said}");
}
