//! `invoke`: every solution of a problem on every test, as a problem setter's judge does it
//! (Polygon's "invocations"): the verdict table, the check of each solution's tag, the
//! strength of the test set, and the selected subset of tests.
//!
//! A test is one case of a `.in` file: a row per (file, case), since the games' files hold
//! several cases. Programs run as the executor runs them (once per file, or case by case under
//! a per-case limit): a program run on a whole file gives each of its cases its memory and an
//! even share of its time, the run's whole time kept for the limits (a failure of the whole
//! file is charged to the case that fails alone). Times are on the clock of the limit: CPU
//! time under a CPU limit, else wall time. The expected block of a case comes from `X.out`,
//! or, without one, from the solution tagged `main`.
//!
//! - [`attribute`]: a whole file's failure charged to the case that fails alone;
//! - [`verdict`]: a cell's verdict from the executor's result, and the checkers;
//! - [`tags`]: the tags and their check; [`strength`]: kills, useless tests, the cover;
//! - [`table`]: the terminal, Markdown, CSV and JSON renderings; [`junit`]: JUnit XML;
//! - [`problem`]: the problem file; [`select`]: the subset written as a folder;
//! - [`report`]: the invocation in the HTML report, and invoke's CSV read back for it.
//!
//! Invariants: cells are in (test, solution) order whatever the thread count; every file
//! is of one game; at most one solution is `main`.

pub mod attribute;
pub mod junit;
pub mod problem;
pub mod report;
pub mod select;
pub mod strength;
pub mod table;
pub mod tags;
pub mod verdict;

use std::path::PathBuf;

use rayon::prelude::*;

use crate::corpus::{self, CaseFile};
use crate::engines::startup;
use crate::engines::{CaseRun, EngineSpec, FileJob, Limits, Plan, Startup};
use crate::game::{Budget, Game, ParsedCase, Reading};
use crate::status::Presentation;

pub use tags::{Contradiction, Tag, TagReport, apply_tags, check_solutions};
pub use verdict::{Cell, CellVerdict, Checker, TimeClock, TimeRead};

/// One solution of the problem: its name in the table, how it runs, what it should get.
#[derive(Debug, Clone)]
pub struct Solution {
    pub name: String,
    pub spec: EngineSpec,
    pub tag: Option<Tag>,
}

/// One test: a case of a file.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Test {
    /// The file's index in [`Invocation::files`].
    #[serde(skip)]
    pub file: usize,
    /// The file's name (relative to the path it was found under).
    #[serde(rename = "file")]
    pub file_name: String,
    /// 1-based case index in its file.
    pub case: usize,
    /// `file#case`, or the file's name alone for a one-case file.
    pub name: String,
    /// Where its expected block came from: `out` (`X.out`) or `main`.
    pub expected: &'static str,
}

/// Why an invocation could not be made.
#[derive(Debug, thiserror::Error)]
pub enum InvokeError {
    #[error(transparent)]
    Corpus(#[from] corpus::CorpusError),
    #[error("{path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("no readable .in files")]
    NoTests,
    #[error("the .in files hold no cases")]
    NoCases,
    #[error("the tests are of several games ({0} and {1}): invoke one problem at a time")]
    SeveralGames(&'static str, &'static str),
    #[error("no solutions: give some with -e NAME or in the problem file")]
    NoSolutions,
    #[error("{count} solutions are tagged main ({names}): at most one is")]
    SeveralMains { count: usize, names: String },
    #[error(
        "{path} has no expected output ({out} is missing, and no .ans either) and no solution \
         is tagged main: add the .out, or tag the reference solution with --expect NAME=main"
    )]
    NoExpected { path: String, out: String },
    #[error("--expect {name}={tag}: no solution is named {name:?}{hint} (solutions: {known})")]
    UnknownSolution {
        name: String,
        tag: Tag,
        hint: String,
        known: String,
    },
    #[error("two solutions are named {0:?}")]
    DuplicateSolution(String),
    #[error("cannot start {0} worker threads: {1}")]
    Threads(usize, String),
}

/// How to invoke: limits, budget, checker, threads.
#[derive(Debug, Clone)]
pub struct Config {
    pub limits: Limits,
    pub budget: Budget,
    pub checker: Checker,
    /// Worker threads (default: every core).
    pub threads: Option<usize>,
    /// Whether a presentation error is a failure (`--presentation`; the game's checker only).
    pub presentation: Presentation,
    /// Patterns of tests the selection always keeps and never calls useless (`--keep`).
    pub keep: Vec<String>,
}

/// A program's start-up on the invocation's clock (or why it could not be calibrated), taken
/// out of the times its cells show (not of its worst time, its share of the limit, nor the
/// exports: a judge counts it).
#[derive(Debug, Clone)]
pub struct Calibration {
    pub startup: Result<Startup, String>,
    /// The input it was calibrated on, in words.
    pub on: String,
}

/// The results of an invocation: the table and what the judge compared with.
pub struct Invocation {
    pub game: &'static dyn Game,
    pub files: Vec<CaseFile>,
    pub solutions: Vec<Solution>,
    pub tests: Vec<Test>,
    /// `cells[test][solution]`.
    pub cells: Vec<Vec<Cell>>,
    /// The time limit a run's time is a share of, ns: the CPU limit when one is set, else the
    /// wall-time limit of one run (the per-case limit when programs run case by case).
    pub limit_ns: u64,
    /// The clock of that limit, on which every cell's times are read.
    pub clock: TimeClock,
    /// Patterns of tests the selection always keeps (`--keep`), beside the samples.
    pub keep: Vec<String>,
    /// Per solution, a program's start-up (none for an internal engine).
    pub startups: Vec<Option<Calibration>>,
    /// Per test, its expected block (the reason when there is none), for `--select`.
    pub expected: Vec<Result<String, String>>,
    /// Per file, its bytes (for `--select`).
    pub inputs: Vec<Vec<u8>>,
    /// Per file, its parsed cases (for `--select`).
    pub parsed: Vec<Vec<ParsedCase>>,
    /// Per file, its `.out` bytes when it has one (for `--select`).
    pub out_files: Vec<Option<Vec<u8>>>,
}

impl Invocation {
    /// The cells of solution `s`, in test order.
    pub fn column(&self, s: usize) -> impl Iterator<Item = &Cell> + '_ {
        self.cells.iter().map(move |row| &row[s])
    }

    /// Solution `s`'s calibrated start-up, when it is a program whose start-up is known.
    pub fn startup(&self, s: usize) -> Option<&Startup> {
        self.startups.get(s)?.as_ref()?.startup.as_ref().ok()
    }

    /// The time cell (`t`, `s`) shows: its test's time with its solution's start-up taken out
    /// of the run first (a whole file's run loses it once, so each of its cases its share).
    pub fn shown_time(&self, t: usize, s: usize) -> Option<u64> {
        let cell = &self.cells[t][s];
        match self.startup(s) {
            Some(startup) => cell
                .run_ns
                .map(|run| startup.take_out(run) / cell.run_cases.max(1) as u64),
            None => cell.time_ns,
        }
    }

    /// Solution `s`'s slowest run that has a time (the whole file's run for a case that shared
    /// it), as its test and the run's time (the earliest test on a tie).
    pub fn slowest(&self, s: usize) -> Option<(usize, u64)> {
        self.column(s)
            .enumerate()
            .filter_map(|(t, c)| c.run_ns.map(|time| (t, time)))
            .fold(None, |best, (t, time)| match best {
                Some((_, b)) if b >= time => best,
                _ => Some((t, time)),
            })
    }

    /// Whether some run of solution `s` was killed at a time limit (its time is at least the
    /// limit, and no more is known).
    pub fn killed(&self, s: usize) -> bool {
        self.column(s)
            .any(|c| c.verdict == CellVerdict::Timeout && c.run_ns.is_none())
    }

    /// Whether some program ran a whole file of several cases once (its time split over them).
    pub fn has_shared_runs(&self) -> bool {
        self.cells.iter().flatten().any(|c| c.run_cases > 1)
    }

    /// Whether some test could not be judged.
    pub fn has_errors(&self) -> bool {
        self.cells
            .iter()
            .flatten()
            .any(|c| c.verdict == CellVerdict::Error)
    }
}

/// Finds the tests under `paths` (of `game`, or each file's game from its folder).
pub fn find_tests(
    paths: &[PathBuf],
    game: Option<&'static dyn Game>,
    games: &[&'static dyn Game],
) -> Result<(Vec<CaseFile>, Vec<corpus::CorpusError>), InvokeError> {
    let corpus::Corpus { files, problems } = corpus::discover_all(paths, game, games)?;
    if files.is_empty() {
        return Err(InvokeError::NoTests);
    }
    if let Some(other) = files.iter().find(|f| f.game.name() != files[0].game.name()) {
        return Err(InvokeError::SeveralGames(
            files[0].game.name(),
            other.game.name(),
        ));
    }
    Ok((files, problems))
}

/// The expected outputs written under another reading of the game's statement than the one
/// the tests are read with, found before any solution runs: a `.out` whose blocks are not as
/// many as its input's cases, but are as many as under another reading (the statement's, or
/// one variant such as `--zero-pair ends-list`). One line per such file, naming the readings
/// its blocks fit; files that cannot be read are left to [`invoke`] to report.
pub fn outputs_of_another_reading(files: &[CaseFile]) -> Vec<String> {
    let mut said = Vec::new();
    for file in files {
        let game = file.game;
        if game.variants().is_empty() {
            continue;
        }
        let out = file.expected_path();
        let (Ok(input), Ok(expected)) = (
            corpus::read_case_file(&file.path, 0),
            corpus::read_case_file(&out, 0),
        ) else {
            continue;
        };
        let blocks = game.split_output(&String::from_utf8_lossy(&expected)).len();
        let cases = game.parse(&input, &file.reading).len();
        if blocks == cases {
            continue;
        }
        let readings = std::iter::once(Reading::STATEMENT).chain(
            game.variants()
                .iter()
                .map(|v| Reading::statement().with(v.option, v.value)),
        );
        let fits: Vec<String> = readings
            .filter(|r| game.parse(&input, r).len() == blocks)
            .map(|r| r.to_string())
            .collect();
        if !fits.is_empty() {
            said.push(format!(
                "{} has {blocks} blocks for the {cases} cases {} holds as read here: it was written under {}",
                out.display(),
                file.display(),
                fits.join(" or ")
            ));
        }
    }
    said
}

/// Runs every solution on every file (in parallel, one task per (file, solution)), runs alone
/// the cases of a file whose whole run failed, and judges every case.
pub fn invoke(
    files: Vec<CaseFile>,
    solutions: Vec<Solution>,
    config: &Config,
) -> Result<Invocation, InvokeError> {
    check_solutions(&solutions)?;
    let game = files.first().ok_or(InvokeError::NoTests)?.game;
    let main = solutions.iter().position(|s| s.tag == Some(Tag::Main));
    let (inputs, out_files) = read_files(&files, main.is_some())?;
    let parsed: Vec<Vec<ParsedCase>> = (files.iter().zip(&inputs))
        .map(|(file, bytes)| game.parse(bytes, &file.reading))
        .collect();
    let plan = Plan::once(config.budget.clone(), config.limits.clone());
    let work = || run_all(game, &inputs, &parsed, &solutions, &plan);
    let (runs, found) = match config.threads {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| InvokeError::Threads(n, e.to_string()))?
            .install(work),
        None => work(),
    };
    let limits = &config.limits;
    // A CPU limit is the one judges state (the wall limit is a backstop above it): times are
    // read on its clock and are shares of it.
    let (limit, clock) = match limits.cpu {
        Some(cpu) => (cpu, TimeClock::Cpu),
        None => (
            limits
                .case_timeout
                .map_or(limits.timeout, |c| c.min(limits.timeout)),
            TimeClock::Wall,
        ),
    };
    let startups = calibrate(game, &files, &inputs, &solutions, limits, clock);
    let mut inv = Invocation {
        game,
        startups,
        files,
        solutions,
        tests: Vec::new(),
        cells: Vec::new(),
        limit_ns: limit.as_nanos() as u64,
        clock,
        keep: config.keep.clone(),
        expected: Vec::new(),
        inputs: Vec::new(),
        parsed: Vec::new(),
        out_files,
    };
    let count = inv.solutions.len();
    for (f, cases) in parsed.iter().enumerate() {
        let pairs = f * count..(f + 1) * count;
        judge_file(
            &mut inv,
            f,
            cases,
            (&runs[pairs.clone()], &found[pairs]),
            main,
            config,
        );
    }
    if inv.tests.is_empty() {
        return Err(InvokeError::NoCases);
    }
    inv.parsed = parsed;
    inv.inputs = inputs;
    Ok(inv)
}

/// Each program's start-up on `clock` ([`startup::calibrate_for_game`]: on the game's input
/// of no case, or on the smallest test file).
fn calibrate(
    game: &dyn Game,
    files: &[CaseFile],
    inputs: &[Vec<u8>],
    solutions: &[Solution],
    limits: &Limits,
    clock: TimeClock,
) -> Vec<Option<Calibration>> {
    let smallest = (0..inputs.len()).min_by_key(|&f| inputs[f].len());
    solutions
        .iter()
        .map(|solution| {
            let program = solution.spec.program()?;
            let small = smallest.map(|f| inputs[f].as_slice());
            let calibrated = startup::calibrate_for_game(program, game, small, limits);
            let on = match (&calibrated, smallest) {
                (Ok((_, true)), Some(f)) => format!(
                    "{}, the smallest test file (it rejects an input of no case)",
                    files[f].display()
                ),
                _ => "an input of no case".to_string(),
            };
            let startup = calibrated
                .map(|(clocks, _)| match clock {
                    TimeClock::Cpu => clocks.cpu,
                    TimeClock::Wall => clocks.wall,
                })
                .map_err(|e| e.to_string());
            Some(Calibration { startup, on })
        })
        .collect()
}

/// Each file's bytes, and its expected output when it has one (without one, a `main` solution
/// must give it).
#[allow(clippy::type_complexity)]
fn read_files(
    files: &[CaseFile],
    has_main: bool,
) -> Result<(Vec<Vec<u8>>, Vec<Option<Vec<u8>>>), InvokeError> {
    let mut inputs: Vec<Vec<u8>> = Vec::with_capacity(files.len());
    let mut out_files: Vec<Option<Vec<u8>>> = Vec::with_capacity(files.len());
    for file in files {
        let bytes = corpus::read_case_file(&file.path, 0).map_err(|source| InvokeError::Read {
            path: file.path.clone(),
            source,
        })?;
        inputs.push(bytes);
        let expected = file.read_expected()?.map(|(_, bytes)| bytes);
        if expected.is_none() && !has_main {
            return Err(InvokeError::NoExpected {
                path: file.display(),
                out: file.expected_path().display().to_string(),
            });
        }
        out_files.push(expected);
    }
    Ok((inputs, out_files))
}

/// Every solution on every file, one task per (file, solution) on the current pool, in
/// (file, solution) order; then the files whose whole run failed have their cases run alone
/// ([`attribute`]), with what that found per (file, solution).
fn run_all(
    game: &'static dyn Game,
    inputs: &[Vec<u8>],
    parsed: &[Vec<ParsedCase>],
    solutions: &[Solution],
    plan: &Plan,
) -> (Vec<Vec<CaseRun>>, Vec<Option<attribute::Found>>) {
    let job = |f: usize| FileJob {
        game,
        bytes: &inputs[f],
        cases: &parsed[f],
        first: 0,
    };
    let pairs: Vec<(usize, usize)> = (0..inputs.len())
        .flat_map(|f| (0..solutions.len()).map(move |s| (f, s)))
        .collect();
    let mut runs: Vec<Vec<CaseRun>> = pairs
        .par_iter()
        .map(|&(f, s)| solutions[s].spec.executor().run_file(&job(f), plan))
        .collect();
    let failed: Vec<usize> = (0..pairs.len())
        .filter(|&p| attribute::needs_attribution(&job(pairs[p].0), &runs[p]))
        .collect();
    let redone: Vec<(usize, Vec<CaseRun>, attribute::Found)> = failed
        .into_par_iter()
        .map(|p| {
            let (f, s) = pairs[p];
            let whole = runs[p].clone();
            let (cases, found) =
                attribute::attribute(solutions[s].spec.executor(), &job(f), plan, whole);
            (p, cases, found)
        })
        .collect();
    let mut found = vec![None; pairs.len()];
    for (p, cases, how) in redone {
        runs[p] = cases;
        found[p] = Some(how);
    }
    (runs, found)
}

/// Judges every case of file `f` (its `runs` per solution, and what running its cases alone
/// found) into `inv`'s tests and cells.
fn judge_file(
    inv: &mut Invocation,
    f: usize,
    cases: &[ParsedCase],
    (file_runs, found): (&[Vec<CaseRun>], &[Option<attribute::Found>]),
    main: Option<usize>,
    config: &Config,
) {
    let game = inv.game;
    let expected_blocks = expected_blocks(inv, f, cases.len(), file_runs, main);
    let from = if inv.out_files[f].is_some() {
        "out"
    } else {
        "main"
    };
    let file_name = inv.files[f].row_name();
    let read = TimeRead {
        clock: inv.clock,
        file_cases: cases.len(),
    };
    for (c, parsed_case) in cases.iter().enumerate() {
        let name = if cases.len() == 1 {
            file_name.clone()
        } else {
            format!("{file_name}#{}", c + 1)
        };
        inv.tests.push(Test {
            file: f,
            file_name: file_name.clone(),
            case: c + 1,
            name,
            expected: from,
        });
        let expected = expected_blocks[c].as_deref().map_err(Clone::clone);
        let row = file_runs
            .iter()
            .zip(found)
            .map(|(solution_runs, found)| match solution_runs.get(c) {
                Some(run) => {
                    let mut cell = verdict::judge(
                        game,
                        parsed_case,
                        expected.clone(),
                        run,
                        config.checker,
                        config.presentation,
                        read,
                    );
                    if *found == Some(attribute::Found::NoneAlone) {
                        cell.message = format!("{} {}", cell.message, attribute::NONE_ALONE_NOTE);
                    }
                    cell
                }
                None => Cell {
                    verdict: CellVerdict::Error,
                    time_ns: None,
                    run_ns: None,
                    run_cases: 1,
                    memory_kb: None,
                    message: "no result for this case".to_string(),
                    reason: None,
                },
            })
            .collect();
        inv.cells.push(row);
        inv.expected.push(expected_blocks[c].clone());
    }
}

/// The expected block of each of file `f`'s `count` cases: from its `.out`, else from the main
/// solution's runs (the reason when there is none).
fn expected_blocks(
    inv: &Invocation,
    f: usize,
    count: usize,
    file_runs: &[Vec<CaseRun>],
    main: Option<usize>,
) -> Vec<Result<String, String>> {
    let out = || inv.files[f].expected_path().display().to_string();
    match &inv.out_files[f] {
        Some(bytes) => match std::str::from_utf8(bytes) {
            Ok(text) => {
                let blocks = inv.game.split_output(text);
                (0..count)
                    .map(|c| {
                        blocks
                            .get(c)
                            .cloned()
                            .ok_or_else(|| format!("{} has no block for case {}", out(), c + 1))
                    })
                    .collect()
            }
            Err(_) => vec![Err(format!("{} is not UTF-8", out())); count],
        },
        None => {
            let m = main.expect("checked: a file without .out needs a main solution");
            (0..count)
                .map(|c| match file_runs[m].get(c).map(|r| &r.result) {
                    Some(Ok(answer)) => Ok(answer.output.clone()),
                    Some(Err(fault)) => Err(format!("the main solution failed: {fault}")),
                    None => Err("the main solution gave no result".to_string()),
                })
                .collect()
        }
    }
}
