//! The proof mode on the original game's five Impossible levels 003 (par 39), 015 (33), 033
//! (37), 037 (40) and 044 (41), when the GPL level packs are present (they are not bundled):
//! ignored, since even the short proof takes a minute or more of both cores, the A* searches
//! for the minimum solutions five to ten minutes and 12 to 15 GB each, and the sweeps to disk
//! (`--scratch`, 015 and 037) half an hour to an hour and a half each. Run one at a time:
//! `cargo test --release --test integration -- --ignored vexed_proof:: --test-threads 1`. The sweeps write
//! their pending boards under `VEXED_SCRATCH` (default: the system's temporary folder; up to
//! 8 GB for 037, 21 GB for 015).
//!
//! `VEXED_LEVELS` names the packs' folder (default `../shared/vexed-levels`); the test skips
//! when `impossible-pack.in` is not there. `VEXED_PROOF_CAP` is the cap of moves (default 31:
//! about 16 million states, a GB); 36 (par - 1) is the full proof, which needs a long run and
//! `VEXED_PROOF_MB` of memory (default 14,000).

use std::path::PathBuf;

use gamebench::game::{Budget, Rules, Verdict};
use gamebench::games::vexed::{Vexed, bitset};

/// The level of the capped proof, and the pack the levels are in.
const LEVEL: &str = "IMPOSSIBLE-033-natto";
const PACK: &str = "impossible-pack.in";
/// The default cap: below K >= 34, which a minute proves without the proof mode.
const DEFAULT_CAP: u64 = 31;
/// The default memory of the search, in MB.
const DEFAULT_MB: u64 = 14_000;
/// Memory of the searches that find the minimum solutions (their peaks are about 12 and
/// 15 GB).
const MINIMUM_MB: u64 = 20_000;
/// Threads of the search: the machine's two cores.
const THREADS: u64 = 2;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Level `name` from the packs' folder, or `None` (after saying so) when the packs are absent.
fn level(name: &str) -> Option<gamebench::games::vexed::Puzzle> {
    let root = std::env::var("VEXED_LEVELS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/vexed-levels")
        });
    let path = root.join(PACK);
    let Ok(bytes) = std::fs::read(&path) else {
        println!("{} not found, skipping", path.display());
        return None;
    };
    let parsed = Vexed::parse(&bytes, &gamebench::game::Reading::STATEMENT);
    let puzzle = parsed
        .into_iter()
        .filter_map(|p| p.case.ok())
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("{}: no level {name}", path.display()));
    Some(puzzle)
}

/// The budget of a search capped at `cap` moves with `mb` MB.
fn capped(cap: u64, mb: u64) -> Budget {
    let budget = Budget::from_figures(None, None, Some(mb), THREADS).expect("a valid budget");
    Budget {
        max_moves: Some(cap),
        ..budget
    }
}

/// Level `name` is solved in `minimum` moves by A* capped at `cap` moves, and the checker
/// replays the solution. A* with an admissible bound returns a minimum solution: none is
/// shorter.
fn minimum_is(name: &str, cap: u64, minimum: usize) {
    let Some(puzzle) = level(name) else { return };
    let budget = capped(cap, env_or("VEXED_PROOF_MB", MINIMUM_MB));
    solved_in(&puzzle, &budget, minimum);
}

/// `puzzle` is solved in `minimum` moves within `budget`, and the checker replays the moves.
fn solved_in(puzzle: &gamebench::games::vexed::Puzzle, budget: &Budget, minimum: usize) {
    let name = &puzzle.name;
    let outcome = bitset::solve(puzzle, budget).expect("the level is a valid puzzle");
    let moves = outcome.answer.expect("a solution of at most the cap");
    assert_eq!(moves.len(), minimum);
    let out = gamebench::games::vexed::format_solution(name, &moves);
    assert_eq!(
        gamebench::games::vexed::check_output(puzzle, &out, None),
        Ok(())
    );
}

/// The minimum is par: 37 moves. About 5 minutes and 12 GB.
#[test]
#[ignore]
fn impossible_033_is_solved_in_its_par_of_37_moves() {
    minimum_is("IMPOSSIBLE-033-natto", 37, 37);
}

/// The minimum is par: 41 moves. About 10 minutes and 15 GB.
#[test]
#[ignore]
fn impossible_044_is_solved_in_its_par_of_41_moves() {
    minimum_is("IMPOSSIBLE-044-beetroot", 41, 41);
}

/// The minimum is 36 moves, three below par (39). About 5 minutes and 13 GB.
#[test]
#[ignore]
fn impossible_003_is_solved_in_36_moves_below_its_par_of_39() {
    minimum_is("IMPOSSIBLE-003-clay", 39, 36);
}

#[test]
#[ignore]
fn impossible_033_has_no_solution_of_at_most_the_cap() {
    let Some(puzzle) = level(LEVEL) else { return };
    let puzzle = &puzzle;
    let cap: u64 = env_or("VEXED_PROOF_CAP", DEFAULT_CAP);
    let budget = capped(cap, env_or("VEXED_PROOF_MB", DEFAULT_MB));
    let started = std::time::Instant::now();
    let outcome = bitset::solve(puzzle, &budget).expect("the level is a valid puzzle");
    println!(
        "{LEVEL}, --max-moves {cap}: {:?}, at least {:?}, {} states, {:.1} s",
        outcome.verdict,
        outcome.at_least,
        outcome.work,
        started.elapsed().as_secs_f64()
    );
    // Its minimum is 37 moves (the other test): a cap of 37 or more finds a solution, which
    // the replaying checker checks before it is believed; a lower cap proves "more than cap".
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

/// Level `name` is solved in `minimum` moves by the sweep to disk capped at `cap` moves (the
/// proof mode's search beyond memory, `--scratch`), and the checker replays the solution. The
/// sweep gives every board within the cap its exact depth, so the solution is a minimum.
fn minimum_by_sweep_is(name: &str, cap: u64, minimum: usize) {
    let Some(puzzle) = level(name) else { return };
    let root = std::env::var("VEXED_SCRATCH")
        .map(PathBuf::from)
        .unwrap_or_else(|_| std::env::temp_dir());
    let scratch = tempfile::tempdir_in(&root).expect("a scratch folder");
    let budget = Budget {
        scratch: Some(gamebench::game::Scratch::new(scratch.path().to_path_buf())),
        ..capped(cap, env_or("VEXED_PROOF_MB", MINIMUM_MB))
    };
    solved_in(&puzzle, &budget, minimum);
    assert_eq!(
        std::fs::read_dir(scratch.path()).unwrap().count(),
        0,
        "the sweep left its folder behind"
    );
}

/// The minimum is 38 moves, two below par (40). About 35 minutes, 6 GB and 8 GB of scratch.
#[test]
#[ignore]
fn impossible_037_is_solved_in_38_moves_below_its_par_of_40() {
    minimum_by_sweep_is("IMPOSSIBLE-037-cho-do-fu", 39, 38);
}

/// The minimum is 32 moves, one below par (33). About 75 minutes, 7 GB and 21 GB of scratch.
#[test]
#[ignore]
fn impossible_015_is_solved_in_32_moves_below_its_par_of_33() {
    minimum_by_sweep_is("IMPOSSIBLE-015-limburger", 32, 32);
}
