//! Yut Nori games: `N` turns `T SSSS`, never moving an escaped token.
//!
//! The generator plays each game on the reference engine's model ([`reference::play`] and
//! [`reference::destination`]) as it writes it, so it knows which tokens are still playable
//! and can steer games towards the situations a profile is about. Invariant: every written game
//! is valid (N in 1..=100, no turn moves an escaped token); a game whose eight tokens all
//! escaped ends there.

use gamebench_generators::{Dice, FileId, GenError, Generator, Profile, range_option};

use super::board::{Place, Station, TOKEN_COUNT, Token};
use super::{FinalPlaces, MAX_TURNS, STICKS, Throw, Yut, reference};
use crate::game::Solver;

/// Yut's own `gen` options.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct YutArgs {
    /// Number of turns, N or A-B (1-100).
    #[arg(long)]
    pub moves: Option<String>,
}

const RANDOM: &str = "random";
const LONG: &str = "long";
const CATCH: &str = "catch";
const STACK: &str = "stack";
const SHORTCUT: &str = "shortcut";

impl Generator for Yut {
    type Args = YutArgs;
    type Tools = Solver<Yut>;
    const PROFILES: &'static [Profile] = &[
        Profile::new(
            RANDOM,
            "1-100 turns (or --moves), uniformly random throws and playable tokens",
        ),
        Profile::new(LONG, "100 turns (or --moves), random otherwise"),
        Profile::new(CATCH, "prefers moves that land on opponents"),
        Profile::new(STACK, "prefers moves that join own tokens and move stacks"),
        Profile::new(
            SHORTCUT,
            "steers tokens onto mo, duet-mo and bang and moves them from there",
        ),
    ];

    fn generate(
        file: &FileId<'_>,
        args: &YutArgs,
        dice: &mut Dice,
        _solver: &Solver<Yut>,
    ) -> Result<String, GenError> {
        let max = MAX_TURNS as u64;
        let default_turns = if file.profile == LONG {
            (max, max)
        } else {
            (1, max)
        };
        let (lo, hi) = range_option("--moves", args.moves.as_deref(), default_turns, (1, max))?;
        let turns = dice.range(lo, hi) as usize;
        let mut places: FinalPlaces = [Place::Start; TOKEN_COUNT];
        let mut lines = Vec::with_capacity(turns);
        for _ in 0..turns {
            let playable: Vec<Token> = (0..TOKEN_COUNT)
                .map(Token::from_index)
                .filter(|t| places[t.index()] != Place::Escaped)
                .collect();
            if playable.is_empty() {
                break; // every token escaped: the game is over, a valid input stops here
            }
            let sides: Vec<u8> = (0..STICKS)
                .map(|_| if dice.chance(1, 2) { b'F' } else { b'B' })
                .collect();
            let steps = Throw::parse(&sides).expect("four sides B/F").steps();
            let weights: Vec<u64> = playable
                .iter()
                .map(|&t| weight(file.profile, &places, t, steps))
                .collect();
            let token = playable[dice.weighted(&weights)];
            reference::play(&mut places, token, steps);
            lines.push(format!(
                "{} {}",
                token.letter() as char,
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
}

/// The station a token stands on, `None` at START or escaped.
fn station(place: Place) -> Option<Station> {
    match place {
        Place::On(station) => Some(station),
        _ => None,
    }
}

/// How much a profile likes moving `token` by `steps` now (every playable token keeps weight
/// at least 1, so every game stays possible).
fn weight(profile: &str, places: &FinalPlaces, token: Token, steps: u8) -> u64 {
    let from = places[token.index()];
    let to = reference::destination(station(from), steps);
    let others_at = |place: Place, same_team: bool| {
        (0..TOKEN_COUNT)
            .filter(|&o| {
                o != token.index()
                    && places[o] == place
                    && (Token::from_index(o).team() == token.team()) == same_team
            })
            .count() as u64
    };
    // Tokens at START or escaped are never together: only stations count.
    let others_on = |place: Place, same_team: bool| {
        if station(place).is_some() {
            others_at(place, same_team)
        } else {
            0
        }
    };
    match profile {
        CATCH => 1 + 20 * others_on(to, false),
        STACK => 1 + 50 * others_on(from, true) + 50 * others_on(to, true),
        SHORTCUT => 1 + if is_corner(from) { 30 } else { 0 } + if is_corner(to) { 10 } else { 0 },
        _ => 1,
    }
}

/// Mo, duet-mo or bang: the stations where a move takes a shortcut.
fn is_corner(place: Place) -> bool {
    matches!(
        place,
        Place::On(Station::Mo | Station::DuetMo | Station::Bang)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(profile: &str, seed: u64) -> String {
        crate::game::file::<Yut>(profile, &YutArgs::default(), seed, 0).unwrap()
    }

    /// Replays a generated game on the model, calling `each(places before, token, steps)`;
    /// asserts that no turn moves an escaped token.
    fn replay(text: &str, mut each: impl FnMut(&FinalPlaces, Token, u8)) {
        let mut places: FinalPlaces = [Place::Start; TOKEN_COUNT];
        for line in text.lines().skip(1) {
            let b = line.as_bytes();
            let token = Token::from_letter(b[0]).unwrap();
            assert_ne!(places[token.index()], Place::Escaped, "{line}");
            let steps = Throw::parse(&b[2..]).unwrap().steps();
            each(&places, token, steps);
            reference::play(&mut places, token, steps);
        }
    }

    #[test]
    fn same_seed_same_bytes() {
        assert_eq!(game(RANDOM, 5), game(RANDOM, 5));
        assert_ne!(game(RANDOM, 5), game(RANDOM, 6));
    }

    #[test]
    fn long_games_have_100_turns_unless_everyone_escaped() {
        for seed in 0..20 {
            let text = game(LONG, seed);
            let n: usize = text.lines().next().unwrap().parse().unwrap();
            assert_eq!(n, text.lines().count() - 1);
            assert!(n <= 100);
        }
    }

    #[test]
    fn no_game_moves_an_escaped_token() {
        for profile in Yut::PROFILES {
            for seed in 0..50 {
                replay(&game(profile.name, seed), |_, _, _| {});
            }
        }
    }

    /// Counts, over 200 games of a profile: catches, moves of a stack (2+ tokens), and moves
    /// that start on mo, duet-mo or bang.
    fn features(profile: &str) -> (usize, usize, usize) {
        let (mut catches, mut stacks, mut corners) = (0, 0, 0);
        for seed in 0..200 {
            replay(&game(profile, seed), |places, token, steps| {
                let from = places[token.index()];
                corners += usize::from(is_corner(from));
                let stacked = station(from).is_some()
                    && (0..TOKEN_COUNT).any(|o| {
                        o != token.index()
                            && places[o] == from
                            && Token::from_index(o).team() == token.team()
                    });
                stacks += usize::from(stacked);
                let at_start = |p: &FinalPlaces| p.iter().filter(|&&x| x == Place::Start).count();
                let mut after = *places;
                reference::play(&mut after, token, steps);
                // A catch sends tokens back to START; a move from START removes one from it.
                if at_start(&after) + usize::from(from == Place::Start) > at_start(places) {
                    catches += 1;
                }
            });
        }
        (catches, stacks, corners)
    }

    #[test]
    fn profiles_steer_games_towards_their_feature() {
        let random = features(RANDOM);
        let (catch, stack, shortcut) = (features(CATCH), features(STACK), features(SHORTCUT));
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
    fn generated_games_parse_and_replay() {
        for seed in 0..20 {
            let text = game(CATCH, seed);
            let replay = super::super::parse_replay(text.as_bytes()).unwrap();
            assert!(reference::solve(&replay, &Default::default()).is_ok());
        }
    }
}
