//! The hash index of the A* search: which node of the arena holds a board.
//!
//! Open addressing with linear probing over node ids. Each `u64` slot holds, from the top: the
//! high bits of the board's digest (so most mismatches are told apart without reading the
//! arena), the search's epoch and the node id. A slot counts only if its epoch is the current
//! one, so a thread's index serves search after search without being cleared: starting a
//! search or doubling the slots in place only moves to the next epoch.
//!
//! Invariants: the slots are a power of two and at most half of them are used (the caller
//! asks [`NodeIndex::needs_room`] before each insertion and grows the index), so a probe
//! always meets an unused slot; the ids stored are exactly `0..len`, the nodes of the arena
//! in order (every node is indexed once), which is what lets [`NodeIndex::grow`] rebuild the
//! index from the arena's digests; boards are compared in full by the caller (`same`).

use crate::games::vexed::bitset::slots::{
    populate_spare, prefer_huge_pages, prefetch, written_with_room,
};

/// Bytes of index a thread keeps for its next search, at most; also the address space the
/// first index reserves (mapped only as slots are written).
pub(crate) const KEPT_INDEX_BYTES: usize = 16 << 20;

/// Entries whose digests are computed (and first slots prefetched) before they are stored,
/// when the index is rebuilt.
const GROW_CHUNK: usize = 32;

#[derive(Default)]
pub(crate) struct NodeIndex {
    slots: Vec<u64>,
    len: usize,
    /// The current search's epoch, in `1..=MAX_EPOCH` once started (a zeroed slot has epoch
    /// 0 and is empty).
    epoch: u64,
}

impl NodeIndex {
    pub(crate) const SLOT_BYTES: usize = std::mem::size_of::<u64>();
    const INITIAL_SLOTS: usize = 1 << 8;
    /// Bits of a slot's node id (the arena never holds 2^32 nodes: [`super::MEMORY_BUDGET`]).
    const ID_BITS: u32 = u32::BITS;
    /// Bits of a slot's epoch, above the id.
    const EPOCH_BITS: u32 = 8;
    const MAX_EPOCH: u64 = (1 << Self::EPOCH_BITS) - 1;
    /// Bits below a slot's digest check.
    const CHECK_SHIFT: u32 = Self::ID_BITS + Self::EPOCH_BITS;

    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    /// Empties the index for a new search, keeping its slots (at least [`NodeIndex::INITIAL_SLOTS`]).
    pub(crate) fn start(&mut self) {
        if self.slots.is_empty() {
            // Address space for the largest index kept, mapped only as slots are written.
            self.slots =
                written_with_room(KEPT_INDEX_BYTES / Self::SLOT_BYTES, Self::INITIAL_SLOTS, 0);
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

    /// Starts loading the first slot a board with this digest probes.
    pub(crate) fn prefetch(&self, digest: u64) {
        prefetch(&self.slots, digest as usize & self.mask());
    }

    /// Starts loading `slot`.
    pub(crate) fn prefetch_slot(&self, slot: usize) {
        prefetch(&self.slots, slot);
    }

    /// Bytes of the slots.
    pub(crate) fn bytes(&self) -> usize {
        self.slots.len() * Self::SLOT_BYTES
    }

    /// True when one more entry would make the index more than half full.
    pub(crate) fn needs_room(&self) -> bool {
        self.needs_room_for(1)
    }

    /// True when `more` entries would make the index more than half full.
    pub(crate) fn needs_room_for(&self, more: usize) -> bool {
        (self.len + more) * 2 > self.slots.len()
    }

    /// True when `slot` holds no entry (of this search).
    pub(crate) fn is_free(&self, slot: usize) -> bool {
        !self.is_used(self.slots[slot])
    }

    /// Doubles the slots and re-inserts every entry. The stored ids are `0..len` (every node
    /// is indexed), and `digests` yields their digests in that order: read sequentially from
    /// the arena, not by id from the old slots, so rebuilding a large index is mostly writes.
    /// Past the reserved address space, the old slots are freed first (no moment with both).
    /// Out of line: it runs a few times per search, and inlined it would weigh on the code of
    /// the expansion loop around it.
    #[inline(never)]
    pub(crate) fn grow(&mut self, mut digests: impl Iterator<Item = u64>) {
        self.double(1);
        let mut stored = 0;
        // By chunks: the digests first (unpacking a compact board is a few dozen
        // instructions, which would leave no room for other probes' cache misses to overlap),
        // their first slots prefetched, then the probes.
        let mut chunk = [0; GROW_CHUNK];
        loop {
            let mut len = 0;
            for (place, digest) in chunk.iter_mut().zip(&mut digests) {
                *place = digest;
                self.prefetch(digest);
                len += 1;
            }
            for &digest in &chunk[..len] {
                let mut at = digest as usize & self.mask();
                while self.is_used(self.slots[at]) {
                    at = (at + 1) & self.mask();
                }
                self.slots[at] = self.entry(digest, stored as u32);
                stored += 1;
            }
            if len < GROW_CHUNK {
                break;
            }
        }
        debug_assert_eq!(stored, self.len, "the index holds ids 0..len");
    }

    /// [`NodeIndex::grow`] on `threads` threads; `digest_of(id)` is node `id`'s digest. Each
    /// thread stores the entries of its own range of ids, claiming an empty slot with a
    /// compare-and-swap (entries are only added, so a slot once used stays used, and a probe
    /// from an entry's first slot still meets only used slots before it).
    #[inline(never)]
    pub(crate) fn grow_on(&mut self, threads: usize, digest_of: &(dyn Fn(usize) -> u64 + Sync)) {
        use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
        // `AtomicU64` has the size and bit validity of `u64`; its alignment is its size,
        // which `u64` also has here (checked at compile time).
        const _: () = assert!(std::mem::align_of::<AtomicU64>() == std::mem::align_of::<u64>());
        self.double(threads);
        let (len, epoch, mask) = (self.len, self.epoch, self.mask());
        let slots: &mut [u64] = &mut self.slots;
        // SAFETY: same size, alignment and bit validity (above), and the exclusive borrow of
        // `slots` is held for as long as this shared atomic view is used, so every access to
        // the slots meanwhile is atomic.
        let slots: &[AtomicU64] = unsafe { &*(slots as *mut [u64] as *const [AtomicU64]) };
        let store = |ids: std::ops::Range<usize>| {
            // By chunks, as in `grow`.
            let mut chunk = [0; GROW_CHUNK];
            for first in ids.clone().step_by(GROW_CHUNK) {
                let ids = first..(first + GROW_CHUNK).min(ids.end);
                for (place, id) in chunk.iter_mut().zip(ids.clone()) {
                    *place = digest_of(id);
                    prefetch(slots, *place as usize & mask);
                }
                for (id, &digest) in ids.clone().zip(&chunk) {
                    let entry = (digest >> Self::CHECK_SHIFT) << Self::CHECK_SHIFT
                        | epoch << Self::ID_BITS
                        | id as u64;
                    let mut at = digest as usize & mask;
                    loop {
                        let seen = slots[at].load(Relaxed);
                        if (seen >> Self::ID_BITS) & Self::MAX_EPOCH != epoch {
                            if slots[at]
                                .compare_exchange(seen, entry, Relaxed, Relaxed)
                                .is_ok()
                            {
                                break;
                            }
                            continue; // another thread took it: look at it again
                        }
                        at = (at + 1) & mask;
                    }
                }
            }
        };
        let share = len.div_ceil(threads.max(1)).max(1);
        // The scope's end orders every store before the plain reads that follow it.
        std::thread::scope(|scope| {
            for first in (share..len).step_by(share) {
                let store = &store;
                scope.spawn(move || store(first..(first + share).min(len)));
            }
            store(0..share.min(len));
        });
    }

    /// Doubles the slots, all empty (the entries are stored again by the caller). The new
    /// slots' pages are mapped on `threads` threads first ([`populate_spare`]): writing them
    /// empty then faults no page on this one.
    fn double(&mut self, threads: usize) {
        let size = self.slots.len() * 2;
        if size <= self.slots.capacity() {
            // In place, within the reserved address space: the new half is written empty and
            // a new epoch forgets the old entries, so the old half's pages serve again
            // instead of a fresh table's being mapped.
            populate_spare(&self.slots, self.slots.len(), size, threads);
            self.slots.resize(size, 0);
            self.next_epoch();
        } else {
            self.slots = Vec::new();
            let mut slots = Vec::with_capacity(size);
            prefer_huge_pages(&slots);
            populate_spare(&slots, 0, size, threads);
            slots.resize(size, std::hint::black_box(0));
            self.slots = slots;
        }
    }

    /// The id of the entry with this digest for which `same` holds, or the empty slot where
    /// it would go. Needs room ([`NodeIndex::needs_room`] false).
    pub(crate) fn find(&self, digest: u64, same: impl Fn(u32) -> bool) -> Result<u32, usize> {
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

    /// Stores node `id`, whose board has this digest, in the empty `slot` [`NodeIndex::find`] gave.
    pub(crate) fn insert_at(&mut self, slot: usize, digest: u64, id: u32) {
        self.slots[slot] = self.entry(digest, id);
        self.len += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_finds_every_entry_across_growth() {
        // Digests with equal low bits collide on purpose: ids are told apart by `same`.
        let digest = |id: u32| (u64::from(id % 7) << 32) | u64::from(id % 3);
        let mut index = NodeIndex::default();
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

    /// Growing on several threads stores every entry where a probe from its digest finds
    /// it, with digests crowded on a few slots (long probe chains that the threads contend
    /// for, some running past the last slot back to the first).
    #[test]
    fn the_index_grown_on_threads_finds_every_entry() {
        for threads in [1, 2, 3, 4] {
            let mut index = NodeIndex::default();
            index.start();
            let mut digests: Vec<u64> = Vec::new();
            for id in 0..5000u32 {
                if index.needs_room() {
                    let size = index.slots.len() as u64;
                    let crowd: &[u64] = &digests;
                    index.grow_on(threads, &|id| crowd[id]);
                    assert_eq!(index.slots.len() as u64, 2 * size);
                }
                // Most digests aim at the last slots of a quarter of the doubled table.
                let size = 2 * index.slots.len() as u64;
                let end = (u64::from(id) % 4 + 1) * size / 4 - 1 - u64::from(id % 5);
                let digest = (u64::from(id) << 40) | if id % 3 == 0 { u64::from(id) } else { end };
                let slot = index.find(digest, |other| other == id).unwrap_err();
                index.insert_at(slot, digest, id);
                digests.push(digest);
            }
            for (id, &digest) in digests.iter().enumerate() {
                assert_eq!(
                    index.find(digest, |other| other == id as u32),
                    Ok(id as u32)
                );
            }
        }
    }

    /// A reused index holds only the entries of its current search: over more searches than
    /// there are epochs (so they wrap), with digests colliding with the previous searches'.
    #[test]
    fn a_restarted_index_forgets_the_previous_search() {
        const SEARCHES: u64 = 3 * NodeIndex::MAX_EPOCH + 7;
        let digest = |search: u64, id: u32| {
            (search.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(id)) & 0xf0_0000_00ff
        };
        let mut index = NodeIndex::default();
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
