//! Named baselines (`run --save-baseline NAME`, `run --compare NAME`) and the differences
//! between two runs' metadata that can explain a time difference.
//!
//! A baseline is a folder `DIR/NAME/` (DIR defaults to [`DEFAULT_DIR`]) holding the run's
//! results CSV ([`BASELINE_CSV`]) and its metadata ([`BASELINE_META`]: the JSON export's
//! `meta` object plus the build `profile`). Saving replaces a baseline of the same name whole:
//! each file is written atomically, the CSV last by the run itself.

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

/// Creates baseline `name`'s folder and returns where its CSV goes.
pub fn prepare(dir: &Path, name: &str) -> Result<PathBuf, BaselineError> {
    let folder = folder(dir, name)?;
    std::fs::create_dir_all(&folder).map_err(|e| BaselineError::Io(folder.clone(), e))?;
    Ok(folder.join(BASELINE_CSV))
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

/// Writes baseline `name`'s metadata (its CSV is written by the run's CSV sink).
pub fn save_meta(dir: &Path, name: &str, meta: &RunMeta) -> Result<PathBuf, BaselineError> {
    let path = folder(dir, name)?.join(BASELINE_META);
    let mut text = serde_json::to_string_pretty(&meta_value(meta)).expect("plain data serializes");
    text.push('\n');
    crate::util::atomic::write_atomic(&path, text.as_bytes())
        .map_err(|e| BaselineError::Io(path.clone(), e))?;
    Ok(path)
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
