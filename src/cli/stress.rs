//! `gamebench stress GAME ...`: the options, one subcommand per game with that game's own
//! generator options (built by [`super::games`]), and the report.
//!
//! A game's `--cases` (cases per generated file) is renamed `--file-cases` here: `--cases N`
//! is the command's own budget, the number of cases to try.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;

use crate::engines::resolve as resolve_engines;
use crate::status::{Exit, Presentation};
use crate::stress::{self, Config, Limit, Outcome};
use crate::util::units::human_duration;

use super::games::{GameCommand, PerGame, Shape};
use super::{BudgetArgs, positive_seconds};
use crate::generate::DEFAULT_PROFILE;

/// How `stress`'s per-game subcommands look (`hunt`'s too, but for the profile's default).
pub const STRESS_SHAPE: Shape = Shape {
    default_profile: true,
    // Given tests (`--tests`) need no profile: checked in `stress`.
    profile_required: false,
    heading: "Generator options of the game",
    file_cases: true,
};

/// The options of `stress` every game has.
#[derive(Args)]
pub struct StressOptions {
    /// The two engines to hold against each other: internal names, `cmd:COMMAND` or
    /// `NAME=cmd:COMMAND`. The first is the reference the second is checked against.
    #[arg(
        long = "engine",
        short = 'e',
        value_name = "NAME",
        required = true,
        num_args = 1,
        value_parser = super::EngineName,
        hide_possible_values = true
    )]
    pub engines: Vec<String>,
    /// Generator profile (see `gamebench list`); required for a game without a `random`
    /// profile, unless `--tests` gives the inputs.
    #[arg(long, short)]
    pub profile: Option<String>,
    /// Seed of the generated cases: the same seed gives the same cases in the same order.
    #[arg(long, short, default_value_t = 1)]
    pub seed: u64,
    /// Stop after SECONDS (default 10 s): one deadline for the whole command, generation,
    /// engine runs and shrinking included; a shrink cut short writes the smallest failing
    /// input found.
    #[arg(long, value_name = "SECONDS", value_parser = super::seconds_arg, conflicts_with = "stress_cases")]
    pub time: Option<f64>,
    /// Stop after N cases without a difference.
    #[arg(long = "cases", id = "stress_cases", value_name = "N")]
    pub cases: Option<u64>,
    /// Output folder: files go to DIR/<game>/.
    #[arg(long, short, default_value = "stress", value_name = "DIR")]
    pub out: PathBuf,
    /// Wall-time limit of one external program run, in seconds (default 10, or 3 x --cpu-limit
    /// + 1 s).
    #[arg(long, value_name = "SECONDS", value_parser = super::seconds_arg)]
    pub timeout: Option<f64>,
    /// What a presentation error (a difference in white space the format fixes) counts as:
    /// `reject` (default: a difference) or `accept` (see docs/tolerances.md).
    #[arg(long, value_enum, default_value_t = Presentation::Reject, value_name = "MODE")]
    pub presentation: Presentation,
    #[command(flatten)]
    pub reading: super::ReadingArgs,
    /// An external generator instead of the game's own: `cmd:COMMAND`, run once per
    /// generated file with `{seed}` replaced by the file's seed (--seed + k); it writes one
    /// judge input on stdout, which must pass the game's validator (see docs/generators.md).
    #[arg(long, value_name = "CMD")]
    pub generator: Option<String>,
    /// Hold the engines against each other on these test files instead of generated ones:
    /// `.in` files, folders of them, a Kattis or Polygon package (or its zip), a package's
    /// `data/`. Judged file by file in their order until the first difference, which is
    /// shrunk as `gamebench shrink` does; no time limit unless `--time` is given.
    #[arg(long, value_name = "PATH", num_args = 1.., conflicts_with_all = ["generator", "stress_cases"])]
    pub tests: Vec<PathBuf>,
    #[command(flatten)]
    pub budget: BudgetArgs,
    #[command(flatten)]
    pub launch: super::ShellArgs,
    #[command(flatten)]
    pub jobs: super::shards::JobsArgs,
}

/// The default search time of `stress` without `--time` or `--cases`.
pub const DEFAULT_STRESS_SECONDS: f64 = 10.0;

/// `stress GAME [options]`, parsed.
pub type StressArgs = PerGame<StressOptions>;

impl GameCommand for StressOptions {
    const SHAPE: Shape = STRESS_SHAPE;
}

/// `gamebench stress GAME -e A -e B ...`.
pub fn stress(args: StressArgs) -> Result<Exit> {
    let signals = super::run::catch_signals()?;
    let o = &args.options;
    let game = args.game;
    let reading = o.reading.for_game(game)?;
    let resolved = resolve_engines(game, &o.engines, &o.launch.shell())?;
    let Ok(engines) = <[_; 2]>::try_from(resolved) else {
        bail!("stress needs exactly two different engines (-e A -e B)");
    };
    let tests = !o.tests.is_empty();
    let profile = match (&o.profile, tests) {
        (Some(profile), _) => profile.clone(),
        (None, true) => String::new(),
        (None, false) => {
            let names: Vec<&str> = game.generator().profiles().iter().map(|p| p.name).collect();
            bail!(
                "stress {}: --profile is required: the game has no `{DEFAULT_PROFILE}` profile \
                 (profiles: {}), unless --tests gives the inputs",
                game.name(),
                names.join(", ")
            )
        }
    };
    let limit = match (o.time, o.cases) {
        (_, Some(n)) => Limit::Cases(n),
        (Some(t), None) => Limit::Time(positive_seconds("--time", t)?),
        // Given tests are all judged; generated ones are searched for a default time.
        (None, None) if tests => Limit::Cases(u64::MAX),
        (None, None) => Limit::Time(Duration::from_secs_f64(DEFAULT_STRESS_SECONDS)),
    };
    let limits = o.launch.limits(o.timeout, 10.0)?;
    let generator = o.launch.generator(o.generator.as_deref(), &limits)?;
    let config = Config {
        game,
        reading,
        engines,
        profile,
        options: &args.generator,
        seed: o.seed,
        limit,
        limits,
        budget: o.budget.budget()?,
        out: o.out.clone(),
        presentation: o.presentation,
        generator,
        given: None,
        jobs: o.jobs.threads(),
    };
    if tests {
        return stress_tests(&args, config, &signals);
    }
    // The budget and what is about to run, before a search that may take its whole budget.
    eprintln!(
        "stress {}: {} against {}, {}, seed {}; budget: {}",
        args.game.name(),
        config.engines[1].name(),
        config.engines[0].name(),
        // An external generator ignores the profile: name what really generates.
        match &config.generator {
            Some(g) => format!("generator `{}`", g.template),
            None => format!("profile {}", config.profile),
        },
        config.seed,
        match config.limit {
            Limit::Time(t) => format!("{} without a difference (--time)", human_duration(t)),
            Limit::Cases(n) => format!("{n} cases without a difference (--cases)"),
        }
    );
    let outcome = stress::run(&config)?;
    Ok(conclude(&config, outcome, &signals))
}

/// `stress GAME --tests PATH... -e A -e B`: the engines on the given tests, the first
/// difference shrunk.
fn stress_tests(
    args: &StressArgs,
    config: Config<'_>,
    signals: &super::run::Signals,
) -> Result<Exit> {
    let o = &args.options;
    let game = config.game;
    let corpus = crate::package::paths::discover_all(&o.tests, Some(game), crate::registry::GAMES)?;
    for problem in &corpus.problems {
        eprintln!("gamebench: {problem}");
    }
    if let Some(other) = corpus.files.iter().find(|f| f.game.name() != game.name()) {
        bail!(
            "{} is a test of {}, not of {}",
            other.display(),
            other.game.name(),
            game.name()
        );
    }
    eprintln!(
        "stress {}: {} against {}, on {} test file(s); budget: {}",
        game.name(),
        config.engines[1].name(),
        config.engines[0].name(),
        corpus.files.len(),
        match config.limit {
            Limit::Time(t) => format!("{} (--time)", human_duration(t)),
            Limit::Cases(_) => "every test".to_string(),
        }
    );
    let given = stress::given::stress_tests(&config, &corpus.files)?;
    for (path, why) in &given.unreadable {
        eprintln!("gamebench: {}: cannot be judged: {why}", path.display());
    }
    let unreadable = given.unreadable.len() + corpus.problems.len();
    if let Outcome::NoDifference { cases_tried, time } = &given.outcome {
        let left = if given.files_left > 0 {
            format!(", {} file(s) left at the time limit", given.files_left)
        } else {
            String::new()
        };
        println!(
            "{}: no difference in {cases_tried} case(s) of {} test file(s), {}{left}",
            game.name(),
            given.files_judged,
            human_duration(*time),
        );
        return Ok(if unreadable > 0 {
            Exit::Error
        } else {
            Exit::Ok
        });
    }
    let config = Config {
        given: given.found_in,
        ..config
    };
    Ok(conclude(&config, given.outcome, signals))
}

/// Prints what `stress` found (nothing, a difference, or what it had when a signal stopped
/// it) and gives the exit code.
fn conclude(config: &Config<'_>, outcome: Outcome, signals: &super::run::Signals) -> Exit {
    match outcome {
        Outcome::NoDifference { cases_tried, time } => {
            println!(
                "{}: no difference in {cases_tried} case(s), {} (seed {})",
                config.game.name(),
                human_duration(time),
                config.seed
            );
            Exit::Ok
        }
        Outcome::Found(found) => {
            print!("{}", stress::report(config, &found));
            for file in &found.files {
                println!("wrote {}", file.display());
            }
            Exit::Failures
        }
        Outcome::Stopped {
            cases_tried,
            time,
            found,
        } => {
            eprintln!(
                "{}: stopped by a signal after {cases_tried} case(s), {}",
                config.game.name(),
                human_duration(time)
            );
            if let Some(found) = found {
                print!("{}", stress::report(config, &found));
                for file in &found.files {
                    println!("wrote {}", file.display());
                }
            }
            if signals.terminated.load(Ordering::Relaxed) {
                Exit::Terminated
            } else {
                Exit::Interrupted
            }
        }
    }
}

/// `gamebench shrink GAME FILE -e A -e B [--case N]`: the shrinking of `stress` applied to a
/// given input (a failing case of your own corpus), with the same report and files.
#[derive(Args)]
pub struct ShrinkArgs {
    /// The game (see `gamebench list`).
    #[arg(value_parser = super::GameName)]
    pub game: String,
    /// The judge input holding the failing case.
    pub file: PathBuf,
    /// The two engines to hold against each other, as for `stress`: the first is the
    /// reference the second is checked against.
    #[arg(
        long = "engine",
        short = 'e',
        value_name = "NAME",
        required = true,
        num_args = 1,
        value_parser = super::EngineName,
        hide_possible_values = true
    )]
    pub engines: Vec<String>,
    /// Shrink case N of the file (1-based) alone; default: the file's first failing case.
    #[arg(long, value_name = "N")]
    pub case: Option<usize>,
    /// Stop after SECONDS (default: none): a shrink cut short writes the smallest failing
    /// input found.
    #[arg(long, value_name = "SECONDS", value_parser = super::seconds_arg)]
    pub time: Option<f64>,
    /// Output folder: files go to DIR/<game>/shrink-<file name>*.
    #[arg(long, short, default_value = "shrink", value_name = "DIR")]
    pub out: PathBuf,
    /// Wall-time limit of one external program run, in seconds (default 10, or 3 x --cpu-limit
    /// + 1 s).
    #[arg(long, value_name = "SECONDS", value_parser = super::seconds_arg)]
    pub timeout: Option<f64>,
    /// What a presentation error counts as: `reject` (default: a difference) or `accept`.
    #[arg(long, value_enum, default_value_t = Presentation::Reject, value_name = "MODE")]
    pub presentation: Presentation,
    #[command(flatten)]
    pub reading: super::ReadingArgs,
    #[command(flatten)]
    pub budget: BudgetArgs,
    #[command(flatten)]
    pub launch: super::ShellArgs,
}

/// `gamebench shrink GAME FILE -e A -e B [--case N]`.
pub fn shrink(args: ShrinkArgs) -> Result<Exit> {
    let signals = super::run::catch_signals()?;
    let game = super::find_game(&args.game)?;
    let reading = args.reading.for_game(game)?;
    let resolved = resolve_engines(game, &args.engines, &args.launch.shell())?;
    let Ok(engines) = <[_; 2]>::try_from(resolved) else {
        bail!("shrink needs exactly two different engines (-e A -e B)");
    };
    let text = std::fs::read(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let text = String::from_utf8(text)
        .map_err(|_| anyhow::anyhow!("{}: not UTF-8 text", args.file.display()))?;
    let limit = match args.time {
        Some(t) => Limit::Time(positive_seconds("--time", t)?),
        // No deadline: the shrink runs to its fixpoint (or a signal).
        None => Limit::Cases(u64::MAX),
    };
    let limits = args.launch.limits(args.timeout, 10.0)?;
    // No generator runs: the game's generator options at their defaults stand in.
    let command = game
        .generator()
        .augment_args(clap::Command::new(game.name()));
    let matches = command.try_get_matches_from([game.name()])?;
    let options = game.generator().options(&matches)?;
    let config = Config {
        game,
        reading,
        engines,
        profile: String::new(),
        options: &options,
        seed: 0,
        limit,
        limits,
        budget: args.budget.budget()?,
        out: args.out.clone(),
        presentation: args.presentation,
        generator: None,
        given: Some(args.file.clone()),
        // Only the search of `stress` judges several files at once.
        jobs: 1,
    };
    let outcome = stress::shrink_given(&config, text, args.case)?;
    let print_found = |found: &stress::Found| {
        print!("{}", stress::report(&config, found));
        for file in &found.files {
            println!("wrote {}", file.display());
        }
    };
    match outcome {
        Outcome::NoDifference { cases_tried, time } => {
            println!(
                "{}: {} and {} agree on the {cases_tried} case(s) of {} ({}): nothing to shrink",
                game.name(),
                config.engines[0].name(),
                config.engines[1].name(),
                args.file.display(),
                human_duration(time)
            );
            Ok(Exit::Ok)
        }
        Outcome::Found(found) => {
            print_found(&found);
            Ok(Exit::Failures)
        }
        Outcome::Stopped { found, .. } => {
            eprintln!("{}: stopped by a signal", game.name());
            if let Some(found) = found {
                print_found(&found);
            }
            Ok(if signals.terminated.load(Ordering::Relaxed) {
                Exit::Terminated
            } else {
                Exit::Interrupted
            })
        }
    }
}
