//! Finding case files: the `.in` files under the paths a user names, the game of each, and the
//! expected output beside it: `X.out`, or `X.ans` as judges' packages (Kattis, DOMjudge) name
//! it. Both present with different bytes is an error naming both, never a silent choice.
//!
//! Only regular files are cases: a FIFO, a device or a socket named `X.in` (directly, or
//! through a symbolic link) is never opened for reading (a FIFO would block forever,
//! `/dev/zero` never ends). [`discover_all`] lists such entries, and folders it cannot read,
//! as [`Corpus::problems`] next to the files it found, so a run goes on with the rest; the
//! command prints each problem and ends with exit code 2. [`read_case_file`] checks again when
//! it opens a file (a swap between listing and reading cannot hang it either).
//!
//! A judge's package (Kattis / DOMjudge: `problem.yaml` beside `data/`) is a corpus of its
//! tests: the walk skips its `data/` folders that hold inputs to reject and contestants'
//! outputs ([`PACKAGE_NON_TESTS`]).
//!
//! Invariants: the file list is sorted bytewise by its path relative to the root it was found
//! under, without duplicates, so every run (whatever the thread count or machine) sees the same
//! files in the same order. Nothing here knows a game's format.

use std::path::{Path, PathBuf};

use crate::game::{Game, Reading};

/// Extension of judge input files.
pub const INPUT_EXTENSION: &str = "in";
/// Extension of judge output files.
pub const OUTPUT_EXTENSION: &str = "out";
/// Extension of expected outputs in judges' packages (Kattis, DOMjudge): read as `.out` is.
pub const ANSWER_EXTENSION: &str = "ans";

/// The folders of a Kattis / DOMjudge package's `data/` that hold no tests: inputs a validator
/// must reject, and outputs a checker must reject or accept (their `.out` is a contestant's
/// output, not an expected one). A corpus walk that meets them in a package skips them.
pub const PACKAGE_NON_TESTS: [&str; 3] = [PACKAGE_INVALID_INPUT, "invalid_output", "valid_output"];
/// The one of them that holds inputs every validator must reject.
pub const PACKAGE_INVALID_INPUT: &str = "invalid_input";
/// The file that makes a folder a Kattis / DOMjudge package.
pub const PACKAGE_YAML: &str = "problem.yaml";

/// Whether `dir` is one of a package's [`PACKAGE_NON_TESTS`] folders: so named, in a `data`
/// folder whose parent holds `problem.yaml`.
pub fn is_package_non_test(dir: &Path) -> bool {
    let named = dir
        .file_name()
        .is_some_and(|n| PACKAGE_NON_TESTS.iter().any(|x| n == *x));
    let data = dir.parent();
    named
        && data.is_some_and(|d| d.file_name().is_some_and(|n| n == "data"))
        && data
            .and_then(Path::parent)
            .is_some_and(|root| root.join(PACKAGE_YAML).is_file())
}

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
    #[error("{path}: skipped: {kind}, not a regular file")]
    NotRegular { path: PathBuf, kind: &'static str },
    #[error("{out} and {ans} are both expected outputs of the same input and differ: remove one")]
    ExpectedConflict { out: PathBuf, ans: PathBuf },
}

/// The files of a corpus, and the entries under it that are not cases.
#[derive(Debug, Default)]
pub struct Corpus {
    /// The `.in` files, sorted (see the module's invariants).
    pub files: Vec<CaseFile>,
    /// A folder that could not be read ([`CorpusError::Io`]), or a `.in` entry that is not a
    /// regular file ([`CorpusError::NotRegular`]), in the order found: not cases, but not
    /// silently dropped either.
    pub problems: Vec<CorpusError>,
}

/// Why a non-regular `.in` cannot be read: "a FIFO, not a regular file".
fn not_regular(kind: std::fs::FileType) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("{}, not a regular file", crate::util::atomic::kind_of(kind)),
    )
}

/// Reads a case file whole, refusing anything but a regular file (symbolic links followed):
/// a FIFO, a device or a socket gives an error naming what it is ("a FIFO, not a regular
/// file") without being read. The path is stat'ed first (a device is not even opened), then
/// opened with `O_NONBLOCK` and checked again on the open descriptor (`fstat`), so a FIFO put
/// in the file's place between the two cannot block. `size_hint` (the size a listing saw) only
/// sizes the buffer; the file is read to its end.
pub fn read_case_file(path: &Path, size_hint: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut file = open_case_file(path)?;
    // One byte more than the size, so that the read which finds the end needs no growth.
    let mut bytes = Vec::with_capacity(usize::try_from(size_hint).unwrap_or(0).saturating_add(1));
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Opens a case file to read it incrementally, refusing what is not a regular file as
/// [`read_case_file`] does.
pub fn open_case_file(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let kind = std::fs::metadata(path)?.file_type();
    if !kind.is_file() {
        return Err(not_regular(kind));
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)?;
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        return Err(not_regular(kind));
    }
    Ok(file)
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
    /// How its game reads it (the statement's reading unless a command chose variants of
    /// the game's, `run --zero-pair`): every parse of the file is asked with it.
    pub reading: Reading,
}

impl CaseFile {
    /// The expected output beside the input, as named in messages: `X.out` when it exists,
    /// else `X.ans` when that exists, else `X.out` (the name a missing one is reported under).
    pub fn expected_path(&self) -> PathBuf {
        let out = self.path.with_extension(OUTPUT_EXTENSION);
        let ans = self.path.with_extension(ANSWER_EXTENSION);
        match std::fs::symlink_metadata(&out).is_err() && std::fs::symlink_metadata(&ans).is_ok() {
            true => ans,
            false => out,
        }
    }

    /// Both names an expected output may have, `X.out` then `X.ans` (for checks that no
    /// output overwrites either).
    pub fn expected_candidates(&self) -> [PathBuf; 2] {
        [
            self.path.with_extension(OUTPUT_EXTENSION),
            self.path.with_extension(ANSWER_EXTENSION),
        ]
    }

    /// The expected output's path and bytes: `X.out` or `X.ans`, `None` when neither exists.
    /// Both present: the same bytes read as one, different bytes
    /// [`CorpusError::ExpectedConflict`]. Read as case files are (regular files only).
    pub fn read_expected(&self) -> Result<Option<(PathBuf, Vec<u8>)>, CorpusError> {
        let read = |path: PathBuf| -> Result<Option<(PathBuf, Vec<u8>)>, CorpusError> {
            match std::fs::symlink_metadata(&path) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(source) => Err(CorpusError::Io { path, source }),
                Ok(_) => match read_case_file(&path, 0) {
                    Ok(bytes) => Ok(Some((path, bytes))),
                    Err(source) => Err(CorpusError::Io { path, source }),
                },
            }
        };
        let [out, ans] = self.expected_candidates();
        match (read(out)?, read(ans)?) {
            (Some((out, a)), Some((ans, b))) if a != b => {
                Err(CorpusError::ExpectedConflict { out, ans })
            }
            (Some(found), _) | (None, Some(found)) => Ok(Some(found)),
            (None, None) => Ok(None),
        }
    }

    /// The path as shown in messages (forward slashes on every platform): one that opens.
    pub fn display(&self) -> String {
        self.path.to_string_lossy().replace('\\', "/")
    }

    /// The file's name in the CSV's `file` column and the summary: its path relative to the
    /// path named on the command line (forward slashes), so that CSVs of runs started from
    /// different folders join. See [`row_name_of`] for names that are not UTF-8.
    pub fn row_name(&self) -> String {
        row_name_of(&self.relative)
    }
}

/// A path as the CSV names it: its UTF-8 text with `\` as `/`, and each byte that is not UTF-8
/// as `\xHH` (two upper-case hex digits). No backslash of the name itself is left, so an escape
/// is never read into a name by accident and two files never share a name (`b\xFF.in` and
/// `b\xFE.in` stay two files in the CSV, in a journal and in a shard's list).
pub fn row_name_of(path: &Path) -> String {
    use std::fmt::Write;
    use std::os::unix::ffi::OsStrExt;
    let mut name = String::new();
    for chunk in path.as_os_str().as_bytes().utf8_chunks() {
        name.push_str(&chunk.valid().replace('\\', "/"));
        for byte in chunk.invalid() {
            write!(name, "\\x{byte:02X}").expect("writing to a String");
        }
    }
    name
}

/// The path a CSV's file name stands for: [`row_name_of`] undone (each `\xHH` back to its
/// byte), so that a name that was not UTF-8 finds its file again. (`/` stays `/`: the CSV
/// writes a name's `\` as `/`, and gamebench writes paths with `/`.)
pub fn path_of_row_name(name: &str) -> PathBuf {
    use std::os::unix::ffi::OsStringExt;
    let text = name.as_bytes();
    let mut bytes = Vec::with_capacity(text.len());
    let mut at = 0;
    while at < text.len() {
        let escaped = text
            .get(at..at + ESCAPE_LEN)
            .filter(|e| e.starts_with(b"\\x"))
            .and_then(|e| std::str::from_utf8(&e[2..]).ok())
            .filter(|hex| hex.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                bytes.push(byte);
                at += ESCAPE_LEN;
            }
            None => {
                bytes.push(text[at]);
                at += 1;
            }
        }
    }
    PathBuf::from(std::ffi::OsString::from_vec(bytes))
}

/// The length of one escaped byte of a CSV file name: `\xHH`.
const ESCAPE_LEN: usize = 4;

impl std::fmt::Debug for CaseFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CaseFile")
            .field("path", &self.path)
            .field("relative", &self.relative)
            .field("game", &self.game.name())
            .field("reading", &self.reading)
            .finish()
    }
}

/// Lists the `.in` files under `paths` (files, or directories searched recursively).
/// The game of each file is `game` when given, else the nearest enclosing folder named after
/// one of `games` (`corpora/yut/x.in` is Yut). Strict: the first of [`discover_all`]'s
/// problems is the error (for corpora the program made itself).
pub fn discover(
    paths: &[PathBuf],
    game: Option<&'static dyn Game>,
    games: &[&'static dyn Game],
) -> Result<Vec<CaseFile>, CorpusError> {
    let mut corpus = discover_all(paths, game, games)?;
    match corpus.problems.is_empty() {
        true => Ok(corpus.files),
        false => Err(corpus.problems.swap_remove(0)),
    }
}

/// As [`discover`], but a folder that cannot be read and a `.in` that is not a regular file
/// are [`Corpus::problems`], not errors: the rest of the corpus is listed. A path named on the
/// command line that does not exist, a file of no known game, or a root with neither a file nor
/// a problem is still an error.
pub fn discover_all(
    paths: &[PathBuf],
    game: Option<&'static dyn Game>,
    games: &[&'static dyn Game],
) -> Result<Corpus, CorpusError> {
    let roots: Vec<Root> = paths
        .iter()
        .map(|path| Root {
            path: path.clone(),
            game,
        })
        .collect();
    discover_roots(&roots, games)
}

/// A path to list and the game of its files, when it is known (else each file's nearest
/// folder named after a game decides): a judge's package names its game in its own files.
#[derive(Clone)]
pub struct Root {
    pub path: PathBuf,
    pub game: Option<&'static dyn Game>,
}

/// As [`discover_all`], each root with its own game: the files of every root together, in
/// one order (the module's invariants).
pub fn discover_roots(roots: &[Root], games: &[&'static dyn Game]) -> Result<Corpus, CorpusError> {
    let unknown = |path: &Path| CorpusError::UnknownGame {
        path: path.to_path_buf(),
        games: games
            .iter()
            .map(|g| g.name())
            .collect::<Vec<_>>()
            .join(", "),
    };
    let mut corpus = Corpus::default();
    for Root { path: root, game } in roots {
        let game = *game;
        let meta = std::fs::metadata(root).map_err(|source| CorpusError::Io {
            path: root.clone(),
            source,
        })?;
        let found_before = corpus.files.len() + corpus.problems.len();
        if meta.is_dir() {
            let mut inputs = Vec::new();
            walk(root, &mut inputs, &mut corpus.problems);
            for path in inputs {
                let relative = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
                let game = match game {
                    Some(g) => g,
                    None => game_of(&path, games).ok_or_else(|| unknown(&path))?,
                };
                corpus.files.push(CaseFile {
                    path,
                    relative,
                    game,
                    reading: Reading::STATEMENT,
                });
            }
        } else if !meta.is_file() {
            corpus.problems.push(CorpusError::NotRegular {
                path: root.clone(),
                kind: crate::util::atomic::kind_of(meta.file_type()),
            });
        } else {
            let relative = PathBuf::from(root.file_name().unwrap_or(root.as_os_str()));
            let game = match game {
                Some(g) => g,
                None => game_of(root, games).ok_or_else(|| unknown(root))?,
            };
            corpus.files.push(CaseFile {
                path: root.clone(),
                relative,
                game,
                reading: Reading::STATEMENT,
            });
        }
        if corpus.files.len() + corpus.problems.len() == found_before {
            return Err(CorpusError::Empty { path: root.clone() });
        }
    }
    corpus.files.sort_by(|a, b| {
        a.relative
            .as_os_str()
            .as_encoded_bytes()
            .cmp(b.relative.as_os_str().as_encoded_bytes())
            .then_with(|| a.path.cmp(&b.path))
    });
    corpus.files.dedup_by(|a, b| a.path == b.path);
    Ok(corpus)
}

/// Appends every regular `*.in` file under `dir`, recursively (a link to a regular file
/// counts; links to folders are not followed). A folder that cannot be read, and a `.in` that
/// is not a regular file, go to `problems`.
fn walk(dir: &Path, out: &mut Vec<PathBuf>, problems: &mut Vec<CorpusError>) {
    let io = |source| CorpusError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let entries: Result<Vec<_>, _> = std::fs::read_dir(dir).and_then(|d| d.collect());
    let mut entries = match entries {
        Ok(entries) => entries,
        Err(e) => return problems.push(io(e)),
    };
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let mut kind = match entry.file_type() {
            Ok(kind) => kind,
            Err(source) => {
                problems.push(CorpusError::Io { path, source });
                continue;
            }
        };
        if kind.is_dir() {
            if !is_package_non_test(&path) {
                walk(&path, out, problems);
            }
            continue;
        }
        if path.extension().is_none_or(|e| e != INPUT_EXTENSION) {
            continue;
        }
        if kind.is_symlink() {
            kind = match std::fs::metadata(&path) {
                Ok(meta) => meta.file_type(),
                // A dangling link: listed, so that reading it gives the file its error row.
                Err(_) => {
                    out.push(path);
                    continue;
                }
            };
        }
        if kind.is_file() {
            out.push(path);
        } else {
            problems.push(CorpusError::NotRegular {
                path,
                kind: crate::util::atomic::kind_of(kind),
            });
        }
    }
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
    fn names_that_are_not_utf8_are_escaped_byte_by_byte() {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        let name = |bytes: &[u8]| row_name_of(Path::new(OsStr::from_bytes(bytes)));
        assert_eq!(name(b"yut/b\xff.in"), "yut/b\\xFF.in");
        assert_eq!(name(b"yut/b\xfe.in"), "yut/b\\xFE.in");
        // A valid multi-byte character stays; a character cut short is its bytes escaped.
        assert_eq!(name("é.in".as_bytes()), "é.in");
        assert_eq!(name(b"\xc3\xa9\xc3.in"), "é\\xC3.in");
        // A backslash of the name itself is a slash, so it never starts an escape.
        assert_eq!(name(b"a\\xFF.in"), "a/xFF.in");
    }

    #[test]
    fn an_escaped_name_maps_back_to_its_bytes() {
        use std::os::unix::ffi::OsStrExt;
        for bytes in [
            &b"yut/b\xff.in"[..],
            b"yut/b\xfe.in",
            "é.in".as_bytes(),
            b"\xc3\xa9\xc3.in",
        ] {
            let path = Path::new(std::ffi::OsStr::from_bytes(bytes));
            assert_eq!(path_of_row_name(&row_name_of(path)), path, "{bytes:?}");
        }
        // What is no escape stays as written.
        assert_eq!(path_of_row_name("a\\xZZ\\x4"), Path::new("a\\xZZ\\x4"));
    }

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

    fn mkfifo(path: &Path) {
        use std::os::unix::ffi::OsStrExt;
        let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    }

    #[test]
    fn special_inputs_are_problems_and_never_read() {
        let dir = tempfile::tempdir().unwrap();
        let game = registry::GAMES[0];
        let folder = dir.path().join(game.name());
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("a.in"), "x").unwrap();
        mkfifo(&folder.join("fifo.in"));
        std::os::unix::fs::symlink("/dev/zero", folder.join("zero.in")).unwrap();
        let corpus = discover_all(&[dir.path().to_path_buf()], None, registry::GAMES).unwrap();
        assert_eq!(corpus.files.len(), 1);
        let problems: Vec<String> = corpus.problems.iter().map(|p| p.to_string()).collect();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].ends_with("fifo.in: skipped: a FIFO, not a regular file"));
        assert!(problems[1].ends_with("zero.in: skipped: a character device, not a regular file"));
        assert!(discover(&[dir.path().to_path_buf()], None, registry::GAMES).is_err());
        let fifo = read_case_file(&folder.join("fifo.in"), 0).unwrap_err();
        assert_eq!(fifo.to_string(), "a FIFO, not a regular file");
        let zero = read_case_file(&folder.join("zero.in"), 0).unwrap_err();
        assert_eq!(zero.to_string(), "a character device, not a regular file");
        assert_eq!(read_case_file(&folder.join("a.in"), 0).unwrap(), b"x");
        // Named directly, too.
        let direct = discover_all(&[folder.join("fifo.in")], Some(game), registry::GAMES).unwrap();
        assert!(direct.files.is_empty() && direct.problems.len() == 1);
    }
}
