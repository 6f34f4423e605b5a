//! What the engine's open-addressing tables share: picking a slot from a hashed word
//! ([`spread`]), asking the CPU to load a slot ahead of its probe ([`prefetch`]), and allocating
//! a table whose pages are written up front ([`written`], [`written_with_room`]), mapping
//! the pages a table will soon write on several threads at once ([`populate_spare`]), and
//! asking for huge pages under a large table ([`prefer_huge_pages`]).
//!
//! The tables are the A* search's node index ([`super::astar::index`]), the deepening's
//! transposition table ([`super::ida`]) and the bound's memos ([`super::bound`]). Each keeps
//! its own invariants; these helpers change no table's contents.

/// The odd constant of Fibonacci hashing (2^64 divided by the golden ratio): multiplying by it
/// spreads every input bit into the high bits of the product.
const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// A slot index of `bits` bits (`1..=64`) for `word`: the high bits of `word * GOLDEN`.
#[inline(always)]
pub(crate) fn spread(word: u64, bits: u32) -> usize {
    debug_assert!((1..=u64::BITS).contains(&bits));
    (word.wrapping_mul(GOLDEN) >> (u64::BITS - bits)) as usize
}

/// Asks the CPU to start loading `slots[at]` (or nothing, off x86-64), so that the probe that
/// reads it later finds it in cache. Probes of all children of a node are issued after all
/// their prefetches, so that their cache misses overlap.
#[inline(always)]
pub(crate) fn prefetch<T>(slots: &[T], at: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        let ptr = slots[at..].as_ptr().cast::<i8>();
        // SAFETY: `_mm_prefetch` is only a hint: it reads nothing the program sees and never
        // faults, whatever the address; `ptr` points into `slots` anyway (the slice above is
        // bounds-checked).
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(ptr);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slots, at);
}

/// `len` copies of `value`, written now. For a table that is probed at random: fresh zeroed
/// memory from the allocator (`vec![0; len]`) is mapped page by page as it is touched, and a
/// page read before it is written faults twice (the shared zero page, then a copy). The value
/// goes through `black_box` so that the compiler does not turn the writes back into a zeroed
/// allocation.
pub(crate) fn written<T: Clone>(len: usize, value: T) -> Vec<T> {
    written_with_room(len, len, value)
}

/// [`written`], in an allocation reserved for `capacity` entries (address space only: the
/// pages past `len` are mapped as the table grows into them).
pub(crate) fn written_with_room<T: Clone>(capacity: usize, len: usize, value: T) -> Vec<T> {
    let mut table = Vec::with_capacity(capacity.max(len));
    prefer_huge_pages(&table);
    table.resize(len, std::hint::black_box(value));
    table
}

/// Maps now, on `threads` threads, the pages of `table`'s spare capacity that its entries
/// `from..to` will occupy (clamped to the capacity), so that writing them later does not fault
/// page by page on the writing thread. A fresh page costs the kernel a fault and a cleared
/// page whichever thread touches it first; in a large search those faults land on the one
/// thread that appends nodes, while this spreads them over threads that would otherwise wait.
///
/// Only a hint: no entry is written (the table's contents and length are unchanged), and on
/// a kernel without `MADV_POPULATE_WRITE` (before Linux 5.14) or off Linux nothing happens
/// and the pages fault when written, as before.
pub(crate) fn populate_spare<T>(table: &Vec<T>, from: usize, to: usize, threads: usize) {
    let size = std::mem::size_of::<T>();
    let (from, to) = (from.max(table.len()), to.min(table.capacity()));
    if from >= to || size == 0 {
        return;
    }
    let start = table.as_ptr() as usize + from * size;
    let end = table.as_ptr() as usize + to * size;
    let pages = (end - start).div_ceil(PAGE);
    let share = pages.div_ceil(threads.max(1)).max(1);
    let map = |page: usize| {
        let first = start + page * PAGE;
        populate(first, (first + share * PAGE).min(end));
    };
    std::thread::scope(|scope| {
        for page in (share..pages).step_by(share) {
            scope.spawn(move || map(page));
        }
        map(0);
    });
}

/// Asks the kernel to back `table`'s whole allocation (its capacity, written or not) with
/// transparent huge pages where it can, when the allocation spans at least one
/// [`HUGE_PAGE`]. The tables probed at random (the node index, the arena that lookups
/// compare boards in) are several GB in a deep search: with small pages nearly every probe
/// misses the TLB, and every page costs a fault. With the kernel's default policy
/// (`transparent_hugepage/enabled` = `madvise`) only advised memory gets huge pages.
///
/// Only a hint, for memory the table already owns: contents are unchanged, and where the
/// kernel has no huge pages (or off Linux) nothing happens. Call it before the table's
/// pages are first written: pages already mapped small stay small until the kernel's
/// background collapse, if ever.
pub(crate) fn prefer_huge_pages<T>(table: &Vec<T>) {
    let bytes = table.capacity() * std::mem::size_of::<T>();
    if bytes < HUGE_PAGE {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        let start = (table.as_ptr() as usize).next_multiple_of(PAGE);
        let end = (table.as_ptr() as usize + bytes) & !(PAGE - 1);
        // SAFETY: `MADV_HUGEPAGE` only sets a policy on the pages of `start..end`, which lie
        // within `table`'s allocation; no memory the program reads changes. A failure (a
        // kernel without transparent huge pages) is ignored: the pages stay small.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

/// Bytes of a transparent huge page on x86-64 (a page-table directory entry's reach). Used
/// only to skip advising allocations too small to hold one.
const HUGE_PAGE: usize = 2 << 20;

/// Bytes of a page (the smallest the kernel maps; a larger one only makes [`populate`] round
/// to more calls than needed).
const PAGE: usize = 4096;

/// Maps the pages of the addresses `start..end` of this process, writable, without changing
/// what any of them holds.
fn populate(start: usize, end: usize) {
    #[cfg(target_os = "linux")]
    {
        let first = start & !(PAGE - 1);
        // SAFETY: `MADV_POPULATE_WRITE` only maps pages: a page already mapped keeps its
        // contents, a fresh one is the zeroed page a first write would have faulted in, and
        // addresses that are not mapped make the call fail (ignored: the pages then fault
        // when written, as without this call). No memory the program reads changes.
        unsafe {
            libc::madvise(
                first as *mut libc::c_void,
                end - first,
                libc::MADV_POPULATE_WRITE,
            );
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, end);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_stays_within_its_bits_and_tells_near_words_apart() {
        for bits in [1, 10, 12, 50, 64] {
            for word in [0, 1, 2, u64::MAX, 1 << 40] {
                assert!(bits == 64 || spread(word, bits) < 1 << bits);
            }
        }
        assert_ne!(spread(1, 12), spread(2, 12));
        let table = written_with_room(64, 8, 7u8);
        assert_eq!((table.len(), table.capacity() >= 64), (8, true));
        prefetch(&table, 7);
    }

    #[test]
    fn populating_spare_capacity_changes_no_entry() {
        let mut table = written_with_room(1 << 20, 1000, 7u64);
        populate_spare(&table, 0, 1 << 20, 3);
        populate_spare(&table, 5000, 10, 2);
        prefer_huge_pages(&table);
        assert_eq!(table.len(), 1000);
        assert!(table.iter().all(|&x| x == 7));
        table.resize(1 << 20, 9);
        assert_eq!(table[999..1001], [7, 9]);
    }

    /// The advice reaches the kernel: the mapping holding an advised table is flagged for
    /// huge pages (`hg` in `/proc/self/smaps`), its entries unchanged. Skipped on a kernel
    /// without transparent huge pages.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_large_table_is_advised_huge_pages() {
        if !std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists() {
            return;
        }
        let table = written_with_room(4 * HUGE_PAGE, 10, 3u8);
        let at = table.as_ptr() as usize + HUGE_PAGE;
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut inside = false;
        let mut flags = None;
        for line in smaps.lines() {
            if let Some((range, _)) = line.split_once(' ')
                && let Some((lo, hi)) = range.split_once('-')
                && let (Ok(lo), Ok(hi)) =
                    (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
            {
                inside = (lo..hi).contains(&at);
            } else if inside && let Some(list) = line.strip_prefix("VmFlags:") {
                flags = Some(list.split_whitespace().any(|flag| flag == "hg"));
            }
        }
        assert_eq!(flags, Some(true), "no mapping flagged hg holds the table");
        assert!(table.iter().all(|&x| x == 3));
    }
}
