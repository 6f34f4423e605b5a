//! The shrinking oracle of a stress run: a candidate still fails when it fails like the
//! original (the same [`super::Class`]: a crash of engine X stays a crash of X, a wrong first
//! line stays a wrong first line); batches of candidates for programs, the one a batch picks
//! confirmed alone. Each candidate's program runs under the adapted timeout
//! ([`candidate_timeout`]); the deadline or a signal halts the shrink.

use std::time::Duration;

use super::StressError;
use super::failure::Failure;
use super::judge::Judge;
use crate::game::AnyCase;
use crate::shrink::{Input, Oracle};

/// Candidates (or generated files) judged at once when each needs its own program runs.
pub const PARALLEL_RUNS: usize = 4;
/// A candidate's program runs may take this many times the failing run's time...
pub const CANDIDATE_TIME_FACTOR: u32 = 2;
/// ...plus this margin (start-up, a loaded machine), and never more than `--timeout`.
pub const CANDIDATE_TIME_MARGIN: Duration = Duration::from_secs(1);

/// The wall-time limit of a candidate's program runs: [`CANDIDATE_TIME_FACTOR`] times the
/// failing run's `elapsed` plus [`CANDIDATE_TIME_MARGIN`], at most `timeout`. A candidate is
/// smaller than the failing input, so a run that needs more is a timeout, another failure.
pub fn candidate_timeout(elapsed: Duration, timeout: Duration) -> Duration {
    (elapsed * CANDIDATE_TIME_FACTOR + CANDIDATE_TIME_MARGIN).min(timeout)
}

/// The shrinking oracle: a candidate still fails when it fails like the original.
pub(super) struct StressOracle<'j, 'a> {
    pub(super) judge: &'j Judge<'a>,
    pub(super) target: Failure,
    /// Whether a candidate a batch picks is judged again alone before it is accepted. Off,
    /// the shrunk input is checked alone at the end, and shrinking starts over with it on if
    /// it does not fail there (a program that carries state from case to case).
    pub(super) confirm: bool,
    /// A program's wall-time limit on a candidate ([`candidate_timeout`]).
    pub(super) timeout: Duration,
    /// The first error: a program that stopped starting mid-way, the deadline, a signal
    /// (ends the shrink).
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
            let timeout = self.timeout;
            let results: Vec<Result<bool, StressError>> = std::thread::scope(|scope| {
                let handles: Vec<_> = window
                    .iter()
                    .map(|input| scope.spawn(move || judge.fails_like(input, target, timeout)))
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
        let reading = &candidates.first()?.reading;
        let batch = Input::read(game, game.editor().write_input(&cases), reading)?;
        if batch.cases.len() != candidates.len() {
            return None;
        }
        let judged = match self.judge.judge_within(&batch, self.timeout) {
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
    fn halted(&self) -> bool {
        self.error.is_some() || self.judge.time_left().is_err()
    }

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
