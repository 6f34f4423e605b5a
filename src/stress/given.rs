//! `stress --tests PATH`: the two engines held against each other on given test files (a
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

use super::{Config, Limit, Outcome, StressError, shrink_given};
use crate::corpus::{self, CaseFile};

/// What `stress --tests` did with the given files.
pub struct GivenOutcome {
    /// How the search ended: no difference on the files judged, a difference (shrunk), or a
    /// signal.
    pub outcome: Outcome,
    /// The files judged whole without a difference.
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
    for (judged, file) in files.iter().enumerate() {
        let limit = match deadline {
            Some(deadline) => match deadline.checked_duration_since(Instant::now()) {
                Some(left) if !left.is_zero() => Limit::Time(left),
                _ => {
                    return Ok(GivenOutcome {
                        outcome: no_difference(cases_tried, start),
                        files_judged: judged - unreadable.len(),
                        files_left: files.len() - judged,
                        unreadable,
                        found_in: None,
                    });
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
            game: config.game,
            engines: config.engines.clone(),
            profile: config.profile.clone(),
            options: config.options,
            seed: config.seed,
            limit,
            limits: config.limits.clone(),
            budget: config.budget.clone(),
            out: config.out.clone(),
            presentation: config.presentation,
            jobs: 1,
            generator: None,
            given: Some(file.path.clone()),
        };
        match shrink_given(&one, text, None) {
            Ok(Outcome::NoDifference { cases_tried: n, .. }) => {
                // `shrink_given` also says "no difference" when its deadline came first.
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    return Ok(GivenOutcome {
                        outcome: no_difference(cases_tried, start),
                        files_judged: judged - unreadable.len(),
                        files_left: files.len() - judged,
                        unreadable,
                        found_in: None,
                    });
                }
                cases_tried += n;
            }
            Ok(Outcome::Found(mut found)) => {
                // Counted over the files before it, as a generated search counts.
                found.cases_tried += cases_tried;
                found.file_index = judged as u64;
                return Ok(GivenOutcome {
                    outcome: Outcome::Found(found),
                    files_judged: judged - unreadable.len(),
                    files_left: files.len() - judged - 1,
                    unreadable,
                    found_in: Some(file.path.clone()),
                });
            }
            Ok(Outcome::Stopped { found, .. }) => {
                let found_in = found.as_ref().map(|_| file.path.clone());
                return Ok(GivenOutcome {
                    outcome: Outcome::Stopped {
                        cases_tried,
                        time: start.elapsed(),
                        found,
                    },
                    files_judged: judged - unreadable.len(),
                    files_left: files.len() - judged,
                    unreadable,
                    found_in,
                });
            }
            Err(StressError::UnreadableGiven { why, .. }) => {
                unreadable.push((file.path.clone(), why));
            }
            Err(other) => return Err(other),
        }
    }
    Ok(GivenOutcome {
        outcome: no_difference(cases_tried, start),
        files_judged: files.len() - unreadable.len(),
        files_left: 0,
        unreadable,
        found_in: None,
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
