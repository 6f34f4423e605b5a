//! The reference engine: plain breadth-first search over whole boards.
//!
//! States are settled [`Grid`]s; each is expanded once, its moves generated blocks in row-major
//! order, left before right, and the first path found to each board is kept (the visited map
//! stores the parent and move). The goal is recognised when first generated, so K is the
//! minimum and the moves are those the sample output shows. No pruning and no lower bound: this
//! is the literal oracle the `bitset` engine is tested against.
//!
//! A search the budget stops reports the length it proved no solution is shorter than: every
//! board of the popped board's depth `d` was made (and none was clear), so `d + 1`. With a cap
//! of `K` moves (`Budget::max_moves`) the search stops the same way when it pops a board of
//! depth `K`: every board of at most `K` moves was made, none clear, so at least `K + 1`.
//!
//! Memory: each board is kept twice (in the map and the list, about 300 bytes with both), so
//! past [`MAX_BOARDS`] boards the search stops with status `budget` even when no budget was
//! given: a deep level-pack puzzle would otherwise exhaust the machine's memory.

use std::collections::HashMap;
use std::collections::VecDeque;

use super::grid::{Grid, Move};
use super::{Meter, Puzzle, Solution};
use crate::game::{Budget, CaseError, Outcome, Verdict};

/// Most boards kept without a memory budget (about 1.2 GB).
pub const MAX_BOARDS: usize = 4_000_000;

/// Bytes one kept board takes, about (in the map and the list).
const BYTES_PER_BOARD: u64 = 300;

/// Solves one puzzle by breadth-first search, keeping at most [`MAX_BOARDS`] boards or, with a
/// memory budget, as many as fit in it.
pub fn solve(puzzle: &Puzzle, budget: &Budget) -> Result<Outcome<Solution>, CaseError> {
    let max_boards = budget.memory.map_or(MAX_BOARDS, |bytes| {
        usize::try_from(bytes / BYTES_PER_BOARD).unwrap_or(usize::MAX)
    });
    solve_within(puzzle, budget, max_boards)
}

/// [`solve`] keeping at most `max_boards` boards.
pub fn solve_within(
    puzzle: &Puzzle,
    budget: &Budget,
    max_boards: usize,
) -> Result<Outcome<Solution>, CaseError> {
    let start = puzzle.start();
    let mut meter = Meter::new(budget);
    if start.is_clear() {
        return Ok(Outcome::solved(Some(Vec::new()), 0));
    }
    // Index of each board in `boards`; `parents[i]` = (parent index, move) for i > 0.
    let mut seen: HashMap<Grid, usize> = HashMap::new();
    let mut boards: Vec<Grid> = vec![start.clone()];
    let mut parents: Vec<(usize, Option<Move>)> = vec![(0, None)];
    seen.insert(start, 0);
    let mut queue = VecDeque::from([(0usize, 0u64)]);
    while let Some((index, depth)) = queue.pop_front() {
        let capped = budget.max_moves.is_some_and(|k| depth >= k);
        if capped || !meter.tick() || boards.len() >= max_boards {
            // Boards are taken in order of depth, so every board of this one's depth was
            // made (their parents were all expanded), and none was clear.
            return Ok(Outcome {
                answer: None,
                verdict: Verdict::Budget,
                work: meter.expanded,
                at_least: Some(depth + 1),
            });
        }
        let board = boards[index].clone();
        for mv in board.moves() {
            let mut next = board.clone();
            next.play(&mv).expect("generated moves are legal");
            if seen.contains_key(&next) {
                continue;
            }
            let child = boards.len();
            let clear = next.is_clear();
            seen.insert(next.clone(), child);
            boards.push(next);
            parents.push((index, Some(mv)));
            if clear {
                return Ok(Outcome::solved(Some(path(&parents, child)), meter.expanded));
            }
            queue.push_back((child, depth + 1));
        }
    }
    Ok(Outcome {
        answer: None,
        verdict: Verdict::Unsolved,
        work: meter.expanded,
        at_least: None,
    })
}

/// The moves from the start to board `index`.
fn path(parents: &[(usize, Option<Move>)], mut index: usize) -> Vec<Move> {
    let mut moves = Vec::new();
    while let (parent, Some(mv)) = parents[index] {
        moves.push(mv);
        index = parent;
    }
    moves.reverse();
    moves
}
