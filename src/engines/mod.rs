//! The engines layer: which engines a command uses and the one way they are run. Above the
//! game contract (`game`, `games/`) and the leaves, below the runner and the commands (`run`,
//! `check`, `stress`, `hunt`, `sweep`).
//!
//! - [`spec`]: [`EngineSpec`] (a game's own engine, an external program, or any other
//!   [`Executor`]), resolving names to them once before any work, the per-game [`EngineTable`];
//! - [`executor`]: the [`Executor`] trait ("run this engine on these cases: outputs, times,
//!   resources") and its two implementations, internal engines ([`crate::game::EngineRef`]:
//!   warm-up, timed runs, short calls timed in batches, wall or thread CPU time) and programs
//!   ([`crate::external::External`]: whole files or case by case, under [`Limits`]);
//! - [`verdict`]: the one comparison of an output block with an expected one;
//! - [`startup`]: a program's start-up calibrated (the CPU time of runs that do no work), for
//!   callers that take it out of their times.
//!
//! Invariant: no code outside this folder tells internal engines from programs to run them;
//! it asks [`EngineSpec::executor`].

pub mod executor;
pub mod gencmd;
pub mod judge;
pub mod spec;
pub mod startup;
pub mod timing;
pub mod verdict;

pub use executor::{
    CaseRun, Clock, DEFAULT_TIMEOUT, Executor, Fault, FileJob, Limits, MAX_REPEATS, Plan, RunTimes,
    repeats_for, thread_cpu_time,
};
pub use spec::{ALL_ENGINES, EngineError, EngineSpec, EngineTable, resolve, resolve_internal};
pub use startup::{Startup, StartupError};
pub use timing::{MIN_TIMED_NS, REPEAT_BELOW_NS, Timing};
pub use verdict::judge_block;
