//! How outputs are compared: the white space that only presentation depends on (the first
//! difference of two texts is `difference.rs`), and the split of a judge output into per-case blocks. The
//! checkers of the games and the default [`super::Rules::check`] are built from these.
//!
//! The split exists whole ([`split_blocks`]) and read as it goes ([`Blocks`], for `check` on a
//! file of any size): both give the same blocks, byte for byte, for any input and any way the
//! reader cuts it.

use std::io::BufRead;

/// `block` without any white space: the presentation of outputs whose every space is layout,
/// not data (Link and Pop, Yut), so a presentation error is any difference in white space.
pub fn strip_white_space(block: &str) -> String {
    block.split_whitespace().collect()
}

/// The white space of a byte-compared output that [`Rules::presentation`] sets aside by
/// default: each line's trailing spaces, tabs and `\r`, the blank lines at the end, and the
/// final newline (always one). Everything else, leading and inner spaces included (they draw
/// empty cells in SameGame and Yut), is kept.
pub fn trim_presentation(block: &str) -> String {
    let mut lines: Vec<&str> = block
        .split('\n')
        .map(|l| l.trim_end_matches([' ', '\t', '\r']))
        .collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// `block` with its first line replaced by `to` when that line is `from` (both without their
/// newline); otherwise `block` as it is. The renumbering of games whose blocks start with the
/// case's number ([`super::Rules::renumber_block`]).
pub fn replace_first_line(block: &str, from: &str, to: &str) -> String {
    let (first, rest) = block.split_at(block.find('\n').unwrap_or(block.len()));
    if first == from {
        format!("{to}{rest}")
    } else {
        block.to_string()
    }
}

/// [`split_blocks`] of a game whose cases' outputs are joined by `separator`: every block
/// followed by another loses the separator at its end ([`strip_separator`]); the last keeps
/// whatever it has, so a stray separator at the end of a file stays visible to `check`. The
/// whole-text form of [`Blocks::separated_by`], and [`super::Rules::split_output`]'s default.
pub fn split_separated(
    output: &str,
    starts_case: impl Fn(&str) -> bool,
    separator: &str,
) -> Vec<String> {
    let mut blocks = split_blocks(output, starts_case);
    let last = blocks.len().saturating_sub(1);
    for block in &mut blocks[..last] {
        strip_separator(block, separator);
    }
    blocks
}

/// `block` without one `separator` at its end, when the separator follows a whole line (the
/// text between two cases' outputs, SameGame's blank line); an empty separator strips nothing.
fn strip_separator(block: &mut String, separator: &str) {
    let Some(kept) = block.len().checked_sub(separator.len()) else {
        return;
    };
    if !separator.is_empty() && block.ends_with(separator) && block[..kept].ends_with('\n') {
        block.truncate(kept);
    }
}

/// Splits judge output into blocks, each starting at a line for which `starts_case` holds.
/// Text before the first such line (garbage) becomes a block of its own so nothing is lost.
pub fn split_blocks(output: &str, starts_case: impl Fn(&str) -> bool) -> Vec<String> {
    let mut blocks: Vec<String> = Vec::new();
    for line in output.split_inclusive('\n') {
        if starts_case(line) || blocks.is_empty() {
            blocks.push(String::new());
        }
        blocks.last_mut().expect("pushed above").push_str(line);
    }
    blocks
}

/// The blocks of a judge output read incrementally, as [`super::Rules::output_blocks`] yields
/// them: each item a block, or the read error that ends the stream.
pub type BlockStream = Box<dyn Iterator<Item = std::io::Result<String>> + Send>;

/// [`split_blocks`] over a reader: a block at a time, holding one block and one line. The
/// output is read as text with invalid UTF-8 replaced line by line, which is what
/// `String::from_utf8_lossy` of the whole text gives (a `\n` never belongs to an invalid
/// sequence). With [`Blocks::separated_by`], every block but the last loses the separator at
/// its end, as [`split_separated`] does.
///
/// What it holds is bounded, whatever the output: a line longer than
/// [`crate::validate::MAX_LINE_BYTES`], or a block longer than [`MAX_BLOCK_BYTES`], ends the
/// stream with an error naming the line (an output that long is no judge output).
pub struct Blocks {
    input: Box<dyn BufRead + Send>,
    starts_case: fn(&str) -> bool,
    /// What joins two blocks in a file, stripped from every block followed by another.
    separator: &'static str,
    /// The block being filled; `None` before the first line.
    pending: Option<String>,
    line: Vec<u8>,
    /// Lines read so far (the 1-based number of the last one).
    lines: usize,
    done: bool,
}

/// Most bytes of one block of a judge output (the largest the games print are a few
/// kilobytes): a longer one is a read error rather than a block held whole.
pub const MAX_BLOCK_BYTES: usize = 16 << 20;

impl Blocks {
    /// The blocks of `input`, each starting at a line for which `starts_case` holds (text before
    /// the first such line is a block of its own), as [`split_blocks`] cuts them.
    pub fn new(input: Box<dyn BufRead + Send>, starts_case: fn(&str) -> bool) -> Self {
        Blocks {
            input,
            starts_case,
            separator: "",
            pending: None,
            line: Vec::new(),
            lines: 0,
            done: false,
        }
    }

    /// Every block followed by another loses `separator` at its end, as
    /// [`split_separated`] strips it (SameGame's blank line: `\n\n` becomes `\n`).
    pub fn separated_by(mut self, separator: &'static str) -> Self {
        self.separator = separator;
        self
    }

    /// Boxed, as a game's `output_blocks` returns it.
    pub fn boxed(self) -> BlockStream {
        Box::new(self)
    }
}

impl Iterator for Blocks {
    type Item = std::io::Result<String>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            self.line.clear();
            let at = self.lines + 1;
            let failed =
                |e: std::io::Error| std::io::Error::new(e.kind(), format!("line {at}: {e}"));
            match crate::validate::read_line(&mut *self.input, &mut self.line) {
                Err(e) => {
                    self.done = true;
                    return Some(Err(failed(e)));
                }
                Ok(0) => {
                    self.done = true;
                    return self.pending.take().map(Ok);
                }
                Ok(_) => self.lines = at,
            }
            let line = String::from_utf8_lossy(&self.line);
            let held = self.pending.as_ref().map_or(0, String::len);
            if held + line.len() > MAX_BLOCK_BYTES && !(self.starts_case)(&line) {
                self.done = true;
                return Some(Err(failed(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("a block longer than {MAX_BLOCK_BYTES} bytes"),
                ))));
            }
            match &mut self.pending {
                Some(block) if !(self.starts_case)(&line) => block.push_str(&line),
                pending => {
                    let finished = pending.replace(line.into_owned());
                    if let Some(mut block) = finished {
                        strip_separator(&mut block, self.separator);
                        return Some(Ok(block));
                    }
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn streamed(text: &[u8], step: usize, drop: bool) -> Vec<String> {
        let blocks = Blocks::new(crate::validate::testing::trickle(text, step), |l| {
            l.starts_with("Case ")
        });
        let blocks = if drop {
            blocks.separated_by("\n")
        } else {
            blocks
        };
        blocks.map(|b| b.expect("no read error")).collect()
    }

    #[test]
    fn streamed_blocks_are_the_whole_split() {
        let texts: [&[u8]; 6] = [
            b"",
            b"junk\nCase 1\nx\n\nCase 2\ny\n\n",
            b"Case 1\n\xffx\xe2\x82\nCase 2\ny",
            b"\n\nCase 1\n\n\n",
            b"no newline at all",
            b"Case 1\r\nab\r\nCase 2\r\n",
        ];
        for text in texts {
            let lossy = String::from_utf8_lossy(text);
            let whole = split_blocks(&lossy, |l| l.starts_with("Case "));
            let mut dropped = whole.clone();
            let last = dropped.len().saturating_sub(1);
            for block in &mut dropped[..last] {
                if block.ends_with("\n\n") {
                    block.pop();
                }
            }
            assert_eq!(
                split_separated(&lossy, |l| l.starts_with("Case "), "\n"),
                dropped,
                "{lossy:?}"
            );
            for step in 1..=9 {
                assert_eq!(streamed(text, step, false), whole, "{lossy:?} by {step}");
                assert_eq!(streamed(text, step, true), dropped, "{lossy:?} by {step}");
            }
        }
    }

    #[test]
    fn a_separator_is_stripped_only_between_blocks_and_only_after_a_whole_line() {
        let starts = |l: &str| l.starts_with("Case ");
        let text = "Case 1\nx\n\nCase 2\ny---Case 3\nz\n---\n";
        assert_eq!(
            split_separated(text, starts, "\n"),
            ["Case 1\nx\n", "Case 2\ny---Case 3\nz\n---\n"]
        );
        let text = "Case 1\nx\n--\nCase 2\ny--\nCase 3\n--\n";
        assert_eq!(
            split_separated(text, starts, "--\n"),
            ["Case 1\nx\n", "Case 2\ny--\n", "Case 3\n--\n"]
        );
        assert_eq!(
            split_separated(text, starts, ""),
            split_blocks(text, starts)
        );
    }

    #[test]
    fn split_blocks_keeps_every_byte() {
        let text = "junk\nCase 1\nx\nCase 2\ny\n";
        let blocks = split_blocks(text, |l| l.starts_with("Case "));
        assert_eq!(blocks, vec!["junk\n", "Case 1\nx\n", "Case 2\ny\n"]);
        assert_eq!(blocks.concat(), text);
    }
}
