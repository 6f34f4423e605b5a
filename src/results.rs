//! The results of a run: one CSV row per case, engine and timed run, and the summary table.
//!
//! The CSV is the raw data (schema below, stable column order, a header row); the summary is
//! derived from the rows only, so a summary can be recomputed from a CSV file.
//!
//! | column    | meaning                                                                  |
//! |-----------|--------------------------------------------------------------------------|
//! | game      | game name (`linkpop`, `samegame`, `vexed`, `yut`)                        |
//! | engine    | engine name                                                              |
//! | file      | the input file as found (`corpora/yut/sample1.in`)                      |
//! | case      | 1-based index of the case in its file                                    |
//! | run       | 1-based timed run of this case (`--runs`); warm-up runs are not recorded |
//! | label     | the case's name where the game has one (Vexed puzzle name)               |
//! | size      | the case's size (`30x30`, `21 turns`)                                    |
//! | status    | `ok`, `mismatch`, `error`, `unsolved`, `budget`                          |
//! | time_ns   | wall time of the engine on this case (empty for an unreadable case)      |
//! | timing    | what `time_ns` covers: `case` for internal engines                       |
//! | work      | the engine's work counter                                                |
//! | work_unit | what `work` counts (`turns`, `pops`, `states`, ...)                      |
//! | score     | the answer's size where the game has one (Vexed: solution length)        |
//! | digest    | FNV-1a 64 of the case's output block, hex                                |
//! | message   | why a case is `error`/`mismatch`, with file, case and line               |
//! | verdict   | the checker's verdict on a rejected output: `wrong-answer`,               |
//! |           | `presentation-error` or `checker-failure` (bad expected output); else empty |

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use crate::status::Status;

/// What a row's time covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Timing {
    /// The engine's time on this one case.
    Case,
    /// A whole file's time (external programs run once per file): the same on each of its rows.
    File,
}

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
    pub status: Status,
    pub time_ns: Option<u64>,
    pub timing: Timing,
    pub work: Option<u64>,
    pub work_unit: String,
    pub score: Option<u64>,
    pub digest: String,
    pub message: String,
    /// [`crate::game::CheckVerdict`] of a rejected output (`--check` or the comparison with
    /// the baseline), empty otherwise. Absent from CSVs of older versions: read as empty.
    #[serde(default)]
    pub verdict: String,
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

/// One line of the summary: an engine of a game over all its cases.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EngineSummary {
    pub game: String,
    pub engine: String,
    pub cases: usize,
    pub ok: usize,
    pub mismatch: usize,
    pub error: usize,
    pub unsolved: usize,
    pub budget: usize,
    /// Sum over cases of each case's median run time.
    pub total_ns: u64,
    pub median_ns: u64,
    pub min_ns: u64,
    pub max_ns: u64,
    /// How many times faster than the baseline engine of the same game, on the cases both timed
    /// (`None` for the baseline itself or when there is nothing to compare).
    pub speedup: Option<f64>,
    pub baseline: Option<String>,
}

/// What the summary keeps of one case of one engine: its status and time, without the output,
/// digest or message, so that a run's memory does not grow with its outputs. Names are shared
/// (`Arc<str>`): one allocation per file and per engine, not per case.
#[derive(Debug, Clone)]
pub struct Record {
    pub game: Arc<str>,
    pub engine: Arc<str>,
    pub file: Arc<str>,
    /// 1-based case index.
    pub case: usize,
    pub label: Box<str>,
    /// The worst status over the case's runs.
    pub status: Status,
    /// The median of the timed runs (none for a case that could not be timed).
    pub time_ns: Option<u64>,
    pub timing: Timing,
}

impl Record {
    /// The records of CSV rows: one per (game, engine, file, case), runs folded into the median.
    pub fn from_rows(rows: &[Row]) -> Vec<Record> {
        fn name<'r>(names: &mut HashMap<&'r str, Arc<str>>, s: &'r str) -> Arc<str> {
            names.entry(s).or_insert_with(|| s.into()).clone()
        }
        let mut index: HashMap<(&str, &str, &str, usize), usize> = HashMap::new();
        let mut records: Vec<Record> = Vec::new();
        let mut times: Vec<Vec<u64>> = Vec::new();
        let mut names: HashMap<&str, Arc<str>> = HashMap::new();
        for row in rows {
            let key = (&*row.game, &*row.engine, &*row.file, row.case);
            let i = *index.entry(key).or_insert_with(|| {
                records.push(Record {
                    game: name(&mut names, &row.game),
                    engine: name(&mut names, &row.engine),
                    file: name(&mut names, &row.file),
                    case: row.case,
                    label: row.label.as_str().into(),
                    status: row.status,
                    time_ns: None,
                    timing: row.timing,
                });
                times.push(Vec::new());
                records.len() - 1
            });
            records[i].status = records[i].status.worst(row.status);
            times[i].extend(row.time_ns);
        }
        for (record, mut runs) in records.iter_mut().zip(times) {
            record.time_ns = (!runs.is_empty()).then(|| median(&mut runs));
        }
        records
    }
}

/// Records grouped per (game, engine) in first-appearance order, each group's cases sorted by
/// (file, case).
struct Groups<'a> {
    keys: Vec<(&'a str, &'a str)>,
    cases: Vec<BTreeMap<(&'a str, usize), &'a Record>>,
}

impl<'a> Groups<'a> {
    fn new(records: &'a [Record]) -> Self {
        let mut index: HashMap<(&str, &str), usize> = HashMap::new();
        let mut groups = Groups {
            keys: Vec::new(),
            cases: Vec::new(),
        };
        for record in records {
            let g = *index
                .entry((&record.game, &record.engine))
                .or_insert_with(|| {
                    groups.keys.push((&record.game, &record.engine));
                    groups.cases.push(BTreeMap::new());
                    groups.keys.len() - 1
                });
            groups.cases[g].insert((&record.file, record.case), record);
        }
        groups
    }

    fn find(&self, game: &str, engine: &str) -> Option<usize> {
        self.keys.iter().position(|&k| k == (game, engine))
    }

    /// Per-case time of group `g`. A `file`-timed case (an external program, timed per file)
    /// gets its file's time spread evenly over the file's cases, so totals and speed-ups stay
    /// per-file exact.
    fn times(&self, g: usize) -> BTreeMap<(&'a str, usize), u64> {
        let mut per_file: BTreeMap<&str, u64> = BTreeMap::new();
        for ((file, _), case) in &self.cases[g] {
            if case.timing == Timing::File {
                *per_file.entry(file).or_default() += 1;
            }
        }
        self.cases[g]
            .iter()
            .filter_map(|(&(file, n), c)| {
                let t = c.time_ns?;
                let share = match c.timing {
                    Timing::Case => t,
                    Timing::File => t / per_file[file],
                };
                Some(((file, n), share))
            })
            .collect()
    }
}

/// One of the slowest cases of an engine.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SlowCase {
    pub file: String,
    pub case: usize,
    pub label: String,
    pub time_ns: u64,
}

/// The `n` slowest cases of every (game, engine), slowest first (ties: file, then case).
pub fn slowest(records: &[Record], n: usize) -> Vec<(String, String, Vec<SlowCase>)> {
    let groups = Groups::new(records);
    (0..groups.keys.len())
        .map(|g| {
            let mut mine: Vec<SlowCase> = groups
                .times(g)
                .into_iter()
                .map(|((file, case), time_ns)| SlowCase {
                    file: file.to_string(),
                    case,
                    label: groups.cases[g][&(file, case)].label.to_string(),
                    time_ns,
                })
                .collect();
            // Stable sort: equal times keep (file, case) order.
            mine.sort_by_key(|c| std::cmp::Reverse(c.time_ns));
            mine.truncate(n);
            let (game, engine) = groups.keys[g];
            (game.to_string(), engine.to_string(), mine)
        })
        .collect()
}

/// The median of a non-empty list (the lower middle for an even count).
pub fn median(values: &mut [u64]) -> u64 {
    values.sort_unstable();
    values[(values.len() - 1) / 2]
}

/// Summarises rows per game and engine, in first-appearance order. The baseline of a game is
/// `baseline` when that engine ran on it, else none.
pub fn summarize(records: &[Record], baseline: &str) -> Vec<EngineSummary> {
    let groups = Groups::new(records);
    (0..groups.keys.len())
        .map(|g| {
            let (game, engine) = groups.keys[g];
            let cases = &groups.cases[g];
            let count = |s: Status| cases.values().filter(|c| c.status == s).count();
            let mine = groups.times(g);
            let mut values: Vec<u64> = mine.values().copied().collect();
            let total_ns = values.iter().sum();
            let (median_ns, min_ns, max_ns) = if values.is_empty() {
                (0, 0, 0)
            } else {
                (
                    median(&mut values),
                    values[0],
                    *values.last().expect("non-empty"),
                )
            };
            let base = groups.find(game, baseline).filter(|_| engine != baseline);
            let speedup = base.and_then(|b| {
                let base_times = groups.times(b);
                let (mut bt, mut mt) = (0u64, 0u64);
                for (case, t) in &mine {
                    if let Some(x) = base_times.get(case) {
                        bt += x;
                        mt += t;
                    }
                }
                (mt > 0).then(|| bt as f64 / mt as f64)
            });
            EngineSummary {
                game: game.to_string(),
                engine: engine.to_string(),
                cases: cases.len(),
                ok: count(Status::Ok),
                mismatch: count(Status::Mismatch),
                error: count(Status::Error),
                unsolved: count(Status::Unsolved),
                budget: count(Status::Budget),
                total_ns,
                median_ns,
                min_ns,
                max_ns,
                speedup,
                baseline: base.map(|_| baseline.to_string()),
            }
        })
        .collect()
}

/// A duration in nanoseconds for people: `812 ns`, `3.41 µs`, `12.0 ms`, `1.52 s`.
pub fn human_time(ns: u64) -> String {
    let x = ns as f64;
    let (value, unit) = if ns < 1_000 {
        return format!("{ns} ns");
    } else if ns < 1_000_000 {
        (x / 1e3, "µs")
    } else if ns < 1_000_000_000 {
        (x / 1e6, "ms")
    } else {
        (x / 1e9, "s")
    };
    let digits = if value < 10.0 {
        2
    } else if value < 100.0 {
        1
    } else {
        0
    };
    format!("{value:.digits$} {unit}")
}

/// "x.xx times faster than B" (or "slower", so the number is always at least 1).
pub fn relative(speedup: f64, baseline: &str) -> String {
    if speedup >= 1.0 {
        format!("{speedup:.2} times faster than {baseline}")
    } else {
        format!("{:.2} times slower than {baseline}", 1.0 / speedup)
    }
}

/// The summary as an aligned text table.
pub fn summary_table(summaries: &[EngineSummary]) -> String {
    let header = [
        "game", "engine", "cases", "ok", "mismatch", "error", "unsolved", "budget", "total", "min",
        "median", "max", "speed",
    ];
    let mut lines: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    for s in summaries {
        let speed = match (&s.speedup, &s.baseline) {
            (Some(x), Some(b)) => relative(*x, b),
            _ if s.baseline.is_none()
                && summaries
                    .iter()
                    .any(|o| o.game == s.game && o.baseline.as_deref() == Some(&s.engine)) =>
            {
                "baseline".to_string()
            }
            _ => String::new(),
        };
        lines.push(vec![
            s.game.clone(),
            s.engine.clone(),
            s.cases.to_string(),
            s.ok.to_string(),
            s.mismatch.to_string(),
            s.error.to_string(),
            s.unsolved.to_string(),
            s.budget.to_string(),
            human_time(s.total_ns),
            human_time(s.min_ns),
            human_time(s.median_ns),
            human_time(s.max_ns),
            speed,
        ]);
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            lines
                .iter()
                .map(|l| l[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut text = String::new();
    for line in lines {
        let cells: Vec<String> = line
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (cell, w))| {
                if c < 2 || c == header.len() - 1 {
                    format!("{cell:<w$}")
                } else {
                    format!("{cell:>w$}")
                }
            })
            .collect();
        text.push_str(cells.join("  ").trim_end());
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(engine: &str, case: usize, status: Status, time: Option<u64>) -> Row {
        Row {
            game: "toy".into(),
            engine: engine.into(),
            file: "f.in".into(),
            case,
            run: 1,
            label: String::new(),
            size: String::new(),
            status,
            time_ns: time,
            timing: Timing::Case,
            work: Some(1),
            work_unit: "turns".into(),
            score: None,
            digest: String::new(),
            message: String::new(),
            verdict: String::new(),
        }
    }

    #[test]
    fn summary_counts_statuses_and_speedup() {
        let rows = vec![
            row("reference", 1, Status::Ok, Some(400)),
            row("reference", 2, Status::Ok, Some(600)),
            row("reference", 3, Status::Error, None),
            row("table", 1, Status::Ok, Some(100)),
            row("table", 2, Status::Mismatch, Some(100)),
            row("table", 3, Status::Error, None),
        ];
        let s = summarize(&Record::from_rows(&rows), "reference");
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].cases, s[0].ok, s[0].error), (3, 2, 1));
        assert_eq!(s[0].speedup, None);
        assert_eq!(
            (s[1].ok, s[1].mismatch, s[1].total_ns, s[1].max_ns),
            (1, 1, 200, 100)
        );
        assert_eq!(s[1].speedup, Some(5.0));
        let table = summary_table(&s);
        assert!(
            table.contains("5.00 times faster than reference"),
            "{table}"
        );
        assert!(table.contains("baseline"), "{table}");
    }

    #[test]
    fn median_of_runs_is_the_case_time() {
        let mut rows = vec![
            row("reference", 1, Status::Ok, Some(50)),
            row("reference", 1, Status::Ok, Some(10)),
        ];
        rows[1].run = 2;
        rows.push(Row {
            run: 3,
            time_ns: Some(30),
            ..rows[0].clone()
        });
        let s = summarize(&Record::from_rows(&rows), "reference");
        assert_eq!((s[0].cases, s[0].total_ns), (1, 30));
    }

    #[test]
    fn csv_round_trips_with_header() {
        let rows = vec![
            row("reference", 1, Status::Ok, Some(5)),
            row("table", 1, Status::Error, None),
        ];
        let mut bytes = Vec::new();
        write_csv(&mut bytes, &rows).unwrap();
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(text.starts_with(
            "game,engine,file,case,run,label,size,status,time_ns,timing,work,work_unit,score,digest,message,verdict\n"
        ));
        assert_eq!(read_csv(&bytes[..]).unwrap(), rows);
    }

    #[test]
    fn a_csv_without_the_verdict_column_still_reads() {
        let old = "game,engine,file,case,run,label,size,status,time_ns,timing,work,work_unit,score,digest,message\n\
                   toy,reference,f.in,1,1,,,mismatch,5,case,1,turns,,,why\n";
        let rows = read_csv(old.as_bytes()).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(
            (rows[0].status, rows[0].verdict.as_str()),
            (Status::Mismatch, "")
        );
    }

    #[test]
    fn human_times() {
        assert_eq!(human_time(812), "812 ns");
        assert_eq!(human_time(3_410), "3.41 µs");
        assert_eq!(human_time(12_040_000), "12.0 ms");
        assert_eq!(human_time(1_520_000_000), "1.52 s");
    }
}
