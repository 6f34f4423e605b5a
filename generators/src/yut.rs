//! Yut Nori games: `N` turns `T SSSS`, never moving an escaped token.
//!
//! The generator keeps its own small model of the board (station numbers and the four routes of
//! `spec/yut.md`) so it knows which tokens are still playable and can steer games towards the
//! situations a profile is about. Station numbers follow gamebench's `Station` order:
//! 0-19 the outer ring from do to cham-meoki, 20 mo-do, 21 mo-gae, 22 bang, 23 sok-yut,
//! 24 sok-mo, 25 duet-modo, 26 duet-mogae, 27 saryeo, 28 anchi.

use crate::{Dice, GenError, Options, range_option};

pub const PROFILES: &[(&str, &str)] = &[
    (
        "random",
        "1-100 turns (or --moves), uniformly random throws and playable tokens",
    ),
    ("long", "100 turns (or --moves), random otherwise"),
    ("catch", "prefers moves that land on opponents"),
    (
        "stack",
        "prefers moves that join own tokens and move stacks",
    ),
    (
        "shortcut",
        "steers tokens onto mo, duet-mo and bang and moves them from there",
    ),
];

const MAX_TURNS: u64 = 100;
const TOKENS: &[u8; 8] = b"ABCDabcd";
const MO: u8 = 4;
const DUET_MO: u8 = 9;
const BANG: u8 = 22;

const OUTER: &[u8] = &[
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
];
const MO_DIAGONAL: &[u8] = &[4, 20, 21, 22, 23, 24, 14, 15, 16, 17, 18, 19];
const DUET_MO_DIAGONAL: &[u8] = &[9, 25, 26, 22, 27, 28, 19];
const BANG_WAY: &[u8] = &[22, 27, 28, 19];

/// A token's place in the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    Start,
    On(u8),
    Escaped,
}

fn destination(from: Place, steps: usize) -> Place {
    let (route, at) = match from {
        Place::Start => (OUTER, None),
        Place::Escaped => return Place::Escaped,
        Place::On(s) => {
            let route = match s {
                4 | 20 | 21 | 23 | 24 => MO_DIAGONAL,
                9 | 25 | 26 => DUET_MO_DIAGONAL,
                22 | 27 | 28 => BANG_WAY,
                _ => OUTER,
            };
            (route, route.iter().position(|&x| x == s))
        }
    };
    let target = at.map_or(steps - 1, |p| p + steps);
    route.get(target).map_or(Place::Escaped, |&s| Place::On(s))
}

fn team(token: usize) -> usize {
    token / 4
}

/// Generates one game file.
pub fn generate(profile: &str, options: &Options, dice: &mut Dice) -> Result<String, GenError> {
    let default_turns = if profile == "long" {
        (MAX_TURNS, MAX_TURNS)
    } else {
        (1, MAX_TURNS)
    };
    let (lo, hi) = range_option(
        "--moves",
        options.moves.as_deref(),
        default_turns,
        (1, MAX_TURNS),
    )?;
    let turns = dice.range(lo, hi) as usize;
    let mut places = [Place::Start; 8];
    let mut lines = Vec::with_capacity(turns);
    for _ in 0..turns {
        let playable: Vec<usize> = (0..8).filter(|&t| places[t] != Place::Escaped).collect();
        if playable.is_empty() {
            break; // every token escaped: the game is over, a valid input stops here
        }
        let sides: Vec<u8> = (0..4)
            .map(|_| if dice.chance(1, 2) { b'F' } else { b'B' })
            .collect();
        let fronts = sides.iter().filter(|&&s| s == b'F').count();
        let steps = if fronts == 0 { 5 } else { fronts };
        let weights: Vec<u64> = playable
            .iter()
            .map(|&t| weight(profile, &places, t, steps))
            .collect();
        let token = playable[dice.weighted(&weights)];
        play(&mut places, token, steps);
        lines.push(format!(
            "{} {}",
            TOKENS[token] as char,
            String::from_utf8_lossy(&sides)
        ));
    }
    let mut text = format!("{}\n", lines.len());
    for line in lines {
        text.push_str(&line);
        text.push('\n');
    }
    Ok(text)
}

/// How much a profile likes moving `token` by `steps` now (every playable token keeps weight
/// at least 1, so every game stays possible).
fn weight(profile: &str, places: &[Place; 8], token: usize, steps: usize) -> u64 {
    let from = places[token];
    let to = destination(from, steps);
    let others_at = |place: Place, same_team: bool| {
        (0..8)
            .filter(|&o| o != token && places[o] == place && (team(o) == team(token)) == same_team)
            .count() as u64
    };
    match profile {
        "catch" => {
            if matches!(to, Place::On(_)) {
                1 + 20 * others_at(to, false)
            } else {
                1
            }
        }
        "stack" => {
            let carried = if matches!(from, Place::On(_)) {
                others_at(from, true)
            } else {
                0
            };
            let joined = if matches!(to, Place::On(_)) {
                others_at(to, true)
            } else {
                0
            };
            1 + 50 * carried + 50 * joined
        }
        "shortcut" => {
            let corner = |p: Place| matches!(p, Place::On(MO | DUET_MO | BANG));
            1 + if corner(from) { 30 } else { 0 } + if corner(to) { 10 } else { 0 }
        }
        _ => 1,
    }
}

/// Plays a move in the model: stacks move together, opponents on the destination go home.
fn play(places: &mut [Place; 8], token: usize, steps: usize) {
    let from = places[token];
    let to = destination(from, steps);
    let movers: Vec<usize> = match from {
        Place::On(_) => (0..8)
            .filter(|&o| places[o] == from && team(o) == team(token))
            .collect(),
        _ => vec![token],
    };
    for m in movers {
        places[m] = to;
    }
    if let Place::On(_) = to {
        for (o, place) in places.iter_mut().enumerate() {
            if *place == to && team(o) != team(token) {
                *place = Place::Start;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::file_rng;

    const CHAM_MEOKI: u8 = 19;

    fn game(profile: &str, seed: u64) -> String {
        let mut dice = Dice::new(file_rng("yut", profile, seed, 0));
        generate(profile, &Options::default(), &mut dice).unwrap()
    }

    #[test]
    fn same_seed_same_bytes() {
        assert_eq!(game("random", 5), game("random", 5));
        assert_ne!(game("random", 5), game("random", 6));
    }

    #[test]
    fn long_games_have_100_turns_unless_everyone_escaped() {
        for seed in 0..20 {
            let text = game("long", seed);
            let n: usize = text.lines().next().unwrap().parse().unwrap();
            assert_eq!(n, text.lines().count() - 1);
            assert!(n <= 100);
        }
    }

    #[test]
    fn no_game_moves_an_escaped_token() {
        for profile in ["random", "long", "catch", "stack", "shortcut"] {
            for seed in 0..50 {
                let text = game(profile, seed);
                let mut places = [Place::Start; 8];
                for line in text.lines().skip(1) {
                    let b = line.as_bytes();
                    let token = TOKENS.iter().position(|&t| t == b[0]).unwrap();
                    assert_ne!(places[token], Place::Escaped, "{profile} {seed}: {line}");
                    let fronts = b[2..].iter().filter(|&&s| s == b'F').count();
                    play(&mut places, token, if fronts == 0 { 5 } else { fronts });
                }
            }
        }
    }

    /// Counts, over 200 games of a profile: catches, moves of a stack (2+ tokens), and moves
    /// that start on mo, duet-mo or bang.
    fn features(profile: &str) -> (usize, usize, usize) {
        let (mut catches, mut stacks, mut corners) = (0, 0, 0);
        for seed in 0..200 {
            let text = game(profile, seed);
            let mut places = [Place::Start; 8];
            for line in text.lines().skip(1) {
                let b = line.as_bytes();
                let token = TOKENS.iter().position(|&t| t == b[0]).unwrap();
                let fronts = b[2..].iter().filter(|&&s| s == b'F').count();
                let from = places[token];
                if matches!(from, Place::On(MO | DUET_MO | BANG)) {
                    corners += 1;
                }
                if matches!(from, Place::On(_))
                    && (0..8).any(|o| o != token && places[o] == from && team(o) == team(token))
                {
                    stacks += 1;
                }
                let before: usize = (0..8).filter(|&o| places[o] == Place::Start).count();
                play(&mut places, token, if fronts == 0 { 5 } else { fronts });
                let after: usize = (0..8).filter(|&o| places[o] == Place::Start).count();
                // A catch sends tokens back to START; a move from START removes one from it.
                if after + usize::from(from == Place::Start) > before {
                    catches += 1;
                }
            }
        }
        (catches, stacks, corners)
    }

    #[test]
    fn profiles_steer_games_towards_their_feature() {
        let random = features("random");
        let (catch, stack, shortcut) = (features("catch"), features("stack"), features("shortcut"));
        assert!(
            catch.0 > 2 * random.0,
            "catches: catch {catch:?} vs random {random:?}"
        );
        assert!(
            2 * stack.1 > 3 * random.1,
            "stack moves: stack {stack:?} vs random {random:?}"
        );
        assert!(
            shortcut.2 > 2 * random.2,
            "corner moves: shortcut {shortcut:?} vs random {random:?}"
        );
    }

    #[test]
    fn routes_follow_the_spec() {
        assert_eq!(destination(Place::Start, 5), Place::On(MO));
        assert_eq!(destination(Place::On(MO), 3), Place::On(BANG));
        assert_eq!(destination(Place::On(21), 2), Place::On(23)); // through bang to sok-yut
        assert_eq!(destination(Place::On(DUET_MO), 4), Place::On(27));
        assert_eq!(destination(Place::On(CHAM_MEOKI), 1), Place::Escaped);
        assert_eq!(destination(Place::On(17), 2), Place::On(CHAM_MEOKI));
    }
}
