//! Iterative deepening A* (IDA*) over bit-plane states: the `bitset` engine's fallback when the
//! best-first search ([`super::astar`]) would need more memory than it may take. It keeps
//! memory bounded (a transposition table of at most [`TABLE_CAPACITY`] states) at the price of
//! re-expanding states in every iteration.
//!
//! - State: [`State`], `P` bit-sliced letter planes of one `u128` each (see [`super::planes`]).
//! - Lower bound: the admissible per-letter bound of [`super::bound`].
//! - Transposition table kept across iterations: for each searched state, the best proven lower
//!   bound of its distance to the goal (after a failed search below a state, one more than the
//!   smallest bound among its children), and a flag for states on the current path. A state is
//!   searched only while depth + bound fits the iteration's bound, so a transposition met at a
//!   depth already searched is cut at once, and a state on the path is never re-entered
//!   (a shortest solution never repeats a board). Every stored value is derived from valid
//!   lower bounds only, so the search stays exact.
//! - Move ordering: children by increasing lower bound, ties broken by fewer blocks left (a
//!   removal first); any order keeps the search exact, since the previous iterations proved
//!   there is no shorter solution.
//! - Incremental bound: each letter's bound depends on its own cells only, so a child
//!   recomputes only the letters a push changed ([`Parts`]); a child whose static bound already
//!   exceeds the iteration's bound is cut without probing the table (a likely cache miss).
//! - The table ([`TranspositionTable`]) is probed for all children of a node after they are all
//!   generated, each slot prefetched when its child is made, so the cache misses overlap.
//! - No depth cap. Between iterations, each time the work doubles, a breadth-first search over
//!   the live states runs up to a growing number of states: when it completes it has found a
//!   shortest solution or proven there is none (deepening alone cannot prove that), and on
//!   puzzles with few reachable states it wins the race. The table holds at most
//!   [`TABLE_CAPACITY`] states; past that it stops growing (still exact, just slower).

use std::collections::HashSet;

use fnv::FnvBuildHasher;

use super::Ending;
use super::bound::{DEAD, Pairs, Parts, lower_bound};
use super::planes::{Geometry, State};
use super::slots::prefetch;
use crate::games::vexed::Meter;
use crate::games::vexed::grid::{Dir, Move};

/// Most entries kept in the transposition table (bounds memory to a few hundred MB).
pub(crate) const TABLE_CAPACITY: usize = 1 << 21;
/// Flag bit of a table entry: the state is on the current path.
const ON_PATH: u32 = 1 << 31;
/// States the first breadth-first race may keep; each later one allows twice as many.
const FIRST_CHECK: u64 = 256;
/// A race runs once deepening has expanded this many times its state limit, so the races
/// cost at most about a fifth of the work.
const DEEPENING_PER_RACE: u64 = 4;

/// Searches from `start` (live, not clear) with what is left of `meter`: a shortest solution,
/// a proof that there is none, or the budget's end, with the states expanded so far.
///
/// `proven`: a length no solution is shorter than, already known (A* that ran out of memory
/// proved its `f`). Only reported, with the iterations' own bound, when the budget stops the
/// search: the iterations still start from the start's bound, since the table they fill on
/// the way makes the later ones cheaper.
///
/// `max_moves` (proof mode; [`super::astar::NO_CAP`]: none): no iteration's bound goes past
/// it; once the bound does, the search stops having proven that every solution is longer.
pub(crate) fn search<const P: usize>(
    geo: &Geometry,
    start: State<P>,
    meter: Meter,
    limits: Limits,
    proven: u32,
    max_moves: u32,
) -> Ending {
    Search::run(geo, start, meter, limits, proven, max_moves)
}

/// How many states the transposition table and a breadth-first race may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    pub(crate) table: usize,
    pub(crate) race: usize,
}

impl Limits {
    /// Without a memory budget: [`TABLE_CAPACITY`] each.
    pub(crate) const DEFAULT: Limits = Limits {
        table: TABLE_CAPACITY,
        race: TABLE_CAPACITY,
    };

    /// The most the table and a race may hold in `memory` bytes together (half each), counting
    /// the moment they grow, when the old and the new array are both held: the table's
    /// power-of-two slot array (its last growth holds 1.5 times its size) filled to its growth
    /// point, and a race's set and list at the worst point of their doubling.
    pub(crate) fn within<const P: usize>(memory: usize) -> Limits {
        let half = memory / 2;
        let slot = std::mem::size_of::<Slot<P>>();
        let mut slots = INITIAL_SLOTS;
        while slots.saturating_mul(3).saturating_mul(slot) <= half {
            slots *= 2;
        }
        let set_entry = std::mem::size_of::<State<P>>() + 1; // hashbrown: a control byte
        let list_entry = std::mem::size_of::<(State<P>, u32, usize, Dir)>();
        // A set doubles at 7/8 full, a list when full: each may be twice its need, and three
        // times while it grows.
        let race_entry = 3 * set_entry * 8 / 7 + 3 * list_entry;
        Limits {
            table: slots * MAX_LOAD_NUM / MAX_LOAD_DEN,
            race: (half / race_entry).max(1),
        }
    }
}

/// The breadth-first race's set of boards seen.
type Seen<const P: usize> = HashSet<State<P>, FnvBuildHasher>;

/// How a search ended early.
enum Stop {
    Found,
    OutOfBudget,
}

/// A generated child: its lower bound, the push that made it, and whether it is on the path.
#[derive(Clone, Copy)]
struct Child<const P: usize> {
    bound: u32,
    cell: usize,
    dir: Dir,
    on_path: bool,
    /// The state's digest (for the table).
    digest: u64,
    state: State<P>,
}

struct Search<'a, const P: usize> {
    geo: &'a Geometry,
    pairs: Pairs,
    /// Best known lower bound of each state's distance to the goal, with [`ON_PATH`].
    table: TranspositionTable<P>,
    limits: Limits,
    meter: Meter,
    bound: u32,
    /// The moves of the current path, as (cell, direction).
    path: Vec<(usize, Dir)>,
    /// Child buffers, one per depth, reused across nodes.
    buffers: Vec<Vec<Child<P>>>,
}

/// What the unsolvability check found.
enum Reach {
    Unsolvable,
    /// A shortest solution, as pushes.
    Solved(Vec<(usize, Dir)>),
    Unknown,
}

impl<'a, const P: usize> Search<'a, P> {
    fn run(
        geo: &'a Geometry,
        start: State<P>,
        meter: Meter,
        limits: Limits,
        proven: u32,
        max_moves: u32,
    ) -> Ending {
        let mut pairs = Pairs::new(geo);
        let mut bound = lower_bound(geo, &mut pairs, &start);
        let mut search = Search {
            geo,
            pairs,
            table: TranspositionTable::default(),
            limits,
            meter,
            bound,
            path: Vec::new(),
            buffers: Vec::new(),
        };
        let mut check_limit = FIRST_CHECK;
        loop {
            if bound >= DEAD {
                return Ending::unsolved(search.meter.expanded);
            }
            // Every iteration below `bound` failed: no solution is shorter.
            let stopped =
                |search: &Search<P>| Ending::stopped(search.meter.expanded, bound.max(proven));
            if bound > max_moves {
                return stopped(&search);
            }
            if search.meter.expanded >= check_limit.saturating_mul(DEEPENING_PER_RACE) {
                match search.breadth_first(&start, check_limit) {
                    Ok(Reach::Unsolvable) => {
                        return Ending::unsolved(search.meter.expanded);
                    }
                    Ok(Reach::Solved(pushes)) if pushes.len() > max_moves as usize => {
                        // A minimum longer than the cap: as A* would, say only that every
                        // solution is longer (the race's is a minimum, so none is shorter).
                        let least = u32::try_from(pushes.len()).unwrap_or(u32::MAX);
                        return Ending::stopped(search.meter.expanded, least);
                    }
                    Ok(Reach::Solved(pushes)) => {
                        search.path = pushes;
                        let moves = search.moves(start);
                        return Ending::solved(moves, search.meter.expanded);
                    }
                    Ok(Reach::Unknown) => check_limit = check_limit.saturating_mul(2),
                    Err(Stop::OutOfBudget) => return stopped(&search),
                    Err(Stop::Found) => unreachable!("breadth-first returns its path"),
                }
            }
            search.bound = bound;
            match search.probe(&start, 0, bound, None) {
                Ok(next) => bound = next,
                Err(Stop::Found) => {
                    let moves = search.moves(start);
                    return Ending::solved(moves, search.meter.expanded);
                }
                Err(Stop::OutOfBudget) => return stopped(&search),
            }
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

    /// Breadth-first search over the live states reachable from `start`, keeping at most
    /// `limit` of them. When it completes it has either found a shortest solution (the first
    /// clear board generated, in breadth-first order) or proven that there is none; on puzzles
    /// whose live state space is small (walled-in level packs) it beats deepening.
    fn breadth_first(&mut self, start: &State<P>, limit: u64) -> Result<Reach, Stop> {
        let mut seen = Seen::<P>::default();
        seen.insert(*start);
        // Each board with the index of its parent and the push that made it.
        let mut boards: Vec<(State<P>, u32, usize, Dir)> = vec![(*start, 0, 0, Dir::Left)];
        let mut next = 0;
        while next < boards.len() {
            if !self.meter.tick() {
                return Err(Stop::OutOfBudget);
            }
            let state = boards[next].0;
            // Children's bounds recompute only the letters their push changed.
            let (parts, _) = Parts::derive(self.geo, &mut self.pairs, &state, None);
            for (cell, dir, child) in state.children(self.geo) {
                if child.is_clear() {
                    let mut pushes = vec![(cell, dir)];
                    let mut at = next;
                    while at != 0 {
                        let (_, parent, cell, dir) = boards[at];
                        pushes.push((cell, dir));
                        at = parent as usize;
                    }
                    pushes.reverse();
                    return Ok(Reach::Solved(pushes));
                }
                if parts.child_bound(self.geo, &mut self.pairs, &child) >= DEAD
                    || !seen.insert(child)
                {
                    continue;
                }
                if seen.len() as u64 > limit || seen.len() > self.limits.race {
                    return Ok(Reach::Unknown);
                }
                boards.push((child, next as u32, cell, dir));
            }
            next += 1;
        }
        Ok(Reach::Unsolvable)
    }

    /// Searches below `state` (live, not clear, lower bound `bound`, at depth `g`, with
    /// `g + bound <= self.bound`). Returns a new lower bound of its distance to the goal.
    fn probe(
        &mut self,
        state: &State<P>,
        g: u32,
        bound: u32,
        parent: Option<&Parts>,
    ) -> Result<u32, Stop> {
        if !self.meter.tick() {
            return Err(Stop::OutOfBudget);
        }
        // This state's slot is needed once its children are generated: start loading it.
        let digest = state.digest();
        self.table.prefetch(digest);
        let (parts, _) = Parts::derive(self.geo, &mut self.pairs, state, parent);
        let depth = g as usize;
        if self.buffers.len() <= depth {
            self.buffers.resize_with(depth + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut self.buffers[depth]);
        children.clear();
        // The best bound found for this state: one more than the best child's.
        let mut best = DEAD;
        for (cell, dir, child) in state.children(self.geo) {
            if child.is_clear() {
                if g < self.bound {
                    self.buffers[depth] = children;
                    self.path.push((cell, dir));
                    return Err(Stop::Found);
                }
                best = 1;
                continue;
            }
            // The static bound first: it is cheap (only the letters the push changed are
            // recomputed) while a table probe is a likely cache miss, and when the static
            // bound already cuts the child the table is not consulted at all. A stored
            // bound is never below the static one, so the cut is the same; the parent's
            // new bound may only be weaker, and stays admissible.
            let fresh = parts.child_bound(self.geo, &mut self.pairs, &child);
            if fresh >= DEAD {
                continue;
            }
            if g + 1 + fresh > self.bound {
                best = best.min(1 + fresh);
                continue;
            }
            let digest = child.digest();
            self.table.prefetch(digest);
            children.push(Child {
                bound: fresh,
                cell,
                dir,
                on_path: false,
                digest,
                state: child,
            });
        }
        // The table probes come after all children are generated, so that the prefetches
        // above overlap their cache misses.
        for child in &mut children {
            if let Some(entry) = self.table.get_with(&child.state, child.digest) {
                child.bound = entry & !ON_PATH;
                child.on_path = entry & ON_PATH != 0;
            }
        }
        children.sort_unstable_by_key(|c| (c.bound, c.state.occupied().len()));
        let full = self.table.len() >= self.limits.table;
        if !self
            .table
            .update_with(state, digest, |entry| entry | ON_PATH)
            && !full
        {
            self.table.insert(*state, bound | ON_PATH);
        }
        let mut outcome = Ok(());
        for child in &children {
            if child.on_path || g + 1 + child.bound > self.bound {
                // A state on the path is not searched again; a cut one keeps its bound.
                best = best.min(1 + child.bound);
                continue;
            }
            self.path.push((child.cell, child.dir));
            match self.probe(&child.state, g + 1, child.bound, Some(&parts)) {
                Ok(found) => best = best.min(1 + found),
                Err(stop) => {
                    outcome = Err(stop);
                    break;
                }
            }
            self.path.pop();
        }
        self.buffers[depth] = children;
        let best = best.max(bound);
        self.table.update_with(state, digest, |_| best);
        outcome.map(|()| best)
    }
}

/// Slots of a new transposition table (a power of two).
const INITIAL_SLOTS: usize = 1 << 6;
/// Growth happens before the table gets fuller than `MAX_LOAD_NUM / MAX_LOAD_DEN`.
const MAX_LOAD_NUM: usize = 5;
const MAX_LOAD_DEN: usize = 8;

#[derive(Clone, Copy)]
struct Slot<const P: usize> {
    state: State<P>,
    /// 0 = empty, else the stored value plus one.
    tag: u32,
    /// The high half of the state's digest: most mismatching slots are told apart by it
    /// without comparing the planes.
    check: u32,
}

impl<const P: usize> Slot<P> {
    const EMPTY: Slot<P> = Slot {
        state: State::EMPTY,
        tag: 0,
        check: 0,
    };
}

/// A map from states to `u32` values: open addressing with linear probing over a power-of-two
/// array of `(state, value)` slots.
///
/// Invariants: a slot is empty iff its tag is 0 (a stored value `v` is kept as tag `v + 1`, so
/// every `u32` value except `u32::MAX` can be stored); the table is never more than
/// [`MAX_LOAD_NUM`] / [`MAX_LOAD_DEN`] full, so a probe always meets an empty slot; keys are
/// full states (compared exactly), the digest only picks the first slot and a 32-bit check.
/// There is no removal.
pub(crate) struct TranspositionTable<const P: usize> {
    slots: Vec<Slot<P>>,
    len: usize,
}

impl<const P: usize> Default for TranspositionTable<P> {
    fn default() -> Self {
        TranspositionTable {
            slots: vec![Slot::EMPTY; INITIAL_SLOTS],
            len: 0,
        }
    }
}

impl<const P: usize> TranspositionTable<P> {
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Asks the CPU to start loading the first slot of a state with this digest.
    pub(crate) fn prefetch(&self, digest: u64) {
        prefetch(&self.slots, digest as usize & (self.slots.len() - 1));
    }

    /// The slot holding `state` (whose digest is `digest`), or the empty slot where it goes.
    fn slot(&self, state: &State<P>, digest: u64) -> usize {
        let mask = self.slots.len() - 1;
        let check = (digest >> 32) as u32;
        let mut at = digest as usize & mask;
        loop {
            let slot = &self.slots[at];
            if slot.tag == 0 || (slot.check == check && slot.state == *state) {
                return at;
            }
            at = (at + 1) & mask;
        }
    }

    /// The value of `state`, whose digest is `digest`.
    pub(crate) fn get_with(&self, state: &State<P>, digest: u64) -> Option<u32> {
        let slot = &self.slots[self.slot(state, digest)];
        (slot.tag != 0).then(|| slot.tag - 1)
    }

    #[cfg(test)]
    pub(crate) fn get(&self, state: &State<P>) -> Option<u32> {
        self.get_with(state, state.digest())
    }

    /// Replaces the value of a present state; returns false (and does nothing) if absent.
    #[cfg(test)]
    pub(crate) fn update(&mut self, state: &State<P>, value: impl FnOnce(u32) -> u32) -> bool {
        self.update_with(state, state.digest(), value)
    }

    /// [`TranspositionTable::update`] for a state whose digest is `digest`.
    pub(crate) fn update_with(
        &mut self,
        state: &State<P>,
        digest: u64,
        value: impl FnOnce(u32) -> u32,
    ) -> bool {
        let at = self.slot(state, digest);
        let slot = &mut self.slots[at];
        if slot.tag == 0 {
            return false;
        }
        slot.tag = value(slot.tag - 1) + 1;
        true
    }

    /// Stores `value` for `state` (`value < u32::MAX`), replacing any previous value.
    pub(crate) fn insert(&mut self, state: State<P>, value: u32) {
        debug_assert!(value < u32::MAX);
        if (self.len + 1) * MAX_LOAD_DEN > self.slots.len() * MAX_LOAD_NUM {
            self.grow();
        }
        let digest = state.digest();
        let at = self.slot(&state, digest);
        let slot = &mut self.slots[at];
        if slot.tag == 0 {
            self.len += 1;
        }
        *slot = Slot {
            state,
            tag: value + 1,
            check: (digest >> 32) as u32,
        };
    }

    /// Doubles the slots and re-inserts every entry.
    fn grow(&mut self) {
        let doubled = vec![Slot::EMPTY; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        for slot in old.into_iter().filter(|s| s.tag != 0) {
            let at = self.slot(&slot.state, slot.state.digest());
            self.slots[at] = slot;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::vexed::bitset::planes::Cells;

    #[test]
    fn limits_fit_the_memory_even_while_growing() {
        for memory in [1 << 20, 16 << 20, 384 << 20, 4 << 30] {
            let limits = Limits::within::<3>(memory);
            // The table at its limit: the smallest power of two of slots that holds it below
            // the load limit; while growing into it, half as many slots are held too.
            let slots = (limits.table * MAX_LOAD_DEN / MAX_LOAD_NUM).next_power_of_two();
            let table = slots * std::mem::size_of::<Slot<3>>() * 3 / 2;
            assert!(table <= memory / 2, "{memory}: table {table}");
            assert!(
                table * 4 > memory / 2,
                "{memory}: the table may use most of its half"
            );
            assert!(limits.race > 0);
        }
    }

    #[test]
    fn stores_updates_and_grows_past_the_initial_slots() {
        // Distinct one-plane states: every pair of cells of a 128-cell board.
        let mut table = TranspositionTable::<1>::default();
        let states: Vec<State<1>> = (0..128)
            .flat_map(|a| (0..a).map(move |b| (a, b)))
            .map(|(a, b)| State::from_planes([Cells::cell(a) | Cells::cell(b)]))
            .collect();
        assert!(table.is_empty());
        for (i, s) in states.iter().enumerate() {
            table.prefetch(s.digest());
            table.insert(*s, i as u32);
        }
        assert_eq!(table.len(), states.len());
        assert!(states.len() > 64 * INITIAL_SLOTS);
        for (i, s) in states.iter().enumerate() {
            assert_eq!(table.get(s), Some(i as u32));
        }
        assert!(table.update(&states[5], |v| v + 100));
        assert_eq!(table.get(&states[5]), Some(105));
        assert_eq!(table.get(&State::EMPTY), None);
        assert!(!table.update(&State::EMPTY, |v| v));
        table.insert(states[7], 0);
        assert_eq!(table.get(&states[7]), Some(0));
        assert_eq!(table.len(), states.len());
    }
}
