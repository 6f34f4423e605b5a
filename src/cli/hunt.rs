//! `gamebench hunt GAME -e ENGINE ...`: the options (one subcommand per game, with the game's
//! generator options, as `stress`) and the report.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Duration;

use anyhow::{Result, bail};
use clap::{Args, ValueEnum};

use crate::engines::resolve as resolve_engines;
use crate::hunt::progtime::{CALIBRATION_RUNS, ProgramClock};
use crate::hunt::{self, Config, Limit, Metric};
use crate::status::Exit;
use crate::util::units::{human_duration, human_time};

use super::games::{GameCommand, PerGame, Shape};
use super::stress::STRESS_SHAPE;
use super::{BudgetArgs, positive_seconds};

/// How `hunt`'s per-game subcommands look: `--profile` has no default (every profile).
const HUNT_SHAPE: Shape = Shape {
    default_profile: false,
    ..STRESS_SHAPE
};

/// The options of `hunt` every game has.
#[derive(Args)]
pub struct HuntOptions {
    /// The engine to slow down: an internal name, `cmd:COMMAND` or `NAME=cmd:COMMAND`.
    #[arg(long, short, value_name = "NAME", value_parser = super::EngineName, hide_possible_values = true)]
    pub engine: String,
    /// Start only from this profile's cases (default: every profile's).
    #[arg(long, short)]
    pub profile: Option<String>,
    /// Seed of the first generation and of the mutations.
    #[arg(long, short, default_value_t = 1)]
    pub seed: u64,
    /// Search for SECONDS (default 60): a deadline for the whole hunt, generation and each
    /// run included.
    #[arg(long, value_name = "SECONDS", value_parser = super::seconds_arg, conflicts_with = "evaluations")]
    pub time: Option<f64>,
    /// Stop after N evaluated cases (deterministic with --metric work).
    #[arg(long, value_name = "N")]
    pub evaluations: Option<u64>,
    /// What to maximise: the engine's `time` (the fastest of --runs), or its `work` counter.
    #[arg(long, value_enum, default_value = "time")]
    pub metric: Metric,
    /// Cases kept (the population, and the corpus written).
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub top: usize,
    /// Timed runs per candidate (the fastest counts; a candidate about to be kept is timed
    /// again with three times as many).
    #[arg(long, default_value_t = 5, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// Output folder: files go to DIR/<game>/.
    #[arg(long, short, default_value = "hunt", value_name = "DIR")]
    pub out: PathBuf,
    /// Wall-time limit of one external program run, in seconds (default 10, or 3 x --cpu-limit
    /// + 1 s).
    #[arg(long, value_name = "SECONDS", value_parser = super::seconds_arg)]
    pub timeout: Option<f64>,
    /// An external generator instead of the game's own: `cmd:COMMAND`, run with `{seed}`
    /// replaced by --seed, --seed + 1, ...; its cases start the search (see
    /// docs/generators.md).
    #[arg(long, value_name = "CMD")]
    pub generator: Option<String>,
    #[command(flatten)]
    pub reading: super::ReadingArgs,
    #[command(flatten)]
    pub budget: BudgetArgs,
    #[command(flatten)]
    pub launch: super::ShellArgs,
    /// Candidates measured at once (the cases found are the same whatever the count).
    #[command(flatten)]
    pub jobs: super::shards::JobsArgs,
}

/// An overrun of `--time` worth explaining.
const OVERRUN_TOLD: Duration = Duration::from_secs(1);

/// The default search time of `hunt`.
pub const DEFAULT_HUNT_SECONDS: f64 = 60.0;

/// `hunt GAME [options]`, parsed.
pub type HuntArgs = PerGame<HuntOptions>;

impl GameCommand for HuntOptions {
    const SHAPE: Shape = HUNT_SHAPE;
}

/// `gamebench hunt GAME -e ENGINE ...`.
pub fn hunt(args: HuntArgs) -> Result<Exit> {
    let signals = super::run::catch_signals()?;
    let o = &args.options;
    let game = args.game;
    let reading = o.reading.for_game(game)?;
    let mut engines = resolve_engines(game, std::slice::from_ref(&o.engine), &o.launch.shell())?;
    let Some(engine) = engines.pop().filter(|_| engines.is_empty()) else {
        bail!("hunt takes one engine, not `all`");
    };
    let limit = match (o.time, o.evaluations) {
        (_, Some(n)) => Limit::Evaluations(n),
        (Some(t), None) => Limit::Time(positive_seconds("--time", t)?),
        (None, None) => Limit::Time(Duration::from_secs_f64(DEFAULT_HUNT_SECONDS)),
    };
    let limits = o.launch.limits(o.timeout, 10.0)?;
    let generator = o.launch.generator(o.generator.as_deref(), &limits)?;
    let config = Config {
        game,
        reading,
        engine,
        profile: o.profile.clone(),
        options: &args.generator,
        seed: o.seed,
        limit,
        metric: o.metric,
        top: o.top,
        runs: o.runs,
        limits,
        budget: o.budget.budget()?,
        out: o.out.clone(),
        generator,
        jobs: o.jobs.threads(),
    };
    eprintln!(
        "hunt {}: the slowest inputs of {} by {}, {}, seed {}; budget: {}",
        game.name(),
        config.engine.name(),
        o.metric
            .to_possible_value()
            .map_or(String::new(), |v| v.get_name().to_string()),
        match (&config.generator, config.profile.as_deref()) {
            // An external generator ignores the profile: name what really generates.
            (Some(g), _) => format!("generator `{}`", g.template),
            (None, Some(p)) => format!("profile {p}"),
            (None, None) => "every profile".to_string(),
        },
        config.seed,
        match config.limit {
            Limit::Time(t) => format!("{} (--time)", human_duration(t)),
            Limit::Evaluations(n) => format!("{n} evaluations (--evaluations)"),
        }
    );
    let hunted = hunt::run(&config)?;
    print_hunted(&config, &hunted);
    if hunted.stopped {
        eprintln!(
            "{}: stopped by a signal; the cases found so far are written",
            game.name()
        );
        return Ok(if signals.terminated.load(Ordering::Relaxed) {
            Exit::Terminated
        } else {
            Exit::Interrupted
        });
    }
    Ok(Exit::Ok)
}

/// What the hunt found, on stdout (its overrun of `--time` and a flat population on stderr):
/// the evaluations, the best over time, the population, the clock of a program, the files.
fn print_hunted(config: &Config<'_>, hunted: &hunt::Hunted) {
    let (game, metric) = (config.game, config.metric);
    if let Limit::Time(budget) = config.limit
        && hunted.time > budget + OVERRUN_TOLD
    {
        eprintln!(
            "hunt: ran {}, past --time {}: the time is checked between evaluations, and the last \
             generation's evaluations (each timed --runs times, a kept one again three times as \
             often) ran past it",
            human_duration(hunted.time),
            human_duration(budget)
        );
    }
    let unit = game.work_unit();
    let show = |v| hunt::shown(metric, v, unit);
    println!(
        "{}: {} evaluations ({} invalid children) in {} against {}",
        game.name(),
        hunted.evaluations,
        hunted.rejected,
        human_duration(hunted.time),
        config.engine.name()
    );
    println!(
        "best of the generator's cases: {}; best found: {}",
        show(hunted.generated_best),
        show(hunted.population.first().map_or(0, |s| s.metric))
    );
    println!("best over time (seconds, evaluations, best):");
    for p in &hunted.progress {
        println!("  {:8.2}  {:8}  {}", p.seconds, p.evaluations, show(p.best));
    }
    for (k, s) in hunted.population.iter().enumerate() {
        println!(
            "  #{:<3} {:>14}  {}",
            k + 1,
            show(s.metric),
            s.input.describe(game)
        );
    }
    if let Some(clock) = &hunted.clock {
        for line in clock_lines(clock, &hunted.population) {
            println!("{line}");
        }
    }
    for file in &hunted.files {
        println!("wrote {}", file.display());
    }
    // A flat population: the search had nothing to climb, and its "best" is any case.
    let first = hunted.population.first().map(|s| s.metric);
    if metric == Metric::Work
        && hunted.population.len() > 1
        && hunted.population.iter().all(|s| Some(s.metric) == first)
        && first == Some(hunted.generated_best)
    {
        eprintln!(
            "hunt: every case kept scores {} (as the generator's best did): --metric work cannot \
             tell these cases apart (the work is fixed by their size); try --metric time",
            show(hunted.generated_best)
        );
    }
}

/// What a program's times mean: its start-up taken out, the copies per process, and whether
/// the differences ranked are below the start-up's noise.
fn clock_lines(clock: &ProgramClock, population: &[hunt::Scored]) -> Vec<String> {
    let mut lines = vec![format!(
        "times are CPU time (user + sys) per case, start-up {} taken out (noise {} over {} runs), \
         {} cop{} of a case per process",
        human_time(clock.startup_ns),
        human_time(clock.noise_ns),
        CALIBRATION_RUNS,
        clock.copies,
        if clock.copies == 1 { "y" } else { "ies" }
    )];
    let noise = clock.noise_per_case();
    let (best, worst) = (
        population.first().map_or(0, |s| s.metric),
        population.last().map_or(0, |s| s.metric),
    );
    if best.saturating_sub(worst) <= noise {
        lines.push(format!(
            "warning: the cases kept differ by {} at most, within the start-up noise of {} per \
             case: their ranking is noise",
            human_time(best.saturating_sub(worst)),
            human_time(noise)
        ));
    } else if best <= noise {
        lines.push(format!(
            "warning: the best time, {}, is within the start-up noise of {} per case",
            human_time(best),
            human_time(noise)
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;
    use crate::shrink::Input;

    fn population(metrics: &[u64]) -> Vec<hunt::Scored> {
        let game = registry::find("linkpop").unwrap();
        metrics
            .iter()
            .map(|&metric| hunt::Scored {
                input: Input::read(
                    game,
                    "1 2\nAS AS\n0 0\n".to_string(),
                    &crate::game::Reading::STATEMENT,
                )
                .unwrap(),
                metric,
            })
            .collect()
    }

    #[test]
    fn differences_below_the_start_up_noise_are_called_noise() {
        // 16 copies share a noise of 160 µs: 10 µs per case.
        let clock = ProgramClock {
            startup_ns: 2_000_000,
            noise_ns: 160_000,
            copies: 16,
        };
        let lines = clock_lines(&clock, &population(&[50_000, 45_000]));
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[0].contains("16 copies of a case per process"),
            "{lines:?}"
        );
        assert!(lines[1].contains("ranking is noise"), "{lines:?}");
        // 40 µs apart: above 10 µs, nothing to warn of.
        let lines = clock_lines(&clock, &population(&[50_000, 10_000]));
        assert_eq!(lines.len(), 1, "{lines:?}");
        // Apart, but the best itself is within the noise.
        let lines = clock_lines(&clock, &population(&[9_000, 0]));
        assert!(lines[1].contains("within the start-up noise"), "{lines:?}");
    }
}
