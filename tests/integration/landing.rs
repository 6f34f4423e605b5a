//! Outputs never land on inputs: each break as it was found (a link planted in `--out-dir`,
//! `report -o` onto a corpus input, `merge -o` onto a shard file, a Kattis feedback file
//! linked to the input, `shrink` writing over its given input), and one policy for a missing
//! folder (a file's folder must exist; nothing is created for it).

use crate::common;

use std::path::Path;

use common::{assert_exit, gamebench, s, text, yut_samples};

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

#[test]
fn a_link_planted_in_out_dir_is_replaced_not_written_through() {
    let corpus = yut_samples();
    let root = corpus.path();
    let input = root.join("yut/s2.in");
    let expected = root.join("yut/s2.out");
    let (input_bytes, expected_bytes) = (read(&input), read(&expected));
    let od = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(od.path().join("yut")).unwrap();
    // As found: OD/yut/s2.out -> corpus/yut/s2.in; and one to the expected output.
    std::os::unix::fs::symlink(&input, od.path().join("yut/s2.out")).unwrap();
    std::os::unix::fs::symlink(&expected, od.path().join("yut/s1.out")).unwrap();
    let out = gamebench()
        .args(["run", s(root), "--quiet", "--out-dir", s(od.path())])
        .output()
        .unwrap();
    assert_exit(&out, 0);
    assert_eq!(read(&input), input_bytes, "the corpus input is intact");
    assert_eq!(
        read(&expected),
        expected_bytes,
        "the expected output is intact"
    );
    for name in ["s1.out", "s2.out"] {
        let written = od.path().join("yut").join(name);
        assert!(
            written.symlink_metadata().unwrap().is_file(),
            "{name}: the link itself replaced by the output"
        );
    }
    assert_eq!(read(&od.path().join("yut/s2.out")), expected_bytes);
}

#[test]
fn out_dir_entries_that_are_corpus_files_are_refused_up_front() {
    let corpus = yut_samples();
    let root = corpus.path();
    let expected = root.join("yut/s1.out");
    let before = read(&expected);
    // A hard link to an expected output inside OD.
    let od = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(od.path().join("yut")).unwrap();
    std::fs::hard_link(&expected, od.path().join("yut/s1.out")).unwrap();
    let out = gamebench()
        .args(["run", s(root), "--quiet", "--out-dir", s(od.path())])
        .output()
        .unwrap();
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains("by another name"),
        "{}",
        text(&out.stderr)
    );
    // A folder of OD linked into the corpus.
    let od = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(root.join("yut"), od.path().join("yut")).unwrap();
    let out = gamebench()
        .args(["run", s(root), "--quiet", "--out-dir", s(od.path())])
        .output()
        .unwrap();
    assert_exit(&out, 2);
    assert_eq!(read(&expected), before);
    // --csv as a hard link to an input.
    let csv = od.path().join("x.csv");
    std::fs::hard_link(root.join("yut/s2.in"), &csv).unwrap();
    let out = gamebench()
        .args(["run", s(root), "--quiet", "--csv", s(&csv)])
        .output()
        .unwrap();
    assert_exit(&out, 2);
    assert_eq!(read(&csv), read(&root.join("yut/s2.in")));
}

/// A results CSV of the two Yut samples under `root`, in `dir`.
fn results_csv(root: &Path, dir: &Path) -> std::path::PathBuf {
    let csv = dir.join("r.csv");
    let out = gamebench()
        .current_dir(root)
        .args(["run", "yut", "--quiet", "--csv", s(&csv)])
        .output()
        .unwrap();
    assert_exit(&out, 0);
    csv
}

#[test]
fn report_never_writes_over_a_corpus_file_and_needs_its_folder() {
    let corpus = yut_samples();
    let root = corpus.path();
    let work = tempfile::tempdir().unwrap();
    let csv = results_csv(root, work.path());
    let input = root.join("yut/s1.in");
    let before = read(&input);
    let soft = work.path().join("soft.html");
    std::os::unix::fs::symlink(&input, &soft).unwrap();
    let hard = work.path().join("hard.html");
    std::fs::hard_link(root.join("yut/s2.out"), &hard).unwrap();
    let game_folder = root.join("yut");
    for (corpus_root, output) in [
        (&game_folder, input.clone()),
        (&game_folder, soft),
        (&game_folder, hard),
        (&game_folder, csv.clone()),
        // A corpus file under --corpus that the rows do not name (the rows name files
        // relative to the game folder).
        (&root.to_path_buf(), input.clone()),
    ] {
        let out = gamebench()
            .args([
                "report",
                s(&csv),
                "--corpus",
                s(corpus_root),
                "-o",
                s(&output),
            ])
            .output()
            .unwrap();
        assert_exit(&out, 2);
        assert!(
            text(&out.stderr).contains("input of the report"),
            "{}",
            text(&out.stderr)
        );
    }
    assert_eq!(read(&input), before);
    // A missing folder: an error, as for every file gamebench is told to write.
    let missing = work.path().join("missing/dir/x.html");
    let out = gamebench()
        .args(["report", s(&csv), "--corpus", s(root), "-o", s(&missing)])
        .output()
        .unwrap();
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains("does not exist"),
        "{}",
        text(&out.stderr)
    );
    assert!(!work.path().join("missing").exists(), "no folder created");
    // And a plain one is written.
    let page = work.path().join("x.html");
    let out = gamebench()
        .args(["report", s(&csv), "--corpus", s(root), "-o", s(&page)])
        .output()
        .unwrap();
    assert_exit(&out, 0);
    assert!(page.is_file());
}

#[test]
fn merge_never_writes_over_a_shard_file() {
    let corpus = yut_samples();
    let root = corpus.path();
    let shards = tempfile::tempdir().unwrap();
    for k in 0..2 {
        let out = gamebench()
            .args(["run", s(root), "--quiet", "--shard", &format!("{k}/2")])
            .args(["--shard-dir", s(shards.path())])
            .output()
            .unwrap();
        assert_exit(&out, 0);
    }
    let files = ["results.shard-0-of-2.csv", "shard-1-of-2.json"];
    let before: Vec<Vec<u8>> = files.iter().map(|f| read(&shards.path().join(f))).collect();
    let linked = shards.path().join("merged.csv");
    std::fs::hard_link(shards.path().join(files[1]), &linked).unwrap();
    for output in [
        shards.path().join(files[0]),
        shards.path().join(files[1]),
        linked,
    ] {
        let out = gamebench()
            .args(["merge", s(shards.path()), "-o", s(&output)])
            .output()
            .unwrap();
        assert_exit(&out, 2);
        assert!(
            text(&out.stderr).contains("never written over"),
            "{}",
            text(&out.stderr)
        );
    }
    for (file, bytes) in files.iter().zip(&before) {
        assert_eq!(&read(&shards.path().join(file)), bytes, "{file} intact");
    }
    // The shards still merge.
    let merged = tempfile::tempdir().unwrap();
    let out = gamebench()
        .args([
            "merge",
            s(shards.path()),
            "-o",
            s(&merged.path().join("m.csv")),
        ])
        .output()
        .unwrap();
    assert_exit(&out, 0);
    // A missing folder for a shard folder is created (a folder named to write into).
    let created = merged.path().join("new/shards");
    let out = gamebench()
        .args([
            "run",
            s(root),
            "--quiet",
            "--shard",
            "1/2",
            "--shard-dir",
            s(&created),
        ])
        .output()
        .unwrap();
    assert_exit(&out, 0);
    assert!(created.join("shard-1-of-2.json").is_file());
    let _ = std::fs::remove_dir_all(merged.path().join("new"));
}

#[test]
fn a_kattis_feedback_file_linked_to_the_input_is_replaced_not_written_through() {
    let corpus = yut_samples();
    let root = corpus.path();
    let (input, answer) = (root.join("yut/s1.in"), root.join("yut/s1.out"));
    let before = read(&input);
    let feedback = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(&input, feedback.path().join("judgemessage.txt")).unwrap();
    let out = gamebench()
        .args(["check", "yut", s(&input), s(&answer), s(feedback.path())])
        .args(["--exit-codes", "kattis"])
        .stdin(std::fs::File::open(root.join("yut/s2.out")).unwrap())
        .output()
        .unwrap();
    assert_exit(&out, 43);
    assert_eq!(read(&input), before, "the input is intact");
    let message = feedback.path().join("judgemessage.txt");
    assert!(message.symlink_metadata().unwrap().is_file());
    assert!(!read(&message).is_empty());
    // The feedback file is the input itself (a hard link): refused, the input intact.
    let feedback = tempfile::tempdir().unwrap();
    std::fs::hard_link(&input, feedback.path().join("judgemessage.txt")).unwrap();
    let out = gamebench()
        .args(["check", "yut", s(&input), s(&answer), s(feedback.path())])
        .args(["--exit-codes", "kattis"])
        .stdin(std::fs::File::open(root.join("yut/s2.out")).unwrap())
        .output()
        .unwrap();
    assert!(
        text(&out.stderr).contains("never written over"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(read(&input), before, "the input is intact");
    // testlib's result file as a hard link to the answer: refused.
    let result = feedback.path().join("result.txt");
    std::fs::hard_link(&answer, &result).unwrap();
    let answer_before = read(&answer);
    let out = gamebench()
        .args([
            "check",
            "yut",
            s(&input),
            s(&answer),
            s(&answer),
            s(&result),
        ])
        .args(["--exit-codes", "testlib"])
        .output()
        .unwrap();
    assert!(
        text(&out.stderr).contains("never written over"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(read(&answer), answer_before, "the answer is intact");
}

#[test]
fn shrink_never_writes_over_its_given_input() {
    let work = tempfile::tempdir().unwrap();
    let yut = work.path().join("out/yut");
    std::fs::create_dir_all(&yut).unwrap();
    let given = work.path().join("x.in");
    std::fs::copy(common::root().join("corpora/yut/yut-sample1.in"), &given).unwrap();
    let before = read(&given);
    // Where shrink writes its copy of the input, a hard link to the input (a symbolic link
    // is refused the same way).
    std::fs::hard_link(&given, yut.join("shrink-x.in")).unwrap();
    let out = gamebench()
        .args([
            "shrink",
            "yut",
            s(&given),
            "-e",
            "reference",
            "-e",
            "cmd:cat",
        ])
        .args(["-o", s(&work.path().join("out"))])
        .output()
        .unwrap();
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains("never written over"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(read(&given), before);
}
