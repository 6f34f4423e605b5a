//! The proof mode on the original game's IMPOSSIBLE-033 (par 37), when the GPL level packs are
//! present (they are not bundled): ignored, since even its short proof takes a minute or more
//! of both cores. Run: `cargo test --release --test vexed_proof -- --ignored`.
//!
//! `VEXED_LEVELS` names the packs' folder (default `../shared/vexed-levels`); the test skips
//! when `impossible-pack.in` is not there. `VEXED_PROOF_CAP` is the cap of moves (default 31:
//! about 16 million states, a GB); 36 (par - 1) is the full proof, which needs a long run and
//! `VEXED_PROOF_MB` of memory (default 14,000).

use std::path::PathBuf;

use gamebench::game::{Budget, Rules, Verdict};
use gamebench::games::vexed::{Vexed, bitset};

/// The level, and the pack it is in.
const LEVEL: &str = "IMPOSSIBLE-033-natto";
const PACK: &str = "impossible-pack.in";
/// The default cap: below K >= 34, which a minute proves without the proof mode.
const DEFAULT_CAP: u64 = 31;
/// The default memory of the search, in MB.
const DEFAULT_MB: u64 = 14_000;
/// Threads of the search: the machine's two cores.
const THREADS: u64 = 2;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

#[test]
#[ignore]
fn impossible_033_has_no_solution_of_at_most_the_cap() {
    let root = std::env::var("VEXED_LEVELS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/vexed-levels")
        });
    let path = root.join(PACK);
    let Ok(bytes) = std::fs::read(&path) else {
        println!("{} not found, skipping", path.display());
        return;
    };
    let parsed = Vexed::parse(&bytes);
    let puzzle = parsed
        .iter()
        .filter_map(|p| p.case.as_ref().ok())
        .find(|p| p.name == LEVEL)
        .unwrap_or_else(|| panic!("{}: no level {LEVEL}", path.display()));
    let cap: u64 = env_or("VEXED_PROOF_CAP", DEFAULT_CAP);
    let budget = Budget::from_figures(
        None,
        None,
        Some(env_or("VEXED_PROOF_MB", DEFAULT_MB)),
        THREADS,
    )
    .expect("a valid budget");
    let budget = Budget {
        max_moves: Some(cap),
        ..budget
    };
    let started = std::time::Instant::now();
    let outcome = bitset::solve(puzzle, &budget).expect("the level is a valid puzzle");
    println!(
        "{LEVEL}, --max-moves {cap}: {:?}, at least {:?}, {} states, {:.1} s",
        outcome.verdict,
        outcome.at_least,
        outcome.work,
        started.elapsed().as_secs_f64()
    );
    // kVexed's best known solution has 44 moves and par is 37: a solution within the cap would
    // be news, and is checked by the replaying checker before it is believed.
    if let Some(moves) = &outcome.answer {
        let out = gamebench::games::vexed::format_solution(LEVEL, moves);
        assert_eq!(
            gamebench::games::vexed::check_output(puzzle, &out, None),
            Ok(())
        );
        assert!(moves.len() as u64 <= cap);
        return;
    }
    assert_eq!(outcome.verdict, Verdict::Budget);
    let least = outcome.at_least.expect("a proof says its bound");
    assert!(least > cap, "only K >= {least} proven");
}
