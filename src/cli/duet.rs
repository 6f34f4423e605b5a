//! `run` in interleaved A/B rounds (`--fail-if-slower`, `--time`, `--interleave`, `--measure`): options ->
//! [`crate::duet::Options`] -> the comparison's summary and exit code.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Result, bail};
use clap::Args;

use crate::corpus;
use crate::duet::{self, Measure, Rounds};
use crate::registry;
use crate::runner;
use crate::status::Exit;

use super::{RunArgs, find_game, positive_seconds, seconds_arg};

/// The time budget of the adaptive rounds when neither `--time` nor `--runs` is given.
pub const DEFAULT_TIME_SECS: f64 = 60.0;
/// The threshold without `--fail-if-slower`, percent.
pub const DEFAULT_THRESHOLD_PCT: f64 = 3.0;

#[derive(Args, Debug, Default)]
pub struct DuetArgs {
    /// Compare the engines with the baseline in interleaved rounds and exit 6 when the
    /// baseline is faster than an engine by more than PCT percent at 95% confidence
    /// (`3` or `3%`; see docs/compare.md, "Interleaved A/B runs").
    #[arg(long, value_name = "PCT", value_parser = percent_arg)]
    pub fail_if_slower: Option<f64>,
    /// Interleaved rounds added until every interval is narrower than the threshold or this
    /// budget (seconds) ends (default with interleaving and no --runs: 60).
    #[arg(long, value_name = "SECONDS", value_parser = seconds_arg)]
    pub time: Option<f64>,
    /// Compare the engines in interleaved rounds (as --fail-if-slower, without failing).
    #[arg(long)]
    pub interleave: bool,
    /// Seed of the interleaved rounds' random orders (default 1: reproducible).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// What interleaved rounds measure (and asks for them): `cpu` (default: a program's user +
    /// system time, an internal engine's thread CPU time), `wall`, `instructions` (counted:
    /// hardware counters, else valgrind's callgrind) or `work` (internal engines' counters).
    #[arg(long, value_enum, value_name = "WHAT")]
    pub measure: Option<Measure>,
}

impl DuetArgs {
    /// Whether `run` is an interleaved comparison.
    pub fn asked(&self) -> bool {
        self.fail_if_slower.is_some()
            || self.time.is_some()
            || self.interleave
            || self.measure.is_some()
    }
}

/// A percentage: `3`, `3%`, `0.5`; positive and below 1000.
fn percent_arg(text: &str) -> Result<f64, String> {
    let number = text.trim().trim_end_matches('%');
    let pct: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a percentage"))?;
    if !(pct.is_finite() && pct > 0.0 && pct < 1000.0) {
        return Err(format!(
            "must be a percentage above 0 and below 1000, not {text}"
        ));
    }
    Ok(pct)
}

pub fn run(args: &RunArgs, baseline: &str, stop: Arc<AtomicBool>) -> Result<Exit> {
    let refused = [
        ("--csv", args.csv.is_some()),
        ("--out-dir", args.out_dir.is_some()),
        ("--junit", args.junit.is_some()),
        ("--export-json", args.export_json.is_some()),
        ("--export-markdown", args.export_markdown.is_some()),
        ("--export-csv", args.export_csv.is_some()),
        ("--plot", args.plot.is_some()),
        ("--plot-scaling", args.plot_scaling.is_some()),
        ("--check", args.check),
        ("--warmup", args.warmup > 0),
    ];
    if let Some((option, _)) = refused.iter().find(|(_, given)| *given) {
        bail!(
            "{option} is not available in an interleaved comparison (--fail-if-slower, --time, --interleave)"
        );
    }
    let game = args.game.as_deref().map(find_game).transpose()?;
    let corpus::Corpus {
        mut files,
        problems,
    } = corpus::discover_all(&args.paths, game, registry::GAMES)?;
    for problem in &problems {
        eprintln!("gamebench: {problem}");
    }
    if files.is_empty() {
        bail!("no readable .in files (see above)");
    }
    args.reading.apply_to_files(&mut files)?;
    let shell = args.launch.shell();
    let table = runner::EngineTable::resolve(files.iter().map(|f| f.game), &args.engines, &shell)?
        .with_baseline(baseline);
    let d = &args.duet;
    let rounds = match (d.time, args.runs) {
        (Some(s), _) => Rounds::Budget(positive_seconds("--time", s)?),
        (None, 1) => Rounds::Budget(Duration::from_secs_f64(DEFAULT_TIME_SECS)),
        (None, n) => Rounds::Fixed(n),
    };
    let mut limits = args
        .launch
        .limits(args.timeout, super::DEFAULT_TIMEOUT_SECS)?;
    limits.case_timeout = args
        .case_timeout
        .map(|s| positive_seconds("--case-timeout", s))
        .transpose()?;
    let options = duet::Options {
        rounds,
        threshold: d.fail_if_slower.unwrap_or(DEFAULT_THRESHOLD_PCT) / 100.0,
        fail_if_slower: d.fail_if_slower.is_some(),
        seed: d.seed.unwrap_or(duet::DEFAULT_SEED),
        measure: d.measure.unwrap_or_default(),
        budget: args.budget.budget()?,
        limits,
        stop,
    };
    let outcome = match duet::run(&files, &table, &options) {
        Err(duet::DuetError::NoBaseline) => {
            bail!("the baseline {baseline:?} is not one of the engines run")
        }
        outcome => outcome?,
    };
    print!("{}", duet::render(&outcome, &options));
    // Paths under the corpus that were not cases are a usage error, as in a plain run.
    if !problems.is_empty() {
        return Ok(Exit::Error);
    }
    Ok(outcome.exit(&options))
}
