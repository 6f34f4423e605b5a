//! Judging a package that states no time limit under the limit its multipliers give, as
//! problemtools' `verifyproblem` does: the accepted submissions run first (each counted for
//! the limit: tagged accepted or main, `use_for_time_limit` not false), the slowest CPU time of
//! one that is accepted on every test times `ac_to_time_limit`, rounded up to
//! `time_resolution`, is the limit, and the whole table is then judged under it as a CPU limit
//! (its wall-time backstop as `--cpu-limit` sets it).
//!
//! Invariants: a package that states a limit, or a command line that sets `--cpu-limit`, is
//! never inferred for; without an accepted submission accepted on every test there is no
//! limit and the table is judged as before (under `--timeout`), which the summary says.

use std::time::Duration;

use super::advice::{Role, role_of};
use super::{Package, inferred_limit};
use crate::corpus::CaseFile;
use crate::engines::Limits;
use crate::invoke::{CellVerdict, Config, Invocation, InvokeError, Solution, TimeClock};

/// The wall-time limit of a run judged under an inferred CPU limit, as `--cpu-limit` derives
/// it: this many times the CPU limit, plus [`WALL_SLACK`].
const WALL_PER_CPU: f64 = 3.0;
const WALL_SLACK: Duration = Duration::from_secs(1);
const NS_PER_S: f64 = 1e9;

/// The limit inferred, and the run it comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct Inferred {
    /// The limit, seconds: `None` when no accepted submission was accepted on every test.
    pub limit: Option<f64>,
    /// The slowest accepted run: its submission, test and CPU time (ns).
    pub slowest: Option<(String, String, u64)>,
    /// The multiplier applied.
    pub ac_to_time_limit: f64,
}

impl Inferred {
    /// The limits the table is judged under: `limits` with the inferred limit as the CPU limit
    /// and, unless the command line gave `--timeout`, the wall-time backstop `--cpu-limit`
    /// would set.
    pub fn limits(&self, limits: &Limits, timeout_given: bool) -> Limits {
        let mut limits = limits.clone();
        if let Some(limit) = self.limit {
            let cpu = Duration::from_secs_f64(limit);
            limits.cpu = Some(cpu);
            if !timeout_given {
                limits.timeout = cpu.mul_f64(WALL_PER_CPU) + WALL_SLACK;
            }
        }
        limits
    }

    /// The summary's line.
    pub fn line(&self) -> String {
        match (self.limit, &self.slowest) {
            (Some(limit), Some((solution, test, time))) => format!(
                "time limit: none stated, judged at {} from the multipliers, as verifyproblem \
                 does (slowest accepted run {} by {solution} on {test}, CPU time, a first run \
                 of the accepted submissions, x ac_to_time_limit {}); --time-limit-advice \
                 measures its noise",
                super::advice::seconds(limit * NS_PER_S),
                super::advice::seconds(*time as f64),
                self.ac_to_time_limit
            ),
            _ => "time limit: none stated, and no accepted submission accepted on every test \
                  to infer it from: judged under --timeout"
                .to_string(),
        }
    }
}

/// For a package that states no time limit (and no `--cpu-limit`): runs the submissions counted
/// for the limit on every test (CPU time, under `config`'s wall limit) and infers the limit
/// from the slowest run of those accepted on every test. `None` when there is nothing to infer
/// (a limit is stated or given).
pub fn infer(
    package: &Package,
    files: &[CaseFile],
    solutions: &[Solution],
    config: &Config,
) -> Result<Option<Inferred>, InvokeError> {
    if package.time.time_limit.is_some() || config.limits.cpu.is_some() {
        return Ok(None);
    }
    let accepted: Vec<Solution> = solutions
        .iter()
        .filter(|s| role_of(s, Some(package)) == Role::Accepted)
        .cloned()
        .collect();
    let mut inferred = Inferred {
        limit: None,
        slowest: None,
        ac_to_time_limit: package.time.ac_to_time_limit,
    };
    if accepted.is_empty() {
        return Ok(Some(inferred));
    }
    // Times on the CPU clock (the judges'), with no CPU limit below the wall limit.
    let mut first = config.clone();
    first.limits.cpu = Some(config.limits.timeout);
    let inv = crate::invoke::invoke(files.to_vec(), accepted, &first)?;
    inferred.slowest = slowest_accepted(&inv);
    inferred.limit = inferred
        .slowest
        .as_ref()
        .map(|(_, _, time)| inferred_limit(&package.time, *time as f64 / NS_PER_S));
    Ok(Some(inferred))
}

/// The slowest run of a solution of `inv` accepted on every test: its name, test and time.
fn slowest_accepted(inv: &Invocation) -> Option<(String, String, u64)> {
    debug_assert_eq!(inv.clock, TimeClock::Cpu);
    (0..inv.solutions.len())
        .filter(|&s| inv.column(s).all(|c| c.verdict == CellVerdict::Ok))
        .filter_map(|s| inv.slowest(s).map(|(t, time)| (s, t, time)))
        .max_by_key(|(_, _, time)| *time)
        .map(|(s, t, time)| {
            (
                inv.solutions[s].name.clone(),
                inv.tests[t].name.clone(),
                time,
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_judged_limits_follow_the_inferred_one() {
        let limits = Limits {
            timeout: Duration::from_secs(60),
            case_timeout: None,
            cpu: None,
            memory_kb: None,
            output_bytes: None,
            pin: false,
        };
        let inferred = Inferred {
            limit: Some(2.0),
            slowest: Some(("accepted/a.c".into(), "secret/1.in".into(), 810_000_000)),
            ac_to_time_limit: 2.0,
        };
        let judged = inferred.limits(&limits, false);
        assert_eq!(judged.cpu, Some(Duration::from_secs(2)));
        assert_eq!(judged.timeout, Duration::from_secs(7));
        // A --timeout given stays.
        assert_eq!(inferred.limits(&limits, true).timeout, limits.timeout);
        let line = inferred.line();
        assert!(line.contains("judged at 2 s"), "{line}");
        assert!(
            line.contains("0.81 s by accepted/a.c on secret/1.in"),
            "{line}"
        );
        // Nothing inferred: the limits are as they were.
        let none = Inferred {
            limit: None,
            slowest: None,
            ac_to_time_limit: 2.0,
        };
        assert_eq!(none.limits(&limits, false).cpu, None);
        assert!(none.line().contains("judged under --timeout"));
    }
}
