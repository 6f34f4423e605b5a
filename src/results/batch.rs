//! A [`Batch`]: the records of whole cases of one file (a file, or a chunk of one) in a compact
//! form, built where the cases were solved and folded into a [`super::Tally`] without a
//! [`Record`] per case: the names (game, file, engines) once per batch, and per case and engine
//! only numbers; the labels and runs of every entry share one buffer each.
//!
//! Invariants: a batch holds one file of one game; its entries come in (case, engine) order,
//! as the CSV rows do; an entry is what [`Record::from_rows`] makes of that case's rows (the
//! same median, the same run's program figures), so [`Batch::records`] gives exactly the
//! records of the batch's rows.

use std::ops::Range;
use std::sync::Arc;

use super::record::nearest_median;
use super::{Record, Timing};
use crate::status::Status;

/// One case of one engine: what its record holds, its label and runs kept as ranges of the
/// batch's buffers.
#[derive(Debug, Clone)]
struct Entry {
    engine: u32,
    case: usize,
    label: Range<u32>,
    cells: Option<u64>,
    status: Status,
    time_ns: Option<u64>,
    runs: Range<u32>,
    timing: Timing,
    repeats: u32,
    user_ns: Option<u64>,
    sys_ns: Option<u64>,
    memory_kb: Option<u64>,
}

/// The compact records of whole cases of one file.
#[derive(Debug, Clone)]
pub struct Batch {
    game: Arc<str>,
    file: Arc<str>,
    engines: Vec<Arc<str>>,
    entries: Vec<Entry>,
    labels: String,
    runs: Vec<u64>,
}

/// A case's figures as the tally folds them ([`super::Tally::add_cases`]) and a batch keeps
/// them ([`Batch::push`]), borrowed from a [`Record`], a batch's entry, or a case just run
/// ([`CaseView::measured`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct CaseView<'a> {
    /// 1-based case index in the file.
    pub case: usize,
    pub label: &'a str,
    /// The worst status over its runs.
    pub status: Status,
    /// The median of its runs.
    pub time_ns: Option<u64>,
    /// Every timed run, in order (empty when it could not be timed).
    pub runs: &'a [u64],
    pub timing: Timing,
    /// Calls per timed batch (1 unless `timing` is `case-repeated`).
    pub repeats: u32,
    /// External programs: the figures of the run nearest the median.
    pub user_ns: Option<u64>,
    pub sys_ns: Option<u64>,
    pub memory_kb: Option<u64>,
}

impl CaseView<'_> {
    /// With what its record holds: the median of its runs, and of `usage` (a program's user
    /// and system CPU time and peak memory per timed run; empty for internal engines) the
    /// figures of the run nearest that median.
    pub fn measured(self, usage: &[(u64, u64, Option<u64>)]) -> Self {
        let (time_ns, nearest) = nearest_median(self.runs);
        let usage = nearest.and_then(|k| usage.get(k));
        CaseView {
            time_ns,
            user_ns: usage.map(|u| u.0),
            sys_ns: usage.map(|u| u.1),
            memory_kb: usage.and_then(|u| u.2),
            ..self
        }
    }
}

impl Batch {
    /// An empty batch of `file` (its name as the CSV's `file` column) of `game`, whose
    /// entries name their engine by its index in `engines`; room for `cases` entries.
    pub fn new(game: &str, file: &str, engines: &[&str], cases: usize) -> Batch {
        Batch {
            game: game.into(),
            file: file.into(),
            engines: engines.iter().map(|&e| e.into()).collect(),
            entries: Vec::with_capacity(cases),
            labels: String::new(),
            runs: Vec::with_capacity(cases),
        }
    }

    /// Adds one case of one engine (an index into the batch's engines; `cells` the case's
    /// size), after the previous (in (case, engine) order).
    pub fn push(&mut self, engine: usize, cells: Option<u64>, view: CaseView<'_>) {
        let at = |n: usize| u32::try_from(n).expect("a batch holds less than 4 GB");
        let label = at(self.labels.len())..at(self.labels.len() + view.label.len());
        self.labels.push_str(view.label);
        let runs = at(self.runs.len())..at(self.runs.len() + view.runs.len());
        self.runs.extend_from_slice(view.runs);
        self.entries.push(Entry {
            engine: at(engine),
            case: view.case,
            label,
            cells,
            status: view.status,
            time_ns: view.time_ns,
            runs,
            timing: view.timing,
            repeats: view.repeats,
            user_ns: view.user_ns,
            sys_ns: view.sys_ns,
            memory_kb: view.memory_kb,
        });
    }

    /// Entries (cases times engines) in the batch.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub(super) fn game(&self) -> &Arc<str> {
        &self.game
    }

    pub(super) fn file(&self) -> &Arc<str> {
        &self.file
    }

    pub(super) fn engines(&self) -> &[Arc<str>] {
        &self.engines
    }

    /// Entry `i`'s engine (an index into [`Batch::engines`]), case and view.
    pub(super) fn entry(&self, i: usize) -> (usize, CaseView<'_>) {
        let e = &self.entries[i];
        let range = |r: &Range<u32>| r.start as usize..r.end as usize;
        let view = CaseView {
            case: e.case,
            label: &self.labels[range(&e.label)],
            status: e.status,
            time_ns: e.time_ns,
            runs: &self.runs[range(&e.runs)],
            timing: e.timing,
            repeats: e.repeats,
            user_ns: e.user_ns,
            sys_ns: e.sys_ns,
            memory_kb: e.memory_kb,
        };
        (e.engine as usize, view)
    }

    /// The batch as whole records (plots and raw samples need them).
    pub fn records(&self) -> Vec<Record> {
        (0..self.entries.len())
            .map(|i| {
                let (engine, v) = self.entry(i);
                Record {
                    game: self.game.clone(),
                    engine: self.engines[engine].clone(),
                    file: self.file.clone(),
                    case: v.case,
                    label: v.label.into(),
                    cells: self.entries[i].cells,
                    status: v.status,
                    time_ns: v.time_ns,
                    runs: v.runs.into(),
                    timing: v.timing,
                    repeats: v.repeats,
                    user_ns: v.user_ns,
                    sys_ns: v.sys_ns,
                    memory_kb: v.memory_kb,
                }
            })
            .collect()
    }
}

impl Record {
    /// The record as the tally folds it.
    pub(super) fn view(&self) -> CaseView<'_> {
        CaseView {
            case: self.case,
            label: &self.label,
            status: self.status,
            time_ns: self.time_ns,
            runs: &self.runs,
            timing: self.timing,
            repeats: self.repeats,
            user_ns: self.user_ns,
            sys_ns: self.sys_ns,
            memory_kb: self.memory_kb,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::schema::test_row;
    use crate::results::{Row, Tally};

    /// Rows of two engines on three cases: several runs, an untimed case, a label, programs'
    /// figures per run.
    fn rows() -> Vec<Row> {
        let mut rows = Vec::new();
        for case in 1..=3usize {
            for (engine, runs) in [("reference", vec![30, 10, 20]), ("prog", vec![7, 9])] {
                if case == 2 && engine == "prog" {
                    rows.push(Row {
                        game: "g".into(),
                        file: "d/f.in".into(),
                        ..test_row(engine, case, Status::Error, None)
                    });
                    continue;
                }
                for (r, &t) in runs.iter().enumerate() {
                    let program = engine == "prog";
                    rows.push(Row {
                        game: "g".into(),
                        file: "d/f.in".into(),
                        run: r as u32 + 1,
                        label: format!("L{case}"),
                        cells: Some(case as u64 * 4),
                        timing: if program { Timing::File } else { Timing::Case },
                        user_ns: program.then_some(100 + r as u64),
                        sys_ns: program.then_some(200 + r as u64),
                        memory_kb: program.then_some(300 + r as u64),
                        ..test_row(engine, case, Status::Ok, Some(t + case as u64))
                    });
                }
            }
        }
        rows
    }

    #[test]
    fn a_batch_s_records_are_those_of_its_rows() {
        let rows = rows();
        let engines = ["reference", "prog"];
        let mut batch = Batch::new("g", "d/f.in", &engines, 6);
        let mut start = 0;
        while start < rows.len() {
            let first = &rows[start];
            let end = start
                + rows[start..]
                    .iter()
                    .take_while(|r| (r.case, &r.engine) == (first.case, &first.engine))
                    .count();
            let group = &rows[start..end];
            let runs: Vec<u64> = group.iter().filter_map(|r| r.time_ns).collect();
            let usage: Vec<(u64, u64, Option<u64>)> = group
                .iter()
                .filter_map(|r| Some((r.user_ns?, r.sys_ns?, r.memory_kb)))
                .collect();
            let view = CaseView {
                case: first.case,
                label: &first.label,
                status: first.status,
                runs: &runs,
                timing: first.timing,
                repeats: first.repeats.unwrap_or(1),
                ..CaseView::default()
            };
            let engine = engines.iter().position(|&e| e == first.engine).unwrap();
            batch.push(engine, first.cells, view.measured(&usage));
            start = end;
        }
        let from_rows = Record::from_rows(&rows);
        let from_batch = batch.records();
        assert_eq!(batch.len(), 6);
        assert_eq!(format!("{from_batch:?}"), format!("{from_rows:?}"));
        // The median run of "reference" case 1 is 21 (runs 31, 11, 21); "prog" case 3's runs
        // are 10 and 12: the median 11 is as near both, the first is kept (user 100).
        assert_eq!(from_batch[0].time_ns, Some(21));
        assert_eq!(
            (from_batch[5].time_ns, from_batch[5].user_ns),
            (Some(11), Some(100))
        );
        // Folded as a batch, or as the records of the rows: the same figures.
        let whole = Tally::of(&from_rows, 2);
        let mut folded = Tally::new(2, false);
        folded.add_batch(&batch);
        assert_eq!(whole.summary("reference"), folded.summary("reference"));
        assert_eq!(whole.slowest(), folded.slowest());
        assert_eq!(
            (whole.results(), whole.cases()),
            (folded.results(), folded.cases())
        );
        assert_eq!((folded.results(), folded.cases()), (6, 3));
    }
}
