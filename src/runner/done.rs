//! What one slot (a case for one engine) got: [`Done`], built from the executor's
//! [`CaseRun`] ([`Done::of_run`]) or from why the slot could not run ([`Done::failed`]); its
//! [`Judgement`] is then weighed by the comparisons (`verdict.rs`), and `rows.rs` turns it into
//! rows.
//!
//! A slot an earlier, interrupted attempt finished in a case it did not finish whole comes back
//! as a [`KeptSlot`] (its output and its judgement before any comparison, kept in the journal
//! beside its rows) and becomes a `Done` again ([`Done::resumed`]), so that a resumed run
//! judges the case whole, as an uninterrupted run judges it.
//!
//! Invariants: a failed slot has no times and timing `case`; a message names the file and the
//! case; the output is kept only while something still needs it (a comparison, `--out-dir`); a
//! resumed `Done` has its rows' times and measurements and its kept judgement, never checked
//! again against the expected output (its judgement holds that check).

use serde::{Deserialize, Serialize};

use super::judgement::Judgement;
use crate::corpus::CaseFile;
use crate::engines::{CaseRun, Fault, RunTimes};
use crate::external::Usage;
use crate::results::{Row, Timing};
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

/// A finished slot of a partial case (a case some of whose engines an interrupt stopped),
/// kept in the journal so that `--resume` judges the case whole: the output as the engine
/// printed it and the judgement before any comparison with another engine. Its times and
/// other measurements are its rows' (journaled beside it, not in it).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct KeptSlot {
    /// The file as written in rows.
    pub file: String,
    /// 1-based, as in rows.
    pub case: usize,
    pub engine: String,
    /// `None`: the slot printed no output (it failed).
    output: Option<String>,
    judgement: Judgement,
    /// The slot's rows (one per timed run, in order), taken from the journal when resuming.
    #[serde(skip)]
    pub rows: Vec<Row>,
}

impl KeptSlot {
    /// The slot `done` (not yet compared with another engine) of case `case` (1-based) of
    /// `file` (as written in rows) for `engine`, unless its output is longer than `cap`
    /// bytes: such a case is settled by digest when resumed.
    pub(super) fn of(
        (file, case, engine): (String, usize, &str),
        done: &Done,
        cap: u64,
    ) -> Option<KeptSlot> {
        let length = done.output.as_ref().map_or(0, String::len);
        if u64::try_from(length).unwrap_or(u64::MAX) > cap {
            return None;
        }
        Some(KeptSlot {
            file,
            case,
            engine: engine.to_string(),
            output: done.output.clone(),
            judgement: done.judgement.clone(),
            rows: Vec::new(),
        })
    }

    /// Whether its rows match its output: one row per run, the digest the output's (a journal
    /// damaged from outside, or rows kept from another source, are not used).
    pub fn consistent(&self) -> bool {
        let digest = self.output.as_ref().map_or(String::new(), |o| {
            crate::util::digest::hex(hash(o.as_bytes()))
        });
        !self.rows.is_empty() && self.rows.iter().all(|r| r.digest == digest)
    }
}

impl Done {
    /// The slot an earlier attempt finished and kept: its judgement and output as kept, its
    /// times, usage, work and score as its rows say.
    pub fn resumed(kept: &KeptSlot) -> Done {
        let first = kept.rows.first();
        let times: RunTimes = kept.rows.iter().filter_map(|r| r.time_ns).collect();
        let usage = kept
            .rows
            .iter()
            .filter_map(|r| {
                Some(Usage {
                    user_ns: r.user_ns?,
                    sys_ns: r.sys_ns?,
                    memory_kb: r.memory_kb,
                })
            })
            .collect();
        Done {
            judgement: kept.judgement.clone(),
            times,
            timing: first.map_or(Timing::Case, |r| r.timing),
            repeats: first.and_then(|r| r.repeats).unwrap_or(1),
            usage,
            work: first.and_then(|r| r.work),
            score: first.and_then(|r| r.score),
            digest: kept.output.as_ref().map(|o| hash(o.as_bytes())),
            output: kept.output.clone(),
            dropped: false,
        }
    }
}

/// A line naming case `index` (1-based) of `file`, then `what`.
pub(super) fn line(file: &CaseFile, index: usize, what: impl std::fmt::Display) -> String {
    format!("{}: case {index}: {what}", file.display())
}
