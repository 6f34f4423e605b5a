//! Bad input never panics, for every registered game and engine: arbitrary bytes, every
//! truncation of the bundled samples, and single-byte corruptions of them. Parsing may report
//! errors; solving a case the parser accepted may report errors; nothing may panic, and every
//! error names a line inside the input.

use std::time::Duration;

use gamebench::game::{Budget, Game};
use gamebench::registry;
use proptest::prelude::*;

use crate::common;
use common::sample_inputs;

/// Small budgets: corrupted Vexed puzzles can be unsolvable and large.
const BUDGET: Budget = Budget {
    max_states: Some(20_000),
    time_limit: Some(Duration::from_millis(200)),
    memory: None,
    threads: 1,
    max_moves: None,
    stop: None,
    scratch: None,
};

/// Parses `input` and runs every engine on every readable case; panics propagate to the test.
fn exercise(game: &'static dyn Game, input: &[u8]) {
    let lines = input.split(|&b| b == b'\n').count().max(1);
    for (i, parsed) in game
        .parse(input, &gamebench::game::Reading::STATEMENT)
        .into_iter()
        .enumerate()
    {
        match parsed.case {
            Err(e) => assert!(
                e.line >= 1 && e.line <= lines + 1,
                "{}: line {} of {lines}",
                game.name(),
                e.line
            ),
            Ok(case) => {
                for engine in game.engines() {
                    let solved = engine.solve(i + 1, case.as_ref(), &BUDGET);
                    if let Err(e) = solved {
                        assert!(
                            e.line >= 1 && e.line <= lines + 1,
                            "{}: line {} of {lines}",
                            game.name(),
                            e.line
                        );
                    }
                }
            }
        }
    }
}

/// The `.in` files directly under `corpora/<game>/` (the samples and hand-made cases).
fn samples(game: &str) -> Vec<Vec<u8>> {
    sample_inputs(game)
        .into_iter()
        .filter(|p| {
            std::fs::metadata(p)
                .map(|m| m.len() < 20_000)
                .unwrap_or(false)
        })
        .map(|p| std::fs::read(p).unwrap())
        .collect()
}

#[test]
fn every_truncation_of_every_sample_is_handled() {
    for game in registry::GAMES {
        for sample in samples(game.name()) {
            for end in 0..=sample.len() {
                exercise(*game, &sample[..end]);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        for game in registry::GAMES {
            exercise(*game, &bytes);
        }
    }

    #[test]
    fn corrupted_samples_never_panic(position in any::<prop::sample::Index>(), byte in any::<u8>(), pick in any::<prop::sample::Index>()) {
        for game in registry::GAMES {
            let all = samples(game.name());
            if all.is_empty() {
                continue;
            }
            let mut sample = all[pick.index(all.len())].clone();
            if sample.is_empty() {
                continue;
            }
            let at = position.index(sample.len());
            sample[at] = byte;
            exercise(*game, &sample);
        }
    }
}
