//! A package's `data/` beyond its tests: `run` and `validate` read a package (or its `data/`)
//! as a corpus of its tests alone, `validate` checks that `data/invalid_input` is rejected, and
//! `invoke` judges `data/invalid_output` and `data/valid_output` with the game's checker.

use std::path::{Path, PathBuf};

use crate::common;
use common::{assert_exit, gamebench, results, root, s, text};
use gamebench::status::Status;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(from, to).unwrap();
}

/// A Yut package (its folder not named after the game): sample 1 and 2 as tests, an invalid
/// input, an invalid output (sample 2's answer given to sample 1) and a valid one, and an
/// accepted submission that runs gamebench's solver.
fn package(dir: &Path) -> PathBuf {
    let pkg = dir.join("pkg");
    write(
        &pkg.join("problem.yaml"),
        "problem_format_version: 2025-09\nname: yut\ngamebench:\n  game: yut\nlimits:\n  time_limit: 5\n",
    );
    let yut = root().join("corpora/yut");
    let (in1, out1) = (yut.join("yut-sample1.in"), yut.join("yut-sample1.out"));
    let (in2, out2) = (yut.join("yut-sample2.in"), yut.join("yut-sample2.out"));
    let data = pkg.join("data");
    copy(&in1, &data.join("sample/1.in"));
    copy(&out1, &data.join("sample/1.ans"));
    copy(&in2, &data.join("secret/2.in"));
    copy(&out2, &data.join("secret/2.ans"));
    write(&data.join("invalid_input/garbage.in"), "not an input\n");
    copy(&in1, &data.join("invalid_output/swapped.in"));
    copy(&out1, &data.join("invalid_output/swapped.ans"));
    copy(&out2, &data.join("invalid_output/swapped.out"));
    copy(&in2, &data.join("valid_output/same.in"));
    copy(&out2, &data.join("valid_output/same.ans"));
    copy(&out2, &data.join("valid_output/same.out"));
    write(
        &pkg.join("submissions/accepted/solve.c"),
        &format!(
            "#include <unistd.h>\nint main(void) {{ execl(\"{}\", \"gamebench\", \"solve\", \"yut\", (char *)0); return 1; }}\n",
            env!("CARGO_BIN_EXE_gamebench")
        ),
    );
    pkg
}

#[test]
fn run_reads_a_package_or_its_data_as_its_tests_alone() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = package(dir.path());
    for path in [pkg.clone(), pkg.join("data")] {
        let csv = dir.path().join("r.csv");
        let out = gamebench()
            .arg("run")
            .arg(&path)
            .args(["--check", "-q", "--game", "yut", "--csv", s(&csv)])
            .output()
            .unwrap();
        assert_exit(&out, 0);
        let rows = results(&csv);
        let mut files: Vec<String> = rows.iter().map(|r| r.file.clone()).collect();
        files.dedup();
        // Only the tests: the invalid input and the output cases are not cases to run.
        assert_eq!(files.len(), 2, "{files:?}");
        assert!(
            files
                .iter()
                .all(|f| f.contains("sample") || f.contains("secret")),
            "{files:?}"
        );
        assert!(rows.iter().all(|r| r.status == Status::Ok), "{rows:?}");
    }
}

#[test]
fn validate_checks_a_packages_invalid_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = package(dir.path());
    let out = gamebench()
        .args(["validate", "yut"])
        .arg(&pkg)
        .output()
        .unwrap();
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("garbage.in: rejected, as the package says"),
        "{stdout}"
    );
    // The tests are validated, the invalid input is not counted among them.
    assert!(
        text(&out.stderr).contains("2 valid, 0 invalid"),
        "{}",
        text(&out.stderr)
    );
    // A valid input among the invalid ones fails the package (through its data/ as well).
    copy(
        &pkg.join("data/sample/1.in"),
        &pkg.join("data/invalid_input/valid.in"),
    );
    let out = gamebench()
        .args(["validate", "yut"])
        .arg(pkg.join("data"))
        .output()
        .unwrap();
    assert_exit(&out, 3);
    assert!(
        text(&out.stdout).contains("valid.in: invalid input accepted"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn invoke_judges_the_packages_output_cases_with_the_checker() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = package(dir.path());
    let build = dir.path().join("build");
    let invoke = || {
        gamebench()
            .arg("invoke")
            .arg(&pkg)
            .args(["--build-dir", s(&build), "-j", "2"])
            .output()
            .unwrap()
    };
    let out = invoke();
    assert_exit(&out, 0);
    assert!(
        text(&out.stdout).contains("output cases: all 2 judged by the checker as the package says"),
        "{}",
        text(&out.stdout)
    );
    // A right output among the invalid ones, a wrong one among the valid: both named, exit 1.
    copy(
        &pkg.join("data/sample/1.ans"),
        &pkg.join("data/invalid_output/swapped.out"),
    );
    write(&pkg.join("data/valid_output/same.out"), "nonsense\n");
    let out = invoke();
    assert_exit(&out, 1);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("invalid output accepted: ") && stdout.contains("swapped.out"),
        "{stdout}"
    );
    assert!(
        stdout.contains("valid output rejected: ") && stdout.contains("same.out: case 1:"),
        "{stdout}"
    );
}

/// `report r.csv --corpus ROOT -o page.html`: the page's text.
fn report_page(dir: &Path, csv: &Path, corpus: &Path) -> String {
    let page = dir.join("page.html");
    let out = gamebench()
        .arg("report")
        .arg(csv)
        .arg("--corpus")
        .arg(corpus)
        .arg("-o")
        .arg(&page)
        .output()
        .unwrap();
    assert_exit(&out, 0);
    std::fs::read_to_string(&page).unwrap()
}

/// Whether the report drew boards (it found the run's inputs under its --corpus).
fn boards_drawn(page: &str) -> bool {
    page.contains("<h2 id=\"boards\">Boards: ") && !page.contains("No board drawn")
}

#[test]
fn run_validate_and_report_take_the_game_from_the_package() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = package(dir.path());
    // No --game, and no folder named after the game: problem.yaml's gamebench key says Yut.
    for path in [pkg.clone(), pkg.join("data"), pkg.join("data/secret")] {
        let csv = dir.path().join("r.csv");
        let out = gamebench()
            .arg("run")
            .arg(&path)
            .args(["--check", "-q", "--csv", s(&csv)])
            .output()
            .unwrap();
        assert_exit(&out, 0);
        let rows = results(&csv);
        assert!(!rows.is_empty());
        assert!(
            rows.iter()
                .all(|r| r.status == Status::Ok && r.game == "yut"),
            "{rows:?}"
        );
        // The report finds the inputs from the package folder, whether the package or its
        // data/ ran.
        if path.ends_with("pkg") || path.ends_with("data") {
            assert!(
                boards_drawn(&report_page(dir.path(), &csv, &pkg)),
                "{path:?}"
            );
        }
    }
    // A wrong answer in an .ans is found without --game: the .ans is what run checks against.
    copy(
        &pkg.join("data/sample/1.ans"),
        &pkg.join("data/secret/2.ans"),
    );
    let csv = dir.path().join("wrong.csv");
    let out = gamebench()
        .arg("run")
        .arg(pkg.join("data"))
        .args(["--check", "-q", "--csv", s(&csv)])
        .output()
        .unwrap();
    assert_exit(&out, 1);
    let rows = results(&csv);
    let wrong: Vec<&str> = rows
        .iter()
        .filter(|r| r.status != Status::Ok)
        .map(|r| r.file.as_str())
        .collect();
    assert_eq!(wrong, ["secret/2.in"], "{rows:?}");
    // validate PKG: the package in place of the game.
    let out = gamebench().arg("validate").arg(&pkg).output().unwrap();
    assert_exit(&out, 0);
    assert!(
        text(&out.stdout).contains("garbage.in: rejected, as the package says"),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stderr).contains("2 valid, 0 invalid"));
}

#[test]
fn a_package_that_names_no_game_is_refused_by_run_and_validate() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = package(dir.path());
    write(
        &pkg.join("problem.yaml"),
        "problem_format_version: 2025-09\nname: yut\n",
    );
    let out = gamebench()
        .arg("run")
        .arg(pkg.join("data"))
        .arg("--check")
        .output()
        .unwrap();
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains("cannot tell which game this package is"),
        "{}",
        text(&out.stderr)
    );
    let out = gamebench().arg("validate").arg(&pkg).output().unwrap();
    assert_exit(&out, 2);
    // A folder named after the game is enough, as for invoke.
    let yut = dir.path().join("yut");
    std::fs::rename(&pkg, &yut).unwrap();
    let out = gamebench()
        .arg("run")
        .arg(yut.join("data"))
        .args(["--check", "-q"])
        .output()
        .unwrap();
    assert_exit(&out, 0);
}

/// A Polygon package of Yut: the two samples as `tests/01`, `tests/02` with `.a` answers.
fn polygon_package(dir: &Path) -> PathBuf {
    let pkg = dir.join("poly");
    let yut = root().join("corpora/yut");
    for (n, stem) in [(1, "yut-sample1"), (2, "yut-sample2")] {
        copy(
            &yut.join(format!("{stem}.in")),
            &pkg.join(format!("tests/{n:02}")),
        );
        copy(
            &yut.join(format!("{stem}.out")),
            &pkg.join(format!("tests/{n:02}.a")),
        );
    }
    write(
        &pkg.join("problem.xml"),
        "<problem><judging><testset name=\"tests\"><time-limit>2000</time-limit>\
         <memory-limit>268435456</memory-limit><test-count>2</test-count>\
         <input-path-pattern>tests/%02d</input-path-pattern>\
         <answer-path-pattern>tests/%02d.a</answer-path-pattern></testset></judging></problem>\n",
    );
    pkg
}

#[test]
fn a_polygon_package_is_a_corpus_for_run_validate_and_report() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = polygon_package(dir.path());
    let run = |csv: &Path| {
        gamebench()
            .arg("run")
            .arg(&pkg)
            .args(["--check", "-q", "--game", "yut", "--csv", s(csv)])
            .output()
            .unwrap()
    };
    let csv = dir.path().join("r.csv");
    assert_exit(&run(&csv), 0);
    let rows = results(&csv);
    let mut files: Vec<&str> = rows.iter().map(|r| r.file.as_str()).collect();
    files.dedup();
    assert_eq!(files, ["01.in", "02.in"], "{rows:?}");
    assert!(rows.iter().all(|r| r.status == Status::Ok), "{rows:?}");
    assert!(boards_drawn(&report_page(dir.path(), &csv, &pkg)));
    // The answers are what is checked: test 2's answer given to test 1 is a wrong answer.
    std::fs::copy(pkg.join("tests/02.a"), pkg.join("tests/01.a")).unwrap();
    let csv = dir.path().join("wrong.csv");
    assert_exit(&run(&csv), 1);
    let rows = results(&csv);
    let wrong: Vec<&str> = rows
        .iter()
        .filter(|r| r.status != Status::Ok)
        .map(|r| r.file.as_str())
        .collect();
    assert_eq!(wrong, ["01.in"], "{rows:?}");
    // validate: both tests, by the game named or through a folder named after it.
    let out = gamebench()
        .args(["validate", "yut"])
        .arg(&pkg)
        .output()
        .unwrap();
    assert_exit(&out, 0);
    assert!(text(&out.stderr).contains("2 valid, 0 invalid"));
    let named = dir.path().join("yut");
    std::fs::rename(&pkg, &named).unwrap();
    let out = gamebench().arg("validate").arg(&named).output().unwrap();
    assert_exit(&out, 0);
    assert!(text(&out.stderr).contains("2 valid, 0 invalid"));
    write(&named.join("tests/02"), "not an input\n");
    let out = gamebench().arg("validate").arg(&named).output().unwrap();
    assert_exit(&out, 3);
}

/// Zips the files under `folder` into `zip`, named by their path under `folder` (behind
/// `prefix`).
fn zip_folder(folder: &Path, zip: &Path, prefix: &str) {
    use std::io::Write;
    let mut writer = zip::ZipWriter::new(std::fs::File::create(zip).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    let mut stack = vec![folder.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let name = path.strip_prefix(folder).unwrap().to_str().unwrap();
            writer
                .start_file(format!("{prefix}{name}"), options)
                .unwrap();
            writer.write_all(&std::fs::read(&path).unwrap()).unwrap();
        }
    }
    writer.finish().unwrap();
}

#[test]
fn a_zipped_package_is_read_as_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = package(dir.path());
    // Zipped at the archive's root, and inside one top-level folder: both are read.
    for (zip, prefix) in [("flat.zip", ""), ("nested.zip", "yut-problem/")] {
        let zip = dir.path().join(zip);
        zip_folder(&pkg, &zip, prefix);
        let out = gamebench()
            .arg("invoke")
            .arg(&zip)
            .args(["--build-dir", s(&dir.path().join("build")), "-j", "2"])
            .output()
            .unwrap();
        assert_exit(&out, 0);
        let stdout = text(&out.stdout);
        assert!(
            stdout.contains("invalid inputs: all 1 rejected"),
            "{stdout}"
        );
        assert!(stdout.contains("accepted/solve.c"), "{stdout}");
        let out = gamebench().arg("validate").arg(&zip).output().unwrap();
        assert_exit(&out, 0);
        assert!(
            text(&out.stdout).contains("garbage.in: rejected, as the package says"),
            "{}",
            text(&out.stdout)
        );
        assert!(text(&out.stderr).contains("2 valid, 0 invalid"));
        let csv = dir.path().join("r.csv");
        let out = gamebench()
            .arg("run")
            .arg(&zip)
            .args(["--check", "-q", "--csv", s(&csv)])
            .output()
            .unwrap();
        assert_exit(&out, 0);
        let rows = results(&csv);
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert!(rows.iter().all(|r| r.status == Status::Ok), "{rows:?}");
    }
}

#[test]
fn a_zip_whose_names_leave_its_folder_is_refused() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let inner = dir.path().join("inner");
    std::fs::create_dir(&inner).unwrap();
    for (name, what) in [
        ("../escaped", "climbs out"),
        ("/tmp/absolute-gamebench-test", "absolute"),
    ] {
        let zip = inner.join("evil.zip");
        let mut writer = zip::ZipWriter::new(std::fs::File::create(&zip).unwrap());
        let options = zip::write::SimpleFileOptions::default();
        writer.start_file("problem.yaml", options).unwrap();
        writer.write_all(b"name: x\n").unwrap();
        writer.start_file(name, options).unwrap();
        writer.write_all(b"gotcha\n").unwrap();
        writer.finish().unwrap();
        let out = gamebench()
            .args(["invoke", "--game", "yut"])
            .arg(&zip)
            .output()
            .unwrap();
        assert_exit(&out, 2);
        assert!(
            text(&out.stderr).contains("an absolute name or one with `..`, refused"),
            "{what}: {}",
            text(&out.stderr)
        );
        // Where `..` would have led from the unpacking folder.
        assert!(!std::env::temp_dir().join("gamebench-zip/escaped").exists());
        assert!(!Path::new("/tmp/absolute-gamebench-test").exists());
    }
    // Not a zip at all: said so.
    let fake = dir.path().join("fake.zip");
    write(&fake, "not a zip\n");
    let out = gamebench().arg("validate").arg(&fake).output().unwrap();
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains("not a zip archive"),
        "{}",
        text(&out.stderr)
    );
}
