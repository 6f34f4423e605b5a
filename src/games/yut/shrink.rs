//! Yut's case edits for `stress` (reductions) and `hunt` (mutations).
//!
//! A game is its list of turns. Reductions, biggest cuts first: drop runs of turns (halves,
//! quarters, ..., single ones; at least one turn stays), lower one throw to one step fewer or to
//! a single step, move one turn to the first token of its team or to `A`. A candidate that moves
//! an escaped token is not a valid game; the default admissibility check (the reference engine
//! plays it without error) rejects it. The input is written as the statement shows it: `N`,
//! then one `T SSSS` line per turn, the throw's fronts first (`FFBB` for 2 steps, `BBBB` for
//! 5). Mutations (for `hunt`) change one turn's token or throw.

use gamebench_generators::Dice;

use super::board::{TOKEN_COUNT, Token};

/// Tokens per team: `A`-`D`, then `a`-`d`.
const TEAM_SIZE: usize = TOKEN_COUNT / 2;
use super::{ALL_BACKS_STEPS, Replay, STICKS, Throw, Turn, Yut};
use crate::game::{CaseSize, Shrink};

/// The four sides that throw `steps` (1..=5) steps.
fn sides(steps: u8) -> String {
    if steps == ALL_BACKS_STEPS {
        return "B".repeat(STICKS);
    }
    let fronts = usize::from(steps);
    format!("{}{}", "F".repeat(fronts), "B".repeat(STICKS - fronts))
}

fn throw(steps: u8) -> Throw {
    Throw::parse(sides(steps).as_bytes()).expect("1..=5 steps are a throw")
}

fn with_turn(replay: &Replay, at: usize, turn: Turn) -> Replay {
    let mut next = replay.clone();
    next.turns[at] = turn;
    next
}

/// The smaller tokens a turn is moved to: the first of its own team, and `A`.
fn lower_tokens(token: Token) -> Vec<usize> {
    let own_first = token.index() - token.index() % TEAM_SIZE;
    let mut lower = Vec::new();
    for index in [own_first, 0] {
        if index < token.index() && !lower.contains(&index) {
            lower.push(index);
        }
    }
    lower
}

impl Shrink for Yut {
    const MOVES: &'static str = "turns";
    /// One game per file.
    const MAX_CASES: usize = 1;

    fn write_input(cases: &[&Replay]) -> String {
        let mut text = String::new();
        for replay in cases {
            text.push_str(&format!("{}\n", replay.turns.len()));
            for turn in &replay.turns {
                text.push(char::from(turn.token.letter()));
                text.push(' ');
                text.push_str(&sides(turn.throw.steps()));
                text.push('\n');
            }
        }
        text
    }

    fn size(replay: &Replay) -> CaseSize {
        let magnitude = replay
            .turns
            .iter()
            .map(|t| u64::from(t.throw.steps()) + t.token.index() as u64)
            .sum();
        CaseSize {
            cells: 0,
            moves: replay.turns.len(),
            magnitude,
        }
    }

    fn reductions(replay: &Replay) -> Vec<Replay> {
        let mut out = Vec::new();
        let n = replay.turns.len();
        let mut run = n.div_ceil(2);
        while run >= 1 {
            for start in (0..n).step_by(run) {
                let mut turns = replay.turns.clone();
                turns.drain(start..(start + run).min(n));
                if !turns.is_empty() {
                    out.push(Replay { turns });
                }
            }
            if run == 1 {
                break;
            }
            run = run.div_ceil(2);
        }
        for (i, turn) in replay.turns.iter().enumerate() {
            // One step fewer, and a single step: not every smaller throw (a Yut game is one
            // file, so each candidate costs a program run of its own).
            let steps = turn.throw.steps();
            let fewer = [steps - 1, 1];
            for (k, &lower) in fewer.iter().enumerate() {
                if lower >= 1 && lower < steps && !fewer[..k].contains(&lower) {
                    out.push(with_turn(
                        replay,
                        i,
                        Turn {
                            throw: throw(lower),
                            ..*turn
                        },
                    ));
                }
            }
            for index in lower_tokens(turn.token) {
                out.push(with_turn(
                    replay,
                    i,
                    Turn {
                        token: Token::from_index(index),
                        ..*turn
                    },
                ));
            }
        }
        out
    }

    fn mutate(replay: &Replay, dice: &mut Dice) -> Replay {
        let i = dice.below(replay.turns.len() as u64) as usize;
        let turn = replay.turns[i];
        let turn = if dice.chance(1, 2) {
            Turn {
                token: Token::from_index(dice.below(TOKEN_COUNT as u64) as usize),
                ..turn
            }
        } else {
            Turn {
                throw: throw(dice.range(1, u64::from(ALL_BACKS_STEPS)) as u8),
                ..turn
            }
        };
        with_turn(replay, i, turn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::yut::parse_replay;

    fn replay(text: &str) -> Replay {
        parse_replay(text.as_bytes()).unwrap()
    }

    #[test]
    fn the_written_input_reads_back_as_the_same_game() {
        let game = replay("3\nA BFBB\nb BBBB\nD FFFF\n");
        let text = Yut::write_input(&[&game]);
        assert_eq!(text, "3\nA FBBB\nb BBBB\nD FFFF\n");
        assert_eq!(replay(&text), game);
    }

    #[test]
    fn every_reduction_is_smaller_and_keeps_a_turn() {
        let game = replay("2\nB FFBB\nA FBBB\n");
        let reductions = Yut::reductions(&game);
        for r in &reductions {
            assert!(Yut::size(r) < Yut::size(&game));
            assert!(!r.turns.is_empty());
        }
        let texts: Vec<String> = reductions.iter().map(|r| Yut::write_input(&[r])).collect();
        for expected in [
            "1\nA FBBB\n",
            "1\nB FFBB\n",
            "2\nB FBBB\nA FBBB\n",
            "2\nA FFBB\nA FBBB\n",
        ] {
            assert!(
                texts.iter().any(|t| t == expected),
                "{expected:?} in {texts:?}"
            );
        }
        assert!(Yut::reductions(&replay("1\nA FBBB\n")).is_empty());
        let lower = |letter: u8| lower_tokens(Token::from_letter(letter).unwrap());
        assert_eq!(lower(b'd'), vec![4, 0]);
        assert_eq!(lower(b'a'), vec![0]);
        assert_eq!(lower(b'C'), vec![0]);
        assert!(lower(b'A').is_empty());
    }
}
