//! What `stress` keeps and honours with real programs: a crash is shrunk to a case on which the
//! program still crashes and a wrong answer to one on which it still answers wrongly (not to a
//! smaller case showing another defect); `--time` bounds the whole command, generation and
//! slow engines included; SIGTERM ends the programs and writes what was found.
//!
//! The programs are small shell scripts written by the tests: each fails one way on inputs of
//! more than [`LINES`] lines and another way on smaller ones, so an oracle that took "some
//! difference" for the failure would slip to the smaller inputs.

use crate::common;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use gamebench::registry;

use common::{gamebench, s, signal, text};

/// The scripts fail one way above this many input lines, another way at or below it.
const LINES: usize = 6;
/// What a command may take past its `--time` (the report's last judging, a loaded machine).
const PAST_DEADLINE: Duration = Duration::from_secs(5);

/// Writes `body` as `name` in `dir`; the `cmd:` engine that runs it.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    format!("{name}=cmd:sh {}", s(&path))
}

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).unwrap().lines().count()
}

/// `sh SCRIPT < INPUT`: its exit code and output.
fn run_script(dir: &Path, name: &str, input: &Path) -> Output {
    Command::new("sh")
        .arg(dir.join(name))
        .stdin(std::fs::File::open(input).unwrap())
        .output()
        .unwrap()
}

fn stress_vexed(engine: &str, out: &Path) -> (Output, String) {
    let output = gamebench()
        .args(["stress", "vexed", "-e", "reference", "-e", engine])
        .args(["--profile", "easy", "--cases", "20", "-o", s(out)])
        .output()
        .unwrap();
    let report = std::fs::read_to_string(out.join("vexed/stress-1.txt")).unwrap_or_default();
    (output, report)
}

fn assert_valid(path: &Path) {
    let game = registry::find("vexed").unwrap();
    let bytes = std::fs::read(path).unwrap();
    let validation = game.validate(&bytes);
    assert!(
        validation.is_valid(),
        "{}: {:?}",
        path.display(),
        validation.violations
    );
}

#[test]
fn a_crash_is_shrunk_to_a_case_on_which_the_program_still_crashes() {
    let tmp = tempfile::tempdir().unwrap();
    let body = format!("n=$(wc -l)\nif [ \"$n\" -gt {LINES} ]; then exit 3; fi\necho garbage\n");
    let engine = script(tmp.path(), "crash", &body);
    let (output, report) = stress_vexed(&engine, &tmp.path().join("out"));
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    assert!(report.contains("crash crashed"), "{report}");
    assert!(
        report.contains("on the shrunk input: crash crashed"),
        "{report}"
    );
    let shrunk = tmp.path().join("out/vexed/stress-1-min.in");
    assert_valid(&shrunk);
    assert!(lines(&shrunk) > LINES, "{report}");
    // Run again here: it still crashes (exit 3) on the shrunk input.
    assert_eq!(
        run_script(tmp.path(), "crash", &shrunk).status.code(),
        Some(3)
    );
}

#[test]
fn a_wrong_answer_is_shrunk_to_a_case_on_which_it_is_still_a_wrong_answer() {
    let tmp = tempfile::tempdir().unwrap();
    let body =
        format!("n=$(wc -l)\nif [ \"$n\" -gt {LINES} ]; then echo garbage; else exit 3; fi\n");
    let engine = script(tmp.path(), "wrong", &body);
    let (output, report) = stress_vexed(&engine, &tmp.path().join("out"));
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    assert!(
        report.contains("on the shrunk input: wrong: wrong answer against"),
        "{report}"
    );
    let shrunk = tmp.path().join("out/vexed/stress-1-min.in");
    assert_valid(&shrunk);
    assert!(lines(&shrunk) > LINES, "{report}");
    let ran = run_script(tmp.path(), "wrong", &shrunk);
    assert_eq!(ran.status.code(), Some(0));
    assert_eq!(text(&ran.stdout), "garbage\n");
}

/// `gamebench ARGS` with a `--time SECONDS` ends within it plus [`PAST_DEADLINE`].
fn ends_in_time(args: &[&str], seconds: u64) -> Output {
    let start = Instant::now();
    let out = gamebench()
        .args(args)
        .args(["--time", &seconds.to_string(), "-o"])
        .arg(tempfile::tempdir().unwrap().path())
        .output()
        .unwrap();
    let took = start.elapsed();
    assert!(
        took < Duration::from_secs(seconds) + PAST_DEADLINE,
        "{args:?} took {took:?}: {}",
        text(&out.stderr)
    );
    // Exit 2 only for a hunt whose generator could not give one case in time (Vexed `hard`
    // takes seconds a file), said so.
    let stderr = text(&out.stderr);
    assert!(
        matches!(out.status.code(), Some(0 | 1))
            || (out.status.code() == Some(2) && stderr.contains("within --time")),
        "{args:?}: {stderr}"
    );
    out
}

/// The slow profiles with the slow engines: the generator's solver (Vexed `hard`), a file of
/// 2,500 grids (SameGame `throughput`), a case of seconds (Link and Pop `worst`).
const SLOW: &[(&str, &str, &str)] = &[
    ("vexed", "hard", "reference"),
    ("samegame", "throughput", "reference"),
    ("linkpop", "worst", "reference"),
];

#[test]
fn stress_and_hunt_end_at_their_time_on_the_slow_profiles() {
    for &(game, profile, engine) in SLOW {
        let other = registry::find(game).unwrap().default_engine().name();
        ends_in_time(
            &["stress", game, "-e", engine, "-e", other, "-p", profile],
            3,
        );
        ends_in_time(&["hunt", game, "-e", engine, "-p", profile], 3);
    }
}

#[test]
#[ignore = "minutes: every profile of every game, --time 30 each"]
fn stress_and_hunt_end_within_35_s_with_time_30_on_every_profile() {
    for &game in registry::GAMES {
        for profile in game.generator().profiles() {
            let (name, p) = (game.name(), profile.name);
            let other = game.default_engine().name();
            ends_in_time(
                &["stress", name, "-e", "reference", "-e", other, "-p", p],
                30,
            );
            ends_in_time(&["hunt", name, "-e", "reference", "-p", p], 30);
        }
    }
}

/// Whether a process whose command line holds `marker` is running.
fn running(marker: &str) -> bool {
    Command::new("pgrep")
        .args(["-f", marker])
        .output()
        .unwrap()
        .status
        .success()
}

/// Starts `gamebench ARGS`, sends SIGTERM after `after`, and returns its output.
fn terminated(args: &[&str], after: Duration) -> Output {
    let child = gamebench()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    signal(&child, "-TERM");
    let start = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(start.elapsed() < PAST_DEADLINE, "it stopped at once");
    out
}

/// Waits a little for `marker`'s processes to be gone (the launcher kills them as it ends).
fn gone(marker: &str) -> bool {
    for _ in 0..20 {
        if !running(marker) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

#[test]
fn sigterm_ends_the_programs_of_stress_and_writes_what_it_found() {
    let tmp = tempfile::tempdir().unwrap();
    // The program: nothing is found before the signal, nothing left running.
    let marker = "sleep 40.25";
    let engine = format!("w=cmd:{marker}; cat >/dev/null");
    let out = tmp.path().join("idle");
    let args = ["stress", "samegame", "-e", "reference", "-e", &engine];
    let output = terminated(
        &[&args[..], &["-o", s(&out)]].concat(),
        Duration::from_secs(2),
    );
    assert_eq!(output.status.code(), Some(143), "{}", text(&output.stderr));
    assert!(gone(marker), "a program is still running");

    // Wrong after a second on big inputs, hung on small ones: the shrink takes a second or
    // more per step, and the signal comes while shrinking.
    let marker = "sleep 40.75";
    let body =
        format!("n=$(wc -l)\nif [ \"$n\" -gt {LINES} ]; then echo 0; sleep 1; else {marker}; fi\n");
    let engine = script(tmp.path(), "hang", &body);
    let out = tmp.path().join("shrinking");
    let args = [
        "stress",
        "vexed",
        "-e",
        "reference",
        "-e",
        &engine,
        "-p",
        "easy",
    ];
    let output = terminated(
        &[&args[..], &["-o", s(&out)]].concat(),
        Duration::from_secs(4),
    );
    assert_eq!(output.status.code(), Some(143), "{}", text(&output.stderr));
    assert!(gone(marker), "a program is still running");
    for name in ["stress-1.in", "stress-1-min.in", "stress-1.txt"] {
        let path = out.join("vexed").join(name);
        assert!(path.is_file(), "{name}: {}", text(&output.stdout));
        if name.ends_with(".in") {
            assert_valid(&path);
        }
    }
    let report = std::fs::read_to_string(out.join("vexed/stress-1.txt")).unwrap();
    assert!(report.contains("cut short"), "{report}");
}

/// Runs of the hunted program before it hangs: more than hunt's start-up calibration takes, so
/// that some cases are measured when the signal comes.
const QUICK_RUNS: u32 = 16;

#[test]
fn sigterm_ends_the_program_of_hunt_and_writes_its_top_cases() {
    let tmp = tempfile::tempdir().unwrap();
    let count = tmp.path().join("count");
    // Quick runs (the start-up calibration's, then a few measured cases), then it hangs.
    let marker = "sleep 40.5";
    let body = format!(
        "c=$(cat {0} 2>/dev/null || echo 0)\necho $((c + 1)) > {0}\ncat >/dev/null\n\
         if [ \"$c\" -ge {QUICK_RUNS} ]; then {marker}; fi\n",
        s(&count)
    );
    let engine = script(tmp.path(), "hang", &body);
    let out = tmp.path().join("out");
    let output = terminated(
        &["hunt", "yut", "-e", &engine, "--runs", "1", "-o", s(&out)],
        Duration::from_secs(3),
    );
    assert_eq!(output.status.code(), Some(143), "{}", text(&output.stderr));
    assert!(gone(marker), "a program is still running");
    let written: Vec<_> = std::fs::read_dir(out.join("yut"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    assert!(!written.is_empty(), "{}", text(&output.stdout));
    let game = registry::find("yut").unwrap();
    for path in written {
        assert!(game.validate(&std::fs::read(&path).unwrap()).is_valid());
    }
}
