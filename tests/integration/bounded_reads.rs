//! Small files are read with a cap: a problem file, a `.par` file or an expected output that
//! is `/dev/zero` (or a link to it) is an error naming the file and the cap, at once, not
//! gigabytes read for a minute.

use crate::common;

use std::time::{Duration, Instant};

use common::{assert_exit, run, s, text};

/// The most a refused read may take, even on a loaded machine (an unbounded one ran for more
/// than a minute).
const PROMPT: Duration = Duration::from_secs(30);

/// Runs `args`, asserts exit 2 with a message naming `path` and a cap, promptly.
fn refused(args: &[&str], path: &str) {
    let start = Instant::now();
    let out = run(args);
    assert!(
        start.elapsed() < PROMPT,
        "{args:?} took {:?}",
        start.elapsed()
    );
    assert_exit(&out, 2);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(path) && stderr.contains("MiB this file may hold"),
        "{args:?}: {stderr}"
    );
}

#[test]
fn a_problem_file_of_dev_zero_is_refused_naming_the_cap() {
    refused(&["invoke", "--problem", "/dev/zero"], "/dev/zero");
}

#[test]
fn a_par_file_linked_to_dev_zero_is_refused_naming_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        common::root().join("corpora/vexed/sample.in"),
        dir.path().join("pack.in"),
    )
    .unwrap();
    let par = dir.path().join("pack.par");
    std::os::unix::fs::symlink("/dev/zero", &par).unwrap();
    refused(&["levels", s(dir.path()), "--quiet"], s(&par));
}

#[test]
fn an_expected_output_of_dev_zero_is_refused_naming_the_cap() {
    let dir = common::yut_samples();
    let input = dir.path().join("yut/s1.in");
    let output = dir.path().join("yut/s1.out");
    refused(
        &[
            "check",
            "yut",
            s(&input),
            s(&output),
            "--expected",
            "/dev/zero",
        ],
        "/dev/zero",
    );
}
