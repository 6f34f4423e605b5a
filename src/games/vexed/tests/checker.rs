//! The Vexed checker: any minimum solution is accepted, anything else is rejected with why.

use super::*;

fn sample1() -> Puzzle {
    puzzles(SAMPLE_IN).remove(0)
}

#[test]
fn checker_accepts_another_minimum_solution() {
    // SAMPLE-02's published moves are the reference's; the checker must accept them.
    let p = puzzles(SAMPLE_IN).remove(1);
    let blocks = Vexed::split_output(SAMPLE_OUT);
    assert_eq!(check_output(&p, &blocks[1], Some(&blocks[1])), Ok(()));
    let out = "SAMPLE-01: Minimum solution length = 2\n(B,1,3,L) (A,0,1,R)\n";
    assert_eq!(check_output(&sample1(), out, Some(out)), Ok(()));
}

#[test]
fn checker_rejects_bad_outputs() {
    let p = sample1();
    let expected = "SAMPLE-01: Minimum solution length = 2\n(B,1,3,L) (A,0,1,R)\n";
    let check = |out: &str| check_output(&p, out, Some(expected));
    // Wrong letter at (1,3).
    assert!(matches!(
        check("SAMPLE-01: Minimum solution length = 2\n(A,1,3,L) (A,0,1,R)\n"),
        Err(CheckError::IllegalMove { index: 1, .. })
    ));
    // Illegal push: A(0,1) left is the wall (0,0).
    assert!(matches!(
        check("SAMPLE-01: Minimum solution length = 2\n(A,0,1,L) (B,1,3,L)\n"),
        Err(CheckError::IllegalMove { index: 1, .. })
    ));
    // Unsolved end: after B(1,3) L only (the Bs go), A(0,1) and A(2,1) remain.
    assert_eq!(
        check_output(
            &p,
            "SAMPLE-01: Minimum solution length = 1\n(B,1,3,L)\n",
            None
        ),
        Err(CheckError::NotSolved)
    );
    // A claim longer than the expected K (see also the replayable case below).
    let three = "SAMPLE-01: Minimum solution length = 2\n(B,1,3,L) (A,0,1,R)\n";
    assert_eq!(
        check_output(
            &p,
            three,
            Some("SAMPLE-01: Minimum solution length = 1\n(B,1,3,L)\n")
        ),
        Err(CheckError::NotMinimal {
            expected: 1,
            actual: 2
        })
    );
    // K in the header differs from the moves; wrong name; bad layout.
    assert!(matches!(
        check("SAMPLE-01: Minimum solution length = 3\n(B,1,3,L) (A,0,1,R)\n"),
        Err(CheckError::CountMismatch { .. })
    ));
    assert!(matches!(
        check("SAMPLE-1: Minimum solution length = 2\n(B,1,3,L) (A,0,1,R)\n"),
        Err(CheckError::WrongName { .. })
    ));
    assert!(matches!(
        check("SAMPLE-01: Minimum solution length = 2\n(B,1,3,L)  (A,0,1,R)\n"),
        Err(CheckError::Layout { .. })
    ));
    assert!(matches!(
        check("SAMPLE-01: Minimum solution length = 2\n(B,1,3,L)\n(A,0,1,R)\n"),
        Err(CheckError::Layout { line: 2, .. })
    ));
    assert!(matches!(
        check("SAMPLE-01: No solution\n"),
        Err(CheckError::Verdict { .. })
    ));
}

#[test]
fn checker_rejects_a_board_cleared_before_the_last_move() {
    // TRAP-ROW0 clears after its first move; a second move cannot follow.
    let p = puzzles(TRAPS_IN).remove(0);
    let out = "TRAP-ROW0: Minimum solution length = 2\n(A,0,1,R) (A,0,2,R)\n";
    assert_eq!(
        check_output(&p, out, None),
        Err(CheckError::SolvedEarly { index: 1, total: 2 })
    );
}

#[test]
fn checker_rejects_a_valid_but_longer_solution() {
    // TRAP-FALL (K = 2) also clears in 3: A(1,3) L falls to (2,2); A(2,2) L stops at (2,1) on
    // the wall (3,1), under the wall (1,1) that holds A(0,1), so nothing touches; A(0,1) R
    // falls to (2,2) beside A(2,1) and both go. The replay passes; only K betrays it.
    let p = puzzles(TRAPS_IN).remove(1);
    let three = "TRAP-FALL: Minimum solution length = 3\n(A,1,3,L) (A,2,2,L) (A,0,1,R)\n";
    assert_eq!(check_output(&p, three, None), Ok(()));
    let expected = &Vexed::split_output(TRAPS_OUT)[1];
    assert_eq!(
        check_output(&p, three, Some(expected)),
        Err(CheckError::NotMinimal {
            expected: 2,
            actual: 3
        })
    );
}
