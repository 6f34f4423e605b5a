//! `gamebench invoke`: options (and a problem file) -> solutions, tests, limits -> one
//! [`crate::invoke::invoke`] -> the table, the tag check, the strength report, the files.
//!
//! Exit codes: 0 every tag holds; 1 a solution contradicts its tag; 2 a test could not be
//! judged (or a usage / I/O error); 130/143 interrupted.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use anyhow::{Context, Result, bail};
use clap::Args;

use crate::engines::{self, Limits};
use crate::invoke::{
    self, Checker, Config, Solution, Tag, problem::Problem, strength, table, tags,
};
use crate::package::{self, Package, advice, languages};
use crate::registry;
use crate::runner::EngineTable;
use crate::status::{Exit, Presentation};

mod written;

use written::{package_text, write_files, write_selection};

use super::outputs::{self, is_stdout};
use super::run::catch_signals;
use super::{BudgetArgs, ShellArgs, find_game, positive_seconds, seconds_arg};

#[derive(Args)]
pub struct InvokeArgs {
    /// Test files or folders (searched recursively for *.in; expected outputs from X.out or
    /// X.ans, or from the solution tagged main). With --problem, added to its tests. A
    /// package folder (Kattis/DOMjudge `problem.yaml`, Polygon `problem.xml`), named alone,
    /// is read whole: tests, submissions, limits (docs/packages.md).
    pub paths: Vec<PathBuf>,
    /// A package's language table (TOML): how submissions are built and run, replacing the
    /// built-in entries of the languages it names (docs/packages.md).
    #[arg(long, value_name = "FILE")]
    pub languages: Option<PathBuf>,
    /// Where a package's submissions are built (once, reused while their sources do not
    /// change); default $XDG_CACHE_HOME/gamebench/build.
    #[arg(long, value_name = "DIR")]
    pub build_dir: Option<PathBuf>,
    /// Time-limit advice: each accepted and each time-limit-exceeded submission run again
    /// (--advice-runs times, one at a time) on its slowest tests: the limit the package's
    /// multipliers give, the spread of the slowest accepted time, the margin to the fastest
    /// TLE, the submissions sensitive to the limit (docs/packages.md).
    #[arg(long)]
    pub time_limit_advice: bool,
    /// Runs of each measured (submission, test) for --time-limit-advice.
    #[arg(long, value_name = "N", default_value_t = advice::DEFAULT_RUNS,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub advice_runs: u32,
    /// A problem file (TOML): the tests, the game, the checker, the limits and the solutions
    /// with their tags (docs/invoke.md). Options given on the command line win over it.
    #[arg(long, value_name = "FILE")]
    pub problem: Option<PathBuf>,
    /// The game of every test (default: the nearest enclosing folder named after a game).
    #[arg(long, short, value_parser = super::GameName)]
    pub game: Option<String>,
    /// A solution: an engine of the game, or `NAME=cmd:COMMAND` (a program, stdin to stdout,
    /// run once per file); repeat for several.
    #[arg(long = "engine", short = 'e', value_name = "NAME", value_parser = super::EngineName, hide_possible_values = true)]
    pub engines: Vec<String>,
    /// What solution NAME should get: main, accepted, wrong-answer, time-limit, memory-limit,
    /// runtime-error or failing; repeat for several. A contradicted tag exits 1.
    #[arg(long, value_name = "NAME=TAG")]
    pub expect: Vec<String>,
    /// How outputs are compared: `game` (the game's checker, default) or `exact` (byte for
    /// byte).
    #[arg(long, value_name = "CHECKER")]
    pub checker: Option<Checker>,
    /// What a presentation error (a difference in white space the format fixes) counts as:
    /// `reject` (default) or `accept`, as many judges do (see docs/tolerances.md).
    #[arg(long, value_enum, default_value_t = Presentation::Reject, value_name = "MODE")]
    pub presentation: Presentation,
    /// Wall-time limit of one program run (one file, or one case under --case-timeout), in
    /// seconds (default 60, or 3 x --cpu-limit + 1 s); the time limit shares are of it.
    #[arg(long, value_name = "SECONDS", value_parser = seconds_arg)]
    pub timeout: Option<f64>,
    /// Per-case time limit of programs, in seconds (as `run --case-timeout`).
    #[arg(long, value_name = "SECONDS", value_parser = seconds_arg)]
    pub case_timeout: Option<f64>,
    #[command(flatten)]
    pub launch: ShellArgs,
    #[command(flatten)]
    pub jobs: super::shards::JobsArgs,
    /// Write the table as CSV, one line per (test, solution) (`-` = stdout).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write the table, the tag check and the strength report as JSON (`-` = stdout).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the table, the tag check and the test-set strength (kills, selection) as
    /// Markdown (`-` = stdout).
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Write JUnit XML: a test case per (test, solution), failed when its tag does not allow
    /// the verdict (`-` = stdout).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Write the HTML report (as `run --report`: a solution is an engine, a test a case) with
    /// the invocation's own section: the verdict table, the tag check, the strength report.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// Write the selected tests (a cover of every kill, with each correct solution's slowest)
    /// as X.in/X.out files under DIR.
    #[arg(long, value_name = "DIR")]
    pub select: Option<PathBuf>,
    /// Tests the selection always keeps and never calls useless, as the samples: a pattern
    /// (`*` any characters, `?` one) matched against a test's name (`dir/x.in#2`), its file's
    /// name and that name without folders; repeat for several.
    #[arg(long, value_name = "PATTERN")]
    pub keep: Vec<String>,
    /// Width of the terminal table: solutions that do not fit go to another page (default:
    /// $COLUMNS, else 120).
    #[arg(long, value_name = "COLUMNS", value_parser = clap::value_parser!(u16).range(20..))]
    pub width: Option<u16>,
    #[command(flatten)]
    pub reading: super::ReadingArgs,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

/// Parses `NAME=TAG`.
fn parse_expect(text: &str) -> Result<(String, Tag)> {
    let (name, tag) = text
        .rsplit_once('=')
        .with_context(|| format!("--expect {text:?}: expected NAME=TAG"))?;
    let tag = tag
        .parse::<Tag>()
        .map_err(|e| anyhow::anyhow!("--expect {text}: {e}"))?;
    Ok((name.to_string(), tag))
}

/// The limits: the command line's, else the problem's, else `run`'s defaults.
fn limits(args: &InvokeArgs, problem: Option<&Problem>) -> Result<Limits> {
    let p = problem.map(|p| p.limits.clone()).unwrap_or_default();
    let mut launch = args.launch.clone();
    launch.cpu_limit = launch.cpu_limit.or(p.cpu);
    launch.memory_limit = launch.memory_limit.or(p.memory);
    if let Some(output) = p.output
        && launch.output_limit == crate::external::DEFAULT_OUTPUT_LIMIT_MB as f64
    {
        launch.output_limit = output;
    }
    let timeout = args.timeout.or(p.timeout);
    let mut limits = launch.limits(timeout, super::DEFAULT_TIMEOUT_SECS)?;
    limits.case_timeout = args
        .case_timeout
        .or(p.case_timeout)
        .map(|s| positive_seconds("--case-timeout", s))
        .transpose()?;
    Ok(limits)
}

/// The terminal's width: --width, else $COLUMNS, else the default.
fn width(args: &InvokeArgs) -> usize {
    args.width.map(usize::from).unwrap_or_else(|| {
        std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.trim().parse().ok())
            .unwrap_or(table::DEFAULT_WIDTH)
    })
}

/// The package folder the invocation names, if any: `--problem DIR` or a lone PATH that is
/// one.
fn package_root(args: &InvokeArgs) -> Option<PathBuf> {
    match (&args.problem, args.paths.as_slice()) {
        (Some(dir), []) if package::is_package(dir) => Some(dir.clone()),
        (None, [dir]) if package::is_package(dir) => Some(dir.clone()),
        _ => None,
    }
}

/// A package's submissions, built: the solutions to run, and the compile errors (name, tag,
/// message) of the others.
type BuiltSubmissions = (
    Vec<(String, String, Option<Tag>)>,
    Vec<(String, Option<Tag>, String)>,
);

fn build_submissions(
    args: &InvokeArgs,
    pkg: &Package,
    table: &languages::Languages,
) -> Result<BuiltSubmissions> {
    let cache = args
        .build_dir
        .clone()
        .unwrap_or_else(languages::default_cache);
    let (mut solutions, mut failed) = (Vec::new(), Vec::new());
    for sub in &pkg.submissions {
        let (language, sources) = languages::Sources::of(&sub.path, table)
            .with_context(|| format!("{}: no language", sub.path.display()))?;
        match languages::build(&table.0[&language], &sources, &cache)? {
            Ok(run) => {
                solutions.push((sub.name.clone(), format!("{}=cmd:{run}", sub.name), sub.tag))
            }
            Err(message) => failed.push((sub.name.clone(), sub.tag, message)),
        }
    }
    Ok((solutions, failed))
}

/// What the invocation is of: the package (if one is named) and its submissions that did not
/// build, the problem file (or the package's), the tests and the problems found beside them,
/// the game they are read as, and the solutions with their tags.
struct Setup {
    pkg: Option<Package>,
    compile_errors: Vec<(String, Option<Tag>, String)>,
    problem: Option<Problem>,
    files: Vec<crate::corpus::CaseFile>,
    problems: Vec<crate::corpus::CorpusError>,
    game: &'static dyn crate::game::Game,
    solutions: Vec<Solution>,
}

/// The package, or the problem file, and the tests.
fn setup(args: &InvokeArgs) -> Result<Setup> {
    let forced = args.game.as_deref().map(find_game).transpose()?;
    let table = languages::Languages::load(args.languages.as_deref())?;
    let pkg = package_root(args)
        .map(|root| package::read(&root, forced, registry::GAMES, &table))
        .transpose()?;
    let (built, compile_errors) = match &pkg {
        Some(pkg) => build_submissions(args, pkg, &table)?,
        None => (Vec::new(), Vec::new()),
    };
    let problem = match &pkg {
        Some(pkg) => Some(Problem {
            game: Some(pkg.game.name().to_string()),
            tests: Vec::new(),
            checker: None,
            limits: pkg.limits.clone(),
            solutions: built,
        }),
        None => args.problem.as_deref().map(Problem::read).transpose()?,
    };
    let game_name = args
        .game
        .clone()
        .or_else(|| problem.as_ref().and_then(|p| p.game.clone()));
    let game = game_name.as_deref().map(find_game).transpose()?;
    let (mut files, problems) = match &pkg {
        Some(pkg) if pkg.files.is_empty() => {
            bail!("{}: the package has no tests", pkg.root.display())
        }
        Some(pkg) => (pkg.files.clone(), Vec::new()),
        None => {
            let mut paths: Vec<PathBuf> = problem.iter().flat_map(|p| p.tests.clone()).collect();
            paths.extend(args.paths.iter().cloned());
            if paths.is_empty() {
                bail!("no tests: give PATH... or `tests` in the problem file");
            }
            invoke::find_tests(&paths, game, registry::GAMES)?
        }
    };
    // Every test is read as --zero-pair (and any other variant) says, by solutions and checker.
    let game = files[0].game;
    let reading = args.reading.for_game(game)?;
    for file in &mut files {
        file.game = game;
        file.reading = reading.clone();
    }
    let solutions = solutions(args, problem.as_ref(), game)?;
    Ok(Setup {
        pkg,
        compile_errors,
        problem,
        files,
        problems,
        game,
        solutions,
    })
}

/// The solutions (the problem's, then `-e`'s) with their tags (the problem's, then
/// `--expect`'s, which win).
fn solutions(
    args: &InvokeArgs,
    problem: Option<&Problem>,
    game: &'static dyn crate::game::Game,
) -> Result<Vec<Solution>> {
    let shell = args.launch.shell();
    let mut solutions: Vec<Solution> = Vec::new();
    for (name, spec, tag) in problem.iter().flat_map(|p| p.solutions.clone()) {
        for resolved in engines::resolve(game, std::slice::from_ref(&spec), &shell)? {
            solutions.push(Solution {
                name: name.clone(),
                spec: resolved,
                tag,
            });
        }
    }
    for spec in &args.engines {
        for resolved in engines::resolve(game, std::slice::from_ref(spec), &shell)? {
            solutions.push(Solution {
                name: resolved.name().to_string(),
                spec: resolved,
                tag: None,
            });
        }
    }
    let tags = expectations(&args.expect)?;
    invoke::apply_tags(&mut solutions, &tags)?;
    invoke::check_solutions(&solutions)?;
    Ok(solutions)
}

/// The `--expect NAME=TAG` options; one solution given two different tags is an error naming
/// both (the same tag twice is one).
fn expectations(expect: &[String]) -> Result<Vec<(String, Tag)>> {
    let mut tags: Vec<(String, Tag)> = Vec::new();
    for text in expect {
        let (name, tag) = parse_expect(text)?;
        match tags.iter().find(|(n, _)| *n == name) {
            Some((_, other)) if *other != tag => bail!(
                "--expect {name}={other} and --expect {name}={tag}: solution {name} is given two \
                 tags; give it one"
            ),
            Some(_) => {}
            None => tags.push((name, tag)),
        }
    }
    Ok(tags)
}

/// The output files given (option, path), refused when they would overwrite a test, each
/// other or a directory; `--select` must be a folder.
fn output_files<'a>(
    args: &'a InvokeArgs,
    files: &[crate::corpus::CaseFile],
) -> Result<Vec<(&'static str, &'a Path)>> {
    let given: Vec<(&str, &Path)> = [
        ("--csv", &args.csv),
        ("--json", &args.json),
        ("--markdown", &args.markdown),
        ("--junit", &args.junit),
        ("--report", &args.report),
    ]
    .into_iter()
    .filter_map(|(option, path)| path.as_deref().map(|p| (option, p)))
    .collect();
    outputs::check(&given, None, files, &EngineTable::default())?;
    if let Some(dir) = &args.select
        && dir.exists()
        && !dir.is_dir()
    {
        bail!("--select {}: not a directory", dir.display());
    }
    Ok(given)
}

pub fn invoke(args: InvokeArgs) -> Result<Exit> {
    let signals = catch_signals()?;
    let setup = setup(&args)?;
    for problem in &setup.problems {
        eprintln!("gamebench: {problem}");
    }
    let outputs_given = output_files(&args, &setup.files)?;
    let mut config = Config {
        limits: limits(&args, setup.problem.as_ref())?,
        budget: args.budget.budget()?,
        checker: args
            .checker
            .or(setup.problem.as_ref().and_then(|p| p.checker))
            .unwrap_or_default(),
        threads: Some(args.jobs.threads()),
        presentation: args.presentation,
        keep: args.keep.clone(),
    };
    // Said before any solution runs: otherwise every case of such a file is an error.
    for line in invoke::outputs_of_another_reading(&setup.files) {
        eprintln!("gamebench: warning: {line}");
    }
    // A package that states no time limit is judged under the one its multipliers give.
    let inferred = match &setup.pkg {
        Some(pkg) => package::inferred::infer(pkg, &setup.files, &setup.solutions, &config)?,
        None => None,
    };
    if let Some(inferred) = &inferred {
        config.limits = inferred.limits(&config.limits, args.timeout.is_some());
    }
    let inv = invoke::invoke(setup.files, setup.solutions, &config)?;
    if signals.stop.load(Ordering::Relaxed) {
        eprintln!("gamebench: interrupted: no table (some solutions were stopped)");
        return Ok(if signals.terminated.load(Ordering::Relaxed) {
            Exit::Terminated
        } else {
            Exit::Interrupted
        });
    }
    let report = tags::check(&inv);
    let strength = strength::strength(&inv);
    let stdout_taken = outputs_given.iter().any(|(_, p)| is_stdout(p));
    let colour = !stdout_taken
        && std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let mut text = table_text(&inv, &report, &strength, width(&args), colour);
    if let Some(dir) = &args.select {
        text.push_str(&write_selection(&inv, &strength.cover, dir, setup.game)?);
    }
    let package_failures = match &setup.pkg {
        Some(pkg) => package_text(pkg, &setup.compile_errors, (setup.game, &args), &mut text)?,
        None => 0,
    };
    if args.time_limit_advice {
        eprintln!("gamebench: time-limit advice: measuring ...");
    }
    let runs = args.time_limit_advice.then_some(args.advice_runs);
    text.push_str(&advice::report(
        &inv,
        setup.pkg.as_ref(),
        &config,
        runs,
        inferred.as_ref().map(package::inferred::Inferred::line),
    ));
    if stdout_taken {
        eprint!("{text}");
    } else {
        print!("{text}");
    }
    write_files(&args, &inv, &report, &strength)?;
    Ok(exit(&inv, &setup.problems, &report, package_failures))
}

/// The table, its notes, the strength report, the tag warnings and contradictions.
fn table_text(
    inv: &invoke::Invocation,
    report: &invoke::TagReport,
    strength: &strength::Strength,
    width: usize,
    colour: bool,
) -> String {
    let mut text = table::terminal(inv, width, colour);
    text.push_str(&table::notes(inv));
    text.push('\n');
    text.push_str(&table::strength_text(inv, strength));
    for warning in &report.warnings {
        text.push_str(warning);
        text.push('\n');
    }
    for contradiction in &report.contradictions {
        text.push_str(&format!("tag contradicted: {contradiction}\n"));
    }
    text
}

/// The exit code: 2 when a test could not be judged or a path was not a test, 1 when a tag is
/// contradicted or the package failed, else 0.
fn exit(
    inv: &invoke::Invocation,
    problems: &[crate::corpus::CorpusError],
    report: &invoke::TagReport,
    package_failures: usize,
) -> Exit {
    if inv.has_errors() || !problems.is_empty() {
        if inv.has_errors() {
            eprintln!("gamebench: some tests could not be judged (FAIL in the table)");
        }
        Exit::Error
    } else if report.contradictions.is_empty() && package_failures == 0 {
        Exit::Ok
    } else {
        Exit::Failures
    }
}
