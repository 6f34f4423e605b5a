//! Instruction counts, for `run --measure instructions`: a deterministic measure that load on
//! the machine does not change.
//!
//! Which counter: hardware counters through `perf stat -e instructions:u` (the kernel's
//! `perf_event_open`, inherited by every process the program starts) when the machine exposes
//! them (probed once: `perf stat -x, -o /dev/stdout -e instructions:u true` must print a count), else
//! `valgrind --tool=callgrind` (every process followed with `--trace-children=yes`, their
//! counts summed). Containers and many virtual machines have no hardware counters; callgrind
//! then costs 20-100x the program's CPU time, where `perf` costs next to nothing.
//!
//! An engine is run as a program: a program's command under the counter, an internal engine
//! as `gamebench solve GAME -e NAME` (this executable) reading the file on its stdin, so its
//! count includes that process's start-up, which the comparison takes out like a program's.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::engines::EngineSpec;
use crate::external::{self, External, ExternalError, RunLimits, Shell};
use crate::game::Game;

/// The wall-time limit of the probe of each counter.
const PROBE_TIMEOUT: Duration = Duration::from_secs(30);

/// The counter used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Hardware counters: `perf stat -e instructions:u`.
    Perf,
    /// `valgrind --tool=callgrind`.
    Callgrind,
}

impl Kind {
    /// What the summary says of the counter and its cost.
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Perf => {
                "hardware counters (perf stat -e instructions:u): user-space instructions, at next to no cost"
            }
            Kind::Callgrind => {
                "valgrind --tool=callgrind (no hardware counters on this machine): every instruction executed, each run 20-100x slower than the program alone"
            }
        }
    }
}

/// Why instructions could not be counted.
#[derive(Debug, thiserror::Error)]
pub enum CountError {
    #[error(
        "no instruction counter: this machine has no hardware counters (perf stat -e instructions:u) and valgrind cannot be run; install valgrind"
    )]
    NoCounter,
    #[error("{0}")]
    Run(ExternalError),
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    #[error("the counter gave no count ({0})")]
    NoCount(String),
    #[error("the path of this executable: {0}")]
    Exe(std::io::Error),
}

/// Counts the instructions of runs, with the files the counter writes in a folder of its own
/// (removed when dropped).
pub struct Counter {
    pub kind: Kind,
    dir: PathBuf,
}

impl Drop for Counter {
    fn drop(&mut self) {
        // Best effort: a folder left in the temporary directory is harmless.
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `text` as one word of `sh`: single-quoted, its own single quotes written `'\''`.
pub fn sh_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The count `perf stat -x,` wrote (`COUNT,,instructions:u,...`), `None` when the counter is
/// not supported or not counted.
pub fn perf_count(text: &str) -> Option<u64> {
    text.lines()
        .filter(|l| l.contains("instructions"))
        .find_map(|l| l.split(',').next()?.trim().parse().ok())
}

/// The total of one callgrind output file: its `totals:` line, else its `summary:` line.
pub fn callgrind_count(text: &str) -> Option<u64> {
    let line = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
    };
    line("totals:").or_else(|| line("summary:"))
}

impl Counter {
    /// Probes the counters (hardware first) and makes the output folder.
    pub fn new() -> Result<Counter, CountError> {
        let perf = external::run_shell(
            "perf stat -x, -o /dev/stdout -e instructions:u true",
            b"",
            PROBE_TIMEOUT,
        );
        let kind = if perf.is_ok_and(|r| perf_count(&String::from_utf8_lossy(&r.stdout)).is_some())
        {
            Kind::Perf
        } else if external::run_shell("valgrind --version", b"", PROBE_TIMEOUT).is_ok() {
            Kind::Callgrind
        } else {
            return Err(CountError::NoCounter);
        };
        let dir = std::env::temp_dir().join(format!("gamebench-count-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| CountError::Io(dir.display().to_string(), e))?;
        Ok(Counter { kind, dir })
    }

    /// The command of `engine` on `game`'s judge input read from stdin: a program's own, an
    /// internal engine's `gamebench solve`.
    fn command_of(game: &dyn Game, engine: &EngineSpec) -> Result<External, CountError> {
        if let Some(program) = engine.program() {
            return Ok(program.clone());
        }
        let exe = std::env::current_exe().map_err(CountError::Exe)?;
        Ok(External {
            name: engine.name().to_string(),
            command: format!(
                "{} solve {} -e {}",
                sh_quote(&exe.to_string_lossy()),
                game.name(),
                sh_quote(engine.name())
            ),
            shell: Shell::default(),
        })
    }

    /// `engine`'s command on `game` wrapped in the counter, its output into `out`.
    fn wrapped(
        &self,
        game: &dyn Game,
        engine: &EngineSpec,
        out: &Path,
    ) -> Result<External, CountError> {
        let inner = Counter::command_of(game, engine)?;
        let out = sh_quote(&out.to_string_lossy());
        let prefix = match self.kind {
            Kind::Perf => format!("perf stat -x, -e instructions:u -o {out} --"),
            Kind::Callgrind => format!(
                "valgrind -q --tool=callgrind --trace-children=yes --callgrind-out-file={out}.%p"
            ),
        };
        let command = match &inner.shell {
            Shell::Program(sh) => format!("{prefix} {sh} -c {}", sh_quote(&inner.command)),
            Shell::None => format!("{prefix} {}", inner.command),
        };
        Ok(External {
            name: inner.name,
            command,
            shell: Shell::default(),
        })
    }

    /// The instructions of one run of `engine` (on `game`) on `input` under `limits`; when
    /// `any_exit`, a run that exits with an error is still counted (an input of no case).
    pub fn count(
        &self,
        game: &dyn Game,
        engine: &EngineSpec,
        input: &[u8],
        limits: &RunLimits,
        any_exit: bool,
    ) -> Result<u64, CountError> {
        let io = |e| CountError::Io(self.dir.display().to_string(), e);
        for entry in std::fs::read_dir(&self.dir).map_err(io)? {
            std::fs::remove_file(entry.map_err(io)?.path()).map_err(io)?;
        }
        let program = self.wrapped(game, engine, &self.dir.join("count"))?;
        match external::run(&program, input, limits) {
            Ok(_) => {}
            Err(e @ ExternalError::Failed { .. }) if any_exit && !e.cannot_start() => {}
            Err(e) => return Err(CountError::Run(e)),
        }
        let mut total = None::<u64>;
        for entry in std::fs::read_dir(&self.dir).map_err(io)? {
            let path = entry.map_err(io)?.path();
            let text = std::fs::read_to_string(&path).map_err(io)?;
            let n = match self.kind {
                Kind::Perf => perf_count(&text),
                Kind::Callgrind => callgrind_count(&text),
            };
            if let Some(n) = n {
                total = Some(total.unwrap_or(0).saturating_add(n));
            }
        }
        total.ok_or(CountError::NoCount(program.command))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_read_from_each_counters_output() {
        let perf = "# started on Sat Nov 28\n\n123456,,instructions:u,1000,100.00,,\n";
        assert_eq!(perf_count(perf), Some(123_456));
        assert_eq!(
            perf_count("<not supported>,,instructions:u,0,100.00,,\n"),
            None
        );
        let cg =
            "version: 1\ncmd: ./spin\nevents: Ir\nfn=main\n3 5\nsummary: 98765\ntotals: 98765\n";
        assert_eq!(callgrind_count(cg), Some(98_765));
        assert_eq!(callgrind_count("events: Ir\nsummary: 42\n"), Some(42));
        assert_eq!(callgrind_count("events: Ir\n"), None);
    }

    #[test]
    fn a_word_is_quoted_for_sh() {
        assert_eq!(sh_quote("a b"), "'a b'");
        assert_eq!(sh_quote("it's"), r"'it'\''s'");
    }
}
