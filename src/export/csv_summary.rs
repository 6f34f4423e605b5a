//! `--export-csv`: the summary as CSV, one line per game and engine (hyperfine's option name),
//! with every field of the JSON summary; times in nanoseconds.

use super::{ExportError, Exporter, Report};

/// The summary lines as CSV with a header row.
pub struct SummaryCsv;

impl Exporter for SummaryCsv {
    fn render(&self, report: &Report<'_>) -> Result<Vec<u8>, ExportError> {
        let mut writer = csv::Writer::from_writer(Vec::new());
        for line in report.summary {
            writer
                .serialize(line)
                .map_err(|e| ExportError::Render(e.to_string()))?;
        }
        writer
            .into_inner()
            .map_err(|e| ExportError::Render(e.to_string()))
    }
}
