//! The sweep (`--scratch`, `bitset::sweep`) against A*'s proof mode, the oracle: on every
//! bundled puzzle whose boards fit two words and on a few hundred seeded random boards, with
//! the cap at the minimum A* finds, one below it and three below: the same verdict, the same
//! minimum, the same proven bound, and a solution the checker accepts. Small memories make the
//! buffers go to disk; one and two threads give the same outcome, expansions included. Every
//! search removes its folder.

use super::stores::{compact_fits, random_puzzle};
use super::*;
use crate::game::{Outcome, Scratch};
use crate::games::vexed::bitset;
use crate::games::vexed::test_rng::Rng;

/// Expansions A* may take to find a puzzle's minimum (the bundled sets take far fewer).
const ORACLE_STATES: u64 = 400_000;
/// A memory small enough that most searches of the bundled sets flush their buffers to
/// files: a quarter of it buffers about 2,000 records.
const SMALL_MEMORY: u64 = 256 << 10;
/// The random boards' small memory: some have slide classes of thousands of boards.
const RANDOM_MEMORY: u64 = 4 << 20;

/// A scratch folder of this test process for test `name` (tests run at once: each looks at
/// its own folder only).
fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!(
        "gamebench-sweep-test-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    Scratch::new(dir)
}

/// What two searches must agree on: the verdict, the solution's length and the proven bound.
fn verdict(o: &Outcome<Solution>) -> (Verdict, Option<usize>, Option<u64>) {
    (o.verdict, o.answer.as_ref().map(Vec::len), o.at_least)
}

/// A* and the sweep on `puzzle` capped at `cap`: `Err` says what differs.
fn compare(puzzle: &Puzzle, cap: u64, (scratch, small): (Scratch, u64)) -> Result<(), String> {
    let budget = Budget {
        max_moves: Some(cap),
        ..Budget::UNLIMITED
    };
    let astar = bitset::solve(puzzle, &budget).map_err(|e| e.to_string())?;
    let swept = |threads, memory| {
        let budget = Budget {
            threads,
            memory: Some(memory),
            scratch: Some(scratch.clone()),
            ..budget.clone()
        };
        bitset::solve(puzzle, &budget).map_err(|e| format!("{}: {e}", puzzle.name))
    };
    let one = swept(1, small)?;
    let context = || format!("{} capped at {cap}\n{}", puzzle.name, puzzle.grid.draw());
    if verdict(&one) != verdict(&astar) {
        return Err(format!(
            "{}: A* {:?}, sweep {:?}",
            context(),
            verdict(&astar),
            verdict(&one)
        ));
    }
    if let Some(moves) = &one.answer {
        let out = format_solution(&puzzle.name, moves);
        check_output(puzzle, &out, None).map_err(|e| format!("{}: {e:?}", context()))?;
    }
    for (threads, memory) in [(2, small), (1, 64 << 20)] {
        let other = swept(threads, memory)?;
        let seen = |o: &Outcome<Solution>| (verdict(o), o.answer.clone(), o.work);
        if seen(&other) != seen(&one) {
            return Err(format!(
                "{}: {threads} thread(s), {memory} bytes: {:?} against {:?}",
                context(),
                seen(&other),
                seen(&one)
            ));
        }
    }
    Ok(())
}

/// The minimum A* finds for `puzzle` (within [`ORACLE_STATES`]), then [`compare`] at it, one
/// below and three below; a puzzle without a solution is compared at a cap of 12. Whether it
/// was compared (its boards fit the sweep).
fn compare_around_minimum(puzzle: &Puzzle, scratch: (Scratch, u64)) -> Result<bool, String> {
    if !compact_fits(puzzle) {
        return Ok(false);
    }
    let budget = Budget {
        max_states: Some(ORACLE_STATES),
        ..Budget::UNLIMITED
    };
    let oracle = bitset::solve(puzzle, &budget).map_err(|e| e.to_string())?;
    match (oracle.verdict, &oracle.answer) {
        (Verdict::Solved, Some(moves)) => {
            let minimum = moves.len() as u64;
            for cap in [
                minimum,
                minimum.saturating_sub(1),
                minimum.saturating_sub(3),
            ] {
                compare(puzzle, cap, scratch.clone())?;
            }
            stopped_early(puzzle, minimum, scratch.0.clone())?;
        }
        (Verdict::Unsolved, _) => compare(puzzle, 12, scratch)?,
        _ => return Ok(false),
    }
    Ok(true)
}

/// The sweep capped at `minimum` and stopped by `--max-states` after a third, then two thirds,
/// of its expansions: status `budget` with a bound that is no more than the minimum (it may
/// be anywhere below: the sweep does not go by increasing `f`).
fn stopped_early(puzzle: &Puzzle, minimum: u64, scratch: Scratch) -> Result<(), String> {
    let budget = Budget {
        max_moves: Some(minimum),
        scratch: Some(scratch),
        ..Budget::UNLIMITED
    };
    let full = bitset::solve(puzzle, &budget).map_err(|e| e.to_string())?;
    for part in [1, 2] {
        let max_states = full.work * part / 3;
        if max_states == 0 {
            continue;
        }
        let budget = Budget {
            max_states: Some(max_states),
            ..budget.clone()
        };
        let o = bitset::solve(puzzle, &budget).map_err(|e| e.to_string())?;
        let fine = o.verdict == Verdict::Budget
            && o.at_least.is_some_and(|bound| bound <= minimum)
            && o.work == max_states;
        if !fine {
            return Err(format!(
                "{} capped at {minimum}, stopped after {max_states}: {:?}",
                puzzle.name,
                verdict(&o)
            ));
        }
    }
    Ok(())
}

#[test]
fn the_sweep_agrees_with_astar_on_the_bundled_sets() {
    let scratch = scratch("bundled");
    let mut compared = 0;
    for (input, _) in BUNDLED_SETS {
        for puzzle in puzzles(input) {
            compared += usize::from(
                compare_around_minimum(&puzzle, (scratch.clone(), SMALL_MEMORY)).unwrap(),
            );
        }
    }
    for puzzle in puzzles(SAMPLE_IN).iter().chain(&puzzles(TRAPS_IN)) {
        compared +=
            usize::from(compare_around_minimum(puzzle, (scratch.clone(), SMALL_MEMORY)).unwrap());
    }
    assert!(compared > 300, "only {compared} puzzles compared");
    let left = std::fs::read_dir(scratch.path()).unwrap().count();
    assert_eq!(left, 0, "a search left its folder behind");
    std::fs::remove_dir(scratch.path()).unwrap();
}

/// Random boards the sweep is compared with A* on, in two tests (the first and the second half
/// of one seeded stream) so that the test threads share them.
const RANDOM_BOARDS: usize = 300;

#[test]
fn the_sweep_agrees_with_astar_on_random_boards() {
    sweep_agrees_on_random_boards(0..RANDOM_BOARDS / 2, "random");
}

#[test]
fn the_sweep_agrees_with_astar_on_more_random_boards() {
    sweep_agrees_on_random_boards(RANDOM_BOARDS / 2..RANDOM_BOARDS, "random-more");
}

/// Boards `boards` of the seeded stream: at least two thirds of them compared (the others
/// are beyond the small memory or have no solution to compare), and no folder left behind.
fn sweep_agrees_on_random_boards(boards: std::ops::Range<usize>, folder: &str) {
    let scratch = scratch(folder);
    let mut rng = Rng(0x5eed_5eeb);
    let mut compared = 0;
    for i in 0..boards.end {
        let puzzle = random_puzzle(&mut rng, i);
        if boards.contains(&i) {
            compared += usize::from(
                compare_around_minimum(&puzzle, (scratch.clone(), RANDOM_MEMORY)).unwrap(),
            );
        }
    }
    assert!(
        compared * 3 >= boards.len() * 2,
        "only {compared} of {} random boards compared",
        boards.len()
    );
    let left = std::fs::read_dir(scratch.path()).unwrap().count();
    assert_eq!(left, 0, "a search left its folder behind");
    std::fs::remove_dir(scratch.path()).unwrap();
}

/// A bucket larger than the memory allows is an error that says so, and the search's folder
/// is removed.
#[test]
fn a_bucket_beyond_the_memory_is_an_error() {
    let puzzle = puzzles(BUNDLED_SETS[0].0)
        .into_iter()
        .find(compact_fits)
        .expect("a hard puzzle that fits");
    let scratch = scratch("too-large");
    let budget = Budget {
        max_moves: Some(60),
        memory: Some(1),
        scratch: Some(scratch.clone()),
        ..Budget::UNLIMITED
    };
    let error = bitset::solve(&puzzle, &budget).unwrap_err();
    assert!(
        error.message.contains("more than 0.00 MB of --memory hold"),
        "{}",
        error.message
    );
    let left = std::fs::read_dir(scratch.path()).unwrap().count();
    assert_eq!(left, 0, "the search left its folder behind");
    std::fs::remove_dir(scratch.path()).unwrap();
}

/// A scratch folder that is not there: the error names the path.
#[test]
fn a_missing_scratch_folder_is_an_error_naming_it() {
    let puzzle = &puzzles(SAMPLE_IN)[1];
    let missing = std::env::temp_dir().join("gamebench-sweep-no-such-folder/inner");
    let budget = Budget {
        max_moves: Some(8),
        scratch: Some(Scratch::new(missing)),
        ..Budget::UNLIMITED
    };
    let error = bitset::solve(puzzle, &budget).unwrap_err();
    assert!(
        error
            .message
            .contains("gamebench-sweep-no-such-folder/inner"),
        "{}",
        error.message
    );
}
