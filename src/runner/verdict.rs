//! The runner's verdicts on a slot's output: the check against the expected `X.out`
//! (`--check`), the comparison of every engine with the baseline engine case by case, and
//! `unchecked` for an `ok` compared with nothing. Both comparisons go through
//! [`crate::engines::judge_block`]; a rejection's status is [`CheckVerdict::status`].
//!
//! Invariants: a verdict only ever makes a status worse ([`Status::worst`]); what the engine
//! said first (a budget stop's proven bound) stays in front of the message; the baseline's
//! output stands in for the expected one, so any rejection against it is a `mismatch`.

use super::done::Done;
use super::load::{Loaded, Slot};
use crate::engines::judge_block;
use crate::results::Status;
use crate::status::CheckVerdict;

/// With `--check`: compares a case's output with the expected block (the game's checker and
/// its verdict). A wrong answer or presentation error makes the case `mismatch`; a checker
/// failure (no or a malformed expected block) makes it `error`.
pub(super) fn check_expected(loaded: &Loaded, case: usize, done: &mut Done) {
    let (Some(expected), Some(output), Ok(parsed)) =
        (&loaded.expected, &done.output, &loaded.cases[case].case)
    else {
        return;
    };
    let index = loaded.first + case + 1;
    done.compared = true;
    let block = match &**expected {
        Err(why) => Err(why.clone()),
        Ok(blocks) => blocks
            .get(index - 1)
            .map(String::as_str)
            .ok_or_else(|| format!("the expected output has no case {index}")),
    };
    if let Err(rejected) = judge_block(
        loaded.file.game,
        parsed.as_ref(),
        block,
        Some(output),
        loaded.config.presentation,
    ) {
        done.status = done.status.worst(rejected.verdict.status());
        done.verdict = Some(rejected.verdict);
        // What the engine said first (a budget stop's proven bound) stays in front.
        done.tell(format!(
            "{}: case {index}: {rejected}",
            loaded.file.display()
        ));
    }
}

/// Compares each case of `slots` (whole cases, consecutive) with the baseline engine, then
/// makes every `ok` compared with nothing `unchecked`; `done` holds those slots' results.
pub(super) fn settle_cases(loaded: &Loaded, slots: &[Slot], done: &mut [Done]) {
    // With one engine there is nothing to compare a case with.
    let mut start = if loaded.engines.len() > 1 {
        0
    } else {
        slots.len()
    };
    while start < slots.len() {
        let case = slots[start].case;
        let end = (start..slots.len())
            .find(|&i| slots[i].case != case)
            .unwrap_or(slots.len());
        compare_with_baseline(loaded, &slots[start..end], &mut done[start..end]);
        start = end;
    }
    for result in done.iter_mut() {
        if result.status == Status::Ok && !result.compared {
            result.status = Status::Unchecked;
        }
    }
}

/// Marks engines that disagree with the baseline engine on one case (its consecutive slots).
fn compare_with_baseline(loaded: &Loaded, slots: &[Slot], done: &mut [Done]) {
    let Some(first) = slots.first() else { return };
    let Some(base) = slots.iter().position(|s| Some(s.engine) == loaded.baseline) else {
        return;
    };
    let baseline = loaded.engines[slots[base].engine].name();
    let Some(Ok(case)) = loaded.cases.get(first.case).map(|p| p.case.as_ref()) else {
        return;
    };
    let Some(base_output) = done[base].output.clone() else {
        return;
    };
    for (i, slot) in slots.iter().enumerate() {
        if i == base {
            continue;
        }
        let Some(output) = &done[i].output else {
            continue;
        };
        done[i].compared = true;
        done[base].compared = true;
        let game = loaded.file.game;
        if let Err(why) = judge_block(
            game,
            case.as_ref(),
            Ok(&base_output),
            Some(output),
            loaded.config.presentation,
        ) {
            // The baseline's output stands in for the expected one; whatever the verdict,
            // the engines disagree.
            done[i].verdict = done[i].verdict.or(Some(why.verdict));
            // The verdict goes to its own column; the message stays the checker's reason.
            let why = &why.message;
            let line = format!(
                "{}: case {}: {} disagrees with {}: {why}",
                loaded.file.display(),
                loaded.first + first.case + 1,
                loaded.engines[slot.engine].name(),
                baseline
            );
            done[i].status = done[i].status.worst(CheckVerdict::WrongAnswer.status());
            // The check against the expected output already told the same reason: one line
            // per problem.
            if !done[i].message.contains(why.as_str()) {
                done[i].tell(line);
            }
        }
    }
}
