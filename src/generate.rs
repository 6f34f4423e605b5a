//! `gamebench gen`: seeded corpora of judge inputs and their expected outputs, for any game.
//!
//! Each game's generator lives in its own folder (`src/games/<game>/generator.rs`): the game
//! type implements [`Generator`], with its profiles and its own `clap` options. This module
//! erases that once per registered game ([`GameGenerator`], implemented by [`Registered`]) and
//! builds the command from the registry: `gen GAME` is one subcommand per game, each with the
//! options every game shares ([`GenCommon`]) and that game's own ([`GenArgs`]). [`run`] writes
//! the files.
//!
//! Invariants:
//! - file `k` is `<out>/<game>-<profile>-<seed>-<k>.in` (`k` zero-padded), a pure function of
//!   the game, profile, game options, seed and `k`: the same bytes on any machine, thread count
//!   or shard;
//! - its expected output `X.out`, unless `--no-expected`, is the chosen engine's judge output,
//!   and a generator that needs a solver gets that same engine under the same budget
//!   ([`Solver`]);
//! - files are written atomically, the input before its output, so `--resume` sees only whole
//!   files.

use std::any::Any;
use std::path::{Path, PathBuf};

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{ArgMatches, Args, Command, FromArgMatches};
use gamebench_generators::{self as generators, FileId, GenError, Generator, Profile};
use rayon::prelude::*;

use crate::atomic::write_atomic;
use crate::game::{
    BadTimeLimit, Budget, BudgetArgs, CaseError, Engine, Game, Outcome, Registered, Rules, Verdict,
};
use crate::judge::judge_file;
use crate::progress::{Progress, ProgressMode};
use crate::registry;
use crate::runner::{EngineError, resolve_internal};
use crate::shard::{Shard, ShardArgs, ShardError};

/// The profile used when `--profile` is not given (for games that have one of this name).
pub const DEFAULT_PROFILE: &str = "random";

/// What can go wrong while generating a corpus.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    TimeLimit(#[from] BadTimeLimit),
    #[error(transparent)]
    Shard(#[from] ShardError),
    #[error(transparent)]
    Generator(#[from] GenError),
    #[error("cannot create {}", path.display())]
    CreateDir {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write {}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: generated a case that cannot be played: {error}", path.display())]
    InvalidCase { path: PathBuf, error: CaseError },
}

/// An engine of game `R` under a budget: what gamebench lends `R`'s generator (the engine that
/// writes the expected outputs), e.g. to keep only cases whose answer has a wanted size.
pub struct Solver<R: Rules> {
    engine: &'static Engine<R::Case, R::Answer>,
    budget: Budget,
}

impl<R: Rules> Solver<R> {
    pub fn new(engine: &'static Engine<R::Case, R::Answer>, budget: Budget) -> Self {
        Solver { engine, budget }
    }

    /// The engine's outcome on `case`.
    pub fn solve(&self, case: &R::Case) -> Result<Outcome<R::Answer>, CaseError> {
        (self.engine.solve)(case, &self.budget)
    }

    /// [`Rules::score`] of the engine's answer when it solves `case`; `None` when it fails,
    /// proves there is no answer, or runs out of budget.
    pub fn score(&self, case: &R::Case) -> Option<u64> {
        let outcome = self.solve(case).ok()?;
        (outcome.verdict == Verdict::Solved).then_some(())?;
        R::score(&outcome.answer)
    }
}

/// A game's own generator options, parsed, type-erased (read back by the same game only).
pub struct GameOptions(Box<dyn Any + Send + Sync>);

/// Object-safe view of a game's generator, as [`Game::generator`] returns it.
pub trait GameGenerator: Send + Sync {
    /// The profiles, in the order `gamebench list` shows them.
    fn profiles(&self) -> &'static [Profile];
    /// Adds the game's own options to `cmd`.
    fn augment_args(&self, cmd: Command) -> Command;
    /// Reads the game's own options from matches of a command built by `augment_args`.
    fn options(&self, matches: &ArgMatches) -> Result<GameOptions, clap::Error>;
    /// Writes the judge input of `file` with `options` (from this game's `options`); `engine`
    /// (one of the game's engines) under `budget` is lent to the generator.
    fn generate(
        &self,
        file: &FileId<'_>,
        options: &GameOptions,
        engine: &str,
        budget: &Budget,
    ) -> Result<String, GenError>;
}

impl<R> GameGenerator for Registered<R>
where
    R: Rules + Generator<Tools = Solver<R>>,
{
    fn profiles(&self) -> &'static [Profile] {
        R::PROFILES
    }
    fn augment_args(&self, cmd: Command) -> Command {
        R::Args::augment_args(cmd)
    }
    fn options(&self, matches: &ArgMatches) -> Result<GameOptions, clap::Error> {
        Ok(GameOptions(Box::new(R::Args::from_arg_matches(matches)?)))
    }
    fn generate(
        &self,
        file: &FileId<'_>,
        options: &GameOptions,
        engine: &str,
        budget: &Budget,
    ) -> Result<String, GenError> {
        let engine = engine_of::<R>(engine);
        let args = options
            .0
            .downcast_ref::<R::Args>()
            .expect("options are read by the game that generates with them");
        generators::generate::<R>(file, args, &Solver::new(engine, *budget))
    }
}

/// File `index` of a corpus of game `R`, generated with typed options and `R`'s default engine
/// lent without a budget (for tests and benches; the command goes through [`run`]).
pub fn file<R>(profile: &str, args: &R::Args, seed: u64, index: u64) -> Result<String, GenError>
where
    R: Rules + Generator<Tools = Solver<R>>,
{
    let engine = engine_of::<R>(R::DEFAULT_ENGINE);
    let file = FileId {
        game: R::NAME,
        profile,
        seed,
        index,
    };
    generators::generate::<R>(&file, args, &Solver::new(engine, Budget::UNLIMITED))
}

/// The engine of `R` named `name`, which was resolved for `R` before.
fn engine_of<R: Rules>(name: &str) -> &'static Engine<R::Case, R::Answer> {
    R::ENGINES
        .iter()
        .find(|e| e.name == name)
        .expect("the engine was resolved for this game")
}

/// The options of `gen` that every game has.
#[derive(Args, Clone, Debug)]
pub struct GenCommon {
    /// Generator profile (see `gamebench list`).
    #[arg(long, short, default_value = DEFAULT_PROFILE)]
    pub profile: String,
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
    #[arg(long, short)]
    pub engine: Option<String>,
    #[command(flatten)]
    pub budget: BudgetArgs,
    #[command(flatten)]
    pub shards: ShardArgs,
    /// Progress on stderr: `auto` (a bar on a terminal, else a plain line every 10 s, as in
    /// Slurm logs), `bar`, `plain` or `none`.
    #[arg(long, value_enum, value_name = "MODE", default_value = "auto")]
    pub progress: ProgressMode,
}

/// `gen GAME [options]`: the game, the common options and the game's own, parsed.
pub struct GenArgs {
    pub game: &'static dyn Game,
    pub common: GenCommon,
    pub options: GameOptions,
}

impl GenArgs {
    /// Adds one subcommand per game of `games` to `cmd` (the `gen` command).
    pub fn augment(cmd: Command, games: &[&'static dyn Game]) -> Command {
        cmd.subcommand_required(true)
            .arg_required_else_help(true)
            .subcommand_value_name("GAME")
            .subcommand_help_heading("Games")
            .subcommands(games.iter().map(|game| game_command(*game)))
    }

    /// Reads the matches of a command built by [`GenArgs::augment`] with the same `games`.
    pub fn from_matches(
        games: &[&'static dyn Game],
        matches: &ArgMatches,
    ) -> Result<GenArgs, clap::Error> {
        let (name, matches) = matches
            .subcommand()
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::MissingSubcommand))?;
        let game = games
            .iter()
            .copied()
            .find(|g| g.name() == name)
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidSubcommand))?;
        Ok(GenArgs {
            game,
            common: GenCommon::from_arg_matches(matches)?,
            options: game.generator().options(matches)?,
        })
    }
}

/// The subcommand of one game: the common options, `--profile` limited to the game's profiles,
/// and the game's own options.
fn game_command(game: &'static dyn Game) -> Command {
    let generator = game.generator();
    let profiles = generator.profiles();
    let values = profiles
        .iter()
        .map(|p| PossibleValue::new(p.name).help(p.about));
    let has_default = profiles.iter().any(|p| p.name == DEFAULT_PROFILE);
    let cmd = GenCommon::augment_args(Command::new(game.name())).mut_arg("profile", |arg| {
        let arg = arg.value_parser(PossibleValuesParser::new(values));
        if has_default {
            arg
        } else {
            arg.default_value(None::<&str>).required(true)
        }
    });
    // The game's title last: deriving `clap::Args` sets the about text from the struct's doc.
    generator
        .augment_args(cmd.next_help_heading("Options of the game"))
        .about(game.title())
        .long_about(None::<&str>)
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

/// What [`run`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// Input files written (their expected outputs not counted).
    pub files: usize,
    pub dir: PathBuf,
}

impl std::fmt::Display for Written {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "wrote {} file(s) to {}", self.files, self.dir.display())
    }
}

/// Whether file `k` is written: it belongs to the shard, and with `--resume` it is not already
/// there (files are written atomically, the input first, so they exist only whole).
fn wanted(
    shard: Option<Shard>,
    resume: bool,
    k: u64,
    input: &Path,
    expected: Option<&Path>,
) -> bool {
    let mine = shard.is_none_or(|s| usize::try_from(k).is_ok_and(|k| s.owns(k)));
    let done = resume && input.exists() && expected.is_none_or(Path::exists);
    mine && !done
}

/// Writes the corpus `args` asks for, files in parallel; the first error (in file order) wins.
pub fn run(args: &GenArgs) -> Result<Written, GenerateError> {
    let (game, common) = (args.game, &args.common);
    let engine = resolve_internal(game, common.engine.as_deref())?;
    let budget = common.budget.budget()?;
    let shard = common.shards.shard()?;
    std::fs::create_dir_all(&common.out).map_err(|source| GenerateError::CreateDir {
        path: common.out.clone(),
        source,
    })?;
    let stem = |k: u64| {
        let file = FileId {
            game: game.name(),
            profile: &common.profile,
            seed: common.seed,
            index: k,
        };
        common.out.join(format!("{}.in", file.stem(common.count)))
    };
    let expected_of = |input: &Path| (!common.no_expected).then(|| input.with_extension("out"));
    // Which files to write is decided first, so the progress display knows its total.
    let todo: Vec<u64> = (0..common.count)
        .filter(|&k| {
            let input = stem(k);
            wanted(
                shard,
                common.shards.resume,
                k,
                &input,
                expected_of(&input).as_deref(),
            )
        })
        .collect();
    let progress = Progress::new(common.progress, "gen", todo.len(), None);
    let written: Vec<Result<(), GenerateError>> = todo
        .into_par_iter()
        .map(|k| {
            let file = FileId {
                game: game.name(),
                profile: &common.profile,
                seed: common.seed,
                index: k,
            };
            let input = stem(k);
            let expected = expected_of(&input);
            let text = game
                .generator()
                .generate(&file, &args.options, engine.name(), &budget)?;
            write(&input, text.as_bytes())?;
            if let Some(output) = expected {
                let judged = judge_file(engine, text.as_bytes(), &budget);
                if let Some((_, error)) = judged.errors().next() {
                    return Err(GenerateError::InvalidCase {
                        path: input,
                        error: error.clone(),
                    });
                }
                write(&output, judged.output().as_bytes())?;
            }
            progress.file_done(1, 1);
            Ok(())
        })
        .collect();
    progress.finish();
    let files = written.len();
    // The first error in file order wins, whatever order the workers met them in.
    written.into_iter().collect::<Result<(), _>>()?;
    Ok(Written {
        files,
        dir: common.out.clone(),
    })
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), GenerateError> {
    write_atomic(path, bytes).map_err(|source| GenerateError::Write {
        path: path.to_path_buf(),
        source,
    })
}
