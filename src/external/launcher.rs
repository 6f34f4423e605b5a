//! The launcher: gamebench re-executed with a hidden first argument ([`LAUNCH_ARG`]) between
//! gamebench and each program. It exists for two reasons.
//!
//! - Memory: Linux gives a forked child's `ru_maxrss` at least the resident size of the process
//!   it was forked from (the copied memory image's high-water mark is carried over at `execve`),
//!   so a program forked from gamebench (tens or hundreds of MB) would look as large as
//!   gamebench. The launcher is a fresh, small process: its child resets its high-water mark
//!   (`/proc/self/clear_refs` with `5`) to the few hundred KB it holds, then execs the program,
//!   whose peak is then its own, within a few hundred KB.
//! - Nothing left running: the launcher is a child subreaper (`PR_SET_CHILD_SUBREAPER`), so
//!   every process the program starts, even one that left its process group or session
//!   (`setsid`), stays its descendant. When the program's main process ends (or gamebench asks,
//!   or goes away), the launcher kills the program's process group, then every child it still
//!   has (found in `/proc/*/stat`), until it has none; only then does it report.
//!
//! Protocol: `gamebench __gamebench-launch CPU_SECS MEMORY_KB CORE -- ARGV...` (`-` for none),
//! fd 3 the report pipe (one line: `status user_ns sys_ns maxrss_kb elapsed_ns memory_killed`),
//! fd 4 the control pipe (a byte or its end: kill the program now).

use std::io::Write;
use std::os::fd::FromRawFd;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The hidden first argument that makes gamebench a launcher.
pub const LAUNCH_ARG: &str = "__gamebench-launch";

/// The fds the launcher gets its report and control pipes on.
pub(super) const REPORT_FD: i32 = 3;
pub(super) const CONTROL_FD: i32 = 4;

/// How often the launcher compares a memory-limited program's resident size with its limit.
const MEMORY_POLL: Duration = Duration::from_millis(2);

/// What is set up in a program between fork and exec: resource limits and the core.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct ChildSetup {
    pub cpu_secs: Option<u64>,
    pub data_bytes: Option<u64>,
    pub core: Option<usize>,
}

impl ChildSetup {
    /// Applies the limits to the calling process. Async-signal-safe (only system calls): it
    /// runs between fork and exec.
    pub fn apply(&self) -> std::io::Result<()> {
        let set = |resource, soft: u64, hard: u64| {
            let limit = libc::rlimit {
                rlim_cur: soft as libc::rlim_t,
                rlim_max: hard as libc::rlim_t,
            };
            // SAFETY: setrlimit reads the struct we own.
            if unsafe { libc::setrlimit(resource, &limit) } != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        };
        // No core dumps of crashing programs.
        set(libc::RLIMIT_CORE, 0, 0)?;
        if let Some(secs) = self.cpu_secs {
            // SIGXCPU at the limit, SIGKILL a second later for a program that ignores it.
            set(libc::RLIMIT_CPU, secs, secs + 1)?;
        }
        if let Some(bytes) = self.data_bytes {
            set(libc::RLIMIT_DATA, bytes, bytes)?;
        }
        if let Some(core) = self.core {
            // SAFETY: an all-zero cpu_set_t is the empty set; CPU_SET writes within it;
            // sched_setaffinity reads it.
            unsafe {
                let mut set: libc::cpu_set_t = std::mem::zeroed();
                libc::CPU_SET(core, &mut set);
                if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
        }
        Ok(())
    }
}

pub(super) fn timeval_ns(t: libc::timeval) -> u64 {
    (t.tv_sec.max(0) as u64) * 1_000_000_000 + (t.tv_usec.max(0) as u64) * 1_000
}

/// The launcher's entry point, when this process was started as one: `Some(exit code)`.
/// `main` calls it first.
pub fn launcher_main() -> Option<i32> {
    // `args_os`: an argument that is not UTF-8 (a file name) must not panic any command.
    let mut args = std::env::args_os();
    if args.nth(1).as_deref() != Some(std::ffi::OsStr::new(LAUNCH_ARG)) {
        return None;
    }
    let rest: Vec<String> = args.map(|a| a.to_string_lossy().into_owned()).collect();
    Some(launch(&rest))
}

fn launch(args: &[String]) -> i32 {
    let number = |i: usize| args.get(i).and_then(|s| s.parse::<u64>().ok());
    let (cpu_secs, memory_kb, core) = (number(0), number(1), number(2));
    let Some(sep) = args.iter().position(|a| a == "--") else {
        eprintln!("gamebench launcher: no command");
        return 2;
    };
    let argv: Vec<std::ffi::CString> = match args[sep + 1..]
        .iter()
        .map(|a| std::ffi::CString::new(a.as_bytes()))
        .collect::<Result<Vec<_>, _>>()
    {
        Ok(argv) if !argv.is_empty() => argv,
        _ => {
            eprintln!("gamebench launcher: a bad command");
            return 2;
        }
    };
    let mut pointers: Vec<*const libc::c_char> = argv.iter().map(|a| a.as_ptr()).collect();
    pointers.push(std::ptr::null());
    // No address-space or data limit: the memory limit is on resident memory, polled below
    // (`watch`) and measured at exit, as judges limit it.
    let setup = ChildSetup {
        cpu_secs,
        data_bytes: None,
        core: core.map(|c| c as usize),
    };
    // SAFETY: plain system calls on fds and this process; no memory is shared.
    unsafe {
        libc::fcntl(REPORT_FD, libc::F_SETFD, libc::FD_CLOEXEC);
        libc::fcntl(CONTROL_FD, libc::F_SETFD, libc::FD_CLOEXEC);
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
    let start = Instant::now();
    // SAFETY: this process has one thread here, so the child may run any code; it only makes
    // system calls and execs (or exits).
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        eprintln!(
            "gamebench launcher: fork: {}",
            std::io::Error::last_os_error()
        );
        return 2;
    }
    if pid == 0 {
        // SAFETY: the child's own process: group, high-water mark, limits, exec.
        unsafe {
            libc::setpgid(0, 0);
            let fd = libc::open(c"/proc/self/clear_refs".as_ptr(), libc::O_WRONLY);
            if fd >= 0 {
                libc::write(fd, b"5".as_ptr().cast(), 1);
                libc::close(fd);
            }
            if let Err(e) = setup.apply() {
                let message = format!("gamebench: cannot set the limits: {e}\n");
                libc::write(2, message.as_ptr().cast(), message.len());
                libc::_exit(126);
            }
            libc::execvp(pointers[0], pointers.as_ptr());
            let e = std::io::Error::last_os_error();
            let message = format!("{}: {e}\n", argv[0].to_string_lossy());
            libc::write(2, message.as_ptr().cast(), message.len());
            libc::_exit(if e.raw_os_error() == Some(libc::ENOENT) {
                127
            } else {
                126
            });
        }
    }
    let memory_killed = Arc::new(AtomicBool::new(false));
    {
        let memory_killed = memory_killed.clone();
        std::thread::spawn(move || watch(pid, memory_kb, &memory_killed));
    }
    let mut status = 0;
    loop {
        // SAFETY: wait4 writes the status we own; pid is our child.
        let r = unsafe { libc::wait4(pid, &mut status, 0, std::ptr::null_mut()) };
        if r == pid || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            break;
        }
    }
    let elapsed = start.elapsed();
    // Everything the program started goes with it.
    // SAFETY: signals the program's process group (its main process was our child).
    unsafe { libc::kill(-pid, libc::SIGKILL) };
    reap_all();
    // SAFETY: an all-zero rusage is valid; getrusage writes into it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    let report = format!(
        "{status} {} {} {} {} {}\n",
        timeval_ns(usage.ru_utime),
        timeval_ns(usage.ru_stime),
        usage.ru_maxrss.max(0),
        elapsed.as_nanos(),
        u8::from(memory_killed.load(Ordering::SeqCst)),
    );
    // SAFETY: fd 3 is the report pipe gamebench gave us; the File owns it from here.
    let mut out = unsafe { std::fs::File::from_raw_fd(REPORT_FD) };
    let _ = out.write_all(report.as_bytes());
    0
}

/// Kills the program's group when gamebench asks (a byte on the control pipe) or goes away
/// (its end), or when the program's resident size passes `memory_kb`.
fn watch(pid: libc::pid_t, memory_kb: Option<u64>, memory_killed: &AtomicBool) {
    let page_kb = {
        // SAFETY: sysconf has no memory effects.
        let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        (size.max(4096) as u64) / 1024
    };
    // SAFETY: getpid has no memory effects.
    let me = unsafe { libc::getpid() };
    let timeout = memory_kb.map_or(-1, |_| MEMORY_POLL.as_millis() as i32);
    loop {
        let mut fds = libc::pollfd {
            fd: CONTROL_FD,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: poll reads and writes the one pollfd we own.
        let r = unsafe { libc::poll(&mut fds, 1, timeout) };
        if r > 0 {
            break;
        }
        if let Some(limit) = memory_kb
            && largest_resident_pages(me) * page_kb > limit
        {
            memory_killed.store(true, Ordering::SeqCst);
            break;
        }
    }
    // SAFETY: signals the program's process group.
    unsafe { libc::kill(-pid, libc::SIGKILL) };
}

/// The largest resident size, in pages, of the processes below `root` (its children, theirs,
/// ...: the program, what it started, and orphans reparented to the launcher), read from
/// `/proc/PID/task/PID/children` and `/proc/PID/statm`.
fn largest_resident_pages(root: libc::pid_t) -> u64 {
    let mut largest = 0;
    let mut stack = vec![root];
    let mut seen = 0;
    while let Some(pid) = stack.pop() {
        seen += 1;
        if seen > 10_000 {
            break;
        }
        if pid != root
            && let Ok(text) = std::fs::read_to_string(format!("/proc/{pid}/statm"))
            && let Some(resident) = text
                .split_whitespace()
                .nth(1)
                .and_then(|s| s.parse::<u64>().ok())
        {
            largest = largest.max(resident);
        }
        if let Ok(children) = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")) {
            stack.extend(
                children
                    .split_whitespace()
                    .filter_map(|c| c.parse::<libc::pid_t>().ok()),
            );
        }
    }
    largest
}

/// Kills and reaps every child this process still has (orphans of the program reparented to
/// it, the subreaper), until it has none.
fn reap_all() {
    let deadline = Instant::now() + Duration::from_secs(10);
    // SAFETY: getpid and getpgrp have no memory effects.
    let (me, my_group) = unsafe { (libc::getpid(), libc::getpgrp()) };
    loop {
        // SAFETY: waitpid with a null status pointer writes nothing.
        let r = unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) };
        if r > 0 {
            continue;
        }
        if r < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD) {
            return;
        }
        if r < 0 || Instant::now() > deadline {
            return;
        }
        for (pid, group) in children_of(me) {
            // SAFETY: signals a child of ours (and its group, never our own).
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                if group > 1 && group != my_group {
                    libc::kill(-group, libc::SIGKILL);
                }
            }
        }
        std::thread::sleep(Duration::from_micros(500));
    }
}

/// The processes whose parent is `parent`, and their process groups, from `/proc/*/stat`.
fn children_of(parent: libc::pid_t) -> Vec<(libc::pid_t, libc::pid_t)> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|entry| {
        let entry = entry.ok()?;
        let pid: libc::pid_t = entry.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
        // `pid (comm) state ppid pgrp ...`; comm may hold spaces and parentheses.
        let rest = &stat[stat.rfind(')')? + 1..];
        let mut fields = rest.split_whitespace().skip(1);
        let ppid: libc::pid_t = fields.next()?.parse().ok()?;
        let group: libc::pid_t = fields.next()?.parse().ok()?;
        (ppid == parent).then_some((pid, group))
    })
    .collect()
}
