//! The admissible lower bound of the `bitset` engine: pushes a state still needs, at least.
//!
//! A push moves exactly one block one column and nothing else changes column (falls are
//! vertical), so every push belongs to exactly one block, hence one letter, and per-letter
//! bounds add up. All distances come from [`Pairs`]: the pushes a block needs to reach a cell,
//! from the walls alone (sideways for one push, down for free; other blocks ignored, since
//! they may or may not be there later). For one letter, the larger of:
//! - (a) for each block, the fewest pushes it and its nearest partner need to touch (it goes
//!   only when touching a block of its letter): wall-aware for more than `PARTITION_MAX`
//!   blocks, else by columns (`d` pushes for `d + 1` columns apart);
//! - (b) for letters of at most `PARTITION_MAX` blocks, the cheapest split into removal
//!   groups of two or more (`Letter::partition_bound`), each group costing at least its span
//!   and spanning-tree terms (`Letter::group_cost`): for any tree the group could form when
//!   it goes, matchings of touching pairs, and stars (a block's cell with its tree neighbours
//!   beside it, `Letter::star`), every block paying its own pushes.
//!
//! A letter with exactly one block makes the state dead (bound [`DEAD`]); exactly two blocks
//! use the pair distance alone, which also finds pairs that can never touch (dead). Finally a
//! board with blocks needs at least one push, whatever the letters' sum (states are stable).
//!
//! Cost: distance rows are filled lazily per cell, letter bounds are memoised by the letter's
//! cell set and group costs by the group's cell set (both depend on nothing else on a given
//! board), and a search's [`Pairs`] is reused for the next puzzle ([`Pairs::reset`]).
//!
//! Invariant: every value returned is at most the true number of pushes left (or [`DEAD`]
//! only when the board can never be cleared), so searches that prune with it stay exact.
//! The test `the_bound_is_admissible_on_every_reachable_state` checks it against true
//! distances on every reachable state of a thousand small random boards.

use super::MAX_CELLS;
use super::planes::{Cells, Geometry, State};

/// The lower bound of a dead state (small enough that adding a depth cannot overflow).
pub const DEAD: u32 = u32::MAX / 4;

/// Letters with at most this many blocks get the partition bound (all partitions are tried).
///
/// Measured (expanded states, `gamebench run DIR -g vexed -j 1`): 5, 6 and 8 expand the same
/// states on the bundled hard and mixed sets and on Piggies and Old Brown Shoe (the Classic
/// pack: 714,217 with 5, 711,491 with 6), while each step up costs more time, the `3^n` split
/// and its star terms dominating (mixed set: 14.4 ms with 5, 16.4 ms with 6; 8 took twice
/// 6's time). 4 expands 22% more states on the mixed set.
const PARTITION_MAX: usize = 5;

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
    /// Bounds of letters of three or more blocks by their cell set ([`SetMemo`]).
    sets: SetMemo,
    /// Costs of removal groups ([`Letter::group_cost`]) by their cell set: when one block of
    /// a letter moves, the groups without it keep their cost.
    groups: SetMemo,
    /// `near[a * cells + p]`: fewest pushes from `a` to some orthogonal neighbour of `p`
    /// ([`UNKNOWN`] if none is reachable); rows filled on demand, `near_done[a]`.
    near: Vec<u8>,
    /// `near2[a * cells + p]`: fewest pushes from `a` to a cell at most two steps from `p`
    /// (through an open neighbour of `p`; `p` itself included, which only lowers it); rows
    /// filled on demand, `near2_done[a]`.
    near2: Vec<u8>,
    near_done: Vec<bool>,
    near2_done: Vec<bool>,
    /// The rows of one letter's blocks, copied for [`Letter`] (padding stays [`UNKNOWN`]);
    /// kept here so that a letter's bound does not clear them on every call.
    scratch_from: Box<[CostRow; PARTITION_MAX]>,
    scratch_near: Box<[CostRow; PARTITION_MAX]>,
    scratch_near2: Box<[CostRow; PARTITION_MAX]>,
}

/// One row of push costs over every cell of the largest board (padding [`UNKNOWN`]).
type CostRow = [u8; MAX_CELLS];

/// Slots of the per-letter memo (a power of two).
const SET_MEMO: usize = 1 << 12;

/// Direct-mapped memo of the bound of one letter's cell set (it depends on nothing else on a
/// given board): `(cells, bound, epoch)`. An entry counts only if its epoch is the current
/// one, so moving to another board ([`Pairs::reset`]) empties the memo without clearing it.
#[derive(Default)]
struct SetMemo {
    slots: Vec<(u128, u32, u32)>,
    epoch: u32,
}

impl SetMemo {
    fn slot(set: u128) -> usize {
        (((set as u64) ^ ((set >> 64) as u64)).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 50) as usize
            % SET_MEMO
    }

    fn get(&self, set: u128) -> Option<u32> {
        let &(cells, bound, epoch) = self.slots.get(Self::slot(set))?;
        (cells == set && epoch == self.epoch).then_some(bound)
    }

    fn put(&mut self, set: u128, bound: u32) {
        if self.slots.is_empty() {
            // Allocated on first use (many boards have no letter of three or more blocks).
            self.slots = vec![(0, 0, self.epoch.wrapping_sub(1)); SET_MEMO];
        }
        self.slots[Self::slot(set)] = (set, bound, self.epoch);
    }

    /// Forgets every entry.
    fn clear(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // Entries of the epoch wrapped to could still be there: really clear them.
            self.slots.clear();
        }
    }
}

impl Pairs {
    pub fn new(geo: &Geometry) -> Pairs {
        let mut pairs = Pairs {
            cells: 0,
            from: Vec::new(),
            pair: Vec::new(),
            sets: SetMemo::default(),
            groups: SetMemo::default(),
            near: Vec::new(),
            near2: Vec::new(),
            near_done: Vec::new(),
            near2_done: Vec::new(),
            scratch_from: Box::new([[UNKNOWN; MAX_CELLS]; PARTITION_MAX]),
            scratch_near: Box::new([[UNKNOWN; MAX_CELLS]; PARTITION_MAX]),
            scratch_near2: Box::new([[UNKNOWN; MAX_CELLS]; PARTITION_MAX]),
        };
        pairs.reset(geo);
        pairs
    }

    /// Makes these tables those of a new board (of `geo`), keeping their memory: a thread
    /// solving many puzzles reuses one `Pairs`.
    pub fn reset(&mut self, geo: &Geometry) {
        let cells = geo.rows * geo.cols;
        self.cells = cells;
        for table in [
            &mut self.from,
            &mut self.pair,
            &mut self.near,
            &mut self.near2,
        ] {
            table.clear();
            table.resize(cells * cells, UNKNOWN);
        }
        for done in [&mut self.near_done, &mut self.near2_done] {
            done.clear();
            done.resize(cells, false);
        }
        self.sets.clear();
        self.groups.clear();
        // Rows are copied for `cells` entries only: the rest must read UNKNOWN again.
        for rows in [
            &mut self.scratch_from,
            &mut self.scratch_near,
            &mut self.scratch_near2,
        ] {
            rows.iter_mut().for_each(|row| row.fill(UNKNOWN));
        }
    }

    /// Fills the row of push costs from cell `a`, layer by layer on bit sets: the cells
    /// reachable with at most `k` pushes are closed under falling (free), then one sideways
    /// step into an open cell makes layer `k + 1`.
    fn costs_from(&mut self, geo: &Geometry, a: usize) -> &[u8] {
        let row = &mut self.from[a * self.cells..(a + 1) * self.cells];
        if row[a] == UNKNOWN {
            let open = geo.board & !geo.walls;
            let fall = |mut set: u128| loop {
                let next = set | (geo.row_down(set) & open);
                if next == set {
                    return set;
                }
                set = next;
            };
            let mut reached = fall(1u128 << a);
            let mut fresh = reached;
            let mut cost = 0u8;
            loop {
                for cell in Cells(fresh).iter() {
                    row[cell] = cost;
                }
                let sideways =
                    ((reached << 1) & geo.not_first_col) | ((reached >> 1) & geo.not_last_col);
                let step = sideways & open & !reached;
                if step == 0 {
                    break;
                }
                let next = fall(reached | step);
                fresh = next & !reached;
                reached = next;
                // At most one layer per cell, and cells are at most 128 < UNKNOWN.
                cost += 1;
            }
        }
        &self.from[a * self.cells..(a + 1) * self.cells]
    }

    /// Copies into slot `i` of the scratch rows the costs from `a` ([`Pairs::costs_from`])
    /// and to some neighbour of each cell ([`Pairs::near`]).
    fn load_rows(&mut self, geo: &Geometry, a: usize, i: usize) {
        let cells = self.cells;
        self.fill_near2(geo, a);
        let row = a * cells..(a + 1) * cells;
        self.scratch_from[i][..cells].copy_from_slice(&self.from[row.clone()]);
        self.scratch_near[i][..cells].copy_from_slice(&self.near[row.clone()]);
        self.scratch_near2[i][..cells].copy_from_slice(&self.near2[row]);
    }

    /// Fills the rows of `a` in [`Pairs::costs_from`] and [`Pairs::near`].
    fn fill_near(&mut self, geo: &Geometry, a: usize) {
        let cells = self.cells;
        if self.near_done[a] {
            return;
        }
        self.costs_from(geo, a);
        // A wall is never reached (its cost stays UNKNOWN, the largest value), so a plain
        // minimum over the four neighbours skips walls.
        let from = &self.from[a * cells..(a + 1) * cells];
        let near = &mut self.near[a * cells..(a + 1) * cells];
        for (p, slot) in near.iter_mut().enumerate() {
            *slot = neighbour_min(geo, cells, p, UNKNOWN, |q| from[q]);
        }
        self.near_done[a] = true;
    }

    /// Fills the rows of `a` in [`Pairs::near`] and [`Pairs::near2`] (only stars of groups of
    /// four or more read `near2`: pair distances do not need it).
    fn fill_near2(&mut self, geo: &Geometry, a: usize) {
        let cells = self.cells;
        if self.near2_done[a] {
            return;
        }
        self.fill_near(geo, a);
        // Two steps: through an open neighbour only (a wall's own `near` may be finite).
        let near = &self.near[a * cells..(a + 1) * cells];
        let near2 = &mut self.near2[a * cells..(a + 1) * cells];
        let through = |q: usize| {
            if geo.walls >> q & 1 == 0 {
                near[q]
            } else {
                UNKNOWN
            }
        };
        for (p, slot) in near2.iter_mut().enumerate() {
            *slot = neighbour_min(geo, cells, p, near[p], through);
        }
        self.near2_done[a] = true;
    }

    /// Pushes blocks on cells `a` and `b` need before they can touch, or `None` if never.
    pub fn pushes(&mut self, geo: &Geometry, a: usize, b: usize) -> Option<u32> {
        let known = self.pair[a * self.cells + b];
        if known == UNKNOWN {
            // The least over cells `p` of the pushes from `a` to `p` plus those from `b` to a
            // neighbour of `p` (unreachable entries are [`UNKNOWN`]).
            let cells = self.cells;
            self.costs_from(geo, a);
            self.fill_near(geo, b);
            let from_a = &self.from[a * cells..(a + 1) * cells];
            let near_b = &self.near[b * cells..(b + 1) * cells];
            let best = from_a
                .iter()
                .zip(near_b)
                .filter(|&(&to_p, &to_q)| to_p != UNKNOWN && to_q != UNKNOWN)
                .map(|(&to_p, &to_q)| u32::from(to_p) + u32::from(to_q))
                .min()
                .unwrap_or(u32::from(NEVER));
            let value = best.min(u32::from(NEVER)) as u8;
            self.pair[a * cells + b] = value;
            self.pair[b * cells + a] = value;
        }
        let value = self.pair[a * self.cells + b];
        (value != NEVER).then_some(u32::from(value))
    }
}

/// The least of `start` and `value` over the in-board orthogonal neighbours of cell `p`
/// (boards of `cells` cells).
fn neighbour_min(
    geo: &Geometry,
    cells: usize,
    p: usize,
    start: u8,
    value: impl Fn(usize) -> u8,
) -> u8 {
    let (cols, col) = (geo.cols, usize::from(geo.col_of[p]));
    let mut best = start;
    if col > 0 {
        best = best.min(value(p - 1));
    }
    if col + 1 < cols {
        best = best.min(value(p + 1));
    }
    if p >= cols {
        best = best.min(value(p - cols));
    }
    if p + cols < cells {
        best = best.min(value(p + cols));
    }
    best
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
    at_least_one_push(total, state)
}

/// A board with blocks is not solved without a push (the search's states are stable: no
/// block falls and no group goes by itself), however small the letters' bounds are.
fn at_least_one_push<const P: usize>(total: u32, state: &State<P>) -> u32 {
    if total == 0 && !state.is_clear() {
        1
    } else {
        total
    }
}

/// Most letter codes (the letters `A..=Z`).
const MAX_CODES: usize = 26;

/// A state's letter sets and their bounds ([`letter_bound`]): a push changes the sets of one
/// or a few letters only, so a child recomputes just those and reuses the rest (the bound of
/// a letter depends on its own set alone, so the sum is the same as [`lower_bound`]'s).
///
/// The bounds of the first [`Parts::STORED`] letters also fit in bytes ([`Parts::stored`]):
/// a search can keep them with each state and later [`Parts::restore`] the parts without
/// recomputing those letters.
#[derive(Clone, Copy)]
pub struct Parts {
    sets: [u128; MAX_CODES],
    bounds: [u32; MAX_CODES],
    /// The sum of `bounds` (saturating).
    total: u32,
    /// The first letters' bounds as bytes ([`Parts::pack`]).
    stored: [u8; Parts::STORED],
}

impl Parts {
    /// Letters whose bounds [`Parts::stored`] keeps.
    pub const STORED: usize = 7;

    /// A stored letter bound that does not fit a byte, or of a letter not stored: recomputed
    /// by [`Parts::restore`].
    pub const UNSTORED: u8 = u8::MAX;

    /// Parts without letters, to be filled by [`Parts::restore`].
    pub const EMPTY: Parts = Parts {
        sets: [0; MAX_CODES],
        bounds: [0; MAX_CODES],
        total: 0,
        stored: [Parts::UNSTORED; Parts::STORED],
    };

    /// A letter bound as a stored byte.
    fn pack(bound: u32) -> u8 {
        u8::try_from(bound).unwrap_or(Self::UNSTORED)
    }

    /// The bounds of the first [`Parts::STORED`] letters as bytes, for [`Parts::restore`].
    pub fn stored(&self) -> [u8; Parts::STORED] {
        self.stored
    }

    /// The parts of `state` (live), whose first letters' bounds were kept as bytes (from
    /// [`Parts::stored`] or [`Parts::child_bound_stored`]): letters past `stored` or stored as
    /// [`Parts::UNSTORED`] are recomputed, the others taken as stored (a letter's bound
    /// depends on its own set alone, so a stored bound is the one `letter_bound` gives).
    pub fn restore<const P: usize>(
        &mut self,
        geo: &Geometry,
        pairs: &mut Pairs,
        state: &State<P>,
        stored: &[u8],
    ) {
        let mut total = 0u32;
        for i in 0..geo.letters.len() {
            let set = state.letter(i + 1);
            let bound = match stored.get(i) {
                Some(&bound) if bound != Self::UNSTORED => u32::from(bound),
                _ => letter_bound(geo, pairs, set),
            };
            self.sets[i] = set;
            self.bounds[i] = bound;
            total = total.saturating_add(bound);
            if let Some(slot) = self.stored.get_mut(i) {
                *slot = Self::pack(bound);
            }
        }
        self.total = total;
    }

    /// The parts of `state`, reusing those of `base` for letters whose set is unchanged.
    /// Also returns the total ([`DEAD`] if some letter is dead).
    pub fn derive<const P: usize>(
        geo: &Geometry,
        pairs: &mut Pairs,
        state: &State<P>,
        base: Option<&Parts>,
    ) -> (Parts, u32) {
        let mut parts = Parts::EMPTY;
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
            if let Some(slot) = parts.stored.get_mut(i) {
                *slot = Self::pack(bound);
            }
        }
        parts.total = total;
        (parts, at_least_one_push(total.min(DEAD), state))
    }

    /// The lower bound of a child of the state these are the parts of (equal to
    /// [`lower_bound`] of the child).
    pub fn child_bound<const P: usize>(
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
        at_least_one_push(total, child)
    }

    /// [`Parts::child_bound`] of a `child` of this (live) state made by pushes, given the
    /// `changed` cells (those whose letter or emptiness differs, [`State::changed`]); also
    /// writes the child's first letters' bounds into `stored` for [`Parts::restore`] (left
    /// unspecified for a dead child).
    ///
    /// A letter's set changed iff one of its cells in this state changed: pushes, falls and
    /// removals never make blocks, so a letter whose every cell kept it has no other cell.
    /// Only those letters are looked at in the child; the others keep their bounds.
    #[inline(always)]
    pub fn child_bound_stored<const P: usize>(
        &self,
        geo: &Geometry,
        pairs: &mut Pairs,
        child: &State<P>,
        changed: u128,
        stored: &mut [u8; Parts::STORED],
    ) -> u32 {
        let mut letters = 0u32;
        for (i, &set) in self.sets[..geo.letters.len()].iter().enumerate() {
            letters |= u32::from(set & changed != 0) << i;
        }
        *stored = self.stored;
        // The parent is live: each bound is below DEAD, and so is their sum.
        let mut total = self.total;
        while letters != 0 {
            let i = letters.trailing_zeros() as usize;
            letters &= letters - 1;
            let bound = letter_bound(geo, pairs, child.letter(i + 1));
            if bound >= DEAD {
                return DEAD;
            }
            total = total - self.bounds[i] + bound;
            if let Some(slot) = stored.get_mut(i) {
                *slot = Self::pack(bound);
            }
        }
        at_least_one_push(total, child)
    }
}

/// The bound of one letter given its cells (0 for an absent letter), or [`DEAD`].
fn letter_bound(geo: &Geometry, pairs: &mut Pairs, set: u128) -> u32 {
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
        if let Some(bound) = pairs.sets.get(set) {
            return bound;
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
            pairs.load_rows(geo, blocks[i].1, i);
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
            from: &pairs.scratch_from,
            near: &pairs.scratch_near,
            near2: &pairs.scratch_near2,
        };
        let groups = &mut pairs.groups;
        let mut cost_of = |group: u32| {
            if group.count_ones() == 2 {
                // A pair costs two table reads: cheaper than the memo.
                return letter.group_cost(group);
            }
            let cells = Cells(u128::from(group))
                .iter()
                .fold(0u128, |cells, i| cells | 1u128 << blocks[i].1);
            groups.get(cells).unwrap_or_else(|| {
                let cost = letter.group_cost(group);
                groups.put(cells, cost);
                cost
            })
        };
        let bound = nearest_bound(letter.columns)
            .max(letter.split_with(&mut cost_of))
            .min(DEAD);
        pairs.sets.put(set, bound);
        return bound;
    }
    // Many blocks: every block touches some block of its letter when it goes, so the letter
    // needs at least, for each block, the fewest pushes it and any partner need to touch.
    if let Some(bound) = pairs.sets.get(set) {
        return bound;
    }
    let mut worst = 0;
    for a in Cells(set).iter() {
        let nearest = Cells(set & !(1u128 << a))
            .iter()
            .map(|b| pairs.pushes(geo, a, b).unwrap_or(DEAD))
            .min()
            .unwrap_or(DEAD);
        worst = worst.max(nearest);
    }
    pairs.sets.put(set, worst);
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
    /// Each block's pushes to each cell, and to some neighbour of each cell ([`Pairs`]).
    from: &'a [CostRow; PARTITION_MAX],
    near: &'a [CostRow; PARTITION_MAX],
    /// Each block's pushes to some cell at most two steps from each cell.
    near2: &'a [CostRow; PARTITION_MAX],
}

/// Subsets of a letter's blocks (bit `i` = the `i`-th block by column).
const SUBSETS: usize = 1 << PARTITION_MAX;

/// The labelled paths on four vertices `0..4`, one per reversal pair (`4! / 2`).
const PATHS_OF_FOUR: [[usize; 4]; 12] = [
    [0, 1, 2, 3],
    [0, 1, 3, 2],
    [0, 2, 1, 3],
    [0, 2, 3, 1],
    [0, 3, 1, 2],
    [0, 3, 2, 1],
    [1, 0, 2, 3],
    [1, 0, 3, 2],
    [1, 2, 0, 3],
    [1, 3, 0, 2],
    [2, 0, 1, 3],
    [2, 1, 0, 3],
];

impl Letter<'_> {
    /// Partition bound: the blocks leave the board in connected groups of two or more, and
    /// pushes of different blocks are different pushes, so the bound is the cheapest split of
    /// all the blocks into groups, each costing at least [`Letter::group_cost`]. Computed by
    /// dynamic programming over subsets (`best[mask]`: cheapest split of the blocks in `mask`;
    /// a subset of one block has no split, [`DEAD`]), `O(3^n)` for `n` blocks.
    #[cfg(test)]
    fn partition_bound(&self) -> u32 {
        self.split_with(&mut |group| self.group_cost(group))
    }

    /// [`Letter::partition_bound`] with group costs from `cost_of` (a memo in the engine).
    fn split_with(&self, cost_of: &mut impl FnMut(u32) -> u32) -> u32 {
        // Tables just large enough for the letter's subsets (they are cleared on every call).
        match self.columns.len() {
            0..=3 => self.split::<{ 1 << 3 }>(cost_of),
            4 => self.split::<{ 1 << 4 }>(cost_of),
            5 => self.split::<{ 1 << 5 }>(cost_of),
            _ => self.split::<SUBSETS>(cost_of),
        }
    }

    /// [`Letter::partition_bound`] with tables of `S >= 2^n` entries.
    fn split<const S: usize>(&self, cost_of: &mut impl FnMut(u32) -> u32) -> u32 {
        let n = self.columns.len();
        let full = (1usize << n) - 1;
        let mut cost = [DEAD; S];
        for (group, slot) in cost.iter_mut().enumerate().take(full + 1).skip(1) {
            // A group of all blocks but one leaves a lone block, which has no split: such
            // groups stay [`DEAD`] without being costed (the costly part of small letters).
            let size = group.count_ones() as usize;
            if size >= 2 && size + 1 != n {
                *slot = cost_of(group as u32);
            }
        }
        let mut best = [DEAD; S];
        best[0] = 0;
        for mask in 1..=full {
            // Every group holding the lowest block of `mask`, and the best split of the rest.
            let first = 1 << mask.trailing_zeros();
            let rest = mask & !first;
            let mut others = rest;
            let mut value = DEAD;
            while others != 0 {
                let remaining = rest & !others;
                value = value.min(cost[others | first].saturating_add(best[remaining]));
                others = (others - 1) & rest;
            }
            best[mask] = value.min(DEAD);
        }
        best[full]
    }

    /// Pushes a group of blocks (a subset, two or more) needs at least to be removed together,
    /// the largest of:
    /// - span: a connected group of `m` blocks spans at most `m - 1` columns when it goes (its
    ///   leftmost block must move right, its rightmost left), so `span - (m - 1)`;
    /// - tree: when it goes the group is connected, so its adjacencies contain a spanning tree
    ///   `T`, and the group costs at least the least, over the trees it could form, of a lower
    ///   bound for the tree. Per tree, each block pays its own pushes (wall-aware, [`Pairs`]),
    ///   so for disjoint sets of blocks these add up:
    ///   - a matching of `T`: each edge `(u, v)` is two touching blocks, which together need
    ///     `pair(u, v)` pushes;
    ///   - a star of `T` around a block `c` ([`Letter::star`]): `c` ends on some cell `p`, its
    ///     neighbours in `T` on neighbours of `p`, blocks two edges from `c` at most two steps
    ///     from `p`.
    ///
    ///   Three blocks: the trees are the paths `x - c - y`, stars around `c`. Four: the stars
    ///   (center and three leaves) and the paths `a - b - c - d` (matching `ab + cd` or `bc`;
    ///   stars around `b` with `d` two steps away and around `c` with `a` two steps away). Five:
    ///   every tree on five vertices has a block at most two edges from all others (radius at
    ///   most 2), so the least over `c` of the star around `c` with all others two steps away.
    ///   Five or more, also: every block touches some other block of the group, so the group
    ///   costs at least `max over u of min over v of pair(u, v)`.
    ///
    /// Without the star terms for four blocks the paths' matchings stand; the stars of a path
    /// are computed only when its matching is below the best tree so far (they only raise it).
    fn group_cost(&self, group: u32) -> u32 {
        let size = group.count_ones() as usize;
        let low = group.trailing_zeros() as usize;
        let high = 31 - group.leading_zeros() as usize;
        let span = (self.columns[high] - self.columns[low]).saturating_sub(size as u32 - 1);
        let mut members = [0usize; PARTITION_MAX];
        let mut bits = group;
        for slot in members.iter_mut().take(size) {
            *slot = bits.trailing_zeros() as usize;
            bits &= bits - 1;
        }
        let w = |a: usize, b: usize| self.pair[members[a]][members[b]];
        let m = |x: &usize| members[*x];
        // The least star among the centers, each computed only when its heaviest edge (a
        // weaker bound of the same star) is below the best so far.
        let stars = |mut best: u32| {
            for center in 0..size {
                let leaves = (0..size).filter(|&x| x != center);
                let edges = leaves.clone().map(|x| w(center, x)).max().unwrap_or(DEAD);
                if edges < best {
                    let star = self.star(members[center], leaves.map(|x| members[x]), [].iter());
                    best = best.min(edges.max(star));
                }
            }
            best
        };
        let single_edges = || {
            (0..size)
                .filter_map(|u| (0..size).filter(|&v| v != u).map(|v| w(u, v)).min())
                .max()
                .unwrap_or(DEAD)
        };
        let tree = match size {
            2 => w(0, 1),
            3 => stars(DEAD),
            4 => {
                let mut best = stars(DEAD);
                for p in &PATHS_OF_FOUR {
                    let matching = (w(p[0], p[1]) + w(p[2], p[3])).max(w(p[1], p[2]));
                    // The path's star terms only when the path could still be the cheapest.
                    if matching < best {
                        let inner = [(p[1], [p[0], p[2]], p[3]), (p[2], [p[1], p[3]], p[0])];
                        let stars = inner.iter().map(|(center, ones, two)| {
                            self.star(m(center), ones.iter().map(m), [m(two)].iter())
                        });
                        best = best.min(stars.fold(matching, u32::max));
                    }
                }
                best
            }
            5 => {
                // Some block is at most two steps (through the group) from every other.
                let radius = (0..size)
                    .map(|c| {
                        let mut others = [0usize; 4];
                        for (slot, x) in others.iter_mut().zip((0..size).filter(|&x| x != c)) {
                            *slot = members[x];
                        }
                        self.star(members[c], [].into_iter(), others.iter())
                    })
                    .min()
                    .unwrap_or(DEAD);
                radius.max(single_edges())
            }
            _ => single_edges(),
        };
        span.max(tree).min(DEAD)
    }

    /// Pushes a star needs at least: its center `center` ends on some cell `p`, each of
    /// `leaves` on a neighbour of `p`, each of `far` within two steps of `p`, each block
    /// paying its own pushes (wall-aware, [`Pairs`]): the least over `p` of
    /// `from[center][p] + sum of near[leaf][p] + sum of near2[far][p]`. Sums saturate at
    /// [`UNKNOWN`] (unreachable), which keeps them lower bounds.
    fn star<'b>(
        &self,
        center: usize,
        leaves: impl Iterator<Item = usize>,
        far: impl Iterator<Item = &'b usize>,
    ) -> u32 {
        let mut total = self.from[center];
        for leaf in leaves {
            for (sum, &add) in total.iter_mut().zip(&self.near[leaf]) {
                *sum = sum.saturating_add(add);
            }
        }
        for &block in far {
            for (sum, &add) in total.iter_mut().zip(&self.near2[block]) {
                *sum = sum.saturating_add(add);
            }
        }
        u32::from(total.iter().copied().min().unwrap_or(UNKNOWN))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::vexed::grid::Grid;
    use crate::games::vexed::test_rng::Rng;
    use std::collections::HashMap;

    /// Random boards of the exhaustive check.
    const BOARDS: usize = 1000;
    /// Most states a board of the exhaustive check may reach (bigger ones are skipped).
    const MAX_REACHABLE: usize = 40_000;

    /// Every state reachable from `start` with its true distance to a clear board (`None`
    /// when no clear board is reachable from it), or `None` when there are too many states.
    fn true_distances(geo: &Geometry, start: State<2>) -> Option<HashMap<State<2>, Option<u32>>> {
        let mut index = HashMap::from([(start, 0usize)]);
        let mut states = vec![start];
        let mut parents: Vec<Vec<usize>> = vec![Vec::new()];
        let mut next = 0;
        while next < states.len() {
            let state = states[next];
            for (_, _, child) in state.children(geo) {
                let at = *index.entry(child).or_insert_with(|| {
                    states.push(child);
                    parents.push(Vec::new());
                    states.len() - 1
                });
                parents[at].push(next);
            }
            if states.len() > MAX_REACHABLE {
                return None;
            }
            next += 1;
        }
        // Backwards breadth-first search from the clear boards.
        let mut dist = vec![None; states.len()];
        let mut queue = std::collections::VecDeque::new();
        for (i, state) in states.iter().enumerate() {
            if state.is_clear() {
                dist[i] = Some(0);
                queue.push_back(i);
            }
        }
        while let Some(i) = queue.pop_front() {
            let d = dist[i].unwrap();
            for &p in &parents[i] {
                if dist[p].is_none() {
                    dist[p] = Some(d + 1);
                    queue.push_back(p);
                }
            }
        }
        Some(states.into_iter().zip(dist).collect())
    }

    /// A random settled board of at most three letters, often with many blocks of one letter
    /// (to reach the bounds of large letters).
    fn random_board(rng: &mut Rng) -> Grid {
        let rows = 3 + rng.below(4);
        let cols = 4 + rng.below(5);
        let weights: &[(u8, u64)] = match rng.below(3) {
            0 => &[(b'-', 4), (b'#', 2), (b'A', 3), (b'B', 1)],
            1 => &[(b'-', 3), (b'#', 1), (b'A', 4), (b'B', 1)],
            _ => &[(b'-', 5), (b'#', 2), (b'A', 1), (b'B', 1), (b'C', 1)],
        };
        let total: u64 = weights.iter().map(|w| w.1).sum();
        let cells = (0..rows * cols)
            .map(|_| {
                let mut pick = rng.next() % total;
                for &(cell, weight) in weights {
                    if pick < weight {
                        return cell;
                    }
                    pick -= weight;
                }
                unreachable!()
            })
            .collect();
        let mut grid = Grid::new(rows, cols, cells);
        grid.settle();
        grid
    }

    fn board(rows: &[&str]) -> (Geometry, State<2>) {
        let grid = Grid::new(rows.len(), rows[0].len(), rows.concat().into_bytes());
        let geo = Geometry::new(&grid);
        let state = State::<2>::new(&geo, &grid);
        (geo, state)
    }

    fn bound_of(rows: &[&str]) -> u32 {
        let (geo, state) = board(rows);
        lower_bound(&geo, &mut Pairs::new(&geo), &state)
    }

    #[test]
    fn a_board_with_blocks_needs_a_push_even_when_every_letter_is_free() {
        // A(0,0) over B(1,0) over A(2,0), and B(2,1). Each letter's bound is 0: A(0,0) may
        // drop through B's cell onto A(2,0), B(1,0) through A's cell beside B(2,1). The board is
        // stable, so it needs a push: B(1,0) right stops on B(2,1), the Bs go, A(0,0) drops
        // onto A(2,0), the As go. True distance 1.
        assert_eq!(bound_of(&["A--", "B--", "AB-", "###"]), 1);
        assert_eq!(bound_of(&["---", "###"]), 0);
    }

    #[test]
    fn three_blocks_in_wall_pockets_pay_their_star() {
        // As at (0,0), (2,0), (4,0), walls between them in column 0, column 1 open. Any two
        // touch after one push (into column 1, then down beside the other): pair costs 1,
        // span 0. But all three must touch at once, as a path `x - c - y` (a star around
        // `c`): `c`'s cell has at most one open neighbour in column 0's pockets (the cell to
        // its right), so with `c` unmoved both others need a push to reach it (1 + 1), and a
        // moved `c` already paid one. Bound 2, checked below the true distance by BFS.
        let rows = ["A--", "#--", "A--", "#--", "A--", "###"];
        assert_eq!(bound_of(&rows), 2);
        let (geo, start) = board(&rows);
        let distances = true_distances(&geo, start).expect("a small board");
        assert!(distances[&start].is_none_or(|d| d >= 2));
    }

    #[test]
    fn four_blocks_on_a_single_possible_tree_pay_its_matching() {
        // Only the edges 0-1 (3 pushes), 1-2 (1) and 2-3 (3) can ever touch, so the one tree
        // the four blocks can form is the path 0-1-2-3, whose matching {0-1, 2-3} is pushes of
        // four different blocks: 3 + 3 = 6 (the heaviest single edge gives only 3).
        let mut pair = [[DEAD; PARTITION_MAX]; PARTITION_MAX];
        for (a, b, w) in [(0, 1, 3), (1, 2, 1), (2, 3, 3)] {
            pair[a][b] = w;
            pair[b][a] = w;
        }
        // No cell costs at all (every star term 0): only the pair distances count.
        let zeros = [[0; MAX_CELLS]; PARTITION_MAX];
        let letter = Letter {
            columns: &[0, 0, 0, 0],
            pair: &pair,
            from: &zeros,
            near: &zeros,
            near2: &zeros,
        };
        assert_eq!(letter.group_cost(0b1111), 6);
        // Three of them: the path 0-1-2 costs its heavier edge, 3.
        assert_eq!(letter.group_cost(0b0111), 3);
        // Two groups {0, 1} and {2, 3} also cost 6; nothing cheaper splits all four.
        assert_eq!(letter.partition_bound(), 6);
    }

    #[test]
    fn a_row_of_four_pays_two_pairs_not_one_span() {
        // As at columns 0, 2, 4, 6 of the bottom row, each neighbour pair one push from
        // touching. Two pairs cost 1 + 1; one group of four spans 6 columns (cost 6 - 3 = 3).
        // True distance 2: A(1,2) left joins A(1,0), A(1,4) right joins A(1,6).
        assert_eq!(bound_of(&["-------", "A-A-A-A"]), 2);
    }

    #[test]
    fn many_blocks_use_the_wall_aware_nearest_partner() {
        // Nine As one column apart: each needs one push to touch its nearest partner.
        assert_eq!(bound_of(&["A-A-A-A-A-A-A-A-A"]), 1);
        // A wall beside the first A, in the only row: it can never touch another A (dead).
        assert_eq!(bound_of(&["A#A-A-A-A-A-A-A-A"]), DEAD);
    }

    /// The bound never exceeds the true distance, on every state reachable from hundreds of
    /// random boards (distances by exhaustive breadth-first search), and it is the same
    /// whether computed whole or incrementally from a parent's parts.
    #[test]
    fn the_bound_is_admissible_on_every_reachable_state() {
        let mut rng = Rng(0x5eed_0b0d);
        let (mut boards, mut states, mut tight) = (0, 0, 0);
        while boards < BOARDS {
            let grid = random_board(&mut rng);
            let geo = Geometry::new(&grid);
            let start = State::<2>::new(&geo, &grid);
            let Some(distances) = true_distances(&geo, start) else {
                continue;
            };
            boards += 1;
            let mut pairs = Pairs::new(&geo);
            for (state, dist) in &distances {
                let bound = lower_bound(&geo, &mut pairs, state);
                let (parts, total) = Parts::derive(&geo, &mut pairs, state, None);
                assert_eq!(bound, total);
                if let Some(dist) = *dist {
                    assert!(
                        bound <= dist,
                        "bound {bound} > distance {dist}:\n{}",
                        state.to_grid(&geo).draw()
                    );
                    tight += usize::from(bound == dist);
                }
                for (_, _, child) in state.children(&geo) {
                    assert_eq!(
                        parts.child_bound(&geo, &mut pairs, &child),
                        lower_bound(&geo, &mut pairs, &child)
                    );
                }
                states += 1;
            }
        }
        eprintln!("{boards} boards, {states} states, {tight} with bound = distance");
    }
}
