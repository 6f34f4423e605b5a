//! The Markdown export: the summary as a table.

use super::{ExportError, Exporter, Report};
use crate::results::{EngineSummary, relative};

/// A Markdown table, one line per game and engine.
pub struct Markdown;

impl Exporter for Markdown {
    fn render(&self, report: &Report<'_>) -> Result<Vec<u8>, ExportError> {
        Ok(markdown(report.summary).into_bytes())
    }
}

/// The summary as a Markdown table (times in milliseconds, like hyperfine's export).
fn markdown(summary: &[EngineSummary]) -> String {
    let mut text = String::from(
        "| game | engine | cases | ok | mismatch | error | unsolved | budget | total [ms] | min [ms] | median [ms] | max [ms] | relative |\n\
         |:---|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---|\n",
    );
    let ms = |ns: u64| format!("{:.3}", ns as f64 / 1e6);
    for s in summary {
        let speed = match (&s.speedup, &s.baseline) {
            (Some(x), Some(b)) => relative(*x, b),
            _ => String::new(),
        };
        text.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            s.game,
            s.engine,
            s.cases,
            s.ok,
            s.mismatch,
            s.error,
            s.unsolved,
            s.budget,
            ms(s.total_ns),
            ms(s.min_ns),
            ms(s.median_ns),
            ms(s.max_ns),
            speed
        ));
    }
    text
}
