//! Yut Nori engines side by side on the bundled corpus (one group per set, cases per second).

mod common;

use common::{assert_correct, corpus_path, load_dir, solve_all};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamebench::registry;

fn engines(c: &mut Criterion) {
    let game = registry::find("yut").unwrap();
    for set in ["long", "catch"] {
        let dir = corpus_path(&format!("yut/generated/{set}"));
        let corpus = load_dir(game, &dir);
        let mut group = c.benchmark_group(format!("yut/{set}"));
        group.throughput(Throughput::Elements(corpus.len() as u64));
        for engine in game.engines() {
            assert_correct(engine, &corpus, corpus.len());
            group.bench_function(engine.name(), |b| {
                b.iter(|| solve_all(engine, &corpus.cases))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, engines);
criterion_main!(benches);
