//! The `gamebench` command line: judge mode (`solve`), corpus generation (`gen`), bulk runs
//! with CSV timings (`run`), output checking (`check`), merging shards (`merge`) and the list of
//! games (`list`).
//!
//! This is the only place that uses anyhow: the library reports typed errors, and here they
//! become messages and exit codes (0 ok, 1 mismatch/unsolved/budget, 2 error).

use std::io::{Read, Write};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};

use gamebench::corpus;
use gamebench::export;
use gamebench::game::{Budget, Game, Verdict};
use gamebench::generate;
use gamebench::registry;
use gamebench::results::{self, Status};
use gamebench::runner::{self, Config};

/// The system allocator for the short single-threaded commands, mimalloc for the batches
/// (see `allocator`).
#[global_allocator]
static ALLOCATOR: allocator::Allocator = allocator::Allocator;

mod allocator;

mod shard_cli; // shards (issue 6)

/// Simulate, solve and benchmark four contest games in bulk: Link and Pop, SameGame, Vexed and
/// Yut Nori.
#[derive(Parser)]
#[command(name = "gamebench", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Judge mode: read a judge input (FILE or stdin), write the judge output to stdout.
    Solve(SolveArgs),
    /// Solve every case under PATH... in parallel; write outputs, CSV rows and a summary.
    Run(RunArgs),
    /// Generate a seeded corpus of judge input files (and their expected outputs).
    Gen(generate::GenArgs),
    /// Check an output file against an input (and an expected output, or the reference engine).
    Check(CheckArgs),
    /// List the games, their engines and generator profiles.
    List,
    /// Merge the shards of a `run --shard` (checking that none is missing) into one CSV.
    Merge(shard_cli::MergeArgs),
}

#[derive(Args, Clone)]
struct BudgetArgs {
    /// Stop a search after expanding N states (Vexed); the case gets status `budget`.
    #[arg(long, value_name = "N")]
    max_states: Option<u64>,
    /// Stop a search after SECONDS of wall time per case (Vexed); the case gets status `budget`.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
}

impl BudgetArgs {
    fn budget(&self) -> Result<Budget> {
        let time_limit = match self.time_limit {
            Some(s) if !(s.is_finite() && s > 0.0) => {
                bail!("--time-limit must be a positive number of seconds")
            }
            Some(s) => Some(Duration::from_secs_f64(s)),
            None => None,
        };
        Ok(Budget {
            max_states: self.max_states,
            time_limit,
        })
    }
}

/// A duration option given in seconds.
fn positive_seconds(option: &str, seconds: f64) -> Result<Duration> {
    if !(seconds.is_finite() && seconds > 0.0) {
        bail!("{option} must be a positive number of seconds, not {seconds}");
    }
    Ok(Duration::from_secs_f64(seconds))
}

#[derive(Args)]
struct SolveArgs {
    /// The game: linkpop, samegame, vexed or yut.
    game: String,
    /// Engine to use (default: the game's fastest). See `gamebench list`.
    #[arg(long, short)]
    engine: Option<String>,
    /// Judge input file (default: stdin).
    file: Option<PathBuf>,
    #[command(flatten)]
    budget: BudgetArgs,
}

#[derive(Args)]
struct RunArgs {
    /// Input files or folders (searched recursively for *.in).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The game of every file (default: the nearest enclosing folder named after a game).
    #[arg(long, short)]
    game: Option<String>,
    /// Engine to run; repeat for several; `all` = every internal engine; `cmd:COMMAND` or
    /// `NAME=cmd:COMMAND` = an external program run once per file, stdin to stdout (default:
    /// the game's fastest).
    #[arg(long = "engine", short = 'e', value_name = "NAME")]
    engines: Vec<String>,
    /// Time limit of one external program run (one file), in seconds.
    #[arg(long, default_value_t = 60.0, value_name = "SECONDS")]
    timeout: f64,
    /// Worker threads (default: all cores).
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,
    /// Write one row per case, engine and run to this CSV file (`-` = stdout).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Write each input's output (X.out) under DIR, mirroring the input tree.
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
    /// Compare every case's output with the expected X.out beside X.in.
    #[arg(long)]
    check: bool,
    /// No progress bar and no problem lines on stderr (the summary is still printed).
    #[arg(long, short)]
    quiet: bool,
    /// Untimed runs of each case before the timed ones.
    #[arg(long, default_value_t = 0, value_name = "N")]
    warmup: u32,
    /// Timed runs of each case (the CSV keeps every run; the summary uses the median).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Engine the others are compared with and timed against.
    #[arg(long, default_value = "reference", value_name = "NAME")]
    baseline: String,
    /// Show the N slowest cases of each engine (file and case) after the summary.
    #[arg(long, value_name = "N")]
    top: Option<usize>,
    /// Export the summary (and the slowest cases) as JSON (`-` = stdout).
    #[arg(long, value_name = "FILE")]
    export_json: Option<PathBuf>,
    /// Export the summary as a Markdown table (`-` = stdout).
    #[arg(long, value_name = "FILE")]
    export_markdown: Option<PathBuf>,
    /// Draw per-engine box plots of the case times (log scale) to an SVG file.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    shards: shard_cli::RunShardArgs,
}

#[derive(Args)]
struct CheckArgs {
    /// The game: linkpop, samegame, vexed or yut.
    game: String,
    /// The judge input.
    input: PathBuf,
    /// The output to check.
    output: PathBuf,
    /// The expected output (default: what `--engine` prints for INPUT).
    #[arg(long)]
    expected: Option<PathBuf>,
    /// Engine that computes the expected output when no --expected is given.
    #[arg(long, short, default_value = "reference")]
    engine: String,
    #[command(flatten)]
    budget: BudgetArgs,
}

fn main() {
    let cli = Cli::parse();
    if matches!(cli.command, Command::Run(_) | Command::Gen(_)) {
        allocator::use_batch_allocator();
    }
    let result = match cli.command {
        Command::Solve(args) => solve(args),
        Command::Run(args) => run(args),
        Command::Gen(args) => gen_corpus(args),
        Command::Check(args) => check(args),
        Command::List => list(),
        Command::Merge(args) => shard_cli::merge(args),
    };
    let code = match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("gamebench: {e:#}");
            2
        }
    };
    exit_now(code)
}

/// Ends the process with `code` once stdout is flushed, without the exit handlers.
///
/// Every command has finished when it returns: its files are written and closed, its threads
/// idle. What the exit handlers would still do is the allocator's teardown: mimalloc's handler
/// collects every page it holds and hands them back to the kernel (`madvise`), which the
/// kernel does anyway when the process ends. Measured when `solve` still used mimalloc (paired
/// runs on the mixed Vexed set, about 9.3 ms): 0.15 ms saved; `run` and `gen` still use it
/// (see `allocator`). A failed flush of stdout (a closed pipe, a full disk) is an error, exit
/// code 2, where the runtime would have ignored it.
fn exit_now(code: u8) -> ! {
    let code = match std::io::stdout().flush() {
        Ok(()) => code,
        Err(e) => {
            eprintln!("gamebench: writing the output: {e}");
            2
        }
    };
    // SAFETY: `_exit` only ends the process: no exit handler or destructor runs, so no Rust
    // invariant can be observed broken afterwards. stdout is flushed above and stderr is not
    // buffered.
    unsafe { libc::_exit(i32::from(code)) }
}

fn find_game(name: &str) -> Result<&'static dyn Game> {
    registry::find(name).with_context(|| {
        format!(
            "unknown game {name:?} (games: {})",
            registry::names().join(", ")
        )
    })
}

fn find_engine(game: &dyn Game, engine: Option<&str>) -> Result<&'static str> {
    let requested: Vec<String> = engine.map(str::to_string).into_iter().collect();
    let engines = runner::resolve_engines(game, &requested)?;
    match engines[..] {
        [runner::EngineSpec::Internal(one)] => Ok(one),
        _ => bail!(
            "name one of the game's own engines here, not {:?}",
            engine.unwrap_or_default()
        ),
    }
}

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

fn status_of(verdict: Verdict) -> Status {
    match verdict {
        Verdict::Solved => Status::Ok,
        Verdict::Unsolved => Status::Unsolved,
        Verdict::Budget => Status::Budget,
    }
}

fn solve(args: SolveArgs) -> Result<u8> {
    let game = find_game(&args.game)?;
    let engine = find_engine(game, args.engine.as_deref())?;
    let budget = args.budget.budget()?;
    let (input, name) = read_input(args.file.as_ref())?;
    let mut blocks = Vec::new();
    let mut statuses = Vec::new();
    for (i, parsed) in game.parse(&input).into_iter().enumerate() {
        let index = i + 1;
        let solved = parsed.case.and_then(|case| {
            game.solve(engine, index, case.as_ref(), &budget)
                .expect("engine was resolved for this game")
        });
        match solved {
            Ok(solved) => {
                statuses.push(status_of(solved.verdict));
                blocks.push(solved.output);
            }
            Err(e) => {
                eprintln!("{name}: case {index}: {e}");
                statuses.push(Status::Error);
            }
        }
    }
    let blocks: Vec<&str> = blocks.iter().map(String::as_str).collect();
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(game.join(&blocks).as_bytes())?;
    stdout.flush()?;
    Ok(runner::exit_code(statuses) as u8)
}

fn run(args: RunArgs) -> Result<u8> {
    let game = args.game.as_deref().map(find_game).transpose()?;
    let files = corpus::discover(&args.paths, game)?;
    let config = Config {
        engines: args.engines.clone(),
        budget: args.budget.budget()?,
        check: args.check,
        threads: shard_cli::default_jobs(args.jobs),
        progress: !args.quiet,
        warmup: args.warmup,
        runs: args.runs,
        baseline: args.baseline.clone(),
        timeout: positive_seconds("--timeout", args.timeout)?,
        keep_outputs: args.out_dir.is_some(),
        select: None, // shards (issue 6): set by shard_cli::Plan::run
    };
    // shards (issue 6): a shard or --resume writes its own CSV, journaled.
    let plan = shard_cli::run_plan(&args.shards, args.csv.as_deref(), args.out_dir.is_some())?;
    // Open every output before the long run, so a bad path fails at once.
    let to_stdout = |p: &PathBuf| p.as_os_str() == "-";
    let csv_out = plan
        .is_none()
        .then(|| args.csv.as_ref().map(open_output))
        .flatten()
        .transpose()?;
    let json_out = args.export_json.as_ref().map(open_output).transpose()?;
    let markdown_out = args.export_markdown.as_ref().map(open_output).transpose()?;
    if let Some(plot) = &args.plot {
        std::fs::File::create(plot).with_context(|| format!("cannot create {}", plot.display()))?;
    }
    let report = match &plan {
        Some(plan) => plan.run(&files, &config)?,
        None => runner::run(&files, &config)?,
    };
    if !args.quiet {
        for problem in &report.problems {
            eprintln!("{problem}");
        }
    }
    if let Some(dir) = &args.out_dir {
        runner::write_outputs(dir, &files, &report)
            .with_context(|| format!("cannot write outputs under {}", dir.display()))?;
    }
    if let Some(out) = csv_out {
        results::write_csv(out, &report.rows).context("cannot write the CSV")?;
    }
    let summary = results::summarize(&report.rows, &args.baseline);
    let slowest = results::slowest(&report.rows, args.top.unwrap_or(0));
    if let Some(mut out) = json_out {
        out.write_all(export::json(&summary, &slowest).as_bytes())
            .context("cannot write the JSON export")?;
        out.flush()?;
    }
    if let Some(mut out) = markdown_out {
        out.write_all(export::markdown(&summary).as_bytes())
            .context("cannot write the Markdown export")?;
        out.flush()?;
    }
    if let Some(plot) = &args.plot {
        export::plot_svg(&report.rows, plot)
            .map_err(|e| anyhow::anyhow!("cannot draw {}: {e}", plot.display()))?;
    }
    let mut text = results::summary_table(&summary);
    text.push_str(&export::slowest_text(&slowest));
    // stdout belongs to an export written there; the summary then goes to stderr.
    let stdout_taken = [&args.csv, &args.export_json, &args.export_markdown]
        .iter()
        .any(|p| p.as_ref().is_some_and(to_stdout));
    if stdout_taken {
        eprint!("{text}");
    } else {
        print!("{text}");
    }
    Ok(shard_cli::exit_code(plan.as_ref(), &report))
}

/// Opens an output file (`-` = stdout) for writing.
fn open_output(path: &PathBuf) -> Result<Box<dyn Write>> {
    if path.as_os_str() == "-" {
        return Ok(Box::new(std::io::stdout()));
    }
    let file =
        std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    Ok(Box::new(std::io::BufWriter::new(file)))
}

fn gen_corpus(args: generate::GenArgs) -> Result<u8> {
    eprintln!("{}", generate::run(&args)?);
    Ok(0)
}

fn check(args: CheckArgs) -> Result<u8> {
    let game = find_game(&args.game)?;
    let budget = args.budget.budget()?;
    let engine = find_engine(game, Some(&args.engine))?;
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
            .map(|(i, p)| {
                let case = p.case.as_ref().ok()?;
                game.solve(engine, i + 1, case.as_ref(), &budget)?
                    .ok()
                    .map(|s| s.output)
            })
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
        2
    } else if failed > 0 {
        1
    } else {
        0
    })
}

fn list() -> Result<u8> {
    for game in registry::GAMES {
        println!("{}  {}", game.name(), game.title());
        for (name, about) in game.engine_about() {
            let default = if name == game.default_engine() {
                " (default)"
            } else {
                ""
            };
            println!("  engine  {name}{default}: {about}");
        }
        for profile in game.generator().profiles() {
            println!("  profile {}: {}", profile.name, profile.about);
        }
    }
    Ok(0)
}
