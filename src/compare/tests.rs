//! Comparisons of hand-made results whose expected figures are derived by hand.

use super::*;

fn case(engine: &str, file: &str, n: usize, status: Status, runs: &[u64]) -> CaseResult {
    CaseResult {
        game: "toy".into(),
        engine: engine.into(),
        file: file.into(),
        case: n,
        label: String::new(),
        size: String::new(),
        cells: None,
        status,
        runs: runs.to_vec(),
        message: String::new(),
    }
}

fn results(name: &str, cases: Vec<CaseResult>) -> Results {
    Results {
        source: name.into(),
        cases,
        meta: None,
    }
}

const MS: u64 = 1_000_000;

#[test]
fn an_isolated_slowdown_is_named_against_its_neighbours() {
    // Ten cases of 10 ms with runs 9.9, 10, 10.1 ms: fastest 9.9 ms.
    let runs = [9_900_000, 10 * MS, 10_100_000];
    let old: Vec<_> = (1..=10)
        .map(|n| case("e", "f.in", n, Status::Ok, &runs))
        .collect();
    let mut new = old.clone();
    // Case 4: +5 ms on every run: fastest 9.9 -> 14.9 ms (x1.505).
    new[3].runs = runs.iter().map(|t| t + 5 * MS).collect();
    // Case 7: +0.4 ms: 9.9 -> 10.3 ms (x1.040), under the 5 % floor.
    new[6].runs = runs.iter().map(|t| t + 400_000).collect();
    let c = compare(
        &results("old", old),
        &results("new", new),
        &Options::default(),
    )
    .unwrap();
    let g = &c.groups[0];
    // Every other case's ratio is 1 and so is the median of any case's neighbours, so the
    // residuals' MAD is 0 and the floor, 5 %, is the threshold; z for 10 cases is
    // Φ⁻¹(1 - 0.01 / 20) = 3.2905.
    assert!(
        (g.noise.threshold - MIN_NOISE).abs() < 1e-12,
        "{:?}",
        g.noise
    );
    let NoiseSource::Cases { cases: 10, z } = g.noise.source else {
        panic!("{:?}", g.noise)
    };
    assert!((z - 3.2905).abs() < 1e-4, "{z}");
    let named: Vec<_> = g.changes.iter().map(|c| (c.case, c.direction)).collect();
    assert_eq!(named, [(4, Direction::Slower)]);
    assert!(g.shifts.is_empty(), "{:?}", g.shifts);
    // Totals (of medians) 100 ms -> 105.4 ms.
    assert_eq!((g.old_total_ns, g.new_total_ns), (100 * MS, 105_400_000));
    assert!((g.ratio - 1.054).abs() < 1e-12);
    assert_eq!(g.total, None);
    assert_eq!(c.exit(), Exit::Slower);
    let text = render(&c);
    assert!(
        text.contains("SLOWER: f.in case 4: 9.90 ms -> 14.9 ms (x1.51)"),
        "{text}"
    );
    assert!(
        text.ends_with("verdict: REGRESSION (time); exit 6\n"),
        "{text}"
    );
}

/// `n` one-run cases of 1 ms in `file`, numbered from 1.
fn flat(file: &str, n: usize) -> Vec<CaseResult> {
    (1..=n)
        .map(|i| case("e", file, i, Status::Ok, &[MS]))
        .collect()
}

#[test]
fn a_file_moving_as_a_whole_within_the_shared_noise_is_no_change() {
    // a.in and b.in, 10 cases of 1 ms each; every case of b.in takes 1.6 ms now.
    let old = [flat("a.in", 10), flat("b.in", 10)].concat();
    let mut new = old.clone();
    for c in &mut new[10..] {
        c.runs = vec![1_600_000];
    }
    let c = compare(&results("o", old), &results("n", new), &Options::default()).unwrap();
    let g = &c.groups[0];
    // Against the pooled neighbours, every residual is 0 but for the last case of a.in and
    // the first of b.in (half of ln 1.6 each): the MAD is 0, the threshold the 5 % floor;
    // each case of b.in is explained by b.in's other cases.
    assert!((g.noise.threshold - MIN_NOISE).abs() < 1e-12);
    assert!(g.changes.is_empty(), "{:?}", g.changes);
    assert_eq!(
        g.shifts,
        [Shift {
            scope: Scope::File("b.in".into()),
            cases: 10,
            ratio: 1.6,
            beyond: None,
        }]
    );
    // Totals 20 ms -> 26 ms: x1.3, whose interval stays under x2 (SHARED_NOISE).
    assert_eq!((g.old_total_ns, g.new_total_ns), (20 * MS, 26 * MS));
    assert_eq!(g.total, None);
    assert_eq!(c.exit(), Exit::Ok);
    let text = render(&c);
    assert!(
        text.contains(
            "  together: every case of b.in moved by x1.60 (10 cases) (within the shared noise)\n"
        ),
        "{text}"
    );
    assert!(text.ends_with("verdict: no change; exit 0\n"), "{text}");
    // Beyond the shared noise (x2.5) it is a regression, and so it is under --noise 10%.
    let new2: Vec<_> = [flat("a.in", 10), flat("b.in", 10)]
        .concat()
        .into_iter()
        .enumerate()
        .map(|(i, mut c)| {
            if i >= 10 {
                c.runs = vec![2_500_000];
            }
            c
        })
        .collect();
    let old = [flat("a.in", 10), flat("b.in", 10)].concat();
    let c = compare(
        &results("o", old.clone()),
        &results("n", new2),
        &Options::default(),
    )
    .unwrap();
    assert_eq!(c.groups[0].shifts[0].beyond, Some(Direction::Slower));
    assert_eq!(c.exit(), Exit::Slower);
    let mut new = old.clone();
    for c in &mut new[10..] {
        c.runs = vec![1_600_000];
    }
    let tight = Options {
        noise: Some(0.1),
        ..Options::default()
    };
    let c = compare(&results("o", old), &results("n", new), &tight).unwrap();
    assert_eq!(c.groups[0].shifts[0].beyond, Some(Direction::Slower));
    assert_eq!(c.exit(), Exit::Slower);
}

/// ln 1.02: the alternating noise of the cases below.
const A: f64 = 0.019_802_627_296_179_712;

/// 1 ms old, new alternating x1.02 (even index) and /1.02 (odd) ...
fn alternating(n: usize) -> (Vec<CaseResult>, Vec<CaseResult>) {
    let old = flat("f.in", n);
    let new = (0..n)
        .map(|i| {
            let t = if i % 2 == 0 { 1_020_000 } else { 980_392 };
            case("e", "f.in", i + 1, Status::Ok, &[t])
        })
        .collect();
    (old, new)
}

#[test]
fn an_isolated_big_change_among_noisy_cases_is_a_change() {
    // 20 cases alternating +-ln 1.02 (= +-A); case 10 (index 9) takes 3 ms now.
    let (old, mut new) = alternating(20);
    new[9].runs = vec![3 * MS];
    let c = compare(&results("o", old), &results("n", new), &Options::default()).unwrap();
    let g = &c.groups[0];
    // The noise's scale: each case against the median of its (up to) 3 + 3 neighbours, which
    // are mostly of the opposite sign: |2A|; but A for indices 6, 8, 10, 12, whose six
    // neighbours hold case 10 (three -A, two +A and ln 3: median 0); the median of the 20
    // |residuals| is 2A. sd = 1.4826 x 2A, z(20) = Φ⁻¹(1 - 0.01 / 40) = 3.4808,
    // threshold = exp(z sd) - 1 = 22.68 %.
    let sd = 1.4826 * 2.0 * A;
    let expected = (3.4808 * sd).exp() - 1.0;
    assert!(
        (g.noise.threshold - expected).abs() < 1e-3,
        "{} vs {expected}",
        g.noise.threshold
    );
    let named: Vec<_> = g.changes.iter().map(|c| (c.case, c.direction)).collect();
    assert_eq!(named, [(10, Direction::Slower)]);
    assert!(g.shifts.is_empty(), "{:?}", g.shifts);
    assert_eq!(c.exit(), Exit::Slower);
}

#[test]
fn many_cases_each_barely_over_a_per_case_bound_are_controlled() {
    // 80 cases alternating +-A; four (indices 9, 29, 49, 69, whose neighbours are +A) at
    // ln ratio 0.235 (x1.265): each 0.235 - A = 0.2152 above its sides' median +A, i.e.
    // 0.2152 / sd = 3.66 sd, beyond a per-case 99.9 % bound (3.29 sd) but not beyond
    // z(80) = Φ⁻¹(1 - 0.01 / 160) = 3.8345 sd.
    let (old, mut new) = alternating(80);
    for i in [9, 29, 49, 69] {
        new[i].runs = vec![(MS as f64 * 0.235f64.exp()).round() as u64];
    }
    let c = compare(&results("o", old), &results("n", new), &Options::default()).unwrap();
    let g = &c.groups[0];
    // |residuals| against the pooled neighbours: A for the cases 1 and 3 places from a raised
    // one (16), large for the raised ones (4), 2A for the other 60; median 2A. Threshold exp(3.8345 x 1.4826 x 2A) - 1 = 25.25 %.
    let expected = (3.8345 * 1.4826 * 2.0 * A).exp() - 1.0;
    assert!(
        (g.noise.threshold - expected).abs() < 1e-3,
        "{} vs {expected}",
        g.noise.threshold
    );
    assert!(
        0.235 > (1.0 + g.noise.threshold).ln(),
        "each moved beyond it"
    );
    assert!(g.changes.is_empty(), "{:?}", g.changes);
    assert!(g.shifts.is_empty(), "{:?}", g.shifts);
    assert_eq!(c.exit(), Exit::Ok);
}

#[test]
fn the_normal_quantile_matches_the_tables() {
    for (p, z) in [
        (0.975, 1.959_964),
        (0.025, -1.959_964),
        (0.5, 0.0),
        (0.999_5, 3.290_527),
        (0.999_99, 4.264_891),
    ] {
        assert!((noise::normal_quantile(p) - z).abs() < 1e-5, "{p}");
    }
}

#[test]
fn a_verdict_change_is_reported_first_and_exits_1() {
    let old = vec![
        case("e", "a.in", 1, Status::Mismatch, &[MS]),
        case("e", "b.in", 1, Status::Ok, &[MS]),
        case("e", "c.in", 1, Status::Timeout, &[MS]),
    ];
    let mut new = old.clone();
    new[0].status = Status::Ok; // better
    new[1].status = Status::Mismatch; // was ok
    new[1].message = "line 2: expected 3, got 4".into();
    new[2].status = Status::Error; // worse, was failing already
    let c = compare(&results("o", old), &results("n", new), &Options::default()).unwrap();
    let order: Vec<_> = c.verdicts.iter().map(|v| v.file.as_str()).collect();
    assert_eq!(order, ["b.in", "c.in", "a.in"]);
    assert!(c.verdicts[0].was_ok() && c.verdicts[1].worse() && !c.verdicts[2].worse());
    assert_eq!(c.exit(), Exit::Failures);
    let text = render(&c);
    assert!(text.contains(
        "verdict changes: 3\n  NOW FAILING: toy/e b.in case 1: ok -> mismatch (line 2: expected 3, got 4)\n  WORSE: toy/e c.in case 1: timeout -> error\n  better: toy/e a.in case 1: mismatch -> ok\n"
    ), "{text}");
    // --fail-on time ignores verdicts.
    let time_only = Options {
        fail_on: FailOn::Time,
        ..Options::default()
    };
    let old = vec![case("e", "b.in", 1, Status::Ok, &[MS])];
    let new = vec![case("e", "b.in", 1, Status::Mismatch, &[MS])];
    let c = compare(&results("o", old), &results("n", new), &time_only).unwrap();
    assert_eq!(c.exit(), Exit::Ok);
}

#[test]
fn ok_and_unchecked_are_the_same_verdict() {
    let old = vec![case("e", "a.in", 1, Status::Ok, &[MS])];
    let new = vec![case("e", "a.in", 1, Status::Unchecked, &[MS])];
    let c = compare(&results("o", old), &results("n", new), &Options::default()).unwrap();
    assert!(c.verdicts.is_empty());
    assert_eq!(c.exit(), Exit::Ok);
}

#[test]
fn noise_only_is_no_change() {
    // Single runs, 20 cases of 1 ms with +-3 % wobble: the ratios' spread, not 5 %, sets the
    // noise, no case is beyond it, and the total interval straddles 1.
    let wobble = [0.97, 1.03, 1.0, 0.99, 1.01];
    let old: Vec<_> = (1..=20)
        .map(|n| case("e", "f.in", n, Status::Ok, &[MS]))
        .collect();
    let new: Vec<_> = (1..=20)
        .map(|n| {
            let t = (MS as f64 * wobble[n % wobble.len()]) as u64;
            case("e", "f.in", n, Status::Ok, &[t])
        })
        .collect();
    let c = compare(&results("o", old), &results("n", new), &Options::default()).unwrap();
    let g = &c.groups[0];
    assert!(
        matches!(g.noise.source, NoiseSource::Cases { cases: 20, .. }),
        "{:?}",
        g.noise
    );
    assert!(g.changes.is_empty() && g.total.is_none(), "{g:?}");
    assert_eq!(c.exit(), Exit::Ok);
    assert!(render(&c).ends_with("verdict: no change; exit 0\n"));
}

#[test]
fn a_small_absolute_change_is_not_a_change() {
    // 1 us -> 10 us is x10, but 9 us is under MIN_CHANGE_NS.
    let old = vec![case("e", "a.in", 1, Status::Ok, &[1_000])];
    let new = vec![case("e", "a.in", 1, Status::Ok, &[10_000])];
    let c = compare(&results("o", old), &results("n", new), &Options::default()).unwrap();
    assert!(c.groups[0].changes.is_empty());
    assert_eq!(c.exit(), Exit::Ok);
}

#[test]
fn engine_map_pairs_renamed_engines_and_nothing_in_common_is_an_error() {
    let old = vec![case("v1", "a.in", 1, Status::Ok, &[MS])];
    let new = vec![case("v2", "a.in", 1, Status::Ok, &[3 * MS])];
    let (o, n) = (results("o", old), results("n", new));
    assert!(matches!(
        compare(&o, &n, &Options::default()),
        Err(CompareError::NothingInCommon(..))
    ));
    let options = Options {
        engine_map: vec![parse_engine_map("v1=v2").unwrap()],
        noise: Some(parse_noise("10%").unwrap()),
        ..Options::default()
    };
    let c = compare(&o, &n, &options).unwrap();
    assert_eq!(
        (&*c.groups[0].old_engine, &*c.groups[0].engine),
        ("v1", "v2")
    );
    assert_eq!(c.groups[0].changes[0].direction, Direction::Slower);
    assert_eq!(c.exit(), Exit::Slower);
    assert!(parse_engine_map("v1").is_err() && parse_engine_map("=x").is_err());
    assert_eq!(parse_noise("5").unwrap(), 0.05);
    for bad in ["0%", "-1%", "abc", "nan", "2000%"] {
        assert!(parse_noise(bad).is_err(), "{bad}");
    }
}

#[test]
fn meta_differences_are_listed() {
    let old = serde_json::json!({"cpu": "A", "threads": 2, "version": "1.0", "host": "h"});
    let new = serde_json::json!({"cpu": "B", "threads": 2, "version": "1.1"});
    let d = meta_differences(Some(&old), Some(&new));
    let fields: Vec<_> = d.iter().map(|d| (d.field, &*d.old, &*d.new)).collect();
    assert_eq!(fields, [("tool version", "1.0", "1.1"), ("CPU", "A", "B")]);
    assert!(meta_differences(None, Some(&new)).is_empty());
}
