//! `gamebench sweep`: how an engine's cost grows with the size of its cases. For each point of
//! a sweep (a board size, or a value of one generator option) a corpus is generated with the
//! game's own generator (deterministically: the same arguments give the same files), every
//! engine runs on it through the runner, and the median time per case is kept. A power law
//! `time ≈ c · cells^k` is fitted per engine by least squares on log-log axes (`cells`: the
//! cases' mean size as [`crate::game::Rules::cells`] defines it), and drawn.
//!
//! Nothing here knows a game: a point is a list of the game's own `gen` options, parsed by the
//! game's generator as if typed (so an option the game does not have is refused like on
//! `gen`), and generated through [`generate::run`].

pub mod data;

use std::path::{Path, PathBuf};

use crate::corpus;
use crate::export::{Series, log_log_lines};
use crate::game::Game;
use crate::generate::{self, Plan};
use crate::results::{EngineSummary, Status, Tally, human_time_f};
use crate::runner::{self, Config, EngineTable, RecordSink, Sink};
use crate::util::progress::ProgressMode;
use crate::util::stats;

/// Why a sweep could not run.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    #[error("{option}: {message}")]
    BadSpec {
        option: &'static str,
        message: String,
    },
    #[error("point {point}: {source}")]
    Options {
        point: String,
        #[source]
        source: clap::Error,
    },
    #[error("point {point}: {source}")]
    Generate {
        point: String,
        #[source]
        source: Box<generate::GenerateError>,
    },
    #[error("point {point}: {source}")]
    Corpus {
        point: String,
        #[source]
        source: Box<corpus::CorpusError>,
    },
    #[error("point {point}: {source}")]
    Run {
        point: String,
        #[source]
        source: Box<runner::RunError>,
    },
}

/// One point of a sweep: its label and the generator options that make it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Point {
    pub label: String,
    pub options: Vec<String>,
}

/// Points of `--size A..B:STEP` (`6x6..30x30:6`: rows and columns both step by 6) or a list
/// `6x6,10x10,...`.
pub fn size_points(spec: &str) -> Result<Vec<Point>, SweepError> {
    let bad = |message: String| SweepError::BadSpec {
        option: "--size",
        message,
    };
    let sizes: Vec<(u64, u64)> = if let Some((range, step)) = spec.split_once("..") {
        let (to, step) = step
            .split_once(':')
            .ok_or_else(|| bad(format!("{spec:?}: a range needs a step, e.g. 5x5..30x30:5")))?;
        let from = parse_rc(range).ok_or_else(|| bad(format!("{range:?} is not RxC")))?;
        let to = parse_rc(to).ok_or_else(|| bad(format!("{to:?} is not RxC")))?;
        let step: u64 = step
            .parse()
            .ok()
            .filter(|&s| s > 0)
            .ok_or_else(|| bad(format!("step {step:?} is not a positive number")))?;
        if from.0 > to.0 || from.1 > to.1 {
            return Err(bad(format!("{spec:?}: the range goes down")));
        }
        (0..)
            .map(|k| (from.0 + k * step, from.1 + k * step))
            .take_while(|&(r, c)| r <= to.0 && c <= to.1)
            .collect()
    } else {
        spec.split(',')
            .map(|s| parse_rc(s).ok_or_else(|| bad(format!("{s:?} is not RxC"))))
            .collect::<Result<_, _>>()?
    };
    if sizes.len() < 2 {
        return Err(bad(format!(
            "{spec:?} gives {} point(s): a sweep needs at least two",
            sizes.len()
        )));
    }
    Ok(sizes
        .into_iter()
        .map(|(r, c)| Point {
            label: format!("{r}x{c}"),
            options: vec!["--size".into(), format!("{r}x{c}")],
        })
        .collect())
}

fn parse_rc(text: &str) -> Option<(u64, u64)> {
    let (r, c) = text.trim().split_once(['x', 'X'])?;
    let (r, c) = (r.parse().ok()?, c.parse().ok()?);
    (r > 0 && c > 0).then_some((r, c))
}

/// Points of `--param NAME=V1,V2,...`: the generator option `--NAME` at each value.
pub fn param_points(spec: &str) -> Result<Vec<Point>, SweepError> {
    let bad = |message: String| SweepError::BadSpec {
        option: "--param",
        message,
    };
    let (name, values) = spec
        .split_once('=')
        .ok_or_else(|| bad(format!("{spec:?} is not NAME=V1,V2,...")))?;
    let name = name.trim().trim_start_matches("--");
    let values: Vec<&str> = values.split(',').map(str::trim).collect();
    if name.is_empty() || values.len() < 2 || values.iter().any(|v| v.is_empty()) {
        return Err(bad(format!(
            "{spec:?}: name an option and at least two values (e.g. moves=10,20,40)"
        )));
    }
    Ok(values
        .into_iter()
        .map(|v| Point {
            label: format!("{name}={v}"),
            options: vec![format!("--{name}"), v.to_string()],
        })
        .collect())
}

/// What to generate at each point.
pub struct Corpus<'a> {
    pub game: &'static dyn Game,
    pub profile: &'a str,
    pub seed: u64,
    /// Files per point.
    pub count: u64,
    /// Folder of the points' corpora (`DIR/<point>/<game>/...`).
    pub dir: &'a Path,
}

/// One point's results.
#[derive(Debug, Clone)]
pub struct PointResult {
    pub point: Point,
    /// The mean size (`cells`) of the point's cases, when the game defines one.
    pub cells: Option<f64>,
    pub summaries: Vec<EngineSummary>,
    /// The worst status of the point's cases.
    pub worst: Option<Status>,
}

/// An engine's fitted power law over the points: `time ≈ coefficient · cells^exponent`.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    pub engine: String,
    pub exponent: f64,
    pub coefficient: f64,
    /// Points the fit used (those where the engine timed some comparable case).
    pub points: usize,
    /// The fit's quality on the log-log axes: 1 - (residual sum of squares) / (total sum of
    /// squares) of ln(time); 1 for a perfect power law, near 0 when size explains nothing.
    /// `NaN` with only two points or no spread in the times (nothing to explain).
    pub r_squared: f64,
}

/// R² of the line `ln y = ln c + k ln x` through the positive points.
fn r_squared(points: &[(f64, f64)], exponent: f64, coefficient: f64) -> f64 {
    let logs: Vec<(f64, f64)> = points
        .iter()
        .filter(|(x, y)| *x > 0.0 && *y > 0.0)
        .map(|(x, y)| (x.ln(), y.ln()))
        .collect();
    let n = logs.len() as f64;
    let mean = logs.iter().map(|p| p.1).sum::<f64>() / n;
    let total: f64 = logs.iter().map(|p| (p.1 - mean).powi(2)).sum();
    let residual: f64 = logs
        .iter()
        .map(|p| (p.1 - coefficient.ln() - exponent * p.0).powi(2))
        .sum();
    if logs.len() <= 2 || total <= 0.0 {
        f64::NAN
    } else {
        1.0 - residual / total
    }
}

/// Generates each point's corpus and runs the engines of `engines` (resolved once by the
/// caller, with their baseline) on it under `config`.
pub fn run(
    corpus: &Corpus<'_>,
    points: &[Point],
    config: &Config,
    engines: &EngineTable,
) -> Result<Vec<PointResult>, SweepError> {
    let game = corpus.game;
    if !game
        .generator()
        .profiles()
        .iter()
        .any(|p| p.name == corpus.profile)
    {
        let names: Vec<&str> = game.generator().profiles().iter().map(|p| p.name).collect();
        return Err(SweepError::BadSpec {
            option: "--profile",
            message: format!(
                "{} has no profile {:?} (profiles: {})",
                game.name(),
                corpus.profile,
                names.join(", ")
            ),
        });
    }
    let mut results = Vec::new();
    for point in points {
        let dir = corpus.dir.join(&point.label).join(game.name());
        let plan = plan(corpus, point, dir.clone())?;
        generate::run(&plan).map_err(|source| SweepError::Generate {
            point: point.label.clone(),
            source: Box::new(source),
        })?;
        let files = corpus::discover(std::slice::from_ref(&dir), Some(game), &[game]).map_err(
            |source| SweepError::Corpus {
                point: point.label.clone(),
                source: Box::new(source),
            },
        )?;
        let mut records = RecordSink::new(Tally::new(0, true));
        let mut sinks: Vec<&mut dyn Sink> = vec![&mut records];
        let outcome =
            runner::run(&files, config, engines, &mut sinks).map_err(|source| SweepError::Run {
                point: point.label.clone(),
                source: Box::new(source),
            })?;
        let all = records.tally.records();
        let cells: Vec<f64> = all
            .iter()
            .filter(|r| r.engine.as_ref() == all[0].engine.as_ref())
            .filter_map(|r| r.cells.map(|c| c as f64))
            .collect();
        results.push(PointResult {
            point: point.clone(),
            cells: stats::mean_stddev(&cells).map(|(m, _)| m),
            summaries: records
                .tally
                .summary(engines.baseline_name().unwrap_or_default()),
            worst: outcome.worst,
        });
    }
    Ok(results)
}

/// What `gen` writes for one point: the corpus's files, without expected outputs, with the
/// point's options read by the game's generator.
fn plan(corpus: &Corpus<'_>, point: &Point, dir: PathBuf) -> Result<Plan, SweepError> {
    let game = corpus.game;
    let options = game
        .generator()
        .parse_options(game.name(), &point.options)
        .map_err(|source| SweepError::Options {
            point: point.label.clone(),
            source,
        })?;
    let mut plan = Plan::new(
        game,
        corpus.profile,
        options,
        corpus.seed,
        corpus.count,
        dir,
    );
    plan.expected = false;
    plan.progress = ProgressMode::Auto;
    Ok(plan)
}

/// Whether an engine's figures at a point can be plotted and fitted: it timed cases and none of
/// them failed (a mismatch or a budget stop is not the same work).
fn usable(s: &EngineSummary) -> bool {
    s.timed > 0 && s.ok + s.unchecked + s.unsolved == s.cases
}

/// The engines of a sweep, in first-appearance order.
fn engines(results: &[PointResult]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for r in results {
        for s in &r.summaries {
            if !names.contains(&s.engine) {
                names.push(s.engine.clone());
            }
        }
    }
    names
}

/// Per engine, the (cells, median time per case) of the points where its figures are usable.
fn series(results: &[PointResult]) -> Vec<(String, Vec<(f64, f64)>)> {
    engines(results)
        .into_iter()
        .map(|engine| {
            let points = results
                .iter()
                .filter_map(|r| {
                    let s = r.summaries.iter().find(|s| s.engine == engine)?;
                    (usable(s) && s.median_ns > 0.0).then_some((r.cells?, s.median_ns))
                })
                .collect();
            (engine, points)
        })
        .collect()
}

/// The power-law fit of every engine (engines with fewer than two usable points have none).
pub fn fits(results: &[PointResult]) -> Vec<Fit> {
    series(results)
        .into_iter()
        .filter_map(|(engine, points)| {
            let (exponent, coefficient) = stats::power_law_fit(&points)?;
            Some(Fit {
                r_squared: r_squared(&points, exponent, coefficient),
                engine,
                exponent,
                coefficient,
                points: points.len(),
            })
        })
        .collect()
}

/// The table: one line per point (its label and mean cells), one column per engine with its
/// median time per case (`!` after a figure whose engine failed some case there: not fitted),
/// then the fitted exponents.
pub fn table(results: &[PointResult], fits: &[Fit]) -> String {
    let names = engines(results);
    let mut lines: Vec<Vec<String>> = Vec::new();
    let mut header = vec!["point".to_string(), "cells".to_string()];
    header.extend(names.iter().map(|n| format!("{n} (median/case)")));
    lines.push(header);
    for r in results {
        let mut line = vec![
            r.point.label.clone(),
            r.cells.map_or(String::new(), |c| format!("{c:.0}")),
        ];
        for name in &names {
            line.push(match r.summaries.iter().find(|s| &s.engine == name) {
                Some(s) if s.timed > 0 => {
                    let mark = if usable(s) { "" } else { " !" };
                    format!("{}{mark}", human_time_f(s.median_ns))
                }
                _ => String::new(),
            });
        }
        lines.push(line);
    }
    let mut text = crate::results::aligned(&lines, |c| c == 0);
    if results
        .iter()
        .any(|r| r.summaries.iter().any(|s| !usable(s)))
    {
        text.push_str(
            "! some case failed (mismatch, error, budget, timeout): left out of the fit\n",
        );
    }
    for fit in fits {
        let quality = if fit.r_squared.is_nan() {
            "R² undefined: two points fit any line".to_string()
        } else {
            format!("R² {:.3}", fit.r_squared)
        };
        text.push_str(&format!(
            "{}: time per case ~ cells^{:.2}, {quality} (least squares on log-log axes over {} points)\n",
            fit.engine, fit.exponent, fit.points
        ));
    }
    for name in &names {
        if !fits.iter().any(|f| &f.engine == name) {
            text.push_str(&format!(
                "{name}: no exponent (fewer than two points with a size and no failure)\n"
            ));
        }
    }
    text
}

/// The sweep's log-log plot: median time per case against mean cells, one line per engine,
/// its exponent in the legend.
pub fn plot(game: &str, results: &[PointResult], fits: &[Fit]) -> Result<String, String> {
    let series: Vec<Series> = series(results)
        .into_iter()
        .filter(|(_, points)| !points.is_empty())
        .map(|(engine, points)| {
            let name = match fits.iter().find(|f| f.engine == engine) {
                Some(f) => format!("{engine} (~ cells^{:.2})", f.exponent),
                None => engine,
            };
            Series { name, points }
        })
        .collect();
    log_log_lines(
        &format!("{game}: median time per case against size (log-log)"),
        "mean size of the cases (cells, turns or selections)",
        &series,
    )
}

/// A folder for the corpora of a sweep when the user names none: under the system's temporary
/// folder, unique to this process.
pub fn scratch_dir() -> PathBuf {
    std::env::temp_dir().join(format!("gamebench-sweep-{}", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_ranges_and_lists() {
        let labels = |spec: &str| -> Vec<String> {
            size_points(spec)
                .unwrap()
                .into_iter()
                .map(|p| p.label)
                .collect()
        };
        assert_eq!(
            labels("6x6..30x30:6"),
            ["6x6", "12x12", "18x18", "24x24", "30x30"]
        );
        assert_eq!(labels("5x10..12x20:5"), ["5x10", "10x15"]);
        assert_eq!(labels("4x4,8x8"), ["4x4", "8x8"]);
        assert_eq!(
            size_points("6x6..30x30:6").unwrap()[1].options,
            ["--size", "12x12"]
        );
        assert!(size_points("6x6..30x30").is_err());
        assert!(size_points("30x30..6x6:6").is_err());
        assert!(size_points("6x6").is_err());
        assert!(size_points("6x6..7x7:0").is_err());
    }

    #[test]
    fn param_points_name_an_option() {
        let points = param_points("moves=10,20").unwrap();
        assert_eq!(points[0].options, ["--moves", "10"]);
        assert_eq!(points[1].label, "moves=20");
        assert!(param_points("moves=10").is_err());
        assert!(param_points("moves").is_err());
    }

    fn summary(engine: &str, median: f64, ok: usize, mismatch: usize) -> EngineSummary {
        let mut s = EngineSummary {
            game: "toy".into(),
            engine: String::new(),
            cases: 0,
            ok: 0,
            unchecked: 0,
            mismatch: 0,
            error: 0,
            unsolved: 0,
            budget: 0,
            timeout: 0,
            memory_limit: 0,
            output_limit: 0,
            runtime_error: 0,
            timing: crate::results::Timing::Case,
            repeated: 0,
            timed: 0,
            total_ns: 0,
            mean_ns: 0.0,
            stddev_ns: 0.0,
            median_ns: 0.0,
            min_ns: 0,
            max_ns: 0,
            runs: 1,
            run_mean_ns: None,
            run_stddev_ns: None,
            user_ns: None,
            sys_ns: None,
            memory_kb: None,
            baseline: None,
            relative: None,
            relative_stddev: None,
            compared_cases: 0,
            speedup_p10: None,
            speedup_median: None,
            speedup_p90: None,
            speed_note: None,
            untimed: None,
        };
        s.engine = engine.into();
        s.median_ns = median;
        s.ok = ok;
        s.mismatch = mismatch;
        s.cases = ok + mismatch;
        s.timed = s.cases;
        s
    }

    fn point(label: &str, cells: f64, summaries: Vec<EngineSummary>) -> PointResult {
        PointResult {
            point: Point {
                label: label.into(),
                options: Vec::new(),
            },
            cells: Some(cells),
            summaries,
            worst: None,
        }
    }

    #[test]
    fn r_squared_by_hand() {
        // ln x = 0, 1, 2 and ln y = 0, 1, 3: slope 3 / 2, intercept -1/6; residuals 1/6,
        // -1/3, 1/6 sum to 1/6 squared; ln y's squares about its mean 4/3 sum to 14/3;
        // R² = 1 - (1/6) / (14/3) = 27/28.
        let e = std::f64::consts::E;
        let points = [(1.0, 1.0), (e, e), (e * e, e.powi(3))];
        let (k, c) = stats::power_law_fit(&points).unwrap();
        assert!((k - 1.5).abs() < 1e-12);
        assert!((r_squared(&points, k, c) - 27.0 / 28.0).abs() < 1e-12);
    }

    #[test]
    fn exponents_fit_by_hand() {
        // fast: 10 ns per cell (exponent 1); slow: cells² ns (exponent 2), but it fails at the
        // last point, which is left out of its fit and marked.
        let results = vec![
            point(
                "a",
                100.0,
                vec![summary("fast", 1e3, 5, 0), summary("slow", 1e4, 5, 0)],
            ),
            point(
                "b",
                400.0,
                vec![summary("fast", 4e3, 5, 0), summary("slow", 1.6e5, 5, 0)],
            ),
            point(
                "c",
                900.0,
                vec![summary("fast", 9e3, 5, 0), summary("slow", 1.0, 4, 1)],
            ),
        ];
        let fits = fits(&results);
        assert_eq!(fits.len(), 2);
        assert!((fits[0].exponent - 1.0).abs() < 1e-9, "{fits:?}");
        assert!((fits[0].coefficient - 10.0).abs() < 1e-6, "{fits:?}");
        assert_eq!((fits[1].points, fits[0].points), (2, 3));
        assert!((fits[1].exponent - 2.0).abs() < 1e-9, "{fits:?}");
        let text = table(&results, &fits);
        assert!(
            text.contains("fast: time per case ~ cells^1.00, R² 1.000"),
            "{text}"
        );
        // Two points: R² says nothing.
        assert!(fits[1].r_squared.is_nan());
        assert!(
            text.contains("slow: time per case ~ cells^2.00, R² undefined"),
            "{text}"
        );
        assert!(text.contains("1 ns !"), "{text}");
        let svg = plot("toy", &results, &fits).unwrap();
        assert!(svg.contains("fast (~ cells^1.00)"), "{svg}");
    }
}
