//! The object-safe view of a game ([`Game`]) the rest of gamebench uses: its engines reached
//! through [`EngineRef`]s, its cases as opaque [`ParsedCase`]s. `registered.rs` makes one from
//! any [`super::Rules`].
//!
//! The runner never sees a game's types: it moves opaque [`ParsedCase`]s and text around, and
//! reaches engines through [`EngineRef`]s, which keep an engine's id with its game so an id
//! never reaches another game. Registering a game checks its engine table at compile time.

use std::any::Any;
use std::time::Duration;

use super::budget::Budget;
use super::edit::CaseEditor;
use super::generator::GameGenerator;
use super::output::BlockStream;
use super::rules::{
    CaseError, CheckResult, Reading, UnknownVariant, Variant, Verdict, check_reading,
};
use crate::status::Rejected;
use crate::validate::Validation;

/// A parsed case with its game type erased, as the runner carries it.
pub struct ParsedCase {
    pub line: usize,
    pub label: String,
    pub size: String,
    /// See [`Rules::cells`].
    pub cells: Option<u64>,
    pub case: Result<Box<dyn Any + Send + Sync>, CaseError>,
}

/// The cases of a judge input read incrementally ([`Game::cases`]), in file order.
pub type ParsedStream = Box<dyn Iterator<Item = ParsedCase> + Send>;

/// What an engine answered on one case, type-erased: the one record of an answer, whether an
/// internal engine solved the case or a program printed its block.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The case's judge output block.
    pub output: String,
    pub verdict: Verdict,
    /// The engine's work counter: internal engines count theirs, programs have none.
    pub work: Option<u64>,
    /// See [`Rules::score`] (internal engines).
    pub score: Option<u64>,
    /// What a search stopped by its budget had proven (a score of at least this); see
    /// [`Outcome::at_least`].
    pub at_least: Option<u64>,
}

impl Answer {
    /// A program's answer: its output block, accepted until something compares it.
    pub fn printed(output: String) -> Answer {
        Answer {
            output,
            verdict: Verdict::Solved,
            work: None,
            score: None,
            at_least: None,
        }
    }
}

/// An engine's answer with the wall time of the engine call alone (not the formatting of its
/// answer), as [`Game::solve`] gives it.
pub type TimedAnswer = (Answer, Duration);

/// Which engine of a game: an index into its engine table. Only a [`Game`] makes one, and an
/// [`EngineRef`] keeps it with its game, so an id never reaches another game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EngineId(pub(super) usize);

/// Object-safe view of a game, used by the runner and CLI. Implemented by
/// [`super::Registered`].
/// Engines are reached through [`EngineRef`]s (see the inherent methods on `dyn Game`).
pub trait Game: Send + Sync {
    fn name(&self) -> &'static str;
    fn title(&self) -> &'static str;
    fn work_unit(&self) -> &'static str;
    fn separator(&self) -> &'static str;
    /// Number of engines; their ids are `0..engine_count()`, the reference engine first.
    fn engine_count(&self) -> usize;
    /// `(name, about)` of an engine.
    fn engine_info(&self, id: EngineId) -> (&'static str, &'static str);
    /// Id of the default (fastest) engine.
    fn default_engine_id(&self) -> EngineId;
    /// See [`super::Rules::parse`]: the cases of `input` read under `reading` (the variants of
    /// this game it follows; any other it ignores).
    fn parse(&self, input: &[u8], reading: &Reading) -> Vec<ParsedCase>;
    /// See [`super::Rules::cases`]: the cases of `parse`, read incrementally.
    fn cases(&self, input: Box<dyn std::io::BufRead + Send>, reading: &Reading) -> ParsedStream;
    /// See [`super::Rules::VARIANTS`].
    fn variants(&self) -> &'static [Variant];
    /// See [`Rules::validate`]; the violations in line order.
    fn validate(&self, input: &[u8]) -> Validation;
    /// See [`Rules::validate_reader`]; the violations in line order.
    fn validate_reader(&self, input: &mut dyn std::io::BufRead) -> std::io::Result<Validation>;
    /// Runs engine `id` on a case produced by this game's `parse`; `index` is the case's
    /// 1-based position in its file (it appears in some judge outputs).
    fn solve(
        &self,
        id: EngineId,
        index: usize,
        case: &(dyn Any + Send + Sync),
        budget: &Budget,
    ) -> Result<TimedAnswer, CaseError>;
    /// Runs engine `id` on a case `repeats` times in a row and returns the time of the whole
    /// batch (the engine calls, their answers discarded): for cases too short to time alone.
    fn time_repeated(
        &self,
        id: EngineId,
        case: &(dyn Any + Send + Sync),
        budget: &Budget,
        repeats: u32,
    ) -> Duration;
    fn split_output(&self, output: &str) -> Vec<String>;
    /// See [`super::Rules::output_blocks`]: the blocks of `split_output`, read incrementally.
    fn output_blocks(&self, input: Box<dyn std::io::BufRead + Send>) -> BlockStream;
    fn check(&self, case: &(dyn Any + Send + Sync), expected: &str, actual: &str) -> CheckResult;
    /// See [`Rules::case_input`].
    fn case_input(&self, case: &(dyn Any + Send + Sync)) -> Option<String>;
    /// See [`Rules::renumber_block`].
    fn renumber_block(&self, block: &str, from: usize, to: usize) -> String;
    /// [`Rules::draw`](super::Rules::draw).
    fn draw(
        &self,
        case: &(dyn Any + Send + Sync),
        expected: Option<&str>,
    ) -> Option<super::Drawing>;
    /// [`Rules::draw_answer`](super::Rules::draw_answer).
    fn draw_answer(&self, case: &(dyn Any + Send + Sync), block: &str) -> Option<String>;
    /// The testlib-like verdict on `actual` given the `expected` block: accepted (`Ok`), or
    /// checker failure when the expected block is not well formed ([`Rules::well_formed`]),
    /// presentation error when only white space stands between `actual` and acceptance
    /// ([`Rules::presentation`]), wrong answer otherwise.
    fn judge_output(
        &self,
        case: &(dyn Any + Send + Sync),
        expected: &str,
        actual: &str,
    ) -> Result<(), Rejected>;
    /// Joins per-case output blocks into a file's judge output.
    fn join(&self, blocks: &[&str]) -> String {
        blocks.join(self.separator())
    }
    /// The game's generator (its profiles, options and files; see [`crate::generate`]).
    fn generator(&self) -> &dyn GameGenerator;
    /// The game's edits of its cases: reductions for shrinking, mutations for hunting (see
    /// [`crate::shrink`]).
    fn editor(&self) -> &dyn CaseEditor;
}

impl dyn Game {
    /// `Ok` when every variant `reading` chooses is one of this game's, so that its inputs can
    /// be read so (a command over one game asks it before any file is read).
    pub fn check_reading(&self, reading: &Reading) -> Result<(), UnknownVariant> {
        check_reading(self.name(), self.variants(), reading)
    }

    /// Every engine of the game, the reference engine first.
    pub fn engines(&'static self) -> impl Iterator<Item = EngineRef> {
        (0..self.engine_count()).map(move |i| EngineRef {
            game: self,
            id: EngineId(i),
        })
    }

    /// The engine called `name`, if the game has one.
    pub fn engine(&'static self, name: &str) -> Option<EngineRef> {
        self.engines().find(|e| e.name() == name)
    }

    /// The literal engine, the oracle of the others.
    pub fn reference(&'static self) -> EngineRef {
        EngineRef {
            game: self,
            id: EngineId(0),
        }
    }

    /// The engine used when the user names none.
    pub fn default_engine(&'static self) -> EngineRef {
        EngineRef {
            game: self,
            id: self.default_engine_id(),
        }
    }

    /// Engine names, the reference engine first.
    pub fn engine_names(&'static self) -> Vec<&'static str> {
        self.engines().map(|e| e.name()).collect()
    }
}

/// An engine resolved once, before any work: its game and its place in the game's table.
/// Solving through it looks nothing up.
#[derive(Clone, Copy)]
pub struct EngineRef {
    pub game: &'static dyn Game,
    id: EngineId,
}

impl EngineRef {
    pub fn name(&self) -> &'static str {
        self.game.engine_info(self.id).0
    }

    pub fn about(&self) -> &'static str {
        self.game.engine_info(self.id).1
    }

    /// Whether this is its game's reference engine.
    pub fn is_reference(&self) -> bool {
        self.id == EngineId(0)
    }

    /// Whether this is its game's default engine.
    pub fn is_default(&self) -> bool {
        self.id == self.game.default_engine_id()
    }

    /// Times `repeats` calls on a case parsed by this engine's game (see
    /// [`Game::time_repeated`]).
    pub fn time_repeated(
        &self,
        case: &(dyn Any + Send + Sync),
        budget: &Budget,
        repeats: u32,
    ) -> Duration {
        self.game.time_repeated(self.id, case, budget, repeats)
    }

    /// Solves a case parsed by this engine's game (see [`Game::solve`]).
    pub fn solve(
        &self,
        index: usize,
        case: &(dyn Any + Send + Sync),
        budget: &Budget,
    ) -> Result<TimedAnswer, CaseError> {
        self.game.solve(self.id, index, case, budget)
    }
}

impl PartialEq for EngineRef {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::addr_eq(self.game, other.game) && self.id == other.id
    }
}

impl Eq for EngineRef {}

impl std::fmt::Debug for EngineRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.game.name(), self.name())
    }
}
