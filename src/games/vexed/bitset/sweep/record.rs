//! What the sweep keeps of a board: its order key [`Psi`], and a [`Record`] (the compact board,
//! its depth, its bound and its parent's hash) as it sits in a bucket or a file.
//!
//! Invariants: a record's bytes on disk are [`RECORD_BYTES`] long, little-endian, and
//! [`Record::read`] gives back exactly what [`Record::write`] wrote; [`key`] depends only on the
//! board's words (the same board always has the same key; two boards may share one).

use std::hash::{BuildHasher, Hasher};

use crate::games::vexed::bitset::compact::Compact;
use crate::games::vexed::bitset::planes::{Cells, Geometry, State};

/// Words of a board the sweep stores ([`Compact`]; levels that do not fit go to A*).
pub(crate) const WORDS: usize = 2;

/// A board as the sweep stores it.
pub(super) type Board = Compact<WORDS>;

/// The sweep's order on boards: (blocks removed, sum of the blocks' row indices, rows counted
/// from the top), compared in that order. A push either slides one block within its row with
/// nothing falling or going (the key is unchanged) or raises it: a fall raises the row sum, a
/// removal the count. So a board is never reached from one of a larger key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Psi {
    pub(crate) removed: u32,
    pub(crate) rows: u32,
}

/// Computes [`Psi`] of the boards of one search.
pub(super) struct PsiOf {
    /// Blocks of the start board.
    blocks: u32,
    /// The cells of each row, top first.
    rows: Vec<Cells>,
}

impl PsiOf {
    pub(super) fn new(geo: &Geometry, blocks: u32) -> PsiOf {
        let rows = (0..geo.rows)
            .map(|r| (0..geo.cols).fold(Cells::EMPTY, |row, c| row | Cells::cell(r * geo.cols + c)))
            .collect();
        PsiOf { blocks, rows }
    }

    pub(super) fn of<const P: usize>(&self, state: &State<P>) -> Psi {
        let occupied = state.occupied();
        let rows = self
            .rows
            .iter()
            .enumerate()
            .map(|(r, &row)| r as u32 * (occupied & row).len())
            .sum();
        Psi {
            removed: self.blocks - occupied.len(),
            rows,
        }
    }
}

/// A board of a bucket: its words, its depth `g` (the fewest pushes known from the start),
/// its bound `h`, and the [`key`] of the board it was reached from by that many pushes (0 for
/// the start, which has none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Record {
    pub(super) board: [u64; WORDS],
    pub(super) parent: u64,
    pub(super) g: u8,
    pub(super) h: u8,
}

/// Bytes of a record in a file: two board words, the parent key, `g`, `h`.
pub(super) const RECORD_BYTES: usize = 8 * WORDS + 8 + 2;

impl Record {
    /// Appends the record's bytes to `out`.
    pub(super) fn write(&self, out: &mut Vec<u8>) {
        for word in self.board {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&self.parent.to_le_bytes());
        out.push(self.g);
        out.push(self.h);
    }

    /// The record whose [`RECORD_BYTES`] bytes start `bytes`.
    pub(super) fn read(bytes: &[u8]) -> Record {
        let word = |i: usize| {
            let mut b = [0; 8];
            b.copy_from_slice(&bytes[8 * i..8 * i + 8]);
            u64::from_le_bytes(b)
        };
        Record {
            board: [word(0), word(1)],
            parent: word(2),
            g: bytes[8 * WORDS + 8],
            h: bytes[8 * WORDS + 9],
        }
    }

    /// Whether `self` is a better way to its board than `other`: fewer pushes, or as many and
    /// the smaller parent key (so the one kept does not depend on the order records came in).
    pub(super) fn better_than(&self, other: &Record) -> bool {
        (self.g, self.parent) < (other.g, other.parent)
    }
}

/// The hash a record names its parent by: XXH3-64 of the board's words.
pub(super) fn key(board: [u64; WORDS]) -> u64 {
    let mut bytes = [0u8; 8 * WORDS];
    for (i, word) in board.iter().enumerate() {
        bytes[8 * i..8 * i + 8].copy_from_slice(&word.to_le_bytes());
    }
    xxhash_rust::xxh3::xxh3_64(&bytes)
}

/// A board's words as a hash-map key, hashed by one multiply-fold of its words (the maps hold
/// boards of one bucket, from a few to millions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Words(pub(super) [u64; WORDS]);

impl std::hash::Hash for Words {
    fn hash<H: Hasher>(&self, hasher: &mut H) {
        const SEEDS: [u64; 2] = [0xa076_1d64_78bd_642f, 0xe703_7ed1_a0b4_28db];
        let product = u128::from(self.0[0] ^ SEEDS[0]) * u128::from(self.0[1] ^ SEEDS[1]);
        hasher.write_u64((product as u64) ^ ((product >> 64) as u64));
    }
}

/// The hasher of [`Words`] keys: the word they give, as is.
#[derive(Default, Clone, Copy)]
pub(super) struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is used by `Words`; any other key is folded byte by byte.
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = word;
    }
}

/// [`PassThrough`] as a map's hasher builder.
#[derive(Default, Clone, Copy)]
pub(super) struct BuildWords;

impl BuildHasher for BuildWords {
    type Hasher = PassThrough;

    fn build_hasher(&self) -> PassThrough {
        PassThrough::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_read_back_as_written() {
        let record = Record {
            board: [0x0123_4567_89ab_cdef, u64::MAX - 5],
            parent: 0xfeed_beef_dead_cafe,
            g: 37,
            h: 254,
        };
        let mut bytes = Vec::new();
        record.write(&mut bytes);
        assert_eq!(bytes.len(), RECORD_BYTES);
        assert_eq!(Record::read(&bytes), record);
    }

    #[test]
    fn fewer_pushes_win_then_the_smaller_parent() {
        let r = |g, parent| Record {
            board: [1, 2],
            parent,
            g,
            h: 1,
        };
        assert!(r(3, 9).better_than(&r(4, 1)));
        assert!(r(4, 1).better_than(&r(4, 2)));
        assert!(!r(4, 2).better_than(&r(4, 2)));
    }

    #[test]
    fn psi_orders_removals_first() {
        let a = Psi {
            removed: 1,
            rows: 0,
        };
        let b = Psi {
            removed: 0,
            rows: 99,
        };
        assert!(b < a);
    }
}
