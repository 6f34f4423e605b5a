//! What happened to one case, how bad that is, what a checker says of an output
//! ([`CheckVerdict`]), and the process exit codes: the one place that decides them.
//!
//! Every command's exit code comes from here: a run's code is the code of its worst case
//! ([`Status::exit`] of [`Status::worst`]); commands that fail before judging anything exit
//! [`Exit::Error`]. The severity order is explicit ([`Status::severity`]), not a derived `Ord`,
//! and it agrees with the exit codes: a worse status never has a smaller exit code.

use serde::{Deserialize, Serialize};

/// The verdict on one case for one engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Solved, and the output was compared with something (the expected `.out` under
    /// `--check`, or the baseline engine's output) and accepted.
    Ok,
    /// Solved, but the output was compared with nothing (one engine, no `--check`): no verdict.
    /// Not a failure (exit code 0), but not `ok` either.
    Unchecked,
    /// The engine proved there is no answer.
    Unsolved,
    /// Rejected by the check against the expected output or the baseline engine.
    Mismatch,
    /// The engine's budget ran out.
    Budget,
    /// An external program passed a time limit (`--timeout`, `--case-timeout`: verdict
    /// `wall`; `--cpu-limit`: verdict `cpu`) and was killed.
    Timeout,
    /// An external program used more memory than `--memory-limit`.
    #[serde(rename = "memory-limit")]
    MemoryLimit,
    /// An external program wrote more than `--output-limit` and was killed.
    #[serde(rename = "output-limit")]
    OutputLimit,
    /// An external program crashed (a signal) or exited with a non-zero code; the message
    /// names the signal or the code.
    #[serde(rename = "runtime-error")]
    RuntimeError,
    /// The case could not be read or played (malformed input), or gamebench itself failed (a
    /// program that cannot start, a checker failure). The default: a row that says nothing
    /// else is an error.
    #[default]
    Error,
}

impl Status {
    /// Every status, from the least to the most severe.
    pub const ALL: [Status; 10] = [
        Status::Ok,
        Status::Unchecked,
        Status::Unsolved,
        Status::Mismatch,
        Status::Budget,
        Status::Timeout,
        Status::MemoryLimit,
        Status::OutputLimit,
        Status::RuntimeError,
        Status::Error,
    ];

    /// How bad a status is, 0 = fine. When one case earns two statuses (an engine stopped by
    /// its budget whose output then fails the check, a case that errors after a mismatch), it
    /// keeps the more severe one:
    /// - `error` is worst: nothing the engine produced can be trusted, and it is the only
    ///   status with exit code 2;
    /// - `runtime-error`: the program crashed or failed, so whatever it printed is incomplete;
    /// - `output-limit`, `memory-limit`, `timeout`: the program was stopped at a limit (a
    ///   runaway writer first, then memory, then time), so whatever it printed is incomplete;
    /// - `budget`: the engine gave no answer, so a failed check of its output is a
    ///   consequence of the stop, not a second finding;
    /// - `mismatch`: an answer that is wrong;
    /// - `unsolved`: a claim that no answer exists, which stands unless a check rejects it;
    /// - `unchecked`: an answer nobody looked at, which any finding replaces; not a failure.
    pub const fn severity(self) -> u8 {
        match self {
            Status::Ok => 0,
            Status::Unchecked => 1,
            Status::Unsolved => 2,
            Status::Mismatch => 3,
            Status::Budget => 4,
            Status::Timeout => 5,
            Status::MemoryLimit => 6,
            Status::OutputLimit => 7,
            Status::RuntimeError => 8,
            Status::Error => 9,
        }
    }

    /// The more severe of two statuses (see [`Status::severity`]).
    pub fn worst(self, other: Status) -> Status {
        if other.severity() > self.severity() {
            other
        } else {
            self
        }
    }

    /// The exit code a run whose worst case has this status ends with.
    pub const fn exit(self) -> Exit {
        match self {
            Status::Ok | Status::Unchecked => Exit::Ok,
            Status::Unsolved
            | Status::Mismatch
            | Status::Budget
            | Status::Timeout
            | Status::MemoryLimit
            | Status::OutputLimit
            | Status::RuntimeError => Exit::Failures,
            Status::Error => Exit::Error,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Mismatch => "mismatch",
            Status::Error => "error",
            Status::Unsolved => "unsolved",
            Status::Budget => "budget",
            Status::Unchecked => "unchecked",
            Status::Timeout => "timeout",
            Status::MemoryLimit => "memory-limit",
            Status::OutputLimit => "output-limit",
            Status::RuntimeError => "runtime-error",
        }
    }
}

/// Why an output is not accepted, as testlib's checkers say it (`Game::judge_output`).
/// Listed from the least to the most severe: over several cases the worst one decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CheckVerdict {
    /// The output differs from every accepted answer only in white space the format fixes
    /// (see [`Rules::presentation`]): trailing spaces, line endings, blank lines at the end.
    PresentationError,
    /// The output is wrong.
    WrongAnswer,
    /// The checker cannot judge: the expected output is missing or not a well-formed answer
    /// to the case (see [`Rules::well_formed`]).
    CheckerFailure,
}

impl CheckVerdict {
    /// The status of a case whose output got this verdict: a checker failure (no or a
    /// malformed expected output) is `error`, a wrong answer or presentation error `mismatch`.
    pub const fn status(self) -> Status {
        match self {
            CheckVerdict::CheckerFailure => Status::Error,
            CheckVerdict::WrongAnswer | CheckVerdict::PresentationError => Status::Mismatch,
        }
    }

    /// The exit code of `check` when this is the worst verdict of its cases (testlib-like).
    pub const fn exit(self) -> Exit {
        match self {
            CheckVerdict::PresentationError => Exit::PresentationError,
            CheckVerdict::WrongAnswer => Exit::Failures,
            CheckVerdict::CheckerFailure => Exit::CheckerFailure,
        }
    }

    /// The name in the CSV's `verdict` column and in messages.
    pub fn as_str(self) -> &'static str {
        match self {
            CheckVerdict::PresentationError => "presentation-error",
            CheckVerdict::WrongAnswer => "wrong-answer",
            CheckVerdict::CheckerFailure => "checker-failure",
        }
    }
}

impl std::fmt::Display for CheckVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a presentation error counts as (`--presentation`): rejected, as testlib's checkers
/// and the `check` command say by default, or accepted, as many judges do (a difference in
/// white space the format fixes is forgiven).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum Presentation {
    /// A presentation error is a rejection (`mismatch`, `check` exit 4).
    #[default]
    Reject,
    /// A presentation error counts as accepted.
    Accept,
}

impl Presentation {
    /// Whether a rejection with this verdict stands under this setting.
    pub const fn rejects(self, verdict: CheckVerdict) -> bool {
        !matches!(
            (self, verdict),
            (Presentation::Accept, CheckVerdict::PresentationError)
        )
    }

    /// A checker's result under this setting: a presentation error becomes `Ok` when accepted.
    pub fn apply(self, result: Result<(), Rejected>) -> Result<(), Rejected> {
        match result {
            Err(rejected) if !self.rejects(rejected.verdict) => Ok(()),
            other => other,
        }
    }

    /// The option's value (`reject`, `accept`).
    pub fn as_str(self) -> &'static str {
        match self {
            Presentation::Reject => "reject",
            Presentation::Accept => "accept",
        }
    }
}

/// The CSV's `verdict` column: a checker's verdict on a rejected output, or which time limit a
/// `timeout` passed (`cpu`, `wall`). Written by name, as [`CheckVerdict::as_str`] for the
/// checker's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RowVerdict {
    PresentationError,
    WrongAnswer,
    CheckerFailure,
    /// `timeout`: the CPU-time limit (`--cpu-limit`).
    Cpu,
    /// `timeout`: the wall-time limit (`--timeout`, `--case-timeout`).
    Wall,
}

impl RowVerdict {
    pub fn as_str(self) -> &'static str {
        match self {
            RowVerdict::PresentationError => "presentation-error",
            RowVerdict::WrongAnswer => "wrong-answer",
            RowVerdict::CheckerFailure => "checker-failure",
            RowVerdict::Cpu => "cpu",
            RowVerdict::Wall => "wall",
        }
    }

    /// The checker's verdict, when it is one.
    pub fn check(self) -> Option<CheckVerdict> {
        match self {
            RowVerdict::PresentationError => Some(CheckVerdict::PresentationError),
            RowVerdict::WrongAnswer => Some(CheckVerdict::WrongAnswer),
            RowVerdict::CheckerFailure => Some(CheckVerdict::CheckerFailure),
            RowVerdict::Cpu | RowVerdict::Wall => None,
        }
    }
}

impl From<CheckVerdict> for RowVerdict {
    fn from(v: CheckVerdict) -> RowVerdict {
        match v {
            CheckVerdict::PresentationError => RowVerdict::PresentationError,
            CheckVerdict::WrongAnswer => RowVerdict::WrongAnswer,
            CheckVerdict::CheckerFailure => RowVerdict::CheckerFailure,
        }
    }
}

impl std::fmt::Display for RowVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A rejected output: the verdict and the checker's reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{verdict}: {message}")]
pub struct Rejected {
    pub verdict: CheckVerdict,
    pub message: String,
}

impl Rejected {
    pub fn new(verdict: CheckVerdict, message: impl Into<String>) -> Self {
        Rejected {
            verdict,
            message: message.into(),
        }
    }
}

/// The process exit codes of every command.
///
/// | code | meaning |
/// |---|---|
/// | 0 | every case `ok` or `unchecked` (`validate`: every file valid; `check`: every output accepted) |
/// | 1 | some case `mismatch`, `unsolved`, `budget`, `timeout`, `memory-limit`, `output-limit` or `runtime-error`; `check`: a wrong answer |
/// | 2 | some case `error`, or a usage / I/O error |
/// | 3 | `validate`: some input breaks the statement's constraints; `merge`: shards incomplete |
/// | 4 | `check`: a presentation error (differs from an accepted answer in white space only) |
/// | 5 | `check`: checker failure (the expected output is missing, unreadable or malformed) |
/// | 6 | `compare`: slower beyond the noise (and no verdict got worse, which is 1) |
/// | 130, 143 | stopped by SIGINT, SIGTERM |
///
/// 1 and 4 follow testlib's wrong answer and presentation error in spirit; testlib's own
/// codes 2 and 3 were taken by gamebench's error and invalid-input meanings, hence 4 and 5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// Every case `ok` or `unchecked`.
    Ok,
    /// Some case is `mismatch`, `unsolved`, `budget`, `timeout`, `memory-limit`,
    /// `output-limit` or `runtime-error` (`check`: a wrong answer).
    Failures,
    /// Some case is `error`, or the command could not do its work (bad option, unreadable
    /// file, a program that cannot start).
    Error,
    /// `merge`: shards are missing or inconsistent.
    ShardsIncomplete,
    /// `validate`: some input breaks the statement's constraints.
    Invalid,
    /// `check`: some output differs from an accepted answer in white space only (and none is
    /// wrong).
    PresentationError,
    /// `check`: the checker cannot judge: the expected output is missing, unreadable or not
    /// a well-formed answer.
    CheckerFailure,
    /// `compare`: a case or an engine's total got slower beyond the noise.
    Slower,
    /// The run was stopped by SIGINT (Ctrl-C); finished results are kept.
    Interrupted,
    /// The run was stopped by SIGTERM; finished results are kept.
    Terminated,
    /// `check --exit-codes`: the code a judge's convention gives the verdict (testlib's,
    /// Kattis's; see `judge::ExitCodes`).
    Judge(u8),
}

impl Exit {
    /// The exit code of a set of case statuses: that of the worst one, 0 for none.
    pub fn of(statuses: impl IntoIterator<Item = Status>) -> Exit {
        statuses.into_iter().fold(Status::Ok, Status::worst).exit()
    }

    pub fn code(self) -> u8 {
        match self {
            Exit::Ok => 0,
            Exit::Failures => 1,
            Exit::Error => 2,
            Exit::ShardsIncomplete | Exit::Invalid => 3,
            Exit::PresentationError => 4,
            Exit::CheckerFailure => 5,
            Exit::Slower => 6,
            Exit::Interrupted => 130,
            Exit::Terminated => 143,
            Exit::Judge(code) => code,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn severity_is_a_strict_order_listed_in_all() {
        for pair in Status::ALL.windows(2) {
            assert!(pair[0].severity() < pair[1].severity(), "{pair:?}");
        }
    }

    #[test]
    fn the_worst_status_wins_whatever_the_order() {
        assert_eq!(Status::Budget.worst(Status::Error), Status::Error);
        assert_eq!(Status::Error.worst(Status::Budget), Status::Error);
        assert_eq!(Status::Budget.worst(Status::Mismatch), Status::Budget);
        assert_eq!(Status::Mismatch.worst(Status::Budget), Status::Budget);
        assert_eq!(Status::Unsolved.worst(Status::Mismatch), Status::Mismatch);
        assert_eq!(Status::Ok.worst(Status::Unsolved), Status::Unsolved);
        for s in Status::ALL {
            assert_eq!(s.worst(Status::Ok), s);
            assert_eq!(Status::Ok.worst(s), s);
        }
    }

    #[test]
    fn a_rejection_has_one_status_and_one_exit_code() {
        assert_eq!(CheckVerdict::WrongAnswer.status(), Status::Mismatch);
        assert_eq!(CheckVerdict::PresentationError.status(), Status::Mismatch);
        assert_eq!(CheckVerdict::CheckerFailure.status(), Status::Error);
        assert_eq!(CheckVerdict::WrongAnswer.exit(), Exit::Failures);
        assert_eq!(
            CheckVerdict::PresentationError.exit(),
            Exit::PresentationError
        );
        assert_eq!(CheckVerdict::CheckerFailure.exit(), Exit::CheckerFailure);
    }

    #[test]
    fn accepting_presentation_forgives_only_presentation_errors() {
        let pe = || {
            Err(Rejected::new(
                CheckVerdict::PresentationError,
                "line 1: trailing space",
            ))
        };
        let wa = || Err(Rejected::new(CheckVerdict::WrongAnswer, "line 1"));
        let cf = || Err(Rejected::new(CheckVerdict::CheckerFailure, "no expected"));
        assert_eq!(Presentation::Accept.apply(pe()), Ok(()));
        assert_eq!(Presentation::Accept.apply(wa()), wa());
        assert_eq!(Presentation::Accept.apply(cf()), cf());
        assert_eq!(Presentation::Reject.apply(pe()), pe());
        assert_eq!(Presentation::default(), Presentation::Reject);
    }

    #[test]
    fn severity_agrees_with_exit_codes() {
        for a in Status::ALL {
            for b in Status::ALL {
                if a.severity() < b.severity() {
                    assert!(a.exit() <= b.exit(), "{a:?} vs {b:?}");
                }
            }
        }
        assert_eq!(Exit::of([]), Exit::Ok);
        assert_eq!(Exit::of([Status::Ok, Status::Budget]), Exit::Failures);
        assert_eq!(Exit::of([Status::Budget, Status::Error]), Exit::Error);
        assert_eq!(Exit::of([Status::Error, Status::Budget]), Exit::Error);
        assert_eq!(Exit::Failures.code(), 1);
        assert_eq!(Exit::of([Status::Unchecked, Status::Ok]), Exit::Ok);
        assert_eq!(
            Exit::of([Status::Unchecked, Status::Timeout]),
            Exit::Failures
        );
        assert_eq!(Status::Unchecked.worst(Status::Mismatch), Status::Mismatch);
        for s in [
            Status::MemoryLimit,
            Status::OutputLimit,
            Status::RuntimeError,
        ] {
            assert_eq!(s.exit(), Exit::Failures);
            assert_eq!(s.worst(Status::Timeout), s);
            assert_eq!(s.worst(Status::Error), Status::Error);
        }
        assert_eq!(Exit::ShardsIncomplete.code(), 3);
        assert_eq!(Exit::Invalid.code(), 3);
        assert_eq!(Exit::PresentationError.code(), 4);
        assert_eq!(Exit::CheckerFailure.code(), 5);
        assert_eq!(Exit::Interrupted.code(), 130);
        assert_eq!(Exit::Terminated.code(), 143);
    }
}
