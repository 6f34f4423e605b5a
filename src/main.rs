//! The `gamebench` binary: parses the command line and calls the library. Each command's
//! options and the functions that carry them out live in `cli`; exit codes come from
//! `gamebench::status::Exit` (0 ok, 1 mismatch/unsolved/budget or a wrong answer, 2 error,
//! 3 invalid input or shards incomplete, 4 presentation error, 5 checker failure, 6 `compare`:
//! slower).

use std::io::Write;

use gamebench::cli::{self, Command};
use gamebench::status::Exit;

/// One allocator for every command: mimalloc (see docs/build-and-measurements.md, "Build configuration").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    // Started as the launcher of an external program (see `external::launcher`).
    if let Some(code) = gamebench::external::launcher_main() {
        std::process::exit(code);
    }
    // Programs run through this same binary as their launcher (exact peak memory, every
    // descendant killed); `/proc/self/exe` still works if the file is replaced meanwhile.
    gamebench::external::use_launcher("/proc/self/exe".into());
    let cli = cli::parse_or_exit();
    quiet_on_closed_stdout(&cli.command);
    let result = match cli.command {
        Command::Solve(args) => cli::solve(args),
        Command::Run(args) => cli::run(*args),
        Command::Invoke(args) => cli::invoke(*args),
        Command::Package(args) => cli::package(args),
        Command::Gen(args) => cli::gen_corpus(args),
        Command::Check(args) => cli::check(args),
        Command::Validate(args) => cli::validate(args),
        Command::List => cli::list(),
        Command::Levels(args) => cli::levels(args),
        Command::Stress(args) => cli::stress(args),
        Command::Shrink(args) => cli::shrink(*args),
        Command::Hunt(args) => cli::hunt(args),
        Command::Merge(args) => cli::shards::merge(args),
        Command::Sweep(args) => cli::sweep(*args),
        Command::Compare(args) => cli::compare::compare(args),
        Command::Report(args) => cli::report::report(*args),
        Command::Completions { shell } => cli::completions(shell),
        Command::Man(args) => cli::man(args),
    };
    let exit = result.unwrap_or_else(|e| {
        if closed_pipe(&e) {
            // The reader of our output went away (`run --csv - | head`): end as `cat` does.
            // SAFETY: ends the process, as `exit_now` does.
            unsafe { libc::_exit(SIGPIPE_STATUS) }
        }
        eprintln!("gamebench: {}", cli::error_text(&e));
        Exit::Error
    });
    exit_now(exit)
}

/// A closed stdout or stderr (`gamebench list | head -1`) ends the command quietly, as it ends
/// `cat`.
///
/// Commands that start no external program take SIGPIPE's default action back (Rust ignores
/// it), so the kernel ends them at the first write to the closed pipe: exit status 141 in a
/// shell, no message. Commands that may start programs (`run`, `invoke`, `sweep`, `stress`,
/// `hunt`, `gen`) keep ignoring it, since a program that exits without reading its input must not
/// kill them through the pipe to its stdin; for them a print to a closed stdout (which panics
/// in `print!`), or to a closed stderr (`eprint!`), ends the process with status 141 and no panic
/// message.
fn quiet_on_closed_stdout(command: &Command) {
    let starts_programs = matches!(
        command,
        Command::Run(_)
            | Command::Invoke(_)
            | Command::Sweep(_)
            | Command::Stress(_)
            | Command::Shrink(_)
            | Command::Hunt(_)
            | Command::Gen(_)
    );
    if !starts_programs {
        // SAFETY: restoring a signal's default action; no handler runs Rust code.
        unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    }
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        // `print!` and `eprint!` alike: a closed stderr (`2>&1 >/dev/null | head -1`) too.
        let printing = message.starts_with("failed printing to stdout")
            || message.starts_with("failed printing to stderr");
        if printing && message.contains("Broken pipe") {
            // SAFETY: ends the process, as `exit_now` does.
            unsafe { libc::_exit(SIGPIPE_STATUS) }
        }
        default_hook(info)
    }));
}

/// Whether `error` comes from writing to a pipe whose reader has gone.
fn closed_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// The exit status of a process ended by SIGPIPE, as a shell reports it.
const SIGPIPE_STATUS: i32 = 128 + libc::SIGPIPE;

/// Ends the process with `exit` once stdout is flushed, without running exit handlers.
///
/// Every command has finished when it returns: its files are written and closed, its threads
/// idle. What exit handlers would still do is the allocator's teardown, handing back pages the
/// kernel frees anyway when the process ends. A failed flush of stdout (a closed pipe, a full
/// disk) is an error, exit code 2 (a closed pipe: 141, quietly), where the runtime would have ignored it.
fn exit_now(exit: Exit) -> ! {
    let code = match std::io::stdout().flush() {
        Ok(()) => i32::from(exit.code()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => SIGPIPE_STATUS,
        Err(e) => {
            eprintln!("gamebench: writing the output: {e}");
            i32::from(Exit::Error.code())
        }
    };
    // SAFETY: `_exit` only ends the process: no exit handler or destructor runs, so no Rust
    // invariant can be observed broken afterwards. stdout is flushed above and stderr is not
    // buffered.
    unsafe { libc::_exit(code) }
}
