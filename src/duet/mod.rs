//! `run --fail-if-slower` / `--time` / `--interleave`: an A/B comparison inside one run that
//! holds on a loaded machine. Every round times every (unit, engine) once in a fresh seeded
//! random order, so the two engines of a pair share the machine's state of that moment; the
//! comparison is paired per unit and round ([`paired`]), one geometric-mean ratio per engine
//! against the baseline with a bootstrap interval, and a verdict against a threshold. Rounds
//! are a fixed count or added until the interval settles or a time budget ends.
//!
//! A unit is a case when every engine runs case by case (internal engines), else a whole file
//! (programs read whole judge files). Engines run through [`crate::engines::Executor`], one
//! at a time on the calling thread: a comparison wants the pair timed alike, not throughput.
//!
//! A program's CPU time includes its start-up (the shell, the loader), the same whatever the
//! change to its work: left in, it dilutes the ratio (a program whose work is 5 % slower read
//! as x1.034-x1.041 on 5 ms cases). So each program's start-up is taken out of every CPU time
//! before the ratios are formed; the totals stay raw. It is measured inside the rounds: each
//! round also runs every program [`EMPTY_RUNS`] times on its game's input of no case, in the
//! round's random order, and the start-up is the median of all those runs so far
//! ([`crate::engines::startup::median_of`]), drawn again in every bootstrap resample so that
//! its uncertainty is in the interval. Calibrated once before the rounds (the fastest of 10
//! runs in one burst), it carried that moment's machine state into every ratio of the run:
//! under load two programs' calibrations of one binary differed by up to 0.3 ms, 5 % of a
//! 5 ms file, which turned a true +5 % into x0.998 or x1.100.

pub mod instructions;
mod offsets;
pub mod paired;
mod render;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::corpus::{self, CaseFile};
use crate::engines::{
    Clock, EngineSpec, EngineTable, Fault, FileJob, Limits, Plan, Startup, StartupError, startup,
};
use crate::game::{Budget, Game, ParsedCase};
use crate::status::Exit;
use crate::util::units;
use offsets::{Offsets, calibrate, count_within, probes};

pub use paired::{Effect, Verdict};
pub use render::render;

/// What each run is measured by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Measure {
    /// CPU time: a program's user + system time (it and its children, from `wait4`), an
    /// internal engine's thread CPU time. Time spent waiting for a core under load is not in it.
    #[default]
    Cpu,
    /// Wall time (load from other processes is in it).
    Wall,
    /// Instructions executed, counted by hardware counters or callgrind ([`instructions`]):
    /// deterministic, blind to load.
    Instructions,
    /// The work counters of internal engines (states expanded, moves made: each game's own
    /// unit): deterministic.
    Work,
}

impl Measure {
    fn name(self) -> &'static str {
        match self {
            Measure::Cpu => "CPU time",
            Measure::Wall => "wall time",
            Measure::Instructions => "instructions",
            Measure::Work => "work counts",
        }
    }

    /// Whether two runs of one engine on one input give the same figure: a second round
    /// checks it, and further rounds are run only if it did not.
    pub fn deterministic(self) -> bool {
        matches!(self, Measure::Instructions | Measure::Work)
    }

    /// A figure of this measure for a person.
    fn show(self, x: u64) -> String {
        match self {
            Measure::Cpu | Measure::Wall => units::human_time(x),
            Measure::Instructions => format!("{} instructions", units::thousands(x)),
            Measure::Work => format!("{} work", units::thousands(x)),
        }
    }
}

/// How many rounds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rounds {
    /// Exactly this many.
    Fixed(u32),
    /// Rounds added until every engine's interval is settled ([`paired::settled`]) or the
    /// budget ends (at least [`MIN_ROUNDS`]).
    Budget(Duration),
}

/// Rounds before the interval is first looked at under a time budget: a bootstrap over
/// rounds needs a few of them.
pub const MIN_ROUNDS: u32 = 3;
/// The same for a deterministic measure: the second round repeats the first.
pub const DETERMINISTIC_ROUNDS: u32 = 2;
/// Counted runs of an input of no case, for an engine's start-up in instructions (the fewest).
pub const STARTUP_COUNTS: u32 = 2;
/// Runs of each program on its game's input of no case in every round under CPU time (its
/// start-up, [`Offsets`]): a few, because they are cheap next to the files and the median of
/// them all is what is taken out of every time of the program.
pub const EMPTY_RUNS: usize = 24;
/// The default seed of the round orders (fixed, so a run's order is reproducible).
pub const DEFAULT_SEED: u64 = 1;

/// An interleaved comparison's settings.
#[derive(Debug, Clone)]
pub struct Options {
    pub rounds: Rounds,
    /// The change that matters, as a fraction (0.03 = 3 %).
    pub threshold: f64,
    /// Whether a slowdown beyond the threshold makes the exit code 6.
    pub fail_if_slower: bool,
    pub seed: u64,
    pub measure: Measure,
    pub budget: Budget,
    pub limits: Limits,
    /// Set by a signal: no new round starts.
    pub stop: Arc<AtomicBool>,
}

#[derive(Debug, thiserror::Error)]
pub enum DuetError {
    #[error("an interleaved comparison needs at least two engines (-e old=... -e new=...)")]
    OneEngine,
    #[error("the baseline is not one of the engines run (--baseline names one)")]
    NoBaseline,
    #[error("{0}: {1}")]
    Read(String, std::io::Error),
    #[error("no case to compare (every file empty or unreadable)")]
    NoCase,
    #[error("{engine}: calibrating its start-up on an input of no case: {error}")]
    Startup { engine: String, error: StartupError },
    #[error("{0}")]
    Counter(#[from] instructions::CountError),
    #[error(
        "{0} is a program: work counts exist for internal engines only (--measure instructions counts programs)"
    )]
    WorkOfProgram(String),
    #[error("{engine} failed on {file}: {message}")]
    Failed {
        engine: String,
        file: String,
        message: String,
    },
}

/// A file loaded once: its bytes and parsed cases.
struct Loaded {
    name: String,
    game: &'static dyn Game,
    bytes: Vec<u8>,
    cases: Vec<ParsedCase>,
    engines: Arc<[EngineSpec]>,
}

/// What is timed as one: a case of a file, or a whole file.
#[derive(Debug, Clone, Copy)]
struct Unit {
    file: usize,
    case: Option<usize>,
}

/// One engine's comparison with the baseline.
#[derive(Debug, Clone)]
pub struct EngineResult {
    pub engine: String,
    pub effect: Effect,
    pub verdict: Verdict,
}

/// Why the rounds stopped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stopped {
    /// The fixed count was run.
    Count,
    /// Every interval settled within the budget.
    Settled,
    /// The budget ended first.
    BudgetEnded,
    /// A signal.
    Interrupted,
}

/// The outcome of an interleaved run.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub baseline: String,
    pub units: usize,
    pub file_units: bool,
    pub rounds: u32,
    pub elapsed: Duration,
    pub stopped: Stopped,
    /// The instruction counter, with `--measure instructions`.
    pub counter: Option<instructions::Kind>,
    /// Each engine's total measured time over every round, in ns, start-up included (in the
    /// engines' order).
    pub totals: Vec<(String, u64)>,
    /// Each engine's start-up (programs under CPU time: the median of its runs on an input of
    /// no case among the rounds; every engine under instructions: the fewest of
    /// [`STARTUP_COUNTS`] counted runs before them), taken out of its figures before the
    /// ratios, in the engines' order; with files of several games, the first's.
    pub startups: Vec<Option<Startup>>,
    /// Whether the start-ups were measured among the rounds (CPU time) rather than before.
    pub startups_in_rounds: bool,
    /// Times not above their engine's start-up: nothing is left of them once it is taken out,
    /// and their pairs are left out.
    pub within_startup: usize,
    pub results: Vec<EngineResult>,
}

impl Outcome {
    /// 6 when some engine is slower than the baseline beyond the threshold and that was asked
    /// to fail, else 0 (including "cannot tell"); 130 after a signal.
    pub fn exit(&self, options: &Options) -> Exit {
        if self.stopped == Stopped::Interrupted {
            return Exit::Interrupted;
        }
        let slower = self.results.iter().any(|r| r.verdict == Verdict::Slower);
        if slower && options.fail_if_slower {
            Exit::Slower
        } else {
            Exit::Ok
        }
    }
}

/// Runs the comparison on `files` with the engines of `table`, each compared with the table's
/// baseline.
pub fn run(
    files: &[CaseFile],
    table: &EngineTable,
    options: &Options,
) -> Result<Outcome, DuetError> {
    let mut loaded = Vec::new();
    for file in files {
        let bytes = corpus::read_case_file(&file.path, 0)
            .map_err(|e| DuetError::Read(file.path.display().to_string(), e))?;
        let cases = file.game.parse(&bytes, &file.reading);
        loaded.push(Loaded {
            name: file.relative.display().to_string(),
            game: file.game,
            bytes,
            cases,
            engines: table.of(file.game),
        });
    }
    let names: Vec<String> = match loaded.first() {
        Some(f) => f.engines.iter().map(|e| e.name().to_string()).collect(),
        None => return Err(DuetError::NoCase),
    };
    if names.len() < 2 {
        return Err(DuetError::OneEngine);
    }
    let base = loaded
        .first()
        .and_then(|f| table.baseline_of(f.game))
        .ok_or(DuetError::NoBaseline)?;
    if options.measure == Measure::Work
        && let Some(p) = loaded[0].engines.iter().find(|e| e.is_program())
    {
        return Err(DuetError::WorkOfProgram(p.name().to_string()));
    }
    let counter = match options.measure {
        Measure::Instructions => Some(instructions::Counter::new()?),
        _ => None,
    };
    // Counted engines all run as programs, on whole files.
    let file_units = counter.is_some()
        || loaded
            .iter()
            .any(|f| f.engines.iter().any(|e| !e.executor().per_case()));
    let units: Vec<Unit> = loaded
        .iter()
        .enumerate()
        .flat_map(|(i, f)| {
            let readable: Vec<usize> = (0..f.cases.len())
                .filter(|&c| f.cases[c].case.is_ok())
                .collect();
            if file_units {
                let some = !readable.is_empty();
                vec![
                    Unit {
                        file: i,
                        case: None
                    };
                    usize::from(some)
                ]
            } else {
                readable
                    .into_iter()
                    .map(|c| Unit {
                        file: i,
                        case: Some(c),
                    })
                    .collect()
            }
        })
        .collect();
    if units.is_empty() {
        return Err(DuetError::NoCase);
    }
    let plan = Plan {
        warmup: 0,
        runs: 1,
        repeat_short: true,
        clock: match options.measure {
            Measure::Cpu | Measure::Instructions | Measure::Work => Clock::ThreadCpu,
            Measure::Wall => Clock::Wall,
        },
        budget: options.budget.clone(),
        limits: options.limits.clone(),
    };
    let mut offsets = Offsets {
        fixed: calibrate(&loaded, options, counter.as_ref())?,
        sampled: Vec::new(),
    };
    let probes = probes(&loaded, options.measure);
    let empty_limits = options.limits.run(options.limits.timeout);
    let started = Instant::now();
    // times[unit][engine][round], raw
    let mut times: Vec<Vec<Vec<u64>>> = vec![vec![Vec::new(); names.len()]; units.len()];
    let mut round = 0u32;
    let stopped = loop {
        if options.stop.load(Ordering::Relaxed) {
            break Stopped::Interrupted;
        }
        match options.rounds {
            Rounds::Fixed(n) if round >= n => break Stopped::Count,
            Rounds::Budget(budget)
                if round >= MIN_ROUNDS
                    || (options.measure.deterministic() && round >= DETERMINISTIC_ROUNDS) =>
            {
                let results = compare(
                    &times,
                    &units,
                    &loaded,
                    &offsets,
                    &names,
                    base,
                    (options.threshold, options.seed),
                );
                if results
                    .iter()
                    .all(|r| paired::settled(&r.effect, options.threshold))
                {
                    break Stopped::Settled;
                }
                if started.elapsed() >= budget {
                    break Stopped::BudgetEnded;
                }
            }
            _ => {}
        }
        let slots = units.len() + probes.len() * EMPTY_RUNS;
        for (u, e) in paired::round_order(slots, names.len(), options.seed, round.into()) {
            if u >= units.len() {
                let probe = &probes[(u - units.len()) % probes.len()];
                if let Some(program) = probe.engines[e].program() {
                    let t = startup::cpu_time(program, &probe.input, &empty_limits).map_err(
                        |error| DuetError::Startup {
                            engine: names[e].clone(),
                            error,
                        },
                    )?;
                    offsets.push(probe.game, e, t);
                }
                continue;
            }
            let t = match &counter {
                Some(c) => count(c, &loaded[units[u].file], e, &options.limits)?,
                None => measure(&loaded, units[u], e, &plan, options.measure)?,
            };
            times[u][e].push(t);
        }
        round += 1;
    };
    let totals = names
        .iter()
        .enumerate()
        .map(|(e, n)| (n.clone(), times.iter().flat_map(|t| &t[e]).sum()))
        .collect();
    let within_startup = count_within(&times, &units, &loaded, &offsets);
    Ok(Outcome {
        baseline: names[base].clone(),
        units: units.len(),
        file_units,
        rounds: round,
        elapsed: started.elapsed(),
        stopped,
        counter: counter.as_ref().map(|c| c.kind),
        totals,
        startups: names
            .iter()
            .enumerate()
            .map(|(e, _)| offsets.startup(loaded[0].game.name(), e))
            .collect(),
        startups_in_rounds: !probes.is_empty(),
        within_startup,
        results: compare(
            &times,
            &units,
            &loaded,
            &offsets,
            &names,
            base,
            (options.threshold, options.seed),
        ),
    })
}

/// The instructions of engine `e` on `file`, whole.
fn count(
    counter: &instructions::Counter,
    file: &Loaded,
    e: usize,
    limits: &Limits,
) -> Result<u64, DuetError> {
    let spec = &file.engines[e];
    counter
        .count(
            file.game,
            spec,
            &file.bytes,
            &limits.run(limits.timeout),
            false,
        )
        .map_err(|error| DuetError::Failed {
            engine: spec.name().to_string(),
            file: file.name.clone(),
            message: error.to_string(),
        })
}

/// The log-ratios of engine `e` to the baseline per unit, one per round, from the raw `times`
/// with `offsets` taken out; a pair with nothing left of either time (a clock too coarse, a
/// time not above its start-up) has no ratio and is left out.
fn logs(
    times: &[Vec<Vec<u64>>],
    units: &[Unit],
    loaded: &[Loaded],
    offsets: &Offsets,
    (e, base): (usize, usize),
) -> Vec<paired::UnitLogs> {
    times
        .iter()
        .enumerate()
        .map(|(u, t)| {
            let game = loaded[units[u].file].game.name();
            let (oe, ob) = (offsets.point(game, e), offsets.point(game, base));
            t[e].iter()
                .zip(&t[base])
                .map(|(&a, &b)| (a.saturating_sub(oe), b.saturating_sub(ob)))
                .filter(|&(a, b)| a > 0 && b > 0)
                .map(|(a, b)| (a as f64 / b as f64).ln())
                .collect()
        })
        .collect()
}

/// Every engine but the baseline against it, from the raw times of the rounds measured so far.
fn compare(
    times: &[Vec<Vec<u64>>],
    units: &[Unit],
    loaded: &[Loaded],
    offsets: &Offsets,
    names: &[String],
    base: usize,
    (threshold, seed): (f64, u64),
) -> Vec<EngineResult> {
    (0..names.len())
        .filter(|&e| e != base)
        .filter_map(|e| {
            let point = logs(times, units, loaded, offsets, (e, base));
            let effect = paired::effect_resampled(&point, seed, |rng| {
                let drawn = offsets.draw(rng)?;
                Some(logs(times, units, loaded, &drawn, (e, base)))
            })?;
            Some(EngineResult {
                engine: names[e].clone(),
                effect,
                verdict: paired::verdict(&effect, threshold),
            })
        })
        .collect()
}

/// One measurement of engine `e` on `unit`, in ns.
fn measure(
    loaded: &[Loaded],
    unit: Unit,
    e: usize,
    plan: &Plan,
    measure: Measure,
) -> Result<u64, DuetError> {
    let file = &loaded[unit.file];
    let spec = &file.engines[e];
    let executor = spec.executor();
    let job = FileJob {
        game: file.game,
        bytes: &file.bytes,
        cases: &file.cases,
        first: 0,
    };
    let runs = match unit.case {
        Some(case) => vec![executor.run_case(&job, case, plan)],
        None if executor.per_case() => (0..file.cases.len())
            .filter(|&c| file.cases[c].case.is_ok())
            .map(|c| executor.run_case(&job, c, plan))
            .collect(),
        None => executor.run_file(&job, plan),
    };
    let failed = |message: String| DuetError::Failed {
        engine: spec.name().to_string(),
        file: file.name.clone(),
        message,
    };
    if !executor.per_case() {
        // A program: one run on the whole file, the same figures on every case.
        let run = runs.first().ok_or_else(|| failed("no case".into()))?;
        // Outputs are not compared here: a program that printed no block was still timed.
        if let Err(fault) = &run.result
            && *fault != Fault::NoOutput
        {
            return Err(failed(fault.to_string()));
        }
        return match measure {
            Measure::Wall => run.times.first().copied(),
            // Instructions are counted apart ([`count`]) and a program has no work counter.
            Measure::Cpu | Measure::Instructions | Measure::Work => {
                run.usage.first().map(|u| u.cpu().as_nanos() as u64)
            }
        }
        .ok_or_else(|| failed("not timed".into()));
    }
    let mut total = 0u64;
    for run in &runs {
        let answer = run.result.as_ref().map_err(|f| failed(f.to_string()))?;
        let figure = match measure {
            Measure::Work => answer.work.unwrap_or(0),
            _ => run.times.first().copied().unwrap_or(0),
        };
        total = total.saturating_add(figure);
    }
    Ok(total)
}
