//! How A*'s arena keeps its boards ([`Store`]): as planes in words ([`Planes`], nothing to
//! compute) or compact ([`Codec`]: two words where eight letters' planes take four, for a few
//! nanoseconds per board packed or unpacked).
//!
//! Invariant: `unpack(pack(s)) == s` for every board of the search, and two boards are equal
//! iff their stored forms are (the index compares stored forms).

use crate::games::vexed::bitset::compact::{Codec, Compact};
use crate::games::vexed::bitset::planes::{Packed, State};

/// A way of storing the boards of a search with `P` planes.
pub(crate) trait Store<const P: usize>: Sync {
    /// A board as stored.
    type Board: Copy + Eq + Send + Sync + 'static;
    /// Which store this is, below [`STORES`] (the buffers a thread keeps are per store).
    const KIND: usize;
    fn pack(&self, state: &State<P>) -> Self::Board;
    fn unpack(&self, board: &Self::Board) -> State<P>;
}

/// Kinds of store ([`Store::KIND`]).
pub(crate) const STORES: usize = 3;

/// Boards as their planes, one word per plane (`W == P`, a narrow geometry) or two
/// ([`Packed`]).
pub(crate) struct Planes<const W: usize>;

impl<const P: usize, const W: usize> Store<P> for Planes<W> {
    type Board = Packed<W>;
    const KIND: usize = if W == P { 0 } else { 1 };

    #[inline(always)]
    fn pack(&self, state: &State<P>) -> Packed<W> {
        state.pack()
    }

    #[inline(always)]
    fn unpack(&self, board: &Packed<W>) -> State<P> {
        board.unpack()
    }
}

/// Words of a compact board in the arena: the search stores compact boards only when the
/// codec fits them ([`Codec::fits`]).
pub(crate) const COMPACT_WORDS: usize = 2;

impl<const P: usize> Store<P> for Codec {
    type Board = Compact<COMPACT_WORDS>;
    const KIND: usize = 2;

    #[inline(always)]
    fn pack(&self, state: &State<P>) -> Self::Board {
        Codec::pack(self, state)
    }

    #[inline(always)]
    fn unpack(&self, board: &Self::Board) -> State<P> {
        Codec::unpack(self, board)
    }
}
