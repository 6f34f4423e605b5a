//! `gamebench package export`: a problem (`problem.toml` or a package folder) written as a
//! Kattis or Polygon package.

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::{Args, Subcommand};

use crate::invoke::problem::Problem;
use crate::package::export::{self, Export, ExportFormat, ExportSolution, Layout};
use crate::package::{self, languages::Languages};
use crate::registry;
use crate::status::Exit;

use super::find_game;

#[derive(Args)]
pub struct PackageArgs {
    #[command(subcommand)]
    pub command: PackageCommand,
}

#[derive(Subcommand)]
pub enum PackageCommand {
    /// Write a problem (a problem.toml, or a Kattis/DOMjudge/Polygon package folder) as a
    /// Kattis or Polygon package, with validators that call gamebench (docs/packages.md).
    Export(ExportArgs),
}

#[derive(Args)]
pub struct ExportArgs {
    /// The problem: a problem.toml, or a package folder (or zip file).
    #[arg(long, value_name = "PROBLEM")]
    pub problem: PathBuf,
    /// The game (default: the problem's own, else a folder named after one).
    #[arg(long, short, value_parser = super::GameName)]
    pub game: Option<String>,
    /// The package format to write.
    #[arg(long, value_enum)]
    pub format: ExportFormat,
    /// The Kattis layout: `legacy` (read by problemtools, DOMjudge and Kattis) or `2023-07`
    /// (the 2025-09 format's layout, as the 2023-07 draft problemtools checks).
    #[arg(long, value_enum, default_value_t = Layout::Legacy)]
    pub layout: Layout,
    /// The package's folder (new, or empty).
    #[arg(long, short = 'o', value_name = "DIR")]
    pub out: PathBuf,
    /// A language table for the submissions of a package (as `invoke --languages`).
    #[arg(long, value_name = "FILE")]
    pub languages: Option<PathBuf>,
}

/// A source file among a command's words (`python3 sol.py` -> `sol.py`) that a language of
/// `table` knows.
fn source_of(command: &str, table: &Languages) -> Option<PathBuf> {
    command
        .split_whitespace()
        .map(PathBuf::from)
        .find(|p| p.is_file() && table.of(p).is_some())
}

pub fn package(args: PackageArgs) -> Result<Exit> {
    let PackageCommand::Export(args) = args.command;
    let forced = args.game.as_deref().map(find_game).transpose()?;
    let table = Languages::load(args.languages.as_deref())?;
    let name = std::path::absolute(&args.problem)?
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "problem".to_string());
    let notes = if package::is_package(&args.problem) {
        let pkg = package::read(&args.problem, forced, registry::GAMES, &table)?;
        let solutions = pkg
            .submissions
            .iter()
            .map(|s| ExportSolution {
                name: s.name.clone(),
                source: Some(s.path.clone()),
                tag: s.tag,
            })
            .collect();
        let export = Export {
            name,
            game: pkg.game,
            files: &pkg.files,
            invalid_inputs: &pkg.invalid_inputs,
            solutions,
            limits: pkg.limits.clone(),
            time: Some(pkg.time),
        };
        export::export(&export, args.format, args.layout, &args.out)?
    } else {
        let problem = Problem::read(&args.problem)?;
        let game = match (forced, &problem.game) {
            (Some(g), _) => Some(g),
            (None, Some(name)) => Some(find_game(name)?),
            (None, None) => None,
        };
        if problem.tests.is_empty() {
            bail!("{}: no tests to export", args.problem.display());
        }
        let (files, problems) = crate::invoke::find_tests(&problem.tests, game, registry::GAMES)?;
        if let Some(first) = problems.first() {
            bail!("{first}");
        }
        let solutions = problem
            .solutions
            .iter()
            .map(|(name, spec, tag)| ExportSolution {
                name: name.clone(),
                source: spec
                    .split_once("=cmd:")
                    .or_else(|| spec.strip_prefix("cmd:").map(|c| ("", c)))
                    .and_then(|(_, command)| source_of(command, &table)),
                tag: *tag,
            })
            .collect();
        let export = Export {
            name,
            game: files[0].game,
            files: &files,
            invalid_inputs: &[],
            solutions,
            limits: problem.limits.clone(),
            time: None,
        };
        export::export(&export, args.format, args.layout, &args.out)?
    };
    for note in notes {
        eprintln!("gamebench: {note}");
    }
    println!("package written to {}", args.out.display());
    Ok(Exit::Ok)
}
