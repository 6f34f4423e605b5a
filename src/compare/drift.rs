//! How far two saved runs of one build drift apart, estimated from the runs themselves: the
//! floor below which a change of a whole run cannot be told from the machine's state moving
//! between the runs.
//!
//! A pair of saved runs is one draw of the machine's state at two moments: a uniform shift of
//! every case is what a new build's change and a busier machine both do, and no statistic of
//! the one pair tells them apart. What the runs do show is how much the state moved *while*
//! they ran, and the floor assumes the state moved between the runs by as much as it moved
//! within them:
//! - **files**: each file's shift (the median log ratio of its cases, fastest runs) against
//!   the other files': [`Z95`] robust standard deviations of the files' shifts, or, when larger,
//!   how far the total moves when each file is put at the median shift (the shifts' deviations
//!   weighted by each file's share of the old total);
//! - **repeats**: within each run, how far the repeated runs of a case spread (the median over
//!   cases of ln(slowest / fastest)): each run's fastest times sit somewhere within their own
//!   spread of the machine's best, so the ratio of the two within the sum of the two spreads;
//! - **start-up**: the programs' start-up (`external_startup_ns` of a baseline's or a JSON
//!   export's metadata: the same programs on an empty input, after each run) moved between the
//!   runs by a ratio that no change of the cases' work explains.
//!
//! The floor is the largest of those that the runs have (at least [`MIN_NOISE`]); with none of
//! them (one run of each case, fewer than [`MIN_FILES`] files, no start-up in the metadata)
//! nothing in the runs measures their drift, and the floor is [`SHARED_NOISE`].
//!
//! Invariants: the floor depends on the paired cases' times and the two metadata only; it is
//! at least [`MIN_NOISE`]; a uniform change of every case with tight repeats and files that
//! agree leaves it at its minimum, whatever the change's size.

use std::collections::BTreeMap;

use super::noise::{MIN_NOISE, SHARED_NOISE};
use crate::util::stats;

/// Fewer files than this give no spread of files' shifts to learn from.
pub const MIN_FILES: usize = 3;
/// Standard deviations of the files' shifts that the whole run may drift by: a two-sided 95 %
/// normal bound.
pub const Z95: f64 = 1.96;
/// The MAD of a normal distribution times this is its standard deviation.
const MAD_TO_SD: f64 = 1.4826;
/// Above this floor, `compare` recommends timing both builds in one interleaved run.
pub const INTERLEAVE_ABOVE: f64 = 0.10;

/// One paired case: its file, and its runs' times on each side.
#[derive(Debug, Clone, Copy)]
pub struct Case<'a> {
    pub file: &'a str,
    pub old: &'a [u64],
    pub new: &'a [u64],
}

/// The files' shifts between the runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Files {
    pub files: usize,
    /// The smallest and largest file's shift (ratio new / old).
    pub low: f64,
    pub high: f64,
    /// The drift they give, relative.
    pub drift: f64,
}

/// The repeated runs' spread within each run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Repeats {
    /// Cases timed at least twice on both sides.
    pub cases: usize,
    /// The median over those cases of slowest / fastest - 1, in each run.
    pub old: f64,
    pub new: f64,
    /// The drift they give, relative.
    pub drift: f64,
}

/// The drift between two saved runs, and the floor it sets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Drift {
    /// A change of the whole run smaller than this (relative: 0.1 = 10 %) cannot be told from
    /// drift.
    pub floor: f64,
    pub files: Option<Files>,
    pub repeats: Option<Repeats>,
    /// The programs' start-up, new / old.
    pub startup: Option<f64>,
}

impl Drift {
    /// The drift of the paired cases of one (game, engine), in timing order; `startup` is the
    /// two runs' programs' start-up (old, new), when both metadata have it.
    pub fn estimate(cases: &[Case], startup: Option<(u64, u64)>) -> Drift {
        let files = files(cases);
        let repeats = repeats(cases);
        let startup = startup
            .filter(|&(o, n)| o > 0 && n > 0)
            .map(|(o, n)| n as f64 / o as f64);
        let logs = [
            files.map(|f| f.drift.ln_1p()),
            repeats.map(|r| r.drift.ln_1p()),
            startup.map(|s| s.ln().abs()),
        ];
        let floor = match logs.iter().flatten().copied().reduce(f64::max) {
            Some(log) => log.exp_m1().max(MIN_NOISE),
            None => SHARED_NOISE,
        };
        Drift {
            floor,
            files,
            repeats,
            startup,
        }
    }

    /// Whether nothing in the runs measured their drift (the floor is [`SHARED_NOISE`]).
    pub fn unmeasured(&self) -> bool {
        self.files.is_none() && self.repeats.is_none() && self.startup.is_none()
    }
}

/// ln(fastest new / fastest old), and the old side's fastest time.
fn log_ratio(case: &Case) -> Option<(f64, u64)> {
    let (o, n) = (*case.old.iter().min()?, *case.new.iter().min()?);
    (o > 0 && n > 0).then(|| ((n as f64 / o as f64).ln(), o))
}

fn files(cases: &[Case]) -> Option<Files> {
    // file -> (its cases' log ratios, its old time)
    let mut by_file: BTreeMap<&str, (Vec<f64>, u64)> = BTreeMap::new();
    for case in cases {
        if let Some((log, old)) = log_ratio(case) {
            let entry = by_file.entry(case.file).or_default();
            entry.0.push(log);
            entry.1 += old;
        }
    }
    if by_file.len() < MIN_FILES {
        return None;
    }
    let shifts: Vec<(f64, u64)> = by_file
        .values()
        .filter_map(|(logs, old)| Some((stats::median(logs)?, *old)))
        .collect();
    let logs: Vec<f64> = shifts.iter().map(|s| s.0).collect();
    let centre = stats::median(&logs)?;
    let deviations: Vec<f64> = logs.iter().map(|l| (l - centre).abs()).collect();
    let spread = Z95 * MAD_TO_SD * stats::median(&deviations)?;
    let total: u64 = shifts.iter().map(|s| s.1).sum();
    let weighted = shifts
        .iter()
        .map(|&(l, old)| (l - centre).abs() * old as f64 / total.max(1) as f64)
        .sum::<f64>();
    let (low, high) = logs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &l| {
            (a.min(l), b.max(l))
        });
    Some(Files {
        files: logs.len(),
        low: low.exp(),
        high: high.exp(),
        drift: spread.max(weighted).exp_m1(),
    })
}

fn repeats(cases: &[Case]) -> Option<Repeats> {
    let spread = |runs: &[u64]| -> Option<f64> {
        let (min, max) = (*runs.iter().min()?, *runs.iter().max()?);
        (min > 0).then(|| (max as f64 / min as f64).ln())
    };
    let (old, new): (Vec<f64>, Vec<f64>) = cases
        .iter()
        .filter(|c| c.old.len() >= 2 && c.new.len() >= 2)
        .filter_map(|c| Some((spread(c.old)?, spread(c.new)?)))
        .unzip();
    let (o, n) = (stats::median(&old)?, stats::median(&new)?);
    Some(Repeats {
        cases: old.len(),
        old: o.exp_m1(),
        new: n.exp_m1(),
        drift: (o + n).exp_m1(),
    })
}

#[cfg(test)]
mod tests;
