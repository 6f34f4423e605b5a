//! Test oracle of the bound: the bound's previous implementation, kept verbatim apart from
//! names and paths (full 128-byte rows copied per letter, scalar loops, the sort by column).
//! The pieces the optimisation left as they were are shared, not copied: the memo (the
//! engine's 32-byte-slot [`WideMemo`], which only caches values), the push-cost rows
//! ([`super::push_costs`]), the column nearest-partner term ([`super::nearest_bound`]), the
//! paths of four ([`super::PATHS_OF_FOUR`]) and the subset dynamic programming of the split
//! ([`super::cheapest_split`]; the engine enumerates the splits of 3 to 5 blocks instead, so
//! the comparison still checks that enumeration). The optimised [`super`] must return exactly
//! this module's values on every state (`the_optimised_bound_equals_the_oracle` in
//! `super::tests`), so the searches expand the same states. Test-only: nothing here runs in
//! the engine.
#![allow(dead_code)]

use super::{
    DEAD, NEVER, PARTITION_MAX, PATHS_OF_FOUR, UNKNOWN, WideMemo, nearest_bound, single_edges,
    worst_nearest_partner,
};
use crate::games::vexed::MAX_CELLS;
use crate::games::vexed::bitset::planes::{Cells, Geometry, State, indices};

/// Pushes two blocks need to touch, from the walls alone, computed lazily per pair of cells.
///
/// A block's possible journeys, ignoring other blocks (which may or may not be there later),
/// form a graph on the non-wall cells: sideways to a non-wall neighbour for one push, down to a
/// non-wall cell for free (falling, or lowered as blocks below go), never up. For two blocks on
/// cells `a` and `b`, the pushes they need before touching are at least the cheapest
/// `cost(a -> p) + cost(b -> q)` over orthogonally adjacent cells `p`, `q`: every real pair of
/// trajectories is a pair of paths in that graph. When no such pair exists they never touch.
pub(crate) struct Pairs {
    cells: usize,
    /// `from[a * cells + p]`: pushes from `a` to `p` ([`UNKNOWN`] rows not computed yet).
    from: Vec<u8>,
    /// `pair[a * cells + b]`, or [`UNKNOWN`] / [`NEVER`].
    pair: Vec<u8>,
    /// Bounds of letters of three or more blocks by their cell set.
    sets: WideMemo,
    /// Costs of removal groups ([`Letter::group_cost`]) by their cell set: when one block of
    /// a letter moves, the groups without it keep their cost.
    groups: WideMemo,
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

impl Pairs {
    pub(crate) fn new(geo: &Geometry) -> Pairs {
        let mut pairs = Pairs {
            cells: 0,
            from: Vec::new(),
            pair: Vec::new(),
            sets: WideMemo::default(),
            groups: WideMemo::default(),
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
    pub(crate) fn reset(&mut self, geo: &Geometry) {
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

    /// Fills the row of push costs from cell `a` (the engine's [`super::push_costs`], which
    /// the optimisation left unchanged).
    fn costs_from(&mut self, geo: &Geometry, a: usize) -> &[u8] {
        let row = &mut self.from[a * self.cells..(a + 1) * self.cells];
        if row[a] == UNKNOWN {
            super::push_costs(geo, a, row);
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
            if !geo.walls.contains(q) {
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
    pub(crate) fn pushes(&mut self, geo: &Geometry, a: usize, b: usize) -> Option<u32> {
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

/// The lower bound of module docs, or [`DEAD`], through this module's letter bound.
pub(crate) fn lower_bound<const P: usize>(
    geo: &Geometry,
    pairs: &mut Pairs,
    state: &State<P>,
) -> u32 {
    super::sum_of_letters(geo, state, |set| letter_bound(geo, pairs, set))
}

/// The bound of one letter given its cells (0 for an absent letter), or [`DEAD`].
pub(crate) fn letter_bound(geo: &Geometry, pairs: &mut Pairs, cells: Cells) -> u32 {
    let set = cells.bits();
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
        if let Some(bound) = pairs.sets.get(cells) {
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
            let cells =
                indices(group).fold(Cells::EMPTY, |cells, i| cells | Cells::cell(blocks[i].1));
            groups.get(cells).unwrap_or_else(|| {
                let cost = letter.group_cost(group);
                groups.put(cells, cost);
                cost
            })
        };
        let bound = nearest_bound(letter.columns)
            .max(letter.split_with(&mut cost_of))
            .min(DEAD);
        pairs.sets.put(cells, bound);
        return bound;
    }
    // Many blocks: every block touches some block of its letter when it goes, so the letter
    // needs at least, for each block, the fewest pushes it and any partner need to touch.
    if let Some(bound) = pairs.sets.get(cells) {
        return bound;
    }
    let worst = worst_nearest_partner(cells, |a, b| pairs.pushes(geo, a, b).unwrap_or(DEAD));
    pairs.sets.put(cells, worst);
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

impl Letter<'_> {
    /// Partition bound: the blocks leave the board in connected groups of two or more, and
    /// pushes of different blocks are different pushes, so the bound is the cheapest split of
    /// all the blocks into groups, each costing at least [`Letter::group_cost`]. Computed by
    /// dynamic programming over subsets (`best[mask]`: cheapest split of the blocks in `mask`;
    /// a subset of one block has no split, [`DEAD`]), `O(3^n)` for `n` blocks.
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

    /// [`Letter::partition_bound`] with tables of `S >= 2^n` entries (the engine's
    /// [`super::cheapest_split`], the same dynamic programming).
    fn split<const S: usize>(&self, cost_of: &mut impl FnMut(u32) -> u32) -> u32 {
        super::cheapest_split::<S>(self.columns.len(), cost_of)
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
                radius.max(single_edges(size, &w))
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
