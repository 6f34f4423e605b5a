//! Solving every case of a corpus with one or more engines, in parallel, streaming results to
//! sinks. The runner knows nothing game-specific: it reads files, asks each file's [`Game`]
//! to parse them into cases, runs resolved engines on them, checks outputs with the game's
//! checker, and hands rows to [`Sink`]s.
//!
//! The pipeline: files in corpus order -> a bounded window of files in flight (by count and by
//! bytes, scaled with the thread count) -> each file read and parsed on a worker, then one
//! task per (case, engine) for engines that run a case alone and one per (file, engine) for
//! those that run whole files (programs), all on one rayon pool so work flows across files and
//! games -> each task stores its result in its file; the task
//! that finishes a file's last slot hands the file to the calling thread, which keeps it until
//! every earlier file is retired (a reordering buffer) -> the file's rows, outputs and problems
//! go to the sinks and the file is dropped. Memory is bounded by the window, not by the corpus.
//!
//! The files of this folder, one concern each:
//! - `mod.rs`: [`Config`], [`run`], [`RunOutcome`];
//! - `pipeline.rs`: the window, admission of files, retirement in corpus order (the
//!   reordering buffer), case events for journals;
//! - `load.rs`: a file read and parsed (its expected outputs, its validation) and its
//!   (case, engine) slots, shared by the tasks solving it;
//! - `slot.rs`: the slots scheduled on the pool, each engine run through its
//!   [`crate::engines::Executor`] (one task per case, or per file for executors that run whole
//!   files);
//! - `done.rs`: what a slot got ([`done::Done`]), built from the executor's `CaseRun`;
//! - `judgement.rs`: a slot's status, verdict and message, decided there alone (the answer or
//!   fault, the comparisons' outcomes, `unchecked`);
//! - `verdict.rs`: what a slot's output is compared with: the expected output, the baseline
//!   engine's output;
//! - `rows.rs`: slots to what the sinks read ([`Sink::wants`]): CSV lines and compact records
//!   prepared on the worker that finished a chunk (rows only when a sink reads rows), problem
//!   lines and whole outputs (CSV lines formatted straight into a buffer by
//!   [`crate::results::Line`]);
//! - `completions.rs`: the queue that wakes the calling thread; `sink.rs`: the sinks.
//!
//! Invariants:
//! - Sinks see files in corpus order and rows in (file, case, engine, run) order, whatever the
//!   thread count: `-j 1` and `-j 8` give the same bytes apart from times.
//! - A bad case never stops the batch: it becomes an `error` row naming file, case and line.
//! - With several engines on a game, every engine is compared with the baseline engine case by
//!   case (with the game's checker), so disagreements show even without expected outputs.
//! - `ok` means compared and accepted: a solved case whose output was compared with nothing
//!   (no `--check`, no baseline engine beside it) is `unchecked`.
//! - A case whose call is shorter than `results::REPEAT_BELOW_NS` is timed in batches of calls
//!   (`case-repeated`), unless `Config::repeat_short` is off.
//! - Engines are resolved once, by the caller, before any file is read ([`EngineTable`]: the
//!   engines of each game and the position of its baseline); the timed region holds the
//!   engine call alone.

mod completions;
mod done;
mod judgement;
mod load;
mod pipeline;
mod rows;
mod sink;
mod slot;
#[cfg(test)]
mod tests;
mod verdict;

use rayon::prelude::*;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub use crate::engines::{ALL_ENGINES, DEFAULT_TIMEOUT, EngineError, EngineSpec, EngineTable};
pub use crate::util::progress::{PLAIN_INTERVAL, ProgressMode};
pub use done::KeptSlot;
pub use sink::{
    CsvSink, FileOutput, FileResults, OutDirSink, Prepared, ProblemLines, RecordSink, Sink,
    SinkError, Wants,
};

use crate::corpus::CaseFile;
use crate::engines::{Clock, Limits, Plan};
use crate::external::Shell;
use crate::game::Budget;
use crate::results::Status;
use crate::status::{Exit, Presentation};
use crate::util::progress::{Amount, Counted, Progress};
use pipeline::{Pipeline, Window};

/// Which cases a run solves, for shards and resumed runs: asked once per (file, case, engine)
/// before any work is scheduled.
pub trait CaseFilter: Send + Sync {
    /// Whether case `case` (0-based) of the file at `position` in the run's list is solved by
    /// `engine`.
    fn wants(&self, position: usize, file: &CaseFile, case: usize, engine: &str) -> bool;

    /// The slot an earlier attempt finished and kept for case `case` (0-based) of the file at
    /// `position`, for `engine` (which this run does not solve on it), asked only for a case
    /// the run solves for another engine: the case is then judged whole with it.
    fn kept(
        &self,
        _position: usize,
        _file: &CaseFile,
        _case: usize,
        _engine: &str,
    ) -> Option<&KeptSlot> {
        None
    }
}

/// What to run and how.
#[derive(Clone)]
pub struct Config {
    pub budget: Budget,
    /// Compare each case's output with the expected `X.out` beside `X.in`.
    pub check: bool,
    /// What a presentation error counts as, against `X.out` and against the baseline.
    pub presentation: Presentation,
    /// Validate each file strictly first (the game's validator); a case with a violation is
    /// not solved and gets status `error` with the violation.
    pub validate: bool,
    /// Worker threads; `None` = all cores.
    pub threads: Option<usize>,
    /// How to show progress on stderr.
    pub progress: ProgressMode,
    /// Untimed runs of each case before the timed ones.
    pub warmup: u32,
    /// Timed runs of each case (at least 1).
    pub runs: u32,
    /// Time a case too short to time alone by repetition (batches of calls lasting at least
    /// `results::MIN_TIMED_NS`); off, every case is timed alone, however short.
    pub repeat_short: bool,
    /// Wall-time limit of one external program run (one file).
    pub timeout: Duration,
    /// How external programs are started (`sh -c`, another shell, or none).
    pub shell: Shell,
    /// Per-case time limit of external programs: a one-case file runs under it, and a file of
    /// a game that can write each case as an input of its own (`Game::case_input`) runs case by
    /// case; other files run whole under `timeout`.
    pub case_timeout: Option<Duration>,
    /// The other limits of external programs (CPU, memory, output, pinning); its `timeout`
    /// and `case_timeout` are not read (the fields above are).
    pub program_limits: Limits,
    /// Build each file's whole output for the sinks (needed for `--out-dir`).
    pub keep_outputs: bool,
    /// Solve only the cases this filter wants; `None` = all.
    pub select: Option<Arc<dyn CaseFilter>>,
    /// Set (e.g. by a signal handler) to stop the run: no new work is taken, cases already
    /// running finish, files complete by then are handed to the sinks, the rest is dropped.
    pub stop: Arc<AtomicBool>,
    /// Also hand each case to the sinks ([`Sink::case`]) as soon as every engine finished it,
    /// before its file is complete (journals, so a stopped run loses at most its running cases).
    pub case_events: bool,
    /// Have the worker that assembles a chunk format its rows as CSV text ([`sink::Prepared`])
    /// even when no sink says it writes a CSV ([`Sink::wants`]; a [`CsvSink`] does).
    pub prepare: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            budget: Budget::UNLIMITED,
            check: false,
            presentation: Presentation::Reject,
            validate: false,
            threads: None,
            progress: ProgressMode::None,
            warmup: 0,
            runs: 1,
            repeat_short: true,
            timeout: DEFAULT_TIMEOUT,
            shell: Shell::default(),
            case_timeout: None,
            program_limits: Limits::default(),
            keep_outputs: false,
            prepare: false,
            select: None,
            stop: Arc::new(AtomicBool::new(false)),
            case_events: false,
        }
    }
}

/// Why a run could not start or finish.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error("cannot start the worker threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
    #[error(transparent)]
    Sink(#[from] SinkError),
}

/// What a finished run tells its caller (the rows went to the sinks).
#[derive(Debug, Default, Clone, Copy)]
pub struct RunOutcome {
    /// The worst status over every row written.
    pub worst: Option<Status>,
    /// Files retired, and rows written.
    pub files: usize,
    pub rows: usize,
    /// The run was stopped ([`Config::stop`]) before every file was handed over.
    pub interrupted: bool,
}

impl RunOutcome {
    /// The exit code of the run's verdicts.
    pub fn exit(&self) -> Exit {
        Exit::of(self.worst)
    }
}

/// Why a file that yields no case gets an error row.
pub const NO_CASE: &str = "the file holds no case (empty, or only a terminator)";

/// Files in flight per worker thread.
const FILES_PER_THREAD: usize = 32;
/// Fewest files in flight, so that small files keep every thread busy.
const MIN_FILES_IN_FLIGHT: usize = 64;
/// Input bytes in flight per worker thread (a file read whole and larger than the window still
/// runs alone; a streamed file counts a chunk's bytes per chunk in flight).
const BYTES_PER_THREAD: u64 = 8 << 20;
/// Chunks of one streamed file in flight per worker thread: one being solved while the next
/// is loaded. A chunk holds thousands of cases and their results, so a file of tiny cases is
/// bounded by this, not by its bytes.
const STREAMED_CHUNKS_PER_THREAD: usize = 2;

/// Runs `config` over `files` with the engines (and the baseline) of `table`, resolved by the
/// caller before anything is read, handing results to `sinks`. A table may hold any
/// [`crate::engines::Executor`] ([`EngineSpec::Custom`]).
pub fn run(
    files: &[CaseFile],
    config: &Config,
    table: &EngineTable,
    sinks: &mut [&mut dyn Sink],
) -> Result<RunOutcome, RunError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = config.threads {
        builder = builder.num_threads(n);
    }
    let pool = builder.build()?;
    let threads = pool.current_num_threads();
    let window = Window {
        files: (threads * FILES_PER_THREAD).max(MIN_FILES_IN_FLIGHT),
        bytes: BYTES_PER_THREAD * threads as u64,
        chunks_per_file: STREAMED_CHUNKS_PER_THREAD * threads,
    };
    // The sizes the window counts, read up front on the workers: one stat per file on the
    // calling thread would make it the bottleneck of a corpus of many tiny files.
    let sizes: Vec<u64> = pool.install(|| {
        files
            .par_iter()
            .map(|f| std::fs::metadata(&f.path).map_or(0, |m| m.len()))
            .collect()
    });
    // Rows are built only if a sink reads them; CSV text only if one writes it.
    let wants = sinks
        .iter()
        .fold(Wants::NOTHING, |all, sink| all.and(sink.wants()));
    let bar = Progress::new(config.progress, "run", files.len(), Some("cases x engines"))
        .with_runs(config.runs)
        .with_threads(threads);
    if bar.draws_bar() {
        count_ahead(files, table, config.select.clone(), bar.counted.clone());
    }
    let result = Pipeline {
        files,
        sizes: &sizes,
        config,
        shared: Arc::new(config.clone()),
        plan: Arc::new(config.plan()),
        table,
        pool: &pool,
        bar: &bar,
        window,
        wants,
    }
    .run(sinks);
    bar.finish();
    let outcome = result?;
    for sink in sinks.iter_mut() {
        sink.finish(!outcome.interrupted)?;
    }
    Ok(outcome)
}

/// Units the pass ahead counts before it tells their classes (one lock per batch).
const CLASS_BATCH: usize = 4096;

/// Counts the slots of `files` (cases x engines, as the workers will list them) on a thread
/// of its own, ahead of the workers, into `counted`: the bar's total from its first lines
/// instead of a guess. The thread gives up when the run ends first.
fn count_ahead(
    files: &[CaseFile],
    table: &EngineTable,
    select: Option<Arc<dyn CaseFilter>>,
    counted: Arc<Counted>,
) {
    let jobs: Vec<(CaseFile, Arc<[EngineSpec]>)> = files
        .iter()
        .map(|f| (f.clone(), table.of(f.game)))
        .collect();
    let pass = move || {
        for (position, (file, engines)) in jobs.iter().enumerate() {
            // Units per engine of this file, handed to `counted` by class now and then.
            let mut by_engine = vec![Amount::default(); engines.len()];
            let mut held = 0;
            let wanted = |case: usize, cells: Option<u64>, by_engine: &mut [Amount]| {
                let mut units = 0;
                for (e, spec) in engines.iter().enumerate() {
                    if select
                        .as_ref()
                        .is_none_or(|s| s.wants(position, file, case, spec.name()))
                    {
                        by_engine[e].units += 1;
                        by_engine[e].weight += Amount::weight_of(cells);
                        units += 1;
                    }
                }
                units
            };
            let hand_over = |by_engine: &mut [Amount]| {
                for (e, amount) in by_engine.iter_mut().enumerate() {
                    if amount.units > 0 {
                        counted.add_class(file.game.name(), engines[e].name(), *amount);
                        *amount = Amount::default();
                    }
                }
            };
            let mut cases = 0;
            if let Ok(input) = std::fs::File::open(&file.path) {
                let input = Box::new(std::io::BufReader::new(input));
                for parsed in file.game.cases(input, &file.reading) {
                    if counted.stopped() {
                        return;
                    }
                    let units = wanted(cases, parsed.cells, &mut by_engine);
                    counted.add(units);
                    held += units;
                    if held >= CLASS_BATCH {
                        hand_over(&mut by_engine);
                        held = 0;
                    }
                    cases += 1;
                }
            }
            // An unreadable file, or one without a case, gets one row per engine.
            if cases == 0 {
                let units = wanted(0, None, &mut by_engine);
                counted.add(units);
            }
            hand_over(&mut by_engine);
        }
        counted.finish();
    };
    // Without a thread the bar says "at least" to the end: nothing else depends on it.
    let _ = std::thread::Builder::new()
        .name("count-cases".into())
        .spawn(pass);
}

impl Config {
    /// How the run's engines are run: its warm-up and timed runs, by the wall, under its budget
    /// and program limits.
    pub fn plan(&self) -> Plan {
        Plan {
            warmup: self.warmup,
            runs: self.runs,
            repeat_short: self.repeat_short,
            clock: Clock::Wall,
            budget: self.budget.clone(),
            limits: Limits {
                timeout: self.timeout,
                case_timeout: self.case_timeout,
                ..self.program_limits.clone()
            },
        }
    }
}
