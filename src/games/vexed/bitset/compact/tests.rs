//! The codec checked by hand on a small board, then by round trips (and the portable loops
//! against BMI2) on random stable boards of every shape the engine takes.

use super::*;
use crate::games::vexed::grid::Grid;
use crate::games::vexed::test_rng::{Rng, random_grid};

fn grid(rows: &[&str]) -> Grid {
    let cols = rows[0].len();
    Grid::new(rows.len(), cols, rows.concat().into_bytes())
}

/// Worked by hand: two segments of three cells (fields of 2 bits each), counts 2 and 1; two
/// letters (one slice of `code - 1`), the blocks in cell order A (5), B (9), A (10).
#[test]
fn a_small_board_packs_as_worked_by_hand() {
    let board = grid(&["#--#", "#A-#", "#BA#", "####"]);
    let geo = Geometry::new(&board);
    let state = State::<2>::new(&geo, &board);
    let codec = Codec::new(&geo, 3);
    assert_eq!((codec.count_bits, codec.slices, codec.bits()), (4, 1, 7));
    let counts = 2 | 1 << 2;
    let letters = 0b010 << 4;
    let packed: Compact<1> = codec.pack(&state);
    assert_eq!(packed, Compact([counts | letters]));
    assert_eq!(codec.pack_portable::<2, 1>(&state), packed);
    assert_eq!(codec.unpack::<2, 1>(&packed), state);
    // Cell 6 above the A of column 2 empty, the B removed: another board, other words.
    let other = grid(&["#--#", "#--#", "#AA#", "####"]);
    let other = State::<2>::new(&geo, &other);
    assert_eq!(codec.pack::<2, 1>(&other), Compact([1 | 1 << 2]));
}

/// Shapes always tried: the original game's 10-wide levels, the judge's 9x9 boards, wide and
/// tall ones up to 128 cells, a single row and a single column.
const SHAPES: [(usize, usize); 8] = [
    (7, 10),
    (8, 10),
    (9, 9),
    (11, 11),
    (8, 16),
    (16, 8),
    (1, 128),
    (128, 1),
];

/// A random settled board: a shape of [`SHAPES`] or any size up to 128 cells, with up to
/// `letters` letters, random wall and block densities.
fn random_board(rng: &mut Rng, letters: usize) -> Grid {
    let mut grid = random_grid(rng, &SHAPES, |_| letters);
    grid.settle();
    grid
}

/// Enough words for any board: at most 128 bits of counts, five slices of 128 blocks.
const ANY: usize = 12;

/// Packs `state` into `K` words with both implementations and unpacks it with both.
fn round_trip<const P: usize, const K: usize>(codec: &Codec, state: &State<P>, drawn: &str) {
    let packed: Compact<K> = codec.pack(state);
    assert_eq!(codec.pack_portable::<P, K>(state), packed, "{drawn}");
    assert_eq!(codec.unpack::<P, K>(&packed), *state, "{drawn}");
    assert_eq!(codec.unpack_portable::<P, K>(&packed), *state, "{drawn}");
}

/// Round trips of a board and of its children (stable, with fewer or as many blocks), in
/// [`ANY`] words and in two when the codec fits them; returns whether it did.
fn check_board<const P: usize>(geo: &Geometry, board: &Grid) -> bool {
    let start = State::<P>::new(geo, board);
    let codec = Codec::new(geo, start.occupied().len() as usize);
    assert!(codec.fits::<ANY>());
    let mut boards = vec![start];
    boards.extend(start.children(geo).map(|(_, _, child)| child));
    for state in &boards {
        let drawn = state.to_grid(geo).draw();
        round_trip::<P, ANY>(&codec, state, &drawn);
        if codec.fits::<2>() {
            round_trip::<P, 2>(&codec, state, &drawn);
        }
    }
    codec.fits::<2>()
}

#[test]
fn random_boards_of_every_shape_round_trip() {
    const BOARDS: usize = 3000;
    let mut rng = Rng(0xc0de_c0de);
    let (mut in_two, mut wide, mut many_letters) = (0, 0, 0);
    for i in 0..BOARDS {
        // Every eighth board may use all 26 letters (five planes).
        let letters = if i % 8 == 0 { 26 } else { 1 + rng.below(8) };
        let board = random_board(&mut rng, letters);
        let geo = Geometry::new(&board);
        if geo.letters.is_empty() {
            continue;
        }
        wide += usize::from(!geo.narrow());
        many_letters += usize::from(geo.letters.len() > 16);
        let fits = match crate::games::vexed::bitset::planes::planes_needed(geo.letters.len()) {
            1 => check_board::<1>(&geo, &board),
            2 => check_board::<2>(&geo, &board),
            3 => check_board::<3>(&geo, &board),
            4 => check_board::<4>(&geo, &board),
            _ => check_board::<5>(&geo, &board),
        };
        in_two += usize::from(fits);
    }
    // The draw reaches every kind of board: in two words or not, past cell 63, 17+ letters.
    assert!(
        in_two > 300 && in_two < BOARDS - 300,
        "{in_two} in two words"
    );
    assert!(
        wide > 300 && many_letters > 50,
        "{wide} wide, {many_letters} with 17+ letters"
    );
}

/// The five hardest original levels fit two words (their counts and letters add up to 114
/// to 124 bits), which is what makes their nodes compact.
#[test]
fn ten_wide_levels_of_eight_letters_fit_two_words() {
    let level = grid(&[
        "#HG--ECGE#",
        "#EH--FBDG#",
        "##A--B#BD#",
        "#HF-E#AH##",
        "##D-B-HGC#",
        "#CEG#EC#D#",
        "##########",
    ]);
    let geo = Geometry::new(&level);
    let mut start = State::<4>::new(&geo, &level);
    start.settle(&geo);
    let codec = Codec::new(&geo, start.occupied().len() as usize);
    // 13 segments of 28 field bits, 3 slices of 32 blocks.
    assert_eq!((codec.count_bits, codec.slices, codec.blocks), (28, 3, 32));
    assert!(codec.fits::<2>());
    assert!(check_board::<4>(&geo, &level));
}
