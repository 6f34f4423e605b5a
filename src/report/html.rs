//! The HTML page: sections in a fixed order, inline CSS, a few lines of JS stepping through a
//! board's frames (the page reads without it: every frame is in the markup). Tables fit the
//! window: long file names are shortened to their last components (the whole path in the
//! cell's tooltip), messages wrap inside their cell with their spaces kept.

use std::fmt::Write;

use super::boards::{Answers, BoardCase, Side};
use super::digest::{Digest, Kept, Tally};
use super::svg::{self, Series};
use super::{Inputs, MAX_FAILURES, Shown};
use crate::compare::{Comparison, Direction, render};
use crate::util::markup::escape;
use crate::util::units::{human_time, human_time_f, sig3, thousands};

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1200px}\
table{border-collapse:collapse;margin:.5em 0;max-width:100%}td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px;vertical-align:top}\
th{background:#eee;text-align:left}td.n{text-align:right;white-space:nowrap}.bad{color:#b00}.good{color:#070}\
td.file{white-space:nowrap}td.msg{white-space:pre-wrap;overflow-wrap:anywhere;font-family:monospace;font-size:12px}\
table.meta td{overflow-wrap:anywhere}\
.charts{display:flex;flex-wrap:wrap;gap:8px}.board-case{display:inline-block;vertical-align:top;margin:6px;padding:6px;border:1px solid #ddd;max-width:100%;overflow-x:auto}\
.frame{display:inline-block;vertical-align:top;margin:4px}.frame figcaption{font-size:12px;color:#555}\
pre{background:#f6f6f6;padding:6px;overflow:auto;font-size:12px}\
.answers{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}.answers figure{margin:4px}.answers figcaption{font-size:12px;color:#555}.answers pre{max-width:40em;max-height:20em}";

const SCRIPT: &str = "document.querySelectorAll('.stepper').forEach(function(s){\
var f=s.querySelectorAll('.frame'),i=0,p=s.querySelector('.pos');\
function show(){f.forEach(function(e,j){e.style.display=j===i?'':'none';});p.textContent=(i+1)+' / '+f.length;}\
s.querySelector('.prev').onclick=function(){i=(i+f.length-1)%f.length;show();};\
s.querySelector('.next').onclick=function(){i=(i+1)%f.length;show();};show();});";

/// File names longer than this are shown by their last components.
const FILE_CHARS: usize = 40;

/// The page.
pub fn page(inputs: &Inputs<'_>, shown: &[Shown], digest: &Digest, boards: &[BoardCase]) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>gamebench report</title><style>{STYLE}</style></head><body>\n<h1>gamebench report</h1>\n"
    );
    meta(&mut out, shown);
    summary(&mut out, digest, inputs.baseline);
    if let Some(c) = inputs.comparison {
        comparison(&mut out, c);
    }
    distributions(&mut out, digest, inputs.baseline);
    scaling(&mut out, digest);
    slowest(&mut out, digest);
    failures(&mut out, digest);
    boards_section(&mut out, boards);
    let _ = write!(out, "<script>{SCRIPT}</script>\n</body></html>\n");
    out
}

/// How a metadata value is shown.
#[derive(Clone, Copy)]
enum Kind {
    Text,
    Nanoseconds,
    Seconds,
    Megabytes,
    Count,
    PerSecond,
    YesNo,
}

/// The metadata shown, in order, with their labels and units; other keys follow as text.
const META: &[(&str, &str, Kind)] = &[
    ("version", "gamebench version", Kind::Text),
    ("git", "source (git)", Kind::Text),
    ("profile", "build profile", Kind::Text),
    ("host", "host", Kind::Text),
    ("cpu", "CPU", Kind::Text),
    ("cores", "logical CPUs", Kind::Count),
    ("threads", "worker threads", Kind::Count),
    ("runs", "runs per case", Kind::Count),
    ("warmup", "warm-up runs", Kind::Count),
    ("max_states", "state budget per case", Kind::Count),
    ("time_limit_s", "time limit per case", Kind::Seconds),
    ("memory_mb", "memory limit", Kind::Megabytes),
    ("search_threads", "threads per search", Kind::Count),
    ("check", "outputs checked", Kind::YesNo),
    ("baseline", "baseline engine", Kind::Text),
    ("start", "started (UTC)", Kind::Text),
    ("end", "ended (UTC)", Kind::Text),
    ("wall_ns", "wall time", Kind::Nanoseconds),
    ("results", "results (case x engine)", Kind::Count),
    ("results_per_s", "results per second", Kind::PerSecond),
    ("cases", "distinct cases", Kind::Count),
    (
        "external_startup_ns",
        "empty program run (in each file's time)",
        Kind::Nanoseconds,
    ),
    ("pinned", "programs pinned to cores", Kind::YesNo),
    ("oversubscribed", "more programs than cores", Kind::YesNo),
    ("command_line", "command line", Kind::Text),
];

fn show_value(value: &serde_json::Value, kind: Kind) -> String {
    use serde_json::Value;
    let number = value.as_f64();
    match (kind, value, number) {
        (_, Value::Null, _) => "-".into(),
        (Kind::Nanoseconds, _, Some(ns)) => human_time_f(ns),
        (Kind::Seconds, _, Some(s)) => format!("{} s", sig3(s)),
        (Kind::Megabytes, _, Some(mb)) => format!("{} MB", sig3(mb)),
        (Kind::PerSecond, _, Some(n)) => format!("{} /s", sig3(n)),
        (Kind::Count, _, Some(n)) if n.fract() == 0.0 && n >= 0.0 => thousands(n as u64),
        (Kind::YesNo, Value::Bool(b), _) => if *b { "yes" } else { "no" }.into(),
        (_, Value::String(s), _) => s.clone(),
        (_, Value::Array(items), _) => items
            .iter()
            .map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string))
            .collect::<Vec<_>>()
            .join(" "),
        (_, Value::Bool(b), _) => if *b { "yes" } else { "no" }.into(),
        (_, _, Some(n)) => sig3(n),
        (_, other, _) => other.to_string(),
    }
}

/// The runs' metadata: one row per item, one column per run.
fn meta(out: &mut String, shown: &[Shown]) {
    out.push_str("<h2 id=\"meta\">Runs</h2>\n<table class=\"meta\"><tr><th></th>");
    for run in shown {
        let _ = write!(out, "<th>{}</th>", escape(&run.name));
    }
    out.push_str("</tr>\n");
    let maps: Vec<Option<&serde_json::Map<String, serde_json::Value>>> = shown
        .iter()
        .map(|r| r.meta.as_ref().and_then(|m| m.as_object()))
        .collect();
    let mut keys: Vec<(&str, &str, Kind)> = META.to_vec();
    for map in maps.iter().flatten() {
        for key in map.keys() {
            if !keys.iter().any(|(k, _, _)| k == key) && key != "tool" {
                keys.push((key, key, Kind::Text));
            }
        }
    }
    let mut any = false;
    for (key, label, kind) in keys {
        let values: Vec<Option<&serde_json::Value>> =
            maps.iter().map(|m| m.and_then(|m| m.get(key))).collect();
        if values
            .iter()
            .all(|v| v.is_none_or(serde_json::Value::is_null))
        {
            continue;
        }
        any = true;
        let _ = write!(out, "<tr><th>{}</th>", escape(label));
        for v in values {
            let text = v.map_or_else(|| "-".into(), |v| show_value(v, kind));
            let _ = write!(out, "<td>{}</td>", escape(&text));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    if !any {
        out.push_str("<p>No metadata (a CSV alone; export JSON with <code>--export-json</code> or save a baseline to keep it).</p>\n");
    }
}

/// The speed against the baseline in the terminal summary's words (without its ±, a
/// bootstrap the report does not redo): `3.50 times faster than reference (over 3 of 4
/// cases)`, `1,200 times slower than reference`, or why there is none (never a ratio of 0).
pub fn speed_words(tally: &Tally, baseline: &str) -> String {
    if tally.paired > 0 && tally.paired_ns <= 0.0 {
        return "n/a: its times over the cases both solved are all 0 (within its start-up)".into();
    }
    if tally.paired > 0 && tally.paired_baseline_ns <= 0.0 {
        return format!("n/a: {baseline}'s times over the cases both solved are all 0");
    }
    let Some(x) = tally.speed() else {
        return "n/a: no case solved by both".into();
    };
    let (ratio, way) = if x >= 1.0 {
        (x, "faster")
    } else {
        (1.0 / x, "slower")
    };
    let mut text = format!("{} times {way} than {baseline}", sig3(ratio));
    if tally.paired < tally.cases {
        let _ = write!(
            text,
            " (over {} of {} cases)",
            thousands(tally.paired),
            thousands(tally.cases)
        );
    }
    text
}

/// A file name that fits a table cell: its last components after `…/` when long, the whole
/// path in the tooltip.
fn file_cell(file: &str) -> String {
    if file.chars().count() <= FILE_CHARS {
        return format!("<td class=\"file\">{}</td>", escape(file));
    }
    let parts: Vec<&str> = file.split('/').collect();
    let mut tail = String::new();
    for part in parts.iter().rev() {
        let longer = if tail.is_empty() {
            part.to_string()
        } else {
            format!("{part}/{tail}")
        };
        if !tail.is_empty() && longer.chars().count() > FILE_CHARS {
            break;
        }
        tail = longer;
    }
    if tail.chars().count() > FILE_CHARS {
        let skip = tail.chars().count() - FILE_CHARS;
        tail = tail.chars().skip(skip).collect();
    }
    format!(
        "<td class=\"file\" title=\"{}\">…/{}</td>",
        escape(file),
        escape(&tail)
    )
}

fn time_cell(ns: Option<f64>) -> String {
    ns.map_or("-".into(), human_time_f)
}

/// Says once which programs' start-up the times and speeds leave out (as the terminal
/// summary does), or that a run without metadata keeps it.
fn startup_note(out: &mut String, digest: &Digest) {
    if !digest.startups.is_empty() {
        let each: Vec<String> = digest
            .startups
            .iter()
            .map(|s| {
                format!(
                    "{} on {}: {} per run{}",
                    escape(&s.engine),
                    escape(&s.game),
                    human_time_f(s.startup_ns as f64),
                    if s.per_case {
                        ", each case run alone"
                    } else {
                        ""
                    }
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "<p>Each program's start-up, calibrated by the run, is taken out of its times and speed, as in the terminal summary ({}); the CSV keeps it, as a judge counts it.</p>",
            each.join("; ")
        );
    } else if digest.without_meta {
        out.push_str("<p>Times are the CSV's: a program's start-up is in them (only a run's JSON export, a baseline or <code>run --report</code> records the start-up the terminal summary takes out).</p>\n");
    }
}

fn summary(out: &mut String, digest: &Digest, baseline: &str) {
    let _ = write!(
        out,
        "<h2>Summary</h2>\n<p>Times are each case's median over its runs; median, p90 and max are over the cases (median and p90 read from a sketch, within {}%). <b>Speed</b> is {} total time over the engine's, both summed over the cases both engines solved (both <code>ok</code>, or both <code>unsolved</code>): the figure of the terminal summary's speed column and of the exports' <code>relative</code>; the histograms of per-case ratios below show its spread.</p>\n<table id=\"summary\"><tr><th>game</th><th>engine</th><th>cases</th><th>ok</th><th>not ok</th><th>total</th><th>median</th><th>p90</th><th>max</th><th>speed vs {}</th></tr>\n",
        super::SKETCH_RESOLUTION * 100.0 / 2.0,
        escape(baseline),
        escape(baseline)
    );
    startup_note(out, digest);
    for ((game, engine), tally) in &digest.groups {
        let Tally {
            cases, ok, times, ..
        } = tally;
        let bad = cases - ok;
        let base = digest
            .groups
            .contains_key(&(game.clone(), baseline.to_string()));
        let speed = if engine == baseline {
            "baseline".into()
        } else if !base {
            "-".into()
        } else {
            speed_words(tally, baseline)
        };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n{}\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{speed}</td></tr>",
            escape(game),
            escape(engine),
            thousands(*cases),
            thousands(*ok),
            if bad > 0 { " bad" } else { "" },
            thousands(bad),
            time_cell((times.count() > 0).then(|| times.sum())),
            time_cell(times.quantile(0.5)),
            time_cell(times.quantile(0.9)),
            time_cell(times.quantile(1.0)),
        );
    }
    out.push_str("</table>\n");
}

fn comparison(out: &mut String, c: &Comparison) {
    out.push_str("<h2 id=\"comparison\">Comparison</h2>\n<table><tr><th>game</th><th>engine</th><th>cases</th><th>old total</th><th>new total</th><th>ratio [95%]</th><th>noise</th><th>slower</th><th>faster</th></tr>\n");
    for g in &c.groups {
        let slower = g.slower().count();
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n{}\">{:.3} [{:.3}, {:.3}]</td><td class=\"n\">{:.1}%</td><td class=\"n{}\">{slower}</td><td class=\"n\">{}</td></tr>",
            escape(&g.game),
            escape(&g.engine),
            g.pairs,
            human_time(g.old_total_ns),
            human_time(g.new_total_ns),
            if g.total == Some(Direction::Slower) {
                " bad"
            } else {
                ""
            },
            g.ratio,
            g.interval.0,
            g.interval.1,
            g.noise.threshold * 100.0,
            if slower > 0 { " bad" } else { "" },
            g.changes.len() - slower
        );
    }
    out.push_str("</table>\n<h3>Changed cases and verdicts</h3>\n<pre>");
    out.push_str(&escape(&render(c)));
    out.push_str("</pre>\n");
}

fn distributions(out: &mut String, digest: &Digest, baseline: &str) {
    out.push_str("<h2>Time per case</h2>\n<div class=\"charts\">");
    for ((game, engine), tally) in &digest.groups {
        if let Some(chart) = svg::histogram(
            &format!("{game}/{engine}"),
            &tally.times,
            svg::time_label,
            "time per case",
        ) {
            out.push_str(&chart);
        }
    }
    out.push_str("</div>\n<h2>Per-case speed-ups</h2>\n<div class=\"charts\">");
    let mut any = false;
    for ((game, engine), tally) in &digest.groups {
        if engine == baseline {
            continue;
        }
        let title = format!("{game}/{engine}: per-case {baseline} time / {engine} time");
        if let Some(chart) = svg::histogram(&title, &tally.speedups, svg::ratio_label, "speed-up") {
            out.push_str(&chart);
            any = true;
        }
    }
    if !any {
        let _ = write!(
            out,
            "<p>No engine to compare with {} on the same cases.</p>",
            escape(baseline)
        );
    }
    out.push_str("</div>\n");
}

fn scaling(out: &mut String, digest: &Digest) {
    out.push_str("<h2>Time against case size</h2>\n<div class=\"charts\">");
    let mut game_series: Vec<(&str, Vec<Series>)> = Vec::new();
    for ((game, engine), tally) in &digest.groups {
        let series = Series {
            name: engine.clone(),
            points: tally.points.points().to_vec(),
        };
        match game_series.last_mut() {
            Some((g, list)) if g == game => list.push(series),
            _ => game_series.push((game, vec![series])),
        }
    }
    for (game, series) in game_series {
        if let Some(chart) = svg::scatter(game, "size (cells)", &series) {
            out.push_str(&chart);
        }
    }
    out.push_str("</div>\n");
}

fn kept_row(out: &mut String, c: &Kept, last: &str) {
    let _ = writeln!(
        out,
        "<tr><td>{}</td><td>{}</td>{}<td class=\"n\">{}</td>{last}</tr>",
        escape(&c.game),
        escape(&c.engine),
        file_cell(&c.file),
        c.case,
    );
}

fn slowest(out: &mut String, digest: &Digest) {
    out.push_str("<h2>Slowest cases</h2>\n<table><tr><th>game</th><th>engine</th><th>file</th><th>case</th><th>size</th><th>time</th><th>status</th></tr>\n");
    for tally in digest.groups.values() {
        for c in &tally.slowest {
            let last = format!(
                "<td>{}</td><td class=\"n\">{}</td><td>{}</td>",
                escape(&c.size),
                time_cell(c.time_ns.map(|t| t as f64)),
                c.status.as_str()
            );
            kept_row(out, c, &last);
        }
    }
    out.push_str("</table>\n");
}

fn failures(out: &mut String, digest: &Digest) {
    let _ = writeln!(
        out,
        "<h2 id=\"failures\">Cases not ok: {}</h2>",
        thousands(digest.failure_count)
    );
    if digest.failures.is_empty() {
        return;
    }
    out.push_str("<table id=\"failures-table\"><tr><th>game</th><th>engine</th><th>file</th><th>case</th><th>status</th><th>message (first difference)</th></tr>\n");
    for c in &digest.failures {
        let last = format!(
            "<td class=\"bad\">{}</td><td class=\"msg\">{}</td>",
            c.status.as_str(),
            escape(&c.message)
        );
        kept_row(out, c, &last);
    }
    out.push_str("</table>\n");
    if digest.failure_count > MAX_FAILURES as u64 {
        let _ = writeln!(
            out,
            "<p>... and {} more (see the CSV).</p>",
            thousands(digest.failure_count - MAX_FAILURES as u64)
        );
    }
}

fn boards_section(out: &mut String, boards: &[BoardCase]) {
    let _ = writeln!(out, "<h2 id=\"boards\">Boards: {}</h2>", boards.len());
    if boards.is_empty() {
        out.push_str("<p>No board drawn: the input files were not found (give the folder the run was given with <code>--corpus DIR</code>).</p>\n");
    }
    for b in boards {
        let _ = write!(
            out,
            "<div class=\"board-case\" data-game=\"{}\"><b>{}</b> {} case {} <i>({})</i>",
            escape(&b.game),
            escape(&b.game),
            escape(&b.file),
            b.case,
            escape(&b.why)
        );
        let several = b.drawing.frames.len() > 1;
        if several {
            out.push_str("<div class=\"stepper\"><button class=\"prev\">&lt;</button> <span class=\"pos\"></span> <button class=\"next\">&gt;</button>");
        }
        for f in &b.drawing.frames {
            let _ = write!(
                out,
                "<figure class=\"frame\">{}<figcaption>{}</figcaption></figure>",
                f.svg,
                escape(&f.caption)
            );
        }
        if several {
            out.push_str("</div>");
        }
        if let Some(answers) = &b.answers {
            answers_html(out, answers);
        }
        out.push_str("</div>\n");
    }
}

/// A failing case's expected and actual final boards, side by side.
fn answers_html(out: &mut String, a: &Answers) {
    out.push_str("<div class=\"answers\">");
    for (class, caption, side) in [
        ("expected", "expected final board".to_string(), &a.expected),
        (
            "actual",
            format!("actual final board ({})", a.engine),
            &a.actual,
        ),
    ] {
        let body = match side {
            Side::Board(svg) => svg.clone(),
            Side::Text(text) => format!("<pre>{}</pre>", escape(text)),
            Side::Missing(why) => format!("<p><i>{}</i></p>", escape(why)),
        };
        let _ = write!(
            out,
            "<figure class=\"{class}\">{body}<figcaption>{}</figcaption></figure>",
            escape(&caption)
        );
    }
    out.push_str("</div>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_file_names_keep_their_last_components() {
        assert_eq!(file_cell("yut/a.in"), "<td class=\"file\">yut/a.in</td>");
        let long = "corpora/samegame/generated/throughput/samegame-throughput-12-3.in";
        let cell = file_cell(long);
        assert!(
            cell.contains(">…/throughput/samegame-throughput-12-3.in<"),
            "{cell}"
        );
        assert!(cell.contains(&format!("title=\"{long}\"")));
        // One component longer than the cell: its end.
        let cell = file_cell(&"x".repeat(100));
        assert!(cell.contains(&format!(">…/{}<", "x".repeat(FILE_CHARS))));
    }

    #[test]
    fn metadata_shows_units_not_raw_numbers() {
        use serde_json::json;
        assert_eq!(
            show_value(&json!(220.05769385109065), Kind::PerSecond),
            "220 /s"
        );
        assert_eq!(
            show_value(&json!(1_520_000_000u64), Kind::Nanoseconds),
            "1.52 s"
        );
        assert_eq!(show_value(&json!(2.5), Kind::Seconds), "2.50 s");
        assert_eq!(show_value(&json!(1234567), Kind::Count), "1,234,567");
        assert_eq!(show_value(&json!(true), Kind::YesNo), "yes");
        assert_eq!(
            show_value(&json!(["run", "-e", "all"]), Kind::Text),
            "run -e all"
        );
    }

    #[test]
    fn the_speed_is_the_ratio_of_totals_in_the_terminal_words() {
        let mut tally = Tally {
            cases: 4,
            paired: 3,
            paired_baseline_ns: 21.0,
            paired_ns: 6.0,
            ..Tally::default()
        };
        assert_eq!(
            speed_words(&tally, "reference"),
            "3.50 times faster than reference (over 3 of 4 cases)"
        );
        // A program 1,200 times slower: never x0.00.
        (tally.paired_baseline_ns, tally.paired_ns, tally.paired) = (1.0, 1_200.0, 4);
        assert_eq!(
            speed_words(&tally, "reference"),
            "1,200 times slower than reference"
        );
        tally.paired = 0;
        assert_eq!(
            speed_words(&tally, "reference"),
            "n/a: no case solved by both"
        );
        assert_eq!(svg::ratio_label(0.000_83), "x0.000830");
    }
}
