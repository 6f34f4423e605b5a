//! The output paths of `run`, checked before any case runs: each can be written (not a
//! directory, its folder writable), no two name the same file, none is an input of the corpus
//! (a `.in`, or the expected `.out` beside one), and `--out-dir` would overwrite none of them
//! nor write two inputs' outputs to one file. Names are compared with their folders resolved
//! (links followed); a file with several hard links is compared by identity (device and
//! inode) with the corpus's files, whose identities are read only then.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use crate::corpus::CaseFile;
use crate::runner::{EngineTable, OutDirSink};
use crate::util::atomic::{Inputs, Target};

/// The corpus's files by identity, read the first time an output has several hard links.
struct Linked<'a> {
    files: &'a [CaseFile],
    inputs: Option<Inputs>,
}

impl Linked<'_> {
    /// The corpus file `meta` (an output's) is another name of, if any.
    fn input_of(&mut self, path: &Path, meta: std::fs::Metadata) -> Option<PathBuf> {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() < 2 {
            return None;
        }
        let files = self.files;
        let inputs = self.inputs.get_or_insert_with(|| {
            let mut inputs = Inputs::new();
            for file in files {
                let [out, ans] = file.expected_candidates();
                for path in [file.path.as_path(), &out, &ans] {
                    inputs.add(path);
                }
            }
            inputs
        });
        inputs.holding_entry(path).map(Path::to_path_buf)
    }
}

pub(super) use crate::util::atomic::is_stdout;

/// Canonical folders, computed once per folder (a corpus has far fewer folders than files).
#[derive(Default)]
struct Canon {
    folders: HashMap<PathBuf, Option<PathBuf>>,
}

impl Canon {
    /// `path` with its folder canonical (links resolved), or `None` when the folder does not
    /// exist (then nothing of the corpus is there).
    fn of(&mut self, path: &Path) -> Option<PathBuf> {
        let name = path.file_name()?;
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let canonical = self
            .folders
            .entry(folder)
            .or_insert_with_key(|f| std::fs::canonicalize(f).ok())
            .clone()?;
        Some(canonical.join(name))
    }
}

/// Checks every output against the others and the corpus; `outputs` are (option, path).
pub(super) fn check(
    outputs: &[(&str, &Path)],
    out_dir: Option<&Path>,
    files: &[CaseFile],
    table: &EngineTable,
) -> Result<()> {
    let mut canon = Canon::default();
    // The corpus's files: every input and its expected output.
    let mut corpus: HashMap<PathBuf, &Path> = HashMap::new();
    for file in files {
        let [out, ans] = file.expected_candidates();
        for path in [file.path.clone(), out, ans] {
            if let Some(key) = canon.of(&path) {
                corpus.insert(key, &file.path);
            }
        }
    }
    let mut linked = Linked {
        files,
        inputs: None,
    };
    let mut written: HashMap<PathBuf, &str> = HashMap::new();
    for &(option, path) in outputs {
        if is_stdout(path) {
            continue;
        }
        let target =
            Target::of(path).map_err(|e| anyhow::anyhow!("{option} {}: {e}", path.display()))?;
        target
            .check_writable()
            .map_err(|e| anyhow::anyhow!("{option}: cannot create {}: {e}", path.display()))?;
        let Target::Replace(file) = target else {
            // A device or FIFO is written in place; several outputs may share one.
            continue;
        };
        if let Some(input) = std::fs::symlink_metadata(&file)
            .ok()
            .and_then(|meta| linked.input_of(&file, meta))
        {
            bail!(
                "{option} {} would overwrite a file of the corpus ({}, by another name)",
                path.display(),
                input.display()
            );
        }
        let Some(key) = canon.of(&file) else { continue };
        if let Some(input) = corpus.get(&key) {
            bail!(
                "{option} {} would overwrite a file of the corpus ({} or its expected output)",
                path.display(),
                input.display()
            );
        }
        if let Some(other) = written.insert(key, option) {
            bail!(
                "{other} and {option} name the same file {}: each output needs its own",
                path.display()
            );
        }
    }
    match out_dir {
        Some(dir) => check_out_dir(
            dir,
            files,
            table,
            (&mut canon, &corpus, &mut linked, &written),
        ),
        None => Ok(()),
    }
}

/// The files `--out-dir DIR` will write, checked against each other, the corpus (by path and
/// by identity) and the other outputs (`written`).
fn check_out_dir<'a>(
    dir: &Path,
    files: &'a [CaseFile],
    table: &EngineTable,
    (canon, corpus, linked, written): (
        &mut Canon,
        &HashMap<PathBuf, &Path>,
        &mut Linked<'a>,
        &HashMap<PathBuf, &str>,
    ),
) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        bail!("--out-dir {}: not a directory", dir.display());
    }
    let sink = OutDirSink::new(dir, table.several_names());
    let mut outputs_of: HashMap<PathBuf, &Path> = HashMap::new();
    let mut seen = HashSet::new();
    for file in files {
        for spec in table.of(file.game).iter() {
            let path = sink.output_path(file, spec.name());
            if !seen.insert(path.clone()) {
                let other = outputs_of.get(&path).copied().unwrap_or(&file.path);
                bail!(
                    "--out-dir {}: {} and {} would both write {} (same path under different roots); use one root, or run them apart",
                    dir.display(),
                    other.display(),
                    file.path.display(),
                    path.display()
                );
            }
            outputs_of.insert(path.clone(), &file.path);
            // The entry itself: a symbolic link planted there is replaced, not followed.
            if let Some(input) = std::fs::symlink_metadata(&path)
                .ok()
                .and_then(|meta| linked.input_of(&path, meta))
            {
                bail!(
                    "--out-dir {} would overwrite {} (a file of the corpus: {}, by another name); choose a folder outside the corpus",
                    dir.display(),
                    path.display(),
                    input.display()
                );
            }
            let Some(key) = canon.of(&path) else { continue };
            if let Some(input) = corpus.get(&key) {
                bail!(
                    "--out-dir {} would overwrite {} (a file of the corpus: {} or its expected output); choose a folder outside the corpus",
                    dir.display(),
                    path.display(),
                    input.display()
                );
            }
            if let Some(option) = written.get(&key) {
                bail!(
                    "--out-dir {} would overwrite the {option} file {}",
                    dir.display(),
                    path.display()
                );
            }
        }
    }
    Ok(())
}
