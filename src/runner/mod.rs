//! Solving every case of a corpus with one or more engines, in parallel, streaming results to
//! sinks. The runner knows nothing game-specific: it reads files, asks each file's [`Game`]
//! to parse them into cases, runs resolved engines on them, checks outputs with the game's
//! checker, and hands rows to [`Sink`]s.
//!
//! The pipeline: files in corpus order -> a bounded window of files in flight (by count and by
//! bytes, scaled with the thread count) -> each file read and parsed on a worker, then one
//! task per (case, internal engine) and one per (file, external engine), all on one rayon pool
//! so work flows across files and games -> each task stores its result in its file; the task
//! that finishes a file's last slot hands the file to the calling thread, which keeps it until
//! every earlier file is retired (a reordering buffer) -> the file's rows, outputs and problems
//! go to the sinks and the file is dropped. Memory is bounded by the window, not by the corpus.
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
//! - Engines are resolved once, before any file is read; the timed region holds the engine
//!   call alone.

mod completions;
mod engines;
mod sink;

use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use completions::{Completions, Message};
use std::time::Duration;

pub use crate::progress::{PLAIN_INTERVAL, ProgressMode};
pub use engines::{
    ALL_ENGINES, EngineError, EngineSpec, EngineTable, resolve as resolve_engines, resolve_internal,
};
pub use sink::{CsvSink, FileOutput, FileResults, OutDirSink, RecordSink, Sink, SinkError};

use crate::corpus::CaseFile;
use crate::digest::digest;
use crate::external::{self, External, ExternalError, Shell, Usage};
use crate::game::{Budget, CheckVerdict, ParsedCase, REFERENCE_ENGINE, Rejected};
use crate::judge::{judge_case, status_of};
use crate::progress::Progress;
use crate::results::{MIN_TIMED_NS, REPEAT_BELOW_NS, Row, Status, Timing};
use crate::status::Exit;

/// Which cases a run solves, for shards and resumed runs: asked once per (file, case, engine)
/// before any work is scheduled.
pub trait CaseFilter: Send + Sync {
    /// Whether case `case` (0-based) of the file at `position` in the run's list is solved by
    /// `engine`.
    fn wants(&self, position: usize, file: &CaseFile, case: usize, engine: &str) -> bool;
}

/// What to run and how.
#[derive(Clone)]
pub struct Config {
    /// Engine names as the user gave them (`all` allowed); empty = each game's default.
    pub engines: Vec<String>,
    pub budget: Budget,
    /// Compare each case's output with the expected `X.out` beside `X.in`.
    pub check: bool,
    /// Validate each file strictly first (the game's validator); a case with a violation is
    /// not solved and gets status `error` with the violation.
    pub validate: bool,
    /// Worker threads; `None` = all cores.
    pub threads: Option<usize>,
    /// How to show progress on stderr.
    pub progress: ProgressMode,
    /// Print problem lines (errors, mismatches) on stderr as files complete.
    pub show_problems: bool,
    /// Untimed runs of each case before the timed ones.
    pub warmup: u32,
    /// Timed runs of each case (at least 1).
    pub runs: u32,
    /// Time a case too short to time alone by repetition (batches of calls lasting at least
    /// `results::MIN_TIMED_NS`); off, every case is timed alone, however short.
    pub repeat_short: bool,
    /// The engine others are compared with (when it ran on the game).
    pub baseline: String,
    /// Wall-time limit of one external program run (one file).
    pub timeout: Duration,
    /// How external programs are started (`sh -c`, another shell, or none).
    pub shell: Shell,
    /// Per-case time limit of external programs: a one-case file runs under it, and a file of
    /// a game that can write each case as an input of its own (`Game::case_input`) runs case by
    /// case; other files run whole under `timeout`.
    pub case_timeout: Option<Duration>,
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
}

/// Default [`Config::timeout`].
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

impl Default for Config {
    fn default() -> Self {
        Config {
            engines: Vec::new(),
            budget: Budget::UNLIMITED,
            check: false,
            validate: false,
            threads: None,
            progress: ProgressMode::None,
            show_problems: false,
            warmup: 0,
            runs: 1,
            repeat_short: true,
            baseline: REFERENCE_ENGINE.to_string(),
            timeout: DEFAULT_TIMEOUT,
            shell: Shell::default(),
            case_timeout: None,
            keep_outputs: false,
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

/// The window is refilled after about this fraction of it finished (see [`Completions`]).
const COMPLETION_BATCHES: usize = 4;
/// How often a run waiting for results looks at [`Config::stop`].
const STOP_POLL: Duration = Duration::from_millis(50);

/// Files in flight per worker thread.
const FILES_PER_THREAD: usize = 32;
/// Fewest files in flight, so that small files keep every thread busy.
const MIN_FILES_IN_FLIGHT: usize = 64;
/// A file with at most this many (case, engine) slots is solved by the task that loaded it
/// (Yut: one game per file), instead of one task per slot.
const INLINE_SLOTS: usize = 4;
/// Input bytes in flight per worker thread (a file larger than the window still runs alone).
const BYTES_PER_THREAD: u64 = 32 << 20;

/// Runs `config` over `files`, handing results to `sinks`.
pub fn run(
    files: &[CaseFile],
    config: &Config,
    sinks: &mut [&mut dyn Sink],
) -> Result<RunOutcome, RunError> {
    // Resolve engines before reading anything, so a typo fails at once.
    let table = EngineTable::resolve(files.iter().map(|f| f.game), &config.engines, &config.shell)?;
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = config.threads {
        builder = builder.num_threads(n);
    }
    let pool = builder.build()?;
    let threads = pool.current_num_threads();
    let window = Window {
        files: (threads * FILES_PER_THREAD).max(MIN_FILES_IN_FLIGHT),
        bytes: BYTES_PER_THREAD * threads as u64,
    };
    // The sizes the window counts, read up front on the workers: one stat per file on the
    // calling thread would make it the bottleneck of a corpus of many tiny files.
    let sizes: Vec<u64> = pool.install(|| {
        files
            .par_iter()
            .map(|f| std::fs::metadata(&f.path).map_or(0, |m| m.len()))
            .collect()
    });
    let bar = Progress::new(config.progress, "run", files.len(), Some("cases x engines"));
    let result = Pipeline {
        files,
        sizes: &sizes,
        config,
        shared: Arc::new(config.clone()),
        table: &table,
        pool: &pool,
        bar: &bar,
        window,
    }
    .run(sinks);
    bar.finish();
    let outcome = result?;
    for sink in sinks.iter_mut() {
        sink.finish(!outcome.interrupted)?;
    }
    Ok(outcome)
}

/// How many files, and how many input bytes, may be in flight at once.
struct Window {
    files: usize,
    bytes: u64,
}

/// A file read and split into cases, shared by the tasks solving it.
struct Loaded {
    position: usize,
    file: CaseFile,
    engines: Arc<[EngineSpec]>,
    /// The raw input, kept only when an external engine will read it.
    bytes: Vec<u8>,
    cases: Vec<ParsedCase>,
    /// Why the file could not be read at all.
    unreadable: Option<String>,
    /// With `--validate`: per case, why it breaks the statement (`None`: valid).
    invalid: Vec<Option<String>>,
    /// With `--check`: the expected blocks, or why there are none.
    expected: Option<Result<Vec<String>, String>>,
    /// The (case, engine) slots this run solves, in case then engine order.
    slots: Vec<Slot>,
    /// What each slot got, filled by the tasks in any order.
    done: Mutex<Vec<Option<Done>>>,
    /// Slots not finished yet; the task that finishes the last one reports the file complete.
    remaining: AtomicUsize,
    /// Per case, its slots not finished yet (with [`Config::case_events`]).
    case_left: Vec<AtomicUsize>,
    /// Slots finished over the whole run, for progress.
    finished: Arc<AtomicUsize>,
}

impl Loaded {
    /// Records slot `slot`'s result; tells the calling thread when it was the file's last.
    fn finish(self: &Arc<Self>, slot: usize, done: Done, tx: &Completions) {
        let dropped = done.dropped;
        self.done.lock().expect("no task panics holding it")[slot] = Some(done);
        self.finished.fetch_add(1, Ordering::Relaxed);
        let case = self.slots[slot].case;
        if let Some(left) = self.case_left.get(case)
            && left.fetch_sub(1, Ordering::AcqRel) == 1
            && !dropped
        {
            tx.push(Message::Case(self.clone(), case));
        }
        if self.remaining.fetch_sub(1, Ordering::AcqRel) == 1 {
            tx.push(Message::File(self.clone()));
        }
    }

    /// The range of slots of case `case` (they are consecutive).
    fn slots_of(&self, case: usize) -> std::ops::Range<usize> {
        let start = self.slots.partition_point(|s| s.case < case);
        let end = self.slots.partition_point(|s| s.case <= case);
        start..end
    }
}

/// A case of a file for one engine (index into the file's engines).
#[derive(Clone, Copy)]
struct Slot {
    case: usize,
    engine: usize,
}

/// What a slot got.
#[derive(Clone)]
struct Done {
    status: Status,
    times: Vec<u64>,
    timing: Timing,
    /// Calls per timed batch (`case-repeated`), else 1.
    repeats: u32,
    /// External programs: what each timed run used.
    usage: Vec<Usage>,
    work: Option<u64>,
    score: Option<u64>,
    /// Kept only when needed (another engine to compare with, or outputs kept).
    output: Option<String>,
    digest: String,
    message: String,
    /// Whether the output was compared with anything (the expected output or another
    /// engine's); an `ok` compared with nothing becomes `unchecked`.
    compared: bool,
    /// The checker's verdict when it rejected the output.
    verdict: Option<CheckVerdict>,
    /// Not run: the run was stopped before this slot started.
    dropped: bool,
}

impl Done {
    /// Adds `line` to the message, after what is already said (`; ` between them).
    fn tell(&mut self, line: String) {
        self.message = if self.message.is_empty() {
            line
        } else {
            format!("{}; {line}", self.message)
        };
    }

    fn dropped() -> Done {
        Done {
            dropped: true,
            ..Done::failed_quietly()
        }
    }

    fn failed_quietly() -> Done {
        Done {
            status: Status::Error,
            times: Vec::new(),
            timing: Timing::Case,
            repeats: 1,
            usage: Vec::new(),
            work: None,
            score: None,
            output: None,
            digest: String::new(),
            message: String::new(),
            compared: false,
            verdict: None,
            dropped: false,
        }
    }

    fn failed(file: &CaseFile, index: usize, message: impl std::fmt::Display) -> Done {
        Done {
            message: format!("{}: case {index}: {message}", file.display()),
            ..Done::failed_quietly()
        }
    }
}

/// A file in flight: its input size, counted against the window until it is retired.
struct InFlight {
    bytes: u64,
    /// Set when its last slot is finished.
    complete: Option<Arc<Loaded>>,
}

struct Pipeline<'a> {
    files: &'a [CaseFile],
    /// Each file's size in bytes (0 when it cannot be read: its load reports why).
    sizes: &'a [u64],
    config: &'a Config,
    /// The same configuration, shared with the tasks (cloned once per run, not per file).
    shared: Arc<Config>,
    table: &'a EngineTable,
    pool: &'a rayon::ThreadPool,
    bar: &'a Progress,
    window: Window,
}

impl Pipeline<'_> {
    fn run(&self, sinks: &mut [&mut dyn Sink]) -> Result<RunOutcome, RunError> {
        let tx = Arc::new(Completions::new());
        let mut in_flight: BTreeMap<usize, InFlight> = BTreeMap::new();
        let (mut next, mut bytes_in_flight) = (0usize, 0u64);
        let mut outcome = RunOutcome::default();
        loop {
            // Admit files while the window allows (always at least one).
            let stopping = self.config.stop.load(Ordering::Relaxed);
            while !stopping
                && next < self.files.len()
                && (in_flight.is_empty()
                    || (in_flight.len() < self.window.files && bytes_in_flight < self.window.bytes))
            {
                let bytes = self.sizes[next];
                bytes_in_flight += bytes;
                in_flight.insert(
                    next,
                    InFlight {
                        bytes,
                        complete: None,
                    },
                );
                self.spawn_load(next, tx.clone());
                next += 1;
            }
            // Retire every complete file at the head of the window, in order.
            while let Some(entry) = in_flight.first_entry() {
                if entry.get().complete.is_none() {
                    break;
                }
                let position = *entry.key();
                let flight = entry.remove();
                bytes_in_flight -= flight.bytes;
                let loaded = flight.complete.expect("checked above");
                let done: Vec<Done> =
                    std::mem::take(&mut *loaded.done.lock().expect("no task panics holding it"))
                        .into_iter()
                        .map(|d| d.expect("every slot is filled once"))
                        .collect();
                if done.iter().any(|d| d.dropped) {
                    // Stopped inside this file: it and everything after it are dropped.
                    outcome.interrupted = true;
                    return Ok(outcome);
                }
                let slots = done.len();
                let (rows, outputs, problems) = self.assemble(&loaded, done);
                drop(loaded);
                if self.config.show_problems && !problems.is_empty() {
                    self.bar.suspend(|| {
                        for problem in &problems {
                            eprintln!("{problem}");
                        }
                    });
                }
                for row in &rows {
                    outcome.worst = Some(outcome.worst.unwrap_or(Status::Ok).worst(row.status));
                }
                outcome.files += 1;
                outcome.rows += rows.len();
                let results = FileResults {
                    position,
                    file: &self.files[position],
                    rows: &rows,
                    outputs: &outputs,
                    problems: &problems,
                };
                for sink in sinks.iter_mut() {
                    sink.file(&results)?;
                }
                self.bar.file_done(slots, self.config.runs.max(1));
            }
            if in_flight.is_empty() {
                if next == self.files.len() {
                    return Ok(outcome);
                }
                if stopping {
                    outcome.interrupted = true;
                    return Ok(outcome);
                }
                // Everything admitted is retired: admit more before waiting for any message.
                continue;
            }
            // Every message queued, or (after a wait) a batch of them: a wake-up per file
            // would cost more than a tiny file's work.
            let running = in_flight.values().filter(|f| f.complete.is_none()).count();
            let batch = (self.window.files / COMPLETION_BATCHES).min(running);
            let messages = tx.take(batch, STOP_POLL);
            if messages.is_empty() {
                self.bar.tick();
                continue;
            }
            for message in messages {
                match message {
                    Message::File(loaded) => {
                        let position = loaded.position;
                        in_flight
                            .get_mut(&position)
                            .expect("complete files are in flight")
                            .complete = Some(loaded);
                    }
                    Message::Case(loaded, case) => self.journal_case(&loaded, case, sinks)?,
                }
            }
        }
    }

    /// Hands the rows of one finished case to the sinks' journals (before its file is done).
    fn journal_case(
        &self,
        loaded: &Loaded,
        case: usize,
        sinks: &mut [&mut dyn Sink],
    ) -> Result<(), RunError> {
        let range = loaded.slots_of(case);
        let mut done: Vec<Done> = loaded.done.lock().expect("no task panics holding it")
            [range.clone()]
        .iter()
        .map(|d| d.clone().expect("a finished case has every slot"))
        .collect();
        let (rows, _) = self.rows_of(loaded, range, &mut done);
        let results = FileResults {
            position: loaded.position,
            file: &self.files[loaded.position],
            rows: &rows,
            outputs: &[],
            problems: &[],
        };
        for sink in sinks.iter_mut() {
            sink.case(&results)?;
        }
        Ok(())
    }

    /// Reads and parses file `position` on a worker, then schedules its work.
    fn spawn_load(&self, position: usize, tx: Arc<Completions>) {
        let file = self.files[position].clone();
        let size = self.sizes[position];
        let engines = self.table.of(file.game);
        let config = self.shared.clone();
        let finished = self.bar.finished.clone();
        self.pool.spawn_fifo(move || {
            let loaded = Arc::new(load(position, file, size, engines, &config, finished));
            if loaded.slots.is_empty() {
                tx.push(Message::File(loaded));
            } else {
                schedule(loaded, config, tx);
            }
        });
    }

    /// Turns a complete file's slots into rows, outputs and problem lines, in slot order,
    /// after comparing each engine with the baseline engine case by case.
    fn assemble(
        &self,
        loaded: &Loaded,
        mut done: Vec<Done>,
    ) -> (Vec<Row>, Vec<FileOutput>, Vec<String>) {
        let (rows, problems) = self.rows_of(loaded, 0..loaded.slots.len(), &mut done);
        let outputs = self.outputs_of(loaded, &done);
        (rows, outputs, problems)
    }

    /// The rows and problem lines of the slots in `range` (whole cases), after comparing
    /// each engine with the baseline engine case by case; `done` holds those slots' results.
    fn rows_of(
        &self,
        loaded: &Loaded,
        range: std::ops::Range<usize>,
        done: &mut [Done],
    ) -> (Vec<Row>, Vec<String>) {
        let slots = &loaded.slots[range];
        let mut start = 0;
        while start < slots.len() {
            let case = slots[start].case;
            let end = (start..slots.len())
                .find(|&i| slots[i].case != case)
                .unwrap_or(slots.len());
            compare_with_baseline(
                loaded,
                &slots[start..end],
                &mut done[start..end],
                &self.config.baseline,
            );
            start = end;
        }
        for result in done.iter_mut() {
            if result.status == Status::Ok && !result.compared {
                result.status = Status::Unchecked;
            }
        }
        let file = &loaded.file;
        let mut rows = Vec::with_capacity(done.len() * self.config.runs.max(1) as usize);
        let mut problems = Vec::new();
        for (slot, result) in slots.iter().zip(done.iter()) {
            let engine = loaded.engines[slot.engine].name();
            let parsed = loaded.cases.get(slot.case);
            let runs: Vec<Option<u64>> = if result.times.is_empty() {
                vec![None]
            } else {
                result.times.iter().map(|&t| Some(t)).collect()
            };
            for (r, time_ns) in runs.into_iter().enumerate() {
                let usage = result.usage.get(r);
                rows.push(Row {
                    game: file.game.name().to_string(),
                    engine: engine.to_string(),
                    file: file.row_name(),
                    case: slot.case + 1,
                    run: r as u32 + 1,
                    label: parsed.map(|p| p.label.clone()).unwrap_or_default(),
                    size: parsed.map(|p| p.size.clone()).unwrap_or_default(),
                    cells: parsed.and_then(|p| p.cells),
                    status: result.status,
                    time_ns,
                    timing: result.timing,
                    repeats: (result.timing == Timing::CaseRepeated).then_some(result.repeats),
                    user_ns: usage.map(|u| u.user_ns),
                    sys_ns: usage.map(|u| u.sys_ns),
                    memory_kb: usage.and_then(|u| u.memory_kb),
                    work: result.work,
                    work_unit: if result.work.is_some() {
                        file.game.work_unit().to_string()
                    } else {
                        String::new()
                    },
                    score: result.score,
                    digest: result.digest.clone(),
                    message: result.message.clone(),
                    verdict: result.verdict,
                });
            }
            if !result.message.is_empty() {
                problems.push(format!(
                    "{} [{engine}]: {}",
                    result.status.as_str(),
                    result.message
                ));
            }
        }
        (rows, problems)
    }

    /// Each engine's whole output of a complete file (when the run keeps outputs).
    fn outputs_of(&self, loaded: &Loaded, done: &[Done]) -> Vec<FileOutput> {
        let file = &loaded.file;
        if self.config.keep_outputs {
            (0..loaded.engines.len())
                .map(|e| {
                    let blocks: Vec<&str> = loaded
                        .slots
                        .iter()
                        .zip(done)
                        .filter(|(slot, _)| slot.engine == e)
                        .filter_map(|(_, d)| d.output.as_deref())
                        .collect();
                    FileOutput {
                        engine: loaded.engines[e].name().to_string(),
                        text: file.game.join(&blocks),
                    }
                })
                .collect()
        } else {
            Vec::new()
        }
    }
}

/// Reads and parses one file (and its expected output with `--check`), and lists its slots.
/// `size` is the file's size from the window's stat pass.
fn load(
    position: usize,
    file: CaseFile,
    size: u64,
    engines: Arc<[EngineSpec]>,
    config: &Config,
    finished: Arc<AtomicUsize>,
) -> Loaded {
    let mut loaded = Loaded {
        position,
        file,
        engines,
        bytes: Vec::new(),
        cases: Vec::new(),
        unreadable: None,
        invalid: Vec::new(),
        expected: None,
        slots: Vec::new(),
        done: Mutex::new(Vec::new()),
        remaining: AtomicUsize::new(0),
        case_left: Vec::new(),
        finished,
    };
    match read_sized(&loaded.file.path, size) {
        Err(e) => loaded.unreadable = Some(format!("cannot read: {e}")),
        Ok(bytes) => {
            loaded.cases = loaded.file.game.parse(&bytes);
            if loaded.cases.is_empty() {
                // Still one (error) row per engine, so the file does not vanish from results.
                loaded.unreadable = Some(NO_CASE.to_string());
            }
            if config.validate {
                loaded.invalid = invalid_cases(&loaded.file, &loaded.cases, &bytes);
            }
            loaded.expected = config.check.then(|| read_expected(&loaded.file));
            // Only external programs read the raw input again.
            if loaded
                .engines
                .iter()
                .any(|e| matches!(e, EngineSpec::External(_)))
            {
                loaded.bytes = bytes;
            }
        }
    }
    // An unreadable file (or one without cases) still gets one (error) row per engine.
    let cases = if loaded.unreadable.is_some() {
        1
    } else {
        loaded.cases.len()
    };
    for case in 0..cases {
        for (engine, spec) in loaded.engines.iter().enumerate() {
            let wanted = config
                .select
                .as_ref()
                .is_none_or(|s| s.wants(position, &loaded.file, case, spec.name()));
            if wanted {
                loaded.slots.push(Slot { case, engine });
            }
        }
    }
    loaded.done = Mutex::new((0..loaded.slots.len()).map(|_| None).collect());
    loaded.remaining = AtomicUsize::new(loaded.slots.len());
    if config.case_events {
        let mut left = vec![0usize; cases];
        for slot in &loaded.slots {
            left[slot.case] += 1;
        }
        loaded.case_left = left.into_iter().map(AtomicUsize::new).collect();
    }
    loaded
}

/// Per parsed case, the validator's violations that fall in its lines (see
/// [`crate::validate::Validation::per_case`]), as one message; `None` for a valid case.
fn invalid_cases(file: &CaseFile, cases: &[ParsedCase], bytes: &[u8]) -> Vec<Option<String>> {
    let validation = file.game.validate(bytes);
    let starts: Vec<usize> = cases.iter().map(|c| c.line).collect();
    validation
        .per_case(&starts)
        .into_iter()
        .map(|violations| {
            let first = violations.first()?;
            let more = match violations.len() - 1 {
                0 => String::new(),
                n => format!(" (and {n} more)"),
            };
            Some(format!("invalid input: {}{more}", first.without_case()))
        })
        .collect()
}

/// Reads a whole file whose size is already known, without `std::fs::read`'s own stat (the
/// window's stat pass made one; a second per file showed on corpora of many tiny files). A size
/// that changed since is only a capacity hint: the file is read to its end either way.
fn read_sized(path: &std::path::Path, size: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    // One byte more than the size, so that the read which finds the end needs no growth.
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0).saturating_add(1));
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

fn read_expected(file: &CaseFile) -> Result<Vec<String>, String> {
    let path = file.expected_path();
    match std::fs::read(&path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => Ok(file.game.split_output(&text)),
            Err(_) => Err(format!("expected output {} is not UTF-8", path.display())),
        },
        Err(e) => Err(format!("no expected output {}: {e}", path.display())),
    }
}

/// Schedules a loaded file's work on the pool: one task per internal (case, engine) slot, one
/// per external engine (the program solves the whole file once per run).
fn schedule(loaded: Arc<Loaded>, config: Arc<Config>, tx: Arc<Completions>) {
    let keep = config.keep_outputs || loaded.engines.len() > 1;
    let internal_only = loaded
        .engines
        .iter()
        .all(|e| matches!(e, EngineSpec::Internal(_)));
    if internal_only && loaded.slots.len() <= INLINE_SLOTS {
        // A task per slot costs more than a tiny file's work; its own task solves it.
        for (i, &slot) in loaded.slots.iter().enumerate() {
            let done = if config.stop.load(Ordering::Relaxed) {
                Done::dropped()
            } else {
                solve_slot(&loaded, slot, &config, keep)
            };
            loaded.finish(i, done, &tx);
        }
        return;
    }
    for (e, spec) in loaded.engines.iter().enumerate() {
        let mine: Vec<usize> = (0..loaded.slots.len())
            .filter(|&i| loaded.slots[i].engine == e)
            .collect();
        match spec {
            EngineSpec::Internal(_) => {
                for i in mine {
                    let (loaded, config, tx) = (loaded.clone(), config.clone(), tx.clone());
                    rayon::spawn_fifo(move || {
                        let done = if config.stop.load(Ordering::Relaxed) {
                            Done::dropped()
                        } else {
                            solve_slot(&loaded, loaded.slots[i], &config, keep)
                        };
                        loaded.finish(i, done, &tx);
                    });
                }
            }
            EngineSpec::External(program) if !mine.is_empty() => {
                let (loaded, config, tx) = (loaded.clone(), config.clone(), tx.clone());
                let program = program.clone();
                rayon::spawn_fifo(move || {
                    let stopped = config.stop.load(Ordering::Relaxed);
                    let mut results: Vec<Option<Done>> = if stopped {
                        Vec::new()
                    } else {
                        run_external(&loaded, &program, &config, keep)
                            .into_iter()
                            .map(Some)
                            .collect()
                    };
                    for i in mine {
                        let done = match results.get_mut(loaded.slots[i].case) {
                            Some(done) => done.take().expect("one result per case of the file"),
                            None => Done::dropped(),
                        };
                        loaded.finish(i, done, &tx);
                    }
                });
            }
            EngineSpec::External(_) => {}
        }
    }
}

/// Solves one case with one internal engine: warm-up runs, timed runs, then the check.
fn solve_slot(loaded: &Loaded, slot: Slot, config: &Config, keep: bool) -> Done {
    let index = slot.case + 1;
    let file = &loaded.file;
    if let Some(why) = &loaded.unreadable {
        return Done::failed(file, index, why);
    }
    let EngineSpec::Internal(engine) = loaded.engines[slot.engine] else {
        unreachable!("case work is only made for internal engines")
    };
    if let Some(Some(why)) = loaded.invalid.get(slot.case) {
        return Done::failed(file, index, why);
    }
    let parsed = &loaded.cases[slot.case];
    for _ in 0..config.warmup {
        let _ = std::hint::black_box(judge_case(engine, index, parsed, &config.budget));
    }
    let mut times = Vec::with_capacity(config.runs.max(1) as usize);
    let mut last = None;
    for _ in 0..config.runs.max(1) {
        let result = judge_case(engine, index, parsed, &config.budget);
        if let Ok(solved) = &result {
            times.push(solved.elapsed.as_nanos() as u64);
        }
        last = Some(result);
    }
    let solved = match last.expect("at least one run") {
        Ok(solved) => solved,
        Err(e) => return Done::failed(file, index, e),
    };
    // Too short to time alone: time batches of calls lasting at least MIN_TIMED_NS.
    let mut timing = Timing::Case;
    let mut repeats = 1;
    if config.repeat_short
        && let Some(&fastest) = times.iter().min()
        && fastest < REPEAT_BELOW_NS
        && let Ok(case) = &parsed.case
    {
        let time_batch = |k: u32| {
            engine
                .time_repeated(case.as_ref(), &config.budget, k)
                .as_nanos() as u64
        };
        repeats = repeats_for(fastest);
        // A first call is often slower than the next (cold caches): grow the batch until it
        // really lasts MIN_TIMED_NS; that batch is the first timed run.
        let mut first = time_batch(repeats);
        while first < MIN_TIMED_NS && repeats < MAX_REPEATS {
            let grown = u64::from(repeats) * MIN_TIMED_NS.div_ceil(first.max(1)).max(2);
            repeats = grown.min(u64::from(MAX_REPEATS)) as u32;
            first = time_batch(repeats);
        }
        timing = Timing::CaseRepeated;
        times = std::iter::once(first)
            .chain((1..config.runs.max(1)).map(|_| time_batch(repeats)))
            .map(|batch| batch / u64::from(repeats))
            .collect();
    }
    let mut done = Done {
        status: status_of(solved.verdict),
        times,
        timing,
        repeats,
        usage: Vec::new(),
        work: Some(solved.work),
        score: solved.score,
        digest: digest(solved.output.as_bytes()),
        output: Some(solved.output),
        // A search the budget stopped may still have proven something: say it.
        message: solved.at_least.map_or(String::new(), |least| {
            format!("the search had proven a score of at least {least}")
        }),
        compared: false,
        verdict: None,
        dropped: false,
    };
    check_expected(loaded, slot.case, &mut done);
    if !keep {
        done.output = None;
    }
    done
}

/// Most calls timed together for one short case (a batch of a 1 ns case would otherwise
/// need 10,000 calls; this bounds a run's extra cost per case).
const MAX_REPEATS: u32 = 10_000;

/// Calls per batch for a case whose single call took `fastest_ns`: enough for the batch to
/// last [`MIN_TIMED_NS`], at most [`MAX_REPEATS`].
fn repeats_for(fastest_ns: u64) -> u32 {
    MIN_TIMED_NS
        .div_ceil(fastest_ns.max(1))
        .clamp(2, u64::from(MAX_REPEATS)) as u32
}

/// Runs an external program on a whole file (warm-up and timed runs) and splits its output
/// into one result per case, each checked like an internal engine's.
fn run_external(loaded: &Loaded, program: &External, config: &Config, keep: bool) -> Vec<Done> {
    let file = &loaded.file;
    if let Some(why) = &loaded.unreadable {
        return vec![Done::failed(file, 1, why)];
    }
    let count = loaded.cases.len();
    if let Some(limit) = config.case_timeout {
        if count == 1 {
            return run_external_file(loaded, program, config, keep, config.timeout.min(limit));
        }
        // Case by case, when the game can write each case as a judge input of its own.
        let inputs: Option<Vec<String>> = loaded
            .cases
            .iter()
            .map(|p| {
                let case = p.case.as_ref().ok()?;
                file.game.case_input(case.as_ref())
            })
            .collect();
        if let Some(inputs) = inputs {
            return inputs
                .iter()
                .enumerate()
                .map(|(case, input)| {
                    run_external_case(loaded, program, config, keep, case, input, limit)
                })
                .collect();
        }
    }
    run_external_file(loaded, program, config, keep, config.timeout)
}

/// What a failed program run makes of a case: `timeout` when it was killed at its limit (like
/// a judge's time limit exceeded), else `error`.
fn failed_run(file: &CaseFile, index: usize, e: &ExternalError) -> Done {
    let status = match e {
        ExternalError::Timeout { .. } => Status::Timeout,
        _ => Status::Error,
    };
    Done {
        status,
        ..Done::failed(file, index, e)
    }
}

/// Runs an external program on one case's own judge input (`--case-timeout`): warm-up and timed
/// runs, each killed at `limit`; its whole output is the case's block.
fn run_external_case(
    loaded: &Loaded,
    program: &External,
    config: &Config,
    keep: bool,
    case: usize,
    input: &str,
    limit: Duration,
) -> Done {
    let runs = match timed_runs(program, input.as_bytes(), limit, config) {
        Ok(runs) => runs,
        Err(e) => return failed_run(&loaded.file, case + 1, &e),
    };
    let block = String::from_utf8_lossy(&runs.stdout).into_owned();
    program_output(
        loaded,
        case,
        block,
        runs.times,
        runs.usage,
        Timing::Case,
        keep,
    )
}

/// The timed runs of an external program on one input (after `config.warmup` untimed ones):
/// their times and resource usage, and the last run's output.
struct TimedRuns {
    times: Vec<u64>,
    usage: Vec<Usage>,
    stdout: Vec<u8>,
}

/// Runs `program` on `input` `config.warmup` times untimed, then `config.runs` (at least once)
/// timed, each killed at `limit`; the first failure ends it.
fn timed_runs(
    program: &External,
    input: &[u8],
    limit: Duration,
    config: &Config,
) -> Result<TimedRuns, ExternalError> {
    for _ in 0..config.warmup {
        external::run(program, input, limit)?;
    }
    let mut runs = TimedRuns {
        times: Vec::new(),
        usage: Vec::new(),
        stdout: Vec::new(),
    };
    for _ in 0..config.runs.max(1) {
        let ran = external::run(program, input, limit)?;
        runs.times.push(ran.elapsed.as_nanos() as u64);
        runs.usage.push(ran.usage);
        runs.stdout = ran.stdout;
    }
    Ok(runs)
}

/// A case's result from the output `block` an external program printed for it: `ok` unless
/// the check against its expected output (`--check`) says otherwise; the output is kept only
/// when `keep`.
fn program_output(
    loaded: &Loaded,
    case: usize,
    block: String,
    times: Vec<u64>,
    usage: Vec<Usage>,
    timing: Timing,
    keep: bool,
) -> Done {
    let mut done = Done {
        status: Status::Ok,
        times,
        timing,
        repeats: 1,
        usage,
        work: None,
        score: None,
        digest: digest(block.as_bytes()),
        output: Some(block),
        message: String::new(),
        compared: false,
        verdict: None,
        dropped: false,
    };
    check_expected(loaded, case, &mut done);
    if !keep {
        done.output = None;
    }
    done
}

/// Runs an external program on a whole file, each run killed at `timeout`.
fn run_external_file(
    loaded: &Loaded,
    program: &External,
    config: &Config,
    keep: bool,
    timeout: Duration,
) -> Vec<Done> {
    let file = &loaded.file;
    let count = loaded.cases.len();
    let TimedRuns {
        times,
        usage,
        stdout,
    } = match timed_runs(program, &loaded.bytes, timeout, config) {
        Ok(runs) => runs,
        Err(e) => return (1..=count).map(|k| failed_run(file, k, &e)).collect(),
    };
    let text = String::from_utf8_lossy(&stdout);
    let blocks = file.game.split_output(&text);
    (0..count)
        .map(|case| {
            let index = case + 1;
            if let Err(e) = &loaded.cases[case].case {
                return Done::failed(file, index, e);
            }
            if let Some(Some(why)) = loaded.invalid.get(case) {
                return Done::failed(file, index, why);
            }
            let Some(block) = blocks.get(case) else {
                return Done {
                    status: Status::Mismatch,
                    times: times.clone(),
                    timing: Timing::File,
                    repeats: 1,
                    usage: usage.clone(),
                    work: None,
                    score: None,
                    output: None,
                    digest: String::new(),
                    message: format!(
                        "{}: case {index}: the program printed no output for this case",
                        file.display()
                    ),
                    compared: false,
                    verdict: Some(CheckVerdict::WrongAnswer),
                    dropped: false,
                };
            };
            let (times, usage) = (times.clone(), usage.clone());
            program_output(
                loaded,
                case,
                block.clone(),
                times,
                usage,
                Timing::File,
                keep,
            )
        })
        .collect()
}

/// With `--check`: compares a case's output with the expected block (the game's checker and
/// its verdict). A wrong answer or presentation error makes the case `mismatch`; a checker
/// failure (no or a malformed expected block) makes it `error`.
fn check_expected(loaded: &Loaded, case: usize, done: &mut Done) {
    let (Some(expected), Some(output), Ok(parsed)) =
        (&loaded.expected, &done.output, &loaded.cases[case].case)
    else {
        return;
    };
    let index = case + 1;
    done.compared = true;
    let verdict = match expected {
        Err(why) => Err(Rejected::new(CheckVerdict::CheckerFailure, why.clone())),
        Ok(blocks) => match blocks.get(case) {
            None => Err(Rejected::new(
                CheckVerdict::CheckerFailure,
                format!("the expected output has no case {index}"),
            )),
            Some(block) => loaded
                .file
                .game
                .judge_output(parsed.as_ref(), block, output),
        },
    };
    if let Err(rejected) = verdict {
        let bad = match rejected.verdict {
            CheckVerdict::CheckerFailure => Status::Error,
            CheckVerdict::WrongAnswer | CheckVerdict::PresentationError => Status::Mismatch,
        };
        done.status = done.status.worst(bad);
        done.verdict = Some(rejected.verdict);
        // What the engine said first (a budget stop's proven bound) stays in front.
        done.tell(format!(
            "{}: case {index}: {rejected}",
            loaded.file.display()
        ));
    }
}

/// Marks engines that disagree with the baseline engine on one case (its consecutive slots).
fn compare_with_baseline(loaded: &Loaded, slots: &[Slot], done: &mut [Done], baseline: &str) {
    let Some(first) = slots.first() else { return };
    let Some(base) = slots
        .iter()
        .position(|s| loaded.engines[s.engine].name() == baseline)
    else {
        return;
    };
    let Some(Ok(case)) = loaded.cases.get(first.case).map(|p| p.case.as_ref()) else {
        return;
    };
    let Some(base_output) = done[base].output.clone() else {
        return;
    };
    for (i, slot) in slots.iter().enumerate() {
        if i == base {
            continue;
        }
        let Some(output) = &done[i].output else {
            continue;
        };
        done[i].compared = true;
        done[base].compared = true;
        if let Err(why) = loaded
            .file
            .game
            .judge_output(case.as_ref(), &base_output, output)
        {
            // The baseline's output stands in for the expected one; whatever the verdict,
            // the engines disagree.
            done[i].verdict = done[i].verdict.or(Some(why.verdict));
            // The verdict goes to its own column; the message stays the checker's reason.
            let why = &why.message;
            let line = format!(
                "{}: case {}: {} disagrees with {}: {why}",
                loaded.file.display(),
                first.case + 1,
                loaded.engines[slot.engine].name(),
                baseline
            );
            done[i].status = done[i].status.worst(Status::Mismatch);
            done[i].tell(line);
        }
    }
}
