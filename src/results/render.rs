//! The summary for the terminal: the aligned table ([`summary_table`]), the lines under it
//! ([`detail_lines`], [`verdict_lines`]) and the speed column's text ([`speed_text`], shared
//! with the Markdown export).
//!
//! Invariants: text only, from [`EngineSummary`] values (no record is read here); every time
//! is printed by [`crate::util::units`], every ratio with three significant digits ([`sig3`]), every
//! count with thousands separators; a spread that was not measured (a file-timed program's
//! per-case σ, its per-case speed-ups) is `n/a`, never `± 0`; the table fits [`MAX_WIDTH`]
//! columns when it can (a wider one moves the speed column under the table, one line per
//! engine, never breaking a line in the middle). The output is pinned by the insta snapshots of
//! `export::tests` and by `tests/integration/summary.rs`, so any change of a byte here is a visible change
//! of the tool.

use super::{EngineSummary, Timing};
use crate::util::units::{TimeUnit, counted, human_time, human_time_f, sig3, thousands};

/// The width the summary is laid out for (a terminal of 100 columns).
pub const MAX_WIDTH: usize = 100;

/// What stands for a figure that was not measured.
pub const NOT_MEASURED: &str = "n/a";

/// The speed column: `3.02 ± 0.11 times faster than reference`, marked
/// `(over X of Y cases)` when it covers only part of the engine's cases; `n/a: 81 mismatch`
/// when no case can be compared; empty when there is no baseline.
pub fn speed_text(s: &EngineSummary) -> String {
    let (Some(baseline), Some(x)) = (&s.baseline, s.relative) else {
        return match &s.speed_note {
            Some(note) => format!("{NOT_MEASURED}: {note}"),
            None => String::new(),
        };
    };
    // 1/x's standard error, to first order: sd / x².
    let (ratio, sd, way) = if x >= 1.0 {
        (x, s.relative_stddev, "faster")
    } else {
        (1.0 / x, s.relative_stddev.map(|sd| sd / (x * x)), "slower")
    };
    let sd = sd.map_or(NOT_MEASURED.to_string(), sig3);
    let mut text = format!("{} ± {sd} times {way} than {baseline}", sig3(ratio));
    if s.compared_cases < s.cases {
        text.push_str(&format!(
            " (over {} of {})",
            thousands(s.compared_cases as u64),
            counted(s.cases as u64, "case", "cases")
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

/// `mean ± σ` of an engine's per-case times; σ is `n/a` for a file-timed program, whose cases
/// share their file's time evenly.
fn mean_text(s: &EngineSummary) -> String {
    if s.timed == 0 {
        return String::new();
    }
    let unit = TimeUnit::for_ns(s.mean_ns);
    let sd = if s.timing == Timing::File {
        NOT_MEASURED.to_string()
    } else {
        unit.number(s.stddev_ns)
    };
    format!("{} ± {sd} {}", unit.number(s.mean_ns), unit.symbol())
}

/// One headline per engine: its median time per case and its total, and the cases those
/// figures leave out.
pub fn headlines(summaries: &[EngineSummary]) -> String {
    let mut text = String::new();
    for s in summaries {
        let who = format!("{}/{}", s.game, s.engine);
        if s.timed == 0 {
            text.push_str(&format!(
                "{who}: no case timed ({})\n",
                s.untimed.as_deref().unwrap_or("no case")
            ));
            continue;
        }
        text.push_str(&format!(
            "{who}: {} per case (median), {} in total over {}",
            human_time_f(s.median_ns),
            human_time(s.total_ns),
            counted(s.timed as u64, "case", "cases")
        ));
        if let Some(left) = &s.untimed {
            text.push_str(&format!(" (left out: {left})"));
        }
        text.push('\n');
    }
    text
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
        let mut line = vec![s.game.clone(), engine, thousands(s.cases as u64)];
        line.extend(statuses.iter().map(|(_, f)| thousands(f(s) as u64)));
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
    if text.lines().any(|l| l.chars().count() > MAX_WIDTH) {
        // Too wide: the speed column goes under the table, a line per engine.
        let speeds: Vec<(String, String)> = lines
            .iter_mut()
            .skip(1)
            .zip(summaries)
            .map(|(l, s)| {
                (
                    format!("{}/{}", s.game, s.engine),
                    l.pop().unwrap_or_default(),
                )
            })
            .collect();
        lines[0].pop();
        text = aligned(&lines, |c| c < 2);
        for (who, speed) in speeds.into_iter().filter(|(_, s)| !s.is_empty()) {
            text.push_str(&format!("{who}: speed: {speed}\n"));
        }
    }
    if text.lines().any(|l| l.chars().count() > MAX_WIDTH) {
        // Still too wide (many status columns): a block of short lines per engine.
        text = lines[1..]
            .iter()
            .zip(summaries)
            .map(|(line, s)| engine_block(&lines[0], line, s))
            .collect();
    }
    if summaries.iter().any(|s| s.timing == Timing::File) {
        text.push_str(
            "* an external program, run once per file: its time per case is the file's time / the file's cases\n",
        );
    }
    text
}

/// One engine's row of the table as short lines: its name and case count, its status counts,
/// its times, its speed (`header` and `line` are the table's, without the speed column).
fn engine_block(header: &[String], line: &[String], s: &EngineSummary) -> String {
    let named = |range: std::ops::Range<usize>| -> Vec<String> {
        range
            .filter(|&c| !line[c].is_empty() && line[c] != "0")
            .map(|c| format!("{} {}", line[c], header[c]))
            .collect()
    };
    let times = header.len() - TIME_COLUMNS;
    let mut text = format!(
        "{}/{}: {}\n",
        line[0],
        line[1],
        counted(s.cases as u64, "case", "cases")
    );
    text.push_str(&wrapped("  statuses: ", &named(3..times)));
    if s.timed > 0 {
        let figures: Vec<String> = (times..header.len())
            .map(|c| format!("{} {}", header[c], line[c]))
            .collect();
        text.push_str(&wrapped("  time per case: ", &figures));
    }
    let speed = speed_text(s);
    if !speed.is_empty() {
        text.push_str(&format!("  speed: {speed}\n"));
    }
    text
}

/// `items` after `prefix`, comma-separated, broken between items into lines of at most
/// [`MAX_WIDTH`] columns (continuation lines indented under the first item).
fn wrapped(prefix: &str, items: &[String]) -> String {
    let indent = " ".repeat(prefix.chars().count());
    let mut text = String::new();
    let mut line = prefix.to_string();
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() {
            format!("{item},")
        } else {
            item.clone()
        };
        let at_start = line.chars().count() == indent.len();
        if !at_start && line.chars().count() + 1 + piece.chars().count() > MAX_WIDTH {
            text.push_str(line.trim_end());
            text.push('\n');
            line = indent.clone();
        }
        if line.chars().count() > indent.len() {
            line.push(' ');
        }
        line.push_str(&piece);
    }
    text.push_str(line.trim_end());
    text.push('\n');
    text
}

/// The time columns of the table: total, mean ± σ, min, median, max.
const TIME_COLUMNS: usize = 5;

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
                "{who}: per-case ratio to {b} (the spread; the speed is the ratio of totals): median {} (p10 {}, p90 {}) over {} of {}\n",
                times(med),
                times(p10),
                times(p90),
                thousands(s.compared_cases as u64),
                counted(s.cases as u64, "case", "cases")
            ));
        } else if let (Some(b), Some(_)) = (&s.baseline, s.relative) {
            text.push_str(&format!(
                "{who}: per-case ratio to {b}: {NOT_MEASURED} (a program timed per file: its cases share the file's time)\n"
            ));
        }
        if let (Some(m), Some(sd)) = (s.run_mean_ns, s.run_stddev_ns)
            && s.runs > 1
        {
            text.push_str(&format!(
                "{who}: time of one run over all cases, over the {} runs: {} ± {} (the table's total sums each case's median run)\n",
                s.runs,
                human_time_f(m),
                human_time_f(sd),
            ));
        }
        if s.user_ns.is_some() || s.memory_kb.is_some() {
            text.push_str(&format!(
                "{who}: CPU user {}, system {} (one run, summed over files); peak memory {}\n",
                s.user_ns.map_or("?".into(), human_time),
                s.sys_ns.map_or("?".into(), human_time),
                s.memory_kb.map_or(
                    "not measurable (below gamebench's own peak, which wait4 reports for a small program)".into(),
                    |m| format!("{} KiB", thousands(m))
                ),
            ));
        }
        if s.repeated > 0 {
            text.push_str(&format!(
                "{who}: {} of {} too short to time alone, timed by repetition\n",
                thousands(s.repeated as u64),
                counted(s.cases as u64, "case was", "cases were")
            ));
        }
    }
    text
}

/// A ratio with three significant digits however small (`0.000123x`, `4.00x`, `7,492x`).
fn times(x: f64) -> String {
    format!("{}x", sig3(x))
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
                "verdict: {game}: no output was compared (no --check and no baseline engine beside the others): {} of {} unchecked\n",
                thousands(unchecked as u64),
                counted(results as u64, "result is", "results are")
            ));
        } else {
            text.push_str(&format!(
                "verdict: {game}: outputs compared with {against}: {} of {} ok",
                thousands(ok as u64),
                counted(results as u64, "result", "results")
            ));
            if unchecked > 0 {
                text.push_str(&format!(", {} unchecked", thousands(unchecked as u64)));
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
        assert!(text.contains("1 of 1 result is unchecked"), "{text}");
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
        assert_eq!(times(7491.75), "7,492x");
    }
}
