//! The advice as text: the terminal's lines, times with their spread, distances in units of
//! the noise.

use std::fmt::Write as _;

use super::{AC_TESTS, Advice, NS_PER_S};

impl Advice {
    /// The advice as lines for the terminal.
    pub fn text(&self) -> String {
        let rules = &self.rules;
        let mut out = format!(
            "time-limit advice ({} of each accepted submission on its {AC_TESTS} slowest tests and \
             of each time-limit-exceeded one on its slowest, one at a time, CPU time):\n",
            crate::util::units::counted(u64::from(self.runs), "run", "runs"),
        );
        let line = |out: &mut String, text: String| {
            let _ = writeln!(out, "  {text}");
        };
        match self.slowest_ac.map(|i| &self.samples[i]) {
            Some(ac) => {
                line(
                    &mut out,
                    format!(
                        "slowest AC {} ({} on {}; slowest run {})",
                        ac.describe(),
                        ac.solution,
                        ac.test,
                        seconds(ac.max_ns().unwrap_or(0) as f64)
                    ),
                );
                if let Some(suggested) = self.suggested_ns {
                    let stated = match rules.time_limit {
                        Some(s) => format!("; the package states {}", seconds(s * NS_PER_S)),
                        None => String::new(),
                    };
                    line(
                        &mut out,
                        format!(
                            "suggested time limit {} (slowest run x ac_to_time_limit {}, rounded up to a multiple of {}){stated}",
                            seconds(suggested as f64),
                            rules.ac_to_time_limit,
                            seconds(rules.resolution * NS_PER_S)
                        ),
                    );
                }
            }
            None => line(
                &mut out,
                "no accepted submission measured: no limit to suggest".to_string(),
            ),
        }
        if let Some(limit) = self.limit_ns {
            let margin = limit as f64 * rules.time_limit_to_tle;
            line(
                &mut out,
                format!(
                    "safety margin {} (the limit {} x time_limit_to_tle {})",
                    seconds(margin),
                    seconds(limit as f64),
                    rules.time_limit_to_tle
                ),
            );
            if let Some((mean, sd)) = self
                .slowest_ac
                .and_then(|i| self.samples[i].mean_sd())
                .filter(|(_, sd)| *sd > 0.0)
            {
                line(
                    &mut out,
                    format!(
                        "the limit is {} σ above the slowest AC's mean",
                        crate::util::units::sig3((limit as f64 - mean) / sd)
                    ),
                );
            }
            line(&mut out, self.tle_line(limit, margin));
        }
        if self.flags.is_empty() && self.limit_ns.is_some() {
            line(
                &mut out,
                "no submission's verdict changes between the limit and the safety margin"
                    .to_string(),
            );
        }
        for flag in &self.flags {
            line(&mut out, format!("sensitive to the time limit: {flag}"));
        }
        for sample in &self.samples {
            for failure in &sample.failures {
                line(
                    &mut out,
                    format!(
                        "{} on {}: a run failed: {failure}",
                        sample.solution, sample.test
                    ),
                );
            }
        }
        for note in &self.notes {
            line(&mut out, note.clone());
        }
        out
    }

    /// The fastest time-limit-exceeded submission against the limit and the margin.
    fn tle_line(&self, limit: u64, margin: f64) -> String {
        let Some(tle) = self.fastest_tle.map(|i| &self.samples[i]) else {
            return "no time-limit-exceeded submission measured".to_string();
        };
        let head = format!(
            "fastest TLE {} ({} on {})",
            tle.describe(),
            tle.solution,
            tle.test
        );
        let fastest = tle.max_ns().unwrap_or(0) as f64;
        if tle.censored > 0 {
            return format!("{head}: beyond the safety margin");
        }
        let verdict = if fastest <= limit as f64 {
            "not a TLE at the limit"
        } else if fastest < margin {
            "the safety margin is not met"
        } else {
            "beyond the safety margin"
        };
        match tle.mean_sd().filter(|(_, sd)| *sd > 0.0) {
            Some((mean, sd)) => format!(
                "{head}: {} the limit, {} the safety margin; {verdict}",
                sigmas(mean - limit as f64, sd),
                sigmas(mean - margin, sd)
            ),
            None => format!("{head}: {verdict}"),
        }
    }
}

/// `12.5 σ above` / `3.1 σ below`: a distance in units of the noise.
pub(super) fn sigmas(distance: f64, sd: f64) -> String {
    let side = if distance < 0.0 { "below" } else { "above" };
    format!("{} σ {side}", crate::util::units::sig3(distance.abs() / sd))
}

/// `0.810 s ± 0.030 s, n = 10`: seconds, as limits are, the spread with as many decimals as
/// the mean (so they compare).
pub(super) fn spread(mean: f64, sd: f64, n: usize) -> String {
    let mean_text = crate::util::units::sig3(mean / NS_PER_S);
    if n < 2 {
        return format!("{mean_text} s (n = 1: no spread)");
    }
    let decimals = mean_text.split_once('.').map_or(0, |(_, d)| d.len());
    let mut sd_text = format!("{:.decimals$}", sd / NS_PER_S);
    if sd > 0.0 && sd_text.trim_start_matches(['0', '.']).is_empty() {
        // Smaller than the mean's last digit: its own digits, not a zero.
        sd_text = crate::util::units::sig3(sd / NS_PER_S);
    }
    format!("{mean_text} s ± {sd_text} s, n = {n}")
}

/// A time in seconds for a limit: `2 s`, `1.5 s`, `0.0283 s` (three significant digits, no
/// trailing zeros).
pub(crate) fn seconds(ns: f64) -> String {
    let text = crate::util::units::sig3(ns / NS_PER_S);
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        &text
    };
    format!("{text} s")
}
