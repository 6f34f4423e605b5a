//! What a solution is supposed to get (its [`Tag`], as Polygon tags solutions) and the check of
//! its verdicts against it: a contradiction fails the invocation (exit 1), a correct solution
//! slower than half the time limit is a warning.
//!
//! Invariants: a tag allows `ok` and the verdicts it names (`failing`: any verdict but
//! `error`), and a failing tag requires at least one of its verdicts; `main` and `accepted`
//! allow `ok` alone. `error` (the test could not be judged) is allowed by no tag.

use serde::Serialize;

use super::verdict::CellVerdict;
use super::{Invocation, InvokeError, Solution};
use crate::util::units::human_time;

/// A solution's expected verdicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tag {
    /// The reference: correct, and the source of expected outputs a test has no `.out` for.
    Main,
    /// Correct: `ok` on every test.
    Accepted,
    WrongAnswer,
    /// Only white space wrong somewhere (the game's checker), never a wrong answer.
    PresentationError,
    TimeLimit,
    MemoryLimit,
    OutputLimit,
    RuntimeError,
    /// Correct but perhaps too slow (Polygon's "time-limit-exceeded-or-accepted"): `ok` or
    /// `timeout` on each test, nothing required.
    TimeLimitOrAccepted,
    /// Too slow or too big (Polygon's "time-limit-exceeded-or-memory-limit-exceeded"):
    /// `timeout` or `memory-limit` somewhere.
    TimeLimitOrMemoryLimit,
    /// Any verdict but `ok` on some test.
    Failing,
}

impl Tag {
    pub const ALL: [Tag; 11] = [
        Tag::Main,
        Tag::Accepted,
        Tag::WrongAnswer,
        Tag::PresentationError,
        Tag::TimeLimit,
        Tag::MemoryLimit,
        Tag::OutputLimit,
        Tag::RuntimeError,
        Tag::TimeLimitOrAccepted,
        Tag::TimeLimitOrMemoryLimit,
        Tag::Failing,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Tag::Main => "main",
            Tag::Accepted => "accepted",
            Tag::WrongAnswer => "wrong-answer",
            Tag::PresentationError => "presentation-error",
            Tag::TimeLimit => "time-limit",
            Tag::MemoryLimit => "memory-limit",
            Tag::OutputLimit => "output-limit",
            Tag::RuntimeError => "runtime-error",
            Tag::TimeLimitOrAccepted => "time-limit-or-accepted",
            Tag::TimeLimitOrMemoryLimit => "time-limit-or-memory-limit",
            Tag::Failing => "failing",
        }
    }

    /// Whether the solution must pass every test.
    pub fn correct(self) -> bool {
        matches!(self, Tag::Main | Tag::Accepted)
    }

    /// Whether no test need kill the solution (it may pass every test) though it is not
    /// correct: the selection does not have to kill it.
    pub fn may_pass(self) -> bool {
        self == Tag::TimeLimitOrAccepted
    }

    /// The verdicts a failing tag asks for, one of them on some test (empty: `failing`, any;
    /// a correct tag; or one that requires nothing).
    fn wanted(self) -> &'static [CellVerdict] {
        use CellVerdict as V;
        match self {
            Tag::WrongAnswer => &[V::WrongAnswer],
            Tag::PresentationError => &[V::PresentationError],
            Tag::TimeLimit => &[V::Timeout],
            Tag::MemoryLimit => &[V::MemoryLimit],
            Tag::OutputLimit => &[V::OutputLimit],
            Tag::RuntimeError => &[V::RuntimeError],
            Tag::TimeLimitOrMemoryLimit => &[V::Timeout, V::MemoryLimit],
            Tag::Main | Tag::Accepted | Tag::TimeLimitOrAccepted | Tag::Failing => &[],
        }
    }

    /// Whether a solution with this tag may get `verdict` on a test.
    pub fn allows(self, verdict: CellVerdict) -> bool {
        match verdict {
            CellVerdict::Ok => true,
            CellVerdict::Error => false,
            // A presentation error is a wrong answer in the making, as judges count it.
            CellVerdict::PresentationError if self == Tag::WrongAnswer => true,
            CellVerdict::Timeout if self == Tag::TimeLimitOrAccepted => true,
            _ if self == Tag::Failing => true,
            v => self.wanted().contains(&v),
        }
    }

    /// Whether the verdicts over every test satisfy what the tag requires (beyond
    /// [`Tag::allows`] on each): a failing tag needs one of its verdicts somewhere.
    fn satisfied(self, verdicts: &[CellVerdict]) -> bool {
        if self.correct() || self.may_pass() {
            return true;
        }
        match self.wanted() {
            [] => verdicts.iter().any(|&v| v != CellVerdict::Ok),
            wanted => verdicts.iter().any(|v| wanted.contains(v)),
        }
    }
}

impl std::str::FromStr for Tag {
    type Err = String;

    fn from_str(s: &str) -> Result<Tag, String> {
        Tag::ALL
            .into_iter()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Tag::ALL.iter().map(|t| t.as_str()).collect();
                format!(
                    "unknown tag {s:?}{} (tags: {})",
                    crate::util::suggest::did_you_mean(s, names.iter().copied()),
                    names.join(", ")
                )
            })
    }
}

impl std::fmt::Display for Tag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A solution whose verdicts contradict its tag.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Contradiction {
    pub solution: String,
    pub tag: Tag,
    /// The first test whose verdict the tag does not allow (none: the tag's verdict never
    /// came).
    pub test: Option<String>,
    pub verdict: Option<CellVerdict>,
    /// Tests whose verdict the tag does not allow.
    pub count: usize,
    pub message: String,
}

impl std::fmt::Display for Contradiction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The tag check of a whole invocation.
#[derive(Debug, Clone, Default, Serialize)]
pub struct TagReport {
    pub contradictions: Vec<Contradiction>,
    pub warnings: Vec<String>,
}

/// Checks every tagged solution of `inv` against its tag; warns of a correct solution whose
/// worst time is over half the time limit.
pub fn check(inv: &Invocation) -> TagReport {
    let mut report = TagReport::default();
    for (s, solution) in inv.solutions.iter().enumerate() {
        let Some(tag) = solution.tag else { continue };
        let verdicts: Vec<CellVerdict> = inv.column(s).map(|c| c.verdict).collect();
        let bad: Vec<usize> = (0..verdicts.len())
            .filter(|&t| !tag.allows(verdicts[t]))
            .collect();
        let name = &solution.name;
        if let Some(&first) = bad.first() {
            let cell = &inv.cells[first][s];
            let more = match bad.len() {
                1 => String::new(),
                n => format!(" (and {} more test(s))", n - 1),
            };
            report.contradictions.push(Contradiction {
                solution: name.clone(),
                tag,
                test: Some(inv.tests[first].name.clone()),
                verdict: Some(cell.verdict),
                count: bad.len(),
                message: format!(
                    "solution {name} (tagged {tag}) got {} on test {}{more}: {}",
                    cell.verdict, inv.tests[first].name, cell.message
                ),
            });
        } else if !tag.satisfied(&verdicts) {
            report.contradictions.push(Contradiction {
                solution: name.clone(),
                tag,
                test: None,
                verdict: None,
                count: 0,
                message: never_message(inv, s, tag, &verdicts),
            });
        }
        if tag.correct()
            && let Some((t, time)) = inv.slowest(s)
            && time.saturating_mul(2) > inv.limit_ns
        {
            // A run shared by a file's cases is the file's.
            let shared = inv.cells[t][s].run_cases;
            let on = if shared > 1 {
                format!(
                    "file {} ({shared} cases in one run)",
                    inv.tests[t].file_name
                )
            } else {
                format!("test {}", inv.tests[t].name)
            };
            report.warnings.push(format!(
                "warning: solution {name} (tagged {tag}) takes {} on {on}, more than half \
                 the time limit of {} ({})",
                human_time(time),
                human_time(inv.limit_ns),
                inv.clock.words()
            ));
        }
    }
    report
}

/// Why a failing tag's verdict never came: no test kills the solution at all, or the tests
/// that kill it (those of the kill report) gave only other verdicts, which it names.
fn never_message(inv: &Invocation, s: usize, tag: Tag, verdicts: &[CellVerdict]) -> String {
    let name = &inv.solutions[s].name;
    let wanted = match tag.wanted() {
        [] => "a failure".to_string(),
        wanted => {
            let names: Vec<&str> = wanted.iter().map(|v| v.as_str()).collect();
            names.join(" or ")
        }
    };
    let killed: Vec<usize> = (0..verdicts.len())
        .filter(|&t| verdicts[t] != CellVerdict::Ok)
        .collect();
    let Some(&first) = killed.first() else {
        return format!(
            "solution {name} (tagged {tag}) never got {wanted} on any of the {} tests: no test \
             kills it (the tests are weak, or the tag is wrong)",
            verdicts.len()
        );
    };
    let mut got: Vec<CellVerdict> = killed.iter().map(|&t| verdicts[t]).collect();
    got.sort_unstable();
    got.dedup();
    let got: Vec<&str> = got.iter().map(|v| v.as_str()).collect();
    let hint = if got == [CellVerdict::PresentationError.as_str()] {
        " (only white space is wrong: tag it presentation-error, or judge with --presentation \
         accept)"
    } else {
        ""
    };
    format!(
        "solution {name} (tagged {tag}) never got {wanted}: the {} test(s) that kill it \
         (first {}) gave {} only{hint}",
        killed.len(),
        inv.tests[first].name,
        got.join(", ")
    )
}

/// Checks the solutions' names and tags: names unique, at most one `main`.
pub fn check_solutions(solutions: &[Solution]) -> Result<(), InvokeError> {
    if solutions.is_empty() {
        return Err(InvokeError::NoSolutions);
    }
    for (i, s) in solutions.iter().enumerate() {
        if solutions[..i].iter().any(|o| o.name == s.name) {
            return Err(InvokeError::DuplicateSolution(s.name.clone()));
        }
    }
    let mains: Vec<&str> = solutions
        .iter()
        .filter(|s| s.tag == Some(Tag::Main))
        .map(|s| s.name.as_str())
        .collect();
    if mains.len() > 1 {
        return Err(InvokeError::SeveralMains {
            count: mains.len(),
            names: mains.join(", "),
        });
    }
    Ok(())
}

/// Sets `tags` (solution name, tag) on `solutions`; a name no solution has is an error with a
/// hint.
pub fn apply_tags(solutions: &mut [Solution], tags: &[(String, Tag)]) -> Result<(), InvokeError> {
    for (name, tag) in tags {
        match solutions.iter_mut().find(|s| &s.name == name) {
            Some(s) => s.tag = Some(*tag),
            None => {
                let names: Vec<&str> = solutions.iter().map(|s| s.name.as_str()).collect();
                return Err(InvokeError::UnknownSolution {
                    name: name.clone(),
                    tag: *tag,
                    hint: crate::util::suggest::did_you_mean(name, names.iter().copied()),
                    known: names.join(", "),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_allow_ok_and_their_own_verdicts_only() {
        use CellVerdict as V;
        for tag in Tag::ALL {
            assert!(tag.allows(V::Ok), "{tag}");
            assert!(!tag.allows(V::Error), "{tag}");
        }
        assert!(!Tag::Accepted.allows(V::WrongAnswer));
        assert!(!Tag::Main.allows(V::Timeout));
        assert!(Tag::WrongAnswer.allows(V::WrongAnswer));
        assert!(Tag::WrongAnswer.allows(V::PresentationError));
        assert!(!Tag::WrongAnswer.allows(V::RuntimeError));
        assert!(Tag::TimeLimit.allows(V::Timeout));
        assert!(!Tag::TimeLimit.allows(V::WrongAnswer));
        assert!(Tag::Failing.allows(V::OutputLimit));
        assert!(Tag::Failing.allows(V::MemoryLimit));
        assert!(Tag::PresentationError.allows(V::PresentationError));
        assert!(!Tag::PresentationError.allows(V::WrongAnswer));
        assert!(Tag::OutputLimit.allows(V::OutputLimit));
        assert!(!Tag::OutputLimit.allows(V::RuntimeError));
        assert!(Tag::TimeLimitOrAccepted.allows(V::Timeout));
        assert!(!Tag::TimeLimitOrAccepted.allows(V::MemoryLimit));
        assert!(Tag::TimeLimitOrMemoryLimit.allows(V::Timeout));
        assert!(Tag::TimeLimitOrMemoryLimit.allows(V::MemoryLimit));
        assert!(!Tag::TimeLimitOrMemoryLimit.allows(V::WrongAnswer));
    }

    #[test]
    fn a_failing_tag_needs_its_verdict_somewhere() {
        use CellVerdict as V;
        assert!(!Tag::WrongAnswer.satisfied(&[V::Ok, V::Ok]));
        assert!(!Tag::WrongAnswer.satisfied(&[V::Ok, V::PresentationError]));
        assert!(Tag::WrongAnswer.satisfied(&[V::Ok, V::WrongAnswer]));
        assert!(!Tag::Failing.satisfied(&[V::Ok]));
        assert!(Tag::Failing.satisfied(&[V::Ok, V::Timeout]));
        assert!(Tag::Accepted.satisfied(&[]));
        assert!(!Tag::TimeLimit.satisfied(&[]));
        assert!(Tag::PresentationError.satisfied(&[V::Ok, V::PresentationError]));
        assert!(!Tag::OutputLimit.satisfied(&[V::Ok]));
        assert!(Tag::TimeLimitOrAccepted.satisfied(&[V::Ok, V::Ok]));
        assert!(Tag::TimeLimitOrAccepted.satisfied(&[V::Timeout]));
        assert!(Tag::TimeLimitOrMemoryLimit.satisfied(&[V::Ok, V::MemoryLimit]));
        assert!(Tag::TimeLimitOrMemoryLimit.satisfied(&[V::Timeout]));
        assert!(!Tag::TimeLimitOrMemoryLimit.satisfied(&[V::Ok]));
    }

    /// A hand-made invocation of two tests: `slow` (accepted) takes 0.6 s of a 1 s limit on
    /// test 2 (a warning, not a contradiction), `wa` (wrong-answer) gets a runtime error on
    /// test 1 (a contradiction naming it), `never` (time-limit) passes both, `pe`
    /// (wrong-answer) gets a presentation error on test 2 only (told so, not "no test kills
    /// it", since the kill report lists test 2).
    #[test]
    fn the_check_names_contradictions_and_warns_of_slow_correct_solutions() {
        use super::super::{Cell, Invocation, Solution, Test};
        let game = crate::registry::GAMES[0];
        let cell = |verdict, time_ms: u64| Cell {
            verdict,
            time_ns: Some(time_ms * 1_000_000),
            run_ns: Some(time_ms * 1_000_000),
            run_cases: 1,
            memory_kb: None,
            message: "why".to_string(),
            reason: None,
        };
        let solution = |name: &str, tag| Solution {
            name: name.to_string(),
            spec: crate::engines::EngineSpec::Internal(game.reference()),
            tag: Some(tag),
        };
        let test = |name: &str| Test {
            file: 0,
            file_name: name.to_string(),
            case: 1,
            name: name.to_string(),
            expected: "out",
        };
        use CellVerdict as V;
        let inv = Invocation {
            game,
            startups: Vec::new(),
            files: Vec::new(),
            solutions: vec![
                solution("slow", Tag::Accepted),
                solution("wa", Tag::WrongAnswer),
                solution("never", Tag::TimeLimit),
                solution("pe", Tag::WrongAnswer),
            ],
            tests: vec![test("t1"), test("t2")],
            cells: vec![
                vec![
                    cell(V::Ok, 100),
                    cell(V::RuntimeError, 1),
                    cell(V::Ok, 1),
                    cell(V::Ok, 1),
                ],
                vec![
                    cell(V::Ok, 600),
                    cell(V::WrongAnswer, 1),
                    cell(V::Ok, 1),
                    cell(V::PresentationError, 1),
                ],
            ],
            limit_ns: 1_000_000_000,
            clock: super::super::TimeClock::Cpu,
            keep: Vec::new(),
            expected: Vec::new(),
            inputs: Vec::new(),
            parsed: Vec::new(),
            out_files: Vec::new(),
        };
        let report = check(&inv);
        let messages: Vec<&str> = report
            .contradictions
            .iter()
            .map(|c| c.message.as_str())
            .collect();
        assert_eq!(
            messages,
            [
                "solution wa (tagged wrong-answer) got runtime-error on test t1: why",
                "solution never (tagged time-limit) never got timeout on any of the 2 tests: \
                 no test kills it (the tests are weak, or the tag is wrong)",
                "solution pe (tagged wrong-answer) never got wrong-answer: the 1 test(s) that \
                 kill it (first t2) gave presentation-error only (only white space is wrong: \
                 tag it presentation-error, or judge with --presentation accept)",
            ]
        );
        assert_eq!(report.warnings.len(), 1);
        assert!(
            report.warnings[0].starts_with("warning: solution slow (tagged accepted) takes 600"),
            "{:?}",
            report.warnings
        );
        assert!(report.warnings[0].contains("on test t2"));
    }

    #[test]
    fn tags_parse_by_name_with_a_hint() {
        for tag in Tag::ALL {
            assert_eq!(tag.as_str().parse::<Tag>(), Ok(tag));
        }
        let err = "wrong-anwser".parse::<Tag>().unwrap_err();
        assert!(err.contains("wrong-answer"), "{err}");
    }
}
