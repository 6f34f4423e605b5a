//! What the engine benches share: loading a bundled corpus once, and solving a list of cases
//! with one engine (outputs formatted, as in a judge run, and kept from the optimizer).

use std::any::Any;
use std::hint::black_box;
use std::path::{Path, PathBuf};

use gamebench::game::{Budget, Game};

/// Parsed cases, ready for any engine of their game.
pub type Cases = Vec<Box<dyn Any + Send + Sync>>;

/// A folder or file of the bundled corpora (`corpora/...`).
pub fn corpus_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpora")
        .join(relative)
}

/// Every case of one judge file, parsed once.
pub fn load_file(game: &dyn Game, path: &Path) -> Cases {
    game.parse(&std::fs::read(path).expect("bundled corpus"))
        .into_iter()
        .map(|parsed| parsed.case.expect("valid corpus"))
        .collect()
}

/// Every case of every `.in` file directly under `dir`, in name order.
#[allow(dead_code)] // not every bench loads whole folders
pub fn load_dir(game: &dyn Game, dir: &Path) -> Cases {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("bundled corpus")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    paths.sort();
    paths.iter().flat_map(|p| load_file(game, p)).collect()
}

/// Solves every case with `engine`, unlimited budget.
pub fn solve_all(game: &dyn Game, engine: &str, cases: &[Box<dyn Any + Send + Sync>]) {
    for (i, case) in cases.iter().enumerate() {
        black_box(game.solve(engine, i + 1, case.as_ref(), &Budget::UNLIMITED));
    }
}
