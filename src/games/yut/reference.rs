//! The reference engine: the statement followed literally.
//!
//! The route is chosen by the station a move starts on; the token then walks one station per
//! step along that route, and one step past cham-meoki escapes. Stacks and catches are found by
//! looking at every token. Simple and slow on purpose: it is the oracle for [`super::table`],
//! and the model the generator plays its games on ([`play`]).

use super::board::{
    BANG_ROUTE, DUET_MO_ROUTE, MO_ROUTE, OUTER_ROUTE, Place, Station, TOKEN_COUNT, Token,
};
use super::{FinalPlaces, Replay, escaped_token_error};
use crate::game::{Budget, CaseError, Outcome};

/// The route a move starting on `from` follows, and the position of `from` on it
/// (`None` = START, just before the route's first station).
fn route_from(from: Option<Station>) -> (&'static [Station], Option<usize>) {
    use Station::*;
    let Some(station) = from else {
        return (OUTER_ROUTE, None);
    };
    let route = match station {
        // Corners choose the short way; stations on a diagonal keep their diagonal.
        Mo | MoDo | MoGae | SokYut | SokMo => MO_ROUTE,
        DuetMo | DuetModo | DuetMogae => DUET_MO_ROUTE,
        Bang | Saryeo | Anchi => BANG_ROUTE,
        _ => OUTER_ROUTE,
    };
    let position = route.iter().position(|&s| s == station);
    debug_assert!(position.is_some(), "{station:?} is on its own route");
    (route, position)
}

/// Where a token starting on `from` (`None` = START) lands after `steps` steps.
pub fn destination(from: Option<Station>, steps: u8) -> Place {
    let (route, mut position) = route_from(from);
    for _ in 0..steps {
        let next = position.map_or(0, |p| p + 1);
        if next == route.len() {
            // One step past cham-meoki, the last station of every route.
            return Place::Escaped;
        }
        position = Some(next);
    }
    position.map_or(Place::Start, |p| Place::On(route[p]))
}

pub fn solve(replay: &Replay, _budget: &Budget) -> Result<Outcome<FinalPlaces>, CaseError> {
    let mut places: FinalPlaces = [Place::Start; TOKEN_COUNT];
    for turn in &replay.turns {
        if places[turn.token.index()] == Place::Escaped {
            return Err(escaped_token_error(turn));
        }
        play(&mut places, turn.token, turn.throw.steps());
    }
    Ok(Outcome::solved(places, replay.turns.len() as u64))
}

/// Moves `mover` (not escaped) by `steps`: a token on the board carries its own team's tokens
/// on the same station (from START it moves alone), and opponents on the destination go back to
/// START.
pub(crate) fn play(places: &mut FinalPlaces, mover: Token, steps: u8) {
    let from = match places[mover.index()] {
        Place::On(station) => Some(station),
        Place::Start => None,
        Place::Escaped => unreachable!("an escaped token never moves"),
    };
    let to = destination(from, steps);
    let movers: Vec<usize> = match from {
        None => vec![mover.index()],
        Some(station) => (0..TOKEN_COUNT)
            .filter(|&i| {
                places[i] == Place::On(station) && Token::from_index(i).team() == mover.team()
            })
            .collect(),
    };
    for i in movers {
        places[i] = to;
    }
    // Catch: opponents on the destination go back to START.
    if let Place::On(_) = to {
        for (i, place) in places.iter_mut().enumerate() {
            if *place == to && Token::from_index(i).team() != mover.team() {
                *place = Place::Start;
            }
        }
    }
}
