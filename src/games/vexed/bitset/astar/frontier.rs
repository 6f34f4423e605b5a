//! The A* search's open list: node ids by `f`, then by blocks removed since the start (most
//! first), then by depth `g` (deepest first), last in first out within a bucket.
//!
//! The order among nodes of equal `f` is free (A* stays exact whatever it is): it only decides
//! how much of the last plateau, `f` = the answer, is expanded before a goal. Boards with fewer
//! blocks left are nearer to a clear board more often, and deepest first dives towards a goal.
//! The comparison of the orders tried is in `benches/README.md` (Vexed).
//!
//! Layout: `heads[f][rank]` is the last entry of a bucket; every bucket's entries live in one
//! pool (`entries`), each linked to the entry queued before it in its bucket, and freed slots
//! are linked from `free`. Entries whose `f` is at or above [`Frontier::FAR`] wait unordered in
//! a far overflow until every nearer row is empty.
//!
//! Invariants: `f` is at most the smallest row with entries and `top[f]` at least the largest
//! rank with entries in row `f`; a node's depth is below its `f` (its `h` is at least 1), so
//! each count of removed blocks has `f` ranks; once the far entries are moved into their rows
//! (`far_open`), every later entry goes to its row, so the pop order is the key order.

/// Open node ids in the order of the module docs.
pub(crate) struct Frontier {
    /// `heads[f][rank]` ([`Frontier::rank`]): the bucket's last entry, or [`NO_ENTRY`].
    heads: Vec<Vec<u32>>,
    /// Every bucket's entries, each linked to the one queued before it in its bucket, and
    /// the free slots, linked from `free`. One pool rather than a vector per bucket: there
    /// are `f` times [`Frontier::REMOVED`] buckets per `f`, and vectors kept per bucket
    /// across a batch would each keep their own memory.
    entries: Vec<Entry>,
    /// The first free slot of `entries`, or [`NO_ENTRY`].
    free: u32,
    /// The smallest `f` that may have entries.
    f: usize,
    /// Per `f`, the largest rank that may have entries.
    top: Vec<usize>,
    /// One past the largest `f` pushed since the last [`Frontier::clear`].
    end: usize,
    /// Blocks on the start board ([`Frontier::begin`]).
    start_blocks: u32,
    /// Entries of `f` at or above [`Frontier::FAR`], unordered, while the rows below it have
    /// entries (see [`Frontier::FAR`]).
    far: Vec<FarEntry>,
    /// Whether `far` was moved into the rows: from then on every entry goes to its row.
    far_open: bool,
}

/// An entry waiting in [`Frontier::far`]: the arguments of its [`Frontier::push`].
#[derive(Clone, Copy)]
struct FarEntry {
    f: u32,
    g: u16,
    blocks: u32,
    id: u32,
}

/// No entry: an empty bucket, the first entry of a bucket, or no free slot.
const NO_ENTRY: u32 = u32::MAX;

/// A queued node id and the slot of the entry queued before it in its bucket (or of the
/// next free slot).
#[derive(Clone, Copy)]
struct Entry {
    id: u32,
    next: u32,
}

impl Default for Frontier {
    fn default() -> Self {
        Frontier {
            heads: Vec::new(),
            entries: Vec::new(),
            free: NO_ENTRY,
            f: 0,
            top: Vec::new(),
            end: 0,
            start_blocks: 0,
            far: Vec::new(),
            far_open: false,
        }
    }
}

impl Frontier {
    /// A node's removed blocks are counted up to `REMOVED - 1` (more only ties, which leaves
    /// the search exact).
    const REMOVED: usize = 16;

    /// Entries of `f` at or above this wait unordered in [`Frontier::far`] until every row
    /// below it is empty. Such an `f` comes from a bound with a saturated term (the bound's
    /// push costs are bytes, [`crate::games::vexed::bitset::bound`]: unreachable is 255),
    /// almost always a board that can never be cleared but is not proven dead. A row has
    /// `REMOVED * f` ranks, so giving each of them its row would grow, fill and clear large
    /// rows for nodes that are never taken when the puzzle has a solution.
    pub(crate) const FAR: u32 = 1 << 8;

    /// Prepares an empty frontier (new or cleared) for a search from a start board with
    /// `blocks` blocks.
    pub(crate) fn begin(&mut self, blocks: u32) {
        self.start_blocks = blocks;
    }

    /// The bucket in row `f` of a node at depth `g` with `blocks` blocks left: larger is
    /// taken first. A node's depth is below its `f` (its `h` is at least 1), so each count
    /// of removed blocks has `f` ranks, one per depth.
    #[inline(always)]
    fn rank(&self, f: usize, g: u16, blocks: u32) -> usize {
        debug_assert!(usize::from(g) < f, "a node's depth is below its f");
        let removed = self.start_blocks.saturating_sub(blocks) as usize;
        removed.min(Self::REMOVED - 1) * f + usize::from(g)
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, f: u32, g: u16, blocks: u32, id: u32) {
        if f >= Self::FAR && !self.far_open {
            self.push_far(FarEntry { f, g, blocks, id });
            return;
        }
        let f = f as usize;
        let rank = self.rank(f, g, blocks);
        if self.heads.len() <= f {
            self.heads.resize_with(f + 1, Vec::new);
            self.top.resize(f + 1, 0);
        }
        let row = &mut self.heads[f];
        if row.len() <= rank {
            row.resize(rank + 1, NO_ENTRY);
        }
        let entry = Entry {
            id,
            next: row[rank],
        };
        let slot = if self.free == NO_ENTRY {
            self.entries.push(entry);
            (self.entries.len() - 1) as u32
        } else {
            let slot = self.free;
            self.free = self.entries[slot as usize].next;
            self.entries[slot as usize] = entry;
            slot
        };
        row[rank] = slot;
        self.top[f] = self.top[f].max(rank);
        self.f = self.f.min(f);
        self.end = self.end.max(f + 1);
    }

    #[cold]
    #[inline(never)]
    fn push_far(&mut self, entry: FarEntry) {
        self.far.push(entry);
    }

    /// Empties the frontier, keeping its memory. Only buckets that may hold entries are
    /// visited (rows from `f` to the largest pushed, ranks up to their `top`): a batch keeps
    /// every bucket any of its searches made.
    pub(crate) fn clear(&mut self) {
        let rows = self.f.min(self.end)..self.end;
        for (row, top) in self.heads[rows.clone()].iter_mut().zip(&mut self.top[rows]) {
            let used = row.len().min(*top + 1);
            row[..used].fill(NO_ENTRY);
            *top = 0;
        }
        self.entries.clear();
        self.free = NO_ENTRY;
        self.f = 0;
        self.end = 0;
        self.far.clear();
        self.far_open = false;
    }

    /// The open entry of smallest `f`, then with the most blocks removed, then deepest:
    /// `(f, g, id)`.
    #[inline(always)]
    pub(crate) fn pop(&mut self) -> Option<(u32, u16, u32)> {
        self.pop_row().or_else(|| self.pop_far())
    }

    /// [`Frontier::pop`] once every row is empty: moves the far entries, if any, to their
    /// rows (and later ones with them), then pops.
    #[cold]
    #[inline(never)]
    fn pop_far(&mut self) -> Option<(u32, u16, u32)> {
        if self.far_open || self.far.is_empty() {
            return None;
        }
        self.far_open = true;
        let mut far = std::mem::take(&mut self.far);
        for &FarEntry { f, g, blocks, id } in &far {
            self.push(f, g, blocks, id);
        }
        far.clear();
        self.far = far; // its memory, for the next search
        self.pop_row()
    }

    /// [`Frontier::pop`] among the rows.
    #[inline(always)]
    fn pop_row(&mut self) -> Option<(u32, u16, u32)> {
        while self.f < self.heads.len() {
            let f = self.f;
            loop {
                let rank = self.top[f];
                let slot = self.heads[f].get(rank).copied().unwrap_or(NO_ENTRY);
                if slot != NO_ENTRY {
                    let Entry { id, next } = self.entries[slot as usize];
                    self.heads[f][rank] = next;
                    self.entries[slot as usize].next = self.free;
                    self.free = slot;
                    return Some((f as u32, (rank % f) as u16, id));
                }
                if rank == 0 {
                    break;
                }
                self.top[f] = rank - 1;
            }
            self.f += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frontier_pops_smallest_f_then_fewest_blocks_then_deepest_g_last_in_first() {
        let mut frontier = Frontier::default();
        frontier.begin(10);
        for (f, g, blocks, id) in [
            (5, 1, 10, 10),
            (4, 0, 10, 11),
            (5, 3, 10, 12),
            (4, 2, 10, 13),
            (4, 2, 10, 14),
            (6, 0, 10, 15),
            (4, 2, 8, 16),
            (4, 2, 9, 17),
            (4, 1, 2, 18),
        ] {
            frontier.push(f, g, blocks, id);
        }
        let order: Vec<u32> = std::iter::from_fn(|| frontier.pop().map(|(_, _, id)| id)).collect();
        // f = 4: 2 blocks, 8, 9, then 10 (depth 2 last in first, then depth 0); f = 5...
        assert_eq!(order, vec![18, 16, 17, 14, 13, 11, 12, 10, 15]);
        // A push below the current f is served first, with its depth.
        frontier.push(7, 0, 10, 1);
        frontier.push(3, 2, 10, 2);
        assert_eq!(frontier.pop(), Some((3, 2, 2)));
        assert_eq!(frontier.pop(), Some((7, 0, 1)));
        assert_eq!(frontier.pop(), None);
        // Counts of removed blocks past the ranks tie (then the last in is first), and keep
        // their depth.
        frontier.begin(40);
        frontier.push(4, 1, 0, 3);
        frontier.push(4, 1, 1, 4);
        frontier.push(4, 3, 40, 5);
        frontier.push(4, 3, 39, 6);
        assert_eq!(frontier.pop(), Some((4, 1, 4)));
        assert_eq!(frontier.pop(), Some((4, 1, 3)));
        assert_eq!(frontier.pop(), Some((4, 3, 6)));
        assert_eq!(frontier.pop(), Some((4, 3, 5)));
        assert_eq!(frontier.pop(), None);
    }

    #[test]
    fn far_entries_are_taken_after_every_nearer_one_in_the_same_order() {
        let far = Frontier::FAR;
        let mut frontier = Frontier::default();
        frontier.begin(10);
        for (f, g, blocks, id) in [
            (far + 3, 1, 10, 1),
            (far, 2, 9, 2),
            (5, 0, 10, 3),
            (far, 2, 10, 4),
            (far + 3, 2, 10, 5),
        ] {
            frontier.push(f, g, blocks, id);
        }
        assert_eq!(frontier.pop(), Some((5, 0, 3)));
        // A nearer entry pushed while far ones wait is still taken first.
        frontier.push(6, 1, 10, 6);
        assert_eq!(frontier.pop(), Some((6, 1, 6)));
        // Then the far ones, by f, then fewest blocks, then deepest; and once they are in
        // their rows, a far entry pushed later takes its place among them.
        assert_eq!(frontier.pop(), Some((far, 2, 2)));
        frontier.push(far + 1, 0, 10, 7);
        assert_eq!(frontier.pop(), Some((far, 2, 4)));
        assert_eq!(frontier.pop(), Some((far + 1, 0, 7)));
        assert_eq!(frontier.pop(), Some((far + 3, 2, 5)));
        assert_eq!(frontier.pop(), Some((far + 3, 1, 1)));
        assert_eq!(frontier.pop(), None);
        // A cleared frontier sets far entries aside again.
        frontier.clear();
        frontier.begin(10);
        frontier.push(far, 0, 10, 8);
        frontier.push(2, 1, 10, 9);
        assert!(!frontier.far.is_empty());
        assert_eq!(frontier.pop(), Some((2, 1, 9)));
        assert_eq!(frontier.pop(), Some((far, 0, 8)));
        assert_eq!(frontier.pop(), None);
    }
}
