//! The commands that judge one file with a game's own engines: `solve` (judge mode), `check`,
//! `gen` (inputs and their expected outputs), and `list`.

use std::io::{Read, Write};
use std::path::PathBuf;

use anyhow::{Context, Result};

use gamebench::game::{EngineRef, Game};
use gamebench::generate::{self, GenArgs};
use gamebench::judge::{judge_case, judge_file};
use gamebench::registry;
use gamebench::runner::resolve_internal;
use gamebench::status::Exit;

use super::{CheckArgs, SolveArgs, find_game};

fn read_input(file: Option<&PathBuf>) -> Result<(Vec<u8>, String)> {
    match file {
        Some(path) => Ok((
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?,
            path.display().to_string(),
        )),
        None => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .context("cannot read stdin")?;
            Ok((bytes, "<stdin>".to_string()))
        }
    }
}

fn engine_of(game: &'static dyn Game, name: Option<&str>) -> Result<EngineRef> {
    Ok(resolve_internal(game, name)?)
}

/// `gamebench solve GAME [FILE]`: the judge output on stdout, bad cases on stderr.
pub fn solve(args: SolveArgs) -> Result<Exit> {
    let game = find_game(&args.game)?;
    let engine = engine_of(game, args.engine.as_deref())?;
    let budget = args.budget.budget()?;
    let (input, name) = read_input(args.file.as_ref())?;
    let judged = judge_file(engine, &input, &budget);
    for (index, error) in judged.errors() {
        eprintln!("{name}: case {index}: {error}");
    }
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(judged.output().as_bytes())?;
    stdout.flush()?;
    Ok(judged.exit())
}

/// `gamebench check GAME INPUT OUTPUT [--expected E]`.
pub fn check(args: CheckArgs) -> Result<Exit> {
    let game = find_game(&args.game)?;
    let budget = args.budget.budget()?;
    let engine = engine_of(game, Some(&args.engine))?;
    let (input, name) = read_input(Some(&args.input))?;
    let output = std::fs::read_to_string(&args.output)
        .with_context(|| format!("cannot read {}", args.output.display()))?;
    let actual = game.split_output(&output);
    let parsed = game.parse(&input);
    let expected: Vec<Option<String>> = match &args.expected {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            game.split_output(&text).into_iter().map(Some).collect()
        }
        None => parsed
            .iter()
            .enumerate()
            .map(|(i, p)| judge_case(engine, i + 1, p, &budget).ok().map(|s| s.output))
            .collect(),
    };
    let (mut passed, mut failed, mut errors) = (0, 0, 0);
    for (i, p) in parsed.iter().enumerate() {
        let index = i + 1;
        let case = match &p.case {
            Ok(case) => case,
            Err(e) => {
                eprintln!("{name}: case {index}: {e}");
                errors += 1;
                continue;
            }
        };
        let verdict = match (expected.get(i).cloned().flatten(), actual.get(i)) {
            (_, None) => Err("the output has no block for this case".to_string()),
            (None, _) => Err("no expected output for this case".to_string()),
            (Some(exp), Some(act)) => game.check(case.as_ref(), &exp, act),
        };
        match verdict {
            Ok(()) => passed += 1,
            Err(why) => {
                println!("case {index}: {why}");
                failed += 1;
            }
        }
    }
    if actual.len() > parsed.len() {
        println!(
            "the output has {} blocks for {} cases",
            actual.len(),
            parsed.len()
        );
        failed += 1;
    }
    println!("{passed} passed, {failed} failed");
    Ok(if errors > 0 {
        Exit::Error
    } else if failed > 0 {
        Exit::Failures
    } else {
        Exit::Ok
    })
}

/// `gamebench gen GAME ...`: seeded input files and their expected outputs.
pub fn gen_corpus(args: GenArgs) -> Result<Exit> {
    eprintln!("{}", generate::run(&args)?);
    Ok(Exit::Ok)
}

/// `gamebench list`: games, engines and generator profiles.
pub fn list() -> Result<Exit> {
    for &game in registry::GAMES {
        println!("{}  {}", game.name(), game.title());
        for engine in game.engines() {
            let default = if engine.is_default() {
                " (default)"
            } else {
                ""
            };
            println!("  engine  {}{default}: {}", engine.name(), engine.about());
        }
        for profile in game.generator().profiles() {
            println!("  profile {}: {}", profile.name, profile.about);
        }
    }
    Ok(Exit::Ok)
}
