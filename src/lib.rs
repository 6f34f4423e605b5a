//! gamebench: simulate, solve and benchmark four contest games in bulk.
//!
//! The judge format is the interface: every engine reads a game's judge input and writes its
//! judge output byte for byte, so any engine can be dropped into a judge and any judge's data can
//! be fed to the tool. Everything else (generation, batch runs, checking, timing) is built around
//! that.
//!
//! - [`game`]: the contract a game implements ([`game::Rules`]) and its object-safe view.
//! - [`registry`]: the one place that lists the games and their engines.
//! - [`games`]: one folder per game (rules, parser/formatter, engines, generator).
//! - [`generate`]: `gen`, seeded corpora from any game's generator; the command built from the
//!   registry.
//! - [`corpus`]: finding case files and their expected outputs.
//! - [`engines`]: engine names resolved to engines, and the one [`engines::Executor`] that runs
//!   them (internal engines and external programs); the one comparison with expected outputs.
//! - [`runner`]: solving every case of a corpus in parallel; knows nothing game-specific.
//! - [`results`]: the CSV schema and the summary table; [`export`]: JSON, Markdown and SVG;
//!   [`units`]: the one formatter of durations; [`stats`]: the one median and quantile.
//! - [`external`]: external programs used as engines (`cmd:COMMAND`); [`gencmd`]: external
//!   generators (`--generator cmd:...`), testlib style.
//! - [`validate`]: strict validation of judge inputs (`validate`, `run --validate`); each
//!   game's validator lives in its folder.
//! - [`shrink`]: each game's reductions and mutations of its cases, and the generic
//!   delta-debugging loop; [`stress`]: two engines on fresh cases until they differ, then shrink;
//!   [`hunt`]: an evolutionary search for the inputs on which an engine is slowest.
//! - [`compare`]: two runs paired case by case, regressions beyond the noise, named baselines.
//! - [`report`]: one self-contained HTML page of runs, comparisons and boards.
//! - [`shard`], [`merge`]: splitting a run into shards for Slurm arrays or GNU parallel, and
//!   merging the shards' CSVs into the one a single machine would have written.

pub mod atomic;
pub mod cli;
pub mod compare;
pub mod corpus;
pub mod digest;
pub mod duet;
pub mod engines;
pub mod export;
pub mod external;
pub mod game;
pub mod games;
pub mod gencmd;
pub mod generate;
pub mod hunt;
pub mod invoke;
pub mod judge;
pub mod merge;
pub mod meta;
pub mod progress;
pub mod progtime;
pub mod registry;
pub mod report;
pub mod results;
pub mod runner;
pub mod shard;
pub mod shrink;
pub mod stats;
pub mod status;
pub mod stress;
pub mod suggest;
pub mod sweep;
pub mod units;
pub mod validate;
