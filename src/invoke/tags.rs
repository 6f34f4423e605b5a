//! What a solution is supposed to get (its [`Tag`], as Polygon tags solutions) and the check of
//! its verdicts against it: a contradiction fails the invocation (exit 1), a correct solution
//! slower than half the time limit is a warning.
//!
//! Invariants: a tag allows `ok` and the verdicts it names (`failing`: any verdict but
//! `error`), and a failing tag requires at least one of its verdicts; `main` and `accepted`
//! allow `ok` alone. `error` (the test could not be judged) is allowed by no tag.

use serde::Serialize;

use super::Invocation;
use super::verdict::CellVerdict;
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
    TimeLimit,
    MemoryLimit,
    RuntimeError,
    /// Any verdict but `ok` on some test.
    Failing,
}

impl Tag {
    pub const ALL: [Tag; 7] = [
        Tag::Main,
        Tag::Accepted,
        Tag::WrongAnswer,
        Tag::TimeLimit,
        Tag::MemoryLimit,
        Tag::RuntimeError,
        Tag::Failing,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Tag::Main => "main",
            Tag::Accepted => "accepted",
            Tag::WrongAnswer => "wrong-answer",
            Tag::TimeLimit => "time-limit",
            Tag::MemoryLimit => "memory-limit",
            Tag::RuntimeError => "runtime-error",
            Tag::Failing => "failing",
        }
    }

    /// Whether the solution must pass every test.
    pub fn correct(self) -> bool {
        matches!(self, Tag::Main | Tag::Accepted)
    }

    /// The verdict a failing tag asks for (`None`: `failing`, any; or a correct tag).
    fn wanted(self) -> Option<CellVerdict> {
        match self {
            Tag::WrongAnswer => Some(CellVerdict::WrongAnswer),
            Tag::TimeLimit => Some(CellVerdict::Timeout),
            Tag::MemoryLimit => Some(CellVerdict::MemoryLimit),
            Tag::RuntimeError => Some(CellVerdict::RuntimeError),
            Tag::Main | Tag::Accepted | Tag::Failing => None,
        }
    }

    /// Whether a solution with this tag may get `verdict` on a test.
    pub fn allows(self, verdict: CellVerdict) -> bool {
        match verdict {
            CellVerdict::Ok => true,
            CellVerdict::Error => false,
            // A presentation error is a wrong answer in the making, as judges count it.
            CellVerdict::PresentationError if self == Tag::WrongAnswer => true,
            _ if self == Tag::Failing => true,
            v => self.wanted() == Some(v),
        }
    }

    /// Whether the verdicts over every test satisfy what the tag requires (beyond
    /// [`Tag::allows`] on each): a failing tag needs its verdict somewhere.
    fn satisfied(self, verdicts: &[CellVerdict]) -> bool {
        match (self.correct(), self.wanted()) {
            (true, _) => true,
            (false, Some(wanted)) => verdicts.contains(&wanted),
            (false, None) => verdicts.iter().any(|&v| v != CellVerdict::Ok),
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
            let wanted = tag.wanted().map_or("a failure", CellVerdict::as_str);
            report.contradictions.push(Contradiction {
                solution: name.clone(),
                tag,
                test: None,
                verdict: None,
                count: 0,
                message: format!(
                    "solution {name} (tagged {tag}) never got {wanted} on any of the {} tests: \
                     no test kills it (the tests are weak, or the tag is wrong)",
                    verdicts.len()
                ),
            });
        }
        if tag.correct()
            && let Some((t, time)) = inv.slowest(s)
            && time.saturating_mul(2) > inv.limit_ns
        {
            report.warnings.push(format!(
                "warning: solution {name} (tagged {tag}) takes {} on test {}, more than half \
                 the time limit of {}",
                human_time(time),
                inv.tests[t].name,
                human_time(inv.limit_ns)
            ));
        }
    }
    report
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
    }

    /// A hand-made invocation of two tests: `slow` (accepted) takes 0.6 s of a 1 s limit on
    /// test 2 (a warning, not a contradiction), `wa` (wrong-answer) gets a runtime error on
    /// test 1 (a contradiction naming it), `never` (time-limit) passes both.
    #[test]
    fn the_check_names_contradictions_and_warns_of_slow_correct_solutions() {
        use super::super::{Cell, Invocation, Solution, Test};
        let game = crate::registry::GAMES[0];
        let cell = |verdict, time_ms: u64| Cell {
            verdict,
            time_ns: Some(time_ms * 1_000_000),
            memory_kb: None,
            message: "why".to_string(),
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
            files: Vec::new(),
            solutions: vec![
                solution("slow", Tag::Accepted),
                solution("wa", Tag::WrongAnswer),
                solution("never", Tag::TimeLimit),
            ],
            tests: vec![test("t1"), test("t2")],
            cells: vec![
                vec![cell(V::Ok, 100), cell(V::RuntimeError, 1), cell(V::Ok, 1)],
                vec![cell(V::Ok, 600), cell(V::WrongAnswer, 1), cell(V::Ok, 1)],
            ],
            limit_ns: 1_000_000_000,
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
