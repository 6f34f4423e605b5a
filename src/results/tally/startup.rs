//! A program's start-up taken out of a tally's time figures, after the fold: what the summary
//! reads of an engine's times (time per case, run totals, slowest cases, the speed and its
//! spread) then holds its work alone, while what the limits read (the worst wall and CPU
//! time of a run, which judges count whole) and the raw run totals the warnings read keep it.
//!
//! A start-up is the fixed cost of one run of the program: a case that ran alone loses all
//! of it, a case of a file run once loses its share ([`super::Span::shared`]), as its time
//! is its share of the file's time. The slowest cases shown are the slowest of the
//! candidates kept as measured (at least `top`, see `SLOW_SLACK`), ordered again without it.

use super::{Tally, UNTIMED};

impl Tally {
    /// Takes `startup_ns`, the start-up of one run of engine `engine` on `game`, out of the
    /// times of its cases (never below zero). Returns how many of its timed cases were within
    /// it (their time now reads 0). Does nothing to an engine the tally has not seen.
    pub fn take_out_startup(&mut self, game: &str, engine: &str, startup_ns: u64) -> usize {
        let Some(g) = self.find(game, engine) else {
            return 0;
        };
        let group = &mut self.groups[g];
        let runs = group.max_runs;
        let mut within = 0;
        for span in &group.spans {
            let part = startup_ns / span.shared.max(1);
            for time in &mut group.times[span.start..span.start + span.len] {
                if *time == UNTIMED {
                    continue;
                }
                let lost = part.min(*time);
                within += usize::from(lost == *time);
                *time -= lost;
                // Every timed case ran the same runs (`--runs`): each run's total loses what
                // its time lost.
                for total in &mut group.run_totals[..runs] {
                    *total = total.saturating_sub(lost);
                }
            }
        }
        for slow in &mut group.slow {
            let (_, file, case, _) = *slow;
            if let Some(span) = group
                .spans
                .iter()
                .find(|s| s.file == file && (s.first_case..s.first_case + s.len).contains(&case))
            {
                slow.0 = slow.0.saturating_sub(startup_ns / span.shared.max(1));
            }
        }
        within
    }
}

#[cfg(test)]
mod tests {
    use crate::results::schema::test_row;
    use crate::results::{Record, Row, Status, Tally, Timing};

    /// Case `case` of `file`, engine `engine`, run `run`, timed `t` ns with `timing`.
    fn row(engine: &str, file: &str, case: usize, run: u32, t: u64, timing: Timing) -> Row {
        Row {
            file: file.into(),
            label: format!("{file}#{case}"),
            run,
            timing,
            // The program's CPU time, so that it has a limits line.
            user_ns: (engine == "prog").then_some(t),
            ..test_row(engine, case, Status::Ok, Some(t))
        }
    }

    #[test]
    fn a_file_s_cases_lose_their_share_and_a_case_run_alone_loses_it_all() {
        const STARTUP: u64 = 1_000;
        let mut rows = Vec::new();
        // a.in: 4 cases, the program run once on the whole file: 5,000 ns in run 1, 6,000 in
        // run 2 (each case's share 1,250 and 1,500; its median run 1,375).
        for case in 1..=4 {
            rows.push(row("base", "a.in", case, 1, 100, Timing::Case));
            rows.push(row("base", "a.in", case, 2, 100, Timing::Case));
            rows.push(row("prog", "a.in", case, 1, 5_000, Timing::File));
            rows.push(row("prog", "a.in", case, 2, 6_000, Timing::File));
        }
        // b.in: 2 cases, each run alone (a per-case limit): 1,800 / 2,200 ns, and 900 ns
        // (within the start-up).
        for (case, (t1, t2)) in [(1, (1_800, 2_200)), (2, (900, 900))] {
            rows.push(row("base", "b.in", case, 1, 100, Timing::Case));
            rows.push(row("base", "b.in", case, 2, 100, Timing::Case));
            rows.push(row("prog", "b.in", case, 1, t1, Timing::Case));
            rows.push(row("prog", "b.in", case, 2, t2, Timing::Case));
        }
        let mut tally = Tally::of(&Record::from_rows(&rows), 2);
        let raw = tally.summary("base")[1].clone();
        // Raw: a.in's cases 5,500 / 4 = 1,375 each, b.in's 2,000 and 900.
        assert_eq!(raw.total_ns, 4 * 1_375 + 2_000 + 900);
        let limits = tally.limit_lines(&crate::results::LimitFigures::default());
        assert_eq!(tally.take_out_startup("toy", "prog", STARTUP), 1);
        assert_eq!(tally.take_out_startup("toy", "nobody", STARTUP), 0);
        let s = &tally.summary("base")[1];
        // a.in: each case loses 1,000 / 4 = 250 (1,125); b.in: 1,000 each (1,000 and 0).
        assert_eq!(s.total_ns, 4 * 1_125 + 1_000);
        assert_eq!((s.min_ns, s.max_ns), (0, 1_125));
        // The speed over the six cases: 600 of the baseline against 5,500 (was 8,400).
        assert_eq!(s.relative, Some(600.0 / 5_500.0));
        // Run totals: run 1 was 5,000 + 1,800 + 900 = 7,700, run 2 6,000 + 2,200 + 900 =
        // 9,100; each loses what the times lost, 4 x 250 + 1,000 + 900.
        assert_eq!(raw.run_mean_ns, Some((7_700.0 + 9_100.0) / 2.0));
        assert_eq!(s.run_mean_ns, Some((7_700.0 + 9_100.0) / 2.0 - 2_900.0));
        // The slowest two: a.in's cases 1 and 2 (1,125, ties by case) before b.in#1 (1,000).
        let slow: Vec<(String, usize, u64)> = tally.slowest()[1]
            .2
            .iter()
            .map(|c| (c.file.clone(), c.case, c.time_ns))
            .collect();
        assert_eq!(slow, [("a.in".into(), 1, 1_125), ("a.in".into(), 2, 1_125)]);
        // The limits keep the start-up: judges count it (the worst case, a.in's whole file,
        // its median run 5,500 ns).
        assert!(limits[0].contains("worst wall 5.50 µs"), "{limits:?}");
        assert_eq!(
            tally.limit_lines(&crate::results::LimitFigures::default()),
            limits
        );
        // The baseline is untouched.
        assert_eq!(tally.summary("base")[0].total_ns, 600);
    }
}
