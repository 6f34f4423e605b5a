//! The verdict table in four renderings: the terminal (compact cells, colour on a terminal
//! only, pages of solutions that fit the width), Markdown, CSV (one line per cell) and JSON
//! (the table, the tag check and the strength report).
//!
//! Invariant: every rendering lists tests and solutions in the invocation's order, so the
//! same invocation renders to the same bytes whatever the thread count (JSON and CSV carry
//! times, which vary from run to run; the verdicts do not).

use serde::Serialize;

use super::strength::Strength;
use super::tags::TagReport;
use super::verdict::{Cell, CellVerdict, TimeClock};
use super::{Invocation, Test};

/// Columns between two table columns.
const GAP: &str = "  ";
/// Width of the terminal when it cannot be told.
pub const DEFAULT_WIDTH: usize = 120;
/// ns per ms, for the CSV's and JSON's `time_ms`.
pub const NS_PER_MS: f64 = 1e6;
/// KiB per MiB, for the memory in cells.
const KB_PER_MB: f64 = 1024.0;
/// Percent, for shares of the time limit.
const PERCENT: f64 = 100.0;

/// ANSI colours of verdicts.
const GREEN: &str = "\x1b[32m";
const RED: &str = "\x1b[31m";
const YELLOW: &str = "\x1b[33m";
const RESET: &str = "\x1b[0m";

/// A time for a cell: `35µs`, `0.4ms`, `12ms`, `1.52s`.
pub fn short_time(ns: u64) -> String {
    let ms = ns as f64 / NS_PER_MS;
    if ms < 0.1 {
        format!("{:.0}µs", ms * 1000.0)
    } else if ms < 10.0 {
        format!("{ms:.1}ms")
    } else if ms < 1000.0 {
        format!("{ms:.0}ms")
    } else {
        format!("{:.2}s", ms / 1000.0)
    }
}

/// A memory for a cell: `3.1MB`.
fn short_memory(kb: u64) -> String {
    format!("{:.1}MB", kb as f64 / KB_PER_MB)
}

/// What marks a test's time that is its share of a whole file's run ([`notes`]).
pub const SHARED_MARK: &str = "~";

/// A cell as text: the verdict (a runtime error with its signal or exit code: `RE(SIGSEGV)`,
/// `RE(exit 3)`), the time (`~` before a share of a whole file's run), the memory of a
/// program.
pub fn cell_text(cell: &Cell) -> String {
    let mut text = cell.verdict.short().to_string();
    if let Some(reason) = &cell.reason {
        text.push_str(&format!("({reason})"));
    }
    if let Some(t) = cell.time_ns {
        text.push(' ');
        if cell.run_cases > 1 {
            text.push_str(SHARED_MARK);
        }
        text.push_str(&short_time(t));
    }
    if let Some(m) = cell.memory_kb {
        text.push(' ');
        text.push_str(&short_memory(m));
    }
    text
}

/// Cell (`t`, `s`) as the tables show it: [`cell_text`] with its solution's start-up taken
/// out of its time ([`Invocation::shown_time`]).
pub fn shown_text(inv: &Invocation, t: usize, s: usize) -> String {
    cell_text(&Cell {
        time_ns: inv.shown_time(t, s),
        ..inv.cells[t][s].clone()
    })
}

/// A solution's worst run: its time, or `>=LIMIT` when a run was killed at the time limit
/// (its time is at least the limit; no more is known).
pub fn worst_time(inv: &Invocation, s: usize) -> String {
    if inv.killed(s) {
        return format!(">={}", short_time(inv.limit_ns));
    }
    inv.slowest(s)
        .map_or("-".to_string(), |(_, t)| short_time(t))
}

/// A solution's worst run as a share of the limit: `12%`, or `>=100%` when a run was killed at
/// the limit.
pub fn worst_share(inv: &Invocation, s: usize) -> String {
    if inv.killed(s) {
        return format!(">={PERCENT:.0}%");
    }
    match inv.slowest(s) {
        Some((_, time)) => format!("{:.0}%", time as f64 * PERCENT / inv.limit_ns.max(1) as f64),
        None => "-".to_string(),
    }
}

/// The lines under the table: which clock the times are on and the limit they are shares of,
/// and, when a program ran a whole file of several cases once, what its cases' times are.
pub fn notes(inv: &Invocation) -> String {
    let limit = match inv.clock {
        TimeClock::Cpu => "the CPU limit",
        TimeClock::Wall => "the time limit",
    };
    let mut out = format!(
        "times: {} against {limit} of {} (worst: the slowest run; a run killed at the limit: >= the limit)\n",
        inv.clock.words(),
        short_time(inv.limit_ns)
    );
    out.push_str(&startup_notes(inv));
    if inv.has_shared_runs() {
        out.push_str(&format!(
            "{SHARED_MARK}: a program run once on a whole file of several cases: the file's time \
             split evenly over its cases (worst and of limit read the whole run; --case-timeout \
             runs each case alone)\n"
        ));
    }
    out
}

/// The lines about the programs' start-up: what was taken out of the cells, and where it
/// stays.
fn startup_notes(inv: &Invocation) -> String {
    let mut out = String::new();
    let mut taken = Vec::new();
    for (s, calibration) in inv.startups.iter().enumerate() {
        let Some(c) = calibration else { continue };
        let name = &inv.solutions[s].name;
        match &c.startup {
            Ok(startup) => taken.push(format!(
                "{name} {} (noise {}{}; on {})",
                short_time(startup.cpu_ns),
                short_time(startup.noise_ns),
                fewer_runs(startup.runs),
                c.on
            )),
            Err(why) => out.push_str(&format!(
                "start-up of {name} not taken out: its run on {} failed: {why}\n",
                c.on
            )),
        }
    }
    if !taken.is_empty() {
        out.push_str(&format!(
            "start-up taken out of the cells' times ({}, the fastest of {} runs; a whole file's run loses it once): {}; worst, of limit and the CSV, JSON and JUnit times keep it, as a judge counts it\n",
            inv.clock.words(),
            crate::engines::startup::CALIBRATION_RUNS,
            taken.join(", ")
        ));
    }
    out
}

/// `; N runs` for a start-up calibrated on fewer runs than the line's heading says (its runs
/// reached the calibration's budget first), else nothing.
fn fewer_runs(runs: u32) -> String {
    if runs < crate::engines::startup::CALIBRATION_RUNS {
        format!("; {runs} runs")
    } else {
        String::new()
    }
}

/// A solution's column header: its name and tag.
fn header(inv: &Invocation, s: usize) -> String {
    let solution = &inv.solutions[s];
    match solution.tag {
        Some(tag) => format!("{} ({tag})", solution.name),
        None => solution.name.clone(),
    }
}

fn colour(verdict: CellVerdict) -> &'static str {
    match verdict {
        CellVerdict::Ok => GREEN,
        CellVerdict::PresentationError => YELLOW,
        _ => RED,
    }
}

/// The terminal table: a row per test, a column per solution, then the worst time of each
/// solution and its share of the limit; solutions split into pages that fit in `width`
/// columns (each page repeats the test column). `colour`: ANSI colours on verdicts.
pub fn terminal(inv: &Invocation, width: usize, colour_on: bool) -> String {
    let first: Vec<String> = std::iter::once("test".to_string())
        .chain(inv.tests.iter().map(|t| t.name.clone()))
        .chain(["worst".to_string(), "of limit".to_string()])
        .collect();
    let first_width = first.iter().map(|s| s.chars().count()).max().unwrap_or(0);
    let columns: Vec<Vec<String>> = (0..inv.solutions.len())
        .map(|s| {
            std::iter::once(header(inv, s))
                .chain((0..inv.tests.len()).map(|t| shown_text(inv, t, s)))
                .chain([worst_time(inv, s), worst_share(inv, s)])
                .collect()
        })
        .collect();
    let widths: Vec<usize> = columns
        .iter()
        .map(|c| c.iter().map(|s| s.chars().count()).max().unwrap_or(0))
        .collect();
    // Pages: as many solutions as fit beside the test column (at least one per page).
    let mut pages: Vec<Vec<usize>> = Vec::new();
    let mut used = first_width;
    for (s, column_width) in widths.iter().enumerate() {
        let need = GAP.len() + column_width;
        match pages.last_mut() {
            Some(page) if used + need <= width => page.push(s),
            _ => {
                pages.push(vec![s]);
                used = first_width;
            }
        }
        used += need;
    }
    let mut out = String::new();
    for (p, page) in pages.iter().enumerate() {
        if p > 0 {
            out.push('\n');
        }
        for (r, label) in first.iter().enumerate() {
            let mut line = format!("{label:<first_width$}");
            for &s in page {
                let text = &columns[s][r];
                line.push_str(GAP);
                let pad = widths[s] - text.chars().count();
                let verdict = r
                    .checked_sub(1)
                    .and_then(|t| inv.cells.get(t))
                    .map(|row| row[s].verdict);
                match verdict {
                    Some(v) if colour_on => {
                        line.push_str(&format!("{}{text}{RESET}", colour(v)));
                    }
                    _ => line.push_str(text),
                }
                line.push_str(&" ".repeat(pad));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out
}

/// Escapes a Markdown table cell (`|` and line breaks).
fn md(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// The table as Markdown (one table, every solution), then the tag check and the test-set
/// strength (kills, slowest, useless, selected) as lists.
pub fn markdown(inv: &Invocation, tags: &TagReport, strength: &Strength) -> String {
    let mut out = format!(
        "# Invocation: {} ({} tests, {} solutions, time limit {})\n\n",
        inv.game.name(),
        inv.tests.len(),
        inv.solutions.len(),
        short_time(inv.limit_ns)
    );
    out.push_str("| test |");
    for s in 0..inv.solutions.len() {
        out.push_str(&format!(" {} |", md(&header(inv, s))));
    }
    out.push_str("\n|---|");
    out.push_str(&"---|".repeat(inv.solutions.len()));
    out.push('\n');
    for (t, test) in inv.tests.iter().enumerate() {
        out.push_str(&format!("| {} |", md(&test.name)));
        for s in 0..inv.solutions.len() {
            out.push_str(&format!(" {} |", md(&shown_text(inv, t, s))));
        }
        out.push('\n');
    }
    for (label, value) in [
        (
            "worst",
            &(|s| worst_time(inv, s)) as &dyn Fn(usize) -> String,
        ),
        ("of limit", &|s| worst_share(inv, s)),
    ] {
        out.push_str(&format!("| **{label}** |"));
        for s in 0..inv.solutions.len() {
            out.push_str(&format!(" {} |", value(s)));
        }
        out.push('\n');
    }
    out.push('\n');
    for line in notes(inv).lines() {
        out.push_str(&md_text(line));
        out.push_str("\n\n");
    }
    out.push_str("## Tags\n\n");
    if tags.contradictions.is_empty() && tags.warnings.is_empty() {
        out.push_str("Every tag holds.\n");
    }
    for c in &tags.contradictions {
        out.push_str(&format!("- tag contradicted: {}\n", md_text(&c.message)));
    }
    for w in &tags.warnings {
        out.push_str(&format!("- {}\n", md_text(w)));
    }
    out.push_str("\n## Test-set strength\n\n");
    for line in strength_text(inv, strength).lines() {
        out.push_str(&format!("- {}\n", md_text(line)));
    }
    out
}

/// Escapes text for a Markdown list item (the characters that would start emphasis, code or a
/// link).
fn md_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '*' | '_' | '`' | '[' | ']' | '<' | '>' | '#' | '|'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out.replace(['\n', '\r'], " ")
}

/// The CSV's header: one line per cell. `time_ms` is the test's time (a share of a whole
/// file's run when `run_cases` is more than 1), `run_ms` the run's, both on `clock`.
pub const CSV_HEADER: [&str; 13] = [
    "game",
    "file",
    "case",
    "test",
    "solution",
    "tag",
    "verdict",
    "time_ms",
    "run_ms",
    "run_cases",
    "clock",
    "memory_kb",
    "message",
];

/// A time for the CSV, in ms (empty without one).
fn ms_field(ns: Option<u64>) -> String {
    ns.map_or(String::new(), |ns| format!("{:.3}", ns as f64 / NS_PER_MS))
}

/// The table as CSV: one line per (test, solution), in table order.
pub fn csv(inv: &Invocation) -> Result<Vec<u8>, csv::Error> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(CSV_HEADER)?;
    for (t, test) in inv.tests.iter().enumerate() {
        for (s, cell) in inv.cells[t].iter().enumerate() {
            let solution = &inv.solutions[s];
            writer.write_record([
                inv.game.name().to_string(),
                test.file_name.clone(),
                test.case.to_string(),
                test.name.clone(),
                solution.name.clone(),
                solution.tag.map_or(String::new(), |t| t.to_string()),
                cell.verdict.to_string(),
                ms_field(cell.time_ns),
                ms_field(cell.run_ns),
                cell.run_cases.to_string(),
                inv.clock.as_str().to_string(),
                cell.memory_kb.map_or(String::new(), |m| m.to_string()),
                cell.message.clone(),
            ])?;
        }
    }
    writer
        .into_inner()
        .map_err(|e| csv::Error::from(e.into_error()))
}

#[derive(Serialize)]
struct JsonSolution<'a> {
    name: &'a str,
    tag: Option<super::Tag>,
    program: bool,
    worst_time_ms: Option<f64>,
    worst_test: Option<&'a str>,
    /// The worst run's time over the limit (a run killed at the limit counts as 1: at least
    /// the limit).
    worst_share: Option<f64>,
    /// Whether a run was killed at the time limit.
    killed: bool,
}

#[derive(Serialize)]
struct JsonTest<'a> {
    #[serde(flatten)]
    test: &'a Test,
    cells: Vec<JsonCell<'a>>,
}

#[derive(Serialize)]
struct JsonCell<'a> {
    solution: &'a str,
    verdict: CellVerdict,
    time_ms: Option<f64>,
    run_time_ms: Option<f64>,
    run_cases: usize,
    memory_kb: Option<u64>,
    #[serde(skip_serializing_if = "str::is_empty")]
    message: &'a str,
}

#[derive(Serialize)]
struct JsonStrength<'a> {
    kills: Vec<(&'a str, Vec<&'a str>)>,
    slowest: Vec<(&'a str, &'a str)>,
    useless: Vec<&'a str>,
    selected: Vec<&'a str>,
}

#[derive(Serialize)]
struct Json<'a> {
    game: &'a str,
    time_limit_ms: f64,
    clock: TimeClock,
    solutions: Vec<JsonSolution<'a>>,
    tests: Vec<JsonTest<'a>>,
    tags: &'a TagReport,
    strength: JsonStrength<'a>,
}

/// The table, the tag check and the strength report as JSON.
pub fn json(
    inv: &Invocation,
    tags: &TagReport,
    strength: &Strength,
) -> Result<Vec<u8>, serde_json::Error> {
    let name = |t: usize| inv.tests[t].name.as_str();
    let ms = |ns: u64| ns as f64 / NS_PER_MS;
    let doc = Json {
        game: inv.game.name(),
        time_limit_ms: ms(inv.limit_ns),
        clock: inv.clock,
        solutions: inv
            .solutions
            .iter()
            .enumerate()
            .map(|(s, solution)| {
                let slowest = inv.slowest(s);
                let killed = inv.killed(s);
                JsonSolution {
                    name: &solution.name,
                    tag: solution.tag,
                    program: solution.spec.is_program(),
                    worst_time_ms: slowest.map(|(_, t)| ms(t)),
                    worst_test: slowest.map(|(t, _)| name(t)),
                    worst_share: if killed {
                        Some(1.0)
                    } else {
                        slowest.map(|(_, t)| t as f64 / inv.limit_ns.max(1) as f64)
                    },
                    killed,
                }
            })
            .collect(),
        tests: inv
            .tests
            .iter()
            .enumerate()
            .map(|(t, test)| JsonTest {
                test,
                cells: inv.cells[t]
                    .iter()
                    .enumerate()
                    .map(|(s, cell)| JsonCell {
                        solution: &inv.solutions[s].name,
                        verdict: cell.verdict,
                        time_ms: cell.time_ns.map(ms),
                        run_time_ms: cell.run_ns.map(ms),
                        run_cases: cell.run_cases,
                        memory_kb: cell.memory_kb,
                        message: &cell.message,
                    })
                    .collect(),
            })
            .collect(),
        tags,
        strength: JsonStrength {
            kills: strength
                .kills
                .iter()
                .map(|(s, tests)| (s.as_str(), tests.iter().map(|&t| name(t)).collect()))
                .collect(),
            slowest: strength
                .slowest
                .iter()
                .map(|(s, t)| (s.as_str(), name(*t)))
                .collect(),
            useless: strength.useless.iter().map(|&t| name(t)).collect(),
            selected: strength.cover.iter().map(|&t| name(t)).collect(),
        },
    };
    let mut bytes = serde_json::to_vec_pretty(&doc)?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// The strength report as text lines.
pub fn strength_text(inv: &Invocation, strength: &Strength) -> String {
    let name = |t: &usize| inv.tests[*t].name.as_str();
    let list = |tests: &[usize]| tests.iter().map(name).collect::<Vec<_>>().join(", ");
    let mut out = String::new();
    for (solution, tests) in &strength.kills {
        if tests.is_empty() {
            out.push_str(&format!("kills: {solution}: no test kills it\n"));
        } else {
            out.push_str(&format!(
                "kills: {solution}: {} test(s): {}\n",
                tests.len(),
                list(tests)
            ));
        }
    }
    for (solution, t) in &strength.slowest {
        out.push_str(&format!("slowest: {solution}: {}\n", name(t)));
    }
    if strength.useless.is_empty() {
        out.push_str("useless: none\n");
    } else {
        out.push_str(&format!(
            "useless: {} test(s) kill nothing and are no correct solution's slowest: {}\n",
            strength.useless.len(),
            list(&strength.useless)
        ));
    }
    out.push_str(&format!(
        "selected: {} of {} tests: {}\n",
        strength.cover.len(),
        inv.tests.len(),
        list(&strength.cover)
    ));
    out
}
