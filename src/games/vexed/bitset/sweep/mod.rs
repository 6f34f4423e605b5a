//! The sweep: proof mode's search beyond memory (`--max-moves K --scratch DIR`). It visits the
//! same boards as A*'s proof, every live board with `g + h <= K`, but in increasing order of
//! [`Psi`] (blocks removed, then the sum of the blocks' rows) instead of `f`, so that what it
//! has finished is never needed again for duplicate detection and can go to disk.
//!
//! Why that order works: a push either slides one block within its row, nothing falling or
//! going (the key is unchanged, and the slide can be pushed back), or strictly raises the key
//! (a fall raises the row sum, a removal the count). So a board is never reached from a board
//! of a larger key, and once the buckets of smaller keys are done, a bucket's depths are
//! final but for its slides.
//!
//! The search: pending boards wait in buckets keyed by [`Psi`] ([`buckets::Pending`]: write
//! buffers in memory, flushed sorted and deduplicated to one file per key under a folder of
//! the search's own in the scratch folder), each with the smallest `g` seen for it and the
//! hash of the board it was reached from. The bucket of the smallest key is loaded and
//! deduplicated (the fewest pushes kept), then settled breadth-first by increasing `g` over its
//! slides (a multi-source search with unit costs: the boards of depth `g` are expanded, and
//! a slide child better than what the bucket has joins depth `g + 1`); every other child
//! goes to its own, larger, bucket. Children with `g + 1 + h > K` are dropped (`h` from
//! [`super::bound`], admissible), as are dead boards; boards dead by their troughs
//! ([`super::deadlock`]) are not expanded. Each layer of a bucket is expanded on `--threads`
//! threads ([`expand`]) and merged in a fixed order.
//!
//! A solution's path: when the first pass finds a solution (its minimum length `L` known once
//! every bucket is done), a second pass capped at `L` writes each finished bucket's expanded
//! boards (final `g`, parent hash) to a file and stops after the bucket of its first
//! solution; the path is rebuilt backwards from those files ([`path`]). A proof that no
//! solution is within the cap, the long runs, so keeps only its pending buckets on disk.
//!
//! Exactness: a board is expanded with its exact depth within the boards of `g + h <= K`
//! (the buckets before it are final, and its own slides are settled breadth-first). A
//! clearing push from a board of depth `g` is a solution of `g + 1` moves; the cap then drops
//! to `g` (only shorter solutions matter), and when every bucket is done the shortest one
//! found is a minimum. With none found, every solution is longer than `K` if a child was
//! dropped (status `budget`, `at_least` K+1, as A*'s proof), or there is none at all.
//!
//! Memory (`--memory`): a quarter for the write buffers, the rest for the bucket being
//! settled; a bucket with more boards than that holds is an error that says so. The work
//! count (expansions) is A*'s proof's, less its re-expansions, plus the second pass's when
//! there is a solution.

mod buckets;
mod expand;
mod path;
pub(crate) mod record;

use std::collections::btree_map::BTreeMap;
use std::collections::hash_map::{Entry as Slot, HashMap};
use std::path::{Path, PathBuf};

use super::Ending;
use super::bound::{DEAD, Pairs, lower_bound};
use super::compact::Codec;
use super::deadlock::Troughs;
use super::planes::{Geometry, State};
use crate::game::BYTES_PER_MB;
use crate::games::vexed::Meter;
use crate::games::vexed::grid::Dir;
use buckets::{Finished, Folder, Pending};
use expand::{CHUNK, Shared, Worker, expand_slice};
use record::{Board, BuildWords, Psi, PsiOf, Record, Words, key};

/// The largest cap the sweep takes: depths and bounds are stored in bytes.
pub(crate) const MAX_CAP: u32 = u8::MAX as u32 - 1;

/// Chunks per worker in a slice of a layer expanded at once: enough that a large layer's
/// slices pay for starting their threads; a slice's children are held until merged, so a
/// slice stays a few MB.
const SLICE_CHUNKS: usize = 64;

/// The share of `--memory` for the write buffers (the rest holds the bucket being settled).
const BUFFER_SHARE: usize = 4;

/// Bytes a board of the bucket being settled takes at most: its map entry (16 bytes of board,
/// 16 of depth, bound and parent, a control byte) in a table between 7/16 and 7/8 full, plus
/// its place in a layer's list (16 bytes, twice when a slide improves it).
const BUCKET_BOARD_BYTES: usize = 96;

/// Why a sweep could not go on.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SweepError {
    #[error("scratch file {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "the sweep's bucket of {} removed block(s) and row sum {} has more than {states} \
         boards, more than {:.2} MB of --memory hold (three quarters of it: the rest \
         buffers the pending boards)",
        psi.removed,
        psi.rows,
        *memory as f64 / BYTES_PER_MB as f64
    )]
    BucketTooLarge {
        psi: Psi,
        states: usize,
        memory: usize,
    },
    #[error("the sweep lost the path of its solution in its files")]
    PathLost,
}

/// What a sweep may use.
pub(crate) struct Limits<'a> {
    /// `K`: solutions longer than this are not looked for (at most [`MAX_CAP`]).
    pub(crate) max_moves: u32,
    /// Bytes of memory for buffers and the bucket being settled.
    pub(crate) memory: usize,
    /// Threads expanding a layer.
    pub(crate) threads: usize,
    /// The folder the search makes its own folder in.
    pub(crate) scratch: &'a Path,
}

/// A board of the bucket being settled: its depth, bound, parent's hash, and whether it has
/// been expanded.
#[derive(Clone, Copy)]
struct Entry {
    g: u8,
    h: u8,
    parent: u64,
    expanded: bool,
}

impl Entry {
    /// A record's board, not expanded yet.
    fn of(record: &Record) -> Entry {
        Entry {
            g: record.g,
            h: record.h,
            parent: record.parent,
            expanded: false,
        }
    }
}

type BucketMap = HashMap<Words, Entry, BuildWords>;

/// How many boards the bucket being settled may hold, within `--memory`.
#[derive(Clone, Copy)]
struct Room {
    /// Most boards of one bucket.
    boards: usize,
    /// `--memory`, in bytes (for the error).
    memory: usize,
}

impl Room {
    /// An error when bucket `psi`, holding `boards`, is past the room.
    fn check(self, psi: Psi, boards: usize) -> Result<(), SweepError> {
        if boards > self.boards {
            return Err(SweepError::BucketTooLarge {
                psi,
                states: self.boards,
                memory: self.memory,
            });
        }
        Ok(())
    }
}

/// The shortest solution found so far: its length, the record of the board its last push was
/// made on and the position of that board's bucket among the finished ones, the push.
struct Best {
    moves: u32,
    last: (Record, usize),
    push: (usize, Dir),
}

/// Searches from `start` (settled, live, not clear) for a minimum solution of at most
/// `limits.max_moves` pushes; boards kept by `codec`, which must fit them in two words.
///
/// Two passes when there is a solution: the first proves its length `L` keeping no finished
/// bucket (a proof that there is none within the cap needs no path, and the finished buckets
/// take most of the disk); the second, capped at `L`, keeps them and stops at its first
/// solution (of `L` moves, the minimum), whose path it rebuilds. The work counts both.
pub(crate) fn search<const P: usize>(
    geo: &Geometry,
    codec: &Codec,
    start: State<P>,
    meter: Meter,
    limits: Limits,
) -> Result<Ending, SweepError> {
    debug_assert!(limits.max_moves <= MAX_CAP);
    let mut pairs = Pairs::new(geo);
    let h = lower_bound(geo, &mut pairs, &start);
    let troughs = Troughs::new(geo);
    if h >= DEAD || troughs.deadlocked(&start) {
        return Ok(Ending::unsolved(0));
    }
    if h > limits.max_moves {
        return Ok(Ending::stopped(0, h));
    }
    let psi_of = PsiOf::new(geo, start.occupied().len());
    let shared = Shared {
        geo,
        codec,
        troughs: &troughs,
        psi_of: &psi_of,
    };
    let mut workers: Vec<Worker<P>> = (0..limits.threads.max(1))
        .map(|_| Worker::new(geo))
        .collect();
    let workers = &mut workers[..];
    let first = Record {
        board: codec.pack::<P, { record::WORDS }>(&start).words(),
        parent: 0,
        g: 0,
        h: h as u8,
    };
    let start_psi = psi_of.of(&start);
    let mut proof = Sweep::new(meter, &limits, limits.max_moves, false);
    let mut folder = Folder::create(limits.scratch)?;
    if let Some(stopped) = proof.run(&shared, &mut folder, workers, (start_psi, first))? {
        return Ok(stopped);
    }
    drop(folder);
    let Some(best) = proof.best else {
        let expanded = proof.meter.expanded;
        return Ok(if proof.capped {
            Ending::stopped(expanded, proof.k + 1)
        } else {
            Ending::unsolved(expanded)
        });
    };
    let mut path = Sweep::new(proof.meter, &limits, best.moves, true);
    let mut folder = Folder::create(limits.scratch)?;
    if path
        .run(&shared, &mut folder, workers, (start_psi, first))?
        .is_some()
    {
        // Stopped by the budget: the length is proven, the path not found.
        return Ok(Ending::stopped(path.meter.expanded, best.moves));
    }
    let found = path.best.ok_or(SweepError::PathLost)?;
    if found.moves != best.moves {
        return Err(SweepError::PathLost);
    }
    let moves = path::rebuild(
        &shared,
        &mut folder,
        &path.finished,
        found.last,
        found.push,
        &start,
    )?;
    Ok(Ending::solved(moves, path.meter.expanded))
}

fn as_record(words: &Words, entry: &Entry) -> Record {
    Record {
        board: words.0,
        parent: entry.parent,
        g: entry.g,
        h: entry.h,
    }
}

/// The state of a sweep between buckets.
struct Sweep {
    meter: Meter,
    /// The cap asked for.
    k: u32,
    /// The cap now: `k`, or one less than the shortest solution found.
    cap: u32,
    /// Whether a child was dropped by the cap.
    capped: bool,
    best: Option<Best>,
    pending: Pending,
    finished: Finished,
    /// What the bucket being settled may hold.
    room: Room,
    /// The path pass: finished buckets are kept, and the first solution ends the pass.
    keep: bool,
}

impl Sweep {
    /// A pass capped at `cap` moves (`keep`: the path pass).
    fn new(meter: Meter, limits: &Limits, cap: u32, keep: bool) -> Sweep {
        let buffers = limits.memory / BUFFER_SHARE;
        Sweep {
            meter,
            k: limits.max_moves,
            cap,
            capped: false,
            best: None,
            pending: Pending::new(buffers / std::mem::size_of::<Record>()),
            finished: Finished::new(),
            room: Room {
                boards: (limits.memory - buffers) / BUCKET_BOARD_BYTES,
                memory: limits.memory,
            },
            keep,
        }
    }

    /// The pass from `start` (its key and record), bucket after bucket: `Some` when the
    /// budget stopped it. The path pass also ends at its first solution.
    fn run<const P: usize>(
        &mut self,
        shared: &Shared,
        folder: &mut Folder,
        workers: &mut [Worker<P>],
        (psi, start): (Psi, Record),
    ) -> Result<Option<Ending>, SweepError> {
        self.pending.push(folder, psi, start)?;
        while let Some(psi) = self.pending.first() {
            let mut map = BucketMap::default();
            let room = self.room;
            self.pending.take_first(folder, |record| {
                let entry = Entry::of(&record);
                match map.entry(Words(record.board)) {
                    Slot::Vacant(slot) => {
                        slot.insert(entry);
                    }
                    Slot::Occupied(mut slot) => {
                        if record.better_than(&as_record(slot.key(), slot.get())) {
                            slot.insert(entry);
                        }
                    }
                }
                room.check(psi, map.len())
            })?;
            if let Some(stopped) = self.settle(shared, folder, workers, psi, &mut map)? {
                return Ok(Some(stopped));
            }
            if self.keep {
                let expanded = map
                    .iter()
                    .filter(|(_, entry)| entry.expanded)
                    .map(|(words, entry)| as_record(words, entry));
                self.finished.write(folder, psi, expanded)?;
                if self.best.is_some() {
                    break;
                }
            }
        }
        Ok(None)
    }

    /// Settles bucket `psi` (its boards in `map`): expands its boards by increasing depth,
    /// its slides joining the next depth, its other children sent to their buckets. `Some`
    /// when the budget stopped the search.
    fn settle<const P: usize>(
        &mut self,
        shared: &Shared,
        folder: &mut Folder,
        workers: &mut [Worker<P>],
        psi: Psi,
        map: &mut BucketMap,
    ) -> Result<Option<Ending>, SweepError> {
        let mut layers: BTreeMap<u32, Vec<Board>> = BTreeMap::new();
        for (words, entry) in map.iter() {
            layers
                .entry(u32::from(entry.g))
                .or_default()
                .push(Board::from_words(words.0));
        }
        while let Some((g, mut boards)) = layers.pop_first() {
            // Sorted: the map's order is not the same from run to run.
            boards.sort_unstable_by_key(|b| b.words());
            boards.dedup();
            boards.retain(|board| {
                let entry = map[&Words(board.words())];
                let within = g + u32::from(entry.h) <= self.cap;
                self.capped |= !within;
                u32::from(entry.g) == g && !entry.expanded && within
            });
            for slice in boards.chunks(SLICE_CHUNKS * CHUNK * workers.len()) {
                let expanded = expand_slice(shared, slice, (g, self.cap), workers);
                for (i, board) in slice.iter().enumerate() {
                    let (done, made) = expanded.get(i);
                    let words = board.words();
                    let entry = map.get_mut(&Words(words)).expect("listed from the map");
                    // A solution found earlier in the slice may have lowered the cap.
                    if done.skipped || g + u32::from(entry.h) > self.cap {
                        continue;
                    }
                    if !self.meter.tick() {
                        return Ok(Some(self.stopped(map)));
                    }
                    entry.expanded = true;
                    let this = as_record(&Words(words), entry);
                    self.capped |= done.dropped;
                    if let Some(push) = done.clear {
                        if self.best.as_ref().is_none_or(|best| g + 1 < best.moves) {
                            let at = self.finished.order().len();
                            self.best = Some(Best {
                                moves: g + 1,
                                last: (this, at),
                                push,
                            });
                            self.cap = g;
                        }
                        continue;
                    }
                    let parent = key(words);
                    for m in made {
                        if g + 1 + u32::from(m.h) > self.cap {
                            self.capped = true;
                            continue;
                        }
                        let child = Record {
                            board: m.board.words(),
                            parent,
                            g: (g + 1) as u8,
                            h: m.h,
                        };
                        if m.psi != psi {
                            debug_assert!(m.psi > psi, "a push never lowers the key");
                            self.pending.push(folder, m.psi, child)?;
                            continue;
                        }
                        let entry = Entry::of(&child);
                        match map.entry(Words(child.board)) {
                            Slot::Vacant(slot) => {
                                slot.insert(entry);
                                layers.entry(g + 1).or_default().push(m.board);
                            }
                            Slot::Occupied(mut slot) => {
                                let known = as_record(slot.key(), slot.get());
                                if !slot.get().expanded && child.better_than(&known) {
                                    slot.insert(entry);
                                    if known.g > child.g {
                                        layers.entry(g + 1).or_default().push(m.board);
                                    }
                                }
                            }
                        }
                        self.room.check(psi, map.len())?;
                    }
                }
            }
        }
        Ok(None)
    }

    /// How a sweep stopped by its budget ends: no solution is shorter than the least `g + h`
    /// of a board not expanded yet (some board on a shortest solution is one of them, with
    /// its exact depth), than a solution found, or than `K + 1` when a child was dropped.
    fn stopped(&self, map: &BucketMap) -> Ending {
        let waiting = map
            .values()
            .filter(|entry| !entry.expanded)
            .map(|entry| u32::from(entry.g) + u32::from(entry.h));
        let found = self.best.as_ref().map(|best| best.moves);
        let dropped = self.capped.then_some(self.k + 1);
        let at_least = waiting
            .chain(self.pending.least_f())
            .chain(found)
            .chain(dropped)
            .min()
            .unwrap_or(self.k + 1);
        Ending::stopped(self.meter.expanded, at_least)
    }
}
