//! An internal engine run on a thread of its own, so that a deadline or a signal is honoured
//! even inside one long case: an internal engine cannot be killed like a program (a
//! simulation game ignores its budget), so the caller stops waiting for it and leaves the
//! thread behind; the thread stops at its next case boundary (its results have nowhere to
//! go) and the process ends soon after, as the command does.
//!
//! Used by `stress` and `hunt` for every internal engine run; programs are stopped by the
//! executor itself (their wall-time limit, the stop flag).

use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use crate::engines::{CaseRun, Fault, FileJob, Plan, Timing};
use crate::game::{CaseError, Game, Reading};
use crate::runner::EngineSpec;

/// Longest wait between two looks at the deadline and the stop flag.
const POLL: Duration = Duration::from_millis(50);

/// Every case of `text` (a judge input of `game`, read under `reading`) with the internal
/// engine `engine`, one
/// result per parsed case; `halt` is asked between waits (the time left before a deadline,
/// `None` for none) and its error ends the wait at once.
pub fn run_cases<E>(
    game: &'static dyn Game,
    reading: &Reading,
    engine: &EngineSpec,
    text: &str,
    cases: usize,
    plan: &Plan,
    halt: impl Fn() -> Result<Option<Duration>, E>,
) -> Result<Vec<CaseRun>, E> {
    let (tx, rx) = mpsc::channel();
    let (engine, text, plan) = (engine.clone(), text.to_string(), plan.clone());
    let reading = reading.clone();
    std::thread::spawn(move || {
        let parsed = game.parse(text.as_bytes(), &reading);
        let job = FileJob {
            game,
            bytes: text.as_bytes(),
            cases: &parsed,
            first: 0,
        };
        let executor = engine.executor();
        for case in 0..parsed.len() {
            if tx.send(executor.run_case(&job, case, &plan)).is_err() {
                return;
            }
        }
    });
    let mut runs = Vec::with_capacity(cases);
    while runs.len() < cases {
        let wait = halt()?.map_or(POLL, |left| left.min(POLL));
        match rx.recv_timeout(wait) {
            Ok(run) => runs.push(run),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                // The engine panicked: a crash of each case it did not finish.
                while runs.len() < cases {
                    let error = CaseError::new(0, "the engine panicked");
                    runs.push(CaseRun::fault(Fault::Case(error), Timing::Case));
                }
            }
        }
    }
    Ok(runs)
}
