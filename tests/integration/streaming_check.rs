//! `check`, `solve` and `validate` stream: a big file is judged a case at a time, in the memory
//! of its biggest case, with the verdicts, messages and exit codes a whole-file reading gives.
//! One big file per game, built from its bundled files (the expected output derived from the
//! bundled one, not from the code under test).

use crate::common;

use std::io::Write;
use std::path::Path;

use common::*;

/// Copies of the bundled SameGame `throughput` file (2 grids of 10x40, 4.6 KB) in the big
/// file: 2 x 5,000 grids, about 23 MB of input and 8.5 MB of expected output.
const COPIES: usize = 5_000;
/// The bound on `check`'s and `solve`'s peak resident memory, in KB: well under the input's
/// size, which a reader of whole files exceeds (it held the input, the output, the expected
/// output and every case parsed).
const PEAK_KB: i64 = 16_000;

/// The bundled file's blocks (`Grid k.` and what follows, the blank separator dropped).
fn bundled_blocks(out: &str) -> Vec<String> {
    let mut blocks: Vec<String> = Vec::new();
    for line in out.split_inclusive('\n') {
        if line.starts_with("Grid ") {
            blocks.push(String::new());
        }
        blocks.last_mut().expect("a Grid line first").push_str(line);
    }
    for block in &mut blocks {
        if block.ends_with("\n\n") {
            block.pop();
        }
    }
    blocks
}

/// Writes the big input (the bundled grids `COPIES` times, one `0 0` at the end) and its
/// expected output (the bundled blocks renumbered), built from the bundled files alone.
/// Returns the number of grids.
fn write_big(input: &Path, expected: &Path) -> usize {
    let folder = root().join("corpora/samegame");
    let bundled_in = std::fs::read(folder.join("samegame-throughput-1-0.in")).expect("bundled");
    let bundled_out =
        std::fs::read_to_string(folder.join("samegame-throughput-1-0.out")).expect("bundled");
    // The file ends with the `0 0` that closes the input (one number a line).
    let grids_text = bundled_in
        .strip_suffix(b"0\n0\n")
        .expect("the bundled file ends with 0 0");
    let blocks = bundled_blocks(&bundled_out);
    assert_eq!(blocks.len(), 2, "the bundled file's grids");
    let mut file = std::io::BufWriter::new(std::fs::File::create(input).expect("create"));
    for _ in 0..COPIES {
        file.write_all(grids_text).expect("write");
    }
    file.write_all(b"0\n0\n").expect("write");
    file.flush().expect("flush");
    let mut file = std::io::BufWriter::new(std::fs::File::create(expected).expect("create"));
    let grids = COPIES * blocks.len();
    for k in 0..grids {
        if k > 0 {
            file.write_all(b"\n").expect("write");
        }
        let block = &blocks[k % blocks.len()];
        let body = block.split_once('\n').expect("a header line").1;
        write!(file, "Grid {}.\n{body}", k + 1).expect("write");
    }
    file.flush().expect("flush");
    grids
}

/// Whether two files hold the same bytes, read a buffer at a time: the test process keeps no
/// file whole, since a child started by fork counts its parent's pages in its peak memory.
fn same_bytes(a: &Path, b: &Path) -> bool {
    use std::io::Read;
    let open = |p: &Path| std::io::BufReader::new(std::fs::File::open(p).expect("open"));
    let (mut a, mut b) = (open(a).bytes(), open(b).bytes());
    loop {
        match (a.next(), b.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) => {
                if x.expect("read") != y.expect("read") {
                    return false;
                }
            }
            _ => return false,
        }
    }
}

#[test]
fn a_big_file_is_solved_and_checked_in_bounded_memory() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (input, expected) = (dir.path().join("big.in"), dir.path().join("big.out"));
    let grids = write_big(&input, &expected);
    let size_kb = std::fs::metadata(&input).expect("the input").len() / 1024;
    assert!(size_kb as i64 > PEAK_KB, "{size_kb} KB");

    // solve writes the expected output, byte for byte.
    let solved = dir.path().join("solved.out");
    let mut command = measured();
    command
        .args(["solve", "samegame", s(&input)])
        .stdout(std::fs::File::create(&solved).expect("create"))
        .stderr(std::process::Stdio::null());
    let (code, peak_kb) = peak_of(command);
    assert_eq!(code, 0);
    assert!(
        same_bytes(&solved, &expected),
        "solve's output is the renumbered bundled output"
    );
    assert!(peak_kb < PEAK_KB, "solve: {peak_kb} KB over {PEAK_KB} KB");

    // The last grid's answer changed in its last line: one wrong answer, named.
    let actual = dir.path().join("actual.out");
    std::fs::copy(&expected, &actual).expect("copy");
    {
        use std::io::{Read, Seek, SeekFrom};
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&actual)
            .expect("open");
        let at = SeekFrom::End(-2);
        let mut byte = [0u8];
        file.seek(at).expect("seek");
        file.read_exact(&mut byte).expect("read");
        file.seek(at).expect("seek");
        file.write_all(if byte[0] == b'1' { b"2" } else { b"1" })
            .expect("write");
    }
    for expected_args in [&["--expected", s(&expected)][..], &[][..]] {
        let report = dir.path().join("report.txt");
        let mut command = measured();
        command
            .args(["check", "samegame", s(&input), s(&actual)])
            .args(expected_args)
            .stdout(std::fs::File::create(&report).expect("create"))
            .stderr(std::process::Stdio::null());
        let (code, peak_kb) = peak_of(command);
        let report = std::fs::read_to_string(&report).expect("the report");
        let lines: Vec<&str> = report.lines().collect();
        assert_eq!(lines.len(), 2, "{report}");
        assert!(
            lines[0].starts_with(&format!("case {grids}: wrong-answer: line ")),
            "{report}"
        );
        assert_eq!(
            lines[1],
            format!(
                "{} passed, 1 failed (1 wrong answer, 0 presentation error, 0 checker failure)",
                grids - 1
            )
        );
        assert_eq!(code, 1, "a wrong answer");
        assert!(
            peak_kb < PEAK_KB,
            "check {expected_args:?}: {peak_kb} KB over {PEAK_KB} KB"
        );
    }
}

/// Copies of a bundled file's cases in another game's big file (about 20 MB each).
const OTHER_COPIES: usize = 60_000;

/// Solves and checks `input` (whose expected output is `expected`) under [`PEAK_KB`]: check
/// accepts solve's output, both with `--expected` and against the engine, and where answers
/// are unique (`byte_exact`) solve prints the expected output byte for byte.
fn solve_and_check(game: &str, input: &Path, expected: &Path, dir: &Path, byte_exact: bool) {
    let size_kb = std::fs::metadata(input).expect("the input").len() / 1024;
    assert!(size_kb as i64 > PEAK_KB, "{game}: {size_kb} KB");
    let solved = dir.join("solved.out");
    let mut command = measured();
    command
        .args(["solve", game, s(input)])
        .stdout(std::fs::File::create(&solved).expect("create"))
        .stderr(std::process::Stdio::null());
    let (code, peak_kb) = peak_of(command);
    assert_eq!(code, 0, "{game}: solve");
    assert!(
        !byte_exact || same_bytes(&solved, expected),
        "{game}: solve's output"
    );
    assert!(
        peak_kb < PEAK_KB,
        "{game}: solve: {peak_kb} KB over {PEAK_KB} KB"
    );
    for expected_args in [&["--expected", s(expected)][..], &[][..]] {
        let report = dir.join("report.txt");
        let mut command = measured();
        command
            .args(["check", game, s(input), s(expected)])
            .args(expected_args)
            .stdout(std::fs::File::create(&report).expect("create"))
            .stderr(std::process::Stdio::null());
        let (code, peak_kb) = peak_of(command);
        let report = std::fs::read_to_string(&report).expect("the report");
        assert!(
            report.ends_with(
                " passed, 0 failed (0 wrong answer, 0 presentation error, 0 checker failure)\n"
            ),
            "{game}: {report}"
        );
        assert_eq!(code, 0, "{game}: check {expected_args:?}");
        assert!(
            peak_kb < PEAK_KB,
            "{game}: check {expected_args:?}: {peak_kb} KB over {PEAK_KB} KB"
        );
    }
}

/// The bundled file `corpora/GAME/NAME.in` without its last line (the terminator), and its
/// expected output.
fn bundled(game: &str, name: &str) -> (String, String) {
    let folder = root().join("corpora").join(game);
    let input = std::fs::read_to_string(folder.join(format!("{name}.in"))).expect("bundled");
    let output = std::fs::read_to_string(folder.join(format!("{name}.out"))).expect("bundled");
    let body = input
        .trim_end_matches('\n')
        .rsplit_once('\n')
        .expect("cases, then the terminator")
        .0
        .to_string();
    (body + "\n", output)
}

/// Copies of the bundled Vexed traps (220 bytes) in the big Vexed file (about 26 MB).
const VEXED_COPIES: usize = 120_000;

#[test]
fn big_link_and_pop_and_vexed_files_are_solved_and_checked_in_bounded_memory() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (input, expected) = (dir.path().join("big.in"), dir.path().join("big.out"));

    // Link and Pop numbers its blocks `Case k`: the bundled blocks renumbered.
    let (cases, output) = bundled("linkpop", "rules");
    assert!(cases.ends_with("S\n"), "the terminator `0 0` taken off");
    let mut blocks: Vec<String> = Vec::new();
    for line in output.split_inclusive('\n') {
        if line.starts_with("Case ") {
            blocks.push(String::new());
        } else {
            blocks.last_mut().expect("a Case line first").push_str(line);
        }
    }
    let mut file = std::io::BufWriter::new(std::fs::File::create(&input).expect("create"));
    let mut out = std::io::BufWriter::new(std::fs::File::create(&expected).expect("create"));
    for copy in 0..OTHER_COPIES {
        file.write_all(cases.as_bytes()).expect("write");
        for (k, block) in blocks.iter().enumerate() {
            write!(out, "Case {}\n{block}", copy * blocks.len() + k + 1).expect("write");
        }
    }
    file.write_all(b"0 0\n").expect("write");
    file.flush().expect("flush");
    out.flush().expect("flush");
    drop((file, out));
    solve_and_check("linkpop", &input, &expected, dir.path(), true);

    // Vexed names its puzzles: the bundled output repeated.
    let (puzzles, output) = bundled("vexed", "traps");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&input).expect("create"));
    let mut out = std::io::BufWriter::new(std::fs::File::create(&expected).expect("create"));
    for _ in 0..VEXED_COPIES {
        file.write_all(puzzles.as_bytes()).expect("write");
        out.write_all(output.as_bytes()).expect("write");
    }
    file.write_all(b"0 0 END\n").expect("write");
    file.flush().expect("flush");
    out.flush().expect("flush");
    drop((file, out));
    // Any minimum solution is right: the engine's may differ from the bundled one.
    solve_and_check("vexed", &input, &expected, dir.path(), false);
}

/// Blank lines after a Yut game's turns (the parser allows them; the validator reports the
/// first): about 20 MB.
const YUT_BLANK_LINES: usize = 20_000_000;

#[test]
fn a_big_yut_file_is_solved_checked_and_validated_in_bounded_memory() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (input, expected) = (dir.path().join("big.in"), dir.path().join("big.out"));
    let folder = root().join("corpora/yut");
    let game = std::fs::read(folder.join("yut-sample1.in")).expect("bundled");
    let turns = game.iter().filter(|&&b| b == b'\n').count() - 1;
    let mut file = std::io::BufWriter::new(std::fs::File::create(&input).expect("create"));
    file.write_all(&game).expect("write");
    for _ in 0..YUT_BLANK_LINES {
        file.write_all(b"\n").expect("write");
    }
    file.flush().expect("flush");
    drop(file);
    std::fs::copy(folder.join("yut-sample1.out"), &expected).expect("copy");
    solve_and_check("yut", &input, &expected, dir.path(), true);

    let report = dir.path().join("report.txt");
    let mut command = measured();
    command
        .args(["validate", "yut", s(&input)])
        .stdout(std::fs::File::create(&report).expect("create"))
        .stderr(std::process::Stdio::null());
    let (code, peak_kb) = peak_of(command);
    let report = std::fs::read_to_string(&report).expect("the report");
    assert_eq!(
        report,
        format!(
            "{}: case 1: line {}: text after the N = {turns} turns: \"\" (constraint: N lines of turns follow the first line, and nothing else)\n",
            input.display(),
            turns + 2
        )
    );
    assert_eq!(code, 3, "an invalid file");
    assert!(
        peak_kb < PEAK_KB,
        "yut: validate: {peak_kb} KB over {PEAK_KB} KB"
    );
}

#[test]
fn an_output_line_or_block_too_long_to_hold_is_a_wrong_answer_and_the_expected_an_error() {
    // The bundled hand-made SameGame file (10 grids): its first block, then a 2 MB line (over
    // the 1 MiB a line may have), or then 20 MB of short lines (over the 16 MiB a block may
    // have). The team's output: a wrong answer from that case on, naming the line; the same
    // in the expected output: the judge's file is unreadable (exit 2).
    let dir = tempfile::tempdir().expect("a temporary folder");
    let folder = root().join("corpora/samegame");
    let (input, good) = (folder.join("hand-rules.in"), folder.join("hand-rules.out"));
    let bundled = std::fs::read(&good).expect("bundled");
    let first = &bundled[..bundled
        .windows(2)
        .position(|w| w == b"\n\n")
        .expect("a blank line after the first block")
        + 1];
    let first_lines = first.iter().filter(|&&b| b == b'\n').count();
    // Written a few KB at a time: the children's peaks (`wait4`) include this process's peak
    // at the time they are spawned, and other tests of this file measure theirs.
    let line = dir.path().join("line.out");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&line).expect("create"));
    file.write_all(first).expect("write");
    for _ in 0..(2 << 20) / 1024 {
        file.write_all(&[b'x'; 1024]).expect("write");
    }
    file.write_all(b"\n").expect("write");
    file.flush().expect("flush");
    let block = dir.path().join("block.out");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&block).expect("create"));
    file.write_all(first).expect("write");
    let mut short = [b'y'; 100];
    short[99] = b'\n';
    for _ in 0..200_000 {
        file.write_all(&short).expect("write");
    }
    file.flush().expect("flush");
    drop(file);
    // The first line of 100 bytes that takes the block (its first lines, then these) past
    // 16 MiB.
    let over = first_lines + ((16 << 20) - first.len()) / 100 + 1;
    for (output, why) in [
        (
            &line,
            format!("line {}: a line longer than 1048576 bytes", first_lines + 1),
        ),
        (
            &block,
            format!("line {over}: a block longer than 16777216 bytes"),
        ),
    ] {
        let out = run(&[
            "check",
            "samegame",
            s(&input),
            s(output),
            "--expected",
            s(&good),
        ]);
        let said = text_of(&out);
        assert_eq!(out.status.code(), Some(1), "{said}");
        assert!(
            said.contains(&format!(
                "case 1: wrong-answer: {}: {why}",
                output.display()
            )),
            "{said}"
        );
        assert!(
            said.contains("case 2: wrong-answer: the output has no block"),
            "{said}"
        );
        assert!(
            said.contains("0 passed, 10 failed (10 wrong answer"),
            "{said}"
        );
        let out = run(&[
            "check",
            "samegame",
            s(&input),
            s(&good),
            "--expected",
            s(output),
        ]);
        assert_exit_saying(&out, 2, &why);
    }
}

/// What a command printed, stdout then stderr.
fn text_of(out: &std::process::Output) -> String {
    format!("{}{}", text(&out.stdout), text(&out.stderr))
}
