//! Files that are either absent, or complete: whatever stops the process, a reader never sees
//! a file half-written, and a file that existed before stays intact until its replacement is
//! whole.
//!
//! Both ways write to a temporary name beside the target (same folder, so the final rename is
//! atomic on one file system) and rename at the end: [`write_atomic`] for bytes at hand,
//! [`AtomicFile`] for a file written as a stream (the runner's CSV), which is renamed only by
//! [`AtomicFile::commit`] and removed when dropped uncommitted, or when a write, flush or
//! rename fails: no temporary file outlives an error.
//!
//! What is already at the path decides how it is written ([`Target::of`]): a regular file (or
//! nothing) is replaced by rename; a symbolic link is followed, and the file it names is
//! replaced (the temporary file beside that file, the link kept); a character device or a FIFO
//! (`/dev/null`, `/dev/stdout`, a pipe to a reader) is opened and written in place, since a
//! rename would put a regular file where the device was. A directory, a block device or a
//! socket is refused.

use std::io::{BufWriter, Write};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// A file replaced by a rename from this size on has its pages freed on a thread of its own
/// ([`rename_or_copy`]): freeing tens of megabytes of page cache takes milliseconds.
const FREE_ASIDE_BYTES: u64 = 4 << 20;

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

/// Removes `<path>.interrupted` (an earlier interrupted run's rows) once a complete run has
/// written `path`: those rows are stale beside the whole results. Only a regular file is
/// removed (not a link, a device or a folder); a failure is ignored (it is only clutter).
pub fn remove_stale_interrupted(path: &Path) {
    let aside = interrupted_path(path);
    if std::fs::symlink_metadata(&aside).is_ok_and(|m| m.file_type().is_file()) {
        let _ = std::fs::remove_file(&aside);
    }
}

/// The cap of a small file read whole (an `invoke` problem file, a Vexed `.par` file, a shard's
/// manifest, a run's record, a baseline's metadata): none of them comes near it.
pub const SMALL_FILE_BYTES: u64 = 16 << 20;

/// The cap of an answer read whole (a judge's answer or an expected output, a case's expected
/// output hashed or drawn): far beyond any judge's output limit.
pub const ANSWER_FILE_BYTES: u64 = 256 << 20;

/// The cap of a results file read whole (a journal, a results CSV, a baseline's CSV): some
/// tens of millions of rows.
pub const RESULTS_FILE_BYTES: u64 = 4 << 30;

/// Reads the file at `path` whole, but at most `cap` bytes: a longer one (`/dev/zero`, a link
/// to a huge file) is an `InvalidData` error saying the cap, read no further than one byte past
/// it. The caller names the file.
pub fn read_capped(path: &Path, cap: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(too_large(cap));
    }
    Ok(bytes)
}

/// [`read_capped`] as text (not UTF-8: an `InvalidData` error).
pub fn read_capped_string(path: &Path, cap: u64) -> std::io::Result<String> {
    String::from_utf8(read_capped(path, cap)?).map_err(|_| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        )
    })
}

/// The error of a file past its cap.
pub fn too_large(cap: u64) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!(
            "larger than the {} MiB this file may hold (not read further)",
            cap >> 20
        ),
    )
}

/// The temporary name beside `path` that this process writes before renaming:
/// `<name>.<host>.<pid>.tmp`. The machine's name keeps apart the runs of several machines
/// writing into one shared folder (a cluster's nodes), whose process ids mean nothing here.
fn temporary_path(path: &Path) -> PathBuf {
    beside(path, &format!(".{}.{}.tmp", host(), std::process::id()))
}

/// Whether an output path means stdout: `-`, the one spelling every command takes.
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// This machine's name ([`super::meta::host_name`]) as it goes into a file name: characters
/// other than letters, digits, `-` and `_` replaced by `_`.
fn host() -> String {
    super::meta::host_name()
        .chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '-' | '_' => c,
            _ => '_',
        })
        .collect()
}

/// Removes the temporary files that runs of this machine killed before they could clean up
/// (`kill -9`, a crash) left beside `path`: those named by [`temporary_path`] for a process
/// that no longer exists. A live process's file, another machine's, or anything else is left
/// alone; failures are ignored (the files are only clutter).
pub fn remove_stale_temporaries(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let prefix = format!("{}.{}.", name.to_string_lossy(), host());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .and_then(|n| n.strip_suffix(".tmp"))
            .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|n| n.parse::<libc::pid_t>().ok())
        else {
            continue;
        };
        if pid != std::process::id() as libc::pid_t && !process_exists(pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether process `pid` exists (signal 0 delivers nothing; only "no such process" says no:
/// a process of another user exists too).
fn process_exists(pid: libc::pid_t) -> bool {
    // SAFETY: signal 0 only checks that the process exists and may be signalled.
    let sent = unsafe { libc::kill(pid, 0) } == 0;
    sent || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// An error when the folder `path` goes into does not exist: gamebench creates no folder for
/// a file it is told to write (a mistyped folder is said, not made); folders it is told to
/// write into (`--out-dir`, `--shard-dir`, `gen -o`, ...) are created by their commands.
pub fn require_folder(path: &Path) -> std::io::Result<()> {
    let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) else {
        return Ok(());
    };
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(meta) => Err(std::io::Error::new(
            std::io::ErrorKind::NotADirectory,
            format!(
                "{} is {}, not a folder",
                dir.display(),
                kind_of(meta.file_type())
            ),
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!(
                "the folder {} does not exist (gamebench creates no folder for a file it is told to write)",
                dir.display()
            ),
        )),
        Err(e) => Err(e),
    }
}

/// What a file type is, in words, for messages: "a FIFO", "a directory", ...
pub fn kind_of(kind: std::fs::FileType) -> &'static str {
    if kind.is_file() {
        "a regular file"
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// How many links [`Target::of`] follows before it gives up (as the kernel's `ELOOP`).
const MAX_LINKS: usize = 40;

/// How an output path is written, from what is there now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A regular file, or nothing: replaced through a temporary file and a rename. The path is
    /// the file to replace: a symbolic link's target (followed to the end), else the path.
    Replace(PathBuf),
    /// A character device or a FIFO: opened for writing and written in place.
    InPlace(PathBuf),
}

impl Target {
    /// What writing `path` means; an error for a directory, a block device, a socket or a loop
    /// of links, whose message says what the path is.
    pub fn of(path: &Path) -> std::io::Result<Target> {
        // A descriptor's link (`/dev/stdout` -> `/proc/self/fd/1` -> `pipe:[N]`) names no path
        // to follow, but opening it reaches the pipe or device: ask what the whole chain
        // leads to first.
        if let Ok(meta) = std::fs::metadata(path) {
            let kind = meta.file_type();
            if kind.is_char_device() || kind.is_fifo() {
                return Ok(Target::InPlace(path.to_path_buf()));
            }
        }
        let mut current = path.to_path_buf();
        for _ in 0..MAX_LINKS {
            let meta = match std::fs::symlink_metadata(&current) {
                Ok(meta) => meta,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    return Ok(Target::Replace(current));
                }
                Err(e) => return Err(e),
            };
            let kind = meta.file_type();
            if kind.is_symlink() {
                let link = std::fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
                continue;
            }
            if kind.is_file() {
                return Ok(Target::Replace(current));
            }
            if kind.is_char_device() || kind.is_fifo() {
                return Ok(Target::InPlace(current));
            }
            let error_kind = if kind.is_dir() {
                std::io::ErrorKind::IsADirectory
            } else {
                std::io::ErrorKind::InvalidInput
            };
            return Err(std::io::Error::new(
                error_kind,
                format!("{}, not a file to write", kind_of(kind)),
            ));
        }
        Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "too many levels of symbolic links",
        ))
    }

    /// The file written in the end (a link's target).
    pub fn path(&self) -> &Path {
        match self {
            Target::Replace(p) | Target::InPlace(p) => p,
        }
    }

    /// Checks, without writing anything, that the target can be written: an existing device or
    /// FIFO must be writable; a file to replace must have a writable folder (the temporary
    /// file is created and removed).
    pub fn check_writable(&self) -> std::io::Result<()> {
        match self {
            Target::InPlace(path) => access_w(path),
            Target::Replace(path) => {
                require_folder(path)?;
                let tmp = temporary_path(path);
                std::fs::File::create(&tmp)?;
                std::fs::remove_file(&tmp)
            }
        }
    }
}

fn access_w(path: &Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
    // SAFETY: `c` is a valid NUL-terminated string that outlives the call.
    if unsafe { libc::access(c.as_ptr(), libc::W_OK) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Opens a device or FIFO for writing in place. A FIFO is opened without blocking (no reader:
/// an error, `ENXIO`, rather than a wait forever), then switched back to blocking writes.
fn open_in_place(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::fd::AsRawFd;
    let file = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|e| {
            if e.raw_os_error() == Some(libc::ENXIO) {
                std::io::Error::new(e.kind(), "a FIFO with no reader")
            } else {
                e
            }
        })?;
    let fd = file.as_raw_fd();
    // SAFETY: `fd` is an open descriptor owned by `file`; F_GETFL/F_SETFL only change its flags.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags >= 0 {
            libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
        }
    }
    Ok(file)
}

/// Renames `tmp` to `path`; across file systems (a link's target elsewhere, `.interrupted`
/// beside the link), copies and removes. `tmp` is gone afterwards, whatever happened.
fn rename_or_copy(tmp: &Path, path: &Path) -> std::io::Result<()> {
    // A large file being replaced is held open over the rename, so that its pages are freed
    // when a thread of its own drops it, not by the rename on the calling thread (which goes
    // on with the summary meanwhile).
    let replaced = open_large(path);
    let result = match std::fs::rename(tmp, path) {
        Err(e) if e.kind() == std::io::ErrorKind::CrossesDevices => {
            std::fs::copy(tmp, path).map(|_| ())
        }
        other => other,
    };
    let _ = std::fs::remove_file(tmp);
    if let Some(replaced) = replaced {
        // Without a thread, it is dropped here: only where the pages are freed changes.
        let _ = std::thread::Builder::new().spawn(move || drop(replaced));
    }
    result
}

/// A regular file at `path` of at least [`FREE_ASIDE_BYTES`], opened (never blocking: a FIFO
/// put there meanwhile is not waited for), or `None`.
fn open_large(path: &Path) -> Option<std::fs::File> {
    let large = std::fs::symlink_metadata(path)
        .is_ok_and(|m| m.file_type().is_file() && m.len() >= FREE_ASIDE_BYTES);
    if !large {
        return None;
    }
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_NOFOLLOW)
        .open(path)
        .ok()
}

/// Writes `bytes` to `path` through a temporary file and a rename (its folder must exist:
/// [`require_folder`]); a device or FIFO is written in place, a link's target replaced (see
/// the module's docs).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    match Target::of(path)? {
        Target::InPlace(device) => {
            let mut file = open_in_place(&device)?;
            file.write_all(bytes)?;
            file.flush()
        }
        Target::Replace(path) => {
            require_folder(&path)?;
            let tmp = temporary_path(&path);
            if let Err(e) = std::fs::write(&tmp, bytes) {
                let _ = std::fs::remove_file(&tmp);
                return Err(e);
            }
            rename_or_copy(&tmp, &path)
        }
    }
}

/// A file being written under a temporary name; it takes `path` only on [`commit`]. A device
/// or FIFO at `path` is written in place from the start (there is nothing to rename).
///
/// [`commit`]: AtomicFile::commit
pub struct AtomicFile {
    path: PathBuf,
    /// The temporary file, `None` when writing in place.
    tmp: Option<PathBuf>,
    writer: Option<BufWriter<std::fs::File>>,
    /// Bytes written so far, and how many of them the disk was asked to write back already
    /// ([`WRITEBACK_BYTES`]).
    written: u64,
    written_back: u64,
}

/// A temporary file asks the kernel to start writing its pages to disk every this many bytes
/// (Linux: `sync_file_range`), so that the `fdatasync` of [`AtomicFile::commit`] waits only
/// for the last of them, not for a whole results file at the end of the run.
const WRITEBACK_BYTES: u64 = 4 << 20;

impl AtomicFile {
    /// Starts writing the replacement of `path`, whose folder must exist (so a mistyped path
    /// fails here, before any work). A symbolic link is followed: its target is replaced and
    /// the link kept; a directory is refused.
    pub fn create(path: &Path) -> std::io::Result<AtomicFile> {
        match Target::of(path)? {
            Target::InPlace(device) => Ok(AtomicFile {
                path: device.clone(),
                tmp: None,
                writer: Some(BufWriter::new(open_in_place(&device)?)),
                written: 0,
                written_back: 0,
            }),
            Target::Replace(target) => {
                require_folder(&target)?;
                remove_stale_temporaries(&target);
                let tmp = temporary_path(&target);
                let file = std::fs::File::create(&tmp)?;
                Ok(AtomicFile {
                    path: target,
                    tmp: Some(tmp),
                    writer: Some(BufWriter::new(file)),
                    written: 0,
                    written_back: 0,
                })
            }
        }
    }

    /// The file it will replace (a link's target).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether it writes a device or FIFO in place (nothing is renamed on commit).
    pub fn in_place(&self) -> bool {
        self.tmp.is_none()
    }

    /// Flushes what was written and renames the file into place.
    pub fn commit(self) -> std::io::Result<()> {
        let path = self.path.clone();
        self.commit_as(&path)
    }

    /// Flushes what was written and renames the file to `path` instead. Written in place (a
    /// device), it is only flushed: what was written is where it went.
    pub fn commit_as(mut self, path: &Path) -> std::io::Result<()> {
        let writer = self.writer.take().expect("committed once");
        let tmp = self.tmp.take();
        let in_place = tmp.is_none();
        let finished = writer
            .into_inner()
            .map_err(|e| e.into_error())
            .and_then(|file| {
                // A device cannot be synced (`/dev/null`: EINVAL), only flushed.
                if in_place { Ok(()) } else { file.sync_data() }
            });
        match tmp {
            None => finished,
            Some(tmp) => match finished {
                Ok(()) => rename_or_copy(&tmp, path),
                Err(e) => {
                    let _ = std::fs::remove_file(&tmp);
                    Err(e)
                }
            },
        }
    }
}

impl AtomicFile {
    /// Past [`WRITEBACK_BYTES`] since the last time, hands what was written to the kernel and
    /// asks it to start writing those pages back (without waiting for them). Only a temporary
    /// file: a device or FIFO has nothing to write back.
    fn write_back(&mut self) -> std::io::Result<()> {
        if self.tmp.is_none() || self.written - self.written_back < WRITEBACK_BYTES {
            return Ok(());
        }
        let writer = self.writer.as_mut().expect("not committed");
        writer.flush()?;
        start_writeback(writer.get_ref(), self.written_back, self.written);
        self.written_back = self.written;
        Ok(())
    }
}

/// Asks the kernel to start writing bytes `from..to` of `file` to disk, not waiting for it.
/// A hint: where the call is missing or fails, the final `fdatasync` does all the work.
#[cfg(target_os = "linux")]
fn start_writeback(file: &std::fs::File, from: u64, to: u64) {
    use std::os::fd::AsRawFd;
    let (Ok(offset), Ok(len)) = (i64::try_from(from), i64::try_from(to - from)) else {
        return;
    };
    // SAFETY: a plain system call on a file descriptor this process owns and keeps open.
    unsafe {
        libc::sync_file_range(file.as_raw_fd(), offset, len, libc::SYNC_FILE_RANGE_WRITE);
    }
}

#[cfg(not(target_os = "linux"))]
fn start_writeback(_file: &std::fs::File, _from: u64, _to: u64) {}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // Before taking more: a failed flush then refuses this write, not one already taken.
        self.write_back()?;
        let n = self.writer.as_mut().expect("not committed").write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.writer.as_mut().expect("not committed").flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.writer.take().is_some()
            && let Some(tmp) = &self.tmp
        {
            // Not committed: the target keeps its old content (or stays absent).
            let _ = std::fs::remove_file(tmp);
        }
    }
}

mod guard;
mod lock;
pub use guard::{Identity, Inputs, LandsOnInput, create_fresh, write_inside};
pub use lock::{Lock, LockError};

#[cfg(test)]
mod tests;
