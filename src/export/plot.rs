//! The SVG plots: per-engine box plots of the time per case on a log scale (`--plot`), time
//! per case against the case's size on log-log axes (`--plot-scaling`), and the lines of a
//! sweep ([`log_log_lines`]), drawn on the one SVG stack ([`crate::util::svg`]): titled, both
//! axes ticked and named, one colour per engine with a legend. Times per case are the
//! summary's: an external program's file time shared by its cases, and labelled so.

use std::path::Path;

use super::{ExportError, Exporter, Report};
use crate::results::{Record, Timing, human_time, per_case_times};
use crate::util::svg::{self, Axis, Chart, Layout, Paint, Scale};
use crate::util::{stats, units};

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

/// The plots' geometry: a 900-unit-wide document, the left margin for the y labels (a box
/// plot's is wider: [`BOX_LEFT`]).
const LAYOUT: Layout = Layout {
    width: 785.0,
    height: 495.0,
    left: 90.0,
    right: 25.0,
    top: 50.0,
    bottom: 55.0,
    font: 12.0,
    caption: 20.0,
};
/// A box plot's left margin: the engines' names are its y labels.
const BOX_LEFT: f64 = 290.0;
/// A box plot's height per engine, and its height besides them.
const BOX_ROW: f64 = 50.0;
const BOX_FRAME: f64 = 120.0;
/// The class of a plot's `<svg>`.
const CLASS: &str = "plot";
/// Points: radius on a line and alone; a lone point's opacity (many overlap).
const LINE_POINT: f64 = 4.0;
const LONE_POINT: f64 = 3.0;
const POINT_OPACITY: f64 = 0.6;
/// Lines' width; a box's fill opacity; the median's bar.
const STROKE: f64 = 2.0;
const BOX_OPACITY: f64 = 0.3;
const MEDIAN_STROKE: f64 = 3.0;
/// A box's half height and a whisker cap's, as shares of an engine's row.
const BOX_HALF: f64 = 0.3;
const CAP_HALF: f64 = 0.15;
/// The axes' margins beyond the points: x by this factor, y by [`Y_MARGIN`] (a log axis).
const X_MARGIN: f64 = 1.2;
const Y_MARGIN: f64 = 2.0;

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
    let x = Axis::logarithmic(x_lo / X_MARGIN, x_hi * X_MARGIN);
    let y = Axis::logarithmic(y_lo / Y_MARGIN, y_hi * Y_MARGIN);
    let x_name = format!("{x_desc} ({})", x.name());
    let y_name = format!("time per case ({})", y.name());
    let mut chart = Chart::new(
        LAYOUT,
        CLASS,
        title,
        &Scale::ticked(x, false, units::sig3, &x_name).with_grid(),
        &Scale::ticked(y, false, |t| human_time(t as u64), &y_name).with_grid(),
    );
    for (i, s) in series.iter().enumerate() {
        let colour = svg::colour(i);
        let mut points: Vec<(f64, f64)> = s.points.iter().map(|&(a, b)| chart.at(a, b)).collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        if lines {
            chart
                .svg()
                .polyline(&points, Paint::stroke(colour, Some(STROKE)));
        }
        let (r, paint) = if lines {
            (LINE_POINT, Paint::fill(colour))
        } else {
            (LONE_POINT, Paint::fill(colour).opacity(POINT_OPACITY))
        };
        for p in points {
            chart.svg().circle(p, r, paint);
        }
    }
    let legend: Vec<(&str, &str)> = series
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.as_str(), svg::colour(i)))
        .collect();
    chart.legend(&legend);
    Ok(chart.finish())
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
    let n = series.len();
    let layout = Layout {
        left: BOX_LEFT,
        width: LAYOUT.width + LAYOUT.left - BOX_LEFT,
        height: BOX_FRAME + BOX_ROW * n as f64 - LAYOUT.top - LAYOUT.bottom,
        ..LAYOUT
    };
    let x = Axis::logarithmic(lo / Y_MARGIN, hi * Y_MARGIN);
    let x_name = format!("time per case ({})", x.name());
    // One row per engine, the first on top as in the table (the y axis grows upwards).
    let row = |i: usize| (n - 1 - i) as f64 + 0.5;
    let y = Scale {
        axis: Axis::linear(0.0, n as f64),
        ticks: series
            .iter()
            .enumerate()
            .map(|(i, (name, _))| (row(i), name.clone()))
            .collect(),
        name: "",
        grid: false,
    };
    let mut chart = Chart::new(
        layout,
        CLASS,
        "time per case (log scale)",
        &Scale::ticked(x, false, |t| human_time(t as u64), &x_name).with_grid(),
        &y,
    );
    let unit = chart.y_unit();
    for (i, (_, times)) in series.iter().enumerate() {
        let [min, q1, med, q3, max] = quartiles(times);
        let colour = svg::colour(i);
        let line = Paint::stroke(colour, Some(STROKE));
        let (cx, cy) = chart.at(min, row(i));
        let x_of = |chart: &Chart, v: f64| chart.at(v, row(i)).0;
        let (x_min, x_q1, x_med, x_q3, x_max) = (
            cx,
            x_of(&chart, q1),
            x_of(&chart, med),
            x_of(&chart, q3),
            x_of(&chart, max),
        );
        let (half, cap) = (BOX_HALF * unit, CAP_HALF * unit);
        let svg = chart.svg();
        svg.line((x_min, cy), (x_max, cy), line);
        svg.rect(
            (x_q1, cy - half),
            (x_q3 - x_q1, 2.0 * half),
            Paint::fill(colour)
                .opacity(BOX_OPACITY)
                .outline(colour, Some(STROKE)),
            Some(&format!(
                "{}: min {}, q1 {}, median {}, q3 {}, max {}",
                series[i].0,
                human_time(min as u64),
                human_time(q1 as u64),
                human_time(med as u64),
                human_time(q3 as u64),
                human_time(max as u64)
            )),
        );
        for x in [x_min, x_max] {
            svg.line((x, cy - cap), (x, cy + cap), line);
        }
        svg.line(
            (x_med, cy - half),
            (x_med, cy + half),
            Paint::stroke("#000", Some(MEDIAN_STROKE)),
        );
    }
    Ok(chart.finish())
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
