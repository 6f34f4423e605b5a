//! The missing-folder policy (docs/run.md, "Missing folders"), command by command: a *file*
//! named on the command line must be in an existing folder, else exit 2 naming the folder and
//! nothing created; a *folder* named to write into is created with its missing parents.

use crate::common;
use common::{assert_exit, s, text};

/// A folder with `c/yut/s1.in|out`, `r.csv` (a run of it) and `sh/` (its one shard).
fn setup() -> tempfile::TempDir {
    let dir = common::yut_samples();
    let c = dir.path().join("c");
    std::fs::create_dir_all(&c).unwrap();
    std::fs::rename(dir.path().join("yut"), c.join("yut")).unwrap();
    let root = dir.path();
    let at = |p: &str| root.join(p).to_str().unwrap().to_string();
    assert_exit(
        &common::run(&["run", &at("c"), "-q", "--csv", &at("r.csv")]),
        0,
    );
    let out = common::run(&[
        "run",
        &at("c"),
        "-q",
        "--shard",
        "0/1",
        "--shard-dir",
        &at("sh"),
    ]);
    assert_exit(&out, 0);
    dir
}

#[test]
fn a_file_in_a_missing_folder_is_refused_and_a_folder_is_created() {
    let dir = setup();
    let root = dir.path();
    let at = |p: &str| root.join(p).to_str().unwrap().to_string();
    let (c, r, sh) = (at("c"), at("r.csv"), at("sh"));
    // (the command, its option naming the file), the file always `missing/x.EXT`.
    let files: [(Vec<&str>, &str, &str); 14] = [
        (vec!["run", &c, "-q"], "--csv", "csv"),
        (vec!["run", &c, "-q"], "--junit", "xml"),
        (vec!["run", &c, "-q"], "--export-json", "json"),
        (vec!["run", &c, "-q"], "--export-markdown", "md"),
        (vec!["run", &c, "-q"], "--export-csv", "csv"),
        (vec!["run", &c, "-q"], "--plot", "svg"),
        (vec!["run", &c, "-q"], "--report", "html"),
        (vec!["invoke", &c, "-e", "table"], "--csv", "csv"),
        (vec!["invoke", &c, "-e", "table"], "--json", "json"),
        (vec!["invoke", &c, "-e", "table"], "--markdown", "md"),
        (vec!["invoke", &c, "-e", "table"], "--junit", "xml"),
        (vec!["invoke", &c, "-e", "table"], "--report", "html"),
        (vec!["report", &r], "-o", "html"),
        (vec!["merge", &sh], "-o", "csv"),
    ];
    for (command, option, extension) in files {
        let missing = root.join("missing");
        let file = missing.join(format!("x.{extension}"));
        let mut args = command.clone();
        args.extend([option, s(&file)]);
        let out = common::run(&args);
        assert_exit(&out, 2);
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(&format!("the folder {} does not exist", missing.display())),
            "{args:?}: {stderr}"
        );
        assert!(!missing.exists(), "{args:?} created {}", missing.display());
    }
    // Folders to write into: created with their parents.
    let folders: [(Vec<&str>, &str); 3] = [
        (vec!["gen", "yut", "--count", "1"], "-o"),
        (vec!["run", &c, "-q"], "--out-dir"),
        (vec!["invoke", &c, "-e", "table"], "--select"),
    ];
    for (k, (command, option)) in folders.into_iter().enumerate() {
        let folder = root.join(format!("new{k}")).join("deep");
        let mut args = command.clone();
        args.extend([option, s(&folder)]);
        let out = common::run(&args);
        assert_exit(&out, 0);
        assert!(folder.is_dir(), "{args:?}: {}", text(&out.stderr));
    }
}

/// The folders the first test does not name: `--shard-dir`, `stress -o` (a difference found),
/// `hunt -o` and `package export -o` write into a missing folder, created with its parents.
#[test]
fn shard_stress_hunt_and_export_folders_are_created_with_their_parents() {
    let dir = setup();
    let root = dir.path();
    let at = |p: &str| root.join(p).to_str().unwrap().to_string();
    let package = root.join("pkg");
    std::fs::create_dir_all(package.join("data/sample")).unwrap();
    std::fs::write(
        package.join("problem.yaml"),
        "problem_format_version: 2025-09\nname: yut\ngamebench:\n  game: yut\nlimits:\n  time_limit: 1\n  memory: 1024\n",
    )
    .unwrap();
    let sample = common::root().join("corpora/yut/yut-sample1");
    std::fs::copy(
        sample.with_extension("in"),
        package.join("data/sample/t0.in"),
    )
    .unwrap();
    std::fs::copy(
        sample.with_extension("out"),
        package.join("data/sample/t0.ans"),
    )
    .unwrap();
    let (c, pkg) = (at("c"), at("pkg"));
    // A program that answers wrong: stress finds a difference and writes it.
    let bug = format!(
        "bug=cmd:python3 {}",
        common::root().join("tests/wrong/yut_duet_mo.py").display()
    );
    let commands: [(Vec<&str>, &str, i32); 5] = [
        (vec!["run", &c, "-q", "--shard", "0/1"], "--shard-dir", 0),
        (
            vec![
                "stress",
                "yut",
                "-e",
                "reference",
                "-e",
                &bug,
                "--cases",
                "2000",
            ],
            "-o",
            1,
        ),
        (vec!["hunt", "yut", "-e", "table", "--time", "1"], "-o", 0),
        (
            vec!["package", "export", "--problem", &pkg, "--format", "kattis"],
            "-o",
            0,
        ),
        (
            vec![
                "package",
                "export",
                "--problem",
                &pkg,
                "--format",
                "polygon",
            ],
            "-o",
            0,
        ),
    ];
    for (k, (command, option, code)) in commands.into_iter().enumerate() {
        let folder = root.join(format!("made{k}")).join("deep");
        let mut args = command.clone();
        args.extend([option, s(&folder)]);
        let out = common::run(&args);
        assert_exit(&out, code);
        let written = std::fs::read_dir(&folder).map_or(0, |d| d.count());
        assert!(written > 0, "{args:?} wrote nothing: {}", text(&out.stderr));
    }
}
