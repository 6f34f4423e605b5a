//! `--scratch DIR`, the proof search beyond memory (Vexed), from the command line: the same
//! answers as A*'s proof mode (the oracle) on the bundled sets through `solve` and `levels`,
//! the same output on one and two threads, the scratch folder left as it was found, and the
//! usage errors (no cap, a folder that is not there, a file, a folder it cannot write in).

use crate::common;
use common::*;

/// The bundled hard set as a level pack, each level's par its minimum from the bundled
/// expected output (written by the reference breadth-first search): the folder.
fn hard_pack() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = root().join("corpora/vexed/hard");
    std::fs::copy(root.join("vexed-hard-1-0.in"), dir.path().join("hard.in")).unwrap();
    let expected = std::fs::read_to_string(root.join("vexed-hard-1-0.out")).unwrap();
    let pars: String = expected
        .lines()
        .filter_map(|line| line.split_once(": Minimum solution length = "))
        .map(|(name, par)| format!("{name} {par}\n"))
        .collect();
    assert!(pars.lines().count() > 20, "{pars}");
    std::fs::write(dir.path().join("hard.par"), pars).unwrap();
    dir
}

/// The CSV columns of `levels` that do not depend on the search's order: pack, index, name,
/// size, status, moves, par, versus_par, at_least.
fn answers(csv: &std::path::Path) -> Vec<Vec<String>> {
    columns(
        csv,
        &[
            "pack",
            "index",
            "name",
            "size",
            "status",
            "moves",
            "par",
            "versus_par",
            "at_least",
        ],
    )
}

#[test]
fn levels_prove_the_same_bounds_with_and_without_the_sweep() {
    let pack = hard_pack();
    let scratch = tempfile::tempdir().unwrap();
    let levels = |extra: &[&str], csv: &str| {
        let csv = pack.path().join(csv);
        let mut args = vec![
            "levels",
            pack.path().to_str().unwrap(),
            "-j",
            "1",
            "--quiet",
            "--csv",
            csv.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert_exit(&out, 0);
        csv
    };
    let s = scratch.path().to_str().unwrap();
    // Par - 1: every level proven above it (its par is its minimum).
    let astar = levels(&["--prove-below-par"], "astar.csv");
    let swept = levels(&["--prove-below-par", "--scratch", s], "swept.csv");
    let rows = answers(&astar);
    assert!(rows.iter().all(|row| row[4] == "above-max"), "{rows:?}");
    assert_eq!(rows, answers(&swept));
    // At a cap of 20 moves: the minimum of each level, the same as A*'s.
    let astar = levels(&["--max-moves", "20"], "astar20.csv");
    let one = levels(&["--max-moves", "20", "--scratch", s], "one.csv");
    let two = levels(
        &["--max-moves", "20", "--scratch", s, "--threads", "2"],
        "two.csv",
    );
    let rows = answers(&astar);
    assert!(rows.iter().all(|row| row[4] == "minimal"), "{rows:?}");
    assert_eq!(rows, answers(&one));
    // Threads change nothing, expansions included.
    assert_eq!(column(&one, "states"), column(&two, "states"));
    assert_eq!(column(&one, "detail"), column(&two, "detail"));
    assert_eq!(
        std::fs::read_dir(scratch.path()).unwrap().count(),
        0,
        "the searches' folders are removed"
    );
}

#[test]
fn solve_prints_what_astar_prints_and_the_checker_accepts_it() {
    let scratch = tempfile::tempdir().unwrap();
    let s = scratch.path().to_str().unwrap();
    let outputs = tempfile::tempdir().unwrap();
    for (file, cap) in [
        ("corpora/vexed/sample.in", "8"),
        ("corpora/vexed/hard/vexed-hard-1-0.in", "13"),
    ] {
        let astar = run_from_root(&["solve", "vexed", file, "--max-moves", cap]);
        let swept = run_from_root(&["solve", "vexed", file, "--max-moves", cap, "--scratch", s]);
        assert_eq!(astar.status.code(), swept.status.code(), "{file}");
        assert_eq!(text(&astar.stderr), text(&swept.stderr), "{file}");
        // The same solutions' lengths and bounds (the moves may differ among minimum ones).
        let lengths = |out: &std::process::Output| -> Vec<String> {
            text(&out.stdout)
                .lines()
                .filter(|l| l.contains(": "))
                .map(str::to_string)
                .collect()
        };
        assert_eq!(lengths(&astar), lengths(&swept), "{file}");
        let out = outputs.path().join("solutions.out");
        std::fs::write(&out, &swept.stdout).unwrap();
        // Each solution replays: checked against itself as the expected output (the
        // checker replays the moves; the lengths are A*'s, compared above).
        let check = run_from_root(&[
            "check",
            "vexed",
            file,
            out.to_str().unwrap(),
            "--expected",
            out.to_str().unwrap(),
        ]);
        assert_exit(&check, 0);
        assert!(text(&check.stdout).contains(" 0 failed (0 wrong answer"));
    }
    assert_eq!(std::fs::read_dir(scratch.path()).unwrap().count(), 0);
}

#[test]
fn scratch_without_a_cap_or_a_usable_folder_is_a_usage_error() {
    let scratch = tempfile::tempdir().unwrap();
    let s = scratch.path().to_str().unwrap();
    let sample = "corpora/vexed/sample.in";
    let out = run_from_root(&["solve", "vexed", sample, "--scratch", s]);
    assert_exit_saying(&out, 2, "--scratch is for proof mode only");
    let out = run_from_root(&["levels", s, "--scratch", s]);
    assert_exit_saying(&out, 2, "--scratch is for proof mode only");
    let missing = scratch.path().join("missing");
    let m = missing.to_str().unwrap();
    let out = run_from_root(&["solve", "vexed", sample, "--max-moves", "8", "--scratch", m]);
    assert_exit_saying(&out, 2, &format!("--scratch {m}: cannot use it"));
    let file = scratch.path().join("file");
    std::fs::write(&file, "").unwrap();
    let f = file.to_str().unwrap();
    let out = run_from_root(&["solve", "vexed", sample, "--max-moves", "8", "--scratch", f]);
    assert_exit_saying(&out, 2, &format!("--scratch {f}: not a folder"));
    // A folder it cannot write in (unless the tests run as root, who can).
    let locked = scratch.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    let mut permissions = std::fs::metadata(&locked).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o500);
    std::fs::set_permissions(&locked, permissions).unwrap();
    let probe = locked.join("probe");
    if std::fs::create_dir(&probe).is_err() {
        let l = locked.to_str().unwrap();
        let out = run_from_root(&["solve", "vexed", sample, "--max-moves", "8", "--scratch", l]);
        assert_exit_saying(&out, 2, &format!("--scratch {l}: cannot write in it"));
    }
}

/// A search that cannot go on (its bucket does not fit `--memory`) is an error of that case
/// alone, naming the case's first line (the engine knows no line of its own), and the exit
/// code says so.
#[test]
fn a_sweep_that_cannot_go_on_names_its_case_and_line() {
    let scratch = tempfile::tempdir().unwrap();
    let s = scratch.path().to_str().unwrap();
    let file = "corpora/vexed/hard/vexed-hard-1-0.in";
    let args = ["solve", "vexed", file, "--max-moves", "60", "--memory", "1"];
    let out = run_from_root(&[&args[..], &["--scratch", s]].concat());
    assert_exit(&out, 2);
    let stderr = text(&out.stderr);
    // Case 6, HARD-0-005, starts on line 50 (`8 8 HARD-0-005`).
    assert!(
        stderr.contains(&format!("{file}: case 6: line 50: the sweep's bucket of ")),
        "{stderr}"
    );
    assert!(!stderr.contains("line 0:"), "{stderr}");
    // The cases that fit are solved all the same.
    assert!(text(&out.stdout).starts_with("HARD-0-000: Minimum solution length = 11\n"));
    assert_eq!(std::fs::read_dir(scratch.path()).unwrap().count(), 0);
}
