//! The case list: every case of a corpus in partition order, which every shard computes the
//! same way to find its part ([`CaseList`]).
//!
//! The list is the corpus order of [`crate::corpus::discover`] (files sorted bytewise by
//! relative path, then cases in file order); case number `p` of it belongs to shard `p mod N`
//! ([`Shard::owns`](super::Shard::owns)). [`super::manifest`] records its length and hash,
//! [`super::journal`]'s [`Attempt`](super::Attempt) its hash, and `pipeline`'s filter
//! asks it for positions.
//!
//! Invariants: a file that cannot be read, or holds no case, counts as one case (as in the
//! runner), so the list agrees with the rows the runner writes; the hash (XXH3-64 of
//! `relative<TAB>case<LF>` for every case in order, `case` 1-based, `/` as separator) depends on
//! the relative paths only, never on the mount point or the thread count. No case is kept in
//! memory, only counts.

use rayon::prelude::*;

use crate::corpus::CaseFile;
use crate::util::digest::{Digest, digest};

/// Every case of a corpus, in partition order, with the list's hash: the number of cases of
/// each file, and where each file's cases start in the list. No case is kept.
#[derive(Debug, Clone)]
pub struct CaseList {
    /// Per file of the run's list, its position of its first case in the case list.
    starts: Vec<usize>,
    /// Cases in the whole list.
    pub len: usize,
    /// XXH3-64 (hex) of `relative<TAB>case<LF>` over the list, `case` 1-based.
    pub hash: String,
    /// XXH3-64 (hex) of the files' contents: `relative<TAB>input<SPACE>expected<LF>` per file
    /// in list order, `input` and `expected` the XXH3-64 of the `.in` and `.out` files' bytes
    /// (`-` for a missing or unreadable one), so that two corpora with the same names and case
    /// counts but other cases (or other expected outputs) are told apart. Empty for a list
    /// made by [`CaseList::from_counts`].
    pub content_hash: String,
}

impl CaseList {
    /// Lists the cases of `files`, counting them with a streaming pass (read and parsed in
    /// parallel, each file dropped once counted: every shard must know the whole list to find
    /// its part).
    pub fn of(files: &[CaseFile]) -> CaseList {
        let counted: Vec<(usize, String)> = files
            .par_iter()
            .map(|f| {
                // The expected output counts too: `--check` compares with it.
                let expected = match f.read_expected() {
                    Ok(Some((_, bytes))) => digest(&bytes),
                    _ => "-".to_string(),
                };
                match std::fs::read(&f.path) {
                    // The runner reports a file without cases as one `error` case.
                    Ok(bytes) => (
                        f.game.parse(&bytes, &f.reading).len().max(1),
                        format!("{} {expected}", digest(&bytes)),
                    ),
                    // And an unreadable file too.
                    Err(_) => (1, format!("- {expected}")),
                }
            })
            .collect();
        let counts: Vec<usize> = counted.iter().map(|(n, _)| *n).collect();
        let mut list = CaseList::from_counts(files, &counts);
        let mut contents = Digest::default();
        for (f, (_, hash)) in files.iter().zip(&counted) {
            contents.write(format!("{}\t{hash}\n", f.row_name()).as_bytes());
        }
        list.content_hash = contents.hex();
        list
    }

    /// The list for files with the given case counts.
    pub fn from_counts(files: &[CaseFile], counts: &[usize]) -> CaseList {
        let mut hasher = Digest::default();
        let mut starts = Vec::with_capacity(files.len());
        let mut len = 0;
        for (f, &count) in files.iter().zip(counts) {
            starts.push(len);
            let relative = f.row_name();
            for case in 0..count {
                hasher.write(format!("{relative}\t{}\n", case + 1).as_bytes());
            }
            len += count;
        }
        CaseList {
            starts,
            len,
            hash: hasher.hex(),
            content_hash: String::new(),
        }
    }

    /// The list position of case `case` (0-based) of the file at `file` in the run's list.
    pub fn position(&self, file: usize, case: usize) -> usize {
        self.starts[file] + case
    }

    /// The number of cases of the file at `file` in the run's list.
    pub fn cases_of(&self, file: usize) -> usize {
        let end = self.starts.get(file + 1).copied().unwrap_or(self.len);
        end - self.starts[file]
    }
}

/// A file's path relative to its root, `/`-separated (as hashed).
/// Three files of 3, 0 and 2 cases (positions a1 a2 a3 c1 c2), for the shard's tests.
#[cfg(test)]
pub(super) fn three_files() -> ([CaseFile; 3], CaseList) {
    let game = crate::registry::GAMES[0];
    let file = |name: &str| CaseFile {
        path: std::path::PathBuf::from("root").join(name),
        relative: std::path::PathBuf::from(name),
        game,
        reading: crate::game::Reading::STATEMENT,
    };
    let files = [file("a.in"), file("b.in"), file("c.in")];
    let list = CaseList::from_counts(&files, &[3, 0, 2]);
    (files, list)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_list_splits_files_by_case() {
        let (files, list) = three_files();
        assert_eq!(list.len, 5);
        assert_eq!(list.position(0, 2), 2);
        assert_eq!(list.position(2, 0), 3);
        assert_eq!(list.position(2, 1), 4);
        assert_eq!(
            (list.cases_of(0), list.cases_of(1), list.cases_of(2)),
            (3, 0, 2)
        );
        // The hash is XXH3-64 of the documented text.
        assert_eq!(
            list.hash,
            crate::util::digest::digest(b"a.in\t1\na.in\t2\na.in\t3\nc.in\t1\nc.in\t2\n")
        );
        // Another list (one case fewer) has another hash.
        assert_ne!(CaseList::from_counts(&files, &[3, 0, 1]).hash, list.hash);
    }
}
