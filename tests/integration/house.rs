//! End-to-end tests of what the house guarantees: the severity order of statuses as the CSV
//! and the exit code show it, results files that an unfinished run leaves intact, and the
//! completions and manual page generated from the CLI's own definitions.

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use crate::common;
use common::{assert_exit, columns, game_folder, gamebench, root, run, signal};

/// (status, message) of each row of a results CSV.
fn statuses(csv: &Path) -> Vec<(String, String)> {
    columns(csv, &["status", "message"])
        .into_iter()
        .map(|mut row| (row.remove(0), row.remove(0)))
        .collect()
}

/// `run INPUT -g vexed --check --max-states 1 --csv CSV`: every search stops at once.
fn run_with_one_state(input: &Path, csv: &Path) -> Output {
    let (input, csv) = (input.to_str().unwrap(), csv.to_str().unwrap());
    let args = ["run", input, "-g", "vexed", "--check", "--quiet"];
    run(&[&args[..], &["--max-states", "1", "--csv", csv]].concat())
}

#[test]
fn a_budget_stop_stays_budget_even_when_its_output_fails_the_check() {
    // One state is not enough for any of the sample's puzzles: each engine stops, prints
    // "Search budget exhausted", and that output differs from the expected solution. The
    // case is both `budget` and `mismatch`; `budget` is the more severe (see status.rs).
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("r.csv");
    let sample = root().join("corpora/vexed/sample.in");
    let out = run_with_one_state(&sample, &csv);
    assert_exit(&out, 1);
    let rows = statuses(&csv);
    assert!(!rows.is_empty());
    let budget: Vec<_> = rows.iter().filter(|(s, _)| s == "budget").collect();
    assert!(!budget.is_empty(), "{rows:?}");
    assert!(rows.iter().all(|(s, _)| s != "mismatch"), "{rows:?}");
    assert!(
        budget.iter().all(|(_, m)| m.contains("wrong-answer")),
        "the failed check is still told in the message: {rows:?}"
    );
    // Before that, what the stopped search had proven: at least one move, and never more
    // than the sample's minima (2 and 9 moves, from the statement).
    for ((_, message), most) in budget.iter().zip([2, 9]) {
        let least: u64 = message
            .strip_prefix("the search had proven a score of at least ")
            .and_then(|rest| rest.split(';').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no proven bound in {message:?}"));
        assert!((1..=most).contains(&least), "{message}");
    }
}

#[test]
fn an_unreadable_expected_output_makes_errors_that_outrank_budget_stops() {
    // With --check and no .out beside the input, every case is an error (exit 2), even those
    // the engine stopped by its budget.
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("p.in");
    std::fs::copy(root().join("corpora/vexed/sample.in"), &input).unwrap();
    let csv = dir.path().join("r.csv");
    let out = run_with_one_state(&input, &csv);
    assert_exit(&out, 2);
    let rows = statuses(&csv);
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|(s, _)| s == "error"), "{rows:?}");
}

#[test]
fn a_run_that_fails_leaves_an_existing_results_file_intact() {
    // The run stops on a bad export path only after the CSV is opened: the old CSV stays.
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("keep.csv");
    std::fs::write(&csv, "earlier results\n").unwrap();
    let out = run(&[
        "run",
        root().join("corpora/yut").to_str().unwrap(),
        "--quiet",
        "--csv",
        csv.to_str().unwrap(),
        "--export-json",
        "/nonexistent/dir/x.json",
    ]);
    assert_exit(&out, 2);
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), "earlier results\n");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 1, "no temporary file is left behind");

    // A run that completes replaces it.
    let out = run(&[
        "run",
        root().join("corpora/yut").to_str().unwrap(),
        "--quiet",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_exit(&out, 0);
    assert!(
        std::fs::read_to_string(&csv)
            .unwrap()
            .starts_with("game,engine,file")
    );
}

#[test]
fn completions_and_the_manual_page_come_from_the_cli() {
    let bash = run(&["completions", "bash"]);
    assert_eq!(bash.status.code(), Some(0));
    let text = String::from_utf8_lossy(&bash.stdout);
    assert!(
        text.contains("gamebench") && text.contains("--export-json"),
        "{text}"
    );
    // After -e, the engines of every game and `all` (cmd:... stays accepted: see cli::).
    let engine_words = text
        .lines()
        .skip_while(|l| !l.contains("--engine)"))
        .find(|l| l.contains("compgen -W"))
        .unwrap_or_else(|| panic!("no completion of -e:\n{text}"));
    for name in ["all", "reference", "table", "bitboard", "bitset"] {
        assert!(
            engine_words.split(['"', ' ']).any(|w| w == name),
            "{name} not offered after -e: {engine_words}"
        );
    }
    let man = run(&["man"]);
    assert_eq!(man.status.code(), Some(0));
    let text = String::from_utf8_lossy(&man.stdout);
    assert!(text.contains(".TH gamebench"), "{text}");
    assert!(text.contains("solve") && text.contains("merge"), "{text}");
}

/// A corpus folder (game taken from its name) holding the two Yut samples, which finish at
/// once, and, sorted after them, `extra` (a slow file) if given.
fn corpus_with(extra: Option<(&str, &str)>) -> tempfile::TempDir {
    let (dir, yut) = game_folder("yut");
    for name in ["yut-sample1", "yut-sample2"] {
        std::fs::copy(
            root().join(format!("corpora/yut/{name}.in")),
            yut.join(format!("a-{name}.in")),
        )
        .unwrap();
    }
    if let Some((game, relative)) = extra {
        // Under `zz/` so that it sorts after the Yut files.
        let folder = dir.path().join("zz").join(game);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::copy(root().join(relative), folder.join("z-slow.in")).unwrap();
    }
    dir
}

/// Rows of a CSV file (header excluded), as (file, case, engine, status).
fn rows(csv: &Path) -> Vec<Vec<String>> {
    columns(csv, &["file", "case", "engine", "status"])
}

/// A 30-case file on which the reference engine spends about a second per case (the hunted
/// worst file takes twice that: too slow for these timings).
const SLOW: (&str, &str) = (
    "linkpop",
    "corpora/linkpop/generated/moving/linkpop-moving-1-0.in",
);

#[test]
fn sigint_keeps_every_finished_case_and_never_touches_an_earlier_csv() {
    let corpus = corpus_with(Some(SLOW));
    let out = tempfile::tempdir().unwrap();
    let fresh = out.path().join("fresh.csv");
    let kept = out.path().join("kept.csv");
    std::fs::write(&kept, "earlier results\n").unwrap();
    for csv in [&fresh, &kept] {
        // The reference engine spends seconds on the 30 x 30 file; the Yut files before it
        // are done long before the signal.
        let child = gamebench()
            .args(["run", corpus.path().to_str().unwrap(), "-e", "reference"])
            .args(["-j", "1", "--quiet", "--csv", csv.to_str().unwrap()])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(1500));
        signal(&child, "-INT");
        let out = child.wait_with_output().unwrap();
        assert_exit(&out, 130);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("interrupted"), "{err}");
    }
    // A new results file holds every finished case, as valid CSV: the Yut files, then the
    // cases of the slow file finished before the signal, in case order (not all 30).
    let finished = |rows: &[Vec<String>]| {
        assert!(rows.len() >= 2 && rows.len() < 32, "{rows:?}");
        // One engine and no --check: solved, compared with nothing.
        assert!(rows.iter().all(|r| r[3] == "unchecked"), "{rows:?}");
        assert!(rows[..2].iter().all(|r| r[0].contains("yut")), "{rows:?}");
        let slow: Vec<usize> = rows[2..]
            .iter()
            .map(|r| {
                assert!(r[0].ends_with("z-slow.in"), "{r:?}");
                r[1].parse().unwrap()
            })
            .collect();
        assert!(slow.windows(2).all(|w| w[0] < w[1]), "{slow:?}");
    };
    let fresh_rows = rows(&fresh);
    finished(&fresh_rows);
    // An earlier one is left as it was; the finished rows go beside it.
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "earlier results\n");
    let aside = rows(&out.path().join("kept.csv.interrupted"));
    finished(&aside);
    assert_eq!(aside[..2], fresh_rows[..2]);
}

#[test]
fn a_killed_resumable_run_keeps_finished_cases_and_resuming_solves_each_case_once() {
    // 30 generated 20 x 20 moving boards, about a sixth of a second each for the reference
    // engine: slow enough for the kill to land inside the file, and the resumed run solves
    // the rest in seconds (the bundled 30 x 30 file took the whole run 45 s of CPU).
    let corpus = corpus_with(None);
    let slow = corpus.path().join("zz/linkpop");
    let out = run(&[
        "gen",
        "linkpop",
        "-p",
        "moving",
        "--size",
        "20x20",
        "--cases",
        "30",
        "-s",
        "1",
        "--no-expected",
        "-o",
        slow.to_str().unwrap(),
    ]);
    assert_exit(&out, 0);
    std::fs::rename(slow.join("linkpop-moving-1-0.in"), slow.join("z-slow.in")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let csv = out.path().join("r.csv");
    let args = |extra: &[&str]| {
        let mut command = gamebench();
        command
            .args(["run", corpus.path().to_str().unwrap(), "-e", "reference"])
            .args([
                "-j",
                "2",
                "--quiet",
                "--resume",
                "--csv",
                csv.to_str().unwrap(),
            ])
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        command
    };
    let mut child = args(&[]).spawn().unwrap();
    // Kill it as soon as the journal holds a case of the slow file (the run is still busy
    // with that file's other cases then), however loaded the machine is.
    let journal = out.path().join("r.csv.partial");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !std::fs::read_to_string(&journal).is_ok_and(|j| j.contains("z-slow.in")) {
        assert!(
            std::time::Instant::now() < deadline,
            "no case of the slow file was journaled"
        );
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    signal(&child, "-KILL");
    child.wait().unwrap();
    // The journal holds the cases finished before the kill, the slow file's among them.
    let journal = std::fs::read_to_string(&journal).unwrap();
    assert!(journal.contains("z-slow.in"), "{journal}");
    assert!(
        journal.lines().count() < 1 + 32,
        "the kill came before the end: {journal}"
    );
    let status = args(&[]).status().unwrap();
    assert_eq!(status.code(), Some(0));
    let resumed = rows(&csv);
    // 2 Yut games and 30 Link and Pop boards, each exactly once, in corpus order.
    assert_eq!(resumed.len(), 32, "{resumed:?}");
    let mut keys: Vec<_> = resumed
        .iter()
        .map(|r| (r[0].clone(), r[1].clone()))
        .collect();
    keys.dedup();
    assert_eq!(keys.len(), 32);
    let cases: Vec<usize> = resumed[2..].iter().map(|r| r[1].parse().unwrap()).collect();
    assert_eq!(cases, (1..=30).collect::<Vec<_>>());
    assert!(resumed.iter().all(|r| r[3] == "unchecked"), "{resumed:?}");
}

#[test]
fn a_file_without_cases_gets_a_row_that_says_so() {
    // A Link and Pop file holding only its terminator: a judge input with no case.
    let (dir, folder) = game_folder("linkpop");
    std::fs::write(folder.join("only-terminator.in"), "0 0\n").unwrap();
    let csv = dir.path().join("r.csv");
    let out = run(&[
        "run",
        dir.path().to_str().unwrap(),
        "--quiet",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_exit(&out, 2);
    let rows = statuses(&csv);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].0, "error");
    assert!(
        rows[0]
            .1
            .contains("only-terminator.in: case 1: the file holds no case"),
        "{rows:?}"
    );
}

#[test]
fn memory_stays_bounded_by_the_window_not_the_corpus() {
    // 16 SameGame throughput files (2,500 grids each, about 75 MB): the runner that kept every
    // parsed case and row peaked near 250 MB on such a corpus; the streaming one holds a window
    // of files. The limit leaves room for the allocator's arenas.
    const LIMIT_KIB: i64 = 200 * 1024;
    const FILES: usize = 16;
    // Exit 0, and the command's own peak (measured under GNU time, see `common::measured`)
    // below the limit.
    let finished_below_limit = |args: &[&str], what: &str| {
        let mut command = common::measured();
        command
            .args(args)
            .current_dir(root())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let (code, peak) = common::peak_of(command);
        assert_eq!(code, 0, "{what} exited with {code}");
        assert!(peak < LIMIT_KIB, "{what} peaked at {peak} KiB");
    };
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("samegame");
    finished_below_limit(
        &[
            "gen",
            "samegame",
            "-p",
            "throughput",
            "-s",
            "9",
            "--no-expected",
            "-o",
            corpus.to_str().unwrap(),
        ],
        "gen alone",
    );
    // One generated file (its grids cost the generator a millisecond each), copied: the
    // runner's memory depends on the files' sizes and count, not on their differences.
    let generated: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(generated.len(), 1, "{generated:?}");
    for k in 1..FILES {
        std::fs::copy(&generated[0], corpus.join(format!("copy-{k:02}.in"))).unwrap();
    }
    let csv = dir.path().join("r.csv");
    // --no-repeat: memory is under test, not timing; timing each short grid by repetition
    // would only add CPU time that competes with the timing-sensitive tests beside this one.
    finished_below_limit(
        &[
            "run",
            dir.path().to_str().unwrap(),
            "-j",
            "2",
            "--quiet",
            "--no-repeat",
            "--csv",
            csv.to_str().unwrap(),
        ],
        "run",
    );
    assert_eq!(statuses(&csv).len(), FILES * 2_500);
}
