//! A game's typed edits of its cases ([`Shrink`]: the input writer, the case's size, the
//! reductions `stress` shrinks with, the mutations `hunt` searches with, admissibility) and
//! their erased view ([`CaseEditor`]), reached through [`super::Game::editor`].
//!
//! Invariant: every reduction is strictly smaller by [`Shrink::size`] (compared as
//! [`CaseSize`]: cells, then moves, then magnitude), so a shrink that only takes reductions
//! ends. The delta-debugging loop itself is not part of the contract (`crate::shrink`).

use std::any::Any;

use gamebench_generators::Dice;

use super::budget::Budget;
use super::rules::Rules;

/// A case with its game type erased, as the runner carries it.
pub type AnyCase = dyn Any + Send + Sync + 'static;

/// The size of one case, compared in this order: cells, then moves, then the sum of its
/// numbers. Every reduction a game offers must be strictly smaller.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct CaseSize {
    /// Board cells (rows x columns); 0 for a game without a board.
    pub cells: usize,
    /// What the game calls its moves ([`Shrink::MOVES`]): selections, turns, blocks.
    pub moves: usize,
    /// The sum of the case's numbers (values, coordinates, letters, steps): what "lower
    /// numbers" lowers.
    pub magnitude: u64,
}

/// The size of a file: its number of cases, then the sum of its cases' sizes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct FileSize {
    pub cases: usize,
    pub cells: usize,
    pub moves: usize,
    pub magnitude: u64,
}

impl FileSize {
    pub fn with_case(mut self, size: CaseSize) -> FileSize {
        self.cases += 1;
        self.cells += size.cells;
        self.moves += size.moves;
        self.magnitude = self.magnitude.saturating_add(size.magnitude);
        self
    }
}

/// A game's typed edits of its cases: what `stress` shrinks with and `hunt` mutates with.
/// Implemented in each game's folder.
pub trait Shrink: Rules {
    /// What [`CaseSize::moves`] counts, plural (`selections`, `turns`, `blocks`).
    const MOVES: &'static str;
    /// The most cases one judge input may hold (Yut: one game per file).
    const MAX_CASES: usize;

    /// The judge input of a file holding exactly `cases` (at most [`Shrink::MAX_CASES`]), in
    /// the statement's canonical layout, terminator included.
    fn write_input(cases: &[&Self::Case]) -> String;

    /// The case's size (see [`CaseSize`]).
    fn size(case: &Self::Case) -> CaseSize;

    /// Candidate reductions of `case`, each strictly smaller by [`Shrink::size`], the biggest
    /// cuts first. They need not be admissible: the caller filters them.
    fn reductions(case: &Self::Case) -> Vec<Self::Case>;

    /// A random small change of `case` that keeps its shape (rows, columns, number of moves),
    /// for `hunt`'s search. It need not be admissible: the caller filters.
    fn mutate(case: &Self::Case, dice: &mut Dice) -> Self::Case;

    /// Whether `case` is a fair input: one a judge could give. The default: the reference
    /// engine plays it without error (Yut: no move of an escaped token).
    fn admissible(case: &Self::Case) -> bool {
        (Self::ENGINES[0].solve)(case, &Budget::UNLIMITED).is_ok()
    }
}

/// The runs of `0..n` a delta-debugging pass tries to remove, the longest first: the halves,
/// then the quarters, ..., then every single index. Games use it for selections, turns, rows
/// and columns.
pub fn runs(n: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut len = n.div_ceil(2);
    while len >= 1 {
        out.extend((0..n).step_by(len).map(|start| start..(start + len).min(n)));
        if len == 1 {
            break;
        }
        len = len.div_ceil(2);
    }
    out
}

/// Object-safe view of a game's [`Shrink`], as [`crate::game::Game::editor`] returns it.
/// Cases are the ones the game's own `parse` made.
pub trait CaseEditor: Send + Sync {
    /// See [`Shrink::MOVES`].
    fn moves_noun(&self) -> &'static str;
    /// See [`Shrink::MAX_CASES`].
    fn max_cases(&self) -> usize;
    /// See [`Shrink::write_input`].
    fn write_input(&self, cases: &[&AnyCase]) -> String;
    /// See [`Shrink::size`].
    fn size(&self, case: &AnyCase) -> CaseSize;
    /// See [`Shrink::reductions`].
    fn reductions(&self, case: &AnyCase) -> Vec<Box<AnyCase>>;
    /// See [`Shrink::mutate`].
    fn mutate(&self, case: &AnyCase, dice: &mut Dice) -> Box<AnyCase>;
    /// See [`Shrink::admissible`].
    fn admissible(&self, case: &AnyCase) -> bool;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_go_from_halves_to_single_indices() {
        assert_eq!(runs(0), Vec::<std::ops::Range<usize>>::new());
        assert_eq!(runs(1), vec![0..1]);
        assert_eq!(runs(4), vec![0..2, 2..4, 0..1, 1..2, 2..3, 3..4]);
        assert_eq!(
            runs(5),
            vec![0..3, 3..5, 0..2, 2..4, 4..5, 0..1, 1..2, 2..3, 3..4, 4..5]
        );
    }
}
