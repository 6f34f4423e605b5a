//! A fifth game, defined entirely here, goes through the generic machinery: the proof that
//! adding a game is its own folder plus one registry line.
//!
//! The toy game "sums": a judge file is `N`, then N lines of numbers; the answer to a line is
//! `Case k: S` with S the sum of its numbers. Below are its rules, one engine, and a generator
//! with one profile and its own `clap` option; `GAMES` is its registry line (in gamebench,
//! `src/registry.rs`). Everything after that is generic gamebench code: the `gen` command built
//! from the registry, `generate::run` writing the files, and `Game::parse`, `solve` (which
//! formats) and `check` reading them back.

use gamebench::cli::GenArgs;
use gamebench::game::{
    Budget, CaseError, CaseSize, Engine, Game, Outcome, Parsed, Reading, Registered, Rules, Shrink,
    Solver,
};
use gamebench::generate;
use gamebench::validate::{self, Validation, Violation};
use gamebench_generators::{Dice, FileId, GenError, Generator, Profile, range_option};

/// The toy game.
struct Sums;

impl Rules for Sums {
    type Case = Vec<u64>;
    type Answer = u64;

    const NAME: &'static str = "sums";
    const TITLE: &'static str = "Sums of lines of numbers (a toy)";
    const WORK_UNIT: &'static str = "terms";
    const DEFAULT_ENGINE: &'static str = "reference";

    const ENGINES: &'static [Engine<Vec<u64>, u64>] = &[Engine {
        name: "reference",
        about: "adds the numbers up",
        solve: |terms, _budget| Ok(Outcome::solved(terms.iter().sum(), terms.len() as u64)),
    }];

    fn parse(input: &[u8], _reading: &Reading) -> Vec<Parsed<Vec<u64>>> {
        let text = String::from_utf8_lossy(input);
        text.lines()
            .enumerate()
            .skip(1)
            .map(|(i, line)| Parsed {
                line: i + 1,
                label: String::new(),
                size: String::new(),
                case: line
                    .split_whitespace()
                    .map(|t| t.parse().map_err(|_| CaseError::new(i + 1, "not a number")))
                    .collect(),
            })
            .collect()
    }

    /// The toy's statement: `N`, then exactly N lines of single-spaced numbers (read whole:
    /// a toy's files are small).
    fn validate_reader(input: &mut dyn std::io::BufRead) -> std::io::Result<Validation> {
        let mut bytes = Vec::new();
        input.read_to_end(&mut bytes)?;
        let lines = validate::lines(&bytes);
        let mut out = Validation::default();
        for line in &lines {
            validate::check_line(line, None, &mut out);
            let (fields, problem) = validate::single_spaced(line.text);
            if let Some(problem) = problem {
                out.push(Violation::new(None, line.number, problem, "single spaces"));
            }
            for field in fields {
                if let Err(e) = validate::number(field) {
                    out.push(Violation::new(
                        None,
                        line.number,
                        e.describe(field),
                        "numbers",
                    ));
                }
            }
        }
        out.cases = lines.len().saturating_sub(1);
        let count = lines.first().and_then(|l| validate::number(l.text).ok());
        if count != Some(out.cases as u64) {
            out.push(Violation::new(None, 1, "a wrong N", "N lines follow"));
        }
        Ok(out)
    }

    fn format_case(index: usize, _case: &Vec<u64>, outcome: &Outcome<u64>) -> String {
        format!("Case {index}: {}\n", outcome.answer)
    }

    fn starts_block(line: &str) -> bool {
        line.starts_with("Case ")
    }

    fn score(answer: &u64) -> Option<u64> {
        Some(*answer)
    }
}

/// The toy's own `gen` option.
#[derive(clap::Args)]
struct SumsArgs {
    /// Numbers per line, N or A-B (1-9).
    #[arg(long)]
    terms: Option<String>,
}

impl Generator for Sums {
    type Args = SumsArgs;
    type Tools = Solver<Sums>;
    const PROFILES: &'static [Profile] = &[Profile::new(
        "even",
        "five lines whose sums the lent engine finds even",
    )];

    fn generate(
        _file: &FileId<'_>,
        args: &SumsArgs,
        dice: &mut Dice,
        solver: &Solver<Sums>,
    ) -> Result<String, GenError> {
        let (lo, hi) = range_option("--terms", args.terms.as_deref(), (1, 3), (1, 9))?;
        let mut lines = Vec::new();
        while lines.len() < 5 {
            let terms: Vec<u64> = (0..dice.range(lo, hi)).map(|_| dice.below(100)).collect();
            if solver.score(&terms).is_some_and(|sum| sum % 2 == 0) {
                let words: Vec<String> = terms.iter().map(u64::to_string).collect();
                lines.push(words.join(" "));
            }
        }
        Ok(format!("{}\n{}\n", lines.len(), lines.join("\n")))
    }
}

/// The toy's edits of its cases, for `stress` (shrinking) and `hunt` (mutations).
impl Shrink for Sums {
    const MOVES: &'static str = "terms";
    const MAX_CASES: usize = usize::MAX;

    fn write_input(cases: &[&Vec<u64>]) -> String {
        let lines: Vec<String> = cases
            .iter()
            .map(|terms| {
                let words: Vec<String> = terms.iter().map(u64::to_string).collect();
                words.join(" ") + "\n"
            })
            .collect();
        format!("{}\n{}", cases.len(), lines.concat())
    }

    fn size(terms: &Vec<u64>) -> CaseSize {
        CaseSize {
            cells: 0,
            moves: terms.len(),
            magnitude: terms.iter().sum(),
        }
    }

    fn reductions(terms: &Vec<u64>) -> Vec<Vec<u64>> {
        let dropped = (0..terms.len()).map(|i| {
            let mut t = terms.clone();
            t.remove(i);
            t
        });
        let halved = (0..terms.len()).filter(|&i| terms[i] > 0).map(|i| {
            let mut t = terms.clone();
            t[i] /= 2;
            t
        });
        dropped.chain(halved).collect()
    }

    fn mutate(terms: &Vec<u64>, dice: &mut Dice) -> Vec<u64> {
        let mut t = terms.clone();
        if !t.is_empty() {
            let i = dice.below(t.len() as u64) as usize;
            t[i] = dice.below(100);
        }
        t
    }
}

/// The toy's registry: one line, as in `src/registry.rs`.
static GAMES: &[&dyn Game] = &[&Registered::<Sums>::new()];

/// Parses a `gen` command line against the toy registry, as `gamebench gen` does against the
/// real one.
fn gen_args(words: &[&str]) -> Result<GenArgs, clap::Error> {
    let cmd = GenArgs::augment(clap::Command::new("gen"), GAMES);
    let matches = cmd.try_get_matches_from(std::iter::once("gen").chain(words.iter().copied()))?;
    GenArgs::from_matches(GAMES, &matches)
}

#[test]
fn a_game_defined_here_generates_parses_solves_formats_and_checks() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let args = gen_args(&[
        "sums", "-p", "even", "-s", "3", "-n", "2", "-o", out, "--terms", "2-4",
    ])
    .unwrap();
    let written = generate::run(&args.plan().unwrap()).unwrap();
    assert_eq!(written.files, 2);

    let game = GAMES[0];
    for k in 0..2 {
        let input = std::fs::read(dir.path().join(format!("sums-even-3-{k}.in"))).unwrap();
        let expected =
            std::fs::read_to_string(dir.path().join(format!("sums-even-3-{k}.out"))).unwrap();
        let cases = game.parse(&input, &Reading::STATEMENT);
        assert_eq!(cases.len(), 5);
        let validation = game.validate(&input);
        assert!(validation.is_valid(), "{:?}", validation.violations);
        assert_eq!(validation.cases, 5);
        assert!(!game.validate(b"2\n1  2\n").is_valid());
        let mut blocks = Vec::new();
        for (i, parsed) in cases.iter().enumerate() {
            let case = parsed.case.as_ref().unwrap();
            let (solved, _) = game
                .reference()
                .solve(i + 1, case.as_ref(), &Budget::UNLIMITED)
                .unwrap();
            assert_eq!(
                solved.score.unwrap() % 2,
                0,
                "the generator kept even sums only"
            );
            assert!((2..=4).contains(&solved.work.unwrap()), "--terms 2-4");
            blocks.push(solved.output);
        }
        let blocks: Vec<&str> = blocks.iter().map(String::as_str).collect();
        assert_eq!(
            game.join(&blocks),
            expected,
            "gen wrote the engine's output"
        );
        for (i, block) in game.split_output(&expected).iter().enumerate() {
            let case = cases[i].case.as_ref().unwrap();
            assert_eq!(game.check(case.as_ref(), block, block), Ok(()));
            assert!(game.check(case.as_ref(), block, "Case 1: 1\n").is_err());
        }
    }
    // The typed entry point writes the same bytes as the command.
    let text = generate::file::<Sums>("even", &gen_options(&["--terms", "2-4"]), 3, 1).unwrap();
    let on_disk = std::fs::read_to_string(dir.path().join("sums-even-3-1.in")).unwrap();
    assert_eq!(text, on_disk);
}

fn gen_options(words: &[&str]) -> SumsArgs {
    gamebench_generators::parse_args(words).unwrap()
}

#[test]
fn the_command_is_built_from_the_registry_with_the_game_s_own_options() {
    let help = GenArgs::augment(clap::Command::new("gen"), GAMES)
        .render_help()
        .to_string();
    assert!(
        help.contains("sums") && help.contains(Sums::TITLE),
        "{help}"
    );
    // Only the toy's own option is accepted, and only its profiles.
    assert!(gen_args(&["sums", "-o", "x", "--size", "3x3"]).is_err());
    assert!(gen_args(&["sums", "-o", "x", "-p", "odd"]).is_err());
    assert!(gen_args(&["other", "-o", "x"]).is_err());
    // It has no `random` profile, so --profile is required (unless an external generator
    // writes the inputs: checked when the plan is made, not by the parser).
    let err = gen_args(&["sums", "-o", "x"])
        .unwrap()
        .plan()
        .err()
        .expect("no profile and no generator: an error")
        .to_string();
    assert!(err.contains("gen sums: --profile is required"), "{err}");
    let args = gen_args(&["sums", "-o", "x", "-p", "even"]).unwrap();
    assert_eq!(args.game.name(), "sums");
    assert_eq!((args.common.seed, args.common.count), (1, 1));
    assert_eq!(args.game.generator().profiles(), Sums::PROFILES);
}
