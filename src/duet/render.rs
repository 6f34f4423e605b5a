//! The text summary of an interleaved comparison: what was measured and how, each engine's
//! totals, the start-up taken out of its times, each engine's ratio against the baseline with
//! its interval and verdict, and why the rounds stopped.

use super::{EMPTY_RUNS, Measure, Options, Outcome, Rounds, Stopped, Verdict};
use crate::util::units;

/// The text summary of an outcome.
pub fn render(outcome: &Outcome, options: &Options) -> String {
    let pct = |x: f64| format!("{}%", units::sig3(x * 100.0));
    let threshold = pct(options.threshold);
    let what = if outcome.file_units { "file" } else { "case" };
    let mut text = format!(
        "interleaved: {} x {}, every ({what}, engine) once a round in a fresh random order (seed {}); {}; baseline {}\n",
        units::counted(outcome.units as u64, what, &format!("{what}s")),
        units::counted(u64::from(outcome.rounds), "round", "rounds"),
        options.seed,
        options.measure.name(),
        outcome.baseline,
    );
    let show = |x: u64| options.measure.show(x);
    if let Some(kind) = outcome.counter {
        text.push_str(&format!("  counted by {}\n", kind.describe()));
    }
    for (name, total) in &outcome.totals {
        text.push_str(&format!(
            "  {name}: {} in all, {} a round\n",
            show(*total),
            show(total / u64::from(outcome.rounds.max(1)))
        ));
    }
    text.push_str(&startup_lines(outcome, options.measure));
    for r in &outcome.results {
        let e = &r.effect;
        let could = pct(e.detectable(options.threshold));
        let said = match r.verdict {
            Verdict::Slower => format!("SLOWER by more than {threshold}"),
            Verdict::Faster => format!("faster by more than {threshold}"),
            Verdict::NoChange => format!(
                "no change beyond {threshold} (the smallest slowdown this run could have found is {could})"
            ),
            Verdict::CannotTell => format!(
                "cannot tell: the interval reaches past {threshold}; the smallest slowdown this run could have found is {could}"
            ),
        };
        text.push_str(&format!(
            "{} / {}: x{:.4} (95% interval x{:.4} to x{:.4}, {} pairs): {said}\n",
            r.engine, outcome.baseline, e.ratio, e.low, e.high, e.pairs
        ));
    }
    let elapsed = units::human_time(outcome.elapsed.as_nanos() as u64);
    text.push_str(&match (outcome.stopped, options.rounds) {
        (Stopped::Count, _) => format!("rounds: {} as asked, in {elapsed}\n", outcome.rounds),
        (Stopped::Settled, _) => format!(
            "rounds: stopped after {} ({elapsed}): every interval narrower than {threshold} and on one side of it\n",
            outcome.rounds
        ),
        (Stopped::BudgetEnded, Rounds::Budget(b)) => format!(
            "rounds: the budget of {} ended after {} rounds with an interval still wider than {threshold} or across it\n",
            units::human_time(b.as_nanos() as u64),
            outcome.rounds
        ),
        _ => format!("rounds: interrupted after {} ({elapsed})\n", outcome.rounds),
    });
    text
}

/// What was taken out of the times before the ratios (programs under CPU time), or that
/// nothing was.
fn startup_lines(outcome: &Outcome, measure: Measure) -> String {
    let names = outcome.totals.iter().map(|(n, _)| n);
    let taken: Vec<String> = names
        .zip(&outcome.startups)
        .filter_map(|(name, s)| {
            s.map(|s| {
                format!(
                    "{name} {} (noise {})",
                    measure.show(s.cpu_ns),
                    measure.show(s.noise_ns)
                )
            })
        })
        .collect();
    if taken.is_empty() {
        return String::new();
    }
    let runs = outcome
        .startups
        .iter()
        .flatten()
        .map(|s| s.runs)
        .max()
        .unwrap_or(0);
    let how = if outcome.startups_in_rounds {
        format!(
            "the median CPU time of {runs} runs on an input of no case, {EMPTY_RUNS} a round among the files, its uncertainty in the interval"
        )
    } else {
        format!(
            "the fewest {} of {runs} runs on an input of no case",
            measure.name()
        )
    };
    let mut text = format!(
        "  start-up taken out of every time before the ratios ({how}; the totals above keep it): {}\n",
        taken.join(", ")
    );
    if outcome.within_startup > 0 {
        text.push_str(&format!(
            "  {} not above the start-up: their pairs left out\n",
            units::counted(outcome.within_startup as u64, "time", "times")
        ));
    }
    text
}
