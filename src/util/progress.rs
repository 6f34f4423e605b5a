//! How a long command (`run`, `gen`) shows its progress on stderr: an indicatif bar on a
//! terminal, or, where stderr is a log (Slurm, CI), a plain line every [`PLAIN_INTERVAL`].
//! Both count files, and the finer work done inside them when the command has any (`run`:
//! cases x engines x runs), with a rate and an estimate of the time left.
//!
//! With a unit, the bar counts that unit as the workers finish it (not as files are retired),
//! so one slow file still moves the bar case by case. Its length is an estimate until every
//! file was opened: the units listed in the files opened so far, scaled to all files.
//!
//! A [`Progress`] is shared by the worker threads: every counter is atomic, and the plain line
//! is printed by whichever thread first notices it is due, so no thread waits for another.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
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
    /// larger of this and the retired count, so a slow file still shows movement).
    pub finished: std::sync::Arc<AtomicUsize>,
    /// Units listed in the files (or chunks) opened so far, and how many files were opened.
    pub planned: std::sync::Arc<Planned>,
    /// Timed runs per unit (each unit of `run` is a case and engine, timed this many times).
    runs: usize,
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

/// How often the bar is redrawn even when nothing finished (its clock and rate).
const BAR_TICK: Duration = Duration::from_millis(250);

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
        let template = if unit.is_some() {
            "{elapsed_precise} [{bar:30}] {human_pos}/{human_len} {msg} ({per_sec}, eta {eta})"
        } else {
            "{elapsed_precise} [{bar:40}] {pos}/{len} files ({per_sec}, eta {eta})"
        };
        bar.set_style(
            ProgressStyle::with_template(template)
                .expect("valid template")
                .progress_chars("=> "),
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
            runs: 1,
        }
    }

    /// Each unit is timed `runs` times: the bar counts (unit, run) pairs.
    pub fn with_runs(mut self, runs: u32) -> Progress {
        self.runs = runs.max(1) as usize;
        self
    }

    /// Runs `f` (which prints to stderr) without tearing the bar.
    pub fn suspend(&self, f: impl FnOnce()) {
        self.bar.suspend(f);
    }

    /// A file was finished, holding `units` of the finer work.
    pub fn file_done(&self, units: usize) {
        self.files_done.fetch_add(1, Ordering::Relaxed);
        self.units_done.fetch_add(units, Ordering::Relaxed);
        if self.unit.is_none() {
            self.bar.inc(1);
        }
        self.tick();
    }

    /// Units finished so far: by the workers, or retired, whichever is ahead.
    fn units(&self) -> usize {
        self.units_done
            .load(Ordering::Relaxed)
            .max(self.finished.load(Ordering::Relaxed))
    }

    /// The estimated units of the whole command: those listed in the files opened, scaled to
    /// every file; never less than those finished.
    fn units_estimate(&self) -> usize {
        let listed = self.planned.units.load(Ordering::Relaxed);
        let opened = self.planned.files.load(Ordering::Relaxed);
        let estimate = if opened == 0 || opened >= self.files {
            listed
        } else {
            (listed as f64 * self.files as f64 / opened as f64).round() as usize
        };
        estimate.max(self.units())
    }

    /// Updates the bar from the counters, and prints the plain line when it is due. Called by
    /// the calling thread whenever it wakes (at least every few tens of milliseconds).
    pub fn tick(&self) {
        if let Some(unit) = self.unit
            && !self.bar.is_hidden()
        {
            self.bar
                .set_length((self.units_estimate() * self.runs) as u64);
            self.bar.set_position((self.units() * self.runs) as u64);
            self.bar.set_message(format!(
                "{unit}{}, {}/{} {}",
                if self.runs > 1 { " x runs" } else { "" },
                self.files_done.load(Ordering::Relaxed),
                self.files,
                plural(self.files, "file", "files")
            ));
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
        self.bar.finish_and_clear();
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
    fn the_estimate_scales_the_opened_files_to_all() {
        let progress = Progress::new(ProgressMode::None, "run", 4, Some("cases x engines"));
        progress.planned.add(true, 30);
        assert_eq!(progress.units_estimate(), 120);
        progress.planned.add(false, 10);
        assert_eq!(progress.units_estimate(), 160);
        progress.finished.fetch_add(500, Ordering::Relaxed);
        assert_eq!(progress.units_estimate(), 500, "never below what finished");
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
