//! What is taken out of each engine's figures before the ratios of an interleaved comparison:
//! its start-up. Under CPU time each program's runs on its game's input of no case are timed
//! among the rounds ([`probes`], [`super::EMPTY_RUNS`] a round) and pooled by their median,
//! drawn again in each bootstrap resample ([`Offsets::draw`]); under instructions each engine's
//! start-up is counted before the rounds ([`calibrate`]: the counts repeat).

use std::sync::Arc;

use super::{DuetError, Loaded, Measure, Options, STARTUP_COUNTS, Unit, instructions, paired};
use crate::engines::{EngineSpec, Startup, startup};
use crate::game::Game;
use crate::util::stats::SplitMix;

/// The calibrated start-ups of programs, per game and engine.
pub(super) struct Startups(Vec<(&'static str, usize, Startup)>);

impl Startups {
    fn get(&self, game: &str, engine: usize) -> Option<Startup> {
        self.0
            .iter()
            .find(|(g, e, _)| *g == game && *e == engine)
            .map(|(_, _, s)| *s)
    }
}

/// What is taken out of each engine's figures before the ratios: counted start-ups calibrated
/// before the rounds (instructions repeat exactly), and runs on an input of no case timed among
/// the rounds (CPU time), per game and engine. A wall time's start-up moves with the load, and
/// work counts have none: nothing is taken out of them.
pub(super) struct Offsets {
    pub(super) fixed: Startups,
    pub(super) sampled: Vec<(&'static str, usize, Vec<u64>)>,
}

impl Offsets {
    pub(super) fn push(&mut self, game: &'static dyn Game, engine: usize, cpu_ns: u64) {
        let name = game.name();
        match self
            .sampled
            .iter_mut()
            .find(|(g, e, _)| *g == name && *e == engine)
        {
            Some((_, _, runs)) => runs.push(cpu_ns),
            None => self.sampled.push((name, engine, vec![cpu_ns])),
        }
    }

    /// The start-up of `engine` on `game`'s files, if one is taken out.
    pub(super) fn startup(&self, game: &str, engine: usize) -> Option<Startup> {
        self.fixed.get(game, engine).or_else(|| {
            self.sampled
                .iter()
                .find(|(g, e, _)| *g == game && *e == engine)
                .and_then(|(_, _, runs)| startup::median_of(runs))
        })
    }

    /// The figure taken out of `engine`'s on `game`'s files (0: none).
    pub(super) fn point(&self, game: &str, engine: usize) -> u64 {
        self.startup(game, engine).map_or(0, |s| s.cpu_ns)
    }

    /// A bootstrap replicate: each sampled start-up's median drawn again from its runs; `None`
    /// when nothing was sampled (the figures are fixed).
    pub(super) fn draw(&self, rng: &mut SplitMix) -> Option<Offsets> {
        if self.sampled.is_empty() {
            return None;
        }
        let fixed = self
            .sampled
            .iter()
            .map(|(g, e, runs)| {
                let median = paired::resampled_median(runs, rng);
                let s = Startup {
                    cpu_ns: median,
                    noise_ns: 0,
                    runs: runs.len() as u32,
                };
                (*g, *e, s)
            })
            .chain(self.fixed.0.iter().copied())
            .collect();
        Some(Offsets {
            fixed: Startups(fixed),
            sampled: Vec::new(),
        })
    }
}

/// A game's input of no case, on which each program's start-up is timed among the rounds.
pub(super) struct Probe {
    pub(super) game: &'static dyn Game,
    pub(super) input: Vec<u8>,
    pub(super) engines: Arc<[EngineSpec]>,
}

/// The inputs of no case to time among the rounds: one per game, under CPU time when a program
/// is among the engines (none otherwise).
pub(super) fn probes(loaded: &[Loaded], measure: Measure) -> Vec<Probe> {
    let mut out: Vec<Probe> = Vec::new();
    if measure != Measure::Cpu {
        return out;
    }
    for file in loaded {
        let known = out.iter().any(|p| p.game.name() == file.game.name());
        if !known && file.engines.iter().any(|e| e.is_program()) {
            out.push(Probe {
                game: file.game,
                input: startup::empty_input(file.game).into_bytes(),
                engines: file.engines.clone(),
            });
        }
    }
    out
}

/// Every counted engine's start-up under instructions, calibrated before the rounds (the
/// counts repeat, so a burst of runs is as good as any).
pub(super) fn calibrate(
    loaded: &[Loaded],
    options: &Options,
    counter: Option<&instructions::Counter>,
) -> Result<Startups, DuetError> {
    let mut out = Startups(Vec::new());
    if options.measure != Measure::Instructions {
        return Ok(out);
    }
    let limits = options.limits.run(options.limits.timeout);
    for file in loaded {
        let game = file.game.name();
        for (e, spec) in file.engines.iter().enumerate() {
            if out.get(game, e).is_some() {
                continue;
            }
            let empty = startup::empty_input(file.game);
            let s = match counter {
                Some(c) => {
                    let mut counts = (0..STARTUP_COUNTS)
                        .map(|_| c.count(file.game, spec, empty.as_bytes(), &limits, true))
                        .collect::<Result<Vec<u64>, _>>()?;
                    counts.sort_unstable();
                    Startup {
                        cpu_ns: counts[0],
                        noise_ns: counts[counts.len() - 1] - counts[0],
                        runs: STARTUP_COUNTS,
                    }
                }
                None => continue,
            };
            out.0.push((game, e, s));
        }
    }
    Ok(out)
}

/// Times whose start-up is at least the time itself: after taking it out nothing is left.
pub(super) fn count_within(
    times: &[Vec<Vec<u64>>],
    units: &[Unit],
    loaded: &[Loaded],
    offsets: &Offsets,
) -> usize {
    let mut n = 0;
    for (u, t) in times.iter().enumerate() {
        let game = loaded[units[u].file].game.name();
        for (e, rounds) in t.iter().enumerate() {
            if let Some(s) = offsets.startup(game, e) {
                n += rounds.iter().filter(|&&x| s.take_out(x) == 0).count();
            }
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::super::{Unit, Verdict, compare};
    use super::*;

    /// A sampled start-up per engine of the first game: old's runs `old`, new's `new`.
    fn sampled(old: &[u64], new: &[u64]) -> (Offsets, &'static str) {
        let game = crate::registry::GAMES[0];
        let mut offsets = Offsets {
            fixed: Startups(Vec::new()),
            sampled: Vec::new(),
        };
        for (e, runs) in [old, new].into_iter().enumerate() {
            for &t in runs {
                offsets.push(game, e, t);
            }
        }
        (offsets, game.name())
    }

    #[test]
    fn runs_among_the_rounds_are_pooled_by_their_median_and_drawn_again() {
        let (offsets, game) = sampled(&[1_100, 900, 1_000], &[3_000]);
        assert_eq!(offsets.point(game, 0), 1_000);
        assert_eq!(offsets.point(game, 1), 3_000);
        assert_eq!(
            offsets.point(game, 2),
            0,
            "nothing taken out of an engine not sampled"
        );
        assert_eq!(offsets.startup(game, 0).unwrap().runs, 3);
        let mut rng = SplitMix(5);
        for _ in 0..20 {
            let drawn = offsets.draw(&mut rng).unwrap();
            assert!([900, 1_000, 1_100].contains(&drawn.point(game, 0)));
            assert_eq!(drawn.point(game, 1), 3_000);
        }
        let (none, _) = sampled(&[], &[]);
        assert!(none.draw(&mut rng).is_none(), "fixed figures: no replicate");
    }

    #[test]
    fn each_engines_own_start_up_is_taken_out_and_its_uncertainty_widens_the_interval() {
        // old: a start-up of about 1 µs and 10 µs of work; new: about 3 µs and 11 µs, in
        // every pair of 3 files x 4 rounds. Taken out at the medians (1,000 and 3,000 ns),
        // every ratio is 11 / 10: x1.1 exactly. The interval reaches as far as the samples'
        // extremes move it, no further: (14,000 - 3,100) / (11,000 - 900) to
        // (14,000 - 2,900) / (11,000 - 1,100).
        let (offsets, _) = sampled(&[900, 1_000, 1_100], &[2_900, 3_000, 3_100]);
        let loaded: Vec<Loaded> = (0..3)
            .map(|i| Loaded {
                name: format!("f{i}"),
                game: crate::registry::GAMES[0],
                bytes: Vec::new(),
                cases: Vec::new(),
                engines: Arc::from(Vec::new()),
            })
            .collect();
        let units: Vec<Unit> = (0..3).map(|file| Unit { file, case: None }).collect();
        let times = vec![vec![vec![11_000; 4], vec![14_000; 4]]; 3];
        let names = ["old".to_string(), "new".to_string()];
        let r = &compare(&times, &units, &loaded, &offsets, &names, 0, (0.03, 1))[0];
        let e = r.effect;
        assert!((e.ratio - 1.1).abs() < 1e-12, "{e:?}");
        assert!(e.low < 1.1 - 1e-3 && e.high > 1.1 + 1e-3, "{e:?}");
        assert!(e.low >= 10_900.0 / 10_100.0 - 1e-12, "{e:?}");
        assert!(e.high <= 11_100.0 / 9_900.0 + 1e-12, "{e:?}");
        assert_eq!(e.pairs, 12);
        assert_eq!(r.verdict, Verdict::Slower);
        // Each engine's start-up counts, not one for both: with old's taken out of both,
        // the ratio would be 13,000 / 10,000.
        assert!(e.high < 1.3);
    }
}
