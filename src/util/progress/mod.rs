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

use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

mod estimate;

use estimate::estimate;
pub use estimate::{Amount, Counted, Estimate, Finished, Planned};

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
            finished: std::sync::Arc::new(Finished {
                read: mode != ProgressMode::None,
                ..Finished::default()
            }),
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
mod tests;
