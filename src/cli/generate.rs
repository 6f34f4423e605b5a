//! `gamebench gen GAME [options]`: the options every game shares ([`GenCommon`]) and each
//! game's own, one subcommand per game (built by [`super::games`]), turned into a
//! [`generate::Plan`].

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::{ArgMatches, Args, Command, FromArgMatches};

use super::shard_args::ShardArgs;
use crate::engines::gencmd::{DEFAULT_GENERATOR_TIMEOUT, ExternalGenerator};
use crate::engines::resolve_internal;
use crate::external::Shell;
use crate::game::{Game, GameOptions};
use crate::generate::{self, DEFAULT_PROFILE, Plan};
use crate::registry;
use crate::status::Exit;
use crate::util::progress::ProgressMode;

use super::BudgetArgs;
use super::games::{Shape, from_game_matches, game_commands};

/// The options of `gen` that every game has.
#[derive(Args, Clone, Debug)]
pub struct GenCommon {
    /// Generator profile (see `gamebench list`); default `random` where the game has it, else
    /// required unless --generator writes the inputs.
    #[arg(long, short)]
    pub profile: Option<String>,
    /// Seed: the same arguments give the same bytes on any machine.
    #[arg(long, short, default_value_t = 1)]
    pub seed: u64,
    /// Number of files to write.
    #[arg(long, short = 'n', default_value_t = 1)]
    pub count: u64,
    /// Output folder.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Do not write expected outputs X.out beside the inputs.
    #[arg(long)]
    pub no_expected: bool,
    /// Engine that writes the expected outputs (and that a generator may solve its candidates
    /// with); default: the fastest.
    #[arg(long, short, value_parser = super::EngineName, hide_possible_values = true)]
    pub engine: Option<String>,
    /// An external generator instead of the game's own: `cmd:COMMAND`, run through `sh -c`
    /// once per file with `{seed}` replaced by the file's seed (--seed + k); it writes one
    /// judge input on stdout, which must pass the game's validator (see docs/generators.md).
    #[arg(long, value_name = "CMD")]
    pub generator: Option<String>,
    #[command(flatten)]
    pub reading: super::ReadingArgs,
    #[command(flatten)]
    pub budget: BudgetArgs,
    #[command(flatten)]
    pub shards: ShardArgs,
    /// Progress on stderr: `auto` (a bar on a terminal, else a plain line every 10 s, as in
    /// Slurm logs), `bar`, `plain` or `none`.
    #[arg(long, value_enum, value_name = "MODE", default_value = "auto")]
    pub progress: ProgressMode,
}

/// How `gen`'s per-game subcommands look.
const GEN_SHAPE: Shape = Shape {
    default_profile: true,
    // An external generator needs no profile: checked in `GenArgs::plan`.
    profile_required: false,
    heading: "Options of the game",
    file_cases: false,
};

/// `gen GAME [options]`: the game, the common options and the game's own, parsed.
pub struct GenArgs {
    pub game: &'static dyn Game,
    pub common: GenCommon,
    pub options: GameOptions,
}

impl GenArgs {
    /// Adds one subcommand per game of `games` to `cmd` (the `gen` command).
    pub fn augment(cmd: Command, games: &[&'static dyn Game]) -> Command {
        game_commands::<GenCommon>(cmd, games, GEN_SHAPE)
    }

    /// Reads the matches of a command built by [`GenArgs::augment`] with the same `games`.
    pub fn from_matches(
        games: &[&'static dyn Game],
        matches: &ArgMatches,
    ) -> Result<GenArgs, clap::Error> {
        let (game, common, options) = from_game_matches(games, matches)?;
        Ok(GenArgs {
            game,
            common,
            options,
        })
    }

    /// The plan these options ask for: the engine resolved, the budget and shard checked; a
    /// profile unless an external generator writes the inputs.
    pub fn plan(self) -> Result<Plan> {
        let common = self.common;
        let game = self.game;
        let reading = common.reading.for_game(game)?;
        let generator = common
            .generator
            .as_deref()
            .map(|text| ExternalGenerator::parse(text, Shell::default(), DEFAULT_GENERATOR_TIMEOUT))
            .transpose()?;
        let profile = match (common.profile, &generator) {
            (Some(profile), _) => profile,
            (None, Some(_)) => generate::EXTERNAL_PROFILE.to_string(),
            (None, None) => {
                let names: Vec<&str> = game.generator().profiles().iter().map(|p| p.name).collect();
                bail!(
                    "gen {}: --profile is required: the game has no `{DEFAULT_PROFILE}` profile \
                     (profiles: {}), unless --generator CMD writes the inputs",
                    game.name(),
                    names.join(", ")
                )
            }
        };
        Ok(Plan {
            game,
            engine: resolve_internal(game, common.engine.as_deref())?,
            budget: common.budget.budget()?,
            reading,
            shard: common.shards.shard()?,
            resume: common.shards.resume,
            profile,
            options: self.options,
            seed: common.seed,
            count: common.count,
            out: common.out,
            expected: !common.no_expected,
            progress: common.progress,
            generator,
        })
    }
}

impl FromArgMatches for GenArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        GenArgs::from_matches(registry::GAMES, matches)
    }
    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = GenArgs::from_matches(registry::GAMES, matches)?;
        Ok(())
    }
}

impl Args for GenArgs {
    fn augment_args(cmd: Command) -> Command {
        GenArgs::augment(cmd, registry::GAMES)
    }
    fn augment_args_for_update(cmd: Command) -> Command {
        GenArgs::augment(cmd, registry::GAMES)
    }
}

/// `gamebench gen GAME ...`: seeded input files and their expected outputs.
pub fn gen_corpus(args: GenArgs) -> Result<Exit> {
    eprintln!("{}", generate::run(&args.plan()?)?);
    Ok(Exit::Ok)
}
