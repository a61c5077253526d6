//! Host buffers for tensor storage.
//!
//! Every element is an `f64` on the host, so a 1M-element tensor is 8 MB: with 4 KiB pages that
//! is 2048 page faults the first time it is written (or read, for a zeroed buffer), which
//! `perf` showed as most of a run that makes two such tensors (the l4-peak exercise). Large
//! buffers therefore ask the kernel for transparent huge pages (`MADV_HUGEPAGE`; 2 MiB pages:
//! 4 faults per 8 MB). The advice is only a hint: where the kernel has THP off or cannot
//! find a huge page it falls back to small pages, and nothing else changes.

/// Below this a buffer cannot hold a whole huge page, so advising it would do nothing.
const HUGE_PAGE: usize = 2 << 20;

/// An empty vector with room for `n` elements.
pub fn with_capacity(n: usize) -> Vec<f64> {
    let v = Vec::with_capacity(n);
    advise_huge_pages(&v);
    v
}

/// `n` zeros. Large ones come from `calloc` (fresh, untouched pages), advised before any
/// page is touched.
pub fn zeroed(n: usize) -> Vec<f64> {
    let v = vec![0.0; n];
    advise_huge_pages(&v);
    v
}

/// `n` copies of `value`, written into a buffer advised for huge pages when it is large.
pub fn filled(n: usize, value: f64) -> Vec<f64> {
    let mut v = with_capacity(n);
    v.resize(n, value);
    v
}

/// The items of `iter`, written into a buffer advised for huge pages when it is large.
pub fn collect(iter: impl ExactSizeIterator<Item = f64>) -> Vec<f64> {
    let mut v = with_capacity(iter.len());
    v.extend(iter);
    v
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(v: &Vec<f64>) {
    let bytes = v.capacity() * std::mem::size_of::<f64>();
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

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: &Vec<f64>) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_hold_what_was_asked_small_and_large() {
        for n in [0, 1, 1000, 3 << 20] {
            let z = zeroed(n);
            assert_eq!(z.len(), n);
            assert!(z.iter().all(|&x| x == 0.0));
            let c = collect((0..n).map(|i| i as f64));
            assert_eq!(c.len(), n);
            assert!(c.iter().enumerate().all(|(i, &x)| x == i as f64));
            assert!(with_capacity(n).capacity() >= n);
            let f = filled(n, 1.5);
            assert_eq!(f.len(), n);
            assert!(f.iter().all(|&x| x == 1.5));
        }
    }
}
