//! Exports of a run's summary, like hyperfine's: one [`Exporter`] per format (JSON, Markdown,
//! the summary as CSV, SVG plots), each rendering the same [`Report`] to bytes. The CSV stays the raw data;
//! everything here is derived from the summary records ([`crate::results`]), so it can be
//! recomputed from a CSV. Files are written whole or not at all ([`write_export`]). JUnit XML
//! ([`junit`]) is a document of test cases, not of a summary: `run --junit` and `invoke --junit`.

mod csv_summary;
mod json;
pub mod junit;
mod markdown;
mod plot;

use std::io::Write;
use std::path::Path;

pub use csv_summary::SummaryCsv;
pub use json::Json;
pub use markdown::Markdown;
pub use plot::{BoxPlot, ScalingPlot, Series, log_log_lines, require_svg};

use crate::results::{EngineSummary, Record, SlowCase, human_time};
use crate::util::atomic::write_atomic;
use crate::util::meta::RunMeta;

/// What every exporter renders: a run's summary, its slowest cases, and the per-case records
/// they were computed from, with the run's metadata and warnings.
pub struct Report<'a> {
    pub summary: &'a [EngineSummary],
    pub slowest: &'a [(String, String, Vec<SlowCase>)],
    pub records: &'a [Record],
    pub meta: Option<&'a RunMeta>,
    pub warnings: &'a [String],
    /// JSON: add every case's raw run times (`samples`).
    pub samples: bool,
}

impl<'a> Report<'a> {
    /// A report of a summary and its records, without metadata, warnings or samples.
    pub fn new(
        summary: &'a [EngineSummary],
        slowest: &'a [(String, String, Vec<SlowCase>)],
        records: &'a [Record],
    ) -> Report<'a> {
        Report {
            summary,
            slowest,
            records,
            meta: None,
            warnings: &[],
            samples: false,
        }
    }
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
    if crate::util::atomic::is_stdout(path) {
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
    use crate::results::{
        Row, Status, Timing, detail_lines, slowest, summarize, summary_table, verdict_lines,
    };

    fn row(engine: &str, file: &str, case: usize, time: u64) -> Row {
        Row {
            game: "toy".into(),
            engine: engine.into(),
            file: file.into(),
            case,
            run: 1,
            size: "5 turns".into(),
            cells: Some(5 * case as u64),
            status: Status::Ok,
            time_ns: Some(time),
            work: Some(5),
            work_unit: "turns".into(),
            ..Row::default()
        }
    }

    const MS: u64 = 1_000_000;

    /// Fixed records whose figures are derived by hand in the snapshot tests' comments:
    /// - reference: 4, 2, 6, 8 ms (a.in 1-2, b.in 1-2): total 20, mean 5, sample σ
    ///   sqrt(20/3) = 2.58, median (4 + 6) / 2 = 5, min 2, max 8;
    /// - table: 1, 1, 2 (mismatch), 2 ms: comparable cases a1, a2, b2, reference 14 ms
    ///   against 4 ms = 3.50 times faster over 3 of 4 cases; per-case ratios 4, 2, 4: p10
    ///   2 + 0.2 * 2 = 2.40, median 4, p90 4;
    /// - mine, an external program: a.in 4 ms and b.in 10 ms for the whole file, so 2, 2, 5,
    ///   5 ms per case: 20 / 14 = 1.43 times faster over all 4; ratios 2, 1, 1.2, 1.6:
    ///   median 1.4, p10 1.06, p90 1.88; CPU 3 ms user + 1 ms system per file.
    fn rows() -> Vec<Row> {
        let mut rows = vec![
            row("reference", "a.in", 1, 4 * MS),
            row("reference", "a.in", 2, 2 * MS),
            row("reference", "b.in", 1, 6 * MS),
            row("reference", "b.in", 2, 8 * MS),
            row("table", "a.in", 1, MS),
            row("table", "a.in", 2, MS),
            row("table", "b.in", 1, 2 * MS),
            row("table", "b.in", 2, 2 * MS),
        ];
        rows[6].status = Status::Mismatch;
        for (file, case, t) in [
            ("a.in", 1, 4),
            ("a.in", 2, 4),
            ("b.in", 1, 10),
            ("b.in", 2, 10),
        ] {
            rows.push(Row {
                timing: Timing::File,
                user_ns: Some(3 * MS),
                sys_ns: Some(MS),
                work: None,
                work_unit: String::new(),
                ..row("mine", file, case, t * MS)
            });
        }
        rows
    }

    fn render(exporter: &dyn Exporter, report: &Report<'_>) -> String {
        String::from_utf8(exporter.render(report).unwrap()).unwrap()
    }

    fn fixed_meta() -> RunMeta {
        RunMeta {
            tool: "gamebench".into(),
            version: "0.0.0".into(),
            git: Some("v0-1-gabcdef".into()),
            host: "host".into(),
            cpu: Some("a CPU".into()),
            cores: 2,
            threads: 2,
            runs: 1,
            warmup: 0,
            max_states: None,
            time_limit_s: None,
            memory_mb: None,
            search_threads: 1,
            check: true,
            baseline: "reference".into(),
            start: "2026-01-01T00:00:00Z".into(),
            end: "2026-01-01T00:00:01Z".into(),
            wall_ns: 1_000_000_000,
            results: 12,
            results_per_s: 12.0,
            cases: 4,
            external_startup_ns: Some(MS),
            startup: Vec::new(),
            pinned: false,
            oversubscribed: false,
            command_line: vec!["gamebench".into(), "run".into(), "toy".into()],
        }
    }

    #[test]
    fn summary_table_snapshot() {
        let records = Record::from_rows(&rows());
        let summary = summarize(&records, "reference");
        let mut text = summary_table(&summary);
        text.push_str(&detail_lines(&summary));
        text.push_str(&verdict_lines(&summary, true));
        insta::assert_snapshot!(text);
    }

    #[test]
    fn markdown_snapshot() {
        let records = Record::from_rows(&rows());
        let summary = summarize(&records, "reference");
        insta::assert_snapshot!(render(&Markdown, &Report::new(&summary, &[], &records)));
    }

    #[test]
    fn markdown_chooses_a_unit_per_table() {
        // Medians of 150 ns and 300 ns: the table is in ns, so nothing reads 0.000.
        let rows = vec![
            row("reference", "a.in", 1, 300),
            row("table", "a.in", 1, 150),
        ];
        let records = Record::from_rows(&rows);
        let summary = summarize(&records, "reference");
        let text = render(&Markdown, &Report::new(&summary, &[], &records));
        assert!(text.contains("median [ns]"), "{text}");
        assert!(text.contains("| 150.00 |"), "{text}");
        assert!(!text.contains("0.000"), "{text}");
    }

    #[test]
    fn json_snapshot() {
        let records = Record::from_rows(&rows());
        let summary = summarize(&records, "reference");
        let slow = slowest(&records, 1);
        let meta = fixed_meta();
        let warnings = vec!["warning: an example".to_string()];
        let report = Report {
            meta: Some(&meta),
            warnings: &warnings,
            samples: true,
            ..Report::new(&summary, &slow, &records)
        };
        let text = render(&Json, &report);
        assert!(text.ends_with("}\n"));
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        // The fields the exports promise, by hand.
        let table = &value["summary"][1];
        assert_eq!(table["engine"], "table");
        assert_eq!(table["relative"], 3.5);
        assert_eq!(table["compared_cases"], 3);
        assert_eq!(table["mismatch"], 1);
        assert_eq!(value["summary"][0]["mean_ns"], 5e6);
        assert_eq!(value["summary"][0]["median_ns"], 5e6);
        assert_eq!(value["meta"]["git"], "v0-1-gabcdef");
        assert_eq!(value["samples"][0]["times_ns"][0], 4 * MS);
        insta::assert_snapshot!(text);
    }

    #[test]
    fn summary_csv_has_a_line_per_engine() {
        let records = Record::from_rows(&rows());
        let summary = summarize(&records, "reference");
        let text = render(&SummaryCsv, &Report::new(&summary, &[], &records));
        let mut lines = text.lines();
        let header = lines.next().unwrap();
        assert!(
            header.starts_with("game,engine,cases,ok,unchecked,mismatch"),
            "{header}"
        );
        assert!(
            header.contains("mean_ns,stddev_ns,median_ns,min_ns,max_ns"),
            "{header}"
        );
        assert!(header.contains("relative,relative_stddev"), "{header}");
        assert_eq!(lines.count(), 3);
    }

    #[test]
    fn slowest_text_names_file_and_case() {
        let text = slowest_text(&slowest(&Record::from_rows(&rows()), 2));
        assert!(text.contains("slowest cases of toy / reference:\n   1.    8.00 ms  b.in case 2\n   2.    6.00 ms  b.in case 1\n"), "{text}");
        // An external program's cases at their share of the file's time.
        assert!(
            text.contains("slowest cases of toy / mine:\n   1.    5.00 ms  b.in case 1\n"),
            "{text}"
        );
    }

    #[test]
    fn plots_draw_per_case_times_and_label_external_programs() {
        let records = Record::from_rows(&rows());
        let report = Report::new(&[], &[], &records);
        let svg = render(&BoxPlot, &report);
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("toy/reference") && svg.contains("toy/table"));
        assert!(svg.contains("toy/mine (file time / cases)"), "{svg}");
        let scaling = render(&ScalingPlot, &report);
        assert!(scaling.starts_with("<svg") && scaling.contains("toy/table"));
        let empty = Report::new(&[], &[], &[]);
        assert!(BoxPlot.render(&empty).is_err());
        assert!(ScalingPlot.render(&empty).is_err());
        assert!(require_svg(Path::new("p.svg")).is_ok());
        assert!(require_svg(Path::new("p.png")).is_err());
        assert!(require_svg(Path::new("p")).is_err());
    }

    #[test]
    fn an_export_replaces_a_file_only_when_complete() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.svg");
        std::fs::write(&path, "old").unwrap();
        let empty = Report::new(&[], &[], &[]);
        assert!(write_export(&BoxPlot, &empty, &path).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        let records = Record::from_rows(&rows());
        write_export(&BoxPlot, &Report::new(&[], &[], &records), &path).unwrap();
        assert!(std::fs::read_to_string(&path).unwrap().starts_with("<svg"));
    }
}
