//! `gamebench stress` end to end: deliberately wrong solutions kept under `tests/wrong/` (one
//! rule each got wrong, see their docstrings) are found within seconds and shrunk to a handful
//! of cells and moves on which they still differ from the reference engine; two correct
//! engines give exit 0; a program that cannot start gives exit 2.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use gamebench::engines::judge::judge_file;
use gamebench::game::FileSize;
use gamebench::game::{Budget, first_difference};
use gamebench::registry;
use gamebench::shrink::Input;

use crate::common;
use common::assert_exit;

/// A stress run that finds the bug must end well within this (it takes seconds; the margin
/// is for a loaded CI machine).
const FOUND_WITHIN: Duration = Duration::from_secs(120);

use common::run_from_root as gamebench;

fn wrong(script: &str) -> String {
    format!("python3 tests/wrong/{script}")
}

/// What a stress run that found a difference left behind.
struct Finding {
    dir: PathBuf,
    stdout: String,
    minimal: Input,
    size: FileSize,
}

/// Runs `stress GAME -e reference -e bug=cmd:python3 SCRIPT EXTRA...` into a temporary
/// folder; asserts exit 1 and the files; returns the shrunk input and its size.
fn stress_finds(game: &str, script: &str, extra: &[&str], out: &Path) -> Finding {
    let engine = format!("bug=cmd:{}", wrong(script));
    let mut args = vec![
        "stress",
        game,
        "-e",
        "reference",
        "-e",
        &engine,
        "--out",
        out.to_str().unwrap(),
        "--cases",
        "2000",
    ];
    args.extend_from_slice(extra);
    let start = Instant::now();
    let output = gamebench(&args);
    let elapsed = start.elapsed();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_exit(&output, 1);
    assert!(elapsed < FOUND_WITHIN, "took {elapsed:?}");
    let dir = out.join(game);
    for name in [
        "stress-1.in",
        "stress-1-min.in",
        "stress-1-min.reference.out",
        "stress-1-min.bug.out",
        "stress-1.txt",
    ] {
        assert!(dir.join(name).is_file(), "{name} missing; {stdout}");
    }
    // The difference is said once: on the shrunk input, its lines one under the other.
    assert!(
        stdout.contains("on the shrunk input: bug: wrong answer against reference"),
        "{stdout}"
    );
    assert_eq!(stdout.matches("\n  got      ").count(), 1, "{stdout}");
    let g = registry::find(game).unwrap();
    let text = std::fs::read_to_string(dir.join("stress-1-min.in")).unwrap();
    let minimal = Input::read(g, text, &gamebench::game::Reading::STATEMENT)
        .expect("the shrunk input is valid");
    let original = std::fs::read_to_string(dir.join("stress-1.in")).unwrap();
    let original = Input::read(g, original, &gamebench::game::Reading::STATEMENT)
        .expect("the original input is valid");
    let size = minimal.size(g);
    assert!(size < original.size(g), "shrinking made it smaller");
    Finding {
        dir,
        stdout,
        minimal,
        size,
    }
}

/// The difference reproduces on the shrunk input: the reference engine and the wrong program,
/// run again here, differ, and print what the stress run wrote.
fn reproduces(game: &str, script: &str, finding: &Finding) {
    let g = registry::find(game).unwrap();
    let reference = judge_file(
        g.reference(),
        finding.minimal.text.as_bytes(),
        &gamebench::game::Reading::STATEMENT,
        &Budget::UNLIMITED,
    )
    .output();
    let ran = gamebench::external::run_shell(
        &wrong(script),
        finding.minimal.text.as_bytes(),
        Duration::from_secs(60),
    );
    // The external program runs from the crate root, like the stress run.
    let ran = ran.unwrap_or_else(|e| panic!("{e}"));
    let bug = String::from_utf8(ran.stdout).unwrap();
    assert!(
        first_difference(&reference, &bug).is_some(),
        "no difference on\n{}",
        finding.minimal.text
    );
    let written = |name: &str| std::fs::read_to_string(finding.dir.join(name)).unwrap();
    assert_eq!(written("stress-1-min.reference.out"), reference);
    assert_eq!(written("stress-1-min.bug.out"), bug);
}

#[test]
fn samegame_without_column_collapse_is_found_and_shrunk_to_a_few_cells() {
    let out = tempfile::tempdir().unwrap();
    let found = stress_finds("samegame", "samegame_no_collapse.py", &[], out.path());
    // The smallest witness: three cells in a row, the left pair removed, the third cell must
    // slide to column 1 (`1 3 / 0 0 1 / 1 1`); allow a little slack over it.
    assert_eq!(found.size.cases, 1, "{}", found.minimal.text);
    assert!(found.size.cells <= 4, "{}", found.minimal.text);
    assert!(found.size.moves <= 2, "{}", found.minimal.text);
    assert!(found.stdout.contains("after:  1 case"), "{}", found.stdout);
    reproduces("samegame", "samegame_no_collapse.py", &found);
}

#[test]
fn linkpop_with_position_before_segments_is_found_and_shrunk() {
    let out = tempfile::tempdir().unwrap();
    let found = stress_finds(
        "linkpop",
        "linkpop_position_first.py",
        &["--size", "2-6x2-6"],
        out.path(),
    );
    // A pair that links only with 2-3 segments must come before a 1-segment pair in
    // row-major order: that needs two pairs, so at least four cells.
    assert_eq!(found.size.cases, 1, "{}", found.minimal.text);
    assert!(found.size.cells <= 9, "{}", found.minimal.text);
    assert_eq!(found.size.moves, 0, "no moving block is needed");
    reproduces("linkpop", "linkpop_position_first.py", &found);
}

#[test]
fn yut_without_the_duet_mo_shortcut_is_found_and_shrunk_to_a_few_turns() {
    let out = tempfile::tempdir().unwrap();
    let found = stress_finds("yut", "yut_duet_mo.py", &[], out.path());
    // Reaching duet-mo takes at least two throws (5 + 5), then one more move from it.
    assert!(found.size.moves >= 3, "{}", found.minimal.text);
    assert!(found.size.moves <= 6, "{}", found.minimal.text);
    reproduces("yut", "yut_duet_mo.py", &found);
}

#[test]
fn two_correct_engines_exit_0_when_the_budget_ends() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    for (game, extra) in [
        ("samegame", vec!["--cases", "300"]),
        ("linkpop", vec!["--cases", "200", "--size", "1-8x1-8"]),
        ("yut", vec!["--cases", "200"]),
        ("vexed", vec!["--cases", "20", "--profile", "easy"]),
    ] {
        let g = registry::find(game).unwrap();
        let fast = g.default_engine().name();
        let mut args = vec!["stress", game, "-e", "reference", "-e", fast, "--out", dir];
        args.extend(extra);
        let output = gamebench(&args);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(0), "{game}: {stdout}");
        assert!(stdout.contains("no difference in"), "{game}: {stdout}");
    }
    // Nothing written without a difference.
    assert!(std::fs::read_dir(out.path()).unwrap().next().is_none());
}

/// `judge=cmd:gamebench solve samegame` followed by `tail`: a correct external program.
fn samegame_judge(tail: &str) -> String {
    format!(
        "judge=cmd:{} solve samegame{tail}",
        env!("CARGO_BIN_EXE_gamebench")
    )
}

/// `stress samegame -e reference -e ENGINE --out OUT --cases CASES EXTRA...`.
fn stress_samegame(engine: &str, out: &str, cases: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "stress",
        "samegame",
        "-e",
        "reference",
        "-e",
        engine,
        "--out",
        out,
        "--cases",
        cases,
    ];
    args.extend_from_slice(extra);
    gamebench(&args)
}

#[test]
fn a_correct_external_program_agrees_and_a_missing_one_exits_2() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    let output = stress_samegame(&samegame_judge(""), dir, "60", &[]);
    assert_exit(&output, 0);
    let output = stress_samegame("cmd:./no-such-program", dir, "5", &[]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no-such-program"), "{stderr}");
    // Exactly two engines.
    let output = gamebench(&["stress", "samegame", "-e", "reference", "--cases", "5"]);
    assert_eq!(output.status.code(), Some(2));
}

/// `-N` starts external programs without a shell: a pipe in the command is then two plain
/// arguments (which `gamebench solve` rejects), where `sh -c` (the default) runs the pipe.
#[test]
fn external_programs_run_through_a_shell_unless_told_not_to() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    let piped = samegame_judge(" | cat");
    let through_sh = stress_samegame(&piped, dir, "20", &[]);
    assert_exit(&through_sh, 0);
    let direct = stress_samegame(&piped, dir, "20", &["-N"]);
    assert_exit(&direct, 1);
}

#[test]
fn vexed_moves_pushed_the_wrong_way_are_caught_by_the_checker_and_the_puzzle_stays_fair() {
    use gamebench::game::Shrink;
    use gamebench::games::vexed::{Puzzle, Vexed};

    let out = tempfile::tempdir().unwrap();
    // The judge's own answer with every push's direction flipped: illegal moves, same length.
    let flipped = format!(
        "flip=cmd:{} solve vexed | sed 's/,L)/,X)/g; s/,R)/,L)/g; s/,X)/,R)/g'",
        env!("CARGO_BIN_EXE_gamebench")
    );
    let output = gamebench(&[
        "stress",
        "vexed",
        "-e",
        "reference",
        "-e",
        &flipped,
        "--profile",
        "easy",
        "--cases",
        "200",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    let dir = out.path().join("vexed");
    let game = registry::find("vexed").unwrap();
    let read = |name: &str| {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        Input::read(game, text, &gamebench::game::Reading::STATEMENT).unwrap()
    };
    let (original, minimal) = (read("stress-1.in"), read("stress-1-min.in"));
    assert!(minimal.size(game) < original.size(game), "{stdout}");
    for case in minimal.typed() {
        let puzzle = case.downcast_ref::<Puzzle>().unwrap();
        assert!(Vexed::admissible(puzzle), "{}", minimal.text);
        assert_eq!(puzzle.start(), puzzle.grid, "stable as written");
    }
    // A puzzle a judge could give: the strict validator (walls, floor, 11-move promise) accepts
    // the shrunk and the original input.
    for name in ["stress-1.in", "stress-1-min.in"] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let validation = game.validate(&bytes);
        assert!(validation.is_valid(), "{name}: {:?}", validation.violations);
    }
    // Still the same failure: the flipped answer is a wrong answer on the shrunk puzzle.
    let report = std::fs::read_to_string(dir.join("stress-1.txt")).unwrap();
    assert!(
        report.contains("on the shrunk input: flip: wrong answer"),
        "{report}"
    );
}
