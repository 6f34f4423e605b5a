//! The contract between a game and the rest of gamebench.
//!
//! A game implements [`Rules`]: how a judge input file splits into cases, how an answer is
//! printed, how an expected output splits back into per-case blocks, and which engines solve it.
//! [`Registered`] turns any `Rules` into the object-safe [`Game`] the runner and the CLI use, so
//! the runner never sees a game's types: it moves opaque [`ParsedCase`]s and text around.
//!
//! Invariants every game keeps:
//! - `format_case(k, answer)` for the cases of a file, in order, joined by `Rules::SEPARATOR`,
//!   is the judge output of that file, byte for byte.
//! - `split_output` is the inverse on judge output: it returns the per-case blocks that
//!   `format_case` would have produced (so outputs can be checked case by case).
//! - parsing never panics on any bytes; a malformed case becomes a [`CaseError`] that names the
//!   line, and the parser resynchronises on the next case when the format allows it.

pub use crate::status::{CheckVerdict, Rejected};
use std::any::Any;
use std::time::{Duration, Instant};

use crate::generate::{GameGenerator, Solver};
use crate::shrink::{CaseEditor, Shrink};
use crate::validate::{Validation, excerpt};

/// Limits an engine must respect on one case. Simulation games ignore them; search games
/// (Vexed) stop and report [`Verdict::Budget`] when one runs out.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Budget {
    /// Maximum number of search states expanded for one case.
    pub max_states: Option<u64>,
    /// Wall-clock limit for one case.
    pub time_limit: Option<Duration>,
    /// Bytes a search may hold for one case (Vexed); within it an engine searches with less
    /// memory (and more time) or stops with [`Verdict::Budget`]. `None`: the engine's default.
    pub memory: Option<u64>,
    /// Threads one search may use (Vexed: a deep search expands its nodes in parallel
    /// batches), at least 1. The answer is the same whatever the count.
    pub threads: usize,
}

impl Budget {
    /// No limit at all, and one thread per search.
    pub const UNLIMITED: Budget = Budget {
        max_states: None,
        time_limit: None,
        memory: None,
        threads: 1,
    };

    /// The instant after which a search started at `start` must give up, if any.
    pub fn deadline(&self, start: Instant) -> Option<Instant> {
        self.time_limit.map(|limit| start + limit)
    }
}

/// The command-line options that set a [`Budget`] (`solve`, `run`, `gen`, `check`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct BudgetArgs {
    /// Stop a search after expanding N states (Vexed); the case gets status `budget`.
    #[arg(long, value_name = "N")]
    pub max_states: Option<u64>,
    /// Stop a search after SECONDS of wall time per case (Vexed); the case gets status `budget`.
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// Memory one search may hold, in MB (Vexed; default: 384 MB for A*, then iterative
    /// deepening with a table of 2M boards). Per search: commands with `-j N` run N at once.
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..))]
    pub memory: Option<u64>,
    /// Threads one search may use (Vexed: past a few hundred thousand states, nodes are
    /// expanded in parallel batches; the answer is the same for every N). Separate from `-j`,
    /// which solves several cases at once: up to `-j` times N threads run.
    #[arg(long = "threads", value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..1024))]
    pub search_threads: u64,
}

/// Bytes in one MB of `--memory` (MiB, as `/usr/bin/time` and `/proc` count).
pub const BYTES_PER_MB: u64 = 1 << 20;

/// A `--time-limit` that is not a positive number of seconds.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("--time-limit must be a positive number of seconds, not {0}")]
pub struct BadTimeLimit(pub f64);

impl BudgetArgs {
    /// The per-case budget these options ask for.
    pub fn budget(&self) -> Result<Budget, BadTimeLimit> {
        let time_limit = match self.time_limit {
            Some(s) if !(s.is_finite() && s > 0.0) => return Err(BadTimeLimit(s)),
            Some(s) => Some(Duration::from_secs_f64(s)),
            None => None,
        };
        Ok(Budget {
            max_states: self.max_states,
            time_limit,
            memory: self.memory.map(|mb| mb.saturating_mul(BYTES_PER_MB)),
            threads: usize::try_from(self.search_threads).unwrap_or(1).max(1),
        })
    }
}

/// What an engine concluded about one case (independent of any expected output).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The engine produced the answer.
    Solved,
    /// The engine proved there is no answer (Vexed: no solution exists).
    Unsolved,
    /// The engine stopped because its [`Budget`] ran out.
    Budget,
}

/// An engine's answer to one case plus the work it did (pops, removals, states, turns…),
/// so timings can be explained.
#[derive(Debug, Clone)]
pub struct Outcome<A> {
    pub answer: A,
    pub verdict: Verdict,
    /// The game's work counter; its meaning is [`Rules::WORK_UNIT`].
    pub work: u64,
    /// When the budget stopped a search ([`Verdict::Budget`]): the least score any answer can
    /// have, as far as the search had proven when it stopped (Vexed: no solution is shorter).
    /// `None` otherwise, or when the engine proves no such bound.
    pub at_least: Option<u64>,
}

impl<A> Outcome<A> {
    /// A solved case.
    pub fn solved(answer: A, work: u64) -> Self {
        Outcome {
            answer,
            verdict: Verdict::Solved,
            work,
            at_least: None,
        }
    }
}

/// A malformed case: what is wrong and on which line (1-based, in the input file).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct CaseError {
    pub line: usize,
    pub message: String,
}

impl CaseError {
    pub fn new(line: usize, message: impl Into<String>) -> Self {
        CaseError {
            line,
            message: message.into(),
        }
    }
}

/// One case of a file as the parser found it.
#[derive(Debug, Clone)]
pub struct Parsed<C> {
    /// 1-based line where the case starts in its file.
    pub line: usize,
    /// A human label (the Vexed puzzle name); empty when the game has none.
    pub label: String,
    /// The case's size for reports, e.g. `30x30` or `21 turns`.
    pub size: String,
    /// Either the case, or why it could not be read.
    pub case: Result<C, CaseError>,
}

/// An engine of a game: a name and a function. Engines are plain functions so that a game's
/// engine table is a constant and engines carry no state between cases.
pub struct Engine<C, A> {
    pub name: &'static str,
    /// One line for `--help` and the README.
    pub about: &'static str,
    /// Solves one case. `Err` only when the case turns out to be invalid while being played
    /// (e.g. a Yut move naming an escaped token); the error names the line.
    pub solve: fn(&C, &Budget) -> Result<Outcome<A>, CaseError>,
}

/// The name every game gives its literal engine, the oracle of the others.
pub const REFERENCE_ENGINE: &str = "reference";

/// How a game checks a produced case output against the expected one.
/// Returns `Ok(())` when accepted, or the reason (first differing line, bad move, …).
pub type CheckResult = Result<(), String>;

/// `block` without any white space: the presentation of outputs whose every space is layout,
/// not data (Link and Pop, Yut), so a presentation error is any difference in white space.
pub fn strip_white_space(block: &str) -> String {
    block.split_whitespace().collect()
}

/// The white space of a byte-compared output that [`Rules::presentation`] sets aside by
/// default: each line's trailing spaces, tabs and `\r`, the blank lines at the end, and the
/// final newline (always one). Everything else, leading and inner spaces included (they draw
/// empty cells in SameGame and Yut), is kept.
pub fn trim_presentation(block: &str) -> String {
    let mut lines: Vec<&str> = block
        .split('\n')
        .map(|l| l.trim_end_matches([' ', '\t', '\r']))
        .collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// A game, with its own types. Implement this; register it with [`Registered`].
pub trait Rules: Send + Sync + 'static {
    /// A parsed case, ready for any engine.
    type Case: Send + Sync + 'static;
    /// An engine's answer, printable with [`Rules::format_case`].
    type Answer: Send + 'static;

    /// The game's name on the command line and in folder names (`yut`, `linkpop`, ...).
    const NAME: &'static str;
    /// One line describing the game.
    const TITLE: &'static str;
    /// What the work counter counts (`turns`, `pops`, `states`, ...).
    const WORK_UNIT: &'static str;
    /// Text between two consecutive cases' outputs in a file (SameGame: a blank line).
    const SEPARATOR: &'static str = "";

    /// The engines, [`REFERENCE_ENGINE`] first, names unique. Checked when the game is
    /// registered ([`Registered::new`], evaluated at compile time in the registry).
    const ENGINES: &'static [Engine<Self::Case, Self::Answer>];
    /// The fastest engine, used when the user names none; one of [`Rules::ENGINES`].
    const DEFAULT_ENGINE: &'static str;

    /// Splits a judge input file into cases. Never panics, whatever the bytes.
    fn parse(input: &[u8]) -> Vec<Parsed<Self::Case>>;

    /// Strict validation of a judge input against the statement's constraints (sizes, counts,
    /// alphabets, terminators, white space), separate from the lenient [`Rules::parse`]: every
    /// violation names its case, line and constraint (see [`crate::validate`]). Never panics,
    /// linear in the input. Lives in the game's `validate.rs`.
    fn validate(input: &[u8]) -> Validation;

    /// The judge output of case `index` (1-based within its file) with this answer.
    fn format_case(index: usize, case: &Self::Case, outcome: &Outcome<Self::Answer>) -> String;

    /// Splits a judge output file into per-case blocks (the inverse of `format_case` joined by
    /// `SEPARATOR`; the blocks do not contain the separator). Used by `run --check` and by
    /// external engines.
    fn split_output(output: &str) -> Vec<String>;

    /// A number summarising an answer where the game has one (Vexed: the solution length K),
    /// reported in the CSV's `score` column and used by generators that filter on it.
    fn score(_answer: &Self::Answer) -> Option<u64> {
        None
    }

    /// A judge input holding this case alone, whose judge output is exactly the block this case
    /// has in a whole file's output: lets `run --case-timeout` run an external program case by
    /// case. `None` (the default) when the output numbers its cases (`Case 3:`), so a case run
    /// alone would print another block.
    fn case_input(_case: &Self::Case) -> Option<String> {
        None
    }

    /// The case's size as one number, for plots and scaling fits (the CSV's `cells` column):
    /// board cells, turns, selections, whatever the engines' cost grows with.
    fn cells(_case: &Self::Case) -> Option<u64> {
        None
    }

    /// Accepts or rejects `actual` as the output of `case`, given the `expected` block.
    /// The default is byte equality; Vexed overrides it (any minimum solution is accepted).
    fn check(_case: &Self::Case, expected: &str, actual: &str) -> CheckResult {
        first_difference(expected, actual).map_or(Ok(()), Err)
    }

    /// Whether `block` is a well-formed output of `case` (its shape: header, line count and
    /// lengths, alphabet; not whether it is right). An expected block that is not makes the
    /// verdict a checker failure. The default accepts any block.
    fn well_formed(_case: &Self::Case, _block: &str) -> Result<(), String> {
        Ok(())
    }

    /// `block` with the white space that only presentation depends on made canonical: when
    /// [`Rules::check`] rejects an output but accepts its presentation against the expected
    /// block's, the verdict is a presentation error. The default is [`trim_presentation`].
    fn presentation(block: &str) -> String {
        trim_presentation(block)
    }
}

/// Longest line [`first_difference`] quotes whole.
const SHOWN_LINE_CHARS: usize = 60;
/// Characters an excerpt shows before the first difference.
const EXCERPT_LEAD: usize = 8;

/// Describes the first line where two texts differ, or `None` when they are equal. Long lines
/// are shown as excerpts around the first differing column.
pub fn first_difference(expected: &str, actual: &str) -> Option<String> {
    if expected == actual {
        return None;
    }
    let mut exp = expected.split_inclusive('\n');
    let mut act = actual.split_inclusive('\n');
    let mut line = 1;
    loop {
        match (exp.next(), act.next()) {
            (Some(e), Some(a)) if e == a => line += 1,
            (Some(e), Some(a)) => {
                let (e, a) = (e.trim_end_matches('\n'), a.trim_end_matches('\n'));
                if e.chars().count().max(a.chars().count()) <= SHOWN_LINE_CHARS {
                    return Some(format!("line {line}: expected {e:?}, got {a:?}"));
                }
                // Long lines: an excerpt of each from a little before the first difference.
                let column = e.chars().zip(a.chars()).take_while(|(x, y)| x == y).count();
                return Some(format!(
                    "line {line}, column {}: expected {}, got {}",
                    column + 1,
                    excerpt(e.as_bytes(), column.saturating_sub(EXCERPT_LEAD)),
                    excerpt(a.as_bytes(), column.saturating_sub(EXCERPT_LEAD))
                ));
            }
            (Some(e), None) => {
                return Some(format!(
                    "line {line}: expected {:?}, got end of output",
                    e.trim_end_matches('\n')
                ));
            }
            (None, Some(a)) => {
                return Some(format!(
                    "line {line}: expected end of output, got {:?}",
                    a.trim_end_matches('\n')
                ));
            }
            (None, None) => return Some("outputs differ in line endings".to_string()),
        }
    }
}

/// A parsed case with its game type erased, as the runner carries it.
pub struct ParsedCase {
    pub line: usize,
    pub label: String,
    pub size: String,
    /// See [`Rules::cells`].
    pub cells: Option<u64>,
    pub case: Result<Box<dyn Any + Send + Sync>, CaseError>,
}

/// The result of running one engine on one case, type-erased.
#[derive(Debug, Clone)]
pub struct Solved {
    /// The case's judge output block.
    pub output: String,
    pub verdict: Verdict,
    pub work: u64,
    /// See [`Rules::score`].
    pub score: Option<u64>,
    /// See [`Outcome::at_least`].
    pub at_least: Option<u64>,
    /// Wall time of the engine call alone (not the formatting of its answer).
    pub elapsed: Duration,
}

/// Which engine of a game: an index into its engine table. Only a [`Game`] makes one, and an
/// [`EngineRef`] keeps it with its game, so an id never reaches another game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EngineId(usize);

/// Object-safe view of a game, used by the runner and CLI. Implemented by [`Registered`].
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
    fn parse(&self, input: &[u8]) -> Vec<ParsedCase>;
    /// See [`Rules::validate`]; the violations in line order.
    fn validate(&self, input: &[u8]) -> Validation;
    /// Runs engine `id` on a case produced by this game's `parse`; `index` is the case's
    /// 1-based position in its file (it appears in some judge outputs).
    fn solve(
        &self,
        id: EngineId,
        index: usize,
        case: &(dyn Any + Send + Sync),
        budget: &Budget,
    ) -> Result<Solved, CaseError>;
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
    fn check(&self, case: &(dyn Any + Send + Sync), expected: &str, actual: &str) -> CheckResult;
    /// See [`Rules::case_input`].
    fn case_input(&self, case: &(dyn Any + Send + Sync)) -> Option<String>;
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
    ) -> Result<Solved, CaseError> {
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
    R: Rules + Shrink + gamebench_generators::Generator<Tools = Solver<R>>,
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
    fn parse(&self, input: &[u8]) -> Vec<ParsedCase> {
        R::parse(input)
            .into_iter()
            .map(|p| ParsedCase {
                line: p.line,
                label: p.label,
                size: p.size,
                cells: p.case.as_ref().ok().and_then(R::cells),
                case: p.case.map(|c| Box::new(c) as Box<dyn Any + Send + Sync>),
            })
            .collect()
    }
    fn validate(&self, input: &[u8]) -> Validation {
        let mut validation = R::validate(input);
        // In line order whatever order a validator found them in (stable: ties keep it).
        validation.violations.sort_by_key(|v| v.line);
        validation
    }
    fn solve(
        &self,
        id: EngineId,
        index: usize,
        case: &(dyn Any + Send + Sync),
        budget: &Budget,
    ) -> Result<Solved, CaseError> {
        let engine = &R::ENGINES[id.0];
        let case = downcast::<R>(case);
        let start = Instant::now();
        let outcome = (engine.solve)(case, budget);
        let elapsed = start.elapsed();
        let outcome = outcome?;
        Ok(Solved {
            output: R::format_case(index, case, &outcome),
            verdict: outcome.verdict,
            work: outcome.work,
            score: R::score(&outcome.answer),
            at_least: outcome.at_least,
            elapsed,
        })
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
    fn check(&self, case: &(dyn Any + Send + Sync), expected: &str, actual: &str) -> CheckResult {
        R::check(downcast::<R>(case), expected, actual)
    }
    fn case_input(&self, case: &(dyn Any + Send + Sync)) -> Option<String> {
        R::case_input(downcast::<R>(case))
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
        let (expected, actual) = (R::presentation(expected), R::presentation(actual));
        let verdict = if R::check(case, &expected, &actual).is_ok() {
            CheckVerdict::PresentationError
        } else {
            CheckVerdict::WrongAnswer
        };
        Err(Rejected::new(verdict, why))
    }
    fn generator(&self) -> &dyn GameGenerator {
        self
    }
    fn editor(&self) -> &dyn CaseEditor {
        self
    }
}

/// Splits judge output into blocks, each starting at a line for which `starts_case` holds.
/// Text before the first such line (garbage) becomes a block of its own so nothing is lost.
pub fn split_blocks(output: &str, starts_case: impl Fn(&str) -> bool) -> Vec<String> {
    let mut blocks: Vec<String> = Vec::new();
    for line in output.split_inclusive('\n') {
        if starts_case(line) || blocks.is_empty() {
            blocks.push(String::new());
        }
        blocks.last_mut().expect("pushed above").push_str(line);
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_difference_names_the_line() {
        assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
        assert_eq!(
            first_difference("a\nb\n", "a\nc\n").unwrap(),
            "line 2: expected \"b\", got \"c\""
        );
        assert!(
            first_difference("a\n", "a\nz\n")
                .unwrap()
                .starts_with("line 2: expected end")
        );
        assert!(
            first_difference("a\nz\n", "a\n")
                .unwrap()
                .contains("got end of output")
        );
        assert!(first_difference("a\n", "a").is_some());
        let long = "x".repeat(500);
        let other = format!("{}y{}", "x".repeat(300), "x".repeat(199));
        let diff = first_difference(&long, &other).unwrap();
        assert!(
            diff.starts_with("line 1, column 301: expected …\"xxxxxxxx"),
            "{diff}"
        );
        assert!(diff.contains("got …\"xxxxxxxxy"), "{diff}");
        assert!(diff.len() < 200, "{diff}");
    }

    #[test]
    fn split_blocks_keeps_every_byte() {
        let text = "junk\nCase 1\nx\nCase 2\ny\n";
        let blocks = split_blocks(text, |l| l.starts_with("Case "));
        assert_eq!(blocks, vec!["junk\n", "Case 1\nx\n", "Case 2\ny\n"]);
        assert_eq!(blocks.concat(), text);
    }
}
