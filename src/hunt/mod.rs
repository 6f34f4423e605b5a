//! `gamebench hunt`: a search for the inputs on which an engine is slowest.
//!
//! An evolutionary search over single cases. The first generation is the game's generator's
//! own cases: the first file of every profile (or of `--profile`) with the user's generator
//! options (a profile that refuses them is skipped), taken round robin over the profiles. Then, until the budget ends: pick a parent
//! among the best cases found so far (a tournament of two), apply one to [`MAX_MUTATIONS`] of
//! the game's mutations ([`crate::shrink::Shrink::mutate`]: same shape, a few cells, turns or
//! selections changed), keep the child if it is valid and admissible, measure it, and let it
//! into the population of the `--top` best when it beats the worst there. Children are bred
//! [`BROOD`] at a time from the same population and measured side by side (`-j` of them at
//! once), then let in one by one in the order they were bred: the brood's size is fixed, so
//! a `work` hunt finds the same cases whatever `-j`.
//!
//! Metrics: `work` is the engine's work counter (pops, removals, states, turns): exact, so a
//! hunt with `--evaluations` is deterministic. `time` is the fastest of `--runs` engine calls,
//! each measured in CPU time of the calling thread (an external program: its CPU time from
//! `wait4` on a file of copies of the case, calibrated start-up taken out, see
//! [`crate::hunt::progtime`]): on a shared machine wall time grows whenever another process holds
//! the core, and other processes only ever add time, so the minimum CPU time is the steadiest
//! estimate of the engine's own cost. A child that would enter
//! the population is timed again with [`RETIME_FACTOR`] times as many runs, and enters only if
//! it still beats the worst, and whenever the best changes the whole population is timed again
//! (each case keeps its fastest time ever), so one unlucky measurement does not stay on top.
//!
//! Every case measured and written is fair ([`Input::is_fair`]: the game's strict validator
//! accepts it, every case admissible): a mutation that breaks the statement is rejected.
//!
//! `--time` is a deadline for the whole hunt: the generator's solver, each measured run (a
//! program's wall-time limit and a search's budget cut to the time left) and the re-timing stop
//! at it. A signal (SIGINT, SIGTERM) stops the running program through the executor's stop
//! flag; either way the population found so far is written.
//!
//! Output: the population as a corpus, best first, each case with its expected output from the
//! game's default engine (as `gen` writes them), in one file (or one file per case when the game holds one case per
//! file), and the best metric over time as CSV.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use gamebench_generators::{Dice, FileId, file_rng};

mod files;
mod measure;
pub mod progtime;

use files::write_files;
use measure::{Halt, Measure, Measurer, calibrate};

use crate::engines::Limits;
use crate::engines::gencmd::{ExternalGenerator, GeneratorError};
use crate::external;
use crate::game::{AnyCase, GameOptions};
use crate::game::{Budget, Game, Lent, Reading};
use crate::hunt::progtime::ProgramClock;
use crate::runner::EngineSpec;
use crate::shrink::Input;
use crate::util::units::human_time;

/// Most mutations applied to a parent to make one child.
pub const MAX_MUTATIONS: u64 = 4;
/// A child about to enter the population is timed again with this many times the runs.
pub const RETIME_FACTOR: u32 = 3;
/// Invalid children that count as one evaluation against `--evaluations`.
const REJECTS_PER_EVALUATION: u64 = 100;
/// Name of the random stream of a hunt (the generator's files have their own).
const STREAM: &str = "hunt";

/// What is maximised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Metric {
    /// Time of the engine on the case (the fastest of the runs; CPU time of the thread for an
    /// internal engine, of the process minus its start-up for a program).
    Time,
    /// The engine's work counter (exact; internal engines only).
    Work,
}

/// When the search stops.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Limit {
    Time(Duration),
    /// After this many evaluated cases (the first generation included): deterministic with
    /// `--metric work`.
    Evaluations(u64),
}

/// What `hunt` runs.
pub struct Config<'a> {
    pub game: &'static dyn Game,
    /// How the game reads every input (`--zero-pair`).
    pub reading: Reading,
    pub engine: EngineSpec,
    /// Only this profile's cases start the search (default: every profile's).
    pub profile: Option<String>,
    pub options: &'a GameOptions,
    pub seed: u64,
    pub limit: Limit,
    pub metric: Metric,
    /// Size of the population, and of the corpus written.
    pub top: usize,
    /// Timed runs per candidate (`time` metric).
    pub runs: u32,
    /// Limits of one external program run: `--timeout` and the judge's limits.
    pub limits: Limits,
    pub budget: Budget,
    pub out: PathBuf,
    /// An external generator instead of the game's own (`--generator`): the first generation
    /// is the cases of its first [`EXTERNAL_FIRST_FILES`] files (seeds `seed`, `seed + 1`, ...).
    pub generator: Option<ExternalGenerator>,
    /// Candidates measured at once (`-j`): the cases found are the same whatever the count.
    pub jobs: usize,
}

/// Children bred from the same population before any of them is let in: measured side by side
/// (at most `Config::jobs` at once), and fixed, so that the hunt does not depend on `-j`.
pub const BROOD: usize = 4;

/// Files of an external generator that make the first generation.
pub const EXTERNAL_FIRST_FILES: u64 = 4;

#[derive(Debug, thiserror::Error)]
pub enum HuntError {
    #[error("--metric work needs an internal engine: {0} is a program")]
    WorkOfProgram(String),
    #[error("no profile of {game} generates cases with these options ({why})")]
    NoStart { game: &'static str, why: String },
    #[error(transparent)]
    ExternalGenerator(#[from] GeneratorError),
    #[error("engine {engine} fails on a generated case: {message}")]
    Engine { engine: String, message: String },
    #[error("cannot write {}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("no case of {game} was generated and measured within --time")]
    NothingInTime { game: &'static str },
}

/// One case of the population with its measure.
pub struct Scored {
    pub input: Input,
    /// Nanoseconds (`time`) or work units (`work`).
    pub metric: u64,
}

/// The best metric so far, each time it improved.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub seconds: f64,
    pub evaluations: u64,
    pub best: u64,
}

/// What a hunt found.
pub struct Hunted {
    /// Best first.
    pub population: Vec<Scored>,
    pub progress: Vec<Progress>,
    pub evaluations: u64,
    /// Children rejected as invalid or inadmissible.
    pub rejected: u64,
    pub time: Duration,
    /// The best case of the first generation (the generator's best).
    pub generated_best: u64,
    /// Whether a signal stopped the hunt (exit 130 or 143; the population is written).
    pub stopped: bool,
    /// A program's calibrated start-up (`time` metric): its times are CPU times minus it.
    pub clock: Option<ProgramClock>,
    pub files: Vec<PathBuf>,
}

/// The cases that start the search: the first file of each profile, one input per case (a
/// profile whose file is not done by the deadline is left out).
fn first_generation(
    config: &Config<'_>,
    deadline: Option<Instant>,
) -> Result<Vec<Input>, HuntError> {
    let game = config.game;
    if let Some(external) = &config.generator {
        let mut inputs = Vec::new();
        for k in 0..EXTERNAL_FIRST_FILES {
            let text = external.generate(game, ExternalGenerator::seed_of(config.seed, k))?;
            if let Some(file) = Input::read(game, text, &config.reading) {
                let cases = file.typed().into_iter();
                inputs.extend(cases.filter_map(|c| single(game, c, &config.reading)));
            }
        }
        if inputs.is_empty() {
            return Err(HuntError::NoStart {
                game: game.name(),
                why: format!("generator `{}` gave no playable case", external.template),
            });
        }
        return Ok(inputs);
    }
    let generator = game.generator();
    let profiles: Vec<&str> = match &config.profile {
        Some(p) => vec![p.as_str()],
        None => generator.profiles().iter().map(|p| p.name).collect(),
    };
    let mut per_profile: Vec<Vec<Input>> = Vec::new();
    let mut why = String::new();
    for profile in profiles {
        let file = FileId {
            game: game.name(),
            profile,
            seed: config.seed,
            index: 0,
        };
        let lent = Lent::new(game.default_engine().name(), config.budget.clone())
            .until(deadline)
            .read_as(config.reading.clone());
        let text = match generator.generate(&file, config.options, &lent) {
            Ok(text) => text,
            Err(e) => {
                why = e.to_string();
                continue;
            }
        };
        let Some(file) = Input::read(game, text, &config.reading) else {
            continue;
        };
        per_profile.push(
            file.typed()
                .into_iter()
                .filter_map(|c| single(game, c, &config.reading))
                .collect(),
        );
    }
    // Round robin over the profiles, so that a budget that ends inside the first generation
    // (a slow program) has still seen every profile.
    let mut inputs = Vec::new();
    let mut queues: Vec<_> = per_profile.into_iter().map(Vec::into_iter).collect();
    loop {
        let before = inputs.len();
        inputs.extend(queues.iter_mut().filter_map(Iterator::next));
        if inputs.len() == before {
            break;
        }
    }
    if inputs.is_empty() && deadline.is_some_and(|d| Instant::now() >= d) {
        return Err(HuntError::NothingInTime { game: game.name() });
    }
    if inputs.is_empty() {
        return Err(HuntError::NoStart {
            game: game.name(),
            why,
        });
    }
    Ok(inputs)
}

/// A child of the population: a parent chosen by a tournament of two among the best, changed
/// by one to [`MAX_MUTATIONS`] mutations; `None` when the child is not a fair input.
fn breed(game: &dyn Game, population: &[Scored], dice: &mut Dice) -> Option<Input> {
    let n = population.len() as u64;
    let (a, b) = (dice.below(n) as usize, dice.below(n) as usize);
    let parent = &population[a.min(b)];
    let mut child = game.editor().mutate(parent.input.typed()[0], dice);
    for _ in 1..dice.range(1, MAX_MUTATIONS) {
        child = game.editor().mutate(child.as_ref(), dice);
    }
    single(game, child.as_ref(), &parent.input.reading)
}

/// Measures each input of `brood` (`runs` runs), `jobs` at a time, results in brood order.
fn measure_brood(
    measurer: &Measurer<'_>,
    brood: &[Input],
    runs: u32,
    jobs: usize,
) -> Vec<Result<u64, Measure>> {
    let jobs = jobs.clamp(1, brood.len().max(1));
    if jobs == 1 {
        return brood
            .iter()
            .map(|input| measurer.measure(input, runs))
            .collect();
    }
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|worker| {
                scope.spawn(move || {
                    brood
                        .iter()
                        .enumerate()
                        .skip(worker)
                        .step_by(jobs)
                        .map(|(i, input)| (i, measurer.measure(input, runs)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut measured: Vec<(usize, Result<u64, Measure>)> = workers
            .into_iter()
            .flat_map(|w| w.join().expect("a measuring thread does not panic"))
            .collect();
        measured.sort_by_key(|(i, _)| *i);
        measured.into_iter().map(|(_, m)| m).collect()
    })
}

/// `case` alone in a file read under `reading`, if it is a fair input ([`Input::is_fair`]:
/// valid and admissible).
fn single(game: &dyn Game, case: &AnyCase, reading: &Reading) -> Option<Input> {
    crate::shrink::candidate(game, &[case], reading)
}

/// Inserts `scored` into `population` (best first, at most `top`) if it beats the worst and
/// is not there already (a mutation can undo another: the corpus holds distinct cases).
fn admit(population: &mut Vec<Scored>, scored: Scored, top: usize) {
    if population.iter().any(|s| s.input.text == scored.input.text) {
        return;
    }
    let at = population.partition_point(|s| s.metric >= scored.metric);
    if at < top {
        population.insert(at, scored);
        population.truncate(top);
    }
}

/// Times every case of the population again and keeps, for each, the fastest time it ever
/// had, then sorts again: a case that entered on a slow moment of the machine (all its runs
/// slowed by another process) sinks back to its place. Run whenever the best changes, so the
/// best reported is one that held up twice.
fn retime(measurer: &Measurer<'_>, population: &mut [Scored], runs: u32) -> Result<(), Measure> {
    // Sorted whatever happens: a halt midway leaves some cases re-timed.
    let result = population.iter_mut().try_for_each(|scored| {
        scored.metric = scored.metric.min(measurer.measure(&scored.input, runs)?);
        Ok(())
    });
    population.sort_by_key(|s| std::cmp::Reverse(s.metric));
    result
}

/// Runs the hunt of `config`.
pub fn run(config: &Config<'_>) -> Result<Hunted, HuntError> {
    if config.metric == Metric::Work && config.engine.is_program() {
        return Err(HuntError::WorkOfProgram(config.engine.name().to_string()));
    }
    let start = Instant::now();
    let deadline = match config.limit {
        Limit::Time(t) => Some(start + t),
        Limit::Evaluations(_) => None,
    };
    let game = config.game;
    let first = first_generation(config, deadline)?;
    let mut halt: Option<Halt> = None;
    // A signal or the deadline during the calibration halts the hunt like any run.
    let clock = match calibrate(config, &first, deadline) {
        Ok(clock) => clock,
        Err(error) => {
            if external::stop_flag().load(Ordering::Relaxed) {
                halt = Some(Halt::Stopped);
            } else if deadline.is_some_and(|d| Instant::now() >= d) {
                halt = Some(Halt::OutOfTime);
            } else {
                return Err(error);
            }
            None
        }
    };
    let measurer = Measurer {
        config,
        deadline,
        clock,
    };
    let top = config.top.max(1);
    let mut population: Vec<Scored> = Vec::new();
    let mut progress: Vec<Progress> = Vec::new();
    let mut evaluations: u64 = 0;
    let mut rejected: u64 = 0;
    // Invalid children count too, a little, so a game whose mutations keep failing still
    // ends an `--evaluations` hunt.
    let done = |evaluations: u64, rejected: u64| match config.limit {
        Limit::Time(t) => start.elapsed() >= t,
        Limit::Evaluations(n) => evaluations + rejected / REJECTS_PER_EVALUATION >= n,
    };
    let note = |population: &[Scored], evaluations: u64, progress: &mut Vec<Progress>| {
        let best = population.first().map_or(0, |s| s.metric);
        if progress.last().is_none_or(|p| p.best < best) {
            progress.push(Progress {
                seconds: start.elapsed().as_secs_f64(),
                evaluations,
                best,
            });
        }
    };
    // A brood is cut to the evaluations left, so that `--evaluations N` measures N cases.
    let brood_size = |evaluations: u64| match config.limit {
        Limit::Time(_) => BROOD,
        Limit::Evaluations(n) => (n.saturating_sub(evaluations) as usize).clamp(1, BROOD),
    };
    // A measurement's error ends the hunt; a halt ends the search, and what was found is
    // written.
    macro_rules! measured {
        ($m:expr) => {
            match $m {
                Ok(metric) => metric,
                Err(Measure::Error(e)) => return Err(e),
                Err(Measure::Halt(h)) => {
                    halt = Some(h);
                    break;
                }
            }
        };
    }
    let mut first = first.into_iter().peekable();
    while halt.is_none() && first.peek().is_some() {
        if done(evaluations, rejected) && !population.is_empty() {
            break;
        }
        let brood: Vec<Input> = first.by_ref().take(brood_size(evaluations)).collect();
        let metrics = measure_brood(&measurer, &brood, config.runs, config.jobs);
        for (input, metric) in brood.into_iter().zip(metrics) {
            let metric = measured!(metric);
            evaluations += 1;
            admit(&mut population, Scored { input, metric }, top);
            note(&population, evaluations, &mut progress);
        }
    }
    let generated_best = population.first().map_or(0, |s| s.metric);
    let mut dice = Dice::new(file_rng(STREAM, game.name(), config.seed, 0));
    while halt.is_none() && !population.is_empty() && !done(evaluations, rejected) {
        if let Err(h) = measurer.time_left() {
            halt = Some(h);
            break;
        }
        // Bred from the population as it is now; let in one by one, in the order bred.
        let mut brood = Vec::with_capacity(BROOD);
        let wanted = brood_size(evaluations);
        while brood.len() < wanted && !done(evaluations + brood.len() as u64, rejected) {
            match breed(game, &population, &mut dice) {
                Some(input) => brood.push(input),
                None => rejected += 1,
            }
        }
        let metrics = measure_brood(&measurer, &brood, config.runs, config.jobs);
        for (input, metric) in brood.into_iter().zip(metrics) {
            let mut metric = measured!(metric);
            evaluations += 1;
            let worst = population.last().map_or(0, |s| s.metric);
            let enters = population.len() < top || metric > worst;
            if enters && config.metric == Metric::Time {
                metric = measured!(measurer.measure(&input, config.runs * RETIME_FACTOR));
            }
            if population.len() < top || metric > worst {
                let best = population.first().map_or(0, |s| s.metric);
                admit(&mut population, Scored { input, metric }, top);
                if config.metric == Metric::Time && metric > best {
                    measured!(retime(
                        &measurer,
                        &mut population,
                        config.runs * RETIME_FACTOR
                    ));
                }
                note(&population, evaluations, &mut progress);
            }
        }
    }
    let stopped = matches!(halt, Some(Halt::Stopped));
    // Stopped by a signal before any case was measured: nothing to write, not an error.
    if population.is_empty() && !stopped {
        return Err(HuntError::NothingInTime { game: game.name() });
    }
    let mut hunted = Hunted {
        population,
        progress,
        evaluations,
        rejected,
        time: start.elapsed(),
        generated_best,
        stopped,
        files: Vec::new(),
        clock,
    };
    if hunted.population.is_empty() {
        return Ok(hunted);
    }
    hunted.files = write_files(config, &hunted)?;
    Ok(hunted)
}

/// A metric for people: a time ([`human_time`]) or work units.
pub fn shown(metric: Metric, value: u64, unit: &str) -> String {
    match metric {
        Metric::Time => human_time(value),
        Metric::Work => format!("{value} {unit}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;

    /// A distinct one-turn Yut game per metric (the population keeps distinct cases).
    fn scored(metric: u64) -> Scored {
        let game = registry::find("yut").unwrap();
        let token = char::from(b'A' + (metric % 4) as u8);
        let steps = "F".repeat((metric / 4 % 4 + 1) as usize);
        let text = format!("1\n{token} {steps:B<4}\n");
        Scored {
            input: Input::read(game, text, &Reading::STATEMENT).unwrap(),
            metric,
        }
    }

    #[test]
    fn the_population_keeps_the_best_first_and_at_most_top() {
        let mut population = Vec::new();
        for metric in [5, 9, 1, 7, 8, 3] {
            admit(&mut population, scored(metric), 3);
        }
        let metrics: Vec<u64> = population.iter().map(|s| s.metric).collect();
        assert_eq!(metrics, vec![9, 8, 7]);
        // Not better than the worst kept, and the same case again: both left out.
        admit(&mut population, scored(6), 3);
        let same_as_nine = Scored {
            metric: 10,
            ..scored(9)
        };
        admit(&mut population, same_as_nine, 3);
        let metrics: Vec<u64> = population.iter().map(|s| s.metric).collect();
        assert_eq!(metrics, vec![9, 8, 7]);
    }
}
