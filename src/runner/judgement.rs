//! How one slot (a case for one engine) is judged: its status, the checker's verdict, the time
//! limit a `timeout` passed and what is said about it. Every decision on those four is taken
//! here, by the methods of [`Judgement`]; `done.rs` builds one from what the executor gave,
//! `verdict.rs` asks it to weigh the comparisons, `rows.rs` reads it.
//!
//! Invariants:
//! - after the executor's answer, a status only ever gets worse ([`Status::worst`]);
//! - what the engine said first (a budget stop's proven bound) stays first in the message, each
//!   later line after `; `;
//! - a checker's reason is told once: a disagreement with the baseline engine for the reason the
//!   check against the expected output already gave adds no second line;
//! - an `ok` compared with nothing becomes `unchecked` when the case is settled, and only then.

use crate::engines::Fault;
use crate::engines::judge::status_of;
use crate::external::{ExternalError, TimeLimit};
use crate::game::Answer;
use crate::results::Status;
use crate::status::{CheckVerdict, Rejected, RowVerdict};

/// The judgement of one slot. Read through its accessors; changed only through its methods
/// (serialized whole in a journal's kept slots, `done::KeptSlot`).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(super) struct Judgement {
    status: Status,
    /// The checker's verdict when it rejected the output.
    verdict: Option<CheckVerdict>,
    /// The time limit a `timeout` passed (`cpu`, `wall`).
    limit: Option<RowVerdict>,
    message: String,
    /// The checkers' reasons already in the message.
    reasons: Vec<String>,
    /// Whether the output was compared with anything (the expected output or another
    /// engine's).
    compared: bool,
}

impl Default for Judgement {
    /// An `error` with nothing said.
    fn default() -> Self {
        Judgement::error(String::new())
    }
}

impl Judgement {
    /// An `error`, and why (a line naming the file and the case).
    pub fn error(message: String) -> Judgement {
        Judgement {
            status: Status::Error,
            verdict: None,
            limit: None,
            message,
            reasons: Vec::new(),
            compared: false,
        }
    }

    /// What an answer gives before any comparison: its verdict's status (`ok` for a program's
    /// output), and the bound a search the budget stopped had proven.
    pub fn of_answer(answer: &Answer) -> Judgement {
        Judgement {
            status: status_of(answer.verdict),
            message: answer.at_least.map_or(String::new(), |least| {
                format!("the search had proven a score of at least {least}")
            }),
            ..Judgement::default()
        }
    }

    /// A fault, as a judge says it: killed at a time limit `timeout` (with the limit), over
    /// its memory or output limit `memory-limit` or `output-limit`, crashed or exited non-zero
    /// `runtime-error`, no block printed for the case a wrong answer; anything else (a bad
    /// case, a program that cannot start) `error`. `line` names the file and the case.
    pub fn of_fault(fault: &Fault, line: String) -> Judgement {
        let (status, verdict, limit) = match fault {
            Fault::NoOutput => (
                CheckVerdict::WrongAnswer.status(),
                Some(CheckVerdict::WrongAnswer),
                None,
            ),
            Fault::Timeout(ExternalError::Timeout { limit, .. }) => (
                Status::Timeout,
                None,
                Some(match limit {
                    TimeLimit::Cpu => RowVerdict::Cpu,
                    TimeLimit::Wall => RowVerdict::Wall,
                }),
            ),
            Fault::Timeout(_) => (Status::Timeout, None, None),
            Fault::MemoryLimit(_) => (Status::MemoryLimit, None, None),
            Fault::OutputLimit(_) => (Status::OutputLimit, None, None),
            Fault::Failed(_) => (Status::RuntimeError, None, None),
            _ => (Status::Error, None, None),
        };
        Judgement {
            status,
            verdict,
            limit,
            ..Judgement::error(line)
        }
    }

    /// The check against the expected output: accepted, or rejected for a reason told in
    /// `line` (which names the file and the case).
    pub fn against_expected(&mut self, checked: Result<(), (Rejected, String)>) {
        self.compared = true;
        if let Err((rejected, line)) = checked {
            self.status = self.status.worst(rejected.verdict.status());
            self.verdict = Some(rejected.verdict);
            self.tell(line);
            self.reasons.push(rejected.message);
        }
    }

    /// The comparison with the baseline engine's output: agreeing, or disagreeing for a reason
    /// told in `line`. The baseline's output stands in for the expected one, so whatever the
    /// checker's verdict, a disagreement is a wrong answer; the checker's verdict goes to the
    /// verdict column unless the expected output already gave one.
    pub fn against_baseline(&mut self, compared: Result<(), (Rejected, String)>) {
        self.compared = true;
        if let Err((rejected, line)) = compared {
            self.verdict = self.verdict.or(Some(rejected.verdict));
            self.status = self.status.worst(CheckVerdict::WrongAnswer.status());
            if !self.reasons.contains(&rejected.message) {
                self.tell(line);
                self.reasons.push(rejected.message);
            }
        }
    }

    /// The baseline engine's own slot: its output was what others were compared with.
    pub fn served_as_baseline(&mut self) {
        self.compared = true;
    }

    /// The case is settled (every comparison made): an `ok` compared with nothing is
    /// `unchecked`.
    pub fn settle(&mut self) {
        if self.status == Status::Ok && !self.compared {
            self.status = Status::Unchecked;
        }
    }

    /// Adds a line to the message, after what is already said.
    pub fn tell(&mut self, line: String) {
        if self.message.is_empty() {
            self.message = line;
        } else {
            self.message.push_str("; ");
            self.message.push_str(&line);
        }
    }

    pub fn status(&self) -> Status {
        self.status
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    /// The CSV's `verdict` column: the checker's verdict, else the limit a `timeout` passed.
    pub fn verdict_column(&self) -> Option<RowVerdict> {
        self.verdict.map(Into::into).or(self.limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Verdict;

    fn ok() -> Judgement {
        Judgement::of_answer(&Answer::printed("1".into()))
    }

    fn rejected(verdict: CheckVerdict, reason: &str, line: &str) -> Result<(), (Rejected, String)> {
        Err((Rejected::new(verdict, reason), line.to_string()))
    }

    #[test]
    fn an_ok_compared_with_nothing_is_unchecked_and_one_compared_stays_ok() {
        let mut alone = ok();
        alone.settle();
        assert_eq!(alone.status(), Status::Unchecked);
        let mut checked = ok();
        checked.against_expected(Ok(()));
        checked.settle();
        assert_eq!(checked.status(), Status::Ok);
        let mut baseline = ok();
        baseline.served_as_baseline();
        baseline.settle();
        assert_eq!(baseline.status(), Status::Ok);
    }

    #[test]
    fn a_reason_the_expected_output_gave_is_not_told_again_by_the_baseline() {
        let mut j = ok();
        j.against_expected(rejected(
            CheckVerdict::WrongAnswer,
            "row 2",
            "f: case 1: wa: row 2",
        ));
        j.against_baseline(rejected(
            CheckVerdict::WrongAnswer,
            "row 2",
            "f: case 1: x disagrees with y: row 2",
        ));
        assert_eq!(j.message(), "f: case 1: wa: row 2");
        // Another reason is told.
        j.against_baseline(rejected(CheckVerdict::WrongAnswer, "row 3", "other: row 3"));
        assert_eq!(j.message(), "f: case 1: wa: row 2; other: row 3");
        assert_eq!(j.status(), Status::Mismatch);
    }

    #[test]
    fn a_disagreement_is_a_wrong_answer_whatever_the_checker_said() {
        let mut j = ok();
        j.against_baseline(rejected(CheckVerdict::PresentationError, "spaces", "l"));
        assert_eq!(j.status(), CheckVerdict::WrongAnswer.status());
        // The checker's verdict goes to the verdict column.
        assert_eq!(j.verdict_column(), Some(RowVerdict::PresentationError));
        // A status never gets better: a settled mismatch stays one.
        j.settle();
        assert_eq!(j.status(), CheckVerdict::WrongAnswer.status());
    }

    #[test]
    fn what_the_engine_said_first_stays_first() {
        let answer = Answer {
            output: String::new(),
            verdict: Verdict::Budget,
            work: Some(3),
            score: None,
            at_least: Some(7),
        };
        let mut j = Judgement::of_answer(&answer);
        assert_eq!(j.status(), Status::Budget);
        j.against_expected(rejected(CheckVerdict::WrongAnswer, "r", "then"));
        assert_eq!(
            j.message(),
            "the search had proven a score of at least 7; then"
        );
        // Budget is worse than mismatch or not: the worst of the two is kept.
        assert_eq!(
            j.status(),
            Status::Budget.worst(CheckVerdict::WrongAnswer.status())
        );
    }

    #[test]
    fn a_program_with_no_block_is_a_wrong_answer_with_its_verdict() {
        let j = Judgement::of_fault(&Fault::NoOutput, "f: case 2: no block".into());
        assert_eq!(j.status(), CheckVerdict::WrongAnswer.status());
        assert_eq!(j.verdict_column(), Some(RowVerdict::WrongAnswer));
        assert_eq!(j.message(), "f: case 2: no block");
    }
}
