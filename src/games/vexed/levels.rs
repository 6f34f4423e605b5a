//! The level-pack report behind `gamebench levels`: every level of the original game's packs
//! solved, its minimum proven (or the budget's stop said, with the length the search had
//! proven no solution is shorter than), compared with the published par, and every solution
//! replayed by the checker.
//!
//! A pack is a judge input `<pack>.in` (the puzzles in the judge format) with an optional
//! `<pack>.par` beside it (`NAME PAR` per line). The packs are GPL data fetched by the user; the
//! repository only reads them.
//!
//! Proof mode (`--max-moves K`, or `--prove-below-par`: K = par - 1 per level) asks each level
//! for a minimum solution of at most K moves or the proof that none exists: a proof is status
//! [`LevelStatus::AboveMax`], with `at_least` at least K + 1.
//!
//! Levels are solved in parallel, one level per thread, in a deterministic order of results
//! (pack by name, then level order). Peak memory per level is exact only on one thread: the
//! process peak is reset (`/proc/self/clear_refs`) before each level and read after it. With
//! more threads, levels share the process, so only the run's peak is reported.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::{Puzzle, Vexed, check_output};
use crate::game::{Budget, Engine, Reading, Rules, Verdict};
use crate::games::vexed::Solution;

/// The extension of a pack's puzzles, and of its pars.
const PACK_EXTENSION: &str = "in";
const PAR_EXTENSION: &str = "par";

/// Why the report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum LevelsError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: no level pack (*.in) found")]
    NoPack { path: PathBuf },
    #[error("{path}: line {line}: a par line is `NAME PAR`, not {text:?}")]
    BadPar {
        path: PathBuf,
        line: usize,
        text: String,
    },
    #[error("no pack named {0:?}")]
    UnknownPack(String),
    #[error("cannot start the worker threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
}

/// One pack: its name (the file stem), its levels as parsed, and its pars by level name.
pub struct Pack {
    pub name: String,
    pub path: PathBuf,
    pub pars: HashMap<String, usize>,
}

/// The packs in `dir` (sorted by name), limited to `only` when given.
pub fn discover(dir: &Path, only: &[String]) -> Result<Vec<Pack>, LevelsError> {
    let io = |source| LevelsError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == PACK_EXTENSION))
        .collect();
    paths.sort();
    let mut packs = Vec::new();
    for path in paths {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !only.is_empty() && !only.contains(&name) {
            continue;
        }
        let pars = read_pars(&path.with_extension(PAR_EXTENSION))?;
        packs.push(Pack { name, path, pars });
    }
    if let Some(missing) = only.iter().find(|o| !packs.iter().any(|p| &p.name == *o)) {
        return Err(LevelsError::UnknownPack(missing.clone()));
    }
    if packs.is_empty() {
        return Err(LevelsError::NoPack {
            path: dir.to_path_buf(),
        });
    }
    Ok(packs)
}

/// The most a `.par` file may hold (one line per level: a few KB).
const PAR_FILE_BYTES: u64 = 16 << 20;

/// The most a level pack may hold (a few hundred levels of a few hundred bytes each).
const PACK_FILE_BYTES: u64 = 256 << 20;

/// The bytes of the file at `path`, an `InvalidData` error past `cap` bytes (`/dev/zero`).
fn read_capped(path: &Path, cap: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(cap + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "larger than the {} MiB this file may hold (not read further)",
                cap >> 20
            ),
        ));
    }
    Ok(bytes)
}

/// A pack's pars; none when it has no `.par` file.
fn read_pars(path: &Path) -> Result<HashMap<String, usize>, LevelsError> {
    let text = match read_capped(path, PAR_FILE_BYTES).and_then(|b| {
        String::from_utf8(b)
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"))
    }) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(source) => {
            return Err(LevelsError::Io {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let mut pars = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let parsed = line
            .rsplit_once(' ')
            .and_then(|(name, par)| Some((name.to_string(), par.trim().parse().ok()?)));
        let Some((name, par)) = parsed else {
            return Err(LevelsError::BadPar {
                path: path.to_path_buf(),
                line: i + 1,
                text: line.chars().take(60).collect(),
            });
        };
        pars.insert(name, par);
    }
    Ok(pars)
}

/// What became of one level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LevelStatus {
    /// Solved, and the solution is a minimum (every engine of the game is exact).
    Minimal,
    /// Proven to have no solution.
    NoSolution,
    /// The budget ran out before a proof.
    Budget,
    /// Proof mode: proven to have no solution of at most the cap of moves (`--max-moves`, or
    /// par - 1 with `--prove-below-par`); `at_least` says how long a solution must be.
    AboveMax,
    /// The level could not be read, or the checker rejected the engine's solution.
    Error,
}

impl LevelStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            LevelStatus::Minimal => "minimal",
            LevelStatus::NoSolution => "no-solution",
            LevelStatus::Budget => "budget",
            LevelStatus::AboveMax => "above-max",
            LevelStatus::Error => "error",
        }
    }
}

/// One level's result: a CSV row of `levels --csv`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Level {
    pub pack: String,
    /// 1-based position in its pack.
    pub index: usize,
    pub name: String,
    /// `ROWSxCOLS`.
    pub size: String,
    pub status: LevelStatus,
    /// The minimum number of moves, when solved.
    pub moves: Option<usize>,
    pub par: Option<usize>,
    /// `below`, `equal`, `above` (the minimum against par), empty when either is unknown.
    pub versus_par: &'static str,
    pub seconds: f64,
    /// States the engine expanded.
    pub states: u64,
    /// Peak resident memory of the process while the level ran (one thread only).
    pub peak_mb: Option<f64>,
    /// The solution in the judge's output format (one line of moves per
    /// [`super::MOVES_PER_LINE`]), or why there is none.
    pub detail: String,
    /// For a level the budget stopped: no solution is shorter than this many moves, as far as
    /// the engine had proven (last, so that the columns before it keep their places).
    pub at_least: Option<u64>,
}

impl Level {
    /// What is known of the minimum: `K = 30` when solved, `K >= 34` when the budget stopped a
    /// search that had proven that much, else nothing.
    pub fn minimum(&self) -> String {
        match (self.moves, self.at_least) {
            (Some(k), _) => format!("K = {k}"),
            (None, Some(least)) => format!("K >= {least}"),
            (None, None) => String::new(),
        }
    }

    /// The result in a few words: `K = 30`, `budget, K >= 34`, `no-solution`.
    pub fn result(&self) -> String {
        let (status, known) = (self.status.as_str(), self.minimum());
        match self.moves {
            Some(_) => known,
            None if known.is_empty() => status.to_string(),
            None => format!("{status}, {known}"),
        }
    }
}

/// How the levels are solved.
pub struct Settings {
    pub engine: &'static Engine<Puzzle, Solution>,
    pub budget: Budget,
    /// Worker threads (levels solved at once); `None` = every core.
    pub threads: Option<usize>,
    /// Proof mode per level: a cap of par - 1 moves (`budget.max_moves` for a level without a
    /// par).
    pub prove_below_par: bool,
}

impl Settings {
    /// The budget of a level whose par is `par`.
    fn budget_for(&self, par: Option<usize>) -> Budget {
        match par {
            Some(par) if self.prove_below_par => Budget {
                max_moves: Some((par as u64).saturating_sub(1)),
                ..self.budget.clone()
            },
            _ => self.budget.clone(),
        }
    }
}

/// Solves every level of `packs`; results in pack then level order whatever the thread count.
/// `progress` is called once per level finished, from the worker that finished it.
///
/// Once `stop` is set, no further level starts: the levels finished by then are returned, in
/// order (a level being solved finishes within its budget).
pub fn run(
    packs: &[Pack],
    settings: &Settings,
    stop: &AtomicBool,
    progress: &(dyn Fn(&Level) + Sync),
) -> Result<Vec<Level>, LevelsError> {
    let mut work = Vec::new();
    for pack in packs {
        let bytes = read_capped(&pack.path, PACK_FILE_BYTES).map_err(|source| LevelsError::Io {
            path: pack.path.clone(),
            source,
        })?;
        for (i, parsed) in Vexed::parse(&bytes, &Reading::STATEMENT)
            .into_iter()
            .enumerate()
        {
            work.push((pack, i + 1, parsed));
        }
    }
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = settings.threads {
        builder = builder.num_threads(n);
    }
    let pool = builder.build()?;
    let exact_memory = pool.current_num_threads() == 1;
    Ok(pool.install(|| {
        work.par_iter()
            .with_max_len(1)
            .filter_map(|(pack, index, parsed)| {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                let level = solve_level(pack, *index, parsed, settings, exact_memory);
                progress(&level);
                Some(level)
            })
            .collect()
    }))
}

fn solve_level(
    pack: &Pack,
    index: usize,
    parsed: &crate::game::Parsed<Puzzle>,
    settings: &Settings,
    exact_memory: bool,
) -> Level {
    let mut level = Level {
        pack: pack.name.clone(),
        index,
        name: parsed.label.clone(),
        size: parsed.size.clone(),
        status: LevelStatus::Error,
        moves: None,
        par: None,
        versus_par: "",
        seconds: 0.0,
        states: 0,
        peak_mb: None,
        detail: String::new(),
        at_least: None,
    };
    let puzzle = match &parsed.case {
        Ok(puzzle) => puzzle,
        Err(error) => {
            level.detail = format!("{}: {error}", pack.path.display());
            return level;
        }
    };
    level.name = puzzle.name.clone();
    level.par = pack.pars.get(&puzzle.name).copied();
    if exact_memory {
        memory::reset_peak();
    }
    let budget = settings.budget_for(level.par);
    let start = Instant::now();
    let outcome = (settings.engine.solve)(puzzle, &budget);
    level.seconds = start.elapsed().as_secs_f64();
    if exact_memory {
        level.peak_mb = memory::peak_mb();
    }
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(error) => {
            level.detail = format!("{}: {error}", pack.path.display());
            return level;
        }
    };
    level.states = outcome.work;
    level.at_least = outcome.at_least;
    let text = Vexed::format_case(index - 1, puzzle, &outcome);
    let status = match (outcome.verdict, &outcome.answer) {
        (Verdict::Solved, Some(moves)) => match check_output(puzzle, &text, None) {
            Ok(()) => {
                level.moves = Some(moves.len());
                LevelStatus::Minimal
            }
            Err(error) => {
                level.detail = format!("the checker rejects the solution: {error}");
                return level;
            }
        },
        (Verdict::Solved, None) => LevelStatus::Error,
        (Verdict::Unsolved, _) => LevelStatus::NoSolution,
        // A stop past the cap is a proof: the search had looked at every shorter solution.
        (Verdict::Budget, _)
            if budget
                .max_moves
                .zip(outcome.at_least)
                .is_some_and(|(cap, least)| least > cap) =>
        {
            LevelStatus::AboveMax
        }
        (Verdict::Budget, _) => LevelStatus::Budget,
    };
    level.status = status;
    level.versus_par = match (level.moves, level.par) {
        (Some(k), Some(par)) if k < par => "below",
        (Some(k), Some(par)) if k == par => "equal",
        (Some(_), Some(_)) => "above",
        _ => "",
    };
    level.detail = text.trim_end().to_string();
    level
}

/// Per pack counts and times: a row of the report's table.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct PackSummary {
    pub name: String,
    pub levels: usize,
    pub minimal: usize,
    pub no_solution: usize,
    pub budget: usize,
    /// Proven to need more moves than the cap ([`LevelStatus::AboveMax`]).
    pub above_max: usize,
    pub errors: usize,
    pub below_par: usize,
    pub at_par: usize,
    pub above_par: usize,
    pub seconds: f64,
    pub max_seconds: f64,
    pub max_peak_mb: Option<f64>,
}

impl PackSummary {
    fn add(&mut self, level: &Level) {
        self.levels += 1;
        match level.status {
            LevelStatus::Minimal => self.minimal += 1,
            LevelStatus::NoSolution => self.no_solution += 1,
            LevelStatus::Budget => self.budget += 1,
            LevelStatus::AboveMax => self.above_max += 1,
            LevelStatus::Error => self.errors += 1,
        }
        match level.versus_par {
            "below" => self.below_par += 1,
            "equal" => self.at_par += 1,
            "above" => self.above_par += 1,
            _ => {}
        }
        self.seconds += level.seconds;
        self.max_seconds = self.max_seconds.max(level.seconds);
        if let Some(mb) = level.peak_mb {
            self.max_peak_mb = Some(self.max_peak_mb.map_or(mb, |m: f64| m.max(mb)));
        }
    }
}

/// One summary per pack (in the levels' order), then the total (named `total`).
pub fn summarize(levels: &[Level]) -> Vec<PackSummary> {
    let mut packs: Vec<PackSummary> = Vec::new();
    let mut total = PackSummary {
        name: "total".to_string(),
        ..PackSummary::default()
    };
    for level in levels {
        if packs.last().is_none_or(|p| p.name != level.pack) {
            packs.push(PackSummary {
                name: level.pack.clone(),
                ..PackSummary::default()
            });
        }
        packs.last_mut().expect("pushed above").add(level);
        total.add(level);
    }
    packs.push(total);
    packs
}

/// The process's peak resident memory, read from and reset through `/proc` (Linux).
mod memory {
    /// kB (the unit of `/proc` figures) per MB (the unit of the report).
    const KB_PER_MB: f64 = 1024.0;

    /// Resets the peak to the current resident size (`echo 5 > /proc/self/clear_refs`).
    pub(super) fn reset_peak() {
        let _ = std::fs::write("/proc/self/clear_refs", "5");
    }

    /// `VmHWM` of `/proc/self/status`, in MB; none where `/proc` is not there.
    pub(super) fn peak_mb() -> Option<f64> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb / KB_PER_MB)
    }
}

/// The process's peak resident memory so far, in MB (Linux; none elsewhere).
pub fn process_peak_mb() -> Option<f64> {
    memory::peak_mb()
}

#[cfg(test)]
#[path = "tests/levels.rs"]
mod tests;
