//! Finding case files: the `.in` files under the paths a user names, the game of each, and the
//! expected `.out` beside it.
//!
//! Invariants: the file list is sorted bytewise by its path relative to the root it was found
//! under, without duplicates, so every run (whatever the thread count or machine) sees the same
//! files in the same order. Nothing here knows a game's format.

use std::path::{Path, PathBuf};

use crate::game::Game;

/// Extension of judge input files.
pub const INPUT_EXTENSION: &str = "in";
/// Extension of judge output files.
pub const OUTPUT_EXTENSION: &str = "out";

/// Why a corpus could not be listed.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "{path}: cannot tell which game this is (no enclosing folder is named after a game: {games}); use --game"
    )]
    UnknownGame {
        path: PathBuf,
        /// The names of the games a folder could have been named after.
        games: String,
    },
    #[error("{path}: no .in files found")]
    Empty { path: PathBuf },
}

/// One judge input file of a corpus.
#[derive(Clone)]
pub struct CaseFile {
    /// The path to open (the user's path joined with `relative`).
    pub path: PathBuf,
    /// The path relative to the root it was found under (a file named directly: its name).
    /// Outputs are mirrored under `--out-dir` with this path.
    pub relative: PathBuf,
    pub game: &'static dyn Game,
}

impl CaseFile {
    /// The expected output beside the input: `X.in` -> `X.out`.
    pub fn expected_path(&self) -> PathBuf {
        self.path.with_extension(OUTPUT_EXTENSION)
    }

    /// The path as shown in messages (forward slashes on every platform): one that opens.
    pub fn display(&self) -> String {
        self.path.to_string_lossy().replace('\\', "/")
    }

    /// The file's name in the CSV's `file` column and the summary: its path relative to the
    /// path named on the command line (forward slashes), so that CSVs of runs started from
    /// different folders join.
    pub fn row_name(&self) -> String {
        self.relative.to_string_lossy().replace('\\', "/")
    }
}

impl std::fmt::Debug for CaseFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CaseFile")
            .field("path", &self.path)
            .field("relative", &self.relative)
            .field("game", &self.game.name())
            .finish()
    }
}

/// Lists the `.in` files under `paths` (files, or directories searched recursively).
/// The game of each file is `game` when given, else the nearest enclosing folder named after
/// one of `games` (`corpora/yut/x.in` is Yut).
pub fn discover(
    paths: &[PathBuf],
    game: Option<&'static dyn Game>,
    games: &[&'static dyn Game],
) -> Result<Vec<CaseFile>, CorpusError> {
    let unknown = |path: &Path| CorpusError::UnknownGame {
        path: path.to_path_buf(),
        games: games
            .iter()
            .map(|g| g.name())
            .collect::<Vec<_>>()
            .join(", "),
    };
    let mut files = Vec::new();
    for root in paths {
        let meta = std::fs::metadata(root).map_err(|source| CorpusError::Io {
            path: root.clone(),
            source,
        })?;
        let found_before = files.len();
        if meta.is_dir() {
            let mut inputs = Vec::new();
            walk(root, &mut inputs)?;
            for path in inputs {
                let relative = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
                let game = match game {
                    Some(g) => g,
                    None => game_of(&path, games).ok_or_else(|| unknown(&path))?,
                };
                files.push(CaseFile {
                    path,
                    relative,
                    game,
                });
            }
        } else {
            let relative = PathBuf::from(root.file_name().unwrap_or(root.as_os_str()));
            let game = match game {
                Some(g) => g,
                None => game_of(root, games).ok_or_else(|| unknown(root))?,
            };
            files.push(CaseFile {
                path: root.clone(),
                relative,
                game,
            });
        }
        if files.len() == found_before {
            return Err(CorpusError::Empty { path: root.clone() });
        }
    }
    files.sort_by(|a, b| {
        a.relative
            .as_os_str()
            .as_encoded_bytes()
            .cmp(b.relative.as_os_str().as_encoded_bytes())
            .then_with(|| a.path.cmp(&b.path))
    });
    files.dedup_by(|a, b| a.path == b.path);
    Ok(files)
}

/// Appends every `*.in` file under `dir`, recursively.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), CorpusError> {
    let io = |source| CorpusError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(io)?
        .collect::<Result<_, _>>()
        .map_err(io)?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let kind = entry.file_type().map_err(|source| CorpusError::Io {
            path: path.clone(),
            source,
        })?;
        if kind.is_dir() {
            walk(&path, out)?;
        } else if path.extension().is_some_and(|e| e == INPUT_EXTENSION) {
            out.push(path);
        }
    }
    Ok(())
}

/// The game of `games` named by the nearest enclosing folder of `path`, if any.
pub fn game_of(path: &Path, games: &[&'static dyn Game]) -> Option<&'static dyn Game> {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    absolute
        .parent()?
        .ancestors()
        .filter_map(|dir| dir.file_name()?.to_str())
        .find_map(|name| games.iter().copied().find(|g| g.name() == name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;

    #[test]
    fn finds_inputs_recursively_sorted_with_their_game() {
        let dir = tempfile::tempdir().unwrap();
        let game = registry::GAMES[0].name();
        let folder = dir.path().join(game);
        std::fs::create_dir_all(folder.join("deep")).unwrap();
        for name in ["b.in", "a.in", "a.out", "deep/c.in", "notes.txt"] {
            std::fs::write(folder.join(name), "").unwrap();
        }
        let files = discover(&[dir.path().to_path_buf()], None, registry::GAMES).unwrap();
        let names: Vec<String> = files
            .iter()
            .map(|f| f.relative.to_string_lossy().into())
            .collect();
        let expected = ["a.in", "b.in", "deep/c.in"].map(|name| format!("{game}/{name}"));
        assert_eq!(names, expected);
        assert!(files.iter().all(|f| f.game.name() == game));
        assert_eq!(files[0].expected_path(), folder.join("a.out"));
    }

    #[test]
    fn unknown_game_without_flag_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain");
        std::fs::create_dir_all(&plain).unwrap();
        std::fs::write(plain.join("x.in"), "").unwrap();
        assert!(matches!(
            discover(std::slice::from_ref(&plain), None, registry::GAMES),
            Err(CorpusError::UnknownGame { .. })
        ));
        let forced = discover(&[plain], Some(registry::GAMES[0]), registry::GAMES).unwrap();
        assert_eq!(forced.len(), 1);
    }
}
