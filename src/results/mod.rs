//! The results of a run: one CSV row per case, engine and timed run, and the summary of them.
//!
//! How the parts relate, from the raw data to the text:
//!
//! - [`schema`]: the CSV's column table, and from it [`Row`], [`Line`] (a row borrowed, as the
//!   runner writes it) and [`COLUMNS`]; [`write_csv`] / [`read_csv`]. The CSV is the raw data:
//!   everything below is derived from rows only, so a summary can be recomputed from a CSV
//!   file. `line.rs`: the `columns!` macro that turns the table into those types, and the
//!   fast writer of a [`Line`] ([`csv_header`], `Line::write`).
//! - [`Timing`]: what a row's time covers, re-exported from the executor that decides it
//!   (`crate::engines`, with [`REPEAT_BELOW_NS`] and [`MIN_TIMED_NS`]).
//! - [`record`]: the compact per-case [`Record`] (runs folded into their median, no outputs),
//!   built from rows by the runner's sink or from a CSV, and grouped per (game, engine).
//! - [`batch`]: the compact records of whole cases of one file ([`Batch`]), built by the
//!   runner's workers straight from what the engines got and folded into a tally without a
//!   [`Record`] per case.
//! - [`tally`]: the records folded as they arrive ([`Tally`]): exact counts and sums, and per
//!   case only its time and status, so a run of millions of cases keeps a few bytes a case.
//! - [`summary`]: [`EngineSummary`] per (game, engine) from a tally, and the [`slowest`] cases.
//! - [`warnings`]: hyperfine's warnings about the timings, from records.
//! - [`render`]: the summary as text for the terminal (table, details, verdicts).
//! - [`limits`]: how close each program came to the judge's limits (worst case, share).
//!
//! Times are printed by [`crate::util::units`] (re-exported here for the callers that import them
//! from `results`); medians and quantiles come from [`crate::util::stats`].

pub mod batch;
pub mod limits;
mod line;
pub mod record;
pub mod render;
pub mod schema;
pub mod summary;
pub mod tally;
pub mod warnings;

pub use crate::engines::{MIN_TIMED_NS, REPEAT_BELOW_NS, Timing};
pub use crate::status::Status;
pub use crate::util::units::{TimeUnit, human_time, human_time_f};
pub use batch::{Batch, CaseView};
pub use limits::{LimitFigures, limit_lines};
pub use line::header as csv_header;
pub use record::{CaseTimes, Record, per_case_times};
pub use render::{aligned, detail_lines, headlines, speed_text, summary_table, verdict_lines};
pub use schema::{
    COLUMN_MEANINGS, COLUMNS, Digest, Line, PARTIAL_CASE, Row, partial_note, read_csv,
    without_partial_note, write_csv,
};
pub use summary::{EngineSummary, SlowCase, slowest, summarize};
pub use tally::Tally;
pub use warnings::{FIRST_RUN_FACTOR, MIN_RUNS_FOR_OUTLIERS, ROUGH_NS, SPREAD_WARNING, warnings};
