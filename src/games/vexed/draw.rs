//! A Vexed puzzle for the report: its start (after gravity), then, when the expected output
//! is known, its solution replayed move by move with the game's own rules, one frame a move
//! (as many as a drawing holds). A move that cannot be played ends the replay with a frame
//! saying why.

use super::Puzzle;
use super::grid::{Dir, Grid, Move, is_block};
use crate::game::Drawing;
use crate::game::draw::{Cell, colour, grid_svg};

const WALL: &str = "#555";

fn svg(grid: &Grid) -> Option<String> {
    grid_svg(grid.rows(), grid.cols(), |r, c| {
        let cell = grid.at(r, c);
        if cell == b'#' {
            Some(Cell {
                fill: WALL,
                label: String::new(),
            })
        } else if is_block(cell) {
            Some(Cell {
                fill: colour(usize::from(cell - b'A')),
                label: (cell as char).to_string(),
            })
        } else {
            None
        }
    })
}

/// The moves `(L,r,c,D)` of a solution block, in order; `None` at the first malformed one.
fn moves(block: &str) -> Vec<Option<Move>> {
    block
        .split('(')
        .skip(1)
        .map(|part| {
            let inner = part.split(')').next()?;
            let fields: Vec<&str> = inner.split(',').map(str::trim).collect();
            let [letter, row, col, dir] = fields[..] else {
                return None;
            };
            let letter = *letter.as_bytes().first().filter(|_| letter.len() == 1)?;
            Some(Move {
                letter,
                row: row.parse().ok()?,
                col: col.parse().ok()?,
                dir: match dir {
                    "L" => Dir::Left,
                    "R" => Dir::Right,
                    _ => return None,
                },
            })
        })
        .collect()
}

pub fn draw(puzzle: &Puzzle, expected: Option<&str>) -> Option<Drawing> {
    let mut grid = puzzle.start();
    let mut drawing = Drawing::default();
    drawing.push(format!("{}: start", puzzle.name), svg(&grid)?);
    for (i, mv) in moves(expected.unwrap_or("")).into_iter().enumerate() {
        let Some(mv) = mv else {
            drawing.push(format!("move {}: malformed", i + 1), svg(&grid)?);
            break;
        };
        if let Err(e) = grid.play(&mv) {
            drawing.push(
                format!("move {} {mv}: cannot be played ({e})", i + 1),
                svg(&grid)?,
            );
            break;
        }
        drawing.push(format!("move {}: {mv}", i + 1), svg(&grid)?);
    }
    Some(drawing)
}

/// The board a solution block leaves: its moves replayed from the start, up to the first one
/// that is malformed or cannot be played.
pub fn answer(puzzle: &Puzzle, block: &str) -> Option<String> {
    let mut grid = puzzle.start();
    for mv in moves(block) {
        let Some(mv) = mv else { break };
        if grid.play(&mv).is_err() {
            break;
        }
    }
    svg(&grid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_solution_replays_to_a_clear_board() {
        let input = b"4 5 SAMPLE-01\n#A--#\n##-B#\n#AB##\n#####\n0 0 END\n";
        let parsed = <super::super::Vexed as crate::game::Rules>::parse(
            input,
            &crate::game::Reading::STATEMENT,
        );
        let puzzle = parsed[0].case.as_ref().unwrap();
        let d = draw(
            puzzle,
            Some("SAMPLE-01: Minimum solution length = 2\n(B,1,3,L) (A,0,1,R)"),
        )
        .unwrap();
        let captions: Vec<_> = d.frames.iter().map(|f| f.caption.as_str()).collect();
        assert_eq!(captions.len(), 3, "{captions:?}");
        assert!(captions[0].ends_with("start") && captions[2].starts_with("move 2"));
        // Solved: the last frame has no lettered block left.
        assert!(!d.frames[2].svg.contains("<text"));
        assert!(d.frames[0].svg.contains(">A</text>"));
    }
}
