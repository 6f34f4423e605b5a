//! External generators (`--generator 'cmd:...'`, testlib style) driving `stress`, `hunt` and
//! `gen`: a small Python generator written here (not gamebench's) finds and shrinks the
//! deliberately wrong Link and Pop solution of `tests/wrong/`; a generator that fails, times out
//! or writes an invalid input is an error (exit 2) naming its command and seed.

use std::path::{Path, PathBuf};
use std::process::Output;

use gamebench::registry;
use gamebench::shrink::Input;

use crate::common;
use common::{assert_exit, s};

/// A Link and Pop generator in the testlib convention: the seed on the command line, ten
/// cases of 2x2 to 6x6 boards on stdout. Few letters and mostly fixed blocks, so that pairs
/// linkable with one and with two or three segments meet on one board.
const LINKPOP_GENERATOR: &str = r#"
import random, sys
rng = random.Random(int(sys.argv[1]))
out = []
for _ in range(10):
    n, m = rng.randint(2, 6), rng.randint(2, 6)
    out.append(f"{n} {m}")
    for _ in range(n):
        out.append(" ".join(rng.choice("ABC") + rng.choice("SSSSSUDLR") for _ in range(m)))
out.append("0 0")
print("\n".join(out))
"#;

use common::run_from_root as gamebench;

fn write_script(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn stress_with_an_external_generator_finds_and_shrinks_a_difference() {
    let dir = tempfile::tempdir().unwrap();
    let generator = write_script(dir.path(), "mygen.py", LINKPOP_GENERATOR);
    let command = format!("cmd:python3 {} {{seed}}", s(&generator));
    let out = dir.path().join("out");
    let output = gamebench(&[
        "stress",
        "linkpop",
        "-e",
        "reference",
        "-e",
        "w=cmd:python3 tests/wrong/linkpop_position_first.py",
        "--generator",
        &command,
        "--cases",
        "2000",
        "--out",
        s(&out),
    ]);
    let text = stdout(&output);
    assert_exit(&output, 1);
    // The report names the generator as run, with the seed substituted.
    assert!(
        text.contains(&format!("generator `python3 {} ", s(&generator))),
        "{text}"
    );
    assert!(!text.contains("{seed}"), "{text}");
    let game = registry::find("linkpop").unwrap();
    let read = |name: &str| std::fs::read_to_string(out.join("linkpop").join(name)).unwrap();
    let (original, minimal) = (read("stress-1.in"), read("stress-1-min.in"));
    // The original is one of the generator's files (or the cases up to the failing one), the
    // shrunk one is smaller, and both are valid inputs of the game.
    for text in [&original, &minimal] {
        let validation = game.validate(text.as_bytes());
        assert!(validation.is_valid(), "{:?}\n{text}", validation.violations);
    }
    let (original, minimal) = (
        Input::read(game, original, &gamebench::game::Reading::STATEMENT).unwrap(),
        Input::read(game, minimal, &gamebench::game::Reading::STATEMENT).unwrap(),
    );
    assert!(minimal.size(game) < original.size(game), "{}", minimal.text);
    assert_eq!(minimal.size(game).cases, 1, "{}", minimal.text);
    // Still a difference on the shrunk input: the two outputs written differ.
    assert_ne!(
        read("stress-1-min.reference.out"),
        read("stress-1-min.w.out"),
        "{}",
        minimal.text
    );
}

#[test]
fn a_failing_generator_is_an_error_naming_its_command_and_seed() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let run = |generator: &str, extra: &[&str]| {
        let mut args = vec![
            "stress",
            "linkpop",
            "-e",
            "reference",
            "-e",
            "bitboard",
            "--generator",
            generator,
            "--seed",
            "7",
            "--cases",
            "10",
            "--out",
            s(&out),
        ];
        args.extend_from_slice(extra);
        gamebench(&args)
    };
    // A non-zero exit.
    let output = run("cmd:echo oops >&2; exit 3 # {seed}", &[]);
    assert_exit(&output, 2);
    let err = stderr(&output);
    assert!(
        err.contains("generator `echo oops >&2; exit 3 # 7` (seed 7)"),
        "{err}"
    );
    assert!(err.contains("exited with code 3"), "{err}");
    // An input that breaks the statement (a 0x5 board).
    let output = run("cmd:printf '0 5\\n0 0\\n' # {seed}", &[]);
    assert_exit(&output, 2);
    let err = stderr(&output);
    assert!(
        err.contains("(seed 7) wrote an invalid linkpop input"),
        "{err}"
    );
    // Nothing at all.
    let output = run("cmd:true {seed}", &[]);
    assert_exit(&output, 2);
    assert!(stderr(&output).contains("`true 7` (seed 7): wrote nothing"));
    // A generator that hangs is stopped at --timeout.
    let output = run("cmd:sleep 30 # {seed}", &["--timeout", "1"]);
    assert_exit(&output, 2);
    let err = stderr(&output);
    assert!(err.contains("timed out"), "{err}");
    assert!(err.contains("(seed 7)"), "{err}");
    // Not a command.
    let output = run("./gen {seed}", &[]);
    assert_exit(&output, 2);
    assert!(stderr(&output).contains("expected `cmd:COMMAND`"));
}

#[test]
fn gen_and_hunt_take_an_external_generator() {
    let dir = tempfile::tempdir().unwrap();
    let generator = write_script(dir.path(), "mygen.py", LINKPOP_GENERATOR);
    let command = format!("cmd:python3 {} {{seed}}", s(&generator));
    let corpus = dir.path().join("corpus");
    let output = gamebench(&[
        "gen",
        "linkpop",
        "--generator",
        &command,
        "--seed",
        "5",
        "-n",
        "2",
        "-o",
        s(&corpus),
        "--progress",
        "none",
    ]);
    assert_exit(&output, 0);
    let game = registry::find("linkpop").unwrap();
    for k in 0..2u64 {
        let stem = corpus.join(format!("linkpop-cmd-5-{k}"));
        let input = std::fs::read(stem.with_extension("in")).unwrap();
        // File k is the generator's output for seed 5 + k, byte for byte.
        let ran = gamebench::external::run_shell(
            &format!("python3 {} {}", s(&generator), 5 + k),
            b"",
            std::time::Duration::from_secs(60),
        )
        .unwrap();
        assert_eq!(input, ran.stdout, "file {k}");
        assert!(game.validate(&input).is_valid());
        assert!(stem.with_extension("out").is_file());
    }
    let output = gamebench(&[
        "hunt",
        "linkpop",
        "-e",
        "reference",
        "--metric",
        "work",
        "--evaluations",
        "60",
        "--generator",
        &command,
        "-o",
        s(&dir.path().join("hunt")),
    ]);
    assert_exit(&output, 0);
    assert!(dir.path().join("hunt/linkpop/hunt-1.in").is_file());
}

#[test]
fn hunting_a_program_takes_its_start_up_out_and_shows_yut_sizes_in_turns() {
    let dir = tempfile::tempdir().unwrap();
    let program = format!("p=cmd:{} solve yut", env!("CARGO_BIN_EXE_gamebench"));
    let output = gamebench(&[
        "hunt",
        "yut",
        "-e",
        &program,
        "--time",
        "3",
        "--runs",
        "1",
        "--top",
        "3",
        "-o",
        s(dir.path()),
    ]);
    assert_exit(&output, 0);
    let text = stdout(&output);
    // Yut holds one game per file: one copy per process.
    assert!(
        text.contains("start-up") && text.contains("1 copy of a case per process"),
        "{text}"
    );
    assert!(!text.contains("cells"), "{text}");
    assert!(text.contains(" turns"), "{text}");
}

/// `gen` of a game without a `random` profile (Vexed) takes an external generator alone: no
/// `--profile` asked for (the file is the generator's output, validated); without either, the
/// profile is asked for by name, with the game's profiles.
#[test]
fn gen_vexed_takes_a_generator_without_a_profile() {
    let dir = tempfile::tempdir().unwrap();
    let sample = common::root().join("corpora/vexed/sample.in");
    let command = format!("cmd:cat '{}' # {{seed}}", s(&sample));
    let corpus = dir.path().join("corpus");
    let output = gamebench(&[
        "gen",
        "vexed",
        "--generator",
        &command,
        "--no-expected",
        "-o",
        s(&corpus),
        "--progress",
        "none",
    ]);
    assert_exit(&output, 0);
    let written = std::fs::read(corpus.join("vexed-cmd-1-0.in")).unwrap();
    assert_eq!(written, std::fs::read(&sample).unwrap());
    let output = gamebench(&["gen", "vexed", "-o", s(&corpus), "--progress", "none"]);
    assert_exit(&output, 2);
    let err = stderr(&output);
    assert!(err.contains("gen vexed: --profile is required"), "{err}");
    let vexed = registry::find("vexed").unwrap();
    for profile in vexed.generator().profiles() {
        assert!(err.contains(profile.name), "{err}");
    }
}
