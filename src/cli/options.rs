//! The option groups and value parsers that several commands share, each declared once: the
//! game name ([`GameName`]), durations ([`seconds_arg`]), the shell and limits of programs
//! ([`ShellArgs`]), the search budget ([`BudgetArgs`]), problem lines and sizes.

use std::time::Duration;

use anyhow::{Context, Result, bail};

use crate::game::Budget;
use crate::registry;

/// The value parser of a game name: any text (an unknown name is reported by [`find_game`],
/// with a suggestion), with the registry's games as the possible values that shells complete
/// and `--help` lists.
#[derive(Clone, Copy, Debug)]
pub struct GameName;

impl clap::builder::TypedValueParser for GameName {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            registry::names()
                .into_iter()
                .map(clap::builder::PossibleValue::new),
        ))
    }
}

/// The value parser of an engine (`-e`): any text (`cmd:COMMAND`, `NAME=cmd:COMMAND` and
/// unknown names are the engine resolver's to judge, with a suggestion), with `all` and every
/// game's engine names as the possible values that shells complete (hidden from `--help`,
/// which says what `-e` takes).
#[derive(Clone, Copy, Debug)]
pub struct EngineName;

impl clap::builder::TypedValueParser for EngineName {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        let mut names: Vec<&'static str> = registry::GAMES
            .iter()
            .flat_map(|g| g.engine_names())
            .collect();
        names.sort_unstable();
        names.dedup();
        Some(Box::new(
            std::iter::once("all")
                .chain(names)
                .map(clap::builder::PossibleValue::new),
        ))
    }
}

/// The value parser of every option given in seconds: a positive number small enough to be a
/// `Duration` (`1e300` is a usage error, exit 2, not a panic).
pub fn seconds_arg(text: &str) -> Result<f64, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err(format!("must be a positive number of seconds, not {text}"));
    }
    Duration::try_from_secs_f64(seconds)
        .map_err(|_| format!("{text} seconds is too long a duration"))?;
    Ok(seconds)
}

/// A duration option given in seconds.
pub fn positive_seconds(option: &str, seconds: f64) -> Result<Duration> {
    if !(seconds.is_finite() && seconds > 0.0) {
        bail!("{option} must be a positive number of seconds, not {seconds}");
    }
    Duration::try_from_secs_f64(seconds)
        .with_context(|| format!("{option}: {seconds} seconds is too long a duration"))
}

/// How external programs are started and limited (`--shell`, `-N`, `--cpu-limit`,
/// `--memory-limit`, `--output-limit`, `--pin`): the options of every command that runs them
/// (`run`, `sweep`, `stress`, `hunt`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ShellArgs {
    /// CPU-time limit of one external program run (user + system time of the program and
    /// everything it started), in seconds; a program over it is `timeout` (verdict `cpu`).
    /// Sets --timeout's default to 3 x the limit + 1 s.
    #[arg(long, value_name = "SECONDS", value_parser = seconds_arg)]
    pub cpu_limit: Option<f64>,
    /// Peak memory limit of one external program run, in MB (MiB); a program over it is
    /// killed and gets status `memory-limit`.
    #[arg(long, value_name = "MB", value_parser = megabytes_arg)]
    pub memory_limit: Option<f64>,
    /// Output limit of one external program run, in MB (MiB): past it the program is killed
    /// and gets status `output-limit`.
    #[arg(long, value_name = "MB", default_value_t = crate::external::DEFAULT_OUTPUT_LIMIT_MB as f64, value_parser = megabytes_arg)]
    pub output_limit: f64,
    /// Run each external program on a core of its own (one program per core).
    #[arg(long)]
    pub pin: bool,
    /// How external programs are started: `sh` (default: `sh -c COMMAND`), another shell, or
    /// `none` (the command split into words and run directly, without a shell's start-up).
    #[arg(long, value_name = "SHELL")]
    pub shell: Option<crate::external::Shell>,
    /// Same as `--shell none`.
    #[arg(short = 'N', conflicts_with = "shell")]
    pub no_shell: bool,
}

/// How many problem lines `run` prints (`--problems`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemLines {
    All,
    First(usize),
}

/// Problem lines shown by default (`--problems`).
pub const DEFAULT_PROBLEM_LINES: usize = 20;

/// Parses `--problems`: `all`, `none` or a number.
pub fn problems_arg(text: &str) -> Result<ProblemLines, String> {
    match text.trim() {
        "all" => Ok(ProblemLines::All),
        "none" => Ok(ProblemLines::First(0)),
        n => n
            .parse()
            .map(ProblemLines::First)
            .map_err(|_| format!("expected all, none or a number of lines, not {text:?}")),
    }
}

/// Parses a positive number of megabytes.
pub fn megabytes_arg(text: &str) -> Result<f64, String> {
    let mb: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number of megabytes"))?;
    if !(mb.is_finite() && mb > 0.0 && mb < 1e9) {
        return Err(format!(
            "must be a positive number of megabytes, not {text}"
        ));
    }
    Ok(mb)
}

/// --timeout's default without --cpu-limit, seconds.
pub const DEFAULT_TIMEOUT_SECS: f64 = 60.0;

impl ShellArgs {
    /// The wall-time limit: `timeout` if given, else 3 x --cpu-limit + 1 s, else `default`.
    pub fn wall(&self, timeout: Option<f64>, default: f64) -> Result<Duration> {
        let seconds = timeout
            .or(self.cpu_limit.map(|c| 3.0 * c + 1.0))
            .unwrap_or(default);
        positive_seconds("--timeout", seconds)
    }

    /// The limits of one program run these options (and `--timeout`) ask for.
    pub fn limits(&self, timeout: Option<f64>, default: f64) -> Result<crate::engines::Limits> {
        Ok(crate::engines::Limits {
            timeout: self.wall(timeout, default)?,
            case_timeout: None,
            cpu: self
                .cpu_limit
                .map(|c| positive_seconds("--cpu-limit", c))
                .transpose()?,
            memory_kb: self.memory_limit.map(|mb| (mb * 1024.0).ceil() as u64),
            output_bytes: Some((self.output_limit * 1048576.0).ceil() as u64),
            pin: self.pin,
        })
    }

    /// The external generator `--generator CMD` names (none without the option), run
    /// through these options' shell with the wall limit of `limits`.
    pub fn generator(
        &self,
        text: Option<&str>,
        limits: &crate::engines::Limits,
    ) -> Result<Option<crate::engines::gencmd::ExternalGenerator>> {
        text.map(|text| {
            crate::engines::gencmd::ExternalGenerator::parse(text, self.shell(), limits.timeout)
        })
        .transpose()
        .map_err(Into::into)
    }

    /// The shell these options ask for.
    pub fn shell(&self) -> crate::external::Shell {
        if self.no_shell {
            crate::external::Shell::None
        } else {
            self.shell.clone().unwrap_or_default()
        }
    }
}

/// The command-line options that set a [`Budget`] (`solve`, `run`, `gen`, `check`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct BudgetArgs {
    /// Stop a search after expanding N states (Vexed); the case gets status `budget`.
    #[arg(long, value_name = "N")]
    pub max_states: Option<u64>,
    /// Stop a search after SECONDS of wall time per case (Vexed); the case gets status `budget`.
    #[arg(long, value_name = "SECONDS", value_parser = seconds_arg)]
    pub time_limit: Option<f64>,
    /// Memory one search may hold, in MB (Vexed; default: 384 MB for A*, then iterative
    /// deepening with a table of 2M boards). Per search: commands with `-j N` run N at once.
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..))]
    pub memory: Option<u64>,
    /// Threads one search may use (Vexed: past a few hundred thousand states, nodes are
    /// expanded in parallel batches; the answer is the same for every N). Separate from `-j`,
    /// which solves several cases at once: up to `-j` times N threads run.
    #[arg(long = "threads", value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..1024))]
    pub search_threads: u64,
    /// Look for solutions of at most K moves only (Vexed's proof mode): a minimum solution when
    /// one has at most K moves, else the proof that none has (status `budget`, `at_least` K+1
    /// or more). Children beyond K are never stored, so the search fits in less memory.
    #[arg(long, value_name = "K")]
    pub max_moves: Option<u64>,
    /// Proof mode beyond memory (Vexed, with a cap of moves): the search sweeps the boards in
    /// an order that lets it keep its pending boards in files in a folder of its own inside
    /// DIR (removed at the end), `--memory` bounding what it holds in RAM.
    #[arg(long, value_name = "DIR")]
    pub scratch: Option<std::path::PathBuf>,
}

impl BudgetArgs {
    /// The per-case budget these options ask for.
    pub fn budget(&self) -> anyhow::Result<Budget> {
        self.budget_capped(self.max_moves.is_some())
    }

    /// [`BudgetArgs::budget`] for a command that may set a cap of moves of its own (`capped`:
    /// it does, or `--max-moves` does): `--scratch` needs one, and a folder it can write in.
    pub fn budget_capped(&self, capped: bool) -> anyhow::Result<Budget> {
        let budget = Budget::from_figures(
            self.max_states,
            self.time_limit,
            self.memory,
            self.search_threads,
        )?;
        let scratch = match &self.scratch {
            Some(_) if !capped => anyhow::bail!(
                "--scratch is for proof mode only: give a cap of moves (--max-moves K, or \
                 levels' --prove-below-par)"
            ),
            Some(dir) => Some(scratch_folder(dir)?),
            None => None,
        };
        Ok(Budget {
            max_moves: self.max_moves,
            scratch,
            ..budget
        })
    }
}

/// `--scratch DIR`, checked now (a folder this process can make a folder in) rather than when
/// the first search starts.
fn scratch_folder(dir: &std::path::Path) -> anyhow::Result<crate::game::Scratch> {
    use anyhow::Context;
    let meta = std::fs::metadata(dir)
        .with_context(|| format!("--scratch {}: cannot use it", dir.display()))?;
    if !meta.is_dir() {
        anyhow::bail!("--scratch {}: not a folder", dir.display());
    }
    let probe = dir.join(format!(".gamebench-probe-{}", std::process::id()));
    std::fs::create_dir(&probe)
        .with_context(|| format!("--scratch {}: cannot write in it", dir.display()))?;
    std::fs::remove_dir(&probe).with_context(|| {
        format!(
            "--scratch {}: cannot clean up {}",
            dir.display(),
            probe.display()
        )
    })?;
    Ok(crate::game::Scratch::new(dir.to_path_buf()))
}
