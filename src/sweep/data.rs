//! A sweep's data kept as a file (`sweep --csv`, `sweep --export-json`): every point and
//! engine with its median time per case, and each engine's fit (exponent, coefficient, R²),
//! so a scaling result can be kept, plotted elsewhere and compared like any run.
//!
//! CSV: one row per (point, engine), in point order then engine order, columns
//! [`CSV_COLUMNS`]; the engine's fit is repeated on each of its rows (empty when it has none).
//! JSON: `{"game", "points": [{"point", "cells", "engines": [...]}], "fits": [...]}`.

use serde::Serialize;

use super::{Fit, PointResult, usable};

/// The columns of `sweep --csv`.
pub const CSV_COLUMNS: [&str; 12] = [
    "game",
    "point",
    "cells",
    "engine",
    "cases",
    "failed",
    "median_ns",
    "in_fit",
    "exponent",
    "coefficient",
    "r_squared",
    "fit_points",
];

#[derive(Serialize)]
struct EngineAt<'a> {
    engine: &'a str,
    cases: usize,
    /// Cases not ok, unchecked or unsolved: such a point is left out of the fit.
    failed: usize,
    median_ns: Option<f64>,
    in_fit: bool,
}

fn engines_at(r: &PointResult) -> Vec<EngineAt<'_>> {
    r.summaries
        .iter()
        .map(|s| EngineAt {
            engine: &s.engine,
            cases: s.cases,
            failed: s.cases - (s.ok + s.unchecked + s.unsolved),
            median_ns: (s.timed > 0).then_some(s.median_ns),
            in_fit: usable(s) && s.median_ns > 0.0 && r.cells.is_some(),
        })
        .collect()
}

fn number(x: Option<f64>) -> String {
    x.filter(|x| x.is_finite())
        .map_or(String::new(), |x| format!("{x}"))
}

/// The CSV text.
pub fn csv(game: &str, results: &[PointResult], fits: &[Fit]) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(CSV_COLUMNS).expect("writing to memory");
    for r in results {
        for e in engines_at(r) {
            let fit = fits.iter().find(|f| f.engine == e.engine);
            writer
                .write_record([
                    game.to_string(),
                    r.point.label.clone(),
                    number(r.cells),
                    e.engine.to_string(),
                    e.cases.to_string(),
                    e.failed.to_string(),
                    number(e.median_ns),
                    e.in_fit.to_string(),
                    number(fit.map(|f| f.exponent)),
                    number(fit.map(|f| f.coefficient)),
                    number(fit.map(|f| f.r_squared)),
                    fit.map_or(String::new(), |f| f.points.to_string()),
                ])
                .expect("writing to memory");
        }
    }
    String::from_utf8(writer.into_inner().expect("writing to memory")).expect("CSV of UTF-8")
}

#[derive(Serialize)]
struct JsonPoint<'a> {
    point: &'a str,
    cells: Option<f64>,
    engines: Vec<EngineAt<'a>>,
}

#[derive(Serialize)]
struct JsonFit<'a> {
    engine: &'a str,
    exponent: f64,
    coefficient: f64,
    /// `null` when undefined (two points, or no spread).
    r_squared: Option<f64>,
    points: usize,
}

#[derive(Serialize)]
struct JsonSweep<'a> {
    game: &'a str,
    points: Vec<JsonPoint<'a>>,
    fits: Vec<JsonFit<'a>>,
}

/// The JSON text, pretty, ending with a newline.
pub fn json(game: &str, results: &[PointResult], fits: &[Fit]) -> String {
    let sweep = JsonSweep {
        game,
        points: results
            .iter()
            .map(|r| JsonPoint {
                point: &r.point.label,
                cells: r.cells,
                engines: engines_at(r),
            })
            .collect(),
        fits: fits
            .iter()
            .map(|f| JsonFit {
                engine: &f.engine,
                exponent: f.exponent,
                coefficient: f.coefficient,
                r_squared: f.r_squared.is_finite().then_some(f.r_squared),
                points: f.points,
            })
            .collect(),
    };
    let mut text = serde_json::to_string_pretty(&sweep).expect("plain data serializes");
    text.push('\n');
    text
}
