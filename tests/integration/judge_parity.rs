//! A program is handed its cases as a judge hands them: every case written alone (a per-case
//! run under `--case-timeout`, an `invoke --select` file) is a complete judge input that
//! `validate` accepts, and a program that insists on the whole format (Vexed's `0 0 END`)
//! gets the verdict a judge would give it. Games whose outputs number their cases (SameGame's
//! `Grid k.`, Link and Pop's `Case k`) write a case alone too, its block renumbered.

use crate::common;

use std::path::Path;

use gamebench::game::Budget;
use gamebench::registry;

use common::{assert_exit, gamebench, s, text};

/// Per-case limit of the runs below: generous, a judge's few seconds.
const CASE_SECONDS: &str = "5";

/// Every case of every bundled several-case file, written alone, validates, parses back to one
/// case, and its reference output renumbered to the case's place is the case's block of the
/// whole file's reference output.
#[test]
fn every_bundled_case_written_alone_is_a_valid_judge_input_with_its_own_block() {
    let mut alone_cases = 0;
    for &game in registry::GAMES {
        for path in common::sample_inputs(game.name()) {
            let bytes = std::fs::read(&path).unwrap();
            let cases = game.parse(&bytes, &gamebench::game::Reading::STATEMENT);
            if cases.len() < 2 {
                continue;
            }
            let reference = game.reference();
            for (i, parsed) in cases.iter().enumerate() {
                let Ok(case) = &parsed.case else { continue };
                let index = i + 1;
                let what = format!("{} case {index}", path.display());
                let input = game
                    .case_input(case.as_ref())
                    .unwrap_or_else(|| panic!("{what}: not written alone"));
                let validation = game.validate(input.as_bytes());
                assert!(validation.is_valid(), "{what}: {validation:?}\n{input}");
                let again = game.parse(input.as_bytes(), &gamebench::game::Reading::STATEMENT);
                assert_eq!(again.len(), 1, "{what}: {input}");
                let whole = reference
                    .solve(index, case.as_ref(), &Budget::UNLIMITED)
                    .unwrap()
                    .0
                    .output;
                let alone = reference
                    .solve(
                        1,
                        again[0].case.as_ref().unwrap().as_ref(),
                        &Budget::UNLIMITED,
                    )
                    .unwrap()
                    .0
                    .output;
                assert_eq!(game.renumber_block(&alone, 1, index), whole, "{what}");
                alone_cases += 1;
            }
        }
    }
    assert!(alone_cases > 0);
}

/// Renumbering touches only a block's own number: a block that printed another number keeps
/// it, so a program numbering its grids wrongly stays wrong.
#[test]
fn a_block_printing_another_number_keeps_it() {
    let samegame = registry::GAMES
        .iter()
        .find(|g| g.name() == "samegame")
        .unwrap();
    assert_eq!(
        samegame.renumber_block("Grid 1.\n    Game Won\n", 1, 3),
        "Grid 3.\n    Game Won\n"
    );
    assert_eq!(
        samegame.renumber_block("Grid 7.\n    Game Won\n", 1, 3),
        "Grid 7.\n    Game Won\n"
    );
    assert_eq!(
        samegame.renumber_block("Grid 11.\n    Game Won\n", 1, 3),
        "Grid 11.\n    Game Won\n"
    );
}

/// A shell program that reads its whole input, exits 3 unless its last line is `0 0 END`
/// (as a solution reading until the terminator would wait for it), and otherwise answers with
/// gamebench's own `solve`.
fn strict_vexed(dir: &Path) -> String {
    let script = dir.join("strict-vexed.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nf=$(mktemp)\ncat > \"$f\"\n\
             tail -n 1 \"$f\" | grep -qx '0 0 END' || {{ rm -f \"$f\"; exit 3; }}\n\
             '{}' solve vexed \"$f\"\nrc=$?\nrm -f \"$f\"\nexit $rc\n",
            env!("CARGO_BIN_EXE_gamebench")
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("strict=cmd:{}", s(&script))
}

/// The bundled Vexed cases, each run alone under `--case-timeout`, reach a program that reads
/// until `0 0 END` with their terminator: every result `ok`.
#[test]
fn a_vexed_program_reading_until_the_terminator_passes_case_by_case() {
    let dir = tempfile::tempdir().unwrap();
    let engine = strict_vexed(dir.path());
    let csv = dir.path().join("r.csv");
    let out = gamebench()
        .args(["run", s(&common::root().join("corpora/vexed/sample.in"))])
        .args([s(&common::root().join("corpora/vexed/traps.in"))])
        .args(["-e", &engine, "--case-timeout", CASE_SECONDS, "--check"])
        .args(["--quiet", "--csv", s(&csv)])
        .output()
        .unwrap();
    assert_exit(&out, 0);
    let statuses = common::column(&csv, "status");
    assert!(statuses.len() > 2, "{statuses:?}");
    assert!(statuses.iter().all(|st| st == "ok"), "{statuses:?}");
}

/// `invoke --select` with a per-case limit: the Vexed program passes every case, and the
/// SameGame cases selected from a several-case file are written alone, valid, with their
/// block renumbered, and judged again with the same verdicts.
#[test]
fn selected_cases_are_written_alone_valid_and_judged_the_same_again() {
    let (dir, folder) = common::game_folder("samegame");
    for ext in ["in", "out"] {
        std::fs::copy(
            common::root().join(format!("corpora/samegame/hand-rules.{ext}")),
            folder.join(format!("hand-rules.{ext}")),
        )
        .unwrap();
    }
    let select = dir.path().join("selected");
    let out = gamebench()
        .args([
            "invoke",
            s(&folder),
            "-e",
            "reference",
            "-e",
            "echo=cmd:cat",
        ])
        .args(["--expect", "reference=main", "--expect", "echo=failing"])
        .args(["--case-timeout", CASE_SECONDS, "--select", s(&select)])
        .output()
        .unwrap();
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    assert!(!stdout.contains("whole file(s) selected"), "{stdout}");
    let written = common::inputs(&select);
    assert!(!written.is_empty(), "{stdout}");
    for input in &written {
        let name = input.file_name().unwrap().to_str().unwrap();
        assert!(name.starts_with("hand-rules-c"), "{name}");
        let valid = gamebench()
            .args(["validate", "samegame", s(input)])
            .output()
            .unwrap();
        assert_exit(&valid, 0);
        let expected = std::fs::read_to_string(input.with_extension("out")).unwrap();
        assert!(expected.starts_with("Grid 1.\n"), "{name}: {expected}");
    }
    let again = gamebench()
        .args(["run", s(&select), "--game", "samegame", "-e", "reference"])
        .args(["--check", "--quiet"])
        .output()
        .unwrap();
    assert_exit(&again, 0);

    let (vdir, vexed) = common::game_folder("vexed");
    for ext in ["in", "out"] {
        std::fs::copy(
            common::root().join(format!("corpora/vexed/traps.{ext}")),
            vexed.join(format!("traps.{ext}")),
        )
        .unwrap();
    }
    let engine = strict_vexed(vdir.path());
    let vselect = vdir.path().join("selected");
    let out = gamebench()
        .args([
            "invoke",
            s(&vexed),
            "-e",
            &engine,
            "--expect",
            "strict=main",
        ])
        .args(["--case-timeout", CASE_SECONDS, "--select", s(&vselect)])
        .output()
        .unwrap();
    assert_exit(&out, 0);
    let written = common::inputs(&vselect);
    assert!(!written.is_empty());
    for input in &written {
        let valid = gamebench()
            .args(["validate", "vexed", s(input)])
            .output()
            .unwrap();
        assert_exit(&valid, 0);
    }
    // Judged again, file by file: the strict program still passes every selected file.
    let again = gamebench()
        .args(["run", s(&vselect), "--game", "vexed", "-e", &engine])
        .args(["--check", "--quiet"])
        .output()
        .unwrap();
    assert_exit(&again, 0);
}

/// Two identical `invoke` runs select the same tests (a correct solution's slowest is picked
/// among near-ties by name, not by noise), and a sample is always selected, never useless.
#[test]
fn the_selection_is_the_same_on_every_run_and_keeps_the_samples() {
    let (dir, folder) = common::game_folder("vexed");
    for ext in ["in", "out"] {
        for (from, to) in [("sample", "sample"), ("traps", "traps")] {
            std::fs::copy(
                common::root().join(format!("corpora/vexed/{from}.{ext}")),
                folder.join(format!("{to}.{ext}")),
            )
            .unwrap();
        }
    }
    let selected = |run: &str| {
        let json = dir.path().join(format!("{run}.json"));
        let out = gamebench()
            .args(["invoke", s(&folder), "-e", "reference", "-e", "bitset"])
            .args(["-e", "echo=cmd:cat", "--expect", "reference=main"])
            .args(["--expect", "echo=failing", "--json", s(&json)])
            .output()
            .unwrap();
        assert_exit(&out, 0);
        let doc: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        let names = |key: &str| -> Vec<String> {
            doc["strength"][key]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap_or_default().to_string())
                .collect()
        };
        (names("selected"), names("useless"))
    };
    let (first, useless) = selected("a");
    let (second, _) = selected("b");
    assert_eq!(first, second);
    for case in ["sample.in#1", "sample.in#2"] {
        assert!(first.iter().any(|t| t == case), "{first:?}");
        assert!(!useless.iter().any(|t| t == case), "{useless:?}");
    }
}

/// A three-case SameGame file whose second case alone holds the row `7 7 7`.
const THREE_GRIDS: &str =
    "2 2\n1 1\n2 2\n1 1 0 0\n1 3\n7 7 7\n1 1 0 0\n2 2\n3 3\n4 4\n1 1 0 0\n0 0\n";

/// A shell program that answers with gamebench's own `solve samegame`, unless its input (in
/// the file `$f`) makes the shell condition `probe` true: then it runs `fail` (a shell
/// command) instead.
fn samegame_failing_on(dir: &Path, name: &str, probe: &str, fail: &str) -> String {
    let script = dir.join(format!("{name}.sh"));
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nf=$(mktemp)\ncat > \"$f\"\n\
             if {probe}; then rm -f \"$f\"; {fail}; fi\n\
             '{}' solve samegame \"$f\"\nrc=$?\nrm -f \"$f\"\nexit $rc\n",
            env!("CARGO_BIN_EXE_gamebench")
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("{name}=cmd:{}", s(&script))
}

/// The probe of a program failing on [`THREE_GRIDS`]'s second case.
const ON_CASE_2: &str = "grep -qx '7 7 7' \"$f\"";

/// `invoke`'s JSON: the verdict of each (test, solution) as `test solution verdict` lines, the
/// kills of each solution, the selected and useless tests.
struct Invoked {
    verdicts: Vec<String>,
    kills: serde_json::Value,
    selected: Vec<String>,
    useless: Vec<String>,
    stdout: String,
}

fn invoke_json(dir: &Path, args: &[&str], code: i32) -> Invoked {
    let json = dir.join("inv.json");
    let out = gamebench()
        .arg("invoke")
        .args(args)
        .args(["--json", s(&json)])
        .output()
        .unwrap();
    assert_exit(&out, code);
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let names = |key: &str| -> Vec<String> {
        doc["strength"][key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    let solutions: Vec<String> = doc["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect();
    let mut verdicts = Vec::new();
    for test in doc["tests"].as_array().unwrap() {
        for (cell, solution) in test["cells"].as_array().unwrap().iter().zip(&solutions) {
            verdicts.push(format!(
                "{} {solution} {}",
                test["name"].as_str().unwrap(),
                cell["verdict"].as_str().unwrap()
            ));
        }
    }
    Invoked {
        verdicts,
        kills: doc["strength"]["kills"].clone(),
        selected: names("selected"),
        useless: names("useless"),
        stdout: text(&out.stdout),
    }
}

/// The tests that kill `solution`, from the JSON's `[[solution, [tests]], ...]`.
fn kills_of(kills: &serde_json::Value, solution: &str) -> Vec<String> {
    kills
        .as_array()
        .unwrap()
        .iter()
        .find(|pair| pair[0] == solution)
        .unwrap_or_else(|| panic!("{solution} not in {kills}"))[1]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect()
}

/// A program crashing on case 2 of a three-case SameGame file, run on the whole file (no
/// per-case limit), is charged with case 2 only: its cases run alone find the culprit, as a
/// judge with one test per file would (one kill, not three).
#[test]
fn a_crash_on_one_case_of_a_file_is_charged_to_that_case_alone() {
    let (dir, folder) = common::game_folder("samegame");
    std::fs::write(folder.join("three.in"), THREE_GRIDS).unwrap();
    let crash = samegame_failing_on(dir.path(), "crash", ON_CASE_2, "exit 3");
    let got = invoke_json(
        dir.path(),
        &[
            s(&folder),
            "-e",
            "reference",
            "-e",
            &crash,
            "--expect",
            "reference=main",
        ],
        0,
    );
    assert_eq!(
        got.verdicts,
        [
            "three.in#1 reference ok",
            "three.in#1 crash ok",
            "three.in#2 reference ok",
            "three.in#2 crash runtime-error",
            "three.in#3 reference ok",
            "three.in#3 crash ok",
        ],
        "{}",
        got.stdout
    );
    assert_eq!(kills_of(&got.kills, "crash"), ["three.in#2"]);
    assert!(
        got.stdout.contains("kills: crash: 1 test(s): three.in#2"),
        "{}",
        got.stdout
    );
    // The runtime error's cell names the exit code.
    assert!(got.stdout.contains("RE(exit 3)"), "{}", got.stdout);
}

/// A timeout on one case is charged the same way; a failure no case reproduces alone (a
/// program that crashes on any input of more than one case) stays on every case of the file,
/// and says so.
#[test]
fn a_timeout_is_charged_to_its_case_and_a_failure_of_the_cases_together_stays() {
    let (dir, folder) = common::game_folder("samegame");
    std::fs::write(folder.join("three.in"), THREE_GRIDS).unwrap();
    let slow = samegame_failing_on(dir.path(), "slow", ON_CASE_2, "exec sleep 30");
    // Cases 2 and 3 together (rows `7 7 7` and `3 3`): only the whole file holds both.
    let together = samegame_failing_on(
        dir.path(),
        "together",
        &format!("{ON_CASE_2} && grep -qx '3 3' \"$f\""),
        "exit 4",
    );
    let got = invoke_json(
        dir.path(),
        &[
            s(&folder),
            "-e",
            "reference",
            "-e",
            &slow,
            "-e",
            &together,
            "--timeout",
            "1",
            "--expect",
            "reference=main",
            "--expect",
            "slow=time-limit",
            "--expect",
            "together=runtime-error",
        ],
        0,
    );
    assert_eq!(
        got.verdicts,
        [
            "three.in#1 reference ok",
            "three.in#1 slow ok",
            "three.in#1 together runtime-error",
            "three.in#2 reference ok",
            "three.in#2 slow timeout",
            "three.in#2 together runtime-error",
            "three.in#3 reference ok",
            "three.in#3 slow ok",
            "three.in#3 together runtime-error",
        ],
        "{}",
        got.stdout
    );
    assert_eq!(kills_of(&got.kills, "slow"), ["three.in#2"]);
    // Polygon's looser tags: time-limit-or-accepted and time-limit-or-memory-limit hold too.
    let loose = invoke_json(
        dir.path(),
        &[
            s(&folder),
            "-e",
            "reference",
            "-e",
            &slow,
            "--timeout",
            "1",
            "--expect",
            "reference=main",
            "--expect",
            "slow=time-limit-or-memory-limit",
        ],
        0,
    );
    assert_eq!(kills_of(&loose.kills, "slow"), ["three.in#2"]);
    let out = gamebench()
        .args(["invoke", s(&folder), "-e", "reference", "-e", &slow])
        .args(["--timeout", "1", "--expect", "reference=main"])
        .args(["--expect", "slow=time-limit-or-accepted"])
        .output()
        .unwrap();
    assert_exit(&out, 0);
    let csv = dir.path().join("inv.csv");
    let out = gamebench()
        .args(["invoke", s(&folder), "-e", "reference", "-e", &together])
        .args(["--expect", "reference=main", "--csv", s(&csv)])
        .output()
        .unwrap();
    assert_exit(&out, 0);
    let messages = common::column(&csv, "message");
    assert_eq!(
        messages
            .iter()
            .filter(|m| m.contains("no case fails alone"))
            .count(),
        3,
        "{messages:?}"
    );
}

/// `--keep PATTERN`: the tests it names are selected and never useless, like the samples.
#[test]
fn kept_tests_are_selected_and_never_useless() {
    let (dir, folder) = common::game_folder("samegame");
    std::fs::write(folder.join("three.in"), THREE_GRIDS).unwrap();
    let args = [
        s(&folder),
        "-e",
        "reference",
        "-e",
        "bitboard",
        "--expect",
        "reference=main",
    ];
    let without = invoke_json(dir.path(), &args, 0);
    assert!(
        without.useless.iter().any(|t| t == "three.in#3"),
        "{:?}",
        without.useless
    );
    let mut kept = args.to_vec();
    kept.extend(["--keep", "*#3"]);
    let with = invoke_json(dir.path(), &kept, 0);
    assert!(
        with.selected.iter().any(|t| t == "three.in#3"),
        "{:?}",
        with.selected
    );
    assert!(
        !with.useless.iter().any(|t| t == "three.in#3"),
        "{:?}",
        with.useless
    );
}

/// One solution given two different tags by `--expect` is an error naming both; the same tag
/// twice is one.
#[test]
fn two_tags_for_one_solution_are_an_error_naming_both() {
    let corpus = common::root().join("corpora/samegame/hand-rules.in");
    let out = gamebench()
        .args(["invoke", s(&corpus), "-e", "reference"])
        .args([
            "--expect",
            "reference=main",
            "--expect",
            "reference=accepted",
        ])
        .output()
        .unwrap();
    common::assert_exit_saying(&out, 2, "reference=main");
    let err = text(&out.stderr);
    assert!(err.contains("reference=accepted"), "{err}");
    let out = gamebench()
        .args(["invoke", s(&corpus), "-e", "reference"])
        .args(["--expect", "reference=main", "--expect", "reference=main"])
        .output()
        .unwrap();
    assert_exit(&out, 0);
}

/// A program whose only fault is white space (a space at the end of every line): tagged
/// `wrong-answer`, it is told that the tests that kill it (those of the kill report) gave
/// presentation errors only; tagged `presentation-error`, its tag holds.
#[test]
fn a_solution_with_presentation_errors_only_is_told_so() {
    let corpus = common::root().join("corpora/samegame/hand-rules.in");
    let program = format!(
        "p=cmd:{} solve samegame | sed 's/$/ /'",
        env!("CARGO_BIN_EXE_gamebench")
    );
    let invoke = |tag: &str| {
        gamebench()
            .args(["invoke", s(&corpus), "-e", "reference", "-e", &program])
            .args(["--expect", "reference=main", "--expect", tag])
            .output()
            .unwrap()
    };
    let out = invoke("p=wrong-answer");
    assert_exit(&out, 1);
    let stdout = text(&out.stdout);
    let kills = stdout
        .lines()
        .find_map(|l| l.strip_prefix("kills: p: "))
        .unwrap_or_else(|| panic!("{stdout}"));
    let count: usize = kills.split(' ').next().unwrap().parse().unwrap();
    assert!(count > 0, "{stdout}");
    assert!(
        stdout.contains(&format!(
            "solution p (tagged wrong-answer) never got wrong-answer: the {count} test(s) that \
             kill it (first hand-rules.in#1) gave presentation-error only"
        )),
        "{stdout}"
    );
    assert!(!stdout.contains("no test kills it"), "{stdout}");
    assert_exit(&invoke("p=presentation-error"), 0);
}

/// `stress` with an external generator names it in its header, not a profile it ignores.
#[test]
fn the_stress_header_names_an_external_generator() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = common::root().join("corpora/samegame/hand-rules.in");
    let generator = format!("cmd:cat '{}' # {{seed}}", s(&corpus));
    let out = gamebench()
        .args(["stress", "samegame", "-e", "reference", "-e", "bitboard"])
        .args([
            "--generator",
            &generator,
            "--cases",
            "1",
            "--out",
            s(dir.path()),
        ])
        .output()
        .unwrap();
    assert_exit(&out, 0);
    let err = text(&out.stderr);
    assert!(err.contains(", generator `cat '"), "{err}");
    assert!(!err.contains("profile"), "{err}");
}
