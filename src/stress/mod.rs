//! `gamebench stress`: two engines on freshly generated cases until they differ, then the
//! failing input shrunk to a minimal one.
//!
//! Cases come from the game's own generator, file after file (`<game>-<profile>-<seed>-<k>`,
//! k = 0, 1, ...), or from an external one (`--generator`, [`crate::gencmd`]: file k is its
//! output for seed `seed + k`), so a seed always gives the same cases in the same order; the cases of a file
//! are the steps, counted one by one against `--cases`. Both engines judge each file (an
//! external program once per file); a case fails when one engine errors, crashes or times out,
//! or when the game's checker rejects one output against the other (byte equality; for Vexed the
//! replaying checker, both ways, so an illegal, non-clearing or longer solution fails).
//!
//! The first failing case is isolated: alone in a file if it fails alone, else with the cases
//! before it (a program that carries state from case to case). That input is shrunk
//! ([`crate::shrink`]) while it keeps failing the same way: a difference stays a difference, a
//! crash of engine X stays a crash of X. Candidates are judged in batches, one file of many
//! candidates per external run, and the one a batch picks is confirmed alone.
//!
//! Nothing here is game-specific: generation, parsing, checking and shrinking go through the
//! [`Game`] and its [`crate::shrink::CaseEditor`].

mod files;
mod judge;
mod oracle;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use gamebench_generators::{FileId, GenError};

use crate::engines::Limits;
use crate::external::ExternalError;
use crate::game::{Budget, Game, GameOptions};
use crate::gencmd::{ExternalGenerator, GeneratorError};
use crate::runner::EngineSpec;
use crate::shrink::{self, Input};
use crate::status::Presentation;

/// When the search for a difference stops.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Limit {
    /// After this much wall time (checked between generated files).
    Time(Duration),
    /// After this many cases.
    Cases(u64),
}

/// What `stress` runs.
pub struct Config<'a> {
    pub game: &'static dyn Game,
    /// The two engines held against each other; the first is the one the other is checked
    /// against.
    pub engines: [EngineSpec; 2],
    pub profile: String,
    /// The game's own generator options.
    pub options: &'a GameOptions,
    pub seed: u64,
    pub limit: Limit,
    /// Limits of one external program run (one file): `--timeout` and the judge's limits.
    pub limits: Limits,
    /// Budget of internal engines (Vexed searches) and of the generator's solver.
    pub budget: Budget,
    /// Output folder; files go to `<out>/<game>/`.
    pub out: PathBuf,
    /// What a presentation error between the two engines counts as.
    pub presentation: Presentation,
    /// An external generator instead of the game's own (`--generator`): file `k` is its
    /// output for seed `seed + k`, validated.
    pub generator: Option<ExternalGenerator>,
}

/// Why `stress` could not do its work (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum StressError {
    #[error("engine {engine}: {source}")]
    CannotStart {
        engine: String,
        #[source]
        source: ExternalError,
    },
    #[error("generating file {index}: {source}")]
    Generate {
        index: u64,
        #[source]
        source: GenError,
    },
    #[error(transparent)]
    ExternalGenerator(#[from] GeneratorError),
    #[error("generated file {index} holds a case the game cannot read")]
    Unreadable { index: u64 },
    #[error("cannot write {}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// A difference found and shrunk.
pub struct Found {
    /// Cases judged up to and including the failing one.
    pub cases_tried: u64,
    /// Time until the difference was found.
    pub search_time: Duration,
    /// Which generated file and case (0-based) failed first.
    pub file_index: u64,
    pub case_index: usize,
    pub original: Input,
    pub original_failure: Failure,
    pub shrunk: Input,
    pub shrunk_failure: Failure,
    /// Both engines' outputs on the shrunk input (the file's blocks joined), or their fault.
    pub shrunk_outputs: [Result<String, Fault>; 2],
    pub shrink_steps: usize,
    pub shrink_candidates: usize,
    pub shrink_time: Duration,
    /// The files written.
    pub files: Vec<PathBuf>,
}

/// How a stress run ended.
pub enum Outcome {
    /// The budget ran out with no difference (exit 0).
    NoDifference { cases_tried: u64, time: Duration },
    /// A difference (exit 1).
    Found(Box<Found>),
}

/// The generated file `index` as an input, cut to at most `keep` cases.
fn generated(config: &Config<'_>, index: u64, keep: u64) -> Result<Input, StressError> {
    let game = config.game;
    let file = FileId {
        game: game.name(),
        profile: &config.profile,
        seed: config.seed,
        index,
    };
    let text = match &config.generator {
        Some(external) => {
            external.generate(game, ExternalGenerator::seed_of(config.seed, index))?
        }
        None => game
            .generator()
            .generate(
                &file,
                config.options,
                game.default_engine().name(),
                &config.budget,
            )
            .map_err(|source| StressError::Generate { index, source })?,
    };
    let input = Input::read(game, text).ok_or(StressError::Unreadable { index })?;
    if (input.cases.len() as u64) <= keep {
        return Ok(input);
    }
    let cases = input.typed();
    let kept = &cases[..keep as usize];
    Input::read(game, game.editor().write_input(kept)).ok_or(StressError::Unreadable { index })
}

/// The smallest input around the first failing case `at` of `input` that fails like
/// `failure`: the case alone, else the cases up to it, else the whole file.
fn isolate(
    judge: &Judge<'_>,
    input: Input,
    at: usize,
    failure: &Failure,
) -> Result<Input, StressError> {
    let game = judge.game;
    let cases = input.typed();
    for candidate in [&cases[at..=at], &cases[..=at]] {
        if candidate.len() == cases.len() {
            break;
        }
        if let Some(smaller) = Input::read(game, game.editor().write_input(candidate))
            && judge.fails_like(&smaller, failure)?
        {
            return Ok(smaller);
        }
    }
    Ok(input)
}

/// Runs the stress loop of `config`.
pub fn run(config: &Config<'_>) -> Result<Outcome, StressError> {
    let start = Instant::now();
    let judge = Judge::new(config);
    // Files judged at once: a program costs a process per file (Yut: per case), so several
    // run side by side; the first failing case in file order wins, as one by one.
    let width = if judge.has_program() {
        PARALLEL_RUNS
    } else {
        1
    };
    let mut tried: u64 = 0;
    let mut index: u64 = 0;
    loop {
        let mut window = Vec::with_capacity(width);
        let mut planned = tried;
        while window.len() < width {
            let left = match config.limit {
                Limit::Time(limit) if start.elapsed() >= limit => break,
                Limit::Time(_) => u64::MAX,
                Limit::Cases(n) if planned >= n => break,
                Limit::Cases(n) => n - planned,
            };
            let input = generated(config, index + window.len() as u64, left)?;
            planned += input.cases.len() as u64;
            window.push(input);
        }
        if window.is_empty() {
            break;
        }
        let judged = judge.judge_all(&window);
        for (k, (input, judged)) in window.into_iter().zip(judged).enumerate() {
            let judged = judged?;
            let Some((at, failure)) = judged.first_failure() else {
                tried += input.cases.len() as u64;
                continue;
            };
            let failure = failure.clone();
            tried += at as u64 + 1;
            let search = Search {
                cases_tried: tried,
                search_time: start.elapsed(),
                file_index: index + k as u64,
                case_index: at,
            };
            let original = isolate(&judge, input, at, &failure)?;
            return found(config, &judge, original, failure, search)
                .map(|f| Outcome::Found(Box::new(f)));
        }
        index += width as u64;
    }
    Ok(Outcome::NoDifference {
        cases_tried: tried,
        time: start.elapsed(),
    })
}

/// How the failing case was found (see the fields of [`Found`]).
struct Search {
    cases_tried: u64,
    search_time: Duration,
    file_index: u64,
    case_index: usize,
}

/// Shrinks the failing `original` and writes the files.
fn found(
    config: &Config<'_>,
    judge: &Judge<'_>,
    original: Input,
    failure: Failure,
    search: Search,
) -> Result<Found, StressError> {
    let game = config.game;
    let shrink_start = Instant::now();
    // The original as the game writes it (the shrink's steps are all written so), or as it
    // came if it did not read back.
    let written = || {
        Input::read(game, game.editor().write_input(&original.typed()))
            .or_else(|| Input::read(game, original.text.clone()))
            .expect("the original was read from this very text")
    };
    let mut shrunk = None;
    for confirm in [false, true] {
        let mut oracle = StressOracle {
            judge,
            target: failure.clone(),
            confirm,
            error: None,
        };
        let result = shrink::shrink(game, written(), &mut oracle);
        if let Some(e) = oracle.error {
            return Err(e);
        }
        let fails_alone = judge.fails_like(&result.input, &failure)?;
        let steps = shrunk.as_ref().map_or(0, |s: &shrink::Shrunk| s.steps);
        let tried = shrunk.as_ref().map_or(0, |s: &shrink::Shrunk| s.tried);
        shrunk = Some(shrink::Shrunk {
            steps: steps + result.steps,
            tried: tried + result.tried,
            input: result.input,
        });
        if fails_alone {
            break;
        }
    }
    let shrunk = shrunk.expect("shrunk at least once");
    let shrink_time = shrink_start.elapsed();
    let judged = judge.judge(&shrunk.input)?;
    let shrunk_failure = judged
        .failures
        .iter()
        .flatten()
        .find(|f| f.same_kind(&failure))
        .cloned()
        .unwrap_or_else(|| failure.clone());
    let [a, b] = judged.outputs;
    let joined = |blocks: Vec<Result<String, Fault>>| -> Result<String, Fault> {
        let blocks: Vec<String> = blocks.into_iter().collect::<Result<_, _>>()?;
        let refs: Vec<&str> = blocks.iter().map(String::as_str).collect();
        Ok(game.join(&refs))
    };
    let shrunk_outputs = [joined(a), joined(b)];
    let mut found = Found {
        cases_tried: search.cases_tried,
        search_time: search.search_time,
        file_index: search.file_index,
        case_index: search.case_index,
        original,
        original_failure: failure,
        shrunk: shrunk.input,
        shrunk_failure,
        shrunk_outputs,
        shrink_steps: shrunk.steps,
        shrink_candidates: shrunk.tried,
        shrink_time,
        files: Vec::new(),
    };
    found.files = write_files(config, &found)?;
    Ok(found)
}

pub use files::report;
use files::write_files;
pub use judge::{Failure, Fault, Judge, Judged};
pub use oracle::PARALLEL_RUNS;
use oracle::StressOracle;
