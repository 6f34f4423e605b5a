//! How A*'s arena keeps its boards and nodes ([`Store`]): boards as planes in words
//! ([`Planes`], nothing to compute) or compact ([`Codec`]: two words where eight letters'
//! planes take four, for a few nanoseconds per board packed or unpacked); nodes wide, or
//! narrow for compact boards under a cap of moves that fits a byte ([`NarrowCodec`], see
//! [`super::node`]).
//!
//! Invariant: `unpack(pack(s)) == s` for every board of the search, and two boards are equal
//! iff their stored forms are (the index compares stored forms).

use super::index::Load;
use super::node::{Narrow, Node, Wide};
use crate::games::vexed::bitset::compact::{Codec, Compact};
use crate::games::vexed::bitset::planes::{Packed, State};

/// A way of storing the boards of a search with `P` planes.
pub(crate) trait Store<const P: usize>: Sync {
    /// A board as stored.
    type Board: Copy + Eq + Send + Sync + 'static;
    /// A node of the arena.
    type Node: Node<Board = Self::Board>;
    /// Which store this is, below [`STORES`] (the buffers a thread keeps are per store).
    const KIND: usize;
    /// How full the node index may get with this store.
    const LOAD: Load;
    fn pack(&self, state: &State<P>) -> Self::Board;
    fn unpack(&self, board: &Self::Board) -> State<P>;
}

/// Kinds of store ([`Store::KIND`]).
pub(crate) const STORES: usize = 4;

/// Boards as their planes, one word per plane (`W == P`, a narrow geometry) or two
/// ([`Packed`]).
pub(crate) struct Planes<const W: usize>;

impl<const P: usize, const W: usize> Store<P> for Planes<W> {
    type Board = Packed<W>;
    type Node = Wide<Packed<W>>;
    const KIND: usize = if W == P { 0 } else { 1 };
    const LOAD: Load = Load::HALF;

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
    type Node = Wide<Self::Board>;
    const KIND: usize = 2;
    const LOAD: Load = Load::DENSE;

    #[inline(always)]
    fn pack(&self, state: &State<P>) -> Self::Board {
        Codec::pack(self, state)
    }

    #[inline(always)]
    fn unpack(&self, board: &Self::Board) -> State<P> {
        Codec::unpack(self, board)
    }
}

/// Compact boards in narrow nodes: for a search whose cap of moves [`Narrow::holds`].
pub(crate) struct NarrowCodec<'a>(pub(crate) &'a Codec);

impl<const P: usize> Store<P> for NarrowCodec<'_> {
    type Board = Compact<COMPACT_WORDS>;
    type Node = Narrow<Self::Board>;
    const KIND: usize = 3;
    const LOAD: Load = Load::DENSE;

    #[inline(always)]
    fn pack(&self, state: &State<P>) -> Self::Board {
        Codec::pack(self.0, state)
    }

    #[inline(always)]
    fn unpack(&self, board: &Self::Board) -> State<P> {
        Codec::unpack(self.0, board)
    }
}
