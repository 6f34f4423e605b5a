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
    /// A number, written as its 16 hex digits ([`crate::util::digest::hex_digits`]).
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

/// Appends the fields of a line after its names ([`write_names`]), and the line break. The
/// line is written into `out`'s spare capacity, reserved first for the line at its longest
/// ([`longest`]): no capacity check or length update per byte.
pub(crate) fn write_fields(line: &Line<'_>, out: &mut Vec<u8>) {
    out.reserve(longest(line));
    let mut spare = Spare {
        bytes: out.spare_capacity_mut(),
        at: 0,
    };
    fields(line, &mut spare);
    let written = spare.at;
    // SAFETY: `Spare` writes its bytes in order from the start of the spare capacity and
    // `at` counts them, so the first `written` bytes past the length are initialised (it
    // panics on an index past the capacity instead of writing there).
    unsafe { out.set_len(out.len() + written) };
}

/// Most bytes of a number field (`u64::MAX` has 20 digits).
const NUMBER_BYTES: usize = 20;

/// Most bytes the fields of `line` can take: each number at its widest, each text field
/// quoted with every byte doubled, the commas and the line break.
fn longest(line: &Line<'_>) -> usize {
    /// Number fields of a line (case, run, cells, time_ns, repeats, user_ns, sys_ns,
    /// memory_kb, work, score) and the digest's 16 hex digits, counted as numbers.
    const NUMBERS: usize = 11;
    /// Commas after the names, and the line break.
    const SEPARATORS: usize = 18;
    let quoted = |s: &str| 2 * s.len() + 2;
    NUMBERS * NUMBER_BYTES
        + SEPARATORS
        + quoted(line.label)
        + quoted(line.size)
        + quoted(line.status.as_str())
        + quoted(line.timing.as_str())
        + quoted(line.work_unit)
        + quoted(line.message)
        + line.verdict.map_or(0, |v| quoted(v.as_str()))
        + match line.digest {
            Digest::Text(digest) => quoted(digest),
            _ => 0,
        }
}

/// Where a line's bytes go: a vector (the names), or its spare capacity (the fields).
trait Out {
    fn byte(&mut self, b: u8);
    fn bytes(&mut self, s: &[u8]);
}

impl Out for Vec<u8> {
    #[inline]
    fn byte(&mut self, b: u8) {
        self.push(b);
    }

    #[inline]
    fn bytes(&mut self, s: &[u8]) {
        self.extend_from_slice(s);
    }
}

/// A vector's spare capacity written from its start, `at` bytes so far.
struct Spare<'a> {
    bytes: &'a mut [std::mem::MaybeUninit<u8>],
    at: usize,
}

impl Out for Spare<'_> {
    #[inline]
    fn byte(&mut self, b: u8) {
        self.bytes[self.at].write(b);
        self.at += 1;
    }

    #[inline]
    fn bytes(&mut self, s: &[u8]) {
        // Fields are short: a loop costs less than a call to copy them.
        for (to, &b) in self.bytes[self.at..self.at + s.len()].iter_mut().zip(s) {
            to.write(b);
        }
        self.at += s.len();
    }
}

/// The fields after the names, and the line break.
fn fields(line: &Line<'_>, out: &mut impl Out) {
    number(out, line.case as u64);
    out.byte(b',');
    number(out, u64::from(line.run));
    out.byte(b',');
    text(out, line.label);
    out.byte(b',');
    text(out, line.size);
    out.byte(b',');
    maybe(out, line.cells);
    out.byte(b',');
    word(out, line.status.as_str());
    out.byte(b',');
    maybe(out, line.time_ns);
    out.byte(b',');
    word(out, line.timing.as_str());
    out.byte(b',');
    maybe(out, line.repeats.map(u64::from));
    out.byte(b',');
    maybe(out, line.user_ns);
    out.byte(b',');
    maybe(out, line.sys_ns);
    out.byte(b',');
    maybe(out, line.memory_kb);
    out.byte(b',');
    maybe(out, line.work);
    out.byte(b',');
    text(out, line.work_unit);
    out.byte(b',');
    maybe(out, line.score);
    out.byte(b',');
    match line.digest {
        Digest::Text(digest) => text(out, digest),
        Digest::Hash(value) => out.bytes(&crate::util::digest::hex_digits(value)),
        Digest::None => {}
    }
    out.byte(b',');
    text(out, line.message);
    out.byte(b',');
    if let Some(verdict) = line.verdict {
        word(out, verdict.as_str());
    }
    out.byte(b'\n');
}

/// A status, timing or verdict name: a word of the tool's own, never quoted (a test checks
/// that none needs it).
#[inline(always)]
fn word(out: &mut impl Out, s: &str) {
    out.bytes(s.as_bytes());
}

/// A text field, quoted when it holds a comma, a quote or a line break.
#[inline(always)]
fn text(out: &mut impl Out, s: &str) {
    if s.bytes().any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r')) {
        out.byte(b'"');
        for b in s.bytes() {
            if b == b'"' {
                out.byte(b'"');
            }
            out.byte(b);
        }
        out.byte(b'"');
    } else {
        out.bytes(s.as_bytes());
    }
}

/// A number's decimal digits, two at a time.
#[inline(always)]
fn number(out: &mut impl Out, v: u64) {
    /// "00" to "99", each pair of digits at its value's place.
    const PAIRS: &[u8; 200] = b"\
        0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899";
    let mut digits = [0u8; NUMBER_BYTES];
    let mut at = digits.len();
    let mut v = v;
    while v >= 100 {
        let pair = (v % 100) as usize * 2;
        v /= 100;
        at -= 2;
        digits[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if v >= 10 {
        let pair = v as usize * 2;
        at -= 2;
        digits[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        at -= 1;
        digits[at] = b'0' + v as u8;
    }
    out.bytes(&digits[at..]);
}

/// A number, or an empty field.
fn maybe(out: &mut impl Out, v: Option<u64>) {
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
            text(&mut quoted, name);
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
        csv_line(
            &Row {
                digest: crate::util::digest::hex(value),
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
