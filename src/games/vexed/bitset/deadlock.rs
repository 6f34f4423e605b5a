//! Trough deadlocks: boards the per-letter bound ([`super::bound`]) thinks live but that can
//! never be cleared, because blocks of different letters lie in each other's way on a floor.
//!
//! A *trough* is a maximal run of open cells of one row, each resting on a wall (or on the
//! board's bottom edge), closed by a wall or the board's edge at both ends. A block in a
//! trough never leaves it except by going with its group: it cannot fall (wall below), rise
//! (nothing moves up), or leave the run sideways (closed ends); and two blocks in a trough
//! never change order (a push moves a block into an empty neighbouring cell only).
//!
//! A letter of two or three blocks goes in one event (blocks are never made, and a partial
//! removal would leave a lone block, which never goes). In that event its group is connected
//! and has at most three blocks, so two of its blocks `a`, `b` in one trough are then next to
//! each other or have the third block between them (a block next to both must be in their
//! row, between them). Hence every block of another letter lying between `a` and `b` now must
//! be gone before: if it is of a letter of two or three blocks, that letter's event comes
//! first. A cycle in this "comes first" relation cannot happen in any solution: the board is
//! dead.
//!
//! Many dead states the per-letter bound misses have a letter of three blocks, whose one-event
//! removal the bound cannot tie to the other letters: this test catches some of them.
//!
//! Cost: the search tests a node when it takes it, not when it makes it (most stored nodes
//! are never taken), with the letter sets its bound already computed
//! ([`Troughs::deadlocked_letters`]), bitwise; a node whose troughs are its (expanded, so
//! live) parent's skips the test ([`Troughs::unchanged`]). The effect on the bundled sets and
//! the level packs is recorded in `benches/README.md` (Vexed).
//!
//! Soundness is tested against the reference BFS on random boards built to have interleaved
//! floors (`deadlocked_boards_have_no_solution`) and on random ledges open at one end
//! (`open_ended_ledges_are_never_deadlocked_when_solvable`), and the search with it against
//! the BFS by the property tests of `super::tests`.

use super::planes::{Cells, Geometry, State, indices};

/// Letter codes are `1..=26`: a `u32` bit set of codes.
type Codes = u32;

/// The troughs of one board.
#[derive(Debug, Clone, Default)]
pub(crate) struct Troughs {
    /// One mask per trough (cells of one row, consecutive).
    runs: Vec<Cells>,
    /// Every trough cell.
    cells: Cells,
    /// Letters on the board (codes `1..=letters`).
    letters: usize,
}

impl Troughs {
    pub(crate) fn new(geo: &Geometry) -> Troughs {
        let open = geo.board & !geo.walls;
        // Resting on a wall, or on the bottom edge (no row below).
        let floor = open & (geo.row_up(geo.walls) | geo.bottom);
        let mut troughs = Troughs {
            letters: geo.letters.len(),
            ..Troughs::default()
        };
        // Run by run, from each first floor cell not yet in a run (most cells are not floor).
        let mut rest = floor;
        while !rest.is_empty() {
            let first = rest.first();
            let (row, start) = (first / geo.cols, first % geo.cols);
            let mut col = start;
            let mut run = Cells::EMPTY;
            while col < geo.cols && floor.contains(row * geo.cols + col) {
                run |= Cells::cell(row * geo.cols + col);
                col += 1;
            }
            rest &= !run;
            // Closed ends: the board's edge or a wall (an open cell that is not a floor
            // cell would let a block be pushed out and fall).
            let closed = |c: usize| geo.walls.contains(row * geo.cols + c);
            let left_closed = start == 0 || closed(start - 1);
            let right_closed = col == geo.cols || closed(col);
            if left_closed && right_closed && col - start >= 2 {
                troughs.runs.push(run);
                troughs.cells |= run;
            }
        }
        troughs
    }

    /// True when `child`, a board made from `parent` by a push, holds the same blocks in
    /// its troughs as `parent` and no block went: then every trough holds the same letters
    /// in the same cells (blocks leave a trough only by going, and a block that came in
    /// would show as an occupied cell) and every letter keeps its count, which is all
    /// [`Troughs::deadlocked`] looks at, so both boards get the same answer.
    pub(crate) fn unchanged<const P: usize>(&self, parent: &State<P>, child: &State<P>) -> bool {
        let (before, after) = (parent.occupied(), child.occupied());
        before & self.cells == after & self.cells && before.len() == after.len()
    }

    /// True when the (stable) board can never be cleared because of a cycle of letters that
    /// must each go before the next (module docs).
    ///
    /// Bitwise: for each letter `m` of two or three blocks with two of them in one trough,
    /// the cells strictly between its outermost two there are a mask, and every other such
    /// letter with a block in that mask must go before `m`. Letters with fewer than two
    /// blocks in troughs get no edge into them, so they lie on no cycle and are left out.
    /// A test checks that this equals the plain scan of each trough it replaced.
    pub(crate) fn deadlocked<const P: usize>(&self, state: &State<P>) -> bool {
        let mut sets = [Cells::EMPTY; MAX_LETTERS];
        for (i, set) in sets.iter_mut().enumerate().take(self.letters) {
            *set = state.letter(i + 1);
        }
        self.deadlocked_letters(state.occupied(), &sets[..self.letters])
    }

    /// [`Troughs::deadlocked`] of the board with these `occupied` cells and letter sets
    /// (`sets[i]`: the cells of letter code `i + 1`, every letter of the board), for a caller
    /// that has the sets at hand.
    pub(crate) fn deadlocked_letters(&self, occupied: Cells, sets: &[Cells]) -> bool {
        debug_assert_eq!(sets.len(), self.letters);
        // A cycle needs two letters, each with a block of the other between two of its own
        // in a trough: four blocks in troughs at least.
        if at_most(occupied & self.cells, 3) {
            return false;
        }
        // Bit `i`: letter `i` has two or three blocks (one event), two of them in troughs.
        let mut waiting: Codes = 0;
        for (i, &set) in sets.iter().enumerate() {
            if !at_most(set & self.cells, 1) && at_most(set, 3) {
                waiting |= 1 << i;
            }
        }
        if waiting & waiting.wrapping_sub(1) == 0 {
            return false;
        }
        // `after[o]`: the letters whose event must come after letter `o`'s.
        let mut after: [Codes; MAX_LETTERS] = [0; MAX_LETTERS];
        for m in indices(waiting) {
            let set = sets[m];
            for &run in &self.runs {
                let mine = set & run;
                if at_most(mine, 1) {
                    continue;
                }
                let others = occupied & mine.between() & !set;
                if others.is_empty() {
                    continue;
                }
                for o in indices(waiting & !(1 << m)) {
                    if sets[o].intersects(others) {
                        after[o] |= 1 << m;
                    }
                }
            }
        }
        has_cycle(&after, waiting)
    }

    /// [`Troughs::deadlocked`] as first written: each trough's blocks read cell by cell into
    /// letter codes, then scanned (the test oracle of the bitwise version).
    #[cfg(test)]
    fn deadlocked_plain<const P: usize>(&self, state: &State<P>) -> bool {
        let occupied = state.occupied();
        if (occupied & self.cells).len() < 3 {
            // A cycle needs some letter with two blocks in a trough and a block between.
            return false;
        }
        // `after[m]`: the letters whose event must come after letter `m`'s.
        let mut after: [Codes; 32] = [0; 32];
        let mut involved: Codes = 0;
        // Per code: 0 not looked at yet, 1 goes in one event, 2 does not.
        let mut single = [0u8; 32];
        let mut one_event = |code: usize| {
            if single[code] == 0 {
                let count = state.letter(code).len();
                single[code] = if (2..=3).contains(&count) { 1 } else { 2 };
            }
            single[code] == 1
        };
        for &run in &self.runs {
            let inside = occupied & run;
            if inside.len() < 3 {
                continue;
            }
            // The run's blocks in order (consecutive bits), as letter codes.
            let mut codes = [0u8; MAX_COLS];
            let mut count = 0;
            for cell in inside.iter() {
                codes[count] = state.code_at(cell) as u8;
                count += 1;
            }
            let codes = &codes[..count];
            for (i, &code) in codes.iter().enumerate() {
                let code = usize::from(code);
                // The outermost two blocks of `code`: its first here and its last.
                let Some(last) = codes.iter().rposition(|&c| usize::from(c) == code) else {
                    continue;
                };
                if codes[..i].contains(&(code as u8)) || last < i + 2 || !one_event(code) {
                    continue;
                }
                for &other in &codes[i + 1..last] {
                    let other = usize::from(other);
                    if other != code && one_event(other) {
                        after[other] |= 1 << code;
                        involved |= 1 << code | 1 << other;
                    }
                }
            }
        }
        involved != 0 && has_cycle(&after, involved)
    }
}

/// Most blocks in one trough (a row of a board of at most 128 cells).
#[cfg(test)]
const MAX_COLS: usize = crate::games::vexed::MAX_CELLS;

/// Most letters on a board (A to Z): [`Troughs::deadlocked_letters`]' `Codes` have a bit
/// per letter, `i` for code `i + 1`.
const MAX_LETTERS: usize = 26;

/// True when `set` has at most `n` cells (clearing its lowest cell `n` times, with no
/// `popcnt` needed).
#[inline(always)]
fn at_most(mut set: Cells, n: u32) -> bool {
    for _ in 0..n {
        set = set.without_first();
    }
    set.is_empty()
}

/// True when the relation `edges` (`edges[m]`: the codes after `m`) over the codes in
/// `nodes` has a cycle: peel off codes with nothing before them until none is left (no
/// cycle) or none can be peeled (cycle).
fn has_cycle(edges: &[Codes], nodes: Codes) -> bool {
    let mut left = nodes;
    loop {
        // Codes with some predecessor still left.
        let mut waiting: Codes = 0;
        for code in indices(left) {
            waiting |= edges[code];
        }
        let free = left & !waiting;
        if free == 0 {
            return left != 0;
        }
        left &= !free;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Budget, Outcome, Verdict};
    use crate::games::vexed::grid::Grid;
    use crate::games::vexed::test_rng::Rng;
    use crate::games::vexed::{Puzzle, Solution, reference};

    /// What the reference BFS finds for `grid`, without a budget.
    fn by_reference(grid: &Grid) -> Outcome<Solution> {
        let puzzle = Puzzle {
            name: "T".into(),
            grid: grid.clone(),
        };
        reference::solve(&puzzle, &Budget::UNLIMITED).expect("the reference never errs")
    }

    /// Random boards of the soundness check.
    const BOARDS: usize = 20_000;

    /// A small settled board with a walled floor, few letters of two or three blocks, often
    /// interleaved on the floor (where deadlocks live).
    fn random_board(rng: &mut Rng) -> Grid {
        let rows = 3 + rng.below(3);
        let cols = 5 + rng.below(3);
        let mut cells = vec![b'-'; rows * cols];
        for row in 0..rows {
            for col in 0..cols {
                let cell = &mut cells[row * cols + col];
                if col == 0 || col + 1 == cols || row + 1 == rows {
                    *cell = b'#';
                } else if row + 2 == rows || rng.below(2) == 0 {
                    // Floor rows full of blocks; higher up, ledges (walls) with open ends.
                    *cell = match rng.below(8) {
                        0 | 1 if row + 2 < rows => b'#',
                        0 => b'#',
                        1 | 2 => b'-',
                        pick => b'A' + (pick % 3) as u8,
                    };
                }
            }
        }
        let mut grid = Grid::new(rows, cols, cells);
        grid.settle();
        grid
    }

    #[test]
    fn deadlocked_boards_have_no_solution() {
        let mut rng = Rng(0x7e0c_4a11);
        let mut deadlocked = 0;
        for _ in 0..BOARDS {
            let grid = random_board(&mut rng);
            let geo = Geometry::new(&grid);
            if geo.letters.len() > 3 {
                continue;
            }
            let state = State::<2>::new(&geo, &grid);
            if !Troughs::new(&geo).deadlocked(&state) {
                continue;
            }
            deadlocked += 1;
            let outcome = by_reference(&grid);
            assert_eq!(
                outcome.verdict,
                Verdict::Unsolved,
                "deadlocked yet solvable:\n{}",
                grid.draw()
            );
        }
        // The check must not be vacuous.
        assert!(deadlocked >= 200, "only {deadlocked} deadlocked boards");
    }

    /// A board with a ledge open at one end above an open area: interleaved letters on
    /// the ledge (not a trough) can leave it one by one and regroup below, as the hand-built
    /// case of `an_open_end_is_not_a_trough` does.
    fn random_ledge_board(rng: &mut Rng) -> Grid {
        let rows = 4 + rng.below(2);
        let cols = 7 + rng.below(3);
        // The ledge: walls on row 2 from column 1 to `end`, blocks on row 1 above them; the
        // cell right of `end` on row 1 rests on an open cell (left of it once mirrored).
        let end = 3 + rng.below(cols - 5);
        let mut cells = vec![b'-'; rows * cols];
        for row in 0..rows {
            for col in 0..cols {
                let cell = &mut cells[row * cols + col];
                if col == 0 || col + 1 == cols || row + 1 == rows || (row == 2 && col <= end) {
                    *cell = b'#';
                } else if row == 1 && col <= end {
                    *cell = b'A' + rng.below(2) as u8;
                }
            }
        }
        if rng.below(2) == 1 {
            // The mirror image: a ledge open at its left end.
            for row in cells.chunks_exact_mut(cols) {
                row.reverse();
            }
        }
        let mut grid = Grid::new(rows, cols, cells);
        grid.settle();
        grid
    }

    /// Soundness where troughs end: the mutations "an open end closes a run" (either end) turn
    /// these boards' interleaved ledges into deadlocks, and the reference BFS solves many of
    /// them (both mutations fail this test; the random floors above are too narrow for that).
    #[test]
    fn open_ended_ledges_are_never_deadlocked_when_solvable() {
        const LEDGES: usize = 3_000;
        let mut rng = Rng(0x1ed6e);
        let mut interleaved_solvable = 0;
        for _ in 0..LEDGES {
            let grid = random_ledge_board(&mut rng);
            let geo = Geometry::new(&grid);
            let state = State::<2>::new(&geo, &grid);
            let solvable = by_reference(&grid).verdict == Verdict::Solved;
            if Troughs::new(&geo).deadlocked(&state) {
                assert!(!solvable, "deadlocked yet solvable:\n{}", grid.draw());
            }
            // A B ... A B on the ledge (row 1): a cycle, were the ledge a trough.
            let ledge: Vec<u8> = grid.cells()[geo.cols..2 * geo.cols]
                .iter()
                .copied()
                .filter(|c| c.is_ascii_uppercase())
                .collect();
            let crossed = [[b'A', b'B'], [b'B', b'A']].iter().any(|&[x, y]| {
                // x, y, x, y in this order (a subsequence).
                let mut wanted = [x, y, x, y].into_iter().peekable();
                for &c in &ledge {
                    if wanted.peek() == Some(&c) {
                        wanted.next();
                    }
                }
                wanted.peek().is_none()
            });
            interleaved_solvable += usize::from(crossed && solvable);
        }
        // The check must not be vacuous: many solvable boards have crossed ledges.
        assert!(
            interleaved_solvable >= 40,
            "only {interleaved_solvable} solvable crossed ledges"
        );
    }

    /// The bitwise test equals the plain scan, on random boards and all their children (the
    /// soundness test above only runs the bitwise one).
    /// For every push of every board, `unchanged` means the same answer.
    #[test]
    fn an_unchanged_trough_keeps_the_answer() {
        let mut rng = Rng(0x5eed);
        let mut kept = 0;
        for _ in 0..BOARDS {
            let grid = random_board(&mut rng);
            let geo = Geometry::new(&grid);
            let troughs = Troughs::new(&geo);
            let state = State::<3>::new(&geo, &grid);
            for (_, _, child) in state.children(&geo) {
                if troughs.unchanged(&state, &child) {
                    let drawn = child.to_grid(&geo).draw();
                    assert_eq!(
                        troughs.deadlocked(&child),
                        troughs.deadlocked(&state),
                        "{drawn}"
                    );
                    kept += 1;
                }
            }
        }
        assert!(kept > 5_000, "only {kept} unchanged children");
    }

    #[test]
    fn the_bitwise_test_equals_the_plain_scan() {
        let mut rng = Rng(0xb17_5ca1);
        let (mut boards, mut deadlocked) = (0, 0);
        for _ in 0..BOARDS {
            let grid = random_board(&mut rng);
            let geo = Geometry::new(&grid);
            let troughs = Troughs::new(&geo);
            let state = State::<3>::new(&geo, &grid);
            let children = state.children(&geo).map(|(_, _, child)| child);
            for board in std::iter::once(state).chain(children) {
                let fast = troughs.deadlocked(&board);
                let drawn = board.to_grid(&geo).draw();
                assert_eq!(fast, troughs.deadlocked_plain(&board), "{drawn}");
                boards += 1;
                deadlocked += usize::from(fast);
            }
        }
        assert!(
            boards > 50_000 && deadlocked > 500,
            "{boards} boards, {deadlocked} dead"
        );
    }

    fn board(rows: &[&str]) -> (Geometry, State<2>) {
        let cells = rows.iter().flat_map(|r| r.bytes()).collect();
        let grid = Grid::new(rows.len(), rows[0].len(), cells);
        let geo = Geometry::new(&grid);
        let state = State::<2>::new(&geo, &grid);
        (geo, state)
    }

    fn deadlocked(rows: &[&str]) -> bool {
        let (geo, state) = board(rows);
        Troughs::new(&geo).deadlocked(&state)
    }

    #[test]
    fn troughs_are_closed_floor_runs() {
        let (geo, _) = board(&[
            "#----#", //
            "#-#--#", // (1,1) rests on (2,1); (1,2) is a wall
            "##----", // (2,0), (2,1) walls; the run (2,2..=5) ends at the board's edge
        ]);
        let troughs = Troughs::new(&geo);
        let cell = |r: usize, c: usize| Cells::cell(r * 6 + c);
        // Row 2 (bottom edge): cells 2..=5, closed by the wall (2,1) and the board's edge.
        let bottom = (2..=5).fold(Cells::EMPTY, |m, c| m | cell(2, c));
        // Row 1: (1,1) alone rests on a wall but a run needs two cells; (1,3), (1,4) rest on
        // open cells. Row 0: (0,2) rests on the wall (1,2), alone.
        assert_eq!(troughs.runs, vec![bottom]);
    }

    #[test]
    fn an_open_end_is_not_a_trough() {
        // The ledge (1,1..=2) ends at (1,3), an open cell with nothing under it: a block can
        // be pushed off and fall, so blocks there may leave and reorder. Only the bottom run
        // (2,3..=4), closed by walls, is a trough.
        let (geo, _) = board(&["#----#", "#---##", "###--#"]);
        assert_eq!(
            Troughs::new(&geo).runs,
            vec![Cells::cell(15) | Cells::cell(16)]
        );
        // A B A B on a ledge open to the left: the blocks leave it one by one and regroup
        // below; the reference BFS solves it in 11 pushes. Not deadlocked.
        let rows = ["#--ABAB#", "#--#####", "#------#", "########"];
        assert!(!deadlocked(&rows));
        let grid = Grid::new(4, 8, rows.iter().flat_map(|r| r.bytes()).collect());
        let solved = by_reference(&grid);
        assert_eq!(solved.answer.map(|moves| moves.len()), Some(11));
    }

    #[test]
    fn crossed_pairs_on_a_floor_are_dead() {
        // A B A B on the floor: the As wait for the first B, the Bs for the second A.
        assert!(deadlocked(&["#----#", "#ABAB#", "######"]));
        // A B B A: the Bs can meet (nothing between them), then the As: live.
        assert!(!deadlocked(&["#----#", "#ABBA#", "######"]));
    }

    #[test]
    fn a_letter_of_four_blocks_breaks_no_cycle() {
        // A B A B with two more As above: the first A may go with an A from above, so the
        // As between the Bs need not wait for the Bs.
        assert!(!deadlocked(&["#A--A#", "##--##", "#ABAB#", "######"]));
    }

    #[test]
    fn a_trio_waits_for_what_lies_between_its_floor_blocks() {
        // Three Bs (one above) and two As interleaved on the floor: dead.
        assert!(deadlocked(&["#--B--#", "#--#--#", "#BA-BA#", "#######"]));
    }
}
