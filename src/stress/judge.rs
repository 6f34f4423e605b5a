//! Judging inputs with the two engines of a stress run: each engine through its executor, each
//! case's failure classified ([`Failure`]: a fault of one engine, or the output the game's
//! checker rejects against the other's, both ways).
//!
//! Every run is bounded by the command's deadline: a program's wall-time limit is cut to the
//! time left (a program killed only because the deadline came is out of time, not a timeout),
//! an internal engine's search budget too, and internal engines are stopped between cases. A
//! signal (the executor's stop flag) ends the judging the same way.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::detached;
use super::failure::{Class, Failure, Fault, Kind};
use super::{Config, StressError};
use crate::engines::{self, FileJob, Limits, Plan};
use crate::external;
use crate::game::{AnyCase, Budget, Game};
use crate::results::Timing;
use crate::runner::EngineSpec;
use crate::shrink::Input;
use crate::status::Presentation;

/// Both engines' results on an input, and each case's failure.
pub struct Judged {
    /// Per engine, per case: the output block or the fault.
    pub outputs: [Vec<Result<String, Fault>>; 2],
    pub failures: Vec<Option<Failure>>,
    /// Whether a program failed on the whole file (then every case carries its fault, and a
    /// batch says nothing about single candidates).
    pub whole_file_fault: bool,
    /// The wall time each engine took on the whole input.
    pub elapsed: [Duration; 2],
}

impl Judged {
    /// The first failing case: its position and failure.
    pub fn first_failure(&self) -> Option<(usize, &Failure)> {
        self.failures
            .iter()
            .enumerate()
            .find_map(|(i, f)| f.as_ref().map(|f| (i, f)))
    }
}

/// Judges inputs with the two engines of a [`Config`].
#[derive(Clone)]
pub struct Judge<'a> {
    pub(super) game: &'static dyn Game,
    engines: &'a [EngineSpec; 2],
    limits: Limits,
    budget: Budget,
    /// When the command must end (`--time`), if it has a time budget.
    pub(super) deadline: Option<Instant>,
    /// Whether a presentation error counts as a difference (`--presentation`).
    presentation: Presentation,
}

/// Whether SIGINT or SIGTERM asked the command to stop.
pub(super) fn stop_requested() -> bool {
    external::stop_flag().load(Ordering::Relaxed)
}

impl<'a> Judge<'a> {
    pub fn new(config: &'a Config<'_>, deadline: Option<Instant>) -> Judge<'a> {
        Judge {
            game: config.game,
            engines: &config.engines,
            limits: config.limits.clone(),
            budget: config.budget.clone(),
            deadline,
            presentation: config.presentation,
        }
    }

    /// The wall-time limit of one program run: `--timeout`.
    pub(super) fn timeout(&self) -> Duration {
        self.limits.timeout
    }

    /// The time left before the deadline (`None`: no deadline); `Err` once it has passed or a
    /// signal asked to stop.
    pub(super) fn time_left(&self) -> Result<Option<Duration>, StressError> {
        if stop_requested() {
            return Err(StressError::Stopped);
        }
        match self.deadline {
            None => Ok(None),
            Some(d) => match d.checked_duration_since(Instant::now()) {
                Some(left) if !left.is_zero() => Ok(Some(left)),
                _ => Err(StressError::OutOfTime),
            },
        }
    }

    /// One engine on every case of `input` (a program once, on the whole file, under `timeout`
    /// cut to the time left); `Err` when a program cannot start at all, the deadline comes or
    /// a signal stops the run. The flag says a program failed on the whole file.
    fn run(
        &self,
        engine: &EngineSpec,
        input: &Input,
        timeout: Duration,
    ) -> Result<(Vec<Result<String, Fault>>, bool), StressError> {
        let job = FileJob {
            game: self.game,
            bytes: input.text.as_bytes(),
            cases: &input.cases,
            first: 0,
        };
        let left = self.time_left()?;
        let mut limits = self.limits.clone();
        let mut budget = self.budget.clone();
        if let Some(left) = left {
            limits.timeout = timeout.min(left);
            budget.time_limit = Some(budget.time_limit.map_or(left, |t| t.min(left)));
        } else {
            limits.timeout = timeout;
        }
        let cut_short = limits.timeout < timeout;
        let plan = Plan::once(budget, limits);
        let executor = engine.executor();
        let runs = if executor.per_case() {
            // On a thread of its own, left behind at the deadline or a signal.
            let halt = || self.time_left();
            detached::run_cases(
                self.game,
                &input.reading,
                engine,
                &input.text,
                input.cases.len(),
                &plan,
                halt,
            )?
        } else {
            executor.run_file(&job, &plan)
        };
        let mut whole_file = false;
        let mut outputs = Vec::with_capacity(input.cases.len());
        for run in runs {
            outputs.push(match run.result {
                Ok(answer) => {
                    if answer.verdict == crate::game::Verdict::Budget && left.is_some() {
                        // A search cut by the deadline says nothing about the engine.
                        self.time_left()?;
                    }
                    Ok(answer.output)
                }
                // A case the program printed nothing for gets an empty block: the checker
                // then rejects it as a wrong answer (of class `Empty`).
                Err(engines::Fault::NoOutput) => Ok(String::new()),
                Err(engines::Fault::CannotStart(source)) => {
                    return Err(StressError::CannotStart {
                        engine: engine.name().to_string(),
                        source,
                    });
                }
                Err(engines::Fault::Stopped(_)) => return Err(StressError::Stopped),
                Err(engines::Fault::Timeout(_)) if cut_short => {
                    return Err(StressError::OutOfTime);
                }
                Err(fault) => {
                    whole_file |= run.timing == Timing::File;
                    let kind = Kind::of_fault(&fault).unwrap_or(Kind::Crash);
                    Err(Fault {
                        kind,
                        message: fault.to_string(),
                    })
                }
            });
        }
        Ok((outputs, whole_file))
    }

    /// Whether one of the engines is an external program.
    pub fn has_program(&self) -> bool {
        self.engines.iter().any(EngineSpec::is_program)
    }

    /// [`Judge::judge`] of each input, on one thread each.
    pub fn judge_all(&self, inputs: &[Input]) -> Vec<Result<Judged, StressError>> {
        if inputs.len() == 1 {
            return vec![self.judge(&inputs[0])];
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> = inputs
                .iter()
                .map(|input| scope.spawn(move || self.judge(input)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a judging thread does not panic"))
                .collect()
        })
    }

    /// Both engines on `input` under `--timeout`, and each case's failure.
    pub fn judge(&self, input: &Input) -> Result<Judged, StressError> {
        self.judge_within(input, self.limits.timeout)
    }

    /// Both engines on `input`, a program's run under `timeout`, and each case's failure.
    pub(super) fn judge_within(
        &self,
        input: &Input,
        timeout: Duration,
    ) -> Result<Judged, StressError> {
        let start = Instant::now();
        let (a, whole_a) = self.run(&self.engines[0], input, timeout)?;
        let middle = Instant::now();
        let (b, whole_b) = self.run(&self.engines[1], input, timeout)?;
        let elapsed = [middle - start, middle.elapsed()];
        let failures = input
            .cases
            .iter()
            .enumerate()
            .map(|(i, parsed)| {
                let case = parsed.case.as_ref().ok()?.as_ref();
                self.compare(case, &a[i], &b[i])
            })
            .collect();
        Ok(Judged {
            outputs: [a, b],
            failures,
            whole_file_fault: whole_a || whole_b,
            elapsed,
        })
    }

    /// The failure of one case, if any: a fault of an engine (the first engine's first), else
    /// the second engine's output judged against the first's, else the other way round (a
    /// replaying checker (Vexed) accepts any minimum solution, so each output must pass
    /// against the other).
    fn compare<'s>(
        &self,
        case: &AnyCase,
        a: &'s Result<String, Fault>,
        b: &'s Result<String, Fault>,
    ) -> Option<Failure> {
        let (a, b) = match (a, b) {
            (Err(fault), _) | (_, Err(fault)) => {
                let engine = usize::from(a.is_ok());
                return Some(Failure {
                    class: Class {
                        engine,
                        kind: fault.kind,
                    },
                    message: fault.message.clone(),
                });
            }
            (Ok(a), Ok(b)) => (a, b),
        };
        // Both ways: a checker that replays (Vexed) accepts any minimum solution, so each
        // output must pass against the other. `--presentation accept` forgives a presentation
        // error: the two outputs are then the same answer, and the other way adds nothing (the
        // forgiven output, taken as the expected one, would not be well-formed).
        let game = self.game;
        let presentation = self.presentation;
        let rejected = |engine: usize, expected: &'s str, actual: &'s str| {
            game.judge_output(case, expected, actual)
                .err()
                .map(|r| (engine, r, expected, actual))
        };
        let forward = rejected(1, a, b);
        if forward
            .as_ref()
            .is_some_and(|(_, r, _, _)| !presentation.rejects(r.verdict))
        {
            return None;
        }
        let rejected = |engine: usize, expected: &'s str, actual: &'s str| {
            rejected(engine, expected, actual)
                .filter(|(_, r, _, _)| presentation.rejects(r.verdict))
        };
        // The first engine's output is no answer at all: the second is not to blame.
        let first_malformed = forward
            .as_ref()
            .is_some_and(|(_, r, _, _)| r.verdict == crate::status::CheckVerdict::CheckerFailure);
        let (engine, why, expected, actual) = match forward {
            Some(found) if !first_malformed => found,
            _ => match rejected(0, b, a) {
                Some(found) => found,
                None => {
                    let (_, why, expected, actual) = forward?;
                    (0, why, expected, actual)
                }
            },
        };
        Some(Failure {
            class: Class {
                engine,
                kind: Kind::of_verdict(why.verdict, expected, actual),
            },
            message: why.message,
        })
    }

    /// Whether `input` fails like `target`, a program's run under `timeout`.
    pub(super) fn fails_like(
        &self,
        input: &Input,
        target: &Failure,
        timeout: Duration,
    ) -> Result<bool, StressError> {
        Ok(self
            .judge_within(input, timeout)?
            .failures
            .iter()
            .flatten()
            .any(|f| f.same_kind(target)))
    }
}
