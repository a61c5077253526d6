//! `max`/`min` values and `argmax`/`argmin` of float32 along one dimension, read in place.
//!
//! The generic path ([`super::reduce`]) gathers a permuted copy when the reduced dimension is
//! not the innermost and walks each group with one branchy scalar loop; `x.max(dim=...)` is the
//! hot reduction of every classifier's accuracy line, so it gets its own kernel. Max and min are
//! exact, so only the selection rule has to be PyTorch's (ATen's `compare_base_kernel`): the
//! FIRST index of the extreme value, a NaN counting as the extreme (the first NaN wins), and the
//! value is the element at that index (so of `0.0` and `-0.0` the first one is returned).
//!
//! Along a contiguous dimension each row is scanned twice while it sits in L1: once for the
//! extreme (and whether a NaN occurs), in vector-friendly branch-free form, then for its first
//! index. Along a strided dimension the kernel keeps one running best value and index per
//! output position of the contiguous run beside it, updated a whole row at a time.

use super::got;
use crate::engine::error::Result;
use crate::engine::hostbuf::try_zeroed;
use crate::engine::interrupt::{CHUNK, should_stop, take_pending};
use crate::engine::layout::Layout;
use crate::engine::numerics::fast::avx2_fma;
use crate::engine::parallel::{GRAIN_SIZE, parallel_rows_mut};

/// Lanes of the row scan's accumulators (a multiple of every vector width).
const L: usize = 16;

/// The outputs are cut into about this many pieces for the intra-op threads to share (enough
/// for an even split at any thread count this machine's kind runs).
const PIECES: usize = 64;

/// The least output positions of a piece along a strided dim: a 4 KB page of float32 a step.
const COLUMN_PIECE: usize = 1024;

/// The extreme of `dim` for every other position of `layout` (row-major over the kept dims):
/// (values, indices). `layout` has at least one element.
pub(crate) fn extreme_dim_f32(
    x: &[f32],
    layout: &Layout,
    dim: usize,
    is_max: bool,
) -> Result<(Vec<f32>, Vec<i64>)> {
    let shape = &layout.shape;
    let strides = &layout.strides;
    let len = shape[dim];
    let outputs: usize = layout.numel() / len.max(1);
    let mut values = got(try_zeroed::<f32>(outputs), outputs)?;
    let mut indices = got(try_zeroed::<i64>(outputs), outputs)?;
    // The innermost kept dimension is walked as one run; the other kept dims are "outer".
    let kept: Vec<usize> = (0..shape.len()).filter(|&d| d != dim).collect();
    let (run, run_stride) = match kept.last() {
        Some(&d) => (shape[d], strides[d]),
        None => (1, 0),
    };
    let outer_dims = &kept[..kept.len().saturating_sub(1)];
    let dim_stride = strides[dim];
    // The first element of output position `p` (row-major over the kept dims).
    let start_of = |p: usize| {
        let (o, r) = (p / run.max(1), p % run.max(1));
        let mut base = layout.offset + r * run_stride;
        let mut rem = o;
        for &d in outer_dims.iter().rev() {
            base += (rem % shape[d]) * strides[d];
            rem /= shape[d];
        }
        base
    };
    // Every output position is computed on its own (ATen's reduction splits the outputs over
    // the intra-op threads too), so the split never shows in the bits. The outputs go in
    // pieces, each a piece of values and the same piece of indices, and the pieces are shared
    // out in whole runs of them.
    let mut piece = outputs.div_ceil(PIECES).max(1);
    if dim_stride != 1 {
        // Along a strided dim every step reads one segment of each piece's run: a narrow piece
        // reads a few lines of each page it touches and walks a new page per step (2048 steps
        // of 32 columns of a 2048x2048 matrix took 48 ms at one thread on the EPYC VM, the
        // whole matrix streamed in order takes a few). A piece spans a page's worth of the run.
        piece = piece.max(run.min(COLUMN_PIECE));
    }
    // (at most PIECES entries: not a size the script decides)
    let mut pieces: Vec<(usize, &mut [f32], &mut [i64])> = values
        .chunks_mut(piece)
        .zip(indices.chunks_mut(piece))
        .enumerate()
        .map(|(k, (v, i))| (k * piece, v, i))
        .collect();
    let grain = GRAIN_SIZE.div_ceil(piece.saturating_mul(len).max(1));
    parallel_rows_mut(&mut pieces, 1, grain, |_, mine| {
        let mut since = 0usize;
        for (first, vals, idxs) in mine.iter_mut() {
            // the piece in segments that lie within one run
            let mut at = 0;
            while at < vals.len() {
                let p = *first + at;
                let count = (run.max(1) - p % run.max(1)).min(vals.len() - at);
                let (v, i) = (&mut vals[at..at + count], &mut idxs[at..at + count]);
                let walk = Walk {
                    base: start_of(p),
                    len,
                    dim_stride,
                    run_stride,
                };
                if dim_stride == 1 {
                    rows_extreme(x, walk, v, i, is_max);
                } else {
                    columns_extreme(x, walk, v, i, is_max);
                }
                at += count;
                since += count * len;
                if since >= CHUNK {
                    since = 0;
                    if should_stop() {
                        return;
                    }
                }
            }
        }
    });
    drop(pieces);
    if let Some(stop) = take_pending() {
        return Err(stop);
    }
    Ok((values, indices))
}

/// Where the compared elements of `vals.len()` output positions lie in `x`: the first
/// position's first element at `base`, `len` of them `dim_stride` apart along the reduced dim,
/// the positions `run_stride` apart.
#[derive(Clone, Copy)]
struct Walk {
    base: usize,
    len: usize,
    dim_stride: usize,
    run_stride: usize,
}

avx2_fma! {
    /// [`row_extreme`] of `vals.len()` contiguous rows of `len` (`dim_stride` 1).
    fn rows_extreme(x: &[f32], walk: Walk, vals: &mut [f32], idxs: &mut [i64], is_max: bool) {
        let Walk { base, len, run_stride, .. } = walk;
        for (r, (v, i)) in vals.iter_mut().zip(idxs.iter_mut()).enumerate() {
            let start = base + r * run_stride;
            let row = &x[start..start + len];
            let at = if is_max {
                row_extreme::<true>(row)
            } else {
                row_extreme::<false>(row)
            };
            *v = row[at];
            *i = at as i64;
        }
    }
}

/// The index of the first extreme of a contiguous row (the first NaN when there is one).
#[inline(always)]
fn row_extreme<const MAX: bool>(row: &[f32]) -> usize {
    let better = |a: f32, b: f32| if MAX { a > b } else { a < b };
    let mut acc = [row[0]; L];
    // v * 0 is NaN exactly when v is NaN or infinite: a cheap vector test, confirmed below.
    let mut nan = [0.0f32; L];
    let mut chunks = row.chunks_exact(L);
    for c in &mut chunks {
        for k in 0..L {
            let v = c[k];
            acc[k] = if better(v, acc[k]) { v } else { acc[k] };
            nan[k] += v * 0.0;
        }
    }
    let mut best = acc[0];
    for &a in &acc[1..] {
        if better(a, best) {
            best = a;
        }
    }
    let mut maybe_nan = nan.iter().any(|n| n.is_nan());
    for &v in chunks.remainder() {
        if better(v, best) {
            best = v;
        }
        maybe_nan |= v.is_nan();
    }
    if maybe_nan && let Some(p) = row.iter().position(|v| v.is_nan()) {
        return p;
    }
    // `best` is one of the row's values (compared by ==, so 0.0 and -0.0 tie as `>` does).
    first_equal(row, best)
}

/// The first position of `best` in `row`, looked for a vector of lanes at a time.
#[inline(always)]
fn first_equal(row: &[f32], best: f32) -> usize {
    let mut chunks = row.chunks_exact(L);
    let mut start = 0;
    for c in &mut chunks {
        let mut hit = false;
        for &v in c {
            hit |= v == best;
        }
        if hit {
            return start + c.iter().position(|&v| v == best).unwrap_or(0);
        }
        start += L;
    }
    start
        + chunks
            .remainder()
            .iter()
            .position(|&v| v == best)
            .unwrap_or(0)
}

avx2_fma! {
    /// The first extreme along a strided dimension for `vals.len()` positions `run_stride`
    /// apart, one row of them at a time: ATen's running compare, `(v > best || v is NaN)`
    /// while `best` is not NaN.
    fn columns_extreme(x: &[f32], walk: Walk, vals: &mut [f32], idxs: &mut [i64], is_max: bool) {
        if is_max {
            columns::<true>(x, walk, vals, idxs)
        } else {
            columns::<false>(x, walk, vals, idxs)
        }
    }
}

#[inline(always)]
fn columns<const MAX: bool>(x: &[f32], walk: Walk, vals: &mut [f32], idxs: &mut [i64]) {
    let Walk {
        base,
        len,
        dim_stride,
        run_stride,
    } = walk;
    for (r, (v, i)) in vals.iter_mut().zip(idxs.iter_mut()).enumerate() {
        *v = x[base + r * run_stride];
        *i = 0;
    }
    for step in 1..len {
        let row = base + step * dim_stride;
        let s = step as i64;
        if run_stride == 1 {
            let src = &x[row..row + vals.len()];
            for ((v, i), &e) in vals.iter_mut().zip(idxs.iter_mut()).zip(src) {
                let take = !v.is_nan() && (e.is_nan() || if MAX { e > *v } else { e < *v });
                *v = if take { e } else { *v };
                *i = if take { s } else { *i };
            }
        } else {
            for (r, (v, i)) in vals.iter_mut().zip(idxs.iter_mut()).enumerate() {
                let e = x[row + r * run_stride];
                let take = !v.is_nan() && (e.is_nan() || if MAX { e > *v } else { e < *v });
                if take {
                    *v = e;
                    *i = s;
                }
            }
        }
    }
}
