//! Units for people: the one formatter of durations for the whole tool, and of counts and
//! ratios ([`thousands`], [`sig3`], [`counted`]).
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

/// Digits between two thousands separators.
const GROUP: usize = 3;

/// A count with thousands separators: `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(GROUP) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Significant digits of the figures people read (times, ratios).
pub const SIGNIFICANT: i32 = 3;

/// A number with three significant digits (`0.0123`, `1.23`, `12.3`, `123`), and thousands
/// separators past that (`7,492`); `n/a` for a number that is not finite.
pub fn sig3(x: f64) -> String {
    if !x.is_finite() {
        return "n/a".to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    let magnitude = x.abs().log10().floor() as i32;
    if magnitude >= SIGNIFICANT - 1 {
        let sign = if x < 0.0 { "-" } else { "" };
        return format!("{sign}{}", thousands(x.abs().round() as u64));
    }
    let decimals = (SIGNIFICANT - 1 - magnitude).max(0) as usize;
    let text = format!("{x:.decimals$}");
    // Rounding may carry into a new digit (9.996 -> "10.00"): one decimal fewer then.
    let rounded: f64 = text.parse().unwrap_or(x);
    if rounded.abs().log10().floor() as i32 > magnitude && decimals > 0 {
        return format!("{x:.prec$}", prec = decimals - 1);
    }
    text
}

/// `n` and its noun, singular or plural as `n` asks: `1 thread`, `4 threads`, `1,200 cases`.
pub fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_figures() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(sig3(864.88), "865");
        assert_eq!(sig3(7491.75), "7,492");
        assert_eq!(sig3(1.04), "1.04");
        assert_eq!(sig3(0.012345), "0.0123");
        assert_eq!(sig3(9.996), "10.0");
        assert_eq!(sig3(99.96), "100");
        assert_eq!(sig3(-2.5), "-2.50");
        assert_eq!(sig3(f64::NAN), "n/a");
        assert_eq!(counted(1, "thread", "threads"), "1 thread");
        assert_eq!(counted(2_500, "case", "cases"), "2,500 cases");
    }

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
