//! Link and Pop -- the Block Game (ZOJ 2391 = POJ 2281 = HDU 1662; Asia 2004 Shanghai).
//!
//! A judge file holds up to 30 cases: `n m`, then n lines of m tokens `XA` (symbol `X`, moving
//! attribute `A` in `UDLRS`), ended by `0 0` (or end of file). The game pops, again and again,
//! the first pair of equal symbols (fewest segments first, then row-major lexicographic order)
//! that a path of at most three segments through empty cells links -- the path may use the
//! empty ring around the board -- and after each pop lets blocks move in "turns of checking"
//! until nothing moves. The output is `Case k` and the final board. See `RULES.md` in this folder.
//!
//! Engines: [`reference`] follows the statement literally (a breadth-first search over straight
//! lines on the padded board, and a per-cell "moved this turn" mark); [`bitboard_engine`] keeps
//! the padded board as a [`bitboard::Bitboard`] and finds pairs in priority order with early
//! exit. Invariant shared by both: a [`Board`] only ever holds `rows * cols` cells, with
//! `1 <= rows, cols <= MAX_SIDE`. [`generator`] writes seeded judge files.

pub mod bitboard;
pub mod bitboard_engine;
mod draw;
pub mod generator;
mod parse;
pub mod reference;
pub mod shrink;
pub mod validate;
#[cfg(test)]
mod validate_tests;

use crate::game::{
    CaseStream, Engine, LineReader, Outcome, Parsed, Reading, Rules, replace_first_line,
};
use crate::validate::Validation;
pub use parse::parse_file;

/// Largest number of rows or columns the statement allows.
pub const MAX_SIDE: usize = 30;
/// Number of distinct symbols (`A`..=`Z`).
pub const SYMBOLS: usize = 26;
/// Most segments a link may have.
pub const MAX_SEGMENTS: u8 = 3;

/// A block's moving attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Attr {
    Up,
    Down,
    Left,
    Right,
    Still,
}

impl Attr {
    /// Reads `U D L R S`.
    pub fn from_letter(letter: u8) -> Option<Attr> {
        Some(match letter {
            b'U' => Attr::Up,
            b'D' => Attr::Down,
            b'L' => Attr::Left,
            b'R' => Attr::Right,
            b'S' => Attr::Still,
            _ => return None,
        })
    }

    pub fn letter(self) -> u8 {
        match self {
            Attr::Up => b'U',
            Attr::Down => b'D',
            Attr::Left => b'L',
            Attr::Right => b'R',
            Attr::Still => b'S',
        }
    }

    /// The (row, column) step of one move; `None` for a block that stands still.
    pub fn step(self) -> Option<(isize, isize)> {
        match self {
            Attr::Up => Some((-1, 0)),
            Attr::Down => Some((1, 0)),
            Attr::Left => Some((0, -1)),
            Attr::Right => Some((0, 1)),
            Attr::Still => None,
        }
    }
}

/// A block: its symbol (`b'A'..=b'Z'`) and its moving attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Block {
    pub symbol: u8,
    pub attr: Attr,
}

impl Block {
    /// Index of the symbol, `0..SYMBOLS`.
    pub fn symbol_index(self) -> usize {
        usize::from(self.symbol - b'A')
    }
}

/// A board: `rows * cols` cells in row-major order, `None` where there is no block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<Option<Block>>,
}

impl Board {
    pub fn get(&self, r: usize, c: usize) -> Option<Block> {
        self.cells[r * self.cols + c]
    }

    /// The judge's drawing: one line per row, the symbol or `.` per cell, each line ended by
    /// a newline.
    pub fn draw(&self) -> String {
        let mut text = String::with_capacity(self.rows * (self.cols + 1));
        for row in self.cells.chunks(self.cols) {
            text.extend(
                row.iter()
                    .map(|cell| cell.map_or('.', |b| b.symbol as char)),
            );
            text.push('\n');
        }
        text
    }

    /// Reads a board from text rows of `XA` tokens (tests and tools); `None` if malformed.
    pub fn from_rows(rows: &[&str]) -> Option<Board> {
        let mut cells = Vec::new();
        let mut cols = None;
        for row in rows {
            let blocks: Option<Vec<Block>> = row
                .split_whitespace()
                .map(|t| parse_token(t.as_bytes()))
                .collect();
            let blocks = blocks?;
            if *cols.get_or_insert(blocks.len()) != blocks.len() {
                return None;
            }
            cells.extend(blocks.into_iter().map(Some));
        }
        let cols = cols?;
        (cols > 0).then_some(Board {
            rows: rows.len(),
            cols,
            cells,
        })
    }
}

/// Reads one `XA` token.
pub fn parse_token(token: &[u8]) -> Option<Block> {
    match token {
        [symbol @ b'A'..=b'Z', attr] => Some(Block {
            symbol: *symbol,
            attr: Attr::from_letter(*attr)?,
        }),
        _ => None,
    }
}

/// What the first line of a case's output block starts with.
const CASE_PREFIX: &str = "Case ";

/// The game's entry in the registry.
pub struct LinkPop;

impl Rules for LinkPop {
    type Case = Board;
    type Answer = Board;

    const NAME: &'static str = "linkpop";
    const TITLE: &'static str =
        "Link and Pop -- the Block Game (ZOJ 2391, POJ 2281, Shanghai 2004)";
    const WORK_UNIT: &'static str = "pops";
    const DEFAULT_ENGINE: &'static str = "bitboard";

    const ENGINES: &'static [Engine<Board, Board>] = &[
        Engine {
            name: "reference",
            about: "statement followed literally: BFS over straight lines per block, per-cell moved marks",
            solve: reference::solve,
        },
        Engine {
            name: "bitboard",
            about: "padded board as row+column bit words, fills through empties, pairs in priority order",
            solve: bitboard_engine::solve,
        },
    ];

    fn parse(input: &[u8], _reading: &Reading) -> Vec<Parsed<Board>> {
        parse_file(input)
    }

    /// The same cases as [`parse_file`], read a line at a time.
    fn cases(input: Box<dyn std::io::BufRead + Send>, _reading: &Reading) -> CaseStream<Board> {
        Box::new(parse::Cases::new(LineReader::new(input)))
    }

    fn validate_reader(input: &mut dyn std::io::BufRead) -> std::io::Result<Validation> {
        validate::validate_reader(input)
    }

    fn draw(case: &Board, expected: Option<&str>) -> Option<crate::game::Drawing> {
        draw::draw(case, expected)
    }

    fn draw_answer(case: &Board, block: &str) -> Option<String> {
        draw::answer(case, block)
    }

    fn format_case(index: usize, _case: &Board, outcome: &Outcome<Board>) -> String {
        format!("{CASE_PREFIX}{index}\n{}", outcome.answer.draw())
    }

    /// The board, then the `0 0` line that ends the input, as the shrinker writes a file of
    /// one board.
    fn case_input(board: &Board) -> Option<String> {
        Some(<LinkPop as crate::game::Shrink>::write_input(&[board]))
    }

    /// `Case FROM` becomes `Case TO`.
    fn renumber_block(block: &str, from: usize, to: usize) -> String {
        replace_first_line(
            block,
            &format!("{CASE_PREFIX}{from}"),
            &format!("{CASE_PREFIX}{to}"),
        )
    }

    /// The board's cells: every pass of an engine scans the board.
    fn cells(board: &Board) -> Option<u64> {
        Some((board.rows * board.cols) as u64)
    }

    /// `Case k`.
    fn starts_block(line: &str) -> bool {
        line.starts_with(CASE_PREFIX)
    }

    /// Every space of the output is layout (cells are letters and dots), so a difference in
    /// white space alone is a presentation error.
    fn presentation(block: &str) -> String {
        crate::game::strip_white_space(block)
    }

    /// `Case k`, then `n` lines of `m` characters, each a capital letter or `.`.
    fn well_formed(case: &Board, block: &str) -> Result<(), String> {
        let mut lines = block.split_inclusive('\n');
        let header = lines.next().unwrap_or_default();
        let number = header
            .strip_prefix("Case ")
            .and_then(|rest| rest.strip_suffix('\n'))
            .filter(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()));
        if number.is_none() {
            return Err(format!("line 1: {header:?} is not `Case k`"));
        }
        for row in 0..case.rows {
            let line = lines.next().unwrap_or_default();
            let cells = line.strip_suffix('\n').unwrap_or(line);
            let fits = cells.len() == case.cols
                && cells.bytes().all(|b| b == b'.' || b.is_ascii_uppercase());
            if !fits || !line.ends_with('\n') {
                return Err(format!(
                    "line {}: {line:?} is not a row of {} cells",
                    row + 2,
                    case.cols
                ));
            }
        }
        match lines.next() {
            Some(extra) => Err(format!(
                "line {}: {extra:?} after the {} rows",
                case.rows + 2,
                case.rows
            )),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests;
