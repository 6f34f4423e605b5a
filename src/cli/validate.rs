//! `gamebench validate GAME [FILE...]`: strict validation of judge inputs against the
//! statement's constraints (the game's validator, see `crate::validate`).
//!
//! Files are handed to the validator as buffered readers, not read whole: a game whose
//! validator streams (SameGame) validates a file of any size in bounded memory.

use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;

use crate::corpus;
use crate::game::Game;
use crate::package;
use crate::registry;
use crate::status::Exit;
use crate::validate::InFile;

use super::find_game;

/// What a failed write of the report says (a full disk; a closed pipe ends quietly).
const STDOUT: &str = "cannot write the report to stdout";
/// Bytes read from a file at a time.
const READ_BUFFER: usize = 64 * 1024;

#[derive(Args)]
pub struct ValidateArgs {
    /// The game (see `gamebench list`), or a judge's package folder (Kattis, DOMjudge or
    /// Polygon), validated as its first file with the game the package names.
    #[arg(value_parser = super::GameName, value_name = "GAME|PACKAGE")]
    pub game: String,
    /// Judge input files, or folders searched recursively for `*.in` (default: stdin).
    pub files: Vec<PathBuf>,
    /// Print only the violations and the final count (no line per valid file).
    #[arg(long, short)]
    pub quiet: bool,
}

/// The `data/invalid_input` folder of `path` when `path` is a Kattis package (`problem.yaml`)
/// or its `data/` folder and the folder exists.
fn package_invalid_inputs(path: &std::path::Path) -> Option<PathBuf> {
    let data = if path.join(corpus::PACKAGE_YAML).is_file() {
        path.join("data")
    } else if path.file_name().is_some_and(|n| n == "data")
        && path.parent()?.join(corpus::PACKAGE_YAML).is_file()
    {
        path.to_path_buf()
    } else {
        return None;
    };
    let folder = data.join(corpus::PACKAGE_INVALID_INPUT);
    folder.is_dir().then_some(folder)
}

/// Validates every file; prints each violation (`FILE: case K: line L: what (constraint: C)`)
/// and one line per valid file on stdout, a total on stderr. Exit 0 when every file is valid,
/// 3 when some file is invalid, 2 when some file cannot be read (the others are still
/// validated).
pub fn validate(mut args: ValidateArgs) -> Result<Exit> {
    let game = game_of(&mut args)?;
    let mut tally = Tally::default();
    let inputs = inputs_of(&args.files, game, &mut tally);
    // Buffered, and flushed after each file: a failed write (a full disk) is reported once.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for input in &inputs {
        validate_one(game, input.as_deref(), args.quiet, &mut out, &mut tally)?;
    }
    out.flush().context(STDOUT)?;
    // A package's inputs that must be rejected: one the validator accepts fails the package.
    for path in args.files.iter().filter_map(|p| package_invalid_inputs(p)) {
        for file in corpus::discover_all(std::slice::from_ref(&path), Some(game), registry::GAMES)
            .map(|c| c.files)
            .unwrap_or_default()
        {
            let name = file.path.display();
            match corpus::open_case_file(&file.path)
                .and_then(|f| game.validate_reader(&mut BufReader::with_capacity(READ_BUFFER, f)))
            {
                Ok(v) if v.is_valid() => {
                    tally.invalid += 1;
                    writeln!(
                        out,
                        "{name}: invalid input accepted: the package says it is invalid"
                    )
                    .context(STDOUT)?;
                }
                Ok(_) => {
                    if !args.quiet {
                        writeln!(out, "{name}: rejected, as the package says").context(STDOUT)?;
                    }
                }
                Err(e) => {
                    eprintln!("gamebench: cannot read {name}: {e}");
                    tally.unreadable += 1;
                }
            }
        }
    }
    out.flush().context(STDOUT)?;
    let Tally {
        valid,
        invalid,
        unreadable,
    } = tally;
    eprintln!("{valid} valid, {invalid} invalid, {unreadable} unreadable");
    Ok(if unreadable > 0 {
        Exit::Error
    } else if invalid > 0 {
        Exit::Invalid
    } else {
        Exit::Ok
    })
}

/// The game `args` names; when it names a package folder (or zip file) instead, the package's
/// game, and the package becomes the first file. Zip files among the files are unpacked.
fn game_of(args: &mut ValidateArgs) -> Result<&'static dyn Game> {
    // A package's zip file is validated as the folder it unpacks to.
    for file in &mut args.files {
        if package::zip::is_zip(file) {
            *file = package::zip::unpack(file)?;
        }
    }
    if registry::find(&args.game).is_none()
        && let Some((root, format)) = package::paths::package_of(Path::new(&args.game))?
    {
        let game = package::paths::game_of(&root, format, None, registry::GAMES)?;
        let first = match package::zip::is_zip(Path::new(&args.game)) {
            true => root,
            false => PathBuf::from(&args.game),
        };
        args.files.insert(0, first);
        return Ok(game);
    }
    find_game(&args.game)
}

/// The files validated so far, by outcome.
#[derive(Default)]
struct Tally {
    valid: usize,
    invalid: usize,
    unreadable: usize,
}

/// The inputs `files` name (`None`: stdin, when none is named): files as they are, folders'
/// `.in` files; what cannot be read or is no regular file is counted unreadable.
fn inputs_of(
    files: &[PathBuf],
    game: &'static dyn Game,
    tally: &mut Tally,
) -> Vec<Option<PathBuf>> {
    let mut inputs: Vec<Option<PathBuf>> = Vec::new();
    if files.is_empty() {
        inputs.push(None);
    }
    for path in files {
        if !path.is_dir() {
            inputs.push(Some(path.clone()));
            continue;
        }
        // A package's tests, a Polygon package's through its view.
        match package::paths::discover_all(std::slice::from_ref(path), Some(game), registry::GAMES)
        {
            Ok(found) => {
                // A folder that cannot be read, a FIFO or a device: counted as unreadable.
                for problem in &found.problems {
                    eprintln!("gamebench: {problem}");
                }
                tally.unreadable += found.problems.len();
                inputs.extend(found.files.into_iter().map(|f| Some(f.path)));
            }
            Err(e) => {
                eprintln!("gamebench: {e}");
                tally.unreadable += 1;
            }
        }
    }
    inputs
}

/// Validates one input (`None`: stdin), its line or its violations on `out`.
fn validate_one(
    game: &'static dyn Game,
    input: Option<&Path>,
    quiet: bool,
    out: &mut impl Write,
    tally: &mut Tally,
) -> Result<()> {
    let name = match input {
        Some(path) => path.display().to_string(),
        None => "<stdin>".to_string(),
    };
    let validated = match input {
        // Only regular files: a FIFO or a device would block or never end.
        Some(path) => corpus::open_case_file(path).and_then(|file| {
            game.validate_reader(&mut BufReader::with_capacity(READ_BUFFER, file))
        }),
        None => game.validate_reader(&mut std::io::stdin().lock()),
    };
    let validation = match validated.with_context(|| format!("cannot read {name}")) {
        Ok(validation) => validation,
        Err(e) => {
            eprintln!("gamebench: {e:#}");
            tally.unreadable += 1;
            return Ok(());
        }
    };
    if validation.is_valid() {
        tally.valid += 1;
        if !quiet {
            writeln!(out, "{name}: valid ({} cases)", validation.cases).context(STDOUT)?;
        }
        return out.flush().context(STDOUT);
    }
    tally.invalid += 1;
    for violation in &validation.violations {
        let shown = InFile {
            file: &name,
            violation,
        };
        writeln!(out, "{shown}").context(STDOUT)?;
    }
    if validation.truncated {
        writeln!(
            out,
            "{name}: more violations not shown (the validator stops at {})",
            validation.violations.len()
        )
        .context(STDOUT)?;
    }
    out.flush().context(STDOUT)
}
