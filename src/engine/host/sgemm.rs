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
//!
//! How the fused path is computed does not touch the order: `b` is packed once into panels of
//! a register tile's columns (by several threads when large), each task packs its rows of `a`
//! a K block and a chunk of rows at a time into groups of the tile's rows, and the tile
//! (AVX-512 8x32, sgemm_avx512.rs, where the CPU has it, else the portable 6x16) runs each K
//! block's chains in registers. Large products split their row groups over the intra-op
//! threads (engine::parallel): each element is still computed whole by one task, so the bits
//! are the same at any thread count. The packing buffers are kept per thread between products
//! (pack_scratch.rs).

use super::got;
use super::pack_scratch::{Scratch, Slot};
use super::sgemm_avx512 as avx512;
use super::transpose4::transpose4;
use crate::engine::error::Result;
use crate::engine::hostbuf::try_zeroed;
use crate::engine::interrupt::{keep_pending, poll, poll_now, should_stop, take_pending};
use crate::engine::numerics::fast::avx2_fma;
use crate::engine::parallel::parallel_rows_mut;

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

/// Rows of the portable register tile and columns (two 8-float vectors).
const MR: usize = 6;
const NR: usize = 16;

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

/// Which register tile runs the fused path: AVX-512 where the CPU has it, else the portable
/// tile (compiled for AVX2+FMA where available, plain code otherwise). Both give the same bits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Kernel {
    Avx512,
    Portable,
}

impl Kernel {
    /// The fastest tile this CPU runs.
    pub(crate) fn detect() -> Kernel {
        if avx512::available() {
            Kernel::Avx512
        } else {
            Kernel::Portable
        }
    }

    /// Rows and columns of its register tile.
    fn shape(self) -> (usize, usize) {
        match self {
            Kernel::Avx512 => (avx512::MR, avx512::NR),
            Kernel::Portable => (MR, NR),
        }
    }
}

avx2_fma! {
    /// The portable tile: `out[t] (+)= a_panel @ b_panel` over `len` k, the panels laid out
    /// as [`avx512::tile`]'s with MR rows and NR columns.
    fn portable_tile(a_panel: &[f32], b_panel: &[f32], len: usize, out: &mut [f32],
                     t: avx512::Tile) {
        let mut acc = [[0f32; NR]; MR];
        for (acol, brow) in a_panel[..len * MR]
            .chunks_exact(MR)
            .zip(b_panel[..len * NR].chunks_exact(NR))
        {
            let brow: &[f32; NR] = brow.try_into().unwrap();
            for (accr, &av) in acc.iter_mut().zip(acol) {
                for c in 0..NR {
                    accr[c] = av.mul_add(brow[c], accr[c]);
                }
            }
        }
        for (r, accr) in acc.iter().enumerate().take(t.rows) {
            let s = (t.i + r) * t.ld + t.j;
            if t.cols == NR {
                // a whole row of the tile: fixed-size, so two vector stores (or adds) where
                // the general case below is a call to memcpy or a scalar loop a row
                let o: &mut [f32; NR] = (&mut out[s..s + NR]).try_into().unwrap();
                if t.fresh {
                    *o = *accr;
                } else {
                    for c in 0..NR {
                        o[c] += accr[c];
                    }
                }
                continue;
            }
            let o = &mut out[s..s + t.cols];
            if t.fresh {
                o.copy_from_slice(&accr[..t.cols]);
            } else {
                for c in 0..t.cols {
                    o[c] += accr[c];
                }
            }
        }
    }
}

/// Output columns whose packed b rows of one K block (at most 384 x 512 floats, 768 KB) stay
/// in a core's L2 while every row group of a chunk passes over them (the AVX-512 tile's order).
const NC: usize = 512;

/// Rows of a packed together for one K block (at most 144 x 384 floats, 216 KB): they stay in
/// L2 while the b panels pass over them.
const MC_ROWS: usize = 144;

/// One product's operands as every task reads them: `a` as given (each task packs its own
/// rows, a K block and [`MC_ROWS`] rows at a time, into its thread's buffer) and `b` packed
/// once into column panels ([`pack_panels`]).
struct Packed<'a> {
    kernel: Kernel,
    a: &'a View<'a>,
    /// b in column panels of the tile's columns
    bp: &'a [f32],
    k: usize,
    n: usize,
    has_bias: bool,
}

impl Packed<'_> {
    /// The fused K-blocked order for the output rows of row groups `g0..` held by `out`
    /// (whole rows of n, the last group possibly short). A stop returns early with a partial
    /// product that nobody sees (the caller turns the pending stop into the op's error).
    ///
    /// Every element's chain for a K block is one tile call, and the blocks go in order, so
    /// the order of the tiles within a block is free and only the speed depends on it.
    fn run(&self, g0: usize, out: &mut [f32]) {
        let (mr, nr) = self.kernel.shape();
        let (k, n) = (self.k, self.n);
        let rows = out.len() / n.max(1);
        let groups = rows.div_ceil(mr);
        let panels = n.div_ceil(nr);
        let chunk_groups = (MC_ROWS / mr).max(1);
        let most =
            chunk_groups.min(groups) * mr * k_blocks(k).map(|(_, len)| len).max().unwrap_or(0);
        let mut a_buf = match Scratch::take(Slot::A, most) {
            Ok(buf) => buf,
            Err(e) => return keep_pending(e),
        };
        for (b_index, (p0, len)) in k_blocks(k).enumerate() {
            let fresh = b_index == 0 && !self.has_bias;
            for first in (0..groups).step_by(chunk_groups) {
                let last = (first + chunk_groups).min(groups);
                // this chunk's rows of a, columns p0.. of the block, as row groups
                let r0 = (g0 + first) * mr;
                let chunk_rows = (last * mr).min(rows) - first * mr;
                let a_chunk = View {
                    offset: (self.a.offset as isize
                        + r0 as isize * self.a.rs
                        + p0 as isize * self.a.cs) as usize,
                    ..*self.a
                };
                let ap = &mut a_buf.as_mut_slice()[..(last - first) * mr * len];
                if let Err(e) = pack_row_groups(ap, &a_chunk, chunk_rows, len, mr) {
                    return keep_pending(e);
                }
                let tile = |lg: usize, panel: usize, out: &mut [f32]| {
                    let i = lg * mr;
                    let a_start = (lg - first) * mr * len;
                    let a_panel = &ap[a_start..a_start + len * mr];
                    let b_start = panel * nr * k + p0 * nr;
                    let b_panel = &self.bp[b_start..b_start + len * nr];
                    let j = panel * nr;
                    let t = avx512::Tile {
                        i,
                        j,
                        rows: mr.min(rows - i),
                        cols: nr.min(n - j),
                        ld: n,
                        fresh,
                    };
                    match self.kernel {
                        Kernel::Avx512 => avx512::tile(a_panel, b_panel, len, out, t),
                        Kernel::Portable => portable_tile(a_panel, b_panel, len, out, t),
                    }
                };
                match self.kernel {
                    Kernel::Avx512 => {
                        // a row group's panel stays in L1 while the b panels of NC columns
                        // pass from L2 (a Sapphire Rapids core's 2 MB holds them)
                        let panels_per_block = (NC / nr).max(1);
                        for first_panel in (0..panels).step_by(panels_per_block) {
                            let last_panel = (first_panel + panels_per_block).min(panels);
                            for lg in first..last {
                                if should_stop() {
                                    return;
                                }
                                for panel in first_panel..last_panel {
                                    tile(lg, panel, out);
                                }
                            }
                        }
                    }
                    Kernel::Portable => {
                        // BLIS's order: one b panel (len x 16, at most 24 KB) stays in L1
                        // while the chunk's a panels pass from L2. The other order streamed b
                        // from L2, 16 floats a k against a's 6, and its 768 KB of b a block
                        // did not fit the EPYC's 512 KB L2.
                        for panel in 0..panels {
                            if should_stop() {
                                return;
                            }
                            for lg in first..last {
                                tile(lg, panel, out);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Multiply-adds below which a product stays on one thread, and about the least each task
/// takes when it splits: 2^22 is about 75 us of one core at 55 G multiply-adds/s, where
/// handing two tasks to rayon's pool and collecting them took 15 us (median of 200, this
/// 2-core VM at load 12, 2026-12-06).
const MIN_TASK_WORK: usize = 1 << 22;

/// Multiply-adds that packing one float of b costs about as much time as: b is packed on the
/// calling thread alone below `min_task_work / PACK_COST` floats, and each packing task takes
/// at least that many (outside tests 2^18 floats, 1 MB of copying, some 100 us).
const PACK_COST: usize = 16;

/// The fused K-blocked path for the whole `m x n` output with `kernel`'s tile, split into
/// row groups over the intra-op threads when the product is large enough (each task at least
/// `min_task_work` multiply-adds, [`MIN_TASK_WORK`] outside tests). Each element is computed
/// by one task in the same order, so the bits do not depend on the thread count.
#[allow(clippy::too_many_arguments)]
fn fused(
    out: &mut [f32],
    has_bias: bool,
    a: &View,
    b: &View,
    m: usize,
    k: usize,
    n: usize,
    kernel: Kernel,
    min_task_work: usize,
) -> Result<()> {
    let (mr, nr) = kernel.shape();
    // saturating: views expanded from one element can make k * n past usize, which the
    // allocation then refuses as too large
    let b_len = (n.div_ceil(nr) * nr).saturating_mul(k);
    // room for the panels to start on a 64-byte line (the tiles load b a line per vector)
    const LINE: usize = 16;
    let mut b_buf = Scratch::take(Slot::B, b_len.saturating_add(LINE))?;
    let b_all = b_buf.as_mut_slice();
    let b_at = b_all.as_ptr().align_offset(64).min(LINE);
    let bp = &mut b_all[b_at..b_at + b_len];
    // the panels are independent: shared over the threads when there is enough to copy
    // (the weight of a 784-input layer is 0.8 MB, packed again every step)
    let pack_grain = (min_task_work / PACK_COST).max(1);
    parallel_rows_mut(bp, nr * k, pack_grain, |first_panel, panels| {
        let j0 = first_panel * nr;
        let cols = (panels.len() / k.max(1)).min(n - j0);
        let part = View {
            offset: (b.offset as isize + j0 as isize * b.cs) as usize,
            ..*b
        };
        if let Err(e) = pack_panels(panels, &part, k, cols, nr) {
            keep_pending(e);
        }
    });
    if let Some(stop) = take_pending() {
        return Err(stop);
    }
    let packed = Packed {
        kernel,
        a,
        bp,
        k,
        n,
        has_bias,
    };
    // grain in output elements: each task gets at least min_task_work multiply-adds
    let grain = (min_task_work / k).max(1);
    parallel_rows_mut(&mut out[..m * n], mr * n, grain, |g0, rows| {
        packed.run(g0, rows)
    });
    if let Some(stop) = take_pending() {
        return Err(stop);
    }
    poll_now()
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

/// Rows of one panel filled per pass when a panel is filled column by column: 128 rows of a
/// 32-wide panel are 16 KB, which stay in L1 while each of its columns is read. Filling a
/// whole panel per column (784 rows, 100 KB for `x @ w.t()` of a 784-input layer) wrote every
/// value to another cache line and spent a sixth of a small MLP's training step there.
const PACK_ROWS: usize = 128;

/// Copies the `k x n` operand `v` into `dst` as column panels `nr` wide: panel `j / nr` holds
/// its k rows one after another, so element `[p, j]` is at `j * k + p * nr + j % nr` (for `j`
/// a multiple of nr, `j * k` is the panel's start). The tiles then read b in order: row after
/// row of one panel, where a row-major copy made them jump `n` floats per row (for n = 1024
/// every row of a panel fell on the same L1 set). Rows along which `v` is contiguous are
/// copied in runs; otherwise (a transposed operand) each panel is filled in blocks of
/// [`PACK_ROWS`] rows, column by column. Padding columns are left as they are. Polled every
/// row or block: a convolution's columns are hundreds of MB.
fn pack_panels(dst: &mut [f32], v: &View, k: usize, n: usize, nr: usize) -> Result<()> {
    let base = v.offset as isize;
    if v.cs == 1 {
        for p in 0..k {
            poll()?;
            let s = (base + p as isize * v.rs) as usize;
            let row = &v.data[s..s + n];
            match nr {
                // the tiles' widths as fixed-size copies: a copy_from_slice of a runtime
                // length is a call to memmove per 64 bytes (4 % of a 512 x 512 product)
                NR => copy_row_into_panels::<NR>(dst, row, k, p),
                avx512::NR => copy_row_into_panels::<{ avx512::NR }>(dst, row, k, p),
                // a transposed `a` (a weight gradient's `g.t() @ x`) packs as row groups
                MR => copy_row_into_panels::<MR>(dst, row, k, p),
                avx512::MR => copy_row_into_panels::<{ avx512::MR }>(dst, row, k, p),
                _ => {
                    for (c, chunk) in row.chunks(nr).enumerate() {
                        let d = c * nr * k + p * nr;
                        dst[d..d + chunk.len()].copy_from_slice(chunk);
                    }
                }
            }
        }
        return Ok(());
    }
    for j0 in (0..n).step_by(nr) {
        let width = nr.min(n - j0);
        let panel = &mut dst[j0 * k..(j0 + nr) * k];
        for p0 in (0..k).step_by(PACK_ROWS) {
            poll()?;
            let p1 = (p0 + PACK_ROWS).min(k);
            let mut four = 0;
            if v.rs == 1 {
                let column = |j: usize| {
                    let s = (base + j as isize * v.cs) as usize;
                    &v.data[s + p0..s + p1]
                };
                while four + 4 <= width {
                    let j = j0 + four;
                    let cols = [column(j), column(j + 1), column(j + 2), column(j + 3)];
                    put_four_columns(panel, cols, p0, nr, four);
                    four += 4;
                }
                if four < width && width >= 4 {
                    // the last columns (2 of a 6-row group of a) as the last four, overlapping
                    // ones already written with the same values: a value at a time was a
                    // third of packing a 256 x 256 operand
                    let c = width - 4;
                    let j = j0 + c;
                    let cols = [column(j), column(j + 1), column(j + 2), column(j + 3)];
                    put_four_columns(panel, cols, p0, nr, c);
                    four = width;
                }
            }
            for c in four..width {
                let j = j0 + c;
                if v.rs == 1 {
                    let s = (base + j as isize * v.cs) as usize;
                    for (p, &x) in (p0..p1).zip(&v.data[s + p0..s + p1]) {
                        panel[p * nr + c] = x;
                    }
                } else {
                    for p in p0..p1 {
                        panel[p * nr + c] = v.at(p, j);
                    }
                }
            }
        }
    }
    Ok(())
}

/// Row `p` of a `k x n` operand (`row`, contiguous) into its `W`-wide column panels.
#[inline]
fn copy_row_into_panels<const W: usize>(dst: &mut [f32], row: &[f32], k: usize, p: usize) {
    let mut chunks = row.chunks_exact(W);
    let mut d = p * W;
    for chunk in &mut chunks {
        let to: &mut [f32; W] = (&mut dst[d..d + W]).try_into().unwrap();
        *to = chunk.try_into().unwrap();
        d += W * k;
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        dst[d..d + rest.len()].copy_from_slice(rest);
    }
}

/// Writes four contiguous columns of an operand (`cols[q][r]` is column `c + q`'s value in
/// row `p0 + r`) into a panel `nr` wide, four values per panel row: each four rows are a 4 x 4
/// transpose in vector registers ([`transpose4`]), where a value at a time cost a store per value
/// (with the blocking above, the rest of a small MLP step's 14 % in packing).
fn put_four_columns(panel: &mut [f32], cols: [&[f32]; 4], p0: usize, nr: usize, c: usize) {
    let [c0, c1, c2, c3] = cols;
    let rows = c0.chunks_exact(4).zip(c1.chunks_exact(4));
    let rows = rows.zip(c2.chunks_exact(4).zip(c3.chunks_exact(4)));
    let mut p = p0;
    for ((a, b), (x, y)) in rows {
        for (t, row) in transpose4(a, b, x, y).iter().enumerate() {
            let o = (p + t) * nr + c;
            panel[o..o + 4].copy_from_slice(row);
        }
        p += 4;
    }
    for r in p - p0..c0.len() {
        let o = (p0 + r) * nr + c;
        panel[o..o + 4].copy_from_slice(&[c0[r], c1[r], c2[r], c3[r]]);
    }
}

/// Copies the `m x k` operand `v` into `dst` as groups of `mr` rows, each p-major: element
/// `[i, p]` is at `(i / mr) * mr * k + p * mr + i % mr`, so a tile reads its rows' values of
/// one k side by side. That is [`pack_panels`] of `v` transposed (its rows are the panels'
/// columns); padding rows are left as they are.
fn pack_row_groups(dst: &mut [f32], v: &View, m: usize, k: usize, mr: usize) -> Result<()> {
    let transposed = View {
        data: v.data,
        offset: v.offset,
        rs: v.cs,
        cs: v.rs,
    };
    pack_panels(dst, &transposed, k, m, mr)
}

/// Copies the `rows x cols` operand `v` into `dst` row-major (row length `cols`), reading
/// along whichever dimension is contiguous. Polled every row or tile.
fn pack_rows(dst: &mut [f32], v: &View, rows: usize, cols: usize) -> Result<()> {
    let base = v.offset as isize;
    if v.cs == 1 {
        for r in 0..rows {
            poll()?;
            let s = (base + r as isize * v.rs) as usize;
            dst[r * cols..(r + 1) * cols].copy_from_slice(&v.data[s..s + cols]);
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
                    dst[r * cols + c] = x;
                }
            }
        }
    } else {
        for r in 0..rows {
            poll()?;
            for c in 0..cols {
                dst[r * cols + c] = v.at(r, c);
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
    let kernel = Kernel::detect();
    for (r0, r1, small) in parts {
        // the part's rows of a and of the output
        let a_part = View {
            offset: (a.offset as isize + r0 as isize * a.rs) as usize,
            ..a
        };
        let out_part = &mut out[r0 * n..r1 * n];
        if small {
            small_dots(out_part, has_bias, &a_part, &b, r1 - r0, k, n)?;
        } else {
            fused(
                out_part,
                has_bias,
                &a_part,
                &b,
                r1 - r0,
                k,
                n,
                kernel,
                MIN_TASK_WORK,
            )?;
        }
    }
    Ok(())
}

/// The small path for a transposed `b` (see the module comment): one [`lanes_dot`] per
/// element, from the bias or 0.
fn small_dots(
    out: &mut [f32],
    has_bias: bool,
    a: &View,
    b: &View,
    m: usize,
    k: usize,
    n: usize,
) -> Result<()> {
    let mut rows = got(try_zeroed::<f32>(m * k), m * k)?;
    pack_rows(&mut rows, a, m, k)?;
    // b's columns are contiguous in memory (b_transposed)
    let col = |j: usize| {
        let s = (b.offset as isize + j as isize * b.cs) as usize;
        &b.data[s..s + k]
    };
    for i in 0..m {
        let x = &rows[i * k..(i + 1) * k];
        for j in 0..n {
            // every few dot products (each k long): one row can be a [k, n] product
            poll()?;
            let o = &mut out[i * n + j];
            let init = if has_bias { *o } else { 0.0 };
            *o = lanes_dot(x, col(j), init);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::test_sequence::Lcg;

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
        let mut r = Lcg::new(7);
        let (a, b, bias) = (r.centered(m * k), r.centered(k * n), r.centered(m * n));
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

    /// A scalar model of the fused order: per element, fused chains from 0 over each K block,
    /// stored for the first block without a bias, else added in order.
    fn model(a: &[f32], b: &[f32], bias: Option<&[f32]>, m: usize, k: usize, n: usize) -> Vec<f32> {
        let mut out = bias.map_or_else(|| vec![0f32; m * n], |x| x.to_vec());
        for i in 0..m {
            for j in 0..n {
                for (index, (p0, len)) in k_blocks(k).enumerate() {
                    let s =
                        (p0..p0 + len).fold(0f32, |acc, p| a[i * k + p].mul_add(b[p * n + j], acc));
                    if index == 0 && bias.is_none() {
                        out[i * n + j] = s;
                    } else {
                        out[i * n + j] += s;
                    }
                }
            }
        }
        out
    }

    /// Every kernel this CPU runs gives the scalar model's bits over odd and even shapes from
    /// 1 to 300, with and without a bias, a and b as is, transposed in memory and (b) strided
    /// both ways, at 1, 2 and 3 threads (the tasks split the rows; no element's order may
    /// depend on it, and every layout must pack to the same panels).
    #[test]
    fn every_kernel_and_thread_count_gives_the_same_bits() {
        let _threads = crate::engine::parallel::TEST_THREADS_LOCK
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let threads_before = crate::engine::parallel::num_threads();
        let mut lcg = Lcg::new(11);
        let mut r = move || {
            let s = lcg.next_u32();
            // a spread of magnitudes so that the roundings differ between orders
            ((s >> 8) as f32 / (1 << 24) as f32 - 0.5) * [1.0, 1e-3, 1e3][(s % 3) as usize]
        };
        let shapes = [
            (1, 1, 1),
            (1, 7, 33),
            (2, 385, 3),
            (7, 5, 17),
            (8, 384, 32),
            (9, 300, 31),
            (13, 769, 21),
            (17, 33, 64),
            (31, 1, 47),
            (33, 250, 65),
            (64, 100, 96),
            (100, 37, 129),
            (129, 201, 300),
            (300, 64, 97),
            (257, 299, 15),
        ];
        let mut kernels = vec![Kernel::Portable];
        if avx512::available() {
            kernels.push(Kernel::Avx512);
        }
        for &(m, k, n) in &shapes {
            let a: Vec<f32> = (0..m * k).map(|_| r()).collect();
            let b: Vec<f32> = (0..k * n).map(|_| r()).collect();
            let bias: Vec<f32> = (0..m * n).map(|_| r()).collect();
            let mut bt = vec![0f32; k * n];
            // b's values at odd places of a buffer twice as long each way, behind one unused value
            let mut b_spaced = vec![f32::NAN; 1 + 4 * k * n];
            for p in 0..k {
                for j in 0..n {
                    bt[j * k + p] = b[p * n + j];
                    b_spaced[1 + p * 4 * n + 2 * j] = b[p * n + j];
                }
            }
            let mut at = vec![0f32; m * k];
            for i in 0..m {
                for p in 0..k {
                    at[p * m + i] = a[i * k + p];
                }
            }
            let a_as_is = View {
                data: &a,
                offset: 0,
                rs: k as isize,
                cs: 1,
            };
            let a_t = View {
                data: &at,
                offset: 0,
                rs: 1,
                cs: m as isize,
            };
            let b_strided = View {
                data: &b_spaced,
                offset: 1,
                rs: 4 * n as isize,
                cs: 2,
            };
            let b_as_is = View {
                data: &b,
                offset: 0,
                rs: n as isize,
                cs: 1,
            };
            let b_t = View {
                data: &bt,
                offset: 0,
                rs: 1,
                cs: k as isize,
            };
            for with_bias in [false, true] {
                let want = model(&a, &b, with_bias.then_some(&bias[..]), m, k, n);
                let layouts = [
                    (a_as_is, b_as_is),
                    (a_as_is, b_t),
                    (a_t, b_t),
                    (a_t, b_strided),
                ];
                for &kernel in &kernels {
                    for (av, bv) in layouts {
                        for threads in [1, 2, 3] {
                            crate::engine::parallel::set_num_threads(threads);
                            let mut out = if with_bias {
                                bias.clone()
                            } else {
                                vec![f32::NAN; m * n]
                            };
                            // a task per row group (and b's panels packed by every thread):
                            // every split the thread count can make
                            fused(&mut out, with_bias, &av, &bv, m, k, n, kernel, 1).unwrap();
                            let same = out
                                .iter()
                                .zip(&want)
                                .all(|(x, y)| x.to_bits() == y.to_bits());
                            assert!(
                                same,
                                "{kernel:?} {m}x{k}x{n} bias {with_bias} a rs {} b rs {} at {threads} threads",
                                av.rs, bv.rs
                            );
                        }
                    }
                }
            }
        }
        crate::engine::parallel::set_num_threads(threads_before);
    }
}
