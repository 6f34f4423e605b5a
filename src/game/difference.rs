//! The first difference of two outputs, said so that a reader sees it: a difference in white
//! space alone is named as such (`line 3: missing final newline`, `line 2: trailing space`),
//! and every quoted line shows its invisible characters.
//!
//! Quoting ([`show`]): a line is written between double quotes with Rust's escapes (`\t`, `\r`,
//! `\n`, `\"`, `\\`, `\u{..}` for other control and invisible characters), and each space at
//! the end of a line as `\u{20}`, so `"A-A\u{20}"` is `A-A` followed by one space. Spaces
//! inside a line stay spaces: the quotes delimit them.
//!
//! Invariant: a message that names white space ([`Difference::white_space`]) is only given when
//! the two texts, from the first differing line on, are equal once every white space character
//! is removed; otherwise the lines are quoted as they are.

use crate::validate::excerpt;

/// Longest line [`first_difference`] quotes whole.
const SHOWN_LINE_CHARS: usize = 60;
/// Characters an excerpt shows before the first difference.
const EXCERPT_LEAD: usize = 8;

/// The first place two texts differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// 1-based line of the first difference.
    pub line: usize,
    /// Whether the texts differ only in white space from that line on.
    pub white_space: bool,
    /// `line N: ...`, ready to print.
    pub message: String,
}

/// `line` quoted with its invisible characters escaped (see the module doc).
pub fn show(line: &str) -> String {
    let body = line.trim_end_matches(' ');
    let trailing = line.len() - body.len();
    let mut quoted = String::with_capacity(line.len() + 2);
    quoted.push('"');
    for c in body.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\t' => quoted.push_str("\\t"),
            '\r' => quoted.push_str("\\r"),
            '\n' => quoted.push_str("\\n"),
            ' ' => quoted.push(' '),
            c if c.is_control() || c.is_whitespace() || is_invisible(c) => {
                quoted.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
            c => quoted.push(c),
        }
    }
    for _ in 0..trailing {
        quoted.push_str("\\u{20}");
    }
    quoted.push('"');
    quoted
}

/// Characters that print as nothing although they are not white space (zero-width joiners,
/// the byte order mark, soft hyphens).
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{2060}' | '\u{feff}'
    )
}

fn no_white_space(text: &str) -> impl Iterator<Item = char> + '_ {
    text.chars().filter(|c| !c.is_whitespace())
}

/// Describes the first line where two texts differ, or `None` when they are equal.
pub fn first_difference(expected: &str, actual: &str) -> Option<String> {
    difference(expected, actual).map(|d| d.message)
}

/// Why an output was a presentation error, white space named: its first difference from
/// `expected` when that is white space alone, else (an answer accepted although it differs
/// from the expected one, e.g. another minimum solution) its first difference from
/// `canonical`, the output in the judge's layout, else the checker's reason `why`.
pub fn presentation_message(expected: &str, actual: &str, canonical: &str, why: String) -> String {
    if let Some(d) = difference(expected, actual).filter(|d| d.white_space) {
        return d.message;
    }
    match difference(canonical, actual).filter(|d| d.white_space) {
        Some(d) => format!("{} (against the judge's layout)", d.message),
        None => why,
    }
}

/// [`first_difference`] with its line and whether it is a difference in white space alone.
pub fn difference(expected: &str, actual: &str) -> Option<Difference> {
    if expected == actual {
        return None;
    }
    let (mut e_rest, mut a_rest) = (expected, actual);
    let mut line = 1;
    loop {
        let e = e_rest.split_inclusive('\n').next();
        let a = a_rest.split_inclusive('\n').next();
        match (e, a) {
            (Some(e), Some(a)) if e == a => {
                e_rest = &e_rest[e.len()..];
                a_rest = &a_rest[a.len()..];
                line += 1;
            }
            _ => {
                let white_space = no_white_space(e_rest).eq(no_white_space(a_rest));
                let message = if white_space {
                    white_space_message(line, e, a, e_rest, a_rest)
                } else {
                    text_message(line, e, a)
                };
                return Some(Difference {
                    line,
                    white_space,
                    message,
                });
            }
        }
    }
}

/// The message of a first difference that is not white space alone: the two lines quoted,
/// or excerpts around the first differing column for long lines.
fn text_message(line: usize, e: Option<&str>, a: Option<&str>) -> String {
    let (e, a) = match (e, a) {
        (Some(e), Some(a)) => (e.trim_end_matches('\n'), a.trim_end_matches('\n')),
        (Some(e), None) => {
            return format!(
                "line {line}: expected {}, got end of output",
                show(e.trim_end_matches('\n'))
            );
        }
        (None, Some(a)) => {
            return format!(
                "line {line}: expected end of output, got {}",
                show(a.trim_end_matches('\n'))
            );
        }
        (None, None) => unreachable!("texts that differ have a differing line"),
    };
    if e.chars().count().max(a.chars().count()) <= SHOWN_LINE_CHARS {
        return format!("line {line}: expected {}, got {}", show(e), show(a));
    }
    // Long lines: an excerpt of each from a little before the first difference.
    let column = e.chars().zip(a.chars()).take_while(|(x, y)| x == y).count();
    format!(
        "line {line}, column {}: expected {}, got {}",
        column + 1,
        excerpt(e.as_bytes(), column.saturating_sub(EXCERPT_LEAD)),
        excerpt(a.as_bytes(), column.saturating_sub(EXCERPT_LEAD))
    )
}

/// Names a difference in white space alone; `e_rest` and `a_rest` are the texts from line
/// `line` on, `e` and `a` their first lines (with their `\n`).
fn white_space_message(
    line: usize,
    e: Option<&str>,
    a: Option<&str>,
    e_rest: &str,
    a_rest: &str,
) -> String {
    let blank = |s: &str| s.trim().is_empty();
    match (e, a) {
        (None, Some(_)) => {
            let extra = a_rest.split_inclusive('\n').count();
            let lines = if extra == 1 { "line" } else { "lines" };
            format!("line {line}: {extra} extra blank {lines} at the end of the output")
        }
        (Some(_), None) => {
            let missing = e_rest.split_inclusive('\n').count();
            let lines = if missing == 1 { "line" } else { "lines" };
            format!("line {line}: {missing} blank {lines} missing at the end of the output")
        }
        (Some(e), Some(a)) => {
            let e_nl = e.ends_with('\n');
            let (e_body, a_body) = (e.trim_end_matches('\n'), a.trim_end_matches('\n'));
            if e_body == a_body {
                return if e_nl {
                    format!("line {line}: missing final newline")
                } else {
                    format!("line {line}: a newline after the expected end of the output")
                };
            }
            if blank(a_body) && !blank(e_body) {
                return format!("line {line}: extra blank line {}", show(a_body));
            }
            if blank(e_body) && !blank(a_body) {
                return format!("line {line}: missing blank line, got {}", show(a_body));
            }
            let trail = [' ', '\t', '\r'];
            let (e_core, a_core) = (
                e_body.trim_end_matches(trail),
                a_body.trim_end_matches(trail),
            );
            let quoted = format!("expected {}, got {}", show(e_body), show(a_body));
            if e_core == a_core {
                let (e_tail, a_tail) = (&e_body[e_core.len()..], &a_body[a_core.len()..]);
                let what = if a_tail.ends_with('\r') && !e_tail.ends_with('\r') {
                    "carriage return at the end of the line (CRLF line ending)".to_string()
                } else if let Some(extra) = a_tail.strip_prefix(e_tail) {
                    format!("trailing {}", white_space_name(extra))
                } else if let Some(missing) = e_tail.strip_prefix(a_tail) {
                    format!("missing trailing {}", white_space_name(missing))
                } else {
                    "different trailing white space".to_string()
                };
                return format!("line {line}: {what}: {quoted}");
            }
            let column = e_body
                .chars()
                .zip(a_body.chars())
                .take_while(|(x, y)| x == y)
                .count();
            let what = if e_body.trim_start() == a_body.trim_start() {
                "different indentation"
            } else if no_white_space(e_body).eq(no_white_space(a_body)) {
                "white space differs"
            } else {
                "line break in a different place"
            };
            if e_body.chars().count().max(a_body.chars().count()) <= SHOWN_LINE_CHARS {
                format!("line {line}, column {}: {what}: {quoted}", column + 1)
            } else {
                format!("line {line}, column {}: {what}", column + 1)
            }
        }
        (None, None) => unreachable!("texts that differ have a differing line"),
    }
}

/// `space`, `2 spaces`, `tab`, or `white space` for a mix.
fn white_space_name(extra: &str) -> String {
    let n = extra.chars().count();
    let plural = if n == 1 { "" } else { "s" };
    if extra.chars().all(|c| c == ' ') {
        if n == 1 {
            "space".to_string()
        } else {
            format!("{n} spaces")
        }
    } else if extra.chars().all(|c| c == '\t') {
        format!(
            "{}tab{plural}",
            if n == 1 {
                String::new()
            } else {
                format!("{n} ")
            }
        )
    } else {
        format!("white space {}", show(extra))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_differences_quote_both_lines() {
        assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
        assert_eq!(
            first_difference("a\nb\n", "a\nc\n").unwrap(),
            "line 2: expected \"b\", got \"c\""
        );
        assert_eq!(
            first_difference("a\n", "a\nz\n").unwrap(),
            "line 2: expected end of output, got \"z\""
        );
        assert_eq!(
            first_difference("a\nz\n", "a\n").unwrap(),
            "line 2: expected \"z\", got end of output"
        );
        let long = "x".repeat(500);
        let other = format!("{}y{}", "x".repeat(300), "x".repeat(199));
        let diff = first_difference(&long, &other).unwrap();
        assert!(
            diff.starts_with("line 1, column 301: expected …\"xxxxxxxx"),
            "{diff}"
        );
        assert!(diff.contains("got …\"xxxxxxxxy"), "{diff}");
        assert!(diff.len() < 200, "{diff}");
    }

    #[test]
    fn white_space_differences_are_named() {
        let cases = [
            ("A\nB\n", "A\nB", "line 2: missing final newline"),
            (
                "A\nB\n",
                "A \nB\n",
                "line 1: trailing space: expected \"A\", got \"A\\u{20}\"",
            ),
            (
                "A\nB\n",
                "A\nB  \n",
                "line 2: trailing 2 spaces: expected \"B\", got \"B\\u{20}\\u{20}\"",
            ),
            (
                "A\nB\n",
                "A\r\nB\r\n",
                "line 1: carriage return at the end of the line (CRLF line ending): \
                 expected \"A\", got \"A\\r\"",
            ),
            (
                "A  \n",
                "A\n",
                "line 1: missing trailing 2 spaces: expected \"A\\u{20}\\u{20}\", got \"A\"",
            ),
            (
                "A\n",
                "A\n\n\n",
                "line 2: 2 extra blank lines at the end of the output",
            ),
            (
                "A\n\nB\n",
                "A\nB\n",
                "line 2: missing blank line, got \"B\"",
            ),
            (
                "A B\n",
                "A  B\n",
                "line 1, column 3: white space differs: expected \"A B\", got \"A  B\"",
            ),
            (
                "A B\n",
                " A B\n",
                "line 1, column 1: different indentation: expected \"A B\", got \" A B\"",
            ),
            (
                "AB\nC\n",
                "A\nBC\n",
                "line 1, column 2: line break in a different place: expected \"AB\", got \"A\"",
            ),
            (
                "A\tB\n",
                "A B\n",
                "line 1, column 2: white space differs: expected \"A\\tB\", got \"A B\"",
            ),
        ];
        for (expected, actual, message) in cases {
            let d = difference(expected, actual).unwrap();
            assert!(d.white_space, "{expected:?} {actual:?}");
            assert_eq!(d.message, message, "{expected:?} vs {actual:?}");
        }
        // A difference in white space and in text is a text difference.
        let d = difference("A\nB\n", "A \nC\n").unwrap();
        assert!(!d.white_space);
        assert_eq!(d.message, "line 1: expected \"A\", got \"A\\u{20}\"");
    }

    #[test]
    fn invisible_characters_are_escaped() {
        assert_eq!(
            show("a\u{feff}b\u{7}\u{a0}"),
            "\"a\\u{feff}b\\u{7}\\u{a0}\""
        );
        assert_eq!(show(" a \"q\" \\ "), "\" a \\\"q\\\" \\\\\\u{20}\"");
    }
}
