//! Text made safe inside XML and HTML: the one escaper of every markup gamebench writes (the
//! JUnit file, testlib's XML result, the HTML report, SVG drawings, exported packages).
//!
//! Invariants: what [`escape`] gives is well-formed XML 1.0 character data and a valid HTML5
//! text or attribute value (`&apos;` is both); a character XML forbids becomes U+FFFD, so a
//! program's stray control byte never breaks a document.

/// The character XML 1.0 forbids in a document replaced by this.
const REPLACEMENT: char = '\u{FFFD}';

/// Whether XML 1.0 allows `c` in a document.
fn allowed(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// `text` escaped for element text or an attribute value: markup characters and quotes as
/// entities, forbidden characters as U+FFFD; line breaks and tabs kept as they are.
pub fn escape(text: &str) -> String {
    escape_with(text, false)
}

/// [`escape`], with line breaks and tabs also written as character references, as an attribute
/// needs them (a parser turns a literal one into a space) and a document wants them when it
/// may be read either way (JUnit's messages).
pub fn escape_attribute(text: &str) -> String {
    escape_with(text, true)
}

fn escape_with(text: &str, breaks: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' if breaks => out.push_str("&#10;"),
            '\r' if breaks => out.push_str("&#13;"),
            '\t' if breaks => out.push_str("&#9;"),
            c if allowed(c) => out.push(c),
            _ => out.push(REPLACEMENT),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_quotes_and_forbidden_characters_are_escaped() {
        assert_eq!(
            escape_attribute("a<b>&\"c'\n\u{1}"),
            "a&lt;b&gt;&amp;&quot;c&apos;&#10;\u{FFFD}"
        );
        assert_eq!(
            escape("a<b>&\"c'\n\t\u{1}"),
            "a&lt;b&gt;&amp;&quot;c&apos;\n\t\u{FFFD}"
        );
        assert_eq!(escape("plain é"), "plain é");
    }
}
