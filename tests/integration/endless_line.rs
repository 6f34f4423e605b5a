//! A line past the bound on a line's length (`validate::MAX_LINE_BYTES`) is an error naming it,
//! never a line held whole. A file of its own: a child's peak resident memory (`wait4`)
//! includes the peak of the test process it was spawned from, so no other test of this
//! process may hold much memory (the CSV of a million rows another test reads would).

use crate::common;

use std::io::Write;

use common::*;

/// Bytes of the endless line in the test below: far past the bound on a line
/// (`validate::MAX_LINE_BYTES`, 1 MiB).
const ENDLESS_LINE_BYTES: usize = 64 << 20;

/// A line past the bound on a line's length is a read error naming it, for `run`, `validate`
/// and `solve`, and is never held whole: the cases before it still run, and the peak memory
/// stays far below the line's size.
#[test]
fn an_endless_line_is_an_error_naming_it_not_a_line_held_whole() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("long.in");
    // Written a megabyte at a time, for the same reason as this file is apart (module docs).
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    file.write_all(b"1 4\nCR AS AS DL\n4 1\n").unwrap();
    let piece = vec![b'C'; 1 << 20];
    for _ in 0..ENDLESS_LINE_BYTES / piece.len() {
        file.write_all(&piece).unwrap();
    }
    file.write_all(b"\nAS\nAS\nDU\n0 0\n").unwrap();
    file.flush().unwrap();
    let bound_kb = (ENDLESS_LINE_BYTES / 1024 / 4) as i64;
    let csv = dir.path().join("r.csv");
    let mut command = measured();
    command
        .args([
            "run",
            s(&path),
            "-g",
            "linkpop",
            "--no-repeat",
            "-q",
            "--csv",
        ])
        .arg(&csv)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let (code, peak_kb) = peak_of(command);
    assert_eq!(code, 2, "a case in error");
    assert!(peak_kb < bound_kb, "run: {peak_kb} KB");
    let rows = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = rows.lines().skip(1).collect();
    assert!(rows[0].contains(",1,1,,1x4,4,unchecked,"), "{}", rows[0]);
    let last = rows.last().unwrap();
    assert!(
        last.contains("line 4: cannot read the input: a line longer than 1048576 bytes"),
        "{last}"
    );

    let mut command = measured();
    command
        .args(["validate", "linkpop", s(&path)])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let (code, peak_kb) = peak_of(command);
    assert_eq!(code, 2, "an unreadable file");
    assert!(peak_kb < bound_kb, "validate: {peak_kb} KB");
    let out = run(&["validate", "linkpop", s(&path)]);
    let err = text(&out.stderr);
    assert!(
        err.contains("line 4: a line longer than 1048576 bytes"),
        "{err}"
    );
}
