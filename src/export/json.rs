//! The JSON export: the run's metadata, the summary lines, the warnings, the slowest cases of
//! each engine and, with `--samples`, every case's raw run times.

use serde::Serialize;

use super::{ExportError, Exporter, Report};
use crate::results::{EngineSummary, SlowCase, Timing};
use crate::util::meta::RunMeta;

/// Pretty JSON, ending with a newline.
pub struct Json;

impl Exporter for Json {
    fn render(&self, report: &Report<'_>) -> Result<Vec<u8>, ExportError> {
        let export = JsonExport {
            meta: report.meta,
            summary: report.summary,
            warnings: report.warnings,
            slowest: report
                .slowest
                .iter()
                .filter(|(_, _, cases)| !cases.is_empty())
                .map(|(game, engine, cases)| JsonSlowest {
                    game,
                    engine,
                    cases,
                })
                .collect(),
            samples: report.samples.then(|| {
                report
                    .records
                    .iter()
                    .map(|r| Sample {
                        game: &r.game,
                        engine: &r.engine,
                        file: &r.file,
                        case: r.case,
                        cells: r.cells,
                        status: r.status.as_str(),
                        timing: r.timing,
                        repeats: r.repeats,
                        times_ns: &r.runs,
                    })
                    .collect()
            }),
        };
        let mut text = serde_json::to_string_pretty(&export).expect("plain data serializes");
        text.push('\n');
        Ok(text.into_bytes())
    }
}

#[derive(Debug, Serialize)]
struct JsonExport<'a> {
    meta: Option<&'a RunMeta>,
    summary: &'a [EngineSummary],
    warnings: &'a [String],
    slowest: Vec<JsonSlowest<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    samples: Option<Vec<Sample<'a>>>,
}

#[derive(Debug, Serialize)]
struct JsonSlowest<'a> {
    game: &'a str,
    engine: &'a str,
    cases: &'a [SlowCase],
}

/// One case of one engine with its raw timed runs (`timing` says what they cover).
#[derive(Debug, Serialize)]
struct Sample<'a> {
    game: &'a str,
    engine: &'a str,
    file: &'a str,
    case: usize,
    cells: Option<u64>,
    status: &'a str,
    timing: Timing,
    repeats: u32,
    times_ns: &'a [u64],
}
