//! The `gamebench` binary: parses the command line and calls the library. Each command's
//! options and the functions that carry them out live in `cli`; exit codes come from
//! `gamebench::status::Exit` (0 ok, 1 mismatch/unsolved/budget or a wrong answer, 2 error,
//! 3 invalid input or shards incomplete, 4 presentation error, 5 checker failure).

use std::io::Write;

use clap::Parser;

use gamebench::cli::{self, Cli, Command};
use gamebench::status::Exit;

/// One allocator for every command: mimalloc (see README "Build configuration").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => cli::solve(args),
        Command::Run(args) => cli::run(*args),
        Command::Gen(args) => cli::gen_corpus(args),
        Command::Check(args) => cli::check(args),
        Command::Validate(args) => cli::validate(args),
        Command::List => cli::list(),
        Command::Levels(args) => cli::levels(args),
        Command::Stress(args) => cli::stress(args),
        Command::Hunt(args) => cli::hunt(args),
        Command::Merge(args) => cli::shards::merge(args),
        Command::Sweep(args) => cli::sweep(*args),
        Command::Completions { shell } => cli::completions(shell),
        Command::Man => cli::man(),
    };
    let exit = result.unwrap_or_else(|e| {
        eprintln!("gamebench: {e:#}");
        Exit::Error
    });
    exit_now(exit)
}

/// Ends the process with `exit` once stdout is flushed, without running exit handlers.
///
/// Every command has finished when it returns: its files are written and closed, its threads
/// idle. What exit handlers would still do is the allocator's teardown, handing back pages the
/// kernel frees anyway when the process ends. A failed flush of stdout (a closed pipe, a full
/// disk) is an error, exit code 2, where the runtime would have ignored it.
fn exit_now(exit: Exit) -> ! {
    let code = match std::io::stdout().flush() {
        Ok(()) => exit.code(),
        Err(e) => {
            eprintln!("gamebench: writing the output: {e}");
            Exit::Error.code()
        }
    };
    // SAFETY: `_exit` only ends the process: no exit handler or destructor runs, so no Rust
    // invariant can be observed broken afterwards. stdout is flushed above and stderr is not
    // buffered.
    unsafe { libc::_exit(i32::from(code)) }
}
