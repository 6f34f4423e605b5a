//! A program's start-up taken out of `run`'s summary (times, speed) and not out of its CSV nor
//! its limits lines; and out of `invoke`'s cells, not out of its worst time, share of the
//! limit nor CSV; and the report of the run (`run --report`, `report` of its JSON export) shows
//! the terminal's speed, the start-up taken out as the run's metadata records it.
//!
//! The program is gamebench's own `solve yut` behind a `sleep 0.3`: every run of it, the
//! calibration's included, spends at least 300 ms before any work, so each file's time loses
//! at least that much, whatever the load of the machine.

use crate::common;
use common::{assert_exit, s, text};

/// The fixed delay of every run of the program, s and ns.
const DELAY: &str = "0.3";
const DELAY_NS: u64 = 300_000_000;

/// The program: a delay, then the judge's solution.
fn slow_program() -> String {
    format!(
        "slow=cmd:sleep {DELAY}; {} solve yut",
        env!("CARGO_BIN_EXE_gamebench")
    )
}

#[test]
fn run_takes_a_program_s_start_up_out_of_its_summary_and_keeps_it_in_the_csv() {
    let dir = common::yut_samples();
    let csv = dir.path().join("x.csv");
    let json = dir.path().join("x.json");
    let program = slow_program();
    let out = common::run(&[
        "run",
        s(dir.path()),
        "-e",
        "table",
        "-e",
        &program,
        "--csv",
        s(&csv),
        "--export-json",
        s(&json),
        "--progress",
        "none",
        "--problems",
        "none",
    ]);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    // The CSV keeps every raw time: each of the two files took the delay at least.
    let raw: Vec<u64> = common::columns(&csv, &["engine", "time_ns"])
        .into_iter()
        .filter(|r| r[0] == "slow")
        .map(|r| r[1].parse().unwrap())
        .collect();
    assert_eq!(raw.len(), 2, "{raw:?}");
    assert!(raw.iter().all(|&t| t >= DELAY_NS), "{raw:?}");
    // The summary's total lost at least the delay per file (each calibration run slept it
    // too, and a time loses at most itself).
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let engine = |name: &str| {
        summary["summary"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["engine"] == name)
            .unwrap()
            .clone()
    };
    let total = engine("slow")["total_ns"].as_u64().unwrap();
    let raw_total: u64 = raw.iter().sum();
    assert!(total <= raw_total - 2 * DELAY_NS, "{total} of {raw_total}");
    // The speed is the baseline's total over that one.
    let base = engine("table")["total_ns"].as_f64().unwrap();
    let relative = engine("slow")["relative"].as_f64().unwrap();
    assert!(
        (relative - base / total as f64).abs() <= 1e-9 * relative,
        "{relative}"
    );
    // Said, and the limits keep the start-up: the worst wall time is the raw one.
    assert!(
        stdout.contains("start-up: slow (yut): ") && stdout.contains("per run taken out"),
        "{stdout}"
    );
    assert!(
        stdout.contains("the CSV, the limits lines and the CPU times keep it"),
        "{stdout}"
    );
    let worst = raw.iter().max().unwrap();
    let shown = gamebench::results::human_time(*worst);
    assert!(
        stdout.contains(&format!("limits: yut/slow: worst wall {shown}")),
        "{shown}: {stdout}"
    );
}

/// A cell's time as the table prints it (`35µs`, `0.4ms`, `12ms`, `1.52s`), ns.
fn parse_short_time(text: &str) -> f64 {
    for (unit, ns) in [("µs", 1e3), ("ms", 1e6), ("s", 1e9)] {
        if let Some(number) = text.strip_suffix(unit) {
            return number.parse::<f64>().unwrap() * ns;
        }
    }
    panic!("not a time: {text:?}")
}

#[test]
fn invoke_shows_cells_without_the_start_up_and_keeps_it_for_the_limit() {
    let dir = common::yut_samples();
    let csv = dir.path().join("x.csv");
    let program = slow_program();
    let out = common::run(&[
        "invoke",
        s(dir.path()),
        "-e",
        "table",
        "-e",
        &program,
        "--csv",
        s(&csv),
        "--width",
        "200",
    ]);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    // The CSV keeps the raw times: each run slept the delay.
    let raw: Vec<f64> = common::columns(&csv, &["solution", "time_ms"])
        .into_iter()
        .filter(|r| r[0] == "slow")
        .map(|r| r[1].parse().unwrap())
        .collect();
    assert_eq!(raw.len(), 2, "{raw:?}");
    assert!(raw.iter().all(|&t| t * 1e6 >= DELAY_NS as f64), "{raw:?}");
    // The cells show each time less the calibrated start-up (itself at least the delay), and
    // the worst time keeps it: `yut/s1.in  OK 3µs  OK 0.6ms 7.1MB`, `worst  6µs  305ms`.
    let row = |first: &str| -> Vec<String> {
        stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(first))
            .unwrap_or_else(|| panic!("no row {first}: {stdout}"))
            .split_whitespace()
            .map(String::from)
            .collect()
    };
    for (test, raw_ms) in ["yut/s1.in", "yut/s2.in"].iter().zip(&raw) {
        let cells = row(test);
        assert_eq!(
            (cells[1].as_str(), cells[3].as_str()),
            ("OK", "OK"),
            "{cells:?}"
        );
        let shown = parse_short_time(&cells[4]);
        assert!(
            shown <= raw_ms * 1e6 - DELAY_NS as f64,
            "{cells:?}: {raw_ms} ms"
        );
    }
    let worst = row("worst");
    assert!(parse_short_time(&worst[2]) >= DELAY_NS as f64, "{worst:?}");
    assert!(
        stdout
            .contains("start-up taken out of the cells' times (wall time, the fastest of 10 runs")
            && stdout.contains("worst, of limit and the CSV, JSON and JUnit times keep it"),
        "{stdout}"
    );
}

/// The speed figure of `text` for engine `slow`: the number before `times slower than table`
/// (or `times faster`), as printed (`3,801`).
fn speed_figure(text: &str, before: &str) -> String {
    let at = text
        .find(before)
        .unwrap_or_else(|| panic!("no {before:?} in {text}"));
    let rest = &text[at + before.len()..];
    rest.split([' ', '<'])
        .next()
        .unwrap_or_else(|| panic!("no figure after {before:?}"))
        .to_string()
}

#[test]
fn the_report_shows_the_terminal_s_speed_with_the_start_up_taken_out() {
    let dir = common::yut_samples();
    let (csv, json, html) = (
        dir.path().join("x.csv"),
        dir.path().join("x.json"),
        dir.path().join("x.html"),
    );
    let program = slow_program();
    let out = common::run(&[
        "run",
        s(dir.path()),
        "-e",
        "table",
        "-e",
        &program,
        "--csv",
        s(&csv),
        "--export-json",
        s(&json),
        "--samples",
        "--report",
        s(&html),
        "--progress",
        "none",
        "--problems",
        "none",
    ]);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    let terminal = speed_figure(&stdout, "yut/slow: speed: ");
    // The figure as a number: `3,801` times slower.
    let number = |figure: &str| -> f64 { figure.replace(',', "").parse().unwrap() };
    // From the CSV alone: the program's raw times, each file at least the delay, and the
    // baseline's. Taking out at least the delay per file (what the start-up is at least)
    // makes the program faster than its raw times say: `times slower` at most this.
    let times = |engine: &str| -> f64 {
        common::columns(&csv, &["engine", "time_ns"])
            .into_iter()
            .filter(|r| r[0] == engine)
            .map(|r| r[1].parse::<f64>().unwrap())
            .sum()
    };
    let (raw, base) = (times("slow"), times("table"));
    let most = (raw - 2.0 * DELAY_NS as f64) / base;
    assert!(number(&terminal) <= most, "{terminal} > {most}: {stdout}");
    // run --report, and report of the JSON export: the terminal's figure, said once where it
    // comes from.
    let page = std::fs::read_to_string(&html).unwrap();
    let shown = |page: &str| {
        let row = &page[page.find("<tr><td>yut</td><td>slow</td>").unwrap()..];
        let row = &row[..row.find("</tr>").unwrap()];
        let cell = row.rsplit("<td>").next().unwrap();
        cell.split(' ').next().unwrap().to_string()
    };
    assert_eq!(shown(&page), terminal, "run --report");
    assert!(
        page.contains("start-up, calibrated by the run, is taken out of its times and speed"),
        "run --report"
    );
    let again = dir.path().join("again.html");
    let out = common::run(&["report", s(&json), "--baseline", "table", "-o", s(&again)]);
    assert_exit(&out, 0);
    let page = std::fs::read_to_string(&again).unwrap();
    assert_eq!(shown(&page), terminal, "report of the JSON export");
    // A CSV alone keeps the start-up, and says so.
    let out = common::run(&["report", s(&csv), "--baseline", "table", "-o", s(&again)]);
    assert_exit(&out, 0);
    let page = std::fs::read_to_string(&again).unwrap();
    assert!(number(&shown(&page)) > most, "{}", shown(&page));
    assert!(page.contains("Times are the CSV's: a program's start-up is in them"));
}
