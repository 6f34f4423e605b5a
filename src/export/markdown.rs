//! The Markdown export: the summary as a table. Times are in one unit per table, the largest
//! in which the fastest engine's median is at least 1 (ns, µs, ms or s), so a sub-millisecond
//! engine never shows as `0.000`.

use super::{ExportError, Exporter, Report};
use crate::results::{EngineSummary, TimeUnit, Timing, speed_text};

/// A Markdown table, one line per game and engine.
pub struct Markdown;

impl Exporter for Markdown {
    fn render(&self, report: &Report<'_>) -> Result<Vec<u8>, ExportError> {
        Ok(markdown(report.summary).into_bytes())
    }
}

/// The table's unit: from the smallest median of an engine that timed something.
fn table_unit(summary: &[EngineSummary]) -> TimeUnit {
    let smallest = summary
        .iter()
        .filter(|s| s.timed > 0)
        .map(|s| s.median_ns)
        .fold(f64::INFINITY, f64::min);
    TimeUnit::for_ns(if smallest.is_finite() { smallest } else { 0.0 })
}

fn markdown(summary: &[EngineSummary]) -> String {
    let unit = table_unit(summary);
    let u = unit.symbol();
    let mut text = format!(
        "| game | engine | cases | ok | unchecked | mismatch | error | unsolved | budget | timeout | total [{u}] | mean ± σ [{u}] | min [{u}] | median [{u}] | max [{u}] | relative |\n\
         |:---|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---|\n"
    );
    let n = |ns: f64| format!("{:.2}", ns / unit.scale());
    for s in summary {
        let engine = if s.timing == Timing::File {
            format!("{} (file time / cases)", s.engine)
        } else {
            s.engine.clone()
        };
        let times = if s.timed == 0 {
            vec![String::new(); 5]
        } else {
            vec![
                n(s.total_ns as f64),
                format!("{} ± {}", n(s.mean_ns), n(s.stddev_ns)),
                n(s.min_ns as f64),
                n(s.median_ns),
                n(s.max_ns as f64),
            ]
        };
        text.push_str(&format!(
            "| {} | {engine} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            s.game,
            s.cases,
            s.ok,
            s.unchecked,
            s.mismatch,
            s.error,
            s.unsolved,
            s.budget,
            s.timeout,
            times.join(" | "),
            speed_text(s)
        ));
    }
    text
}
