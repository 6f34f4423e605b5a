//! What `invoke` writes besides its table: the `--select`ed tests, a package's own lines, and
//! the files asked for (CSV, JSON, Markdown, JUnit, the HTML report).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::invoke::{self, Tag, junit, select, strength, table};
use crate::package::{self, Package};
use crate::registry;
use crate::util::atomic::write_atomic;

use super::super::outputs::is_stdout;
use super::InvokeArgs;

/// Writes `bytes` to `path` (`-` = stdout).
pub(super) fn write_out(path: &Path, bytes: &[u8], what: &str) -> Result<()> {
    if is_stdout(path) {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        out.write_all(bytes)?;
        out.flush()?;
        Ok(())
    } else {
        write_atomic(path, bytes)
            .with_context(|| format!("cannot write the {what} {}", path.display()))
    }
}

/// `--select`: the selected tests written under `dir`; what was written, as text.
pub(super) fn write_selection(
    inv: &invoke::Invocation,
    cover: &[usize],
    dir: &Path,
    game: &'static dyn crate::game::Game,
) -> Result<String> {
    let written = select::write(inv, cover, dir)?;
    let mut text = format!(
        "select: {} file(s) written under {}\n",
        written.files.len(),
        dir.display()
    );
    if written.whole_files > 0 {
        text.push_str(&format!(
            "select: {} whole file(s) selected for one of their cases: {} cannot write a case as a file of its own\n",
            written.whole_files,
            game.name()
        ));
    }
    Ok(text)
}

/// A package's notes, compile errors and accepted invalid inputs added to `text`; how many
/// fail the invocation.
pub(super) fn package_text(
    pkg: &Package,
    compile_errors: &[(String, Option<Tag>, String)],
    (game, args): (&'static dyn crate::game::Game, &InvokeArgs),
    text: &mut String,
) -> Result<usize> {
    let mut failures = 0;
    for note in &pkg.notes {
        text.push_str(&format!("package: {note}\n"));
    }
    for (name, tag, message) in compile_errors {
        text.push_str(&format!("compile-error: {name}: {message}\n"));
        // Only an expectation that some verdict is not `ok`, and nothing narrower, holds
        // for a submission that never ran.
        if let Some(tag) = tag.filter(|t| *t != Tag::Failing) {
            failures += 1;
            text.push_str(&format!(
                "tag contradicted: solution {name} (tagged {tag}) got compile-error\n"
            ));
        }
    }
    let invalid = package::accepted_invalid_inputs(pkg)?;
    for path in &invalid {
        text.push_str(&format!(
            "invalid input accepted: {} is valid for {}'s validator\n",
            path.display(),
            game.name()
        ));
    }
    failures += invalid.len();
    if !pkg.invalid_inputs.is_empty() && invalid.is_empty() {
        text.push_str(&format!(
            "invalid inputs: all {} rejected by the validator\n",
            pkg.invalid_inputs.len()
        ));
    }
    let misjudged = package::misjudged_outputs(pkg, args.presentation)?;
    for line in &misjudged {
        text.push_str(&format!("{line}\n"));
    }
    failures += misjudged.len();
    if !pkg.output_cases.is_empty() && misjudged.is_empty() {
        text.push_str(&format!(
            "output cases: all {} judged by the checker as the package says\n",
            pkg.output_cases.len()
        ));
    }
    Ok(failures)
}

/// The files asked for: CSV, JSON, Markdown, JUnit.
pub(super) fn write_files(
    args: &InvokeArgs,
    inv: &invoke::Invocation,
    report: &invoke::TagReport,
    strength: &strength::Strength,
) -> Result<()> {
    if let Some(path) = &args.csv {
        write_out(path, &table::csv(inv)?, "CSV")?;
    }
    if let Some(path) = &args.json {
        write_out(path, &table::json(inv, report, strength)?, "JSON")?;
    }
    if let Some(path) = &args.markdown {
        write_out(
            path,
            table::markdown(inv, report, strength).as_bytes(),
            "Markdown",
        )?;
    }
    if let Some(path) = &args.junit {
        write_out(path, junit::junit(inv, report).as_bytes(), "JUnit XML")?;
    }
    if let Some(path) = &args.report {
        write_report(path, inv, report, strength)?;
    }
    Ok(())
}

/// `--report FILE.html`: the report's page of the invocation's cells (a solution is an engine,
/// a test a case; the baseline of its speed-ups the main solution, else the first), with the
/// invocation's own section.
fn write_report(
    path: &Path,
    inv: &invoke::Invocation,
    tags: &invoke::TagReport,
    strength: &strength::Strength,
) -> Result<()> {
    let results = invoke::report::results(inv, path);
    let baseline = inv
        .solutions
        .iter()
        .find(|s| s.tag == Some(Tag::Main))
        .unwrap_or(&inv.solutions[0])
        .name
        .clone();
    let inputs = crate::report::Inputs {
        runs: &[crate::report::Run {
            path: path.to_path_buf(),
            name: None,
            meta: results.meta.clone(),
            held: Some(results),
        }],
        comparison: None,
        games: registry::GAMES,
        roots: &[PathBuf::from(".")],
        outputs: &[],
        baseline: &baseline,
    };
    let (shown, digest) = crate::report::digest(&inputs)?;
    let page = crate::report::render(&inputs, &shown, &digest);
    let page = invoke::report::with_section(page, &invoke::report::section(inv, tags, strength));
    write_out(path, page.as_bytes(), "HTML report")
}
