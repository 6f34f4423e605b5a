//! `gamebench gen`: seeded corpora of judge inputs and their expected outputs, for any game.
//!
//! Each game's generator lives in its own folder (`src/games/<game>/generator.rs`) and is
//! reached through [`crate::game::GameGenerator`]; the command line that fills a [`Plan`] is
//! built in `cli/gen.rs`. [`run`] writes the files of a plan.
//!
//! Invariants:
//! - file `k` is `<out>/<game>-<profile>-<seed>-<k>.in` (`k` zero-padded), a pure function of
//!   the game, profile, game options, seed and `k`: the same bytes on any machine, thread count
//!   or shard;
//! - its expected output `X.out`, when the plan asks for it, is the plan's engine's judge
//!   output, and a generator that needs a solver gets that same engine under the same budget
//!   ([`crate::game::Solver`]);
//! - files are written atomically, the input before its output, so `--resume` sees only whole
//!   files.

use std::path::{Path, PathBuf};

use gamebench_generators::{FileId, GenError};
use rayon::prelude::*;

use crate::engines::gencmd::{ExternalGenerator, GeneratorError};
use crate::engines::judge::judge_file;
use crate::game::{Budget, CaseError, EngineRef, Game, GameOptions, Lent, Reading};
use crate::shard::Shard;
use crate::util::atomic::write_atomic;
use crate::util::progress::{Progress, ProgressMode};

/// One file of a game's corpus with typed options, for tests and benches (see
/// [`crate::game::file`]).
pub use crate::game::file;

/// The profile used when `--profile` is not given (for games that have one of this name).
pub const DEFAULT_PROFILE: &str = "random";

/// What can go wrong while generating a corpus.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    #[error(transparent)]
    Generator(#[from] GenError),
    #[error(transparent)]
    ExternalGenerator(#[from] GeneratorError),
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

/// What `gen` writes: the game and its options, the files, and the engine that writes the
/// expected outputs (lent to the generator too).
pub struct Plan {
    pub game: &'static dyn Game,
    /// One of the game's profiles.
    pub profile: String,
    /// The game's own generator options (parsed by `game.generator()`).
    pub options: GameOptions,
    pub seed: u64,
    /// Files `0..count`.
    pub count: u64,
    /// Output folder.
    pub out: PathBuf,
    /// Write the expected output `X.out` beside each input.
    pub expected: bool,
    /// The engine of `game` that writes the expected outputs and is lent to the generator.
    pub engine: EngineRef,
    pub budget: Budget,
    /// How the files will be read (lent to the generator, and the expected outputs' reading).
    pub reading: Reading,
    /// Write only this shard's files.
    pub shard: Option<Shard>,
    /// Skip files already written whole.
    pub resume: bool,
    pub progress: ProgressMode,
    /// An external generator instead of the game's own (`--generator`): file `k` is its
    /// output for seed `seed + k`, validated; files are named with the profile
    /// [`EXTERNAL_PROFILE`].
    pub generator: Option<ExternalGenerator>,
}

/// The profile part of the file names written by an external generator.
pub const EXTERNAL_PROFILE: &str = "cmd";

impl Plan {
    /// A plan with the defaults of `gen`: every file, expected outputs by the game's default
    /// engine without a budget, no progress display.
    pub fn new(
        game: &'static dyn Game,
        profile: &str,
        options: GameOptions,
        seed: u64,
        count: u64,
        out: PathBuf,
    ) -> Plan {
        Plan {
            game,
            profile: profile.to_string(),
            options,
            seed,
            count,
            out,
            expected: true,
            engine: game.default_engine(),
            budget: Budget::UNLIMITED,
            reading: Reading::STATEMENT,
            shard: None,
            resume: false,
            progress: ProgressMode::None,
            generator: None,
        }
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

/// Writes the corpus `plan` asks for, files in parallel; the first error (in file order) wins.
pub fn run(plan: &Plan) -> Result<Written, GenerateError> {
    let (game, engine, budget) = (plan.game, plan.engine, plan.budget.clone());
    let profile = match plan.generator {
        Some(_) => EXTERNAL_PROFILE,
        None => plan.profile.as_str(),
    };
    std::fs::create_dir_all(&plan.out).map_err(|source| GenerateError::CreateDir {
        path: plan.out.clone(),
        source,
    })?;
    let stem = |k: u64| {
        let file = FileId {
            game: game.name(),
            profile,
            seed: plan.seed,
            index: k,
        };
        plan.out.join(format!("{}.in", file.stem(plan.count)))
    };
    let expected_of = |input: &Path| plan.expected.then(|| input.with_extension("out"));
    // Which files to write is decided first, so the progress display knows its total.
    let todo: Vec<u64> = (0..plan.count)
        .filter(|&k| {
            let input = stem(k);
            wanted(
                plan.shard,
                plan.resume,
                k,
                &input,
                expected_of(&input).as_deref(),
            )
        })
        .collect();
    let progress = Progress::new(plan.progress, "gen", todo.len(), None);
    let written: Vec<Result<(), GenerateError>> = todo
        .into_par_iter()
        .map(|k| {
            let file = FileId {
                game: game.name(),
                profile: &plan.profile,
                seed: plan.seed,
                index: k,
            };
            let input = stem(k);
            let expected = expected_of(&input);
            let text = match &plan.generator {
                Some(external) => {
                    external.generate(game, ExternalGenerator::seed_of(plan.seed, k))?
                }
                None => game.generator().generate(
                    &file,
                    &plan.options,
                    &Lent::new(engine.name(), budget.clone()).read_as(plan.reading.clone()),
                )?,
            };
            write(&input, text.as_bytes())?;
            if let Some(output) = expected {
                let judged = judge_file(engine, text.as_bytes(), &plan.reading, &budget);
                if let Some((_, error)) = judged.errors().next() {
                    return Err(GenerateError::InvalidCase {
                        path: input,
                        error: error.clone(),
                    });
                }
                write(&output, judged.output().as_bytes())?;
            }
            progress.file_done(1);
            Ok(())
        })
        .collect();
    progress.finish();
    let files = written.len();
    // The first error in file order wins, whatever order the workers met them in.
    written.into_iter().collect::<Result<(), _>>()?;
    Ok(Written {
        files,
        dir: plan.out.clone(),
    })
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), GenerateError> {
    write_atomic(path, bytes).map_err(|source| GenerateError::Write {
        path: path.to_path_buf(),
        source,
    })
}
