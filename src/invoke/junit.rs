//! `invoke --junit`: the invocation as JUnit XML, a suite per solution and a test case per
//! (test, solution). A test case fails when the solution's tag does not allow its verdict
//! (an untagged solution: any verdict but `ok`), and is an error when the test could not be
//! judged; so a wrong solution's expected wrong answers pass, and CI goes red exactly when
//! the invocation exits non-zero. A tagged solution has one more test case, `tag`, which fails
//! when its tag's verdict never came. Every test case carries its verdict (and the cell's
//! message) as properties, passed or not, and a failure's text names the verdict and the tag
//! it contradicts. A test case's time is the test's (its share of a whole file's run, on the
//! invocation's clock): a suite's time is the sum of its runs'.

use super::Invocation;
use super::tags::TagReport;
use super::verdict::CellVerdict;
use crate::export::junit::{Case, Outcome, Suite, render};

/// Seconds in a nanosecond count.
const NS_PER_S: f64 = 1e9;

/// The JUnit XML document of `inv`, with the tag check `tags`.
pub fn junit(inv: &Invocation, tags: &TagReport) -> String {
    let suites: Vec<Suite> = inv
        .solutions
        .iter()
        .enumerate()
        .map(|(s, solution)| {
            let classname = format!("gamebench.invoke.{}", solution.name);
            let mut cases: Vec<Case> = inv
                .column(s)
                .zip(&inv.tests)
                .map(|(cell, test)| {
                    let allowed = match solution.tag {
                        Some(tag) => tag.allows(cell.verdict),
                        None => cell.verdict == CellVerdict::Ok,
                    };
                    let kind = cell.verdict.as_str().to_string();
                    let why = if cell.message.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", cell.message)
                    };
                    let outcome = if cell.verdict == CellVerdict::Error {
                        Outcome::Error {
                            message: format!("{kind}{why}"),
                            kind,
                        }
                    } else if allowed {
                        Outcome::Passed
                    } else {
                        let message = match solution.tag {
                            Some(tag) => {
                                format!("got {kind}, which the tag {tag} does not allow{why}")
                            }
                            None => format!("got {kind}{why}"),
                        };
                        Outcome::Failure { kind, message }
                    };
                    // Every cell's verdict, so that a reader sees which tests a wrong
                    // solution fails even where its tag holds.
                    let mut properties = vec![("verdict".to_string(), cell.verdict.to_string())];
                    if !cell.message.is_empty() {
                        properties.push(("message".to_string(), cell.message.clone()));
                    }
                    Case {
                        name: test.name.clone(),
                        classname: classname.clone(),
                        // The test's own time (a share of a whole file's run), so that a
                        // suite's time is the time its runs took, not a file's per case.
                        time_s: cell.time_ns.map_or(0.0, |t| t as f64 / NS_PER_S),
                        outcome,
                        properties,
                    }
                })
                .collect();
            if let Some(tag) = solution.tag {
                let never = tags
                    .contradictions
                    .iter()
                    .find(|c| c.solution == solution.name && c.test.is_none());
                cases.push(Case {
                    name: format!("tag {tag}"),
                    classname,
                    time_s: 0.0,
                    properties: Vec::new(),
                    outcome: match never {
                        Some(c) => Outcome::Failure {
                            kind: format!("tag-{tag}"),
                            message: c.message.clone(),
                        },
                        None => Outcome::Passed,
                    },
                });
            }
            Suite {
                name: solution.name.clone(),
                cases,
            }
        })
        .collect();
    render(&format!("gamebench invoke {}", inv.game.name()), &suites)
}
