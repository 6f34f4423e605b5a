//! What one slot (a case for one engine) got: [`Done`], built from the executor's
//! [`CaseRun`] ([`Done::of_run`]) or from why the slot could not run ([`Done::failed`]); the
//! verdicts (`verdict.rs`) then amend its status and message, and `rows.rs` turns it into rows.
//!
//! Invariants: a failed slot has no times and timing `case`; a message names the file and the
//! case; the output is kept only while something still needs it (a comparison, `--out-dir`).

use crate::corpus::CaseFile;
use crate::engines::judge::status_of;
use crate::engines::{CaseRun, Fault, RunTimes};
use crate::external::{ExternalError, TimeLimit, Usage};
use crate::results::{Status, Timing};
use crate::status::{CheckVerdict, RowVerdict};
use crate::util::digest::hash;

/// What a slot got.
#[derive(Clone)]
pub(super) struct Done {
    pub status: Status,
    pub times: RunTimes,
    pub timing: Timing,
    /// Calls per timed batch (`case-repeated`), else 1.
    pub repeats: u32,
    /// External programs: what each timed run used.
    pub usage: Vec<Usage>,
    pub work: Option<u64>,
    pub score: Option<u64>,
    /// Kept only when needed (another engine to compare with, or outputs kept).
    pub output: Option<String>,
    /// The output's digest (written as hex digits only where a row or a CSV line needs it).
    pub digest: Option<u64>,
    pub message: String,
    /// Whether the output was compared with anything (the expected output or another
    /// engine's); an `ok` compared with nothing becomes `unchecked`.
    pub compared: bool,
    /// The checker's verdict when it rejected the output.
    pub verdict: Option<CheckVerdict>,
    /// The time limit a `timeout` passed (`cpu`, `wall`), for the `verdict` column.
    pub limit: Option<RowVerdict>,
    /// Not run: the run was stopped before this slot started.
    pub dropped: bool,
}

impl Default for Done {
    /// An `error` without a message, times or output.
    fn default() -> Self {
        Done {
            status: Status::Error,
            times: RunTimes::new(),
            timing: Timing::Case,
            repeats: 1,
            usage: Vec::new(),
            work: None,
            score: None,
            output: None,
            digest: None,
            message: String::new(),
            compared: false,
            verdict: None,
            limit: None,
            dropped: false,
        }
    }
}

impl Done {
    /// Adds `line` to the message, after what is already said (`; ` between them).
    pub fn tell(&mut self, line: String) {
        self.message = if self.message.is_empty() {
            line
        } else {
            format!("{}; {line}", self.message)
        };
    }

    /// A slot the run was stopped before.
    pub fn dropped() -> Done {
        Done {
            dropped: true,
            ..Done::default()
        }
    }

    /// An `error`: case `index` (1-based) of `file` could not be run, and why.
    pub fn failed(file: &CaseFile, index: usize, message: impl std::fmt::Display) -> Done {
        Done {
            message: format!("{}: case {index}: {message}", file.display()),
            ..Done::default()
        }
    }

    /// What case `index` (1-based) of `file` got from its executor: the answer's status
    /// (`ok` for a program's output until a comparison says otherwise), or its fault, as a
    /// judge says it: a program killed at a time limit is `timeout` (verdict `cpu` or `wall`),
    /// over its memory or output limit `memory-limit` or `output-limit`, crashed or exited
    /// non-zero `runtime-error`; one that printed no block for the case a wrong answer
    /// (`mismatch`, times kept); a slot the run was stopped in is dropped; anything else (a
    /// bad case, a program that cannot start) `error`. A program that ran keeps its usage.
    pub fn of_run(file: &CaseFile, index: usize, run: CaseRun) -> Done {
        let CaseRun {
            result,
            times,
            timing,
            repeats,
            usage,
        } = run;
        match result {
            Ok(answer) => Done {
                status: status_of(answer.verdict),
                times,
                timing,
                repeats,
                usage,
                work: answer.work,
                score: answer.score,
                digest: Some(hash(answer.output.as_bytes())),
                output: Some(answer.output),
                // A search the budget stopped may still have proven something: say it.
                message: answer.at_least.map_or(String::new(), |least| {
                    format!("the search had proven a score of at least {least}")
                }),
                ..Done::default()
            },
            Err(Fault::NoOutput) => Done {
                status: CheckVerdict::WrongAnswer.status(),
                times,
                timing,
                usage,
                verdict: Some(CheckVerdict::WrongAnswer),
                ..Done::failed(file, index, Fault::NoOutput)
            },
            Err(Fault::Stopped(_)) => Done::dropped(),
            Err(fault) => {
                let (status, limit) = match &fault {
                    Fault::Timeout(ExternalError::Timeout { limit, .. }) => (
                        Status::Timeout,
                        Some(match limit {
                            TimeLimit::Cpu => RowVerdict::Cpu,
                            TimeLimit::Wall => RowVerdict::Wall,
                        }),
                    ),
                    Fault::Timeout(_) => (Status::Timeout, None),
                    Fault::MemoryLimit(_) => (Status::MemoryLimit, None),
                    Fault::OutputLimit(_) => (Status::OutputLimit, None),
                    Fault::Failed(_) => (Status::RuntimeError, None),
                    _ => (Status::Error, None),
                };
                Done {
                    status,
                    limit,
                    usage,
                    ..Done::failed(file, index, fault)
                }
            }
        }
    }
}
