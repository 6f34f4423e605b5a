//! The tally's figures against those of whole lists of records.

use super::*;
use crate::results::schema::test_row;

fn row(engine: &str, file: &str, case: usize, status: Status, t: Option<u64>) -> Row {
    Row {
        file: file.into(),
        label: format!("{file}#{case}"),
        ..test_row(engine, case, status, t)
    }
}

/// Two engines on three files of four cases, one untimed and one mismatched case.
fn rows_of(file: &str, base: u64) -> Vec<Row> {
    let mut rows = Vec::new();
    for case in 1..=4 {
        let t = base + case as u64 * 10;
        let status = if case == 3 {
            Status::Mismatch
        } else {
            Status::Ok
        };
        rows.push(row("reference", file, case, Status::Ok, Some(4 * t)));
        rows.push(row("fast", file, case, status, (case != 2).then_some(t)));
    }
    rows
}

#[test]
fn folding_in_any_file_order_or_chunking_gives_the_whole_list_s_figures() {
    let files = [("a.in", 100), ("b/c.in", 7), ("b.in", 1000)];
    let all: Vec<Row> = files.iter().flat_map(|&(f, b)| rows_of(f, b)).collect();
    let whole = Tally::of(&Record::from_rows(&all), 3);
    // Reversed file order, and one file in two chunks.
    let mut parts = Tally::new(3, false);
    for &(f, b) in files.iter().rev() {
        let rows = rows_of(f, b);
        parts.add_rows(&rows[..4]);
        parts.add_rows(&rows[4..]);
    }
    assert_eq!(whole.summary("reference"), parts.summary("reference"));
    assert_eq!(whole.slowest(), parts.slowest());
    assert_eq!((parts.results(), parts.cases()), (24, 12));
    let fast = &parts.summary("reference")[1];
    // Comparable and timed on both sides: cases 1 and 4 of each file (2 untimed, 3 wrong).
    assert_eq!((fast.compared_cases, fast.timed, fast.mismatch), (6, 9, 3));
    assert_eq!(fast.relative, Some(4.0));
    // Slowest of fast: b.in cases 4, 3, 1 (1040, 1030, 1010 ns).
    let slow = &parts.slowest()[1].2;
    let got: Vec<(&str, usize, u64)> = slow
        .iter()
        .map(|c| (c.file.as_str(), c.case, c.time_ns))
        .collect();
    assert_eq!(
        got,
        [("b.in", 4, 1040), ("b.in", 3, 1030), ("b.in", 1, 1010)]
    );
    assert_eq!(slow[0].label, "b.in#4");
}

#[test]
fn the_cost_of_repetition_is_every_timed_batch() {
    // Two runs of 50 ns a call in batches of 200 calls, and a case timed alone: 2 x 200 x
    // 50 ns = 20 µs.
    let repeated = |run| Row {
        timing: Timing::CaseRepeated,
        repeats: Some(200),
        run,
        ..row("e", "f.in", 1, Status::Ok, Some(50))
    };
    let mut tally = Tally::new(0, false);
    tally.add_rows(&[repeated(1), repeated(2)]);
    tally.add_rows(&[row("e", "f.in", 2, Status::Ok, Some(5_000))]);
    assert_eq!(tally.repetition_ns(), 20_000);
}

#[test]
fn slowest_keeps_ties_in_file_then_case_order_past_its_compaction() {
    // 40 cases of 5 ns and one of 9 ns: top 3 is the 9 ns case, then cases 1 and 2.
    let mut tally = Tally::new(3, false);
    for case in 1..=41 {
        let t = if case == 30 { 9 } else { 5 };
        tally.add_rows(&[row("e", "f.in", case, Status::Ok, Some(t))]);
    }
    let cases: Vec<(usize, u64)> = tally.slowest()[0]
        .2
        .iter()
        .map(|c| (c.case, c.time_ns))
        .collect();
    assert_eq!(cases, [(30, 9), (1, 5), (2, 5)]);
}

#[test]
fn a_file_timed_file_s_time_is_shared_over_its_cases() {
    // A program timed on a whole file of 4 cases in 400 ns, user 80 ns: 100 ns and 20 ns
    // a case, 400 ns and 80 ns in all.
    let rows: Vec<Row> = (1..=4)
        .map(|case| Row {
            timing: Timing::File,
            user_ns: Some(80),
            ..row("prog", "f.in", case, Status::Ok, Some(400))
        })
        .collect();
    let mut tally = Tally::new(1, false);
    tally.add_rows(&rows);
    let s = &tally.summary("reference")[0];
    assert_eq!((s.total_ns, s.max_ns, s.user_ns), (400, 100, Some(80)));
    assert_eq!(tally.repetition_ns(), 0);
    assert_eq!(s.timing, Timing::File);
    assert_eq!(tally.slowest()[0].2[0].time_ns, 100);
}
