//! One run of a program, on gamebench's side: spawn it (through the launcher when `main` set
//! one, [`use_launcher`]; else directly, for the library's own tests), feed its input, read its
//! output up to the limit, enforce the wall time and the stop flag, and turn what the run
//! reported into a [`Ran`] or an [`ExternalError`].

use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::launcher::{CONTROL_FD, ChildSetup, LAUNCH_ARG, REPORT_FD, timeval_ns};
use super::output::Output;
use super::pin::Pinned;
use super::{ExternalError, Ran, RunLimits, TimeLimit, Usage, stop_flag};

/// How long a program's pipes are still read after its run ended (the launcher has killed
/// everything by then; this only bounds a pipe some stray process still holds).
pub const PIPE_GRACE: Duration = Duration::from_millis(100);
/// How long a launcher asked to kill its program may take to report before it is killed too.
const KILL_GRACE: Duration = Duration::from_secs(2);
/// How often a running program's wait looks at the stop flag.
const STOP_POLL: Duration = Duration::from_millis(20);
/// Bytes of a failed program's standard error kept for its message.
const STDERR_KEPT: usize = 4096;

static LAUNCHER: OnceLock<PathBuf> = OnceLock::new();

/// Starts every program through the launcher at `path` (the gamebench binary,
/// `/proc/self/exe`): exact peak memory, every descendant killed. Without it (the library's
/// unit tests) programs are forked directly: the limits still hold, but a program's peak
/// memory is only reported when above gamebench's own, and a descendant that left the
/// program's process group is not found.
pub fn use_launcher(path: PathBuf) {
    let _ = LAUNCHER.set(path);
}

fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two fds into the array we own.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: both fds are new and ours.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

fn nonblocking(fd: i32) {
    // SAFETY: fcntl on an fd we own.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
    }
}

/// What the run reported: `status user_ns sys_ns maxrss_kb elapsed_ns memory_killed`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Report {
    pub status: i32,
    pub usage: Usage,
    pub elapsed: Duration,
    pub memory_killed: bool,
}

impl Report {
    fn parse(text: &str) -> Option<Report> {
        let f: Vec<i64> = text
            .split_whitespace()
            .map(|w| w.parse().ok())
            .collect::<Option<_>>()?;
        let [status, user, sys, rss, elapsed, memory] = f[..] else {
            return None;
        };
        Some(Report {
            status: status as i32,
            usage: Usage {
                user_ns: user.max(0) as u64,
                sys_ns: sys.max(0) as u64,
                memory_kb: Some(rss.max(0) as u64),
            },
            elapsed: Duration::from_nanos(elapsed.max(0) as u64),
            memory_killed: memory != 0,
        })
    }

    fn line(&self) -> String {
        format!(
            "{} {} {} {} {} {}\n",
            self.status,
            self.usage.user_ns,
            self.usage.sys_ns,
            self.usage.memory_kb.unwrap_or(0),
            self.elapsed.as_nanos(),
            u8::from(self.memory_killed)
        )
    }
}

/// Why gamebench killed a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Killed {
    Wall,
    Output,
    Stop,
}

/// How to kill a running program.
enum Killer {
    /// Through the launcher's control pipe; the launcher's pid (it leads its own group).
    Launcher(std::fs::File, libc::pid_t),
    /// The program's process group.
    Group(libc::pid_t),
}

impl Killer {
    fn kill(&mut self) {
        match self {
            Killer::Launcher(control, _) => {
                let _ = control.write_all(b"k");
            }
            // SAFETY: signals the process group we created for the child, not yet reaped.
            Killer::Group(pid) => unsafe {
                libc::kill(-*pid, libc::SIGKILL);
            },
        }
    }
}

/// Runs `argv` with `input` on stdin under `limits`.
///
/// `shell`: the program is a shell running a command, which reports a command killed by signal
/// N as exit code 128 + N: such a code is read as the signal.
pub(super) fn run_argv(
    argv: &[String],
    command: &str,
    input: &[u8],
    limits: &RunLimits,
    shell: bool,
) -> Result<Ran, ExternalError> {
    let spawn_error = |e: std::io::Error| ExternalError::Spawn {
        command: command.to_string(),
        message: e.to_string(),
    };
    let stop = stop_flag();
    if stop.load(Ordering::Relaxed) {
        return Err(ExternalError::Stopped {
            command: command.to_string(),
        });
    }
    let core = if limits.pin { Pinned::take() } else { None };
    let setup = ChildSetup {
        cpu_secs: limits.cpu.map(|c| c.as_secs_f64().ceil().max(1.0) as u64),
        data_bytes: limits.data_backstop_bytes(),
        core: core.as_ref().map(|c| c.0),
    };
    let (report_r, report_w) = pipe().map_err(spawn_error)?;
    let launcher = LAUNCHER.get();
    let mut cmd;
    let mut control = None;
    if let Some(path) = launcher {
        let (control_r, control_w) = pipe().map_err(spawn_error)?;
        let number = |n: Option<u64>| n.map_or("-".to_string(), |n| n.to_string());
        cmd = Command::new(path);
        cmd.arg(LAUNCH_ARG)
            .arg(number(setup.cpu_secs))
            .arg(number(limits.memory_kb))
            .arg(number(setup.core.map(|c| c as u64)))
            .arg("--")
            .args(argv);
        let (rw, cr) = (report_w.as_raw_fd(), control_r.as_raw_fd());
        // SAFETY: only fcntl and dup2 between fork and exec (async-signal-safe).
        unsafe {
            cmd.pre_exec(move || {
                let a = libc::fcntl(rw, libc::F_DUPFD_CLOEXEC, 10);
                let b = libc::fcntl(cr, libc::F_DUPFD_CLOEXEC, 10);
                if a < 0 || b < 0 || libc::dup2(a, REPORT_FD) < 0 || libc::dup2(b, CONTROL_FD) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        control = Some((control_r, control_w));
    } else {
        cmd = Command::new(&argv[0]);
        cmd.args(&argv[1..]);
        // SAFETY: ChildSetup::apply makes only system calls (async-signal-safe).
        unsafe {
            cmd.pre_exec(move || setup.apply());
        }
    }
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(spawn_error)?;
    drop(cmd);
    let pid = libc::pid_t::try_from(child.id()).expect("pids fit pid_t");
    let (mut killer, reaper) = match control {
        Some((control_r, control_w)) => {
            drop((control_r, report_w));
            (Killer::Launcher(std::fs::File::from(control_w), pid), None)
        }
        None => {
            // The child is reaped here, by wait4 (for its resource usage), never by `Child`;
            // the report goes through the same pipe as a launcher's.
            let mut report_w = std::fs::File::from(report_w);
            let reaper = std::thread::spawn(move || {
                let (status, usage) = reap(pid);
                let report = Report {
                    status,
                    usage: Usage {
                        user_ns: timeval_ns(usage.ru_utime),
                        sys_ns: timeval_ns(usage.ru_stime),
                        memory_kb: Some(usage.ru_maxrss.max(0) as u64),
                    },
                    elapsed: start.elapsed(),
                    memory_killed: false,
                };
                let _ = report_w.write_all(report.line().as_bytes());
            });
            (Killer::Group(pid), Some(reaper))
        }
    };
    // Feed stdin on a thread, so that a program that writes before it has read everything
    // never deadlocks against us; a program may exit without reading (a broken pipe is fine).
    // The thread is not waited for: it ends when the pipe's last reader is gone.
    let mut stdin = child.stdin.take().expect("piped");
    let input = input.to_vec();
    std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let stdout = child.stdout.take().expect("piped");
    let stderr = child.stderr.take().expect("piped");
    let mut report_r = std::fs::File::from(report_r);
    let watched = Watched {
        stdout: Box::new(stdout),
        stderr: Box::new(stderr),
        report: &mut report_r,
    };
    let (out, err, report, killed) = watch(watched, limits, start, &mut killer, &stop);
    drop(killer);
    match reaper {
        Some(reaper) => {
            let _ = reaper.join();
        }
        None => {
            let _ = child.wait();
        }
    }
    drop(core);
    let mut report = Report::parse(&report);
    if launcher.is_none()
        && let Some(r) = report.as_mut()
    {
        r.usage.memory_kb = r
            .usage
            .memory_kb
            .and_then(|kb| (kb > own_peak_kb()).then_some(kb));
    }
    decide(command, limits, report, killed, out, &err, shell)
}

/// This process's peak resident set size, KiB.
fn own_peak_kb() -> u64 {
    // SAFETY: an all-zero rusage is valid; getrusage writes into it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    usage.ru_maxrss.max(0) as u64
}

/// Waits for process `pid` with `wait4`, retrying on EINTR.
fn reap(pid: libc::pid_t) -> (i32, libc::rusage) {
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: an all-zero rusage is valid; wait4 writes only to our two out-parameters.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            return (status, usage);
        }
        if r == -1 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            continue;
        }
        // Not ours to wait for: report a kill.
        return (libc::SIGKILL, usage);
    }
}

struct Watched<'a> {
    stdout: Box<dyn ReadFd + 'a>,
    stderr: Box<dyn ReadFd + 'a>,
    report: &'a mut std::fs::File,
}

trait ReadFd: Read + AsRawFd {}
impl<T: Read + AsRawFd> ReadFd for T {}

/// Reads the run's output, standard error and report as they come (one thread, `poll`), until
/// the report is in and the pipes closed (or [`PIPE_GRACE`] after the report); kills the run at
/// its wall limit, past its output limit, or when the stop flag is set.
fn watch(
    mut w: Watched<'_>,
    limits: &RunLimits,
    start: Instant,
    killer: &mut Killer,
    stop: &std::sync::atomic::AtomicBool,
) -> (Vec<u8>, Vec<u8>, String, Option<Killed>) {
    let (mut out, mut err, mut report) = (Output::default(), Vec::new(), Vec::new());
    let fds = [
        w.stdout.as_raw_fd(),
        w.stderr.as_raw_fd(),
        w.report.as_raw_fd(),
    ];
    for fd in fds {
        nonblocking(fd);
    }
    let mut open = [true; 3];
    let mut killed: Option<Killed> = None;
    let mut killed_at: Option<Instant> = None;
    let mut reported_at: Option<Instant> = None;
    let mut forced = false;
    let limit = limits.output_bytes.unwrap_or(u64::MAX);
    let deadline = start + limits.wall;
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let now = Instant::now();
        if let Some(at) = reported_at
            && ((!open[0] && !open[1]) || now >= at + PIPE_GRACE)
        {
            break;
        }
        if killed.is_none() && reported_at.is_none() {
            let why = if stop.load(Ordering::Relaxed) {
                Some(Killed::Stop)
            } else if now >= deadline {
                Some(Killed::Wall)
            } else {
                None
            };
            if let Some(why) = why {
                killed = Some(why);
                killed_at = Some(now);
                killer.kill();
            }
        }
        if let Some(at) = killed_at
            && reported_at.is_none()
            && now >= at + KILL_GRACE
        {
            if forced {
                // Nothing reports: give up on this run.
                break;
            }
            // The launcher does not answer: kill it (its group).
            if let Killer::Launcher(_, launcher) = killer {
                // SAFETY: the launcher leads its own process group; it is our unreaped child.
                unsafe { libc::kill(-*launcher, libc::SIGKILL) };
            }
            forced = true;
            killed_at = Some(now);
        }
        let mut wait = STOP_POLL;
        if reported_at.is_none() && killed.is_none() {
            wait = wait.min(deadline.saturating_duration_since(now));
        }
        if let Some(at) = reported_at {
            wait = wait.min((at + PIPE_GRACE).saturating_duration_since(now));
        }
        let mut polled: Vec<libc::pollfd> = (0..3)
            .filter(|&i| open[i])
            .map(|i| libc::pollfd {
                fd: fds[i],
                events: libc::POLLIN,
                revents: 0,
            })
            .collect();
        // SAFETY: poll reads and writes the pollfds we own.
        unsafe {
            libc::poll(
                polled.as_mut_ptr(),
                polled.len() as libc::nfds_t,
                wait.as_millis().max(1) as i32,
            )
        };
        for p in &polled {
            if p.revents == 0 {
                continue;
            }
            let i = fds.iter().position(|&fd| fd == p.fd).expect("polled");
            let read = match i {
                0 => w.stdout.read(&mut buf),
                1 => w.stderr.read(&mut buf),
                _ => w.report.read(&mut buf),
            };
            let n = match read {
                Ok(0) => {
                    open[i] = false;
                    if i == 2 {
                        reported_at = Some(Instant::now());
                    }
                    continue;
                }
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => {
                    open[i] = false;
                    if i == 2 {
                        reported_at = Some(Instant::now());
                    }
                    continue;
                }
            };
            match i {
                0 => {
                    if out.len + n as u64 > limit {
                        // Past the limit: stop reading, kill the run.
                        open[0] = false;
                        if killed.is_none() {
                            killed = Some(Killed::Output);
                            killed_at = Some(Instant::now());
                            killer.kill();
                        }
                    } else {
                        out.push(&buf[..n]);
                    }
                }
                1 => {
                    let room = STDERR_KEPT.saturating_sub(err.len());
                    err.extend_from_slice(&buf[..n.min(room)]);
                }
                _ => report.extend_from_slice(&buf[..n]),
            }
        }
    }
    // Past the output limit the output is never used.
    let out = if killed == Some(Killed::Output) {
        Vec::new()
    } else {
        out.into_bytes()
    };
    (
        out,
        err,
        String::from_utf8_lossy(&report).into_owned(),
        killed,
    )
}

/// The verdict on a run from what it reported and why gamebench killed it, in this order: the
/// stop, the output limit, the memory limit (the launcher killed it, or the measured peak is
/// over), the CPU limit (the measured CPU time is over, or `SIGXCPU`), the wall limit, a crash
/// or non-zero exit.
pub(super) fn decide(
    command: &str,
    limits: &RunLimits,
    report: Option<Report>,
    killed: Option<Killed>,
    stdout: Vec<u8>,
    stderr: &[u8],
    shell: bool,
) -> Result<Ran, ExternalError> {
    let command = command.to_string();
    if killed == Some(Killed::Stop) {
        return Err(ExternalError::Stopped { command });
    }
    let usage = report.map(|r| r.usage).unwrap_or_default();
    if killed == Some(Killed::Output) {
        return Err(ExternalError::OutputLimit {
            command,
            limit_bytes: limits.output_bytes.unwrap_or(0),
            usage,
        });
    }
    let status = std::process::ExitStatus::from_raw_status(report.map(|r| r.status));
    if let Some(limit_kb) = limits.memory_kb
        && (report.is_some_and(|r| r.memory_killed)
            || usage.memory_kb.is_some_and(|m| m > limit_kb))
    {
        return Err(ExternalError::MemoryLimit {
            command,
            limit_kb,
            usage,
        });
    }
    let signal = status.and_then(|s| {
        std::os::unix::process::ExitStatusExt::signal(&s).or_else(|| {
            // A shell's "killed by signal N".
            s.code()
                .filter(|&c| shell && c > 128 && super::signal_name(c - 128).is_some())
                .map(|c| c - 128)
        })
    });
    if let Some(cpu) = limits.cpu
        && (usage.cpu() > cpu || signal == Some(libc::SIGXCPU))
    {
        return Err(ExternalError::Timeout {
            command,
            limit: TimeLimit::Cpu,
            seconds: cpu.as_secs_f64(),
            usage,
        });
    }
    let Some(report) = report.filter(|_| killed != Some(Killed::Wall)) else {
        return Err(ExternalError::Timeout {
            command,
            limit: TimeLimit::Wall,
            seconds: limits.wall.as_secs_f64(),
            usage,
        });
    };
    let status = status.expect("a report has a status");
    if !status.success() {
        let first = String::from_utf8_lossy(stderr)
            .lines()
            .next()
            .unwrap_or("")
            .to_string();
        let code = status.code().filter(|_| signal.is_none());
        return Err(ExternalError::Failed {
            command,
            code,
            signal,
            stderr: if first.is_empty() {
                String::new()
            } else {
                format!(": {first}")
            },
            usage,
        });
    }
    Ok(Ran {
        stdout,
        elapsed: report.elapsed,
        usage,
    })
}

/// `ExitStatus` from a raw wait status.
trait FromRawStatus: Sized {
    fn from_raw_status(raw: Option<i32>) -> Option<Self>;
}

impl FromRawStatus for std::process::ExitStatus {
    fn from_raw_status(raw: Option<i32>) -> Option<Self> {
        raw.map(std::os::unix::process::ExitStatusExt::from_raw)
    }
}
