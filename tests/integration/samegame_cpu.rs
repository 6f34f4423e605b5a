//! CPU-time measurement of the SameGame throughput path, for a loaded machine where wall-clock
//! benchmarks are inflated by other processes. Ignored: run it on purpose with
//! `cargo test --release --test integration -- --ignored samegame_cpu:: --nocapture`.
//! It asserts nothing about speed (speed is measured in `benches/samegame.rs`); it prints the
//! CPU time this thread spent, read from Linux's `/proc/thread-self/schedstat`.

use std::hint::black_box;

use gamebench::game::{Budget, Rules};
use gamebench::games::samegame::SameGame;
use gamebench::games::samegame::generator::SameGameArgs as Options;
use gamebench::generate;
use gamebench_generators::parse_args;

/// Nanoseconds this thread has run on a CPU, when Linux tells.
fn cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

fn judge(input: &[u8], engine: &str) -> usize {
    let engine = SameGame::ENGINES.iter().find(|e| e.name == engine).unwrap();
    let parsed = SameGame::parse(input, &gamebench::game::Reading::STATEMENT);
    let mut out = Vec::with_capacity(parsed.len());
    for (k, p) in parsed.iter().enumerate() {
        let game = p.case.as_ref().unwrap();
        let outcome = (engine.solve)(game, &Budget::UNLIMITED).unwrap();
        out.push(SameGame::format_case(k + 1, game, &outcome));
    }
    out.join(SameGame::SEPARATOR).len()
}

#[test]
#[ignore = "a measurement, run on purpose"]
fn throughput_cpu_time() {
    // SAMEGAME_INPUT names a file to measure instead of the generated throughput file.
    let text = match std::env::var_os("SAMEGAME_INPUT") {
        Some(path) => std::fs::read(path).unwrap(),
        None => {
            let options: Options = parse_args(&["--cases", "2500"]).unwrap();
            let text = generate::file::<SameGame>("throughput", &options, 1, 0).unwrap();
            // SAMEGAME_SAVE names a file to keep the generated input in.
            if let Some(path) = std::env::var_os("SAMEGAME_SAVE") {
                std::fs::write(path, &text).unwrap();
            }
            text.into_bytes()
        }
    };
    let input = &text[..];
    let games: Vec<_> = SameGame::parse(input, &gamebench::game::Reading::STATEMENT)
        .into_iter()
        .map(|p| p.case.unwrap())
        .collect();
    let selections: usize = games.iter().map(|g| g.selections().len()).sum();
    let removals: u64 = games
        .iter()
        .map(|g| {
            (SameGame::ENGINES[1].solve)(g, &Budget::UNLIMITED)
                .unwrap()
                .work
        })
        .sum();
    println!(
        "{} grids, {selections} selections, {removals} removals",
        games.len()
    );
    const ROUNDS: u32 = 20;
    let measure = |name: &str, f: &dyn Fn() -> usize| {
        black_box(f());
        let (Some(start), wall) = (cpu_ns(), std::time::Instant::now()) else {
            println!("no /proc/thread-self/schedstat: CPU time unavailable");
            return;
        };
        for _ in 0..ROUNDS {
            black_box(f());
        }
        let cpu = (cpu_ns().unwrap() - start) as f64 / f64::from(ROUNDS) / 1e6;
        let wall = wall.elapsed().as_secs_f64() * 1e3 / f64::from(ROUNDS);
        println!(
            "{name:>22}: {cpu:7.2} ms CPU, {wall:7.2} ms wall per file ({} bytes)",
            input.len()
        );
    };
    // SAMEGAME_MEASURE = parse or bitboard restricts the measurement to one path.
    let only = std::env::var("SAMEGAME_MEASURE").unwrap_or_default();
    if only == "tokens" {
        measure("tokens", &|| {
            let mut tokens = gamebench::games::samegame::parse::Tokens::new(black_box(input));
            let mut n = 0;
            while tokens.next_token().is_some() {
                n += 1;
            }
            n
        });
    }
    if only.is_empty() || only == "parse" {
        measure("parse", &|| {
            SameGame::parse(black_box(input), &gamebench::game::Reading::STATEMENT).len()
        });
    }
    if only.is_empty() || only == "bitboard" {
        measure("parse+bitboard+format", &|| {
            judge(black_box(input), "bitboard")
        });
    }
}
