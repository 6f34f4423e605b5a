//! The report as a browser renders it: a SameGame program whose output has one digit moved
//! to another column, run with `--check --out-dir --report`; the page opened in headless
//! Chromium, with a probe script appended to a copy of it that writes what the layout gives
//! (the failing case's expected and actual boards, their positions, the document's width
//! against the window's) into the DOM, read back with `--dump-dom`. Skipped with a printed
//! reason when `chromium` is not on PATH, unless GAMEBENCH_REQUIRE_CHROMIUM is set (`.ci/run`
//! sets it after installing Chromium), which makes a missing browser a failure.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::{assert_exit, root, run, s, text};

/// The window the page is rendered in (a laptop's).
const WINDOW: &str = "--window-size=1280,900";

/// The expected output of corpora/samegame/hand-rules.in with grid 9's `5` moved one column
/// to the left: a wrong answer in case 9 alone.
fn moved_output() -> String {
    let expected = std::fs::read_to_string(root().join("corpora/samegame/hand-rules.out")).unwrap();
    let (row, moved) = ("    1   5 1  ", "    1 5   1  ");
    assert_eq!(expected.matches(row).count(), 1, "the row to change");
    expected.replace(row, moved)
}

/// `chromium` (or `chromium-browser`) when it runs; `None` with the reason printed, or a
/// panic under GAMEBENCH_REQUIRE_CHROMIUM.
pub fn chromium() -> Option<&'static str> {
    let found = ["chromium", "chromium-browser"].into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if found.is_none() {
        assert!(
            std::env::var_os("GAMEBENCH_REQUIRE_CHROMIUM").is_none(),
            "GAMEBENCH_REQUIRE_CHROMIUM is set and no chromium runs"
        );
        eprintln!(
            "SKIPPED: the headless browser check (no `chromium` on PATH; `apt-get install chromium`)"
        );
    }
    found
}

/// Renders `html` headless and returns the DOM after its scripts ran.
fn dump_dom(chromium: &str, html: &Path) -> String {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(chromium)
        .args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--hide-scrollbars",
            WINDOW,
            &format!("--user-data-dir={}", profile.path().display()),
            "--dump-dom",
            &format!("file://{}", html.canonicalize().unwrap().display()),
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

/// Measures the rendered page and writes the figures into `<body data-probe="...">`.
const PROBE: &str = "<script>(function(){\
var d=document.documentElement,r=[];\
r.push('overflow='+(d.scrollWidth>d.clientWidth?1:0));\
document.querySelectorAll('.answers').forEach(function(a){\
var e=a.querySelector('figure.expected svg'),x=a.querySelector('figure.actual svg');\
if(!e||!x){r.push('pair=missing');return;}\
var be=e.getBoundingClientRect(),bx=x.getBoundingClientRect();\
r.push('pair='+(Math.abs(be.top-bx.top)<1&&bx.left>=be.right?'side-by-side':'stacked'));\
r.push('expected-cells='+e.querySelectorAll('text').length+',actual-cells='+x.querySelectorAll('text').length);});\
document.querySelectorAll('table').forEach(function(t){if(t.getBoundingClientRect().right>d.clientWidth)r.push('wide-table='+(t.id||'?'));});\
document.body.setAttribute('data-probe',r.join(' '));})();</script>";

#[test]
fn a_moved_samegame_digit_is_drawn_as_expected_and_actual_boards_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("samegame");
    std::fs::create_dir(&corpus).unwrap();
    for ext in ["in", "out"] {
        std::fs::copy(
            root().join(format!("corpora/samegame/hand-rules.{ext}")),
            corpus.join(format!("hand-rules.{ext}")),
        )
        .unwrap();
    }
    let moved = dir.path().join("moved.txt");
    std::fs::write(&moved, moved_output()).unwrap();
    let (out_dir, html) = (dir.path().join("outputs"), dir.path().join("report.html"));
    let engine = format!("moved=cmd:cat {}", s(&moved));
    let out = run(&[
        "run",
        s(&corpus),
        "-e",
        "reference",
        "-e",
        &engine,
        "--check",
        "--quiet",
        "--out-dir",
        s(&out_dir),
        "--report",
        s(&html),
    ]);
    assert_exit(&out, 1);
    let page = std::fs::read_to_string(&html).unwrap();
    // The failing case (9) has both boards in the page, expected and actual, which differ.
    let case = page
        .split("<div class=\"board-case\"")
        .find(|b| b.contains("case 9 <i>(mismatch in moved)"))
        .unwrap_or_else(|| panic!("no board of case 9 in the page"));
    let figure = |class: &str| {
        let start = case
            .find(&format!("<figure class=\"{class}\">"))
            .unwrap_or_else(|| panic!("no {class} board"));
        let rest = &case[start..];
        rest[..rest.find("</figure>").unwrap()].to_string()
    };
    let (expected, actual) = (figure("expected"), figure("actual"));
    let svg = |figure: &str| {
        let start = figure.find("<svg").expect("a board drawn");
        figure[start..figure.find("</svg>").unwrap()].to_string()
    };
    assert_ne!(svg(&expected), svg(&actual), "the boards do not differ");
    assert!(actual.contains("actual final board (moved)"));
    // The same page from `gamebench report --outputs` of the run's CSV draws the same pair.
    let csv = dir.path().join("run.csv");
    let again = dir.path().join("again.html");
    assert_exit(
        &run(&[
            "run",
            s(&corpus),
            "-e",
            "reference",
            "-e",
            &engine,
            "--check",
            "--quiet",
            "--csv",
            s(&csv),
        ]),
        1,
    );
    assert_exit(
        &run(&[
            "report",
            s(&csv),
            "--corpus",
            s(&corpus),
            "--outputs",
            s(&out_dir),
            "-o",
            s(&again),
        ]),
        0,
    );
    let page_again = std::fs::read_to_string(&again).unwrap();
    assert!(page_again.contains("<figure class=\"actual\"><svg"));

    let Some(chromium) = chromium() else {
        return;
    };
    let probed = dir.path().join("probed.html");
    std::fs::write(&probed, page.replace("</body>", &format!("{PROBE}</body>"))).unwrap();
    let dom = dump_dom(chromium, &probed);
    let probe = dom
        .split("data-probe=\"")
        .nth(1)
        .and_then(|p| p.split('"').next())
        .unwrap_or_else(|| panic!("the probe did not run:\n{dom}"));
    eprintln!("probe: {probe}");
    assert!(
        probe.contains("overflow=0"),
        "the page is wider than the window: {probe}"
    );
    assert!(
        !probe.contains("wide-table"),
        "a table wider than the window: {probe}"
    );
    assert!(probe.contains("pair=side-by-side"), "{probe}");
    assert!(
        !probe.contains("pair=stacked") && !probe.contains("pair=missing"),
        "{probe}"
    );
    // Both boards drawn with their digits: the same number of cells (one moved, none lost).
    let cells = probe
        .split(' ')
        .find(|w| w.starts_with("expected-cells="))
        .unwrap();
    let (e, a) = cells.split_once(',').unwrap();
    assert_eq!(
        e.trim_start_matches("expected-cells="),
        a.trim_start_matches("actual-cells="),
        "{probe}"
    );
    assert!(!e.ends_with("=0"), "{probe}");
}
