//! What a finished shard records, `shard-K-of-N.json` ([`Manifest`]), and the hash of its rows
//! that `merge` checks against it ([`rows_hash`]).
//!
//! [`super::plan`] writes the manifest last, after the shard's CSV is committed, so a manifest
//! means a complete shard; [`crate::merge`] reads every manifest of a folder, checks that they
//! describe one partition of one list run one way, and that each CSV holds the cases its
//! manifest counted and hashed. [`super::journal`]'s [`Attempt`](super::Attempt) compares itself
//! with a manifest to decide whether `--resume` may keep the finished shard's rows.
//!
//! Invariants: the hash is over the rows as written in the CSV (`file` column and case, in
//! order of first appearance), so it is computed the same way while writing (the streaming
//! `RowsHasher`) and when reading back ([`rows_hash`]); fields added later default when
//! absent (`validate`), so manifests of older versions still merge. The manifest's bytes are
//! pretty-printed JSON with a final newline.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::ShardError;
use crate::atomic::write_atomic;
use crate::digest::Digest;
use crate::results::{Row, Status};
use crate::status::Exit;

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
    let (cases, hash, _) = hasher.finish();
    (cases, hash)
}

/// [`rows_hash`] and [`failures`], streamed over rows written in case order (the rows of a
/// case are consecutive).
#[derive(Default)]
pub(super) struct RowsHasher {
    hasher: Digest,
    last: Option<(String, usize, Status)>,
    cases: usize,
    failures: usize,
}

impl RowsHasher {
    pub(super) fn add(&mut self, row: &Row) {
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

    /// (cases, hash, failures).
    pub(super) fn finish(mut self) -> (usize, String, usize) {
        self.close_case();
        (self.cases, self.hasher.hex(), self.failures)
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
