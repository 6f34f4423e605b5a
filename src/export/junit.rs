//! JUnit XML, as CI systems read it (Jenkins, GitLab, cargo-nextest's output): a
//! `<testsuites>` of `<testsuite>`s of `<testcase>`s, a failed test case carrying a
//! `<failure>` (the solution's fault: a wrong answer, a time limit) or an `<error>` (the test
//! could not be judged) with the verdict as its `type` and the reason as its `message`.
//!
//! [`JunitSink`] collects `run`'s rows (one test case per file x case x engine, its runs
//! folded into the worst status; a program's run on a whole file shared evenly by its cases,
//! so that a suite's time is its runs' time); `invoke` builds its suites itself.
//!
//! Invariants: text and attributes are escaped ([`escape_attribute`]: the five XML entities, and the
//! characters XML 1.0 forbids replaced by U+FFFD), so any message makes a well-formed document;
//! each suite's counts are those of its cases.

use crate::util::markup::escape_attribute;
use std::path::PathBuf;

use crate::results::{Row, Timing};
use crate::runner::{FileResults, Sink, SinkError};
use crate::status::Status;
use crate::util::atomic::write_atomic;

/// What happened to one test case.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Passed,
    /// The code under test failed: `kind` (a verdict) and why.
    Failure {
        kind: String,
        message: String,
    },
    /// The test could not be run or judged.
    Error {
        kind: String,
        message: String,
    },
}

/// One test case.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub name: String,
    pub classname: String,
    /// Seconds.
    pub time_s: f64,
    pub outcome: Outcome,
    /// `<property name value>`s of the test case (`invoke`: its verdict), in order.
    pub properties: Vec<(String, String)>,
}

/// One suite of test cases.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Suite {
    pub name: String,
    pub cases: Vec<Case>,
}

/// The document of `suites`, named `name`.
pub fn render(name: &str, suites: &[Suite]) -> String {
    let count = |suite: &Suite, f: fn(&Outcome) -> bool| {
        suite.cases.iter().filter(|c| f(&c.outcome)).count()
    };
    let is_failure = |o: &Outcome| matches!(o, Outcome::Failure { .. });
    let is_error = |o: &Outcome| matches!(o, Outcome::Error { .. });
    let time = |suite: &Suite| suite.cases.iter().map(|c| c.time_s).sum::<f64>();
    let total = |f: &dyn Fn(&Suite) -> usize| suites.iter().map(f).sum::<usize>();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&format!(
        "<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{:.6}\">\n",
        escape_attribute(name),
        total(&|s| s.cases.len()),
        total(&|s| count(s, is_failure)),
        total(&|s| count(s, is_error)),
        suites.iter().map(time).sum::<f64>()
    ));
    for suite in suites {
        out.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\" time=\"{:.6}\">\n",
            escape_attribute(&suite.name),
            suite.cases.len(),
            count(suite, is_failure),
            count(suite, is_error),
            time(suite)
        ));
        for case in &suite.cases {
            out.push_str(&format!(
                "    <testcase name=\"{}\" classname=\"{}\" time=\"{:.6}\"",
                escape_attribute(&case.name),
                escape_attribute(&case.classname),
                case.time_s
            ));
            if case.outcome == Outcome::Passed && case.properties.is_empty() {
                out.push_str("/>\n");
                continue;
            }
            out.push_str(">\n");
            if !case.properties.is_empty() {
                out.push_str("      <properties>\n");
                for (name, value) in &case.properties {
                    out.push_str(&format!(
                        "        <property name=\"{}\" value=\"{}\"/>\n",
                        escape_attribute(name),
                        escape_attribute(value)
                    ));
                }
                out.push_str("      </properties>\n");
            }
            if let Outcome::Failure { kind, message } | Outcome::Error { kind, message } =
                &case.outcome
            {
                let element = if is_error(&case.outcome) {
                    "error"
                } else {
                    "failure"
                };
                out.push_str(&format!(
                    "      <{element} type=\"{}\" message=\"{}\">{}</{element}>\n",
                    escape_attribute(kind),
                    escape_attribute(message),
                    escape_attribute(message)
                ));
            }
            out.push_str("    </testcase>\n");
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// Seconds in a nanosecond count.
const NS_PER_S: f64 = 1e9;

/// `run --junit FILE`: one test case per file x case x engine (a suite per game and engine),
/// written when the run is over.
pub struct JunitSink {
    path: PathBuf,
    /// Per (game, engine) in first-seen order, its cases.
    suites: Vec<Suite>,
}

impl JunitSink {
    pub fn new(path: PathBuf) -> JunitSink {
        JunitSink {
            path,
            suites: Vec::new(),
        }
    }

    /// The test case of one case's rows for one engine (its runs: the worst status, the
    /// median-free first time, the first message). `shared`: how many cases of the file shared
    /// the first row's run when it timed the whole file ([`Timing::File`]): the case's time is
    /// its even share, so that a suite's time is the time its runs took.
    fn case(rows: &[&Row], shared: usize) -> Case {
        let first = rows[0];
        let status = rows
            .iter()
            .map(|r| r.status)
            .fold(Status::Ok, Status::worst);
        let worst = rows
            .iter()
            .find(|r| r.status == status)
            .copied()
            .unwrap_or(first);
        let kind = match worst.verdict {
            Some(v) => format!("{} ({v})", status.as_str()),
            None => status.as_str().to_string(),
        };
        let message = worst.message.clone();
        let outcome = match status {
            Status::Ok | Status::Unchecked => Outcome::Passed,
            Status::Error => Outcome::Error { kind, message },
            _ => Outcome::Failure { kind, message },
        };
        Case {
            name: format!("{}#{}", first.file, first.case),
            classname: format!("gamebench.{}.{}", first.game, first.engine),
            time_s: first.time_ns.map_or(0.0, |t| {
                let share = if first.timing == Timing::File {
                    shared.max(1)
                } else {
                    1
                };
                t as f64 / NS_PER_S / share as f64
            }),
            outcome,
            properties: Vec::new(),
        }
    }
}

impl Sink for JunitSink {
    fn file(&mut self, results: &FileResults<'_>) -> Result<(), SinkError> {
        // Rows come in (case, engine, run) order: group consecutive rows of a (case, engine).
        let mut start = 0;
        let rows = results.rows;
        let mut groups: Vec<Vec<&Row>> = Vec::new();
        while start < rows.len() {
            let key = |r: &Row| (r.case, r.engine.clone());
            let end = rows[start..]
                .iter()
                .position(|r| key(r) != key(&rows[start]))
                .map_or(rows.len(), |n| start + n);
            groups.push(rows[start..end].iter().collect());
            start = end;
        }
        // A program run once on the whole file: its time is on every case's row.
        let shared = |engine: &str| {
            groups
                .iter()
                .filter(|g| g[0].engine == engine && g[0].timing == Timing::File)
                .count()
        };
        for group in &groups {
            let suite_name = format!("{}/{}", group[0].game, group[0].engine);
            let case = JunitSink::case(group, shared(&group[0].engine));
            match self.suites.iter_mut().find(|s| s.name == suite_name) {
                Some(suite) => suite.cases.push(case),
                None => self.suites.push(Suite {
                    name: suite_name,
                    cases: vec![case],
                }),
            }
        }
        Ok(())
    }

    fn finish(&mut self, _complete: bool) -> Result<(), SinkError> {
        let text = render("gamebench run", &self.suites);
        let fail = |e| SinkError::new("cannot write the JUnit XML", &self.path, e);
        if crate::util::atomic::is_stdout(&self.path) {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes()).map_err(fail)?;
            out.flush().map_err(fail)
        } else {
            write_atomic(&self.path, text.as_bytes()).map_err(fail)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_those_of_the_cases() {
        let case = |outcome| Case {
            name: "t".into(),
            classname: "c".into(),
            time_s: 0.5,
            outcome,
            properties: Vec::new(),
        };
        let suites = [Suite {
            name: "s".into(),
            cases: vec![
                case(Outcome::Passed),
                case(Outcome::Failure {
                    kind: "wrong-answer".into(),
                    message: "x".into(),
                }),
                case(Outcome::Error {
                    kind: "error".into(),
                    message: "y".into(),
                }),
            ],
        }];
        let xml = render("n", &suites);
        assert!(
            xml.contains(
                "<testsuite name=\"s\" tests=\"3\" failures=\"1\" errors=\"1\" skipped=\"0\" time=\"1.500000\">"
            ),
            "{xml}"
        );
        assert!(xml.contains("<failure type=\"wrong-answer\" message=\"x\">x</failure>"));
        assert!(xml.contains("<error type=\"error\" message=\"y\">y</error>"));
    }
}
