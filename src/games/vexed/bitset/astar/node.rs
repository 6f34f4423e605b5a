//! A* nodes as the arena holds them ([`Node`]): a board as its store keeps it, the push that
//! first reached it by the shortest path known, its depth `g` and its lower bound `h`.
//!
//! Two layouts: [`Wide`] (the board, then a parent id, 16-bit `g` and `h`, the push byte and,
//! in the padding up to the next 8 bytes, the bounds of the first letters so that expanding
//! the node does not look them up again) and [`Narrow`] (the board and one word: parent,
//! `g`, `h` and push, 8 bits each but the parent's 32; no stored bounds, they are computed
//! again at expansion). A compact board of two words makes a 24-byte narrow node where a wide
//! one takes 32: proof mode (a cap of `K` moves) keeps only nodes with `g + h <= K`, so both
//! fit a byte when `K` does ([`Narrow::holds`]); a larger cap keeps the wide node.
//!
//! Invariant: every getter gives back what [`Node::new`] and [`Node::repath`] were given, for
//! values within the layout's limits (the caller keeps them there).

use super::STORED_BOUNDS;
use crate::games::vexed::MAX_CELLS;
use crate::games::vexed::bitset::bound::Parts;
use crate::games::vexed::grid::Dir;

/// A push in one byte: the pushed block's cell (below [`MAX_CELLS`] = 128) and a direction
/// bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Push(u8);

impl Push {
    /// The direction bit (set for right).
    const RIGHT: u8 = 1 << 7;

    pub(crate) fn new(cell: usize, dir: Dir) -> Push {
        debug_assert!(cell < MAX_CELLS);
        let bit = if dir == Dir::Right { Self::RIGHT } else { 0 };
        Push(cell as u8 | bit)
    }

    pub(crate) fn cell(self) -> usize {
        usize::from(self.0 & !Self::RIGHT)
    }

    pub(crate) fn dir(self) -> Dir {
        if self.0 & Self::RIGHT == 0 {
            Dir::Left
        } else {
            Dir::Right
        }
    }
}

/// One board met by the search, in one of the layouts of the module docs.
pub(crate) trait Node: Copy + Send + Sync + 'static {
    /// The board as its store keeps it.
    type Board: Copy + Eq;
    /// A node of `board`, reached from `parent` ([`super::NO_PARENT`] for the start) at depth
    /// `g` by `push`, with bound `h` and its first letters' bounds (kept by a wide node only).
    fn new(
        board: Self::Board,
        parent: u32,
        g: u16,
        h: u16,
        push: Push,
        bounds: &[u8; STORED_BOUNDS],
    ) -> Self;
    fn board(&self) -> &Self::Board;
    /// The node this one was reached from on its shortest known path.
    fn parent(&self) -> u32;
    /// Depth on that path (pushes from the start).
    fn g(&self) -> u16;
    /// Lower bound of the pushes left (at least 1).
    fn h(&self) -> u16;
    /// The push from the parent.
    fn push(&self) -> Push;
    /// The first letters' bounds kept ([`Parts::restore`]; none in a narrow node).
    fn bounds(&self) -> &[u8];
    /// The node reached again by a shorter path: from `parent` at depth `g` by `push`.
    fn repath(&mut self, parent: u32, g: u16, push: Push);
}

/// The wide layout (see the module docs).
#[derive(Clone, Copy)]
pub(crate) struct Wide<B> {
    board: B,
    parent: u32,
    g: u16,
    h: u16,
    push: Push,
    /// [`Parts::UNSTORED`] when unknown.
    bounds: [u8; STORED_BOUNDS],
}

impl<B: Copy + Eq + Send + Sync + 'static> Node for Wide<B> {
    type Board = B;

    #[inline(always)]
    fn new(
        board: B,
        parent: u32,
        g: u16,
        h: u16,
        push: Push,
        bounds: &[u8; STORED_BOUNDS],
    ) -> Self {
        Wide {
            board,
            parent,
            g,
            h,
            push,
            bounds: *bounds,
        }
    }

    #[inline(always)]
    fn board(&self) -> &B {
        &self.board
    }

    #[inline(always)]
    fn parent(&self) -> u32 {
        self.parent
    }

    #[inline(always)]
    fn g(&self) -> u16 {
        self.g
    }

    #[inline(always)]
    fn h(&self) -> u16 {
        self.h
    }

    #[inline(always)]
    fn push(&self) -> Push {
        self.push
    }

    #[inline(always)]
    fn bounds(&self) -> &[u8] {
        &self.bounds
    }

    #[inline(always)]
    fn repath(&mut self, parent: u32, g: u16, push: Push) {
        (self.parent, self.g, self.push) = (parent, g, push);
    }
}

/// The narrow layout (see the module docs): `word` holds, from bit 0, the parent (32 bits),
/// `g`, `h` and the push (8 bits each).
#[derive(Clone, Copy)]
pub(crate) struct Narrow<B> {
    board: B,
    word: u64,
}

impl<B> Narrow<B> {
    const G_SHIFT: u32 = u32::BITS;
    const H_SHIFT: u32 = Self::G_SHIFT + u8::BITS;
    const PUSH_SHIFT: u32 = Self::H_SHIFT + u8::BITS;
    /// The largest `g` and `h` a narrow node holds.
    const MAX_FIELD: u16 = u8::MAX as u16;

    /// Whether a search capped at `max_moves` keeps only nodes a narrow node holds: every node
    /// kept has `g + h <= max_moves`, `h >= 1`.
    pub(crate) fn holds(max_moves: u32) -> bool {
        max_moves <= u32::from(Self::MAX_FIELD)
    }

    #[inline(always)]
    fn byte(&self, shift: u32) -> u8 {
        (self.word >> shift) as u8
    }
}

impl<B: Copy + Eq + Send + Sync + 'static> Node for Narrow<B> {
    type Board = B;

    #[inline(always)]
    fn new(board: B, parent: u32, g: u16, h: u16, push: Push, _: &[u8; STORED_BOUNDS]) -> Self {
        debug_assert!(g <= Self::MAX_FIELD && h <= Self::MAX_FIELD);
        let word = u64::from(parent)
            | u64::from(g) << Self::G_SHIFT
            | u64::from(h) << Self::H_SHIFT
            | u64::from(push.0) << Self::PUSH_SHIFT;
        Narrow { board, word }
    }

    #[inline(always)]
    fn board(&self) -> &B {
        &self.board
    }

    #[inline(always)]
    fn parent(&self) -> u32 {
        self.word as u32
    }

    #[inline(always)]
    fn g(&self) -> u16 {
        u16::from(self.byte(Self::G_SHIFT))
    }

    #[inline(always)]
    fn h(&self) -> u16 {
        u16::from(self.byte(Self::H_SHIFT))
    }

    #[inline(always)]
    fn push(&self) -> Push {
        Push(self.byte(Self::PUSH_SHIFT))
    }

    #[inline(always)]
    fn bounds(&self) -> &[u8] {
        &[]
    }

    #[inline(always)]
    fn repath(&mut self, parent: u32, g: u16, push: Push) {
        *self = Self::new(self.board, parent, g, self.h(), push, &NO_BOUNDS);
    }
}

/// Bounds of a node that keeps none.
const NO_BOUNDS: [u8; STORED_BOUNDS] = [Parts::UNSTORED; STORED_BOUNDS];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::vexed::bitset::compact::Compact;

    #[test]
    fn a_push_keeps_its_cell_and_direction_in_one_byte() {
        for cell in [0, 1, 64, MAX_CELLS - 1] {
            for dir in [Dir::Left, Dir::Right] {
                let push = Push::new(cell, dir);
                assert_eq!((push.cell(), push.dir()), (cell, dir));
            }
        }
    }

    /// Every field of a node comes back as given, at its limits, in both layouts, after
    /// `new` and after `repath`; a narrow node of a two-word board takes 24 bytes.
    fn round_trip<N: Node>(board: N::Board, max: u16, bounds_kept: bool) {
        let parents = [0, 1, 0x8000_0000, u32::MAX - 1, u32::MAX];
        let depths = [0, 1, max / 2, max - 1, max];
        let pushes = [(0, Dir::Left), (MAX_CELLS - 1, Dir::Right), (77, Dir::Left)];
        let bounds = [0, 1, 2, 200, 254, Parts::UNSTORED, 9];
        for &parent in &parents {
            for &g in &depths {
                for &h in &depths {
                    for &(cell, dir) in &pushes {
                        let push = Push::new(cell, dir);
                        let mut node = N::new(board, parent, g, h, push, &bounds);
                        let got = (node.parent(), node.g(), node.h(), node.push());
                        assert_eq!(got, (parent, g, h, push));
                        assert!(*node.board() == board);
                        let kept: &[u8] = if bounds_kept { &bounds } else { &[] };
                        assert_eq!(node.bounds(), kept);
                        // Reached again: the other fields are kept.
                        let (other, shorter) = (parent ^ 0x5555_5555, g / 3);
                        let moved = Push::new(MAX_CELLS - 1 - cell, Dir::Right);
                        node.repath(other, shorter, moved);
                        let got = (node.parent(), node.g(), node.h(), node.push());
                        assert_eq!(got, (other, shorter, h, moved));
                        assert!(*node.board() == board && node.bounds() == kept);
                    }
                }
            }
        }
    }

    #[test]
    fn node_fields_round_trip_at_their_limits() {
        // Boards of the compact board's shape, all bits used.
        let board = [u64::MAX, 0x0123_4567_89ab_cdef];
        round_trip::<Narrow<[u64; 2]>>(board, u16::from(u8::MAX), false);
        round_trip::<Wide<[u64; 2]>>(board, u16::MAX, true);
        round_trip::<Narrow<[u64; 1]>>([u64::MAX], u16::from(u8::MAX), false);
        assert_eq!(std::mem::size_of::<Narrow<Compact<2>>>(), 24);
        assert_eq!(std::mem::size_of::<Wide<Compact<2>>>(), 32);
    }

    #[test]
    fn a_narrow_node_holds_caps_up_to_a_byte() {
        assert!(Narrow::<Compact<2>>::holds(0));
        assert!(Narrow::<Compact<2>>::holds(255));
        assert!(!Narrow::<Compact<2>>::holds(256));
        assert!(!Narrow::<Compact<2>>::holds(super::super::NO_CAP));
    }
}
