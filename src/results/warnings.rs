//! Hyperfine's warnings about a run's timings, per engine: outlier runs, runs spread widely, a
//! first run much slower than the others (cold caches), and cases timed alone too briefly to
//! be timed well.
//!
//! Invariants: a warning is advice, never an error (it changes no status and no exit code); a
//! file-timed engine's cases share their file's runs, so they are counted once per file.

use super::Record;
use super::tally::Tally;
use crate::util::stats;
use crate::util::units::{human_time, human_time_f};

pub use super::tally::{FIRST_RUN_FACTOR, MIN_RUNS_FOR_OUTLIERS, ROUGH_NS, SPREAD_WARNING};

/// Hyperfine's warnings, per engine: outlier runs, runs spread widely, a first run much slower
/// than the others (cold caches), and cases timed alone below [`ROUGH_NS`].
pub fn warnings(records: &[Record]) -> Vec<String> {
    Tally::of(records, 0).warnings()
}

impl Tally {
    /// Hyperfine's warnings over the folded records (see [`warnings`]).
    pub fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        for group in &self.groups {
            let who = format!("{}/{}", group.game, group.engine);
            let (units, with_outliers, spread, widest) =
                (group.units, group.with_outliers, group.spread, group.widest);
            let unit = if group.last_timed_file.is_none() {
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
            // Every case has at least `runs` runs: the first `runs` totals cover every case.
            let runs = if group.cases() == 0 {
                0
            } else {
                group.min_runs
            };
            if runs >= 3 {
                let totals: Vec<f64> = group.raw_run_totals[..runs]
                    .iter()
                    .map(|&t| t as f64)
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
            if group.short > 0 {
                out.push(format!(
                    "warning: {who}: {} cases were timed alone in under {}, near the clock's resolution and the cost of reading it: their times are rough (drop --no-repeat to time them by repetition)",
                    group.short,
                    human_time(ROUGH_NS)
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Status;
    use crate::results::schema::test_row as row;

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
}
