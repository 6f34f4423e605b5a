//! No abort on a closed pipe: each command run with its stdout and stderr pipes closed by
//! their readers before it writes a byte ends with 0 (it wrote nothing, or finished quietly) or
//! 141 (ended as by SIGPIPE, as `cat` does), never an abort (134) or a panic (101).

use crate::common;

use std::path::Path;
use std::process::Stdio;

use common::{gamebench, s, yut_samples};

/// What a SIGPIPE ending looks like to a shell: 128 + 13.
const SIGPIPE_EXIT: i32 = 141;

/// Runs `args` with both output pipes closed at the reader's end; the exit code (a death by
/// SIGPIPE counted as 141).
fn with_closed_pipes(args: &[&str], cwd: &Path) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    let (out_reader, out_writer) = std::io::pipe().unwrap();
    let (err_reader, err_writer) = std::io::pipe().unwrap();
    drop(out_reader);
    drop(err_reader);
    let status = gamebench()
        .current_dir(cwd)
        .args(args)
        .stdin(Stdio::null())
        .stdout(out_writer)
        .stderr(err_writer)
        .status()
        .unwrap();
    match (status.code(), status.signal()) {
        (Some(code), _) => code,
        (None, Some(libc::SIGPIPE)) => SIGPIPE_EXIT,
        (None, Some(signal)) => 128 + signal,
        (None, None) => unreachable!("an exit status is a code or a signal"),
    }
}

#[test]
fn every_command_ends_0_or_141_on_closed_pipes() {
    let corpus = yut_samples();
    let root = corpus.path();
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    // Files the commands read, made with pipes open.
    let csv = w.join("r.csv");
    let made = gamebench()
        .args(["run", s(root), "--quiet", "--csv", s(&csv)])
        .output()
        .unwrap();
    common::assert_exit(&made, 0);
    let shards = w.join("shards");
    for k in 0..2 {
        let made = gamebench()
            .args(["run", s(root), "--quiet", "--shard", &format!("{k}/2")])
            .args(["--shard-dir", s(&shards)])
            .output()
            .unwrap();
        common::assert_exit(&made, 0);
    }
    let levels = w.join("levels");
    std::fs::create_dir(&levels).unwrap();
    std::fs::write(
        levels.join("pack.in"),
        "3 5 NEAR\n#A-A#\n#####\n#####\n0 0 END\n",
    )
    .unwrap();
    std::fs::write(levels.join("pack.par"), "NEAR 2\n").unwrap();
    let (input, output) = (root.join("yut/s1.in"), root.join("yut/s1.out"));
    let page = w.join("page.html");
    let merged = w.join("merged.csv");
    let generated = w.join("gen");
    let stressed = w.join("stress");
    let commands: Vec<Vec<&str>> = vec![
        vec!["run", s(root), "-e", "reference", "--progress", "plain"],
        vec!["solve", "yut", s(&input)],
        vec!["check", "yut", s(&input), s(&output)],
        vec!["validate", "yut", s(&input)],
        vec!["gen", "yut", "--count", "2", "--out", s(&generated)],
        vec!["report", s(&csv), "-o", s(&page)],
        vec!["merge", s(&shards), "-o", s(&merged)],
        vec!["invoke", s(root), "-e", "reference", "-e", "table"],
        vec![
            "stress",
            "yut",
            "-e",
            "reference",
            "-e",
            "table",
            "--cases",
            "20",
        ],
        vec![
            "stress",
            "yut",
            "-e",
            "reference",
            "-e",
            "table",
            "--cases",
            "3",
            "--out",
        ],
        vec!["levels", s(&levels), "-j", "1"],
        vec!["list"],
    ];
    let mut wrong = Vec::new();
    for mut args in commands {
        if args.last() == Some(&"--out") {
            args.push(s(&stressed));
        }
        let code = with_closed_pipes(&args, w);
        if code != 0 && code != SIGPIPE_EXIT {
            wrong.push(format!("{args:?}: exit {code}"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}
