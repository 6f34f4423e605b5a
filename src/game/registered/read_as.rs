//! [`ReadAs`]: a game whose inputs are read under a chosen [`Reading`] (known variants of its
//! statement, e.g. SameGame's `--zero-pair ends-list`), everything else being the game's own.
//!
//! Invariant: only the readers differ (`parse`, `cases` follow the reading); engines, checker,
//! validator, generator and editor are the inner game's, so a case parsed under the reading
//! is solved, checked, shrunk and written as any case of the game. Engine ids are the inner
//! game's table, so an [`super::EngineRef`] made through a `ReadAs` solves with the same engine.

use std::any::Any;
use std::marker::PhantomData;
use std::time::{Duration, Instant};

use clap::{ArgMatches, Command};
use gamebench_generators::{FileId, GenError, Generator, Profile};

use super::Registered;
use crate::game::budget::Budget;
use crate::game::edit::CaseEditor;
use crate::game::edit::Shrink;
use crate::game::erased::{EngineId, Game, ParsedCase, ParsedStream, TimedAnswer};
use crate::game::generator::Solver;
use crate::game::generator::{GameGenerator, GameOptions};
use crate::game::output::BlockStream;
use crate::game::rules::{CaseError, CheckResult, MAX_VARIANTS, Reading, Rules, Variant};
use crate::status::Rejected;
use crate::validate::Validation;

/// Game `R` read under a reading other than the statement's: a set of its variants (bit `i`
/// of `mask` chooses `R::VARIANTS[i]`). Reached through `<dyn Game>::read_as` ([`Game::under`]).
pub(crate) struct ReadAs<R: Rules> {
    mask: usize,
    rules: PhantomData<fn() -> R>,
}

impl<R: Rules> Clone for ReadAs<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R: Rules> Copy for ReadAs<R> {}

/// The sets of variants a game may choose from ([`MAX_VARIANTS`] variants).
const READINGS: usize = 1 << MAX_VARIANTS;

impl<R: Rules> ReadAs<R> {
    /// Every reading of `R`, by mask: built at compile time, so that `&ReadAs::<R>::ALL[mask]`
    /// is a `&'static dyn Game` (engine references hold one) without allocating.
    pub(super) const ALL: [ReadAs<R>; READINGS] = {
        let mut all = [ReadAs {
            mask: 0,
            rules: PhantomData,
        }; READINGS];
        let mut mask = 0;
        while mask < READINGS {
            all[mask].mask = mask;
            mask += 1;
        }
        all
    };
}

/// What a game needs to be registered ([`Registered`] is then a [`Game`]).
pub(crate) trait Registrable:
    Sized + Rules + Shrink + Generator<Tools = Solver<Self>>
{
}

impl<R: Rules + Shrink + Generator<Tools = Solver<R>>> Registrable for R {}

impl<R: Registrable> ReadAs<R> {
    /// The game under its statement's reading.
    fn inner(&self) -> &'static dyn Game {
        &Registered::<R>::GAME
    }

    /// The reading this object stands for.
    fn reading(&self) -> Reading {
        Reading::of_mask(R::VARIANTS, self.mask)
    }
}

impl<R: Registrable> Game for ReadAs<R> {
    fn name(&self) -> &'static str {
        self.inner().name()
    }
    fn title(&self) -> &'static str {
        self.inner().title()
    }
    fn work_unit(&self) -> &'static str {
        self.inner().work_unit()
    }
    fn separator(&self) -> &'static str {
        self.inner().separator()
    }
    fn engine_count(&self) -> usize {
        self.inner().engine_count()
    }
    fn engine_info(&self, id: EngineId) -> (&'static str, &'static str) {
        self.inner().engine_info(id)
    }
    fn default_engine_id(&self) -> EngineId {
        self.inner().default_engine_id()
    }
    fn parse(&self, input: &[u8]) -> Vec<ParsedCase> {
        self.inner().parse_as(input, &self.reading())
    }
    fn cases(&self, input: Box<dyn std::io::BufRead + Send>) -> ParsedStream {
        self.inner().cases_as(input, &self.reading())
    }
    fn variants(&self) -> &'static [Variant] {
        self.inner().variants()
    }
    fn under(&self, mask: usize) -> &'static dyn Game {
        self.inner().under(mask)
    }
    fn parse_as(&self, input: &[u8], reading: &Reading) -> Vec<ParsedCase> {
        self.inner().parse_as(input, reading)
    }
    fn cases_as(&self, input: Box<dyn std::io::BufRead + Send>, reading: &Reading) -> ParsedStream {
        self.inner().cases_as(input, reading)
    }
    fn validate(&self, input: &[u8]) -> Validation {
        self.inner().validate(input)
    }
    fn validate_reader(&self, input: &mut dyn std::io::BufRead) -> std::io::Result<Validation> {
        self.inner().validate_reader(input)
    }
    fn solve(
        &self,
        id: EngineId,
        index: usize,
        case: &(dyn Any + Send + Sync),
        budget: &Budget,
    ) -> Result<TimedAnswer, CaseError> {
        self.inner().solve(id, index, case, budget)
    }
    fn time_repeated(
        &self,
        id: EngineId,
        case: &(dyn Any + Send + Sync),
        budget: &Budget,
        repeats: u32,
    ) -> Duration {
        self.inner().time_repeated(id, case, budget, repeats)
    }
    fn split_output(&self, output: &str) -> Vec<String> {
        self.inner().split_output(output)
    }
    fn output_blocks(&self, input: Box<dyn std::io::BufRead + Send>) -> BlockStream {
        self.inner().output_blocks(input)
    }
    fn check(&self, case: &(dyn Any + Send + Sync), expected: &str, actual: &str) -> CheckResult {
        self.inner().check(case, expected, actual)
    }
    fn case_input(&self, case: &(dyn Any + Send + Sync)) -> Option<String> {
        self.inner().case_input(case)
    }
    fn renumber_block(&self, block: &str, from: usize, to: usize) -> String {
        self.inner().renumber_block(block, from, to)
    }
    fn draw(
        &self,
        case: &(dyn Any + Send + Sync),
        expected: Option<&str>,
    ) -> Option<crate::game::Drawing> {
        self.inner().draw(case, expected)
    }
    fn draw_answer(&self, case: &(dyn Any + Send + Sync), block: &str) -> Option<String> {
        self.inner().draw_answer(case, block)
    }
    fn judge_output(
        &self,
        case: &(dyn Any + Send + Sync),
        expected: &str,
        actual: &str,
    ) -> Result<(), Rejected> {
        self.inner().judge_output(case, expected, actual)
    }
    fn join(&self, blocks: &[&str]) -> String {
        self.inner().join(blocks)
    }
    fn generator(&self) -> &dyn GameGenerator {
        self
    }
    fn editor(&self) -> &dyn CaseEditor {
        self.inner().editor()
    }
}

/// The inner game's generator, told how its inputs will be read.
impl<R: Registrable> GameGenerator for ReadAs<R> {
    fn profiles(&self) -> &'static [Profile] {
        self.inner().generator().profiles()
    }
    fn augment_args(&self, cmd: Command) -> Command {
        self.inner().generator().augment_args(cmd)
    }
    fn options(&self, matches: &ArgMatches) -> Result<GameOptions, clap::Error> {
        self.inner().generator().options(matches)
    }
    fn generate_until(
        &self,
        file: &FileId<'_>,
        options: &GameOptions,
        engine: &str,
        budget: &Budget,
        deadline: Option<Instant>,
    ) -> Result<String, GenError> {
        let inner = self.inner().generator();
        inner.generate_as(file, options, engine, budget, deadline, &self.reading())
    }
    fn generate_as(
        &self,
        file: &FileId<'_>,
        options: &GameOptions,
        engine: &str,
        budget: &Budget,
        deadline: Option<Instant>,
        reading: &Reading,
    ) -> Result<String, GenError> {
        let inner = self.inner().generator();
        inner.generate_as(file, options, engine, budget, deadline, reading)
    }
}
