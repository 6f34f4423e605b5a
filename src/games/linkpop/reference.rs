//! The reference engine: the statement followed literally, simple and slow on purpose.
//!
//! Linking: the board is padded with one ring of empty cells (paths may use it; further rings
//! never help). From a block, a breadth-first search by segments draws straight lines in the
//! four directions from every cell reached with one segment fewer, through empty cells only;
//! the first block a line meets is reached (and stops the line). So `segments[b]` is the fewest
//! segments of a path from `a` to `b` whose inner cells are all empty.
//!
//! Choosing: for k = 1, 2, 3, the first pair (a, b) in row-major lexicographic order with equal
//! symbols and `segments <= k` is popped.
//!
//! Moving: turns of checking visit the cells in row-major order; a block moves one cell at once
//! if the cell is inside the board and empty, and the cell it lands on is marked so that the
//! block is not checked again in that turn. Turns repeat until one moves nothing.

use super::{Board, MAX_SEGMENTS};
use crate::game::{Budget, CaseError, Outcome};

/// The four directions as (row, column) steps.
const DIRECTIONS: [(isize, isize); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];
/// Width of the empty ring around the board.
const RING: usize = 1;
/// "Not reached" in a segment table.
const UNREACHED: u8 = u8::MAX;

/// The board padded with the empty ring; cells hold a symbol or `None`.
struct Padded {
    rows: usize,
    cols: usize,
    cells: Vec<Option<u8>>,
}

impl Padded {
    fn new(board: &Board) -> Padded {
        let (rows, cols) = (board.rows + 2 * RING, board.cols + 2 * RING);
        let mut cells = vec![None; rows * cols];
        for r in 0..board.rows {
            for c in 0..board.cols {
                cells[(r + RING) * cols + c + RING] = board.get(r, c).map(|b| b.symbol);
            }
        }
        Padded { rows, cols, cells }
    }

    /// The neighbour of cell `at` in direction `d`, if it is on the padded board.
    fn step(&self, at: usize, (dr, dc): (isize, isize)) -> Option<usize> {
        let r = (at / self.cols).checked_add_signed(dr)?;
        let c = (at % self.cols).checked_add_signed(dc)?;
        (r < self.rows && c < self.cols).then_some(r * self.cols + c)
    }

    /// Fewest segments from `from` to every cell, up to [`MAX_SEGMENTS`]; [`UNREACHED`] beyond.
    fn segments_from(&self, from: usize) -> Vec<u8> {
        let mut segments = vec![UNREACHED; self.cells.len()];
        let mut frontier = vec![from];
        for count in 1..=MAX_SEGMENTS {
            let mut next = Vec::new();
            for &start in &frontier {
                for direction in DIRECTIONS {
                    let mut at = start;
                    while let Some(cell) = self.step(at, direction) {
                        if cell == from {
                            break;
                        }
                        if segments[cell] == UNREACHED {
                            segments[cell] = count;
                            if self.cells[cell].is_none() {
                                next.push(cell);
                            }
                        }
                        if self.cells[cell].is_some() {
                            break; // a block ends the line: it is an endpoint, never passed
                        }
                        at = cell;
                    }
                }
            }
            frontier = next;
        }
        segments
    }

    /// The pair to pop: fewest segments first, then lexicographically smallest (first, second)
    /// in row-major order.
    fn choose_pair(&self) -> Option<(usize, usize)> {
        let blocks: Vec<usize> = (0..self.cells.len())
            .filter(|&i| self.cells[i].is_some())
            .collect();
        let mut tables: Vec<Option<Vec<u8>>> = vec![None; blocks.len()];
        for limit in 1..=MAX_SEGMENTS {
            for (i, &a) in blocks.iter().enumerate() {
                let symbol = self.cells[a];
                if !blocks[i + 1..].iter().any(|&b| self.cells[b] == symbol) {
                    continue;
                }
                let table = tables[i].get_or_insert_with(|| self.segments_from(a));
                if let Some(&b) = blocks[i + 1..]
                    .iter()
                    .find(|&&b| self.cells[b] == symbol && table[b] <= limit)
                {
                    return Some((a, b));
                }
            }
        }
        None
    }
}

/// One turn of checking on the unpadded board; returns whether any block moved.
fn turn(board: &mut Board, moved: &mut [bool]) -> bool {
    moved.fill(false);
    let mut any = false;
    for r in 0..board.rows {
        for c in 0..board.cols {
            let at = r * board.cols + c;
            if moved[at] {
                continue; // this block already moved (right or down) in this turn
            }
            let Some(block) = board.cells[at] else {
                continue;
            };
            let Some((dr, dc)) = block.attr.step() else {
                continue;
            };
            let (Some(tr), Some(tc)) = (r.checked_add_signed(dr), c.checked_add_signed(dc)) else {
                continue;
            };
            if tr >= board.rows || tc >= board.cols {
                continue;
            }
            let target = tr * board.cols + tc;
            if board.cells[target].is_none() {
                board.cells[target] = board.cells[at].take();
                moved[target] = true;
                any = true;
            }
        }
    }
    any
}

pub fn solve(board: &Board, _budget: &Budget) -> Result<Outcome<Board>, CaseError> {
    let mut board = board.clone();
    let mut moved = vec![false; board.cells.len()];
    let mut pops = 0;
    loop {
        let padded = Padded::new(&board);
        let Some((a, b)) = padded.choose_pair() else {
            break;
        };
        for cell in [a, b] {
            let (r, c) = (cell / padded.cols - RING, cell % padded.cols - RING);
            board.cells[r * board.cols + c] = None;
        }
        pops += 1;
        while turn(&mut board, &mut moved) {}
    }
    Ok(Outcome::solved(board, pops))
}
