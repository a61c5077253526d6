//! Host buffers for tensor storage: allocated fallibly (a learner asking for too much gets an
//! error, never an abort) and, when large, backed by transparent huge pages.
//!
//! A fresh 8 MB buffer faults in 2048 small pages the first time it is written (or read, for a
//! zeroed one), which `perf` showed as most of a run that makes two such tensors (the l4-peak
//! exercise). Large buffers therefore ask the kernel for transparent huge pages
//! (`MADV_HUGEPAGE`; 2 MiB pages: 4 faults per 8 MB). The advice is only a hint: where the
//! kernel has THP off or cannot find a huge page it falls back to small pages, and nothing
//! else changes.

use super::element::Element;

/// Below this a buffer cannot hold a whole huge page, so advising it would do nothing.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// An empty vector with room for `n` elements, or None when the system refuses the memory.
pub(crate) fn try_with_capacity<T>(n: usize) -> Option<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).ok()?;
    advise_huge_pages(&v);
    Some(v)
}

/// `n` zeros, or None when the system refuses the memory. They come from `calloc`-style
/// zeroed pages (fresh, untouched), advised before any page is touched.
pub(crate) fn try_zeroed<T: Element>(n: usize) -> Option<Vec<T>> {
    if n == 0 || std::mem::size_of::<T>() == 0 {
        return Some(Vec::new());
    }
    let layout = std::alloc::Layout::array::<T>(n).ok()?;
    // SAFETY: `layout` has a non-zero size (n > 0, T is not zero-sized). Every Element type
    // (bool, the integers, f16, bf16, f32, f64) is valid as all-zero bits, and zero bits are
    // its zero. The pointer comes from the global allocator with T's layout and capacity n,
    // as Vec::from_raw_parts requires, and the n elements are initialised (zeroed).
    unsafe {
        let p = std::alloc::alloc_zeroed(layout) as *mut T;
        if p.is_null() {
            return None;
        }
        let v = Vec::from_raw_parts(p, n, n);
        advise_huge_pages(&v);
        Some(v)
    }
}

/// `n` copies of `value`, or None when the system refuses the memory.
pub(crate) fn try_filled<T: Element>(n: usize, value: T) -> Option<Vec<T>> {
    if value.is_zero() && value.to_f64().is_sign_positive() {
        return try_zeroed(n);
    }
    let mut v = try_with_capacity(n)?;
    v.resize(n, value);
    Some(v)
}

/// The items of `iter`, or None when the system refuses the memory.
pub(crate) fn try_collect<T>(iter: impl ExactSizeIterator<Item = T>) -> Option<Vec<T>> {
    let mut v = try_with_capacity(iter.len())?;
    v.extend(iter);
    Some(v)
}

#[cfg(target_os = "linux")]
fn advise_huge_pages<T>(v: &Vec<T>) {
    let bytes = v.capacity() * std::mem::size_of::<T>();
    if bytes < 2 * HUGE_PAGE {
        return;
    }
    let start = v.as_ptr() as usize;
    let aligned = start.next_multiple_of(HUGE_PAGE);
    let end = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
    if end <= aligned {
        return;
    }
    // SAFETY: [aligned, end) lies inside the vector's own allocation, which stays mapped for as
    // long as the vector lives; MADV_HUGEPAGE changes how pages are backed, never their
    // contents, and its failure (e.g. THP disabled) is harmless, so the result is ignored.
    unsafe {
        libc::madvise(
            aligned as *mut libc::c_void,
            end - aligned,
            libc::MADV_HUGEPAGE,
        );
    }
}

/// glibc's malloc gives blocks of 128 KiB and more (its dynamic threshold grows to 32 MiB only
/// after such blocks are freed) their own mmap, and a freed one goes back to the kernel at
/// once: a training loop's gradients (1-2 MB each, made and freed every step) then fault in
/// every page again, about a quarter of a step's time in `perf`. Buffers up to 32 MiB come
/// from the heap instead and freed heap memory is kept up to 64 MiB; larger tensors still get
/// their own mapping, so peak memory is unchanged. Called once per process.
pub(crate) fn tune_malloc() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        // SAFETY: mallopt only sets glibc's allocator parameters (valid ones, by name); it
        // touches no memory of ours and runs once, under the Once.
        ONCE.call_once(|| unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
            libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
        });
    }
}

/// How far a run thread's heap is grown before the run starts.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const RUN_THREAD_HEAP: usize = 8 << 20;

/// Grows this thread's malloc heap once, to [`RUN_THREAD_HEAP`], and backs it with
/// transparent huge pages; for the thread a run's interpreter runs on, before the run.
///
/// glibc gives each new thread an arena of its own and grows it exactly to each request, one
/// `mprotect` per growth: a solution that builds a DataLoader (04#3) made 264 of those calls
/// (`strace -c`), and faulted in each new 4 KiB page of its parsed and compiled preludes one
/// at a time, about 900 faults (`perf`: 18 % of the run thread in page faults, 7 % in
/// `mprotect`). One block of 8 MiB, freed at once, leaves the heap that large (freed memory is
/// kept up to [`tune_malloc`]'s trim threshold) without touching its pages; the advice lets
/// the kernel back it 2 MiB at a time, and the first 2 MiB, where the arena's own pages
/// already are, is collapsed into a huge page now: 04#3 then takes about 390 faults. A reused
/// arena (an earlier run thread's) is already grown; growing it again costs nothing. The
/// price is resident memory: an empty script's peak RSS 10.9 -> 13.0 MB.
/// Returns the addresses the block had, where it was made.
pub(crate) fn prepare_run_thread_heap() -> Option<std::ops::Range<usize>> {
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    return None;
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // the block must come from the arena, not a mapping of its own
        tune_malloc();
        // SAFETY: malloc's block is used for nothing but its address and freed right after.
        // [start, end) starts at most a huge page below the block, inside the heap that holds
        // it (glibc aligns a thread's heap to 64 MiB); neither the hint nor the collapse
        // (which copies the pages present into one huge page) changes what the pages hold.
        unsafe {
            let block = libc::malloc(RUN_THREAD_HEAP);
            if block.is_null() {
                return None;
            }
            let start = block as usize / HUGE_PAGE * HUGE_PAGE;
            let end = (block as usize + RUN_THREAD_HEAP).next_multiple_of(HUGE_PAGE);
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            // the heap's first huge page already holds the arena's own pages, mapped small
            // before the advice: the kernel backs it with a huge page only when asked
            // (Linux 6.1; older kernels refuse, harmlessly)
            libc::madvise(start as *mut libc::c_void, HUGE_PAGE, libc::MADV_COLLAPSE);
            libc::free(std::hint::black_box(block));
            Some(block as usize..block as usize + RUN_THREAD_HEAP)
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages<T>(_: &Vec<T>) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_hold_what_was_asked_small_and_large() {
        for n in [0, 1, 1000, 3 << 20] {
            let z: Vec<f32> = try_zeroed(n).unwrap();
            assert_eq!(z.len(), n);
            assert!(z.iter().all(|&x| x == 0.0));
            let b: Vec<bool> = try_zeroed(n).unwrap();
            assert!(b.iter().all(|&x| !x));
            let c = try_collect((0..n).map(|i| i as f64)).unwrap();
            assert_eq!(c.len(), n);
            assert!(c.iter().enumerate().all(|(i, &x)| x == i as f64));
            let f = try_filled(n, 1.5f64).unwrap();
            assert_eq!(f.len(), n);
            assert!(f.iter().all(|&x| x == 1.5));
            let nz = try_filled(n, -0.0f32).unwrap();
            assert!(nz.iter().all(|&x| x.is_sign_negative()));
        }
    }

    #[test]
    fn an_impossible_size_is_refused_not_aborted() {
        assert!(try_zeroed::<f64>(usize::MAX / 4).is_none());
        assert!(try_with_capacity::<f32>(usize::MAX / 2).is_none());
        assert!(try_filled(1 << 60, 1u8).is_none());
    }

    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn a_run_threads_heap_stays_grown_and_advised_after_its_block_is_freed() {
        std::thread::spawn(|| {
            let block = prepare_run_thread_heap().expect("8 MiB are there");
            assert_eq!(block.len(), RUN_THREAD_HEAP);
            let mappings = crate::budget::proc_maps::mappings_over(block.start, block.end);
            assert!(!mappings.is_empty());
            for crate::budget::proc_maps::Mapping { perms, flags } in &mappings {
                // glibc kept the freed block's memory: still readable and writable
                assert!(perms.starts_with("rw"), "{perms} {flags}");
                if std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists() {
                    assert!(flags.split(' ').any(|f| f == "hg"), "{perms} {flags}");
                }
            }
        })
        .join()
        .unwrap();
    }
}
