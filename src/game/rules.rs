//! The contract a game implements: [`Rules`] (parse, format, split, check), its engines
//! ([`Engine`], plain functions in a constant table) and what they return ([`Outcome`],
//! [`Verdict`]); malformed input is a [`CaseError`] naming its line.
//!
//! Invariants every game keeps:
//! - `format_case(k, answer)` for the cases of a file, in order, joined by `Rules::SEPARATOR`,
//!   is the judge output of that file, byte for byte.
//! - `split_output` is the inverse on judge output: it returns the per-case blocks that
//!   `format_case` would have produced (so outputs can be checked case by case).
//! - parsing never panics on any bytes; a malformed case becomes a [`CaseError`] that names the
//!   line, and the parser resynchronises on the next case when the format allows it.

use std::io::{BufRead, Read};

use super::budget::Budget;
use super::difference::first_difference;
use super::output::{BlockStream, Blocks, split_separated, trim_presentation};
use crate::validate::Validation;

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
///
/// An engine that fails on a case as a whole rather than on one of its lines (a search that
/// cannot go on) says line 0; [`crate::engines::judge::judge_case`] puts the case's first line in its
/// place ([`CaseError::or_at`]), so every error a user sees names a line of the file.
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

    /// This error, at `line` when it names no line of its own (line 0).
    pub fn or_at(self, line: usize) -> Self {
        match self.line {
            0 => CaseError { line, ..self },
            _ => self,
        }
    }
}

/// A grid's size as [`Parsed::size`] shows it, `ROWSxCOLS`, without the formatting machinery
/// (a parser makes one per case, millions in a stress file).
pub fn grid_size(rows: u64, cols: u64) -> String {
    let mut digits = itoa::Buffer::new();
    let mut size = String::with_capacity(GRID_SIZE_BYTES);
    size.push_str(digits.format(rows));
    size.push('x');
    size.push_str(digits.format(cols));
    size
}

/// Bytes of a grid's size text with up to three digits a side.
const GRID_SIZE_BYTES: usize = 7;

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

/// The cases of a judge input, in file order, as [`Rules::cases`] yields them.
pub type CaseStream<C> = Box<dyn Iterator<Item = Parsed<C>> + Send>;

/// The case that stands for a read error at `line`: the input cannot be read further.
pub fn read_error<C>(line: usize, error: &std::io::Error) -> Parsed<C> {
    Parsed {
        line,
        label: String::new(),
        size: String::new(),
        case: Err(CaseError::new(
            line,
            format!("cannot read the input: {error}"),
        )),
    }
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

/// A known reading of a statement that public solutions follow instead of the statement's own,
/// chosen on the command line as `--OPTION VALUE` (SameGame: `--zero-pair ends-list`) and
/// documented in the game's `RULES.md`. A variant changes how the input is read
/// ([`Rules::parse`] under a [`Reading`] that follows it), so every engine and the checker see
/// the same cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Variant {
    /// The command-line option, without its dashes.
    pub option: &'static str,
    /// The option's value that selects this variant.
    pub value: &'static str,
    /// One line for the documentation and error messages.
    pub about: &'static str,
}

/// How an input is read: the statement's reading ([`Reading::STATEMENT`], the default, empty)
/// or with some of a game's [`Rules::VARIANTS`] chosen. A value every reader of an input is
/// asked with (`parse`, `cases`, generators through [`crate::game::Solver::reading`]), not a
/// property of the game. Game-agnostic: a game asks [`Reading::follows`] for its own variants
/// and ignores any other (a run over several games hands each the same reading).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Reading {
    /// `(option, value)` pairs, in the order given, each option at most once.
    chosen: Vec<(String, String)>,
}

impl Reading {
    /// The statement's own reading, the judge's: no variant chosen.
    pub const STATEMENT: Reading = Reading::statement();

    /// The statement's own reading ([`Reading::STATEMENT`]).
    pub const fn statement() -> Self {
        Reading { chosen: Vec::new() }
    }

    /// This reading with `--option value` chosen (replacing an earlier value of `option`).
    pub fn with(mut self, option: &str, value: &str) -> Self {
        self.chosen.retain(|(o, _)| o != option);
        self.chosen.push((option.to_string(), value.to_string()));
        self
    }

    /// Whether this reading follows `variant`.
    pub fn follows(&self, variant: &Variant) -> bool {
        self.chosen
            .iter()
            .any(|(o, v)| o == variant.option && v == variant.value)
    }

    /// Whether this is the statement's own reading (no variant chosen).
    pub fn is_statement(&self) -> bool {
        self.chosen.is_empty()
    }

    /// The chosen `(option, value)` pairs.
    pub fn chosen(&self) -> impl Iterator<Item = (&str, &str)> {
        self.chosen.iter().map(|(o, v)| (o.as_str(), v.as_str()))
    }

    /// This reading restricted to the variants in `variants` (for a command over several
    /// games, where each game follows the variants it has).
    pub fn restricted_to(&self, variants: &[Variant]) -> Reading {
        Reading {
            chosen: self
                .chosen
                .iter()
                .filter(|(o, v)| variants.iter().any(|x| x.option == o && x.value == v))
                .cloned()
                .collect(),
        }
    }
}

impl std::fmt::Display for Reading {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.chosen.is_empty() {
            return f.write_str("the statement's reading");
        }
        let names: Vec<String> = self
            .chosen
            .iter()
            .map(|(o, v)| format!("--{o} {v}"))
            .collect();
        f.write_str(&names.join(" "))
    }
}

/// A reading names a variant the game does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{game} has no variant `--{option} {value}` (its variants: {known})")]
pub struct UnknownVariant {
    pub game: &'static str,
    pub option: String,
    pub value: String,
    /// The game's variants, `--option value` each, or `none`.
    pub known: String,
}

/// Checks that every variant `reading` chooses is one of `variants` (those of game `game`).
pub fn check_reading(
    game: &'static str,
    variants: &[Variant],
    reading: &Reading,
) -> Result<(), UnknownVariant> {
    for (option, value) in reading.chosen() {
        if !variants
            .iter()
            .any(|v| v.option == option && v.value == value)
        {
            let known: Vec<String> = variants
                .iter()
                .map(|v| format!("--{} {}", v.option, v.value))
                .collect();
            return Err(UnknownVariant {
                game,
                option: option.to_string(),
                value: value.to_string(),
                known: if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                },
            });
        }
    }
    Ok(())
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

    /// The engines, [`REFERENCE_ENGINE`] first, names unique. Checked when the game is
    /// registered ([`Registered::new`], evaluated at compile time in the registry).
    const ENGINES: &'static [Engine<Self::Case, Self::Answer>];
    /// The fastest engine, used when the user names none; one of [`Rules::ENGINES`].
    const DEFAULT_ENGINE: &'static str;

    /// The known variants of the statement's reading this game can follow (none by default).
    const VARIANTS: &'static [Variant] = &[];

    /// Splits a judge input file into cases, read under `reading` (the variants of
    /// [`Rules::VARIANTS`] it follows; a game without variants ignores it). Never panics,
    /// whatever the bytes.
    fn parse(input: &[u8], reading: &Reading) -> Vec<Parsed<Self::Case>>;

    /// The same cases as [`Rules::parse`] (same lines, labels, errors and resynchronisation),
    /// read incrementally from `input`: the runner takes them a chunk at a time, so that a
    /// file's memory is its chunk's, not the file's. The default reads the whole input and
    /// parses it (a read error becomes one case naming it); a game whose parser can stop at
    /// a case boundary overrides it (SameGame).
    fn cases(input: Box<dyn BufRead + Send>, reading: &Reading) -> CaseStream<Self::Case> {
        let mut input = input;
        let mut bytes = Vec::new();
        match input.read_to_end(&mut bytes) {
            Ok(_) => Box::new(Self::parse(&bytes, reading).into_iter()),
            Err(e) => Box::new(std::iter::once(read_error(1, &e))),
        }
    }

    /// Strict validation of a judge input against the statement's constraints (sizes, counts,
    /// alphabets, terminators, white space), separate from the lenient [`Rules::parse`]: every
    /// violation names its case, line and constraint (see [`crate::validate`]). Never panics,
    /// linear in the input, read from `input` as it comes (every game's validator reads a case,
    /// or the lines it looks at, at a time), so a file of any size validates in bounded memory.
    /// A read error is returned. Lives in the game's `validate.rs`.
    fn validate_reader(input: &mut dyn BufRead) -> std::io::Result<Validation>;

    /// [`Rules::validate_reader`] of an input in memory. The one default, which every game
    /// keeps: reading a slice cannot fail.
    fn validate(input: &[u8]) -> Validation {
        Self::validate_reader(&mut &input[..]).unwrap_or_default()
    }

    /// The judge output of case `index` (1-based within its file) with this answer.
    fn format_case(index: usize, case: &Self::Case, outcome: &Outcome<Self::Answer>) -> String;

    /// Whether a line of a judge output starts a case's block (`Case k`, `Grid k.`): what a
    /// game states so that its output splits into per-case blocks ([`Rules::split_output`]
    /// and [`Rules::output_blocks`] follow from it and [`Rules::SEPARATOR`]). A game whose
    /// output is one block (one case per file) says no line does.
    fn starts_block(line: &str) -> bool;

    /// Splits a judge output file into per-case blocks (the inverse of `format_case` joined by
    /// `SEPARATOR`; the blocks do not contain the separator). Used by `run --check` and by
    /// external engines. The default, which a game keeps: a block at each line
    /// [`Rules::starts_block`] says starts one, text before the first a block of its own, the
    /// separator stripped from every block followed by another ([`super::split_separated`]).
    fn split_output(output: &str) -> Vec<String> {
        split_separated(output, Self::starts_block, Self::SEPARATOR)
    }

    /// The blocks of [`Rules::split_output`] on the text of `input` (invalid UTF-8 replaced),
    /// read a line at a time ([`super::Blocks`]), so that `check` holds a block at a time, not
    /// a file. The same default, read as it comes.
    fn output_blocks(input: Box<dyn BufRead + Send>) -> BlockStream {
        Blocks::new(input, Self::starts_block)
            .separated_by(Self::SEPARATOR)
            .boxed()
    }

    /// A number summarising an answer where the game has one (Vexed: the solution length K),
    /// reported in the CSV's `score` column and used by generators that filter on it.
    fn score(_answer: &Self::Answer) -> Option<u64> {
        None
    }

    /// A judge input holding this case alone, complete as the statement writes one (its
    /// terminator included, so [`Rules::validate`] accepts it), whose judge output, renumbered
    /// from case 1 to the case's place ([`Rules::renumber_block`]), is exactly the block this
    /// case has in its whole file's output. It is how a case is handed to a program alone
    /// (`run --case-timeout`, `invoke --select`). `None` (the default) when the game cannot
    /// write a case alone.
    fn case_input(_case: &Self::Case) -> Option<String> {
        None
    }

    /// `block`, the output block a case printed as case `from` (1-based) of its file, as it
    /// reads when the case is case `to`: a game whose output numbers its cases (`Grid 3.`,
    /// `Case 3`) rewrites the number of the block's first line when that line is case
    /// `from`'s, and leaves any other line as printed (a wrong number stays wrong). The
    /// default, for outputs that number nothing, is the block unchanged.
    fn renumber_block(block: &str, _from: usize, _to: usize) -> String {
        block.to_string()
    }

    /// The case's size as one number, for plots and scaling fits (the CSV's `cells` column):
    /// board cells, turns, selections, whatever the engines' cost grows with.
    fn cells(_case: &Self::Case) -> Option<u64> {
        None
    }

    /// The case drawn for the HTML report (`gamebench report`): its board, and where the game
    /// has one, its answer replayed (`expected` is the case's block of the expected output
    /// beside the input, when there is one). `None` (the default) when the game draws nothing
    /// or the case is too big to draw (see [`crate::game::draw`]).
    fn draw(_case: &Self::Case, _expected: Option<&str>) -> Option<super::Drawing> {
        None
    }

    /// The final board one case's output `block` describes (an expected block or an
    /// engine's), as a standalone SVG for the report, which draws a failing case's expected
    /// and actual boards side by side. `None` (the default) when the game draws none or the
    /// block describes no board; the report then shows the block's text.
    fn draw_answer(_case: &Self::Case, _block: &str) -> Option<String> {
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

#[cfg(test)]
mod grid_size_tests {
    #[test]
    fn a_grid_size_is_rows_x_cols_in_decimal() {
        assert_eq!(super::grid_size(1, 1), "1x1");
        assert_eq!(super::grid_size(10, 40), "10x40");
        assert_eq!(super::grid_size(0, 123_456), "0x123456");
    }
}
