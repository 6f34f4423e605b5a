//! What an interrupted `run` keeps: every case finished before the signal (also of a file that
//! did not finish), in (file, case, engine, run) order, under the CSV's header; a CSV closed
//! before any row still has its header; a signal during the last cases still exits 130.

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{gamebench, s, signal, text};

/// `run DIR -e reference -j 1 --csv CSV`, sent SIGINT after `after`; its output.
fn interrupted_run(dir: &Path, csv: &Path, after: Duration) -> std::process::Output {
    let child = gamebench()
        .args(["run", s(dir), "-e", "reference", "-j", "1", "--csv", s(csv)])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    signal(&child, "-INT");
    let start = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(start.elapsed() < Duration::from_secs(30), "the run stopped");
    out
}

#[test]
fn an_interrupt_keeps_every_finished_case_of_an_unfinished_file() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = tmp.path().join("corpus");
    common::slow_linkpop(&corpus, "30");
    let csv = tmp.path().join("new.csv");
    let out = interrupted_run(&corpus, &csv, Duration::from_secs(4));
    common::assert_exit(&out, 130);
    let written = std::fs::read_to_string(&csv).expect("the CSV is kept");
    let mut lines = written.lines();
    assert!(
        lines.next().unwrap().starts_with("game,engine,file,case"),
        "{written}"
    );
    let rows = common::results(&csv);
    assert!(
        !rows.is_empty(),
        "a few cases finished in 4 s: {}",
        text(&out.stderr)
    );
    assert!(rows.len() < 30, "the file did not finish");
    let cases: Vec<usize> = rows.iter().map(|r| r.case).collect();
    let mut sorted = cases.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(cases, sorted, "in case order, each once");
    assert!(rows.iter().all(|r| r.status.as_str() == "unchecked"));
}

#[test]
fn a_csv_closed_before_any_row_still_has_its_header() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = tmp.path().join("corpus");
    common::slow_linkpop(&corpus, "2");
    let csv = tmp.path().join("new.csv");
    let out = interrupted_run(&corpus, &csv, Duration::from_millis(300));
    common::assert_exit(&out, 130);
    let written = std::fs::read_to_string(&csv).expect("the CSV is kept");
    assert!(written.starts_with("game,engine,file,case"), "{written:?}");
}
