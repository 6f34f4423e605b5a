//! Vexed engines side by side on the bundled hard set (24 puzzles, minimum 9-11 moves) and mixed
//! set (300 puzzles, 1-11 moves): one group per set, puzzles per second, single thread.
//! Before timing, every engine's output for every case is checked against the set's expected
//! `.out` with the game's checker (any minimum solution is accepted), so a wrong engine fails
//! the bench. The reference engine (plain BFS) takes seconds per pass: it runs with criterion's
//! minimum sample size.

mod common;

use std::path::{Path, PathBuf};

use common::{Cases, corpus_path, load_file, solve_all};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamebench::game::{Budget, Game};
use gamebench::registry;

/// Criterion's smallest allowed sample size, for the slow reference engine.
const SLOW_SAMPLES: usize = 10;

/// The `.in` files directly under `dir`, in name order.
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("bundled corpus")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    paths.sort();
    paths
}

/// Solves every case of `input` with `engine` and checks each output block against the
/// matching block of the expected `.out` beside it; panics on the first failure.
fn check_engine(game: &dyn Game, engine: &str, input: &Path, cases: &Cases) {
    let expected = std::fs::read_to_string(input.with_extension("out")).expect("expected output");
    let blocks = game.split_output(&expected);
    assert_eq!(blocks.len(), cases.len(), "{}: cases", input.display());
    for (i, (case, block)) in cases.iter().zip(&blocks).enumerate() {
        let solved = game
            .solve(engine, i + 1, case.as_ref(), &Budget::UNLIMITED)
            .expect("a registered engine")
            .expect("a valid case");
        if let Err(error) = game.check(case.as_ref(), block, &solved.output) {
            panic!("{engine} on case {} of {}: {error}", i + 1, input.display());
        }
    }
}

fn engines(c: &mut Criterion) {
    let game = registry::find("vexed").unwrap();
    for set in ["hard", "mixed"] {
        let files = inputs(&corpus_path(&format!("vexed/{set}")));
        let per_file: Vec<Cases> = files.iter().map(|f| load_file(game, f)).collect();
        for engine in game.engine_names() {
            for (file, cases) in files.iter().zip(&per_file) {
                check_engine(game, engine, file, cases);
            }
        }
        let cases: Cases = per_file.into_iter().flatten().collect();
        let mut group = c.benchmark_group(format!("vexed/{set}"));
        group.throughput(Throughput::Elements(cases.len() as u64));
        for engine in game.engine_names() {
            if engine == "reference" {
                group.sample_size(SLOW_SAMPLES);
            }
            group.bench_function(engine, |b| b.iter(|| solve_all(game, engine, &cases)));
        }
        group.finish();
    }
}

criterion_group!(benches, engines);
criterion_main!(benches);
