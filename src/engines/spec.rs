//! Which engines a run uses on each game: names as the user gave them, resolved once, before
//! any file is read, to typed handles ([`EngineRef`]) or external programs.
//!
//! An [`EngineSpec`] gives its [`Executor`] ([`EngineSpec::executor`]); nothing outside
//! `engines/` tells internal engines from programs to run them. [`EngineSpec::Custom`] holds
//! any other executor (a test's mock), so one can be handed to the runner
//! ([`EngineTable::from_specs`]) without registering a game.

use std::collections::HashMap;
use std::sync::Arc;

use super::executor::Executor;
use crate::external::{self, External, ExternalError, Shell};
use crate::game::{EngineRef, Game, REFERENCE_ENGINE};
use crate::util::suggest::did_you_mean;

/// Engine name that selects every internal engine of a game.
pub const ALL_ENGINES: &str = "all";

/// An engine selected for a run: one of the game's own, an external program, or another
/// executor (tests).
#[derive(Clone)]
pub enum EngineSpec {
    Internal(EngineRef),
    External(External),
    /// Any other executor; two are the same engine when they are the same object.
    Custom(Arc<dyn Executor>),
}

impl EngineSpec {
    pub fn name(&self) -> &str {
        self.executor().name()
    }

    /// How this engine is run.
    pub fn executor(&self) -> &dyn Executor {
        match self {
            EngineSpec::Internal(engine) => engine,
            EngineSpec::External(program) => program,
            EngineSpec::Custom(executor) => executor.as_ref(),
        }
    }

    /// Whether this is an external program (which has no work counter, and runs whole files).
    pub fn is_program(&self) -> bool {
        matches!(self, EngineSpec::External(_))
    }

    /// The external program, if this is one (its shell, for calibration).
    pub fn program(&self) -> Option<&External> {
        match self {
            EngineSpec::External(program) => Some(program),
            _ => None,
        }
    }
}

impl From<EngineRef> for EngineSpec {
    fn from(engine: EngineRef) -> Self {
        EngineSpec::Internal(engine)
    }
}

impl PartialEq for EngineSpec {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (EngineSpec::Internal(a), EngineSpec::Internal(b)) => a == b,
            (EngineSpec::External(a), EngineSpec::External(b)) => a == b,
            (EngineSpec::Custom(a), EngineSpec::Custom(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Eq for EngineSpec {}

impl std::fmt::Debug for EngineSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineSpec::Internal(engine) => f.debug_tuple("Internal").field(engine).finish(),
            EngineSpec::External(program) => f.debug_tuple("External").field(program).finish(),
            EngineSpec::Custom(executor) => {
                f.debug_tuple("Custom").field(&executor.name()).finish()
            }
        }
    }
}

/// Why engine names could not be resolved.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("game {game} has no engine {engine:?}{hint} (engines: {known})")]
    Unknown {
        game: &'static str,
        engine: String,
        known: String,
        /// A likely intended name, or the `cmd:` an external program needs.
        hint: String,
    },
    #[error("engine {name}: {source}")]
    CannotStart { name: String, source: ExternalError },
    #[error("two different engines are named {0:?}: label external engines with NAME=cmd:...")]
    DuplicateName(String),
}

/// Why `name` is not an engine of `game`, with a hint: the nearest engine name, or, for what
/// looks like a program (`x=./sol`, `./sol`), the `cmd:` it lacks.
fn unknown(game: &'static dyn Game, name: &str) -> EngineError {
    let hint = match name.split_once('=') {
        Some((label, program)) if !program.is_empty() => {
            format!(" (an external program needs `cmd:`: did you mean \"{label}=cmd:{program}\"?)")
        }
        _ if name.contains('/') || name.contains(' ') => {
            format!(" (an external program needs `cmd:`: did you mean \"cmd:{name}\"?)")
        }
        _ => did_you_mean(
            name,
            game.engine_names()
                .into_iter()
                .chain(std::iter::once(ALL_ENGINES)),
        ),
    };
    EngineError::Unknown {
        game: game.name(),
        engine: name.to_string(),
        known: game.engine_names().join(", "),
        hint,
    }
}

/// The engines `requested` names for `game`: internal names, `all` (every internal engine),
/// external `cmd:` engines started through `shell`; nothing = the game's default engine. An
/// external program that cannot start is refused here, before any run.
pub fn resolve(
    game: &'static dyn Game,
    requested: &[String],
    shell: &Shell,
) -> Result<Vec<EngineSpec>, EngineError> {
    if requested.is_empty() {
        return Ok(vec![EngineSpec::Internal(game.default_engine())]);
    }
    let mut chosen: Vec<EngineSpec> = Vec::new();
    for name in requested {
        let add: Vec<EngineSpec> = if name == ALL_ENGINES {
            game.engines().map(EngineSpec::Internal).collect()
        } else if let Some(program) = External::parse(name) {
            let program = program.with_shell(shell.clone());
            external::check_startable(&program).map_err(|source| EngineError::CannotStart {
                name: program.name.clone(),
                source,
            })?;
            vec![EngineSpec::External(program)]
        } else {
            let found = game.engine(name).ok_or_else(|| unknown(game, name))?;
            vec![EngineSpec::Internal(found)]
        };
        for engine in add {
            if chosen.iter().any(|c| c.name() == engine.name()) {
                if !chosen.contains(&engine) {
                    return Err(EngineError::DuplicateName(engine.name().to_string()));
                }
                continue;
            }
            chosen.push(engine);
        }
    }
    Ok(chosen)
}

/// One internal engine of `game` by name (`None` = the default engine); external programs are
/// refused, for the commands that judge with the game's own engines.
pub fn resolve_internal(
    game: &'static dyn Game,
    name: Option<&str>,
) -> Result<EngineRef, EngineError> {
    match name {
        None => Ok(game.default_engine()),
        Some(name) => game.engine(name).ok_or_else(|| unknown(game, name)),
    }
}

/// The engines of every game of a run, resolved once per game, and on each game the baseline
/// engine the others are compared with (by position, not by name: below the CLI nothing looks
/// an engine up by its name).
#[derive(Default, Clone)]
pub struct EngineTable {
    per_game: HashMap<&'static str, GameEngines>,
}

/// One game's engines and the position of its baseline among them (`None`: the baseline does
/// not run on this game, so nothing is compared with it there).
#[derive(Clone)]
struct GameEngines {
    engines: Arc<[EngineSpec]>,
    baseline: Option<usize>,
}

impl GameEngines {
    fn new(engines: Vec<EngineSpec>, baseline: &str) -> GameEngines {
        let baseline = engines.iter().position(|e| e.name() == baseline);
        GameEngines {
            engines: engines.into(),
            baseline,
        }
    }
}

impl EngineTable {
    /// Resolves `requested` for each game in `games` (repeats allowed); the baseline is the
    /// reference engine wherever it runs ([`EngineTable::with_baseline`] names another).
    pub fn resolve(
        games: impl IntoIterator<Item = &'static dyn Game>,
        requested: &[String],
        shell: &Shell,
    ) -> Result<EngineTable, EngineError> {
        let mut table = EngineTable::default();
        for game in games {
            if !table.per_game.contains_key(game.name()) {
                let engines = resolve(game, requested, shell)?;
                table
                    .per_game
                    .insert(game.name(), GameEngines::new(engines, REFERENCE_ENGINE));
            }
        }
        Ok(table)
    }

    /// A table of given engines per game (tests: a mock executor as a game's engine), with
    /// the reference engine as baseline where it is one of them.
    pub fn from_specs(
        specs: impl IntoIterator<Item = (&'static dyn Game, Vec<EngineSpec>)>,
    ) -> EngineTable {
        EngineTable {
            per_game: specs
                .into_iter()
                .map(|(game, engines)| (game.name(), GameEngines::new(engines, REFERENCE_ENGINE)))
                .collect(),
        }
    }

    /// The same table with `name` as the baseline on every game where an engine has that name.
    pub fn with_baseline(mut self, name: &str) -> EngineTable {
        for game in self.per_game.values_mut() {
            game.baseline = game.engines.iter().position(|e| e.name() == name);
        }
        self
    }

    /// The position of the baseline among the engines of `game` (see [`EngineTable::of`]).
    pub fn baseline_of(&self, game: &dyn Game) -> Option<usize> {
        self.per_game[game.name()].baseline
    }

    /// The baseline's name, when it runs on at least one game.
    pub fn baseline_name(&self) -> Option<&str> {
        let mut games: Vec<&&'static str> = self.per_game.keys().collect();
        games.sort();
        games.into_iter().find_map(|g| {
            let game = &self.per_game[*g];
            game.baseline.map(|b| game.engines[b].name())
        })
    }

    /// The engines of `game` (which must have been resolved).
    pub fn of(&self, game: &dyn Game) -> Arc<[EngineSpec]> {
        self.per_game[game.name()].engines.clone()
    }

    /// The external programs of the run (each once).
    pub fn externals(&self) -> Vec<&External> {
        let mut seen: Vec<&External> = Vec::new();
        for game in self.per_game.values() {
            for e in game.engines.iter() {
                if let Some(x) = e.program()
                    && !seen.contains(&x)
                {
                    seen.push(x);
                }
            }
        }
        seen.sort_by(|a, b| a.name.cmp(&b.name));
        seen
    }

    /// Whether more than one engine name occurs over all games (outputs then go to a folder
    /// per engine).
    pub fn several_names(&self) -> bool {
        let mut names = self
            .per_game
            .values()
            .flat_map(|g| g.engines.iter().map(EngineSpec::name));
        let first = names.next();
        names.any(|n| Some(n) != first)
    }
}
