//! The per-case [`Record`]: what the summary takes of one case of one engine (its status and
//! the times of its runs, folded into their median), and the per-case times of plots. The
//! runner folds records into a [`super::Tally`] as they come and keeps them only for plots and
//! raw samples.
//!
//! Invariants: one record per (game, engine, file, case), whatever the number of runs; its
//! status is the worst over its runs; a `file`-timed case's time is its whole file's, shared
//! out over the file's cases by the tally and by [`per_case_times`].

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use super::{Row, Timing};
use crate::status::Status;
use crate::util::stats;

/// What the summary keeps of one case of one engine: its status and times, without the output,
/// digest or message, so that a run's memory does not grow with its outputs. Names are shared
/// (`Arc<str>`): one allocation per file and per engine, not per case.
#[derive(Debug, Clone)]
pub struct Record {
    pub game: Arc<str>,
    pub engine: Arc<str>,
    pub file: Arc<str>,
    /// 1-based case index.
    pub case: usize,
    pub label: Box<str>,
    /// The case's size as a number (see the `cells` column).
    pub cells: Option<u64>,
    /// The worst status over the case's runs.
    pub status: Status,
    /// The median of the timed runs (none for a case that could not be timed).
    pub time_ns: Option<u64>,
    /// Every timed run, in order.
    pub runs: Box<[u64]>,
    pub timing: Timing,
    /// Calls per timed batch (1 unless `timing` is `case-repeated`).
    pub repeats: u32,
    /// External programs: CPU times and peak memory of the median run (the whole file's).
    pub user_ns: Option<u64>,
    pub sys_ns: Option<u64>,
    pub memory_kb: Option<u64>,
}

impl Record {
    /// The records of CSV rows: one per (game, engine, file, case), runs folded into the median.
    /// The rows of one case of one engine are adjacent (their runs in order), as in every CSV
    /// and as the sinks get them: rows are grouped as they come, with no lookup.
    pub fn from_rows(rows: &[Row]) -> Vec<Record> {
        let mut records: Vec<Record> = Vec::new();
        // The run times of the last record, and the rows they came from.
        let mut times: Vec<(u64, &Row)> = Vec::new();
        let same = |r: &Record, row: &Row| {
            r.case == row.case
                && *r.engine == *row.engine
                && *r.file == *row.file
                && *r.game == *row.game
        };
        for row in rows {
            match records.last_mut() {
                Some(last) if same(last, row) => {
                    last.status = last.status.worst(row.status);
                }
                last => {
                    if let Some(last) = last {
                        fold_runs(last, &times);
                    }
                    times.clear();
                    // Names shared with the previous record when equal: one allocation each.
                    let name = |s: &str, of: fn(&Record) -> &Arc<str>| -> Arc<str> {
                        match records.last() {
                            Some(r) if **of(r) == *s => of(r).clone(),
                            _ => s.into(),
                        }
                    };
                    let record = Record {
                        game: name(&row.game, |r| &r.game),
                        engine: name(&row.engine, |r| &r.engine),
                        file: name(&row.file, |r| &r.file),
                        case: row.case,
                        label: row.label.as_str().into(),
                        cells: row.cells,
                        status: row.status,
                        time_ns: None,
                        runs: Box::new([]),
                        timing: row.timing,
                        repeats: row.repeats.unwrap_or(1),
                        user_ns: None,
                        sys_ns: None,
                        memory_kb: None,
                    };
                    records.push(record);
                }
            }
            if let Some(t) = row.time_ns {
                times.push((t, row));
            }
        }
        if let Some(last) = records.last_mut() {
            fold_runs(last, &times);
        }
        records
    }
}

/// Sets a record's runs, their median and the resources of the run nearest the median.
fn fold_runs(record: &mut Record, runs: &[(u64, &Row)]) {
    record.runs = runs.iter().map(|(t, _)| *t).collect();
    let (median, nearest) = nearest_median(&record.runs);
    record.time_ns = median;
    if let Some(k) = nearest {
        let row = runs[k].1;
        record.user_ns = row.user_ns;
        record.sys_ns = row.sys_ns;
        record.memory_kb = row.memory_kb;
    }
}

/// The median of a case's runs, and the index of the run nearest it (the first of equals),
/// whose program figures the case keeps; `None`s for no run.
pub(super) fn nearest_median(runs: &[u64]) -> (Option<u64>, Option<usize>) {
    let median = match runs {
        [] => None,
        [t] => Some(*t),
        many => stats::median_u64(many),
    };
    let nearest = median.and_then(|m| (0..runs.len()).min_by_key(|&k| runs[k].abs_diff(m)));
    (median, nearest)
}

/// Records grouped per (game, engine) in first-appearance order, each group's cases sorted by
/// (file, case).
struct Groups<'a> {
    keys: Vec<(&'a str, &'a str)>,
    cases: Vec<BTreeMap<(&'a str, usize), &'a Record>>,
}

impl<'a> Groups<'a> {
    fn new(records: &'a [Record]) -> Self {
        let mut index: HashMap<(&str, &str), usize> = HashMap::new();
        let mut groups = Groups {
            keys: Vec::new(),
            cases: Vec::new(),
        };
        for record in records {
            let g = *index
                .entry((&record.game, &record.engine))
                .or_insert_with(|| {
                    groups.keys.push((&record.game, &record.engine));
                    groups.cases.push(BTreeMap::new());
                    groups.keys.len() - 1
                });
            groups.cases[g].insert((&record.file, record.case), record);
        }
        groups
    }

    /// How many `file`-timed cases each file of group `g` has.
    fn file_cases(&self, g: usize) -> BTreeMap<&'a str, u64> {
        let mut per_file: BTreeMap<&str, u64> = BTreeMap::new();
        for ((file, _), case) in &self.cases[g] {
            if case.timing == Timing::File {
                *per_file.entry(file).or_default() += 1;
            }
        }
        per_file
    }

    /// Per-case time of group `g`. A `file`-timed case (an external program, timed per file)
    /// gets its file's time spread evenly over the file's cases, so totals and speed-ups stay
    /// per-file exact.
    fn times(&self, g: usize) -> BTreeMap<(&'a str, usize), u64> {
        let per_file = self.file_cases(g);
        self.cases[g]
            .iter()
            .filter_map(|(&(file, n), c)| Some(((file, n), share(c, c.time_ns?, &per_file))))
            .collect()
    }
}

/// A case's share of a time: all of it, or for a `file`-timed case its file's time / cases.
fn share(record: &Record, t: u64, file_cases: &BTreeMap<&str, u64>) -> u64 {
    match record.timing {
        Timing::File => t / file_cases.get(&*record.file).copied().unwrap_or(1).max(1),
        _ => t,
    }
}

/// One engine's per-case times for a plot: game, engine, what the times cover, and per case
/// its size (`cells`) and time.
pub type CaseTimes = (String, String, Timing, Vec<(Option<u64>, u64)>);

/// Per-case times of every (game, engine), as summarised: the median of runs, an external
/// program's file time spread evenly over its cases. For plots.
pub fn per_case_times(records: &[Record]) -> Vec<CaseTimes> {
    let groups = Groups::new(records);
    (0..groups.keys.len())
        .map(|g| {
            let (game, engine) = groups.keys[g];
            let times = groups.times(g);
            let timing = group_timing(&groups.cases[g]);
            let points = times
                .iter()
                .map(|(key, &t)| (groups.cases[g][key].cells, t))
                .collect();
            (game.to_string(), engine.to_string(), timing, points)
        })
        .collect()
}

/// `file` if any case of the group was timed with its file, else `case-repeated` if every case
/// was, else `case`.
fn group_timing(cases: &BTreeMap<(&str, usize), &Record>) -> Timing {
    if cases.values().any(|c| c.timing == Timing::File) {
        Timing::File
    } else if !cases.is_empty() && cases.values().all(|c| c.timing == Timing::CaseRepeated) {
        Timing::CaseRepeated
    } else {
        Timing::Case
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::schema::test_row as row;
    use crate::results::summarize;

    #[test]
    fn median_of_runs_is_the_case_time_and_runs_are_kept() {
        let mut rows = vec![
            row("reference", 1, Status::Ok, Some(50)),
            row("reference", 1, Status::Ok, Some(10)),
        ];
        rows[1].run = 2;
        rows.push(Row {
            run: 3,
            time_ns: Some(30),
            ..rows[0].clone()
        });
        let records = Record::from_rows(&rows);
        assert_eq!(&*records[0].runs, &[50, 10, 30]);
        let s = summarize(&records, "reference");
        assert_eq!((s[0].cases, s[0].total_ns, s[0].runs), (1, 30, 3));
        assert_eq!(s[0].run_mean_ns, Some(30.0));
        // An even count of runs: the mean of the middle two.
        rows.push(Row {
            run: 4,
            time_ns: Some(40),
            ..rows[0].clone()
        });
        assert_eq!(Record::from_rows(&rows)[0].time_ns, Some(35));
    }
}
