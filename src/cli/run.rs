//! `gamebench run`: options -> a runner [`Config`] and sinks (or a shard's plan) -> summary,
//! exports and the exit code.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result};
use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::flag;

use gamebench::atomic::AtomicFile;
use gamebench::corpus;
use gamebench::export::{self, BoxPlot, Exporter, Json, Markdown, Report};
use gamebench::results::{self, Record};
use gamebench::runner::{self, Config, CsvSink, OutDirSink, ProgressMode, RecordSink, Sink};
use gamebench::status::Exit;

use super::{RunArgs, find_game, positive_seconds, shards};

/// Whether an output path means stdout.
fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Fails now, before the run, if `path` cannot be written (nothing is left behind).
fn preflight(path: &Path) -> Result<()> {
    if !is_stdout(path) {
        AtomicFile::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    }
    Ok(())
}

/// The flags a first SIGINT or SIGTERM sets (stop the run); a second one ends the process at
/// once with the signal's exit code.
struct Signals {
    stop: Arc<AtomicBool>,
    terminated: Arc<AtomicBool>,
}

fn catch_signals() -> Result<Signals> {
    let signals = Signals {
        stop: Arc::new(AtomicBool::new(false)),
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

pub fn run(args: RunArgs) -> Result<Exit> {
    let signals = catch_signals()?;
    let game = args.game.as_deref().map(find_game).transpose()?;
    let files = corpus::discover(&args.paths, game)?;
    let config = Config {
        engines: args.engines.clone(),
        budget: args.budget.budget()?,
        check: args.check,
        validate: args.validate,
        threads: shards::default_jobs(args.jobs),
        progress: match (args.progress, args.quiet) {
            (Some(mode), _) => mode,
            (None, true) => ProgressMode::None,
            (None, false) => ProgressMode::Auto,
        },
        show_problems: !args.quiet,
        warmup: args.warmup,
        runs: args.runs,
        baseline: args.baseline.clone(),
        timeout: positive_seconds("--timeout", args.timeout)?,
        keep_outputs: args.out_dir.is_some(),
        select: None,
        stop: signals.stop.clone(),
        case_events: false,
    };
    // A shard or --resume writes its own CSV, journaled.
    let plan = shards::run_plan(&args.shards, args.csv.as_deref(), args.out_dir.is_some())?;
    // Every output is checked before the long run, so a bad path fails at once.
    let exports: Vec<(&PathBuf, &dyn Exporter, &str)> = [
        (
            args.export_json.as_ref(),
            &Json as &dyn Exporter,
            "JSON export",
        ),
        (args.export_markdown.as_ref(), &Markdown, "Markdown export"),
        (args.plot.as_ref(), &BoxPlot, "plot"),
    ]
    .into_iter()
    .filter_map(|(path, exporter, what)| path.map(|p| (p, exporter, what)))
    .collect();
    for (path, _, _) in &exports {
        preflight(path)?;
    }
    let (outcome, records) = match &plan {
        Some(plan) => plan.run(&files, &config)?,
        None => {
            let mut csv = args.csv.as_deref().map(CsvSink::create).transpose()?;
            let several =
                runner::EngineTable::resolve(files.iter().map(|f| f.game), &args.engines)?
                    .several_names();
            let mut out_dir = args.out_dir.as_deref().map(|d| OutDirSink::new(d, several));
            let mut records = RecordSink::default();
            let mut sinks: Vec<&mut dyn Sink> = vec![&mut records];
            if let Some(csv) = &mut csv {
                sinks.push(csv);
            }
            if let Some(out_dir) = &mut out_dir {
                sinks.push(out_dir);
            }
            let outcome = runner::run(&files, &config, &mut sinks)?;
            if let Some(partial) = csv.as_ref().and_then(|c| c.partial.as_ref()) {
                eprintln!(
                    "gamebench: interrupted: the rows of the {} finished file(s) are in {}",
                    outcome.files,
                    partial.display()
                );
            }
            (outcome, records.records)
        }
    };
    let stdout_taken = [&args.csv, &args.export_json, &args.export_markdown]
        .iter()
        .any(|p| p.as_deref().is_some_and(is_stdout));
    if outcome.interrupted {
        eprintln!(
            "gamebench: interrupted after {} file(s): the summary below covers them only",
            outcome.files
        );
    }
    summarize(&args, &records, &exports, stdout_taken)?;
    if outcome.interrupted {
        return Ok(if signals.terminated.load(Ordering::Relaxed) {
            Exit::Terminated
        } else {
            Exit::Interrupted
        });
    }
    Ok(shards::exit_code(plan.as_ref(), outcome.exit()))
}

/// Prints the summary (to stderr when stdout carries an export) and writes the exports.
fn summarize(
    args: &RunArgs,
    records: &[Record],
    exports: &[(&PathBuf, &dyn Exporter, &str)],
    stdout_taken: bool,
) -> Result<()> {
    let summary = results::summarize(records, &args.baseline);
    let slowest = results::slowest(records, args.top.unwrap_or(0));
    let report = Report {
        summary: &summary,
        slowest: &slowest,
        records,
    };
    for (path, exporter, what) in exports {
        export::write_export(*exporter, &report, path)
            .with_context(|| format!("cannot write the {what}"))?;
    }
    let mut text = results::summary_table(&summary);
    text.push_str(&export::slowest_text(&slowest));
    if stdout_taken {
        eprint!("{text}");
    } else {
        print!("{text}");
    }
    Ok(())
}
