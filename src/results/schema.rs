//! The results CSV: one [`Row`] per case, engine and timed run, written and read back, all
//! made from one column table (the `columns!` invocation below): the header ([`COLUMNS`]),
//! the owned [`Row`] (read and written by serde), the borrowed [`Line`] and its fast writer
//! (`line.rs`), and the meanings ([`COLUMN_MEANINGS`], which `docs/csv.md`'s table follows).
//!
//! The CSV is the raw data (stable column order, a header row). Invariants: the column order
//! is the table's and never changes; a column is only ever added at the end and read with
//! `#[serde(default)]`, so a CSV written by an older version still reads (the columns added
//! later, `cells`, `repeats`, `user_ns`, `sys_ns`, `memory_kb` and `verdict`, read as empty
//! when missing). Adding a column: a line in the table, its producer (`runner/rows.rs`), and
//! its line in `docs/csv.md`.

use std::io::Write;

use super::Timing;
pub use super::line::Digest;
use super::line::columns;
#[cfg(test)]
use crate::game::CheckVerdict;
use crate::status::{RowVerdict, Status};

columns! {
    names {
        game: text, "game name (`linkpop`, `samegame`, `vexed`, `yut`)";
        engine: text, "engine name";
        file: text, "the input file, relative to the path named on the command line";
    }
    fields {
        case: copy usize, "1-based index of the case in its file";
        run: copy u32, "1-based timed run of this case (`--runs`); warm-up runs are not recorded";
        label: text, "the case's name where the game has one (Vexed puzzle name)";
        size: text, "the case's size (`30x30`, `21 turns`)";
        #[serde(default)]
        cells: copy Option<u64>, "the case's size as a number (cells, turns, selections): a plot's x axis";
        status: copy Status, "`ok`, `unchecked`, `mismatch`, `error`, `unsolved`, `budget`, `timeout`, `memory-limit`, `output-limit`, `runtime-error`";
        time_ns: copy Option<u64>, "wall time of the engine on this case (empty for an unreadable case)";
        timing: copy Timing, "what `time_ns` covers: `case`, `case-repeated` or `file`";
        #[serde(default)]
        repeats: copy Option<u32>, "calls timed together for `case-repeated` (`time_ns` is one call's share)";
        #[serde(default)]
        user_ns: copy Option<u64>, "external programs: user CPU time of the run (the whole file's)";
        #[serde(default)]
        sys_ns: copy Option<u64>, "external programs: system CPU time of the run (the whole file's)";
        #[serde(default)]
        memory_kb: copy Option<u64>, "external programs: peak resident memory of the run, KiB (also on a failed or killed run)";
        work: copy Option<u64>, "the engine's work counter";
        work_unit: text, "what `work` counts (`turns`, `pops`, `states`, ...)";
        score: copy Option<u64>, "the answer's size where the game has one (Vexed: solution length)";
        digest: digest, "XXH3-64 of the case's output block, hex";
        message: text, "why a case is `error`/`mismatch`, with file, case and line";
        #[serde(default)]
        verdict: copy Option<RowVerdict>, "the checker's verdict on a rejected output (`wrong-answer`, `presentation-error`, `checker-failure`), or the time limit of a `timeout` (`cpu`, `wall`); else empty";
    }
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
        status,
        time_ns: time,
        work: Some(1),
        work_unit: "turns".into(),
        ..Row::default()
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
