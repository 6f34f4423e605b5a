//! The SVG plots: per-engine box plots of the time per case on a log scale (`--plot`), time
//! per case against the case's size on log-log axes (`--plot-scaling`), and the lines of a
//! sweep ([`log_log_lines`]). Times per case are the summary's: an external program's file time
//! shared by its cases, and labelled so.

use std::path::Path;

use plotters::prelude::*;

use super::{ExportError, Exporter, Report};
use crate::results::{Record, Timing, human_time, per_case_times};
use crate::util::stats;

/// Labels on a scaling plot's x axis (at most).
const X_LABELS: usize = 6;

/// Box plots of each engine's case times (SVG).
pub struct BoxPlot;

impl Exporter for BoxPlot {
    fn render(&self, report: &Report<'_>) -> Result<Vec<u8>, ExportError> {
        plot_svg(report.records)
            .map(String::into_bytes)
            .map_err(ExportError::Render)
    }
}

/// Time per case against the case's size (`cells`), one colour per engine, log-log (SVG).
pub struct ScalingPlot;

impl Exporter for ScalingPlot {
    fn render(&self, report: &Report<'_>) -> Result<Vec<u8>, ExportError> {
        let series: Vec<Series> = per_case_times(report.records)
            .into_iter()
            .map(|(game, engine, timing, points)| Series {
                name: label(&game, &engine, timing),
                points: points
                    .into_iter()
                    .filter_map(|(cells, t)| Some((cells? as f64, t.max(1) as f64)))
                    .collect(),
            })
            .filter(|s| !s.points.is_empty())
            .collect();
        log_log(
            "time per case against size (log-log)",
            "size (cells, turns or selections)",
            &series,
            false,
        )
        .map(String::into_bytes)
        .map_err(ExportError::Render)
    }
}

/// Refuses a plot file name that does not end in `.svg` (the only format drawn).
pub fn require_svg(path: &Path) -> Result<(), String> {
    match path.extension().and_then(|e| e.to_str()) {
        Some(ext) if ext.eq_ignore_ascii_case("svg") => Ok(()),
        _ => Err(format!(
            "{}: plots are drawn as SVG only: name the file *.svg",
            path.display()
        )),
    }
}

/// An engine's name on a plot; an external program's says its times are file time / cases.
fn label(game: &str, engine: &str, timing: Timing) -> String {
    match timing {
        Timing::File => format!("{game}/{engine} (file time / cases)"),
        _ => format!("{game}/{engine}"),
    }
}

/// One named set of (x, y) points.
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

/// Points (or, with `lines`, lines through them in x order) on log-log axes, y a time in ns,
/// one colour per series with a legend.
pub fn log_log_lines(title: &str, x_desc: &str, series: &[Series]) -> Result<String, String> {
    log_log(title, x_desc, series, true)
}

fn log_log(title: &str, x_desc: &str, series: &[Series], lines: bool) -> Result<String, String> {
    let all = || series.iter().flat_map(|s| s.points.iter());
    if all().next().is_none() {
        return Err("nothing to plot (no timed case with a size)".to_string());
    }
    let fold = |f: fn(f64, f64) -> f64, init: f64, pick: fn(&(f64, f64)) -> f64| {
        all().map(pick).fold(init, f)
    };
    let (x_lo, x_hi) = (
        fold(f64::min, f64::INFINITY, |p| p.0),
        fold(f64::max, 0.0, |p| p.0),
    );
    let (y_lo, y_hi) = (
        fold(f64::min, f64::INFINITY, |p| p.1),
        fold(f64::max, 0.0, |p| p.1),
    );
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 600)).into_drawing_area();
        let err = |e: &dyn std::fmt::Display| e.to_string();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(80)
            .build_cartesian_2d(
                (x_lo / 1.2..x_hi * 1.2).log_scale(),
                (y_lo / 2.0..y_hi * 2.0).log_scale(),
            )
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            // Few, short labels: a log axis's default ones run into each other ("900.01000.0").
            .x_labels(X_LABELS)
            .x_label_formatter(&|x| crate::util::units::sig3(*x))
            .y_desc("time per case")
            .y_label_formatter(&|y| human_time(*y as u64))
            .draw()
            .map_err(|e| err(&e))?;
        for (i, s) in series.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            let mut points = s.points.clone();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            let anchor = if lines {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        points.clone(),
                        ShapeStyle::from(&color).stroke_width(2),
                    )))
                    .map_err(|e| err(&e))?;
                chart
                    .draw_series(points.iter().map(|&p| Circle::new(p, 4, color.filled())))
                    .map_err(|e| err(&e))?
            } else {
                chart
                    .draw_series(
                        points
                            .iter()
                            .map(|&p| Circle::new(p, 3, color.mix(0.6).filled())),
                    )
                    .map_err(|e| err(&e))?
            };
            anchor
                .label(s.name.clone())
                .legend(move |(x, y)| Circle::new((x + 10, y), 4, color.filled()));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(|e| err(&e))?;
        root.present().map_err(|e| err(&e))?;
    }
    Ok(svg)
}

/// Min, quartiles and max of a sorted, non-empty list: [`stats::quantile_sorted`], so the bar at
/// the median is the summary's median (the mean of the two middle values for an even count).
fn quartiles(sorted: &[u64]) -> [f64; 5] {
    let values: Vec<f64> = sorted.iter().map(|&t| t as f64).collect();
    [0.0, 0.25, 0.5, 0.75, 1.0]
        .map(|q| stats::quantile_sorted(&values, q).expect("a non-empty list"))
}

/// Draws one box per (game, engine) of its per-case times (median of runs; an external
/// program's file time / its cases) on a log scale: whiskers at min and max, box from the
/// first to the third quartile, a bar at the median.
fn plot_svg(records: &[Record]) -> Result<String, String> {
    let mut series: Vec<(String, Vec<u64>)> = per_case_times(records)
        .into_iter()
        .map(|(game, engine, timing, points)| {
            (
                label(&game, &engine, timing),
                points.into_iter().map(|(_, t)| t.max(1)).collect(),
            )
        })
        .collect();
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
            .y_label_area_size(280)
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
                if (y - i as f64 - 0.5).abs() < 1e-6 && i < names.len() {
                    // The first series on top, as in the table.
                    names[names.len() - 1 - i].clone()
                } else {
                    String::new()
                }
            })
            .draw()
            .map_err(|e| err(&e))?;
        for (i, (_, times)) in series.iter().enumerate() {
            let [min, q1, med, q3, max] = quartiles(times);
            // The first series on top, as in the table (the y axis grows upwards).
            let y = (series.len() - 1 - i) as f64 + 0.5;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_plot_quartiles_are_the_summarys_quantiles() {
        // 1, 2, 3, 4: positions 3q, interpolated: q1 at 0.75 -> 1.75, the median at 1.5 -> 2.5
        // (the mean of 2 and 3, as the table's median), q3 at 2.25 -> 3.25.
        assert_eq!(quartiles(&[1, 2, 3, 4]), [1.0, 1.75, 2.5, 3.25, 4.0]);
        // An odd count: order statistics, no interpolation.
        assert_eq!(
            quartiles(&[10, 20, 30, 40, 50]),
            [10.0, 20.0, 30.0, 40.0, 50.0]
        );
        assert_eq!(quartiles(&[7]), [7.0; 5]);
    }
}
