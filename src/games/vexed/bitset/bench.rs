//! For benches only (`benches/vexed_push.rs`): the `bitset` move generator on a fixed list of
//! states, behind one narrow public type so that the planes themselves stay crate-private.

use std::collections::HashSet;
use std::hint::black_box;

use super::planes::{Geometry, State, planes_needed};
use crate::games::vexed::Puzzle;
use crate::games::vexed::grid::Grid;

/// Puzzles whose letters need `P` planes, each with its collected states.
type Boards<const P: usize> = Vec<(Geometry, Vec<State<P>>)>;

/// For benches: states reached breadth-first from puzzles, grouped by plane count, to time
/// [`State::children`] (every push, moved and settled) as the searches call it.
#[derive(Default)]
pub struct PushCorpus {
    p1: Boards<1>,
    p2: Boards<2>,
    p3: Boards<3>,
    p4: Boards<4>,
    p5: Boards<5>,
}

impl PushCorpus {
    /// For benches: the first `per_puzzle` states reached breadth-first from each puzzle's
    /// settled start (the start included; fewer when a puzzle has fewer).
    pub fn new(puzzles: &[Puzzle], per_puzzle: usize) -> PushCorpus {
        let mut corpus = PushCorpus::default();
        for puzzle in puzzles {
            let start = puzzle.start();
            match planes_needed(Geometry::new(&start).letters.len()) {
                0 => {} // no blocks: no pushes
                1 => add(&mut corpus.p1, &start, per_puzzle),
                2 => add(&mut corpus.p2, &start, per_puzzle),
                3 => add(&mut corpus.p3, &start, per_puzzle),
                4 => add(&mut corpus.p4, &start, per_puzzle),
                _ => add(&mut corpus.p5, &start, per_puzzle),
            }
        }
        corpus
    }

    /// For benches: every child of every state; returns the number of pushes.
    pub fn push_all(&self) -> u64 {
        push_all(&self.p1)
            + push_all(&self.p2)
            + push_all(&self.p3)
            + push_all(&self.p4)
            + push_all(&self.p5)
    }

    /// For benches: checks every child of every state against the literal rules
    /// ([`Grid::play`] of the same move); the first mismatch, drawn, as the error.
    pub fn verify(&self) -> Result<(), String> {
        verify(&self.p1)?;
        verify(&self.p2)?;
        verify(&self.p3)?;
        verify(&self.p4)?;
        verify(&self.p5)
    }
}

fn add<const P: usize>(boards: &mut Boards<P>, grid: &Grid, per_puzzle: usize) {
    let geo = Geometry::new(grid);
    let start = State::<P>::new(&geo, grid);
    let mut seen = HashSet::from([start]);
    let mut states = vec![start];
    let mut next = 0;
    while next < states.len() && states.len() < per_puzzle {
        let state = states[next];
        next += 1;
        for (_, _, child) in state.children(&geo) {
            if states.len() < per_puzzle && seen.insert(child) {
                states.push(child);
            }
        }
    }
    boards.push((geo, states));
}

fn push_all<const P: usize>(boards: &Boards<P>) -> u64 {
    let mut pushes = 0;
    for (geo, states) in boards {
        for state in states {
            for child in black_box(state).children(geo) {
                black_box(child);
                pushes += 1;
            }
        }
    }
    pushes
}

fn verify<const P: usize>(boards: &Boards<P>) -> Result<(), String> {
    for (geo, states) in boards {
        for state in states {
            let board = state.to_grid(geo);
            for (cell, dir, child) in state.children(geo) {
                let mv = geo.describe(state, cell, dir);
                let mut literal = board.clone();
                literal.play(&mv).map_err(|e| format!("{mv}: {e}"))?;
                if child.to_grid(geo) != literal {
                    return Err(format!("{mv} on\n{}", board.draw()));
                }
            }
        }
    }
    Ok(())
}
