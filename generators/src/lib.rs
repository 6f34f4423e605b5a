//! The generic machinery of seeded judge-input generators; the games' own generators live with
//! their games and implement [`Generator`].
//!
//! This crate knows no game: it provides what every generator shares, namely
//! - the random stream of one file ([`file_rng`]) and the fixed-arithmetic choices drawn from it
//!   ([`Dice`]);
//! - the parsing of range and size options (`N`, `A-B`, `RxC`: [`parse_range`], [`parse_size`],
//!   [`range_option`]);
//! - named profiles ([`Profile`]) and the check that a requested one exists ([`generate`]);
//! - file names (`<game>-<profile>-<seed>-<k>`, [`FileId::stem`]);
//! - the [`Generator`] trait, whose associated [`Generator::Args`] is the game's own `clap`
//!   options, so each game declares exactly the options it reads.
//!
//! It depends on nothing in gamebench (gamebench depends on it). What a generator needs from its
//! host besides randomness (gamebench lends each game a solver for its own cases) is the
//! generator's [`Generator::Tools`] type, chosen by the host.
//!
//! Determinism: a file is a pure function of (game, profile, options, seed, file index). Each
//! file draws from its own ChaCha8 stream keyed by those names and numbers ([`file_rng`]), and
//! every random choice goes through [`Dice`], whose arithmetic is written here, so the bytes do
//! not depend on thread count, sharding, or on any `rand` version's sampling algorithms.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// What can go wrong when generating.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GenError {
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

/// A named set of defaults of a generator, with one line for `gamebench list` and `--help`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    pub name: &'static str,
    pub about: &'static str,
}

impl Profile {
    pub const fn new(name: &'static str, about: &'static str) -> Profile {
        Profile { name, about }
    }
}

/// The options of games whose files hold many boards: how many, how large, with how many
/// distinct symbols. A game flattens it into its own options; each game checks the values
/// against its own limits.
#[derive(clap::Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct BoardArgs {
    /// Cases (boards) per file.
    #[arg(long)]
    pub cases: Option<usize>,
    /// Board size RxC, each side N or A-B (e.g. 30x30, 5-12x5-12).
    #[arg(long)]
    pub size: Option<String>,
    /// Number of distinct symbols (letters, values), N or A-B.
    #[arg(long)]
    pub symbols: Option<String>,
}

/// A game's options read from command-line words (without the program name), as `gen` reads
/// them: for tests and tools that drive a generator directly.
pub fn parse_args<A: clap::Args>(words: &[&str]) -> Result<A, clap::Error> {
    let cmd = A::augment_args(clap::Command::new("gen"));
    let matches = cmd.try_get_matches_from(std::iter::once("gen").chain(words.iter().copied()))?;
    A::from_arg_matches(&matches)
}

/// One file of a corpus: which game, profile, seed and 0-based index it is. Its name and its
/// random stream are functions of these four values only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileId<'a> {
    pub game: &'a str,
    pub profile: &'a str,
    pub seed: u64,
    pub index: u64,
}

impl FileId<'_> {
    /// The file's random stream (see [`file_rng`]).
    pub fn rng(&self) -> ChaCha8Rng {
        file_rng(self.game, self.profile, self.seed, self.index)
    }

    /// `<game>-<profile>-<seed>-<k>`, `k` zero-padded to the width of the largest index of a
    /// corpus of `count` files, so the names sort in index order.
    pub fn stem(&self, count: u64) -> String {
        let width = (count.max(1) - 1).to_string().len();
        format!(
            "{}-{}-{}-{:0width$}",
            self.game, self.profile, self.seed, self.index
        )
    }
}

/// A game's generator of judge input files.
pub trait Generator {
    /// The game's own command-line options: only those the generator reads.
    type Args: clap::Args + Send + Sync + 'static;
    /// What the host lends the generator for a file, e.g. a solver for the game's own cases to
    /// keep only candidates with a wanted answer. Generators that need nothing ignore it.
    type Tools: ?Sized;
    /// The profiles, in the order `gamebench list` shows them.
    const PROFILES: &'static [Profile];

    /// Writes the judge input of `file`, drawing every random choice from `dice`. The profile
    /// is one of [`Generator::PROFILES`] (checked by [`generate`]).
    fn generate(
        file: &FileId<'_>,
        args: &Self::Args,
        dice: &mut Dice,
        tools: &Self::Tools,
    ) -> Result<String, GenError>;
}

/// Generates `file` with generator `G`: checks the profile, then runs `G` on the file's own
/// random stream.
pub fn generate<G: Generator>(
    file: &FileId<'_>,
    args: &G::Args,
    tools: &G::Tools,
) -> Result<String, GenError> {
    if !G::PROFILES.iter().any(|p| p.name == file.profile) {
        return Err(GenError::UnknownProfile {
            game: file.game.to_string(),
            profile: file.profile.to_string(),
            known: G::PROFILES
                .iter()
                .map(|p| p.name)
                .collect::<Vec<_>>()
                .join(", "),
        });
    }
    let mut dice = Dice::new(file.rng());
    G::generate(file, args, &mut dice, tools)
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

/// An optional `--size`, falling back to `default` (rows, cols).
pub fn size_option(value: Option<&str>, default: (Span, Span)) -> Result<(Span, Span), GenError> {
    value.map_or(Ok(default), parse_size)
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
        let base = first("g", "p", 1, 0);
        assert_eq!(base, first("g", "p", 1, 0));
        assert_ne!(base, first("g", "p", 2, 0));
        assert_ne!(base, first("g", "p", 1, 1));
        assert_ne!(base, first("g", "q", 1, 0));
        assert_ne!(base, first("h", "p", 1, 0));
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
        assert_eq!(size_option(None, ((1, 2), (3, 4))), Ok(((1, 2), (3, 4))));
        assert_eq!(range_option("--x", None, (2, 3), (1, 9)), Ok((2, 3)));
        assert!(range_option("--x", Some("0-3"), (2, 3), (1, 9)).is_err());
    }

    #[test]
    fn stems_are_zero_padded_to_the_largest_index() {
        let file = |index| FileId {
            game: "g",
            profile: "p",
            seed: 3,
            index,
        };
        assert_eq!(file(0).stem(1), "g-p-3-0");
        assert_eq!(file(0).stem(0), "g-p-3-0");
        assert_eq!(file(7).stem(10), "g-p-3-7");
        assert_eq!(file(7).stem(11), "g-p-3-07");
        assert_eq!(file(42).stem(1000), "g-p-3-042");
    }

    /// A generator of one number per file, to test the generic checks.
    struct Count;

    #[derive(clap::Args)]
    struct CountArgs {
        #[arg(long)]
        top: Option<String>,
    }

    impl Generator for Count {
        type Args = CountArgs;
        type Tools = ();
        const PROFILES: &'static [Profile] = &[Profile::new("only", "a number")];

        fn generate(
            _file: &FileId<'_>,
            args: &CountArgs,
            dice: &mut Dice,
            _tools: &(),
        ) -> Result<String, GenError> {
            let (lo, hi) = range_option("--top", args.top.as_deref(), (1, 9), (1, 99))?;
            Ok(format!("{}\n", dice.range(lo, hi)))
        }
    }

    #[test]
    fn generate_checks_the_profile_and_is_deterministic() {
        let args = CountArgs { top: None };
        let file = FileId {
            game: "count",
            profile: "only",
            seed: 1,
            index: 0,
        };
        let text = generate::<Count>(&file, &args, &()).unwrap();
        assert_eq!(text, generate::<Count>(&file, &args, &()).unwrap());
        let other = FileId {
            profile: "nope",
            ..file
        };
        assert_eq!(
            generate::<Count>(&other, &args, &()),
            Err(GenError::UnknownProfile {
                game: "count".into(),
                profile: "nope".into(),
                known: "only".into(),
            })
        );
        let bad: CountArgs = parse_args(&["--top", "0-100"]).unwrap();
        assert!(generate::<Count>(&file, &bad, &()).is_err());
        assert!(parse_args::<CountArgs>(&["--cases", "3"]).is_err());
    }
}
