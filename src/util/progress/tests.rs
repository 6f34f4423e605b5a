use super::*;

#[test]
fn the_plain_line_counts_files_and_cases() {
    let progress = Progress::new(ProgressMode::None, "run", 4, Some("cases x engines"));
    progress.file_done(30);
    progress.file_done(30);
    let line = progress.line();
    assert!(line.starts_with("gamebench run: 2/4 files (50%)"), "{line}");
    assert!(line.contains("60 cases x engines done"), "{line}");
    assert!(line.contains("eta"), "{line}");
}

#[test]
fn the_total_is_at_least_what_is_known_until_counted() {
    let progress = Progress::new(ProgressMode::None, "run", 4, Some("cases x engines"));
    assert_eq!(progress.units_total(), (0, false));
    progress.planned.add(true, 30);
    assert_eq!(
        progress.units_total(),
        (30, false),
        "no guess from one file"
    );
    progress.counted.add(100);
    assert_eq!(progress.units_total(), (100, false));
    progress.counted.add(20);
    progress.counted.finish();
    assert_eq!(progress.units_total(), (120, true));
    progress.finished.add("yut", "table", amount(500, 500), 0);
    assert_eq!(
        progress.units_total(),
        (500, true),
        "never below what finished"
    );
    // Every file opened: what the workers listed is the whole.
    let progress = Progress::new(ProgressMode::None, "run", 2, Some("cases x engines"));
    progress.planned.add(true, 7);
    progress.planned.add(true, 5);
    assert_eq!(progress.units_total(), (12, true));
}

#[test]
fn the_message_says_at_least_until_the_count_is_complete() {
    let progress = Progress::new(ProgressMode::None, "run", 3, Some("cases x engines"));
    progress.counted.add(1_080);
    let message = progress.bar_message("cases x engines");
    assert!(
        message.starts_with("0 of at least 1,080 (0%), 0/s"),
        "{message}"
    );
    progress.counted.add(572);
    progress.counted.finish();
    let message = progress.bar_message("cases x engines");
    assert!(message.starts_with("0/1,652 (0%)"), "{message}");
    assert!(message.ends_with("cases x engines, 0/3 files"), "{message}");
}

fn amount(units: usize, weight: u64) -> Amount {
    Amount { units, weight }
}

/// The corpus of the measurement in docs/run.md, as its first seconds see it: Link and
/// Pop's slow reference engine first (two tiny cases of 25 cells and 60 of 900), Vexed
/// not reached yet.
fn corpus_counted() -> Progress {
    let progress =
        Progress::new(ProgressMode::None, "run", 122, Some("cases x engines")).with_threads(2);
    for (game, engines, counted) in [
        (
            "linkpop",
            ["reference", "bitboard"],
            amount(62, 2 * 25 + 60 * 900),
        ),
        ("vexed", ["reference", "bitset"], amount(332, 332 * 64)),
    ] {
        for engine in engines {
            progress.counted.add(counted.units);
            progress.counted.add_class(game, engine, counted);
        }
    }
    progress.counted.finish();
    progress
}

#[test]
fn each_class_weighs_its_cases_by_their_cells_at_its_own_measured_time() {
    let progress = corpus_counted();
    // The fast engine's results, the slow one's two tiny cases (no time to speak of) and
    // one large one of 5 s: 59 x 900 cells left at 5 s / 950 cells on 2 threads, and a
    // game not measured at all (so a lower bound).
    progress.finished.add(
        "linkpop",
        "bitboard",
        amount(62, 2 * 25 + 60 * 900),
        360_000_000,
    );
    progress
        .finished
        .add("linkpop", "reference", amount(2, 50), 0);
    progress
        .finished
        .add("linkpop", "reference", amount(1, 900), 5_000_000_000);
    let left = progress.estimate().expect("counted");
    let slow = 59.0 * 900.0 * 5.0 / 950.0 / 2.0;
    assert!((left.seconds - slow).abs() < 1e-9, "{left:?}");
    assert!(left.lower_bound && !left.blind, "{left:?}");
    // Every class measured: plus 331 cases of 64 cells at 0.1 s and at 1 ms, on 2 threads.
    progress
        .finished
        .add("vexed", "reference", amount(1, 64), 100_000_000);
    progress
        .finished
        .add("vexed", "bitset", amount(1, 64), 1_000_000);
    let left = progress.estimate().expect("counted");
    assert!(!left.lower_bound && !left.blind, "{left:?}");
    let expected = slow + (331.0 * 0.1 + 331.0 * 0.001) / 2.0;
    assert!((left.seconds - expected).abs() < 1e-9, "{left:?}");
}

#[test]
fn no_time_left_is_shown_while_a_running_class_is_silent_beyond_its_measurements() {
    let progress = corpus_counted();
    // The fast engine's results and the slow one's tiny cases are in; its large cases
    // run on both threads: the rate of results so far would promise the end in seconds.
    progress.finished.start("linkpop", "bitboard");
    progress.finished.add(
        "linkpop",
        "bitboard",
        amount(62, 2 * 25 + 60 * 900),
        360_000_000,
    );
    progress.finished.end("linkpop", "bitboard");
    progress.finished.start("linkpop", "reference");
    progress.finished.start("linkpop", "reference");
    progress
        .finished
        .add("linkpop", "reference", amount(2, 50), 2_000);
    std::thread::sleep(MIN_RATE_TIME + Duration::from_millis(100));
    assert!(progress.estimate().expect("counted").blind);
    let message = progress.bar_message("cases x engines");
    assert!(!message.contains("eta"), "{message}");
    // A large case finished: 59 x 900 cells left at 5 s / 950 cells on 2 threads.
    progress
        .finished
        .add("linkpop", "reference", amount(1, 900), 5_000_000_000);
    let message = progress.bar_message("cases x engines");
    assert!(message.contains("eta ≥ 2 min 20 s"), "{message}");
    // Once shown it stays, through a later class's silence.
    progress.finished.start("vexed", "reference");
    std::thread::sleep(MIN_RATE_TIME + Duration::from_millis(100));
    assert!(progress.estimate().expect("counted").blind);
    let message = progress.bar_message("cases x engines");
    assert!(message.contains("eta ≥ 2 min 20 s"), "{message}");
}

#[test]
fn counts_and_times_are_short() {
    assert_eq!(thousands(0), "0");
    assert_eq!(thousands(999), "999");
    assert_eq!(thousands(1_652), "1,652");
    assert_eq!(thousands(1_234_567), "1,234,567");
    assert_eq!(short_duration(Duration::from_millis(41_200)), "42 s");
    assert_eq!(short_duration(Duration::from_secs(185)), "3 min 5 s");
    assert_eq!(short_duration(Duration::from_secs(7_800)), "2 h 10 min");
}

#[test]
fn a_command_without_units_counts_files_only() {
    let progress = Progress::new(ProgressMode::None, "gen", 10, None);
    progress.file_done(1);
    let line = progress.line();
    assert!(
        line.starts_with("gamebench gen: 1/10 files (10%), "),
        "{line}"
    );
    assert!(!line.contains("cases"), "{line}");
}

#[test]
fn workers_on_several_threads_are_all_counted() {
    let progress = Progress::new(ProgressMode::None, "gen", 400, None);
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| (0..100).for_each(|_| progress.file_done(1)));
        }
    });
    assert!(progress.line().contains("400/400 files (100%)"));
}
