//! Solving every case of a corpus with one or more engines, in parallel over cases.
//!
//! The runner knows nothing game-specific: it reads files, asks each file's [`Game`] to parse
//! them into cases, schedules (case, engine) tasks on a rayon pool, times them, checks outputs
//! with the game's checker, and returns CSV rows and per-file outputs.
//!
//! Invariants:
//! - Rows and outputs come out in task order (file, then case, then engine as selected), never
//!   in completion order, so `-j 1` and `-j 8` give the same bytes apart from times.
//! - A bad case never stops the batch: it becomes an `error` row naming file, case and line.
//! - With several engines on a game, every engine is compared with the baseline engine case by
//!   case (with the game's checker), so disagreements show even without expected outputs.

use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ParallelProgressIterator, ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::corpus::CaseFile;
use crate::digest::digest;
use crate::game::{Budget, Game, ParsedCase, Verdict};
use crate::results::{Row, Status, Timing};

/// Engine name that selects every internal engine of a game.
pub const ALL_ENGINES: &str = "all";

/// What to run and how.
#[derive(Debug, Clone)]
pub struct Config {
    /// Engine names as the user gave them (`all` allowed); empty = each game's default.
    pub engines: Vec<String>,
    pub budget: Budget,
    /// Compare each case's output with the expected `X.out` beside `X.in`.
    pub check: bool,
    /// Worker threads; `None` = all cores.
    pub threads: Option<usize>,
    /// Show a progress bar on stderr (it hides itself when stderr is not a terminal).
    pub progress: bool,
    /// Untimed runs of each case before the timed ones.
    pub warmup: u32,
    /// Timed runs of each case (at least 1).
    pub runs: u32,
    /// The engine others are compared with (when it ran on the game).
    pub baseline: String,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            engines: Vec::new(),
            budget: Budget::UNLIMITED,
            check: false,
            threads: None,
            progress: false,
            warmup: 0,
            runs: 1,
            baseline: "reference".to_string(),
        }
    }
}

/// Why a run could not start.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("game {game} has no engine {engine:?} (engines: {known})")]
    UnknownEngine {
        game: &'static str,
        engine: String,
        known: String,
    },
    #[error("cannot start the worker threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
}

/// The output a file got from one engine.
#[derive(Debug, Clone)]
pub struct FileOutput {
    /// Index into the run's file list.
    pub file: usize,
    pub engine: String,
    /// The judge output: the blocks of its readable cases, in order.
    pub text: String,
}

/// Everything a run produced.
#[derive(Debug, Default)]
pub struct Report {
    pub rows: Vec<Row>,
    pub outputs: Vec<FileOutput>,
    /// One line per problem worth telling on stderr (errors, mismatches, disagreements).
    pub problems: Vec<String>,
}

impl Report {
    /// The exit code policy: 2 if any case is `error`, else 1 if any is `mismatch`,
    /// `unsolved` or `budget`, else 0.
    pub fn exit_code(&self) -> i32 {
        exit_code(self.rows.iter().map(|r| r.status))
    }
}

/// The exit code for a set of statuses (see [`Report::exit_code`]).
pub fn exit_code(statuses: impl IntoIterator<Item = Status>) -> i32 {
    let mut code = 0;
    for status in statuses {
        code = code.max(match status {
            Status::Ok => 0,
            Status::Mismatch | Status::Unsolved | Status::Budget => 1,
            Status::Error => 2,
        });
    }
    code
}

/// The internal engines `requested` names for `game` (`all`, names, or nothing = default).
pub fn resolve_engines(
    game: &dyn Game,
    requested: &[String],
) -> Result<Vec<&'static str>, RunError> {
    if requested.is_empty() {
        return Ok(vec![game.default_engine()]);
    }
    let known = game.engine_names();
    let mut chosen = Vec::new();
    for name in requested {
        let add: Vec<&'static str> = if name == ALL_ENGINES {
            known.clone()
        } else {
            let found = known.iter().copied().find(|k| k == name).ok_or_else(|| {
                RunError::UnknownEngine {
                    game: game.name(),
                    engine: name.clone(),
                    known: known.join(", "),
                }
            })?;
            vec![found]
        };
        for engine in add {
            if !chosen.contains(&engine) {
                chosen.push(engine);
            }
        }
    }
    Ok(chosen)
}

/// A file read and split into cases.
struct Loaded {
    cases: Vec<ParsedCase>,
    /// Why the file could not be read at all.
    unreadable: Option<String>,
    /// With `--check`: the expected blocks, or why there are none.
    expected: Option<Result<Vec<String>, String>>,
    engines: Vec<&'static str>,
}

/// One unit of work: a case of a file for one engine.
struct Task {
    file: usize,
    case: usize,
    engine: &'static str,
}

/// What a task produced.
struct Done {
    status: Status,
    times: Vec<u64>,
    work: Option<u64>,
    score: Option<u64>,
    output: Option<String>,
    message: String,
}

/// Runs `config` over `files`.
pub fn run(files: &[CaseFile], config: &Config) -> Result<Report, RunError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = config.threads {
        builder = builder.num_threads(n);
    }
    let pool = builder.build()?;
    // Resolve engines before reading anything, so a typo fails at once.
    let engines: Vec<Vec<&'static str>> = files
        .iter()
        .map(|f| resolve_engines(f.game, &config.engines))
        .collect::<Result<_, _>>()?;
    pool.install(|| run_in_pool(files, engines, config))
}

fn run_in_pool(
    files: &[CaseFile],
    engines: Vec<Vec<&'static str>>,
    config: &Config,
) -> Result<Report, RunError> {
    let loaded: Vec<Loaded> = files
        .par_iter()
        .zip(engines)
        .map(|(file, engines)| load(file, engines, config.check))
        .collect();

    let mut tasks = Vec::new();
    for (f, l) in loaded.iter().enumerate() {
        let cases = if l.unreadable.is_some() {
            1
        } else {
            l.cases.len()
        };
        for case in 0..cases {
            for &engine in &l.engines {
                tasks.push(Task {
                    file: f,
                    case,
                    engine,
                });
            }
        }
    }

    let bar = if config.progress {
        ProgressBar::with_draw_target(Some(tasks.len() as u64), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} cases ({per_sec}, eta {eta})",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    let done: Vec<Done> = tasks
        .par_iter()
        .progress_with(bar.clone())
        .map(|task| perform(&files[task.file], &loaded[task.file], task, config))
        .collect();
    bar.finish_and_clear();

    Ok(assemble(files, &loaded, &tasks, done, config))
}

/// Reads and parses one file (and its expected output with `--check`).
fn load(file: &CaseFile, engines: Vec<&'static str>, check: bool) -> Loaded {
    let bytes = match std::fs::read(&file.path) {
        Ok(bytes) => bytes,
        Err(e) => {
            return Loaded {
                cases: Vec::new(),
                unreadable: Some(format!("cannot read: {e}")),
                expected: None,
                engines,
            };
        }
    };
    let cases = file.game.parse(&bytes);
    let expected = check.then(|| {
        let path = file.expected_path();
        match std::fs::read(&path) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => Ok(file.game.split_output(&text)),
                Err(_) => Err(format!("expected output {} is not UTF-8", path.display())),
            },
            Err(e) => Err(format!("no expected output {}: {e}", path.display())),
        }
    });
    Loaded {
        cases,
        unreadable: None,
        expected,
        engines,
    }
}

/// Solves one case with one engine: warm-up runs, timed runs, then the check.
fn perform(file: &CaseFile, loaded: &Loaded, task: &Task, config: &Config) -> Done {
    let index = task.case + 1;
    let failed = |message: String| Done {
        status: Status::Error,
        times: Vec::new(),
        work: None,
        score: None,
        output: None,
        message: format!("{}: case {index}: {message}", file.display()),
    };
    if let Some(why) = &loaded.unreadable {
        return failed(why.clone());
    }
    let parsed = &loaded.cases[task.case];
    let case = match &parsed.case {
        Ok(case) => case.as_ref(),
        Err(e) => return failed(e.to_string()),
    };
    let game = file.game;
    let solve = || {
        game.solve(task.engine, index, case, &config.budget)
            .expect("engines were resolved for this game")
    };
    for _ in 0..config.warmup {
        let _ = std::hint::black_box(solve());
    }
    let mut times = Vec::with_capacity(config.runs.max(1) as usize);
    let mut last = None;
    for _ in 0..config.runs.max(1) {
        let start = Instant::now();
        let result = solve();
        times.push(start.elapsed().as_nanos() as u64);
        last = Some(result);
    }
    let solved = match last.expect("at least one run") {
        Ok(solved) => solved,
        Err(e) => {
            return Done {
                times,
                ..failed(e.to_string())
            };
        }
    };
    let mut status = match solved.verdict {
        Verdict::Solved => Status::Ok,
        Verdict::Unsolved => Status::Unsolved,
        Verdict::Budget => Status::Budget,
    };
    let mut message = String::new();
    if let Some(expected) = &loaded.expected {
        let verdict = match expected {
            Err(why) => Err((Status::Error, why.clone())),
            Ok(blocks) => match blocks.get(task.case) {
                None => Err((
                    Status::Mismatch,
                    format!("the expected output has no case {index}"),
                )),
                Some(block) => game
                    .check(case, block, &solved.output)
                    .map_err(|why| (Status::Mismatch, why)),
            },
        };
        if let Err((bad, why)) = verdict {
            status = status.max(bad);
            message = format!("{}: case {index}: {why}", file.display());
        }
    }
    Done {
        status,
        times,
        work: Some(solved.work),
        score: solved.score,
        output: Some(solved.output),
        message,
    }
}

/// Turns finished tasks into rows, outputs and problem lines, in task order, and compares each
/// engine with the baseline engine case by case.
fn assemble(
    files: &[CaseFile],
    loaded: &[Loaded],
    tasks: &[Task],
    mut done: Vec<Done>,
    config: &Config,
) -> Report {
    // Engine agreement: tasks of one case are consecutive; compare each with the baseline.
    let mut start = 0;
    while start < tasks.len() {
        let end = (start..tasks.len())
            .find(|&i| tasks[i].file != tasks[start].file || tasks[i].case != tasks[start].case)
            .unwrap_or(tasks.len());
        compare_with_baseline(
            files,
            loaded,
            &tasks[start..end],
            &mut done[start..end],
            config,
        );
        start = end;
    }

    let mut report = Report::default();
    for (task, result) in tasks.iter().zip(&done) {
        let file = &files[task.file];
        let parsed = loaded[task.file].cases.get(task.case);
        let runs = if result.times.is_empty() {
            vec![None]
        } else {
            result.times.iter().map(|&t| Some(t)).collect()
        };
        for (r, time_ns) in runs.into_iter().enumerate() {
            report.rows.push(Row {
                game: file.game.name().to_string(),
                engine: task.engine.to_string(),
                file: file.display(),
                case: task.case + 1,
                run: r as u32 + 1,
                label: parsed.map(|p| p.label.clone()).unwrap_or_default(),
                size: parsed.map(|p| p.size.clone()).unwrap_or_default(),
                status: result.status,
                time_ns,
                timing: Timing::Case,
                work: result.work,
                work_unit: file.game.work_unit().to_string(),
                score: result.score,
                digest: result
                    .output
                    .as_deref()
                    .map(|o| digest(o.as_bytes()))
                    .unwrap_or_default(),
                message: result.message.clone(),
            });
        }
        if !result.message.is_empty() {
            report.problems.push(format!(
                "{} [{}]: {}",
                result.status.as_str(),
                task.engine,
                result.message
            ));
        }
    }

    for (f, l) in loaded.iter().enumerate() {
        for &engine in &l.engines {
            let blocks: Vec<&str> = tasks
                .iter()
                .zip(&done)
                .filter(|(t, _)| t.file == f && t.engine == engine)
                .filter_map(|(_, d)| d.output.as_deref())
                .collect();
            report.outputs.push(FileOutput {
                file: f,
                engine: engine.to_string(),
                text: files[f].game.join(&blocks),
            });
        }
    }
    report
}

/// Marks engines that disagree with the baseline engine on one case.
fn compare_with_baseline(
    files: &[CaseFile],
    loaded: &[Loaded],
    tasks: &[Task],
    done: &mut [Done],
    config: &Config,
) {
    let Some(base) = tasks.iter().position(|t| t.engine == config.baseline) else {
        return;
    };
    let task = &tasks[base];
    let Some(Ok(case)) = loaded[task.file]
        .cases
        .get(task.case)
        .map(|p| p.case.as_ref())
    else {
        return;
    };
    let Some(base_output) = done[base].output.clone() else {
        return;
    };
    let file = &files[task.file];
    for i in 0..tasks.len() {
        if i == base {
            continue;
        }
        let Some(output) = &done[i].output else {
            continue;
        };
        if let Err(why) = file.game.check(case.as_ref(), &base_output, output) {
            let line = format!(
                "{}: case {}: {} disagrees with {}: {why}",
                file.display(),
                task.case + 1,
                tasks[i].engine,
                config.baseline
            );
            done[i].status = done[i].status.max(Status::Mismatch);
            done[i].message = if done[i].message.is_empty() {
                line
            } else {
                format!("{}; {line}", done[i].message)
            };
        }
    }
}

/// Where a file's output goes under `out_dir`: the input's relative path with `.out`, under a
/// folder per engine when several engines ran.
pub fn output_path(
    out_dir: &Path,
    file: &CaseFile,
    engine: &str,
    several_engines: bool,
) -> PathBuf {
    let relative = file
        .relative
        .with_extension(crate::corpus::OUTPUT_EXTENSION);
    if several_engines {
        out_dir.join(engine).join(relative)
    } else {
        out_dir.join(relative)
    }
}

/// Writes every output of `report` under `out_dir` (see [`output_path`]).
pub fn write_outputs(out_dir: &Path, files: &[CaseFile], report: &Report) -> std::io::Result<()> {
    let first = report.outputs.first().map(|o| o.engine.as_str());
    let several = report
        .outputs
        .iter()
        .any(|o| Some(o.engine.as_str()) != first);
    for output in &report.outputs {
        let path = output_path(out_dir, &files[output.file], &output.engine, several);
        write_atomic(&path, output.text.as_bytes())?;
    }
    Ok(())
}

/// Writes a file so that it is either absent, or complete: a temporary file in the same folder,
/// then a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}
