//! The buffers of one A* search that a thread keeps for its next search: the node index, the
//! frontier, the bound's tables, and per shape `(P, W)` the arena and child buffer (puzzles of
//! a batch need different shapes, each kept in its own typed allocation). [`super::super::workspace`]
//! holds them per thread, beside the board's geometry.
//!
//! Invariants: between searches every buffer is empty (the index and the memos forget their
//! entries by epoch when a search starts); what is kept is bounded ([`KEPT_ARENA_BYTES`] of
//! arenas over all shapes, [`KEPT_INDEX_BYTES`] of index), so one large search does not pin its
//! memory for the rest of the batch.

use std::any::Any;

use super::Child;
use super::frontier::Frontier;
use super::index::{KEPT_INDEX_BYTES, NodeIndex};
use super::store::{STORES, Store};
use crate::games::vexed::bitset::bound::Pairs;
use crate::games::vexed::bitset::planes::{Geometry, MAX_PLANES};

/// Bytes of arena (over all plane counts) a thread keeps for its next search, at most.
const KEPT_ARENA_BYTES: usize = 64 << 20;

/// Bytes an arena is first reserved for: address space, mapped only as nodes are written, so
/// that the first searches of a thread grow their arena in place instead of copying it.
const INITIAL_ARENA_BYTES: usize = 60 << 16;

/// The search buffers of a thread's workspace (apart from the geometry, so that a search can
/// borrow both).
#[derive(Default)]
pub(crate) struct Buffers {
    pub(crate) index: NodeIndex,
    pub(crate) frontier: Frontier,
    pairs: Option<Pairs>,
    /// `by_planes[shape::<P, S>()]`: the [`PlaneBuffers`] of the last search with `P`
    /// planes stored by a store of kind `S::KIND`.
    by_planes: [Option<Box<dyn Any>>; SHAPES],
    /// `arena_bytes[i]`: the capacity in bytes of the arena kept in `by_planes[i]`.
    arena_bytes: [usize; SHAPES],
}

/// Shapes of a search's nodes: `P` planes (1 to [`MAX_PLANES`]) in one of the [`STORES`].
const SHAPES: usize = STORES * MAX_PLANES;

/// The place of the shape `(P, S)` among the [`SHAPES`].
const fn shape<const P: usize, S: Store<P>>() -> usize {
    STORES * (P - 1) + S::KIND
}

/// The buffers of a search whose type depends on its plane count `P` and its nodes `N`.
pub(crate) struct PlaneBuffers<const P: usize, N> {
    /// Every node of the search, by id.
    pub(crate) arena: Vec<N>,
    /// The children of the node being expanded.
    pub(crate) children: Vec<Child<P>>,
}

impl Buffers {
    /// The bound's tables, made ready for `geo`.
    pub(crate) fn take_pairs(&mut self, geo: &Geometry) -> Pairs {
        match self.pairs.take() {
            Some(mut pairs) => {
                pairs.reset(geo);
                pairs
            }
            None => Pairs::new(geo),
        }
    }

    /// Gives the bound's tables back.
    pub(crate) fn keep_pairs(&mut self, pairs: Pairs) {
        self.pairs = Some(pairs);
    }

    /// The empty buffers of a search with `P` planes stored by `S`; a new arena has room for
    /// at most `capacity` nodes reserved.
    pub(crate) fn take_planes<const P: usize, S: Store<P>>(
        &mut self,
        capacity: usize,
    ) -> PlaneBuffers<P, S::Node> {
        let at = shape::<P, S>();
        self.arena_bytes[at] = 0;
        let kept = self.by_planes[at]
            .take()
            .and_then(|kept| kept.downcast::<PlaneBuffers<P, S::Node>>().ok());
        match kept {
            Some(kept) => *kept,
            None => {
                let initial = INITIAL_ARENA_BYTES / std::mem::size_of::<S::Node>();
                PlaneBuffers {
                    arena: Vec::with_capacity(initial.min(capacity)),
                    children: Vec::new(),
                }
            }
        }
    }

    /// Keeps the buffers of a finished search, emptied; an arena is dropped when the arenas
    /// kept would take more than [`KEPT_ARENA_BYTES`] (the others first).
    pub(crate) fn keep_planes<const P: usize, S: Store<P>>(
        &mut self,
        mut buffers: PlaneBuffers<P, S::Node>,
    ) {
        let at = shape::<P, S>();
        buffers.arena.clear();
        buffers.children.clear();
        let node = std::mem::size_of::<S::Node>();
        if buffers.arena.capacity() * node > KEPT_ARENA_BYTES {
            buffers.arena = Vec::new();
        }
        let kept = buffers.arena.capacity() * node;
        let mut total = kept;
        for other in 0..SHAPES {
            if other != at {
                total += self.arena_bytes[other];
                if total > KEPT_ARENA_BYTES {
                    total -= self.arena_bytes[other];
                    self.arena_bytes[other] = 0;
                    self.by_planes[other] = None;
                }
            }
        }
        self.arena_bytes[at] = kept;
        self.by_planes[at] = Some(Box::new(buffers));
    }

    /// Gives back every buffer of A* (the deepening that follows an A* out of memory must fit
    /// in the same memory).
    pub(crate) fn release(&mut self) {
        self.by_planes = Default::default();
        self.arena_bytes = [0; SHAPES];
        self.index = NodeIndex::default();
        self.frontier = Frontier::default();
        // The deepening would otherwise come on top of A*'s resident memory.
        give_back_freed_memory();
    }

    /// Keeps the index of a finished search unless it grew past [`KEPT_INDEX_BYTES`].
    pub(crate) fn keep_index(&mut self, index: NodeIndex) {
        if index.bytes() <= KEPT_INDEX_BYTES {
            self.index = index;
        }
    }
}

/// Makes the allocator give the pages freed by this thread back to the system now. The
/// binary's allocator (mimalloc) does it only after a delay, so a search's resident memory
/// would exceed its budget by the buffers it outgrew. Harmless under another allocator
/// (mimalloc's heap is then empty).
pub(crate) fn give_back_freed_memory() {
    // SAFETY: `mi_collect` only walks the calling thread's mimalloc heap; no pointer is passed
    // and no Rust object is touched.
    unsafe { libmimalloc_sys::mi_collect(true) };
}

#[cfg(test)]
mod tests {
    use super::super::store::Planes;
    use super::*;

    /// A search's arena comes back to the next search of the same shape, emptied, in the same
    /// allocation; arenas of other shapes are kept beside it.
    #[test]
    fn buffers_come_back_per_plane_count() {
        let mut buffers = Buffers::default();
        let mut two = buffers.take_planes::<2, Planes<2>>(1000);
        let capacity = two.arena.capacity();
        assert!(capacity > 0 && capacity <= 1000);
        let address = two.arena.as_ptr() as usize;
        two.children.reserve(8);
        buffers.keep_planes::<2, Planes<2>>(two);
        let three = buffers.take_planes::<3, Planes<6>>(1000);
        buffers.keep_planes::<3, Planes<6>>(three);
        let two = buffers.take_planes::<2, Planes<2>>(1000);
        assert_eq!((two.arena.len(), two.arena.capacity()), (0, capacity));
        assert_eq!(two.arena.as_ptr() as usize, address);
        assert!(two.children.is_empty() && two.children.capacity() >= 8);
        assert!(buffers.by_planes[shape::<3, Planes<6>>()].is_some());
    }
}
