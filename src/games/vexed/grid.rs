//! The board as a plain grid of cells, and the rules of Vexed applied literally.
//!
//! This is the slow, obvious model used by the `reference` engine and by the checker: a push
//! moves one block one cell sideways into an empty in-board cell, then gravity and group removal
//! repeat until the board is stable. Invariants: `cells.len() == rows * cols`; every cell is
//! [`WALL`], [`EMPTY`] or an upper-case letter.

/// A fixed wall cell.
pub const WALL: u8 = b'#';
/// An empty cell.
pub const EMPTY: u8 = b'-';

/// The direction of a push.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    Left,
    Right,
}

impl Dir {
    /// The letter printed in the judge output.
    pub fn letter(self) -> char {
        match self {
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }

    /// Column offset of the push.
    pub fn delta(self) -> isize {
        match self {
            Dir::Left => -1,
            Dir::Right => 1,
        }
    }
}

/// One move: push the block `letter` at (`row`, `col`) (its place BEFORE the push) towards `dir`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub letter: u8,
    pub row: usize,
    pub col: usize,
    pub dir: Dir,
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "({},{},{},{})",
            self.letter as char,
            self.row,
            self.col,
            self.dir.letter()
        )
    }
}

/// Why a push is not allowed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PushError {
    #[error("({row},{col}) is outside the board")]
    OutsideBoard { row: usize, col: usize },
    #[error("({row},{col}) holds {found:?}, not the block {letter}")]
    WrongLetter {
        row: usize,
        col: usize,
        letter: char,
        found: char,
    },
    #[error("the block at ({row},{col}) cannot move {dir:?}: the target is not an empty cell")]
    Blocked { row: usize, col: usize, dir: Dir },
}

/// A Vexed board, cell by cell.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    rows: usize,
    cols: usize,
    cells: Vec<u8>,
}

/// Whether a cell holds a movable block.
pub fn is_block(cell: u8) -> bool {
    cell.is_ascii_uppercase()
}

impl Grid {
    /// A grid from its rows (`cells.len() == rows * cols`, cells already validated).
    pub fn new(rows: usize, cols: usize, cells: Vec<u8>) -> Grid {
        assert_eq!(cells.len(), rows * cols, "grid cells must fill the board");
        Grid { rows, cols, cells }
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    pub fn at(&self, row: usize, col: usize) -> u8 {
        self.cells[row * self.cols + col]
    }

    /// True when no block is left: the puzzle is solved.
    pub fn is_clear(&self) -> bool {
        !self.cells.iter().any(|&c| is_block(c))
    }

    /// Number of blocks of each letter (index 0 = `A`).
    pub fn letter_counts(&self) -> [usize; 26] {
        let mut counts = [0; 26];
        for &c in &self.cells {
            if is_block(c) {
                counts[usize::from(c - b'A')] += 1;
            }
        }
        counts
    }

    /// True when some letter has exactly one block left: that block can never be removed.
    pub fn is_dead(&self) -> bool {
        self.letter_counts().contains(&1)
    }

    /// Applies gravity and group removal until nothing changes.
    pub fn settle(&mut self) {
        loop {
            self.fall();
            if !self.remove_groups() {
                return;
            }
        }
    }

    /// Every block falls straight down until it rests on a wall, a block or the bottom edge.
    fn fall(&mut self) {
        // Sweeping each column bottom-up and letting each block drop as far as it can lands
        // every block exactly where repeated one-row falls would.
        for col in 0..self.cols {
            for row in (0..self.rows).rev() {
                if !is_block(self.at(row, col)) {
                    continue;
                }
                let mut to = row;
                while to + 1 < self.rows && self.at(to + 1, col) == EMPTY {
                    to += 1;
                }
                if to != row {
                    self.cells[to * self.cols + col] = self.at(row, col);
                    self.cells[row * self.cols + col] = EMPTY;
                }
            }
        }
    }

    /// Removes, all at once, every block that has an orthogonal neighbour with its letter.
    /// Returns whether anything was removed.
    fn remove_groups(&mut self) -> bool {
        let mut doomed = Vec::new();
        for (row, col, cell) in self.blocks() {
            let same = |r: usize, c: usize| self.at(r, c) == cell;
            let touching = (row > 0 && same(row - 1, col))
                || (row + 1 < self.rows && same(row + 1, col))
                || (col > 0 && same(row, col - 1))
                || (col + 1 < self.cols && same(row, col + 1));
            if touching {
                doomed.push(row * self.cols + col);
            }
        }
        for &i in &doomed {
            self.cells[i] = EMPTY;
        }
        !doomed.is_empty()
    }

    /// Checks a move without playing it.
    pub fn check_push(&self, mv: &Move) -> Result<(), PushError> {
        if mv.row >= self.rows || mv.col >= self.cols {
            return Err(PushError::OutsideBoard {
                row: mv.row,
                col: mv.col,
            });
        }
        let found = self.at(mv.row, mv.col);
        if found != mv.letter || !is_block(found) {
            return Err(PushError::WrongLetter {
                row: mv.row,
                col: mv.col,
                letter: mv.letter as char,
                found: found as char,
            });
        }
        let target = mv.col.checked_add_signed(mv.dir.delta());
        match target {
            Some(c) if c < self.cols && self.at(mv.row, c) == EMPTY => Ok(()),
            _ => Err(PushError::Blocked {
                row: mv.row,
                col: mv.col,
                dir: mv.dir,
            }),
        }
    }

    /// Plays a move: the push, then gravity and removals until stable.
    pub fn play(&mut self, mv: &Move) -> Result<(), PushError> {
        self.check_push(mv)?;
        let from = mv.row * self.cols + mv.col;
        let to = from.wrapping_add_signed(mv.dir.delta());
        self.cells[to] = self.cells[from];
        self.cells[from] = EMPTY;
        self.settle();
        Ok(())
    }

    /// Every legal move, blocks in row-major order, left before right.
    pub fn moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        for (row, col, letter) in self.blocks() {
            for dir in [Dir::Left, Dir::Right] {
                let mv = Move {
                    letter,
                    row,
                    col,
                    dir,
                };
                if self.check_push(&mv).is_ok() {
                    moves.push(mv);
                }
            }
        }
        moves
    }

    /// Every block as `(row, col, letter)`, in row-major order.
    fn blocks(&self) -> impl Iterator<Item = (usize, usize, u8)> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|&(_, &cell)| is_block(cell))
            .map(|(i, &cell)| (i / self.cols, i % self.cols, cell))
    }

    /// The board drawn as judge input rows (for messages and generators).
    pub fn draw(&self) -> String {
        let mut text = String::with_capacity(self.rows * (self.cols + 1));
        for row in self.cells.chunks(self.cols) {
            text.push_str(&String::from_utf8_lossy(row));
            text.push('\n');
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> Grid {
        let cols = rows[0].len();
        Grid::new(rows.len(), cols, rows.concat().into_bytes())
    }

    #[test]
    fn blocks_fall_then_match() {
        // A at (0,1) falls to (1,1); (1,2) is empty, so nothing touches.
        let mut g = grid(&["#A--#", "#--A#", "#####"]);
        g.settle();
        assert_eq!(g.draw(), "#---#\n#A-A#\n#####\n");
        // Pushed right, the A at (0,1) lands on the floor at (1,2), beside the A at (1,3).
        let mut g = grid(&["#A--#", "#--A#", "#####"]);
        g.play(&Move {
            letter: b'A',
            row: 0,
            col: 1,
            dir: Dir::Right,
        })
        .unwrap();
        assert!(g.is_clear());
    }

    #[test]
    fn pushes_are_checked() {
        let g = grid(&["#AB#", "####"]);
        assert!(matches!(
            g.check_push(&Move {
                letter: b'A',
                row: 0,
                col: 1,
                dir: Dir::Right
            }),
            Err(PushError::Blocked { .. })
        ));
        assert!(matches!(
            g.check_push(&Move {
                letter: b'B',
                row: 0,
                col: 1,
                dir: Dir::Left
            }),
            Err(PushError::WrongLetter { .. })
        ));
        assert_eq!(g.moves(), vec![]);
    }
}
