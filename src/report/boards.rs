//! Which cases get a board, and their drawings: per game, the failing cases first (by file,
//! case and engine), then the slowest, at most [`MAX_BOARDS_PER_GAME`], chosen from the
//! digest's candidates; a case whose input file is not found under the roots, or that its
//! game does not draw, gets none.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::Inputs;
use super::digest::Digest;
use crate::game::{Drawing, Game};

/// The most boards drawn per game.
pub const MAX_BOARDS_PER_GAME: usize = 4;
/// Input files larger than this are not read for a board (64 MiB).
const MAX_INPUT_BYTES: u64 = 64 << 20;

/// A drawn case.
pub struct BoardCase {
    pub game: String,
    pub file: String,
    pub case: usize,
    /// Why it was chosen (`slowest of reference`, `mismatch in bitset`).
    pub why: String,
    pub drawing: Drawing,
}

fn find(roots: &[PathBuf], file: &str) -> Option<PathBuf> {
    let relative = Path::new(file);
    if relative.is_absolute() {
        return relative.is_file().then(|| relative.to_path_buf());
    }
    roots
        .iter()
        .map(|root| root.join(relative))
        .find(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() <= MAX_INPUT_BYTES))
}

fn draw_case(game: &dyn Game, path: &Path, case: usize) -> Option<Drawing> {
    let input = std::fs::read(path).ok()?;
    let parsed = game.parse(&input);
    let case_value = parsed.get(case.checked_sub(1)?)?.case.as_ref().ok()?;
    // The expected output as a corpus names it: `X.out`, or `X.ans` in a judge's package.
    let expected = [
        crate::corpus::OUTPUT_EXTENSION,
        crate::corpus::ANSWER_EXTENSION,
    ]
    .iter()
    .find_map(|extension| {
        crate::util::atomic::read_capped(
            &path.with_extension(extension),
            crate::util::atomic::ANSWER_FILE_BYTES,
        )
        .ok()
    })
    .map(|b| String::from_utf8_lossy(&b).into_owned())
    .map(|text| game.split_output(&text));
    let block = expected.as_ref().and_then(|blocks| blocks.get(case - 1));
    game.draw(&**case_value, block.map(String::as_str))
}

/// The boards of the report.
pub fn draw(inputs: &Inputs<'_>, digest: &Digest) -> Vec<BoardCase> {
    let mut boards = Vec::new();
    for game in inputs.games {
        let Some(candidates) = digest.candidates.get(game.name()) else {
            continue;
        };
        let chosen = candidates
            .failing
            .iter()
            .map(|c| (c, format!("{} in {}", c.status.as_str(), c.engine)))
            .chain(
                candidates
                    .slowest
                    .iter()
                    .map(|c| (c, format!("slowest of {}", c.engine))),
            );
        let mut seen = BTreeSet::new();
        let mut drawn = 0;
        for (c, why) in chosen {
            if drawn >= MAX_BOARDS_PER_GAME {
                break;
            }
            if !seen.insert((&c.file, c.case)) {
                continue;
            }
            let Some(path) = find(inputs.roots, &c.file) else {
                continue;
            };
            if let Some(drawing) = draw_case(*game, &path, c.case) {
                boards.push(BoardCase {
                    game: game.name().to_string(),
                    file: c.file.clone(),
                    case: c.case,
                    why,
                    drawing,
                });
                drawn += 1;
            }
        }
    }
    boards
}
