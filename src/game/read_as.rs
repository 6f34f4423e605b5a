//! [`ReadAs`]: a game whose inputs are read under a chosen [`Reading`] (known variants of its
//! statement, e.g. SameGame's `--zero-pair ends-list`), everything else being the game's own.
//!
//! Invariant: only the readers differ (`parse`, `cases` follow the reading); engines, checker,
//! validator, generator and editor are the inner game's, so a case parsed under the reading
//! is solved, checked, shrunk and written as any case of the game. Engine ids are the inner
//! game's table, so an [`super::EngineRef`] made through a `ReadAs` solves with the same engine.

use std::any::Any;
use std::time::{Duration, Instant};

use clap::{ArgMatches, Command};
use gamebench_generators::{FileId, GenError, Profile};

use super::budget::Budget;
use super::edit::CaseEditor;
use super::erased::{EngineId, Game, ParsedCase, ParsedStream, Solved};
use super::generator::{GameGenerator, GameOptions};
use super::output::BlockStream;
use super::rules::{CaseError, CheckResult, Reading, Variant};
use crate::status::Rejected;
use crate::validate::Validation;

/// A game read under a reading other than the statement's; made by `<dyn Game>::read_as`.
pub struct ReadAs {
    inner: &'static dyn Game,
    reading: Reading,
}

impl ReadAs {
    /// `inner` read under `reading`, whose variants the caller checked are `inner`'s.
    pub(super) fn new(inner: &'static dyn Game, reading: Reading) -> Self {
        ReadAs { inner, reading }
    }
}

impl Game for ReadAs {
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    fn title(&self) -> &'static str {
        self.inner.title()
    }
    fn work_unit(&self) -> &'static str {
        self.inner.work_unit()
    }
    fn separator(&self) -> &'static str {
        self.inner.separator()
    }
    fn engine_count(&self) -> usize {
        self.inner.engine_count()
    }
    fn engine_info(&self, id: EngineId) -> (&'static str, &'static str) {
        self.inner.engine_info(id)
    }
    fn default_engine_id(&self) -> EngineId {
        self.inner.default_engine_id()
    }
    fn parse(&self, input: &[u8]) -> Vec<ParsedCase> {
        self.inner.parse_as(input, &self.reading)
    }
    fn cases(&self, input: Box<dyn std::io::BufRead + Send>) -> ParsedStream {
        self.inner.cases_as(input, &self.reading)
    }
    fn variants(&self) -> &'static [Variant] {
        self.inner.variants()
    }
    fn parse_as(&self, input: &[u8], reading: &Reading) -> Vec<ParsedCase> {
        self.inner.parse_as(input, reading)
    }
    fn cases_as(&self, input: Box<dyn std::io::BufRead + Send>, reading: &Reading) -> ParsedStream {
        self.inner.cases_as(input, reading)
    }
    fn validate(&self, input: &[u8]) -> Validation {
        self.inner.validate(input)
    }
    fn validate_reader(&self, input: &mut dyn std::io::BufRead) -> std::io::Result<Validation> {
        self.inner.validate_reader(input)
    }
    fn solve(
        &self,
        id: EngineId,
        index: usize,
        case: &(dyn Any + Send + Sync),
        budget: &Budget,
    ) -> Result<Solved, CaseError> {
        self.inner.solve(id, index, case, budget)
    }
    fn time_repeated(
        &self,
        id: EngineId,
        case: &(dyn Any + Send + Sync),
        budget: &Budget,
        repeats: u32,
    ) -> Duration {
        self.inner.time_repeated(id, case, budget, repeats)
    }
    fn split_output(&self, output: &str) -> Vec<String> {
        self.inner.split_output(output)
    }
    fn output_blocks(&self, input: Box<dyn std::io::BufRead + Send>) -> BlockStream {
        self.inner.output_blocks(input)
    }
    fn check(&self, case: &(dyn Any + Send + Sync), expected: &str, actual: &str) -> CheckResult {
        self.inner.check(case, expected, actual)
    }
    fn case_input(&self, case: &(dyn Any + Send + Sync)) -> Option<String> {
        self.inner.case_input(case)
    }
    fn renumber_block(&self, block: &str, from: usize, to: usize) -> String {
        self.inner.renumber_block(block, from, to)
    }
    fn draw(
        &self,
        case: &(dyn Any + Send + Sync),
        expected: Option<&str>,
    ) -> Option<super::Drawing> {
        self.inner.draw(case, expected)
    }
    fn judge_output(
        &self,
        case: &(dyn Any + Send + Sync),
        expected: &str,
        actual: &str,
    ) -> Result<(), Rejected> {
        self.inner.judge_output(case, expected, actual)
    }
    fn join(&self, blocks: &[&str]) -> String {
        self.inner.join(blocks)
    }
    fn generator(&self) -> &dyn GameGenerator {
        self
    }
    fn editor(&self) -> &dyn CaseEditor {
        self.inner.editor()
    }
}

/// The inner game's generator, told how its inputs will be read.
impl GameGenerator for ReadAs {
    fn profiles(&self) -> &'static [Profile] {
        self.inner.generator().profiles()
    }
    fn augment_args(&self, cmd: Command) -> Command {
        self.inner.generator().augment_args(cmd)
    }
    fn options(&self, matches: &ArgMatches) -> Result<GameOptions, clap::Error> {
        self.inner.generator().options(matches)
    }
    fn generate_until(
        &self,
        file: &FileId<'_>,
        options: &GameOptions,
        engine: &str,
        budget: &Budget,
        deadline: Option<Instant>,
    ) -> Result<String, GenError> {
        let inner = self.inner.generator();
        inner.generate_as(file, options, engine, budget, deadline, &self.reading)
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
        let inner = self.inner.generator();
        inner.generate_as(file, options, engine, budget, deadline, reading)
    }
}
