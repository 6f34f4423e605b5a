//! The `bitset` engine: iterative deepening A* (IDA*) over bit-plane states.
//!
//! - State: [`State`], `P` bit-sliced letter planes of one `u128` each (see [`super::planes`]).
//! - Lower bound (admissible): a push moves exactly one block one column and nothing else
//!   changes column (falls are vertical), so every push belongs to exactly one letter and
//!   per-letter bounds add up. For one letter, the larger of: (a) for a block whose nearest
//!   same-letter block is `d + 1` columns away, `d` pushes (it can only go when a block of its
//!   letter is at most one column away); (b) for letters of at most [`PARTITION_MAX`] blocks,
//!   the cheapest split into removal groups of two or more, a group of `m` blocks needing
//!   `span - (m - 1)` pushes to fit the at most `m - 1` columns a connected group spans.
//!   A letter with exactly one block makes the state dead (bound = infinity). A letter with
//!   exactly two blocks uses the wall-aware pair distance of [`Pairs`] instead, which also
//!   finds pairs that can never touch (dead).
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
//! - The table ([`super::table`]) is probed for all children of a node after they are all
//!   generated, each slot prefetched when its child is made, so the cache misses overlap.
//! - No depth cap. Between iterations, each time the work doubles, a breadth-first search over
//!   the live states runs up to a growing number of states: when it completes it has found a
//!   shortest solution or proven there is none (deepening alone cannot prove that), and on
//!   puzzles with few reachable states it wins the race. The table holds at most
//!   [`TABLE_CAPACITY`] states; past that it stops growing (still exact, just slower).

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use super::grid::{Dir, Move};
use super::planes::{Cells, Geometry, State, planes_needed};
use super::table::Table;
use super::{Meter, Puzzle, Solution};
use crate::game::{Budget, CaseError, Outcome, Verdict};

/// Most entries kept in the transposition table (bounds memory to a few hundred MB).
pub const TABLE_CAPACITY: usize = 1 << 21;
/// The lower bound of a dead state (small enough that adding a depth cannot overflow).
const DEAD: u32 = u32::MAX / 4;
/// Flag bit of a table entry: the state is on the current path.
const ON_PATH: u32 = 1 << 31;
/// States the first breadth-first race may keep; each later one allows twice as many.
const FIRST_CHECK: u64 = 256;

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

/// Hasher for states, which hash themselves to one mixed word ([`State::digest`]): the
/// breadth-first race's set just passes it on.
#[derive(Default)]
pub struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Not used by states; a plain FNV-style fold keeps other keys working.
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn write_u64(&mut self, word: u64) {
        self.0 ^= word;
    }
}

type Seen<const P: usize> = HashSet<State<P>, BuildHasherDefault<WordHasher>>;

/// Letters with at most this many blocks get the partition bound (all partitions are tried).
const PARTITION_MAX: usize = 6;

/// Unknown entry of the [`Pairs`] cache.
const UNKNOWN: u8 = u8::MAX;
/// Entry of the [`Pairs`] cache for two cells whose blocks can never touch.
const NEVER: u8 = u8::MAX - 1;

/// Pushes two blocks need to touch, from the walls alone, computed lazily per pair of cells.
///
/// A block's possible journeys, ignoring other blocks (which may or may not be there later),
/// form a graph on the non-wall cells: sideways to a non-wall neighbour for one push, down to a
/// non-wall cell for free (falling, or lowered as blocks below go), never up. For two blocks on
/// cells `a` and `b`, the pushes they need before touching are at least the cheapest
/// `cost(a -> p) + cost(b -> q)` over orthogonally adjacent cells `p`, `q`: every real pair of
/// trajectories is a pair of paths in that graph. When no such pair exists they never touch.
pub struct Pairs {
    cells: usize,
    /// `from[a * cells + p]`: pushes from `a` to `p` ([`UNKNOWN`] rows not computed yet).
    from: Vec<u8>,
    /// `pair[a * cells + b]`, or [`UNKNOWN`] / [`NEVER`].
    pair: Vec<u8>,
    /// Direct-mapped memo of the bound of one letter's cell set (it depends on nothing else),
    /// for letters of three or more blocks: (cells, bound), `cells == 0` for an empty slot.
    sets: Vec<(u128, u32)>,
}

/// Slots of the per-letter memo (a power of two).
const SET_MEMO: usize = 1 << 12;

impl Pairs {
    pub fn new(geo: &Geometry) -> Pairs {
        let cells = geo.rows * geo.cols;
        Pairs {
            cells,
            from: vec![UNKNOWN; cells * cells],
            pair: vec![UNKNOWN; cells * cells],
            sets: vec![(0, 0); SET_MEMO],
        }
    }

    /// Fills the row of push costs from cell `a` (0-1 breadth-first search).
    fn costs_from(&mut self, geo: &Geometry, a: usize) -> &[u8] {
        let row = &mut self.from[a * self.cells..(a + 1) * self.cells];
        if row[a] == UNKNOWN {
            let open = |cell: usize| geo.walls >> cell & 1 == 0;
            let mut queue = std::collections::VecDeque::from([a]);
            row[a] = 0;
            while let Some(cell) = queue.pop_front() {
                let cost = row[cell];
                let col = cell % geo.cols;
                let below = cell + geo.cols;
                if below < self.cells && open(below) && row[below] > cost {
                    row[below] = cost;
                    queue.push_front(below);
                }
                let sideways = [
                    (col > 0).then(|| cell - 1),
                    (col + 1 < geo.cols).then(|| cell + 1),
                ];
                for next in sideways.into_iter().flatten() {
                    if open(next) && row[next] > cost + 1 {
                        row[next] = cost + 1;
                        queue.push_back(next);
                    }
                }
            }
        }
        &self.from[a * self.cells..(a + 1) * self.cells]
    }

    /// Pushes blocks on cells `a` and `b` need before they can touch, or `None` if never.
    pub fn pushes(&mut self, geo: &Geometry, a: usize, b: usize) -> Option<u32> {
        let known = self.pair[a * self.cells + b];
        if known == UNKNOWN {
            let cells = self.cells;
            let from_a = self.costs_from(geo, a).to_vec();
            let from_b = self.costs_from(geo, b);
            let mut best = u32::from(NEVER);
            for (p, &to_p) in from_a.iter().enumerate() {
                if to_p == UNKNOWN {
                    continue;
                }
                for q in Cells(geo.neighbours(1u128 << p) & geo.board & !geo.walls).iter() {
                    if from_b[q] != UNKNOWN {
                        best = best.min(u32::from(to_p) + u32::from(from_b[q]));
                    }
                }
            }
            let value = best.min(u32::from(NEVER)) as u8;
            self.pair[a * cells + b] = value;
            self.pair[b * cells + a] = value;
        }
        let value = self.pair[a * self.cells + b];
        (value != NEVER).then_some(u32::from(value))
    }
}

/// The lower bound of module docs, or [`DEAD`].
pub fn lower_bound<const P: usize>(geo: &Geometry, pairs: &mut Pairs, state: &State<P>) -> u32 {
    let mut total = 0;
    for code in 1..=geo.letters.len() {
        let bound = letter_bound(geo, pairs, state.letter(code));
        if bound >= DEAD {
            return DEAD;
        }
        total += bound;
    }
    total
}

/// Most letter codes (the letters `A..=Z`).
const MAX_CODES: usize = 26;

/// A state's letter sets and their bounds ([`letter_bound`]): a push changes the sets of one
/// or a few letters only, so a child recomputes just those and reuses the rest (the bound of
/// a letter depends on its own set alone, so the sum is the same as [`lower_bound`]'s).
#[derive(Clone, Copy)]
struct Parts {
    sets: [u128; MAX_CODES],
    bounds: [u32; MAX_CODES],
}

impl Parts {
    /// The parts of `state`, reusing those of `base` for letters whose set is unchanged.
    /// Also returns the total ([`DEAD`] if some letter is dead).
    fn derive<const P: usize>(
        geo: &Geometry,
        pairs: &mut Pairs,
        state: &State<P>,
        base: Option<&Parts>,
    ) -> (Parts, u32) {
        let mut parts = Parts {
            sets: [0; MAX_CODES],
            bounds: [0; MAX_CODES],
        };
        let mut total = 0u32;
        for i in 0..geo.letters.len() {
            let set = state.letter(i + 1);
            let bound = match base {
                Some(base) if base.sets[i] == set => base.bounds[i],
                _ => letter_bound(geo, pairs, set),
            };
            parts.sets[i] = set;
            parts.bounds[i] = bound;
            total = total.saturating_add(bound);
        }
        (parts, total.min(DEAD))
    }

    /// The lower bound of a child of the state these are the parts of (equal to
    /// [`lower_bound`] of the child).
    fn child_bound<const P: usize>(
        &self,
        geo: &Geometry,
        pairs: &mut Pairs,
        child: &State<P>,
    ) -> u32 {
        let mut total = 0u32;
        for i in 0..geo.letters.len() {
            let set = child.letter(i + 1);
            let bound = if self.sets[i] == set {
                self.bounds[i]
            } else {
                letter_bound(geo, pairs, set)
            };
            if bound >= DEAD {
                return DEAD;
            }
            total += bound;
        }
        total
    }
}

/// The bound of one letter given its cells (0 for an absent letter), or [`DEAD`].
fn letter_bound(geo: &Geometry, pairs: &mut Pairs, set: u128) -> u32 {
    let row_mask = (1u128 << geo.cols) - 1;
    let count = set.count_ones() as usize;
    match count {
        0 => return 0,
        1 => return DEAD,
        _ => {}
    }
    if count <= PARTITION_MAX {
        if count == 2 {
            // One group of two: the wall-aware pair distance.
            let a = set.trailing_zeros() as usize;
            let b = 127 - set.leading_zeros() as usize;
            return pairs.pushes(geo, a, b).unwrap_or(DEAD);
        }
        let slot = (((set as u64) ^ ((set >> 64) as u64)).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 50)
            as usize
            % SET_MEMO;
        if pairs.sets[slot].0 == set {
            return pairs.sets[slot].1;
        }
        // The blocks by column, and the wall-aware pushes each two of them need to touch.
        let mut blocks = [(0u32, 0usize); PARTITION_MAX];
        let mut bits = set;
        for slot in blocks.iter_mut().take(count) {
            let cell = bits.trailing_zeros() as usize;
            *slot = (u32::from(geo.col_of[cell]), cell);
            bits &= bits - 1;
        }
        let blocks = &mut blocks[..count];
        blocks.sort_unstable();
        let mut columns = [0u32; PARTITION_MAX];
        let mut pair = [[DEAD; PARTITION_MAX]; PARTITION_MAX];
        for i in 0..count {
            columns[i] = blocks[i].0;
            for j in 0..i {
                let pushes = pairs.pushes(geo, blocks[i].1, blocks[j].1).unwrap_or(DEAD);
                pair[i][j] = pushes;
                pair[j][i] = pushes;
            }
        }
        let letter = Letter {
            columns: &columns[..count],
            pair: &pair,
        };
        let bound = nearest_bound(letter.columns)
            .max(letter.partition_bound((1 << count) - 1))
            .min(DEAD);
        pairs.sets[slot] = (set, bound);
        return bound;
    }
    // Many blocks: fold the rows into the columns holding a block of the letter, and
    // those holding two or more, and take the nearest-partner bound from the masks.
    let (mut once, mut twice) = (0u128, 0u128);
    let mut rows = set;
    while rows != 0 {
        let row = rows & row_mask;
        twice |= once & row;
        once |= row;
        rows >>= geo.cols;
    }
    let mut worst = 0;
    let mut singles = once & !twice;
    while singles != 0 {
        let col = singles.trailing_zeros();
        singles &= singles - 1;
        let below = once & ((1u128 << col) - 1);
        let above = once >> col >> 1;
        let left = if below != 0 {
            col - (127 - below.leading_zeros())
        } else {
            u32::MAX
        };
        let right = if above != 0 {
            above.trailing_zeros() + 1
        } else {
            u32::MAX
        };
        worst = worst.max(left.min(right) - 1);
    }
    worst
}

/// Nearest-partner bound of one letter (sorted columns): a block whose nearest same-letter
/// block is `d + 1` columns away needs `d` pushes of the letter before it can be removed.
fn nearest_bound(columns: &[u32]) -> u32 {
    let mut worst = 0;
    for (i, &c) in columns.iter().enumerate() {
        let left = if i > 0 { c - columns[i - 1] } else { u32::MAX };
        let right = columns.get(i + 1).map_or(u32::MAX, |&r| r - c);
        worst = worst.max(left.min(right).saturating_sub(1));
    }
    worst
}

/// One letter's blocks (at most [`PARTITION_MAX`]), sorted by column.
struct Letter<'a> {
    columns: &'a [u32],
    /// Wall-aware pushes two blocks need to touch ([`DEAD`] if never).
    pair: &'a [[u32; PARTITION_MAX]; PARTITION_MAX],
}

impl Letter<'_> {
    /// Partition bound: the blocks leave the board in connected groups of two or more, and
    /// pushes of different blocks are different pushes, so the bound is the cheapest split of
    /// the blocks in `mask` into groups, each costing at least:
    /// - two blocks: the pushes they need to touch (wall-aware, [`Pairs`]);
    /// - `m` blocks: `span - (m - 1)`, since a connected group of `m` spans at most `m - 1`
    ///   columns when it goes (its leftmost block must move right, its rightmost left);
    /// - three blocks, also: a connected group of three is a path `x - m - y`, so for the best
    ///   middle block `m`, the larger of the pushes `x, m` and `m, y` need to touch.
    fn partition_bound(&self, mask: u32) -> u32 {
        if mask == 0 {
            return 0;
        }
        let first = mask.trailing_zeros();
        let rest = mask & !(1 << first);
        let mut best = DEAD;
        // Every group containing the first block: `first` plus a non-empty subset of `rest`.
        let mut others = rest;
        while others != 0 {
            let group = others | (1 << first);
            let remaining = rest & !others;
            // A lone block left over cannot form a group.
            if remaining.count_ones() != 1 {
                let cost = self.group_cost(group);
                if cost < best {
                    best = best.min(cost.saturating_add(self.partition_bound(remaining)));
                }
            }
            others = (others - 1) & rest;
        }
        best
    }

    fn group_cost(&self, group: u32) -> u32 {
        let size = group.count_ones();
        let low = group.trailing_zeros() as usize;
        let high = 31 - group.leading_zeros() as usize;
        let span = (self.columns[high] - self.columns[low]).saturating_sub(size - 1);
        match size {
            2 => self.pair[low][high].max(span),
            3 => {
                let middle = (group & !(1 << low) & !(1 << high)).trailing_zeros() as usize;
                let members = [low, middle, high];
                let path = (0..3)
                    .map(|m| {
                        let (x, y) = (members[(m + 1) % 3], members[(m + 2) % 3]);
                        self.pair[members[m]][x].max(self.pair[members[m]][y])
                    })
                    .min()
                    .unwrap_or(DEAD);
                span.max(path)
            }
            _ => span,
        }
    }
}

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
    table: Table<P>,
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
    fn run(geo: &'a Geometry, start: State<P>, meter: Meter) -> (Solution, Verdict, u64) {
        let mut pairs = Pairs::new(geo);
        let mut bound = lower_bound(geo, &mut pairs, &start);
        let mut search = Search {
            geo,
            pairs,
            table: Table::default(),
            meter,
            bound,
            path: Vec::new(),
            buffers: Vec::new(),
        };
        let mut check_limit = FIRST_CHECK;
        loop {
            if bound >= DEAD {
                return (None, Verdict::Unsolved, search.meter.expanded);
            }
            // The breadth-first race costs at most about a fifth of the work.
            if search.meter.expanded >= check_limit.saturating_mul(4) {
                match search.breadth_first(&start, check_limit) {
                    Ok(Reach::Unsolvable) => {
                        return (None, Verdict::Unsolved, search.meter.expanded);
                    }
                    Ok(Reach::Solved(pushes)) => {
                        search.path = pushes;
                        let moves = search.moves(start);
                        return (Some(moves), Verdict::Solved, search.meter.expanded);
                    }
                    Ok(Reach::Unknown) => check_limit = check_limit.saturating_mul(2),
                    Err(Stop::OutOfBudget) => {
                        return (None, Verdict::Budget, search.meter.expanded);
                    }
                    Err(Stop::Found) => unreachable!("breadth-first returns its path"),
                }
            }
            search.bound = bound;
            match search.probe(&start, 0, bound, None) {
                Ok(next) => bound = next,
                Err(Stop::Found) => {
                    let moves = search.moves(start);
                    return (Some(moves), Verdict::Solved, search.meter.expanded);
                }
                Err(Stop::OutOfBudget) => {
                    return (None, Verdict::Budget, search.meter.expanded);
                }
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
                if seen.len() as u64 > limit || seen.len() > TABLE_CAPACITY {
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
        children.sort_unstable_by_key(|c| (c.bound, c.state.occupied().count_ones()));
        let full = self.table.len() >= TABLE_CAPACITY;
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
