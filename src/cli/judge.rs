//! The commands that judge one file with a game's own engines: `solve` (judge mode), `check`,
//! `gen` (inputs and their expected outputs), and `list`.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::engines::{Executor, FileJob, Limits, Plan, judge_block};
use crate::game::{EngineRef, Game};
use crate::judge::{ExitCodes, judge_file};
use crate::registry;
use crate::runner::resolve_internal;
use crate::status::{CheckVerdict, Exit};

use super::{CheckArgs, SolveArgs, find_game};

/// The bytes of FILE, or of stdin without one, and the name to report them by.
pub(super) fn read_input(file: Option<&PathBuf>) -> Result<(Vec<u8>, String)> {
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
    let game = args.reading.apply(find_game(&args.game)?)?;
    let engine = engine_of(game, args.engine.as_deref())?;
    let budget = args.budget.budget()?;
    let (input, name) = read_input(args.file.as_ref())?;
    let judged = judge_file(engine, &input, &budget);
    for (index, error) in judged.errors() {
        eprintln!("{name}: case {index}: {error}");
    }
    // A search the budget stopped (or that proved `--max-moves` too short) says what it proved.
    for (index, case) in judged.cases.iter().enumerate() {
        if let Ok(crate::game::Solved {
            at_least: Some(least),
            ..
        }) = case
        {
            let index = index + 1;
            eprintln!("{name}: case {index}: the search had proven a score of at least {least}");
        }
    }
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(judged.output().as_bytes())?;
    stdout.flush()?;
    Ok(judged.exit())
}

/// Feedback file of a Kattis/DOMjudge output validator, in its feedback folder.
pub const JUDGE_MESSAGE: &str = "judgemessage.txt";

/// `gamebench check GAME INPUT OUTPUT [--expected E]`: one line per rejected case with its
/// verdict, then the counts. Exit codes (testlib-like, see `Exit`): 0 every case accepted,
/// 1 a wrong answer, 4 a presentation error (and no wrong answer), 5 checker failure (the
/// expected output is missing, not UTF-8 or malformed); 2 when INPUT has a malformed case or
/// a file cannot be read. The worst verdict decides: checker failure, wrong answer,
/// presentation error.
///
/// `--exit-codes testlib` (`check GAME INPUT OUTPUT ANSWER`) and `--exit-codes kattis`
/// (`check GAME INPUT ANSWER FEEDBACK_DIR < OUTPUT`, the report also in
/// `FEEDBACK_DIR/judgemessage.txt`) give the same verdict in the judge's codes
/// (`judge::ExitCodes`); an error (an unreadable file) is then a checker failure in those codes.
pub fn check(args: CheckArgs) -> Result<Exit> {
    let convention = args.exit_codes;
    let mut lines: Vec<String> = Vec::new();
    let (expected, output, feedback) = match convention {
        ExitCodes::Gamebench => {
            if let Some(extra) = &args.extra {
                anyhow::bail!(
                    "unexpected path {}: a fourth path is the answer (--exit-codes testlib) or the feedback folder (--exit-codes kattis)",
                    extra.display()
                );
            }
            (args.expected.clone(), Some(args.output.clone()), None)
        }
        ExitCodes::Testlib => {
            if args.extra.is_some() && args.expected.is_some() {
                anyhow::bail!("give the answer once: as ANSWER or as --expected");
            }
            (
                args.extra.clone().or(args.expected.clone()),
                Some(args.output.clone()),
                None,
            )
        }
        ExitCodes::Kattis => {
            let Some(dir) = args.extra.clone() else {
                anyhow::bail!(
                    "--exit-codes kattis: usage: check GAME INPUT JUDGE_ANSWER FEEDBACK_DIR < TEAM_OUTPUT"
                );
            };
            if args.expected.is_some() {
                anyhow::bail!(
                    "--exit-codes kattis: the judge's answer is the third path, not --expected"
                );
            }
            if !dir.is_dir() {
                anyhow::bail!(
                    "--exit-codes kattis: feedback folder {}: not a directory",
                    dir.display()
                );
            }
            (Some(args.output.clone()), None, Some(dir))
        }
    };
    let verdict = check_lines(&args, expected.as_ref(), output.as_ref(), &mut lines);
    let exit = match verdict {
        Ok(exit) => exit,
        // Gamebench's own codes keep today's behaviour: the error is reported by main (2).
        Err(e) if convention == ExitCodes::Gamebench => return Err(e),
        Err(e) => {
            let line = format!("gamebench: {e:#}");
            eprintln!("{line}");
            lines.push(line);
            Exit::Error
        }
    };
    if let Some(dir) = feedback {
        let mut text = lines.join("\n");
        text.push('\n');
        let path = dir.join(JUDGE_MESSAGE);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(match convention {
        ExitCodes::Gamebench => exit,
        other => Exit::Judge(other.code(exit)),
    })
}

/// Checks the output (`output`, or stdin when `None`) against `expected` (or the engine's
/// output), printing each line and keeping it in `lines`; the verdict as gamebench's exit.
fn check_lines(
    args: &CheckArgs,
    expected_path: Option<&PathBuf>,
    output_path: Option<&PathBuf>,
    lines: &mut Vec<String>,
) -> Result<Exit> {
    let mut say = |line: String| {
        println!("{line}");
        lines.push(line);
    };
    let game = args.reading.apply(find_game(&args.game)?)?;
    let budget = args.budget.budget()?;
    let engine = engine_of(game, Some(&args.engine))?;
    let (input, name) = read_input(Some(&args.input))?;
    let (output, _) = read_input(output_path)?;
    // An output that is not UTF-8 is judged on its text with the bad bytes replaced: it can
    // only be wrong.
    let output = String::from_utf8_lossy(&output);
    let actual = game.split_output(&output);
    let parsed = game.parse(&input);
    let expected: Result<Vec<Option<String>>, String> = match expected_path {
        Some(path) => {
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            match String::from_utf8(bytes) {
                Ok(text) => Ok(game.split_output(&text).into_iter().map(Some).collect()),
                Err(_) => Err(format!("{} is not UTF-8", path.display())),
            }
        }
        None => {
            let job = FileJob {
                game,
                bytes: &input,
                cases: &parsed,
                first: 0,
            };
            Ok(engine
                .run_file(&job, &Plan::once(budget, Limits::default()))
                .into_iter()
                .map(|run| run.result.ok().map(|answer| answer.output))
                .collect())
        }
    };
    let mut counts: BTreeMap<CheckVerdict, usize> = BTreeMap::new();
    let (mut passed, mut errors) = (0, 0);
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
        let expected_block = match &expected {
            Err(why) => Err(why.clone()),
            Ok(blocks) => blocks
                .get(i)
                .cloned()
                .flatten()
                .ok_or_else(|| "no expected output for this case".to_string()),
        };
        let expected_block = expected_block.as_deref().map_err(Clone::clone);
        let verdict = judge_block(
            game,
            case.as_ref(),
            expected_block,
            actual.get(i).map(String::as_str),
            args.presentation,
        );
        match verdict {
            Ok(()) => passed += 1,
            Err(rejected) => {
                say(format!("case {index}: {rejected}"));
                *counts.entry(rejected.verdict).or_default() += 1;
            }
        }
    }
    if actual.len() > parsed.len() {
        say(format!(
            "{}: the output has {} blocks for {} cases",
            CheckVerdict::WrongAnswer,
            actual.len(),
            parsed.len()
        ));
        *counts.entry(CheckVerdict::WrongAnswer).or_default() += 1;
    }
    let count = |v: CheckVerdict| counts.get(&v).copied().unwrap_or(0);
    let failed: usize = counts.values().sum();
    say(format!(
        "{passed} passed, {failed} failed ({} wrong answer, {} presentation error, {} checker failure)",
        count(CheckVerdict::WrongAnswer),
        count(CheckVerdict::PresentationError),
        count(CheckVerdict::CheckerFailure)
    ));
    // The most severe verdict present (the map is ordered by severity).
    let worst = counts.keys().next_back().copied();
    Ok(if errors > 0 {
        Exit::Error
    } else {
        worst.map_or(Exit::Ok, CheckVerdict::exit)
    })
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
