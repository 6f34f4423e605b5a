//! The small part of YAML that `problem.yaml` and `submissions.yaml` use: nested mappings by
//! indentation, scalars (plain or quoted), flow lists (`[AC, WA]`) and block lists (`- x`),
//! comments. Anything else (anchors, multi-line strings, flow mappings) is an error naming
//! its line, never a silent misreading.

use std::collections::BTreeMap;

/// A value of the subset.
#[derive(Debug, Clone, PartialEq)]
pub enum Yaml {
    Scalar(String),
    List(Vec<Yaml>),
    Map(BTreeMap<String, Yaml>),
}

impl Yaml {
    /// The value under `key` of a mapping.
    pub fn get(&self, key: &str) -> Option<&Yaml> {
        match self {
            Yaml::Map(map) => map.get(key),
            _ => None,
        }
    }

    /// A scalar's text.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Yaml::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// A scalar read as a number.
    pub fn as_f64(&self) -> Option<f64> {
        self.as_str()?.parse().ok().filter(|x: &f64| x.is_finite())
    }

    /// A list's scalars, or a lone scalar as a list of one.
    pub fn strings(&self) -> Vec<String> {
        match self {
            Yaml::Scalar(s) => vec![s.clone()],
            Yaml::List(items) => items
                .iter()
                .filter_map(|i| i.as_str().map(String::from))
                .collect(),
            Yaml::Map(_) => Vec::new(),
        }
    }
}

/// Where and why a text is not in the subset.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct YamlError {
    pub line: usize,
    pub message: String,
}

/// One meaningful line: its number, indentation and content without the comment.
struct Line<'a> {
    number: usize,
    indent: usize,
    text: &'a str,
}

/// Parses `text`; an empty document is an empty mapping.
pub fn parse(text: &str) -> Result<Yaml, YamlError> {
    let lines: Vec<Line> = text
        .lines()
        .enumerate()
        .filter_map(|(i, raw)| {
            let text = strip_comment(raw).trim_end();
            let indent = text.len() - text.trim_start().len();
            let text = text.trim_start();
            (!text.is_empty() && text != "---").then_some(Line {
                number: i + 1,
                indent,
                text,
            })
        })
        .collect();
    let mut at = 0;
    if lines.is_empty() {
        return Ok(Yaml::Map(BTreeMap::new()));
    }
    let value = block(&lines, &mut at, lines[0].indent)?;
    match lines.get(at) {
        Some(extra) => Err(YamlError {
            line: extra.number,
            message: "unexpected indentation".into(),
        }),
        None => Ok(value),
    }
}

/// The text before a comment (`#` at the start or after a space, outside quotes).
fn strip_comment(line: &str) -> &str {
    let mut quote = None;
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '#' && previous.is_whitespace() => return &line[..i],
            None => {}
        }
        previous = c;
    }
    line
}

/// A mapping or a block list whose lines are indented exactly `indent`.
fn block(lines: &[Line], at: &mut usize, indent: usize) -> Result<Yaml, YamlError> {
    let first = &lines[*at];
    if first.text.starts_with("- ") || first.text == "-" {
        let mut items = Vec::new();
        while let Some(line) = lines.get(*at) {
            if line.indent != indent || !(line.text.starts_with("- ") || line.text == "-") {
                break;
            }
            *at += 1;
            let rest = line.text[1..].trim();
            if rest.is_empty() {
                items.push(nested(lines, at, indent, line.number)?);
            } else {
                items.push(scalar_or_flow(rest, line.number)?);
            }
        }
        return Ok(Yaml::List(items));
    }
    let mut map = BTreeMap::new();
    while let Some(line) = lines.get(*at) {
        if line.indent < indent {
            break;
        }
        if line.indent > indent {
            return Err(YamlError {
                line: line.number,
                message: "unexpected indentation".into(),
            });
        }
        let (key, rest) = split_key(line.text).ok_or_else(|| YamlError {
            line: line.number,
            message: format!("expected `key: value`, found {:?}", line.text),
        })?;
        *at += 1;
        let value = if rest.is_empty() {
            nested(lines, at, indent, line.number)?
        } else {
            scalar_or_flow(rest, line.number)?
        };
        map.insert(key, value);
    }
    Ok(Yaml::Map(map))
}

/// The block under a key or a dash: more indented lines, or an empty scalar without them.
fn nested(lines: &[Line], at: &mut usize, indent: usize, _line: usize) -> Result<Yaml, YamlError> {
    match lines.get(*at) {
        Some(next) if next.indent > indent => block(lines, at, next.indent),
        // A block list may sit at its key's own indentation.
        Some(next) if next.indent == indent && next.text.starts_with("- ") => {
            block(lines, at, indent)
        }
        _ => Ok(Yaml::Scalar(String::new())),
    }
}

/// `key: rest` (the key plain or quoted).
fn split_key(text: &str) -> Option<(String, &str)> {
    if let Some(q) = text.chars().next().filter(|c| *c == '"' || *c == '\'') {
        let end = text[1..].find(q)? + 1;
        let rest = text[end + 1..].trim_start().strip_prefix(':')?;
        return Some((text[1..end].to_string(), rest.trim()));
    }
    let colon = text
        .find(": ")
        .or_else(|| text.ends_with(':').then(|| text.len() - 1))?;
    Some((text[..colon].trim().to_string(), text[colon + 1..].trim()))
}

fn scalar_or_flow(text: &str, line: usize) -> Result<Yaml, YamlError> {
    let unsupported = |what: &str| YamlError {
        line,
        message: format!("{what} are not supported here"),
    };
    match text.chars().next() {
        Some('[') => {
            let inner = text
                .strip_prefix('[')
                .and_then(|t| t.strip_suffix(']'))
                .ok_or_else(|| unsupported("multi-line flow lists"))?;
            let items = inner
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| scalar(s, line))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Yaml::List(items))
        }
        Some('{') => Err(unsupported("flow mappings")),
        Some('&' | '*' | '|' | '>' | '!') => Err(unsupported("anchors, tags and block scalars")),
        _ => scalar(text, line),
    }
}

fn scalar(text: &str, line: usize) -> Result<Yaml, YamlError> {
    for q in ['"', '\''] {
        if text.starts_with(q) {
            return match text.len() >= 2 && text.ends_with(q) {
                true => Ok(Yaml::Scalar(text[1..text.len() - 1].to_string())),
                false => Err(YamlError {
                    line,
                    message: format!("unterminated quoted string {text:?}"),
                }),
            };
        }
    }
    Ok(Yaml::Scalar(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_subset() {
        let text = "problem_format_version: 2025-09\nname: 'Yut # Nori'  # a comment\nlimits:\n  time_limit: 2.5\n  time_multipliers:\n    ac_to_time_limit: 3\nlist:\n- a\n- b\nflow: [AC, WA]\n";
        let y = parse(text).unwrap();
        assert_eq!(y.get("name").unwrap().as_str(), Some("Yut # Nori"));
        let limits = y.get("limits").unwrap();
        assert_eq!(limits.get("time_limit").unwrap().as_f64(), Some(2.5));
        let m = limits.get("time_multipliers").unwrap();
        assert_eq!(m.get("ac_to_time_limit").unwrap().as_f64(), Some(3.0));
        assert_eq!(y.get("list").unwrap().strings(), ["a", "b"]);
        assert_eq!(y.get("flow").unwrap().strings(), ["AC", "WA"]);
    }

    #[test]
    fn refuses_what_it_does_not_read() {
        assert!(parse("a: {b: 1}\n").is_err());
        assert!(parse("a: |\n  text\n").is_err());
        assert!(parse("a: 1\n   b: 2\n").is_err());
        assert!(parse("just text\n").is_err());
        assert!(parse("a: 'open\n").is_err());
    }
}
