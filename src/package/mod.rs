//! Judges' problem packages read as they are: a Kattis / DOMjudge package (`problem.yaml` at
//! its root, `kattis.rs`) or a Polygon package (`problem.xml`, `polygon.rs`), turned into what
//! `invoke` takes: the tests as [`CaseFile`]s in the package's order, the submissions with the
//! tags their folders (or Polygon tags) give, the limits, and the inputs a validator must
//! reject. Submissions are built by language from a command table (`languages.rs`) into a
//! cache folder; the small YAML subset packages use is read by `yaml.rs`.
//!
//! Invariants: the tests keep the package's order (sample before secret, groups in name order);
//! a test is named by its path under `data/` (or `tests/`), so names never collide across
//! groups; nothing in a package is written to.

pub mod advice;
pub mod export;
pub mod inferred;
pub mod kattis;
pub mod languages;
pub mod paths;
pub mod polygon;
pub mod yaml;
pub mod zip;

use std::path::{Path, PathBuf};

use crate::corpus::{self, CaseFile, CorpusError};
use crate::game::Game;
use crate::invoke::Tag;
use crate::invoke::problem::ProblemLimits;

/// Why a package cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
    #[error(
        "{path}: cannot tell which game this package is (no --game, no `gamebench: {{game: ...}}` \
         in problem.yaml, no folder named after a game: {games})"
    )]
    UnknownGame { path: PathBuf, games: String },
    #[error("{0}: no such game (games: {1})")]
    NoSuchGame(String, String),
    #[error(transparent)]
    Corpus(#[from] CorpusError),
}

/// Which package format a folder is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Kattis,
    Polygon,
}

/// The package format of `path`, if it is a package folder.
pub fn format_of(path: &Path) -> Option<Format> {
    if path.join(kattis::PROBLEM_YAML).is_file() {
        Some(Format::Kattis)
    } else if path.join(polygon::PROBLEM_XML).is_file() {
        Some(Format::Polygon)
    } else {
        None
    }
}

/// How the time limit is found from the submissions' times (Kattis' multipliers).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeRules {
    /// The package's own time limit, seconds, when it states one.
    pub time_limit: Option<f64>,
    /// Limit >= slowest accepted x this.
    pub ac_to_time_limit: f64,
    /// Limit x this <= fastest time-limit-exceeded (the safety margin).
    pub time_limit_to_tle: f64,
    /// The limit is a multiple of this, seconds.
    pub resolution: f64,
}

impl Default for TimeRules {
    /// The 2025-09 format's defaults, no limit stated.
    fn default() -> Self {
        TimeRules {
            time_limit: None,
            ac_to_time_limit: kattis::AC_TO_TIME_LIMIT,
            time_limit_to_tle: kattis::TIME_LIMIT_TO_TLE,
            resolution: kattis::TIME_RESOLUTION,
        }
    }
}

/// One submission of a package.
#[derive(Debug, Clone, PartialEq)]
pub struct Submission {
    /// Its path under `submissions/` (Kattis) or the package (Polygon): `accepted/sol.c`.
    pub name: String,
    pub path: PathBuf,
    /// What it should get, as invoke's tag.
    pub tag: Option<Tag>,
    /// Whether its time counts for the time limit (`use_for_time_limit`).
    pub for_time_limit: bool,
}

/// A contestant's output a package gives its checker to judge: `data/invalid_output` (the
/// checker must reject it) or `data/valid_output` (it must accept it), `NAME.in` with
/// `NAME.ans` and the output `NAME.out`.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputCase {
    pub input: PathBuf,
    pub answer: PathBuf,
    pub output: PathBuf,
    /// Whether the checker must accept it.
    pub valid: bool,
}

/// A package, read.
pub struct Package {
    pub root: PathBuf,
    pub format: Format,
    pub game: &'static dyn Game,
    /// The tests, in the package's order.
    pub files: Vec<CaseFile>,
    /// Inputs every validator must reject (`data/invalid_input`).
    pub invalid_inputs: Vec<PathBuf>,
    /// Outputs the checker must reject or accept.
    pub output_cases: Vec<OutputCase>,
    pub submissions: Vec<Submission>,
    pub limits: ProblemLimits,
    pub time: TimeRules,
    /// Entries the reader skipped and why (a submission of no known language, ...).
    pub notes: Vec<String>,
}

impl std::fmt::Debug for Package {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Package")
            .field("root", &self.root)
            .field("format", &self.format)
            .field("game", &self.game.name())
            .field("files", &self.files)
            .field("submissions", &self.submissions)
            .finish_non_exhaustive()
    }
}

/// Whether `path` is a package: a package folder or a package's zip file.
pub fn is_package(path: &Path) -> bool {
    format_of(path).is_some() || zip::is_zip(path)
}

/// Reads the package at `root` (a folder, or a zip file unpacked first), its game `game` when
/// given (else the package's own choice).
pub fn read(
    root: &Path,
    game: Option<&'static dyn Game>,
    games: &[&'static dyn Game],
    languages: &languages::Languages,
) -> Result<Package, PackageError> {
    if zip::is_zip(root) {
        return read(&zip::unpack(root)?, game, games, languages);
    }
    match format_of(root) {
        Some(Format::Kattis) => kattis::read(root, game, games, languages),
        Some(Format::Polygon) => polygon::read(root, game, games, languages),
        None => Err(PackageError::Invalid {
            path: root.to_path_buf(),
            message: format!(
                "not a package folder (no {} nor {})",
                kattis::PROBLEM_YAML,
                polygon::PROBLEM_XML
            ),
        }),
    }
}

/// The game: `forced`, else `named` (a package's own key), else the nearest folder named
/// after a game (the package's own folder included).
fn choose_game(
    root: &Path,
    forced: Option<&'static dyn Game>,
    named: Option<&str>,
    games: &[&'static dyn Game],
) -> Result<&'static dyn Game, PackageError> {
    let names = || {
        games
            .iter()
            .map(|g| g.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let Some(game) = forced {
        return Ok(game);
    }
    if let Some(name) = named {
        return games
            .iter()
            .copied()
            .find(|g| g.name() == name)
            .ok_or_else(|| PackageError::NoSuchGame(name.to_string(), names()));
    }
    // `game_of` looks at a file's folders: a name inside the root makes the root one of them.
    corpus::game_of(&root.join(kattis::PROBLEM_YAML), games).ok_or_else(|| {
        PackageError::UnknownGame {
            path: root.to_path_buf(),
            games: names(),
        }
    })
}

/// The `.in` files under `folders` (each searched recursively, in order), named by their path
/// relative to `base`; a missing folder has no tests.
fn tests_under(
    folders: &[PathBuf],
    base: &Path,
    game: &'static dyn Game,
    games: &[&'static dyn Game],
) -> Result<Vec<CaseFile>, PackageError> {
    let mut files = Vec::new();
    for folder in folders.iter().filter(|f| f.is_dir()) {
        let corpus = match corpus::discover_all(std::slice::from_ref(folder), Some(game), games) {
            Ok(corpus) => corpus,
            Err(CorpusError::Empty { .. }) => continue,
            Err(e) => return Err(e.into()),
        };
        if let Some(problem) = corpus.problems.into_iter().next() {
            return Err(problem.into());
        }
        for mut file in corpus.files {
            file.relative = file
                .path
                .strip_prefix(base)
                .unwrap_or(&file.path)
                .to_path_buf();
            files.push(file);
        }
    }
    Ok(files)
}

/// The files of `folder` with extension `extension` (any, when `None`), sorted; none when it
/// does not exist.
fn files_in(folder: &Path, extension: Option<&str>) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(folder)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .filter(|p| extension.is_none_or(|x| p.extension().is_some_and(|e| e == x)))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

/// The verdicts of `validate` on the inputs a package says are invalid: each one the game's
/// validator accepts, named.
pub fn accepted_invalid_inputs(package: &Package) -> Result<Vec<PathBuf>, PackageError> {
    let mut accepted = Vec::new();
    for path in &package.invalid_inputs {
        let bytes = corpus::read_case_file(path, 0).map_err(|source| PackageError::Io {
            path: path.clone(),
            source,
        })?;
        if package.game.validate(&bytes).is_valid() {
            accepted.push(path.clone());
        }
    }
    Ok(accepted)
}

/// The output cases of `folder` (`NAME.in` with `NAME.ans` and `NAME.out`, searched
/// recursively), `valid` or not; an input without both files is noted and skipped.
fn output_cases_in(folder: &Path, valid: bool, notes: &mut Vec<String>) -> Vec<OutputCase> {
    let mut found = Vec::new();
    let mut dirs = vec![folder.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path
                .extension()
                .is_none_or(|e| e != corpus::INPUT_EXTENSION)
            {
                continue;
            }
            let answer = path.with_extension(corpus::ANSWER_EXTENSION);
            let output = path.with_extension(corpus::OUTPUT_EXTENSION);
            match (answer.is_file(), output.is_file()) {
                (true, true) => found.push(OutputCase {
                    input: path,
                    answer,
                    output,
                    valid,
                }),
                _ => notes.push(format!(
                    "{}: skipped: an output case needs its .ans and its .out",
                    path.display()
                )),
            }
        }
    }
    found.sort_by(|a, b| a.input.cmp(&b.input));
    found
}

/// The output cases the game's checker judges against the package: each invalid output it
/// accepts and each valid one it rejects, with why (the checker's message, or the case that
/// cannot be read).
pub fn misjudged_outputs(
    package: &Package,
    presentation: crate::status::Presentation,
) -> Result<Vec<String>, PackageError> {
    let game = package.game;
    let read = |path: &Path| {
        corpus::read_case_file(path, 0).map_err(|source| PackageError::Io {
            path: path.to_path_buf(),
            source,
        })
    };
    let mut misjudged = Vec::new();
    for case in &package.output_cases {
        let input = read(&case.input)?;
        let answer = String::from_utf8_lossy(&read(&case.answer)?).into_owned();
        let output = String::from_utf8_lossy(&read(&case.output)?).into_owned();
        let (answers, outputs) = (game.split_output(&answer), game.split_output(&output));
        let mut rejected = None;
        // A package states no variant: its tests are read as the statement says.
        let parsed = game.parse(&input, &crate::game::Reading::STATEMENT);
        for (i, parsed) in parsed.iter().enumerate() {
            let verdict = match &parsed.case {
                Ok(c) => crate::engines::judge_block(
                    game,
                    c.as_ref(),
                    answers
                        .get(i)
                        .map(String::as_str)
                        .ok_or_else(|| format!("{} has no block {}", case.answer.display(), i + 1)),
                    outputs.get(i).map(String::as_str),
                    presentation,
                )
                .map_err(|r| r.to_string()),
                Err(e) => Err(format!("case {}: {e}", i + 1)),
            };
            if let Err(why) = verdict {
                rejected = Some(format!("case {}: {why}", i + 1));
                break;
            }
        }
        match (&rejected, case.valid) {
            (Some(why), true) => misjudged.push(format!(
                "valid output rejected: {}: {why}",
                case.output.display()
            )),
            (None, false) => misjudged.push(format!(
                "invalid output accepted: {} is accepted by {}'s checker",
                case.output.display(),
                game.name()
            )),
            _ => {}
        }
    }
    Ok(misjudged)
}

/// The time limit the rules give for a slowest accepted time of `slowest` seconds: the
/// smallest multiple of the resolution at least `slowest` x `ac_to_time_limit`.
pub fn inferred_limit(rules: &TimeRules, slowest: f64) -> f64 {
    let resolution = if rules.resolution > 0.0 {
        rules.resolution
    } else {
        1.0
    };
    let steps = (slowest * rules.ac_to_time_limit / resolution)
        .ceil()
        .max(1.0);
    steps * resolution
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_rounded_up_to_the_resolution() {
        let rules = TimeRules {
            time_limit: None,
            ac_to_time_limit: 2.0,
            time_limit_to_tle: 1.5,
            resolution: 1.0,
        };
        assert_eq!(inferred_limit(&rules, 0.81), 2.0);
        assert_eq!(inferred_limit(&rules, 0.2), 1.0);
        assert_eq!(inferred_limit(&rules, 1.0), 2.0);
        let fine = TimeRules {
            resolution: 0.1,
            ..rules
        };
        assert!((inferred_limit(&fine, 0.81) - 1.7).abs() < 1e-9);
    }
}
