//! External engines: any program that reads a judge input on stdin and writes the judge output
//! on stdout, named on the command line as `cmd:COMMAND` or `NAME=cmd:COMMAND`.
//!
//! The program runs once per input file, through `sh -c` (or another shell, or none: the
//! command split into words and run directly, without the shell's start-up cost), under a
//! judge's limits ([`RunLimits`]): wall time, CPU time (`RLIMIT_CPU` and the measured figure),
//! peak resident memory (polled by the launcher, and the measured peak), output size.
//!
//! Nothing is left running and nothing is waited for: the program runs under a launcher
//! ([`launcher`]: gamebench re-executed, a child subreaper) that kills the program's process
//! group and every process it started, even one that left the group (`setsid`), as soon as the
//! program's main process ends or gamebench asks; its pipes are read for at most
//! [`process::PIPE_GRACE`] after that. The [`stop_flag`] (SIGINT, SIGTERM) kills running
//! programs at once.
//!
//! How memory is measured: the peak resident set size (`ru_maxrss` from `getrusage` of the
//! launcher's reaped children: the largest of the program's processes). Linux gives a forked
//! child the high-water mark of the process it was forked from, so a program forked from
//! gamebench would look as large as gamebench; the launcher is a fresh small process whose
//! child resets its high-water mark (`/proc/self/clear_refs`, `5`) before the exec, so the
//! figure is the program's own within a few hundred KB.
//!
//! Before a run, [`check_startable`] looks the program up (a missing one fails at once, not
//! file by file), and [`calibrate`] times an empty run of the same shape (the shell, or a
//! trivial program), the start-up cost included in every file's time.

pub mod launcher;
mod output;
mod pin;
pub mod process;

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

pub use launcher::{LAUNCH_ARG, launcher_main};
pub use pin::allowed_cpus;
pub use process::{PIPE_GRACE, use_launcher};

/// The prefix that marks an external engine on the command line.
pub const PREFIX: &str = "cmd:";

/// How an external command is started.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Shell {
    /// Split into words (quotes and backslashes as in sh) and run directly.
    None,
    /// `SHELL -c COMMAND`.
    Program(String),
}

/// The shell used unless `--shell` says otherwise.
pub const DEFAULT_SHELL: &str = "sh";

impl Default for Shell {
    fn default() -> Self {
        Shell::Program(DEFAULT_SHELL.to_string())
    }
}

impl std::str::FromStr for Shell {
    type Err = String;
    fn from_str(s: &str) -> Result<Shell, String> {
        match s {
            "" => Err("an empty shell name (use `none` to run without a shell)".to_string()),
            "none" => Ok(Shell::None),
            other => Ok(Shell::Program(other.to_string())),
        }
    }
}

/// A program used as an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct External {
    /// The label in reports: `NAME` if given, else `cmd:COMMAND`.
    pub name: String,
    pub command: String,
    pub shell: Shell,
}

impl External {
    /// Reads `cmd:COMMAND` or `NAME=cmd:COMMAND`; `None` when `text` names an internal engine.
    /// The program runs through the default shell ([`External::with_shell`] changes it).
    pub fn parse(text: &str) -> Option<External> {
        let at = text.find(PREFIX)?;
        let (label, command) = (&text[..at], &text[at + PREFIX.len()..]);
        let name = match label {
            "" => format!("{PREFIX}{command}"),
            l => l.strip_suffix('=')?.to_string(),
        };
        (!name.is_empty() && !command.trim().is_empty()).then(|| External {
            name,
            command: command.to_string(),
            shell: Shell::default(),
        })
    }

    pub fn with_shell(mut self, shell: Shell) -> External {
        self.shell = shell;
        self
    }

    /// The argument vector that starts the program.
    pub fn argv(&self) -> Result<Vec<String>, ExternalError> {
        match &self.shell {
            Shell::Program(sh) => Ok(vec![sh.clone(), "-c".into(), self.command.clone()]),
            Shell::None => {
                let words = split_words(&self.command).ok_or_else(|| ExternalError::Spawn {
                    command: self.command.clone(),
                    message: "unbalanced quotes (with --shell none the command is split into words as sh would)".into(),
                })?;
                if words.is_empty() {
                    return Err(ExternalError::Spawn {
                        command: self.command.clone(),
                        message: "an empty command".into(),
                    });
                }
                Ok(words)
            }
        }
    }
}

/// Splits a command line into words as sh would for a simple command: blanks separate words,
/// single quotes keep everything, double quotes keep everything but `\"` and `\\`, a backslash
/// outside quotes keeps the next character. `None` for an unterminated quote. No expansion.
pub fn split_words(text: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => w.push(c),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            c @ ('"' | '\\' | '$' | '`') => w.push(c),
                            c => {
                                w.push('\\');
                                w.push(c);
                            }
                        },
                        c => w.push(c),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).push(chars.next()?),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Some(words)
}

/// What one run of the program used: CPU time from `wait4` and `getrusage` (the program and
/// every process it started that was reaped), and its peak resident memory.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    pub user_ns: u64,
    pub sys_ns: u64,
    /// Peak resident set size, KiB: the largest of the program's processes (see the module
    /// docs, "How memory is measured").
    pub memory_kb: Option<u64>,
}

impl Usage {
    /// User and system CPU time together.
    pub fn cpu(&self) -> Duration {
        Duration::from_nanos(self.user_ns.saturating_add(self.sys_ns))
    }
}

/// The output limit unless one is given: a runaway writer is stopped long before it can take
/// gamebench's memory.
pub const DEFAULT_OUTPUT_LIMIT_MB: u64 = 256;

/// [`RunLimits::data_backstop_bytes`]: how many times the memory limit a program started
/// without the launcher may hold in writable memory.
pub const DATA_BACKSTOP_FACTOR: u64 = 16;
/// [`RunLimits::data_backstop_bytes`]: the least margin above the memory limit, MiB.
pub const DATA_BACKSTOP_MIN_MB: u64 = 4096;

/// What one run of a program may use (a judge's limits).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunLimits {
    /// Wall time: the program is killed at this time after its start.
    pub wall: Duration,
    /// CPU time (user + system) of the program and everything it started: `RLIMIT_CPU` in the
    /// program (whole seconds, rounded up) and the measured figure checked after the run.
    pub cpu: Option<Duration>,
    /// Peak resident memory, KiB: polled while the program runs (killed above it), checked on
    /// the measured peak after the run. No address-space limit: reserved but untouched memory
    /// (a JVM's heap and stacks, Go's arenas, one big `malloc`) is not resident, as judges
    /// that limit resident memory (cgroups) see it.
    pub memory_kb: Option<u64>,
    /// Bytes of standard output: past it gamebench stops reading and kills the program.
    pub output_bytes: Option<u64>,
    /// Run the program on a core of its own (`sched_setaffinity`), one program per core.
    pub pin: bool,
}

impl RunLimits {
    /// A wall-time limit alone, with the default output limit.
    pub fn wall(wall: Duration) -> RunLimits {
        RunLimits {
            wall,
            cpu: None,
            memory_kb: None,
            output_bytes: Some(DEFAULT_OUTPUT_LIMIT_MB << 20),
            pin: false,
        }
    }

    /// The writable-memory backstop (`RLIMIT_DATA`) of a program started without the launcher
    /// (the library's unit tests: nothing polls its resident size there), far above the
    /// limit: [`DATA_BACKSTOP_FACTOR`] times it, and at least [`DATA_BACKSTOP_MIN_MB`] above
    /// it. Programs started through the launcher get none: the launcher's poll stops a runaway
    /// one, and a backstop would fail a JVM's or Go runtime's bulk reservations at start-up.
    pub fn data_backstop_bytes(&self) -> Option<u64> {
        self.memory_kb.map(|kb| {
            kb.saturating_mul(DATA_BACKSTOP_FACTOR)
                .max(kb.saturating_add(DATA_BACKSTOP_MIN_MB << 10))
                .saturating_mul(1024)
        })
    }
}

/// Which time limit a run passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeLimit {
    /// CPU time (`--cpu-limit`).
    Cpu,
    /// Wall time (`--timeout`).
    Wall,
}

impl TimeLimit {
    pub fn as_str(self) -> &'static str {
        match self {
            TimeLimit::Cpu => "cpu",
            TimeLimit::Wall => "wall",
        }
    }
}

impl std::fmt::Display for TimeLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What one run of the program gave.
#[derive(Debug)]
pub struct Ran {
    pub stdout: Vec<u8>,
    pub elapsed: Duration,
    pub usage: Usage,
}

/// Why a run failed.
#[derive(Debug, Clone, thiserror::Error, PartialEq)]
pub enum ExternalError {
    #[error("cannot start `{command}`: {message}")]
    Spawn { command: String, message: String },
    #[error(
        "`{command}` timed out: passed its {limit} time limit of {seconds:.1} s and was killed"
    )]
    Timeout {
        command: String,
        limit: TimeLimit,
        seconds: f64,
        usage: Usage,
    },
    /// Said as `exited with code 3`, `killed by signal 11 (SIGSEGV)` ([`describe_exit`]).
    #[error("`{command}` {}{stderr}", describe_exit(*code, *signal))]
    Failed {
        command: String,
        /// The exit code, when the program exited (not killed by a signal).
        code: Option<i32>,
        /// The signal that killed it.
        signal: Option<i32>,
        stderr: String,
        usage: Usage,
    },
    #[error("`{command}` used {} KiB, over its memory limit of {limit_kb} KiB", usage.memory_kb.map_or("?".to_string(), |m| m.to_string()))]
    MemoryLimit {
        command: String,
        limit_kb: u64,
        usage: Usage,
    },
    #[error("`{command}` wrote more than its output limit of {limit_bytes} bytes and was killed")]
    OutputLimit {
        command: String,
        limit_bytes: u64,
        usage: Usage,
    },
    #[error("`{command}` was stopped: the run was interrupted")]
    Stopped { command: String },
}

/// Exit codes with which `sh -c` reports a command it could not run: found but not
/// executable (126), not found (127).
pub const SHELL_CANNOT_RUN: [i32; 2] = [126, 127];

impl ExternalError {
    /// Whether the program could not be started at all (as opposed to failing on its input).
    pub fn cannot_start(&self) -> bool {
        match self {
            ExternalError::Spawn { .. } => true,
            ExternalError::Failed { code, .. } => {
                code.is_some_and(|c| SHELL_CANNOT_RUN.contains(&c))
            }
            _ => false,
        }
    }

    /// What the run used, for a program that ran.
    pub fn usage(&self) -> Option<Usage> {
        match self {
            ExternalError::Timeout { usage, .. }
            | ExternalError::Failed { usage, .. }
            | ExternalError::MemoryLimit { usage, .. }
            | ExternalError::OutputLimit { usage, .. } => Some(*usage),
            ExternalError::Spawn { .. } | ExternalError::Stopped { .. } => None,
        }
    }
}

/// A signal's name (`SIGSEGV`), for the common ones.
pub fn signal_name(signal: i32) -> Option<&'static str> {
    Some(match signal {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        _ => return None,
    })
}

/// How a program ended, in words: `exited with code 3`, `killed by signal 11 (SIGSEGV)`.
pub fn describe_exit(code: Option<i32>, signal: Option<i32>) -> String {
    match (code, signal) {
        (_, Some(s)) => match signal_name(s) {
            Some(name) => format!("killed by signal {s} ({name})"),
            None => format!("killed by signal {s}"),
        },
        (Some(c), None) => format!("exited with code {c}"),
        (None, None) => "ended".to_string(),
    }
}

/// The flag that stops every running program at once (set by the commands' SIGINT and SIGTERM
/// handlers): a program running when it is set is killed and its run is
/// [`ExternalError::Stopped`]; none starts after.
pub fn stop_flag() -> Arc<AtomicBool> {
    static STOP: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    STOP.get_or_init(|| Arc::new(AtomicBool::new(false)))
        .clone()
}

/// Shell words that are not programs on the PATH (builtins and keywords): a command starting
/// with one is not looked up before the run.
const SHELL_BUILTINS: &[&str] = &[
    ".", ":", "cd", "eval", "exec", "exit", "export", "read", "set", "source", "test", "[", "if",
    "for", "while", "until", "case", "{", "(", "!", "time", "ulimit", "umask", "command",
    "builtin", "env",
];

/// A program name resolved like `execvp` does: a name with a slash as a path, else the first
/// executable file of that name on `PATH`.
fn find_program(name: &str) -> Result<PathBuf, String> {
    fn executable(path: &Path) -> bool {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    if name.contains('/') {
        let path = PathBuf::from(name);
        return match std::fs::metadata(&path) {
            Err(e) => Err(format!("{name}: {e}")),
            Ok(_) if !executable(&path) => Err(format!("{name}: not an executable file")),
            Ok(_) => Ok(path),
        };
    }
    let dirs = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&dirs)
        .map(|dir| dir.join(name))
        .find(|p| executable(p))
        .ok_or_else(|| format!("{name}: not found on PATH"))
}

/// Checks, before any run, that `program` can start: its shell exists and, when the command
/// begins with a plain program name (not a builtin, an assignment or shell syntax), that
/// program exists and is executable; with no shell, the program itself.
pub fn check_startable(program: &External) -> Result<(), ExternalError> {
    let fail = |message: String| ExternalError::Spawn {
        command: program.command.clone(),
        message,
    };
    let argv = program.argv()?;
    find_program(&argv[0]).map_err(fail)?;
    if let Shell::Program(_) = program.shell {
        let Some(first) = split_words(&program.command).and_then(|w| w.into_iter().next()) else {
            return Ok(());
        };
        let plain = first
            .chars()
            .all(|c| c.is_alphanumeric() || "/._-+,@%".contains(c));
        if plain && !SHELL_BUILTINS.contains(&first.as_str()) {
            find_program(&first).map_err(fail)?;
        }
    }
    Ok(())
}

/// Empty runs timed by [`calibrate`].
pub const CALIBRATION_RUNS: usize = 10;

/// The start-up cost of an external program of this shape: the median wall time of
/// [`CALIBRATION_RUNS`] runs of the shell with an empty command (`sh -c ''`), or with no shell
/// of `true`, each with empty input. `None` when that cannot run.
pub fn calibrate(shell: &Shell) -> Option<Duration> {
    let argv: Vec<String> = match shell {
        Shell::Program(sh) => vec![sh.clone(), "-c".into(), String::new()],
        Shell::None => vec![find_program("true").ok()?.to_string_lossy().into_owned()],
    };
    let times: Vec<u64> = (0..CALIBRATION_RUNS)
        .map(|_| {
            process::run_argv(
                &argv,
                "",
                b"",
                &RunLimits::wall(Duration::from_secs(10)),
                false,
            )
            .map(|r| r.elapsed.as_nanos() as u64)
        })
        .collect::<Result<_, _>>()
        .ok()?;
    crate::util::stats::median_u64(&times).map(Duration::from_nanos)
}

/// Runs `program` with `input` on stdin under `limits`.
pub fn run(program: &External, input: &[u8], limits: &RunLimits) -> Result<Ran, ExternalError> {
    let shell = matches!(program.shell, Shell::Program(_));
    process::run_argv(&program.argv()?, &program.command, input, limits, shell)
}

/// Runs `command` through `sh -c` under a wall-time limit (kept for callers that have only a
/// command line).
pub fn run_shell(command: &str, input: &[u8], timeout: Duration) -> Result<Ran, ExternalError> {
    let program = External {
        name: command.to_string(),
        command: command.to_string(),
        shell: Shell::default(),
    };
    run(&program, input, &RunLimits::wall(timeout))
}

#[cfg(test)]
mod tests;
