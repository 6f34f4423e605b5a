//! Interop with judges and CI: `check --exit-codes testlib|kattis` (testlib's 0/1/2/3 with the
//! answer as the third path; the Kattis/DOMjudge output validator's 42/43 with the team output
//! on stdin and `judgemessage.txt` in the feedback folder), the default codes unchanged, and
//! the JUnit XML of `run --junit` and `invoke --junit` checked against `tests/data/junit.xsd`
//! with `xmllint` (when installed) and read back with quick-xml (always).
//!
//! The outputs are the statement's Link and Pop sample (`corpora/linkpop/linkpop-sample.*`)
//! and edits of it made by hand: one board cell changed (a wrong answer), a space before a
//! line's end (a presentation error: Link and Pop's output has no spaces, so white space alone
//! is layout).

use std::path::{Path, PathBuf};

use quick_xml::events::Event;

use crate::common;
use common::{assert_exit, root, run_stdin, s, text};

const INPUT: &str = "corpora/linkpop/linkpop-sample.in";
const ANSWER: &str = "corpora/linkpop/linkpop-sample.out";

use common::run_from_root as gamebench;

/// The sample's expected output, and two edits of it in `dir`: (accepted, wrong, presentation).
fn outputs(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let answer = std::fs::read_to_string(root().join(ANSWER)).unwrap();
    // The first board line after `Case 1`: one cell changed.
    let mut lines: Vec<String> = answer.lines().map(String::from).collect();
    let row = &mut lines[1];
    let flipped = if row.starts_with('.') { "Z" } else { "." };
    row.replace_range(0..1, flipped);
    let wrong = lines.join("\n") + "\n";
    let presentation = answer.replacen('\n', " \n", 2);
    let paths = (dir.join("ok.out"), dir.join("wa.out"), dir.join("pe.out"));
    std::fs::write(&paths.0, &answer).unwrap();
    std::fs::write(&paths.1, wrong).unwrap();
    std::fs::write(&paths.2, presentation).unwrap();
    paths
}

#[test]
fn testlib_exit_codes_are_0_1_2_3() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, wa, pe) = outputs(dir.path());
    let testlib = |output: &Path, answer: &str| {
        gamebench(&[
            "check",
            "linkpop",
            INPUT,
            s(output),
            answer,
            "--exit-codes",
            "testlib",
        ])
    };
    assert_exit(&testlib(&ok, ANSWER), 0);
    assert_exit(&testlib(&wa, ANSWER), 1);
    assert_exit(&testlib(&pe, ANSWER), 2);
    // FAIL: the answer file is missing, or is not a well-formed answer.
    assert_exit(&testlib(&ok, "/nonexistent/answer"), 3);
    let malformed = dir.path().join("bad.ans");
    std::fs::write(&malformed, "Case 1\nnot a board\n").unwrap();
    assert_exit(&testlib(&ok, s(&malformed)), 3);
    // Without the answer, the reference engine's output is the answer.
    let out = gamebench(&["check", "linkpop", INPUT, s(&wa), "--exit-codes", "testlib"]);
    assert_exit(&out, 1);
    // gamebench's own codes are unchanged: 0, 1, 4, 5.
    let own = |output: &Path, answer: &Path| {
        gamebench(&[
            "check",
            "linkpop",
            INPUT,
            s(output),
            "--expected",
            s(answer),
        ])
    };
    let answer = root().join(ANSWER);
    assert_exit(&own(&ok, &answer), 0);
    assert_exit(&own(&wa, &answer), 1);
    assert_exit(&own(&pe, &answer), 4);
    assert_exit(&own(&ok, &malformed), 5);
    // A fourth path without a convention is refused.
    let out = gamebench(&["check", "linkpop", INPUT, s(&ok), ANSWER]);
    assert_exit(&out, 2);
}

#[test]
fn kattis_exit_codes_are_42_and_43_with_a_judge_message() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, wa, pe) = outputs(dir.path());
    let feedback = dir.path().join("feedback");
    std::fs::create_dir(&feedback).unwrap();
    let kattis = |team: &Path| {
        run_stdin(
            &[
                "check",
                "linkpop",
                s(&root().join(INPUT)),
                s(&root().join(ANSWER)),
                s(&feedback),
                "--exit-codes",
                "kattis",
            ],
            &std::fs::read(team).unwrap(),
        )
    };
    let message = || std::fs::read_to_string(feedback.join("judgemessage.txt")).unwrap();
    assert_exit(&kattis(&ok), 42);
    assert!(message().contains("0 failed"), "{}", message());
    assert_exit(&kattis(&wa), 43);
    assert!(message().contains("case 1: wrong-answer"), "{}", message());
    // Kattis has no presentation error: it is wrong.
    assert_exit(&kattis(&pe), 43);
    assert!(message().contains("presentation-error"), "{}", message());
    // No feedback folder: a usage error, neither 42 nor 43.
    let out = run_stdin(
        &[
            "check",
            "linkpop",
            s(&root().join(INPUT)),
            s(&root().join(ANSWER)),
            "--exit-codes",
            "kattis",
        ],
        b"",
    );
    assert_exit(&out, 2);
    assert!(text(&out.stderr).contains("FEEDBACK_DIR"));
}

/// testlib's whole calling convention, as Polygon and ejudge call a checker: `checker input
/// output answer result_file -appes`: the codes 0/1/2/3, the result file's XML outcome, a
/// checker failure printed as `FAIL`, and argument errors as FAIL (3), never 2 (testlib's
/// presentation error).
#[test]
fn testlib_result_file_and_appes_are_honoured() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, wa, pe) = outputs(dir.path());
    let result = dir.path().join("result.xml");
    let testlib = |output: &Path, answer: &str, extra: &[&str]| {
        let mut args = vec!["check", "linkpop", INPUT, s(output), answer];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--exit-codes", "testlib"]);
        gamebench(&args)
    };
    let outcome = || std::fs::read_to_string(&result).unwrap();
    for (output, code, name) in [
        (&ok, 0, "accepted"),
        (&wa, 1, "wrong-answer"),
        (&pe, 2, "presentation-error"),
    ] {
        let out = testlib(output, ANSWER, &[s(&result), "-appes"]);
        assert_exit(&out, code);
        let xml = outcome();
        assert!(
            xml.starts_with(
                "<?xml version=\"1.0\" encoding=\"windows-1251\"?><result outcome = \""
            ),
            "{xml}"
        );
        assert!(xml.contains(&format!("outcome = \"{name}\">")), "{xml}");
        assert!(xml.trim_end().ends_with("</result>"), "{xml}");
    }
    // Without -appes: testlib's plain `VERDICT message`.
    let out = testlib(&wa, ANSWER, &[s(&result)]);
    assert_exit(&out, 1);
    assert!(
        outcome().starts_with("wrong answer case 1: "),
        "{}",
        outcome()
    );
    // A malformed answer: FAIL, printed as FAIL.
    let malformed = dir.path().join("bad.ans");
    std::fs::write(&malformed, "Case 1\nnot a board\n").unwrap();
    let out = testlib(&ok, s(&malformed), &[s(&result), "-appes"]);
    assert_exit(&out, 3);
    assert!(
        text(&out.stdout).contains("case 1: FAIL: "),
        "{}",
        text(&out.stdout)
    );
    assert!(outcome().contains("outcome = \"fail\">"), "{}", outcome());
    // Argument errors are testlib's FAIL (3): one argument too many, a missing output, an
    // unknown option.
    let out = testlib(&ok, ANSWER, &[s(&result), "-appes", "more"]);
    assert_exit(&out, 3);
    assert!(
        text(&out.stderr).starts_with("FAIL "),
        "{}",
        text(&out.stderr)
    );
    let out = gamebench(&["check", "linkpop", INPUT, "--exit-codes", "testlib"]);
    assert_exit(&out, 3);
    let out = testlib(&ok, ANSWER, &["--no-such-option"]);
    assert_exit(&out, 3);
    // gamebench's own convention still refuses a fourth path with 2.
    let out = gamebench(&["check", "linkpop", INPUT, s(&ok), ANSWER, s(&result)]);
    assert_exit(&out, 2);
}

/// Kattis's and DOMjudge's whole convention: the output validator's flags after the feedback
/// folder are accepted (and the game's checker decides): 42, 43, and a presentation error 43.
#[test]
fn kattis_validator_flags_are_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, wa, pe) = outputs(dir.path());
    let feedback = dir.path().join("feedback");
    std::fs::create_dir(&feedback).unwrap();
    let kattis = |team: &Path| {
        run_stdin(
            &[
                "check",
                "linkpop",
                s(&root().join(INPUT)),
                s(&root().join(ANSWER)),
                s(&feedback),
                "--exit-codes",
                "kattis",
                "case_sensitive",
                "space_change_sensitive",
            ],
            &std::fs::read(team).unwrap(),
        )
    };
    assert_exit(&kattis(&ok), 42);
    assert_exit(&kattis(&wa), 43);
    assert_exit(&kattis(&pe), 43);
    // An unknown option is a judge error: neither 42 nor 43.
    let out = run_stdin(
        &[
            "check",
            "linkpop",
            s(&root().join(INPUT)),
            "--exit-codes",
            "kattis",
            "--bad",
        ],
        b"",
    );
    let code = out.status.code().unwrap();
    assert!(code != 42 && code != 43, "{code}");
}

/// Test cases of a JUnit document, read back with quick-xml: (element path of each
/// testcase's outcome, name, outcome type); checks that every element is closed and that the
/// suites' counts are their cases'.
fn read_junit(xml: &str) -> Vec<(String, Option<String>)> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut cases: Vec<(String, Option<String>)> = Vec::new();
    let mut stack: Vec<String> = Vec::new();
    let mut suite_counts: Vec<(usize, usize, usize)> = Vec::new();
    let attr = |e: &quick_xml::events::BytesStart<'_>, name: &str| {
        e.attributes()
            .map(|a| a.unwrap())
            .find(|a| AsRef::<str>::as_ref(&a.key) == name)
            .map(|a| {
                a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                    .unwrap()
                    .into_owned()
            })
    };
    let tag = |e: &quick_xml::events::BytesStart<'_>| AsRef::<str>::as_ref(&e.name()).to_string();
    loop {
        match reader.read_event().unwrap() {
            Event::Start(e) | Event::Empty(e) if tag(&e) == "testsuite" => {
                let n = |k| attr(&e, k).unwrap().parse::<usize>().unwrap();
                suite_counts.push((n("tests"), n("failures"), n("errors")));
                stack.push("testsuite".into());
            }
            Event::Start(e) => {
                let name = tag(&e);
                if name == "testcase" {
                    cases.push((attr(&e, "name").unwrap(), None));
                } else if name == "failure" || name == "error" {
                    assert_eq!(stack.last().map(String::as_str), Some("testcase"));
                    cases.last_mut().unwrap().1 = Some(name.clone());
                }
                stack.push(name);
            }
            Event::Empty(e) if tag(&e) == "testcase" => {
                cases.push((attr(&e, "name").unwrap(), None));
            }
            Event::End(_) => {
                stack.pop();
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert!(stack.is_empty(), "unclosed elements: {stack:?}");
    let (tests, failures, errors) = suite_counts
        .iter()
        .fold((0, 0, 0), |a, c| (a.0 + c.0, a.1 + c.1, a.2 + c.2));
    assert_eq!(tests, cases.len());
    let count = |what: &str| {
        cases
            .iter()
            .filter(|c| c.1.as_deref() == Some(what))
            .count()
    };
    assert_eq!(failures, count("failure"));
    assert_eq!(errors, count("error"));
    cases
}

/// Validates `xml` against the schema with xmllint, when it is installed.
fn xmllint(xml: &Path) {
    let schema = root().join("tests/data/junit.xsd");
    match std::process::Command::new("xmllint")
        .args(["--noout", "--schema", s(&schema), s(xml)])
        .output()
    {
        Ok(out) => assert!(
            out.status.success(),
            "xmllint: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        ),
        Err(_) => eprintln!("skipped: no xmllint (apt-get install libxml2-utils)"),
    }
}

#[test]
fn run_junit_has_a_test_case_per_file_case_and_engine_and_validates() {
    let dir = tempfile::tempdir().unwrap();
    let xml = dir.path().join("run.xml");
    let out = gamebench(&[
        "run",
        "corpora/linkpop/rules.in",
        "--game",
        "linkpop",
        "-e",
        "reference",
        "-e",
        "pos=cmd:python3 tests/wrong/linkpop_position_first.py",
        "--check",
        "--quiet",
        "--junit",
        s(&xml),
    ]);
    // The wrong solution fails somewhere: exit 1.
    assert_exit(&out, 1);
    xmllint(&xml);
    let body = std::fs::read_to_string(&xml).unwrap();
    let cases = read_junit(&body);
    // rules.in holds 17 cases (corpora/linkpop/README.md), run by two engines.
    assert_eq!(cases.len(), 17 * 2);
    assert!(cases.iter().any(|c| c.1.as_deref() == Some("failure")));
    assert!(body.contains("classname=\"gamebench.linkpop.reference\""));
    assert!(body.contains("type=\"mismatch (wrong-answer)\""), "{body}");
}

#[test]
fn invoke_junit_validates_and_escapes_messages() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("linkpop");
    std::fs::create_dir(&folder).unwrap();
    std::fs::copy(root().join(INPUT), folder.join("t.in")).unwrap();
    std::fs::copy(root().join(ANSWER), folder.join("t.out")).unwrap();
    let xml = dir.path().join("invoke.xml");
    // A solution whose message holds markup and quotes: it prints `<&"'>` to stderr and fails.
    let out = gamebench(&[
        "invoke",
        s(&folder),
        "-e",
        "reference",
        "-e",
        "bad=cmd:echo '<&\"x\">' >&2; exit 3",
        "--expect",
        "reference=main",
        "--junit",
        s(&xml),
    ]);
    assert_exit(&out, 0);
    xmllint(&xml);
    let body = std::fs::read_to_string(&xml).unwrap();
    let cases = read_junit(&body);
    // Each test x solution (the sample's 2 cases, 2 solutions), plus the main solution's tag
    // case; the untagged failing solution's cases are failures.
    assert_eq!(cases.len(), 2 * 2 + 1, "{body}");
    assert_eq!(
        cases
            .iter()
            .filter(|c| c.1.as_deref() == Some("failure"))
            .count(),
        2,
        "{body}"
    );
    assert!(body.contains("&lt;&amp;&quot;x&quot;&gt;"), "{body}");
}
