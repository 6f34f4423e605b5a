//! Given inputs instead of generated ones: `gamebench shrink`'s one file ([`shrink_given`]),
//! and `stress --tests PATH`: the two engines held against each other on given test files (a
//! folder of `.in` files, a Kattis or Polygon package, a package's `data/`) instead of
//! generated ones. The files are judged one by one in their corpus order; the first file where
//! the engines differ has its first failing case shrunk exactly as `gamebench shrink` shrinks
//! it ([`super::shrink_given`]), with the same report and files, and the search ends there.
//!
//! A file that cannot be read or parsed is said, naming it, and the others go on: the outcome
//! counts it, so the command's exit code tells (2) when nothing differed but a file was
//! unreadable. The time limit (`--time`) is one deadline for all the files.

use std::path::PathBuf;
use std::time::Instant;

use super::{
    Config, Input, Judge, Limit, Outcome, Search, StressError, files, finish, isolate, shrink,
};
use crate::corpus::{self, CaseFile};

/// What `stress --tests` did with the given files.
pub struct GivenOutcome {
    /// How the search ended: no difference on the files judged, a difference (shrunk), or a
    /// signal.
    pub outcome: Outcome,
    /// The files judged whole (the one the engines differed in among them).
    pub files_judged: usize,
    /// Files left unjudged when the time limit came.
    pub files_left: usize,
    /// Files that could not be judged: each with why (the file named in the message).
    pub unreadable: Vec<(PathBuf, String)>,
    /// The file where the engines differed (its report and files are named after it).
    pub found_in: Option<PathBuf>,
}

/// Judges `files` (of `config.game`) with both engines, file by file, and shrinks the first
/// difference. `config.given` is ignored: each file is the given input in turn.
pub fn stress_tests(config: &Config<'_>, files: &[CaseFile]) -> Result<GivenOutcome, StressError> {
    let start = Instant::now();
    let deadline = match config.limit {
        Limit::Time(limit) => Some(start + limit),
        Limit::Cases(_) => None,
    };
    let mut cases_tried = 0;
    let mut unreadable = Vec::new();
    // How the search ended, the file the engines differed in, and the first file not judged
    // whole.
    let mut ended = None;
    for (index, file) in files.iter().enumerate() {
        let limit = match deadline {
            Some(deadline) => match deadline.checked_duration_since(Instant::now()) {
                Some(left) if !left.is_zero() => Limit::Time(left),
                _ => {
                    ended = Some((no_difference(cases_tried, start), None, index));
                    break;
                }
            },
            None => Limit::Cases(u64::MAX),
        };
        let text = match read_text(file) {
            Ok(text) => text,
            Err(why) => {
                unreadable.push((file.path.clone(), why));
                continue;
            }
        };
        let one = Config {
            limit,
            jobs: 1,
            generator: None,
            given: Some(file.path.clone()),
            ..config.clone()
        };
        match shrink_given(&one, text, None) {
            // `shrink_given` also says "no difference" when its deadline came first.
            Ok(Outcome::NoDifference { .. }) if deadline.is_some_and(|d| Instant::now() >= d) => {
                ended = Some((no_difference(cases_tried, start), None, index));
                break;
            }
            Ok(Outcome::NoDifference { cases_tried: n, .. }) => cases_tried += n,
            Ok(Outcome::Found(mut found)) => {
                // Counted over the files before it, as a generated search counts.
                found.cases_tried += cases_tried;
                found.file_index = index as u64;
                ended = Some((Outcome::Found(found), Some(file.path.clone()), index + 1));
                break;
            }
            Ok(Outcome::Stopped { found, .. }) => {
                let found_in = found.as_ref().map(|_| file.path.clone());
                let time = start.elapsed();
                let outcome = Outcome::Stopped {
                    cases_tried,
                    time,
                    found,
                };
                ended = Some((outcome, found_in, index));
                break;
            }
            Err(StressError::UnreadableGiven { why, .. }) => {
                unreadable.push((file.path.clone(), why));
            }
            Err(other) => return Err(other),
        }
    }
    let (outcome, found_in, next) =
        ended.unwrap_or_else(|| (no_difference(cases_tried, start), None, files.len()));
    Ok(GivenOutcome {
        outcome,
        files_judged: next - unreadable.len(),
        files_left: files.len() - next,
        unreadable,
        found_in,
    })
}

fn no_difference(cases_tried: u64, start: Instant) -> Outcome {
    Outcome::NoDifference {
        cases_tried,
        time: start.elapsed(),
    }
}

/// The file's text, read within the corpus's cap; why not, as words.
fn read_text(file: &CaseFile) -> Result<String, String> {
    let bytes = corpus::read_case_file(&file.path, 0).map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())
}

/// `gamebench shrink`: judges the given input `text` (the file `config.given`; only its case
/// `case`, 1-based, when given) with both engines and shrinks its first failing case as
/// [`run`] shrinks a generated one: isolated, shrunk keeping its class, the same report and
/// files. `config.limit` bounds the time (a number of cases means none).
pub fn shrink_given(
    config: &Config<'_>,
    text: String,
    case: Option<usize>,
) -> Result<Outcome, StressError> {
    let start = Instant::now();
    let deadline = match config.limit {
        Limit::Time(limit) => Some(start + limit),
        Limit::Cases(_) => None,
    };
    files::refuse_given(config)?;
    let path = config.given.clone().unwrap_or_default();
    let parsed = config.game.parse(text.as_bytes(), &config.reading);
    if let Some(Err(error)) = parsed.iter().map(|p| p.case.as_ref()).find(|c| c.is_err()) {
        return Err(StressError::UnreadableGiven {
            path,
            why: error.to_string(),
        });
    }
    let unreadable = |why: &str| StressError::UnreadableGiven {
        path: path.clone(),
        why: why.to_string(),
    };
    let mut input = Input::read(config.game, text, &config.reading)
        .ok_or_else(|| unreadable("it does not read back"))?;
    if let Some(n) = case {
        let cases = input.typed();
        if n == 0 || n > cases.len() {
            return Err(StressError::NoSuchCase {
                path: path.clone(),
                case: n,
                cases: cases.len(),
            });
        }
        let alone = shrink::candidate(config.game, &cases[n - 1..n], &config.reading)
            .ok_or_else(|| unreadable("its case alone does not make an input"))?;
        input = alone;
    }
    let judge = Judge::new(config, deadline);
    let halt = |error: StressError| match error {
        StressError::OutOfTime => Ok(Outcome::NoDifference {
            cases_tried: 0,
            time: start.elapsed(),
        }),
        StressError::Stopped => Ok(Outcome::Stopped {
            cases_tried: 0,
            time: start.elapsed(),
            found: None,
        }),
        other => Err(other),
    };
    let judged = match judge.judge(&input) {
        Ok(judged) => judged,
        Err(e) => return halt(e),
    };
    let Some((at, failure)) = judged.first_failure() else {
        return Ok(Outcome::NoDifference {
            cases_tried: input.cases.len() as u64,
            time: start.elapsed(),
        });
    };
    let failure = failure.clone();
    let search = Search {
        cases_tried: at as u64 + 1,
        search_time: start.elapsed(),
        file_index: 0,
        // The case's number in the file as given.
        case_index: case.map_or(at, |n| n - 1),
        elapsed: judged.elapsed,
    };
    let whole = input.text.clone();
    let original = match isolate(&judge, input, at, &failure) {
        Ok(original) => original,
        // Not isolated in time: the whole input is what fails.
        Err(StressError::OutOfTime | StressError::Stopped) => {
            Input::read(config.game, whole, &config.reading)
                .ok_or_else(|| unreadable("it does not read back"))?
        }
        Err(e) => return Err(e),
    };
    finish(config, &judge, search, original, failure, start)
}
