//! The problem file (`invoke --problem problem.toml`): the tests folder, the game, the checker,
//! the limits and the solutions with their tags, in one place a problem package keeps.
//!
//! ```toml
//! game = "linkpop"            # optional: else each test's folder names its game
//! tests = ["tests"]           # folders or files, relative to the problem file
//! checker = "game"            # or "exact"
//!
//! [limits]
//! timeout = 2.0               # seconds, wall, one run of a program
//! case-timeout = 1.0          # seconds, one case (programs run case by case where they can)
//! cpu = 1.0                   # seconds of CPU
//! memory = 256                # MB
//! output = 64                 # MB
//!
//! [[solution]]
//! engine = "reference"        # one of the game's engines
//! tag = "main"
//!
//! [[solution]]
//! name = "greedy"
//! cmd = "python3 greedy.py"   # a program, run from the current directory
//! tag = "wrong-answer"
//! ```
//!
//! Invariant: unknown keys are errors (a typo is not silently ignored); every error names the
//! file and, for a syntax or type error, its line and column.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::tags::Tag;
use super::verdict::Checker;

/// Why a problem file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ProblemError {
    #[error("cannot read the problem file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("problem file {path}: {message}")]
    Invalid { path: PathBuf, message: String },
}

/// The limits a problem sets (each as the command line's option).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ProblemLimits {
    pub timeout: Option<f64>,
    pub case_timeout: Option<f64>,
    pub cpu: Option<f64>,
    pub memory: Option<f64>,
    pub output: Option<f64>,
}

/// One solution of a problem file: an internal engine or a program.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ProblemSolution {
    pub name: Option<String>,
    pub engine: Option<String>,
    pub cmd: Option<String>,
    pub tag: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    game: Option<String>,
    #[serde(default)]
    tests: Vec<PathBuf>,
    checker: Option<String>,
    #[serde(default)]
    limits: ProblemLimits,
    #[serde(default)]
    solution: Vec<ProblemSolution>,
}

/// A problem file, read and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub game: Option<String>,
    /// The tests' paths, relative to the current directory.
    pub tests: Vec<PathBuf>,
    pub checker: Option<Checker>,
    pub limits: ProblemLimits,
    /// Each solution as `-e` takes it (`reference`, `NAME=cmd:COMMAND`), its name and tag.
    pub solutions: Vec<(String, String, Option<Tag>)>,
}

impl Problem {
    /// Reads and checks the problem file at `path`.
    pub fn read(path: &Path) -> Result<Problem, ProblemError> {
        let text =
            crate::util::atomic::read_capped_string(path, crate::util::atomic::SMALL_FILE_BYTES)
                .map_err(|source| ProblemError::Read {
                    path: path.to_path_buf(),
                    source,
                })?;
        Problem::parse(&text, path)
    }

    /// Parses `text`, the problem file at `path` (tests are relative to its folder).
    pub fn parse(text: &str, path: &Path) -> Result<Problem, ProblemError> {
        let invalid = |message: String| ProblemError::Invalid {
            path: path.to_path_buf(),
            message,
        };
        let raw: Raw = toml::from_str(text).map_err(|e| invalid(e.to_string()))?;
        let folder = path.parent().unwrap_or(Path::new(""));
        let checker = raw
            .checker
            .map(|c| c.parse::<Checker>())
            .transpose()
            .map_err(invalid)?;
        let mut solutions = Vec::new();
        for (i, s) in raw.solution.into_iter().enumerate() {
            let which = format!("solution {}", i + 1);
            let tag = s
                .tag
                .as_deref()
                .map(str::parse::<Tag>)
                .transpose()
                .map_err(|e| invalid(format!("{which}: {e}")))?;
            let (name, spec) = match (s.engine, s.cmd) {
                (Some(engine), None) => (s.name.unwrap_or_else(|| engine.clone()), engine),
                (None, Some(cmd)) => {
                    let name = s
                        .name
                        .ok_or_else(|| invalid(format!("{which}: a program (cmd) needs a name")))?;
                    if name.is_empty() || name.contains('=') {
                        return Err(invalid(format!(
                            "{which}: the name {name:?} must be non-empty and have no '='"
                        )));
                    }
                    (name.clone(), format!("{name}=cmd:{cmd}"))
                }
                _ => {
                    return Err(invalid(format!(
                        "{which}: give exactly one of `engine` (an engine of the game) and `cmd` (a program)"
                    )));
                }
            };
            solutions.push((name, spec, tag));
        }
        Ok(Problem {
            game: raw.game,
            tests: raw.tests.iter().map(|t| folder.join(t)).collect(),
            checker,
            limits: raw.limits,
            solutions,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_file_reads_into_solutions_and_limits() {
        let text = r#"
game = "linkpop"
tests = ["tests", "more/a.in"]
checker = "exact"
[limits]
timeout = 2.5
memory = 64
[[solution]]
engine = "reference"
tag = "main"
[[solution]]
name = "w"
cmd = "python3 w.py"
tag = "wrong-answer"
[[solution]]
engine = "bitboard"
"#;
        let p = Problem::parse(text, Path::new("p/problem.toml")).unwrap();
        assert_eq!(p.game.as_deref(), Some("linkpop"));
        assert_eq!(
            p.tests,
            vec![PathBuf::from("p/tests"), PathBuf::from("p/more/a.in")]
        );
        assert_eq!(p.checker, Some(Checker::Exact));
        assert_eq!(p.limits.timeout, Some(2.5));
        assert_eq!(p.limits.memory, Some(64.0));
        assert_eq!(p.limits.cpu, None);
        assert_eq!(
            p.solutions,
            vec![
                (
                    "reference".to_string(),
                    "reference".to_string(),
                    Some(Tag::Main)
                ),
                (
                    "w".to_string(),
                    "w=cmd:python3 w.py".to_string(),
                    Some(Tag::WrongAnswer)
                ),
                ("bitboard".to_string(), "bitboard".to_string(), None),
            ]
        );
    }

    #[test]
    fn errors_name_the_file_and_the_line() {
        let path = Path::new("problem.toml");
        let err = Problem::parse("tests = [\"t\"]\ntimout = 3\n", path)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("problem.toml") && err.contains("line 2"),
            "{err}"
        );
        let err = Problem::parse("[[solution]]\ncmd = \"x\"\n", path)
            .unwrap_err()
            .to_string();
        assert!(err.contains("solution 1") && err.contains("name"), "{err}");
        let err = Problem::parse("[[solution]]\nengine = \"a\"\ncmd = \"x\"\n", path)
            .unwrap_err()
            .to_string();
        assert!(err.contains("exactly one"), "{err}");
        let err = Problem::parse("[[solution]]\nengine = \"a\"\ntag = \"wa\"\n", path)
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown tag"), "{err}");
    }
}
