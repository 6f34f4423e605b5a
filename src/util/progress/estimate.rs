//! The estimate of the time left behind the progress display (see the parent module's doc):
//! units counted and weighed by class (a game's engine) and size, the time the workers spent
//! on each class, and the time left those give.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::MIN_RATE_TIME;

/// A class of units: one engine on one game's cases (units of a class cost alike for their
/// size, those of two classes may differ a million times).
pub(super) type Classes<T> = HashMap<&'static str, HashMap<String, T>>;

/// Units of a class and their weight: the sum of their cases' cells (1 for a case without a
/// board), so that a class's few tiny cases do not stand for its large ones.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Amount {
    pub units: usize,
    pub weight: u64,
}

impl Amount {
    /// The weight of a case of `cells` cells (`None`: no board).
    pub fn weight_of(cells: Option<u64>) -> u64 {
        cells.unwrap_or(1).max(1)
    }
}

/// What the workers did in one class.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Spent {
    /// Tasks of the class solving its units now.
    pub(super) running: usize,
    /// Finished, and their measured time in nanoseconds.
    pub(super) done: Amount,
    pub(super) nanos: u128,
    /// The last news of the class: its last finished units, or the start of its tasks.
    pub(super) heard: Option<Instant>,
}

/// Units the workers finished, and per class how many, their weight and measured time.
#[derive(Debug, Default)]
pub struct Finished {
    pub(super) units: AtomicUsize,
    pub(super) classes: Mutex<Classes<Spent>>,
    /// A display reads these counts (else the workers need not keep them).
    pub(super) read: bool,
}

impl Finished {
    /// Whether a display reads these counts: when none does (`--progress none`, `--quiet`),
    /// the workers skip their accounting, a visible part of a tiny case's cost.
    pub fn is_read(&self) -> bool {
        self.read
    }

    /// A task of engine `engine` on `game` starts solving some of its units.
    pub fn start(&self, game: &'static str, engine: &str) {
        let mut classes = self.classes.lock().expect("no thread panics holding it");
        let spent = class_of(&mut classes, game, engine);
        if spent.running == 0 {
            spent.heard = Some(Instant::now());
        }
        spent.running += 1;
    }

    /// A task of engine `engine` on `game` ended.
    pub fn end(&self, game: &'static str, engine: &str) {
        let mut classes = self.classes.lock().expect("no thread panics holding it");
        let spent = class_of(&mut classes, game, engine);
        spent.running = spent.running.saturating_sub(1);
    }

    /// Units of engine `engine` on `game` finished, measured at `nanos` together.
    pub fn add(&self, game: &'static str, engine: &str, done: Amount, nanos: u128) {
        self.units.fetch_add(done.units, Ordering::Relaxed);
        let mut classes = self.classes.lock().expect("no thread panics holding it");
        let spent = class_of(&mut classes, game, engine);
        spent.done.units += done.units;
        spent.done.weight += done.weight;
        spent.nanos += nanos;
        spent.heard = Some(Instant::now());
    }

    pub(super) fn units(&self) -> usize {
        self.units.load(Ordering::Relaxed)
    }
}

/// The entry of a class, made on first use (the engine's name copied once).
pub(super) fn class_of<'a, T: Default>(
    classes: &'a mut Classes<T>,
    game: &'static str,
    engine: &str,
) -> &'a mut T {
    let engines = classes.entry(game).or_default();
    if !engines.contains_key(engine) {
        engines.insert(engine.to_owned(), T::default());
    }
    engines.get_mut(engine).expect("inserted above")
}

/// A running class silent for this many times its mean time per unit is measured wrong:
/// what it finished so far was cheaper than what it solves now.
const SILENCE_FACTOR: f64 = 4.0;

/// The time left as the classes' costs give it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// Seconds of the units left, over the workers.
    pub seconds: f64,
    /// Some units left are not in it (a class not measured yet, or the count not complete).
    pub lower_bound: bool,
    /// A running class has been silent longer than its measurements allow (or than
    /// [`MIN_RATE_TIME`] with none): its cost is being spent and is not known.
    pub blind: bool,
}

/// The time left at `now`: per class, the weight of its units counted and not finished times
/// its measured time per weight, summed over the classes and divided among `threads` workers.
pub(super) fn estimate(
    counted: &Classes<Amount>,
    complete: bool,
    finished: &Classes<Spent>,
    threads: usize,
    now: Instant,
) -> Estimate {
    let mut nanos = 0.0;
    let mut lower_bound = !complete;
    for (game, engines) in counted {
        for (engine, counted) in engines {
            let spent = finished
                .get(game)
                .and_then(|e| e.get(engine))
                .copied()
                .unwrap_or_default();
            if counted.units <= spent.done.units {
                continue;
            }
            let left = counted.weight.saturating_sub(spent.done.weight);
            if spent.done.units == 0 {
                lower_bound = true;
            } else {
                nanos += left as f64 * spent.nanos as f64 / spent.done.weight.max(1) as f64;
            }
        }
    }
    let blind = finished.values().flat_map(|e| e.values()).any(|spent| {
        let mean = spent.nanos as f64 / 1e9 / spent.done.units.max(1) as f64;
        let silent = spent
            .heard
            .map_or(Duration::ZERO, |heard| now.saturating_duration_since(heard));
        spent.running > 0
            && silent.as_secs_f64() > MIN_RATE_TIME.as_secs_f64().max(SILENCE_FACTOR * mean)
    });
    Estimate {
        seconds: nanos / 1e9 / threads.max(1) as f64,
        lower_bound,
        blind,
    }
}

/// What the workers have listed so far: the units of the chunks they opened, and the files
/// they opened (the first chunk of each).
#[derive(Debug, Default)]
pub struct Planned {
    pub(super) units: AtomicUsize,
    pub(super) files: AtomicUsize,
}

impl Planned {
    /// A chunk was opened holding `units` units; `first` when it is its file's first.
    pub fn add(&self, first: bool, units: usize) {
        self.units.fetch_add(units, Ordering::Relaxed);
        if first {
            self.files.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// The units of the whole command, counted ahead of the workers by a pass over the inputs;
/// exact once [`Counted::finish`] was called. [`Counted::stopped`] tells the pass to give up
/// (the command ended first).
#[derive(Debug, Default)]
pub struct Counted {
    pub(super) units: AtomicUsize,
    /// Per class, the units counted (added a file, or a batch, at a time).
    pub(super) classes: Mutex<Classes<Amount>>,
    pub(super) complete: AtomicBool,
    pub(super) stop: AtomicBool,
}

impl Counted {
    /// `units` more were counted (their classes are told by [`Counted::add_class`]).
    pub fn add(&self, units: usize) {
        self.units.fetch_add(units, Ordering::Relaxed);
    }

    /// `more` of engine `engine` on `game` were counted.
    pub fn add_class(&self, game: &'static str, engine: &str, more: Amount) {
        let mut classes = self.classes.lock().expect("no thread panics holding it");
        let amount = class_of(&mut classes, game, engine);
        amount.units += more.units;
        amount.weight += more.weight;
    }

    /// The pass counted every input.
    pub fn finish(&self) {
        self.complete.store(true, Ordering::Release);
    }

    /// Whether the command ended, so the pass need not go on.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The count so far, and whether it is the whole.
    pub(super) fn get(&self) -> (usize, bool) {
        let complete = self.complete.load(Ordering::Acquire);
        (self.units.load(Ordering::Relaxed), complete)
    }
}
