//! What a stress failure is, classified so that shrinking keeps it: which engine failed, and
//! how (a crash, a timeout, a limit, a wrong answer, a presentation error); for a wrong answer
//! also where its first differing line sits ([`LineClass`]).
//!
//! Invariant: two failures are "the same failure" exactly when their [`Class`]es are equal; a
//! shrink candidate is accepted only when one of its cases fails with the original's class, so
//! a crash stays a crash of the same engine, and a wrong first line stays a wrong first line.

use crate::engines;
use crate::runner::EngineSpec;
use crate::status::CheckVerdict;

/// How an engine failed on a case, the engine aside.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The engine reported an error, or the program ended by a signal or a non-zero exit.
    Crash,
    /// The program ran past its wall-time (or CPU-time) limit.
    Timeout,
    /// The program went over its memory or output limit.
    Limit,
    /// The checker rejected the output as a wrong answer.
    WrongAnswer(LineClass),
    /// The output is right but for white space the format fixes.
    PresentationError,
}

/// Where the first line a wrong answer differs on sits, compared with the other engine's
/// output block for the same case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LineClass {
    /// The engine printed nothing for the case (a crash hidden by a wrapper looks so).
    Empty,
    /// The first line of the block differs.
    First,
    /// A later line differs, both blocks having it.
    Later,
    /// The block ends before the other one does.
    Missing,
    /// The block goes on after the other one ends.
    Extra,
    /// The lines are the same: the checker rejects the answer for what it means (a replaying
    /// checker: an illegal or longer solution written in the same lines).
    Same,
}

impl LineClass {
    /// The class of `actual`'s first difference from `expected`, line by line.
    pub fn of(expected: &str, actual: &str) -> LineClass {
        if actual.trim().is_empty() {
            return LineClass::Empty;
        }
        let mut exp = expected.lines();
        let mut act = actual.lines();
        let mut first = true;
        loop {
            match (exp.next(), act.next()) {
                (Some(e), Some(a)) if e == a => first = false,
                (Some(_), Some(_)) if first => return LineClass::First,
                (Some(_), Some(_)) => return LineClass::Later,
                (Some(_), None) => return LineClass::Missing,
                (None, Some(_)) => return LineClass::Extra,
                (None, None) => return LineClass::Same,
            }
        }
    }

    /// What the class adds to the checker's message: nothing where that message quotes the
    /// differing lines (a first or later line, lines missing or extra), so a difference is
    /// said once.
    fn describe(self) -> Option<&'static str> {
        match self {
            LineClass::Empty => Some("empty output"),
            LineClass::Same => Some("same lines, rejected by the checker"),
            LineClass::First | LineClass::Later | LineClass::Missing | LineClass::Extra => None,
        }
    }
}

impl Kind {
    /// The kind of an executor's fault (`None`: not a failure of the engine: no output is a
    /// wrong answer judged by the checker; a stop or a program that cannot start end the run).
    pub fn of_fault(fault: &engines::Fault) -> Option<Kind> {
        match fault {
            engines::Fault::Case(_) | engines::Fault::Failed(_) => Some(Kind::Crash),
            engines::Fault::Timeout(_) => Some(Kind::Timeout),
            engines::Fault::MemoryLimit(_) | engines::Fault::OutputLimit(_) => Some(Kind::Limit),
            engines::Fault::Stopped(_)
            | engines::Fault::CannotStart(_)
            | engines::Fault::NoOutput => None,
        }
    }

    /// The kind of a checker's rejection of `actual` against `expected`.
    pub fn of_verdict(verdict: CheckVerdict, expected: &str, actual: &str) -> Kind {
        match verdict {
            CheckVerdict::PresentationError => Kind::PresentationError,
            CheckVerdict::WrongAnswer | CheckVerdict::CheckerFailure => {
                Kind::WrongAnswer(LineClass::of(expected, actual))
            }
        }
    }

    /// The verdict's name: `crash`, `timeout`, `limit`, `wrong answer`, `presentation error`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Crash => "crash",
            Kind::Timeout => "timeout",
            Kind::Limit => "limit",
            Kind::WrongAnswer(_) => "wrong answer",
            Kind::PresentationError => "presentation error",
        }
    }
}

/// What a failure is: the engine (0 or 1) and how it failed. Shrinking keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Class {
    pub engine: usize,
    pub kind: Kind,
}

/// What went wrong for one engine on one case (or on its whole file, for a program): a crash,
/// a timeout or a limit, with the executor's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub kind: Kind,
    pub message: String,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Why a case fails: its class and the message that explains it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub class: Class,
    /// The fault's message, or the checker's reason for rejecting the output.
    pub message: String,
}

impl Failure {
    /// Whether `other` is the same failure: the same engine, failing the same way.
    pub fn same_kind(&self, other: &Failure) -> bool {
        self.class == other.class
    }

    /// Which engine failed and how, without why: the report's first line, the difference
    /// itself said once, on the shrunk input.
    pub fn headline(&self, engines: &[EngineSpec; 2]) -> String {
        let Class { engine, kind } = self.class;
        let name = engines[engine].name();
        let other = engines[1 - engine].name();
        match kind {
            Kind::Crash => format!("{name} crashed"),
            Kind::Timeout => format!("{name} timed out"),
            Kind::Limit => format!("{name} went over a limit"),
            Kind::WrongAnswer(_) => format!("{name}: wrong answer against {other}"),
            Kind::PresentationError => format!("{name}: presentation error against {other}"),
        }
    }

    /// One line: which engine failed, how, and why.
    pub fn describe(&self, engines: &[EngineSpec; 2]) -> String {
        let Class { engine, kind } = self.class;
        let name = engines[engine].name();
        let other = engines[1 - engine].name();
        match kind {
            Kind::Crash => format!("{name} crashed: {}", self.message),
            Kind::Timeout => format!("{name} timed out: {}", self.message),
            Kind::Limit => format!("{name} went over a limit: {}", self.message),
            Kind::WrongAnswer(line) => format!(
                "{name}: wrong answer{} against {other}: {}",
                line.describe().map_or(String::new(), |d| format!(" ({d})")),
                self.message
            ),
            Kind::PresentationError => format!(
                "{name}: presentation error against {other}: {}",
                self.message
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_classes_are_where_the_first_difference_is() {
        assert_eq!(LineClass::of("1\n2\n", ""), LineClass::Empty);
        assert_eq!(LineClass::of("1\n2\n", "\n"), LineClass::Empty);
        assert_eq!(LineClass::of("1\n2\n", "3\n2\n"), LineClass::First);
        assert_eq!(LineClass::of("1\n2\n", "1\n3\n"), LineClass::Later);
        assert_eq!(LineClass::of("1\n2\n", "1\n"), LineClass::Missing);
        assert_eq!(LineClass::of("1\n2\n", "1\n2\n3\n"), LineClass::Extra);
        assert_eq!(LineClass::of("1\n2\n", "1\n2\n"), LineClass::Same);
    }

    #[test]
    fn the_same_failure_is_the_same_engine_and_kind() {
        let failure = |engine, kind| Failure {
            class: Class { engine, kind },
            message: String::new(),
        };
        let crash = failure(1, Kind::Crash);
        assert!(crash.same_kind(&failure(1, Kind::Crash)));
        assert!(!crash.same_kind(&failure(0, Kind::Crash)));
        assert!(!crash.same_kind(&failure(1, Kind::WrongAnswer(LineClass::Empty))));
        let first = failure(1, Kind::WrongAnswer(LineClass::First));
        assert!(!first.same_kind(&failure(1, Kind::WrongAnswer(LineClass::Later))));
        assert!(!first.same_kind(&failure(1, Kind::PresentationError)));
    }
}
