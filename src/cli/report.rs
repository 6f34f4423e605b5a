//! `gamebench report`, and the end-of-run steps `run --save-baseline`, `--compare` and
//! `--report`: options -> [`crate::report`] / [`crate::compare`] -> files and exit codes.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::compare::CompareOptions;
use crate::compare::{self, Results, baseline};
use crate::registry;
use crate::report::{self, Inputs};
use crate::status::Exit;
use crate::util::meta::RunMeta;

#[derive(clap::Args)]
pub struct ReportArgs {
    /// Runs to show: results CSVs, JSON exports with --samples, or baseline folders (several
    /// are shown together, e.g. one run per game).
    pub runs: Vec<PathBuf>,
    /// The HTML file to write.
    #[arg(long, short = 'o', value_name = "FILE.html")]
    pub output: PathBuf,
    /// Also show the comparison of two runs (as `gamebench compare OLD NEW`); without RUNS the
    /// page shows NEW.
    #[arg(long, num_args = 2, value_names = ["OLD", "NEW"])]
    pub compare: Option<Vec<PathBuf>>,
    /// A folder the runs' input files are found under, for the boards (the path the run was
    /// given, e.g. `corpora`); repeatable (default: the current folder).
    #[arg(long = "corpus", value_name = "DIR")]
    pub corpus: Vec<PathBuf>,
    /// Engine the speed-ups are measured against.
    #[arg(long, default_value = "reference", value_name = "NAME")]
    pub baseline: String,
    #[command(flatten)]
    pub options: CompareOptions,
}

pub fn report(args: ReportArgs) -> Result<Exit> {
    let comparison_inputs = match &args.compare {
        Some(paths) => Some((compare::load(&paths[0])?, compare::load(&paths[1])?)),
        None => None,
    };
    let mut runs = args
        .runs
        .iter()
        .map(|p| compare::load(p).map_err(anyhow::Error::from))
        .collect::<Result<Vec<_>>>()?;
    if runs.is_empty() {
        match &comparison_inputs {
            Some((_, new)) => runs.push(new.clone()),
            None => bail!("nothing to report: name a results CSV, or --compare OLD NEW"),
        }
    }
    let inputs: Vec<&Path> = args
        .runs
        .iter()
        .chain(args.compare.iter().flatten())
        .map(PathBuf::as_path)
        .collect();
    refuse_input_as_output(&args.output, &inputs)?;
    let comparison = comparison_inputs
        .as_ref()
        .map(|(old, new)| compare::compare(old, new, &args.options.options()))
        .transpose()?;
    let roots = if args.corpus.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.corpus.clone()
    };
    write(
        &args.output,
        &runs,
        comparison.as_ref(),
        &roots,
        &args.baseline,
    )?;
    Ok(Exit::Ok)
}

fn refuse_input_as_output(output: &Path, inputs: &[&Path]) -> Result<()> {
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if let Some(input) = inputs.iter().find(|i| same(output, i)) {
        bail!(
            "-o {}: that is an input of the report ({}); name another file",
            output.display(),
            input.display()
        );
    }
    Ok(())
}

/// Builds the page and writes it whole.
fn write(
    output: &Path,
    runs: &[Results],
    comparison: Option<&compare::Comparison>,
    roots: &[PathBuf],
    baseline: &str,
) -> Result<()> {
    let page = report::build(&Inputs {
        runs,
        comparison,
        games: registry::GAMES,
        roots,
        baseline,
    })?;
    crate::util::atomic::write_atomic(output, page.as_bytes())
        .with_context(|| format!("cannot write the report {}", output.display()))?;
    eprintln!(
        "gamebench: report written to {} ({} KB)",
        output.display(),
        page.len().div_ceil(1024)
    );
    Ok(())
}

/// What `run` was asked to do with its results at the end (`--save-baseline`, `--compare`,
/// `--report`), prepared before the run so that a bad name or a missing baseline fails at once.
pub struct AfterRun {
    /// Where the run's results CSV is written for these steps, and whether it is temporary.
    pub csv: Option<(PathBuf, bool)>,
    save: Option<(PathBuf, String)>,
    against: Option<Results>,
    report: Option<PathBuf>,
    roots: Vec<PathBuf>,
    baseline: String,
    options: CompareOptions,
}

/// The `run` options of these steps.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct AfterRunArgs {
    /// Keep this run's results CSV and metadata as baseline NAME (in --baseline-dir),
    /// replacing any baseline of that name.
    #[arg(long, value_name = "NAME")]
    pub save_baseline: Option<String>,
    /// Compare this run with baseline NAME at the end (as `gamebench compare`; the exit code
    /// is the comparison's when the run itself passed).
    #[arg(long = "compare", value_name = "NAME")]
    pub compare_with: Option<String>,
    /// Where baselines are kept.
    #[arg(long, value_name = "DIR", default_value = baseline::DEFAULT_DIR)]
    pub baseline_dir: PathBuf,
    /// Write the HTML report of this run (and of the comparison, with --compare) to FILE.
    #[arg(long = "report", value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    #[command(flatten)]
    pub compare_options: CompareOptions,
}

impl AfterRun {
    /// Checks the options: the baseline names, that the baseline to compare with exists (it
    /// is read now, before this run may replace it).
    pub fn prepare(
        args: &AfterRunArgs,
        paths: &[PathBuf],
        engine_baseline: &str,
    ) -> Result<AfterRun> {
        let against = args
            .compare_with
            .as_deref()
            .map(|name| -> Result<Results> {
                let folder = baseline::existing(&args.baseline_dir, name)?;
                Ok(compare::load(&folder)?)
            })
            .transpose()?;
        let save = args
            .save_baseline
            .as_deref()
            .map(|name| -> Result<(PathBuf, String)> {
                Ok((
                    baseline::prepare(&args.baseline_dir, name)?,
                    name.to_string(),
                ))
            })
            .transpose()?;
        let needs_csv = save.is_some() || against.is_some() || args.report.is_some();
        let csv = match (&save, needs_csv) {
            (Some((path, _)), _) => Some((path.clone(), false)),
            (None, true) => Some((
                std::env::temp_dir().join(format!("gamebench-run-{}.csv", std::process::id())),
                true,
            )),
            (None, false) => None,
        };
        let roots = paths
            .iter()
            .map(|p| {
                if p.is_dir() {
                    p.clone()
                } else {
                    p.parent()
                        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
                }
            })
            .collect();
        Ok(AfterRun {
            csv,
            save,
            against,
            report: args.report.clone(),
            roots,
            baseline: engine_baseline.to_string(),
            options: args.compare_options.clone(),
        })
    }

    /// After an interrupted run: nothing is compared or saved, and the temporary CSV (and the
    /// partial file an interruption leaves beside it) is removed.
    pub fn abandon(&self) {
        if let Some((csv, true)) = &self.csv {
            let _ = std::fs::remove_file(csv);
            let _ = std::fs::remove_file(crate::util::atomic::interrupted_path(csv));
        }
    }

    /// After the run: saves the baseline's metadata, compares, writes the report. Returns the
    /// comparison's exit code (0 without --compare). The summary went to stderr when
    /// `to_stderr`, and so does the comparison.
    pub fn finish(&self, meta: &RunMeta, to_stderr: bool) -> Result<Exit> {
        let Some((csv, temporary)) = &self.csv else {
            return Ok(Exit::Ok);
        };
        let loaded = compare::load(csv);
        if *temporary {
            let _ = std::fs::remove_file(csv);
        }
        let mut this = loaded?;
        this.meta = Some(baseline::meta_value(meta));
        this.source = match &self.save {
            Some((path, _)) => path.clone(),
            None => PathBuf::from("this run"),
        };
        if let Some((_, name)) = &self.save {
            let path = baseline::save_meta(
                csv.parent()
                    .and_then(Path::parent)
                    .unwrap_or(Path::new(".")),
                name,
                meta,
            )?;
            eprintln!(
                "gamebench: baseline {name:?} saved in {}",
                path.parent().unwrap_or(Path::new(".")).display()
            );
        }
        let mut exit = Exit::Ok;
        let mut comparison = None;
        if let Some(old) = &self.against {
            let c = compare::compare(old, &this, &self.options.options())?;
            let text = compare::render(&c);
            if to_stderr {
                eprint!("{text}");
            } else {
                print!("{text}");
            }
            exit = c.exit();
            comparison = Some(c);
        }
        if let Some(output) = &self.report {
            write(
                output,
                std::slice::from_ref(&this),
                comparison.as_ref(),
                &self.roots,
                &self.baseline,
            )?;
        }
        Ok(exit)
    }
}
