//! The shard flags of the command line, `--shard K/N|auto`, `--shard-count N` and `--resume`,
//! shared by `run` and `gen` ([`ShardArgs`]).
//!
//! Only the flags and their reading into a [`Shard`] live here: what `auto` means is
//! [`Shard::from_env`], and what `K/N` means is [`Shard::parse`]; the library takes the
//! typed `Option<Shard>`.
//!
//! Invariant: `--shard-count` never silently disagrees with the shard: given with `K/N`, it
//! must equal N, and with `auto` it must match the scheduler's count.

use crate::shard::{Shard, ShardError};

/// The shard flags shared by `run` and `gen`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ShardArgs {
    /// Do only shard K of N (0-based `K/N`: the cases, or for gen the files, whose 0-based
    /// position p in the sorted list has p mod N = K); `auto` = from SLURM_ARRAY_TASK_ID and
    /// SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX with --shard-count.
    #[arg(long, value_name = "K/N|auto")]
    pub shard: Option<String>,
    /// The number of shards, for --shard auto on Kubernetes Indexed Jobs (JOB_COMPLETION_INDEX).
    #[arg(long, value_name = "N", requires = "shard")]
    pub shard_count: Option<usize>,
    /// Skip what an earlier attempt finished: cases with rows in the shard's (or --csv) file or
    /// its journal; for gen, files already written.
    #[arg(long)]
    pub resume: bool,
}

impl ShardArgs {
    /// The shard to do, if any (`auto` reads the process environment).
    pub fn shard(&self) -> Result<Option<Shard>, ShardError> {
        let shard = match self.shard.as_deref() {
            None => return Ok(None),
            Some("auto") => Shard::from_env(|name| std::env::var(name).ok(), self.shard_count)?,
            Some(text) => {
                let shard = Shard::parse(text)?;
                if let Some(count) = self.shard_count
                    && count != shard.count
                {
                    return Err(ShardError::Contradiction {
                        count,
                        shard: text.to_string(),
                    });
                }
                shard
            }
        };
        Ok(Some(shard))
    }
}
