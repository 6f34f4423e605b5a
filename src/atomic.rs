//! Files that are either absent, or complete: whatever stops the process, a reader never sees
//! a file half-written, and a file that existed before stays intact until its replacement is
//! whole.
//!
//! Both ways write to a temporary name beside the target (same folder, so the final rename is
//! atomic on one file system) and rename at the end: [`write_atomic`] for bytes at hand,
//! [`AtomicFile`] for a file written as a stream (the runner's CSV), which is renamed only by
//! [`AtomicFile::commit`] and removed when dropped uncommitted.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// `path` with `suffix` appended to its file name: the names kept beside a results file (its
/// journal, the rows of an interrupted run, a temporary copy).
pub fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Where an interrupted run keeps its rows when a file was already at `path` (which stays
/// intact): `<path>.interrupted`.
pub fn interrupted_path(path: &Path) -> PathBuf {
    beside(path, ".interrupted")
}

/// The temporary name beside `path` that this process writes before renaming.
fn temporary_path(path: &Path) -> PathBuf {
    beside(path, &format!(".{}.tmp", std::process::id()))
}

fn create_parent(path: &Path) -> std::io::Result<()> {
    match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => std::fs::create_dir_all(dir),
        None => Ok(()),
    }
}

/// Writes `bytes` to `path` through a temporary file and a rename (creating the folder).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    create_parent(path)?;
    let tmp = temporary_path(path);
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

/// A file being written under a temporary name; it takes `path` only on [`commit`].
///
/// [`commit`]: AtomicFile::commit
pub struct AtomicFile {
    path: PathBuf,
    tmp: PathBuf,
    writer: Option<BufWriter<std::fs::File>>,
}

impl AtomicFile {
    /// Starts writing the replacement of `path`, whose folder must exist (so a mistyped path
    /// fails here, before any work).
    pub fn create(path: &Path) -> std::io::Result<AtomicFile> {
        let tmp = temporary_path(path);
        let file = std::fs::File::create(&tmp)?;
        Ok(AtomicFile {
            path: path.to_path_buf(),
            tmp,
            writer: Some(BufWriter::new(file)),
        })
    }

    /// The file it will replace.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Flushes what was written and renames the file into place.
    pub fn commit(self) -> std::io::Result<()> {
        let path = self.path.clone();
        self.commit_as(&path)
    }

    /// Flushes what was written and renames the file to `path` instead (same folder).
    pub fn commit_as(mut self, path: &Path) -> std::io::Result<()> {
        let writer = self.writer.take().expect("committed once");
        let file = writer.into_inner().map_err(|e| e.into_error())?;
        file.sync_data()?;
        drop(file);
        std::fs::rename(&self.tmp, path)
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.writer.as_mut().expect("not committed").write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.writer.as_mut().expect("not committed").flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.writer.take().is_some() {
            // Not committed: the target keeps its old content (or stays absent).
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_uncommitted_file_leaves_the_old_one_intact() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        std::fs::write(&path, "old\n").unwrap();
        let mut file = AtomicFile::create(&path).unwrap();
        file.write_all(b"new, half").unwrap();
        file.flush().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old\n");
        drop(file);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old\n");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);

        let mut file = AtomicFile::create(&path).unwrap();
        file.write_all(b"new\n").unwrap();
        file.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn write_atomic_creates_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b/c.out");
        write_atomic(&path, b"x").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"x");
    }
}
