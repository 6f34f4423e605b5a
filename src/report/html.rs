//! The HTML page: sections in a fixed order, inline CSS, a few lines of JS stepping through a
//! board's frames (the page reads without it: every frame is in the markup).

use std::collections::BTreeMap;
use std::fmt::Write;

use super::boards::BoardCase;
use super::svg::{self, Series};
use super::{Inputs, MAX_FAILURES, MAX_POINTS, SLOWEST};
use crate::compare::{CaseResult, Comparison, Direction, render};
use crate::game::draw::escape;
use crate::status::Status;
use crate::util::stats;
use crate::util::units::human_time;

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1200px}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px}\
th{background:#eee}td.n{text-align:right}.bad{color:#b00}.good{color:#070}\
.charts{display:flex;flex-wrap:wrap;gap:8px}.board-case{display:inline-block;vertical-align:top;margin:6px;padding:6px;border:1px solid #ddd}\
.frame figcaption{font-size:12px;color:#555}pre{background:#f6f6f6;padding:6px;overflow:auto;font-size:12px}";

const SCRIPT: &str = "document.querySelectorAll('.stepper').forEach(function(s){\
var f=s.querySelectorAll('.frame'),i=0,p=s.querySelector('.pos');\
function show(){f.forEach(function(e,j){e.style.display=j===i?'':'none';});p.textContent=(i+1)+' / '+f.length;}\
s.querySelector('.prev').onclick=function(){i=(i+f.length-1)%f.length;show();};\
s.querySelector('.next').onclick=function(){i=(i+1)%f.length;show();};show();});";

type Group<'a> = BTreeMap<(&'a str, &'a str), Vec<&'a CaseResult>>;

fn groups<'a>(cases: &[&'a CaseResult]) -> Group<'a> {
    let mut groups: Group<'a> = BTreeMap::new();
    for c in cases {
        groups.entry((&*c.game, &*c.engine)).or_default().push(c);
    }
    groups
}

fn passes(status: Status) -> bool {
    matches!(status, Status::Ok | Status::Unchecked)
}

/// The page.
pub fn page(inputs: &Inputs<'_>, cases: &[&CaseResult], boards: &[BoardCase]) -> String {
    let groups = groups(cases);
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>gamebench report</title><style>{STYLE}</style></head><body>\n<h1>gamebench report</h1>\n"
    );
    meta(&mut out, inputs);
    summary(&mut out, &groups, inputs.baseline);
    if let Some(c) = inputs.comparison {
        comparison(&mut out, c);
    }
    distributions(&mut out, &groups, inputs.baseline);
    scaling(&mut out, &groups);
    slowest(&mut out, &groups);
    failures(&mut out, cases);
    boards_section(&mut out, boards);
    let _ = write!(out, "<script>{SCRIPT}</script>\n</body></html>\n");
    out
}

fn meta(out: &mut String, inputs: &Inputs<'_>) {
    out.push_str("<h2 id=\"meta\">Runs</h2>\n");
    for run in inputs.runs {
        let _ = write!(
            out,
            "<h3>{}</h3>",
            escape(&run.source.display().to_string())
        );
        let Some(serde_json::Value::Object(map)) = &run.meta else {
            out.push_str("<p>No metadata (a CSV alone; export JSON with <code>--export-json</code> or save a baseline to keep it).</p>\n");
            continue;
        };
        out.push_str("<table>");
        for (key, value) in map {
            let text = match value {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Array(items) => items
                    .iter()
                    .map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string))
                    .collect::<Vec<_>>()
                    .join(" "),
                other => other.to_string(),
            };
            let _ = write!(
                out,
                "<tr><th>{}</th><td>{}</td></tr>",
                escape(key),
                escape(&text)
            );
        }
        out.push_str("</table>\n");
    }
}

fn times(cases: &[&CaseResult]) -> Vec<f64> {
    cases
        .iter()
        .filter_map(|c| c.time_ns())
        .map(|t| t as f64)
        .collect()
}

/// Per-case speed-ups (baseline time / engine time) of `engine` against the baseline's group.
fn speedups(baseline: &[&CaseResult], engine: &[&CaseResult]) -> Vec<f64> {
    let base: BTreeMap<(&str, usize), u64> = baseline
        .iter()
        .filter_map(|c| Some(((&*c.file, c.case), c.time_ns()?)))
        .collect();
    engine
        .iter()
        .filter_map(|c| {
            let b = *base.get(&(&*c.file, c.case))?;
            let t = c.time_ns()?;
            (t > 0 && b > 0).then(|| b as f64 / t as f64)
        })
        .collect()
}

fn summary(out: &mut String, groups: &Group<'_>, baseline: &str) {
    out.push_str("<h2>Summary</h2>\n<table id=\"summary\"><tr><th>game</th><th>engine</th><th>cases</th><th>ok</th><th>not ok</th><th>total</th><th>median</th><th>p90</th><th>max</th><th>median speed-up vs ");
    out.push_str(&escape(baseline));
    out.push_str("</th></tr>\n");
    for (&(game, engine), cases) in groups {
        let sorted = stats::sorted(&times(cases));
        let q = |p| stats::quantile_sorted(&sorted, p).map_or("-".into(), |t| human_time(t as u64));
        let ok = cases.iter().filter(|c| passes(c.status)).count();
        let speedup = groups
            .get(&(game, baseline))
            .filter(|_| engine != baseline)
            .and_then(|b| stats::median(&speedups(b, cases)))
            .map_or("-".into(), |s| format!("x{s:.2}"));
        let bad = cases.len() - ok;
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{ok}</td><td class=\"n{}\">{bad}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{speedup}</td></tr>",
            escape(game),
            escape(engine),
            cases.len(),
            if bad > 0 { " bad" } else { "" },
            human_time(sorted.iter().sum::<f64>() as u64),
            q(0.5),
            q(0.9),
            q(1.0),
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

fn distributions(out: &mut String, groups: &Group<'_>, baseline: &str) {
    out.push_str("<h2>Time per case</h2>\n<div class=\"charts\">");
    for (&(game, engine), cases) in groups {
        if let Some(chart) =
            svg::log_histogram(&format!("{game}/{engine}"), &times(cases), svg::time_label)
        {
            out.push_str(&chart);
        }
    }
    out.push_str("</div>\n<h2>Per-case speed-ups</h2>\n<div class=\"charts\">");
    let mut any = false;
    for (&(game, engine), cases) in groups {
        let Some(base) = groups.get(&(game, baseline)).filter(|_| engine != baseline) else {
            continue;
        };
        let title = format!("{game}/{engine}: {baseline} time / {engine} time");
        if let Some(chart) = svg::log_histogram(&title, &speedups(base, cases), svg::ratio_label) {
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

fn scaling(out: &mut String, groups: &Group<'_>) {
    out.push_str("<h2>Time against case size</h2>\n<div class=\"charts\">");
    let mut games: BTreeMap<&str, Vec<Series>> = BTreeMap::new();
    for (&(game, engine), cases) in groups {
        let points: Vec<(f64, f64)> = cases
            .iter()
            .filter_map(|c| Some((c.cells? as f64, c.time_ns()? as f64)))
            .collect();
        let stride = points.len().div_ceil(MAX_POINTS).max(1);
        games.entry(game).or_default().push(Series {
            name: engine.to_string(),
            points: points.into_iter().step_by(stride).collect(),
        });
    }
    for (game, series) in games {
        if let Some(chart) = svg::log_log_scatter(game, "size", &series) {
            out.push_str(&chart);
        }
    }
    out.push_str("</div>\n");
}

fn slowest(out: &mut String, groups: &Group<'_>) {
    out.push_str("<h2>Slowest cases</h2>\n<table><tr><th>game</th><th>engine</th><th>file</th><th>case</th><th>size</th><th>time</th><th>status</th></tr>\n");
    for (&(game, engine), cases) in groups {
        let mut timed: Vec<_> = cases
            .iter()
            .filter_map(|c| Some((c.time_ns()?, c)))
            .collect();
        timed.sort_by_key(|(t, c)| (std::cmp::Reverse(*t), &c.file, c.case));
        for (t, c) in timed.into_iter().take(SLOWEST) {
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
                escape(game),
                escape(engine),
                escape(&c.file),
                c.case,
                escape(&c.size),
                human_time(t),
                c.status.as_str()
            );
        }
    }
    out.push_str("</table>\n");
}

fn failures(out: &mut String, cases: &[&CaseResult]) {
    let bad: Vec<_> = cases.iter().filter(|c| !passes(c.status)).collect();
    let _ = writeln!(out, "<h2 id=\"failures\">Cases not ok: {}</h2>", bad.len());
    if bad.is_empty() {
        return;
    }
    out.push_str("<table><tr><th>game</th><th>engine</th><th>file</th><th>case</th><th>status</th><th>message (first difference)</th></tr>\n");
    for c in bad.iter().take(MAX_FAILURES) {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"bad\">{}</td><td>{}</td></tr>",
            escape(&c.game),
            escape(&c.engine),
            escape(&c.file),
            c.case,
            c.status.as_str(),
            escape(&c.message)
        );
    }
    out.push_str("</table>\n");
    if bad.len() > MAX_FAILURES {
        let _ = writeln!(
            out,
            "<p>... and {} more (see the CSV).</p>",
            bad.len() - MAX_FAILURES
        );
    }
}

fn boards_section(out: &mut String, boards: &[BoardCase]) {
    let _ = writeln!(out, "<h2 id=\"boards\">Boards: {}</h2>", boards.len());
    if boards.is_empty() {
        out.push_str("<p>No board drawn: the input files were not found (give the folder the run was given with <code>--inputs DIR</code>).</p>\n");
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
        out.push_str("</div>\n");
    }
}
