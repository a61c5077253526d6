//! float32 matrix products in the summation order of PyTorch 2.15's CPU BLAS (MKL's sgemm as
//! the PyPI wheel runs it with one thread on the Intel Xeon the recordings come from), found
//! by experiment (docs/engine.md, "Matrix products"; scripts/blas-order.py reproduces the
//! evidence).
//!
//! For `out[m x n] = a[m x k] @ b[k x n] (+ bias)`, row-major output as PyTorch allocates it:
//! k is cut into the blocks of [`k_blocks`] (384 while more than 768 remain, then the rest,
//! or two halves of it when longer than 384), each block is one fused multiply-add chain per
//! element starting from 0, and each block's sum is added (unfused) to the output, which
//! starts as the bias or as the first block's sum. float64 (matmul.rs) uses the same blocks.
//!
//! A single product of one output row (`m == 1`, no bias, `b` not transposed) with `n < 16`
//! is MKL's matrix-vector kernel: one fused chain per element over all of k (matmul.rs takes
//! [`row_chains`] before calling [`sgemm`]).
//!
//! Kept from measurements on an AMD EPYC, which do not describe the recordings' machine
//! (the small path still serves a transposed `b`, see [`sgemm`]):
//! MKL's split between two threads (behind `TWO_THREADS = false`: the first part has
//! `round_up(ceil(m / 2), 4)` rows, the second the rest, except when `n <= 16` and
//! `k <= 16`, or `k <= 4` and `m * n * k < 2048`), and its small path for a part with
//! `n <= 11` or at most 3 rows: an unfused chain from the bias, or for a transposed `b` an
//! 8-lane dot product (two 4-wide accumulators, `(l0 + l2) + (l1 + l3)`, then the bias, then
//! the last `k % 8` products one by one).
//!
//! With `k == 1` and a bias MKL fuses the one product with it, `fma(a, b, bias)`, when
//! `n >= 2` (n == 1 adds it unfused, which the blocked path gives).
//!
//! A transposed `b` (`x @ w.t()`) with m, n >= 2: MKL's pair-dot kernel where it picks it
//! (host/pair_dot.rs), otherwise the fused path above (exact on every shape measured).
//!
//! Not reproduced: a transposed `b` with one row, one column or k >= 24 m (sgemm_t_smalln),
//! one-row products with `n >= 16`, products with `n == 1` (matrix-vector).

use super::got;
use crate::engine::error::Result;
use crate::engine::hostbuf::try_zeroed;
use crate::engine::interrupt::{poll, poll_now, should_stop, take_pending};
use crate::engine::numerics::fast::avx2_fma;

/// One operand: element `[r, c]` is `data[offset + r * rs + c * cs]`.
#[derive(Clone, Copy)]
pub(crate) struct View<'a> {
    pub data: &'a [f32],
    pub offset: usize,
    pub rs: isize,
    pub cs: isize,
}

impl View<'_> {
    #[inline]
    pub(crate) fn at(&self, r: usize, c: usize) -> f32 {
        self.data[(self.offset as isize + r as isize * self.rs + c as isize * self.cs) as usize]
    }
}

/// Rows of a register tile and columns (two 8-float vectors).
const MR: usize = 6;
const NR: usize = 16;
/// Output rows between two interrupt polls.
const ROWS_PER_POLL: usize = 128;

/// Whether to reproduce MKL's split between two threads (PyTorch's default on this machine)
/// rather than one thread. The recordings the engine is held to are made with one OpenMP
/// thread (scripts/record-pytorch.py), so: one.
const TWO_THREADS: bool = false;

/// Longest K block of MKL's gemm kernels on this machine (sgemm and dgemm alike).
pub(crate) const KC: usize = 384;

/// MKL's K blocks for an inner dimension `k`, as `(start, length)` (measured against PyTorch
/// 2.15 CPU, one thread, on this Intel Xeon, float32 and float64 alike): blocks of 384 while
/// more than 768 remain, then the rest as one block, or as two halves (the first the larger)
/// when it is longer than 384: k = 1000 is 384 + 308 + 308, k = 500 is 250 + 250.
pub(crate) fn k_blocks(k: usize) -> impl Iterator<Item = (usize, usize)> {
    let full = if k > 2 * KC {
        (k - 2 * KC).div_ceil(KC)
    } else {
        0
    };
    let rest = k - full * KC;
    let (h1, h2) = if rest > KC {
        (rest.div_ceil(2), rest / 2)
    } else {
        (rest, 0)
    };
    let lens = std::iter::repeat_n(KC, full).chain([h1, h2].into_iter().filter(|&l| l > 0));
    lens.scan(0, |start, len| {
        let s = *start;
        *start += len;
        Some((s, len))
    })
}

/// The row parts of an `m x n` output and whether each takes the small path.
pub(crate) fn parts(m: usize, k: usize, n: usize) -> Vec<(usize, usize, bool)> {
    if !TWO_THREADS {
        // the small path's shapes; on this Intel Xeon only a transposed `b` takes it (sgemm)
        return vec![(0, m, n <= 11 || m <= 3)];
    }
    if n <= 11 {
        return vec![(0, m, true)];
    }
    if (n <= 16 && k <= 16) || (k <= 4 && m * n * k < 2048) {
        // MKL runs these on one thread (the second bound is measured between 1792 and 3600)
        return vec![(0, m, m <= 3)];
    }
    let m1 = m.div_ceil(2).div_ceil(4) * 4;
    let mut v = vec![(0, m1.min(m), m1.min(m) <= 3)];
    if m1 < m {
        v.push((m1, m, m - m1 <= 3));
    }
    v
}

/// Whether PyTorch hands `b` (`k x n`) to the BLAS transposed: it is not laid out with unit
/// column stride and a row stride of at least n, but with unit row stride (addmm_impl_cpu_'s
/// test, seen from the swapped operands of a row-major result).
pub(crate) fn b_transposed(b: &View, k: usize, n: usize) -> bool {
    let nn = b.cs == 1 && b.rs >= n.max(1) as isize;
    !nn && b.rs == 1 && b.cs >= k.max(1) as isize
}

avx2_fma! {
    /// Fused K-blocked path for rows `[r0, r1)` of the packed operands: `ap` is row-major with
    /// row length k (zero rows past m, at least MR of them), `bp` is b in column panels
    /// ([`pack_panels`], zero columns past n).
    #[allow(clippy::too_many_arguments)]
    fn fused_rows(out: &mut [f32], has_bias: bool, ap: &[f32], bp: &[f32], r0: usize, r1: usize,
                  k: usize, n: usize) {
        let mut panel = [0f32; MR * KC];
        let mut first = true;
        for (p0, len) in k_blocks(k) {
            let p1 = p0 + len;
            let mut i = r0;
            while i < r1 {
                let rows = MR.min(r1 - i);
                // this row group's slice of a, p-major: panel[q * MR + r] = a[i + r, p0 + q]
                for r in 0..MR {
                    let src = &ap[(i + r) * k + p0..(i + r) * k + p1];
                    for (q, &x) in src.iter().enumerate() {
                        panel[q * MR + r] = x;
                    }
                }
                let mut j = 0;
                while j < n {
                    // A stop returns early with a partial product that nobody sees (the
                    // caller turns the pending stop into the op's error): one row group of a
                    // [k, n] operand can be seconds of work.
                    if should_stop() {
                        return;
                    }
                    let mut acc = [[0f32; NR]; MR];
                    // this column panel's rows p0.. (contiguous: see `pack_panels`)
                    let bcol = &bp[j * k + p0 * NR..];
                    for (q, acol) in panel[..len * MR].chunks_exact(MR).enumerate() {
                        let brow: [f32; NR] = bcol[q * NR..q * NR + NR].try_into().unwrap();
                        for (accr, &av) in acc.iter_mut().zip(acol) {
                            for c in 0..NR {
                                accr[c] = av.mul_add(brow[c], accr[c]);
                            }
                        }
                    }
                    let cols = NR.min(n - j);
                    for (r, accr) in acc.iter().enumerate().take(rows) {
                        let o = &mut out[(i + r) * n + j..(i + r) * n + j + cols];
                        if first && !has_bias {
                            o.copy_from_slice(&accr[..cols]);
                        } else {
                            for c in 0..cols {
                                o[c] += accr[c];
                            }
                        }
                    }
                    j += NR;
                }
                i += MR;
            }
            first = false;
        }
    }
}

avx2_fma! {
    /// Unfused path for rows `[r0, r1)`: each element a multiply-then-add chain over k from
    /// its current value (the bias or 0).
    #[allow(clippy::too_many_arguments)]
    fn unfused_rows(out: &mut [f32], ap: &[f32], bp: &[f32], r0: usize, r1: usize, k: usize,
                    n: usize) {
        let mut i = r0;
        while i < r1 {
            let rows = MR.min(r1 - i);
            let mut j = 0;
            while j < n {
                if should_stop() {
                    return;
                }
                let cols = NR.min(n - j);
                let mut acc = [[0f32; NR]; MR];
                for (r, accr) in acc.iter_mut().enumerate().take(rows) {
                    accr[..cols].copy_from_slice(&out[(i + r) * n + j..(i + r) * n + j + cols]);
                }
                let bcol = &bp[j * k..];
                for p in 0..k {
                    let brow: [f32; NR] = bcol[p * NR..p * NR + NR].try_into().unwrap();
                    for (r, accr) in acc.iter_mut().enumerate() {
                        let av = ap[(i + r) * k + p];
                        for c in 0..NR {
                            accr[c] += av * brow[c];
                        }
                    }
                }
                for (r, accr) in acc.iter().enumerate().take(rows) {
                    out[(i + r) * n + j..(i + r) * n + j + cols].copy_from_slice(&accr[..cols]);
                }
                j += NR;
            }
            i += MR;
        }
    }
}

/// The small path's dot product for a transposed `b` (see the module comment).
fn lanes_dot(x: &[f32], y: &[f32], init: f32) -> f32 {
    let k = x.len().min(y.len());
    let main = k - k % 8;
    let (mut l0, mut l1) = ([0f32; 4], [0f32; 4]);
    for (xc, yc) in x[..main].chunks_exact(8).zip(y[..main].chunks_exact(8)) {
        for q in 0..4 {
            l0[q] += xc[q] * yc[q];
            l1[q] += xc[4 + q] * yc[4 + q];
        }
    }
    let v: [f32; 4] = std::array::from_fn(|q| l0[q] + l1[q]);
    let mut s = if main > 0 {
        init + ((v[0] + v[2]) + (v[1] + v[3]))
    } else {
        init
    };
    for q in main..k {
        s += x[q] * y[q];
    }
    s
}

/// A single output row (`1-D @ 2-D`, `mm` of one row) narrower than this is MKL's
/// matrix-vector kernel: one fused chain per element (measured for n < 16; wider rows take
/// another order, not reproduced).
pub(crate) const ROW_CHAIN_MAX_N: usize = 16;

/// `out[1 x n] = a[1 x k] @ b[k x n]`: each element one fused multiply-add chain over all of
/// k from 0, without K blocking (MKL's gemv path for one row; exact against PyTorch for n
/// from 1 to 15, k from 1 to 1000).
pub(crate) fn row_chains(out: &mut [f32], a: &View, b: &View, k: usize, n: usize) -> Result<()> {
    for (j, o) in out.iter_mut().enumerate().take(n) {
        let mut acc = 0f32;
        for p in 0..k {
            if p % 4096 == 4095 {
                poll()?;
            }
            acc = a.at(0, p).mul_add(b.at(p, j), acc);
        }
        *o = acc;
    }
    poll_now()
}

/// Copies the `k x n` operand `v` into `dst` as column panels NR wide: panel `j / NR` holds
/// its k rows one after another, so element `[p, j]` is at `j * k + p * NR + j % NR` (for `j` a
/// multiple of NR, `j * k` is the panel's start). The kernels then read b in order: row after
/// row of one panel, where a row-major copy made them jump `n` floats per row (for n = 1024
/// every row of a panel fell on the same L1 set). Padding columns are left as they are.
fn pack_panels(dst: &mut [f32], v: &View, k: usize, n: usize) -> Result<()> {
    let base = v.offset as isize;
    let at = |p: usize, j: usize| (j / NR) * NR * k + p * NR + j % NR;
    if v.cs == 1 {
        for p in 0..k {
            poll()?;
            let s = (base + p as isize * v.rs) as usize;
            for (c, chunk) in v.data[s..s + n].chunks(NR).enumerate() {
                let d = at(p, c * NR);
                dst[d..d + chunk.len()].copy_from_slice(chunk);
            }
        }
    } else if v.rs == 1 {
        for j in 0..n {
            if j % NR == 0 {
                poll()?;
            }
            let s = (base + j as isize * v.cs) as usize;
            for (p, &x) in v.data[s..s + k].iter().enumerate() {
                dst[at(p, j)] = x;
            }
        }
    } else {
        for p in 0..k {
            poll()?;
            for j in 0..n {
                dst[at(p, j)] = v.at(p, j);
            }
        }
    }
    Ok(())
}

/// Copies the `rows x cols` operand `v` into `dst` row-major with row length `ld` (the
/// padding is left as it is), reading along whichever dimension is contiguous. Polled every
/// row or tile: a convolution's columns are hundreds of MB, copied in about a second.
fn pack(dst: &mut [f32], ld: usize, v: &View, rows: usize, cols: usize) -> Result<()> {
    let base = v.offset as isize;
    if v.cs == 1 {
        for r in 0..rows {
            poll()?;
            let s = (base + r as isize * v.rs) as usize;
            dst[r * ld..r * ld + cols].copy_from_slice(&v.data[s..s + cols]);
        }
    } else if v.rs == 1 {
        // column by column, in tiles so that the writes stay in cache
        const T: usize = 32;
        for r0 in (0..rows).step_by(T) {
            let r1 = (r0 + T).min(rows);
            for c in 0..cols {
                if c % T == 0 {
                    poll()?;
                }
                let s = (base + c as isize * v.cs) as usize;
                let col = &v.data[s + r0..s + r1];
                for (r, &x) in (r0..r1).zip(col) {
                    dst[r * ld + c] = x;
                }
            }
        }
    } else {
        for r in 0..rows {
            poll()?;
            for c in 0..cols {
                dst[r * ld + c] = v.at(r, c);
            }
        }
    }
    Ok(())
}

/// `out[m x n] = a @ b`, or `out += a @ b` in the order above when `has_bias` (out then holds
/// the bias broadcast to `m x n`). `old_dot`: a transposed `b`'s small parts take the AMD
/// 8-lane dot (shapes whose MKL kernel is not reproduced); otherwise every part is fused.
#[allow(clippy::too_many_arguments)]
pub(crate) fn sgemm(
    out: &mut [f32],
    has_bias: bool,
    a: View,
    b: View,
    m: usize,
    k: usize,
    n: usize,
    old_dot: bool,
) -> Result<()> {
    if m == 0 || n == 0 {
        return Ok(());
    }
    if k == 0 {
        if !has_bias {
            out[..m * n].fill(0.0);
        }
        return Ok(());
    }
    if k == 1 && has_bias && n >= 2 {
        // MKL fuses the one product with the bias (n == 1 adds it unfused, as below)
        for i in 0..m {
            poll()?;
            for j in 0..n {
                let o = &mut out[i * n + j];
                *o = a.at(i, 0).mul_add(b.at(0, j), *o);
            }
        }
        return Ok(());
    }
    let transposed = old_dot && b_transposed(&b, k, n);
    // On this Intel Xeon a `b` given as is, and a transposed `b` of m, n >= 2 outside the
    // pair-dot kernel (pair_dot.rs) and sgemm_t_smalln, take the fused path at every shape
    // measured; the small path (measured on an AMD EPYC) is kept where the caller asks for
    // it: a transposed `b` in the shapes whose MKL kernel is not reproduced (one row, one
    // column, k >= 24 m, bmm).
    let parts: Vec<_> = parts(m, k, n)
        .into_iter()
        .map(|(r0, r1, small)| (r0, r1, small && transposed))
        .collect();
    // a packed row-major, rows padded to MR with zeros
    let m_pad = m + 2 * MR;
    let mut ap = got(try_zeroed::<f32>(m_pad * k), m_pad * k)?;
    pack(&mut ap, k, &a, m, k)?;
    if transposed && parts.iter().any(|p| p.2) {
        // the dot-product small path reads b's columns, contiguous in memory
        let col = |j: usize| {
            let s = (b.offset as isize + j as isize * b.cs) as usize;
            &b.data[s..s + k]
        };
        for &(r0, r1, small) in &parts {
            if !small {
                continue;
            }
            for i in r0..r1 {
                let x = &ap[i * k..(i + 1) * k];
                for j in 0..n {
                    // every few dot products (each k long): one row can be a [k, n] product
                    poll()?;
                    let o = &mut out[i * n + j];
                    let init = if has_bias { *o } else { 0.0 };
                    *o = lanes_dot(x, col(j), init);
                }
            }
        }
        if parts.iter().all(|p| p.2) {
            return Ok(());
        }
    }
    // b packed in column panels, columns padded to NR with zeros
    let npad = n.div_ceil(NR) * NR;
    let mut bp = got(try_zeroed::<f32>(k * npad), k * npad)?;
    pack_panels(&mut bp, &b, k, n)?;
    for (r0, r1, small) in parts {
        if small && transposed {
            continue;
        }
        let mut r = r0;
        while r < r1 {
            let e = (r + ROWS_PER_POLL).min(r1);
            if small {
                unfused_rows(out, &ap, &bp, r, e, k, n);
            } else {
                fused_rows(out, has_bias, &ap, &bp, r, e, k, n);
            }
            if let Some(stop) = take_pending() {
                return Err(stop);
            }
            poll_now()?;
            r = e;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocking_and_parts_follow_the_measured_rule() {
        let blocks = |k| k_blocks(k).collect::<Vec<_>>();
        assert_eq!(blocks(0), vec![]);
        assert_eq!(blocks(150), vec![(0, 150)]);
        assert_eq!(blocks(384), vec![(0, 384)]);
        assert_eq!(blocks(385), vec![(0, 193), (193, 192)]);
        assert_eq!(blocks(768), vec![(0, 384), (384, 384)]);
        assert_eq!(blocks(769), vec![(0, 384), (384, 193), (577, 192)]);
        assert_eq!(blocks(1000), vec![(0, 384), (384, 308), (692, 308)]);
        assert_eq!(
            blocks(2000),
            vec![
                (0, 384),
                (384, 384),
                (768, 384),
                (1152, 384),
                (1536, 232),
                (1768, 232)
            ]
        );
        if !TWO_THREADS {
            assert_eq!(parts(5, 64, 16), vec![(0, 5, false)]);
            assert_eq!(parts(3, 64, 16), vec![(0, 3, true)]);
            assert_eq!(parts(64, 784, 10), vec![(0, 64, true)]);
            return;
        }
        assert_eq!(parts(8, 64, 5), vec![(0, 8, true)]);
        assert_eq!(parts(5, 64, 16), vec![(0, 4, false), (4, 5, true)]);
        assert_eq!(parts(5, 16, 16), vec![(0, 5, false)]);
        assert_eq!(parts(5, 8, 17), vec![(0, 4, false), (4, 5, true)]);
        assert_eq!(parts(11, 17, 16), vec![(0, 8, false), (8, 11, true)]);
        assert_eq!(parts(13, 64, 16), vec![(0, 8, false), (8, 13, false)]);
        assert_eq!(parts(3, 64, 16), vec![(0, 3, true)]);
        assert_eq!(parts(7, 4, 33), vec![(0, 7, false)]);
        assert_eq!(parts(6, 2, 300), vec![(0, 4, false), (4, 6, true)]);
        assert_eq!(parts(64, 784, 256), vec![(0, 32, false), (32, 64, false)]);
    }

    /// The fused path equals a scalar model of it: K blocks of fma chains added to the bias.
    #[test]
    fn fused_path_is_blocked_fma_chains() {
        let (m, k, n) = (13, 500, 21);
        let mut s = 7u32;
        let mut r = || {
            s = s.wrapping_mul(1664525).wrapping_add(1013904223);
            (s >> 8) as f32 / (1 << 24) as f32 - 0.5
        };
        let a: Vec<f32> = (0..m * k).map(|_| r()).collect();
        let b: Vec<f32> = (0..k * n).map(|_| r()).collect();
        let bias: Vec<f32> = (0..m * n).map(|_| r()).collect();
        let mut out = bias.clone();
        let av = View {
            data: &a,
            offset: 0,
            rs: k as isize,
            cs: 1,
        };
        let bv = View {
            data: &b,
            offset: 0,
            rs: n as isize,
            cs: 1,
        };
        sgemm(&mut out, true, av, bv, m, k, n, true).unwrap();
        for i in 0..m {
            for j in 0..n {
                let mut c = bias[i * n + j];
                // k = 500: two halves of 250
                for blk in (0..k).collect::<Vec<_>>().chunks(250) {
                    let acc = blk
                        .iter()
                        .fold(0f32, |acc, &p| a[i * k + p].mul_add(b[p * n + j], acc));
                    c += acc;
                }
                assert_eq!(out[i * n + j].to_bits(), c.to_bits(), "{i} {j}");
            }
        }
    }
}
