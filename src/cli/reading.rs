//! The options that choose how inputs are read (`--zero-pair`): known variants of a statement
//! that public solutions follow, turned into a [`Reading`]: a value the command hands every
//! reader of its inputs (checked against the game's variants first), so the runner and the
//! other commands stay game-agnostic.

use anyhow::{Result, bail};
use clap::Args;

use crate::game::{Game, Reading};

/// The known variants of a statement's reading a command can follow (see each game's
/// `RULES.md` and docs/tolerances.md), as options; the statement's reading by default.
#[derive(Args, Debug, Clone, Default)]
pub struct ReadingArgs {
    /// SameGame: which selection pair ends a grid's selection list: `as-statement` (default:
    /// only `0 0`; `0 c` and `r 0` are ignored out-of-range cells), `ends-list` (any `0 c`, as
    /// many public solutions read it) or `any-zero-ends-list` (any pair with a zero, `0 c` or
    /// `r 0`, as others read it; see docs/tolerances.md). Every engine and the checker read
    /// the input that way.
    #[arg(long, value_enum, default_value_t = ZeroPair::AsStatement, value_name = "READING")]
    pub zero_pair: ZeroPair,
}

/// The values of `--zero-pair`.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ZeroPair {
    #[default]
    AsStatement,
    EndsList,
    AnyZeroEndsList,
}

impl ReadingArgs {
    /// The reading these options choose.
    pub fn reading(&self) -> Reading {
        match self.zero_pair {
            ZeroPair::AsStatement => Reading::statement(),
            ZeroPair::EndsList => Reading::statement().with("zero-pair", "ends-list"),
            ZeroPair::AnyZeroEndsList => {
                Reading::statement().with("zero-pair", "any-zero-ends-list")
            }
        }
    }

    /// The reading these options choose for `game`; an error when it has no such variant.
    pub fn for_game(&self, game: &'static dyn Game) -> Result<Reading> {
        let reading = self.reading();
        game.check_reading(&reading)?;
        Ok(reading)
    }

    /// Each file of `files` to be read as these options say, restricted to the variants its
    /// game has (a run over several games applies `--zero-pair` to SameGame's files only); an
    /// error when no game of the files has a variant chosen.
    pub fn apply_to_files(&self, files: &mut [crate::corpus::CaseFile]) -> Result<()> {
        let reading = self.reading();
        if reading.is_statement() {
            return Ok(());
        }
        let mut read: Vec<&'static dyn Game> = Vec::new();
        for file in files.iter_mut() {
            let own = reading.restricted_to(file.game.variants());
            if !read.iter().any(|g| g.name() == file.game.name()) {
                read.push(file.game);
            }
            file.reading = own;
        }
        for (option, value) in reading.chosen() {
            let used = read.iter().any(|g| {
                g.variants()
                    .iter()
                    .any(|v| v.option == option && v.value == value)
            });
            if !used {
                let games: Vec<&str> = read.iter().map(|g| g.name()).collect();
                bail!(
                    "--{option} {value}: no game of the files has this variant (games: {})",
                    games.join(", ")
                );
            }
        }
        Ok(())
    }
}
