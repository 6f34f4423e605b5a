//! The [`Tally`]: a run's records folded as they arrive, so that the summary, the slowest
//! cases, the warnings and the limit lines need no per-case record kept for the whole run.
//!
//! Per (game, engine) it keeps exact counts, sums and maxima, and per case only what a figure
//! needs case by case: its time (8 bytes, the exact median of its runs, shared out for a
//! `file`-timed case) and its status (1 byte), with the case keys as spans of consecutive
//! cases of one file (a few bytes per file). Whole [`Record`]s are kept only when asked
//! ([`Tally::new`] with `keep_records`: plots and `--samples` need every case).
//!
//! Invariants: every figure is the one computed from the whole list of records (the
//! `Record`-based functions of this module's siblings are this fold over that list); cases are
//! ordered by (file name, case) for every order-dependent figure whatever their arrival order;
//! one record per (game, engine, file, case); a `file`-timed engine's file comes in one batch
//! (external programs read their files whole), so its share of the file's time is known when
//! it arrives.

use std::collections::HashMap;
use std::sync::Arc;

use super::batch::CaseView;
use super::{Batch, Record, Row, Timing};

mod merge;
mod startup;
use crate::status::Status;
use crate::util::stats;

// The thresholds of the warnings (`super::warnings`), whose counters are folded here.

/// A case timed alone in less than this gets a warning: the cost of reading the clock (tens
/// of nanoseconds) is then a visible part of its time.
pub const ROUGH_NS: u64 = 1_000;
/// Fewest runs of a case for its outliers to mean something: with three, the median absolute
/// deviation is that of two values and flags ordinary noise.
pub const MIN_RUNS_FOR_OUTLIERS: usize = 5;
/// A run's spread worth a warning: a case whose slowest run is this many times its fastest.
pub const SPREAD_WARNING: f64 = 10.0;
/// The first run is "much slower" when its total is this many times the median of the others.
pub const FIRST_RUN_FACTOR: f64 = 2.0;

/// A case's time slot when the case could not be timed.
const UNTIMED: u64 = u64::MAX;
/// The slowest-case candidates of a group are cut back to the `top` best once they reach this
/// many times `top`: amortised, a case costs O(log) whatever the run's length.
const SLOW_SLACK: usize = 4;

/// A run of consecutive cases (1, 2, 3, ...) of one file in a group's arrival order.
#[derive(Debug, Clone, Copy)]
pub(super) struct Span {
    pub(super) file: u32,
    pub(super) first_case: usize,
    /// Position of its first case in the group's per-case vectors.
    pub(super) start: usize,
    pub(super) len: usize,
    /// How many cases shared each timed run of its cases: its file's `file`-timed cases (a
    /// program run once on the whole file), else 1 (so what one run's fixed cost, such as a
    /// program's start-up, is per case: see `startup`).
    pub(super) shared: u64,
}

/// One of the slowest-case candidates: time, file, case, label.
pub(super) type Slow = (u64, u32, usize, Box<str>);

/// The folded records of one (game, engine).
#[derive(Debug)]
pub(super) struct Group {
    pub(super) game: Arc<str>,
    pub(super) engine: Arc<str>,
    pub(super) spans: Vec<Span>,
    /// Whether the arrival order is already (file name, case) order.
    pub(super) in_order: bool,
    /// Per case, in arrival order: its time share ([`UNTIMED`] if none) and status index.
    pub(super) times: Vec<u64>,
    pub(super) statuses: Vec<u8>,
    /// Cases per status (indexed as `Status::ALL`).
    pub(super) counts: [usize; Status::ALL.len()],
    pub(super) file_timed: bool,
    pub(super) repeated: usize,
    /// Time spent in the timed batches of cases timed by repetition (each run's share times
    /// its calls).
    pub(super) repetition_ns: u64,
    /// Largest and smallest number of runs of a case.
    pub(super) max_runs: usize,
    pub(super) min_runs: usize,
    /// Sum over cases of run r (shared out per file for `file`-timed cases; raw).
    pub(super) run_totals: Vec<u64>,
    pub(super) raw_run_totals: Vec<u64>,
    pub(super) user_ns: Option<u64>,
    pub(super) sys_ns: Option<u64>,
    pub(super) memory_kb: Option<u64>,
    /// Limits: the arrival rank of its first record with program figures; the worst median
    /// time (unshared) and CPU time of a case.
    pub(super) first_program: Option<usize>,
    pub(super) worst_wall: Option<u64>,
    pub(super) worst_cpu: Option<u64>,
    /// Warnings: timed units (cases, or files of a file-timed engine) with two runs or more,
    /// those with outliers, those spread widely and the widest (fastest, slowest) run pair;
    /// the last file-timed file counted; cases timed alone under the rough threshold.
    pub(super) units: usize,
    pub(super) with_outliers: usize,
    pub(super) spread: usize,
    pub(super) widest: (u64, u64),
    pub(super) last_timed_file: Option<u32>,
    pub(super) short: usize,
    pub(super) slow: Vec<Slow>,
}

impl Group {
    fn new(game: Arc<str>, engine: Arc<str>) -> Group {
        Group {
            game,
            engine,
            spans: Vec::new(),
            in_order: true,
            times: Vec::new(),
            statuses: Vec::new(),
            counts: [0; Status::ALL.len()],
            file_timed: false,
            repeated: 0,
            repetition_ns: 0,
            max_runs: 0,
            min_runs: usize::MAX,
            run_totals: Vec::new(),
            raw_run_totals: Vec::new(),
            user_ns: None,
            sys_ns: None,
            memory_kb: None,
            first_program: None,
            worst_wall: None,
            worst_cpu: None,
            units: 0,
            with_outliers: 0,
            spread: 0,
            widest: (0, 0),
            last_timed_file: None,
            short: 0,
            slow: Vec::new(),
        }
    }

    pub(super) fn cases(&self) -> usize {
        self.times.len()
    }

    pub(super) fn count(&self, status: Status) -> usize {
        self.counts[status_index(status)]
    }

    pub(super) fn status(&self, i: usize) -> Status {
        Status::ALL[usize::from(self.statuses[i])]
    }

    /// The time of case `i`, if it was timed.
    pub(super) fn time(&self, i: usize) -> Option<u64> {
        Some(self.times[i]).filter(|&t| t != UNTIMED)
    }

    /// `file` if any case was timed with its file, else `case-repeated` if every case was,
    /// else `case`.
    pub(super) fn timing(&self) -> Timing {
        if self.file_timed {
            Timing::File
        } else if self.cases() > 0 && self.repeated == self.cases() {
            Timing::CaseRepeated
        } else {
            Timing::Case
        }
    }
}

/// A run's records, folded per (game, engine) as they arrive.
#[derive(Debug, Default)]
pub struct Tally {
    /// Slowest cases kept per engine.
    top: usize,
    keep_records: bool,
    records: Vec<Record>,
    pub(super) files: Vec<Arc<str>>,
    file_ids: HashMap<Arc<str>, u32>,
    pub(super) groups: Vec<Group>,
    results: usize,
    cases: usize,
}

impl Tally {
    /// An empty tally keeping the `top` slowest cases of each engine, and every record when
    /// `keep_records` (for plots and raw samples: memory then grows with the cases).
    pub fn new(top: usize, keep_records: bool) -> Tally {
        Tally {
            top,
            keep_records,
            ..Tally::default()
        }
    }

    /// What it keeps beyond the figures: the `top` slowest cases per engine, and whether every
    /// record (see [`Tally::new`]); a tally merged into another must have its shape.
    pub fn shape(&self) -> (usize, bool) {
        (self.top, self.keep_records)
    }

    /// The tally of a whole list of records (a CSV's, a merge's).
    pub fn of(records: &[Record], top: usize) -> Tally {
        let mut tally = Tally::new(top, false);
        tally.add(records);
        tally
    }

    /// Folds in the rows of whole cases (a file, or a chunk of one).
    pub fn add_rows(&mut self, rows: &[Row]) {
        self.add(&Record::from_rows(rows));
    }

    /// Folds in the records of whole cases (every record of a `file`-timed engine's file at
    /// once).
    pub fn add(&mut self, records: &[Record]) {
        self.results += records.len();
        // A case's records are adjacent (its engines in order): count the key changes.
        self.cases += records
            .iter()
            .enumerate()
            .filter(|&(i, r)| {
                i == 0 || {
                    let p = &records[i - 1];
                    (p.case, &*p.file, &*p.game) != (r.case, &*r.file, &*r.game)
                }
            })
            .count();
        // A file-timed case's share of its file's time: the file's file-timed cases here.
        let mut file_cases: HashMap<(&str, &str, &str), u64> = HashMap::new();
        for r in records.iter().filter(|r| r.timing == Timing::File) {
            *file_cases.entry((&r.game, &r.engine, &r.file)).or_default() += 1;
        }
        let shares: Vec<u64> = records
            .iter()
            .map(|r| match r.timing {
                Timing::File => file_cases[&(&*r.game, &*r.engine, &*r.file)],
                _ => 1,
            })
            .collect();
        drop(file_cases);
        for (record, per_file) in records.iter().zip(shares) {
            let file = self.file_id(&record.file);
            let g = self.group(&record.game, &record.engine);
            self.fold(file, g, &record.view(), per_file);
        }
        if self.keep_records {
            self.records.extend_from_slice(records);
        }
    }

    /// Folds in a batch of whole cases of one file (see [`Tally::add`]): the same figures as
    /// its records would give, with its file and engines looked up once.
    pub fn add_batch(&mut self, batch: &Batch) {
        let engines: Vec<&str> = batch.engines().iter().map(|e| &**e).collect();
        let cases: Vec<(usize, CaseView<'_>)> = (0..batch.len()).map(|i| batch.entry(i)).collect();
        self.add_cases(batch.game(), batch.file(), &engines, &cases);
        if self.keep_records {
            self.records.extend(batch.records());
        }
    }

    /// Folds in whole cases of one file of `game` (its name as the CSV's `file` column), each
    /// an index into `engines` and its figures, in (case, engine) order: what [`Tally::add`]
    /// makes of their records, straight from where they were solved (no record is built, so a
    /// tally that keeps records needs [`Tally::add_batch`]).
    pub fn add_cases(
        &mut self,
        game: &str,
        file: &str,
        engines: &[&str],
        cases: &[(usize, CaseView<'_>)],
    ) {
        if cases.is_empty() {
            return;
        }
        self.results += cases.len();
        let file = self.file_id(file);
        let groups: Vec<usize> = engines
            .iter()
            .map(|engine| self.group(game, engine))
            .collect();
        // Per engine, its file-timed cases here (a file-timed case's share of its file's time).
        let mut file_cases = vec![0u64; groups.len()];
        let mut previous = None;
        for (engine, view) in cases {
            if view.timing == Timing::File {
                file_cases[*engine] += 1;
            }
            // A case's entries are adjacent: count the case changes.
            if previous != Some(view.case) {
                self.cases += 1;
                previous = Some(view.case);
            }
        }
        for (engine, view) in cases {
            let per_file = match view.timing {
                Timing::File => file_cases[*engine],
                _ => 1,
            };
            self.fold(file, groups[*engine], view, per_file);
        }
    }

    /// Records folded (one per case and engine).
    pub fn results(&self) -> usize {
        self.results
    }

    /// Distinct (game, file, case) folded (a case's records come together).
    pub fn cases(&self) -> usize {
        self.cases
    }

    /// Time spent in the timed batches of the cases timed by repetition, over every engine (a
    /// lower bound of what timing them cost: warm-up calls are not counted).
    pub fn repetition_ns(&self) -> u64 {
        self.groups
            .iter()
            .fold(0u64, |sum, g| sum.saturating_add(g.repetition_ns))
    }

    /// Every record, in arrival order, when the tally keeps them (else none).
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    fn file_id(&mut self, file: &str) -> u32 {
        if let Some(last) = self.files.last()
            && **last == *file
        {
            return (self.files.len() - 1) as u32;
        }
        if let Some(&id) = self.file_ids.get(file) {
            return id;
        }
        let id = self.files.len() as u32;
        let file: Arc<str> = file.into();
        self.files.push(file.clone());
        self.file_ids.insert(file, id);
        id
    }

    fn group(&mut self, game: &str, engine: &str) -> usize {
        match self
            .groups
            .iter()
            .position(|g| *g.game == *game && *g.engine == *engine)
        {
            Some(g) => g,
            None => {
                self.groups.push(Group::new(game.into(), engine.into()));
                self.groups.len() - 1
            }
        }
    }

    /// Folds one record of file `file` into group `g`; `per_file` is its file's count of
    /// file-timed cases (1 otherwise).
    fn fold(&mut self, file: u32, g: usize, r: &CaseView<'_>, per_file: u64) {
        let rank = self.results;
        let top = self.top;
        let files = &self.files;
        let group = &mut self.groups[g];
        let share = |t: u64| t / per_file.max(1);
        // The key, after the last one (a new span unless it continues it).
        let i = group.times.len();
        match group.spans.last_mut() {
            Some(last)
                if last.file == file
                    && last.first_case + last.len == r.case
                    && last.shared == per_file =>
            {
                last.len += 1;
            }
            last => {
                if let Some(last) = last {
                    let previous = (&*files[last.file as usize], last.first_case + last.len - 1);
                    group.in_order &= previous < (&*files[file as usize], r.case);
                }
                group.spans.push(Span {
                    file,
                    first_case: r.case,
                    start: i,
                    len: 1,
                    shared: per_file,
                });
            }
        }
        group.times.push(r.time_ns.map_or(UNTIMED, share));
        group.statuses.push(status_index(r.status) as u8);
        group.counts[status_index(r.status)] += 1;
        group.file_timed |= r.timing == Timing::File;
        if r.timing == Timing::CaseRepeated {
            group.repeated += 1;
            let batches: u64 = r.runs.iter().sum();
            group.repetition_ns = group
                .repetition_ns
                .saturating_add(batches.saturating_mul(u64::from(r.repeats)));
        }
        group.max_runs = group.max_runs.max(r.runs.len());
        group.min_runs = group.min_runs.min(r.runs.len());
        if group.run_totals.len() < r.runs.len() {
            group.run_totals.resize(r.runs.len(), 0);
            group.raw_run_totals.resize(r.runs.len(), 0);
        }
        for (k, &t) in r.runs.iter().enumerate() {
            group.run_totals[k] += share(t);
            group.raw_run_totals[k] += t;
        }
        let add = |sum: &mut Option<u64>, v: Option<u64>| {
            if let Some(v) = v {
                *sum = Some(sum.unwrap_or(0) + share(v));
            }
        };
        add(&mut group.user_ns, r.user_ns);
        add(&mut group.sys_ns, r.sys_ns);
        group.memory_kb = group.memory_kb.max(r.memory_kb);
        if r.user_ns.is_some() && group.first_program.is_none() {
            group.first_program = Some(rank);
        }
        group.worst_wall = group.worst_wall.max(r.time_ns);
        if let Some(user) = r.user_ns {
            group.worst_cpu = group.worst_cpu.max(Some(user + r.sys_ns.unwrap_or(0)));
        }
        fold_warnings(group, r, file);
        if top > 0
            && let Some(t) = r.time_ns
        {
            group.slow.push((share(t), file, r.case, r.label.into()));
            if group.slow.len() >= SLOW_SLACK * top {
                sort_slowest(&mut group.slow, files);
                group.slow.truncate(top);
            }
        }
    }

    /// The slowest-case candidates of group `g`, slowest first (ties: file name, then case),
    /// at most `top`.
    pub(super) fn slowest_of(&self, g: usize) -> Vec<Slow> {
        let mut slow = self.groups[g].slow.clone();
        sort_slowest(&mut slow, &self.files);
        slow.truncate(self.top);
        slow
    }

    /// The positions of group `g`'s cases in (file name, case) order, with their keys.
    pub(super) fn ordered(&self, g: usize) -> impl Iterator<Item = (u32, usize, usize)> + '_ {
        let group = &self.groups[g];
        let mut spans: Vec<&Span> = group.spans.iter().collect();
        if !group.in_order {
            spans.sort_by(|a, b| {
                (&*self.files[a.file as usize], a.first_case)
                    .cmp(&(&*self.files[b.file as usize], b.first_case))
            });
        }
        spans
            .into_iter()
            .flat_map(|s| (0..s.len).map(move |k| (s.file, s.first_case + k, s.start + k)))
    }

    /// The group of (game, engine), if any record of it was folded.
    pub(super) fn find(&self, game: &str, engine: &str) -> Option<usize> {
        self.groups
            .iter()
            .position(|g| &*g.game == game && &*g.engine == engine)
    }

    /// Whether key (file `a`, case) comes before, at or after (file `b`, case) in (file name,
    /// case) order.
    pub(super) fn cmp_keys(&self, a: (u32, usize), b: (u32, usize)) -> std::cmp::Ordering {
        if a.0 == b.0 {
            return a.1.cmp(&b.1);
        }
        (&*self.files[a.0 as usize], a.1).cmp(&(&*self.files[b.0 as usize], b.1))
    }
}

/// Folds one record of `group` (of file `file`) into its warning counters.
fn fold_warnings(group: &mut Group, c: &CaseView<'_>, file: u32) {
    if c.timing == Timing::Case && c.time_ns.is_some_and(|t| t < ROUGH_NS) {
        group.short += 1;
    }
    // A file-timed engine's cases share their file's runs: count each file once.
    if c.timing == Timing::File {
        if group.last_timed_file == Some(file) {
            return;
        }
        group.last_timed_file = Some(file);
    }
    if c.runs.len() < 2 {
        return;
    }
    group.units += 1;
    let runs: Vec<f64> = c.runs.iter().map(|&t| t as f64).collect();
    if runs.len() >= MIN_RUNS_FOR_OUTLIERS && stats::outliers(&runs) > 0 {
        group.with_outliers += 1;
    }
    let (lo, hi) = (
        *c.runs.iter().min().expect("runs"),
        *c.runs.iter().max().expect("runs"),
    );
    if hi as f64 > SPREAD_WARNING * lo.max(1) as f64 {
        group.spread += 1;
        if hi - lo > group.widest.1 - group.widest.0 {
            group.widest = (lo, hi);
        }
    }
}

/// Slowest first; equal times in (file name, case) order.
fn sort_slowest(slow: &mut [Slow], files: &[Arc<str>]) {
    slow.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then_with(|| (&*files[a.1 as usize], a.2).cmp(&(&*files[b.1 as usize], b.2)))
    });
}

/// A status's place in `Status::ALL`.
fn status_index(status: Status) -> usize {
    Status::ALL
        .iter()
        .position(|&s| s == status)
        .expect("every status is in ALL")
}

/// Group `g`'s case times in (file name, case) order, untimed cases left out.
pub(super) fn times_in_order(tally: &Tally, g: usize) -> Vec<u64> {
    let group = &tally.groups[g];
    if group.in_order {
        // Arrival order is (file name, case) order: the per-case vector as it is.
        return group
            .times
            .iter()
            .copied()
            .filter(|&t| t != UNTIMED)
            .collect();
    }
    tally
        .ordered(g)
        .filter_map(|(_, _, i)| group.time(i))
        .collect()
}

#[cfg(test)]
mod tests;
