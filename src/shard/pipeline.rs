//! The two pieces a [`Plan`](super::Plan) plugs into the runner's streaming run: the
//! [`CaseFilter`] choosing the cases it solves ([`ShardFilter`]), and the [`Sink`] its rows go
//! to ([`PlanSink`]).
//!
//! The filter asks [`super::list`]'s [`CaseList`] for each case's position and the shard
//! whether it owns it; the sink appends to [`super::journal`]'s [`Journal`] and feeds
//! [`super::manifest`]'s [`RowsHasher`]. [`super::plan`] builds both, runs, and takes the sink's
//! counts back for the manifest and the outcome.
//!
//! The filter also hands the runner the kept slots of the partial cases an interrupted
//! attempt left (their outputs and judgements): the runner judges such a case whole with
//! them, and the sink puts the rows it gets back for them in place of the carried ones.
//!
//! Invariants: a (case, engine) an earlier attempt finished is never solved again, and one it
//! did not finish always is; every case goes to the journal exactly once (as soon as its case
//! event comes, else with its file), but a partial case goes again once it is whole (its
//! later rows replace the partial ones when resumed); the CSV gets each file's rows once, the resumed and the
//! fresh ones together, in (case, engine as the table orders them, run) order, so a resumed
//! CSV is the one an uninterrupted run would have written.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::manifest::RowsHasher;
use super::{CaseList, Journal, Shard};
use crate::corpus::CaseFile;
use crate::results::{Row, Status, Tally};
use crate::runner::{
    CaseFilter, CsvSink, EngineTable, FileResults, KeptSlot, RecordSink, Sink, SinkError,
};

/// The cases a plan solves: those of its shard (all without one) that no earlier attempt
/// finished for the engine at hand.
pub(super) struct ShardFilter {
    pub(super) list: Arc<CaseList>,
    pub(super) shard: Option<Shard>,
    /// (file as written in rows, 1-based case, engine) already done.
    pub(super) done: HashSet<(String, usize, String)>,
    /// The kept slots of partial cases, by (file as written in rows, 1-based case, engine).
    pub(super) kept: HashMap<(String, usize, String), KeptSlot>,
}

impl CaseFilter for ShardFilter {
    fn wants(&self, position: usize, file: &CaseFile, case: usize, engine: &str) -> bool {
        let owned = self
            .shard
            .is_none_or(|s| s.owns(self.list.position(position, case)));
        owned
            && (self.done.is_empty()
                || !self
                    .done
                    .contains(&(file.row_name(), case + 1, engine.to_string())))
    }

    fn kept(
        &self,
        _position: usize,
        file: &CaseFile,
        case: usize,
        engine: &str,
    ) -> Option<&KeptSlot> {
        if self.kept.is_empty() {
            return None;
        }
        self.kept
            .get(&(file.row_name(), case + 1, engine.to_string()))
    }
}

/// The sink of a plan: each file's rows, merged with the rows resumed for that file in (case,
/// engine, run) order, go to the CSV, the summary records and the manifest's hash; the rows
/// solved now go to the journal.
pub(super) struct PlanSink<'a> {
    csv: CsvSink,
    pub(super) journal: Option<Journal>,
    /// Resumed rows by file (as written in rows), taken as their file comes.
    carried: HashMap<String, Vec<Row>>,
    engines: &'a EngineTable,
    /// The manifest's count, hash and failures over every row written to the CSV.
    pub(super) hasher: RowsHasher,
    /// Every row written to the CSV, for the summary.
    pub(super) records: RecordSink,
    /// The worst status and the number of the rows written to the CSV.
    pub(super) worst: Option<Status>,
    pub(super) rows: usize,
    /// (file position, 1-based case) already in the journal, from case events.
    journaled: HashSet<(usize, usize)>,
    /// The engine others are compared with, to settle resumed partial cases.
    baseline: String,
    /// Each file's position in the run (by file as written in rows), to write the rows
    /// carried for files an interrupted run did not reach, in corpus order.
    positions: HashMap<String, usize>,
}

impl<'a> PlanSink<'a> {
    /// A sink writing to `csv` and `journal`, putting back the `carried` rows (by file, as
    /// written in rows) among the rows of their file, in the order of `engines`.
    pub(super) fn new(
        csv: CsvSink,
        journal: Journal,
        carried: HashMap<String, Vec<Row>>,
        engines: &'a EngineTable,
        tally: Tally,
        baseline: String,
        positions: HashMap<String, usize>,
    ) -> PlanSink<'a> {
        PlanSink {
            baseline,
            positions,
            csv,
            journal: Some(journal),
            carried,
            engines,
            hasher: RowsHasher::default(),
            records: RecordSink::new(tally),
            journaled: HashSet::new(),
            worst: None,
            rows: 0,
        }
    }

    /// Appends `rows` to the journal, with the `kept` slots of their partial cases.
    fn journal(&mut self, rows: &[Row], kept: &[KeptSlot]) -> Result<(), SinkError> {
        if let Some(journal) = &mut self.journal {
            journal.append(rows, kept).map_err(|e| {
                let path = Journal::path_for(self.csv.path());
                SinkError::new(
                    "cannot append to",
                    &path,
                    std::io::Error::other(e.to_string()),
                )
            })?;
        }
        Ok(())
    }
}

impl Sink for PlanSink<'_> {
    fn case(&mut self, results: &FileResults<'_>) -> Result<(), SinkError> {
        if let Some(row) = results.rows.first() {
            self.journaled.insert((results.position, row.case));
        }
        self.journal(results.rows, &[])
    }

    fn file(&mut self, results: &FileResults<'_>) -> Result<(), SinkError> {
        let name = results.file.row_name();
        let carried = self.carried.remove(&name);
        // The resumed slots of partial cases come back among the runner's rows, judged with
        // the case: those replace their carried rows. Rows and kept slots carried are in the
        // journal already (a case finished now went to it whole, with its case event).
        let resumed: HashSet<(usize, &str)> = match &carried {
            None => HashSet::new(),
            Some(rows) => {
                let carried: HashSet<(usize, &str)> =
                    rows.iter().map(|r| (r.case, r.engine.as_str())).collect();
                results
                    .rows
                    .iter()
                    .map(|r| (r.case, r.engine.as_str()))
                    .filter(|key| carried.contains(key))
                    .collect()
            }
        };
        let resumed: HashSet<(usize, String)> = resumed
            .into_iter()
            .map(|(case, engine)| (case, engine.to_string()))
            .collect();
        let is_resumed = |case: usize, engine: &str| {
            !resumed.is_empty() && resumed.contains(&(case, engine.to_string()))
        };
        let fresh: Vec<Row> = results
            .rows
            .iter()
            .filter(|r| !self.journaled.contains(&(results.position, r.case)))
            .filter(|r| !is_resumed(r.case, &r.engine))
            .cloned()
            .collect();
        let kept: Vec<KeptSlot> = results
            .kept
            .iter()
            .filter(|k| !is_resumed(k.case, &k.engine))
            .cloned()
            .collect();
        self.journaled
            .retain(|&(position, _)| position != results.position);
        self.journal(&fresh, &kept)?;
        let rows: Vec<Row> = match carried {
            None => results.rows.to_vec(),
            Some(mut rows) => {
                rows.retain(|r| !is_resumed(r.case, &r.engine));
                let order: Vec<String> = self
                    .engines
                    .of(results.file.game)
                    .iter()
                    .map(|e| e.name().to_string())
                    .collect();
                let rank = |engine: &str| order.iter().position(|e| e == engine);
                rows.extend(results.rows.iter().cloned());
                rows.sort_by_key(|r| (r.case, rank(&r.engine), r.run));
                settle_partial_cases(&mut rows, &order, &self.baseline);
                rows
            }
        };
        self.write(&rows, results)
    }

    fn finish(&mut self, complete: bool) -> Result<(), SinkError> {
        if !complete {
            // The rows carried for files the run did not reach are kept whole in the
            // interrupted CSV too, so that it and the summary cover everything finished.
            let mut left: Vec<(usize, Vec<Row>)> = std::mem::take(&mut self.carried)
                .into_iter()
                .map(|(file, rows)| {
                    (
                        self.positions.get(&file).copied().unwrap_or(usize::MAX),
                        rows,
                    )
                })
                .collect();
            left.sort_by_key(|(position, _)| *position);
            for (_, rows) in left {
                self.count(&rows);
                self.csv.write_rows(&rows)?;
                self.records.tally.add_rows(&rows);
            }
        }
        self.csv.close(complete)
    }
}

impl PlanSink<'_> {
    /// Counts `rows` for the manifest and the outcome.
    fn count(&mut self, rows: &[Row]) {
        for row in rows {
            self.hasher.add(row);
            self.worst = Some(self.worst.unwrap_or(Status::Ok).worst(row.status));
        }
        self.rows += rows.len();
    }

    /// Writes a file's rows to the CSV and the summary's records.
    fn write(&mut self, rows: &[Row], results: &FileResults<'_>) -> Result<(), SinkError> {
        self.count(rows);
        self.csv.write_rows(rows)?;
        self.records.file(&FileResults {
            rows,
            kept: &[],
            prepared: None,
            ..*results
        })
    }
}

/// Settles the cases of `rows` (one file's, carried and fresh, in (case, engine, run) order)
/// that an earlier attempt left partial and whose outputs it did not keep (the runner judged
/// those it kept whole, and their rows carry no note): their notes are dropped or restated
/// with the engines still missing (`order`: the file's engines), and once every engine has
/// finished, each `unchecked` output is compared with the `baseline` engine's by digest: the
/// same bytes are the same answer (`ok`, as the comparison would have said); different bytes
/// stay `unchecked` and say they were not compared.
fn settle_partial_cases(rows: &mut [Row], order: &[String], baseline: &str) {
    let mut start = 0;
    while start < rows.len() {
        let case = rows[start].case;
        let end = start + rows[start..].iter().take_while(|r| r.case == case).count();
        let rows = &mut rows[start..end];
        start = end;
        let mut partial = false;
        for row in rows.iter_mut() {
            if let Some(message) = crate::results::without_partial_note(&row.message) {
                row.message = message;
                partial = true;
            }
        }
        if !partial {
            continue;
        }
        let missing: Vec<&str> = order
            .iter()
            .map(String::as_str)
            .filter(|e| !rows.iter().any(|r| r.engine == *e))
            .collect();
        if !missing.is_empty() {
            let note = crate::results::partial_note(&missing);
            for row in rows.iter_mut() {
                tell(row, &note);
            }
            continue;
        }
        let Some(base) = rows
            .iter()
            .find(|r| r.engine == baseline && !r.digest.is_empty())
            .map(|r| r.digest.clone())
        else {
            continue;
        };
        let mut agreed = false;
        for row in rows.iter_mut().filter(|r| r.engine != baseline) {
            if row.digest.is_empty() {
                continue;
            }
            if row.digest == base {
                agreed = true;
                if row.status == Status::Unchecked {
                    row.status = Status::Ok;
                }
            } else if row.status == Status::Unchecked {
                tell(
                    row,
                    &format!(
                        "not compared with {baseline}: the case was resumed and the earlier output was not kept (the digests differ)"
                    ),
                );
            }
        }
        if agreed {
            for row in rows.iter_mut().filter(|r| r.engine == baseline) {
                if row.status == Status::Unchecked {
                    row.status = Status::Ok;
                }
            }
        }
    }
}

/// Adds `line` to a row's message, after what it already says.
fn tell(row: &mut Row, line: &str) {
    row.message = if row.message.is_empty() {
        line.to_string()
    } else {
        format!("{}; {line}", row.message)
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_filter_wants_the_shards_cases() {
        // a: 3 cases, b: none, c: 2 -> positions a1 a2 a3 c1 c2.
        let (files, list) = super::super::list::three_files();
        // Shard 1 of 2 owns positions 1 and 3: a's second case and c's first.
        let filter = ShardFilter {
            list: Arc::new(list),
            shard: Some(Shard { index: 1, count: 2 }),
            done: HashSet::new(),
            kept: HashMap::new(),
        };
        let wanted: Vec<(usize, usize)> = [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1)]
            .into_iter()
            .filter(|&(f, c)| filter.wants(f, &files[f], c, "table"))
            .collect();
        assert_eq!(wanted, [(0, 1), (2, 0)]);
        // A (case, engine) done before is not wanted again; another engine still is.
        let resumed = ShardFilter {
            done: HashSet::from([("a.in".to_string(), 2, "table".to_string())]),
            ..filter
        };
        assert!(!resumed.wants(0, &files[0], 1, "table"));
        assert!(resumed.wants(0, &files[0], 1, "reference"));
    }
}
