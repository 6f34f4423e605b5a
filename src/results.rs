//! The results of a run: one CSV row per case, engine and timed run, and the summary table.
//!
//! The CSV is the raw data (schema below, stable column order, a header row); the summary is
//! derived from the rows only, so a summary can be recomputed from a CSV file. Columns added
//! later (`cells`, `repeats`, `user_ns`, `sys_ns`, `memory_kb`) may be missing from older CSVs:
//! they read as empty.
//!
//! | column    | meaning                                                                  |
//! |-----------|--------------------------------------------------------------------------|
//! | game      | game name (`linkpop`, `samegame`, `vexed`, `yut`)                        |
//! | engine    | engine name                                                              |
//! | file      | the input file, relative to the path named on the command line          |
//! | case      | 1-based index of the case in its file                                    |
//! | run       | 1-based timed run of this case (`--runs`); warm-up runs are not recorded |
//! | label     | the case's name where the game has one (Vexed puzzle name)               |
//! | size      | the case's size (`30x30`, `21 turns`)                                    |
//! | cells     | the case's size as a number (cells, turns, selections): a plot's x axis  |
//! | status    | `ok`, `unchecked`, `mismatch`, `error`, `unsolved`, `budget`, `timeout`  |
//! | time_ns   | wall time of the engine on this case (empty for an unreadable case)      |
//! | timing    | what `time_ns` covers: `case`, `case-repeated` or `file`                 |
//! | repeats   | calls timed together for `case-repeated` (`time_ns` is one call's share) |
//! | user_ns   | external programs: user CPU time of the run (the whole file's)           |
//! | sys_ns    | external programs: system CPU time of the run (the whole file's)         |
//! | memory_kb | external programs: peak resident memory of the run, KiB                  |
//! | work      | the engine's work counter                                                |
//! | work_unit | what `work` counts (`turns`, `pops`, `states`, ...)                      |
//! | score     | the answer's size where the game has one (Vexed: solution length)        |
//! | digest    | XXH3-64 of the case's output block, hex                                  |
//! | message   | why a case is `error`/`mismatch`, with file, case and line               |
//! | verdict   | the checker's verdict on a rejected output: `wrong-answer`,               |
//! |           | `presentation-error` or `checker-failure` (bad expected output); else empty |

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::stats;
pub use crate::status::Status;

/// What a row's time covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Timing {
    /// The engine's time on this one case.
    #[serde(rename = "case")]
    Case,
    /// The case was too short to time alone: `repeats` calls were timed together and the
    /// time is one call's share.
    #[serde(rename = "case-repeated")]
    CaseRepeated,
    /// A whole file's time (external programs run once per file): the same on each of its rows.
    #[serde(rename = "file")]
    File,
}

impl Timing {
    pub fn as_str(self) -> &'static str {
        match self {
            Timing::Case => "case",
            Timing::CaseRepeated => "case-repeated",
            Timing::File => "file",
        }
    }
}

/// One row of the results CSV.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub game: String,
    pub engine: String,
    pub file: String,
    pub case: usize,
    pub run: u32,
    pub label: String,
    pub size: String,
    #[serde(default)]
    pub cells: Option<u64>,
    pub status: Status,
    pub time_ns: Option<u64>,
    pub timing: Timing,
    #[serde(default)]
    pub repeats: Option<u32>,
    #[serde(default)]
    pub user_ns: Option<u64>,
    #[serde(default)]
    pub sys_ns: Option<u64>,
    #[serde(default)]
    pub memory_kb: Option<u64>,
    pub work: Option<u64>,
    pub work_unit: String,
    pub score: Option<u64>,
    pub digest: String,
    pub message: String,
    /// [`crate::game::CheckVerdict`] of a rejected output (`--check` or the comparison with
    /// the baseline), empty otherwise. Absent from CSVs of older versions: read as empty.
    #[serde(default)]
    pub verdict: String,
}

/// Writes rows as CSV with a header row.
pub fn write_csv<W: Write>(out: W, rows: &[Row]) -> csv::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    for row in rows {
        writer.serialize(row)?;
    }
    writer.flush()?;
    Ok(())
}

/// Reads rows written by [`write_csv`].
pub fn read_csv<R: std::io::Read>(input: R) -> csv::Result<Vec<Row>> {
    csv::Reader::from_reader(input).deserialize().collect()
}

/// One line of the summary: an engine of a game over all its cases. Times are per case (an
/// external program's file time spread evenly over the file's cases), in nanoseconds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EngineSummary {
    pub game: String,
    pub engine: String,
    pub cases: usize,
    pub ok: usize,
    pub unchecked: usize,
    pub mismatch: usize,
    pub error: usize,
    pub unsolved: usize,
    pub budget: usize,
    pub timeout: usize,
    /// What the times cover: `file` when any case was timed with its whole file (an external
    /// program: per-case times are then the file's time / its cases).
    pub timing: Timing,
    /// Cases timed by repetition (too short to time alone).
    pub repeated: usize,
    /// Cases timed, over which the figures below are computed.
    pub timed: usize,
    /// Sum over cases of each case's median run time (work, not the run's wall time).
    pub total_ns: u64,
    pub mean_ns: f64,
    pub stddev_ns: f64,
    pub median_ns: f64,
    pub min_ns: u64,
    pub max_ns: u64,
    /// Timed runs per case (`--runs`), and with more than one, the mean and standard deviation
    /// of each run's total over the cases.
    pub runs: usize,
    pub run_mean_ns: Option<f64>,
    pub run_stddev_ns: Option<f64>,
    /// External programs: user and system CPU time summed over the runs' files (the median
    /// run of each), and the largest peak resident memory.
    pub user_ns: Option<u64>,
    pub sys_ns: Option<u64>,
    pub memory_kb: Option<u64>,
    /// The engine the others are compared with (none for the baseline itself, or when the
    /// baseline did not run on this game).
    pub baseline: Option<String>,
    /// How many times faster than the baseline: the baseline's total time over this engine's,
    /// both summed over the comparable cases (both engines `ok`, or both `unsolved`, and in
    /// agreement); `None` when there is no such case.
    pub relative: Option<f64>,
    /// The standard error of `relative`: a bootstrap over the comparable cases (fixed seed).
    pub relative_stddev: Option<f64>,
    /// The comparable cases `relative` covers (of `cases`).
    pub compared_cases: usize,
    /// The distribution of the per-case ratio (baseline time / this engine's) over the
    /// comparable cases: 10th percentile, median, 90th percentile.
    pub speedup_p10: Option<f64>,
    pub speedup_median: Option<f64>,
    pub speedup_p90: Option<f64>,
    /// Why there is no ratio when none can be given honestly (`81 mismatch`).
    pub speed_note: Option<String>,
}

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

/// The median of integers, the mean of the two middle values (rounded down) for an even count;
/// `None` for an empty list.
pub fn median_u64(values: &mut [u64]) -> Option<u64> {
    values.sort_unstable();
    let n = values.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(values[n / 2]),
        _ => Some(((u128::from(values[n / 2 - 1]) + u128::from(values[n / 2])) / 2) as u64),
    }
}

impl Record {
    /// The records of CSV rows: one per (game, engine, file, case), runs folded into the median.
    pub fn from_rows(rows: &[Row]) -> Vec<Record> {
        fn name<'r>(names: &mut HashMap<&'r str, Arc<str>>, s: &'r str) -> Arc<str> {
            names.entry(s).or_insert_with(|| s.into()).clone()
        }
        let mut index: HashMap<(&str, &str, &str, usize), usize> = HashMap::new();
        let mut records: Vec<Record> = Vec::new();
        let mut times: Vec<Vec<(u64, &Row)>> = Vec::new();
        let mut names: HashMap<&str, Arc<str>> = HashMap::new();
        for row in rows {
            let key = (&*row.game, &*row.engine, &*row.file, row.case);
            let i = *index.entry(key).or_insert_with(|| {
                records.push(Record {
                    game: name(&mut names, &row.game),
                    engine: name(&mut names, &row.engine),
                    file: name(&mut names, &row.file),
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
                });
                times.push(Vec::new());
                records.len() - 1
            });
            records[i].status = records[i].status.worst(row.status);
            if let Some(t) = row.time_ns {
                times[i].push((t, row));
            }
        }
        for (record, runs) in records.iter_mut().zip(times) {
            record.runs = runs.iter().map(|(t, _)| *t).collect();
            let mut sorted = record.runs.to_vec();
            record.time_ns = median_u64(&mut sorted);
            // The resources of the run whose time is nearest the median.
            if let Some(median) = record.time_ns
                && let Some((_, row)) = runs.iter().min_by_key(|(t, _)| t.abs_diff(median))
            {
                record.user_ns = row.user_ns;
                record.sys_ns = row.sys_ns;
                record.memory_kb = row.memory_kb;
            }
        }
        records
    }
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

    fn find(&self, game: &str, engine: &str) -> Option<usize> {
        self.keys.iter().position(|&k| k == (game, engine))
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

/// One of the slowest cases of an engine.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SlowCase {
    pub file: String,
    pub case: usize,
    pub label: String,
    pub time_ns: u64,
}

/// The `n` slowest cases of every (game, engine), slowest first (ties: file, then case).
pub fn slowest(records: &[Record], n: usize) -> Vec<(String, String, Vec<SlowCase>)> {
    let groups = Groups::new(records);
    (0..groups.keys.len())
        .map(|g| {
            let mut mine: Vec<SlowCase> = groups
                .times(g)
                .into_iter()
                .map(|((file, case), time_ns)| SlowCase {
                    file: file.to_string(),
                    case,
                    label: groups.cases[g][&(file, case)].label.to_string(),
                    time_ns,
                })
                .collect();
            // Stable sort: equal times keep (file, case) order.
            mine.sort_by_key(|c| std::cmp::Reverse(c.time_ns));
            mine.truncate(n);
            let (game, engine) = groups.keys[g];
            (game.to_string(), engine.to_string(), mine)
        })
        .collect()
}

/// Whether a case's work can be timed against another engine's: an accepted answer, or an
/// agreed proof that there is none. (`unchecked` never meets a baseline: a case compared with
/// the baseline is `ok` or worse.)
fn comparable(status: Status) -> bool {
    matches!(status, Status::Ok | Status::Unsolved)
}

/// The counts of the statuses that are not comparable, for a speed note: `81 mismatch`.
fn not_comparable(cases: &BTreeMap<(&str, usize), &Record>) -> String {
    Status::ALL
        .iter()
        .filter(|s| !comparable(**s))
        .filter_map(|&s| {
            let n = cases.values().filter(|c| c.status == s).count();
            (n > 0).then(|| format!("{n} {}", s.as_str()))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Summarises rows per game and engine, in first-appearance order. The baseline of a game is
/// `baseline` when that engine ran on it, else none.
pub fn summarize(records: &[Record], baseline: &str) -> Vec<EngineSummary> {
    let groups = Groups::new(records);
    (0..groups.keys.len())
        .map(|g| summarize_group(&groups, g, baseline))
        .collect()
}

fn summarize_group(groups: &Groups<'_>, g: usize, baseline: &str) -> EngineSummary {
    let (game, engine) = groups.keys[g];
    let cases = &groups.cases[g];
    let count = |s: Status| cases.values().filter(|c| c.status == s).count();
    let mine = groups.times(g);
    let mut values: Vec<u64> = mine.values().copied().collect();
    let total_ns = values.iter().sum();
    let floats: Vec<f64> = values.iter().map(|&t| t as f64).collect();
    let (mean_ns, stddev_ns) = stats::mean_stddev(&floats).unwrap_or((0.0, 0.0));
    let median_ns = stats::median(&floats).unwrap_or(0.0);
    values.sort_unstable();
    let (min_ns, max_ns) = (
        values.first().copied().unwrap_or(0),
        values.last().copied().unwrap_or(0),
    );
    // Per-run totals: run r of every case (an external file's time once per file).
    let file_cases = groups.file_cases(g);
    let runs = cases.values().map(|c| c.runs.len()).max().unwrap_or(0);
    let (run_mean_ns, run_stddev_ns) = if runs > 1 {
        let totals: Vec<f64> = (0..runs)
            .map(|r| {
                cases
                    .values()
                    .filter_map(|c| c.runs.get(r).map(|&t| share(c, t, &file_cases)))
                    .sum::<u64>() as f64
            })
            .collect();
        let (m, sd) = stats::mean_stddev(&totals).expect("runs > 1");
        (Some(m), Some(sd))
    } else {
        (None, None)
    };
    let resource = |f: fn(&Record) -> Option<u64>| -> Option<u64> {
        let mut any = false;
        let sum = cases
            .values()
            .filter_map(|c| {
                let v = f(c)?;
                any = true;
                Some(share(c, v, &file_cases))
            })
            .sum();
        any.then_some(sum)
    };
    let user_ns = resource(|c| c.user_ns);
    let sys_ns = resource(|c| c.sys_ns);
    let memory_kb = cases.values().filter_map(|c| c.memory_kb).max();

    let base = groups.find(game, baseline).filter(|_| engine != baseline);
    let mut summary = EngineSummary {
        game: game.to_string(),
        engine: engine.to_string(),
        cases: cases.len(),
        ok: count(Status::Ok),
        unchecked: count(Status::Unchecked),
        mismatch: count(Status::Mismatch),
        error: count(Status::Error),
        unsolved: count(Status::Unsolved),
        budget: count(Status::Budget),
        timeout: count(Status::Timeout),
        timing: group_timing(cases),
        repeated: cases
            .values()
            .filter(|c| c.timing == Timing::CaseRepeated)
            .count(),
        timed: mine.len(),
        total_ns,
        mean_ns,
        stddev_ns,
        median_ns,
        min_ns,
        max_ns,
        runs,
        run_mean_ns,
        run_stddev_ns,
        user_ns,
        sys_ns,
        memory_kb,
        baseline: base.map(|_| baseline.to_string()),
        relative: None,
        relative_stddev: None,
        compared_cases: 0,
        speedup_p10: None,
        speedup_median: None,
        speedup_p90: None,
        speed_note: None,
    };
    let Some(b) = base else {
        return summary;
    };
    let base_times = groups.times(b);
    let base_cases = &groups.cases[b];
    let pairs: Vec<(f64, f64)> = mine
        .iter()
        .filter(|(key, _)| comparable(cases[*key].status))
        .filter(|(key, _)| base_cases.get(*key).is_some_and(|c| comparable(c.status)))
        .filter_map(|(key, &t)| Some((*base_times.get(key)? as f64, t as f64)))
        .collect();
    summary.compared_cases = pairs.len();
    if pairs.is_empty() {
        let (mine_bad, base_bad) = (not_comparable(cases), not_comparable(base_cases));
        summary.speed_note = Some(match (mine_bad.is_empty(), base_bad.is_empty()) {
            (false, _) => mine_bad,
            (true, false) => format!("{baseline}: {base_bad}"),
            (true, true) => "no case timed by both".to_string(),
        });
        return summary;
    }
    if let Some((ratio, sd)) = stats::ratio_of_sums(&pairs) {
        summary.relative = Some(ratio);
        summary.relative_stddev = Some(sd);
    }
    let per_case = stats::sorted(
        &pairs
            .iter()
            .filter(|(_, t)| *t > 0.0)
            .map(|(b, t)| b / t)
            .collect::<Vec<_>>(),
    );
    summary.speedup_p10 = stats::quantile_sorted(&per_case, 0.1);
    summary.speedup_median = stats::quantile_sorted(&per_case, 0.5);
    summary.speedup_p90 = stats::quantile_sorted(&per_case, 0.9);
    summary
}

/// A duration in nanoseconds for people: `812 ns`, `3.41 µs`, `12.0 ms`, `1.52 s`.
pub fn human_time(ns: u64) -> String {
    human_time_f(ns as f64)
}

/// [`human_time`] of a fractional number of nanoseconds (means, medians).
pub fn human_time_f(ns: f64) -> String {
    let unit = TimeUnit::for_ns(ns);
    format!("{} {}", unit.number(ns), unit.symbol())
}

/// A unit of time for a column or a number: the largest in which the value is at least 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    Ns,
    Us,
    Ms,
    S,
}

impl TimeUnit {
    pub fn for_ns(ns: f64) -> TimeUnit {
        if ns < 1e3 {
            TimeUnit::Ns
        } else if ns < 1e6 {
            TimeUnit::Us
        } else if ns < 1e9 {
            TimeUnit::Ms
        } else {
            TimeUnit::S
        }
    }

    /// Nanoseconds per unit.
    pub fn scale(self) -> f64 {
        match self {
            TimeUnit::Ns => 1.0,
            TimeUnit::Us => 1e3,
            TimeUnit::Ms => 1e6,
            TimeUnit::S => 1e9,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            TimeUnit::Ns => "ns",
            TimeUnit::Us => "µs",
            TimeUnit::Ms => "ms",
            TimeUnit::S => "s",
        }
    }

    /// `ns` in this unit with three significant digits (whole nanoseconds in `ns`).
    pub fn number(self, ns: f64) -> String {
        if self == TimeUnit::Ns {
            return format!("{}", ns.round() as u64);
        }
        let value = ns / self.scale();
        let digits = if value < 10.0 {
            2
        } else if value < 100.0 {
            1
        } else {
            0
        };
        format!("{value:.digits$}")
    }
}

/// The speed column: `3.02 ± 0.11 times faster than reference`, marked
/// `(over X of Y cases)` when it covers only part of the engine's cases; `n/a: 81 mismatch`
/// when no case can be compared; empty when there is no baseline.
pub fn speed_text(s: &EngineSummary) -> String {
    let (Some(baseline), Some(x)) = (&s.baseline, s.relative) else {
        return match &s.speed_note {
            Some(note) => format!("n/a: {note}"),
            None => String::new(),
        };
    };
    let sd = s.relative_stddev.unwrap_or(0.0);
    let mut text = if x >= 1.0 {
        format!("{x:.2} ± {sd:.2} times faster than {baseline}")
    } else {
        // 1/x's standard error, to first order: sd / x².
        format!(
            "{:.2} ± {:.2} times slower than {baseline}",
            1.0 / x,
            sd / (x * x)
        )
    };
    if s.compared_cases < s.cases {
        text.push_str(&format!(
            " (over {} of {} cases)",
            s.compared_cases, s.cases
        ));
    }
    text
}

/// Whether the table shows a status column: `ok` always, the others when some engine has one.
/// A status column: its name and its count in a summary line.
type StatusColumn = (&'static str, fn(&EngineSummary) -> usize);

fn status_columns(summaries: &[EngineSummary]) -> Vec<StatusColumn> {
    let all: [StatusColumn; 7] = [
        ("ok", |s| s.ok),
        ("unchecked", |s| s.unchecked),
        ("mismatch", |s| s.mismatch),
        ("error", |s| s.error),
        ("unsolved", |s| s.unsolved),
        ("budget", |s| s.budget),
        ("timeout", |s| s.timeout),
    ];
    all.into_iter()
        .filter(|(name, f)| *name == "ok" || summaries.iter().any(|s| f(s) > 0))
        .collect()
}

/// `mean ± σ` of an engine's per-case times.
fn mean_text(s: &EngineSummary) -> String {
    if s.timed == 0 {
        return String::new();
    }
    let unit = TimeUnit::for_ns(s.mean_ns);
    format!(
        "{} ± {} {}",
        unit.number(s.mean_ns),
        unit.number(s.stddev_ns),
        unit.symbol()
    )
}

/// The summary as an aligned text table: status counts (zero columns left out, `ok` always
/// shown), time per case (total, mean ± σ, min, median, max; an external program's file time
/// shared evenly by its cases, marked `*`) and the speed relative to the baseline.
pub fn summary_table(summaries: &[EngineSummary]) -> String {
    let statuses = status_columns(summaries);
    let mut header: Vec<String> = ["game", "engine", "cases"].map(String::from).to_vec();
    header.extend(statuses.iter().map(|(n, _)| n.to_string()));
    header.extend(["total", "mean ± σ", "min", "median", "max", "speed"].map(String::from));
    let mut lines: Vec<Vec<String>> = vec![header.clone()];
    for s in summaries {
        let speed = if s.baseline.is_none()
            && s.speed_note.is_none()
            && summaries
                .iter()
                .any(|o| o.game == s.game && o.baseline.as_deref() == Some(&s.engine))
        {
            "baseline".to_string()
        } else {
            speed_text(s)
        };
        let engine = if s.timing == Timing::File {
            format!("{}*", s.engine)
        } else {
            s.engine.clone()
        };
        let mut line = vec![s.game.clone(), engine, s.cases.to_string()];
        line.extend(statuses.iter().map(|(_, f)| f(s).to_string()));
        let time = |ns: f64| {
            if s.timed == 0 {
                String::new()
            } else {
                human_time_f(ns)
            }
        };
        line.extend([
            time(s.total_ns as f64),
            mean_text(s),
            time(s.min_ns as f64),
            time(s.median_ns),
            time(s.max_ns as f64),
            speed,
        ]);
        lines.push(line);
    }
    let columns = header.len();
    let mut text = aligned(&lines, |c| c < 2 || c == columns - 1);
    if summaries.iter().any(|s| s.timing == Timing::File) {
        text.push_str(
            "* an external program, run once per file: its time per case is the file's time / the file's cases\n",
        );
    }
    text
}

/// The lines under the table that give what a ratio hides: per comparison, the cases it
/// covers and the distribution of the per-case speed-up; per engine with `--runs` > 1, the
/// spread of the run totals; per external program, its CPU time and peak memory.
pub fn detail_lines(summaries: &[EngineSummary]) -> String {
    let mut text = String::new();
    for s in summaries {
        let who = format!("{}/{}", s.game, s.engine);
        if let (Some(b), Some(p10), Some(med), Some(p90)) =
            (&s.baseline, s.speedup_p10, s.speedup_median, s.speedup_p90)
        {
            text.push_str(&format!(
                "{who}: speed-up per case over {b}: median {} (p10 {}, p90 {}) over {} of {} cases\n",
                times(med),
                times(p10),
                times(p90),
                s.compared_cases,
                s.cases
            ));
        }
        if let (Some(m), Some(sd)) = (s.run_mean_ns, s.run_stddev_ns) {
            text.push_str(&format!(
                "{who}: time of one run over all cases: {} ± {} ({} runs)\n",
                human_time_f(m),
                human_time_f(sd),
                s.runs
            ));
        }
        if s.user_ns.is_some() || s.memory_kb.is_some() {
            text.push_str(&format!(
                "{who}: CPU user {}, system {} (one run, summed over files); peak memory {}\n",
                s.user_ns.map_or("?".into(), human_time),
                s.sys_ns.map_or("?".into(), human_time),
                s.memory_kb.map_or(
                    "not measurable (below gamebench's own peak, which wait4 reports for a small program)".into(),
                    |m| format!("{m} KiB")
                ),
            ));
        }
        if s.repeated > 0 {
            text.push_str(&format!(
                "{who}: {} of {} cases were too short to time alone and were timed by repetition\n",
                s.repeated, s.cases
            ));
        }
    }
    text
}

/// A ratio with three significant digits however small (`0.000123x`), two decimals from 1 up.
fn times(x: f64) -> String {
    let digits = if x >= 1.0 || x <= 0.0 {
        2
    } else {
        (2.0 - x.log10().floor()) as usize
    };
    format!("{x:.digits$}x")
}

/// What was verified, per game: against the expected outputs (`--check`), against the
/// baseline engine, or nothing (then the cases are `unchecked`, and the summary says so).
pub fn verdict_lines(summaries: &[EngineSummary], check: bool) -> String {
    let mut games: Vec<&str> = Vec::new();
    for s in summaries {
        if !games.contains(&s.game.as_str()) {
            games.push(&s.game);
        }
    }
    let mut text = String::new();
    for game in games {
        let mine: Vec<&EngineSummary> = summaries.iter().filter(|s| s.game == game).collect();
        let results: usize = mine.iter().map(|s| s.cases).sum();
        let ok: usize = mine.iter().map(|s| s.ok).sum();
        let unchecked: usize = mine.iter().map(|s| s.unchecked).sum();
        let baseline = mine.iter().find_map(|s| s.baseline.as_deref());
        let against = match (check, baseline) {
            (true, Some(b)) => format!("the expected outputs (--check) and {b}'s outputs"),
            (true, None) => "the expected outputs (--check)".to_string(),
            (false, Some(b)) => format!("{b}'s outputs (no --check)"),
            (false, None) => String::new(),
        };
        if against.is_empty() {
            text.push_str(&format!(
                "verdict: {game}: no output was compared (no --check and no baseline engine beside the others): {unchecked} of {results} results are unchecked\n"
            ));
        } else {
            text.push_str(&format!(
                "verdict: {game}: outputs compared with {against}: {ok} of {results} results ok"
            ));
            if unchecked > 0 {
                text.push_str(&format!(", {unchecked} unchecked"));
            }
            text.push('\n');
        }
    }
    text
}

/// A case timed alone in less than this is timed again by repetition: below it the clock's
/// resolution and the cost of reading it (tens of nanoseconds) are more than a few percent of
/// the time. Above it a case is timed alone: repeating every case of a few microseconds would
/// double the cost of a run over many small cases (100,000 Yut files) for a gain in accuracy
/// of a percent or two.
pub const REPEAT_BELOW_NS: u64 = 1_000;
/// How long a batch of repeated calls lasts, at least (the batch's time divided by its calls
/// is the case's time).
pub const MIN_TIMED_NS: u64 = 10_000;
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

/// Hyperfine's warnings, per engine: outlier runs, runs spread widely, a first run much slower
/// than the others (cold caches), and cases timed alone below [`ROUGH_NS`].
pub fn warnings(records: &[Record]) -> Vec<String> {
    let groups = Groups::new(records);
    let mut out = Vec::new();
    for g in 0..groups.keys.len() {
        let (game, engine) = groups.keys[g];
        let who = format!("{game}/{engine}");
        let cases = &groups.cases[g];
        // A file-timed engine's cases share their file's runs: count each file once.
        let mut seen_files: Vec<&str> = Vec::new();
        let (mut units, mut with_outliers, mut spread, mut widest) = (0, 0, 0, (0u64, 0u64));
        for ((file, _), c) in cases {
            if c.timing == Timing::File {
                if seen_files.last() == Some(file) {
                    continue;
                }
                seen_files.push(file);
            }
            if c.runs.len() < 2 {
                continue;
            }
            units += 1;
            let runs: Vec<f64> = c.runs.iter().map(|&t| t as f64).collect();
            if runs.len() >= MIN_RUNS_FOR_OUTLIERS && stats::outliers(&runs) > 0 {
                with_outliers += 1;
            }
            let (lo, hi) = (
                *c.runs.iter().min().expect("runs"),
                *c.runs.iter().max().expect("runs"),
            );
            if hi as f64 > SPREAD_WARNING * lo.max(1) as f64 {
                spread += 1;
                if hi - lo > widest.1 - widest.0 {
                    widest = (lo, hi);
                }
            }
        }
        let unit = if seen_files.is_empty() {
            "cases"
        } else {
            "files"
        };
        if with_outliers > 0 {
            out.push(format!(
                "warning: {who}: {with_outliers} of {units} {unit} have statistical outliers among their runs (modified Z-score > {}): another program or a cold cache may have disturbed them; use --warmup, more --runs or a quieter machine",
                stats::OUTLIER_Z
            ));
        }
        if spread > 0 {
            out.push(format!(
                "warning: {who}: the runs of {spread} of {units} {unit} differ more than {SPREAD_WARNING}-fold (widest: {} to {}): its times are not reproducible",
                human_time(widest.0),
                human_time(widest.1)
            ));
        }
        let runs = cases.values().map(|c| c.runs.len()).min().unwrap_or(0);
        if runs >= 3 {
            let totals: Vec<f64> = (0..runs)
                .map(|r| cases.values().map(|c| c.runs[r]).sum::<u64>() as f64)
                .collect();
            let rest = stats::median(&totals[1..]).expect("runs >= 3");
            if totals[0] > FIRST_RUN_FACTOR * rest {
                out.push(format!(
                    "warning: {who}: the first run was much slower than the others ({} against a median of {}): caches were probably cold; use --warmup",
                    human_time_f(totals[0]),
                    human_time_f(rest)
                ));
            }
        }
        let short = cases
            .values()
            .filter(|c| c.timing == Timing::Case && c.time_ns.is_some_and(|t| t < ROUGH_NS))
            .count();
        if short > 0 {
            out.push(format!(
                "warning: {who}: {short} cases were timed alone in under {}, near the clock's resolution and the cost of reading it: their times are rough (drop --no-repeat to time them by repetition)",
                human_time(ROUGH_NS)
            ));
        }
    }
    out
}

/// Plain-text columns: every cell padded to its column's widest, two spaces apart, left-aligned
/// in the columns `left` names and right-aligned in the others; one line per row, without
/// trailing spaces.
pub fn aligned(rows: &[Vec<String>], left: impl Fn(usize) -> bool) -> String {
    let columns = rows.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut text = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (cell, w))| {
                if left(c) {
                    format!("{cell:<w$}")
                } else {
                    format!("{cell:>w$}")
                }
            })
            .collect();
        text.push_str(cells.join("  ").trim_end());
        text.push('\n');
    }
    text
}
#[cfg(test)]
mod tests {
    use super::*;

    fn row(engine: &str, case: usize, status: Status, time: Option<u64>) -> Row {
        Row {
            game: "toy".into(),
            engine: engine.into(),
            file: "f.in".into(),
            case,
            run: 1,
            label: String::new(),
            size: String::new(),
            cells: None,
            status,
            time_ns: time,
            timing: Timing::Case,
            repeats: None,
            user_ns: None,
            sys_ns: None,
            memory_kb: None,
            work: Some(1),
            work_unit: "turns".into(),
            score: None,
            digest: String::new(),
            message: String::new(),
            verdict: String::new(),
        }
    }

    #[test]
    fn speed_is_only_over_comparable_cases_and_says_so() {
        let rows = vec![
            row("reference", 1, Status::Ok, Some(400_000)),
            row("reference", 2, Status::Ok, Some(600_000)),
            row("reference", 3, Status::Error, None),
            row("table", 1, Status::Ok, Some(100_000)),
            row("table", 2, Status::Mismatch, Some(100_000)),
            row("table", 3, Status::Error, None),
        ];
        let s = summarize(&Record::from_rows(&rows), "reference");
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].cases, s[0].ok, s[0].error), (3, 2, 1));
        assert_eq!(s[0].relative, None);
        assert_eq!(
            (s[1].ok, s[1].mismatch, s[1].total_ns, s[1].max_ns),
            (1, 1, 200_000, 100_000)
        );
        // Only case 1 is ok for both: 400 / 100.
        assert_eq!((s[1].relative, s[1].compared_cases), (Some(4.0), 1));
        assert_eq!(s[1].relative_stddev, Some(0.0));
        let table = summary_table(&s);
        assert!(
            table.contains("4.00 ± 0.00 times faster than reference (over 1 of 3 cases)"),
            "{table}"
        );
        assert!(table.contains("baseline"), "{table}");
    }

    #[test]
    fn no_ratio_for_an_engine_with_only_wrong_answers() {
        let rows = vec![
            row("reference", 1, Status::Ok, Some(400)),
            row("reference", 2, Status::Ok, Some(600)),
            row("mine", 1, Status::Mismatch, Some(1)),
            row("mine", 2, Status::Mismatch, Some(1)),
        ];
        let s = summarize(&Record::from_rows(&rows), "reference");
        assert_eq!(s[1].relative, None);
        assert_eq!(speed_text(&s[1]), "n/a: 2 mismatch");
        assert!(!summary_table(&s).contains("faster"));
        // And when the baseline is the one that failed.
        let rows = vec![
            row("reference", 1, Status::Budget, Some(400)),
            row("bitset", 1, Status::Ok, Some(1)),
        ];
        let s = summarize(&Record::from_rows(&rows), "reference");
        assert_eq!(speed_text(&s[1]), "n/a: reference: 1 budget");
    }

    #[test]
    fn statistics_of_case_times_by_hand() {
        // Times 1, 2, 3, 4 µs: mean 2.5, sample σ sqrt(5/3) = 1.29, median (2 + 3) / 2.
        let rows: Vec<Row> = (1..=4)
            .map(|k| row("reference", k, Status::Ok, Some(k as u64 * 1000)))
            .collect();
        let s = &summarize(&Record::from_rows(&rows), "reference")[0];
        assert_eq!((s.mean_ns, s.median_ns), (2500.0, 2500.0));
        assert!((s.stddev_ns - (5.0f64 / 3.0).sqrt() * 1000.0).abs() < 1e-9);
        assert_eq!((s.min_ns, s.max_ns, s.total_ns), (1000, 4000, 10_000));
        assert!(summary_table(std::slice::from_ref(s)).contains("2.50 ± 1.29 µs"));
    }

    #[test]
    fn per_case_speedup_distribution() {
        // Ratios 1, 2, ..., 10 over ten cases: p10 1.9, median 5.5, p90 9.1 (linear).
        let mut rows = Vec::new();
        for k in 1..=10u64 {
            rows.push(row("reference", k as usize, Status::Ok, Some(k * 1000)));
            rows.push(row("fast", k as usize, Status::Ok, Some(1000)));
        }
        let s = &summarize(&Record::from_rows(&rows), "reference")[1];
        assert!((s.speedup_p10.unwrap() - 1.9).abs() < 1e-9);
        assert!((s.speedup_median.unwrap() - 5.5).abs() < 1e-9);
        assert!((s.speedup_p90.unwrap() - 9.1).abs() < 1e-9);
        assert_eq!(s.relative, Some(5.5));
        assert!(s.relative_stddev.unwrap() > 0.0);
    }

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

    #[test]
    fn verdicts_say_what_was_compared() {
        let one = summarize(
            &Record::from_rows(&[row("bitboard", 1, Status::Unchecked, Some(5))]),
            "reference",
        );
        let text = verdict_lines(&one, false);
        assert!(text.contains("no output was compared"), "{text}");
        assert!(text.contains("1 of 1 results are unchecked"), "{text}");
        assert!(verdict_lines(&one, true).contains("the expected outputs (--check)"));
        let two = summarize(
            &Record::from_rows(&[
                row("reference", 1, Status::Ok, Some(5)),
                row("bitboard", 1, Status::Ok, Some(5)),
            ]),
            "reference",
        );
        assert!(verdict_lines(&two, false).contains("reference's outputs (no --check): 2 of 2"));
    }

    #[test]
    fn warnings_for_noisy_runs_and_a_cold_first_run() {
        let mut rows = Vec::new();
        // Case 1: runs 10, 10, 10, 10, 1000 µs (an outlier, a 100-fold spread); case 2: a
        // first run 50 times the others.
        for (r, t) in [10, 10, 10, 10, 1000].into_iter().enumerate() {
            let mut x = row("e", 1, Status::Ok, Some(t * 1000));
            x.run = r as u32 + 1;
            rows.push(x);
        }
        for (r, t) in [5000, 100, 100, 100, 100].into_iter().enumerate() {
            let mut x = row("e", 2, Status::Ok, Some(t * 1000));
            x.run = r as u32 + 1;
            rows.push(x);
        }
        let w = warnings(&Record::from_rows(&rows)).join("\n");
        assert!(w.contains("2 of 2 cases have statistical outliers"), "{w}");
        assert!(w.contains("differ more than 10-fold"), "{w}");
        assert!(w.contains("first run was much slower"), "{w}");
        assert!(warnings(&Record::from_rows(&[row("e", 1, Status::Ok, Some(20_000))])).is_empty());
        let rough = warnings(&Record::from_rows(&[row("e", 1, Status::Ok, Some(200))]));
        assert!(
            rough[0].contains("1 cases were timed alone in under 1.00 µs"),
            "{rough:?}"
        );
    }

    #[test]
    fn csv_round_trips_with_header_and_reads_old_columns() {
        let rows = vec![
            row("reference", 1, Status::Ok, Some(5)),
            row("table", 1, Status::Error, None),
        ];
        let mut bytes = Vec::new();
        write_csv(&mut bytes, &rows).unwrap();
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(text.starts_with(
            "game,engine,file,case,run,label,size,cells,status,time_ns,timing,repeats,user_ns,sys_ns,memory_kb,work,work_unit,score,digest,message,verdict\n"
        ));
        assert_eq!(read_csv(&bytes[..]).unwrap(), rows);
        let old = "game,engine,file,case,run,label,size,status,time_ns,timing,work,work_unit,score,digest,message\n\
                   toy,reference,f.in,1,1,,,ok,5,case,1,turns,,,\n";
        assert_eq!(read_csv(old.as_bytes()).unwrap(), rows[..1]);
    }

    #[test]
    fn small_ratios_keep_their_digits() {
        assert_eq!(times(4.0), "4.00x");
        assert_eq!(times(0.5), "0.500x");
        assert_eq!(times(0.0000412), "0.0000412x");
    }

    #[test]
    fn a_csv_without_the_verdict_column_still_reads() {
        let old = "game,engine,file,case,run,label,size,status,time_ns,timing,work,work_unit,score,digest,message\n\
                   toy,reference,f.in,1,1,,,mismatch,5,case,1,turns,,,why\n";
        let rows = read_csv(old.as_bytes()).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(
            (rows[0].status, rows[0].verdict.as_str()),
            (Status::Mismatch, "")
        );
    }

    #[test]
    fn human_times() {
        assert_eq!(human_time(812), "812 ns");
        assert_eq!(human_time(3_410), "3.41 µs");
        assert_eq!(human_time(12_040_000), "12.0 ms");
        assert_eq!(human_time(1_520_000_000), "1.52 s");
    }
}
