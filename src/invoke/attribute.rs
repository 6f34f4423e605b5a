//! A program's failure on a whole several-case file charged to the case that fails, as a judge
//! with one test per file would charge it: when a run on the whole file crashes, times out or
//! passes a limit, the executor can only give every case of the file that fault. Each case is
//! then run alone, as a complete judge input of its own (`Game::case_input`), under the limits
//! of one run; the cases that fail alone keep their own fault, the others their own verdict
//! and time.
//!
//! Invariants: a file is re-run only after a program fault of the whole file (not a case that
//! could not be read, not a program that cannot start, not an interrupted run), only when it
//! holds several cases and the game writes each of them alone; when no case fails alone, the
//! whole file's fault stays on every case (the failure needs the cases together, which a
//! reader is told).

use rayon::prelude::*;

use crate::engines::{CaseRun, Executor, Fault, FileJob, Plan, Timing};

/// What the cases run alone found on a file whose whole run failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// Some case fails alone: each case carries its own result.
    Guilty,
    /// Every case passes alone: the whole file's fault stays on every case.
    NoneAlone,
}

/// The note added to a cell's message when no case fails alone.
pub const NONE_ALONE_NOTE: &str =
    "(the whole file failed, but no case fails alone: the failure needs the cases together)";

/// Whether the failure is the program's, on the file as a whole: a crash, a timeout or a limit.
fn program_fault(fault: &Fault) -> bool {
    matches!(
        fault,
        Fault::Timeout(_) | Fault::MemoryLimit(_) | Fault::OutputLimit(_) | Fault::Failed(_)
    )
}

/// Whether `runs` (a file's results, one per case) are a whole-file run's program fault that
/// the file's cases run alone could charge to one of them.
pub fn needs_attribution(job: &FileJob<'_>, runs: &[CaseRun]) -> bool {
    runs.len() > 1
        && runs
            .iter()
            .all(|r| r.timing == Timing::File && r.result.as_ref().err().is_some_and(program_fault))
        && job.cases.iter().all(|p| match &p.case {
            Ok(case) => job.game.case_input(case.as_ref()).is_some(),
            Err(_) => true,
        })
}

/// The file's cases each run alone by `executor` (in parallel, on the calling pool), when the
/// whole run failed (`whole`): the results per case, and what they found. A case that fails
/// alone is charged; when none does, `whole` is kept.
pub fn attribute(
    executor: &dyn Executor,
    job: &FileJob<'_>,
    plan: &Plan,
    whole: Vec<CaseRun>,
) -> (Vec<CaseRun>, Found) {
    let alone: Vec<CaseRun> = (0..job.cases.len())
        .into_par_iter()
        .map(|case| executor.run_case(job, case, plan))
        .collect();
    let guilty = alone
        .iter()
        .any(|r| r.result.as_ref().err().is_some_and(program_fault));
    if guilty {
        (alone, Found::Guilty)
    } else {
        (whole, Found::NoneAlone)
    }
}
