//! `gamebench compare OLD NEW`: two runs' results, paired case by case, and whether NEW
//! regressed: per (game, engine) the ratio of total times with a bootstrap interval, the
//! per-case ratios' percentiles, the cases that changed beyond the noise (alone, or together
//! with their neighbours: a shared shift), and every verdict change (a case that was `ok` and
//! is not now first).
//!
//! Invariants: cases pair by (game, file, case, engine), an engine of OLD renamed by
//! `--engine-map`; the result depends on the inputs only (the bootstrap has a fixed seed, the
//! order is sorted), never on the thread count or the clock. How the noise thresholds are
//! derived is [`noise`]'s business, which cases changed alone or together [`shift`]'s; the
//! exit code is [`Comparison::exit`]'s.

pub mod baseline;
pub mod drift;
mod load;
pub mod noise;
mod render;
pub mod shift;

use std::collections::BTreeMap;
use std::path::PathBuf;

pub use baseline::{MetaDifference, meta_differences};
pub use drift::Drift;
pub use load::{BASELINE_CSV, BASELINE_META, CaseResult, Results, load, stream};
pub use noise::{MIN_CHANGE_NS, MIN_NOISE, Noise, NoiseSource, SHARED_NOISE};
pub use render::render;
pub use shift::{Scope, Shift};

use crate::status::{Exit, Status};
use crate::util::stats;

/// Why a comparison could not be made.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    #[error("{path}: {1}", path = .0.display())]
    Read(PathBuf, std::io::Error),
    #[error("{}: not a regular file (a results CSV, a JSON export or a baseline folder)", .0.display())]
    NotAFile(PathBuf),
    #[error("{}: a folder without {BASELINE_CSV}: not a baseline", .0.display())]
    NotBaseline(PathBuf),
    #[error("{path}, line {1}: {2}", path = .0.display())]
    Csv(PathBuf, usize, String),
    #[error("{path}: not a JSON export with samples: {1}", path = .0.display())]
    Json(PathBuf, String),
    #[error("--engine-map {0:?}: expected OLD=NEW")]
    EngineMap(String),
    #[error("--noise {0:?}: expected a percentage such as 5% (above 0, below 1000%)")]
    Noise(String),
    #[error("no case of {} is in {} (pairs are (game, file, case, engine); see --engine-map)", .0.display(), .1.display())]
    NothingInCommon(PathBuf, PathBuf),
}

/// What makes `compare` exit non-zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum FailOn {
    /// A case slower beyond the noise, a shift shared by many cases slower beyond the shared
    /// noise, or an engine's total slower beyond the drift between the runs (its floor).
    Time,
    /// A case whose status got worse (an `ok` case that now fails, a failure that got worse).
    Verdict,
    /// Either (the default).
    #[default]
    Any,
}

/// The options of a comparison.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Engines of OLD paired with differently named engines of NEW: (old, new).
    pub engine_map: Vec<(String, String)>,
    /// A fixed noise threshold (relative, 0.05 = 5 %), instead of one derived from the runs.
    pub noise: Option<f64>,
    pub fail_on: FailOn,
}

/// Parses `OLD=NEW`.
pub fn parse_engine_map(text: &str) -> Result<(String, String), CompareError> {
    match text.split_once('=') {
        Some((old, new)) if !old.trim().is_empty() && !new.trim().is_empty() => {
            Ok((old.trim().to_string(), new.trim().to_string()))
        }
        _ => Err(CompareError::EngineMap(text.to_string())),
    }
}

/// The largest `--noise` accepted: 1000 %.
const MAX_NOISE: f64 = 10.0;

/// Parses a percentage (`5%`, or `5`) into a relative threshold (0.05).
pub fn parse_noise(text: &str) -> Result<f64, CompareError> {
    let number = text.trim().trim_end_matches('%').trim();
    match number.parse::<f64>() {
        Ok(p) if p.is_finite() && p > 0.0 && p / 100.0 < MAX_NOISE => Ok(p / 100.0),
        _ => Err(CompareError::Noise(text.to_string())),
    }
}

/// Which way a time moved beyond the noise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Slower,
    Faster,
}

/// One case whose time changed beyond the noise, on its own.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeChange {
    pub file: String,
    pub case: usize,
    pub label: String,
    /// The fastest run of each side.
    pub old_ns: u64,
    pub new_ns: u64,
    pub direction: Direction,
}

impl TimeChange {
    pub fn ratio(&self) -> f64 {
        self.new_ns as f64 / self.old_ns.max(1) as f64
    }
}

/// The per-case ratios' percentiles reported.
pub const PERCENTILES: [f64; 5] = [0.05, 0.25, 0.5, 0.75, 0.95];
/// z of the two-sided 95 % normal interval around the bootstrap's standard error.
const Z95: f64 = 1.96;

/// One (game, engine) of the comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    pub game: String,
    /// The engine's name in NEW, and in OLD when `--engine-map` renamed it.
    pub engine: String,
    pub old_engine: String,
    /// Cases timed on both sides.
    pub pairs: usize,
    pub old_total_ns: u64,
    pub new_total_ns: u64,
    /// new total / old total, and its 95 % interval (bootstrap over cases, fixed seed).
    pub ratio: f64,
    pub interval: (f64, f64),
    /// The per-case ratios (new / old) at [`PERCENTILES`].
    pub percentiles: Vec<f64>,
    pub noise: Noise,
    /// The drift between the runs estimated from them, whose floor is the total's noise;
    /// `None` under `--noise`.
    pub drift: Option<Drift>,
    /// Cases beyond the noise on their own, slowest change first.
    pub changes: Vec<TimeChange>,
    /// Cases that moved together (everything first, then in timing order).
    pub shifts: Vec<Shift>,
    /// The total moved beyond the drift between the runs: its whole interval is past
    /// `1 ± floor` (`1 ± noise` under a given `--noise`).
    pub total: Option<Direction>,
}

impl Group {
    pub fn slower(&self) -> impl Iterator<Item = &TimeChange> {
        self.changes
            .iter()
            .filter(|c| c.direction == Direction::Slower)
    }

    /// Shifts shared by several cases that are slower beyond the shared noise.
    pub fn slower_shifts(&self) -> impl Iterator<Item = &Shift> {
        self.shifts
            .iter()
            .filter(|s| s.beyond == Some(Direction::Slower))
    }

    /// The total is not beyond its noise, yet its interval is not within it either: a change
    /// of the whole run as large as the floor can neither be found nor ruled out.
    pub fn cannot_tell(&self) -> bool {
        let factor = 1.0 + self.noise.total;
        self.total.is_none()
            && !self.interval.0.is_nan()
            && (self.interval.1 > factor || self.interval.0 < 1.0 / factor)
    }

    pub fn regressed(&self) -> bool {
        self.total == Some(Direction::Slower)
            || self.slower().next().is_some()
            || self.slower_shifts().next().is_some()
    }
}

/// A case whose status changed.
#[derive(Debug, Clone, PartialEq)]
pub struct VerdictChange {
    pub game: String,
    pub engine: String,
    pub file: String,
    pub case: usize,
    pub old: Status,
    pub new: Status,
    /// NEW's message (or OLD's when NEW has none).
    pub message: String,
}

impl VerdictChange {
    /// `ok` (or `unchecked`) before, a failure now.
    pub fn was_ok(&self) -> bool {
        passes(self.old) && !passes(self.new)
    }

    /// A failure now that is more severe than before.
    pub fn worse(&self) -> bool {
        !passes(self.new) && self.new.severity() > self.old.severity()
    }
}

/// `ok` and `unchecked` both pass: they differ in whether anything was compared (`--check`, a
/// baseline engine), not in what the engine did, so one turning into the other is no change.
fn passes(status: Status) -> bool {
    matches!(status, Status::Ok | Status::Unchecked)
}

/// The whole comparison.
#[derive(Debug, Clone)]
pub struct Comparison {
    pub old: PathBuf,
    pub new: PathBuf,
    pub groups: Vec<Group>,
    /// Every status change, those that were `ok` first, then those that got worse, then the
    /// rest, each in (game, engine, file, case) order.
    pub verdicts: Vec<VerdictChange>,
    /// Cases only in OLD, only in NEW (per engine).
    pub only_old: Vec<(String, String, String, usize)>,
    pub only_new: usize,
    pub meta: Vec<MetaDifference>,
    pub fail_on: FailOn,
}

impl Comparison {
    pub fn time_regressed(&self) -> bool {
        self.groups.iter().any(Group::regressed)
    }

    pub fn verdict_regressed(&self) -> bool {
        self.verdicts.iter().any(VerdictChange::worse)
    }

    /// 0 when nothing regressed (under `--fail-on`); [`Exit::Failures`] (1) when a verdict got
    /// worse; [`Exit::Slower`] (6) when only time did.
    pub fn exit(&self) -> Exit {
        let verdict =
            matches!(self.fail_on, FailOn::Verdict | FailOn::Any) && self.verdict_regressed();
        let time = matches!(self.fail_on, FailOn::Time | FailOn::Any) && self.time_regressed();
        if verdict {
            Exit::Failures
        } else if time {
            Exit::Slower
        } else {
            Exit::Ok
        }
    }
}

type Key = (String, String, String, usize);

/// Compares NEW with OLD.
pub fn compare(
    old: &Results,
    new: &Results,
    options: &Options,
) -> Result<Comparison, CompareError> {
    let rename = |engine: &str| {
        options
            .engine_map
            .iter()
            .find(|(o, _)| o == engine)
            .map_or_else(|| engine.to_string(), |(_, n)| n.clone())
    };
    let old_cases: BTreeMap<Key, &CaseResult> = old
        .cases
        .iter()
        .map(|c| {
            (
                (c.game.clone(), rename(&c.engine), c.file.clone(), c.case),
                c,
            )
        })
        .collect();
    let new_cases: BTreeMap<Key, &CaseResult> = new
        .cases
        .iter()
        .map(|c| {
            (
                (c.game.clone(), c.engine.clone(), c.file.clone(), c.case),
                c,
            )
        })
        .collect();
    let mut verdicts = Vec::new();
    let mut only_old = Vec::new();
    // (game, engine) -> paired cases (old, new)
    let mut paired: BTreeMap<(String, String), Vec<(&CaseResult, &CaseResult)>> = BTreeMap::new();
    for (key, o) in &old_cases {
        let Some(n) = new_cases.get(key) else {
            only_old.push(key.clone());
            continue;
        };
        paired
            .entry((key.0.clone(), key.1.clone()))
            .or_default()
            .push((o, n));
        if passes(o.status) != passes(n.status) || (!passes(n.status) && o.status != n.status) {
            verdicts.push(VerdictChange {
                game: key.0.clone(),
                engine: key.1.clone(),
                file: key.2.clone(),
                case: key.3,
                old: o.status,
                new: n.status,
                message: if n.message.is_empty() {
                    o.message.clone()
                } else {
                    n.message.clone()
                },
            });
        }
    }
    if paired.is_empty() {
        return Err(CompareError::NothingInCommon(
            old.source.clone(),
            new.source.clone(),
        ));
    }
    let only_new = new_cases
        .keys()
        .filter(|k| !old_cases.contains_key(*k))
        .count();
    // Stable sorts: within each class, (game, engine, file, case) order stays.
    verdicts.sort_by_key(|v| (!v.was_ok(), !v.worse()));
    let startup_of = |r: &Results| r.meta.as_ref()?.get("external_startup_ns")?.as_u64();
    let startup = startup_of(old).zip(startup_of(new));
    let groups = paired
        .into_iter()
        .map(|((game, engine), cases)| {
            let old_engine = cases[0].0.engine.clone();
            group(game, engine, old_engine, &cases, options.noise, startup)
        })
        .collect();
    Ok(Comparison {
        old: old.source.clone(),
        new: new.source.clone(),
        groups,
        verdicts,
        only_old,
        only_new,
        meta: meta_differences(old.meta.as_ref(), new.meta.as_ref()),
        fail_on: options.fail_on,
    })
}

fn group(
    game: String,
    engine: String,
    old_engine: String,
    cases: &[(&CaseResult, &CaseResult)],
    fixed: Option<f64>,
    startup: Option<(u64, u64)>,
) -> Group {
    let timed: Vec<(&CaseResult, &CaseResult, u64, u64)> = cases
        .iter()
        .filter_map(|(o, n)| Some((*o, *n, o.time_ns()?, n.time_ns()?)))
        .collect();
    let totals = |side: fn(&(&CaseResult, &CaseResult, u64, u64)) -> u64| {
        timed.iter().map(side).sum::<u64>()
    };
    let (old_total_ns, new_total_ns) = (totals(|t| t.2), totals(|t| t.3));
    let pairs: Vec<(f64, f64)> = timed.iter().map(|t| (t.3 as f64, t.2 as f64)).collect();
    let (ratio, interval) = match stats::ratio_of_sums(&pairs) {
        Some((r, se)) => (r, ((r - Z95 * se).max(0.0), r + Z95 * se)),
        None => (f64::NAN, (f64::NAN, f64::NAN)),
    };
    let ratios = stats::sorted(
        &timed
            .iter()
            .filter(|t| t.2 > 0)
            .map(|t| t.3 as f64 / t.2 as f64)
            .collect::<Vec<_>>(),
    );
    let percentiles = PERCENTILES
        .iter()
        .filter_map(|&q| stats::quantile_sorted(&ratios, q))
        .collect();
    let points: Vec<shift::Point> = timed
        .iter()
        .map(|t| shift::Point {
            file: &t.1.file,
            case: t.1.case,
            runs: noise::Runs {
                old: &t.0.runs,
                new: &t.1.runs,
            },
        })
        .collect();
    let runs: Vec<noise::Runs> = points.iter().map(|p| p.runs).collect();
    let mut noise = Noise::derive(fixed, &runs);
    let drift = fixed.is_none().then(|| {
        let cases: Vec<drift::Case> = points
            .iter()
            .map(|p| drift::Case {
                file: p.file,
                old: p.runs.old,
                new: p.runs.new,
            })
            .collect();
        let drift = Drift::estimate(&cases, startup);
        noise.total = drift.floor;
        noise.shared = noise.shared.max(drift.floor);
        drift
    });
    let (alone, shifts) = shift::classify(&points, &noise);
    let mut changes: Vec<TimeChange> = alone
        .into_iter()
        .map(|(i, direction)| {
            let (o, n) = (timed[i].0, timed[i].1);
            TimeChange {
                file: n.file.clone(),
                case: n.case,
                label: n.label.clone(),
                old_ns: o.fastest_ns().unwrap_or(0),
                new_ns: n.fastest_ns().unwrap_or(0),
                direction,
            }
        })
        .collect();
    changes.sort_by(|a, b| {
        (a.direction == Direction::Faster)
            .cmp(&(b.direction == Direction::Faster))
            .then(b.ratio().total_cmp(&a.ratio()))
            .then((&a.file, a.case).cmp(&(&b.file, b.case)))
    });
    let total = noise.total(interval, new_total_ns.abs_diff(old_total_ns));
    Group {
        game,
        engine,
        old_engine,
        pairs: timed.len(),
        old_total_ns,
        new_total_ns,
        ratio,
        interval,
        percentiles,
        noise,
        drift,
        changes,
        shifts,
        total,
    }
}

#[cfg(test)]
mod tests;
