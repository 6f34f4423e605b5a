//! Best-first (A*) search over bit-plane states: the `bitset` engine's main search.
//!
//! Every state met is a [`Node`] in one arena (its board as its [`Store`] keeps it: planes, or
//! compact in proof mode; the push that first reached it by the
//! shortest path known, its depth `g`, its lower bound `h` from [`super::bound`] and, in a
//! wide node's padding, the bounds of its first letters, so that expanding it does not look
//! them up again; a narrow node, [`node`], keeps no bounds, for 24 bytes a node in proof
//! mode); a [`NodeIndex`] ([`index`]) finds a board's node. Open nodes wait in a
//! [`Frontier`] ([`frontier`]) ordered by `f = g + h`, then fewest blocks left, then deepest
//! (the search dives towards a goal once `f` reaches the answer). Compared with iterative
//! deepening ([`super::ida`]) each state is expanded once instead of once per iteration; the
//! price is memory, so the arena is capped ([`MEMORY_BUDGET`]) and the engine falls back to
//! deepening past it. A child's bound recomputes only the letters with a changed cell
//! ([`Parts::child_bound_stored`]). The arena, index, frontier and child buffer come from the
//! thread's [`super::workspace`] and go back to it when the search ends.
//!
//! Invariants: node ids are arena positions, `0..len`, and every node is in the index once;
//! a node's `g` is the length of the shortest path to it found so far and its `parent` chain
//! replays that path; a frontier entry whose depth is no longer its node's is stale.
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
//! - Proof mode (a cap of `K` moves, [`Search::max_moves`]): a child with `g + h > K` is
//!   dropped when made, not stored, since no solution of at most `K` moves goes through it;
//!   every node kept has `f <= K`. The search still finds a minimum solution when one has at
//!   most `K` moves (every node on it has `f` at most its length), and an empty frontier after
//!   a drop proves that every solution is longer than `K` (at least `K + 1`), not that there is
//!   none. Memory holds only the boards that can still matter.

mod batch;
pub(crate) mod buffers;
pub(crate) mod frontier;
pub(crate) mod index;
pub(crate) mod node;
pub(crate) mod store;

use super::Ending;
use super::bound::{DEAD, Pairs, Parts, lower_bound};
use super::deadlock::Troughs;
use super::planes::{Geometry, State};
use super::slots::{populate_spare, prefer_huge_pages};
use crate::games::vexed::Meter;
use crate::games::vexed::grid::{Dir, Move};
pub(crate) use batch::BATCH_NODES;
use batch::{Seen, Worker, expand_batch};
use buffers::{Buffers, PlaneBuffers, give_back_freed_memory};
use frontier::Frontier;
use index::NodeIndex;
use node::{Narrow, Node, Push};
use store::{COMPACT_WORDS, NarrowCodec, Store};

use super::compact::Codec;

/// Expansions after which the search goes on in batches ([`batch`]), on every thread it may
/// use. Below it, one node at a time: small searches keep the sequential order, which dives
/// to a goal as soon as `f` reaches the answer. A fixed count, not one depending on the
/// threads, so that the answer does not depend on them either.
pub(crate) const BATCH_AFTER: u64 = 1 << 18;

/// When a search goes on in batches, and on how many threads ([`batch`]).
#[derive(Clone, Copy)]
pub(crate) struct Batching {
    /// Threads expanding a batch (at least 1).
    pub(crate) threads: usize,
    /// Expansions before the first batch ([`BATCH_AFTER`] but in tests).
    pub(crate) after: u64,
    /// Most nodes in a batch ([`BATCH_NODES`] but in tests).
    pub(crate) nodes: usize,
}
/// Bytes the arena and its index may take, at most (per puzzle; with `-j N`, N puzzles at once).
pub(crate) const MEMORY_BUDGET: usize = 384 << 20;
/// The arena grows by doubling up to this size, then takes the rest of its capacity at once.
const ARENA_DOUBLING_BYTES: usize = 2 << 20;
/// A table's next growth is expected to pause the search at most this many times as long as
/// its last one. A growth does at most twice the work, but past a few hundred MB each one also
/// pays more per entry (fresh pages, TLB misses): `benches/README.md` has the measured ratios.
const GROWTH_PAUSE_FACTOR: u32 = 4;
/// Bytes of one frontier entry (a node id).
const FRONTIER_ENTRY: usize = std::mem::size_of::<u32>();
/// Frontier entries per node, about: its vectors double.
const FRONTIER_ENTRIES_PER_NODE: usize = 2;
/// Parent of the start node.
const NO_PARENT: u32 = u32::MAX;
/// Most nodes in an arena: ids are `u32`, [`NO_PARENT`] excluded.
pub(crate) const MAX_NODES: usize = NO_PARENT as usize;
/// A cap of moves that caps nothing (see [`Search::max_moves`]).
pub(crate) const NO_CAP: u32 = u32::MAX;
/// Largest `h` stored (bounds never come near it on 128 cells).
const MAX_H: u16 = u16::MAX - 1;

/// Letter bounds a wide node keeps ([`Node::bounds`]): they fill the bytes it has left after
/// its other fields, up to the 8-byte alignment of its words (a test checks the size).
const STORED_BOUNDS: usize = Parts::STORED;

/// How the search ended.
pub(crate) enum Ended {
    /// Solved, proven unsolvable or stopped by the budget.
    Done(Ending),
    /// The arena is full: search again with less memory, with what is left of the budget,
    /// knowing that no solution is shorter than `proven`.
    OutOfMemory { meter: Meter, proven: u32 },
}

/// What a search may use ([`search`]).
#[derive(Clone, Copy)]
pub(crate) struct Limits {
    /// Bytes of nodes, index and frontier, about.
    pub(crate) memory: usize,
    /// When it goes on in batches, on how many threads.
    pub(crate) batching: Batching,
    /// The longest solution looked for ([`NO_CAP`]: any).
    pub(crate) max_moves: u32,
}

/// Searches from `start` (live, not clear), its boards kept by `store`, within `limits`; from
/// its first batch on ([`batch`]) compact when `compact_later` and they fit two words (past
/// the small searches, which their packing would slow down; the nodes are the same, so is the
/// search).
pub(crate) fn search<const P: usize, S: Store<P>>(
    geo: &Geometry,
    (store, compact_later): (&S, bool),
    start: State<P>,
    meter: Meter,
    limits: Limits,
    buffers: &mut Buffers,
) -> Ended {
    let Limits {
        memory,
        batching,
        max_moves,
    } = limits;
    let capacity = capacity_of::<S, P>(memory);
    let mut search = Search::<P, S>::new(geo, store, meter, capacity, buffers);
    search.batching = batching;
    search.max_moves = max_moves;
    search.later = compact_later;
    let blocks = start.occupied().len() as usize;
    if let Some(ended) = search.run(start) {
        search.recycle(buffers);
        return ended;
    }
    // Built only now: most searches never get here.
    let codec = Codec::new(geo, blocks);
    let troughs = Troughs::new(geo);
    if codec.fits::<COMPACT_WORDS>() && Narrow::<()>::holds(max_moves) {
        let narrow = NarrowCodec(&codec);
        let mut search = search.stored_by(&narrow, capacity_of::<NarrowCodec, P>(memory));
        let ended = search.run_batches(&troughs);
        search.recycle(buffers);
        ended
    } else if codec.fits::<COMPACT_WORDS>() {
        let mut search = search.stored_by(&codec, capacity_of::<Codec, P>(memory));
        let ended = search.run_batches(&troughs);
        search.recycle(buffers);
        ended
    } else {
        let ended = search.run_batches(&troughs);
        search.recycle(buffers);
        ended
    }
}

/// The nodes of `S` that `memory` bytes hold: each its arena entry (the arena never reserves
/// past the capacity, see `add`), its frontier entries and its index slots at their most
/// ([`NodeIndex::nodes_within`]).
fn capacity_of<S: Store<P>, const P: usize>(memory: usize) -> usize {
    let other = std::mem::size_of::<S::Node>() + FRONTIER_ENTRIES_PER_NODE * FRONTIER_ENTRY;
    NodeIndex::nodes_within(memory, other, S::LOAD).min(MAX_NODES)
}

/// A table of the search that grows ([`Search::grow`]), each timed apart.
#[derive(Clone, Copy)]
enum Growing {
    Index,
    Arena,
}

impl Growing {
    /// How many growing tables there are (`growing as usize` is below it).
    const COUNT: usize = 2;
}

/// Why a search stops before its end.
enum Stop {
    /// The arena is full.
    OutOfMemory,
    /// The budget would be exceeded.
    Budget,
}

/// A new node as [`Search::insert`] takes it: (its board as stored, its blocks, its digest, its
/// index slot, `h`, the stored bounds).
type Fresh<B> = (B, u32, u64, usize, u16, [u8; STORED_BOUNDS]);

/// A child of the node being expanded: (cell, direction, board, digest).
pub(crate) type Child<const P: usize> = (usize, Dir, State<P>, u64);

struct Search<'a, const P: usize, S: Store<P>> {
    geo: &'a Geometry,
    store: &'a S,
    pairs: Pairs,
    meter: Meter,
    nodes: Vec<S::Node>,
    index: NodeIndex,
    frontier: Frontier,
    capacity: usize,
    /// Children of the node being expanded.
    children: Vec<Child<P>>,
    /// The letter sets and bounds of the node being expanded (kept to reuse its memory).
    parts: Parts,
    /// How long the last growth of each table took, by [`Growing`] ([`Search::grow`]).
    last_pause: [std::time::Duration; Growing::COUNT],
    /// When to go on in batches, on how many threads ([`batch`]).
    batching: Batching,
    /// Proof mode: children with `g + h` above it are dropped ([`NO_CAP`]: none is).
    max_moves: u32,
    /// Whether a child was dropped by `max_moves`: then an empty frontier proves only that
    /// every solution is longer, not that there is none.
    capped: bool,
    /// Whether the search goes on in batches under another store ([`search`]'s `later`).
    later: bool,
}

impl<'a, const P: usize, S: Store<P>> Search<'a, P, S> {
    /// A search with the thread's reused buffers (see [`super::workspace`]).
    fn new(
        geo: &'a Geometry,
        store: &'a S,
        meter: Meter,
        capacity: usize,
        buffers: &mut Buffers,
    ) -> Self {
        let PlaneBuffers { arena, children } = buffers.take_planes::<P, S>(capacity);
        let mut index = std::mem::take(&mut buffers.index);
        index.start();
        index.set_load(S::LOAD);
        Search {
            geo,
            store,
            pairs: buffers.take_pairs(geo),
            meter,
            nodes: arena,
            index,
            frontier: std::mem::take(&mut buffers.frontier),
            capacity,
            children,
            parts: Parts::EMPTY,
            last_pause: [std::time::Duration::ZERO; Growing::COUNT],
            batching: Batching {
                threads: 1,
                after: BATCH_AFTER,
                nodes: BATCH_NODES,
            },
            max_moves: NO_CAP,
            capped: false,
            later: false,
        }
    }

    /// The same search with its boards kept by `store` (the arena copied, each board packed
    /// again; ids, the index and the frontier unchanged), within `capacity` nodes. The old
    /// arena is dropped, not kept for the thread's next search: the copy is the search's now.
    fn stored_by<T: Store<P>>(self, store: &'a T, capacity: usize) -> Search<'a, P, T> {
        let Search {
            geo,
            store: old,
            pairs,
            meter,
            nodes,
            index,
            frontier,
            capacity: _,
            children,
            parts,
            last_pause,
            batching,
            max_moves,
            capped,
            later: _,
        } = self;
        let mut arena = Vec::with_capacity(nodes.len());
        arena.extend(nodes.iter().map(|node| {
            let board = store.pack(&old.unpack(node.board()));
            let mut bounds = [Parts::UNSTORED; STORED_BOUNDS];
            let kept = node.bounds().len().min(STORED_BOUNDS);
            bounds[..kept].copy_from_slice(&node.bounds()[..kept]);
            let (g, h) = (node.g(), node.h());
            T::Node::new(board, node.parent(), g, h, node.push(), &bounds)
        }));
        drop(nodes);
        let len = arena.len();
        let mut index = index;
        index.set_load(T::LOAD);
        Search {
            geo,
            store,
            pairs,
            meter,
            nodes: arena,
            index,
            frontier,
            capacity: capacity.max(len),
            children,
            parts,
            last_pause,
            batching,
            max_moves,
            capped,
            later: false,
        }
    }

    /// Gives the arena, the index, the frontier and the bound's tables back to `buffers`.
    fn recycle(self, buffers: &mut Buffers) {
        let Search {
            nodes,
            index,
            mut frontier,
            pairs,
            children,
            ..
        } = self;
        frontier.clear();
        buffers.frontier = frontier;
        buffers.keep_index(index);
        buffers.keep_pairs(pairs);
        buffers.keep_planes::<P, S>(PlaneBuffers {
            arena: nodes,
            children,
        });
    }

    /// The search from `start`: `None` when it reaches its batches with a later store to go on
    /// with ([`Search::later`]; the node taken is queued again).
    fn run(&mut self, start: State<P>) -> Option<Ended> {
        let h = lower_bound(self.geo, &mut self.pairs, &start);
        // Trough deadlocks are tested when a node is taken, not when it is made: most stored
        // nodes are never taken.
        let troughs = Troughs::new(self.geo);
        if h >= DEAD || troughs.deadlocked(&start) {
            return Some(Ended::Done(Ending::unsolved(0)));
        }
        if h > self.max_moves {
            return Some(Ended::Done(Ending::stopped(0, h)));
        }
        if self.capacity == 0 {
            return Some(Ended::OutOfMemory {
                meter: self.meter.clone(),
                proven: h,
            });
        }
        let h = clamp_h(h);
        let unknown = [Parts::UNSTORED; STORED_BOUNDS];
        let board = self.store.pack(&start);
        self.add(board, NO_PARENT, 0, Push::new(0, Dir::Left), h, unknown);
        let digest = start.digest();
        let slot = self.index.find(digest, |_| false).unwrap_err();
        self.index.insert_at(slot, digest, 0);
        let blocks = start.occupied().len();
        self.frontier.begin(blocks);
        self.frontier.push(u32::from(h), 0, blocks, 0);
        while let Some((f, g, id)) = self.frontier.pop() {
            let node = self.nodes[id as usize];
            if self.meter.expanded >= self.batching.after {
                let blocks = self.store.unpack(node.board()).occupied().len();
                self.frontier.push(f, g, blocks, id);
                if self.later {
                    return None;
                }
                return Some(self.run_batches(&troughs));
            }
            if node.g() != g {
                continue; // reached again by a shorter path since it was queued
            }
            // Unpacked once: a compact board costs a few nanoseconds each time.
            let state = self.store.unpack(node.board());
            self.parts
                .restore(self.geo, &mut self.pairs, &state, node.bounds());
            // A node's parent was expanded, so free of trough deadlocks; so is the node when
            // its troughs did not change (`Troughs::unchanged`).
            let same = node.parent() != NO_PARENT
                && troughs.unchanged(
                    &self
                        .store
                        .unpack(self.nodes[node.parent() as usize].board()),
                    &state,
                );
            let sets = self.parts.sets(self.geo);
            if !same && troughs.deadlocked_letters(state.occupied(), sets) {
                continue; // dead, though its bound is not: not expanded (nor counted)
            }
            if !self.meter.tick() {
                return Some(Ended::Done(Ending::stopped(self.meter.expanded, f)));
            }
            let step = self.expand(id, node, &state, f);
            if let Some(ended) = self.ended_by(step, f) {
                return Some(ended);
            }
        }
        Some(Ended::Done(self.exhausted()))
    }

    /// How a search whose frontier is empty ends: no solution at all, or, when `max_moves`
    /// dropped a child, none of at most `max_moves` pushes.
    fn exhausted(&self) -> Ending {
        if self.capped {
            Ending::stopped(self.meter.expanded, self.max_moves.saturating_add(1))
        } else {
            Ending::unsolved(self.meter.expanded)
        }
    }

    /// Whether a child at depth `g` with bound `h` is beyond `max_moves` (and so dropped,
    /// which is noted).
    #[inline(always)]
    fn beyond_cap(&mut self, g: u16, h: u16) -> bool {
        let beyond = u32::from(g) + u32::from(h) > self.max_moves;
        self.capped |= beyond;
        beyond
    }

    /// How the search ends after an expansion or a batch of key `f` (`step`: a solution,
    /// nothing yet, or a stop); `None` to go on. Nodes are taken by increasing `f` (pathmax),
    /// and some open node lies on a shortest solution with `f` at most its length: so no
    /// solution is shorter than the `f` being expanded.
    fn ended_by(&self, step: Result<Option<Vec<Move>>, Stop>, f: u32) -> Option<Ended> {
        let expanded = self.meter.expanded;
        match step {
            Ok(Some(moves)) => Some(Ended::Done(Ending::solved(moves, expanded))),
            Ok(None) => None,
            Err(Stop::OutOfMemory) => Some(Ended::OutOfMemory {
                meter: self.meter.clone(),
                proven: f,
            }),
            Err(Stop::Budget) => Some(Ended::Done(Ending::stopped(expanded, f))),
        }
    }

    /// Expands one node whose queue key is `f`: the solution if a child is clear; `Err` when
    /// the arena is full (or a depth would not fit a node), or when growing a table would
    /// not end before the deadline ([`Search::grow`]).
    /// `self.parts` are the node's ([`Parts::restore`]), `state` its board.
    fn expand(
        &mut self,
        id: u32,
        node: S::Node,
        state: &State<P>,
        f: u32,
    ) -> Result<Option<Vec<Move>>, Stop> {
        let mut children = std::mem::take(&mut self.children);
        children.clear();
        for (cell, dir, child) in state.children(self.geo) {
            if child.is_clear() {
                self.children = children;
                return Ok(Some(self.moves(id, cell, dir)));
            }
            let digest = child.digest();
            self.index.prefetch(digest);
            children.push((cell, dir, child, digest));
        }
        // Lookups after all children are made, so that their prefetches overlap.
        let Some(g) = node.g().checked_add(1) else {
            // Deeper than a node can say: leave it to deepening, which has no such limit.
            self.children = children;
            return Err(Stop::OutOfMemory);
        };
        // The frontier takes children with fewer blocks first (so, among the children of one
        // node, those whose push removed blocks), then the last queued: they are queued last
        // to first, so that the first made is taken first (see `Frontier`).
        for (cell, dir, child, digest) in children.iter().rev() {
            let (cell, dir, digest) = (*cell, *dir, *digest);
            if self.index.needs_room() && !self.grow(Growing::Index, 1) {
                self.children = children;
                return Err(Stop::Budget);
            }
            let (nodes, store) = (&self.nodes, self.store);
            match self.index.find(digest, |other| {
                *nodes[other as usize].board() == store.pack(child)
            }) {
                Ok(other) => self.reach(other, id, g, Push::new(cell, dir), f, child),
                Err(slot) => {
                    let mut bounds = [Parts::UNSTORED; STORED_BOUNDS];
                    let bound = self.parts.child_bound_stored(
                        self.geo,
                        &mut self.pairs,
                        child,
                        state.changed(child),
                        &mut bounds,
                    );
                    if bound >= DEAD {
                        // Not stored: dead boards are many, and their bound is cheap to
                        // recompute (memoised per letter) when met again.
                        continue;
                    }
                    if self.beyond_cap(g, clamp_h(bound)) {
                        continue;
                    }
                    let push = Push::new(cell, dir);
                    let blocks = child.occupied().len();
                    let board = self.store.pack(child);
                    let fresh = (board, blocks, digest, slot, clamp_h(bound), bounds);
                    if let Err(stop) = self.insert(fresh, id, g, push, f) {
                        self.children = children;
                        return Err(stop);
                    }
                }
            }
        }
        self.children = children;
        Ok(None)
    }

    /// Node `other`, met again as a child of `parent` at depth `g` by `push`: when that path is
    /// shorter, it becomes the node's and the node is (re)opened.
    #[inline(always)]
    fn reach(&mut self, other: u32, parent: u32, g: u16, push: Push, f: u32, child: &State<P>) {
        let known = &mut self.nodes[other as usize];
        if known.g() <= g {
            return;
        }
        known.repath(parent, g, push);
        let child_f = f.max(u32::from(g) + u32::from(known.h()));
        let blocks = child.occupied().len();
        self.frontier.push(child_f, g, blocks, other);
    }

    /// Stores a new child `(board, digest, index slot, h, stored bounds)` of `parent`, at
    /// depth `g` by `push`, and opens it. `Err` when the arena is full, or when growing it
    /// would not end before the deadline.
    #[inline(always)]
    fn insert(
        &mut self,
        (board, blocks, digest, slot, h, bounds): Fresh<S::Board>,
        parent: u32,
        g: u16,
        push: Push,
        f: u32,
    ) -> Result<(), Stop> {
        let child_f = f.max(u32::from(g) + u32::from(h));
        if self.nodes.len() >= self.capacity {
            return Err(Stop::OutOfMemory);
        }
        if self.nodes.len() == self.nodes.capacity() && !self.grow(Growing::Arena, 0) {
            return Err(Stop::Budget);
        }
        let child_id = self.nodes.len() as u32;
        self.add(board, parent, g, push, h, bounds);
        self.index.insert_at(slot, digest, child_id);
        self.frontier.push(child_f, g, blocks, child_id);
        Ok(())
    }

    /// The search from its first batch on (see [`batch`]): batches of open nodes of the lowest
    /// `f`, each expanded on [`Batching::threads`] threads, then merged.
    fn run_batches(&mut self, troughs: &Troughs) -> Ended {
        let mut workers: Vec<Worker<P, S::Board>> = (0..self.batching.threads)
            .map(|_| Worker::new(self.geo))
            .collect();
        let mut batch: Vec<(u32, S::Node)> = Vec::with_capacity(self.batching.nodes);
        // A node has at most two pushes per block, and blocks are never added.
        let most_children = 2 * self.store.unpack(self.nodes[0].board()).occupied().len() as usize;
        // The arena's entries whose pages are mapped already (see below).
        let mut populated = 0;
        loop {
            batch.clear();
            let mut layer = None;
            while batch.len() < self.batching.nodes.max(1) {
                let Some((f, g, id)) = self.frontier.pop() else {
                    break;
                };
                let node = self.nodes[id as usize];
                if *layer.get_or_insert(f) != f {
                    let blocks = self.store.unpack(node.board()).occupied().len();
                    self.frontier.push(f, g, blocks, id);
                    break;
                }
                if node.g() == g {
                    batch.push((id, node));
                }
            }
            let Some(f) = layer else {
                return Ended::Done(self.exhausted());
            };
            // Room for every child of the batch, so that the slots its workers find stay where
            // they are until it is merged.
            let room = batch.len() * most_children;
            while self.index.needs_room_for(room) {
                if !self.grow(Growing::Index, room) {
                    return Ended::Done(Ending::stopped(self.meter.expanded, f));
                }
            }
            // The pages the merge will write new nodes to, mapped now on every thread.
            let len = self.nodes.len();
            let ahead = len + batch.len() * most_children;
            populate_spare(
                &self.nodes,
                populated.max(len),
                ahead,
                self.batching.threads,
            );
            populated = populated.max(ahead);
            expand_batch(
                self.geo,
                self.store,
                &self.nodes,
                &self.index,
                troughs,
                &batch,
                &mut workers,
            );
            let step = self.merge(&batch, &workers, f);
            if let Some(ended) = self.ended_by(step, f) {
                return ended;
            }
        }
    }

    /// Merges an expanded batch (of nodes of key `f`) in batch order, as the sequential search
    /// would have added their children; the solution if one of them has a clear child.
    fn merge(
        &mut self,
        batch: &[(u32, S::Node)],
        workers: &[Worker<P, S::Board>],
        f: u32,
    ) -> Result<Option<Vec<Move>>, Stop> {
        let count = workers.len();
        let expansion_of = |i: usize| (&workers[i % count], &workers[i % count].done[i / count]);
        for (i, &(id, node)) in batch.iter().enumerate() {
            let (worker, expansion) = expansion_of(i);
            // The next node's new children will be stored in slots spread over the whole
            // index: start loading them while this node's are merged.
            if i + 1 < batch.len() {
                let (next, ahead) = expansion_of(i + 1);
                for child in &next.made[ahead.children.clone()] {
                    if let Seen::New { slot, .. } = child.seen {
                        self.index.prefetch_slot(slot);
                    }
                }
            }
            if expansion.skipped {
                continue;
            }
            if !self.meter.tick() {
                return Err(Stop::Budget);
            }
            if let Some(push) = expansion.clear {
                return Ok(Some(self.moves(id, push.cell(), push.dir())));
            }
            let Some(g) = node.g().checked_add(1) else {
                return Err(Stop::OutOfMemory);
            };
            // Last made first, as the sequential search queues them.
            for child in worker.made[expansion.children.clone()].iter().rev() {
                match child.seen {
                    Seen::Dead => {}
                    // Depths only drop: one not above `g` then is not above it now.
                    Seen::Known { id: other, g: seen } => {
                        if seen > g {
                            self.reach(other, id, g, child.push, f, &child.state);
                        }
                    }
                    Seen::New {
                        slot,
                        h,
                        bounds,
                        board,
                    } => {
                        if self.beyond_cap(g, h) {
                            continue;
                        }
                        let slot = if self.index.is_free(slot) {
                            slot
                        } else {
                            let nodes = &self.nodes;
                            let found = self
                                .index
                                .find(child.digest, |o| *nodes[o as usize].board() == board);
                            match found {
                                Ok(other) => {
                                    self.reach(other, id, g, child.push, f, &child.state);
                                    continue;
                                }
                                Err(slot) => slot,
                            }
                        };
                        let blocks = child.state.occupied().len();
                        let fresh = (board, blocks, child.digest, slot, h, bounds);
                        self.insert(fresh, id, g, child.push, f)?;
                    }
                }
            }
        }
        Ok(None)
    }

    /// Grows `table` (the index to room for `room` more entries, [`NodeIndex::grow_size`];
    /// the arena by doubling), unless the pause would not end before the deadline (taken as
    /// [`GROWTH_PAUSE_FACTOR`] times its last one): then returns false, and the search
    /// stops at its budget instead of past it. The tables are timed apart: an arena doubling
    /// is a reallocation (often a page remapping) while an index growth is a rehash, much
    /// longer, and one pause for both would let a long rehash start just before the deadline.
    fn grow(&mut self, table: Growing, room: usize) -> bool {
        let started = std::time::Instant::now();
        if !self.meter.affords(
            started,
            GROWTH_PAUSE_FACTOR * self.last_pause[table as usize],
        ) {
            return false;
        }
        match table {
            Growing::Index if self.batching.threads > 1 => {
                let size = self.index.grow_size(room, self.capacity);
                let (nodes, store) = (&self.nodes, self.store);
                let digest_of = |id: usize| store.unpack(nodes[id].board()).digest();
                self.index.grow_on(size, self.batching.threads, &digest_of);
            }
            Growing::Index => {
                let size = self.index.grow_size(room, self.capacity);
                let store = self.store;
                let digests = self
                    .nodes
                    .iter()
                    .map(|node| store.unpack(node.board()).digest());
                self.index.grow(size, digests)
            }
            Growing::Arena => self.reserve(),
        }
        self.last_pause[table as usize] = started.elapsed();
        true
    }

    /// Doubles the arena's capacity, but never past `self.capacity` (a plain push could
    /// reserve twice it).
    fn reserve(&mut self) {
        let node = std::mem::size_of::<S::Node>();
        let left = self.capacity - self.nodes.len();
        if self.nodes.len().saturating_mul(2 * node) <= ARENA_DOUBLING_BYTES {
            self.nodes.reserve_exact(self.nodes.len().clamp(1, left));
        } else {
            // A large arena takes the rest of its capacity at once: address space, mapped only
            // as nodes are written. Doubling would copy it each time, the old and the new one
            // resident together, and leave the old one's pages with the allocator; the one
            // copy made here is given back at once. So the search's resident memory stays
            // within its budget.
            self.nodes.reserve_exact(left);
            prefer_huge_pages(&self.nodes);
            give_back_freed_memory();
        }
    }

    /// Appends a node to the arena (the caller indexes it).
    fn add(
        &mut self,
        board: S::Board,
        parent: u32,
        g: u16,
        push: Push,
        h: u16,
        bounds: [u8; STORED_BOUNDS],
    ) {
        if self.nodes.len() == self.nodes.capacity() {
            self.reserve();
        }
        self.nodes
            .push(S::Node::new(board, parent, g, h, push, &bounds));
    }

    /// The moves from the start to node `id`, then the push `(cell, dir)`. Each push is
    /// described on the board it was made on, its parent's, which the arena holds: nothing
    /// is replayed.
    fn moves(&self, id: u32, cell: usize, dir: Dir) -> Vec<Move> {
        let mut node = &self.nodes[id as usize];
        let mut moves = Vec::with_capacity(usize::from(node.g()) + 1);
        moves.push(
            self.geo
                .describe(&self.store.unpack(node.board()), cell, dir),
        );
        while node.parent() != NO_PARENT {
            let push = node.push();
            node = &self.nodes[node.parent() as usize];
            moves.push(self.geo.describe(
                &self.store.unpack(node.board()),
                push.cell(),
                push.dir(),
            ));
        }
        moves.reverse();
        moves
    }
}

/// A live board's bound as stored in a node: at least 1 (the board has blocks).
fn clamp_h(bound: u32) -> u16 {
    bound.clamp(1, u32::from(MAX_H)) as u16
}

#[cfg(test)]
mod tests;
