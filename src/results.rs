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

use std::collections::BTreeMap;
use std::io::Write;

use serde::{Deserialize, Serialize};

/// The verdict on one case for one engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Solved (and, with `--check`, accepted).
    Ok,
    /// Rejected by the check against the expected output or the baseline engine.
    Mismatch,
    /// The case could not be read or played (malformed input) or the engine failed.
    Error,
    /// The engine proved there is no answer.
    Unsolved,
    /// The engine's budget ran out.
    Budget,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Mismatch => "mismatch",
            Status::Error => "error",
            Status::Unsolved => "unsolved",
            Status::Budget => "budget",
        }
    }
}

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

/// Per-case time of one engine: the median of its timed runs. A `file`-timed row (an external
/// program, timed per file) contributes its file's time spread evenly over the file's cases, so
/// totals and speed-ups stay per-file exact.
fn case_times(rows: &[Row]) -> BTreeMap<(String, String, String, usize), u64> {
    let mut cases_per_file: BTreeMap<(&str, &str, &str), std::collections::BTreeSet<usize>> =
        BTreeMap::new();
    for row in rows.iter().filter(|r| r.timing == Timing::File) {
        cases_per_file
            .entry((&row.game, &row.engine, &row.file))
            .or_default()
            .insert(row.case);
    }
    let mut runs: BTreeMap<(String, String, String, usize), Vec<u64>> = BTreeMap::new();
    for row in rows {
        if let Some(t) = row.time_ns {
            let share = match row.timing {
                Timing::Case => t,
                Timing::File => {
                    t / cases_per_file[&(row.game.as_str(), row.engine.as_str(), row.file.as_str())]
                        .len() as u64
                }
            };
            runs.entry((
                row.game.clone(),
                row.engine.clone(),
                row.file.clone(),
                row.case,
            ))
            .or_default()
            .push(share);
        }
    }
    runs.into_iter()
        .map(|(key, mut times)| (key, median(&mut times)))
        .collect()
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
pub fn slowest(rows: &[Row], n: usize) -> Vec<(String, String, Vec<SlowCase>)> {
    let times = case_times(rows);
    let labels: BTreeMap<(&str, usize), &str> = rows
        .iter()
        .map(|r| ((r.file.as_str(), r.case), r.label.as_str()))
        .collect();
    let mut order: Vec<(String, String)> = Vec::new();
    for row in rows {
        let key = (row.game.clone(), row.engine.clone());
        if !order.contains(&key) {
            order.push(key);
        }
    }
    order
        .into_iter()
        .map(|(game, engine)| {
            let mut mine: Vec<SlowCase> = times
                .iter()
                .filter(|((g, e, _, _), _)| *g == game && *e == engine)
                .map(|((_, _, file, case), &time_ns)| SlowCase {
                    file: file.clone(),
                    case: *case,
                    label: labels
                        .get(&(file.as_str(), *case))
                        .unwrap_or(&"")
                        .to_string(),
                    time_ns,
                })
                .collect();
            mine.sort_by(|a, b| {
                b.time_ns
                    .cmp(&a.time_ns)
                    .then_with(|| a.file.cmp(&b.file))
                    .then(a.case.cmp(&b.case))
            });
            mine.truncate(n);
            (game, engine, mine)
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
pub fn summarize(rows: &[Row], baseline: &str) -> Vec<EngineSummary> {
    let times = case_times(rows);
    let mut order: Vec<(String, String)> = Vec::new();
    let mut statuses: BTreeMap<(String, String), BTreeMap<(String, usize), Status>> =
        BTreeMap::new();
    for row in rows {
        let key = (row.game.clone(), row.engine.clone());
        if !order.contains(&key) {
            order.push(key.clone());
        }
        // A case's status is its worst over runs (they agree unless the engine is flaky).
        let entry = statuses
            .entry(key)
            .or_default()
            .entry((row.file.clone(), row.case))
            .or_insert(row.status);
        *entry = (*entry).max(row.status);
    }
    let per_engine = |game: &str, engine: &str| -> BTreeMap<(String, usize), u64> {
        times
            .iter()
            .filter(|((g, e, _, _), _)| g == game && e == engine)
            .map(|((_, _, f, c), t)| ((f.clone(), *c), *t))
            .collect()
    };
    order
        .iter()
        .map(|(game, engine)| {
            let cases = &statuses[&(game.clone(), engine.clone())];
            let count = |s: Status| cases.values().filter(|&&x| x == s).count();
            let mine = per_engine(game, engine);
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
            let has_baseline =
                engine != baseline && order.contains(&(game.clone(), baseline.to_string()));
            let speedup = has_baseline
                .then(|| {
                    let base = per_engine(game, baseline);
                    let (mut b, mut m) = (0u64, 0u64);
                    for (case, t) in &mine {
                        if let Some(bt) = base.get(case) {
                            b += bt;
                            m += t;
                        }
                    }
                    (m > 0).then(|| b as f64 / m as f64)
                })
                .flatten();
            EngineSummary {
                game: game.clone(),
                engine: engine.clone(),
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
                baseline: has_baseline.then(|| baseline.to_string()),
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
            game: "yut".into(),
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
        let s = summarize(&rows, "reference");
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
        let s = summarize(&rows, "reference");
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
            "game,engine,file,case,run,label,size,status,time_ns,timing,work,work_unit,score,digest,message\n"
        ));
        assert_eq!(read_csv(&bytes[..]).unwrap(), rows);
    }

    #[test]
    fn human_times() {
        assert_eq!(human_time(812), "812 ns");
        assert_eq!(human_time(3_410), "3.41 µs");
        assert_eq!(human_time(12_040_000), "12.0 ms");
        assert_eq!(human_time(1_520_000_000), "1.52 s");
    }
}
