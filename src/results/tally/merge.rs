//! One tally folded into another ([`Tally::merge`]): a worker folds a chunk's batch into a tally
//! of its own, in parallel, and the thread that hands chunks over in order only merges it (a
//! few copies per chunk, not a fold per case).
//!
//! Invariant: merging the tally of records B into the tally of records A gives the tally of
//! A then B, figure for figure (the tests fold the same records both ways).

use super::{Group, SLOW_SLACK, Span, Tally, sort_slowest};

impl Tally {
    /// Folds in `other`, whose records come after every record folded so far (as if they were
    /// added here in their order). Its [`Tally::shape`] must be this tally's.
    pub fn merge(&mut self, other: &Tally) {
        debug_assert_eq!(self.shape(), other.shape());
        let offset = self.results;
        let files: Vec<u32> = other.files.iter().map(|f| self.file_id(f)).collect();
        for theirs in &other.groups {
            let g = self.group(&theirs.game, &theirs.engine);
            merge_group(
                &mut self.groups[g],
                theirs,
                &files,
                offset,
                self.top,
                &self.files,
            );
        }
        self.results += other.results;
        self.cases += other.cases;
        if self.keep_records {
            self.records.extend_from_slice(&other.records);
        }
    }
}

/// Group `theirs` (of records after `mine`'s, file ids of its tally mapped by `files`, ranks
/// after `offset`) folded into `mine`.
fn merge_group(
    mine: &mut Group,
    theirs: &Group,
    files: &[u32],
    offset: usize,
    top: usize,
    names: &[std::sync::Arc<str>],
) {
    let start = mine.times.len();
    for (k, span) in theirs.spans.iter().enumerate() {
        let file = files[span.file as usize];
        match mine.spans.last_mut() {
            Some(last)
                if k == 0
                    && last.file == file
                    && last.first_case + last.len == span.first_case
                    && last.shared == span.shared =>
            {
                last.len += span.len;
            }
            last => {
                if k == 0
                    && let Some(last) = last
                {
                    let previous = (&*names[last.file as usize], last.first_case + last.len - 1);
                    mine.in_order &= previous < (&*names[file as usize], span.first_case);
                }
                mine.spans.push(Span {
                    file,
                    first_case: span.first_case,
                    start: start + span.start,
                    len: span.len,
                    shared: span.shared,
                });
            }
        }
    }
    mine.in_order &= theirs.in_order;
    mine.times.extend_from_slice(&theirs.times);
    mine.statuses.extend_from_slice(&theirs.statuses);
    for (sum, &n) in mine.counts.iter_mut().zip(&theirs.counts) {
        *sum += n;
    }
    mine.file_timed |= theirs.file_timed;
    mine.repeated += theirs.repeated;
    mine.repetition_ns = mine.repetition_ns.saturating_add(theirs.repetition_ns);
    mine.max_runs = mine.max_runs.max(theirs.max_runs);
    mine.min_runs = mine.min_runs.min(theirs.min_runs);
    for (totals, more) in [
        (&mut mine.run_totals, &theirs.run_totals),
        (&mut mine.raw_run_totals, &theirs.raw_run_totals),
    ] {
        if totals.len() < more.len() {
            totals.resize(more.len(), 0);
        }
        for (sum, t) in totals.iter_mut().zip(more) {
            *sum += t;
        }
    }
    let add = |sum: Option<u64>, more: Option<u64>| match (sum, more) {
        (Some(a), Some(b)) => Some(a + b),
        (a, b) => a.or(b),
    };
    mine.user_ns = add(mine.user_ns, theirs.user_ns);
    mine.sys_ns = add(mine.sys_ns, theirs.sys_ns);
    mine.memory_kb = mine.memory_kb.max(theirs.memory_kb);
    if mine.first_program.is_none() {
        mine.first_program = theirs.first_program.map(|rank| offset + rank);
    }
    mine.worst_wall = mine.worst_wall.max(theirs.worst_wall);
    mine.worst_cpu = mine.worst_cpu.max(theirs.worst_cpu);
    mine.units += theirs.units;
    mine.with_outliers += theirs.with_outliers;
    mine.spread += theirs.spread;
    // The fold keeps the first widest pair: theirs only if strictly wider.
    let width = |(lo, hi): (u64, u64)| hi - lo;
    if width(theirs.widest) > width(mine.widest) {
        mine.widest = theirs.widest;
    }
    if let Some(file) = theirs.last_timed_file {
        mine.last_timed_file = Some(files[file as usize]);
    }
    mine.short += theirs.short;
    if top > 0 {
        mine.slow.extend(
            theirs
                .slow
                .iter()
                .map(|(t, file, case, label)| (*t, files[*file as usize], *case, label.clone())),
        );
        if mine.slow.len() >= SLOW_SLACK * top {
            sort_slowest(&mut mine.slow, names);
            mine.slow.truncate(top);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::schema::test_row;
    use crate::results::{Record, Row, Status, Timing};

    /// Rows of two engines on files whose cases come in two parts, with several runs, a
    /// program's figures, repeated timing, untimed and mismatched cases, labels.
    fn rows(file: &str, cases: std::ops::Range<usize>, base: u64) -> Vec<Row> {
        let mut rows = Vec::new();
        for case in cases {
            for r in 1..=3u32 {
                let t = base + case as u64 * 7 + u64::from(r) * 3;
                // One widely spread case per part.
                let t = if case % 4 == 2 && r == 3 { t * 50 } else { t };
                rows.push(Row {
                    file: file.into(),
                    run: r,
                    label: format!("{file}#{case}"),
                    timing: Timing::CaseRepeated,
                    repeats: Some(10),
                    ..test_row("reference", case, Status::Ok, Some(t * 100))
                });
            }
            let status = if case % 3 == 0 {
                Status::Mismatch
            } else {
                Status::Ok
            };
            rows.push(Row {
                file: file.into(),
                user_ns: Some(case as u64 * 11),
                sys_ns: Some(3),
                memory_kb: Some(100 + case as u64),
                ..test_row(
                    "prog",
                    case,
                    status,
                    (case % 4 != 1).then_some(base + case as u64),
                )
            });
        }
        rows
    }

    #[test]
    fn merging_tallies_gives_the_tally_of_every_record_in_order() {
        // Files out of name order, a file split over two parts, a part after another file.
        let parts = [
            rows("b.in", 1..5, 900),
            rows("b.in", 5..9, 900),
            rows("a.in", 1..4, 5),
            rows("c/d.in", 1..3, 50_000),
            rows("a.in", 4..6, 5),
        ];
        for (top, keep) in [(3, false), (0, true), (2, true)] {
            let mut whole = Tally::new(top, keep);
            let mut merged = Tally::new(top, keep);
            for part in &parts {
                let records = Record::from_rows(part);
                whole.add(&records);
                let mut one = Tally::new(top, keep);
                one.add(&records);
                merged.merge(&one);
            }
            assert_eq!(whole.summary("reference"), merged.summary("reference"));
            assert_eq!(whole.slowest(), merged.slowest());
            assert_eq!(
                (whole.results(), whole.cases(), whole.repetition_ns()),
                (merged.results(), merged.cases(), merged.repetition_ns())
            );
            assert_eq!(
                format!("{:?}", whole.records()),
                format!("{:?}", merged.records())
            );
            // Every figure of every group (the slowest candidates are compared above: their
            // lists are cut back at different moments).
            let figures = |t: &Tally| -> Vec<String> {
                t.groups
                    .iter()
                    .map(|g| {
                        format!(
                            "{:?} {:?}",
                            (
                                &g.game,
                                &g.engine,
                                &g.spans,
                                g.in_order,
                                &g.times,
                                &g.statuses,
                                g.counts,
                                g.file_timed,
                                g.repeated,
                                g.repetition_ns,
                                g.max_runs,
                            ),
                            (
                                g.min_runs,
                                &g.run_totals,
                                &g.raw_run_totals,
                                g.user_ns,
                                g.sys_ns,
                                g.memory_kb,
                                g.first_program,
                                g.worst_wall,
                                g.worst_cpu,
                                g.units,
                                (g.with_outliers, g.spread, g.widest),
                                (g.last_timed_file, g.short),
                            )
                        )
                    })
                    .collect()
            };
            assert_eq!(figures(&whole), figures(&merged));
            assert!(whole.groups[0].spread > 0);
        }
    }
}
