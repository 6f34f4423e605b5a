//! The pipeline of a run: files admitted into a window bounded by count and bytes, each
//! loaded and scheduled on a worker (`load.rs`, `slot.rs`), and retired on the calling
//! thread in corpus order: a file complete before an earlier one waits in the window (the
//! reordering buffer). A retired file's rows (`rows.rs`) go to every sink, and the file is
//! dropped.
//!
//! Invariants: sinks see files in corpus order whatever the completion order; at least one
//! file is always in flight while any is left; once [`Config::stop`] is set, no file is
//! admitted, and a file with a dropped slot ends the run (it and every later file are left
//! out); case events (journals) may come in any order, before their file is retired.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use super::done::Done;
use super::load::{Completions, Message};
use super::load::{Loaded, load};
use super::rows::{assemble, rows_of};
use super::sink::{FileResults, Sink};
use super::slot::schedule;
use super::{Config, RunError, RunOutcome};
use crate::corpus::CaseFile;
use crate::engines::{EngineTable, Plan};
use crate::progress::Progress;
use crate::results::Status;

/// The window is refilled after about this fraction of it finished (see [`Completions`]).
const COMPLETION_BATCHES: usize = 4;
/// How often a run waiting for results looks at [`Config::stop`].
const STOP_POLL: Duration = Duration::from_millis(50);

/// How many files, and how many input bytes, may be in flight at once.
pub(super) struct Window {
    pub files: usize,
    pub bytes: u64,
}

/// A file in flight: its input size, counted against the window until it is retired.
struct InFlight {
    bytes: u64,
    /// Set when its last slot is finished.
    complete: Option<Arc<Loaded>>,
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
}

impl Pipeline<'_> {
    pub fn run(&self, sinks: &mut [&mut dyn Sink]) -> Result<RunOutcome, RunError> {
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
                let (rows, outputs, problems) = assemble(&loaded, done, self.config);
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
        let (rows, _) = rows_of(loaded, range, &mut done, self.config);
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
        let plan = self.plan.clone();
        let finished = self.bar.finished.clone();
        self.pool.spawn_fifo(move || {
            let loaded = Arc::new(load(position, file, size, engines, &config, finished));
            if loaded.slots.is_empty() {
                tx.push(Message::File(loaded));
            } else {
                schedule(loaded, config, plan, tx);
            }
        });
    }
}
