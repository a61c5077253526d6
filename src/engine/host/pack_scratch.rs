//! The float32 product's packing buffers, kept per thread between products.
//!
//! Every product packs `a` and `b` into fresh buffers (sgemm.rs). Taking them from the
//! allocator zeroed each time was a `memset` of both (2 % of a 512 x 512 product on the EPYC
//! VM) and, for a training step's small products, an allocation and a free each. The values
//! a buffer holds before packing never matter: packing writes every element a tile reads
//! into the output, and the padding rows and columns only feed accumulators that are never
//! stored. So a thread keeps its buffers, grown when a product needs more, and a product
//! borrows them; past [`KEEP_MAX`] floats a buffer goes back to the allocator after use, so a
//! convolution's hundreds of MB of columns are not held for the rest of the run.

use std::cell::RefCell;

use crate::engine::error::Result;

/// Floats a thread keeps in each buffer between products (4 MB: a 1024 x 1024 operand).
const KEEP_MAX: usize = 1 << 20;

/// Which of a thread's two buffers: a product borrows both at once.
#[derive(Clone, Copy)]
pub(crate) enum Slot {
    A,
    B,
}

thread_local! {
    static KEPT: RefCell<[Vec<f32>; 2]> = const { RefCell::new([Vec::new(), Vec::new()]) };
}

/// A borrowed buffer of at least `len` floats of unspecified values; back to its thread's
/// slot when dropped (if not too large).
pub(crate) struct Scratch {
    buf: Vec<f32>,
    slot: Slot,
}

impl Scratch {
    /// Borrows the calling thread's `slot` with room for `len` floats: grown (fallibly; the
    /// growth is zeroed once) when smaller. A slot already borrowed (a product inside a
    /// product) lends a fresh buffer.
    pub(crate) fn take(slot: Slot, len: usize) -> Result<Scratch> {
        let mut buf = KEPT
            .try_with(|k| std::mem::take(&mut k.borrow_mut()[slot as usize]))
            .unwrap_or_default();
        if buf.len() < len {
            buf.clear();
            if buf.try_reserve_exact(len).is_err() {
                return Err(super::alloc_error(
                    crate::engine::dtype::DType::Float32,
                    len,
                ));
            }
            buf.resize(len, 0.0);
        }
        Ok(Scratch { buf, slot })
    }

    /// All of it (at least the `len` asked for).
    pub(crate) fn as_mut_slice(&mut self) -> &mut [f32] {
        &mut self.buf
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if self.buf.capacity() > KEEP_MAX {
            return;
        }
        let buf = std::mem::take(&mut self.buf);
        let slot = self.slot as usize;
        // during thread teardown the slot may be gone: the buffer is then simply freed
        let _ = KEPT.try_with(|k| {
            if let Ok(mut kept) = k.try_borrow_mut()
                && kept[slot].capacity() < buf.capacity()
            {
                kept[slot] = buf;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_returned_buffer_is_lent_again_without_growing() {
        let p = {
            let mut s = Scratch::take(Slot::A, 1000).unwrap();
            assert!(s.as_mut_slice().len() >= 1000);
            s.as_mut_slice().as_ptr()
        };
        let mut again = Scratch::take(Slot::A, 500).unwrap();
        assert_eq!(again.as_mut_slice().as_ptr(), p);
        assert!(again.as_mut_slice().len() >= 500);
    }

    #[test]
    fn a_borrowed_slot_lends_a_separate_buffer() {
        let mut outer = Scratch::take(Slot::B, 64).unwrap();
        let mut inner = Scratch::take(Slot::B, 64).unwrap();
        assert_ne!(outer.as_mut_slice().as_ptr(), inner.as_mut_slice().as_ptr());
    }

    #[test]
    fn a_buffer_past_the_keep_limit_is_not_kept() {
        drop(Scratch::take(Slot::A, KEEP_MAX + 1).unwrap());
        let mut s = Scratch::take(Slot::A, 1).unwrap();
        assert!(s.as_mut_slice().len() <= KEEP_MAX);
    }

    #[test]
    fn an_impossible_size_is_an_error_not_an_abort() {
        assert!(Scratch::take(Slot::A, usize::MAX / 8).is_err());
    }
}
