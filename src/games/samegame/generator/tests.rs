//! The SameGame generator's tests: every profile and layout, the won games, determinism.

use super::*;

fn args(words: &[&str]) -> SameGameArgs {
    gamebench_generators::parse_args(words).unwrap()
}

fn file(profile: &str, options: &SameGameArgs, seed: u64) -> String {
    crate::game::file::<SameGame>(profile, options, seed, 0).unwrap()
}

fn numbers(text: &str) -> Vec<u64> {
    text.split_ascii_whitespace()
        .map(|t| t.parse().unwrap())
        .collect()
}

/// Rows, columns, values and selection pairs of one grid of a stream.
type GridText = (usize, usize, Vec<u8>, Vec<(u64, u64)>);

/// Walks a stream: (rows, cols, cells, pairs) per grid, checking the structure.
fn grids(text: &str) -> Vec<GridText> {
    let n = numbers(text);
    let mut i = 0;
    let mut out = Vec::new();
    loop {
        let (rows, cols) = (n[i] as usize, n[i + 1] as usize);
        i += 2;
        if rows == 0 || cols == 0 {
            assert_eq!(i, n.len(), "nothing after the terminator");
            return out;
        }
        let cells: Vec<u8> = n[i..i + rows * cols].iter().map(|&v| v as u8).collect();
        assert!(cells.iter().all(|&v| v <= 9));
        i += rows * cols;
        let mut pairs = Vec::new();
        while (n[i], n[i + 1]) != (0, 0) {
            pairs.push((n[i], n[i + 1]));
            i += 2;
        }
        i += 2;
        out.push((rows, cols, cells, pairs));
    }
}

#[test]
fn same_seed_same_bytes() {
    let options = SameGameArgs::default();
    assert_eq!(file(RANDOM, &options, 3), file(RANDOM, &options, 3));
    assert_ne!(file(RANDOM, &options, 3), file(RANDOM, &options, 4));
}

#[test]
fn every_layout_holds_the_same_tokens() {
    let mut texts = Vec::new();
    for layout in ["canonical", "one-line", "one-per-line", "messy"] {
        let options = args(&["--layout", layout]);
        texts.push(file(RANDOM, &options, 9));
    }
    for text in &texts {
        assert_eq!(numbers(text), numbers(&texts[0]));
        assert!(text.ends_with('\n'));
    }
    assert_eq!(texts[1].lines().count(), 1);
    assert_eq!(texts[2].lines().count(), numbers(&texts[0]).len());
    assert!(texts[3].contains('\t'));
}

#[test]
fn won_games_are_won_before_their_extra_pairs() {
    for seed in 0..10 {
        for (rows, cols, cells, pairs) in grids(&file(WON, &SameGameArgs::default(), seed)) {
            let mut board = board_of(rows, cols, &cells);
            let mut extra = 0;
            for (r, c) in pairs {
                if board.is_empty() {
                    extra += 1;
                    continue;
                }
                let inside = (1..=rows as u64).contains(&r) && (1..=cols as u64).contains(&c);
                if inside && board.get(r as usize - 1, c as usize - 1).is_some() {
                    let region = board.region(r as usize - 1, c as usize - 1);
                    if region.len() >= MIN_REGION {
                        board.remove(&region);
                    }
                }
            }
            assert!(board.is_empty(), "seed {seed}");
            assert!(extra >= 1);
        }
    }
    // One row and a forced construction still win.
    let mut dice = Dice::new(file_rng(SameGame::NAME, WON, 1, 0));
    for cols in 2..=9 {
        let grid = Grid {
            rows: 1,
            cols,
            symbols: 9,
            moves: 0,
        };
        let (cells, line) = constructed_win(grid, &mut dice);
        let mut board = board_of(1, cols, &cells);
        for cell in line {
            let region = board.region(cell.0, cell.1);
            assert!(region.len() >= MIN_REGION);
            board.remove(&region);
        }
        assert!(board.is_empty());
    }
}

#[test]
fn shapes_and_throughput_have_their_sizes() {
    let shapes = grids(&file(SHAPES, &SameGameArgs::default(), 2));
    let sizes: Vec<(usize, usize)> = shapes.iter().map(|g| (g.0, g.1)).collect();
    assert_eq!(sizes[..4], [(1, 1), (1, 40), (10, 1), (10, 40)]);
    // The fifth is a checkerboard: no cell has an equal neighbour.
    let board = board_of(shapes[4].0, shapes[4].1, &shapes[4].2);
    assert!(removable_cells(&board).is_empty());
    let options = args(&["--cases", "20"]);
    for (rows, cols, _, pairs) in grids(&file(THROUGHPUT, &options, 1)) {
        assert_eq!((rows, cols), (10, 40));
        assert!((150..=300).contains(&pairs.len()));
    }
}

#[test]
fn selections_mix_every_kind() {
    let options = args(&["--cases", "5"]);
    let (mut outside, mut zero) = (0, 0);
    for (rows, cols, _, pairs) in grids(&file(FULL, &options, 4)) {
        for (r, c) in pairs {
            outside += usize::from(r > rows as u64 || c > cols as u64);
            zero += usize::from(r == 0 || c == 0);
        }
    }
    assert!(outside > 0 && zero > 0);
}

#[test]
fn bad_options_are_rejected() {
    let mut dice = Dice::new(file_rng(SameGame::NAME, RANDOM, 1, 0));
    let bad = |o: SameGameArgs, dice: &mut Dice| {
        generate(RANDOM, &o, dice, ZeroPair::AsStatement).is_err()
    };
    assert!(bad(args(&["--size", "11x5"]), &mut dice));
    assert!(bad(args(&["--size", "5x41"]), &mut dice));
    assert!(bad(args(&["--symbols", "11"]), &mut dice));
    assert!(bad(args(&["--layout", "fancy"]), &mut dice));
    let one = args(&["--size", "1x1"]);
    assert!(generate(WON, &one, &mut dice, ZeroPair::AsStatement).is_err());
}

/// Under `--zero-pair ends-list` the generator writes no selection `0 c` (it would end the
/// list there); under the statement's reading the same seeds do write some (they are ignored
/// out-of-range cells, an edge case of the statement).
#[test]
fn no_zero_row_pair_when_any_zero_pair_ends_the_list() {
    let options = args(&["--cases", "5"]);
    for profile in [RANDOM, FULL, WON, SHAPES] {
        let (mut statement, mut ends_list) = (0, 0);
        for seed in 0..4 {
            let mut dice = Dice::new(file_rng(SameGame::NAME, profile, seed, 0));
            let text = generate(profile, &options, &mut dice, ZeroPair::EndsList).unwrap();
            for (_, _, _, pairs) in grids(&text) {
                ends_list += pairs.iter().filter(|p| p.0 == 0).count();
            }
            let mut dice = Dice::new(file_rng(SameGame::NAME, profile, seed, 0));
            let text = generate(profile, &options, &mut dice, ZeroPair::AsStatement).unwrap();
            for (_, _, _, pairs) in grids(&text) {
                statement += pairs.iter().filter(|p| p.0 == 0).count();
            }
        }
        assert_eq!(ends_list, 0, "{profile}");
        if profile != SHAPES {
            assert!(statement > 0, "{profile}");
        }
    }
}

/// Under `--zero-pair any-zero-ends-list` the generator writes no selection with a zero, `0 c`
/// or `r 0` (either would end the list there); under the statement's reading the same seeds
/// write both kinds (ignored out-of-range cells).
#[test]
fn no_pair_with_a_zero_when_any_zero_ends_the_list() {
    let options = args(&["--cases", "5"]);
    let (mut statement_rows, mut statement_cols) = (0, 0);
    for profile in [RANDOM, FULL, WON, SHAPES] {
        let mut any_zero = 0;
        for seed in 0..4 {
            let mut dice = Dice::new(file_rng(SameGame::NAME, profile, seed, 0));
            let text = generate(profile, &options, &mut dice, ZeroPair::AnyZeroEndsList).unwrap();
            for (_, _, _, pairs) in grids(&text) {
                any_zero += pairs.iter().filter(|p| p.0 == 0 || p.1 == 0).count();
            }
            let mut dice = Dice::new(file_rng(SameGame::NAME, profile, seed, 0));
            let text = generate(profile, &options, &mut dice, ZeroPair::AsStatement).unwrap();
            for (_, _, _, pairs) in grids(&text) {
                statement_rows += pairs.iter().filter(|p| p.0 == 0).count();
                statement_cols += pairs.iter().filter(|p| p.1 == 0).count();
            }
        }
        assert_eq!(any_zero, 0, "{profile}");
    }
    assert!(statement_rows > 0 && statement_cols > 0);
}
