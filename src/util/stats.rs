//! The statistics of timings: medians, quantiles, mean and standard deviation, a bootstrap of a
//! ratio of sums, outlier detection and a log-log least-squares fit. Plain functions of
//! numbers; nothing here knows games or engines.
//!
//! Conventions: every function takes its values unsorted unless it says so; an empty input
//! gives `None` (never a panic, never a NaN); quantiles interpolate linearly between order
//! statistics (type 7, the default of R and numpy), so the median of an even count is the mean
//! of the two middle values.

/// The `q`-quantile (0 <= q <= 1) of sorted values, interpolating linearly between the two
/// nearest order statistics.
pub fn quantile_sorted(sorted: &[f64], q: f64) -> Option<f64> {
    quantile_at(sorted.len(), q, |i| sorted[i])
}

/// [`quantile_sorted`] of sorted whole numbers (nanoseconds), without a copy as floats.
pub fn quantile_sorted_u64(sorted: &[u64], q: f64) -> Option<f64> {
    quantile_at(sorted.len(), q, |i| sorted[i] as f64)
}

/// [`quantile_sorted_u64`] of values in any order, which it reorders: a selection of the one
/// or two values the quantile needs (linear time), not a sort.
pub fn quantile_u64(values: &mut [u64], q: f64) -> Option<f64> {
    let last = values.len().checked_sub(1)?;
    let lo = ((last as f64) * q.clamp(0.0, 1.0)).floor() as usize;
    let (_, &mut low, above) = values.select_nth_unstable(lo);
    // The next value up, when the quantile falls between two.
    let high = above.iter().copied().min().unwrap_or(low);
    quantile_at(
        last + 1,
        q,
        |i| if i == lo { low as f64 } else { high as f64 },
    )
}

/// The `q`-quantile of `len` sorted values, the `i`-th given by `at`.
fn quantile_at(len: usize, q: f64, value: impl Fn(usize) -> f64) -> Option<f64> {
    if len == 0 {
        return None;
    }
    let at = (len - 1) as f64 * q.clamp(0.0, 1.0);
    let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
    Some(value(lo) + (value(hi) - value(lo)) * (at - lo as f64))
}

/// The median (the mean of the two middle values for an even count).
pub fn median(values: &[f64]) -> Option<f64> {
    quantile_sorted(&sorted(values), 0.5)
}

/// [`median`] of whole numbers (nanoseconds), rounded down: the mean of the two middle values,
/// rounded down, for an even count. Exact below 2^52 (52 days of nanoseconds).
pub fn median_u64(values: &[u64]) -> Option<u64> {
    let floats: Vec<f64> = values.iter().map(|&v| v as f64).collect();
    median(&floats).map(|m| m.floor() as u64)
}

/// A sorted copy (NaNs are not expected; they sort last).
pub fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

/// Mean and sample standard deviation (n - 1 in the denominator; 0 for a single value).
pub fn mean_stddev(values: &[f64]) -> Option<(f64, f64)> {
    mean_stddev_of(values.len(), || values.iter().copied())
}

/// [`mean_stddev`] of whole numbers (nanoseconds), without a copy as floats.
pub fn mean_stddev_u64(values: &[u64]) -> Option<(f64, f64)> {
    mean_stddev_of(values.len(), || values.iter().map(|&v| v as f64))
}

/// Mean and sample standard deviation of the `len` values `values` yields (twice).
fn mean_stddev_of<I: Iterator<Item = f64>>(
    len: usize,
    values: impl Fn() -> I,
) -> Option<(f64, f64)> {
    if len == 0 {
        return None;
    }
    let n = len as f64;
    let mean = values().sum::<f64>() / n;
    if len == 1 {
        return Some((mean, 0.0));
    }
    let var = values().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    Some((mean, var.sqrt()))
}

/// The factor that makes the median absolute deviation estimate a normal distribution's σ.
const MAD_TO_SIGMA: f64 = 1.4826;

/// Modified Z-score above which a value is an outlier. Hyperfine's threshold: it flags only
/// values far out (a normal sample almost never reaches it), so a warning means a real
/// disturbance (another process, a cold cache), not ordinary noise.
pub const OUTLIER_Z: f64 = 14.0;

/// How many values have a modified Z-score (distance to the median in units of the scaled
/// median absolute deviation) above [`OUTLIER_Z`]. Fewer than 3 values have none; when more
/// than half the values are equal (MAD 0), every value that differs is an outlier.
pub fn outliers(values: &[f64]) -> usize {
    if values.len() < 3 {
        return 0;
    }
    let med = median(values).expect("non-empty");
    let deviations: Vec<f64> = values.iter().map(|x| (x - med).abs()).collect();
    let mad = median(&deviations).expect("non-empty") * MAD_TO_SIGMA;
    deviations
        .iter()
        .filter(|&&d| {
            if mad > 0.0 {
                d / mad > OUTLIER_Z
            } else {
                d > 0.0
            }
        })
        .count()
}

/// A small deterministic generator (SplitMix64) for the bootstraps and seeded orders: the same
/// inputs give the same result on every machine and thread count.
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0); the modulo bias is below 2^-40 for any corpus size here.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Resamples of the bootstrap: enough for a standard error good to a few percent.
pub const BOOTSTRAP_RESAMPLES: usize = 1000;
/// The bootstrap's fixed seed.
pub const BOOTSTRAP_SEED: u64 = 0x6761_6d65_6265_6e63;

/// The ratio sum(a) / sum(b) over paired values and its bootstrap standard error: the pairs
/// (cases) are resampled with replacement [`BOOTSTRAP_RESAMPLES`] times with a fixed seed, and
/// the standard deviation of the resampled ratios is returned. `None` when there is no pair or
/// `sum(b)` is 0.
pub fn ratio_of_sums(pairs: &[(f64, f64)]) -> Option<(f64, f64)> {
    let (a, b) = pairs
        .iter()
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    if pairs.is_empty() || b <= 0.0 {
        return None;
    }
    let ratio = a / b;
    if pairs.len() == 1 {
        return Some((ratio, 0.0));
    }
    let mut rng = SplitMix(BOOTSTRAP_SEED);
    let ratios: Vec<f64> = (0..BOOTSTRAP_RESAMPLES)
        .filter_map(|_| {
            let (mut a, mut b) = (0.0, 0.0);
            for _ in 0..pairs.len() {
                let (x, y) = pairs[rng.below(pairs.len())];
                a += x;
                b += y;
            }
            (b > 0.0).then(|| a / b)
        })
        .collect();
    let (_, sd) = mean_stddev(&ratios)?;
    Some((ratio, sd))
}

/// The least-squares line through (ln x, ln y): `y ≈ c · x^exponent`. Returns the exponent
/// and the coefficient c; `None` with fewer than two distinct positive x.
pub fn power_law_fit(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let logs: Vec<(f64, f64)> = points
        .iter()
        .filter(|(x, y)| *x > 0.0 && *y > 0.0)
        .map(|(x, y)| (x.ln(), y.ln()))
        .collect();
    let n = logs.len() as f64;
    if logs.len() < 2 {
        return None;
    }
    let mx = logs.iter().map(|p| p.0).sum::<f64>() / n;
    let my = logs.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = logs.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    let sxy: f64 = logs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let exponent = sxy / sxx;
    Some((exponent, (my - exponent * mx).exp()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quantile_by_selection_is_the_one_of_the_sorted_values() {
        // By hand: 1, 2, 3, 4 -> median 2.5; 10 values, q = 0.9 -> between the 9th and 10th.
        assert_eq!(quantile_u64(&mut [4, 1, 3, 2], 0.5), Some(2.5));
        assert_eq!(quantile_u64(&mut [], 0.5), None);
        assert_eq!(quantile_u64(&mut [7], 0.3), Some(7.0));
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for len in 1..200usize {
            let values: Vec<u64> = (0..len)
                .map(|_| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1);
                    (state >> 33) % 50
                })
                .collect();
            let mut sorted = values.clone();
            sorted.sort_unstable();
            for q in [0.0, 0.1, 0.5, 0.9, 0.99, 1.0] {
                let mut scratch = values.clone();
                assert_eq!(
                    quantile_u64(&mut scratch, q),
                    quantile_sorted_u64(&sorted, q),
                    "{len} values, q {q}"
                );
            }
        }
    }

    #[test]
    fn medians_and_quantiles_by_hand() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[5.0]), Some(5.0));
        // Even count: the mean of the two middle values, not the lower one.
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        // Whole numbers: the same median, rounded down.
        assert_eq!(median_u64(&[]), None);
        assert_eq!(median_u64(&[50, 10, 30, 40]), Some(35));
        assert_eq!(median_u64(&[1, 2]), Some(1));
        assert_eq!(median_u64(&[7]), Some(7));
        let s = sorted(&[10.0, 20.0, 30.0, 40.0, 50.0]);
        // Position (5 - 1) * 0.1 = 0.4: 10 + 0.4 * 10.
        assert_eq!(quantile_sorted(&s, 0.1), Some(14.0));
        assert_eq!(quantile_sorted(&s, 0.9), Some(46.0));
        assert_eq!(quantile_sorted(&s, 0.0), Some(10.0));
        assert_eq!(quantile_sorted(&s, 1.0), Some(50.0));
    }

    #[test]
    fn mean_and_sample_stddev_by_hand() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, squared deviations sum to 32, 32 / 7.
        let (m, sd) = mean_stddev(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap();
        assert_eq!(m, 5.0);
        assert!((sd - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        assert_eq!(mean_stddev(&[3.0]), Some((3.0, 0.0)));
        assert_eq!(mean_stddev(&[]), None);
    }

    #[test]
    fn outliers_far_from_the_median() {
        // Median 10, deviations 0,0,1,1,490: MAD 1 -> 1.48; 490 / 1.48 > 14.
        assert_eq!(outliers(&[10.0, 10.0, 9.0, 11.0, 500.0]), 1);
        assert_eq!(outliers(&[10.0, 11.0, 12.0, 13.0, 14.0]), 0);
        assert_eq!(outliers(&[1.0, 1000.0]), 0);
        // MAD 0: every value off the common one is out.
        assert_eq!(outliers(&[5.0, 5.0, 5.0, 6.0]), 1);
    }

    #[test]
    fn ratio_of_sums_and_its_spread() {
        // Every pair has ratio 3: no spread whatever the resampling.
        let (r, sd) = ratio_of_sums(&[(3.0, 1.0), (6.0, 2.0), (30.0, 10.0)]).unwrap();
        assert!((r - 3.0).abs() < 1e-12 && sd < 1e-12, "{r} {sd}");
        // Ratios 1 and 4 with equal weights: 5 / 2, and a clearly positive spread.
        let (r, sd) = ratio_of_sums(&[(1.0, 1.0), (4.0, 1.0)]).unwrap();
        assert_eq!(r, 2.5);
        assert!(sd > 0.5 && sd < 1.5, "{sd}");
        // Deterministic.
        assert_eq!(ratio_of_sums(&[(1.0, 1.0), (4.0, 1.0)]).unwrap().1, sd);
        assert_eq!(ratio_of_sums(&[]), None);
        assert_eq!(ratio_of_sums(&[(1.0, 0.0)]), None);
    }

    #[test]
    fn power_law_recovers_an_exponent() {
        // y = 3 x^2 exactly.
        let pts: Vec<(f64, f64)> = [1.0, 2.0, 4.0, 8.0]
            .iter()
            .map(|&x| (x, 3.0 * x * x))
            .collect();
        let (k, c) = power_law_fit(&pts).unwrap();
        assert!((k - 2.0).abs() < 1e-9 && (c - 3.0).abs() < 1e-9, "{k} {c}");
        assert_eq!(power_law_fit(&[(2.0, 1.0)]), None);
        assert_eq!(power_law_fit(&[(2.0, 1.0), (2.0, 5.0)]), None);
    }
}
