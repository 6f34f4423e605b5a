//! The hash index of the A* search: which node of the arena holds a board.
//!
//! Open addressing with linear probing over node ids. Each `u64` slot holds, from the top: the
//! high bits of the board's digest (so most mismatches are told apart without reading the
//! arena), the search's epoch and the node id. A slot counts only if its epoch is the current
//! one, so a thread's index serves search after search without being cleared: starting a
//! search or growing the slots in place only moves to the next epoch.
//!
//! Any number of slots, not only powers of two: a board's first slot is its digest's low
//! [`NodeIndex::HOME_BITS`] bits scaled to the slot count (a multiply and a shift), and probes
//! wrap from the last slot to the first. So the index is kept dense where memory is the
//! limit (proof mode's compact stores, [`Load::DENSE`]): at most three quarters full, grown by
//! doubling but never past what the arena's node cap needs ([`NodeIndex::grow_size`]), so 4/3
//! of a slot per node when the arena is full, where a table of powers of two at most half full
//! took 2 to 4. Every other search keeps it at most half full ([`Load::HALF`]): its probes
//! are shorter, and time, not memory, is what it runs out of. (Growing by half instead
//! keeps it denser on the way, but rebuilds half as much again: a rebuild is a pass of cache
//! misses over the whole arena, and the search's peak is at its cap either way.)
//!
//! Invariants: at most the load's share of the slots is used (the caller asks
//! [`NodeIndex::needs_room`] before each insertion and grows the index), so a probe always
//! meets an unused slot; the ids stored are exactly `0..len`, the nodes of the arena in order
//! (every node is indexed once), which is what lets [`NodeIndex::grow`] rebuild the index from
//! the arena's digests; boards are compared in full by the caller (`same`).

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
    /// How full the index may get.
    load: Load,
}

/// How full an index may get: at most `used` of every `slots` slots. A fuller index takes
/// fewer bytes a node but probes longer (linear probing: about 2.5 slots for a board not
/// there at 1/2, 8.5 at 3/4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Load {
    used: usize,
    slots: usize,
}

impl Load {
    /// At most half full: the searches where time counts most (every search without a cap).
    pub(crate) const HALF: Load = Load { used: 1, slots: 2 };
    /// At most three quarters full: proof mode's compact stores, where memory is the wall.
    pub(crate) const DENSE: Load = Load { used: 3, slots: 4 };
}

impl Default for Load {
    fn default() -> Self {
        Load::HALF
    }
}

impl NodeIndex {
    pub(crate) const SLOT_BYTES: usize = std::mem::size_of::<u64>();
    const INITIAL_SLOTS: usize = 1 << 8;
    /// Bits of a slot's node id (the arena holds at most [`super::MAX_NODES`]).
    const ID_BITS: u32 = u32::BITS;
    /// Bits of a slot's epoch, above the id.
    const EPOCH_BITS: u32 = 8;
    const MAX_EPOCH: u64 = (1 << Self::EPOCH_BITS) - 1;
    /// Bits below a slot's digest check.
    const CHECK_SHIFT: u32 = Self::ID_BITS + Self::EPOCH_BITS;
    /// Low bits of a digest that choose its first slot: those below the check, so that boards
    /// of nearby first slots are still told apart by their checks.
    const HOME_BITS: u32 = Self::CHECK_SHIFT;

    /// The first slot a board with this digest probes.
    #[inline(always)]
    fn home(&self, digest: u64) -> usize {
        Self::home_in(digest, self.slots.len())
    }

    /// [`NodeIndex::home`] in a table of `slots` slots.
    #[inline(always)]
    fn home_in(digest: u64, slots: usize) -> usize {
        let low = u128::from(digest & ((1 << Self::HOME_BITS) - 1));
        ((low * slots as u128) >> Self::HOME_BITS) as usize
    }

    /// The slot after `at` in a table of `slots` slots (the last one's is the first).
    #[inline(always)]
    fn next_in(at: usize, slots: usize) -> usize {
        if at + 1 == slots { 0 } else { at + 1 }
    }

    /// Slots that hold `entries` within the load.
    fn slots_for(&self, entries: usize) -> usize {
        entries.saturating_mul(self.load.slots) / self.load.used + 1
    }

    /// The index's load from now on: set when a search starts or changes its store (an
    /// index at one load is within any load at least as high).
    pub(crate) fn set_load(&mut self, load: Load) {
        self.load = load;
    }

    /// Nodes that fit in `bytes` when each takes `other` bytes besides its index slots, the
    /// index at its largest at `load` ([`NodeIndex::grow_size`]: `slots / used` slots a node).
    pub(crate) fn nodes_within(bytes: usize, other: usize, load: Load) -> usize {
        let per_node_times_used = (other * load.used + Self::SLOT_BYTES * load.slots) as u128;
        let nodes = bytes as u128 * load.used as u128 / per_node_times_used;
        usize::try_from(nodes).unwrap_or(usize::MAX)
    }

    /// The slot count after growing an index of `len` entries to room for `more`, in a search
    /// whose arena holds at most `cap` nodes: doubled, but never more than `cap + more`
    /// entries need (nor fewer than `len + more` do). Before the clamp the index takes at
    /// most 8/3 of a slot per entry, but only while it holds at most half the cap (it doubles
    /// to at most 4/3 of the cap's entries from 3/4 of its own): never more bytes than 4/3 of
    /// a slot for each of the cap's nodes.
    pub(crate) fn grow_size(&self, more: usize, cap: usize) -> usize {
        let size = self.slots.len();
        let most = self.slots_for(cap.max(self.len).saturating_add(more));
        (size * 2)
            .min(most)
            .max(self.slots_for(self.len + more))
            .max(size + 1)
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
        prefetch(&self.slots, self.home(digest));
    }

    /// Starts loading `slot`.
    pub(crate) fn prefetch_slot(&self, slot: usize) {
        prefetch(&self.slots, slot);
    }

    /// Bytes of the slots.
    pub(crate) fn bytes(&self) -> usize {
        self.slots.len() * Self::SLOT_BYTES
    }

    /// True when one more entry would make the index fuller than its load.
    pub(crate) fn needs_room(&self) -> bool {
        self.needs_room_for(1)
    }

    /// True when `more` entries would make the index fuller than its load.
    pub(crate) fn needs_room_for(&self, more: usize) -> bool {
        (self.len + more) * self.load.slots > self.slots.len() * self.load.used
    }

    /// True when `slot` holds no entry (of this search).
    pub(crate) fn is_free(&self, slot: usize) -> bool {
        !self.is_used(self.slots[slot])
    }

    /// Grows the slots to `size` ([`NodeIndex::grow_size`]) and re-inserts every entry. The stored ids are `0..len` (every node
    /// is indexed), and `digests` yields their digests in that order: read sequentially from
    /// the arena, not by id from the old slots, so rebuilding a large index is mostly writes.
    /// Past the reserved address space, the old slots are freed first (no moment with both).
    /// Out of line: it runs a few times per search, and inlined it would weigh on the code of
    /// the expansion loop around it.
    #[inline(never)]
    pub(crate) fn grow(&mut self, size: usize, mut digests: impl Iterator<Item = u64>) {
        self.resize(size, 1);
        let slots = self.slots.len();
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
                let mut at = Self::home_in(digest, slots);
                while self.is_used(self.slots[at]) {
                    at = Self::next_in(at, slots);
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
    pub(crate) fn grow_on(
        &mut self,
        size: usize,
        threads: usize,
        digest_of: &(dyn Fn(usize) -> u64 + Sync),
    ) {
        use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
        // `AtomicU64` has the size and bit validity of `u64`; its alignment is its size,
        // which `u64` also has here (checked at compile time).
        const _: () = assert!(std::mem::align_of::<AtomicU64>() == std::mem::align_of::<u64>());
        self.resize(size, threads);
        let (len, epoch, size) = (self.len, self.epoch, self.slots.len());
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
                    prefetch(slots, Self::home_in(*place, size));
                }
                for (id, &digest) in ids.clone().zip(&chunk) {
                    let entry = (digest >> Self::CHECK_SHIFT) << Self::CHECK_SHIFT
                        | epoch << Self::ID_BITS
                        | id as u64;
                    let mut at = Self::home_in(digest, size);
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
                        at = Self::next_in(at, size);
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

    /// Grows the slots to `size`, all empty (the entries are stored again by the caller). The
    /// new slots' pages are mapped on `threads` threads first ([`populate_spare`]): writing
    /// them empty then faults no page on this one.
    fn resize(&mut self, size: usize, threads: usize) {
        debug_assert!(
            size > self.slots.len() && self.len * self.load.slots <= size * self.load.used
        );
        if size <= self.slots.capacity() {
            // In place, within the reserved address space: the new slots are written empty and
            // a new epoch forgets the old entries, so the old slots' pages serve again
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
        let slots = self.slots.len();
        let mut at = Self::home_in(digest, slots);
        loop {
            let slot = self.slots[at];
            if !self.is_used(slot) {
                return Err(at);
            }
            if slot >> Self::CHECK_SHIFT == check && same(slot as u32) {
                return Ok(slot as u32);
            }
            at = Self::next_in(at, slots);
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

    /// A cap of nodes that caps nothing in these tests.
    const NO_CAP: usize = 1 << 40;

    /// The ids of the current search's entries, sorted (each id once if no node is indexed
    /// twice).
    fn ids(index: &NodeIndex) -> Vec<u32> {
        let mut ids: Vec<u32> = (index.slots.iter())
            .filter(|&&slot| index.is_used(slot))
            .map(|&slot| slot as u32)
            .collect();
        ids.sort_unstable();
        ids
    }

    /// Every id `0..len` is found from its digest, and none is stored twice.
    fn check_all(index: &NodeIndex, digests: &[u64]) {
        for (id, &digest) in digests.iter().enumerate() {
            let found = index.find(digest, |other| other == id as u32);
            assert_eq!(found, Ok(id as u32));
        }
        let all: Vec<u32> = (0..digests.len() as u32).collect();
        assert_eq!(ids(index), all);
    }

    /// A digest whose first slot in a table of `slots` slots is `at`, with `high` in its
    /// check bits.
    fn aiming(at: usize, slots: usize, high: u64) -> u64 {
        let low = ((at as u128) << NodeIndex::HOME_BITS).div_ceil(slots as u128) as u64;
        let digest = high << NodeIndex::CHECK_SHIFT | low;
        assert_eq!(NodeIndex::home_in(digest, slots), at);
        digest
    }

    #[test]
    fn the_index_finds_every_entry_across_growth() {
        // Digests with equal low bits collide on purpose: ids are told apart by `same`.
        let digest = |id: u32| (u64::from(id % 7) << 40) | u64::from(id % 3);
        let mut index = NodeIndex::default();
        index.start();
        for id in 0..1000u32 {
            if index.needs_room() {
                let size = index.grow_size(1, NO_CAP);
                index.grow(size, (0..id).map(digest));
            }
            let slot = index.find(digest(id), |other| other == id).unwrap_err();
            index.insert_at(slot, digest(id), id);
        }
        assert!(!index.needs_room() && index.len == 1000);
        check_all(&index, &(0..1000).map(digest).collect::<Vec<_>>());
        assert!(index.find(digest(5), |other| other == 2000).is_err());
    }

    /// Growing on one thread or several stores every entry where a probe from its digest
    /// finds it, each once, with digests crowded on a few slots (long probe chains that the
    /// threads contend for, some running past the last slot back to the first), the index
    /// filled up to its load before each growth.
    #[test]
    fn the_index_grown_on_threads_finds_every_entry() {
        for (threads, load) in [1, 2, 3, 4]
            .into_iter()
            .flat_map(|t| [(t, Load::DENSE), (t, Load::HALF)])
        {
            let mut index = NodeIndex::default();
            index.start();
            index.set_load(load);
            let mut digests: Vec<u64> = Vec::new();
            for id in 0..5000u32 {
                if index.needs_room() {
                    let (len, size) = (index.len, index.grow_size(1, NO_CAP));
                    // Full to its load: one more entry would pass it.
                    assert!(load.slots * (len + 1) > load.used * index.slots.len());
                    let crowd: &[u64] = &digests;
                    index.grow_on(size, threads, &|id| crowd[id]);
                    assert_eq!(index.slots.len(), size);
                    check_all(&index, &digests);
                }
                // Most digests aim at the last slots of a quarter of the next table.
                let next = index.grow_size(1, NO_CAP);
                let quarter = (id as usize % 4 + 1) * next / 4 - 1 - id as usize % 5;
                let digest = if id % 3 == 0 {
                    u64::from(id).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                } else {
                    aiming(quarter, next, u64::from(id))
                };
                let slot = index.find(digest, |other| other == id).unwrap_err();
                index.insert_at(slot, digest, id);
                digests.push(digest);
            }
            check_all(&index, &digests);
        }
    }

    /// The index never grows past what its cap of nodes needs: filled to the cap (not a power
    /// of two), it takes at most 4/3 of a slot per node (plus the room asked), and still
    /// finds every entry once; on the way its bytes stay below that.
    #[test]
    fn a_large_index_stays_dense_up_to_its_cap() {
        const ROOM: usize = 1000;
        let small = KEPT_INDEX_BYTES / NodeIndex::SLOT_BYTES;
        let cap = 3 * small;
        let most = (cap + ROOM) * 4 / 3 + 1;
        let digest = |id: usize| (id as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 3;
        let mut index = NodeIndex::default();
        index.start();
        index.set_load(Load::DENSE);
        let mut growths = 0;
        for id in 0..cap {
            if index.needs_room_for(ROOM) {
                let (before, size) = (index.slots.len(), index.grow_size(ROOM, cap));
                index.grow_on(size, 2, &digest);
                // Doubled, or what the room asked needs when more.
                let needs = index.slots_for(id + ROOM);
                assert!(size <= (2 * before).max(needs), "{before} -> {size}");
                assert!(size <= most, "{before} -> {size}");
                growths += 1;
            }
            let slot = index.find(digest(id), |other| other == id as u32);
            index.insert_at(slot.unwrap_err(), digest(id), id as u32);
        }
        assert!(growths > 10, "{growths} growths");
        assert_eq!(index.slots.len(), most, "sized by the cap");
        assert!(index.slots.len() <= most, "{} > {most}", index.slots.len());
        check_all(&index, &(0..cap).map(digest).collect::<Vec<_>>());
    }

    /// The nodes that fit a memory budget pay for their index at its largest, 4/3 of a slot.
    #[test]
    fn nodes_within_a_budget_count_their_index() {
        // 24 + 8 bytes besides, 32/3 of index: 128/3 bytes a node.
        assert_eq!(NodeIndex::nodes_within(128 * 1000, 32, Load::DENSE), 3000);
        assert_eq!(NodeIndex::nodes_within(48 * 1000, 32, Load::HALF), 1000);
        assert_eq!(NodeIndex::nodes_within(0, 32, Load::DENSE), 0);
        assert!(NodeIndex::nodes_within(usize::MAX, 32, Load::DENSE) > 1 << 50);
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
                    let size = index.grow_size(1, NO_CAP);
                    index.grow(size, (0..id).map(|id| digest(search, id)));
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
