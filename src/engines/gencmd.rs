//! External generators (`--generator 'cmd:./gen {seed} 30 30'`): a program that writes one
//! judge input of a game on its standard output, given its seed and parameters on the command
//! line, as testlib's generators do.
//!
//! Invariants:
//! - the command is run once per test with `{seed}` replaced by that test's seed (a command
//!   without `{seed}` gets the seed appended as a last argument, so that tests differ); the
//!   seed of test `k` of a run seeded `s` is `s + k` ([`ExternalGenerator::seed_of`]);
//! - a test is returned only when the program exited 0 within its time limit, wrote UTF-8, and
//!   the game's strict validator accepts what it wrote: any other outcome is a
//!   [`GeneratorError`] naming the command as run and the seed.

use std::time::Duration;

use crate::external::{self, External, ExternalError, PREFIX, RunLimits, Shell};
use crate::game::Game;

/// The placeholder replaced by the test's seed.
pub const SEED_PLACEHOLDER: &str = "{seed}";

/// The wall-time limit of one generator run unless one is given.
pub const DEFAULT_GENERATOR_TIMEOUT: Duration = Duration::from_secs(10);

/// Violations of the statement quoted in an error (the validator reports more).
const SHOWN_VIOLATIONS: usize = 3;

/// Why an external generator gave no test.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GeneratorError {
    #[error("--generator {text:?}: expected `cmd:COMMAND` (the seed as {SEED_PLACEHOLDER})")]
    NotCommand { text: String },
    /// The run's error is in the message, not a `source`, so that it is said once.
    #[error("generator `{command}` (seed {seed}): {error}")]
    Run {
        command: String,
        seed: u64,
        error: Box<ExternalError>,
    },
    #[error("generator `{command}` (seed {seed}): its output is not UTF-8 text")]
    NotText { command: String, seed: u64 },
    #[error("generator `{command}` (seed {seed}): wrote nothing")]
    Empty { command: String, seed: u64 },
    #[error("generator `{command}` (seed {seed}) wrote an invalid {game} input: {violations}")]
    Invalid {
        command: String,
        seed: u64,
        game: &'static str,
        violations: String,
    },
}

/// A generator program and how it is run.
#[derive(Debug, Clone, PartialEq)]
pub struct ExternalGenerator {
    /// The command line with its `{seed}` placeholder.
    pub template: String,
    pub shell: Shell,
    /// Wall-time limit of one run.
    pub timeout: Duration,
}

impl ExternalGenerator {
    /// Reads `cmd:COMMAND` (the form of `--generator`).
    pub fn parse(
        text: &str,
        shell: Shell,
        timeout: Duration,
    ) -> Result<ExternalGenerator, GeneratorError> {
        let template = text
            .strip_prefix(PREFIX)
            .filter(|c| !c.trim().is_empty())
            .ok_or_else(|| GeneratorError::NotCommand {
                text: text.to_string(),
            })?;
        Ok(ExternalGenerator {
            template: template.to_string(),
            shell,
            timeout,
        })
    }

    /// The seed of test `index` of a run seeded `seed`.
    pub fn seed_of(seed: u64, index: u64) -> u64 {
        seed.wrapping_add(index)
    }

    /// The command line run for `seed`.
    pub fn command(&self, seed: u64) -> String {
        if self.template.contains(SEED_PLACEHOLDER) {
            self.template.replace(SEED_PLACEHOLDER, &seed.to_string())
        } else {
            format!("{} {seed}", self.template)
        }
    }

    /// Runs the generator for `seed` and returns the test it wrote, validated as a `game`
    /// input.
    pub fn generate(&self, game: &dyn Game, seed: u64) -> Result<String, GeneratorError> {
        let command = self.command(seed);
        let program = External {
            name: command.clone(),
            command: command.clone(),
            shell: self.shell.clone(),
        };
        let ran =
            external::run(&program, b"", &RunLimits::wall(self.timeout)).map_err(|source| {
                GeneratorError::Run {
                    command: command.clone(),
                    seed,
                    error: Box::new(source),
                }
            })?;
        let text = String::from_utf8(ran.stdout).map_err(|_| GeneratorError::NotText {
            command: command.clone(),
            seed,
        })?;
        if text.trim().is_empty() {
            return Err(GeneratorError::Empty { command, seed });
        }
        let validation = game.validate(text.as_bytes());
        if !validation.is_valid() {
            let mut violations: Vec<String> = validation
                .violations
                .iter()
                .take(SHOWN_VIOLATIONS)
                .map(ToString::to_string)
                .collect();
            if validation.violations.len() > SHOWN_VIOLATIONS || validation.truncated {
                violations.push("...".to_string());
            }
            return Err(GeneratorError::Invalid {
                command,
                seed,
                game: game.name(),
                violations: violations.join("; "),
            });
        }
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_is_substituted_or_appended() {
        let g = ExternalGenerator::parse(
            "cmd:./gen {seed} 30 30",
            Shell::default(),
            DEFAULT_GENERATOR_TIMEOUT,
        )
        .unwrap();
        assert_eq!(g.command(17), "./gen 17 30 30");
        let g =
            ExternalGenerator::parse("cmd:./gen", Shell::None, DEFAULT_GENERATOR_TIMEOUT).unwrap();
        assert_eq!(g.command(3), "./gen 3");
        assert_eq!(ExternalGenerator::seed_of(5, 2), 7);
        for bad in ["./gen", "cmd:", "cmd:  "] {
            assert!(
                matches!(
                    ExternalGenerator::parse(bad, Shell::default(), DEFAULT_GENERATOR_TIMEOUT),
                    Err(GeneratorError::NotCommand { .. })
                ),
                "{bad}"
            );
        }
    }
}
