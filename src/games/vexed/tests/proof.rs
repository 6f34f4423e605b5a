//! The proof mode (`Budget::max_moves`): with a cap of `K` moves every engine and search path
//! finds the minimum when it is at most `K`, and otherwise proves that none is: status
//! `budget` with `at_least` exactly the minimum when `K` is one less than it (the bound can
//! never exceed the minimum, and the proof gives at least `K + 1`). Minima come from the
//! reference breadth-first search without a cap, and from boards derived by hand.

use super::*;

type Solve = fn(&Puzzle, &Budget) -> Result<crate::game::Outcome<Solution>, crate::game::CaseError>;

/// Every search path: the reference, A* (its boards compact where they fit, and as planes),
/// A* in batches from the first expansion (on two
/// threads), deepening alone (no memory for A*) and deepening after a few KB of A*.
const PATHS: [(&str, Solve); 6] = [
    ("reference", reference::solve),
    ("bitset", bitset::solve),
    ("bitset, boards as planes", |p, b| {
        bitset::solve_stored(p, b, bitset::Boards::Planes)
    }),
    ("bitset, batches of 8 on 2 threads", |p, b| {
        let budget = Budget {
            threads: 2,
            ..b.clone()
        };
        bitset::solve_batched(p, &budget, 8)
    }),
    ("bitset, deepening only", |p, b| {
        bitset::solve_within(p, b, 0)
    }),
    ("bitset, deepening after 4 KB of A*", |p, b| {
        bitset::solve_within(p, b, 4 << 10)
    }),
];

fn capped(k: u64) -> Budget {
    Budget {
        max_moves: Some(k),
        ..Budget::UNLIMITED
    }
}

/// Checks every path on `puzzle`, whose minimum is `minimum` (`None`: no solution), with the
/// caps from `around` below it to `around - 1` above it. `Err` names the path, the cap and what went wrong.
fn check_caps(puzzle: &Puzzle, minimum: Option<u64>, around: u64) -> Result<(), String> {
    let drawn = puzzle.grid.draw();
    for (path, solve) in PATHS {
        let caps: Vec<u64> = match minimum {
            Some(m) => (m.saturating_sub(around)..=m + around.saturating_sub(1)).collect(),
            None => vec![0, 1, 3],
        };
        for cap in caps {
            let outcome = solve(puzzle, &capped(cap)).map_err(|e| e.to_string())?;
            let at = format!("{path}, --max-moves {cap}, minimum {minimum:?}:\n{drawn}");
            match minimum {
                Some(m) if m <= cap => {
                    if outcome.verdict != Verdict::Solved {
                        return Err(format!("{at}: {:?}, not solved", outcome.verdict));
                    }
                    let moves = outcome.answer.as_ref().ok_or(format!("{at}: no moves"))?;
                    if moves.len() as u64 != m {
                        return Err(format!("{at}: {} moves", moves.len()));
                    }
                    let out = format_solution(&puzzle.name, moves);
                    check_output(puzzle, &out, None).map_err(|e| format!("{at}: {e}"))?;
                }
                _ => {
                    // No solution of at most `cap` moves: a proof, never a solution.
                    let least = outcome.at_least;
                    match (outcome.verdict, minimum) {
                        // Proven unsolvable outright: right only when it is.
                        (Verdict::Unsolved, None) => {}
                        (Verdict::Budget, _) => {
                            let least = least.ok_or(format!("{at}: no bound"))?;
                            if least <= cap {
                                return Err(format!("{at}: only K >= {least} proven"));
                            }
                            if minimum.is_some_and(|m| least > m) {
                                return Err(format!("{at}: K >= {least}, above the minimum"));
                            }
                            if minimum == Some(cap + 1) && least != cap + 1 {
                                return Err(format!("{at}: K >= {least}"));
                            }
                        }
                        (verdict, _) => return Err(format!("{at}: {verdict:?}")),
                    }
                }
            }
        }
    }
    Ok(())
}

#[test]
fn hand_derived_boards_are_proven_above_a_cap_below_their_minimum() {
    // FAR: each B falls one row when pushed off its wall; on the floor they stand five cells
    // apart and each push closes the gap by one: four moves. NEAR: two A one cell apart on a
    // floor; one push makes them touch. TWO: see `a_goal_found_one_move_past_the_bound_...`
    // in `search.rs` (two moves, derived there).
    let boards: [(&str, usize, usize, &[u8], u64); 3] = [
        ("FAR", 4, 8, b"#B----B###----####----##########", 4),
        ("NEAR", 3, 5, b"#A-A###########", 1),
        ("TWO", 4, 3, b"-----A--CAC#", 2),
    ];
    for (name, rows, cols, cells, minimum) in boards {
        let puzzle = Puzzle {
            name: name.to_string(),
            grid: Grid::new(rows, cols, cells.to_vec()),
        };
        check_caps(&puzzle, Some(minimum), 2).unwrap();
    }
}

#[test]
fn unsolvable_boards_are_never_solved_under_a_cap() {
    for puzzle in puzzles(UNSOLVABLE_IN) {
        check_caps(&puzzle, None, 0).unwrap();
    }
}

#[test]
fn the_hard_set_is_proven_above_its_minimum_less_one_on_every_path() {
    let hard = include_str!("../../../../corpora/vexed/hard/vexed-hard-1-0.in");
    let hard_out = include_str!("../../../../corpora/vexed/hard/vexed-hard-1-0.out");
    for (puzzle, block) in puzzles(hard).iter().zip(Vexed::split_output(hard_out)) {
        let minimum = block
            .split("Minimum solution length = ")
            .nth(1)
            .and_then(|k| k.lines().next()?.trim().parse().ok());
        assert!(
            minimum.is_some(),
            "{}: every hard puzzle is solvable",
            puzzle.name
        );
        check_caps(puzzle, minimum, 1).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 100,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x9e00_f0de),
        ..ProptestConfig::default()
    })]

    /// The minimum from the reference without a cap, then every path with caps around it.
    #[test]
    fn random_boards_are_proven_or_solved_around_their_minimum(grid in random_grid()) {
        let puzzle = Puzzle { name: "R".to_string(), grid };
        let free = reference::solve(&puzzle, &Budget::UNLIMITED).unwrap();
        let minimum = free.answer.as_ref().map(|moves| moves.len() as u64);
        prop_assert!(free.verdict != Verdict::Budget);
        if let Err(e) = check_caps(&puzzle, minimum, 2) {
            prop_assert!(false, "{}", e);
        }
    }
}
