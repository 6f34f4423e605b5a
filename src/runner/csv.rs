//! The results CSV as the runner writes it: the header and one line per row, formatted straight
//! into a buffer, byte for byte what the `csv` crate writes for a [`Row`] (a test compares
//! them). A line is written from borrowed fields ([`Line`]), so the workers format a chunk's
//! lines from what its slots got without building a `Row` of owned strings per case.

use crate::results::{Row, Timing};
use crate::status::{RowVerdict, Status};

/// An output's digest as a line writes it.
#[derive(Clone, Copy)]
pub(crate) enum Digest<'a> {
    /// Already hex digits (or empty), as a [`Row`] holds it.
    Text(&'a str),
    /// A number, written as its 16 hex digits ([`crate::digest::write_hex`]).
    Hash(u64),
    /// No output: an empty field.
    None,
}

/// The fields of one CSV line, borrowed; in the column order of [`crate::results::COLUMNS`].
#[derive(Clone, Copy)]
pub(crate) struct Line<'a> {
    pub game: &'a str,
    pub engine: &'a str,
    pub file: &'a str,
    pub case: usize,
    pub run: u32,
    pub label: &'a str,
    pub size: &'a str,
    pub cells: Option<u64>,
    pub status: Status,
    pub time_ns: Option<u64>,
    pub timing: Timing,
    pub repeats: Option<u32>,
    pub user_ns: Option<u64>,
    pub sys_ns: Option<u64>,
    pub memory_kb: Option<u64>,
    pub work: Option<u64>,
    pub work_unit: &'a str,
    pub score: Option<u64>,
    pub digest: Digest<'a>,
    pub message: &'a str,
    pub verdict: Option<RowVerdict>,
}

impl<'a> Line<'a> {
    /// A row's line.
    pub fn of(row: &'a Row) -> Line<'a> {
        Line {
            game: &row.game,
            engine: &row.engine,
            file: &row.file,
            case: row.case,
            run: row.run,
            label: &row.label,
            size: &row.size,
            cells: row.cells,
            status: row.status,
            time_ns: row.time_ns,
            timing: row.timing,
            repeats: row.repeats,
            user_ns: row.user_ns,
            sys_ns: row.sys_ns,
            memory_kb: row.memory_kb,
            work: row.work,
            work_unit: &row.work_unit,
            score: row.score,
            digest: Digest::Text(&row.digest),
            message: &row.message,
            verdict: row.verdict,
        }
    }
}

/// The CSV's header line: the column names (none needs quoting).
pub(crate) fn header(out: &mut Vec<u8>) {
    out.extend_from_slice(crate::results::COLUMNS.join(",").as_bytes());
    out.push(b'\n');
}

/// Appends `row` as one CSV line (see [`write_line`]).
pub(crate) fn csv_line(row: &Row, out: &mut Vec<u8>) {
    write_line(&Line::of(row), out);
}

/// Appends one CSV line, byte for byte what the `csv` crate writes for the same row (fields
/// quoted only when they hold a comma, a quote or a line break; quotes doubled), with no
/// per-field allocation.
pub(crate) fn write_line(line: &Line<'_>, out: &mut Vec<u8>) {
    write_names(line.game, line.engine, line.file, out);
    write_fields(line, out);
}

/// Appends the first three fields of a line (game, engine, file) and their commas: the same
/// for every line of a file and engine, so a caller may write them once and copy the bytes.
pub(crate) fn write_names(game: &str, engine: &str, file: &str, out: &mut Vec<u8>) {
    for name in [game, engine, file] {
        text(out, name);
        out.push(b',');
    }
}

/// Appends the fields of a line after its names ([`write_names`]), and the line break.
pub(crate) fn write_fields(line: &Line<'_>, out: &mut Vec<u8>) {
    let comma = |out: &mut Vec<u8>| out.push(b',');
    number(out, line.case as u64);
    comma(out);
    number(out, u64::from(line.run));
    comma(out);
    text(out, line.label);
    comma(out);
    text(out, line.size);
    comma(out);
    maybe(out, line.cells);
    comma(out);
    text(out, line.status.as_str());
    comma(out);
    maybe(out, line.time_ns);
    comma(out);
    text(out, line.timing.as_str());
    comma(out);
    maybe(out, line.repeats.map(u64::from));
    comma(out);
    maybe(out, line.user_ns);
    comma(out);
    maybe(out, line.sys_ns);
    comma(out);
    maybe(out, line.memory_kb);
    comma(out);
    maybe(out, line.work);
    comma(out);
    text(out, line.work_unit);
    comma(out);
    maybe(out, line.score);
    comma(out);
    match line.digest {
        Digest::Text(digest) => text(out, digest),
        Digest::Hash(value) => crate::digest::write_hex(value, out),
        Digest::None => {}
    }
    comma(out);
    text(out, line.message);
    comma(out);
    if let Some(verdict) = line.verdict {
        text(out, verdict.as_str());
    }
    out.push(b'\n');
}

/// A text field, quoted when it holds a comma, a quote or a line break.
fn text(out: &mut Vec<u8>, s: &str) {
    if s.bytes().any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r')) {
        out.push(b'"');
        for b in s.bytes() {
            if b == b'"' {
                out.push(b'"');
            }
            out.push(b);
        }
        out.push(b'"');
    } else {
        out.extend_from_slice(s.as_bytes());
    }
}

/// A number's decimal digits.
fn number(out: &mut Vec<u8>, v: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut v = v;
    loop {
        at -= 1;
        digits[at] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    // A few bytes pushed one by one cost less than a call to copy them.
    for &d in &digits[at..] {
        out.push(d);
    }
}

/// A number, or an empty field.
fn maybe(out: &mut Vec<u8>, v: Option<u64>) {
    if let Some(v) = v {
        number(out, v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{Timing, write_csv};
    use crate::status::Status;

    /// Rows covering every status, timing and verdict, empty and full optional fields, and
    /// text that needs quoting.
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
            csv_line(row, &mut mine);
        }
        assert_eq!(
            String::from_utf8(mine).unwrap(),
            String::from_utf8(expected).unwrap()
        );
    }

    #[test]
    fn a_digest_kept_as_a_number_is_written_as_its_hex_digits() {
        let row = rows().swap_remove(0);
        let value = 0x00ab_cdef_0123_4567;
        let mut from_row = Vec::new();
        csv_line(
            &Row {
                digest: crate::digest::hex(value),
                ..row.clone()
            },
            &mut from_row,
        );
        let mut hashed = Vec::new();
        write_line(
            &Line {
                digest: Digest::Hash(value),
                ..Line::of(&row)
            },
            &mut hashed,
        );
        let hashed = String::from_utf8(hashed).unwrap();
        assert!(hashed.contains(",00abcdef01234567,"), "{hashed}");
        assert_eq!(hashed, String::from_utf8(from_row).unwrap());
    }
}
