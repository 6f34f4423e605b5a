//! Strict validation (`gamebench validate`, `run --validate`): every generated file of every
//! profile and every bundled corpus file is valid, and each statement violation, written by
//! hand below, is rejected with its case, line and constraint.

use gamebench::game::{Budget, Game};
use gamebench::registry;
use gamebench::validate::Validation;
use gamebench_generators::FileId;

use crate::common;
use common::{
    game_folder, gamebench, gen_options, generate, has_option, inputs, results, root, run_stdin,
};

fn game(name: &str) -> &'static dyn Game {
    registry::find(name).unwrap()
}

#[test]
fn every_bundled_corpus_file_is_valid() {
    let mut checked = 0;
    for &game in registry::GAMES {
        for path in inputs(&root().join("corpora").join(game.name())) {
            let validation = game.validate(&std::fs::read(&path).unwrap());
            assert!(
                validation.is_valid(),
                "{}: {:#?}",
                path.display(),
                validation.violations
            );
            assert!(validation.cases >= 1, "{}: no case found", path.display());
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} corpus files");
}

#[test]
fn generated_files_of_every_profile_are_valid() {
    let mut files = 0;
    for &game in registry::GAMES {
        // Few cases per file where the game has the option, so the test stays fast.
        let mut variants: Vec<Vec<&str>> = vec![if has_option(game, "cases") {
            vec!["--cases", "3"]
        } else {
            vec![]
        }];
        if has_option(game, "layout") && game.name() == "samegame" {
            // Only the white space changes: each layout must be valid too.
            for layout in ["canonical", "one-line", "one-per-line", "messy"] {
                variants.push(vec!["--cases", "3", "--layout", layout]);
            }
        }
        for profile in game.generator().profiles() {
            for words in &variants {
                let options = gen_options(game, words);
                for (seed, index) in [(1, 0), (2, 1), (3, 2)] {
                    let text = generate(game, &options, profile.name, seed, index);
                    let validation = game.validate(text.as_bytes());
                    assert!(
                        validation.is_valid(),
                        "{} {} {words:?} seed {seed}: {:#?}",
                        game.name(),
                        profile.name,
                        validation.violations
                    );
                    assert_eq!(
                        validation.cases,
                        game.parse(text.as_bytes(), &gamebench::game::Reading::STATEMENT)
                            .len(),
                        "{} {}: the validator counts the parser's cases",
                        game.name(),
                        profile.name
                    );
                    files += 1;
                }
            }
        }
    }
    assert!(files >= 50, "{files} files");
    // With no option at all: Link and Pop's default of 30 cases is the statement's limit.
    let linkpop = game("linkpop");
    let file = FileId {
        game: "linkpop",
        profile: "random",
        seed: 7,
        index: 0,
    };
    let text = linkpop
        .generator()
        .generate(
            &file,
            &gen_options(linkpop, &[]),
            &gamebench::game::Lent::new("bitboard", Budget::UNLIMITED),
        )
        .unwrap();
    let validation = linkpop.validate(text.as_bytes());
    assert!(validation.is_valid(), "{:#?}", validation.violations);
    assert_eq!(validation.cases, 30);
}

/// Validates `input` and asserts it is rejected with a violation on `line` in case `case`
/// whose text and constraint contain `found` and `constraint`; returns the validation.
#[track_caller]
fn rejects(
    game_name: &str,
    input: &str,
    case: Option<usize>,
    line: usize,
    found: &str,
    constraint: &str,
) -> Validation {
    let validation = game(game_name).validate(input.as_bytes());
    assert!(
        validation.violations.iter().any(|v| v.case == case
            && v.line == line
            && v.found.contains(found)
            && v.constraint.contains(constraint)),
        "{game_name}: wanted case {case:?} line {line} {found:?} / {constraint:?} in\n{input}\ngot {:#?}",
        validation.violations
    );
    validation
}

#[track_caller]
fn accepts(game_name: &str, input: &str) {
    let validation = game(game_name).validate(input.as_bytes());
    assert!(
        validation.is_valid(),
        "{game_name}:\n{input}\n{:#?}",
        validation.violations
    );
}

/// A Link and Pop case: `1 2` / `AS AS`.
const LP_CASE: &str = "1 2\nAS AS\n";

#[test]
fn linkpop_violations() {
    accepts("linkpop", "1 2\nAS AS\n0 0\n");
    accepts("linkpop", "0 0\n");
    accepts("linkpop", &format!("{}0 0\n", LP_CASE.repeat(30)));
    // A 31st case: named at its header line.
    rejects(
        "linkpop",
        &format!("{}0 0\n", LP_CASE.repeat(31)),
        Some(31),
        61,
        "case 31",
        "no more than 30 test cases",
    );
    // The terminator is missing: reported past the last line.
    rejects(
        "linkpop",
        LP_CASE,
        Some(1),
        3,
        "without the line `0 0`",
        "0 0",
    );
    rejects(
        "linkpop",
        "1 2\nAS AS\n0 0\n1 1\nAS\n",
        Some(1),
        4,
        "after `0 0`",
        "0 0",
    );
    // White space: double, leading, trailing spaces, tabs, CRLF, blank lines, no final newline.
    rejects(
        "linkpop",
        "1 2\nAS  AS\n0 0\n",
        Some(1),
        2,
        "two spaces",
        "single spaces",
    );
    rejects(
        "linkpop",
        "1 2\n AS AS\n0 0\n",
        Some(1),
        2,
        "leading space",
        "single spaces",
    );
    rejects(
        "linkpop",
        "1 2\nAS AS \n0 0\n",
        Some(1),
        2,
        "trailing space",
        "single spaces",
    );
    rejects(
        "linkpop",
        "1  2\nAS AS\n0 0\n",
        Some(1),
        1,
        "two spaces",
        "single spaces",
    );
    rejects(
        "linkpop",
        "1 2\nAS AS\n0  0\n",
        Some(1),
        3,
        "two spaces",
        "single spaces",
    );
    rejects(
        "linkpop",
        "1 2\nAS\tAS\n0 0\n",
        Some(1),
        2,
        "a tab",
        "printable ASCII",
    );
    rejects(
        "linkpop",
        "1 2\r\nAS AS\r\n0 0\r\n",
        Some(1),
        1,
        "carriage return",
        "ASCII",
    );
    rejects(
        "linkpop",
        "1 2\nAS AS\n\n0 0\n",
        Some(1),
        3,
        "blank line",
        "no blank lines",
    );
    rejects(
        "linkpop",
        "1 2\nAS AS\n0 0",
        Some(1),
        3,
        "no newline",
        "newline",
    );
    // Sizes, counts, alphabet.
    rejects("linkpop", "31 1\n", Some(1), 1, "31 x 1", "1 <= n, m <= 30");
    rejects(
        "linkpop",
        "1 0\n0 0\n",
        Some(1),
        1,
        "1 x 0",
        "1 <= n, m <= 30",
    );
    rejects(
        "linkpop",
        "01 2\nAS AS\n0 0\n",
        Some(1),
        1,
        "leading zero",
        "2 integers",
    );
    rejects(
        "linkpop",
        &format!("1 {}\n", "9".repeat(5000)),
        Some(1),
        1,
        "5000 bytes",
        "2 integers",
    );
    rejects(
        "linkpop",
        "1 3\nAS AS\n0 0\n",
        Some(1),
        2,
        "2 strings, not m = 3",
        "m strings",
    );
    rejects(
        "linkpop",
        "1 2\nAS aS\n0 0\n",
        Some(1),
        2,
        "\"aS\"",
        "two capital letters",
    );
    rejects(
        "linkpop",
        "1 2\nAS AX\n0 0\n",
        Some(1),
        2,
        "\"AX\"",
        "U, D, L, R, S",
    );
    rejects(
        "linkpop",
        "1 2\nAS ASS\n0 0\n",
        Some(1),
        2,
        "\"ASS\"",
        "two capital",
    );
    rejects(
        "linkpop",
        "2 2\nAS AS\n0 0\n",
        Some(1),
        3,
        "a header",
        "n more lines",
    );
    rejects(
        "linkpop",
        "2 2\nAS AS\n",
        Some(1),
        3,
        "ends after 1 of the 2 rows",
        "n more",
    );
    rejects(
        "linkpop",
        "hello\n0 0\n",
        Some(1),
        1,
        "\"hello\"",
        "2 integers n, m",
    );
}

#[test]
fn samegame_violations() {
    let sample = std::fs::read_to_string(root().join("corpora/samegame/sample.in")).unwrap();
    accepts("samegame", &sample);
    // Line structure is free: one line, tabs, CRLF, no final newline.
    accepts("samegame", "1 2 3 3 1 1 0 0 0 0");
    accepts("samegame", "1\t2\r\n3 3\n\n1 1 0 0\n0 0\n");
    accepts("samegame", "1 2\n3 3\n99999999999999999999999 1 0 0\n0 0\n");
    // Either header value zero terminates.
    accepts("samegame", "1 2 3 3 0 0 0 5\n");
    // The terminator, the pairs' `0 0`, text after the end.
    rejects(
        "samegame",
        "1 2
3 3
0 0
",
        Some(1),
        4,
        "without a header",
        "terminates",
    );
    rejects(
        "samegame",
        "1 2
3 3
1 1
",
        Some(1),
        4,
        "before the pair `0 0`",
        "zeroes",
    );
    accepts("samegame", "1 2\n3 3\n0 5 0 0\n0 0\n");
    rejects(
        "samegame",
        "0 0\n1 1\n",
        None,
        2,
        "\"1\" after",
        "nothing follows",
    );
    rejects(
        "samegame",
        "1 2 3 3 0 0 0\n",
        Some(1),
        1,
        "has no N",
        "terminates",
    );
    // Sizes and values.
    rejects(
        "samegame",
        "11 1\n",
        Some(1),
        1,
        "11 x 1 grid",
        "no more than 10 rows",
    );
    rejects(
        "samegame",
        "1 41\n",
        Some(1),
        1,
        "1 x 41 grid",
        "40 columns",
    );
    rejects(
        "samegame",
        "1 2\n3 10\n0 0\n0 0\n",
        Some(1),
        2,
        "holds \"10\"",
        "0 through 9",
    );
    rejects(
        "samegame",
        "2 2
1 1
1
",
        Some(1),
        4,
        "3 of the 2 x 2",
        "M x N integers",
    );
    // The alphabet of the stream.
    rejects(
        "samegame",
        "1 2\n3 -3\n0 0\n0 0\n",
        Some(1),
        2,
        "\"-3\"",
        "non-negative integers",
    );
    rejects(
        "samegame",
        "1 2\n3 03\n0 0\n0 0\n",
        Some(1),
        2,
        "leading zero",
        "integers",
    );
    rejects(
        "samegame",
        "1 x\n",
        Some(1),
        1,
        "\"x\"",
        "non-negative integers",
    );
    rejects(
        "samegame",
        "1 2\x0b3 3 0 0 0 0\n",
        Some(1),
        1,
        "0x0b",
        "spaces, tabs",
    );
    rejects(
        "samegame",
        "1 2\r3 3 0 0 0 0\n",
        Some(1),
        1,
        "0x0d",
        "line ends",
    );
}

/// A stable, solvable 3x4 Vexed puzzle.
const VX_OK: &str = "3 4 P\n#--#\n#AA#\n####\n";

#[test]
fn vexed_violations() {
    let sample = std::fs::read_to_string(root().join("corpora/vexed/sample.in")).unwrap();
    accepts("vexed", &sample);
    accepts("vexed", "3 5 P\n#A-A#\n#####\n#####\n0 0 END\n");
    accepts("vexed", "2 3  NAME WITH SPACES\n#-#\n###\n0 0\n");
    rejects(
        "vexed",
        "3 4 P\n#A-A#\n",
        Some(1),
        2,
        "5 characters, NC = 4",
        "NC characters",
    );
    rejects(
        "vexed",
        VX_OK,
        Some(1),
        5,
        "without the line `0 0 END`",
        "zero dimensions",
    );
    rejects(
        "vexed",
        &format!("{VX_OK}0 0 END\nx\n"),
        Some(1),
        6,
        "after the end",
        "end",
    );
    rejects(
        "vexed",
        &format!("{VX_OK}0 3 END\n"),
        Some(1),
        5,
        "one zero",
        "zero dimensions",
    );
    // Sizes (the parser takes up to 128 cells: 10 x 10 is the validator's to refuse).
    let big = format!("10 3 BIG\n{}###\n0 0 END\n", "#-#\n".repeat(9));
    rejects("vexed", &big, Some(1), 1, "10 x 3", "1 <= NR, NC <= 9");
    rejects(
        "vexed",
        "3 x P\n",
        Some(1),
        1,
        "expected a header",
        "NR, NC",
    );
    rejects(
        "vexed",
        "3 4\n#--#\n#AA#\n####\n0 0 E\n",
        Some(1),
        1,
        "no name",
        "name",
    );
    rejects(
        "vexed",
        "3 4 P \n#--#\n#AA#\n####\n0 0 E\n",
        Some(1),
        1,
        "trailing",
        "name",
    );
    rejects(
        "vexed",
        "3\t4 P\n#--#\n#AA#\n####\n0 0 E\n",
        Some(1),
        1,
        "a tab",
        "ASCII",
    );
    // Alphabet, walls, stability, solvability.
    rejects(
        "vexed",
        "3 4 P\n#--#\n#Aa#\n####\n0 0 E\n",
        Some(1),
        3,
        "\"a\"",
        "capital letter",
    );
    rejects(
        "vexed",
        "3 4 P\n---#\n#AA#\n####\n0 0 E\n",
        Some(1),
        2,
        "column 0",
        "outer walls",
    );
    rejects(
        "vexed",
        "3 4 P\n#--#\n#AA#\n##-#\n0 0 E\n",
        Some(1),
        4,
        "bottom row",
        "outer walls",
    );
    rejects(
        "vexed",
        "3 4 P\n#A-#\n#-A#\n####\n0 0 E\n",
        Some(1),
        2,
        "nothing under",
        "stable",
    );
    rejects(
        "vexed",
        "3 4 P\n#A-#\n#AB#\n####\n0 0 E\n",
        Some(1),
        2,
        "touch",
        "stable",
    );
    rejects(
        "vexed",
        "3 4 P\n#--#\n#AB#\n####\n0 0 E\n",
        Some(1),
        3,
        "letter B",
        "solution",
    );
    rejects(
        "vexed",
        "3 4 P\n#--#\n\n####\n0 0 E\n",
        Some(1),
        3,
        "0 characters",
        "NC",
    );
    rejects(
        "vexed",
        "3 4 P\r\n#--#\n#AA#\n####\n0 0 E\n",
        Some(1),
        1,
        "carriage",
        "ASCII",
    );
}

#[test]
fn vexed_puzzles_keep_the_promise_of_at_most_11_moves() {
    // Two As, each walled in: nothing can move.
    let stuck = "2 5 STUCK\n#A#A#\n#####\n0 0 END\n";
    rejects(
        "vexed",
        stuck,
        Some(1),
        1,
        "no solution",
        "11 or fewer moves",
    );
    // Three corridors of five open cells between two equal blocks: each push closes a gap
    // by one cell, so the minimum is 3 x 5 = 15 moves.
    let corridors =
        "6 9 LONG\n#A-----A#\n#########\n#B-----B#\n#########\n#C-----C#\n#########\n0 0 END\n";
    rejects(
        "vexed",
        corridors,
        Some(1),
        1,
        "the minimum solution has 15 moves",
        "11 or fewer moves",
    );
    // Two corridors: 10 moves, within the promise.
    accepts(
        "vexed",
        "4 9 TEN\n#A-----A#\n#########\n#B-----B#\n#########\n0 0 END\n",
    );
}

#[test]
fn yut_violations() {
    accepts("yut", "1\nA BFBB\n");
    let hundred: String = "ABCDabcd"
        .chars()
        .cycle()
        .take(100)
        .map(|t| format!("{t} BBBF\n"))
        .collect();
    accepts("yut", &format!("100\n{hundred}"));
    rejects("yut", "", Some(1), 1, "empty", "1 <= N <= 100");
    rejects("yut", "0\n", Some(1), 1, "N = 0", "1 <= N <= 100");
    rejects("yut", "101\n", Some(1), 1, "N = 101", "1 <= N <= 100");
    rejects(
        "yut",
        " 1\nA BFBB\n",
        Some(1),
        1,
        "not a non-negative integer",
        "N",
    );
    rejects("yut", "01\nA BFBB\n", Some(1), 1, "leading zero", "N");
    rejects(
        "yut",
        "2\nA BFBB\n",
        Some(1),
        3,
        "ends after 1 of the N = 2 turns",
        "N lines",
    );
    rejects(
        "yut",
        "1\nA BFBB\nB BFBB\n",
        Some(1),
        3,
        "text after the N = 1 turns",
        "N lines",
    );
    rejects(
        "yut",
        "1\nA BFBB\n\n",
        Some(1),
        3,
        "text after",
        "nothing else",
    );
    rejects("yut", "1\nA  BFBB\n", Some(1), 2, "two spaces", "a space");
    rejects(
        "yut",
        "1\nA BFBB \n",
        Some(1),
        2,
        "trailing space",
        "a space",
    );
    rejects(
        "yut",
        "1\nE BFBB\n",
        Some(1),
        2,
        "turn 1 is \"E BFBB\"",
        "ABCDabcd",
    );
    rejects("yut", "1\nA BFXB\n", Some(1), 2, "turn 1", "B or F");
    rejects(
        "yut",
        "1\nA BFBBB\n",
        Some(1),
        2,
        "turn 1",
        "four characters",
    );
    rejects(
        "yut",
        "1\r\nA BFBB\r\n",
        Some(1),
        1,
        "carriage return",
        "ASCII",
    );
    rejects("yut", "1\nA BFBB", Some(1), 2, "no newline", "newline");
    // A: START + 5 = mo; mo + 5 = sok-mo (mo route); sok-mo + 5 = nal-yut; nal-yut + 2 steps
    // passes cham-meoki and escapes; a fifth move of A breaks the promise.
    let escaped = "5\nA BBBB\nA BBBB\nA BBBB\nA FFBB\nA BFBB\n";
    rejects(
        "yut",
        escaped,
        Some(1),
        6,
        "already escaped",
        "escaped token",
    );
    accepts("yut", "4\nA BBBB\nA BBBB\nA BBBB\nA FFBB\n");
}

#[test]
fn long_garbage_is_quoted_short() {
    let garbage = format!("{}\n", "Z".repeat(1 << 20));
    for &game in registry::GAMES {
        let validation = game.validate(garbage.as_bytes());
        assert!(!validation.is_valid(), "{}", game.name());
        for v in &validation.violations {
            let text = v.to_string();
            assert!(text.len() < 400, "{}: {text}", game.name());
        }
        assert!(
            validation
                .violations
                .iter()
                .any(|v| v.found.contains("1048576 bytes")),
            "{}: {:#?}",
            game.name(),
            validation.violations
        );
    }
}

#[test]
fn a_flood_of_violations_stops_at_the_cap() {
    let input = format!("{}0 0\n", "1 2\nAS  AS\n".repeat(10_000));
    let validation = game("linkpop").validate(input.as_bytes());
    assert_eq!(
        validation.violations.len(),
        gamebench::validate::MAX_VIOLATIONS
    );
    assert!(validation.truncated);
}

// ---- The command line ----

#[test]
fn validate_exits_0_valid_3_invalid_2_unreadable() {
    let dir = tempfile::tempdir().unwrap();
    let good = root().join("corpora/linkpop/linkpop-sample.in");
    let bad = dir.path().join("bad.in");
    std::fs::write(&bad, "1 2\nAS  AS\n").unwrap();
    let out = gamebench()
        .args(["validate", "linkpop"])
        .arg(&good)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("valid (2 cases)"));

    let out = gamebench()
        .args(["validate", "linkpop"])
        .arg(&good)
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let want = format!(
        "{}: case 1: line 2: two spaces in a row at column 3 in \"AS  AS\" (constraint: strings separated by single spaces)",
        bad.display()
    );
    assert!(stdout.contains(&want), "{stdout}");
    assert!(
        stdout.contains("line 3: the input ends without the line `0 0`"),
        "{stdout}"
    );

    let out = gamebench()
        .args(["validate", "linkpop"])
        .arg(dir.path().join("missing.in"))
        .arg(&good)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));

    // A folder is searched for *.in files.
    let out = gamebench()
        .args(["validate", "yut", "-q"])
        .arg(root().join("corpora/yut"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with("102 valid, 0 invalid"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let out = run_stdin(&["validate", "yut"], b"1\nA BFBB\n");
    assert_eq!(out.status.code(), Some(0));
    let out = run_stdin(&["validate", "yut"], b"1\nA BFBB\n\n");
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("<stdin>: case 1: line 3: "));
    let out = run_stdin(&["validate", "nosuchgame"], b"");
    assert_eq!(out.status.code(), Some(2));

    // A report that cannot be written (a full disk) is an error said once, not a panic.
    if std::path::Path::new("/dev/full").exists() {
        let out = gamebench()
            .args(["validate", "linkpop"])
            .arg(&good)
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            stderr.matches("No space left on device").count(),
            1,
            "{stderr}"
        );
        assert!(
            stderr.contains("cannot write the report to stdout"),
            "{stderr}"
        );
    }
}

#[test]
fn run_validate_makes_invalid_cases_errors_and_solves_the_rest() {
    let (dir, corpus) = game_folder("linkpop");
    // Case 1 is valid; case 2 has a double space the lenient parser accepts.
    std::fs::write(corpus.join("f.in"), "1 2\nAS AS\n1 2\nBS  BS\n0 0\n").unwrap();
    let csv = dir.path().join("r.csv");
    let out = gamebench()
        .arg("run")
        .arg(&corpus)
        .args(["--validate", "-q", "--csv"])
        .arg(&csv)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "an error case: exit 2");
    let rows = results(&csv);
    assert_eq!(rows.len(), 2);
    // Solved but compared with nothing (one engine, no --check): unchecked, not ok.
    assert_eq!(rows[0].status, gamebench::status::Status::Unchecked);
    assert_eq!(rows[1].status, gamebench::status::Status::Error);
    assert!(
        rows[1]
            .message
            .contains("case 2: invalid input: line 4: two spaces"),
        "{}",
        rows[1].message
    );
    // Without --validate the lenient parser solves both.
    let out = gamebench()
        .arg("run")
        .arg(&corpus)
        .args(["-q", "--csv"])
        .arg(&csv)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}
