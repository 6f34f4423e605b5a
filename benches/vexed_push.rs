//! Vexed's move generator alone: every push (move + settle) of a fixed list of states, via
//! `State::children` as the search calls it. The states are the first [`STATES_PER_PUZZLE`]
//! reached breadth-first from each puzzle of the bundled corpora (hard, mixed, sample, traps),
//! so the boards, letter counts and plane counts are the ones the engine meets. Throughput is
//! pushes per second, single thread.

use std::collections::HashSet;
use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamebench::games::vexed::bitset::planes::{Geometry, State, planes_needed};
use gamebench::games::vexed::parse_puzzles;
use std::path::{Path, PathBuf};

/// States collected per puzzle (fewer when the puzzle has fewer reachable states).
const STATES_PER_PUZZLE: usize = 64;
/// The bundled judge files the states come from.
const FILES: [&str; 4] = [
    "vexed/hard/vexed-hard-1-0.in",
    "vexed/mixed/vexed-throughput-1-0.in",
    "vexed/sample.in",
    "vexed/traps.in",
];

/// A file of the bundled corpora (`corpora/...`).
fn corpus_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpora")
        .join(relative)
}

/// Puzzles whose letters need `P` planes, each with its collected states.
type Boards<const P: usize> = Vec<(Geometry, Vec<State<P>>)>;

/// The first states reached breadth-first from `start` (the start included).
fn collect<const P: usize>(geo: &Geometry, start: State<P>) -> Vec<State<P>> {
    let mut seen = HashSet::from([start]);
    let mut states = vec![start];
    let mut next = 0;
    while next < states.len() && states.len() < STATES_PER_PUZZLE {
        let state = states[next];
        next += 1;
        for (_, _, child) in state.children(geo) {
            if states.len() < STATES_PER_PUZZLE && seen.insert(child) {
                states.push(child);
            }
        }
    }
    states
}

fn add<const P: usize>(boards: &mut Boards<P>, grid: &gamebench::games::vexed::grid::Grid) {
    let geo = Geometry::new(grid);
    let states = collect(&geo, State::<P>::new(&geo, grid));
    boards.push((geo, states));
}

/// Every child of every state; returns the number of pushes.
fn push_all<const P: usize>(boards: &Boards<P>) -> u64 {
    let mut pushes = 0;
    for (geo, states) in boards {
        for state in states {
            for child in black_box(state).children(geo) {
                black_box(child);
                pushes += 1;
            }
        }
    }
    pushes
}

#[derive(Default)]
struct Corpus {
    p1: Boards<1>,
    p2: Boards<2>,
    p3: Boards<3>,
    p4: Boards<4>,
    p5: Boards<5>,
}

impl Corpus {
    fn load() -> Corpus {
        let mut corpus = Corpus::default();
        for file in FILES {
            let bytes = std::fs::read(corpus_path(file)).expect("bundled corpus");
            for parsed in parse_puzzles(&bytes) {
                let start = parsed.case.expect("valid corpus").start();
                match planes_needed(Geometry::new(&start).letters.len()) {
                    0 => {} // no blocks: no pushes
                    1 => add(&mut corpus.p1, &start),
                    2 => add(&mut corpus.p2, &start),
                    3 => add(&mut corpus.p3, &start),
                    4 => add(&mut corpus.p4, &start),
                    _ => add(&mut corpus.p5, &start),
                }
            }
        }
        corpus
    }

    fn push_all(&self) -> u64 {
        push_all(&self.p1)
            + push_all(&self.p2)
            + push_all(&self.p3)
            + push_all(&self.p4)
            + push_all(&self.p5)
    }
}

fn pushes(c: &mut Criterion) {
    let corpus = Corpus::load();
    let count = corpus.push_all();
    let mut group = c.benchmark_group("vexed_push");
    group.throughput(Throughput::Elements(count));
    group.bench_function("children", |b| b.iter(|| corpus.push_all()));
    group.finish();
}

criterion_group!(benches, pushes);
criterion_main!(benches);
