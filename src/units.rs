//! Units for people: the one formatter of durations for the whole tool.
//!
//! [`human_time`] (whole nanoseconds) and [`human_time_f`] (means, medians) print a duration
//! with three significant digits in the largest unit in which it is at least 1: `812 ns`,
//! `3.41 µs`, `12.0 ms`, `1.52 s`. [`TimeUnit`] is the same choice of unit for a table that
//! shows one unit for a whole column (the Markdown export).
//!
//! A leaf module: it depends on nothing else in the crate, so every layer (results, exports,
//! commands, searches) may use it.

/// A duration in nanoseconds for people: `812 ns`, `3.41 µs`, `12.0 ms`, `1.52 s`.
pub fn human_time(ns: u64) -> String {
    human_time_f(ns as f64)
}

/// [`human_time`] of a fractional number of nanoseconds (means, medians).
pub fn human_time_f(ns: f64) -> String {
    let unit = TimeUnit::for_ns(ns);
    format!("{} {}", unit.number(ns), unit.symbol())
}

/// [`human_time`] of a [`std::time::Duration`] (elapsed times of searches and solves).
pub fn human_duration(d: std::time::Duration) -> String {
    human_time(u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}

/// A unit of time for a column or a number: the largest in which the value is at least 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    Ns,
    Us,
    Ms,
    S,
}

impl TimeUnit {
    pub fn for_ns(ns: f64) -> TimeUnit {
        if ns < 1e3 {
            TimeUnit::Ns
        } else if ns < 1e6 {
            TimeUnit::Us
        } else if ns < 1e9 {
            TimeUnit::Ms
        } else {
            TimeUnit::S
        }
    }

    /// Nanoseconds per unit.
    pub fn scale(self) -> f64 {
        match self {
            TimeUnit::Ns => 1.0,
            TimeUnit::Us => 1e3,
            TimeUnit::Ms => 1e6,
            TimeUnit::S => 1e9,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            TimeUnit::Ns => "ns",
            TimeUnit::Us => "µs",
            TimeUnit::Ms => "ms",
            TimeUnit::S => "s",
        }
    }

    /// `ns` in this unit with three significant digits (whole nanoseconds in `ns`).
    pub fn number(self, ns: f64) -> String {
        if self == TimeUnit::Ns {
            return format!("{}", ns.round() as u64);
        }
        let value = ns / self.scale();
        let digits = if value < 10.0 {
            2
        } else if value < 100.0 {
            1
        } else {
            0
        };
        format!("{value:.digits$}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_times() {
        assert_eq!(human_time(812), "812 ns");
        assert_eq!(human_time(3_410), "3.41 µs");
        assert_eq!(human_time(12_040_000), "12.0 ms");
        assert_eq!(human_time(1_520_000_000), "1.52 s");
        assert_eq!(
            human_duration(std::time::Duration::from_millis(680)),
            "680 ms"
        );
    }
}
