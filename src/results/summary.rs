//! The summary of records per (game, engine): [`EngineSummary`] (status counts, time per case,
//! runs, resources, the speed relative to the baseline) and [`slowest`] cases.
//!
//! Invariants: a summary is a function of the records only (so of the CSV: a summary can be
//! recomputed from a CSV file); engines come in first-appearance order; speed is compared only
//! over cases both engines got right (or both proved unsolvable), and when there is none the
//! summary says why (`speed_note`) instead of giving a ratio. Rendering is in `render`.

use std::collections::BTreeMap;

use serde::Serialize;

use super::record::{Groups, group_timing, share};
use super::{Record, Timing};
use crate::stats;
use crate::status::Status;

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
    pub memory_limit: usize,
    pub output_limit: usize,
    pub runtime_error: usize,
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
    /// The cases without a time, which every time figure leaves out, by status
    /// (`3 timeout, 1 runtime-error`); `None` when every case was timed.
    pub untimed: Option<String>,
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

/// The counts by status of the cases `timed` has no time for (`3 timeout`).
fn untimed(
    cases: &BTreeMap<(&str, usize), &Record>,
    timed: &BTreeMap<(&str, usize), u64>,
) -> Option<String> {
    let text = Status::ALL
        .iter()
        .filter_map(|&s| {
            let n = cases
                .iter()
                .filter(|(key, c)| c.status == s && !timed.contains_key(*key))
                .count();
            (n > 0).then(|| format!("{n} {}", s.as_str()))
        })
        .collect::<Vec<_>>()
        .join(", ");
    (!text.is_empty()).then_some(text)
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
        memory_limit: count(Status::MemoryLimit),
        output_limit: count(Status::OutputLimit),
        runtime_error: count(Status::RuntimeError),
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
        untimed: untimed(cases, &mine),
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
    // A file-timed program's per-case times are its file's time spread evenly: neither the
    // spread of the ratio nor its per-case percentiles were measured.
    if summary.timing == Timing::File || group_timing(base_cases) == Timing::File {
        summary.relative_stddev = None;
        return summary;
    }
    summary.speedup_p10 = stats::quantile_sorted(&per_case, 0.1);
    summary.speedup_median = stats::quantile_sorted(&per_case, 0.5);
    summary.speedup_p90 = stats::quantile_sorted(&per_case, 0.9);
    summary
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::schema::test_row as row;
    use crate::results::{Row, speed_text, summary_table};

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
            table.contains("4.00 ± 0 times faster than reference (over 1 of 3 cases)"),
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
}
