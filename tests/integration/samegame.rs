//! SameGame end to end: the corpus files byte for byte, the engines against each other on
//! thousands of random games, and the parser against arbitrary bytes.

use std::path::Path;

use gamebench::game::{Budget, Rules};
use gamebench::games::samegame::generator::SameGameArgs as Options;
use gamebench::games::samegame::{Game, MAX_COLS, MAX_ROWS, MAX_VALUE, SameGame, Selection};
use gamebench::generate;
use gamebench_generators::parse_args;
use proptest::prelude::*;

/// The judge output of `input` with engine `engine` (every grid must parse).
fn judge(input: &[u8], engine: &str) -> String {
    let engine = SameGame::ENGINES
        .iter()
        .find(|e| e.name == engine)
        .expect("engine");
    let parsed = SameGame::parse(input, &gamebench::game::Reading::STATEMENT);
    let blocks: Vec<String> = parsed
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let game = p
                .case
                .as_ref()
                .unwrap_or_else(|e| panic!("grid {}: {e}", k + 1));
            let outcome = (engine.solve)(game, &Budget::UNLIMITED).expect("simulation");
            SameGame::format_case(k + 1, game, &outcome)
        })
        .collect();
    blocks.join(SameGame::SEPARATOR)
}

/// Every `X.in` of `corpora/samegame` with its `X.out`, solved by every engine.
#[test]
fn corpus_files_byte_for_byte() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/samegame");
    let mut checked = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpora/samegame")
        .flatten()
        .collect();
    entries.sort_by_key(|e| e.path());
    for entry in entries {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("in") {
            continue;
        }
        let input = std::fs::read(&path).unwrap();
        let expected = std::fs::read_to_string(path.with_extension("out"))
            .unwrap_or_else(|_| panic!("{} has no .out", path.display()));
        for engine in SameGame::ENGINES {
            let actual = judge(&input, engine.name);
            if let Some(diff) = gamebench::game::first_difference(&expected, &actual) {
                panic!("{} with {}: {diff}", path.display(), engine.name);
            }
        }
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} corpus files found");
}

/// The sample of the statement, with the spec's corrected spacing.
#[test]
fn sample_is_in_the_corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/samegame");
    let expected = "Grid 1.\n    Game Won\n\nGrid 2.\n             \n    1   2    \n    1 2 1    \n\n\
                    Grid 3.\n    Game Won\n";
    assert_eq!(
        std::fs::read_to_string(dir.join("sample.out")).unwrap(),
        expected
    );
    let input = std::fs::read(dir.join("sample.in")).unwrap();
    assert_eq!(judge(&input, "bitboard"), expected);
}

/// Both engines on one game: same grid left and same number of removals.
fn assert_engines_agree(game: &Game) {
    let engines = SameGame::ENGINES;
    let reference = (engines[0].solve)(game, &Budget::UNLIMITED).unwrap();
    for engine in &engines[1..] {
        let other = (engine.solve)(game, &Budget::UNLIMITED).unwrap();
        assert_eq!(
            reference.answer, other.answer,
            "{} on {game:?}",
            engine.name
        );
        assert_eq!(reference.work, other.work, "{} on {game:?}", engine.name);
    }
}

/// Random games: any shape, few values (so regions are large and columns empty often), and
/// selections that favour cells inside the grid but reach past every edge.
fn games() -> impl Strategy<Value = Game> {
    (1..=MAX_ROWS, 1..=MAX_COLS, 1..=MAX_VALUE + 1).prop_flat_map(|(rows, cols, values)| {
        let cells = proptest::collection::vec(0..values, rows * cols);
        let row = prop_oneof![9 => 1..=rows as u32, 1 => 0..=rows as u32 + 2, 1 => Just(u32::MAX)];
        let col = prop_oneof![9 => 1..=cols as u32, 1 => 0..=cols as u32 + 2, 1 => Just(123_456)];
        let selections = proptest::collection::vec(
            (row, col).prop_map(|(row, col)| Selection { row, col }),
            0..=300,
        );
        (cells, selections).prop_map(move |(cells, selections)| {
            Game::new(rows, cols, cells, selections).expect("valid by construction")
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn engines_agree_on_random_games(game in games()) {
        assert_engines_agree(&game);
    }

    #[test]
    fn parsing_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let parsed = SameGame::parse(&bytes, &gamebench::game::Reading::STATEMENT);
        for p in parsed {
            if let Err(e) = p.case {
                prop_assert!(e.line >= 1 && e.line <= bytes.len() + 1);
            }
        }
    }

    #[test]
    fn parsing_digits_and_spaces_never_panics(
        text in "[0-9 \n]{0,120}|([0-9]{1,3}[ \t\n]){0,60}|(1?[0-9]{1,25} ){0,20}"
    ) {
        let parsed = SameGame::parse(text.as_bytes(), &gamebench::game::Reading::STATEMENT);
        for p in parsed.iter().filter_map(|p| p.case.as_ref().ok()) {
            assert_engines_agree(p);
        }
    }
}

/// Generated files of every profile and layout: the engines agree on every grid (thousands of
/// grids in all), and every layout of a seed reads as the same games.
#[test]
fn engines_agree_on_generated_files() {
    let mut grids = 0;
    for (profile, cases) in [
        ("random", 40),
        ("full", 15),
        ("won", 40),
        ("shapes", 10),
        ("throughput", 15),
    ] {
        for seed in 0..10 {
            let mut first: Option<Vec<Game>> = None;
            for layout in ["canonical", "one-line", "one-per-line", "messy"] {
                let options: Options =
                    parse_args(&["--cases", &cases.to_string(), "--layout", layout]).unwrap();
                let text = generate::file::<SameGame>(profile, &options, seed, 0).unwrap();
                let games: Vec<Game> =
                    SameGame::parse(text.as_bytes(), &gamebench::game::Reading::STATEMENT)
                        .into_iter()
                        .map(|p| {
                            p.case
                                .unwrap_or_else(|e| panic!("{profile} {seed} {layout}: {e}"))
                        })
                        .collect();
                assert_eq!(games.len(), cases);
                match &first {
                    None => {
                        for game in &games {
                            assert_engines_agree(game);
                        }
                        grids += games.len();
                        first = Some(games);
                    }
                    Some(canonical) => assert_eq!(canonical, &games, "{profile} {seed} {layout}"),
                }
            }
        }
    }
    assert!(grids >= 1000);
}

/// The `won` profile's games end in `Game Won` with both engines.
#[test]
fn won_profile_games_are_won() {
    let text = generate::file::<SameGame>("won", &Options::default(), 7, 0).unwrap();
    let output = judge(text.as_bytes(), "bitboard");
    assert_eq!(output, judge(text.as_bytes(), "reference"));
    let blocks = SameGame::split_output(&output);
    assert_eq!(blocks.len(), 20);
    for block in blocks {
        assert!(block.ends_with(".\n    Game Won\n"), "{block}");
    }
}

/// Cutting a valid file anywhere, or flipping a byte, never panics, and grids before the cut
/// still parse.
#[test]
fn damaged_files_never_panic() {
    let options: Options = parse_args(&["--cases", "6", "--layout", "messy"]).unwrap();
    let text = generate::file::<SameGame>("random", &options, 3, 0).unwrap();
    let bytes = text.as_bytes();
    for cut in (0..bytes.len()).step_by(7) {
        let parsed = SameGame::parse(&bytes[..cut], &gamebench::game::Reading::STATEMENT);
        assert!(parsed.len() <= 6);
    }
    for (i, garbage) in [b'x', b'-', 0xff, b'0', b'\n', 0].into_iter().enumerate() {
        for at in (i..bytes.len()).step_by(37) {
            let mut damaged = bytes.to_vec();
            damaged[at] = garbage;
            let _ = SameGame::parse(&damaged, &gamebench::game::Reading::STATEMENT);
        }
    }
}

/// The generated part of `corpora/samegame`: (profile, seed, grids per file, layout). File
/// `samegame-<profile>-<seed>-0.in` is what `gamebench gen samegame --profile <profile>
/// --seed <seed> --count 1 --cases <grids> --layout <layout>` writes.
const GENERATED: &[(&str, u64, usize, &str)] = &[
    ("random", 1, 12, "canonical"),
    ("full", 1, 3, "messy"),
    ("won", 1, 10, "one-line"),
    ("shapes", 1, 5, "canonical"),
    ("throughput", 1, 2, "one-per-line"),
];

fn generated_text(profile: &str, seed: u64, cases: usize, layout: &str) -> String {
    let options: Options =
        parse_args(&["--cases", &cases.to_string(), "--layout", layout]).unwrap();
    generate::file::<SameGame>(profile, &options, seed, 0).unwrap()
}

fn generated_path(profile: &str, seed: u64) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpora/samegame")
        .join(format!("samegame-{profile}-{seed}-0.in"))
}

/// The committed generated inputs are exactly what the generator writes today (its output is
/// byte-stable); their `.out` files are checked by `corpus_files_byte_for_byte`.
#[test]
fn generated_corpus_inputs_are_reproducible() {
    for &(profile, seed, cases, layout) in GENERATED {
        let committed = std::fs::read_to_string(generated_path(profile, seed)).unwrap();
        assert_eq!(
            committed,
            generated_text(profile, seed, cases, layout),
            "{profile}"
        );
    }
}

/// Rewrites the generated corpus files; the expected outputs come from the `reference`
/// engine (regression data). Run on purpose:
/// `cargo test --release --test integration -- --ignored samegame::write_generated_corpus`.
#[test]
#[ignore = "rewrites corpora/samegame"]
fn write_generated_corpus() {
    for &(profile, seed, cases, layout) in GENERATED {
        let text = generated_text(profile, seed, cases, layout);
        let path = generated_path(profile, seed);
        std::fs::write(&path, &text).unwrap();
        std::fs::write(
            path.with_extension("out"),
            judge(text.as_bytes(), "reference"),
        )
        .unwrap();
    }
}
