//! The noise thresholds of one (game, engine): how far a case may move, alone, and how far a
//! shift shared by many cases may move, before either counts as a change.
//!
//! Two runs of one build on a shared machine differ in two ways, and each gets a threshold:
//! - **case noise**: one case against the cases timed just before and after it. A case's
//!   location is its fastest run (timing noise only adds time). The log ratio new/old of each
//!   case is compared with the median log ratio of its [`NEIGHBOURS`] predecessors and, apart,
//!   of its successors (in (file, case) order, the order they were timed), and the residual is
//!   the smaller of the two: a case at the edge of a burst of load is explained by the side
//!   inside the burst. The noise's scale is robust: 1.4826 ([`MAD_TO_SD`]) x the median
//!   absolute residual against both sides' neighbours pooled ([`pooled_residuals`]), and the
//!   threshold is [`z_bonferroni`] of them for the number of cases, so that two runs of one
//!   build flag a case in at most [`FAMILY_ALPHA`] of comparisons if the noise were normal
//!   (Bonferroni over the cases; timing noise has heavier tails, hence also the floor
//!   [`MIN_NOISE`]).
//!   With fewer than [`MIN_CASES_FOR_SPREAD`] cases: [`SPREAD_FACTOR`] times the runs' median
//!   repeat spread when cases were timed several times, else [`MIN_NOISE`]; `--noise` replaces
//!   it.
//! - **shared noise**: how far a file or a stretch of consecutive cases moves between runs of
//!   one build. One pair of runs cannot measure it (it is one draw), so it is `--noise` when
//!   given, else [`SHARED_NOISE`], a figure measured on shared machines (see docs/compare.md),
//!   or the whole run's drift floor when that is larger;
//! - **the total's floor**: how far the whole run may move, `--noise` when given, else the
//!   drift floor [`super::drift`] estimates from the two runs.
//!
//! Invariants: the thresholds depend on the paired cases' times only, in their given order;
//! both are at least [`MIN_NOISE`].

use crate::util::stats;

/// The least noise threshold: 5 %.
pub const MIN_NOISE: f64 = 0.05;
/// A change smaller than this is never reported, whatever the ratio: it is below what a
/// scheduler's preemption or a timer interrupt adds to one measurement (100 µs).
pub const MIN_CHANGE_NS: u64 = 100_000;
/// With too few cases for a spread, the threshold is this many times the median repeat spread.
pub const SPREAD_FACTOR: f64 = 3.0;
/// Fewer paired cases than this give no spread worth deriving a threshold from.
pub const MIN_CASES_FOR_SPREAD: usize = 5;
/// Cases on each side of a case that give its reference level.
pub const NEIGHBOURS: usize = 3;
/// The chance that two runs of one build flag any case, over all cases of a group.
pub const FAMILY_ALPHA: f64 = 0.01;
/// The default threshold of a shift shared by a whole run, a file or consecutive cases: x2
/// either way (identical runs moved by up to x1.56 as a whole and x1.7 per file on a shared
/// 2-core machine).
pub const SHARED_NOISE: f64 = 1.0;
/// The MAD of a normal distribution times this is its standard deviation.
const MAD_TO_SD: f64 = 1.4826;

/// Where a case threshold came from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NoiseSource {
    /// `--noise`.
    Given,
    /// The spread of this many cases' ratios around their neighbours', times `z`.
    Cases { cases: usize, z: f64 },
    /// The repeat spread of this many cases (too few cases for their ratios' spread).
    Repeats(usize),
    /// Too few cases: [`MIN_NOISE`].
    Default,
}

/// A group's noise thresholds, relative (0.05 = 5 %).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Noise {
    /// How far one case may move against its neighbours.
    pub threshold: f64,
    pub source: NoiseSource,
    /// How far a shift shared by consecutive cases or a whole file may move.
    pub shared: f64,
    /// How far the whole run's total may move: `--noise`, else the drift floor estimated from
    /// the runs ([`super::drift`]).
    pub total: f64,
}

/// One paired case, in timing order: its runs on each side.
#[derive(Debug, Clone, Copy)]
pub struct Runs<'a> {
    pub old: &'a [u64],
    pub new: &'a [u64],
}

impl Runs<'_> {
    /// ln(fastest new / fastest old); `None` when a side has no positive time.
    pub fn log_ratio(&self) -> Option<f64> {
        let (o, n) = (*self.old.iter().min()?, *self.new.iter().min()?);
        (o > 0 && n > 0).then(|| (n as f64 / o as f64).ln())
    }
}

impl Noise {
    /// The thresholds of a group whose paired cases, in timing order, have these runs.
    pub fn derive(given: Option<f64>, runs: &[Runs]) -> Noise {
        if let Some(threshold) = given {
            return Noise {
                threshold,
                source: NoiseSource::Given,
                shared: threshold,
                total: threshold,
            };
        }
        let logs: Vec<f64> = runs.iter().filter_map(Runs::log_ratio).collect();
        let (raw, source) = if logs.len() >= MIN_CASES_FOR_SPREAD {
            let deviations: Vec<f64> = pooled_residuals(&logs).iter().map(|r| r.abs()).collect();
            let sd = MAD_TO_SD * stats::median(&deviations).unwrap_or(0.0);
            let z = z_bonferroni(logs.len());
            (
                (z * sd).exp() - 1.0,
                NoiseSource::Cases {
                    cases: logs.len(),
                    z,
                },
            )
        } else {
            let repeated: Vec<f64> = runs
                .iter()
                .filter(|r| r.old.len() >= 2 && r.new.len() >= 2)
                .flat_map(|r| [spread(r.old), spread(r.new)])
                .flatten()
                .collect();
            match stats::median(&repeated) {
                Some(m) => (SPREAD_FACTOR * m, NoiseSource::Repeats(repeated.len() / 2)),
                None => (MIN_NOISE, NoiseSource::Default),
            }
        };
        Noise {
            threshold: raw.max(MIN_NOISE),
            source,
            shared: SHARED_NOISE,
            total: SHARED_NOISE,
        }
    }
}

impl Noise {
    /// Whether a total whose ratio has this 95 % interval and moved by `change_ns` changed:
    /// its whole interval past `1 ± total` (a shift of everything is drift within it).
    pub fn total(&self, interval: (f64, f64), change_ns: u64) -> Option<super::Direction> {
        let factor = 1.0 + self.total;
        if change_ns < MIN_CHANGE_NS || interval.0.is_nan() {
            None
        } else if interval.0 > factor {
            Some(super::Direction::Slower)
        } else if interval.1 < 1.0 / factor {
            Some(super::Direction::Faster)
        } else {
            None
        }
    }
}

/// The median of each value's predecessors (up to [`NEIGHBOURS`]) and of its successors;
/// `None` for a side without any.
pub fn sides(logs: &[f64], i: usize) -> (Option<f64>, Option<f64>) {
    let before = &logs[i.saturating_sub(NEIGHBOURS)..i];
    let after = &logs[(i + 1).min(logs.len())..(i + 1 + NEIGHBOURS).min(logs.len())];
    (stats::median(before), stats::median(after))
}

/// Each value minus the median of its neighbours on both sides taken together (up to
/// [`NEIGHBOURS`] each), or minus 0 with none: the scale of the noise. The smaller of the two
/// sides' residuals ([`residuals`]) is what a case is judged by; its bulk is narrower than a
/// normal one (the nearer side is picked) while its tail is not (an outlier is far from both
/// sides), so its own spread would understate the tail.
pub fn pooled_residuals(logs: &[f64]) -> Vec<f64> {
    (0..logs.len())
        .map(|i| {
            let around: Vec<f64> = logs[i.saturating_sub(NEIGHBOURS)..i]
                .iter()
                .chain(&logs[(i + 1).min(logs.len())..(i + 1 + NEIGHBOURS).min(logs.len())])
                .copied()
                .collect();
            logs[i] - stats::median(&around).unwrap_or(0.0)
        })
        .collect()
}

/// Each value minus the side's median that explains it best (the smaller residual), or minus
/// 0 with no neighbour at all.
pub fn residuals(logs: &[f64]) -> Vec<f64> {
    (0..logs.len())
        .map(|i| {
            let x = logs[i];
            match sides(logs, i) {
                (Some(a), Some(b)) => {
                    if (x - a).abs() <= (x - b).abs() {
                        x - a
                    } else {
                        x - b
                    }
                }
                (Some(a), None) | (None, Some(a)) => x - a,
                (None, None) => x,
            }
        })
        .collect()
}

/// The two-sided normal quantile for [`FAMILY_ALPHA`] shared by `cases` tests (Bonferroni):
/// Φ⁻¹(1 − α / (2 n)).
pub fn z_bonferroni(cases: usize) -> f64 {
    normal_quantile(1.0 - FAMILY_ALPHA / (2.0 * cases.max(1) as f64))
}

/// Φ⁻¹(p) for 0 < p < 1: Acklam's rational approximation (relative error under 1.2e-9).
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    const LOW: f64 = 0.024_25;
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < LOW {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - LOW {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

/// (slowest - fastest) / median of a case's runs; `None` for a median of 0.
fn spread(runs: &[u64]) -> Option<f64> {
    let median = stats::median_u64(runs)? as f64;
    let (min, max) = (*runs.iter().min()?, *runs.iter().max()?);
    (median > 0.0).then(|| (max - min) as f64 / median)
}
