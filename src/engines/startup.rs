//! A program's start-up, calibrated: the CPU time (user + system, the program and everything
//! it started, from `wait4`) of runs that do no work, so that a caller can take it out of the
//! times it measures.
//!
//! A process costs its start-up (the shell, an interpreter, a JVM, the loader) whatever it is
//! given, and on short cases that cost and its jitter are much of the time measured: a program
//! whose work is 5 % slower reads as about 4 % slower when a fifth of its time is start-up.
//!
//! How: the program runs once untimed, then [`CALIBRATION_RUNS`] times on the same trivial
//! input (the caller's choice: [`empty_input`], the game's input holding no case, or the
//! smallest case it has). The start-up is the fastest of those runs (other processes only add
//! time); its noise the spread between the 10th and 90th percentiles. A program that exits
//! with an error on the trivial input is still timed: its cost, not its answer, is wanted.
//!
//! Used by `hunt --metric time` (on the smallest case, see `hunt::progtime`), by the
//! interleaved comparison of `run --fail-if-slower` (runs on the empty input timed among its
//! rounds, pooled by [`median_of`]), and, on both clocks at once ([`calibrate_clocks`]), by the
//! summaries of `run` and `invoke` (on the empty input: `run` times programs on the wall clock,
//! `invoke` on the clock of its limit).

use crate::external::{self, External, ExternalError, RunLimits};
use crate::game::Game;

/// Timed runs of the trivial input.
pub const CALIBRATION_RUNS: u32 = 10;
/// [`calibrate_clocks`] stops short of [`CALIBRATION_RUNS`] once its timed runs took this
/// much time together (each run's CPU or wall time, the larger; and it has
/// [`MIN_CALIBRATION_RUNS`]): a program that burns a second before it reads its input is not
/// run ten more times to learn so.
pub const CALIBRATION_BUDGET: std::time::Duration = std::time::Duration::from_secs(2);
/// Timed runs [`calibrate_clocks`] makes whatever they cost: enough for a fastest run and a
/// spread.
pub const MIN_CALIBRATION_RUNS: u32 = 3;
/// Untimed runs before them (the program's files brought into the page cache).
pub const WARMUP_RUNS: u32 = 1;
/// The wall-time limit of one calibration run by [`calibrate_for_game`]: a program that waits
/// for more input is given up on at once.
pub const CALIBRATION_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);
/// The percentiles whose distance is the start-up noise.
const NOISE_LOW: f64 = 0.1;
const NOISE_HIGH: f64 = 0.9;

/// A program's calibrated start-up on one clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Startup {
    /// The fastest run on the trivial input, ns: its CPU time ([`calibrate`], and
    /// [`Clocks::cpu`]), or its wall time ([`Clocks::wall`]).
    pub cpu_ns: u64,
    /// Spread of that time over the runs (10th to 90th percentile), ns.
    pub noise_ns: u64,
    /// Timed runs it was calibrated from.
    pub runs: u32,
}

/// Why a program's start-up could not be calibrated.
#[derive(Debug, Clone, thiserror::Error, PartialEq)]
pub enum StartupError {
    /// The program could not run on the trivial input (it could not start, timed out, went
    /// over a limit, or was stopped).
    #[error("{0}")]
    Run(ExternalError),
}

impl Startup {
    /// `cpu_ns` with the start-up taken out (never below zero).
    pub fn take_out(&self, cpu_ns: u64) -> u64 {
        cpu_ns.saturating_sub(self.cpu_ns)
    }
}

/// A program's start-up on the two clocks a run can read, from the same runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clocks {
    /// CPU time (user + system).
    pub cpu: Startup,
    /// Wall time (in `wall.cpu_ns`: the fastest run's wall time).
    pub wall: Startup,
}

/// The judge input of `game` that holds no case (what the game's own writer writes for none:
/// empty, or Vexed's end line alone; a parser may read an empty file as one unreadable case):
/// a program's run on it is its start-up alone.
pub fn empty_input(game: &dyn Game) -> String {
    game.editor().write_input(&[])
}

/// The CPU time (ns) of one run of `program` on `input` under `limits`; a run that exited with
/// an error or a signal counts (its cost is wanted, not its answer); one the shell could not
/// start, or any other failure, is an error.
pub fn cpu_time(program: &External, input: &[u8], limits: &RunLimits) -> Result<u64, StartupError> {
    match external::run(program, input, limits) {
        Ok(ran) => Ok(ran.usage.cpu().as_nanos() as u64),
        Err(e @ ExternalError::Failed { usage, .. }) if !e.cannot_start() => {
            Ok(usage.cpu().as_nanos() as u64)
        }
        Err(e) => Err(StartupError::Run(e)),
    }
}

/// Calibrates the start-up of `program` on `input` (see the module docs): [`WARMUP_RUNS`]
/// untimed runs, then [`CALIBRATION_RUNS`] timed, each under `limits`.
pub fn calibrate(
    program: &External,
    input: &[u8],
    limits: &RunLimits,
) -> Result<Startup, StartupError> {
    for _ in 0..WARMUP_RUNS {
        cpu_time(program, input, limits)?;
    }
    let mut times = (0..CALIBRATION_RUNS)
        .map(|_| cpu_time(program, input, limits))
        .collect::<Result<Vec<u64>, _>>()?;
    Ok(of_times(&mut times))
}

/// The CPU and wall times (ns) of one run of `program` on `input` under `limits`, which must
/// succeed: the launcher measures the wall time of a run that exits cleanly only.
pub fn times(
    program: &External,
    input: &[u8],
    limits: &RunLimits,
) -> Result<(u64, u64), StartupError> {
    let ran = external::run(program, input, limits).map_err(StartupError::Run)?;
    Ok((
        ran.usage.cpu().as_nanos() as u64,
        ran.elapsed.as_nanos() as u64,
    ))
}

/// Calibrates the start-up of `program` on `input` on both clocks (see the module docs): the
/// same [`WARMUP_RUNS`] and [`CALIBRATION_RUNS`] as [`calibrate`], each run read on both, but
/// no more runs once [`MIN_CALIBRATION_RUNS`] of them took [`CALIBRATION_BUDGET`] (the
/// result's `runs` says how many); a program that fails on `input` is an error (see
/// [`times`]: give it an input it accepts).
pub fn calibrate_clocks(
    program: &External,
    input: &[u8],
    limits: &RunLimits,
) -> Result<Clocks, StartupError> {
    for _ in 0..WARMUP_RUNS {
        times(program, input, limits)?;
    }
    let budget = CALIBRATION_BUDGET.as_nanos() as u64;
    let (mut cpu, mut wall) = (Vec::new(), Vec::new());
    // What the runs cost, on the clock that read more: a sleeping program costs its wall time.
    let mut spent = 0u64;
    while cpu.len() < CALIBRATION_RUNS as usize
        && (cpu.len() < MIN_CALIBRATION_RUNS as usize || spent < budget)
    {
        let (c, w) = times(program, input, limits)?;
        spent += c.max(w);
        cpu.push(c);
        wall.push(w);
    }
    Ok(Clocks {
        cpu: of_times(&mut cpu),
        wall: of_times(&mut wall),
    })
}

/// Calibrates `program` on both clocks for a run on `game` (under `limits`, each run at most
/// [`CALIBRATION_TIMEOUT`]): on the game's input of no case, or, when the program rejects
/// that, on `smallest` (the smallest input of the run: its little work then counts as
/// start-up too). Says whether `smallest` was used.
pub fn calibrate_for_game(
    program: &External,
    game: &dyn Game,
    smallest: Option<&[u8]>,
    limits: &crate::engines::Limits,
) -> Result<(Clocks, bool), StartupError> {
    let limits = limits.run(limits.timeout.min(CALIBRATION_TIMEOUT));
    let empty = empty_input(game);
    match (
        calibrate_clocks(program, empty.as_bytes(), &limits),
        smallest,
    ) {
        (Ok(clocks), _) => Ok((clocks, false)),
        (Err(_), Some(input)) => calibrate_clocks(program, input, &limits).map(|c| (c, true)),
        (Err(e), None) => Err(e),
    }
}

/// The start-up of runs on the trivial input spread over a longer measurement (the
/// interleaved comparison times them among its rounds): their median, not their fastest, with
/// the same noise. One burst of runs sees one state of the machine, and under load the fastest
/// of one burst moves between calibrations of one program; the median of runs taken across
/// every state the measurement saw is the start-up its times carry. `None` for no runs.
pub fn median_of(times: &[u64]) -> Option<Startup> {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    let median = crate::util::stats::median_u64(&sorted)?;
    Some(Startup {
        cpu_ns: median,
        ..of_times(&mut sorted)
    })
}

/// The start-up of the timed runs `times` (at least one).
fn of_times(times: &mut [u64]) -> Startup {
    times.sort_unstable();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    Startup {
        cpu_ns: times[0],
        noise_ns: at(NOISE_HIGH) - at(NOISE_LOW),
        runs: times.len() as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_fastest_run_and_the_spread_between_the_deciles() {
        // 10 runs: the 10th percentile is the 2nd (index 0.9 -> 1), the 90th the 9th (8.1 -> 8).
        let mut times = vec![900, 100, 200, 300, 400, 500, 600, 700, 800, 1000];
        let s = of_times(&mut times);
        assert_eq!(s.cpu_ns, 100);
        assert_eq!(s.noise_ns, 900 - 200);
        assert_eq!(s.runs, 10);
        assert_eq!(s.take_out(150), 50);
        assert_eq!(s.take_out(50), 0, "never below zero");
    }

    #[test]
    fn pooled_runs_give_their_median_and_the_same_noise() {
        // Sorted: 100 200 300 400 500 600 700 800 900 1000; median (500 + 600) / 2.
        let times = [900, 100, 200, 300, 400, 500, 600, 700, 800, 1000];
        let s = median_of(&times).unwrap();
        assert_eq!(s.cpu_ns, 550);
        assert_eq!(s.noise_ns, 900 - 200);
        assert_eq!(s.runs, 10);
        assert_eq!(median_of(&[7]).unwrap().cpu_ns, 7);
        assert_eq!(median_of(&[]), None);
    }

    #[test]
    fn a_program_is_timed_even_when_it_fails_on_the_empty_input_and_not_when_it_cannot_start() {
        let limits = RunLimits::wall(Duration::from_secs(10));
        let failing = External::parse("cmd:exit 3").unwrap();
        let s = calibrate(&failing, b"", &limits).unwrap();
        assert_eq!(s.runs, CALIBRATION_RUNS);
        let missing = External::parse("cmd:/nonexistent/gamebench-no-such-program").unwrap();
        assert!(matches!(
            calibrate(&missing, b"", &limits),
            Err(StartupError::Run(_))
        ));
    }

    #[test]
    fn both_clocks_from_the_same_runs() {
        // A program that sleeps spends wall time, not CPU time: its wall start-up holds the
        // sleep, its CPU start-up does not.
        const SLEEP_NS: u64 = 50_000_000;
        let limits = RunLimits::wall(Duration::from_secs(10));
        let sleeper = External::parse("cmd:sleep 0.05").unwrap();
        let c = calibrate_clocks(&sleeper, b"", &limits).unwrap();
        assert_eq!(
            (c.cpu.runs, c.wall.runs),
            (CALIBRATION_RUNS, CALIBRATION_RUNS)
        );
        assert!(c.wall.cpu_ns >= SLEEP_NS, "{c:?}");
        assert!(c.cpu.cpu_ns < SLEEP_NS, "{c:?}");
        let missing = External::parse("cmd:/nonexistent/gamebench-no-such-program").unwrap();
        assert!(calibrate_clocks(&missing, b"", &limits).is_err());
        let failing = External::parse("cmd:exit 3").unwrap();
        assert!(calibrate_clocks(&failing, b"", &limits).is_err());
    }

    #[test]
    fn a_slow_start_up_is_calibrated_on_fewer_runs_once_they_cost_the_budget() {
        // 0.8 s a run: the third run brings the runs' time to 2.4 s, past the 2 s budget.
        const SLOW: &str = "cmd:sleep 0.8";
        assert!(
            3 * 800 > CALIBRATION_BUDGET.as_millis() && 2 * 800 < CALIBRATION_BUDGET.as_millis()
        );
        let limits = RunLimits::wall(Duration::from_secs(10));
        let c = calibrate_clocks(&External::parse(SLOW).unwrap(), b"", &limits).unwrap();
        assert_eq!(
            (c.cpu.runs, c.wall.runs),
            (MIN_CALIBRATION_RUNS, MIN_CALIBRATION_RUNS)
        );
        assert!(c.wall.cpu_ns >= 800_000_000, "{c:?}");
    }

    #[test]
    fn the_empty_input_holds_no_readable_case() {
        for game in crate::registry::GAMES {
            let text = empty_input(*game);
            assert!(
                game.parse(text.as_bytes(), &crate::game::Reading::STATEMENT)
                    .iter()
                    .all(|c| c.case.is_err()),
                "{}: {text:?}",
                game.name()
            );
        }
    }
}
