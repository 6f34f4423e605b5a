//! [`LineReader`]: the lines of a judge input read from a buffered reader one at a time, with
//! their 1-based numbers, for the incremental parsers and validators of line-based games.
//!
//! Invariants: the lines are those of splitting the whole input at `\n` (a final `\n` ends
//! the last line and starts no other), numbered from 1, whatever sizes the reader's reads
//! have; a line is held once, and only the lines a caller peeks at are kept ahead. A read
//! error, or a line longer than [`crate::validate::MAX_LINE_BYTES`], ends the lines and is kept
//! ([`LineReader::error`]) for the caller to report.

use std::collections::VecDeque;
use std::io::BufRead;

/// A line whose buffer grew past this many bytes is handed over rather than copied: a long
/// line is not held twice, and the buffer kept between lines stays small.
const MOVED_LINE_BYTES: usize = 64 * 1024;

/// One line of the input, owned.
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

/// The lines of a reader, with look-ahead.
pub struct LineReader<R> {
    input: R,
    /// Lines read and not yet taken, in order.
    ahead: VecDeque<OwnedLine>,
    /// Lines read so far.
    read: usize,
    /// `\n` bytes read so far.
    newlines: usize,
    ended: bool,
    error: Option<std::io::Error>,
    /// Whether the empty piece after a final `\n` (or of an empty input) is a line too.
    final_piece: bool,
    /// Where a line is read before it is copied out at its size: one buffer for every line,
    /// so that an empty line costs no allocation.
    buffer: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(input: R) -> Self {
        LineReader {
            input,
            ahead: VecDeque::new(),
            read: 0,
            newlines: 0,
            ended: false,
            error: None,
            final_piece: false,
            buffer: Vec::new(),
        }
    }

    /// The lines as splitting the input at every `\n` gives them: the empty piece after a
    /// final `\n` (or the one piece of an empty input) is a last, unterminated, empty line.
    pub fn with_final_piece(mut self) -> Self {
        self.final_piece = true;
        self
    }

    /// Reads one more line into the look-ahead; false at the end (or on a read error).
    fn fill(&mut self) -> bool {
        if self.ended {
            return false;
        }
        self.buffer.clear();
        if let Err(e) = crate::validate::read_line(&mut self.input, &mut self.buffer) {
            self.error = Some(e);
            self.ended = true;
            return false;
        }
        if self.buffer.is_empty() {
            self.ended = true;
            let after_newline = self.read == self.newlines;
            if self.final_piece && after_newline && self.error.is_none() {
                self.read += 1;
                self.ahead.push_back(OwnedLine {
                    number: self.read,
                    text: Vec::new(),
                    terminated: false,
                });
                return true;
            }
            return false;
        }
        let terminated = self.buffer.last() == Some(&b'\n');
        if terminated {
            self.buffer.pop();
            self.newlines += 1;
        }
        self.read += 1;
        self.ahead.push_back(OwnedLine {
            number: self.read,
            text: if self.buffer.capacity() > MOVED_LINE_BYTES {
                std::mem::take(&mut self.buffer)
            } else {
                self.buffer.as_slice().to_vec()
            },
            terminated,
        });
        true
    }

    /// The line `k` places ahead (0: the next one), read if needed.
    pub fn peek_at(&mut self, k: usize) -> Option<&OwnedLine> {
        while self.ahead.len() <= k {
            if !self.fill() {
                return None;
            }
        }
        self.ahead.get(k)
    }

    /// The next line, not taken.
    pub fn peek(&mut self) -> Option<&OwnedLine> {
        self.peek_at(0)
    }

    /// Takes the next line.
    pub fn next_line(&mut self) -> Option<OwnedLine> {
        if self.ahead.is_empty() {
            self.fill();
        }
        self.ahead.pop_front()
    }

    /// The next line that is not blank, not taken (the blank lines before it are taken).
    pub fn peek_non_blank(&mut self) -> Option<&OwnedLine> {
        while self.peek()?.is_blank() {
            self.ahead.pop_front();
        }
        self.peek()
    }

    /// Takes the next line that is not blank (and the blank lines before it).
    pub fn next_non_blank(&mut self) -> Option<OwnedLine> {
        self.peek_non_blank()?;
        self.ahead.pop_front()
    }

    /// The number of pieces splitting the input at `\n` gives (`\n` bytes + 1), once the
    /// input has been read to its end: the number of the last line, an empty one after a
    /// final `\n` counted, as whole-input parsers count it.
    pub fn pieces(&mut self) -> usize {
        while self.fill() {}
        self.newlines + 1
    }

    /// The number just past the last line (where "the input ends" is reported), once the
    /// input has been read to its end (1 for an empty input; without the final piece).
    pub fn end_line(&mut self) -> usize {
        while self.fill() {}
        self.read + 1
    }

    /// The read error that ended the lines, taken (reported once).
    pub fn error(&mut self) -> Option<std::io::Error> {
        self.error.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_the_split_of_the_whole_input() {
        // A line long enough to be handed over, then short ones read into the buffer again.
        let long = [vec![b'x'; 2 * MOVED_LINE_BYTES], b"\nab\n\nc".to_vec()].concat();
        for text in [
            &b""[..],
            b"a",
            b"a\n",
            b"a\n\nbb \n",
            b"\n\n",
            b"x\ny\r\nz",
            &long,
        ] {
            let whole = crate::validate::lines(text);
            for step in 1..=9 {
                let mut reader = LineReader::new(crate::game::trickle(text, step));
                assert_eq!(reader.peek_at(1).is_some(), whole.len() > 1);
                let mut got = Vec::new();
                while let Some(line) = reader.next_line() {
                    got.push(line);
                }
                assert_eq!(got.len(), whole.len(), "{text:?}");
                for (a, b) in got.iter().zip(&whole) {
                    assert_eq!(
                        (a.number, &a.text[..], a.terminated),
                        (b.number, b.text, b.terminated)
                    );
                }
                assert_eq!(reader.pieces(), text.split(|&b| b == b'\n').count());
                assert_eq!(reader.end_line(), crate::validate::end_line(&whole));
                let mut pieces =
                    LineReader::new(crate::game::trickle(text, step)).with_final_piece();
                let mut got = Vec::new();
                while let Some(line) = pieces.next_line() {
                    got.push(line.text);
                }
                let split: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
                assert_eq!(got, split, "{text:?}");
            }
        }
    }
}
