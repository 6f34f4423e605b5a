//! What a hunt writes: its population as a corpus (expected outputs from the game's default
//! engine, as `gen` writes them) and the best metric over time as CSV.

use std::path::{Path, PathBuf};

use super::{Config, HuntError, Hunted};
use crate::engines::judge::judge_file;
use crate::game::AnyCase;
use crate::util::atomic::write_inside;

fn write(dir: &Path, path: PathBuf, text: &str) -> Result<PathBuf, HuntError> {
    // A link planted in the folder is replaced, not written through.
    write_inside(dir, &path, text.as_bytes()).map_err(|source| HuntError::Write {
        path: path.clone(),
        source,
    })?;
    Ok(path)
}

/// Writes the corpus (`hunt-<seed>.in/.out`, or `hunt-<seed>-<k>.in/.out` per case when the
/// game holds one case per file), expected outputs from the default engine, and the progress
/// as `hunt-<seed>.csv`.
pub(super) fn write_files(config: &Config<'_>, hunted: &Hunted) -> Result<Vec<PathBuf>, HuntError> {
    let game = config.game;
    let dir = config.out.join(game.name());
    std::fs::create_dir_all(&dir).map_err(|source| HuntError::Write {
        path: dir.clone(),
        source,
    })?;
    let stem = format!("hunt-{}", config.seed);
    // The default engine writes expected outputs, as `gen` does (checked against the reference
    // by the games' tests), and is the fast one on a slow case.
    let reference = game.default_engine();
    let mut files = Vec::new();
    let cases: Vec<&AnyCase> = hunted
        .population
        .iter()
        .map(|s| s.input.typed()[0])
        .collect();
    let groups: Vec<(String, Vec<&AnyCase>)> = if cases.len() <= game.editor().max_cases() {
        vec![(stem.clone(), cases)]
    } else {
        let width = cases.len().saturating_sub(1).to_string().len();
        cases
            .chunks(game.editor().max_cases())
            .enumerate()
            .map(|(k, chunk)| (format!("{stem}-{k:0width$}"), chunk.to_vec()))
            .collect()
    };
    for (name, cases) in groups {
        let text = game.editor().write_input(&cases);
        let expected =
            judge_file(reference, text.as_bytes(), &config.reading, &config.budget).output();
        files.push(write(&dir, dir.join(format!("{name}.in")), &text)?);
        files.push(write(&dir, dir.join(format!("{name}.out")), &expected)?);
    }
    let mut csv = String::from("seconds,evaluations,best\n");
    for p in &hunted.progress {
        csv.push_str(&format!("{:.3},{},{}\n", p.seconds, p.evaluations, p.best));
    }
    files.push(write(&dir, dir.join(format!("{stem}.csv")), &csv)?);
    Ok(files)
}
