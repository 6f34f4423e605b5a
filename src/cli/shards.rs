//! The command line of shards: `run`'s shard flags (the shared `--shard`, `--shard-count`,
//! `--resume` are [`ShardArgs`], also used by `gen`; `--shard-dir` is `run`'s
//! own), the `merge` subcommand, the scheduler's thread count, and the exit-code policy of
//! shards.
//!
//! Exit codes: a plain run keeps the usual policy (0 ok, 1 mismatch/unsolved/budget, 2 error).
//! A shard (`run --shard`) exits 0 once its CSV and manifest are written, whatever the verdicts
//! (they are in the CSV and the manifest's `failures`), and 2 when it could not finish: a
//! scheduler then retries it or holds back the dependent merge (`afterok`), and a case that
//! deterministically mismatches does not block the merge. `merge` applies the usual policy to
//! all the merged rows (0, 1, 2), and exits 3 when shards are missing or inconsistent.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Args;

use super::shard_args::ShardArgs;
use crate::results::{self, Record};
use crate::shard::merge;
use crate::shard::{self, Plan};
use crate::status::Exit;
use crate::util::atomic::{Inputs, Lock, Target, write_atomic};

/// The shard flags of `run`.
#[derive(Args, Clone, Debug, Default)]
pub struct RunShardArgs {
    #[command(flatten)]
    pub common: ShardArgs,
    /// Folder for the shard's results.shard-K-of-N.csv and shard-K-of-N.json (default: .).
    #[arg(long, value_name = "DIR", requires = "shard")]
    pub shard_dir: Option<PathBuf>,
}

fn env_var(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// `-j N`, with the one meaning every command that runs work in parallel gives it (`run`,
/// `invoke`, `levels`, `sweep`): worker threads; `0` is every core; without `-j`, the
/// scheduler's `SLURM_CPUS_PER_TASK`, else every core; more than [`max_jobs`] is capped with a
/// warning.
#[derive(Args, Clone, Copy, Debug, Default)]
pub struct JobsArgs {
    /// Worker threads (0, or without -j: every core, or the scheduler's SLURM_CPUS_PER_TASK
    /// when one is set).
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
}

impl JobsArgs {
    /// The number of worker threads, resolved: always at least one.
    pub fn threads(self) -> usize {
        match self.jobs {
            Some(0) => crate::util::meta::cores(),
            Some(jobs) => cap_jobs(jobs),
            None => shard::scheduler_threads(env_var)
                .map(cap_jobs)
                .unwrap_or_else(crate::util::meta::cores),
        }
        .max(1)
    }
}

/// The most worker threads `-j` may start: four per core, and never more than 1024.
pub fn max_jobs() -> usize {
    crate::util::meta::cores().saturating_mul(4).clamp(1, 1024)
}

/// `-j N`, capped at [`max_jobs`] with a warning (`-j 100000` would start that many threads).
pub fn cap_jobs(jobs: usize) -> usize {
    let max = max_jobs();
    if jobs > max {
        eprintln!(
            "gamebench: warning: -j {jobs} is more than this machine can use ({} cores); using {max}",
            crate::util::meta::cores()
        );
        max
    } else {
        jobs
    }
}

/// The journaled plan of a `run`, or `None` for a plain run.
pub fn run_plan(args: &RunShardArgs, csv: Option<&Path>, out_dir: bool) -> Result<Option<Plan>> {
    let resume = args.common.resume;
    if let Some(shard) = args.common.shard()? {
        if csv.is_some() {
            bail!(
                "--csv does not go with --shard: the shard writes {} (in --shard-dir)",
                shard.csv_name()
            );
        }
        if out_dir {
            bail!(
                "--out-dir does not go with --shard: a shard solves only some cases of each file, and outputs are whole files (the CSV keeps each case's digest)"
            );
        }
        let dir = args.shard_dir.clone().unwrap_or_else(|| PathBuf::from("."));
        // A folder named to write into is created (a file named to write is not: its folder
        // must exist).
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("--shard-dir: cannot create {}", dir.display()))?;
        eprintln!("shard {shard}: writing into {}", dir.display());
        return Ok(Some(Plan::for_shard(shard, &dir, resume)));
    }
    if !resume {
        return Ok(None);
    }
    let Some(csv) = csv.filter(|p| p.as_os_str() != "-") else {
        bail!("--resume needs the results file to resume: --csv FILE (or --shard)");
    };
    if out_dir {
        bail!("--out-dir does not go with --resume: resumed cases have no output to write");
    }
    Ok(Some(Plan {
        shard: None,
        csv: csv.to_path_buf(),
        manifest: None,
        resume,
    }))
}

/// Takes the lock of the results file this run writes (its plan's CSV, or `--csv FILE`), held
/// until it is dropped: a second run on the same file (or its journal) stops here, exit 2,
/// saying which process holds it. Stdout, a device or a FIFO takes no lock.
pub fn lock_results(csv: Option<&Path>, plan: Option<&Plan>) -> Result<Option<Lock>> {
    let results = match plan {
        Some(plan) => Some(plan.csv.as_path()),
        None => csv,
    };
    Ok(match results {
        Some(path) => Lock::take(path)?,
        None => None,
    })
}

/// The exit code of a run (see the module doc): a shard that finished exits 0.
pub fn exit_code(plan: Option<&Plan>, verdicts: Exit) -> Exit {
    match plan {
        Some(plan) if plan.shard.is_some() => Exit::Ok,
        _ => verdicts,
    }
}

/// Arguments of `merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The folder holding the shards' results.shard-K-of-N.csv and shard-K-of-N.json.
    dir: PathBuf,
    /// The merged CSV (`-` = stdout).
    #[arg(long, short)]
    output: PathBuf,
    /// Engine the others are compared with in the summary.
    #[arg(long, default_value = "reference", value_name = "NAME")]
    baseline: String,
}

/// `gamebench merge DIR -o merged.csv`.
pub fn merge(args: MergeArgs) -> Result<Exit> {
    let to_stdout = super::outputs::is_stdout(&args.output);
    if !to_stdout {
        // Up front: the merged CSV never replaces a shard's file (the shards could never be
        // merged again), and its folder must exist.
        let mut inputs = Inputs::new();
        for file in merge::shard_files(&args.dir)? {
            inputs.add(&file);
        }
        inputs
            .refuse(&args.output)
            .map_err(|e| anyhow::anyhow!("-o {e}"))?;
        Target::of(&args.output)
            .and_then(|target| target.check_writable())
            .with_context(|| format!("-o: cannot write {}", args.output.display()))?;
    }
    let merged = match merge::merge(&args.dir) {
        Ok(merged) => merged,
        Err(e @ merge::MergeError::Problems { .. }) => {
            eprintln!("gamebench: {e}");
            return Ok(Exit::ShardsIncomplete);
        }
        Err(e) => return Err(e.into()),
    };
    let mut bytes = Vec::new();
    results::write_csv(&mut bytes, &merged.rows).context("cannot write the CSV")?;
    if to_stdout {
        use std::io::Write;
        std::io::stdout().write_all(&bytes)?;
    } else {
        write_atomic(&args.output, &bytes)
            .with_context(|| format!("cannot write {}", args.output.display()))?;
    }
    let records = Record::from_rows(&merged.rows);
    let table = results::summary_table(&results::summarize(&records, &args.baseline));
    let cases: usize = merged.manifests.iter().map(|m| m.shard_cases).sum();
    let note = format!(
        "merged {} shards, {cases} cases, {} rows{}\n",
        merged.manifests.len(),
        merged.rows.len(),
        if to_stdout {
            String::new()
        } else {
            format!(" into {}", args.output.display())
        }
    );
    if to_stdout {
        eprint!("{note}{table}");
    } else {
        print!("{note}{table}");
    }
    Ok(Exit::of(merged.rows.iter().map(|r| r.status)))
}
