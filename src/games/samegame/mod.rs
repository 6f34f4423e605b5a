//! SameGame simulation (UVa 339; ACM North Central Regional 1995, problem B).
//!
//! A judge file is one free-form stream of non-negative integers holding many grids: `M N`, the
//! M*N cell values (row 1 = the bottom row first), then selection pairs `row col` closed by
//! `0 0`; a header with a zero ends the stream. Each grid is replayed: a selected cell's
//! 4-connected same-value region is removed when it has at least two cells, then gravity pulls
//! every column down and empty columns disappear (the columns to their right slide left).
//! The output prints the remaining grid, or `    Game Won`. See `RULES.md` in this folder.
//!
//! - [`parse`]: the byte-level tokenizer and the stream parser (one [`Parsed`] per grid).
//! - [`mod@reference`]: a 2-D grid, explicit-stack flood fill, the statement followed literally.
//! - [`bitboard`]: one packed word per column, bit-parallel region growth, word-level gravity.
//! - [`generator`]: seeded judge files, played on the reference engine's board.
//!
//! Invariants: a [`Game`] has 1..=[`MAX_ROWS`] rows, 1..=[`MAX_COLS`] columns and cell values
//! 0..=[`MAX_VALUE`] (0 is an ordinary value, never "empty"); selections are kept as read
//! (saturated at `u32::MAX`), and out-of-range ones are ignored by the engines.

pub mod bitboard;
mod draw;
pub mod generator;
pub mod parse;
pub mod reference;
pub mod shrink;
pub mod validate;

use crate::game::{
    CaseStream, Engine, Outcome, Parsed, Reading, Rules, Variant, replace_first_line,
};
use crate::validate::Validation;

/// Most rows a grid may have.
pub const MAX_ROWS: usize = 10;
/// Most columns a grid may have.
pub const MAX_COLS: usize = 40;
/// Largest cell value (values are single digits, 0 included).
pub const MAX_VALUE: u8 = 9;
/// Smallest region that a selection removes.
pub const MIN_REGION: usize = 2;

/// What the first line of a grid's output block starts with.
const GRID_PREFIX: &str = "Grid ";
/// The output line of a won game (four spaces, as the corrected sample shows).
const WON_LINE: &str = "    Game Won";
/// Every row line starts with these three spaces, then two characters per column.
const ROW_INDENT: &str = "   ";

/// A selection pair `row col` as read: 1-based, counted from the lower-left corner. Values are
/// kept as read (huge ones saturate at `u32::MAX`), so out-of-range pairs survive to the engines,
/// which ignore them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Selection {
    pub row: u32,
    pub col: u32,
}

impl Selection {
    /// The 0-based `(row, col)` of the selected cell when it lies inside a `rows x cols` grid.
    /// This is the range check every engine does before indexing.
    #[inline]
    pub fn cell(self, rows: usize, cols: usize) -> Option<(usize, usize)> {
        let (row, col) = (self.row as usize, self.col as usize);
        if (1..=rows).contains(&row) && (1..=cols).contains(&col) {
            Some((row - 1, col - 1))
        } else {
            None
        }
    }
}

/// One grid and its selections, ready for any engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    rows: usize,
    cols: usize,
    /// Row-major, bottom row first: `cells[row * cols + col]`, each 0..=MAX_VALUE.
    cells: Vec<u8>,
    selections: Vec<Selection>,
}

impl Game {
    /// A game from its cells (row-major, bottom row first). `None` when the shape or a value
    /// breaks the invariants.
    pub fn new(
        rows: usize,
        cols: usize,
        cells: Vec<u8>,
        selections: Vec<Selection>,
    ) -> Option<Game> {
        let shape_ok = (1..=MAX_ROWS).contains(&rows) && (1..=MAX_COLS).contains(&cols);
        let cells_ok = cells.len() == rows * cols && cells.iter().all(|&v| v <= MAX_VALUE);
        (shape_ok && cells_ok).then_some(Game {
            rows,
            cols,
            cells,
            selections,
        })
    }

    pub fn rows(&self) -> usize {
        self.rows
    }
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// The value of 0-based `(row, col)` in the initial grid (row 0 = bottom).
    pub fn value(&self, row: usize, col: usize) -> u8 {
        self.cells[row * self.cols + col]
    }
    pub fn selections(&self) -> &[Selection] {
        &self.selections
    }
}

/// The grid left after all selections: `None` = empty cell. Row-major, bottom row first.
/// Every empty grid is a won game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leftover {
    rows: usize,
    cols: usize,
    cells: Vec<Option<u8>>,
}

impl Leftover {
    /// An all-empty grid of this shape.
    pub fn empty(rows: usize, cols: usize) -> Leftover {
        Leftover {
            rows,
            cols,
            cells: vec![None; rows * cols],
        }
    }
    pub fn get(&self, row: usize, col: usize) -> Option<u8> {
        self.cells[row * self.cols + col]
    }
    pub fn set(&mut self, row: usize, col: usize, value: Option<u8>) {
        self.cells[row * self.cols + col] = value;
    }
    /// True when every cell was removed.
    pub fn is_won(&self) -> bool {
        self.cells.iter().all(Option::is_none)
    }
}

/// Which selection pairs close a grid's list (RULES.md, Input format; Checking an answer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ZeroPair {
    /// The statement's reading: only `0 0` closes the list; `0 c` is an out-of-range cell.
    #[default]
    AsStatement,
    /// The variant public solutions follow: any pair `0 c` closes the list.
    EndsList,
    /// The variant other public solutions follow (`while (r && c)`): any pair with a zero,
    /// `0 c` or `r 0`, closes the list.
    AnyZeroEndsList,
}

impl ZeroPair {
    /// Whether the pair `row col` closes the selection list.
    pub(crate) fn closes(self, row: u32, col: u32) -> bool {
        match self {
            ZeroPair::AsStatement => row == 0 && col == 0,
            ZeroPair::EndsList => row == 0,
            ZeroPair::AnyZeroEndsList => row == 0 || col == 0,
        }
    }
}

/// The variant where any selection pair `0 c` closes a grid's list (RULES.md, Checking an
/// answer): `--zero-pair ends-list`.
pub const ZERO_PAIR_ENDS_LIST: Variant = Variant {
    option: "zero-pair",
    value: "ends-list",
    about: "a selection pair `0 c` (row 0, any column) ends the selection list",
};

/// The variant where any selection pair with a zero, `0 c` or `r 0`, closes a grid's list:
/// `--zero-pair any-zero-ends-list`.
pub const ZERO_PAIR_ANY_ZERO_ENDS_LIST: Variant = Variant {
    option: "zero-pair",
    value: "any-zero-ends-list",
    about: "a selection pair with a zero (`0 c` or `r 0`) ends the selection list",
};

/// How `reading` closes selection lists.
fn zero_pair(reading: &Reading) -> ZeroPair {
    if reading.follows(&ZERO_PAIR_ANY_ZERO_ENDS_LIST) {
        ZeroPair::AnyZeroEndsList
    } else if reading.follows(&ZERO_PAIR_ENDS_LIST) {
        ZeroPair::EndsList
    } else {
        ZeroPair::AsStatement
    }
}

/// The game's entry in the registry.
pub struct SameGame;

impl Rules for SameGame {
    type Case = Game;
    type Answer = Leftover;

    const NAME: &'static str = "samegame";
    const TITLE: &'static str = "SameGame simulation (UVa 339, North Central Regional 1995)";
    /// Selections that removed a region (ignored selections and skipped pairs do not count).
    const WORK_UNIT: &'static str = "removals";
    const SEPARATOR: &'static str = "\n";
    const DEFAULT_ENGINE: &'static str = "bitboard";

    const ENGINES: &'static [Engine<Game, Leftover>] = &[
        Engine {
            name: "reference",
            about: "2-D grid, explicit-stack flood fill, gravity and column collapse",
            solve: reference::solve,
        },
        Engine {
            name: "bitboard",
            about: "one packed word per column, bit-parallel region growth, word gravity",
            solve: bitboard::solve,
        },
    ];

    const VARIANTS: &'static [Variant] = &[ZERO_PAIR_ENDS_LIST, ZERO_PAIR_ANY_ZERO_ENDS_LIST];

    fn parse(input: &[u8], reading: &Reading) -> Vec<Parsed<Game>> {
        parse::parse_stream(input, zero_pair(reading))
    }

    /// Grid by grid ([`parse::GridStream`]): only the grid being read is in memory.
    fn cases(input: Box<dyn std::io::BufRead + Send>, reading: &Reading) -> CaseStream<Game> {
        Box::new(parse::GridStream::new(input, zero_pair(reading)))
    }

    fn validate_reader(input: &mut dyn std::io::BufRead) -> std::io::Result<Validation> {
        validate::validate_reader(input)
    }

    fn draw(case: &Game, expected: Option<&str>) -> Option<crate::game::Drawing> {
        draw::draw(case, expected)
    }

    fn draw_answer(case: &Game, block: &str) -> Option<String> {
        draw::answer(case, block)
    }

    fn format_case(index: usize, _case: &Game, outcome: &Outcome<Leftover>) -> String {
        format_grid(index, &outcome.answer)
    }

    /// The grid, its selections and their `0 0`, then the `0 0` header that ends the input, as
    /// the shrinker writes a file of one grid.
    fn case_input(game: &Game) -> Option<String> {
        Some(<SameGame as crate::game::Shrink>::write_input(&[game]))
    }

    /// `Grid FROM.` becomes `Grid TO.`.
    fn renumber_block(block: &str, from: usize, to: usize) -> String {
        replace_first_line(
            block,
            &format!("{GRID_PREFIX}{from}."),
            &format!("{GRID_PREFIX}{to}."),
        )
    }

    /// The selections: an engine's work is a pass over the board per selection.
    fn cells(game: &Game) -> Option<u64> {
        Some(game.selections().len() as u64)
    }

    /// `Grid k.`; every block but the last carries the blank separator line, which the
    /// default split drops (the last keeps whatever it has, so a stray blank line at the end
    /// of a file stays visible to `check`).
    fn starts_block(line: &str) -> bool {
        line.starts_with(GRID_PREFIX)
    }

    /// Spaces draw empty cells, so only the white space around the text lines is layout: the
    /// default trimming, plus the indentation of `Game Won` and the header.
    fn presentation(block: &str) -> String {
        let trimmed = crate::game::trim_presentation(block);
        let lines: Vec<String> = trimmed
            .lines()
            .map(|line| match line.trim() {
                "Game Won" => WON_LINE.to_string(),
                text if text.starts_with(GRID_PREFIX.trim_end()) => {
                    text.split_whitespace().collect::<Vec<_>>().join(" ")
                }
                _ => line.to_string(),
            })
            .collect();
        let mut text = lines.join("\n");
        text.push('\n');
        text
    }

    /// Byte equality, a wrong row named by its first wrong cell: a digit moved to another
    /// column leaves the same digits and only moves spaces, but spaces draw empty cells here,
    /// so it is a wrong answer, said as the cell the statement's selections would name.
    fn check(case: &Game, expected: &str, actual: &str) -> crate::game::CheckResult {
        let Some(d) = crate::game::difference(expected, actual) else {
            return Ok(());
        };
        Err(wrong_cell(case, expected, actual, d.line).unwrap_or(d.message))
    }

    /// `Grid k.`, then `    Game Won` or the M rows of `3 + 2N` characters (three spaces,
    /// then a space and a digit or two spaces per column).
    fn well_formed(case: &Game, block: &str) -> Result<(), String> {
        let mut lines = block.split_inclusive('\n');
        let header = lines.next().unwrap_or_default();
        let number = header
            .strip_prefix(GRID_PREFIX)
            .and_then(|rest| rest.strip_suffix(".\n"))
            .filter(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()));
        if number.is_none() {
            return Err(format!("line 1: {header:?} is not `Grid k.`"));
        }
        let rest: Vec<&str> = lines.collect();
        if rest == [format!("{WON_LINE}\n")] {
            return Ok(());
        }
        if rest.len() != case.rows {
            return Err(format!(
                "{} lines after the header: neither `{WON_LINE}` nor {} rows",
                rest.len(),
                case.rows
            ));
        }
        for (i, line) in rest.iter().enumerate() {
            let cells = line
                .strip_suffix('\n')
                .and_then(|l| l.strip_prefix(ROW_INDENT))
                .map(str::as_bytes)
                .filter(|c| c.len() == 2 * case.cols)
                .filter(|c| {
                    c.chunks(2)
                        .all(|p| p[0] == b' ' && (p[1] == b' ' || p[1].is_ascii_digit()))
                });
            if cells.is_none() {
                return Err(format!(
                    "line {}: {line:?} is not a row of {} cells",
                    i + 2,
                    case.cols
                ));
            }
        }
        Ok(())
    }
}

/// The message of a first difference on line `line` of a block when that line is a row of
/// cells in both outputs: `line 3, column 8: row 2, column 3 (from the lower left) expected 5,
/// got empty: ...` with both lines quoted. `None` for any other line.
fn wrong_cell(case: &Game, expected: &str, actual: &str, line: usize) -> Option<String> {
    // Line 1 is `Grid k.`; rows follow, top row first.
    let row_from_top = line.checked_sub(2)?;
    if row_from_top >= case.rows {
        return None;
    }
    let cells_of = |block: &str| -> Option<String> {
        let text = block.lines().nth(line - 1)?;
        let cells = text.strip_prefix(ROW_INDENT)?;
        let well_formed = cells.len() == 2 * case.cols
            && cells
                .as_bytes()
                .chunks(2)
                .all(|p| p[0] == b' ' && (p[1] == b' ' || p[1].is_ascii_digit()));
        well_formed.then(|| text.to_string())
    };
    let (e, a) = (cells_of(expected)?, cells_of(actual)?);
    let column = crate::game::first_column(&e, &a);
    // Each cell is a space then its digit (or a second space): the cell's digit is at
    // ROW_INDENT + 2 * col + 1.
    let cell = column.checked_sub(ROW_INDENT.len())? / 2;
    let at = ROW_INDENT.len() + 2 * cell + 1;
    let name = |line: &str| match line.as_bytes()[at] {
        b' ' => "empty".to_string(),
        digit => (digit as char).to_string(),
    };
    Some(format!(
        "line {line}, column {}: row {}, column {} (from the lower left) expected {}, got {}: {}",
        column + 1,
        case.rows - row_from_top,
        cell + 1,
        name(&e),
        name(&a),
        crate::game::quote_pair(&e, &a, column, false)
    ))
}

/// The output block of grid `index`: `Grid k.` then `    Game Won` or the rows, top first,
/// each exactly 3 + 2N characters (trailing spaces kept). Ends with a newline.
pub fn format_grid(index: usize, left: &Leftover) -> String {
    let mut out = String::with_capacity(16 + left.rows * (ROW_INDENT.len() + 2 * left.cols + 1));
    // Not `writeln!`: the formatting machinery costs more than the rest of a small grid.
    out.push_str(GRID_PREFIX);
    out.push_str(itoa::Buffer::new().format(index));
    out.push_str(".\n");
    if left.is_won() {
        out.push_str(WON_LINE);
        out.push('\n');
        return out;
    }
    // Rows are built as bytes (every character is ASCII): a few million cells per second go
    // through here in bulk runs.
    let mut bytes = out.into_bytes();
    for row in left.cells.chunks(left.cols).rev() {
        bytes.extend_from_slice(ROW_INDENT.as_bytes());
        for cell in row {
            bytes.push(b' ');
            bytes.push(cell.map_or(b' ', |v| b'0' + v));
        }
        bytes.push(b'\n');
    }
    String::from_utf8(bytes).expect("grid output is ASCII")
}

#[cfg(test)]
mod tests;
