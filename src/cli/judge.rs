//! The commands that judge one file with a game's own engines: `solve` (judge mode), `check`,
//! `gen` (inputs and their expected outputs), and `list`.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::engines::judge::{ExitCodes, judge_case, judge_stream};
use crate::engines::judge_block;
use crate::engines::resolve_internal;
use crate::game::{BlockStream, Budget, EngineRef, Game};
use crate::registry;
use crate::status::{CheckVerdict, Exit};

use super::conventions::{JUDGE_MESSAGE, fail_prefix, judge_paths, write_testlib_result};
use super::{CheckArgs, SolveArgs, find_game};

/// A reader of the bytes of FILE, or of stdin without one, and the name to report them by.
/// The first bytes are read here, so that a path that cannot be read (missing, a directory,
/// not permitted) fails before any work, as `cannot read PATH`.
pub(super) fn open_input(file: Option<&PathBuf>) -> Result<(Box<dyn BufRead + Send>, String)> {
    let (mut reader, name): (Box<dyn BufRead + Send>, String) = match file {
        Some(path) => {
            let file =
                File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
            (Box::new(BufReader::new(file)), path.display().to_string())
        }
        None => (
            Box::new(BufReader::new(std::io::stdin())),
            "<stdin>".to_string(),
        ),
    };
    reader
        .fill_buf()
        .with_context(|| format!("cannot read {name}"))?;
    Ok((reader, name))
}

fn engine_of(game: &'static dyn Game, name: Option<&str>) -> Result<EngineRef> {
    Ok(resolve_internal(game, name)?)
}

/// `gamebench solve GAME [FILE]`: the judge output on stdout, bad cases on stderr. Cases are
/// read, solved and written one at a time, so a file of any size is solved in the memory of
/// its biggest case.
pub fn solve(args: SolveArgs) -> Result<Exit> {
    let game = find_game(&args.game)?;
    let reading = args.reading.for_game(game)?;
    let engine = engine_of(game, args.engine.as_deref())?;
    let budget = args.budget.budget()?;
    let (input, name) = open_input(args.file.as_ref())?;
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let exit = judge_stream(
        engine,
        game.cases(input, &reading),
        &budget,
        &mut stdout,
        |index, judged| match judged {
            Err(error) => eprintln!("{name}: case {index}: {error}"),
            // A search the budget stopped (or that proved `--max-moves` too short) says what
            // it proved.
            Ok(crate::game::Answer {
                at_least: Some(least),
                ..
            }) => {
                eprintln!("{name}: case {index}: the search had proven a score of at least {least}")
            }
            Ok(_) => {}
        },
    )
    .context("cannot write the output")?;
    stdout.flush().context("cannot write the output")?;
    Ok(exit)
}

/// Where `check`'s lines go: stdout, and with `--exit-codes kattis` the feedback file too.
struct Report {
    stdout: std::io::StdoutLock<'static>,
    feedback: Option<(std::io::BufWriter<File>, PathBuf)>,
    convention: ExitCodes,
    /// The first line said (the message of testlib's result file).
    first: Option<String>,
    /// The first case of the input that could not be read, as told on stderr (the message of
    /// testlib's result file before any verdict: the run is a FAIL).
    failure: Option<String>,
}

impl Report {
    /// A line of the report: on stdout and in the feedback file.
    fn say(&mut self, line: &str) -> Result<()> {
        if self.first.is_none() {
            self.first = Some(line.to_string());
        }
        writeln!(self.stdout, "{line}").context("cannot write the report to stdout")?;
        self.feedback(line)
    }

    /// How a verdict is named in the report: as the convention names it (testlib's `FAIL`
    /// for a checker failure), else gamebench's name.
    fn verdict(&self, verdict: CheckVerdict) -> &'static str {
        match (self.convention, verdict) {
            (ExitCodes::Testlib, CheckVerdict::CheckerFailure) => "FAIL",
            _ => verdict.as_str(),
        }
    }

    /// A line for the feedback file only (an error, which goes to stderr).
    fn feedback(&mut self, line: &str) -> Result<()> {
        if let Some((file, path)) = &mut self.feedback {
            writeln!(file, "{line}").with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(())
    }

    /// Writes out what the feedback file holds.
    fn finish(self) -> Result<()> {
        if let Some((mut file, path)) = self.feedback {
            file.flush()
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(())
    }
}

/// `gamebench check GAME INPUT OUTPUT [--expected E]`: one line per rejected case with its
/// verdict, then the counts. Exit codes (testlib-like, see `Exit`): 0 every case accepted,
/// 1 a wrong answer, 4 a presentation error (and no wrong answer), 5 checker failure (the
/// expected output is missing, not UTF-8 or malformed); 2 when INPUT has a malformed case or
/// a file cannot be read. The worst verdict decides: checker failure, wrong answer,
/// presentation error.
///
/// `--exit-codes testlib` (`check GAME INPUT OUTPUT ANSWER`) and `--exit-codes kattis`
/// (`check GAME INPUT ANSWER FEEDBACK_DIR < OUTPUT`, the report also in
/// `FEEDBACK_DIR/judgemessage.txt`) give the same verdict in the judge's codes
/// (`judge::ExitCodes`); an error (an unreadable file) is then a checker failure in those codes.
///
/// The input's cases, the output's blocks and the expected blocks are read together, a case
/// at a time, and each verdict is written as it is found: a file of any size is checked in
/// the memory of its biggest case and block.
pub fn check(args: CheckArgs) -> Result<Exit> {
    let convention = args.exit_codes;
    let (expected, output, feedback, result_file) = match judge_paths(&args) {
        Ok(paths) => paths,
        // gamebench's own codes: the error is reported by main (2).
        Err(e) if convention == ExitCodes::Gamebench => return Err(e),
        // A judge's: an argument error is the convention's judge error (testlib's FAIL).
        Err(e) => {
            eprintln!("{}gamebench: {e:#}", fail_prefix(convention));
            return Ok(Exit::Judge(convention.code(Exit::Error)));
        }
    };
    let feedback = match feedback {
        Some(dir) => {
            let path = dir.join(JUDGE_MESSAGE);
            // Created fresh: a link planted at its place is replaced, not written through.
            let file = crate::util::atomic::create_fresh(&path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            Some((std::io::BufWriter::new(file), path))
        }
        None => None,
    };
    let mut report = Report {
        stdout: std::io::stdout().lock(),
        feedback,
        convention,
        first: None,
        failure: None,
    };
    let verdict = check_lines(&args, expected.as_ref(), output.as_ref(), &mut report);
    let (exit, error) = match verdict {
        Ok(exit) => (exit, None),
        // Gamebench's own codes keep today's behaviour: the error is reported by main (2).
        Err(e) if convention == ExitCodes::Gamebench => return Err(e),
        Err(e) => {
            let line = format!("{}gamebench: {e:#}", fail_prefix(convention));
            eprintln!("{line}");
            report.feedback(&line)?;
            (Exit::Error, Some(line))
        }
    };
    if let Some(path) = &result_file {
        let message = error
            .or_else(|| report.failure.clone())
            .or_else(|| report.first.clone())
            .unwrap_or_default();
        write_testlib_result(path, exit, &message, args.appes)?;
    }
    report.finish()?;
    Ok(match convention {
        ExitCodes::Gamebench => exit,
        other => Exit::Judge(other.code(exit)),
    })
}

/// Where the expected block of each case comes from.
enum Expected {
    /// The blocks of the expected output file (UTF-8, checked before any is read).
    Blocks(BlockStream, String),
    /// The expected output is not UTF-8: every case is a checker failure saying so.
    NotUtf8(String),
    /// What the engine prints for each case.
    Engine(EngineRef, Budget),
}

impl Expected {
    /// The expected output at `path`. A regular file is read twice (its text checked, then
    /// its blocks read as they are needed); anything else (a FIFO) is read whole.
    fn open(game: &'static dyn Game, path: &Path) -> Result<Expected> {
        let cannot = || format!("cannot read {}", path.display());
        let not_utf8 = || Expected::NotUtf8(format!("{} is not UTF-8", path.display()));
        let name = path.display().to_string();
        let file = File::open(path).with_context(cannot)?;
        if file.metadata().with_context(cannot)?.is_file() {
            if !is_utf8(BufReader::new(file)).with_context(cannot)? {
                return Ok(not_utf8());
            }
            let file = File::open(path).with_context(cannot)?;
            return Ok(Expected::Blocks(
                game.output_blocks(Box::new(BufReader::new(file))),
                name,
            ));
        }
        // Not a regular file (`/dev/stdin`, a FIFO, `/dev/zero`): read up to the cap.
        let mut bytes = Vec::new();
        let cap = crate::util::atomic::ANSWER_FILE_BYTES;
        (&file)
            .take(cap + 1)
            .read_to_end(&mut bytes)
            .with_context(cannot)?;
        if bytes.len() as u64 > cap {
            return Err(crate::util::atomic::too_large(cap)).with_context(cannot);
        }
        Ok(match String::from_utf8(bytes) {
            Ok(text) => Expected::Blocks(
                game.output_blocks(Box::new(std::io::Cursor::new(text.into_bytes()))),
                name,
            ),
            Err(_) => not_utf8(),
        })
    }

    /// The expected block of case `index` (1-based), parsed as `parsed` (`None` when the
    /// case could not be read: its block, if any, is passed over). `Err` is a read error.
    fn next(
        &mut self,
        index: usize,
        parsed: Option<&crate::game::ParsedCase>,
    ) -> Result<Result<String, String>> {
        const MISSING: &str = "no expected output for this case";
        Ok(match self {
            Expected::Blocks(blocks, name) => blocks
                .next()
                .transpose()
                .with_context(|| format!("cannot read {name}"))?
                .ok_or_else(|| MISSING.to_string()),
            Expected::NotUtf8(why) => Err(why.clone()),
            Expected::Engine(engine, budget) => parsed
                .and_then(|p| judge_case(*engine, index, p, budget).ok())
                .map(|(answer, _)| answer.output)
                .ok_or_else(|| MISSING.to_string()),
        })
    }
}

/// Whether everything `reader` gives is UTF-8, read a buffer at a time (a character cut
/// between two buffers is carried over).
fn is_utf8(mut reader: impl BufRead) -> std::io::Result<bool> {
    // At most the 3 first bytes of a character cut at a buffer's end.
    let mut carry: Vec<u8> = Vec::new();
    loop {
        let buffer = reader.fill_buf()?;
        let read = buffer.len();
        if read == 0 {
            return Ok(carry.is_empty());
        }
        let mut joined = std::mem::take(&mut carry);
        joined.extend_from_slice(buffer);
        reader.consume(read);
        if let Err(e) = std::str::from_utf8(&joined) {
            if e.error_len().is_some() {
                return Ok(false);
            }
            carry = joined[e.valid_up_to()..].to_vec();
        }
    }
}

/// Checks the output (`output`, or stdin when `None`) against `expected` (or the engine's
/// output), a case at a time, writing each line to `report`; the verdict as gamebench's exit.
fn check_lines(
    args: &CheckArgs,
    expected_path: Option<&PathBuf>,
    output_path: Option<&PathBuf>,
    report: &mut Report,
) -> Result<Exit> {
    let game = find_game(&args.game)?;
    let reading = args.reading.for_game(game)?;
    let budget = args.budget.budget()?;
    let engine = engine_of(game, Some(&args.engine))?;
    let (input, name) = open_input(Some(&args.input))?;
    let (output, output_name) = open_input(output_path)?;
    let mut actual = ActualBlocks {
        blocks: game.output_blocks(output),
        cut: false,
        name: output_name,
    };
    let mut expected = match expected_path {
        Some(path) => Expected::open(game, path)?,
        None => Expected::Engine(engine, budget),
    };
    let mut counts = Counts::default();
    // The i-th block of each output goes with the i-th case, readable or not.
    let (mut cases, mut blocks) = (0, 0);
    for (i, p) in game.cases(input, &reading).enumerate() {
        let index = i + 1;
        cases = index;
        let actual_block = actual.next()?;
        let expected_block = expected.next(index, p.case.is_ok().then_some(&p))?;
        let actual_block = match actual_block {
            Ok(block) => block,
            Err(why) => {
                counts.wrong(report, Some(index), &why)?;
                continue;
            }
        };
        blocks += usize::from(actual_block.is_some());
        let case = match &p.case {
            Ok(case) => case,
            Err(e) => {
                unreadable_case(report, &format!("{name}: case {index}: {e}"))?;
                counts.errors += 1;
                continue;
            }
        };
        let verdict = judge_block(
            game,
            case.as_ref(),
            expected_block.as_deref().map_err(Clone::clone),
            actual_block.as_deref(),
            args.presentation,
        );
        match verdict {
            Ok(()) => counts.passed += 1,
            Err(rejected) => {
                report.say(&format!(
                    "case {index}: {}: {}",
                    report.verdict(rejected.verdict),
                    rejected.message
                ))?;
                *counts.by_verdict.entry(rejected.verdict).or_default() += 1;
            }
        }
    }
    blocks += actual.rest(&mut counts, report)?;
    if blocks > cases {
        counts.wrong(
            report,
            None,
            &format!("the output has {blocks} blocks for {cases} cases"),
        )?;
    }
    counts.finish(report)
}

/// A case of the input that cannot be read (`what` names the file, the case and why): said on
/// stderr and in the feedback, and the judge's failure; a judge's convention names it as its
/// judge error (testlib's FAIL).
fn unreadable_case(report: &mut Report, what: &str) -> Result<()> {
    let line = format!("{}{what}", fail_prefix(report.convention));
    eprintln!("{line}");
    report.feedback(&line)?;
    report.failure.get_or_insert(line);
    Ok(())
}

/// The blocks of the output under check. An output that is not UTF-8 is judged on its text
/// with the bad bytes replaced: it can only be wrong.
struct ActualBlocks {
    blocks: BlockStream,
    /// A block could not be held: no block follows.
    cut: bool,
    /// The output's name, for messages.
    name: String,
}

impl ActualBlocks {
    /// The next block; `Ok(Err(why))`: the output is no judge output past this point (a line
    /// or a block too long to hold): the program's answer, wrong from there on; the blocks end.
    fn next(&mut self) -> Result<Result<Option<String>, String>> {
        if self.cut {
            return Ok(Ok(None));
        }
        match self.blocks.next().transpose() {
            Ok(block) => Ok(Ok(block)),
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                self.cut = true;
                Ok(Err(format!("{}: {e}", self.name)))
            }
            Err(e) => Err(e).with_context(|| format!("cannot read {}", self.name)),
        }
    }

    /// The blocks left after the last case (a cut among them is a wrong answer).
    fn rest(&mut self, counts: &mut Counts, report: &mut Report) -> Result<usize> {
        let mut blocks = 0;
        loop {
            match self.next()? {
                Ok(Some(_)) => blocks += 1,
                Ok(None) => return Ok(blocks),
                Err(why) => {
                    counts.wrong(report, None, &why)?;
                    return Ok(blocks);
                }
            }
        }
    }
}

/// The verdicts of `check` so far.
#[derive(Default)]
struct Counts {
    /// The rejected cases by verdict (ordered by severity).
    by_verdict: BTreeMap<CheckVerdict, usize>,
    passed: usize,
    /// Cases that could not be read.
    errors: usize,
}

impl Counts {
    /// A wrong answer (of case `case`, 1-based, or of the whole output), told as `what`.
    fn wrong(&mut self, report: &mut Report, case: Option<usize>, what: &str) -> Result<()> {
        let verdict = CheckVerdict::WrongAnswer;
        report.say(&match case {
            Some(index) => format!("case {index}: {verdict}: {what}"),
            None => format!("{verdict}: {what}"),
        })?;
        *self
            .by_verdict
            .entry(CheckVerdict::WrongAnswer)
            .or_default() += 1;
        Ok(())
    }

    /// The total line, and the exit: an unreadable case first, else the most severe verdict.
    fn finish(self, report: &mut Report) -> Result<Exit> {
        let count = |v: CheckVerdict| self.by_verdict.get(&v).copied().unwrap_or(0);
        let failed: usize = self.by_verdict.values().sum();
        report.say(&format!(
            "{} passed, {failed} failed ({} wrong answer, {} presentation error, {} checker failure)",
            self.passed,
            count(CheckVerdict::WrongAnswer),
            count(CheckVerdict::PresentationError),
            count(CheckVerdict::CheckerFailure)
        ))?;
        let worst = self.by_verdict.keys().next_back().copied();
        Ok(if self.errors > 0 {
            Exit::Error
        } else {
            worst.map_or(Exit::Ok, CheckVerdict::exit)
        })
    }
}

/// `gamebench list`: games, engines and generator profiles.
pub fn list() -> Result<Exit> {
    for &game in registry::GAMES {
        println!("{}  {}", game.name(), game.title());
        for engine in game.engines() {
            let default = if engine.is_default() {
                " (default)"
            } else {
                ""
            };
            println!("  engine  {}{default}: {}", engine.name(), engine.about());
        }
        for profile in game.generator().profiles() {
            println!("  profile {}: {}", profile.name, profile.about);
        }
    }
    Ok(Exit::Ok)
}

#[cfg(test)]
mod tests {
    use super::is_utf8;

    #[test]
    fn utf8_is_checked_across_buffers() {
        let texts: [(&[u8], bool); 6] = [
            (b"", true),
            ("Grid 1: é€😀\n".as_bytes(), true),
            (b"ab\xffcd", false),
            (b"ab\xe2\x82", false),
            (b"\xe2\x82\xac\xe2", false),
            (b"\xc3", false),
        ];
        for (text, utf8) in texts {
            assert_eq!(std::str::from_utf8(text).is_ok(), utf8, "{text:?}");
            for step in 1..=9 {
                let reader = crate::game::trickle(text, step);
                assert_eq!(is_utf8(reader).unwrap(), utf8, "{text:?} by {step}");
            }
        }
    }
}
