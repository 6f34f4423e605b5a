//! Judging inputs with the two engines of a stress run: each engine through its executor, each
//! case's failure (a fault of one engine, or outputs the game's checker rejects one against the
//! other, both ways).

use super::{Config, StressError};
use crate::engines::{self, FileJob, Limits, Plan};
use crate::game::{AnyCase, Budget, Game};
use crate::results::Timing;
use crate::runner::EngineSpec;
use crate::shrink::Input;
use crate::status::{Presentation, Rejected};

/// What went wrong for one engine on one case (or on its whole file, for a program).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The engine reported an error, or the program failed.
    Error(String),
    /// The program ran past `--timeout`.
    Timeout(String),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Error(m) | Fault::Timeout(m) => f.write_str(m),
        }
    }
}

/// Why a case fails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The checker rejected one engine's output against the other's; the message names the
    /// first differing line.
    Differ(String),
    /// Engine `engine` (0 or 1) failed.
    Fault { engine: usize, fault: Fault },
}

impl Failure {
    /// Whether `other` is the same kind of failure: a difference, or the same fault (error or
    /// timeout) of the same engine. Shrinking keeps the kind.
    pub fn same_kind(&self, other: &Failure) -> bool {
        match (self, other) {
            (Failure::Differ(_), Failure::Differ(_)) => true,
            (
                Failure::Fault {
                    engine: a,
                    fault: fa,
                },
                Failure::Fault {
                    engine: b,
                    fault: fb,
                },
            ) => {
                a == b
                    && matches!(
                        (fa, fb),
                        (Fault::Error(_), Fault::Error(_)) | (Fault::Timeout(_), Fault::Timeout(_))
                    )
            }
            _ => false,
        }
    }

    /// One line: what failed.
    pub fn describe(&self, engines: &[EngineSpec; 2]) -> String {
        match self {
            Failure::Differ(why) => format!(
                "{} and {} differ: {why}",
                engines[0].name(),
                engines[1].name()
            ),
            Failure::Fault { engine, fault } => {
                let what = match fault {
                    Fault::Error(_) => "failed",
                    Fault::Timeout(_) => "timed out",
                };
                format!("{} {what}: {fault}", engines[*engine].name())
            }
        }
    }
}

/// Both engines' results on an input, and each case's failure.
pub struct Judged {
    /// Per engine, per case: the output block or the fault.
    pub outputs: [Vec<Result<String, Fault>>; 2],
    pub failures: Vec<Option<Failure>>,
    /// Whether a program failed on the whole file (then every case carries its fault, and a
    /// batch says nothing about single candidates).
    pub whole_file_fault: bool,
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
pub struct Judge<'a> {
    pub(super) game: &'static dyn Game,
    engines: &'a [EngineSpec; 2],
    limits: Limits,
    budget: Budget,
    presentation: Presentation,
}

impl<'a> Judge<'a> {
    pub fn new(config: &'a Config<'_>) -> Judge<'a> {
        Judge {
            game: config.game,
            engines: &config.engines,
            limits: config.limits.clone(),
            budget: config.budget,
            presentation: config.presentation,
        }
    }

    /// One engine on every case of `input` (a program once, on the whole file); `Err` only
    /// when a program cannot start at all. The flag says a program failed on the whole file.
    fn run(
        &self,
        engine: &EngineSpec,
        input: &Input,
    ) -> Result<(Vec<Result<String, Fault>>, bool), StressError> {
        let job = FileJob {
            game: self.game,
            bytes: input.text.as_bytes(),
            cases: &input.cases,
            first: 0,
        };
        let plan = Plan::once(self.budget, self.limits.clone());
        let mut whole_file = false;
        let mut outputs = Vec::with_capacity(input.cases.len());
        for run in engine.executor().run_file(&job, &plan) {
            outputs.push(match run.result {
                Ok(answer) => Ok(answer.output),
                // A case the program printed nothing for gets an empty block: the checker
                // then rejects it as a difference.
                Err(engines::Fault::NoOutput) => Ok(String::new()),
                Err(engines::Fault::CannotStart(source)) => {
                    return Err(StressError::CannotStart {
                        engine: engine.name().to_string(),
                        source,
                    });
                }
                Err(fault) => {
                    whole_file |= run.timing == Timing::File;
                    Err(match fault {
                        engines::Fault::Timeout(e) => Fault::Timeout(e.to_string()),
                        other => Fault::Error(other.to_string()),
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

    /// Both engines on `input`, and each case's failure.
    pub fn judge(&self, input: &Input) -> Result<Judged, StressError> {
        let (a, whole_a) = self.run(&self.engines[0], input)?;
        let (b, whole_b) = self.run(&self.engines[1], input)?;
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
        })
    }

    fn compare(
        &self,
        case: &AnyCase,
        a: &Result<String, Fault>,
        b: &Result<String, Fault>,
    ) -> Option<Failure> {
        let (a, b) = match (a, b) {
            (Err(fault), _) => {
                return Some(Failure::Fault {
                    engine: 0,
                    fault: fault.clone(),
                });
            }
            (_, Err(fault)) => {
                return Some(Failure::Fault {
                    engine: 1,
                    fault: fault.clone(),
                });
            }
            (Ok(a), Ok(b)) => (a, b),
        };
        // Both ways: a checker that replays (Vexed) accepts any minimum solution, so each
        // output must pass against the other. The message starts with the checker's verdict
        // (wrong answer or presentation error); `--presentation accept` forgives the latter,
        // and then the outputs are the same answer, so the other way adds nothing (and the
        // forgiven output, as an expected one, would not be well-formed).
        let describe = |why: Rejected, of: usize| {
            Failure::Differ(format!(
                "{}: {} against {}: {}",
                why.verdict,
                self.engines[of].name(),
                self.engines[1 - of].name(),
                why.message
            ))
        };
        match self.game.judge_output(case, a, b) {
            Err(why) if self.presentation.rejects(why.verdict) => return Some(describe(why, 1)),
            Err(_) => return None,
            Ok(()) => {}
        }
        self.presentation
            .apply(self.game.judge_output(case, b, a))
            .err()
            .map(|why| describe(why, 0))
    }

    /// Whether `input` fails like `target`.
    pub(super) fn fails_like(&self, input: &Input, target: &Failure) -> Result<bool, StressError> {
        Ok(self
            .judge(input)?
            .failures
            .iter()
            .flatten()
            .any(|f| f.same_kind(target)))
    }
}
