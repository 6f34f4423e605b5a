//! Test support for the streaming validators: the whole-input line helpers as they were before
//! the validators read a line at a time (the oracle's half in `crate::validate`; the games'
//! halves are their `validate_tests.rs`), the broken inputs both are compared on, and the
//! comparison itself.

use super::{Line, Terminator, Validation, Violation, check_line, end_line, quoted};

/// The step every line-based validator took between cases (the whole-input version).
pub fn next_case_line<'a>(
    lines: &'a [Line<'a>],
    i: &mut usize,
    case: usize,
    terminator: &Terminator,
    out: &mut Validation,
) -> Option<(&'a Line<'a>, usize)> {
    let current = (case > 0).then_some(case);
    while !out.full() {
        let Some(line) = lines.get(*i) else {
            out.push(Violation::new(
                current,
                end_line(lines),
                format!("the input ends without the line `{}`", terminator.marker),
                terminator.end,
            ));
            return None;
        };
        if !line.is_blank() {
            let first = out.violations.len();
            check_line(line, Some(case + 1), out);
            return Some((line, first));
        }
        check_line(line, current, out);
        out.push(Violation::new(
            current,
            line.number,
            "a blank line",
            terminator.blank,
        ));
        *i += 1;
    }
    None
}

/// The first line at or after `i` that `is_header` accepts (or the end).
pub fn resync(lines: &[Line<'_>], mut i: usize, is_header: impl Fn(&[u8]) -> bool) -> usize {
    while lines.get(i).is_some_and(|l| !is_header(l.text)) {
        i += 1;
    }
    i
}

/// `Terminator::closes` of the whole-input version.
pub fn closes(
    terminator: &Terminator,
    lines: &[Line<'_>],
    i: usize,
    first: usize,
    case: usize,
    out: &mut Validation,
) {
    let current = (case > 0).then_some(case);
    for violation in &mut out.violations[first..] {
        violation.case = current;
    }
    if let Some(extra) = lines.get(i + 1) {
        out.push(Violation::new(
            current,
            extra.number,
            format!("{}: {}", terminator.after, quoted(extra.text)),
            terminator.end,
        ));
    }
}

/// The first lines of a file dropped one at a time in its broken copies.
const DROPPED_LINES: usize = 12;
/// Bytes in the over-long lines the broken inputs get (longer than any buffer of a reader
/// under test, shorter than a test's patience).
const LONG_LINE: usize = 10_000;

/// The inputs a streaming validator is compared on: [`crate::validate::testing::test_inputs`] (every
/// bundled file of `corpora/<folder>`, cut at many places, CRLF, no final newline, blank and
/// garbage lines, no terminator) and, from each bundled file, more broken copies: blank lines
/// inserted, text after the end marker, a bad header in the middle, a good `header` where a
/// row is expected, a line dropped (so that a case ends early), a huge number, over-long
/// lines, NUL bytes, invalid UTF-8, and the cases repeated past any count limit.
pub fn inputs(folder: &str, end_marker: &str, header: &str) -> Vec<(String, Vec<u8>)> {
    let mut inputs = crate::validate::testing::test_inputs(folder);
    let bundled: Vec<(String, Vec<u8>)> = inputs
        .iter()
        .filter(|(name, _)| name.ends_with(".in"))
        .cloned()
        .collect();
    for (name, bytes) in bundled {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let lines: Vec<&str> = text.lines().collect();
        let middle = lines.len() / 2;
        let body: String = lines
            .iter()
            .filter(|l| **l != end_marker)
            .map(|l| format!("{l}\n"))
            .collect();
        let with = |at: usize, extra: &str| {
            let mut changed = lines.clone();
            changed.insert(at.min(changed.len()), extra);
            changed.join("\n") + "\n"
        };
        let long_row = vec!["AS"; LONG_LINE / 3].join(" ");
        let long_text = "#".repeat(LONG_LINE);
        let variants = [
            ("blank lines at the start", format!("\n\n{text}")),
            ("blank lines in the middle", with(middle, "\n\n   ")),
            ("text after the end", format!("{text}{end_marker}\nmore\n")),
            ("a line after the end", format!("{text}x\n")),
            ("a bad header in the middle", with(middle, "3 x 4")),
            ("a huge header", with(middle, "99999999999999999999999 2 N")),
            ("a long row", with(middle, &long_row)),
            ("a long line", with(middle + 1, &long_text)),
            ("a NUL byte", with(middle, "AS\0BS")),
            ("a tab", with(middle, "1\t1 T")),
            ("the cases 40 times", body.repeat(40) + &text),
            ("a header in a board", with(2, header)),
            ("a header in the middle", with(middle, header)),
        ];
        for (what, changed) in variants {
            inputs.push((format!("{name}: {what}"), changed.into_bytes()));
        }
        for dropped in (0..DROPPED_LINES).chain([middle]) {
            let kept: Vec<&str> = (lines.iter().enumerate())
                .filter(|&(k, _)| k != dropped)
                .map(|(_, l)| *l)
                .collect();
            inputs.push((
                format!("{name}: line {} dropped", dropped + 1),
                (kept.join("\n") + "\n").into_bytes(),
            ));
        }
        let mut utf8 = bytes.clone();
        if let Some(at) = utf8.iter().position(|&b| b == b'\n') {
            utf8.splice(at..at, [0xff, 0xc3]);
        }
        inputs.push((format!("{name}: invalid UTF-8"), utf8));
        let mut long_blank = bytes.clone();
        long_blank.splice(0..0, vec![b' '; LONG_LINE].into_iter().chain([b'\n']));
        inputs.push((format!("{name}: a long blank line"), long_blank));
    }
    inputs
}

/// Read sizes the streaming validator is fed with: short reads of 1 to 9 bytes, and a page.
pub const STEPS: [usize; 10] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 4096];
/// Read sizes for inputs past [`LARGE_INPUT`]: one byte at a time already puts a read's end
/// at every position of the input, and the small inputs try every other short size; a large
/// input (a file's cases repeated 40 times, a line past the length cap) adds only run time.
pub const LARGE_STEPS: [usize; 3] = [1, 7, 4096];
/// Inputs larger than this many bytes are read at [`LARGE_STEPS`] only.
pub const LARGE_INPUT: usize = 16 * 1024;

/// Asserts that `slice` (the validator on a whole input) and `reader` (on a reader) give what
/// `oracle` (the whole-input validator as it was) gives, on every input, at every read size
/// ([`STEPS`]; [`LARGE_STEPS`] past [`LARGE_INPUT`]).
pub fn assert_same(
    inputs: &[(String, Vec<u8>)],
    oracle: impl Fn(&[u8]) -> Validation,
    slice: impl Fn(&[u8]) -> Validation,
    reader: impl Fn(&mut dyn std::io::BufRead) -> std::io::Result<Validation>,
) {
    for (name, input) in inputs {
        let expected = oracle(input);
        assert_eq!(slice(input), expected, "{name}");
        let steps: &[usize] = if input.len() > LARGE_INPUT {
            &LARGE_STEPS
        } else {
            &STEPS
        };
        for &step in steps {
            let got =
                reader(&mut crate::validate::testing::trickle(input, step)).expect("no read error");
            assert_eq!(got, expected, "{name}, read {step} bytes at a time");
        }
    }
}
