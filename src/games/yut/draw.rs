//! The Yut board of a game for the report: the final board the reference engine draws (the
//! judge output), each station a dot, each token a coloured disc with its letter, lines grey.

use super::{Replay, Yut};
use crate::game::draw::{colour, escape};
use crate::game::{Budget, Drawing, Rules};

/// A character's side in SVG units.
const CHAR: usize = 10;
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
    let (w, h) = (cols * CHAR, lines.len() * CHAR);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\"><rect width=\"{w}\" height=\"{h}\" fill=\"#fbf6e9\"/>"
    );
    for (r, line) in lines.iter().enumerate() {
        for (c, &ch) in line.iter().enumerate() {
            let (x, y) = (c * CHAR + CHAR / 2, r * CHAR + CHAR / 2);
            match ch {
                b'.' => svg.push_str(&format!(
                    "<circle cx=\"{x}\" cy=\"{y}\" r=\"2\" fill=\"#333\"/>"
                )),
                b' ' => {}
                letter if letter.is_ascii_alphabetic() => svg.push_str(&format!(
                    "<circle cx=\"{x}\" cy=\"{y}\" r=\"{}\" fill=\"{}\"/><text x=\"{x}\" y=\"{}\" font-size=\"8\" text-anchor=\"middle\" font-family=\"monospace\">{}</text>",
                    CHAR / 2,
                    colour(usize::from(letter.to_ascii_lowercase() - b'a') + usize::from(letter.is_ascii_lowercase()) * SECOND_TEAM_COLOURS),
                    y + 3,
                    escape(&(letter as char).to_string())
                )),
                other => svg.push_str(&format!(
                    "<text x=\"{x}\" y=\"{}\" font-size=\"10\" fill=\"#999\" text-anchor=\"middle\" font-family=\"monospace\">{}</text>",
                    y + 3,
                    escape(&(other as char).to_string())
                )),
            }
        }
    }
    svg.push_str("</svg>");
    Some(svg)
}
