//! Compact boards: a stable board in a few words, over the level's free cells only, for A*'s
//! arena when node memory is the limit ([`Compact`], packed and unpacked by a [`Codec`] built
//! per search from the geometry and the start board).
//!
//! Walls never move, and on a stable board (every block resting on a wall, a block or the
//! bottom edge, which [`State::settle`] and every push leave) the blocks of each vertical run
//! of free cells (a *segment*, ended below by a wall or the bottom edge) fill it from its
//! bottom up without a gap. So the occupied cells are given by one count per segment, in a
//! field just wide enough for `0..=len`. The blocks' letters follow, bit-sliced: slice `s` holds
//! bit `s` of `code - 1` of every block, in cell order ([`pext`]/[`pdep`] against the occupied
//! cells), `S = ceil(log2(L))` slices of `B` bits each for `L` letters and `B` blocks on the start
//! board (blocks are only ever removed). A 10-wide level of 8 letters and 32 blocks takes about
//! 26 + 3 * 32 = 122 bits: one `u128` instead of the four words of its planes.
//!
//! Invariants: a codec packs only stable boards of its own geometry with at most
//! [`Codec::blocks`] blocks (`debug_assert`ed); `unpack(pack(s)) == s` for them, and two boards
//! are equal iff their packed words are (the encoding is canonical: unused bits are zero).
//! The `pext`/`pdep` instructions (BMI2) are used when the CPU has them, detected at run time;
//! the portable loops give the same words (a test compares them).

use super::planes::{Cells, Geometry, State};

/// A board packed by a [`Codec`] into `K` words (the bits in order, from bit 0 of word 0).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Compact<const K: usize>([u64; K]);

impl<const K: usize> Compact<K> {
    /// The words, for a search that writes boards to files or hashes them itself.
    pub(crate) fn words(&self) -> [u64; K] {
        self.0
    }

    /// The board whose words [`Compact::words`] gave.
    pub(crate) fn from_words(words: [u64; K]) -> Compact<K> {
        Compact(words)
    }
}

/// The layout of one geometry's compact boards (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct Codec {
    /// The segments, each with its count field.
    segments: Vec<Segment>,
    /// `fills[segment.fills + n]`: the bottom `n` cells of a segment.
    fills: Vec<Cells>,
    /// Bits of the count fields (the letter slices start there).
    count_bits: usize,
    /// Slices of letter-code bits.
    slices: usize,
    /// Bits of each slice: the most blocks a board of the search has.
    blocks: usize,
    /// Whether the CPU has BMI2's `pext` and `pdep`.
    bmi2: bool,
}

/// A vertical run of free cells, ended below by a wall or the bottom edge.
#[derive(Clone, Copy, Debug)]
struct Segment {
    cells: Cells,
    /// The word of its count field (no field crosses two words).
    word: usize,
    /// The field's first bit in its word.
    shift: u32,
    /// The field's bits, at bit 0.
    mask: u64,
    /// Where its fills start in [`Codec::fills`].
    fills: usize,
}

/// Bits of a word of a compact board.
const WORD: usize = u64::BITS as usize;

/// Bits needed to write `0..=n`.
fn bits_for(n: usize) -> usize {
    (usize::BITS - n.leading_zeros()) as usize
}

impl Codec {
    /// The codec of boards of `geo` with at most `blocks` blocks.
    pub(crate) fn new(geo: &Geometry, blocks: usize) -> Codec {
        let free = geo.board & !geo.walls;
        let (mut segments, mut fills, mut at) = (Vec::new(), Vec::new(), 0);
        for col in 0..geo.cols {
            let mut run: Vec<usize> = Vec::new();
            for row in 0..=geo.rows {
                let cell = row * geo.cols + col;
                if row < geo.rows && free.contains(cell) {
                    run.push(cell);
                    continue;
                }
                if run.is_empty() {
                    continue;
                }
                let first = fills.len();
                let mut fill = Cells::EMPTY;
                fills.push(fill);
                for &cell in run.iter().rev() {
                    fill |= Cells::cell(cell);
                    fills.push(fill);
                }
                let width = bits_for(run.len());
                if at % WORD + width > WORD {
                    at = at.next_multiple_of(WORD); // a field within one word
                }
                segments.push(Segment {
                    cells: fill,
                    word: at / WORD,
                    shift: (at % WORD) as u32,
                    mask: (1 << width) - 1,
                    fills: first,
                });
                at += width;
                run.clear();
            }
        }
        let letters = geo.letters.len();
        Codec {
            segments,
            fills,
            count_bits: at,
            slices: bits_for(letters.saturating_sub(1)),
            blocks,
            bmi2: has_bmi2(),
        }
    }

    /// Bits of a packed board.
    pub(crate) fn bits(&self) -> usize {
        self.count_bits + self.slices * self.blocks
    }

    /// Whether a board fits `K` words.
    pub(crate) fn fits<const K: usize>(&self) -> bool {
        self.bits() <= K * u64::BITS as usize
    }

    /// Packs a stable board with at most [`Codec::blocks`] blocks (the codec must
    /// [`Codec::fits`] `K` words).
    #[inline(always)]
    pub(crate) fn pack<const P: usize, const K: usize>(&self, state: &State<P>) -> Compact<K> {
        #[cfg(target_arch = "x86_64")]
        if self.bmi2 {
            // SAFETY: `bmi2` is true only when the CPU has BMI2 (`has_bmi2`).
            return unsafe { self.pack_bmi2(state) };
        }
        self.pack_with::<Soft, P, K>(state)
    }

    /// Unpacks a board [`Codec::pack`] made.
    #[inline(always)]
    pub(crate) fn unpack<const P: usize, const K: usize>(&self, board: &Compact<K>) -> State<P> {
        #[cfg(target_arch = "x86_64")]
        if self.bmi2 {
            // SAFETY: as in `pack`.
            return unsafe { self.unpack_bmi2(board) };
        }
        self.unpack_with::<Soft, P, K>(board)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2,popcnt")]
    unsafe fn pack_bmi2<const P: usize, const K: usize>(&self, state: &State<P>) -> Compact<K> {
        self.pack_with::<Hard, P, K>(state)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2,popcnt")]
    unsafe fn unpack_bmi2<const P: usize, const K: usize>(&self, board: &Compact<K>) -> State<P> {
        self.unpack_with::<Hard, P, K>(board)
    }

    #[inline(always)]
    fn pack_with<B: Bits, const P: usize, const K: usize>(&self, state: &State<P>) -> Compact<K> {
        debug_assert!(self.fits::<K>());
        let occupied = state.occupied();
        debug_assert!(
            occupied.len() as usize <= self.blocks,
            "more blocks than the start"
        );
        let mut words = [0; K];
        // The fields of a word gathered in a register (the segments go word by word): an OR
        // into memory per field would chain each one to the store before it.
        let (mut word, mut fields) = (0, 0);
        for segment in &self.segments {
            let count = (occupied & segment.cells).len();
            debug_assert_eq!(
                occupied & segment.cells,
                self.fills[segment.fills + count as usize],
                "an unstable board"
            );
            if segment.word != word {
                words[word] = fields;
                (word, fields) = (segment.word, 0);
            }
            fields |= u64::from(count) << segment.shift;
        }
        words[word] |= fields;
        // `code - 1`, bit-sliced over the occupied cells: subtract one with a borrow plane.
        let mut borrow = occupied;
        for (s, &plane) in state.planes().iter().enumerate() {
            let slice = plane ^ borrow;
            borrow &= !plane;
            if s < self.slices {
                let bits = pext::<B>(slice.bits(), occupied.bits());
                put_wide(&mut words, self.count_bits + s * self.blocks, bits);
            } else {
                debug_assert!(slice.is_empty(), "a letter code past the letters");
            }
        }
        Compact(words)
    }

    #[inline(always)]
    fn unpack_with<B: Bits, const P: usize, const K: usize>(&self, board: &Compact<K>) -> State<P> {
        let words = &board.0;
        let mut occupied = Cells::EMPTY;
        for segment in &self.segments {
            let count = (words[segment.word] >> segment.shift & segment.mask) as usize;
            occupied |= self.fills[segment.fills + count];
        }
        // `code = slices + 1`: add one with a carry plane.
        let mut planes = [Cells::EMPTY; P];
        let mut carry = occupied;
        for (s, plane) in planes.iter_mut().enumerate() {
            let slice = if s < self.slices {
                let bits = get_wide(words, self.count_bits + s * self.blocks, self.blocks);
                Cells::from_bits(pdep::<B>(bits, occupied.bits()))
            } else {
                Cells::EMPTY
            };
            *plane = slice ^ carry;
            carry &= slice;
        }
        State::from_planes(planes)
    }

    /// Packs with the portable loops, whatever the CPU (tests compare both).
    #[cfg(test)]
    fn pack_portable<const P: usize, const K: usize>(&self, state: &State<P>) -> Compact<K> {
        self.pack_with::<Soft, P, K>(state)
    }

    /// Unpacks with the portable loops.
    #[cfg(test)]
    fn unpack_portable<const P: usize, const K: usize>(&self, board: &Compact<K>) -> State<P> {
        self.unpack_with::<Soft, P, K>(board)
    }
}

/// Whether the CPU has BMI2 (`pext`, `pdep`) and `popcnt` (the counts), which every CPU with
/// BMI2 has.
fn has_bmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("bmi2") && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Bit gathering and scattering on one word: `pext` packs the bits of `x` under `mask` into
/// the low bits, `pdep` spreads the low bits of `x` over the bits of `mask`.
trait Bits {
    fn pext(x: u64, mask: u64) -> u64;
    fn pdep(x: u64, mask: u64) -> u64;
}

/// The portable loops: one step per bit of the mask.
struct Soft;

impl Bits for Soft {
    #[inline(always)]
    fn pext(x: u64, mut mask: u64) -> u64 {
        let (mut out, mut bit) = (0, 1);
        while mask != 0 {
            let low = mask & mask.wrapping_neg();
            if x & low != 0 {
                out |= bit;
            }
            bit <<= 1;
            mask ^= low;
        }
        out
    }

    #[inline(always)]
    fn pdep(mut x: u64, mut mask: u64) -> u64 {
        let mut out = 0;
        while mask != 0 {
            let low = mask & mask.wrapping_neg();
            if x & 1 != 0 {
                out |= low;
            }
            x >>= 1;
            mask ^= low;
        }
        out
    }
}

/// BMI2's instructions: used only inside functions compiled with the feature, called only when
/// the CPU has it ([`Codec::bmi2`]).
#[cfg(target_arch = "x86_64")]
struct Hard;

#[cfg(target_arch = "x86_64")]
impl Bits for Hard {
    #[inline(always)]
    fn pext(x: u64, mask: u64) -> u64 {
        // SAFETY: reached only from the `bmi2` functions of `Codec`, themselves called only
        // when the CPU has BMI2.
        unsafe { std::arch::x86_64::_pext_u64(x, mask) }
    }

    #[inline(always)]
    fn pdep(x: u64, mask: u64) -> u64 {
        // SAFETY: as in `pext`.
        unsafe { std::arch::x86_64::_pdep_u64(x, mask) }
    }
}

/// `pext` on 128 bits.
#[inline(always)]
fn pext<B: Bits>(x: u128, mask: u128) -> u128 {
    let (low_mask, high_mask) = (mask as u64, (mask >> 64) as u64);
    let low = B::pext(x as u64, low_mask);
    let high = B::pext((x >> 64) as u64, high_mask);
    u128::from(low) | u128::from(high) << low_mask.count_ones()
}

/// `pdep` on 128 bits.
#[inline(always)]
fn pdep<B: Bits>(x: u128, mask: u128) -> u128 {
    let (low_mask, high_mask) = (mask as u64, (mask >> 64) as u64);
    let low = B::pdep(x as u64, low_mask);
    let high = B::pdep((x >> low_mask.count_ones()) as u64, high_mask);
    u128::from(low) | u128::from(high) << 64
}

/// ORs `value` in at bit `at` of `words` (the field's bits are zero, and it fits).
#[inline(always)]
fn put<const K: usize>(words: &mut [u64; K], at: usize, value: u64) {
    let (i, shift) = (at / 64, at % 64);
    words[i] |= value << shift;
    if shift != 0 && i + 1 < K {
        words[i + 1] |= value >> (64 - shift);
    }
}

/// The `width`-bit field at bit `at` (`width <= 64`).
#[inline(always)]
fn get<const K: usize>(words: &[u64; K], at: usize, width: usize) -> u64 {
    let (i, shift) = (at / 64, at % 64);
    let mut value = words[i] >> shift;
    if shift != 0 && i + 1 < K {
        value |= words[i + 1] << (64 - shift);
    }
    value & u64::MAX.unbounded_shr(64 - width as u32)
}

/// [`put`] of up to 128 bits.
#[inline(always)]
fn put_wide<const K: usize>(words: &mut [u64; K], at: usize, value: u128) {
    put(words, at, value as u64);
    let high = (value >> 64) as u64;
    if high != 0 {
        put(words, at + 64, high);
    }
}

/// [`get`] of up to 128 bits.
#[inline(always)]
fn get_wide<const K: usize>(words: &[u64; K], at: usize, width: usize) -> u128 {
    let low = get(words, at, width.min(64));
    if width <= 64 {
        return u128::from(low);
    }
    u128::from(low) | u128::from(get(words, at + 64, width - 64)) << 64
}

#[cfg(test)]
mod tests;
