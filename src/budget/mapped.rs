//! Big heap blocks in mappings of their own, advised to use transparent huge pages as a whole,
//! and grown or shrunk in place by `mremap`.
//!
//! The allocator used to advise only the 2 MiB-aligned interior of a big glibc block. That
//! split the block's mapping into several of different kinds, so glibc's `realloc` then failed
//! its `mremap` (EFAULT) and fell back to allocating, copying and freeing: a list growing from
//! 400 MB to 800 MB (`[i for i in range(10**9)]`) copied 400 MB in one unpolled step (0.27 s
//! idle, over a second under load) and held both copies at once. Here the whole mapping gets
//! the advice, so it stays one mapping and `mremap` moves its page tables, never its bytes.
//!
//! Blocks of [`MAPPED_BLOCK`] and more with at most page alignment come here; the rest stay
//! with the system allocator. Which path a block took follows from its layout alone, so
//! `dealloc` and `realloc` need no header.

use std::alloc::{GlobalAlloc, Layout, System};

/// From this size a block gets a mapping of its own. glibc maps blocks this big itself (the
/// threshold `engine::hostbuf::tune_malloc` sets), so heap reuse for smaller tensors, which
/// that tuning is for, is unchanged.
pub(crate) const MAPPED_BLOCK: usize = 32 << 20;

const PAGE: usize = 4096;

/// Whether a block of `layout` lives in a mapping of its own.
#[inline]
pub(crate) fn is_mapped(layout: Layout) -> bool {
    cfg!(target_os = "linux") && layout.size() >= MAPPED_BLOCK && layout.align() <= PAGE
}

fn mapping_len(size: usize) -> usize {
    size.next_multiple_of(PAGE)
}

/// A fresh zeroed mapping of `size` bytes advised to use huge pages, or null.
#[cfg(target_os = "linux")]
pub(super) fn map(size: usize) -> *mut u8 {
    // SAFETY: an anonymous private mapping at an address of the kernel's choosing touches no
    // existing memory; MAP_FAILED is turned into null.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            mapping_len(size),
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return std::ptr::null_mut();
    }
    advise(p as *mut u8, size);
    p as *mut u8
}

/// Advises the whole mapping, so that it stays one mapping of one kind.
#[cfg(target_os = "linux")]
fn advise(p: *mut u8, size: usize) {
    // SAFETY: [p, p + mapping_len(size)) is exactly one mapping made by `map` or `remap`;
    // MADV_HUGEPAGE changes how its pages are backed, never their contents, and a failure
    // (THP disabled) is harmless, so the result is ignored.
    unsafe {
        libc::madvise(
            p as *mut libc::c_void,
            mapping_len(size),
            libc::MADV_HUGEPAGE,
        );
    }
}

/// Unmaps a block made by [`map`] or [`remap`] with `size`.
///
/// # Safety
/// `p` must be such a block, of `size` bytes, not used afterwards.
#[cfg(target_os = "linux")]
pub(crate) unsafe fn unmap(p: *mut u8, size: usize) {
    // SAFETY: the caller's contract: `p` is the start of a mapping of mapping_len(size) bytes.
    unsafe {
        libc::munmap(p as *mut libc::c_void, mapping_len(size));
    }
}

/// Resizes a block made by [`map`] to `new_size` (both sizes at least [`MAPPED_BLOCK`]),
/// moving its page tables if it cannot grow in place; null when the kernel refuses (the block
/// is then unchanged). The advice travels with the mapping.
///
/// # Safety
/// `p` must be such a block of `old` bytes; on success it must no longer be used.
#[cfg(target_os = "linux")]
pub(crate) unsafe fn remap(p: *mut u8, old: usize, new_size: usize) -> *mut u8 {
    // SAFETY: the caller's contract: `p` is one whole mapping of mapping_len(old) bytes.
    let q = unsafe {
        libc::mremap(
            p as *mut libc::c_void,
            mapping_len(old),
            mapping_len(new_size),
            libc::MREMAP_MAYMOVE,
        )
    };
    if q == libc::MAP_FAILED {
        return std::ptr::null_mut();
    }
    q as *mut u8
}

/// A realloc across [`MAPPED_BLOCK`]: a new block on the other path, the bytes both hold
/// copied, the old one freed on its own path; null (the old block unchanged) when the new one
/// cannot be had.
///
/// # Safety
/// As `GlobalAlloc::realloc`: `p` was allocated with `layout` by the path [`is_mapped`] names.
#[cfg(target_os = "linux")]
pub(crate) unsafe fn move_across(p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
    let Ok(new_layout) = Layout::from_size_align(new_size, layout.align()) else {
        return std::ptr::null_mut();
    };
    let q = if is_mapped(new_layout) {
        map(new_size)
    } else {
        // SAFETY: a non-zero size (it is below MAPPED_BLOCK only when the old block was at
        // least that, and realloc's new_size is never zero) and a valid alignment.
        unsafe { System.alloc(new_layout) }
    };
    if q.is_null() {
        return q;
    }
    // SAFETY: both blocks are live, distinct, and at least min(old, new) bytes long.
    unsafe { std::ptr::copy_nonoverlapping(p, q, layout.size().min(new_size)) };
    if is_mapped(layout) {
        // SAFETY: `p` was made by `map`/`remap` with layout.size() and is no longer used.
        unsafe { unmap(p, layout.size()) };
    } else {
        // SAFETY: `p` came from System with `layout` and is no longer used.
        unsafe { System.dealloc(p, layout) };
    }
    q
}

#[cfg(not(target_os = "linux"))]
pub(super) fn map(_: usize) -> *mut u8 {
    std::ptr::null_mut()
}

/// # Safety
/// Never called: no block is mapped off Linux.
#[cfg(not(target_os = "linux"))]
pub(crate) unsafe fn unmap(_: *mut u8, _: usize) {}

/// # Safety
/// Never called: no block is mapped off Linux.
#[cfg(not(target_os = "linux"))]
pub(crate) unsafe fn remap(_: *mut u8, _: usize, _: usize) -> *mut u8 {
    std::ptr::null_mut()
}

/// # Safety
/// Never called: no block is mapped off Linux.
#[cfg(not(target_os = "linux"))]
pub(crate) unsafe fn move_across(_: *mut u8, _: Layout, _: usize) -> *mut u8 {
    std::ptr::null_mut()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_os = "linux")]
    fn a_growing_big_vector_stays_one_mapping_and_keeps_its_bytes() {
        // a vector of 48 MiB that doubles twice: each growth is a remap (no copy), and the
        // block is one mapping whatever the advice did
        let mut v: Vec<u64> = Vec::with_capacity(6 << 20);
        v.extend(0..6u64 << 20);
        for _ in 0..2 {
            let cap = v.capacity();
            v.reserve(cap);
            let start = v.as_ptr() as usize;
            let bytes = v.capacity() * 8;
            assert_eq!(
                crate::budget::proc_maps::mappings_over(start, start + bytes).len(),
                1,
                "one mapping"
            );
            let n = v.len() as u64;
            v.extend(n..2 * n);
        }
        assert!(v.iter().enumerate().all(|(i, &x)| x == i as u64));
        // across the threshold both ways, the bytes kept
        v.truncate(1000);
        v.shrink_to_fit();
        assert_eq!(v.iter().sum::<u64>(), 999 * 1000 / 2);
        v.reserve(MAPPED_BLOCK);
        assert_eq!(v[999], 999);
    }
}
