//! The expansion of a slice of one bucket's layer (boards of one key and one depth `g`) on
//! `--threads` threads: each [`Worker`] expands the chunks `w, w + T, ...` of the slice and
//! records every board's live children with their key and bound; the caller merges them in
//! slice order ([`Slice::get`]).
//!
//! What a worker records of a board depends only on the board, `g` and the cap (the bound's
//! memos change its cost, never its value), and chunks are cut by size alone: so the merge,
//! and the search, are the same for every thread count.

use std::ops::Range;

use super::record::{Board, Psi, PsiOf};
use crate::games::vexed::bitset::bound::{DEAD, Pairs, Parts};
use crate::games::vexed::bitset::compact::Codec;
use crate::games::vexed::bitset::deadlock::Troughs;
use crate::games::vexed::bitset::planes::{Geometry, State};
use crate::games::vexed::grid::Dir;

/// Boards a worker takes at a time: few, so that the layers of a bucket, often of a few
/// hundred boards, still go to every thread (a slice, [`super::SLICE_CHUNKS`] chunks a
/// worker, is what pays for starting its threads).
pub(super) const CHUNK: usize = 32;

/// A child of an expanded board, kept (live, within the cap).
#[derive(Clone, Copy)]
pub(super) struct Made {
    pub(super) psi: Psi,
    pub(super) board: Board,
    pub(super) h: u8,
}

/// One board of the slice, expanded or not.
#[derive(Clone)]
pub(super) struct Done {
    /// Dead by its troughs: not expanded, and not counted.
    pub(super) skipped: bool,
    /// A push that clears the board, if any (its other children are then not kept: none
    /// leads to a shorter solution).
    pub(super) clear: Option<(usize, Dir)>,
    /// Whether a child was dropped by the cap.
    pub(super) dropped: bool,
    /// Its children in [`Worker::made`].
    pub(super) children: Range<usize>,
}

/// What every worker reads: the level, and how its boards are keyed and packed.
pub(super) struct Shared<'a> {
    pub(super) geo: &'a Geometry,
    pub(super) codec: &'a Codec,
    pub(super) troughs: &'a Troughs,
    pub(super) psi_of: &'a PsiOf,
}

/// One thread's buffers, kept from slice to slice.
pub(super) struct Worker<const P: usize> {
    pairs: Pairs,
    parts: Parts,
    pub(super) made: Vec<Made>,
    done: Vec<Done>,
}

impl<const P: usize> Worker<P> {
    pub(super) fn new(geo: &Geometry) -> Worker<P> {
        Worker {
            pairs: Pairs::new(geo),
            parts: Parts::EMPTY,
            made: Vec::new(),
            done: Vec::new(),
        }
    }

    /// Expands `boards`, each at depth `g`: its children with `g + 1 + h <= cap` are kept.
    fn expand<'b>(
        &mut self,
        shared: &Shared,
        boards: impl Iterator<Item = &'b Board>,
        g: u32,
        cap: u32,
    ) {
        let Shared {
            geo,
            codec,
            troughs,
            psi_of,
        } = *shared;
        for board in boards {
            let state: State<P> = codec.unpack(board);
            self.parts.restore(geo, &mut self.pairs, &state, &[]);
            let start = self.made.len();
            let mut done = Done {
                skipped: troughs.deadlocked_letters(state.occupied(), self.parts.sets(geo)),
                clear: None,
                dropped: false,
                children: start..start,
            };
            if !done.skipped {
                let mut stored = [Parts::UNSTORED; Parts::STORED];
                for (cell, dir, child) in state.children(geo) {
                    if child.is_clear() {
                        done.clear = Some((cell, dir));
                        self.made.truncate(start);
                        break;
                    }
                    let changed = state.changed(&child);
                    let bound = self.parts.child_bound_stored(
                        geo,
                        &mut self.pairs,
                        &child,
                        changed,
                        &mut stored,
                    );
                    if bound >= DEAD {
                        continue;
                    }
                    if g + 1 + bound > cap {
                        done.dropped = true;
                        continue;
                    }
                    self.made.push(Made {
                        psi: psi_of.of(&child),
                        board: codec.pack(&child),
                        // Within the cap, so below 256 (the cap fits a byte).
                        h: bound as u8,
                    });
                }
            }
            done.children = start..self.made.len();
            self.done.push(done);
        }
    }
}

/// A slice expanded: where each of its boards' results is.
pub(super) struct Slice<'w, const P: usize> {
    workers: &'w [Worker<P>],
}

impl<'w, const P: usize> Slice<'w, P> {
    /// Board `i` of the slice: what was done, and the children it made.
    pub(super) fn get(&self, i: usize) -> (&'w Done, &'w [Made]) {
        let count = self.workers.len();
        let (chunk, within) = (i / CHUNK, i % CHUNK);
        let worker = &self.workers[chunk % count];
        let done = &worker.done[(chunk / count) * CHUNK + within];
        (done, &worker.made[done.children.clone()])
    }
}

/// Expands `boards` (one slice of a layer at depth `g`) on the workers: worker 0 on this
/// thread, each other one on a thread of its own while the slice has more than one chunk.
/// Scoped threads rather than a pool: a search may run on a rayon worker (`levels`, `run`),
/// which would run other cases' jobs while waiting for a pool, in this thread's workspace.
pub(super) fn expand_slice<'w, const P: usize>(
    shared: &Shared,
    boards: &[Board],
    (g, cap): (u32, u32),
    workers: &'w mut [Worker<P>],
) -> Slice<'w, P> {
    let count = workers.len();
    let share = |w: usize| {
        boards
            .chunks(CHUNK)
            .skip(w)
            .step_by(count)
            .flat_map(|chunk| chunk.iter())
    };
    for worker in workers.iter_mut() {
        worker.made.clear();
        worker.done.clear();
    }
    let (first, others) = workers.split_first_mut().expect("at least one worker");
    if others.is_empty() || boards.len() <= CHUNK {
        // Worker 0's share is the whole slice: one chunk, or one worker.
        first.expand(shared, share(0), g, cap);
    } else {
        std::thread::scope(|scope| {
            for (w, worker) in others.iter_mut().enumerate() {
                let boards = share(w + 1);
                scope.spawn(move || worker.expand(shared, boards, g, cap));
            }
            first.expand(shared, share(0), g, cap);
        });
    }
    Slice { workers }
}
