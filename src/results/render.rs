//! The summary for the terminal: the aligned table ([`summary_table`]), the lines under it
//! ([`detail_lines`], [`verdict_lines`]) and the speed column's text ([`speed_text`], shared
//! with the Markdown export).
//!
//! Invariants: text only, from [`EngineSummary`] values (no record is read here); every time
//! is printed by [`crate::units`]; the output is pinned by the insta snapshot of
//! `export::tests`, so any change of a byte here is a visible change of the tool.

use super::{EngineSummary, Timing};
use crate::units::{TimeUnit, human_time, human_time_f};

/// The speed column: `3.02 ± 0.11 times faster than reference`, marked
/// `(over X of Y cases)` when it covers only part of the engine's cases; `n/a: 81 mismatch`
/// when no case can be compared; empty when there is no baseline.
pub fn speed_text(s: &EngineSummary) -> String {
    let (Some(baseline), Some(x)) = (&s.baseline, s.relative) else {
        return match &s.speed_note {
            Some(note) => format!("n/a: {note}"),
            None => String::new(),
        };
    };
    let sd = s.relative_stddev.unwrap_or(0.0);
    let mut text = if x >= 1.0 {
        format!("{x:.2} ± {sd:.2} times faster than {baseline}")
    } else {
        // 1/x's standard error, to first order: sd / x².
        format!(
            "{:.2} ± {:.2} times slower than {baseline}",
            1.0 / x,
            sd / (x * x)
        )
    };
    if s.compared_cases < s.cases {
        text.push_str(&format!(
            " (over {} of {} cases)",
            s.compared_cases, s.cases
        ));
    }
    text
}

/// Whether the table shows a status column: `ok` always, the others when some engine has one.
/// A status column: its name and its count in a summary line.
type StatusColumn = (&'static str, fn(&EngineSummary) -> usize);

fn status_columns(summaries: &[EngineSummary]) -> Vec<StatusColumn> {
    let all: [StatusColumn; 10] = [
        ("ok", |s| s.ok),
        ("unchecked", |s| s.unchecked),
        ("mismatch", |s| s.mismatch),
        ("error", |s| s.error),
        ("unsolved", |s| s.unsolved),
        ("budget", |s| s.budget),
        ("timeout", |s| s.timeout),
        ("memory-limit", |s| s.memory_limit),
        ("output-limit", |s| s.output_limit),
        ("runtime-error", |s| s.runtime_error),
    ];
    all.into_iter()
        .filter(|(name, f)| *name == "ok" || summaries.iter().any(|s| f(s) > 0))
        .collect()
}

/// `mean ± σ` of an engine's per-case times.
fn mean_text(s: &EngineSummary) -> String {
    if s.timed == 0 {
        return String::new();
    }
    let unit = TimeUnit::for_ns(s.mean_ns);
    format!(
        "{} ± {} {}",
        unit.number(s.mean_ns),
        unit.number(s.stddev_ns),
        unit.symbol()
    )
}

/// The summary as an aligned text table: status counts (zero columns left out, `ok` always
/// shown), time per case (total, mean ± σ, min, median, max; an external program's file time
/// shared evenly by its cases, marked `*`) and the speed relative to the baseline.
pub fn summary_table(summaries: &[EngineSummary]) -> String {
    let statuses = status_columns(summaries);
    let mut header: Vec<String> = ["game", "engine", "cases"].map(String::from).to_vec();
    header.extend(statuses.iter().map(|(n, _)| n.to_string()));
    header.extend(["total", "mean ± σ", "min", "median", "max", "speed"].map(String::from));
    let mut lines: Vec<Vec<String>> = vec![header.clone()];
    for s in summaries {
        let speed = if s.baseline.is_none()
            && s.speed_note.is_none()
            && summaries
                .iter()
                .any(|o| o.game == s.game && o.baseline.as_deref() == Some(&s.engine))
        {
            "baseline".to_string()
        } else {
            speed_text(s)
        };
        let engine = if s.timing == Timing::File {
            format!("{}*", s.engine)
        } else {
            s.engine.clone()
        };
        let mut line = vec![s.game.clone(), engine, s.cases.to_string()];
        line.extend(statuses.iter().map(|(_, f)| f(s).to_string()));
        let time = |ns: f64| {
            if s.timed == 0 {
                String::new()
            } else {
                human_time_f(ns)
            }
        };
        line.extend([
            time(s.total_ns as f64),
            mean_text(s),
            time(s.min_ns as f64),
            time(s.median_ns),
            time(s.max_ns as f64),
            speed,
        ]);
        lines.push(line);
    }
    let columns = header.len();
    let mut text = aligned(&lines, |c| c < 2 || c == columns - 1);
    if summaries.iter().any(|s| s.timing == Timing::File) {
        text.push_str(
            "* an external program, run once per file: its time per case is the file's time / the file's cases\n",
        );
    }
    text
}

/// The lines under the table that give what a ratio hides: per comparison, the cases it
/// covers and the distribution of the per-case speed-up; per engine with `--runs` > 1, the
/// spread of the run totals; per external program, its CPU time and peak memory.
pub fn detail_lines(summaries: &[EngineSummary]) -> String {
    let mut text = String::new();
    for s in summaries {
        let who = format!("{}/{}", s.game, s.engine);
        if let (Some(b), Some(p10), Some(med), Some(p90)) =
            (&s.baseline, s.speedup_p10, s.speedup_median, s.speedup_p90)
        {
            text.push_str(&format!(
                "{who}: speed-up per case over {b}: median {} (p10 {}, p90 {}) over {} of {} cases\n",
                times(med),
                times(p10),
                times(p90),
                s.compared_cases,
                s.cases
            ));
        }
        if let (Some(m), Some(sd)) = (s.run_mean_ns, s.run_stddev_ns) {
            text.push_str(&format!(
                "{who}: time of one run over all cases: {} ± {} ({} runs)\n",
                human_time_f(m),
                human_time_f(sd),
                s.runs
            ));
        }
        if s.user_ns.is_some() || s.memory_kb.is_some() {
            text.push_str(&format!(
                "{who}: CPU user {}, system {} (one run, summed over files); peak memory {}\n",
                s.user_ns.map_or("?".into(), human_time),
                s.sys_ns.map_or("?".into(), human_time),
                s.memory_kb.map_or(
                    "not measurable (below gamebench's own peak, which wait4 reports for a small program)".into(),
                    |m| format!("{m} KiB")
                ),
            ));
        }
        if s.repeated > 0 {
            text.push_str(&format!(
                "{who}: {} of {} cases were too short to time alone and were timed by repetition\n",
                s.repeated, s.cases
            ));
        }
    }
    text
}

/// A ratio with three significant digits however small (`0.000123x`), two decimals from 1 up.
fn times(x: f64) -> String {
    let digits = if x >= 1.0 || x <= 0.0 {
        2
    } else {
        (2.0 - x.log10().floor()) as usize
    };
    format!("{x:.digits$}x")
}

/// What was verified, per game: against the expected outputs (`--check`), against the
/// baseline engine, or nothing (then the cases are `unchecked`, and the summary says so).
pub fn verdict_lines(summaries: &[EngineSummary], check: bool) -> String {
    let mut games: Vec<&str> = Vec::new();
    for s in summaries {
        if !games.contains(&s.game.as_str()) {
            games.push(&s.game);
        }
    }
    let mut text = String::new();
    for game in games {
        let mine: Vec<&EngineSummary> = summaries.iter().filter(|s| s.game == game).collect();
        let results: usize = mine.iter().map(|s| s.cases).sum();
        let ok: usize = mine.iter().map(|s| s.ok).sum();
        let unchecked: usize = mine.iter().map(|s| s.unchecked).sum();
        let baseline = mine.iter().find_map(|s| s.baseline.as_deref());
        let against = match (check, baseline) {
            (true, Some(b)) => format!("the expected outputs (--check) and {b}'s outputs"),
            (true, None) => "the expected outputs (--check)".to_string(),
            (false, Some(b)) => format!("{b}'s outputs (no --check)"),
            (false, None) => String::new(),
        };
        if against.is_empty() {
            text.push_str(&format!(
                "verdict: {game}: no output was compared (no --check and no baseline engine beside the others): {unchecked} of {results} results are unchecked\n"
            ));
        } else {
            text.push_str(&format!(
                "verdict: {game}: outputs compared with {against}: {ok} of {results} results ok"
            ));
            if unchecked > 0 {
                text.push_str(&format!(", {unchecked} unchecked"));
            }
            text.push('\n');
        }
    }
    text
}

/// Plain-text columns: every cell padded to its column's widest, two spaces apart, left-aligned
/// in the columns `left` names and right-aligned in the others; one line per row, without
/// trailing spaces.
pub fn aligned(rows: &[Vec<String>], left: impl Fn(usize) -> bool) -> String {
    let columns = rows.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut text = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (cell, w))| {
                if left(c) {
                    format!("{cell:<w$}")
                } else {
                    format!("{cell:>w$}")
                }
            })
            .collect();
        text.push_str(cells.join("  ").trim_end());
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::schema::test_row as row;
    use crate::results::{Record, Status, summarize};

    #[test]
    fn verdicts_say_what_was_compared() {
        let one = summarize(
            &Record::from_rows(&[row("bitboard", 1, Status::Unchecked, Some(5))]),
            "reference",
        );
        let text = verdict_lines(&one, false);
        assert!(text.contains("no output was compared"), "{text}");
        assert!(text.contains("1 of 1 results are unchecked"), "{text}");
        assert!(verdict_lines(&one, true).contains("the expected outputs (--check)"));
        let two = summarize(
            &Record::from_rows(&[
                row("reference", 1, Status::Ok, Some(5)),
                row("bitboard", 1, Status::Ok, Some(5)),
            ]),
            "reference",
        );
        assert!(verdict_lines(&two, false).contains("reference's outputs (no --check): 2 of 2"));
    }

    #[test]
    fn small_ratios_keep_their_digits() {
        assert_eq!(times(4.0), "4.00x");
        assert_eq!(times(0.5), "0.500x");
        assert_eq!(times(0.0000412), "0.0000412x");
    }
}
