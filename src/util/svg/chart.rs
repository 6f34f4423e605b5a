//! The charts drawn on an [`Svg`]: axes that map values to the plot area, linear or
//! logarithmic ([`Axis`]), and a plot area with two ticked, named axes, a caption and a legend
//! ([`Chart`]). Split from the document builder it draws with ([`super`]).

use super::*;

/// An axis whose largest value is more than this many times its smallest is logarithmic
/// ([`Axis::new`]).
pub const LOG_RANGE: f64 = 20.0;
/// Ticks aimed at on a linear axis.
const TICKS: f64 = 5.0;
/// Slack when a tick is tested against an axis's ends (a power of ten computed as 999.999...).
const EPSILON: f64 = 1e-9;
/// A log axis with fewer ticks than this at powers of ten also gets 2 and 5 times them.
const FEW_DECADES: usize = 3;

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

/// `[lo, hi]` made a range an axis can draw: one value (or a reversed pair) widened around it.
fn widened(lo: f64, hi: f64) -> (f64, f64) {
    if hi > lo {
        (lo, hi)
    } else if lo > 0.0 {
        (lo / 2.0, lo * 2.0)
    } else {
        (lo - 1.0, lo + 1.0)
    }
}

impl Axis {
    /// The axis for values in `[lo, hi]`, logarithmic when they span more than [`LOG_RANGE`];
    /// `whole`: the values are whole numbers (a linear axis ends on whole numbers).
    pub fn new(lo: f64, hi: f64, whole: bool) -> Axis {
        let (mut lo, mut hi) = widened(lo, hi);
        let log = lo > 0.0 && hi / lo > LOG_RANGE;
        if !log && whole {
            (lo, hi) = (lo.floor(), hi.ceil());
        }
        Axis { log, lo, hi }
    }

    /// A logarithmic axis for positive values in `[lo, hi]` (a linear one if `lo` is not
    /// positive: a log axis cannot hold it).
    pub fn logarithmic(lo: f64, hi: f64) -> Axis {
        let (lo, hi) = widened(lo, hi);
        Axis {
            log: lo > 0.0,
            lo,
            hi,
        }
    }

    /// A linear axis for values in `[lo, hi]`.
    pub fn linear(lo: f64, hi: f64) -> Axis {
        let (lo, hi) = widened(lo, hi);
        Axis { log: false, lo, hi }
    }

    /// Where `v` falls, from 0 (the low end) to 1 (clamped).
    pub fn map(&self, v: f64) -> f64 {
        let f = if self.log {
            (v.max(self.lo).ln() - self.lo.ln()) / (self.hi.ln() - self.lo.ln())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        };
        if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) }
    }

    /// Values at the ticks: powers of ten on a log axis (with 2 and 5 times them when it spans
    /// less than two decades, and a linear axis's ticks when even those are fewer than two),
    /// multiples of a 1-2-5 step on a linear one (`whole`: of at least 1).
    pub fn ticks(&self, whole: bool) -> Vec<f64> {
        let within = |v: f64| v >= self.lo * (1.0 - EPSILON) && v <= self.hi * (1.0 + EPSILON);
        if self.log {
            let (a, b) = (
                self.lo.log10().floor() as i32,
                self.hi.log10().ceil() as i32,
            );
            let decades: Vec<f64> = (a..=b).map(|k| 10f64.powi(k)).collect();
            let mut ticks: Vec<f64> = decades.iter().copied().filter(|v| within(*v)).collect();
            if ticks.len() < FEW_DECADES {
                ticks = decades
                    .iter()
                    .flat_map(|d| [*d, 2.0 * d, 5.0 * d])
                    .filter(|v| within(*v))
                    .collect();
            }
            if ticks.len() >= 2 {
                return ticks;
            }
        }
        let mut step = nice_step((self.hi - self.lo) / TICKS);
        if whole {
            step = step.max(1.0);
        }
        let first = (self.lo / step).ceil() * step;
        (0..)
            .map(|k| first + f64::from(k) * step)
            .take_while(|v| *v <= self.hi + step * EPSILON)
            .collect()
    }

    /// What an axis's name says of its scale.
    pub fn name(&self) -> &'static str {
        if self.log { "log scale" } else { "linear" }
    }
}

/// Length of a tick mark.
const TICK: f64 = 4.0;
/// An axis line's colour, and a grid line's.
const AXIS_COLOUR: &str = "#555";
const GRID_COLOUR: &str = "#eee";
/// A text's baseline below the middle of what it labels, as a share of its size.
const BASELINE: f64 = 0.3;
/// A character's width as a share of the font's size (to size a legend's box).
const CHAR_WIDTH: f64 = 0.6;
/// A legend's box: its background's opacity and its padding.
const LEGEND_OPACITY: f64 = 0.8;
const LEGEND_PAD: f64 = 6.0;
/// The distance of the x axis's name and of the vertical axis's name from the document's edge.
const NAME_INSET: f64 = 6.0;

/// A chart's geometry: the plot area (`width` x `height`) and the margins around it (the left
/// one holds the y labels, the bottom one the x labels and the axis name, the top one the
/// caption), with the sizes of its texts.
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    pub width: f64,
    pub height: f64,
    pub left: f64,
    pub right: f64,
    pub top: f64,
    pub bottom: f64,
    /// Tick labels, axis names and the legend.
    pub font: f64,
    /// The caption.
    pub caption: f64,
}

/// One axis as drawn: its scale, its ticks (value and label), its name (empty: none) and
/// whether grid lines cross the plot at its ticks.
pub struct Scale<'a> {
    pub axis: Axis,
    pub ticks: Vec<(f64, String)>,
    pub name: &'a str,
    pub grid: bool,
}

impl<'a> Scale<'a> {
    /// `axis` ticked where [`Axis::ticks`] says (`whole`: on whole numbers), each tick labelled
    /// by `label`, the axis named `name`.
    pub fn ticked(axis: Axis, whole: bool, label: impl Fn(f64) -> String, name: &'a str) -> Self {
        Scale {
            ticks: axis
                .ticks(whole)
                .into_iter()
                .map(|v| (v, label(v)))
                .collect(),
            axis,
            name,
            grid: false,
        }
    }

    /// This scale with grid lines at its ticks.
    pub fn with_grid(self) -> Self {
        Scale { grid: true, ..self }
    }
}

/// A chart being drawn: a document with a caption, a plot area and its two axes; points are
/// placed by their values ([`Chart::at`]).
pub struct Chart {
    svg: Svg,
    layout: Layout,
    x: Axis,
    y: Axis,
}

impl Chart {
    /// A chart of class `class` captioned `caption` (also the document's title), with both axes
    /// drawn: lines, ticks, labels, grid lines where asked, names.
    pub fn new(layout: Layout, class: &str, caption: &str, x: &Scale<'_>, y: &Scale<'_>) -> Chart {
        let l = layout;
        let (w, h) = (l.left + l.width + l.right, l.top + l.height + l.bottom);
        let mut svg = Svg::new(w, h, class, Paint::fill("#fff").outline("#ccc", None));
        svg.title(caption);
        svg.text(
            (l.left, l.top - l.caption * (1.0 - BASELINE / 3.0)),
            Font::new(l.caption, Anchor::Start),
            caption,
        );
        let mut chart = Chart {
            svg,
            layout,
            x: x.axis,
            y: y.axis,
        };
        chart.axes(x, y);
        chart
    }

    fn axes(&mut self, x: &Scale<'_>, y: &Scale<'_>) {
        let l = self.layout;
        let (bottom, right) = (l.top + l.height, l.left + l.width);
        let axis = Paint::stroke(AXIS_COLOUR, None);
        let grid = Paint::stroke(GRID_COLOUR, None);
        let font = Font::new(l.font, Anchor::Middle);
        for (v, label) in &x.ticks {
            let px = l.left + l.width * x.axis.map(*v);
            if x.grid {
                self.svg.line((px, l.top), (px, bottom), grid);
            }
            self.svg.line((px, bottom), (px, bottom + TICK), axis);
            self.svg.text((px, bottom + TICK + l.font), font, label);
        }
        for (v, label) in &y.ticks {
            let py = l.top + l.height * (1.0 - y.axis.map(*v));
            if y.grid {
                self.svg.line((l.left, py), (right, py), grid);
            }
            self.svg.line((l.left - TICK, py), (l.left, py), axis);
            self.svg.text(
                (l.left - TICK - 2.0, py + l.font * BASELINE),
                Font {
                    anchor: Anchor::End,
                    ..font
                },
                label,
            );
        }
        self.svg
            .polyline(&[(l.left, l.top), (l.left, bottom), (right, bottom)], axis);
        if !x.name.is_empty() {
            self.svg.text(
                (l.left + l.width / 2.0, bottom + l.bottom - NAME_INSET),
                font,
                x.name,
            );
        }
        if !y.name.is_empty() {
            self.svg.text_upwards(
                (l.font + NAME_INSET / 3.0, l.top + l.height / 2.0),
                font,
                y.name,
            );
        }
    }

    /// Where the point of values (`x`, `y`) is drawn.
    pub fn at(&self, x: f64, y: f64) -> (f64, f64) {
        let l = &self.layout;
        (
            l.left + l.width * self.x.map(x),
            l.top + l.height * (1.0 - self.y.map(y)),
        )
    }

    /// The plot area's height in drawing units per unit of a linear y axis (for bars and boxes
    /// whose height is a share of a category's row).
    pub fn y_unit(&self) -> f64 {
        (self.at(0.0, 1.0).1 - self.at(0.0, 0.0).1).abs()
    }

    /// The document, to draw shapes on in drawing units.
    pub fn svg(&mut self) -> &mut Svg {
        &mut self.svg
    }

    /// A legend in the plot area's upper left corner: for each (name, colour) a disc and the
    /// name, on a light box.
    pub fn legend(&mut self, entries: &[(&str, &str)]) {
        if entries.is_empty() {
            return;
        }
        let l = self.layout;
        let row = l.font * 1.4;
        let widest = entries
            .iter()
            .map(|(n, _)| n.chars().count())
            .max()
            .unwrap_or(0);
        let (x0, y0) = (l.left + LEGEND_PAD, l.top + LEGEND_PAD);
        let box_w = 3.0 * LEGEND_PAD + l.font + widest as f64 * l.font * CHAR_WIDTH;
        let box_h = LEGEND_PAD + row * entries.len() as f64;
        self.svg.rect(
            (x0, y0),
            (box_w, box_h),
            Paint::fill("#fff")
                .opacity(LEGEND_OPACITY)
                .outline("#000", None),
            None,
        );
        for (i, (name, colour)) in entries.iter().enumerate() {
            let middle = y0 + LEGEND_PAD / 2.0 + row * (i as f64 + 0.5);
            self.svg.circle(
                (x0 + LEGEND_PAD + l.font / 2.0, middle),
                l.font / 2.5,
                Paint::fill(colour),
            );
            self.svg.text(
                (x0 + 2.0 * LEGEND_PAD + l.font, middle + l.font * BASELINE),
                Font::new(l.font, Anchor::Start),
                name,
            );
        }
    }

    /// The chart, closed.
    pub fn finish(self) -> String {
        self.svg.finish()
    }
}
