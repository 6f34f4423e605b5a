//! The results CSV: one [`Row`] per case, engine and timed run, written and read back.
//!
//! The CSV is the raw data (schema below, stable column order, a header row). Invariants: the
//! column order is the field order of [`Row`] (serde writes them in order) and never changes;
//! a column is only ever added at the end of its group and read with `#[serde(default)]`, so a
//! CSV written by an older version still reads. Columns added
//! later (`cells`, `repeats`, `user_ns`, `sys_ns`, `memory_kb`) may be missing from older CSVs:
//! they read as empty.
//!
//! | column    | meaning                                                                  |
//! |-----------|--------------------------------------------------------------------------|
//! | game      | game name (`linkpop`, `samegame`, `vexed`, `yut`)                        |
//! | engine    | engine name                                                              |
//! | file      | the input file, relative to the path named on the command line          |
//! | case      | 1-based index of the case in its file                                    |
//! | run       | 1-based timed run of this case (`--runs`); warm-up runs are not recorded |
//! | label     | the case's name where the game has one (Vexed puzzle name)               |
//! | size      | the case's size (`30x30`, `21 turns`)                                    |
//! | cells     | the case's size as a number (cells, turns, selections): a plot's x axis  |
//! | status    | `ok`, `unchecked`, `mismatch`, `error`, `unsolved`, `budget`, `timeout`, |
//! |           | `memory-limit`, `output-limit`, `runtime-error`                          |
//! | time_ns   | wall time of the engine on this case (empty for an unreadable case)      |
//! | timing    | what `time_ns` covers: `case`, `case-repeated` or `file`                 |
//! | repeats   | calls timed together for `case-repeated` (`time_ns` is one call's share) |
//! | user_ns   | external programs: user CPU time of the run (the whole file's)           |
//! | sys_ns    | external programs: system CPU time of the run (the whole file's)         |
//! | memory_kb | external programs: peak resident memory of the run, KiB (also on a      |
//! |           | failed or killed run)                                                    |
//! | work      | the engine's work counter                                                |
//! | work_unit | what `work` counts (`turns`, `pops`, `states`, ...)                      |
//! | score     | the answer's size where the game has one (Vexed: solution length)        |
//! | digest    | XXH3-64 of the case's output block, hex                                  |
//! | message   | why a case is `error`/`mismatch`, with file, case and line               |
//! | verdict   | the checker's verdict on a rejected output: `wrong-answer`,               |
//! |           | `presentation-error` or `checker-failure` (bad expected output); the time |
//! |           | limit of a `timeout`: `cpu` or `wall`; else empty                         |

use std::io::Write;

use serde::{Deserialize, Serialize};

use super::Timing;
#[cfg(test)]
use crate::game::CheckVerdict;
use crate::status::{RowVerdict, Status};

/// The header of the results CSV: [`Row`]'s fields, in order (a test keeps them in step), so
/// that a CSV without a row still has its header.
pub const COLUMNS: [&str; 21] = [
    "game",
    "engine",
    "file",
    "case",
    "run",
    "label",
    "size",
    "cells",
    "status",
    "time_ns",
    "timing",
    "repeats",
    "user_ns",
    "sys_ns",
    "memory_kb",
    "work",
    "work_unit",
    "score",
    "digest",
    "message",
    "verdict",
];

/// One row of the results CSV.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub game: String,
    pub engine: String,
    pub file: String,
    pub case: usize,
    pub run: u32,
    pub label: String,
    pub size: String,
    #[serde(default)]
    pub cells: Option<u64>,
    pub status: Status,
    pub time_ns: Option<u64>,
    pub timing: Timing,
    #[serde(default)]
    pub repeats: Option<u32>,
    #[serde(default)]
    pub user_ns: Option<u64>,
    #[serde(default)]
    pub sys_ns: Option<u64>,
    #[serde(default)]
    pub memory_kb: Option<u64>,
    pub work: Option<u64>,
    pub work_unit: String,
    pub score: Option<u64>,
    pub digest: String,
    pub message: String,
    /// The checker's verdict on a rejected output (`--check` or the comparison with the
    /// baseline), or the time limit a `timeout` passed (`cpu`, `wall`); `None` otherwise.
    /// Written as [`RowVerdict::as_str`] (`wrong-answer`, `cpu`, ...), `None` as an empty
    /// field. Absent from CSVs of older versions: read as `None`.
    #[serde(default)]
    pub verdict: Option<RowVerdict>,
}

/// How the rows of a partial case begin their note in the `message` column: an interrupted
/// run keeps every (case, engine, run) that finished, and a case some of whose engines did not
/// finish says which ([`partial_note`]); `--resume` solves those and drops the note.
pub const PARTIAL_CASE: &str = "partial case: not finished by ";

/// The note a finished row of a partial case carries: the engines that did not finish it.
pub fn partial_note(missing: &[&str]) -> String {
    format!("{PARTIAL_CASE}{} (interrupted)", missing.join(", "))
}

/// `message` without its partial-case note (the note comes last, after `; ` when the row
/// already had a message), or `None` when it has none.
pub fn without_partial_note(message: &str) -> Option<String> {
    let at = message.find(PARTIAL_CASE)?;
    let head = &message[..at];
    Some(head.strip_suffix("; ").unwrap_or(head).to_string())
}

/// Writes rows as CSV with a header row.
pub fn write_csv<W: Write>(out: W, rows: &[Row]) -> csv::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    for row in rows {
        writer.serialize(row)?;
    }
    writer.flush()?;
    Ok(())
}

/// Reads rows written by [`write_csv`].
pub fn read_csv<R: std::io::Read>(input: R) -> csv::Result<Vec<Row>> {
    csv::Reader::from_reader(input).deserialize().collect()
}

/// A row for the tests of the results modules: game `toy`, file `f.in`, run 1, work 1 turn.
#[cfg(test)]
pub(super) fn test_row(engine: &str, case: usize, status: Status, time: Option<u64>) -> Row {
    Row {
        game: "toy".into(),
        engine: engine.into(),
        file: "f.in".into(),
        case,
        run: 1,
        label: String::new(),
        size: String::new(),
        cells: None,
        status,
        time_ns: time,
        timing: Timing::Case,
        repeats: None,
        user_ns: None,
        sys_ns: None,
        memory_kb: None,
        work: Some(1),
        work_unit: "turns".into(),
        score: None,
        digest: String::new(),
        message: String::new(),
        verdict: None,
    }
}

#[cfg(test)]
mod tests {
    use super::test_row as row;
    use super::*;

    #[test]
    fn the_header_is_the_row_s_fields() {
        let mut out = Vec::new();
        write_csv(&mut out, &[test_row("e", 1, Status::Ok, Some(1))]).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().next().unwrap(), COLUMNS.join(","));
    }

    #[test]
    fn csv_round_trips_with_header_and_reads_old_columns() {
        let rows = vec![
            row("reference", 1, Status::Ok, Some(5)),
            row("table", 1, Status::Error, None),
        ];
        let mut bytes = Vec::new();
        write_csv(&mut bytes, &rows).unwrap();
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(text.starts_with(
            "game,engine,file,case,run,label,size,cells,status,time_ns,timing,repeats,user_ns,sys_ns,memory_kb,work,work_unit,score,digest,message,verdict\n"
        ));
        assert_eq!(read_csv(&bytes[..]).unwrap(), rows);
        let old = "game,engine,file,case,run,label,size,status,time_ns,timing,work,work_unit,score,digest,message\n\
                   toy,reference,f.in,1,1,,,ok,5,case,1,turns,,,\n";
        assert_eq!(read_csv(old.as_bytes()).unwrap(), rows[..1]);
    }

    #[test]
    fn a_csv_without_the_verdict_column_still_reads() {
        let old = "game,engine,file,case,run,label,size,status,time_ns,timing,work,work_unit,score,digest,message\n\
                   toy,reference,f.in,1,1,,,mismatch,5,case,1,turns,,,why\n";
        let rows = read_csv(old.as_bytes()).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!((rows[0].status, rows[0].verdict), (Status::Mismatch, None));
    }

    #[test]
    fn verdicts_are_written_by_name_and_read_back() {
        let verdicts = [
            (None, ""),
            (Some(CheckVerdict::WrongAnswer.into()), "wrong-answer"),
            (
                Some(CheckVerdict::PresentationError.into()),
                "presentation-error",
            ),
            (Some(CheckVerdict::CheckerFailure.into()), "checker-failure"),
            (Some(RowVerdict::Cpu), "cpu"),
            (Some(RowVerdict::Wall), "wall"),
        ];
        for (verdict, name) in verdicts {
            let rows = vec![Row {
                verdict,
                ..row("reference", 1, Status::Mismatch, Some(5))
            }];
            let mut bytes = Vec::new();
            write_csv(&mut bytes, &rows).unwrap();
            let text = String::from_utf8(bytes.clone()).unwrap();
            let line = text.lines().nth(1).unwrap();
            assert_eq!(
                line,
                format!("toy,reference,f.in,1,1,,,,mismatch,5,case,,,,,1,turns,,,,{name}")
            );
            assert_eq!(read_csv(&bytes[..]).unwrap(), rows);
        }
    }
}
