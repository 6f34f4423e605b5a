//! The pipeline of a run: files admitted into a window bounded by count and bytes, each
//! loaded a chunk at a time and scheduled on a worker (`load.rs`, `slot.rs`), and retired on
//! the calling thread in corpus order, chunk after chunk: a chunk complete before an earlier
//! one waits in the window (the reordering buffer). A retired chunk's rows (`rows.rs`) go to
//! every sink, and the chunk is dropped; its file's next chunk is admitted while the window
//! allows, so a file of any size holds only its chunks in flight.
//!
//! Invariants: sinks see files in corpus order, each file's chunks in order, whatever the
//! completion order; at least one chunk is always in flight while any work is left; a file
//! has at most one chunk being loaded (its stream is read in order); once [`Config::stop`] is
//! set, nothing is admitted, and every chunk in flight is still retired in order, a chunk with
//! dropped slots handing over the slots that finished (a partial case's rows say which engines
//! are missing); case events (journals) may come in any order, before their file is retired.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use super::done::{Done, KeptSlot};
use super::load::{Assembled, Loaded, load as load_chunk};
use super::load::{CHUNK_BYTES, Completions, Loads, Message, Source, streams};
use super::rows::{assemble, finished_rows, rows_of};
use super::sink::{FileResults, Sink, Wants};
use super::slot::schedule;
use super::{Config, RunError, RunOutcome};
use crate::corpus::CaseFile;
use crate::engines::{EngineTable, Plan};
use crate::results::{Row, Status};
use crate::util::progress::Progress;

/// The calling thread sleeps until about this fraction of the running chunks finished (at
/// most a quarter of the window's count), so that the workers still have the rest to solve
/// while it retires and refills (see [`Completions`]).
const WAKE_FRACTION: usize = 2;
/// Most finished chunks the calling thread waits for: a quarter of the window's count.
const WINDOW_BATCHES: usize = 4;
/// How often a run waiting for results looks at [`Config::stop`] (results wake it).
const STOP_POLL: Duration = Duration::from_millis(50);

/// How many chunks (a file read whole is one), and how many input bytes, may be in flight.
pub(super) struct Window {
    pub files: usize,
    pub bytes: u64,
    /// Chunks of one streamed file in flight at most (its oldest chunk always goes).
    pub chunks_per_file: usize,
}

/// A file in flight: its chunks admitted and not retired, in order.
struct InFlight {
    /// Read a chunk at a time (else whole, one chunk).
    streamed: bool,
    /// The bytes a chunk of it counts against the window.
    chunk_bytes: u64,
    source: Arc<Source>,
    chunks: VecDeque<Option<Arc<Loaded>>>,
    /// Chunks admitted so far.
    admitted: usize,
    /// A chunk is being loaded (the next cannot be admitted before it is).
    loading: bool,
    /// Its last chunk is loaded.
    ended: bool,
    /// Slots retired so far, for progress.
    slots: usize,
}

pub(super) struct Pipeline<'a> {
    pub files: &'a [CaseFile],
    /// Each file's size in bytes (0 when it cannot be read: its load reports why).
    pub sizes: &'a [u64],
    pub config: &'a Config,
    /// The same configuration, shared with the tasks (cloned once per run, not per file).
    pub shared: Arc<Config>,
    /// How engines are run, shared with the tasks.
    pub plan: Arc<Plan>,
    pub table: &'a EngineTable,
    pub pool: &'a rayon::ThreadPool,
    pub bar: &'a Progress,
    pub window: Window,
    /// What the sinks read (see [`Sink::wants`]).
    pub wants: Wants,
}

/// Chunks and bytes in flight.
#[derive(Default)]
struct Load {
    chunks: usize,
    bytes: u64,
}

impl Pipeline<'_> {
    pub fn run(&self, sinks: &mut [&mut dyn Sink]) -> Result<RunOutcome, RunError> {
        let tx = Arc::new(Completions::new());
        let loads = Arc::new(Loads::default());
        let mut in_flight: BTreeMap<usize, InFlight> = BTreeMap::new();
        let mut next = 0usize;
        let mut load = Load::default();
        let mut outcome = RunOutcome::default();
        loop {
            let stopping = self.config.stop.load(Ordering::Relaxed);
            // Retire every complete chunk at the head of the window, in order.
            while let Some(mut entry) = in_flight.first_entry() {
                let position = *entry.key();
                let flight = entry.get_mut();
                let Some(Some(loaded)) = flight.chunks.front() else {
                    // A stopped run admits no more chunks: a file with none in flight is
                    // done with, whether or not it ended.
                    let over = flight.ended || self.config.stop.load(Ordering::Relaxed);
                    if flight.chunks.is_empty() && over && !flight.loading {
                        entry.remove();
                        continue;
                    }
                    break;
                };
                let loaded = loaded.clone();
                flight.chunks.pop_front();
                load.chunks -= 1;
                load.bytes -= flight.chunk_bytes;
                let assembled = loaded
                    .assembled
                    .lock()
                    .expect("no task panics holding it")
                    .take();
                // A chunk the stop cut short: its finished cases still reach the sinks (in
                // order, with gaps where a case was not finished), then the run ends. A
                // journaled run already has them (case events).
                let mut stopped = false;
                let (assembled, slots) = match assembled {
                    Some(assembled) => (assembled, loaded.slots.len() - loaded.resumed),
                    None => {
                        let done: Vec<Done> = std::mem::take(
                            &mut *loaded.done.lock().expect("no task panics holding it"),
                        )
                        .into_iter()
                        .map(|d| d.expect("every slot is filled once"))
                        .collect();
                        if done.iter().any(|d| d.dropped) {
                            stopped = true;
                            // With case events, the journal already has the cases every
                            // engine finished: the sinks still get them all (a journal
                            // skips those it has), and the finished slots of partial cases.
                            let (rows, problems, kept) = finished_cases(&loaded, done, self.config);
                            (Assembled::of_rows(rows, problems, kept), 0)
                        } else {
                            let slots = done.len() - loaded.resumed;
                            (assemble(&loaded, done, self.config), slots)
                        }
                    }
                };
                let Assembled {
                    rows,
                    kept,
                    outputs,
                    problems,
                    prepared,
                    count,
                    worst,
                } = assembled;
                flight.slots += slots;
                let slots = flight.slots;
                let (part, last) = (loaded.chunk, loaded.last && !stopped);
                // The chunk's parsed cases are freed on a worker: on this thread, which hands
                // every chunk over in order, freeing thousands of small cases would be serial.
                // It goes before further slots, as a load does: a task in the pool's global
                // queue would wait while the workers have slots, and freed chunks pile up.
                loads.push(Box::new(move || drop(loaded)));
                let helper = loads.clone();
                self.pool.spawn_fifo(move || helper.run_one());
                if let Some(worst) = worst {
                    outcome.worst = Some(outcome.worst.unwrap_or(Status::Ok).worst(worst));
                }
                outcome.rows += count;
                let results = FileResults {
                    position,
                    file: &self.files[position],
                    rows: &rows,
                    kept: &kept,
                    outputs: &outputs,
                    problems: &problems,
                    prepared: prepared.as_ref(),
                    part,
                    last,
                };
                if count > 0 || !stopped {
                    for sink in sinks.iter_mut() {
                        if sink.wants().terminal && !problems.is_empty() {
                            // It writes on the terminal: the bar steps aside meanwhile.
                            self.bar.suspend(|| sink.file(&results))?;
                        } else {
                            sink.file(&results)?;
                        }
                    }
                }
                // Every later chunk in flight is retired too: its finished slots are kept.
                outcome.interrupted |= stopped;
                if last {
                    outcome.files += 1;
                    self.bar.file_done(slots);
                }
            }
            // Admitted after retiring: retiring frees the window, and a head file whose
            // chunks were all retired gets its next one now. Admitted before, it waited for a
            // message that no running chunk would send (the calling thread slept its whole
            // timeout with the workers idle).
            if !stopping {
                self.admit(&mut in_flight, &mut next, &mut load, &tx, &loads);
            }
            let idle = in_flight
                .values()
                .all(|f| f.chunks.is_empty() && !f.loading);
            if idle {
                if in_flight.is_empty() && next == self.files.len() {
                    return Ok(outcome);
                }
                if stopping {
                    outcome.interrupted = true;
                    return Ok(outcome);
                }
                // Everything admitted is retired and nothing more was: look again.
                continue;
            }
            // Every message queued, or (after a wait) a batch of them: a wake-up per chunk
            // would cost more than a tiny file's work, and waiting for every running chunk
            // would leave the workers idle while this thread refills the window.
            let running = in_flight
                .values()
                .map(|f| f.chunks.iter().filter(|c| c.is_none()).count())
                .sum::<usize>();
            let batch = (running / WAKE_FRACTION).min(self.window.files / WINDOW_BATCHES);
            let messages = tx.take(batch, STOP_POLL);
            self.bar.tick();
            if messages.is_empty() {
                continue;
            }
            for message in messages {
                match message {
                    Message::Chunk(loaded) => {
                        let flight = in_flight
                            .get_mut(&loaded.position)
                            .expect("complete chunks are in flight");
                        let first = flight.admitted - flight.chunks.len();
                        let slot = &mut flight.chunks[loaded.chunk - first];
                        *slot = Some(loaded);
                    }
                    Message::Parsed { position, more } => {
                        let flight = in_flight
                            .get_mut(&position)
                            .expect("loading files are in flight");
                        flight.loading = false;
                        flight.ended = !more;
                    }
                    Message::Case(loaded, case) => self.journal_case(&loaded, case, sinks)?,
                }
            }
        }
    }

    /// Admits chunks while the window allows (always at least one when none is in flight):
    /// first the next chunks of files already in flight, in order, then new files.
    fn admit(
        &self,
        in_flight: &mut BTreeMap<usize, InFlight>,
        next: &mut usize,
        load: &mut Load,
        tx: &Arc<Completions>,
        loads: &Arc<Loads>,
    ) {
        let room = |load: &Load| {
            load.chunks == 0 || (load.chunks < self.window.files && load.bytes < self.window.bytes)
        };
        for (n, (&position, flight)) in in_flight.iter_mut().enumerate() {
            if !flight.streamed || flight.ended || flight.loading {
                continue;
            }
            // The oldest file always gets its next chunk when none of it is in flight: the
            // window may be full of later files' chunks, which wait for it to be retired.
            let head = n == 0 && flight.chunks.is_empty();
            if head || (room(load) && flight.chunks.len() < self.window.chunks_per_file) {
                self.spawn_chunk(position, flight, load, tx.clone(), loads);
            }
        }
        while *next < self.files.len() && room(load) {
            let position = *next;
            let file = &self.files[position];
            let streamed = streams(self.config, &self.table.of(file.game));
            let size = self.sizes[position];
            let mut flight = InFlight {
                streamed,
                chunk_bytes: if streamed {
                    size.min(CHUNK_BYTES)
                } else {
                    size
                },
                source: Arc::new(Source::default()),
                chunks: VecDeque::new(),
                admitted: 0,
                loading: false,
                ended: false,
                slots: 0,
            };
            self.spawn_chunk(position, &mut flight, load, tx.clone(), loads);
            in_flight.insert(position, flight);
            *next += 1;
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
        let (rows, _) = rows_of(loaded, range, &mut done, self.config);
        let results = FileResults {
            position: loaded.position,
            file: &self.files[loaded.position],
            rows: &rows,
            kept: &[],
            outputs: &[],
            problems: &[],
            prepared: None,
            part: loaded.chunk,
            last: false,
        };
        for sink in sinks.iter_mut() {
            sink.case(&results)?;
        }
        Ok(())
    }

    /// Loads the next chunk of file `position` on a worker, then schedules its work.
    fn spawn_chunk(
        &self,
        position: usize,
        flight: &mut InFlight,
        load: &mut Load,
        tx: Arc<Completions>,
        loads: &Arc<Loads>,
    ) {
        let chunk = flight.admitted;
        flight.admitted += 1;
        flight.chunks.push_back(None);
        flight.loading = true;
        load.chunks += 1;
        load.bytes += flight.chunk_bytes;
        let file = self.files[position].clone();
        let size = self.sizes[position];
        let engines = self.table.of(file.game);
        let baseline = self.table.baseline_of(file.game);
        let config = self.shared.clone();
        let plan = self.plan.clone();
        let finished = self.bar.finished.clone();
        let planned = self.bar.planned.clone();
        let (source, streamed) = (flight.source.clone(), flight.streamed);
        let wants = self.wants;
        let helpers = loads.clone();
        loads.push(Box::new(move || {
            let loaded = load_chunk(
                position, chunk, file, size, engines, baseline, &config, finished, &source,
                streamed, wants,
            );
            let runnable = loaded.slots.len() - loaded.resumed;
            planned.add(chunk == 0, runnable);
            let loaded = Arc::new(loaded);
            tx.push(Message::Parsed {
                position,
                more: !loaded.last,
            });
            if runnable == 0 {
                tx.push(Message::Chunk(loaded));
            } else {
                schedule(loaded, config, plan, tx, helpers);
            }
        }));
        // An idle worker takes it from the pool; a busy one between two slots (see [`Loads`]).
        let loads = loads.clone();
        self.pool.spawn_fifo(move || loads.run_one());
    }
}

/// The rows and problem lines of every finished slot of a stopped chunk, in (case, engine,
/// run) order: a case with a slot the stop dropped keeps its finished engines' rows, which say
/// which engines are missing, and those slots kept for a journal (`rows::finished_rows`).
fn finished_cases(
    loaded: &Loaded,
    done: Vec<Done>,
    config: &Config,
) -> (Vec<Row>, Vec<String>, Vec<KeptSlot>) {
    let (mut rows, mut problems, mut kept) = (Vec::new(), Vec::new(), Vec::new());
    let mut start = 0;
    while start < loaded.slots.len() {
        let range = loaded.slots_of(loaded.slots[start].case);
        let (r, p, k) = finished_rows(loaded, range.clone(), &done[range.clone()], config);
        rows.extend(r);
        problems.extend(p);
        kept.extend(k);
        start = range.end;
    }
    (rows, problems, kept)
}
