//! The journal of a run, `<csv>.partial` ([`Journal`]): the progress file that makes `--resume`
//! possible after a crash or a scheduler's requeue, and the [`Attempt`] heading it.
//!
//! [`super::plan`] creates the journal before the run, appends each finished case's rows to it
//! through `pipeline`'s sink, reads it back on `--resume`, and removes it once the
//! final CSV (and a shard's [`Manifest`]) is written; [`crate::merge`] treats a journal beside a
//! finished CSV as a sign of another attempt still running.
//!
//! Invariants: the first line is the [`Attempt`] (list hash, shard, engines, runs, check,
//! validate), written atomically with the file; rows of another attempt are never resumed (an
//! error, not a silent restart). Every later line is one JSON chunk holding the complete rows of
//! some cases, written with one `write` so the kernel has it at once; only the last line can be
//! cut short, and it is then ignored, so the cases a journal holds are final. The file is
//! synced to disk at most once per [`JOURNAL_SYNC_INTERVAL`].

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::{Manifest, Shard, ShardError};
use crate::atomic::write_atomic;
use crate::results::Row;

/// What an attempt at a run is, for deciding whether an earlier attempt's rows may be kept:
/// the same case list and shard, solved by the same engines the same way. It is the first line
/// of a journal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    pub list_hash: String,
    pub shard: Option<Shard>,
    pub engines: Vec<String>,
    pub runs: u32,
    pub check: bool,
    #[serde(default)]
    pub validate: bool,
}

impl Attempt {
    /// Whether `manifest` records this attempt's work.
    pub(super) fn matches(&self, manifest: &Manifest) -> bool {
        let shard = Shard {
            index: manifest.shard,
            count: manifest.shards,
        };
        (
            &manifest.list_hash,
            Some(shard),
            &manifest.engines,
            manifest.runs,
            manifest.check,
            manifest.validate,
        ) == (
            &self.list_hash,
            self.shard,
            &self.engines,
            self.runs,
            self.check,
            self.validate,
        )
    }
}

/// One journal line: the complete rows of some cases.
#[derive(Debug, Serialize, Deserialize)]
struct JournalChunk {
    rows: Vec<Row>,
}

/// The append-only progress file of a run (`<csv>.partial`): a header line, then one JSON line
/// per finished chunk of cases. A line is either whole or ignored, so the cases it holds are
/// final.
pub struct Journal {
    path: PathBuf,
    file: std::fs::File,
    synced: Instant,
}

/// How often a journal is synced to disk.
pub const JOURNAL_SYNC_INTERVAL: Duration = Duration::from_secs(1);

impl Journal {
    /// The journal beside `csv`.
    pub fn path_for(csv: &Path) -> PathBuf {
        crate::atomic::beside(csv, ".partial")
    }

    /// Rows of the finished chunks in the journal at `path`, if it was written by the same
    /// `attempt`; `Ok(empty)` when there is no journal. A journal of another attempt (another
    /// list, shard, engines, runs or check) is an error: resuming it would mix results.
    pub fn read(path: &Path, attempt: &Attempt) -> Result<Vec<Row>, ShardError> {
        let io = |source| ShardError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(io(e)),
        };
        let mut lines = std::io::BufReader::new(file).lines();
        let Some(first) = lines.next().transpose().map_err(io)? else {
            return Ok(Vec::new());
        };
        match serde_json::from_str::<Attempt>(&first) {
            Ok(header) if header == *attempt => {}
            Ok(header) => {
                return Err(ShardError::Journal {
                    path: path.to_path_buf(),
                    message: format!(
                        "belongs to another run ({header:?}; this run: {attempt:?}); delete it or run without --resume"
                    ),
                });
            }
            // Not a journal header (the header is written atomically, so it is never cut
            // short): nothing after it can be trusted.
            Err(_) => {
                return Err(ShardError::Journal {
                    path: path.to_path_buf(),
                    message: "is not a gamebench journal; delete it or run without --resume"
                        .to_string(),
                });
            }
        }
        let mut rows = Vec::new();
        for line in lines {
            let Ok(line) = line else { break };
            match serde_json::from_str::<JournalChunk>(&line) {
                Ok(chunk) => rows.extend(chunk.rows),
                // Only the last line can be cut short (the process died while writing it).
                Err(_) => break,
            }
        }
        Ok(rows)
    }

    /// Starts a fresh journal at `path` holding `carried` (rows kept from an earlier attempt),
    /// replacing any previous one atomically.
    pub fn create(path: &Path, attempt: &Attempt, carried: &[Row]) -> Result<Journal, ShardError> {
        let io = |source| ShardError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut text = serde_json::to_string(attempt).expect("header serializes");
        text.push('\n');
        if !carried.is_empty() {
            text.push_str(&chunk_line(carried));
        }
        write_atomic(path, text.as_bytes()).map_err(io)?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io)?;
        Ok(Journal {
            path: path.to_path_buf(),
            file,
            synced: Instant::now(),
        })
    }

    /// Appends the complete rows of some cases. Each line goes to the kernel at once (a killed
    /// process loses nothing appended); it is synced to disk at most once per
    /// [`JOURNAL_SYNC_INTERVAL`], so a machine crash loses at most that much.
    pub fn append(&mut self, rows: &[Row]) -> Result<(), ShardError> {
        if rows.is_empty() {
            return Ok(());
        }
        let io = |source| ShardError::Io {
            path: self.path.clone(),
            source,
        };
        self.file
            .write_all(chunk_line(rows).as_bytes())
            .map_err(io)?;
        if self.synced.elapsed() >= JOURNAL_SYNC_INTERVAL {
            self.file.sync_data().map_err(io)?;
            self.synced = Instant::now();
        }
        Ok(())
    }

    /// Deletes the journal (the final files are written).
    pub fn remove(self) -> Result<(), ShardError> {
        std::fs::remove_file(&self.path).map_err(|source| ShardError::Io {
            path: self.path.clone(),
            source,
        })
    }
}

fn chunk_line(rows: &[Row]) -> String {
    let mut line = serde_json::to_string(&JournalChunk {
        rows: rows.to_vec(),
    })
    .expect("rows serialize");
    line.push('\n');
    line
}
