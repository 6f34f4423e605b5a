//! The adapter that turns a game's typed implementation ([`Rules`], its [`Shrink`] and its
//! [`Generator`]) into the object-safe [`Game`], with its erased generator ([`GameGenerator`])
//! and case editor ([`CaseEditor`]): the one place that downcasts a game's cases.
//!
//! Registering a game (`Registered::<G>::new()` in a `static`) runs at compile time, so a game
//! whose engine table breaks the contract does not build.

use std::any::Any;
use std::time::{Duration, Instant};

use clap::{ArgMatches, Args, Command, FromArgMatches};
use gamebench_generators::{self as generators, Dice, FileId, GenError, Generator, Profile};

use super::budget::Budget;
use super::difference::presentation_message;
use super::edit::{AnyCase, CaseEditor, CaseSize, Shrink};
use super::erased::{Answer, EngineId, Game, ParsedCase, ParsedStream, TimedAnswer};
use super::generator::{GameGenerator, GameOptions, Lent, Solver, engine_of};
use super::output::BlockStream;
use super::rules::{
    CaseError, CheckResult, Engine, Parsed, REFERENCE_ENGINE, Reading, Rules, Variant,
};
use crate::status::{CheckVerdict, Rejected};
use crate::validate::Validation;

/// What a game needs to be registered ([`Registered`] is then a [`Game`]): its rules, its
/// case edits and its generator, lent a [`Solver`] of its own.
pub(crate) trait Registrable:
    Sized + Rules + Shrink + Generator<Tools = Solver<Self>>
{
}

impl<R: Rules + Shrink + Generator<Tools = Solver<R>>> Registrable for R {}

/// A typed case made opaque, its size as a number taken first.
fn erase<R: Rules>(p: Parsed<R::Case>) -> ParsedCase {
    ParsedCase {
        line: p.line,
        label: p.label,
        size: p.size,
        cells: p.case.as_ref().ok().and_then(R::cells),
        case: p.case.map(|c| Box::new(c) as Box<dyn Any + Send + Sync>),
    }
}

/// Adapter from a typed [`Rules`] implementation to the object-safe [`Game`].
pub struct Registered<R: Rules>(std::marker::PhantomData<fn() -> R>);

impl<R: Rules> Registered<R> {
    /// Registers a game. In a `static` (the registry) this runs at compile time, so a game
    /// whose engine table breaks the contract does not build: the reference engine first,
    /// unique names, a default engine that exists.
    pub const fn new() -> Self {
        let engines = R::ENGINES;
        assert!(
            !engines.is_empty() && str_eq(engines[0].name, REFERENCE_ENGINE),
            "a game's first engine must be its reference engine"
        );
        let mut i = 0;
        while i < engines.len() {
            let mut j = i + 1;
            while j < engines.len() {
                assert!(
                    !str_eq(engines[i].name, engines[j].name),
                    "two engines of a game share a name"
                );
                j += 1;
            }
            i += 1;
        }
        assert!(
            engine_position(engines, R::DEFAULT_ENGINE).is_some(),
            "a game's default engine must be one of its engines"
        );
        Registered(std::marker::PhantomData)
    }

    /// The game, as a constant: `&Registered::<R>::GAME` is a `&'static dyn Game`.
    pub const GAME: Registered<R> = Registered::new();
}

/// String equality usable in constant evaluation.
const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Position of the engine called `name` in `engines`, usable in constant evaluation.
const fn engine_position<C, A>(engines: &[Engine<C, A>], name: &str) -> Option<usize> {
    let mut i = 0;
    while i < engines.len() {
        if str_eq(engines[i].name, name) {
            return Some(i);
        }
        i += 1;
    }
    None
}

impl<R: Rules> Default for Registered<R> {
    fn default() -> Self {
        Self::new()
    }
}

fn downcast<R: Rules>(case: &(dyn Any + Send + Sync)) -> &R::Case {
    case.downcast_ref::<R::Case>()
        .expect("a case is only ever solved by the game that parsed it")
}

/// A game is registered with its generator and its case edits: the game type implements
/// [`gamebench_generators::Generator`] (in its `generator.rs`), lent a [`Solver`] of its own,
/// and [`Shrink`] (in its `shrink.rs`).
impl<R> Game for Registered<R>
where
    R: Registrable,
{
    fn name(&self) -> &'static str {
        R::NAME
    }
    fn title(&self) -> &'static str {
        R::TITLE
    }
    fn work_unit(&self) -> &'static str {
        R::WORK_UNIT
    }
    fn separator(&self) -> &'static str {
        R::SEPARATOR
    }
    fn engine_count(&self) -> usize {
        R::ENGINES.len()
    }
    fn engine_info(&self, id: EngineId) -> (&'static str, &'static str) {
        let engine = &R::ENGINES[id.0];
        (engine.name, engine.about)
    }
    fn default_engine_id(&self) -> EngineId {
        EngineId(engine_position(R::ENGINES, R::DEFAULT_ENGINE).expect("checked in new()"))
    }
    fn parse(&self, input: &[u8], reading: &Reading) -> Vec<ParsedCase> {
        R::parse(input, reading)
            .into_iter()
            .map(erase::<R>)
            .collect()
    }
    fn cases(&self, input: Box<dyn std::io::BufRead + Send>, reading: &Reading) -> ParsedStream {
        Box::new(R::cases(input, reading).map(erase::<R>))
    }
    fn variants(&self) -> &'static [Variant] {
        R::VARIANTS
    }
    fn validate(&self, input: &[u8]) -> Validation {
        let mut validation = R::validate(input);
        // In line order whatever order a validator found them in (stable: ties keep it).
        validation.violations.sort_by_key(|v| v.line);
        validation
    }
    fn validate_reader(&self, input: &mut dyn std::io::BufRead) -> std::io::Result<Validation> {
        let mut validation = R::validate_reader(input)?;
        validation.violations.sort_by_key(|v| v.line);
        Ok(validation)
    }
    fn solve(
        &self,
        id: EngineId,
        index: usize,
        case: &(dyn Any + Send + Sync),
        budget: &Budget,
    ) -> Result<TimedAnswer, CaseError> {
        let engine = &R::ENGINES[id.0];
        let case = downcast::<R>(case);
        let start = Instant::now();
        let outcome = (engine.solve)(case, budget);
        let elapsed = start.elapsed();
        let outcome = outcome?;
        let answer = Answer {
            output: R::format_case(index, case, &outcome),
            verdict: outcome.verdict,
            work: Some(outcome.work),
            score: R::score(&outcome.answer),
            at_least: outcome.at_least,
        };
        Ok((answer, elapsed))
    }
    fn time_repeated(
        &self,
        id: EngineId,
        case: &(dyn Any + Send + Sync),
        budget: &Budget,
        repeats: u32,
    ) -> Duration {
        let engine = &R::ENGINES[id.0];
        let case = downcast::<R>(case);
        let start = Instant::now();
        for _ in 0..repeats {
            // black_box: the answer is used and the case is not known to be the same each time,
            // so no call is optimised away or hoisted out of the loop.
            let _ = std::hint::black_box((engine.solve)(std::hint::black_box(case), budget));
        }
        start.elapsed()
    }
    fn split_output(&self, output: &str) -> Vec<String> {
        R::split_output(output)
    }
    fn output_blocks(&self, input: Box<dyn std::io::BufRead + Send>) -> BlockStream {
        R::output_blocks(input)
    }
    fn check(&self, case: &(dyn Any + Send + Sync), expected: &str, actual: &str) -> CheckResult {
        R::check(downcast::<R>(case), expected, actual)
    }
    fn case_input(&self, case: &(dyn Any + Send + Sync)) -> Option<String> {
        R::case_input(downcast::<R>(case))
    }
    fn renumber_block(&self, block: &str, from: usize, to: usize) -> String {
        R::renumber_block(block, from, to)
    }
    fn draw(
        &self,
        case: &(dyn Any + Send + Sync),
        expected: Option<&str>,
    ) -> Option<super::Drawing> {
        R::draw(downcast::<R>(case), expected)
    }
    fn draw_answer(&self, case: &(dyn Any + Send + Sync), block: &str) -> Option<String> {
        R::draw_answer(downcast::<R>(case), block)
    }
    fn judge_output(
        &self,
        case: &(dyn Any + Send + Sync),
        expected: &str,
        actual: &str,
    ) -> Result<(), Rejected> {
        let case = downcast::<R>(case);
        if let Err(why) = R::well_formed(case, expected) {
            return Err(Rejected::new(
                CheckVerdict::CheckerFailure,
                format!("the expected output is not a well-formed answer: {why}"),
            ));
        }
        let Err(why) = R::check(case, expected, actual) else {
            return Ok(());
        };
        let (canon_expected, canon_actual) = (R::presentation(expected), R::presentation(actual));
        if R::check(case, &canon_expected, &canon_actual).is_err() {
            return Err(Rejected::new(CheckVerdict::WrongAnswer, why));
        }
        // The checker's reason may not see white space (a parse error on an empty field):
        // say which white space differs instead.
        let message = presentation_message(expected, actual, &canon_actual, why);
        Err(Rejected::new(CheckVerdict::PresentationError, message))
    }
    fn generator(&self) -> &dyn GameGenerator {
        self
    }
    fn editor(&self) -> &dyn CaseEditor {
        self
    }
}

impl<R> GameGenerator for Registered<R>
where
    R: Rules + Generator<Tools = Solver<R>>,
{
    fn profiles(&self) -> &'static [Profile] {
        R::PROFILES
    }
    fn augment_args(&self, cmd: Command) -> Command {
        R::Args::augment_args(cmd)
    }
    fn options(&self, matches: &ArgMatches) -> Result<GameOptions, clap::Error> {
        Ok(GameOptions(Box::new(R::Args::from_arg_matches(matches)?)))
    }
    fn generate(
        &self,
        file: &FileId<'_>,
        options: &GameOptions,
        lent: &Lent<'_>,
    ) -> Result<String, GenError> {
        let engine = engine_of::<R>(lent.engine);
        let args = options
            .0
            .downcast_ref::<R::Args>()
            .expect("options are read by the game that generates with them");
        let solver = Solver::new(engine, lent.budget.clone())
            .until(lent.deadline)
            .read_as(lent.reading.clone());
        generators::generate::<R>(file, args, &solver)
    }
}

fn typed<R: Rules>(case: &AnyCase) -> &R::Case {
    case.downcast_ref::<R::Case>()
        .expect("a case is only ever edited by the game that parsed it")
}

impl<R: Shrink> CaseEditor for Registered<R> {
    fn moves_noun(&self) -> &'static str {
        R::MOVES
    }
    fn max_cases(&self) -> usize {
        R::MAX_CASES
    }
    fn write_input(&self, cases: &[&AnyCase]) -> String {
        let cases: Vec<&R::Case> = cases.iter().map(|c| typed::<R>(*c)).collect();
        R::write_input(&cases)
    }
    fn size(&self, case: &AnyCase) -> CaseSize {
        R::size(typed::<R>(case))
    }
    fn reductions(&self, case: &AnyCase) -> Vec<Box<AnyCase>> {
        R::reductions(typed::<R>(case))
            .into_iter()
            .map(|c| Box::new(c) as Box<AnyCase>)
            .collect()
    }
    fn mutate(&self, case: &AnyCase, dice: &mut Dice) -> Box<AnyCase> {
        Box::new(R::mutate(typed::<R>(case), dice))
    }
    fn admissible(&self, case: &AnyCase) -> bool {
        R::admissible(typed::<R>(case))
    }
}
