//! The Vexed checker: any minimum solution is correct, so an output is judged by replaying it.
//!
//! [`check_output`] reads one puzzle's output block, replays every printed move on the puzzle
//! with the literal rules of [`super::grid`], and accepts it only when the layout is the judge's
//! (header, then four moves per line separated by single spaces), every push is legal, the board
//! is cleared exactly after the last move and not before, the header's name and K match the
//! puzzle and the moves, and — given the expected block — K equals the expected K.

use super::grid::{Dir, Grid, Move, PushError};
use super::{BUDGET_TEXT, LENGTH_TEXT, MOVES_PER_LINE, NO_SOLUTION_TEXT, Puzzle};

/// Why an output block is rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    #[error("output is empty")]
    Empty,
    #[error("header {0:?} is not `NAME: Minimum solution length = K`")]
    BadHeader(String),
    #[error("header names {found:?}, the puzzle is {expected:?}")]
    WrongName { expected: String, found: String },
    #[error("line {line}: {message}")]
    Layout { line: usize, message: String },
    #[error("header says K = {header}, but {moves} moves follow")]
    CountMismatch { header: usize, moves: usize },
    #[error("move {index} {mv}: {error}")]
    IllegalMove {
        index: usize,
        mv: Move,
        error: PushError,
    },
    #[error("the board is already clear after move {index} of {total}")]
    SolvedEarly { index: usize, total: usize },
    #[error("blocks are left after the last move")]
    NotSolved,
    #[error("K = {actual}, but the expected output has K = {expected}")]
    NotMinimal { expected: usize, actual: usize },
    #[error("expected {expected:?}, got {actual:?}")]
    Verdict { expected: String, actual: String },
    #[error("the expected block is unreadable: {0}")]
    BadExpected(Box<CheckError>),
}

/// What an output block claims.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// `NAME: Minimum solution length = K` and the moves.
    Solution { name: String, moves: Vec<Move> },
    /// `NAME: No solution` or `NAME: Search budget exhausted` (the text after `NAME: `).
    Other { name: String, text: String },
}

/// Reads one output block (strict layout).
pub fn read_block(block: &str) -> Result<Claim, CheckError> {
    let mut lines = block.lines();
    let header = lines.next().ok_or(CheckError::Empty)?;
    let bad_header = || CheckError::BadHeader(header.to_string());
    let (name, rest) = header.rsplit_once(": ").ok_or_else(bad_header)?;
    let name = name.to_string();
    if rest == NO_SOLUTION_TEXT || rest == BUDGET_TEXT {
        if let Some(extra) = lines.next() {
            return Err(CheckError::Layout {
                line: 2,
                message: format!("unexpected {extra:?}"),
            });
        }
        return Ok(Claim::Other {
            name,
            text: rest.to_string(),
        });
    }
    let k: usize = rest
        .strip_prefix(LENGTH_TEXT)
        .and_then(|k| k.parse().ok())
        .filter(|_| !rest.ends_with(' '))
        .ok_or_else(bad_header)?;
    let mut moves = Vec::with_capacity(k);
    let move_lines: Vec<&str> = lines.collect();
    for (i, text) in move_lines.iter().enumerate() {
        let line = i + 2;
        if let Some(message) = spacing(text) {
            return Err(CheckError::Layout { line, message });
        }
        let fields: Vec<&str> = text.split(' ').collect();
        let last = i + 1 == move_lines.len();
        if fields.len() > MOVES_PER_LINE || (!last && fields.len() != MOVES_PER_LINE) {
            return Err(CheckError::Layout {
                line,
                message: format!(
                    "{} moves on a line, expected {MOVES_PER_LINE}",
                    fields.len()
                ),
            });
        }
        for field in fields {
            moves.push(read_move(field).ok_or_else(|| CheckError::Layout {
                line,
                message: format!("{field:?} is not a move `(L,r,c,D)`"),
            })?);
        }
    }
    if moves.len() != k {
        return Err(CheckError::CountMismatch {
            header: k,
            moves: moves.len(),
        });
    }
    Ok(Claim::Solution { name, moves })
}

/// Reads `(L,r,c,D)`.
/// What is wrong with the white space of a line of moves (single spaces between moves, none
/// around them), named so, since an empty field is otherwise just "not a move".
fn spacing(text: &str) -> Option<String> {
    let shown = crate::game::show(text);
    if text.ends_with([' ', '\t', '\r']) {
        Some(format!("trailing white space: {shown}"))
    } else if text.starts_with([' ', '\t']) {
        Some(format!("leading white space: {shown}"))
    } else if text.contains("  ") {
        Some(format!("two spaces between moves: {shown}"))
    } else if text.contains('\t') {
        Some(format!("a tab between moves: {shown}"))
    } else {
        None
    }
}

fn read_move(text: &str) -> Option<Move> {
    let inner = text.strip_prefix('(')?.strip_suffix(')')?;
    let [letter, row, col, dir] = inner.split(',').collect::<Vec<_>>()[..] else {
        return None;
    };
    let letter = match letter.as_bytes() {
        [l] if l.is_ascii_uppercase() => *l,
        _ => return None,
    };
    let number = |t: &str| {
        t.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| t.parse().ok())
            .flatten()
    };
    let dir = match dir {
        "L" => Dir::Left,
        "R" => Dir::Right,
        _ => return None,
    };
    Some(Move {
        letter,
        row: number(row)?,
        col: number(col)?,
        dir,
    })
}

/// Replays `moves` on the puzzle: every push legal, clear after the last move and not before.
pub fn replay(puzzle: &Puzzle, moves: &[Move]) -> Result<Grid, CheckError> {
    let mut grid = puzzle.start();
    if grid.is_clear() && !moves.is_empty() {
        return Err(CheckError::SolvedEarly {
            index: 0,
            total: moves.len(),
        });
    }
    for (i, mv) in moves.iter().enumerate() {
        grid.play(mv).map_err(|error| CheckError::IllegalMove {
            index: i + 1,
            mv: *mv,
            error,
        })?;
        if grid.is_clear() && i + 1 < moves.len() {
            return Err(CheckError::SolvedEarly {
                index: i + 1,
                total: moves.len(),
            });
        }
    }
    if !grid.is_clear() {
        return Err(CheckError::NotSolved);
    }
    Ok(grid)
}

/// Checks one puzzle's output block `actual`, against the `expected` block when given.
pub fn check_output(
    puzzle: &Puzzle,
    actual: &str,
    expected: Option<&str>,
) -> Result<(), CheckError> {
    let claim = read_block(actual)?;
    let (Claim::Solution { name, .. } | Claim::Other { name, .. }) = &claim;
    if *name != puzzle.name {
        return Err(CheckError::WrongName {
            expected: puzzle.name.clone(),
            found: name.clone(),
        });
    }
    let expected = match expected {
        Some(text) => Some(read_block(text).map_err(|e| CheckError::BadExpected(Box::new(e)))?),
        None => None,
    };
    match (&claim, &expected) {
        (Claim::Solution { moves, .. }, expected) => {
            replay(puzzle, moves)?;
            if let Some(Claim::Solution { moves: best, .. }) = expected
                && best.len() != moves.len()
            {
                return Err(CheckError::NotMinimal {
                    expected: best.len(),
                    actual: moves.len(),
                });
            }
            if let Some(Claim::Other { text, .. }) = expected
                && text == NO_SOLUTION_TEXT
            {
                return Err(CheckError::Verdict {
                    expected: text.clone(),
                    actual: format!("a solution of {} moves", moves.len()),
                });
            }
            Ok(())
        }
        (Claim::Other { text, .. }, Some(Claim::Other { text: want, .. })) if text == want => {
            Ok(())
        }
        (Claim::Other { text, .. }, Some(Claim::Solution { moves, .. })) => {
            Err(CheckError::Verdict {
                expected: format!("a solution of {} moves", moves.len()),
                actual: text.clone(),
            })
        }
        (Claim::Other { text, .. }, Some(Claim::Other { text: want, .. })) => {
            Err(CheckError::Verdict {
                expected: want.clone(),
                actual: text.clone(),
            })
        }
        // Without an expected block a claim of no solution cannot be verified by replay.
        (Claim::Other { .. }, None) => Ok(()),
    }
}
