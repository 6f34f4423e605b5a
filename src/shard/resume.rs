//! What `--resume` takes back from earlier attempts ([`earlier_rows`]): the rows of the final
//! CSV when its record vouches for it, then the journal's, each row checked against the case
//! list and the run.
//!
//! [`super::plan`] calls [`earlier_rows`] before the run, starts (or continues) the journal
//! with what it returns, and skips the (case, engine) pairs it holds.
//!
//! Invariants:
//! - rows are resumed only from a source written by the same [`Attempt`] (case list, corpus
//!   contents, shard, engines and every option that changes a row): a journal whose header, or
//!   a final CSV whose record (a shard's manifest, a plain run's `<csv>.attempt.json`), records
//!   another attempt is an error naming what differs, never reused;
//! - a final CSV is reused only while its record's digest of its bytes still matches: a CSV
//!   without a record (written by a plain run without `--resume`, an older version, or a
//!   graceful interrupt before its record) or changed since is *bare*: its rows are checked
//!   and reported, never reused (their cases are solved again, unless the journal has them);
//! - a row is kept only if its (file, case) is in the case list with its game, its engine is
//!   one this run uses on that game, its run is in 1..=`--runs`, its case is the shard's, and its
//!   key (file, case, engine, run) comes once in its source (a row of a partial case is
//!   replaced by a later copy, the case finished by a resumed run); a (case, engine) is kept only with
//!   all its runs, from the first source (CSV, then journal) that has it whole. Anything else is
//!   dropped with a warning on stderr (a key in both sources is not a duplicate).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::{Attempt, CaseList, CsvRecord, Journal, Manifest, Shard, ShardError};
use crate::corpus::CaseFile;
use crate::results::Row;
use crate::runner::{EngineTable, KeptSlot};

/// What earlier attempts left that this one keeps.
pub(super) struct Earlier {
    /// The rows kept, grouped by case (CSV's first, then the journal's).
    pub(super) rows: Vec<Row>,
    /// The journal's kept slots of the partial cases among `rows`, each with its rows.
    pub(super) kept: Vec<KeptSlot>,
    /// Whether the journal can be continued as it is: it was whole, every row kept is from it
    /// and none of its rows was dropped. Otherwise the plan replaces it by one holding `rows`.
    pub(super) append: bool,
}

/// Where the final CSV's record is: a shard's manifest, or a plain run's `<csv>.attempt.json`.
pub(super) enum RecordAt {
    Manifest(PathBuf),
    Plain(PathBuf),
}

/// The rows of earlier attempts at the run writing `csv` (see the module doc), for `attempt`
/// over `files` (whose list is `list`) with the engines of `engines`.
pub(super) fn earlier_rows(
    csv: &Path,
    record: RecordAt,
    attempt: &Attempt,
    engines: &EngineTable,
    files: &[CaseFile],
    list: &CaseList,
) -> Result<Earlier, ShardError> {
    let journal_path = Journal::path_for(csv);
    let recorded = recorded_attempt(&record, attempt)?;
    let journal = Journal::read(&journal_path, attempt)?;
    journal.warn(&journal_path);
    let check = RowCheck::new(files, list, engines, attempt);
    let mut done: HashSet<(String, usize, String)> = HashSet::new();
    let mut rows = Vec::new();
    if let Some(csv_rows) = read_csv(csv)? {
        let (kept, problems) = check.keep(csv_rows);
        problems.warn(csv);
        match recorded {
            Some(digest) if digest == file_digest(csv)? => {
                done.extend(kept.iter().map(pair_of));
                rows.extend(kept);
            }
            _ => {
                let journaled: HashSet<(String, usize, String)> =
                    journal.rows.iter().map(pair_of).collect();
                let cases: HashSet<(&str, usize)> = kept
                    .iter()
                    .filter(|r| !journaled.contains(&pair_of(r)))
                    .map(|r| (r.file.as_str(), r.case))
                    .collect();
                if !cases.is_empty() {
                    let why = if recorded.is_some() {
                        "has changed since its record was written"
                    } else {
                        "has no record of the run that wrote it (only a run with --resume writes one)"
                    };
                    eprintln!(
                        "gamebench: warning: {}: {why}, so its rows are not reused: its {} case(s) missing from the journal are solved again",
                        csv.display(),
                        cases.len()
                    );
                }
            }
        }
    }
    let from_journal = journal.rows.len();
    let (kept, problems) = check.keep(journal.rows);
    problems.warn(&journal_path);
    let from_csv = rows.len();
    let before = kept.len();
    rows.extend(kept.into_iter().filter(|r| !done.contains(&pair_of(r))));
    let kept = kept_slots(journal.kept, &rows);
    let append = journal.found
        && journal.whole
        && from_csv == 0
        && before == from_journal
        && rows.len() == from_journal;
    Ok(Earlier { rows, kept, append })
}

/// The kept slots whose (file, case, engine) has partial rows among `rows` (the rows kept),
/// each given those rows, when they match its output ([`KeptSlot::consistent`]); the last
/// journaled of a key wins (a second interrupt journals a resumed slot again).
fn kept_slots(slots: Vec<KeptSlot>, rows: &[Row]) -> Vec<KeptSlot> {
    let mut partial: HashMap<(String, usize, String), Vec<Row>> = HashMap::new();
    for row in rows.iter().filter(|r| is_partial(r)) {
        partial.entry(pair_of(row)).or_default().push(row.clone());
    }
    let mut by_key: HashMap<(String, usize, String), KeptSlot> = HashMap::new();
    for slot in slots {
        let key = (slot.file.clone(), slot.case, slot.engine.clone());
        if let Some(rows) = partial.get(&key) {
            let mut rows = rows.clone();
            rows.sort_by_key(|r| r.run);
            let mut slot = slot;
            slot.rows = rows;
            by_key.insert(key, slot);
        }
    }
    let mut kept: Vec<KeptSlot> = by_key.into_values().filter(|s| s.consistent()).collect();
    kept.sort_by(|a, b| (&a.file, a.case, &a.engine).cmp(&(&b.file, b.case, &b.engine)));
    kept
}

/// Whether a row is of a partial case (its message ends with the partial-case note).
fn is_partial(row: &Row) -> bool {
    crate::results::without_partial_note(&row.message).is_some()
}

/// The digest of the final CSV's bytes its record vouches for, if it has a record of this
/// attempt; an error if the record is of another attempt.
fn recorded_attempt(record: &RecordAt, attempt: &Attempt) -> Result<Option<String>, ShardError> {
    let path = match record {
        RecordAt::Manifest(p) | RecordAt::Plain(p) => p,
    };
    let text = match crate::util::atomic::read_capped_string(
        path,
        crate::util::atomic::SMALL_FILE_BYTES,
    ) {
        Ok(text) => text,
        // Past its cap (or not text), a record is refused: no record is that.
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
            return Err(ShardError::Io {
                path: path.to_path_buf(),
                source: e,
            });
        }
        Err(_) => return Ok(None),
    };
    let not_record = |e: serde_json::Error| ShardError::Journal {
        path: path.to_path_buf(),
        message: format!("not a gamebench record: {e}; delete it or run without --resume"),
    };
    let (recorded, digest) = match record {
        RecordAt::Manifest(_) => {
            let m: Manifest = serde_json::from_str(&text).map_err(not_record)?;
            match m.attempt {
                Some(a) => (a, m.csv_digest),
                // An older version's manifest: its CSV is bare.
                None => return Ok(None),
            }
        }
        RecordAt::Plain(_) => {
            let r: CsvRecord = serde_json::from_str(&text).map_err(not_record)?;
            (r.attempt, r.csv_digest)
        }
    };
    attempt.refuse(&recorded, path, "records another run")?;
    Ok(Some(digest))
}

/// The XXH3-64 of the file's bytes.
pub(super) fn file_digest(path: &Path) -> Result<String, ShardError> {
    std::fs::read(path)
        .map(|b| crate::util::digest::digest(&b))
        .map_err(|source| ShardError::Io {
            path: path.to_path_buf(),
            source,
        })
}

/// The rows of the final CSV of an earlier attempt, if there is one.
fn read_csv(path: &Path) -> Result<Option<Vec<Row>>, ShardError> {
    match std::fs::File::open(path) {
        Ok(file) => crate::results::read_csv(std::io::BufReader::new(file))
            .map(Some)
            .map_err(|source| ShardError::Csv {
                path: path.to_path_buf(),
                source,
            }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(ShardError::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// (file, case, engine) of a row.
fn pair_of(row: &Row) -> (String, usize, String) {
    (row.file.clone(), row.case, row.engine.clone())
}

/// What a row must be to be kept (see the module doc).
struct RowCheck<'a> {
    /// Per file as written in rows: its index in the run's list and its game.
    files: HashMap<String, (usize, &'static str)>,
    list: &'a CaseList,
    /// (game, engine) pairs this run uses.
    used: HashSet<(&'static str, String)>,
    shard: Option<Shard>,
    runs: u32,
}

/// The rows a check dropped, by why: (count, first example).
#[derive(Default)]
struct Problems {
    unknown: (usize, String),
    foreign: (usize, String),
    duplicated: (usize, String),
    incomplete: (usize, String),
}

impl Problems {
    fn note(slot: &mut (usize, String), row: &Row) {
        if slot.0 == 0 {
            slot.1 = format!(
                "{} case {} engine {} run {}",
                row.file, row.case, row.engine, row.run
            );
        }
        slot.0 += 1;
    }

    /// Prints one warning per kind of dropped row.
    fn warn(&self, path: &Path) {
        for ((n, first), why) in [
            (&self.unknown, "of cases not in this corpus's case list"),
            (
                &self.foreign,
                "of another game, engine, run number or shard than this run's",
            ),
            (&self.duplicated, "duplicated (the first copy is kept)"),
            (
                &self.incomplete,
                "of (case, engine) pairs missing some runs (solved again)",
            ),
        ] {
            if *n > 0 {
                eprintln!(
                    "gamebench: warning: {}: dropped {n} row(s) {why}; first: {first}",
                    path.display()
                );
            }
        }
    }
}

impl<'a> RowCheck<'a> {
    fn new(
        files: &[CaseFile],
        list: &'a CaseList,
        engines: &EngineTable,
        attempt: &Attempt,
    ) -> RowCheck<'a> {
        let used = files
            .iter()
            .flat_map(|f| {
                engines
                    .of(f.game)
                    .iter()
                    .map(|e| (f.game.name(), e.name().to_string()))
                    .collect::<Vec<_>>()
            })
            .collect();
        RowCheck {
            files: files
                .iter()
                .enumerate()
                .map(|(i, f)| (f.row_name(), (i, f.game.name())))
                .collect(),
            list,
            used,
            shard: attempt.shard,
            runs: attempt.runs,
        }
    }

    /// The rows of one source to keep, in their order, and what was dropped. A row of a
    /// partial case is replaced by a later copy of its key (the case judged whole when a
    /// resumed run finished it).
    fn keep(&self, rows: Vec<Row>) -> (Vec<Row>, Problems) {
        let mut problems = Problems::default();
        let mut seen: HashMap<(String, usize, String, u32), usize> = HashMap::new();
        let mut runs: HashMap<(String, usize, String), u32> = HashMap::new();
        let mut candidates: Vec<Row> = Vec::new();
        for row in rows {
            let Some(&(index, game)) = self.files.get(&row.file) else {
                Problems::note(&mut problems.unknown, &row);
                continue;
            };
            if row.case == 0 || row.case > self.list.cases_of(index) {
                Problems::note(&mut problems.unknown, &row);
                continue;
            }
            let position = self.list.position(index, row.case - 1);
            if row.game != game
                || !self.used.contains(&(game, row.engine.clone()))
                || !(1..=self.runs).contains(&row.run)
                || self.shard.is_some_and(|s| !s.owns(position))
            {
                Problems::note(&mut problems.foreign, &row);
                continue;
            }
            let key = (row.file.clone(), row.case, row.engine.clone(), row.run);
            if let Some(&at) = seen.get(&key) {
                if is_partial(&candidates[at]) {
                    candidates[at] = row;
                } else {
                    Problems::note(&mut problems.duplicated, &row);
                }
                continue;
            }
            seen.insert(key, candidates.len());
            *runs.entry(pair_of(&row)).or_default() += 1;
            candidates.push(row);
        }
        let mut kept = Vec::with_capacity(candidates.len());
        for row in candidates {
            if runs[&pair_of(&row)] == self.runs {
                kept.push(row);
            } else {
                Problems::note(&mut problems.incomplete, &row);
            }
        }
        (kept, problems)
    }
}
