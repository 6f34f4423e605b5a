//! `gamebench report`: one self-contained HTML page of one or more runs (results CSVs, JSON
//! exports with samples, baselines), and optionally of a comparison: the runs' metadata, a
//! summary table, per-engine histograms of the time per case (log scale), per-case speed-ups
//! against the baseline engine, time against case size, the slowest cases, every non-`ok`
//! case with its message, the changed cases of a comparison, and boards drawn by the games
//! (`Rules::draw`) for the slowest and the failing cases whose input file is found.
//!
//! Invariants: the page loads nothing (no network, no external file: inline CSS, SVG and a
//! few lines of JS), so it works from a `file://` URL; every text from the inputs is escaped;
//! its size is bounded whatever the corpus (points per scatter, rows per table and boards are
//! capped by the constants below); the same inputs give the same bytes.

mod boards;
mod html;
mod svg;

use std::path::PathBuf;

pub use boards::{BoardCase, MAX_BOARDS_PER_GAME};
pub use html::page;

use crate::compare::{CaseResult, Comparison, Results};
use crate::game::Game;

/// The most slow cases listed per engine.
pub const SLOWEST: usize = 10;
/// The most non-`ok` cases listed (the rest are counted).
pub const MAX_FAILURES: usize = 300;
/// The most points per engine in a scatter plot (every n-th case beyond it, deterministically).
pub const MAX_POINTS: usize = 1_500;

/// What a report is made of.
pub struct Inputs<'a> {
    /// The runs shown (concatenated: several CSVs of one corpus split by game, say).
    pub runs: &'a [Results],
    /// A comparison to show, when asked for.
    pub comparison: Option<&'a Comparison>,
    /// The games, to draw boards.
    pub games: &'a [&'static dyn Game],
    /// Folders where the runs' input files are looked for (the CSV's `file` is relative to
    /// the path the run was given).
    pub roots: &'a [PathBuf],
    /// The engine speed-ups are measured against.
    pub baseline: &'a str,
}

/// Why a report cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("nothing to report: no case in the inputs")]
    Empty,
}

/// Every case of every run.
fn cases<'a>(inputs: &Inputs<'a>) -> Vec<&'a CaseResult> {
    inputs.runs.iter().flat_map(|r| &r.cases).collect()
}

/// The whole page.
pub fn build(inputs: &Inputs<'_>) -> Result<String, ReportError> {
    let cases = cases(inputs);
    if cases.is_empty() {
        return Err(ReportError::Empty);
    }
    let boards = boards::draw(inputs, &cases);
    Ok(page(inputs, &cases, &boards))
}
