//! Vexed's move generator alone: every push (move + settle) of a fixed list of states, via
//! `State::children` as the search calls it ([`PushCorpus`]). The states are the first
//! [`STATES_PER_PUZZLE`] reached breadth-first from each puzzle of the bundled corpora (hard,
//! mixed, sample, traps), so the boards, letter counts and plane counts are the ones the engine
//! meets. Before timing, every push is checked against the literal rules of the grid. Throughput
//! is pushes per second, single thread.

#[allow(dead_code)] // only its corpus_path: the states come from parsed puzzles, not cases
mod common;

use common::corpus_path;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamebench::games::vexed::bitset::PushCorpus;
use gamebench::games::vexed::parse_puzzles;

/// States collected per puzzle (fewer when the puzzle has fewer reachable states).
const STATES_PER_PUZZLE: usize = 64;
/// The bundled judge files the states come from.
const FILES: [&str; 4] = [
    "vexed/hard/vexed-hard-1-0.in",
    "vexed/mixed/vexed-throughput-1-0.in",
    "vexed/sample.in",
    "vexed/traps.in",
];

fn pushes(c: &mut Criterion) {
    let puzzles: Vec<_> = FILES
        .iter()
        .flat_map(|file| parse_puzzles(&std::fs::read(corpus_path(file)).expect("bundled corpus")))
        .map(|parsed| parsed.case.expect("valid corpus"))
        .collect();
    let corpus = PushCorpus::new(&puzzles, STATES_PER_PUZZLE);
    if let Err(mismatch) = corpus.verify() {
        panic!("a push differs from the grid rules: {mismatch}");
    }
    let count = corpus.push_all();
    let mut group = c.benchmark_group("vexed_push");
    group.throughput(Throughput::Elements(count));
    group.bench_function("children", |b| b.iter(|| corpus.push_all()));
    group.finish();
}

criterion_group!(benches, pushes);
criterion_main!(benches);
