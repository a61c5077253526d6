//! `prod`, `amax`/`amin` (`max`/`min` values) and `argmax`/`argmin` of float32
//! (ReduceOpsKernel.cpp through Reduce.h's `binary_kernel_reduce_vec`).
//!
//! `binary_kernel_reduce_vec` keeps four vector accumulators over blocks of 4 vectors when the
//! reduced dimension is contiguous (then combines them pairwise and the lanes left to right),
//! reduces columns of 4 vectors at a time when the kept dimension is contiguous, and falls back
//! to a running scalar otherwise. Only the product's rounding depends on that order; max/min
//! values are exact and only their NaN rule matters.

use super::iter::{reduction_output, reduction_plan};
use super::lanes::{Lanes, Real};
use super::sum::View;
use crate::engine::interrupt::{CHUNK, should_stop};

/// Lanes of the prod kernel's float vectors (the AVX2 build's `Vectorized<float>`).
const L: usize = 8;
/// Lanes of its double vectors (`Vectorized<double>`).
const L64: usize = 4;

/// `vectorized_inner_reduction` of one contiguous row into `*dst`.
fn inner_row<T: Real, const L: usize>(x: &[T], dst: &mut T, op: impl Fn(T, T) -> T + Copy) {
    let n = x.len();
    let count = n / (4 * L);
    if count > 0 {
        let mut acc = [Lanes::<T, L>::splat(T::ZERO); 4];
        for (j, a) in acc.iter_mut().enumerate() {
            *a = Lanes::load(&x[j * L..]);
        }
        for i in 1..count {
            for (j, a) in acc.iter_mut().enumerate() {
                *a = a.zip(Lanes::load(&x[i * 4 * L + j * L..]), op);
            }
        }
        let a01 = acc[0].zip(acc[1], op);
        let a23 = acc[2].zip(acc[3], op);
        let a = a01.zip(a23, op);
        let mut b = a.0[0];
        for lane in 1..L {
            b = op(b, a.0[lane]);
        }
        *dst = op(*dst, b);
    }
    for &v in &x[count * 4 * L..] {
        *dst = op(*dst, v);
    }
}

/// `binary_kernel_reduce_vec` over `dims` (empty: all) of a strided view, from `ident`.
fn reduce_vec<T: Real, const L: usize>(
    x: &[T],
    view: View<'_>,
    dims: &[usize],
    ident: T,
    op: impl Fn(T, T) -> T + Copy,
) -> Vec<T> {
    let (out_shape, out_strides) = reduction_output(view.shape, dims);
    let mut out = vec![ident; out_shape.iter().product()];
    if view.shape.contains(&0) {
        return out;
    }
    let p = reduction_plan(view, &out_strides);
    p.for_each_2d(|offs, size0, size1, s0, s1| {
        let (o0, i0) = (offs[0], offs[1]);
        if s0[0] == 0 && s0[1] == 1 {
            for j in 0..size1 {
                let row = i0 + j * s1[1];
                let o = o0 + j * s1[0];
                let mut d = out[o];
                inner_row::<T, L>(&x[row..row + size0], &mut d, op);
                out[o] = d;
            }
        } else if s0[0] == 0 && s1[0] == 1 && s1[1] == 1 {
            // vectorized_outer_reduction: columns of 4 vectors, then single columns.
            let blocks = size1 / (4 * L);
            for blk in 0..blocks {
                let c0 = blk * 4 * L;
                let mut acc = [Lanes::<T, L>::splat(T::ZERO); 4];
                for (j, a) in acc.iter_mut().enumerate() {
                    *a = Lanes::load(&x[i0 + c0 + j * L..]);
                }
                for i in 1..size0 {
                    // strided rows may be expanded views of 10^12 elements
                    if i % CHUNK == 0 && should_stop() {
                        return;
                    }
                    for (j, a) in acc.iter_mut().enumerate() {
                        *a = a.zip(Lanes::load(&x[i0 + i * s0[1] + c0 + j * L..]), op);
                    }
                }
                for (j, a) in acc.iter().enumerate() {
                    for lane in 0..L {
                        let o = o0 + c0 + j * L + lane;
                        out[o] = op(a.0[lane], out[o]);
                    }
                }
            }
            for c in blocks * 4 * L..size1 {
                let o = o0 + c;
                for i in 0..size0 {
                    if i % CHUNK == 0 && should_stop() {
                        return;
                    }
                    out[o] = op(out[o], x[i0 + i * s0[1] + c]);
                }
            }
        } else {
            for j in 0..size1 {
                let o = o0 + j * s1[0];
                for i in 0..size0 {
                    if i % CHUNK == 0 && should_stop() {
                        return;
                    }
                    out[o] = op(out[o], x[i0 + j * s1[1] + i * s0[1]]);
                }
            }
        }
    });
    out
}

/// `torch.prod(x, dims)` of a float32 view (empty `dims`: all).
pub fn prod_f32(x: &[f32], view: View<'_>, dims: &[usize]) -> Vec<f32> {
    reduce_vec::<f32, L>(x, view, dims, 1.0, |a, b| a * b)
}

/// `torch.prod(x, dims)` of a float64 view: the same kernel over 4-lane double vectors.
pub fn prod_f64(x: &[f64], view: View<'_>, dims: &[usize]) -> Vec<f64> {
    reduce_vec::<f64, L64>(x, view, dims, 1.0, |a, b| a * b)
}

/// `max_impl` / `min_impl`: NaN wins, otherwise the larger (smaller).
fn max_nan(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        a
    } else if b.is_nan() {
        b
    } else if a > b {
        a
    } else {
        b
    }
}

fn min_nan(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        a
    } else if b.is_nan() {
        b
    } else if a < b {
        a
    } else {
        b
    }
}

/// `torch.amax(x, dims)` / `x.max()`: the largest value, NaN if any is NaN.
pub fn amax_f32(x: &[f32], view: View<'_>, dims: &[usize]) -> Vec<f32> {
    reduce_vec::<f32, L>(x, view, dims, f32::NEG_INFINITY, max_nan)
}

/// `torch.amin(x, dims)` / `x.min()`.
pub fn amin_f32(x: &[f32], view: View<'_>, dims: &[usize]) -> Vec<f32> {
    reduce_vec::<f32, L>(x, view, dims, f32::INFINITY, min_nan)
}

/// `torch.argmax(x, dim)` (`argmin` when `min`): the first index of the extreme value along
/// `dim`, a NaN counting as the extreme; row-major over the other dimensions.
pub fn argmax_f32(x: &[f32], view: View<'_>, dim: usize, min: bool) -> Vec<i64> {
    let shape = view.shape;
    let n: usize = shape.iter().product();
    let len = shape[dim];
    if n == 0 || len == 0 {
        return Vec::new();
    }
    let other: Vec<usize> = (0..shape.len()).filter(|&d| d != dim).collect();
    let lines = n / len;
    let mut out = Vec::with_capacity(lines);
    for l in 0..lines {
        let (mut rem, mut off) = (l, view.offset);
        for &d in other.iter().rev() {
            off += (rem % shape[d]) * view.strides[d];
            rem /= shape[d];
        }
        let mut best = x[off];
        let mut bi = 0i64;
        for i in 1..len {
            let v = x[off + i * view.strides[dim]];
            if best.is_nan() {
                break;
            }
            let better = v.is_nan() || if min { v < best } else { v > best };
            if better {
                best = v;
                bi = i as i64;
            }
        }
        out.push(bi);
    }
    out
}
