//! Report (not a criterion bench): the `bitset` engine on the original Vexed level packs.
//!
//! Reads every `<pack>.in` / `<pack>.par` pair in the folder named by `VEXED_LEVELS` (default
//! `../shared/vexed-levels`, outside the repository: the GPL level data is not ours to commit)
//! and prints, per pack: levels, how many were solved and proven minimal within the per-level
//! budget (`VEXED_LEVEL_SECONDS`, default 1 s, single thread), how K compares with the published
//! par (below / equal / above), the levels off par by name, then the slowest levels overall.
//! Every solution found is replayed by the checker (a K below par must be a real solution).
//! Skips cleanly when the folder is absent. Optional `VEXED_PACKS=classic-levels,...` limits
//! the packs. Run: `cargo bench --bench vexed_levels`.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use gamebench::game::{Budget, Rules, Verdict};
use gamebench::games::vexed::{Vexed, bitset, check_output};

/// Slowest levels listed at the end.
const SLOWEST: usize = 15;

/// The allocator of the `gamebench` binary, so that the times are those `gamebench run` and
/// `solve` would take (giving back a search's memory after a budget stop depends on the
/// allocator; see `benches/README.md`, Vexed).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    // `cargo bench` passes `--bench`; any other flags are ignored.
    let root = std::env::var("VEXED_LEVELS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/vexed-levels")
        });
    let Ok(entries) = std::fs::read_dir(&root) else {
        println!("vexed_levels: {} not found, skipping", root.display());
        return;
    };
    let seconds: f64 = std::env::var("VEXED_LEVEL_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let only: Option<Vec<String>> = std::env::var("VEXED_PACKS")
        .ok()
        .map(|s| s.split(',').map(str::to_string).collect());
    let budget = Budget {
        max_states: None,
        time_limit: Some(Duration::from_secs_f64(seconds)),
    };
    let mut packs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .filter(|p| {
            let stem = p.file_stem().unwrap().to_string_lossy().to_string();
            only.as_ref().is_none_or(|o| o.contains(&stem))
        })
        .collect();
    packs.sort();
    println!("budget {seconds} s per level, single thread\n");
    println!(
        "| pack | levels | solved (minimal) | budget | no solution | K < par | K = par | K > par | total s | max s |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut slowest: Vec<(f64, String, Option<usize>, Option<usize>)> = Vec::new();
    let mut totals = [0usize; 7];
    let mut off_par: Vec<String> = Vec::new();
    for pack in packs {
        let pars: HashMap<String, usize> = std::fs::read_to_string(pack.with_extension("par"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| {
                let (name, par) = l.rsplit_once(' ')?;
                Some((name.to_string(), par.parse().ok()?))
            })
            .collect();
        let input = std::fs::read(&pack).expect("readable pack");
        let mut row = [0usize; 7];
        let (mut total, mut max) = (0.0f64, 0.0f64);
        for parsed in Vexed::parse(&input) {
            row[0] += 1;
            let Ok(puzzle) = parsed.case else { continue };
            let start = Instant::now();
            let outcome = bitset::solve(&puzzle, &budget).expect("bitset never errs");
            let took = start.elapsed().as_secs_f64();
            total += took;
            max = max.max(took);
            let par = pars.get(&puzzle.name).copied();
            let k = outcome.answer.as_ref().map(Vec::len);
            match outcome.verdict {
                Verdict::Solved => row[1] += 1,
                Verdict::Budget => row[2] += 1,
                Verdict::Unsolved => row[3] += 1,
            }
            if outcome.verdict == Verdict::Solved {
                // Every solution is replayed by the checker: a K below par must be real.
                let text = Vexed::format_case(0, &puzzle, &outcome);
                if let Err(error) = check_output(&puzzle, &text, None) {
                    panic!("{}: the checker rejects the solution: {error}", puzzle.name);
                }
            }
            if let (Some(k), Some(par)) = (k, par) {
                row[4 + usize::from(k >= par) + usize::from(k > par)] += 1;
                if k != par {
                    off_par.push(format!("{} K = {k}, par = {par}", puzzle.name));
                }
            }
            slowest.push((took, puzzle.name.clone(), k, par));
        }
        for (t, r) in totals.iter_mut().zip(row) {
            *t += r;
        }
        let name = pack.file_stem().unwrap().to_string_lossy().to_string();
        println!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} | {total:.2} | {max:.3} |",
            row[0], row[1], row[2], row[3], row[4], row[5], row[6]
        );
    }
    println!(
        "| **total** | {} | {} | {} | {} | {} | {} | {} | | |",
        totals[0], totals[1], totals[2], totals[3], totals[4], totals[5], totals[6]
    );
    println!("\nlevels whose K differs from par (every solution replayed by the checker):");
    for line in &off_par {
        println!("  {line}");
    }
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!("\nslowest levels:");
    for (took, name, k, par) in slowest.iter().take(SLOWEST) {
        let k = k.map_or("budget".to_string(), |k| k.to_string());
        let par = par.map_or("?".to_string(), |p| p.to_string());
        println!("  {took:7.3} s  {name}  K = {k}, par = {par}");
    }
}
