//! How a long command (`run`, `gen`) shows its progress on stderr: an indicatif bar on a
//! terminal, or, where stderr is a log (Slurm, CI), a plain line every [`PLAIN_INTERVAL`].
//! Both count files, and the finer work done inside them when the command has any (`run`:
//! cases x engines x runs), with a rate and an estimate of the time left.
//!
//! With a unit, the bar counts that unit as the workers finish it (not as files are retired),
//! so one slow file still moves the bar case by case. Its length is the count of a pass over
//! the inputs ahead of the workers ([`Counted`], filled by the caller); until that pass ends
//! the bar says `at least N` (the larger of what it counted and what the workers listed), never
//! a guess.
//!
//! The time left is not the units left at the rate of units so far: a run's results cost
//! anything from a microsecond to seconds, by game and engine, and the scheduler takes the
//! files in order, so the first units say nothing of the rest (a corpus whose slow engine runs
//! first was estimated at 23 min for 3.6). Each unit is weighed by its class (a game's
//! engine): the units left of a class, as the pass ahead counted them, times the mean time
//! the workers measured on that class's finished units, over the workers ([`Estimate`]).
//! No estimate is shown while a class has started without a finished unit (its cost is being
//! spent and is unknown), nor before [`MIN_RATE_TIME`]; once shown it stays. While a class
//! with units left has none measured, or the count is not complete, it is a lower bound
//! (`eta ≥`).
//!
//! The bar line fits the terminal: its fixed part is short and the message is cut at the
//! terminal's width, so it never wraps (a wrapped line leaves stale copies). The bar is
//! coloured on a terminal, as cargo's is; not when `NO_COLOR` is set (and no bar is drawn when
//! stderr is not a terminal).
//!
//! A [`Progress`] is shared by the worker threads: every counter is atomic, and the plain line
//! is printed by whichever thread first notices it is due, so no thread waits for another.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often the plain progress line is printed.
pub const PLAIN_INTERVAL: Duration = Duration::from_secs(10);

/// The progress display the user asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ProgressMode {
    /// A bar when stderr is a terminal, plain lines otherwise.
    #[default]
    Auto,
    /// A bar redrawn in place.
    Bar,
    /// A line every 10 seconds, for logs.
    Plain,
    /// Nothing.
    None,
}

/// The display of one command.
pub struct Progress {
    bar: ProgressBar,
    plain: bool,
    /// The command's name, which starts each plain line (`gamebench run:`).
    command: &'static str,
    /// What the fine counter counts (`cases x engines`), or `None` when only files count.
    unit: Option<&'static str>,
    files: usize,
    start: Instant,
    last_line: Mutex<Instant>,
    files_done: AtomicUsize,
    units_done: AtomicUsize,
    /// Units finished by the workers inside files not yet retired (the plain line shows the
    /// larger of this and the retired count, so a slow file still shows movement), and what
    /// each class of them cost.
    pub finished: std::sync::Arc<Finished>,
    /// Units listed in the files (or chunks) opened so far, and how many files were opened.
    pub planned: std::sync::Arc<Planned>,
    /// Units counted by the pass ahead of the workers.
    pub counted: std::sync::Arc<Counted>,
    /// Timed runs per unit (each unit of `run` is a case and engine, timed this many times).
    runs: usize,
    /// Worker threads sharing the work (the estimate divides the work left among them).
    threads: usize,
    /// The time left was shown once (it stays shown).
    estimating: AtomicBool,
}

/// A class of units: one engine on one game's cases (units of a class cost alike for their
/// size, those of two classes may differ a million times).
type Classes<T> = HashMap<&'static str, HashMap<String, T>>;

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
struct Spent {
    /// Tasks of the class solving its units now.
    running: usize,
    /// Finished, and their measured time in nanoseconds.
    done: Amount,
    nanos: u128,
    /// The last news of the class: its last finished units, or the start of its tasks.
    heard: Option<Instant>,
}

/// Units the workers finished, and per class how many, their weight and measured time.
#[derive(Debug, Default)]
pub struct Finished {
    units: AtomicUsize,
    classes: Mutex<Classes<Spent>>,
}

impl Finished {
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

    fn units(&self) -> usize {
        self.units.load(Ordering::Relaxed)
    }
}

/// The entry of a class, made on first use (the engine's name copied once).
fn class_of<'a, T: Default>(
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
fn estimate(
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
    units: AtomicUsize,
    files: AtomicUsize,
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
    units: AtomicUsize,
    /// Per class, the units counted (added a file, or a batch, at a time).
    classes: Mutex<Classes<Amount>>,
    complete: AtomicBool,
    stop: AtomicBool,
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
    fn get(&self) -> (usize, bool) {
        let complete = self.complete.load(Ordering::Acquire);
        (self.units.load(Ordering::Relaxed), complete)
    }
}

/// How often the bar is redrawn even when nothing finished (its clock and rate).
const BAR_TICK: Duration = Duration::from_millis(250);
/// Width of the bar itself, in columns: with the clock, the line's fixed part is 30 columns,
/// so the counts fit beside it at 60 columns; the message is cut at the terminal's width.
const BAR_COLUMNS: usize = 20;
/// Least time measured before the rate gives an estimate of the time left.
const MIN_RATE_TIME: Duration = Duration::from_millis(500);

impl Progress {
    /// A display for `files` files; `unit` names the finer work counted inside them, if any.
    pub fn new(
        mode: ProgressMode,
        command: &'static str,
        files: usize,
        unit: Option<&'static str>,
    ) -> Progress {
        let mode = match mode {
            ProgressMode::Auto if std::io::stderr().is_terminal() => ProgressMode::Bar,
            ProgressMode::Auto => ProgressMode::Plain,
            other => other,
        };
        let bar = if mode == ProgressMode::Bar {
            ProgressBar::with_draw_target(Some(files as u64), ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        // Colours are dropped by indicatif when stderr is no colour terminal or NO_COLOR is
        // set; `{wide_msg}` is cut at the terminal's width, so the line never wraps.
        let template =
            format!("{{elapsed_precise}} {{bar:{BAR_COLUMNS}.green/black}} {{wide_msg}}");
        bar.set_style(
            ProgressStyle::with_template(&template)
                .expect("valid template")
                .progress_chars("━╸─"),
        );
        if mode == ProgressMode::Bar {
            bar.enable_steady_tick(BAR_TICK);
            if unit.is_some() {
                bar.set_length(0);
            }
        }
        let now = Instant::now();
        Progress {
            bar,
            plain: mode == ProgressMode::Plain,
            command,
            unit,
            files,
            start: now,
            last_line: Mutex::new(now),
            files_done: AtomicUsize::new(0),
            units_done: AtomicUsize::new(0),
            finished: Default::default(),
            planned: Default::default(),
            counted: Default::default(),
            runs: 1,
            threads: 1,
            estimating: AtomicBool::new(false),
        }
    }

    /// The work is shared by `threads` worker threads.
    pub fn with_threads(mut self, threads: usize) -> Progress {
        self.threads = threads.max(1);
        self
    }

    /// Each unit is timed `runs` times: the bar counts (unit, run) pairs.
    pub fn with_runs(mut self, runs: u32) -> Progress {
        self.runs = runs.max(1) as usize;
        self
    }

    /// Runs `f` (which prints to stderr) without tearing the bar.
    pub fn suspend<T>(&self, f: impl FnOnce() -> T) -> T {
        self.bar.suspend(f)
    }

    /// Whether a bar is drawn: a pass counting the units ahead is worth its reading only
    /// then (the plain line of a log counts files).
    pub fn draws_bar(&self) -> bool {
        !self.bar.is_hidden()
    }

    /// A file was finished, holding `units` of the finer work.
    pub fn file_done(&self, units: usize) {
        self.files_done.fetch_add(1, Ordering::Relaxed);
        self.units_done.fetch_add(units, Ordering::Relaxed);
        self.tick();
    }

    /// Units finished so far: by the workers, or retired, whichever is ahead.
    fn units(&self) -> usize {
        self.units_done
            .load(Ordering::Relaxed)
            .max(self.finished.units())
    }

    /// The units of the whole command and whether that is exact: the count of the pass ahead
    /// once it finished (or every file was opened), else the most any source knows, a lower
    /// bound. Never less than those finished.
    fn units_total(&self) -> (usize, bool) {
        let (counted, complete) = self.counted.get();
        let listed = self.planned.units.load(Ordering::Relaxed);
        let all_opened = self.planned.files.load(Ordering::Relaxed) >= self.files;
        let done = self.units();
        if complete {
            (counted.max(done), true)
        } else if all_opened {
            (listed.max(done), true)
        } else {
            (counted.max(listed).max(done), false)
        }
    }

    /// The bar's message: done / total (or `of at least N`), the share, the time left at the
    /// rate measured so far, the rate, then what is counted and the files (cut first when
    /// the terminal is narrow).
    fn bar_message(&self, unit: &str) -> String {
        let runs = self.runs;
        let (total, exact) = self.units_total();
        let (done, total) = (self.units() * runs, total * runs);
        let elapsed = self.start.elapsed();
        let of = if exact {
            format!("{}/{}", thousands(done), thousands(total))
        } else {
            format!("{} of at least {}", thousands(done), thousands(total))
        };
        let share = 100.0 * done as f64 / total.max(1) as f64;
        let rate = done as f64 / elapsed.as_secs_f64().max(f64::MIN_POSITIVE);
        let eta = match self.estimate() {
            Some(left) if done > 0 && elapsed >= MIN_RATE_TIME => {
                if left.blind && !self.estimating.load(Ordering::Relaxed) {
                    String::new()
                } else {
                    self.estimating.store(true, Ordering::Relaxed);
                    let at_least = if left.lower_bound { "≥ " } else { "" };
                    let left = Duration::from_secs_f64(left.seconds.max(0.0));
                    format!(", eta {at_least}{}", short_duration(left))
                }
            }
            _ => String::new(),
        };
        format!(
            "{of} ({share:.0}%){eta}, {}/s {unit}{}, {}/{} {}",
            thousands(rate.round() as usize),
            if runs > 1 { " x runs" } else { "" },
            self.files_done.load(Ordering::Relaxed),
            self.files,
            plural(self.files, "file", "files")
        )
    }

    /// The time left by the classes' measured costs (`None` until the pass ahead counted
    /// anything).
    fn estimate(&self) -> Option<Estimate> {
        let complete = self.counted.get().1;
        let counted = self
            .counted
            .classes
            .lock()
            .expect("no thread panics holding it");
        if counted.is_empty() {
            return None;
        }
        let finished = self
            .finished
            .classes
            .lock()
            .expect("no thread panics holding it");
        Some(estimate(
            &counted,
            complete,
            &finished,
            self.threads,
            Instant::now(),
        ))
    }

    /// Updates the bar from the counters, and prints the plain line when it is due. Called by
    /// the calling thread whenever it wakes (at least every few tens of milliseconds).
    pub fn tick(&self) {
        if !self.bar.is_hidden() {
            match self.unit {
                Some(unit) => {
                    let (total, _) = self.units_total();
                    self.bar.set_length((total * self.runs) as u64);
                    self.bar.set_position((self.units() * self.runs) as u64);
                    self.bar.set_message(self.bar_message(unit));
                }
                None => {
                    let done = self.files_done.load(Ordering::Relaxed);
                    self.bar.set_position(done as u64);
                    self.bar.set_message(format!(
                        "{done}/{} {}",
                        self.files,
                        plural(self.files, "file", "files")
                    ));
                }
            }
        }
        if !self.plain {
            return;
        }
        {
            let Ok(mut last) = self.last_line.try_lock() else {
                return; // another thread is printing it
            };
            if last.elapsed() < PLAIN_INTERVAL {
                return;
            }
            *last = Instant::now();
        }
        eprintln!("{}", self.line());
    }

    fn line(&self) -> String {
        let (done, total) = (self.files_done.load(Ordering::Relaxed), self.files);
        let elapsed = self.start.elapsed().as_secs_f64();
        let rate = done as f64 / elapsed.max(f64::MIN_POSITIVE);
        let eta = if done > 0 && rate > 0.0 {
            format!(", eta {:.0} s", total.saturating_sub(done) as f64 / rate)
        } else {
            String::new()
        };
        let units = match self.unit {
            Some(unit) => format!(", {} {unit} done", self.units()),
            None => String::new(),
        };
        format!(
            "gamebench {}: {done}/{total} files ({:.0}%){units}, {rate:.1} files/s, {elapsed:.0} s{eta}",
            self.command,
            100.0 * done as f64 / total.max(1) as f64,
        )
    }

    pub fn finish(&self) {
        self.counted.stop.store(true, Ordering::Relaxed);
        self.bar.finish_and_clear();
    }
}

/// `n` with thousands separators (`1,652`): [`super::units::thousands`].
fn thousands(n: usize) -> String {
    super::units::thousands(n as u64)
}

/// A time left in whole units: `42 s`, `3 min 5 s`, `2 h 10 min`.
fn short_duration(d: Duration) -> String {
    const MINUTE: u64 = 60;
    const HOUR: u64 = 60 * MINUTE;
    let s = d.as_secs_f64().ceil() as u64;
    if s < MINUTE {
        format!("{s} s")
    } else if s < HOUR {
        format!("{} min {} s", s / MINUTE, s % MINUTE)
    } else {
        format!("{} h {} min", s / HOUR, (s % HOUR) / MINUTE)
    }
}

/// `one` or `many`, as `count` asks.
fn plural(count: usize, one: &'static str, many: &'static str) -> &'static str {
    if count == 1 { one } else { many }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plain_line_counts_files_and_cases() {
        let progress = Progress::new(ProgressMode::None, "run", 4, Some("cases x engines"));
        progress.file_done(30);
        progress.file_done(30);
        let line = progress.line();
        assert!(line.starts_with("gamebench run: 2/4 files (50%)"), "{line}");
        assert!(line.contains("60 cases x engines done"), "{line}");
        assert!(line.contains("eta"), "{line}");
    }

    #[test]
    fn the_total_is_at_least_what_is_known_until_counted() {
        let progress = Progress::new(ProgressMode::None, "run", 4, Some("cases x engines"));
        assert_eq!(progress.units_total(), (0, false));
        progress.planned.add(true, 30);
        assert_eq!(
            progress.units_total(),
            (30, false),
            "no guess from one file"
        );
        progress.counted.add(100);
        assert_eq!(progress.units_total(), (100, false));
        progress.counted.add(20);
        progress.counted.finish();
        assert_eq!(progress.units_total(), (120, true));
        progress.finished.add("yut", "table", amount(500, 500), 0);
        assert_eq!(
            progress.units_total(),
            (500, true),
            "never below what finished"
        );
        // Every file opened: what the workers listed is the whole.
        let progress = Progress::new(ProgressMode::None, "run", 2, Some("cases x engines"));
        progress.planned.add(true, 7);
        progress.planned.add(true, 5);
        assert_eq!(progress.units_total(), (12, true));
    }

    #[test]
    fn the_message_says_at_least_until_the_count_is_complete() {
        let progress = Progress::new(ProgressMode::None, "run", 3, Some("cases x engines"));
        progress.counted.add(1_080);
        let message = progress.bar_message("cases x engines");
        assert!(
            message.starts_with("0 of at least 1,080 (0%), 0/s"),
            "{message}"
        );
        progress.counted.add(572);
        progress.counted.finish();
        let message = progress.bar_message("cases x engines");
        assert!(message.starts_with("0/1,652 (0%)"), "{message}");
        assert!(message.ends_with("cases x engines, 0/3 files"), "{message}");
    }

    fn amount(units: usize, weight: u64) -> Amount {
        Amount { units, weight }
    }

    /// The corpus of the measurement in docs/run.md, as its first seconds see it: Link and
    /// Pop's slow reference engine first (two tiny cases of 25 cells and 60 of 900), Vexed
    /// not reached yet.
    fn corpus_counted() -> Progress {
        let progress =
            Progress::new(ProgressMode::None, "run", 122, Some("cases x engines")).with_threads(2);
        for (game, engines, counted) in [
            (
                "linkpop",
                ["reference", "bitboard"],
                amount(62, 2 * 25 + 60 * 900),
            ),
            ("vexed", ["reference", "bitset"], amount(332, 332 * 64)),
        ] {
            for engine in engines {
                progress.counted.add(counted.units);
                progress.counted.add_class(game, engine, counted);
            }
        }
        progress.counted.finish();
        progress
    }

    #[test]
    fn each_class_weighs_its_cases_by_their_cells_at_its_own_measured_time() {
        let progress = corpus_counted();
        // The fast engine's results, the slow one's two tiny cases (no time to speak of) and
        // one large one of 5 s: 59 x 900 cells left at 5 s / 950 cells on 2 threads, and a
        // game not measured at all (so a lower bound).
        progress.finished.add(
            "linkpop",
            "bitboard",
            amount(62, 2 * 25 + 60 * 900),
            360_000_000,
        );
        progress
            .finished
            .add("linkpop", "reference", amount(2, 50), 0);
        progress
            .finished
            .add("linkpop", "reference", amount(1, 900), 5_000_000_000);
        let left = progress.estimate().expect("counted");
        let slow = 59.0 * 900.0 * 5.0 / 950.0 / 2.0;
        assert!((left.seconds - slow).abs() < 1e-9, "{left:?}");
        assert!(left.lower_bound && !left.blind, "{left:?}");
        // Every class measured: plus 331 cases of 64 cells at 0.1 s and at 1 ms, on 2 threads.
        progress
            .finished
            .add("vexed", "reference", amount(1, 64), 100_000_000);
        progress
            .finished
            .add("vexed", "bitset", amount(1, 64), 1_000_000);
        let left = progress.estimate().expect("counted");
        assert!(!left.lower_bound && !left.blind, "{left:?}");
        let expected = slow + (331.0 * 0.1 + 331.0 * 0.001) / 2.0;
        assert!((left.seconds - expected).abs() < 1e-9, "{left:?}");
    }

    #[test]
    fn no_time_left_is_shown_while_a_running_class_is_silent_beyond_its_measurements() {
        let progress = corpus_counted();
        // The fast engine's results and the slow one's tiny cases are in; its large cases
        // run on both threads: the rate of results so far would promise the end in seconds.
        progress.finished.start("linkpop", "bitboard");
        progress.finished.add(
            "linkpop",
            "bitboard",
            amount(62, 2 * 25 + 60 * 900),
            360_000_000,
        );
        progress.finished.end("linkpop", "bitboard");
        progress.finished.start("linkpop", "reference");
        progress.finished.start("linkpop", "reference");
        progress
            .finished
            .add("linkpop", "reference", amount(2, 50), 2_000);
        std::thread::sleep(MIN_RATE_TIME + Duration::from_millis(100));
        assert!(progress.estimate().expect("counted").blind);
        let message = progress.bar_message("cases x engines");
        assert!(!message.contains("eta"), "{message}");
        // A large case finished: 59 x 900 cells left at 5 s / 950 cells on 2 threads.
        progress
            .finished
            .add("linkpop", "reference", amount(1, 900), 5_000_000_000);
        let message = progress.bar_message("cases x engines");
        assert!(message.contains("eta ≥ 2 min 20 s"), "{message}");
        // Once shown it stays, through a later class's silence.
        progress.finished.start("vexed", "reference");
        std::thread::sleep(MIN_RATE_TIME + Duration::from_millis(100));
        assert!(progress.estimate().expect("counted").blind);
        let message = progress.bar_message("cases x engines");
        assert!(message.contains("eta ≥ 2 min 20 s"), "{message}");
    }

    #[test]
    fn counts_and_times_are_short() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_652), "1,652");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(short_duration(Duration::from_millis(41_200)), "42 s");
        assert_eq!(short_duration(Duration::from_secs(185)), "3 min 5 s");
        assert_eq!(short_duration(Duration::from_secs(7_800)), "2 h 10 min");
    }

    #[test]
    fn a_command_without_units_counts_files_only() {
        let progress = Progress::new(ProgressMode::None, "gen", 10, None);
        progress.file_done(1);
        let line = progress.line();
        assert!(
            line.starts_with("gamebench gen: 1/10 files (10%), "),
            "{line}"
        );
        assert!(!line.contains("cases"), "{line}");
    }

    #[test]
    fn workers_on_several_threads_are_all_counted() {
        let progress = Progress::new(ProgressMode::None, "gen", 400, None);
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| (0..100).for_each(|_| progress.file_done(1)));
            }
        });
        assert!(progress.line().contains("400/400 files (100%)"));
    }
}
