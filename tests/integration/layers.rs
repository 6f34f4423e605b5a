//! The layers of `src/`, kept: every module uses only modules of its own layer or below, and
//! no two modules depend on each other, directly or through others (no import circle).
//!
//! The layers are read from ARCHITECTURE.md (the block between `<!-- layers -->` markers), so the
//! document and the code cannot drift apart: a module missing from it, or a `use` that goes up
//! a layer, fails here.
//!
//! How dependencies are drawn (module granularity: a file, or a folder's `mod.rs`):
//! - every path starting `crate::`, `super::` or `self::` in a file's code (in `use` trees, with
//!   their braces expanded, and inline), comments, strings and `#[cfg(test)]` items removed
//!   (tests may use anything, the registry included);
//! - a path names the deepest module it reaches (`crate::game::Budget` is `game`);
//! - a folder module is the namespace of its children: edges between a module and its own
//!   descendants are not dependencies; any other edge is drawn between the two children of
//!   the folder both sit in (`vexed/bitset/astar/mod.rs` -> `vexed/bitset/workspace.rs` is the
//!   edge `astar -> workspace` inside `vexed/bitset`), and each folder's edges must form no
//!   circle. At the top of `src/`, they must also respect the layers.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path from the crate root (`["games", "vexed", "bitset"]`).
type ModPath = Vec<String>;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file of the library under `dir`, with its module path (`main.rs` is the binary).
fn modules(dir: &Path, prefix: &ModPath, out: &mut BTreeMap<ModPath, PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            let mut inner = prefix.clone();
            inner.push(name);
            modules(&path, &inner, out);
        } else if let Some(stem) = name.strip_suffix(".rs") {
            let module = match stem {
                "mod" => prefix.clone(),
                "lib" if prefix.is_empty() => prefix.clone(),
                "main" if prefix.is_empty() => continue,
                _ => {
                    let mut m = prefix.clone();
                    m.push(stem.to_string());
                    m
                }
            };
            out.insert(module, path);
        }
    }
}

/// `text` without comments, string and character literals (each replaced by a space), so that
/// only code is searched for paths and braces.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            let mut depth = 0;
            let mut j = i;
            while j < b.len() {
                if text[j..].starts_with("/*") {
                    depth += 1;
                    j += 2;
                } else if text[j..].starts_with("*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            i = j;
            out.push(' ');
        } else if let Some(len) = raw_string(rest) {
            i += len;
            out.push(' ');
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            i = j + 1;
            out.push(' ');
        } else if b[i] == b'\'' && is_char_literal(&b[i..]) {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'\'' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            i = j + 1;
            out.push(' ');
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The length of a raw string literal (`r"..."`, `r#"..."#`, `br"..."`) at the start of `s`.
fn raw_string(s: &str) -> Option<usize> {
    let start = if s.starts_with("br") {
        2
    } else if s.starts_with('r') {
        1
    } else {
        return None;
    };
    let hashes = s[start..].bytes().take_while(|&c| c == b'#').count();
    if s.as_bytes().get(start + hashes) != Some(&b'"') {
        return None;
    }
    let close = format!("\"{}", "#".repeat(hashes));
    let body = start + hashes + 1;
    s[body..].find(&close).map(|end| body + end + close.len())
}

/// Whether a `'` starts a character literal (`'a'`, `'\n'`, `'{'`), not a lifetime.
fn is_char_literal(b: &[u8]) -> bool {
    match b.get(1) {
        Some(b'\\') => true,
        Some(_) => {
            // One character (possibly multi-byte) then a closing quote.
            let s = std::str::from_utf8(&b[1..b.len().min(6)]).unwrap_or("");
            let mut chars = s.chars();
            chars.next();
            chars.next() == Some('\'')
        }
        None => false,
    }
}

/// `code` without the items marked `#[cfg(test)]`.
fn without_tests(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let brace = after.find('{');
        // The `;` that ends an item, not one inside `[T; N]` or `(...)`.
        let mut depth = 0i32;
        let semi = after.char_indices().find_map(|(k, c)| {
            match c {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                ';' if depth == 0 => return Some(k),
                _ => {}
            }
            None
        });
        let end = match (brace, semi) {
            (Some(b), Some(s)) if s < b => s + 1,
            (Some(b), _) => {
                let mut depth = 0;
                let mut end = after.len();
                for (k, c) in after[b..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = b + k + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (None, Some(s)) => s + 1,
            (None, None) => after.len(),
        };
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The full paths a `use` tree names (`crate::{a::B, c::{D, E}}` gives three).
fn expand_use(tree: &str) -> Vec<String> {
    let tree: String = tree.split_whitespace().collect();
    let Some(open) = tree.find('{') else {
        return vec![tree];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (k, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand_use(&format!("{prefix}{p}")))
        .collect()
}

/// Every path starting `crate::`, `super::` or `self::` in `code`, as written.
fn paths_in(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    // `use` trees first (their braces), then every inline path.
    let mut rest = code;
    while let Some(at) = find_word(rest, "use") {
        let after = &rest[at + 3..];
        let end = after.find(';').unwrap_or(after.len());
        let tree = after[..end].trim();
        if tree.starts_with("crate") || tree.starts_with("super") || tree.starts_with("self") {
            paths.extend(expand_use(tree));
        }
        rest = &after[end..];
    }
    let bytes = code.as_bytes();
    for root in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(k) = code[from..].find(root) {
            let start = from + k;
            from = start + root.len();
            let boundary = start == 0
                || !(bytes[start - 1].is_ascii_alphanumeric()
                    || bytes[start - 1] == b'_'
                    || bytes[start - 1] == b':');
            if !boundary {
                continue;
            }
            let end = code[start..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| start + e);
            paths.push(code[start..end].trim_end_matches(':').to_string());
        }
    }
    paths
}

/// Where the word `word` occurs in `text` (not inside another identifier).
fn find_word(text: &str, word: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(k) = text[from..].find(word) {
        let at = from + k;
        let before = at == 0 || !(b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_');
        let after = b
            .get(at + word.len())
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || *c == b'_'));
        if before && after {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// The module `path` (as written in module `from`) reaches: the deepest existing module.
fn resolve(path: &str, from: &ModPath, known: &BTreeSet<ModPath>) -> Option<ModPath> {
    let mut parts = path.split("::").filter(|p| !p.is_empty());
    let mut module: ModPath = match parts.next()? {
        "crate" => Vec::new(),
        "self" => from.clone(),
        "super" => from[..from.len().checked_sub(1)?].to_vec(),
        _ => return None,
    };
    for part in parts {
        if part == "super" {
            module.pop();
            continue;
        }
        let mut deeper = module.clone();
        deeper.push(part.to_string());
        if known.contains(&deeper) {
            module = deeper;
        } else {
            break;
        }
    }
    Some(module)
}

/// The dependency edges inside each folder: folder -> (child -> children it uses).
type FolderEdges = BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>>;

/// The modules declared `#[cfg(test)] mod NAME;` in `code` (their files are test code).
fn test_modules(code: &str, module: &ModPath) -> Vec<ModPath> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        let after = rest[at + "#[cfg(test)]".len()..].trim_start();
        let after = after
            .strip_prefix("pub(crate)")
            .unwrap_or(after)
            .trim_start();
        if let Some(decl) = after.strip_prefix("mod ")
            && let Some(end) = decl.find(';')
            && decl[..end]
                .trim()
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_')
        {
            let mut child = module.clone();
            child.push(decl[..end].trim().to_string());
            found.push(child);
        }
        rest = &rest[at + 1..];
    }
    found
}

fn folder_edges() -> FolderEdges {
    let mut files = BTreeMap::new();
    modules(&src(), &Vec::new(), &mut files);
    let known: BTreeSet<ModPath> = files.keys().cloned().collect();
    let texts: BTreeMap<&ModPath, String> = files
        .iter()
        .map(|(m, p)| (m, code_only(&std::fs::read_to_string(p).unwrap())))
        .collect();
    let tests: Vec<ModPath> = texts
        .iter()
        .flat_map(|(m, code)| test_modules(code, m))
        .collect();
    let mut edges = FolderEdges::new();
    for module in files.keys() {
        if tests.iter().any(|t| module.starts_with(t)) {
            continue; // test code may use anything
        }
        let code = without_tests(&texts[module]);
        for written in paths_in(&code) {
            let Some(target) = resolve(&written, module, &known) else {
                continue;
            };
            let common = module
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            if common == module.len() || common == target.len() {
                continue; // a module and its own descendant or ancestor
            }
            edges
                .entry(module[..common].to_vec())
                .or_default()
                .entry(module[common].clone())
                .or_default()
                .insert(target[common].clone());
        }
    }
    edges
}

/// A circle among `edges`, if there is one (its modules in order).
fn circle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        stack.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            match state.get(next.as_str()) {
                Some(1) => {
                    let at = stack.iter().position(|n| n == next).unwrap();
                    let mut found = stack[at..].to_vec();
                    found.push(next.clone());
                    return Some(found);
                }
                Some(_) => {}
                None => {
                    if let Some(found) = visit(next, edges, state, stack) {
                        return Some(found);
                    }
                }
            }
        }
        stack.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in edges.keys() {
        if !state.contains_key(node.as_str())
            && let Some(found) = visit(node, edges, &mut state, &mut Vec::new())
        {
            return Some(found);
        }
    }
    None
}

/// The layers of ARCHITECTURE.md, lowest first: (name, top-level modules).
fn layers() -> Vec<(String, Vec<String>)> {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md"))
            .unwrap();
    let block = doc
        .split("<!-- layers -->")
        .nth(1)
        .expect("ARCHITECTURE.md has a block between <!-- layers --> markers");
    block
        .lines()
        .filter_map(|line| {
            let (name, modules) = line.split_once(':')?;
            let name = name.trim().trim_start_matches("```").trim();
            (!name.is_empty()).then(|| {
                (
                    name.to_string(),
                    modules.split_whitespace().map(str::to_string).collect(),
                )
            })
        })
        .collect()
}

#[test]
fn no_folder_of_src_has_an_import_circle() {
    let mut circles = Vec::new();
    for (folder, edges) in folder_edges() {
        if let Some(found) = circle(&edges) {
            circles.push(format!(
                "in src/{}: {}",
                folder.join("/"),
                found.join(" -> ")
            ));
        }
    }
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

#[test]
fn every_module_uses_only_its_layer_and_those_below() {
    let layers = layers();
    let layer_of: BTreeMap<&str, usize> = layers
        .iter()
        .enumerate()
        .flat_map(|(i, (_, modules))| modules.iter().map(move |m| (m.as_str(), i)))
        .collect();
    let mut files = BTreeMap::new();
    modules(&src(), &Vec::new(), &mut files);
    let top: BTreeSet<&str> = files
        .keys()
        .filter_map(|m| m.first().map(String::as_str))
        .collect();
    let unplaced: Vec<&&str> = top.iter().filter(|m| !layer_of.contains_key(**m)).collect();
    assert!(
        unplaced.is_empty(),
        "modules missing from ARCHITECTURE.md's layers: {unplaced:?}"
    );
    let stale: Vec<&&str> = layer_of.keys().filter(|m| !top.contains(**m)).collect();
    assert!(
        stale.is_empty(),
        "ARCHITECTURE.md's layers name modules src/ does not have: {stale:?}"
    );
    let edges = folder_edges();
    let mut upward = Vec::new();
    for (from, targets) in edges.get(&Vec::new()).into_iter().flatten() {
        for to in targets {
            let (a, b) = (layer_of[from.as_str()], layer_of[to.as_str()]);
            if b > a {
                upward.push(format!(
                    "{from} ({}) uses {to} ({})",
                    layers[a].0, layers[b].0
                ));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "uses that go up a layer:\n{}",
        upward.join("\n")
    );
}

/// The module table of ARCHITECTURE.md: module -> the modules its "uses" column names.
fn documented_uses() -> BTreeMap<String, BTreeSet<String>> {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md"))
            .unwrap();
    let block = doc
        .split("<!-- modules -->")
        .nth(1)
        .expect("ARCHITECTURE.md has a table between <!-- modules --> markers");
    let names = |cell: &str| -> Vec<String> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .map(|n| n.trim_end_matches(".rs").trim_end_matches('/').to_string())
            .collect()
    };
    block
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
            let module = names(cells[0]).remove(0);
            let uses = names(cells.last().unwrap()).into_iter().collect();
            (module, uses)
        })
        .collect()
}

#[test]
fn the_module_table_says_what_each_module_uses() {
    let documented = documented_uses();
    let edges = folder_edges();
    let actual = edges.get(&Vec::new()).cloned().unwrap_or_default();
    let mut files = BTreeMap::new();
    modules(&src(), &Vec::new(), &mut files);
    let mut wrong = Vec::new();
    for module in files
        .keys()
        .filter_map(|m| m.first())
        .collect::<BTreeSet<_>>()
    {
        let uses = actual.get(module).cloned().unwrap_or_default();
        match documented.get(module) {
            None => wrong.push(format!("{module}: no row in the module table")),
            Some(doc) if *doc != uses => wrong.push(format!(
                "{module}: the table says it uses {doc:?}, the code uses {uses:?}"
            )),
            Some(_) => {}
        }
    }
    assert!(
        wrong.is_empty(),
        "ARCHITECTURE.md's module table:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_games_use_only_the_contract_and_validation() {
    let edges = folder_edges();
    let used = edges
        .get(&Vec::new())
        .and_then(|top| top.get("games"))
        .cloned()
        .unwrap_or_default();
    let allowed: BTreeSet<String> = ["game", "validate"].map(String::from).into();
    let extra: Vec<&String> = used.difference(&allowed).collect();
    assert!(extra.is_empty(), "src/games uses {extra:?}");
}

#[test]
fn the_reader_sees_what_a_maintainer_sees() {
    // The parsing above, on cases a careless reader would get wrong.
    assert_eq!(
        expand_use("crate::{a::B, c::{D, e::F}}"),
        ["crate::a::B", "crate::c::D", "crate::c::e::F"]
    );
    let code = code_only("let s = \"crate::x\"; // crate::y\nuse crate::z; let c = '{';");
    assert_eq!(paths_in(&code), ["crate::z", "crate::z"]);
    let code = without_tests("use crate::a;\n#[cfg(test)]\nmod tests { use crate::b; }\n");
    assert_eq!(paths_in(&code), ["crate::a", "crate::a"]);
    let code = without_tests("#[cfg(test)]\nfn f() -> [u8; 3] { crate::b::g() }\n");
    assert!(paths_in(&code).is_empty(), "{code}");
    assert_eq!(
        test_modules(
            "#[cfg(test)]\nmod tests;\n#[cfg(test)]\nmod inline {}",
            &vec!["x".into()]
        ),
        [vec!["x".to_string(), "tests".to_string()]]
    );
    let known: BTreeSet<ModPath> = [vec!["a".into()], vec!["a".into(), "b".into()]].into();
    let from: ModPath = vec!["a".into(), "c".into()];
    assert_eq!(
        resolve("super::b::Item", &from, &known),
        Some(vec!["a".to_string(), "b".to_string()])
    );
    assert_eq!(
        resolve("crate::a::Item", &from, &known),
        Some(vec!["a".to_string()])
    );
    let mut edges = BTreeMap::new();
    edges.insert("x".to_string(), BTreeSet::from(["y".to_string()]));
    assert_eq!(circle(&edges), None);
    edges.insert("y".to_string(), BTreeSet::from(["x".to_string()]));
    assert!(circle(&edges).is_some());
}
