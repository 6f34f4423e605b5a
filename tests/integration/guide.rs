//! What a new user meets first: help that lists the options every game's form of a command
//! shares, options before or after GAME, a manual page per command, `--version` with the git
//! description, the first engine as the baseline when no reference runs, capped and
//! deduplicated problem lines, and a progress bar that moves case by case on a terminal.

use std::process::{Command, Stdio};

use crate::common;
use common::{assert_exit, root, run};

/// The help of `gen`, `stress` and `hunt` lists the options every game's form shares, and
/// every subcommand has a manual page; `--version` carries the git description.
#[test]
fn help_lists_the_shared_options_and_every_command_has_a_page() {
    for (command, options) in [
        (
            "stress",
            &["--engine", "--time", "--cases", "--seed", "--out"][..],
        ),
        (
            "hunt",
            &["--engine", "--time", "--evaluations", "--metric"][..],
        ),
        ("gen", &["--seed", "--count", "--out", "--engine"][..]),
    ] {
        let out = run(&[command, "--help"]);
        assert_exit(&out, 0);
        let help = common::text(&out.stdout);
        for option in options {
            assert!(
                help.contains(option),
                "`{command} --help` lacks {option}:\n{help}"
            );
        }
    }
    // One page per subcommand, found generically from `--help`'s list of commands.
    let help = common::text(&run(&["--help"]).stdout);
    let commands: Vec<&str> = help
        .split("Commands:")
        .nth(1)
        .unwrap()
        .split("Options:")
        .next()
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 10, "{commands:?}");
    for command in &commands {
        let out = run(&["man", command]);
        assert_exit(&out, 0);
        let page = common::text(&out.stdout);
        assert!(
            page.contains(&format!(".TH gamebench-{command} 1")),
            "{command}: {page}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let out = run(&["man", "--dir", common::s(dir.path())]);
    assert_exit(&out, 0);
    for command in &commands {
        assert!(
            dir.path().join(format!("gamebench-{command}.1")).is_file(),
            "{command}"
        );
    }
    assert!(dir.path().join("gamebench-stress-samegame.1").is_file());
    assert!(!dir.path().join("gamebench-help.1").exists());
    assert_exit(&run(&["man", "nope"]), 2);
    let version = common::text(&run(&["--version"]).stdout);
    assert!(
        version.starts_with("gamebench ")
            && (version.contains("(git ") || version.contains("outside a git checkout")),
        "{version}"
    );
    // `--game` completes the games' names, not file names.
    let bash = common::text(&run(&["completions", "bash"]).stdout);
    assert!(
        bash.contains("linkpop samegame vexed yut") || bash.contains("yut linkpop samegame vexed"),
        "no game names to complete"
    );
}

/// The shared options are accepted before GAME as well as after it; a required one missing
/// on both sides is a usage error.
#[test]
fn shared_options_go_before_or_after_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("st");
    let before = run(&[
        "stress",
        "-e",
        "reference",
        "-e",
        "bitboard",
        "--cases",
        "20",
        "-o",
        common::s(&out_dir),
        "samegame",
    ]);
    assert_exit(&before, 0);
    let after = run(&[
        "stress",
        "samegame",
        "-e",
        "reference",
        "-e",
        "bitboard",
        "--cases",
        "20",
        "-o",
        common::s(&out_dir),
    ]);
    assert_exit(&after, 0);
    assert_eq!(
        common::text(&before.stdout).split(',').next(),
        common::text(&after.stdout).split(',').next()
    );
    assert!(common::text(&before.stdout).contains("no difference in 20 case(s)"));
    let gen_dir = dir.path().join("g");
    let generated = run(&[
        "gen",
        "--count",
        "2",
        "--out",
        common::s(&gen_dir),
        "yut",
        "--profile",
        "long",
    ]);
    assert_exit(&generated, 0);
    assert_eq!(common::inputs(&gen_dir).len(), 2);
    let missing = run(&["stress", "samegame", "--cases", "5"]);
    assert_exit(&missing, 2);
    assert!(
        common::text(&missing.stderr).contains("--engine"),
        "{}",
        common::text(&missing.stderr)
    );
}

/// A wrong program beside an internal engine, without `reference` nor `--check`: the first
/// engine named is the baseline (the summary says so), the run exits 1, and the problem lines
/// are one per problem, capped at 20 and a count of the rest.
#[test]
fn the_first_engine_is_the_baseline_and_problem_lines_are_capped() {
    let corpus = root().join("corpora/samegame");
    let wrong = format!(
        "mine=cmd:python3 {}",
        root().join("tests/wrong/samegame_no_collapse.py").display()
    );
    let out = run(&[
        "run",
        common::s(&corpus),
        "-e",
        "bitboard",
        "-e",
        &wrong,
        "-j",
        "2",
    ]);
    assert_exit(&out, 1);
    let (stdout, stderr) = (common::text(&out.stdout), common::text(&out.stderr));
    assert!(
        stdout.contains(
            "baseline: bitboard (the first engine named: no reference engine in the run)"
        ),
        "{stdout}"
    );
    let problems: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("mismatch [mine]"))
        .collect();
    assert_eq!(problems.len(), 20, "{stderr}");
    // A problem line may carry its differing lines under it (indented, with a caret).
    assert!(
        stderr.lines().filter(|l| !l.starts_with(' ')).count() <= 21,
        "{stderr}"
    );
    let more = stderr
        .lines()
        .find(|l| l.contains("more problem lines"))
        .expect("a count of the rest");
    let hidden: usize = more.split_whitespace().nth(2).unwrap().parse().unwrap();
    let mismatches: usize = stdout
        .lines()
        .find(|l| l.starts_with("samegame  mine"))
        .and_then(|l| l.split_whitespace().nth(4))
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(
        20 + hidden,
        mismatches,
        "one line per problem\n{stdout}\n{stderr}"
    );
    // With --check as well, a wrong case is told once, not once per comparison.
    let checked = run(&[
        "run",
        common::s(&corpus),
        "--check",
        "-e",
        "bitboard",
        "-e",
        &wrong,
        "--problems",
        "all",
    ]);
    assert_exit(&checked, 1);
    let stderr = common::text(&checked.stderr);
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("mismatch [mine]"))
        .collect();
    assert_eq!(lines.len(), mismatches, "{stderr}");
    assert!(
        lines
            .iter()
            .all(|l| !(l.contains("; ") && l.contains("disagrees with"))),
        "{stderr}"
    );
    let none = run(&[
        "run",
        common::s(&corpus),
        "-e",
        "bitboard",
        "-e",
        &wrong,
        "--problems",
        "none",
    ]);
    assert_exit(&none, 1);
    assert!(!common::text(&none.stderr).contains("mismatch [mine]"));
    assert!(!common::text(&none.stderr).contains("more problem lines"));
    assert_exit(&run(&["run", common::s(&corpus), "--problems", "some"]), 2);
}

/// On a terminal, the bar counts finished (case, engine) pairs as they finish: on one slow
/// file, it moves long before the file is done. Run under `script`, which gives the program a
/// pseudo-terminal.
#[test]
fn the_bar_moves_as_cases_finish_under_a_terminal() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` (util-linux) to give the run a pseudo-terminal");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    common::slow_linkpop(dir.path(), "30");
    let command = format!(
        "{} run {} -e reference -j 1 --progress bar",
        env!("CARGO_BIN_EXE_gamebench"),
        common::s(dir.path())
    );
    let mut child = Command::new("script")
        .args(["-qfec", &command, "/dev/null"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let start = std::time::Instant::now();
    let mut seen = String::new();
    let mut buffer = [0u8; 4096];
    // Positions the bar has shown ("N/M cases x engines"), with when each was first seen.
    let mut positions: Vec<(u64, std::time::Duration)> = Vec::new();
    while positions.len() < 3 && start.elapsed() < std::time::Duration::from_secs(120) {
        let n = std::io::Read::read(&mut stdout, &mut buffer).unwrap();
        if n == 0 {
            break;
        }
        seen.push_str(&String::from_utf8_lossy(&buffer[..n]));
        for frame in seen.split(['\r', '\n']) {
            if !frame.contains(" cases x engines") {
                continue;
            }
            // `done/total (share)` or `done of at least total (share)`, after the bar.
            let words: Vec<&str> = frame.split_whitespace().collect();
            let Some(count) = words
                .windows(2)
                .find(|w| w[1].starts_with('(') || w[1] == "of")
                .map(|w| w[0])
            else {
                continue;
            };
            let Some(done) = count
                .split('/')
                .next()
                .and_then(|d| d.replace(',', "").parse::<u64>().ok())
            else {
                continue;
            };
            if done > 0 && !positions.iter().any(|(d, _)| *d == done) {
                positions.push((done, start.elapsed()));
            }
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        positions.len() >= 3,
        "the bar showed {positions:?} of the 30 cases: it does not move case by case\n{seen}"
    );
    // Cases finish about a second apart. The first position shown is the first or second case
    // (the bar is redrawn within a case's time of the first finish, well under 2 s), and all
    // were shown before the file was done.
    assert!(positions[0].0 <= 2, "{positions:?}");
    assert!(
        positions.iter().all(|(done, _)| *done < 30),
        "{positions:?}"
    );
}

/// `--export-markdown -` puts the table alone on stdout: the summary goes to stderr.
#[test]
fn an_export_on_stdout_does_not_mix_with_the_summary() {
    let corpus = root().join("corpora/yut");
    let out = run(&[
        "run",
        common::s(&corpus),
        "--check",
        "--export-markdown",
        "-",
    ]);
    assert_exit(&out, 0);
    let (stdout, stderr) = (common::text(&out.stdout), common::text(&out.stderr));
    assert!(stdout.starts_with("| game |"), "{stdout}");
    assert!(stdout.lines().all(|l| l.starts_with('|')), "{stdout}");
    assert!(stderr.contains("verdict: yut:"), "{stderr}");
}
