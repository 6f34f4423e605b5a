//! The steps every line-based validator takes between cases, reading from a [`LineSource`]
//! (a whole input in memory is one too: a `&[u8]` is a reader): the line that starts the next
//! case or ends the input ([`next_case_line`]), where to resume after a broken case
//! ([`resync`]), and the terminator closing the input ([`Terminator::closes`]).

use std::io::BufRead;

use super::lines::{Line, LineSource};
use super::{Validation, Violation, check_line, quoted};

/// How a game's judge input ends, as its validator reports it: the terminator line (`0 0`),
/// and the statement's words for the end and for blank lines.
pub struct Terminator {
    /// The terminator line, as messages name it.
    pub marker: &'static str,
    /// How a message names a line found after the terminator (before `: <the line>`).
    pub after: &'static str,
    /// The constraint that the input ends with the terminator (and nothing after it).
    pub end: &'static str,
    /// The constraint that no line is blank.
    pub blank: &'static str,
}

/// The step every line-based validator takes between cases, from line index `*i` after
/// `case` cases (the lines before it released): blank lines are reported and skipped, the
/// end of the input without the terminator is reported (`None`, as when the violations are
/// full). Otherwise the line to read as a header or the terminator, with its line checks
/// ([`check_line`]) recorded as the next case's, and where they start in the violations (for
/// [`Terminator::closes`] to move them to the file).
pub fn next_case_line<'s, R: BufRead>(
    lines: &'s mut LineSource<R>,
    i: &mut usize,
    case: usize,
    terminator: &Terminator,
    out: &mut Validation,
) -> Option<(Line<'s>, usize)> {
    let current = (case > 0).then_some(case);
    lines.release(*i);
    loop {
        if out.full() {
            return None;
        }
        let Some(line) = lines.get(*i) else {
            let end = lines.end_line();
            out.push(Violation::new(
                current,
                end,
                format!("the input ends without the line `{}`", terminator.marker),
                terminator.end,
            ));
            return None;
        };
        if !line.is_blank() {
            break;
        }
        check_line(&line, current, out);
        out.push(Violation::new(
            current,
            line.number,
            "a blank line",
            terminator.blank,
        ));
        *i += 1;
        lines.release(*i);
    }
    let lines: &'s LineSource<R> = lines;
    let line = lines.at(*i)?;
    let first = out.violations.len();
    check_line(&line, Some(case + 1), out);
    Some((line, first))
}

/// The first line index at or after `i` whose text `is_header` accepts (or the end): where a
/// validator resumes after a broken case, as the game's parser does. The lines passed over
/// are released.
pub fn resync<R: BufRead>(
    lines: &mut LineSource<R>,
    mut i: usize,
    is_header: impl Fn(&[u8]) -> bool,
) -> usize {
    while lines.get(i).is_some_and(|l| !is_header(l.text)) {
        i += 1;
        lines.release(i);
    }
    i
}

impl Terminator {
    /// The terminator at line index `i` closes the input after `case` cases: the violations
    /// recorded on its line since `first` belong to the last case (or to the file), not to a
    /// case it would have started, and a line after it is reported.
    pub fn closes<R: BufRead>(
        &self,
        lines: &mut LineSource<R>,
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
                format!("{}: {}", self.after, quoted(extra.text)),
                self.end,
            ));
        }
    }
}
