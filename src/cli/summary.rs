//! The end of `gamebench run`: the summary on the terminal (on stderr when stdout carries an
//! export) and the exports, written whole, or beside their names after an interrupted run;
//! and each program's start-up, calibrated before the run and taken out of the summary's
//! times (not of the CSV's, nor of the limits lines': judges count it).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::corpus::{self, CaseFile};
use crate::engines::startup::{self, Clocks};
use crate::engines::{EngineTable, Limits};
use crate::export::{self, Exporter, Report};
use crate::external;
use crate::results::{self, Tally};
use crate::util::atomic::{self, Target};
use crate::util::meta::{RunMeta, StartupTaken};
use crate::util::units;

use super::RunArgs;
use super::outputs::is_stdout;

/// The share of the run's thread time (wall time x threads) spent timing short cases by
/// repetition above which the summary says what the repetition cost.
const REPETITION_DOMINATES: f64 = 0.5;

/// A program's start-up on one game, calibrated before the run (the reason when it could not
/// be), and the input it was calibrated on, in words.
pub(super) struct Calibrated {
    game: &'static str,
    engine: String,
    clocks: Result<Clocks, String>,
    on: String,
}

/// Calibrates every program of `table` on each game of `files` under `limits`
/// ([`startup::calibrate_for_game`]: on the game's input of no case, or on its smallest input
/// file of the run).
pub(super) fn calibrate_programs(
    files: &[CaseFile],
    table: &EngineTable,
    limits: &Limits,
) -> Vec<Calibrated> {
    let mut out: Vec<Calibrated> = Vec::new();
    for file in files {
        let game = file.game;
        if out.iter().any(|c| c.game == game.name()) {
            continue;
        }
        let smallest = files
            .iter()
            .filter(|f| f.game.name() == game.name())
            .filter_map(|f| Some((std::fs::metadata(&f.path).ok()?.len(), f)))
            .min_by_key(|(len, _)| *len)
            .map(|(_, f)| f);
        let engines = table.of(game);
        if !engines.iter().any(|e| e.program().is_some()) {
            continue;
        }
        let bytes = smallest.and_then(|f| corpus::read_case_file(&f.path, 0).ok());
        for spec in engines.iter() {
            let Some(program) = spec.program() else {
                continue;
            };
            let calibrated = startup::calibrate_for_game(program, game, bytes.as_deref(), limits);
            let on = match (&calibrated, smallest) {
                (Ok((_, true)), Some(f)) => format!(
                    "{}, the smallest input (it rejects one of no case)",
                    f.display()
                ),
                _ => "an input of no case".to_string(),
            };
            out.push(Calibrated {
                game: game.name(),
                engine: spec.name().to_string(),
                clocks: calibrated.map(|(c, _)| c).map_err(|e| e.to_string()),
                on,
            });
        }
    }
    out
}

/// The start-ups [`summarize`] takes out, for the run's metadata (a report of the run's CSV
/// takes them out in turn); `per_case` when each case ran alone.
pub(super) fn taken_out(calibrated: &[Calibrated], per_case: bool) -> Vec<StartupTaken> {
    calibrated
        .iter()
        .filter_map(|c| {
            Some(StartupTaken {
                game: c.game.to_string(),
                engine: c.engine.clone(),
                startup_ns: c.clocks.as_ref().ok()?.wall.cpu_ns,
                per_case,
            })
        })
        .collect()
}

/// Takes each calibrated start-up out of `tally`'s times (a run's times are wall times), and
/// says so: one line per program.
fn take_out(tally: &mut Tally, calibrated: &[Calibrated]) -> String {
    let mut text = String::new();
    for c in calibrated {
        let clocks = match &c.clocks {
            Ok(clocks) => clocks,
            Err(why) => {
                text.push_str(&format!(
                    "start-up: {} ({}): not taken out, its run on {} failed: {why}\n",
                    c.engine, c.game, c.on
                ));
                continue;
            }
        };
        let wall = clocks.wall;
        let within = tally.take_out_startup(c.game, &c.engine, wall.cpu_ns);
        let within = if within > 0 {
            format!(
                "; {} within it read 0",
                crate::util::units::counted(within as u64, "case", "cases")
            )
        } else {
            String::new()
        };
        text.push_str(&format!(
            "start-up: {} ({}): {} per run taken out of its times and speed (wall time, the fastest of {} runs on {}; noise {}){within}\n",
            c.engine,
            c.game,
            results::human_time(wall.cpu_ns),
            wall.runs,
            c.on,
            results::human_time(wall.noise_ns),
        ));
    }
    if !text.is_empty() && calibrated.iter().any(|c| c.clocks.is_ok()) {
        text.push_str(
            "start-up: the CSV, the limits lines and the CPU times keep it, as a judge counts it\n",
        );
    }
    text
}

/// One export of the run: its path, format, name in messages and option.
pub(super) struct Export<'a> {
    pub(super) path: &'a PathBuf,
    pub(super) exporter: &'a dyn Exporter,
    pub(super) what: &'static str,
    pub(super) option: &'static str,
}

/// Where an export goes: its path, or, after an interrupted run, `FILE.interrupted` beside it
/// (a partial summary never takes an export's name, so an earlier complete one stays intact).
/// Stdout, devices and FIFOs take it in place.
fn export_path(path: &Path, interrupted: bool) -> PathBuf {
    let in_place = is_stdout(path) || matches!(Target::of(path), Ok(Target::InPlace(_)));
    if interrupted && !in_place {
        atomic::interrupted_path(path)
    } else {
        path.to_path_buf()
    }
}

/// Where the summary and the exports go: the exports, whether stdout carries one (the
/// summary then goes to stderr), whether the run was interrupted (exports then go to
/// `FILE.interrupted`).
pub(super) struct Written<'a> {
    pub(super) exports: &'a [Export<'a>],
    pub(super) stdout_taken: bool,
    pub(super) interrupted: bool,
}

/// Writes the exports and prints the summary, the programs' start-up (`calibrated`) taken out
/// of `tally`'s times first (with `--quiet`, only the verdicts, which decide the exit code, and
/// the run's size).
pub(super) fn summarize(
    args: &RunArgs,
    (baseline, chosen): (String, Option<&'static str>),
    (tally, calibrated): (&mut Tally, &[Calibrated]),
    written: &Written<'_>,
    meta: &RunMeta,
    limits: &results::LimitFigures,
) -> Result<()> {
    let taken_out = take_out(tally, calibrated);
    let summary = tally.summary(&baseline);
    let slowest = tally.slowest();
    let warnings = tally.warnings();
    let report = Report {
        meta: Some(meta),
        warnings: &warnings,
        samples: args.samples,
        ..Report::new(&summary, &slowest, tally.records())
    };
    write_exports(&report, written)?;
    let text = if args.quiet {
        results::verdict_lines(&summary, args.check) + &run_lines(tally, meta)
    } else {
        let mut text = String::new();
        if let Some(why) = chosen {
            text.push_str(&format!("baseline: {baseline} ({why})\n"));
        }
        text.push_str(&results::headlines(&summary));
        text.push_str(&results::summary_table(&summary));
        text.push_str(&results::detail_lines(&summary));
        text.push_str(&results::verdict_lines(&summary, args.check));
        for line in tally.limit_lines(limits) {
            text.push_str(&format!("limits: {line}\n"));
        }
        text.push_str(&run_lines(tally, meta));
        text.push_str(&taken_out);
        for warning in &warnings {
            text.push_str(warning);
            text.push('\n');
        }
        text.push_str(&export::slowest_text(&slowest));
        text
    };
    if written.stdout_taken {
        eprint!("{text}");
    } else {
        print!("{text}");
    }
    Ok(())
}

/// Writes each export (after an interrupted run, to `FILE.interrupted`, saying so).
fn write_exports(report: &Report<'_>, written: &Written<'_>) -> Result<()> {
    let interrupted = written.interrupted;
    for e in written.exports {
        let path = export_path(e.path, interrupted);
        export::write_export(e.exporter, report, &path)
            .with_context(|| format!("the {} was not written", e.what))?;
        if !interrupted && path == **e.path && !is_stdout(&path) {
            atomic::remove_stale_interrupted(&path);
        }
        if interrupted && path != **e.path {
            eprintln!(
                "gamebench: interrupted: the {} of the finished files is in {}",
                e.what,
                path.display()
            );
        }
    }
    Ok(())
}

/// The summary's lines about the run itself: what repetition cost (when it dominated), the
/// run's size and rate, the shell's start-up.
fn run_lines(tally: &Tally, meta: &RunMeta) -> String {
    let mut text = String::new();
    // Timing sub-microsecond cases by repetition can cost more than solving them: say so.
    let repetition = tally.repetition_ns();
    if repetition as f64 > REPETITION_DOMINATES * meta.wall_ns as f64 * meta.threads as f64 {
        text.push_str(&format!(
            "timing: calling each short case again until a timed batch lasts {} took at least {} of the run's {} of thread time ({} on {} threads); --no-repeat times each case once (roughly)\n",
            results::human_time(results::MIN_TIMED_NS),
            results::human_time(repetition),
            results::human_time(meta.wall_ns.saturating_mul(meta.threads as u64)),
            results::human_time(meta.wall_ns),
            meta.threads
        ));
    }
    text.push_str(&format!(
        "run: {}, {} in {} ({} results/s, {})\n",
        units::counted(meta.cases as u64, "case", "cases"),
        units::counted(meta.results as u64, "result", "results"),
        results::human_time(meta.wall_ns),
        units::sig3(meta.results_per_s),
        units::counted(meta.threads as u64, "thread", "threads")
    ));
    if let Some(t) = meta.external_startup_ns {
        text.push_str(&format!(
            "external programs: an empty run of the same shape takes {} (median of {})\n",
            results::human_time(t),
            external::CALIBRATION_RUNS
        ));
    }
    text
}
