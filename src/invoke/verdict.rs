//! The verdict of one solution on one test, as a judge says it, and the one mapping from what
//! the executor returned (an answer checked against the expected block, or a fault) to it.
//!
//! Invariant: `error` is never the solution's fault alone: the case could not be read, the
//! expected output was missing or malformed, or the program could not be started; it makes
//! the whole invocation exit 2.

use serde::Serialize;

use crate::engines::{CaseRun, Fault, Timing, judge_block};
use crate::game::{Game, ParsedCase, Verdict as EngineVerdict};
use crate::status::{CheckVerdict, Presentation};

/// How an output is compared with the expected one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Checker {
    /// The game's own checker (`Game::judge_output`): accepted answers, presentation errors.
    #[default]
    Game,
    /// Byte for byte: any difference is a wrong answer.
    Exact,
}

impl std::str::FromStr for Checker {
    type Err = String;

    fn from_str(s: &str) -> Result<Checker, String> {
        match s {
            "game" => Ok(Checker::Game),
            "exact" => Ok(Checker::Exact),
            _ => Err(format!("unknown checker {s:?} (checkers: game, exact)")),
        }
    }
}

/// A solution's verdict on one test, from the best to the worst.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CellVerdict {
    Ok,
    WrongAnswer,
    PresentationError,
    Timeout,
    MemoryLimit,
    OutputLimit,
    RuntimeError,
    /// The test could not be judged (see the module's invariant).
    Error,
}

impl CellVerdict {
    /// Every verdict, in order.
    pub const ALL: [CellVerdict; 8] = [
        CellVerdict::Ok,
        CellVerdict::WrongAnswer,
        CellVerdict::PresentationError,
        CellVerdict::Timeout,
        CellVerdict::MemoryLimit,
        CellVerdict::OutputLimit,
        CellVerdict::RuntimeError,
        CellVerdict::Error,
    ];

    /// The name in the CSV, JSON and messages (the names of `run`'s statuses and verdicts).
    pub fn as_str(self) -> &'static str {
        match self {
            CellVerdict::Ok => "ok",
            CellVerdict::WrongAnswer => "wrong-answer",
            CellVerdict::PresentationError => "presentation-error",
            CellVerdict::Timeout => "timeout",
            CellVerdict::MemoryLimit => "memory-limit",
            CellVerdict::OutputLimit => "output-limit",
            CellVerdict::RuntimeError => "runtime-error",
            CellVerdict::Error => "error",
        }
    }

    /// The judges' abbreviation, for the terminal and Markdown tables.
    pub fn short(self) -> &'static str {
        match self {
            CellVerdict::Ok => "OK",
            CellVerdict::WrongAnswer => "WA",
            CellVerdict::PresentationError => "PE",
            CellVerdict::Timeout => "TL",
            CellVerdict::MemoryLimit => "ML",
            CellVerdict::OutputLimit => "OL",
            CellVerdict::RuntimeError => "RE",
            CellVerdict::Error => "FAIL",
        }
    }
}

impl std::fmt::Display for CellVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The clock a cell's times are read on: the clock of the limit they are a share of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TimeClock {
    /// CPU time (user + system) of a program's processes, as a CPU limit counts it (internal
    /// engines, which have no processes of their own: their wall time).
    Cpu,
    /// Wall time, as the wall-time limit counts it.
    Wall,
}

impl TimeClock {
    /// The name in the CSV (`cpu`, `wall`).
    pub fn as_str(self) -> &'static str {
        match self {
            TimeClock::Cpu => "cpu",
            TimeClock::Wall => "wall",
        }
    }

    /// In words, for summaries: `CPU time`, `wall time`.
    pub fn words(self) -> &'static str {
        match self {
            TimeClock::Cpu => "CPU time",
            TimeClock::Wall => "wall time",
        }
    }
}

/// How a run's times are read into a cell: the clock, and the cases of the file (a program
/// run once on a whole file shares its time among them).
#[derive(Debug, Clone, Copy)]
pub struct TimeRead {
    pub clock: TimeClock,
    pub file_cases: usize,
}

/// One cell of the table: a solution on a test.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    pub verdict: CellVerdict,
    /// The test's time, ns, on the invocation's clock: the run's time, or, for a program run
    /// once on a whole file of several cases, the run's time split evenly over them
    /// ([`Cell::run_cases`]); none when the run was killed at a time limit, or failed with no
    /// time on that clock.
    pub time_ns: Option<u64>,
    /// The time of the run the limits applied to (the whole file's when it was shared), ns:
    /// what the worst time, the share of the limit and the half-limit warning read.
    pub run_ns: Option<u64>,
    /// How many cases shared that run (1: the case ran alone, or is an engine's own call).
    pub run_cases: usize,
    /// Programs: peak resident memory of the run, KiB.
    pub memory_kb: Option<u64>,
    /// Why it is not `ok` (empty when it is).
    pub message: String,
    /// A runtime error's cause in a word or two: the signal (`SIGSEGV`) or the exit code
    /// (`exit 3`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Why a case's expected block is missing: the block's absence from `X.out`, or the main
/// solution's failure on it.
pub type Expected<'a> = Result<&'a str, String>;

/// The time of `run` on `clock` (a program's CPU time from its usage, else the timed run's),
/// and how many cases shared it: a program's run on a whole file of `file_cases` cases.
/// A run killed at a time limit has none: it is at least the limit.
fn run_time(run: &CaseRun, read: TimeRead) -> (Option<u64>, usize) {
    let killed = matches!(run.result, Err(Fault::Timeout(_)));
    let time = match read.clock {
        TimeClock::Cpu => run
            .usage
            .last()
            .map(|u| u.cpu().as_nanos() as u64)
            .or_else(|| run.times.first().copied()),
        TimeClock::Wall => run.times.first().copied(),
    }
    .filter(|_| !killed);
    let cases = if run.timing == Timing::File {
        read.file_cases.max(1)
    } else {
        1
    };
    (time, cases)
}

/// The verdict of `run` (a solution's run on `parsed`) against `expected`, judged by `checker`,
/// its times read as `read` says.
pub fn judge(
    game: &dyn Game,
    parsed: &ParsedCase,
    expected: Expected<'_>,
    run: &CaseRun,
    checker: Checker,
    presentation: Presentation,
    read: TimeRead,
) -> Cell {
    let (run_ns, run_cases) = run_time(run, read);
    let time_ns = run_ns.map(|t| t / run_cases as u64);
    let memory_kb = run.usage.last().and_then(|u| u.memory_kb);
    let cell = |verdict, message: String| Cell {
        verdict,
        time_ns,
        run_ns,
        run_cases,
        memory_kb,
        message,
        reason: None,
    };
    let answer = match &run.result {
        Ok(answer) => answer,
        Err(fault) => {
            let verdict = match fault {
                Fault::Timeout(_) => CellVerdict::Timeout,
                Fault::MemoryLimit(_) => CellVerdict::MemoryLimit,
                Fault::OutputLimit(_) => CellVerdict::OutputLimit,
                Fault::Failed(_) => CellVerdict::RuntimeError,
                Fault::NoOutput => CellVerdict::WrongAnswer,
                Fault::Case(_) | Fault::Stopped(_) | Fault::CannotStart(_) => CellVerdict::Error,
            };
            return Cell {
                reason: fault.exit_reason(),
                ..cell(verdict, fault.to_string())
            };
        }
    };
    if answer.verdict == EngineVerdict::Budget {
        // An internal engine stopped by its budget: the budget is its time limit.
        return cell(
            CellVerdict::Timeout,
            "the engine's budget ran out".to_string(),
        );
    }
    let case = match &parsed.case {
        Ok(case) => case,
        Err(e) => return cell(CellVerdict::Error, e.to_string()),
    };
    let judged = match checker {
        Checker::Game => judge_block(
            game,
            case.as_ref(),
            expected,
            Some(&answer.output),
            presentation,
        ),
        Checker::Exact => match expected {
            Err(why) => Err(crate::status::Rejected::new(
                CheckVerdict::CheckerFailure,
                why,
            )),
            Ok(e) if e == answer.output => Ok(()),
            Ok(_) => Err(crate::status::Rejected::new(
                CheckVerdict::WrongAnswer,
                "the output differs from the expected one (exact checker)",
            )),
        },
    };
    match judged {
        Ok(()) => cell(CellVerdict::Ok, String::new()),
        Err(rejected) => {
            let verdict = match rejected.verdict {
                CheckVerdict::WrongAnswer => CellVerdict::WrongAnswer,
                CheckVerdict::PresentationError => CellVerdict::PresentationError,
                CheckVerdict::CheckerFailure => CellVerdict::Error,
            };
            cell(verdict, rejected.to_string())
        }
    }
}
