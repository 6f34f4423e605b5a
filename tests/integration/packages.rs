//! Judges' packages read as they are: expected outputs named `.ans` (Kattis, DOMjudge) as well
//! as `.out`, and the error when both are present and differ.

use std::path::Path;

use crate::common;
use common::{assert_exit, gamebench, results, root, s, text};
use gamebench::status::Status;

/// Copies the bundled corpus `corpora/<game>/<stem>.in|out` to `dir/<name>.in|<extension>`.
fn copy_case(game: &str, stem: &str, dir: &Path, name: &str, extension: &str) {
    std::fs::create_dir_all(dir).unwrap();
    let from = root().join("corpora").join(game);
    std::fs::copy(
        from.join(format!("{stem}.in")),
        dir.join(format!("{name}.in")),
    )
    .unwrap();
    std::fs::copy(
        from.join(format!("{stem}.out")),
        dir.join(format!("{name}.{extension}")),
    )
    .unwrap();
}

#[test]
fn run_check_reads_ans_files() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    copy_case("yut", "yut-sample1", &data.join("sample"), "1", "ans");
    copy_case("yut", "yut-sample2", &data.join("secret"), "2", "ans");
    let csv = dir.path().join("r.csv");
    let out = gamebench()
        .arg("run")
        .arg(&data)
        .args(["--check", "-q", "--game", "yut", "--csv", s(&csv)])
        .output()
        .unwrap();
    assert_exit(&out, 0);
    let rows = results(&csv);
    assert!(rows.len() >= 2, "{rows:?}");
    assert!(
        rows.iter().all(|r| r.status == Status::Ok),
        "{:?}",
        rows.iter().map(|r| (&r.file, r.status)).collect::<Vec<_>>()
    );
}

#[test]
fn a_wrong_ans_is_caught() {
    // The .ans is really compared with: sample 2's answer given to sample 1 is wrong.
    let dir = tempfile::tempdir().unwrap();
    let yut = root().join("corpora/yut");
    std::fs::copy(yut.join("yut-sample1.in"), dir.path().join("1.in")).unwrap();
    std::fs::copy(yut.join("yut-sample2.out"), dir.path().join("1.ans")).unwrap();
    let csv = dir.path().join("r.csv");
    let out = gamebench()
        .arg("run")
        .arg(dir.path().join("1.in"))
        .args(["--check", "-q", "--game", "yut", "--csv", s(&csv)])
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let rows = results(&csv);
    assert!(rows.iter().any(|r| r.status != Status::Ok), "{rows:?}");
}

#[test]
fn out_and_ans_that_differ_are_an_error_naming_both() {
    let dir = tempfile::tempdir().unwrap();
    let yut = root().join("corpora/yut");
    std::fs::copy(yut.join("yut-sample1.in"), dir.path().join("1.in")).unwrap();
    std::fs::copy(yut.join("yut-sample1.out"), dir.path().join("1.out")).unwrap();
    std::fs::copy(yut.join("yut-sample2.out"), dir.path().join("1.ans")).unwrap();
    let out = gamebench()
        .arg("invoke")
        .arg(dir.path())
        .args(["--game", "yut", "-e", "reference"])
        .output()
        .unwrap();
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    assert!(err.contains("1.out") && err.contains("1.ans"), "{err}");
    // The same bytes under both names are one expected output.
    std::fs::copy(yut.join("yut-sample1.out"), dir.path().join("1.ans")).unwrap();
    let out = gamebench()
        .arg("invoke")
        .arg(dir.path())
        .args([
            "--game",
            "yut",
            "-e",
            "reference",
            "--expect",
            "reference=accepted",
        ])
        .output()
        .unwrap();
    assert_exit(&out, 0);
}

#[test]
fn run_check_with_out_and_ans_that_differ_is_an_error_row() {
    let dir = tempfile::tempdir().unwrap();
    let yut = root().join("corpora/yut");
    std::fs::copy(yut.join("yut-sample1.in"), dir.path().join("1.in")).unwrap();
    std::fs::copy(yut.join("yut-sample1.out"), dir.path().join("1.out")).unwrap();
    std::fs::copy(yut.join("yut-sample2.out"), dir.path().join("1.ans")).unwrap();
    let csv = dir.path().join("r.csv");
    let out = gamebench()
        .arg("run")
        .arg(dir.path().join("1.in"))
        .args(["--check", "-q", "--game", "yut", "--csv", s(&csv)])
        .output()
        .unwrap();
    assert_exit(&out, 2);
    let rows = results(&csv);
    assert!(
        rows.iter().all(|r| r.status == Status::Error
            && r.message.contains("1.out")
            && r.message.contains("1.ans")),
        "{rows:?}"
    );
}

// ---- Kattis / DOMjudge and Polygon packages run by `invoke` ----

/// A correct submission in C: it runs gamebench's own solver (a program like any other).
fn accepted_c(game: &str) -> String {
    format!(
        "#include <unistd.h>\nint main(void) {{ execl(\"{bin}\", \"gamebench\", \"solve\", \"{game}\", (char *)0); return 1; }}\n",
        bin = env!("CARGO_BIN_EXE_gamebench")
    )
}

/// The same in Python.
fn accepted_py(game: &str) -> String {
    format!(
        "import os\nos.execv({bin:?}, [\"gamebench\", \"solve\", {game:?}])\n",
        bin = env!("CARGO_BIN_EXE_gamebench")
    )
}

const WRONG_C: &str = "#include <stdio.h>\nint main(void) { puts(\"0 nonsense\"); return 0; }\n";
const WRONG_JAVA: &str = "public class Wrong { public static void main(String[] a) { System.out.println(\"nonsense\"); } }\n";
const SLOW_C: &str = "int main(void) { volatile unsigned long n = 0; for (;;) n++; }\n";
const SLOW_PY: &str = "n = 0\nwhile True:\n    n += 1\n";
const CRASH_C: &str = "#include <stdlib.h>\nint main(void) { abort(); }\n";
const BROKEN_C: &str = "int main(void) { this is not C }\n";

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn java_present() -> bool {
    std::process::Command::new("javac")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The bundled `.in` files of `game` with an `.out` beside them (at most `count`).
fn bundled(game: &str, count: usize) -> Vec<std::path::PathBuf> {
    common::sample_inputs(game)
        .into_iter()
        .filter(|p| p.with_extension("out").is_file())
        .take(count)
        .collect()
}

/// Which submissions a test package holds.
#[derive(Clone, Copy, PartialEq)]
enum Submissions {
    /// Every kind: C, Python (and Java when present), accepted, wrong, too slow, crashing and
    /// not compiling. Each busy-looping submission costs its time limit per test and
    /// calibration, each language its compiler or interpreter: for the tests about the
    /// submission folders themselves.
    All,
    /// An accepted and a wrong C submission and one that does not compile: for the tests
    /// about something else (the data, the export's layout, the package's failures).
    Few,
}

/// A Kattis package of `game` under `dir` (its folder not named after the game: the game
/// comes from problem.yaml's `gamebench` key): bundled tests with `.ans`, an invalid input,
/// and every kind of submission ([`Submissions::All`]).
fn kattis_package(dir: &Path, game: &str) -> std::path::PathBuf {
    kattis_package_with(dir, game, Submissions::All)
}

/// [`kattis_package`] with the submissions `which`.
fn kattis_package_with(dir: &Path, game: &str, which: Submissions) -> std::path::PathBuf {
    let root = dir.join(format!("pkg-{game}-kattis"));
    write(
        &root.join("problem.yaml"),
        &format!(
            "problem_format_version: 2025-09\nname: {game}\ngamebench:\n  game: {game}\nlimits:\n  time_limit: 1\n  memory: 1024\n"
        ),
    );
    let inputs = bundled(game, 2);
    assert!(!inputs.is_empty());
    for (i, input) in inputs.iter().enumerate() {
        let group = if i == 0 { "sample" } else { "secret/group1" };
        let to = root.join("data").join(group).join(format!("t{i}"));
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(input, to.with_extension("in")).unwrap();
        std::fs::copy(input.with_extension("out"), to.with_extension("ans")).unwrap();
    }
    write(
        &root.join("data/invalid_input/garbage.in"),
        "this is not an input\n",
    );
    let sub = root.join("submissions");
    write(&sub.join("accepted/solve.c"), &accepted_c(game));
    write(&sub.join("wrong_answer/wrong.c"), WRONG_C);
    write(&sub.join("rejected/broken.c"), BROKEN_C);
    if which == Submissions::Few {
        return root;
    }
    write(&sub.join("accepted/solve.py"), &accepted_py(game));
    if java_present() {
        write(&sub.join("wrong_answer/Wrong.java"), WRONG_JAVA);
    }
    write(&sub.join("time_limit_exceeded/slow.c"), SLOW_C);
    write(&sub.join("time_limit_exceeded/slow.py"), SLOW_PY);
    write(&sub.join("run_time_error/crash.c"), CRASH_C);
    root
}

fn invoke_package(root: &Path, build: &Path, extra: &[&str]) -> std::process::Output {
    gamebench()
        .arg("invoke")
        .arg(root)
        .args(["--build-dir", s(build), "-j", "2"])
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn kattis_packages_of_every_game_invoke_as_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let build = dir.path().join("build");
    // Every game's data and accepted solution; every kind of submission once (the folders
    // and languages are read the same way whatever the game).
    for (game, which) in [
        ("yut", Submissions::All),
        ("linkpop", Submissions::Few),
        ("samegame", Submissions::Few),
        ("vexed", Submissions::Few),
    ] {
        let root = kattis_package_with(dir.path(), game, which);
        let out = invoke_package(&root, &build, &[]);
        assert_exit(&out, 0);
        let stdout = text(&out.stdout);
        let mut needles = vec![
            "accepted/solve.c",
            "wrong_answer/wrong.c",
            "compile-error: rejected/broken.c",
            "invalid inputs: all 1 rejected by the validator",
            "sample/t0.in",
        ];
        if which == Submissions::All {
            needles.extend([
                "accepted/solve.py",
                "time_limit_exceeded/slow.py",
                "run_time_error/crash.c",
            ]);
            if java_present() {
                needles.push("wrong_answer/Wrong.java");
            }
        }
        for needle in needles {
            assert!(stdout.contains(needle), "{game}: {needle}:\n{stdout}");
        }
    }
}

#[test]
fn a_submission_in_the_wrong_folder_or_an_accepted_invalid_input_fails_the_package() {
    let dir = tempfile::tempdir().unwrap();
    let build = dir.path().join("build");
    let root = kattis_package_with(dir.path(), "yut", Submissions::Few);
    write(&root.join("submissions/accepted/wrong2.c"), WRONG_C);
    let out = invoke_package(&root, &build, &[]);
    assert_exit(&out, 1);
    assert!(
        text(&out.stdout).contains("accepted/wrong2.c (tagged accepted)"),
        "{}",
        text(&out.stdout)
    );
    std::fs::remove_file(root.join("submissions/accepted/wrong2.c")).unwrap();
    // A compile error where an accepted submission is expected.
    write(&root.join("submissions/accepted/broken.c"), BROKEN_C);
    let out = invoke_package(&root, &build, &[]);
    assert_exit(&out, 1);
    assert!(text(&out.stdout).contains("accepted/broken.c (tagged accepted) got compile-error"));
    std::fs::remove_file(root.join("submissions/accepted/broken.c")).unwrap();
    // An "invalid" input that is a valid one.
    std::fs::copy(
        root.join("data/sample/t0.in"),
        root.join("data/invalid_input/valid.in"),
    )
    .unwrap();
    let out = invoke_package(&root, &build, &[]);
    assert_exit(&out, 1);
    assert!(
        text(&out.stdout).contains("invalid input accepted"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn submissions_yaml_overrides_a_folder_expectation() {
    let dir = tempfile::tempdir().unwrap();
    let build = dir.path().join("build");
    let root = kattis_package_with(dir.path(), "yut", Submissions::Few);
    // A wrong submission among the accepted ones, declared wrong by submissions.yaml.
    write(&root.join("submissions/accepted/wrong3.c"), WRONG_C);
    write(
        &root.join("submissions/submissions.yaml"),
        "accepted/wrong3.c:\n  permitted: [AC, WA]\n  required: [WA]\n",
    );
    assert_exit(&invoke_package(&root, &build, &[]), 0);
}

#[test]
fn a_polygon_package_invokes_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let build = dir.path().join("build");
    let root = dir.path().join("yut");
    let inputs = bundled("yut", 2);
    for (i, input) in inputs.iter().enumerate() {
        let stem = root.join(format!("tests/{:02}", i + 1));
        std::fs::create_dir_all(stem.parent().unwrap()).unwrap();
        std::fs::copy(input, &stem).unwrap();
        std::fs::copy(input.with_extension("out"), stem.with_extension("a")).unwrap();
    }
    write(&root.join("solutions/main.c"), &accepted_c("yut"));
    write(&root.join("solutions/wrong.c"), WRONG_C);
    write(&root.join("solutions/slow.py"), SLOW_PY);
    write(
        &root.join("problem.xml"),
        &format!(
            r#"<?xml version="1.0" encoding="utf-8"?>
<problem revision="1" short-name="yut">
  <judging><testset name="tests">
    <time-limit>1000</time-limit><memory-limit>268435456</memory-limit>
    <test-count>{}</test-count>
    <input-path-pattern>tests/%02d</input-path-pattern>
    <answer-path-pattern>tests/%02d.a</answer-path-pattern>
  </testset></judging>
  <assets><solutions>
    <solution tag="main"><source path="solutions/main.c" type="c.gcc"/></solution>
    <solution tag="wrong-answer"><source path="solutions/wrong.c" type="c.gcc"/></solution>
    <solution tag="time-limit-exceeded"><source path="solutions/slow.py" type="python.3"/></solution>
  </solutions></assets>
</problem>
"#,
            inputs.len()
        ),
    );
    let out = invoke_package(&root, &build, &[]);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("solutions/wrong.c") && stdout.contains("01.in"),
        "{stdout}"
    );
    // The wrong one tagged main is named.
    let xml = std::fs::read_to_string(root.join("problem.xml")).unwrap();
    std::fs::write(
        root.join("problem.xml"),
        xml.replace(r#"tag="wrong-answer""#, r#"tag="accepted""#),
    )
    .unwrap();
    let out = invoke_package(&root, &build, &[]);
    assert_exit(&out, 1);
    assert!(text(&out.stdout).contains("solutions/wrong.c (tagged accepted)"));
}

// ---- package export ----

/// Per (test, solution), the verdict of `invoke PKG --csv`.
fn verdicts(root: &Path, build: &Path, dir: &Path) -> Vec<(String, String, String)> {
    let csv = dir.join(format!(
        "{}.csv",
        root.file_name().unwrap().to_string_lossy()
    ));
    let out = invoke_package(root, build, &["--csv", s(&csv)]);
    assert_exit(&out, 0);
    let mut rows: Vec<(String, String, String)> =
        common::columns(&csv, &["test", "solution", "verdict"])
            .into_iter()
            .map(|r| (r[0].clone(), r[1].clone(), r[2].clone()))
            .collect();
    rows.sort();
    rows
}

#[test]
fn an_exported_kattis_package_reads_back_with_the_same_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let build = dir.path().join("build");
    // Every submission folder round-trips once (Yut); a second game's data too (Vexed).
    for (game, which) in [("yut", Submissions::All), ("vexed", Submissions::Few)] {
        let root = kattis_package_with(dir.path(), game, which);
        let out_dir = dir.path().join(format!("exported-{game}"));
        let out = gamebench()
            .args([
                "package",
                "export",
                "--problem",
                s(&root),
                "--format",
                "kattis",
                "-o",
            ])
            .arg(&out_dir)
            .output()
            .unwrap();
        assert_exit(&out, 0);
        let mut files = vec![
            "problem.yaml",
            ".timelimit",
            "data/sample/t0.in",
            "data/sample/t0.ans",
            "submissions/accepted/solve.c",
            "output_validators/gamebench/run",
            "input_format_validators/gamebench/run",
        ];
        if which == Submissions::All {
            files.push("submissions/time_limit_exceeded/slow.py");
        }
        for file in files {
            assert!(out_dir.join(file).is_file(), "{game}: {file}");
        }
        let before = verdicts(&root, &build, dir.path());
        let after = verdicts(&out_dir, &build, dir.path());
        assert!(!before.is_empty());
        assert_eq!(before, after, "{game}");
        // An export never overwrites.
        let again = gamebench()
            .args([
                "package",
                "export",
                "--problem",
                s(&root),
                "--format",
                "kattis",
                "-o",
            ])
            .arg(&out_dir)
            .output()
            .unwrap();
        assert_exit(&again, 2);
    }
}

#[test]
fn exported_validators_speak_kattis_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let root = kattis_package(dir.path(), "yut");
    let out_dir = dir.path().join("exported");
    let out = gamebench()
        .args([
            "package",
            "export",
            "--problem",
            s(&root),
            "--format",
            "kattis",
            "-o",
        ])
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_exit(&out, 0);
    let bin = Path::new(env!("CARGO_BIN_EXE_gamebench")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let run = |script: &str, args: &[&Path], stdin: &Path| {
        std::process::Command::new(out_dir.join(script))
            .args(args)
            .env("PATH", &path)
            .stdin(std::fs::File::open(stdin).unwrap())
            .output()
            .unwrap()
            .status
            .code()
    };
    let input = out_dir.join("data/sample/t0.in");
    let answer = out_dir.join("data/sample/t0.ans");
    let feedback = dir.path().join("feedback");
    std::fs::create_dir_all(&feedback).unwrap();
    let validator = "input_format_validators/gamebench/run";
    assert_eq!(run(validator, &[], &input), Some(42));
    assert_eq!(
        run(validator, &[], &root.join("data/invalid_input/garbage.in")),
        Some(43)
    );
    let checker = "output_validators/gamebench/run";
    assert_eq!(
        run(checker, &[&input, &answer, &feedback], &answer),
        Some(42)
    );
    let wrong = dir.path().join("wrong.out");
    std::fs::write(&wrong, "nonsense\n").unwrap();
    assert_eq!(
        run(checker, &[&input, &answer, &feedback], &wrong),
        Some(43)
    );
}

#[test]
fn a_polygon_export_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let build = dir.path().join("build");
    let root = kattis_package_with(dir.path(), "yut", Submissions::Few);
    let out_dir = dir.path().join("yut-polygon");
    let out = gamebench()
        .args([
            "package",
            "export",
            "--problem",
            s(&root),
            "--format",
            "polygon",
            "-o",
        ])
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_exit(&out, 0);
    assert!(out_dir.join("tests/01").is_file() && out_dir.join("tests/01.a").is_file());
    let out = invoke_package(&out_dir, &build, &["--game", "yut"]);
    assert_exit(&out, 0);
    assert!(
        text(&out.stdout).contains("compile-error"),
        "{}",
        text(&out.stdout)
    );
}

/// problemtools' `verifyproblem` on an exported package of every game, where it is installed
/// (`pip install problemtools`); skipped with a message otherwise.
#[test]
fn exported_packages_pass_verifyproblem_where_installed() {
    let present = std::process::Command::new("verifyproblem")
        .arg("--help")
        .output()
        .is_ok_and(|o| o.status.success());
    if !present {
        eprintln!("skipped: verifyproblem is not installed (pip install problemtools)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_gamebench")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for (game, layout) in ["yut", "linkpop", "samegame", "vexed"]
        .into_iter()
        .flat_map(|game| [(game, "legacy"), (game, "2023-07")])
    {
        let root = dir.path().join(layout).join(game);
        std::fs::create_dir_all(&root).unwrap();
        let root = kattis_package(&root, game);
        // verifyproblem takes the folder's name as the problem's short name: [a-z0-9]+ only.
        let out_dir = dir
            .path()
            .join(format!("out{}", layout.replace('-', "")))
            .join(game);
        let out = gamebench()
            .args([
                "package",
                "export",
                "--problem",
                s(&root),
                "--format",
                "kattis",
                "--layout",
                layout,
                "-o",
            ])
            .arg(&out_dir)
            .output()
            .unwrap();
        assert_exit(&out, 0);
        // problemtools runs Python 3 as PyPy: without it, the Python submissions are left out.
        let pypy = std::process::Command::new("pypy3")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        // And it compiles Java with `--release 21`: an older JDK fails that, whatever the
        // source, so a JDK that accepts it goes first on the PATH; none: no Java submissions.
        let jdk = common::java21_bin();
        let old_java = jdk.is_none();
        let path = match &jdk {
            Some(Some(bin)) => format!("{}:{path}", bin.display()),
            _ => path.clone(),
        };
        for file in common::files(&out_dir.join("submissions")) {
            let extension = file.extension().and_then(|e| e.to_str());
            if (!pypy && extension == Some("py")) || (old_java && extension == Some("java")) {
                std::fs::remove_file(file).unwrap();
            }
        }
        let verify = std::process::Command::new("verifyproblem")
            .arg(&out_dir)
            .args(["-p", "config", "data", "validators", "submissions"])
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(
            verify.status.success() && text(&verify.stdout).contains(" tested: 0 errors"),
            "{game} {layout}:\n{}\n{}",
            text(&verify.stdout),
            text(&verify.stderr)
        );
    }
}

#[test]
fn an_export_in_the_2023_07_layout_reads_back_with_the_same_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let build = dir.path().join("build");
    let root = kattis_package_with(dir.path(), "yut", Submissions::Few);
    let out_dir = dir.path().join("exported");
    let out = gamebench()
        .args(["package", "export", "--problem", s(&root)])
        .args(["--format", "kattis", "--layout", "2023-07", "-o"])
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_exit(&out, 0);
    for file in [
        "statement/problem.en.tex",
        "data/sample/t0.in",
        "data/sample/t0.ans",
        "submissions/accepted/solve.c",
        "output_validator/gamebench/run",
        "input_validators/gamebench/run",
    ] {
        assert!(out_dir.join(file).is_file(), "{file}");
    }
    // No legacy files: the limit is in problem.yaml, the validators in the new folders.
    for file in [".timelimit", "output_validators", "input_format_validators"] {
        assert!(!out_dir.join(file).exists(), "{file}");
    }
    let yaml = std::fs::read_to_string(out_dir.join("problem.yaml")).unwrap();
    assert!(
        yaml.contains("problem_format_version: 2023-07-draft")
            && yaml.contains("  time_limit: 1\n")
            && yaml.contains("    ac_to_time_limit: 2\n"),
        "{yaml}"
    );
    let before = verdicts(&root, &build, dir.path());
    let after = verdicts(&out_dir, &build, dir.path());
    assert!(!before.is_empty());
    assert_eq!(before, after);
}
