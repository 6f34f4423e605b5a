//! `gamebench stress`: two engines on freshly generated cases until they differ, then the
//! failing input shrunk to a minimal one.
//!
//! Cases come from the game's own generator, file after file (`<game>-<profile>-<seed>-<k>`,
//! k = 0, 1, ...), or from an external one (`--generator`, [`crate::engines::gencmd`]: file k is its
//! output for seed `seed + k`), so a seed always gives the same cases in the same order; the cases of a file
//! are the steps, counted one by one against `--cases`. Both engines judge each file (an
//! external program once per file); a case fails when one engine errors, crashes or times out,
//! or when the game's checker rejects one output against the other (byte equality; for Vexed the
//! replaying checker, both ways, so an illegal, non-clearing or longer solution fails).
//!
//! The first failing case is isolated: alone in a file if it fails alone, else with the cases
//! before it (a program that carries state from case to case). That input is shrunk
//! ([`crate::shrink`]) while it keeps failing the same way ([`Class`]: the same engine, a crash
//! stays a crash, a timeout a timeout, a wrong answer a wrong answer whose first differing line
//! sits in the same place). Candidates are judged in batches, one file of many candidates per
//! external run, and the one a batch picks is confirmed alone; a candidate's programs run under
//! a timeout adapted to the failing run ([`candidate_timeout`]).
//!
//! With `--tests` ([`given`]) the cases are given test files (a folder, a package) instead,
//! judged file by file until the first difference, which is shrunk as `gamebench shrink` does.
//!
//! Every input generated, isolated or shrunk is fair ([`Input::is_fair`]): the game's strict
//! validator accepts it and each case is admissible, so what `stress` writes is a case a judge
//! could give.
//!
//! `--time` is one deadline for the whole command: generation (the generator's solver), every
//! engine run and every shrink candidate stop at it; a shrink cut short keeps the smallest
//! failing input found. A signal (SIGINT, SIGTERM) stops the programs through the executor's
//! stop flag, and what was found so far is written the same way.
//!
//! Nothing here is game-specific: generation, parsing, checking and shrinking go through the
//! [`Game`] and its [`crate::shrink::CaseEditor`].

pub mod detached;
mod failure;
mod files;
pub mod given;

pub use given::shrink_given;
mod judge;
mod oracle;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use gamebench_generators::{FileId, GenError};

use crate::engines::Limits;
use crate::engines::gencmd::{ExternalGenerator, GeneratorError};
use crate::external::ExternalError;
use crate::game::{Budget, Game, GameOptions, Lent, Reading};
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
#[derive(Clone)]
pub struct Config<'a> {
    pub game: &'static dyn Game,
    /// How the game reads every input (generated, given, shrunk): `--zero-pair`.
    pub reading: Reading,
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
    /// Generated files judged at once, side by side (`-j`): a program costs a process per file
    /// (Yut: per case). The result is the same whatever the count.
    pub jobs: usize,
    /// An external generator instead of the game's own (`--generator`): file `k` is its
    /// output for seed `seed + k`, validated.
    pub generator: Option<ExternalGenerator>,
    /// The given input `gamebench shrink` shrinks (its path as named), instead of generated
    /// cases: the report and the files are named after it.
    pub given: Option<PathBuf>,
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
    #[error("{}: a case of the file cannot be read: {why}", path.display())]
    UnreadableGiven { path: PathBuf, why: String },
    #[error("{}: no case {case} (the file has {cases})", path.display())]
    NoSuchCase {
        path: PathBuf,
        case: usize,
        cases: usize,
    },
    #[error("generated file {index} is not a valid input: {violation}")]
    Invalid { index: u64, violation: String },
    /// The deadline (`--time`) passed: not an error of the command, the search ends.
    #[error("out of time")]
    OutOfTime,
    /// A signal asked to stop: not an error of the command, what was found is written.
    #[error("stopped by a signal")]
    Stopped,
    #[error("cannot write {}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A file to write is the given input (`shrink`), refused before any work.
    #[error(transparent)]
    LandsOnInput(crate::util::atomic::LandsOnInput),
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
    /// Both engines' outputs on the shrunk input (the file's blocks joined), or why there is
    /// none (a fault, or no time left to run it).
    pub shrunk_outputs: [Result<String, String>; 2],
    pub shrink_steps: usize,
    /// Whether the shrink reached a fixpoint (else the deadline or a signal cut it short, and
    /// `shrunk` is the smallest failing input found until then).
    pub shrink_complete: bool,
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
    /// A signal stopped it (exit 130 or 143): the difference found, if any, is written, shrunk
    /// as far as it got.
    Stopped {
        cases_tried: u64,
        time: Duration,
        found: Option<Box<Found>>,
    },
}

/// The generated file `index` as an input, cut to at most `keep` cases; the generator's solver
/// gives up at the deadline ([`StressError::OutOfTime`]). A file the game's validator refuses
/// is a generator's fault, reported ([`StressError::Invalid`]), never stressed.
fn generated(
    config: &Config<'_>,
    index: u64,
    keep: u64,
    deadline: Option<Instant>,
) -> Result<Input, StressError> {
    let game = config.game;
    let file = FileId {
        game: game.name(),
        profile: &config.profile,
        seed: config.seed,
        index,
    };
    let past = || deadline.is_some_and(|d| Instant::now() >= d);
    let text = match &config.generator {
        // A command's output: its own errors (exit, timeout) are the generator's.
        Some(external) => {
            if judge::stop_requested() {
                return Err(StressError::Stopped);
            }
            external.generate(game, ExternalGenerator::seed_of(config.seed, index))?
        }
        None => match game.generator().generate(
            &file,
            config.options,
            &Lent::new(game.default_engine().name(), config.budget.clone())
                .until(deadline)
                .read_as(config.reading.clone()),
        ) {
            Ok(_) | Err(_) if judge::stop_requested() => return Err(StressError::Stopped),
            Err(_) if past() => return Err(StressError::OutOfTime),
            Ok(text) => text,
            Err(source) => return Err(StressError::Generate { index, source }),
        },
    };
    let reading = &config.reading;
    let mut input = Input::read(game, text, reading).ok_or(StressError::Unreadable { index })?;
    if (input.cases.len() as u64) > keep {
        let cases = input.typed();
        let kept = &cases[..keep as usize];
        input = Input::read(game, game.editor().write_input(kept), reading)
            .ok_or(StressError::Unreadable { index })?;
    }
    if let Some(v) = game.validate(input.text.as_bytes()).violations.first() {
        return Err(StressError::Invalid {
            index,
            violation: v.to_string(),
        });
    }
    Ok(input)
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
        if let Some(smaller) = shrink::candidate(game, candidate, &input.reading)
            && judge.fails_like(&smaller, failure, judge.timeout())?
        {
            return Ok(smaller);
        }
    }
    Ok(input)
}

/// Runs the stress loop of `config`.
pub fn run(config: &Config<'_>) -> Result<Outcome, StressError> {
    let start = Instant::now();
    let deadline = match config.limit {
        Limit::Time(limit) => Some(start + limit),
        Limit::Cases(_) => None,
    };
    let judge = Judge::new(config, deadline);
    // Files judged at once (`-j`); the first failing case in file order wins, as one by one.
    let width = config.jobs.max(1);
    let mut tried: u64 = 0;
    let mut index: u64 = 0;
    let halt = |error: StressError, tried: u64| match error {
        StressError::OutOfTime => Ok(Outcome::NoDifference {
            cases_tried: tried,
            time: start.elapsed(),
        }),
        StressError::Stopped => Ok(Outcome::Stopped {
            cases_tried: tried,
            time: start.elapsed(),
            found: None,
        }),
        other => Err(other),
    };
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
            match generated(config, index + window.len() as u64, left, deadline) {
                Ok(input) => {
                    planned += input.cases.len() as u64;
                    window.push(input);
                }
                Err(e) => return halt(e, tried),
            }
        }
        if window.is_empty() {
            break;
        }
        let judged = judge.judge_all(&window);
        for (k, (input, judged)) in window.into_iter().zip(judged).enumerate() {
            let judged = match judged {
                Ok(judged) => judged,
                Err(e) => return halt(e, tried),
            };
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
                elapsed: judged.elapsed,
            };
            let original = match isolate(&judge, input, at, &failure) {
                Ok(original) => original,
                Err(StressError::OutOfTime | StressError::Stopped) => {
                    // Not isolated in time: the whole file is what fails.
                    generated(config, search.file_index, u64::MAX, None)?
                }
                Err(e) => return Err(e),
            };
            return finish(config, &judge, search, original, failure, start);
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
    /// Each engine's wall time on the failing file.
    elapsed: [Duration; 2],
}

/// Shrinks the failing input `original` (isolated, or the whole failing file when it could
/// not be isolated in time), writes the files, and says how the run ended.
fn finish(
    config: &Config<'_>,
    judge: &Judge<'_>,
    search: Search,
    original: Input,
    failure: Failure,
    start: Instant,
) -> Result<Outcome, StressError> {
    let cases_tried = search.cases_tried;
    let found = found(config, judge, original, failure, search)?;
    if judge::stop_requested() {
        return Ok(Outcome::Stopped {
            cases_tried,
            time: start.elapsed(),
            found: Some(Box::new(found)),
        });
    }
    Ok(Outcome::Found(Box::new(found)))
}

/// Time the last judging of the shrunk input may take past the deadline: its outputs are what
/// the report shows, and the input is small.
pub const REPORT_GRACE: Duration = Duration::from_secs(2);
/// Shortest interval between two progress lines of a shrink on a terminal...
const PROGRESS_EVERY: Duration = Duration::from_secs(1);
/// ...and in a log (stderr not a terminal).
const LOG_EVERY: Duration = Duration::from_secs(10);

/// A progress line of a shrink on stderr, at most one per [`PROGRESS_EVERY`] on a terminal
/// (per [`LOG_EVERY`] in a log), and always the first.
fn shrink_progress(game: &'static dyn Game) -> impl FnMut(&shrink::Step<'_>) {
    let every = if std::io::stderr().is_terminal() {
        PROGRESS_EVERY
    } else {
        LOG_EVERY
    };
    let mut last: Option<Instant> = None;
    move |step: &shrink::Step<'_>| {
        if last.is_some_and(|t| t.elapsed() < every) {
            return;
        }
        last = Some(Instant::now());
        eprintln!(
            "{}: shrinking: step {}, {} candidate(s) tried, now {}",
            game.name(),
            step.steps,
            step.tried,
            step.current.describe(game)
        );
    }
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
        shrink::candidate(game, &original.typed(), &original.reading)
            .or_else(|| Input::read(game, original.text.clone(), &original.reading))
            .expect("the original was read from this very text")
    };
    // The failing engine's time on the failing file bounds a candidate's runs.
    let timeout = candidate_timeout(search.elapsed[failure.class.engine], judge.timeout());
    let mut progress = shrink_progress(game);
    let mut shrunk: Option<shrink::Shrunk> = None;
    for confirm in [false, true] {
        let mut oracle = StressOracle {
            judge,
            target: failure.clone(),
            confirm,
            timeout,
            error: None,
        };
        let result = shrink::shrink_with(game, written(), &mut oracle, &mut progress);
        let halted = match oracle.error {
            None => false,
            Some(StressError::OutOfTime | StressError::Stopped) => true,
            Some(e) => return Err(e),
        };
        let fails_alone = !halted
            && match judge.fails_like(&result.input, &failure, timeout) {
                Ok(fails) => fails,
                Err(StressError::OutOfTime | StressError::Stopped) => false,
                Err(e) => return Err(e),
            };
        let steps = shrunk.as_ref().map_or(0, |s| s.steps);
        let tried = shrunk.as_ref().map_or(0, |s| s.tried);
        // A shrink without confirmation may have drifted to a candidate that only fails beside
        // others: the second pass, with confirmation, starts over from the original then.
        shrunk = Some(shrink::Shrunk {
            steps: steps + result.steps,
            tried: tried + result.tried,
            input: result.input,
            complete: result.complete && !halted,
        });
        if fails_alone || halted {
            break;
        }
    }
    let shrunk = shrunk.expect("shrunk at least once");
    let shrink_time = shrink_start.elapsed();
    let mut last = judge.clone();
    last.deadline = judge.deadline.map(|d| d.max(Instant::now()) + REPORT_GRACE);
    let (shrunk_failure, shrunk_outputs) = match last.judge_within(&shrunk.input, timeout) {
        Ok(judged) => {
            let shrunk_failure = judged
                .failures
                .iter()
                .flatten()
                .find(|f| f.same_kind(&failure))
                .or(judged.first_failure().map(|(_, f)| f))
                .cloned()
                .unwrap_or_else(|| failure.clone());
            let [a, b] = judged.outputs;
            let joined = |blocks: Vec<Result<String, Fault>>| -> Result<String, String> {
                let blocks: Vec<String> = blocks
                    .into_iter()
                    .collect::<Result<_, _>>()
                    .map_err(|f| f.to_string())?;
                let refs: Vec<&str> = blocks.iter().map(String::as_str).collect();
                Ok(game.join(&refs))
            };
            (shrunk_failure, [joined(a), joined(b)])
        }
        Err(e @ (StressError::OutOfTime | StressError::Stopped)) => {
            let why = format!("not run on the shrunk input: {e}");
            (failure.clone(), [Err(why.clone()), Err(why)])
        }
        Err(e) => return Err(e),
    };
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
        shrink_complete: shrunk.complete,
        shrink_time,
        files: Vec::new(),
    };
    found.files = write_files(config, &found)?;
    Ok(found)
}

pub use failure::{Class, Failure, Fault, Kind, LineClass};
pub use files::report;
use files::write_files;
pub use judge::{Judge, Judged};
use oracle::StressOracle;
pub use oracle::{CANDIDATE_TIME_FACTOR, CANDIDATE_TIME_MARGIN, PARALLEL_RUNS, candidate_timeout};
