//! Exports of a run's summary, like hyperfine's: one [`Exporter`] per format (JSON, Markdown,
//! an SVG plot), each rendering the same [`Report`] to bytes. The CSV stays the raw data;
//! everything here is derived from the summary records ([`crate::results`]), so it can be
//! recomputed from a CSV. Files are written whole or not at all ([`write_export`]).

mod json;
mod markdown;
mod plot;

use std::io::Write;
use std::path::Path;

pub use json::Json;
pub use markdown::Markdown;
pub use plot::BoxPlot;

use crate::atomic::write_atomic;
use crate::results::{EngineSummary, Record, SlowCase, human_time};

/// What every exporter renders: a run's summary, its slowest cases, and the per-case records
/// they were computed from.
pub struct Report<'a> {
    pub summary: &'a [EngineSummary],
    pub slowest: &'a [(String, String, Vec<SlowCase>)],
    pub records: &'a [Record],
}

/// Why an export could not be made or written.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("{0}")]
    Render(String),
    #[error("cannot write {path}: {source}")]
    Io {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

/// One export format.
pub trait Exporter {
    /// The export's bytes.
    fn render(&self, report: &Report<'_>) -> Result<Vec<u8>, ExportError>;
}

/// Renders `report` with `exporter` and writes it to `path` (`-` = stdout), atomically: an
/// existing file is replaced only by a complete export.
pub fn write_export(
    exporter: &dyn Exporter,
    report: &Report<'_>,
    path: &Path,
) -> Result<(), ExportError> {
    let bytes = exporter.render(report)?;
    let io = |source| ExportError::Io {
        path: path.to_path_buf(),
        source,
    };
    if path.as_os_str() == "-" {
        let mut out = std::io::stdout().lock();
        out.write_all(&bytes).map_err(io)?;
        out.flush().map_err(io)
    } else {
        write_atomic(path, &bytes).map_err(io)
    }
}

/// The slowest cases as text lines for the terminal summary.
pub fn slowest_text(slowest: &[(String, String, Vec<SlowCase>)]) -> String {
    let mut text = String::new();
    for (game, engine, cases) in slowest {
        if cases.is_empty() {
            continue;
        }
        text.push_str(&format!("slowest cases of {game} / {engine}:\n"));
        for (i, c) in cases.iter().enumerate() {
            let label = if c.label.is_empty() {
                String::new()
            } else {
                format!(" ({})", c.label)
            };
            text.push_str(&format!(
                "  {:>2}. {:>10}  {} case {}{label}\n",
                i + 1,
                human_time(c.time_ns),
                c.file,
                c.case
            ));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{Row, Status, Timing, slowest, summarize};

    fn row(engine: &str, file: &str, case: usize, time: u64) -> Row {
        Row {
            game: "toy".into(),
            engine: engine.into(),
            file: file.into(),
            case,
            run: 1,
            label: String::new(),
            size: "5 turns".into(),
            status: Status::Ok,
            time_ns: Some(time),
            timing: Timing::Case,
            work: Some(5),
            work_unit: "turns".into(),
            score: None,
            digest: String::new(),
            message: String::new(),
            verdict: String::new(),
        }
    }

    fn render(
        exporter: &dyn Exporter,
        records: &[Record],
        summary: &[EngineSummary],
        slowest: &[(String, String, Vec<SlowCase>)],
    ) -> String {
        let report = Report {
            summary,
            slowest,
            records,
        };
        String::from_utf8(exporter.render(&report).unwrap()).unwrap()
    }

    fn rows() -> Vec<Row> {
        vec![
            row("reference", "a.in", 1, 4_000_000),
            row("reference", "b.in", 1, 2_000_000),
            row("table", "a.in", 1, 1_000_000),
            row("table", "b.in", 1, 1_000_000),
        ]
    }

    #[test]
    fn markdown_snapshot() {
        // reference: total 6 ms, min 2, median (lower middle) 2, max 4; table: 2 ms total, so
        // 6 / 2 = 3.00 times faster.
        let expected = "\
| game | engine | cases | ok | mismatch | error | unsolved | budget | total [ms] | min [ms] | median [ms] | max [ms] | relative |
|:---|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---|
| toy | reference | 2 | 2 | 0 | 0 | 0 | 0 | 6.000 | 2.000 | 2.000 | 4.000 |  |
| toy | table | 2 | 2 | 0 | 0 | 0 | 0 | 2.000 | 1.000 | 1.000 | 1.000 | 3.00 times faster than reference |
";
        let records = Record::from_rows(&rows());
        let summary = summarize(&records, "reference");
        assert_eq!(render(&Markdown, &records, &summary, &[]), expected);
    }

    #[test]
    fn json_snapshot() {
        let records = Record::from_rows(&rows());
        let text = render(
            &Json,
            &records,
            &summarize(&records, "reference"),
            &slowest(&records, 1),
        );
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let expected = serde_json::json!({
            "summary": [
                {"game": "toy", "engine": "reference", "cases": 2, "ok": 2, "mismatch": 0, "error": 0,
                 "unsolved": 0, "budget": 0, "total_ns": 6000000, "median_ns": 2000000,
                 "min_ns": 2000000, "max_ns": 4000000, "speedup": null, "baseline": null},
                {"game": "toy", "engine": "table", "cases": 2, "ok": 2, "mismatch": 0, "error": 0,
                 "unsolved": 0, "budget": 0, "total_ns": 2000000, "median_ns": 1000000,
                 "min_ns": 1000000, "max_ns": 1000000, "speedup": 3.0, "baseline": "reference"}
            ],
            "slowest": [
                {"game": "toy", "engine": "reference", "cases": [{"file": "a.in", "case": 1, "label": "", "time_ns": 4000000}]},
                {"game": "toy", "engine": "table", "cases": [{"file": "a.in", "case": 1, "label": "", "time_ns": 1000000}]}
            ]
        });
        assert_eq!(value, expected);
        assert!(text.ends_with("}\n"));
    }

    #[test]
    fn slowest_text_names_file_and_case() {
        let text = slowest_text(&slowest(&Record::from_rows(&rows()), 2));
        assert!(text.contains("slowest cases of toy / reference:\n   1.    4.00 ms  a.in case 1\n   2.    2.00 ms  b.in case 1\n"), "{text}");
    }

    #[test]
    fn plot_draws_an_svg_with_one_box_per_engine() {
        let records = Record::from_rows(&rows());
        let svg = render(&BoxPlot, &records, &[], &[]);
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("toy/reference") && svg.contains("toy/table"));
        let empty = Report {
            summary: &[],
            slowest: &[],
            records: &[],
        };
        assert!(BoxPlot.render(&empty).is_err());
    }

    #[test]
    fn an_export_replaces_a_file_only_when_complete() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.svg");
        std::fs::write(&path, "old").unwrap();
        let empty = Report {
            summary: &[],
            slowest: &[],
            records: &[],
        };
        assert!(write_export(&BoxPlot, &empty, &path).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        let records = Record::from_rows(&rows());
        let report = Report {
            summary: &[],
            slowest: &[],
            records: &records,
        };
        write_export(&BoxPlot, &report, &path).unwrap();
        assert!(std::fs::read_to_string(&path).unwrap().starts_with("<svg"));
    }
}
