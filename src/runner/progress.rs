//! How a run shows its progress on stderr: an indicatif bar on a terminal, or, where stderr is
//! a log (Slurm, CI), a plain line every [`PLAIN_INTERVAL`]; both count files, and cases x
//! engines x runs done, with a rate and an estimate of the time left.

use std::cell::Cell;
use std::io::IsTerminal;
use std::sync::Arc;
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

/// The display of one run (used on the run's calling thread only).
pub(crate) struct Progress {
    bar: ProgressBar,
    plain: bool,
    files: usize,
    start: Instant,
    last_line: Cell<Instant>,
    files_done: Cell<usize>,
    slots_done: Cell<usize>,
    /// (case, engine) slots finished by the workers, files complete or not.
    pub(crate) finished: Arc<AtomicUsize>,
}

impl Progress {
    pub(crate) fn new(mode: ProgressMode, files: usize) -> Progress {
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
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} files, {msg} ({per_sec} files, eta {eta})",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        let now = Instant::now();
        Progress {
            bar,
            plain: mode == ProgressMode::Plain,
            files,
            start: now,
            last_line: Cell::new(now),
            files_done: Cell::new(0),
            slots_done: Cell::new(0),
            finished: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Runs `f` (which prints to stderr) without tearing the bar.
    pub(crate) fn suspend(&self, f: impl FnOnce()) {
        self.bar.suspend(f);
    }

    /// A file was retired with `slots` (case, engine) results of `runs` runs each.
    pub(crate) fn file_done(&self, slots: usize, runs: u32) {
        self.files_done.set(self.files_done.get() + 1);
        self.slots_done.set(self.slots_done.get() + slots);
        self.bar.set_message(format!(
            "{} cases x engines x {runs} run(s)",
            self.slots_done.get()
        ));
        self.bar.inc(1);
        self.tick();
    }

    /// Prints the plain line when it is due.
    pub(crate) fn tick(&self) {
        if !self.plain || self.last_line.get().elapsed() < PLAIN_INTERVAL {
            return;
        }
        self.last_line.set(Instant::now());
        eprintln!("{}", self.line());
    }

    fn line(&self) -> String {
        let (done, total) = (self.files_done.get(), self.files);
        let elapsed = self.start.elapsed().as_secs_f64();
        let rate = done as f64 / elapsed.max(f64::MIN_POSITIVE);
        let eta = if done > 0 && rate > 0.0 {
            format!(", eta {:.0} s", (total - done) as f64 / rate)
        } else {
            String::new()
        };
        format!(
            "gamebench: {done}/{total} files ({:.0}%), {} cases x engines done, {rate:.1} files/s, {elapsed:.0} s{eta}",
            100.0 * done as f64 / total.max(1) as f64,
            self.slots_done
                .get()
                .max(self.finished.load(Ordering::Relaxed))
        )
    }

    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plain_line_counts_files_and_cases() {
        let progress = Progress::new(ProgressMode::None, 4);
        progress.file_done(30, 1);
        progress.file_done(30, 1);
        let line = progress.line();
        assert!(line.contains("2/4 files (50%)"), "{line}");
        assert!(line.contains("60 cases x engines"), "{line}");
        assert!(line.contains("eta"), "{line}");
    }
}
