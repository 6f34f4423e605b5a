//! `run --fail-if-slower` / `--interleave`: interleaved A/B rounds of programs, their verdict
//! and exit codes.
use crate::common;

use common::{assert_exit, run, s, text};

/// A `cmd:` engine named `name` that spins `start` iterations of a shell loop whatever its
/// input (a start-up), then, unless its input is empty, `n` more (its work), then reads the
/// rest (it prints nothing: outputs are not compared here).
fn spin_after(name: &str, start: u32, n: u32) -> String {
    format!(
        "{name}=cmd:j=0; while [ $j -lt {start} ]; do j=$((j+1)); done; \
         read -r l || exit 0; i=0; while [ $i -lt {n} ]; do i=$((i+1)); done; cat >/dev/null"
    )
}

/// [`spin_after`] without a start-up of its own: `n` iterations on an input that is not empty.
fn spin(name: &str, n: u32) -> String {
    spin_after(name, 0, n)
}

/// The ratio printed on the line `new / old: xR ...`.
fn ratio(said: &str) -> f64 {
    let at = said.find("new / old: x").expect(said) + "new / old: x".len();
    said[at..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .expect(said)
}

#[test]
fn a_programs_start_up_is_taken_out_of_the_ratio() {
    // The start-up (10,000 iterations on every input) is 2.5 times the old program's work
    // (4,000) and the new program's work is twice the old one's: with the start-up in, the
    // ratio would be (10,000 + 8,000) / (10,000 + 4,000) = x1.29; taken out, x2 (the start-up
    // taken out is the median of each program's runs on an input of no case, 24 in each of the
    // 5 rounds: 120).
    let dir = common::yut_samples();
    let (old, new) = (
        spin_after("old", 10_000, 4_000),
        spin_after("new", 10_000, 8_000),
    );
    let out = run(&[
        "run",
        s(dir.path()),
        "-e",
        &old,
        "-e",
        &new,
        "--runs",
        "5",
        "--interleave",
    ]);
    assert_exit(&out, 0);
    let said = text(&out.stdout);
    assert!(said.contains("start-up taken out of every time"), "{said}");
    assert!(
        said.contains("the median CPU time of 120 runs on an input of no case, 24 a round"),
        "{said}"
    );
    let r = ratio(&said);
    assert!(r > 1.45 && r < 2.7, "{said}");
    // Under wall time nothing is taken out, and the summary says nothing of it.
    let out = run(&[
        "run",
        s(dir.path()),
        "-e",
        &old,
        "-e",
        &new,
        "--runs",
        "5",
        "--interleave",
        "--measure",
        "wall",
    ]);
    assert_exit(&out, 0);
    let said = text(&out.stdout);
    assert!(!said.contains("start-up taken out"), "{said}");
    assert!(ratio(&said) < 1.6, "{said}");
}

#[test]
fn a_fixed_count_of_rounds_says_the_smallest_change_it_could_find() {
    let dir = common::yut_samples();
    let out = run(&[
        "run",
        s(dir.path()),
        "-e",
        &spin("old", 2_000),
        "-e",
        &spin("new", 2_000),
        "--runs",
        "10",
        "--fail-if-slower",
        "3",
    ]);
    assert_exit(&out, 0);
    let said = text(&out.stdout);
    assert!(said.contains("rounds: 10 as asked"), "{said}");
    assert!(
        said.contains("the smallest slowdown this run could have found is"),
        "{said}"
    );
    assert!(!said.contains("SLOWER"), "{said}");
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

/// Whether valgrind runs here (the instruction counter where hardware counters are missing).
fn valgrind_runs() -> bool {
    std::process::Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn instruction_counts_find_a_small_change_exactly_and_never_one_in_an_identical_pair() {
    if !valgrind_runs() {
        eprintln!("skipped: no valgrind (and no hardware counters are assumed)");
        return;
    }
    let dir = common::yut_samples();
    let base = |new: &str| {
        run(&[
            "run",
            s(dir.path()),
            "-e",
            &spin("old", 300),
            "-e",
            new,
            "--measure",
            "instructions",
            "--fail-if-slower",
            "2",
        ])
    };
    let out = base(&spin("new", 300));
    assert_exit(&out, 0);
    let said = text(&out.stdout);
    assert!(said.contains("counted by"), "{said}");
    assert!(said.contains("; instructions; baseline old"), "{said}");
    assert!(said.contains("the fewest instructions of 2 runs"), "{said}");
    // Two rounds: the second repeats the first, and the counts agree.
    assert!(said.contains("rounds: stopped after 2"), "{said}");
    let r = ratio(&said);
    assert!((r - 1.0).abs() < 1e-3, "{said}");
    // 10 % more iterations of the loop: found, and measured as about 10 %.
    let out = base(&spin("new", 330));
    assert_exit(&out, 6);
    let said = text(&out.stdout);
    let r = ratio(&said);
    assert!(r > 1.05 && r < 1.15, "{said}");
}

#[test]
fn work_counts_compare_internal_engines_and_refuse_programs() {
    let dir = common::yut_samples();
    let out = run(&[
        "run",
        s(dir.path()),
        "-e",
        "all",
        "--measure",
        "work",
        "--interleave",
    ]);
    assert_exit(&out, 0);
    let said = text(&out.stdout);
    assert!(said.contains("; work counts; baseline"), "{said}");
    assert!(said.contains("rounds: stopped after 2"), "{said}");
    let out = run(&[
        "run",
        s(dir.path()),
        "-e",
        &spin("old", 10),
        "-e",
        &spin("new", 10),
        "--measure",
        "work",
        "--interleave",
    ]);
    common::assert_exit_saying(&out, 2, "work counts exist for internal engines only");
}
