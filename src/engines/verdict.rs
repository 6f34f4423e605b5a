//! The one comparison of an engine's output block with an expected one: used by the runner's
//! `--check` (against `X.out`), the runner's comparison with the baseline engine, and the
//! `check` command. The verdict's status and exit code are [`CheckVerdict::status`] and
//! [`CheckVerdict::exit`] (in `status.rs`), nowhere else.

use std::any::Any;

use crate::game::{Game, Rejected};
use crate::status::{CheckVerdict, Presentation};

/// Why a case whose output has no block is rejected.
pub const NO_BLOCK: &str = "the output has no block for this case";

/// Judges `actual`, the output block of parsed case `case` of `game`, against `expected`:
/// no expected block (`Err`: why) is a checker failure, no actual block a wrong answer, else
/// the game's checker decides (`Game::judge_output`: wrong answer, presentation error, or a
/// checker failure on a malformed expected block); under [`Presentation::Accept`] a
/// presentation error is accepted.
pub fn judge_block(
    game: &dyn Game,
    case: &(dyn Any + Send + Sync),
    expected: Result<&str, String>,
    actual: Option<&str>,
    presentation: Presentation,
) -> Result<(), Rejected> {
    let expected = expected.map_err(|why| Rejected::new(CheckVerdict::CheckerFailure, why))?;
    let actual = actual.ok_or_else(|| Rejected::new(CheckVerdict::WrongAnswer, NO_BLOCK))?;
    presentation.apply(game.judge_output(case, expected, actual))
}
