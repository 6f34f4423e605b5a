//! End-to-end tests of the `gamebench` binary: judge mode, runs over a corpus tree with bad
//! files, determinism across thread counts, `--check`, exit codes, `gen` and `check`.
//! Expected outputs come from the statements' samples in `corpora/yut/` (not from the engines).

use std::path::PathBuf;
use std::process::Stdio;

use crate::common;
use common::{
    assert_exit, csv_table, files, game_folder, gamebench, root, run, run_stdin, signal,
    yut_samples,
};

fn sample(name: &str) -> Vec<u8> {
    std::fs::read(root().join("corpora/yut").join(name)).unwrap()
}

#[test]
fn solve_reproduces_the_yut_samples_with_every_engine() {
    for engine in ["reference", "table"] {
        for n in [1, 2] {
            let input = sample(&format!("yut-sample{n}.in"));
            let out = run_stdin(&["solve", "yut", "--engine", engine], &input);
            assert_exit(&out, 0);
            assert_eq!(
                out.stdout,
                sample(&format!("yut-sample{n}.out")),
                "{engine} sample {n}"
            );
        }
    }
    // FILE argument instead of stdin.
    let path = root().join("corpora/yut/yut-sample2.in");
    let out = run(&["solve", "yut", path.to_str().unwrap()]);
    assert_eq!(out.stdout, sample("yut-sample2.out"));
}

#[test]
fn solve_reports_bad_input_with_its_line_and_exit_code_2() {
    let out = run_stdin(&["solve", "yut"], b"2\nA FFFF\nQ FFFF\n");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("<stdin>: case 1: line 3"), "{err}");
    assert!(out.stdout.is_empty());
    let unknown = run_stdin(&["solve", "nogame"], b"");
    assert_eq!(unknown.status.code(), Some(2));
    let engine = run_stdin(&["solve", "yut", "--engine", "nope"], b"1\nA FFFF\n");
    assert_eq!(engine.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&engine.stderr).contains("reference"));
}

/// A corpus tree: the two samples with their outputs, one malformed file (non-UTF-8 byte),
/// one truncated file and a file whose move names an escaped token.
fn corpus_tree() -> tempfile::TempDir {
    let dir = yut_samples();
    let yut = dir.path().join("yut");
    std::fs::create_dir_all(yut.join("sub")).unwrap();
    std::fs::write(yut.join("sub/bad.in"), b"3\nA FFFF\n\xff\xfe BBBB\n").unwrap();
    std::fs::write(yut.join("sub/short.in"), b"5\nA FFFF\n").unwrap();
    // A: START+5 = mo, +5 = sok-mo, +1 = chi-mo, +5 = cham-meoki, +1 = escaped, then moves again.
    std::fs::write(
        yut.join("sub/escaped.in"),
        b"6\nA BBBB\nA BBBB\nA FBBB\nA BBBB\nA FBBB\nA FFBB\n",
    )
    .unwrap();
    dir
}

#[test]
fn run_keeps_going_past_bad_files_and_reports_them() {
    let tree = corpus_tree();
    let csv = tree.path().join("r.csv");
    let out_dir = tree.path().join("out");
    let out = run(&[
        "run",
        tree.path().join("yut").to_str().unwrap(),
        "--check",
        "--csv",
        csv.to_str().unwrap(),
        "--out-dir",
        out_dir.to_str().unwrap(),
        "--progress",
        "none",
        "--problems",
        "none",
    ]);
    // Errors present: exit code 2.
    assert_exit(&out, 2);
    let rows = csv_table(&csv);
    let col = |name: &str| common::col(&rows[0], name);
    let (file, status, message) = (col("file"), col("status"), col("message"));
    let by_file = |suffix: &str| {
        rows[1..]
            .iter()
            .find(|r| r[file].ends_with(suffix))
            .unwrap()
            .clone()
    };
    assert_eq!(rows.len(), 1 + 5);
    for ok in ["s1.in", "s2.in"] {
        assert_eq!(by_file(ok)[status], "ok");
    }
    let bad = by_file("bad.in");
    assert_eq!(bad[status], "error");
    assert!(
        bad[message].contains("bad.in: case 1: line 3"),
        "{}",
        bad[message]
    );
    let short = by_file("short.in");
    assert!(short[message].contains("line 3"), "{}", short[message]);
    let escaped = by_file("escaped.in");
    assert_eq!(escaped[status], "error");
    assert!(
        escaped[message].contains("line 7") && escaped[message].contains("escaped"),
        "{}",
        escaped[message]
    );
    // The good files' outputs were written, mirroring the tree; no temporary files remain.
    assert_eq!(
        std::fs::read(out_dir.join("s1.out")).unwrap(),
        sample("yut-sample1.out")
    );
    assert_eq!(
        std::fs::read(out_dir.join("s2.out")).unwrap(),
        sample("yut-sample2.out")
    );
    let leftovers: Vec<_> = files(&out_dir)
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // The summary is on stdout.
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(
        summary.contains("yut") && summary.contains("table"),
        "{summary}"
    );
}

#[test]
fn check_catches_a_wrong_expected_output_and_exits_1() {
    let (_tree, yut) = game_folder("yut");
    std::fs::write(yut.join("x.in"), sample("yut-sample2.in")).unwrap();
    // The expected output with one token moved: row 1 says `C.` at duet-gae; make it `.C`.
    let wrong = String::from_utf8(sample("yut-sample2.out"))
        .unwrap()
        .replacen("C.", ".C", 1);
    std::fs::write(yut.join("x.out"), wrong).unwrap();
    let out = run(&["run", yut.to_str().unwrap(), "--check", "--engine", "all"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("mismatch") && err.contains("line 2"), "{err}");
}

#[test]
fn one_and_two_threads_give_the_same_outputs_and_csv() {
    let work = tempfile::tempdir().unwrap();
    let corpus = work.path().join("yut");
    let out = run(&[
        "gen",
        "yut",
        "--profile",
        "random",
        "--seed",
        "9",
        "--count",
        "60",
        "--out",
        corpus.to_str().unwrap(),
    ]);
    assert_exit(&out, 0);
    let mut results = Vec::new();
    for jobs in ["1", "2"] {
        let csv = work.path().join(format!("j{jobs}.csv"));
        let dir = work.path().join(format!("out{jobs}"));
        let out = run(&[
            "run",
            corpus.to_str().unwrap(),
            "-j",
            jobs,
            "--engine",
            "all",
            "--check",
            "--quiet",
            "--csv",
            csv.to_str().unwrap(),
            "--out-dir",
            dir.to_str().unwrap(),
        ]);
        assert_exit(&out, 0);
        let mut rows = csv_table(&csv);
        // Measurements: the time, and whether a case was short enough to be timed by
        // repetition (and how many calls a batch took).
        let measured: Vec<usize> = ["time_ns", "timing", "repeats"]
            .iter()
            .map(|c| common::col(&rows[0], c))
            .collect();
        for row in &mut rows[1..] {
            for &c in &measured {
                row[c].clear();
            }
        }
        let files: Vec<(PathBuf, Vec<u8>)> = files(&dir)
            .into_iter()
            .map(|p| {
                (
                    p.strip_prefix(&dir).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                )
            })
            .collect();
        results.push((rows, files));
    }
    assert_eq!(results[0].0.len(), 1 + 120);
    assert_eq!(results[0].1.len(), 120, "one output per file and engine");
    assert_eq!(results[0], results[1]);
}

#[test]
fn gen_is_deterministic_and_writes_expected_outputs() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    for dir in [&a, &b] {
        let out = run(&[
            "gen",
            "yut",
            "-p",
            "long",
            "-s",
            "3",
            "-n",
            "12",
            "-o",
            dir.path().to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0));
    }
    let (fa, fb) = (files(a.path()), files(b.path()));
    assert_eq!(fa.len(), 24);
    assert!(fa[0].ends_with("yut-long-3-00.in"), "{:?}", fa[0]);
    for (x, y) in fa.iter().zip(&fb) {
        assert_eq!(std::fs::read(x).unwrap(), std::fs::read(y).unwrap());
    }
    let bad = run(&["gen", "yut", "-p", "nope", "-o", a.path().to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("shortcut"));
}

#[test]
fn gen_lists_the_registered_games_and_takes_only_a_game_s_own_options() {
    let help = run(&["gen", "--help"]);
    assert_eq!(help.status.code(), Some(0));
    let text = String::from_utf8_lossy(&help.stdout);
    for game in gamebench::registry::GAMES {
        assert!(
            text.contains(game.name()) && text.contains(game.title()),
            "{text}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    // `--size` belongs to the board games, not to Yut.
    let bad = run(&["gen", "yut", "--size", "3x3", "-o", out]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--size"));
    assert!(files(dir.path()).is_empty(), "nothing written");
}

#[test]
fn check_command_accepts_the_sample_and_rejects_a_wrong_board() {
    let input = root().join("corpora/yut/yut-sample2.in");
    let good = root().join("corpora/yut/yut-sample2.out");
    let out = run(&[
        "check",
        "yut",
        input.to_str().unwrap(),
        good.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 passed, 0 failed"));
    let dir = tempfile::tempdir().unwrap();
    let wrong = dir.path().join("w.out");
    std::fs::write(&wrong, sample("yut-sample1.out")).unwrap();
    let out = run(&[
        "check",
        "yut",
        input.to_str().unwrap(),
        wrong.to_str().unwrap(),
        "--expected",
        good.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("0 passed, 1 failed"));
}

#[test]
fn an_external_engine_that_is_correct_gets_ok_rows_timed_per_file() {
    let dir = yut_samples();
    let csv = dir.path().join("r.csv");
    let me = env!("CARGO_BIN_EXE_gamebench");
    let engine = format!("mine=cmd:{me} solve yut");
    let out = run(&[
        "run",
        dir.path().join("yut").to_str().unwrap(),
        "--check",
        "-e",
        "reference",
        "-e",
        &engine,
        "--csv",
        csv.to_str().unwrap(),
        "--progress",
        "none",
        "--problems",
        "none",
    ]);
    assert_exit(&out, 0);
    let rows = csv_table(&csv);
    let col = |name: &str| common::col(&rows[0], name);
    let mine: Vec<&Vec<String>> = rows[1..]
        .iter()
        .filter(|r| r[col("engine")] == "mine")
        .collect();
    assert_eq!(mine.len(), 2);
    assert!(
        mine.iter()
            .all(|r| r[col("status")] == "ok" && r[col("timing")] == "file")
    );
    // A speed, or (when a loaded machine made the calibrated start-up longer than the whole
    // run) the reason there is none: never a blank.
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(
        summary.contains("times slower than reference")
            || summary.contains("times faster than reference")
            || summary.contains("read 0 (within its start-up"),
        "{summary}"
    );
}

#[test]
fn a_wrong_external_engine_gets_mismatch_rows_and_exit_1_even_without_expected_files() {
    let dir = yut_samples();
    // `cat` prints the input back: never a board. First with the .out files...
    let out = run(&[
        "run",
        dir.path().join("yut").to_str().unwrap(),
        "--check",
        "-e",
        "cmd:cat",
        "--progress",
        "none",
        "--problems",
        "none",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("cmd:cat"));
    // ... then without: the disagreement with the reference engine is reported as such.
    for n in [1, 2] {
        std::fs::remove_file(dir.path().join(format!("yut/s{n}.out"))).unwrap();
    }
    let out = run(&[
        "run",
        dir.path().join("yut").to_str().unwrap(),
        "-e",
        "reference",
        "-e",
        "cmd:cat",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("s1.in: case 1: cmd:cat disagrees with reference: line 1"),
        "{err}"
    );
}

#[test]
fn a_hanging_external_engine_is_stopped_by_the_timeout() {
    let dir = yut_samples();
    let start = std::time::Instant::now();
    let out = run(&[
        "run",
        dir.path().join("yut/s1.in").to_str().unwrap(),
        "-e",
        "cmd:sleep 60",
        "--timeout",
        "0.5",
        "--quiet",
        "--csv",
        "-",
    ]);
    assert!(start.elapsed() < std::time::Duration::from_secs(30));
    // A program killed at its time limit is a `timeout` (exit 1), like a judge's TLE.
    assert_eq!(out.status.code(), Some(1));
    let csv = String::from_utf8_lossy(&out.stdout);
    assert!(
        csv.contains(",timeout,") && csv.contains("timed out"),
        "{csv}"
    );
}

#[test]
fn exports_and_plot_are_written_and_bad_paths_fail_before_the_run() {
    let dir = yut_samples();
    let (json, md, svg) = (
        dir.path().join("s.json"),
        dir.path().join("s.md"),
        dir.path().join("p.svg"),
    );
    let out = run(&[
        "run",
        dir.path().join("yut").to_str().unwrap(),
        "-e",
        "all",
        "--runs",
        "3",
        "--warmup",
        "1",
        "--top",
        "1",
        "--export-json",
        json.to_str().unwrap(),
        "--export-markdown",
        md.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert_exit(&out, 0);
    let value: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(value["summary"][1]["engine"], "table");
    assert_eq!(value["summary"][1]["baseline"], "reference");
    assert_eq!(value["slowest"][0]["cases"].as_array().unwrap().len(), 1);
    assert!(
        std::fs::read_to_string(&md)
            .unwrap()
            .starts_with("| game | engine |")
    );
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    assert!(String::from_utf8_lossy(&out.stdout).contains("slowest cases of yut / table"));
    let bad = run(&[
        "run",
        dir.path().join("yut").to_str().unwrap(),
        "--export-json",
        "/nonexistent/dir/x.json",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("cannot create /nonexistent/dir/x.json"));
}

#[test]
fn levels_reports_each_pack_against_its_pars_and_exits_by_the_worst_level() {
    let dir = tempfile::tempdir().unwrap();
    // By hand: NEAR needs one push (the two A on a floor one cell apart), par says 2; FAR needs
    // its two B to fall and meet, more than one state of search.
    std::fs::write(
        dir.path().join("pack.in"),
        "3 5 NEAR\n#A-A#\n#####\n#####\n4 8 FAR\n#B----B#\n##----##\n##----##\n########\n0 0 END\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("pack.par"), "NEAR 2\nFAR 4\n").unwrap();
    let csv = dir.path().join("levels.csv");
    let dir_arg = dir.path().to_str().unwrap();
    let out = run(&[
        "levels",
        dir_arg,
        "-j",
        "1",
        "--quiet",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_exit(&out, 0);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("| pack | 2 | 2 | 0 |"), "{report}");
    assert!(
        report.contains("NEAR (pack): K = 1, par = 2 (below par)"),
        "{report}"
    );
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert!(
        rows.contains("pack,1,NEAR,3x5,minimal,1,2,below,"),
        "{rows}"
    );
    // A budget too small for FAR: exit 1, and the level is listed as unproven.
    let out = run(&["levels", dir_arg, "--max-states", "1", "--quiet"]);
    assert_exit(&out, 1);
    assert!(String::from_utf8_lossy(&out.stdout).contains("FAR (pack): budget"));
    // No packs there: a usage error.
    let empty = tempfile::tempdir().unwrap();
    let out = run(&["levels", empty.path().to_str().unwrap()]);
    assert_exit(&out, 2);
}

/// `levels` stopped by SIGINT after its first level: exit 130, the level being solved stops
/// as `budget` with its bound, the report and the CSV cover the levels finished or stopped,
/// and a CSV that was there before the run is left as it was (the rows go beside it, to
/// `<csv>.interrupted`).
#[cfg(unix)]
#[test]
fn an_interrupted_levels_run_reports_and_keeps_the_finished_levels() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    // 24 puzzles on which the reference search takes a noticeable time each.
    let pack =
        std::fs::read_to_string(root().join("corpora/vexed/hard/vexed-hard-1-0.in")).unwrap();
    let names: Vec<&str> = pack
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2))
        .filter(|name| name.starts_with("HARD-"))
        .collect();
    assert_eq!(names.len(), 24);
    std::fs::write(dir.path().join("hard.in"), &pack).unwrap();
    let pars: String = names.iter().map(|n| format!("{n} 11\n")).collect();
    std::fs::write(dir.path().join("hard.par"), pars).unwrap();
    let csv = dir.path().join("levels.csv");
    for earlier in [None, Some("pack,index\n")] {
        if let Some(text) = earlier {
            std::fs::write(&csv, text).unwrap();
        }
        let mut child = gamebench()
            .args(["levels", dir.path().to_str().unwrap(), "-e", "reference"])
            .args(["-j", "1", "--csv", csv.to_str().unwrap()])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut first = String::new();
        stderr.read_line(&mut first).unwrap();
        assert!(first.starts_with("[1] hard HARD-"), "{first}");
        signal(&child, "-INT");
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(130), "{rest}");
        assert!(rest.contains("gamebench: interrupted after"), "{rest}");
        let written = match earlier {
            None => csv.clone(),
            Some(text) => {
                assert_eq!(std::fs::read_to_string(&csv).unwrap(), text);
                dir.path().join("levels.csv.interrupted")
            }
        };
        let rows = std::fs::read_to_string(&written).unwrap();
        let mut reader = csv::Reader::from_reader(rows.as_bytes());
        let header = reader.headers().unwrap().clone();
        let column = |name: &str| header.iter().position(|h| h == name).unwrap();
        let (status, at_least) = (column("status"), column("at_least"));
        let records: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
        let finished = records.len();
        assert!((1..24).contains(&finished), "{finished} rows: {rows}");
        // The level being solved when the signal came (one at a time: `-j 1`) stops at once
        // as `budget`, with the bound it had proven; the others were solved.
        let stopped: Vec<&csv::StringRecord> =
            records.iter().filter(|r| &r[status] != "minimal").collect();
        assert!(stopped.len() <= 1, "{rows}");
        for row in &stopped {
            assert_eq!(&row[status], "budget", "{rows}");
            assert!(row[at_least].parse::<u32>().is_ok(), "{rows}");
        }
        // The report's table counts exactly the levels in the CSV.
        let report = String::from_utf8_lossy(&out.stdout);
        assert!(
            report.contains(&format!(
                "| hard | {finished} | {} | {} |",
                finished - stopped.len(),
                stopped.len()
            )),
            "{report}"
        );
        std::fs::remove_file(&csv).ok();
    }
}
