//! The shrinking oracle of a stress run: a candidate still fails when it fails like the
//! original (a difference stays a difference, a crash of engine X stays a crash of X); batches
//! of candidates for programs, the one a batch picks confirmed alone.

use super::StressError;
use super::judge::{Failure, Judge};
use crate::game::AnyCase;
use crate::shrink::{Input, Oracle};

/// Candidates (or generated files) judged at once when each needs its own program runs.
pub const PARALLEL_RUNS: usize = 4;

/// The shrinking oracle: a candidate still fails when it fails like the original.
pub(super) struct StressOracle<'j, 'a> {
    pub(super) judge: &'j Judge<'a>,
    pub(super) target: Failure,
    /// Whether a candidate a batch picks is judged again alone before it is accepted. Off,
    /// the shrunk input is checked alone at the end, and shrinking starts over with it on if
    /// it does not fail there (a program that carries state from case to case).
    pub(super) confirm: bool,
    /// The first error of a program that stopped starting mid-way (ends the shrink).
    pub(super) error: Option<StressError>,
}

impl StressOracle<'_, '_> {
    fn fails(&mut self, input: &Input) -> bool {
        self.first_of(std::slice::from_ref(input)).is_some()
    }

    /// The first of `inputs` that fails like the target, each judged alone; programs run
    /// [`PARALLEL_RUNS`] at a time (a game with one case per file pays a process per
    /// candidate), the answer is the same as one by one.
    fn first_of(&mut self, inputs: &[Input]) -> Option<usize> {
        // Internal engines gain nothing from threads here: candidates are small.
        let width = if self.judge.has_program() {
            PARALLEL_RUNS
        } else {
            1
        };
        for (w, window) in inputs.chunks(width).enumerate() {
            if self.error.is_some() {
                return None;
            }
            let judge = self.judge;
            let target = &self.target;
            let results: Vec<Result<bool, StressError>> = std::thread::scope(|scope| {
                let handles: Vec<_> = window
                    .iter()
                    .map(|input| scope.spawn(move || judge.fails_like(input, target)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a judging thread does not panic"))
                    .collect()
            });
            for (k, result) in results.into_iter().enumerate() {
                match result {
                    Ok(true) => return Some(w * width + k),
                    Ok(false) => {}
                    Err(e) => {
                        self.error = Some(e);
                        return None;
                    }
                }
            }
        }
        None
    }

    /// Judges single-case candidates in one file; `None` when that cannot tell (a program
    /// failed on the whole batch).
    fn batch(&mut self, candidates: &[Input]) -> Option<Vec<usize>> {
        let game = self.judge.game;
        let cases: Vec<&AnyCase> = candidates.iter().flat_map(|c| c.typed()).collect();
        let batch = Input::read(game, game.editor().write_input(&cases))?;
        if batch.cases.len() != candidates.len() {
            return None;
        }
        let judged = match self.judge.judge(&batch) {
            Ok(judged) => judged,
            Err(e) => {
                self.error = Some(e);
                return Some(Vec::new());
            }
        };
        if judged.whole_file_fault {
            return None;
        }
        Some(
            judged
                .failures
                .iter()
                .enumerate()
                .filter(|(_, f)| f.as_ref().is_some_and(|f| f.same_kind(&self.target)))
                .map(|(i, _)| i)
                .collect(),
        )
    }
}

impl Oracle for StressOracle<'_, '_> {
    fn first_failing(&mut self, candidates: &[Input]) -> Option<usize> {
        let game = self.judge.game;
        let batchable = candidates.len() > 1
            && candidates.len() <= game.editor().max_cases()
            && candidates.iter().all(|c| c.cases.len() == 1)
            && self.judge.has_program();
        if batchable && let Some(failing) = self.batch(candidates) {
            if !self.confirm {
                return failing.first().copied();
            }
            return failing.into_iter().find(|&i| self.fails(&candidates[i]));
        }
        self.first_of(candidates)
    }
}
