//! The report's charts as plain inline SVG: histograms (of a [`Sketch`]) and scatter plots,
//! each with both axes drawn, ticked and labelled, on the one SVG stack ([`crate::util::svg`]).
//! An axis is logarithmic when its values span more than [`LOG_RANGE`](crate::util::svg::LOG_RANGE) (times from 1 µs to
//! 1 s), linear otherwise (sizes from 3 to 12 cells: whole numbers where they are). No plotting
//! crate, so the page stays small and byte-for-byte deterministic.

use std::fmt::Write;

use super::digest::Sketch;
use crate::util::svg::{Axis, Chart, Layout, Paint, Scale, colour};
use crate::util::units::{human_time_f, sig3, thousands};

/// Bins of a histogram.
pub const BINS: usize = 24;
/// The charts' geometry: a 480 x 150 plot area, the left margin for the y labels, the bottom
/// one for the x labels and the axis name.
const LAYOUT: Layout = Layout {
    width: 480.0,
    height: 150.0,
    left: 62.0,
    right: 14.0,
    top: 24.0,
    bottom: 38.0,
    font: 10.0,
    caption: 10.0,
};
/// The class of a chart's `<svg>` (the page's style sheet sizes it).
const CLASS: &str = "chart";
/// A histogram's bars.
const BAR_COLOUR: &str = "#4363d8";
/// A scatter's points: radius and opacity (many overlap).
const POINT_RADIUS: f64 = 2.0;
const POINT_OPACITY: f64 = 0.6;

/// An axis's name followed by its scale: `time per case (log scale)`.
fn named(name: &str, axis: &Axis) -> String {
    format!("{name} ({})", axis.name())
}

/// A count for an axis: `1,200`.
fn count_label(n: f64) -> String {
    thousands(n.round() as u64)
}

/// A histogram of a sketch's values on an axis that suits their range; `format` labels the x
/// ticks, `x_name` names the axis. `None` for no value to draw.
pub fn histogram(
    title: &str,
    sketch: &Sketch,
    format: fn(f64) -> String,
    x_name: &str,
) -> Option<String> {
    let (lo, hi) = sketch.range()?;
    let x = Axis::new(lo, hi, false);
    let mut counts = [0u64; BINS];
    let bin = |v: f64| ((x.map(v) * BINS as f64) as usize).min(BINS - 1);
    for (v, n) in sketch.buckets() {
        counts[bin(v)] += n;
    }
    // Zeros have no place on a log axis: they are said in the title instead.
    let hidden = if x.log { sketch.zeros() } else { 0 };
    if !x.log {
        counts[bin(0.0)] += sketch.zeros();
    }
    let most = counts.iter().copied().max().unwrap_or(0).max(1) as f64;
    let y = Axis::new(0.0, most, true);
    let mut heading = format!("{title}: {} cases", thousands(sketch.count()));
    if hidden > 0 {
        let _ = write!(heading, " ({} of 0 not drawn)", thousands(hidden));
    }
    let (x_name, y_name) = (named(x_name, &x), named("cases", &y));
    let mut chart = Chart::new(
        LAYOUT,
        CLASS,
        &heading,
        &Scale::ticked(x, false, format, &x_name),
        &Scale::ticked(y, true, count_label, &y_name).with_grid(),
    );
    let bar = LAYOUT.width / BINS as f64;
    let base = chart.at(0.0, 0.0).1;
    for (i, &n) in counts.iter().enumerate().filter(|(_, n)| **n > 0) {
        let top = chart.at(0.0, n as f64).1;
        chart.svg().rect(
            (LAYOUT.left + i as f64 * bar + 0.5, top),
            (bar - 1.0, base - top),
            Paint::fill(BAR_COLOUR),
            Some(&thousands(n)),
        );
    }
    Some(chart.finish())
}

/// Time formatted for an axis.
pub fn time_label(ns: f64) -> String {
    human_time_f(ns)
}

/// A speed-up formatted for an axis: `x0.5`, `x2`, `x1,000`.
pub fn ratio_label(r: f64) -> String {
    format!("x{}", sig3(r))
}

/// A size formatted for an axis: whole numbers with thousands separators.
pub fn size_label(n: f64) -> String {
    if n >= 1.0 && n.fract() == 0.0 {
        thousands(n as u64)
    } else {
        sig3(n)
    }
}

/// One series of a scatter plot.
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

/// A scatter of series of (size, time), one colour each, with a legend; each axis linear or
/// logarithmic as its range asks. `None` when there is no point (a log axis drops points
/// at 0).
pub fn scatter(title: &str, x_name: &str, series: &[Series]) -> Option<String> {
    let all = || series.iter().flat_map(|s| &s.points);
    let fold = |f: fn(&(f64, f64)) -> f64| {
        all()
            .map(f)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(v), b.max(v))
            })
    };
    let (x0, x1) = fold(|p| p.0);
    let (y0, y1) = fold(|p| p.1);
    if !x0.is_finite() || !y0.is_finite() {
        return None;
    }
    let x = Axis::new(x0, x1, true);
    let y = Axis::new(y0, y1, false);
    let (x_label, y_label) = (named(x_name, &x), named("time", &y));
    let mut chart = Chart::new(
        LAYOUT,
        CLASS,
        title,
        &Scale::ticked(x, true, size_label, &x_label),
        &Scale::ticked(y, false, time_label, &y_label).with_grid(),
    );
    let drawn = |v: f64, axis: &Axis| !axis.log || v > 0.0;
    for (i, s) in series.iter().enumerate() {
        let paint = Paint::fill(colour(i)).opacity(POINT_OPACITY);
        for (px, py) in s
            .points
            .iter()
            .filter(|(px, py)| drawn(*px, &x) && drawn(*py, &y))
        {
            let at = chart.at(*px, *py);
            chart.svg().circle(at, POINT_RADIUS, paint);
        }
    }
    let legend: Vec<(&str, &str)> = series
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.as_str(), colour(i)))
        .collect();
    chart.legend(&legend);
    Some(chart.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_histogram_has_ticks_on_both_axes() {
        let mut sketch = Sketch::default();
        for v in [1e3, 2e3, 5e4, 1e6, 1e6, 3e7] {
            sketch.add(v);
        }
        let svg = histogram("t", &sketch, time_label, "time per case").unwrap();
        // x: powers of ten from 1 µs to 10 ms; y: counts 0 to 2.
        for tick in [">1.00 µs<", ">10.0 µs<", ">10.0 ms<", ">0<", ">2<"] {
            assert!(svg.contains(tick), "no tick {tick} in {svg}");
        }
        assert!(svg.contains("time per case (log scale)") && svg.contains("cases (linear)"));
    }
}
