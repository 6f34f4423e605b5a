//! The lines of a judge input, for the parsers and the validators of line-based games: one
//! reader of them. [`lines`] splits a whole input in memory; [`LineSource`] reads the lines from
//! a buffered reader as they are asked for, by index, and holds them until they are released,
//! so that a validator holds one case's lines at a time; [`LineReader`] is the parsers' view of
//! a [`LineSource`]: the lines taken one at a time, owned, with look-ahead (a line is held from
//! the time it is peeked at or taken, and released as it is taken).
//!
//! Invariants: the lines are those of splitting the input at `\n` (a final `\n` ends the last
//! line and starts no other; with [`LineSource::with_final_piece`], the empty piece after it, or
//! of an empty input, is a last, unterminated, empty line), numbered from 1, whatever sizes the
//! reader's reads have; a line is read once, into one buffer shared by the held lines; a line
//! asked for after it was released is not there (readers only go forward). A read error, or a
//! line longer than [`MAX_LINE_BYTES`] (an error, not a line held whole), ends the lines and is
//! kept with the number of the line it stopped at, for the caller to report
//! ([`LineSource::error`], [`LineReader::error`]).

use std::collections::VecDeque;
use std::io::BufRead;

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

/// A line longer than this many bytes, taken through a [`LineReader`] when no other line is
/// held, is handed over with the buffer rather than copied: a long line is not held twice, and
/// the buffer kept between lines stays small.
const MOVED_LINE_BYTES: usize = 64 * 1024;

/// Where a held line's bytes are in a [`LineSource`]'s buffer.
#[derive(Debug, Clone, Copy)]
struct Span {
    start: usize,
    end: usize,
    terminated: bool,
}

/// The lines of a reader, read as they are asked for, by 0-based index (line `i + 1`), and
/// held until released: the one reader of lines, whole input or stream, that validators read
/// from by index and parsers through a [`LineReader`].
pub struct LineSource<R> {
    input: R,
    /// The held lines' bytes, back to back, without their `\n`.
    text: Vec<u8>,
    /// The held lines, in order; the first is line index `first`.
    held: VecDeque<Span>,
    first: usize,
    /// `\n` bytes read so far.
    newlines: usize,
    /// Whether the empty piece after a final `\n` (or of an empty input) is a line too.
    final_piece: bool,
    ended: bool,
    /// The read error that ended the lines, and the number of the line it stopped at.
    error: Option<(usize, std::io::Error)>,
}

impl<R: BufRead> LineSource<R> {
    pub fn new(input: R) -> Self {
        LineSource {
            input,
            text: Vec::new(),
            held: VecDeque::new(),
            first: 0,
            newlines: 0,
            final_piece: false,
            ended: false,
            error: None,
        }
    }

    /// The lines as splitting the input at every `\n` gives them: the empty piece after a
    /// final `\n` (or the one piece of an empty input) is a last, unterminated, empty line.
    pub fn with_final_piece(mut self) -> Self {
        self.final_piece = true;
        self
    }

    /// Reads one more line; false at the end (or on a read error).
    fn fill(&mut self) -> bool {
        match self.read_next() {
            Some(span) => {
                self.held.push_back(span);
                true
            }
            None => false,
        }
    }

    /// Reads the line after the held ones into the buffer, not yet held; `None` at the end
    /// (or on a read error).
    fn read_next(&mut self) -> Option<Span> {
        if self.ended {
            return None;
        }
        let start = self.text.len();
        // The line being read, 1-based: the one after those read.
        let number = self.first + self.held.len() + 1;
        if let Err(e) = read_line(&mut self.input, &mut self.text) {
            self.text.truncate(start);
            self.error = Some((number, e));
            self.ended = true;
            return None;
        }
        let terminated = if self.text.len() == start {
            self.ended = true;
            // The piece after the last `\n` is empty: a line only if every line read so far
            // ended with a `\n` (none read: the empty input's one piece).
            if !(self.final_piece && self.newlines + 1 == number) {
                return None;
            }
            false
        } else if self.text.last() == Some(&b'\n') {
            self.text.pop();
            self.newlines += 1;
            true
        } else {
            false
        };
        Some(Span {
            start,
            end: self.text.len(),
            terminated,
        })
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

    /// The read error that ended the lines, taken (reported once), naming the line it stopped
    /// at (`line 2: ...`).
    pub fn error(&mut self) -> Option<std::io::Error> {
        let (line, e) = self.error.take()?;
        Some(std::io::Error::new(e.kind(), format!("line {line}: {e}")))
    }

    /// The bytes of `span`, the only line in the buffer (held or just read), to be dropped from
    /// it: a line past [`MOVED_LINE_BYTES`] at the buffer's start is handed over with it.
    fn copy_out(&mut self, span: Span) -> Vec<u8> {
        if span.start == 0 && span.end > MOVED_LINE_BYTES {
            let mut text = std::mem::take(&mut self.text);
            text.truncate(span.end);
            text
        } else {
            self.text[span.start..span.end].to_vec()
        }
    }
}

/// One line of the input, owned: what a [`LineReader`] hands over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnedLine {
    /// 1-based.
    pub number: usize,
    /// The bytes without the `\n`.
    pub text: Vec<u8>,
    /// Whether a `\n` ends it (only the last line of an input can lack one).
    pub terminated: bool,
}

impl OwnedLine {
    /// Empty, or white space only.
    pub fn is_blank(&self) -> bool {
        self.text.trim_ascii().is_empty()
    }
}

/// The lines of a reader taken one at a time, with look-ahead: a view of a [`LineSource`]
/// whose held lines are those peeked at and not yet taken (the incremental parsers' way of
/// reading). A line is copied out at its size as it is taken, so an empty line costs no
/// allocation.
pub struct LineReader<R> {
    source: LineSource<R>,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(input: R) -> Self {
        LineReader {
            source: LineSource::new(input),
        }
    }

    /// See [`LineSource::with_final_piece`].
    pub fn with_final_piece(self) -> Self {
        LineReader {
            source: self.source.with_final_piece(),
        }
    }

    /// The line `k` places ahead (0: the next one), read if needed.
    pub fn peek_at(&mut self, k: usize) -> Option<Line<'_>> {
        let next = self.source.first;
        self.source.get(next + k)
    }

    /// The next line, not taken.
    pub fn peek(&mut self) -> Option<Line<'_>> {
        self.peek_at(0)
    }

    /// Takes the next line.
    pub fn next_line(&mut self) -> Option<OwnedLine> {
        let source = &mut self.source;
        let number = source.first + 1;
        if source.held.is_empty() {
            // Nothing peeked at: the line is read and copied out without being held.
            let span = source.read_next()?;
            source.first = number;
            let text = source.copy_out(span);
            source.text.clear();
            return Some(OwnedLine {
                number,
                text,
                terminated: span.terminated,
            });
        }
        let span = *source.held.front()?;
        let text = if source.held.len() == 1 {
            source.copy_out(span)
        } else {
            source.text[span.start..span.end].to_vec()
        };
        source.release(number);
        Some(OwnedLine {
            number,
            text,
            terminated: span.terminated,
        })
    }

    /// Takes the next line without copying it out; false at the end.
    pub fn skip_line(&mut self) -> bool {
        let next = self.source.first;
        if !self.source.load(next) {
            return false;
        }
        self.source.release(next + 1);
        true
    }

    /// The next line that is not blank, not taken (the blank lines before it are taken).
    pub fn peek_non_blank(&mut self) -> Option<Line<'_>> {
        while self.peek()?.is_blank() {
            self.skip_line();
        }
        self.peek()
    }

    /// Takes the next line that is not blank (and the blank lines before it).
    pub fn next_non_blank(&mut self) -> Option<OwnedLine> {
        self.peek_non_blank()?;
        self.next_line()
    }

    /// The number of pieces splitting the input at `\n` gives (`\n` bytes + 1), once the
    /// input has been read to its end: the number of the last line, an empty one after a
    /// final `\n` counted, as whole-input parsers count it.
    pub fn pieces(&mut self) -> usize {
        while self.source.fill() {}
        self.source.newlines + 1
    }

    /// See [`LineSource::end_line`] (the final piece, when it is a line, counted).
    pub fn end_line(&mut self) -> usize {
        self.source.end_line()
    }

    /// The read error that ended the lines, taken (reported once), as the reader gave it
    /// (its line is [`LineReader::end_line`]).
    pub fn error(&mut self) -> Option<std::io::Error> {
        self.source.error.take().map(|(_, e)| e)
    }
}

#[cfg(test)]
mod tests;
