//! The noise threshold of one (game, engine) and when a case, or a total, counts as changed.
//!
//! The threshold `t` is relative (0.05 = 5 %) and comes, in this order, from:
//! 1. `--noise P%`: as given;
//! 2. the runs' own repeat spread, when cases were timed more than once on both sides
//!    (`run --runs N`, N >= 2): [`SPREAD_FACTOR`] times the median over those cases (both
//!    sides) of (slowest run - fastest run) / median run;
//! 3. else the spread of the per-case ratios themselves, when there are at least
//!    [`MIN_CASES_FOR_SPREAD`] cases: most cases of two runs do not change, so the scatter of
//!    their ratios is the noise; `t = exp(`[`MAD_Z`]` * 1.4826 * MAD(ln ratio)) - 1` (the MAD
//!    scaled to a standard deviation, [`MAD_Z`] of them);
//! 4. else [`MIN_NOISE`].
//!
//! Never below [`MIN_NOISE`]. A case is slower when its median time grew by more than `t`
//! *and* by at least [`MIN_CHANGE_NS`] *and*, when both sides have several runs, the runs do
//! not overlap: every new run is slower than every old one, the fastest new and the slowest
//! old run left out when both sides have three or more (one stray run, a preemption, does not
//! hide a change). Faster is the mirror image. An engine's total is slower
//! when the whole 95 % interval of its ratio is above `1 + t` and it grew by at least
//! [`MIN_CHANGE_NS`].

use super::Direction;
use crate::stats;

/// The least noise threshold: 5 %, the default when the runs say nothing.
pub const MIN_NOISE: f64 = 0.05;
/// A change smaller than this is never reported, whatever the ratio: it is below what a
/// scheduler's preemption or a timer interrupt adds to one measurement (100 µs).
pub const MIN_CHANGE_NS: u64 = 100_000;
/// The threshold is this many times the median repeat spread.
pub const SPREAD_FACTOR: f64 = 3.0;
/// The threshold is this many (MAD-derived) standard deviations of the per-case log ratios.
pub const MAD_Z: f64 = 5.0;
/// Fewer paired cases than this give no spread worth deriving a threshold from.
pub const MIN_CASES_FOR_SPREAD: usize = 5;
/// The MAD of a normal distribution times this is its standard deviation.
const MAD_TO_SD: f64 = 1.4826;

/// Where a threshold came from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NoiseSource {
    /// `--noise`.
    Given,
    /// The repeat spread of this many cases.
    Repeats(usize),
    /// The spread of this many cases' ratios.
    Cases(usize),
    /// Too few cases: [`MIN_NOISE`].
    Default,
}

/// A group's noise threshold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Noise {
    /// Relative: 0.05 = 5 %.
    pub threshold: f64,
    pub source: NoiseSource,
}

impl Noise {
    /// The threshold of a group whose paired cases have these runs (old, new).
    pub fn derive(given: Option<f64>, runs: &[(&[u64], &[u64])]) -> Noise {
        if let Some(threshold) = given {
            return Noise {
                threshold,
                source: NoiseSource::Given,
            };
        }
        let repeated: Vec<f64> = runs
            .iter()
            .filter(|(o, n)| o.len() >= 2 && n.len() >= 2)
            .flat_map(|(o, n)| [spread(o), spread(n)])
            .flatten()
            .collect();
        let (raw, source) = if !repeated.is_empty() {
            (
                SPREAD_FACTOR * stats::median(&repeated).unwrap_or(0.0),
                NoiseSource::Repeats(repeated.len() / 2),
            )
        } else {
            let logs: Vec<f64> = runs
                .iter()
                .filter_map(|(o, n)| {
                    let (o, n) = (stats::median_u64(o)?, stats::median_u64(n)?);
                    (o > 0 && n > 0).then(|| (n as f64 / o as f64).ln())
                })
                .collect();
            if logs.len() >= MIN_CASES_FOR_SPREAD {
                let m = stats::median(&logs).unwrap_or(0.0);
                let deviations: Vec<f64> = logs.iter().map(|l| (l - m).abs()).collect();
                let mad = stats::median(&deviations).unwrap_or(0.0);
                (
                    (MAD_Z * MAD_TO_SD * mad).exp() - 1.0,
                    NoiseSource::Cases(logs.len()),
                )
            } else {
                (MIN_NOISE, NoiseSource::Default)
            }
        };
        Noise {
            threshold: raw.max(MIN_NOISE),
            source,
        }
    }

    /// Whether a case with these runs changed beyond the noise, and which way.
    pub fn changed(&self, old: &[u64], new: &[u64]) -> Option<Direction> {
        let (o, n) = (stats::median_u64(old)?, stats::median_u64(new)?);
        let factor = 1.0 + self.threshold;
        let several = old.len() >= 2 && new.len() >= 2;
        // One stray run left out of each end when there are enough to spare one.
        let skip = usize::from(old.len() >= 3 && new.len() >= 3);
        let (mut old, mut new) = (old.to_vec(), new.to_vec());
        old.sort_unstable();
        new.sort_unstable();
        let (old_min, old_max) = (old[skip], old[old.len() - 1 - skip]);
        let (new_min, new_max) = (new[skip], new[new.len() - 1 - skip]);
        if n as f64 > o as f64 * factor && n - o >= MIN_CHANGE_NS && (!several || new_min > old_max)
        {
            Some(Direction::Slower)
        } else if o as f64 > n as f64 * factor
            && o - n >= MIN_CHANGE_NS
            && (!several || new_max < old_min)
        {
            Some(Direction::Faster)
        } else {
            None
        }
    }

    /// Whether a total whose ratio has this 95 % interval and moved by `change_ns` changed.
    pub fn total(&self, interval: (f64, f64), change_ns: u64) -> Option<Direction> {
        let factor = 1.0 + self.threshold;
        if change_ns < MIN_CHANGE_NS || interval.0.is_nan() {
            None
        } else if interval.0 > factor {
            Some(Direction::Slower)
        } else if interval.1 < 1.0 / factor {
            Some(Direction::Faster)
        } else {
            None
        }
    }
}

/// (slowest - fastest) / median of a case's runs; `None` for a median of 0.
fn spread(runs: &[u64]) -> Option<f64> {
    let median = stats::median_u64(runs)? as f64;
    let (min, max) = (*runs.iter().min()?, *runs.iter().max()?);
    (median > 0.0).then(|| (max - min) as f64 / median)
}
