//! The memory a thread reuses from one search to the next: the board's [`Geometry`], the A*
//! search's node index, frontier, arena and child buffer, and the bound's tables. A batch of
//! puzzles solved on one thread then reuses pages already mapped instead of asking the
//! allocator for fresh (zeroed) memory per puzzle.
//!
//! One [`Workspace`] per thread ([`Workspace::with`]). The A* buffers and the bounds on what
//! is kept between searches are A*'s own (`astar::buffers`): this module only holds them per
//! thread beside the geometry, so A* does not depend on it.

use std::cell::RefCell;

use super::astar::buffers::Buffers;
use super::planes::Geometry;
use crate::games::vexed::grid::Grid;

thread_local! {
    static WORKSPACE: RefCell<Workspace> = RefCell::default();
}

/// Every buffer a thread reuses across searches (see the module docs).
#[derive(Default)]
pub(crate) struct Workspace {
    /// The geometry of the last puzzle, reset for each puzzle ([`Geometry::reset`]) rather
    /// than built anew (its masks are about 10 KB).
    geometry: Option<Geometry>,
    buffers: Buffers,
}

impl Workspace {
    /// Runs `f` with this thread's workspace.
    pub(crate) fn with<R>(f: impl FnOnce(&mut Workspace) -> R) -> R {
        WORKSPACE.with(|workspace| f(&mut workspace.borrow_mut()))
    }

    /// The geometry of `grid` (`rows * cols <= MAX_CELLS`) and the search buffers.
    pub(crate) fn prepare(&mut self, grid: &Grid) -> (&Geometry, &mut Buffers) {
        // A thread's first puzzle builds the geometry (and resets it once more); later ones
        // only reset it.
        let geo = self.geometry.get_or_insert_with(|| Geometry::new(grid));
        geo.reset(grid);
        (geo, &mut self.buffers)
    }
}
