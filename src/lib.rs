//! gamebench: simulate, solve and benchmark four contest games in bulk.
//!
//! The judge format is the interface: every engine reads a game's judge input and writes its
//! judge output byte for byte, so any engine can be dropped into a judge and any judge's data can
//! be fed to the tool. Everything else (generation, batch runs, checking, timing) is built around
//! that.
//!
//! The modules, lowest layer first (ARCHITECTURE.md draws the layers; `tests/integration/layers.rs`
//! keeps them):
//!
//! - [`util`]: utilities that know nothing of games: files written whole or not at all, the
//!   one hash, statistics, units, run metadata, progress, "did you mean".
//! - [`external`]: external programs used as engines (`cmd:COMMAND`) under a judge's limits.
//! - [`status`]: statuses, their severity and the exit codes.
//! - [`validate`]: strict validation of judge inputs; each game's validator lives in its folder.
//! - [`game`]: the contract a game implements ([`game::Rules`]) and its object-safe view.
//! - [`games`]: one folder per game (rules, parser/formatter, engines, generator).
//! - [`engines`]: engine names resolved to engines, the one [`engines::Executor`] that runs
//!   them, one engine on one case or file ([`engines::judge`]), external generators
//!   ([`engines::gencmd`]), the one comparison with expected outputs.
//! - [`corpus`]: finding case files and their expected outputs.
//! - [`runner`]: solving every case of a corpus in parallel; knows nothing game-specific.
//! - [`results`]: the CSV schema, the tally and the summary table.
//! - [`shrink`]: the generic delta-debugging loop over a game's reductions.
//! - [`generate`]: `gen`, seeded corpora from any game's generator.
//! - [`stress`]: two engines on fresh cases until they differ, then shrink; [`hunt`]: an
//!   evolutionary search for the inputs on which an engine is slowest.
//! - [`invoke`]: every solution on every test, tags, kills and the selection; [`package`]:
//!   judges' problem packages (Kattis/DOMjudge, Polygon) read as they are and written.
//! - [`duet`]: an A/B comparison inside one run, interleaved rounds, a paired effect size.
//! - [`compare`]: two runs paired case by case; [`report`]: one self-contained HTML page;
//!   [`export`]: JSON, Markdown, JUnit and SVG.
//! - [`shard`]: splitting a run into shards for Slurm arrays or GNU parallel, journals, resume,
//!   and the merge of the shards' CSVs; [`sweep`]: a generated corpus per point, fitted exponents.
//! - [`registry`]: the one place that lists the games; [`cli`]: the commands' options and calls.

pub mod cli;
pub mod compare;
pub mod corpus;
pub mod duet;
pub mod engines;
pub mod export;
pub mod external;
pub mod game;
pub mod games;
pub mod generate;
pub mod hunt;
pub mod invoke;
pub mod package;
pub mod registry;
pub mod report;
pub mod results;
pub mod runner;
pub mod shard;
pub mod shrink;
pub mod status;
pub mod stress;
pub mod sweep;
pub mod util;
pub mod validate;
