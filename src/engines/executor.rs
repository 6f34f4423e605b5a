//! The one way an engine is run: [`Executor`], "run this engine on these cases and give me
//! outputs, times and resources".
//!
//! Two implementations: [`EngineRef`] (a game's own engine, called in this process: warm-up
//! calls, timed calls, a call too short to time alone timed in batches) and [`External`] (a
//! program run on judge inputs through [`crate::external::run`]: whole files, or case by case
//! when [`Limits::case_timeout`] is set and the game can write each case as an input of its own;
//! its output split into one block per case). Tests add their own (a mock through
//! [`super::EngineSpec::Custom`]).
//!
//! Every command that runs engines goes through here: the runner's slots, `stress`, `hunt`,
//! `check` (the expected outputs it computes). What a command does with the results (rows,
//! failures, a metric) is its own; how an engine is called, timed and limited is decided here
//! once.
//!
//! Invariants:
//! - The timed region holds the engine call (or the program run) alone.
//! - A [`CaseRun`] that failed ([`CaseRun::result`] is a [`Fault`] other than
//!   [`Fault::NoOutput`]) has no times; one that produced an answer has one time per timed run.
//! - A program's failure on a whole file is every case's fault (cloned), with
//!   [`Timing::File`].

use std::time::Duration;

use super::timing::{MIN_TIMED_NS, REPEAT_BELOW_NS, Timing};
use crate::engines::judge::judge_case;
use crate::external::{self, External, ExternalError, RunLimits, Usage};
use crate::game::{Answer, Budget, CaseError, EngineRef, Game, ParsedCase};

/// Runs one engine on the cases of a judge file.
pub trait Executor: Send + Sync {
    /// The engine's name in reports.
    fn name(&self) -> &str;

    /// Whether it runs one case alone ([`Executor::run_case`]); if not, it runs whole files
    /// ([`Executor::run_file`]) and a caller schedules it once per file.
    fn per_case(&self) -> bool;

    /// Case `case` (0-based) of `job` alone.
    fn run_case(&self, job: &FileJob<'_>, case: usize, plan: &Plan) -> CaseRun;

    /// Every case of `job`, one result per parsed case in file order.
    fn run_file(&self, job: &FileJob<'_>, plan: &Plan) -> Vec<CaseRun> {
        (0..job.cases.len())
            .map(|case| self.run_case(job, case, plan))
            .collect()
    }

    /// Whether it reads the raw input ([`FileJob::bytes`]); else only the parsed cases.
    fn reads_input(&self) -> bool {
        !self.per_case()
    }
}

/// A judge file to run: its game, its bytes and its parsed cases.
#[derive(Clone, Copy)]
pub struct FileJob<'a> {
    pub game: &'static dyn Game,
    /// The raw input (read by programs; may be empty when no executor reads it).
    pub bytes: &'a [u8],
    pub cases: &'a [ParsedCase],
    /// The index in its file of `cases[0]` (a runner streaming a file passes its cases a
    /// chunk at a time; case `i` of the job is case `first + i + 1` of the file's output).
    pub first: usize,
}

/// Which clock times an engine call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Clock {
    /// Wall time (programs are always timed by the wall).
    #[default]
    Wall,
    /// CPU time of the calling thread (internal engines): it does not grow while other
    /// processes hold the core.
    ThreadCpu,
}

/// What a program may use, per run: a judge's limits (see [`external::RunLimits`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    /// Wall-time limit of one run on a whole file.
    pub timeout: Duration,
    /// Per-case wall-time limit: a one-case file runs under it, and a file of a game that can
    /// write each case as an input of its own (`Game::case_input`) runs case by case.
    pub case_timeout: Option<Duration>,
    /// CPU-time limit of one run (the program and everything it started).
    pub cpu: Option<Duration>,
    /// Peak resident memory limit of one run, KiB.
    pub memory_kb: Option<u64>,
    /// Standard output limit of one run, bytes (`None`: unbounded).
    pub output_bytes: Option<u64>,
    /// Each program on a core of its own.
    pub pin: bool,
}

impl Limits {
    /// The limits of one run whose wall-time limit is `wall`.
    pub fn run(&self, wall: Duration) -> RunLimits {
        RunLimits {
            wall,
            cpu: self.cpu,
            memory_kb: self.memory_kb,
            output_bytes: self.output_bytes,
            pin: self.pin,
        }
    }
}

/// Default [`Limits::timeout`].
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: DEFAULT_TIMEOUT,
            case_timeout: None,
            cpu: None,
            memory_kb: None,
            output_bytes: Some(external::DEFAULT_OUTPUT_LIMIT_MB << 20),
            pin: false,
        }
    }
}

/// How to run: warm-up and timed runs, the clock, the budget of internal engines, the limits
/// of programs.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Untimed runs before the timed ones.
    pub warmup: u32,
    /// Timed runs (at least 1).
    pub runs: u32,
    /// Time a call too short to time alone in batches of calls (internal engines).
    pub repeat_short: bool,
    pub clock: Clock,
    pub budget: Budget,
    pub limits: Limits,
}

impl Plan {
    /// One untimed-in-spirit run: no warm-up, one run, no batches, by the wall.
    pub fn once(budget: Budget, limits: Limits) -> Plan {
        Plan {
            warmup: 0,
            runs: 1,
            repeat_short: false,
            clock: Clock::Wall,
            budget,
            limits,
        }
    }

    fn runs(&self) -> u32 {
        self.runs.max(1)
    }
}

/// Why an engine gave no answer on a case.
#[derive(Debug, Clone, PartialEq)]
pub enum Fault {
    /// The case could not be read or played.
    Case(CaseError),
    /// The program ran past its time limit (CPU or wall) and was killed.
    Timeout(ExternalError),
    /// The program used more memory than its limit.
    MemoryLimit(ExternalError),
    /// The program wrote more than its output limit and was killed.
    OutputLimit(ExternalError),
    /// The program failed (a non-zero exit, a signal): a runtime error.
    Failed(ExternalError),
    /// The run was stopped (SIGINT) while the program ran.
    Stopped(ExternalError),
    /// The program cannot be started at all.
    CannotStart(ExternalError),
    /// The program ran but printed no block for this case (its times are kept).
    NoOutput,
}

impl Fault {
    fn of_program(e: ExternalError) -> Fault {
        if e.cannot_start() {
            Fault::CannotStart(e)
        } else {
            match e {
                ExternalError::Timeout { .. } => Fault::Timeout(e),
                ExternalError::MemoryLimit { .. } => Fault::MemoryLimit(e),
                ExternalError::OutputLimit { .. } => Fault::OutputLimit(e),
                ExternalError::Stopped { .. } => Fault::Stopped(e),
                _ => Fault::Failed(e),
            }
        }
    }

    /// Why a program's run failed, in a word or two, for a table's cell: the signal that
    /// killed it (`SIGSEGV`, or `signal 42` without a name) or its exit code (`exit 3`).
    pub fn exit_reason(&self) -> Option<String> {
        match self {
            Fault::Failed(ExternalError::Failed { code, signal, .. }) => match (code, signal) {
                (_, Some(s)) => Some(
                    external::signal_name(*s).map_or_else(|| format!("signal {s}"), String::from),
                ),
                (Some(c), None) => Some(format!("exit {c}")),
                (None, None) => None,
            },
            _ => None,
        }
    }

    /// The program's error, for a fault of a program run.
    pub fn program_error(&self) -> Option<&ExternalError> {
        match self {
            Fault::Timeout(e)
            | Fault::MemoryLimit(e)
            | Fault::OutputLimit(e)
            | Fault::Failed(e)
            | Fault::Stopped(e)
            | Fault::CannotStart(e) => Some(e),
            Fault::Case(_) | Fault::NoOutput => None,
        }
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Case(e) => e.fmt(f),
            Fault::Timeout(e)
            | Fault::MemoryLimit(e)
            | Fault::OutputLimit(e)
            | Fault::Failed(e)
            | Fault::Stopped(e)
            | Fault::CannotStart(e) => e.fmt(f),
            Fault::NoOutput => f.write_str("the program printed no output for this case"),
        }
    }
}

/// A case's timed runs, in ns: held inline for one run (the default), so that timing a tiny
/// case allocates nothing.
pub type RunTimes = smallvec::SmallVec<[u64; 1]>;

/// One engine on one case: its answer or fault, and how it was timed.
#[derive(Debug, Clone)]
pub struct CaseRun {
    pub result: Result<Answer, Fault>,
    /// One per timed run, in ns (a batch's share per call with [`Timing::CaseRepeated`]).
    pub times: RunTimes,
    pub timing: Timing,
    /// Calls per timed batch ([`Timing::CaseRepeated`]), else 1.
    pub repeats: u32,
    /// Programs: what each timed run used.
    pub usage: Vec<Usage>,
}

impl CaseRun {
    /// A fault, with no times.
    pub fn fault(fault: Fault, timing: Timing) -> CaseRun {
        CaseRun {
            result: Err(fault),
            times: RunTimes::new(),
            timing,
            repeats: 1,
            usage: Vec::new(),
        }
    }

    /// With what the failed run used (a program that ran, then failed or passed a limit).
    pub fn used(mut self) -> CaseRun {
        if let Err(fault) = &self.result {
            self.usage
                .extend(fault.program_error().and_then(ExternalError::usage));
        }
        self
    }
}

/// Most calls timed together for one short case (a batch of a 1 ns case would otherwise
/// need 10,000 calls; this bounds a run's extra cost per case).
pub const MAX_REPEATS: u32 = 10_000;

/// Calls per batch for a case whose single call took `fastest_ns`: enough for the batch to
/// last [`MIN_TIMED_NS`], at most [`MAX_REPEATS`].
pub fn repeats_for(fastest_ns: u64) -> u32 {
    MIN_TIMED_NS
        .div_ceil(fastest_ns.max(1))
        .clamp(2, u64::from(MAX_REPEATS)) as u32
}

/// CPU time of the calling thread ([`Clock::ThreadCpu`]).
pub fn thread_cpu_time() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec into the struct we own; the clock id is a
    // constant every Linux and BSD has.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } == 0;
    if !ok {
        return Duration::ZERO;
    }
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

impl Executor for EngineRef {
    fn name(&self) -> &str {
        EngineRef::name(self)
    }

    fn per_case(&self) -> bool {
        true
    }

    /// Warm-up calls, timed calls (the engine call alone, or the thread's CPU time of it),
    /// then, for a call shorter than [`REPEAT_BELOW_NS`], batches of calls lasting at least
    /// [`MIN_TIMED_NS`] (`Game::time_repeated`).
    fn run_case(&self, job: &FileJob<'_>, case: usize, plan: &Plan) -> CaseRun {
        let engine = *self;
        let index = job.first + case + 1;
        let parsed = &job.cases[case];
        for _ in 0..plan.warmup {
            let _ = std::hint::black_box(judge_case(engine, index, parsed, &plan.budget));
        }
        let mut times = RunTimes::with_capacity(plan.runs() as usize);
        let mut last = None;
        for _ in 0..plan.runs() {
            let before = (plan.clock == Clock::ThreadCpu).then(thread_cpu_time);
            let result = judge_case(engine, index, parsed, &plan.budget);
            if let Ok((_, elapsed)) = &result {
                let time = match before {
                    Some(before) => thread_cpu_time().saturating_sub(before),
                    None => *elapsed,
                };
                times.push(time.as_nanos() as u64);
            }
            last = Some(result);
        }
        let answer = match last.expect("at least one run") {
            Ok((answer, _)) => answer,
            Err(e) => return CaseRun::fault(Fault::Case(e), Timing::Case),
        };
        // Too short to time alone: time batches of calls lasting at least MIN_TIMED_NS.
        let mut timing = Timing::Case;
        let mut repeats = 1;
        if plan.repeat_short
            && let Some(&fastest) = times.iter().min()
            && fastest < REPEAT_BELOW_NS
            && let Ok(case) = &parsed.case
        {
            let time_batch = |k: u32| {
                engine
                    .time_repeated(case.as_ref(), &plan.budget, k)
                    .as_nanos() as u64
            };
            repeats = repeats_for(fastest);
            // A first call is often slower than the next (cold caches): grow the batch until it
            // really lasts MIN_TIMED_NS; that batch is the first timed run.
            let mut first = time_batch(repeats);
            while first < MIN_TIMED_NS && repeats < MAX_REPEATS {
                let grown = u64::from(repeats) * MIN_TIMED_NS.div_ceil(first.max(1)).max(2);
                repeats = grown.min(u64::from(MAX_REPEATS)) as u32;
                first = time_batch(repeats);
            }
            timing = Timing::CaseRepeated;
            times = std::iter::once(first)
                .chain((1..plan.runs()).map(|_| time_batch(repeats)))
                .map(|batch| batch / u64::from(repeats))
                .collect();
        }
        CaseRun {
            result: Ok(answer),
            times,
            timing,
            repeats,
            usage: Vec::new(),
        }
    }
}

/// The timed runs of a program on one input (after the warm-up ones): their times and
/// resource usage, and the last run's output.
struct TimedRuns {
    times: Vec<u64>,
    usage: Vec<Usage>,
    stdout: Vec<u8>,
}

/// Runs `program` on `input` `plan.warmup` times untimed, then `plan.runs` (at least once)
/// timed, each killed at `limit` (wall) or the plan's other limits; the first failure ends it,
/// with what that run used.
fn timed_runs(
    program: &External,
    input: &[u8],
    limit: Duration,
    plan: &Plan,
) -> Result<TimedRuns, Fault> {
    let limits = plan.limits.run(limit);
    let fail = Fault::of_program;
    for _ in 0..plan.warmup {
        external::run(program, input, &limits).map_err(fail)?;
    }
    let mut runs = TimedRuns {
        times: Vec::new(),
        usage: Vec::new(),
        stdout: Vec::new(),
    };
    for _ in 0..plan.runs() {
        let ran = external::run(program, input, &limits).map_err(fail)?;
        runs.times.push(ran.elapsed.as_nanos() as u64);
        runs.usage.push(ran.usage);
        runs.stdout = ran.stdout;
    }
    Ok(runs)
}

impl External {
    /// The program on one whole file under `limit`: one result per case, from its output
    /// split into blocks.
    fn run_whole(&self, job: &FileJob<'_>, plan: &Plan, limit: Duration) -> Vec<CaseRun> {
        let count = job.cases.len();
        let runs = match timed_runs(self, job.bytes, limit, plan) {
            Ok(runs) => runs,
            Err(fault) => {
                return vec![CaseRun::fault(fault, Timing::File).used(); count];
            }
        };
        let text = String::from_utf8_lossy(&runs.stdout);
        let mut blocks = job.game.split_output(&text).into_iter();
        (0..count)
            .map(|case| {
                let block = blocks.next();
                if let Err(e) = &job.cases[case].case {
                    return CaseRun::fault(Fault::Case(e.clone()), Timing::Case);
                }
                CaseRun {
                    result: block.map(Answer::printed).ok_or(Fault::NoOutput),
                    times: RunTimes::from_slice(&runs.times),
                    timing: Timing::File,
                    repeats: 1,
                    usage: runs.usage.clone(),
                }
            })
            .collect()
    }

    /// The program on one case's own judge input `input`, under `limit`: its whole output is
    /// the block of case `index` (1-based in its file) once renumbered from case 1.
    fn run_input(
        &self,
        game: &dyn Game,
        input: &str,
        index: usize,
        plan: &Plan,
        limit: Duration,
    ) -> CaseRun {
        match timed_runs(self, input.as_bytes(), limit, plan) {
            Ok(runs) => CaseRun {
                result: Ok(Answer::printed(game.renumber_block(
                    &String::from_utf8_lossy(&runs.stdout),
                    1,
                    index,
                ))),
                times: RunTimes::from_vec(runs.times),
                timing: Timing::Case,
                repeats: 1,
                usage: runs.usage,
            },
            Err(fault) => CaseRun::fault(fault, Timing::Case).used(),
        }
    }
}

impl Executor for External {
    fn name(&self) -> &str {
        &self.name
    }

    /// Programs read whole judge inputs: a caller runs them once per file.
    fn per_case(&self) -> bool {
        false
    }

    /// The case alone, as a judge input of its own (`Game::case_input`), under the per-case
    /// limit (else the file's); a case the game cannot write alone is a fault of the case.
    fn run_case(&self, job: &FileJob<'_>, case: usize, plan: &Plan) -> CaseRun {
        let limits = &plan.limits;
        let limit = limits
            .case_timeout
            .map_or(limits.timeout, |c| c.min(limits.timeout));
        let parsed = &job.cases[case];
        let typed = match &parsed.case {
            Ok(typed) => typed,
            Err(e) => return CaseRun::fault(Fault::Case(e.clone()), Timing::Case),
        };
        match job.game.case_input(typed.as_ref()) {
            Some(input) => self.run_input(job.game, &input, job.first + case + 1, plan, limit),
            None => CaseRun::fault(
                Fault::Case(CaseError::new(
                    parsed.line,
                    "this game cannot write a case as an input of its own",
                )),
                Timing::Case,
            ),
        }
    }

    /// With a per-case limit: a one-case file runs under it (and the file's limit), and a file
    /// whose every case the game can write alone runs case by case; otherwise the whole file
    /// runs under [`Limits::timeout`].
    fn run_file(&self, job: &FileJob<'_>, plan: &Plan) -> Vec<CaseRun> {
        let limits = &plan.limits;
        if let Some(limit) = limits.case_timeout {
            if job.cases.len() == 1 {
                return self.run_whole(job, plan, limits.timeout.min(limit));
            }
            let inputs: Option<Vec<String>> = job
                .cases
                .iter()
                .map(|p| job.game.case_input(p.case.as_ref().ok()?.as_ref()))
                .collect();
            if let Some(inputs) = inputs {
                // As before: each case under the per-case limit alone.
                return inputs
                    .iter()
                    .enumerate()
                    .map(|(i, input)| {
                        self.run_input(job.game, input, job.first + i + 1, plan, limit)
                    })
                    .collect();
            }
        }
        self.run_whole(job, plan, limits.timeout)
    }
}
