//! The journal of a run, `<csv>.partial` ([`Journal`]): the progress file that makes `--resume`
//! possible after a crash or a scheduler's requeue, and the [`Attempt`] heading it.
//!
//! [`super::plan`] reads the journal back on `--resume`, then either appends to it as it is
//! ([`Journal::open`]) or replaces it atomically by one holding every row it carries over
//! ([`Journal::create`]), before any case is solved; `pipeline`'s sink appends each finished
//! case's rows; the plan removes it once the final CSV and its record (a shard's
//! [`Manifest`](super::Manifest), a plain run's `<csv>.attempt.json`) are written.
//! [`crate::shard::merge`] treats a journal beside a finished CSV as a sign of another attempt still
//! running.
//!
//! Invariants: the journal only grows over the attempts of a run: every case it holds at the
//! start of an attempt is in it, or in its replacement, until the run finishes; nothing carried
//! over lives only in memory, so a SIGKILL at any instant loses at most the cases then running.
//! The first line is the [`Attempt`] (list and corpus hashes, shard, engines and every option
//! that changes a row), written atomically with the file; rows of another attempt are never
//! resumed (an error naming what differs, not a silent restart). Every later line is one JSON
//! chunk holding the complete rows of some cases, written with one `write` so the kernel has it
//! at once; only the last line can be cut short, and it is then ignored (and the journal
//! rewritten without it before anything is appended), so the cases a journal holds are final.
//! A line that is not a whole chunk anywhere (a journal damaged from outside) is dropped with a
//! warning naming it, and every other line is kept; a line holding the end of a chunk cut
//! short followed by a whole chunk keeps that chunk.
//! The file is synced to disk at most once per [`JOURNAL_SYNC_INTERVAL`].

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::{CaseList, Shard, ShardError};
use crate::results::Row;
use crate::runner::{Config, KeptSlot};
use crate::util::atomic::write_atomic;

/// The version of the [`Attempt`] record: a journal or manifest with another (an older
/// gamebench's, which recorded fewer options) is never resumed.
pub const ATTEMPT_FORMAT: u32 = 2;

/// What an attempt at a run is, for deciding whether an earlier attempt's rows may be kept:
/// the same case list and corpus contents, the same shard, solved by the same engines the same
/// way (every option that changes a row but `-j`). It is the first line of a journal, and a
/// shard's manifest (or a plain run's `<csv>.attempt.json`) records it beside the final CSV.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    /// [`ATTEMPT_FORMAT`] (absent from older versions' records: 0).
    #[serde(default)]
    pub format: u32,
    pub list_hash: String,
    /// [`CaseList::content_hash`](super::CaseList::content_hash).
    #[serde(default)]
    pub corpus_hash: String,
    pub shard: Option<Shard>,
    pub engines: Vec<String>,
    pub runs: u32,
    pub check: bool,
    #[serde(default)]
    pub validate: bool,
    #[serde(default)]
    pub warmup: u32,
    #[serde(default)]
    pub repeat_short: bool,
    #[serde(default)]
    pub max_states: Option<u64>,
    #[serde(default)]
    pub time_limit_ns: Option<u64>,
    #[serde(default)]
    pub memory: Option<u64>,
    #[serde(default)]
    pub search_threads: usize,
    #[serde(default)]
    pub timeout_ns: u64,
    #[serde(default)]
    pub case_timeout_ns: Option<u64>,
    #[serde(default)]
    pub baseline: String,
    #[serde(default)]
    pub shell: String,
}

/// The option (or what else) behind each field of an [`Attempt`], for messages.
const ATTEMPT_FIELDS: [(&str, &str); 18] = [
    ("format", "the gamebench version (record format)"),
    ("list_hash", "the case list (file names and case counts)"),
    ("corpus_hash", "the corpus contents (.in and .out files)"),
    ("shard", "--shard"),
    ("engines", "--engine"),
    ("runs", "--runs"),
    ("check", "--check"),
    ("validate", "--validate"),
    ("warmup", "--warmup"),
    ("repeat_short", "--no-repeat"),
    ("max_states", "--max-states"),
    ("time_limit_ns", "--time-limit"),
    ("memory", "--memory"),
    ("search_threads", "--threads"),
    ("timeout_ns", "--timeout"),
    ("case_timeout_ns", "--case-timeout"),
    ("baseline", "--baseline"),
    ("shell", "--shell/--no-shell"),
];

/// The engines and the baseline as the user named them (`-e`, `--baseline`), recorded in
/// journals and manifests so that a resumed run or a merge must name the same. Nothing below
/// the CLI finds an engine by these names: the run's engines come resolved
/// ([`crate::engines::EngineTable`]).
#[derive(Debug, Clone, Default)]
pub struct EngineNames {
    pub engines: Vec<String>,
    pub baseline: String,
}

impl Attempt {
    /// The attempt of a run of `config` with the engines `names` over `list` (shard `shard`,
    /// or the whole list).
    pub fn of(
        list: &CaseList,
        shard: Option<Shard>,
        config: &Config,
        names: &EngineNames,
    ) -> Attempt {
        let ns = |d: std::time::Duration| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        Attempt {
            format: ATTEMPT_FORMAT,
            list_hash: list.hash.clone(),
            corpus_hash: list.content_hash.clone(),
            shard,
            engines: names.engines.clone(),
            runs: config.runs,
            check: config.check,
            validate: config.validate,
            warmup: config.warmup,
            repeat_short: config.repeat_short,
            max_states: config.budget.max_states,
            time_limit_ns: config.budget.time_limit.map(ns),
            memory: config.budget.memory,
            search_threads: config.budget.threads,
            timeout_ns: ns(config.timeout),
            case_timeout_ns: config.case_timeout.map(ns),
            baseline: names.baseline.clone(),
            shell: format!("{:?}", config.shell),
        }
    }

    /// What differs between `self` and `other`: per differing field, its name, the option (or
    /// what else) it is, and the two values as JSON; empty when they are equal.
    pub fn differences(
        &self,
        other: &Attempt,
    ) -> Vec<(&'static str, &'static str, String, String)> {
        let a = serde_json::to_value(self).expect("attempt serializes");
        let b = serde_json::to_value(other).expect("attempt serializes");
        let show =
            |v: &serde_json::Value, field: &str| v.get(field).map_or("-".into(), |v| v.to_string());
        ATTEMPT_FIELDS
            .iter()
            .filter(|(field, _)| a.get(field) != b.get(field))
            .map(|&(field, what)| (field, what, show(&a, field), show(&b, field)))
            .collect()
    }

    /// Why `recorded` (the attempt of the rows at `path`) cannot be resumed by `self`, if it
    /// cannot: `what` it is ("belongs to another run", "records another run").
    pub(super) fn refuse(
        &self,
        recorded: &Attempt,
        path: &Path,
        what: &str,
    ) -> Result<(), ShardError> {
        let mut differences: Vec<String> = recorded
            .differences(self)
            .into_iter()
            .map(|(_, what, theirs, ours)| format!("{what} {theirs} (this run: {ours})"))
            .collect();
        // Another version recorded other fields: the first difference says it all.
        if recorded.format != self.format {
            differences.truncate(1);
        }
        if differences.is_empty() {
            return Ok(());
        }
        Err(ShardError::Journal {
            path: path.to_path_buf(),
            message: format!(
                "{what}: {}; delete it or run without --resume",
                differences.join("; ")
            ),
        })
    }
}

/// What a journal held when an attempt began.
#[derive(Debug, Default)]
pub struct JournalContents {
    /// Whether there was a journal (with its header).
    pub found: bool,
    /// Whether every line was whole (no cut-short last line): appending after it is safe.
    pub whole: bool,
    /// The rows of its whole lines, in the order written.
    pub rows: Vec<Row>,
    /// The kept slots of partial cases of its whole lines, in the order written.
    pub kept: Vec<KeptSlot>,
    /// The lines dropped (1-based number, why): every other line is kept.
    pub dropped: Vec<(usize, &'static str)>,
}

impl JournalContents {
    /// Prints a warning per dropped line (the first [`WARNED_LINES`], then a count).
    pub fn warn(&self, path: &Path) {
        for (number, why) in self.dropped.iter().take(WARNED_LINES) {
            eprintln!(
                "gamebench: warning: {}: line {number} dropped: {why}; the other lines are kept",
                path.display()
            );
        }
        if self.dropped.len() > WARNED_LINES {
            eprintln!(
                "gamebench: warning: {}: {} more lines dropped",
                path.display(),
                self.dropped.len() - WARNED_LINES
            );
        }
    }
}

/// How many dropped lines of a journal are named one by one.
const WARNED_LINES: usize = 10;

/// How every journal chunk line begins (`JournalChunk` serialized).
const CHUNK_START: &str = "{\"rows\":";

/// One journal line: the complete rows of some cases, and the kept slots of those of them
/// that are partial (an interrupt stopped some of their engines).
#[derive(Debug, Serialize, Deserialize)]
struct JournalChunk {
    rows: Vec<Row>,
    /// Absent from the lines of whole cases (and from an older version's journal).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    kept: Vec<KeptSlot>,
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
        crate::util::atomic::beside(csv, ".partial")
    }

    /// What the journal at `path` holds, if it was written by the same `attempt` (an absent or
    /// empty file holds nothing). A journal of another attempt (another list, corpus, shard,
    /// engines or option) is an error naming what differs: resuming it would mix results.
    pub fn read(path: &Path, attempt: &Attempt) -> Result<JournalContents, ShardError> {
        let bytes =
            match crate::util::atomic::read_capped(path, crate::util::atomic::RESULTS_FILE_BYTES) {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    return Ok(JournalContents::default());
                }
                Err(source) => {
                    return Err(ShardError::Io {
                        path: path.to_path_buf(),
                        source,
                    });
                }
            };
        let text = String::from_utf8_lossy(&bytes);
        let mut lines = text.split_inclusive('\n');
        let Some(first) = lines.next() else {
            return Ok(JournalContents::default());
        };
        match serde_json::from_str::<Attempt>(first.trim_end()) {
            Ok(header) => attempt.refuse(&header, path, "belongs to another run")?,
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
        let mut contents = JournalContents {
            found: true,
            whole: first.ends_with('\n'),
            rows: Vec::new(),
            kept: Vec::new(),
            dropped: Vec::new(),
        };
        for (k, line) in lines.enumerate() {
            // The header is line 1.
            let number = k + 2;
            let Some(body) = line.strip_suffix('\n') else {
                // The process died while writing its last line.
                contents.whole = false;
                contents
                    .dropped
                    .push((number, "cut short (the last line, not ended)"));
                continue;
            };
            if let Ok(chunk) = serde_json::from_str::<JournalChunk>(body) {
                contents.rows.extend(chunk.rows);
                contents.kept.extend(chunk.kept);
                continue;
            }
            // Not a whole chunk: the rest of a line cut short, then a whole one (the later
            // attempt's), or a line that is no chunk at all. A whole chunk at its end is kept.
            contents.whole = false;
            let rest = body
                .rmatch_indices(CHUNK_START)
                .map(|(at, _)| at)
                .find(|&at| at > 0)
                .and_then(|at| serde_json::from_str::<JournalChunk>(&body[at..]).ok());
            match rest {
                Some(chunk) => {
                    contents.rows.extend(chunk.rows);
                    contents.kept.extend(chunk.kept);
                    contents
                        .dropped
                        .push((number, "begins with a chunk cut short (the rest kept)"));
                }
                None => contents
                    .dropped
                    .push((number, "not a whole journal chunk (torn or foreign)")),
            }
        }
        Ok(contents)
    }

    /// Starts a journal at `path` holding `carried` (rows kept from earlier attempts, one line
    /// per case, with the `kept` slots of that case), replacing any previous one atomically:
    /// until the rename the old journal is there, after it the new one holds all it held that
    /// is kept.
    pub fn create(
        path: &Path,
        attempt: &Attempt,
        carried: &[Row],
        kept: &[KeptSlot],
    ) -> Result<Journal, ShardError> {
        let mut text = serde_json::to_string(attempt).expect("header serializes");
        text.push('\n');
        let mut by_case: HashMap<(&str, usize), Vec<KeptSlot>> = HashMap::new();
        for slot in kept {
            by_case
                .entry((slot.file.as_str(), slot.case))
                .or_default()
                .push(slot.clone());
        }
        for case in carried.chunk_by(|a, b| (&a.file, a.case) == (&b.file, b.case)) {
            let kept = by_case
                .remove(&(case[0].file.as_str(), case[0].case))
                .unwrap_or_default();
            text.push_str(&chunk_line(case, &kept));
        }
        write_atomic(path, text.as_bytes()).map_err(|source| ShardError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Journal::open(path)
    }

    /// Appends to the journal at `path` as it is (a whole journal of this attempt, see
    /// [`JournalContents::whole`]).
    pub fn open(path: &Path) -> Result<Journal, ShardError> {
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|source| ShardError::Io {
                path: path.to_path_buf(),
                source,
            })?;
        Ok(Journal {
            path: path.to_path_buf(),
            file,
            synced: Instant::now(),
        })
    }

    /// Appends the complete rows of some cases, with the `kept` slots of those that are
    /// partial. Each line goes to the kernel at once (a killed process loses nothing
    /// appended); it is synced to disk at most once per [`JOURNAL_SYNC_INTERVAL`], so a
    /// machine crash loses at most that much.
    pub fn append(&mut self, rows: &[Row], kept: &[KeptSlot]) -> Result<(), ShardError> {
        if rows.is_empty() {
            return Ok(());
        }
        let io = |source| ShardError::Io {
            path: self.path.clone(),
            source,
        };
        self.file
            .write_all(chunk_line(rows, kept).as_bytes())
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

fn chunk_line(rows: &[Row], kept: &[KeptSlot]) -> String {
    let mut line = serde_json::to_string(&JournalChunk {
        rows: rows.to_vec(),
        kept: kept.to_vec(),
    })
    .expect("rows serialize");
    line.push('\n');
    line
}
