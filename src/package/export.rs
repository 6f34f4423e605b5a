//! `package export`: a problem (a `problem.toml` or a package read as in [`super::read`]) written
//! as a Kattis package (the legacy layout every tool reads: problemtools' `verifyproblem`,
//! DOMjudge, Kattis) or a Polygon one, with validators that call gamebench's own checker and
//! validator, so a package goes round trip and gains them.

use std::path::{Path, PathBuf};

use super::kattis::{DOMJUDGE_TIMELIMIT, FOLDERS, INVALID_INPUT, PROBLEM_YAML};
use super::polygon::PROBLEM_XML;
use super::{PackageError, TimeRules};
use crate::corpus::{ANSWER_EXTENSION, CaseFile, INPUT_EXTENSION};
use crate::game::Game;
use crate::invoke::Tag;
use crate::invoke::problem::ProblemLimits;

/// The package formats `export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    Kattis,
    Polygon,
}

/// The Kattis layout written: the legacy one (every tool reads it: problemtools, DOMjudge,
/// Kattis), or the 2023-07 draft's (the layout of the 2025-09 format, stated as
/// `problem_format_version: 2023-07-draft`, the version problemtools checks; it has no
/// `2025-09` yet).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Layout {
    #[default]
    Legacy,
    #[value(name = "2023-07")]
    V2023_07,
}

/// A solution to export: its name, its source (a file or folder; `None` for an internal
/// engine or a command with no source file), its tag.
#[derive(Debug, Clone)]
pub struct ExportSolution {
    pub name: String,
    pub source: Option<PathBuf>,
    pub tag: Option<Tag>,
}

/// What to export.
pub struct Export<'a> {
    pub name: String,
    pub game: &'static dyn Game,
    pub files: &'a [CaseFile],
    pub invalid_inputs: &'a [PathBuf],
    pub solutions: Vec<ExportSolution>,
    pub limits: ProblemLimits,
    pub time: Option<TimeRules>,
}

/// The validators' folder name inside `output_validators/` and `input_format_validators/`.
const VALIDATOR: &str = "gamebench";
/// Kattis' output-validator exit codes, as `check --exit-codes kattis` gives them, and the
/// input validator's.
const KATTIS_ACCEPTED: i32 = 42;
const KATTIS_REJECTED: i32 = 43;
/// `gamebench validate`'s exit code for an invalid input.
const VALIDATE_INVALID: i32 = 3;
const MS_PER_SECOND: f64 = 1000.0;
const BYTES_PER_MIB: f64 = 1024.0 * 1024.0;
/// Polygon needs a memory limit: 256 MiB, its usual default, when the problem states none.
const POLYGON_DEFAULT_MEMORY_MIB: f64 = 256.0;
/// And a time limit: 1 s when the problem states none.
const DEFAULT_TIME_LIMIT_S: f64 = 1.0;

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> PackageError + '_ {
    move |source| PackageError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), PackageError> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(io(parent))?;
    }
    std::fs::write(path, bytes).map_err(io(path))
}

fn write_script(path: &Path, text: &str) -> Result<(), PackageError> {
    use std::os::unix::fs::PermissionsExt;
    write(path, text.as_bytes())?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).map_err(io(path))
}

/// Copies a file, or a folder's files (not recursively: a submission's sources).
fn copy(from: &Path, to: &Path) -> Result<(), PackageError> {
    if from.is_dir() {
        std::fs::create_dir_all(to).map_err(io(to))?;
        for entry in std::fs::read_dir(from).map_err(io(from))? {
            let path = entry.map_err(io(from))?.path();
            if path.is_file() {
                copy(&path, &to.join(path.file_name().unwrap_or_default()))?;
            }
        }
        return Ok(());
    }
    let bytes = std::fs::read(from).map_err(io(from))?;
    write(to, &bytes)
}

/// The expected output of a test, which a package must have.
fn answer(file: &CaseFile) -> Result<Vec<u8>, PackageError> {
    match file.read_expected()? {
        Some((_, bytes)) => Ok(bytes),
        None => Err(PackageError::Invalid {
            path: file.path.clone(),
            message: "no expected output (.out or .ans): a package needs one for every test \
                      (write them with `gen` or `invoke --select`)"
                .into(),
        }),
    }
}

/// Writes `export` as `format` into `out` (a new or empty folder); the notes say what was
/// left out and why.
pub fn export(
    export: &Export,
    format: ExportFormat,
    layout: Layout,
    out: &Path,
) -> Result<Vec<String>, PackageError> {
    if std::fs::read_dir(out).is_ok_and(|mut d| d.next().is_some()) {
        return Err(PackageError::Invalid {
            path: out.to_path_buf(),
            message: "not empty: export writes a new package".into(),
        });
    }
    let mut notes = Vec::new();
    for s in &export.solutions {
        if s.source.is_none() {
            notes.push(format!(
                "{}: not exported: an internal engine or a command without a source file is not a submission",
                s.name
            ));
        }
    }
    match format {
        ExportFormat::Kattis => kattis(export, layout, out, &mut notes)?,
        ExportFormat::Polygon => polygon(export, out, &mut notes)?,
    }
    Ok(notes)
}

fn kattis(
    export: &Export,
    layout: Layout,
    out: &Path,
    notes: &mut Vec<String>,
) -> Result<(), PackageError> {
    let game = export.game.name();
    let (statement, yaml) = match layout {
        Layout::Legacy => ("problem_statement", legacy_yaml(export)),
        Layout::V2023_07 => ("statement", draft_yaml(export)),
    };
    write(
        &out.join(statement).join("problem.en.tex"),
        format!(
            "\\problemname{{{name}}}\n\nThe statement of {game}: see gamebench's docs/formats.md.\n",
            name = export.name.replace(['{', '}', '\\'], "")
        )
        .as_bytes(),
    )?;
    write(&out.join(PROBLEM_YAML), yaml.as_bytes())?;
    if let (Some(limit), Layout::Legacy) = (export.limits.cpu, layout) {
        write(
            &out.join(DOMJUDGE_TIMELIMIT),
            format!("{limit}\n").as_bytes(),
        )?;
    }
    let data = out.join("data");
    for file in export.files {
        let relative = file.relative.to_string_lossy().replace('\\', "/");
        let relative = if relative.starts_with("sample/") || relative.starts_with("secret/") {
            relative
        } else {
            format!("secret/{relative}")
        };
        let to = data.join(relative);
        copy(&file.path, &to.with_extension(INPUT_EXTENSION))?;
        write(&to.with_extension(ANSWER_EXTENSION), &answer(file)?)?;
    }
    // The legacy layout has no such group, and problemtools (1.20260907) refuses it in the
    // 2023-07 one.
    if !export.invalid_inputs.is_empty() {
        notes.push(format!(
            "data/{INVALID_INPUT}: {} file(s) not exported: the legacy layout has no such group, problemtools refuses it in the 2023-07 one \
             (the exported input validator is gamebench's own, which rejects them)",
            export.invalid_inputs.len()
        ));
    }
    for s in &export.solutions {
        let Some(source) = &s.source else { continue };
        let folder = match s.tag {
            Some(Tag::Main) => Some("accepted"),
            Some(tag @ (Tag::Accepted | Tag::WrongAnswer | Tag::TimeLimit | Tag::RuntimeError)) => {
                FOLDERS.iter().find(|(_, t)| *t == tag).map(|(f, _)| *f)
            }
            // A presentation error is a wrong answer to a Kattis validator.
            Some(Tag::PresentationError) => Some("wrong_answer"),
            Some(
                Tag::MemoryLimit
                | Tag::OutputLimit
                | Tag::TimeLimitOrAccepted
                | Tag::TimeLimitOrMemoryLimit
                | Tag::Failing,
            )
            | None => None,
        };
        let Some(folder) = folder else {
            notes.push(format!(
                "{}: not exported: the legacy layout has no submissions folder for its tag ({})",
                s.name,
                s.tag.map_or("none".to_string(), |t| t.to_string())
            ));
            continue;
        };
        let name = source.file_name().unwrap_or_default();
        copy(source, &out.join("submissions").join(folder).join(name))?;
    }
    // Both layouts hold the output validator as a program folder inside the validators'
    // folder (problemtools finds the programs in it, not the folder itself).
    let checker = match layout {
        Layout::Legacy => out.join("output_validators").join(VALIDATOR),
        Layout::V2023_07 => out.join("output_validator").join(VALIDATOR),
    };
    write_script(&checker.join("build"), BUILD_SCRIPT)?;
    write_script(
        &checker.join("run"),
        &format!(
            "#!/bin/sh\n# Kattis output validator: run INPUT JUDGE_ANSWER FEEDBACK_DIR [flags] < TEAM_OUTPUT;\n\
             # gamebench's checker of {game}, exit {KATTIS_ACCEPTED} accepted, {KATTIS_REJECTED} wrong.\n\
             exec gamebench check {game} \"$1\" \"$2\" \"$3\" --exit-codes kattis\n"
        ),
    )?;
    let validator = match layout {
        Layout::Legacy => out.join("input_format_validators"),
        Layout::V2023_07 => out.join("input_validators"),
    }
    .join(VALIDATOR);
    write_script(&validator.join("build"), BUILD_SCRIPT)?;
    write_script(
        &validator.join("run"),
        &format!(
            "#!/bin/sh\n# Kattis input validator: the input on stdin; gamebench's strict validator of {game},\n\
             # exit {KATTIS_ACCEPTED} valid, {KATTIS_REJECTED} invalid, anything else a judge error.\n\
             input=$(mktemp) || exit 1\ntrap 'rm -f \"$input\"' EXIT\ncat > \"$input\" || exit 1\n\
             gamebench validate {game} \"$input\" >&2\ncase $? in\n  0) exit {KATTIS_ACCEPTED} ;;\n  {VALIDATE_INVALID}) exit {KATTIS_REJECTED} ;;\n  *) exit 1 ;;\nesac\n"
        ),
    )?;
    Ok(())
}

/// `problem.yaml` of the legacy layout: the multipliers as `time_multiplier` and
/// `time_safety_margin` (the limit goes to DOMjudge's `.timelimit`).
fn legacy_yaml(export: &Export) -> String {
    let mut yaml = format!(
        "# Written by gamebench package export: the legacy Kattis layout, read by problemtools,\n\
         # DOMjudge and Kattis. The validators call gamebench, which the judge machine needs on\n\
         # its PATH. The game is the one its output validator checks.\nname: {name:?}\nuuid: {uuid}\nvalidation: custom\n",
        name = export.name,
        uuid = uuid_of(&export.name, export.game.name()),
    );
    let mut limits = String::new();
    if let Some(time) = &export.time {
        limits.push_str(&format!(
            "  time_multiplier: {}\n  time_safety_margin: {}\n",
            time.ac_to_time_limit, time.time_limit_to_tle
        ));
    }
    push_limits(export, limits, &mut yaml);
    yaml
}

/// Adds the sizes to the time keys `limits` and writes them as `problem.yaml`'s `limits:`
/// section, if any.
fn push_limits(export: &Export, mut limits: String, yaml: &mut String) {
    push_sizes(export, &mut limits);
    if !limits.is_empty() {
        yaml.push_str("limits:\n");
        yaml.push_str(&limits);
    }
}

/// `problem.yaml` of the 2023-07 draft's layout: `limits.time_limit` when the problem states
/// one, `limits.time_multipliers`, a pass-fail problem with its output validator in
/// `output_validator/`.
fn draft_yaml(export: &Export) -> String {
    let mut yaml = format!(
        "# Written by gamebench package export: the Kattis layout of the 2023-07 draft (now\n\
         # 2025-09), as problemtools checks it. The validators call gamebench, which the judge\n\
         # machine needs on its PATH. The game is the one its output validator checks.\n\
         problem_format_version: 2023-07-draft\nname: {name:?}\nuuid: {uuid}\ntype: pass-fail\n",
        name = export.name,
        uuid = uuid_of(&export.name, export.game.name()),
    );
    let mut limits = String::new();
    if let Some(limit) = export.limits.cpu {
        limits.push_str(&format!("  time_limit: {limit}\n"));
    }
    if let Some(time) = &export.time {
        limits.push_str(&format!(
            "  time_multipliers:\n    ac_to_time_limit: {}\n    time_limit_to_tle: {}\n",
            time.ac_to_time_limit, time.time_limit_to_tle
        ));
    }
    push_limits(export, limits, &mut yaml);
    yaml
}

/// The memory and output limits (MiB, whole) as `limits:` lines.
fn push_sizes(export: &Export, limits: &mut String) {
    for (key, value) in [
        ("memory", export.limits.memory),
        ("output", export.limits.output),
    ] {
        if let Some(mib) = value {
            limits.push_str(&format!("  {key}: {}\n", mib.ceil()));
        }
    }
}

/// A validator's `build`: nothing to build, but gamebench must be there.
const BUILD_SCRIPT: &str = "#!/bin/sh\n# Nothing to build: the validator is gamebench, which must be on the PATH.\n\
command -v gamebench > /dev/null || { echo 'gamebench is not on the PATH' >&2; exit 1; }\n";

fn polygon(export: &Export, out: &Path, notes: &mut Vec<String>) -> Result<(), PackageError> {
    let game = export.game.name();
    let tests = out.join("tests");
    for (i, file) in export.files.iter().enumerate() {
        let stem = tests.join(format!("{:02}", i + 1));
        copy(&file.path, &stem)?;
        write(&stem.with_extension("a"), &answer(file)?)?;
    }
    let mut solutions = String::new();
    for (i, s) in export.solutions.iter().enumerate() {
        let Some(source) = &s.source else { continue };
        if source.is_dir() {
            notes.push(format!(
                "{}: not exported: Polygon solutions are single files",
                s.name
            ));
            continue;
        }
        let tag = match s.tag {
            Some(Tag::Main) => "main",
            Some(Tag::Accepted) => "accepted",
            Some(Tag::WrongAnswer) => "wrong-answer",
            Some(Tag::PresentationError) => "presentation-error",
            Some(Tag::TimeLimit) => "time-limit-exceeded",
            Some(Tag::MemoryLimit) => "memory-limit-exceeded",
            Some(Tag::RuntimeError) => "failed",
            // Polygon has no output-limit tag: a rejected solution.
            Some(Tag::OutputLimit | Tag::Failing) => "rejected",
            Some(Tag::TimeLimitOrMemoryLimit) => "time-limit-exceeded-or-memory-limit-exceeded",
            Some(Tag::TimeLimitOrAccepted) | None => "time-limit-exceeded-or-accepted",
        };
        // Numbered: two submissions may share a file name. A Java source keeps its own name
        // when it is free: javac wants a public class in a file of the class's name.
        let file_name = source.file_name().unwrap_or_default().to_string_lossy();
        let is_java = source.extension().is_some_and(|e| e == "java");
        let name = if is_java && !solutions.contains(&format!("solutions/{file_name}\"")) {
            file_name.into_owned()
        } else {
            format!("{:02}-{file_name}", i + 1)
        };
        copy(source, &out.join("solutions").join(&name))?;
        solutions.push_str(&format!(
            "      <solution tag=\"{tag}\"><source path=\"solutions/{}\"/></solution>\n",
            crate::util::markup::escape(&name)
        ));
    }
    let time_ms = export.limits.cpu.unwrap_or(DEFAULT_TIME_LIMIT_S) * MS_PER_SECOND;
    let memory = export.limits.memory.unwrap_or(POLYGON_DEFAULT_MEMORY_MIB) * BYTES_PER_MIB;
    let xml = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\
         <!-- Written by gamebench package export (game {game}): the checker is\n\
         files/check.sh, gamebench's checker with testlib's exit codes; gamebench must be on the\n\
         PATH of the machine that judges. -->\n\
         <problem short-name={name:?}>\n  <judging>\n    <testset name=\"tests\">\n\
         \x20     <time-limit>{time_ms:.0}</time-limit>\n      <memory-limit>{memory:.0}</memory-limit>\n\
         \x20     <test-count>{count}</test-count>\n      <input-path-pattern>tests/%02d</input-path-pattern>\n\
         \x20     <answer-path-pattern>tests/%02d.a</answer-path-pattern>\n    </testset>\n  </judging>\n\
         \x20 <assets>\n    <checker type=\"testlib\"><source path=\"files/check.sh\" type=\"sh\"/></checker>\n\
         \x20   <solutions>\n{solutions}    </solutions>\n  </assets>\n</problem>\n",
        name = crate::util::markup::escape(&export.name),
        count = export.files.len(),
    );
    write(&out.join(PROBLEM_XML), xml.as_bytes())?;
    write_script(
        &out.join("files/check.sh"),
        &format!(
            "#!/bin/sh\n# testlib checker: check INPUT OUTPUT ANSWER; exit 0 OK, 1 WA, 2 PE, 3 FAIL.\n\
             exec gamebench check {game} \"$1\" \"$2\" \"$3\" --exit-codes testlib\n"
        ),
    )?;
    Ok(())
}

/// A UUID (the form problemtools asks for) derived from the problem's name and game, so an
/// export of the same problem keeps it.
fn uuid_of(name: &str, game: &str) -> String {
    let a = crate::util::digest::digest(format!("{game}\0{name}").as_bytes());
    let b = crate::util::digest::digest(format!("{name}\0{game}").as_bytes());
    let hex = format!("{a:0>16}{b:0>16}");
    format!(
        "{}-{}-4{}-8{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[13..16],
        &hex[17..20],
        &hex[20..32]
    )
}
