//! The `bitset` engine: iterative deepening A* (IDA*) over bit-plane states.
//!
//! - State: [`State`], `P` bit-sliced letter planes of one `u128` each (see [`super::planes`]).
//! - Lower bound (admissible): a push moves exactly one block one column and nothing else
//!   changes column, and a block can only be removed when a block of its letter is at most one
//!   column away. So for a letter whose block `i` has its nearest same-letter block `d_i + 1`
//!   columns away, at least `max_i d_i` pushes of that letter are still needed; summing over
//!   letters is admissible because every push moves a block of exactly one letter. A letter with
//!   exactly one block makes the state dead (bound = infinity).
//! - Transposition table, cleared each iteration: the smallest depth `g` at which each state was
//!   met. A state met again at a depth `>= g` is pruned (its subtree was already searched with
//!   at least as much budget), which also removes cycles.
//! - Move ordering: children by increasing lower bound (any order keeps the search exact).
//! - No depth cap. An iteration that finishes with no state left cut off by the bound (tracked
//!   with a "cut" flag per table entry) has enumerated every live reachable state: the puzzle
//!   has no solution. When the table is full (see [`TABLE_CAPACITY`]) the search stays exact
//!   but can no longer prove that, so it goes on until the budget stops it.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::grid::{Dir, Move};
use super::planes::{Geometry, State, planes_needed};
use super::{Meter, Puzzle, Solution};
use crate::game::{Budget, CaseError, Outcome, Verdict};

/// Most entries kept in the transposition table (bounds memory to a few hundred MB).
pub const TABLE_CAPACITY: usize = 1 << 21;
/// The lower bound of a dead state.
const DEAD: u32 = u32::MAX;
/// Flag bit of a table entry: the state was cut off by the bound at its recorded depth.
const CUT: u16 = 1 << 15;

/// Solves one puzzle.
pub fn solve(puzzle: &Puzzle, budget: &Budget) -> Result<Outcome<Solution>, CaseError> {
    let start = puzzle.start();
    if start.is_clear() {
        return Ok(Outcome::solved(Some(Vec::new()), 0));
    }
    let geo = Geometry::new(&start);
    let meter = Meter::new(budget);
    let (answer, verdict, work) = match planes_needed(geo.letters.len()) {
        1 => Search::<1>::run(&geo, State::new(&geo, &start), meter),
        2 => Search::<2>::run(&geo, State::new(&geo, &start), meter),
        3 => Search::<3>::run(&geo, State::new(&geo, &start), meter),
        4 => Search::<4>::run(&geo, State::new(&geo, &start), meter),
        _ => Search::<5>::run(&geo, State::new(&geo, &start), meter),
    };
    Ok(Outcome {
        answer,
        verdict,
        work,
    })
}

/// FxHash-style word hasher: states are a few `u128`s, so a multiply-rotate per word is enough.
#[derive(Default)]
pub struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, word: u64) {
        const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
    fn write_u128(&mut self, word: u128) {
        self.write_u64(word as u64);
        self.write_u64((word >> 64) as u64);
    }
    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }
}

type Table<const P: usize> = HashMap<State<P>, u16, BuildHasherDefault<WordHasher>>;

/// The lower bound of module docs, or [`DEAD`].
pub fn lower_bound<const P: usize>(geo: &Geometry, state: &State<P>) -> u32 {
    let mut total = 0;
    let mut columns = [0u8; super::MAX_CELLS];
    for code in 1..=geo.letters.len() {
        let set = state.letter(code);
        let count = set.count_ones() as usize;
        match count {
            0 => continue,
            1 => return DEAD,
            _ => {}
        }
        let mut bits = set;
        for slot in columns.iter_mut().take(count) {
            *slot = geo.col_of[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        let cols = &mut columns[..count];
        cols.sort_unstable();
        let mut worst = 0;
        for i in 0..count {
            let left = if i > 0 {
                cols[i] - cols[i - 1]
            } else {
                u8::MAX
            };
            let right = if i + 1 < count {
                cols[i + 1] - cols[i]
            } else {
                u8::MAX
            };
            worst = worst.max(u32::from(left.min(right)).saturating_sub(1));
        }
        total += worst;
    }
    total
}

/// How a depth-first probe ended.
enum Probe {
    Found,
    NotFound,
    OutOfBudget,
}

struct Search<'a, const P: usize> {
    geo: &'a Geometry,
    table: Table<P>,
    meter: Meter,
    bound: u32,
    next_bound: u32,
    /// Table entries currently flagged [`CUT`].
    cuts: usize,
    /// The table refused an entry, or a goal lay beyond the bound, this iteration: no proof
    /// of unsolvability is possible.
    overflow: bool,
    /// The moves of the current path, as (cell, direction).
    path: Vec<(usize, Dir)>,
}

impl<'a, const P: usize> Search<'a, P> {
    fn run(geo: &'a Geometry, start: State<P>, meter: Meter) -> (Solution, Verdict, u64) {
        let h = lower_bound(geo, &start);
        if h == DEAD {
            return (None, Verdict::Unsolved, 0);
        }
        let mut search = Search {
            geo,
            table: Table::default(),
            meter,
            bound: h,
            next_bound: DEAD,
            cuts: 0,
            overflow: false,
            path: Vec::new(),
        };
        loop {
            search.table.clear();
            search.next_bound = DEAD;
            search.cuts = 0;
            search.overflow = false;
            match search.probe(&start, h, 0) {
                Probe::Found => {
                    let moves = search.moves(start);
                    return (Some(moves), Verdict::Solved, search.meter.expanded);
                }
                Probe::OutOfBudget => return (None, Verdict::Budget, search.meter.expanded),
                Probe::NotFound => {}
            }
            if search.cuts == 0 && !search.overflow {
                return (None, Verdict::Unsolved, search.meter.expanded);
            }
            search.bound = search.next_bound;
        }
    }

    /// Replays the found path from the start to print it.
    fn moves(&self, mut state: State<P>) -> Vec<Move> {
        self.path
            .iter()
            .map(|&(cell, dir)| {
                let mv = self.geo.describe(&state, cell, dir);
                state.push(self.geo, cell, dir);
                mv
            })
            .collect()
    }

    /// Searches below `state` (live, not clear, lower bound `h`) reached at depth `g`.
    fn probe(&mut self, state: &State<P>, h: u32, g: u32) -> Probe {
        let depth = g as u16;
        let full = self.table.len() >= TABLE_CAPACITY;
        match self.table.get_mut(state) {
            Some(entry) if *entry & !CUT <= depth => return Probe::NotFound,
            Some(entry) => {
                if *entry & CUT != 0 {
                    self.cuts -= 1;
                }
                *entry = depth;
            }
            None if full => self.overflow = true,
            None => {
                self.table.insert(*state, depth);
            }
        }
        if g + h > self.bound {
            self.next_bound = self.next_bound.min(g + h);
            if let Some(entry) = self.table.get_mut(state) {
                *entry |= CUT;
                self.cuts += 1;
            }
            return Probe::NotFound;
        }
        if !self.meter.tick() {
            return Probe::OutOfBudget;
        }
        let mut children: Vec<(u32, usize, Dir, State<P>)> = Vec::with_capacity(32);
        let (left, right) = state.movers(self.geo);
        for (set, dir) in [(left, Dir::Left), (right, Dir::Right)] {
            let mut bits = set;
            while bits != 0 {
                let cell = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let mut child = *state;
                child.push(self.geo, cell, dir);
                if child.is_clear() {
                    if g < self.bound {
                        self.path.push((cell, dir));
                        return Probe::Found;
                    }
                    // A goal one move beyond the bound: the next iteration finds it.
                    self.next_bound = self.next_bound.min(g + 1);
                    self.overflow = true;
                    continue;
                }
                let h = lower_bound(self.geo, &child);
                if h != DEAD {
                    children.push((h, cell, dir, child));
                }
            }
        }
        children.sort_unstable_by_key(|c| c.0);
        for (h, cell, dir, child) in children {
            self.path.push((cell, dir));
            match self.probe(&child, h, g + 1) {
                Probe::NotFound => {
                    self.path.pop();
                }
                other => return other,
            }
        }
        Probe::NotFound
    }
}
