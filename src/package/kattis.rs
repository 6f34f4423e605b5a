//! The Kattis problem package format (2025-09, its 2023-07 draft, and the legacy one before
//! them), as Kattis, DOMjudge, BAPCtools and problemtools read it: `problem.yaml`'s limits,
//! `data/sample` and `data/secret` (groups as nested folders), `data/invalid_input`, and
//! `submissions/<folder>/` with `submissions/submissions.yaml`.

use std::path::{Path, PathBuf};

use super::languages::{Languages, Sources};
use super::yaml::{self, Yaml};
use super::{Format, Package, PackageError, Submission, TimeRules};
use crate::game::Game;
use crate::invoke::Tag;
use crate::invoke::problem::ProblemLimits;

/// The file that makes a folder a Kattis package.
pub const PROBLEM_YAML: &str = crate::corpus::PACKAGE_YAML;
/// The expectations of submissions by path pattern.
pub const SUBMISSIONS_YAML: &str = "submissions.yaml";
/// DOMjudge's legacy time-limit file at the package's root (seconds).
pub const DOMJUDGE_TIMELIMIT: &str = ".timelimit";
/// The test groups a judge runs, in order.
pub const TEST_GROUPS: [&str; 2] = ["sample", "secret"];
/// Inputs every input validator must reject.
pub const INVALID_INPUT: &str = crate::corpus::PACKAGE_INVALID_INPUT;
/// Outputs the checker must reject, and outputs it must accept.
pub const INVALID_OUTPUT: &str = "invalid_output";
pub const VALID_OUTPUT: &str = "valid_output";

/// 2025-09 defaults (its spec): limit >= 2 x slowest accepted, limit x 1.5 <= fastest TLE,
/// limits rounded to 1 s.
pub const AC_TO_TIME_LIMIT: f64 = 2.0;
pub const TIME_LIMIT_TO_TLE: f64 = 1.5;
pub const TIME_RESOLUTION: f64 = 1.0;
/// The legacy format's defaults for the same two multipliers.
const LEGACY_TIME_MULTIPLIER: f64 = 5.0;
const LEGACY_TIME_SAFETY_MARGIN: f64 = 2.0;

/// The submission folders and the tag each one's default expectation maps to: `accepted`
/// (AC everywhere), `wrong_answer` (AC or WA, some WA), `time_limit_exceeded` (AC or TLE, some
/// TLE), `run_time_error` (AC or RTE, some RTE); `brute_force` (some RTE or TLE) and
/// `rejected` (some non-AC) have no tag as narrow, and map to `failing` (some verdict not
/// `ok`).
pub const FOLDERS: [(&str, Tag); 6] = [
    ("accepted", Tag::Accepted),
    ("wrong_answer", Tag::WrongAnswer),
    ("time_limit_exceeded", Tag::TimeLimit),
    ("run_time_error", Tag::RuntimeError),
    ("brute_force", Tag::Failing),
    ("rejected", Tag::Failing),
];

/// Reads the package at `root`.
pub fn read(
    root: &Path,
    game: Option<&'static dyn Game>,
    games: &[&'static dyn Game],
    languages: &Languages,
) -> Result<Package, PackageError> {
    let yaml_path = root.join(PROBLEM_YAML);
    let problem = read_yaml(&yaml_path)?;
    let game = super::choose_game(root, game, named_game(root, &problem).as_deref(), games)?;
    let (limits, time) = limits(root, &problem, &yaml_path)?;
    let data = root.join("data");
    let groups: Vec<PathBuf> = TEST_GROUPS.iter().map(|g| data.join(g)).collect();
    let files = super::tests_under(&groups, &data, game, games)?;
    let invalid_inputs = super::files_in(&data.join(INVALID_INPUT), Some("in"));
    let mut notes = Vec::new();
    let mut output_cases = super::output_cases_in(&data.join(INVALID_OUTPUT), false, &mut notes);
    output_cases.extend(super::output_cases_in(
        &data.join(VALID_OUTPUT),
        true,
        &mut notes,
    ));
    let submissions = submissions(root, languages, &mut notes)?;
    Ok(Package {
        root: root.to_path_buf(),
        format: Format::Kattis,
        game,
        files,
        invalid_inputs,
        output_cases,
        submissions,
        limits,
        time,
        notes,
    })
}

/// The game the package names: `problem.yaml`'s `gamebench` key (`gamebench: {game: G}` or
/// `gamebench: G`), else the game its gamebench output validator checks.
fn named_game(root: &Path, problem: &Yaml) -> Option<String> {
    problem
        .get("gamebench")
        .and_then(|g| g.as_str().or_else(|| g.get("game").and_then(Yaml::as_str)))
        .map(String::from)
        .or_else(|| checked_game(root))
}

/// The game of the package at `root` as [`read`] chooses it (`forced`, else the one the
/// package names, else its nearest folder named after a game), without reading the rest.
pub fn game_of(
    root: &Path,
    forced: Option<&'static dyn Game>,
    games: &[&'static dyn Game],
) -> Result<&'static dyn Game, PackageError> {
    if let Some(game) = forced {
        return Ok(game);
    }
    let problem = read_yaml(&root.join(PROBLEM_YAML))?;
    super::choose_game(root, None, named_game(root, &problem).as_deref(), games)
}

/// The game an output validator of the package checks with gamebench (`gamebench check GAME`
/// in its `run` script, as `package export` writes it).
fn checked_game(root: &Path) -> Option<String> {
    const CALL: &str = "gamebench check ";
    let mut scripts = Vec::new();
    for folder in ["output_validators", "output_validator"] {
        let dir = root.join(folder);
        scripts.push(dir.join("run"));
        if let Ok(entries) = std::fs::read_dir(&dir) {
            scripts.extend(entries.filter_map(|e| e.ok()).map(|e| e.path().join("run")));
        }
    }
    scripts.iter().find_map(|script| {
        let text = std::fs::read_to_string(script).ok()?;
        let at = text.find(CALL)?;
        Some(
            text[at + CALL.len()..]
                .split_whitespace()
                .next()?
                .to_string(),
        )
    })
}

fn read_yaml(path: &Path) -> Result<Yaml, PackageError> {
    let text = std::fs::read_to_string(path).map_err(|source| PackageError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    yaml::parse(&text).map_err(|e| PackageError::Invalid {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

/// The limits of `problem.yaml` (new and legacy keys) and DOMjudge's `.timelimit`.
fn limits(
    root: &Path,
    problem: &Yaml,
    path: &Path,
) -> Result<(ProblemLimits, TimeRules), PackageError> {
    let invalid = |message: String| PackageError::Invalid {
        path: path.to_path_buf(),
        message,
    };
    let empty = Yaml::Map(Default::default());
    let limits = problem.get("limits").unwrap_or(&empty);
    let number = |value: Option<&Yaml>, key: &str| -> Result<Option<f64>, PackageError> {
        match value {
            None => Ok(None),
            Some(v) => match v.as_f64() {
                Some(x) if x > 0.0 => Ok(Some(x)),
                _ => Err(invalid(format!("limits.{key}: not a positive number"))),
            },
        }
    };
    let legacy = problem
        .get("problem_format_version")
        .and_then(Yaml::as_str)
        .is_none_or(|v| v == "legacy");
    let multipliers = limits.get("time_multipliers");
    let (ac, tle) = if legacy {
        (
            number(limits.get("time_multiplier"), "time_multiplier")?
                .unwrap_or(LEGACY_TIME_MULTIPLIER),
            number(limits.get("time_safety_margin"), "time_safety_margin")?
                .unwrap_or(LEGACY_TIME_SAFETY_MARGIN),
        )
    } else {
        (
            number(
                multipliers.and_then(|m| m.get("ac_to_time_limit")),
                "time_multipliers.ac_to_time_limit",
            )?
            .unwrap_or(AC_TO_TIME_LIMIT),
            number(
                multipliers.and_then(|m| m.get("time_limit_to_tle")),
                "time_multipliers.time_limit_to_tle",
            )?
            .unwrap_or(TIME_LIMIT_TO_TLE),
        )
    };
    let mut time_limit = number(limits.get("time_limit"), "time_limit")?;
    if time_limit.is_none() {
        let file = root.join(DOMJUDGE_TIMELIMIT);
        if let Ok(text) = std::fs::read_to_string(&file) {
            time_limit = Some(
                text.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite() && *x > 0.0)
                    .ok_or_else(|| PackageError::Invalid {
                        path: file.clone(),
                        message: "not a positive number of seconds".into(),
                    })?,
            );
        }
    }
    let time = TimeRules {
        time_limit,
        ac_to_time_limit: ac,
        time_limit_to_tle: tle,
        resolution: number(limits.get("time_resolution"), "time_resolution")?
            .unwrap_or(TIME_RESOLUTION),
    };
    let limits = ProblemLimits {
        cpu: time_limit,
        memory: number(limits.get("memory"), "memory")?,
        output: number(limits.get("output"), "output")?,
        ..ProblemLimits::default()
    };
    Ok((limits, time))
}

/// What `submissions.yaml` says of the submissions a pattern matches.
struct Rule {
    pattern: String,
    tag: Option<Tag>,
    for_time_limit: Option<bool>,
}

/// The verdicts' short names in `permitted` / `required`.
const AC: &str = "AC";
const WA: &str = "WA";
const TLE: &str = "TLE";
const RTE: &str = "RTE";

/// The narrowest tag that `permitted` and `required` fit: all AC -> accepted; a required (or
/// the only non-AC permitted) WA, TLE or RTE -> that tag; anything else -> failing.
fn tag_of(permitted: &[String], required: &[String]) -> Tag {
    if !permitted.is_empty() && permitted.iter().all(|v| v == AC) {
        return Tag::Accepted;
    }
    let others: Vec<&String> = if required.is_empty() {
        permitted.iter().filter(|v| *v != AC).collect()
    } else {
        required.iter().collect()
    };
    match others.as_slice() {
        [one] if *one == WA => Tag::WrongAnswer,
        [one] if *one == TLE => Tag::TimeLimit,
        [one] if *one == RTE => Tag::RuntimeError,
        _ => Tag::Failing,
    }
}

fn rules(path: &Path) -> Result<Vec<Rule>, PackageError> {
    if !path.is_file() {
        return Ok(Vec::new());
    }
    let yaml = read_yaml(path)?;
    let Yaml::Map(map) = yaml else {
        return Err(PackageError::Invalid {
            path: path.to_path_buf(),
            message: "expected a mapping of patterns".into(),
        });
    };
    Ok(map
        .into_iter()
        .map(|(pattern, value)| {
            let list = |key: &str| value.get(key).map(Yaml::strings).unwrap_or_default();
            let (permitted, required) = (list("permitted"), list("required"));
            Rule {
                pattern,
                tag: (!permitted.is_empty() || !required.is_empty())
                    .then(|| tag_of(&permitted, &required)),
                for_time_limit: value
                    .get("use_for_time_limit")
                    .and_then(Yaml::as_str)
                    .map(|v| v != "false"),
            }
        })
        .collect())
}

/// Whether `pattern` (`*` any characters) matches `name`; a pattern without a wildcard also
/// matches what is under it (`accepted` matches `accepted/a.c`).
fn matches(pattern: &str, name: &str) -> bool {
    fn glob(p: &[u8], n: &[u8]) -> bool {
        match p.split_first() {
            None => n.is_empty(),
            Some((b'*', rest)) => (0..=n.len()).any(|i| glob(rest, &n[i..])),
            Some((c, rest)) => n.first() == Some(c) && glob(rest, &n[1..]),
        }
    }
    let pattern = pattern.trim_end_matches('/');
    glob(pattern.as_bytes(), name.as_bytes())
        || name
            .strip_prefix(pattern)
            .is_some_and(|rest| rest.starts_with('/'))
}

fn submissions(
    root: &Path,
    languages: &Languages,
    notes: &mut Vec<String>,
) -> Result<Vec<Submission>, PackageError> {
    let folder = root.join("submissions");
    let rules = rules(&folder.join(SUBMISSIONS_YAML))?;
    let mut found = Vec::new();
    let mut folders: Vec<PathBuf> = std::fs::read_dir(&folder)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    folders.retain(|p| p.is_dir());
    folders.sort();
    for dir in folders {
        let folder_name = dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let default_tag = FOLDERS
            .iter()
            .find(|(name, _)| *name == folder_name)
            .map(|(_, tag)| *tag);
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map_err(|source| PackageError::Io {
                path: dir.clone(),
                source,
            })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for path in entries {
            let entry = path.file_name().unwrap_or_default().to_string_lossy();
            let name = format!("{folder_name}/{entry}");
            if Sources::of(&path, languages).is_none() {
                notes.push(format!(
                    "{name}: skipped: no language of the table has its extension"
                ));
                continue;
            }
            let mut tag = default_tag;
            let mut for_time_limit = None;
            for rule in rules.iter().filter(|r| matches(&r.pattern, &name)) {
                tag = rule.tag.or(tag);
                for_time_limit = rule.for_time_limit.or(for_time_limit);
            }
            found.push(Submission {
                name,
                path,
                tag,
                for_time_limit: for_time_limit
                    .unwrap_or(matches!(tag, Some(Tag::Accepted | Tag::TimeLimit))),
            });
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expectations_map_to_the_narrowest_tag() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(tag_of(&v(&["AC"]), &[]), Tag::Accepted);
        assert_eq!(tag_of(&v(&["AC", "WA"]), &v(&["WA"])), Tag::WrongAnswer);
        assert_eq!(tag_of(&v(&["AC", "TLE"]), &[]), Tag::TimeLimit);
        assert_eq!(tag_of(&[], &v(&["RTE"])), Tag::RuntimeError);
        assert_eq!(
            tag_of(&v(&["AC", "RTE", "TLE"]), &v(&["RTE", "TLE"])),
            Tag::Failing
        );
    }

    #[test]
    fn patterns_match_paths_and_folders() {
        assert!(matches("accepted", "accepted/a.c"));
        assert!(matches("accepted/", "accepted/a.c"));
        assert!(!matches("accepted", "accepted_x/a.c"));
        assert!(matches("*/slow*", "accepted/slow.py"));
        assert!(matches("wrong_answer/a.c", "wrong_answer/a.c"));
        assert!(!matches("wrong_answer/a.c", "wrong_answer/a.cc"));
    }

    #[test]
    fn new_and_legacy_limits() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(PROBLEM_YAML);
        let new = yaml::parse(
            "problem_format_version: 2025-09\nlimits:\n  time_limit: 2\n  memory: 512\n  time_multipliers:\n    ac_to_time_limit: 3\n",
        )
        .unwrap();
        let (limits, time) = limits(dir.path(), &new, &path).unwrap();
        assert_eq!((limits.cpu, limits.memory), (Some(2.0), Some(512.0)));
        assert_eq!((time.ac_to_time_limit, time.time_limit_to_tle), (3.0, 1.5));
        let legacy = yaml::parse("limits:\n  time_multiplier: 4\n").unwrap();
        std::fs::write(dir.path().join(DOMJUDGE_TIMELIMIT), "3\n").unwrap();
        let (limits, time) = super::limits(dir.path(), &legacy, &path).unwrap();
        assert_eq!(limits.cpu, Some(3.0));
        assert_eq!((time.ac_to_time_limit, time.time_limit_to_tle), (4.0, 2.0));
        let bad = yaml::parse("limits:\n  time_limit: fast\n").unwrap();
        assert!(super::limits(dir.path(), &bad, &path).is_err());
    }
}
