//! MKL's small-output kernel for a transposed `b` (`x @ w.t()`: nn.Linear, RNN cells,
//! attention projections), `mkl_blas_avx512_sgemm_pst` in PyTorch 2.15's wheel, read from
//! its disassembly and traced under gdb on the recordings' Intel Xeon (AVX-512).
//!
//! Each output `out[i][j]` is a dot product of row i of `a` with row j of `w` (both
//! contiguous along k), in 16 lanes: for k >= 32 the first `k - k % 32` products go in
//! blocks of two vectors, and rows are taken in pairs (i, i + 1) sharing the loads of
//! `w`'s row: the even row keeps two accumulators (first and second vector of each block,
//! added lane by lane after the blocks), the odd row one accumulator for both vectors; a
//! last unpaired row (odd m) is handled as an even row. The rest of k (all of it when
//! k < 32) goes 16 at a time, masked, into the first accumulator. The lanes are then halved
//! (`l[i] + l[i + 8]`, `+ 4`, `+ 2`, `+ 1`), and the bias, when there is one, is added once
//! (`fma(beta, c, alpha * sum)` with alpha = beta = 1).
//!
//! MKL takes this kernel, measured for every m, n in 2..20, 24, 32 and k in 19 values from
//! 1 to 200 (8,379 shapes), when [`mkl_picks_pair_dot`] says so; it is exact on 8,610 of
//! 8,610 elements of those shapes (random inputs, three draws).

use crate::engine::error::Result;
use crate::engine::interrupt::poll;

const LANES: usize = 16;

/// Whether MKL (one thread, this CPU) runs `[m, k] @ [n, k].t()` with this kernel: n = 2
/// up to 15 rows, n = 3 up to 10 rows, and for k < 16 any n up to 11 above both m and
/// k - 1; not when k >= 24 m (MKL's `sgemm_t_smalln` then, not reproduced).
pub(crate) fn mkl_picks_pair_dot(m: usize, k: usize, n: usize) -> bool {
    if m < 2 || n < 2 || k < 2 || k >= 24 * m {
        return false;
    }
    (n == 2 && m <= 15) || (n == 3 && m <= 10) || ((4..=11).contains(&n) && n > m.max(k - 1))
}

/// Tells whether `k >= 24 m` puts `[m, k] @ [n, k].t()` on MKL's `sgemm_t_smalln` kernel
/// (measured for m = 2 to 8: the bound is exactly 24 m), whose order is not reproduced.
pub(crate) fn mkl_picks_small_n(m: usize, k: usize) -> bool {
    m >= 2 && k >= 24 * m
}

/// One output of the kernel: `x . w` in MKL's lane order (`dual`: the even row of a pair).
fn lane_dot(x: &[f32], w: &[f32], dual: bool) -> f32 {
    let k = x.len().min(w.len());
    let mut a0 = [0f32; LANES];
    let mut a1 = [0f32; LANES];
    let blocked = k - k % (2 * LANES);
    for (xb, wb) in x[..blocked]
        .chunks_exact(2 * LANES)
        .zip(w[..blocked].chunks_exact(2 * LANES))
    {
        for l in 0..LANES {
            a0[l] = xb[l].mul_add(wb[l], a0[l]);
        }
        let second = if dual { &mut a1 } else { &mut a0 };
        for l in 0..LANES {
            second[l] = xb[LANES + l].mul_add(wb[LANES + l], second[l]);
        }
    }
    if dual && blocked > 0 {
        for l in 0..LANES {
            a0[l] += a1[l];
        }
    }
    for (xc, wc) in x[blocked..k].chunks(LANES).zip(w[blocked..k].chunks(LANES)) {
        for (l, (xv, wv)) in xc.iter().zip(wc).enumerate() {
            a0[l] = xv.mul_add(*wv, a0[l]);
        }
    }
    let mut h = LANES / 2;
    while h >= 1 {
        for l in 0..h {
            a0[l] += a0[l + h];
        }
        h /= 2;
    }
    a0[0]
}

/// `out[m x n] (+)= a[m x k] @ w[n x k].t()`: `row(i)` and `wrow(j)` give the contiguous
/// rows; with `has_bias` out holds the bias broadcast to `m x n` and the sum is added to it.
pub(crate) fn pair_dots<'a>(
    out: &mut [f32],
    has_bias: bool,
    row: impl Fn(usize) -> &'a [f32],
    wrow: impl Fn(usize) -> &'a [f32],
    m: usize,
    n: usize,
) -> Result<()> {
    for i in 0..m {
        let x = row(i);
        for j in 0..n {
            poll()?;
            let s = lane_dot(x, wrow(j), i % 2 == 0);
            let o = &mut out[i * n + j];
            *o = if has_bias { *o + s } else { s };
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_choice_follows_the_measured_grid() {
        // rows of the measured grid at k = 3: n = 2, 3 and n > m (n <= 11) take the kernel
        assert!(mkl_picks_pair_dot(5, 3, 7));
        assert!(!mkl_picks_pair_dot(5, 3, 4));
        assert!(!mkl_picks_pair_dot(5, 3, 12));
        assert!(mkl_picks_pair_dot(15, 40, 2));
        assert!(!mkl_picks_pair_dot(16, 40, 2));
        assert!(!mkl_picks_pair_dot(11, 40, 3));
        // k - 1 bounds the wider outputs: k = 8 needs n >= 8
        assert!(!mkl_picks_pair_dot(2, 8, 7));
        assert!(mkl_picks_pair_dot(2, 8, 8));
        // k >= 24 m is sgemm_t_smalln
        assert!(mkl_picks_pair_dot(2, 47, 2));
        assert!(!mkl_picks_pair_dot(2, 48, 2));
        assert!(mkl_picks_small_n(2, 48));
    }

    #[test]
    fn even_rows_split_the_32_blocks_over_two_accumulators() {
        // lane 0 sees p = 0, 16, 32, 48: 1e8, 1, -1e8, 1
        let mut x = vec![0f32; 64];
        let w = vec![1f32; 64];
        x[0] = 1e8;
        x[16] = 1.0;
        x[32] = -1e8;
        x[48] = 1.0;
        // one accumulator: 1e8 + 1 rounds to 1e8, - 1e8 = 0, + 1 = 1
        assert_eq!(lane_dot(&x, &w, false), 1.0);
        // two: (1e8 - 1e8) + (1 + 1) = 2
        assert_eq!(lane_dot(&x, &w, true), 2.0);
        // the rest of k (past the 32-blocks) goes into the first accumulator after the pair
        // is added, and the lanes are halved: lane 1 + lane 9 + ... all reach the sum
        let mut y = vec![0f32; 70];
        y[65] = 3.0;
        y[1] = 0.5;
        assert_eq!(lane_dot(&y, &[1f32; 70], true), 3.5);
    }
}
