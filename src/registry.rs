//! The one place that lists the games and their engines.
//!
//! To add a game: implement [`crate::game::Rules`] and its generator
//! ([`gamebench_generators::Generator`]) in `src/games/<game>/` and add one line to [`GAMES`]
//! (see "Adding a game" in docs/contributing.md). Its engines, profiles and `gen` options are listed by
//! the game itself; the CLI builds its commands and help from this list. Registering a game
//! checks its engine table at compile time.

use crate::game::{Game, Registered};
use crate::games;

/// Every game, in the order the CLI lists them.
pub static GAMES: &[&dyn Game] = &[
    &Registered::<games::yut::Yut>::new(),
    &Registered::<games::linkpop::LinkPop>::new(),
    &Registered::<games::samegame::SameGame>::new(),
    &Registered::<games::vexed::Vexed>::new(),
];

/// The game named `name` (its command-line name, e.g. `yut`).
pub fn find(name: &str) -> Option<&'static dyn Game> {
    GAMES.iter().copied().find(|g| g.name() == name)
}

/// Command-line names of all games.
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_resolves_its_reference_and_default_engines_by_name() {
        // The engine tables themselves are checked at compile time (`Registered::new`).
        for &game in GAMES {
            assert_eq!(game.reference().name(), crate::game::REFERENCE_ENGINE);
            assert!(game.reference().is_reference());
            let default = game.default_engine();
            assert_eq!(
                game.engine(default.name()),
                Some(default),
                "{}",
                game.name()
            );
            assert!(game.engine("no-such-engine").is_none());
        }
    }
}
