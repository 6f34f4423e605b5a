//! The advice's wording and flags on made-up samples.

use super::text::sigmas;
use super::*;

fn sample(times: &[u64], censored: usize) -> Sample {
    Sample {
        solution: "s".into(),
        test: "t".into(),
        times_ns: times.to_vec(),
        censored,
        cap_ns: 6_000_000_000,
        failures: Vec::new(),
    }
}

#[test]
fn the_spread_is_in_the_unit_of_the_mean() {
    // Mean 0.81 s and sample standard deviation 0.03 s (by hand: deviations ±0.03 s over
    // n - 1 = 1).
    let s = sample(&[789_000_000, 831_426_407], 0);
    assert_eq!(s.describe(), "0.810 s ± 0.030 s, n = 2");
    assert_eq!(
        sample(&[12_000_000], 0).describe(),
        "0.0120 s (n = 1: no spread)"
    );
    assert_eq!(
        sample(&[1_000], 1).describe(),
        "> 6 s (stopped at that cap in 1 of 2 runs)"
    );
    assert_eq!(sample(&[1_000], 1).max_ns(), Some(6_000_000_000));
    // A spread below the mean's last digit keeps its own digits.
    assert_eq!(
        sample(&[1_200_000_000, 1_202_000_000], 0).describe(),
        "1.20 s ± 0.00141 s, n = 2"
    );
}

#[test]
fn limits_are_said_without_trailing_zeros() {
    assert_eq!(seconds(1e9), "1 s");
    assert_eq!(seconds(1.5e9), "1.5 s");
    assert_eq!(seconds(28_300_000.0), "0.0283 s");
    assert_eq!(seconds(120e9), "120 s");
}

#[test]
fn runs_between_the_limit_and_the_margin_are_flagged() {
    let rules = TimeRules {
        time_limit: None,
        ac_to_time_limit: 2.0,
        time_limit_to_tle: 1.5,
        resolution: 1.0,
    };
    let second = 1_000_000_000;
    let samples = vec![
        // Under the limit every time: not flagged.
        sample(&[second / 2, second / 2], 0),
        // 1.2 s and 1.4 s are between 1 s and 1.5 s.
        Sample {
            solution: "near".into(),
            ..sample(&[second * 12 / 10, second * 14 / 10, second * 2], 0)
        },
        // Above the margin every time, or stopped: not flagged.
        sample(&[second * 2], 1),
        // Either side of the limit, never inside the window.
        Sample {
            solution: "both".into(),
            ..sample(&[second * 9 / 10, second * 16 / 10], 0)
        },
    ];
    let inv_free = sample_flags(&samples, second, &rules);
    assert_eq!(inv_free.len(), 2, "{inv_free:?}");
    assert!(inv_free[0].starts_with("near on t: 2 of 3 runs between the limit 1 s and the safety margin 1.5 s (1.2 s to 1.4 s)"), "{inv_free:?}");
    assert_eq!(sigmas(-3.0, 1.5), "2.00 σ below");
    assert!(
        inv_free[1].starts_with("both on t: 1 of 2 runs above the limit 1 s"),
        "{inv_free:?}"
    );
}
