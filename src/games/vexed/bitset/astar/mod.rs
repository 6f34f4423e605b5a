//! Best-first (A*) search over bit-plane states: the `bitset` engine's main search.
//!
//! Every state met is a [`Node`] in one arena (its board, the push that first reached it by the
//! shortest path known, its depth `g`, its lower bound `h` from [`super::bound`] and, in the
//! node's padding, the bounds of its first letters, so that expanding it does not look them
//! up again); an [`Index`] finds a board's node. Open nodes wait in a [`Frontier`] ordered by
//! `f = g + h`, then fewest blocks left, then deepest (the search dives towards a goal once `f`
//! reaches the answer). Compared with iterative deepening ([`super::ida`]) each state is
//! expanded once instead of once per iteration; the price is memory, so the arena is capped
//! ([`MEMORY_BUDGET`]) and the engine falls back to deepening past it. A child's bound
//! recomputes only the letters with a changed cell ([`Parts::child_bound_stored`]).
//!
//! Exactness, with `h` admissible and at least 1 on a board with blocks (both hold for the
//! bound used here):
//! - `f` is kept non-decreasing along a path (`f(child) = max(f(parent), g + 1 + h)`, "pathmax"):
//!   still a lower bound of any solution through that path.
//! - A clear board is taken as soon as it is generated: its cost `g + 1` is at most the
//!   expanded node's `f` (its `h >= 1`), which is at most the `f` of every open node, and some
//!   open node lies on a shortest solution with `f` at most its length.
//! - A node reached again by a shorter path is updated and reopened; stale queue entries are
//!   recognised by their depth and skipped.
//! - Dead boards (bound [`DEAD`]: some letter can never be cleared) are dropped when made;
//!   trough deadlocks ([`super::deadlock`]) when taken, unexpanded. An empty frontier proves
//!   there is no solution.

use super::bound::{DEAD, Pairs, Parts, lower_bound, written, written_with_room};
use super::deadlock::Troughs;
use super::planes::{Geometry, MAX_PLANES, State};
use crate::game::Verdict;
use crate::games::vexed::grid::{Dir, Move};
use crate::games::vexed::{MAX_CELLS, Meter, Solution};

/// Bytes the arena and its index may take, at most (per puzzle; with `-j N`, N puzzles at once).
pub const MEMORY_BUDGET: usize = 384 << 20;
/// Bytes of one frontier entry (a node id).
const FRONTIER_ENTRY: usize = std::mem::size_of::<u32>();
/// Parent of the start node.
const NO_PARENT: u32 = u32::MAX;
/// Largest `h` stored (bounds never come near it on 128 cells).
const MAX_H: u16 = u16::MAX - 1;

/// Letter bounds a node keeps ([`Node::bounds`]): they fill the bytes a node has left after
/// its other fields, up to the 16-byte alignment of its planes (a test checks the size).
const STORED_BOUNDS: usize = Parts::STORED;

/// One board met by the search.
#[derive(Clone, Copy)]
struct Node<const P: usize> {
    state: State<P>,
    /// The node this one was reached from on its shortest known path, or [`NO_PARENT`].
    parent: u32,
    /// Depth on that path (pushes from the start).
    g: u16,
    /// Lower bound of the pushes left (at least 1).
    h: u16,
    /// The push from the parent.
    push: Push,
    /// The bounds of the first letters, as computed when the node was generated
    /// ([`Parts::child_bound_stored`]), so that its expansion does not look them up again
    /// ([`Parts::restore`]); [`Parts::UNSTORED`] when unknown.
    bounds: [u8; STORED_BOUNDS],
}

/// A push in one byte: the pushed block's cell (below [`MAX_CELLS`] = 128) and a direction
/// bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Push(u8);

impl Push {
    /// The direction bit (set for right).
    const RIGHT: u8 = 1 << 7;

    fn new(cell: usize, dir: Dir) -> Push {
        debug_assert!(cell < MAX_CELLS);
        let bit = if dir == Dir::Right { Self::RIGHT } else { 0 };
        Push(cell as u8 | bit)
    }

    fn cell(self) -> usize {
        usize::from(self.0 & !Self::RIGHT)
    }

    fn dir(self) -> Dir {
        if self.0 & Self::RIGHT == 0 {
            Dir::Left
        } else {
            Dir::Right
        }
    }
}

/// How the search ended.
pub(crate) enum Ended {
    /// Solved, proven unsolvable or stopped by the budget: `(answer, verdict, expanded)`.
    Done(Solution, Verdict, u64),
    /// The arena is full: search again with less memory, with what is left of the budget.
    OutOfMemory(Meter),
}

/// Searches from `start` (live, not clear) with at most about `memory` bytes of nodes.
pub(crate) fn search<const P: usize>(
    geo: &Geometry,
    start: State<P>,
    meter: Meter,
    memory: usize,
) -> Ended {
    // Per node: the node (the arena never reserves past the capacity, see `add`), up to four
    // index slots (the index is at least a quarter full: half, rounded to a power of two; it
    // is rebuilt without a copy), and about two frontier entries (vectors double).
    let per_node = std::mem::size_of::<Node<P>>() + 4 * Index::SLOT_BYTES + 2 * FRONTIER_ENTRY;
    let capacity = memory / per_node;
    let mut search = Search::new(geo, meter, capacity);
    let ended = search.run(start);
    search.recycle();
    ended
}

/// Bytes the arena is first reserved for (a few MB of address space, mapped only as nodes are
/// written). Measured: the arena no longer copies itself as it doubles in the first searches,
/// which took the page faults of a whole `solve` from 752 to 657 on the mixed set and from
/// 633 to 535 on the hard set (`perf stat -e page-faults`; the time gain is within noise).
/// A multiple of the size of every `Node<P>` (16 bytes times 2 to 6), so that searches with
/// different `P` can share the allocation ([`recast`]), and so are its doublings.
const INITIAL_ARENA_BYTES: usize = (60 * std::mem::size_of::<u128>()) << 12;

/// Bytes of arena a thread keeps for its next search, at most.
const SPARE_BYTES: usize = 64 << 20;

/// Bytes of index a thread keeps for its next search, at most.
const SPARE_INDEX_BYTES: usize = 16 << 20;

/// Allocations a thread keeps from one search to the next, so that a batch of puzzles reuses
/// the arena, the index, the frontier and the bound's tables instead of asking for fresh
/// (zeroed) memory each time.
#[derive(Default)]
struct Spare {
    /// The arena's allocation, empty, shared by the searches of every `P` ([`recast`] to a
    /// `Vec<Node<P>>`): pages mapped by one search serve the next whatever its `P`. Measured:
    /// one arena per `P` took about 60 more page faults on the mixed set, whose puzzles need
    /// two and three planes.
    arena: Vec<u128>,
    /// `boards[P - 1]`: the [`Boards<P>`] of the last search with `P` planes (puzzles of a
    /// batch need different `P`).
    boards: [Option<Box<dyn std::any::Any>>; MAX_PLANES],
    index: Index,
    frontier: Frontier,
    pairs: Option<Pairs>,
}

/// The vectors of a search whose type depends on `P`, kept empty between searches.
#[derive(Default)]
struct Boards<const P: usize> {
    children: Vec<Child<P>>,
}

/// The allocation of an empty vector as an empty vector of `B`, when it can be: `A` and `B`
/// have one alignment and the allocation is a whole number of `B`s. Otherwise it is freed and
/// the result has no capacity.
fn recast<A: Copy, B: Copy>(vector: Vec<A>) -> Vec<B> {
    let bytes = vector.capacity() * std::mem::size_of::<A>();
    let fits = std::mem::align_of::<A>() == std::mem::align_of::<B>()
        && std::mem::size_of::<B>() != 0
        && bytes.is_multiple_of(std::mem::size_of::<B>());
    if !fits || bytes == 0 {
        return Vec::new();
    }
    let mut vector = std::mem::ManuallyDrop::new(vector);
    // SAFETY: 0 is at most the capacity; the elements are `Copy`, so forgetting them is all
    // there is to do.
    unsafe { vector.set_len(0) };
    // SAFETY: the pointer comes from a `Vec<A>` of this capacity, so it was allocated by the
    // global allocator with `bytes` bytes and the alignment of `A`, which is that of `B`;
    // `capacity * size_of::<B>()` is `bytes` again, so the vector frees it with the same
    // layout; the length is 0, so no `B` is read; the original is not dropped (`ManuallyDrop`).
    unsafe {
        Vec::from_raw_parts(
            vector.as_mut_ptr().cast::<B>(),
            0,
            bytes / std::mem::size_of::<B>(),
        )
    }
}

/// A table of the search that grows by doubling ([`Search::grow`]).
#[derive(Clone, Copy)]
enum Table {
    Index,
    Arena,
}

impl Table {
    /// How many tables there are (`table as usize` is below it).
    const COUNT: usize = 2;
}

/// Why a search stops before its end.
enum Stop {
    /// The arena is full.
    OutOfMemory,
    /// The budget would be exceeded.
    Budget,
}

/// A child of the node being expanded: (cell, direction, board, digest).
type Child<const P: usize> = (usize, Dir, State<P>, u64);

thread_local! {
    static SPARE: std::cell::RefCell<Spare> = std::cell::RefCell::default();
}

struct Search<'a, const P: usize> {
    geo: &'a Geometry,
    pairs: Pairs,
    meter: Meter,
    nodes: Vec<Node<P>>,
    index: Index,
    frontier: Frontier,
    capacity: usize,
    /// Children of the node being expanded.
    children: Vec<Child<P>>,
    /// The letter sets and bounds of the node being expanded (kept to reuse its memory).
    parts: Parts,
    /// How long the last growth of each table took, by [`Table`] ([`Search::grow`]).
    last_pause: [std::time::Duration; Table::COUNT],
}

impl<'a, const P: usize> Search<'a, P> {
    fn new(geo: &'a Geometry, meter: Meter, capacity: usize) -> Self {
        let (nodes, boards, mut index, frontier, pairs) = SPARE.with(|spare| {
            let mut spare = spare.borrow_mut();
            let boards = spare.boards[P - 1]
                .take()
                .and_then(|boards| boards.downcast::<Boards<P>>().ok())
                .map_or_else(Boards::default, |boards| *boards);
            let mut nodes = recast::<u128, Node<P>>(std::mem::take(&mut spare.arena));
            if nodes.capacity() == 0 {
                // Reserved, not touched: pages are only mapped as nodes are written, and the
                // first searches of a batch grow in place instead of copying.
                let initial = INITIAL_ARENA_BYTES / std::mem::size_of::<Node<P>>();
                nodes.reserve_exact(initial.min(capacity));
            }
            let pairs = match spare.pairs.take() {
                Some(mut pairs) => {
                    pairs.reset(geo);
                    pairs
                }
                None => Pairs::new(geo),
            };
            let index = std::mem::take(&mut spare.index);
            (
                nodes,
                boards,
                index,
                std::mem::take(&mut spare.frontier),
                pairs,
            )
        });
        index.start();
        Search {
            geo,
            pairs,
            meter,
            nodes,
            index,
            frontier,
            capacity,
            children: boards.children,
            parts: Parts::EMPTY,
            last_pause: [std::time::Duration::ZERO; Table::COUNT],
        }
    }

    /// Gives the arena, the index, the frontier and the bound's tables back to the thread's
    /// [`Spare`] (the arena emptied, and dropped if it grew past [`SPARE_BYTES`]; the index
    /// dropped past [`SPARE_INDEX_BYTES`]).
    fn recycle(self) {
        let Search {
            mut nodes,
            index,
            mut frontier,
            pairs,
            mut children,
            ..
        } = self;
        nodes.clear();
        children.clear();
        frontier.clear();
        SPARE.with(|spare| {
            let mut spare = spare.borrow_mut();
            if nodes.capacity() * std::mem::size_of::<Node<P>>() <= SPARE_BYTES {
                spare.arena = recast(nodes);
            }
            spare.boards[P - 1] = Some(Box::new(Boards { children }));
            if index.slots.len() * Index::SLOT_BYTES <= SPARE_INDEX_BYTES {
                spare.index = index;
            }
            spare.frontier = frontier;
            spare.pairs = Some(pairs);
        });
    }

    fn run(&mut self, start: State<P>) -> Ended {
        let h = lower_bound(self.geo, &mut self.pairs, &start);
        // Trough deadlocks are tested when a node is taken, not when it is made: about one
        // stored node in three is ever taken (mixed set: 39,237 stored, 12,344 expanded).
        let troughs = Troughs::new(self.geo);
        if h >= DEAD || troughs.deadlocked(&start) {
            return Ended::Done(None, Verdict::Unsolved, 0);
        }
        if self.capacity == 0 {
            return Ended::OutOfMemory(self.meter);
        }
        let h = clamp_h(h);
        let unknown = [Parts::UNSTORED; STORED_BOUNDS];
        self.add(start, NO_PARENT, 0, Push::new(0, Dir::Left), h, unknown);
        let digest = start.digest();
        let slot = self.index.find(digest, |_| false).unwrap_err();
        self.index.insert_at(slot, digest, 0);
        let blocks = start.occupied().count_ones();
        self.frontier.begin(blocks);
        self.frontier.push(u32::from(h), 0, blocks, 0);
        while let Some((f, g, id)) = self.frontier.pop() {
            let node = self.nodes[id as usize];
            if node.g != g {
                continue; // reached again by a shorter path since it was queued
            }
            self.parts
                .restore(self.geo, &mut self.pairs, &node.state, &node.bounds);
            // A node's parent was expanded, so free of trough deadlocks; so is the node when
            // its troughs did not change (`Troughs::unchanged`).
            let same = node.parent != NO_PARENT
                && troughs.unchanged(&self.nodes[node.parent as usize].state, &node.state);
            let sets = self.parts.sets(self.geo);
            if !same && troughs.deadlocked_letters(node.state.occupied(), sets) {
                continue; // dead, though its bound is not: not expanded (nor counted)
            }
            if !self.meter.tick() {
                return Ended::Done(None, Verdict::Budget, self.meter.expanded);
            }
            match self.expand(id, node, f) {
                Ok(Some(moves)) => {
                    return Ended::Done(Some(moves), Verdict::Solved, self.meter.expanded);
                }
                Ok(None) => {}
                Err(Stop::OutOfMemory) => return Ended::OutOfMemory(self.meter),
                Err(Stop::Budget) => {
                    return Ended::Done(None, Verdict::Budget, self.meter.expanded);
                }
            }
        }
        Ended::Done(None, Verdict::Unsolved, self.meter.expanded)
    }

    /// Expands one node whose queue key is `f`: the solution if a child is clear; `Err` when
    /// the arena is full (or a depth would not fit a node), or when growing a table would
    /// not end before the deadline ([`Search::grow`]).
    /// `self.parts` are the node's ([`Parts::restore`]).
    fn expand(&mut self, id: u32, node: Node<P>, f: u32) -> Result<Option<Vec<Move>>, Stop> {
        let mut children = std::mem::take(&mut self.children);
        children.clear();
        for (cell, dir, child) in node.state.children(self.geo) {
            if child.is_clear() {
                self.children = children;
                return Ok(Some(self.moves(id, cell, dir)));
            }
            let digest = child.digest();
            self.index.prefetch(digest);
            children.push((cell, dir, child, digest));
        }
        // Lookups after all children are made, so that their prefetches overlap.
        let Some(g) = node.g.checked_add(1) else {
            // Deeper than a node can say: leave it to deepening, which has no such limit.
            self.children = children;
            return Err(Stop::OutOfMemory);
        };
        // The frontier takes children with fewer blocks first (so, among the children of one
        // node, those whose push removed blocks), then the last queued: they are queued last
        // to first, so that the first made is taken first (see `Frontier`).
        for (cell, dir, child, digest) in children.iter().rev() {
            let (cell, dir, digest) = (*cell, *dir, *digest);
            if self.index.needs_room() && !self.grow(Table::Index) {
                self.children = children;
                return Err(Stop::Budget);
            }
            let nodes = &self.nodes;
            match self
                .index
                .find(digest, |other| nodes[other as usize].state == *child)
            {
                Ok(other) => {
                    let known = &mut self.nodes[other as usize];
                    if known.g <= g {
                        continue;
                    }
                    *known = Node {
                        parent: id,
                        g,
                        push: Push::new(cell, dir),
                        ..*known
                    };
                    let child_f = f.max(u32::from(g) + u32::from(known.h));
                    let blocks = child.occupied().count_ones();
                    self.frontier.push(child_f, g, blocks, other);
                }
                Err(slot) => {
                    let mut bounds = [Parts::UNSTORED; STORED_BOUNDS];
                    let bound = self.parts.child_bound_stored(
                        self.geo,
                        &mut self.pairs,
                        child,
                        node.state.changed(child),
                        &mut bounds,
                    );
                    if bound >= DEAD {
                        // Not stored: dead boards are many, and their bound is cheap to
                        // recompute (memoised per letter) when met again.
                        continue;
                    }
                    let h = clamp_h(bound);
                    let child_f = f.max(u32::from(g) + u32::from(h));
                    if self.nodes.len() >= self.capacity {
                        self.children = children;
                        return Err(Stop::OutOfMemory);
                    }
                    if self.nodes.len() == self.nodes.capacity() && !self.grow(Table::Arena) {
                        self.children = children;
                        return Err(Stop::Budget);
                    }
                    let child_id = self.nodes.len() as u32;
                    self.add(*child, id, g, Push::new(cell, dir), h, bounds);
                    self.index.insert_at(slot, digest, child_id);
                    let blocks = child.occupied().count_ones();
                    self.frontier.push(child_f, g, blocks, child_id);
                }
            }
        }
        self.children = children;
        Ok(None)
    }

    /// Doubles `table`, unless the pause would not end before the deadline (a table doubles,
    /// so its pause takes about twice its last one): then returns false, and the search
    /// stops at its budget instead of past it. The two tables are timed apart: with the
    /// system allocator a doubling of the arena is a `mremap` (0.3-0.7 ms at 50-100 MB) while
    /// the index's is a rehash (65 ms, then 133 ms), and a single last pause let an index
    /// doubling start 2 x 0.5 ms before the deadline (`solve --time-limit 1` on
    /// IMPOSSIBLE-044, whole process: 1.07-1.15 s; timed apart: 0.96-1.02 s). Measured on the
    /// Impossible pack (`gamebench run DIR -g vexed -j 1 --time-limit 1`, the `time_ns` of its
    /// 34 budget stops): without this, up to 1.115 s, when a doubling of 100 MB or more (up to
    /// 385 ms) came just before the deadline; with it, 0.89 s to 1.044 s. The rest past 1 s
    /// is mostly the allocator returning the arena's memory after the stop (about 30 ms for
    /// 400 MB).
    fn grow(&mut self, table: Table) -> bool {
        let started = std::time::Instant::now();
        if !self
            .meter
            .affords(started, 2 * self.last_pause[table as usize])
        {
            return false;
        }
        match table {
            Table::Index => self
                .index
                .grow(self.nodes.iter().map(|node| node.state.digest())),
            Table::Arena => self.reserve(),
        }
        self.last_pause[table as usize] = started.elapsed();
        true
    }

    /// Doubles the arena's capacity, but never past `self.capacity` (a plain push could
    /// reserve twice it).
    fn reserve(&mut self) {
        let more = self.nodes.len().clamp(1, self.capacity - self.nodes.len());
        self.nodes.reserve_exact(more);
    }

    /// Appends a node to the arena (the caller indexes it).
    fn add(
        &mut self,
        state: State<P>,
        parent: u32,
        g: u16,
        push: Push,
        h: u16,
        bounds: [u8; STORED_BOUNDS],
    ) {
        if self.nodes.len() == self.nodes.capacity() {
            self.reserve();
        }
        self.nodes.push(Node {
            state,
            parent,
            g,
            h,
            push,
            bounds,
        });
    }

    /// The moves from the start to node `id`, then the push `(cell, dir)`. Each push is
    /// described on the board it was made on, its parent's, which the arena holds: nothing
    /// is replayed.
    fn moves(&self, id: u32, cell: usize, dir: Dir) -> Vec<Move> {
        let mut node = &self.nodes[id as usize];
        let mut moves = Vec::with_capacity(usize::from(node.g) + 1);
        moves.push(self.geo.describe(&node.state, cell, dir));
        while node.parent != NO_PARENT {
            let push = node.push;
            node = &self.nodes[node.parent as usize];
            moves.push(self.geo.describe(&node.state, push.cell(), push.dir()));
        }
        moves.reverse();
        moves
    }
}

/// A live board's bound as stored in a node: at least 1 (the board has blocks).
fn clamp_h(bound: u32) -> u16 {
    bound.clamp(1, u32::from(MAX_H)) as u16
}

/// Open addressing over node ids. Each slot holds, from the top: the high bits of a board's
/// digest (so most mismatches are told apart without reading the arena), the search's epoch
/// and the node id; a slot counts only if its epoch is the current one, so a thread's index
/// serves puzzle after puzzle without being cleared (measured: allocating and zeroing a fresh
/// index as it doubled, per puzzle, took 1.6% of the mixed set's instructions and about 100
/// of its page faults). Kept at most half full; grows by doubling.
#[derive(Default)]
struct Index {
    slots: Vec<u64>,
    len: usize,
    /// The current search's epoch, in `1..=MAX_EPOCH` once started (a zeroed slot has epoch
    /// 0 and is empty).
    epoch: u64,
}

impl Index {
    const SLOT_BYTES: usize = std::mem::size_of::<u64>();
    const INITIAL_SLOTS: usize = 1 << 8;
    /// Bits of a slot's node id (the arena never holds 2^32 nodes: [`MEMORY_BUDGET`]).
    const ID_BITS: u32 = u32::BITS;
    /// Bits of a slot's epoch, above the id.
    const EPOCH_BITS: u32 = 8;
    const MAX_EPOCH: u64 = (1 << Self::EPOCH_BITS) - 1;
    /// Bits below a slot's digest check.
    const CHECK_SHIFT: u32 = Self::ID_BITS + Self::EPOCH_BITS;

    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    /// Empties the index for a new search, keeping its slots (at least [`Index::INITIAL_SLOTS`]).
    fn start(&mut self) {
        if self.slots.is_empty() {
            // Address space for the largest index kept, mapped only as slots are written.
            self.slots =
                written_with_room(SPARE_INDEX_BYTES / Self::SLOT_BYTES, Self::INITIAL_SLOTS, 0);
        }
        self.len = 0;
        self.next_epoch();
    }

    /// Forgets every entry.
    fn next_epoch(&mut self) {
        self.epoch += 1;
        if self.epoch > Self::MAX_EPOCH {
            // Slots of the epoch wrapped to could still be there: really clear them.
            self.epoch = 1;
            self.slots.fill(0);
        }
    }

    /// The slot of node `id` with this digest, in the current epoch.
    fn entry(&self, digest: u64, id: u32) -> u64 {
        (digest >> Self::CHECK_SHIFT) << Self::CHECK_SHIFT
            | self.epoch << Self::ID_BITS
            | u64::from(id)
    }

    /// True if `slot` holds an entry of the current search.
    fn is_used(&self, slot: u64) -> bool {
        (slot >> Self::ID_BITS) & Self::MAX_EPOCH == self.epoch
    }

    fn prefetch(&self, digest: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let ptr = self.slots[digest as usize & self.mask()..]
                .as_ptr()
                .cast::<i8>();
            // SAFETY: a prefetch is only a hint and never faults; `ptr` points into the slots.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(ptr);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = digest;
    }

    /// True when one more entry would make the index more than half full.
    fn needs_room(&self) -> bool {
        (self.len + 1) * 2 > self.slots.len()
    }

    /// Doubles the slots and re-inserts every entry. The stored ids are `0..len` (every node
    /// is indexed), and `digests` yields their digests in that order: read sequentially from
    /// the arena, not by id from the old slots, so rebuilding a large index is mostly writes.
    /// Past the reserved address space, the old slots are freed first (no moment with both).
    /// Out of line: it runs a few times per search, and inlined it weighed on the code of the
    /// expansion loop around it (measured on Piggies: 0.6% more instructions).
    #[inline(never)]
    fn grow(&mut self, digests: impl Iterator<Item = u64>) {
        let size = self.slots.len() * 2;
        if size <= self.slots.capacity() {
            // In place, within the reserved address space: the new half is written empty and
            // a new epoch forgets the old entries, so the old half's pages serve again
            // (measured: 16 fewer page faults on the mixed set, 22 on the hard set, than a
            // fresh table per doubling).
            self.slots.resize(size, 0);
            self.next_epoch();
        } else {
            self.slots = Vec::new();
            self.slots = written(size, 0);
        }
        let mut stored = 0;
        for (id, digest) in digests.enumerate() {
            let mut at = digest as usize & self.mask();
            while self.is_used(self.slots[at]) {
                at = (at + 1) & self.mask();
            }
            self.slots[at] = self.entry(digest, id as u32);
            stored += 1;
        }
        debug_assert_eq!(stored, self.len, "the index holds ids 0..len");
    }

    /// The id of the entry with this digest for which `same` holds, or the empty slot where
    /// it would go. Needs room ([`Index::needs_room`] false).
    fn find(&self, digest: u64, same: impl Fn(u32) -> bool) -> Result<u32, usize> {
        let check = digest >> Self::CHECK_SHIFT;
        let mut at = digest as usize & self.mask();
        loop {
            let slot = self.slots[at];
            if !self.is_used(slot) {
                return Err(at);
            }
            if slot >> Self::CHECK_SHIFT == check && same(slot as u32) {
                return Ok(slot as u32);
            }
            at = (at + 1) & self.mask();
        }
    }

    /// Stores node `id`, whose board has this digest, in the empty `slot` [`Index::find`] gave.
    fn insert_at(&mut self, slot: usize, digest: u64, id: u32) {
        self.slots[slot] = self.entry(digest, id);
        self.len += 1;
    }
}

/// Open nodes by `f`, then by blocks removed since the start (most first), then by depth `g`
/// (deepest first), last in first out within a bucket.
///
/// The order among nodes of equal `f` is free (A* stays exact whatever it is): it only decides
/// how much of the last plateau, `f` = the answer, is expanded before a goal. Boards with fewer
/// blocks left are nearer to a clear board more often, and deepest first dives towards a goal.
/// Measured (expanded states, `gamebench run DIR -g vexed -j 1`, with the trough deadlocks,
/// and `expand` queuing children so that the first made is taken first):
///
/// | order among equal `f`               | mixed  | hard  | fresh mixed* |
/// |-------------------------------------|--------|-------|--------------|
/// | depth, then fewest blocks           | 12,344 | 5,446 | 13,264       |
/// | same, children in move order        | 11,692 | 5,304 | 13,150       |
/// | fewest blocks, then depth           | 11,425 | 5,362 | 12,492       |
/// | same, children in move order (kept) | 10,775 | 5,220 | 12,377       |
/// | `g + removed`, then fewest blocks   | 10,820 | 5,240 |              |
///
/// (*`gamebench gen vexed --profile throughput --seed 7 --count 1 --cases 300`, not tuned
/// on.) Piggies (381,546) and Old Brown Shoe (85,590 to 85,592) hardly change. Also tried as
/// the key after depth, all worse than fewest blocks: fewer letters, fewer letters of three
/// blocks, the child's push removed blocks, and `h` either way (no change: with pathmax,
/// nodes of one `(f, g)` bucket had equal `h` on these sets).
struct Frontier {
    /// `heads[f][rank]` ([`Frontier::rank`]): the bucket's last entry, or [`NO_ENTRY`].
    heads: Vec<Vec<u32>>,
    /// Every bucket's entries, each linked to the one queued before it in its bucket, and
    /// the free slots, linked from `free`. One pool rather than a vector per bucket: there
    /// are `f` times [`Frontier::REMOVED`] buckets per `f`, and vectors kept per bucket
    /// across a batch took more page faults (`perf stat -e page-faults gamebench solve`:
    /// hard set 693, against 575 with buckets by depth alone; the pool: 579; mixed set 709,
    /// 680, the pool: 558).
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
    /// push costs are bytes, [`super::bound`]: unreachable is 255), almost always a board that
    /// can never be cleared but is not proven dead. A row has `REMOVED * f` ranks, so giving
    /// each of them its row made rows of 17 KB that were grown, filled and cleared for nodes
    /// that are never taken when the puzzle has a solution. Measured on the mixed set (300
    /// puzzles): 369 such entries (`f` 257 to 514; every other `f` was at most 16). Set aside:
    /// page faults 448 -> 396, instructions 78.11M -> 77.82M, and `solve` 0.7-0.9 ms faster
    /// (paired runs; most of it was the filling of those rows); hard set 397 -> 361 faults,
    /// 0.58 ms faster. Expanded states and answers unchanged.
    const FAR: u32 = 1 << 8;

    /// Prepares an empty frontier (new or cleared) for a search from a start board with
    /// `blocks` blocks.
    fn begin(&mut self, blocks: u32) {
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
    fn push(&mut self, f: u32, g: u16, blocks: u32, id: u32) {
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
    fn clear(&mut self) {
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
    fn pop(&mut self) -> Option<(u32, u16, u32)> {
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
    fn stored_bounds_fill_the_padding_of_a_node() {
        // The planes align a node to 16 bytes; the other fields and the stored bounds take
        // exactly the last 16.
        for (size, planes) in [
            (std::mem::size_of::<Node<1>>(), 1),
            (std::mem::size_of::<Node<3>>(), 3),
            (std::mem::size_of::<Node<5>>(), 5),
        ] {
            assert_eq!(size, 16 * planes + 16);
        }
    }

    /// The arena's allocation goes from one `P` to another and back, unless its size is not a
    /// whole number of nodes.
    #[test]
    fn an_arena_allocation_is_shared_by_every_plane_count() {
        let words = INITIAL_ARENA_BYTES / std::mem::size_of::<u128>();
        let mut arena: Vec<u128> = Vec::with_capacity(words);
        arena.extend([1, 2, 3]);
        let address = arena.as_ptr() as usize;
        let mut nodes = recast::<u128, Node<2>>(arena);
        assert_eq!((nodes.len(), nodes.capacity()), (0, words / 3));
        assert_eq!(nodes.as_ptr() as usize, address);
        let node = Node {
            state: State::<2>::EMPTY,
            parent: NO_PARENT,
            g: 1,
            h: 2,
            push: Push::new(5, Dir::Right),
            bounds: [Parts::UNSTORED; STORED_BOUNDS],
        };
        nodes.push(node);
        let arena = recast::<Node<2>, u128>(nodes);
        assert_eq!((arena.len(), arena.capacity()), (0, words));
        for planes in 1..=MAX_PLANES {
            let nodes_bytes = 16 * (planes + 1);
            assert!(
                INITIAL_ARENA_BYTES.is_multiple_of(nodes_bytes),
                "P = {planes}"
            );
        }
        let nodes = recast::<u128, Node<4>>(arena);
        assert_eq!(nodes.capacity(), words / 5);
        // 7 words are not a whole number of 3-word nodes: freed.
        assert_eq!(recast::<u128, Node<2>>(vec![0u128; 7]).capacity(), 0);
        assert_eq!(recast::<u128, Node<2>>(Vec::new()).capacity(), 0);
    }

    #[test]
    fn a_push_keeps_its_cell_and_direction_in_one_byte() {
        for cell in [0, 1, 64, MAX_CELLS - 1] {
            for dir in [Dir::Left, Dir::Right] {
                let push = Push::new(cell, dir);
                assert_eq!((push.cell(), push.dir()), (cell, dir));
            }
        }
    }

    /// The letter bounds a node stores give back, through [`Parts::restore`], parts whose
    /// children's bounds are [`lower_bound`]'s, whether computed in full or from the changed
    /// cells, and the bytes stored for a child are those of its own parts: on random boards
    /// of up to eight letters (more than [`STORED_BOUNDS`], so some are recomputed), for every
    /// child and grandchild of a live board, with all the stored bytes and with only some.
    #[test]
    fn stored_letter_bounds_restore_the_parts_of_a_node() {
        use crate::games::vexed::grid::Grid;
        use crate::games::vexed::test_rng::Rng;
        const BOARDS: usize = 300;
        let mut rng = Rng(0x0057_07ed);
        let mut checked = 0;
        for _ in 0..BOARDS {
            let (rows, cols) = (3 + rng.below(5), 4 + rng.below(6));
            let letters = 1 + rng.below(8);
            let cells = (0..rows * cols)
                .map(|_| match rng.below(10) {
                    0 | 1 => b'#',
                    2..=5 => b'-',
                    _ => b'A' + rng.below(letters) as u8,
                })
                .collect();
            let mut grid = Grid::new(rows, cols, cells);
            grid.settle();
            let geo = Geometry::new(&grid);
            let start = State::<3>::new(&geo, &grid);
            let mut pairs = Pairs::new(&geo);
            let (parts, total) = Parts::derive(&geo, &mut pairs, &start, None);
            if total >= DEAD {
                continue;
            }
            for (_, _, child) in start.children(&geo) {
                let mut stored = [Parts::UNSTORED; STORED_BOUNDS];
                let changed = start.changed(&child);
                let bound =
                    parts.child_bound_stored(&geo, &mut pairs, &child, changed, &mut stored);
                assert_eq!(bound, lower_bound(&geo, &mut pairs, &child));
                if bound >= DEAD || child.is_clear() {
                    continue;
                }
                let (own, _) = Parts::derive(&geo, &mut pairs, &child, None);
                assert_eq!(stored, own.stored());
                for kept in [STORED_BOUNDS, 2] {
                    let mut restored = Parts::EMPTY;
                    restored.restore(&geo, &mut pairs, &child, &stored[..kept]);
                    for (_, _, grandchild) in child.children(&geo) {
                        let expected = lower_bound(&geo, &mut pairs, &grandchild);
                        let drawn = grandchild.to_grid(&geo).draw();
                        let whole = restored.child_bound(&geo, &mut pairs, &grandchild);
                        assert_eq!(whole, expected, "{drawn}");
                        let changed = child.changed(&grandchild);
                        let mut bytes = [0; STORED_BOUNDS];
                        let by_changes = restored.child_bound_stored(
                            &geo,
                            &mut pairs,
                            &grandchild,
                            changed,
                            &mut bytes,
                        );
                        assert_eq!(by_changes, expected, "{drawn}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000, "only {checked} grandchildren checked");
    }

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

    #[test]
    fn the_index_finds_every_entry_across_growth() {
        // Digests with equal low bits collide on purpose: ids are told apart by `same`.
        let digest = |id: u32| (u64::from(id % 7) << 32) | u64::from(id % 3);
        let mut index = Index::default();
        index.start();
        for id in 0..1000u32 {
            if index.needs_room() {
                index.grow((0..id).map(digest));
            }
            let slot = index.find(digest(id), |other| other == id).unwrap_err();
            index.insert_at(slot, digest(id), id);
        }
        assert!(!index.needs_room() && index.len == 1000);
        for id in 0..1000u32 {
            assert_eq!(index.find(digest(id), |other| other == id), Ok(id));
        }
        assert!(index.find(digest(5), |other| other == 2000).is_err());
    }

    /// A reused index holds only the entries of its current search: over more searches than
    /// there are epochs (so they wrap), with digests colliding with the previous searches'.
    #[test]
    fn a_restarted_index_forgets_the_previous_search() {
        const SEARCHES: u64 = 3 * Index::MAX_EPOCH + 7;
        let digest = |search: u64, id: u32| {
            (search.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(id)) & 0xf0_0000_00ff
        };
        let mut index = Index::default();
        for search in 0..SEARCHES {
            index.start();
            let count = 1 + (search * 37 % 300) as u32;
            for id in 0..count {
                if index.needs_room() {
                    index.grow((0..id).map(|id| digest(search, id)));
                }
                // Not found before it is inserted, though previous searches stored that id
                // (and the digests' checks are all equal).
                let slot = index
                    .find(digest(search, id), |other| other == id)
                    .unwrap_err();
                index.insert_at(slot, digest(search, id), id);
            }
            for id in 0..count {
                let found = index.find(digest(search, id), |other| other == id);
                assert_eq!(found, Ok(id), "search {search}");
            }
        }
    }
}
