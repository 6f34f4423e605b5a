//! The generator interface of a game, erased: [`GameGenerator`] is what a registered game's
//! generator looks like to the `gen`, `stress`, `hunt` and `sweep` commands.
//!
//! Each game's generator lives in its folder (`src/games/<game>/generator.rs`): the game type
//! implements [`gamebench_generators::Generator`] with its profiles and its own options, and
//! is lent a [`Solver`] (one of its own engines under a budget) to filter candidates by their
//! answer. Options are parsed by the game's own `clap::Args` (the generators crate's contract)
//! and carried type-erased ([`GameOptions`]); only the game that parsed them reads them back.

use std::any::Any;
use std::time::Instant;

use clap::{ArgMatches, Command};
use gamebench_generators::{self as generators, FileId, GenError, Generator, Profile};

use super::budget::Budget;
use super::rules::{CaseError, Engine, Outcome, Reading, Rules, Verdict};

/// An engine of game `R` under a budget: what gamebench lends `R`'s generator (the engine that
/// writes the expected outputs), e.g. to keep only cases whose answer has a wanted size.
///
/// With a deadline (a command's `--time`), every solve runs under the time left, and a
/// generator that draws candidates until one fits asks [`Solver::expired`] between them, so
/// generation never outlasts the command.
pub struct Solver<R: Rules> {
    engine: &'static Engine<R::Case, R::Answer>,
    budget: Budget,
    deadline: Option<Instant>,
    /// How the generated input will be read: a generator writes nothing whose meaning depends
    /// on a variant the reading does not follow (see [`Solver::reading`]).
    reading: Reading,
}

impl<R: Rules> Solver<R> {
    pub fn new(engine: &'static Engine<R::Case, R::Answer>, budget: Budget) -> Self {
        Solver {
            engine,
            budget,
            deadline: None,
            reading: Reading::STATEMENT,
        }
    }

    /// The same solver, lent to a generator whose input will be read under `reading`.
    pub fn read_as(self, reading: Reading) -> Self {
        Solver { reading, ..self }
    }

    /// How the generated input will be read (the statement's reading unless a command chose a
    /// variant): e.g. SameGame writes no selection `0 c` when any `0 c` ends the list.
    pub fn reading(&self) -> &Reading {
        &self.reading
    }

    /// The same solver, giving up at `deadline`.
    pub fn until(self, deadline: Option<Instant>) -> Self {
        Solver { deadline, ..self }
    }

    /// Whether the deadline has passed.
    pub fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The engine's outcome on `case` (under the time left before the deadline, if any: a
    /// search cut by it ends with [`Verdict::Budget`]).
    pub fn solve(&self, case: &R::Case) -> Result<Outcome<R::Answer>, CaseError> {
        let mut budget = self.budget.clone();
        if let Some(deadline) = self.deadline {
            let left = deadline.saturating_duration_since(Instant::now());
            budget.time_limit = Some(budget.time_limit.map_or(left, |t| t.min(left)));
        }
        (self.engine.solve)(case, &budget)
    }

    /// [`Rules::score`] of the engine's answer when it solves `case`; `None` when it fails,
    /// proves there is no answer, or runs out of budget.
    pub fn score(&self, case: &R::Case) -> Option<u64> {
        let outcome = self.solve(case).ok()?;
        (outcome.verdict == Verdict::Solved).then_some(())?;
        R::score(&outcome.answer)
    }
}

/// A game's own generator options, parsed, type-erased (read back by the same game only).
pub struct GameOptions(pub(super) Box<dyn Any + Send + Sync>);

/// Object-safe view of a game's generator, as [`Game::generator`] returns it.
pub trait GameGenerator: Send + Sync {
    /// The profiles, in the order `gamebench list` shows them.
    fn profiles(&self) -> &'static [Profile];
    /// Adds the game's own options to `cmd`.
    fn augment_args(&self, cmd: Command) -> Command;
    /// Reads the game's own options from matches of a command built by `augment_args`.
    fn options(&self, matches: &ArgMatches) -> Result<GameOptions, clap::Error>;
    /// Reads the game's own options from words as typed on `gen` (`["--size", "6x6"]`):
    /// an option the game does not have is refused as `gen` would refuse it.
    fn parse_options(
        &self,
        game: &'static str,
        words: &[String],
    ) -> Result<GameOptions, clap::Error> {
        let command = self.augment_args(Command::new(game)).no_binary_name(true);
        self.options(&command.try_get_matches_from(words)?)
    }
    /// Writes the judge input of `file` with `options` (from this game's `options`), lent
    /// what `lent` says: one of the game's engines under a budget, the deadline it gives up
    /// at (see [`Solver::expired`]: a generator that needs the engine fails once it has
    /// passed) and the reading the input will be read under (see [`Solver::reading`]).
    fn generate(
        &self,
        file: &FileId<'_>,
        options: &GameOptions,
        lent: &Lent<'_>,
    ) -> Result<String, GenError>;
}

/// What a generator is lent, as a value: the engine (named, one of the game's) that solves
/// its candidates under `budget`, the `deadline` it gives up at (a command's `--time`), and
/// the `reading` its input will be read under. [`Lent::new`] gives the judge's reading and no
/// deadline; a command states what differs.
#[derive(Debug, Clone)]
pub struct Lent<'a> {
    pub engine: &'a str,
    pub budget: Budget,
    pub deadline: Option<Instant>,
    pub reading: Reading,
}

impl<'a> Lent<'a> {
    /// `engine` under `budget`, no deadline, the statement's reading.
    pub fn new(engine: &'a str, budget: Budget) -> Self {
        Lent {
            engine,
            budget,
            deadline: None,
            reading: Reading::STATEMENT,
        }
    }

    /// The same, giving up at `deadline`.
    pub fn until(self, deadline: Option<Instant>) -> Self {
        Lent { deadline, ..self }
    }

    /// The same, for an input read under `reading`.
    pub fn read_as(self, reading: Reading) -> Self {
        Lent { reading, ..self }
    }
}

/// File `index` of a corpus of game `R`, generated with typed options and `R`'s default engine
/// lent without a budget (for tests and benches; the command goes through [`run`]).
pub fn file<R>(profile: &str, args: &R::Args, seed: u64, index: u64) -> Result<String, GenError>
where
    R: Rules + Generator<Tools = Solver<R>>,
{
    let engine = engine_of::<R>(R::DEFAULT_ENGINE);
    let file = FileId {
        game: R::NAME,
        profile,
        seed,
        index,
    };
    generators::generate::<R>(&file, args, &Solver::new(engine, Budget::UNLIMITED))
}

/// The engine of `R` named `name`, which was resolved for `R` before.
pub(super) fn engine_of<R: Rules>(name: &str) -> &'static Engine<R::Case, R::Answer> {
    R::ENGINES
        .iter()
        .find(|e| e.name == name)
        .expect("the engine was resolved for this game")
}
