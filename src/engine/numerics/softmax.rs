//! `softmax` / `log_softmax` along a dimension (SoftMaxKernel.cpp, LogSoftmaxKernelImpl.h),
//! forward for float32 and float64, backward for float32.
//!
//! The input is contiguous (ATen's `softmax_cpu` calls `.contiguous()` first) and seen as
//! `outer x dim x inner`. Along the last dimension (`inner == 1`) each row is reduced with
//! `vec::reduce_all` / `map_reduce_all`; along another dimension the kernels keep one running
//! max and sum per inner position, a vector of them at a time, with a scalar tail. The float
//! kernels run `Vectorized<float>` (16 lanes, SLEEF's float exp/log), the double ones
//! `Vectorized<double>` (8 lanes, SLEEF's double exp/log, [`sleef_f64`]); the same code is
//! written once over [`SoftmaxFloat`].

use super::fast::avx2_fma;
use super::lanes::{Lanes, Real};
use super::sleef;
use super::sleef_f64;
use super::vecops::{dot_reduce_all, maximum, maximum_f64, reduce_all, reduce_all_folded};
use crate::engine::hostbuf::try_with_capacity;
use crate::engine::parallel::{GRAIN_SIZE, parallel_rows_mut};
use std::mem::MaybeUninit;

/// Lanes of the softmax kernels' `Vectorized<float>` (measured: see mod.rs).
const N: usize = 16;
/// Lanes of `Vectorized<double>` in the same AVX-512 build.
const N64: usize = 8;

/// What the softmax kernels need of their element type beyond [`Real`]: the vector exp and
/// log ATen's `Vectorized<T>` calls, the scalar tail's libm exp, and `vec::maximum`.
pub(crate) trait SoftmaxFloat: Real {
    /// `Vectorized<T>::exp()` for one lane.
    fn vexp(self) -> Self;
    /// `Vectorized<T>::log()` for one lane.
    fn vlog(self) -> Self;
    /// `std::exp` (glibc), the scalar tails' exp.
    fn libm_exp(self) -> Self;
    /// `vec::maximum` (NaN-propagating).
    fn vmax(self, other: Self) -> Self;
    /// `std::max`-like scalar max of the tails (NaN-ignoring, as the float kernel measured).
    fn smax(self, other: Self) -> Self;
    /// Whether `vec_reduce_all` has a SIMD shuffle tree for this type (float); double folds
    /// the lanes left to right (measured: with the tree, double rows of 8 or more differ by
    /// 1-2 ulp).
    const TREE: bool;
    /// A row's maximum as `vec::reduce_all(x, vec::maximum)` gives it.
    #[inline(always)]
    fn row_max<const L: usize>(data: &[Self]) -> Self {
        Self::reduce::<L>(data, Self::vmax)
    }
    /// `vec::reduce_all` as this type's build runs it.
    #[inline(always)]
    fn reduce<const L: usize>(data: &[Self], red: impl Fn(Self, Self) -> Self + Copy) -> Self {
        if Self::TREE {
            reduce_all::<Self, L>(data, red)
        } else {
            reduce_all_folded::<Self, L>(data, red)
        }
    }
}

impl SoftmaxFloat for f32 {
    const TREE: bool = true;
    #[inline(always)]
    fn vexp(self) -> f32 {
        sleef::expf_u10(self)
    }
    #[inline(always)]
    fn vlog(self) -> f32 {
        sleef::logf_u10_avx512(self)
    }
    #[inline(always)]
    fn libm_exp(self) -> f32 {
        self.exp()
    }
    #[inline(always)]
    fn vmax(self, other: f32) -> f32 {
        maximum(self, other)
    }
    #[inline(always)]
    fn smax(self, other: f32) -> f32 {
        self.max(other)
    }
    /// Four vectors of running maxima instead of one, so the loop is not one chain of
    /// dependent `vec::maximum`s. A maximum does not depend on the order its elements are
    /// taken in (any NaN gives the one all-ones NaN), except for the sign of a zero maximum:
    /// a zero result is recomputed in `reduce_all`'s order.
    #[inline(always)]
    fn row_max<const L: usize>(data: &[f32]) -> f32 {
        const W: usize = 64;
        if data.len() >= W {
            let mut acc = [f32::NEG_INFINITY; W];
            let mut chunks = data.chunks_exact(W);
            for c in &mut chunks {
                for (a, &v) in acc.iter_mut().zip(c) {
                    *a = maximum(*a, v);
                }
            }
            let m = chunks
                .remainder()
                .iter()
                .chain(&acc)
                .fold(f32::NEG_INFINITY, |m, &v| maximum(m, v));
            if m != 0.0 {
                return m;
            }
        }
        reduce_all::<f32, L>(data, maximum)
    }
}

impl SoftmaxFloat for f64 {
    const TREE: bool = false;
    #[inline(always)]
    fn vexp(self) -> f64 {
        sleef_f64::exp_u10(self)
    }
    #[inline(always)]
    fn vlog(self) -> f64 {
        sleef_f64::log_u10(self)
    }
    #[inline(always)]
    fn libm_exp(self) -> f64 {
        self.exp()
    }
    #[inline(always)]
    fn vmax(self, other: f64) -> f64 {
        maximum_f64(self, other)
    }
    #[inline(always)]
    fn smax(self, other: f64) -> f64 {
        self.max(other)
    }
}

/// Runs `kernel(first, out_run, slices)` over runs of whole outer slices (`dim x inner`
/// elements each) of `out`, split over the intra-op threads when there are more than
/// [`GRAIN_SIZE`] elements (ATen's softmax kernels `parallel_for` over the outer positions).
/// `first` is the run's first element; every slice is computed by one thread in the one-thread
/// order, so the bits do not depend on the thread count. The kernels write every element of
/// their run and only initialised values, so `out` may be fresh, uninitialised memory: an
/// output zeroed first cost a single-threaded memset of the whole tensor per call (15 % of a
/// 4096x1024 softmax at one thread, and the part a second thread could not share).
fn by_outer_slices<T: Send>(
    out: &mut [MaybeUninit<T>],
    outer: usize,
    slice: usize,
    kernel: impl Fn(usize, &mut [MaybeUninit<T>], usize) + Sync,
) {
    if slice == 0 {
        return;
    }
    let len = (outer * slice).min(out.len());
    parallel_rows_mut(&mut out[..len], slice, GRAIN_SIZE, |first_slice, run| {
        kernel(first_slice * slice, run, run.len() / slice)
    });
}

/// `out` seen as possibly uninitialised slots, for the kernels that write into fresh outputs.
fn as_uninit<T>(out: &mut [T]) -> &mut [MaybeUninit<T>] {
    // SAFETY: MaybeUninit<T> has T's size, alignment and layout, so the slice has the same
    // extent. Through it the kernels only ever write initialised values (`MaybeUninit::write`
    // of a computed float), never uninitialised ones, so `out` stays valid as `[T]`.
    unsafe { &mut *(out as *mut [T] as *mut [MaybeUninit<T>]) }
}

/// A new `len`-element vector that `fill` writes, without zeroing it first; None when the
/// system refuses the memory.
///
/// # Safety
/// `fill` must write every one of the `len` slots it is given.
unsafe fn written<T>(len: usize, fill: impl FnOnce(&mut [MaybeUninit<T>])) -> Option<Vec<T>> {
    let mut v = try_with_capacity::<T>(len)?;
    fill(&mut v.spare_capacity_mut()[..len]);
    // SAFETY: the capacity is at least `len` (try_with_capacity), and the caller's `fill` wrote
    // every one of the first `len` slots.
    unsafe { v.set_len(len) };
    Some(v)
}

/// `torch.softmax(x, dim)` of a contiguous float32 buffer seen as `outer x dim x inner`.
pub fn softmax_f32(x: &[f32], out: &mut [f32], outer: usize, dim: usize, inner: usize) {
    softmax_f32_into(x, as_uninit(out), outer, dim, inner)
}

fn softmax_f32_into(
    x: &[f32],
    out: &mut [MaybeUninit<f32>],
    outer: usize,
    dim: usize,
    inner: usize,
) {
    by_outer_slices(out, outer, dim * inner, |at, o, n| {
        softmax_f32_slices(&x[at..at + o.len()], o, n, dim, inner)
    });
}

/// `torch.softmax(x, dim)` of a contiguous float64 buffer seen as `outer x dim x inner`.
pub fn softmax_f64(x: &[f64], out: &mut [f64], outer: usize, dim: usize, inner: usize) {
    softmax_f64_into(x, as_uninit(out), outer, dim, inner)
}

fn softmax_f64_into(
    x: &[f64],
    out: &mut [MaybeUninit<f64>],
    outer: usize,
    dim: usize,
    inner: usize,
) {
    by_outer_slices(out, outer, dim * inner, |at, o, n| {
        softmax_f64_slices(&x[at..at + o.len()], o, n, dim, inner)
    });
}

/// `torch.log_softmax(x, dim)` of a contiguous float32 buffer seen as `outer x dim x inner`.
pub fn log_softmax_f32(x: &[f32], out: &mut [f32], outer: usize, dim: usize, inner: usize) {
    log_softmax_f32_into(x, as_uninit(out), outer, dim, inner)
}

fn log_softmax_f32_into(
    x: &[f32],
    out: &mut [MaybeUninit<f32>],
    outer: usize,
    dim: usize,
    inner: usize,
) {
    by_outer_slices(out, outer, dim * inner, |at, o, n| {
        log_softmax_f32_slices(&x[at..at + o.len()], o, n, dim, inner)
    });
}

/// `torch.log_softmax(x, dim)` of a contiguous float64 buffer seen as `outer x dim x inner`.
pub fn log_softmax_f64(x: &[f64], out: &mut [f64], outer: usize, dim: usize, inner: usize) {
    log_softmax_f64_into(x, as_uninit(out), outer, dim, inner)
}

fn log_softmax_f64_into(
    x: &[f64],
    out: &mut [MaybeUninit<f64>],
    outer: usize,
    dim: usize,
    inner: usize,
) {
    by_outer_slices(out, outer, dim * inner, |at, o, n| {
        log_softmax_f64_slices(&x[at..at + o.len()], o, n, dim, inner)
    });
}

/// softmax's backward, grad_input = (grad - sum(grad * out)) * out, over `outer x dim x inner`.
pub fn softmax_backward_f32(
    grad: &[f32],
    out: &[f32],
    gi: &mut [f32],
    outer: usize,
    dim: usize,
    inner: usize,
) {
    softmax_backward_f32_into(grad, out, as_uninit(gi), outer, dim, inner)
}

fn softmax_backward_f32_into(
    grad: &[f32],
    out: &[f32],
    gi: &mut [MaybeUninit<f32>],
    outer: usize,
    dim: usize,
    inner: usize,
) {
    by_outer_slices(gi, outer, dim * inner, |at, g, n| {
        let r = at..at + g.len();
        softmax_backward_f32_slices(&grad[r.clone()], &out[r], g, n, dim, inner)
    });
}

/// log_softmax's backward, grad_input = grad - exp(out) * sum(grad), over `outer x dim x inner`.
pub fn log_softmax_backward_f32(
    grad: &[f32],
    out: &[f32],
    gi: &mut [f32],
    outer: usize,
    dim: usize,
    inner: usize,
) {
    log_softmax_backward_f32_into(grad, out, as_uninit(gi), outer, dim, inner)
}

fn log_softmax_backward_f32_into(
    grad: &[f32],
    out: &[f32],
    gi: &mut [MaybeUninit<f32>],
    outer: usize,
    dim: usize,
    inner: usize,
) {
    by_outer_slices(gi, outer, dim * inner, |at, g, n| {
        let r = at..at + g.len();
        log_softmax_backward_f32_slices(&grad[r.clone()], &out[r], g, n, dim, inner)
    });
}

/// A new `len`-element vector that `kernel` fills over `outer` whole slices of `dim * inner`
/// elements, not zeroed first; zeros when that shape does not describe `len` elements (the
/// callers never pass one). None when the system refuses the memory.
fn new_from_slices<T: Real>(
    len: usize,
    outer: usize,
    dim: usize,
    inner: usize,
    kernel: impl FnOnce(&mut [MaybeUninit<T>]),
) -> Option<Vec<T>> {
    // SAFETY: the kernels (through by_outer_slices) write every element of whole outer slices,
    // and outer * dim * inner elements is then the whole buffer; otherwise fill_zeros writes
    // every element.
    unsafe {
        written(len, |out| {
            if outer * dim * inner != out.len() {
                fill_zeros(out)
            } else {
                kernel(out)
            }
        })
    }
}

/// [`softmax_f32`] (or [`log_softmax_f32`] when `log`) into a new vector, not zeroed first;
/// None when the system refuses the memory.
pub(crate) fn softmax_f32_new(
    x: &[f32],
    outer: usize,
    dim: usize,
    inner: usize,
    log: bool,
) -> Option<Vec<f32>> {
    new_from_slices(x.len(), outer, dim, inner, |out| {
        if log {
            log_softmax_f32_into(x, out, outer, dim, inner)
        } else {
            softmax_f32_into(x, out, outer, dim, inner)
        }
    })
}

/// [`softmax_f64`] (or [`log_softmax_f64`] when `log`) into a new vector, not zeroed first.
pub(crate) fn softmax_f64_new(
    x: &[f64],
    outer: usize,
    dim: usize,
    inner: usize,
    log: bool,
) -> Option<Vec<f64>> {
    new_from_slices(x.len(), outer, dim, inner, |out| {
        if log {
            log_softmax_f64_into(x, out, outer, dim, inner)
        } else {
            softmax_f64_into(x, out, outer, dim, inner)
        }
    })
}

/// [`softmax_backward_f32`] (or [`log_softmax_backward_f32`] when `log`) into a new vector,
/// not zeroed first.
pub(crate) fn softmax_backward_f32_new(
    grad: &[f32],
    out: &[f32],
    outer: usize,
    dim: usize,
    inner: usize,
    log: bool,
) -> Option<Vec<f32>> {
    new_from_slices(grad.len(), outer, dim, inner, |gi| {
        if out.len() != gi.len() {
            fill_zeros(gi)
        } else if log {
            log_softmax_backward_f32_into(grad, out, gi, outer, dim, inner)
        } else {
            softmax_backward_f32_into(grad, out, gi, outer, dim, inner)
        }
    })
}

/// Zeros in every slot (a shape that does not describe the buffer, which the callers never
/// pass: the output is then defined rather than left unwritten).
fn fill_zeros<T: Real>(out: &mut [MaybeUninit<T>]) {
    for o in out.iter_mut() {
        o.write(T::ZERO);
    }
}

/// `out` after every element was written, as initialised values: zeros first, for the
/// kernels that read their output back before they have written all of it.
#[inline(always)]
fn zeroed<T: Real>(out: &mut [MaybeUninit<T>]) -> &mut [T] {
    fill_zeros(out);
    // SAFETY: fill_zeros wrote every element just above.
    unsafe { &mut *(out as *mut [MaybeUninit<T>] as *mut [T]) }
}

/// Writes `f(x[i])` into `out[i]` for every i of the shorter slice, and returns those slots
/// as initialised values.
#[inline(always)]
fn write_map<'a, T: Copy>(
    out: &'a mut [MaybeUninit<T>],
    x: &[T],
    f: impl Fn(T) -> T,
) -> &'a mut [T] {
    let n = out.len().min(x.len());
    let out = &mut out[..n];
    for (o, &v) in out.iter_mut().zip(x) {
        o.write(f(v));
    }
    // SAFETY: the loop above wrote each of the n slots (both slices are at least n long).
    unsafe { &mut *(out as *mut [MaybeUninit<T>] as *mut [T]) }
}

/// `exp` inside the float softmax kernels.
#[inline(always)]
fn vexp(x: f32) -> f32 {
    sleef::expf_u10(x)
}

/// `_vec_softmax_lastdim` for one row.
#[inline(always)]
fn softmax_row<T: SoftmaxFloat, const L: usize>(x: &[T], out: &mut [MaybeUninit<T>]) {
    let max = T::row_max::<L>(x);
    let out = write_map(out, x, |v| (v - max).vexp());
    let sum = T::reduce::<L>(out, |a, b| a + b);
    let r = T::ONE / sum;
    for o in out.iter_mut() {
        *o = *o * r;
    }
}

/// `_vec_log_softmax_lastdim` for one row (serial_vec_log_softmax_lastdim_range).
#[inline(always)]
fn log_softmax_row<T: SoftmaxFloat, const L: usize>(x: &[T], out: &mut [MaybeUninit<T>]) {
    let max = T::row_max::<L>(x);
    // map_reduce_all(exp(v - max), +), with the exps first written into `out` by a plain loop:
    // the same lanes summed in the same order, but LLVM vectorises this loop, not 16 inlined
    // copies of exp inside one Lanes::map.
    let out = write_map(out, x, |v| (v - max).vexp());
    let sum = T::reduce::<L>(out, |a, b| a + b);
    let lse = sum.vlog();
    for (o, &v) in out.iter_mut().zip(x) {
        *o = v - max - lse;
    }
}

avx2_fma! {
    /// [`softmax_f32`] of `outer` whole slices, on this thread.
    fn softmax_f32_slices(x: &[f32], out: &mut [MaybeUninit<f32>], outer: usize, dim: usize, inner: usize) {
        softmax_impl::<f32, N>(x, out, outer, dim, inner)
    }
}

avx2_fma! {
    /// [`softmax_f64`] of `outer` whole slices, on this thread.
    fn softmax_f64_slices(x: &[f64], out: &mut [MaybeUninit<f64>], outer: usize, dim: usize, inner: usize) {
        softmax_impl::<f64, N64>(x, out, outer, dim, inner)
    }
}

#[inline(always)]
fn softmax_impl<T: SoftmaxFloat, const L: usize>(
    x: &[T],
    out: &mut [MaybeUninit<T>],
    outer: usize,
    dim: usize,
    inner: usize,
) {
    if inner == 1 {
        for (xr, or) in x
            .chunks_exact(dim.max(1))
            .zip(out.chunks_exact_mut(dim.max(1)))
            .take(outer)
        {
            softmax_row::<T, L>(xr, or);
        }
    } else {
        softmax_inner::<T, L>(x, zeroed(out), outer, dim, inner);
    }
}

avx2_fma! {
    /// [`log_softmax_f32`] of `outer` whole slices, on this thread.
    fn log_softmax_f32_slices(x: &[f32], out: &mut [MaybeUninit<f32>], outer: usize, dim: usize, inner: usize) {
        log_softmax_impl::<f32, N>(x, out, outer, dim, inner)
    }
}

avx2_fma! {
    /// [`log_softmax_f64`] of `outer` whole slices, on this thread.
    fn log_softmax_f64_slices(x: &[f64], out: &mut [MaybeUninit<f64>], outer: usize, dim: usize, inner: usize) {
        log_softmax_impl::<f64, N64>(x, out, outer, dim, inner)
    }
}

#[inline(always)]
fn log_softmax_impl<T: SoftmaxFloat, const L: usize>(
    x: &[T],
    out: &mut [MaybeUninit<T>],
    outer: usize,
    dim: usize,
    inner: usize,
) {
    if inner == 1 {
        for (xr, or) in x
            .chunks_exact(dim.max(1))
            .zip(out.chunks_exact_mut(dim.max(1)))
            .take(outer)
        {
            log_softmax_row::<T, L>(xr, or);
        }
    } else {
        log_softmax_inner::<T, L>(x, zeroed(out), outer, dim, inner);
    }
}

/// `_vec_softmax` (softmax along a dimension that is not the last): vectors of L inner
/// positions, then the scalar tail of each outer slice.
#[inline(always)]
fn softmax_inner<T: SoftmaxFloat, const L: usize>(
    x: &[T],
    out: &mut [T],
    outer: usize,
    dim: usize,
    inner: usize,
) {
    let total = outer * inner;
    let mut idx = 0usize;
    while idx < total {
        let outer_idx = idx / inner;
        let inner_idx = idx % inner;
        let base = outer_idx * dim * inner + inner_idx;
        if inner_idx + L <= inner && idx + L <= total {
            let at = |d: usize| base + d * inner;
            let mut mx = Lanes::<T, L>::load(&x[at(0)..]);
            for d in 1..dim {
                mx = mx.zip(Lanes::load(&x[at(d)..]), T::vmax);
            }
            let mut sum = Lanes::<T, L>::splat(T::ZERO);
            for d in 0..dim {
                let e = (Lanes::<T, L>::load(&x[at(d)..]) - mx).map(T::vexp);
                e.store(&mut out[at(d)..]);
                sum = sum + e;
            }
            for d in 0..dim {
                let o = Lanes::<T, L>::load(&out[at(d)..]) / sum;
                o.store(&mut out[at(d)..]);
            }
            idx += L;
        } else {
            let size = (total - idx).min(inner - inner_idx);
            for j in 0..size {
                let at = |d: usize| base + j + d * inner;
                let mut mx = x[at(0)];
                for d in 1..dim {
                    mx = mx.smax(x[at(d)]);
                }
                let mut sum = T::ZERO;
                for d in 0..dim {
                    let e = (x[at(d)] - mx).libm_exp();
                    out[at(d)] = e;
                    sum = sum + e;
                }
                for d in 0..dim {
                    out[at(d)] = out[at(d)] / sum;
                }
            }
            idx += size;
        }
    }
}

/// `serial_vec_logsoftmax_range` (log_softmax along a dimension that is not the last).
#[inline(always)]
fn log_softmax_inner<T: SoftmaxFloat, const L: usize>(
    x: &[T],
    out: &mut [T],
    outer: usize,
    dim: usize,
    inner: usize,
) {
    // Chunks of the inner dimension, sized to fit 128 KiB per chunk (a multiple of L).
    let max_chunk = ((128 * 1024 / dim.max(1) / std::mem::size_of::<T>()).max(L) / L) * L;
    let chunk = max_chunk.min(inner);
    let num_chunks = inner.div_ceil(chunk);
    let mut mx = vec![T::ZERO; chunk];
    let mut sum = vec![T::ZERO; chunk];
    for i in 0..outer * num_chunks {
        let outer_idx = i / num_chunks;
        let begin = (i % num_chunks) * chunk;
        let size = chunk.min(inner - begin);
        let vsize = size - size % L;
        mx[..size].fill(T::NEG_INFINITY);
        sum[..size].fill(T::ZERO);
        let row = |d: usize| outer_idx * dim * inner + d * inner + begin;
        for d in 0..dim {
            let r = row(d);
            for k in 0..size {
                let v = x[r + k];
                // blendv(max, data, data > max) and its scalar twin.
                if v > mx[k] {
                    mx[k] = v;
                }
            }
        }
        for d in 0..dim {
            let r = row(d);
            for k in 0..vsize {
                sum[k] = sum[k] + (x[r + k] - mx[k]).vexp();
            }
            for k in vsize..size {
                sum[k] = sum[k] + (x[r + k] - mx[k]).libm_exp();
            }
        }
        for s in sum[..size].iter_mut() {
            *s = s.vlog();
        }
        for d in 0..dim {
            let r = row(d);
            for k in 0..size {
                out[r + k] = x[r + k] - mx[k] - sum[k];
            }
        }
    }
}

avx2_fma! {
    /// `_vec_host_softmax_backward_lastdim` for softmax: grad_input = (grad - sum(grad * out)) * out.
    fn softmax_backward_f32_slices(
    grad: &[f32],
    out: &[f32],
    gi: &mut [MaybeUninit<f32>],
    outer: usize,
    dim: usize,
    inner: usize,
) {
    if inner == 1 {
        for r in 0..outer {
            let s = r * dim;
            let (g, o) = (&grad[s..s + dim], &out[s..s + dim]);
            let sum = dot_reduce_all::<N>(g, o);
            for k in 0..dim {
                gi[s + k].write((g[k] - sum) * o[k]);
            }
        }
    } else {
        softmax_backward_inner(grad, out, gi, outer, dim, inner);
    }
}
}

avx2_fma! {
    /// `_vec_host_softmax_backward_lastdim` for log_softmax: grad_input = grad - exp(out) * sum(grad).
    fn log_softmax_backward_f32_slices(
    grad: &[f32],
    out: &[f32],
    gi: &mut [MaybeUninit<f32>],
    outer: usize,
    dim: usize,
    inner: usize,
) {
    if inner == 1 {
        for r in 0..outer {
            let s = r * dim;
            let (g, o) = (&grad[s..s + dim], &out[s..s + dim]);
            let sum = reduce_all::<f32, N>(g, |a, b| a + b);
            for k in 0..dim {
                gi[s + k].write((-vexp(o[k])).mul_add(sum, g[k]));
            }
        }
    } else {
        log_softmax_backward_inner(grad, out, gi, outer, dim, inner);
    }
}
}

#[inline(always)]
fn backward_chunk(dim: usize, inner: usize) -> (usize, usize) {
    let max_chunk = ((128 * 1024 / dim.max(1) / 4).max(N) / N) * N;
    let chunk = max_chunk.min(inner);
    (chunk, inner.div_ceil(chunk))
}

/// `_vec_softmax_backward` (not the last dimension).
#[inline(always)]
fn softmax_backward_inner(
    grad: &[f32],
    out: &[f32],
    gi: &mut [MaybeUninit<f32>],
    outer: usize,
    dim: usize,
    inner: usize,
) {
    let (chunk, num_chunks) = backward_chunk(dim, inner);
    let mut sum = vec![0f32; chunk];
    for i in 0..outer * num_chunks {
        let outer_idx = i / num_chunks;
        let begin = (i % num_chunks) * chunk;
        let size = chunk.min(inner - begin);
        sum[..size].fill(0.0);
        let row = |d: usize| outer_idx * dim * inner + d * inner + begin;
        for d in 0..dim {
            let r = row(d);
            for k in 0..size {
                sum[k] = grad[r + k].mul_add(out[r + k], sum[k]);
            }
        }
        for d in 0..dim {
            let r = row(d);
            for k in 0..size {
                gi[r + k].write(out[r + k] * (grad[r + k] - sum[k]));
            }
        }
    }
}

/// `_vec_log_softmax_backward` (not the last dimension).
#[inline(always)]
fn log_softmax_backward_inner(
    grad: &[f32],
    out: &[f32],
    gi: &mut [MaybeUninit<f32>],
    outer: usize,
    dim: usize,
    inner: usize,
) {
    let (chunk, num_chunks) = backward_chunk(dim, inner);
    let mut sum = vec![0f32; chunk];
    for i in 0..outer * num_chunks {
        let outer_idx = i / num_chunks;
        let begin = (i % num_chunks) * chunk;
        let size = chunk.min(inner - begin);
        let vsize = size - size % N;
        sum[..size].fill(0.0);
        let row = |d: usize| outer_idx * dim * inner + d * inner + begin;
        for d in 0..dim {
            let r = row(d);
            for k in 0..size {
                sum[k] += grad[r + k];
            }
        }
        for d in 0..dim {
            let r = row(d);
            for k in 0..vsize {
                gi[r + k].write((-vexp(out[r + k])).mul_add(sum[k], grad[r + k]));
            }
            for k in vsize..size {
                gi[r + k].write((-out[r + k].exp()).mul_add(sum[k], grad[r + k]));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::test_sequence::Lcg;

    /// Rows of every length from 1 to 299 with random values, and with NaNs, infinities and zeros
    /// of both signs mixed in: the four-accumulator maximum is `reduce_all`'s, bit for bit.
    #[test]
    fn row_max_is_reduce_alls_maximum_bit_for_bit() {
        let mut lcg = Lcg::new(12345);
        let mut r = move || lcg.next_u32();
        let specials = [0.0, -0.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY];
        for len in 1..300 {
            for kind in 0..4 {
                let row: Vec<f32> = (0..len)
                    .map(|_| {
                        let u = r();
                        match kind {
                            1 if u % 7 == 0 => specials[(u as usize / 7) % specials.len()],
                            2 => specials[(u as usize) % 2],
                            3 => -((u >> 8) as f32),
                            _ => (u >> 8) as f32 / (1 << 20) as f32 - 8.0,
                        }
                    })
                    .collect();
                let want = reduce_all::<f32, N>(&row, maximum);
                let got = <f32 as SoftmaxFloat>::row_max::<N>(&row);
                assert_eq!(got.to_bits(), want.to_bits(), "len {len} kind {kind}");
            }
        }
    }
}
