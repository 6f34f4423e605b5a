//! The one builder of per-game subcommands (`gen`, `stress`, `hunt`): a subcommand per game,
//! each with the command's own options, `--profile` limited to the game's profiles, and the
//! game's generator options; and the reader of their matches.
//!
//! The command's own options (all but `--profile`, whose values are the game's) are also
//! defined on the parent command as global options: `stress --help` lists them, and they are
//! accepted before GAME as well as after it (`stress -e a -e b samegame` is
//! `stress samegame -e a -e b`; given on both sides, the one after GAME wins). Clap refuses a
//! global option that is required, so no shared option is required to clap: the reader checks
//! the command's required options itself, and a missing one is the same usage error (exit 2).

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{ArgMatches, Args, Command, FromArgMatches};

use crate::game::{Game, GameOptions};
use crate::generate::DEFAULT_PROFILE;
use crate::registry;

/// The id and flag of the generators' cases-per-file option, and its flag where a command has
/// a `--cases` of its own.
const GEN_CASES: &str = "cases";
const FILE_CASES: &str = "file-cases";

/// The one option of a command that each game defines for itself (its values are the game's
/// profiles), so it is not shared on the parent.
const PER_GAME: &str = "profile";

/// How a command's per-game subcommands differ.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// `--profile` defaults to [`DEFAULT_PROFILE`] where the game has it (else it is required,
    /// unless `profile_required` is off: the command then decides); off, the command's own
    /// definition of `--profile` stands.
    pub default_profile: bool,
    /// Whether a game without [`DEFAULT_PROFILE`] requires `--profile` (with
    /// `default_profile`).
    pub profile_required: bool,
    /// The help heading of the game's own options.
    pub heading: &'static str,
    /// The game's `--cases` (cases per file) becomes `--file-cases`, for a command whose
    /// `--cases` means something else.
    pub file_cases: bool,
}

/// Adds one subcommand per game of `games` to `cmd`: the command's own options `C`, then the
/// game's (see [`Shape`]).
pub fn game_commands<C: Args>(cmd: Command, games: &[&'static dyn Game], shape: Shape) -> Command {
    let shared: Vec<clap::Arg> = C::augment_args(Command::new("shared"))
        .get_arguments()
        .filter(|a| a.get_id() != PER_GAME)
        .map(|a| a.clone().global(true).required(false))
        .collect();
    cmd.args(shared)
        .after_help(
            "The options above are accepted before or after GAME. --profile and the game's own \
             options: see `gamebench <COMMAND> GAME --help`.",
        )
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand_value_name("GAME")
        .subcommand_help_heading("Games")
        .subcommands(games.iter().map(|&game| game_command::<C>(game, shape)))
}

fn game_command<C: Args>(game: &'static dyn Game, shape: Shape) -> Command {
    let generator = game.generator();
    let profiles = generator.profiles();
    let values = profiles
        .iter()
        .map(|p| PossibleValue::new(p.name).help(p.about));
    let has_default = profiles.iter().any(|p| p.name == DEFAULT_PROFILE);
    let mut cmd = C::augment_args(Command::new(game.name()));
    // Required options may come before GAME, on the parent: checked by `from_game_matches`.
    for id in required_ids::<C>() {
        cmd = cmd.mut_arg(id, |a| a.required(false));
    }
    let cmd = cmd.mut_arg(PER_GAME, |arg| {
        let arg = arg.value_parser(PossibleValuesParser::new(values));
        if !shape.default_profile {
            arg
        } else if has_default {
            arg.default_value(DEFAULT_PROFILE).required(false)
        } else {
            arg.default_value(None::<&str>)
                .required(shape.profile_required)
        }
    });
    let cmd = generator.augment_args(cmd.next_help_heading(shape.heading));
    let renamed = shape.file_cases && cmd.get_arguments().any(|a| a.get_id() == GEN_CASES);
    let cmd = if renamed {
        cmd.mut_arg(GEN_CASES, |a| {
            a.long(FILE_CASES)
                .help("Cases per generated file (gen's --cases)")
        })
    } else {
        cmd
    };
    // The game's title last: deriving `clap::Args` sets the about text from the struct's doc.
    cmd.about(game.title()).long_about(None::<&str>)
}

/// Reads the game, the command's own options and the game's options from the matches of a
/// command built by [`game_commands`] with the same `games`.
pub fn from_game_matches<C: FromArgMatches + Args>(
    games: &[&'static dyn Game],
    matches: &ArgMatches,
) -> Result<(&'static dyn Game, C, GameOptions), clap::Error> {
    let (name, matches) = matches
        .subcommand()
        .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::MissingSubcommand))?;
    let game = games
        .iter()
        .copied()
        .find(|g| g.name() == name)
        .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidSubcommand))?;
    let shape = C::augment_args(Command::new("shared"));
    let required = shape
        .get_arguments()
        .filter(|a| a.is_required_set() && a.get_id() != PER_GAME);
    for arg in required {
        let given = matches
            .try_get_raw(arg.get_id().as_str())
            .ok()
            .flatten()
            .is_some_and(|mut v| v.next().is_some());
        if !given {
            let flag = arg
                .get_long()
                .map_or_else(|| arg.get_id().to_string(), |l| format!("--{l}"));
            return Err(clap::Error::raw(
                clap::error::ErrorKind::MissingRequiredArgument,
                format!(
                    "the following required argument was not provided: {flag} (before or after GAME)"
                ),
            ));
        }
    }
    Ok((
        game,
        C::from_arg_matches(matches)?,
        game.generator().options(matches)?,
    ))
}

/// The ids of the options `C` requires (see the module doc: not required to clap here).
fn required_ids<C: Args>() -> Vec<String> {
    C::augment_args(Command::new("shared"))
        .get_arguments()
        .filter(|a| a.is_required_set())
        .map(|a| a.get_id().to_string())
        .collect()
}

/// A command's own options that come with one subcommand per game of the registry
/// (`stress`, `hunt`): what they are and how the subcommands look.
pub trait GameCommand: Args + FromArgMatches {
    /// How the command's per-game subcommands differ.
    const SHAPE: Shape;
}

/// `COMMAND GAME [options]` for a [`GameCommand`]: the game, the command's options and the
/// game's generator options, parsed.
pub struct PerGame<C> {
    pub game: &'static dyn Game,
    pub options: C,
    pub generator: GameOptions,
}

impl<C: GameCommand> FromArgMatches for PerGame<C> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let (game, options, generator) = from_game_matches(registry::GAMES, matches)?;
        Ok(PerGame {
            game,
            options,
            generator,
        })
    }
    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl<C: GameCommand> Args for PerGame<C> {
    fn augment_args(cmd: Command) -> Command {
        game_commands::<C>(cmd, registry::GAMES, C::SHAPE)
    }
    fn augment_args_for_update(cmd: Command) -> Command {
        game_commands::<C>(cmd, registry::GAMES, C::SHAPE)
    }
}
