//! `invoke --report FILE.html` and `report` given invoke's CSV: the report's page of the
//! invocation (a solution is an engine, a test a case) with the invocation's own section (the
//! verdict table, the tag check, the strength report); invoke's CSV read back by `report`
//! (refused before), a malformed one refused naming its line.
//!
//! The problem is `invoke.rs`'s (`a.in` case 1 is a wrong answer for
//! `tests/wrong/linkpop_position_first.py`, its other cases and `b.in` are not).

use std::path::PathBuf;

use crate::common;
use common::{assert_exit, s, text};

/// `linkpop/a.in` (two cases) and `linkpop/b.in` with their `.out`, written by hand.
fn problem() -> (tempfile::TempDir, PathBuf) {
    let (dir, folder) = common::game_folder("linkpop");
    for (name, content) in [
        ("a.in", "1 4\nAS BS AS AS\n1 2\nAS AS\n0 0\n"),
        ("a.out", "Case 1\nAB..\nCase 2\n..\n"),
        ("b.in", "1 3\nAS BS AS\n0 0\n"),
        ("b.out", "Case 1\n.B.\n"),
    ] {
        std::fs::write(folder.join(name), content).unwrap();
    }
    (dir, folder)
}

const POSITION_FIRST: &str = "pos=cmd:python3 tests/wrong/linkpop_position_first.py";

#[test]
fn invoke_writes_the_report_and_report_reads_invokes_csv() {
    let (dir, tests) = problem();
    let html = dir.path().join("inv.html");
    let csv = dir.path().join("inv.csv");
    let out = common::run_from_root(&[
        "invoke",
        s(&tests),
        "-e",
        "reference",
        "-e",
        POSITION_FIRST,
        "--expect",
        "reference=main",
        "--expect",
        "pos=wrong-answer",
        "--report",
        s(&html),
        "--csv",
        s(&csv),
    ]);
    assert_exit(&out, 0);
    let page = std::fs::read_to_string(&html).unwrap();
    // The report's page, with the solutions as its engines.
    assert!(page.contains("<h1>gamebench report</h1>"), "{page}");
    assert!(page.contains("pos"), "{page}");
    // The invocation's section: the header with tags, the cells, the strength report.
    assert!(
        page.contains("<h2 id=\"invocation\">Invocation: linkpop (3 tests, 2 solutions)</h2>"),
        "{page}"
    );
    assert!(page.contains("<th>pos (wrong-answer)</th>"), "{page}");
    let row = page
        .lines()
        .find(|l| l.starts_with("<tr><td>a.in#1</td>"))
        .unwrap_or_else(|| panic!("no row for a.in#1: {page}"));
    assert_eq!(row.matches(">OK ").count(), 1, "{row}");
    assert_eq!(row.matches(">WA ").count(), 1, "{row}");
    assert!(
        page.contains("<li>kills: pos: 1 test(s): a.in#1</li>"),
        "{page}"
    );
    // The wrong answer among the page's failing cases, said as one.
    assert!(page.contains("wrong-answer: "), "{page}");
    assert!(
        page.ends_with("</body></html>\n"),
        "the section inside the body"
    );

    // `report` reads the CSV invoke wrote: every (test, solution) a case of the run.
    let again = dir.path().join("again.html");
    let out = common::run(&["report", s(&csv), "-o", s(&again)]);
    assert_exit(&out, 0);
    let page = std::fs::read_to_string(&again).unwrap();
    assert!(page.contains("<h1>gamebench report</h1>"), "{page}");
    assert!(page.contains("pos") && page.contains("reference"), "{page}");
    assert!(page.contains("wrong-answer: "), "{page}");

    // A line with a verdict invoke never writes: refused, naming the file and the line.
    let bad = dir.path().join("bad.csv");
    let mut lines: Vec<String> = std::fs::read_to_string(&csv)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    lines[1] = lines[1].replacen(",ok,", ",fine,", 1);
    std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
    let out = common::run(&["report", s(&bad), "-o", s(&dir.path().join("bad.html"))]);
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    assert!(
        err.contains("bad.csv, line 2: unknown verdict \"fine\""),
        "{err}"
    );
}
