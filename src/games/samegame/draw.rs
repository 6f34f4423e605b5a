//! The grid of a SameGame case for the report: the initial grid, one colour per value, top
//! row first (the game numbers rows from the bottom), and the number of selections; and the
//! grid an output block leaves (`Game Won`: the case's grid, empty).

use super::{Game, ROW_INDENT, WON_LINE};
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

/// The grid an output block leaves: the rows under its `Grid N.` line, top row first, each
/// cell a character after a space past the row's indent (a digit: a value; a space: empty;
/// anything else drawn as it is, in grey); a won game's grid empty.
pub fn answer(game: &Game, block: &str) -> Option<String> {
    let rows: Vec<&[u8]> = block.lines().skip(1).map(str::as_bytes).collect();
    if rows
        .iter()
        .any(|r| r.trim_ascii() == WON_LINE.trim().as_bytes())
    {
        return grid_svg(game.rows(), game.cols(), |_, _| None);
    }
    let cell = |row: &[u8], c: usize| row.get(ROW_INDENT.len() + 2 * c + 1).copied();
    let cols = rows
        .iter()
        .map(|r| r.len().saturating_sub(ROW_INDENT.len()).div_ceil(2))
        .max()
        .unwrap_or(0);
    grid_svg(rows.len(), cols, |r, c| match cell(rows[r], c)? {
        b' ' => None,
        digit if digit.is_ascii_digit() => Some(Cell {
            fill: colour(usize::from(digit - b'0')),
            label: (digit as char).to_string(),
        }),
        other => Some(Cell {
            fill: OTHER,
            label: (other as char).to_string(),
        }),
    })
}

/// The fill of a cell that holds no value (a character the game never prints).
const OTHER: &str = "#bbb";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;

    fn game() -> Game {
        // Its first case is a 2 x 3 grid.
        let input = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/corpora/samegame/hand-rules.in"
        ))
        .unwrap();
        let parsed =
            <super::super::SameGame as Rules>::parse(&input, &crate::game::Reading::STATEMENT);
        parsed[0].case.as_ref().unwrap().clone()
    }

    #[test]
    fn an_answer_is_drawn_cell_by_cell_and_a_moved_digit_moves_its_cell() {
        let game = game();
        // Two rows, three columns (cell c at 4 + 2c); the top row's 2 in the middle column,
        // then moved to the first.
        let expected = answer(&game, "Grid 1.\n      2  \n    1 3 4\n").unwrap();
        let moved = answer(&game, "Grid 1.\n    2    \n    1 3 4\n").unwrap();
        assert_ne!(expected, moved);
        for svg in [&expected, &moved] {
            assert_eq!(svg.matches("<text").count(), 4, "{svg}");
        }
        // A won game: the case's grid, every cell empty.
        let won = answer(&game, "Grid 1.\n    Game Won\n").unwrap();
        assert_eq!(won.matches("<text").count(), 0, "{won}");
    }
}
