//! External engines: any program that reads a judge input on stdin and writes the judge output
//! on stdout, named on the command line as `cmd:COMMAND` or `NAME=cmd:COMMAND`.
//!
//! The program runs once per input file, through `sh -c` (or another shell, or none: the
//! command split into words and run directly, without the shell's start-up cost), in a process
//! group of its own so that a timeout kills the whole group (a shell's children included) and
//! never leaves a reader blocked on a pipe. Its time is the whole file's wall time; the child is
//! reaped with `wait4`, which gives its user and system CPU time and peak resident memory.
//!
//! Before a run, [`check_startable`] looks the program up (a missing one fails at once, not
//! file by file), and [`calibrate`] times an empty run of the same shape (the shell, or a
//! trivial program), the start-up cost included in every file's time.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

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

/// What one run of the program used, from `wait4`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    pub user_ns: u64,
    pub sys_ns: u64,
    /// Peak resident set size, KiB, when it can be told from ours (see [`peak_memory`]).
    pub memory_kb: Option<u64>,
}

/// This process's peak resident set size, KiB.
fn own_peak_kb() -> u64 {
    // SAFETY: an all-zero rusage is a valid value of this plain C struct, and getrusage only
    // writes to it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: see above.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    usage.ru_maxrss.max(0) as u64
}

/// The child's peak memory from its `ru_maxrss`, when that is the child's own. Linux records,
/// at `execve`, the peak of the memory image being replaced, which for a child spawned with
/// vfork (or fork) is this process's: so `ru_maxrss` is at least our own peak at the time of
/// the exec. A value above our peak (read after the child ended, hence no smaller than at its
/// exec) is the child's; one at or below it could be ours, and is not reported.
fn peak_memory(child_kb: u64, own_kb: u64) -> Option<u64> {
    (child_kb > own_kb).then_some(child_kb)
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
    #[error("`{command}` timed out after {seconds:.1} s and was killed")]
    Timeout { command: String, seconds: f64 },
    #[error("`{command}` exited with {status}{stderr}")]
    Failed {
        command: String,
        status: String,
        /// The exit code, when the program exited (not killed by a signal).
        code: Option<i32>,
        stderr: String,
    },
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
            ExternalError::Timeout { .. } => false,
        }
    }
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
            run_argv(&argv, "", b"", Duration::from_secs(10)).map(|r| r.elapsed.as_nanos() as u64)
        })
        .collect::<Result<_, _>>()
        .ok()?;
    crate::stats::median_u64(&times).map(Duration::from_nanos)
}

/// Runs `program` with `input` on stdin, waiting at most `timeout`.
pub fn run(program: &External, input: &[u8], timeout: Duration) -> Result<Ran, ExternalError> {
    run_argv(&program.argv()?, &program.command, input, timeout)
}

/// Runs `command` through `sh -c` (kept for callers that have only a command line).
pub fn run_shell(command: &str, input: &[u8], timeout: Duration) -> Result<Ran, ExternalError> {
    let program = External {
        name: command.to_string(),
        command: command.to_string(),
        shell: Shell::default(),
    };
    run(&program, input, timeout)
}

/// What `wait4` reported.
struct Reaped {
    status: libc::c_int,
    usage: libc::rusage,
    at: Instant,
}

/// Waits for process `pid` with `wait4`, retrying on EINTR.
fn reap(pid: libc::pid_t) -> Option<Reaped> {
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: an all-zero rusage is a valid value of this plain C struct.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: wait4 writes only to the two out-parameters we own; pid is our child.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            return Some(Reaped {
                status,
                usage,
                at: Instant::now(),
            });
        }
        if r == -1 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            continue;
        }
        return None;
    }
}

fn timeval_ns(t: libc::timeval) -> u64 {
    (t.tv_sec.max(0) as u64) * 1_000_000_000 + (t.tv_usec.max(0) as u64) * 1_000
}

fn run_argv(
    argv: &[String],
    command: &str,
    input: &[u8],
    timeout: Duration,
) -> Result<Ran, ExternalError> {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let spawn_error = |e: std::io::Error| ExternalError::Spawn {
        command: command.to_string(),
        message: e.to_string(),
    };
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(spawn_error)?;
    let pid = libc::pid_t::try_from(child.id()).expect("pids fit pid_t");
    // Feed stdin and drain stdout/stderr on threads, so a program that writes before it has read
    // everything can never deadlock against us.
    let mut stdin = child.stdin.take().expect("piped");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        // A program may exit without reading its input (e.g. `true`): a broken pipe is fine.
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout.read_to_end(&mut bytes);
        bytes
    });
    let mut stderr = child.stderr.take().expect("piped");
    let err_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stderr.read_to_end(&mut bytes);
        bytes
    });
    // The child is reaped here, by wait4 (for its resource usage), never by `Child`.
    let (tx, rx) = mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let _ = tx.send(reap(pid));
    });
    let reaped = match rx.recv_timeout(timeout) {
        Ok(reaped) => reaped,
        Err(_) => {
            kill_group(pid);
            let _ = rx.recv();
            let _ = (
                waiter.join(),
                writer.join(),
                reader.join(),
                err_reader.join(),
            );
            return Err(ExternalError::Timeout {
                command: command.to_string(),
                seconds: timeout.as_secs_f64(),
            });
        }
    };
    let _ = waiter.join();
    let Some(reaped) = reaped else {
        return Err(spawn_error(std::io::Error::last_os_error()));
    };
    let elapsed = reaped.at - start;
    let _ = writer.join();
    let stdout = reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    let status = std::process::ExitStatus::from_raw(reaped.status);
    if !status.success() {
        let first = String::from_utf8_lossy(&stderr)
            .lines()
            .next()
            .unwrap_or("")
            .to_string();
        return Err(ExternalError::Failed {
            command: command.to_string(),
            status: status.to_string(),
            code: status.code(),
            stderr: if first.is_empty() {
                String::new()
            } else {
                format!(": {first}")
            },
        });
    }
    Ok(Ran {
        stdout,
        elapsed,
        usage: Usage {
            user_ns: timeval_ns(reaped.usage.ru_utime),
            sys_ns: timeval_ns(reaped.usage.ru_stime),
            // Linux reports ru_maxrss in KiB.
            memory_kb: peak_memory(reaped.usage.ru_maxrss.max(0) as u64, own_peak_kb()),
        },
    })
}

/// Kills the child's whole process group (the child leads it).
fn kill_group(pid: libc::pid_t) {
    // SAFETY: kill(2) with a negative pid signals the process group we created for the child;
    // it touches no memory of ours. The child is not reaped yet (the waiter thread does that),
    // so its pid, and the group's id, cannot have been reused.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_engine_arguments() {
        assert_eq!(External::parse("table"), None);
        assert_eq!(
            External::parse("cmd:./sol --fast"),
            Some(External {
                name: "cmd:./sol --fast".into(),
                command: "./sol --fast".into(),
                shell: Shell::default(),
            })
        );
        assert_eq!(
            External::parse("mine=cmd:cat"),
            Some(External {
                name: "mine".into(),
                command: "cat".into(),
                shell: Shell::default(),
            })
        );
        assert_eq!(External::parse("cmd:"), None);
        assert_eq!(External::parse("x cmd:cat"), None);
    }

    #[test]
    fn runs_with_stdin_and_reports_failures() {
        let ran = run_shell("tr a-z A-Z", b"abc\n", Duration::from_secs(10)).unwrap();
        assert_eq!(ran.stdout, b"ABC\n");
        let failed = run_shell("echo oops >&2; exit 3", b"", Duration::from_secs(10)).unwrap_err();
        assert!(
            matches!(&failed, ExternalError::Failed { stderr, code: Some(3), .. } if stderr == ": oops"),
            "{failed}"
        );
        assert!(!failed.cannot_start());
        let missing =
            run_shell("./no-such-program-here", b"", Duration::from_secs(10)).unwrap_err();
        assert!(missing.cannot_start(), "{missing}");
    }

    #[test]
    fn a_hanging_program_is_killed_at_the_timeout() {
        let start = Instant::now();
        // The shell's child `sleep` holds stdout open: only killing the group ends it.
        let err = run_shell("sleep 30; echo late", b"", Duration::from_millis(300)).unwrap_err();
        assert!(matches!(err, ExternalError::Timeout { .. }), "{err}");
        assert!(start.elapsed() < Duration::from_secs(10));
    }

    fn program(command: &str, shell: Shell) -> External {
        External::parse(&format!("cmd:{command}"))
            .unwrap()
            .with_shell(shell)
    }

    #[test]
    fn words_split_as_sh_would() {
        assert_eq!(
            split_words(r#"prog -a 'b c' "d \"e\"" f\ g"#).unwrap(),
            vec!["prog", "-a", "b c", "d \"e\"", "f g"]
        );
        assert_eq!(split_words("  ").unwrap(), Vec::<String>::new());
        assert_eq!(split_words("a 'b"), None);
    }

    #[test]
    fn runs_without_a_shell_and_reports_usage() {
        let ran = run(
            &program("tr a-z A-Z", Shell::None),
            b"abc\n",
            Duration::from_secs(10),
        )
        .unwrap();
        assert_eq!(ran.stdout, b"ABC\n");
        // A short program uses little CPU.
        assert!(ran.usage.user_ns + ran.usage.sys_ns < 5_000_000_000);
        // No shell: `;` is an argument, not syntax.
        let echoed = run(
            &program("echo a ; b", Shell::None),
            b"",
            Duration::from_secs(10),
        )
        .unwrap();
        assert_eq!(echoed.stdout, b"a ; b\n");
    }

    #[test]
    fn a_missing_program_is_found_before_any_run() {
        let start = Instant::now();
        let err = check_startable(&program("./no-such-prog --x", Shell::default())).unwrap_err();
        assert!(err.to_string().contains("./no-such-prog"), "{err}");
        assert!(check_startable(&program("no-such-prog-xyz", Shell::None)).is_err());
        assert!(check_startable(&program("cat", Shell::default())).is_ok());
        // Shell syntax is not second-guessed.
        assert!(check_startable(&program("X=1 cat", Shell::default())).is_ok());
        assert!(check_startable(&program("cat", "no-such-shell".parse().unwrap())).is_err());
        assert!(start.elapsed() < Duration::from_secs(1));
    }

    #[test]
    fn peak_memory_is_the_childs_only_above_ours() {
        assert_eq!(peak_memory(500_000, 20_000), Some(500_000));
        assert_eq!(peak_memory(20_000, 20_000), None);
        // A program that touches 300 MB shows it (well above a test process's own peak).
        let ran = run_shell(
            "head -c 300000000 /dev/zero | (dd bs=300000000 count=1 iflag=fullblock of=/dev/null 2>/dev/null)",
            b"",
            Duration::from_secs(30),
        );
        if let Ok(ran) = ran
            && own_peak_kb() < 250_000
        {
            assert!(
                ran.usage.memory_kb.is_some_and(|m| m > 250_000),
                "{:?}",
                ran.usage
            );
        }
    }

    #[test]
    fn calibration_times_an_empty_run() {
        let t = calibrate(&Shell::default()).unwrap();
        assert!(t > Duration::ZERO && t < Duration::from_secs(5), "{t:?}");
        assert!(calibrate(&Shell::None).is_some());
    }
}
