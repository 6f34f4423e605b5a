//! The drift floor of hand-made runs, each figure derived by hand.

use super::*;

const MS: u64 = 1_000_000;

fn cases<'a>(files: &'a [String], old: &'a [Vec<u64>], new: &'a [Vec<u64>]) -> Vec<Case<'a>> {
    (0..files.len())
        .map(|i| Case {
            file: &files[i],
            old: &old[i],
            new: &new[i],
        })
        .collect()
}

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("f{i}.in")).collect()
}

#[test]
fn a_uniform_shift_within_the_repeats_spread_is_drift() {
    // 10 one-case files: old runs 10, 10.2, 10.5 ms (slowest / fastest 1.05); new runs 13,
    // 13.65, 18.2 ms (x1.3 on the fastest, slowest / fastest 1.4). Every file moved by
    // exactly x1.3: the files' shifts do not spread (drift 0); the repeats give
    // 1.05 x 1.4 - 1 = 47 %.
    let files = names(10);
    let old = vec![vec![10 * MS, 10_200_000, 10_500_000]; 10];
    let new = vec![vec![13 * MS, 13_650_000, 18_200_000]; 10];
    let d = Drift::estimate(&cases(&files, &old, &new), None);
    let f = d.files.unwrap();
    assert_eq!(f.files, 10);
    assert!((f.low - 1.3).abs() < 1e-12 && (f.high - 1.3).abs() < 1e-12);
    assert!(f.drift.abs() < 1e-12, "{f:?}");
    let r = d.repeats.unwrap();
    assert_eq!(r.cases, 10);
    assert!(
        (r.old - 0.05).abs() < 1e-12 && (r.new - 0.4).abs() < 1e-12,
        "{r:?}"
    );
    assert!((d.floor - 0.47).abs() < 1e-12, "{d:?}");
    assert!(!d.unmeasured());
}

#[test]
fn tight_repeats_and_agreeing_files_leave_the_floor_at_its_minimum() {
    // Runs 10, 10.1 ms on both sides (x1.01), every file x3: the repeats give
    // 1.01 x 1.01 - 1 = 2.01 %, under the 5 % minimum.
    let files = names(6);
    let old = vec![vec![10 * MS, 10_100_000]; 6];
    let new = vec![vec![30 * MS, 30_300_000]; 6];
    let d = Drift::estimate(&cases(&files, &old, &new), None);
    assert!((d.repeats.unwrap().drift - 0.0201).abs() < 1e-12);
    assert_eq!(d.floor, MIN_NOISE);
}

#[test]
fn files_that_moved_apart_set_the_floor() {
    // Four one-run files of 1 ms, now x1.0, x1.1, x1.2, x1.3. Their log shifts l =
    // (0, 0.09531, 0.18232, 0.26236); median 0.13882; |l - median| = (0.13882, 0.04351,
    // 0.04351, 0.12355), median 0.08353; 1.96 x 1.4826 x 0.08353 = 0.24272, larger than the
    // weighted mean deviation (equal weights: 0.08734); floor exp(0.24272) - 1 = 27.47 %.
    let files = names(4);
    let old = vec![vec![MS]; 4];
    let new = vec![vec![MS], vec![1_100_000], vec![1_200_000], vec![1_300_000]];
    let d = Drift::estimate(&cases(&files, &old, &new), None);
    assert!(d.repeats.is_none());
    let f = d.files.unwrap();
    assert!((f.low - 1.0).abs() < 1e-12 && (f.high - 1.3).abs() < 1e-12);
    let l = [0.0, 1.1f64.ln(), 1.2f64.ln(), 1.3f64.ln()];
    let centre = (l[1] + l[2]) / 2.0;
    let mad = ((l[1] - centre).abs() + (l[3] - centre).abs()) / 2.0;
    let expected = (1.96 * 1.4826 * mad).exp() - 1.0;
    assert!((expected - 0.2747).abs() < 1e-4, "{expected}");
    assert!((d.floor - expected).abs() < 1e-12, "{d:?}");
}

#[test]
fn one_file_far_out_weighs_by_its_share_of_the_time() {
    // Five one-run files: four of 1 ms unchanged, one of 4 ms now x2 (half of the old
    // total of 8 ms). The MAD of the shifts is 0; the weighted deviation is ln 2 x 4 / 8 =
    // 0.34657: floor exp(0.34657) - 1 = 41.42 %.
    let files = names(5);
    let old = vec![vec![MS], vec![MS], vec![4 * MS], vec![MS], vec![MS]];
    let new = vec![vec![MS], vec![MS], vec![8 * MS], vec![MS], vec![MS]];
    let d = Drift::estimate(&cases(&files, &old, &new), None);
    let expected = (2f64.ln() / 2.0).exp() - 1.0;
    assert!((d.floor - expected).abs() < 1e-12, "{d:?}");
}

#[test]
fn the_programs_start_up_moving_is_drift() {
    // Two one-run files (too few for their shifts) and a start-up of 1 ms, then 1.5 ms.
    let files = names(2);
    let old = vec![vec![MS]; 2];
    let new = vec![vec![MS]; 2];
    let d = Drift::estimate(&cases(&files, &old, &new), Some((MS, 1_500_000)));
    assert!(d.files.is_none() && d.repeats.is_none());
    assert!((d.floor - 0.5).abs() < 1e-12, "{d:?}");
    // A start-up that got faster by the same ratio is as much drift.
    let d = Drift::estimate(&cases(&files, &old, &new), Some((1_500_000, MS)));
    assert!((d.floor - 0.5).abs() < 1e-12, "{d:?}");
}

#[test]
fn with_nothing_to_measure_the_floor_is_the_default() {
    let files = names(2);
    let old = vec![vec![MS]; 2];
    let new = vec![vec![2 * MS]; 2];
    let d = Drift::estimate(&cases(&files, &old, &new), None);
    assert!(d.unmeasured());
    assert_eq!(d.floor, SHARED_NOISE);
    // A zero time gives no ratio and no spread, and no panic.
    let old = vec![vec![0, 0]; 2];
    let d = Drift::estimate(&cases(&files, &old, &new), Some((0, MS)));
    assert!(d.unmeasured());
}
