//! The expansion phase of A*'s batches: a deep search ([`super::BATCH_AFTER`] expansions and
//! on) takes up to [`BATCH_NODES`] open nodes of the lowest `f` at once, expands them on
//! `--threads` threads ([`expand_batch`]), then merges their children into the arena, the
//! index and the frontier on one thread, in batch order ([`super::Search::merge`]).
//!
//! What makes this exact and deterministic:
//! - Every node of a batch has the lowest `f` of the frontier, so expanding them in any order
//!   is a valid A* order, and a clear child of any of them costs `g + 1 <= f`, the minimum.
//! - During the expansion phase the arena and the index are only read. Each worker looks its
//!   children up as the index stood at the batch's start ([`Seen`]); the merge corrects what
//!   earlier nodes of the same batch changed: a depth can only have dropped since (it is
//!   re-read when the one seen was larger), and a child new then is looked up again only when
//!   its slot has been filled since (a board inserted meanwhile would sit in that very slot,
//!   the first free one of its probe chain). The index has room for the whole batch before the
//!   phase starts, so no slot moves during the merge.
//! - Worker `w` of `T` expands the nodes `w, w + T, ...` of the batch, and what it records of
//!   a node depends only on the node, the arena and the index (the bound's memos change its
//!   cost, never its value). The batches themselves are cut from the frontier by size alone.
//!   So the merge, and the answer, are the same for every thread count, one included.

use std::ops::Range;

use super::index::NodeIndex;
use super::node::{Node, Push};
use super::store::Store;
use super::{NO_PARENT, STORED_BOUNDS, clamp_h};
use crate::games::vexed::bitset::bound::{DEAD, Pairs, Parts};
use crate::games::vexed::bitset::deadlock::Troughs;
use crate::games::vexed::bitset::planes::{Geometry, State};

/// Most open nodes in one batch. Large enough that a batch's work (milliseconds) dwarfs
/// starting its threads; small enough that the last layer, where a sequential search dives
/// straight to a goal, does not cost many batches of extra expansions.
pub(crate) const BATCH_NODES: usize = 2048;

/// One thread's share of a batch, and the buffers it reuses from batch to batch (`B`: a board
/// as the arena stores it).
pub(super) struct Worker<const P: usize, B> {
    /// The bound's tables (a worker's own: their memos are written as they are read).
    pairs: Pairs,
    parts: Parts,
    /// The children made, node after node.
    pub(super) made: Vec<Made<P, B>>,
    /// Per node of this worker's share, in batch order.
    pub(super) done: Vec<Expansion>,
}

/// A child made during the expansion phase, with what the index said of it then.
pub(super) struct Made<const P: usize, B> {
    pub(super) push: Push,
    pub(super) state: State<P>,
    pub(super) digest: u64,
    pub(super) seen: Seen<B>,
}

/// What the expansion phase learnt of a child.
#[derive(Clone, Copy)]
pub(super) enum Seen<B> {
    /// Its bound is [`DEAD`]: never stored.
    Dead,
    /// Already node `id`, whose depth was `g` then.
    Known { id: u32, g: u16 },
    /// Not in the index: `slot` is where it goes, `h`, `bounds` and `board` what its node
    /// holds (packed here, on the batch's threads, rather than in the merge, on one).
    New {
        slot: usize,
        h: u16,
        bounds: [u8; STORED_BOUNDS],
        board: B,
    },
}

/// One node of a batch, expanded (or not).
pub(super) struct Expansion {
    /// Dead by its troughs: not expanded, and not counted.
    pub(super) skipped: bool,
    /// The push to a clear board, if a child is clear (its other children are then not kept).
    pub(super) clear: Option<Push>,
    /// Its children in [`Worker::made`], in the order they were made.
    pub(super) children: Range<usize>,
}

impl<const P: usize, B: Copy + Eq> Worker<P, B> {
    pub(super) fn new(geo: &Geometry) -> Self {
        Worker {
            pairs: Pairs::new(geo),
            parts: Parts::EMPTY,
            made: Vec::new(),
            done: Vec::new(),
        }
    }

    /// Expands `batch` (node ids with a copy of each node as it was popped), reading the
    /// arena `nodes` and the `index` only.
    fn expand<S: Store<P, Board = B>>(
        &mut self,
        geo: &Geometry,
        store: &S,
        nodes: &[S::Node],
        index: &NodeIndex,
        troughs: &Troughs,
        batch: impl Iterator<Item = S::Node>,
    ) {
        let Worker {
            pairs,
            parts,
            made,
            done,
        } = self;
        made.clear();
        done.clear();
        for node in batch {
            let state = store.unpack(node.board());
            parts.restore(geo, pairs, &state, node.bounds());
            // As in the sequential search: a node whose troughs did not change since its
            // (expanded) parent is free of trough deadlocks.
            let same = node.parent() != NO_PARENT
                && troughs.unchanged(&store.unpack(nodes[node.parent() as usize].board()), &state);
            if !same && troughs.deadlocked_letters(state.occupied(), parts.sets(geo)) {
                done.push(Expansion {
                    skipped: true,
                    clear: None,
                    children: 0..0,
                });
                continue;
            }
            let first = made.len();
            let mut clear = None;
            for (cell, dir, child) in state.children(geo) {
                if child.is_clear() {
                    clear = Some(Push::new(cell, dir));
                    break;
                }
                let digest = child.digest();
                index.prefetch(digest);
                made.push(Made {
                    push: Push::new(cell, dir),
                    state: child,
                    digest,
                    seen: Seen::Dead,
                });
            }
            if clear.is_some() {
                made.truncate(first);
            }
            // Lookups after all children are made, so that their prefetches overlap.
            for child in &mut made[first..] {
                // Packed only to compare with a node whose digest check matches (almost
                // always the same board): most children are new.
                let state_made = &child.state;
                let found = index.find(child.digest, |other| {
                    *nodes[other as usize].board() == store.pack(state_made)
                });
                child.seen = match found {
                    Ok(id) => Seen::Known {
                        id,
                        g: nodes[id as usize].g(),
                    },
                    Err(slot) => {
                        let mut bounds = [Parts::UNSTORED; STORED_BOUNDS];
                        let changed = state.changed(&child.state);
                        let bound = parts.child_bound_stored(
                            geo,
                            pairs,
                            &child.state,
                            changed,
                            &mut bounds,
                        );
                        if bound >= DEAD {
                            Seen::Dead
                        } else {
                            Seen::New {
                                slot,
                                h: clamp_h(bound),
                                bounds,
                                board: store.pack(state_made),
                            }
                        }
                    }
                };
            }
            done.push(Expansion {
                skipped: false,
                clear,
                children: first..made.len(),
            });
        }
    }
}

/// The expansion phase of one batch: worker `w` of `workers` expands the nodes `w, w + T, ...`
/// of `batch`, the first on the calling thread and each other one on a thread of its own.
pub(super) fn expand_batch<const P: usize, S: Store<P>>(
    geo: &Geometry,
    store: &S,
    nodes: &[S::Node],
    index: &NodeIndex,
    troughs: &Troughs,
    batch: &[(u32, S::Node)],
    workers: &mut [Worker<P, S::Board>],
) {
    let count = workers.len();
    let share = |w: usize| batch.iter().skip(w).step_by(count).map(|&(_, node)| node);
    let Some((first, others)) = workers.split_first_mut() else {
        return;
    };
    if others.is_empty() {
        first.expand(geo, store, nodes, index, troughs, share(0));
        return;
    }
    // Scoped threads, not the run's rayon pool: a thread of that pool waiting here could
    // start another case's search on this thread, whose workspace is in use.
    std::thread::scope(|scope| {
        for (w, worker) in others.iter_mut().enumerate() {
            let share = share(w + 1);
            scope.spawn(move || worker.expand(geo, store, nodes, index, troughs, share));
        }
        first.expand(geo, store, nodes, index, troughs, share(0));
    });
}
