//! How outputs are compared: the white space that only presentation depends on (the first
//! difference of two texts is `difference.rs`), and the split of a judge output into per-case blocks. The
//! checkers of the games and the default [`super::Rules::check`] are built from these.

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_blocks_keeps_every_byte() {
        let text = "junk\nCase 1\nx\nCase 2\ny\n";
        let blocks = split_blocks(text, |l| l.starts_with("Case "));
        assert_eq!(blocks, vec!["junk\n", "Case 1\nx\n", "Case 2\ny\n"]);
        assert_eq!(blocks.concat(), text);
    }
}
