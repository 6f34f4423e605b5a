//! The JSON export: the summary lines and the slowest cases of each engine.

use serde::Serialize;

use super::{ExportError, Exporter, Report};
use crate::results::{EngineSummary, SlowCase};

/// Pretty JSON, ending with a newline.
pub struct Json;

impl Exporter for Json {
    fn render(&self, report: &Report<'_>) -> Result<Vec<u8>, ExportError> {
        Ok(json(report.summary, report.slowest).into_bytes())
    }
}

/// The JSON export: the summary lines and the slowest cases of each engine.
#[derive(Debug, Serialize)]
struct JsonExport<'a> {
    summary: &'a [EngineSummary],
    slowest: Vec<JsonSlowest<'a>>,
}

#[derive(Debug, Serialize)]
struct JsonSlowest<'a> {
    game: &'a str,
    engine: &'a str,
    cases: &'a [SlowCase],
}

/// The summary (and slowest cases) as pretty JSON, ending with a newline.
fn json(summary: &[EngineSummary], slowest: &[(String, String, Vec<SlowCase>)]) -> String {
    let export = JsonExport {
        summary,
        slowest: slowest
            .iter()
            .filter(|(_, _, cases)| !cases.is_empty())
            .map(|(game, engine, cases)| JsonSlowest {
                game,
                engine,
                cases,
            })
            .collect(),
    };
    let mut text = serde_json::to_string_pretty(&export).expect("plain data serializes");
    text.push('\n');
    text
}
