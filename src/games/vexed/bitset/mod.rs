//! The `bitset` engine: exact shortest solutions over bit-plane states. [`solve`] is its entry
//! point; everything below it is crate-private.
//!
//! - Board: [`planes`]: one bitboard type ([`planes::Cells`], a cell per bit of a `u128`), the
//!   fixed part of a board ([`planes::Geometry`]) and the blocks ([`State`]: `P` bit-sliced
//!   letter planes, `P` a const generic chosen from the number of letters, so a state is 16 to
//!   80 bytes), with the push and settle rules of `RULES.md` (Moves) as word operations. A*'s
//!   arena keeps boards packed ([`planes::Packed`]): one `u64` per plane when no block can be
//!   past cell 63, as on every level of the original game; in proof mode, where memory is the
//!   limit, compact ([`compact`]: counts per column segment and bit-sliced letter codes, two
//!   words for a 10-wide level of 8 letters) when they fit two words.
//! - Lower bound: the admissible per-letter bound of [`bound`] (at least 1 on a board with
//!   blocks); a letter that can never be cleared makes a board dead. [`deadlock`] finds some
//!   dead boards the bound misses (letters blocking each other on a floor).
//! - Search: best-first A* ([`astar`]: the search, its node index and its frontier), which
//!   expands each board once and proves unsolvability by exhausting the live boards. A deep
//!   search goes on in batches of open boards expanded on `Budget::threads` threads and merged
//!   in a fixed order (`astar/batch.rs`), so the answer does not depend on the thread count. When its
//!   memory budget ([`astar::MEMORY_BUDGET`]) would be exceeded, the rest of the budget goes to
//!   iterative deepening with a bounded transposition table ([`ida`]), which needs little
//!   memory but re-expands boards. Either way the answer is a minimum solution; no depth cap.
//! - Beyond memory: in proof mode with a scratch folder (`--max-moves K --scratch DIR`), the
//!   sweep ([`sweep`]) visits the boards A*'s proof would, in an order (blocks removed, then
//!   row sum) that lets its pending boards wait in files; levels whose boards do not fit two
//!   words, or caps past [`sweep::MAX_CAP`], stay with A*.
//! - Memory: one [`workspace::Workspace`] per thread owns every buffer reused from one search to
//!   the next; [`slots`] holds what the hash tables share (slot spreading, prefetch, and
//!   mapping the pages a table is about to write on every search thread).
//! - [`PushCorpus`]: the move generator, exposed for `benches/vexed_push.rs` only.

pub(crate) mod astar;
mod bench;
pub(crate) mod bound;
pub(crate) mod compact;
pub(crate) mod deadlock;
pub(crate) mod ida;
pub(crate) mod planes;
pub(crate) mod slots;
pub(crate) mod sweep;
pub(crate) mod workspace;

pub use bench::PushCorpus;

use super::grid::Move;
use super::{Meter, Puzzle, Solution};
use crate::game::{Budget, CaseError, Outcome, Scratch, Verdict};
use astar::Ended;
use astar::buffers::Buffers;
use astar::store::{COMPACT_WORDS, Planes};
use compact::Codec;
use planes::{Geometry, State, planes_needed};
use workspace::Workspace;

/// Solves one puzzle, within `budget.memory` when given (A* first with all of it, then
/// deepening with a table that fits in it).
pub fn solve(puzzle: &Puzzle, budget: &Budget) -> Result<Outcome<Solution>, CaseError> {
    let memory = budget.memory.map_or(astar::MEMORY_BUDGET, |m| {
        usize::try_from(m).unwrap_or(usize::MAX)
    });
    solve_within(puzzle, budget, memory)
}

/// [`solve`] with `memory` bytes for A* instead of [`astar::MEMORY_BUDGET`] (tests use a tiny
/// one to exercise the deepening fallback).
pub fn solve_within(
    puzzle: &Puzzle,
    budget: &Budget,
    memory: usize,
) -> Result<Outcome<Solution>, CaseError> {
    let batching = astar::Batching {
        threads: budget.threads.max(1),
        after: astar::BATCH_AFTER,
        nodes: astar::BATCH_NODES,
    };
    solve_planned(puzzle, budget, memory, batching, Boards::Auto)
}

/// [`solve`] with A*'s boards stored as `boards` says (tests compare the stores).
#[cfg(test)]
pub(crate) fn solve_stored(
    puzzle: &Puzzle,
    budget: &Budget,
    boards: Boards,
) -> Result<Outcome<Solution>, CaseError> {
    let batching = astar::Batching {
        threads: budget.threads.max(1),
        after: astar::BATCH_AFTER,
        nodes: astar::BATCH_NODES,
    };
    solve_planned(puzzle, budget, astar::MEMORY_BUDGET, batching, boards)
}

/// [`solve`] with A* in batches of at most `nodes` nodes from its first expansion on,
/// whatever the search's size (tests exercise the batches on small puzzles).
#[cfg(test)]
pub(crate) fn solve_batched(
    puzzle: &Puzzle,
    budget: &Budget,
    nodes: usize,
) -> Result<Outcome<Solution>, CaseError> {
    solve_batched_stored(puzzle, budget, nodes, Boards::Auto)
}

/// [`solve_batched`] with A*'s boards stored as `boards` says.
#[cfg(test)]
pub(crate) fn solve_batched_stored(
    puzzle: &Puzzle,
    budget: &Budget,
    nodes: usize,
    boards: Boards,
) -> Result<Outcome<Solution>, CaseError> {
    let batching = astar::Batching {
        threads: budget.threads.max(1),
        after: 0,
        nodes,
    };
    solve_planned(puzzle, budget, astar::MEMORY_BUDGET, batching, boards)
}

/// [`solve_within`], A* going on in batches as `batching` says.
fn solve_planned(
    puzzle: &Puzzle,
    budget: &Budget,
    memory: usize,
    batching: astar::Batching,
    boards: Boards,
) -> Result<Outcome<Solution>, CaseError> {
    // The geometry of the board as given, and its blocks settled on the bit planes
    // ([`State::settle`], the rules of [`Puzzle::start`]) instead of settling a copy of the
    // grid cell by cell. Settling moves no
    // wall; a letter it removes entirely keeps a code, with no blocks and a bound of 0.
    let grid = &puzzle.grid;
    let ending = Workspace::with(|workspace| {
        let (geo, buffers) = workspace.prepare(grid);
        let meter = Meter::new(budget);
        let deepening = budget
            .memory
            .map(|m| usize::try_from(m).unwrap_or(usize::MAX));
        let resources = Resources {
            astar: memory,
            deepening,
            batching,
            boards,
            max_moves: budget
                .max_moves
                .map_or(astar::NO_CAP, |k| u32::try_from(k).unwrap_or(astar::NO_CAP)),
            scratch: budget.scratch.as_ref().map(Scratch::path),
            memory: budget.memory.map_or(astar::MEMORY_BUDGET, |m| {
                usize::try_from(m).unwrap_or(usize::MAX)
            }),
        };
        // The shape of the search's nodes: `P` planes, kept in `P` words when the board is
        // narrow, else in `2 * P` (`planes::Packed`).
        macro_rules! search_with {
            ($p:literal, $narrow:literal, $wide:literal) => {{
                let start = State::<$p>::new(geo, grid);
                if geo.narrow() {
                    search::<$p, $narrow>(geo, resources, start, meter, buffers)
                } else {
                    search::<$p, $wide>(geo, resources, start, meter, buffers)
                }
            }};
        }
        match planes_needed(geo.letters.len()) {
            1 => search_with!(1, 1, 2),
            2 => search_with!(2, 2, 4),
            3 => search_with!(3, 3, 6),
            4 => search_with!(4, 4, 8),
            _ => search_with!(5, 5, 10),
        }
    });
    // Line 0: the case as a whole (`judge_case` names the case's first line instead).
    let ending = ending.map_err(|e| CaseError::new(0, e.to_string()))?;
    Ok(Outcome {
        answer: ending.answer,
        verdict: ending.verdict,
        work: ending.expanded,
        at_least: ending.at_least.map(u64::from),
    })
}

/// How a search ended: a shortest solution, a proof that there is none, or the budget's stop
/// with the length it had proven no solution is shorter than.
pub(crate) struct Ending {
    pub(crate) answer: Solution,
    pub(crate) verdict: Verdict,
    /// States expanded.
    pub(crate) expanded: u64,
    /// With [`Verdict::Budget`]: no solution is shorter than this many pushes.
    pub(crate) at_least: Option<u32>,
}

impl Ending {
    /// A shortest solution.
    pub(crate) fn solved(moves: Vec<Move>, expanded: u64) -> Ending {
        Ending {
            answer: Some(moves),
            verdict: Verdict::Solved,
            expanded,
            at_least: None,
        }
    }

    /// Proven unsolvable.
    pub(crate) fn unsolved(expanded: u64) -> Ending {
        Ending {
            answer: None,
            verdict: Verdict::Unsolved,
            expanded,
            at_least: None,
        }
    }

    /// Stopped by the budget, no solution being shorter than `at_least` pushes.
    pub(crate) fn stopped(expanded: u64, at_least: u32) -> Ending {
        Ending {
            answer: None,
            verdict: Verdict::Budget,
            expanded,
            at_least: Some(at_least),
        }
    }
}

/// How A*'s arena stores boards: as planes in words, or compact ([`compact`]) when a board
/// fits [`COMPACT_WORDS`] words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Boards {
    /// The engine's choice: in proof mode (a cap of moves), planes up to the first batch then
    /// compact when it fits; planes otherwise.
    Auto,
    /// Always as planes.
    #[cfg_attr(not(test), allow(dead_code))]
    Planes,
    /// Compact from the start whenever it fits, with or without a cap.
    #[cfg_attr(not(test), allow(dead_code))]
    Compact,
}

/// What one search may use: its memory, and the threads of its batches.
#[derive(Clone, Copy)]
struct Resources<'a> {
    /// Bytes of A*'s nodes, index and frontier.
    astar: usize,
    /// Bytes of the deepening's table and races; `None`: [`ida::Limits::DEFAULT`].
    deepening: Option<usize>,
    /// When A* goes on in batches, and on how many threads.
    batching: astar::Batching,
    /// How A*'s arena stores boards.
    boards: Boards,
    /// Solutions longer than this are not looked for ([`astar::NO_CAP`]: none is too long).
    max_moves: u32,
    /// Proof mode's disk folder: with a cap of at most [`sweep::MAX_CAP`] and boards that fit
    /// two words, the sweep ([`sweep`]) searches instead of A*.
    scratch: Option<&'a std::path::Path>,
    /// Bytes of the sweep's buffers and bucket (`--memory`, or [`astar::MEMORY_BUDGET`]).
    memory: usize,
}

/// Settles `start`, then the sweep when `resources` ask for it and the boards fit; else A*
/// first, and deepening with what is left of the budget if A* runs out of memory (A*'s
/// buffers are given back first, so the two never hold memory together).
fn search<const P: usize, const W: usize>(
    geo: &Geometry,
    resources: Resources<'_>,
    mut start: State<P>,
    meter: Meter,
    buffers: &mut Buffers,
) -> Result<Ending, sweep::SweepError> {
    start.settle(geo);
    if start.is_clear() {
        return Ok(Ending::solved(Vec::new(), 0));
    }
    if let Some(scratch) = resources.scratch
        && resources.max_moves <= sweep::MAX_CAP
    {
        let codec = Codec::new(geo, start.occupied().len() as usize);
        if codec.fits::<{ sweep::record::WORDS }>() {
            let limits = sweep::Limits {
                max_moves: resources.max_moves,
                memory: resources.memory,
                threads: resources.batching.threads,
                scratch,
            };
            return sweep::search(geo, &codec, start, meter, limits);
        }
    }
    Ok(astar_then_deepening::<P, W>(
        geo, resources, start, meter, buffers,
    ))
}

/// A* from `start` (settled, not clear), then deepening if A* runs out of memory.
fn astar_then_deepening<const P: usize, const W: usize>(
    geo: &Geometry,
    resources: Resources<'_>,
    start: State<P>,
    meter: Meter,
    buffers: &mut Buffers,
) -> Ending {
    // Compact boards cost a few nanoseconds per board packed or unpacked: on small searches
    // that is a third more time, so the engine takes them only in proof mode, the searches
    // that fill the memory, and only from their first batch on ([`astar::BATCH_AFTER`]).
    let compact = match resources.boards {
        Boards::Planes => false,
        Boards::Auto => resources.max_moves != astar::NO_CAP,
        Boards::Compact => true,
    };
    let limits = astar::Limits {
        memory: resources.astar,
        batching: resources.batching,
        max_moves: resources.max_moves,
    };
    let now = (resources.boards == Boards::Compact)
        .then(|| Codec::new(geo, start.occupied().len() as usize))
        .filter(Codec::fits::<COMPACT_WORDS>);
    let ended = match &now {
        Some(codec) => {
            astar::search::<P, Codec>(geo, (codec, false), start, meter, limits, buffers)
        }
        None => {
            let stores = (&Planes::<W>, compact);
            astar::search::<P, Planes<W>>(geo, stores, start, meter, limits, buffers)
        }
    };
    match ended {
        Ended::Done(ending) => ending,
        Ended::OutOfMemory { meter, proven } => {
            buffers.release();
            let limits = resources
                .deepening
                .map_or(ida::Limits::DEFAULT, ida::Limits::within::<P>);
            ida::search(geo, start, meter, limits, proven, resources.max_moves)
        }
    }
}
