//! `gamebench stress`: two engines on freshly generated cases until they differ, then the
//! failing input shrunk to a minimal one.
//!
//! Cases come from the game's own generator, file after file (`<game>-<profile>-<seed>-<k>`,
//! k = 0, 1, ...), so a seed always gives the same cases in the same order; the cases of a file
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

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use gamebench_generators::{FileId, GenError};

use crate::atomic::write_atomic;
use crate::engines::{self, FileJob, Limits, Plan};
use crate::external::ExternalError;
use crate::game::{AnyCase, Budget, Game, GameOptions, first_difference};
use crate::results::Timing;
use crate::runner::EngineSpec;
use crate::shrink::{self, Input, Oracle};
use crate::units::human_duration;

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
    /// Time limit of one external program run (one file).
    pub timeout: Duration,
    /// Budget of internal engines (Vexed searches) and of the generator's solver.
    pub budget: Budget,
    /// Output folder; files go to `<out>/<game>/`.
    pub out: PathBuf,
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
    #[error("generated file {index} holds a case the game cannot read")]
    Unreadable { index: u64 },
    #[error("cannot write {}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// What went wrong for one engine on one case (or on its whole file, for a program).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The engine reported an error, or the program failed.
    Error(String),
    /// The program ran past `--timeout`.
    Timeout(String),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Error(m) | Fault::Timeout(m) => f.write_str(m),
        }
    }
}

/// Why a case fails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The checker rejected one engine's output against the other's; the message names the
    /// first differing line.
    Differ(String),
    /// Engine `engine` (0 or 1) failed.
    Fault { engine: usize, fault: Fault },
}

impl Failure {
    /// Whether `other` is the same kind of failure: a difference, or the same fault (error or
    /// timeout) of the same engine. Shrinking keeps the kind.
    pub fn same_kind(&self, other: &Failure) -> bool {
        match (self, other) {
            (Failure::Differ(_), Failure::Differ(_)) => true,
            (
                Failure::Fault {
                    engine: a,
                    fault: fa,
                },
                Failure::Fault {
                    engine: b,
                    fault: fb,
                },
            ) => {
                a == b
                    && matches!(
                        (fa, fb),
                        (Fault::Error(_), Fault::Error(_)) | (Fault::Timeout(_), Fault::Timeout(_))
                    )
            }
            _ => false,
        }
    }

    /// One line: what failed.
    pub fn describe(&self, engines: &[EngineSpec; 2]) -> String {
        match self {
            Failure::Differ(why) => format!(
                "{} and {} differ: {why}",
                engines[0].name(),
                engines[1].name()
            ),
            Failure::Fault { engine, fault } => {
                let what = match fault {
                    Fault::Error(_) => "failed",
                    Fault::Timeout(_) => "timed out",
                };
                format!("{} {what}: {fault}", engines[*engine].name())
            }
        }
    }
}

/// Both engines' results on an input, and each case's failure.
pub struct Judged {
    /// Per engine, per case: the output block or the fault.
    pub outputs: [Vec<Result<String, Fault>>; 2],
    pub failures: Vec<Option<Failure>>,
    /// Whether a program failed on the whole file (then every case carries its fault, and a
    /// batch says nothing about single candidates).
    pub whole_file_fault: bool,
}

impl Judged {
    /// The first failing case: its position and failure.
    pub fn first_failure(&self) -> Option<(usize, &Failure)> {
        self.failures
            .iter()
            .enumerate()
            .find_map(|(i, f)| f.as_ref().map(|f| (i, f)))
    }
}

/// Judges inputs with the two engines of a [`Config`].
pub struct Judge<'a> {
    game: &'static dyn Game,
    engines: &'a [EngineSpec; 2],
    timeout: Duration,
    budget: Budget,
}

impl<'a> Judge<'a> {
    pub fn new(config: &'a Config<'_>) -> Judge<'a> {
        Judge {
            game: config.game,
            engines: &config.engines,
            timeout: config.timeout,
            budget: config.budget,
        }
    }

    /// One engine on every case of `input` (a program once, on the whole file); `Err` only
    /// when a program cannot start at all. The flag says a program failed on the whole file.
    fn run(
        &self,
        engine: &EngineSpec,
        input: &Input,
    ) -> Result<(Vec<Result<String, Fault>>, bool), StressError> {
        let job = FileJob {
            game: self.game,
            bytes: input.text.as_bytes(),
            cases: &input.cases,
            first: 0,
        };
        let plan = Plan::once(
            self.budget,
            Limits {
                timeout: self.timeout,
                case_timeout: None,
            },
        );
        let mut whole_file = false;
        let mut outputs = Vec::with_capacity(input.cases.len());
        for run in engine.executor().run_file(&job, &plan) {
            outputs.push(match run.result {
                Ok(answer) => Ok(answer.output),
                // A case the program printed nothing for gets an empty block: the checker
                // then rejects it as a difference.
                Err(engines::Fault::NoOutput) => Ok(String::new()),
                Err(engines::Fault::CannotStart(source)) => {
                    return Err(StressError::CannotStart {
                        engine: engine.name().to_string(),
                        source,
                    });
                }
                Err(fault) => {
                    whole_file |= run.timing == Timing::File;
                    Err(match fault {
                        engines::Fault::Timeout(e) => Fault::Timeout(e.to_string()),
                        other => Fault::Error(other.to_string()),
                    })
                }
            });
        }
        Ok((outputs, whole_file))
    }

    /// Whether one of the engines is an external program.
    pub fn has_program(&self) -> bool {
        self.engines.iter().any(EngineSpec::is_program)
    }

    /// [`Judge::judge`] of each input, on one thread each.
    pub fn judge_all(&self, inputs: &[Input]) -> Vec<Result<Judged, StressError>> {
        if inputs.len() == 1 {
            return vec![self.judge(&inputs[0])];
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> = inputs
                .iter()
                .map(|input| scope.spawn(move || self.judge(input)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a judging thread does not panic"))
                .collect()
        })
    }

    /// Both engines on `input`, and each case's failure.
    pub fn judge(&self, input: &Input) -> Result<Judged, StressError> {
        let (a, whole_a) = self.run(&self.engines[0], input)?;
        let (b, whole_b) = self.run(&self.engines[1], input)?;
        let failures = input
            .cases
            .iter()
            .enumerate()
            .map(|(i, parsed)| {
                let case = parsed.case.as_ref().ok()?.as_ref();
                self.compare(case, &a[i], &b[i])
            })
            .collect();
        Ok(Judged {
            outputs: [a, b],
            failures,
            whole_file_fault: whole_a || whole_b,
        })
    }

    fn compare(
        &self,
        case: &AnyCase,
        a: &Result<String, Fault>,
        b: &Result<String, Fault>,
    ) -> Option<Failure> {
        let (a, b) = match (a, b) {
            (Err(fault), _) => {
                return Some(Failure::Fault {
                    engine: 0,
                    fault: fault.clone(),
                });
            }
            (_, Err(fault)) => {
                return Some(Failure::Fault {
                    engine: 1,
                    fault: fault.clone(),
                });
            }
            (Ok(a), Ok(b)) => (a, b),
        };
        // Both ways: a checker that replays (Vexed) accepts any minimum solution, so each
        // output must pass against the other.
        let one_way = self.game.check(case, a, b).err().map(|why| {
            format!(
                "{} against {}: {why}",
                self.engines[1].name(),
                self.engines[0].name()
            )
        });
        one_way
            .or_else(|| {
                self.game.check(case, b, a).err().map(|why| {
                    format!(
                        "{} against {}: {why}",
                        self.engines[0].name(),
                        self.engines[1].name()
                    )
                })
            })
            .map(Failure::Differ)
    }

    /// Whether `input` fails like `target`.
    fn fails_like(&self, input: &Input, target: &Failure) -> Result<bool, StressError> {
        Ok(self
            .judge(input)?
            .failures
            .iter()
            .flatten()
            .any(|f| f.same_kind(target)))
    }
}

/// Candidates (or generated files) judged at once when each needs its own program runs.
pub const PARALLEL_RUNS: usize = 4;

/// The shrinking oracle: a candidate still fails when it fails like the original.
struct StressOracle<'j, 'a> {
    judge: &'j Judge<'a>,
    target: Failure,
    /// Whether a candidate a batch picks is judged again alone before it is accepted. Off,
    /// the shrunk input is checked alone at the end, and shrinking starts over with it on if
    /// it does not fail there (a program that carries state from case to case).
    confirm: bool,
    /// The first error of a program that stopped starting mid-way (ends the shrink).
    error: Option<StressError>,
}

impl StressOracle<'_, '_> {
    fn fails(&mut self, input: &Input) -> bool {
        self.first_of(std::slice::from_ref(input)).is_some()
    }

    /// The first of `inputs` that fails like the target, each judged alone; programs run
    /// [`PARALLEL_RUNS`] at a time (a game with one case per file pays a process per
    /// candidate), the answer is the same as one by one.
    fn first_of(&mut self, inputs: &[Input]) -> Option<usize> {
        // Internal engines gain nothing from threads here: candidates are small.
        let width = if self.judge.has_program() {
            PARALLEL_RUNS
        } else {
            1
        };
        for (w, window) in inputs.chunks(width).enumerate() {
            if self.error.is_some() {
                return None;
            }
            let judge = self.judge;
            let target = &self.target;
            let results: Vec<Result<bool, StressError>> = std::thread::scope(|scope| {
                let handles: Vec<_> = window
                    .iter()
                    .map(|input| scope.spawn(move || judge.fails_like(input, target)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a judging thread does not panic"))
                    .collect()
            });
            for (k, result) in results.into_iter().enumerate() {
                match result {
                    Ok(true) => return Some(w * width + k),
                    Ok(false) => {}
                    Err(e) => {
                        self.error = Some(e);
                        return None;
                    }
                }
            }
        }
        None
    }

    /// Judges single-case candidates in one file; `None` when that cannot tell (a program
    /// failed on the whole batch).
    fn batch(&mut self, candidates: &[Input]) -> Option<Vec<usize>> {
        let game = self.judge.game;
        let cases: Vec<&AnyCase> = candidates.iter().flat_map(|c| c.typed()).collect();
        let batch = Input::read(game, game.editor().write_input(&cases))?;
        if batch.cases.len() != candidates.len() {
            return None;
        }
        let judged = match self.judge.judge(&batch) {
            Ok(judged) => judged,
            Err(e) => {
                self.error = Some(e);
                return Some(Vec::new());
            }
        };
        if judged.whole_file_fault {
            return None;
        }
        Some(
            judged
                .failures
                .iter()
                .enumerate()
                .filter(|(_, f)| f.as_ref().is_some_and(|f| f.same_kind(&self.target)))
                .map(|(i, _)| i)
                .collect(),
        )
    }
}

impl Oracle for StressOracle<'_, '_> {
    fn first_failing(&mut self, candidates: &[Input]) -> Option<usize> {
        let game = self.judge.game;
        let batchable = candidates.len() > 1
            && candidates.len() <= game.editor().max_cases()
            && candidates.iter().all(|c| c.cases.len() == 1)
            && self.judge.has_program();
        if batchable && let Some(failing) = self.batch(candidates) {
            if !self.confirm {
                return failing.first().copied();
            }
            return failing.into_iter().find(|&i| self.fails(&candidates[i]));
        }
        self.first_of(candidates)
    }
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
    let text = game
        .generator()
        .generate(
            &file,
            config.options,
            game.default_engine().name(),
            &config.budget,
        )
        .map_err(|source| StressError::Generate { index, source })?;
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

/// A file-name-safe form of an engine label (`cmd:python3 x.py` -> `cmd_python3_x.py`).
fn file_label(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn write(path: &Path, text: &str) -> Result<PathBuf, StressError> {
    write_atomic(path, text.as_bytes()).map_err(|source| StressError::Write {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(path.to_path_buf())
}

/// Writes `<out>/<game>/stress-<seed>.in` (the original), `stress-<seed>-min.in` (shrunk),
/// each engine's output on the shrunk input (`stress-<seed>-min.<engine>.out`) and the report
/// (`stress-<seed>.txt`, with the first differing line).
fn write_files(config: &Config<'_>, found: &Found) -> Result<Vec<PathBuf>, StressError> {
    let dir = config.out.join(config.game.name());
    std::fs::create_dir_all(&dir).map_err(|source| StressError::Write {
        path: dir.clone(),
        source,
    })?;
    let stem = format!("stress-{}", config.seed);
    let mut files = vec![
        write(&dir.join(format!("{stem}.in")), &found.original.text)?,
        write(&dir.join(format!("{stem}-min.in")), &found.shrunk.text)?,
    ];
    let labels = config.engines.each_ref().map(|e| file_label(e.name()));
    for (k, output) in found.shrunk_outputs.iter().enumerate() {
        let label = if labels[0] == labels[1] {
            format!("{}-{}", k + 1, labels[k])
        } else {
            labels[k].clone()
        };
        let text = match output {
            Ok(text) => text.clone(),
            Err(fault) => format!("{fault}\n"),
        };
        files.push(write(&dir.join(format!("{stem}-min.{label}.out")), &text)?);
    }
    files.push(write(
        &dir.join(format!("{stem}.txt")),
        &report(config, found),
    )?);
    Ok(files)
}

/// The report of a difference found (printed, and written beside the inputs).
pub fn report(config: &Config<'_>, found: &Found) -> String {
    let game = config.game;
    let engines = &config.engines;
    let first_line = match &found.shrunk_outputs {
        [Ok(a), Ok(b)] => first_difference(a, b).map_or_else(
            || found.shrunk_failure.describe(engines),
            |d| format!("{} vs {}: {d}", engines[0].name(), engines[1].name()),
        ),
        _ => found.shrunk_failure.describe(engines),
    };
    format!(
        "{game}: {fail}\n\
         found after {tried} case(s) in {search} (seed {seed}, generated file {file}, case {case})\n\
         shrunk in {steps} step(s), {candidates} candidate(s), {shrink}:\n\
         \x20 before: {before}\n\
         \x20 after:  {after}\n\
         on the shrunk input: {shrunk_fail}\n\
         first differing line on the shrunk input: {first_line}\n",
        game = game.name(),
        fail = found.original_failure.describe(engines),
        tried = found.cases_tried,
        search = human_duration(found.search_time),
        seed = config.seed,
        file = found.file_index,
        case = found.case_index + 1,
        steps = found.shrink_steps,
        candidates = found.shrink_candidates,
        shrink = human_duration(found.shrink_time),
        before = found.original.describe(game),
        after = found.shrunk.describe(game),
        shrunk_fail = found.shrunk_failure.describe(engines),
    )
}
