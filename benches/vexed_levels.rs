//! Report (not a criterion bench): the default Vexed engine on the original level packs, as
//! `gamebench levels` makes it, with the settings of a quick regression check.
//!
//! Reads the packs in the folder named by `VEXED_LEVELS` (default `../shared/vexed-levels`,
//! outside the repository: the GPL level data is not ours to commit), solves every level with
//! `VEXED_LEVEL_SECONDS` per level (default 1 s) on one thread, and prints per pack how many
//! were proven minimal and how K compares with par. Every solution is replayed by the checker
//! (the library does it); the bench fails if any level errs. Skips cleanly when the folder is
//! absent; `VEXED_PACKS=classic-levels,...` limits the packs. Run:
//! `cargo bench --bench vexed_levels`. The full report is `gamebench levels DIR`.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use gamebench::game::{Budget, Rules};
use gamebench::games::vexed::Vexed;
use gamebench::games::vexed::levels::{self, LevelStatus, Settings};

/// The allocator of the `gamebench` binary, so that the times are those `gamebench levels`
/// would take (see `benches/README.md`, Vexed).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let root = std::env::var("VEXED_LEVELS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/vexed-levels")
        });
    if !root.is_dir() {
        println!("vexed_levels: {} not found, skipping", root.display());
        return;
    }
    let seconds: f64 = std::env::var("VEXED_LEVEL_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let only: Vec<String> = std::env::var("VEXED_PACKS")
        .map(|s| s.split(',').map(str::to_string).collect())
        .unwrap_or_default();
    let packs = levels::discover(&root, &only).expect("readable level packs");
    let settings = Settings {
        engine: Vexed::ENGINES
            .iter()
            .find(|e| e.name == Vexed::DEFAULT_ENGINE)
            .expect("registered"),
        budget: Budget {
            max_states: None,
            time_limit: Some(Duration::from_secs_f64(seconds)),
            memory: None,
            threads: 1,
            max_moves: None,
            stop: None,
            scratch: None,
        },
        threads: Some(1),
        prove_below_par: false,
    };
    let results =
        levels::run(&packs, &settings, &AtomicBool::new(false), &|_| {}).expect("levels run");
    println!("budget {seconds} s per level, single thread\n");
    println!(
        "| pack | levels | minimal | budget | K < par | K = par | K > par | total s | max s |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for pack in levels::summarize(&results) {
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {:.2} | {:.3} |",
            pack.name,
            pack.levels,
            pack.minimal,
            pack.budget,
            pack.below_par,
            pack.at_par,
            pack.above_par,
            pack.seconds,
            pack.max_seconds
        );
    }
    let errors: Vec<String> = results
        .iter()
        .filter(|l| l.status == LevelStatus::Error)
        .map(|l| format!("{} ({}): {}", l.name, l.pack, l.detail))
        .collect();
    assert!(errors.is_empty(), "levels in error:\n{}", errors.join("\n"));
}
