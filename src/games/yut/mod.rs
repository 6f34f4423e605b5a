//! Yut Nori (2018 KAIST RUN Spring, BOJ 15778): replay up to 100 turns and draw the board.
//!
//! A judge file holds one game: `N`, then N lines `T SSSS` (token letter, four yut sides).
//! The output is the 32 x 32 board with every token on a station drawn in its slot.
//! See `RULES.md` in this folder; the rules live in [`board`] (stations, routes, drawing) and in the
//! engines: [`reference`] walks the routes step by step as the statement tells it, and [`table`]
//! looks destinations up in a hand-written (station, steps) table and keeps the board as one
//! token mask per station. [`generator`] writes seeded games, played on the reference's model.

pub mod board;
mod draw;
pub mod generator;
pub mod reference;
pub mod shrink;
pub mod table;
pub mod validate;

use crate::game::{
    CaseError, CaseStream, Engine, LineReader, Outcome, Parsed, Reading, Rules, read_error,
};
use crate::validate::Validation;
use crate::validate::quoted;
use board::{Place, TOKEN_COUNT, Token};

/// The largest number of turns the statement allows.
pub const MAX_TURNS: usize = 100;
/// Yut sticks thrown per turn.
pub const STICKS: usize = 4;
/// Steps for a throw showing no front side (`BBBB`).
pub const ALL_BACKS_STEPS: u8 = 5;

/// A throw of the four sticks, as a number of steps 1..=5.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Throw {
    steps: u8,
}

impl Throw {
    /// Reads `SSSS` (`B`/`F`): steps = number of `F`, and 5 when there is none.
    pub fn parse(sides: &[u8]) -> Option<Throw> {
        if sides.len() != STICKS || !sides.iter().all(|&s| s == b'B' || s == b'F') {
            return None;
        }
        let fronts = sides.iter().filter(|&&s| s == b'F').count() as u8;
        Some(Throw {
            steps: if fronts == 0 { ALL_BACKS_STEPS } else { fronts },
        })
    }

    pub fn steps(self) -> u8 {
        self.steps
    }
}

/// One turn: which token moves, how far, and the input line it came from (for errors).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Turn {
    pub token: Token,
    pub throw: Throw,
    pub line: usize,
}

/// A whole game to replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    pub turns: Vec<Turn>,
}

/// Where every token ends (index = [`Token::index`]).
pub type FinalPlaces = [Place; TOKEN_COUNT];

/// The game's entry in the registry.
pub struct Yut;

/// A file's one case: the game parsed, or why not.
fn one_game(parsed: Result<Replay, CaseError>) -> Parsed<Replay> {
    let size = match &parsed {
        Ok(replay) => format!("{} turns", replay.turns.len()),
        Err(_) => String::new(),
    };
    Parsed {
        line: 1,
        label: String::new(),
        size,
        case: parsed,
    }
}

impl Rules for Yut {
    type Case = Replay;
    type Answer = FinalPlaces;

    const NAME: &'static str = "yut";
    const TITLE: &'static str = "Yut Nori replay (KAIST RUN 2018, BOJ 15778)";
    const WORK_UNIT: &'static str = "turns";
    const DEFAULT_ENGINE: &'static str = "table";

    const ENGINES: &'static [Engine<Replay, FinalPlaces>] = &[
        Engine {
            name: "reference",
            about: "walks each route step by step, as the statement tells it",
            solve: reference::solve,
        },
        Engine {
            name: "table",
            about: "(station, steps) destination table and one token mask per station",
            solve: table::solve,
        },
    ];

    fn parse(input: &[u8], _reading: &Reading) -> Vec<Parsed<Replay>> {
        vec![one_game(parse_replay(input))]
    }

    /// The one game, read a line at a time.
    fn cases(input: Box<dyn std::io::BufRead + Send>, _reading: &Reading) -> CaseStream<Replay> {
        Box::new(std::iter::once(one_game(read_replay(input))))
    }

    /// The same validation, reading only the lines it looks at.
    fn validate_reader(input: &mut dyn std::io::BufRead) -> std::io::Result<Validation> {
        validate::validate_reader(input)
    }

    fn draw(case: &Replay, expected: Option<&str>) -> Option<crate::game::Drawing> {
        draw::draw(case, expected)
    }

    fn draw_answer(case: &Replay, block: &str) -> Option<String> {
        draw::answer(case, block)
    }

    fn format_case(_index: usize, _case: &Replay, outcome: &Outcome<FinalPlaces>) -> String {
        board::draw(&outcome.answer)
    }

    /// The turns replayed.
    fn cells(replay: &Replay) -> Option<u64> {
        Some(replay.turns.len() as u64)
    }

    /// One game per file: no output line starts another block, the whole output is the one.
    fn starts_block(_line: &str) -> bool {
        false
    }

    /// The board's spaces are drawing that no token ever replaces (tokens replace dots), so
    /// a difference in white space alone is a presentation error.
    fn presentation(block: &str) -> String {
        crate::game::strip_white_space(block)
    }

    /// The 32-line template, each `.` possibly replaced by a token letter.
    fn well_formed(_case: &Replay, block: &str) -> Result<(), String> {
        let template: Vec<&str> = board::TEMPLATE.split_inclusive('\n').collect();
        let lines: Vec<&str> = block.split_inclusive('\n').collect();
        if lines.len() != template.len() {
            return Err(format!(
                "{} lines, the board has {}",
                lines.len(),
                template.len()
            ));
        }
        for (i, (line, want)) in lines.iter().zip(&template).enumerate() {
            let fits = line.len() == want.len()
                && line.bytes().zip(want.bytes()).all(|(got, want)| {
                    got == want || (want == b'.' && Token::from_letter(got).is_some())
                });
            if !fits {
                return Err(format!(
                    "line {}: {line:?} is not a line of the board",
                    i + 1
                ));
            }
        }
        Ok(())
    }
}

/// Parses `N` and N turns. Blank lines after the last turn are allowed; anything else is not.
pub fn parse_replay(input: &[u8]) -> Result<Replay, CaseError> {
    replay_from(&mut LineReader::new(input).with_final_piece())
}

/// [`parse_replay`] of the lines of a reader, a line at a time: the memory of one line and the
/// turns, whatever follows them. A read error is the case's error (on the line it stopped at).
pub fn read_replay(input: Box<dyn std::io::BufRead + Send>) -> Result<Replay, CaseError> {
    let mut lines = LineReader::new(input).with_final_piece();
    let replay = replay_from(&mut lines);
    match lines.error() {
        Some(error) => read_error::<Replay>(lines.end_line(), &error).case,
        None => replay,
    }
}

/// The game read from `lines` (the input split at every `\n`, the empty piece after a final
/// `\n` included), each line without one trailing `\r`.
fn replay_from(lines: &mut LineReader<impl std::io::BufRead>) -> Result<Replay, CaseError> {
    let mut next = || {
        lines.next_line().map(|mut l| {
            if l.text.last() == Some(&b'\r') {
                l.text.pop();
            }
            (l.number, l.text)
        })
    };
    let (line, header) = next().unwrap_or((1, Vec::new()));
    let header = header.trim_ascii();
    if header.is_empty() {
        return Err(CaseError::new(
            line,
            "expected the number of turns N, found nothing",
        ));
    }
    let count: usize = std::str::from_utf8(header)
        .ok()
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| CaseError::new(line, format!("expected N, found {}", quoted(header))))?;
    if !(1..=MAX_TURNS).contains(&count) {
        return Err(CaseError::new(
            line,
            format!("N = {count} is outside 1..={MAX_TURNS}"),
        ));
    }
    let mut turns = Vec::with_capacity(count);
    let mut last_line = line;
    for _ in 0..count {
        let Some((line, text)) = next() else {
            return Err(CaseError::new(
                last_line + 1,
                format!(
                    "expected {count} turns, the input ends after {}",
                    turns.len()
                ),
            ));
        };
        last_line = line;
        turns.push(parse_turn(line, &text)?);
    }
    while let Some((line, text)) = next() {
        if !text.trim_ascii().is_empty() {
            return Err(CaseError::new(
                line,
                format!("unexpected text after the {count} turns: {}", quoted(&text)),
            ));
        }
    }
    Ok(Replay { turns })
}

/// Parses one `T SSSS` line.
fn parse_turn(line: usize, text: &[u8]) -> Result<Turn, CaseError> {
    let fields: Vec<&[u8]> = text
        .split(|b| b.is_ascii_whitespace())
        .filter(|f| !f.is_empty())
        .collect();
    let [token, sides] = fields[..] else {
        return Err(CaseError::new(
            line,
            format!(
                "expected `T SSSS` (token and four sides), found {}",
                quoted(text)
            ),
        ));
    };
    let token = match token {
        [letter] => Token::from_letter(*letter),
        _ => None,
    }
    .ok_or_else(|| {
        CaseError::new(
            line,
            format!("token {} is not one of ABCDabcd", quoted(token)),
        )
    })?;
    let throw = Throw::parse(sides).ok_or_else(|| {
        CaseError::new(line, format!("throw {} is not four of B/F", quoted(sides)))
    })?;
    Ok(Turn { token, throw, line })
}

/// The error for a turn that moves a token which already escaped.
pub fn escaped_token_error(turn: &Turn) -> CaseError {
    CaseError::new(
        turn.line,
        format!(
            "token {} has already escaped and cannot move",
            turn.token.letter() as char
        ),
    )
}

#[cfg(test)]
mod stream_tests;
#[cfg(test)]
mod tests;
