//! A set of cells of a board at most [`SIDE`] x [`SIDE`] (Link and Pop's 30 x 30 board plus
//! its empty ring), kept twice: as row words (bit c of `rows[r]` = cell (r, c)) and as the
//! transposed column words (bit r of `cols[c]` = cell (r, c)).
//!
//! Invariant: the two views always describe the same set -- every mutation goes through
//! [`Bitboard::insert`] / [`Bitboard::remove`], which update both. Row words make horizontal
//! questions (the nearest block to the left, a run of empty cells) single word operations;
//! column words do the same for vertical ones.
//!
//! The free functions on words ([`run_above`], [`run_below`], [`next_above`], [`next_below`])
//! are the "sliding piece" primitives: the run of empty cells next to a position, and the first
//! set bit beyond it.

/// Side of the largest padded board: 30 cells plus the ring on both sides.
pub const SIDE: usize = 32;

/// A set of cells, as row words and column words kept in step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bitboard {
    rows: [u32; SIDE],
    cols: [u32; SIDE],
}

impl Default for Bitboard {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard {
        rows: [0; SIDE],
        cols: [0; SIDE],
    };

    /// Every cell (r, c) with r < `rows` and c < `cols`.
    pub fn rectangle(rows: usize, cols: usize) -> Bitboard {
        let mut board = Bitboard::EMPTY;
        for r in 0..rows {
            for c in 0..cols {
                board.insert(r, c);
            }
        }
        board
    }

    pub fn contains(&self, r: usize, c: usize) -> bool {
        self.rows[r] >> c & 1 == 1
    }

    pub fn insert(&mut self, r: usize, c: usize) {
        self.rows[r] |= 1 << c;
        self.cols[c] |= 1 << r;
    }

    pub fn remove(&mut self, r: usize, c: usize) {
        self.rows[r] &= !(1 << c);
        self.cols[c] &= !(1 << r);
    }

    /// Moves a member from one cell to another (both views).
    pub fn relocate(&mut self, from: (usize, usize), to: (usize, usize)) {
        self.remove(from.0, from.1);
        self.insert(to.0, to.1);
    }

    /// Row word `r`: bit c is cell (r, c).
    #[inline]
    pub fn row(&self, r: usize) -> u32 {
        self.rows[r]
    }

    /// Column word `c`: bit r is cell (r, c).
    #[inline]
    pub fn col(&self, c: usize) -> u32 {
        self.cols[c]
    }

    pub fn len(&self) -> usize {
        self.rows.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(|&w| w == 0)
    }

    /// The cells in row-major order.
    pub fn cells(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..SIDE).flat_map(move |r| bits(self.rows[r]).map(move |c| (r, c)))
    }

    /// True when the column words are exactly the transpose of the row words.
    pub fn is_consistent(&self) -> bool {
        (0..SIDE).all(|r| (0..SIDE).all(|c| (self.rows[r] >> c & 1) == (self.cols[c] >> r & 1)))
    }
}

/// Positions of the set bits of a word, lowest first.
pub fn bits(mut word: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (word != 0).then(|| {
            let bit = word.trailing_zeros() as usize;
            word &= word - 1;
            bit
        })
    })
}

/// The run of set bits of `free` directly above position `at` (at+1, at+2, ... while set).
#[inline]
pub fn run_above(free: u32, at: usize) -> u32 {
    let shifted = u64::from(free) >> (at + 1);
    let length = (!shifted).trailing_zeros();
    let run = (1u64 << length) - 1;
    (run << (at + 1)) as u32
}

/// The run of set bits of `free` directly below position `at` (at-1, at-2, ... while set).
#[inline]
pub fn run_below(free: u32, at: usize) -> u32 {
    let below = u64::from(free) & ((1u64 << at) - 1);
    // Highest position below `at` that is not free; the run lies between it and `at`.
    let blocked = !below & ((1u64 << at) - 1);
    let start = if blocked == 0 {
        0
    } else {
        64 - blocked.leading_zeros()
    };
    (below >> start << start) as u32
}

/// The lowest set bit of `word` above position `at`.
#[inline]
pub fn next_above(word: u32, at: usize) -> Option<usize> {
    let shifted = u64::from(word) >> (at + 1);
    (shifted != 0).then(|| at + 1 + shifted.trailing_zeros() as usize)
}

/// The highest set bit of `word` below position `at`.
#[inline]
pub fn next_below(word: u32, at: usize) -> Option<usize> {
    let below = u64::from(word) & ((1u64 << at) - 1);
    (below != 0).then(|| 63 - below.leading_zeros() as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_views_stay_in_step() {
        let mut b = Bitboard::EMPTY;
        b.insert(0, 0);
        b.insert(31, 31);
        b.insert(3, 17);
        b.insert(17, 3);
        assert!(b.is_consistent());
        assert_eq!(b.row(3), 1 << 17);
        assert_eq!(b.col(17), 1 << 3);
        assert_eq!(b.col(31), 1 << 31);
        b.relocate((3, 17), (4, 17));
        assert!(b.is_consistent());
        assert!(!b.contains(3, 17) && b.contains(4, 17));
        assert_eq!(b.col(17), 1 << 4);
        b.remove(0, 0);
        assert!(b.is_consistent());
        assert_eq!(b.len(), 3);
        assert_eq!(
            b.cells().collect::<Vec<_>>(),
            vec![(4, 17), (17, 3), (31, 31)]
        );
    }

    #[test]
    fn rectangle_has_rows_times_cols_cells() {
        let b = Bitboard::rectangle(32, 32);
        assert_eq!(b.len(), 1024);
        assert!(b.is_consistent());
        let b = Bitboard::rectangle(3, 5);
        assert_eq!(b.row(2), 0b11111);
        assert_eq!(b.row(3), 0);
        assert_eq!(b.col(4), 0b111);
        assert!(Bitboard::EMPTY.is_empty());
    }

    #[test]
    fn runs_stop_at_the_first_clear_bit() {
        //            bit: 7654 3210
        let free = 0b1101_1011u32;
        assert_eq!(run_above(free, 1), 0);
        assert_eq!(run_above(free, 4), 0);
        assert_eq!(run_above(free, 2), 0b0001_1000);
        assert_eq!(run_above(free, 5), 0b1100_0000);
        assert_eq!(run_above(free, 7), 0);
        assert_eq!(run_above(u32::MAX, 31), 0);
        assert_eq!(run_above(u32::MAX, 0), u32::MAX - 1);
        assert_eq!(run_below(free, 5), 0b0001_1000);
        assert_eq!(run_below(free, 2), 0b0000_0011);
        assert_eq!(run_below(free, 0), 0);
        assert_eq!(run_below(free, 3), 0);
        assert_eq!(run_below(u32::MAX, 31), u32::MAX >> 1);
    }

    #[test]
    fn next_bits_find_the_nearest_member() {
        let word = 0b1001_0010u32;
        assert_eq!(next_above(word, 1), Some(4));
        assert_eq!(next_above(word, 0), Some(1));
        assert_eq!(next_above(word, 7), None);
        assert_eq!(next_below(word, 4), Some(1));
        assert_eq!(next_below(word, 1), None);
        assert_eq!(next_below(word, 31), Some(7));
        assert_eq!(next_above(1 << 31, 30), Some(31));
        assert_eq!(next_above(1 << 31, 31), None);
    }

    #[test]
    fn bits_lists_positions_lowest_first() {
        assert_eq!(bits(0b1010_0001).collect::<Vec<_>>(), vec![0, 5, 7]);
        assert_eq!(bits(0).count(), 0);
        assert_eq!(bits(u32::MAX).count(), 32);
    }
}
