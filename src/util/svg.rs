//! The one way gamebench writes SVG: a document built element by element ([`Svg`]: rectangles,
//! circles, lines, polylines, text), every text through the one escaper ([`markup`]), and the
//! charts drawn on it ([`Chart`]: a plot area with two ticked, named axes, linear or
//! logarithmic ([`Axis`]), and a legend). The report's charts, `run --plot`, `sweep --plot` and
//! the games' board drawings all use it; no plotting crate.
//!
//! Invariants: a document is a standalone `<svg>` element with no script and no external
//! reference, well-formed XML whatever its texts hold; coordinates are written with at most one
//! decimal ([`num`]), so the same drawing gives the same bytes.

use std::fmt::{self, Write};

use super::markup::{escape, escape_attribute};

/// Colours of series and pieces, in order ([`colour`] wraps around).
const PALETTE: [&str; 12] = [
    "#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45",
    "#fabed4", "#469990", "#dcbeff", "#9a6324",
];

/// A distinct colour for index `i` (wraps around a fixed palette).
pub fn colour(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

/// A coordinate or length as written: rounded to a tenth, no trailing `.0`, never `-0`.
pub struct Num(pub f64);

/// Tenths: the precision of every number in a drawing.
const TENTHS: f64 = 10.0;

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = (self.0 * TENTHS).round() / TENTHS;
        // A NaN or infinity (a degenerate axis) is drawn at 0 rather than breaking the document.
        let v = if v.is_finite() && v != 0.0 { v } else { 0.0 };
        write!(f, "{v}")
    }
}

/// [`Num`] of `v`.
pub fn num(v: f64) -> Num {
    Num(v)
}

/// How a shape is filled and stroked (`None`: the attribute is not written).
#[derive(Debug, Clone, Copy, Default)]
pub struct Paint<'a> {
    pub fill: Option<&'a str>,
    pub fill_opacity: Option<f64>,
    pub stroke: Option<&'a str>,
    pub stroke_width: Option<f64>,
}

impl<'a> Paint<'a> {
    /// Filled with `colour`, no stroke.
    pub fn fill(colour: &'a str) -> Paint<'a> {
        Paint {
            fill: Some(colour),
            ..Paint::default()
        }
    }

    /// A line of `colour`, `width` wide (`None`: the default width), nothing filled.
    pub fn stroke(colour: &'a str, width: Option<f64>) -> Paint<'a> {
        Paint {
            fill: Some("none"),
            stroke: Some(colour),
            stroke_width: width,
            ..Paint::default()
        }
    }

    /// This paint with its fill drawn at `opacity` (0 to 1).
    pub fn opacity(self, opacity: f64) -> Paint<'a> {
        Paint {
            fill_opacity: Some(opacity),
            ..self
        }
    }

    /// This paint with an outline of `colour`.
    pub fn outline(self, colour: &'a str, width: Option<f64>) -> Paint<'a> {
        Paint {
            stroke: Some(colour),
            stroke_width: width,
            ..self
        }
    }

    fn write(&self, out: &mut String) {
        if let Some(fill) = self.fill {
            let _ = write!(out, " fill=\"{}\"", escape_attribute(fill));
        }
        if let Some(opacity) = self.fill_opacity {
            let _ = write!(out, " fill-opacity=\"{}\"", num(opacity));
        }
        if let Some(stroke) = self.stroke {
            let _ = write!(out, " stroke=\"{}\"", escape_attribute(stroke));
        }
        if let Some(width) = self.stroke_width {
            let _ = write!(out, " stroke-width=\"{}\"", num(width));
        }
    }
}

/// Where a text stands against its x.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

impl Anchor {
    fn name(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

/// How a text is set.
#[derive(Debug, Clone, Copy)]
pub struct Font<'a> {
    pub size: f64,
    pub anchor: Anchor,
    pub family: Option<&'a str>,
    pub fill: Option<&'a str>,
}

impl Font<'static> {
    /// `size` units high, anchored at `anchor`, in the default face and colour.
    pub fn new(size: f64, anchor: Anchor) -> Font<'static> {
        Font {
            size,
            anchor,
            family: None,
            fill: None,
        }
    }
}

impl<'a> Font<'a> {
    /// This font in a monospace face (board letters).
    pub fn monospace(self) -> Font<'a> {
        Font {
            family: Some("monospace"),
            ..self
        }
    }

    /// This font in `colour`.
    pub fn coloured(self, colour: &'a str) -> Font<'a> {
        Font {
            fill: Some(colour),
            ..self
        }
    }
}

/// An SVG document being written; [`Svg::finish`] closes it.
pub struct Svg {
    out: String,
}

impl Svg {
    /// A `width` x `height` document of class `class`, its background a rectangle painted
    /// `background`.
    pub fn new(width: f64, height: f64, class: &str, background: Paint<'_>) -> Svg {
        let (w, h) = (num(width), num(height));
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"{}\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">",
            escape_attribute(class)
        );
        let _ = write!(out, "<rect width=\"{w}\" height=\"{h}\"");
        background.write(&mut out);
        out.push_str("/>");
        Svg { out }
    }

    /// The document's title (what a viewer shows as its name or tooltip).
    pub fn title(&mut self, text: &str) {
        let _ = write!(self.out, "<title>{}</title>", escape(text));
    }

    /// A rectangle from (`x`, `y`), `width` x `height`; `tooltip`: a title shown on hover.
    pub fn rect(
        &mut self,
        (x, y): (f64, f64),
        (width, height): (f64, f64),
        paint: Paint<'_>,
        tooltip: Option<&str>,
    ) {
        let _ = write!(
            self.out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"",
            num(x),
            num(y),
            num(width),
            num(height)
        );
        paint.write(&mut self.out);
        self.close("rect", tooltip);
    }

    /// A circle of radius `r` around (`cx`, `cy`).
    pub fn circle(&mut self, (cx, cy): (f64, f64), r: f64, paint: Paint<'_>) {
        let _ = write!(
            self.out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"",
            num(cx),
            num(cy),
            num(r)
        );
        paint.write(&mut self.out);
        self.out.push_str("/>");
    }

    /// A straight line from `a` to `b`.
    pub fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), paint: Paint<'_>) {
        let _ = write!(
            self.out,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"",
            num(x1),
            num(y1),
            num(x2),
            num(y2)
        );
        Paint {
            fill: None,
            ..paint
        }
        .write(&mut self.out);
        self.out.push_str("/>");
    }

    /// A line through `points` in their order (nothing for fewer than two).
    pub fn polyline(&mut self, points: &[(f64, f64)], paint: Paint<'_>) {
        if points.len() < 2 {
            return;
        }
        self.out.push_str("<polyline points=\"");
        for (i, (x, y)) in points.iter().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            let _ = write!(self.out, "{sep}{},{}", num(*x), num(*y));
        }
        self.out.push('"');
        Paint {
            fill: paint.fill.or(Some("none")),
            ..paint
        }
        .write(&mut self.out);
        self.out.push_str("/>");
    }

    /// `content` at (`x`, `y`), its baseline at `y`.
    pub fn text(&mut self, (x, y): (f64, f64), font: Font<'_>, content: &str) {
        self.text_turned((x, y), font, content, false);
    }

    /// `content` at (`x`, `y`) read upwards (turned a quarter anticlockwise), as a vertical
    /// axis's name.
    pub fn text_upwards(&mut self, (x, y): (f64, f64), font: Font<'_>, content: &str) {
        self.text_turned((x, y), font, content, true);
    }

    fn text_turned(&mut self, (x, y): (f64, f64), font: Font<'_>, content: &str, up: bool) {
        let (x, y) = (num(x), num(y));
        let _ = write!(
            self.out,
            "<text x=\"{x}\" y=\"{y}\" font-size=\"{}\" text-anchor=\"{}\"",
            num(font.size),
            font.anchor.name()
        );
        if let Some(family) = font.family {
            let _ = write!(self.out, " font-family=\"{}\"", escape_attribute(family));
        }
        if let Some(fill) = font.fill {
            let _ = write!(self.out, " fill=\"{}\"", escape_attribute(fill));
        }
        if up {
            let _ = write!(self.out, " transform=\"rotate(-90 {x} {y})\"");
        }
        let _ = write!(self.out, ">{}</text>", escape(content));
    }

    fn close(&mut self, element: &str, tooltip: Option<&str>) {
        match tooltip {
            Some(t) => {
                let _ = write!(self.out, "><title>{}</title></{element}>", escape(t));
            }
            None => self.out.push_str("/>"),
        }
    }

    /// The document, closed.
    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>");
        self.out
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_to_a_tenth_without_a_trailing_zero() {
        assert_eq!(num(62.0).to_string(), "62");
        assert_eq!(num(62.34).to_string(), "62.3");
        assert_eq!(num(-0.01).to_string(), "0");
        assert_eq!(num(f64::NAN).to_string(), "0");
        assert_eq!(num(0.05).to_string(), "0.1");
    }

    #[test]
    fn every_text_and_attribute_is_escaped() {
        let mut svg = Svg::new(10.0, 10.0, "a\"b", Paint::fill("#fff"));
        svg.title("<t>");
        svg.text((1.0, 2.0), Font::new(9.0, Anchor::Middle), "a&b");
        svg.rect((0.0, 0.0), (1.0, 1.0), Paint::fill("#000"), Some("1 < 2"));
        let out = svg.finish();
        assert!(out.contains("class=\"a&quot;b\""), "{out}");
        assert!(out.contains("<title>&lt;t&gt;</title>"), "{out}");
        assert!(out.contains(">a&amp;b</text>"), "{out}");
        assert!(out.contains("<title>1 &lt; 2</title></rect>"), "{out}");
        assert!(out.starts_with("<svg") && out.ends_with("</svg>"));
    }

    /// Reads `xml` with quick-xml to its end: the texts of its `<text>` elements, unescaped
    /// (panics on malformed XML or an unclosed element).
    fn texts_of(xml: &str) -> Vec<String> {
        use quick_xml::events::Event;
        let mut reader = quick_xml::Reader::from_str(xml);
        let (mut texts, mut depth, mut in_text) = (Vec::new(), 0usize, false);
        loop {
            match reader.read_event().expect("well-formed XML") {
                Event::Start(e) => {
                    depth += 1;
                    in_text = AsRef::<str>::as_ref(&e.name()) == "text";
                    if in_text {
                        texts.push(String::new());
                    }
                }
                Event::Text(t) if in_text => {
                    let t = t.xml_content(quick_xml::XmlVersion::Implicit1_0);
                    texts.last_mut().unwrap().push_str(&t);
                }
                Event::GeneralRef(r) if in_text => {
                    let entity = format!("&{};", AsRef::<str>::as_ref(&*r));
                    let c = quick_xml::escape::unescape(&entity).expect("a known entity");
                    texts.last_mut().unwrap().push_str(&c);
                }
                Event::End(_) => {
                    depth = depth.checked_sub(1).expect("a closing tag that was opened");
                    in_text = false;
                }
                Event::Eof => break,
                _ => {}
            }
        }
        assert_eq!(depth, 0, "unclosed elements");
        texts
    }

    #[test]
    fn a_chart_parses_as_xml_with_its_caption_axes_and_legend() {
        let layout = Layout {
            width: 200.0,
            height: 100.0,
            left: 50.0,
            right: 10.0,
            top: 20.0,
            bottom: 30.0,
            font: 10.0,
            caption: 12.0,
        };
        let x = Scale::ticked(
            Axis::new(1.0, 1e6, false),
            false,
            |v| v.to_string(),
            "x <a>",
        );
        let y = Scale::ticked(Axis::new(0.0, 4.0, true), true, |v| v.to_string(), "y & b");
        let mut chart = Chart::new(layout, "c", "t \"q\" 'r'", &x, &y.with_grid());
        let at = chart.at(10.0, 2.0);
        chart.svg().circle(at, 2.0, Paint::fill(colour(0)));
        chart.legend(&[("<one>", colour(0)), ("two & three", colour(1))]);
        let texts = texts_of(&chart.finish());
        for t in [
            "t \"q\" 'r'",
            "x <a>",
            "y & b",
            "<one>",
            "two & three",
            "1",
            "1000000",
        ] {
            assert!(texts.iter().any(|s| s == t), "no text {t:?} in {texts:?}");
        }
    }

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
    fn a_narrow_log_axis_still_gets_two_ticks_or_more() {
        // 1.3 to 1.8: no power of ten nor 2 or 5 times one inside; linear steps instead.
        let axis = Axis::logarithmic(1.3, 1.8);
        assert!(axis.log);
        let ticks = axis.ticks(false);
        assert!(ticks.len() >= 2, "{ticks:?}");
        assert!(ticks.iter().all(|t| (1.3..=1.8).contains(t)), "{ticks:?}");
    }

    #[test]
    fn a_single_value_gets_an_axis_around_it() {
        let axis = Axis::new(7.0, 7.0, true);
        assert!(axis.map(7.0) > 0.0 && axis.map(7.0) < 1.0);
        assert!(!axis.ticks(true).is_empty());
        let axis = Axis::logarithmic(5.0, 5.0);
        assert!(axis.map(5.0) > 0.0 && axis.map(5.0) < 1.0);
    }
}
