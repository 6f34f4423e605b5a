//! Drawings of a case for the HTML report ([`Rules::draw`](super::Rules::draw)): a few small
//! SVG frames (a board, or a solution replayed move by move), with the helpers games share.
//!
//! Invariants: a frame's SVG is a standalone `<svg>` element with no script, no external
//! reference and every text escaped ([`escape`]); a drawing holds at most [`MAX_FRAMES`] frames
//! and a grid at most [`MAX_CELLS`] cells, so a report stays small whatever the case.

/// The one escaper ([`crate::util::markup`]), lent to the games' drawings.
pub use crate::util::markup::escape;

/// The most frames a drawing holds (a long solution shows its first moves and its end).
pub const MAX_FRAMES: usize = 40;
/// The largest grid drawn: bigger boards are not drawn (a report draws a few cases, not MBs).
pub const MAX_CELLS: usize = 4_096;
/// A grid cell's side in SVG units.
pub const CELL: usize = 16;

/// One picture of a case, with a caption (`start`, `move 3: (B,1,3,L)`, `final board`).
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    pub caption: String,
    pub svg: String,
}

/// The frames of one case, in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Drawing {
    pub frames: Vec<Frame>,
}

impl Drawing {
    /// Adds a frame unless the drawing is full.
    pub fn push(&mut self, caption: impl Into<String>, svg: String) {
        if self.frames.len() < MAX_FRAMES {
            self.frames.push(Frame {
                caption: caption.into(),
                svg,
            });
        }
    }
}

/// A distinct fill for colour index `i` (wraps around a fixed palette).
pub fn colour(i: usize) -> &'static str {
    const PALETTE: [&str; 12] = [
        "#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45",
        "#fabed4", "#469990", "#dcbeff", "#9a6324",
    ];
    PALETTE[i % PALETTE.len()]
}

/// One cell of a grid drawing: a fill and a short label (`None`: an empty cell).
pub struct Cell {
    pub fill: &'static str,
    pub label: String,
}

/// A `rows x cols` grid, `cell(row, col)` giving each cell (row 0 at the top); `None` when
/// the grid has more than [`MAX_CELLS`] cells or none.
pub fn grid_svg(
    rows: usize,
    cols: usize,
    cell: impl Fn(usize, usize) -> Option<Cell>,
) -> Option<String> {
    if rows == 0 || cols == 0 || rows.saturating_mul(cols) > MAX_CELLS {
        return None;
    }
    let (w, h) = (cols * CELL, rows * CELL);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\"><rect width=\"{w}\" height=\"{h}\" fill=\"#f4f4f4\"/>"
    );
    for r in 0..rows {
        for c in 0..cols {
            let Some(Cell { fill, label }) = cell(r, c) else {
                continue;
            };
            let (x, y) = (c * CELL, r * CELL);
            svg.push_str(&format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\" stroke=\"#fff\"/>"
            ));
            if !label.is_empty() {
                svg.push_str(&format!(
                    "<text x=\"{}\" y=\"{}\" font-size=\"9\" text-anchor=\"middle\" font-family=\"monospace\">{}</text>",
                    x + CELL / 2,
                    y + CELL * 2 / 3,
                    escape(&label)
                ));
            }
        }
    }
    svg.push_str("</svg>");
    Some(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_escape_labels_and_refuse_huge_boards() {
        let svg = grid_svg(1, 2, |_, c| {
            (c == 1).then(|| Cell {
                fill: "#000",
                label: "<&>".into(),
            })
        })
        .unwrap();
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert!(svg.contains("&lt;&amp;&gt;") && !svg.contains("<&>"));
        assert_eq!(svg.matches("<rect").count(), 2, "background and one cell");
        assert!(grid_svg(MAX_CELLS + 1, 1, |_, _| None).is_none());
        assert!(grid_svg(0, 3, |_, _| None).is_none());
        let mut d = Drawing::default();
        for i in 0..MAX_FRAMES + 5 {
            d.push(format!("{i}"), String::new());
        }
        assert_eq!(d.frames.len(), MAX_FRAMES);
    }
}
