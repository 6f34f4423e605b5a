//! Exports of a run's summary, like hyperfine's: JSON and Markdown, and an SVG picture of the
//! per-engine distributions of case times. The CSV stays the raw data; everything here is
//! derived from the summary ([`crate::results`]), so it can be recomputed from a CSV.

use plotters::prelude::*;
use serde::Serialize;

use crate::results::{EngineSummary, Row, SlowCase, human_time, median, relative};

/// The JSON export: the summary lines and the slowest cases of each engine.
#[derive(Debug, Serialize)]
pub struct JsonExport<'a> {
    pub summary: &'a [EngineSummary],
    pub slowest: Vec<JsonSlowest<'a>>,
}

#[derive(Debug, Serialize)]
pub struct JsonSlowest<'a> {
    pub game: &'a str,
    pub engine: &'a str,
    pub cases: &'a [SlowCase],
}

/// The summary (and slowest cases) as pretty JSON, ending with a newline.
pub fn json(summary: &[EngineSummary], slowest: &[(String, String, Vec<SlowCase>)]) -> String {
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

/// The summary as a Markdown table (times in milliseconds, like hyperfine's export).
pub fn markdown(summary: &[EngineSummary]) -> String {
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

/// Quartiles of a sorted, non-empty list (nearest-rank).
fn quartiles(sorted: &[u64]) -> [f64; 5] {
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize] as f64;
    [at(0.0), at(0.25), at(0.5), at(0.75), at(1.0)]
}

/// Draws one box per (game, engine) of its per-case times (median of runs) on a log scale:
/// whiskers at min and max, box from the first to the third quartile, a bar at the median.
pub fn plot_svg(rows: &[Row], path: &std::path::Path) -> Result<(), String> {
    let mut series: Vec<(String, Vec<u64>)> = Vec::new();
    let mut per_case: std::collections::BTreeMap<(String, String, String, usize), Vec<u64>> =
        Default::default();
    let mut order: Vec<(String, String)> = Vec::new();
    for row in rows {
        let key = (row.game.clone(), row.engine.clone());
        if !order.contains(&key) {
            order.push(key);
        }
        if let Some(t) = row.time_ns {
            per_case
                .entry((
                    row.game.clone(),
                    row.engine.clone(),
                    row.file.clone(),
                    row.case,
                ))
                .or_default()
                .push(t);
        }
    }
    for (game, engine) in &order {
        let mut times: Vec<u64> = per_case
            .iter_mut()
            .filter(|((g, e, _, _), _)| g == game && e == engine)
            .map(|(_, runs)| median(runs).max(1))
            .collect();
        times.sort_unstable();
        if !times.is_empty() {
            series.push((format!("{game}/{engine}"), times));
        }
    }
    if series.is_empty() {
        return Err("no timed cases to plot".to_string());
    }
    let lo = series.iter().map(|(_, t)| t[0]).min().expect("non-empty") as f64;
    let hi = series
        .iter()
        .map(|(_, t)| *t.last().expect("non-empty"))
        .max()
        .expect("non-empty") as f64;
    let (lo, hi) = (lo / 2.0, hi * 2.0);
    let height = 120 + 50 * series.len() as u32;
    let root = SVGBackend::new(path, (900, height)).into_drawing_area();
    let err = |e: &dyn std::fmt::Display| e.to_string();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption("time per case (log scale)", ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(180)
        .build_cartesian_2d((lo..hi).log_scale(), 0f64..series.len() as f64)
        .map_err(|e| err(&e))?;
    let names: Vec<String> = series.iter().map(|(n, _)| n.clone()).collect();
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_desc("time per case")
        .x_label_formatter(&|x| human_time(*x as u64))
        .y_labels(series.len() * 2 + 1)
        .y_label_formatter(&|y| {
            let i = y.floor() as usize;
            if (y - i as f64 - 0.5).abs() < 1e-6 {
                names.get(i).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .draw()
        .map_err(|e| err(&e))?;
    for (i, (_, times)) in series.iter().enumerate() {
        let [min, q1, med, q3, max] = quartiles(times);
        let y = i as f64 + 0.5;
        let color = Palette99::pick(i).to_rgba();
        let style = ShapeStyle::from(&color).stroke_width(2);
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(min, y), (max, y)],
                style,
            )))
            .map_err(|e| err(&e))?;
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(q1, y - 0.3), (q3, y + 0.3)],
                color.mix(0.3).filled(),
            )))
            .map_err(|e| err(&e))?;
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(q1, y - 0.3), (q3, y + 0.3)],
                style,
            )))
            .map_err(|e| err(&e))?;
        for x in [min, max] {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(x, y - 0.15), (x, y + 0.15)],
                    style,
                )))
                .map_err(|e| err(&e))?;
        }
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(med, y - 0.3), (med, y + 0.3)],
                ShapeStyle::from(&BLACK).stroke_width(3),
            )))
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{Status, Timing, slowest, summarize};

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
        }
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
        assert_eq!(markdown(&summarize(&rows(), "reference")), expected);
    }

    #[test]
    fn json_snapshot() {
        let rows = rows();
        let text = json(&summarize(&rows, "reference"), &slowest(&rows, 1));
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
        let text = slowest_text(&slowest(&rows(), 2));
        assert!(text.contains("slowest cases of toy / reference:\n   1.    4.00 ms  a.in case 1\n   2.    2.00 ms  b.in case 1\n"), "{text}");
    }

    #[test]
    fn plot_writes_an_svg_with_one_box_per_engine() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.svg");
        plot_svg(&rows(), &path).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("toy/reference") && svg.contains("toy/table"));
        assert!(plot_svg(&[], &path).is_err());
    }
}
