//! The one hash of gamebench: 64-bit FNV-1a (the `fnv` crate), written as 16 lower-case hex
//! digits. Case outputs get a digest in the CSV (equal outputs, equal digests, so two runs or
//! two engines can be compared without keeping the outputs); shards hash their case lists and
//! rows with the same function, streamed through [`Digest`].

use std::hash::Hasher;

/// A streamed FNV-1a 64 digest.
#[derive(Default)]
pub struct Digest(fnv::FnvHasher);

impl Digest {
    pub fn write(&mut self, bytes: &[u8]) {
        self.0.write(bytes);
    }

    /// The digest so far, as 16 hex digits.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.0.finish())
    }
}

/// The digest of `bytes` (see [`Digest`]).
pub fn digest(bytes: &[u8]) -> String {
    let mut hasher = Digest::default();
    hasher.write(bytes);
    hasher.hex()
}

#[cfg(test)]
mod tests {
    #[test]
    fn fnv1a_known_values() {
        // FNV-1a 64 test vectors from the FNV reference (isthe.com/chongo/tech/comp/fnv).
        assert_eq!(super::digest(b""), "cbf29ce484222325");
        assert_eq!(super::digest(b"a"), "af63dc4c8601ec8c");
    }
}
