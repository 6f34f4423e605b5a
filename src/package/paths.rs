//! A package where a corpus is read (`run`, `validate`, `report --corpus`): a named path that is
//! a package folder, or a Kattis package's `data/` folder (or a folder or file under it), is
//! listed with the package's game as `invoke` chooses it (`--game`, else the package's
//! `gamebench` key or its gamebench output validator, else its nearest folder named after a
//! game), and a Polygon package through its view of links (`polygon.rs`), whose tests have no
//! `.in` extension. The Kattis walk itself is the corpus's (`corpus::walk` skips a package's
//! `data/invalid_input`, `invalid_output` and `valid_output`); nothing here reads a test.

use std::path::{Path, PathBuf};

use super::{Format, PackageError, format_of, kattis, polygon};
use crate::corpus::{self, Corpus, CorpusError, Root};
use crate::game::Game;

/// The folder of a Kattis package that holds its tests.
const DATA: &str = "data";

/// The package `path` names, with its format: a package folder, a Kattis package's `data/`
/// folder or anything under it, or a package's zip file (unpacked: the folder is the
/// unpacked package's).
pub fn package_of(path: &Path) -> Result<Option<(PathBuf, Format)>, PackageError> {
    if super::zip::is_zip(path) {
        let root = super::zip::unpack(path)?;
        return Ok(format_of(&root).map(|format| (root, format)));
    }
    Ok(folder_package_of(path))
}

/// [`package_of`] for a path that is not a zip file.
fn folder_package_of(path: &Path) -> Option<(PathBuf, Format)> {
    if let Some(format) = format_of(path) {
        return Some((path.to_path_buf(), format));
    }
    // Absolute, so that `.` inside a package's data/ still has its folders' names.
    let absolute = std::path::absolute(path).ok()?;
    absolute.ancestors().find_map(|dir| {
        let root = dir.parent()?;
        (dir.file_name()? == DATA && format_of(root) == Some(Format::Kattis))
            .then(|| (root.to_path_buf(), Format::Kattis))
    })
}

/// The game of the package at `root` (of `format`): `forced`, else as `invoke` chooses it.
pub fn game_of(
    root: &Path,
    format: Format,
    forced: Option<&'static dyn Game>,
    games: &[&'static dyn Game],
) -> Result<&'static dyn Game, PackageError> {
    match format {
        Format::Kattis => kattis::game_of(root, forced, games),
        Format::Polygon => super::choose_game(root, forced, None, games),
    }
}

/// The roots to list for `paths`: each as it is with `game`, but a path in a package with the
/// package's game, and a Polygon package folder as its view.
pub fn roots(
    paths: &[PathBuf],
    game: Option<&'static dyn Game>,
    games: &[&'static dyn Game],
) -> Result<Vec<Root>, PackageError> {
    paths
        .iter()
        .map(|path| match package_of(path)? {
            None => Ok(Root {
                path: path.clone(),
                game,
            }),
            Some((root, Format::Kattis)) => Ok(Root {
                // A zip file is read as the folder it unpacked to.
                path: if super::zip::is_zip(path) {
                    root.clone()
                } else {
                    path.clone()
                },
                game: Some(game_of(&root, Format::Kattis, game, games)?),
            }),
            Some((root, Format::Polygon)) => Ok(Root {
                path: polygon::tests_folder(&root)?
                    .ok_or_else(|| CorpusError::Empty { path: root.clone() })?,
                game: Some(game_of(&root, Format::Polygon, game, games)?),
            }),
        })
        .collect()
}

/// [`corpus::discover_all`] with packages read as their tests (see [`roots`]).
pub fn discover_all(
    paths: &[PathBuf],
    game: Option<&'static dyn Game>,
    games: &[&'static dyn Game],
) -> Result<Corpus, PackageError> {
    Ok(corpus::discover_roots(&roots(paths, game, games)?, games)?)
}

/// The folders a report looks for a run's inputs under, for the `--corpus` folders `given`:
/// each as given, and after a Kattis package folder its `data/` (a run of `PKG/data` names its
/// files from there), after a Polygon package folder its view (the run's files are named
/// from it). A Polygon package that cannot be read adds nothing: the report draws what it
/// finds.
pub fn report_roots(given: &[PathBuf]) -> Vec<PathBuf> {
    let mut roots = Vec::new();
    for path in given {
        roots.push(path.clone());
        match format_of(path) {
            Some(Format::Kattis) => roots.push(path.join(DATA)),
            Some(Format::Polygon) => roots.extend(polygon::tests_folder(path).ok().flatten()),
            None => {}
        }
    }
    roots
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kattis_package_is_found_from_its_data_and_below_and_not_above() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("pkg");
        let secret = root.join("data/secret/group1");
        std::fs::create_dir_all(&secret).unwrap();
        std::fs::write(root.join(kattis::PROBLEM_YAML), "name: x\n").unwrap();
        let found = |p: &Path| {
            package_of(p)
                .unwrap()
                .map(|(r, f)| (std::path::absolute(r).unwrap(), f))
        };
        let expected = Some((std::path::absolute(&root).unwrap(), Format::Kattis));
        assert_eq!(found(&root), expected);
        assert_eq!(found(&root.join("data")), expected);
        assert_eq!(found(&secret), expected);
        assert_eq!(found(dir.path()), None);
        // A folder named data that is not a package's: no package.
        let other = dir.path().join("other/data");
        std::fs::create_dir_all(&other).unwrap();
        assert_eq!(found(&other), None);
    }
}
