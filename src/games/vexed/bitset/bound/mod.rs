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
//!   groups of two or more (`Letter::split_above`), each group costing at least its span
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
//! board), and a search's [`Pairs`] is reused for the next puzzle ([`Pairs::reset`]). Rows
//! cover the board's cells only, in 16-byte [`Lane`]s whose loops compile to SSE2 saturating
//! adds and minima (every x86-64 has them: no target feature, no `unsafe`); the star terms of
//! a letter read the rows in place; the memo of small sets packs key, epoch and bound in one
//! `u64` ([`SmallMemo`]). Splits of three to five blocks are enumerated directly, stopping as
//! soon as one is down to the nearest-partner term, and a group is costed only as far as it
//! could beat the best split so far ([`Letter::group_cost_below`]); the few terms this skips
//! could never change the value.
//!
//! Invariant: every value returned is at most the true number of pushes left (or [`DEAD`]
//! only when the board can never be cleared), so searches that prune with it stay exact.
//! The test `the_bound_is_admissible_on_every_reachable_state` checks it against true
//! distances on every reachable state of a thousand small random boards, and
//! `the_optimised_bound_equals_the_oracle` checks that the values are exactly those of the
//! previous, plain implementation (`oracle`, test-only), so the searches expand the same
//! states.

use super::planes::{Cells, Geometry, State, indices};
use super::slots::{spread, written};
use crate::games::vexed::MAX_CELLS;

#[cfg(test)]
mod oracle;

/// The lower bound of a dead state (small enough that adding a depth cannot overflow).
pub(crate) const DEAD: u32 = u32::MAX / 4;

/// Letters with at most this many blocks get the partition bound (all partitions are tried).
/// Any value keeps the bound admissible; larger ones cost `3^n` splits per letter for few
/// more pruned states (the comparison is in `benches/README.md`, Vexed).
const PARTITION_MAX: usize = 5;

/// Unknown entry of the [`Pairs`] cache, and the cost of an unreachable cell.
const UNKNOWN: u8 = u8::MAX;
/// Entry of the [`Pairs`] cache for two cells whose blocks can never touch.
const NEVER: u8 = u8::MAX - 1;

/// Cells of one [`Lane`]: the 16 bytes of an SSE2 register (baseline on x86-64).
const LANE: usize = 16;

/// Push costs of [`LANE`] consecutive cells. Rows are whole lanes; cells past the board read
/// [`UNKNOWN`], which neither a saturating sum nor a minimum can bring below a real cell's.
type Lane = [u8; LANE];

/// Most lanes in a row (boards of [`MAX_CELLS`] cells).
const MAX_LANES: usize = MAX_CELLS.div_ceil(LANE);

/// Lane-wise saturating sum (`paddusb`). Saturating at [`UNKNOWN`] keeps a sum with an
/// unreachable term unreachable.
#[inline(always)]
fn add_lanes(mut sum: Lane, add: &Lane) -> Lane {
    for (s, a) in sum.iter_mut().zip(add) {
        *s = s.saturating_add(*a);
    }
    sum
}

/// Lane-wise minimum (`pminub`).
#[inline(always)]
fn min_lanes(mut least: Lane, other: &Lane) -> Lane {
    for (l, o) in least.iter_mut().zip(other) {
        *l = (*l).min(*o);
    }
    least
}

/// The least cell of a lane, by halving (a shape the compiler turns into shuffles and
/// vector minima rather than a chain of scalar comparisons).
#[inline(always)]
fn lane_min(mut lane: Lane) -> u8 {
    let mut width = LANE / 2;
    while width > 0 {
        for i in 0..width {
            lane[i] = lane[i].min(lane[i + width]);
        }
        width /= 2;
    }
    lane[0]
}

/// The least saturating sum `a[p] + b[p]` over the cells of two rows.
#[inline(never)]
fn least_sum(a: &[Lane], b: &[Lane]) -> u8 {
    let mut sums = [[UNKNOWN; LANE]; MAX_LANES];
    for (sum, (x, y)) in sums.iter_mut().zip(a.iter().zip(b)) {
        *sum = add_lanes(*x, y);
    }
    // Kept in memory (no cost): split into 128 byte variables, the minimum below was
    // compiled to scalar comparisons instead of `pminub`.
    least_of(std::hint::black_box(&sums))
}

/// The least cell of a full set of lanes (unused lanes hold [`UNKNOWN`]). A fixed number of
/// lanes keeps this a few vector minima: a minimum carried along a loop of variable length
/// was vectorised across iterations instead, byte by byte.
#[inline(always)]
fn least_of(lanes: &[Lane; MAX_LANES]) -> u8 {
    lane_min(lanes[1..].iter().fold(lanes[0], min_lanes))
}

/// The row of cell `a` in a table of rows of `lanes` lanes.
#[inline(always)]
fn row_of(table: &[Lane], lanes: usize, a: usize) -> &[Lane] {
    &table[a * lanes..(a + 1) * lanes]
}

/// Pushes two blocks need to touch, from the walls alone, computed lazily per pair of cells.
///
/// A block's possible journeys, ignoring other blocks (which may or may not be there later),
/// form a graph on the non-wall cells: sideways to a non-wall neighbour for one push, down to a
/// non-wall cell for free (falling, or lowered as blocks below go), never up. For two blocks on
/// cells `a` and `b`, the pushes they need before touching are at least the cheapest
/// `cost(a -> p) + cost(b -> q)` over orthogonally adjacent cells `p`, `q`: every real pair of
/// trajectories is a pair of paths in that graph. When no such pair exists they never touch.
///
/// The cost tables hold one row of `lanes` [`Lane`]s per cell (`cells` rounded up to whole
/// lanes, the padding [`UNKNOWN`]).
pub(crate) struct Pairs {
    cells: usize,
    /// Lanes per row of `from`, `near` and `near2`.
    lanes: usize,
    /// Row `a` of `from`: pushes from `a` to each cell (unreachable cells [`UNKNOWN`]);
    /// filled on demand, bit `a` of `from_done`.
    from: Vec<Lane>,
    /// `pair[a * cells + b]`, or [`UNKNOWN`] / [`NEVER`]. Every byte is [`UNKNOWN`] outside
    /// the rows of `pair_rows` (so [`Pairs::reset`] clears those rows only, not the table).
    pair: Vec<u8>,
    /// The rows `a` of `pair` with an entry.
    pair_rows: Cells,
    /// Bounds of letters of three to [`PARTITION_MAX`] blocks by their cell set.
    sets: SmallMemo,
    /// Costs of removal groups ([`Letter::group_cost`]) by their cell set: when one block of
    /// a letter moves, the groups without it keep their cost.
    groups: SmallMemo,
    /// Bounds of letters of more than [`PARTITION_MAX`] blocks by their cell set.
    wide: WideMemo,
    /// Row `a` of `near`: fewest pushes from `a` to some orthogonal neighbour of each cell
    /// ([`UNKNOWN`] if none is reachable); rows filled on demand, bit `a` of `near_done`.
    near: Vec<Lane>,
    /// Row `a` of `near2`: fewest pushes from `a` to a cell at most two steps from each cell
    /// (through an open neighbour of it; the cell itself included, which only lowers it);
    /// rows filled on demand, bit `a` of `near2_done`.
    near2: Vec<Lane>,
    /// Rows of `from`, `near` and `near2` computed for the current board, one bit per cell:
    /// a row is written whole when it is computed, so the tables are never cleared, and
    /// moving to another board only zeroes these (boards have at most 128 cells).
    from_done: Cells,
    near_done: Cells,
    near2_done: Cells,
    edges: Edges,
}

/// Slots of each [`SmallMemo`], as a power of two (4096 slots of 8 bytes: 32 KB).
const SMALL_MEMO_BITS: u32 = 12;
/// Bits of a [`SmallMemo`] key: one byte per cell, at most [`PARTITION_MAX`] cells.
const KEY_BITS: u32 = 8 * PARTITION_MAX as u32;
/// Bits of a [`SmallMemo`] epoch, above the key.
const EPOCH_BITS: u32 = 8;
/// Key and epoch of a [`SmallMemo`] slot (the bound is above them).
const TAG_MASK: u64 = (1 << (KEY_BITS + EPOCH_BITS)) - 1;
/// The stored bound of [`DEAD`] (other bounds are stored as they are, when below it).
const DEAD_STORED: u64 = u16::MAX as u64;

/// Direct-mapped memo of the bounds of small cell sets (at most [`PARTITION_MAX`] cells; a
/// letter's bound or a group's cost depends on nothing else on a given board), one `u64` per
/// slot: the key ([`SmallMemo::key_with`]: byte `i` is the `i`-th cell plus one, so a set of
/// two or more cells never has the key 0 of a fresh slot), then the epoch, then the bound (16
/// bits: a bound is [`DEAD`] or small, sums of a few pair and star costs of at most 255 each;
/// a larger one is just not stored). An entry counts only if its epoch is the current one, so
/// moving to another board ([`Pairs::reset`]) empties the memo without clearing it, except
/// when the epoch wraps.
#[derive(Default)]
struct SmallMemo {
    slots: Vec<u64>,
    epoch: u64,
}

impl SmallMemo {
    /// `key` with cell `cell` added as the `i`-th cell (cells are added in increasing order,
    /// so a set has one key).
    fn key_with(key: u64, i: usize, cell: usize) -> u64 {
        debug_assert!(i < PARTITION_MAX && cell < MAX_CELLS);
        key | (cell as u64 + 1) << (8 * i)
    }

    fn slot(key: u64) -> usize {
        spread(key, SMALL_MEMO_BITS)
    }

    fn get(&self, key: u64) -> Option<u32> {
        let entry = *self.slots.get(Self::slot(key))?;
        if entry & TAG_MASK != key | self.epoch << KEY_BITS {
            return None;
        }
        let stored = entry >> (KEY_BITS + EPOCH_BITS);
        Some(if stored == DEAD_STORED {
            DEAD
        } else {
            stored as u32
        })
    }

    fn put(&mut self, key: u64, bound: u32) {
        let stored = match u64::from(bound) {
            _ if bound >= DEAD => DEAD_STORED,
            small if small < DEAD_STORED => small,
            // Never seen; not storing it keeps every value exact.
            _ => return,
        };
        if self.slots.is_empty() {
            // Allocated on first use (many boards have no letter of three or more blocks).
            self.slots = written(1 << SMALL_MEMO_BITS, 0);
        }
        self.slots[Self::slot(key)] =
            key | self.epoch << KEY_BITS | stored << (KEY_BITS + EPOCH_BITS);
    }

    /// Forgets every entry.
    fn clear(&mut self) {
        self.epoch = (self.epoch + 1) % (1 << EPOCH_BITS);
        if self.epoch == 0 {
            // Entries of the epoch wrapped to could still be there: really clear them.
            self.slots.fill(0);
        }
    }
}

/// Slots of the [`WideMemo`], as a power of two (1024 slots of 32 bytes: 32 KB).
const WIDE_MEMO_BITS: u32 = 10;

/// Direct-mapped memo of the bound of a letter of more than [`PARTITION_MAX`] blocks by its
/// cell set: `(cells, bound, epoch)`, with epochs as in [`SmallMemo`]. A fresh slot (all
/// zeros) never matches: such a letter's cell set is not empty.
#[derive(Default)]
struct WideMemo {
    slots: Vec<(Cells, u32, u32)>,
    epoch: u32,
}

impl WideMemo {
    fn slot(set: Cells) -> usize {
        let bits = set.bits();
        spread((bits as u64) ^ ((bits >> 64) as u64), WIDE_MEMO_BITS)
    }

    fn get(&self, set: Cells) -> Option<u32> {
        let &(cells, bound, epoch) = self.slots.get(Self::slot(set))?;
        (cells == set && epoch == self.epoch).then_some(bound)
    }

    fn put(&mut self, set: Cells, bound: u32) {
        if self.slots.is_empty() {
            self.slots = written(1 << WIDE_MEMO_BITS, (Cells::EMPTY, 0, 0));
        }
        self.slots[Self::slot(set)] = (set, bound, self.epoch);
    }

    /// Forgets every entry.
    fn clear(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.slots.clear();
        }
    }
}

impl Pairs {
    pub(crate) fn new(geo: &Geometry) -> Pairs {
        let mut pairs = Pairs {
            cells: 0,
            lanes: 0,
            from: Vec::new(),
            pair: Vec::new(),
            pair_rows: Cells::EMPTY,
            sets: SmallMemo::default(),
            groups: SmallMemo::default(),
            wide: WideMemo::default(),
            near: Vec::new(),
            near2: Vec::new(),
            from_done: Cells::EMPTY,
            near_done: Cells::EMPTY,
            near2_done: Cells::EMPTY,
            edges: Edges::default(),
        };
        pairs.reset(geo);
        pairs
    }

    /// Makes these tables those of a new board (of `geo`), keeping their memory: a thread
    /// solving many puzzles reuses one `Pairs`.
    ///
    /// Nothing is cleared wholesale (a small puzzle never reads most rows of the tables a
    /// large one filled): the rows of
    /// `from`, `near` and `near2` are marked not computed (their old bytes are overwritten
    /// when they are), and only the rows of `pair` that hold entries are reset.
    pub(crate) fn reset(&mut self, geo: &Geometry) {
        let old_cells = self.cells;
        for a in self.pair_rows.iter() {
            self.pair[a * old_cells..(a + 1) * old_cells].fill(UNKNOWN);
        }
        self.pair_rows = Cells::EMPTY;
        let cells = geo.rows * geo.cols;
        self.cells = cells;
        self.lanes = cells.div_ceil(LANE);
        for table in [&mut self.from, &mut self.near, &mut self.near2] {
            if table.len() < cells * self.lanes {
                table.resize(cells * self.lanes, [UNKNOWN; LANE]);
            }
        }
        if self.pair.len() < cells * cells {
            self.pair.resize(cells * cells, UNKNOWN);
        }
        (self.from_done, self.near_done, self.near2_done) =
            (Cells::EMPTY, Cells::EMPTY, Cells::EMPTY);
        self.sets.clear();
        self.groups.clear();
        self.wide.clear();
        self.edges.reset(geo);
    }

    /// Fills the row of push costs from cell `a` ([`push_costs`]), once.
    fn costs_from(&mut self, geo: &Geometry, a: usize) {
        if !first_time(&mut self.from_done, a) {
            return;
        }
        let lanes = self.lanes;
        let row = self.from[a * lanes..(a + 1) * lanes].as_flattened_mut();
        row.fill(UNKNOWN);
        push_costs(geo, a, row);
    }

    /// Fills the rows of `a` in [`Pairs::costs_from`] and [`Pairs::near`].
    fn fill_near(&mut self, geo: &Geometry, a: usize) {
        if !first_time(&mut self.near_done, a) {
            return;
        }
        self.costs_from(geo, a);
        let lanes = self.lanes;
        // A wall is never reached (its cost stays UNKNOWN, the largest value), so a plain
        // minimum over the four neighbours skips walls.
        let near = self.near[a * lanes..(a + 1) * lanes].as_flattened_mut();
        near.fill(UNKNOWN);
        let from = row_of(&self.from, lanes, a).as_flattened();
        self.edges.spread_min(near, from);
    }

    /// Fills the rows of `a` in [`Pairs::near`] and [`Pairs::near2`] (only stars of groups of
    /// four or more read `near2`: pair distances do not need it).
    fn fill_near2(&mut self, geo: &Geometry, a: usize) {
        if !first_time(&mut self.near2_done, a) {
            return;
        }
        self.fill_near(geo, a);
        let lanes = self.lanes;
        // Two steps: through an open neighbour only (a wall's own `near` may be finite).
        let near = row_of(&self.near, lanes, a).as_flattened();
        let mut through = [UNKNOWN; MAX_CELLS];
        let through = &mut through[..self.cells];
        for ((t, n), wall) in through.iter_mut().zip(near).zip(&self.edges.walls) {
            *t = n | wall;
        }
        let near2 = self.near2[a * lanes..(a + 1) * lanes].as_flattened_mut();
        near2.copy_from_slice(near);
        self.edges.spread_min(near2, through);
    }

    /// Pushes blocks on cells `a` and `b` need before they can touch, or `None` if never.
    #[inline]
    pub(crate) fn pushes(&mut self, geo: &Geometry, a: usize, b: usize) -> Option<u32> {
        let mut value = self.pair[a * self.cells + b];
        if value == UNKNOWN {
            value = self.pair_pushes(geo, a, b);
        }
        (value != NEVER).then_some(u32::from(value))
    }

    /// Computes and enters the [`Pairs::pushes`] entry of `a` and `b`, or [`NEVER`].
    #[inline(never)]
    fn pair_pushes(&mut self, geo: &Geometry, a: usize, b: usize) -> u8 {
        // The least over cells `p` of the pushes from `a` to `p` plus those from `b` to a
        // neighbour of `p`, skipping cells where either is unreachable, or NEVER if none
        // (or if the least is NEVER or more).
        //
        // Computed as the lane-wise minimum of saturating u8 sums, clamped to NEVER, which
        // is the same value: finite costs are at most 127 (`costs_from`, and `near` takes
        // minima of them), so a finite sum is at most 254 and never saturates, while a sum
        // with an unreachable term saturates at UNKNOWN = 255, above every finite sum, so
        // it never is the minimum unless nothing is finite, and then the clamp gives
        // NEVER, the value of "no cell". Padding cells are UNKNOWN in both rows.
        self.costs_from(geo, a);
        self.fill_near(geo, b);
        let (cells, lanes) = (self.cells, self.lanes);
        let from_a = row_of(&self.from, lanes, a);
        let near_b = row_of(&self.near, lanes, b);
        let least = least_sum(from_a, near_b);
        let value = least.min(NEVER);
        self.pair[a * cells + b] = value;
        self.pair[b * cells + a] = value;
        self.pair_rows |= Cells::cell(a) | Cells::cell(b);
        value
    }
}

/// Cell masks of a board for neighbour minima ([`Edges::spread_min`]): [`UNKNOWN`] where
/// the neighbour does not count, 0 where it does, so that OR-ing a mask into a cost either
/// keeps the cost or makes it the largest value, which no minimum picks over another.
#[derive(Default)]
struct Edges {
    cells: usize,
    cols: usize,
    /// Cells in the first column (no left neighbour).
    first_col: Vec<u8>,
    /// Cells in the last column (no right neighbour).
    last_col: Vec<u8>,
    /// Walls (never a cell to pass through).
    walls: Vec<u8>,
}

impl Edges {
    fn reset(&mut self, geo: &Geometry) {
        let (rows, cols) = (geo.rows, geo.cols);
        let cells = rows * cols;
        (self.cells, self.cols) = (cells, cols);
        // Row by row, without a lookup or a variable shift per cell (once per puzzle).
        let inner = cols.saturating_sub(1);
        self.first_col.clear();
        self.last_col.clear();
        for _ in 0..rows {
            self.first_col.push(UNKNOWN);
            self.first_col.extend(std::iter::repeat_n(0, inner));
            self.last_col.extend(std::iter::repeat_n(0, inner));
            self.last_col.push(UNKNOWN);
        }
        self.walls.clear();
        // A running word shifted by one cell per cell: no variable shift.
        let mut walls = geo.walls;
        self.walls.extend((0..cells).map(|_| {
            let wall = if walls.contains(0) { UNKNOWN } else { 0 };
            walls = walls >> 1;
            wall
        }));
    }

    /// `dst[p] = min(dst[p], src[q])` over the in-board orthogonal neighbours `q` of every
    /// cell `p`, as four shifted slice minima that compile to vector code (`dst` and `src`
    /// hold at least the board's cells; the rest of `dst` is left alone).
    fn spread_min(&self, dst: &mut [u8], src: &[u8]) {
        let (cells, cols) = (self.cells, self.cols);
        if cells == 0 {
            return;
        }
        // Here `cells >= cols` (a whole number of rows).
        let (dst, src) = (&mut dst[..cells], &src[..cells]);
        // From the cell above and the one below (whole rows shift by `cols`).
        for (d, s) in dst[cols..].iter_mut().zip(&src[..cells - cols]) {
            *d = (*d).min(*s);
        }
        for (d, s) in dst[..cells - cols].iter_mut().zip(&src[cols..]) {
            *d = (*d).min(*s);
        }
        // From the left and right neighbours, but not across a row's end.
        for ((d, s), edge) in dst[1..].iter_mut().zip(src).zip(&self.first_col[1..]) {
            *d = (*d).min(s | edge);
        }
        for ((d, s), edge) in dst.iter_mut().zip(&src[1..]).zip(&self.last_col) {
            *d = (*d).min(s | edge);
        }
    }
}

/// Marks row `a` as computed in `done`: true the first time (the caller then computes it),
/// false when it already was.
#[inline(always)]
fn first_time(done: &mut Cells, a: usize) -> bool {
    let first = !done.contains(a);
    *done |= Cells::cell(a);
    first
}

/// Writes into `row` the pushes a block on cell `a` needs to reach each cell (walls alone),
/// layer by layer on bit sets: the cells reachable with at most `k` pushes are closed under
/// falling (free), then one sideways step into an open cell makes layer `k + 1`. Cells never
/// reached are left as they are.
fn push_costs(geo: &Geometry, a: usize, row: &mut [u8]) {
    let open = geo.board & !geo.walls;
    let fall = |mut set: Cells| loop {
        let next = set | (geo.row_down(set) & open);
        if next == set {
            return set;
        }
        set = next;
    };
    let mut reached = fall(Cells::cell(a));
    let mut fresh = reached;
    let mut cost = 0u8;
    loop {
        for cell in fresh.iter() {
            row[cell] = cost;
        }
        let sideways = ((reached << 1) & geo.not_first_col) | ((reached >> 1) & geo.not_last_col);
        let step = sideways & open & !reached;
        if step.is_empty() {
            break;
        }
        let next = fall(reached | step);
        fresh = next & !reached;
        reached = next;
        // At most one layer per cell, and cells are at most 128 < UNKNOWN: a finite cost is
        // at most 127 (which `Pairs::pushes` relies on).
        cost += 1;
    }
}

/// The cheapest split of `n` blocks into groups of two or more, each group (a subset, bit `i`
/// = block `i`) costing `cost_of(group)`, by dynamic programming over subsets with tables of
/// `S >= 2^n` entries (`best[mask]`: cheapest split of the blocks in `mask`; a subset of one
/// block has no split, [`DEAD`]), `O(3^n)`.
fn cheapest_split<const S: usize>(n: usize, cost_of: &mut impl FnMut(u32) -> u32) -> u32 {
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

/// The lower bound of module docs, or [`DEAD`].
pub(crate) fn lower_bound<const P: usize>(
    geo: &Geometry,
    pairs: &mut Pairs,
    state: &State<P>,
) -> u32 {
    sum_of_letters(geo, state, |set| letter_bound(geo, pairs, set))
}

/// The sum of `letter_bound` over the letters of `state`, at least one push on a board with
/// blocks ([`at_least_one_push`]), or [`DEAD`] as soon as one letter is dead.
#[inline(always)]
fn sum_of_letters<const P: usize>(
    geo: &Geometry,
    state: &State<P>,
    mut letter_bound: impl FnMut(Cells) -> u32,
) -> u32 {
    let mut total = 0;
    for code in 1..=geo.letters.len() {
        let bound = letter_bound(state.letter(code));
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
pub(crate) struct Parts {
    sets: [Cells; MAX_CODES],
    bounds: [u32; MAX_CODES],
    /// The sum of `bounds` (saturating).
    total: u32,
    /// The first letters' bounds as bytes ([`Parts::pack`]).
    stored: [u8; Parts::STORED],
}

impl Parts {
    /// Letters whose bounds [`Parts::stored`] keeps.
    pub(crate) const STORED: usize = 7;

    /// A stored letter bound that does not fit a byte, or of a letter not stored: recomputed
    /// by [`Parts::restore`].
    pub(crate) const UNSTORED: u8 = u8::MAX;

    /// Parts without letters, to be filled by [`Parts::restore`].
    pub(crate) const EMPTY: Parts = Parts {
        sets: [Cells::EMPTY; MAX_CODES],
        bounds: [0; MAX_CODES],
        total: 0,
        stored: [Parts::UNSTORED; Parts::STORED],
    };

    /// A letter bound as a stored byte.
    fn pack(bound: u32) -> u8 {
        u8::try_from(bound).unwrap_or(Self::UNSTORED)
    }

    /// The cells of each letter of the board these are the parts of (`[i]`: code `i + 1`).
    pub(crate) fn sets(&self, geo: &Geometry) -> &[Cells] {
        &self.sets[..geo.letters.len()]
    }

    /// The bounds of the first [`Parts::STORED`] letters as bytes, for [`Parts::restore`].
    #[cfg(test)]
    pub(crate) fn stored(&self) -> [u8; Parts::STORED] {
        self.stored
    }

    /// The parts of `state` (live), whose first letters' bounds were kept as bytes (from
    /// [`Parts::stored`] or [`Parts::child_bound_stored`]): letters past `stored` or stored as
    /// [`Parts::UNSTORED`] are recomputed, the others taken as stored (a letter's bound
    /// depends on its own set alone, so a stored bound is the one `letter_bound` gives).
    pub(crate) fn restore<const P: usize>(
        &mut self,
        geo: &Geometry,
        pairs: &mut Pairs,
        state: &State<P>,
        stored: &[u8],
    ) {
        self.fill(geo, pairs, state, |i, _| {
            stored
                .get(i)
                .filter(|&&bound| bound != Self::UNSTORED)
                .map(|&bound| u32::from(bound))
        });
    }

    /// Sets these parts to those of `state`, each letter's bound taken from `known` (given
    /// the letter's index and set) or else computed.
    fn fill<const P: usize>(
        &mut self,
        geo: &Geometry,
        pairs: &mut Pairs,
        state: &State<P>,
        known: impl Fn(usize, Cells) -> Option<u32>,
    ) {
        let mut total = 0u32;
        for i in 0..geo.letters.len() {
            let set = state.letter(i + 1);
            let bound = known(i, set).unwrap_or_else(|| letter_bound(geo, pairs, set));
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
    pub(crate) fn derive<const P: usize>(
        geo: &Geometry,
        pairs: &mut Pairs,
        state: &State<P>,
        base: Option<&Parts>,
    ) -> (Parts, u32) {
        let mut parts = Parts::EMPTY;
        parts.fill(geo, pairs, state, |i, set| {
            base.filter(|base| base.sets[i] == set)
                .map(|base| base.bounds[i])
        });
        (parts, at_least_one_push(parts.total.min(DEAD), state))
    }

    /// The lower bound of a child of the state these are the parts of (equal to
    /// [`lower_bound`] of the child).
    pub(crate) fn child_bound<const P: usize>(
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
    pub(crate) fn child_bound_stored<const P: usize>(
        &self,
        geo: &Geometry,
        pairs: &mut Pairs,
        child: &State<P>,
        changed: Cells,
        stored: &mut [u8; Parts::STORED],
    ) -> u32 {
        let mut letters = 0u32;
        for (i, &set) in self.sets[..geo.letters.len()].iter().enumerate() {
            letters |= u32::from(set.intersects(changed)) << i;
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
///
/// The common cases stay small enough to inline (a letter of two blocks: one table read; of
/// three to [`PARTITION_MAX`]: a memo read); computing a partition bound is out of line.
#[inline]
fn letter_bound(geo: &Geometry, pairs: &mut Pairs, set: Cells) -> u32 {
    if set.is_empty() {
        return 0;
    }
    let rest = set.without_first();
    if rest.is_empty() {
        return DEAD;
    }
    if rest.without_first().is_empty() {
        // One group of two: the wall-aware pair distance.
        let a = set.first();
        let b = rest.first();
        return pairs.pushes(geo, a, b).unwrap_or(DEAD);
    }
    // The blocks in cell order (any order gives the same bound: every term below is taken
    // over all groups, trees or centers), and the set's memo key; counted as they come (no
    // `popcnt` on baseline x86-64).
    let mut cells = [0usize; PARTITION_MAX];
    let mut key = 0;
    let mut count = 0;
    let mut rest = set;
    while !rest.is_empty() {
        if count == PARTITION_MAX {
            return nearest_partner_bound(geo, pairs, set);
        }
        let cell = rest.first();
        cells[count] = cell;
        key = SmallMemo::key_with(key, count, cell);
        rest = rest.without_first();
        count += 1;
    }
    if let Some(bound) = pairs.sets.get(key) {
        return bound;
    }
    partition_bound(geo, pairs, &cells[..count], key)
}

/// The bound of a letter of three to [`PARTITION_MAX`] blocks on `cells` (increasing), not in
/// the memo yet (its key `key`), which it enters.
#[inline(never)]
fn partition_bound(geo: &Geometry, pairs: &mut Pairs, cells: &[usize], key: u64) -> u32 {
    let count = cells.len();
    // The wall-aware pushes each two blocks need to touch, and every row the stars read.
    let mut columns = [0u32; PARTITION_MAX];
    let mut pair = [[DEAD; PARTITION_MAX]; PARTITION_MAX];
    for (i, &cell) in cells.iter().enumerate() {
        pairs.fill_near2(geo, cell);
        columns[i] = u32::from(geo.col_of[cell]);
        for j in 0..i {
            let pushes = pairs.pushes(geo, cell, cells[j]).unwrap_or(DEAD);
            pair[i][j] = pushes;
            pair[j][i] = pushes;
        }
    }
    let Pairs {
        lanes,
        from,
        near,
        near2,
        sets,
        groups,
        ..
    } = pairs;
    let lanes = *lanes;
    // Each block's three rows, in one pass over the blocks.
    let mut letter = Letter {
        count,
        columns,
        pair: &pair,
        from: [&[]; PARTITION_MAX],
        near: [&[]; PARTITION_MAX],
        near2: [&[]; PARTITION_MAX],
    };
    for (i, &a) in cells.iter().enumerate() {
        letter.from[i] = row_of(from, lanes, a);
        letter.near[i] = row_of(near, lanes, a);
        letter.near2[i] = row_of(near2, lanes, a);
    }
    let mut cost_of = |group: u32, cap: u32| {
        if group.count_ones() == 2 {
            // A pair costs two table reads: cheaper than the memo.
            return letter.group_cost(group);
        }
        let key = indices(group).enumerate().fold(0, |key, (i, member)| {
            SmallMemo::key_with(key, i, cells[member])
        });
        groups.get(key).unwrap_or_else(|| {
            let cost = letter.group_cost_below(group, cap);
            // Only exact costs enter the memo.
            if cost < cap || cap >= DEAD {
                groups.put(key, cost);
            }
            cost
        })
    };
    let mut sorted = columns;
    sorted[..count].sort_unstable();
    let bound = letter
        .split_above(nearest_bound(&sorted[..count]), &mut cost_of)
        .min(DEAD);
    sets.put(key, bound);
    bound
}

/// Bound of a letter of more than [`PARTITION_MAX`] blocks: every block touches some block
/// of its letter when it goes, so the letter needs at least, for each block, the fewest
/// pushes it and any partner need to touch.
#[inline(never)]
fn nearest_partner_bound(geo: &Geometry, pairs: &mut Pairs, set: Cells) -> u32 {
    if let Some(bound) = pairs.wide.get(set) {
        return bound;
    }
    let worst = worst_nearest_partner(set, |a, b| pairs.pushes(geo, a, b).unwrap_or(DEAD));
    pairs.wide.put(set, worst);
    worst
}

/// The largest, over the blocks of `set`, of the fewest pushes (`pushes(a, b)`) the block and
/// any partner in `set` need to touch.
#[inline(always)]
fn worst_nearest_partner(set: Cells, mut pushes: impl FnMut(usize, usize) -> u32) -> u32 {
    let mut worst = 0;
    for a in set.iter() {
        let nearest = (set & !Cells::cell(a))
            .iter()
            .map(|b| pushes(a, b))
            .min()
            .unwrap_or(DEAD);
        worst = worst.max(nearest);
    }
    worst
}

/// The single-edge term of a group of `size` blocks whose pair costs are `w`: in any tree
/// over the group every block has an edge, so the tree costs at least the largest, over the
/// blocks, of a block's cheapest edge ([`DEAD`] for a group of fewer than two).
#[inline(always)]
fn single_edges(size: usize, w: &impl Fn(usize, usize) -> u32) -> u32 {
    (0..size)
        .filter_map(|u| (0..size).filter(|&v| v != u).map(|v| w(u, v)).min())
        .max()
        .unwrap_or(DEAD)
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

/// One letter's blocks (at most [`PARTITION_MAX`], in any order: block `i` is bit `i` of a
/// group) and their rows, read in place in the [`Pairs`] tables.
struct Letter<'a> {
    count: usize,
    /// Each block's column.
    columns: [u32; PARTITION_MAX],
    /// Wall-aware pushes two blocks need to touch ([`DEAD`] if never).
    pair: &'a [[u32; PARTITION_MAX]; PARTITION_MAX],
    /// Each block's pushes to each cell, and to some neighbour of each cell ([`Pairs`]); all
    /// rows of one letter have the same number of lanes.
    from: [&'a [Lane]; PARTITION_MAX],
    near: [&'a [Lane]; PARTITION_MAX],
    /// Each block's pushes to some cell at most two steps from each cell.
    near2: [&'a [Lane]; PARTITION_MAX],
}

/// Subsets of a letter's blocks (bit `i` = the `i`-th block).
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

/// Marks a star of four blocks not computed yet ([`Letter::group_cost`]).
const NOT_YET: u32 = u32::MAX;

impl Letter<'_> {
    /// Partition bound: the blocks leave the board in connected groups of two or more, and
    /// pushes of different blocks are different pushes, so the bound is the cheapest split of
    /// all the blocks into groups, each costing at least [`Letter::group_cost`]. Computed by
    /// dynamic programming over subsets (`best[mask]`: cheapest split of the blocks in `mask`;
    /// a subset of one block has no split, [`DEAD`]), `O(3^n)` for `n` blocks.
    #[cfg(test)]
    fn partition_bound(&self) -> u32 {
        self.split_above(0, &mut |group, _| self.group_cost(group))
    }

    /// `max(floor, partition bound)`, with group costs from `cost_of`, costing only the
    /// groups that can still matter: once some split costs `floor` or less the result is
    /// `floor`, and a split whose first group alone costs the best so far is not finished.
    /// Three to five blocks enumerate their splits directly (three: the whole group; four:
    /// the whole group or two pairs; five: the whole group or a pair and a triple); more use
    /// the dynamic programming of [`Letter::split`].
    ///
    /// `cost_of(group, cap)` may return any value at or above `cap` when the group costs
    /// `cap` or more ([`Letter::group_cost_below`]): a split is only needed when it is
    /// cheaper than the best so far.
    fn split_above(&self, floor: u32, cost_of: &mut impl FnMut(u32, u32) -> u32) -> u32 {
        let full = (1u32 << self.count) - 1;
        let best = match self.count {
            3 => cost_of(full, DEAD),
            4 | 5 => {
                let mut best = DEAD;
                // Every pair; with four blocks each split into two pairs is seen twice,
                // which costs two table reads.
                let mut pairs = full;
                for first in 0..self.count {
                    pairs &= !(1 << first);
                    for second in indices(pairs) {
                        if best <= floor {
                            return floor;
                        }
                        let cost = self.pair_cost(first, second);
                        if cost < best {
                            let rest = full & !(1 << first | 1 << second);
                            let rest_cost = if self.count == 4 {
                                let low = rest.trailing_zeros() as usize;
                                self.pair_cost(low, (rest & (rest - 1)).trailing_zeros() as usize)
                            } else {
                                cost_of(rest, best - cost)
                            };
                            best = best.min(cost.saturating_add(rest_cost));
                        }
                    }
                }
                if best <= floor {
                    return floor;
                }
                best.min(cost_of(full, best))
            }
            _ => self.split_table(&mut |group| cost_of(group, DEAD)),
        };
        floor.max(best.min(DEAD))
    }

    /// [`Letter::group_cost`] of blocks `a` and `b` (two table reads): the larger of their
    /// span term and their pair distance.
    fn pair_cost(&self, a: usize, b: usize) -> u32 {
        let span = self.columns[a].abs_diff(self.columns[b]).saturating_sub(1);
        span.max(self.pair[a][b]).min(DEAD)
    }

    /// [`Letter::split`] with tables just large enough for the letter's subsets (they are
    /// cleared on every call).
    fn split_table(&self, cost_of: &mut impl FnMut(u32) -> u32) -> u32 {
        match self.count {
            0..=3 => self.split::<{ 1 << 3 }>(cost_of),
            4 => self.split::<{ 1 << 4 }>(cost_of),
            5 => self.split::<{ 1 << 5 }>(cost_of),
            _ => self.split::<SUBSETS>(cost_of),
        }
    }

    /// [`Letter::partition_bound`] with tables of `S >= 2^n` entries ([`cheapest_split`]).
    fn split<const S: usize>(&self, cost_of: &mut impl FnMut(u32) -> u32) -> u32 {
        cheapest_split::<S>(self.count, cost_of)
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
    /// Pruning, which never changes the value (a skipped term could only have given a tree
    /// bound at or above the best one so far, or a five-block radius at or below the single
    /// edges term it is maxed with): a star is computed only when its heaviest edge (a weaker
    /// bound of the same star) is below the best tree so far; a path of four only when its
    /// matching is, its second star only when its first left it below; a five-block radius
    /// stops at a star no above the single edges term. Each of the twelve path stars of four
    /// blocks (a center and the block two steps away) belongs to two paths and is computed
    /// once.
    fn group_cost(&self, group: u32) -> u32 {
        self.group_cost_below(group, DEAD)
    }

    /// [`Letter::group_cost`] when it is below `cap`, else some value at or above `cap`
    /// (so `min(cap, value)` is exact): the tree terms start from `cap` instead of [`DEAD`],
    /// so that trees costing `cap` or more are not examined, and a span or single-edge term
    /// at `cap` or more ends it.
    fn group_cost_below(&self, group: u32, cap: u32) -> u32 {
        let size = group.count_ones() as usize;
        let mut members = [0usize; PARTITION_MAX];
        let (mut low, mut high) = (u32::MAX, 0);
        for (slot, block) in members.iter_mut().zip(indices(group)) {
            *slot = block;
            low = low.min(self.columns[block]);
            high = high.max(self.columns[block]);
        }
        let span = (high - low).saturating_sub(size as u32 - 1);
        if span >= cap {
            return span;
        }
        let w = |a: usize, b: usize| self.pair[members[a]][members[b]];
        // The least star among the centers (every other member a leaf).
        let stars = |mut best: u32| {
            for center in 0..size {
                let mut leaves = [0usize; PARTITION_MAX - 1];
                let mut edges = 0;
                for (slot, x) in leaves.iter_mut().zip((0..size).filter(|&x| x != center)) {
                    *slot = members[x];
                    edges = edges.max(w(center, x));
                }
                if edges < best {
                    let star = self.star(members[center], &leaves[..size - 1], &[]);
                    best = best.min(edges.max(star));
                }
            }
            best
        };
        let tree = match size {
            2 => w(0, 1),
            3 => stars(cap),
            4 => {
                let mut best = stars(cap);
                // `path_stars[c * 4 + far]`: the star around `c` with `far` two steps away.
                let mut path_stars = [NOT_YET; 16];
                let mut path_star = |center: usize, far: usize| {
                    let known = &mut path_stars[center * 4 + far];
                    if *known == NOT_YET {
                        let mut leaves = [0usize; 2];
                        for (slot, x) in leaves
                            .iter_mut()
                            .zip((0..4).filter(|&x| x != center && x != far))
                        {
                            *slot = members[x];
                        }
                        *known = self.star(members[center], &leaves, &[members[far]]);
                    }
                    *known
                };
                for p in &PATHS_OF_FOUR {
                    let matching = (w(p[0], p[1]) + w(p[2], p[3])).max(w(p[1], p[2]));
                    if matching >= best {
                        continue;
                    }
                    let first = matching.max(path_star(p[1], p[3]));
                    if first >= best {
                        continue;
                    }
                    best = first.max(path_star(p[2], p[0])).min(best);
                }
                best
            }
            5 => {
                // Some block is at most two steps (through the group) from every other.
                let edges = single_edges(size, &w);
                if edges >= cap {
                    return edges;
                }
                let mut radius = DEAD;
                for c in 0..size {
                    let mut others = [0usize; PARTITION_MAX - 1];
                    for (slot, x) in others.iter_mut().zip((0..size).filter(|&x| x != c)) {
                        *slot = members[x];
                    }
                    radius = radius.min(self.star(members[c], &[], &others));
                    if radius <= edges {
                        break;
                    }
                }
                radius.max(edges)
            }
            _ => single_edges(size, &w),
        };
        span.max(tree).min(DEAD)
    }

    /// Pushes a star needs at least: its center `center` ends on some cell `p`, each of
    /// `leaves` on a neighbour of `p`, each of `far` within two steps of `p`, each block
    /// paying its own pushes (wall-aware, [`Pairs`]): the least over `p` of
    /// `from[center][p] + sum of near[leaf][p] + sum of near2[far][p]`. Sums saturate at
    /// [`UNKNOWN`] (unreachable), which keeps them lower bounds.
    fn star(&self, center: usize, leaves: &[usize], far: &[usize]) -> u32 {
        let from = self.from[center];
        let mut sums = [[UNKNOWN; LANE]; MAX_LANES];
        for (sum, lane) in sums.iter_mut().zip(from) {
            *sum = *lane;
        }
        let rows = leaves.iter().map(|&leaf| self.near[leaf]);
        for row in rows.chain(far.iter().map(|&block| self.near2[block])) {
            for (sum, add) in sums.iter_mut().zip(row) {
                *sum = add_lanes(*sum, add);
            }
        }
        u32::from(least_of(&sums))
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
        let cells = (0..rows * cols).map(|_| rng.pick(weights)).collect();
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
        let zeros = [[0; LANE]];
        let letter = Letter {
            count: 4,
            columns: [0; PARTITION_MAX],
            pair: &pair,
            from: [&zeros; PARTITION_MAX],
            near: [&zeros; PARTITION_MAX],
            near2: [&zeros; PARTITION_MAX],
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

    /// A random settled board of up to 9 x 14 cells (at most 128) and up to four letters,
    /// some with six or more blocks, to reach every branch of the bound.
    fn random_large_board(rng: &mut Rng) -> Grid {
        let rows = 3 + rng.below(7);
        let cols = (4 + rng.below(11)).min(MAX_CELLS / rows);
        let weights: &[(u8, u64)] = match rng.below(3) {
            0 => &[(b'-', 6), (b'#', 3), (b'A', 3), (b'B', 2), (b'C', 1)],
            1 => &[(b'-', 5), (b'#', 2), (b'A', 5), (b'B', 1)],
            _ => &[
                (b'-', 8),
                (b'#', 3),
                (b'A', 1),
                (b'B', 1),
                (b'C', 1),
                (b'D', 1),
            ],
        };
        let cells = (0..rows * cols).map(|_| rng.pick(weights)).collect();
        let mut grid = Grid::new(rows, cols, cells);
        grid.settle();
        grid
    }

    /// Boards of the oracle comparison (more than 256, so the memo epochs wrap).
    const ORACLE_BOARDS: usize = 2000;
    /// States per board of the oracle comparison (the first ones in breadth-first order).
    const ORACLE_STATES: usize = 400;

    /// The optimised bound gives exactly the values of the previous, plain implementation
    /// ([`oracle`]) for every letter of every state of hundreds of random boards up to 128
    /// cells: one `Pairs` is reused for all boards (as a search thread does, through
    /// `Pairs::reset` and the memo epochs), the oracle's is fresh per board.
    #[test]
    fn the_optimised_bound_equals_the_oracle() {
        let mut rng = Rng(0x0a2c_1e00);
        let first = random_large_board(&mut rng);
        let mut pairs = Pairs::new(&Geometry::new(&first));
        let (mut compared, mut partitioned, mut wide) = (0, 0, 0);
        for _ in 0..ORACLE_BOARDS {
            let grid = random_large_board(&mut rng);
            let geo = Geometry::new(&grid);
            if geo.letters.len() > 3 {
                continue;
            }
            pairs.reset(&geo);
            let mut plain = oracle::Pairs::new(&geo);
            let start = State::<2>::new(&geo, &grid);
            let mut seen = std::collections::HashSet::from([start]);
            let mut queue = std::collections::VecDeque::from([start]);
            while let Some(state) = queue.pop_front() {
                for code in 1..=geo.letters.len() {
                    let set = state.letter(code);
                    let expected = oracle::letter_bound(&geo, &mut plain, set);
                    assert_eq!(
                        letter_bound(&geo, &mut pairs, set),
                        expected,
                        "letter {code} of\n{}",
                        state.to_grid(&geo).draw()
                    );
                    compared += 1;
                    wide += usize::from(set.len() as usize > PARTITION_MAX);
                    partitioned += usize::from((3..=PARTITION_MAX).contains(&(set.len() as usize)));
                }
                assert_eq!(
                    lower_bound(&geo, &mut pairs, &state),
                    oracle::lower_bound(&geo, &mut plain, &state)
                );
                for (_, _, child) in state.children(&geo) {
                    if seen.len() < ORACLE_STATES && seen.insert(child) {
                        queue.push_back(child);
                    }
                }
            }
        }
        eprintln!("{compared} letter bounds compared, {partitioned} partitioned, {wide} wide");
        assert!(
            partitioned > 10_000,
            "too few letters of 3 to 5 blocks: {partitioned}"
        );
        assert!(
            wide > 1_000,
            "too few letters of six blocks or more: {wide}"
        );
    }

    /// The direct enumeration of splits with its pruning (`Letter::split_above`, with capped
    /// group costs) gives the value of the dynamic programming over subsets
    /// (`Letter::split_table`, exact group costs) raised to the floor, for random pair costs
    /// (some never touching) and columns; a capped group cost agrees below its cap.
    #[test]
    fn enumerated_splits_equal_the_subset_dynamic_programming() {
        let mut rng = Rng(0x5b1175);
        let zeros = [[0; LANE]];
        for _ in 0..20_000 {
            let count = 3 + rng.below(PARTITION_MAX - 2);
            let mut pair = [[DEAD; PARTITION_MAX]; PARTITION_MAX];
            for (a, b) in (0..count).flat_map(|a| (0..a).map(move |b| (a, b))) {
                let w = if rng.below(8) == 0 {
                    DEAD
                } else {
                    rng.below(6) as u32
                };
                pair[a][b] = w;
                pair[b][a] = w;
            }
            let letter = Letter {
                count,
                columns: std::array::from_fn(|_| rng.below(9) as u32),
                pair: &pair,
                from: [&zeros; PARTITION_MAX],
                near: [&zeros; PARTITION_MAX],
                near2: [&zeros; PARTITION_MAX],
            };
            let floor = rng.below(8) as u32;
            let table = letter.split_table(&mut |group| letter.group_cost(group));
            let mut capped = |group, cap| letter.group_cost_below(group, cap);
            assert_eq!(letter.split_above(floor, &mut capped), floor.max(table));
            // A capped cost is exact below its cap, and at or above it otherwise.
            let group = 3 + rng.below((1 << count) - 3) as u32;
            if group.count_ones() >= 2 {
                let cap = rng.below(10) as u32;
                let exact = letter.group_cost(group);
                assert_eq!(letter.group_cost_below(group, cap).min(cap), exact.min(cap));
            }
        }
    }
}
