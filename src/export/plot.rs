//! The SVG plot: per-engine box plots of the case times on a log scale.

use plotters::prelude::*;

use super::{ExportError, Exporter, Report};
use crate::results::{Record, human_time};

/// Box plots of each engine's case times (SVG).
pub struct BoxPlot;

impl Exporter for BoxPlot {
    fn render(&self, report: &Report<'_>) -> Result<Vec<u8>, ExportError> {
        plot_svg(report.records)
            .map(String::into_bytes)
            .map_err(ExportError::Render)
    }
}

/// Quartiles of a sorted, non-empty list (nearest-rank).
fn quartiles(sorted: &[u64]) -> [f64; 5] {
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize] as f64;
    [at(0.0), at(0.25), at(0.5), at(0.75), at(1.0)]
}

/// Draws one box per (game, engine) of its per-case times (median of runs) on a log scale:
/// whiskers at min and max, box from the first to the third quartile, a bar at the median.
fn plot_svg(records: &[Record]) -> Result<String, String> {
    let mut series: Vec<(String, Vec<u64>)> = Vec::new();
    for record in records {
        let name = format!("{}/{}", record.game, record.engine);
        let i = match series.iter().position(|(n, _)| *n == name) {
            Some(i) => i,
            None => {
                series.push((name, Vec::new()));
                series.len() - 1
            }
        };
        series[i].1.extend(record.time_ns.map(|t| t.max(1)));
    }
    series.retain(|(_, times)| !times.is_empty());
    for (_, times) in &mut series {
        times.sort_unstable();
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
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, height)).into_drawing_area();
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
    }
    Ok(svg)
}
