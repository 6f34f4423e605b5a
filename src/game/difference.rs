//! The first difference of two outputs, said so that a reader sees it: the first differing line
//! quoted as expected and got with its column (`line 3, column 6: expected "1 2", got "12 "`),
//! a difference in white space alone named as such (`line 3: missing final newline`,
//! `line 2: trailing space`), and [`explain`] to print such a message with a caret under the
//! first differing column.
//!
//! Quoting ([`show`]): a line is written between double quotes with Rust's escapes (`\t`, `\r`,
//! `\n`, `\"`, `\\`, `\u{..}` for other control and invisible characters); spaces stay spaces,
//! the quotes delimit the trailing ones. Only where the difference is in white space are spaces
//! drawn as `·` ([`show_spaces`]), so that they can be counted.
//!
//! Invariant: a message that names white space ([`Difference::white_space`]) is only given when
//! the two texts, from the first differing line on, are equal once every white space character
//! is removed; otherwise the lines are quoted as they are.

use std::fmt::Write as _;

/// Longest line [`first_difference`] quotes whole.
const SHOWN_LINE_CHARS: usize = 60;
/// Characters an excerpt of a long line shows before the first difference.
const EXCERPT_LEAD: usize = 8;
/// Characters an excerpt of a long line shows in all.
const EXCERPT_CHARS: usize = 40;
/// How a space is drawn where the difference is in white space.
const SPACE_MARK: char = '·';
/// Marks an excerpt that leaves out the start or the end of its line.
const ELLIPSIS: char = '…';
/// Indentation of the quoted lines [`explain`] writes under a message.
const EXPLAIN_INDENT: &str = "  ";

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
    quote(line, false)
}

/// `line` quoted as [`show`] does, each space drawn as `·` (and a `·` of the text escaped).
pub fn show_spaces(line: &str) -> String {
    quote(line, true)
}

fn quote(line: &str, mark_spaces: bool) -> String {
    let mut quoted = String::with_capacity(line.len() + 2);
    quoted.push('"');
    push_escaped(&mut quoted, line, mark_spaces);
    quoted.push('"');
    quoted
}

fn push_escaped(out: &mut String, text: &str, mark_spaces: bool) {
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\n' => out.push_str("\\n"),
            ' ' if mark_spaces => out.push(SPACE_MARK),
            ' ' => out.push(' '),
            SPACE_MARK if mark_spaces => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c if c.is_control() || c.is_whitespace() || is_invisible(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
}

/// Characters that print as nothing although they are not white space (zero-width joiners,
/// the byte order mark, soft hyphens).
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{2060}' | '\u{feff}'
    )
}

/// The expected and the actual line quoted (`expected "..", got ".."`), whole when they are
/// short, else excerpts from a little before `column` (0-based chars), marked with `…`.
pub fn quote_pair(expected: &str, actual: &str, column: usize, mark_spaces: bool) -> String {
    let long = expected.chars().count().max(actual.chars().count()) > SHOWN_LINE_CHARS;
    let shown = |line: &str| {
        if !long {
            return quote(line, mark_spaces);
        }
        let start = column.saturating_sub(EXCERPT_LEAD);
        let total = line.chars().count();
        let window: String = line.chars().skip(start).take(EXCERPT_CHARS).collect();
        let mut out = String::new();
        if start > 0 {
            out.push(ELLIPSIS);
        }
        out.push_str(&quote(&window, mark_spaces));
        if start + EXCERPT_CHARS < total {
            out.push(ELLIPSIS);
        }
        out
    };
    format!("expected {}, got {}", shown(expected), shown(actual))
}

/// The 0-based char column where two lines first differ (the shorter one's length when one
/// is a prefix of the other).
pub fn first_column(expected: &str, actual: &str) -> usize {
    expected
        .chars()
        .zip(actual.chars())
        .take_while(|(x, y)| x == y)
        .count()
}

/// `message` as a person reads it: when it ends with the quoted pair a difference message
/// carries (`expected "..", got ".."`), the pair is written on two lines, one under the
/// other, with a caret under the first column where they differ; any other message is
/// returned as it is.
pub fn explain(message: &str) -> String {
    let Some((head, expected, actual)) = split_pair(message) else {
        return message.to_string();
    };
    let (e, a): (Vec<char>, Vec<char>) = (expected.chars().collect(), actual.chars().collect());
    let column = e.iter().zip(&a).take_while(|(x, y)| x == y).count();
    let label = |name: &str| format!("{EXPLAIN_INDENT}{name:<9}");
    let mut out = head.trim_end().to_string();
    let _ = write!(
        out,
        "\n{}{expected}\n{}{actual}\n{}{}^",
        label("expected"),
        label("got"),
        label(""),
        " ".repeat(column)
    );
    out
}

/// The text before `expected ` and the two quoted items of a message ending in
/// `expected Q, got Q` (Q: an optional `…`, a quoted string with `\"` escapes, an optional
/// `…`), or `None`.
fn split_pair(message: &str) -> Option<(&str, &str, &str)> {
    let mut search = 0;
    while let Some(found) = message[search..].find("expected ") {
        let at = search + found;
        let rest = &message[at + "expected ".len()..];
        if let Some(e_len) = quoted_len(rest) {
            let after = &rest[e_len..];
            if let Some(a) = after.strip_prefix(", got ")
                && quoted_len(a) == Some(a.len())
            {
                return Some((&message[..at], &rest[..e_len], a));
            }
        }
        search = at + "expected ".len();
    }
    None
}

/// The length in bytes of the quoted item at the start of `text` (see [`split_pair`]).
fn quoted_len(text: &str) -> Option<usize> {
    let body = text.strip_prefix(ELLIPSIS).unwrap_or(text);
    let lead = text.len() - body.len();
    let mut chars = body.strip_prefix('"')?.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                chars.next()?;
            }
            '"' => {
                let end = lead + 1 + i + 1;
                let tail = &text[end..];
                return Some(if tail.starts_with(ELLIPSIS) {
                    end + ELLIPSIS.len_utf8()
                } else {
                    end
                });
            }
            _ => {}
        }
    }
    None
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
    let column = first_column(e, a);
    format!(
        "line {line}, column {}: {}",
        column + 1,
        quote_pair(e, a, column, false)
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
                return format!("line {line}: extra blank line {}", show_spaces(a_body));
            }
            if blank(e_body) && !blank(a_body) {
                return format!(
                    "line {line}: missing blank line, got {}",
                    show_spaces(a_body)
                );
            }
            let trail = [' ', '\t', '\r'];
            let (e_core, a_core) = (
                e_body.trim_end_matches(trail),
                a_body.trim_end_matches(trail),
            );
            let column = first_column(e_body, a_body);
            let quoted = quote_pair(e_body, a_body, column, true);
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
            let what = if e_body.trim_start() == a_body.trim_start() {
                "different indentation"
            } else if no_white_space(e_body).eq(no_white_space(a_body)) {
                "white space differs"
            } else {
                "line break in a different place"
            };
            format!("line {line}, column {}: {what}: {quoted}", column + 1)
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
        format!("white space {}", show_spaces(extra))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_differences_quote_both_lines_with_the_column() {
        assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
        assert_eq!(
            first_difference("a\nb\n", "a\nc\n").unwrap(),
            "line 2, column 1: expected \"b\", got \"c\""
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
        assert!(diff.ends_with("\"…"), "{diff}");
        assert!(diff.len() < 200, "{diff}");
    }

    #[test]
    fn white_space_differences_are_named_with_their_spaces_drawn() {
        let cases = [
            ("A\nB\n", "A\nB", "line 2: missing final newline"),
            (
                "A\nB\n",
                "A \nB\n",
                "line 1: trailing space: expected \"A\", got \"A·\"",
            ),
            (
                "A\nB\n",
                "A\nB  \n",
                "line 2: trailing 2 spaces: expected \"B\", got \"B··\"",
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
                "line 1: missing trailing 2 spaces: expected \"A··\", got \"A\"",
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
                "line 1, column 3: white space differs: expected \"A·B\", got \"A··B\"",
            ),
            (
                "A B\n",
                " A B\n",
                "line 1, column 1: different indentation: expected \"A·B\", got \"·A·B\"",
            ),
            (
                "AB\nC\n",
                "A\nBC\n",
                "line 1, column 2: line break in a different place: expected \"AB\", got \"A\"",
            ),
            (
                "A\tB\n",
                "A B\n",
                "line 1, column 2: white space differs: expected \"A\\tB\", got \"A·B\"",
            ),
        ];
        for (expected, actual, message) in cases {
            let d = difference(expected, actual).unwrap();
            assert!(d.white_space, "{expected:?} {actual:?}");
            assert_eq!(d.message, message, "{expected:?} vs {actual:?}");
        }
        // A difference in white space and in text is a text difference: spaces as they are.
        let d = difference("A\nB\n", "A \nC\n").unwrap();
        assert!(!d.white_space);
        assert_eq!(d.message, "line 1, column 2: expected \"A\", got \"A \"");
    }

    #[test]
    fn invisible_characters_are_escaped() {
        assert_eq!(
            show("a\u{feff}b\u{7}\u{a0}"),
            "\"a\\u{feff}b\\u{7}\\u{a0}\""
        );
        assert_eq!(show(" a \"q\" \\ "), "\" a \\\"q\\\" \\\\ \"");
        assert_eq!(show_spaces(" a·"), "\"·a\\u{b7}\"");
    }

    #[test]
    fn explain_puts_a_caret_under_the_first_differing_column() {
        assert_eq!(
            explain("line 2, column 5: expected \"   1 2\", got \"   12 \""),
            "line 2, column 5:\n  expected \"   1 2\"\n  got      \"   12 \"\n                ^"
        );
        assert_eq!(
            explain(
                "mismatch [e]: a.in case 1: line 1, column 3: expected \"a\\\"b\", got \"a\\\"c\""
            ),
            "mismatch [e]: a.in case 1: line 1, column 3:\n  expected \"a\\\"b\"\n  got      \"a\\\"c\"\n               ^"
        );
        assert_eq!(
            explain("line 1, column 301: expected …\"xxy\"…, got …\"xyx\"…"),
            "line 1, column 301:\n  expected …\"xxy\"…\n  got      …\"xyx\"…\n              ^"
        );
        // Messages without a quoted pair at their end stay as they are.
        for message in [
            "line 2: missing final newline",
            "line 2: expected \"z\", got end of output",
            "the expected output is not a well-formed answer",
        ] {
            assert_eq!(explain(message), message);
        }
    }
}
