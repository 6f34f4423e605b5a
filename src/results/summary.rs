//! The summary of records per (game, engine): [`EngineSummary`] (status counts, time per case,
//! runs, resources, the speed relative to the baseline) and [`slowest`] cases, computed from
//! a [`Tally`] (the records folded as they came).
//!
//! Invariants: a summary is a function of the records only (so of the CSV: a summary can be
//! recomputed from a CSV file); engines come in first-appearance order; speed is compared only
//! over cases both engines got right (or both proved unsolvable), and when there is none the
//! summary says why (`speed_note`) instead of giving a ratio. Rendering is in `render`.

use serde::Serialize;

use super::tally::{Group, Tally, times_in_order};
use super::{Record, Timing};
use crate::status::Status;
use crate::util::stats;

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
    Tally::of(records, n).slowest()
}

/// Summarises records per game and engine, in first-appearance order. The baseline of a game
/// is `baseline` when that engine ran on it, else none.
pub fn summarize(records: &[Record], baseline: &str) -> Vec<EngineSummary> {
    Tally::of(records, 0).summary(baseline)
}

/// Whether a case's work can be timed against another engine's: an accepted answer, or an
/// agreed proof that there is none. (`unchecked` never meets a baseline: a case compared with
/// the baseline is `ok` or worse.)
fn comparable(status: Status) -> bool {
    matches!(status, Status::Ok | Status::Unsolved)
}

/// The counts of the statuses that are not comparable, for a speed note: `81 mismatch`.
fn not_comparable(group: &Group) -> String {
    Status::ALL
        .iter()
        .filter(|s| !comparable(**s))
        .filter_map(|&s| {
            let n = group.count(s);
            (n > 0).then(|| format!("{n} {}", s.as_str()))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

impl Tally {
    /// The `top` slowest cases of every (game, engine) (see [`Tally::new`]), slowest first
    /// (ties: file, then case).
    pub fn slowest(&self) -> Vec<(String, String, Vec<SlowCase>)> {
        (0..self.groups.len())
            .map(|g| {
                let mine = self
                    .slowest_of(g)
                    .into_iter()
                    .map(|(time_ns, file, case, label)| SlowCase {
                        file: self.files[file as usize].to_string(),
                        case,
                        label: label.into(),
                        time_ns,
                    })
                    .collect();
                let group = &self.groups[g];
                (group.game.to_string(), group.engine.to_string(), mine)
            })
            .collect()
    }

    /// The summary per game and engine, in first-appearance order. The baseline of a game is
    /// `baseline` when that engine ran on it, else none.
    pub fn summary(&self, baseline: &str) -> Vec<EngineSummary> {
        (0..self.groups.len())
            .map(|g| summarize_group(self, g, baseline))
            .collect()
    }
}

/// The counts by status of the cases of `group` that have no time (`3 timeout`), which every
/// time figure leaves out.
fn untimed(group: &Group) -> Option<String> {
    let mut counts = [0usize; Status::ALL.len()];
    for i in (0..group.cases()).filter(|&i| group.time(i).is_none()) {
        counts[Status::ALL
            .iter()
            .position(|&s| s == group.status(i))
            .expect("every status is in Status::ALL")] += 1;
    }
    let text = Status::ALL
        .iter()
        .zip(counts)
        .filter(|&(_, n)| n > 0)
        .map(|(s, n)| format!("{n} {}", s.as_str()))
        .collect::<Vec<_>>()
        .join(", ");
    (!text.is_empty()).then_some(text)
}

fn summarize_group(tally: &Tally, g: usize, baseline: &str) -> EngineSummary {
    let group = &tally.groups[g];
    let (game, engine) = (&*group.game, &*group.engine);
    let mut values = times_in_order(tally, g);
    let timed = values.len();
    let total_ns = values.iter().sum();
    let (mean_ns, stddev_ns) = stats::mean_stddev_u64(&values).unwrap_or((0.0, 0.0));
    let (min_ns, max_ns) = (
        values.iter().copied().min().unwrap_or(0),
        values.iter().copied().max().unwrap_or(0),
    );
    let median_ns = stats::quantile_u64(&mut values, 0.5).unwrap_or(0.0);
    drop(values);
    // Per-run totals: run r of every case (an external file's time once per file).
    let runs = group.max_runs;
    let (run_mean_ns, run_stddev_ns) = if runs > 1 {
        let totals: Vec<f64> = group.run_totals[..runs].iter().map(|&t| t as f64).collect();
        let (m, sd) = stats::mean_stddev(&totals).expect("runs > 1");
        (Some(m), Some(sd))
    } else {
        (None, None)
    };

    let base = tally.find(game, baseline).filter(|_| engine != baseline);
    let mut summary = EngineSummary {
        game: game.to_string(),
        engine: engine.to_string(),
        cases: group.cases(),
        ok: group.count(Status::Ok),
        unchecked: group.count(Status::Unchecked),
        mismatch: group.count(Status::Mismatch),
        error: group.count(Status::Error),
        unsolved: group.count(Status::Unsolved),
        budget: group.count(Status::Budget),
        timeout: group.count(Status::Timeout),
        memory_limit: group.count(Status::MemoryLimit),
        output_limit: group.count(Status::OutputLimit),
        runtime_error: group.count(Status::RuntimeError),
        timing: group.timing(),
        repeated: group.repeated,
        timed,
        total_ns,
        mean_ns,
        stddev_ns,
        median_ns,
        min_ns,
        max_ns,
        runs,
        run_mean_ns,
        run_stddev_ns,
        user_ns: group.user_ns,
        sys_ns: group.sys_ns,
        memory_kb: group.memory_kb,
        baseline: base.map(|_| baseline.to_string()),
        relative: None,
        relative_stddev: None,
        compared_cases: 0,
        speedup_p10: None,
        speedup_median: None,
        speedup_p90: None,
        speed_note: None,
        untimed: untimed(group),
    };
    let Some(b) = base else {
        return summary;
    };
    let base_group = &tally.groups[b];
    // Both in (file, case) order: a merge of the two key sequences pairs equal keys.
    let mut base_keys = tally.ordered(b).peekable();
    let mut pairs: Vec<(f64, f64)> = Vec::new();
    for (file, case, i) in tally.ordered(g) {
        let Some(t) = group.time(i).filter(|_| comparable(group.status(i))) else {
            continue;
        };
        while base_keys
            .next_if(|&(bf, bc, _)| tally.cmp_keys((bf, bc), (file, case)).is_lt())
            .is_some()
        {}
        if let Some(&(bf, bc, j)) = base_keys.peek()
            && tally.cmp_keys((bf, bc), (file, case)).is_eq()
            && comparable(base_group.status(j))
            && let Some(bt) = base_group.time(j)
        {
            pairs.push((bt as f64, t as f64));
        }
    }
    summary.compared_cases = pairs.len();
    if pairs.is_empty() {
        let (mine_bad, base_bad) = (not_comparable(group), not_comparable(base_group));
        summary.speed_note = Some(match (mine_bad.is_empty(), base_bad.is_empty()) {
            (false, _) => mine_bad,
            (true, false) => format!("{baseline}: {base_bad}"),
            (true, true) => "no case timed by both".to_string(),
        });
        return summary;
    }
    let Some((ratio, sd)) = stats::ratio_of_sums(&pairs) else {
        // Every compared time read 0: a program whose runs were all within its calibrated
        // start-up, or cases below the clock's resolution. No ratio, but never a silent blank.
        summary.speed_note = Some(format!(
            "its {} read 0 (within its start-up or below the clock's resolution)",
            crate::util::units::counted(pairs.len() as u64, "compared case", "compared cases")
        ));
        return summary;
    };
    summary.relative = Some(ratio);
    summary.relative_stddev = Some(sd);
    let per_case = stats::sorted(
        &pairs
            .iter()
            .filter(|(_, t)| *t > 0.0)
            .map(|(b, t)| b / t)
            .collect::<Vec<_>>(),
    );
    // A file-timed program's per-case times are its file's time spread evenly: neither the
    // spread of the ratio nor its per-case percentiles were measured.
    if summary.timing == Timing::File || base_group.timing() == Timing::File {
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
    fn times_that_all_read_0_say_so_instead_of_a_blank_speed() {
        // A program whose start-up, taken out, left nothing of its two cases' times.
        let rows = vec![
            row("reference", 1, Status::Ok, Some(400)),
            row("reference", 2, Status::Ok, Some(600)),
            row("mine", 1, Status::Ok, Some(0)),
            row("mine", 2, Status::Ok, Some(0)),
        ];
        let s = summarize(&Record::from_rows(&rows), "reference");
        assert_eq!((s[1].relative, s[1].compared_cases), (None, 2));
        assert_eq!(
            speed_text(&s[1]),
            "n/a: its 2 compared cases read 0 (within its start-up or below the clock's resolution)"
        );
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
