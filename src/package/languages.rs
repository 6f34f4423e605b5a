//! The language table (`languages.toml`, overridable with `--languages FILE`): how a
//! submission of each language is built and run, and the build cache, where each submission is
//! built once (keyed by its sources and its commands) and reused by later invocations.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::PackageError;

/// The built-in table, documented in docs/packages.md.
pub const DEFAULT_TABLE: &str = include_str!("languages.toml");

/// The file a successful build leaves in its cache folder: its presence means "built".
const BUILT_MARKER: &str = ".built";

/// How one language is built and run.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Language {
    pub extensions: Vec<String>,
    pub compile: Option<String>,
    pub run: String,
}

/// The languages by name.
#[derive(Debug, Clone, PartialEq)]
pub struct Languages(pub BTreeMap<String, Language>);

impl Languages {
    /// The built-in table, with the languages of `override_file` replacing (or adding to) its
    /// own.
    pub fn load(override_file: Option<&Path>) -> Result<Languages, PackageError> {
        let mut table = parse(DEFAULT_TABLE, Path::new("(built-in languages.toml)"))?;
        if let Some(path) = override_file {
            let text = std::fs::read_to_string(path).map_err(|source| PackageError::Io {
                path: path.to_path_buf(),
                source,
            })?;
            table.0.extend(parse(&text, path)?.0);
        }
        Ok(table)
    }

    /// The language of a source file, from its extension (case-sensitive first: `.C` is
    /// C++).
    pub fn of(&self, file: &Path) -> Option<(&str, &Language)> {
        let extension = file.extension()?.to_str()?;
        let find = |wanted: &dyn Fn(&str) -> bool| {
            self.0
                .iter()
                .find(|(_, l)| l.extensions.iter().any(|e| wanted(e)))
                .map(|(name, l)| (name.as_str(), l))
        };
        find(&|e| e == extension).or_else(|| find(&|e| e.eq_ignore_ascii_case(extension)))
    }
}

fn parse(text: &str, path: &Path) -> Result<Languages, PackageError> {
    toml::from_str(text)
        .map(Languages)
        .map_err(|e| PackageError::Invalid {
            path: path.to_path_buf(),
            message: e.to_string(),
        })
}

/// A submission's sources: one file, or the files of a folder.
#[derive(Debug, Clone)]
pub struct Sources {
    pub files: Vec<PathBuf>,
    pub main: PathBuf,
}

impl Sources {
    /// The sources of `path` (a file or a folder) in `language`'s extensions; the main file
    /// of a folder is the one named `main.*`, else the first.
    pub fn of(path: &Path, languages: &Languages) -> Option<(String, Sources)> {
        if path.is_file() {
            let (name, _) = languages.of(path)?;
            return Some((
                name.to_string(),
                Sources {
                    files: vec![path.to_path_buf()],
                    main: path.to_path_buf(),
                },
            ));
        }
        let mut files: Vec<PathBuf> = std::fs::read_dir(path)
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        let language = files.iter().find_map(|f| languages.of(f))?.0.to_string();
        files.retain(|f| languages.of(f).is_some_and(|(l, _)| l == language));
        let main = files
            .iter()
            .find(|f| {
                f.file_stem()
                    .is_some_and(|s| s.eq_ignore_ascii_case("main"))
            })
            .unwrap_or(&files[0])
            .clone();
        Some((language, Sources { files, main }))
    }
}

/// `text` with its placeholders filled (paths quoted for the shell).
fn fill(text: &str, sources: &Sources, build: &Path) -> String {
    let files: Vec<String> = sources.files.iter().map(|f| quote(f)).collect();
    let class = sources
        .main
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    text.replace("{files}", &files.join(" "))
        .replace("{main}", &quote(&sources.main))
        .replace("{mainclass}", &class)
        .replace("{binary}", &quote(&build.join("run")))
        .replace("{build}", &quote(build))
}

/// A path quoted for `sh`.
pub fn quote(path: &Path) -> String {
    format!("'{}'", path.to_string_lossy().replace('\'', r"'\''"))
}

/// A built submission: the command that runs it, or why it could not be built.
pub type Built = Result<String, String>;

/// Builds `sources` in `language` under `cache` (once: a folder keyed by the sources' names
/// and bytes and the commands, reused when its marker is there), and gives the run command.
/// A failing compiler is `Err` with its first lines of output (a `compile-error`); a cache
/// folder that cannot be made is an error of the invocation.
pub fn build(language: &Language, sources: &Sources, cache: &Path) -> Result<Built, PackageError> {
    let mut key = Vec::new();
    for part in [language.compile.as_deref().unwrap_or(""), &language.run] {
        key.extend_from_slice(part.as_bytes());
        key.push(0);
    }
    for file in &sources.files {
        key.extend_from_slice(file.as_os_str().as_encoded_bytes());
        key.push(0);
        let bytes = std::fs::read(file).map_err(|source| PackageError::Io {
            path: file.clone(),
            source,
        })?;
        key.extend_from_slice(&bytes);
    }
    let folder = cache.join(crate::util::digest::digest(&key));
    let io = |source| PackageError::Io {
        path: folder.clone(),
        source,
    };
    let run = fill(&language.run, sources, &folder);
    if folder.join(BUILT_MARKER).is_file() {
        return Ok(Ok(run));
    }
    std::fs::create_dir_all(&folder).map_err(io)?;
    if let Some(compile) = &language.compile {
        let command = fill(compile, sources, &folder);
        let output = std::process::Command::new("sh")
            .args(["-c", &command])
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(io)?;
        if !output.status.success() {
            let mut text = String::from_utf8_lossy(&output.stderr).into_owned();
            text.push_str(&String::from_utf8_lossy(&output.stdout));
            let first = text
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("no message")
                .trim()
                .to_string();
            return Ok(Err(format!("{command}: {}: {first}", output.status)));
        }
    }
    std::fs::write(folder.join(BUILT_MARKER), "").map_err(io)?;
    Ok(Ok(run))
}

/// The build cache when `--build-dir` is not given: `$XDG_CACHE_HOME/gamebench/build`, else
/// `~/.cache/gamebench/build`, else under the system's temporary folder.
pub fn default_cache() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".cache"))
        })
        .unwrap_or_else(std::env::temp_dir);
    base.join("gamebench").join("build")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_table_names_the_languages() {
        let table = Languages::load(None).unwrap();
        for (file, language) in [
            ("a.c", "c"),
            ("a.cpp", "cpp"),
            ("a.cc", "cpp"),
            ("a.C", "cpp"),
            ("a.py", "python3"),
            ("A.java", "java"),
            ("a.kt", "kotlin"),
            ("a.rs", "rust"),
        ] {
            assert_eq!(table.of(Path::new(file)).unwrap().0, language, "{file}");
        }
        assert!(table.of(Path::new("a.txt")).is_none());
    }

    #[test]
    fn an_override_replaces_one_language() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("l.toml");
        std::fs::write(
            &file,
            "[python3]\nextensions = [\"py\"]\nrun = \"pypy3 {main}\"\n",
        )
        .unwrap();
        let table = Languages::load(Some(&file)).unwrap();
        assert_eq!(table.0["python3"].run, "pypy3 {main}");
        assert!(table.0["python3"].compile.is_none());
        assert!(table.0.contains_key("c"));
        std::fs::write(&file, "[c]\nrun = 1\n").unwrap();
        assert!(Languages::load(Some(&file)).is_err());
    }
}
