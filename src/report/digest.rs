//! What the page shows, gathered case by case in bounded memory: per (game, engine) counts,
//! the total time, a quantile sketch of the times and of the per-case speed-ups (the
//! histograms and the summary's quantiles are read from it), a deterministic sample of
//! (size, time) points, the slowest cases; the first failing cases; per game the few cases
//! that may get a board. No case is kept beyond these bounds, whatever the number of rows.

use std::cmp::{Ordering, Reverse};
use std::collections::{BTreeMap, BTreeSet};

use super::{MAX_FAILURES, MAX_POINTS, SLOWEST};
use crate::compare::CaseResult;
use crate::status::Status;

/// Relative width of a sketch's buckets: values within a factor `1 + SKETCH_RESOLUTION` share
/// one, so a quantile read from the sketch is within half of it (0.5%) of a sample's value.
pub const SKETCH_RESOLUTION: f64 = 0.01;
/// Per game, the failing and the slowest cases kept as board candidates (a candidate whose
/// input file is missing is passed over, so more are kept than are drawn).
pub const BOARD_CANDIDATES: usize = 4 * super::MAX_BOARDS_PER_GAME;

/// Whether a case's time enters the speed against the baseline (as in the terminal summary:
/// both engines `ok`, or both `unsolved`).
pub fn comparable(status: Status) -> bool {
    matches!(status, Status::Ok | Status::Unsolved)
}

/// Whether a status counts as passed in the report.
pub fn passes(status: Status) -> bool {
    matches!(status, Status::Ok | Status::Unchecked)
}

/// A log-bucketed histogram of non-negative values: quantiles within
/// [`SKETCH_RESOLUTION`] / 2, exact minimum, maximum, count and sum; its size is the number of
/// distinct buckets, at most log(max / min) / log(1 + resolution) (about 3,000 for 1 ns to
/// 3 h), whatever the number of values.
#[derive(Debug, Clone, Default)]
pub struct Sketch {
    buckets: BTreeMap<i32, u64>,
    zeros: u64,
    count: u64,
    sum: f64,
    min: f64,
    max: f64,
}

impl Sketch {
    fn bucket(v: f64) -> i32 {
        (v.ln() / SKETCH_RESOLUTION.ln_1p()).floor() as i32
    }

    /// The geometric middle of bucket `k`.
    fn centre(k: i32) -> f64 {
        ((f64::from(k) + 0.5) * SKETCH_RESOLUTION.ln_1p()).exp()
    }

    /// Adds a value; negative and non-finite values are ignored.
    pub fn add(&mut self, v: f64) {
        if !(v.is_finite() && v >= 0.0) {
            return;
        }
        if self.count == 0 {
            (self.min, self.max) = (v, v);
        } else {
            self.min = self.min.min(v);
            self.max = self.max.max(v);
        }
        self.count += 1;
        self.sum += v;
        if v == 0.0 {
            self.zeros += 1;
        } else {
            *self.buckets.entry(Self::bucket(v)).or_default() += 1;
        }
    }

    pub fn count(&self) -> u64 {
        self.count
    }

    pub fn sum(&self) -> f64 {
        self.sum
    }

    /// The smallest and the largest value.
    pub fn range(&self) -> Option<(f64, f64)> {
        (self.count > 0).then_some((self.min, self.max))
    }

    /// The `q`-quantile (0 = the minimum, 1 = the maximum, exact; in between the nearest rank,
    /// read as its bucket's middle and kept within the range).
    pub fn quantile(&self, q: f64) -> Option<f64> {
        if self.count == 0 {
            return None;
        }
        if q <= 0.0 {
            return Some(self.min);
        }
        if q >= 1.0 {
            return Some(self.max);
        }
        // Nearest rank, 1-based.
        let rank = ((q * self.count as f64).ceil() as u64).clamp(1, self.count);
        if rank <= self.zeros {
            return Some(0.0);
        }
        let mut seen = self.zeros;
        for (&k, &n) in &self.buckets {
            seen += n;
            if seen >= rank {
                return Some(Self::centre(k).clamp(self.min, self.max));
            }
        }
        Some(self.max)
    }

    /// The positive values' buckets: (value at the bucket's middle, count), in order.
    pub fn buckets(&self) -> impl Iterator<Item = (f64, u64)> + '_ {
        self.buckets
            .iter()
            .map(|(&k, &n)| (Self::centre(k).clamp(self.min, self.max), n))
    }

    /// How many values are zero.
    pub fn zeros(&self) -> u64 {
        self.zeros
    }
}

/// Every `stride`-th point of a stream, the stride doubling whenever twice the cap is kept:
/// at most `2 x MAX_POINTS` points, spread evenly over the stream, the same for the same
/// stream.
#[derive(Debug, Clone)]
pub struct Points {
    stride: u64,
    seen: u64,
    kept: Vec<(f64, f64)>,
}

impl Default for Points {
    fn default() -> Self {
        Points {
            stride: 1,
            seen: 0,
            kept: Vec::new(),
        }
    }
}

impl Points {
    pub fn add(&mut self, point: (f64, f64)) {
        if self.seen.is_multiple_of(self.stride) {
            self.kept.push(point);
            if self.kept.len() >= 2 * MAX_POINTS {
                let mut k = 0;
                self.kept.retain(|_| {
                    k += 1;
                    k % 2 == 1
                });
                self.stride *= 2;
            }
        }
        self.seen += 1;
    }

    pub fn points(&self) -> &[(f64, f64)] {
        &self.kept
    }
}

/// A case as the tables show it: what is kept of the slowest and the failing cases.
#[derive(Debug, Clone, PartialEq)]
pub struct Kept {
    pub game: String,
    pub engine: String,
    pub file: String,
    pub case: usize,
    pub size: String,
    pub time_ns: Option<u64>,
    pub status: Status,
    pub message: String,
}

impl Kept {
    fn of(c: &CaseResult) -> Kept {
        Kept {
            game: c.game.clone(),
            engine: c.engine.clone(),
            file: c.file.clone(),
            case: c.case,
            size: c.size.clone(),
            time_ns: c.time_ns(),
            status: c.status,
            message: c.message.clone(),
        }
    }

    /// Slowest first, then by file and case: the order of the slowest tables.
    fn slow_key(&self) -> (Reverse<u64>, &str, usize, &str) {
        (
            Reverse(self.time_ns.unwrap_or(0)),
            &self.file,
            self.case,
            &self.engine,
        )
    }

    /// By file, case and engine: the order failing boards are chosen in.
    fn file_key(&self) -> (&str, usize, &str) {
        (&self.file, self.case, &self.engine)
    }
}

/// Slowest first, then by file and case.
fn slow_order(a: &Kept, b: &Kept) -> Ordering {
    a.slow_key().cmp(&b.slow_key())
}

/// By file, case and engine.
fn file_order(a: &Kept, b: &Kept) -> Ordering {
    a.file_key().cmp(&b.file_key())
}

/// The `cap` least items in `order`, kept sorted.
fn keep_least(
    kept: &mut Vec<Kept>,
    item: &CaseResult,
    cap: usize,
    order: fn(&Kept, &Kept) -> Ordering,
) {
    let candidate = Kept::of(item);
    if kept.len() == cap
        && kept
            .last()
            .is_some_and(|worst| order(&candidate, worst) != Ordering::Less)
    {
        return;
    }
    let at = kept.partition_point(|k| order(k, &candidate) != Ordering::Greater);
    kept.insert(at, candidate);
    kept.truncate(cap);
}

/// One (game, engine)'s figures.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub cases: u64,
    pub ok: u64,
    /// Times of the timed cases (the median of each case's runs), ns.
    pub times: Sketch,
    /// Baseline time / this engine's time, per comparable case both timed.
    pub speedups: Sketch,
    /// The comparable cases both engines timed, and the two engines' totals over them.
    pub paired: u64,
    pub paired_baseline_ns: f64,
    pub paired_ns: f64,
    /// (cells, time) of cases with both.
    pub points: Points,
    /// The [`SLOWEST`] slowest cases.
    pub slowest: Vec<Kept>,
}

impl Tally {
    /// The speed against the baseline: the baseline's total time over this engine's, both
    /// summed over the comparable cases both timed (the terminal summary's speed column and
    /// the exports' `relative`); `None` without such a case.
    pub fn speed(&self) -> Option<f64> {
        (self.paired > 0 && self.paired_ns > 0.0).then(|| self.paired_baseline_ns / self.paired_ns)
    }
}

/// A game's board candidates.
#[derive(Debug, Clone, Default)]
pub struct Candidates {
    /// The first failing cases by (file, case, engine).
    pub failing: Vec<Kept>,
    /// The slowest cases of any engine.
    pub slowest: Vec<Kept>,
}

/// Everything the page shows of the runs' cases.
#[derive(Debug, Clone, Default)]
pub struct Digest {
    /// Per (game, engine).
    pub groups: BTreeMap<(String, String), Tally>,
    /// The first [`MAX_FAILURES`] cases not ok, in the order read.
    pub failures: Vec<Kept>,
    /// Every case not ok.
    pub failure_count: u64,
    /// Per game.
    pub candidates: BTreeMap<String, Candidates>,
    /// Every case read.
    pub cases: u64,
    /// The distinct input files named (to refuse an output landing on one): one entry per
    /// file, not per row.
    pub files: BTreeSet<String>,
    /// The programs' start-ups taken out of their times, as the runs' metadata records them.
    pub startups: Vec<super::Startup>,
    /// Some run came without metadata (a results CSV alone): a program's times in it keep
    /// its start-up.
    pub without_meta: bool,
}

impl Digest {
    /// A run's start-ups (`known`: the run had metadata at all).
    pub fn note_startups(&mut self, startups: &[super::Startup], known: bool) {
        self.without_meta |= !known;
        for s in startups {
            if !self.startups.contains(s) {
                self.startups.push(s.clone());
            }
        }
    }

    /// Adds a case, and its ratio to the baseline when the baseline timed the same case
    /// (`baseline`: its time and status) and both are comparable.
    pub fn add(&mut self, c: &CaseResult, baseline: Option<(u64, Status)>) {
        self.cases += 1;
        if !self.files.contains(&c.file) {
            self.files.insert(c.file.clone());
        }
        let tally = self
            .groups
            .entry((c.game.clone(), c.engine.clone()))
            .or_default();
        tally.cases += 1;
        let time = c.time_ns();
        if let Some(t) = time {
            tally.times.add(t as f64);
            if let Some(cells) = c.cells {
                tally.points.add((cells as f64, t as f64));
            }
            if let Some((b, _)) = baseline.filter(|(_, s)| comparable(*s) && comparable(c.status)) {
                tally.paired += 1;
                tally.paired_baseline_ns += b as f64;
                tally.paired_ns += t as f64;
                if b > 0 && t > 0 {
                    tally.speedups.add(b as f64 / t as f64);
                }
            }
            keep_least(&mut tally.slowest, c, SLOWEST, slow_order);
        }
        let candidates = self.candidates.entry(c.game.clone()).or_default();
        if passes(c.status) {
            tally.ok += 1;
        } else {
            self.failure_count += 1;
            if self.failures.len() < MAX_FAILURES {
                self.failures.push(Kept::of(c));
            }
            keep_least(&mut candidates.failing, c, BOARD_CANDIDATES, file_order);
        }
        if time.is_some() {
            keep_least(&mut candidates.slowest, c, BOARD_CANDIDATES, slow_order);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sketch_quantiles_are_within_the_resolution() {
        let mut sketch = Sketch::default();
        // 1..=10_000: the exact q-quantile by nearest rank is ceil(q * n).
        for v in 1..=10_000u32 {
            sketch.add(f64::from(v));
        }
        for q in [0.1, 0.5, 0.9, 0.99] {
            let exact = (q * 10_000.0_f64).ceil();
            let got = sketch.quantile(q).unwrap();
            assert!(
                (got / exact - 1.0).abs() <= SKETCH_RESOLUTION / 2.0 + 1e-9,
                "q {q}: {got} against {exact}"
            );
        }
        assert_eq!(sketch.quantile(0.0), Some(1.0));
        assert_eq!(sketch.quantile(1.0), Some(10_000.0));
        assert_eq!(sketch.count(), 10_000);
        assert_eq!(sketch.sum(), 50_005_000.0);
        // Bounded: one bucket per 1% of range, not one per value.
        assert!(sketch.buckets().count() < 1_000);
    }

    #[test]
    fn sketch_counts_zeros_first_and_ignores_what_is_not_a_value() {
        let mut sketch = Sketch::default();
        for v in [0.0, 0.0, 0.0, 5.0, f64::NAN, -1.0, f64::INFINITY] {
            sketch.add(v);
        }
        assert_eq!(sketch.count(), 4);
        assert_eq!(sketch.quantile(0.5), Some(0.0));
        // The value's bucket, within half its width.
        let top = sketch.quantile(0.9).unwrap();
        assert!((top / 5.0 - 1.0).abs() <= SKETCH_RESOLUTION / 2.0, "{top}");
        assert_eq!(Sketch::default().quantile(0.5), None);
    }

    #[test]
    fn points_are_capped_and_evenly_spread() {
        let mut points = Points::default();
        let n = 100 * MAX_POINTS as u64;
        for i in 0..n {
            points.add((i as f64, 0.0));
        }
        let kept = points.points();
        assert!(kept.len() < 2 * MAX_POINTS && kept.len() >= MAX_POINTS / 2);
        // Every kept point is a multiple of one stride, from the first.
        let stride = kept[1].0 - kept[0].0;
        assert_eq!(kept[0].0, 0.0);
        assert!(kept.windows(2).all(|w| w[1].0 - w[0].0 == stride));
    }

    fn case(file: &str, case: usize, engine: &str, t: u64, status: Status) -> CaseResult {
        CaseResult {
            game: "yut".into(),
            engine: engine.into(),
            file: file.into(),
            case,
            label: String::new(),
            size: String::new(),
            cells: Some(case as u64),
            status,
            runs: vec![t],
            message: String::new(),
        }
    }

    #[test]
    fn the_digest_keeps_the_slowest_and_the_first_failures_only() {
        let mut digest = Digest::default();
        for i in 0..1_000u64 {
            let status = if i % 3 == 0 {
                Status::Mismatch
            } else {
                Status::Ok
            };
            digest.add(
                &case("f.in", i as usize + 1, "a", i, status),
                Some((2 * i, Status::Ok)),
            );
        }
        let tally = &digest.groups[&("yut".to_string(), "a".to_string())];
        assert_eq!((tally.cases, tally.ok), (1_000, 666));
        let slowest: Vec<_> = tally.slowest.iter().map(|k| k.time_ns).collect();
        let expected: Vec<_> = (990..1_000u64).rev().map(Some).collect();
        assert_eq!(slowest, expected);
        assert_eq!(digest.failure_count, 334);
        assert_eq!(digest.failures.len(), 334.min(MAX_FAILURES));
        let failing = &digest.candidates["yut"].failing;
        assert_eq!(failing.len(), BOARD_CANDIDATES);
        assert_eq!(failing[0].case, 1);
        assert_eq!(failing[1].case, 4);
        // Every ratio of the comparable (ok) cases is 2 (the case of time 0 is a mismatch, not
        // among them), and so is the ratio of their totals.
        assert_eq!(tally.speedups.count(), 666);
        assert_eq!(tally.paired, 666);
        assert!((tally.speedups.quantile(0.5).unwrap() / 2.0 - 1.0).abs() < 0.005);
        assert_eq!(tally.speed(), Some(2.0));
    }
}
