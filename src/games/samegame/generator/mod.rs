//! SameGame streams: `--cases` grids per file, each `M N`, the M*N values (bottom row first),
//! selection pairs and `0 0`; the file ends with the header `0 0`.
//!
//! The generator plays every grid on the reference engine's board (`reference::Board`: region,
//! removal, gravity, column collapse) as it writes the selections, so it knows which selections
//! are valid, which are singletons and which cells are empty, and can win games on purpose.
//! Selections mix valid cells, singletons, empty cells (above a column's top or in a vacated
//! column) and out-of-range pairs (`0 c`, `r 0`, `99 99`, `123456 c`, one past the edge).
//! `--layout` chooses the whitespace: canonical (header, one line per grid row, one pair per
//! line), one-line, one-per-line (one token per line) or messy (random spaces, tabs and
//! blank lines). Invariants: every layout of a seed holds the same tokens; every file ends
//! with a newline; a `won` grid is won before its extra pairs.

use gamebench_generators::{
    BoardArgs, Dice, FileId, GenError, Generator, Profile, Span, file_rng, parse_range,
    range_option, size_option,
};

use super::ZeroPair;
use super::reference::Board;
use super::{MAX_COLS as MAX_COLS_USIZE, MAX_ROWS as MAX_ROWS_USIZE, MIN_REGION, SameGame};
use crate::game::Rules;
use crate::game::Solver;

/// SameGame's own `gen` options.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct SameGameArgs {
    /// `--cases` (grids per file), `--size` (at most 10x40), `--symbols` (values, 1-10).
    #[command(flatten)]
    pub board: BoardArgs,
    /// Text layout: canonical, one-line, one-per-line or messy (only the whitespace changes).
    #[arg(long)]
    pub layout: Option<String>,
    /// Selections per grid, N or A-B.
    #[arg(long)]
    pub moves: Option<String>,
}

const RANDOM: &str = "random";
const FULL: &str = "full";
const WON: &str = "won";
const SHAPES: &str = "shapes";
const THROUGHPUT: &str = "throughput";

impl Generator for SameGame {
    type Args = SameGameArgs;
    type Tools = Solver<SameGame>;
    const PROFILES: &'static [Profile] = &[
        Profile::new(
            RANDOM,
            "1-10 x 1-40, 2-6 values, 0-60 selections of every kind",
        ),
        Profile::new(FULL, "7-10 x 25-40, 3-5 values, 50-300 selections"),
        Profile::new(
            WON,
            "small grids won on purpose, then extra pairs (including `0 c`) through `0 0`",
        ),
        Profile::new(
            SHAPES,
            "1x1, 1x40, 10x1, 10x40 and boards with no move, in turn",
        ),
        Profile::new(
            THROUGHPUT,
            "10x40, 4 values, 150-300 selections each (2,500 grids per file)",
        ),
    ];

    fn generate(
        file: &FileId<'_>,
        args: &SameGameArgs,
        dice: &mut Dice,
        solver: &Solver<SameGame>,
    ) -> Result<String, GenError> {
        let zero_pair = super::zero_pair(solver.reading());
        generate(file.profile, args, dice, zero_pair)
    }
}

/// Largest number of rows.
const MAX_ROWS: u64 = MAX_ROWS_USIZE as u64;
/// Largest number of columns.
const MAX_COLS: u64 = MAX_COLS_USIZE as u64;
/// Number of distinct values 0..=9.
const MAX_SYMBOLS: u64 = super::MAX_VALUE as u64 + 1;
/// The large out-of-range value the statement mentions.
const HUGE: u64 = 123_456;
/// Random cells tried when looking for a valid (removable) selection.
const VALID_TRIES: usize = 8;
/// Boards tried, and random playouts per board, when a profile wants a won game.
const WIN_BOARDS: usize = 200;
const WIN_PLAYOUTS: usize = 20;
/// Pairs after a win, before `0 0`.
const EXTRA_AFTER_WIN: (u64, u64) = (1, 8);

/// Defaults of one profile.
struct Defaults {
    cases: usize,
    rows: Span,
    cols: Span,
    symbols: Span,
    moves: Span,
}

fn defaults(profile: &str) -> Defaults {
    // (cases, rows, cols, symbols, moves)
    let (cases, rows, cols, symbols, moves) = match profile {
        FULL => (10, (7, 10), (25, 40), (3, 5), (50, 300)),
        WON => (20, (2, 5), (2, 8), (2, 3), (0, 0)),
        SHAPES => (10, (1, 10), (1, 40), (2, 4), (0, 40)),
        THROUGHPUT => (
            2500,
            (MAX_ROWS, MAX_ROWS),
            (MAX_COLS, MAX_COLS),
            (4, 4),
            (150, 300),
        ),
        _ => (20, (1, 10), (1, 40), (2, 6), (0, 60)),
    };
    Defaults {
        cases,
        rows,
        cols,
        symbols,
        moves,
    }
}

/// The text layout of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    Canonical,
    OneLine,
    OnePerLine,
    Messy,
}

impl Layout {
    fn parse(text: Option<&str>) -> Result<Layout, GenError> {
        match text.unwrap_or("canonical") {
            "canonical" => Ok(Layout::Canonical),
            "one-line" => Ok(Layout::OneLine),
            "one-per-line" => Ok(Layout::OnePerLine),
            "messy" => Ok(Layout::Messy),
            other => Err(GenError::BadOption {
                option: "--layout",
                message: format!("{other:?} is not canonical, one-line, one-per-line or messy"),
            }),
        }
    }
}

/// Writes tokens with the layout's whitespace. `line_end` marks where the canonical layout
/// breaks lines; the other layouts decide for themselves. The messy layout draws its
/// separators from its own stream, so every layout of a seed holds the same tokens.
struct Writer {
    /// How the file will be read: which pairs it must not write (see [`Writer::pair`]).
    zero_pair: ZeroPair,
    layout: Layout,
    text: String,
    at_line_start: bool,
    spacing: Dice,
}

/// Separators of the messy layout, and their weights.
const MESSY_SEPARATORS: &[&str] = &[" ", "  ", "\t", " \t ", "\n", "\n\n", "\t\n   "];
const MESSY_WEIGHTS: &[u64] = &[8, 2, 2, 1, 2, 1, 1];

impl Writer {
    fn new(layout: Layout, dice: &mut Dice, zero_pair: ZeroPair) -> Writer {
        let spacing = Dice::new(file_rng(SameGame::NAME, "spacing", dice.below(u64::MAX), 0));
        Writer {
            zero_pair,
            layout,
            text: String::new(),
            at_line_start: true,
            spacing,
        }
    }

    fn token(&mut self, value: u64) {
        if !self.at_line_start {
            let separator = match self.layout {
                Layout::Canonical | Layout::OneLine => " ",
                Layout::OnePerLine => "\n",
                Layout::Messy => MESSY_SEPARATORS[self.spacing.weighted(MESSY_WEIGHTS)],
            };
            self.text.push_str(separator);
        }
        self.text.push_str(&value.to_string());
        self.at_line_start = false;
    }

    /// Writes a selection pair, or the `0 0` that ends a list. An ignored pair with one zero
    /// would end the list under a reading where it does (`0 c` under `--zero-pair ends-list`,
    /// `0 c` and `r 0` under `any-zero-ends-list`): its zero is written as the out-of-range
    /// `HUGE` instead, ignored under every reading, so the file means what was drawn.
    fn pair(&mut self, (row, col): (u64, u64)) {
        let ends = |r: u64, c: u64| {
            self.zero_pair.closes(
                u32::try_from(r).unwrap_or(u32::MAX),
                u32::try_from(c).unwrap_or(u32::MAX),
            )
        };
        let (row, col) = if (row, col) != (0, 0) && ends(row, col) {
            (
                if row == 0 { HUGE } else { row },
                if col == 0 { HUGE } else { col },
            )
        } else {
            (row, col)
        };
        self.token(row);
        self.token(col);
        self.line_end();
    }

    fn line_end(&mut self) {
        if self.layout == Layout::Canonical {
            self.text.push('\n');
            self.at_line_start = true;
        }
    }

    fn finish(mut self) -> String {
        if !self.text.ends_with('\n') {
            self.text.push('\n');
        }
        self.text
    }
}

/// A board of `rows x cols` row-major values, bottom row first.
fn board_of(rows: usize, cols: usize, cells: &[u8]) -> Board {
    Board::new(rows, cols, |r, c| cells[r * cols + c])
}

/// The number of cells left.
fn occupied(board: &Board) -> usize {
    (0..board.cols()).map(|c| board.height(c)).sum()
}

/// The `index`-th occupied cell, column by column, bottom first.
fn occupied_cell(board: &Board, mut index: usize) -> (usize, usize) {
    for c in 0..board.cols() {
        let height = board.height(c);
        if index < height {
            return (index, c);
        }
        index -= height;
    }
    unreachable!("index < occupied()")
}

/// A random occupied cell whose region is removable (`removable`) or a region of one (not
/// `removable`), if one is found in a few tries.
fn random_occupied(board: &Board, removable: bool, dice: &mut Dice) -> Option<(usize, usize)> {
    let occupied = occupied(board);
    if occupied == 0 {
        return None;
    }
    (0..VALID_TRIES).find_map(|_| {
        let (r, c) = occupied_cell(board, dice.below(occupied as u64) as usize);
        ((board.region(r, c).len() >= MIN_REGION) == removable).then_some((r, c))
    })
}

/// A random empty cell inside the grid, if any.
fn random_empty(board: &Board, dice: &mut Dice) -> Option<(usize, usize)> {
    let (rows, cols) = (board.rows(), board.cols());
    let empties = rows * cols - occupied(board);
    if empties == 0 {
        return None;
    }
    let mut index = dice.below(empties as u64) as usize;
    for c in 0..cols {
        let height = board.height(c);
        let free = rows - height;
        if index < free {
            return Some((height + index, c));
        }
        index -= free;
    }
    unreachable!("index < empties")
}

/// A random pair outside the grid (1-based, as written).
fn random_outside(board: &Board, dice: &mut Dice) -> (u64, u64) {
    let (rows, cols) = (board.rows() as u64, board.cols() as u64);
    let row = dice.range(1, rows);
    let col = dice.range(1, cols);
    match dice.below(6) {
        0 => (0, col),
        1 => (row, 0),
        2 => (rows + 1, col),
        3 => (row, cols + 1),
        4 => (99, 99),
        _ => (HUGE, col),
    }
}

/// Selects `cell` on the board: removes its region (of at least two cells).
fn select(board: &mut Board, (row, col): (usize, usize)) {
    let region = board.region(row, col);
    board.remove(&region);
}

/// 1-based pair of a 0-based cell.
fn written((row, col): (usize, usize)) -> (u64, u64) {
    (row as u64 + 1, col as u64 + 1)
}

/// Kinds of selections, in the order of [`SELECTION_WEIGHTS`].
const SELECTION_WEIGHTS: &[u64] = &[12, 2, 2, 2];

/// One selection of a random kind (valid 12 : singleton 2 : empty 2 : outside 2), applied to
/// the model. A kind that is unavailable falls back to an out-of-range pair, which is always
/// possible.
fn random_selection(board: &mut Board, dice: &mut Dice) -> (u64, u64) {
    let cell = match dice.weighted(SELECTION_WEIGHTS) {
        0 => random_occupied(board, true, dice).inspect(|&cell| select(board, cell)),
        1 => random_occupied(board, false, dice),
        2 => random_empty(board, dice),
        _ => None,
    };
    cell.map_or_else(|| random_outside(board, dice), written)
}

/// Random values for a `rows x cols` board with `symbols` values, drawn from a random subset
/// of 0..=9 (so 0 occurs as an ordinary value).
fn random_cells(rows: usize, cols: usize, symbols: usize, dice: &mut Dice) -> Vec<u8> {
    let mut values: Vec<u8> = (0..MAX_SYMBOLS as u8).collect();
    dice.shuffle(&mut values);
    (0..rows * cols)
        .map(|_| values[dice.below(symbols as u64) as usize])
        .collect()
}

/// A board with no removable region: a checkerboard of two values.
fn checkerboard(rows: usize, cols: usize, dice: &mut Dice) -> Vec<u8> {
    let a = dice.below(MAX_SYMBOLS) as u8;
    let b = (a + 1 + dice.below(MAX_SYMBOLS - 1) as u8) % MAX_SYMBOLS as u8;
    (0..rows * cols)
        .map(|i| {
            if (i / cols + i % cols).is_multiple_of(2) {
                a
            } else {
                b
            }
        })
        .collect()
}

/// Generates one file.
fn generate(
    profile: &str,
    options: &SameGameArgs,
    dice: &mut Dice,
    zero_pair: ZeroPair,
) -> Result<String, GenError> {
    let defaults = defaults(profile);
    let layout = Layout::parse(options.layout.as_deref())?;
    let cases = options.board.cases.unwrap_or(defaults.cases);
    let (rows, cols) = size_option(
        options.board.size.as_deref(),
        (defaults.rows, defaults.cols),
    )?;
    let size_ok = rows.0 >= 1 && rows.1 <= MAX_ROWS && cols.0 >= 1 && cols.1 <= MAX_COLS;
    if !size_ok {
        return Err(GenError::BadOption {
            option: "--size",
            message: format!("grids are 1-{MAX_ROWS} x 1-{MAX_COLS}"),
        });
    }
    let symbols = match options.board.symbols.as_deref() {
        Some(text) => parse_range("--symbols", text)?,
        None => defaults.symbols,
    };
    if symbols.0 < 1 || symbols.1 > MAX_SYMBOLS {
        return Err(GenError::BadOption {
            option: "--symbols",
            message: format!("1-{MAX_SYMBOLS} values"),
        });
    }
    let moves = range_option(
        "--moves",
        options.moves.as_deref(),
        defaults.moves,
        (0, u64::MAX),
    )?;
    let mut writer = Writer::new(layout, dice, zero_pair);
    for case in 0..cases {
        let grid = Grid {
            rows: dice.range(rows.0, rows.1) as usize,
            cols: dice.range(cols.0, cols.1) as usize,
            symbols: dice.range(symbols.0, symbols.1) as usize,
            moves: dice.range(moves.0, moves.1) as usize,
        };
        match profile {
            WON => won_game(grid, &mut writer, dice)?,
            SHAPES => shaped_game(grid, case, options.board.size.is_some(), &mut writer, dice),
            _ => {
                let cells = random_cells(grid.rows, grid.cols, grid.symbols, dice);
                random_game(grid, &cells, &mut writer, dice);
            }
        }
    }
    writer.pair((0, 0));
    Ok(writer.finish())
}

/// The drawn shape and amounts of one grid.
#[derive(Debug, Clone, Copy)]
struct Grid {
    rows: usize,
    cols: usize,
    symbols: usize,
    moves: usize,
}

/// Writes the header and the values of a grid (one line per grid row in the canonical layout).
fn write_board(grid: Grid, cells: &[u8], writer: &mut Writer) {
    writer.token(grid.rows as u64);
    writer.token(grid.cols as u64);
    writer.line_end();
    for row in cells.chunks(grid.cols) {
        for &v in row {
            writer.token(u64::from(v));
        }
        writer.line_end();
    }
}

/// A grid and `moves` random selections of every kind, then `0 0`.
fn random_game(grid: Grid, cells: &[u8], writer: &mut Writer, dice: &mut Dice) {
    write_board(grid, cells, writer);
    let mut board = board_of(grid.rows, grid.cols, cells);
    for _ in 0..grid.moves {
        let pair = random_selection(&mut board, dice);
        writer.pair(pair);
    }
    writer.pair((0, 0));
}

/// Shapes in turn: 1x1, 1x40, 10x1, 10x40, then a board with no move (checkerboard).
/// With `--size`, the drawn size replaces the four fixed shapes.
fn shaped_game(grid: Grid, case: usize, sized: bool, writer: &mut Writer, dice: &mut Dice) {
    const SHAPES: [(usize, usize); 4] = [(1, 1), (1, 40), (10, 1), (10, 40)];
    let shape = case % (SHAPES.len() + 1);
    let (rows, cols) = match SHAPES.get(shape) {
        Some(&fixed) if !sized => fixed,
        _ => (grid.rows, grid.cols),
    };
    let grid = Grid { rows, cols, ..grid };
    let cells = if shape == SHAPES.len() {
        checkerboard(rows, cols, dice)
    } else {
        random_cells(rows, cols, grid.symbols, dice)
    };
    random_game(grid, &cells, writer, dice);
}

/// A game won on purpose: random boards are played out at random until one playout clears the
/// board; failing that, a board of single-valued columns (rows >= 2) or of runs of two equal
/// values (one row) is cleared column by column. Ignored selections are mixed into the winning
/// line, and after the win 1-8 extra pairs (some with one zero) come before `0 0`.
fn won_game(grid: Grid, writer: &mut Writer, dice: &mut Dice) -> Result<(), GenError> {
    if grid.rows * grid.cols < MIN_REGION {
        return Err(GenError::BadOption {
            option: "--size",
            message: "a 1x1 grid cannot be won".to_string(),
        });
    }
    let (cells, line) = find_win(grid, dice).unwrap_or_else(|| constructed_win(grid, dice));
    write_board(grid, &cells, writer);
    let mut board = board_of(grid.rows, grid.cols, &cells);
    for cell in line {
        // Ignored selections between the winning ones change nothing on the board.
        if dice.chance(1, 4) {
            let ignored = match dice.below(3) {
                0 => random_occupied(&board, false, dice).map(written),
                1 => random_empty(&board, dice).map(written),
                _ => None,
            };
            let ignored = ignored.unwrap_or_else(|| random_outside(&board, dice));
            writer.pair(ignored);
        }
        select(&mut board, cell);
        writer.pair(written(cell));
    }
    debug_assert!(board.is_empty());
    for _ in 0..dice.range(EXTRA_AFTER_WIN.0, EXTRA_AFTER_WIN.1) {
        let (rows, cols) = (grid.rows as u64, grid.cols as u64);
        let pair = match dice.below(4) {
            0 => (0, dice.range(1, cols)),
            1 => (dice.range(1, rows), 0),
            _ => (dice.range(1, rows), dice.range(1, cols)),
        };
        writer.pair(pair);
    }
    writer.pair((0, 0));
    Ok(())
}

/// A board (row-major values, bottom row first) and the 0-based cells that win it, in order.
type Winning = (Vec<u8>, Vec<(usize, usize)>);

/// Random boards and random playouts; the board and winning cells of the first win found.
fn find_win(grid: Grid, dice: &mut Dice) -> Option<Winning> {
    for _ in 0..WIN_BOARDS {
        let cells = random_cells(grid.rows, grid.cols, grid.symbols, dice);
        for _ in 0..WIN_PLAYOUTS {
            let mut board = board_of(grid.rows, grid.cols, &cells);
            let mut line = Vec::new();
            loop {
                let moves = removable_cells(&board);
                if moves.is_empty() {
                    break;
                }
                let cell = *dice.pick(&moves);
                select(&mut board, cell);
                line.push(cell);
            }
            if board.is_empty() {
                return Some((cells, line));
            }
        }
    }
    None
}

/// One cell of every removable region.
fn removable_cells(board: &Board) -> Vec<(usize, usize)> {
    let mut seen: Vec<(usize, usize)> = Vec::new();
    let mut cells = Vec::new();
    for c in 0..board.cols() {
        for r in 0..board.height(c) {
            if seen.contains(&(r, c)) {
                continue;
            }
            let region = board.region(r, c);
            if region.len() >= MIN_REGION {
                cells.push((r, c));
            }
            seen.extend(region);
        }
    }
    cells
}

/// A board that is surely won by selecting (1,1) again and again: single-valued columns
/// (rows >= 2), or runs of two or three equal values (one row).
fn constructed_win(grid: Grid, dice: &mut Dice) -> Winning {
    let mut column_values = Vec::with_capacity(grid.cols);
    let mut last = None;
    while column_values.len() < grid.cols {
        let mut value = dice.below(MAX_SYMBOLS) as u8;
        while Some(value) == last {
            value = dice.below(MAX_SYMBOLS) as u8;
        }
        last = Some(value);
        let left = grid.cols - column_values.len();
        let run = if grid.rows >= MIN_REGION {
            1
        } else if left < 2 * MIN_REGION {
            left // the last run takes what is left (2 or 3 columns)
        } else {
            MIN_REGION // with one row, a value must cover two columns to be removable
        };
        column_values.extend(std::iter::repeat_n(value, run));
    }
    let cells: Vec<u8> = (0..grid.rows * grid.cols)
        .map(|i| column_values[i % grid.cols])
        .collect();
    let mut board = board_of(grid.rows, grid.cols, &cells);
    let mut line = Vec::new();
    while !board.is_empty() {
        select(&mut board, (0, 0));
        line.push((0, 0));
    }
    (cells, line)
}

#[cfg(test)]
mod tests;
