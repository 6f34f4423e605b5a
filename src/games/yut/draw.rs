//! The Yut board of a game for the report: the final board the reference engine draws (the
//! judge output), each station a dot, each token a coloured disc with its letter, lines grey.

use super::{Replay, Yut};
use crate::game::draw::{Anchor, BOARD_CLASS, Font, Paint, Svg, colour};
use crate::game::{Budget, Drawing, Rules};

/// A character's side in SVG units.
const CHAR: usize = 10;
/// The board's background, a station's dot and a line's grey.
const PAPER: &str = "#fbf6e9";
const STATION: &str = "#333";
const LINE_GREY: &str = "#999";
/// A station's radius.
const STATION_RADIUS: f64 = 2.0;
/// A token's letter and a line character: their sizes.
const LETTER_SIZE: f64 = 8.0;
const LINE_SIZE: f64 = 10.0;
/// A character's baseline below its cell's middle.
const BASELINE: f64 = 3.0;
/// The second team's tokens (lower case) take the palette's colours from here on, so the two
/// teams never share a colour.
const SECOND_TEAM_COLOURS: usize = 6;

pub fn draw(replay: &Replay, _expected: Option<&str>) -> Option<Drawing> {
    let engine = Yut::ENGINES.first()?;
    let outcome = (engine.solve)(replay, &Budget::default()).ok()?;
    let text = Yut::format_case(1, replay, &outcome);
    let svg = answer(replay, &text)?;
    let mut drawing = Drawing::default();
    drawing.push(
        format!("final board after {} turn(s)", replay.turns.len()),
        svg,
    );
    Some(drawing)
}

/// The board an output block draws (the judge output is the board in text): each station a
/// dot, each token a coloured disc with its letter.
pub fn answer(_replay: &Replay, text: &str) -> Option<String> {
    let lines: Vec<&[u8]> = text.lines().map(str::as_bytes).collect();
    let cols = lines.iter().map(|l| l.len()).max()?;
    let side = CHAR as f64;
    let mut svg = Svg::new(
        cols as f64 * side,
        lines.len() as f64 * side,
        BOARD_CLASS,
        Paint::fill(PAPER),
    );
    for (r, line) in lines.iter().enumerate() {
        for (c, &ch) in line.iter().enumerate() {
            let (x, y) = (c as f64 * side + side / 2.0, r as f64 * side + side / 2.0);
            match ch {
                b'.' => svg.circle((x, y), STATION_RADIUS, Paint::fill(STATION)),
                b' ' => {}
                letter if letter.is_ascii_alphabetic() => {
                    let team = usize::from(letter.is_ascii_lowercase()) * SECOND_TEAM_COLOURS;
                    let token = usize::from(letter.to_ascii_lowercase() - b'a');
                    svg.circle((x, y), side / 2.0, Paint::fill(colour(token + team)));
                    svg.text(
                        (x, y + BASELINE),
                        Font::new(LETTER_SIZE, Anchor::Middle).monospace(),
                        &(letter as char).to_string(),
                    );
                }
                other => svg.text(
                    (x, y + BASELINE),
                    Font::new(LINE_SIZE, Anchor::Middle)
                        .monospace()
                        .coloured(LINE_GREY),
                    &(other as char).to_string(),
                ),
            }
        }
    }
    Some(svg.finish())
}
