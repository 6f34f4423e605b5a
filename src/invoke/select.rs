//! `invoke --select DIR`: the selected tests written as a folder of `.in`/`.out` files.
//!
//! A test that is a whole file (a one-case file) is copied with its expected output. A test
//! that is one case of a several-case file is written as a complete judge input of its own
//! when the game can write a case alone (`Game::case_input`: every bundled game), with its
//! expected block renumbered as case 1 (`Game::renumber_block`: `Grid 1.`, `Case 1`);
//! otherwise its whole file is selected, once.
//!
//! Invariants: no test file or expected output of the invocation is ever overwritten; every
//! file is written whole ([`crate::util::atomic::write_inside`]); names are the tests' paths with
//! `/` as `-` (and `-cN` for case N alone), made unique in selection order.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::Invocation;
use crate::corpus::{INPUT_EXTENSION, OUTPUT_EXTENSION};
use crate::util::atomic::{Inputs, write_inside};

/// Why the selection could not be written.
#[derive(Debug, thiserror::Error)]
pub enum SelectError {
    #[error("--select {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("--select: test {test} has no expected output to write: {why}")]
    NoExpected { test: String, why: String },
    #[error(
        "--select: {path} is a test of this invocation (or its expected output): not overwritten"
    )]
    WouldOverwrite { path: PathBuf },
}

/// What was written: one line per file pair (`name.in <- test`), and whether some tests were
/// selected as their whole file.
#[derive(Debug, Default)]
pub struct Written {
    pub files: Vec<(String, String)>,
    pub whole_files: usize,
}

/// The stem of a file name for `name` (a test file's relative path): `a/b.in` -> `a-b`.
fn stem(name: &str) -> String {
    let name = name
        .strip_suffix(&format!(".{INPUT_EXTENSION}"))
        .unwrap_or(name);
    name.replace(['/', '\\'], "-")
}

/// Writes the tests `selected` (indices into `inv.tests`) under `dir` (created if needed).
pub fn write(inv: &Invocation, selected: &[usize], dir: &Path) -> Result<Written, SelectError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| SelectError::Io { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    // The invocation's own files, which the selection must never replace.
    // By identity: any name of them (a link, a hard link) is theirs too.
    let mut protected = Inputs::new();
    for f in &inv.files {
        protected.add(&f.path);
        protected.add(&f.expected_path());
    }
    let game = inv.game;
    let mut written = Written::default();
    let mut whole_done: BTreeSet<usize> = BTreeSet::new();
    let mut names: BTreeSet<String> = BTreeSet::new();
    let mut pending: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    for &t in selected {
        let test = &inv.tests[t];
        let f = test.file;
        let cases = &inv.parsed[f];
        let expected = |t: usize| {
            inv.expected[t]
                .as_deref()
                .map_err(|why| SelectError::NoExpected {
                    test: inv.tests[t].name.clone(),
                    why: why.to_string(),
                })
        };
        let alone = (cases.len() > 1)
            .then(|| cases[test.case - 1].case.as_ref().ok())
            .flatten()
            .and_then(|case| game.case_input(case.as_ref()));
        let (base, input, output, what) = match alone {
            Some(input) => (
                format!("{}-c{}", stem(&test.file_name), test.case),
                input.into_bytes(),
                game.join(&[&game.renumber_block(expected(t)?, test.case, 1)])
                    .into_bytes(),
                test.name.clone(),
            ),
            None => {
                if !whole_done.insert(f) {
                    continue;
                }
                if cases.len() > 1 {
                    written.whole_files += 1;
                }
                let output = match &inv.out_files[f] {
                    Some(bytes) => bytes.clone(),
                    None => {
                        let blocks: Vec<&str> = inv
                            .tests
                            .iter()
                            .enumerate()
                            .filter(|(_, x)| x.file == f)
                            .map(|(i, _)| expected(i))
                            .collect::<Result<_, _>>()?;
                        game.join(&blocks).into_bytes()
                    }
                };
                (
                    stem(&test.file_name),
                    inv.inputs[f].clone(),
                    output,
                    test.file_name.clone(),
                )
            }
        };
        let mut unique = base.clone();
        let mut n = 1;
        while !names.insert(unique.clone()) {
            n += 1;
            unique = format!("{base}-{n}");
        }
        for (extension, bytes) in [(INPUT_EXTENSION, input), (OUTPUT_EXTENSION, output)] {
            let path = dir.join(format!("{unique}.{extension}"));
            if protected.holding(&path).is_some() {
                return Err(SelectError::WouldOverwrite { path });
            }
            pending.push((path, bytes));
        }
        written
            .files
            .push((format!("{unique}.{INPUT_EXTENSION}"), what));
    }
    // Every target checked before the first is written: a refused selection writes nothing.
    for (path, bytes) in pending {
        // A link planted in the folder is replaced, not written through.
        write_inside(dir, &path, &bytes).map_err(io(&path))?;
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_flatten_folders() {
        assert_eq!(stem("a/b.in"), "a-b");
        assert_eq!(stem("rules.in"), "rules");
        assert_eq!(stem("noext"), "noext");
    }
}
