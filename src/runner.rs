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
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::corpus::CaseFile;
use crate::digest::digest;
use crate::external::{self, External};
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
    /// Wall-time limit of one external program run (one file).
    pub timeout: Duration,
    /// Build each file's whole output in the report (needed for `--out-dir`; costs a copy of
    /// every output otherwise).
    pub keep_outputs: bool,
    // --- shards (issue 6): see `crate::shard` ---
    /// Solve only these cases (a shard's part, or what `--resume` has left); `None` = all.
    pub select: Option<std::sync::Arc<crate::shard::CaseSelection>>,
    // --- end shards ---
}

/// Default [`Config::timeout`].
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// An engine selected for a run: one of the game's own, or an external program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineSpec {
    Internal(&'static str),
    External(External),
}

impl EngineSpec {
    pub fn name(&self) -> &str {
        match self {
            EngineSpec::Internal(name) => name,
            EngineSpec::External(e) => &e.name,
        }
    }
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
            timeout: DEFAULT_TIMEOUT,
            keep_outputs: false,
            select: None,
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
    #[error("two different engines are named {0:?}: label external engines with NAME=cmd:...")]
    DuplicateName(String),
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

/// The engines `requested` names for `game`: internal names, `all` (every internal engine),
/// external `cmd:` engines; nothing = the game's default engine.
pub fn resolve_engines(game: &dyn Game, requested: &[String]) -> Result<Vec<EngineSpec>, RunError> {
    if requested.is_empty() {
        return Ok(vec![EngineSpec::Internal(game.default_engine())]);
    }
    let known = game.engine_names();
    let mut chosen: Vec<EngineSpec> = Vec::new();
    for name in requested {
        let add: Vec<EngineSpec> = if name == ALL_ENGINES {
            known.iter().map(|&k| EngineSpec::Internal(k)).collect()
        } else if let Some(program) = External::parse(name) {
            vec![EngineSpec::External(program)]
        } else {
            let found = known.iter().copied().find(|k| k == name).ok_or_else(|| {
                RunError::UnknownEngine {
                    game: game.name(),
                    engine: name.clone(),
                    known: known.join(", "),
                }
            })?;
            vec![EngineSpec::Internal(found)]
        };
        for engine in add {
            if chosen.iter().any(|c| c.name() == engine.name()) {
                if !chosen.contains(&engine) {
                    return Err(RunError::DuplicateName(engine.name().to_string()));
                }
                continue;
            }
            chosen.push(engine);
        }
    }
    Ok(chosen)
}

/// A file read and split into cases.
struct Loaded {
    /// The raw input, kept only when an external engine will read it.
    bytes: Vec<u8>,
    cases: Vec<ParsedCase>,
    /// Why the file could not be read at all.
    unreadable: Option<String>,
    /// With `--check`: the expected blocks, or why there are none.
    expected: Option<Result<Vec<String>, String>>,
    engines: Vec<EngineSpec>,
}

impl Loaded {
    /// Cases that get rows: an unreadable file still gets one (error) row per engine.
    fn case_count(&self) -> usize {
        if self.unreadable.is_some() {
            1
        } else {
            self.cases.len()
        }
    }
}

/// One result slot: a case of a file for one engine (index into the file's engines).
struct Slot {
    file: usize,
    case: usize,
    engine: usize,
}

/// A unit of parallel work: one case for an internal engine, or a whole file for an external
/// program (which runs once per file). Holds the indices of the slots it fills, in case order.
enum Work {
    Case(usize),
    File {
        file: usize,
        engine: usize,
        slots: Vec<usize>,
    },
}

/// What a slot got.
struct Done {
    status: Status,
    times: Vec<u64>,
    timing: Timing,
    work: Option<u64>,
    score: Option<u64>,
    output: Option<String>,
    message: String,
}

impl Done {
    fn failed(file: &CaseFile, index: usize, message: impl std::fmt::Display) -> Done {
        Done {
            status: Status::Error,
            times: Vec::new(),
            timing: Timing::Case,
            work: None,
            score: None,
            output: None,
            message: format!("{}: case {index}: {message}", file.display()),
        }
    }
}

/// Runs `config` over `files`.
pub fn run(files: &[CaseFile], config: &Config) -> Result<Report, RunError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = config.threads {
        builder = builder.num_threads(n);
    }
    let pool = builder.build()?;
    // Resolve engines before reading anything, so a typo fails at once.
    let engines: Vec<Vec<EngineSpec>> = files
        .iter()
        .map(|f| resolve_engines(f.game, &config.engines))
        .collect::<Result<_, _>>()?;
    Ok(pool.install(|| run_in_pool(files, engines, config)))
}

fn run_in_pool(files: &[CaseFile], engines: Vec<Vec<EngineSpec>>, config: &Config) -> Report {
    let loaded: Vec<Loaded> = files
        .par_iter()
        .zip(engines)
        .map(|(file, engines)| load(file, engines, config.check))
        .collect();

    // Slots in report order: file, case, engine.
    let mut slots = Vec::new();
    for (f, l) in loaded.iter().enumerate() {
        for case in 0..l.case_count() {
            // shards (issue 6): skip cases outside the selection.
            if let Some(select) = &config.select
                && !select.contains(&files[f].path, case)
            {
                continue;
            }
            for engine in 0..l.engines.len() {
                slots.push(Slot {
                    file: f,
                    case,
                    engine,
                });
            }
        }
    }
    let mut work: Vec<Work> = Vec::new();
    let mut external: std::collections::BTreeMap<(usize, usize), Vec<usize>> = Default::default();
    for (i, slot) in slots.iter().enumerate() {
        match loaded[slot.file].engines[slot.engine] {
            EngineSpec::Internal(_) => work.push(Work::Case(i)),
            EngineSpec::External(_) => external
                .entry((slot.file, slot.engine))
                .or_default()
                .push(i),
        }
    }
    work.extend(
        external
            .into_iter()
            .map(|((file, engine), slots)| Work::File {
                file,
                engine,
                slots,
            }),
    );

    let bar = if config.progress {
        ProgressBar::with_draw_target(Some(slots.len() as u64), ProgressDrawTarget::stderr())
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
    let finished: Vec<Vec<(usize, Done)>> = work
        .par_iter()
        .map(|unit| {
            let done = match unit {
                Work::Case(i) => {
                    let slot = &slots[*i];
                    vec![(
                        *i,
                        solve_case(&files[slot.file], &loaded[slot.file], slot, config),
                    )]
                }
                Work::File {
                    file,
                    engine,
                    slots: mine,
                } => {
                    let EngineSpec::External(program) = &loaded[*file].engines[*engine] else {
                        unreachable!("file work is only made for external engines")
                    };
                    let mut results: Vec<Option<Done>> =
                        run_external(&files[*file], &loaded[*file], program, config)
                            .into_iter()
                            .map(Some)
                            .collect();
                    // The program solves the whole file; keep the cases of these slots (all of
                    // them unless a shard selected some).
                    mine.iter()
                        .map(|&i| {
                            let done = results[slots[i].case].take();
                            (i, done.expect("one result per case of the file"))
                        })
                        .collect()
                }
            };
            bar.inc(done.len() as u64);
            done
        })
        .collect();
    bar.finish_and_clear();

    let mut done: Vec<Option<Done>> = slots.iter().map(|_| None).collect();
    for (i, d) in finished.into_iter().flatten() {
        done[i] = Some(d);
    }
    let done: Vec<Done> = done
        .into_iter()
        .map(|d| d.expect("every slot is filled once"))
        .collect();
    assemble(files, &loaded, &slots, done, config)
}

/// Reads and parses one file (and its expected output with `--check`).
fn load(file: &CaseFile, engines: Vec<EngineSpec>, check: bool) -> Loaded {
    let bytes = match std::fs::read(&file.path) {
        Ok(bytes) => bytes,
        Err(e) => {
            return Loaded {
                bytes: Vec::new(),
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
    // Only external programs need the raw input again; free it otherwise (large corpora).
    let external = engines.iter().any(|e| matches!(e, EngineSpec::External(_)));
    Loaded {
        bytes: if external { bytes } else { Vec::new() },
        cases,
        unreadable: None,
        expected,
        engines,
    }
}

/// Solves one case with one internal engine: warm-up runs, timed runs, then the check.
fn solve_case(file: &CaseFile, loaded: &Loaded, slot: &Slot, config: &Config) -> Done {
    let index = slot.case + 1;
    if let Some(why) = &loaded.unreadable {
        return Done::failed(file, index, why);
    }
    let case = match &loaded.cases[slot.case].case {
        Ok(case) => case.as_ref(),
        Err(e) => return Done::failed(file, index, e),
    };
    let EngineSpec::Internal(engine) = loaded.engines[slot.engine] else {
        unreachable!("case work is only made for internal engines")
    };
    let game = file.game;
    let solve = || {
        game.solve(engine, index, case, &config.budget)
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
                ..Done::failed(file, index, e)
            };
        }
    };
    let status = match solved.verdict {
        Verdict::Solved => Status::Ok,
        Verdict::Unsolved => Status::Unsolved,
        Verdict::Budget => Status::Budget,
    };
    let mut done = Done {
        status,
        times,
        timing: Timing::Case,
        work: Some(solved.work),
        score: solved.score,
        output: Some(solved.output),
        message: String::new(),
    };
    check_expected(file, loaded, slot.case, &mut done);
    done
}

/// Runs an external program on a whole file (warm-up and timed runs) and splits its output
/// into one result per case, each checked like an internal engine's.
fn run_external(
    file: &CaseFile,
    loaded: &Loaded,
    program: &External,
    config: &Config,
) -> Vec<Done> {
    let count = loaded.case_count();
    let all_failed = |why: String| (1..=count).map(|k| Done::failed(file, k, &why)).collect();
    if let Some(why) = &loaded.unreadable {
        return all_failed(why.clone());
    }
    for _ in 0..config.warmup {
        if let Err(e) = external::run(&program.command, &loaded.bytes, config.timeout) {
            return all_failed(e.to_string());
        }
    }
    let mut times = Vec::new();
    let mut stdout = Vec::new();
    for _ in 0..config.runs.max(1) {
        match external::run(&program.command, &loaded.bytes, config.timeout) {
            Ok(ran) => {
                times.push(ran.elapsed.as_nanos() as u64);
                stdout = ran.stdout;
            }
            Err(e) => return all_failed(e.to_string()),
        }
    }
    let text = String::from_utf8_lossy(&stdout);
    let blocks = file.game.split_output(&text);
    (0..count)
        .map(|case| {
            let index = case + 1;
            if let Err(e) = &loaded.cases[case].case {
                return Done::failed(file, index, e);
            }
            let Some(block) = blocks.get(case) else {
                return Done {
                    status: Status::Mismatch,
                    times: times.clone(),
                    timing: Timing::File,
                    work: None,
                    score: None,
                    output: None,
                    message: format!(
                        "{}: case {index}: the program printed no output for this case",
                        file.display()
                    ),
                };
            };
            let mut done = Done {
                status: Status::Ok,
                times: times.clone(),
                timing: Timing::File,
                work: None,
                score: None,
                output: Some(block.clone()),
                message: String::new(),
            };
            check_expected(file, loaded, case, &mut done);
            done
        })
        .collect()
}

/// With `--check`: compares a case's output with the expected block (the game's checker).
fn check_expected(file: &CaseFile, loaded: &Loaded, case: usize, done: &mut Done) {
    let (Some(expected), Some(output), Ok(parsed)) =
        (&loaded.expected, &done.output, &loaded.cases[case].case)
    else {
        return;
    };
    let index = case + 1;
    let verdict = match expected {
        Err(why) => Err((Status::Error, why.clone())),
        Ok(blocks) => match blocks.get(case) {
            None => Err((
                Status::Mismatch,
                format!("the expected output has no case {index}"),
            )),
            Some(block) => file
                .game
                .check(parsed.as_ref(), block, output)
                .map_err(|why| (Status::Mismatch, why)),
        },
    };
    if let Err((bad, why)) = verdict {
        done.status = done.status.max(bad);
        done.message = format!("{}: case {index}: {why}", file.display());
    }
}

/// Turns finished slots into rows, outputs and problem lines, in slot order, and compares each
/// engine with the baseline engine case by case.
fn assemble(
    files: &[CaseFile],
    loaded: &[Loaded],
    slots: &[Slot],
    mut done: Vec<Done>,
    config: &Config,
) -> Report {
    // Engine agreement: the slots of one case are consecutive.
    let mut start = 0;
    while start < slots.len() {
        let end = (start..slots.len())
            .find(|&i| slots[i].file != slots[start].file || slots[i].case != slots[start].case)
            .unwrap_or(slots.len());
        compare_with_baseline(
            files,
            loaded,
            &slots[start..end],
            &mut done[start..end],
            config,
        );
        start = end;
    }

    // Rows are built (and outputs digested) in parallel; collecting keeps slot order.
    let built: Vec<(Vec<Row>, Option<String>)> = slots
        .par_iter()
        .zip(done.par_iter())
        .map(|(slot, result)| {
            let file = &files[slot.file];
            let engine = loaded[slot.file].engines[slot.engine].name();
            let parsed = loaded[slot.file].cases.get(slot.case);
            let runs: Vec<Option<u64>> = if result.times.is_empty() {
                vec![None]
            } else {
                result.times.iter().map(|&t| Some(t)).collect()
            };
            let digest = result
                .output
                .as_deref()
                .map(|o| digest(o.as_bytes()))
                .unwrap_or_default();
            let rows = runs
                .into_iter()
                .enumerate()
                .map(|(r, time_ns)| Row {
                    game: file.game.name().to_string(),
                    engine: engine.to_string(),
                    file: file.display(),
                    case: slot.case + 1,
                    run: r as u32 + 1,
                    label: parsed.map(|p| p.label.clone()).unwrap_or_default(),
                    size: parsed.map(|p| p.size.clone()).unwrap_or_default(),
                    status: result.status,
                    time_ns,
                    timing: result.timing,
                    work: result.work,
                    work_unit: if result.work.is_some() {
                        file.game.work_unit().to_string()
                    } else {
                        String::new()
                    },
                    score: result.score,
                    digest: digest.clone(),
                    message: result.message.clone(),
                })
                .collect();
            let problem = (!result.message.is_empty())
                .then(|| format!("{} [{engine}]: {}", result.status.as_str(), result.message));
            (rows, problem)
        })
        .collect();
    let mut report = Report::default();
    for (rows, problem) in built {
        report.rows.extend(rows);
        report.problems.extend(problem);
    }

    if config.keep_outputs {
        // Each file's output per engine: its cases' blocks in order (slots are in file, case
        // order).
        let mut blocks: Vec<Vec<Vec<&str>>> = loaded
            .iter()
            .map(|l| vec![Vec::new(); l.engines.len()])
            .collect();
        for (slot, result) in slots.iter().zip(&done) {
            if let Some(output) = result.output.as_deref() {
                blocks[slot.file][slot.engine].push(output);
            }
        }
        report.outputs = blocks
            .par_iter()
            .enumerate()
            .flat_map_iter(|(f, per_engine)| {
                per_engine
                    .iter()
                    .enumerate()
                    .map(move |(e, blocks)| FileOutput {
                        file: f,
                        engine: loaded[f].engines[e].name().to_string(),
                        text: files[f].game.join(blocks),
                    })
            })
            .collect();
    }
    report
}

/// Marks engines that disagree with the baseline engine on one case.
fn compare_with_baseline(
    files: &[CaseFile],
    loaded: &[Loaded],
    slots: &[Slot],
    done: &mut [Done],
    config: &Config,
) {
    let Some(first) = slots.first() else { return };
    let (file, l) = (&files[first.file], &loaded[first.file]);
    let Some(base) = slots
        .iter()
        .position(|s| l.engines[s.engine].name() == config.baseline)
    else {
        return;
    };
    let Some(Ok(case)) = l.cases.get(first.case).map(|p| p.case.as_ref()) else {
        return;
    };
    let Some(base_output) = done[base].output.clone() else {
        return;
    };
    for (i, slot) in slots.iter().enumerate() {
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
                first.case + 1,
                l.engines[slot.engine].name(),
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
