//! A journaled run from start to finish ([`Plan`]): a shard (`run --shard`), or a plain run
//! with `--resume`.
//!
//! [`Plan::run`] lists the cases ([`super::list`]), takes back what an earlier attempt finished
//! when resuming (the final CSV, checked against its [`Manifest`] if there is one, then the
//! [`Journal`]), runs the rest through the runner with `pipeline`'s filter and sink,
//! and then commits the CSV, writes the manifest ([`super::manifest`]) and deletes the journal,
//! in that order.
//!
//! Invariants: the manifest is written last and only when the run was not interrupted, so a
//! manifest means a complete shard; an interrupted run keeps its journal for `--resume`; rows
//! are resumed only from the same [`Attempt`] (list, shard, engines, runs, check, validate), by
//! (`file` column, case, engine), and each such key counts once, from the first source that has
//! it (the CSV before the journal).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use super::pipeline::{PlanSink, ShardFilter};
use super::{Attempt, CaseList, Journal, Manifest, RULE, Shard, ShardError};
use crate::corpus::CaseFile;
use crate::meta::{self, host_name, rfc3339};
use crate::results::{Record, Row};
use crate::runner::{Config, CsvSink, EngineTable, RunError, RunOutcome};

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
    /// Distinct cases with rows (the manifest's `resumed`).
    cases: usize,
}

impl Carried {
    fn of(rows: Vec<Row>) -> Carried {
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
        Carried {
            by_file,
            done,
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
    /// deletes the journal. `engines` is the run's engine table, resolved by the caller from
    /// `config` (its engines and shell) for the games of `files`. Returns the run's outcome
    /// over every row of the plan and the records for the summary.
    pub fn run(
        &self,
        files: &[CaseFile],
        config: &Config,
        engines: &EngineTable,
    ) -> Result<(RunOutcome, Vec<Record>), ShardError> {
        let start = SystemTime::now();
        let threads = config.threads.unwrap_or_else(meta::cores);
        // List on the run's threads only (a scheduler gave this task so many cores).
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(RunError::from)?;
        let list = Arc::new(pool.install(|| CaseList::of(files)));
        let attempt = Attempt {
            list_hash: list.hash.clone(),
            shard: self.shard,
            engines: config.engines.clone(),
            runs: config.runs,
            check: config.check,
            validate: config.validate,
        };
        let carried = Carried::of(if self.resume {
            self.earlier_rows(&attempt, engines, files, &list)?
        } else {
            Vec::new()
        });
        let journal = Journal::create(&Journal::path_for(&self.csv), &attempt, &[])?;
        let csv = CsvSink::create(&self.csv)?;
        let select = ShardFilter {
            list: list.clone(),
            shard: self.shard,
            done: carried.done,
        };
        let run_config = Config {
            select: Some(Arc::new(select)),
            threads: Some(threads),
            case_events: true,
            ..config.clone()
        };
        let mut sink = PlanSink::new(csv, journal, carried.by_file, engines);
        let outcome = crate::runner::run(files, &run_config, &mut [&mut sink])?;
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
            // Stopped: the journal keeps every finished file for `--resume`; no manifest, so
            // the shard does not count as complete.
            return Ok((outcome, records.records));
        }
        if let (Some(shard), Some(path)) = (self.shard, &self.manifest) {
            let counts = hasher.finish();
            manifest_of(shard, &list, config, counts, carried.cases, threads, start).write(path)?;
        }
        if let Some(journal) = journal {
            journal.remove()?;
        }
        Ok((outcome, records.records))
    }

    /// Rows of this plan's cases from an earlier attempt, for the engines this run uses: the
    /// final CSV if there is one, then the journal; a (case, engine) counts once, from the
    /// first source that has it. An engine absent from both is run, never skipped.
    fn earlier_rows(
        &self,
        attempt: &Attempt,
        engines: &EngineTable,
        files: &[CaseFile],
        list: &CaseList,
    ) -> Result<Vec<Row>, ShardError> {
        self.check_manifest(attempt)?;
        let from_csv = self.final_rows()?;
        let from_journal = Journal::read(&Journal::path_for(&self.csv), attempt)?;
        // Where each file (as written in rows) is in the run's list.
        let position: HashMap<String, usize> = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.row_name(), i))
            .collect();
        let mine = |file: &str, case: usize| -> bool {
            let Some(&f) = position.get(file) else {
                return false;
            };
            let Some(p) = case.checked_sub(1).map(|c| list.position(f, c)) else {
                return false;
            };
            self.shard.is_none_or(|s| s.owns(p))
        };
        // The engine names this run uses on each game.
        let used: HashSet<(&str, String)> = files
            .iter()
            .flat_map(|f| {
                engines
                    .of(f.game)
                    .iter()
                    .map(|e| (f.game.name(), e.name().to_string()))
                    .collect::<Vec<_>>()
            })
            .collect();
        let mut kept = Vec::new();
        let mut done: HashSet<(String, usize, String)> = HashSet::new();
        for source in [from_csv, from_journal] {
            let keys: HashSet<(String, usize, String)> = source
                .iter()
                .filter(|r| used.contains(&(r.game.as_str(), r.engine.clone())))
                .map(|r| (r.file.clone(), r.case, r.engine.clone()))
                .filter(|k| mine(&k.0, k.1) && !done.contains(k))
                .collect();
            kept.extend(
                source
                    .into_iter()
                    .filter(|r| keys.contains(&(r.file.clone(), r.case, r.engine.clone()))),
            );
            done.extend(keys);
        }
        Ok(kept)
    }

    /// Refuses to resume over a finished shard's manifest that records another attempt (no
    /// manifest, or an unreadable one, is no objection).
    fn check_manifest(&self, attempt: &Attempt) -> Result<(), ShardError> {
        let Some(path) = &self.manifest else {
            return Ok(());
        };
        let Ok(text) = std::fs::read_to_string(path) else {
            return Ok(());
        };
        let manifest: Manifest = serde_json::from_str(&text).map_err(|e| ShardError::Journal {
            path: path.clone(),
            message: format!("not a shard manifest: {e}"),
        })?;
        if attempt.matches(&manifest) {
            return Ok(());
        }
        Err(ShardError::Journal {
            path: path.clone(),
            message: format!(
                "records another run (list hash {}, engines {:?}, runs {}, check {}; this run: {}, {:?}, {}, {}); delete it or run without --resume",
                manifest.list_hash,
                manifest.engines,
                manifest.runs,
                manifest.check,
                attempt.list_hash,
                attempt.engines,
                attempt.runs,
                attempt.check
            ),
        })
    }

    /// The rows of the final CSV of an earlier attempt, if there is one.
    fn final_rows(&self) -> Result<Vec<Row>, ShardError> {
        match std::fs::File::open(&self.csv) {
            Ok(file) => crate::results::read_csv(std::io::BufReader::new(file)).map_err(|source| {
                ShardError::Csv {
                    path: self.csv.clone(),
                    source,
                }
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(source) => Err(ShardError::Io {
                path: self.csv.clone(),
                source,
            }),
        }
    }
}

/// The manifest of `shard` of `list`, run with `config` on `threads` threads from `start` until
/// now: `counts` are the (cases, hash, failures) of the rows written, `resumed` the cases taken
/// from an earlier attempt.
fn manifest_of(
    shard: Shard,
    list: &CaseList,
    config: &Config,
    (shard_cases, shard_hash, failures): (usize, String, usize),
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
        failures,
        engines: config.engines.clone(),
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
