//! `var` / `std` / `var_mean`, vector norms, `cumsum` / `cumprod` of float32 (ReduceOps.cpp,
//! ReduceOpsKernel.cpp, SharedReduceOps.h).
//!
//! - var/std over every element (one output): ATen's two-pass `std_var_all_cpu`: the float32
//!   mean (cascade sum / n) widened to double, then the sum of squared differences in double.
//! - var/std along dimensions, and var_mean always: Welford in double (`WelfordOps`), one
//!   output at a time, over the reduced elements in TensorIterator order.
//! - norm p=2 over a contiguous last dimension: float accumulation in 8-lane vectors with FMAs;
//!   otherwise the scalar `Norm*Ops` reductions in float.
//! - cumsum/cumprod accumulate in double (`acc_type<float, /*is_cuda=*/false>`).

use super::iter::{Operand, contiguous_strides, plan, reduction_output, reduction_plan};
use super::lanes::{Lanes, Real};
use super::sum::{View, sum_dims_f32, sum_dims_f64};
use crate::engine::interrupt::{CHUNK, should_stop};

/// Calls `f(output index, reduced elements in iteration order)` for each output of reducing
/// `dims` (empty: all) of a strided view, the outputs in row-major order of the kept dims.
fn for_each_output(
    view: View<'_>,
    dims: &[usize],
    mut f: impl FnMut(usize, &mut dyn Iterator<Item = usize>),
) {
    let (_, out_strides) = reduction_output(view.shape, dims);
    if view.shape.contains(&0) {
        return;
    }
    let p = reduction_plan(view, &out_strides);
    // The reduced dims come first in the plan; count them.
    let nred = p.strides[0].iter().take_while(|&&s| s == 0).count();
    let red_shape: Vec<usize> = p.shape[..nred].to_vec();
    let red_strides: Vec<usize> = p.strides[1][..nred].to_vec();
    let keep_shape: Vec<usize> = p.shape[nred..].to_vec();
    let keep_in: Vec<usize> = p.strides[1][nred..].to_vec();
    let keep_out: Vec<usize> = p.strides[0][nred..].to_vec();
    let red_numel: usize = red_shape.iter().product();
    let keep_numel: usize = keep_shape.iter().product();
    for o in 0..keep_numel {
        // position of output o in the plan's kept dims (fastest first)
        let (mut rem, mut in_off, mut out_off) = (o, view.offset, 0usize);
        for d in 0..keep_shape.len() {
            let i = rem % keep_shape[d];
            rem /= keep_shape[d];
            in_off += i * keep_in[d];
            out_off += i * keep_out[d];
        }
        let mut it = (0..red_numel).map(|r| {
            let (mut rem, mut off) = (r, in_off);
            for d in 0..red_shape.len() {
                off += (rem % red_shape[d]) * red_strides[d];
                rem /= red_shape[d];
            }
            off
        });
        f(out_off, &mut it);
    }
}

/// Welford's running mean and sum of squared differences in double (`WelfordOps::reduce`).
/// GCC contracts `m2 + delta * new_delta` into an FMA in the float kernel (`FUSED`), not in
/// the double one (measured on 2400 float64 reductions along either dimension: all match
/// unfused, a quarter differ fused).
fn welford<T: Real, const FUSED: bool>(
    x: &[T],
    idx: &mut dyn Iterator<Item = usize>,
) -> (f64, f64, f64) {
    let (mut mean, mut m2, mut n) = (0f64, 0f64, 0i64);
    for i in idx {
        let d = x[i].to_f64();
        n += 1;
        let nf = n as f64;
        let delta = d - mean;
        mean += delta / nf;
        let new_delta = d - mean;
        m2 = if FUSED {
            delta.mul_add(new_delta, m2)
        } else {
            m2 + delta * new_delta
        };
    }
    (mean, m2, n as f64)
}

fn welford_var(m2: f64, nf: f64, correction: f64, take_sqrt: bool) -> f64 {
    let divisor = if nf > correction {
        nf - correction
    } else {
        0.0
    };
    let var = m2 / divisor;
    if take_sqrt { var.sqrt() } else { var }
}

/// `torch.var` / `torch.std` (`take_sqrt`) of a float32 view over `dims` (empty: all) with
/// `correction` (1 by default, `unbiased=False` is 0).
pub fn var_f32(
    x: &[f32],
    view: View<'_>,
    dims: &[usize],
    correction: f64,
    take_sqrt: bool,
) -> Vec<f32> {
    // the float mean (cascade sum / n in float), widened to double
    let mean = |x: &[f32], view: View<'_>, numel: usize| {
        (sum_dims_f32(x, view, &[])[0] / numel as f32) as f64
    };
    var_t::<f32, true>(x, view, dims, correction, take_sqrt, mean)
}

/// `torch.var` / `torch.std` of a float64 view: as [`var_f32`], the all-reduce's mean being
/// the double cascade sum / n.
pub fn var_f64(
    x: &[f64],
    view: View<'_>,
    dims: &[usize],
    correction: f64,
    take_sqrt: bool,
) -> Vec<f64> {
    let mean =
        |x: &[f64], view: View<'_>, numel: usize| sum_dims_f64(x, view, &[])[0] / numel as f64;
    var_t::<f64, false>(x, view, dims, correction, take_sqrt, mean)
}

fn var_t<T: Real, const FUSED: bool>(
    x: &[T],
    view: View<'_>,
    dims: &[usize],
    correction: f64,
    take_sqrt: bool,
    mean: impl Fn(&[T], View<'_>, usize) -> f64,
) -> Vec<T> {
    let ndim = view.shape.len();
    let out_numel: usize = (0..ndim)
        .filter(|d| !(dims.is_empty() || dims.contains(d)))
        .map(|d| view.shape[d])
        .product();
    let numel: usize = view.shape.iter().product();
    if numel == 0 {
        return vec![T::NAN; out_numel];
    }
    if out_numel <= 1 {
        let m = mean(x, view, numel);
        return vec![T::from_f64(var_all(x, view, m, correction, take_sqrt))];
    }
    let mut out = vec![T::ZERO; out_numel];
    for_each_output(view, dims, |o, idx| {
        let (_, m2, nf) = welford::<T, FUSED>(x, idx);
        out[o] = T::from_f64(welford_var(m2, nf, correction, take_sqrt));
    });
    out
}

/// `std_var_all_cpu`: the two-pass variance of every element about `mean`.
fn var_all<T: Real>(x: &[T], view: View<'_>, mean: f64, correction: f64, take_sqrt: bool) -> f64 {
    let numel: usize = view.shape.iter().product();
    // ((x - mean)**2).sum() in double, one partial sum per 2-d slice of the iterator.
    let p = plan(view.shape, &[Operand::input(view.strides, view.offset)]);
    let mut total = 0f64;
    p.for_each_2d(|offs, size0, size1, s0, s1| {
        let mut local = 0f64;
        for j in 0..size1 {
            for i in 0..size0 {
                // a strided row may be an expanded view of 10^12 elements
                if i % CHUNK == 0 && should_stop() {
                    return;
                }
                let dx = x[offs[0] + j * s1[0] + i * s0[0]].to_f64() - mean;
                local += dx * dx;
            }
        }
        total += local;
    });
    let var = total / (numel as f64 - correction).max(0.0);
    if take_sqrt { var.sqrt() } else { var }
}

/// `torch.var_mean` / `torch.std_mean`: (var or std, mean), both from Welford.
pub fn var_mean_f32(
    x: &[f32],
    view: View<'_>,
    dims: &[usize],
    correction: f64,
    take_sqrt: bool,
) -> (Vec<f32>, Vec<f32>) {
    var_mean_t::<f32, true>(x, view, dims, correction, take_sqrt)
}

/// `torch.var_mean` / `torch.std_mean` of float64: Welford, as [`var_mean_f32`].
pub fn var_mean_f64(
    x: &[f64],
    view: View<'_>,
    dims: &[usize],
    correction: f64,
    take_sqrt: bool,
) -> (Vec<f64>, Vec<f64>) {
    var_mean_t::<f64, false>(x, view, dims, correction, take_sqrt)
}

fn var_mean_t<T: Real, const FUSED: bool>(
    x: &[T],
    view: View<'_>,
    dims: &[usize],
    correction: f64,
    take_sqrt: bool,
) -> (Vec<T>, Vec<T>) {
    let ndim = view.shape.len();
    let out_numel: usize = (0..ndim)
        .filter(|d| !(dims.is_empty() || dims.contains(d)))
        .map(|d| view.shape[d])
        .product();
    let mut var = vec![T::NAN; out_numel];
    let mut mean = vec![T::NAN; out_numel];
    for_each_output(view, dims, |o, idx| {
        let (m, m2, nf) = welford::<T, FUSED>(x, idx);
        var[o] = T::from_f64(welford_var(m2, nf, correction, take_sqrt));
        mean[o] = T::from_f64(m);
    });
    (var, mean)
}

/// The order of a vector norm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NormOrd {
    Zero,
    One,
    Two,
    Inf,
    NegInf,
    P(f32),
}

impl NormOrd {
    pub fn from_f64(p: f64) -> NormOrd {
        if p == 0.0 {
            NormOrd::Zero
        } else if p == 1.0 {
            NormOrd::One
        } else if p == 2.0 {
            NormOrd::Two
        } else if p == f64::INFINITY {
            NormOrd::Inf
        } else if p == f64::NEG_INFINITY {
            NormOrd::NegInf
        } else {
            NormOrd::P(p as f32)
        }
    }
}

/// `max_propagate_nan`.
fn max_nan(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::NAN
    } else if a > b {
        a
    } else {
        b
    }
}

fn min_nan(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::NAN
    } else if a < b {
        a
    } else {
        b
    }
}

/// The lanes of the norm kernel's vector path (`norm_two_reduce_step`, AVX2 build): 8 floats.
const NORM_LANES: usize = 8;
/// The same vector of doubles: 4 lanes.
const NORM_LANES_F64: usize = 4;

/// The vectorised p=2 row reduction of `norm_kernel_tensor_iterator_impl`: L-lane squares
/// accumulated with a multiply and an add, the lanes summed left to right, then the scalar
/// tail. GCC vectorises that tail loop as an in-order reduction: its leading multiple of 4
/// elements are squared first and added one by one, the rest go through FMAs (measured on
/// float rows of 5 and 7: every other fused/unfused pattern misses some row; on double rows
/// of 1..39, 4 lanes, whose tails are all FMAs: 0 of 3510 differ, 8 lanes 812).
fn norm2_lastdim<T: Real, const L: usize>(row: &[T]) -> T {
    let size = row.len();
    let full = size - size % L;
    let mut acc = Lanes::<T, L>::splat(T::ZERO);
    let mut d = 0;
    while d < full {
        let v = Lanes::<T, L>::load(&row[d..]);
        acc = acc + v * v;
        d += L;
    }
    let mut b = acc.0[0];
    for l in 1..L {
        b = b + acc.0[l];
    }
    let tail = &row[full..];
    let by4 = tail.len() - tail.len() % 4;
    for &v in &tail[..by4] {
        b = b + v * v;
    }
    for &v in &tail[by4..] {
        b = v.fma(v, b);
    }
    b.sqrt()
}

/// The length of the rows the p=2 vector path reduces, when it applies: one reduced dimension
/// after TensorIterator merges dimensions, contiguous in memory.
fn norm2_vector_rows(view: View<'_>, dims: &[usize]) -> Option<usize> {
    let (_, out_strides) = reduction_output(view.shape, dims);
    let p = reduction_plan(view, &out_strides);
    let nred = p.strides[0]
        .iter()
        .zip(&p.shape)
        .take_while(|(s, _)| **s == 0)
        .count();
    (nred == 1 && p.strides[1][0] == 1).then(|| p.shape[0])
}

/// `torch.linalg.vector_norm(x, 2, dims)` of a float64 view (empty `dims`: all) where the
/// vector path applies (see [`norm2_vector_rows`]; None otherwise, and for reductions over
/// size-1 dimensions, which are |x|).
pub fn vector_norm2_f64(x: &[f64], view: View<'_>, dims: &[usize]) -> Option<Vec<f64>> {
    let ndim = view.shape.len();
    let reduced_all_ones = (0..ndim)
        .filter(|d| dims.is_empty() || dims.contains(d))
        .all(|d| view.shape[d] == 1);
    if reduced_all_ones || view.shape.contains(&0) {
        return None;
    }
    let dim_size = norm2_vector_rows(view, dims)?;
    let out_numel: usize = (0..ndim)
        .filter(|d| !(dims.is_empty() || dims.contains(d)))
        .map(|d| view.shape[d])
        .product();
    let mut out = vec![0f64; out_numel];
    for_each_output(view, dims, |o, idx| {
        let start = idx.next().unwrap_or(0);
        out[o] = norm2_lastdim::<f64, NORM_LANES_F64>(&x[start..start + dim_size]);
    });
    Some(out)
}

/// `torch.linalg.vector_norm(x, ord, dims)` of a float32 view (empty `dims`: all).
pub fn vector_norm_f32(x: &[f32], view: View<'_>, dims: &[usize], ord: NormOrd) -> Vec<f32> {
    let ndim = view.shape.len();
    let reduced_all_ones = (0..ndim)
        .filter(|d| dims.is_empty() || dims.contains(d))
        .all(|d| view.shape[d] == 1);
    if reduced_all_ones && ndim > 0 {
        // A reduction over size-1 dimensions is |x| (or x != 0 for ord 0).
        let mut out = Vec::new();
        for_each_output(view, dims, |_, idx| {
            let v = x[idx.next().unwrap_or(view.offset)];
            out.push(if ord == NormOrd::Zero {
                (v != 0.0) as u8 as f32
            } else {
                v.abs()
            });
        });
        return out;
    }
    let out_numel: usize = (0..ndim)
        .filter(|d| !(dims.is_empty() || dims.contains(d)))
        .map(|d| view.shape[d])
        .product();
    let mut out = vec![0f32; out_numel];
    // The vector path: p = 2, one reduced dimension after merging, contiguous in memory.
    if ord == NormOrd::Two
        && let Some(dim_size) = norm2_vector_rows(view, dims)
    {
        for_each_output(view, dims, |o, idx| {
            let start = idx.next().unwrap_or(0);
            out[o] = norm2_lastdim::<f32, NORM_LANES>(&x[start..start + dim_size]);
        });
        return out;
    }
    for_each_output(view, dims, |o, idx| {
        out[o] = match ord {
            NormOrd::Zero => idx.fold(0f32, |a, i| a + (x[i] != 0.0) as u8 as f32),
            NormOrd::One => idx.fold(0f32, |a, i| a + x[i].abs()),
            NormOrd::Two => idx.fold(0f32, |a, i| a + x[i] * x[i]).sqrt(),
            NormOrd::Inf => idx.fold(0f32, |a, i| max_nan(a, x[i].abs())),
            NormOrd::NegInf => idx.fold(f32::INFINITY, |a, i| min_nan(a, x[i].abs())),
            NormOrd::P(p) => idx.fold(0f32, |a, i| a + x[i].abs().powf(p)).powf(1.0 / p),
        };
    });
    out
}

/// `torch.cumsum(x, dim)` (`cumprod` when `product`) of a float32 view, accumulated in double;
/// the result is contiguous in the view's shape.
pub fn cumulative_f32(x: &[f32], view: View<'_>, dim: usize, product: bool) -> Vec<f32> {
    let shape = view.shape;
    let n: usize = shape.iter().product();
    let mut out = vec![0f32; n];
    if n == 0 {
        return out;
    }
    let ostr = contiguous_strides(shape);
    let len = shape[dim];
    // every line along `dim`
    let lines = n / len;
    let other: Vec<usize> = (0..shape.len()).filter(|&d| d != dim).collect();
    for l in 0..lines {
        let (mut rem, mut in_off, mut out_off) = (l, view.offset, 0usize);
        for &d in other.iter().rev() {
            let i = rem % shape[d];
            rem /= shape[d];
            in_off += i * view.strides[d];
            out_off += i * ostr[d];
        }
        let mut acc = if product { 1f64 } else { 0f64 };
        for i in 0..len {
            // polled inside a line too: one line can be 10^8 long (the op returns the stop)
            if i % CHUNK == 0 && should_stop() {
                return out;
            }
            let v = x[in_off + i * view.strides[dim]] as f64;
            if product {
                acc *= v;
            } else {
                acc += v;
            }
            out[out_off + i * ostr[dim]] = acc as f32;
        }
    }
    out
}

/// `torch.logsumexp(x, dims)` (ReduceOps.cpp logsumexp_out_impl): m = amax over `dims` (0 where
/// it is infinite), then `log(sum(exp(x - m))) + m`. Its `exp_` and `log_` are MKL's, so this is
/// within an ulp or two of PyTorch, not bit-exact ([`super::mkl`]).
pub fn logsumexp_f32(x: &[f32], view: View<'_>, dims: &[usize]) -> Vec<f32> {
    let ndim = view.shape.len();
    let out_numel: usize = (0..ndim)
        .filter(|d| !(dims.is_empty() || dims.contains(d)))
        .map(|d| view.shape[d])
        .product();
    let mut out = vec![f32::NEG_INFINITY; out_numel];
    for_each_output(view, dims, |o, idx| {
        let idx: Vec<usize> = idx.collect();
        let mut m = idx.iter().fold(f32::NEG_INFINITY, |a, &i| max_nan(a, x[i]));
        if m.abs() == f32::INFINITY {
            m = 0.0;
        }
        let e: Vec<f32> = idx.iter().map(|&i| super::mkl::exp(x[i] - m)).collect();
        let s = super::sum::sum_f32(&e);
        out[o] = super::mkl::log(s) + m;
    });
    out
}
