//! The judges' calling conventions of `check` (docs/check.md): testlib's
//! `checker in out ans [result [-appes]]` and Kattis's `validator in ans feedback_dir [flags]
//! < out`, their argument errors, result and feedback files, and exit codes.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::engines::judge::ExitCodes;
use crate::status::Exit;
use crate::util::atomic::Inputs;

use super::CheckArgs;

/// Feedback file of a Kattis/DOMjudge output validator, in its feedback folder.
pub const JUDGE_MESSAGE: &str = "judgemessage.txt";

/// Where testlib's failure lines start: its `FAIL` verdict word (nothing in other conventions).
pub(super) fn fail_prefix(convention: ExitCodes) -> &'static str {
    match convention {
        ExitCodes::Testlib => "FAIL ",
        _ => "",
    }
}

/// `check`'s paths under its convention: the expected output, the output to check (`None`:
/// stdin), the Kattis feedback folder and testlib's result file. `Err` is an argument error.
#[allow(clippy::type_complexity)]
pub(super) fn judge_paths(args: &CheckArgs) -> Result<JudgePaths> {
    if args.appes && args.exit_codes != ExitCodes::Testlib {
        anyhow::bail!("`-appes` is testlib's: it goes with --exit-codes testlib");
    }
    let paths = paths_by_convention(args)?;
    refuse_outputs_on_inputs(args, &paths)?;
    Ok(paths)
}

/// The files `check` writes for a judge (testlib's result file, Kattis's feedback file) are
/// never one of those it reads (the input, the output checked, the answer), by any name: a
/// result file that is one is refused, and a feedback file is created fresh (a link or file
/// at its place replaced, never written through) unless it is one itself (refused).
fn refuse_outputs_on_inputs(args: &CheckArgs, paths: &JudgePaths) -> Result<()> {
    let (expected, output, feedback, result_file) = paths;
    let mut inputs = Inputs::new();
    for path in [Some(&args.input), expected.as_ref(), output.as_ref()]
        .into_iter()
        .flatten()
    {
        inputs.add(path);
    }
    if let Some(result) = result_file {
        inputs
            .refuse(result)
            .map_err(|e| anyhow::anyhow!("result file {e}"))?;
    }
    if let Some(dir) = feedback {
        let message = dir.join(JUDGE_MESSAGE);
        if let Some(input) = inputs.holding_entry(&message) {
            anyhow::bail!(
                "feedback file {} is {}, which this command reads; it is never written over",
                message.display(),
                input.display()
            );
        }
    }
    Ok(())
}

/// The answer, the output checked, the feedback folder and the result file of a convention.
type JudgePaths = (
    Option<PathBuf>,
    Option<PathBuf>,
    Option<PathBuf>,
    Option<PathBuf>,
);

fn paths_by_convention(args: &CheckArgs) -> Result<JudgePaths> {
    Ok(match args.exit_codes {
        ExitCodes::Gamebench => {
            if let Some(extra) = &args.extra {
                anyhow::bail!(
                    "unexpected path {}: a fourth path is the answer (--exit-codes testlib) or the feedback folder (--exit-codes kattis)",
                    extra.display()
                );
            }
            (args.expected.clone(), Some(args.output.clone()), None, None)
        }
        ExitCodes::Testlib => {
            if args.extra.is_some() && args.expected.is_some() {
                anyhow::bail!("give the answer once: as ANSWER or as --expected");
            }
            if args.judge_args.len() > 1 {
                anyhow::bail!(
                    "--exit-codes testlib: usage: check GAME INPUT OUTPUT ANSWER [RESULT_FILE [-appes]]; unexpected {}",
                    args.judge_args[1..].join(" ")
                );
            }
            if args.appes && args.judge_args.is_empty() {
                anyhow::bail!("--exit-codes testlib: `-appes` needs a RESULT_FILE before it");
            }
            (
                args.extra.clone().or(args.expected.clone()),
                Some(args.output.clone()),
                None,
                args.judge_args.first().map(PathBuf::from),
            )
        }
        ExitCodes::Kattis => {
            let Some(dir) = args.extra.clone() else {
                anyhow::bail!(
                    "--exit-codes kattis: usage: check GAME INPUT JUDGE_ANSWER FEEDBACK_DIR [FLAGS...] < TEAM_OUTPUT"
                );
            };
            if args.expected.is_some() {
                anyhow::bail!(
                    "--exit-codes kattis: the judge's answer is the third path, not --expected"
                );
            }
            if !dir.is_dir() {
                anyhow::bail!(
                    "--exit-codes kattis: feedback folder {}: not a directory",
                    dir.display()
                );
            }
            // The validator flags (`judge_args`) are accepted and ignored: the game's checker
            // is exact where the format is, and a presentation error is wrong (43).
            (Some(args.output.clone()), None, Some(dir), None)
        }
    })
}

/// testlib's outcome names in its XML result file (`-appes`).
pub(super) fn testlib_outcome(exit: Exit) -> (&'static str, &'static str) {
    match exit {
        Exit::Ok => ("accepted", "ok"),
        Exit::Failures => ("wrong-answer", "wrong answer"),
        Exit::PresentationError => ("presentation-error", "wrong output format"),
        _ => ("fail", "FAIL"),
    }
}

/// Writes testlib's result file: `VERDICT message` as its checkers write it, or with
/// `-appes` its XML (`<result outcome = "...">message</result>`), which Polygon and ejudge
/// read.
pub(super) fn write_testlib_result(
    path: &Path,
    exit: Exit,
    message: &str,
    xml: bool,
) -> Result<()> {
    let (outcome, word) = testlib_outcome(exit);
    let message = message.strip_prefix("FAIL ").unwrap_or(message);
    let text = if xml {
        format!(
            "<?xml version=\"1.0\" encoding=\"windows-1251\"?><result outcome = \"{outcome}\">{}</result>\n",
            crate::util::markup::escape_attribute(message)
        )
    } else {
        format!("{word} {message}\n")
    };
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// The command line as clap reads it: `check`'s testlib flag `-appes`, one dash and a word
/// (clap would read five short options), handed over as the hidden `--appes`.
pub fn command_line(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut args: Vec<OsString> = args.into_iter().collect();
    if args.get(1).is_some_and(|a| a == "check") {
        for arg in &mut args[2..] {
            if arg == TESTLIB_APPES {
                *arg = OsString::from("--appes");
            }
        }
    }
    args
}

/// testlib's flag for an XML result file.
const TESTLIB_APPES: &str = "-appes";

/// The exit code of a command line clap refused: `check` under a judge's convention exits with
/// its judge error (testlib's FAIL, 3, where clap's 2 would read as a presentation error);
/// help and everything else as clap says.
pub fn parse_error_code(args: &[OsString], error: &clap::Error) -> i32 {
    if !error.use_stderr() || args.get(1).is_none_or(|a| a != "check") {
        return error.exit_code();
    }
    let mut convention = None;
    for (i, arg) in args.iter().enumerate() {
        let arg = arg.to_string_lossy();
        if let Some(value) = arg.strip_prefix("--exit-codes=") {
            convention = Some(value.to_string());
        } else if arg == "--exit-codes" {
            convention = args.get(i + 1).map(|v| v.to_string_lossy().into_owned());
        }
    }
    match convention.as_deref() {
        Some("testlib") => i32::from(ExitCodes::Testlib.code(Exit::Error)),
        Some("kattis") => i32::from(ExitCodes::Kattis.code(Exit::Error)),
        _ => error.exit_code(),
    }
}
