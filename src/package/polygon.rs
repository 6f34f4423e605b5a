//! Polygon packages (Codeforces): `problem.xml`'s limits and test paths (`tests/01` with its
//! answer `tests/01.a`) and its solutions with their tags. The tests have no `.in` extension,
//! so the reader links each one into a view folder (`NN.in`, `NN.ans`) in the build cache and
//! reads that view as any corpus; the package itself is never written to.

use std::path::{Path, PathBuf};

use super::languages::{Languages, Sources};
use super::{Format, Package, PackageError, Submission, TimeRules};
use crate::corpus::{ANSWER_EXTENSION, INPUT_EXTENSION};
use crate::game::Game;
use crate::invoke::Tag;
use crate::invoke::problem::ProblemLimits;

/// The file that makes a folder a Polygon package.
pub const PROBLEM_XML: &str = "problem.xml";
/// Polygon's defaults when `problem.xml` leaves the paths out.
const DEFAULT_INPUT_PATTERN: &str = "tests/%02d";
const DEFAULT_ANSWER_PATTERN: &str = "tests/%02d.a";
/// The digits of a test's number in the view at least (`01`), as Polygon numbers them.
const MIN_TEST_DIGITS: usize = 2;
/// The folder under the system's temporary folder (with the user's id) holding the views.
const VIEW_FOLDER: &str = "gamebench-polygon";
/// The view's own folder in its package's folder there: the corpus the runs read.
const VIEW_TESTS: &str = "tests";
const MS_PER_SECOND: f64 = 1000.0;
const BYTES_PER_MIB: f64 = 1024.0 * 1024.0;
/// Polygon states no multipliers: the Kattis 2025-09 defaults advise its limits.
const AC_TO_TIME_LIMIT: f64 = 2.0;
const TIME_LIMIT_TO_TLE: f64 = 1.5;
const TIME_RESOLUTION: f64 = 1.0;

/// Polygon's solution tags and invoke's, one for one.
pub const TAGS: [(&str, Option<Tag>); 10] = [
    ("main", Some(Tag::Main)),
    ("accepted", Some(Tag::Accepted)),
    ("wrong-answer", Some(Tag::WrongAnswer)),
    ("presentation-error", Some(Tag::PresentationError)),
    ("time-limit-exceeded", Some(Tag::TimeLimit)),
    ("memory-limit-exceeded", Some(Tag::MemoryLimit)),
    ("failed", Some(Tag::RuntimeError)),
    ("rejected", Some(Tag::Failing)),
    (
        "time-limit-exceeded-or-accepted",
        Some(Tag::TimeLimitOrAccepted),
    ),
    (
        "time-limit-exceeded-or-memory-limit-exceeded",
        Some(Tag::TimeLimitOrMemoryLimit),
    ),
];

/// The text of the first `<name>...</name>` in `xml`.
fn element<'a>(xml: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("<{name}>");
    let start = xml.find(&open)? + open.len();
    let end = xml[start..].find(&format!("</{name}>"))? + start;
    Some(xml[start..end].trim())
}

/// The value of attribute `name` in the tag text `tag`.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = tag[start..].find('"')? + start;
    Some(&tag[start..end])
}

/// `pattern` (`tests/%02d`) for test `n`.
fn path_of(pattern: &str, n: usize) -> String {
    match pattern.find('%') {
        Some(at) => {
            let spec_end = pattern[at..]
                .find('d')
                .map_or(pattern.len(), |d| at + d + 1);
            let width: usize = pattern[at + 1..spec_end - 1]
                .trim_start_matches('0')
                .parse()
                .unwrap_or(0);
            format!(
                "{}{:0width$}{}",
                &pattern[..at],
                n,
                &pattern[spec_end..],
                width = width
            )
        }
        None => pattern.to_string(),
    }
}

pub fn read(
    root: &Path,
    game: Option<&'static dyn Game>,
    games: &[&'static dyn Game],
    languages: &Languages,
) -> Result<Package, PackageError> {
    let path = root.join(PROBLEM_XML);
    let xml = std::fs::read_to_string(&path).map_err(|source| PackageError::Io {
        path: path.clone(),
        source,
    })?;
    let invalid = |message: String| PackageError::Invalid {
        path: path.clone(),
        message,
    };
    let game = super::choose_game(root, game, None, games)?;
    let number = |name: &str| -> Result<Option<f64>, PackageError> {
        element(&xml, name)
            .map(|t| {
                t.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite() && *x > 0.0)
                    .ok_or_else(|| invalid(format!("<{name}>{t}</{name}>: not a positive number")))
            })
            .transpose()
    };
    let time_limit = number("time-limit")?.map(|ms| ms / MS_PER_SECOND);
    let memory = number("memory-limit")?.map(|bytes| bytes / BYTES_PER_MIB);
    let files = match test_view(root, &xml)? {
        Some(view) => super::tests_under(std::slice::from_ref(&view), &view, game, games)?,
        None => Vec::new(),
    };
    let mut submissions = Vec::new();
    let mut notes = Vec::new();
    let mut rest = xml.as_str();
    // `<solution ` with its attributes: not `<solutions>`, the list around them.
    while let Some(at) = rest.find("<solution ") {
        let tag_end = rest[at..].find('>').map_or(rest.len(), |e| at + e);
        let tag_text = &rest[at..tag_end];
        let polygon_tag = attribute(tag_text, "tag").unwrap_or("");
        rest = &rest[tag_end..];
        let source = rest.find("<source").and_then(|s| {
            attribute(
                &rest[s..rest[s..].find('>').map_or(rest.len(), |e| s + e)],
                "path",
            )
        });
        let Some(source) = source else { continue };
        let file = root.join(source);
        if Sources::of(&file, languages).is_none() {
            notes.push(format!(
                "{source}: skipped: no language of the table has its extension"
            ));
            continue;
        }
        let tag = TAGS
            .iter()
            .find(|(name, _)| *name == polygon_tag)
            .and_then(|(_, tag)| *tag);
        submissions.push(Submission {
            name: source.to_string(),
            path: file,
            tag,
            for_time_limit: matches!(
                tag,
                Some(Tag::Main | Tag::Accepted | Tag::TimeLimit | Tag::TimeLimitOrAccepted)
            ),
        });
    }
    Ok(Package {
        root: root.to_path_buf(),
        format: Format::Polygon,
        game,
        files,
        invalid_inputs: Vec::new(),
        output_cases: Vec::new(),
        submissions,
        limits: ProblemLimits {
            cpu: time_limit,
            memory,
            ..ProblemLimits::default()
        },
        time: TimeRules {
            time_limit,
            ac_to_time_limit: AC_TO_TIME_LIMIT,
            time_limit_to_tle: TIME_LIMIT_TO_TLE,
            resolution: TIME_RESOLUTION,
        },
        notes,
    })
}

/// The Polygon package at `root` seen as a corpus: the folder of its view (see
/// [`test_view`]), or `None` when it has no tests.
pub fn tests_folder(root: &Path) -> Result<Option<PathBuf>, PackageError> {
    let path = root.join(PROBLEM_XML);
    let xml = std::fs::read_to_string(&path).map_err(|source| PackageError::Io { path, source })?;
    test_view(root, &xml)
}

/// Links every test of the package (`problem.xml` read as `xml`) into a fresh view folder as
/// `NN.in` with its answer `NN.ans`, numbered wide enough that the view's bytewise order is
/// the tests' order (`001` ... `100` past 99 tests); `None` when it has no tests.
fn test_view(root: &Path, xml: &str) -> Result<Option<PathBuf>, PackageError> {
    let path = root.join(PROBLEM_XML);
    let invalid = |message: String| PackageError::Invalid {
        path: path.clone(),
        message,
    };
    let count = match element(xml, "test-count") {
        Some(t) => t
            .parse::<usize>()
            .map_err(|_| invalid(format!("<test-count>{t}</test-count>: not a count")))?,
        None => 0,
    };
    if count == 0 {
        return Ok(None);
    }
    let input_pattern = element(xml, "input-path-pattern").unwrap_or(DEFAULT_INPUT_PATTERN);
    let answer_pattern = element(xml, "answer-path-pattern").unwrap_or(DEFAULT_ANSWER_PATTERN);
    let (folder, scratch) = match view_folder(root, xml)? {
        Ok(folder) => return Ok(Some(folder.join(VIEW_TESTS))),
        Err(fresh) => fresh,
    };
    // Filled in a folder of this process's own and moved into place whole: a second process
    // reading the package never sees a half-made view nor has it emptied under it.
    let filled = fill_view(
        root,
        &scratch.join(VIEW_TESTS),
        (count, input_pattern, answer_pattern),
        &invalid,
    );
    if let Err(e) = filled {
        let _ = std::fs::remove_dir_all(&scratch);
        return Err(e);
    }
    super::zip::settle(&scratch, &folder)?;
    Ok(Some(folder.join(VIEW_TESTS)))
}

/// Links the package's `count` tests (found by their patterns) into `view`.
fn fill_view(
    root: &Path,
    view: &Path,
    (count, input_pattern, answer_pattern): (usize, &str, &str),
    invalid: &dyn Fn(String) -> PackageError,
) -> Result<(), PackageError> {
    let width = count.to_string().len().max(MIN_TEST_DIGITS);
    for n in 1..=count {
        let input = root.join(path_of(input_pattern, n));
        let answer = root.join(path_of(answer_pattern, n));
        if !input.is_file() {
            return Err(invalid(format!(
                "test {n}: {} is missing (tests generated by Polygon must be in the package)",
                input.display()
            )));
        }
        let stem = format!("{n:0width$}");
        link(&input, &view.join(format!("{stem}.{INPUT_EXTENSION}")))?;
        if answer.is_file() {
            link(&answer, &view.join(format!("{stem}.{ANSWER_EXTENSION}")))?;
        }
    }
    Ok(())
}

/// The folder holding the package's view (in its `tests/`), under this user's
/// `gamebench-polygon-<uid>` and named after the package's path and its `problem.xml` (two
/// packages never share one, and a changed `problem.xml` gets a view of its own):
/// `Ok(folder)` when a complete one is there, else `Err((folder, scratch))`, a fresh folder of
/// this process's own to fill and move to `folder`.
fn view_folder(
    root: &Path,
    xml: &str,
) -> Result<Result<PathBuf, (PathBuf, PathBuf)>, PackageError> {
    let absolute = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
    let mut identity = absolute.as_os_str().as_encoded_bytes().to_vec();
    identity.push(0);
    identity.extend_from_slice(xml.as_bytes());
    let key = crate::util::digest::digest(&identity);
    let base = super::zip::user_folder(VIEW_FOLDER)?;
    let folder = base.join(&key);
    if folder.is_dir() && !folder.is_symlink() {
        return Ok(Ok(folder));
    }
    let scratch = base.join(format!(".{key}.{}", std::process::id()));
    let io = |source| PackageError::Io {
        path: scratch.clone(),
        source,
    };
    if scratch.exists() {
        std::fs::remove_dir_all(&scratch).map_err(io)?;
    }
    std::fs::create_dir_all(scratch.join(VIEW_TESTS)).map_err(io)?;
    Ok(Err((folder, scratch)))
}

fn link(target: &Path, at: &Path) -> Result<(), PackageError> {
    let target = std::path::absolute(target).unwrap_or_else(|_| target.to_path_buf());
    std::os::unix::fs::symlink(&target, at).map_err(|source| PackageError::Io {
        path: at.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_and_elements() {
        assert_eq!(path_of("tests/%02d", 3), "tests/03");
        assert_eq!(path_of("tests/%02d.a", 12), "tests/12.a");
        assert_eq!(path_of("t/%d", 7), "t/7");
        let xml = r#"<problem><judging><testset name="tests"><time-limit>2000</time-limit>
            <memory-limit>268435456</memory-limit></testset></judging>
            <solution tag="main"><source path="solutions/a.cpp" type="cpp.g++17"/></solution></problem>"#;
        assert_eq!(element(xml, "time-limit"), Some("2000"));
        assert_eq!(attribute("<solution tag=\"main\"", "tag"), Some("main"));
    }
}
