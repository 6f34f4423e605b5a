//! The binary's memory allocator, chosen by command: the system allocator for the commands
//! that run on one thread and end soon (`solve` above all: a judge runs it once per input
//! file), mimalloc for the batches (`run` and `gen`: many small per-case allocations from
//! several threads).
//!
//! Why two. Measured with `hyperfine -N` and paired runs on a 2-core machine:
//! - `solve vexed` on the 300-puzzle mixed set: the system allocator 0.56 ms faster than
//!   mimalloc (about 9.4 ms; 265 page faults instead of 396). mimalloc's first allocation
//!   reserves a 1 GiB arena and writes its bitmaps (41 page faults), and every size class
//!   starts on a fresh page of its own.
//! - `run` on 811 generated files of the four games (`-j 2`): mimalloc 83 ms, the system
//!   allocator 96 ms.
//!
//! How. [`Allocator`] hands every allocation to the allocator of the current mode: the system
//! one until [`use_batch_allocator`], which `main` calls before any other thread starts.
//! Blocks are given back to the allocator that made them, told apart by mimalloc's own page
//! map (`mi_is_in_heap_region`: true exactly for addresses in mimalloc's memory), so the
//! blocks the runtime allocates before `main` go back to the system allocator after the
//! switch, and nothing is ever freed by the other allocator.
//!
//! mimalloc is built without transparent huge pages (`no_thp`, Cargo.toml): with them, a fresh
//! Vexed arena sometimes stalled for tens of milliseconds in the kernel (hard set, 10 cold
//! runs: 3 of 10 took 40-51 ms instead of ~8.5 ms; without: all 6.3-9.1 ms).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, Ordering};

use mimalloc::MiMalloc;

/// The allocator of the binary (see the module documentation).
pub struct Allocator;

/// Whether new blocks come from mimalloc. Set once, before other threads start (their
/// creation orders the store before everything they do), so `Relaxed` is enough.
static BATCH: AtomicBool = AtomicBool::new(false);

/// From now on, new blocks come from mimalloc. To be called before any thread is started.
pub fn use_batch_allocator() {
    BATCH.store(true, Ordering::Relaxed);
}

/// Whether mimalloc made the block at `ptr`.
fn from_mimalloc(ptr: *mut u8) -> bool {
    // SAFETY: a pure lookup in mimalloc's page map (any address may be asked, also before
    // mimalloc has allocated anything).
    unsafe { libmimalloc_sys::mi_is_in_heap_region(ptr.cast()) }
}

// SAFETY: each call goes to one of two allocators that keep the `GlobalAlloc` contract, and a
// block is always freed or resized by the allocator that made it (`from_mimalloc`).
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's guarantees on `layout` are passed on.
        unsafe {
            if BATCH.load(Ordering::Relaxed) {
                MiMalloc.alloc(layout)
            } else {
                System.alloc(layout)
            }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as in `alloc`.
        unsafe {
            if BATCH.load(Ordering::Relaxed) {
                MiMalloc.alloc_zeroed(layout)
            } else {
                System.alloc_zeroed(layout)
            }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was made by the allocator it is given back to, with this layout.
        unsafe {
            if from_mimalloc(ptr) {
                MiMalloc.dealloc(ptr, layout)
            } else {
                System.dealloc(ptr, layout)
            }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as in `dealloc`; the block stays with the allocator that made it.
        unsafe {
            if from_mimalloc(ptr) {
                MiMalloc.realloc(ptr, layout, new_size)
            } else {
                System.realloc(ptr, layout, new_size)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs in the test binary, whose global allocator is this one. Other tests may run at the
    /// same time: switching mid-process is what the design allows (only new blocks change
    /// allocator), so the test asserts what holds whichever mode they saw.
    #[test]
    fn blocks_go_back_to_the_allocator_that_made_them() {
        let layout = Layout::new::<[u64; 4]>();
        // SAFETY: a non-zero layout; the block is freed with it below.
        let system = unsafe { System.alloc(layout) };
        assert!(!system.is_null() && !from_mimalloc(system));
        let mut early = vec![1u8; 100];
        let early_owner = from_mimalloc(early.as_mut_ptr());
        use_batch_allocator();
        let mut late = vec![2u8; 100];
        assert!(
            from_mimalloc(late.as_mut_ptr()),
            "a block made in batch mode is mimalloc's"
        );
        // Growing a block keeps it with its allocator.
        early.resize(1 << 16, 3);
        late.resize(1 << 16, 4);
        assert_eq!(from_mimalloc(early.as_mut_ptr()), early_owner);
        assert!(from_mimalloc(late.as_mut_ptr()));
        assert!(early[99] == 1 && early[100] == 3 && late[99] == 2 && late[100] == 4);
        // SAFETY: made above by `System` with this layout.
        unsafe { System.dealloc(system, layout) };
    }
}
