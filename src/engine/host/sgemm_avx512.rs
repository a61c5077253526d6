//! The AVX-512 register tile of the float32 product (sgemm.rs drives it): `MR` rows by `NR`
//! columns of zmm accumulators over one K block of packed operands.
//!
//! The bits are those of the portable tile: each output element is still one fused
//! multiply-add chain from +0 over the block's k in order (`vfmadd` rounds once per lane, as
//! `f32::mul_add`), and the block's sum is then stored or added unfused (`vaddps`) to what
//! the output holds. Wider vectors only change which elements run side by side.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{
    __m512, __mmask16, _mm512_add_ps, _mm512_fmadd_ps, _mm512_loadu_ps, _mm512_mask_storeu_ps,
    _mm512_maskz_loadu_ps, _mm512_set1_ps, _mm512_setzero_ps, _mm512_storeu_ps,
};

/// Rows of the tile: 8 rows of two zmm accumulators leave registers for the two b vectors and
/// the broadcast a, and divide the power-of-two batch sizes of the lessons without padding.
pub(super) const MR: usize = 8;
/// Columns of the tile: two 16-float vectors.
pub(super) const NR: usize = 32;

/// Whether this CPU runs the tile (AVX-512 F, with the subsets `avx2_fma!` also asks for).
pub(super) fn available() -> bool {
    crate::engine::numerics::fast::has_avx512()
}

/// One tile of the output: rows `[i, i + rows)` and columns `[j, j + cols)` of `out`, whose
/// rows are `ld` floats apart.
#[derive(Clone, Copy)]
pub(super) struct Tile {
    pub i: usize,
    pub j: usize,
    pub rows: usize,
    pub cols: usize,
    pub ld: usize,
    /// Store the block's sums (the first K block without a bias) rather than add them.
    pub fresh: bool,
}

/// `out[tile] (+)= a_panel @ b_panel` over `len` k: `a_panel` is the tile's rows p-major
/// (`a[q * MR + r]`, zero rows past the output's), `b_panel` its columns in rows of NR
/// (`b[q * NR + c]`, zero columns past the output's).
///
/// Panics (a bug in the caller, never a script's input) when the panels are shorter than
/// `len` rows or the tile reaches past `out`; the caller checks [`available`] first.
pub(super) fn tile(a_panel: &[f32], b_panel: &[f32], len: usize, out: &mut [f32], t: Tile) {
    assert!(available(), "AVX-512 tile on a CPU without AVX-512");
    assert!(a_panel.len() >= len * MR && b_panel.len() >= len * NR);
    assert!(t.rows >= 1 && t.rows <= MR && t.cols >= 1 && t.cols <= NR && t.cols + t.j <= t.ld);
    assert!(out.len() >= (t.i + t.rows - 1) * t.ld + t.j + t.cols);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the CPU has AVX-512 F (asserted above); the panels hold `len` rows and the tile
    // lies inside `out` (asserted above), which is all `tile_avx512` reads and writes.
    unsafe {
        tile_avx512(a_panel.as_ptr(), b_panel.as_ptr(), len, out.as_mut_ptr(), t);
    }
}

/// The tile's loop; see [`tile`] for what the pointers must reach.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn tile_avx512(a: *const f32, b: *const f32, len: usize, out: *mut f32, t: Tile) {
    let mut c0: [__m512; MR] = [_mm512_setzero_ps(); MR];
    let mut c1: [__m512; MR] = [_mm512_setzero_ps(); MR];
    for q in 0..len {
        // SAFETY: q < len, and the b panel holds len rows of NR floats (tile's contract)
        let (b0, b1) = unsafe {
            let row = b.add(q * NR);
            (_mm512_loadu_ps(row), _mm512_loadu_ps(row.add(16)))
        };
        for r in 0..MR {
            // SAFETY: q < len, and the a panel holds len rows of MR floats (tile's contract)
            let av = _mm512_set1_ps(unsafe { *a.add(q * MR + r) });
            c0[r] = _mm512_fmadd_ps(av, b0, c0[r]);
            c1[r] = _mm512_fmadd_ps(av, b1, c1[r]);
        }
    }
    // lanes of each half that lie inside the output's columns
    let mask = |from: usize| -> __mmask16 {
        let w = t.cols.saturating_sub(from).min(16);
        ((1u32 << w) - 1) as __mmask16
    };
    let (m0, m1) = (mask(0), mask(16));
    let whole = t.cols == NR;
    for r in 0..t.rows {
        // SAFETY: row i + r < i + rows and columns j .. j + cols lie inside `out` (tile's
        // contract); the masked forms touch no lane past `cols`.
        unsafe {
            let o = out.add((t.i + r) * t.ld + t.j);
            if whole {
                let (mut v0, mut v1) = (c0[r], c1[r]);
                if !t.fresh {
                    v0 = _mm512_add_ps(_mm512_loadu_ps(o), v0);
                    v1 = _mm512_add_ps(_mm512_loadu_ps(o.add(16)), v1);
                }
                _mm512_storeu_ps(o, v0);
                _mm512_storeu_ps(o.add(16), v1);
            } else {
                let (mut v0, mut v1) = (c0[r], c1[r]);
                if !t.fresh {
                    // the output's value first: `out + sum`, as the portable tile adds
                    // (`wrapping_add`: with 16 columns or fewer the second half is all masked
                    // and may point past the output)
                    v0 = _mm512_add_ps(_mm512_maskz_loadu_ps(m0, o), v0);
                    v1 = _mm512_add_ps(_mm512_maskz_loadu_ps(m1, o.wrapping_add(16)), v1);
                }
                _mm512_mask_storeu_ps(o, m0, v0);
                _mm512_mask_storeu_ps(o.wrapping_add(16), m1, v1);
            }
        }
    }
}
