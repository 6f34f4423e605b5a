//! `gamebench hunt` end to end: a `work` hunt is deterministic and never worse than the
//! generator's own cases; the corpus it writes is valid, with the reference engine's outputs;
//! external programs can be hunted (by time); the work metric of a program is refused.

use std::path::Path;

use gamebench::engines::judge::judge_file;
use gamebench::game::Budget;
use gamebench::registry;
use gamebench::shrink::Input;

use crate::common;
use common::assert_exit;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The best-over-time CSV: (evaluations, best) rows after the header.
fn progress(path: &Path) -> Vec<(u64, u64)> {
    let text = read(path);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("seconds,evaluations,best"));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[1].parse().unwrap(), f[2].parse().unwrap())
        })
        .collect()
}

#[test]
fn a_work_hunt_is_deterministic_improves_on_the_generator_and_writes_a_valid_corpus() {
    // One candidate measured at a time, then four: the same cases are found.
    let run = |dir: &Path, jobs: &str| {
        let out = common::run(&[
            "hunt",
            "samegame",
            "-e",
            "bitboard",
            "--metric",
            "work",
            "--evaluations",
            "400",
            "--size",
            "4x6",
            "--top",
            "4",
            "--out",
            dir.to_str().unwrap(),
            "-j",
            jobs,
        ]);
        assert_exit(&out, 0);
        String::from_utf8(out.stdout).unwrap()
    };
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (report_a, report_b) = (run(a.path(), "1"), run(b.path(), "4"));
    let dir_a = a.path().join("samegame");
    let dir_b = b.path().join("samegame");
    for name in ["hunt-1.in", "hunt-1.out", "hunt-1.csv"] {
        let (x, y) = (read(&dir_a.join(name)), read(&dir_b.join(name)));
        if name.ends_with(".csv") {
            // Seconds differ between runs; what was found, and when, does not.
            let strip = |t: &str| -> Vec<String> {
                t.lines()
                    .map(|l| l.split_once(',').map_or(l, |(_, r)| r).to_string())
                    .collect()
            };
            assert_eq!(strip(&x), strip(&y));
        } else {
            assert_eq!(x, y, "{name} differs between two identical work hunts");
        }
    }
    assert!(report_a.contains("400 evaluations"), "{report_a}");
    let strip_time = |r: &str| r.lines().skip(3).filter(|l| !l.contains("wrote")).count();
    assert_eq!(strip_time(&report_a), strip_time(&report_b));

    // The best only grows, and ends at least at the generator's best.
    let rows = progress(&dir_a.join("hunt-1.csv"));
    assert!(rows.windows(2).all(|w| w[0].1 < w[1].1 && w[0].0 < w[1].0));
    // The corpus: 4 valid 4x6 grids, best first, with the reference engine's outputs.
    let game = registry::find("samegame").unwrap();
    let input = read(&dir_a.join("hunt-1.in"));
    let parsed = Input::read(game, input.clone(), &gamebench::game::Reading::STATEMENT)
        .expect("a valid corpus");
    assert_eq!(parsed.cases.len(), 4);
    assert!(parsed.cases.iter().all(|c| c.size == "4x6"));
    let expected = judge_file(
        game.reference(),
        input.as_bytes(),
        &gamebench::game::Reading::STATEMENT,
        &Budget::UNLIMITED,
    );
    assert_eq!(read(&dir_a.join("hunt-1.out")), expected.output());
    let works: Vec<u64> = parsed
        .cases
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let case = c.case.as_ref().unwrap();
            let bitboard = game.engine("bitboard").unwrap();
            bitboard
                .solve(i + 1, case.as_ref(), &Budget::UNLIMITED)
                .unwrap()
                .0
                .work
                .unwrap()
        })
        .collect();
    assert!(
        works.windows(2).all(|w| w[0] >= w[1]),
        "best first: {works:?}"
    );
    assert_eq!(
        works[0],
        rows.last().unwrap().1,
        "the best case is the first"
    );
}

#[test]
fn a_program_can_be_hunted_by_time_but_not_by_work() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().to_str().unwrap();
    let judge = format!("judge=cmd:{} solve yut", env!("CARGO_BIN_EXE_gamebench"));
    let out = common::run(&[
        "hunt",
        "yut",
        "-e",
        &judge,
        "--evaluations",
        "8",
        "--runs",
        "1",
        "--top",
        "2",
        "--profile",
        "long",
        "--out",
        out_dir,
    ]);
    assert_exit(&out, 0);
    // Yut holds one game per file: one file per kept case.
    for name in ["hunt-1-0.in", "hunt-1-0.out", "hunt-1-1.in", "hunt-1-1.out"] {
        assert!(dir.path().join("yut").join(name).is_file(), "{name}");
    }
    let out = common::run(&[
        "hunt", "yut", "-e", &judge, "--metric", "work", "--out", out_dir,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--metric work"));
}
