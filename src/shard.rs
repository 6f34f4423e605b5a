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
//! [`Attempt`] (list, shard, engines, runs, check); rows of another attempt are never resumed.
//! Resumed rows are matched by (`file` column, case, engine): the path as given on the command
//! line, so a resumed run must name the corpus the same way (a different spelling only costs
//! re-solving, never mixes rows), and an engine without rows is run, never skipped.
//!
//! # On which pipeline
//!
//! A shard (or a plain run with `--resume`) is an ordinary streaming run of the runner
//! ([`crate::runner`]) with a [`CaseFilter`] choosing its cases and a sink writing its CSV and
//! journal: this module imports the runner, never the other way round.

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::atomic::write_atomic;
use crate::corpus::CaseFile;
use crate::digest::Digest;
use crate::meta::{host_name, rfc3339};
use crate::results::{Record, Row, Status};
use crate::runner::{
    CaseFilter, Config, CsvSink, EngineTable, FileResults, RecordSink, RunError, RunOutcome, Sink,
    SinkError,
};
use crate::status::Exit;

/// The name of the partition rule, as recorded in manifests.
pub const RULE: &str = "case-position-mod-n";

/// Slurm: the task's index in its job array.
pub const SLURM_TASK_ID: &str = "SLURM_ARRAY_TASK_ID";
/// Slurm: the number of tasks in the job array.
pub const SLURM_TASK_COUNT: &str = "SLURM_ARRAY_TASK_COUNT";
/// Slurm: the smallest task index of the array (`--array=1-4` starts at 1).
pub const SLURM_TASK_MIN: &str = "SLURM_ARRAY_TASK_MIN";
/// Slurm: the largest task index of the array.
pub const SLURM_TASK_MAX: &str = "SLURM_ARRAY_TASK_MAX";
/// Slurm: the step between task indices (`--array=0-8:2`).
pub const SLURM_TASK_STEP: &str = "SLURM_ARRAY_TASK_STEP";
/// Slurm: the CPUs allotted to each task (the default thread count).
pub const SLURM_CPUS: &str = "SLURM_CPUS_PER_TASK";
/// Kubernetes Indexed Jobs: the pod's completion index (the shard count comes from
/// `--shard-count`, Kubernetes does not export it).
pub const K8S_INDEX: &str = "JOB_COMPLETION_INDEX";

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

    /// The shard named by the scheduler's environment (`--shard auto`): a Slurm array task, or a
    /// Kubernetes Indexed Job pod with `shard_count` given. `env` reads a variable (tests pass a
    /// map; the CLI passes `std::env::var`). Anything missing or contradictory is an error: a
    /// task that silently ran shard 0 of 1 would duplicate the whole corpus.
    pub fn from_env(
        env: impl Fn(&str) -> Option<String>,
        shard_count: Option<usize>,
    ) -> Result<Shard, ShardError> {
        let number =
            |name: &str| -> Result<Option<usize>, ShardError> {
                match env(name) {
                    None => Ok(None),
                    Some(v) => v.trim().parse().map(Some).map_err(|_| {
                        ShardError::Inconsistent(format!("{name}={v:?} is not a number"))
                    }),
                }
            };
        let inconsistent = |m: String| Err(ShardError::Inconsistent(m));
        if let Some(id) = number(SLURM_TASK_ID)? {
            let Some(count) = number(SLURM_TASK_COUNT)? else {
                return inconsistent(format!(
                    "{SLURM_TASK_ID} is set but {SLURM_TASK_COUNT} is not"
                ));
            };
            let min = number(SLURM_TASK_MIN)?.unwrap_or(0);
            if let Some(step) = number(SLURM_TASK_STEP)?
                && step != 1
            {
                return inconsistent(format!(
                    "{SLURM_TASK_STEP}={step}: shards need consecutive task ids (--array=0-{})",
                    count.saturating_sub(1)
                ));
            }
            if let Some(max) = number(SLURM_TASK_MAX)?
                && max.checked_sub(min).map(|d| d + 1) != Some(count)
            {
                return inconsistent(format!(
                    "{SLURM_TASK_MIN}={min}, {SLURM_TASK_MAX}={max} and {SLURM_TASK_COUNT}={count} do not describe consecutive task ids"
                ));
            }
            if let Some(n) = shard_count
                && n != count
            {
                return inconsistent(format!(
                    "--shard-count {n} contradicts {SLURM_TASK_COUNT}={count}"
                ));
            }
            let index = id.checked_sub(min).filter(|&k| k < count);
            return match index {
                Some(index) => Ok(Shard { index, count }),
                None => inconsistent(format!(
                    "{SLURM_TASK_ID}={id} is outside {min}..{min}+{SLURM_TASK_COUNT} ({count})"
                )),
            };
        }
        if let Some(index) = number(K8S_INDEX)? {
            let Some(count) = shard_count else {
                return inconsistent(format!(
                    "{K8S_INDEX} is set: give the number of shards (the Job's completions) with --shard-count"
                ));
            };
            if index >= count {
                return inconsistent(format!(
                    "{K8S_INDEX}={index} is not below --shard-count {count}"
                ));
            }
            return Ok(Shard { index, count });
        }
        Err(ShardError::NoEnvironment)
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

/// The threads a scheduler gave this task (`SLURM_CPUS_PER_TASK`), if any.
pub fn scheduler_threads(env: impl Fn(&str) -> Option<String>) -> Option<usize> {
    env(SLURM_CPUS)?.trim().parse().ok().filter(|&n| n > 0)
}

/// Every case of a corpus, in partition order, with the list's hash: the number of cases of
/// each file, and where each file's cases start in the list. No case is kept.
#[derive(Debug, Clone)]
pub struct CaseList {
    /// Per file of the run's list, its position of its first case in the case list.
    starts: Vec<usize>,
    /// Cases in the whole list.
    pub len: usize,
    /// XXH3-64 (hex) of `relative<TAB>case<LF>` over the list, `case` 1-based.
    pub hash: String,
}

impl CaseList {
    /// Lists the cases of `files`, counting them with a streaming pass (read and parsed in
    /// parallel, each file dropped once counted: every shard must know the whole list to find
    /// its part).
    pub fn of(files: &[CaseFile]) -> CaseList {
        let counts: Vec<usize> = files
            .par_iter()
            .map(|f| match std::fs::read(&f.path) {
                // The runner reports a file without cases as one `error` case.
                Ok(bytes) => f.game.parse(&bytes).len().max(1),
                // And an unreadable file too.
                Err(_) => 1,
            })
            .collect();
        CaseList::from_counts(files, &counts)
    }

    /// The list for files with the given case counts.
    pub fn from_counts(files: &[CaseFile], counts: &[usize]) -> CaseList {
        let mut hasher = Digest::default();
        let mut starts = Vec::with_capacity(files.len());
        let mut len = 0;
        for (f, &count) in files.iter().zip(counts) {
            starts.push(len);
            let relative = f.relative.to_string_lossy().replace('\\', "/");
            for case in 0..count {
                hasher.write(format!("{relative}\t{}\n", case + 1).as_bytes());
            }
            len += count;
        }
        CaseList {
            starts,
            len,
            hash: hasher.hex(),
        }
    }

    /// The list position of case `case` (0-based) of the file at `file` in the run's list.
    pub fn position(&self, file: usize, case: usize) -> usize {
        self.starts[file] + case
    }
}

/// The hash of a shard's rows as `merge` sees them: XXH3-64 of `file<TAB>case<LF>` for each
/// case in order of first appearance (the `file` column as written).
pub fn rows_hash(rows: &[Row]) -> (usize, String) {
    let mut hasher = RowsHasher::default();
    for row in rows {
        hasher.add(row);
    }
    let (cases, hash, _) = hasher.finish();
    (cases, hash)
}

/// [`rows_hash`] and [`failures`], streamed over rows written in case order (the rows of a
/// case are consecutive).
#[derive(Default)]
struct RowsHasher {
    hasher: Digest,
    last: Option<(String, usize, Status)>,
    cases: usize,
    failures: usize,
}

impl RowsHasher {
    fn add(&mut self, row: &Row) {
        match &mut self.last {
            Some((file, case, worst)) if *file == row.file && *case == row.case => {
                *worst = worst.worst(row.status);
                return;
            }
            _ => {}
        }
        self.close_case();
        self.hasher
            .write(format!("{}\t{}\n", row.file, row.case).as_bytes());
        self.cases += 1;
        self.last = Some((row.file.clone(), row.case, row.status));
    }

    fn close_case(&mut self) {
        if let Some((_, _, worst)) = self.last.take()
            && worst.exit() != Exit::Ok
        {
            self.failures += 1;
        }
    }

    /// (cases, hash, failures).
    fn finish(mut self) -> (usize, String, usize) {
        self.close_case();
        (self.cases, self.hasher.hex(), self.failures)
    }
}

/// What `shard-K-of-N.json` says about a finished shard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub tool: String,
    pub version: String,
    pub rule: String,
    pub shard: usize,
    pub shards: usize,
    /// Cases in the whole list.
    pub cases: usize,
    pub list_hash: String,
    /// Cases of this shard, and the hash of their keys as written in the CSV ([`rows_hash`]).
    pub shard_cases: usize,
    pub shard_hash: String,
    /// Cases of this shard whose worst status is a failure (not `ok` or `unchecked`).
    pub failures: usize,
    /// The engines as requested (empty = each game's default), so `merge` can refuse to mix
    /// shards run with different engines.
    pub engines: Vec<String>,
    pub runs: u32,
    pub check: bool,
    /// `--validate` (absent from manifests of older versions: false).
    #[serde(default)]
    pub validate: bool,
    /// Cases taken from an earlier attempt (`--resume`) rather than solved by this one.
    pub resumed: usize,
    pub host: String,
    pub threads: usize,
    /// UTC, RFC 3339.
    pub start: String,
    pub end: String,
}

/// Cases of `rows` whose worst status is a failure (not `ok` or `unchecked`).
pub fn failures(rows: &[Row]) -> usize {
    let mut worst: HashMap<(&str, &str, usize), Status> = HashMap::new();
    for row in rows {
        let entry = worst
            .entry((row.game.as_str(), row.file.as_str(), row.case))
            .or_insert(row.status);
        *entry = entry.worst(row.status);
    }
    worst.values().filter(|s| s.exit() != Exit::Ok).count()
}

/// What an attempt at a run is, for deciding whether an earlier attempt's rows may be kept:
/// the same case list and shard, solved by the same engines the same way. It is the first line
/// of a journal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    pub list_hash: String,
    pub shard: Option<Shard>,
    pub engines: Vec<String>,
    pub runs: u32,
    pub check: bool,
    #[serde(default)]
    pub validate: bool,
}

impl Attempt {
    /// Whether `manifest` records this attempt's work.
    fn matches(&self, manifest: &Manifest) -> bool {
        let shard = Shard {
            index: manifest.shard,
            count: manifest.shards,
        };
        (
            &manifest.list_hash,
            Some(shard),
            &manifest.engines,
            manifest.runs,
            manifest.check,
            manifest.validate,
        ) == (
            &self.list_hash,
            self.shard,
            &self.engines,
            self.runs,
            self.check,
            self.validate,
        )
    }
}

/// One journal line: the complete rows of some cases.
#[derive(Debug, Serialize, Deserialize)]
struct JournalChunk {
    rows: Vec<Row>,
}

/// The append-only progress file of a run (`<csv>.partial`): a header line, then one JSON line
/// per finished chunk of cases. A line is either whole or ignored, so the cases it holds are
/// final.
pub struct Journal {
    path: PathBuf,
    file: std::fs::File,
    synced: Instant,
}

/// How often a journal is synced to disk.
pub const JOURNAL_SYNC_INTERVAL: Duration = Duration::from_secs(1);

impl Journal {
    /// The journal beside `csv`.
    pub fn path_for(csv: &Path) -> PathBuf {
        crate::atomic::beside(csv, ".partial")
    }

    /// Rows of the finished chunks in the journal at `path`, if it was written by the same
    /// `attempt`; `Ok(empty)` when there is no journal. A journal of another attempt (another
    /// list, shard, engines, runs or check) is an error: resuming it would mix results.
    pub fn read(path: &Path, attempt: &Attempt) -> Result<Vec<Row>, ShardError> {
        let io = |source| ShardError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(io(e)),
        };
        let mut lines = std::io::BufReader::new(file).lines();
        let Some(first) = lines.next().transpose().map_err(io)? else {
            return Ok(Vec::new());
        };
        match serde_json::from_str::<Attempt>(&first) {
            Ok(header) if header == *attempt => {}
            Ok(header) => {
                return Err(ShardError::Journal {
                    path: path.to_path_buf(),
                    message: format!(
                        "belongs to another run ({header:?}; this run: {attempt:?}); delete it or run without --resume"
                    ),
                });
            }
            // Not a journal header (the header is written atomically, so it is never cut
            // short): nothing after it can be trusted.
            Err(_) => {
                return Err(ShardError::Journal {
                    path: path.to_path_buf(),
                    message: "is not a gamebench journal; delete it or run without --resume"
                        .to_string(),
                });
            }
        }
        let mut rows = Vec::new();
        for line in lines {
            let Ok(line) = line else { break };
            match serde_json::from_str::<JournalChunk>(&line) {
                Ok(chunk) => rows.extend(chunk.rows),
                // Only the last line can be cut short (the process died while writing it).
                Err(_) => break,
            }
        }
        Ok(rows)
    }

    /// Starts a fresh journal at `path` holding `carried` (rows kept from an earlier attempt),
    /// replacing any previous one atomically.
    pub fn create(path: &Path, attempt: &Attempt, carried: &[Row]) -> Result<Journal, ShardError> {
        let io = |source| ShardError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut text = serde_json::to_string(attempt).expect("header serializes");
        text.push('\n');
        if !carried.is_empty() {
            text.push_str(&chunk_line(carried));
        }
        write_atomic(path, text.as_bytes()).map_err(io)?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io)?;
        Ok(Journal {
            path: path.to_path_buf(),
            file,
            synced: Instant::now(),
        })
    }

    /// Appends the complete rows of some cases. Each line goes to the kernel at once (a killed
    /// process loses nothing appended); it is synced to disk at most once per
    /// [`JOURNAL_SYNC_INTERVAL`], so a machine crash loses at most that much.
    pub fn append(&mut self, rows: &[Row]) -> Result<(), ShardError> {
        if rows.is_empty() {
            return Ok(());
        }
        let io = |source| ShardError::Io {
            path: self.path.clone(),
            source,
        };
        self.file
            .write_all(chunk_line(rows).as_bytes())
            .map_err(io)?;
        if self.synced.elapsed() >= JOURNAL_SYNC_INTERVAL {
            self.file.sync_data().map_err(io)?;
            self.synced = Instant::now();
        }
        Ok(())
    }

    /// Deletes the journal (the final files are written).
    pub fn remove(self) -> Result<(), ShardError> {
        std::fs::remove_file(&self.path).map_err(|source| ShardError::Io {
            path: self.path.clone(),
            source,
        })
    }
}

fn chunk_line(rows: &[Row]) -> String {
    let mut line = serde_json::to_string(&JournalChunk {
        rows: rows.to_vec(),
    })
    .expect("rows serialize");
    line.push('\n');
    line
}

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
    /// deletes the journal. Returns the run's outcome over every row of the plan and the
    /// records for the summary.
    pub fn run(
        &self,
        files: &[CaseFile],
        config: &Config,
    ) -> Result<(RunOutcome, Vec<Record>), ShardError> {
        let start = SystemTime::now();
        let threads = config
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        // List on the run's threads only (a scheduler gave this task so many cores).
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(RunError::from)?;
        let list = Arc::new(pool.install(|| CaseList::of(files)));
        let engines =
            EngineTable::resolve(files.iter().map(|f| f.game), &config.engines, &config.shell)
                .map_err(RunError::from)?;
        let attempt = Attempt {
            list_hash: list.hash.clone(),
            shard: self.shard,
            engines: config.engines.clone(),
            runs: config.runs,
            check: config.check,
            validate: config.validate,
        };
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
        let carried = if self.resume {
            self.earlier_rows(&attempt, &engines, files, &mine)?
        } else {
            Vec::new()
        };
        let mut by_file: HashMap<String, Vec<Row>> = HashMap::new();
        let mut done: HashSet<(String, usize, String)> = HashSet::new();
        for row in carried {
            done.insert((row.file.clone(), row.case, row.engine.clone()));
            by_file.entry(row.file.clone()).or_default().push(row);
        }
        let resumed = done
            .iter()
            .map(|(f, c, _)| (f, c))
            .collect::<HashSet<_>>()
            .len();
        let journal = Journal::create(&Journal::path_for(&self.csv), &attempt, &[])?;
        let csv = CsvSink::create(&self.csv)?;
        let select = ShardFilter {
            list: list.clone(),
            shard: self.shard,
            done,
        };
        let run_config = Config {
            select: Some(Arc::new(select)),
            threads: Some(threads),
            case_events: true,
            ..config.clone()
        };
        let mut sink = PlanSink {
            csv,
            journal: Some(journal),
            carried: by_file,
            engines: &engines,
            hasher: RowsHasher::default(),
            records: RecordSink::default(),
            journaled: HashSet::new(),
            worst: None,
            rows: 0,
        };
        let outcome = crate::runner::run(files, &run_config, &mut [&mut sink])?;
        let PlanSink {
            journal,
            hasher,
            records,
            worst,
            rows,
            ..
        } = sink;
        if outcome.interrupted {
            // Stopped: the journal keeps every finished file for `--resume`; no manifest, so
            // the shard does not count as complete.
            return Ok((
                RunOutcome {
                    worst,
                    rows,
                    ..outcome
                },
                records.records,
            ));
        }
        if let (Some(shard), Some(path)) = (self.shard, &self.manifest) {
            let (shard_cases, shard_hash, failures) = hasher.finish();
            let manifest = Manifest {
                tool: env!("CARGO_PKG_NAME").to_string(),
                version: env!("CARGO_PKG_VERSION").to_string(),
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
            };
            let mut text = serde_json::to_string_pretty(&manifest).expect("manifest serializes");
            text.push('\n');
            write_atomic(path, text.as_bytes()).map_err(|source| ShardError::Io {
                path: path.clone(),
                source,
            })?;
        }
        if let Some(journal) = journal {
            journal.remove()?;
        }
        Ok((
            RunOutcome {
                worst,
                rows,
                ..outcome
            },
            records.records,
        ))
    }

    /// Rows of this plan's cases from an earlier attempt, for the engines this run uses: the
    /// final CSV if there is one, then the journal; a (case, engine) counts once, from the
    /// first source that has it. An engine absent from both is run, never skipped.
    fn earlier_rows(
        &self,
        attempt: &Attempt,
        engines: &EngineTable,
        files: &[CaseFile],
        mine: &dyn Fn(&str, usize) -> bool,
    ) -> Result<Vec<Row>, ShardError> {
        if let Some(path) = &self.manifest
            && let Ok(text) = std::fs::read_to_string(path)
        {
            let manifest: Manifest =
                serde_json::from_str(&text).map_err(|e| ShardError::Journal {
                    path: path.clone(),
                    message: format!("not a shard manifest: {e}"),
                })?;
            if !attempt.matches(&manifest) {
                return Err(ShardError::Journal {
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
                });
            }
        }
        let from_csv = match std::fs::File::open(&self.csv) {
            Ok(file) => {
                crate::results::read_csv(std::io::BufReader::new(file)).map_err(|source| {
                    ShardError::Csv {
                        path: self.csv.clone(),
                        source,
                    }
                })?
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(source) => {
                return Err(ShardError::Io {
                    path: self.csv.clone(),
                    source,
                });
            }
        };
        let from_journal = Journal::read(&Journal::path_for(&self.csv), attempt)?;
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
}

/// The cases a plan solves: those of its shard (all without one) that no earlier attempt
/// finished for the engine at hand.
struct ShardFilter {
    list: Arc<CaseList>,
    shard: Option<Shard>,
    /// (file as written in rows, 1-based case, engine) already done.
    done: HashSet<(String, usize, String)>,
}

impl CaseFilter for ShardFilter {
    fn wants(&self, position: usize, file: &CaseFile, case: usize, engine: &str) -> bool {
        let owned = self
            .shard
            .is_none_or(|s| s.owns(self.list.position(position, case)));
        owned
            && (self.done.is_empty()
                || !self
                    .done
                    .contains(&(file.row_name(), case + 1, engine.to_string())))
    }
}

/// The sink of a plan: each file's rows, merged with the rows resumed for that file in (case,
/// engine, run) order, go to the CSV, the summary records and the manifest's hash; the rows
/// solved now go to the journal.
struct PlanSink<'a> {
    csv: CsvSink,
    journal: Option<Journal>,
    /// Resumed rows by file (as written in rows), taken as their file comes.
    carried: HashMap<String, Vec<Row>>,
    engines: &'a EngineTable,
    hasher: RowsHasher,
    records: RecordSink,
    worst: Option<Status>,
    rows: usize,
    /// (file position, 1-based case) already in the journal, from case events.
    journaled: HashSet<(usize, usize)>,
}

impl PlanSink<'_> {
    fn journal(&mut self, rows: &[Row]) -> Result<(), SinkError> {
        if let Some(journal) = &mut self.journal {
            journal.append(rows).map_err(|e| {
                let path = Journal::path_for(self.csv.path());
                SinkError::new(
                    "cannot append to",
                    &path,
                    std::io::Error::other(e.to_string()),
                )
            })?;
        }
        Ok(())
    }
}

impl Sink for PlanSink<'_> {
    fn case(&mut self, results: &FileResults<'_>) -> Result<(), SinkError> {
        if let Some(row) = results.rows.first() {
            self.journaled.insert((results.position, row.case));
        }
        self.journal(results.rows)
    }

    fn file(&mut self, results: &FileResults<'_>) -> Result<(), SinkError> {
        let fresh: Vec<Row> = results
            .rows
            .iter()
            .filter(|r| !self.journaled.contains(&(results.position, r.case)))
            .cloned()
            .collect();
        self.journaled
            .retain(|&(position, _)| position != results.position);
        self.journal(&fresh)?;
        let rows: Vec<Row> = match self.carried.remove(&results.file.row_name()) {
            None => results.rows.to_vec(),
            Some(mut rows) => {
                let order: Vec<String> = self
                    .engines
                    .of(results.file.game)
                    .iter()
                    .map(|e| e.name().to_string())
                    .collect();
                let rank = |engine: &str| order.iter().position(|e| e == engine);
                rows.extend(results.rows.iter().cloned());
                rows.sort_by_key(|r| (r.case, rank(&r.engine), r.run));
                rows
            }
        };
        for row in &rows {
            self.hasher.add(row);
            self.worst = Some(self.worst.unwrap_or(Status::Ok).worst(row.status));
        }
        self.rows += rows.len();
        self.csv.write_rows(&rows)?;
        self.records.file(&FileResults {
            rows: &rows,
            ..*results
        })
    }

    fn finish(&mut self, complete: bool) -> Result<(), SinkError> {
        self.csv.close(complete)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn parses_k_of_n() {
        assert_eq!(Shard::parse("0/4").unwrap(), Shard { index: 0, count: 4 });
        assert_eq!(Shard::parse("3/4").unwrap(), Shard { index: 3, count: 4 });
        for bad in ["4/4", "1/0", "-1/4", "1", "a/b", "1/4/2", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn slurm_array_with_offset() {
        // --array=1-4: ids 1..=4 map to shards 0..=3.
        let vars = [
            (SLURM_TASK_ID, "3"),
            (SLURM_TASK_COUNT, "4"),
            (SLURM_TASK_MIN, "1"),
            (SLURM_TASK_MAX, "4"),
        ];
        assert_eq!(
            Shard::from_env(env(&vars), None).unwrap(),
            Shard { index: 2, count: 4 }
        );
        assert_eq!(
            Shard::from_env(env(&vars), Some(4)).unwrap(),
            Shard { index: 2, count: 4 }
        );
        assert!(Shard::from_env(env(&vars), Some(5)).is_err());
    }

    #[test]
    fn slurm_inconsistencies_fail() {
        let cases: &[&[(&str, &str)]] = &[
            &[(SLURM_TASK_ID, "1")],
            &[(SLURM_TASK_ID, "4"), (SLURM_TASK_COUNT, "4")],
            &[(SLURM_TASK_ID, "x"), (SLURM_TASK_COUNT, "4")],
            &[
                (SLURM_TASK_ID, "2"),
                (SLURM_TASK_COUNT, "4"),
                (SLURM_TASK_STEP, "2"),
            ],
            &[
                (SLURM_TASK_ID, "2"),
                (SLURM_TASK_COUNT, "4"),
                (SLURM_TASK_MIN, "0"),
                (SLURM_TASK_MAX, "6"),
            ],
            &[],
        ];
        for vars in cases {
            assert!(Shard::from_env(env(vars), None).is_err(), "{vars:?}");
        }
    }

    #[test]
    fn kubernetes_needs_shard_count() {
        let vars = [(K8S_INDEX, "2")];
        assert!(Shard::from_env(env(&vars), None).is_err());
        assert!(Shard::from_env(env(&vars), Some(2)).is_err());
        assert_eq!(
            Shard::from_env(env(&vars), Some(3)).unwrap(),
            Shard { index: 2, count: 3 }
        );
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

    #[test]
    fn case_list_splits_files_by_case() {
        let game = crate::registry::GAMES[0];
        let file = |name: &str| CaseFile {
            path: PathBuf::from("root").join(name),
            relative: PathBuf::from(name),
            game,
        };
        let files = [file("a.in"), file("b.in"), file("c.in")];
        // a: 3 cases, b: none, c: 2 -> positions a1 a2 a3 c1 c2.
        let list = CaseList::from_counts(&files, &[3, 0, 2]);
        assert_eq!(list.len, 5);
        assert_eq!(list.position(0, 2), 2);
        assert_eq!(list.position(2, 0), 3);
        assert_eq!(list.position(2, 1), 4);
        // Shard 1 of 2 owns positions 1 and 3: a's second case and c's first.
        let filter = ShardFilter {
            list: Arc::new(list.clone()),
            shard: Some(Shard { index: 1, count: 2 }),
            done: HashSet::new(),
        };
        let wanted: Vec<(usize, usize)> = [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1)]
            .into_iter()
            .filter(|&(f, c)| filter.wants(f, &files[f], c, "table"))
            .collect();
        assert_eq!(wanted, [(0, 1), (2, 0)]);
        // A (case, engine) done before is not wanted again; another engine still is.
        let resumed = ShardFilter {
            done: HashSet::from([("a.in".to_string(), 2, "table".to_string())]),
            ..filter
        };
        assert!(!resumed.wants(0, &files[0], 1, "table"));
        assert!(resumed.wants(0, &files[0], 1, "reference"));
        // The hash is XXH3-64 of the documented text.
        assert_eq!(
            list.hash,
            crate::digest::digest(b"a.in\t1\na.in\t2\na.in\t3\nc.in\t1\nc.in\t2\n")
        );
        // Another list (one case fewer) has another hash.
        assert_ne!(CaseList::from_counts(&files, &[3, 0, 1]).hash, list.hash);
    }

    #[test]
    fn cpus_per_task() {
        assert_eq!(scheduler_threads(env(&[(SLURM_CPUS, "8")])), Some(8));
        assert_eq!(scheduler_threads(env(&[(SLURM_CPUS, "0")])), None);
        assert_eq!(scheduler_threads(env(&[])), None);
    }
}
