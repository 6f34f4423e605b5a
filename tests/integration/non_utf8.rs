//! File names that are not UTF-8 (`b\xFF.in`, `b\xFE.in`, the two names of `journal_lock`'s
//! test), written `yut/b\xFF.in` in the CSV's file column: `report --corpus` finds each file
//! again from that name (its boards, and `-o` refused on it), and a sharded run of such a
//! corpus merges with both files' rows.

use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::common;
use common::{assert_exit, s, text};

/// `DIR/corpus/yut/b\xFF.in` and `b\xFE.in` (Yut's two samples, with their `.out`).
fn corpus() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let yut = dir.path().join("corpus").join("yut");
    std::fs::create_dir_all(&yut).unwrap();
    for (byte, sample) in [(0xff_u8, 1), (0xfe, 2)] {
        for ext in ["in", "out"] {
            let mut name = vec![b'b', byte, b'.'];
            name.extend_from_slice(ext.as_bytes());
            std::fs::copy(
                common::root().join(format!("corpora/yut/yut-sample{sample}.{ext}")),
                yut.join(std::ffi::OsStr::from_bytes(&name)),
            )
            .unwrap();
        }
    }
    let corpus = dir.path().join("corpus");
    (dir, corpus)
}

/// The input `b<byte>.in` of the corpus.
fn input(corpus: &Path, byte: u8) -> PathBuf {
    corpus
        .join("yut")
        .join(std::ffi::OsStr::from_bytes(&[b'b', byte, b'.', b'i', b'n']))
}

#[test]
fn report_finds_inputs_whose_csv_names_were_escaped() {
    let (dir, corpus) = corpus();
    let csv = dir.path().join("x.csv");
    let out = common::run(&["run", s(&corpus), "--check", "-q", "--csv", s(&csv)]);
    assert_exit(&out, 0);
    let mut files = common::column(&csv, "file");
    files.sort();
    assert_eq!(files, ["yut/b\\xFE.in", "yut/b\\xFF.in"]);
    // Both one-case files are the slowest of their engine's candidates: each gets a board.
    let page = dir.path().join("r.html");
    let out = common::run(&["report", s(&csv), "--corpus", s(&corpus), "-o", s(&page)]);
    assert_exit(&out, 0);
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(
        html.matches("<div class=\"board-case\" data-game=\"yut\">")
            .count(),
        2,
        "{}",
        text(&out.stderr)
    );
    // An input found by that name is one the report must not overwrite.
    let target = input(&corpus, 0xff);
    let before = std::fs::read(&target).unwrap();
    let out = gamebench_report_onto(&csv, &corpus, &target);
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains("an input of the report"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read(&target).unwrap(), before);
}

/// `report CSV --corpus CORPUS -o TARGET`, TARGET a path that is not UTF-8.
fn gamebench_report_onto(csv: &Path, corpus: &Path, target: &Path) -> std::process::Output {
    common::gamebench()
        .arg("report")
        .arg(csv)
        .arg("--corpus")
        .arg(corpus)
        .arg("-o")
        .arg(target)
        .output()
        .unwrap()
}

#[test]
fn a_sharded_run_of_such_a_corpus_merges_with_both_rows() {
    let (dir, corpus) = corpus();
    let shards = dir.path().join("shards");
    for k in 0..2 {
        let spec = format!("{k}/2");
        let out = common::run(&[
            "run",
            s(&corpus),
            "--check",
            "-q",
            "--shard",
            &spec,
            "--shard-dir",
            s(&shards),
        ]);
        assert_exit(&out, 0);
    }
    let merged = dir.path().join("merged.csv");
    let out = common::run(&["merge", s(&shards), "-o", s(&merged)]);
    assert_exit(&out, 0);
    let mut rows = common::columns(&merged, &["file", "status"]);
    rows.sort();
    assert_eq!(
        rows,
        [
            ["yut/b\\xFE.in".to_string(), "ok".to_string()],
            ["yut/b\\xFF.in".to_string(), "ok".to_string()]
        ]
    );
}
