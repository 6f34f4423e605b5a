//! A*'s two ways of storing boards (planes, compact: `bitset::compact`) run the same search:
//! the same answer, move for move, the same verdict, the same count of expanded states and
//! the same proven bound, with and without a cap of moves, on the bundled hard and mixed
//! sets and on seeded random boards; so does the engine's switch from one to the other at the
//! first batch. The compact store must be the one used (its codec
//! fits), or the comparison would compare the planes with themselves.

use super::*;
use crate::games::vexed::bitset::compact::Codec;
use crate::games::vexed::bitset::planes::{Geometry, State, planes_needed};
use crate::games::vexed::bitset::{self, Boards};
use crate::games::vexed::test_rng::Rng;

/// Whether A*'s compact store takes `puzzle` (its codec fits two words).
pub(super) fn compact_fits(puzzle: &Puzzle) -> bool {
    let grid = puzzle.start();
    let geo = Geometry::new(&grid);
    let blocks = match planes_needed(geo.letters.len()) {
        0 => return false,
        1 => State::<1>::new(&geo, &grid).occupied().len(),
        2 => State::<2>::new(&geo, &grid).occupied().len(),
        3 => State::<3>::new(&geo, &grid).occupied().len(),
        4 => State::<4>::new(&geo, &grid).occupied().len(),
        _ => State::<5>::new(&geo, &grid).occupied().len(),
    };
    Codec::new(&geo, blocks as usize).fits::<2>()
}

/// Both stores on `puzzle` under `budget`: `Err` says what differs.
fn same_search(puzzle: &Puzzle, budget: &Budget) -> Result<Option<usize>, String> {
    let planes = bitset::solve_stored(puzzle, budget, Boards::Planes).map_err(|e| e.to_string())?;
    let compact =
        bitset::solve_stored(puzzle, budget, Boards::Compact).map_err(|e| e.to_string())?;
    let seen =
        |o: &crate::game::Outcome<Solution>| (o.verdict, o.answer.clone(), o.work, o.at_least);
    if seen(&planes) != seen(&compact) {
        return Err(format!(
            "{} with {:?} moves at most: planes {:?}, compact {:?}\n{}",
            puzzle.name,
            budget.max_moves,
            seen(&planes),
            seen(&compact),
            puzzle.grid.draw()
        ));
    }
    // In batches from the first expansion (a few nodes each): in proof mode the engine's
    // choice switches from planes to compact boards at the first batch.
    let batched = |boards| {
        bitset::solve_batched_stored(puzzle, budget, BATCH_NODES, boards).map_err(|e| e.to_string())
    };
    let in_batches = seen(&batched(Boards::Planes)?);
    for boards in [Boards::Auto, Boards::Compact] {
        let other = seen(&batched(boards)?);
        if other != in_batches {
            return Err(format!(
                "{} in batches with {:?} moves at most: planes {in_batches:?}, {boards:?} \
                 {other:?}\n{}",
                puzzle.name,
                budget.max_moves,
                puzzle.grid.draw()
            ));
        }
    }
    Ok(planes.answer.as_ref().map(Vec::len))
}

/// Nodes per batch in [`same_search`]: few, so that small searches take many batches.
const BATCH_NODES: usize = 8;

/// Both stores unbounded, then capped one and three moves below the minimum (a proof that
/// no shorter solution exists, with its bound) and at it.
fn same_searches(puzzle: &Puzzle, budget: Budget) -> Result<(), String> {
    let Some(minimum) = same_search(puzzle, &budget)? else {
        return Ok(());
    };
    for below in [1, 3, 0] {
        let cap = Budget {
            max_moves: Some(minimum.saturating_sub(below) as u64),
            ..budget.clone()
        };
        same_search(puzzle, &cap)?;
    }
    Ok(())
}

#[test]
fn both_stores_search_the_bundled_sets_alike() {
    let mut fitting = 0;
    for (input, _) in BUNDLED_SETS {
        for puzzle in puzzles(input) {
            fitting += usize::from(compact_fits(&puzzle));
            same_searches(&puzzle, Budget::UNLIMITED).unwrap();
        }
    }
    assert!(
        fitting > 300,
        "only {fitting} bundled puzzles fit the compact store"
    );
}

/// A seeded random board of 3 to 8 rows, 4 to 10 columns and 2 to 8 letters, settled.
pub(super) fn random_puzzle(rng: &mut Rng, i: usize) -> Puzzle {
    let (rows, cols) = (3 + rng.below(6), 4 + rng.below(7));
    let letters = 2 + rng.below(7);
    let cells = (0..rows * cols)
        .map(|_| match rng.below(10) {
            0 | 1 => b'#',
            2..=4 => b'-',
            _ => b'A' + rng.below(letters) as u8,
        })
        .collect();
    let mut grid = Grid::new(rows, cols, cells);
    grid.settle();
    Puzzle {
        name: format!("RANDOM-{i}"),
        grid,
    }
}

#[test]
fn both_stores_search_random_boards_alike() {
    const BOARDS: usize = 100;
    // Enough for most of them to be solved or proven unsolvable, and for the others to stop
    // at the same expansion.
    let budget = Budget {
        max_states: Some(20_000),
        ..Budget::UNLIMITED
    };
    let mut rng = Rng(0x0057_07e5);
    let mut fitting = 0;
    for i in 0..BOARDS {
        let puzzle = random_puzzle(&mut rng, i);
        fitting += usize::from(compact_fits(&puzzle));
        same_searches(&puzzle, budget.clone()).unwrap();
    }
    assert!(
        fitting >= 90,
        "only {fitting} random boards fit the compact store"
    );
}

/// A cap of moves too large for a narrow node (`astar::node::Narrow::holds`) keeps the wide
/// one, in the same search: the same answer, verdict, expansions and bound as at the largest
/// cap a narrow node holds (both caps far above every minimum here, so they drop the same
/// children), in batches from the first expansion so that the compact boards are taken.
#[test]
fn a_cap_beyond_the_narrow_node_keeps_the_wide_one_alike() {
    use crate::games::vexed::bitset::astar::node::Narrow;
    const NARROW_MOST: u64 = u8::MAX as u64;
    assert!(Narrow::<()>::holds(NARROW_MOST as u32));
    assert!(!Narrow::<()>::holds(NARROW_MOST as u32 + 1));
    let mut compared = 0;
    for (input, _) in BUNDLED_SETS {
        for puzzle in puzzles(input).into_iter().filter(compact_fits) {
            let seen = |cap: u64, boards| {
                let budget = Budget {
                    max_moves: Some(cap),
                    ..Budget::UNLIMITED
                };
                let o =
                    bitset::solve_batched_stored(&puzzle, &budget, BATCH_NODES, boards).unwrap();
                (o.verdict, o.answer, o.work, o.at_least)
            };
            let narrow = seen(NARROW_MOST, Boards::Auto);
            assert!(narrow.1.as_ref().is_none_or(|m| m.len() < 100));
            assert_eq!(
                narrow,
                seen(NARROW_MOST + 1, Boards::Auto),
                "{}",
                puzzle.name
            );
            assert_eq!(
                narrow,
                seen(NARROW_MOST + 1, Boards::Planes),
                "{}",
                puzzle.name
            );
            compared += 1;
        }
    }
    assert!(compared > 300, "only {compared} puzzles compared");
}
