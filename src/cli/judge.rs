//! The commands that judge one file with a game's own engines: `solve` (judge mode), `check`,
//! `gen` (inputs and their expected outputs), and `list`.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use rayon::prelude::*;

use gamebench::atomic::write_atomic;
use gamebench::game::{EngineRef, Game, Verdict};
use gamebench::judge::{judge_case, judge_file};
use gamebench::registry;
use gamebench::runner::resolve_internal;
use gamebench::status::Exit;
use gamebench_generators as generators;

use super::{CheckArgs, GenArgs, SolveArgs, find_game, shards};

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
    let game = find_game(&args.game)?;
    let engine = engine_of(game, args.engine.as_deref())?;
    let budget = args.budget.budget()?;
    let options = generators::Options {
        cases: args.cases,
        size: args.size.clone(),
        symbols: args.symbols.clone(),
        odd: args.odd,
        weights: args.weights.clone(),
        layout: args.layout.clone(),
        moves: args.moves.clone(),
        blocks: args.blocks.clone(),
    };
    // The oracle a generator may use to keep only cases with a wanted answer size.
    let oracle = |text: &str| -> Option<u32> {
        let parsed = game.parse(text.as_bytes()).into_iter().next()?;
        let solved = judge_case(engine, 1, &parsed, &budget).ok()?;
        (solved.verdict == Verdict::Solved).then_some(())?;
        solved.score.and_then(|k| u32::try_from(k).ok())
    };
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let width = (args.count.max(1) - 1).to_string().len();
    let gen_shard = args.shards.shard()?;
    let written: Vec<Result<bool>> = (0..args.count)
        .into_par_iter()
        .map(|k| {
            let stem = format!("{}-{}-{}-{:0width$}", args.game, args.profile, args.seed, k);
            let input = args.out.join(format!("{stem}.in"));
            let expected = (!args.no_expected).then(|| input.with_extension("out"));
            if !shards::gen_wants(
                gen_shard,
                args.shards.resume,
                k,
                &input,
                expected.as_deref(),
            ) {
                return Ok(false);
            }
            let text = generators::generate(
                &args.game,
                &args.profile,
                &options,
                args.seed,
                k,
                Some(&oracle),
            )?;
            write_file(&input, text.as_bytes())?;
            if let Some(output) = expected {
                let judged = judge_file(engine, text.as_bytes(), &budget);
                if let Some((index, e)) = judged.errors().next() {
                    anyhow::bail!(
                        "{}: case {index}: generated an invalid case: {e}",
                        input.display()
                    );
                }
                write_file(&output, judged.output().as_bytes())?;
            }
            Ok(true)
        })
        .collect();
    let mut files = 0;
    for result in written {
        files += usize::from(result?);
    }
    eprintln!("wrote {files} file(s) to {}", args.out.display());
    Ok(Exit::Ok)
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic(path, bytes).with_context(|| format!("cannot write {}", path.display()))
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
        if let Ok(profiles) = generators::profiles(game.name()) {
            for (name, about) in profiles {
                println!("  profile {name}: {about}");
            }
        }
    }
    Ok(Exit::Ok)
}
