//! SameGame throughput: both engines on generated corpora, parsing included.
//!
//! The files are generated here with `gamebench-generators` (nothing large is committed):
//! `throughput` is 2,500 grids of 10x40 with 150-300 selections each (about 5 MB), the size of
//! the target; `full` is a smaller mixed file. Each corpus has two groups with the same
//! measurements: one in bytes per second, one in selections per second. Every measurement is
//! the whole judge path but I/O: parse the stream, solve every grid, format the output.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamebench::game::{Budget, Rules};
use gamebench::games::samegame::SameGame;
use gamebench::games::samegame::generator::SameGameArgs as Options;
use gamebench::generate;
use gamebench_generators::parse_args;

/// Seed of the generated files.
const SEED: u64 = 1;

/// Parses `input`, solves every grid with `engine`, formats and joins the output.
fn judge(input: &[u8], engine: &str) -> String {
    let engine = SameGame::ENGINES
        .iter()
        .find(|e| e.name == engine)
        .expect("engine exists");
    let parsed = SameGame::parse(input, &gamebench::game::Reading::STATEMENT);
    let mut blocks = Vec::with_capacity(parsed.len());
    for (k, p) in parsed.iter().enumerate() {
        let game = p.case.as_ref().expect("generated grids are valid");
        let outcome = (engine.solve)(game, &Budget::UNLIMITED).expect("simulation never fails");
        blocks.push(SameGame::format_case(k + 1, game, &outcome));
    }
    blocks.join(SameGame::SEPARATOR)
}

fn corpus(c: &mut Criterion, profile: &str, cases: usize) {
    let options: Options = parse_args(&["--cases", &cases.to_string()]).expect("options parse");
    let text = generate::file::<SameGame>(profile, &options, SEED, 0).expect("generator works");
    let input = text.as_bytes();
    let parsed = SameGame::parse(input, &gamebench::game::Reading::STATEMENT);
    let selections: usize = parsed
        .iter()
        .map(|p| p.case.as_ref().map_or(0, |g| g.selections().len()))
        .sum();
    // The engines must agree before their speed means anything.
    assert_eq!(judge(input, "reference"), judge(input, "bitboard"));
    eprintln!(
        "samegame {profile}: {} bytes, {} grids, {selections} selections",
        input.len(),
        parsed.len()
    );
    let throughputs = [
        ("bytes", Throughput::Bytes(input.len() as u64)),
        ("selections", Throughput::Elements(selections as u64)),
    ];
    for (unit, throughput) in throughputs {
        let mut group = c.benchmark_group(format!("samegame/{profile}-{cases}/{unit}"));
        group.sample_size(10);
        group.throughput(throughput);
        group.bench_function("parse", |b| {
            b.iter(|| SameGame::parse(black_box(input), &gamebench::game::Reading::STATEMENT).len())
        });
        for engine in SameGame::ENGINES {
            group.bench_function(engine.name, |b| {
                b.iter(|| judge(black_box(input), engine.name))
            });
        }
        group.finish();
    }
}

fn benches(c: &mut Criterion) {
    corpus(c, "throughput", 2500);
    corpus(c, "full", 200);
}

criterion_group!(samegame, benches);
criterion_main!(samegame);
