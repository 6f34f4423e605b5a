//! Vexed engines side by side on the bundled hard set (24 puzzles, minimum 9-11 moves) and mixed
//! set (300 puzzles, 1-11 moves): one group per set, puzzles per second, single thread.
//! The reference engine (plain BFS) takes seconds per pass: it runs with criterion's minimum
//! sample size.

mod common;

use common::{assert_correct, corpus_path, load_dir, solve_all};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamebench::registry;

/// Criterion's smallest allowed sample size, for the slow reference engine.
const SLOW_SAMPLES: usize = 10;

fn engines(c: &mut Criterion) {
    let game = registry::find("vexed").unwrap();
    for set in ["hard", "mixed"] {
        let dir = corpus_path(&format!("vexed/{set}"));
        let corpus = load_dir(game, &dir);
        let mut group = c.benchmark_group(format!("vexed/{set}"));
        group.throughput(Throughput::Elements(corpus.len() as u64));
        for engine in game.engines() {
            assert_correct(engine, &corpus, corpus.len());
            if engine.is_reference() {
                group.sample_size(SLOW_SAMPLES);
            }
            group.bench_function(engine.name(), |b| {
                b.iter(|| solve_all(engine, &corpus.cases))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, engines);
criterion_main!(benches);
