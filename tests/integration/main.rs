//! The integration tests, gathered into one binary (as ripgrep keeps them): one module per
//! area, each driving the `gamebench` binary or the library end to end. One binary links once,
//! so a change to `src/` relinks one test program, not one per file. `common` holds the helpers
//! the modules share; `tests/programs/`, `tests/wrong/` and `tests/data/` hold the programs and
//! data they use.

mod common;

mod bounded_reads;
mod chromium;
mod cli;
mod clobber;
mod closed_pipes;
mod compare;
mod docs;
mod duet;
mod endless_line;
mod fair;
mod fuzz;
mod generators;
mod guide;
mod house;
mod hunt;
mod interop;
mod interrupts;
mod invoke;
mod invoke_report;
mod invoke_times;
mod journal_lock;
mod judge;
mod judge_parity;
mod landing;
mod layers;
mod missing_folders;
mod non_utf8;
mod nothing_lost;
mod package_advice;
mod package_data;
mod packages;
mod plots;
mod presentation;
mod programs;
mod report;
mod robustness;
mod samegame;
mod samegame_cpu;
mod shard;
mod shrink;
mod startup_out;
mod stats;
mod streaming;
mod streaming_check;
mod streaming_validate;
mod stress;
mod stress_kept;
mod summary;
mod sweep;
mod toy_game;
mod validate;
mod verdicts;
mod vexed_proof;
mod zero_pair;
