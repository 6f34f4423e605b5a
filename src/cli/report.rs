//! `gamebench report`, and the end-of-run steps `run --save-baseline`, `--compare` and
//! `--report`: options -> [`crate::report`] / [`crate::compare`] -> files and exit codes.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::compare::CompareOptions;
use crate::compare::{self, Results, baseline};
use crate::registry;
use crate::report::{self, Inputs};
use crate::status::Exit;
use crate::util::atomic::{Inputs as AtomicInputs, Target};
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
    /// A folder holding the engines' outputs (`run --out-dir DIR`: `DIR/<engine>/X.out`, or
    /// `DIR/X.out` when one engine ran), to draw each failing case's actual final board beside
    /// the expected one; repeatable.
    #[arg(long = "outputs", value_name = "DIR")]
    pub outputs: Vec<PathBuf>,
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
        .map(|p| {
            let held = crate::invoke::report::load(p)?;
            Ok(report::Run {
                held,
                ..run_of(p, None, None)
            })
        })
        .collect::<Result<Vec<_>>>()?;
    if runs.is_empty() {
        match &args.compare {
            Some(paths) => runs.push(run_of(&paths[1], None, None)),
            None => bail!("nothing to report: name a results CSV, or --compare OLD NEW"),
        }
    }
    let roots = if args.corpus.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        crate::package::paths::report_roots(&args.corpus)
    };
    let named: Vec<&Path> = args
        .runs
        .iter()
        .chain(args.compare.iter().flatten())
        .map(PathBuf::as_path)
        .collect();
    refuse_input_as_output(&args.output, &named, std::iter::empty(), &roots)?;
    let comparison = comparison_inputs
        .as_ref()
        .map(|(old, new)| compare::compare(old, new, &args.options.options()))
        .transpose()?;
    let files = comparison_inputs
        .iter()
        .flat_map(|(old, new)| [old, new])
        .flat_map(|r| r.cases.iter().map(|c| c.file.as_str()));
    write(
        &args.output,
        &runs,
        comparison.as_ref(),
        (&named, files),
        (&roots, &args.outputs),
        &args.baseline,
    )?;
    Ok(Exit::Ok)
}

/// A run of the report, read from `path`.
fn run_of(path: &Path, name: Option<String>, meta: Option<serde_json::Value>) -> report::Run {
    report::Run {
        path: path.to_path_buf(),
        name,
        meta,
        held: None,
    }
}

/// Refuses, before anything is written, an output that would land on what the report reads:
/// the runs named (a baseline folder's files), and the corpus files `files` names under the
/// roots (each input and its expected output), by any name (links, hard links); and an output
/// whose folder does not exist.
fn refuse_input_as_output<'a>(
    output: &Path,
    named: &[&Path],
    files: impl Iterator<Item = &'a str>,
    roots: &[PathBuf],
) -> Result<()> {
    let mut inputs = AtomicInputs::new();
    for path in named {
        inputs.add(path);
        if let Ok(entries) = std::fs::read_dir(path) {
            for entry in entries.flatten() {
                inputs.add(&entry.path());
            }
        }
    }
    for file in files {
        for root in roots {
            let input = root.join(crate::corpus::path_of_row_name(file));
            inputs.add(&input);
            for extension in [
                crate::corpus::OUTPUT_EXTENSION,
                crate::corpus::ANSWER_EXTENSION,
            ] {
                inputs.add(&input.with_extension(extension));
            }
        }
    }
    if let Some(input) = inputs.holding(output) {
        bail!(
            "-o {}: that is an input of the report ({}); name another file",
            output.display(),
            input.display()
        );
    }
    let target =
        Target::of(output).with_context(|| format!("-o: cannot write {}", output.display()))?;
    // A case file or expected output under a --corpus folder is the corpus's, named by the
    // rows or not.
    let resolved = target.path();
    let is_case_file = resolved.extension().is_some_and(|e| {
        [
            crate::corpus::INPUT_EXTENSION,
            crate::corpus::OUTPUT_EXTENSION,
            crate::corpus::ANSWER_EXTENSION,
        ]
        .iter()
        .any(|x| e == *x)
    });
    let canonical = resolved
        .parent()
        .map(|p| {
            if p.as_os_str().is_empty() {
                Path::new(".")
            } else {
                p
            }
        })
        .and_then(|p| p.canonicalize().ok())
        .zip(resolved.file_name())
        .map(|(folder, name)| folder.join(name));
    if let Some(canonical) = canonical.filter(|_| is_case_file)
        && let Some(root) = roots
            .iter()
            .find(|r| r.canonicalize().is_ok_and(|r| canonical.starts_with(r)))
    {
        bail!(
            "-o {}: that is a file of the corpus under {} (an input of the report); name another file",
            output.display(),
            root.display()
        );
    }
    target
        .check_writable()
        .with_context(|| format!("-o: cannot write {}", output.display()))?;
    Ok(())
}

/// Reads the runs into a digest, refuses an output that is one of the input files the runs
/// name (known only once they are read: an existing output is checked against them), builds
/// the page and writes it whole.
fn write<'a>(
    output: &Path,
    runs: &[report::Run],
    comparison: Option<&compare::Comparison>,
    (named, files): (&[&Path], impl Iterator<Item = &'a str>),
    (roots, outputs): (&[PathBuf], &[PathBuf]),
    baseline: &str,
) -> Result<()> {
    let inputs = Inputs {
        runs,
        comparison,
        games: registry::GAMES,
        roots,
        outputs,
        baseline,
    };
    let (shown, digest) = report::digest(&inputs)?;
    if std::fs::symlink_metadata(output).is_ok() {
        let mut names: Vec<&str> = files.collect();
        names.extend(digest.files.iter().map(String::as_str));
        refuse_input_as_output(output, named, names.into_iter(), roots)?;
    }
    let page = report::render(&inputs, &shown, &digest);
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
    /// Baseline `--save-baseline NAME`: its folder's CSV (written while the run goes, in its
    /// staging folder), its name and the folder of baselines.
    save: Option<(PathBuf, String, PathBuf)>,
    against: Option<Results>,
    report: Option<PathBuf>,
    roots: Vec<PathBuf>,
    /// `run --out-dir`: where the report finds the engines' outputs.
    outputs: Vec<PathBuf>,
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

impl Drop for AfterRun {
    /// A run that ends without [`AfterRun::finish`] (an error) saves no baseline: its staging
    /// folder goes (after `finish`, there is none left to remove).
    fn drop(&mut self) {
        if let Some((_, name, dir)) = &self.save {
            baseline::discard(dir, name);
        }
    }
}

impl AfterRun {
    /// Checks the options: the baseline names, that the baseline to compare with exists (it
    /// is read now, before this run may replace it). `out_dir`: the run's `--out-dir`, where
    /// the report finds the engines' outputs.
    pub fn prepare(
        args: &AfterRunArgs,
        paths: &[PathBuf],
        engine_baseline: &str,
        out_dir: Option<&Path>,
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
            .map(|name| -> Result<(PathBuf, String, PathBuf)> {
                Ok((
                    baseline::prepare(&args.baseline_dir, name)?,
                    name.to_string(),
                    args.baseline_dir.clone(),
                ))
            })
            .transpose()?;
        let needs_csv = save.is_some() || against.is_some() || args.report.is_some();
        let csv = match (&save, needs_csv) {
            (Some((path, _, _)), _) => Some((path.clone(), false)),
            (None, true) => Some((
                std::env::temp_dir().join(format!("gamebench-run-{}.csv", std::process::id())),
                true,
            )),
            (None, false) => None,
        };
        let roots: Vec<PathBuf> = paths
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
        // A Polygon package's files are named from its view of links.
        let roots = crate::package::paths::report_roots(&roots);
        Ok(AfterRun {
            csv,
            save,
            against,
            report: args.report.clone(),
            roots,
            outputs: out_dir.map(Path::to_path_buf).into_iter().collect(),
            baseline: engine_baseline.to_string(),
            options: args.compare_options.clone(),
        })
    }

    /// After an interrupted run: nothing is compared or saved, and the temporary CSV (and the
    /// partial file an interruption leaves beside it) is removed.
    pub fn abandon(&self) {
        if let Some((_, name, dir)) = &self.save {
            baseline::discard(dir, name);
        }
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
        let finished = self.finish_from(csv, meta, to_stderr);
        if *temporary {
            let _ = std::fs::remove_file(csv);
        }
        finished
    }

    /// [`AfterRun::finish`] of the run's CSV: read whole only for a comparison; the report
    /// streams it.
    fn finish_from(&self, csv: &Path, meta: &RunMeta, to_stderr: bool) -> Result<Exit> {
        let (source, name) = match &self.save {
            Some((_, name, dir)) => {
                let path = baseline::folder(dir, name)?.join(compare::BASELINE_CSV);
                (path.clone(), path.display().to_string())
            }
            None => (csv.to_path_buf(), "this run".to_string()),
        };
        if let Some((_, name, dir)) = &self.save {
            let path = baseline::save_meta(dir, name, meta)?;
            eprintln!(
                "gamebench: baseline {name:?} saved in {}",
                path.parent().unwrap_or(Path::new(".")).display()
            );
        }
        let mut exit = Exit::Ok;
        let mut comparison = None;
        if let Some(old) = &self.against {
            let mut this = compare::load(&source)?;
            this.meta = Some(baseline::meta_value(meta));
            this.source = PathBuf::from(&name);
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
            let run = run_of(&source, Some(name), Some(baseline::meta_value(meta)));
            write(
                output,
                std::slice::from_ref(&run),
                comparison.as_ref(),
                (&[], std::iter::empty()),
                (&self.roots, &self.outputs),
                &self.baseline,
            )?;
        }
        Ok(exit)
    }
}
