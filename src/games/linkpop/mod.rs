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
pub mod reference;
pub mod shrink;
pub mod validate;

use crate::game::{CaseError, Engine, Outcome, Parsed, Rules, split_blocks};
use crate::validate::Validation;
use crate::validate::quoted;

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

    fn parse(input: &[u8]) -> Vec<Parsed<Board>> {
        parse_file(input)
    }

    fn validate(input: &[u8]) -> Validation {
        validate::validate(input)
    }

    fn draw(case: &Board, expected: Option<&str>) -> Option<crate::game::Drawing> {
        draw::draw(case, expected)
    }

    fn format_case(index: usize, _case: &Board, outcome: &Outcome<Board>) -> String {
        format!("Case {index}\n{}", outcome.answer.draw())
    }

    /// The board's cells: every pass of an engine scans the board.
    fn cells(board: &Board) -> Option<u64> {
        Some((board.rows * board.cols) as u64)
    }

    fn split_output(output: &str) -> Vec<String> {
        split_blocks(output, |line| line.starts_with("Case "))
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

fn fields(text: &[u8]) -> Vec<&[u8]> {
    text.split(|b| b.is_ascii_whitespace())
        .filter(|f| !f.is_empty())
        .collect()
}

/// A line of exactly two unsigned decimal numbers, read without overflow (a huge number reads
/// as `u64::MAX`, which is out of range anyway).
fn header(text: &[u8]) -> Option<(u64, u64)> {
    let number = |f: &[u8]| {
        f.iter().all(u8::is_ascii_digit).then(|| {
            f.iter().fold(0u64, |n, &d| {
                n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
            })
        })
    };
    match fields(text)[..] {
        [n, m] => Some((number(n)?, number(m)?)),
        _ => None,
    }
}

/// Parses a whole judge input. Blank lines are skipped; `0 0` or the end of the input ends it.
/// After a malformed case the parser skips to the next line that looks like a header `n m`
/// (a board row never does, since its tokens are letters), so one bad case costs one error.
pub fn parse_file(input: &[u8]) -> Vec<Parsed<Board>> {
    let lines: Vec<(usize, &[u8])> = input
        .split(|&b| b == b'\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.trim_ascii().is_empty())
        .collect();
    let last_line = input.split(|&b| b == b'\n').count();
    let mut cases = Vec::new();
    let mut i = 0;
    while let Some(&(line, text)) = lines.get(i) {
        let failed = |message: String, size: String| Parsed {
            line,
            label: String::new(),
            size,
            case: Err(CaseError::new(line, message)),
        };
        match header(text) {
            Some((0, 0)) => break,
            Some((n, m))
                if (1..=MAX_SIDE as u64).contains(&n) && (1..=MAX_SIDE as u64).contains(&m) =>
            {
                let (n, m) = (n as usize, m as usize);
                let size = format!("{n}x{m}");
                match parse_rows(&lines[i + 1..], n, m, last_line) {
                    Ok(board) => {
                        cases.push(Parsed {
                            line,
                            label: String::new(),
                            size,
                            case: Ok(board),
                        });
                        i += 1 + n;
                        continue;
                    }
                    Err((bad, error)) => {
                        cases.push(Parsed {
                            line,
                            label: String::new(),
                            size,
                            case: Err(error),
                        });
                        // Resynchronise from the bad row: it may itself be the next header
                        // (a case cut short); the skip below passes over it otherwise.
                        i += 1 + bad;
                    }
                }
            }
            Some((n, m)) => {
                cases.push(failed(
                    format!("board size {n} x {m} is outside 1..={MAX_SIDE} x 1..={MAX_SIDE}"),
                    String::new(),
                ));
                i += 1;
            }
            None => {
                cases.push(failed(
                    format!("expected a header `n m`, found {}", quoted(text)),
                    String::new(),
                ));
                i += 1;
            }
        }
        while lines.get(i).is_some_and(|(_, t)| header(t).is_none()) {
            i += 1;
        }
    }
    cases
}

/// Reads `n` rows of `m` tokens from `lines`. On error returns the index (into `lines`) of the
/// offending row and the error naming its line.
fn parse_rows(
    lines: &[(usize, &[u8])],
    n: usize,
    m: usize,
    last_line: usize,
) -> Result<Board, (usize, CaseError)> {
    let mut cells = Vec::with_capacity(n * m);
    for k in 0..n {
        let Some(&(line, text)) = lines.get(k) else {
            let line = last_line;
            return Err((
                k,
                CaseError::new(line, format!("expected {n} rows, the input ends after {k}")),
            ));
        };
        let tokens = fields(text);
        if tokens.len() != m {
            return Err((
                k,
                CaseError::new(
                    line,
                    format!(
                        "expected {m} blocks in row {}, found {}",
                        k + 1,
                        tokens.len()
                    ),
                ),
            ));
        }
        for (j, token) in tokens.iter().enumerate() {
            let block = parse_token(token).ok_or_else(|| {
                (
                    k,
                    CaseError::new(
                        line,
                        format!(
                            "block {} of row {} is {}, not a capital letter then one of UDLRS",
                            j + 1,
                            k + 1,
                            quoted(token)
                        ),
                    ),
                )
            })?;
            cells.push(Some(block));
        }
    }
    Ok(Board {
        rows: n,
        cols: m,
        cells,
    })
}

#[cfg(test)]
mod tests;
