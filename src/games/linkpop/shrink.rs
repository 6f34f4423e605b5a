//! Link and Pop's case edits for `stress` (reductions) and `hunt` (mutations).
//!
//! Every cell of an input board holds a block, so "removing" a block means making it inert.
//! Reductions, biggest cuts first: remove runs of rows or columns (halves, ..., single ones); make one block stand still
//! (`S`); rename the largest letter to the smallest unused smaller one (the same game up to
//! names); lower one block's letter to a smaller one in use or the smallest unused one (which
//! turns it into a block with no partner, or gives it another). The input is written as the
//! statement shows it: `n m`, rows of `XA` tokens separated by single spaces, `0 0`.
//! Mutations (for `hunt`) change one block's letter or attribute, or swap two blocks.

use std::ops::Range;

use gamebench_generators::Dice;

use super::{Attr, Block, Board, LinkPop, SYMBOLS};
use crate::game::{CaseSize, Shrink, runs};

/// The attributes a mutation draws from.
const ATTRS: [Attr; 5] = [Attr::Up, Attr::Down, Attr::Left, Attr::Right, Attr::Still];

impl Shrink for LinkPop {
    const MOVES: &'static str = "moving blocks";
    /// The statement promises at most 30 cases per file.
    const MAX_CASES: usize = 30;

    fn write_input(cases: &[&Board]) -> String {
        let mut text = String::new();
        for board in cases {
            text.push_str(&format!("{} {}\n", board.rows, board.cols));
            for row in board.cells.chunks(board.cols) {
                let tokens: Vec<String> = row
                    .iter()
                    .map(|cell| {
                        cell.map_or_else(String::new, |b| {
                            format!("{}{}", b.symbol as char, b.attr.letter() as char)
                        })
                    })
                    .collect();
                text.push_str(&tokens.join(" "));
                text.push('\n');
            }
        }
        text.push_str("0 0\n");
        text
    }

    fn size(board: &Board) -> CaseSize {
        let blocks = board.cells.iter().flatten();
        let moving = blocks.clone().filter(|b| b.attr != Attr::Still).count();
        let letters: u64 = blocks.map(|b| b.symbol_index() as u64).sum();
        CaseSize {
            cells: board.rows * board.cols,
            moves: moving,
            magnitude: letters,
        }
    }

    fn reductions(board: &Board) -> Vec<Board> {
        let mut out = Vec::new();
        // Runs of rows and columns, the longest first; a board keeps at least one of each.
        out.extend(
            runs(board.rows)
                .into_iter()
                .filter(|run| run.len() < board.rows)
                .map(|run| without_rows(board, run)),
        );
        out.extend(
            runs(board.cols)
                .into_iter()
                .filter(|run| run.len() < board.cols)
                .map(|run| without_cols(board, run)),
        );
        for (i, cell) in board.cells.iter().enumerate() {
            if let Some(block) = cell
                && block.attr != Attr::Still
            {
                out.push(with_block(
                    board,
                    i,
                    Block {
                        attr: Attr::Still,
                        ..*block
                    },
                ));
            }
        }
        let used = letters_used(board);
        if let (Some(largest), Some(free)) =
            (used.iter().rposition(|&u| u), used.iter().position(|&u| !u))
            && free < largest
        {
            let mut renamed = board.clone();
            for block in renamed.cells.iter_mut().flatten() {
                if block.symbol_index() == largest {
                    block.symbol = b'A' + free as u8;
                }
            }
            out.push(renamed);
        }
        let first_free = used.iter().position(|&u| !u);
        for (i, cell) in board.cells.iter().enumerate() {
            let Some(block) = cell else { continue };
            for (lower, &in_use) in used.iter().enumerate().take(block.symbol_index()) {
                if in_use || Some(lower) == first_free {
                    out.push(with_block(
                        board,
                        i,
                        Block {
                            symbol: b'A' + lower as u8,
                            ..*block
                        },
                    ));
                }
            }
        }
        out
    }

    /// Every grid the parser accepts is playable: the engines never fail on one, so there is
    /// nothing to check (and no reason to play the case once more for every candidate).
    fn admissible(_case: &Board) -> bool {
        true
    }

    fn mutate(board: &Board, dice: &mut Dice) -> Board {
        let mut next = board.clone();
        let n = next.cells.len() as u64;
        let i = dice.below(n) as usize;
        match dice.below(3) {
            0 => {
                let j = dice.below(n) as usize;
                next.cells.swap(i, j);
            }
            1 => {
                if let Some(block) = next.cells[i].as_mut() {
                    block.symbol = b'A' + dice.below(SYMBOLS as u64) as u8;
                }
            }
            _ => {
                if let Some(block) = next.cells[i].as_mut() {
                    block.attr = *dice.pick(&ATTRS);
                }
            }
        }
        next
    }
}

/// Which letters the board holds (index 0 = `A`).
fn letters_used(board: &Board) -> [bool; SYMBOLS] {
    let mut used = [false; SYMBOLS];
    for block in board.cells.iter().flatten() {
        used[block.symbol_index()] = true;
    }
    used
}

fn with_block(board: &Board, at: usize, block: Block) -> Board {
    let mut next = board.clone();
    next.cells[at] = Some(block);
    next
}

fn without_rows(board: &Board, removed: Range<usize>) -> Board {
    Board {
        rows: board.rows - removed.len(),
        cols: board.cols,
        cells: board
            .cells
            .iter()
            .enumerate()
            .filter(|&(i, _)| !removed.contains(&(i / board.cols)))
            .map(|(_, &c)| c)
            .collect(),
    }
}

fn without_cols(board: &Board, removed: Range<usize>) -> Board {
    Board {
        rows: board.rows,
        cols: board.cols - removed.len(),
        cells: board
            .cells
            .iter()
            .enumerate()
            .filter(|&(i, _)| !removed.contains(&(i % board.cols)))
            .map(|(_, &c)| c)
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;

    #[test]
    fn the_written_input_reads_back_as_the_same_boards() {
        let a = Board::from_rows(&["AU BS", "BL AR"]).unwrap();
        let b = Board::from_rows(&["ZD"]).unwrap();
        let text = LinkPop::write_input(&[&a, &b]);
        assert_eq!(text, "2 2\nAU BS\nBL AR\n1 1\nZD\n0 0\n");
        let parsed: Vec<Board> = LinkPop::parse(text.as_bytes(), &crate::game::Reading::STATEMENT)
            .into_iter()
            .map(|p| p.case.unwrap())
            .collect();
        assert_eq!(parsed, vec![a, b]);
    }

    #[test]
    fn every_reduction_is_smaller() {
        let board = Board::from_rows(&["AU CS", "CL DR"]).unwrap();
        let reductions = LinkPop::reductions(&board);
        for r in &reductions {
            assert!(LinkPop::size(r) < LinkPop::size(&board), "{}", r.draw());
        }
        assert!(reductions.contains(&Board::from_rows(&["CL DR"]).unwrap()));
        assert!(reductions.contains(&Board::from_rows(&["AU", "CL"]).unwrap()));
        assert!(reductions.contains(&Board::from_rows(&["AS CS", "CL DR"]).unwrap()));
        // D renamed to the free B.
        assert!(reductions.contains(&Board::from_rows(&["AU CS", "CL BR"]).unwrap()));
        // One C lowered to the A in use.
        assert!(reductions.contains(&Board::from_rows(&["AU AS", "CL DR"]).unwrap()));
        // A 1x1 board cannot lose a row or a column.
        let one = Board::from_rows(&["AS"]).unwrap();
        assert!(LinkPop::reductions(&one).is_empty());
    }
}
