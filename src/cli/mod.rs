//! The command line: clap definitions of every command and the functions that carry them out.
//! This is the CLI edge, the only place that uses anyhow: the library reports typed errors,
//! and here they become messages; exit codes come from [`crate::status::Exit`].

pub mod compare;
mod conventions;
mod duet;
mod games;
mod generate;
mod hunt;
mod invoke;
mod judge;
mod levels;
mod options;
mod outputs;
mod package;
mod reading;
pub mod report;
mod run;
mod shard_args;
pub mod shards;
mod stress;
mod summary;
mod sweep;
mod validate;

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args, CommandFactory, Parser, Subcommand};

use crate::game::Game;
use crate::registry;
use crate::status::{Exit, Presentation};

pub use conventions::{command_line, parse_error_code};
pub use generate::{GenArgs, GenCommon, gen_corpus};
pub use hunt::hunt;
pub use invoke::{InvokeArgs, invoke};
pub use judge::{check, list, solve};
pub use levels::levels;
pub use options::*;
pub use package::{PackageArgs, package};
pub use reading::{ReadingArgs, ZeroPair};
pub use run::run;
pub use stress::{shrink, stress};
pub use sweep::sweep;
pub use validate::{ValidateArgs, validate};

/// Simulate, solve and benchmark four contest games in bulk: Link and Pop, SameGame, Vexed and
/// Yut Nori.
#[derive(Parser)]
#[command(name = "gamebench", version = env!("GAMEBENCH_VERSION"), about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Judge mode: read a judge input (FILE or stdin), write the judge output to stdout.
    Solve(SolveArgs),
    /// Solve every case under PATH... in parallel; write outputs, CSV rows and a summary.
    Run(Box<RunArgs>),
    /// Every solution of a problem on every test: the verdict table, each solution's tag
    /// checked (exit 1 when one is contradicted), the tests that kill each wrong solution and a
    /// small subset that kills them all.
    Invoke(Box<InvokeArgs>),
    /// Judges' problem packages: `package export` writes a problem as a Kattis or Polygon
    /// package.
    Package(PackageArgs),
    /// Generate a seeded corpus of judge input files (and their expected outputs).
    Gen(GenArgs),
    /// Validate judge inputs strictly against the statement (exit 0 valid, 3 invalid).
    Validate(ValidateArgs),
    /// Check an output file against an input (and an expected output, or the reference
    /// engine); exit 0 accepted, 1 wrong answer, 4 presentation error, 5 checker failure.
    Check(CheckArgs),
    /// List the games, their engines and generator profiles.
    List,
    /// Solve every level of the Vexed level packs in DIR: minimum proven or not, K against par,
    /// time and peak memory per pack; the levels off par with their solutions.
    Levels(levels::LevelsArgs),
    /// Generate cases until two engines differ, then shrink the failing input to a minimal one.
    Stress(stress::StressArgs),
    /// Shrink a failing case of a given input (two engines differ on it) to a minimal one,
    /// as `stress` shrinks a generated one: the same report and files.
    Shrink(Box<stress::ShrinkArgs>),
    /// Search for the inputs on which an engine is slowest; write them as a corpus.
    Hunt(hunt::HuntArgs),
    /// Merge the shards of a `run --shard` (checking that none is missing) into one CSV.
    Merge(shards::MergeArgs),
    /// How cost grows with size: generate a corpus per point (board size or a generator
    /// option), run every engine, fit time ~ cells^k per engine, plot it.
    Sweep(Box<sweep::SweepArgs>),
    /// Compare two runs (results CSVs, JSON exports with --samples, or baselines) case by
    /// case: ratios with intervals, cases beyond the noise, verdict changes; exit 0 no
    /// regression, 1 a verdict got worse, 6 slower.
    Compare(compare::CompareArgs),
    /// Write one self-contained HTML page of runs (and of a comparison): summary,
    /// distributions, speed-ups, slowest and failing cases, boards drawn by the games.
    Report(Box<report::ReportArgs>),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to stdout.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff) to stdout: `gamebench man > gamebench.1`, `gamebench man run`
    /// (one command's page); or write every page to a folder: `gamebench man --dir DIR`.
    Man(ManArgs),
}

#[derive(Args)]
pub struct ManArgs {
    /// The command whose page to print, e.g. `run` or `stress` (default: the top page).
    pub command: Option<String>,
    /// Write every page (gamebench.1 and one gamebench-COMMAND.1 per command) into DIR.
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    pub dir: Option<PathBuf>,
}

/// `gamebench completions SHELL`.
pub fn completions(shell: clap_complete::Shell) -> Result<Exit> {
    let mut command = Cli::command();
    clap_complete::generate(shell, &mut command, "gamebench", &mut std::io::stdout());
    Ok(Exit::Ok)
}

/// `gamebench man`: the manual pages, from the same clap definitions as `--help`.
pub fn man(args: ManArgs) -> Result<Exit> {
    let mut top = Cli::command();
    top.build();
    if let Some(dir) = &args.dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        write_pages(&top, dir)
            .with_context(|| format!("cannot write the manual pages into {}", dir.display()))?;
        return Ok(Exit::Ok);
    }
    let page = match &args.command {
        None => top,
        Some(name) => {
            let Some(sub) = top.find_subcommand(name) else {
                let names: Vec<String> = top
                    .get_subcommands()
                    .map(|c| c.get_name().to_string())
                    .collect();
                bail!(
                    "no command {name:?}{} (commands: {})",
                    crate::util::suggest::did_you_mean(name, names.iter().map(String::as_str)),
                    names.join(", ")
                );
            };
            // Built with its parent, it carries the display name `gamebench-<name>`, the
            // page's title, as in the pages of `--dir`.
            sub.clone()
        }
    };
    clap_mangen::Man::new(page)
        .render(&mut std::io::stdout())
        .context("cannot write the manual page")?;
    Ok(Exit::Ok)
}

/// Writes `cmd`'s page and those of its subcommands, at any depth, into `dir` as
/// `<display name>.1` (`gamebench-stress-samegame.1`); clap's `help` pseudo-commands have none.
fn write_pages(cmd: &clap::Command, dir: &std::path::Path) -> std::io::Result<()> {
    let name = cmd.get_display_name().unwrap_or(cmd.get_name());
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut page)?;
    crate::util::atomic::write_atomic(&dir.join(format!("{name}.1")), &page)?;
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        write_pages(sub, dir)?;
    }
    Ok(())
}

/// An error and its causes on one line, `outer: cause: root`, as `{:#}` prints it, but
/// without a cause that the text before it already says: many library errors show their
/// source in their own message (`{path}: {source}`), which the chain would repeat
/// (`No such file or directory (os error 2): No such file or directory (os error 2)`).
pub fn error_text(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain() {
        let said = cause.to_string();
        if !text.is_empty() && text.contains(&said) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&said);
    }
    text
}

/// The command line parsed, or the process ended with clap's message (exit 2), which for an
/// unknown command names the nearest one: clap suggests by its own similarity measure, which
/// misses swapped letters (`rnu`); [`crate::util::suggest`] counts a swap as one typo.
pub fn parse_or_exit() -> Cli {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let args = conventions::command_line(std::env::args_os());
    let mut error = match Cli::try_parse_from(&args) {
        Ok(cli) => return cli,
        Err(error) => error,
    };
    if error.kind() == ErrorKind::InvalidSubcommand
        && error.get(ContextKind::SuggestedSubcommand).is_none()
        && let Some(ContextValue::String(typed)) = error.get(ContextKind::InvalidSubcommand)
    {
        let command = Cli::command();
        let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
        if let Some(nearest) = crate::util::suggest::nearest(typed, names.iter().copied()) {
            let nearest = nearest.to_string();
            error.insert(
                ContextKind::SuggestedSubcommand,
                ContextValue::Strings(vec![nearest]),
            );
        }
    }
    let _ = error.print();
    std::process::exit(conventions::parse_error_code(&args, &error))
}

/// The game called `name`, or an error suggesting the nearest and listing the games.
pub fn find_game(name: &str) -> Result<&'static dyn Game> {
    registry::find(name).with_context(|| {
        let names = registry::names();
        format!(
            "unknown game {name:?}{} (games: {})",
            crate::util::suggest::did_you_mean(name, names.iter().copied()),
            names.join(", ")
        )
    })
}

#[derive(Args)]
pub struct SolveArgs {
    /// The game (see `gamebench list`).
    #[arg(value_parser = GameName)]
    pub game: String,
    /// Engine to use (default: the game's fastest). See `gamebench list`.
    #[arg(long, short, value_parser = EngineName, hide_possible_values = true)]
    pub engine: Option<String>,
    /// Judge input file (default: stdin).
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub reading: ReadingArgs,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

#[derive(Args)]
pub struct RunArgs {
    /// Input files or folders (searched recursively for *.in).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// The game of every file (default: the nearest enclosing folder named after a game).
    #[arg(long, short, value_parser = GameName)]
    pub game: Option<String>,
    /// Engine to run; repeat for several; `all` = every internal engine; `cmd:COMMAND` or
    /// `NAME=cmd:COMMAND` = an external program run once per file, stdin to stdout (default:
    /// the game's fastest).
    #[arg(long = "engine", short = 'e', value_name = "NAME", value_parser = EngineName, hide_possible_values = true)]
    pub engines: Vec<String>,
    /// Wall-time limit of one external program run (one file), in seconds (default 60, or
    /// 3 x --cpu-limit + 1 s); a program killed at it gets status `timeout` (verdict `wall`) on
    /// the file's cases.
    #[arg(long, value_name = "SECONDS", value_parser = seconds_arg)]
    pub timeout: Option<f64>,
    /// Per-case time limit of external programs, in seconds: a one-case file (Yut) runs under
    /// it, and a file of a game whose output does not number its cases (Vexed) runs case by
    /// case, each killed at the limit (status `timeout`); other files run whole under
    /// --timeout.
    #[arg(long, value_name = "SECONDS", value_parser = seconds_arg)]
    pub case_timeout: Option<f64>,
    #[command(flatten)]
    pub launch: ShellArgs,
    #[command(flatten)]
    pub jobs: shards::JobsArgs,
    /// Write one row per case, engine and run to this CSV file (`-` = stdout).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write each input's output (X.out) under DIR, mirroring the input tree.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Compare every case's output with the expected X.out beside X.in.
    #[arg(long)]
    pub check: bool,
    /// What a presentation error (a difference in white space the format fixes) counts as:
    /// `reject` (default) or `accept`, as many judges do (see docs/tolerances.md).
    #[arg(long, value_enum, default_value_t = Presentation::Reject, value_name = "MODE")]
    pub presentation: Presentation,
    #[command(flatten)]
    pub reading: ReadingArgs,
    /// Validate every file strictly first (as `gamebench validate`): a case that breaks the
    /// statement is not solved and gets status `error` with the violation.
    #[arg(long)]
    pub validate: bool,
    /// No progress bar, no problem lines, and a short summary: the verdicts (what decides the
    /// exit code) and the run's size.
    #[arg(long, short)]
    pub quiet: bool,
    /// Progress on stderr: `auto` (a bar on a terminal, else a plain line every 10 s, as in
    /// Slurm logs), `bar`, `plain` or `none` (default: auto; none with --quiet).
    #[arg(long, value_enum, value_name = "MODE")]
    pub progress: Option<crate::runner::ProgressMode>,
    /// Untimed runs of each case before the timed ones.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub warmup: u32,
    /// Timed runs of each case (the CSV keeps every run; the summary uses the median).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// Time every case alone, however short (by default a case under 1 µs is timed by
    /// repetition: batches of calls lasting at least 10 µs, divided by the calls). Faster on
    /// corpora of tiny cases; cases under 1 µs are then flagged as rough.
    #[arg(long)]
    pub no_repeat: bool,
    /// Engine the others are compared with and timed against (default: `reference` when it
    /// runs; else, with several engines, the first one named; the summary says which).
    #[arg(long, value_name = "NAME")]
    pub baseline: Option<String>,
    /// Problem lines (errors, wrong answers) on stderr: `all`, the first N (then a count of the
    /// rest), or `none` (default: 20; none with --quiet). The CSV has every one.
    #[arg(long, value_name = "all|N|none", value_parser = problems_arg)]
    pub problems: Option<ProblemLines>,
    /// Show the N slowest cases of each engine (file and case) after the summary.
    #[arg(long, value_name = "N")]
    pub top: Option<usize>,
    /// Export the summary (and the slowest cases) as JSON (`-` = stdout).
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,
    /// With --export-json: add every case's raw run times (`samples`).
    #[arg(long, requires = "export_json")]
    pub samples: bool,
    /// Write JUnit XML: a test case per file x case x engine, failed (with its status,
    /// verdict and message) unless `ok` or `unchecked`; `error` cases are JUnit errors.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Export the summary as a Markdown table (`-` = stdout).
    #[arg(long, value_name = "FILE")]
    pub export_markdown: Option<PathBuf>,
    /// Export the summary as CSV, one line per game and engine (`-` = stdout).
    #[arg(long, value_name = "FILE")]
    pub export_csv: Option<PathBuf>,
    /// Draw per-engine box plots of the time per case (log scale) to an SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Draw the time per case against the case's size (`cells`), log-log, to an SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot_scaling: Option<PathBuf>,
    #[command(flatten)]
    pub budget: BudgetArgs,
    #[command(flatten)]
    pub shards: shards::RunShardArgs,
    #[command(flatten)]
    pub after: report::AfterRunArgs,
    #[command(flatten)]
    pub duet: duet::DuetArgs,
}

#[derive(Args)]
pub struct CheckArgs {
    /// The game (see `gamebench list`).
    #[arg(value_parser = GameName)]
    pub game: String,
    /// The judge input.
    pub input: PathBuf,
    /// The output to check (with `--exit-codes kattis`: the judge's answer; the team's output
    /// is read from stdin, as output validators are called).
    pub output: PathBuf,
    /// `--exit-codes testlib`: the answer file (as --expected); `--exit-codes kattis`: the
    /// feedback folder, where `judgemessage.txt` is written.
    pub extra: Option<PathBuf>,
    /// What judges pass after it: `--exit-codes testlib`: the result file (testlib's result
    /// written there: plain, or XML with `-appes`); `--exit-codes kattis`: the output
    /// validator's flags (`case_sensitive`, `space_change_sensitive`, ...: accepted and
    /// ignored, the game's checker decides).
    #[arg(value_name = "JUDGE_ARGS")]
    pub judge_args: Vec<String>,
    /// testlib's `-appes` (the result file in XML), as Polygon and ejudge pass it after the
    /// result file; given as `-appes` (see `cli::command_line`).
    #[arg(long, hide = true)]
    pub appes: bool,
    /// The expected output (default: what `--engine` prints for INPUT).
    #[arg(long)]
    pub expected: Option<PathBuf>,
    /// Exit codes: `gamebench` (0 accepted, 1 wrong answer, 4 presentation error, 5 checker
    /// failure), `testlib` (0 OK, 1 WA, 2 PE, 3 FAIL: `check GAME INPUT OUTPUT ANSWER`) or
    /// `kattis` (42 accepted, 43 wrong: `check GAME INPUT ANSWER FEEDBACK_DIR < OUTPUT`).
    #[arg(
        long,
        value_enum,
        value_name = "CONVENTION",
        default_value = "gamebench"
    )]
    pub exit_codes: crate::engines::judge::ExitCodes,
    /// Engine that computes the expected output when no --expected is given.
    #[arg(long, short, default_value = "reference", value_parser = EngineName, hide_possible_values = true)]
    pub engine: String,
    /// What a presentation error (a difference in white space the format fixes) counts as:
    /// `reject` (default) or `accept`, as many judges do (see docs/tolerances.md).
    #[arg(long, value_enum, default_value_t = Presentation::Reject, value_name = "MODE")]
    pub presentation: Presentation,
    #[command(flatten)]
    pub reading: ReadingArgs,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

#[cfg(test)]
mod tests;
