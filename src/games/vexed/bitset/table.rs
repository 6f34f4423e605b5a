//! The transposition table of the `bitset` engine: open addressing with linear probing over a
//! power-of-two array of `(state, value)` slots, with a prefetch so that the probes for all
//! children of a node overlap their cache misses.
//!
//! Invariants: a slot is empty iff its tag is 0 (a stored value `v` is kept as tag `v + 1`, so
//! every `u32` value except `u32::MAX` can be stored); the table is never more than
//! [`MAX_LOAD_NUM`] / [`MAX_LOAD_DEN`] full, so a probe always meets an empty slot; keys are
//! full states (compared exactly), the digest only picks the first slot and a 32-bit check.
//! There is no removal.

use super::planes::State;

/// Slots of a new table (a power of two).
const INITIAL_SLOTS: usize = 1 << 6;
/// Growth happens before the table gets fuller than `MAX_LOAD_NUM / MAX_LOAD_DEN`.
const MAX_LOAD_NUM: usize = 5;
const MAX_LOAD_DEN: usize = 8;

#[derive(Clone, Copy)]
struct Slot<const P: usize> {
    state: State<P>,
    /// 0 = empty, else the stored value plus one.
    tag: u32,
    /// The high half of the state's digest: most mismatching slots are told apart by it
    /// without comparing the planes.
    check: u32,
}

impl<const P: usize> Slot<P> {
    const EMPTY: Slot<P> = Slot {
        state: State::EMPTY,
        tag: 0,
        check: 0,
    };
}

/// A map from states to `u32` values (see the module docs).
pub struct Table<const P: usize> {
    slots: Vec<Slot<P>>,
    len: usize,
}

impl<const P: usize> Default for Table<P> {
    fn default() -> Self {
        Table {
            slots: vec![Slot::EMPTY; INITIAL_SLOTS],
            len: 0,
        }
    }
}

impl<const P: usize> Table<P> {
    pub fn len(&self) -> usize {
        self.len
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Asks the CPU to start loading the first slot of a state with this digest.
    pub fn prefetch(&self, digest: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let at = digest as usize & (self.slots.len() - 1);
            let ptr = self.slots[at..].as_ptr().cast::<i8>();
            // SAFETY: a prefetch is only a hint; it never faults, and `ptr` points into the
            // slots anyway.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(ptr);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = digest;
    }

    /// The slot holding `state` (whose digest is `digest`), or the empty slot where it goes.
    fn slot(&self, state: &State<P>, digest: u64) -> usize {
        let mask = self.slots.len() - 1;
        let check = (digest >> 32) as u32;
        let mut at = digest as usize & mask;
        loop {
            let slot = &self.slots[at];
            if slot.tag == 0 || (slot.check == check && slot.state == *state) {
                return at;
            }
            at = (at + 1) & mask;
        }
    }

    /// The value of `state`, whose digest is `digest`.
    pub fn get_with(&self, state: &State<P>, digest: u64) -> Option<u32> {
        let slot = &self.slots[self.slot(state, digest)];
        (slot.tag != 0).then(|| slot.tag - 1)
    }

    #[cfg(test)]
    pub fn get(&self, state: &State<P>) -> Option<u32> {
        self.get_with(state, state.digest())
    }

    /// Replaces the value of a present state; returns false (and does nothing) if absent.
    #[cfg(test)]
    pub fn update(&mut self, state: &State<P>, value: impl FnOnce(u32) -> u32) -> bool {
        self.update_with(state, state.digest(), value)
    }

    /// [`Table::update`] for a state whose digest is `digest`.
    pub fn update_with(
        &mut self,
        state: &State<P>,
        digest: u64,
        value: impl FnOnce(u32) -> u32,
    ) -> bool {
        let at = self.slot(state, digest);
        let slot = &mut self.slots[at];
        if slot.tag == 0 {
            return false;
        }
        slot.tag = value(slot.tag - 1) + 1;
        true
    }

    /// Stores `value` for `state` (`value < u32::MAX`), replacing any previous value.
    pub fn insert(&mut self, state: State<P>, value: u32) {
        debug_assert!(value < u32::MAX);
        if (self.len + 1) * MAX_LOAD_DEN > self.slots.len() * MAX_LOAD_NUM {
            self.grow();
        }
        let digest = state.digest();
        let at = self.slot(&state, digest);
        let slot = &mut self.slots[at];
        if slot.tag == 0 {
            self.len += 1;
        }
        *slot = Slot {
            state,
            tag: value + 1,
            check: (digest >> 32) as u32,
        };
    }

    /// Doubles the slots and re-inserts every entry.
    fn grow(&mut self) {
        let doubled = vec![Slot::EMPTY; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        for slot in old.into_iter().filter(|s| s.tag != 0) {
            let at = self.slot(&slot.state, slot.state.digest());
            self.slots[at] = slot;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_updates_and_grows_past_the_initial_slots() {
        // Distinct one-plane states: every pair of cells of a 128-cell board.
        let mut table = Table::<1>::default();
        let states: Vec<State<1>> = (0..128)
            .flat_map(|a| (0..a).map(move |b| (a, b)))
            .map(|(a, b)| State::from_planes([(1u128 << a) | (1u128 << b)]))
            .collect();
        assert!(table.is_empty());
        for (i, s) in states.iter().enumerate() {
            table.prefetch(s.digest());
            table.insert(*s, i as u32);
        }
        assert_eq!(table.len(), states.len());
        assert!(states.len() > 64 * INITIAL_SLOTS);
        for (i, s) in states.iter().enumerate() {
            assert_eq!(table.get(s), Some(i as u32));
        }
        assert!(table.update(&states[5], |v| v + 100));
        assert_eq!(table.get(&states[5]), Some(105));
        assert_eq!(table.get(&State::EMPTY), None);
        assert!(!table.update(&State::EMPTY, |v| v));
        table.insert(states[7], 0);
        assert_eq!(table.get(&states[7]), Some(0));
        assert_eq!(table.len(), states.len());
    }
}
