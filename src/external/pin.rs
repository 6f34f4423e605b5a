//! Pinning programs to cores (`--pin`): the cores this process may use, and the free ones a
//! pinned run takes and gives back. Invariant: a core holds at most one pinned program; past
//! the cores, programs run unpinned.

use std::sync::{Mutex, OnceLock};

/// The CPUs this process may run on.
pub fn allowed_cpus() -> Vec<usize> {
    // SAFETY: an all-zero cpu_set_t is valid; sched_getaffinity writes into it; CPU_ISSET reads.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            let n = std::thread::available_parallelism().map_or(1, |n| n.get());
            return (0..n).collect();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect()
    }
}

/// The cores free for pinned programs.
fn free_cores() -> &'static Mutex<Vec<usize>> {
    static FREE: OnceLock<Mutex<Vec<usize>>> = OnceLock::new();
    FREE.get_or_init(|| {
        let mut cpus = allowed_cpus();
        cpus.reverse();
        Mutex::new(cpus)
    })
}

/// A core held by one pinned run, given back when dropped.
pub(super) struct Pinned(pub(super) usize);

impl Pinned {
    /// A free core; `None` when every core holds a program (it then runs unpinned).
    pub(super) fn take() -> Option<Pinned> {
        free_cores().lock().ok()?.pop().map(Pinned)
    }
}

impl Drop for Pinned {
    fn drop(&mut self) {
        if let Ok(mut free) = free_cores().lock() {
            free.push(self.0);
        }
    }
}
