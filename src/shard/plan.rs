//! A journaled run from start to finish ([`Plan`]): a shard (`run --shard`), or a plain run
//! with `--resume`.
//!
//! [`Plan::run`] lists the cases ([`super::list`]), takes back what earlier attempts finished
//! when resuming (`resume`: the final CSV if its record vouches for it, then the
//! [`Journal`]), continues the journal or replaces it by one holding every row kept, runs the
//! rest through the runner with `pipeline`'s filter and sink, and then commits the CSV, writes
//! its record (a shard's manifest, [`super::manifest`], or a plain run's `<csv>.attempt.json`)
//! and deletes the journal, in that order.
//!
//! Invariants: the record is written last and only when the run was not interrupted, so a
//! manifest means a complete shard; an interrupted or killed run keeps its journal for
//! `--resume`, holding every case any attempt finished; rows are resumed only from the same
//! [`Attempt`], by (`file` column, case, engine), and each such key counts once, from the first
//! source that has it whole (the CSV before the journal).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use super::pipeline::{PlanSink, ShardFilter};
use super::resume::{RecordAt, earlier_rows, file_digest};
use super::{
    Attempt, CaseList, CsvRecord, EngineNames, Journal, Manifest, RULE, Shard, ShardError,
};
use crate::corpus::CaseFile;
use crate::results::{Row, Tally};
use crate::runner::{Config, CsvSink, EngineTable, KeptSlot, RunError, RunOutcome, Sink};
use crate::util::meta::{self, host_name, rfc3339};

/// Where a journaled run writes and what it resumes.
#[derive(Debug, Clone)]
pub struct Plan {
    /// `None`: the whole list (a plain run with `--resume`).
    pub shard: Option<Shard>,
    /// The final CSV (a shard's `results.shard-K-of-N.csv`, or the `--csv` file).
    pub csv: PathBuf,
    /// The manifest to write last (shards only).
    pub manifest: Option<PathBuf>,
    /// Keep the cases already in `csv` or its journal.
    pub resume: bool,
}

/// The rows taken back from an earlier attempt, arranged for the run.
struct Carried {
    /// The rows by file (as written in rows), for the sink to put back among their file's.
    by_file: HashMap<String, Vec<Row>>,
    /// (file as written in rows, 1-based case, engine) done, for the filter to skip.
    done: HashSet<(String, usize, String)>,
    /// The kept slots of partial cases by (file, 1-based case, engine), for the runner to
    /// judge those cases whole: only of cases every carried engine of which was kept.
    kept: HashMap<(String, usize, String), KeptSlot>,
    /// Distinct cases with rows (the manifest's `resumed`).
    cases: usize,
}

impl Carried {
    fn of(rows: Vec<Row>, kept: Vec<KeptSlot>) -> Carried {
        let mut by_file: HashMap<String, Vec<Row>> = HashMap::new();
        let mut done: HashSet<(String, usize, String)> = HashSet::new();
        for row in rows {
            done.insert((row.file.clone(), row.case, row.engine.clone()));
            by_file.entry(row.file.clone()).or_default().push(row);
        }
        let cases = done
            .iter()
            .map(|(f, c, _)| (f, c))
            .collect::<HashSet<_>>()
            .len();
        let kept: HashMap<(String, usize, String), KeptSlot> = kept
            .into_iter()
            .map(|k| ((k.file.clone(), k.case, k.engine.clone()), k))
            .collect();
        // A case some of whose carried engines have no kept slot (an output over the cap) is
        // settled by digest instead, all of it.
        let mut slots_of: HashMap<(&str, usize), (usize, usize)> = HashMap::new();
        for (file, case, _) in kept.keys() {
            slots_of.entry((file.as_str(), *case)).or_default().0 += 1;
        }
        for (file, case, _) in &done {
            if let Some((_, carried)) = slots_of.get_mut(&(file.as_str(), *case)) {
                *carried += 1;
            }
        }
        let kept = kept
            .iter()
            .filter(|((f, c, _), _)| {
                slots_of
                    .get(&(f.as_str(), *c))
                    .is_some_and(|(kept, carried)| kept == carried)
            })
            .map(|(key, slot)| (key.clone(), slot.clone()))
            .collect();
        Carried {
            by_file,
            done,
            kept,
            cases,
        }
    }
}

impl Plan {
    /// The plan of shard `shard` writing into `dir`.
    pub fn for_shard(shard: Shard, dir: &Path, resume: bool) -> Plan {
        Plan {
            shard: Some(shard),
            csv: dir.join(shard.csv_name()),
            manifest: Some(dir.join(shard.manifest_name())),
            resume,
        }
    }

    /// Solves this plan's cases of `files` with `config` (whose `select` is replaced) in one
    /// streaming run, journaling each finished file's rows to `<csv>.partial`; then commits
    /// the CSV (rows of resumed and solved cases in case-list order), writes the manifest and
    /// deletes the journal. `engines` is the run's engine table (and baseline), resolved by the
    /// caller for the games of `files`; `names` what the user named, recorded in the journal
    /// and the manifest; the sinks `beside` see the solved files too (problem lines). Returns
    /// the run's outcome over every row of the plan and `tally` with every row folded in, for
    /// the summary.
    pub fn run(
        &self,
        files: &[CaseFile],
        config: &Config,
        engines: &EngineTable,
        names: &EngineNames,
        tally: Tally,
        beside: &mut [&mut dyn Sink],
    ) -> Result<(RunOutcome, Tally), ShardError> {
        let start = SystemTime::now();
        let threads = config.threads.unwrap_or_else(meta::cores);
        // List on the run's threads only (a scheduler gave this task so many cores).
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(RunError::from)?;
        let list = Arc::new(pool.install(|| CaseList::of(files)));
        let attempt = Attempt::of(&list, self.shard, config, names);
        let journal_path = Journal::path_for(&self.csv);
        // The journal holds everything carried over before any case is solved: continued as
        // it is, or replaced (atomically) by one holding every row kept.
        let (carried, journal) = if self.resume {
            let earlier =
                earlier_rows(&self.csv, self.record_at(), &attempt, engines, files, &list)?;
            let journal = if earlier.append {
                Journal::open(&journal_path)?
            } else {
                Journal::create(&journal_path, &attempt, &earlier.rows, &earlier.kept)?
            };
            (Carried::of(earlier.rows, earlier.kept), journal)
        } else {
            (
                Carried::of(Vec::new(), Vec::new()),
                Journal::create(&journal_path, &attempt, &[], &[])?,
            )
        };
        let csv = CsvSink::create(&self.csv)?;
        let select = ShardFilter {
            list: list.clone(),
            shard: self.shard,
            done: carried.done,
            kept: carried.kept,
        };
        let run_config = Config {
            select: Some(Arc::new(select)),
            threads: Some(threads),
            case_events: true,
            // The plan's sink merges resumed rows in: it formats its own.
            prepare: false,
            ..config.clone()
        };
        let positions = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.row_name(), i))
            .collect();
        let mut sink = PlanSink::new(
            csv,
            journal,
            carried.by_file,
            engines,
            tally,
            engines.baseline_name().unwrap_or_default().to_string(),
            positions,
        );
        let mut sinks: Vec<&mut dyn Sink> = vec![&mut sink];
        for told in beside.iter_mut() {
            sinks.push(&mut **told);
        }
        let outcome = crate::runner::run(files, &run_config, engines, &mut sinks)?;
        let PlanSink {
            journal,
            hasher,
            records,
            worst,
            rows,
            ..
        } = sink;
        let outcome = RunOutcome {
            worst,
            rows,
            ..outcome
        };
        if outcome.interrupted {
            // Stopped: the journal keeps every finished case for `--resume`; no record, so
            // neither a shard nor the CSV counts as complete.
            return Ok((outcome, records.tally));
        }
        // The CSV is committed: its record (the manifest of a shard) vouches for it, then the
        // journal goes.
        let csv_digest = file_digest(&self.csv)?;
        match (self.shard, &self.manifest) {
            (Some(shard), Some(path)) => {
                let counts = hasher.finish_all();
                let manifest = manifest_of(
                    shard,
                    &list,
                    (config, &attempt.engines),
                    counts,
                    carried.cases,
                    threads,
                    start,
                );
                Manifest {
                    csv_digest,
                    attempt: Some(attempt),
                    ..manifest
                }
                .write(path)?;
            }
            _ => CsvRecord {
                attempt,
                csv_digest,
            }
            .write(&CsvRecord::path_for(&self.csv))?,
        }
        if let Some(journal) = journal {
            journal.remove()?;
        }
        Ok((outcome, records.tally))
    }

    /// Where the final CSV's record is.
    fn record_at(&self) -> RecordAt {
        match &self.manifest {
            Some(path) => RecordAt::Manifest(path.clone()),
            None => RecordAt::Plain(CsvRecord::path_for(&self.csv)),
        }
    }
}

/// The manifest of `shard` of `list`, run with `config` on `threads` threads from `start` until
/// now: `counts` are the (cases, hash, failures) of the rows written, `resumed` the cases taken
/// from an earlier attempt.
fn manifest_of(
    shard: Shard,
    list: &CaseList,
    (config, engines): (&Config, &[String]),
    (shard_cases, shard_hash, failures, (rows, rows_hash)): (usize, String, usize, (usize, String)),
    resumed: usize,
    threads: usize,
    start: SystemTime,
) -> Manifest {
    let (tool, version, _) = meta::build_info();
    Manifest {
        tool,
        version,
        rule: RULE.to_string(),
        shard: shard.index,
        shards: shard.count,
        cases: list.len,
        list_hash: list.hash.clone(),
        shard_cases,
        shard_hash,
        rows,
        rows_hash,
        csv_digest: String::new(),
        attempt: None,
        failures,
        engines: engines.to_vec(),
        runs: config.runs,
        check: config.check,
        validate: config.validate,
        resumed,
        host: host_name(),
        threads,
        start: rfc3339(start),
        end: rfc3339(SystemTime::now()),
    }
}
