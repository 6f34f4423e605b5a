//! What the engine benches share: loading a bundled corpus once with its expected outputs,
//! checking an engine's answers against them before it is timed (a wrong engine fails the
//! bench instead of getting a speed), and solving a list of cases with one engine.

use std::any::Any;
use std::hint::black_box;
use std::path::{Path, PathBuf};

use gamebench::game::{Budget, EngineRef, Game};

/// Parsed cases with their expected output blocks, ready for any engine of their game.
pub struct Corpus {
    pub cases: Vec<Box<dyn Any + Send + Sync>>,
    pub expected: Vec<String>,
}

impl Corpus {
    pub fn len(&self) -> usize {
        self.cases.len()
    }

    /// The first `n` cases.
    #[allow(dead_code)] // not every bench takes a prefix
    pub fn first(&self, n: usize) -> &[Box<dyn Any + Send + Sync>] {
        &self.cases[..n]
    }
}

/// A folder or file of the bundled corpora (`corpora/...`).
pub fn corpus_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpora")
        .join(relative)
}

/// Every case of one judge file, parsed once, with the blocks of its `.out`.
pub fn load_file(game: &dyn Game, path: &Path) -> Corpus {
    let cases = game
        .parse(
            &std::fs::read(path).expect("bundled corpus"),
            &gamebench::game::Reading::STATEMENT,
        )
        .into_iter()
        .map(|parsed| parsed.case.expect("valid corpus"))
        .collect();
    let expected = std::fs::read_to_string(path.with_extension("out")).expect("expected output");
    Corpus {
        cases,
        expected: game.split_output(&expected),
    }
}

/// Every case of every `.in` file directly under `dir`, in name order.
#[allow(dead_code)] // not every bench loads whole folders
pub fn load_dir(game: &dyn Game, dir: &Path) -> Corpus {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("bundled corpus")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    paths.sort();
    let mut corpus = Corpus {
        cases: Vec::new(),
        expected: Vec::new(),
    };
    for path in paths {
        let file = load_file(game, &path);
        corpus.cases.extend(file.cases);
        corpus.expected.extend(file.expected);
    }
    corpus
}

/// Panics unless `engine` answers the first `n` cases as expected (the game's checker).
pub fn assert_correct(engine: EngineRef, corpus: &Corpus, n: usize) {
    for (i, (case, expected)) in corpus
        .cases
        .iter()
        .zip(&corpus.expected)
        .take(n)
        .enumerate()
    {
        let (solved, _) = engine
            .solve(i + 1, case.as_ref(), &Budget::UNLIMITED)
            .unwrap_or_else(|e| panic!("{engine:?}: case {}: {e}", i + 1));
        if let Err(why) = engine.game.check(case.as_ref(), expected, &solved.output) {
            panic!("{engine:?}: case {}: {why}", i + 1);
        }
    }
}

/// Solves every case with `engine`, unlimited budget.
pub fn solve_all(engine: EngineRef, cases: &[Box<dyn Any + Send + Sync>]) {
    for (i, case) in cases.iter().enumerate() {
        black_box(
            engine
                .solve(i + 1, case.as_ref(), &Budget::UNLIMITED)
                .expect("bundled cases are valid"),
        );
    }
}
