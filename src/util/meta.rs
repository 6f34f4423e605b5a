//! What a run's exports say about how it was made, so that a JSON file read a year later
//! still says which build, machine and options produced its numbers: tool version and
//! `git describe` (recorded at build time by `build.rs`, when known), host, CPU model and
//! cores, threads, runs, warm-up, budget, start and end (UTC), wall time and the command line.
//!
//! Also the one home of the facts about the machine and the clock that other records share:
//! [`host_name`] and the UTC timestamps of [`rfc3339`] are what both the JSON export's `meta`
//! and a shard's manifest (`shard::Manifest`) write, so the two always agree.
//!
//! A leaf: this module uses nothing of the crate, so any module may take its facts from here.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;

/// The run's metadata (the `meta` object of the JSON export).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RunMeta {
    pub tool: String,
    pub version: String,
    /// `git describe --always --tags` of the build's source, with `-dirty` when it differed
    /// from HEAD, when it was a checkout.
    pub git: Option<String>,
    pub host: String,
    /// The CPU model (`/proc/cpuinfo`), when known.
    pub cpu: Option<String>,
    /// Logical CPUs of the machine, and worker threads of the run.
    pub cores: usize,
    pub threads: usize,
    pub runs: u32,
    pub warmup: u32,
    /// Per-case search budget: states, seconds, and MB of memory (`--memory`).
    pub max_states: Option<u64>,
    pub time_limit_s: Option<f64>,
    pub memory_mb: Option<u64>,
    /// Threads one search may use (`--threads`).
    pub search_threads: u64,
    pub check: bool,
    pub baseline: String,
    /// UTC, RFC 3339.
    pub start: String,
    pub end: String,
    /// The run's wall time, and the (case, engine) results it produced per second of it.
    pub wall_ns: u64,
    pub results: usize,
    pub results_per_s: f64,
    /// Distinct cases (file, case) of the run.
    pub cases: usize,
    /// External programs: the time of an empty run of the same shape (`sh -c ''`, or `true`
    /// without a shell), which each file's time includes.
    pub external_startup_ns: Option<u64>,
    /// Each program's start-up, calibrated after the run and taken out of the summary's times
    /// and speed (not of the CSV's): what a report of the run's CSV takes out in turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub startup: Vec<StartupTaken>,
    /// External programs ran each on a core of its own (`--pin`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pinned: bool,
    /// More external programs could run at once than there are cores (`-j` above the cores):
    /// their times are inflated.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub oversubscribed: bool,
    pub command_line: Vec<String>,
}

/// A program's start-up as the summary took it out of its times.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct StartupTaken {
    pub game: String,
    pub engine: String,
    /// The start-up of one run of the program (wall time), ns.
    pub startup_ns: u64,
    /// Each case ran alone (`--case-timeout`), so each lost the whole start-up; else the
    /// program ran once per file and each of its cases lost its share.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub per_case: bool,
}

/// The tool's name and version, and `git describe` when the build recorded it.
pub fn build_info() -> (String, String, Option<String>) {
    (
        env!("CARGO_PKG_NAME").to_string(),
        env!("CARGO_PKG_VERSION").to_string(),
        option_env!("GAMEBENCH_GIT_DESCRIBE").map(str::to_string),
    )
}

/// The CPU model from `/proc/cpuinfo` (`model name`, or on some ARM machines `Hardware` /
/// `Model`).
pub fn cpu_model() -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    cpu_model_of(&text)
}

fn cpu_model_of(cpuinfo: &str) -> Option<String> {
    ["model name", "Hardware", "Model"].iter().find_map(|key| {
        cpuinfo.lines().find_map(|line| {
            let (k, v) = line.split_once(':')?;
            (k.trim() == *key && !v.trim().is_empty()).then(|| v.trim().to_string())
        })
    })
}

/// Logical CPUs available to this process.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Room for a host name (POSIX allows 255 bytes, and the terminating zero).
const HOST_NAME_BYTES: usize = 256;

/// This machine's name, the one reader of it (manifests, run metadata, temporary files): the
/// kernel's (`gethostname`), else `$HOSTNAME`, else `unknown`.
pub fn host_name() -> String {
    let mut buf = [0u8; HOST_NAME_BYTES];
    // SAFETY: the buffer is writable for its whole length, which is what the call is given.
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    let kernel = ok.then(|| {
        let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
        String::from_utf8_lossy(&buf[..end]).trim().to_string()
    });
    kernel
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok().filter(|s| !s.is_empty()))
        .unwrap_or_else(|| "unknown".to_string())
}

const SECONDS_PER_DAY: u64 = 86_400;

/// `time` as RFC 3339 UTC with seconds, e.g. `2026-11-22T04:24:20Z`.
pub fn rfc3339(time: SystemTime) -> String {
    let secs = time
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rest) = (secs / SECONDS_PER_DAY, secs % SECONDS_PER_DAY);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// Proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_model_is_read_from_cpuinfo() {
        let text = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\n";
        assert_eq!(cpu_model_of(text).as_deref(), Some("AMD EPYC 7B13"));
        assert_eq!(cpu_model_of("processor : 0\n"), None);
        let (tool, version, _) = build_info();
        assert_eq!((tool.as_str(), version.is_empty()), ("gamebench", false));
    }

    #[test]
    fn dates() {
        // 0 = 1970-01-01; 951_782_400 = 2000-02-29 (a leap day, checked with `date -u -d @951782400`);
        // 1_795_321_460 = 2026-11-22T04:24:20Z.
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let at = |s| UNIX_EPOCH + std::time::Duration::from_secs(s);
        assert_eq!(rfc3339(at(951_782_400)), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(at(1_795_321_460)), "2026-11-22T04:24:20Z");
    }
}
