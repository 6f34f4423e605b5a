//! What a stress run leaves behind: the original and shrunk inputs, each engine's output on the
//! shrunk one, and the report (printed, and written beside the inputs).

use std::path::{Path, PathBuf};

use super::{Config, Found, StressError};
use crate::engines::gencmd::ExternalGenerator;
use crate::game::explain;
use crate::util::atomic::write_atomic;
use crate::util::units::human_duration;

/// A file-name-safe form of an engine label (`cmd:python3 x.py` -> `cmd_python3_x.py`).
fn file_label(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn write(path: &Path, text: &str) -> Result<PathBuf, StressError> {
    write_atomic(path, text.as_bytes()).map_err(|source| StressError::Write {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(path.to_path_buf())
}

/// The files' common stem: `stress-<seed>`, or `shrink-<name>` for the given input `name.in`
/// of `gamebench shrink`.
fn stem(config: &Config<'_>) -> String {
    match &config.given {
        Some(path) => format!(
            "shrink-{}",
            file_label(&path.file_stem().unwrap_or_default().to_string_lossy())
        ),
        None => format!("stress-{}", config.seed),
    }
}

/// Writes `<out>/<game>/stress-<seed>.in` (the original), `stress-<seed>-min.in` (shrunk),
/// each engine's output on the shrunk input (`stress-<seed>-min.<engine>.out`) and the report
/// (`stress-<seed>.txt`, with the first differing line).
pub(super) fn write_files(config: &Config<'_>, found: &Found) -> Result<Vec<PathBuf>, StressError> {
    let dir = config.out.join(config.game.name());
    std::fs::create_dir_all(&dir).map_err(|source| StressError::Write {
        path: dir.clone(),
        source,
    })?;
    let stem = stem(config);
    let mut files = vec![
        write(&dir.join(format!("{stem}.in")), &found.original.text)?,
        write(&dir.join(format!("{stem}-min.in")), &found.shrunk.text)?,
    ];
    let labels = config.engines.each_ref().map(|e| file_label(e.name()));
    for (k, output) in found.shrunk_outputs.iter().enumerate() {
        let label = if labels[0] == labels[1] {
            format!("{}-{}", k + 1, labels[k])
        } else {
            labels[k].clone()
        };
        let text = match output {
            Ok(text) => text.clone(),
            Err(why) => format!("{why}\n"),
        };
        files.push(write(&dir.join(format!("{stem}-min.{label}.out")), &text)?);
    }
    files.push(write(
        &dir.join(format!("{stem}.txt")),
        &report(config, found),
    )?);
    Ok(files)
}

/// The report of a difference found (printed, and written beside the inputs).
pub fn report(config: &Config<'_>, found: &Found) -> String {
    let game = config.game;
    let engines = &config.engines;
    let source = match &config.generator {
        Some(external) => format!(
            "generator `{}`, ",
            external.command(ExternalGenerator::seed_of(config.seed, found.file_index))
        ),
        None => String::new(),
    };
    let origin = match &config.given {
        Some(path) => format!(
            "found in {}, case {}, in {}",
            path.display(),
            found.case_index + 1,
            human_duration(found.search_time)
        ),
        None => format!(
            "found after {} case(s) in {} ({source}seed {}, generated file {}, case {})",
            found.cases_tried,
            human_duration(found.search_time),
            config.seed,
            found.file_index,
            found.case_index + 1
        ),
    };
    format!(
        "{game}: {fail}\n\
         {origin}\n\
         shrunk in {steps} step(s), {candidates} candidate(s), {shrink}{cut}:\n\
         \x20 before: {before}\n\
         \x20 after:  {after}\n\
         on the shrunk input: {shrunk_fail}\n",
        game = game.name(),
        fail = found.original_failure.headline(engines),
        steps = found.shrink_steps,
        candidates = found.shrink_candidates,
        shrink = human_duration(found.shrink_time),
        cut = if found.shrink_complete {
            ""
        } else {
            " (cut short by --time or a signal: the smallest failing input found so far)"
        },
        before = found.original.describe(game),
        after = found.shrunk.describe(game),
        // The difference once, its lines one under the other with a caret.
        shrunk_fail = explain(&found.shrunk_failure.describe(engines)),
    )
}
