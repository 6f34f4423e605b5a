//! Seeded generators of judge input files for the four gamebench games.
//!
//! This crate depends on nothing in gamebench: it writes judge *text*. Where a generator needs
//! a solver (Vexed keeps only puzzles whose minimum lies in a range), the caller passes an
//! [`Oracle`] in, so the dependency runs gamebench -> generators only.
//!
//! Determinism: a file is a pure function of (game, profile, options, seed, file index). Each
//! file draws from its own ChaCha8 stream seeded from those values ([`file_rng`]), and every
//! random choice goes through [`Dice`], whose arithmetic is written here, so the bytes do not
//! depend on thread count, sharding, or on any `rand` version's sampling algorithms.

pub mod linkpop;
pub mod samegame;
pub mod vexed;
pub mod yut;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// What can go wrong when generating.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GenError {
    #[error("unknown game {0:?} (known: {known})", known = GAMES.join(", "))]
    UnknownGame(String),
    #[error("unknown profile {profile:?} for {game} (known: {known})")]
    UnknownProfile {
        game: String,
        profile: String,
        known: String,
    },
    #[error("bad option {option}: {message}")]
    BadOption {
        option: &'static str,
        message: String,
    },
    #[error("gave up: {0}")]
    GaveUp(String),
}

/// Games this crate can generate, by their command-line names.
pub const GAMES: &[&str] = &["yut", "linkpop", "samegame", "vexed"];

/// Optional knobs shared by the generators; each game reads the ones that make sense for it and
/// rejects the others only when they would be silently meaningless.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Cases per file for multi-case formats (Link and Pop, SameGame, Vexed).
    pub cases: Option<usize>,
    /// Board size: `RxC`, each side a number or an inclusive range `A-B` (e.g. `5-12x5-12`).
    pub size: Option<String>,
    /// Number of distinct symbols/values/letters, a number or a range.
    pub symbols: Option<String>,
    /// Link and Pop: allow a symbol to occur an odd number of times.
    pub odd: bool,
    /// Link and Pop attribute weights, e.g. `U1D1L1R1S4`.
    pub weights: Option<String>,
    /// Text layout (SameGame: canonical, one-line, one-per-line, messy).
    pub layout: Option<String>,
    /// Number of moves/turns/selections, a number or a range.
    pub moves: Option<String>,
    /// Number of blocks (Vexed), a number or a range.
    pub blocks: Option<String>,
}

/// A solver the caller lends to a generator: given a one-case judge input, returns a number
/// describing the solution (Vexed: the minimum number of moves), or `None` when there is none
/// within the caller's budget.
pub type Oracle<'a> = &'a (dyn Fn(&str) -> Option<u32> + Sync);

/// The named profiles of a game, with one line each.
pub fn profiles(game: &str) -> Result<&'static [(&'static str, &'static str)], GenError> {
    match game {
        "yut" => Ok(yut::PROFILES),
        "linkpop" => Ok(linkpop::PROFILES),
        "samegame" => Ok(samegame::PROFILES),
        "vexed" => Ok(vexed::PROFILES),
        _ => Err(GenError::UnknownGame(game.to_string())),
    }
}

/// Generates file number `index` (0-based) of a corpus.
pub fn generate(
    game: &str,
    profile: &str,
    options: &Options,
    seed: u64,
    index: u64,
    oracle: Option<Oracle<'_>>,
) -> Result<String, GenError> {
    let known = profiles(game)?;
    if !known.iter().any(|(name, _)| *name == profile) {
        return Err(GenError::UnknownProfile {
            game: game.to_string(),
            profile: profile.to_string(),
            known: known.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", "),
        });
    }
    let mut dice = Dice::new(file_rng(game, profile, seed, index));
    match game {
        "yut" => yut::generate(profile, options, &mut dice),
        "linkpop" => linkpop::generate(profile, options, &mut dice),
        "samegame" => samegame::generate(profile, options, &mut dice),
        "vexed" => vexed::generate(profile, options, &mut dice, index, oracle),
        _ => Err(GenError::UnknownGame(game.to_string())),
    }
}

/// The random stream of one file: ChaCha8 keyed by (game, profile, seed, file index).
pub fn file_rng(game: &str, profile: &str, seed: u64, index: u64) -> ChaCha8Rng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&index.to_le_bytes());
    key[16..24].copy_from_slice(&fnv1a(game.as_bytes()).to_le_bytes());
    key[24..].copy_from_slice(&fnv1a(profile.as_bytes()).to_le_bytes());
    ChaCha8Rng::from_seed(key)
}

/// 64-bit FNV-1a: a fixed, documented hash for turning names into seed material.
fn fnv1a(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
}

/// Random choices with fixed arithmetic on top of a ChaCha8 stream.
pub struct Dice {
    rng: ChaCha8Rng,
}

impl Dice {
    pub fn new(rng: ChaCha8Rng) -> Self {
        Dice { rng }
    }

    /// A uniform integer in `0..n` (`n > 0`), by rejection sampling (no modulo bias).
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "Dice::below(0)");
        let zone = u64::MAX - (u64::MAX % n) - 1;
        loop {
            let x = self.rng.next_u64();
            if x <= zone {
                return x % n;
            }
        }
    }

    /// A uniform integer in the inclusive range `lo..=hi` (`lo <= hi`).
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// A uniform `usize` in the inclusive range `lo..=hi`.
    pub fn range_usize(&mut self, lo: usize, hi: usize) -> usize {
        self.range(lo as u64, hi as u64) as usize
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }

    /// A uniformly chosen element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    /// An index chosen with the given (not all zero) weights.
    pub fn weighted(&mut self, weights: &[u64]) -> usize {
        let total: u64 = weights.iter().sum();
        assert!(total > 0, "Dice::weighted with zero total weight");
        let mut x = self.below(total);
        for (i, &w) in weights.iter().enumerate() {
            if x < w {
                return i;
            }
            x -= w;
        }
        unreachable!("x < total")
    }

    /// Shuffles a slice in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// An inclusive range `(lo, hi)`.
pub type Span = (u64, u64);

/// An inclusive range read from `N` or `A-B`.
pub fn parse_range(option: &'static str, text: &str) -> Result<Span, GenError> {
    let bad = |message: String| GenError::BadOption { option, message };
    let (lo, hi) = match text.split_once('-') {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (text.trim(), text.trim()),
    };
    let lo: u64 = lo
        .parse()
        .map_err(|_| bad(format!("{text:?} is not N or A-B")))?;
    let hi: u64 = hi
        .parse()
        .map_err(|_| bad(format!("{text:?} is not N or A-B")))?;
    if lo > hi {
        return Err(bad(format!("{text:?}: {lo} > {hi}")));
    }
    Ok((lo, hi))
}

/// A size `RxC` where each side is `N` or `A-B`: returns ((rows lo, hi), (cols lo, hi)).
pub fn parse_size(text: &str) -> Result<(Span, Span), GenError> {
    let (r, c) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| GenError::BadOption {
            option: "--size",
            message: format!("{text:?} is not RxC (e.g. 30x30 or 5-12x5-12)"),
        })?;
    Ok((parse_range("--size", r)?, parse_range("--size", c)?))
}

/// Reads an optional range option, falling back to `default`, and clamps it into `limits`.
pub fn range_option(
    option: &'static str,
    value: Option<&str>,
    default: Span,
    limits: Span,
) -> Result<Span, GenError> {
    let (lo, hi) = match value {
        Some(text) => parse_range(option, text)?,
        None => default,
    };
    if lo < limits.0 || hi > limits.1 {
        return Err(GenError::BadOption {
            option,
            message: format!("{lo}-{hi} is outside {}-{}", limits.0, limits.1),
        });
    }
    Ok((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_depend_on_every_key_part() {
        let first = |g, p, s, i| file_rng(g, p, s, i).next_u64();
        let base = first("yut", "random", 1, 0);
        assert_eq!(base, first("yut", "random", 1, 0));
        assert_ne!(base, first("yut", "random", 2, 0));
        assert_ne!(base, first("yut", "random", 1, 1));
        assert_ne!(base, first("yut", "long", 1, 0));
        assert_ne!(base, first("vexed", "random", 1, 0));
    }

    #[test]
    fn dice_stay_in_range_and_cover_it() {
        let mut dice = Dice::new(file_rng("t", "t", 7, 0));
        let mut seen = [false; 6];
        for _ in 0..1000 {
            let x = dice.range(3, 8);
            assert!((3..=8).contains(&x));
            seen[(x - 3) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(dice.weighted(&[0, 5, 0]), 1);
    }

    #[test]
    fn ranges_and_sizes_parse() {
        assert_eq!(parse_range("--x", "5"), Ok((5, 5)));
        assert_eq!(parse_range("--x", "5-12"), Ok((5, 12)));
        assert!(parse_range("--x", "12-5").is_err());
        assert!(parse_range("--x", "a").is_err());
        assert_eq!(parse_size("30x30"), Ok(((30, 30), (30, 30))));
        assert_eq!(parse_size("1-10x2-40"), Ok(((1, 10), (2, 40))));
        assert!(parse_size("30").is_err());
    }
}
