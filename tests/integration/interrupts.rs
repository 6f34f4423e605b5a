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

/// A Link and Pop corpus of the samples and hand-made cases of `corpora/linkpop/` under
/// `dir/linkpop/`.
fn linkpop_samples(dir: &Path) {
    let folder = dir.join("linkpop");
    std::fs::create_dir_all(&folder).unwrap();
    for input in common::sample_inputs("linkpop") {
        std::fs::copy(&input, folder.join(input.file_name().unwrap())).unwrap();
    }
}

/// Whether any file in `dir` is a temporary file (`*.tmp`).
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

#[test]
fn an_interrupt_beside_a_slow_program_keeps_every_fast_result_and_resume_completes_the_rest() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = tmp.path().join("corpus");
    linkpop_samples(&corpus);
    // A program that waits until the flag exists, then answers as the reference does: it
    // finishes no case before the interrupt, and every case once resumed.
    let flag = tmp.path().join("go");
    let slow = format!(
        "slow=cmd:while [ ! -e '{}' ]; do sleep 0.1; done; '{}' solve linkpop -e reference",
        flag.display(),
        env!("CARGO_BIN_EXE_gamebench")
    );
    let csv = tmp.path().join("x.csv");
    let args = |csv: &Path| -> Vec<String> {
        [
            "run",
            s(&corpus),
            "-j",
            "8",
            "-e",
            "bitboard",
            "-e",
            &slow,
            "--csv",
            s(csv),
        ]
        .map(String::from)
        .to_vec()
    };
    let mut first = args(&csv);
    first.push("--resume".into());
    let child = gamebench()
        .args(&first)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Every bitboard case of these small files is solved long before this.
    std::thread::sleep(Duration::from_secs(4));
    signal(&child, "-INT");
    let out = child.wait_with_output().unwrap();
    common::assert_exit(&out, 130);
    assert!(
        temporaries(tmp.path()).is_empty(),
        "{:?}",
        temporaries(tmp.path())
    );
    // The reference's case count: every case of every file, each solved by bitboard.
    let alone = tmp.path().join("alone.csv");
    common::assert_exit(
        &common::run(&["run", s(&corpus), "-e", "bitboard", "--csv", s(&alone)]),
        0,
    );
    let cases = common::results(&alone).len();
    assert!(cases > 5, "{cases}");
    let interrupted = common::results(&csv);
    assert_eq!(
        interrupted.len(),
        cases,
        "every bitboard result is kept: {}",
        text(&out.stderr)
    );
    assert!(interrupted.iter().all(|r| r.engine == "bitboard"));
    assert!(
        interrupted.iter().all(|r| r
            .message
            .ends_with("partial case: not finished by slow (interrupted)")),
        "{interrupted:?}"
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!("the summary below covers the {cases} finished")),
        "{stderr}"
    );
    // Resumed: only the program's results are missing, and only they are solved (bitboard's
    // rows come back as they were, times included).
    std::fs::write(&flag, "").unwrap();
    let out = common::run(&first.iter().map(String::as_str).collect::<Vec<_>>());
    common::assert_exit(&out, 0);
    let resumed = common::results(&csv);
    assert_eq!(resumed.len(), 2 * cases, "{}", text(&out.stderr));
    let kept: Vec<_> = resumed.iter().filter(|r| r.engine == "bitboard").collect();
    for (before, after) in interrupted.iter().zip(&kept) {
        assert_eq!(
            (&before.file, before.case, before.time_ns),
            (&after.file, after.case, after.time_ns)
        );
    }
    assert!(resumed.iter().all(|r| !r.message.contains("partial case")));
    // The same run uninterrupted gives the same rows on the key columns.
    let whole = tmp.path().join("whole.csv");
    common::assert_exit(
        &common::run(&args(&whole).iter().map(String::as_str).collect::<Vec<_>>()),
        0,
    );
    let key = [
        "game", "engine", "file", "case", "run", "status", "digest", "verdict",
    ];
    assert_eq!(common::columns(&csv, &key), common::columns(&whole, &key));
    assert!(temporaries(tmp.path()).is_empty());
}

#[test]
fn a_complete_run_removes_a_stale_interrupted_csv() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = tmp.path().join("corpus");
    linkpop_samples(&corpus);
    let csv = tmp.path().join("x.csv");
    std::fs::write(&csv, "old").unwrap();
    let stale = tmp.path().join("x.csv.interrupted");
    std::fs::write(&stale, "game,engine\n").unwrap();
    let json = tmp.path().join("x.json");
    let stale_json = tmp.path().join("x.json.interrupted");
    std::fs::write(&stale_json, "{}").unwrap();
    let out = common::run(&[
        "run",
        s(&corpus),
        "--csv",
        s(&csv),
        "--export-json",
        s(&json),
    ]);
    common::assert_exit(&out, 0);
    assert!(!stale.exists() && !stale_json.exists());
    assert!(json.exists());
}

/// The key columns of a results CSV: what an interrupted and resumed run must give as an
/// uninterrupted one does (times aside).
const KEY_COLUMNS: [&str; 8] = [
    "game", "engine", "file", "case", "run", "status", "verdict", "digest",
];

/// `run CORPUS -j 8 -e bitboard -e PROGRAM --csv CSV [--check] [--resume]` as arguments.
fn beside_a_program(corpus: &Path, program: &str, csv: &Path, check: bool) -> Vec<String> {
    let mut args: Vec<String> = [
        "run",
        s(corpus),
        "-j",
        "8",
        "-e",
        "bitboard",
        "-e",
        program,
        "--csv",
        s(csv),
    ]
    .map(String::from)
    .to_vec();
    if check {
        args.push("--check".into());
    }
    args
}

/// The run of a fast engine beside a program that sleeps, then prints its input
/// (`cat`): interrupted once bitboard has finished, every bitboard result is kept; resumed,
/// only the program's are solved, and the case is judged whole with bitboard's kept output,
/// so the final CSV equals an uninterrupted run's on the key columns. By hand: a Link and Pop
/// input holds no `Case N` line, so the whole of `cat`'s output is the block of case 1 (where
/// it disagrees with bitboard, the baseline) and it prints no block for any later case (a wrong
/// answer, with nothing to compare bitboard with): every result of the program is a
/// `mismatch` (`wrong-answer`), and bitboard's is `ok` on case 1 and, with nothing else to
/// compare it with, `unchecked` on later cases, unless `--check` compared it with the expected
/// output (`ok`).
fn resumed_beside_a_sleeping_cat(check: bool) {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = tmp.path().join("corpus");
    linkpop_samples(&corpus);
    if check {
        for input in common::sample_inputs("linkpop") {
            let expected = input.with_extension("out");
            let name = expected.file_name().unwrap();
            std::fs::copy(&expected, corpus.join("linkpop").join(name)).unwrap();
        }
    }
    // The issue's `sleep 60; cat`, shortened: long enough for the interrupt to find no case of
    // the program finished, short enough for the resumed and the whole run.
    let program = "slow=cmd:sleep 8; cat";
    let csv = tmp.path().join("x.csv");
    // The uninterrupted run to compare with goes alongside: the program's runs sleep, so the
    // two runs share no more than a few milliseconds of CPU.
    let whole = tmp.path().join("whole.csv");
    let uninterrupted = gamebench()
        .args(beside_a_program(&corpus, program, &whole, check))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut args = beside_a_program(&corpus, program, &csv, check);
    args.push("--resume".into());
    let child = gamebench()
        .args(&args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Every bitboard case of these small files is solved long before this.
    std::thread::sleep(Duration::from_secs(3));
    signal(&child, "-INT");
    let out = child.wait_with_output().unwrap();
    common::assert_exit(&out, 130);
    let alone = tmp.path().join("alone.csv");
    common::assert_exit(
        &common::run(&["run", s(&corpus), "-e", "bitboard", "--csv", s(&alone)]),
        0,
    );
    let cases = common::results(&alone).len();
    assert!(cases > 5, "{cases}");
    let interrupted = common::results(&csv);
    assert_eq!(
        interrupted.len(),
        cases,
        "every bitboard result is kept: {}",
        text(&out.stderr)
    );
    assert!(interrupted.iter().all(|r| {
        r.engine == "bitboard"
            && r.message
                .ends_with("partial case: not finished by slow (interrupted)")
    }));
    // Resumed: only the program runs, and the case is judged whole.
    let out = common::run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    common::assert_exit(&out, 1);
    let resumed = common::results(&csv);
    assert_eq!(resumed.len(), 2 * cases, "{}", text(&out.stderr));
    let bitboard: Vec<_> = resumed.iter().filter(|r| r.engine == "bitboard").collect();
    for (before, after) in interrupted.iter().zip(&bitboard) {
        assert_eq!(
            (&before.file, before.case, before.time_ns, &before.digest),
            (&after.file, after.case, after.time_ns, &after.digest),
            "bitboard's results come back as they were, not solved again"
        );
    }
    for row in &resumed {
        let (status, verdict) = match (row.engine.as_str(), row.case) {
            ("bitboard", 1) => ("ok", ""),
            ("bitboard", _) if check => ("ok", ""),
            ("bitboard", _) => ("unchecked", ""),
            _ => ("mismatch", "wrong-answer"),
        };
        assert_eq!(row.status.as_str(), status, "{row:?}");
        assert_eq!(row.verdict.map_or("", |v| v.as_str()), verdict, "{row:?}");
        assert!(!row.message.contains("partial case"), "{row:?}");
    }
    common::assert_exit(&uninterrupted.wait_with_output().unwrap(), 1);
    assert_eq!(
        common::columns(&csv, &KEY_COLUMNS),
        common::columns(&whole, &KEY_COLUMNS)
    );
    assert!(temporaries(tmp.path()).is_empty());
}

#[test]
fn a_resumed_case_whose_outputs_differ_is_judged_as_an_uninterrupted_run_judges_it() {
    resumed_beside_a_sleeping_cat(false);
}

#[test]
fn a_resumed_case_whose_outputs_differ_is_judged_against_the_expected_output_too() {
    resumed_beside_a_sleeping_cat(true);
}
