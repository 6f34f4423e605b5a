//! `invoke PKG --time-limit-advice`: the limit a package's multipliers give from repeated runs,
//! the spread of the slowest accepted time, and a submission whose verdict changes between the
//! limit and the safety margin named; the summary line when the limit comes from the
//! multipliers.

use std::path::Path;

use crate::common;
use common::{assert_exit, gamebench, root, s, text};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A C submission that burns `cpu_ms` of its own CPU time (by the process's CPU clock, so the
/// same on a fast or a slow machine), then runs gamebench's solver: correct answers, late.
fn burner(cpu_ms: u64) -> String {
    format!(
        "#include <time.h>\n#include <unistd.h>\nint main(void) {{\n  while (clock() < (clock_t){cpu_ms} * (CLOCKS_PER_SEC / 1000)) ;\n  execl(\"{bin}\", \"gamebench\", \"solve\", \"yut\", (char *)0);\n  return 1;\n}}\n",
        bin = env!("CARGO_BIN_EXE_gamebench")
    )
}

const WRONG_C: &str = "#include <stdio.h>\nint main(void) { puts(\"0 nonsense\"); return 0; }\n";
const SLOW_C: &str = "int main(void) { volatile unsigned long n = 0; for (;;) n++; }\n";

/// A Yut package: two bundled tests with `.ans`, an accepted submission of about 0.2 s of CPU
/// time, a wrong one, and `problem.yaml` with `limits` as given.
fn package(dir: &Path, limits: &str) -> std::path::PathBuf {
    let pkg = dir.join("pkg");
    write(
        &pkg.join("problem.yaml"),
        &format!(
            "problem_format_version: 2025-09\nname: yut\ngamebench:\n  game: yut\nlimits:\n  memory: 1024\n{limits}"
        ),
    );
    let yut = root().join("corpora/yut");
    for (stem, group) in [("yut-sample1", "sample"), ("yut-sample2", "secret")] {
        let to = pkg.join("data").join(group);
        std::fs::create_dir_all(&to).unwrap();
        std::fs::copy(yut.join(format!("{stem}.in")), to.join("t.in")).unwrap();
        std::fs::copy(yut.join(format!("{stem}.out")), to.join("t.ans")).unwrap();
    }
    write(&pkg.join("submissions/accepted/steady.c"), &burner(200));
    write(&pkg.join("submissions/wrong_answer/wrong.c"), WRONG_C);
    pkg
}

#[test]
fn the_advice_names_a_submission_between_the_limit_and_the_margin() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = package(dir.path(), "  time_limit: 1\n");
    // 1.2 s of CPU: over the limit of 1 s, under the safety margin of 1.5 s.
    write(
        &pkg.join("submissions/time_limit_exceeded/near.c"),
        &burner(1200),
    );
    write(&pkg.join("submissions/time_limit_exceeded/slow.c"), SLOW_C);
    let out = gamebench()
        .arg("invoke")
        .arg(&pkg)
        .args(["--build-dir", s(&dir.path().join("build")), "-j", "2"])
        .args(["--time-limit-advice", "--advice-runs", "3"])
        .output()
        .unwrap();
    // Advice never fails an invocation: every submission holds its folder's expectation.
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    for needle in [
        "time-limit advice (3 runs of each accepted submission",
        // The accepted submission burns 0.2 s (and a few ms to solve): its spread, over 3 runs.
        "slowest AC 0.2",
        "n = 3 (accepted/steady.c on ",
        // 0.2 s x 2, rounded up to the 1 s resolution.
        "suggested time limit 1 s (slowest run x ac_to_time_limit 2, rounded up to a multiple of 1 s); the package states 1 s",
        "safety margin 1.5 s (the limit 1 s x time_limit_to_tle 1.5)",
        // near.c is the fastest TLE, and it is inside the window, every run.
        "fastest TLE 1.2",
        "(time_limit_exceeded/near.c on ",
        "the safety margin is not met",
        "sensitive to the time limit: time_limit_exceeded/near.c on ",
        "3 of 3 runs between the limit 1 s and the safety margin 1.5 s",
    ] {
        assert!(stdout.contains(needle), "{needle}:\n{stdout}");
    }
    // The endless one is stopped at twice the margin, once, and never flagged.
    assert!(!stdout.contains("sensitive to the time limit: time_limit_exceeded/slow.c"));
    // The package states its limit: no line about the multipliers' limit in the summary.
    assert!(!stdout.contains("time limit: none stated"), "{stdout}");
}

#[test]
fn a_package_without_a_limit_is_judged_under_the_one_its_multipliers_give() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = package(dir.path(), "  time_multipliers:\n    ac_to_time_limit: 3\n");
    // 1.2 s of CPU time: accepted under invoke's default --timeout of 60 s, a time limit
    // exceeded under the inferred limit (0.2 s x 3 = 0.6 s, rounded up to 1 s), as its folder
    // says: only judged at the inferred limit does the package pass.
    write(
        &pkg.join("submissions/time_limit_exceeded/near.c"),
        &burner(1200),
    );
    let invoke = |extra: &[&str]| {
        gamebench()
            .arg("invoke")
            .arg(&pkg)
            .args(["--build-dir", s(&dir.path().join("build")), "-j", "2"])
            .args(extra)
            .output()
            .unwrap()
    };
    let out = invoke(&[]);
    let stdout = text(&out.stdout);
    assert_exit(&out, 0);
    assert!(
        stdout.contains("time limit: none stated, judged at 1 s from the multipliers")
            && stdout.contains("by accepted/steady.c on ")
            && stdout.contains("CPU time")
            && stdout.contains("x ac_to_time_limit 3)"),
        "{stdout}"
    );
    assert!(!stdout.contains("tag contradicted"), "{stdout}");
    assert!(!stdout.contains("time-limit advice ("), "{stdout}");
    // A CPU limit given on the command line wins: at 5 s, near.c is accepted, against its tag.
    let out = invoke(&["--cpu-limit", "5"]);
    assert_exit(&out, 1);
    let stdout = text(&out.stdout);
    assert!(!stdout.contains("judged at"), "{stdout}");
    assert!(
        stdout.contains("tag contradicted") && stdout.contains("time_limit_exceeded/near.c"),
        "{stdout}"
    );
}
