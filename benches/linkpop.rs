//! Link and Pop engines side by side on the bundled 30 x 30 corpora (one group per file,
//! throughput in cases).
//!
//! `bitboard` runs each whole 30-case file (the "30 cases in at most 40 ms" target). The
//! reference engine needs about a second per 30 x 30 case, so a whole file would take minutes
//! per sample: both engines also run the file's first [`SHARED_CASES`] cases, which is the
//! like-for-like comparison (`gamebench run corpora/linkpop/generated --engine all -j 1`
//! compares them on the whole files).

mod common;

use common::{assert_correct, corpus_path, load_file, solve_all};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamebench::registry;

/// Cases of each file both engines run.
const SHARED_CASES: usize = 3;

fn engines(c: &mut Criterion) {
    let game = registry::find("linkpop").unwrap();
    let root = corpus_path("linkpop/generated");
    for (set, file) in [
        ("worst", "worst/hunt-bitboard-1.in"),
        ("moving", "moving/linkpop-moving-1-0.in"),
    ] {
        let corpus = load_file(game, &root.join(file));
        let bitboard = game.engine("bitboard").unwrap();
        assert_correct(bitboard, &corpus, corpus.len());
        let mut group = c.benchmark_group(format!("linkpop/{set}"));
        group.sample_size(10);
        group.throughput(Throughput::Elements(corpus.len() as u64));
        group.bench_function(format!("bitboard/all-{}", corpus.len()), |b| {
            b.iter(|| solve_all(bitboard, &corpus.cases))
        });
        let shared = corpus.first(SHARED_CASES);
        group.throughput(Throughput::Elements(SHARED_CASES as u64));
        for engine in game.engines() {
            assert_correct(engine, &corpus, SHARED_CASES);
            group.bench_function(format!("{}/first-{SHARED_CASES}", engine.name()), |b| {
                b.iter(|| solve_all(engine, shared))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, engines);
criterion_main!(benches);
