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

use std::any::Any;
use std::time::{Duration, Instant};

use crate::generate::{GameGenerator, Solver};

/// Limits an engine must respect on one case. Simulation games ignore them; search games
/// (Vexed) stop and report [`Verdict::Budget`] when one runs out.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Budget {
    /// Maximum number of search states expanded for one case.
    pub max_states: Option<u64>,
    /// Wall-clock limit for one case.
    pub time_limit: Option<Duration>,
}

impl Budget {
    /// No limit at all.
    pub const UNLIMITED: Budget = Budget {
        max_states: None,
        time_limit: None,
    };

    /// The instant after which a search started at `start` must give up, if any.
    pub fn deadline(&self, start: Instant) -> Option<Instant> {
        self.time_limit.map(|limit| start + limit)
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
}

impl<A> Outcome<A> {
    /// A solved case.
    pub fn solved(answer: A, work: u64) -> Self {
        Outcome {
            answer,
            verdict: Verdict::Solved,
            work,
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

/// An engine of a game: a name and a function. Engines are plain functions so that the registry
/// is a static table and engines carry no state between cases.
pub struct Engine<C, A> {
    pub name: &'static str,
    /// One line for `--help` and the README.
    pub about: &'static str,
    /// Solves one case. `Err` only when the case turns out to be invalid while being played
    /// (e.g. a Yut move naming an escaped token); the error names the line.
    pub solve: fn(&C, &Budget) -> Result<Outcome<A>, CaseError>,
}

/// How a game checks a produced case output against the expected one.
/// Returns `Ok(())` when accepted, or the reason (first differing line, bad move, …).
pub type CheckResult = Result<(), String>;

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

    /// The engines, `reference` first; the default engine is [`Rules::DEFAULT_ENGINE`].
    fn engines() -> &'static [Engine<Self::Case, Self::Answer>];
    /// The fastest engine, used when the user names none.
    const DEFAULT_ENGINE: &'static str;

    /// Splits a judge input file into cases. Never panics, whatever the bytes.
    fn parse(input: &[u8]) -> Vec<Parsed<Self::Case>>;

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

    /// Accepts or rejects `actual` as the output of `case`, given the `expected` block.
    /// The default is byte equality; Vexed overrides it (any minimum solution is accepted).
    fn check(_case: &Self::Case, expected: &str, actual: &str) -> CheckResult {
        first_difference(expected, actual).map_or(Ok(()), Err)
    }
}

/// Describes the first line where two texts differ, or `None` when they are equal.
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
                return Some(format!(
                    "line {line}: expected {:?}, got {:?}",
                    e.trim_end_matches('\n'),
                    a.trim_end_matches('\n')
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
}

/// Object-safe view of a game, used by the runner and CLI. Implemented by [`Registered`].
pub trait Game: Send + Sync {
    fn name(&self) -> &'static str;
    fn title(&self) -> &'static str;
    fn work_unit(&self) -> &'static str;
    fn separator(&self) -> &'static str;
    /// Engine names, `reference` first.
    fn engine_names(&self) -> Vec<&'static str>;
    /// `(name, about)` of every engine.
    fn engine_about(&self) -> Vec<(&'static str, &'static str)>;
    fn default_engine(&self) -> &'static str;
    fn parse(&self, input: &[u8]) -> Vec<ParsedCase>;
    /// Runs engine `engine` on a case produced by this game's `parse`.
    /// Returns `None` when the engine does not exist.
    fn solve(
        &self,
        engine: &str,
        index: usize,
        case: &(dyn Any + Send + Sync),
        budget: &Budget,
    ) -> Option<Result<Solved, CaseError>>;
    fn split_output(&self, output: &str) -> Vec<String>;
    fn check(&self, case: &(dyn Any + Send + Sync), expected: &str, actual: &str) -> CheckResult;
    /// Joins per-case output blocks into a file's judge output.
    fn join(&self, blocks: &[&str]) -> String {
        blocks.join(self.separator())
    }
    /// The game's generator (its profiles, options and files; see [`crate::generate`]).
    fn generator(&self) -> &dyn GameGenerator;
}

/// Adapter from a typed [`Rules`] implementation to the object-safe [`Game`].
pub struct Registered<R: Rules>(std::marker::PhantomData<fn() -> R>);

impl<R: Rules> Registered<R> {
    pub const fn new() -> Self {
        Registered(std::marker::PhantomData)
    }
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

/// A game is registered with its generator: the game type implements
/// [`gamebench_generators::Generator`] (in its `generator.rs`), lent a [`Solver`] of its own.
impl<R> Game for Registered<R>
where
    R: Rules + gamebench_generators::Generator<Tools = Solver<R>>,
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
    fn engine_names(&self) -> Vec<&'static str> {
        R::engines().iter().map(|e| e.name).collect()
    }
    fn engine_about(&self) -> Vec<(&'static str, &'static str)> {
        R::engines().iter().map(|e| (e.name, e.about)).collect()
    }
    fn default_engine(&self) -> &'static str {
        R::DEFAULT_ENGINE
    }
    fn parse(&self, input: &[u8]) -> Vec<ParsedCase> {
        R::parse(input)
            .into_iter()
            .map(|p| ParsedCase {
                line: p.line,
                label: p.label,
                size: p.size,
                case: p.case.map(|c| Box::new(c) as Box<dyn Any + Send + Sync>),
            })
            .collect()
    }
    fn solve(
        &self,
        engine: &str,
        index: usize,
        case: &(dyn Any + Send + Sync),
        budget: &Budget,
    ) -> Option<Result<Solved, CaseError>> {
        let engine = R::engines().iter().find(|e| e.name == engine)?;
        let case = downcast::<R>(case);
        Some((engine.solve)(case, budget).map(|outcome| Solved {
            output: R::format_case(index, case, &outcome),
            verdict: outcome.verdict,
            work: outcome.work,
            score: R::score(&outcome.answer),
        }))
    }
    fn split_output(&self, output: &str) -> Vec<String> {
        R::split_output(output)
    }
    fn check(&self, case: &(dyn Any + Send + Sync), expected: &str, actual: &str) -> CheckResult {
        R::check(downcast::<R>(case), expected, actual)
    }
    fn generator(&self) -> &dyn GameGenerator {
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
    }

    #[test]
    fn split_blocks_keeps_every_byte() {
        let text = "junk\nCase 1\nx\nCase 2\ny\n";
        let blocks = split_blocks(text, |l| l.starts_with("Case "));
        assert_eq!(blocks, vec!["junk\n", "Case 1\nx\n", "Case 2\ny\n"]);
        assert_eq!(blocks.concat(), text);
    }
}
