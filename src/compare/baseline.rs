//! Named baselines (`run --save-baseline NAME`, `run --compare NAME`) and the differences
//! between two runs' metadata that can explain a time difference.
//!
//! A baseline is a folder `DIR/NAME/` (DIR defaults to [`DEFAULT_DIR`]) holding the run's
//! results CSV ([`BASELINE_CSV`]) and its metadata ([`BASELINE_META`]: the JSON export's
//! `meta` object plus the build `profile`). Saving replaces a baseline of the same name whole or
//! not at all: the run writes its CSV into a hidden folder of its own beside it
//! ([`staging`]), the metadata goes there after the run, and only then does that folder take
//! the baseline's name (exchanged with the old one in one step where the system can, else by
//! two renames); an interrupted or failed run removes its folder, and the baseline of that
//! name, if any, stays as it was.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{BASELINE_CSV, BASELINE_META};
use crate::util::meta::RunMeta;

/// Where baselines live by default, relative to the working directory.
pub const DEFAULT_DIR: &str = ".gamebench/baselines";

/// Why a baseline cannot be saved or found.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    #[error(
        "baseline name {0:?}: use letters, digits, '-', '_' and '.' (not a path, not '.' or '..')"
    )]
    BadName(String),
    #[error("no baseline {name:?} in {} (save one with `run --save-baseline {name}`)", .dir.display())]
    Missing { name: String, dir: PathBuf },
    #[error("{path}: {1}", path = .0.display())]
    Io(PathBuf, std::io::Error),
}

/// The folder of baseline `name` under `dir`, the name checked.
pub fn folder(dir: &Path, name: &str) -> Result<PathBuf, BaselineError> {
    let ok = !name.is_empty()
        && name != "."
        && name != ".."
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !ok {
        return Err(BaselineError::BadName(name.to_string()));
    }
    Ok(dir.join(name))
}

/// The existing baseline `name` under `dir`.
pub fn existing(dir: &Path, name: &str) -> Result<PathBuf, BaselineError> {
    let folder = folder(dir, name)?;
    if !folder.join(BASELINE_CSV).is_file() {
        return Err(BaselineError::Missing {
            name: name.to_string(),
            dir: dir.to_path_buf(),
        });
    }
    Ok(folder)
}

/// Where baseline `name` under `dir` is written by this process until it is whole: the hidden
/// folder `DIR/.NAME.saving-<pid>` (a name no baseline can have: names are checked).
pub fn staging(dir: &Path, name: &str) -> Result<PathBuf, BaselineError> {
    folder(dir, name)?;
    Ok(dir.join(format!(".{name}.saving-{}", std::process::id())))
}

/// Creates baseline `name`'s staging folder ([`staging`]) and returns where its CSV goes.
pub fn prepare(dir: &Path, name: &str) -> Result<PathBuf, BaselineError> {
    let staging = staging(dir, name)?;
    // A folder of an earlier process of this id (the id was reused) is stale.
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir_all(&staging).map_err(|e| BaselineError::Io(staging.clone(), e))?;
    Ok(staging.join(BASELINE_CSV))
}

/// Removes baseline `name`'s staging folder: the run did not complete, nothing is saved.
pub fn discard(dir: &Path, name: &str) {
    if let Ok(staging) = staging(dir, name) {
        let _ = std::fs::remove_dir_all(staging);
    }
}

/// The build profile of this binary: `release` or `debug` (debug assertions on).
pub fn profile() -> &'static str {
    if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    }
}

/// The metadata a baseline keeps: the run's, plus the build profile.
pub fn meta_value(meta: &RunMeta) -> Value {
    let mut value = serde_json::to_value(meta).expect("plain data serializes");
    if let Value::Object(map) = &mut value {
        map.insert("profile".into(), Value::String(profile().into()));
    }
    value
}

/// Writes baseline `name`'s metadata into its staging folder (its CSV is there, written by
/// the run's CSV sink), then gives the folder the baseline's name, replacing any baseline of
/// that name whole. Returns the metadata's final path.
pub fn save_meta(dir: &Path, name: &str, meta: &RunMeta) -> Result<PathBuf, BaselineError> {
    let staging = staging(dir, name)?;
    let path = staging.join(BASELINE_META);
    let mut text = serde_json::to_string_pretty(&meta_value(meta)).expect("plain data serializes");
    text.push('\n');
    crate::util::atomic::write_atomic(&path, text.as_bytes())
        .map_err(|e| BaselineError::Io(path.clone(), e))?;
    let target = folder(dir, name)?;
    put_in_place(&staging, &target).map_err(|e| BaselineError::Io(target.clone(), e))?;
    Ok(target.join(BASELINE_META))
}

/// Renames the folder `staging` to `target`, replacing a folder there: exchanged in one step
/// where the system can (Linux `renameat2`), so that `target` is always a whole baseline;
/// else the old one is moved aside first. The old one is removed afterwards.
fn put_in_place(staging: &Path, target: &Path) -> std::io::Result<()> {
    if std::fs::symlink_metadata(target).is_err() {
        return std::fs::rename(staging, target);
    }
    if exchange(staging, target).is_ok() {
        // `staging` now holds the old baseline.
        return std::fs::remove_dir_all(staging);
    }
    let aside = crate::util::atomic::beside(staging, ".replaced");
    std::fs::rename(target, &aside)?;
    std::fs::rename(staging, target)?;
    std::fs::remove_dir_all(aside)
}

/// Exchanges the entries `a` and `b` atomically.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &Path| {
        std::ffi::CString::new(p.as_os_str().as_bytes())
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))
    };
    let (a, b) = (c(a)?, c(b)?);
    // SAFETY: both strings are valid and NUL-terminated for the duration of the call.
    let done = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if done == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_a: &Path, _b: &Path) -> std::io::Result<()> {
    Err(std::io::Error::from(std::io::ErrorKind::Unsupported))
}

/// One field of the metadata that differs between the two runs.
#[derive(Debug, Clone, PartialEq)]
pub struct MetaDifference {
    pub field: &'static str,
    pub old: String,
    pub new: String,
}

/// The metadata fields that can change a run's times, with their names in messages.
const COMPARED: [(&str, &str); 13] = [
    ("version", "tool version"),
    ("git", "source (git describe)"),
    ("profile", "build profile"),
    ("host", "host"),
    ("cpu", "CPU"),
    ("cores", "cores"),
    ("threads", "threads (-j)"),
    ("search_threads", "search threads (--threads)"),
    ("runs", "runs"),
    ("warmup", "warm-up runs"),
    ("pinned", "pinning (--pin)"),
    ("oversubscribed", "oversubscribed"),
    ("max_states", "--max-states"),
];

/// The fields of [`COMPARED`] that both runs record and that differ; none when either run has
/// no metadata (a CSV alone).
pub fn meta_differences(old: Option<&Value>, new: Option<&Value>) -> Vec<MetaDifference> {
    let (Some(old), Some(new)) = (old, new) else {
        return Vec::new();
    };
    COMPARED
        .iter()
        .filter_map(|&(key, field)| {
            let (o, n) = (old.get(key)?, new.get(key)?);
            (o != n).then(|| MetaDifference {
                field,
                old: show(o),
                new: show(n),
            })
        })
        .collect()
}

fn show(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => "none".into(),
        other => other.to_string(),
    }
}
