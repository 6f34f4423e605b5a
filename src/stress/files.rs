//! What a stress run leaves behind: the original and shrunk inputs, each engine's output on the
//! shrunk one, and the report (printed, and written beside the inputs).

use std::path::{Path, PathBuf};

use super::{Config, Found, StressError};
use crate::engines::gencmd::ExternalGenerator;
use crate::game::explain;
use crate::util::atomic::{Inputs, write_inside};
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

fn write(dir: &Path, path: &Path, text: &str) -> Result<PathBuf, StressError> {
    // A link planted in the folder is replaced, not written through.
    write_inside(dir, path, text.as_bytes()).map_err(|source| StressError::Write {
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

/// The files a difference found is written to: `<out>/<game>/stress-<seed>.in` (the
/// original), `stress-<seed>-min.in` (shrunk), each engine's output on the shrunk input
/// (`stress-<seed>-min.<engine>.out`) and the report (`stress-<seed>.txt`), in that order.
fn planned(config: &Config<'_>) -> (PathBuf, [PathBuf; 5]) {
    let dir = config.out.join(config.game.name());
    let stem = stem(config);
    let labels = config.engines.each_ref().map(|e| file_label(e.name()));
    let output = |k: usize| {
        let label = if labels[0] == labels[1] {
            format!("{}-{}", k + 1, labels[k])
        } else {
            labels[k].clone()
        };
        dir.join(format!("{stem}-min.{label}.out"))
    };
    let files = [
        dir.join(format!("{stem}.in")),
        dir.join(format!("{stem}-min.in")),
        output(0),
        output(1),
        dir.join(format!("{stem}.txt")),
    ];
    (dir, files)
}

/// Refuses, before any work, files to write that would land on the given input of `shrink`
/// (by any name: a link, a hard link).
pub(super) fn refuse_given(config: &Config<'_>) -> Result<(), StressError> {
    let Some(given) = &config.given else {
        return Ok(());
    };
    let mut inputs = Inputs::new();
    inputs.add(given);
    for path in planned(config).1 {
        inputs.refuse(&path).map_err(StressError::LandsOnInput)?;
    }
    Ok(())
}

/// Writes the [`planned`] files.
pub(super) fn write_files(config: &Config<'_>, found: &Found) -> Result<Vec<PathBuf>, StressError> {
    let (dir, [original, shrunk, first, second, report_file]) = planned(config);
    std::fs::create_dir_all(&dir).map_err(|source| StressError::Write {
        path: dir.clone(),
        source,
    })?;
    let mut files = vec![
        write(&dir, &original, &found.original.text)?,
        write(&dir, &shrunk, &found.shrunk.text)?,
    ];
    for (output, path) in found.shrunk_outputs.iter().zip([first, second]) {
        let text = match output {
            Ok(text) => text.clone(),
            Err(why) => format!("{why}\n"),
        };
        files.push(write(&dir, &path, &text)?);
    }
    files.push(write(&dir, &report_file, &report(config, found))?);
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
