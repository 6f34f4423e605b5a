//! The statistics of an interleaved A/B run: per (unit, round) log-ratios of an engine's time
//! to the baseline's in the same round, their geometric mean as one effect size, its bootstrap
//! interval over units and rounds, and the verdict against a threshold. Numbers only.

use crate::util::stats::{self, SplitMix as Rng};

/// Resamples of the two-level bootstrap (units, then each unit's rounds).
pub const RESAMPLES: usize = stats::BOOTSTRAP_RESAMPLES;
/// The two-sided confidence of the interval.
pub const CONFIDENCE: f64 = 0.95;

/// The order of round `round`: every (unit, engine) once, shuffled (Fisher-Yates) by a
/// generator seeded from `seed` and the round, so each round's order is fresh and the whole
/// sequence is reproducible from the seed.
pub fn round_order(units: usize, engines: usize, seed: u64, round: u64) -> Vec<(usize, usize)> {
    let mut order: Vec<(usize, usize)> = (0..units)
        .flat_map(|u| (0..engines).map(move |e| (u, e)))
        .collect();
    // Mixed through one step of the generator so that consecutive rounds are unrelated.
    let mut rng = Rng(Rng(seed ^ round.rotate_left(32)).next_u64() ^ round);
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    order
}

/// An engine's time against the baseline's: the geometric mean ratio and its interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Effect {
    /// exp(mean of ln(engine / baseline)) over every unit and round.
    pub ratio: f64,
    pub low: f64,
    pub high: f64,
    /// Pairs measured (units x rounds).
    pub pairs: usize,
}

impl Effect {
    /// The interval's relative width, high / low - 1.
    pub fn width(&self) -> f64 {
        self.high / self.low - 1.0
    }

    /// The smallest slowdown beyond `threshold` that an interval as wide as this one (on the
    /// log scale, below its centre) would have shown: a true ratio above it puts the interval's
    /// lower end above 1 + threshold.
    pub fn detectable(&self, threshold: f64) -> f64 {
        (1.0 + threshold) * (self.ratio / self.low) - 1.0
    }
}

/// The paired log-ratios of one unit, one per round it was measured in.
pub type UnitLogs = Vec<f64>;

/// The effect of `logs` (one list of log-ratios per unit; units without any are skipped): the
/// geometric mean ratio, and the [`CONFIDENCE`] percentile interval of a two-level bootstrap
/// (units drawn with replacement, then each drawn unit's rounds with replacement), seeded.
/// `None` without a single pair.
pub fn effect(logs: &[UnitLogs], seed: u64) -> Option<Effect> {
    effect_resampled(logs, seed, |_| None)
}

/// [`effect`] where something the log-ratios depend on was itself sampled (a start-up taken
/// out, the median of runs on an empty input): `replicate` draws it again from the generator
/// and gives the log-ratios it makes (`None`: `logs` as they are), before each bootstrap
/// resample draws its units and rounds from them, so the interval carries that estimate's
/// uncertainty too. `logs` are the point estimate's.
pub fn effect_resampled(
    logs: &[UnitLogs],
    seed: u64,
    mut replicate: impl FnMut(&mut Rng) -> Option<Vec<UnitLogs>>,
) -> Option<Effect> {
    let all: Vec<f64> = logs.iter().flat_map(|l| l.iter().copied()).collect();
    let (mean, _) = stats::mean_stddev(&all)?;
    let mut rng = Rng(seed);
    let mut means: Vec<f64> = (0..RESAMPLES)
        .filter_map(|_| match replicate(&mut rng) {
            Some(drawn) => resample(&drawn, &mut rng),
            None => resample(logs, &mut rng),
        })
        .collect();
    means.sort_by(f64::total_cmp);
    let tail = (1.0 - CONFIDENCE) / 2.0;
    let low = stats::quantile_sorted(&means, tail)?;
    let high = stats::quantile_sorted(&means, 1.0 - tail)?;
    Some(Effect {
        ratio: mean.exp(),
        low: low.exp(),
        high: high.exp(),
        pairs: all.len(),
    })
}

/// One two-level bootstrap resample's mean of `logs` (units with replacement, then each drawn
/// unit's rounds with replacement; units without any skipped). `None` without a pair.
fn resample(logs: &[UnitLogs], rng: &mut Rng) -> Option<f64> {
    let units: Vec<&UnitLogs> = logs.iter().filter(|l| !l.is_empty()).collect();
    if units.is_empty() {
        return None;
    }
    let (mut sum, mut n) = (0.0, 0usize);
    for _ in 0..units.len() {
        let unit = units[rng.below(units.len())];
        for _ in 0..unit.len() {
            sum += unit[rng.below(unit.len())];
        }
        n += unit.len();
    }
    Some(sum / n as f64)
}

/// The median of a resample of `samples` drawn with replacement (a bootstrap replicate of
/// their median); 0 without samples.
pub fn resampled_median(samples: &[u64], rng: &mut Rng) -> u64 {
    if samples.is_empty() {
        return 0;
    }
    let drawn: Vec<u64> = (0..samples.len())
        .map(|_| samples[rng.below(samples.len())])
        .collect();
    stats::median_u64(&drawn).unwrap_or(0)
}

/// What an interval says against a threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Slower than the baseline by more than the threshold at [`CONFIDENCE`].
    Slower,
    /// Faster than the baseline by more than the threshold at [`CONFIDENCE`].
    Faster,
    /// Within the threshold either way at [`CONFIDENCE`].
    NoChange,
    /// The interval reaches past the threshold: the run cannot tell.
    CannotTell,
}

/// The verdict of `effect` against `threshold` (0.03 = 3 %): slower when the interval lies
/// wholly above 1 + threshold, faster when wholly below 1 / (1 + threshold), no change when
/// wholly between them.
pub fn verdict(effect: &Effect, threshold: f64) -> Verdict {
    let (up, down) = (1.0 + threshold, 1.0 / (1.0 + threshold));
    if effect.low > up {
        Verdict::Slower
    } else if effect.high < down {
        Verdict::Faster
    } else if effect.low >= down && effect.high <= up {
        Verdict::NoChange
    } else {
        Verdict::CannotTell
    }
}

/// Whether more rounds would not change the answer: a verdict is reached and the interval is
/// narrower than the threshold.
pub fn settled(effect: &Effect, threshold: f64) -> bool {
    verdict(effect, threshold) != Verdict::CannotTell && effect.width() < threshold
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Log-normal noise of relative size `sigma` from a generator: Box-Muller.
    fn noise(rng: &mut Rng, sigma: f64) -> f64 {
        let u1 = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let u2 = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        sigma * (-2.0 * u1.max(1e-300).ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// Synthetic paired times: `units` cases of different base times, `rounds` rounds, each
    /// round's machine state (a shared factor) applied to both engines, plus each run's own
    /// noise; the engine is `slowdown` times the baseline.
    fn synthetic(units: usize, rounds: usize, slowdown: f64, seed: u64) -> Vec<UnitLogs> {
        let mut rng = Rng(seed);
        (0..units)
            .map(|u| {
                let base = 1e6 * (1.0 + u as f64);
                (0..rounds)
                    .map(|_| {
                        // A loaded round: up to x2 on both engines alike.
                        let load = 1.0 + (rng.below(100) as f64) / 100.0;
                        let a = base * load * noise(&mut rng, 0.05).exp();
                        let b = base * load * slowdown * noise(&mut rng, 0.05).exp();
                        (b / a).ln()
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_known_ten_percent_slowdown_is_found() {
        for seed in 0..20 {
            let e = effect(&synthetic(20, 10, 1.10, seed), 1).unwrap();
            assert_eq!(verdict(&e, 0.03), Verdict::Slower, "seed {seed}: {e:?}");
            assert!(e.low < 1.10 && e.high > 1.10, "seed {seed}: {e:?}");
        }
    }

    #[test]
    fn identical_engines_give_no_alarm() {
        for seed in 0..20 {
            let e = effect(&synthetic(20, 10, 1.0, seed), 1).unwrap();
            let v = verdict(&e, 0.03);
            assert_eq!(v, Verdict::NoChange, "seed {seed}: {e:?}");
            assert!(e.low < 1.0 && e.high > 1.0, "seed {seed}: {e:?}");
        }
    }

    #[test]
    fn by_hand_every_pair_the_same_ratio() {
        // Every pair exactly 1.2: no spread, the interval is the point.
        let logs = vec![vec![1.2f64.ln(); 3]; 4];
        let e = effect(&logs, 7).unwrap();
        assert!((e.ratio - 1.2).abs() < 1e-12 && (e.low - 1.2).abs() < 1e-12);
        assert!((e.high - 1.2).abs() < 1e-12 && e.pairs == 12, "{e:?}");
        assert_eq!(verdict(&e, 0.03), Verdict::Slower);
        assert_eq!(verdict(&e, 0.25), Verdict::NoChange);
        assert!(settled(&e, 0.03));
        assert_eq!(effect(&[vec![], vec![]], 1), None);
    }

    #[test]
    fn a_wide_interval_cannot_tell_and_says_what_it_could_find() {
        let e = Effect {
            ratio: 1.0,
            low: 0.9,
            high: 1.1,
            pairs: 10,
        };
        assert_eq!(verdict(&e, 0.03), Verdict::CannotTell);
        assert!(!settled(&e, 0.03));
        // 1.03 x (1 / 0.9) - 1 = 14.4 %.
        assert!((e.detectable(0.03) - (1.03 / 0.9 - 1.0)).abs() < 1e-12);
        let faster = Effect {
            ratio: 0.8,
            low: 0.78,
            high: 0.82,
            pairs: 10,
        };
        assert_eq!(verdict(&faster, 0.03), Verdict::Faster);
    }

    #[test]
    fn an_offset_drawn_again_per_resample_widens_the_interval() {
        // Every pair's times (engine 1.05 ms + s, baseline 1 ms + s) with a start-up s of 0.3 ms
        // estimated from samples: taken out at its median, every ratio is 1.05 exactly and the
        // plain interval is the point; drawn again per resample, the estimate's spread widens it
        // on both sides.
        let samples: Vec<u64> = (0..9).map(|i| 260_000 + 10_000 * i).collect();
        let logs_with = |s: u64| -> Vec<UnitLogs> {
            vec![
                vec![
                    ((1_050_000.0 + 300_000.0 - s as f64) / (1_000_000.0 + 300_000.0 - s as f64))
                        .ln();
                    5
                ];
                10
            ]
        };
        let point = logs_with(stats::median_u64(&samples).unwrap());
        let fixed = effect(&point, 3).unwrap();
        assert!(
            (fixed.ratio - 1.05).abs() < 1e-9 && fixed.width() < 1e-9,
            "{fixed:?}"
        );
        let drawn = effect_resampled(&point, 3, |rng| {
            Some(logs_with(resampled_median(&samples, rng)))
        })
        .unwrap();
        assert!((drawn.ratio - 1.05).abs() < 1e-9, "{drawn:?}");
        assert!(
            drawn.low < 1.05 - 1e-4 && drawn.high > 1.05 + 1e-4,
            "{drawn:?}"
        );
        // Over the extremes of the samples (0.26 and 0.34 ms), the ratio stays within
        // 1.05 x (1 +- 0.04 / 1.0) or so: the interval does not reach past them.
        let extreme = |s: u64| logs_with(s)[0][0].exp();
        assert!(drawn.low >= extreme(260_000) - 1e-9 && drawn.high <= extreme(340_000) + 1e-9);
        assert_eq!(resampled_median(&[], &mut Rng(1)), 0);
    }

    #[test]
    fn each_round_is_a_fresh_permutation_reproducible_from_the_seed() {
        let first = round_order(20, 2, 1, 0);
        let mut sorted = first.clone();
        sorted.sort_unstable();
        let all: Vec<(usize, usize)> = (0..20).flat_map(|u| [(u, 0), (u, 1)]).collect();
        assert_eq!(sorted, all, "every (unit, engine) exactly once");
        assert_eq!(first, round_order(20, 2, 1, 0), "reproducible");
        let rounds: Vec<_> = (0..10).map(|r| round_order(20, 2, 1, r)).collect();
        for (i, a) in rounds.iter().enumerate() {
            for b in &rounds[i + 1..] {
                assert_ne!(a, b, "a fresh order each round");
            }
        }
        assert_ne!(first, round_order(20, 2, 2, 0), "the seed matters");
        // The engine that goes first in a unit's pair varies from round to round.
        let firsts = rounds
            .iter()
            .filter(|o| o.iter().find(|(u, _)| *u == 0).unwrap().1 == 0)
            .count();
        assert!(firsts > 0 && firsts < 10, "{firsts}");
        assert!(round_order(0, 2, 1, 0).is_empty());
    }
}
