//! Scheduling a loaded file's slots on the pool, each engine run through its executor
//! ([`crate::engines::Executor`]): one task per slot for executors that run a case alone
//! (internal engines), one task per (file, engine) for those that run whole files (programs:
//! the program solves the file once per run, and its results fill that engine's slots). A
//! tiny file of case-by-case executors is solved by the task that loaded it.
//!
//! Each result goes through the same steps: the executor's `CaseRun` becomes a [`Done`], the
//! check against the expected output (`verdict.rs`), the output dropped unless still needed,
//! and [`Loaded::finish_many`]; the task that stores a chunk's last result completes it
//! ([`complete`]: its rows assembled on that worker).
//!
//! Invariants: a slot whose file is unreadable, or whose case breaks the statement
//! (`--validate`), is never run (it is an `error`); nor is a resumed slot (filled at loading); once [`super::Config::stop`] is set, no
//! slot starts (each is `dropped`).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::Config;
use super::done::Done;
use super::load::Completions;
use super::load::{Loaded, Loads, Slot};
use super::rows::complete;
use super::verdict::check_expected;
use crate::engines::{CaseRun, Fault, Plan};

/// A file with at most this many (case, engine) slots is solved by the task that loaded it
/// (Yut: one game per file), instead of one task per slot.
const INLINE_SLOTS: usize = 4;
/// Tasks per worker thread sharing the slots of a (chunk, engine).
const TASKS_PER_THREAD: usize = 2;
/// Results a task stores at once (one lock of the chunk's results).
const FINISH_BATCH: usize = 64;
/// The longest a finished result waits in a task's batch: slow cases reach the journal, the
/// progress display and an interrupted run's CSV at once, not 64 cases later.
const FINISH_WAIT: std::time::Duration = std::time::Duration::from_millis(50);
/// Results between two looks at the clock while a task holds results back.
const CLOCK_EVERY: usize = 8;
/// A run this long makes its task look at the clock at once.
const SLOW_SLOT_NS: u64 = FINISH_WAIT.as_nanos() as u64 / CLOCK_EVERY as u64;

/// Stores finished results in their chunk, and completes the chunk when they were its last.
fn store(loaded: &Arc<Loaded>, results: Vec<(usize, Done)>, tx: &Completions) {
    if loaded.finish_many(results, tx) {
        complete(loaded, tx);
    }
}

/// Schedules a loaded file's work on the pool: one task per slot of a case-by-case executor,
/// one per whole-file executor.
pub(super) fn schedule(
    loaded: Arc<Loaded>,
    config: Arc<Config>,
    plan: Arc<Plan>,
    tx: Arc<Completions>,
    loads: Arc<Loads>,
) {
    let keep = config.keep_outputs || loaded.engines.len() > 1;
    let per_case_only = loaded.engines.iter().all(|e| e.executor().per_case());
    if per_case_only && loaded.slots.len() <= INLINE_SLOTS {
        // A task per slot costs more than a tiny file's work; its own task solves it.
        for e in 0..loaded.engines.len() {
            started(&loaded, e, true);
        }
        for (i, &slot) in loaded.slots.iter().enumerate() {
            if slot.resumed {
                continue;
            }
            let done = if config.stop.load(Ordering::Relaxed) {
                Done::dropped()
            } else {
                run_slot(&loaded, slot, &plan, keep)
            };
            store(&loaded, vec![(i, done)], &tx);
        }
        for e in 0..loaded.engines.len() {
            started(&loaded, e, false);
        }
        return;
    }
    for (e, spec) in loaded.engines.iter().enumerate() {
        let mine: Vec<usize> = (0..loaded.slots.len())
            .filter(|&i| loaded.slots[i].engine == e && !loaded.slots[i].resumed)
            .collect();
        if spec.executor().per_case() {
            // A few tasks per (chunk, engine) take its slots one at a time from a shared
            // cursor: as balanced as a task per slot, without a task's cost per case.
            let tasks = mine
                .len()
                .min(rayon::current_num_threads() * TASKS_PER_THREAD);
            let mine: Arc<[usize]> = mine.into();
            let cursor = Arc::new(AtomicUsize::new(0));
            for _ in 0..tasks {
                let (loaded, config, plan, tx) =
                    (loaded.clone(), config.clone(), plan.clone(), tx.clone());
                let (mine, cursor, loads) = (mine.clone(), cursor.clone(), loads.clone());
                rayon::spawn_fifo(move || {
                    started(&loaded, e, true);
                    let mut finished = Vec::with_capacity(FINISH_BATCH);
                    let mut oldest = std::time::Instant::now();
                    loop {
                        // A chunk waiting to be loaded goes first, so that its parsing
                        // overlaps this chunk's solving; the results so far are stored
                        // before, so that they do not wait for it.
                        if loads.waiting() {
                            store(&loaded, std::mem::take(&mut finished), &tx);
                            loads.run_one();
                        }
                        let Some(&i) = mine.get(cursor.fetch_add(1, Ordering::Relaxed)) else {
                            break;
                        };
                        let done = if config.stop.load(Ordering::Relaxed) {
                            Done::dropped()
                        } else {
                            run_slot(&loaded, loaded.slots[i], &plan, keep)
                        };
                        if finished.is_empty() {
                            oldest = std::time::Instant::now();
                        }
                        let slow = done.times.iter().any(|&t| t >= SLOW_SLOT_NS);
                        finished.push((i, done));
                        // A journaled run needs each case at once; others store in batches,
                        // but hold a result about FINISH_WAIT at most (the clock read after a
                        // slow case, else every CLOCK_EVERY cases: a read per tiny case costs
                        // a visible part of its time).
                        let look = slow || finished.len() % CLOCK_EVERY == 0;
                        if finished.len() == FINISH_BATCH
                            || config.case_events
                            || (look && oldest.elapsed() >= FINISH_WAIT)
                        {
                            store(&loaded, std::mem::take(&mut finished), &tx);
                        }
                    }
                    started(&loaded, e, false);
                    store(&loaded, finished, &tx);
                });
            }
        } else if !mine.is_empty() {
            let (loaded, config, plan, tx) =
                (loaded.clone(), config.clone(), plan.clone(), tx.clone());
            rayon::spawn_fifo(move || {
                started(&loaded, e, true);
                let stopped = config.stop.load(Ordering::Relaxed);
                let mut results: Vec<Option<Done>> = if stopped {
                    Vec::new()
                } else {
                    run_file(&loaded, e, &plan, keep)
                        .into_iter()
                        .map(Some)
                        .collect()
                };
                for i in mine {
                    let done = match results.get_mut(loaded.slots[i].case) {
                        Some(done) => done.take().expect("one result per case of the file"),
                        None => Done::dropped(),
                    };
                    store(&loaded, vec![(i, done)], &tx);
                }
                started(&loaded, e, false);
            });
        }
    }
}

/// A task of engine `e` on the file's slots starts (`true`) or ends: the progress display
/// gives no estimate while a running class is silent longer than its measurements allow.
fn started(loaded: &Loaded, e: usize, starts: bool) {
    if !loaded.finished.is_read() {
        return;
    }
    let (game, name) = (loaded.file.game.name(), loaded.engines[e].name());
    if starts {
        loaded.finished.start(game, name);
    } else {
        loaded.finished.end(game, name);
    }
}

/// Why case `case` of the file is not run: the file is unreadable, or the case breaks the
/// statement.
fn not_runnable(loaded: &Loaded, case: usize) -> Option<Done> {
    let why = loaded
        .unreadable
        .as_ref()
        .or_else(|| loaded.invalid.get(case)?.as_ref())?;
    Some(Done::failed(&loaded.file, loaded.first + case + 1, why))
}

/// One slot of a case-by-case executor: the run, then the check.
fn run_slot(loaded: &Loaded, slot: Slot, plan: &Plan, keep: bool) -> Done {
    if let Some(done) = not_runnable(loaded, slot.case) {
        return done;
    }
    let executor = loaded.engines[slot.engine].executor();
    let run = executor.run_case(&loaded.job(), slot.case, plan);
    settle(loaded, slot.case, run, keep)
}

/// Every case of the file with whole-file executor `engine`: one result per case (one for
/// an unreadable file).
fn run_file(loaded: &Loaded, engine: usize, plan: &Plan, keep: bool) -> Vec<Done> {
    if let Some(why) = &loaded.unreadable {
        return vec![Done::failed(&loaded.file, 1, why)];
    }
    let executor = loaded.engines[engine].executor();
    executor
        .run_file(&loaded.job(), plan)
        .into_iter()
        .enumerate()
        .map(|(case, run)| {
            // The program's failure (or the case's own parse error) first, then the case's
            // violation of the statement.
            let failed = matches!(&run.result, Err(fault) if *fault != Fault::NoOutput);
            match not_runnable(loaded, case) {
                Some(done) if !failed => done,
                _ => settle(loaded, case, run, keep),
            }
        })
        .collect()
}

/// A case's run made a [`Done`], checked against the expected output; the output kept only
/// when `keep`.
fn settle(loaded: &Loaded, case: usize, run: CaseRun, keep: bool) -> Done {
    let mut done = Done::of_run(&loaded.file, loaded.first + case + 1, run);
    check_expected(loaded, case, &mut done);
    if !keep {
        done.output = None;
    }
    done
}
