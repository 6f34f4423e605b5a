//! Shrinking a failing input: a game-aware delta-debugging pass over typed cases, not bytes.
//!
//! A game lists its own candidate reductions of one case ([`Shrink::reductions`]: remove
//! selections or turns, crop rows and columns, remove blocks or pairs, lower numbers) in its
//! folder (`src/games/<game>/shrink.rs`); the game contract erases that into a [`CaseEditor`]
//! the generic code here reaches through [`crate::game::Game::editor`]. [`shrink`] knows no game: it
//! removes whole cases of a file, replaces one case by one of its reductions, and asks an
//! [`Oracle`] which candidates still fail, until no single step does (a fixpoint).
//!
//! Invariants:
//! - every candidate is a valid input of the game: it is written with the game's own input
//!   writer ([`Shrink::write_input`]), parsed back with the game's parser into exactly as many
//!   cases, passes the game's strict validator (`gamebench validate`: format, bounds and the
//!   statement's promises) and each case is [`Shrink::admissible`] (by default: the reference
//!   engine plays it without error; Vexed: solvable within the judge's move limit)
//!   ([`Input::is_fair`]);
//! - every accepted step makes the input strictly smaller in the order of [`FileSize`] (fewer
//!   cases, then fewer cells, then fewer moves, then smaller numbers), so shrinking ends.

use crate::game::{AnyCase, FileSize, Game, ParsedCase, Reading};
#[cfg(doc)]
use crate::game::{CaseEditor, Shrink};

/// A judge input and its cases as the game's parser reads them under its reading, all
/// readable.
pub struct Input {
    pub text: String,
    pub cases: Vec<ParsedCase>,
    /// How the game read it; every input shrunk from it is read the same way.
    pub reading: Reading,
}

impl Input {
    /// Reads `text` with `game`'s parser under `reading`; `None` unless it yields at least
    /// one case and every case is readable.
    pub fn read(game: &dyn Game, text: String, reading: &Reading) -> Option<Input> {
        let cases = game.parse(text.as_bytes(), reading);
        (!cases.is_empty() && cases.iter().all(|c| c.case.is_ok())).then(|| Input {
            text,
            cases,
            reading: reading.clone(),
        })
    }

    /// Whether a judge could give this input: the game's strict validator finds nothing
    /// (format, bounds, the statement's promises such as Vexed's solvability within 11 moves)
    /// and every case is [`Shrink::admissible`]. What `stress` and `hunt` write is always fair.
    pub fn is_fair(&self, game: &dyn Game) -> bool {
        game.validate(self.text.as_bytes()).is_valid()
            && self
                .typed()
                .into_iter()
                .all(|c| game.editor().admissible(c))
    }

    /// The typed cases (every one readable, see [`Input::read`]).
    pub fn typed(&self) -> Vec<&AnyCase> {
        self.cases
            .iter()
            .filter_map(|c| c.case.as_ref().ok().map(|b| b.as_ref()))
            .collect()
    }

    /// The size of the whole input.
    pub fn size(&self, game: &dyn Game) -> FileSize {
        self.typed().into_iter().fold(FileSize::default(), |s, c| {
            s.with_case(game.editor().size(c))
        })
    }

    /// A short description: `2 cases, 12 cells, 3 selections`.
    pub fn describe(&self, game: &dyn Game) -> String {
        let size = self.size(game);
        let cases = if size.cases == 1 { "case" } else { "cases" };
        let sizes: Vec<&str> = self.cases.iter().map(|c| c.size.as_str()).collect();
        // Every game's noun is a plural ending in `s`: one move takes the singular.
        let noun = game.editor().moves_noun();
        let noun = if size.moves == 1 {
            noun.strip_suffix('s').unwrap_or(noun)
        } else {
            noun
        };
        // A game without a board (Yut) has no cells to tell.
        let cells = if size.cells == 0 {
            String::new()
        } else {
            format!(", {} cells", size.cells)
        };
        format!(
            "{} {cases} ({}){cells}, {} {noun}",
            size.cases,
            sizes.join(" "),
            size.moves,
        )
    }
}

/// Decides which candidates still fail the way the original did.
pub trait Oracle {
    /// The position of the first of `candidates` (in order) that still fails, if any. An
    /// oracle may run them in one batch, but must confirm the one it returns on its own.
    fn first_failing(&mut self, candidates: &[Input]) -> Option<usize>;

    /// Whether the shrink must stop now (a deadline passed, a signal came): it then ends with
    /// the smallest failing input found so far. Asked before each batch of candidates, and
    /// while they are made (a game's fairness check may take a while per candidate).
    fn halted(&self) -> bool {
        false
    }
}

/// Where a shrink stands, as its progress callback sees it after each batch of candidates.
pub struct Step<'a> {
    /// Accepted steps so far.
    pub steps: usize,
    /// Candidates handed to the oracle so far.
    pub tried: usize,
    /// The smallest failing input so far.
    pub current: &'a Input,
}

/// An oracle from a plain predicate on one input (tests, and tools with their own notion of
/// failure).
pub struct Predicate<F>(pub F);

impl<F: FnMut(&Input) -> bool> Oracle for Predicate<F> {
    fn first_failing(&mut self, candidates: &[Input]) -> Option<usize> {
        candidates.iter().position(|c| (self.0)(c))
    }
}

/// Candidates handed to the oracle at once (a batch for an external program: one process).
pub const CHUNK: usize = 32;

/// How a shrink went.
pub struct Shrunk {
    /// The smallest failing input found.
    pub input: Input,
    /// Accepted steps.
    pub steps: usize,
    /// Candidates handed to the oracle.
    pub tried: usize,
    /// Whether it reached a fixpoint (else the oracle halted it on the way).
    pub complete: bool,
}

/// The file `cases` of `game` as an input read under `reading`, if it is a valid and
/// admissible one.
pub fn candidate(game: &dyn Game, cases: &[&AnyCase], reading: &Reading) -> Option<Input> {
    let editor = game.editor();
    if cases.is_empty() || cases.len() > editor.max_cases() {
        return None;
    }
    let input = Input::read(game, editor.write_input(cases), reading)?;
    (input.cases.len() == cases.len() && input.is_fair(game)).then_some(input)
}

/// The raw candidate files of one step from `current`: without one of its cases, then with
/// one case replaced by one of its reductions. Lazy: a game may offer thousands.
fn raw_candidates<'a>(
    game: &'a dyn Game,
    current: &'a [&'a AnyCase],
    reading: &'a Reading,
) -> impl Iterator<Item = Vec<Box<AnyCase>>> + 'a {
    let n = current.len();
    // Dropping a case is a step only when another is left.
    let without = (0..if n > 1 { n } else { 0 }).map(|skip| (skip, None));
    let replaced = (0..n).flat_map(move |i| {
        game.editor()
            .reductions(current[i])
            .into_iter()
            .map(move |r| (i, Some(r)))
    });
    without
        .chain(replaced)
        .filter_map(move |(at, replacement)| {
            let mut file: Vec<Box<AnyCase>> = Vec::with_capacity(n);
            let mut replacement = replacement;
            for (i, case) in current.iter().enumerate() {
                if i != at {
                    file.push(reborrow(game, *case, reading)?);
                } else if let Some(r) = replacement.take() {
                    file.push(r);
                }
            }
            Some(file)
        })
}

/// A fresh copy of `case`, parsed back from the game's own writer (cases are not `Clone`
/// behind `Any`). A valid case always reads back (tested for every profile of every game); if
/// one did not, its candidates are skipped rather than the shrink stopped.
fn reborrow(game: &dyn Game, case: &AnyCase, reading: &Reading) -> Option<Box<AnyCase>> {
    let text = game.editor().write_input(&[case]);
    game.parse(text.as_bytes(), reading)
        .into_iter()
        .next()
        .and_then(|p| p.case.ok())
}

/// Shrinks `original` (which fails) with `oracle` until no single step keeps it failing.
pub fn shrink(game: &dyn Game, original: Input, oracle: &mut dyn Oracle) -> Shrunk {
    shrink_with(game, original, oracle, &mut |_| {})
}

/// [`shrink`], telling `progress` where it stands after each batch of candidates.
pub fn shrink_with(
    game: &dyn Game,
    original: Input,
    oracle: &mut dyn Oracle,
    progress: &mut dyn FnMut(&Step<'_>),
) -> Shrunk {
    let mut current = original;
    let (mut steps, mut tried) = (0, 0);
    let mut complete = true;
    'step: loop {
        let size = current.size(game);
        let cases = current.typed();
        let mut raw = raw_candidates(game, &cases, &current.reading);
        loop {
            let mut chunk = Vec::with_capacity(CHUNK);
            for file in raw.by_ref() {
                if oracle.halted() {
                    complete = false;
                    break 'step;
                }
                let refs: Vec<&AnyCase> = file.iter().map(|c| c.as_ref()).collect();
                if let Some(input) = candidate(game, &refs, &current.reading)
                    && input.size(game) < size
                {
                    chunk.push(input);
                    if chunk.len() == CHUNK {
                        break;
                    }
                }
            }
            if chunk.is_empty() {
                break 'step;
            }
            if oracle.halted() {
                complete = false;
                break 'step;
            }
            tried += chunk.len();
            if let Some(i) = oracle.first_failing(&chunk) {
                drop(raw);
                current = chunk.swap_remove(i);
                steps += 1;
                progress(&Step {
                    steps,
                    tried,
                    current: &current,
                });
                continue 'step;
            }
            progress(&Step {
                steps,
                tried,
                current: &current,
            });
        }
    }
    Shrunk {
        input: current,
        steps,
        tried,
        complete,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Budget, Lent};

    use crate::registry;

    /// Whether no single step from `input` gives a valid, admissible, smaller input.
    fn is_fixpoint(game: &dyn Game, input: &Input) -> bool {
        let size = input.size(game);
        let cases = input.typed();
        raw_candidates(game, &cases, &input.reading).all(|file| {
            let refs: Vec<&AnyCase> = file.iter().map(|c| c.as_ref()).collect();
            candidate(game, &refs, &input.reading).is_none_or(|c| c.size(game) >= size)
        })
    }

    /// The first generated file of `profile` with default options (but 3 cases per file
    /// where the game has the option: enough, and fast).
    fn generated(game: &'static dyn Game, profile: &str) -> Input {
        let command = game.generator().augment_args(clap::Command::new("gen"));
        let has_cases = command.get_arguments().any(|a| a.get_id() == "cases");
        let words: &[&str] = if has_cases {
            &["gen", "--cases", "3"]
        } else {
            &["gen"]
        };
        let matches = command.try_get_matches_from(words).unwrap();
        let options = game.generator().options(&matches).unwrap();
        let file = gamebench_generators::FileId {
            game: game.name(),
            profile,
            seed: 3,
            index: 0,
        };
        let lent = Lent::new(game.default_engine().name(), Budget::UNLIMITED);
        let text = game.generator().generate(&file, &options, &lent).unwrap();
        Input::read(game, text, &Reading::STATEMENT).unwrap()
    }

    #[test]
    fn the_input_writer_is_the_parser_inverse_on_every_profile() {
        for &game in registry::GAMES {
            for profile in game.generator().profiles() {
                let input = generated(game, profile.name);
                let cases = input.typed();
                let max = game.editor().max_cases().min(cases.len());
                let written = game.editor().write_input(&cases[..max]);
                let again = Input::read(game, written.clone(), &Reading::STATEMENT).unwrap();
                assert_eq!(again.cases.len(), max, "{} {}", game.name(), profile.name);
                assert_eq!(
                    game.editor().write_input(&again.typed()),
                    written,
                    "{} {}",
                    game.name(),
                    profile.name
                );
                for (a, b) in cases.iter().zip(again.typed()) {
                    assert_eq!(game.editor().size(*a), game.editor().size(b));
                }
            }
        }
    }

    #[test]
    fn shrinking_what_always_fails_reaches_an_admissible_fixpoint_in_every_game() {
        for &game in registry::GAMES {
            let profile = game.generator().profiles()[0].name;
            let cases = generated(game, profile);
            // Two cases where the game allows it, so dropping a case is a step too.
            let keep = cases.cases.len().min(2).min(game.editor().max_cases());
            let start = candidate(game, &cases.typed()[..keep], &Reading::STATEMENT).unwrap();
            let before = start.size(game);
            let shrunk = shrink(game, start, &mut Predicate(|_: &Input| true));
            let after = shrunk.input.size(game);
            assert!(after <= before, "{}", game.name());
            assert_eq!(after.cases, 1, "{}: {}", game.name(), shrunk.input.text);
            assert!(
                shrunk
                    .input
                    .typed()
                    .iter()
                    .all(|c| game.editor().admissible(*c)),
                "{}",
                game.name()
            );
            assert!(
                is_fixpoint(game, &shrunk.input),
                "{}: {}",
                game.name(),
                shrunk.input.text
            );
        }
    }
}
