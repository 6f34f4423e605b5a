//! `gamebench run`: options -> a runner [`Config`] and sinks (or a shard's plan) -> summary,
//! exports and the exit code.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Instant, SystemTime};

use anyhow::{Context, Result};
use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::flag;

use crate::corpus;
use crate::export::junit::JunitSink;
use crate::export::{BoxPlot, Exporter, Json, Markdown, ScalingPlot, SummaryCsv, require_svg};
use crate::external::{self, Shell};
use crate::registry;
use crate::results::{self, Tally};
use crate::runner::{
    self, Config, CsvSink, OutDirSink, ProblemLines, ProgressMode, RecordSink, Sink,
};
use crate::shard;
use crate::status::Exit;
use crate::util::atomic;
use crate::util::meta::{self, RunMeta};
use crate::util::units;

use super::outputs::{self, is_stdout};
use super::report::AfterRun;
use super::summary::{Export, Written, calibrate_programs, summarize, taken_out};
use super::{RunArgs, find_game, positive_seconds, shards};

/// The flags a first SIGINT or SIGTERM sets (stop the run); a second one ends the process at
/// once with the signal's exit code.
pub(super) struct Signals {
    pub(super) stop: Arc<AtomicBool>,
    pub(super) terminated: Arc<AtomicBool>,
}

pub(super) fn catch_signals() -> Result<Signals> {
    let signals = Signals {
        // The same flag kills running external programs at once.
        stop: external::stop_flag(),
        terminated: Arc::new(AtomicBool::new(false)),
    };
    for (signal, exit) in [(SIGINT, Exit::Interrupted), (SIGTERM, Exit::Terminated)] {
        // Registered first, so it sees the flag as the previous signal left it.
        flag::register_conditional_shutdown(signal, i32::from(exit.code()), signals.stop.clone())
            .context("cannot handle signals")?;
        flag::register(signal, signals.stop.clone()).context("cannot handle signals")?;
    }
    flag::register(SIGTERM, signals.terminated.clone()).context("cannot handle signals")?;
    Ok(signals)
}

/// The baseline engine of the run: `--baseline`, else `reference` when it runs, else (with
/// several engines) the first one named, with why it was chosen, for the summary to say.
fn baseline(args: &RunArgs) -> (String, Option<&'static str>) {
    let reference = crate::game::REFERENCE_ENGINE;
    if let Some(name) = &args.baseline {
        return (name.clone(), None);
    }
    let named = &args.engines;
    let has_reference = named
        .iter()
        .any(|e| e == reference || e == crate::engines::ALL_ENGINES);
    match named.first() {
        Some(first) if named.len() > 1 && !has_reference => {
            let name = external::External::parse(first).map_or_else(|| first.clone(), |p| p.name);
            (
                name,
                Some("the first engine named: no reference engine in the run"),
            )
        }
        _ => (reference.to_string(), None),
    }
}

pub fn run(args: RunArgs) -> Result<Exit> {
    let started = (SystemTime::now(), Instant::now());
    let signals = catch_signals()?;
    // An A/B comparison in interleaved rounds is a run of its own (`cli/duet.rs`).
    if args.duet.asked() {
        return super::duet::run(&args, &baseline(&args).0, signals.stop);
    }
    let plan = RunPlan::of(&args, &signals)?;
    let (outcome, mut tally, hidden) = plan.execute()?;
    hidden_problems_line(&args, hidden);
    plan.conclude(outcome, &mut tally, started, &signals)
}

/// A run as its options ask for it, every input read and every output checked, before any
/// case is solved: the files, the runner's [`Config`], the resolved engines, the journaled
/// plan (shards, `--resume`) and what happens after (exports, baselines, the report).
struct RunPlan<'a> {
    args: &'a RunArgs,
    files: Vec<corpus::CaseFile>,
    /// Paths under the corpus that are not cases (reported, counted in the exit code).
    problems: Vec<corpus::CorpusError>,
    config: Config,
    /// The baseline engine's name, and why it was chosen when `--baseline` did not name it.
    baseline: (String, Option<&'static str>),
    table: runner::EngineTable,
    journaled: Option<shard::Plan>,
    after: AfterRun,
    exports: Vec<Export<'a>>,
    /// The start-up of the run's external programs, timed once before the run: the shell's,
    /// and each program's own on each game (taken out of the summary's times).
    startup: Option<(String, std::time::Duration)>,
    /// The lock of the results file the run writes, held until the plan is dropped.
    _lock: Option<atomic::Lock>,
}

impl<'a> RunPlan<'a> {
    /// Reads the corpus, builds the configuration, resolves the engines and checks every
    /// output path, so that a bad option fails before the long run.
    fn of(args: &'a RunArgs, signals: &Signals) -> Result<RunPlan<'a>> {
        for plot in [&args.plot, &args.plot_scaling].into_iter().flatten() {
            require_svg(plot).map_err(anyhow::Error::msg)?;
        }
        let game = args.game.as_deref().map(find_game).transpose()?;
        let corpus::Corpus {
            mut files,
            problems,
        } = crate::package::paths::discover_all(&args.paths, game, registry::GAMES)?;
        // Unreadable folders and `.in` entries that are not regular files: reported, counted
        // in the exit code (2), and the rest of the corpus runs.
        for problem in &problems {
            eprintln!("gamebench: {problem}");
        }
        if files.is_empty() {
            anyhow::bail!("no readable .in files (see above)");
        }
        args.reading.apply_to_files(&mut files)?;
        let config = config_of(args, signals.stop.clone())?;
        let threads = config.threads.unwrap_or_else(meta::cores);
        if oversubscribed(args, threads) {
            let cores = external::allowed_cpus().len();
            eprintln!(
                "gamebench: warning: up to {threads} external programs run at once on {cores} cores: \
                 their times are inflated; use -j {cores} or fewer (with --pin, one program per core)"
            );
        }
        // A shard or --resume writes its own CSV, journaled.
        let journaled =
            shards::run_plan(&args.shards, args.csv.as_deref(), args.out_dir.is_some())?;
        let baseline = baseline(args);
        let after = AfterRun::prepare(
            &args.after,
            &args.paths,
            &baseline.0,
            args.out_dir.as_deref(),
        )?;
        if journaled.is_some() && after.csv.is_some() {
            anyhow::bail!(
                "--save-baseline, --compare and --report work on a whole run: not with --shard or --resume (merge the shards, then use `gamebench compare` and `gamebench report`)"
            );
        }
        // Engines (and external programs) are checked now, before any file is read or run.
        let table = runner::EngineTable::resolve(
            files.iter().map(|f| f.game),
            &args.engines,
            &config.shell,
        )?
        .with_baseline(&baseline.0);
        let plan = RunPlan {
            args,
            exports: exports_of(args),
            startup: calibrate(&table),
            files,
            problems,
            config,
            baseline,
            table,
            journaled,
            after,
            _lock: None,
        };
        plan.check_outputs()?;
        // A second run on the same results file stops here, before any work.
        let lock = shards::lock_results(args.csv.as_deref(), plan.journaled.as_ref())?;
        Ok(RunPlan {
            _lock: lock,
            ..plan
        })
    }

    /// Refuses an output path that cannot be written or that is one of the run's inputs.
    fn check_outputs(&self) -> Result<()> {
        let args = self.args;
        let mut paths: Vec<(&str, &Path)> =
            self.exports.iter().map(|e| (e.option, &**e.path)).collect();
        if let Some(csv) = &args.csv {
            paths.insert(0, ("--csv", csv));
        }
        if let Some(junit) = &args.junit {
            if self.journaled.is_some() {
                anyhow::bail!("--junit is not available with --shard or --resume");
            }
            paths.push(("--junit", junit));
        }
        if let Some(report) = &args.after.report {
            paths.push(("--report", report));
        }
        outputs::check(&paths, args.out_dir.as_deref(), &self.files, &self.table)
    }

    /// Solves the cases: journaled (a shard, `--resume`), or streamed to the sinks the options
    /// ask for. Returns the outcome, the tally of every row written and the problem lines
    /// left out past `--problems`.
    fn execute(&self) -> Result<(runner::RunOutcome, Tally, usize)> {
        let args = self.args;
        // Plots and raw samples need every case's record; the summary needs only the tally.
        let keep_records = args.plot.is_some()
            || args.plot_scaling.is_some()
            || (args.samples && args.export_json.is_some());
        let tally = results::Tally::new(args.top.unwrap_or(0), keep_records);
        let mut problems = ProblemLines::new(match args.problems {
            Some(super::ProblemLines::All) => None,
            Some(super::ProblemLines::First(n)) => Some(n),
            None => Some(super::DEFAULT_PROBLEM_LINES),
        });
        let mut told: Vec<&mut dyn Sink> = Vec::new();
        if !args.quiet {
            told.push(&mut problems);
        }
        if let Some(journaled) = &self.journaled {
            let names = shard::EngineNames {
                engines: args.engines.clone(),
                baseline: self.baseline.0.clone(),
            };
            let (outcome, tally) = journaled.run(
                &self.files,
                &self.config,
                &self.table,
                &names,
                tally,
                &mut told,
            )?;
            drop(told);
            return Ok((outcome, tally, problems.hidden));
        }
        let mut csv = args.csv.as_deref().map(CsvSink::create).transpose()?;
        let several = self.table.several_names();
        let mut out_dir = args.out_dir.as_deref().map(|d| OutDirSink::new(d, several));
        let mut records = RecordSink::new(tally);
        let mut junit = args.junit.clone().map(JunitSink::new);
        let mut kept = self
            .after
            .csv
            .as_ref()
            .map(|(path, _)| CsvSink::create(path))
            .transpose()?;
        let mut sinks: Vec<&mut dyn Sink> = vec![&mut records];
        sinks.append(&mut told);
        if let Some(csv) = &mut csv {
            sinks.push(csv);
        }
        if let Some(out_dir) = &mut out_dir {
            sinks.push(out_dir);
        }
        if let Some(junit) = &mut junit {
            sinks.push(junit);
        }
        if let Some(kept) = &mut kept {
            sinks.push(kept);
        }
        let outcome = runner::run(&self.files, &self.config, &self.table, &mut sinks)?;
        drop(sinks);
        if let Some(partial) = csv.as_ref().and_then(|c| c.partial.as_ref()) {
            eprintln!(
                "gamebench: interrupted: the {} rows of every finished (case, engine, run) are in {}",
                outcome.rows,
                partial.display()
            );
        }
        Ok((outcome, records.tally, problems.hidden))
    }

    /// After the run: the summary and exports, the baseline and the comparison, and the exit
    /// code (the run's own failures first, then the comparison's, then the corpus's problems).
    fn conclude(
        &self,
        outcome: runner::RunOutcome,
        tally: &mut Tally,
        started: (SystemTime, Instant),
        signals: &Signals,
    ) -> Result<Exit> {
        let args = self.args;
        let stdout_taken = [
            &args.csv,
            &args.junit,
            &args.export_json,
            &args.export_markdown,
            &args.export_csv,
        ]
        .iter()
        .any(|p| p.as_deref().is_some_and(is_stdout));
        let threads = self.config.threads.unwrap_or_else(meta::cores);
        let mut meta = run_meta(
            args,
            tally,
            threads,
            started,
            (&self.startup, &self.baseline.0),
        );
        if outcome.interrupted {
            eprintln!(
                "gamebench: interrupted after {} whole file(s): the summary below covers the {} finished result row(s) written",
                outcome.files, outcome.rows
            );
        }
        let limits = &self.config.program_limits;
        let limits = results::LimitFigures {
            wall_ns: Some(limits.timeout.as_nanos() as u64),
            cpu_ns: limits.cpu.map(|c| c.as_nanos() as u64),
            memory_kb: limits.memory_kb,
        };
        let written = Written {
            exports: &self.exports,
            stdout_taken,
            interrupted: outcome.interrupted,
        };
        // Each program's start-up, calibrated after the run (an interrupted run is not held up:
        // its summary keeps the start-up). Nothing shows the figures it corrects under --quiet
        // without a summary export: its programs are not run again for it.
        let unshown = args.quiet && self.exports.is_empty();
        let calibrated =
            if unshown || outcome.interrupted || self.config.stop.load(Ordering::Relaxed) {
                Vec::new()
            } else {
                calibrate_programs(&self.files, &self.table, &self.config.program_limits)
            };
        meta.startup = taken_out(&calibrated, self.config.case_timeout.is_some());
        summarize(
            args,
            self.baseline.clone(),
            (tally, &calibrated),
            &written,
            &meta,
            &limits,
        )?;
        let compared = if outcome.interrupted {
            self.after.abandon();
            Exit::Ok
        } else {
            self.after.finish(&meta, stdout_taken)?
        };
        self.exit_code(&outcome, compared, signals)
    }

    /// The exit code: a signal first, then the run's failures, the comparison's verdict, and
    /// the corpus paths that were not cases.
    fn exit_code(
        &self,
        outcome: &runner::RunOutcome,
        compared: Exit,
        signals: &Signals,
    ) -> Result<Exit> {
        // A signal that came while the last cases ran stopped nothing: the results are whole,
        // but the exit code still says the run was asked to stop.
        let signalled = self.config.stop.load(Ordering::Relaxed);
        if signalled && !outcome.interrupted {
            eprintln!(
                "gamebench: interrupted after the last case finished: the results are complete"
            );
        }
        if outcome.interrupted || signalled {
            return Ok(if signals.terminated.load(Ordering::Relaxed) {
                Exit::Terminated
            } else {
                Exit::Interrupted
            });
        }
        let exit = shards::exit_code(self.journaled.as_ref(), outcome.exit());
        // The run's own failures come first; a passing run exits with its comparison's code.
        let exit = if exit == Exit::Ok { compared } else { exit };
        if !self.problems.is_empty() && exit < Exit::Error {
            eprintln!(
                "gamebench: {} path(s) under the corpus were not cases (see above)",
                self.problems.len()
            );
            return Ok(Exit::Error);
        }
        Ok(exit)
    }
}

/// The runner's configuration from `run`'s options (`stop` set by the signal handlers).
fn config_of(args: &RunArgs, stop: Arc<AtomicBool>) -> Result<Config> {
    Ok(Config {
        budget: args.budget.budget()?,
        check: args.check,
        presentation: args.presentation,
        validate: args.validate,
        threads: Some(args.jobs.threads()),
        progress: match (args.progress, args.quiet) {
            (Some(mode), _) => mode,
            (None, true) => ProgressMode::None,
            (None, false) => ProgressMode::Auto,
        },
        warmup: args.warmup,
        runs: args.runs,
        repeat_short: !args.no_repeat,
        timeout: args
            .launch
            .wall(args.timeout, super::DEFAULT_TIMEOUT_SECS)?,
        program_limits: args
            .launch
            .limits(args.timeout, super::DEFAULT_TIMEOUT_SECS)?,
        shell: args.launch.shell(),
        case_timeout: args
            .case_timeout
            .map(|s| positive_seconds("--case-timeout", s))
            .transpose()?,
        keep_outputs: args.out_dir.is_some(),
        select: None,
        stop,
        case_events: false,
        prepare: args.csv.is_some(),
    })
}

/// The exports the options ask for, in the order they are written.
fn exports_of(args: &RunArgs) -> Vec<Export<'_>> {
    [
        (
            args.export_json.as_ref(),
            &Json as &dyn Exporter,
            "JSON export",
            "--export-json",
        ),
        (
            args.export_markdown.as_ref(),
            &Markdown,
            "Markdown export",
            "--export-markdown",
        ),
        (
            args.export_csv.as_ref(),
            &SummaryCsv,
            "CSV export",
            "--export-csv",
        ),
        (args.plot.as_ref(), &BoxPlot, "plot", "--plot"),
        (
            args.plot_scaling.as_ref(),
            &ScalingPlot,
            "scaling plot",
            "--plot-scaling",
        ),
    ]
    .into_iter()
    .filter_map(|(path, exporter, what, option)| {
        path.map(|path| Export {
            path,
            exporter,
            what,
            option,
        })
    })
    .collect()
}

/// Says how many problem lines were left out past `--problems` (none when it asked for none).
fn hidden_problems_line(args: &RunArgs, hidden: usize) {
    let asked_none = args.problems == Some(super::ProblemLines::First(0));
    if hidden == 0 || asked_none {
        return;
    }
    let see = if args.csv.is_some() {
        "see the CSV"
    } else {
        "--problems all or --csv FILE shows them"
    };
    eprintln!(
        "gamebench: and {} more problem {} ({see})",
        units::thousands(hidden as u64),
        if hidden == 1 { "line" } else { "lines" }
    );
}

/// The start-up cost of the run's external programs' shape, timed once before the run:
/// `(shell description, time)`.
fn calibrate(table: &runner::EngineTable) -> Option<(String, std::time::Duration)> {
    let program = table.externals().into_iter().next()?;
    let what = match &program.shell {
        Shell::Program(sh) => format!("{sh} -c ''"),
        Shell::None => "true (no shell)".to_string(),
    };
    external::calibrate(&program.shell).map(|t| (what, t))
}

/// Whether more external programs may run at once than this process has cores.
fn oversubscribed(args: &RunArgs, threads: usize) -> bool {
    let programs = args
        .engines
        .iter()
        .any(|e| external::External::parse(e).is_some());
    programs && threads > external::allowed_cpus().len()
}

/// What the exports say about this run.
fn run_meta(
    args: &RunArgs,
    tally: &Tally,
    threads: usize,
    started: (SystemTime, Instant),
    (startup, baseline): (&Option<(String, std::time::Duration)>, &str),
) -> RunMeta {
    let wall = started.1.elapsed();
    let (tool, version, git) = meta::build_info();
    RunMeta {
        tool,
        version,
        git,
        host: meta::host_name(),
        cpu: meta::cpu_model(),
        cores: meta::cores(),
        threads,
        runs: args.runs,
        warmup: args.warmup,
        max_states: args.budget.max_states,
        time_limit_s: args.budget.time_limit,
        memory_mb: args.budget.memory,
        search_threads: args.budget.search_threads,
        check: args.check,
        baseline: baseline.to_string(),
        start: meta::rfc3339(started.0),
        end: meta::rfc3339(SystemTime::now()),
        wall_ns: wall.as_nanos() as u64,
        results: tally.results(),
        results_per_s: tally.results() as f64 / wall.as_secs_f64().max(1e-9),
        cases: tally.cases(),
        external_startup_ns: startup.as_ref().map(|(_, t)| t.as_nanos() as u64),
        startup: Vec::new(),
        pinned: args.launch.pin,
        oversubscribed: oversubscribed(args, threads),
        command_line: std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
    }
}
