//! The report's charts as plain inline SVG: histograms (of a [`Sketch`]) and scatter plots,
//! each with both axes drawn, ticked and labelled. An axis is logarithmic when its values span
//! more than [`LOG_RANGE`] (times from 1 µs to 1 s), linear otherwise (sizes from 3 to 12
//! cells: whole numbers where they are). Hand-written (no plotting crate) so the page stays
//! small and byte-for-byte deterministic.

use std::fmt::Write;

use super::digest::Sketch;
use crate::game::draw::colour;
use crate::util::markup::escape;
use crate::util::units::{human_time_f, sig3, thousands};

/// Bins of a histogram.
pub const BINS: usize = 24;
/// An axis whose largest value is more than this many times its smallest is logarithmic.
pub const LOG_RANGE: f64 = 20.0;
/// Ticks aimed at on a linear axis.
const TICKS: f64 = 5.0;
/// The plot area, and the margins around it (the left one holds the y labels, the bottom one
/// the x labels and the axis name).
const WIDTH: f64 = 480.0;
const HEIGHT: f64 = 150.0;
const LEFT: f64 = 62.0;
const RIGHT: f64 = 14.0;
const TOP: f64 = 24.0;
const BOTTOM: f64 = 38.0;
/// Length of a tick mark.
const TICK: f64 = 4.0;

/// How an axis maps values to [0, 1], and where its ticks are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Axis {
    pub log: bool,
    lo: f64,
    hi: f64,
}

/// A step of 1, 2 or 5 times a power of ten near `raw`.
fn nice_step(raw: f64) -> f64 {
    let power = 10f64.powf(raw.log10().floor());
    let fraction = raw / power;
    let m = if fraction <= 1.0 {
        1.0
    } else if fraction <= 2.0 {
        2.0
    } else if fraction <= 5.0 {
        5.0
    } else {
        10.0
    };
    m * power
}

impl Axis {
    /// The axis for values in `[lo, hi]`; `whole`: the values are whole numbers (no tick
    /// between two of them on a linear axis).
    pub fn new(lo: f64, hi: f64, whole: bool) -> Axis {
        let (mut lo, mut hi) = (lo, hi);
        if hi <= lo {
            // One value: an axis around it.
            if lo > 0.0 {
                (lo, hi) = (lo / 2.0, hi * 2.0);
            } else {
                (lo, hi) = (lo - 1.0, hi + 1.0);
            }
        }
        let log = lo > 0.0 && hi / lo > LOG_RANGE;
        if !log && whole {
            (lo, hi) = (lo.floor(), hi.ceil());
        }
        Axis { log, lo, hi }
    }

    fn map(&self, v: f64) -> f64 {
        let f = if self.log {
            (v.max(self.lo).ln() - self.lo.ln()) / (self.hi.ln() - self.lo.ln())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        };
        f.clamp(0.0, 1.0)
    }

    /// Values at the ticks: powers of ten on a log axis (with 2 and 5 times them when it spans
    /// less than two decades), multiples of a 1-2-5 step on a linear one.
    pub fn ticks(&self, whole: bool) -> Vec<f64> {
        let within = |v: f64| v >= self.lo * (1.0 - 1e-9) && v <= self.hi * (1.0 + 1e-9);
        if self.log {
            let (a, b) = (
                self.lo.log10().floor() as i32,
                self.hi.log10().ceil() as i32,
            );
            let decades: Vec<f64> = (a..=b).map(|k| 10f64.powi(k)).collect();
            let mut ticks: Vec<f64> = decades.iter().copied().filter(|v| within(*v)).collect();
            if ticks.len() < 3 {
                ticks = decades
                    .iter()
                    .flat_map(|d| [*d, 2.0 * d, 5.0 * d])
                    .filter(|v| within(*v))
                    .collect();
            }
            return ticks;
        }
        let mut step = nice_step((self.hi - self.lo) / TICKS);
        if whole {
            step = step.max(1.0);
        }
        let first = (self.lo / step).ceil() * step;
        (0..)
            .map(|k| first + f64::from(k) * step)
            .take_while(|v| *v <= self.hi + step * 1e-9)
            .collect()
    }

    pub fn name(&self) -> &'static str {
        if self.log { "log scale" } else { "linear" }
    }
}

fn open(out: &mut String, title: &str) {
    let (w, h) = (LEFT + WIDTH + RIGHT, TOP + HEIGHT + BOTTOM);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\"><title>{t}</title><rect width=\"{w}\" height=\"{h}\" fill=\"#fff\" stroke=\"#ccc\"/>",
        t = escape(title)
    );
    label(out, LEFT, TOP - 9.0, "start", title);
}

fn label(out: &mut String, x: f64, y: f64, anchor: &str, text: &str) {
    let _ = write!(
        out,
        "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"10\" text-anchor=\"{anchor}\">{}</text>",
        escape(text)
    );
}

/// Both axes: lines, ticks with their labels, and the axes' names.
fn axes(
    out: &mut String,
    (x, x_ticks, x_format, x_name): (&Axis, &[f64], &dyn Fn(f64) -> String, &str),
    (y, y_ticks, y_format, y_name): (&Axis, &[f64], &dyn Fn(f64) -> String, &str),
) {
    let (bottom, right) = (TOP + HEIGHT, LEFT + WIDTH);
    let _ = write!(
        out,
        "<path d=\"M{LEFT} {TOP}V{bottom}H{right}\" fill=\"none\" stroke=\"#555\"/>"
    );
    for &v in x_ticks {
        let px = LEFT + WIDTH * x.map(v);
        let _ = write!(
            out,
            "<path d=\"M{px:.1} {bottom}v{TICK}\" stroke=\"#555\"/>"
        );
        label(out, px, bottom + TICK + 10.0, "middle", &x_format(v));
    }
    for &v in y_ticks {
        let py = TOP + HEIGHT * (1.0 - y.map(v));
        let _ = write!(
            out,
            "<path d=\"M{LEFT} {py:.1}h-{TICK}\" stroke=\"#555\"/><path d=\"M{LEFT} {py:.1}H{right}\" stroke=\"#eee\"/>"
        );
        label(out, LEFT - TICK - 2.0, py + 3.0, "end", &y_format(v));
    }
    label(
        out,
        LEFT + WIDTH / 2.0,
        bottom + BOTTOM - 6.0,
        "middle",
        &format!("{x_name} ({})", x.name()),
    );
    let _ = write!(
        out,
        "<text x=\"12\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"middle\" transform=\"rotate(-90 12 {:.1})\">{}</text>",
        TOP + HEIGHT / 2.0,
        TOP + HEIGHT / 2.0,
        escape(&format!("{y_name} ({})", y.name()))
    );
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
    let mut out = String::new();
    let mut heading = format!("{title}: {} cases", thousands(sketch.count()));
    if hidden > 0 {
        let _ = write!(heading, " ({} of 0 not drawn)", thousands(hidden));
    }
    open(&mut out, &heading);
    let x_ticks = x.ticks(false);
    let y_ticks = y.ticks(true);
    axes(
        &mut out,
        (&x, &x_ticks, &format, x_name),
        (&y, &y_ticks, &count_label, "cases"),
    );
    let bar = WIDTH / BINS as f64;
    for (i, &n) in counts.iter().enumerate().filter(|(_, n)| **n > 0) {
        let h = HEIGHT * y.map(n as f64);
        let _ = write!(
            out,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{h:.1}\" fill=\"#4363d8\"><title>{}</title></rect>",
            LEFT + i as f64 * bar + 0.5,
            TOP + HEIGHT - h,
            bar - 1.0,
            thousands(n)
        );
    }
    out.push_str("</svg>");
    Some(out)
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
    let mut out = String::new();
    open(&mut out, title);
    let (x_ticks, y_ticks) = (x.ticks(true), y.ticks(false));
    axes(
        &mut out,
        (&x, &x_ticks, &size_label, x_name),
        (&y, &y_ticks, &time_label, "time"),
    );
    let drawn = |v: f64, axis: &Axis| !axis.log || v > 0.0;
    for (i, s) in series.iter().enumerate() {
        let fill = colour(i);
        for (px, py) in s
            .points
            .iter()
            .filter(|(px, py)| drawn(*px, &x) && drawn(*py, &y))
        {
            let _ = write!(
                out,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2\" fill=\"{fill}\" fill-opacity=\"0.6\"/>",
                LEFT + WIDTH * x.map(*px),
                TOP + HEIGHT * (1.0 - y.map(*py))
            );
        }
        let row = TOP + 12.0 * (i as f64 + 1.0);
        label(&mut out, LEFT + WIDTH - 10.0, row, "end", &s.name);
        let _ = write!(
            out,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"{fill}\"/>",
            LEFT + WIDTH - 4.0,
            row - 3.0
        );
    }
    out.push_str("</svg>");
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_ranges_of_whole_numbers_get_a_linear_axis_with_whole_ticks() {
        let axis = Axis::new(3.0, 12.0, true);
        assert!(!axis.log);
        assert_eq!(axis.ticks(true), vec![4.0, 6.0, 8.0, 10.0, 12.0]);
        // 1 to 5: a tick per whole number, none at 0.5.
        assert_eq!(
            Axis::new(1.0, 5.0, true).ticks(true),
            vec![1.0, 2.0, 3.0, 4.0, 5.0]
        );
    }

    #[test]
    fn wide_ranges_get_a_log_axis_ticked_at_powers_of_ten() {
        let axis = Axis::new(1_000.0, 2e9, false);
        assert!(axis.log);
        assert_eq!(axis.ticks(false), vec![1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]);
        // Less than two decades: 2 and 5 times the powers of ten too.
        let axis = Axis::new(30.0, 1_000.0, false);
        assert!(axis.log);
        assert_eq!(axis.ticks(false), vec![50.0, 100.0, 200.0, 500.0, 1_000.0]);
        assert_eq!(axis.map(30.0), 0.0);
        assert_eq!(axis.map(1_000.0), 1.0);
    }

    #[test]
    fn a_single_value_gets_an_axis_around_it() {
        let axis = Axis::new(7.0, 7.0, true);
        assert!(axis.map(7.0) > 0.0 && axis.map(7.0) < 1.0);
        assert!(!axis.ticks(true).is_empty());
    }

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
