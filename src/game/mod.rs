//! The contract between a game and the rest of gamebench: the bottom layer above the leaves.
//!
//! A game implements [`Rules`] (how a judge input splits into cases, how an answer is printed,
//! how an expected output splits back into per-case blocks, which engines solve it), its
//! generator ([`gamebench_generators::Generator`], lent a [`Solver`]) and its case edits
//! ([`Shrink`]). [`Registered`] turns all three into the object-safe [`Game`] the runner and the
//! commands use, so nothing above this module sees a game's types.
//!
//! The parts, and how they relate:
//! - [`rules`](self::Rules): the typed contract, engines and their outcomes;
//! - [`draw`]: a case drawn as SVG frames for the report (`Rules::draw`);
//! - `budget`: the limits an engine respects on one case;
//! - `output`: comparing outputs (presentation, blocks), for checkers;
//! - `difference`: the first difference of two outputs, white space named and shown;
//! - `generator`: the erased generator interface and the [`Solver`] lent to generators;
//! - `edit`: the erased edit interface ([`CaseEditor`]) over [`Shrink`];
//! - `erased`: [`Game`] and [`EngineRef`], the object-safe view;
//! - `registered`: the adapter [`Registered`] joining the typed parts into a [`Game`].
//!
//! How an input is read is a value, not a game: a [`Reading`] (the statement's,
//! [`Reading::STATEMENT`], or known variants of it such as SameGame's `--zero-pair ends-list`)
//! is passed to every reader of an input (`parse`, `cases`) and lent to generators
//! ([`Lent`]); the game, its engines and its checker are the same whatever the reading.
//!
//! This module uses nothing above it: only the leaves (`status`, `validate`) and the generators
//! crate (a test in `tests/integration/layers.rs` keeps it so).

mod budget;
mod difference;
pub mod draw;
mod edit;
mod erased;
mod generator;
mod output;
mod registered;
mod rules;

pub use crate::status::{CheckVerdict, Rejected};
#[cfg(test)]
pub use crate::validate::testing::{test_inputs, trickle};
/// The lines of an input read one at a time, for the incremental parsers of line-based games.
pub use crate::validate::{LineReader, OwnedLine};
pub use budget::{BYTES_PER_MB, BadTimeLimit, Budget, Scratch, Stop};
pub use difference::{
    Difference, difference, explain, first_column, first_difference, presentation_message,
    quote_pair, show, show_spaces,
};
pub use draw::{Drawing, Frame};
pub use edit::{AnyCase, CaseEditor, CaseSize, FileSize, Shrink, runs};
pub use erased::{Answer, EngineId, EngineRef, Game, ParsedCase, ParsedStream, TimedAnswer};
pub use generator::{GameGenerator, GameOptions, Lent, Solver, file};
pub use output::{
    BlockStream, Blocks, MAX_BLOCK_BYTES, replace_first_line, split_blocks, split_separated,
    strip_white_space, trim_presentation,
};
pub use registered::Registered;
pub use rules::{
    CaseError, CaseStream, CheckResult, Engine, Outcome, Parsed, REFERENCE_ENGINE, Reading, Rules,
    UnknownVariant, Variant, Verdict, check_reading, grid_size, read_error,
};
