//! Unit tests of the runner through mock executors ([`EngineSpec::Custom`]): the order of the
//! rows whatever the completion order and thread count, and the comparison with the baseline.
//! The mocks answer as the game's reference engine (so outputs are well formed) but finish in
//! a scrambled order, and one can be told to disagree on one case.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::*;
use crate::corpus;
use crate::engines::{CaseRun, Executor, FileJob, Plan};
use crate::game::Answer;
use crate::game::Game;
use crate::results::{Row, Timing};
use crate::status::CheckVerdict;
use crate::util::digest::digest;

/// Answers as `engine` would, after a pause that scrambles the completion order.
struct Mock {
    name: String,
    engine: crate::game::EngineRef,
    per_case: bool,
    /// (file digest, case): the case on which it gives a wrong answer.
    wrong: Option<(String, usize)>,
}

impl Mock {
    fn spec(name: &str, game: &'static dyn Game, per_case: bool) -> EngineSpec {
        Mock::wrong_on(name, game, per_case, None)
    }

    fn wrong_on(
        name: &str,
        game: &'static dyn Game,
        per_case: bool,
        wrong: Option<(String, usize)>,
    ) -> EngineSpec {
        EngineSpec::Custom(Arc::new(Mock {
            name: name.to_string(),
            engine: game
                .engine("reference")
                .expect("every game has a reference engine"),
            per_case,
            wrong,
        }))
    }
}

impl Executor for Mock {
    fn name(&self) -> &str {
        &self.name
    }

    fn per_case(&self) -> bool {
        self.per_case
    }

    fn run_case(&self, job: &FileJob<'_>, case: usize, plan: &Plan) -> CaseRun {
        // Later cases (and some files) finish first.
        let key = digest(job.bytes).len() as u64 + job.bytes.len() as u64;
        let pause = (key * 7 + (job.cases.len() - case) as u64 * 13) % 5;
        std::thread::sleep(Duration::from_micros(200 * pause));
        let mut run = self.engine.run_case(job, case, plan);
        if let Ok(answer) = &mut run.result {
            if self.wrong.as_ref() == Some(&(digest(job.bytes), case)) {
                answer.output.push_str("\nX");
            }
            *answer = Answer {
                work: None,
                ..answer.clone()
            };
        }
        run.timing = Timing::Case;
        run
    }
}

/// Keeps every row it is given.
#[derive(Default)]
struct Rows(Vec<Row>);

impl Sink for Rows {
    fn file(&mut self, results: &FileResults<'_>) -> Result<(), SinkError> {
        self.0.extend(results.rows.iter().cloned());
        Ok(())
    }

    fn finish(&mut self, _complete: bool) -> Result<(), SinkError> {
        Ok(())
    }
}

fn samegame() -> (&'static dyn Game, Vec<corpus::CaseFile>) {
    let game = crate::registry::find("samegame").expect("samegame is registered");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpora/samegame");
    let files = corpus::discover(&[root], Some(game), &[game]).expect("the bundled corpus");
    assert!(files.len() > 3, "several files");
    (game, files)
}

fn run_mocks(engines: Vec<EngineSpec>, threads: usize, runs: u32, baseline: &str) -> Vec<Row> {
    let (game, files) = samegame();
    let table = EngineTable::from_specs([(game, engines)]).with_baseline(baseline);
    let config = Config {
        threads: Some(threads),
        runs,
        repeat_short: false,
        ..Config::default()
    };
    let mut rows = Rows::default();
    run(&files, &config, &table, &mut [&mut rows]).expect("the run completes");
    rows.0
}

/// The columns that do not depend on timing.
fn key(row: &Row) -> (String, usize, String, u32, String, String) {
    (
        row.file.clone(),
        row.case,
        row.engine.clone(),
        row.run,
        row.status.as_str().to_string(),
        row.digest.clone(),
    )
}

#[test]
fn rows_come_in_file_case_engine_run_order_whatever_the_completion_order() {
    let (game, files) = samegame();
    let engines = || {
        vec![
            Mock::spec("a", game, true),
            Mock::spec("b", game, false),
            Mock::spec("c", game, true),
        ]
    };
    let one = run_mocks(engines(), 1, 2, "a");
    let four = run_mocks(engines(), 4, 2, "a");
    assert_eq!(
        one.iter().map(key).collect::<Vec<_>>(),
        four.iter().map(key).collect::<Vec<_>>()
    );
    // (file, case, engine, run) order: files in corpus order, engines in the order given.
    let position = |name: &str| files.iter().position(|f| f.row_name() == name).unwrap();
    let engine = |name: &str| ["a", "b", "c"].iter().position(|e| *e == name).unwrap();
    let order: Vec<_> = four
        .iter()
        .map(|r| (position(&r.file), r.case, engine(&r.engine), r.run))
        .collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(order, sorted);
    sorted.dedup();
    assert_eq!(
        order.len(),
        sorted.len(),
        "one row per (file, case, engine, run)"
    );
    // Every case of every file, for each engine, twice.
    let cases: usize = files
        .iter()
        .map(|f| {
            game.parse(
                &std::fs::read(&f.path).unwrap(),
                &crate::game::Reading::STATEMENT,
            )
            .len()
            .max(1)
        })
        .sum();
    assert_eq!(four.len(), cases * 3 * 2);
}

#[test]
fn an_engine_that_disagrees_with_the_baseline_on_one_case_is_a_mismatch_there_only() {
    let (game, files) = samegame();
    let file = &files[1];
    let bytes = std::fs::read(&file.path).unwrap();
    let cases = game.parse(&bytes, &crate::game::Reading::STATEMENT);
    let k = cases
        .iter()
        .position(|c| c.case.is_ok())
        .expect("a playable case");
    let rows = run_mocks(
        vec![
            Mock::spec("base", game, true),
            Mock::wrong_on("other", game, false, Some((digest(&bytes), k))),
        ],
        2,
        1,
        "base",
    );
    let row_name = file.row_name();
    for row in &rows {
        let here = row.file == row_name && row.case == k + 1;
        if row.engine == "other" && here {
            assert_eq!(row.status, Status::Mismatch, "{row:?}");
            assert_eq!(row.verdict, Some(CheckVerdict::WrongAnswer.into()));
            assert!(row.message.contains("other disagrees with base"), "{row:?}");
        } else {
            assert_ne!(row.status, Status::Mismatch, "{row:?}");
        }
    }
    // Compared with the baseline: `ok`, not `unchecked`.
    assert!(rows.iter().any(|r| r.status == Status::Ok));
    assert!(rows.iter().all(|r| r.status != Status::Unchecked));
}

#[test]
fn an_ok_compared_with_nothing_is_unchecked() {
    let (game, _) = samegame();
    // The baseline is not among the engines, and there is no --check.
    let rows = run_mocks(
        vec![Mock::spec("a", game, true), Mock::spec("b", game, false)],
        2,
        1,
        "reference",
    );
    assert!(rows.iter().any(|r| r.status == Status::Unchecked));
    assert!(
        rows.iter().all(|r| r.status != Status::Ok),
        "nothing compared"
    );
    // One engine alone, the baseline itself: nothing to compare with either.
    let rows = run_mocks(vec![Mock::spec("a", game, true)], 1, 1, "a");
    assert!(rows.iter().all(|r| r.status != Status::Ok));
    assert!(rows.iter().any(|r| r.status == Status::Unchecked));
}

#[test]
fn repeats_grow_with_shorter_calls_and_stay_bounded() {
    use crate::engines::{MAX_REPEATS, repeats_for};
    use crate::results::MIN_TIMED_NS;
    assert_eq!(repeats_for(0), MAX_REPEATS);
    assert_eq!(repeats_for(1), MAX_REPEATS);
    assert_eq!(repeats_for(MIN_TIMED_NS), 2);
    assert_eq!(repeats_for(MIN_TIMED_NS / 10), 10);
}

#[test]
fn the_tally_folded_by_the_workers_is_that_of_the_rows() {
    // Two engines, three runs each, on 1 and 3 threads: the summary folded from the
    // results where they were solved (no record built) against the one of the rows' records.
    let (game, files) = samegame();
    for threads in [1, 3] {
        let table = EngineTable::from_specs([(
            game,
            vec![
                Mock::spec("first", game, true),
                Mock::spec("second", game, true),
            ],
        )])
        .with_baseline("first");
        let config = Config {
            threads: Some(threads),
            runs: 3,
            repeat_short: false,
            ..Config::default()
        };
        let mut rows = Rows::default();
        let mut records = RecordSink::new(crate::results::Tally::new(5, false));
        run(&files, &config, &table, &mut [&mut rows, &mut records]).expect("the run completes");
        let whole = crate::results::Tally::of(&crate::results::Record::from_rows(&rows.0), 5);
        let folded = &records.tally;
        assert!(folded.results() > 10, "{}", folded.results());
        assert_eq!(
            (folded.results(), folded.cases()),
            (whole.results(), whole.cases())
        );
        assert_eq!(folded.summary("first"), whole.summary("first"));
        assert_eq!(folded.slowest(), whole.slowest());
    }
}
