//! `invoke`'s times as a setter reads them: on the clock of the limit (CPU time under
//! `--cpu-limit`, else wall time), shares of that limit, a killed run counted as at least the
//! limit, a whole file's run shared evenly by its cases (said, and kept whole for the limits),
//! one process per case under `--case-timeout`, and JUnit times that add up to the runs'.
//!
//! The solution is a small Python program written here: it burns a given CPU time (measured by
//! `time.process_time`, so the load of the machine does not change it) once per run, then
//! answers the three Link and Pop cases of the tests from a table (the answers derived by hand
//! in `invoke.rs`'s docs: `AS BS AS AS` -> `AB..`, `AS AS` -> `..`, `AS BS AS` -> `.B.`).

use std::path::{Path, PathBuf};

use crate::common;
use common::{assert_exit, s, text};

/// The program: `python3 burn.py SECONDS` burns SECONDS of CPU time, then answers.
const BURN: &str = r#"import sys, time
start = time.process_time()
while time.process_time() - start < float(sys.argv[1]):
    pass
answers = {"AS BS AS AS": "AB..", "AS AS": "..", "AS BS AS": ".B."}
lines = sys.stdin.read().split("\n")
out, at, k = [], 0, 0
while True:
    rows = int(lines[at].split()[0])
    if rows == 0:
        break
    k += 1
    out.append("Case %d" % k)
    out.append(answers[lines[at + 1]])
    at += 1 + rows
print("\n".join(out))
"#;

/// CPU time each run of the accepted program burns, s: more than half of [`CPU_LIMIT`] (a
/// warning), well under it with Python's start-up.
const BURN_SECONDS: f64 = 0.6;
/// `--cpu-limit` of the runs, s.
const CPU_LIMIT: &str = "1";
/// `--timeout` (wall) of the CPU-limited runs, s: far above the CPU limit, so that a loaded
/// machine never kills the program by the wall (the limit the times are shares of stays the
/// CPU limit).
const WALL_BACKSTOP: &str = "60";

/// `linkpop/a.in` (two cases) and `linkpop/b.in` (one) with their `.out`, and the program.
fn problem() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let (dir, folder) = common::game_folder("linkpop");
    for (name, content) in [
        ("a.in", "1 4\nAS BS AS AS\n1 2\nAS AS\n0 0\n"),
        ("a.out", "Case 1\nAB..\nCase 2\n..\n"),
        ("b.in", "1 3\nAS BS AS\n0 0\n"),
        ("b.out", "Case 1\n.B.\n"),
    ] {
        std::fs::write(folder.join(name), content).unwrap();
    }
    let program = dir.path().join("burn.py");
    std::fs::write(&program, BURN).unwrap();
    (dir, folder, program)
}

/// `burn=cmd:python3 PROGRAM SECONDS`.
fn burn(program: &Path, seconds: f64) -> String {
    format!("burn=cmd:python3 {} {seconds}", program.display())
}

/// The CSV's rows of solution `solution` as (test, time_ms, run_ms, run_cases, clock).
fn times(csv: &Path, solution: &str) -> Vec<(String, f64, f64, usize, String)> {
    let ms = |t: &str| t.parse::<f64>().unwrap_or(f64::NAN);
    common::columns(
        csv,
        &[
            "test",
            "solution",
            "time_ms",
            "run_ms",
            "run_cases",
            "clock",
        ],
    )
    .into_iter()
    .filter(|r| r[1] == solution)
    .map(|r| {
        (
            r[0].clone(),
            ms(&r[2]),
            ms(&r[3]),
            r[4].parse().unwrap(),
            r[5].clone(),
        )
    })
    .collect()
}

/// The row of the terminal table starting with `label`, split into words.
fn row<'a>(stdout: &'a str, label: &str) -> Vec<&'a str> {
    stdout
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no row {label:?}: {stdout}"))
        .split_whitespace()
        .collect()
}

/// `time="X"` of the `<testsuite name="NAME" ...>` line, s.
fn suite_time(xml: &str, name: &str) -> f64 {
    let line = xml
        .lines()
        .find(|l| l.contains(&format!("<testsuite name=\"{name}\"")))
        .unwrap_or_else(|| panic!("no suite {name}: {xml}"));
    let at = line.find("time=\"").unwrap() + "time=\"".len();
    line[at..].split('"').next().unwrap().parse().unwrap()
}

/// Under `--cpu-limit 1`: CPU times, shares of the CPU limit (not of the wall limit of
/// 3 x 1 + 1 s), the half-limit warning; a.in's two cases share its one run (`~`, run_cases 2,
/// each half the run); JUnit's suite time is the two runs' time, not a.in's run counted twice.
#[test]
fn cpu_limit_times_are_cpu_shares_of_it_and_a_shared_run_is_split() {
    let (dir, tests, program) = problem();
    let csv = dir.path().join("t.csv");
    let junit = dir.path().join("t.xml");
    let out = common::run(&[
        "invoke",
        s(&tests),
        "-e",
        &burn(&program, BURN_SECONDS),
        "--expect",
        "burn=accepted",
        "--cpu-limit",
        CPU_LIMIT,
        "--timeout",
        WALL_BACKSTOP,
        "-j",
        "1",
        "--csv",
        s(&csv),
        "--junit",
        s(&junit),
    ]);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("times: CPU time against the CPU limit of 1.00s"),
        "{stdout}"
    );
    let rows = times(&csv, "burn");
    assert_eq!(rows.len(), 3, "{rows:?}");
    let (a1, a2, b) = (&rows[0], &rows[1], &rows[2]);
    assert_eq!(
        (a1.0.as_str(), a2.0.as_str(), b.0.as_str()),
        ("a.in#1", "a.in#2", "b.in")
    );
    for r in &rows {
        assert_eq!(r.4, "cpu", "{r:?}");
        // CPU time burnt by the program, plus Python's start-up, under the limit.
        assert!(
            r.2 >= BURN_SECONDS * 1000.0 && r.2 < 1000.0,
            "a run of {} ms: {r:?}",
            r.2
        );
    }
    // a.in's one run shared by its two cases, each half of it; b.in's its own.
    assert_eq!((a1.3, a2.3, b.3), (2, 2, 1));
    assert_eq!(a1.2, a2.2);
    for a in [a1, a2] {
        assert!((a.1 * 2.0 - a.2).abs() < 0.01, "{a:?}");
    }
    assert_eq!(b.1, b.2);
    // The cells say the share: `~`, and the legend under the table.
    let a_row = row(&stdout, "a.in#1");
    assert!(a_row[2].starts_with('~'), "{a_row:?}");
    assert!(!row(&stdout, "b.in")[2].starts_with('~'), "{stdout}");
    assert!(
        stdout.contains("\n~: a program run once on a whole file"),
        "{stdout}"
    );
    // Worst and of limit: the slowest run (a whole run, not a share), against 1 s of CPU.
    let worst_run = a1.2.max(b.2);
    let share: f64 = row(&stdout, "of limit")[2]
        .trim_end_matches('%')
        .parse()
        .unwrap();
    assert!(
        (share - worst_run / 10.0).abs() <= 1.0,
        "{share}% for a worst run of {worst_run} ms of 1 s: {stdout}"
    );
    assert!(share >= BURN_SECONDS * 100.0, "{stdout}");
    assert!(
        stdout.contains("warning: solution burn (tagged accepted) takes")
            && stdout.contains("more than half the time limit of 1.00 s (CPU time)"),
        "{stdout}"
    );
    // JUnit: the suite's time is a.in's run and b.in's run, each once.
    let xml = std::fs::read_to_string(&junit).unwrap();
    let suite = suite_time(&xml, "burn");
    assert!(
        (suite * 1000.0 - (a1.2 + b.2)).abs() < 1.0,
        "suite {suite} s for runs of {} + {} ms: {xml}",
        a1.2,
        b.2
    );
}

/// Without a CPU limit the times are wall times, shares of the wall limit (`--timeout`).
#[test]
fn without_a_cpu_limit_times_are_wall_shares_of_the_timeout() {
    let (dir, tests, program) = problem();
    let csv = dir.path().join("t.csv");
    let out = common::run(&[
        "invoke",
        s(&tests),
        "-e",
        &burn(&program, 0.0),
        "--expect",
        "burn=accepted",
        "--timeout",
        "30",
        "--csv",
        s(&csv),
    ]);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("times: wall time against the time limit of 30.00s"),
        "{stdout}"
    );
    assert!(times(&csv, "burn").iter().all(|r| r.4 == "wall"));
    assert!(!stdout.contains("more than half"), "{stdout}");
}

/// A run killed at the CPU limit: no time in its cells, `>=` the limit as the worst time and
/// `>=100%` as its share; the accepted solution beside it keeps its own worst.
#[test]
fn a_killed_run_is_at_least_the_limit() {
    let (dir, tests, program) = problem();
    let csv = dir.path().join("t.csv");
    let out = common::run(&[
        "invoke",
        s(&tests),
        "-e",
        &burn(&program, 0.0),
        "-e",
        "loop=cmd:python3 -c 'while True: pass'",
        "--expect",
        "burn=accepted",
        "--expect",
        "loop=time-limit",
        "--cpu-limit",
        "0.5",
        "--csv",
        s(&csv),
    ]);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    let worst = row(&stdout, "worst");
    assert_eq!(worst.len(), 3, "{stdout}");
    assert_eq!(worst[2], ">=500ms", "{stdout}");
    assert_ne!(worst[1].chars().next(), Some('>'), "{stdout}");
    assert_eq!(row(&stdout, "of limit")[3], ">=100%", "{stdout}");
    for r in times(&csv, "loop") {
        assert!(
            r.1.is_nan() && r.2.is_nan(),
            "a killed run has no time: {r:?}"
        );
    }
}

/// Under `--case-timeout` each case is a process of its own: its own CPU time, no share.
#[test]
fn per_case_limits_run_one_process_per_case() {
    let (dir, tests, program) = problem();
    let csv = dir.path().join("t.csv");
    let out = common::run(&[
        "invoke",
        s(&tests),
        "-e",
        &burn(&program, BURN_SECONDS),
        "--expect",
        "burn=accepted",
        "--cpu-limit",
        CPU_LIMIT,
        "--timeout",
        WALL_BACKSTOP,
        "--case-timeout",
        WALL_BACKSTOP,
        "--csv",
        s(&csv),
    ]);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    for r in times(&csv, "burn") {
        assert_eq!(r.3, 1, "{r:?}");
        assert_eq!(r.1, r.2, "{r:?}");
        assert!(
            r.1 >= BURN_SECONDS * 1000.0,
            "each case burnt its own: {r:?}"
        );
    }
    assert!(!stdout.contains("~:"), "{stdout}");
}

/// `run --junit`: a program's time on a whole file is on each of its case's rows in the CSV
/// (timing `file`); in JUnit each case gets its even share, so the suite's time is the runs'.
#[test]
fn run_junit_shares_a_file_run_among_its_cases() {
    let (dir, tests, program) = problem();
    let csv = dir.path().join("r.csv");
    let junit = dir.path().join("r.xml");
    let out = common::run(&[
        "run",
        s(&tests),
        "-e",
        &burn(&program, 0.2),
        "--check",
        "--quiet",
        "--csv",
        s(&csv),
        "--junit",
        s(&junit),
    ]);
    assert_exit(&out, 0);
    let rows = common::columns(&csv, &["file", "timing", "time_ns"]);
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert!(rows.iter().all(|r| r[1] == "file"), "{rows:?}");
    // One time per file: a.in's two rows carry the same run.
    let mut runs: Vec<(String, f64)> = rows
        .iter()
        .map(|r| (r[0].clone(), r[2].parse::<f64>().unwrap() / 1e9))
        .collect();
    runs.dedup();
    assert_eq!(runs.len(), 2, "{rows:?}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    let suite = suite_time(&xml, "linkpop/burn");
    let total: f64 = runs.iter().map(|(_, t)| t).sum();
    assert!(
        (suite - total).abs() < 1e-4,
        "suite {suite} s for runs {runs:?}: {xml}"
    );
}
