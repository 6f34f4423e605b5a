//! `gamebench stress GAME ...` (and the per-game command builder `hunt` shares): the options,
//! one subcommand per game with that game's own generator options, and the report.
//!
//! A game's `--cases` (cases per generated file) is renamed `--file-cases` here: `--cases N`
//! is the command's own budget, the number of cases to try.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Result, bail};
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{ArgMatches, Args, Command, FromArgMatches};

use gamebench::game::{BudgetArgs, Game};
use gamebench::generate::{DEFAULT_PROFILE, GameOptions};
use gamebench::registry;
use gamebench::runner::resolve_engines;
use gamebench::status::Exit;
use gamebench::stress::{self, Config, Limit, Outcome};
use gamebench::units::human_duration;

use super::positive_seconds;

/// The id and flag of the generators' cases-per-file option, and its new flag here.
const GEN_CASES: &str = "cases";
const FILE_CASES: &str = "file-cases";

/// Builds one subcommand per game: the command's own options `C`, `--profile` limited to the
/// game's profiles (defaulting to `random` where the game has it when `default_profile`), and
/// the game's generator options (its `--cases` renamed `--file-cases`).
pub fn game_commands<C: Args>(cmd: Command, default_profile: bool) -> Command {
    cmd.subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand_value_name("GAME")
        .subcommand_help_heading("Games")
        .subcommands(
            registry::GAMES
                .iter()
                .map(|&game| game_command::<C>(game, default_profile)),
        )
}

fn game_command<C: Args>(game: &'static dyn Game, default_profile: bool) -> Command {
    let generator = game.generator();
    let profiles = generator.profiles();
    let values = profiles
        .iter()
        .map(|p| PossibleValue::new(p.name).help(p.about));
    let has_default = profiles.iter().any(|p| p.name == DEFAULT_PROFILE);
    let cmd = C::augment_args(Command::new(game.name())).mut_arg("profile", |arg| {
        let arg = arg.value_parser(PossibleValuesParser::new(values));
        if !default_profile {
            arg
        } else if has_default {
            arg.default_value(DEFAULT_PROFILE).required(false)
        } else {
            arg.required(true)
        }
    });
    let cmd = generator.augment_args(cmd.next_help_heading("Generator options of the game"));
    let renamed = cmd.get_arguments().any(|a| a.get_id() == GEN_CASES);
    let cmd = if renamed {
        cmd.mut_arg(GEN_CASES, |a| {
            a.long(FILE_CASES)
                .help("Cases per generated file (gen's --cases)")
        })
    } else {
        cmd
    };
    cmd.about(game.title()).long_about(None::<&str>)
}

/// Reads the game, the command's own options and the game's options from the matches of a
/// command built by [`game_commands`].
pub fn from_game_matches<C: FromArgMatches>(
    matches: &ArgMatches,
) -> Result<(&'static dyn Game, C, GameOptions), clap::Error> {
    let (name, matches) = matches
        .subcommand()
        .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::MissingSubcommand))?;
    let game = registry::find(name)
        .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidSubcommand))?;
    Ok((
        game,
        C::from_arg_matches(matches)?,
        game.generator().options(matches)?,
    ))
}

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
        num_args = 1
    )]
    pub engines: Vec<String>,
    /// Generator profile (see `gamebench list`).
    #[arg(long, short)]
    pub profile: String,
    /// Seed of the generated cases: the same seed gives the same cases in the same order.
    #[arg(long, short, default_value_t = 1)]
    pub seed: u64,
    /// Stop after SECONDS without a difference (default 10 s).
    #[arg(long, value_name = "SECONDS", conflicts_with = "stress_cases")]
    pub time: Option<f64>,
    /// Stop after N cases without a difference.
    #[arg(long = "cases", id = "stress_cases", value_name = "N")]
    pub cases: Option<u64>,
    /// Output folder: files go to DIR/<game>/.
    #[arg(long, short, default_value = "stress", value_name = "DIR")]
    pub out: PathBuf,
    /// Time limit of one external program run (one file), in seconds.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    pub timeout: f64,
    #[command(flatten)]
    pub budget: BudgetArgs,
    #[command(flatten)]
    pub launch: super::ShellArgs,
}

/// The default search time of `stress` without `--time` or `--cases`.
pub const DEFAULT_STRESS_SECONDS: f64 = 10.0;

/// `stress GAME [options]`, parsed.
pub struct StressArgs {
    pub game: &'static dyn Game,
    pub options: StressOptions,
    pub generator: GameOptions,
}

impl FromArgMatches for StressArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let (game, options, generator) = from_game_matches(matches)?;
        Ok(StressArgs {
            game,
            options,
            generator,
        })
    }
    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = StressArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for StressArgs {
    fn augment_args(cmd: Command) -> Command {
        game_commands::<StressOptions>(cmd, true)
    }
    fn augment_args_for_update(cmd: Command) -> Command {
        game_commands::<StressOptions>(cmd, true)
    }
}

/// `gamebench stress GAME -e A -e B ...`.
pub fn stress(args: StressArgs) -> Result<Exit> {
    let o = &args.options;
    let resolved = resolve_engines(args.game, &o.engines, &o.launch.shell())?;
    let Ok(engines) = <[_; 2]>::try_from(resolved) else {
        bail!("stress needs exactly two different engines (-e A -e B)");
    };
    let limit = match (o.time, o.cases) {
        (_, Some(n)) => Limit::Cases(n),
        (Some(t), None) => Limit::Time(positive_seconds("--time", t)?),
        (None, None) => Limit::Time(Duration::from_secs_f64(DEFAULT_STRESS_SECONDS)),
    };
    let config = Config {
        game: args.game,
        engines,
        profile: o.profile.clone(),
        options: &args.generator,
        seed: o.seed,
        limit,
        timeout: positive_seconds("--timeout", o.timeout)?,
        budget: o.budget.budget()?,
        out: o.out.clone(),
    };
    match stress::run(&config)? {
        Outcome::NoDifference { cases_tried, time } => {
            println!(
                "{}: no difference in {cases_tried} case(s), {} (seed {})",
                args.game.name(),
                human_duration(time),
                config.seed
            );
            Ok(Exit::Ok)
        }
        Outcome::Found(found) => {
            print!("{}", stress::report(&config, &found));
            for file in &found.files {
                println!("wrote {}", file.display());
            }
            Ok(Exit::Failures)
        }
    }
}
