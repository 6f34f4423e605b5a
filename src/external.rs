//! External engines: any program that reads a judge input on stdin and writes the judge output
//! on stdout, named on the command line as `cmd:COMMAND` or `NAME=cmd:COMMAND`.
//!
//! The program runs once per input file, through `sh -c`, in a process group of its own so that
//! a timeout kills the whole group (a shell's children included) and never leaves a reader
//! blocked on a pipe. Its time is the whole file's wall time.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use wait_timeout::ChildExt;

/// The prefix that marks an external engine on the command line.
pub const PREFIX: &str = "cmd:";

/// A program used as an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct External {
    /// The label in reports: `NAME` if given, else `cmd:COMMAND`.
    pub name: String,
    pub command: String,
}

impl External {
    /// Reads `cmd:COMMAND` or `NAME=cmd:COMMAND`; `None` when `text` names an internal engine.
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
        })
    }
}

/// What one run of the program gave.
#[derive(Debug)]
pub struct Ran {
    pub stdout: Vec<u8>,
    pub elapsed: Duration,
}

/// Why a run failed.
#[derive(Debug, thiserror::Error, PartialEq)]
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

/// Runs `command` with `input` on stdin, waiting at most `timeout`.
pub fn run(command: &str, input: &[u8], timeout: Duration) -> Result<Ran, ExternalError> {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(|e| ExternalError::Spawn {
        command: command.to_string(),
        message: e.to_string(),
    })?;
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
    let status = child
        .wait_timeout(timeout)
        .map_err(|e| ExternalError::Spawn {
            command: command.to_string(),
            message: e.to_string(),
        })?;
    let Some(status) = status else {
        kill_group(&mut child);
        let _ = child.wait();
        let _ = (writer.join(), reader.join(), err_reader.join());
        return Err(ExternalError::Timeout {
            command: command.to_string(),
            seconds: timeout.as_secs_f64(),
        });
    };
    let elapsed = start.elapsed();
    let _ = writer.join();
    let stdout = reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
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
    Ok(Ran { stdout, elapsed })
}

/// Kills the child's whole process group (the child leads it), or just the child elsewhere.
fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        if let Ok(pid) = libc::pid_t::try_from(child.id()) {
            // SAFETY: kill(2) with a negative pid signals the process group we created for the
            // child; it touches no memory of ours.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
            return;
        }
    }
    let _ = child.kill();
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
                command: "./sol --fast".into()
            })
        );
        assert_eq!(
            External::parse("mine=cmd:cat"),
            Some(External {
                name: "mine".into(),
                command: "cat".into()
            })
        );
        assert_eq!(External::parse("cmd:"), None);
        assert_eq!(External::parse("x cmd:cat"), None);
    }

    #[test]
    fn runs_with_stdin_and_reports_failures() {
        let ran = run("tr a-z A-Z", b"abc\n", Duration::from_secs(10)).unwrap();
        assert_eq!(ran.stdout, b"ABC\n");
        let failed = run("echo oops >&2; exit 3", b"", Duration::from_secs(10)).unwrap_err();
        assert!(
            matches!(&failed, ExternalError::Failed { stderr, code: Some(3), .. } if stderr == ": oops"),
            "{failed}"
        );
        assert!(!failed.cannot_start());
        let missing = run("./no-such-program-here", b"", Duration::from_secs(10)).unwrap_err();
        assert!(missing.cannot_start(), "{missing}");
    }

    #[test]
    fn a_hanging_program_is_killed_at_the_timeout() {
        let start = Instant::now();
        // The shell's child `sleep` holds stdout open: only killing the group ends it.
        let err = run("sleep 30; echo late", b"", Duration::from_millis(300)).unwrap_err();
        assert!(matches!(err, ExternalError::Timeout { .. }), "{err}");
        assert!(start.elapsed() < Duration::from_secs(10));
    }
}
