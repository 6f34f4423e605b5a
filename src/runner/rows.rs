//! Slots to what the sinks get: a [`Row`] per (case, engine, run), a problem line per slot
//! with a message, and each engine's whole output of a file (`--out-dir`).
//!
//! The one place that builds a [`Row`] from a [`Done`] ([`row`]). The rows of a file come out
//! in slot order, that is (case, engine) order, each slot's runs in order; with files retired
//! in corpus order (`pipeline.rs`) the sinks see (file, case, engine, run) order.

use std::ops::Range;

use super::Config;
use super::done::Done;
use super::load::{Assembled, Loaded, Slot};
use super::sink::{FileOutput, Prepared};
use super::verdict::settle_cases;
use crate::results::{Row, Timing};

/// Turns a complete file's slots into rows, outputs and problem lines, in slot order,
/// after comparing each engine with the baseline engine case by case.
pub(super) fn assemble(loaded: &Loaded, mut done: Vec<Done>, config: &Config) -> Assembled {
    let (rows, problems) = rows_of(loaded, 0..loaded.slots.len(), &mut done, config);
    let outputs = outputs_of(loaded, &done, config);
    let prepared = config.prepare.then(|| Prepared::of(&rows));
    (rows, outputs, problems, prepared)
}

/// The rows and problem lines of the slots in `range` (whole cases), after comparing
/// each engine with the baseline engine case by case; `done` holds those slots' results.
pub(super) fn rows_of(
    loaded: &Loaded,
    range: Range<usize>,
    done: &mut [Done],
    config: &Config,
) -> (Vec<Row>, Vec<String>) {
    let slots = &loaded.slots[range];
    settle_cases(loaded, slots, done, &config.baseline);
    let mut rows = Vec::with_capacity(done.len() * config.runs.max(1) as usize);
    let mut problems = Vec::new();
    let names = Names {
        game: loaded.file.game.name(),
        file: loaded.file.row_name(),
        work_unit: loaded.file.game.work_unit(),
    };
    for (slot, result) in slots.iter().zip(done.iter()) {
        let runs: Vec<Option<u64>> = if result.times.is_empty() {
            vec![None]
        } else {
            result.times.iter().map(|&t| Some(t)).collect()
        };
        for (r, time_ns) in runs.into_iter().enumerate() {
            rows.push(row(loaded, &names, slot, result, r, time_ns));
        }
        if !result.message.is_empty() {
            let engine = loaded.engines[slot.engine].name();
            problems.push(format!(
                "{} [{engine}]: {}",
                result.status.as_str(),
                result.message
            ));
        }
    }
    (rows, problems)
}

/// The names every row of a file repeats, worked out once per file or chunk.
struct Names<'a> {
    game: &'a str,
    file: String,
    work_unit: &'a str,
}

/// The row of run `r` (0-based) of `slot`, timed `time_ns` (none for a slot that did not
/// run).
fn row(
    loaded: &Loaded,
    names: &Names<'_>,
    slot: &Slot,
    result: &Done,
    r: usize,
    time_ns: Option<u64>,
) -> Row {
    let parsed = loaded.cases.get(slot.case);
    let usage = result.usage.get(r);
    Row {
        game: names.game.to_string(),
        engine: loaded.engines[slot.engine].name().to_string(),
        file: names.file.clone(),
        case: loaded.first + slot.case + 1,
        run: r as u32 + 1,
        label: parsed.map(|p| p.label.clone()).unwrap_or_default(),
        size: parsed.map(|p| p.size.clone()).unwrap_or_default(),
        cells: parsed.and_then(|p| p.cells),
        status: result.status,
        time_ns,
        timing: result.timing,
        repeats: (result.timing == Timing::CaseRepeated).then_some(result.repeats),
        user_ns: usage.map(|u| u.user_ns),
        sys_ns: usage.map(|u| u.sys_ns),
        memory_kb: usage.and_then(|u| u.memory_kb),
        work: result.work,
        work_unit: if result.work.is_some() {
            names.work_unit.to_string()
        } else {
            String::new()
        },
        score: result.score,
        digest: result.digest.clone(),
        message: result.message.clone(),
        verdict: result.verdict.map(Into::into).or(result.limit),
    }
}

/// Each engine's whole output of a complete file (when the run keeps outputs).
pub(super) fn outputs_of(loaded: &Loaded, done: &[Done], config: &Config) -> Vec<FileOutput> {
    if !config.keep_outputs {
        return Vec::new();
    }
    (0..loaded.engines.len())
        .map(|e| {
            let blocks: Vec<&str> = loaded
                .slots
                .iter()
                .zip(done)
                .filter(|(slot, _)| slot.engine == e)
                .filter_map(|(_, d)| d.output.as_deref())
                .collect();
            FileOutput {
                engine: loaded.engines[e].name().to_string(),
                text: loaded.file.game.join(&blocks),
            }
        })
        .collect()
}
