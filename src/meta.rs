//! What a run's exports say about how it was made, so that a JSON file read a year later
//! still says which build, machine and options produced its numbers: tool version and
//! `git describe` (recorded at build time by `build.rs`, when known), host, CPU model and
//! cores, threads, runs, warm-up, budget, start and end (UTC), wall time and the command line.

use serde::Serialize;

/// The run's metadata (the `meta` object of the JSON export).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RunMeta {
    pub tool: String,
    pub version: String,
    /// `git describe --always --dirty --tags` of the build's source, when it was a checkout.
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
    pub command_line: Vec<String>,
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
}
