//! Where a run's results go. The runner hands each file's results to every sink once the file
//! is complete and every earlier file has been handed over, so sinks see files in corpus order
//! and rows in (file, case, engine, run) order whatever the thread count; then it calls
//! [`Sink::finish`] once, saying whether the run completed.
//!
//! Sinks here: [`CsvSink`] (the results CSV, streamed to a temporary file and renamed into
//! place only when the run completes), [`OutDirSink`] (each file's judge output, written as the
//! file completes), [`RecordSink`] (the records the summary, exports and plots are computed
//! from, folded into a tally), [`ProblemLines`] (each problem line on stderr as its file
//! completes, up to a cap). Shards add their journal (`crate::shard`).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::KeptSlot;
use crate::corpus::{CaseFile, OUTPUT_EXTENSION};
use crate::results::{Batch, Row, Tally, csv_header};
use crate::util::atomic::{AtomicFile, write_inside};

/// A sink that could not write.
#[derive(Debug, thiserror::Error)]
#[error("{what} {path}: {source}")]
pub struct SinkError {
    pub what: &'static str,
    pub path: PathBuf,
    pub source: std::io::Error,
}

impl SinkError {
    pub fn new(what: &'static str, path: &Path, source: std::io::Error) -> SinkError {
        SinkError {
            what,
            path: path.to_path_buf(),
            source,
        }
    }
}

/// One engine's judge output for a whole file.
pub struct FileOutput {
    pub engine: String,
    /// The blocks of its readable cases, joined.
    pub text: String,
}

/// A chunk's results as the sinks take them, prepared by the worker that assembled the chunk
/// (in parallel) straight from what its slots got, so that the calling thread, which hands
/// every chunk over in order, only writes them: the rows as CSV lines (no header; when a sink
/// wants them, [`Wants::csv`]) and the compact records the summary folds.
pub struct Prepared {
    pub csv: Option<Vec<u8>>,
    /// The compact records, unless already folded into [`Prepared::tally`].
    pub batch: Option<Batch>,
    /// The batch folded into a tally of the shape the run's one tally has ([`Wants::tally`]),
    /// to be merged into it ([`Tally::merge`]) rather than folded case by case.
    pub tally: Option<Tally>,
}

/// What a sink reads of a chunk's [`FileResults`]: the runner builds only what some sink wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wants {
    /// [`FileResults::rows`] (else it may be empty: the sink reads [`FileResults::prepared`]).
    pub rows: bool,
    /// The CSV text of [`Prepared`].
    pub csv: bool,
    /// The shape ([`Tally::shape`]) of the tally it folds records into: each chunk's batch is
    /// folded into a tally of that shape on its worker ([`Prepared::tally`]).
    pub tally: Option<(usize, bool)>,
    /// It writes a file's [`FileResults::problems`] on the terminal: the progress bar steps
    /// aside while it does.
    pub terminal: bool,
}

impl Wants {
    /// Nothing.
    pub const NOTHING: Wants = Wants {
        rows: false,
        csv: false,
        tally: None,
        terminal: false,
    };

    /// What `self` and `other` want together (no tally folded ahead when they want tallies of
    /// two shapes: each then folds the batch).
    pub fn and(self, other: Wants) -> Wants {
        Wants {
            rows: self.rows || other.rows,
            csv: self.csv || other.csv,
            tally: match (self.tally, other.tally) {
                (Some(a), Some(b)) if a != b => None,
                (a, b) => a.or(b),
            },
            terminal: self.terminal || other.terminal,
        }
    }
}

/// Everything a file produced, as handed to the sinks.
pub struct FileResults<'a> {
    /// The file's position in the run's file list.
    pub position: usize,
    pub file: &'a CaseFile,
    /// Its rows in (case, engine, run) order (only the cases this run solved); empty when no
    /// sink wants rows ([`Sink::wants`]) and the results are [`FileResults::prepared`].
    pub rows: &'a [Row],
    /// The finished slots of the partial cases among `rows` (a stopped run's), kept for a
    /// journal so that `--resume` judges those cases whole; empty otherwise.
    pub kept: &'a [KeptSlot],
    /// Per engine, the file's output (empty unless the run keeps outputs).
    pub outputs: &'a [FileOutput],
    /// One line per problem worth telling (errors, mismatches, disagreements).
    pub problems: &'a [String],
    /// The results as CSV text and compact records, when the worker prepared them (every
    /// complete chunk; not the cases of a stopped one, nor a journal's case events).
    pub prepared: Option<&'a Prepared>,
    /// A streamed file comes in parts (its chunks), in order: this one's place (0 first), and
    /// whether it is the last. A file read whole is one part (`0`, last).
    pub part: usize,
    pub last: bool,
}

/// A consumer of a run's results.
pub trait Sink {
    /// What it reads of the results (by default their rows).
    fn wants(&self) -> Wants {
        Wants {
            rows: true,
            ..Wants::NOTHING
        }
    }
    /// A file's results, in corpus order.
    fn file(&mut self, results: &FileResults<'_>) -> Result<(), SinkError>;
    /// With `Config::case_events`: one case's rows as soon as every engine finished it, in
    /// completion order (the same rows come again, in order, with their file).
    fn case(&mut self, _results: &FileResults<'_>) -> Result<(), SinkError> {
        Ok(())
    }
    /// The run is over: `complete` when every file was handed over.
    fn finish(&mut self, complete: bool) -> Result<(), SinkError>;
}

/// Where a CSV goes.
enum CsvTarget {
    Stdout,
    File(AtomicFile),
}

/// The results CSV: one row per case, engine and run, header first. A file target is written
/// under a temporary name and renamed into place only when the run completes, so an existing
/// results file is never truncated or left half-written; `-` streams to stdout.
pub struct CsvSink {
    writer: Option<std::io::BufWriter<CsvTarget>>,
    /// The rows of one call, formatted before one write.
    text: Vec<u8>,
    path: PathBuf,
    /// Whether `path` held a file when the run started (an unfinished run must not replace it).
    existed: bool,
    /// Where the rows of an unfinished run went, once closed.
    pub partial: Option<PathBuf>,
    flushed: std::time::Instant,
    /// Whether a row was written (the header goes with the first one; a CSV closed before
    /// any row gets the header alone).
    wrote_rows: bool,
}

/// Bytes of CSV buffered before a write to the target.
const CSV_BUFFER: usize = 1 << 16;

/// How often a CSV being written is flushed to its temporary file.
pub const CSV_FLUSH_INTERVAL: std::time::Duration = std::time::Duration::from_secs(1);

impl Write for CsvTarget {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            CsvTarget::Stdout => std::io::stdout().write(buf),
            CsvTarget::File(f) => f.write(buf),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            CsvTarget::Stdout => std::io::stdout().flush(),
            CsvTarget::File(f) => f.flush(),
        }
    }
}

impl CsvSink {
    /// A CSV at `path` (`-` = stdout); the temporary file is created now, so a bad path fails
    /// before the run.
    pub fn create(path: &Path) -> Result<CsvSink, SinkError> {
        let target = if crate::util::atomic::is_stdout(path) {
            CsvTarget::Stdout
        } else {
            CsvTarget::File(
                AtomicFile::create(path).map_err(|e| SinkError::new("cannot create", path, e))?,
            )
        };
        Ok(CsvSink {
            writer: Some(std::io::BufWriter::with_capacity(CSV_BUFFER, target)),
            text: Vec::new(),
            path: path.to_path_buf(),
            existed: path.exists(),
            partial: None,
            flushed: std::time::Instant::now(),
            wrote_rows: false,
        })
    }

    /// The file it writes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn error(&self, e: std::io::Error) -> SinkError {
        SinkError::new("cannot write", &self.path, e)
    }

    /// Writes rows not produced by this run (resumed ones) at the current place.
    pub fn write_rows(&mut self, rows: &[Row]) -> Result<(), SinkError> {
        let mut text = std::mem::take(&mut self.text);
        text.clear();
        for row in rows {
            row.line().write(&mut text);
        }
        let written = self.write_lines(&text);
        self.text = text;
        written
    }

    /// Writes rows already formatted as CSV lines (`results::Line`), the header first.
    pub fn write_lines(&mut self, lines: &[u8]) -> Result<(), SinkError> {
        let writer = self.writer.as_mut().expect("not finished");
        if !self.wrote_rows && !lines.is_empty() {
            let mut text = Vec::new();
            csv_header(&mut text);
            if let Err(e) = writer.write_all(&text) {
                return Err(self.error(e));
            }
            self.wrote_rows = true;
        }
        let writer = self.writer.as_mut().expect("not finished");
        if let Err(e) = writer.write_all(lines) {
            return Err(self.error(e));
        }
        // Whole rows reach the temporary file at least once a second, so a killed run leaves
        // them there (a valid CSV) but for the last second's.
        if self.flushed.elapsed() >= CSV_FLUSH_INTERVAL {
            writer
                .flush()
                .map_err(|e| SinkError::new("cannot write", &self.path, e))?;
            self.flushed = std::time::Instant::now();
        }
        Ok(())
    }

    /// Ends the CSV. With `complete`, flushes and renames it into place. Otherwise the rows
    /// written so far (a valid CSV) are kept without touching an earlier file: they take the
    /// CSV's name when there was no file there, else `<csv>.interrupted` beside it
    /// ([`CsvSink::partial`] says where).
    pub fn close(&mut self, complete: bool) -> Result<(), SinkError> {
        let Some(mut writer) = self.writer.take() else {
            return Ok(());
        };
        if !self.wrote_rows {
            let mut text = Vec::new();
            csv_header(&mut text);
            writer.write_all(&text).map_err(|e| self.error(e))?;
        }
        let target = writer
            .into_inner()
            .map_err(|e| SinkError::new("cannot write", &self.path, e.into_error()))?;
        match target {
            CsvTarget::Stdout => std::io::stdout()
                .flush()
                .map_err(|e| SinkError::new("cannot write", &self.path, e)),
            // A device or FIFO took the rows in place: nothing to set aside.
            CsvTarget::File(file) if complete || !self.existed || file.in_place() => {
                self.partial = (!complete).then(|| self.path.clone());
                let in_place = file.in_place();
                file.commit()
                    .map_err(|e| SinkError::new("cannot write", &self.path, e))?;
                if complete && !in_place {
                    crate::util::atomic::remove_stale_interrupted(&self.path);
                }
                Ok(())
            }
            CsvTarget::File(file) => {
                let aside = crate::util::atomic::interrupted_path(&self.path);
                file.commit_as(&aside)
                    .map_err(|e| SinkError::new("cannot write", &aside, e))?;
                self.partial = Some(aside);
                Ok(())
            }
        }
    }
}

impl Sink for CsvSink {
    fn wants(&self) -> Wants {
        Wants {
            csv: true,
            ..Wants::NOTHING
        }
    }
    fn file(&mut self, results: &FileResults<'_>) -> Result<(), SinkError> {
        match results.prepared.and_then(|p| p.csv.as_ref()) {
            Some(csv) => self.write_lines(csv),
            None => self.write_rows(results.rows),
        }
    }
    fn finish(&mut self, complete: bool) -> Result<(), SinkError> {
        self.close(complete)
    }
}

/// Each file's judge output under a folder, mirroring the input tree (`DIR/<engine>/...` when
/// several engine names ran), written atomically as each file completes (a streamed file's
/// parts appended to its temporary file, renamed into place with its last part). Nothing is
/// written through a link planted inside the folder: a link at an output's place is replaced
/// itself, a linked folder leading out of it is refused ([`AtomicFile::create_inside`]).
pub struct OutDirSink {
    dir: PathBuf,
    several_engines: bool,
    /// The outputs of the file being streamed: per engine, its file and whether a block was
    /// written (the separator goes between blocks).
    open: Vec<(AtomicFile, bool)>,
}

impl OutDirSink {
    pub fn new(dir: &Path, several_engines: bool) -> OutDirSink {
        OutDirSink {
            dir: dir.to_path_buf(),
            several_engines,
            open: Vec::new(),
        }
    }

    /// Where a file's output goes: the input's relative path with `.out`, under a folder per
    /// engine when several engines ran.
    pub fn output_path(&self, file: &CaseFile, engine: &str) -> PathBuf {
        let relative = file.relative.with_extension(OUTPUT_EXTENSION);
        if self.several_engines {
            self.dir.join(engine).join(relative)
        } else {
            self.dir.join(relative)
        }
    }
}

impl Sink for OutDirSink {
    fn wants(&self) -> Wants {
        Wants::NOTHING
    }
    fn file(&mut self, results: &FileResults<'_>) -> Result<(), SinkError> {
        if results.part == 0 && results.last {
            for output in results.outputs {
                let path = self.output_path(results.file, &output.engine);
                // A link planted inside the folder is replaced, never written through.
                write_inside(&self.dir, &path, output.text.as_bytes())
                    .map_err(|e| SinkError::new("cannot write", &path, e))?;
            }
            return Ok(());
        }
        if results.part == 0 {
            self.open.clear();
            for output in results.outputs {
                let path = self.output_path(results.file, &output.engine);
                let created = AtomicFile::create_inside(&self.dir, &path);
                let file = created.map_err(|e| SinkError::new("cannot create", &path, e))?;
                self.open.push((file, false));
            }
        }
        let separator = results.file.game.separator();
        for (output, (file, wrote)) in results.outputs.iter().zip(&mut self.open) {
            let mut write = || -> std::io::Result<()> {
                if *wrote && !output.text.is_empty() {
                    file.write_all(separator.as_bytes())?;
                }
                file.write_all(output.text.as_bytes())
            };
            write().map_err(|e| SinkError::new("cannot write", file.path(), e))?;
            *wrote |= !output.text.is_empty();
        }
        if results.last {
            for (file, _) in self.open.drain(..) {
                let path = file.path().to_path_buf();
                file.commit()
                    .map_err(|e| SinkError::new("cannot write", &path, e))?;
            }
        }
        Ok(())
    }
    fn finish(&mut self, _complete: bool) -> Result<(), SinkError> {
        Ok(())
    }
}

/// The records the summary is computed from (one per case and engine), folded into a
/// [`Tally`] as each file or chunk comes.
#[derive(Default)]
pub struct RecordSink {
    pub tally: Tally,
}

impl RecordSink {
    pub fn new(tally: Tally) -> RecordSink {
        RecordSink { tally }
    }
}

impl Sink for RecordSink {
    fn wants(&self) -> Wants {
        Wants {
            tally: Some(self.tally.shape()),
            ..Wants::NOTHING
        }
    }
    fn file(&mut self, results: &FileResults<'_>) -> Result<(), SinkError> {
        match results.prepared {
            Some(Prepared {
                tally: Some(tally), ..
            }) => self.tally.merge(tally),
            Some(Prepared {
                batch: Some(batch), ..
            }) => self.tally.add_batch(batch),
            _ => self.tally.add_rows(results.rows),
        }
        Ok(())
    }
    fn finish(&mut self, _complete: bool) -> Result<(), SinkError> {
        Ok(())
    }
}

/// Each problem line (an error, a mismatch, a disagreement) on stderr as its file completes,
/// explained ([`crate::game::explain`]), at most `cap` of them; the others are counted.
pub struct ProblemLines {
    cap: Option<usize>,
    /// Lines written, and lines left out past the cap.
    pub shown: usize,
    pub hidden: usize,
}

impl ProblemLines {
    /// At most `cap` lines (`None`: every one).
    pub fn new(cap: Option<usize>) -> ProblemLines {
        ProblemLines {
            cap,
            shown: 0,
            hidden: 0,
        }
    }
}

impl Sink for ProblemLines {
    fn wants(&self) -> Wants {
        Wants {
            terminal: true,
            ..Wants::NOTHING
        }
    }

    fn file(&mut self, results: &FileResults<'_>) -> Result<(), SinkError> {
        let room = self
            .cap
            .map_or(usize::MAX, |cap| cap.saturating_sub(self.shown));
        let shown = results.problems.len().min(room);
        for problem in &results.problems[..shown] {
            eprintln!("{}", crate::game::explain(problem));
        }
        self.shown += shown;
        self.hidden += results.problems.len() - shown;
        Ok(())
    }

    fn finish(&mut self, _complete: bool) -> Result<(), SinkError> {
        Ok(())
    }
}
