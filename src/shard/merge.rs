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
//!
//! The steps of [`merge`], each its own function: find the shards' files by name
//! (`ShardFile`: manifest, results CSV, journal), choose the partition N, read each shard K of
//! N (its manifest, then its rows, checked against the manifest), check that the manifests
//! agree, check that every case is in exactly one shard, and join the rows. Every step notes
//! its problems and the merge goes on, so one failed merge names all of them, in that order.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::results::Row;
use crate::shard::{Attempt, Journal, Manifest, Shard, row_keys_hash, rows_hash};

/// How many duplicated cases a problem list names before it only counts them.
const NAMED_DUPLICATES: usize = 10;

/// How many missing shards a problem list names before it only counts them.
const NAMED_MISSING: usize = 10;

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

/// The kinds of file a shard leaves in its folder, told apart by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ShardFile {
    /// `shard-K-of-N.json`, written last: the shard finished.
    Manifest,
    /// `results.shard-K-of-N.csv`: the shard's rows.
    Results,
    /// `results.shard-K-of-N.csv.partial`: the journal of an attempt that did not finish.
    Journal,
}

impl ShardFile {
    const ALL: [ShardFile; 3] = [ShardFile::Manifest, ShardFile::Results, ShardFile::Journal];

    /// The shard whose file of this kind is called `name`, if it is one.
    fn shard_of(self, name: &str) -> Option<Shard> {
        let (prefix, suffix) = match self {
            ShardFile::Manifest => ("shard-", ".json"),
            ShardFile::Results => ("results.shard-", ".csv"),
            ShardFile::Journal => ("results.shard-", ".csv.partial"),
        };
        shard_of_name(name, prefix, suffix)
    }
}

/// What a shard folder holds for one (K, N), by file name.
#[derive(Debug, Default)]
struct Found {
    manifest: bool,
    csv: bool,
    journal: bool,
}

impl Found {
    /// Notes a file of kind `kind`.
    fn add(&mut self, kind: ShardFile) {
        match kind {
            ShardFile::Manifest => self.manifest = true,
            ShardFile::Results => self.csv = true,
            ShardFile::Journal => self.journal = true,
        }
    }

    /// Whether the shard got as far as its CSV (a journal alone does not count).
    fn counts(&self) -> bool {
        self.manifest || self.csv
    }
}

/// The shards found, by (N, K).
type FoundShards = BTreeMap<(usize, usize), Found>;

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

fn io_error(path: &Path, source: std::io::Error) -> MergeError {
    MergeError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Merges the shards in `dir` (see the module doc for what is checked): finds the shards'
/// files, chooses the partition, reads each shard, checks that they agree and hold every case
/// once, and joins their rows.
pub fn merge(dir: &Path) -> Result<Merged, MergeError> {
    let mut found = find_shards(dir)?;
    if found.is_empty() {
        return Err(MergeError::Empty {
            dir: dir.to_path_buf(),
        });
    }
    let mut problems = Vec::new();
    let n = choose_partition(&found, &mut problems);
    let mut manifests: Vec<Manifest> = Vec::new();
    let mut rows_of: Vec<Vec<Row>> = Vec::new();
    // Only the shards found are read, and only the first missing ones named: N comes from a
    // file name, so nothing may cost in proportion to it.
    let present: Vec<usize> = found
        .range((n, 0)..=(n, usize::MAX))
        .map(|(&(_, k), _)| k)
        .collect();
    let missing = n - present.len();
    let mut named = 0;
    let mut next = present.iter().peekable();
    for k in 0.. {
        if next.peek().is_none() && (named == NAMED_MISSING || named == missing) {
            break;
        }
        let shard = Shard { index: k, count: n };
        let f = if next.peek() == Some(&&k) {
            next.next();
            found.remove(&(n, k)).unwrap_or_default()
        } else if named < NAMED_MISSING {
            named += 1;
            Found::default()
        } else {
            continue;
        };
        if let Some((manifest, rows)) = read_shard(dir, shard, &f, &mut problems) {
            manifests.push(manifest);
            rows_of.push(rows);
        }
    }
    if missing > named {
        problems.push(format!(
            "... {} more shards of {n} are missing",
            missing - named
        ));
    }
    check_agreement(&manifests, n, &mut problems);
    check_cases(&manifests, &rows_of, n, &mut problems);
    if !problems.is_empty() {
        return Err(MergeError::Problems {
            dir: dir.to_path_buf(),
            problems,
        });
    }
    Ok(Merged {
        rows: join_rows(rows_of),
        manifests,
    })
}

/// Every shard file in `dir` (manifests, results, journals, of any partition): what `merge`
/// reads, which its output must never replace.
pub fn shard_files(dir: &Path) -> Result<Vec<PathBuf>, MergeError> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| io_error(dir, e))? {
        let entry = entry.map_err(|e| io_error(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if ShardFile::ALL
            .iter()
            .any(|kind| kind.shard_of(&name).is_some())
        {
            files.push(entry.path());
        }
    }
    Ok(files)
}

/// The shard files in `dir`, by (N, K); other files are ignored.
fn find_shards(dir: &Path) -> Result<FoundShards, MergeError> {
    let mut found = FoundShards::new();
    for entry in std::fs::read_dir(dir).map_err(|e| io_error(dir, e))? {
        let entry = entry.map_err(|e| io_error(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        for kind in ShardFile::ALL {
            if let Some(s) = kind.shard_of(&name) {
                found.entry((s.count, s.index)).or_default().add(kind);
            }
        }
    }
    Ok(found)
}

/// The partition to merge: the N with the most shards that got as far as their CSV (ties: the
/// one with the most shards holding both manifest and CSV, then the largest). A shard of
/// another N is a problem. N comes from file names: nothing here costs in proportion to it.
fn choose_partition(found: &FoundShards, problems: &mut Vec<String>) -> usize {
    // Per N: (shards with both manifest and CSV, shards that got as far as their CSV).
    let mut per_n: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
    for (&(n, _), f) in found {
        let entry = per_n.entry(n).or_default();
        entry.0 += usize::from(f.manifest && f.csv);
        entry.1 += usize::from(f.counts());
    }
    let n = per_n
        .iter()
        .max_by_key(|&(&n, &(whole, count))| (count, whole, n))
        .map(|(&n, _)| n)
        .expect("something was found");
    for (&(other, k), f) in found {
        if other != n && f.counts() {
            problems.push(format!(
                "shard {k}/{other} belongs to a partition into {other} shards, not {n}"
            ));
        }
    }
    n
}

/// The manifest and rows of `shard`, whose files in `dir` are `f`; `None`, with the problem
/// noted, when it is missing or inconsistent. A journal beside a finished shard is a problem
/// too, but the shard is still read.
fn read_shard(
    dir: &Path,
    shard: Shard,
    f: &Found,
    problems: &mut Vec<String>,
) -> Option<(Manifest, Vec<Row>)> {
    if !f.manifest {
        problems.push(missing(shard, f));
        return None;
    }
    let read = read_manifest(dir, shard)
        .and_then(|manifest| read_rows(dir, shard, &manifest).map(|rows| (manifest, rows)));
    let (manifest, rows) = match read {
        Ok(read) => read,
        Err(problem) => {
            problems.push(problem);
            return None;
        }
    };
    let journal = Journal::path_for(&dir.join(shard.csv_name()));
    if journal.exists() {
        problems.push(format!(
            "shard {shard}: a journal {} is beside its finished CSV: another attempt of this shard may be running",
            journal.display()
        ));
    }
    Some((manifest, rows))
}

/// Why `shard`, whose files are `f` but no manifest, is missing.
fn missing(shard: Shard, f: &Found) -> String {
    let why = if f.csv {
        "its CSV is there but not its manifest: it did not finish"
    } else if f.journal {
        "only its journal is there: it was interrupted; rerun it with --resume"
    } else {
        "nothing of it is there"
    };
    format!(
        "shard {shard} is missing (no {}): {why}",
        shard.manifest_name()
    )
}

/// The manifest of `shard` in `dir`, which must describe that shard.
fn read_manifest(dir: &Path, shard: Shard) -> Result<Manifest, String> {
    let path = dir.join(shard.manifest_name());
    let manifest: Manifest =
        crate::util::atomic::read_capped_string(&path, crate::util::atomic::SMALL_FILE_BYTES)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
            .map_err(|why| format!("shard {shard}: {}: {why}", path.display()))?;
    if (manifest.shard, manifest.shards) != (shard.index, shard.count) {
        return Err(format!(
            "shard {shard}: {} describes shard {}/{}",
            path.display(),
            manifest.shard,
            manifest.shards
        ));
    }
    Ok(manifest)
}

/// The rows of `shard`'s CSV in `dir`, which must hold exactly the cases its `manifest`
/// counted and hashed.
fn read_rows(dir: &Path, shard: Shard, manifest: &Manifest) -> Result<Vec<Row>, String> {
    let csv_path = dir.join(shard.csv_name());
    let rows = std::fs::File::open(&csv_path)
        .map_err(|e| e.to_string())
        .and_then(|f| {
            crate::results::read_csv(std::io::BufReader::new(f)).map_err(|e| e.to_string())
        })
        .map_err(|why| format!("shard {shard}: {}: {why}", csv_path.display()))?;
    let (cases, hash) = rows_hash(&rows);
    if (cases, hash.as_str()) != (manifest.shard_cases, manifest.shard_hash.as_str()) {
        return Err(format!(
            "shard {shard}: {} holds {cases} cases (hash {hash}) but its manifest says {} (hash {})",
            csv_path.display(),
            manifest.shard_cases,
            manifest.shard_hash
        ));
    }
    // Every row, with multiplicity (absent from older versions' manifests).
    let (count, keys) = row_keys_hash(&rows);
    if !manifest.rows_hash.is_empty()
        && (count, keys.as_str()) != (manifest.rows, manifest.rows_hash.as_str())
    {
        return Err(format!(
            "shard {shard}: {} holds {count} rows (hash {keys}) but its manifest says {} (hash {}): a row was deleted, duplicated or moved",
            csv_path.display(),
            manifest.rows,
            manifest.rows_hash
        ));
    }
    Ok(rows)
}

/// Checks that every manifest describes the same partition of the same list, run the same
/// way, as the first; each difference is a problem.
fn check_agreement(manifests: &[Manifest], n: usize, problems: &mut Vec<String>) {
    let Some(first) = manifests.first() else {
        return;
    };
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
        // Every other option that changes a row, when both manifests record them.
        if let (Some(a), Some(b)) = (&first.attempt, &m.attempt) {
            let a = Attempt {
                shard: b.shard,
                ..a.clone()
            };
            // (The fields compared above are not named twice.)
            let compared = ["list_hash", "engines", "runs", "check", "validate"];
            for (_, what, theirs, ours) in a
                .differences(b)
                .into_iter()
                .filter(|(field, ..)| !compared.contains(field))
            {
                problems.push(format!(
                    "shard {}/{n}: {what} {ours} differs from shard {}/{n}'s {theirs}",
                    m.shard, first.shard
                ));
            }
        }
    }
}

/// Checks that no case is in two shards (naming the first [`NAMED_DUPLICATES`]) and, when
/// every shard is there without duplicates, that together they hold the whole list.
fn check_cases(manifests: &[Manifest], rows_of: &[Vec<Row>], n: usize, problems: &mut Vec<String>) {
    let mut owner: HashMap<(&str, usize), usize> = HashMap::new();
    let mut duplicates = Vec::new();
    for (m, rows) in manifests.iter().zip(rows_of) {
        let mut mine = HashSet::new();
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
}

/// The shards' rows in one list, sorted by the `file` column bytewise, then by case; a case's
/// rows keep the order its shard wrote them in (the sort is stable).
fn join_rows(rows_of: Vec<Vec<Row>>) -> Vec<Row> {
    let mut rows: Vec<Row> = rows_of.into_iter().flatten().collect();
    rows.sort_by(|a, b| {
        a.file
            .as_bytes()
            .cmp(b.file.as_bytes())
            .then(a.case.cmp(&b.case))
    });
    rows
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

    #[test]
    fn shard_file_kinds() {
        let s = Some(Shard { index: 1, count: 3 });
        let kinds = |name: &str| -> Vec<ShardFile> {
            ShardFile::ALL
                .into_iter()
                .filter(|k| k.shard_of(name) == s)
                .collect()
        };
        assert_eq!(kinds("shard-1-of-3.json"), [ShardFile::Manifest]);
        assert_eq!(kinds("results.shard-1-of-3.csv"), [ShardFile::Results]);
        assert_eq!(
            kinds("results.shard-1-of-3.csv.partial"),
            [ShardFile::Journal]
        );
        assert_eq!(kinds("results.shard-1-of-3.csv.tmp"), []);
    }
}
