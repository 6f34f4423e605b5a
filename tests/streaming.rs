//! A file of many tiny cases runs in bounded memory: its cases stream through the runner a
//! chunk at a time, and the summary folds each case as its row is written (a time and a
//! status stay per case).

mod common;

use common::*;

/// 1,000,000 1x1 SameGame grids: a runner keeping a record of about 380 bytes per case for
/// the summary (before the tally) needs about 400 MB on this file (757 MB for 2,000,000);
/// with the tally, about 50 MB (release builds; see benches/README.md).
const GRIDS: usize = 1_000_000;
/// The bound on the child's peak resident memory, in KB.
const PEAK_KB: i64 = 100_000;

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
        &GRIDS.to_string(),
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
    // A row per grid, the last one the last grid's (the file is read as lines: a table of a
    // million rows of strings would cost the test itself a gigabyte).
    let text = std::fs::read_to_string(&csv).expect("the CSV");
    assert_eq!(
        text.lines().count(),
        GRIDS + 1,
        "a header and a row per grid"
    );
    let case = text.lines().last().and_then(|l| l.split(',').nth(3));
    assert_eq!(
        case,
        Some(GRIDS.to_string().as_str()),
        "the last row's case"
    );
    assert!(
        peak_kb < PEAK_KB,
        "peak resident memory {peak_kb} KB, over the bound of {PEAK_KB} KB"
    );
}

/// The files of the large-file table in benches/README.md, each run with `--no-repeat` and
/// with the default timing: prints peak memory and wall time, and checks the memory bounds
/// (run `cargo test --release --test streaming -- --ignored --nocapture`; minutes: the default
/// timing of two million sub-microsecond cases takes most of it).
#[test]
#[ignore = "long: generates 100 MB of files and runs them (see benches/README.md)"]
fn large_files_benchmark() {
    /// Peak resident memory allowed for `run --quiet --csv` on any of these files, in KB.
    const RUN_PEAK_KB: i64 = 100 * 1024;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let files: [(&str, &[&str]); 3] = [
        ("40k", &["--profile", "throughput", "--cases", "40000"]),
        (
            "300k",
            &["--size", "1x1", "--cases", "300000", "--moves", "0-1"],
        ),
        (
            "2M",
            &["--size", "1x1", "--cases", "2000000", "--moves", "0-1"],
        ),
    ];
    for (name, options) in files {
        let out_dir = dir.path().join(name);
        let mut args = vec!["gen", "samegame", "--count", "1", "--no-expected", "-o"];
        args.push(s(&out_dir));
        args.extend_from_slice(options);
        assert_exit(&run(&args), 0);
        let input = inputs(&out_dir).pop().expect("the generated file");
        for timing in [&["--no-repeat"][..], &[][..]] {
            let mut command = gamebench();
            command
                .args(["run", s(&input), "-g", "samegame", "--quiet", "--csv"])
                .arg(dir.path().join("x.csv"))
                .args(timing)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null());
            let start = std::time::Instant::now();
            let (code, peak_kb) = peak_of(command);
            println!(
                "{name} {timing:?}: {peak_kb} KB, {:.2} s",
                start.elapsed().as_secs_f64()
            );
            assert_eq!(code, 0);
            assert!(peak_kb < RUN_PEAK_KB, "{name}: {peak_kb} KB");
        }
    }
}
