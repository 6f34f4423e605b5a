//! A file of the run read and parsed on a worker: [`Loaded`], its cases, its validation and
//! expected outputs, its (case, engine) [`Slot`]s, and the results the tasks store in it.
//!
//! Invariants: slots are listed in (case, engine) order, so a case's slots are consecutive;
//! every slot is filled exactly once; the task that fills the last one hands the file to the
//! calling thread (`Message::File`), and with case events, the one that fills a case's last
//! slot hands the case (`Message::Case`). An unreadable file (or one with no case) still has
//! one slot per engine, so that it shows in the results as an `error` row.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::completions::{self, Urgency};
use super::done::Done;
use super::{Config, NO_CASE};
use crate::corpus::CaseFile;
use crate::engines::{EngineSpec, FileJob};
use crate::game::ParsedCase;

/// What the workers tell the calling thread.
pub(super) enum Message {
    /// Every engine finished this case (0-based) of this file.
    Case(Arc<Loaded>, usize),
    /// Every slot of this file is finished.
    File(Arc<Loaded>),
}

impl Urgency for Message {
    /// A finished case must reach the journal within the second; files come in batches.
    fn urgent(&self) -> bool {
        matches!(self, Message::Case(..))
    }
}

/// The queue of [`Message`]s from the workers to the calling thread.
pub(super) type Completions = completions::Completions<Message>;

/// A file read and split into cases, shared by the tasks solving it.
pub(super) struct Loaded {
    pub position: usize,
    pub file: CaseFile,
    pub engines: Arc<[EngineSpec]>,
    /// The raw input, kept only when an external engine will read it.
    pub bytes: Vec<u8>,
    pub cases: Vec<ParsedCase>,
    /// Why the file could not be read at all.
    pub unreadable: Option<String>,
    /// With `--validate`: per case, why it breaks the statement (`None`: valid).
    pub invalid: Vec<Option<String>>,
    /// With `--check`: the expected blocks, or why there are none.
    pub expected: Option<Result<Vec<String>, String>>,
    /// The (case, engine) slots this run solves, in case then engine order.
    pub slots: Vec<Slot>,
    /// What each slot got, filled by the tasks in any order.
    pub done: Mutex<Vec<Option<Done>>>,
    /// Slots not finished yet; the task that finishes the last one reports the file complete.
    pub remaining: AtomicUsize,
    /// Per case, its slots not finished yet (with [`Config::case_events`]).
    pub case_left: Vec<AtomicUsize>,
    /// Slots finished over the whole run, for progress.
    pub finished: Arc<AtomicUsize>,
}

impl Loaded {
    /// Records slot `slot`'s result; tells the calling thread when it was the file's last.
    pub fn finish(self: &Arc<Self>, slot: usize, done: Done, tx: &Completions) {
        let dropped = done.dropped;
        self.done.lock().expect("no task panics holding it")[slot] = Some(done);
        self.finished.fetch_add(1, Ordering::Relaxed);
        let case = self.slots[slot].case;
        if let Some(left) = self.case_left.get(case)
            && left.fetch_sub(1, Ordering::AcqRel) == 1
            && !dropped
        {
            tx.push(Message::Case(self.clone(), case));
        }
        if self.remaining.fetch_sub(1, Ordering::AcqRel) == 1 {
            tx.push(Message::File(self.clone()));
        }
    }

    /// The file as an executor sees it.
    pub fn job(&self) -> FileJob<'_> {
        FileJob {
            game: self.file.game,
            bytes: &self.bytes,
            cases: &self.cases,
        }
    }

    /// The range of slots of case `case` (they are consecutive).
    pub fn slots_of(&self, case: usize) -> std::ops::Range<usize> {
        let start = self.slots.partition_point(|s| s.case < case);
        let end = self.slots.partition_point(|s| s.case <= case);
        start..end
    }
}

/// A case of a file for one engine (index into the file's engines).
#[derive(Clone, Copy)]
pub(super) struct Slot {
    pub case: usize,
    pub engine: usize,
}

/// Reads and parses one file (and its expected output with `--check`), and lists its slots.
/// `size` is the file's size from the window's stat pass.
pub(super) fn load(
    position: usize,
    file: CaseFile,
    size: u64,
    engines: Arc<[EngineSpec]>,
    config: &Config,
    finished: Arc<AtomicUsize>,
) -> Loaded {
    let mut loaded = Loaded {
        position,
        file,
        engines,
        bytes: Vec::new(),
        cases: Vec::new(),
        unreadable: None,
        invalid: Vec::new(),
        expected: None,
        slots: Vec::new(),
        done: Mutex::new(Vec::new()),
        remaining: AtomicUsize::new(0),
        case_left: Vec::new(),
        finished,
    };
    match crate::corpus::read_case_file(&loaded.file.path, size) {
        Err(e) => loaded.unreadable = Some(format!("cannot read: {e}")),
        Ok(bytes) => {
            loaded.cases = loaded.file.game.parse(&bytes);
            if loaded.cases.is_empty() {
                // Still one (error) row per engine, so the file does not vanish from results.
                loaded.unreadable = Some(NO_CASE.to_string());
            }
            if config.validate {
                loaded.invalid = invalid_cases(&loaded.file, &loaded.cases, &bytes);
            }
            loaded.expected = config.check.then(|| read_expected(&loaded.file));
            // Only executors that run whole files (programs) read the raw input again.
            if loaded.engines.iter().any(|e| e.executor().reads_input()) {
                loaded.bytes = bytes;
            }
        }
    }
    // An unreadable file (or one without cases) still gets one (error) row per engine.
    let cases = if loaded.unreadable.is_some() {
        1
    } else {
        loaded.cases.len()
    };
    for case in 0..cases {
        for (engine, spec) in loaded.engines.iter().enumerate() {
            let wanted = config
                .select
                .as_ref()
                .is_none_or(|s| s.wants(position, &loaded.file, case, spec.name()));
            if wanted {
                loaded.slots.push(Slot { case, engine });
            }
        }
    }
    loaded.done = Mutex::new((0..loaded.slots.len()).map(|_| None).collect());
    loaded.remaining = AtomicUsize::new(loaded.slots.len());
    if config.case_events {
        let mut left = vec![0usize; cases];
        for slot in &loaded.slots {
            left[slot.case] += 1;
        }
        loaded.case_left = left.into_iter().map(AtomicUsize::new).collect();
    }
    loaded
}

/// Per parsed case, the validator's violations that fall in its lines (see
/// [`crate::validate::Validation::per_case`]), as one message; `None` for a valid case.
fn invalid_cases(file: &CaseFile, cases: &[ParsedCase], bytes: &[u8]) -> Vec<Option<String>> {
    let validation = file.game.validate(bytes);
    let starts: Vec<usize> = cases.iter().map(|c| c.line).collect();
    validation
        .per_case(&starts)
        .into_iter()
        .map(|violations| {
            let first = violations.first()?;
            let more = match violations.len() - 1 {
                0 => String::new(),
                n => format!(" (and {n} more)"),
            };
            Some(format!("invalid input: {}{more}", first.without_case()))
        })
        .collect()
}

fn read_expected(file: &CaseFile) -> Result<Vec<String>, String> {
    let path = file.expected_path();
    match crate::corpus::read_case_file(&path, 0) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => Ok(file.game.split_output(&text)),
            Err(_) => Err(format!("expected output {} is not UTF-8", path.display())),
        },
        Err(e) => Err(format!("no expected output {}: {e}", path.display())),
    }
}
