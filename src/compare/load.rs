//! Reading the two sides of a comparison: a results CSV (`run --csv`), a JSON export written
//! with `--samples` (`run --export-json FILE --samples`), or a named baseline's folder
//! (`results.csv` and `meta.json`, see [`super::baseline`]).
//!
//! Invariants: one [`CaseResult`] per (game, engine, file, case), whatever the number of runs;
//! its status is the worst over the runs and its times are every timed run; a `file`-timed
//! case (an external program run once per file) gets its file's time shared evenly over the
//! file's cases, so totals stay per-file exact. Errors name the file and, for a CSV, the line.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::CompareError;
use crate::results::{Record, Row, Timing};
use crate::status::Status;
use crate::util::stats;

/// The results CSV inside a baseline folder.
pub const BASELINE_CSV: &str = "results.csv";
/// The run's metadata inside a baseline folder (the JSON export's `meta` object).
pub const BASELINE_META: &str = "meta.json";

/// One case of one engine, as a comparison sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseResult {
    pub game: String,
    pub engine: String,
    pub file: String,
    pub case: usize,
    pub label: String,
    pub size: String,
    pub cells: Option<u64>,
    /// The worst status over the runs.
    pub status: Status,
    /// Every timed run, this case's share of it for a `file`-timed case.
    pub runs: Vec<u64>,
    pub message: String,
}

impl CaseResult {
    /// The median of the runs.
    pub fn time_ns(&self) -> Option<u64> {
        stats::median_u64(&self.runs)
    }

    /// The fastest run: what the case costs with the least of the machine's noise added.
    pub fn fastest_ns(&self) -> Option<u64> {
        self.runs.iter().min().copied()
    }
}

/// One side of a comparison: its cases and, when known, the run's metadata.
#[derive(Debug, Clone)]
pub struct Results {
    /// Where it was read from, for messages.
    pub source: PathBuf,
    pub cases: Vec<CaseResult>,
    /// The JSON export's `meta` object (or a baseline's `meta.json`), when there is one.
    pub meta: Option<serde_json::Value>,
}

/// Reads a results CSV, a JSON export with samples, or a baseline folder.
pub fn load(path: &Path) -> Result<Results, CompareError> {
    let io = |e: std::io::Error| CompareError::Read(path.to_path_buf(), e);
    let meta_data = std::fs::metadata(path).map_err(io)?;
    if meta_data.is_dir() {
        let csv = path.join(BASELINE_CSV);
        if !csv.is_file() {
            return Err(CompareError::NotBaseline(path.to_path_buf()));
        }
        let mut results = load(&csv)?;
        let meta = path.join(BASELINE_META);
        if meta.is_file() {
            let text = crate::util::atomic::read_capped_string(
                &meta,
                crate::util::atomic::SMALL_FILE_BYTES,
            )
            .map_err(|e| CompareError::Read(meta.clone(), e))?;
            results.meta = Some(
                serde_json::from_str(&text)
                    .map_err(|e| CompareError::Json(meta.clone(), e.to_string()))?,
            );
        }
        return Ok(results);
    }
    if !meta_data.is_file() {
        return Err(CompareError::NotAFile(path.to_path_buf()));
    }
    let bytes = crate::util::atomic::read_capped(path, crate::util::atomic::RESULTS_FILE_BYTES)
        .map_err(io)?;
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first == Some(&b'{') {
        from_json(path, &bytes)
    } else {
        from_csv(path, &bytes)
    }
}

/// The header of a results CSV, refused (naming the file) when a column every results CSV has
/// is missing.
fn results_header<R: std::io::Read>(
    path: &Path,
    reader: &mut csv::Reader<R>,
) -> Result<csv::StringRecord, CompareError> {
    let header = reader
        .headers()
        .map_err(|e| CompareError::Csv(path.to_path_buf(), 1, e.to_string()))?
        .clone();
    for column in ["game", "engine", "file", "case", "status", "time_ns"] {
        if !header.iter().any(|h| h == column) {
            return Err(CompareError::Csv(
                path.to_path_buf(),
                1,
                format!("no `{column}` column: not a results CSV (`run --csv`)"),
            ));
        }
    }
    Ok(header)
}

fn from_csv(path: &Path, bytes: &[u8]) -> Result<Results, CompareError> {
    let mut reader = csv::Reader::from_reader(bytes);
    let header = results_header(path, &mut reader)?;
    let mut rows: Vec<Row> = Vec::new();
    for record in reader.records() {
        let record = record
            .map_err(|e| CompareError::Csv(path.to_path_buf(), line_of(&e), e.to_string()))?;
        let line = record.position().map_or(0, |p| p.line() as usize);
        let row: Row = record
            .deserialize(Some(&header))
            .map_err(|e| CompareError::Csv(path.to_path_buf(), line, e.to_string()))?;
        rows.push(row);
    }
    let mut messages: HashMap<(String, String, String, usize), (String, String)> = HashMap::new();
    for row in &rows {
        let entry = messages
            .entry((
                row.game.clone(),
                row.engine.clone(),
                row.file.clone(),
                row.case,
            ))
            .or_insert_with(|| (String::new(), row.size.clone()));
        if entry.0.is_empty() && !row.message.is_empty() {
            entry.0 = row.message.clone();
        }
    }
    let cases = Record::from_rows(&rows)
        .into_iter()
        .map(|r| {
            let key = (
                r.game.to_string(),
                r.engine.to_string(),
                r.file.to_string(),
                r.case,
            );
            let (message, size) = messages.remove(&key).unwrap_or_default();
            Shared {
                timing: r.timing,
                case: CaseResult {
                    game: key.0,
                    engine: key.1,
                    file: key.2,
                    case: r.case,
                    label: r.label.to_string(),
                    size,
                    cells: r.cells,
                    status: r.status,
                    runs: r.runs.to_vec(),
                    message,
                },
            }
        })
        .collect();
    Ok(Results {
        source: path.to_path_buf(),
        cases: share_file_times(cases),
        meta: None,
    })
}

/// The cases of a run read a (game, file) at a time, in bounded memory: `each` gets the
/// cases of consecutive rows of one game and file (every engine's, as `run` writes a file's
/// rows together), with a `file`-timed case's time shared over its file's cases as [`load`]
/// does; a CSV is read row by row, never whole. Returns the run's metadata (a baseline's
/// `meta.json`, a JSON export's `meta`), when there is one. Memory: one file's cases.
pub fn stream(
    path: &Path,
    mut each: impl FnMut(&[CaseResult]),
) -> Result<Option<serde_json::Value>, CompareError> {
    let io = |e: std::io::Error| CompareError::Read(path.to_path_buf(), e);
    let meta_data = std::fs::metadata(path).map_err(io)?;
    if meta_data.is_dir() {
        let csv = path.join(BASELINE_CSV);
        if !csv.is_file() {
            return Err(CompareError::NotBaseline(path.to_path_buf()));
        }
        stream(&csv, each)?;
        let meta = path.join(BASELINE_META);
        if !meta.is_file() {
            return Ok(None);
        }
        let text =
            crate::util::atomic::read_capped_string(&meta, crate::util::atomic::SMALL_FILE_BYTES)
                .map_err(|e| CompareError::Read(meta.clone(), e))?;
        return serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| CompareError::Json(meta.clone(), e.to_string()));
    }
    if !meta_data.is_file() {
        return Err(CompareError::NotAFile(path.to_path_buf()));
    }
    let mut file = std::io::BufReader::new(std::fs::File::open(path).map_err(io)?);
    let first = {
        use std::io::BufRead;
        let buffer = file.fill_buf().map_err(io)?;
        buffer.iter().find(|b| !b.is_ascii_whitespace()).copied()
    };
    if first == Some(b'{') {
        // A JSON export holds one value per case already (samples): read whole, as `load`.
        let results = load(path)?;
        let mut start = 0;
        for end in 1..=results.cases.len() {
            let (a, b) = (&results.cases[start], results.cases.get(end));
            if b.is_none_or(|b| b.game != a.game || b.file != a.file) {
                each(&results.cases[start..end]);
                start = end;
            }
        }
        return Ok(results.meta);
    }
    stream_csv(path, file, each)?;
    Ok(None)
}

/// [`stream`] of a results CSV.
fn stream_csv(
    path: &Path,
    file: impl std::io::Read,
    mut each: impl FnMut(&[CaseResult]),
) -> Result<(), CompareError> {
    let mut reader = csv::Reader::from_reader(file);
    let header = results_header(path, &mut reader)?;
    // The (game, file) being read: its cases so far, each with its timing.
    let mut chunk: Vec<Shared> = Vec::new();
    let flush = |chunk: &mut Vec<Shared>, each: &mut dyn FnMut(&[CaseResult])| {
        let cases = share_file_times(std::mem::take(chunk));
        if !cases.is_empty() {
            each(&cases);
        }
    };
    let mut record = csv::StringRecord::new();
    loop {
        let more = reader
            .read_record(&mut record)
            .map_err(|e| CompareError::Csv(path.to_path_buf(), line_of(&e), e.to_string()))?;
        if !more {
            break;
        }
        let line = record.position().map_or(0, |p| p.line() as usize);
        let row: Row = record
            .deserialize(Some(&header))
            .map_err(|e| CompareError::Csv(path.to_path_buf(), line, e.to_string()))?;
        let same_file = chunk
            .last()
            .is_some_and(|s| s.case.game == row.game && s.case.file == row.file);
        if !same_file {
            flush(&mut chunk, &mut each);
        }
        match chunk.last_mut() {
            Some(last) if last.case.engine == row.engine && last.case.case == row.case => {
                let case = &mut last.case;
                case.status = case.status.worst(row.status);
                case.runs.extend(row.time_ns);
                if case.message.is_empty() {
                    case.message = row.message;
                }
            }
            _ => chunk.push(Shared {
                timing: row.timing,
                case: CaseResult {
                    game: row.game,
                    engine: row.engine,
                    file: row.file,
                    case: row.case,
                    label: row.label,
                    size: row.size,
                    cells: row.cells,
                    status: row.status,
                    runs: row.time_ns.into_iter().collect(),
                    message: row.message,
                },
            }),
        }
    }
    flush(&mut chunk, &mut each);
    Ok(())
}

fn line_of(e: &csv::Error) -> usize {
    e.position().map_or(0, |p| p.line() as usize)
}

/// One sample of the JSON export (`samples`).
#[derive(Deserialize)]
struct Sample {
    game: String,
    engine: String,
    file: String,
    case: usize,
    #[serde(default)]
    cells: Option<u64>,
    status: Status,
    timing: Timing,
    #[serde(default)]
    times_ns: Vec<u64>,
}

fn from_json(path: &Path, bytes: &[u8]) -> Result<Results, CompareError> {
    let bad = |m: String| CompareError::Json(path.to_path_buf(), m);
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| bad(e.to_string()))?;
    let samples = value.get("samples").ok_or_else(|| {
        bad("no `samples`: export the run with `--export-json FILE --samples`".into())
    })?;
    let samples: Vec<Sample> =
        serde_json::from_value(samples.clone()).map_err(|e| bad(format!("samples: {e}")))?;
    let cases = samples
        .into_iter()
        .map(|s| Shared {
            timing: s.timing,
            case: CaseResult {
                game: s.game,
                engine: s.engine,
                file: s.file,
                case: s.case,
                label: String::new(),
                size: String::new(),
                cells: s.cells,
                status: s.status,
                runs: s.times_ns,
                message: String::new(),
            },
        })
        .collect();
    Ok(Results {
        source: path.to_path_buf(),
        cases: share_file_times(cases),
        meta: value.get("meta").filter(|m| !m.is_null()).cloned(),
    })
}

/// A case before its file's time is shared out.
struct Shared {
    timing: Timing,
    case: CaseResult,
}

/// Each `file`-timed case's runs divided by the number of `file`-timed cases of its file and
/// engine: the file's time spread evenly, as the summary does.
fn share_file_times(cases: Vec<Shared>) -> Vec<CaseResult> {
    let mut per_file: BTreeMap<(String, String, String), u64> = BTreeMap::new();
    for c in cases.iter().filter(|c| c.timing == Timing::File) {
        let key = (
            c.case.game.clone(),
            c.case.engine.clone(),
            c.case.file.clone(),
        );
        *per_file.entry(key).or_default() += 1;
    }
    cases
        .into_iter()
        .map(|Shared { timing, mut case }| {
            if timing == Timing::File {
                let key = (case.game.clone(), case.engine.clone(), case.file.clone());
                let n = per_file.get(&key).copied().unwrap_or(1).max(1);
                for t in &mut case.runs {
                    *t /= n;
                }
            }
            case
        })
        .collect()
}
