//! A file of many tiny cases runs in bounded memory: its cases stream through the runner a
//! chunk at a time, and only a compact record of each stays once its row is written.

mod common;

use common::*;

/// 200,000 1x1 SameGame grids: the runner before streaming peaked at about 216 MB on this
/// file (a whole file's cases, slots and rows in memory at once); streamed, about 141 MB
/// (release builds; see benches/README.md).
const GRIDS: &str = "200000";
/// The bound on the child's peak resident memory, in KB.
const PEAK_KB: i64 = 180_000;

/// Runs `command` and returns its exit status and its peak resident memory (KB), from
/// `wait4`'s resource usage of the child alone.
fn peak_of(mut command: std::process::Command) -> (i32, i64) {
    // Reaped by wait4 below (its resource usage is the point).
    #[allow(clippy::zombie_processes)]
    let child = command.spawn().expect("gamebench starts");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid; wait4 writes it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: pid is our child, not waited for yet; status and usage are valid pointers.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4 on the child");
    (libc::WEXITSTATUS(status), usage.ru_maxrss)
}

#[test]
fn a_file_of_many_tiny_cases_runs_in_bounded_memory() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let out = run(&[
        "gen",
        "samegame",
        "--size",
        "1x1",
        "--cases",
        GRIDS,
        "--moves",
        "0-1",
        "--no-expected",
        "-o",
        s(dir.path()),
    ]);
    assert_exit(&out, 0);
    let input = inputs(dir.path()).pop().expect("the generated file");
    let csv = dir.path().join("r.csv");
    let mut command = gamebench();
    command
        .args([
            "run",
            s(&input),
            "-g",
            "samegame",
            "--no-repeat",
            "--quiet",
            "--csv",
        ])
        .arg(&csv)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let (code, peak_kb) = peak_of(command);
    assert_eq!(code, 0);
    assert_eq!(column(&csv, "case").len(), 200_000, "a row per grid");
    assert!(
        peak_kb < PEAK_KB,
        "peak resident memory {peak_kb} KB, over the bound of {PEAK_KB} KB"
    );
}
