//! The `bitset` engine: exact shortest solutions over bit-plane states.
//!
//! - State: [`State`], `P` bit-sliced letter planes of one `u128` each (see [`super::planes`]);
//!   `P` is a const generic chosen from the number of letters, so a state is 16 to 80 bytes.
//! - Lower bound: the admissible per-letter bound of [`super::bound`] (at least 1 on a board
//!   with blocks); a letter that can never be cleared makes a board dead.
//! - Search: best-first A* ([`super::astar`]), which expands each board once and proves
//!   unsolvability by exhausting the live boards. When its memory budget
//!   ([`astar::MEMORY_BUDGET`]) would be exceeded, the rest of the budget goes to iterative
//!   deepening with a bounded transposition table ([`super::ida`]), which needs little memory
//!   but re-expands boards. Either way the answer is a minimum solution; no depth cap.

use super::astar::{self, Ended};
use super::ida;
use super::planes::{Geometry, State, planes_needed};
use super::{Meter, Puzzle, Solution};
use crate::game::{Budget, CaseError, Outcome, Verdict};

thread_local! {
    /// The geometry of the puzzle a thread is solving, reset for each puzzle
    /// ([`Geometry::reset`]): building one from scratch (10 KB of masks) is a noticeable part
    /// of a small puzzle's time.
    static GEOMETRY: std::cell::RefCell<Option<Geometry>> = const { std::cell::RefCell::new(None) };
}

/// Solves one puzzle.
pub fn solve(puzzle: &Puzzle, budget: &Budget) -> Result<Outcome<Solution>, CaseError> {
    solve_within(puzzle, budget, astar::MEMORY_BUDGET)
}

/// [`solve`] with `memory` bytes for A* instead of [`astar::MEMORY_BUDGET`] (tests use a tiny
/// one to exercise the deepening fallback).
pub fn solve_within(
    puzzle: &Puzzle,
    budget: &Budget,
    memory: usize,
) -> Result<Outcome<Solution>, CaseError> {
    let start = puzzle.start();
    if start.is_clear() {
        return Ok(Outcome::solved(Some(Vec::new()), 0));
    }
    let (answer, verdict, work) = GEOMETRY.with(|geo| {
        let mut geo = geo.borrow_mut();
        let geo = match geo.as_mut() {
            Some(geo) => {
                geo.reset(&start);
                geo
            }
            None => geo.insert(Geometry::new(&start)),
        };
        let meter = Meter::new(budget);
        match planes_needed(geo.letters.len()) {
            1 => search(geo, memory, State::<1>::new(geo, &start), meter),
            2 => search(geo, memory, State::<2>::new(geo, &start), meter),
            3 => search(geo, memory, State::<3>::new(geo, &start), meter),
            4 => search(geo, memory, State::<4>::new(geo, &start), meter),
            _ => search(geo, memory, State::<5>::new(geo, &start), meter),
        }
    });
    Ok(Outcome {
        answer,
        verdict,
        work,
    })
}

/// A* first; deepening with what is left of the budget if A* runs out of memory.
fn search<const P: usize>(
    geo: &Geometry,
    memory: usize,
    start: State<P>,
    meter: Meter,
) -> (Solution, Verdict, u64) {
    match astar::search(geo, start, meter, memory) {
        Ended::Done(answer, verdict, work) => (answer, verdict, work),
        Ended::OutOfMemory(meter) => ida::search(geo, start, meter),
    }
}
