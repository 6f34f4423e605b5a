//! How close each program came to the judge's limits: per (game, engine), the worst wall time,
//! the worst CPU time and the peak memory over its cases, each beside its limit with the share
//! of the limit used (as Polygon prints a correct solution's worst time as a share of the time
//! limit). Only engines with measured program figures (`user_ns`) are shown.

use super::record::Record;
use super::tally::Tally;
use crate::util::units::human_time;

/// The limits a run gave its programs (`None`: not limited).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LimitFigures {
    pub wall_ns: Option<u64>,
    pub cpu_ns: Option<u64>,
    pub memory_kb: Option<u64>,
}

/// KiB in one MiB, for printing memory.
const KIB_PER_MIB: f64 = 1024.0;

/// One line per (game, engine) that ran as a program: `game/engine: worst wall X of L (P%),
/// worst CPU ..., peak memory ...`; a figure without a limit is shown alone.
pub fn limit_lines(records: &[Record], limits: &LimitFigures) -> Vec<String> {
    Tally::of(records, 0).limit_lines(limits)
}

impl Tally {
    /// The limit lines of the folded records (see [`limit_lines`]), in the order their first
    /// program figures came.
    pub fn limit_lines(&self, limits: &LimitFigures) -> Vec<String> {
        let mut programs: Vec<_> = self
            .groups
            .iter()
            .filter_map(|g| Some((g.first_program?, g)))
            .collect();
        programs.sort_by_key(|(rank, _)| *rank);
        programs
            .into_iter()
            .map(|(_, group)| {
                let mut parts = Vec::new();
                if let Some(w) = group.worst_wall {
                    parts.push(format!(
                        "worst wall {}",
                        share(w, limits.wall_ns, human_time)
                    ));
                }
                if let Some(c) = group.worst_cpu {
                    parts.push(format!("worst CPU {}", share(c, limits.cpu_ns, human_time)));
                }
                if let Some(m) = group.memory_kb {
                    parts.push(format!("peak memory {}", share(m, limits.memory_kb, mib)));
                }
                format!("{}/{}: {}", group.game, group.engine, parts.join(", "))
            })
            .collect()
    }
}

/// `value`, and with a limit `value of limit (P%)`.
fn share(value: u64, limit: Option<u64>, show: fn(u64) -> String) -> String {
    match limit {
        Some(limit) if limit > 0 => format!(
            "{} of {} ({:.0}%)",
            show(value),
            show(limit),
            100.0 * value as f64 / limit as f64
        ),
        _ => show(value),
    }
}

/// KiB as MiB with one decimal.
fn mib(kib: u64) -> String {
    format!("{:.1} MB", kib as f64 / KIB_PER_MIB)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Row;
    use crate::results::schema::test_row;
    use crate::status::Status;

    fn program_row(case: usize, time: u64, user: u64, sys: u64, memory: u64) -> Row {
        let mut row = test_row("g", case, Status::Ok, Some(time));
        row.user_ns = Some(user);
        row.sys_ns = Some(sys);
        row.memory_kb = Some(memory);
        row
    }

    #[test]
    fn the_worst_case_beside_each_limit() {
        // Two cases: the worst wall time is 1.5 s (case 2), the worst CPU 0.9 + 0.1 = 1 s
        // (case 1), the peak memory 32,768 KiB = 32.0 MB (case 2); limits 2 s, 4 s, 64 MB.
        let rows = [
            program_row(1, 1_000_000_000, 900_000_000, 100_000_000, 16_384),
            program_row(2, 1_500_000_000, 500_000_000, 0, 32_768),
        ];
        let records = Record::from_rows(&rows);
        let limits = LimitFigures {
            wall_ns: Some(2_000_000_000),
            cpu_ns: Some(4_000_000_000),
            memory_kb: Some(65_536),
        };
        let lines = limit_lines(&records, &limits);
        assert_eq!(lines.len(), 1, "{lines:?}");
        let line = &lines[0];
        assert!(line.contains("worst wall 1.50 s of 2.00 s (75%)"), "{line}");
        assert!(line.contains("worst CPU 1.00 s of 4.00 s (25%)"), "{line}");
        assert!(
            line.contains("peak memory 32.0 MB of 64.0 MB (50%)"),
            "{line}"
        );
        // Internal engines (no program figures) get no line.
        let internal = Record::from_rows(&[test_row("r", 1, Status::Ok, Some(5))]);
        assert!(limit_lines(&internal, &limits).is_empty());
    }
}
