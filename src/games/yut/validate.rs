//! The strict validator of Yut Nori judge inputs (RULES.md, "Validation"): the statement's
//! format exactly, where the parser ([`super::parse_replay`]) tolerates white space around
//! fields and blank lines at the end; and the statement's promise that an escaped token is
//! never moved again, checked by replaying the game on the reference engine.
//!
//! One game per file, so every violation is in case 1. A file's first lines decide its
//! validation ([`LINES_LOOKED_AT`]), so a reader is validated on those alone.

use super::board::Token;
use super::{MAX_TURNS, Replay, STICKS, Throw, Turn, reference};
use std::io::BufRead;

use crate::game::{Budget, LineReader};
use crate::validate::{
    Line, Validation, Violation, check_line, end_line, lines, number, quoted, single_spaced,
};

const COUNT: &str = "the first line consists of N, 1 <= N <= 100";
const TURN: &str = "a turn is one of ABCDabcd, a space, and four characters B or F";
const TURNS: &str = "N lines of turns follow the first line, and nothing else";
const ESCAPED: &str = "every move is valid; an escaped token is not given again";

/// The only case of a file.
const CASE: Option<usize> = Some(1);

/// Lines a validation looks at, at most: `N`, N <= [`MAX_TURNS`] turns and one line after
/// them (reported if it is there).
const LINES_LOOKED_AT: usize = MAX_TURNS + 2;

/// Validates a whole Yut Nori judge input.
pub fn validate(input: &[u8]) -> Validation {
    validate_lines(&lines(input))
}

/// [`validate`] of an input read from `input`: only its first [`LINES_LOOKED_AT`] lines are
/// read (the validation looks at no other), so a file of any size validates in the memory of
/// those lines.
pub fn validate_reader(input: &mut dyn BufRead) -> std::io::Result<Validation> {
    let mut reader = LineReader::new(input);
    let mut owned = Vec::with_capacity(LINES_LOOKED_AT);
    while owned.len() < LINES_LOOKED_AT
        && let Some(line) = reader.next_line()
    {
        owned.push(line);
    }
    if let Some(error) = reader.error() {
        return Err(error);
    }
    let lines: Vec<Line<'_>> = owned
        .iter()
        .map(|l| Line {
            number: l.number,
            text: &l.text,
            terminated: l.terminated,
        })
        .collect();
    Ok(validate_lines(&lines))
}

/// Validates the lines of an input: all of them, or at least its first [`LINES_LOOKED_AT`].
fn validate_lines(lines: &[Line<'_>]) -> Validation {
    let mut out = Validation {
        cases: 1,
        ..Validation::default()
    };
    let Some(first) = lines.first() else {
        out.push(Violation::new(CASE, 1, "the input is empty", COUNT));
        return out;
    };
    check_line(first, CASE, &mut out);
    let count = match number(first.text) {
        Ok(n) if (1..=MAX_TURNS as u64).contains(&n) => n as usize,
        Ok(n) => {
            out.push(Violation::new(CASE, 1, format!("N = {n}"), COUNT));
            return out;
        }
        Err(e) => {
            out.push(Violation::new(CASE, 1, e.describe(first.text), COUNT));
            return out;
        }
    };
    let mut turns = Vec::with_capacity(count);
    let mut sound = true;
    for k in 0..count {
        if out.full() {
            return out;
        }
        let Some(line) = lines.get(1 + k) else {
            out.push(Violation::new(
                CASE,
                end_line(lines),
                format!("the input ends after {k} of the N = {count} turns"),
                TURNS,
            ));
            return out;
        };
        check_line(line, CASE, &mut out);
        let (fields, problem) = single_spaced(line.text);
        if let Some(problem) = problem {
            out.push(Violation::new(CASE, line.number, problem, TURN));
        }
        let turn = match fields[..] {
            [token, sides] => {
                let token = match token {
                    [letter] => Token::from_letter(*letter),
                    _ => None,
                };
                let throw = (sides.len() == STICKS)
                    .then(|| Throw::parse(sides))
                    .flatten();
                token.zip(throw)
            }
            _ => None,
        };
        match turn {
            Some((token, throw)) => turns.push(Turn {
                token,
                throw,
                line: line.number,
            }),
            None => {
                out.push(Violation::new(
                    CASE,
                    line.number,
                    format!("turn {} is {}", k + 1, quoted(line.text)),
                    TURN,
                ));
                sound = false;
            }
        }
    }
    if let Some(extra) = lines.get(1 + count) {
        out.push(Violation::new(
            CASE,
            extra.number,
            format!("text after the N = {count} turns: {}", quoted(extra.text)),
            TURNS,
        ));
    }
    // The promise about escaped tokens is about the game as given: replayed only when every
    // turn could be read.
    if sound
        && turns.len() == count
        && let Err(error) = reference::solve(&Replay { turns }, &Budget::UNLIMITED)
    {
        out.push(Violation::new(CASE, error.line, error.message, ESCAPED));
    }
    out
}
