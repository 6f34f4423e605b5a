//! The limits an engine respects on one case ([`Budget`]): states, wall time, memory, threads.
//!
//! Simulation games ignore them; search games (Vexed) stop and report
//! [`crate::game::Verdict::Budget`] when one runs out. The command-line options that set a
//! budget live at the CLI edge; this is the typed value the library takes.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A flag that, once set (by a signal), stops a search as its deadline would: the case ends
/// with [`crate::game::Verdict::Budget`] and the bound it had proven. Equal when it is the same
/// flag.
#[derive(Clone)]
pub struct Stop(pub Arc<AtomicBool>);

impl Stop {
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

impl PartialEq for Stop {
    fn eq(&self, other: &Stop) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Stop({})", self.is_set())
    }
}

/// Limits an engine must respect on one case. Simulation games ignore them; search games
/// (Vexed) stop and report [`Verdict::Budget`] when one runs out.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Budget {
    /// Maximum number of search states expanded for one case.
    pub max_states: Option<u64>,
    /// Wall-clock limit for one case.
    pub time_limit: Option<Duration>,
    /// Bytes a search may hold for one case (Vexed); within it an engine searches with less
    /// memory (and more time) or stops with [`Verdict::Budget`]. `None`: the engine's default.
    pub memory: Option<u64>,
    /// Threads one search may use (Vexed: a deep search expands its nodes in parallel
    /// batches), at least 1. The answer is the same whatever the count.
    pub threads: usize,
    /// Solutions longer than this many moves are not looked for (Vexed's proof mode): the
    /// engine finds a minimum solution of at most that many moves, or proves there is none
    /// ([`crate::game::Verdict::Budget`] with `at_least` above it). `None`: no such bound.
    pub max_moves: Option<u64>,
    /// Ends the search early when set (`levels` on a first SIGINT or SIGTERM), as the time
    /// limit would. `None`: nothing stops it but its limits.
    pub stop: Option<Stop>,
    /// Disk space for a proof search that outgrows memory (Vexed's `--scratch`, used only
    /// with `max_moves`): the engine keeps its pending states in files under a folder of its
    /// own inside it, removed when the search ends. `None`: the search stays in memory.
    pub scratch: Option<Scratch>,
}

/// The folder a search may write its scratch files in (`--scratch DIR`), shared by every
/// search the budget is cloned into; equal when the paths are.
#[derive(Clone, Debug, PartialEq)]
pub struct Scratch(pub Arc<Path>);

impl Scratch {
    /// The scratch folder `dir`.
    pub fn new(dir: std::path::PathBuf) -> Scratch {
        Scratch(dir.into())
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Budget {
    /// No limit at all, and one thread per search.
    pub const UNLIMITED: Budget = Budget {
        max_states: None,
        time_limit: None,
        memory: None,
        threads: 1,
        max_moves: None,
        stop: None,
        scratch: None,
    };

    /// The instant after which a search started at `start` must give up, if any.
    pub fn deadline(&self, start: Instant) -> Option<Instant> {
        self.time_limit.map(|limit| start + limit)
    }
}

/// Bytes in one MB of `--memory` (MiB, as `/usr/bin/time` and `/proc` count).
pub const BYTES_PER_MB: u64 = 1 << 20;

/// A `--time-limit` that is not a positive number of seconds.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("--time-limit must be a positive number of seconds, not {0}")]
pub struct BadTimeLimit(pub f64);

impl Budget {
    /// The budget the command-line figures ask for: `time_limit` in seconds (positive and
    /// finite), `memory` in MB ([`BYTES_PER_MB`]), at least one thread.
    pub fn from_figures(
        max_states: Option<u64>,
        time_limit: Option<f64>,
        memory_mb: Option<u64>,
        threads: u64,
    ) -> Result<Budget, BadTimeLimit> {
        let time_limit = match time_limit {
            Some(s) if !(s.is_finite() && s > 0.0) => return Err(BadTimeLimit(s)),
            Some(s) => Duration::try_from_secs_f64(s)
                .map(Some)
                .map_err(|_| BadTimeLimit(s))?,
            None => None,
        };
        Ok(Budget {
            max_states,
            time_limit,
            memory: memory_mb.map(|mb| mb.saturating_mul(BYTES_PER_MB)),
            threads: usize::try_from(threads).unwrap_or(1).max(1),
            max_moves: None,
            stop: None,
            scratch: None,
        })
    }
}
