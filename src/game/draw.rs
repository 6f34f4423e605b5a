//! Drawings of a case for the HTML report ([`Rules::draw`](super::Rules::draw)): a few small
//! SVG frames (a board, or a solution replayed move by move), with the helpers games share.
//!
//! Invariants: a frame's SVG is a standalone `<svg>` element with no script, no external
//! reference and every text escaped (drawn through [`Svg`]); a drawing holds at most
//! [`MAX_FRAMES`] frames and a grid at most [`MAX_CELLS`] cells, so a report stays small
//! whatever the case.

/// The one SVG stack ([`crate::util::svg`], its texts escaped by [`crate::util::markup`]), lent
/// to the games' drawings.
pub use crate::util::svg::{Anchor, Font, Paint, Svg, colour};

/// The most frames a drawing holds (a long solution shows its first moves and its end).
pub const MAX_FRAMES: usize = 40;
/// The largest grid drawn: bigger boards are not drawn (a report draws a few cases, not MBs).
pub const MAX_CELLS: usize = 4_096;
/// A grid cell's side in SVG units.
pub const CELL: usize = 16;
/// The class of a board's `<svg>` (the report's style sheet places it).
pub const BOARD_CLASS: &str = "board";
/// A grid's background (where no cell is drawn), and the lines between cells.
const GRID_BACKGROUND: &str = "#f4f4f4";
const GRID_LINES: &str = "#fff";
/// A cell label's size in SVG units.
const LABEL_SIZE: f64 = 9.0;

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
    let side = CELL as f64;
    let mut svg = Svg::new(
        cols as f64 * side,
        rows as f64 * side,
        BOARD_CLASS,
        Paint::fill(GRID_BACKGROUND),
    );
    let font = Font::new(LABEL_SIZE, Anchor::Middle).monospace();
    for r in 0..rows {
        for c in 0..cols {
            let Some(Cell { fill, label }) = cell(r, c) else {
                continue;
            };
            let (x, y) = (c as f64 * side, r as f64 * side);
            svg.rect(
                (x, y),
                (side, side),
                Paint::fill(fill).outline(GRID_LINES, None),
                None,
            );
            if !label.is_empty() {
                // The baseline two thirds down the cell: the label sits in its middle.
                svg.text((x + side / 2.0, y + side * 2.0 / 3.0), font, &label);
            }
        }
    }
    Some(svg.finish())
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
