//! A chunk of a file of the run read and parsed on a worker: [`Loaded`], its cases, its
//! validation and expected outputs, its (case, engine) [`Slot`]s, and the results the tasks
//! store in it.
//!
//! A file is read in one of two ways. Streamed (the default): its cases come from the game's
//! incremental parser ([`crate::game::Game::cases`]) a chunk at a time, each chunk bounded by
//! [`CHUNK_CASES`] cases and [`CHUNK_BYTES`] input bytes, the stream kept between chunks in the
//! file's [`Source`]. Whole (with `--validate`, a program among the engines, or a case filter):
//! the file read and parsed at once, one chunk.
//!
//! Invariants: slots are listed in (case, engine) order, so a case's slots are consecutive;
//! every slot is filled exactly once (a resumed one when the chunk is loaded, the others by a
//! task); the task that fills the last one is told so by
//! [`Loaded::finish_many`] and completes the chunk (`rows::complete`: its rows assembled, the chunk
//! handed to the calling thread as `Message::Chunk`; this file knows nothing of rows), and with case events, the one that fills a case's last
//! slot hands the case (`Message::Case`); a chunk's loading task tells the calling thread
//! whether its file has more chunks (`Message::Parsed`) before any of its slots is scheduled.
//! An unreadable file (or one with no case) still has one slot per engine, so that it shows
//! in the results as an `error` row.

use std::io::{BufRead, Read};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::completions::{self, Urgency, Wake};
use super::done::{Done, KeptSlot};
use super::sink::{FileOutput, Prepared, Wants};
use super::{Config, NO_CASE};
use crate::corpus::CaseFile;
use crate::engines::{EngineSpec, FileJob, Timing};
use crate::game::{ParsedCase, ParsedStream};
use crate::results::{Row, Status};
use crate::util::progress::{Amount, Finished};
use crate::validate::Violation;

/// Most cases in a chunk of a streamed file.
pub(super) const CHUNK_CASES: usize = 4096;
/// Most input bytes in a chunk of a streamed file (a chunk always holds at least one case).
pub(super) const CHUNK_BYTES: u64 = 1 << 20;
/// The buffer a streamed file is read through.
const READ_BUFFER: usize = 64 << 10;

/// Whether a run streams its files (else each file is read and parsed whole): not with a
/// program among the engines (it reads the whole input), or a case filter or case events
/// (shards, whose journal and resumed rows are kept per file). With `--validate`, a streamed
/// file is validated first, streamed too ([`Validated`]).
pub(super) fn streams(config: &Config, engines: &[EngineSpec]) -> bool {
    config.select.is_none()
        && !config.case_events
        && engines.iter().all(|e| !e.executor().reads_input())
}

/// A file's state between its chunks: the stream of its cases, and what every chunk shares.
#[derive(Default)]
pub(super) struct Source {
    state: Mutex<SourceState>,
}

#[derive(Default)]
struct SourceState {
    /// The cases not read yet (`None` before the first chunk and after the last).
    stream: Option<ParsedStream>,
    /// Input bytes the stream consumed so far.
    read: Arc<AtomicU64>,
    /// The index in the file of the next case.
    next_case: usize,
    /// With `--check`: the expected blocks, read with the first chunk.
    expected: Option<Arc<Result<Vec<String>, String>>>,
    /// Cases of the previous chunk: room reserved for the next (no growth by doubling).
    last_count: usize,
    /// With `--validate`: the file's violations, handed out chunk by chunk.
    validated: Option<Validated>,
}

/// A streamed file's violations (`--validate`), read before its first chunk by the streaming
/// validator, and the first case of the next chunk, read ahead: a violation belongs to the
/// last case starting at or before its line, so a chunk takes the violations before the next
/// chunk's first line.
struct Validated {
    violations: std::iter::Peekable<std::vec::IntoIter<Violation>>,
    /// The first case of the next chunk, read with the previous one.
    ahead: Option<ParsedCase>,
}

/// A reader counting the bytes its consumer took (a chunk's size, whatever the game).
struct Counting<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// What the workers tell the calling thread.
pub(super) enum Message {
    /// Every engine finished this case (0-based) of this file.
    Case(Arc<Loaded>, usize),
    /// Every slot of this chunk is finished.
    Chunk(Arc<Loaded>),
    /// The chunk of the file at this position is loaded; `more`: another chunk follows.
    Parsed { position: usize, more: bool },
}

impl Urgency for Message {
    /// A finished case must reach the journal within the second, and a loaded chunk whose file
    /// has more lets the next be admitted at once; finished chunks are counted (the calling
    /// thread says how many it waits for); a file's last chunk loaded changes nothing until
    /// that chunk is finished.
    fn wake(&self) -> Wake {
        match self {
            Message::Case(..) | Message::Parsed { more: true, .. } => Wake::Now,
            Message::Chunk(..) => Wake::Counted,
            Message::Parsed { more: false, .. } => Wake::Quiet,
        }
    }
}

/// A chunk's loading (or a retired chunk's freeing), queued until a worker takes it.
pub(super) type LoadJob = Box<dyn FnOnce() + Send>;

/// The chunks waiting to be loaded (and the retired ones waiting to be freed), taken before
/// any further slot: rayon's workers take a task from the pool's global queue (where the
/// calling thread puts its tasks) only when no task of their own is left, so a load put there
/// waited until a chunk's slots were all done, and a file's next chunk was never parsed while
/// its current one was being solved. The slots' tasks look here between two slots (an atomic
/// read), so a load starts as soon as a worker finishes a slot.
#[derive(Default)]
pub(super) struct Loads {
    queue: Mutex<std::collections::VecDeque<LoadJob>>,
    pending: AtomicUsize,
}

impl Loads {
    /// Queues `job`; the caller also hands the pool a task that runs [`Loads::run_one`], so an
    /// idle worker takes it.
    pub fn push(&self, job: LoadJob) {
        self.queue
            .lock()
            .expect("no task panics holding it")
            .push_back(job);
        self.pending.fetch_add(1, Ordering::Release);
    }

    /// Runs the oldest queued load, if any is left.
    pub fn run_one(&self) {
        let job = self
            .queue
            .lock()
            .expect("no task panics holding it")
            .pop_front();
        if let Some(job) = job {
            self.pending.fetch_sub(1, Ordering::Release);
            job();
        }
    }

    /// A load is queued (an atomic read, between two slots).
    pub fn waiting(&self) -> bool {
        self.pending.load(Ordering::Acquire) > 0
    }
}

/// The queue of [`Message`]s from the workers to the calling thread.
pub(super) type Completions = completions::Completions<Message>;

/// A chunk of a file read and split into cases (a whole file, when not streamed), shared by
/// the tasks solving it.
pub(super) struct Loaded {
    pub position: usize,
    /// The chunk's place among its file's (0 first).
    pub chunk: usize,
    /// The index in the file of its first case (`Slot::case` counts from there).
    pub first: usize,
    /// No chunk of the file follows it.
    pub last: bool,
    pub file: CaseFile,
    pub engines: Arc<[EngineSpec]>,
    /// The position of the baseline engine in `engines`, when it runs on this file's game.
    pub baseline: Option<usize>,
    /// The raw input, kept only when an external engine will read it.
    pub bytes: Vec<u8>,
    pub cases: Vec<ParsedCase>,
    /// Why the file could not be read at all.
    pub unreadable: Option<String>,
    /// With `--validate`: per case, why it breaks the statement (`None`: valid).
    pub invalid: Vec<Option<String>>,
    /// With `--check`: the expected blocks, or why there are none.
    pub expected: Option<Arc<Result<Vec<String>, String>>>,
    /// The (case, engine) slots this run solves, in case then engine order, with the resumed
    /// ones of the same cases among them.
    pub slots: Vec<Slot>,
    /// How many of `slots` are resumed (filled at loading, not run).
    pub resumed: usize,
    /// What each slot got, filled by the tasks in any order.
    pub done: Mutex<Vec<Option<Done>>>,
    /// Slots not finished yet; the task that finishes the last one reports the file complete.
    pub remaining: AtomicUsize,
    /// Per case, its slots not finished yet (with [`Config::case_events`]).
    pub case_left: Vec<AtomicUsize>,
    /// Slots finished over the whole run, and their classes' times, for progress.
    pub finished: Arc<Finished>,
    /// The chunk's rows, outputs and problem lines, built by the task that finished its last
    /// slot (so that the calling thread only writes them); `None` with case events, whose
    /// journal reads the slots' results until the chunk is retired.
    pub assembled: Mutex<Option<Assembled>>,
    /// The run's configuration (to assemble rows on the worker).
    pub config: Arc<Config>,
    /// What the run's sinks read: rows are built only if one wants them.
    pub wants: Wants,
}

/// A chunk's rows (when a sink wants them), outputs, problem lines and prepared results.
pub(super) struct Assembled {
    pub rows: Vec<Row>,
    /// The finished slots of partial cases (a stopped chunk's), for the journal.
    pub kept: Vec<KeptSlot>,
    pub outputs: Vec<FileOutput>,
    pub problems: Vec<String>,
    pub prepared: Option<Prepared>,
    /// Rows the chunk has (built or not: see [`Wants::rows`]), and the worst of their statuses.
    pub count: usize,
    pub worst: Option<Status>,
}

impl Assembled {
    /// Rows and problem lines already built (a stopped chunk's finished cases).
    pub fn of_rows(rows: Vec<Row>, problems: Vec<String>, kept: Vec<KeptSlot>) -> Assembled {
        Assembled {
            kept,
            count: rows.len(),
            worst: rows.iter().map(|r| r.status).reduce(Status::worst),
            rows,
            outputs: Vec::new(),
            problems,
            prepared: None,
        }
    }
}

impl Loaded {
    /// Records finished slots' results (one lock) and tells the calling thread of each case
    /// they complete (with case events); true when they were the chunk's last, which the
    /// caller then completes (`rows::complete`).
    #[must_use = "the chunk's last result must be completed"]
    pub fn finish_many(self: &Arc<Self>, results: Vec<(usize, Done)>, tx: &Completions) -> bool {
        if results.is_empty() {
            return false;
        }
        let count = results.len();
        let mut events = Vec::new();
        // Each engine's results, their weight and measured time, for the progress estimate.
        let mut spent: smallvec::SmallVec<[(usize, Amount, u128); 2]> = smallvec::SmallVec::new();
        // Kept only for a display that reads it.
        if self.finished.is_read() {
            for (slot, result) in &results {
                let Slot { case, engine, .. } = self.slots[*slot];
                let weight = Amount::weight_of(self.cases.get(case).and_then(|c| c.cells));
                let nanos = cost_nanos(result, self.cases.len());
                match spent.iter_mut().find(|(e, _, _)| *e == engine) {
                    Some((_, amount, sum)) => {
                        amount.units += 1;
                        amount.weight += weight;
                        *sum += nanos;
                    }
                    None => spent.push((engine, Amount { units: 1, weight }, nanos)),
                }
            }
        }
        {
            let mut done = self.done.lock().expect("no task panics holding it");
            for (slot, result) in results {
                let dropped = result.dropped;
                done[slot] = Some(result);
                let case = self.slots[slot].case;
                if let Some(left) = self.case_left.get(case)
                    && left.fetch_sub(1, Ordering::AcqRel) == 1
                    && !dropped
                {
                    events.push(case);
                }
            }
        }
        for (engine, amount, nanos) in spent {
            let name = self.engines[engine].name();
            self.finished
                .add(self.file.game.name(), name, amount, nanos);
        }
        for case in events {
            tx.push(Message::Case(self.clone(), case));
        }
        self.remaining.fetch_sub(count, Ordering::AcqRel) == count
    }

    /// The file as an executor sees it.
    pub fn job(&self) -> FileJob<'_> {
        FileJob {
            game: self.file.game,
            bytes: &self.bytes,
            cases: &self.cases,
            first: self.first,
        }
    }

    /// The range of slots of case `case` (they are consecutive).
    pub fn slots_of(&self, case: usize) -> std::ops::Range<usize> {
        let start = self.slots.partition_point(|s| s.case < case);
        let end = self.slots.partition_point(|s| s.case <= case);
        start..end
    }
}

/// What one result cost its engine: its timed runs (each call of a repeated batch), or its
/// share of a whole file's run among the chunk's `cases`.
fn cost_nanos(done: &Done, cases: usize) -> u128 {
    let runs: u128 = done.times.iter().map(|&t| u128::from(t)).sum();
    match done.timing {
        Timing::Case => runs,
        Timing::CaseRepeated => runs * u128::from(done.repeats.max(1)),
        Timing::File => runs / cases.max(1) as u128,
    }
}

/// A case of a chunk (index into its cases) for one engine (index into the file's engines).
#[derive(Clone, Copy)]
pub(super) struct Slot {
    pub case: usize,
    pub engine: usize,
    /// Finished by an earlier attempt and kept ([`super::CaseFilter::kept`]): filled when the
    /// chunk is loaded, never run.
    pub resumed: bool,
}

/// Loads chunk `chunk` of a file: the whole file when not `streamed` (then its only chunk),
/// else the next cases of its `source`; lists its slots. `size` is the file's size from the
/// window's stat pass.
#[allow(clippy::too_many_arguments)]
pub(super) fn load(
    position: usize,
    chunk: usize,
    file: CaseFile,
    size: u64,
    engines: Arc<[EngineSpec]>,
    baseline: Option<usize>,
    config: &Arc<Config>,
    finished: Arc<Finished>,
    source: &Source,
    streamed: bool,
    wants: Wants,
) -> Loaded {
    let mut loaded = Loaded {
        position,
        chunk,
        first: 0,
        last: true,
        file,
        engines,
        baseline,
        bytes: Vec::new(),
        cases: Vec::new(),
        unreadable: None,
        invalid: Vec::new(),
        expected: None,
        slots: Vec::new(),
        resumed: 0,
        done: Mutex::new(Vec::new()),
        remaining: AtomicUsize::new(0),
        case_left: Vec::new(),
        finished,
        assembled: Mutex::new(None),
        config: config.clone(),
        wants,
    };
    if streamed {
        read_chunk(&mut loaded, source, config);
    } else {
        read_whole(&mut loaded, size, config);
    }
    // An unreadable file (or one without cases) still gets one (error) row per engine.
    let cases = if loaded.unreadable.is_some() {
        1
    } else {
        loaded.cases.len()
    };
    // Sized up front: a chunk holds thousands of slots, and growing these by doubling
    // copied every `Done` several times over.
    let most = cases * loaded.engines.len();
    loaded.slots.reserve_exact(most);
    let mut done = Vec::with_capacity(most);
    for case in 0..cases {
        let index = loaded.first + case;
        // Inline: one allocation per case was a visible part of a tiny case's cost.
        let wanted: smallvec::SmallVec<[bool; 8]> = loaded
            .engines
            .iter()
            .map(|spec| {
                config
                    .select
                    .as_ref()
                    .is_none_or(|s| s.wants(position, &loaded.file, index, spec.name()))
            })
            .collect();
        // A case solved now for some engines may have the others' results kept by an
        // earlier attempt: they are judged with it (resumed slots, never run).
        let solved = wanted.contains(&true);
        for (engine, spec) in loaded.engines.iter().enumerate() {
            if wanted[engine] {
                loaded.slots.push(Slot {
                    case,
                    engine,
                    resumed: false,
                });
                done.push(None);
            } else if let Some(kept) = config
                .select
                .as_ref()
                .filter(|_| solved)
                .and_then(|s| s.kept(position, &loaded.file, index, spec.name()))
            {
                loaded.slots.push(Slot {
                    case,
                    engine,
                    resumed: true,
                });
                done.push(Some(Done::resumed(kept)));
                loaded.resumed += 1;
            }
        }
    }
    loaded.done = Mutex::new(done);
    loaded.remaining = AtomicUsize::new(loaded.slots.len() - loaded.resumed);
    if config.case_events {
        let mut left = vec![0usize; cases];
        for slot in loaded.slots.iter().filter(|s| !s.resumed) {
            left[slot.case] += 1;
        }
        loaded.case_left = left.into_iter().map(AtomicUsize::new).collect();
    }
    loaded
}

/// The whole file read and parsed: its only chunk.
fn read_whole(loaded: &mut Loaded, size: u64, config: &Config) {
    match crate::corpus::read_case_file(&loaded.file.path, size) {
        Err(e) => loaded.unreadable = Some(format!("cannot read: {e}")),
        Ok(bytes) => {
            loaded.cases = loaded.file.game.parse(&bytes, &loaded.file.reading);
            if loaded.cases.is_empty() {
                // Still one (error) row per engine, so the file does not vanish from results.
                loaded.unreadable = Some(NO_CASE.to_string());
            }
            if config.validate {
                loaded.invalid = invalid_cases(&loaded.file, &loaded.cases, &bytes);
            }
            loaded.expected = config.check.then(|| Arc::new(read_expected(&loaded.file)));
            // Only executors that run whole files (programs) read the raw input again.
            if loaded.engines.iter().any(|e| e.executor().reads_input()) {
                loaded.bytes = bytes;
            }
        }
    }
}

/// The next chunk of a streamed file: up to [`CHUNK_CASES`] cases or [`CHUNK_BYTES`] bytes
/// (the file opened, and its expected output read, with the first).
fn read_chunk(loaded: &mut Loaded, source: &Source, config: &Config) {
    let mut guard = source.state.lock().expect("no task panics holding it");
    let state = &mut *guard;
    if loaded.chunk == 0 {
        match crate::corpus::open_case_file(&loaded.file.path) {
            Err(e) => {
                loaded.unreadable = Some(format!("cannot read: {e}"));
                return;
            }
            Ok(opened) => {
                let counting = Counting {
                    inner: opened,
                    read: state.read.clone(),
                };
                let reader: Box<dyn BufRead + Send> =
                    Box::new(std::io::BufReader::with_capacity(READ_BUFFER, counting));
                state.stream = Some(loaded.file.game.cases(reader, &loaded.file.reading));
                state.expected = config.check.then(|| Arc::new(read_expected(&loaded.file)));
                if config.validate {
                    match validate_streamed(&loaded.file) {
                        Ok(violations) => {
                            state.validated = Some(Validated {
                                violations: violations.into_iter().peekable(),
                                ahead: None,
                            })
                        }
                        Err(e) => {
                            state.stream = None;
                            loaded.unreadable = Some(format!("cannot read: {e}"));
                            return;
                        }
                    }
                }
            }
        }
    }
    loaded.first = state.next_case;
    loaded.expected = state.expected.clone();
    let counter = state.read.clone();
    let start = counter.load(Ordering::Relaxed);
    let mut cases = Vec::with_capacity(state.last_count);
    let mut last = true;
    if let Some(ahead) = state.validated.as_mut().and_then(|v| v.ahead.take()) {
        cases.push(ahead);
    }
    if let Some(stream) = state.stream.as_mut() {
        for case in stream.by_ref() {
            cases.push(case);
            let read = counter.load(Ordering::Relaxed) - start;
            if cases.len() >= CHUNK_CASES || read >= CHUNK_BYTES {
                last = false;
                break;
            }
        }
    }
    if let Some(validated) = state.validated.as_mut() {
        validated.ahead = if last {
            None
        } else {
            state.stream.as_mut().and_then(Iterator::next)
        };
        last = validated.ahead.is_none();
        let next_line = validated.ahead.as_ref().map_or(usize::MAX, |c| c.line);
        let mut mine = Vec::new();
        while let Some(v) = validated.violations.next_if(|v| v.line < next_line) {
            mine.push(v);
        }
        loaded.invalid = messages_per_case(&mine, &cases);
    }
    if last {
        state.stream = None;
        state.validated = None;
    }
    state.next_case += cases.len();
    state.last_count = cases.len();
    loaded.last = last;
    loaded.cases = cases;
    if loaded.chunk == 0 && loaded.cases.is_empty() {
        // Still one (error) row per engine, so the file does not vanish from results.
        loaded.unreadable = Some(NO_CASE.to_string());
    }
}

/// Per parsed case, the validator's violations that fall in its lines (see
/// [`crate::validate::Validation::per_case`]), as one message; `None` for a valid case.
fn invalid_cases(file: &CaseFile, cases: &[ParsedCase], bytes: &[u8]) -> Vec<Option<String>> {
    messages_per_case(&file.game.validate(bytes).violations, cases)
}

/// The violations of a file read by the streaming validator (a cap of them, in line order).
fn validate_streamed(file: &CaseFile) -> std::io::Result<Vec<Violation>> {
    let opened = crate::corpus::open_case_file(&file.path)?;
    let mut reader = std::io::BufReader::with_capacity(READ_BUFFER, opened);
    Ok(file.game.validate_reader(&mut reader)?.violations)
}

/// Per case of `cases`, the `violations` (in line order) that fall in its lines, as one
/// message; `None` for a valid case. A violation before the first case goes to the first.
fn messages_per_case(violations: &[Violation], cases: &[ParsedCase]) -> Vec<Option<String>> {
    let starts: Vec<usize> = cases.iter().map(|c| c.line).collect();
    crate::validate::violations_per_case(violations, &starts)
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

fn read_expected(file: &CaseFile) -> Result<Vec<String>, String> {
    match file.read_expected() {
        Ok(Some((path, bytes))) => match String::from_utf8(bytes) {
            Ok(text) => Ok(file.game.split_output(&text)),
            Err(_) => Err(format!("expected output {} is not UTF-8", path.display())),
        },
        Ok(None) => Err(format!(
            "no expected output {} (nor .{})",
            file.expected_path().display(),
            crate::corpus::ANSWER_EXTENSION
        )),
        Err(e) => Err(format!("expected output: {e}")),
    }
}
