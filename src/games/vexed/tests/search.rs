//! The Vexed engines against each other: random puzzles (proptest), the bundled hard and mixed
//! sets, batched and deepening searches, and what a budget stop proves.

use super::*;

proptest! {
    // A fixed seed: the suite meets the same 400 boards on every run, so CI is reproducible
    // (the ignored 5,000-board run below keeps a random seed, to explore).
    #![proptest_config(ProptestConfig {
        cases: 400,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x7e4e_d001),
        ..ProptestConfig::default()
    })]

    #[test]
    fn engines_agree_on_random_puzzles(grid in random_grid()) {
        let puzzle = Puzzle { name: "R".to_string(), grid };
        let slow = reference::solve(&puzzle, &Budget::UNLIMITED).unwrap();
        let fast = bitset::solve(&puzzle, &Budget::UNLIMITED).unwrap();
        prop_assert_eq!(slow.verdict, fast.verdict, "{}", puzzle.grid.draw());
        prop_assert_eq!(Vexed::score(&slow.answer), Vexed::score(&fast.answer), "{}", puzzle.grid.draw());
        if let Some(moves) = &fast.answer {
            let out = format_solution("R", moves);
            prop_assert_eq!(check_output(&puzzle, &out, None), Ok(()));
        }
    }
}

/// Nodes per batch in the tests: few, so that small searches take many batches and layers
/// of `f` span several of them.
const TEST_BATCH_NODES: usize = 3;

/// The batched search (see `bitset/astar/batch.rs`) from the first expansion, on `threads`
/// threads, formatted as the judge output of one case.
fn solve_batched(puzzle: &Puzzle, threads: usize) -> String {
    let budget = Budget {
        threads,
        ..Budget::UNLIMITED
    };
    let outcome = bitset::solve_batched(puzzle, &budget, TEST_BATCH_NODES).unwrap();
    Vexed::format_case(1, puzzle, &outcome)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0xba7c_4ed0),
        ..ProptestConfig::default()
    })]

    /// Batches from the first expansion find the reference's minimum (or prove there is
    /// none, as it does), and write the same bytes on one, two and three threads.
    #[test]
    fn batched_search_agrees_with_the_reference_on_any_thread_count(grid in random_grid()) {
        let puzzle = Puzzle { name: "R".to_string(), grid };
        let slow = reference::solve(&puzzle, &Budget::UNLIMITED).unwrap();
        let one = solve_batched(&puzzle, 1);
        let expected = Vexed::format_case(1, &puzzle, &slow);
        prop_assert_eq!(check_output(&puzzle, &one, Some(&expected)), Ok(()), "{}", puzzle.grid.draw());
        for threads in [2, 3] {
            prop_assert_eq!(&solve_batched(&puzzle, threads), &one, "{}", puzzle.grid.draw());
        }
    }
}

#[test]
fn batched_search_matches_the_reference_k_on_the_bundled_hard_and_mixed_sets() {
    for (input, expected) in BUNDLED_SETS {
        for threads in [1, 2] {
            let output: String = puzzles(input)
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let budget = Budget {
                        threads,
                        ..Budget::UNLIMITED
                    };
                    let outcome = bitset::solve_batched(p, &budget, TEST_BATCH_NODES).unwrap();
                    Vexed::format_case(i + 1, p, &outcome)
                })
                .collect();
            check_all(input, expected, &output);
        }
    }
}

#[test]
fn a_goal_found_one_move_past_the_bound_is_not_taken() {
    // No side walls. Rows: "---", "--A", "--C", "AC#". Moves at the start: A(1,2) L (the A
    // lands on C(3,1), diagonal to A(3,0): nothing goes) and C(2,2) L (it lands on C(3,1), the
    // Cs go, the A drops to (2,2)); neither clears, so K > 1. Then A(2,2) L falls to (3,1),
    // beside A(3,0): K = 2. (The bitset engine once returned 3 here: it accepted a goal
    // generated below a node of depth g = bound.)
    let grid = Grid::new(4, 3, b"-----A--CAC#".to_vec());
    let puzzle = Puzzle {
        name: "R".to_string(),
        grid,
    };
    for engine in Vexed::ENGINES {
        let outcome = (engine.solve)(&puzzle, &Budget::UNLIMITED).unwrap();
        assert_eq!(Vexed::score(&outcome.answer), Some(2), "{}", engine.name);
    }
}

#[test]
fn bitset_matches_the_reference_k_on_the_bundled_hard_and_mixed_sets() {
    for (input, expected) in BUNDLED_SETS {
        check_all(input, expected, &solve_all("bitset", input));
    }
    // Both shapes of A*'s stored boards are among them: narrow (blocks only on cells below
    // 64, one word per plane) and wide (two).
    let narrow = |p: &Puzzle| bitset::planes::Geometry::new(&p.start()).narrow();
    let all: Vec<Puzzle> = BUNDLED_SETS.iter().flat_map(|(i, _)| puzzles(i)).collect();
    assert!(all.iter().any(narrow) && !all.iter().all(narrow));
}

#[test]
fn the_reference_stops_at_its_board_cap_with_status_budget() {
    // SAMPLE-02 needs 9 moves: far more than 50 boards are met before the goal.
    let sample = &puzzles(SAMPLE_IN)[1];
    let capped = reference::solve_within(sample, &Budget::UNLIMITED, 50).unwrap();
    assert_eq!(capped.verdict, Verdict::Budget);
    let free = reference::solve_within(sample, &Budget::UNLIMITED, usize::MAX).unwrap();
    assert_eq!(Vexed::score(&free.answer), Some(9));
}

#[test]
fn the_deepening_fallback_matches_the_reference_k() {
    // With no memory for A* the whole search is iterative deepening; with a few kilobytes A*
    // stops part-way on the larger puzzles and deepening finishes with the rest of the budget.
    let hard = include_str!("../../../../corpora/vexed/hard/vexed-hard-1-0.in");
    let hard_out = include_str!("../../../../corpora/vexed/hard/vexed-hard-1-0.out");
    for memory in [0, 4 << 10] {
        let solve = |input: &str| -> String {
            puzzles(input)
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let outcome = bitset::solve_within(p, &Budget::UNLIMITED, memory).unwrap();
                    Vexed::format_case(i + 1, p, &outcome)
                })
                .collect()
        };
        check_all(hard, hard_out, &solve(hard));
        check_all(SAMPLE_IN, SAMPLE_OUT, &solve(SAMPLE_IN));
        assert_eq!(solve(UNSOLVABLE_IN), UNSOLVABLE_OUT);
    }
}

/// The minimum of each case of an expected output (`None`: no solution).
fn minima(expected: &str) -> Vec<Option<u64>> {
    Vexed::split_output(expected)
        .iter()
        .map(|block| {
            let k = block.split("Minimum solution length = ").nth(1)?;
            k.lines().next()?.trim().parse().ok()
        })
        .collect()
}

#[test]
fn a_budget_stop_reports_a_length_no_solution_is_shorter_than() {
    // Each engine and search path, stopped after a growing number of states on the hard set:
    // the length it reports proven must never exceed the minimum (from the expected output,
    // written by the reference), must not drop as the budget grows, and must reach the
    // minimum itself on some puzzle (a search stopped in its last layer).
    type Solve =
        fn(&Puzzle, &Budget) -> Result<crate::game::Outcome<Solution>, crate::game::CaseError>;
    let paths: [(&str, Solve); 4] = [
        ("reference", reference::solve),
        ("bitset", bitset::solve),
        ("bitset, deepening after 4 KB of A*", |p, b| {
            bitset::solve_within(p, b, 4 << 10)
        }),
        ("bitset, batches of 8", |p, b| {
            bitset::solve_batched(p, b, 8)
        }),
    ];
    let hard = include_str!("../../../../corpora/vexed/hard/vexed-hard-1-0.in");
    let hard_out = include_str!("../../../../corpora/vexed/hard/vexed-hard-1-0.out");
    let cases: Vec<(Puzzle, Option<u64>)> =
        puzzles(hard).into_iter().zip(minima(hard_out)).collect();
    for (path, solve) in paths {
        let mut reached = 0;
        for (puzzle, k) in &cases {
            let k = k.expect("every hard puzzle is solvable");
            let mut last = 0;
            for states in [1, 4, 16, 64, 256, 1024, 4096] {
                let budget = Budget {
                    max_states: Some(states),
                    ..Budget::UNLIMITED
                };
                let outcome = solve(puzzle, &budget).unwrap();
                let Some(least) = outcome.at_least else {
                    assert_ne!(outcome.verdict, Verdict::Budget, "{path}, {}", puzzle.name);
                    continue;
                };
                assert_eq!(outcome.verdict, Verdict::Budget, "{path}, {}", puzzle.name);
                assert!(
                    (1..=k).contains(&least),
                    "{path}, {}: K >= {least}, K = {k}",
                    puzzle.name
                );
                assert!(
                    least >= last,
                    "{path}, {}: {least} after {last}",
                    puzzle.name
                );
                last = least;
                reached += usize::from(least == k);
            }
        }
        assert!(reached > 0, "{path}: no stop proved the minimum itself");
    }
}

#[test]
fn a_memory_budget_too_small_for_astar_still_gives_the_expected_minimum() {
    // 16 KB: A* runs out part-way on the larger hard puzzles; the deepening's table and races
    // are then sized to the same 16 KB (a few hundred states) and must still be exact.
    let hard = include_str!("../../../../corpora/vexed/hard/vexed-hard-1-0.in");
    let hard_out = include_str!("../../../../corpora/vexed/hard/vexed-hard-1-0.out");
    let budget = Budget {
        memory: Some(16 << 10),
        ..Budget::UNLIMITED
    };
    let solve = |input: &str| -> String {
        puzzles(input)
            .iter()
            .enumerate()
            .map(|(i, p)| Vexed::format_case(i + 1, p, &bitset::solve(p, &budget).unwrap()))
            .collect()
    };
    check_all(hard, hard_out, &solve(hard));
    check_all(SAMPLE_IN, SAMPLE_OUT, &solve(SAMPLE_IN));
    assert_eq!(solve(UNSOLVABLE_IN), UNSOLVABLE_OUT);
    // The reference search keeps as many boards as fit (300 bytes each): 16 KB is 54 boards,
    // too few for SAMPLE-02 (9 moves, far more boards), which stops with `budget`; with
    // room for every board it solves.
    let sample = &puzzles(SAMPLE_IN)[1];
    let small = reference::solve(sample, &budget).unwrap();
    assert_eq!(small.verdict, Verdict::Budget);
    let roomy = Budget {
        memory: Some(64 << 20),
        ..Budget::UNLIMITED
    };
    let solved = reference::solve(sample, &roomy).unwrap();
    assert_eq!(Vexed::score(&solved.answer), Some(9));
}

/// Most boards the reference BFS may meet in the stress run (see below).
const STRESS_BOARDS: usize = 200_000;

proptest! {
    #![proptest_config(ProptestConfig { cases: 5000, ..ProptestConfig::default() })]

    /// The same agreement on many more boards: `cargo test --release -- --ignored vexed`.
    #[test]
    #[ignore]
    fn engines_agree_on_many_random_puzzles(grid in random_grid()) {
        let puzzle = Puzzle { name: "R".to_string(), grid };
        // A few boards reach millions of states: the BFS would stop at its cap (status
        // `budget`) after seconds, and a run that meets one would spend minutes there (and
        // report a mismatch of verdicts that is no disagreement). Skip them, sooner.
        let slow = reference::solve_within(&puzzle, &Budget::UNLIMITED, STRESS_BOARDS).unwrap();
        prop_assume!(slow.verdict != Verdict::Budget);
        let fast = bitset::solve(&puzzle, &Budget::UNLIMITED).unwrap();
        prop_assert_eq!(slow.verdict, fast.verdict, "{}", puzzle.grid.draw());
        prop_assert_eq!(Vexed::score(&slow.answer), Vexed::score(&fast.answer), "{}", puzzle.grid.draw());
    }
}
