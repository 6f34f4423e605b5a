//! Measuring one case for the hunt: the metric of an engine's run under the hunt's deadline
//! (a program's wall-time limit and a search's budget cut to the time left), a halt at the
//! deadline or on a signal told apart from an error, and a program's start-up calibrated first
//! (see [`crate::hunt::progtime`]).

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::{Config, HuntError, Metric};
use crate::engines::{Clock, Fault, FileJob, Plan};
use crate::external;
use crate::game::Verdict;
use crate::hunt::progtime::ProgramClock;
use crate::shrink::Input;
use crate::stress::detached;

/// Why a measurement did not end: not errors of the hunt, which writes what it has.
pub(super) enum Halt {
    /// The deadline (`--time`) passed.
    OutOfTime,
    /// A signal asked to stop.
    Stopped,
}

/// A measurement's failure: the hunt's error, or a halt.
pub(super) enum Measure {
    Error(HuntError),
    Halt(Halt),
}

impl From<HuntError> for Measure {
    fn from(e: HuntError) -> Measure {
        Measure::Error(e)
    }
}

pub(super) struct Measurer<'a> {
    pub(super) config: &'a Config<'a>,
    pub(super) deadline: Option<Instant>,
    /// A program's calibrated start-up, when its time is hunted.
    pub(super) clock: Option<ProgramClock>,
}

impl Measurer<'_> {
    /// The time left before the deadline (`None`: none); a halt once it passed or a signal
    /// came.
    pub(super) fn time_left(&self) -> Result<Option<Duration>, Halt> {
        if external::stop_flag().load(Ordering::Relaxed) {
            return Err(Halt::Stopped);
        }
        match self.deadline {
            None => Ok(None),
            Some(d) => match d.checked_duration_since(Instant::now()) {
                Some(left) if !left.is_zero() => Ok(Some(left)),
                _ => Err(Halt::OutOfTime),
            },
        }
    }

    /// The metric of the single case of `input` with `runs` timed runs.
    pub(super) fn measure(&self, input: &Input, runs: u32) -> Result<u64, Measure> {
        let config = self.config;
        let failed = |message: String| HuntError::Engine {
            engine: config.engine.name().to_string(),
            message,
        };
        if config.metric == Metric::Work && config.engine.is_program() {
            return Err(HuntError::WorkOfProgram(config.engine.name().to_string()).into());
        }
        let left = self.time_left().map_err(Measure::Halt)?;
        let mut limits = config.limits.clone();
        let mut budget = config.budget.clone();
        if let Some(left) = left {
            limits.timeout = limits.timeout.min(left);
            budget.time_limit = Some(budget.time_limit.map_or(left, |t| t.min(left)));
        }
        let cut_short = limits.timeout < config.limits.timeout;
        let job = FileJob {
            game: config.game,
            bytes: input.text.as_bytes(),
            cases: &input.cases,
            first: 0,
        };
        // Work is exact: one run. Time: the thread's CPU time of each engine call (a program:
        // the wall time of whole runs).
        let plan = Plan {
            warmup: 0,
            runs: if config.metric == Metric::Work {
                1
            } else {
                runs
            },
            repeat_short: false,
            clock: Clock::ThreadCpu,
            budget,
            limits,
        };
        if let Some(clock) = &self.clock {
            return clock
                .measure(config.game, &config.engine, input, &plan)
                .map_err(|message| match self.time_left() {
                    // Stopped or cut by the deadline: a halt, not the program's fault.
                    Err(halt) => Measure::Halt(halt),
                    Ok(_) => Measure::from(failed(message)),
                });
        }
        let executor = config.engine.executor();
        let run = if executor.per_case() {
            // On a thread of its own, left behind at the deadline or a signal.
            let halt = || self.time_left().map_err(Measure::Halt);
            let text = &input.text;
            let (game, reading) = (config.game, &input.reading);
            detached::run_cases(game, reading, &config.engine, text, 1, &plan, halt)?.swap_remove(0)
        } else {
            executor.run_file(&job, &plan).swap_remove(0)
        };
        let samples = match (run.result, config.metric) {
            (Err(Fault::Stopped(_)), _) => return Err(Measure::Halt(Halt::Stopped)),
            (Err(Fault::Timeout(_)), _) if cut_short => {
                return Err(Measure::Halt(Halt::OutOfTime));
            }
            // A search cut by the deadline measured nothing.
            (Ok(answer), _) if answer.verdict == Verdict::Budget && left.is_some() => {
                self.time_left().map_err(Measure::Halt)?;
                match config.metric {
                    Metric::Work => answer.work.into_iter().collect(),
                    Metric::Time => run.times,
                }
            }
            (Ok(answer), Metric::Work) => answer.work.into_iter().collect(),
            // A program is timed whatever it printed.
            (Ok(_) | Err(Fault::NoOutput), Metric::Time) => run.times,
            (Err(fault), _) => return Err(failed(fault.to_string()).into()),
        };
        // The fastest run: load from other processes only ever adds time.
        Ok(samples.into_iter().min().unwrap_or(0))
    }
}

/// A program hunted for its time: its start-up calibrated on the smallest case it starts
/// from ([`ProgramClock`]); `None` for an internal engine or the `work` metric.
pub(super) fn calibrate(
    config: &Config<'_>,
    first: &[Input],
    deadline: Option<Instant>,
) -> Result<Option<ProgramClock>, HuntError> {
    if !(config.engine.is_program() && config.metric == Metric::Time) {
        return Ok(None);
    }
    let Some(trivial) = first.iter().min_by_key(|i| i.size(config.game)) else {
        return Ok(None);
    };
    // Under the deadline like every run of the hunt.
    let mut limits = config.limits.clone();
    if let Some(d) = deadline {
        limits.timeout = limits
            .timeout
            .min(d.saturating_duration_since(Instant::now()));
    }
    let plan = Plan {
        warmup: 0,
        runs: 1,
        repeat_short: false,
        clock: Clock::ThreadCpu,
        budget: config.budget.clone(),
        limits,
    };
    ProgramClock::calibrate(config.game, &config.engine, trivial, &plan)
        .map(Some)
        .map_err(|message| HuntError::Engine {
            engine: config.engine.name().to_string(),
            message: format!("calibrating its start-up: {message}"),
        })
}
