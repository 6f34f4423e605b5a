//! Splitting one corpus run across machines: shards, their manifests and the progress journal
//! that makes `--resume` possible.
//!
//! # The partition rule
//!
//! The unit of work is a *case*: every case of every `.in` file, keyed by the file's path
//! relative to the root it was found under and the case's 1-based index in the file. The case
//! list is the corpus order of [`crate::corpus::discover`] (files sorted bytewise by relative
//! path, then cases in file order), so it is the same on every machine, whatever the mount point
//! or thread count. A file that cannot be read, or holds no case, counts as one case, as in the
//! runner.
//!
//! Case number `p` (0-based position in that list) belongs to shard `p mod N` ([`RULE`]).
//! Round-robin rather than contiguous blocks because corpora are very often sorted by
//! difficulty (`gen` numbers files in order, Vexed level packs get deeper): blocks
//! would give the last shard all the hard cases, whereas round-robin spreads every stretch of the
//! list evenly over the shards, and shard sizes never differ by more than one case.
//!
//! The case list is identified by [`CaseList::hash`] (XXH3-64 of `relative<TAB>case<LF>` for
//! every case in order). Every shard records it in its manifest, so `merge` can tell shards of
//! different corpora apart.
//!
//! # Files of a shard
//!
//! Shard `K` of `N` writes, in its folder, `results.shard-K-of-N.csv` (rows in case-list order,
//! the schema of [`crate::results`]) and then `shard-K-of-N.json` (the [`Manifest`]). Both are
//! written to a temporary name and renamed, and the manifest last, so a manifest means a complete
//! shard. While it runs, the shard appends the rows of each finished case to a journal,
//! `results.shard-K-of-N.csv.partial` (one JSON line per case, handed to the kernel at once and
//! synced to disk at least once a second), which `--resume` reads after a crash or a
//! scheduler's requeue; a truncated last line is ignored. The journal's first line is the
//! [`Attempt`] (list and corpus hashes, shard, engines, every option that changes a row); rows
//! of another attempt are never resumed. The journal only grows over the attempts: `--resume`
//! continues it, or replaces it atomically by one holding every row kept, before solving
//! anything. Resumed rows are matched by (`file` column, case, engine, run) against the case
//! list and the run (see `resume`): the path as given on the command line, so a resumed run
//! must name the corpus the same way (a different spelling only costs re-solving, never mixes
//! rows), and an engine without rows is run, never skipped. A final CSV is reused only with its
//! record (the manifest, or a plain run's `<csv>.attempt.json`) of the same attempt.
//!
//! # On which pipeline
//!
//! A shard (or a plain run with `--resume`) is an ordinary streaming run of the runner
//! ([`crate::runner`]) with a [`CaseFilter`](crate::runner::CaseFilter) choosing its cases and
//! a sink writing its CSV and journal: this module imports the runner, never the other way round.
//!
//! # Layout
//!
//! One concept per file; this file keeps what they all share: the [`Shard`] itself (`K/N`,
//! which positions it owns, the names of its files), the partition [`RULE`] and [`ShardError`].
//!
//! - [`env`](mod@env): what a scheduler's environment says: the shard of a Slurm array task or a
//!   Kubernetes Indexed Job pod ([`Shard::from_env`]), and the task's threads
//!   ([`scheduler_threads`]).
//! - [`list`]: the case list every shard computes the same way ([`CaseList`]).
//! - [`manifest`]: what a finished shard records ([`Manifest`]; a plain run's [`CsvRecord`]),
//!   and the hashes of its rows that `merge` checks ([`rows_hash`], [`row_keys_hash`]).
//! - [`journal`]: the progress file `--resume` reads back ([`Journal`]), headed by the
//!   [`Attempt`] it belongs to.
//! - [`plan`]: a journaled run from start to finish ([`Plan::run`]): what it resumes, the run,
//!   the final CSV and the manifest.
//! - `resume`: what `--resume` takes back from the final CSV and the journal, each row checked.
//! - `pipeline`: the plan's pieces plugged into the runner: the case filter and the sink.
//!
//! The machine's name and the UTC timestamps a manifest records come from [`crate::util::meta`].

pub mod env;
pub mod journal;
pub mod list;
pub mod manifest;
pub mod merge;
mod pipeline;
pub mod plan;
mod resume;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::runner::{RunError, SinkError};

pub use env::{
    K8S_INDEX, SLURM_CPUS, SLURM_TASK_COUNT, SLURM_TASK_ID, SLURM_TASK_MAX, SLURM_TASK_MIN,
    SLURM_TASK_STEP, scheduler_threads,
};
pub use journal::{
    ATTEMPT_FORMAT, Attempt, EngineNames, JOURNAL_SYNC_INTERVAL, Journal, JournalContents,
};
pub use list::CaseList;
pub use manifest::{CsvRecord, Manifest, failures, row_keys_hash, rows_hash};
pub use plan::Plan;

/// The name of the partition rule, as recorded in manifests.
pub const RULE: &str = "case-position-mod-n";

/// Why a shard could not be chosen or its files used.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    #[error("--shard {0:?}: expected K/N with 0 <= K < N (e.g. 0/4), or auto")]
    Syntax(String),
    #[error(
        "--shard auto: no shard in the environment (neither {SLURM_TASK_ID} with {SLURM_TASK_COUNT}, nor {K8S_INDEX} with --shard-count)"
    )]
    NoEnvironment,
    #[error("--shard auto: {0}")]
    Inconsistent(String),
    #[error("--shard-count {count} contradicts --shard {shard}")]
    Contradiction { count: usize, shard: String },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Journal { path: PathBuf, message: String },
    #[error("{path}: {source}")]
    Csv { path: PathBuf, source: csv::Error },
    #[error(transparent)]
    Run(#[from] RunError),
    #[error(transparent)]
    Sink(#[from] SinkError),
}

/// One shard of a partition: `index` of `count`, 0-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Parses `K/N`.
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError::Syntax(text.to_string());
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether the case (or generated file) at 0-based `position` belongs to this shard.
    pub fn owns(&self, position: usize) -> bool {
        position % self.count == self.index
    }

    /// `shard-K-of-N`.
    pub fn stem(&self) -> String {
        format!("shard-{}-of-{}", self.index, self.count)
    }

    /// The shard's CSV, `results.shard-K-of-N.csv`.
    pub fn csv_name(&self) -> String {
        format!("results.{}.csv", self.stem())
    }

    /// The shard's manifest, `shard-K-of-N.json`.
    pub fn manifest_name(&self) -> String {
        format!("{}.json", self.stem())
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_k_of_n() {
        assert_eq!(Shard::parse("0/4").unwrap(), Shard { index: 0, count: 4 });
        assert_eq!(Shard::parse("3/4").unwrap(), Shard { index: 3, count: 4 });
        for bad in ["4/4", "1/0", "-1/4", "1", "a/b", "1/4/2", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn round_robin_covers_every_position_once() {
        let n = 4;
        for p in 0..103 {
            let owners: Vec<usize> = (0..n)
                .filter(|&k| Shard { index: k, count: n }.owns(p))
                .collect();
            assert_eq!(owners, [p % 4]);
        }
    }
}
