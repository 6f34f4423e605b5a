//! `gamebench compare` and `run --save-baseline/--compare`: hand-made CSVs with a known
//! slowdown, a verdict change and noise only (expected report lines and exit codes derived by
//! hand); two runs of one build on each bundled corpus compare as no change; an external
//! engine that sleeps 5 ms on a tenth of the cases is a regression naming exactly those.

use crate::common;

use std::path::Path;

use common::{assert_exit, gamebench, root, run, s, text};

const HEADER: &str = "game,engine,file,case,run,label,size,cells,status,time_ns,timing,repeats,user_ns,sys_ns,memory_kb,work,work_unit,score,digest,message,verdict\n";

/// A results CSV of `cases` (file, case, status, runs' times in ns, message).
fn csv(path: &Path, cases: &[(&str, usize, &str, &[u64], &str)]) {
    let mut text = HEADER.to_string();
    for (file, case, status, runs, message) in cases {
        for (i, t) in runs.iter().enumerate() {
            text.push_str(&format!(
                "toy,e,{file},{case},{},,,,{status},{t},case,,,,,1,turns,,,\"{message}\",\n",
                i + 1
            ));
        }
    }
    std::fs::write(path, text).unwrap();
}

const MS: u64 = 1_000_000;

/// Measurements of the new side before a noisy machine is blamed: the runs of a case are
/// consecutive, so a spike of a shared machine can hit all of them, once.
const ATTEMPTS: usize = 3;

#[test]
fn a_known_slowdown_is_named_and_exits_6() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("old.csv"), dir.path().join("new.csv"));
    // 20 one-case files of 2 ms, runs 1.98, 2.0, 2.02 ms (fastest 1.98 ms).
    let runs: &[u64] = &[1_980_000, 2 * MS, 2_020_000];
    let slow: &[u64] = &[5_980_000, 6 * MS, 6_020_000];
    let names: Vec<String> = (1..=20).map(|i| format!("f{i:02}.in")).collect();
    let old_cases: Vec<_> = names
        .iter()
        .map(|f| (f.as_str(), 1, "ok", runs, ""))
        .collect();
    let mut new_cases = old_cases.clone();
    // Cases f03 and f17 take 4 ms more: fastest 5.98 ms (x3.02). Every other ratio is 1, and
    // so is each side's median: the residuals' MAD is 0, the threshold the 5 % floor;
    // z(20) = Φ⁻¹(1 - 0.01 / 40) = 3.48.
    new_cases[2].3 = slow;
    new_cases[16].3 = slow;
    csv(&old, &old_cases);
    csv(&new, &new_cases);
    let out = run(&["compare", s(&old), s(&new)]);
    assert_exit(&out, 6);
    let report = text(&out.stdout);
    let slower: Vec<&str> = report.lines().filter(|l| l.contains("SLOWER:")).collect();
    assert_eq!(
        slower,
        [
            "  SLOWER: f03.in case 1: 1.98 ms -> 5.98 ms (x3.02)",
            "  SLOWER: f17.in case 1: 1.98 ms -> 5.98 ms (x3.02)"
        ],
        "{report}"
    );
    // Totals (of medians) 40 ms -> 48 ms.
    assert!(
        report.contains("toy/e: 20 cases, total 40.0 ms -> 48.0 ms, ratio 1.200"),
        "{report}"
    );
    assert!(
        report.contains(
            "noise: 5.0% per case (from 3.48 x the spread of 20 cases' ratios around their neighbours'), 100.0% shared (from the default); beyond it: 2 slower, 0 faster"
        ),
        "{report}"
    );
    assert!(
        report.ends_with("verdict: REGRESSION (time); exit 6\n"),
        "{report}"
    );
    // --fail-on verdict: time alone passes.
    let out = run(&["compare", s(&old), s(&new), "--fail-on", "verdict"]);
    assert_exit(&out, 0);
}

#[test]
fn a_whole_file_moving_together_is_a_shared_shift() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("old.csv"), dir.path().join("new.csv"));
    // a.in and b.in, 8 cases of 1 ms each (one run); every case of b.in takes 1.7 ms now,
    // as a burst of load on a shared machine does: each case is explained by its neighbours,
    // the threshold is the 5 % floor, and x1.7 is within the default shared noise (x2).
    let one: &[u64] = &[MS];
    let slow: &[u64] = &[1_700_000];
    let mut old_cases = Vec::new();
    let mut new_cases = Vec::new();
    for file in ["a.in", "b.in"] {
        for case in 1..=8 {
            old_cases.push((file, case, "ok", one, ""));
            new_cases.push((
                file,
                case,
                "ok",
                if file == "b.in" { slow } else { one },
                "",
            ));
        }
    }
    csv(&old, &old_cases);
    csv(&new, &new_cases);
    let out = run(&["compare", s(&old), s(&new)]);
    assert_exit(&out, 0);
    let report = text(&out.stdout);
    assert!(
        report.contains(
            "  together: every case of b.in moved by x1.70 (8 cases) (within the shared noise)\n"
        ),
        "{report}"
    );
    assert!(!report.contains("SLOWER"), "{report}");
    assert!(report.ends_with("verdict: no change; exit 0\n"), "{report}");
    // With --noise 20% the user says the machine is quieter: x1.7 is beyond it.
    let out = run(&["compare", s(&old), s(&new), "--noise", "20%"]);
    assert_exit(&out, 6);
    assert!(
        text(&out.stdout).contains(
            "  together: every case of b.in moved by x1.70 (8 cases): SLOWER beyond the shared noise\n"
        ),
        "{}",
        text(&out.stdout)
    );
}

/// Ten one-case files timed 3 times on each side: the old runs as given, the new ones the
/// old fastest times `scale`, times 1, 1.05 and `new_spread`.
fn uniform(
    dir: &Path,
    scale: f64,
    old_runs: &[u64; 3],
    new_spread: f64,
) -> (std::path::PathBuf, std::path::PathBuf) {
    let (old, new) = (dir.join("old.csv"), dir.join("new.csv"));
    let new_runs: Vec<u64> = [1.0, 1.05, new_spread]
        .iter()
        .map(|f| (old_runs[0] as f64 * scale * f).round() as u64)
        .collect();
    let names: Vec<String> = (1..=10).map(|i| format!("f{i:02}.in")).collect();
    let olds: Vec<_> = names
        .iter()
        .map(|f| (f.as_str(), 1, "ok", &old_runs[..], ""))
        .collect();
    let news: Vec<_> = names
        .iter()
        .map(|f| (f.as_str(), 1, "ok", &new_runs[..], ""))
        .collect();
    csv(&old, &olds);
    csv(&new, &news);
    (old, new)
}

#[test]
fn a_uniform_shift_within_the_runs_own_drift_is_no_change_and_far_beyond_it_is() {
    let dir = tempfile::tempdir().unwrap();
    // Old runs 10, 10.2, 10.5 ms (slowest / fastest 1.05). New: every run x1.3 (fastest 13,
    // median 13.65, slowest 18.2 ms: spread 1.4). Every file moved alike, so the files'
    // shifts give no drift; the repeats give 1.05 x 1.4 - 1 = 47 %: the total, x1.338
    // (13.65 / 10.2 on the medians, every case alike, interval of width 0; the total 136.5 ms
    // shown to 3 digits), is within it.
    let old_runs = [10 * MS, 10_200_000, 10_500_000];
    let (old, new) = uniform(dir.path(), 1.3, &old_runs, 1.4);
    let out = run(&["compare", s(&old), s(&new)]);
    assert_exit(&out, 0);
    let report = text(&out.stdout);
    assert!(
        report.contains("toy/e: 10 cases, total 102 ms -> 136 ms, ratio 1.338 [1.338, 1.338]"),
        "{report}"
    );
    assert!(
        report.contains(
            "  drift between the runs: cannot tell below 47.0% (10 files' shifts x1.300 to x1.300: 0.0%; repeated runs of 10 cases spread 5.0% (old) and 40.0% (new): 47.0%); the total's interval is within it\n"
        ),
        "{report}"
    );
    assert!(
        report.contains("note: two saved runs cannot tell a change of a whole run below 47.0% here; to tell smaller ones, time both builds in one run, interleaved: gamebench run CORPUS -e old=cmd:OLD -e new=cmd:NEW"),
        "{report}"
    );
    assert!(report.ends_with("verdict: no change; exit 0\n"), "{report}");
    // The same shift on tight repeats (new spread 1.05: floor 1.05 x 1.05 - 1 = 10.25 %, shown
    // as 10.3%) with the total at 13.65 / 10.2 = x1.338, beyond x1.1025: SLOWER.
    let (old, new) = uniform(dir.path(), 1.3, &old_runs, 1.05);
    let out = run(&["compare", s(&old), s(&new)]);
    assert_exit(&out, 6);
    let report = text(&out.stdout);
    assert!(
        report.contains("ratio 1.338 [1.338, 1.338] (95%, bootstrap over cases): SLOWER"),
        "{report}"
    );
    assert!(
        report.contains("  drift between the runs: cannot tell below 10.3% ("),
        "{report}"
    );
    // Far beyond the noisy side's floor: x3 with the new spread 1.4 (floor 47 %), total x3.09.
    let (old, new) = uniform(dir.path(), 3.0, &old_runs, 1.4);
    let out = run(&["compare", s(&old), s(&new)]);
    assert_exit(&out, 6);
    assert!(
        text(&out.stdout).ends_with("verdict: REGRESSION (time); exit 6\n"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_verdict_change_comes_first_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("old.csv"), dir.path().join("new.csv"));
    let t: &[u64] = &[MS];
    csv(
        &old,
        &[("a.in", 1, "mismatch", t, "x"), ("b.in", 1, "ok", t, "")],
    );
    csv(
        &new,
        &[
            ("a.in", 1, "ok", t, ""),
            ("b.in", 1, "mismatch", t, "line 3: expected 4, got 5"),
        ],
    );
    let out = run(&["compare", s(&old), s(&new)]);
    assert_exit(&out, 1);
    let report = text(&out.stdout);
    let changes: Vec<&str> = report
        .lines()
        .skip_while(|l| !l.starts_with("verdict changes"))
        .take(3)
        .collect();
    assert_eq!(
        changes,
        [
            "verdict changes: 2",
            "  NOW FAILING: toy/e b.in case 1: ok -> mismatch (line 3: expected 4, got 5)",
            "  better: toy/e a.in case 1: mismatch -> ok (x)"
        ],
        "{report}"
    );
    assert!(
        report.ends_with("verdict: REGRESSION (verdicts); exit 1\n"),
        "{report}"
    );
    assert_exit(&run(&["compare", s(&old), s(&new), "--fail-on", "time"]), 0);
}

#[test]
fn noise_only_is_no_change_and_bad_inputs_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("old.csv"), dir.path().join("new.csv"));
    // Single runs wobbling by up to 3 %: the ratios' spread sets the noise.
    let wobble = [1_000_000u64, 1_030_000, 970_000, 1_010_000, 990_000];
    let names: Vec<String> = (1..=10).map(|i| format!("f{i:02}.in")).collect();
    let olds: Vec<[u64; 1]> = (0..10).map(|_| [MS]).collect();
    let news: Vec<[u64; 1]> = (0..10).map(|i| [wobble[i % 5]]).collect();
    let old_cases: Vec<_> = (0..10)
        .map(|i| (names[i].as_str(), 1, "ok", &olds[i][..], ""))
        .collect();
    let new_cases: Vec<_> = (0..10)
        .map(|i| (names[i].as_str(), 1, "ok", &news[i][..], ""))
        .collect();
    csv(&old, &old_cases);
    csv(&new, &new_cases);
    let out = run(&["compare", s(&old), s(&new)]);
    assert_exit(&out, 0);
    assert!(
        text(&out.stdout).ends_with("verdict: no change; exit 0\n"),
        "{}",
        text(&out.stdout)
    );
    // Bad inputs: exit 2, the file (and line) named.
    let missing = dir.path().join("missing.csv");
    let out = run(&["compare", s(&missing), s(&new)]);
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains("missing.csv"),
        "{}",
        text(&out.stderr)
    );
    let broken = dir.path().join("broken.csv");
    std::fs::write(
        &broken,
        format!("{HEADER}toy,e,a.in,notanumber,1,,,,ok,5,case,,,,,1,turns,,,,\n"),
    )
    .unwrap();
    let out = run(&["compare", s(&broken), s(&new)]);
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains("broken.csv, line 2"),
        "{}",
        text(&out.stderr)
    );
    let empty = dir.path().join("empty.csv");
    std::fs::write(&empty, "").unwrap();
    assert_exit(&run(&["compare", s(&empty), s(&new)]), 2);
    assert_exit(&run(&["compare", "/dev/null", s(&new)]), 2);
    assert_exit(&run(&["compare", s(&old), s(&new), "--noise", "-3%"]), 2);
}

/// Wall-clock: on a machine shared with other work (builds), a spike can last longer than all
/// the runs of a case; run it on a quiet machine: `cargo test --release --test integration --
/// --ignored compare::`.
#[test]
#[ignore = "wall-clock timing: run on a quiet machine"]
fn two_runs_of_one_build_on_each_bundled_corpus_are_no_change() {
    let dir = tempfile::tempdir().unwrap();
    for game in ["linkpop", "samegame", "vexed", "yut"] {
        let corpus = root().join("corpora").join(game);
        let csvs: Vec<_> = ["a", "b"]
            .iter()
            .map(|side| {
                let csv = dir.path().join(format!("{game}-{side}.csv"));
                let out = run(&[
                    "run",
                    s(&corpus),
                    "--runs",
                    "3",
                    "--quiet",
                    "--csv",
                    s(&csv),
                ]);
                assert_exit(&out, 0);
                csv
            })
            .collect();
        // The runs of a case are consecutive, so on a machine shared with other work a spike
        // can hit all of them; a real change persists when the new side is measured again.
        let mut out = run(&["compare", s(&csvs[0]), s(&csvs[1])]);
        for _ in 1..ATTEMPTS {
            if out.status.code() == Some(0) {
                break;
            }
            eprintln!(
                "{game}: a case changed; measuring again:\n{}",
                text(&out.stdout)
            );
            let again = run(&[
                "run",
                s(&corpus),
                "--runs",
                "3",
                "--quiet",
                "--csv",
                s(&csvs[1]),
            ]);
            assert_exit(&again, 0);
            out = run(&["compare", s(&csvs[0]), s(&csvs[1])]);
        }
        assert_exit(&out, 0);
        assert!(
            !text(&out.stdout).contains("SLOWER"),
            "{}",
            text(&out.stdout)
        );
    }
}

/// A Yut corpus of `n` one-case files and a program that prints each file's expected output
/// (looked up by checksum), sleeping 5 ms first on the files marked slow when `$SLOW` is set.
fn sleepy_corpus(dir: &Path, n: usize, slow: &[usize]) -> String {
    let corpus = dir.join("yut");
    std::fs::create_dir_all(&corpus).unwrap();
    let outs = dir.join("outs");
    std::fs::create_dir_all(&outs).unwrap();
    let generated = run(&[
        "gen",
        "yut",
        "-n",
        &n.to_string(),
        "-o",
        s(&corpus),
        "--seed",
        "7",
    ]);
    assert_exit(&generated, 0);
    let mut inputs = common::inputs(&corpus);
    inputs.sort();
    assert_eq!(inputs.len(), n);
    for (i, input) in inputs.iter().enumerate() {
        let sum = std::process::Command::new("cksum")
            .stdin(std::fs::File::open(input).unwrap())
            .output()
            .unwrap();
        let key = text(&sum.stdout)
            .split_whitespace()
            .next()
            .unwrap()
            .to_string();
        let solved = run(&["solve", "yut", s(input)]);
        assert_exit(&solved, 0);
        std::fs::write(outs.join(format!("{key}.out")), &solved.stdout).unwrap();
        if slow.contains(&i) {
            std::fs::write(outs.join(format!("slow-{key}")), "").unwrap();
        }
    }
    let script = dir.join("engine.sh");
    std::fs::write(
        &script,
        format!(
            "key=$(cksum | cut -d' ' -f1)\n\
             if [ -n \"$SLOW\" ] && [ -e {outs}/slow-$key ]; then sleep 0.005; fi\n\
             exec cat {outs}/$key.out\n",
            outs = outs.display()
        ),
    )
    .unwrap();
    format!("sleepy=cmd:sh {}", script.display())
}

/// Wall-clock, as above: a 5 ms sleep is lost in spikes of tens of ms on a loaded machine.
#[test]
#[ignore = "wall-clock timing: run on a quiet machine"]
fn an_engine_sleeping_on_a_tenth_of_the_cases_is_a_regression_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    const CASES: usize = 30;
    let slow = [4, 15, 27];
    let engine = sleepy_corpus(dir.path(), CASES, &slow);
    let corpus = dir.path().join("yut");
    let names: Vec<String> = {
        let mut inputs = common::inputs(&corpus);
        inputs.sort();
        slow.iter()
            .map(|&i| {
                inputs[i]
                    .strip_prefix(&corpus)
                    .unwrap()
                    .display()
                    .to_string()
            })
            .collect()
    };
    let baselines = dir.path().join("baselines");
    let side = |slow_on: bool, extra: &[&str]| {
        let mut command = gamebench();
        command.args([
            "run",
            s(&corpus),
            "-e",
            &engine,
            "--check",
            "--runs",
            "5",
            "-j",
            "1",
            "--quiet",
        ]);
        command.args(["--baseline-dir", s(&baselines)]).args(extra);
        if slow_on {
            command.env("SLOW", "1");
        } else {
            command.env_remove("SLOW");
        }
        command.output().unwrap()
    };
    let saved = side(false, &["--save-baseline", "before"]);
    assert_exit(&saved, 0);
    assert!(
        baselines.join("before/results.csv").is_file()
            && baselines.join("before/meta.json").is_file()
    );
    // The same cases every time; a spike of the shared machine may add or hide one in one
    // measurement, not in all of them.
    let mut attempts = Vec::new();
    for _ in 0..ATTEMPTS {
        let compared = side(true, &["--compare", "before"]);
        let report = text(&compared.stdout);
        let mut named: Vec<String> = report
            .lines()
            .filter_map(|l| l.strip_prefix("  SLOWER: "))
            .map(|l| l.split(" case ").next().unwrap().to_string())
            .collect();
        named.sort();
        if compared.status.code() == Some(6) && named == names {
            attempts.clear();
            break;
        }
        attempts.push(report);
    }
    assert!(
        attempts.is_empty(),
        "expected exactly {names:?} slower:\n{}",
        attempts.join("\n")
    );
    // Unchanged engine: no change against the baseline (again, allowing for spikes).
    let unchanged =
        (0..ATTEMPTS).any(|_| side(false, &["--compare", "before"]).status.code() == Some(0));
    assert!(
        unchanged,
        "the unchanged engine compared as changed {ATTEMPTS} times"
    );
    // A missing baseline fails before running anything.
    let missing = side(false, &["--compare", "nope"]);
    assert_exit(&missing, 2);
    assert!(
        text(&missing.stderr).contains("no baseline \"nope\""),
        "{}",
        text(&missing.stderr)
    );
    assert_exit(&side(false, &["--save-baseline", "../x"]), 2);
}

#[test]
fn meta_differences_are_warnings_beside_the_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = root().join("corpora/yut/yut-sample1.in");
    let baselines = dir.path().join("b");
    let go = |extra: &[&str]| {
        let mut args = vec![
            "run",
            s(&corpus),
            "--quiet",
            "--baseline-dir",
            s(&baselines),
        ];
        args.extend_from_slice(extra);
        run(&args)
    };
    assert_exit(&go(&["--save-baseline", "one", "-j", "1"]), 0);
    let out = go(&["--compare", "one", "-j", "2"]);
    assert_exit(&out, 0);
    let report = text(&out.stdout);
    assert!(
        report.contains("warning: the runs differ in threads (-j): 1 -> 2"),
        "{report}"
    );
    assert!(
        report.contains("(the runs' metadata differ: see the warnings above)"),
        "{report}"
    );
    // `compare` reads baseline folders too.
    let folder = baselines.join("one");
    let out = run(&["compare", s(&folder), s(&folder)]);
    assert_exit(&out, 0);
}
