//! Outputs kept off inputs. A command collects the files it reads (its inputs, expected
//! outputs, shard files, manifests) as [`Inputs`], by identity (device and inode), and refuses
//! an output that resolves to one of them before it writes anything: by any name, through a
//! symbolic link (followed) or a hard link (same inode).
//!
//! And outputs kept inside their folder: [`AtomicFile::create_inside`] and [`write_inside`]
//! write a file under a folder (`run --out-dir`) without following a link planted inside it:
//! a link at the file's place is replaced itself, a folder on the way that leads out of the
//! folder is refused.

use std::collections::HashMap;
use std::io::{BufWriter, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::{AtomicFile, kind_of, remove_stale_temporaries, temporary_path};

/// A file's identity: its device and inode, shared by every name of it (its hard links, and
/// the links that lead to it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Identity {
    dev: u64,
    ino: u64,
}

impl Identity {
    /// The identity of what `path` leads to (links followed); `None` when nothing is there.
    pub fn of(path: &Path) -> Option<Identity> {
        std::fs::metadata(path).ok().map(|m| Identity::from(&m))
    }

    /// The identity of the entry `path` itself (a link not followed).
    pub fn of_entry(path: &Path) -> Option<Identity> {
        std::fs::symlink_metadata(path)
            .ok()
            .map(|m| Identity::from(&m))
    }

    fn from(meta: &std::fs::Metadata) -> Identity {
        Identity {
            dev: meta.dev(),
            ino: meta.ino(),
        }
    }
}

/// The files a command reads, by identity, each with the name it was given by.
#[derive(Debug, Default)]
pub struct Inputs {
    by_identity: HashMap<Identity, PathBuf>,
}

/// An output that would land on an input.
#[derive(Debug, thiserror::Error)]
#[error(
    "{} is {}, which this command reads; it is never written over: name another file",
    output.display(),
    if output == input { "an input".to_string() } else { format!("the input {} by another name", input.display()) }
)]
pub struct LandsOnInput {
    pub output: PathBuf,
    pub input: PathBuf,
}

impl Inputs {
    pub fn new() -> Inputs {
        Inputs::default()
    }

    /// Adds the file `path` leads to; nothing when it does not exist (nothing to protect).
    pub fn add(&mut self, path: &Path) {
        if let Some(identity) = Identity::of(path) {
            self.by_identity
                .entry(identity)
                .or_insert_with(|| path.to_path_buf());
        }
    }

    /// The input `path` leads to (links followed, hard links by inode), if it is one.
    pub fn holding(&self, path: &Path) -> Option<&Path> {
        let identity = Identity::of(path)?;
        self.by_identity.get(&identity).map(PathBuf::as_path)
    }

    /// The input the entry `path` itself is (a hard link to one; a link not followed).
    pub fn holding_entry(&self, path: &Path) -> Option<&Path> {
        let identity = Identity::of_entry(path)?;
        self.by_identity.get(&identity).map(PathBuf::as_path)
    }

    /// An error when writing `output` (links followed) would write over an input.
    pub fn refuse(&self, output: &Path) -> Result<(), LandsOnInput> {
        match self.holding(output) {
            Some(input) => Err(LandsOnInput {
                output: output.to_path_buf(),
                input: input.to_path_buf(),
            }),
            None => Ok(()),
        }
    }

    /// Whether no input was found.
    pub fn is_empty(&self) -> bool {
        self.by_identity.is_empty()
    }
}

/// Writes `bytes` to `path` inside `dir` as [`AtomicFile::create_inside`] does: links not
/// followed, nothing written outside `dir`.
pub fn write_inside(dir: &Path, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = AtomicFile::create_inside(dir, path)?;
    file.write_all(bytes)?;
    file.commit()
}

/// `path` (under `dir`) once its folder exists (created) and is inside `dir` (links resolved),
/// and what is at `path` is nothing, a regular file or a link (which is replaced itself).
fn checked_inside(dir: &Path, path: &Path) -> std::io::Result<PathBuf> {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a file name",
        ));
    };
    std::fs::create_dir_all(parent)?;
    let (root, folder) = (dir.canonicalize()?, parent.canonicalize()?);
    if !folder.starts_with(&root) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "a link inside {} leads out of it (to {}): not written through",
                dir.display(),
                folder.display()
            ),
        ));
    }
    let path = folder.join(name);
    match std::fs::symlink_metadata(&path) {
        Ok(meta) if !meta.file_type().is_file() && !meta.file_type().is_symlink() => {
            Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{}, not a file to write", kind_of(meta.file_type())),
            ))
        }
        _ => Ok(path),
    }
}

impl AtomicFile {
    /// Starts writing `path` inside the folder `dir` without following links: a link at `path`
    /// is replaced itself (its target untouched), a folder on the way to `path` that leads out
    /// of `dir` (a link planted inside it) is refused, and so is anything at `path` but a
    /// regular file or a link. Missing folders between `dir` and `path` are created (they are
    /// the mirror of an input tree under a folder the command was given).
    pub fn create_inside(dir: &Path, path: &Path) -> std::io::Result<AtomicFile> {
        let path = checked_inside(dir, path)?;
        remove_stale_temporaries(&path);
        let tmp = temporary_path(&path);
        let file = std::fs::File::create(&tmp)?;
        Ok(AtomicFile {
            path,
            tmp: Some(tmp),
            writer: Some(BufWriter::new(file)),
            written: 0,
            written_back: 0,
        })
    }
}

/// Opens `path` for writing as a new file, never through what is there: an entry already at
/// `path` (a file, a hard link to another file, a symbolic link) is removed first, so its
/// target keeps its content; a folder is refused. For files streamed in place whose folder a
/// judge gives (Kattis's feedback files).
pub fn create_fresh(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if meta.is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                "a directory, not a file to write",
            ));
        }
        std::fs::remove_file(path)?;
    }
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}
