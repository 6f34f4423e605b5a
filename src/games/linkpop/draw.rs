//! The board of a Link and Pop case for the report: the input board (each block's symbol and
//! moving attribute, one colour per symbol) and, when the expected output is known, the board
//! it leaves (its `Case N` header dropped).

use super::Board;
use crate::game::Drawing;
use crate::game::draw::{Cell, colour, grid_svg};

pub fn draw(board: &Board, expected: Option<&str>) -> Option<Drawing> {
    let start = grid_svg(board.rows, board.cols, |r, c| {
        let block = board.cells[r * board.cols + c]?;
        Some(Cell {
            fill: colour(block.symbol_index()),
            label: format!("{}{}", block.symbol as char, block.attr.letter() as char),
        })
    })?;
    let mut drawing = Drawing::default();
    drawing.push("input board", start);
    if let Some(end) = expected.and_then(|block| answer(board, block)) {
        drawing.push("expected final board", end);
    }
    Some(drawing)
}

/// The board an output block leaves (its `Case N` header dropped): one cell per letter, a
/// blank for an empty place.
pub fn answer(_board: &Board, block: &str) -> Option<String> {
    let lines: Vec<&[u8]> = block
        .lines()
        .skip(1)
        .map(str::as_bytes)
        .filter(|l| !l.is_empty())
        .collect();
    let cols = lines.iter().map(|l| l.len()).max().unwrap_or(0);
    grid_svg(lines.len(), cols, |r, c| {
        let &symbol = lines[r].get(c)?;
        symbol.is_ascii_uppercase().then(|| Cell {
            fill: colour(usize::from(symbol - b'A')),
            label: (symbol as char).to_string(),
        })
    })
}
