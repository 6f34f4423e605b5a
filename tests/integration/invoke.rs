//! `gamebench invoke` end to end: a small Link and Pop problem whose every verdict is derived
//! by hand, solved by the reference (main), `bitboard` (accepted), the deliberately wrong
//! `tests/wrong/linkpop_position_first.py` (wrong answer), a solution that loops (time limit),
//! one that crashes (runtime error) and one that allocates past the limit; the table checked cell by cell, the tags (exit 0 when
//! every one holds, 1 naming the culprit), the strength report and the selected tests; the
//! other wrong solutions of `tests/wrong/` on their own games' corpora.
//!
//! The hand-built tests (RULES.md of Link and Pop: fewest segments first, then position):
//! - `a.in` case 1, `1 4 / AS BS AS AS`: the adjacent As (columns 2, 3) link with one segment
//!   and pop first, leaving `AB..`; the A of column 0 then has no partner. Popping the first
//!   linkable pair by position instead pops columns 0 and 2 (three segments through the ring
//!   above the board), leaving `.B.A`: a wrong answer for `position_first`.
//! - `a.in` case 2, `1 2 / AS AS`: one pair, which pops whatever the rule: `..`.
//! - `b.in`, `1 3 / AS BS AS`: one pair (three segments through the ring): `.B.`.
//! - `c.in`, `2 2 / AS BS / BS AS` (no `.out`: its expected output is the main solution's):
//!   each pair's shortest path needs four segments, so nothing pops, whatever the rule.

use std::path::{Path, PathBuf};

use crate::common;
use common::{assert_exit, root, s, text};

/// The hand-built tests of the module's docs, in a `linkpop` folder; `.out` files written by
/// hand (none for `c.in`).
fn problem() -> (tempfile::TempDir, PathBuf) {
    let (dir, folder) = common::game_folder("linkpop");
    let files = [
        ("a.in", "1 4\nAS BS AS AS\n1 2\nAS AS\n0 0\n"),
        ("a.out", "Case 1\nAB..\nCase 2\n..\n"),
        ("b.in", "1 3\nAS BS AS\n0 0\n"),
        ("b.out", "Case 1\n.B.\n"),
        ("c.in", "2 2\nAS BS\nBS AS\n0 0\n"),
    ];
    for (name, content) in files {
        std::fs::write(folder.join(name), content).unwrap();
    }
    (dir, folder)
}

const POSITION_FIRST: &str = "pos=cmd:python3 tests/wrong/linkpop_position_first.py";
/// A solution that never ends (killed at the time limit).
const LOOP: &str = "loop=cmd:python3 -c 'while True: pass'";
/// A solution that allocates 200 MB, run under a 100 MB limit (`tests/programs/alloc.py`).
const MEMORY: &str = "mem=cmd:python3 tests/programs/alloc.py 200";
/// A solution that crashes: `tests/programs/segv.c` when a C compiler is there, else a
/// program that exits with code 3 (a runtime error either way).
fn crash(dir: &Path) -> String {
    let out = dir.join("segv");
    let ok = std::process::Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&out)
        .arg(root().join("tests/programs/segv.c"))
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        format!("segv=cmd:{}", out.display())
    } else {
        "segv=cmd:python3 -c 'import sys; sys.exit(3)'".to_string()
    }
}

use common::run_from_root as gamebench;

/// (test, solution) -> verdict, from the CSV.
fn verdicts(csv: &Path) -> Vec<(String, String, String)> {
    common::columns(csv, &["test", "solution", "verdict"])
        .into_iter()
        .map(|r| (r[0].clone(), r[1].clone(), r[2].clone()))
        .collect()
}

/// Every tag holds: exit 0; the table, cell by cell, is the hand-derived one; the strength
/// report names what kills each failing solution; the selected tests, written as files, still
/// kill the wrong solution and pass the reference's check; CSV, JSON, Markdown and JUnit
/// agree.
#[test]
fn a_small_problem_gives_the_hand_derived_table_and_every_tag_holds() {
    let (dir, tests) = problem();
    let crash = crash(dir.path());
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let csv = out_dir.join("t.csv");
    let json = out_dir.join("t.json");
    let markdown = out_dir.join("t.md");
    let junit = out_dir.join("t.xml");
    let select = out_dir.join("selected");
    let out = gamebench(&[
        "invoke",
        s(&tests),
        "-e",
        "reference",
        "-e",
        "bitboard",
        "-e",
        POSITION_FIRST,
        "-e",
        LOOP,
        "-e",
        &crash,
        "-e",
        MEMORY,
        "--memory-limit",
        "100",
        "--expect",
        "reference=main",
        "--expect",
        "bitboard=accepted",
        "--expect",
        "pos=wrong-answer",
        "--expect",
        "loop=time-limit",
        "--expect",
        "segv=runtime-error",
        "--expect",
        "mem=memory-limit",
        // The loop is killed at 1 s of CPU; the wall limit leaves Python's start-up room on a
        // loaded machine.
        "--cpu-limit",
        "1",
        "--timeout",
        "20",
        "-j",
        "2",
        "--csv",
        s(&csv),
        "--json",
        s(&json),
        "--markdown",
        s(&markdown),
        "--junit",
        s(&junit),
        "--select",
        s(&select),
        // One page: every solution beside the test column.
        "--width",
        "500",
    ]);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    // The table, cell by cell (solutions in command-line order, tests in file order).
    let tests_in_order = ["a.in#1", "a.in#2", "b.in", "c.in"];
    let expected: Vec<(String, String, String)> = tests_in_order
        .iter()
        .flat_map(|&t| {
            let pos = if t == "a.in#1" { "wrong-answer" } else { "ok" };
            [
                ("reference", "ok"),
                ("bitboard", "ok"),
                ("pos", pos),
                ("loop", "timeout"),
                ("segv", "runtime-error"),
                ("mem", "memory-limit"),
            ]
            .map(|(s, v)| (t.to_string(), s.to_string(), v.to_string()))
        })
        .collect();
    assert_eq!(verdicts(&csv), expected);
    // The terminal table: a header with the tags, a row per test, the shares of the limit.
    assert!(stdout.contains("pos (wrong-answer)"), "{stdout}");
    let row = stdout
        .lines()
        .find(|l| l.starts_with("a.in#1"))
        .expect("a row for a.in#1");
    // A runtime error's cell carries its cause: `RE(SIGSEGV)`, or `RE(exit 3)` without cc.
    let verdict_words: Vec<&str> = row
        .split_whitespace()
        .map(|w| w.split('(').next().unwrap_or(w))
        .filter(|w| ["OK", "WA", "PE", "TL", "ML", "OL", "RE", "FAIL"].contains(w))
        .collect();
    assert_eq!(verdict_words, ["OK", "OK", "WA", "TL", "RE", "ML"], "{row}");
    assert!(
        row.contains("RE(SIGSEGV)") || row.contains("RE(exit 3)"),
        "{row}"
    );
    assert!(stdout.contains("of limit"), "{stdout}");
    assert!(
        stdout.contains(">=100%"),
        "the loop passed the limit: {stdout}"
    );
    // Strength: what kills each solution that fails.
    assert!(
        stdout.contains("kills: pos: 1 test(s): a.in#1\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("kills: loop: 4 test(s): a.in#1, a.in#2, b.in, c.in\n"),
        "{stdout}"
    );
    assert!(stdout.contains("kills: segv: 4 test(s)"), "{stdout}");
    assert!(!stdout.contains("tag contradicted"), "{stdout}");
    // The JSON: the selected tests kill every failing solution and hold the slowest tests.
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let selected: Vec<&str> = doc["strength"]["selected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(selected.contains(&"a.in#1"), "{selected:?}");
    for slowest in doc["strength"]["slowest"].as_array().unwrap() {
        assert!(selected.contains(&slowest[1].as_str().unwrap()), "{doc}");
    }
    for kill in doc["strength"]["kills"].as_array().unwrap() {
        let killers: Vec<&str> = kill[1]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert!(killers.iter().any(|k| selected.contains(k)), "{kill}");
    }
    assert_eq!(doc["tests"][3]["expected"], "main");
    assert_eq!(doc["tests"][0]["expected"], "out");
    assert_eq!(doc["tags"]["contradictions"].as_array().unwrap().len(), 0);
    // Markdown: a row per test, a column per solution.
    let md = std::fs::read_to_string(&markdown).unwrap();
    assert!(
        md.lines()
            .any(|l| l.starts_with("| a.in#1 | OK ") && l.contains("| WA ")),
        "{md}"
    );
    assert_eq!(
        md.lines().filter(|l| l.starts_with("| ")).count(),
        1 + 4 + 2
    );
    // JUnit: a test case per test and solution, plus one per tag; all pass.
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<testcase ").count(), 4 * 6 + 6, "{xml}");
    assert!(!xml.contains("<failure"), "{xml}");
    // Every (test, solution) carries its verdict, the wrong solutions' kills included.
    assert_eq!(
        xml.matches("<property name=\"verdict\" ").count(),
        4 * 6,
        "{xml}"
    );
    let cells: Vec<&serde_json::Value> = doc["tests"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["cells"].as_array().unwrap())
        .collect();
    let wrong = cells
        .iter()
        .filter(|c| c["verdict"] == "wrong-answer")
        .count();
    assert!(wrong > 0);
    assert_eq!(
        xml.matches("<property name=\"verdict\" value=\"wrong-answer\"/>")
            .count(),
        wrong,
        "{xml}"
    );
    // The Markdown carries the kills and the selection too.
    assert!(md.contains("\n- kills: pos: "), "{md}");
    assert!(md.contains("\n- selected: "), "{md}");
    // Link and Pop numbers its cases: a.in#1 is written alone, its block renumbered as case 1
    // (it is the first case, so its block is the start of a.out).
    assert!(!stdout.contains("whole file(s) selected"), "{stdout}");
    let alone = std::fs::read_to_string(select.join("a-c1.out")).unwrap();
    assert!(alone.starts_with("Case 1\n"), "{alone}");
    assert!(
        std::fs::read_to_string(tests.join("a.out"))
            .unwrap()
            .starts_with(&alone),
        "{alone}"
    );
    // Every selected file has its expected output, and the reference agrees with all of them.
    for input in common::inputs(&select) {
        assert!(input.with_extension("out").is_file(), "{}", input.display());
    }
    let check = gamebench(&[
        "run",
        s(&select),
        "--game",
        "linkpop",
        "-e",
        "reference",
        "--check",
        "--quiet",
    ]);
    assert_exit(&check, 0);
    // The subset still kills the wrong solution.
    let again = gamebench(&[
        "invoke",
        s(&select),
        "--game",
        "linkpop",
        "-e",
        "reference",
        "-e",
        POSITION_FIRST,
        "--expect",
        "reference=main",
        "--expect",
        "pos=wrong-answer",
    ]);
    assert_exit(&again, 0);
}

/// A tag that does not hold exits 1 and names the solution, the test and the verdict; a
/// wrong-answer tag on a correct solution names it as never getting one.
#[test]
fn a_contradicted_tag_exits_1_naming_the_culprit() {
    let (_dir, tests) = problem();
    let out = gamebench(&[
        "invoke",
        s(&tests),
        "-e",
        "reference",
        "-e",
        POSITION_FIRST,
        "--expect",
        "reference=main",
        "--expect",
        "pos=accepted",
    ]);
    assert_exit(&out, 1);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(
            "tag contradicted: solution pos (tagged accepted) got wrong-answer on test a.in#1: "
        ),
        "{stdout}"
    );
    let out = gamebench(&[
        "invoke",
        s(&tests),
        "-e",
        "reference",
        "-e",
        "bitboard",
        "--expect",
        "reference=main",
        "--expect",
        "bitboard=wrong-answer",
    ]);
    assert_exit(&out, 1);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(
            "solution bitboard (tagged wrong-answer) never got wrong-answer on any of the 4 tests"
        ),
        "{stdout}"
    );
    // The contradiction is a JUnit failure too.
    let (dir, _) = common::game_folder("x");
    let junit = dir.path().join("j.xml");
    let out = gamebench(&[
        "invoke",
        s(&tests),
        "-e",
        "reference",
        "-e",
        POSITION_FIRST,
        "--expect",
        "pos=failing",
        "--expect",
        "reference=accepted",
        "--junit",
        s(&junit),
    ]);
    // `reference` tagged accepted: no main, but every test but c.in has a .out.
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains("c.in has no expected output"),
        "{}",
        text(&out.stderr)
    );
}

/// The other deliberately wrong solutions on their games' bundled corpora: each gets a wrong
/// answer somewhere (its tag holds, exit 0) while the reference passes everything.
#[test]
fn the_other_wrong_solutions_are_killed_by_the_bundled_corpora() {
    for (corpus, script) in [
        ("corpora/samegame", "samegame_no_collapse.py"),
        ("corpora/yut", "yut_duet_mo.py"),
    ] {
        let wrong = format!("wrong=cmd:python3 tests/wrong/{script}");
        let out = gamebench(&[
            "invoke",
            corpus,
            "-e",
            "reference",
            "-e",
            &wrong,
            "--expect",
            "reference=main",
            "--expect",
            "wrong=wrong-answer",
            "-j",
            "2",
        ]);
        assert_exit(&out, 0);
        assert!(text(&out.stdout).contains("kills: wrong: "), "{corpus}");
    }
}

/// Vexed can write a case as an input of its own: a selected case of a several-case file is
/// written alone, with its expected block, and the reference agrees with it. (The sample is
/// copied under another name: a `sample*` file is always selected whole.)
#[test]
fn a_selected_case_of_a_vexed_file_is_written_alone() {
    let (dir, vexed) = common::game_folder("vexed");
    for ext in ["in", "out"] {
        std::fs::copy(
            root().join(format!("corpora/vexed/sample.{ext}")),
            vexed.join(format!("pack.{ext}")),
        )
        .unwrap();
    }
    let select = dir.path().join("selected");
    let out = gamebench(&[
        "invoke",
        s(&vexed),
        "-e",
        "reference",
        "-e",
        "echo=cmd:cat",
        "--expect",
        "reference=main",
        "--expect",
        "echo=failing",
        "--select",
        s(&select),
    ]);
    assert_exit(&out, 0);
    let written = common::inputs(&select);
    assert_eq!(written.len(), 1, "{written:?}");
    let name = written[0]
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    assert!(name == "pack-c1.in" || name == "pack-c2.in", "{name}");
    let input = std::fs::read_to_string(&written[0]).unwrap();
    // The case as it stands in the file (the sample is in the canonical layout), then the
    // terminator.
    let input = input
        .strip_suffix("0 0 END\n")
        .unwrap_or(&input)
        .to_string();
    let sample = std::fs::read_to_string(vexed.join("pack.in")).unwrap();
    assert!(sample.contains(input.trim_end()), "{input}");
    let check = gamebench(&[
        "run",
        s(&select),
        "--game",
        "vexed",
        "-e",
        "reference",
        "--check",
        "--quiet",
        "--csv",
        s(&dir.path().join("r.csv")),
    ]);
    assert_exit(&check, 0);
    assert_eq!(
        common::csv_table(&dir.path().join("r.csv")).len(),
        2,
        "one case"
    );
}

/// Tests that kill nothing (and are no correct solution's slowest) are named useless.
#[test]
fn tests_that_kill_nothing_are_useless() {
    let (dir, tests) = problem();
    let json = dir.path().join("s.json");
    let out = gamebench(&[
        "invoke",
        s(&tests),
        "-e",
        "reference",
        "-e",
        POSITION_FIRST,
        "--expect",
        "reference=main",
        "--json",
        s(&json),
        "--width",
        "40",
    ]);
    // `pos` is untagged: no tag to contradict.
    assert_exit(&out, 0);
    // 40 columns hold the test column and one solution: a page per solution, each with the
    // test column and a row per test.
    let stdout = text(&out.stdout);
    let headers: Vec<&str> = stdout.lines().filter(|l| l.starts_with("test ")).collect();
    assert_eq!(headers.len(), 2, "{stdout}");
    assert!(headers[0].contains("reference (main)") && !headers[0].contains("pos"));
    assert!(headers[1].contains("pos"), "{stdout}");
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("a.in#1 ")).count(),
        2
    );
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let slowest = doc["strength"]["slowest"][0][1]
        .as_str()
        .unwrap()
        .to_string();
    let useless: Vec<String> = doc["strength"]["useless"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let expected: Vec<String> = ["a.in#2", "b.in", "c.in"]
        .into_iter()
        .filter(|t| *t != slowest)
        .map(String::from)
        .collect();
    assert_eq!(useless, expected);
    let selected = doc["strength"]["selected"].as_array().unwrap();
    assert!(selected.iter().any(|t| t == "a.in#1"));
    assert!(selected.iter().any(|t| t.as_str() == Some(&slowest)));
}

/// The problem file gives the same invocation as the command line; its errors name the file.
#[test]
fn a_problem_file_holds_the_whole_invocation() {
    let (dir, tests) = problem();
    let problem = dir.path().join("problem.toml");
    std::fs::write(
        &problem,
        format!(
            "game = \"linkpop\"\ntests = [\"{}\"]\n[limits]\ntimeout = 5\n\n\
             [[solution]]\nengine = \"reference\"\ntag = \"main\"\n\n\
             [[solution]]\nname = \"pos\"\ncmd = \"python3 tests/wrong/linkpop_position_first.py\"\ntag = \"wrong-answer\"\n",
            tests.file_name().unwrap().to_str().unwrap()
        ),
    )
    .unwrap();
    let csv = dir.path().join("p.csv");
    let out = gamebench(&["invoke", "--problem", s(&problem), "--csv", s(&csv)]);
    assert_exit(&out, 0);
    let wrong: Vec<(String, String, String)> = verdicts(&csv)
        .into_iter()
        .filter(|(_, _, v)| v != "ok")
        .collect();
    assert_eq!(
        wrong,
        [(
            "a.in#1".to_string(),
            "pos".to_string(),
            "wrong-answer".to_string()
        )]
    );
    // A command-line tag wins over the file's.
    let out = gamebench(&[
        "invoke",
        "--problem",
        s(&problem),
        "--expect",
        "pos=accepted",
    ]);
    assert_exit(&out, 1);
    std::fs::write(&problem, "tests = [\"x\"]\n[limit]\ntimeout = 5\n").unwrap();
    let out = gamebench(&["invoke", "--problem", s(&problem)]);
    assert_exit(&out, 2);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("problem.toml") && stderr.contains("line 2"),
        "{stderr}"
    );
}

/// Careless input: no solution tagged main with a test lacking `.out`, a tag for no solution,
/// two mains, a missing folder, tests of two games: exit 2 with the reason, nothing run.
#[test]
fn bad_invocations_exit_2_with_the_reason() {
    let (_dir, tests) = problem();
    let t = s(&tests);
    let cases: [(&[&str], &str); 5] = [
        (
            &["invoke", t, "-e", "reference"],
            "c.in has no expected output",
        ),
        (
            &["invoke", t, "-e", "reference", "--expect", "refrence=main"],
            "did you mean \"reference\"",
        ),
        (
            &[
                "invoke",
                t,
                "-e",
                "reference",
                "-e",
                "bitboard",
                "--expect",
                "reference=main",
                "--expect",
                "bitboard=main",
            ],
            "2 solutions are tagged main",
        ),
        (
            &["invoke", "/nonexistent/tests", "-e", "reference"],
            "/nonexistent/tests",
        ),
        (
            &["invoke", "corpora/yut", "corpora/vexed", "-e", "reference"],
            "several games",
        ),
    ];
    for (args, why) in cases {
        let out = gamebench(args);
        assert_exit(&out, 2);
        assert!(
            text(&out.stderr).contains(why),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    let out = gamebench(&["invoke", t, "-e", "reference", "--expect", "reference=fast"]);
    assert_exit(&out, 2);
    assert!(text(&out.stderr).contains("unknown tag"));
}
