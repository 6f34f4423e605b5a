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
fn repeat_spread_sets_the_noise_and_a_slowdown_beyond_it_is_named() {
    // Ten cases of 10 ms with runs 9.9, 10, 10.1 ms: spread 0.2 / 10 = 2 %, x3 = 6 %.
    let runs = [9_900_000, 10 * MS, 10_100_000];
    let old: Vec<_> = (1..=10)
        .map(|n| case("e", "f.in", n, Status::Ok, &runs))
        .collect();
    let mut new = old.clone();
    // Case 4: +5 ms on every run (x1.5): beyond 6 %, disjoint runs.
    new[3].runs = runs.iter().map(|t| t + 5 * MS).collect();
    // Case 7: +0.4 ms (4 %): within the noise.
    new[6].runs = runs.iter().map(|t| t + 400_000).collect();
    let c = compare(
        &results("old", old),
        &results("new", new),
        &Options::default(),
    )
    .unwrap();
    let g = &c.groups[0];
    assert!((g.noise.threshold - 0.06).abs() < 1e-9, "{:?}", g.noise);
    assert_eq!(g.noise.source, NoiseSource::Repeats(10));
    let named: Vec<_> = g.changes.iter().map(|c| (c.case, c.direction)).collect();
    assert_eq!(named, [(4, Direction::Slower)]);
    // Totals 100 ms -> 105.4 ms.
    assert_eq!((g.old_total_ns, g.new_total_ns), (100 * MS, 105_400_000));
    assert!((g.ratio - 1.054).abs() < 1e-12);
    assert_eq!(c.exit(), Exit::Slower);
    let text = render(&c);
    assert!(
        text.contains("SLOWER: f.in case 4: 10.0 ms -> 15.0 ms (x1.50)"),
        "{text}"
    );
    assert!(
        text.ends_with("verdict: REGRESSION (time); exit 6\n"),
        "{text}"
    );
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
    assert_eq!(g.noise.source, NoiseSource::Cases(20));
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
