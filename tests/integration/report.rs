//! `gamebench report` and `run --report`: one self-contained HTML page of the four bundled
//! corpora with two engines each, under 5 MB, with the summary table and a board of every
//! game; opened in headless Chromium (when `chromium` is on PATH, else skipped with a
//! message) it loads with no console error.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::{assert_exit, root, run, s, text};

/// The bundled corpora without their slow parts (Link and Pop's generated folder and the
/// hard Vexed levels take the reference engines minutes).
fn quick_corpus() -> Vec<String> {
    let c = root().join("corpora");
    [
        "linkpop/rules.in",
        "linkpop/linkpop-sample.in",
        "linkpop/linkpop-extra.in",
        "samegame",
        "vexed/sample.in",
        "vexed/traps.in",
        "yut",
    ]
    .iter()
    .map(|p| c.join(p).display().to_string())
    .collect()
}

const MAX_BYTES: u64 = 5 << 20;

fn check_page(page: &str) {
    assert!(page.starts_with("<!DOCTYPE html>") && page.ends_with("</html>\n"));
    assert!(page.contains("<table id=\"summary\">"), "no summary table");
    for game in ["linkpop", "samegame", "vexed", "yut"] {
        assert!(
            page.contains(&format!("<div class=\"board-case\" data-game=\"{game}\">")),
            "no {game} board"
        );
        let engine_row = format!("<tr><td>{game}</td><td>reference</td>");
        assert!(page.contains(&engine_row), "no {engine_row}");
    }
    // Self-contained: nothing is fetched.
    for external in ["src=\"http", "href=\"http", "<link ", "@import", "url("] {
        assert!(!page.contains(external), "the page loads {external}");
    }
}

#[test]
fn run_report_of_the_bundled_corpora_is_one_small_page_with_boards() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("report.html");
    let csv = dir.path().join("run.csv");
    let mut args = vec!["run".to_string()];
    args.extend(quick_corpus());
    for a in [
        "-e",
        "all",
        "--check",
        "--quiet",
        "--csv",
        s(&csv),
        "--report",
        s(&html),
    ] {
        args.push(a.to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&args);
    assert_exit(&out, 0);
    let size = std::fs::metadata(&html).unwrap().len();
    assert!(size < MAX_BYTES, "{size} bytes");
    let page = std::fs::read_to_string(&html).unwrap();
    check_page(&page);
    // Two engines per game in the summary.
    for row in [
        "<td>linkpop</td><td>bitboard</td>",
        "<td>vexed</td><td>bitset</td>",
        "<td>yut</td><td>table</td>",
        "<td>samegame</td><td>bitboard</td>",
    ] {
        assert!(page.contains(row), "no {row}");
    }
    // A Vexed board replays its solution: frames with move captions.
    assert!(page.contains("<figcaption>move 1: "), "no Vexed replay");
    headless(&html);

    // `gamebench report` of the CSV (and a comparison with itself) makes the same boards when
    // told where the inputs are.
    let again = dir.path().join("again.html");
    let corpus = root().join("corpora");
    let out = run(&[
        "report",
        s(&csv),
        "-o",
        s(&again),
        "--corpus",
        s(&corpus.join("linkpop")),
        "--corpus",
        s(&corpus.join("vexed")),
        "--corpus",
        s(&corpus),
    ]);
    assert_exit(&out, 0);
    let out = run(&[
        "report",
        "--compare",
        s(&csv),
        s(&csv),
        "-o",
        s(&again),
        "--corpus",
        s(&corpus),
    ]);
    assert_exit(&out, 0);
    let page = std::fs::read_to_string(&again).unwrap();
    assert!(page.contains("<h2 id=\"comparison\">Comparison</h2>"));
    assert!(page.contains("verdict: no change; exit 0"));
    // Bad uses: no input, the output is an input, an unreadable input.
    assert_exit(&run(&["report", "-o", s(&again)]), 2);
    assert_exit(&run(&["report", s(&csv), "-o", s(&csv)]), 2);
    assert_exit(&run(&["report", "/nonexistent.csv", "-o", s(&again)]), 2);
    assert_exit(&run(&["report", s(&csv), "-o", s(&csv.join("r.html"))]), 2);
}

/// Opens the page in headless Chromium: no console error, the summary table and a board in
/// the rendered DOM. Skipped, with a message, without `chromium` on PATH.
fn headless(html: &Path) {
    let Some(chromium) = ["chromium", "chromium-browser"].into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    }) else {
        eprintln!(
            "SKIPPED: the headless browser check (no `chromium` on PATH; `apt-get install chromium`)"
        );
        return;
    };
    let url = format!("file://{}", html.canonicalize().unwrap().display());
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(chromium)
        .args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--enable-logging=stderr",
            "--v=0",
            &format!("--user-data-dir={}", profile.path().display()),
            "--dump-dom",
            &url,
        ])
        .output()
        .unwrap();
    let log = text(&out.stderr);
    assert!(out.status.success(), "{log}");
    for error in ["Uncaught", "ERROR:CONSOLE", "CONSOLE(ERROR)"] {
        assert!(!log.contains(error), "console error in the page:\n{log}");
    }
    let dom = text(&out.stdout);
    assert!(
        dom.contains("id=\"summary\""),
        "rendered DOM without the summary"
    );
    assert!(
        dom.contains("class=\"board\""),
        "rendered DOM without a board"
    );
    // The stepper's script ran: it writes "1 / N" into each stepper's position.
    assert!(
        dom.contains("<span class=\"pos\">1 / "),
        "the page's script did not run"
    );
}

/// One headline per comparison: the speed the terminal summary prints for an engine against
/// the baseline is the one the HTML report's summary prints, in the same words.
#[test]
fn the_report_shows_the_terminal_summarys_speed() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("report.html");
    let corpus = root().join("corpora/yut");
    let out = run(&["run", s(&corpus), "-e", "all", "--report", s(&html)]);
    assert_exit(&out, 0);
    let summary = text(&out.stdout);
    let page = std::fs::read_to_string(&html).unwrap();
    // `3.02 ± 0.11 times faster than reference`: the ratio and its words, without the ±.
    let line = summary
        .lines()
        .find(|l| {
            l.contains("times faster than reference") || l.contains("times slower than reference")
        })
        .unwrap_or_else(|| panic!("no speed in the summary:\n{summary}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "times").unwrap();
    // The ratio is the word before `±`.
    let ratio = words[..at]
        .iter()
        .rposition(|w| *w == "±")
        .map(|k| words[k - 1])
        .unwrap();
    let headline = format!("{ratio} times {} than reference", words[at + 1]);
    assert!(
        page.contains(&headline),
        "the page lacks {headline:?} of the summary:\n{summary}"
    );
    // The per-case ratios are their spread, not a second speed.
    assert!(!summary.contains("speed-up per case"), "{summary}");
}
