//! Slots to what the sinks get: a [`Row`] per (case, engine, run) when a sink wants rows, the
//! chunk's results prepared for the CSV and the summary ([`Prepared`]: CSV lines formatted
//! straight from the slots' results, and a compact [`Batch`] of records), a problem line per
//! slot with a message, and each engine's whole output of a file (`--out-dir`).
//!
//! The one place that turns a [`Done`] into a row ([`row`]) or a CSV line ([`line`]); both
//! take the same fields, so a prepared line is the line of the row (a test compares them). The
//! rows of a file come out in slot order, that is (case, engine) order, each slot's runs in
//! order; with files retired in corpus order (`pipeline.rs`) the sinks see (file, case,
//! engine, run) order.

use std::ops::Range;
use std::sync::Arc;

use super::Config;
use super::done::{Done, KeptSlot};
use super::load::{Assembled, Completions, Loaded, Message, Slot};
use super::sink::{FileOutput, Prepared};
use super::verdict::settle_cases;
use crate::external::DEFAULT_OUTPUT_LIMIT_MB;
use crate::results::{Batch, CaseView, Digest, Line, Row, Status, Tally, Timing};

/// CSV bytes reserved per row before a chunk's lines are formatted (most lines of small
/// cases fit; a longer one grows the buffer once).
const CSV_BYTES_PER_ROW: usize = 128;

/// CSV bytes reserved beyond the rows' share: a line asks for room for itself at its longest
/// before it is written (`Line::write_fields`), so without this slack the chunk's last lines
/// would grow (copy) the whole buffer.
const CSV_SLACK_BYTES: usize = 4096;

/// A chunk whose last slot just finished ([`Loaded::finish_many`] said so): assembles its rows on
/// this worker (unless case events need the results until retirement, or the stop dropped a
/// slot), then hands the chunk to the calling thread.
pub(super) fn complete(loaded: &Arc<Loaded>, tx: &Completions) {
    let dropped = {
        let done = loaded.done.lock().expect("no task panics holding it");
        done.iter().any(|d| d.as_ref().is_some_and(|d| d.dropped))
    };
    if !loaded.config.case_events && !dropped {
        let done: Vec<Done> =
            std::mem::take(&mut *loaded.done.lock().expect("no task panics holding it"))
                .into_iter()
                .map(|d| d.expect("every slot is filled once"))
                .collect();
        let assembled = assemble(loaded, done, &loaded.config);
        *loaded.assembled.lock().expect("no task panics holding it") = Some(assembled);
    }
    tx.push(Message::Chunk(loaded.clone()));
}

/// Turns a complete file's slots into rows (when a sink wants them), its prepared results,
/// outputs and problem lines, in slot order, after comparing each engine with the baseline
/// engine case by case.
pub(super) fn assemble(loaded: &Loaded, mut done: Vec<Done>, config: &Config) -> Assembled {
    let slots = &loaded.slots[..];
    settle_cases(loaded, slots, &mut done);
    let names = Names::of(loaded);
    let rows = if loaded.wants.rows {
        settled_rows(loaded, &names, slots, &done, config)
    } else {
        Vec::new()
    };
    let csv = loaded.wants.csv || config.prepare;
    let prepared = prepare(loaded, &names, &done, csv);
    let count = done.iter().map(|d| d.times.len().max(1)).sum();
    let worst = done
        .iter()
        .map(|d| d.judgement.status())
        .reduce(Status::worst);
    Assembled {
        rows,
        kept: Vec::new(),
        outputs: outputs_of(loaded, &done, config),
        problems: problems_of(loaded, slots, &done),
        prepared: Some(prepared),
        count,
        worst,
    }
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
    settle_cases(loaded, slots, done);
    let rows = settled_rows(loaded, &Names::of(loaded), slots, done, config);
    (rows, problems_of(loaded, slots, done))
}

/// The rows and problem lines of the finished slots of one case of a stopped chunk (`range`
/// holds the case's slots, `done` their results, some dropped by the stop): settled among
/// themselves, and when an engine did not finish, each row says which in its message
/// ([`crate::results::partial_note`]), so that nothing finished is lost and nothing looks whole.
/// The finished slots of such a partial case are also kept ([`KeptSlot`]: their outputs up to
/// the run's output limit, and their judgements before any comparison) for a journal, so that
/// `--resume` judges the case whole.
pub(super) fn finished_rows(
    loaded: &Loaded,
    range: Range<usize>,
    done: &[Done],
    config: &Config,
) -> (Vec<Row>, Vec<String>, Vec<KeptSlot>) {
    let mut slots = Vec::new();
    let mut finished = Vec::new();
    let mut missing = Vec::new();
    for (slot, result) in loaded.slots[range].iter().zip(done) {
        if result.dropped {
            missing.push(loaded.engines[slot.engine].name());
        } else {
            slots.push(*slot);
            finished.push(result.clone());
        }
    }
    if slots.is_empty() {
        return (Vec::new(), Vec::new(), Vec::new());
    }
    let mut kept = Vec::new();
    if !missing.is_empty() {
        let cap = config
            .program_limits
            .output_bytes
            .unwrap_or(DEFAULT_OUTPUT_LIMIT_MB << 20);
        let file = loaded.file.row_name();
        kept = slots
            .iter()
            .zip(&finished)
            .map_while(|(slot, result)| {
                let key = (
                    file.clone(),
                    loaded.first + slot.case + 1,
                    loaded.engines[slot.engine].name(),
                );
                KeptSlot::of(key, result, cap)
            })
            .collect();
        // A case is judged whole from kept slots only when every finished one was kept.
        if kept.len() < slots.len() {
            kept.clear();
        }
    }
    settle_cases(loaded, &slots, &mut finished);
    // The note is no problem of the engine's: problem lines are those it would have had.
    let problems = problems_of(loaded, &slots, &finished);
    if !missing.is_empty() {
        let note = crate::results::partial_note(&missing);
        for result in &mut finished {
            result.judgement.tell(note.clone());
        }
    }
    let rows = settled_rows(loaded, &Names::of(loaded), &slots, &finished, config);
    (rows, problems, kept)
}

/// The rows of settled slots, in order.
fn settled_rows(
    loaded: &Loaded,
    names: &Names<'_>,
    slots: &[Slot],
    done: &[Done],
    config: &Config,
) -> Vec<Row> {
    let mut rows = Vec::with_capacity(done.len() * config.runs.max(1) as usize);
    for (slot, result) in slots.iter().zip(done) {
        for_each_run(result, |r, time_ns| {
            rows.push(line(loaded, names, slot, result, r, time_ns).row());
        });
    }
    rows
}

/// A problem line per settled slot with a message, in order.
fn problems_of(loaded: &Loaded, slots: &[Slot], done: &[Done]) -> Vec<String> {
    slots
        .iter()
        .zip(done)
        .filter(|(_, result)| !result.judgement.message().is_empty())
        .map(|(slot, result)| {
            let engine = loaded.engines[slot.engine].name();
            let judgement = &result.judgement;
            format!(
                "{} [{engine}]: {}",
                judgement.status().as_str(),
                judgement.message()
            )
        })
        .collect()
}

/// Calls `each(r, time)` for every row of a slot: one per timed run (0-based), or one untimed
/// row for a slot that did not run.
fn for_each_run(result: &Done, mut each: impl FnMut(usize, Option<u64>)) {
    if result.times.is_empty() {
        each(0, None);
    }
    for (r, &t) in result.times.iter().enumerate() {
        each(r, Some(t));
    }
}

/// The CSV lines (when `csv`) and compact records of a complete chunk's settled slots.
fn prepare(loaded: &Loaded, names: &Names<'_>, done: &[Done], csv: bool) -> Prepared {
    let mut text = Vec::new();
    if csv {
        let rows: usize = done.iter().map(|d| d.times.len().max(1)).sum();
        text.reserve(rows * CSV_BYTES_PER_ROW + CSV_SLACK_BYTES);
    }
    // Each engine's first three fields, formatted once.
    let prefixes: Vec<Vec<u8>> = names
        .engines
        .iter()
        .map(|engine| {
            let mut prefix = Vec::new();
            Line::write_names(&mut prefix, names.game, engine, &names.file);
            prefix
        })
        .collect();
    // A tally without records is folded straight from the results; else a batch is kept
    // (for the records, or for a sink that folds it on the calling thread).
    let direct = matches!(loaded.wants.tally, Some((_, false)));
    let mut batch = Batch::new(
        names.game,
        &names.file,
        &names.engines,
        if direct { 0 } else { done.len() },
    );
    let mut views = Vec::with_capacity(if direct { done.len() } else { 0 });
    let mut usage = Vec::new();
    for (slot, result) in loaded.slots.iter().zip(done) {
        if csv {
            for_each_run(result, |r, time_ns| {
                text.extend_from_slice(&prefixes[slot.engine]);
                line(loaded, names, slot, result, r, time_ns).write_fields(&mut text);
            });
        }
        let parsed = loaded.cases.get(slot.case);
        usage.clear();
        usage.extend(
            result
                .usage
                .iter()
                .map(|u| (u.user_ns, u.sys_ns, u.memory_kb)),
        );
        let view = CaseView {
            case: loaded.first + slot.case + 1,
            label: parsed.map_or("", |p| &p.label),
            status: result.judgement.status(),
            runs: &result.times,
            timing: result.timing,
            repeats: if result.timing == Timing::CaseRepeated {
                result.repeats
            } else {
                1
            },
            ..CaseView::default()
        }
        .measured(&usage);
        if direct {
            views.push((slot.engine, view));
        } else {
            batch.push(slot.engine, parsed.and_then(|p| p.cells), view);
        }
    }
    // Folded here, in parallel: the calling thread only merges the tally.
    let tally = loaded.wants.tally.map(|(top, keep_records)| {
        let mut tally = Tally::new(top, keep_records);
        if direct {
            tally.add_cases(names.game, &names.file, &names.engines, &views);
        } else {
            tally.add_batch(&batch);
        }
        tally
    });
    Prepared {
        csv: csv.then_some(text),
        batch: tally.is_none().then_some(batch),
        tally,
    }
}

/// The names every row of a file repeats, worked out once per file or chunk.
struct Names<'a> {
    game: &'a str,
    file: String,
    work_unit: &'a str,
    /// Per engine of the file, its name.
    engines: Vec<&'a str>,
}

impl<'a> Names<'a> {
    fn of(loaded: &'a Loaded) -> Names<'a> {
        Names {
            game: loaded.file.game.name(),
            file: loaded.file.row_name(),
            work_unit: loaded.file.game.work_unit(),
            engines: loaded.engines.iter().map(|e| e.name()).collect(),
        }
    }
}

/// The line of run `r` (0-based) of `slot`, timed `time_ns` (none for a slot that did not
/// run): every field borrowed.
fn line<'a>(
    loaded: &'a Loaded,
    names: &'a Names<'_>,
    slot: &Slot,
    result: &'a Done,
    r: usize,
    time_ns: Option<u64>,
) -> Line<'a> {
    let parsed = loaded.cases.get(slot.case);
    let usage = result.usage.get(r);
    Line {
        game: names.game,
        engine: names.engines[slot.engine],
        file: &names.file,
        case: loaded.first + slot.case + 1,
        run: r as u32 + 1,
        label: parsed.map_or("", |p| &p.label),
        size: parsed.map_or("", |p| &p.size),
        cells: parsed.and_then(|p| p.cells),
        status: result.judgement.status(),
        time_ns,
        timing: result.timing,
        repeats: (result.timing == Timing::CaseRepeated).then_some(result.repeats),
        user_ns: usage.map(|u| u.user_ns),
        sys_ns: usage.map(|u| u.sys_ns),
        memory_kb: usage.and_then(|u| u.memory_kb),
        work: result.work,
        work_unit: if result.work.is_some() {
            names.work_unit
        } else {
            ""
        },
        score: result.score,
        digest: result.digest.map_or(Digest::None, Digest::Hash),
        message: result.judgement.message(),
        verdict: result.judgement.verdict_column(),
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
