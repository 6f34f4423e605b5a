//! Vexed engines side by side on the bundled hard set (24 puzzles, minimum 9-11 moves) and mixed
//! set (300 puzzles, 1-11 moves): one group per set, puzzles per second, single thread.
//! The reference engine (plain BFS) takes seconds per pass: it runs with criterion's minimum
//! sample size.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamebench::game::{Budget, Game};
use gamebench::registry;

/// Every case of every `.in` file under `dir`, parsed once.
fn load(game: &dyn Game, dir: &Path) -> Vec<Box<dyn std::any::Any + Send + Sync>> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("bundled corpus")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    paths.sort();
    paths
        .iter()
        .flat_map(|p| game.parse(&std::fs::read(p).unwrap()))
        .map(|parsed| parsed.case.expect("valid corpus"))
        .collect()
}

/// Criterion's smallest allowed sample size, for the slow reference engine.
const SLOW_SAMPLES: usize = 10;

fn engines(c: &mut Criterion) {
    let game = registry::find("vexed").unwrap();
    for set in ["hard", "mixed"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("corpora/vexed")
            .join(set);
        let cases = load(game, &dir);
        let mut group = c.benchmark_group(format!("vexed/{set}"));
        group.throughput(Throughput::Elements(cases.len() as u64));
        for engine in game.engine_names() {
            if engine == "reference" {
                group.sample_size(SLOW_SAMPLES);
            }
            group.bench_function(engine, |b| {
                b.iter(|| {
                    for (i, case) in cases.iter().enumerate() {
                        black_box(game.solve(engine, i + 1, case.as_ref(), &Budget::UNLIMITED));
                    }
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, engines);
criterion_main!(benches);
