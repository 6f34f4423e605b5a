//! `gamebench compare OLD NEW`: options -> [`crate::compare`] -> the report and its exit code.

use std::path::PathBuf;

use anyhow::Result;

use crate::compare::{self, FailOn, Options};
use crate::status::Exit;

#[derive(clap::Args)]
pub struct CompareArgs {
    /// The earlier run: a results CSV (`run --csv`), a JSON export with samples (`run
    /// --export-json FILE --samples`) or a baseline folder.
    pub old: PathBuf,
    /// The later run, in any of the same forms.
    pub new: PathBuf,
    #[command(flatten)]
    pub options: CompareOptions,
}

/// The options of a comparison, shared by `compare` and `run --compare`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct CompareOptions {
    /// Pair engine OLD of the old run with engine NEW of the new one (repeatable).
    #[arg(long, value_name = "OLD=NEW", value_parser = engine_map_arg)]
    pub engine_map: Vec<(String, String)>,
    /// A fixed noise threshold, e.g. `5%`, for a case alone and for shifts shared by many cases
    /// (default: a case's from the spread of the per-case ratios around their neighbours',
    /// at least 5%; a shared shift's 100%, i.e. x2; see docs/compare.md).
    #[arg(long, value_name = "PERCENT", value_parser = noise_arg)]
    pub noise: Option<f64>,
    /// What exits non-zero: `time` (a case or total slower beyond the noise: exit 6),
    /// `verdict` (a case's status got worse: exit 1) or `any` (either; 1 wins).
    #[arg(long, value_enum, default_value_t = FailOn::Any, value_name = "WHAT")]
    pub fail_on: FailOn,
}

fn engine_map_arg(text: &str) -> Result<(String, String), String> {
    compare::parse_engine_map(text).map_err(|e| e.to_string())
}

fn noise_arg(text: &str) -> Result<f64, String> {
    compare::parse_noise(text).map_err(|e| e.to_string())
}

impl CompareOptions {
    pub fn options(&self) -> Options {
        Options {
            engine_map: self.engine_map.clone(),
            noise: self.noise,
            fail_on: self.fail_on,
        }
    }
}

/// Compares two loaded runs, prints the report (to stderr when `to_stderr`), returns the exit.
pub fn report(
    old: &compare::Results,
    new: &compare::Results,
    options: &CompareOptions,
    to_stderr: bool,
) -> Result<Exit> {
    let comparison = compare::compare(old, new, &options.options())?;
    let text = compare::render(&comparison);
    if to_stderr {
        eprint!("{text}");
    } else {
        print!("{text}");
    }
    Ok(comparison.exit())
}

pub fn compare(args: CompareArgs) -> Result<Exit> {
    let old = compare::load(&args.old)?;
    let new = compare::load(&args.new)?;
    report(&old, &new, &args.options, false)
}
