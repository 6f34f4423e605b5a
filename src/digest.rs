//! A short, stable digest of a case's output for the CSV: equal outputs give equal digests, so
//! two runs or two engines can be compared without keeping the outputs.

use std::hash::Hasher;

/// 64-bit FNV-1a of the bytes, as 16 lower-case hex digits.
pub fn digest(bytes: &[u8]) -> String {
    let mut hasher = fnv::FnvHasher::default();
    hasher.write(bytes);
    format!("{:016x}", hasher.finish())
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
