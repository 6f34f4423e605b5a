//! The reference engine: plain breadth-first search over whole boards.
//!
//! States are settled [`Grid`]s; each is expanded once, its moves generated blocks in row-major
//! order, left before right, and the first path found to each board is kept (the visited map
//! stores the parent and move). The goal is recognised when first generated, so K is the
//! minimum and the moves are those the sample output shows. No pruning and no lower bound: this
//! is the literal oracle the `bitset` engine is tested against.

use std::collections::HashMap;
use std::collections::VecDeque;

use super::grid::{Grid, Move};
use super::{Meter, Puzzle, Solution};
use crate::game::{Budget, CaseError, Outcome, Verdict};

/// Solves one puzzle by breadth-first search.
pub fn solve(puzzle: &Puzzle, budget: &Budget) -> Result<Outcome<Solution>, CaseError> {
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
    let mut queue = VecDeque::from([0usize]);
    while let Some(index) = queue.pop_front() {
        if !meter.tick() {
            return Ok(Outcome {
                answer: None,
                verdict: Verdict::Budget,
                work: meter.expanded,
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
            queue.push_back(child);
        }
    }
    Ok(Outcome {
        answer: None,
        verdict: Verdict::Unsolved,
        work: meter.expanded,
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
