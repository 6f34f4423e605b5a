//! Merging the shards of a partitioned run (see [`crate::shard`]) into the CSV one machine
//! would have written, or refusing to.
//!
//! Invariants: a merge either returns every row of every case of the case list exactly once, or
//! fails naming each missing or inconsistent shard; it never returns a partial result. What it
//! checks: the manifests `shard-K-of-N.json` cover every K in 0..N exactly once with one N; they
//! agree on the partition (rule, case count, list hash) and on what was run (version, engines,
//! runs, check); each shard's CSV holds exactly the cases its manifest counted and hashed; no
//! case is in two shards; and the shards together hold as many cases as the list.
//!
//! The merged rows are sorted by the `file` column bytewise, then by case number, keeping each
//! case's rows (engines, runs) in the order the shard wrote them. For a run over one corpus
//! folder this is exactly the order of an unsharded run (files sorted by relative path, which
//! all share the folder as prefix).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use crate::results::Row;
use crate::shard::{Journal, Manifest, Shard, rows_hash};

/// How many duplicated cases a problem list names before it only counts them.
const NAMED_DUPLICATES: usize = 10;

/// Why shards could not be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{dir}: no shard manifests (shard-K-of-N.json) and no shard CSVs here")]
    Empty { dir: PathBuf },
    #[error("the shards in {dir} cannot be merged:\n  {}", problems.join("\n  "))]
    Problems { dir: PathBuf, problems: Vec<String> },
}

/// The merged result.
#[derive(Debug)]
pub struct Merged {
    pub rows: Vec<Row>,
    /// The shards' manifests, by K.
    pub manifests: Vec<Manifest>,
}

/// What a shard folder holds for one (K, N), by file name.
#[derive(Debug, Default)]
struct Found {
    manifest: bool,
    csv: bool,
    journal: bool,
}

/// Parses `<prefix>K-of-N<suffix>`.
fn shard_of_name(name: &str, prefix: &str, suffix: &str) -> Option<Shard> {
    let middle = name.strip_prefix(prefix)?.strip_suffix(suffix)?;
    let (k, n) = middle.split_once("-of-")?;
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(k) || !all_digits(n) {
        return None;
    }
    Shard::parse(&format!("{k}/{n}")).ok()
}

/// Merges the shards in `dir` (see the module doc for what is checked).
pub fn merge(dir: &Path) -> Result<Merged, MergeError> {
    let io = |path: &Path, source| MergeError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut found: BTreeMap<(usize, usize), Found> = BTreeMap::new();
    for entry in std::fs::read_dir(dir).map_err(|e| io(dir, e))? {
        let entry = entry.map_err(|e| io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let kinds = [
            (shard_of_name(&name, "shard-", ".json"), 0),
            (shard_of_name(&name, "results.shard-", ".csv"), 1),
            (shard_of_name(&name, "results.shard-", ".csv.partial"), 2),
        ];
        for (shard, kind) in kinds {
            if let Some(s) = shard {
                let f = found.entry((s.count, s.index)).or_default();
                match kind {
                    0 => f.manifest = true,
                    1 => f.csv = true,
                    _ => f.journal = true,
                }
            }
        }
    }
    if found.is_empty() {
        return Err(MergeError::Empty {
            dir: dir.to_path_buf(),
        });
    }

    let mut problems = Vec::new();
    // The partition: the N with the most manifests (ties: the largest); others are named.
    let mut per_n: BTreeMap<usize, usize> = BTreeMap::new();
    for (&(n, _), f) in &found {
        *per_n.entry(n).or_default() += usize::from(f.manifest || f.csv);
    }
    let n = per_n
        .iter()
        .max_by_key(|&(&n, &count)| (count, n))
        .map(|(&n, _)| n)
        .expect("something was found");
    for (&(other, k), f) in &found {
        if other != n && (f.manifest || f.csv) {
            problems.push(format!(
                "shard {k}/{other} belongs to a partition into {other} shards, not {n}"
            ));
        }
    }

    let mut manifests: Vec<Manifest> = Vec::new();
    let mut rows_of: Vec<Vec<Row>> = Vec::new();
    for k in 0..n {
        let shard = Shard { index: k, count: n };
        let f = found.remove(&(n, k)).unwrap_or_default();
        if !f.manifest {
            let why = if f.csv {
                "its CSV is there but not its manifest: it did not finish"
            } else if f.journal {
                "only its journal is there: it was interrupted; rerun it with --resume"
            } else {
                "nothing of it is there"
            };
            problems.push(format!(
                "shard {shard} is missing (no {}): {why}",
                shard.manifest_name()
            ));
            continue;
        }
        let path = dir.join(shard.manifest_name());
        let manifest: Manifest = match std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
        {
            Ok(m) => m,
            Err(why) => {
                problems.push(format!("shard {shard}: {}: {why}", path.display()));
                continue;
            }
        };
        if (manifest.shard, manifest.shards) != (k, n) {
            problems.push(format!(
                "shard {shard}: {} describes shard {}/{}",
                path.display(),
                manifest.shard,
                manifest.shards
            ));
            continue;
        }
        let csv_path = dir.join(shard.csv_name());
        let rows = match std::fs::File::open(&csv_path)
            .map_err(|e| e.to_string())
            .and_then(|f| {
                crate::results::read_csv(std::io::BufReader::new(f)).map_err(|e| e.to_string())
            }) {
            Ok(rows) => rows,
            Err(why) => {
                problems.push(format!("shard {shard}: {}: {why}", csv_path.display()));
                continue;
            }
        };
        let (cases, hash) = rows_hash(&rows);
        if (cases, hash.as_str()) != (manifest.shard_cases, manifest.shard_hash.as_str()) {
            problems.push(format!(
                "shard {shard}: {} holds {cases} cases (hash {hash}) but its manifest says {} (hash {})",
                csv_path.display(),
                manifest.shard_cases,
                manifest.shard_hash
            ));
            continue;
        }
        if Journal::path_for(&csv_path).exists() {
            problems.push(format!(
                "shard {shard}: a journal {} is beside its finished CSV: another attempt of this shard may be running",
                Journal::path_for(&csv_path).display()
            ));
        }
        manifests.push(manifest);
        rows_of.push(rows);
    }

    // Every manifest must describe the same partition of the same list, run the same way.
    if let Some(first) = manifests.first() {
        for m in &manifests[1..] {
            let fields = [
                ("rule", first.rule.clone(), m.rule.clone()),
                ("case count", first.cases.to_string(), m.cases.to_string()),
                ("list hash", first.list_hash.clone(), m.list_hash.clone()),
                ("version", first.version.clone(), m.version.clone()),
                (
                    "engines",
                    format!("{:?}", first.engines),
                    format!("{:?}", m.engines),
                ),
                ("runs", first.runs.to_string(), m.runs.to_string()),
                ("check", first.check.to_string(), m.check.to_string()),
                (
                    "validate",
                    first.validate.to_string(),
                    m.validate.to_string(),
                ),
            ];
            for (what, a, b) in fields {
                if a != b {
                    problems.push(format!(
                        "shard {}/{n}: {what} {b} differs from shard {}/{n}'s {a}",
                        m.shard, first.shard
                    ));
                }
            }
        }
    }

    // No case in two shards, and all of them there.
    let mut owner: HashMap<(&str, usize), usize> = HashMap::new();
    let mut duplicates = Vec::new();
    for (m, rows) in manifests.iter().zip(&rows_of) {
        let mut mine = std::collections::HashSet::new();
        for row in rows {
            let key = (row.file.as_str(), row.case);
            if !mine.insert(key) {
                continue;
            }
            if let Some(&other) = owner.get(&key) {
                duplicates.push(format!(
                    "{} case {} is in shards {other}/{n} and {}/{n}",
                    row.file, row.case, m.shard
                ));
            } else {
                owner.insert(key, m.shard);
            }
        }
    }
    let duplicated = duplicates.len();
    problems.extend(duplicates.into_iter().take(NAMED_DUPLICATES));
    if duplicated > NAMED_DUPLICATES {
        problems.push(format!(
            "... {} more duplicated cases",
            duplicated - NAMED_DUPLICATES
        ));
    }
    if let Some(first) = manifests.first()
        && manifests.len() == n
        && duplicated == 0
        && owner.len() != first.cases
    {
        problems.push(format!(
            "the shards hold {} cases but the case list has {}",
            owner.len(),
            first.cases
        ));
    }

    if !problems.is_empty() {
        return Err(MergeError::Problems {
            dir: dir.to_path_buf(),
            problems,
        });
    }
    let mut rows: Vec<Row> = rows_of.into_iter().flatten().collect();
    rows.sort_by(|a, b| {
        a.file
            .as_bytes()
            .cmp(b.file.as_bytes())
            .then(a.case.cmp(&b.case))
    });
    Ok(Merged { rows, manifests })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_names() {
        let s = |k, n| Some(Shard { index: k, count: n });
        assert_eq!(
            shard_of_name("shard-2-of-4.json", "shard-", ".json"),
            s(2, 4)
        );
        assert_eq!(
            shard_of_name("results.shard-0-of-1.csv", "results.shard-", ".csv"),
            s(0, 1)
        );
        for bad in [
            "shard-4-of-4.json",
            "shard--1-of-4.json",
            "shard-1-of-4.json.tmp",
            "shard-+1-of-4.json",
            "shard-1-4.json",
        ] {
            assert_eq!(shard_of_name(bad, "shard-", ".json"), None, "{bad}");
        }
    }
}
