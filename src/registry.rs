//! The one place that lists the games and their engines.
//!
//! To add a game: implement [`crate::game::Rules`] and its generator
//! ([`gamebench_generators::Generator`]) in `src/games/<game>/` and add one line to [`GAMES`]
//! (see "Adding a game" in README.md). Its engines, profiles and `gen` options are listed by
//! the game itself; the CLI builds its commands and help from this list.

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
    fn every_game_has_a_reference_engine_and_a_valid_default() {
        for game in GAMES {
            let engines = game.engine_names();
            assert_eq!(engines.first(), Some(&"reference"), "{}", game.name());
            assert!(engines.contains(&game.default_engine()), "{}", game.name());
            let mut unique = engines.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(
                unique.len(),
                engines.len(),
                "{}: duplicate engine",
                game.name()
            );
        }
    }
}
