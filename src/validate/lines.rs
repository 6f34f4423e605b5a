//! The lines of a judge input as the line-based validators read them: [`lines`] splits a
//! whole input (for validators that look at a bounded number of lines), and [`LineSource`]
//! reads them from a buffered reader as they are asked for, keeping only those not yet
//! released, so that a validator holds one case's lines at a time. The steps every line-based
//! validator takes between cases ([`next_case_line`], [`resync`], [`Terminator::closes`])
//! read from a [`LineSource`], which a whole input in memory is too (a `&[u8]` is a reader).
//!
//! Invariants: the lines are those of splitting the input at `\n` (a final `\n` ends the last
//! line and starts no other), numbered from 1, whatever sizes the reader's reads have; a line
//! is read once, into one buffer reused for every line; a line asked for after it was released
//! is not there (validators only go forward). A read error ends the lines and is kept
//! ([`LineSource::error`]) for the caller to report.

use std::collections::VecDeque;
use std::io::BufRead;

use super::{Validation, Violation, check_line, quoted};

/// Most bytes a line of a judge input may have (the statements' longest lines have about a
/// hundred): a longer one is a read error ([`read_line`]) rather than a line held whole,
/// so that a file of one endless line costs no more memory than any other.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Appends the next line of `input` to `line`, its `\n` included, like
/// [`BufRead::read_until`], and returns the bytes appended (0 at the end). A line longer than
/// [`MAX_LINE_BYTES`] is an error of kind `InvalidData`, after which `input` is somewhere
/// inside that line (the caller stops reading).
pub fn read_line<R: BufRead + ?Sized>(input: &mut R, line: &mut Vec<u8>) -> std::io::Result<usize> {
    let start = line.len();
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(line.len() - start);
        }
        let (take, ends) = match memchr::memchr(b'\n', available) {
            Some(at) => (at + 1, true),
            None => (available.len(), false),
        };
        if line.len() - start + take > MAX_LINE_BYTES + usize::from(ends) {
            line.truncate(start);
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("a line longer than {MAX_LINE_BYTES} bytes"),
            ));
        }
        line.extend_from_slice(&available[..take]);
        input.consume(take);
        if ends {
            return Ok(line.len() - start);
        }
    }
}

/// One line of the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line<'a> {
    /// 1-based.
    pub number: usize,
    /// The bytes without the `\n`.
    pub text: &'a [u8],
    /// Whether a `\n` ends it (only the last line of a file can lack one).
    pub terminated: bool,
}

impl Line<'_> {
    /// Empty, or white space only.
    pub fn is_blank(&self) -> bool {
        self.text.trim_ascii().is_empty()
    }
}

/// The lines of `input`, split at `\n` only. A final `\n` ends the last line (it does not
/// start an empty one); bytes after the last `\n` are an unterminated last line.
pub fn lines(input: &[u8]) -> Vec<Line<'_>> {
    let mut lines = Vec::new();
    let mut start = 0;
    for (number, piece) in input.split(|&b| b == b'\n').enumerate() {
        let end = start + piece.len();
        let terminated = end < input.len();
        if !terminated && piece.is_empty() {
            break;
        }
        lines.push(Line {
            number: number + 1,
            text: piece,
            terminated,
        });
        start = end + 1;
    }
    lines
}

/// The line number just past the last line of `lines` ("the input ends" is reported there).
pub fn end_line(lines: &[Line<'_>]) -> usize {
    lines.last().map_or(1, |l| l.number + 1)
}

/// Bytes of released lines at the front of a [`LineSource`]'s buffer before they are dropped
/// (when they are also half of it): dropping costs a move of the bytes kept, so it waits
/// until that is cheap against what was read since.
const COMPACT_BYTES: usize = 64 * 1024;

/// Where a held line's bytes are in a [`LineSource`]'s buffer.
#[derive(Debug, Clone, Copy)]
struct Span {
    start: usize,
    end: usize,
    terminated: bool,
}

/// The lines of a reader, read as they are asked for, by 0-based index (line `i + 1`), and
/// held until released: the lines a validator reads from, whole input or stream.
pub struct LineSource<R> {
    input: R,
    /// The held lines' bytes, back to back, without their `\n`.
    text: Vec<u8>,
    /// The held lines, in order; the first is line index `first`.
    held: VecDeque<Span>,
    first: usize,
    ended: bool,
    error: Option<std::io::Error>,
}

impl<R: BufRead> LineSource<R> {
    pub fn new(input: R) -> Self {
        LineSource {
            input,
            text: Vec::new(),
            held: VecDeque::new(),
            first: 0,
            ended: false,
            error: None,
        }
    }

    /// Reads one more line; false at the end (or on a read error).
    fn fill(&mut self) -> bool {
        if self.ended {
            return false;
        }
        let start = self.text.len();
        if let Err(e) = read_line(&mut self.input, &mut self.text) {
            self.text.truncate(start);
            // The line it stopped at, 1-based: the one after those read.
            let line = self.first + self.held.len() + 1;
            self.error = Some(std::io::Error::new(e.kind(), format!("line {line}: {e}")));
            self.ended = true;
            return false;
        }
        if self.text.len() == start {
            self.ended = true;
            return false;
        }
        let terminated = self.text.last() == Some(&b'\n');
        if terminated {
            self.text.pop();
        }
        self.held.push_back(Span {
            start,
            end: self.text.len(),
            terminated,
        });
        true
    }

    /// Whether line index `i` is held, read up to it if needed (false past the end, or if it
    /// was released).
    pub fn load(&mut self, i: usize) -> bool {
        if i < self.first {
            return false;
        }
        while i >= self.first + self.held.len() {
            if !self.fill() {
                return false;
            }
        }
        true
    }

    /// Line index `i` if it is held (see [`LineSource::load`]).
    pub fn at(&self, i: usize) -> Option<Line<'_>> {
        let span = self.held.get(i.checked_sub(self.first)?)?;
        Some(Line {
            number: i + 1,
            text: &self.text[span.start..span.end],
            terminated: span.terminated,
        })
    }

    /// Line index `i`, read if needed; `None` past the end.
    pub fn get(&mut self, i: usize) -> Option<Line<'_>> {
        if !self.load(i) {
            return None;
        }
        self.at(i)
    }

    /// Forgets the held lines before index `i`: the caller will not ask for them again.
    pub fn release(&mut self, i: usize) {
        while self.first < i && self.held.pop_front().is_some() {
            self.first += 1;
        }
        let Some(kept) = self.held.front().map(|s| s.start) else {
            self.text.clear();
            return;
        };
        if kept >= COMPACT_BYTES && kept * 2 >= self.text.len() {
            self.text.drain(..kept);
            for span in &mut self.held {
                span.start -= kept;
                span.end -= kept;
            }
        }
    }

    /// The number just past the last line (where "the input ends" is reported), the input
    /// read to its end (1 for an empty input). Meant for when a line asked for was not there:
    /// the lines left are held.
    pub fn end_line(&mut self) -> usize {
        while self.fill() {}
        self.first + self.held.len() + 1
    }

    /// The read error that ended the lines, taken (reported once).
    pub fn error(&mut self) -> Option<std::io::Error> {
        self.error.take()
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_numbers_and_the_final_newline() {
        let l = lines(b"a\n\nb");
        assert_eq!(l.len(), 3);
        assert_eq!(
            (l[0].number, l[0].text, l[0].terminated),
            (1, &b"a"[..], true)
        );
        assert!(l[1].is_blank());
        assert_eq!((l[2].number, l[2].terminated), (3, false));
        assert_eq!(lines(b"a\n").len(), 1);
        assert!(lines(b"").is_empty());
        assert_eq!(end_line(&lines(b"a\nb\n")), 3);
    }

    #[test]
    fn a_source_gives_the_lines_of_the_split_whatever_the_reads() {
        let long = [vec![b'x'; 3 * COMPACT_BYTES], b"\n".to_vec()].concat();
        let many = b"ab\n".repeat(COMPACT_BYTES);
        for text in [
            &b""[..],
            b"a",
            b"a\n",
            b"a\n\nbb \n",
            b"\n\n",
            b"x\ny\r\nz",
            &long,
            &many,
        ] {
            let whole = lines(text);
            for step in [1, 2, 3, 7, 4096] {
                let mut source = LineSource::new(crate::validate::testing::trickle(text, step));
                // Released as a validator releases them: two behind the line read.
                for (i, expected) in whole.iter().enumerate() {
                    assert_eq!(source.get(i).as_ref(), Some(expected), "{i} of {text:?}");
                    source.release(i.saturating_sub(2));
                    assert!(i < 3 || source.at(i - 3).is_none());
                }
                assert!(source.get(whole.len()).is_none());
                assert_eq!(source.end_line(), end_line(&whole));
                assert!(source.error().is_none());
            }
        }
    }

    #[test]
    fn a_read_error_ends_the_lines_and_is_kept() {
        struct Failing;
        impl std::io::Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk on fire"))
            }
        }
        let input = std::io::Read::chain(&b"a\nb"[..], Failing);
        let mut source = LineSource::new(std::io::BufReader::new(input));
        assert_eq!(source.get(0).map(|l| l.text), Some(&b"a"[..]));
        assert!(source.get(1).is_none(), "the cut line is not a line");
        assert_eq!(
            source.error().map(|e| e.to_string()).as_deref(),
            Some("line 2: disk on fire")
        );
        assert!(source.error().is_none());
    }

    #[test]
    fn a_line_longer_than_the_bound_is_an_error_naming_it() {
        let longest = vec![b'x'; MAX_LINE_BYTES];
        let too_long = vec![b'y'; MAX_LINE_BYTES + 1];
        for step in [4096, 65_536, 3 * MAX_LINE_BYTES] {
            // The longest line is read whole, with or without its `\n`.
            for text in [
                [&b"a\n"[..], &longest, b"\nb\n"].concat(),
                [&b"a\n"[..], &longest].concat(),
            ] {
                let mut source = LineSource::new(crate::validate::testing::trickle(&text, step));
                assert_eq!(source.get(1).map(|l| l.text.len()), Some(MAX_LINE_BYTES));
                assert!(source.error().is_none());
            }
            let text = [&b"a\n"[..], &too_long, b"\nb\n"].concat();
            let mut source = LineSource::new(crate::validate::testing::trickle(&text, step));
            assert_eq!(source.get(0).map(|l| l.text), Some(&b"a"[..]));
            assert!(source.get(1).is_none(), "the long line is not a line");
            let error = source.error().expect("an error");
            assert_eq!(error.kind(), std::io::ErrorKind::InvalidData);
            assert_eq!(
                error.to_string(),
                format!("line 2: a line longer than {MAX_LINE_BYTES} bytes")
            );
        }
    }

    #[test]
    fn read_line_reads_what_read_until_reads() {
        let text = b"a\n\nbb \r\nlast";
        for step in [1, 2, 5] {
            let (mut mine, mut theirs) = (Vec::new(), Vec::new());
            let mut a = crate::validate::testing::trickle(text, step);
            let mut b = crate::validate::testing::trickle(text, step);
            loop {
                let n = read_line(&mut a, &mut mine).unwrap();
                assert_eq!(n, b.read_until(b'\n', &mut theirs).unwrap());
                assert_eq!(mine, theirs);
                if n == 0 {
                    break;
                }
            }
        }
    }
}
