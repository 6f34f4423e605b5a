//! Time-limit advice with its noise: the limit a package's multipliers give, from each accepted
//! submission's slowest tests run again and again rather than from one run, with the spread of
//! the slowest accepted time, the distance to the fastest time-limit-exceeded submission in
//! units of that noise, and every submission whose verdict would change between the limit and
//! the safety margin, named.
//!
//! Judges (problemtools' `verifyproblem`, DOMjudge's rule of thumb) take one run of the slowest
//! accepted submission times a multiplier: a limit that passes locally may fail on the judge
//! when the margin is a few standard deviations of run-to-run noise. Here each accepted
//! submission runs `runs` times on its [`AC_TESTS`] slowest tests of the invocation, each
//! time-limit-exceeded one on its slowest test, one run at a time (no two measured runs share
//! the machine's cores), timed by CPU time (user + system), which is what the judges limit.
//!
//! Invariants: the advice never changes a verdict of the invocation or its exit code; a
//! submission's measured runs are all of one (submission, test); a run stopped at the cap is
//! counted as censored (its time only known to be above the cap), never as a time.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::{Package, TimeRules, inferred_limit};
use crate::engines::{CaseRun, Fault, FileJob, Limits, Plan};
use crate::invoke::{CellVerdict, Config, Invocation, Solution, Tag};
use crate::util::stats;

mod text;

pub(super) use text::seconds;
use text::spread;

/// How many of an accepted submission's slowest tests are measured again (near ties in the one
/// run of the invocation may hide the really slowest).
pub const AC_TESTS: usize = 3;
/// How many of a time-limit-exceeded submission's slowest tests are measured: one suffices,
/// since the slowest decides its verdict.
pub const TLE_TESTS: usize = 1;
/// Default number of runs of each measured (submission, test).
pub const DEFAULT_RUNS: u32 = 10;
/// A time-limit-exceeded submission runs under this many times the safety margin: enough to
/// measure its time when it is near the margin, bounded when it never ends.
pub const CAP_OVER_MARGIN: f64 = 2.0;
/// The wall-time limit of a measured run, as invoke derives it from a CPU limit: this many
/// times the CPU limit, plus [`WALL_SLACK`] (a program waiting for a core is not slow).
const WALL_PER_CPU: f64 = 3.0;
const WALL_SLACK: Duration = Duration::from_secs(1);
const NS_PER_S: f64 = 1e9;

/// What a solution's time says about the limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Accepted, and counted for the limit: the limit must be at least its time x
    /// `ac_to_time_limit`.
    Accepted,
    /// Expected to exceed the limit, and counted for it: the limit x `time_limit_to_tle` should
    /// be at most its time.
    TimeLimit,
    /// Neither: only flagged when its one run falls between the limit and the safety margin.
    Other,
}

/// The role of each of the invocation's solutions: from its tag, and, in a package, from
/// `use_for_time_limit`.
pub fn roles(inv: &Invocation, package: Option<&Package>) -> Vec<Role> {
    inv.solutions
        .iter()
        .map(|solution| role_of(solution, package))
        .collect()
}

/// The role of one solution (see [`roles`]).
pub fn role_of(solution: &Solution, package: Option<&Package>) -> Role {
    let counted = package
        .and_then(|p| p.submissions.iter().find(|s| s.name == solution.name))
        .is_none_or(|s| s.for_time_limit);
    match solution.tag {
        Some(Tag::Main | Tag::Accepted) if counted => Role::Accepted,
        Some(Tag::TimeLimit) if counted => Role::TimeLimit,
        _ => Role::Other,
    }
}

/// The measured runs of one solution on one file.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub solution: String,
    pub test: String,
    /// CPU time of each run that ended, ns.
    pub times_ns: Vec<u64>,
    /// Runs stopped at the cap (their time is above it).
    pub censored: usize,
    /// The cap those runs were stopped at, ns.
    pub cap_ns: u64,
    /// Runs that failed otherwise (a crash): their message.
    pub failures: Vec<String>,
}

impl Sample {
    /// The slowest run: censored runs count as the cap.
    fn max_ns(&self) -> Option<u64> {
        let ended = self.times_ns.iter().copied().max();
        if self.censored > 0 {
            Some(self.cap_ns.max(ended.unwrap_or(0)))
        } else {
            ended
        }
    }

    fn mean_sd(&self) -> Option<(f64, f64)> {
        stats::mean_stddev_u64(&self.times_ns)
    }

    /// `0.81 s ± 0.03 s, n = 10`, or the censoring.
    fn describe(&self) -> String {
        let n = self.times_ns.len() + self.censored;
        match (self.censored, self.mean_sd()) {
            (0, Some((mean, sd))) => spread(mean, sd, n),
            (c, _) => format!(
                "> {} (stopped at that cap in {c} of {n} runs)",
                seconds(self.cap_ns as f64)
            ),
        }
    }
}

/// The advice.
#[derive(Debug, Clone, PartialEq)]
pub struct Advice {
    pub rules: TimeRules,
    pub runs: u32,
    /// Every measured (solution, test).
    pub samples: Vec<Sample>,
    /// The slowest accepted sample (by its slowest run).
    pub slowest_ac: Option<usize>,
    /// The limit the multipliers give, ns.
    pub suggested_ns: Option<u64>,
    /// The limit the flags are judged at: the package's, else the suggested one, ns.
    pub limit_ns: Option<u64>,
    /// The fastest time-limit-exceeded sample (by its slowest run).
    pub fastest_tle: Option<usize>,
    /// Lines naming each submission whose verdict would change between the limit and the
    /// safety margin (or depends on the run).
    pub flags: Vec<String>,
    /// Solutions skipped and why; an interruption.
    pub notes: Vec<String>,
}

/// The CPU time of a run of a file, ns (the slowest of its cases' runs when it ran case by
/// case; internal engines: their own time), or why there is none.
fn run_time(runs: &[CaseRun]) -> Result<u64, Option<String>> {
    let mut slowest: Option<u64> = None;
    for run in runs {
        match &run.result {
            Err(Fault::Timeout(_)) => return Err(None),
            Err(Fault::NoOutput) | Ok(_) => {}
            Err(fault) => return Err(Some(fault.to_string())),
        }
        let time = match run.usage.last() {
            Some(usage) => u64::try_from(usage.cpu().as_nanos()).unwrap_or(u64::MAX),
            None => match run.times.first() {
                Some(&t) => t,
                None => continue,
            },
        };
        slowest = Some(slowest.map_or(time, |s| s.max(time)));
    }
    slowest.ok_or_else(|| Some("no time measured".to_string()))
}

/// Solution `s`'s `count` slowest files of the invocation (a timed-out test first), each with
/// the name of its slowest test.
fn slowest_files(inv: &Invocation, s: usize, count: usize) -> Vec<(usize, String)> {
    let mut per_file: Vec<(usize, u64, String)> = Vec::new();
    for (t, cell) in inv.column(s).enumerate() {
        let test = &inv.tests[t];
        let time = if cell.verdict == CellVerdict::Timeout {
            u64::MAX
        } else {
            cell.time_ns.unwrap_or(0)
        };
        match per_file.iter_mut().find(|(f, _, _)| *f == test.file) {
            Some(entry) if entry.1 < time => {
                entry.1 = time;
                entry.2 = test.name.clone();
            }
            Some(_) => {}
            None => per_file.push((test.file, time, test.name.clone())),
        }
    }
    // Stable: on a tie the earlier file first.
    per_file.sort_by_key(|entry| std::cmp::Reverse(entry.1));
    per_file
        .into_iter()
        .take(count)
        .map(|(f, _, name)| (f, name))
        .collect()
}

/// Runs solution `s` on file `f` `runs` times under `limits`, one at a time; stops repeating
/// once a run is stopped at the cap (the next would be too) or the user interrupts.
fn measure(
    inv: &Invocation,
    s: usize,
    (f, test): (usize, String),
    runs: u32,
    limits: &Limits,
    config: &Config,
) -> Sample {
    let cap = limits.cpu.unwrap_or(limits.timeout);
    let mut sample = Sample {
        solution: inv.solutions[s].name.clone(),
        test,
        times_ns: Vec::new(),
        censored: 0,
        cap_ns: u64::try_from(cap.as_nanos()).unwrap_or(u64::MAX),
        failures: Vec::new(),
    };
    let plan = Plan::once(config.budget.clone(), limits.clone());
    let job = FileJob {
        game: inv.game,
        bytes: &inv.inputs[f],
        cases: &inv.parsed[f],
        first: 0,
    };
    let stop = crate::external::stop_flag();
    for _ in 0..runs {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        match run_time(&inv.solutions[s].spec.executor().run_file(&job, &plan)) {
            Ok(time) => sample.times_ns.push(time),
            Err(None) => {
                sample.censored += 1;
                break;
            }
            Err(Some(message)) => sample.failures.push(message),
        }
    }
    sample
}

/// The limits of a measured run capped at `cpu` of CPU time (the invocation's memory and
/// output limits kept; whole files, as a judge runs a test).
fn capped(limits: &Limits, cpu: Duration) -> Limits {
    Limits {
        timeout: cpu.mul_f64(WALL_PER_CPU) + WALL_SLACK,
        case_timeout: None,
        cpu: Some(cpu),
        ..limits.clone()
    }
}

/// Measures and advises: each accepted solution (all `ok` in the table) `runs` times on its
/// [`AC_TESTS`] slowest files, then each time-limit-exceeded one on its slowest under
/// [`CAP_OVER_MARGIN`] x the safety margin; solutions of no role are judged from the table.
pub fn advise(
    inv: &Invocation,
    roles: &[Role],
    rules: &TimeRules,
    config: &Config,
    runs: u32,
) -> Advice {
    let runs = runs.max(1);
    let mut advice = Advice {
        rules: *rules,
        runs,
        samples: Vec::new(),
        slowest_ac: None,
        suggested_ns: None,
        limit_ns: rules.time_limit.map(|s| (s * NS_PER_S) as u64),
        fastest_tle: None,
        flags: Vec::new(),
        notes: Vec::new(),
    };
    let stop = crate::external::stop_flag();
    let ac_limits = Limits {
        case_timeout: None,
        ..config.limits.clone()
    };
    for (s, role) in roles.iter().enumerate() {
        if *role != Role::Accepted {
            continue;
        }
        let name = &inv.solutions[s].name;
        if inv.column(s).any(|c| c.verdict != CellVerdict::Ok) {
            advice.notes.push(format!(
                "{name}: not measured: not accepted on every test of the table"
            ));
            continue;
        }
        for file in slowest_files(inv, s, AC_TESTS) {
            advice
                .samples
                .push(measure(inv, s, file, runs, &ac_limits, config));
        }
    }
    advice.slowest_ac = (0..advice.samples.len())
        .filter(|&i| advice.samples[i].max_ns().is_some())
        .max_by_key(|&i| advice.samples[i].max_ns());
    if let Some(i) = advice.slowest_ac {
        let slowest = advice.samples[i].max_ns().unwrap_or(0) as f64 / NS_PER_S;
        let suggested = (inferred_limit(rules, slowest) * NS_PER_S) as u64;
        advice.suggested_ns = Some(suggested);
        advice.limit_ns = advice.limit_ns.or(Some(suggested));
    }
    let first_tle = advice.samples.len();
    match advice.limit_ns {
        Some(limit) => {
            let cap =
                Duration::from_nanos(limit).mul_f64(rules.time_limit_to_tle * CAP_OVER_MARGIN);
            let tle_limits = capped(&config.limits, cap);
            for (s, role) in roles.iter().enumerate() {
                if *role == Role::TimeLimit {
                    for file in slowest_files(inv, s, TLE_TESTS) {
                        advice
                            .samples
                            .push(measure(inv, s, file, runs, &tle_limits, config));
                    }
                }
            }
        }
        None => advice.notes.push(
            "no limit to judge the time-limit-exceeded submissions at: no accepted submission \
             was measured and the package states none"
                .to_string(),
        ),
    }
    advice.fastest_tle = (first_tle..advice.samples.len())
        .filter(|&i| advice.samples[i].max_ns().is_some())
        .min_by_key(|&i| advice.samples[i].max_ns());
    if stop.load(Ordering::Relaxed) {
        advice
            .notes
            .push("interrupted: the advice is from the runs made before".to_string());
    }
    if let Some(limit) = advice.limit_ns {
        advice.flags = sample_flags(&advice.samples, limit, rules);
        advice.flags.extend(table_flags(inv, roles, limit, rules));
    }
    advice
}

/// The safety margin of `limit`, ns, and the words for the window between them.
fn window(limit: u64, rules: &TimeRules) -> (u64, String) {
    let margin = (limit as f64 * rules.time_limit_to_tle) as u64;
    let words = format!(
        "between the limit {} and the safety margin {}",
        seconds(limit as f64),
        seconds(margin as f64)
    );
    (margin, words)
}

/// The measured submissions whose verdict changes between the limit and the safety margin: a
/// run that ends above `limit` and at most the margin; and runs on both sides of the limit.
fn sample_flags(samples: &[Sample], limit: u64, rules: &TimeRules) -> Vec<String> {
    let (margin, window) = window(limit, rules);
    let between = |t: u64| t > limit && t <= margin;
    let mut flags = Vec::new();
    for sample in samples {
        let inside: Vec<u64> = sample
            .times_ns
            .iter()
            .copied()
            .filter(|&t| between(t))
            .collect();
        let n = sample.times_ns.len() + sample.censored;
        if let (Some(lo), Some(hi)) = (inside.iter().min(), inside.iter().max()) {
            flags.push(format!(
                "{} on {}: {} of {n} runs {window} ({} to {})",
                sample.solution,
                sample.test,
                inside.len(),
                seconds(*lo as f64),
                seconds(*hi as f64)
            ));
        } else {
            let over = sample.times_ns.iter().filter(|&&t| t > limit).count() + sample.censored;
            if over > 0 && over < n {
                flags.push(format!(
                    "{} on {}: {over} of {n} runs above the limit {}, the others under it",
                    sample.solution,
                    sample.test,
                    seconds(limit as f64)
                ));
            }
        }
    }
    flags
}

/// The solutions not measured whose one run in the table ended between the limit and the
/// safety margin.
fn table_flags(inv: &Invocation, roles: &[Role], limit: u64, rules: &TimeRules) -> Vec<String> {
    let (margin, window) = window(limit, rules);
    let between = |t: u64| t > limit && t <= margin;
    let mut flags = Vec::new();
    for (s, role) in roles.iter().enumerate() {
        if *role != Role::Other {
            continue;
        }
        for (t, cell) in inv.column(s).enumerate() {
            if let Some(time) = cell.run_ns.filter(|&t| between(t)) {
                flags.push(format!(
                    "{} on {}: its one run ({}, in the table) took {}, {window}",
                    inv.solutions[s].name,
                    inv.tests[t].name,
                    inv.clock.words(),
                    seconds(time as f64)
                ));
            }
        }
    }
    flags
}

/// What `invoke` adds to its summary: with a package that states no time limit, the line of
/// the limit it was judged under (`inferred`, `inferred::Inferred::line`), else of [`summary_line`]; with `runs`
/// (`--time-limit-advice`), the measured advice. The rules are the package's, else the
/// 2025-09 defaults; the roles come from the tags.
pub fn report(
    inv: &Invocation,
    package: Option<&Package>,
    config: &Config,
    runs: Option<u32>,
    inferred: Option<String>,
) -> String {
    let rules = package.map_or_else(TimeRules::default, |p| p.time);
    let roles = roles(inv, package);
    let mut text = String::new();
    if let Some(line) = inferred {
        text.push_str(&line);
        text.push('\n');
    } else if package.is_some()
        && let Some(line) = summary_line(inv, &roles, &rules)
    {
        text.push_str(&line);
        text.push('\n');
    }
    if let Some(runs) = runs {
        text.push_str(&advise(inv, &roles, &rules, config, runs).text());
    }
    text
}

/// The summary's line when the package states no time limit, so it comes from the multipliers:
/// the limit the table's one run of each accepted submission gives (on the table's clock), and a pointer
/// to the measured advice.
pub fn summary_line(inv: &Invocation, roles: &[Role], rules: &TimeRules) -> Option<String> {
    if rules.time_limit.is_some() {
        return None;
    }
    let slowest = roles
        .iter()
        .enumerate()
        .filter(|(s, role)| {
            **role == Role::Accepted && inv.column(*s).all(|c| c.verdict == CellVerdict::Ok)
        })
        .filter_map(|(s, _)| inv.slowest(s).map(|(t, time)| (s, t, time)))
        .max_by_key(|(_, _, time)| *time);
    Some(match slowest {
        Some((s, t, time)) => format!(
            "time limit: none stated, from the multipliers: {} (slowest accepted run {} by {} on {}, {}, one run, x ac_to_time_limit {}); --time-limit-advice measures its noise",
            seconds(inferred_limit(rules, time as f64 / NS_PER_S) * NS_PER_S),
            seconds(time as f64),
            inv.solutions[s].name,
            inv.tests[t].name,
            inv.clock.words(),
            rules.ac_to_time_limit
        ),
        None => "time limit: none stated, and no accepted submission to infer it from".to_string(),
    })
}

#[cfg(test)]
mod tests;
