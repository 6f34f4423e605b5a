//! How outputs are compared: the first difference of two texts, the white space that only
//! presentation depends on, and the split of a judge output into per-case blocks. The
//! checkers of the games and the default [`super::Rules::check`] are built from these.

use crate::validate::excerpt;

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

/// Longest line [`first_difference`] quotes whole.
const SHOWN_LINE_CHARS: usize = 60;
/// Characters an excerpt shows before the first difference.
const EXCERPT_LEAD: usize = 8;

/// Describes the first line where two texts differ, or `None` when they are equal. Long lines
/// are shown as excerpts around the first differing column.
pub fn first_difference(expected: &str, actual: &str) -> Option<String> {
    if expected == actual {
        return None;
    }
    let mut exp = expected.split_inclusive('\n');
    let mut act = actual.split_inclusive('\n');
    let mut line = 1;
    loop {
        match (exp.next(), act.next()) {
            (Some(e), Some(a)) if e == a => line += 1,
            (Some(e), Some(a)) => {
                let (e, a) = (e.trim_end_matches('\n'), a.trim_end_matches('\n'));
                if e.chars().count().max(a.chars().count()) <= SHOWN_LINE_CHARS {
                    return Some(format!("line {line}: expected {e:?}, got {a:?}"));
                }
                // Long lines: an excerpt of each from a little before the first difference.
                let column = e.chars().zip(a.chars()).take_while(|(x, y)| x == y).count();
                return Some(format!(
                    "line {line}, column {}: expected {}, got {}",
                    column + 1,
                    excerpt(e.as_bytes(), column.saturating_sub(EXCERPT_LEAD)),
                    excerpt(a.as_bytes(), column.saturating_sub(EXCERPT_LEAD))
                ));
            }
            (Some(e), None) => {
                return Some(format!(
                    "line {line}: expected {:?}, got end of output",
                    e.trim_end_matches('\n')
                ));
            }
            (None, Some(a)) => {
                return Some(format!(
                    "line {line}: expected end of output, got {:?}",
                    a.trim_end_matches('\n')
                ));
            }
            (None, None) => return Some("outputs differ in line endings".to_string()),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_difference_names_the_line() {
        assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
        assert_eq!(
            first_difference("a\nb\n", "a\nc\n").unwrap(),
            "line 2: expected \"b\", got \"c\""
        );
        assert!(
            first_difference("a\n", "a\nz\n")
                .unwrap()
                .starts_with("line 2: expected end")
        );
        assert!(
            first_difference("a\nz\n", "a\n")
                .unwrap()
                .contains("got end of output")
        );
        assert!(first_difference("a\n", "a").is_some());
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
    fn split_blocks_keeps_every_byte() {
        let text = "junk\nCase 1\nx\nCase 2\ny\n";
        let blocks = split_blocks(text, |l| l.starts_with("Case "));
        assert_eq!(blocks, vec!["junk\n", "Case 1\nx\n", "Case 2\ny\n"]);
        assert_eq!(blocks.concat(), text);
    }
}
