//! Judging: one engine on one case, or on a whole judge file (parse -> solve -> format).
//!
//! Every command that turns an input into an output goes through here: `solve` prints a
//! file's judgement, `gen` writes it as the expected output, `check` compares against it, and
//! the runner judges case by case (so it can time, repeat and check each case). A case that
//! cannot be read or played is an error that names its line; it never stops the others, and
//! it has no block in the file's output.

use crate::game::{
    Answer, Budget, CaseError, EngineRef, ParsedCase, Reading, TimedAnswer, Verdict,
};
use crate::status::{Exit, Status};

/// Runs `engine` on one parsed case (`index` is its 1-based position in the file): its answer
/// and how long the engine's call took.
pub fn judge_case(
    engine: EngineRef,
    index: usize,
    parsed: &ParsedCase,
    budget: &Budget,
) -> Result<TimedAnswer, CaseError> {
    let case = parsed.case.as_ref().map_err(Clone::clone)?;
    engine
        .solve(index, case.as_ref(), budget)
        .map_err(|e| e.or_at(parsed.line))
}

/// The status an engine's verdict gives a case before any check.
pub fn status_of(verdict: Verdict) -> Status {
    match verdict {
        Verdict::Solved => Status::Ok,
        Verdict::Unsolved => Status::Unsolved,
        Verdict::Budget => Status::Budget,
    }
}

/// One engine's work on a whole file: every case's result in file order.
pub struct Judgement {
    pub engine: EngineRef,
    pub cases: Vec<Result<Answer, CaseError>>,
}

impl Judgement {
    /// The file's judge output: the blocks of the cases that could be played, in order.
    pub fn output(&self) -> String {
        let blocks: Vec<&str> = self
            .cases
            .iter()
            .filter_map(|c| c.as_ref().ok().map(|s| s.output.as_str()))
            .collect();
        self.engine.game.join(&blocks)
    }

    /// Each case's status (an error for a case that could not be played).
    pub fn statuses(&self) -> impl Iterator<Item = Status> + '_ {
        self.cases.iter().map(|c| match c {
            Ok(solved) => status_of(solved.verdict),
            Err(_) => Status::Error,
        })
    }

    /// The cases that could not be played: (1-based index, why).
    pub fn errors(&self) -> impl Iterator<Item = (usize, &CaseError)> {
        self.cases
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.as_ref().err().map(|e| (i + 1, e)))
    }

    /// The exit code of this judgement.
    pub fn exit(&self) -> Exit {
        Exit::of(self.statuses())
    }
}

/// Parses a judge input with `engine`'s game, read under `reading`, and solves every case.
pub fn judge_file(
    engine: EngineRef,
    input: &[u8],
    reading: &Reading,
    budget: &Budget,
) -> Judgement {
    let cases = engine
        .game
        .parse(input, reading)
        .iter()
        .enumerate()
        .map(|(i, parsed)| judge_case(engine, i + 1, parsed, budget).map(|(answer, _)| answer))
        .collect();
    Judgement { engine, cases }
}

/// Judges the cases of `cases` one at a time, as they are read: each block is written to `out`
/// as soon as its case is solved (the separator before every block but the first), and each
/// case's result, solved or why it could not be read or played, is handed to `on_case` (its
/// 1-based index, the result) before its block is written. The bytes written are
/// [`Judgement::output`]'s for the same cases, and the exit is [`Judgement::exit`]'s; memory
/// holds one case, not the file.
pub fn judge_stream(
    engine: EngineRef,
    cases: impl Iterator<Item = ParsedCase>,
    budget: &Budget,
    out: &mut dyn std::io::Write,
    mut on_case: impl FnMut(usize, &Result<Answer, CaseError>),
) -> std::io::Result<Exit> {
    let separator = engine.game.separator();
    let mut worst = Status::Ok;
    let mut written = false;
    for (i, parsed) in cases.enumerate() {
        let judged = judge_case(engine, i + 1, &parsed, budget).map(|(answer, _)| answer);
        on_case(i + 1, &judged);
        match judged {
            Ok(solved) => {
                if written {
                    out.write_all(separator.as_bytes())?;
                }
                out.write_all(solved.output.as_bytes())?;
                written = true;
                worst = worst.worst(status_of(solved.verdict));
            }
            Err(_) => worst = worst.worst(Status::Error),
        }
    }
    Ok(Exit::of([worst]))
}

/// Which exit codes `check` speaks: its own, testlib's, or the Kattis/DOMjudge output
/// validators'.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ExitCodes {
    /// gamebench's: 0 accepted, 1 wrong answer, 4 presentation error, 5 checker failure, 2 an
    /// error (see [`Exit`]).
    #[default]
    Gamebench,
    /// testlib's: 0 OK, 1 WA, 2 PE, 3 FAIL (the checker failed: a missing or malformed expected
    /// output, a malformed input, an unreadable file).
    Testlib,
    /// Kattis's and DOMjudge's output validators: 42 accepted, 43 wrong answer (a presentation
    /// error is wrong: the convention has no such verdict); any other code is a judge error.
    Kattis,
}

/// testlib's exit codes.
pub const TESTLIB_OK: u8 = 0;
pub const TESTLIB_WA: u8 = 1;
pub const TESTLIB_PE: u8 = 2;
pub const TESTLIB_FAIL: u8 = 3;
/// The Kattis output validator's exit codes.
pub const KATTIS_ACCEPTED: u8 = 42;
pub const KATTIS_WRONG: u8 = 43;

impl ExitCodes {
    /// The code `check` exits with when its own verdict is `exit`: the one mapping from
    /// gamebench's codes to a judge's.
    pub fn code(self, exit: Exit) -> u8 {
        match self {
            ExitCodes::Gamebench => exit.code(),
            ExitCodes::Testlib => match exit {
                Exit::Ok => TESTLIB_OK,
                Exit::Failures => TESTLIB_WA,
                Exit::PresentationError => TESTLIB_PE,
                Exit::Interrupted | Exit::Terminated => exit.code(),
                _ => TESTLIB_FAIL,
            },
            ExitCodes::Kattis => match exit {
                Exit::Ok => KATTIS_ACCEPTED,
                Exit::Failures | Exit::PresentationError => KATTIS_WRONG,
                // A judge error: neither 42 nor 43.
                _ => exit.code(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_streamed_judgement_is_the_whole_one() {
        // Every game's bundled examples (and a broken case of each game's own): the streamed
        // output, errors and exit are the whole-file judgement's.
        for &game in crate::registry::GAMES {
            let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora");
            let folder = root.join(game.name());
            let mut files: Vec<_> = std::fs::read_dir(&folder)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "in"))
                .collect();
            files.sort();
            assert!(!files.is_empty(), "{}", folder.display());
            let mut inputs: Vec<(String, Vec<u8>)> = files
                .iter()
                .map(|p| {
                    (
                        p.display().to_string(),
                        std::fs::read(p).expect("bundled file"),
                    )
                })
                .collect();
            inputs.push(("broken".to_string(), b"2 2\nxx\n1 1\n".to_vec()));
            for (path, input) in inputs {
                let budget = Budget::default();
                {
                    let engine = game.default_engine();
                    let whole = judge_file(engine, &input, &Reading::STATEMENT, &budget);
                    let whole_errors: Vec<(usize, String)> =
                        whole.errors().map(|(i, e)| (i, e.to_string())).collect();
                    let mut out = Vec::new();
                    let mut errors = Vec::new();
                    let exit = judge_stream(
                        engine,
                        game.parse(&input, &Reading::STATEMENT).into_iter(),
                        &budget,
                        &mut out,
                        |i, judged| {
                            if let Err(e) = judged {
                                errors.push((i, e.to_string()));
                            }
                        },
                    )
                    .expect("writes to a vector");
                    assert_eq!(String::from_utf8(out).unwrap(), whole.output(), "{path:?}");
                    assert_eq!(errors, whole_errors, "{path:?}");
                    assert_eq!(exit, whole.exit(), "{path:?}");
                }
            }
        }
    }

    #[test]
    fn each_convention_maps_every_verdict() {
        use ExitCodes::*;
        let cases = [
            (Exit::Ok, [0, 0, 42]),
            (Exit::Failures, [1, 1, 43]),
            (Exit::PresentationError, [4, 2, 43]),
            (Exit::CheckerFailure, [5, 3, 5]),
            (Exit::Error, [2, 3, 2]),
        ];
        for (exit, [own, testlib, kattis]) in cases {
            assert_eq!(Gamebench.code(exit), own, "{exit:?}");
            assert_eq!(Testlib.code(exit), testlib, "{exit:?}");
            assert_eq!(Kattis.code(exit), kattis, "{exit:?}");
        }
    }
}
