//! End-to-end tests of shards through the `gamebench` binary: `run --shard`, `merge`,
//! `--resume`, `gen --shard` and `--shard auto`.
//!
//! The reference for every merged result is an unsharded run of the same corpus by the same
//! binary: what is under test is that splitting and merging lose, duplicate and reorder
//! nothing, not the verdicts themselves (other tests check those against the statements).

use std::path::{Path, PathBuf};
use std::process::Output;

use gamebench::results::{Row, Timing};
use gamebench::shard::Manifest;

use crate::common;
use common::{assert_exit, gamebench, results, run, s};

/// A Yut corpus of `files` generated files plus one malformed file (an `error` case that must
/// survive sharding like any other), in `dir/yut`.
fn corpus(dir: &Path, files: usize) -> PathBuf {
    let root = dir.join("corpus");
    let yut = root.join("yut");
    let out = run(&[
        "gen",
        "yut",
        "--seed",
        "11",
        "--count",
        &files.to_string(),
        "--out",
        s(&yut),
    ]);
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    // "2" promises two throws but gives one: a parse error on line 3.
    std::fs::write(yut.join("broken.in"), "2\nA FFFF\n").unwrap();
    root
}

/// Rows without their measurements, which are the only thing two runs may disagree on: the
/// time, whether a short case was timed by repetition (and how many calls a batch took), an
/// external program's CPU times and memory.
fn untimed(mut rows: Vec<Row>) -> Vec<Row> {
    for row in &mut rows {
        row.time_ns = None;
        if row.timing == Timing::CaseRepeated {
            row.timing = Timing::Case;
        }
        row.repeats = None;
        (row.user_ns, row.sys_ns, row.memory_kb) = (None, None, None);
    }
    rows
}

fn manifest(dir: &Path, k: usize, n: usize) -> Manifest {
    let text = std::fs::read_to_string(dir.join(format!("shard-{k}-of-{n}.json"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Runs shard `k` of `n` over `corpus` into `dir`.
fn shard(corpus: &Path, dir: &Path, k: usize, n: usize, extra: &[&str]) -> Output {
    let spec = format!("{k}/{n}");
    let mut args = vec![
        "run",
        s(corpus),
        "--check",
        "--quiet",
        "-j",
        "2",
        "--shard",
        &spec,
        "--shard-dir",
        s(dir),
    ];
    args.extend_from_slice(extra);
    run(&args)
}

/// Runs every shard of `n` over `corpus` into `dir`, each successfully.
fn all_shards(corpus: &Path, dir: &Path, n: usize) {
    for k in 0..n {
        assert!(shard(corpus, dir, k, n, &[]).status.success());
    }
}

/// The unsharded run's rows.
fn single(corpus: &Path, dir: &Path) -> Vec<Row> {
    let csv = dir.join("single.csv");
    let out = run(&["run", s(corpus), "--check", "--quiet", "--csv", s(&csv)]);
    // The malformed file makes the plain run exit 2 (error).
    assert_exit(&out, 2);
    results(&csv)
}

#[test]
fn merged_shards_equal_a_single_run() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = corpus(tmp.path(), 12);
    let shards = tmp.path().join("shards");
    for k in 0..3 {
        let out = shard(&corpus, &shards, k, 3, &[]);
        // A shard that finished exits 0 even with an error case: verdicts are data.
        assert_exit(&out, 0);
    }
    // 13 cases (12 files + broken.in) round-robin over 3 shards: positions 0,3,6,9,12 | 1,4,7,10
    // | 2,5,8,11.
    let sizes: Vec<usize> = (0..3)
        .map(|k| manifest(&shards, k, 3).shard_cases)
        .collect();
    assert_eq!(sizes, [5, 4, 4]);
    let m = manifest(&shards, 0, 3);
    assert_eq!(
        (m.cases, m.shards, m.rule.as_str()),
        (13, 3, "case-position-mod-n")
    );
    assert_eq!(m.threads, 2);
    // broken.in sorts first ("b" < "y"), so it is position 0, in shard 0.
    assert_eq!(m.failures, 1);
    assert!(m.start <= m.end && m.end.ends_with('Z'), "{m:?}");

    let merged = tmp.path().join("merged.csv");
    let out = run(&["merge", s(&shards), "-o", s(&merged)]);
    // The merged rows hold the error case: the usual policy says 2.
    assert_exit(&out, 2);
    let merged = results(&merged);
    assert_eq!(untimed(merged), untimed(single(&corpus, tmp.path())));
}

#[test]
fn shards_with_an_external_engine_merge_like_a_single_run() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = corpus(tmp.path(), 5);
    // The binary itself in judge mode, as an external program next to the internal engine.
    let external = format!("ext=cmd:'{}' solve yut", env!("CARGO_BIN_EXE_gamebench"));
    let engines = ["-e", "table", "-e", external.as_str()];
    let shards = tmp.path().join("shards");
    for k in 0..2 {
        let out = shard(&corpus, &shards, k, 2, &engines);
        assert!(out.status.success(), "{}", common::text(&out.stderr));
    }
    let merged = tmp.path().join("merged.csv");
    assert_eq!(
        run(&["merge", s(&shards), "-o", s(&merged)]).status.code(),
        Some(2)
    );
    let single_csv = tmp.path().join("single.csv");
    let mut args = vec![
        "run",
        s(&corpus),
        "--check",
        "--quiet",
        "--csv",
        s(&single_csv),
    ];
    args.extend_from_slice(&engines);
    assert_eq!(run(&args).status.code(), Some(2));
    let merged = results(&merged);
    assert_eq!(merged.len(), 12, "6 cases, 2 engines");
    assert!(
        merged
            .iter()
            .any(|r| r.engine == "ext" && r.status.as_str() == "ok")
    );
    assert_eq!(untimed(merged), untimed(results(&single_csv)));
}

#[test]
fn shard_contents_follow_the_rule() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = corpus(tmp.path(), 7);
    let all = single(&corpus, tmp.path());
    let shards = tmp.path().join("shards");
    for k in 0..2 {
        assert!(shard(&corpus, &shards, k, 2, &[]).status.success());
        let mine = results(&shards.join(format!("results.shard-{k}-of-2.csv")));
        // One row per case here (one engine, one run): shard k holds the rows at positions k,
        // k+2, ... of the single run, in that order.
        let expected: Vec<Row> = all.iter().skip(k).step_by(2).cloned().collect();
        assert_eq!(untimed(mine), untimed(expected), "shard {k}");
    }
}

#[test]
fn merge_names_missing_and_inconsistent_shards() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = corpus(tmp.path(), 6);
    let shards = tmp.path().join("shards");
    all_shards(&corpus, &shards, 3);
    let merged = tmp.path().join("merged.csv");
    let merge = || run(&["merge", s(&shards), "-o", s(&merged)]);

    // A missing shard: exit 3, named, and no merged file.
    let manifest_1 = shards.join("shard-1-of-3.json");
    let saved = std::fs::read(&manifest_1).unwrap();
    std::fs::remove_file(&manifest_1).unwrap();
    let out = merge();
    common::assert_exit_saying(&out, 3, "shard 1/3 is missing");
    assert!(!merged.exists());
    std::fs::write(&manifest_1, &saved).unwrap();
    assert_eq!(merge().status.code(), Some(2));

    // A shard of another corpus (one file more): a different list hash and case count.
    let other = tmp.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    let bigger = tmp.path().join("bigger");
    copy_tree(&corpus, &bigger);
    std::fs::write(bigger.join("yut/extra.in"), "1\nA FFFF\n").unwrap();
    assert!(shard(&bigger, &other, 2, 3, &[]).status.success());
    for name in ["shard-2-of-3.json", "results.shard-2-of-3.csv"] {
        std::fs::copy(other.join(name), shards.join(name)).unwrap();
    }
    let out = merge();
    assert_eq!(out.status.code(), Some(3));
    let why = common::text(&out.stderr);
    assert!(why.contains("shard 2/3: list hash"), "{why}");
    assert!(why.contains("shard 2/3: case count 8 differs"), "{why}");

    // Back to consistent, then a shard of a partition into 2.
    assert!(shard(&corpus, &shards, 2, 3, &[]).status.success());
    assert!(shard(&corpus, &shards, 0, 2, &[]).status.success());
    let out = merge();
    common::assert_exit_saying(&out, 3, "shard 0/2 belongs to a partition into 2 shards");
    std::fs::remove_file(shards.join("shard-0-of-2.json")).unwrap();
    std::fs::remove_file(shards.join("results.shard-0-of-2.csv")).unwrap();

    // A CSV that lost a case after its manifest was written.
    let csv = shards.join("results.shard-0-of-3.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&csv, format!("{}\n", lines[..lines.len() - 1].join("\n"))).unwrap();
    let out = merge();
    assert_eq!(out.status.code(), Some(3));
    assert!(
        common::text(&out.stderr).contains("shard 0/3: ")
            && common::text(&out.stderr).contains("but its manifest says"),
        "{}",
        common::text(&out.stderr)
    );
}

/// Rewrites shard `k` of `n` in `dir` with `rows`, and its manifest to match them (as a buggy or
/// tampered shard would), so that only the cross-shard checks of `merge` can catch it.
fn forge_shard(dir: &Path, k: usize, n: usize, rows: &[Row]) {
    let mut bytes = Vec::new();
    gamebench::results::write_csv(&mut bytes, rows).unwrap();
    std::fs::write(dir.join(format!("results.shard-{k}-of-{n}.csv")), bytes).unwrap();
    let mut m = manifest(dir, k, n);
    (m.shard_cases, m.shard_hash) = gamebench::shard::rows_hash(rows);
    (m.rows, m.rows_hash) = gamebench::shard::row_keys_hash(rows);
    std::fs::write(
        dir.join(format!("shard-{k}-of-{n}.json")),
        serde_json::to_string(&m).unwrap(),
    )
    .unwrap();
}

#[test]
fn merge_refuses_lost_or_duplicated_cases_even_with_matching_manifests() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = corpus(tmp.path(), 5);
    let shards = tmp.path().join("shards");
    all_shards(&corpus, &shards, 2);
    let merged = tmp.path().join("merged.csv");
    let merge = || run(&["merge", s(&shards), "-o", s(&merged)]);
    let zero = results(&shards.join("results.shard-0-of-2.csv"));
    let one = results(&shards.join("results.shard-1-of-2.csv"));

    // Shard 1 also claims shard 0's first case.
    let mut claimed = one.clone();
    claimed.push(zero[0].clone());
    forge_shard(&shards, 1, 2, &claimed);
    let out = merge();
    assert_eq!(out.status.code(), Some(3));
    assert!(
        common::text(&out.stderr)
            .contains(&format!("{} case 1 is in shards 0/2 and 1/2", zero[0].file)),
        "{}",
        common::text(&out.stderr)
    );

    // Shard 1 lost its last case.
    forge_shard(&shards, 1, 2, &one[..one.len() - 1]);
    let out = merge();
    common::assert_exit_saying(&out, 3, "the shards hold 5 cases but the case list has 6");
    assert!(!merged.exists());
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Marks a row so that a test can tell a resumed row from a re-solved one (no engine writes
/// this digest).
const RESUMED_MARK: &str = "resumed-not-resolved";

#[test]
fn resume_keeps_finished_cases_and_solves_the_rest() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = corpus(tmp.path(), 5);
    let shards = tmp.path().join("shards");
    assert!(shard(&corpus, &shards, 0, 1, &[]).status.success());
    let csv = shards.join("results.shard-0-of-1.csv");
    let complete = results(&csv);
    assert_eq!(complete.len(), 6);
    let list_hash = manifest(&shards, 0, 1).list_hash;
    // The attempt as the run records it (--check, 1 run, the default engine...).
    let header = serde_json::to_string(&manifest(&shards, 0, 1).attempt.unwrap()).unwrap();

    // A crash after two chunks: no final files, a journal with two whole lines (cases 0 and 1,
    // the first marked) and a third cut short.
    std::fs::remove_file(&csv).unwrap();
    std::fs::remove_file(shards.join("shard-0-of-1.json")).unwrap();
    let mut first = complete[0].clone();
    first.digest = RESUMED_MARK.to_string();
    let chunk = |rows: &[Row]| format!("{{\"rows\":{}}}", serde_json::to_string(rows).unwrap());
    let journal = format!(
        "{header}\n{}\n{}\n{}",
        chunk(&[first.clone()]),
        chunk(&complete[1..2]),
        &chunk(&complete[2..4])[..40]
    );
    let journal_path = shards.join("results.shard-0-of-1.csv.partial");
    std::fs::write(&journal_path, journal).unwrap();

    let out = shard(&corpus, &shards, 0, 1, &["--resume"]);
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    let resumed = results(&csv);
    assert_eq!(resumed[0], first, "case 0 was taken from the journal");
    assert_eq!(
        untimed(resumed[1..].to_vec()),
        untimed(complete[1..].to_vec())
    );
    assert_eq!(manifest(&shards, 0, 1).resumed, 2);
    assert!(!journal_path.exists(), "the journal is removed at the end");

    // Resuming a finished shard keeps every row: nothing is solved again.
    let out = shard(&corpus, &shards, 0, 1, &["--resume"]);
    assert!(out.status.success());
    assert_eq!(results(&csv), resumed);
    assert_eq!(manifest(&shards, 0, 1).resumed, 6);

    // Without --resume, everything is solved again.
    assert!(shard(&corpus, &shards, 0, 1, &[]).status.success());
    assert_eq!(results(&csv)[0].digest, complete[0].digest);

    // A journal of another case list, or of other options, is refused, not mixed in.
    for other in [
        header.replace(&list_hash, "0000000000000000"),
        header.replace("\"runs\":1", "\"runs\":3"),
    ] {
        std::fs::write(&journal_path, other + "\n").unwrap();
        let out = shard(&corpus, &shards, 0, 1, &["--resume"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            common::text(&out.stderr).contains("belongs to another run"),
            "{}",
            common::text(&out.stderr)
        );
    }
    std::fs::remove_file(&journal_path).unwrap();

    // So is a finished shard run with other options.
    let out = shard(&corpus, &shards, 0, 1, &["--resume", "--runs", "2"]);
    common::assert_exit_saying(&out, 2, "records another run");
}

#[test]
fn resume_a_plain_results_file() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = corpus(tmp.path(), 4);
    let csv = tmp.path().join("results.csv");
    let record = tmp.path().join("results.csv.attempt.json");
    let plain = |extra: &[&str]| {
        let mut args = vec!["run", s(&corpus), "--check", "--quiet", "--csv", s(&csv)];
        args.extend_from_slice(extra);
        run(&args)
    };
    let write = |rows: &[Row]| {
        let mut bytes = Vec::new();
        gamebench::results::write_csv(&mut bytes, rows).unwrap();
        std::fs::write(&csv, bytes).unwrap();
    };
    // A plain run without --resume writes no record of its options.
    assert_eq!(plain(&[]).status.code(), Some(2));
    assert!(!record.exists());
    let complete = results(&csv);
    // Keep the first two cases (one marked), drop the rest: a bare CSV, whose rows are
    // checked but not trusted (nothing says which options wrote them): solved again.
    let mut kept = complete[..2].to_vec();
    kept[1].digest = RESUMED_MARK.to_string();
    write(&kept);
    // The usual exit code (the error case of broken.in is among the kept ones).
    let out = plain(&["--resume"]);
    common::assert_exit_saying(&out, 2, "has no record of the run that wrote it");
    let resumed = results(&csv);
    assert_eq!(untimed(resumed.clone()), untimed(complete.clone()));
    // A run with --resume records its attempt beside the CSV: resuming it keeps every row.
    assert!(record.exists());
    assert_eq!(plain(&["--resume"]).status.code(), Some(2));
    assert_eq!(results(&csv), resumed, "nothing was solved again");
    // A recorded CSV edited since (a row marked) is bare again.
    let mut edited = resumed.clone();
    edited[1].digest = RESUMED_MARK.to_string();
    write(&edited);
    let out = plain(&["--resume"]);
    assert!(
        common::text(&out.stderr).contains("has changed since its record was written"),
        "{}",
        common::text(&out.stderr)
    );
    assert_eq!(results(&csv)[1].digest, complete[1].digest);
}

#[test]
fn gen_shards_write_exactly_the_single_run_files() {
    let tmp = tempfile::tempdir().unwrap();
    let generate = |dir: &Path, extra: &[&str]| {
        let mut args = vec![
            "gen",
            "yut",
            "--seed",
            "5",
            "--count",
            "11",
            "--out",
            s(dir),
        ];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert!(out.status.success(), "{}", common::text(&out.stderr));
    };
    let whole = tmp.path().join("whole");
    generate(&whole, &[]);
    let split = tmp.path().join("split");
    for k in 0..3 {
        let part = tmp.path().join(format!("part{k}"));
        generate(&part, &["--shard", &format!("{k}/3")]);
        // File k of gen is `yut-random-5-<k>` with width 2 (count 11): shard k has k, k+3, ...
        let mut names: Vec<String> = std::fs::read_dir(&part)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let mut expected: Vec<String> = (k..11)
            .step_by(3)
            .flat_map(|i| ["in", "out"].map(|ext| format!("yut-random-5-{i:02}.{ext}")))
            .collect();
        expected.sort();
        assert_eq!(names, expected, "shard {k}");
        copy_tree(&part, &split);
    }
    let mut a: Vec<_> = std::fs::read_dir(&whole)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    a.sort();
    assert_eq!(a.len(), 22);
    for path in a {
        let twin = split.join(path.file_name().unwrap());
        assert_eq!(
            std::fs::read(&path).unwrap(),
            std::fs::read(&twin).unwrap(),
            "{path:?}"
        );
    }

    // --resume writes only what is missing: a marked file stays as it is.
    std::fs::write(whole.join("yut-random-5-03.in"), "marked").unwrap();
    std::fs::remove_file(whole.join("yut-random-5-04.out")).unwrap();
    generate(&whole, &["--resume"]);
    assert_eq!(
        std::fs::read(whole.join("yut-random-5-03.in")).unwrap(),
        b"marked"
    );
    assert_eq!(
        std::fs::read(whole.join("yut-random-5-04.out")).unwrap(),
        std::fs::read(split.join("yut-random-5-04.out")).unwrap()
    );
}

#[test]
fn shard_auto_reads_the_scheduler_and_fails_loudly() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = corpus(tmp.path(), 3);
    let dir = tmp.path().join("auto");
    let auto = |vars: &[(&str, &str)], extra: &[&str]| {
        let mut command = gamebench();
        command.args([
            "run",
            s(&corpus),
            "--quiet",
            "--shard",
            "auto",
            "--shard-dir",
            s(&dir),
        ]);
        command.args(extra);
        for (k, v) in vars {
            command.env(k, v);
        }
        command.output().unwrap()
    };
    let out = auto(
        &[
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
            ("SLURM_CPUS_PER_TASK", "1"),
        ],
        &[],
    );
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    let m = manifest(&dir, 1, 2);
    assert_eq!((m.shard, m.shards, m.threads), (1, 2, 1));

    let out = auto(&[("JOB_COMPLETION_INDEX", "2")], &["--shard-count", "3"]);
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    assert_eq!(manifest(&dir, 2, 3).shard_cases, 1);

    for (vars, extra, why) in [
        (&[][..], &[][..], "no shard in the environment"),
        (
            &[("SLURM_ARRAY_TASK_ID", "1")][..],
            &[][..],
            "SLURM_ARRAY_TASK_COUNT is not",
        ),
        (
            &[("JOB_COMPLETION_INDEX", "0")][..],
            &[][..],
            "--shard-count",
        ),
        (
            &[
                ("SLURM_ARRAY_TASK_ID", "0"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
            ][..],
            &["--shard-count", "3"][..],
            "contradicts",
        ),
    ] {
        let out = auto(vars, extra);
        assert_eq!(out.status.code(), Some(2), "{vars:?}");
        assert!(
            common::text(&out.stderr).contains(why),
            "{vars:?}: {}",
            common::text(&out.stderr)
        );
    }
}

#[test]
fn shard_refuses_flags_that_would_lose_data() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = corpus(tmp.path(), 2);
    let dir = tmp.path().join("d");
    let csv = tmp.path().join("x.csv");
    let out = shard(&corpus, &dir, 0, 2, &["--csv", s(&csv)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(common::text(&out.stderr).contains("--csv does not go with --shard"));
    let out = shard(&corpus, &dir, 0, 2, &["--out-dir", s(&dir)]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["run", s(&corpus), "--resume"]);
    common::assert_exit_saying(&out, 2, "--resume needs");
}

/// The rows of the whole lines of a journal (its header skipped, a cut-short last line
/// ignored).
fn journal_rows(path: &Path) -> Vec<Row> {
    #[derive(serde::Deserialize)]
    struct Chunk {
        rows: Vec<Row>,
    }
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut rows = Vec::new();
    for line in text.split_inclusive('\n').skip(1) {
        match line
            .strip_suffix('\n')
            .and_then(|l| serde_json::from_str::<Chunk>(l).ok())
        {
            Some(chunk) => rows.extend(chunk.rows),
            None => break,
        }
    }
    rows
}

/// A `--resume` run SIGKILLed again and again keeps all it ever finished: the
/// journal never loses a case across kills, and the last attempt solves only the cases no
/// attempt finished (the others' rows come back byte for byte, times included).
#[test]
fn resume_survives_repeated_sigkill() {
    /// The longest an attempt may take to journal its next case.
    const PATIENCE: std::time::Duration = std::time::Duration::from_secs(120);
    /// How long after a case reaches the journal the attempt is killed.
    const KILL_AFTER: std::time::Duration = std::time::Duration::from_millis(300);
    let tmp = tempfile::tempdir().unwrap();
    let corpus = tmp.path().join("corpus");
    // One 30x30 worst-case Link Pop file: about a second per case with the reference engine.
    common::slow_linkpop(&corpus, "10");
    let csv = tmp.path().join("r.csv");
    let journal = tmp.path().join("r.csv.partial");
    let attempt = || {
        let mut command = gamebench();
        command.args([
            "run",
            s(&corpus),
            "-e",
            "reference",
            "-j",
            "1",
            "--quiet",
            "--resume",
            "--csv",
            s(&csv),
        ]);
        command
    };
    let cases = |rows: &[Row]| -> std::collections::BTreeSet<usize> {
        rows.iter().map(|r| r.case).collect()
    };
    let mut held: Vec<std::collections::BTreeSet<usize>> = Vec::new();
    let mut kept: Vec<Row> = Vec::new();
    for _ in 0..12 {
        let mut child = attempt()
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Killed a little after the journal gains a case (so each attempt makes progress
        // however loaded the machine), in the middle of the next one.
        let before = held.last().map_or(0, |h| h.len());
        let start = std::time::Instant::now();
        while cases(&journal_rows(&journal)).len() <= before && child.try_wait().unwrap().is_none()
        {
            assert!(
                start.elapsed() < PATIENCE,
                "no case journaled in {PATIENCE:?}"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        std::thread::sleep(KILL_AFTER);
        if child.try_wait().unwrap().is_some() {
            break;
        }
        common::signal(&child, "-KILL");
        child.wait().unwrap();
        if !journal.exists() && csv.exists() {
            // The attempt finished (CSV written, journal removed) just before the kill.
            break;
        }
        let rows = journal_rows(&journal);
        let now = cases(&rows);
        if let Some(before) = held.last() {
            assert!(
                now.is_superset(before),
                "the journal lost cases: {before:?} then {now:?}"
            );
        }
        // Every case keeps the rows it was first journaled with.
        for row in &kept {
            assert!(
                rows.contains(row),
                "case {} changed in the journal",
                row.case
            );
        }
        kept = rows;
        held.push(now);
    }
    let sizes: Vec<usize> = held.iter().map(|h| h.len()).collect();
    eprintln!("cases in the journal after each kill: {sizes:?}");
    assert!(held.len() >= 2, "killed only {} times", held.len());
    assert!(
        sizes.last() > sizes.first(),
        "progress did not accumulate over the kills: {sizes:?}"
    );
    // The last attempt, uninterrupted.
    let before = journal_rows(&journal);
    let out = attempt().output().unwrap();
    assert_exit(&out, 0);
    let rows = results(&csv);
    assert_eq!(
        rows.iter().map(|r| r.case).collect::<Vec<_>>(),
        (1..=10).collect::<Vec<_>>()
    );
    for row in &before {
        assert!(rows.contains(row), "case {} was solved again", row.case);
    }
    assert!(!journal.exists());
}

/// Runs `gamebench run CORPUS --check --quiet --csv CSV --resume EXTRA...`.
fn plain_resume(corpus: &Path, csv: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "run",
        s(corpus),
        "--check",
        "--quiet",
        "--csv",
        s(csv),
        "--resume",
    ];
    args.extend_from_slice(extra);
    run(&args)
}

/// Rows written with other options, or over another corpus with the same file names
/// and case counts, are refused (exit 2, naming what differs), never reused.
#[test]
fn resume_refuses_rows_of_other_options_or_corpus_contents() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = corpus(tmp.path(), 4);
    let csv = tmp.path().join("r.csv");
    assert_eq!(plain_resume(&corpus, &csv, &[]).status.code(), Some(2));
    let written = std::fs::read(&csv).unwrap();
    for (extra, named) in [
        (&["--warmup", "1"][..], "--warmup 0 (this run: 1)"),
        (&["--max-states", "50"][..], "--max-states"),
        (&["--timeout", "5"][..], "--timeout"),
        (&["--no-repeat"][..], "--no-repeat"),
        (&["--runs", "2"][..], "--runs 1 (this run: 2)"),
        (&["--validate"][..], "--validate"),
    ] {
        let out = plain_resume(&corpus, &csv, extra);
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        let why = common::text(&out.stderr);
        assert!(
            why.contains("records another run") && why.contains(named),
            "{extra:?}: {why}"
        );
        assert_eq!(std::fs::read(&csv).unwrap(), written, "{extra:?}");
    }
    // Another corpus under the same names, with the same case counts: one expected output
    // differs.
    let out_file = common::files(&corpus.join("yut"))
        .into_iter()
        .find(|p| p.extension().is_some_and(|e| e == "out"))
        .unwrap();
    std::fs::write(&out_file, "0\n").unwrap();
    let out = plain_resume(&corpus, &csv, &[]);
    common::assert_exit_saying(&out, 2, "the corpus contents");
    assert_eq!(std::fs::read(&csv).unwrap(), written);
}

/// A duplicated row and a case the corpus does not have are dropped with a warning,
/// from a journal and from a bare CSV alike.
#[test]
fn resume_drops_duplicates_and_cases_not_in_the_corpus() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = corpus(tmp.path(), 4);
    let csv = tmp.path().join("r.csv");
    let record = tmp.path().join("r.csv.attempt.json");
    let journal = tmp.path().join("r.csv.partial");
    assert_eq!(plain_resume(&corpus, &csv, &[]).status.code(), Some(2));
    let complete = results(&csv);
    let attempt: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let header = attempt["attempt"].to_string();

    // A crash: only the journal, holding the first case twice (marked), a case 999 of a file
    // that has 1, and a file that does not exist.
    std::fs::remove_file(&csv).unwrap();
    std::fs::remove_file(&record).unwrap();
    let mut first = complete[0].clone();
    first.digest = RESUMED_MARK.to_string();
    let mut far = complete[1].clone();
    far.case = 999;
    let mut ghost = complete[1].clone();
    ghost.file = "yut/ghost.in".to_string();
    let chunk = |rows: &[Row]| format!("{{\"rows\":{}}}\n", serde_json::to_string(rows).unwrap());
    std::fs::write(
        &journal,
        format!(
            "{header}\n{}{}{}",
            chunk(&[first.clone()]),
            chunk(&[first.clone(), far.clone()]),
            chunk(&[ghost])
        ),
    )
    .unwrap();
    let out = plain_resume(&corpus, &csv, &[]);
    assert_eq!(out.status.code(), Some(2));
    let why = common::text(&out.stderr);
    assert!(why.contains("dropped 1 row(s) duplicated"), "{why}");
    assert!(
        why.contains("dropped 2 row(s) of cases not in this corpus's case list"),
        "{why}"
    );
    let resumed = results(&csv);
    assert_eq!(resumed[0], first, "the first copy is kept");
    assert_eq!(
        untimed(resumed[1..].to_vec()),
        untimed(complete[1..].to_vec())
    );

    // A bare CSV (no record) with the same defects: warned about, and its rows not reused.
    std::fs::remove_file(&record).unwrap();
    let mut bare = complete.clone();
    bare.insert(1, complete[0].clone());
    bare.push(far);
    let mut bytes = Vec::new();
    gamebench::results::write_csv(&mut bytes, &bare).unwrap();
    std::fs::write(&csv, bytes).unwrap();
    let out = plain_resume(&corpus, &csv, &[]);
    assert_eq!(out.status.code(), Some(2));
    let why = common::text(&out.stderr);
    assert!(why.contains("dropped 1 row(s) duplicated"), "{why}");
    assert!(why.contains("not in this corpus's case list"), "{why}");
    assert!(why.contains("has no record"), "{why}");
    assert_eq!(untimed(results(&csv)), untimed(complete));
}

/// A shard CSV with one row deleted or duplicated (its cases intact) is refused.
#[test]
fn merge_refuses_a_deleted_or_duplicated_row() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = corpus(tmp.path(), 5);
    let shards = tmp.path().join("shards");
    for k in 0..2 {
        assert!(
            shard(&corpus, &shards, k, 2, &["--runs", "2"])
                .status
                .success()
        );
    }
    let merged = tmp.path().join("merged.csv");
    let merge = || run(&["merge", s(&shards), "-o", s(&merged)]);
    assert_eq!(merge().status.code(), Some(2));
    let path = shards.join("results.shard-0-of-2.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // Line 1 is the header; lines 1 and 2 are the first case's two runs.
    let deleted = [&lines[..2], &lines[3..]].concat();
    let duplicated = [&lines[..3], &lines[2..]].concat();
    for edited in [deleted, duplicated] {
        std::fs::write(&path, edited.join("\n") + "\n").unwrap();
        let _ = std::fs::remove_file(&merged);
        let out = merge();
        assert_eq!(out.status.code(), Some(3));
        assert!(
            common::text(&out.stderr).contains("a row was deleted, duplicated or moved"),
            "{}",
            common::text(&out.stderr)
        );
        assert!(!merged.exists());
    }
}

/// A stray empty manifest naming a huge shard count is a problem, named quickly, not
/// an allocation proportional to its N.
#[test]
fn merge_bounds_shard_counts_by_the_files_present() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = corpus(tmp.path(), 2);
    let shards = tmp.path().join("shards");
    assert!(shard(&corpus, &shards, 0, 1, &[]).status.success());
    std::fs::write(shards.join("shard-0-of-9000000000000.json"), "").unwrap();
    let merged = tmp.path().join("merged.csv");
    let mut child = gamebench()
        .args(["merge", s(&shards), "-o", s(&merged)])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(20) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("merge still running after 20 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert_exit(&out, 3);
    assert!(
        common::text(&out.stderr).contains("shard 0/9000000000000"),
        "{}",
        common::text(&out.stderr)
    );
}
