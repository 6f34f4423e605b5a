//! The text report of a comparison: meta warnings, verdict changes (`ok` cases that fail now
//! first), one block per (game, engine), the verdict and its exit code.

use std::fmt::Write;

use super::drift::INTERLEAVE_ABOVE;
use super::{Comparison, Direction, Group, NoiseSource, Scope};
use crate::util::units::human_time;

/// The most changed cases listed per engine and direction; the rest are counted.
pub const MAX_LISTED: usize = 50;

/// The report, ending with a `verdict:` line.
pub fn render(c: &Comparison) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "compare: {} (old) -> {} (new)",
        c.old.display(),
        c.new.display()
    );
    for d in &c.meta {
        let _ = writeln!(
            out,
            "warning: the runs differ in {}: {} -> {} (this alone can change times)",
            d.field, d.old, d.new
        );
    }
    if !c.only_old.is_empty() {
        let (game, engine, file, case) = &c.only_old[0];
        let _ = writeln!(
            out,
            "warning: {} case(s) of old are missing from new (first: {game}/{engine} {file} case {case})",
            c.only_old.len()
        );
    }
    if c.only_new > 0 {
        let _ = writeln!(out, "note: {} case(s) of new are not in old", c.only_new);
    }
    if !c.verdicts.is_empty() {
        let _ = writeln!(out, "verdict changes: {}", c.verdicts.len());
        for v in &c.verdicts {
            let tag = if v.was_ok() {
                "NOW FAILING"
            } else if v.worse() {
                "WORSE"
            } else {
                "better"
            };
            let _ = write!(
                out,
                "  {tag}: {}/{} {} case {}: {} -> {}",
                v.game,
                v.engine,
                v.file,
                v.case,
                v.old.as_str(),
                v.new.as_str()
            );
            if !v.message.is_empty() {
                let _ = write!(out, " ({})", v.message);
            }
            out.push('\n');
        }
    }
    for g in &c.groups {
        group(&mut out, g);
    }
    let verdict = match (c.verdict_regressed(), c.time_regressed()) {
        (true, true) => "REGRESSION (verdicts and time)",
        (true, false) => "REGRESSION (verdicts)",
        (false, true) => "REGRESSION (time)",
        (false, false) => {
            if c.groups.iter().any(|g| {
                g.total.is_some()
                    || !g.changes.is_empty()
                    || g.shifts.iter().any(|s| s.beyond.is_some())
            }) {
                "faster, no regression"
            } else if c.groups.iter().any(Group::cannot_tell) {
                "cannot tell (see each engine's floor above); no change beyond it"
            } else {
                "no change"
            }
        }
    };
    if let Some(floor) = c
        .groups
        .iter()
        .filter_map(|g| g.drift.map(|d| d.floor))
        .reduce(f64::max)
        .filter(|&f| f > INTERLEAVE_ABOVE)
    {
        let _ = writeln!(
            out,
            "note: two saved runs cannot tell a change of a whole run below {:.1}% here; to tell smaller ones, time both builds in one run, interleaved: gamebench run CORPUS -e old=cmd:OLD -e new=cmd:NEW --fail-if-slower PCT",
            floor * 100.0
        );
    }
    let _ = write!(out, "verdict: {verdict}; exit {}", c.exit().code());
    if !c.meta.is_empty() {
        let _ = write!(out, " (the runs' metadata differ: see the warnings above)");
    }
    out.push('\n');
    out
}

fn group(out: &mut String, g: &Group) {
    let renamed = if g.old_engine != g.engine {
        format!(" (old: {})", g.old_engine)
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "{}/{}{renamed}: {} cases, total {} -> {}, ratio {:.3} [{:.3}, {:.3}] (95%, bootstrap over cases){}",
        g.game,
        g.engine,
        g.pairs,
        human_time(g.old_total_ns),
        human_time(g.new_total_ns),
        g.ratio,
        g.interval.0,
        g.interval.1,
        match g.total {
            Some(Direction::Slower) => ": SLOWER",
            Some(Direction::Faster) => ": faster",
            None => "",
        }
    );
    if g.percentiles.len() == super::PERCENTILES.len() {
        let parts: Vec<String> = super::PERCENTILES
            .iter()
            .zip(&g.percentiles)
            .map(|(q, r)| format!("p{:.0} {r:.3}", q * 100.0))
            .collect();
        let _ = writeln!(out, "  per-case ratio: {}", parts.join(", "));
    }
    let source = match g.noise.source {
        NoiseSource::Given => "--noise".to_string(),
        NoiseSource::Cases { cases, z } => {
            format!("{z:.2} x the spread of {cases} cases' ratios around their neighbours'")
        }
        NoiseSource::Repeats(n) => format!("the repeat spread of {n} cases"),
        NoiseSource::Default => "the default".to_string(),
    };
    let shared = match g.drift {
        None => "--noise",
        Some(d) if d.floor >= super::SHARED_NOISE => "the drift between the runs",
        Some(_) => "the default",
    };
    let slower = g.slower().count();
    let faster = g.changes.len() - slower;
    let _ = writeln!(
        out,
        "  noise: {:.1}% per case (from {source}), {:.1}% shared (from {shared}); beyond it: {slower} slower, {faster} faster",
        g.noise.threshold * 100.0,
        g.noise.shared * 100.0,
    );
    if let Some(d) = &g.drift {
        drift(out, g, d);
    }
    for s in g.shifts.iter().take(MAX_LISTED) {
        let what = match &s.scope {
            Scope::Everything => "every case".to_string(),
            Scope::File(file) => format!("every case of {file}"),
            Scope::Stretch(a, i, b, j) if a == b => format!("{a} cases {i} to {j}"),
            Scope::Stretch(a, i, b, j) => format!("{a} case {i} to {b} case {j}"),
        };
        let verdict = match (&s.scope, s.beyond) {
            (Scope::Everything, _) => " (the total's interval decides)",
            (_, Some(Direction::Slower)) => ": SLOWER beyond the shared noise",
            (_, Some(Direction::Faster)) => ": faster beyond the shared noise",
            (_, None) => " (within the shared noise)",
        };
        let _ = writeln!(
            out,
            "  together: {what} moved by x{:.2} ({} cases){verdict}",
            s.ratio, s.cases
        );
    }
    if g.shifts.len() > MAX_LISTED {
        let _ = writeln!(out, "  ... and {} more", g.shifts.len() - MAX_LISTED);
    }
    for direction in [Direction::Slower, Direction::Faster] {
        let cases: Vec<_> = g
            .changes
            .iter()
            .filter(|c| c.direction == direction)
            .collect();
        for c in cases.iter().take(MAX_LISTED) {
            let label = if c.label.is_empty() {
                String::new()
            } else {
                format!(" {}", c.label)
            };
            let _ = writeln!(
                out,
                "  {}: {} case {}{label}: {} -> {} (x{:.2})",
                if direction == Direction::Slower {
                    "SLOWER"
                } else {
                    "faster"
                },
                c.file,
                c.case,
                human_time(c.old_ns),
                human_time(c.new_ns),
                c.ratio()
            );
        }
        if cases.len() > MAX_LISTED {
            let _ = writeln!(out, "  ... and {} more", cases.len() - MAX_LISTED);
        }
    }
}

/// The drift line: the floor of a change of the whole run, and what in the runs set it.
fn drift(out: &mut String, g: &Group, d: &super::Drift) {
    let mut from = Vec::new();
    if let Some(f) = d.files {
        from.push(format!(
            "{} files' shifts x{:.3} to x{:.3}: {:.1}%",
            f.files,
            f.low,
            f.high,
            f.drift * 100.0
        ));
    }
    if let Some(r) = d.repeats {
        from.push(format!(
            "repeated runs of {} cases spread {:.1}% (old) and {:.1}% (new): {:.1}%",
            r.cases,
            r.old * 100.0,
            r.new * 100.0,
            r.drift * 100.0
        ));
    }
    if let Some(s) = d.startup {
        from.push(format!(
            "the programs' start-up x{s:.3}: {:.1}%",
            (s.ln().abs().exp() - 1.0) * 100.0
        ));
    }
    let source = if d.unmeasured() {
        "nothing in the runs measures their drift (one run of each case, fewer than 3 files, no start-up in the metadata): the default".to_string()
    } else {
        from.join("; ")
    };
    let status = match g.total {
        Some(Direction::Slower) => "beyond it: SLOWER",
        Some(Direction::Faster) => "beyond it: faster",
        None if g.cannot_tell() => "the total's interval reaches past it",
        None => "the total's interval is within it",
    };
    let _ = writeln!(
        out,
        "  drift between the runs: cannot tell below {:.1}% ({source}); {status}",
        d.floor * 100.0
    );
}
