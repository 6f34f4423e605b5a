//! A program's CPU time per case, for `hunt --metric time`: what a judge's CPU limit counts
//! (user + system time from `wait4`, the program and everything it started), with the
//! process's start-up taken out.
//!
//! A process costs its start-up (the shell, an interpreter or a JVM) whatever the case, and on
//! a fast game that start-up and its jitter are most of the time measured. So:
//! - the start-up is calibrated first ([`crate::engines::startup`]): the program runs
//!   [`CALIBRATION_RUNS`] times on a trivial input (the smallest case the hunt starts from,
//!   alone); the start-up is the fastest of those runs, the noise the spread between the 10th
//!   and 90th percentile;
//! - each case is measured in a file that holds it [`ProgramClock::copies`] times where the
//!   game's format allows several cases per file (at most [`MAX_COPIES`]), so that one
//!   start-up is shared by many copies; the case's time is the file's CPU time minus the
//!   start-up, divided by the copies (the fastest of the runs: other processes only add time);
//! - differences between cases below [`ProgramClock::noise_per_case`] cannot be told from the
//!   start-up's jitter, and the hunt says so.

use crate::engines::{EngineSpec, Fault, FileJob, Plan, startup};
use crate::game::Game;
use crate::shrink::Input;

pub use crate::engines::startup::CALIBRATION_RUNS;
/// Most copies of a case in one measured file.
pub const MAX_COPIES: usize = 16;

/// The calibrated start-up of a program and how its cases are measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProgramClock {
    /// CPU time of a run on the trivial input (the fastest), ns.
    pub startup_ns: u64,
    /// Spread of that CPU time over the calibration runs (10th to 90th percentile), ns.
    pub noise_ns: u64,
    /// Copies of a case in one measured file.
    pub copies: usize,
}

/// The CPU time (ns) of each run of `engine` on `input`, or why it failed.
fn cpu_times(
    game: &'static dyn Game,
    engine: &EngineSpec,
    input: &Input,
    plan: &Plan,
) -> Result<Vec<u64>, String> {
    let job = FileJob {
        game,
        bytes: input.text.as_bytes(),
        cases: &input.cases,
        first: 0,
    };
    let run = engine.executor().run_file(&job, plan).swap_remove(0);
    match run.result {
        // A program is timed whatever it printed.
        Ok(_) | Err(Fault::NoOutput) => {}
        Err(fault) => return Err(fault.to_string()),
    }
    let times: Vec<u64> = run
        .usage
        .iter()
        .map(|u| u.cpu().as_nanos() as u64)
        .collect();
    if times.is_empty() {
        return Err("the run reported no CPU time".to_string());
    }
    Ok(times)
}

impl ProgramClock {
    /// Calibrates the start-up of `engine` (a program) on `trivial` (one case) with
    /// [`CALIBRATION_RUNS`] runs under `plan`'s limits (a one-case file's: the per-case limit
    /// when there is one).
    pub fn calibrate(
        game: &'static dyn Game,
        engine: &EngineSpec,
        trivial: &Input,
        plan: &Plan,
    ) -> Result<ProgramClock, String> {
        let program = engine
            .program()
            .ok_or("only a program's start-up is calibrated")?;
        let limits = &plan.limits;
        let wall = limits
            .case_timeout
            .map_or(limits.timeout, |c| c.min(limits.timeout));
        let clock = startup::calibrate(program, trivial.text.as_bytes(), &limits.run(wall))
            .map_err(|e| e.to_string())?;
        Ok(ProgramClock {
            startup_ns: clock.cpu_ns,
            noise_ns: clock.noise_ns,
            copies: game.editor().max_cases().clamp(1, MAX_COPIES),
        })
    }

    /// The CPU time of the one case of `input`, start-up taken out (ns): the fastest of
    /// `plan`'s runs of a file holding it [`ProgramClock::copies`] times.
    pub fn measure(
        &self,
        game: &'static dyn Game,
        engine: &EngineSpec,
        input: &Input,
        plan: &Plan,
    ) -> Result<u64, String> {
        let case = input.typed()[0];
        let copies = vec![case; self.copies];
        let batch = Input::read(game, game.editor().write_input(&copies), &input.reading)
            .filter(|b| b.cases.len() == self.copies)
            .ok_or("the case repeated is not a readable file")?;
        let fastest = cpu_times(game, engine, &batch, plan)?
            .into_iter()
            .min()
            .unwrap_or(0);
        Ok(fastest.saturating_sub(self.startup_ns) / self.copies as u64)
    }

    /// The start-up noise shared by the copies of a case: smaller differences between cases
    /// are not measured.
    pub fn noise_per_case(&self) -> u64 {
        self.noise_ns / self.copies as u64
    }
}
