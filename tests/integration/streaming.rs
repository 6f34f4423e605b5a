//! Files of any size stream: a file of many tiny cases runs in bounded memory (its cases go
//! through the runner a chunk at a time, and the summary folds each case as its row is
//! written), and `--validate` hands each chunk its cases' violations. (An endless line:
//! `tests/integration/endless_line.rs`.)

use crate::common;

use common::*;

/// 1,000,000 1x1 SameGame grids: a runner keeping a record of about 380 bytes per case for
/// the summary (before the tally) needs about 400 MB on this file (757 MB for 2,000,000);
/// with the tally and at most two chunks per worker in flight, 61-71 MB at `-j 2`, most of it
/// memory mimalloc keeps for its purge delay (release builds; see benches/README.md).
const GRIDS: usize = 1_000_000;
/// The bound on the child's peak resident memory, in KB.
const PEAK_KB: i64 = 100_000;

#[test]
fn a_file_of_many_tiny_cases_runs_in_bounded_memory() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let out = run(&[
        "gen",
        "samegame",
        "--size",
        "1x1",
        "--cases",
        &GRIDS.to_string(),
        "--moves",
        "0-1",
        "--no-expected",
        "-o",
        s(dir.path()),
    ]);
    assert_exit(&out, 0);
    let input = inputs(dir.path()).pop().expect("the generated file");
    let csv = dir.path().join("r.csv");
    let mut command = measured();
    command
        .args([
            "run",
            s(&input),
            "-g",
            "samegame",
            "--no-repeat",
            "--quiet",
            "--csv",
        ])
        .arg(&csv)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let (code, peak_kb) = peak_of(command);
    assert_eq!(code, 0);
    // A row per grid, the last one the last grid's (the file is read as lines: a table of a
    // million rows of strings would cost the test itself a gigabyte).
    let text = std::fs::read_to_string(&csv).expect("the CSV");
    assert_eq!(
        text.lines().count(),
        GRIDS + 1,
        "a header and a row per grid"
    );
    let case = text.lines().last().and_then(|l| l.split(',').nth(3));
    assert_eq!(
        case,
        Some(GRIDS.to_string().as_str()),
        "the last row's case"
    );
    assert!(
        peak_kb < PEAK_KB,
        "peak resident memory {peak_kb} KB, over the bound of {PEAK_KB} KB"
    );
}

/// The files of the large-file table in benches/README.md, each run with `--no-repeat` and
/// with the default timing: prints peak memory and wall time, and checks the memory bounds
/// (run `cargo test --release --test integration -- --ignored streaming:: --nocapture`; minutes: the default
/// timing of two million sub-microsecond cases takes most of it).
#[test]
#[ignore = "long: generates 100 MB of files and runs them (see benches/README.md)"]
fn large_files_benchmark() {
    /// Peak resident memory allowed for `run --quiet --csv` on any of these files, in KB.
    const RUN_PEAK_KB: i64 = 100 * 1024;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let files: [(&str, &[&str]); 3] = [
        ("40k", &["--profile", "throughput", "--cases", "40000"]),
        (
            "300k",
            &["--size", "1x1", "--cases", "300000", "--moves", "0-1"],
        ),
        (
            "2M",
            &["--size", "1x1", "--cases", "2000000", "--moves", "0-1"],
        ),
    ];
    for (name, options) in files {
        let out_dir = dir.path().join(name);
        let mut args = vec!["gen", "samegame", "--count", "1", "--no-expected", "-o"];
        args.push(s(&out_dir));
        args.extend_from_slice(options);
        assert_exit(&run(&args), 0);
        let input = inputs(&out_dir).pop().expect("the generated file");
        for timing in [&["--no-repeat"][..], &[][..]] {
            let mut command = measured();
            command
                .args(["run", s(&input), "-g", "samegame", "--quiet", "--csv"])
                .arg(dir.path().join("x.csv"))
                .args(timing)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null());
            let start = std::time::Instant::now();
            let (code, peak_kb) = peak_of(command);
            println!(
                "{name} {timing:?}: {peak_kb} KB, {:.2} s",
                start.elapsed().as_secs_f64()
            );
            assert_eq!(code, 0);
            assert!(peak_kb < RUN_PEAK_KB, "{name}: {peak_kb} KB");
        }
    }
}

/// Grids in the file `validate` streams: 70,000 10x40 grids of 12 lines each (about 57 MB).
const VALIDATE_GRIDS: usize = 70_000;
/// The bound on `validate`'s peak resident memory on that file, in KB: a third of the file's
/// size, which a validator holding the file whole exceeds (it peaked at about the file's
/// size plus 3 MB).
const VALIDATE_PEAK_KB: i64 = 16_000;

#[test]
fn a_big_file_validates_in_bounded_memory() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("big.in");
    let row = "1234567890".repeat(4).into_bytes();
    let mut grid = b"10 40\n".to_vec();
    for _ in 0..10 {
        grid.extend_from_slice(&row.iter().flat_map(|&d| [d, b' ']).collect::<Vec<u8>>()[..79]);
        grid.push(b'\n');
    }
    grid.extend_from_slice(b"0 0\n");
    {
        use std::io::Write;
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path).expect("create"));
        for _ in 0..VALIDATE_GRIDS {
            file.write_all(&grid).expect("write");
        }
        // One bad grid at the end: its cell on line 12 * GRIDS + 2, in case GRIDS + 1.
        file.write_all(b"1 1\n10 0 0\n0 0\n").expect("write");
        file.flush().expect("flush");
    }
    let size_kb = std::fs::metadata(&path).expect("the file").len() / 1024;
    assert!(size_kb as i64 > 3 * VALIDATE_PEAK_KB, "{size_kb} KB");
    let out_path = dir.path().join("out.txt");
    let mut command = measured();
    command
        .args(["validate", "samegame", s(&path)])
        .stdout(std::fs::File::create(&out_path).expect("create"))
        .stderr(std::process::Stdio::null());
    let (code, peak_kb) = peak_of(command);
    let shown = std::fs::read_to_string(&out_path).expect("the output");
    assert_eq!(
        shown,
        format!(
            "{}: case {}: line {}: cell 1 holds \"10\" (constraint: each cell holds an integer in the range 0 through 9)\n",
            path.display(),
            VALIDATE_GRIDS + 1,
            12 * VALIDATE_GRIDS + 2
        )
    );
    assert_eq!(code, 3, "an invalid file");
    assert!(
        peak_kb < VALIDATE_PEAK_KB,
        "peak resident memory {peak_kb} KB, over the bound of {VALIDATE_PEAK_KB} KB"
    );
}

/// Grids in the file of the streamed `--validate` test: three chunks of the runner's 4,096
/// cases, and some.
const VALIDATED_GRIDS: usize = 10_000;

/// `run --validate` streams its files too: each case gets the violations in its own lines,
/// also around the chunks' boundaries (a violation on the last line of a chunk's last case,
/// on the first line of the next chunk's first), and no other case gets any.
#[test]
fn a_streamed_file_is_validated_case_by_case_across_its_chunks() {
    // Cases whose selection line (their last) or header (their first) holds a lone carriage
    // return: the lenient parser reads it as a space, the validator flags it (white space
    // byte 0x0d).
    let tab_in_last_line = [1, 4095, 4096, 8192, VALIDATED_GRIDS];
    let tab_in_header = [2, 4097, 8193];
    let mut input = String::new();
    for case in 1..=VALIDATED_GRIDS {
        let header = if tab_in_header.contains(&case) {
            "1 \r1"
        } else {
            "1 1"
        };
        let end = if tab_in_last_line.contains(&case) {
            "0 \r0"
        } else {
            "0 0"
        };
        input.push_str(&format!("{header}\n{}\n1 1\n{end}\n", case % 10));
    }
    input.push_str("0 0\n");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("grids.in");
    std::fs::write(&path, input).unwrap();
    let csv = dir.path().join("r.csv");
    let out = run(&[
        "run",
        s(&path),
        "-g",
        "samegame",
        "--validate",
        "--no-repeat",
        "--quiet",
        "--csv",
        s(&csv),
    ]);
    let mut invalid = Vec::new();
    let mut rows = 0;
    for record in csv::Reader::from_path(&csv).expect("the CSV").records() {
        let record = record.expect("a CSV row");
        rows += 1;
        let case: usize = record[3].parse().unwrap();
        if &record[8] == "error" {
            assert!(
                record[19].contains(&format!("case {case}: invalid input: line "))
                    && record[19].contains("white space byte 0x0d"),
                "{record:?}"
            );
            invalid.push(case);
        } else {
            assert_eq!(&record[8], "unchecked", "{record:?}");
        }
    }
    assert_eq!(rows, VALIDATED_GRIDS);
    let mut expected: Vec<usize> = tab_in_last_line.into_iter().chain(tab_in_header).collect();
    expected.sort();
    assert_eq!(invalid, expected);
    assert_ne!(out.status.code(), Some(0), "invalid cases fail the run");
}
