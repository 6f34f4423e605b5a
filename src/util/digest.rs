//! The one hash of gamebench: 64-bit XXH3 with seed 0 (the `xxhash-rust` crate), written as 16
//! lower-case hex digits. Case outputs get a digest in the CSV (equal outputs, equal digests, so two runs or
//! two engines can be compared without keeping the outputs); shards hash their case lists and
//! rows with the same function, streamed through [`Digest`].

use xxhash_rust::xxh3::{Xxh3, xxh3_64};

/// A streamed XXH3-64 digest (the same value as [`digest`] of the concatenated bytes).
#[derive(Default, Clone)]
pub struct Digest(Xxh3);

impl Digest {
    pub fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// The digest so far, as 16 hex digits.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.0.digest())
    }
}

/// The digest of `bytes` (see [`Digest`]). A case's output is hashed once per row, so the
/// hash must cost little next to the fastest engines (a byte-serial hash of a Yut board took
/// longer than solving its game).
pub fn digest(bytes: &[u8]) -> String {
    hex(hash(bytes))
}

/// The digest of `bytes` as a number (written by [`hex`] or [`hex_digits`]): what a caller keeps
/// per case when it writes the hex digits straight into a buffer later.
pub fn hash(bytes: &[u8]) -> u64 {
    xxh3_64(bytes)
}

/// A digest's 16 lower-case hex digits.
pub fn hex(value: u64) -> String {
    format!("{value:016x}")
}

/// Bits per hex digit.
const NIBBLE: u32 = 4;

/// `value`'s 16 lower-case hex digits, most significant first (what [`hex`] gives), with no
/// allocation.
pub fn hex_digits(value: u64) -> [u8; (u64::BITS / NIBBLE) as usize] {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut digits = [0; (u64::BITS / NIBBLE) as usize];
    for (k, digit) in digits.iter_mut().rev().enumerate() {
        *digit = DIGITS[((value >> (k as u32 * NIBBLE)) & 0xf) as usize];
    }
    digits
}

#[cfg(test)]
mod tests {
    use super::{Digest, digest, hash, hex, hex_digits};

    #[test]
    fn xxh3_known_values() {
        // Values printed by the reference implementation's command line (`xxhsum -H3`, Debian's
        // xxhash package), not by this crate.
        assert_eq!(digest(b""), "2d06800538d394c2");
        assert_eq!(digest(b"a"), "e6c632b61e964e1f");
        assert_eq!(digest(b"gamebench"), "a9f0f0cb774dce60");
        assert_eq!(digest(&[b'x'; 1000]), "c0a4877b962cba82");
    }

    #[test]
    fn hex_digits_are_written_as_format_writes_them() {
        for value in [0, 1, 0xf, 0xa9f0_f0cb_774d_ce60, u64::MAX, 1 << 63] {
            assert_eq!(hex_digits(value), format!("{value:016x}").as_bytes());
            assert_eq!(hex(value).len(), 16);
        }
        assert_eq!(hex(hash(b"gamebench")), "a9f0f0cb774dce60");
    }

    #[test]
    fn streamed_equals_one_shot() {
        let mut streamed = Digest::default();
        for chunk in [&b"game"[..], b"", b"bench"] {
            streamed.write(chunk);
        }
        assert_eq!(streamed.hex(), "a9f0f0cb774dce60");
    }
}
