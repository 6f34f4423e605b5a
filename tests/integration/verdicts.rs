//! testlib-like checker verdicts: accepted, wrong answer, presentation error (white space
//! only), checker failure (a bad expected output), through `Game::judge_output`, the `check`
//! command's exit codes and the CSV's `verdict` column. Expected outputs are the statements'
//! samples in `corpora/` (not engine output), altered by hand.

use std::path::Path;

use gamebench::game::{CheckVerdict, Game};
use gamebench::registry;

use crate::common;
use common::{game_folder, gamebench, results, root};

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap()
}

/// The verdict on every case of `output` against `expected` (None = accepted).
fn verdicts(game: &str, input: &str, expected: &str, output: &str) -> Vec<Option<CheckVerdict>> {
    let game: &dyn Game = registry::find(game).unwrap();
    let cases = game.parse(input.as_bytes(), &gamebench::game::Reading::STATEMENT);
    let expected = game.split_output(expected);
    let actual = game.split_output(output);
    cases
        .iter()
        .enumerate()
        .map(|(i, parsed)| {
            let case = parsed.case.as_ref().unwrap();
            game.judge_output(case.as_ref(), &expected[i], &actual[i])
                .err()
                .map(|r| r.verdict)
        })
        .collect()
}

use CheckVerdict::{CheckerFailure as Fail, PresentationError as Pe, WrongAnswer as Wa};

#[test]
fn linkpop_verdicts() {
    let input = read("corpora/linkpop/linkpop-sample.in");
    let good = read("corpora/linkpop/linkpop-sample.out");
    assert_eq!(good, "Case 1\n...\n...\n.F.\nCase 2\n..\n");
    let v = |out: &str| verdicts("linkpop", &input, &good, out);
    assert_eq!(v(&good), [None, None]);
    // White space only: trailing spaces, CRLF, spaces inside a row, a blank line.
    assert_eq!(v("Case 1 \n...\n...\n.F.\nCase 2\n..\n"), [Some(Pe), None]);
    assert_eq!(
        v("Case 1\r\n...\r\n...\r\n.F.\r\nCase 2\r\n..\r\n"),
        [Some(Pe), Some(Pe)]
    );
    assert_eq!(
        v("Case 1\n...\n...\n. F .\n\nCase 2\n..\n"),
        [Some(Pe), None]
    );
    assert_eq!(v("Case 1\n...\n...\n.F.\nCase 2\n.."), [None, Some(Pe)]);
    // A different board, or a different row split, is wrong.
    assert_eq!(v("Case 1\n...\n...\n..F\nCase 2\n..\n"), [Some(Wa), None]);
    assert_eq!(v("Case 1\n...\n...\n.G.\nCase 2\n..\n"), [Some(Wa), None]);
    assert_eq!(v("Case 1\n...\n...\nCase 2\n..\n"), [Some(Wa), None]);
    // A malformed expected block: the checker cannot judge.
    let bad = "Case 1\n...\n..\n.F.\nCase 2\n..X\n";
    assert_eq!(
        verdicts("linkpop", &input, bad, &good),
        [Some(Fail), Some(Fail)]
    );
}

#[test]
fn samegame_verdicts() {
    let input = read("corpora/samegame/sample.in");
    let good = read("corpora/samegame/sample.out");
    let v = |out: &str| verdicts("samegame", &input, &good, out);
    assert_eq!(v(&good), [None, None, None]);
    // Grid 2's rows are 13 characters with trailing spaces; dropping them is presentation.
    let trimmed: String = good
        .lines()
        .map(|l| format!("{}\n", l.trim_end()))
        .collect();
    assert_eq!(v(&trimmed), [None, Some(Pe), None]);
    let indented = good.replace("    Game Won", "Game Won");
    assert_eq!(v(&indented), [Some(Pe), None, Some(Pe)]);
    // A space is an empty cell: moving a digit by one column is a wrong answer.
    let moved = good.replace("    1   2    ", "    1 2      ");
    assert_ne!(moved, good);
    assert_eq!(v(&moved), [None, Some(Wa), None]);
    // The expected block of grid 2 with a short row: checker failure.
    let bad = good.replace("    1   2    ", "    1   2");
    assert_eq!(
        verdicts("samegame", &input, &bad, &good),
        [None, Some(Fail), None]
    );
}

#[test]
fn vexed_verdicts() {
    let input = read("corpora/vexed/sample.in");
    let good = read("corpora/vexed/sample.out");
    let v = |out: &str| verdicts("vexed", &input, &good, out);
    assert_eq!(v(&good), [None, None]);
    // The 9 moves of SAMPLE-02 on one line, or with two spaces: presentation.
    let one_line = good.replacen(")\n(", ") (", 2);
    assert_eq!(v(&one_line), [None, Some(Pe)]);
    let spaced = good.replacen(") (", ")  (", 1);
    assert_eq!(v(&spaced), [Some(Pe), None]);
    // A move that is illegal, or K that is not minimal: wrong.
    let illegal = good.replace("(B,1,3,L) (A,0,1,R)", "(A,0,1,R) (B,1,3,L)");
    assert_eq!(v(&illegal), [Some(Wa), None]);
    let longer = good.replace(
        "SAMPLE-01: Minimum solution length = 2\n(B,1,3,L) (A,0,1,R)",
        "SAMPLE-01: Minimum solution length = 3\n(B,1,3,L) (B,1,2,R) (A,0,1,R)",
    );
    assert_eq!(v(&longer)[0], Some(Wa));
    // An expected solution that does not replay: the checker fails, whatever the output.
    assert_eq!(
        verdicts("vexed", &input, &illegal, &good),
        [Some(Fail), None]
    );
}

#[test]
fn yut_verdicts() {
    let input = read("corpora/yut/yut-sample2.in");
    let good = read("corpora/yut/yut-sample2.out");
    let v = |out: &str| verdicts("yut", &input, &good, out);
    assert_eq!(v(&good), [None]);
    assert_eq!(v(&good.replace('\n', " \n")), [Some(Pe)]);
    assert_eq!(v(&good.replace('\n', "")), [Some(Pe)]);
    // Token A moved to another slot of its station: wrong.
    assert_eq!(v(&good.replacen("A.", ".A", 1)), [Some(Wa)]);
    let bad: String = good.lines().take(31).map(|l| format!("{l}\n")).collect();
    assert_eq!(verdicts("yut", &input, &bad, &good), [Some(Fail)]);
}

fn check(game: &str, input: &Path, output: &Path, expected: &Path) -> (Option<i32>, String) {
    let out = gamebench()
        .args(["check", game])
        .arg(input)
        .arg(output)
        .arg("--expected")
        .arg(expected)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn check_exit_codes_follow_the_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let input = root().join("corpora/linkpop/linkpop-sample.in");
    let good = root().join("corpora/linkpop/linkpop-sample.out");
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let pe = write("pe.out", "Case 1\n...\n...\n.F.  \nCase 2\n..\n");
    let wa = write("wa.out", "Case 1\n...\n...\n..F\nCase 2\n..\n");
    let both = write("both.out", "Case 1\n...\n...\n..F\nCase 2\n.. \n");
    let bad = write("bad.out", "Case 1\n...\n");

    for (output, expected, exit, says) in [
        (&good, &good, 0, "2 passed, 0 failed"),
        (&pe, &good, 4, "case 1: presentation-error: line 4"),
        (&wa, &good, 1, "case 1: wrong-answer: line 4"),
        // A malformed expected file: checker failure, whatever the output.
        (&good, &bad, 5, "checker-failure"),
    ] {
        let (code, stdout) = check("linkpop", &input, output, expected);
        assert_eq!(code, Some(exit), "{stdout}");
        assert!(stdout.contains(says), "{stdout}");
    }

    // A wrong answer outweighs a presentation error.
    let (code, stdout) = check("linkpop", &input, &both, &good);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("1 passed, 1 failed")
            || stdout.contains("0 passed, 2 failed (1 wrong answer, 1 presentation error"),
        "{stdout}"
    );

    let binary = dir.path().join("binary.out");
    std::fs::write(&binary, [0xff, 0xfe, b'\n']).unwrap();
    let (code, _) = check("linkpop", &input, &good, &binary);
    assert_eq!(code, Some(5));
}

/// One CSV row as the test compares it: (file stem, case, engine, status, verdict).
type Seen = (String, usize, String, String, String);

/// `run DIR --check -q --csv CSV ARGS...` over `dir/linkpop`: (file stem, case, engine,
/// status, verdict) of every row, and the exit code.
fn run_rows(dir: &Path, args: &[&str]) -> (Option<i32>, Vec<Seen>) {
    let csv = dir.join("r.csv");
    let out = gamebench()
        .arg("run")
        .arg(dir.join("linkpop"))
        .args(["--check", "-q", "--csv"])
        .arg(&csv)
        .args(args)
        .output()
        .unwrap();
    let rows = results(&csv);
    let rows = rows
        .iter()
        .map(|r| {
            let file = Path::new(&r.file).file_stem().unwrap().to_str().unwrap();
            (
                file.to_string(),
                r.case,
                r.engine.clone(),
                r.status.as_str().to_string(),
                r.verdict.map_or(String::new(), |v| v.as_str().to_string()),
            )
        })
        .collect();
    (out.status.code(), rows)
}

#[test]
fn run_check_writes_the_verdict_column() {
    let (dir, corpus) = game_folder("linkpop");
    std::fs::copy(
        root().join("corpora/linkpop/linkpop-sample.in"),
        corpus.join("s.in"),
    )
    .unwrap();
    std::fs::copy(
        root().join("corpora/linkpop/linkpop-sample.out"),
        corpus.join("s.out"),
    )
    .unwrap();
    // Two external "solutions" that print a fixed output: one with a trailing space in case
    // 1, one with a wrong cell in case 1.
    let pe = dir.path().join("pe.txt");
    std::fs::write(&pe, "Case 1\n...\n...\n.F. \nCase 2\n..\n").unwrap();
    let wa = dir.path().join("wa.txt");
    std::fs::write(&wa, "Case 1\n...\n...\n..F\nCase 2\n..\n").unwrap();
    let pe_engine = format!("pe=cmd:cat {}", pe.display());
    let wa_engine = format!("wa=cmd:cat {}", wa.display());
    let (code, rows) = run_rows(dir.path(), &["-e", &pe_engine, "-e", &wa_engine]);
    assert_eq!(code, Some(1), "mismatches: exit 1");
    let want = |case, engine: &str, status: &str, verdict: &str| {
        (
            "s".to_string(),
            case,
            engine.to_string(),
            status.to_string(),
            verdict.to_string(),
        )
    };
    assert_eq!(
        rows,
        [
            want(1, "pe", "mismatch", "presentation-error"),
            want(1, "wa", "mismatch", "wrong-answer"),
            want(2, "pe", "ok", ""),
            want(2, "wa", "ok", ""),
        ]
    );
    // A malformed expected output: the internal engine's cases are errors (checker failure).
    std::fs::write(corpus.join("s.out"), "Case 1\n...\n").unwrap();
    let (code, rows) = run_rows(dir.path(), &[]);
    assert_eq!(code, Some(2), "a checker failure is an error");
    let verdicts: Vec<(&str, &str)> = rows.iter().map(|r| (r.3.as_str(), r.4.as_str())).collect();
    assert_eq!(
        verdicts,
        [("error", "checker-failure"), ("error", "checker-failure")]
    );
}
