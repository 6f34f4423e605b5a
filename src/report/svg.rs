//! The report's charts as plain inline SVG: a histogram on a log axis and a log-log scatter.
//! Hand-written (no plotting crate) so the page stays small and byte-for-byte deterministic.

use std::fmt::Write;

use crate::game::draw::{colour, escape};
use crate::util::units::human_time_f;

/// Bins of a histogram.
pub const BINS: usize = 24;
const WIDTH: f64 = 520.0;
const HEIGHT: f64 = 160.0;
const MARGIN: f64 = 30.0;

fn open(out: &mut String, title: &str) {
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\"><title>{t}</title><rect width=\"{w}\" height=\"{h}\" fill=\"#fff\" stroke=\"#ccc\"/>",
        w = WIDTH + 2.0 * MARGIN,
        h = HEIGHT + 2.0 * MARGIN,
        t = escape(title)
    );
}

fn label(out: &mut String, x: f64, y: f64, anchor: &str, text: &str) {
    let _ = write!(
        out,
        "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"10\" text-anchor=\"{anchor}\">{}</text>",
        escape(text)
    );
}

/// A histogram of positive values on a log10 axis; `format` labels the axis ends. `None` for
/// no positive value.
pub fn log_histogram(title: &str, values: &[f64], format: fn(f64) -> String) -> Option<String> {
    let logs: Vec<f64> = values
        .iter()
        .filter(|v| **v > 0.0)
        .map(|v| v.log10())
        .collect();
    let lo = logs.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if logs.is_empty() {
        return None;
    }
    let span = (hi - lo).max(1e-9);
    let mut counts = [0usize; BINS];
    for l in &logs {
        let bin = (((l - lo) / span) * BINS as f64) as usize;
        counts[bin.min(BINS - 1)] += 1;
    }
    let most = *counts.iter().max().unwrap_or(&1) as f64;
    let mut out = String::new();
    open(&mut out, title);
    let bar = WIDTH / BINS as f64;
    for (i, &n) in counts.iter().enumerate() {
        let h = HEIGHT * n as f64 / most;
        let _ = write!(
            out,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{h:.1}\" fill=\"#4363d8\"><title>{n}</title></rect>",
            MARGIN + i as f64 * bar,
            MARGIN + HEIGHT - h,
            bar - 1.0
        );
    }
    let base = MARGIN + HEIGHT + 14.0;
    label(&mut out, MARGIN, base, "start", &format(10f64.powf(lo)));
    label(
        &mut out,
        MARGIN + WIDTH,
        base,
        "end",
        &format(10f64.powf(hi)),
    );
    label(
        &mut out,
        MARGIN + WIDTH / 2.0,
        base,
        "middle",
        "(log scale)",
    );
    label(
        &mut out,
        MARGIN,
        MARGIN - 8.0,
        "start",
        &format!("{title} — {} cases, tallest bar {most}", logs.len()),
    );
    out.push_str("</svg>");
    Some(out)
}

/// Time formatted for an axis.
pub fn time_label(ns: f64) -> String {
    human_time_f(ns)
}

/// A speed-up formatted for an axis.
pub fn ratio_label(r: f64) -> String {
    format!("x{r:.3}")
}

/// One series of a scatter plot.
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

/// A log-log scatter of series (x, y > 0), one colour each, with a legend. `None` when no
/// point is positive.
pub fn log_log_scatter(title: &str, x_name: &str, series: &[Series]) -> Option<String> {
    let all = series
        .iter()
        .flat_map(|s| &s.points)
        .filter(|(x, y)| *x > 0.0 && *y > 0.0);
    let (mut x0, mut x1, mut y0, mut y1) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for (x, y) in all {
        x0 = x0.min(x.log10());
        x1 = x1.max(x.log10());
        y0 = y0.min(y.log10());
        y1 = y1.max(y.log10());
    }
    if !x0.is_finite() {
        return None;
    }
    let (xs, ys) = ((x1 - x0).max(1e-9), (y1 - y0).max(1e-9));
    let mut out = String::new();
    open(&mut out, title);
    for (i, s) in series.iter().enumerate() {
        let fill = colour(i);
        for (x, y) in s.points.iter().filter(|(x, y)| *x > 0.0 && *y > 0.0) {
            let _ = write!(
                out,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2\" fill=\"{fill}\" fill-opacity=\"0.6\"/>",
                MARGIN + WIDTH * (x.log10() - x0) / xs,
                MARGIN + HEIGHT * (1.0 - (y.log10() - y0) / ys)
            );
        }
        label(
            &mut out,
            MARGIN + WIDTH - 4.0,
            MARGIN + 12.0 * (i as f64 + 1.0),
            "end",
            &s.name,
        );
        let _ = write!(
            out,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"{fill}\"/>",
            MARGIN + WIDTH,
            MARGIN + 12.0 * (i as f64 + 1.0) - 3.0
        );
    }
    let base = MARGIN + HEIGHT + 14.0;
    label(
        &mut out,
        MARGIN,
        base,
        "start",
        &format!("{:.0}", 10f64.powf(x0)),
    );
    label(
        &mut out,
        MARGIN + WIDTH,
        base,
        "end",
        &format!("{:.0}", 10f64.powf(x1)),
    );
    label(
        &mut out,
        MARGIN + WIDTH / 2.0,
        base,
        "middle",
        &format!("{x_name} (log)"),
    );
    label(
        &mut out,
        2.0,
        MARGIN + HEIGHT,
        "start",
        &time_label(10f64.powf(y0)),
    );
    label(
        &mut out,
        2.0,
        MARGIN - 4.0,
        "start",
        &time_label(10f64.powf(y1)),
    );
    out.push_str("</svg>");
    Some(out)
}
