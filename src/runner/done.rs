//! What one slot (a case for one engine) got: [`Done`], built from the executor's
//! [`CaseRun`] ([`Done::of_run`]) or from why the slot could not run ([`Done::failed`]); its
//! [`Judgement`] is then weighed by the comparisons (`verdict.rs`), and `rows.rs` turns it into
//! rows.
//!
//! Invariants: a failed slot has no times and timing `case`; a message names the file and the
//! case; the output is kept only while something still needs it (a comparison, `--out-dir`).

use super::judgement::Judgement;
use crate::corpus::CaseFile;
use crate::engines::{CaseRun, Fault, RunTimes};
use crate::external::Usage;
use crate::results::Timing;
use crate::util::digest::hash;

/// What a slot got.
#[derive(Clone)]
pub(super) struct Done {
    /// Its status, verdict and message: decided by the judgement's methods alone.
    pub judgement: Judgement,
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
    /// Not run: the run was stopped before this slot started.
    pub dropped: bool,
}

impl Default for Done {
    /// An `error` without a message, times or output.
    fn default() -> Self {
        Done {
            judgement: Judgement::default(),
            times: RunTimes::new(),
            timing: Timing::Case,
            repeats: 1,
            usage: Vec::new(),
            work: None,
            score: None,
            output: None,
            digest: None,
            dropped: false,
        }
    }
}

impl Done {
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
            judgement: Judgement::error(line(file, index, message)),
            ..Done::default()
        }
    }

    /// What case `index` (1-based) of `file` got from its executor: its answer or its fault
    /// judged ([`Judgement::of_answer`], [`Judgement::of_fault`]); a slot the run was stopped
    /// in is dropped. A program that ran keeps its times (a case it printed no block for
    /// too) and its usage.
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
                judgement: Judgement::of_answer(&answer),
                times,
                timing,
                repeats,
                usage,
                work: answer.work,
                score: answer.score,
                digest: Some(hash(answer.output.as_bytes())),
                output: Some(answer.output),
                ..Done::default()
            },
            Err(Fault::Stopped(_)) => Done::dropped(),
            Err(fault) => {
                let judgement = Judgement::of_fault(&fault, line(file, index, &fault));
                let ran = matches!(fault, Fault::NoOutput);
                Done {
                    judgement,
                    usage,
                    times: if ran { times } else { RunTimes::new() },
                    timing: if ran { timing } else { Timing::Case },
                    ..Done::default()
                }
            }
        }
    }
}

/// A line naming case `index` (1-based) of `file`, then `what`.
pub(super) fn line(file: &CaseFile, index: usize, what: impl std::fmt::Display) -> String {
    format!("{}: case {index}: {what}", file.display())
}
