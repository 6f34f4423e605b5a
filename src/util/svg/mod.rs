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

mod chart;
#[cfg(test)]
mod tests;

pub use chart::{Axis, Chart, LOG_RANGE, Layout, Scale};
