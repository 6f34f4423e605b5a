//! The summary as a user reads it, built from hand-made records whose figures are derived by
//! hand here: headlines, three significant digits, `n/a` for spreads that were not measured
//! (a program timed per file), the cases a total leaves out, singular and plural, and a table
//! that fits 100 columns.

use gamebench::results::{
    Record, Row, Status, Timing, detail_lines, headlines, summarize, summary_table, verdict_lines,
};

const MS: u64 = 1_000_000;

fn row(engine: &str, case: usize, run: u32, status: Status, time: Option<u64>) -> Row {
    Row {
        game: "toy".into(),
        engine: engine.into(),
        file: "f.in".into(),
        case,
        run,
        status,
        time_ns: time,
        ..Row::default()
    }
}

/// `reference`: 1, 2, 3 ms. `fast`: a tenth of each. `prog`: a program timed per file, 9 ms for
/// the file of 3 cases (3 ms each). `slowpoke`: 4 and 6 ms, and a timeout on case 3.
fn rows() -> Vec<Row> {
    let mut rows = Vec::new();
    for case in 1..=3 {
        let t = case as u64 * MS;
        rows.push(row("reference", case, 1, Status::Ok, Some(t)));
        rows.push(row("fast", case, 1, Status::Ok, Some(t / 10)));
        rows.push(Row {
            timing: Timing::File,
            ..row("prog", case, 1, Status::Ok, Some(9 * MS))
        });
        let slow = match case {
            1 => row("slowpoke", 1, 1, Status::Ok, Some(4 * MS)),
            2 => row("slowpoke", 2, 1, Status::Ok, Some(6 * MS)),
            _ => row("slowpoke", 3, 1, Status::Timeout, None),
        };
        rows.push(slow);
    }
    rows
}

fn text(rows: &[Row]) -> String {
    let summary = summarize(&Record::from_rows(rows), "reference");
    let mut text = headlines(&summary);
    text.push_str(&summary_table(&summary));
    text.push_str(&detail_lines(&summary));
    text.push_str(&verdict_lines(&summary, false));
    text
}

#[test]
fn one_headline_per_engine_with_its_median_and_total_and_what_it_leaves_out() {
    let text = text(&rows());
    for line in [
        "toy/reference: 2.00 ms per case (median), 6.00 ms in total over 3 cases\n",
        "toy/fast: 200 µs per case (median), 600 µs in total over 3 cases\n",
        "toy/prog: 3.00 ms per case (median), 9.00 ms in total over 3 cases\n",
        "toy/slowpoke: 5.00 ms per case (median), 10.0 ms in total over 2 cases (left out: 1 timeout)\n",
    ] {
        assert!(text.contains(line), "no {line:?} in\n{text}");
    }
}

#[test]
fn ratios_have_three_significant_digits_and_unmeasured_spreads_are_na() {
    let text = text(&rows());
    // fast: 6 ms / 0.6 ms, and every per-case ratio is 10 (no spread).
    assert!(
        text.contains("10.0 ± 0 times faster than reference"),
        "{text}"
    );
    assert!(
        text.contains("toy/fast: per-case ratio to reference (the spread; the speed is the ratio of totals): median 10.0x (p10 10.0x, p90 10.0x) over 3 of 3 cases"),
        "{text}"
    );
    // prog: 6 ms / 9 ms = 1 / 1.5; its per-case times are the file's spread evenly.
    assert!(
        text.contains("1.50 ± n/a times slower than reference"),
        "{text}"
    );
    assert!(text.contains("3.00 ± n/a ms"), "{text}");
    assert!(
        text.contains("toy/prog: per-case ratio to reference: n/a"),
        "{text}"
    );
    assert!(!text.contains("toy/prog: per-case ratio to reference (the spread"));
    // slowpoke: cases 1 and 2 only: (1 + 2) / (4 + 6) = 0.3, i.e. 3.33 times slower.
    assert!(text.contains("3.33 ± "), "{text}");
    assert!(
        text.contains("times slower than reference (over 2 of 3 cases)"),
        "{text}"
    );
    assert!(
        !text.contains("0.00"),
        "a zero spread printed as measured digits:\n{text}"
    );
}

#[test]
fn the_table_fits_100_columns_and_counts_read_right() {
    let text = text(&rows());
    for line in text.lines().filter(|l| !l.starts_with("toy/")) {
        assert!(
            line.chars().count() <= 100,
            "{} columns: {line}",
            line.chars().count()
        );
    }
    assert!(text.contains("verdict: toy: outputs compared with reference's outputs (no --check): 11 of 12 results ok"), "{text}");
    // One case, one result: singular.
    let one = text_of_one();
    assert!(one.contains("over 1 case\n"), "{one}");
    assert!(one.contains("1 of 1 result is unchecked"), "{one}");
}

fn text_of_one() -> String {
    text(&[row("bitboard", 1, 1, Status::Unchecked, Some(5 * MS))])
}

#[test]
fn a_wide_table_wraps_by_engine_not_mid_line() {
    // Every status column shown, and a long engine name: too wide for one line per engine.
    let statuses = [
        Status::Ok,
        Status::Mismatch,
        Status::Error,
        Status::Unsolved,
        Status::Budget,
        Status::Timeout,
        Status::MemoryLimit,
        Status::OutputLimit,
        Status::RuntimeError,
    ];
    let mut rows = Vec::new();
    for (i, &status) in statuses.iter().enumerate() {
        let time = matches!(status, Status::Ok | Status::Mismatch).then_some(MS);
        rows.push(row("reference", i + 1, 1, Status::Ok, Some(2 * MS)));
        rows.push(row("a-rather-long-engine-name", i + 1, 1, status, time));
    }
    let summary = summarize(&Record::from_rows(&rows), "reference");
    let table = summary_table(&summary);
    for line in table.lines() {
        assert!(
            line.chars().count() <= 100,
            "{} columns: {line}",
            line.chars().count()
        );
    }
    assert!(
        table.contains("toy/a-rather-long-engine-name: 9 cases\n  statuses: 1 ok, 1 mismatch, 1 error, 1 unsolved, 1 budget, 1 timeout, 1 memory-limit,\n            1 output-limit, 1 runtime-error\n  time per case: total 2.00 ms, mean ± σ 1.00 ± 0.00 ms, min 1.00 ms, median 1.00 ms, max 1.00 ms\n  speed: 2.00 ± 0 times faster than reference (over 1 of 9 cases)\n"),
        "{table}"
    );
}

#[test]
fn per_run_totals_only_with_several_runs_and_labelled_apart_from_the_total() {
    let one_run = text(&rows());
    assert!(!one_run.contains("time of one run"), "{one_run}");
    // Two runs of two cases: run 1 totals 1 + 3 = 4 ms, run 2 totals 3 + 5 = 8 ms: 6 ± 2.83 ms.
    let rows = vec![
        row("reference", 1, 1, Status::Ok, Some(MS)),
        row("reference", 1, 2, Status::Ok, Some(3 * MS)),
        row("reference", 2, 1, Status::Ok, Some(3 * MS)),
        row("reference", 2, 2, Status::Ok, Some(5 * MS)),
    ];
    let text = text(&rows);
    assert!(
        text.contains("toy/reference: time of one run over all cases, over the 2 runs: 6.00 ms ± 2.83 ms (the table's total sums each case's median run)"),
        "{text}"
    );
}
