//! External programs that misbehave (`tests/programs/`): each limit hit, a crash, a child that
//! keeps stdout open, a `setsid` escape, a 2 GB writer, programs of known memory use. Checked:
//! the status, the `verdict` column, the message, `memory_kb`, the time taken, and that no
//! process the program started is left. Every gamebench run is killed after a deadline, so a
//! test fails instead of hanging. C programs are compiled with `cc` (skipped without it).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::*;

/// What one gamebench run gave: its exit code, the CSV's rows as (status, verdict, message,
/// memory_kb), its wall time and its own peak resident memory (KiB).
struct Outcome {
    code: Option<i32>,
    rows: Vec<[String; 4]>,
    elapsed: Duration,
    own_peak_kb: u64,
}

/// `gamebench run yut-sample1.in -e g=cmd:COMMAND EXTRA... --csv`, killed after `deadline`;
/// its peak memory measured as [`common::peak_within`] does (under GNU time: a child's `wait4`
/// peak would include this test binary's, whatever the other tests hold at that moment).
fn run_program(command: &str, extra: &[&str], deadline: Duration) -> Outcome {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("r.csv");
    let input = root().join("corpora/yut/yut-sample1.in");
    let mut gamebench = measured();
    gamebench
        .args(["run", s(&input), "-q", "-e"])
        .arg(format!("g=cmd:{command}"))
        .args(extra)
        .arg("--csv")
        .arg(&csv)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let start = Instant::now();
    let (status, own_peak_kb) = peak_within(gamebench, Some(deadline))
        .unwrap_or_else(|| panic!("gamebench ran past {deadline:?} with `{command}`"));
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    let own_peak_kb = own_peak_kb as u64;
    let elapsed = start.elapsed();
    let rows = columns(&csv, &["status", "verdict", "message", "memory_kb"])
        .into_iter()
        .map(|r| [r[0].clone(), r[1].clone(), r[2].clone(), r[3].clone()])
        .collect();
    Outcome {
        code,
        rows,
        elapsed,
        own_peak_kb,
    }
}

fn programs() -> PathBuf {
    root().join("tests/programs")
}

/// `tests/programs/NAME.c` compiled into `dir`; `None` without a C compiler.
fn compiled(name: &str, dir: &Path) -> Option<PathBuf> {
    let out = dir.join(name);
    let ok = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&out)
        .arg(programs().join(format!("{name}.c")))
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("skipped: no C compiler (cc) for {name}.c");
    }
    ok.then_some(out)
}

/// Whether process `pid` still exists.
fn alive(pid: libc::pid_t) -> bool {
    // SAFETY: kill with signal 0 only checks.
    unsafe { libc::kill(pid, 0) == 0 }
}

fn pids_in(file: &Path) -> Vec<libc::pid_t> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|p| p.parse().ok())
        .collect()
}

fn one_row(out: &Outcome) -> &[String; 4] {
    assert_eq!(out.rows.len(), 1, "{:?}", out.rows);
    &out.rows[0]
}

#[test]
fn a_child_holding_stdout_is_killed_and_not_waited_for() {
    for mode in ["group", "setsid"] {
        let dir = tempfile::tempdir().unwrap();
        let pids = dir.path().join("pids");
        let command = format!("sh {} {} {mode}", s(&programs().join("hold.sh")), s(&pids));
        let out = run_program(&command, &["--timeout", "20"], Duration::from_secs(30));
        let row = one_row(&out);
        assert_eq!(row[0], "unchecked", "{mode}: {row:?}");
        assert!(!row[3].is_empty(), "{mode}: memory_kb is measured");
        assert!(
            out.elapsed < Duration::from_secs(5),
            "{mode}: waited {:?} for a background child",
            out.elapsed
        );
        let started = pids_in(&pids);
        assert_eq!(started.len(), 1, "{mode}");
        for pid in started {
            assert!(
                !alive(pid),
                "{mode}: the background `sleep` {pid} is left running"
            );
        }
    }
}

#[test]
fn a_wall_timeout_kills_everything_the_program_started() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let command = format!("setsid sleep 30 & echo $! > {}; sleep 30", s(&pids));
    let out = run_program(&command, &["--timeout", "1"], Duration::from_secs(20));
    let row = one_row(&out);
    assert_eq!(
        (row[0].as_str(), row[1].as_str()),
        ("timeout", "wall"),
        "{row:?}"
    );
    assert!(row[2].contains("timed out"), "{row:?}");
    assert!(out.elapsed < Duration::from_secs(5), "{:?}", out.elapsed);
    assert_eq!(out.code, Some(1));
    for pid in pids_in(&pids) {
        assert!(!alive(pid), "the setsid `sleep` {pid} is left running");
    }
}

#[test]
fn a_crash_is_a_runtime_error_naming_the_signal() {
    let dir = tempfile::tempdir().unwrap();
    let Some(segv) = compiled("segv", dir.path()) else {
        return;
    };
    for extra in [&[][..], &["-N"][..]] {
        let out = run_program(s(&segv), extra, Duration::from_secs(20));
        let row = one_row(&out);
        assert_eq!(row[0], "runtime-error", "{row:?}");
        assert!(row[2].contains("killed by signal 11 (SIGSEGV)"), "{row:?}");
        assert!(!row[3].is_empty(), "memory_kb is measured");
        assert_eq!(out.code, Some(1));
    }
    let out = run_program("exit 3", &[], Duration::from_secs(20));
    let row = one_row(&out);
    assert_eq!(row[0], "runtime-error", "{row:?}");
    assert!(row[2].contains("exited with code 3"), "{row:?}");
}

#[test]
fn an_infinite_loop_passes_the_cpu_limit() {
    let dir = tempfile::tempdir().unwrap();
    let spin = compiled("spin", dir.path())
        .map_or_else(|| "while :; do :; done".to_string(), |p| s(&p).to_string());
    let out = run_program(&spin, &["--cpu-limit", "1"], Duration::from_secs(20));
    let row = one_row(&out);
    assert_eq!(
        (row[0].as_str(), row[1].as_str()),
        ("timeout", "cpu"),
        "{row:?}"
    );
    // The verdict above is what tells a CPU limit from the wall limit (3 x 1 s + 1 s), which
    // would say `wall`; this bound only says the run did not hang. On a loaded machine a
    // spinning program gets its 1 s of CPU over several seconds of wall time.
    assert!(
        out.elapsed < Duration::from_secs(12),
        "the CPU limit of 1 s took {:?}",
        out.elapsed
    );
}

#[test]
fn memory_is_measured_and_limited() {
    let dir = tempfile::tempdir().unwrap();
    let alloc = match compiled("alloc", dir.path()) {
        Some(p) => s(&p).to_string(),
        None => format!("python3 {}", s(&programs().join("alloc.py"))),
    };
    // 200 MB touched under a 64 MB limit.
    let out = run_program(
        &format!("{alloc} 200"),
        &["--memory-limit", "64"],
        Duration::from_secs(30),
    );
    let row = one_row(&out);
    assert_eq!(row[0], "memory-limit", "{row:?}");
    assert!(row[2].contains("memory limit"), "{row:?}");
    // 20 MB: ok, its peak within 10% (the C runtime's own MB or two on top).
    let out = run_program(
        &format!("{alloc} 20"),
        &["--memory-limit", "64", "-N"],
        Duration::from_secs(30),
    );
    let row = one_row(&out);
    assert_eq!(row[0], "unchecked", "{row:?}");
    let kb: u64 = row[3].parse().expect("memory_kb is measured");
    if alloc.starts_with("python3") {
        assert!((20 << 10..=80 << 10).contains(&kb), "{kb} KiB");
    } else {
        let truth = (20 << 10) + 1024;
        assert!(
            kb.abs_diff(truth) * 10 <= truth,
            "measured {kb} KiB for a 20 MB program"
        );
    }
}

#[test]
fn a_2_gb_writer_is_stopped_at_the_output_limit() {
    let dir = tempfile::tempdir().unwrap();
    let writer = compiled("writer", dir.path())
        .map_or_else(|| "yes".to_string(), |p| format!("{} 2", s(&p)));
    let out = run_program(&writer, &["--output-limit", "16"], Duration::from_secs(30));
    let row = one_row(&out);
    assert_eq!(row[0], "output-limit", "{row:?}");
    assert!(row[2].contains("output limit"), "{row:?}");
    assert!(
        out.own_peak_kb < 200 << 10,
        "gamebench peaked at {} KiB",
        out.own_peak_kb
    );
    assert!(out.elapsed < Duration::from_secs(10), "{:?}", out.elapsed);
}

/// Memory judged as judges judge it, on resident memory: 1 GB touched in one `malloc` under a
/// 256 MB limit is `memory-limit` (not a failed allocation, a `runtime-error`); 2 GB reserved
/// and left untouched is fine.
#[test]
fn one_big_block_touched_is_memory_limit_and_reserved_alone_is_fine() {
    let dir = tempfile::tempdir().unwrap();
    let (Some(alloc), Some(reserve)) = (
        compiled("alloc", dir.path()),
        compiled("reserve", dir.path()),
    ) else {
        return;
    };
    let out = run_program(
        &format!("{} 1024", s(&alloc)),
        &["--memory-limit", "256"],
        Duration::from_secs(60),
    );
    let row = one_row(&out);
    assert_eq!(row[0], "memory-limit", "{row:?}");
    let out = run_program(
        &format!("{} 2048", s(&reserve)),
        &["--memory-limit", "256"],
        Duration::from_secs(60),
    );
    let row = one_row(&out);
    assert_eq!(row[0], "unchecked", "{row:?}");
    let kb: u64 = row[3].parse().expect("memory_kb is measured");
    assert!(kb < 64 << 10, "{kb} KiB resident for 2 GB reserved");
}

/// A JVM with a 64 MB thread stack (`java -Xss64m`, as deep-recursion solutions are run)
/// copying its input starts and passes under `--memory-limit 256`: its bulk reservations are
/// not resident memory. Skipped without `javac` and `java`.
#[test]
fn java_with_a_big_stack_passes_a_256_mb_limit() {
    let dir = tempfile::tempdir().unwrap();
    let compiled = Command::new("javac")
        .arg("-d")
        .arg(dir.path())
        .arg(programs().join("Copy.java"))
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !compiled {
        eprintln!("skipped: no javac/java");
        return;
    }
    let out = run_program(
        &format!("java -Xss64m -cp {} Copy", s(dir.path())),
        &["--memory-limit", "256"],
        Duration::from_secs(120),
    );
    let row = one_row(&out);
    assert_eq!(row[0], "unchecked", "{row:?}");
    let kb: u64 = row[3].parse().expect("memory_kb is measured");
    assert!(kb < 256 << 10, "{kb} KiB");
}
