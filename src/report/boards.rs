//! Which cases get a board, and their drawings: per game, the failing cases first (by file,
//! case and engine), then the slowest, at most [`MAX_BOARDS_PER_GAME`], chosen from the
//! digest's candidates; a case whose input file is not found under the roots, or that its
//! game does not draw, gets none. A failing case also gets its expected and its actual final
//! board side by side (`Rules::draw_answer`): the expected block from the corpus's `X.out`
//! (or `X.ans`), the actual one from the engine's output under an outputs folder (`run
//! --out-dir DIR`: `DIR/<engine>/X.out`, or `DIR/X.out` when one engine ran).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::Inputs;
use super::digest::{Digest, passes};
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
    /// A failing case's expected and actual final boards.
    pub answers: Option<Answers>,
}

/// A failing case's two final boards.
pub struct Answers {
    /// The engine whose output is the actual one.
    pub engine: String,
    pub expected: Side,
    pub actual: Side,
}

/// One side of [`Answers`].
pub enum Side {
    /// The game's drawing (an SVG).
    Board(String),
    /// The block's text, when the game draws no board of it (at most [`MAX_ANSWER_BYTES`]).
    Text(String),
    /// Why there is none (no expected output; no output found under the outputs folders).
    Missing(String),
}

/// An output block longer than this is not drawn; its beginning is shown as text.
pub const MAX_ANSWER_BYTES: usize = 64 << 10;

/// The input file the CSV's `file` names under one of `roots` (its escapes undone).
fn find(roots: &[PathBuf], file: &str) -> Option<PathBuf> {
    let relative = &crate::corpus::path_of_row_name(file);
    if relative.is_absolute() {
        return relative.is_file().then(|| relative.to_path_buf());
    }
    roots
        .iter()
        .map(|root| root.join(relative))
        .find(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() <= MAX_INPUT_BYTES))
}

/// Case `case`'s block of an output file, when the file is there.
fn block_of(game: &dyn Game, path: &Path, case: usize) -> Option<String> {
    let bytes =
        crate::util::atomic::read_capped(path, crate::util::atomic::ANSWER_FILE_BYTES).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    game.split_output(&text)
        .into_iter()
        .nth(case.checked_sub(1)?)
}

/// A case's drawing, and its failing answers when `failing` names the engine that failed.
fn draw_case(
    game: &dyn Game,
    path: &Path,
    case: usize,
    failing: Option<(&str, &str, &[PathBuf])>,
) -> Option<(Drawing, Option<Answers>)> {
    let input = std::fs::read(path).ok()?;
    // The report takes no reading: a case is drawn as the statement reads it.
    let parsed = game.parse(&input, &crate::game::Reading::STATEMENT);
    let case_value = &**parsed.get(case.checked_sub(1)?)?.case.as_ref().ok()?;
    // The expected output as a corpus names it: `X.out`, or `X.ans` in a judge's package.
    let expected = [
        crate::corpus::OUTPUT_EXTENSION,
        crate::corpus::ANSWER_EXTENSION,
    ]
    .iter()
    .find_map(|extension| block_of(game, &path.with_extension(extension), case));
    let drawing = game.draw(case_value, expected.as_deref())?;
    let answers = failing.map(|(engine, file, outputs)| {
        let side = |block: Option<String>, missing: String| match block {
            None => Side::Missing(missing),
            Some(b) if b.len() > MAX_ANSWER_BYTES => {
                let mut end = MAX_ANSWER_BYTES;
                while !b.is_char_boundary(end) {
                    end -= 1;
                }
                Side::Text(format!("{}…", &b[..end]))
            }
            Some(b) => game
                .draw_answer(case_value, &b)
                .map_or(Side::Text(b), Side::Board),
        };
        let relative =
            crate::corpus::path_of_row_name(file).with_extension(crate::corpus::OUTPUT_EXTENSION);
        let actual = outputs
            .iter()
            .flat_map(|dir| [dir.join(engine).join(&relative), dir.join(&relative)])
            .find_map(|p| block_of(game, &p, case));
        Answers {
            engine: engine.to_string(),
            expected: side(expected.clone(), "no expected output beside the input".into()),
            actual: side(
                actual,
                if outputs.is_empty() {
                    "the engine's output is not known: run with --out-dir DIR (and give DIR to `report --outputs`)".into()
                } else {
                    format!("no output of case {case} under the outputs folders")
                },
            ),
        }
    });
    Some((drawing, answers))
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
            let failing = (!passes(c.status)).then_some((&*c.engine, &*c.file, inputs.outputs));
            if let Some((drawing, answers)) = draw_case(*game, &path, c.case, failing) {
                boards.push(BoardCase {
                    game: game.name().to_string(),
                    file: c.file.clone(),
                    case: c.case,
                    why,
                    drawing,
                    answers,
                });
                drawn += 1;
            }
        }
    }
    boards
}
