//! In-process fuzzing of every game's parser, validator and checker: proptest over arbitrary
//! bytes and over mutated valid files (generator output and the bundled samples with byte
//! flips, insertions, deletions, line duplications, truncations and splices of tokens that
//! matter to the formats: `0 0`, huge numbers, `\r`, tabs).
//!
//! What must hold on every input: nothing panics; nothing hangs (each execution is timed);
//! every parser error and every violation names a line inside the input (or one past its end)
//! and stays short (long garbage is quoted shortened); a mutation that changes nothing is
//! still valid; the checker judges any output without panicking.
//!
//! The normal suite runs a few hundred executions per game; the long run is ignored:
//!
//! ```sh
//! cargo test --release --test integration -- --ignored fuzz:: --nocapture   # 1M executions per game
//! FUZZ_EXECUTIONS=100000 cargo test --release --test integration -- --ignored fuzz::fuzz_linkpop_long
//! ```

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use gamebench::game::Game;
use gamebench::registry;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

use crate::common;
use common::{gen_options, generate, has_option, sample_inputs};

/// The slowest a single execution (parse, validate and check one input of at most a few
/// kilobytes) may be before it counts as a hang. Generous: the CI machine is shared.
const HANG: Duration = Duration::from_secs(2);
/// Longest message an error or violation may have: inputs are quoted shortened.
const MAX_MESSAGE: usize = 600;
/// Executions per game in the normal suite.
const SHORT_RUN: u32 = 300;
/// Executions per game in the ignored long run (`FUZZ_EXECUTIONS` overrides).
const LONG_RUN: u32 = 1_000_000;

/// A game's name and its seed files.
type GameSeeds = (&'static str, Vec<Vec<u8>>);

/// Valid files of `game` to mutate: generated with small counts (every profile, two seeds)
/// and the bundled samples under 8 KB.
fn seeds(game: &'static dyn Game) -> &'static [Vec<u8>] {
    static SEEDS: OnceLock<Vec<GameSeeds>> = OnceLock::new();
    let all = SEEDS.get_or_init(|| {
        registry::GAMES
            .iter()
            .map(|&g| (g.name(), make_seeds(g)))
            .collect()
    });
    &all.iter().find(|(name, _)| *name == game.name()).unwrap().1
}

fn make_seeds(game: &'static dyn Game) -> Vec<Vec<u8>> {
    let words: &[&str] = if has_option(game, "cases") {
        &["--cases", "2"]
    } else {
        &[]
    };
    let options = gen_options(game, words);
    let mut seeds = Vec::new();
    for profile in game.generator().profiles() {
        for seed in 1..=2 {
            let text = generate(game, &options, profile.name, seed, 0);
            if text.len() <= 8192 {
                seeds.push(text.into_bytes());
            }
        }
    }
    for path in sample_inputs(game.name()) {
        let bytes = std::fs::read(path).unwrap();
        if bytes.len() <= 8192 {
            seeds.push(bytes);
        }
    }
    assert!(!seeds.is_empty(), "{}: no seed", game.name());
    for seed in &seeds {
        assert!(
            game.validate(seed).is_valid(),
            "{}: a seed is not valid",
            game.name()
        );
    }
    seeds
}

/// Byte strings that matter to the formats, spliced in by [`Mutation::Splice`].
const SPLICES: &[&[u8]] = &[
    b"0 0\n",
    b"0",
    b" ",
    b"  ",
    b"\t",
    b"\r\n",
    b"\r",
    b"\n",
    b"\n\n",
    b"99999999999999999999999999",
    b"18446744073709551616",
    b"4294967296",
    b"-1",
    b"30 30\n",
    b"9 9 X\n",
    b"100\n",
    b"A FFFF\n",
    b"AS",
    b"(A,0,1,R)",
    b"\x00",
    b"\xff\xfe",
];

/// One edit of a valid file.
#[derive(Debug, Clone)]
enum Mutation {
    /// Flip bit `bit` of the byte at the index.
    Flip(prop::sample::Index, u8),
    /// Insert a byte.
    Insert(prop::sample::Index, u8),
    /// Delete up to `n` bytes.
    Delete(prop::sample::Index, usize),
    /// Duplicate the line holding the index.
    DuplicateLine(prop::sample::Index),
    /// Cut the file there.
    Truncate(prop::sample::Index),
    /// Insert one of [`SPLICES`].
    Splice(prop::sample::Index, prop::sample::Index),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<prop::sample::Index>(), 0u8..8).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, b)| Mutation::Insert(i, b)),
        (any::<prop::sample::Index>(), 1usize..16).prop_map(|(i, n)| Mutation::Delete(i, n)),
        any::<prop::sample::Index>().prop_map(Mutation::DuplicateLine),
        any::<prop::sample::Index>().prop_map(Mutation::Truncate),
        (any::<prop::sample::Index>(), any::<prop::sample::Index>())
            .prop_map(|(i, s)| Mutation::Splice(i, s)),
    ]
}

fn apply(bytes: &mut Vec<u8>, mutation: &Mutation) {
    if bytes.is_empty() {
        bytes.push(b'0');
    }
    match mutation {
        Mutation::Flip(i, bit) => {
            let at = i.index(bytes.len());
            bytes[at] ^= 1 << bit;
        }
        Mutation::Insert(i, b) => {
            let at = i.index(bytes.len() + 1);
            bytes.insert(at, *b);
        }
        Mutation::Delete(i, n) => {
            let at = i.index(bytes.len());
            let end = (at + n).min(bytes.len());
            bytes.drain(at..end);
        }
        Mutation::DuplicateLine(i) => {
            let at = i.index(bytes.len());
            let start = bytes[..at]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1);
            let end = bytes[at..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |p| at + p + 1);
            let line = bytes[start..end].to_vec();
            bytes.splice(end..end, line);
        }
        Mutation::Truncate(i) => {
            let at = i.index(bytes.len() + 1);
            bytes.truncate(at);
        }
        Mutation::Splice(i, s) => {
            let at = i.index(bytes.len() + 1);
            let piece = SPLICES[s.index(SPLICES.len())];
            bytes.splice(at..at, piece.iter().copied());
        }
    }
}

/// A fuzz input: arbitrary bytes, or a seed with a few mutations.
fn input(game: &'static dyn Game) -> BoxedStrategy<Vec<u8>> {
    let seeds = seeds(game);
    let arbitrary = proptest::collection::vec(any::<u8>(), 0..400);
    let text = proptest::collection::vec(
        prop_oneof![
            Just(b' '),
            Just(b'\n'),
            b'0'..=b'9',
            b'A'..=b'Z',
            Just(b'#'),
            Just(b'-'),
            Just(b'.')
        ],
        0..400,
    );
    let mutated = (0..seeds.len(), proptest::collection::vec(mutation(), 0..6)).prop_map(
        move |(k, mutations)| {
            let mut bytes = seeds[k].clone();
            for m in &mutations {
                apply(&mut bytes, m);
            }
            bytes
        },
    );
    prop_oneof![1 => arbitrary, 1 => text, 4 => mutated].boxed()
}

/// The properties every input must have; see the module doc.
fn exercise(game: &'static dyn Game, input: &[u8]) -> Result<(), TestCaseError> {
    let start = Instant::now();
    let lines = input.split(|&b| b == b'\n').count();
    let located = |line: usize| (1..=lines + 1).contains(&line);

    let parsed = game.parse(input, &gamebench::game::Reading::STATEMENT);
    for case in &parsed {
        if let Err(e) = &case.case {
            prop_assert!(located(e.line), "parser: line {} of {lines}: {e}", e.line);
            prop_assert!(!e.message.is_empty());
            prop_assert!(
                e.message.len() <= MAX_MESSAGE,
                "parser: {} bytes",
                e.message.len()
            );
        }
    }

    let validation = game.validate(input);
    for v in &validation.violations {
        let text = v.to_string();
        prop_assert!(
            located(v.line),
            "validator: line {} of {lines}: {text}",
            v.line
        );
        prop_assert!(text.contains(&format!("line {}: ", v.line)), "{text}");
        prop_assert!(!v.found.is_empty() && !v.constraint.is_empty(), "{text}");
        prop_assert!(
            text.len() <= MAX_MESSAGE,
            "validator: {} bytes: {text}",
            text.len()
        );
    }
    prop_assert!(validation.violations.len() <= gamebench::validate::MAX_VIOLATIONS);
    // A valid input is one the lenient parser reads whole: every case, no error.
    if validation.is_valid() {
        prop_assert_eq!(validation.cases, parsed.len());
        prop_assert!(
            parsed.iter().all(|p| p.case.is_ok()),
            "valid but unparsable"
        );
    }

    // The checker on arbitrary outputs: the input itself stands for both the expected and
    // the produced output (garbage for the checker, often close to a well-formed block).
    let text = String::from_utf8_lossy(input);
    let blocks = game.split_output(&text);
    for (i, case) in parsed.iter().enumerate().take(4) {
        if let Ok(case) = &case.case {
            let expected = blocks.get(i).map_or("", String::as_str);
            let actual = blocks.get(i + 1).map_or("", String::as_str);
            let _ = game.judge_output(case.as_ref(), expected, actual);
            let _ = game.judge_output(case.as_ref(), actual, expected);
        }
    }
    let elapsed = start.elapsed();
    prop_assert!(elapsed < HANG, "{} took {elapsed:?}", game.name());
    Ok(())
}

/// Runs `executions` fuzz inputs on `game`; fails on the first input breaking a property
/// (shrunk by proptest) and reports the throughput.
fn fuzz(name: &str, executions: u32) {
    let game = registry::find(name).unwrap();
    let strategy = input(game);
    let mut runner = TestRunner::new(Config {
        cases: executions,
        failure_persistence: None,
        ..Config::default()
    });
    let start = Instant::now();
    let result = runner.run(&strategy, |bytes| exercise(game, &bytes));
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
    eprintln!(
        "fuzz {name}: {executions} inputs (parser, validator, checker each) in {:.1?}",
        start.elapsed()
    );
}

#[test]
fn fuzz_linkpop() {
    fuzz("linkpop", SHORT_RUN);
}

#[test]
fn fuzz_samegame() {
    fuzz("samegame", SHORT_RUN);
}

#[test]
fn fuzz_vexed() {
    fuzz("vexed", SHORT_RUN);
}

#[test]
fn fuzz_yut() {
    fuzz("yut", SHORT_RUN);
}

fn long_run() -> u32 {
    std::env::var("FUZZ_EXECUTIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(LONG_RUN)
}

#[test]
#[ignore = "long: 1M executions per game (see the module doc)"]
fn fuzz_linkpop_long() {
    fuzz("linkpop", long_run());
}

#[test]
#[ignore = "long: 1M executions per game (see the module doc)"]
fn fuzz_samegame_long() {
    fuzz("samegame", long_run());
}

#[test]
#[ignore = "long: 1M executions per game (see the module doc)"]
fn fuzz_vexed_long() {
    fuzz("vexed", long_run());
}

#[test]
#[ignore = "long: 1M executions per game (see the module doc)"]
fn fuzz_yut_long() {
    fuzz("yut", long_run());
}

/// Linear time on large inputs: a megabyte of one token, of one long line, of many short
/// lines; parsing and validating each stays far below a second.
#[test]
fn large_inputs_take_linear_time() {
    let megabyte = 1 << 20;
    let inputs: Vec<Vec<u8>> = vec![
        vec![b'9'; megabyte],
        vec![b'A'; megabyte],
        b"1 1\n".repeat(megabyte / 4),
        b"0 ".repeat(megabyte / 2),
        b"\n".repeat(megabyte),
        b"9 9 X\n".repeat(megabyte / 6),
        [
            b"99999999 99999999\n".as_slice(),
            &b"1 ".repeat(megabyte / 2),
        ]
        .concat(),
    ];
    for &game in registry::GAMES {
        for input in &inputs {
            let start = Instant::now();
            let parsed = game.parse(input, &gamebench::game::Reading::STATEMENT);
            let validation = game.validate(input);
            let elapsed = start.elapsed();
            assert!(
                elapsed < Duration::from_secs(3),
                "{}: {elapsed:?} on {} bytes",
                game.name(),
                input.len()
            );
            for v in &validation.violations {
                assert!(v.to_string().len() <= MAX_MESSAGE, "{v}");
            }
            for p in &parsed {
                if let Err(e) = &p.case {
                    assert!(
                        e.message.len() <= MAX_MESSAGE,
                        "{}: {}",
                        game.name(),
                        e.message.len()
                    );
                }
            }
        }
    }
}
