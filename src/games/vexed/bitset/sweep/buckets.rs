//! The sweep's storage: a folder of its own under the scratch folder ([`Folder`], removed when
//! the search ends, also on an error or a stop), the pending buckets ([`Pending`]: per
//! [`Psi`], a write buffer in memory and a file it is flushed to), and the finished buckets'
//! files ([`Finished`], read back only to rebuild a solution's path).
//!
//! Invariants: the records buffered never exceed [`Pending::new`]'s cap (the largest buffers
//! are sorted, deduplicated and appended to their files when it is reached); a bucket's
//! records are its buffer plus its file, every one of them a board reached with that `g`; a
//! bucket taken ([`Pending::take_first`]) has the smallest key pending and its file is gone.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::SweepError;
use super::record::{Psi, RECORD_BYTES, Record};

/// Bytes read from or written to a bucket file at a time.
const IO_CHUNK: usize = 1 << 20;

/// Searches started by this process, naming their folders apart (`-j N` runs several).
static SEARCHES: AtomicU64 = AtomicU64::new(0);

/// The folder of one search, inside the scratch folder; removed with its files when dropped.
pub(super) struct Folder {
    path: PathBuf,
    /// Bytes in its files now.
    bytes: u64,
}

impl Folder {
    /// A new folder `gamebench-sweep-<pid>-<n>` in `scratch`, which must be a writable folder.
    /// The folders of processes that no longer run (killed before they could remove theirs)
    /// are removed first, each with a line on stderr ([`reclaim`]).
    pub(super) fn create(scratch: &Path) -> Result<Folder, SweepError> {
        reclaim(scratch);
        let n = SEARCHES.fetch_add(1, Ordering::Relaxed);
        let path = scratch.join(format!("{FOLDER_PREFIX}{}-{n}", std::process::id()));
        std::fs::create_dir(&path).map_err(|source| SweepError::Io {
            path: path.clone(),
            source,
        })?;
        Ok(Folder { path, bytes: 0 })
    }

    fn file(&self, kind: &str, psi: Psi) -> PathBuf {
        self.path
            .join(format!("{kind}-{}-{}", psi.removed, psi.rows))
    }

    /// Appends `bytes` to file `kind` of `psi`.
    fn append(&mut self, kind: &str, psi: Psi, bytes: &[u8]) -> Result<(), SweepError> {
        let path = self.file(kind, psi);
        let io = |source| SweepError::Io {
            path: path.clone(),
            source,
        };
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(io)?;
        // A full disk fails the write itself (`ENOSPC`); the files are scratch, read back by
        // this process only, so they are never synced.
        file.write_all(bytes).map_err(io)?;
        self.bytes += bytes.len() as u64;
        Ok(())
    }

    /// Reads file `kind` of `psi` record by record into `each`, then removes it when `remove`.
    fn read(
        &mut self,
        kind: &str,
        psi: Psi,
        remove: bool,
        mut each: impl FnMut(Record) -> Result<(), SweepError>,
    ) -> Result<(), SweepError> {
        let path = self.file(kind, psi);
        let io = |source| SweepError::Io {
            path: path.clone(),
            source,
        };
        let file = File::open(&path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let mut reader = BufReader::with_capacity(IO_CHUNK, file);
        let mut bytes = [0u8; RECORD_BYTES];
        for _ in 0..len / RECORD_BYTES as u64 {
            reader.read_exact(&mut bytes).map_err(io)?;
            each(Record::read(&bytes))?;
        }
        if remove {
            std::fs::remove_file(&path).map_err(io)?;
            self.bytes -= len;
        }
        Ok(())
    }
}

/// The prefix of a search folder's name, before `<pid>-<n>`.
const FOLDER_PREFIX: &str = "gamebench-sweep-";

/// The process that made the search folder called `name`, if it is one
/// (`gamebench-sweep-<pid>-<n>`).
fn owner_of(name: &str) -> Option<libc::pid_t> {
    let (pid, n) = name.strip_prefix(FOLDER_PREFIX)?.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(pid) || !digits(n) {
        return None;
    }
    pid.parse().ok()
}

/// Whether process `pid` runs (signal 0 delivers nothing; only "no such process" says no: a
/// process of another user runs too).
fn process_runs(pid: libc::pid_t) -> bool {
    // SAFETY: signal 0 only checks that the process exists and may be signalled.
    let sent = unsafe { libc::kill(pid, 0) } == 0;
    sent || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// Removes the search folders in `scratch` left by processes that no longer run (a proof
/// killed with SIGKILL, a crash: gigabytes in real runs), saying so on stderr. A folder of a
/// running process, a link, or anything else is left alone; failures are ignored (the next run
/// tries again).
pub(super) fn reclaim(scratch: &Path) {
    let Ok(entries) = std::fs::read_dir(scratch) else {
        return;
    };
    let me = std::process::id() as libc::pid_t;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(owner_of) else {
            continue;
        };
        let is_folder = entry.file_type().is_ok_and(|t| t.is_dir());
        if pid == me || !is_folder || process_runs(pid) {
            continue;
        }
        let path = entry.path();
        let bytes = folder_bytes(&path);
        if std::fs::remove_dir_all(&path).is_ok() {
            eprintln!(
                "gamebench: removed the scratch folder {} left by process {pid}, which no longer runs ({} MiB)",
                path.display(),
                bytes >> 20
            );
        }
    }
}

/// The bytes of the files directly in `path` (a search folder has no subfolders).
fn folder_bytes(path: &Path) -> u64 {
    std::fs::read_dir(path).map_or(0, |entries| {
        entries
            .flatten()
            .filter_map(|e| e.metadata().ok())
            .filter(|m| m.is_file())
            .map(|m| m.len())
            .sum()
    })
}

impl Drop for Folder {
    fn drop(&mut self) {
        // Best effort: a folder that cannot be removed is left behind, named by its process.
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// One pending bucket: records in memory, and how many went to its file.
#[derive(Default)]
struct Bucket {
    buffer: Vec<Record>,
    on_disk: u64,
    /// The least `g + h` of its records (a lower bound of any solution through them).
    least_f: u32,
}

/// The buckets not yet processed, by key.
pub(super) struct Pending {
    buckets: BTreeMap<Psi, Bucket>,
    /// Records in the buffers, and the most there may be.
    buffered: usize,
    cap: usize,
    /// Records written to files so far (a flushed buffer's, after deduplication).
    pub(super) flushed: u64,
}

impl Pending {
    /// No bucket, and at most `cap` records buffered (at least one).
    pub(super) fn new(cap: usize) -> Pending {
        Pending {
            buckets: BTreeMap::new(),
            buffered: 0,
            cap: cap.max(1),
            flushed: 0,
        }
    }

    /// Adds `record` to the bucket of `psi`, flushing the largest buffers when they are full.
    pub(super) fn push(
        &mut self,
        folder: &mut Folder,
        psi: Psi,
        record: Record,
    ) -> Result<(), SweepError> {
        let bucket = self.buckets.entry(psi).or_insert_with(|| Bucket {
            least_f: u32::MAX,
            ..Bucket::default()
        });
        bucket.least_f = bucket
            .least_f
            .min(u32::from(record.g) + u32::from(record.h));
        bucket.buffer.push(record);
        self.buffered += 1;
        if self.buffered >= self.cap {
            self.flush(folder)?;
        }
        Ok(())
    }

    /// Writes the largest buffers to their files until at most half the cap is buffered: each
    /// sorted by board and deduplicated first (the better record of a board kept), which is
    /// cheap and cuts the bytes written.
    fn flush(&mut self, folder: &mut Folder) -> Result<(), SweepError> {
        let mut sizes: Vec<(usize, Psi)> = self
            .buckets
            .iter()
            .map(|(&psi, bucket)| (bucket.buffer.len(), psi))
            .filter(|&(len, _)| len > 0)
            .collect();
        // Largest first; among equals, the smaller key (the order does not change the search,
        // only which files are written).
        sizes.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut bytes = Vec::new();
        for (_, psi) in sizes {
            if self.buffered <= self.cap / 2 {
                break;
            }
            let bucket = self.buckets.get_mut(&psi).expect("listed above");
            let mut buffer = std::mem::take(&mut bucket.buffer);
            self.buffered -= buffer.len();
            dedup(&mut buffer);
            bytes.clear();
            for record in &buffer {
                record.write(&mut bytes);
            }
            folder.append("p", psi, &bytes)?;
            bucket.on_disk += buffer.len() as u64;
            self.flushed += buffer.len() as u64;
        }
        Ok(())
    }

    /// The smallest key pending.
    pub(super) fn first(&self) -> Option<Psi> {
        self.buckets.keys().next().copied()
    }

    /// The least `g + h` over every pending record, if any.
    pub(super) fn least_f(&self) -> Option<u32> {
        self.buckets.values().map(|b| b.least_f).min()
    }

    /// Takes the bucket of the smallest key: its key, and its records (file and buffer, not
    /// deduplicated) handed to `each`; its file is removed.
    pub(super) fn take_first(
        &mut self,
        folder: &mut Folder,
        each: impl FnMut(Record) -> Result<(), SweepError>,
    ) -> Result<Option<Psi>, SweepError> {
        let Some((psi, bucket)) = self.buckets.pop_first() else {
            return Ok(None);
        };
        self.buffered -= bucket.buffer.len();
        let mut each = each;
        if bucket.on_disk > 0 {
            folder.read("p", psi, true, &mut each)?;
        }
        for record in bucket.buffer {
            each(record)?;
        }
        Ok(Some(psi))
    }
}

/// Sorts `records` by board, keeping only the better record of each board
/// ([`Record::better_than`]).
fn dedup(records: &mut Vec<Record>) {
    records.sort_unstable_by(|a, b| {
        a.board
            .cmp(&b.board)
            .then((a.g, a.parent).cmp(&(b.g, b.parent)))
    });
    records.dedup_by(|later, kept| later.board == kept.board);
}

/// The finished buckets, in the order they were processed (increasing key), each a file of
/// the records of the boards expanded there, with their final depth.
pub(super) struct Finished {
    order: Vec<Psi>,
}

impl Finished {
    pub(super) fn new() -> Finished {
        Finished { order: Vec::new() }
    }

    /// Writes the records of bucket `psi`, the last processed.
    pub(super) fn write(
        &mut self,
        folder: &mut Folder,
        psi: Psi,
        records: impl Iterator<Item = Record>,
    ) -> Result<(), SweepError> {
        let mut bytes = Vec::with_capacity(IO_CHUNK);
        for record in records {
            record.write(&mut bytes);
            if bytes.len() >= IO_CHUNK {
                folder.append("f", psi, &bytes)?;
                bytes.clear();
            }
        }
        // Also when empty: every finished bucket has its file.
        folder.append("f", psi, &bytes)?;
        self.order.push(psi);
        Ok(())
    }

    /// The buckets finished, in order.
    pub(super) fn order(&self) -> &[Psi] {
        &self.order
    }

    /// The records of finished bucket `psi`.
    pub(super) fn read(&self, folder: &mut Folder, psi: Psi) -> Result<Vec<Record>, SweepError> {
        let mut records = Vec::new();
        folder.read("f", psi, false, |record| {
            records.push(record);
            Ok(())
        })?;
        Ok(records)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(board: u64, g: u8, parent: u64) -> Record {
        Record {
            board: [board, 0],
            parent,
            g,
            h: 1,
        }
    }

    #[test]
    fn dedup_keeps_the_fewest_pushes_then_the_smallest_parent() {
        let mut records = vec![
            record(5, 4, 1),
            record(2, 3, 9),
            record(5, 2, 8),
            record(5, 2, 7),
            record(2, 3, 1),
        ];
        dedup(&mut records);
        assert_eq!(records, vec![record(2, 3, 1), record(5, 2, 7)]);
    }

    #[test]
    fn buckets_come_back_in_key_order_with_every_record() {
        let dir = std::env::temp_dir().join(format!("sweep-buckets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut folder = Folder::create(&dir).unwrap();
        let folder_path = folder.path.clone();
        // A cap of 4: pushing 10 records flushes some buffers to files.
        let mut pending = Pending::new(4);
        let psi = |removed, rows| Psi { removed, rows };
        for i in 0..10u64 {
            let key = psi((i % 3) as u32, (i % 2) as u32);
            pending
                .push(&mut folder, key, record(i, i as u8, 0))
                .unwrap();
        }
        assert!(pending.flushed > 0);
        assert_eq!(pending.least_f(), Some(1));
        let mut seen = Vec::new();
        let mut keys = Vec::new();
        while let Some(key) = pending
            .take_first(&mut folder, |r| {
                seen.push(r.board[0]);
                Ok(())
            })
            .unwrap()
        {
            keys.push(key);
        }
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
        seen.sort();
        assert_eq!(seen, (0..10).collect::<Vec<_>>());
        // Every pending file was removed once read.
        assert_eq!(folder.bytes, 0);
        drop(folder);
        assert!(!folder_path.exists(), "the folder goes with the search");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn folders_of_dead_processes_are_reclaimed_and_no_other() {
        let dir = std::env::temp_dir().join(format!("sweep-reclaim-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A process that has ended (reaped), and one that still runs.
        let mut ended = std::process::Command::new("true").spawn().unwrap();
        let ended_pid = ended.id();
        ended.wait().unwrap();
        let mut running = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let dead = dir.join(format!("{FOLDER_PREFIX}{ended_pid}-0"));
        let live = dir.join(format!("{FOLDER_PREFIX}{}-3", running.id()));
        let mine = dir.join(format!("{FOLDER_PREFIX}{}-999", std::process::id()));
        let other = dir.join(format!("{FOLDER_PREFIX}{ended_pid}-x"));
        for folder in [&dead, &live, &mine, &other] {
            std::fs::create_dir_all(folder).unwrap();
            std::fs::write(folder.join("pending-0-0"), [0u8; 64]).unwrap();
        }
        // A link named like a dead process's folder, to a folder that must survive.
        let target = dir.join("kept");
        std::fs::create_dir_all(&target).unwrap();
        std::os::unix::fs::symlink(&target, dir.join(format!("{FOLDER_PREFIX}{ended_pid}-1")))
            .unwrap();
        let folder = Folder::create(&dir).unwrap();
        running.kill().unwrap();
        running.wait().unwrap();
        assert!(!dead.exists(), "the dead process's folder is removed");
        for kept in [&live, &mine, &other, &target] {
            assert!(
                kept.join("pending-0-0").exists() || kept == &target,
                "{}",
                kept.display()
            );
        }
        assert!(target.exists());
        drop(folder);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
