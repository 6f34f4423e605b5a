//! End-to-end tests of honest comparisons: verdicts (`unchecked`), speed-ups only over
//! comparable work, external programs checked before the run, "did you mean", `--shell none`,
//! exports that stand alone (metadata, samples, summary CSV, relative file names, `cells`), and
//! plots refused under a non-SVG name. Expected outputs are the statements' Yut samples.

use std::time::{Duration, Instant};

use crate::common;
use common::{assert_exit, column, game_folder, root, run, s, text, yut_samples};

#[test]
fn one_engine_without_check_is_unchecked_exit_0_and_says_so() {
    let dir = yut_samples();
    let csv = dir.path().join("r.csv");
    let out = run(&["run", s(dir.path()), "-e", "table", "-q", "--csv", s(&csv)]);
    assert_exit(&out, 0);
    assert_eq!(column(&csv, "status"), ["unchecked", "unchecked"]);
    let summary = text(&out.stdout);
    assert!(summary.contains("no output was compared"), "{summary}");
    assert!(
        summary.contains("2 of 2 results are unchecked"),
        "{summary}"
    );
    // With --check the same cases are verified.
    let out = run(&[
        "run",
        s(dir.path()),
        "-e",
        "table",
        "-q",
        "--check",
        "--csv",
        s(&csv),
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(column(&csv, "status"), ["ok", "ok"]);
    assert!(text(&out.stdout).contains("outputs compared with the expected outputs (--check)"));
}

#[test]
fn an_external_engine_alone_compares_nothing_unless_checked() {
    let dir = yut_samples();
    let out = run(&["run", s(dir.path()), "-e", "mine=cmd:cat", "-q"]);
    assert_exit(&out, 0);
    let summary = text(&out.stdout);
    assert!(summary.contains("no output was compared"), "{summary}");
    assert!(
        summary.contains("2 of 2 results are unchecked"),
        "{summary}"
    );
}

#[test]
fn wrong_answers_get_no_speed_up() {
    let dir = yut_samples();
    let out = run(&[
        "run",
        s(dir.path()),
        "-e",
        "reference",
        "-e",
        "mine=cmd:cat",
        "--progress",
        "none",
        "--problems",
        "none",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let summary = text(&out.stdout);
    assert!(summary.contains("n/a: 2 mismatch"), "{summary}");
    assert!(!summary.contains("faster"), "{summary}");
    assert!(!summary.contains("slower"), "{summary}");
}

#[test]
fn a_missing_program_fails_the_run_at_once() {
    let dir = yut_samples();
    let start = Instant::now();
    let out = run(&[
        "run",
        s(dir.path()),
        "-e",
        "x=cmd:./no-such-prog --fast",
        "-q",
    ]);
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("engine x: cannot start `./no-such-prog --fast`"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "nothing ran");
    // Without a shell too.
    let out = run(&[
        "run",
        s(dir.path()),
        "-N",
        "-e",
        "cmd:no-such-prog-xyz",
        "-q",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn near_misses_get_a_suggestion() {
    let dir = yut_samples();
    let out = run(&["run", s(dir.path()), "-e", "mine=./sol"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("did you mean \"mine=cmd:./sol\""), "{err}");
    let out = run(&["run", s(dir.path()), "-e", "tabel"]);
    assert!(
        text(&out.stderr).contains("did you mean \"table\""),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["run", s(dir.path()), "-g", "yot"]);
    assert!(
        text(&out.stderr).contains("did you mean \"yut\""),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_mistyped_command_gets_the_nearest_one() {
    // Swapped letters (clap's own measure misses them) and a wrong one.
    for typed in ["rnu", "rum", "strses"] {
        let out = run(&[typed, "corpora"]);
        assert_eq!(out.status.code(), Some(2), "{typed}");
        let err = text(&out.stderr);
        assert!(err.contains("similar subcommand"), "{typed}: {err}");
    }
    let err = text(&run(&["rnu"]).stderr);
    assert!(err.contains("'run'"), "{err}");
    let err = text(&run(&["strses"]).stderr);
    assert!(err.contains("'stress'"), "{err}");
}

#[test]
fn no_shell_runs_the_program_directly_with_cpu_columns() {
    let dir = yut_samples();
    let csv = dir.path().join("r.csv");
    let me = env!("CARGO_BIN_EXE_gamebench");
    let engine = format!("mine=cmd:{me} solve yut");
    let out = run(&[
        "run",
        s(dir.path()),
        "-N",
        "--check",
        "-e",
        &engine,
        "--progress",
        "none",
        "--problems",
        "none",
        "--csv",
        s(&csv),
    ]);
    assert_exit(&out, 0);
    assert_eq!(column(&csv, "status"), ["ok", "ok"]);
    assert_eq!(column(&csv, "timing"), ["file", "file"]);
    assert!(
        column(&csv, "user_ns")
            .iter()
            .all(|v| v.parse::<u64>().is_ok())
    );
    assert!(
        column(&csv, "sys_ns")
            .iter()
            .all(|v| v.parse::<u64>().is_ok())
    );
    let summary = text(&out.stdout);
    assert!(
        summary.contains("an empty run of the same shape takes"),
        "{summary}"
    );
    assert!(summary.contains("mine*"), "{summary}");
}

#[test]
fn exports_stand_alone() {
    let dir = yut_samples();
    let (json, csv, summary_csv, md) = (
        dir.path().join("s.json"),
        dir.path().join("r.csv"),
        dir.path().join("s.csv"),
        dir.path().join("s.md"),
    );
    let out = run(&[
        "run",
        s(dir.path()),
        "-e",
        "all",
        "--check",
        "--runs",
        "3",
        "-j",
        "1",
        "-q",
        "--csv",
        s(&csv),
        "--export-json",
        s(&json),
        "--samples",
        "--export-csv",
        s(&summary_csv),
        "--export-markdown",
        s(&md),
    ]);
    assert_exit(&out, 0);
    let value: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let meta = &value["meta"];
    for key in [
        "version",
        "git",
        "host",
        "cpu",
        "cores",
        "threads",
        "runs",
        "warmup",
        "max_states",
        "start",
        "end",
        "command_line",
        "wall_ns",
    ] {
        assert!(meta.get(key).is_some(), "meta.{key} missing: {meta}");
    }
    assert_eq!(meta["runs"], 3);
    assert_eq!(meta["threads"], 1);
    assert!(meta["start"].as_str().unwrap().ends_with('Z'));
    let table = &value["summary"][1];
    for key in [
        "mean_ns",
        "stddev_ns",
        "median_ns",
        "min_ns",
        "max_ns",
        "cases",
        "ok",
        "mismatch",
        "relative",
        "relative_stddev",
    ] {
        assert!(table.get(key).is_some(), "summary.{key} missing: {table}");
    }
    assert_eq!(table["ok"], 2);
    assert_eq!(table["compared_cases"], 2);
    // Raw samples: every case of every engine, each with its three runs.
    let samples = value["samples"].as_array().unwrap();
    assert_eq!(samples.len(), 4);
    assert!(
        samples
            .iter()
            .all(|s| s["times_ns"].as_array().unwrap().len() == 3)
    );
    // The CSV names files relative to the path given, and has a numeric size.
    assert_eq!(column(&csv, "file")[0], "yut/s1.in");
    // The statement's samples have 5 and 21 throws... as turns of the game.
    let cells: Vec<u64> = column(&csv, "cells")
        .iter()
        .map(|c| c.parse().unwrap())
        .collect();
    let sizes = column(&csv, "size");
    for (c, size) in cells.iter().zip(&sizes) {
        assert_eq!(format!("{c} turns"), *size);
    }
    assert_eq!(
        std::fs::read_to_string(&summary_csv)
            .unwrap()
            .lines()
            .count(),
        3
    );
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(!md.contains("0.000"), "{md}");
}

#[test]
fn plots_must_be_svg_and_are_checked_before_the_run() {
    let dir = yut_samples();
    let png = dir.path().join("p.png");
    let start = Instant::now();
    let out = run(&["run", s(dir.path()), "--plot", s(&png)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("SVG only"),
        "{}",
        text(&out.stderr)
    );
    assert!(!png.exists());
    assert!(start.elapsed() < Duration::from_secs(5));
    let svg = dir.path().join("s.svg");
    let out = run(&[
        "run",
        s(dir.path()),
        "-e",
        "all",
        "-q",
        "--plot-scaling",
        s(&svg),
    ]);
    assert_exit(&out, 0);
    assert!(std::fs::read_to_string(&svg).unwrap().contains("yut/table"));
}

#[test]
fn sweep_prints_a_table_and_exponents_and_draws_the_plot() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("s.svg");
    let kept = dir.path().join("corpora");
    let args = [
        "sweep",
        "linkpop",
        "--size",
        "4x4..8x8:4",
        "--count",
        "1",
        "-e",
        "all",
        "--plot",
        s(&svg),
        "--out",
        s(&kept),
        "-j",
        "2",
    ];
    let out = run(&args);
    assert_exit(&out, 0);
    let table = text(&out.stdout);
    assert!(table.starts_with("point  cells"), "{table}");
    assert!(
        table.contains("\n4x4 ") && table.contains("\n8x8 "),
        "{table}"
    );
    assert!(
        table.contains("reference: time per case ~ cells^"),
        "{table}"
    );
    assert!(
        table.contains("bitboard: time per case ~ cells^"),
        "{table}"
    );
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(
        plot.starts_with("<svg") && plot.contains("bitboard (~ cells^"),
        "{plot}"
    );
    // The corpora are kept where asked, one folder per point, and are deterministic.
    let first = std::fs::read(kept.join("8x8/linkpop/linkpop-random-1-0.in")).unwrap();
    assert_eq!(run(&args).status.code(), Some(0));
    assert_eq!(
        std::fs::read(kept.join("8x8/linkpop/linkpop-random-1-0.in")).unwrap(),
        first
    );
    // A generator option the game does not have is refused like on `gen`.
    let out = run(&["sweep", "yut", "--param", "size=1,2", "-e", "all"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["sweep", "linkpop", "--size", "4x4", "-e", "all"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("at least two"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn noisy_runs_are_reported() {
    let dir = yut_samples();
    let counter = dir.path().join("count");
    let me = env!("CARGO_BIN_EXE_gamebench");
    // Every fourth run sleeps 1 s: 2 of 8 runs are more than 10 times slower than the others
    // even when a loaded machine makes a plain run of the program take 50 ms.
    let engine = format!(
        "noisy=cmd:n=$(cat {c} 2>/dev/null || echo 0); echo $((n + 1)) > {c}; if [ $((n % 4)) = 3 ]; then sleep 1; fi; exec {me} solve yut",
        c = s(&counter)
    );
    let input = dir.path().join("yut/s1.in");
    let out = run(&[
        "run",
        s(&input),
        "-e",
        &engine,
        "--runs",
        "8",
        "--check",
        "--progress",
        "none",
        "--problems",
        "none",
    ]);
    assert_exit(&out, 0);
    let summary = text(&out.stdout);
    assert!(
        summary.contains("warning: yut/noisy: 1 of 1 files have statistical outliers"),
        "{summary}"
    );
    assert!(summary.contains("differ more than 10-fold"), "{summary}");
    assert!(
        summary.contains("time of one run over all cases"),
        "{summary}"
    );
}

#[test]
fn case_timeout_kills_one_case_and_keeps_the_others() {
    let (dir, vexed) = game_folder("vexed");
    let root = root().join("corpora/vexed");
    for ext in ["in", "out"] {
        std::fs::copy(
            root.join(format!("sample.{ext}")),
            vexed.join(format!("sample.{ext}")),
        )
        .unwrap();
    }
    // A solution that hangs on the second puzzle only.
    let script = dir.path().join("sol.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ninput=$(cat)\ncase \"$input\" in *SAMPLE-02*) sleep 30;; esac\nprintf '%s\\n' \"$input\" | {} solve vexed\n",
            env!("CARGO_BIN_EXE_gamebench")
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let csv = dir.path().join("r.csv");
    let engine = format!("sol=cmd:{}", s(&script));
    let start = Instant::now();
    let out = run(&[
        "run",
        s(dir.path()),
        "-e",
        &engine,
        "--check",
        "--case-timeout",
        "0.5",
        "--progress",
        "none",
        "--problems",
        "none",
        "--csv",
        s(&csv),
    ]);
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    assert_exit(&out, 1);
    assert_eq!(column(&csv, "status"), ["ok", "timeout"]);
    assert_eq!(column(&csv, "timing"), ["case", "case"]);
    assert!(
        text(&out.stdout).contains("timeout"),
        "{}",
        text(&out.stdout)
    );
}
