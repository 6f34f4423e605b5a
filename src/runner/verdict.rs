//! The runner's verdicts on a slot's output: the check against the expected `X.out`
//! (`--check`), the comparison of every engine with the baseline engine case by case, and
//! `unchecked` for an `ok` compared with nothing. Both comparisons go through
//! [`crate::engines::judge_block`]; a rejection's status is [`CheckVerdict::status`].
//!
//! This module finds what to compare; what a comparison makes of a slot's status, verdict and
//! message is the [`super::judgement::Judgement`]'s to decide.

use super::done::{Done, line};
use super::load::{Loaded, Slot};
use crate::engines::judge_block;

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
    let block = match &**expected {
        Err(why) => Err(why.clone()),
        Ok(blocks) => blocks
            .get(index - 1)
            .map(String::as_str)
            .ok_or_else(|| format!("the expected output has no case {index}")),
    };
    let checked = judge_block(
        loaded.file.game,
        parsed.as_ref(),
        block,
        Some(output),
        loaded.config.presentation,
    );
    done.judgement.against_expected(checked.map_err(|rejected| {
        let told = line(&loaded.file, index, &rejected);
        (rejected, told)
    }));
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
        result.judgement.settle();
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
        let compared = judge_block(
            loaded.file.game,
            case.as_ref(),
            Ok(&base_output),
            Some(output),
            loaded.config.presentation,
        );
        done[base].judgement.served_as_baseline();
        done[i].judgement.against_baseline(compared.map_err(|why| {
            // The verdict goes to its own column; the message says the checker's reason.
            let engine = loaded.engines[slot.engine].name();
            let what = format!("{engine} disagrees with {baseline}: {}", why.message);
            let told = line(&loaded.file, loaded.first + first.case + 1, what);
            (why, told)
        }));
    }
}
