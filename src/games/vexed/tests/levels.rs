//! The level-pack report ([`super`]) on tiny packs derived by hand.

use super::*;

fn pack_dir(puzzles: &str, pars: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tiny.in"), puzzles).unwrap();
    if let Some(pars) = pars {
        std::fs::write(dir.path().join("tiny.par"), pars).unwrap();
    }
    dir
}

/// The packs' settings: the `bitset` engine, on `threads` threads, within `budget`.
fn settings(budget: Budget, threads: usize) -> Settings {
    Settings {
        engine: &Vexed::ENGINES[1],
        budget,
        threads: Some(threads),
        prove_below_par: false,
    }
}

/// A level solved by hand: two A on a wall floor one cell apart.
const ONE: &str = "3 5 ONE\n#A-A#\n#####\n#####\n";

#[test]
fn a_level_is_solved_compared_with_its_par_and_replayed() {
    let dir = pack_dir(&format!("{ONE}0 0 END\n"), Some("ONE 2\n"));
    let packs = discover(dir.path(), &[]).unwrap();
    let settings = settings(Budget::UNLIMITED, 1);
    let levels = run(&packs, &settings, &AtomicBool::new(false), &|_| {}).unwrap();
    assert_eq!(levels.len(), 1);
    let level = &levels[0];
    assert_eq!((level.pack.as_str(), level.name.as_str()), ("tiny", "ONE"));
    assert_eq!(level.status, LevelStatus::Minimal);
    // By hand: pushing the left A one cell right makes the pair touch: one move.
    assert_eq!(level.moves, Some(1));
    assert_eq!(level.par, Some(2));
    assert_eq!(level.versus_par, "below");
    assert!(
        level.detail.starts_with("ONE: Minimum solution length = 1"),
        "{}",
        level.detail
    );
    let summary = summarize(&levels);
    assert_eq!(summary.len(), 2);
    assert_eq!((summary[0].minimal, summary[0].below_par), (1, 1));
    assert_eq!(summary[1].name, "total");
}

#[test]
fn a_budget_stop_is_not_a_minimum() {
    // Four moves at least (by hand: each B needs two pushes to meet the other), so a budget
    // of one state cannot prove anything.
    let dir = pack_dir(
        "4 8 FAR\n#B----B#\n##----##\n##----##\n########\n0 0 END\n",
        None,
    );
    let packs = discover(dir.path(), &[]).unwrap();
    let budget = Budget {
        max_states: Some(1),
        time_limit: None,
        memory: None,
        threads: 1,
        max_moves: None,
        stop: None,
        scratch: None,
    };
    let settings = settings(budget, 2);
    let levels = run(&packs, &settings, &AtomicBool::new(false), &|_| {}).unwrap();
    assert_eq!(levels[0].status, LevelStatus::Budget);
    assert_eq!(levels[0].moves, None);
    assert_eq!(levels[0].versus_par, "");
    // What the search proved before it stopped: at least one move, and never more than
    // the four of the hand-derived minimum.
    let least = levels[0]
        .at_least
        .expect("a stopped search says what it proved");
    assert!((1..=4).contains(&least), "K >= {least}");
    assert_eq!(levels[0].result(), format!("budget, K >= {least}"));
}

/// A run stopped before it starts solves nothing and says so by an empty list.
#[test]
fn a_stopped_run_starts_no_level() {
    let dir = pack_dir(&format!("{ONE}0 0 END\n"), Some("ONE 1\n"));
    let packs = discover(dir.path(), &[]).unwrap();
    let settings = settings(Budget::UNLIMITED, 1);
    let called = std::sync::atomic::AtomicUsize::new(0);
    let count = |_: &Level| {
        called.fetch_add(1, Ordering::Relaxed);
    };
    assert_eq!(
        run(&packs, &settings, &AtomicBool::new(false), &count)
            .unwrap()
            .len(),
        1
    );
    assert!(
        run(&packs, &settings, &AtomicBool::new(true), &count)
            .unwrap()
            .is_empty()
    );
    assert_eq!(called.load(Ordering::Relaxed), 1);
}

#[test]
fn bad_pars_and_unknown_packs_are_errors_that_say_where() {
    let dir = pack_dir(&format!("{ONE}0 0 END\n"), Some("ONE two\n"));
    let error = discover(dir.path(), &[]).err().unwrap().to_string();
    assert!(error.contains("tiny.par: line 1"), "{error}");
    let dir = pack_dir(&format!("{ONE}0 0 END\n"), None);
    let error = discover(dir.path(), &["nope".to_string()])
        .err()
        .unwrap()
        .to_string();
    assert!(error.contains("no pack named \"nope\""), "{error}");
    let empty = tempfile::tempdir().unwrap();
    assert!(matches!(
        discover(empty.path(), &[]),
        Err(LevelsError::NoPack { .. })
    ));
}

/// Four moves exactly, by hand: each B falls one row when pushed off its wall, and the two
/// then stand five cells apart on the floor; each push closes the gap by one, and they clear
/// when they touch (a gap of one).
const FAR: &str = "4 8 FAR\n#B----B#\n##----##\n##----##\n########\n";

#[test]
fn proving_below_par_finds_a_shorter_solution_or_proves_there_is_none() {
    for (par, status, moves, at_least) in [
        // Par is the minimum: no solution of 3 moves, proven.
        (4, LevelStatus::AboveMax, None, Some(4)),
        // Par is above the minimum: the minimum is found, below par.
        (5, LevelStatus::Minimal, Some(4), None),
        (9, LevelStatus::Minimal, Some(4), None),
        // A par far below the minimum: still a proof, of every length up to par - 1.
        (2, LevelStatus::AboveMax, None, Some(2)),
    ] {
        let dir = pack_dir(&format!("{FAR}0 0 END\n"), Some(&format!("FAR {par}\n")));
        let packs = discover(dir.path(), &[]).unwrap();
        let mut settings = settings(Budget::UNLIMITED, 1);
        settings.prove_below_par = true;
        let levels = run(&packs, &settings, &AtomicBool::new(false), &|_| {}).unwrap();
        let level = &levels[0];
        assert_eq!(level.status, status, "par {par}: {level:?}");
        assert_eq!(level.moves, moves, "par {par}");
        if let Some(least) = at_least {
            // At least par moves; the bound may prove more than asked for (a start whose
            // bound is above the cap).
            let got = level.at_least.expect("a proof says its bound");
            assert!(got >= least && got <= 4, "par {par}: at least {got}");
        }
        let summary = summarize(&levels);
        let above = usize::from(status == LevelStatus::AboveMax);
        assert_eq!(summary[0].above_max, above, "par {par}");
        assert_eq!(summary[0].budget, 0, "par {par}");
    }
}
