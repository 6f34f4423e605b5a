//! What a finished shard records, `shard-K-of-N.json` ([`Manifest`]), and the hashes of its rows
//! that `merge` checks against it ([`rows_hash`], [`row_keys_hash`]); what a plain `--resume`
//! run records beside its CSV ([`CsvRecord`]).
//!
//! [`super::plan`] writes the manifest last, after the shard's CSV is committed, so a manifest
//! means a complete shard; [`crate::shard::merge`] reads every manifest of a folder, checks that they
//! describe one partition of one list run one way, and that each CSV holds the cases its
//! manifest counted and hashed, row by row. `resume` compares the manifest's [`Attempt`] (and
//! the digest of the CSV's bytes) with its own to decide whether `--resume` may keep the
//! finished shard's rows.
//!
//! Invariants: the hashes are over the rows as written in the CSV (the cases' keys, `file`
//! column and case, in order of first appearance: [`rows_hash`]; and every row's key with
//! multiplicity, `file`, case, engine and run: [`row_keys_hash`]), so they are computed the
//! same way while writing (the streaming `RowsHasher`) and when reading back; fields added
//! later default when absent (`validate`, `rows_hash`, `attempt`...), so manifests of older
//! versions still merge (without the checks those fields allow). A manifest, like a plain
//! run's [`CsvRecord`], records the [`Attempt`] and the digest of the CSV's bytes: what
//! `--resume` needs to keep the CSV's rows. The manifest's bytes are
//! pretty-printed JSON with a final newline.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Attempt, ShardError};
use crate::results::{Row, Status};
use crate::status::Exit;
use crate::util::atomic::write_atomic;
use crate::util::digest::Digest;

/// What `shard-K-of-N.json` says about a finished shard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub tool: String,
    pub version: String,
    pub rule: String,
    pub shard: usize,
    pub shards: usize,
    /// Cases in the whole list.
    pub cases: usize,
    pub list_hash: String,
    /// Cases of this shard, and the hash of their keys as written in the CSV ([`rows_hash`]).
    pub shard_cases: usize,
    pub shard_hash: String,
    /// Rows of the CSV, and the hash of every row's key with multiplicity ([`row_keys_hash`]),
    /// so that a deleted or duplicated row is seen (absent from older versions: not checked).
    #[serde(default)]
    pub rows: usize,
    #[serde(default)]
    pub rows_hash: String,
    /// The XXH3-64 of the CSV's bytes as written: `--resume` keeps the CSV's rows only while
    /// it is unchanged (absent from older versions: never kept).
    #[serde(default)]
    pub csv_digest: String,
    /// Everything the shard was run with ([`Attempt`]), which `--resume` compares with its own
    /// (absent from older versions).
    #[serde(default)]
    pub attempt: Option<Attempt>,
    /// Cases of this shard whose worst status is a failure (not `ok` or `unchecked`).
    pub failures: usize,
    /// The engines as requested (empty = each game's default), so `merge` can refuse to mix
    /// shards run with different engines.
    pub engines: Vec<String>,
    pub runs: u32,
    pub check: bool,
    /// `--validate` (absent from manifests of older versions: false).
    #[serde(default)]
    pub validate: bool,
    /// Cases taken from an earlier attempt (`--resume`) rather than solved by this one.
    pub resumed: usize,
    pub host: String,
    pub threads: usize,
    /// UTC, RFC 3339.
    pub start: String,
    pub end: String,
}

impl Manifest {
    /// Writes the manifest to `path` atomically (pretty JSON and a newline).
    pub fn write(&self, path: &Path) -> Result<(), ShardError> {
        let mut text = serde_json::to_string_pretty(self).expect("manifest serializes");
        text.push('\n');
        write_atomic(path, text.as_bytes()).map_err(|source| ShardError::Io {
            path: path.to_path_buf(),
            source,
        })
    }
}

/// The hash of a shard's rows as `merge` sees them: XXH3-64 of `file<TAB>case<LF>` for each
/// case in order of first appearance (the `file` column as written).
pub fn rows_hash(rows: &[Row]) -> (usize, String) {
    let mut hasher = RowsHasher::default();
    for row in rows {
        hasher.add(row);
    }
    let (cases, hash, _, _) = hasher.finish_all();
    (cases, hash)
}

/// The hash of every row's key with multiplicity: XXH3-64 of `file<TAB>case<TAB>engine<TAB>run<LF>`
/// for each row in order, and the number of rows. A deleted, duplicated or moved row changes it.
pub fn row_keys_hash(rows: &[Row]) -> (usize, String) {
    let mut hasher = RowsHasher::default();
    for row in rows {
        hasher.add(row);
    }
    let (_, _, _, keys) = hasher.finish_all();
    keys
}

/// What vouches for a plain run's final CSV, `<csv>.attempt.json`: the [`Attempt`] that wrote
/// it and the digest of its bytes (a shard's [`Manifest`] records the same two).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CsvRecord {
    pub attempt: Attempt,
    pub csv_digest: String,
}

impl CsvRecord {
    /// The record of the CSV at `csv`: `<csv>.attempt.json`.
    pub fn path_for(csv: &Path) -> PathBuf {
        crate::util::atomic::beside(csv, ".attempt.json")
    }

    /// Writes the record to `path` atomically.
    pub fn write(&self, path: &Path) -> Result<(), ShardError> {
        let mut text = serde_json::to_string_pretty(self).expect("record serializes");
        text.push('\n');
        write_atomic(path, text.as_bytes()).map_err(|source| ShardError::Io {
            path: path.to_path_buf(),
            source,
        })
    }
}

/// [`rows_hash`], [`row_keys_hash`] and [`failures`], streamed over rows written in case order (the rows of a
/// case are consecutive).
#[derive(Default)]
pub(super) struct RowsHasher {
    hasher: Digest,
    keys: Digest,
    rows: usize,
    last: Option<(String, usize, Status)>,
    cases: usize,
    failures: usize,
}

impl RowsHasher {
    pub(super) fn add(&mut self, row: &Row) {
        self.rows += 1;
        self.keys
            .write(format!("{}\t{}\t{}\t{}\n", row.file, row.case, row.engine, row.run).as_bytes());
        match &mut self.last {
            Some((file, case, worst)) if *file == row.file && *case == row.case => {
                *worst = worst.worst(row.status);
                return;
            }
            _ => {}
        }
        self.close_case();
        self.hasher
            .write(format!("{}\t{}\n", row.file, row.case).as_bytes());
        self.cases += 1;
        self.last = Some((row.file.clone(), row.case, row.status));
    }

    fn close_case(&mut self) {
        if let Some((_, _, worst)) = self.last.take()
            && worst.exit() != Exit::Ok
        {
            self.failures += 1;
        }
    }

    /// (cases, hash, failures, (rows, row keys' hash)).
    pub(super) fn finish_all(mut self) -> (usize, String, usize, (usize, String)) {
        self.close_case();
        (
            self.cases,
            self.hasher.hex(),
            self.failures,
            (self.rows, self.keys.hex()),
        )
    }
}

/// Cases of `rows` whose worst status is a failure (not `ok` or `unchecked`).
pub fn failures(rows: &[Row]) -> usize {
    let mut worst: HashMap<(&str, &str, usize), Status> = HashMap::new();
    for row in rows {
        let entry = worst
            .entry((row.game.as_str(), row.file.as_str(), row.case))
            .or_insert(row.status);
        *entry = entry.worst(row.status);
    }
    worst.values().filter(|s| s.exit() != Exit::Ok).count()
}
