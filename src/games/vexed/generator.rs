//! Vexed puzzles: stable random boards whose minimum solution length lies in a range.
//!
//! A board has outer walls on the left, right and bottom (no top wall, as in the judge data),
//! a few random interior wall cells (ledges and pillars; never in row 0), and blocks placed one
//! at a time on supported cells (resting on a wall or a block) never next to a block of their
//! own letter, so every board is stable as written. Every letter gets at least two blocks.
//! The engine lent by the caller (the one that writes the expected outputs, under the run's
//! budget) solves each candidate [`Puzzle`]; only candidates whose minimum K it finds within
//! `--moves` (default per profile, at most the judge's 1-11) are kept.

use gamebench_generators::{
    BoardArgs, Dice, FileId, GenError, Generator, Profile, Span, range_option, size_option,
};

use super::grid::{EMPTY, Grid, WALL};
use super::{MAX_CELLS, Puzzle, Vexed};
use crate::game::Solver;

/// Vexed's own `gen` options.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct VexedArgs {
    /// `--cases` (puzzles per file, default 10), `--size` (walls included, at most 128 cells),
    /// `--symbols` (letters, 1-26).
    #[command(flatten)]
    pub board: BoardArgs,
    /// Accepted minimum solution lengths, N or A-B.
    #[arg(long)]
    pub moves: Option<String>,
    /// Number of blocks, N or A-B.
    #[arg(long)]
    pub blocks: Option<String>,
}

/// The knobs of one profile, before options override them.
struct Knobs {
    rows: Span,
    cols: Span,
    blocks: Span,
    letters: Span,
    moves: Span,
}

const EASY: &str = "easy";
const MEDIUM: &str = "medium";
const HARD: &str = "hard";
const THROUGHPUT: &str = "throughput";

impl Generator for Vexed {
    type Args = VexedArgs;
    type Tools = Solver<Vexed>;
    const PROFILES: &'static [Profile] = &[
        Profile::new(
            EASY,
            "5-7x5-7 boards, 4-6 blocks of 2-3 letters, minimum 1-5 moves",
        ),
        Profile::new(
            MEDIUM,
            "6-9x6-9 boards, 6-10 blocks of 2-4 letters, minimum 4-8 moves",
        ),
        Profile::new(
            HARD,
            "8-9x8-9 boards, 8-14 blocks of 3-5 letters, minimum 9-11 moves",
        ),
        Profile::new(
            THROUGHPUT,
            "5-9x5-9 boards, 4-12 blocks of 2-5 letters, minimum 1-11 moves (mixed)",
        ),
    ];

    /// One file of puzzles (ended by `0 0 END`), named `<PROFILE>-<file index>-<k>`.
    fn generate(
        file: &FileId<'_>,
        args: &VexedArgs,
        dice: &mut Dice,
        solver: &Solver<Vexed>,
    ) -> Result<String, GenError> {
        let knobs = read_options(&knobs(file.profile), args)?;
        let cases = args.board.cases.unwrap_or(DEFAULT_CASES);
        let mut text = String::new();
        for k in 0..cases {
            let name = format!("{}-{}-{k:03}", file.profile.to_uppercase(), file.index);
            text.push_str(&puzzle(name, &knobs, dice, solver)?);
        }
        text.push_str("0 0 END\n");
        Ok(text)
    }
}

/// Candidates tried per puzzle before giving up.
const ATTEMPTS: usize = 5000;
/// Puzzles per file when `--cases` is not given.
const DEFAULT_CASES: usize = 10;
/// At most one interior cell in this many becomes a wall.
const WALL_SHARE: u64 = 5;
/// Letters `A`..`Z`.
const LETTERS: u64 = 26;

fn knobs(profile: &str) -> Knobs {
    // (rows, cols, blocks, letters, moves)
    let (rows, cols, blocks, letters, moves) = match profile {
        EASY => ((5, 7), (5, 7), (4, 6), (2, 3), (1, 5)),
        MEDIUM => ((6, 9), (6, 9), (6, 10), (2, 4), (4, 8)),
        HARD => ((8, 9), (8, 9), (8, 14), (3, 5), (9, 11)),
        _ => ((5, 9), (5, 9), (4, 12), (2, 5), (1, 11)),
    };
    Knobs {
        rows,
        cols,
        blocks,
        letters,
        moves,
    }
}

/// The profile's knobs with the options applied, checked.
fn read_options(base: &Knobs, options: &VexedArgs) -> Result<Knobs, GenError> {
    let max_cells = MAX_CELLS as u64;
    let (rows, cols) = size_option(options.board.size.as_deref(), (base.rows, base.cols))?;
    if rows.0 < 2 || cols.0 < 3 || rows.1 * cols.1 > max_cells {
        return Err(GenError::BadOption {
            option: "--size",
            message: format!(
                "{}-{}x{}-{}: need at least 2 rows and 3 columns (walls included), at most \
                 {max_cells} cells",
                rows.0, rows.1, cols.0, cols.1
            ),
        });
    }
    let blocks = range_option(
        "--blocks",
        options.blocks.as_deref(),
        base.blocks,
        (2, max_cells),
    )?;
    let letters = range_option(
        "--symbols",
        options.board.symbols.as_deref(),
        base.letters,
        (1, LETTERS),
    )?;
    let moves = range_option("--moves", options.moves.as_deref(), base.moves, (0, 1000))?;
    if letters.0 * 2 > blocks.1 {
        return Err(GenError::BadOption {
            option: "--symbols",
            message: format!(
                "{} letters need at least {} blocks",
                letters.0,
                letters.0 * 2
            ),
        });
    }
    Ok(Knobs {
        rows,
        cols,
        blocks,
        letters,
        moves,
    })
}

/// Draws candidates until the solver finds one's minimum K in `knobs.moves`; returns its header
/// and rows.
fn puzzle(
    name: String,
    knobs: &Knobs,
    dice: &mut Dice,
    solver: &Solver<Vexed>,
) -> Result<String, GenError> {
    let (rows, cols, moves) = (knobs.rows, knobs.cols, knobs.moves);
    let mut puzzle = Puzzle {
        name,
        grid: Grid::new(0, 0, Vec::new()),
    };
    for _ in 0..ATTEMPTS {
        if solver.expired() {
            return Err(GenError::GaveUp(format!(
                "{}: out of time before a puzzle of {}-{} moves was found",
                puzzle.name, moves.0, moves.1
            )));
        }
        let r = dice.range_usize(rows.0 as usize, rows.1 as usize);
        let c = dice.range_usize(cols.0 as usize, cols.1 as usize);
        let Some(board) = candidate(r, c, knobs.blocks, knobs.letters, dice) else {
            continue;
        };
        let mut text = format!("{r} {c} {}\n", puzzle.name);
        for row in board.chunks(c) {
            text.push_str(&String::from_utf8_lossy(row));
            text.push('\n');
        }
        puzzle.grid = Grid::new(r, c, board);
        if solver
            .score(&puzzle)
            .is_some_and(|k| (moves.0..=moves.1).contains(&k))
        {
            return Ok(text);
        }
    }
    Err(GenError::GaveUp(format!(
        "{}: no puzzle with a minimum of {}-{} moves in {ATTEMPTS} tries",
        puzzle.name, moves.0, moves.1
    )))
}

/// One random stable board, or `None` when the blocks did not fit.
fn candidate(
    rows: usize,
    cols: usize,
    blocks: Span,
    letters: Span,
    dice: &mut Dice,
) -> Option<Vec<u8>> {
    let mut cells = vec![EMPTY; rows * cols];
    for row in 0..rows {
        for col in 0..cols {
            if col == 0 || col + 1 == cols || row + 1 == rows {
                cells[row * cols + col] = WALL;
            }
        }
    }
    let interior = ((rows - 2) * (cols - 2)) as u64;
    for _ in 0..dice.range(0, interior / WALL_SHARE) {
        let row = dice.range_usize(1, rows - 2);
        let col = dice.range_usize(1, cols - 2);
        cells[row * cols + col] = WALL;
    }
    let count = dice.range(blocks.0, blocks.1) as usize;
    let kinds = (dice.range(letters.0, letters.1) as usize)
        .min(count / 2)
        .max(1);
    // Two blocks of every letter, the rest drawn at random.
    let mut bag: Vec<u8> = (0..kinds).flat_map(|k| [b'A' + k as u8; 2]).collect();
    while bag.len() < count {
        bag.push(b'A' + dice.below(kinds as u64) as u8);
    }
    dice.shuffle(&mut bag);
    for letter in bag {
        let spots: Vec<usize> = (0..rows * cols)
            .filter(|&i| {
                cells[i] == EMPTY
                    && supported(&cells, cols, i)
                    && !touches(&cells, rows, cols, i, letter)
            })
            .collect();
        if spots.is_empty() {
            return None;
        }
        cells[*dice.pick(&spots)] = letter;
    }
    Some(cells)
}

/// The cell below is a wall or a block (or the board's edge).
fn supported(cells: &[u8], cols: usize, i: usize) -> bool {
    cells.get(i + cols).is_none_or(|&below| below != EMPTY)
}

/// A block of `letter` on cell `i` would touch one of its own letter.
fn touches(cells: &[u8], rows: usize, cols: usize, i: usize, letter: u8) -> bool {
    let (row, col) = (i / cols, i % cols);
    (row > 0 && cells[i - cols] == letter)
        || (row + 1 < rows && cells[i + cols] == letter)
        || (col > 0 && cells[i - 1] == letter)
        || (col + 1 < cols && cells[i + 1] == letter)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> VexedArgs {
        gamebench_generators::parse_args(words).unwrap()
    }
    use crate::game::{Budget, Rules};

    fn file(profile: &str, options: &VexedArgs, seed: u64) -> Result<String, GenError> {
        crate::game::file::<Vexed>(profile, options, seed, 0)
    }

    #[test]
    fn boards_are_walled_stable_and_have_their_minimum_in_range() {
        let options = args(&["--cases", "8", "--moves", "3-5"]);
        let text = file(EASY, &options, 3).unwrap();
        assert!(text.ends_with("0 0 END\n"));
        let mut lines = text.lines();
        let mut puzzles = 0;
        while let Some(header) = lines.next() {
            let fields: Vec<&str> = header.split(' ').collect();
            if fields[0] == "0" {
                break;
            }
            assert_eq!(fields[2], format!("EASY-0-{puzzles:03}"));
            let (r, c): (usize, usize) = (fields[0].parse().unwrap(), fields[1].parse().unwrap());
            let board: Vec<&[u8]> = (0..r).map(|_| lines.next().unwrap().as_bytes()).collect();
            for (row, cells) in board.iter().enumerate() {
                assert_eq!(cells.len(), c);
                assert!(cells[0] == WALL && cells[c - 1] == WALL);
                for (col, &cell) in cells.iter().enumerate() {
                    if row + 1 == r {
                        assert_eq!(cell, WALL);
                    }
                    if cell.is_ascii_uppercase() {
                        assert_ne!(board[row + 1][col], EMPTY, "{header}: floating block");
                        assert_ne!(cells[col + 1], cell, "{header}: touching pair");
                        assert_ne!(board[row + 1][col], cell, "{header}: touching pair");
                    }
                }
            }
            puzzles += 1;
        }
        assert_eq!(puzzles, 8);
        // The independent breadth-first search agrees that every minimum lies in 3-5.
        for parsed in Vexed::parse(text.as_bytes(), &crate::game::Reading::STATEMENT) {
            let puzzle = parsed.case.unwrap();
            let outcome = super::super::reference::solve(&puzzle, &Budget::UNLIMITED).unwrap();
            let k = Vexed::score(&outcome.answer).unwrap();
            assert!((3..=5).contains(&k), "{}: K = {k}", puzzle.name);
        }
    }

    #[test]
    fn same_seed_same_bytes_and_bad_sizes_are_refused() {
        let options = args(&["--cases", "3"]);
        assert_eq!(file(EASY, &options, 1), file(EASY, &options, 1));
        assert_ne!(file(EASY, &options, 1), file(EASY, &options, 2));
        let bad = args(&["--size", "20x20"]);
        assert!(matches!(
            file(EASY, &bad, 1),
            Err(GenError::BadOption {
                option: "--size",
                ..
            })
        ));
    }
}
