//! Which cases of a (game, engine) changed, alone or together: a case beyond the case noise
//! both against 1 and against its neighbours is a change of its own; consecutive cases that
//! moved the same way beyond the case noise are a shared shift (of a stretch of cases, of a
//! whole file, of everything: [`EVERYTHING_SHARE`] of the cases), which is how a change of the machine's state (another
//! program, the clock frequency) shows, and counts as a change only beyond the shared noise.
//!
//! Invariants: cases are taken in the order given ((file, case), the order they were timed);
//! a case is in at most one change or one shift; the result depends on the times only.

use super::Direction;
use super::noise::{MIN_CHANGE_NS, Noise, Runs, residuals};
use crate::util::stats;

/// The share of cases that must move the same way for everything to have moved.
pub const EVERYTHING_SHARE: f64 = 0.75;

/// One paired case, in timing order.
#[derive(Debug, Clone, Copy)]
pub struct Point<'a> {
    pub file: &'a str,
    pub case: usize,
    pub runs: Runs<'a>,
}

/// What a shift covers.
#[derive(Debug, Clone, PartialEq)]
pub enum Scope {
    /// Every paired case of the group.
    Everything,
    /// Every case of one file (of several).
    File(String),
    /// Consecutive cases, from (file, case) to (file, case).
    Stretch(String, usize, String, usize),
}

/// Cases that moved together beyond the case noise.
#[derive(Debug, Clone, PartialEq)]
pub struct Shift {
    pub scope: Scope,
    pub cases: usize,
    /// The median of their ratios (fastest run new / fastest run old).
    pub ratio: f64,
    /// Beyond the shared noise: a change.
    pub beyond: Option<Direction>,
}

/// A case that changed on its own: its index in the given points and which way.
pub type Alone = (usize, Direction);

/// The cases that changed alone, and the shifts shared by several.
pub fn classify(points: &[Point], noise: &Noise) -> (Vec<Alone>, Vec<Shift>) {
    let limit = (1.0 + noise.threshold).ln();
    let shared = (1.0 + noise.shared).ln();
    // Cases with a ratio, and their index in `points`.
    let (index, logs): (Vec<usize>, Vec<f64>) = points
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((i, p.runs.log_ratio()?)))
        .unzip();
    let residual = residuals(&logs);
    let moved = |k: usize| -> Option<Direction> {
        let runs = points[index[k]].runs;
        let (o, n) = (*runs.old.iter().min()?, *runs.new.iter().min()?);
        if logs[k] > limit && n - o >= MIN_CHANGE_NS {
            Some(Direction::Slower)
        } else if logs[k] < -limit && o - n >= MIN_CHANGE_NS {
            Some(Direction::Faster)
        } else {
            None
        }
    };
    let beyond = |ratio: f64| {
        if ratio.ln() > shared {
            Some(Direction::Slower)
        } else if ratio.ln() < -shared {
            Some(Direction::Faster)
        } else {
            None
        }
    };
    let mut alone = Vec::new();
    let mut shifts = Vec::new();
    let n = logs.len();
    // Everything moved when most cases moved the same way; its stretches are not listed.
    let mut everything = None;
    for direction in [Direction::Slower, Direction::Faster] {
        let count = (0..n).filter(|&k| moved(k) == Some(direction)).count();
        if n >= 2 && count as f64 >= EVERYTHING_SHARE * n as f64 {
            everything = Some(direction);
        }
    }
    let mut k = 0;
    while k < n {
        let Some(direction) = moved(k) else {
            k += 1;
            continue;
        };
        let mut end = k;
        while end + 1 < n && moved(end + 1) == Some(direction) {
            end += 1;
        }
        if end == k {
            // Alone: it must also stand out from its neighbours, the same way.
            let r = residual[k];
            let stands_out = match direction {
                Direction::Slower => r > limit,
                Direction::Faster => r < -limit,
            };
            if stands_out {
                alone.push((index[k], direction));
            }
        } else if everything != Some(direction) {
            let ratio = stats::median(&logs[k..=end]).unwrap_or(0.0).exp();
            let (first, last) = (&points[index[k]], &points[index[end]]);
            let whole_file =
                first.file == last.file && file_span(points, first.file) == (index[k], index[end]);
            let several_files = points.first().map(|p| p.file) != points.last().map(|p| p.file);
            let scope = if whole_file && several_files {
                Scope::File(first.file.to_string())
            } else {
                Scope::Stretch(
                    first.file.to_string(),
                    first.case,
                    last.file.to_string(),
                    last.case,
                )
            };
            shifts.push(Shift {
                scope,
                cases: end - k + 1,
                ratio,
                beyond: beyond(ratio),
            });
        }
        k = end + 1;
    }
    if everything.is_some() {
        let ratio = stats::median(&logs).unwrap_or(0.0).exp();
        shifts.insert(
            0,
            Shift {
                scope: Scope::Everything,
                cases: n,
                ratio,
                // The total's interval decides for everything (`Group::total`).
                beyond: None,
            },
        );
    }
    (alone, shifts)
}

/// The first and last index of `file`'s points.
fn file_span(points: &[Point], file: &str) -> (usize, usize) {
    let first = points.iter().position(|p| p.file == file).unwrap_or(0);
    let last = points.iter().rposition(|p| p.file == file).unwrap_or(0);
    (first, last)
}
