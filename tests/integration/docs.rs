//! Every command shown in README.md and docs/*.md runs, so the documentation cannot drift from
//! the tool.
//!
//! The convention (for every page, whoever writes it):
//! - In a ```` ```console ```` block, a line starting with `$ ` is a command, run by `sh -c`
//!   with the built `gamebench` first on PATH, in a temporary folder holding copies of the
//!   repository's `corpora/` and `tests/` (so a command writes only there). A page's commands
//!   run in order in one folder, so a later command may read what an earlier one wrote.
//! - The command must exit with 0, or with the code of an `# exit N` comment that ends its line.
//! - The lines after a command, up to the next command or the end of the block, are its shown
//!   output. A shown line without digits (wording, table headers) must appear, blanks
//!   collapsed, in what the command printed (stdout or stderr); lines with digits (times,
//!   counts) and lines holding `...` are not compared.
//! - ```` ```text ```` blocks are not run: commands that need Slurm, a browser, minutes, or a
//!   build (`cargo ...`) go there.
//! - A ```` ```sh ````, ```` ```bash ```` or ```` ```shell ```` block must not name `gamebench`,
//!   nor may a block without a language start a line with it (it would escape this test).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Longest a documented command may take: the docs show quick commands only.
const COMMAND_LIMIT: Duration = Duration::from_secs(30);

/// The whole test's budget (every page).
const TOTAL_LIMIT: Duration = Duration::from_secs(60);

/// The folders every page's commands may read, copied into its working folder.
const COPIED: [&str; 2] = ["corpora", "tests"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every docs/*.md, sorted.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    if let Ok(entries) = std::fs::read_dir(root().join("docs")) {
        let mut docs: Vec<PathBuf> = entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .collect();
        docs.sort();
        pages.extend(docs);
    }
    pages
}

/// One documented command: where it is, what it runs, the exit code and output it shows.
#[derive(Debug, Clone, PartialEq)]
struct Shown {
    line: usize,
    command: String,
    exit: i32,
    output: Vec<String>,
}

/// A fenced block's language and where a line of it is.
#[derive(Debug, Default)]
struct Page {
    commands: Vec<Shown>,
    /// Lines of sh/bash/shell blocks that name gamebench.
    escaped: Vec<usize>,
    /// A fence left open at the end.
    unclosed: Option<usize>,
}

/// Reads the commands of a page (see the module doc).
fn parse(text: &str) -> Page {
    let mut page = Page::default();
    let mut block: Option<(String, usize)> = None;
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            block = match block {
                None => Some((info.trim().to_string(), number)),
                Some(_) => None,
            };
            continue;
        }
        let Some((language, _)) = &block else {
            continue;
        };
        match language.as_str() {
            "console" => {
                if let Some(command) = trimmed.strip_prefix("$ ") {
                    let (command, exit) = split_exit(command);
                    page.commands.push(Shown {
                        line: number,
                        command,
                        exit,
                        output: Vec::new(),
                    });
                } else if let Some(last) = page.commands.last_mut() {
                    last.output.push(line.to_string());
                }
            }
            "sh" | "bash" | "shell" | "zsh" if line.contains("gamebench") => {
                page.escaped.push(number)
            }
            // A block without a language showing a command would escape too.
            "" if trimmed.starts_with("$ gamebench") || trimmed.starts_with("gamebench ") => {
                page.escaped.push(number)
            }
            _ => {}
        }
    }
    page.unclosed = block.map(|(_, line)| line);
    page
}

/// A command and the exit code its `# exit N` comment states (0 without one).
fn split_exit(command: &str) -> (String, i32) {
    if let Some(at) = command.rfind("# exit ")
        && let Ok(code) = command[at + "# exit ".len()..].trim().parse()
    {
        return (command[..at].trim_end().to_string(), code);
    }
    (command.trim_end().to_string(), 0)
}

fn collapse(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The shown lines that are compared with the output (see the module doc).
fn compared(output: &[String]) -> Vec<String> {
    output
        .iter()
        .map(|l| collapse(l))
        .filter(|l| !l.is_empty() && !l.contains("...") && !l.chars().any(|c| c.is_ascii_digit()))
        .collect()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let kind = entry.file_type().unwrap();
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_dir(&entry.path(), &target);
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Runs one command in `dir`; its exit code and everything it printed.
fn execute(command: &str, dir: &Path) -> Result<(i32, String), String> {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_gamebench"));
    let path = std::env::join_paths(std::iter::once(bin.parent().unwrap().to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let out_file = dir.join(".docs-test-output");
    let out = std::fs::File::create(&out_file).unwrap();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(out.try_clone().unwrap())
        .stderr(out)
        .spawn()
        .map_err(|e| format!("cannot start sh: {e}"))?;
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > COMMAND_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {COMMAND_LIMIT:?}"));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let printed = String::from_utf8_lossy(&std::fs::read(&out_file).unwrap()).into_owned();
    std::fs::remove_file(&out_file).unwrap();
    Ok((status.code().unwrap_or(-1), printed))
}

#[test]
fn every_documented_command_runs_as_shown() {
    let start = Instant::now();
    let mut failures = Vec::new();
    let mut ran = 0;
    for page in pages() {
        let name = page.strip_prefix(root()).unwrap().display().to_string();
        let parsed = parse(&std::fs::read_to_string(&page).unwrap());
        for line in &parsed.escaped {
            failures.push(format!(
                "{name}:{line}: a gamebench command in a sh/bash/shell block: use ```console (run by this test) or ```text (not runnable here)"
            ));
        }
        if let Some(line) = parsed.unclosed {
            failures.push(format!("{name}:{line}: a code block is not closed"));
        }
        if parsed.commands.is_empty() {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        for folder in COPIED {
            copy_dir(&root().join(folder), &dir.path().join(folder));
        }
        for shown in &parsed.commands {
            ran += 1;
            let at = format!("{name}:{}: `{}`", shown.line, shown.command);
            match execute(&shown.command, dir.path()) {
                Err(why) => failures.push(format!("{at}: {why}")),
                Ok((code, printed)) => {
                    if code != shown.exit {
                        failures.push(format!(
                            "{at}: exit {code}, the page says {} (add `# exit {code}` if that is meant)\n{printed}",
                            shown.exit
                        ));
                        continue;
                    }
                    let actual: Vec<String> = printed.lines().map(collapse).collect();
                    for line in compared(&shown.output) {
                        if !actual.iter().any(|a| a.contains(&line)) {
                            failures.push(format!(
                                "{at}: the shown line {line:?} is not in its output:\n{printed}"
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(ran > 0, "no documented command found");
    assert!(
        start.elapsed() < TOTAL_LIMIT,
        "the documented commands took {:?}: keep the docs' examples quick",
        start.elapsed()
    );
}

#[test]
fn the_convention_is_read_as_documented() {
    let page = parse(
        "text\n```console\n$ gamebench list\nyut   a b\n$ gamebench run x # exit 2\n```\n\
         ```text\n$ gamebench run --shard 1/64 big\n```\n```sh\ngamebench run y\n```\n```\n$ gamebench list\n```\n```console\n",
    );
    assert_eq!(
        page.commands,
        vec![
            Shown {
                line: 3,
                command: "gamebench list".into(),
                exit: 0,
                output: vec!["yut   a b".into()]
            },
            Shown {
                line: 5,
                command: "gamebench run x".into(),
                exit: 2,
                output: vec![]
            },
        ]
    );
    assert_eq!(page.escaped, vec![11, 14]);
    assert_eq!(page.unclosed, Some(16));
    assert_eq!(
        compared(&[
            "game  engine   cases".into(),
            "yut   table    3".into(),
            "...".into(),
            "".into()
        ]),
        vec!["game engine cases".to_string()]
    );
}

#[test]
fn the_readme_is_a_guide_that_links_to_the_reference() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines < 300,
        "README.md has {lines} lines: the reference belongs in docs/"
    );
    // One build: the locked versions (as the tests ran) in the shipped profile, then the
    // installed binary, not a `cargo run --release` that would build everything a second time.
    assert!(
        readme.contains("cargo install --locked --profile dist --path ."),
        "no locked install line"
    );
    assert!(
        readme.contains("\ngamebench run corpora --check"),
        "the first result is not from the installed binary"
    );
    assert!(
        !readme.contains("cargo run --release -- run corpora"),
        "a first result that builds again"
    );
    assert!(
        readme.contains("cargo test --release --workspace"),
        "no test command"
    );
    // Every relative link of the README names a file that exists.
    for (i, line) in readme.lines().enumerate() {
        for link in line.split("](").skip(1) {
            let target = link.split(')').next().unwrap().split('#').next().unwrap();
            if target.is_empty() || target.contains("://") {
                continue;
            }
            assert!(
                root().join(target).exists(),
                "README.md:{}: the link {target:?} names no file",
                i + 1
            );
        }
    }
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(
        ci.contains("cargo test --release --workspace"),
        ".ci/run no longer runs the README's test command"
    );
}

/// docs/csv.md's reference table names every column of the results CSV, in the CSV's order
/// (the column table in `results::schema` is the one source; this keeps the page in step).
#[test]
fn the_csv_page_lists_every_column_in_order() {
    let page = std::fs::read_to_string(crate::common::root().join("docs/csv.md")).unwrap();
    let table = page
        .lines()
        .skip_while(|l| !l.starts_with("| column |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'));
    let mut named = Vec::new();
    for line in table {
        let first = line.split('|').nth(1).unwrap_or_default();
        named.extend(first.split('`').skip(1).step_by(2).map(str::to_string));
    }
    assert_eq!(named, gamebench::results::COLUMNS, "docs/csv.md's table");
}
