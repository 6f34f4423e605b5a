//! One writer per results file: a run that writes a results CSV (and its journal) holds an
//! exclusive `flock` on `<csv>.lock` for as long as it works, so a second run on the same file
//! stops before doing anything, saying which process holds it, instead of both doing all the
//! work and one failing at the end.
//!
//! The lock file holds the holder's process id (for the message). It is removed when the lock
//! is released; a process that opened the old file meanwhile sees, once it has the lock, that
//! the path names another file (or none) and starts over, so two processes never hold locks
//! on two files of one path. A process killed with the lock leaves the file behind, unlocked:
//! the next run takes it.

use std::io::{Read, Seek, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use super::{Target, beside};

/// How many times taking the lock starts over when its file was replaced meanwhile (each
/// time another process released it between our open and our lock): far more than happens.
const MAX_ATTEMPTS: usize = 100;

/// Why the lock was not taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(
        "{} is being written by another gamebench run ({}, holding {}); wait for it to end or stop it",
        results.display(),
        match pid { Some(pid) => format!("process {pid}"), None => "process unknown".to_string() },
        lock.display()
    )]
    Held {
        results: PathBuf,
        lock: PathBuf,
        pid: Option<u32>,
    },
    #[error("cannot lock {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// An exclusive lock on a results file, released (and its file removed) when dropped.
#[derive(Debug)]
pub struct Lock {
    path: PathBuf,
    file: std::fs::File,
}

impl Lock {
    /// The lock file of the results file `results`: beside the file a link leads to, so two
    /// names of one file share one lock.
    pub fn path_for(results: &Path) -> PathBuf {
        let target = match Target::of(results) {
            Ok(Target::Replace(path)) => path,
            _ => results.to_path_buf(),
        };
        beside(&target, ".lock")
    }

    /// Takes the lock of `results` without waiting: held by another process, an error naming
    /// it. `None` for a results file that is not replaced (stdout, a device, a FIFO: no lock).
    pub fn take(results: &Path) -> Result<Option<Lock>, LockError> {
        if super::is_stdout(results) || matches!(Target::of(results), Ok(Target::InPlace(_))) {
            return Ok(None);
        }
        let path = Lock::path_for(results);
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        for _ in 0..MAX_ATTEMPTS {
            let mut file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
                .open(&path)
                .map_err(io)?;
            // SAFETY: flock on a descriptor `file` owns; no memory is passed.
            let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
            if locked != 0 {
                let error = std::io::Error::last_os_error();
                if error.raw_os_error() != Some(libc::EWOULDBLOCK) {
                    return Err(io(error));
                }
                let mut text = String::new();
                let _ = file.read_to_string(&mut text);
                return Err(LockError::Held {
                    results: results.to_path_buf(),
                    lock: path.clone(),
                    pid: text.trim().parse().ok(),
                });
            }
            // The file locked must still be the one at the path (not removed by a holder
            // releasing it between our open and our lock).
            let same = match (file.metadata(), std::fs::symlink_metadata(&path)) {
                (Ok(held), Ok(now)) => (held.dev(), held.ino()) == (now.dev(), now.ino()),
                _ => false,
            };
            if !same {
                continue;
            }
            file.set_len(0).map_err(io)?;
            file.rewind().map_err(io)?;
            writeln!(file, "{}", std::process::id()).map_err(io)?;
            return Ok(Some(Lock { path, file }));
        }
        Err(io(std::io::Error::other(
            "its lock file kept being replaced",
        )))
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still held: whoever opened it meanwhile starts over (see the module).
        let _ = std::fs::remove_file(&self.path);
        let _ = &self.file;
    }
}
