//! Journals that say what they drop, and one run per results file: a torn line in the middle of
//! a journal drops that line alone (with a warning naming it), not every later row; a second run
//! on the same CSV (and journal) stops at once, exit 2, naming the process that holds it; and
//! baselines saved whole or not at all (`run --save-baseline NEW` interrupted).

use crate::common;

use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::{assert_exit, gamebench, s, signal, text};

/// How long a test waits for a child to get somewhere before failing.
const PATIENCE: Duration = Duration::from_secs(60);

/// `DIR/yut/fNN.in`: `n` copies of the first Yut sample (one case each).
fn yut_files(dir: &Path, n: usize) {
    let yut = dir.join("yut");
    std::fs::create_dir_all(&yut).unwrap();
    for k in 0..n {
        std::fs::copy(
            common::root().join("corpora/yut/yut-sample1.in"),
            yut.join(format!("f{k:02}.in")),
        )
        .unwrap();
    }
}

/// An external engine that notes each file it solves in `log` and takes `seconds`.
fn logging_engine(log: &Path, seconds: &str) -> String {
    format!("slow=cmd:echo x >> {}; sleep {seconds}; cat", s(log))
}

fn spawn_run(corpus: &Path, csv: &Path, engine: &str) -> Child {
    gamebench()
        .args(["run", s(corpus), "--quiet", "-j", "1", "--resume"])
        .args(["--csv", s(csv), "-e", engine])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < PATIENCE, "waited too long for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits until `path` has not grown for a while (orphaned engine processes have finished).
fn settle(path: &Path) {
    const QUIET: Duration = Duration::from_millis(600);
    let start = Instant::now();
    let mut last = (lines(path), Instant::now());
    while last.1.elapsed() < QUIET {
        assert!(
            start.elapsed() < PATIENCE,
            "{} kept growing",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(50));
        let now = lines(path);
        if now != last.0 {
            last = (now, Instant::now());
        }
    }
}

fn lines(path: &Path) -> usize {
    std::fs::read(path).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count())
}

#[test]
fn a_torn_line_in_the_middle_of_a_journal_drops_that_line_alone() {
    const FILES: usize = 12;
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    yut_files(&corpus, FILES);
    let csv = dir.path().join("x.csv");
    let journal = dir.path().join("x.csv.partial");
    let log = dir.path().join("solved.log");
    let engine = logging_engine(&log, "0.1");
    // Killed once the journal holds the header and at least 7 chunks (one file each).
    let mut child = spawn_run(&corpus, &csv, &engine);
    wait_until("7 journaled files", || lines(&journal) >= 8);
    signal(&child, "-KILL");
    child.wait().unwrap();
    // The engine's shell outlives the killed run: one started just before the kill may note its
    // file in the log after this point, so count the log once it has stopped growing.
    settle(&log);
    let text_before = std::fs::read_to_string(&journal).unwrap();
    let mut journal_lines: Vec<String> = text_before.lines().map(str::to_string).collect();
    // Whole lines only (a line being written when killed is cut out here).
    if !text_before.ends_with('\n') {
        journal_lines.pop();
    }
    let chunks = journal_lines.len() - 1;
    assert!(chunks >= 7, "{chunks} chunks");
    // As found: line 3 torn in the middle (its end and newline lost, so it runs into line 4),
    // and a foreign line after line 5.
    let mut damaged = Vec::new();
    for (k, line) in journal_lines.iter().enumerate() {
        if k == 2 {
            damaged.extend_from_slice(&line.as_bytes()[..line.len() / 2]);
            continue;
        }
        damaged.extend_from_slice(line.as_bytes());
        damaged.push(b'\n');
        if k == 4 {
            damaged.extend_from_slice(b"not a journal line\n");
        }
    }
    std::fs::write(&journal, damaged).unwrap();
    let solved_before = lines(&log);
    let out = spawn_run(&corpus, &csv, &engine)
        .wait_with_output()
        .unwrap();
    assert_exit(&out, 0);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("line 3 dropped: begins with a chunk cut short")
            && stderr.contains("line 5 dropped: not a whole journal chunk"),
        "{stderr}"
    );
    // Only the torn chunk's file is solved again beside the files never journaled.
    let solved_again = lines(&log) - solved_before;
    assert_eq!(solved_again, FILES - (chunks - 1), "{stderr}");
    assert_eq!(common::column(&csv, "file").len(), FILES);
}

#[test]
fn a_second_run_on_one_csv_stops_naming_the_holder() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    yut_files(&corpus, 2);
    let csv = dir.path().join("x.csv");
    let log = dir.path().join("solved.log");
    let engine = logging_engine(&log, "2");
    let mut first = spawn_run(&corpus, &csv, &engine);
    wait_until("the first run's first file", || lines(&log) >= 1);
    let second = spawn_run(&corpus, &csv, &engine)
        .wait_with_output()
        .unwrap();
    assert_exit(&second, 2);
    let stderr = text(&second.stderr);
    assert!(
        stderr.contains(&format!("process {}", first.id())),
        "{stderr}"
    );
    assert_eq!(lines(&log), 1, "the second run solved nothing");
    // Through another name of the file (a link), the same lock.
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink(&csv, &link).unwrap();
    let third = gamebench()
        .args([
            "run",
            s(&corpus),
            "--quiet",
            "--csv",
            s(&link),
            "-e",
            &engine,
        ])
        .output()
        .unwrap();
    assert_exit(&third, 2);
    let first_out = {
        let status = first.wait().unwrap();
        assert!(status.success(), "{status}");
        first.stderr.take()
    };
    drop(first_out);
    assert_eq!(common::column(&csv, "file").len(), 2);
    assert!(
        !dir.path().join("x.csv.lock").exists(),
        "the lock file is removed"
    );
    // Free again: a run now works.
    let again = gamebench()
        .args(["run", s(&corpus), "--quiet", "--csv", s(&csv)])
        .output()
        .unwrap();
    assert_exit(&again, 0);
}

#[test]
fn an_interrupted_save_baseline_leaves_no_baseline_and_the_old_one_intact() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    yut_files(&corpus, 3);
    let baselines = dir.path().join("baselines");
    let log = dir.path().join("solved.log");
    let save = |engine: &str| {
        gamebench()
            .args(["run", s(&corpus), "--quiet", "-j", "1", "-e", engine])
            .args(["--save-baseline", "NEW", "--baseline-dir", s(&baselines)])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    // As found: interrupted before any baseline NEW existed, nothing is left to compare with.
    let child = save(&logging_engine(&log, "1"));
    wait_until("the first file", || lines(&log) >= 2);
    signal(&child, "-INT");
    let out = child.wait_with_output().unwrap();
    assert_exit(&out, 130);
    assert!(!baselines.join("NEW").exists(), "no baseline NEW");
    let left: Vec<_> = std::fs::read_dir(&baselines).unwrap().flatten().collect();
    assert!(left.is_empty(), "nothing left behind: {left:?}");
    let compare = gamebench()
        .args(["run", s(&corpus), "--quiet", "--compare", "NEW"])
        .args(["--baseline-dir", s(&baselines)])
        .output()
        .unwrap();
    assert_exit(&compare, 2);
    // A whole baseline, then an interrupted save of the same name: the old one stays whole.
    let out = save("table").wait_with_output().unwrap();
    assert_exit(&out, 0);
    let csv = baselines.join("NEW/results.csv");
    let meta = baselines.join("NEW/meta.json");
    let (csv_before, meta_before) = (std::fs::read(&csv).unwrap(), std::fs::read(&meta).unwrap());
    let solved = lines(&log);
    let child = save(&logging_engine(&log, "1"));
    wait_until("the first file", || lines(&log) >= solved + 2);
    signal(&child, "-INT");
    let out = child.wait_with_output().unwrap();
    assert_exit(&out, 130);
    assert_eq!(std::fs::read(&csv).unwrap(), csv_before);
    assert_eq!(std::fs::read(&meta).unwrap(), meta_before);
    let names: Vec<String> = std::fs::read_dir(&baselines)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["NEW"]);
    // And a completed save replaces it whole.
    let out = save("reference").wait_with_output().unwrap();
    assert_exit(&out, 0);
    assert_ne!(std::fs::read(&meta).unwrap(), meta_before);
}

/// Two files whose names are not UTF-8 and differ only there (`b\xff.in`, `b\xfe.in`) are two
/// files in the CSV (their bytes escaped as `\xFF`, `\xFE`), and `--resume` after a kill solves
/// only the one the journal lacks: neither is taken for the other.
#[test]
fn names_that_are_not_utf8_stay_two_files_across_a_resume() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    let yut = corpus.join("yut");
    std::fs::create_dir_all(&yut).unwrap();
    for byte in [0xff_u8, 0xfe] {
        let bytes = [b'b', byte, b'.', b'i', b'n'];
        let name = std::ffi::OsStr::from_bytes(&bytes);
        std::fs::copy(
            common::root().join("corpora/yut/yut-sample1.in"),
            yut.join(name),
        )
        .unwrap();
    }
    let csv = dir.path().join("x.csv");
    let journal = dir.path().join("x.csv.partial");
    let log = dir.path().join("solved.log");
    let engine = logging_engine(&log, "1");
    let mut child = spawn_run(&corpus, &csv, &engine);
    wait_until("the first file journaled", || lines(&journal) >= 2);
    signal(&child, "-KILL");
    child.wait().unwrap();
    settle(&log);
    let solved_before = lines(&log);
    let out = spawn_run(&corpus, &csv, &engine)
        .wait_with_output()
        .unwrap();
    assert_exit(&out, 0);
    assert_eq!(
        lines(&log) - solved_before,
        1,
        "only the file never journaled"
    );
    let mut files = common::column(&csv, "file");
    files.sort();
    assert_eq!(files, ["yut/b\\xFE.in", "yut/b\\xFF.in"]);
}
