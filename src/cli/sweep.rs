//! `gamebench sweep`: options -> the points, a scratch folder for their corpora, the runner's
//! configuration -> the table, the fitted exponents, the plot and the exit code.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{ArgGroup, Args};

use super::BudgetArgs;
use crate::export::require_svg;
use crate::runner::{Config, ProgressMode};
use crate::status::Exit;
use crate::sweep::{self, Corpus};
use crate::util::atomic::write_atomic;

use super::{find_game, shards};

/// `gamebench sweep GAME (--size A..B:STEP | --param NAME=V1,V2,...) [options]`.
#[derive(Args)]
#[command(group(ArgGroup::new("points").required(true).args(["size", "param"])))]
pub struct SweepArgs {
    /// The game (see `gamebench list`).
    #[arg(value_parser = super::GameName)]
    pub game: String,
    /// Generator profile (see `gamebench list`).
    #[arg(long, short, default_value = crate::generate::DEFAULT_PROFILE)]
    pub profile: String,
    /// Board sizes: a range `6x6..30x30:6` (rows and columns step together) or a list
    /// `6x6,12x12,...`; each point is generated with `--size RxC`.
    #[arg(long, value_name = "RANGE")]
    pub size: Option<String>,
    /// One generator option at several values: `NAME=V1,V2,...` (e.g. `moves=20,40,80`).
    #[arg(long, value_name = "NAME=VALUES")]
    pub param: Option<String>,
    /// Files generated per point.
    #[arg(long, short = 'n', default_value_t = 5)]
    pub count: u64,
    /// Seed of every point's corpus (the same arguments give the same files).
    #[arg(long, short, default_value_t = 1)]
    pub seed: u64,
    /// Engine to run (as for `run`); repeat for several; `all` = every internal engine.
    #[arg(long = "engine", short = 'e', value_name = "NAME", value_parser = super::EngineName, hide_possible_values = true)]
    pub engines: Vec<String>,
    /// Timed runs of each case.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// Untimed runs of each case before the timed ones.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub warmup: u32,
    #[command(flatten)]
    pub jobs: shards::JobsArgs,
    /// Engine the others are compared with.
    #[arg(long, default_value = "reference", value_name = "NAME")]
    pub baseline: String,
    /// Wall-time limit of one external program run, in seconds (default 60, or 3 x --cpu-limit
    /// + 1 s).
    #[arg(long, value_name = "SECONDS", value_parser = super::seconds_arg)]
    pub timeout: Option<f64>,
    #[command(flatten)]
    pub launch: super::ShellArgs,
    /// Draw median time per case against size, log-log, one line per engine, to an SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Write every point's median time per case per engine and each engine's fit (exponent,
    /// coefficient, R²) as CSV (`-` = stdout).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// The same data as JSON (`-` = stdout).
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,
    /// Keep the generated corpora under DIR (`DIR/<point>/<game>/`); default: a temporary
    /// folder, removed at the end.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

pub fn sweep(args: SweepArgs) -> Result<Exit> {
    let game = find_game(&args.game)?;
    if let Some(plot) = &args.plot {
        require_svg(plot).map_err(anyhow::Error::msg)?;
        crate::util::atomic::AtomicFile::create(plot)
            .with_context(|| format!("cannot create {}", plot.display()))?;
    }
    // The data files are checked before the sweep, so a bad path fails at once.
    for path in [&args.csv, &args.export_json].into_iter().flatten() {
        if !super::outputs::is_stdout(path) {
            crate::util::atomic::Target::of(path)
                .and_then(|t| t.check_writable())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    let points = match (&args.size, &args.param) {
        (Some(size), _) => sweep::size_points(size)?,
        (None, Some(param)) => sweep::param_points(param)?,
        (None, None) => unreachable!("clap requires --size or --param"),
    };
    let config = Config {
        budget: args.budget.budget()?,
        threads: Some(args.jobs.threads()),
        progress: ProgressMode::None,
        warmup: args.warmup,
        runs: args.runs,
        timeout: args
            .launch
            .wall(args.timeout, super::DEFAULT_TIMEOUT_SECS)?,
        program_limits: args
            .launch
            .limits(args.timeout, super::DEFAULT_TIMEOUT_SECS)?,
        shell: args.launch.shell(),
        ..Config::default()
    };
    // Engines and programs are checked before anything is generated.
    let engines = crate::runner::EngineTable::resolve([game], &args.engines, &config.shell)?
        .with_baseline(&args.baseline);
    let scratch = args.out.is_none().then(sweep::scratch_dir);
    let dir = args
        .out
        .clone()
        .or_else(|| scratch.clone())
        .expect("one of them");
    let corpus = Corpus {
        game,
        profile: &args.profile,
        seed: args.seed,
        count: args.count,
        dir: &dir,
    };
    eprintln!(
        "sweep: {} points of {} {} file(s) each, under {}",
        points.len(),
        game.name(),
        args.count,
        dir.display()
    );
    let results = sweep::run(&corpus, &points, &config, &engines);
    if let Some(scratch) = &scratch {
        let _ = std::fs::remove_dir_all(scratch);
    }
    let results = results?;
    write_results(&args, game.name(), &results)?;
    Ok(Exit::of(results.iter().filter_map(|r| r.worst)))
}

/// The table (on stderr when stdout carries data), then the data files and the plot.
fn write_results(args: &SweepArgs, game: &str, results: &[sweep::PointResult]) -> Result<()> {
    let fits = sweep::fits(results);
    let data_to_stdout = [&args.csv, &args.export_json]
        .iter()
        .any(|p| p.as_deref().is_some_and(super::outputs::is_stdout));
    let table = sweep::table(results, &fits);
    if data_to_stdout {
        eprint!("{table}");
    } else {
        print!("{table}");
    }
    for (path, text) in [
        (&args.csv, sweep::data::csv(game, results, &fits)),
        (&args.export_json, sweep::data::json(game, results, &fits)),
    ] {
        let Some(path) = path else { continue };
        if super::outputs::is_stdout(path) {
            print!("{text}");
        } else {
            write_atomic(path, text.as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    if let Some(plot) = &args.plot {
        let svg = sweep::plot(game, results, &fits).map_err(anyhow::Error::msg)?;
        write_atomic(plot, svg.as_bytes())
            .with_context(|| format!("cannot write {}", plot.display()))?;
    }
    Ok(())
}
