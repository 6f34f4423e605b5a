//! `gamebench report`: one self-contained HTML page of one or more runs (results CSVs, JSON
//! exports with samples, baselines), and optionally of a comparison: the runs' metadata, a
//! summary table, per-engine histograms of the time per case and of the per-case speed-ups
//! against the baseline engine, time against case size, the slowest cases, the non-`ok` cases
//! with their messages, the changed cases of a comparison, and boards drawn by the games
//! (`Rules::draw`) for the slowest and the failing cases whose input file is found.
//!
//! Invariants: the runs are streamed (`compare::stream`: a (game, file) at a time) into a
//! [`digest::Digest`] of bounded size (counts, quantile sketches, a sample of points, the
//! slowest and first failing cases), so the memory a report takes does not grow with the
//! number of rows (beyond one input file's cases); the page loads nothing (no network, no
//! external file: inline CSS, SVG and a few lines of JS), so it works from a `file://` URL;
//! every text from the inputs is escaped; its size is bounded whatever the corpus; the same
//! inputs give the same bytes.

mod boards;
mod digest;
mod html;
mod svg;

use std::collections::HashMap;
use std::path::PathBuf;

pub use boards::{Answers, BoardCase, MAX_BOARDS_PER_GAME, Side};
pub use digest::{Digest, SKETCH_RESOLUTION};

use crate::compare::{CaseResult, CompareError, Comparison};
use crate::game::Game;
use crate::status::Status;

/// The most slow cases listed per engine.
pub const SLOWEST: usize = 10;
/// The most non-`ok` cases listed (the rest are counted).
pub const MAX_FAILURES: usize = 300;
/// The most points per engine in a scatter plot (a deterministic sample beyond it: see
/// [`digest::Points`]).
pub const MAX_POINTS: usize = 1_500;

/// One run shown: where its cases are read from, and what the page calls it.
pub struct Run {
    /// A results CSV, a JSON export with samples, or a baseline folder.
    pub path: PathBuf,
    /// The name shown (the path when `None`).
    pub name: Option<String>,
    /// The run's metadata when the caller has it (`run --report`); otherwise what the input
    /// holds (a baseline's or a JSON export's).
    pub meta: Option<serde_json::Value>,
    /// The run's cases when the caller already holds them (an invocation's cells, small by
    /// nature); `None`: streamed from `path`.
    pub held: Option<crate::compare::Results>,
}

/// A run as the page shows it: its name and metadata.
pub struct Shown {
    pub name: String,
    pub meta: Option<serde_json::Value>,
}

/// What a report is made of.
pub struct Inputs<'a> {
    /// The runs shown (their cases together: several CSVs of one corpus split by game, say).
    pub runs: &'a [Run],
    /// A comparison to show, when asked for.
    pub comparison: Option<&'a Comparison>,
    /// The games, to draw boards.
    pub games: &'a [&'static dyn Game],
    /// Folders where the runs' input files are looked for (the CSV's `file` is relative to
    /// the path the run was given).
    pub roots: &'a [PathBuf],
    /// Folders where the engines' outputs are looked for (`run --out-dir`), to draw a failing
    /// case's actual final board beside the expected one.
    pub outputs: &'a [PathBuf],
    /// The engine speed-ups are measured against.
    pub baseline: &'a str,
}

/// Why a report cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("nothing to report: no case in the inputs")]
    Empty,
    #[error(transparent)]
    Read(#[from] CompareError),
}

/// A program's start-up as a run's metadata records it (`meta.startup`): what its summary
/// took out of the program's times, and the report takes out in turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Startup {
    pub game: String,
    pub engine: String,
    pub startup_ns: u64,
    /// Each case ran alone and loses the whole start-up; else each case of a file loses its
    /// share (the program ran once per file).
    pub per_case: bool,
}

impl Startup {
    /// The start-ups a run's metadata records (none in a metadata written before they were).
    pub fn of_meta(meta: Option<&serde_json::Value>) -> Vec<Startup> {
        let Some(list) = meta
            .and_then(|m| m.get("startup"))
            .and_then(|l| l.as_array())
        else {
            return Vec::new();
        };
        list.iter()
            .filter_map(|s| {
                Some(Startup {
                    game: s.get("game")?.as_str()?.to_string(),
                    engine: s.get("engine")?.as_str()?.to_string(),
                    startup_ns: s.get("startup_ns")?.as_u64()?,
                    per_case: s.get("per_case").and_then(|p| p.as_bool()) == Some(true),
                })
            })
            .collect()
    }
}

/// Adds one (game, file)'s cases to the digest, each paired with the baseline engine's time
/// on the same case for its speed-up; a program's start-up taken out of its cases' times
/// first, as the terminal summary does (`results::Tally::take_out_startup`: a case run
/// alone loses all of it, a case of a file run once its share, a time never below zero).
fn add_chunk(digest: &mut Digest, chunk: &[CaseResult], baseline: &str, startups: &[Startup]) {
    let owned: Vec<CaseResult>;
    let chunk = if startups.is_empty() {
        chunk
    } else {
        owned = chunk
            .iter()
            .map(|c| {
                let Some(s) = startups
                    .iter()
                    .find(|s| s.game == c.game && s.engine == c.engine)
                else {
                    return c.clone();
                };
                let shared = if s.per_case {
                    1
                } else {
                    chunk.iter().filter(|o| o.engine == c.engine).count().max(1) as u64
                };
                let part = s.startup_ns / shared;
                CaseResult {
                    runs: c.runs.iter().map(|r| r.saturating_sub(part)).collect(),
                    ..c.clone()
                }
            })
            .collect();
        &owned
    };
    let base: HashMap<usize, (u64, Status)> = chunk
        .iter()
        .filter(|c| c.engine == baseline)
        .filter_map(|c| Some((c.case, (c.time_ns()?, c.status))))
        .collect();
    for c in chunk {
        let against = (c.engine != baseline)
            .then(|| base.get(&c.case).copied())
            .flatten();
        digest.add(c, against);
    }
}

/// The metadata of a run read before its cases: the caller's, a baseline folder's
/// `meta.json`; `None` for a results CSV or a JSON export (whose `meta` comes with its cases).
fn meta_before(run: &Run) -> Option<serde_json::Value> {
    if let Some(meta) = &run.meta {
        return Some(meta.clone());
    }
    if let Some(held) = &run.held {
        return held.meta.clone();
    }
    let path = run.path.join(crate::compare::BASELINE_META);
    if !run.path.is_dir() || !path.is_file() {
        return None;
    }
    let text =
        crate::util::atomic::read_capped_string(&path, crate::util::atomic::SMALL_FILE_BYTES)
            .ok()?;
    serde_json::from_str(&text).ok()
}

/// Whether `path` is a JSON export (its first character other than white space is `{`).
fn is_json(path: &std::path::Path) -> bool {
    use std::io::Read;
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut head = [0u8; 256];
    let mut reader = std::io::BufReader::new(file);
    let Ok(n) = reader.read(&mut head) else {
        return false;
    };
    head[..n].iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

/// Reads every run into a digest.
pub fn digest(inputs: &Inputs<'_>) -> Result<(Vec<Shown>, Digest), ReportError> {
    let mut digest = Digest::default();
    let mut shown = Vec::new();
    for run in inputs.runs {
        // A JSON export is read whole anyway (its cases are one value): read first, so that
        // its metadata's start-ups apply to its cases.
        let loaded = match &run.held {
            None if run.path.is_file() && is_json(&run.path) => {
                Some(crate::compare::load(&run.path)?)
            }
            _ => None,
        };
        let held = run.held.as_ref().or(loaded.as_ref());
        let known = meta_before(run).or_else(|| held.and_then(|h| h.meta.clone()));
        let startups = Startup::of_meta(known.as_ref());
        digest.note_startups(&startups, known.is_some());
        let meta = match held {
            Some(held) => {
                // Chunks of one (game, file) each, as the stream hands them.
                let mut files: std::collections::BTreeMap<(&str, &str), Vec<CaseResult>> =
                    Default::default();
                for c in &held.cases {
                    files.entry((&c.game, &c.file)).or_default().push(c.clone());
                }
                for chunk in files.values() {
                    add_chunk(&mut digest, chunk, inputs.baseline, &startups);
                }
                held.meta.clone()
            }
            None => crate::compare::stream(&run.path, |chunk| {
                add_chunk(&mut digest, chunk, inputs.baseline, &startups);
            })?,
        };
        shown.push(Shown {
            name: run
                .name
                .clone()
                .unwrap_or_else(|| run.path.display().to_string()),
            meta: run.meta.clone().or(meta),
        });
    }
    if digest.cases == 0 {
        return Err(ReportError::Empty);
    }
    Ok((shown, digest))
}

/// The whole page of the runs' digest.
pub fn render(inputs: &Inputs<'_>, shown: &[Shown], digest: &Digest) -> String {
    let boards = boards::draw(inputs, digest);
    html::page(inputs, shown, digest, &boards)
}
