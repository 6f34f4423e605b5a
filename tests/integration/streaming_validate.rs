//! `validate` streams for every game: a big file is validated a case at a time, in the memory
//! of its biggest case, with the verdict a whole-file reading gives. One big file per line-based
//! game with a terminator (Link and Pop, Vexed), built from copies of a valid bundled file, the
//! expected verdict derived from how the file was built (SameGame's and Yut's big files are in
//! `streaming_check.rs`).

use crate::common;

use std::io::Write;
use std::path::Path;

use common::*;

/// The bound on `validate`'s peak resident memory, in KB: well under the inputs' sizes (about
/// 20 and 25 MB), which a validator of whole files exceeds (it held the input and its lines).
const PEAK_KB: i64 = 16_000;

/// Copies of the bundled Link and Pop `rules` cases (17 cases, 339 bytes): about 20 MB.
const LINKPOP_COPIES: usize = 60_000;
/// Copies of the bundled Vexed traps (6 puzzles, 220 bytes): about 25 MB.
const VEXED_COPIES: usize = 120_000;
/// The statement's limit on Link and Pop cases per file.
const LINKPOP_MAX_CASES: usize = 30;

/// The bundled file `corpora/GAME/NAME.in` without its last line (the terminator).
fn bundled_body(game: &str, name: &str) -> String {
    let path = root().join("corpora").join(game).join(format!("{name}.in"));
    let input = std::fs::read_to_string(path).expect("bundled");
    let body = input
        .trim_end_matches('\n')
        .rsplit_once('\n')
        .expect("cases, then the terminator")
        .0;
    format!("{body}\n")
}

/// Writes `copies` copies of `body`, then `tail`, to `path`, a buffer at a time (the test
/// process keeps no big file whole: a child started by fork counts its parent's pages).
fn write_copies(path: &Path, body: &str, copies: usize, tail: &str) {
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).expect("create"));
    for _ in 0..copies {
        file.write_all(body.as_bytes()).expect("write");
    }
    file.write_all(tail.as_bytes()).expect("write");
    file.flush().expect("flush");
}

/// `validate GAME FILE`: its exit code and report (stdout), under [`PEAK_KB`].
fn validate(game: &str, input: &Path, dir: &Path) -> (i32, String) {
    let size_kb = std::fs::metadata(input).expect("the input").len() / 1024;
    assert!(size_kb as i64 > PEAK_KB, "{game}: {size_kb} KB");
    let report = dir.join("report.txt");
    let mut command = measured();
    command
        .args(["validate", game, s(input)])
        .stdout(std::fs::File::create(&report).expect("create"))
        .stderr(std::process::Stdio::null());
    let (code, peak_kb) = peak_of(command);
    assert!(
        peak_kb < PEAK_KB,
        "{game}: validate: {peak_kb} KB over {PEAK_KB} KB"
    );
    (code, std::fs::read_to_string(&report).expect("the report"))
}

#[test]
fn a_big_link_and_pop_file_is_validated_in_bounded_memory() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let input = dir.path().join("big.in");
    let body = bundled_body("linkpop", "rules");
    write_copies(&input, &body, LINKPOP_COPIES, "0 0\n");
    // A header is the line of two numbers that starts a case (rows hold letters): the 1-based
    // lines where the copies' cases start, in the first two copies.
    let lines: Vec<&str> = body.lines().collect();
    let headers: Vec<usize> = (0..2 * lines.len())
        .filter(|&k| {
            let fields: Vec<&str> = lines[k % lines.len()].split(' ').collect();
            fields.len() == 2 && fields.iter().all(|f| f.bytes().all(|b| b.is_ascii_digit()))
        })
        .map(|k| k + 1)
        .collect();
    assert!(
        headers.len() > LINKPOP_MAX_CASES,
        "two copies pass the limit"
    );
    let first_over = LINKPOP_MAX_CASES + 1;
    let (code, report) = validate("linkpop", &input, dir.path());
    // Every copy is valid alone: the only violation is the case past the limit.
    assert_eq!(
        report,
        format!(
            "{}: case {first_over}: line {}: case {first_over} starts here (constraint: the input contains no more than 30 test cases)\n",
            input.display(),
            headers[first_over - 1]
        )
    );
    assert_eq!(code, 3, "an invalid file");
}

#[test]
fn a_big_vexed_file_is_validated_in_bounded_memory() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let input = dir.path().join("big.in");
    let body = bundled_body("vexed", "traps");
    let puzzles = body
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .count();
    // Every copy is valid; a last puzzle, well formed but unsolvable (two pairs that can
    // never meet), is found by the search after reading the whole file.
    let stuck = "3 4 STUCK\n#AB#\n#BA#\n####\n";
    write_copies(&input, &body, VEXED_COPIES, &format!("{stuck}0 0 END\n"));
    let (code, report) = validate("vexed", &input, dir.path());
    assert_eq!(
        report,
        format!(
            "{}: case {}: line {}: the puzzle has no solution (constraint: every input puzzle is guaranteed to have a solution requiring 11 or fewer moves)\n",
            input.display(),
            VEXED_COPIES * puzzles + 1,
            VEXED_COPIES * body.lines().count() + 1
        )
    );
    assert_eq!(code, 3, "an invalid file");

    // Without the last puzzle: valid, every puzzle counted.
    write_copies(&input, &body, VEXED_COPIES, "0 0 END\n");
    let (code, report) = validate("vexed", &input, dir.path());
    assert_eq!(
        report,
        format!(
            "{}: valid ({} cases)\n",
            input.display(),
            VEXED_COPIES * puzzles
        )
    );
    assert_eq!(code, 0, "a valid file");
}
