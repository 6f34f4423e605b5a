//! The grid of a SameGame case for the report: the initial grid, one colour per value, top
//! row first (the game numbers rows from the bottom), and the number of selections.

use super::Game;
use crate::game::Drawing;
use crate::game::draw::{Cell, colour, grid_svg};

pub fn draw(game: &Game, _expected: Option<&str>) -> Option<Drawing> {
    let rows = game.rows();
    let svg = grid_svg(rows, game.cols(), |r, c| {
        let value = game.value(rows - 1 - r, c);
        Some(Cell {
            fill: colour(usize::from(value)),
            label: value.to_string(),
        })
    })?;
    let mut drawing = Drawing::default();
    drawing.push(
        format!(
            "initial grid, {} selection(s) to play",
            game.selections().len()
        ),
        svg,
    );
    Some(drawing)
}
