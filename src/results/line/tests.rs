//! The fast writer against the `csv` crate, byte for byte, over every status, timing and
//! verdict, empty and full optional fields and text that needs quoting.

use super::*;
use crate::results::{Row, write_csv};

/// Rows covering every status, timing and verdict, empty and full optional fields, and
/// text that needs quoting (a column added later is written with its default until this
/// test covers it).
#[allow(clippy::needless_update)]
fn rows() -> Vec<Row> {
    let verdicts = [
        None,
        Some(RowVerdict::PresentationError),
        Some(RowVerdict::WrongAnswer),
        Some(RowVerdict::CheckerFailure),
        Some(RowVerdict::Cpu),
        Some(RowVerdict::Wall),
    ];
    let timings = [Timing::Case, Timing::CaseRepeated, Timing::File];
    let texts = [
        "",
        "plain",
        "a,b",
        "say \"hi\"",
        "two\nlines",
        "cr\rhere",
        " spaced ",
        "ünïcode",
    ];
    Status::ALL
        .iter()
        .enumerate()
        .map(|(k, &status)| {
            let some = k % 2 == 0;
            let text = texts[k % texts.len()];
            Row {
                game: "samegame".into(),
                engine: format!("cmd:./a.out {text}"),
                file: format!("dir/{text}.in"),
                case: k * 1_000_003,
                run: k as u32 + 1,
                label: text.into(),
                size: texts[(k + 3) % texts.len()].into(),
                cells: some.then_some(k as u64),
                status,
                time_ns: some.then_some(u64::MAX - k as u64),
                timing: timings[k % timings.len()],
                repeats: (!some).then_some(u32::MAX),
                user_ns: some.then_some(0),
                sys_ns: (!some).then_some(10),
                memory_kb: some.then_some(12_345),
                work: (!some).then_some(7),
                work_unit: "turns".into(),
                score: some.then_some(99),
                digest: "0123456789abcdef".into(),
                message: texts[(k + 5) % texts.len()].into(),
                verdict: verdicts[k % verdicts.len()],
                ..Row::default()
            }
        })
        .collect()
}

#[test]
fn rows_are_written_byte_for_byte_as_the_csv_crate_writes_them() {
    let rows = rows();
    let mut expected = Vec::new();
    write_csv(&mut expected, &rows).unwrap();
    let mut mine = Vec::new();
    header(&mut mine);
    for row in &rows {
        row.line().write(&mut mine);
    }
    assert_eq!(
        String::from_utf8(mine).unwrap(),
        String::from_utf8(expected).unwrap()
    );
}

#[test]
fn status_timing_and_verdict_names_need_no_quoting() {
    let verdicts = [
        RowVerdict::PresentationError,
        RowVerdict::WrongAnswer,
        RowVerdict::CheckerFailure,
        RowVerdict::Cpu,
        RowVerdict::Wall,
    ];
    let names = Status::ALL
        .iter()
        .map(|s| s.as_str())
        .chain([Timing::Case, Timing::CaseRepeated, Timing::File].map(|t| t.as_str()))
        .chain(verdicts.map(|v| v.as_str()));
    for name in names {
        let mut quoted = Vec::new();
        name.write(&mut quoted);
        assert_eq!(quoted, name.as_bytes(), "{name}");
    }
}

#[test]
fn numbers_are_written_as_their_decimal_digits() {
    let mut values = vec![0, u64::MAX, u64::MAX - 1];
    let mut power = 1u64;
    while let Some(next) = power.checked_mul(10) {
        values.extend([power - 1, power, power + 1, next - 1]);
        power = next;
    }
    values.extend((0..1000).map(|k| k * 7919 % 100_003));
    for v in values {
        let mut out = Vec::new();
        number(&mut out, v);
        assert_eq!(String::from_utf8(out).unwrap(), v.to_string());
    }
}

#[test]
fn a_digest_kept_as_a_number_is_written_as_its_hex_digits() {
    let row = rows().swap_remove(0);
    let value = 0x00ab_cdef_0123_4567;
    let mut from_row = Vec::new();
    Row {
        digest: crate::util::digest::hex(value),
        ..row.clone()
    }
    .line()
    .write(&mut from_row);
    let mut hashed = Vec::new();
    crate::results::Line {
        digest: Digest::Hash(value),
        ..row.line()
    }
    .write(&mut hashed);
    let hashed = String::from_utf8(hashed).unwrap();
    assert!(hashed.contains(",00abcdef01234567,"), "{hashed}");
    assert_eq!(hashed, String::from_utf8(from_row).unwrap());
}
