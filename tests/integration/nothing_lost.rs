//! The breaks of "Nothing lost, third round" that no other module tries as they were found:
//! an interrupted `--resume` run's summary over the rows it carried, the answer of testlib's
//! and Kattis's conventions as `/dev/zero`, a malformed input under testlib (a FAIL, named so),
//! `-j 0`, and the scratch folders of dead proof searches.

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{assert_exit, gamebench, run, run_from_root, s, signal, text};

/// The most a refused read may take, even on a loaded machine (an unbounded one ran for more
/// than a minute).
const PROMPT: Duration = Duration::from_secs(30);

/// A Link and Pop sample every test here reads.
const INPUT: &str = "corpora/linkpop/linkpop-sample.in";
const ANSWER: &str = "corpora/linkpop/linkpop-sample.out";

/// `args` run from the repository, promptly; its output.
fn prompt(args: &[&str]) -> std::process::Output {
    let start = Instant::now();
    let out = run_from_root(args);
    assert!(
        start.elapsed() < PROMPT,
        "{args:?} took {:?}",
        start.elapsed()
    );
    out
}

/// Runs `args` (with `--resume`) and sends SIGINT after `after`; its output, exit 130.
fn interrupted(args: &[String], after: Duration) -> std::process::Output {
    let child = gamebench()
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    signal(&child, "-INT");
    let out = child.wait_with_output().unwrap();
    assert_exit(&out, 130);
    out
}

/// As found: an interrupted `--resume` run whose journal held finished cases said "0 cases".
/// Now its summary and CSV cover the rows it carried; interrupted again, it journals nothing
/// twice (no duplicate is dropped later); a third attempt finishes the run as an
/// uninterrupted one would.
#[test]
fn an_interrupted_resume_covers_the_rows_it_carried() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = tmp.path().join("corpus");
    let folder = corpus.join("linkpop");
    std::fs::create_dir_all(&folder).unwrap();
    for input in common::sample_inputs("linkpop") {
        std::fs::copy(&input, folder.join(input.file_name().unwrap())).unwrap();
    }
    // A program that finishes nothing until the flag exists, then prints its input.
    let flag = tmp.path().join("go");
    let program = format!(
        "slow=cmd:while [ ! -e '{}' ]; do sleep 0.1; done; cat",
        flag.display()
    );
    let csv = tmp.path().join("x.csv");
    let args = |csv: &Path, resume: bool| -> Vec<String> {
        let mut args: Vec<String> = [
            "run",
            s(&corpus),
            "-j",
            "8",
            "-e",
            "bitboard",
            "-e",
            &program,
            "--csv",
            s(csv),
        ]
        .map(String::from)
        .to_vec();
        if resume {
            args.push("--resume".into());
        }
        args
    };
    interrupted(&args(&csv, true), Duration::from_secs(3));
    let first = common::results(&csv);
    let cases = first.len();
    assert!(cases > 5 && first.iter().all(|r| r.engine == "bitboard"));
    // Again: nothing new finishes, and everything carried is written and summed up.
    let out = interrupted(&args(&csv, true), Duration::from_secs(3));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!("the summary below covers the {cases} finished")),
        "{stderr}"
    );
    let second = common::results(&csv);
    let key = |r: &gamebench::results::Row| (r.file.clone(), r.case, r.engine.clone(), r.time_ns);
    assert_eq!(
        second.iter().map(key).collect::<Vec<_>>(),
        first.iter().map(key).collect::<Vec<_>>()
    );
    std::fs::write(&flag, "").unwrap();
    let out = run(&args(&csv, true)
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    assert_exit(&out, 1);
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("dropped"), "{stderr}");
    let whole = tmp.path().join("whole.csv");
    let out = run(&args(&whole, false)
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    assert_exit(&out, 1);
    let columns = [
        "game", "engine", "file", "case", "run", "status", "verdict", "digest",
    ];
    assert_eq!(
        common::columns(&csv, &columns),
        common::columns(&whole, &columns)
    );
}

/// As found: testlib's answer as `/dev/zero` read for a minute. Now a FAIL (3) naming the cap.
#[test]
fn a_testlib_answer_of_dev_zero_is_a_fail_naming_the_cap() {
    let out = prompt(&[
        "check",
        "linkpop",
        INPUT,
        ANSWER,
        "/dev/zero",
        "--exit-codes",
        "testlib",
    ]);
    assert_exit(&out, 3);
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("FAIL ") && stderr.contains("/dev/zero") && stderr.contains("MiB"),
        "{stderr}"
    );
}

/// As found: the Kattis judge answer as `/dev/zero` read for a minute. Now a judge error
/// (neither 42 nor 43) naming the cap, at once.
#[test]
fn a_kattis_answer_of_dev_zero_is_a_judge_error_naming_the_cap() {
    let feedback = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let out = common::run_stdin(
        &[
            "check",
            "linkpop",
            s(&common::root().join(INPUT)),
            "/dev/zero",
            s(feedback.path()),
            "--exit-codes",
            "kattis",
        ],
        &std::fs::read(common::root().join(ANSWER)).unwrap(),
    );
    assert!(start.elapsed() < PROMPT);
    let code = out.status.code();
    assert!(code != Some(42) && code != Some(43), "{code:?}");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("/dev/zero") && stderr.contains("MiB"),
        "{stderr}"
    );
}

/// As found: `check --exit-codes testlib` on a malformed input exited 3 without saying FAIL.
/// Now the case that cannot be read is told as testlib's FAIL, on stderr and in the result
/// file, whose outcome is `fail`.
#[test]
fn a_malformed_input_under_testlib_is_told_as_a_fail() {
    let dir = tempfile::tempdir().unwrap();
    // Case 1's first row has two blocks where its header says three.
    let sample = std::fs::read_to_string(common::root().join(INPUT)).unwrap();
    let mut lines: Vec<&str> = sample.lines().collect();
    lines[1] = "AD AU";
    let input = dir.path().join("bad.in");
    std::fs::write(&input, lines.join("\n") + "\n").unwrap();
    let answer = common::root().join(ANSWER);
    let result = dir.path().join("result.xml");
    let out = run(&[
        "check",
        "linkpop",
        s(&input),
        s(&answer),
        s(&answer),
        s(&result),
        "-appes",
        "--exit-codes",
        "testlib",
    ]);
    assert_exit(&out, 3);
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("FAIL ") && stderr.contains("case 1"),
        "{stderr}"
    );
    assert!(!text(&out.stdout).contains("wrong-answer"));
    let xml = std::fs::read_to_string(&result).unwrap();
    assert!(
        xml.contains("outcome = \"fail\"") && xml.contains("case 1: line 2"),
        "{xml}"
    );
}

/// As found: `run -j 0` reported "0 threads". Now 0 means every core, as everywhere.
#[test]
fn jobs_0_means_every_core() {
    let out = prompt(&["run", "corpora/yut", "-j", "0", "--progress", "none"]);
    assert_exit(&out, 0);
    let said = text(&out.stdout);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert!(
        said.contains(&format!("{cores} thread")) && !said.contains(" 0 thread"),
        "{said}"
    );
}

/// As found: `gamebench-sweep-<pid>-<n>` folders of a killed proof stayed forever. Now the
/// next proof search in the same folder removes those of processes that no longer run, with
/// a line saying so, and leaves a running process's alone.
#[test]
fn a_dead_process_s_scratch_folder_is_reclaimed_with_a_line() {
    let scratch = tempfile::tempdir().unwrap();
    let mut ended = std::process::Command::new("true").spawn().unwrap();
    let dead = ended.id();
    ended.wait().unwrap();
    let mut alive = std::process::Command::new("sleep")
        .arg("60")
        .spawn()
        .unwrap();
    let left = scratch.path().join(format!("gamebench-sweep-{dead}-0"));
    let running = scratch
        .path()
        .join(format!("gamebench-sweep-{}-0", alive.id()));
    for folder in [&left, &running] {
        std::fs::create_dir(folder).unwrap();
        std::fs::write(folder.join("bucket"), vec![0u8; 4096]).unwrap();
    }
    let out = prompt(&[
        "solve",
        "vexed",
        "corpora/vexed/sample.in",
        "--max-moves",
        "8",
        "--scratch",
        s(scratch.path()),
    ]);
    alive.kill().unwrap();
    alive.wait().unwrap();
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "removed the scratch folder {} left by process {dead}, which no longer runs",
            left.display()
        )),
        "{stderr}"
    );
    assert!(!left.exists() && running.exists());
}
