//! `gamebench levels DIR`: the Vexed level-pack report (see
//! [`crate::games::vexed::levels`]): a table per pack, the levels whose minimum differs
//! from par with their solutions, the slowest levels, and `--csv` with one row per level.
//!
//! A first SIGINT or SIGTERM stops the run: no level starts, and those being solved stop at
//! once with status `budget` and the bound they had proven (`K >= n`, the CSV's `at_least`:
//! an hour-long proof interrupted still says how far it got); the report and the CSV then
//! cover the levels finished or stopped, and the CSV never replaces a file that was there
//! before the run (the rows go to `<csv>.interrupted`). A second signal ends the process.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, Result, bail};
use clap::Args;

use super::BudgetArgs;
use crate::game::{Budget, Engine, Rules, Stop};
use crate::games::vexed::levels::{self, Level, LevelStatus, Settings};
use crate::games::vexed::{Puzzle, Solution, Vexed};
use crate::status::Exit;
use crate::util::atomic::{self, AtomicFile};
use crate::util::units::human_time_f;

/// The per-level time limit when none is given: the issue of record for the packs asks for
/// every level within a minute.
const DEFAULT_SECONDS: f64 = 60.0;

#[derive(Args)]
pub struct LevelsArgs {
    /// Folder of Vexed level packs: `<pack>.in` (judge format) with `<pack>.par` (`NAME PAR`
    /// lines) beside it.
    pub dir: PathBuf,
    /// Only these packs (file stems, comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "PACK,...")]
    pub packs: Vec<String>,
    /// The engine (default: the fastest).
    #[arg(long, short, value_parser = super::EngineName, hide_possible_values = true)]
    pub engine: Option<String>,
    /// Levels solved at once; with `-j 1`, each level's peak memory is exact.
    #[command(flatten)]
    pub jobs: super::shards::JobsArgs,
    /// One row per level: pack, index, name, size, status, moves, par, versus_par, seconds,
    /// states, peak_mb, detail (the solution), at_least (for a level the budget stopped: no
    /// solution is shorter, as far as the search had proven).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// How many of the slowest levels to list.
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub slowest: usize,
    /// No line per level on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Proof mode with a cap of par - 1 moves per level (see `--max-moves`): each level gets a
    /// minimum solution below par, or the proof that none exists (status `above-max`,
    /// `at_least` = par or more). Levels without a par are solved as usual.
    #[arg(long, conflicts_with = "max_moves")]
    pub prove_below_par: bool,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

pub fn levels(mut args: LevelsArgs) -> Result<Exit> {
    if args.budget.time_limit.is_none() && args.budget.max_states.is_none() {
        args.budget.time_limit = Some(DEFAULT_SECONDS);
    }
    let budget = args
        .budget
        .budget_capped(args.prove_below_par || args.budget.max_moves.is_some())?;
    let engine = engine_of(args.engine.as_deref())?;
    let signals = super::run::catch_signals()?;
    let existed = args.csv.as_ref().is_some_and(|csv| csv.exists());
    if let Some(csv) = &args.csv {
        // A bad path fails now, not after hours of solving.
        AtomicFile::create(csv).with_context(|| format!("cannot create {}", csv.display()))?;
    }
    let packs = levels::discover(&args.dir, &args.packs)?;
    // A search being solved stops at its next look at the flag.
    let settings = Settings {
        engine,
        budget: Budget {
            stop: Some(Stop(signals.stop.clone())),
            ..budget
        },
        threads: Some(args.jobs.threads()),
        prove_below_par: args.prove_below_par,
    };
    let done = AtomicUsize::new(0);
    let quiet = args.quiet;
    let levels = levels::run(&packs, &settings, &signals.stop, &|level: &Level| {
        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
        if !quiet {
            eprintln!(
                "[{n}] {} {}: {} {} in {}",
                level.pack,
                level.name,
                level.status.as_str(),
                level.minimum(),
                human_time_f(level.seconds * 1e9)
            );
        }
    })?;
    let interrupted = signals.stop.load(Ordering::Relaxed);
    if let Some(csv) = &args.csv {
        // An interrupted run's rows never replace an earlier complete file.
        let csv = &if interrupted && existed {
            atomic::interrupted_path(csv)
        } else {
            csv.clone()
        };
        write_csv(csv, &levels)?;
        if interrupted {
            eprintln!(
                "gamebench: interrupted: the rows of the {} finished level(s) are in {}",
                levels.len(),
                csv.display()
            );
        }
    }
    if interrupted {
        eprintln!(
            "gamebench: interrupted after {} level(s): the report below covers them only",
            levels.len()
        );
    }
    let mut out = std::io::stdout().lock();
    report(&mut out, &levels, &settings, args.slowest)?;
    Ok(if interrupted {
        if signals.terminated.load(Ordering::Relaxed) {
            Exit::Terminated
        } else {
            Exit::Interrupted
        }
    } else if levels.iter().any(|l| l.status == LevelStatus::Error) {
        Exit::Error
    } else if levels.iter().any(|l| l.status == LevelStatus::Budget) {
        Exit::Failures
    } else {
        Exit::Ok
    })
}

/// The Vexed engine called `name` (`None`: the default one).
fn engine_of(name: Option<&str>) -> Result<&'static Engine<Puzzle, Solution>> {
    let Some(name) = name else {
        return Ok(Vexed::ENGINES
            .iter()
            .find(|e| e.name == Vexed::DEFAULT_ENGINE)
            .expect("the default engine is registered"));
    };
    match Vexed::ENGINES.iter().find(|e| e.name == name) {
        Some(engine) => Ok(engine),
        None => bail!(
            "vexed has no engine {name:?} (engines: {})",
            Vexed::ENGINES
                .iter()
                .map(|e| e.name)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Writes one row per level to `csv`, whole or not at all.
fn write_csv(csv: &Path, levels: &[Level]) -> Result<()> {
    let file =
        AtomicFile::create(csv).with_context(|| format!("cannot create {}", csv.display()))?;
    let mut writer = csv::Writer::from_writer(file);
    for level in levels {
        writer.serialize(level)?;
    }
    writer
        .into_inner()
        .map_err(|e| e.into_error())?
        .commit()
        .with_context(|| format!("cannot write {}", csv.display()))
}

/// The report on stdout: the settings, a table per pack, the levels off par, those without a
/// proven minimum, the slowest, and the run's peak memory.
fn report(
    out: &mut impl Write,
    levels: &[Level],
    settings: &Settings,
    slowest: usize,
) -> Result<()> {
    settings_line(out, settings)?;
    pack_table(out, levels)?;
    off_par(out, levels)?;
    unproven(out, levels)?;
    slowest_levels(out, levels, slowest)?;
    // With one level at a time the process peak was reset before each level.
    let peak = levels
        .iter()
        .filter_map(|l| l.peak_mb)
        .reduce(f64::max)
        .or_else(levels::process_peak_mb);
    if let Some(peak) = peak {
        writeln!(out, "\npeak memory of the run: {peak:.0} MB")?;
    }
    Ok(())
}

/// The engine, the budget per level and the levels solved at once.
fn settings_line(out: &mut impl Write, settings: &Settings) -> Result<()> {
    let limit = match (settings.budget.time_limit, settings.budget.max_states) {
        (Some(t), Some(n)) => format!("{} s or {n} states", t.as_secs_f64()),
        (Some(t), None) => format!("{} s", t.as_secs_f64()),
        (None, Some(n)) => format!("{n} states"),
        (None, None) => "no limit".to_string(),
    };
    let limit = match (settings.prove_below_par, settings.budget.max_moves) {
        (true, _) => format!("{limit}, solutions below par only"),
        (false, Some(k)) => format!("{limit}, solutions of at most {k} moves only"),
        (false, None) => limit,
    };
    writeln!(
        out,
        "engine {}, per level: {limit}, {} level(s) at once\n",
        settings.engine.name,
        settings
            .threads
            .map_or("all cores".to_string(), |n| n.to_string())
    )?;
    Ok(())
}

/// One row per pack and one for the total.
fn pack_table(out: &mut impl Write, levels: &[Level]) -> Result<()> {
    writeln!(
        out,
        "| pack | levels | minimal | budget | above max | no solution | error | K < par | K = par | K > par | total s | max s | max peak MB |"
    )?;
    writeln!(out, "|---|---|---|---|---|---|---|---|---|---|---|---|---|")?;
    for pack in levels::summarize(levels) {
        let peak = pack
            .max_peak_mb
            .map_or("-".to_string(), |m| format!("{m:.0}"));
        let name = if pack.name == "total" {
            "**total**".to_string()
        } else {
            pack.name
        };
        writeln!(
            out,
            "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} | {:.2} | {peak} |",
            pack.levels,
            pack.minimal,
            pack.budget,
            pack.above_max,
            pack.no_solution,
            pack.errors,
            pack.below_par,
            pack.at_par,
            pack.above_par,
            pack.seconds,
            pack.max_seconds
        )?;
    }
    Ok(())
}

/// The levels whose minimum differs from their par, with their solutions.
fn off_par(out: &mut impl Write, levels: &[Level]) -> Result<()> {
    let off_par: Vec<&Level> = levels
        .iter()
        .filter(|l| l.versus_par != "equal" && !l.versus_par.is_empty())
        .collect();
    if !off_par.is_empty() {
        writeln!(
            out,
            "\nminimum solutions off par ({}; each replayed by the checker):",
            off_par.len()
        )?;
        for level in off_par {
            writeln!(
                out,
                "\n{} ({}): K = {}, par = {} ({} par)",
                level.name,
                level.pack,
                level.moves.unwrap_or_default(),
                level.par.unwrap_or_default(),
                level.versus_par
            )?;
            writeln!(out, "{}", level.detail)?;
        }
    }
    Ok(())
}

/// The levels without a proven minimum (budget, above the cap, errors).
fn unproven(out: &mut impl Write, levels: &[Level]) -> Result<()> {
    let unproven: Vec<&Level> = levels
        .iter()
        .filter(|l| l.status != LevelStatus::Minimal && l.status != LevelStatus::NoSolution)
        .collect();
    if !unproven.is_empty() {
        writeln!(
            out,
            "\nlevels without a proven minimum ({}):",
            unproven.len()
        )?;
        for level in unproven {
            let detail = if level.status == LevelStatus::Error {
                format!(": {}", level.detail)
            } else {
                level.par.map_or(String::new(), |p| format!(" (par {p})"))
            };
            writeln!(
                out,
                "  {} ({}): {}{detail}",
                level.name,
                level.pack,
                level.result()
            )?;
        }
    }
    Ok(())
}

/// The `slowest` slowest levels.
fn slowest_levels(out: &mut impl Write, levels: &[Level], slowest: usize) -> Result<()> {
    let mut by_time: Vec<&Level> = levels.iter().collect();
    by_time.sort_by(|a, b| b.seconds.total_cmp(&a.seconds));
    writeln!(out, "\nslowest levels:")?;
    for level in by_time.into_iter().take(slowest) {
        let moves = level.result();
        let par = level.par.map_or("?".to_string(), |p| p.to_string());
        let peak = level
            .peak_mb
            .map_or(String::new(), |m| format!(", peak {m:.0} MB"));
        writeln!(
            out,
            "  {:8.3} s  {} ({}): {moves}, par {par}, {} states{peak}",
            level.seconds, level.name, level.pack, level.states
        )?;
    }
    Ok(())
}
