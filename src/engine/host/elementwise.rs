//! Elementwise kernels on host buffers: copy/cast, fill, unary, binary, where, clamp,
//! masked_fill.
//!
//! Each kernel matches on the op and the dtype once, outside its loop, and runs a generic
//! loop whose closure is known at compile time, so contiguous operands go through simple
//! slice loops the compiler vectorises. Strided operands are gathered first (one copy),
//! broadcast scalars stay scalars. Work goes in chunks of [`CHUNK`] elements with an
//! interrupt poll between chunks.

use super::arith::Arith;
use super::math::{Float, Int};
use super::transpose4::transpose4;
use super::{HostStorage, Stored, got, host_dispatch};
use crate::engine::dtype::{DType, Scalar};
use crate::engine::element::{Element, convert};
use crate::engine::error::{EngineError, Result};
use crate::engine::hostbuf::{try_with_capacity, try_zeroed};
use crate::engine::interrupt::{CHUNK, poll, should_stop, take_pending};
use crate::engine::layout::Layout;
use crate::engine::op::Arg;
use crate::engine::op::{BinaryOp, UnaryOp};
use crate::engine::parallel::{GRAIN_SIZE, parallel_rows_mut};
use half::{bf16, f16};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The elements of one operand in the result's logical order.
pub(crate) enum Src<'a, T> {
    /// Contiguous, exactly the result's length.
    Slice(&'a [T]),
    /// Gathered from a strided layout.
    Owned(Vec<T>),
    /// One value for every element (a Python number, a broadcast single element).
    Const(T),
}

impl<T: Copy> Src<'_, T> {
    #[inline(always)]
    fn chunk(&self, r: std::ops::Range<usize>) -> Chunk<'_, T> {
        match self {
            Src::Slice(s) => Chunk::Slice(&s[r]),
            Src::Owned(v) => Chunk::Slice(&v[r]),
            Src::Const(c) => Chunk::Const(*c),
        }
    }
}

enum Chunk<'a, T> {
    Slice(&'a [T]),
    Const(T),
}

pub(crate) fn dtype_error(want: DType, got: DType) -> EngineError {
    EngineError::runtime(format!(
        "internal: a kernel expected {want} values but was given {got}"
    ))
}

/// `h`'s elements as `T`, or the internal dtype error.
pub(crate) fn typed<T: Stored>(h: &HostStorage) -> Result<&[T]> {
    T::slice(h).ok_or_else(|| dtype_error(T::DTYPE, h.dtype()))
}

/// `layout`'s elements in row-major order: borrowed where they already lie so, else copied
/// ([`gather`]).
pub(crate) fn in_order<'a, T: Element>(
    v: &'a [T],
    layout: &Layout,
) -> Result<std::borrow::Cow<'a, [T]>> {
    Ok(match layout.contiguous_range() {
        Some(r) => std::borrow::Cow::Borrowed(&v[r]),
        None => std::borrow::Cow::Owned(gather(v, layout)?),
    })
}

/// The elements of `layout` in logical order (one pass over contiguous runs).
pub(crate) fn gather<T: Element>(v: &[T], layout: &Layout) -> Result<Vec<T>> {
    let n = layout.numel();
    if let Some(r) = layout.contiguous_range() {
        let v = &v[r];
        return filled_in_parallel(n, 1, |start, part| {
            for (o, &x) in part.iter_mut().zip(&v[start..]) {
                o.write(x);
            }
        });
    }
    let mut out = got(try_with_capacity(n), n)?;
    let mut done = 0usize;
    let mut stop = Ok(());
    layout.for_each_run(|start, len, stride| {
        // a run is cut into CHUNK-long pieces: one run can be hundreds of MB, whose first
        // touch (huge pages compacted on a loaded machine) took seconds
        let mut at = 0;
        while at < len && stop.is_ok() {
            let piece = CHUNK.min(len - at);
            let first = start + at * stride;
            if stride == 1 {
                out.extend_from_slice(&v[first..first + piece]);
            } else {
                out.extend((0..piece).map(|i| v[first + i * stride]));
            }
            at += piece;
            done += piece;
            if done >= CHUNK {
                done = 0;
                stop = poll();
            }
        }
    });
    stop.map(|_| out)
}

/// An operand as a [`Src`] of `T` (the front half has cast it to `T`).
pub(crate) fn src<'a, T: Stored>(arg: Arg<'a, HostStorage>) -> Result<Src<'a, T>> {
    Ok(match arg {
        Arg::Scalar(s) => Src::Const(T::from_scalar(s)),
        Arg::Tensor(h, l) => {
            let v = typed::<T>(h)?;
            if l.numel() > 0
                && l.strides
                    .iter()
                    .zip(&l.shape)
                    .all(|(&s, &d)| s == 0 || d == 1)
            {
                Src::Const(v[l.offset])
            } else if let Some(r) = l.contiguous_range() {
                Src::Slice(&v[r])
            } else {
                Src::Owned(gather(v, l)?)
            }
        }
    })
}

/// A fresh vector of `n` elements written by `fill(start, part)`, each part the elements
/// `start..start + part.len()`. The parts are shared out over the intra-op threads above
/// [`GRAIN_SIZE`] elements (TensorIterator's `for_each` splits an elementwise op there), in
/// contiguous ranges that start at multiples of `align` elements; each part is at most
/// [`CHUNK`] elements, with an interrupt poll between parts. Every element is written by one
/// call and depends only on its own inputs, so the thread count never shows in the results.
pub(crate) fn filled_in_parallel<U: Element>(
    n: usize,
    align: usize,
    fill: impl Fn(usize, &mut [std::mem::MaybeUninit<U>]) + Sync,
) -> Result<Vec<U>> {
    let mut out = got(try_with_capacity::<U>(n), n)?;
    let written = AtomicUsize::new(0);
    let align = align.max(1);
    parallel_rows_mut(
        &mut out.spare_capacity_mut()[..n],
        align,
        GRAIN_SIZE,
        |first, range| {
            for (k, part) in range.chunks_mut(CHUNK).enumerate() {
                if should_stop() {
                    return;
                }
                fill(first * align + k * CHUNK, part);
                written.fetch_add(part.len(), Ordering::Relaxed);
            }
        },
    );
    if let Some(stop) = take_pending() {
        return Err(stop);
    }
    if written.into_inner() != n {
        return Err(EngineError::runtime(
            "internal: an elementwise kernel left elements unwritten".to_string(),
        ));
    }
    // SAFETY: the capacity is at least n (reserved above), and all n elements were written:
    // the ranges cover 0..n, each `fill` wrote its whole part (its contract), and the counter
    // shows that no part was skipped.
    unsafe { out.set_len(n) };
    Ok(out)
}

/// `f` of each element of `a`.
pub(crate) fn map<T: Copy + Sync, U: Element>(
    a: &Src<T>,
    n: usize,
    f: impl Fn(T) -> U + Sync,
) -> Result<Vec<U>> {
    filled_in_parallel(n, 1, |start, part| {
        match a.chunk(start..start + part.len()) {
            Chunk::Slice(x) => {
                for (o, &x) in part.iter_mut().zip(x) {
                    o.write(f(x));
                }
            }
            Chunk::Const(c) => {
                let v = f(c);
                for o in part.iter_mut() {
                    o.write(v);
                }
            }
        }
    })
}

/// `f` of each pair of elements of `a` and `b`.
pub(crate) fn zip_map<T: Copy + Sync, U: Element>(
    a: &Src<T>,
    b: &Src<T>,
    n: usize,
    f: impl Fn(T, T) -> U + Sync,
) -> Result<Vec<U>> {
    filled_in_parallel(n, 1, |start, part| {
        let r = start..start + part.len();
        match (a.chunk(r.clone()), b.chunk(r)) {
            (Chunk::Slice(x), Chunk::Slice(y)) => {
                for ((o, &x), &y) in part.iter_mut().zip(x).zip(y) {
                    o.write(f(x, y));
                }
            }
            (Chunk::Slice(x), Chunk::Const(c)) => {
                for (o, &x) in part.iter_mut().zip(x) {
                    o.write(f(x, c));
                }
            }
            (Chunk::Const(c), Chunk::Slice(y)) => {
                for (o, &y) in part.iter_mut().zip(y) {
                    o.write(f(c, y));
                }
            }
            (Chunk::Const(c), Chunk::Const(d)) => {
                let v = f(c, d);
                for o in part.iter_mut() {
                    o.write(v);
                }
            }
        }
    })
}

// ----- copy and cast -----

fn cast_vec<A: Element, B: Stored>(v: &[A], layout: &Layout) -> Result<HostStorage> {
    let n = layout.numel();
    let a = if let Some(r) = layout.contiguous_range() {
        Src::Slice(&v[r])
    } else {
        Src::Owned(gather(v, layout)?)
    };
    Ok(B::wrap(map(&a, n, convert::<A, B>)?))
}

fn cast_from<A: Stored>(v: &[A], layout: &Layout, dtype: DType) -> Result<HostStorage> {
    match dtype {
        DType::Bool => cast_vec::<A, bool>(v, layout),
        DType::UInt8 => cast_vec::<A, u8>(v, layout),
        DType::Int8 => cast_vec::<A, i8>(v, layout),
        DType::Int16 => cast_vec::<A, i16>(v, layout),
        DType::Int32 => cast_vec::<A, i32>(v, layout),
        DType::Int64 => cast_vec::<A, i64>(v, layout),
        DType::Float16 => cast_vec::<A, f16>(v, layout),
        DType::BFloat16 => cast_vec::<A, bf16>(v, layout),
        DType::Float32 => cast_vec::<A, f32>(v, layout),
        DType::Float64 => cast_vec::<A, f64>(v, layout),
    }
}

/// A contiguous copy of `layout`'s elements converted to `dtype`.
pub(crate) fn to_dtype(h: &HostStorage, layout: &Layout, dtype: DType) -> Result<HostStorage> {
    host_dispatch!(h, v => cast_from(v, layout, dtype))
}

fn scatter<T: Element>(dst: &mut [T], layout: &Layout, vals: &[T]) {
    if let Some(r) = layout.contiguous_range() {
        // a copy per thread above the grain, as ATen's copy_ splits
        parallel_rows_mut(&mut dst[r], 1, GRAIN_SIZE, |first, part| {
            part.copy_from_slice(&vals[first..first + part.len()])
        });
        return;
    }
    if let ([rows, cols], [1, s]) = (&layout.shape[..], &layout.strides[..])
        && *s >= *rows
    {
        match (as_f32s_mut(dst), as_f32s(vals)) {
            (Some(dst), Some(vals)) => {
                scatter_transposed_f32(dst, layout.offset, *rows, *cols, *s, vals)
            }
            _ => scatter_transposed(dst, layout.offset, *rows, *cols, *s, vals),
        }
        return;
    }
    let mut k = 0;
    layout.for_each_run(|start, len, stride| {
        for i in 0..len {
            dst[start + i * stride] = vals[k + i];
        }
        k += len;
    });
}

/// Side of the square blocks [`scatter_transposed`] moves at a time: 32 values of 32 rows read
/// and written stay in L1, where the row-by-row walk wrote each value of a long run to another
/// cache line (the gradient of `w.t()` in a Linear layer's backward spent 11 % of a small
/// MLP's training step there).
const TRANSPOSE_BLOCK: usize = 32;

/// [`scatter`] into a 2-D layout whose first dimension is the contiguous one and whose columns
/// do not overlap (`s >= rows`): `dst[start + i + j * s] = vals[i * cols + j]`, in square
/// blocks. Every element is written once, so the order does not change the result.
fn scatter_transposed<T: Element>(
    dst: &mut [T],
    start: usize,
    rows: usize,
    cols: usize,
    s: usize,
    vals: &[T],
) {
    for i0 in (0..rows).step_by(TRANSPOSE_BLOCK) {
        let i1 = (i0 + TRANSPOSE_BLOCK).min(rows);
        for j0 in (0..cols).step_by(TRANSPOSE_BLOCK) {
            for j in j0..(j0 + TRANSPOSE_BLOCK).min(cols) {
                let column = &mut dst[start + j * s + i0..start + j * s + i1];
                for (i, d) in (i0..i1).zip(column) {
                    *d = vals[i * cols + j];
                }
            }
        }
    }
}

/// [`scatter_transposed`] for float32, four squares of 4 x 4 values at a time through vector
/// registers ([`transpose4`]): a value at a time took about 2 cycles a value, 11 % of a small
/// MLP's training step (the gradient of `w.t()` written back into `w`'s layout). Above
/// [`GRAIN_SIZE`] values the columns are split over the intra-op threads, as ATen's copy_
/// splits: on two threads the copy was the largest serial part of a batch-256 MLP step.
fn scatter_transposed_f32(
    dst: &mut [f32],
    start: usize,
    rows: usize,
    cols: usize,
    s: usize,
    vals: &[f32],
) {
    if rows == 0 || cols == 0 {
        return;
    }
    // dst's stretch holding column j of `vals` starts at start + j * s; the last is `rows` long
    let end = start + (cols - 1) * s + rows;
    let grain = GRAIN_SIZE.saturating_mul(s) / rows;
    parallel_rows_mut(&mut dst[start..end], s, grain, |first, part| {
        let last = (first + part.len().div_ceil(s)).min(cols);
        transposed_columns_f32(part, rows, cols, s, vals, first..last);
    });
}

/// Columns `js` of the `rows` x `cols` float32 `vals`, each written as a run of `dst` (column
/// `js.start` at 0, the next `s` further on).
fn transposed_columns_f32(
    dst: &mut [f32],
    rows: usize,
    cols: usize,
    s: usize,
    vals: &[f32],
    js: std::ops::Range<usize>,
) {
    let base = js.start;
    for i0 in (0..rows).step_by(TRANSPOSE_BLOCK) {
        let i1 = (i0 + TRANSPOSE_BLOCK).min(rows);
        for j0 in js.clone().step_by(TRANSPOSE_BLOCK) {
            let j1 = (j0 + TRANSPOSE_BLOCK).min(js.end);
            let (i4, j4) = (i0 + (i1 - i0) / 4 * 4, j0 + (j1 - j0) / 4 * 4);
            for i in (i0..i4).step_by(4) {
                for j in (j0..j4).step_by(4) {
                    let row = |r: usize| &vals[(i + r) * cols + j..(i + r) * cols + j + 4];
                    let square = transpose4(row(0), row(1), row(2), row(3));
                    for (q, column) in square.iter().enumerate() {
                        let at = (j + q - base) * s + i;
                        dst[at..at + 4].copy_from_slice(column);
                    }
                }
            }
            // the edges of a block whose sides are not multiples of 4
            for j in j0..j1 {
                let from = if j < j4 { i4 } else { i0 };
                for i in from..i1 {
                    dst[(j - base) * s + i] = vals[i * cols + j];
                }
            }
        }
    }
}

/// `v` as float32 values when `T` is f32 (a kernel written for float32 only).
fn as_f32s<T: 'static>(v: &[T]) -> Option<&[f32]> {
    (std::any::TypeId::of::<T>() == std::any::TypeId::of::<f32>()).then(|| {
        // SAFETY: T is f32 (same TypeId), so the slice's memory is `len` valid f32 values.
        unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<f32>(), v.len()) }
    })
}

/// [`as_f32s`] for a mutable slice.
fn as_f32s_mut<T: 'static>(v: &mut [T]) -> Option<&mut [f32]> {
    (std::any::TypeId::of::<T>() == std::any::TypeId::of::<f32>()).then(|| {
        // SAFETY: T is f32 (same TypeId), so the slice's memory is `len` valid f32 values,
        // borrowed mutably and exclusively through `v` for the returned lifetime.
        unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<f32>(), v.len()) }
    })
}

fn copy_typed<B: Stored>(dst: &mut [B], dl: &Layout, src: &HostStorage, sl: &Layout) -> Result<()> {
    if let (Some(v), Some(r)) = (B::slice(src), sl.contiguous_range()) {
        // already in dst's dtype and in order: read it where it is, without a copy
        scatter(dst, dl, &v[r]);
        return Ok(());
    }
    let vals = to_dtype(src, sl, B::DTYPE)?;
    scatter(dst, dl, typed::<B>(&vals)?);
    Ok(())
}

/// Write `src` (through `src_layout`, of `dst_layout`'s shape) into `dst` at `dst_layout`,
/// converted to `dst`'s dtype. The source is read completely before anything is written, so
/// overlapping source and destination (`x[1:] = x[:-1]`) behave as a copy.
pub(crate) fn copy_into(
    dst: &mut HostStorage,
    dst_layout: &Layout,
    src: &HostStorage,
    src_layout: &Layout,
) -> Result<()> {
    host_dispatch!(dst, d => copy_typed(d, dst_layout, src, src_layout))
}

fn fill_typed<T: Element>(dst: &mut [T], layout: &Layout, value: T) {
    if let Some(r) = layout.contiguous_range() {
        // a fill per thread above the grain, as ATen's fill_ splits
        parallel_rows_mut(&mut dst[r], 1, GRAIN_SIZE, |_, part| part.fill(value));
        return;
    }
    layout.for_each_run(|start, len, stride| {
        for i in 0..len {
            dst[start + i * stride] = value;
        }
    });
}

/// Set every element of `layout` to `value`.
pub(crate) fn fill(h: &mut HostStorage, layout: &Layout, value: Scalar) {
    host_dispatch!(h, v => fill_typed(v, layout, Element::from_scalar(value)))
}

// ----- unary -----

fn unary_float<T: Float + Stored>(op: UnaryOp, a: &Src<T>, n: usize) -> Result<HostStorage> {
    use UnaryOp::*;
    let w = |v: Result<Vec<T>>| v.map(T::wrap);
    match op {
        Neg => w(map(a, n, Float::neg)),
        Abs => w(map(a, n, Float::abs)),
        Exp => w(map(a, n, Float::exp)),
        Log => w(map(a, n, Float::ln)),
        Sqrt => w(map(a, n, Float::sqrt)),
        Sigmoid => w(map(a, n, Float::sigmoid)),
        Tanh => w(map(a, n, Float::tanh)),
        Relu => w(map(a, n, Float::relu)),
        Sin => w(map(a, n, Float::sin)),
        Cos => w(map(a, n, Float::cos)),
        Floor => w(map(a, n, Float::floor)),
        Ceil => w(map(a, n, Float::ceil)),
        Round => w(map(a, n, Float::round)),
        Sign => w(map(a, n, Float::sign)),
        Reciprocal => w(map(a, n, Float::recip)),
        LogicalNot => Ok(bool::wrap(map(a, n, |x: T| x.is_zero())?)),
        IsNan => Ok(bool::wrap(map(a, n, |x: T| Arith::is_nan(x))?)),
        IsFinite => Ok(bool::wrap(map(a, n, |x: T| Float::is_finite(x))?)),
        BitNot => Err(EngineError::runtime(format!(
            "\"bitwise_not_cpu\" not implemented for '{}'",
            T::DTYPE.scalar_name()
        ))),
        _ => {
            if T::DTYPE == DType::Float64 {
                w(map(a, n, |x: T| T::from_f64(op.f64(x.to_f64()))))
            } else {
                // float32, and float16/bfloat16 computed in float32 as ATen loads them
                w(map(a, n, |x: T| T::from_f32(op.f32(x.to_f32()))))
            }
        }
    }
}

fn unary_int<T: Int + Stored>(op: UnaryOp, a: &Src<T>, n: usize) -> Result<HostStorage> {
    use UnaryOp::*;
    let w = |v: Result<Vec<T>>| v.map(T::wrap);
    match op {
        Neg => w(map(a, n, Int::neg)),
        Abs => w(map(a, n, Int::abs)),
        Sign => w(map(a, n, Int::sign)),
        Relu => w(map(a, n, |x: T| Ord::max(x, T::ZERO))),
        BitNot => w(map(a, n, Int::not)),
        Floor | Ceil | Round | Trunc => w(map(a, n, |x: T| x)),
        LogicalNot => Ok(bool::wrap(map(a, n, |x: T| x.is_zero())?)),
        IsNan => Ok(bool::wrap(map(a, n, |_: T| false)?)),
        IsFinite => Ok(bool::wrap(map(a, n, |_: T| true)?)),
        _ => Err(EngineError::runtime(format!(
            "internal: {} on integers reaches the kernel uncast",
            op.name()
        ))),
    }
}

fn unary_bool(op: UnaryOp, a: &Src<bool>, n: usize) -> Result<HostStorage> {
    use UnaryOp::*;
    Ok(bool::wrap(match op {
        LogicalNot | BitNot => map(a, n, |x: bool| !x)?,
        IsNan => map(a, n, |_: bool| false)?,
        IsFinite => map(a, n, |_: bool| true)?,
        Abs | Relu | Sign | Floor | Ceil | Round | Trunc => map(a, n, |x: bool| x)?,
        _ => {
            return Err(EngineError::runtime(format!(
                "internal: {} on bool reaches the kernel uncast",
                op.name()
            )));
        }
    }))
}

/// `op` on each element of `layout` (of `h`'s dtype; the result dtype follows the op).
pub(crate) fn unary(h: &HostStorage, layout: &Layout, op: UnaryOp) -> Result<HostStorage> {
    let n = layout.numel();
    if let HostStorage::F32(x) = h {
        // float32 functions whose SLEEF/glibc split engine::numerics reproduces bit for bit
        // (and MKL's, through its stand-ins)
        let exact = op.vector_f32();
        if op == UnaryOp::LogSigmoid {
            // log_sigmoid_cpu_kernel: every element through the vector formula
            let v = gather(x, layout)?;
            let mut out = super::got(try_with_capacity::<f32>(n), n)?;
            for c in v.chunks(CHUNK) {
                out.extend(crate::engine::numerics::loss::log_sigmoid_f32(c));
                poll()?;
            }
            return Ok(HostStorage::F32(out));
        }
        if let Some(u) = exact
            && n > 0
            && layout.dims() > 0
        {
            return unary_f32_to_contiguous(u, x, layout, n);
        }
        if let Some(u) = exact
            && n == 1
        {
            // a 0-dim tensor: the scalar half
            return Ok(HostStorage::F32(vec![u.scalar(x[layout.offset])]));
        }
    }
    if let HostStorage::F64(x) = h
        && let Some(u) = vector_f64(op)
        && n > 0
    {
        // float64 functions whose SLEEF/glibc split engine::numerics reproduces bit for bit
        if layout.dims() == 0 {
            // a 0-dim tensor: the scalar half
            return Ok(HostStorage::F64(vec![u.scalar(x[layout.offset])]));
        }
        let mut out = super::got(crate::engine::hostbuf::try_zeroed::<f64>(n), n)?;
        let ost = crate::engine::layout::contiguous_strides(&layout.shape);
        let xv = crate::engine::numerics::View {
            shape: &layout.shape,
            strides: &layout.strides,
            offset: layout.offset,
        };
        let ov = crate::engine::numerics::View::contiguous(&layout.shape, &ost);
        crate::engine::numerics::unary_f64::unary_strided_f64(u, x, xv, &mut out, ov);
        return Ok(HostStorage::F64(out));
    }
    let arg = Arg::Tensor(h, layout);
    match h.dtype() {
        DType::Float32 => unary_float::<f32>(op, &src(arg)?, n),
        DType::Float64 => unary_float::<f64>(op, &src(arg)?, n),
        DType::Float16 => unary_float::<f16>(op, &src(arg)?, n),
        DType::BFloat16 => unary_float::<bf16>(op, &src(arg)?, n),
        DType::Int64 => unary_int::<i64>(op, &src(arg)?, n),
        DType::Int32 => unary_int::<i32>(op, &src(arg)?, n),
        DType::Int16 => unary_int::<i16>(op, &src(arg)?, n),
        DType::Int8 => unary_int::<i8>(op, &src(arg)?, n),
        DType::UInt8 => unary_int::<u8>(op, &src(arg)?, n),
        DType::Bool => unary_bool(op, &src(arg)?, n),
    }
}

/// The float64 ops engine::numerics computes as ATen's double kernels (SLEEF's double
/// functions on the vector half), with their parameters in double.
fn vector_f64(op: UnaryOp) -> Option<crate::engine::numerics::unary_f64::UnaryF64> {
    use crate::engine::numerics::unary_f64::UnaryF64 as U;
    Some(match op {
        UnaryOp::Sigmoid => U::Sigmoid,
        UnaryOp::Log1p => U::Log1p,
        UnaryOp::Expm1 => U::Expm1,
        UnaryOp::Silu => U::Silu,
        UnaryOp::Softplus { beta, threshold } => U::Softplus { beta, threshold },
        UnaryOp::Elu {
            alpha,
            scale,
            input_scale,
        } => U::Elu {
            alpha,
            scale,
            input_scale,
        },
        UnaryOp::Celu { alpha } => U::Elu {
            alpha,
            scale: 1.0,
            input_scale: 1.0 / alpha,
        },
        UnaryOp::Mish => U::Mish,
        UnaryOp::Gelu => U::Gelu,
        UnaryOp::GeluTanh => U::GeluTanh,
        UnaryOp::LogSigmoid => U::LogSigmoid,
        UnaryOp::Sinh => U::Sinh,
        UnaryOp::Cosh => U::Cosh,
        _ => return None,
    })
}

// ----- binary -----

/// `x ** e` for a Python-number exponent, with PyTorch's shortcuts for the common ones
/// (pow_tensor_scalar_optimized_kernel: x*x for 2, sqrt for 0.5, ...), which are exact
/// where a general pow may not be.
fn pow_scalar<T: Float + Stored>(a: &Src<T>, e: f64, n: usize) -> Result<Vec<T>> {
    if e == 2.0 {
        map(a, n, |x: T| x.mul(x))
    } else if e == 3.0 {
        map(a, n, |x: T| x.mul(x).mul(x))
    } else if e == 0.5 {
        map(a, n, Float::sqrt)
    } else if e == -0.5 {
        map(a, n, |x: T| Float::recip(Float::sqrt(x)))
    } else if e == -1.0 {
        map(a, n, Float::recip)
    } else if e == -2.0 {
        map(a, n, |x: T| Float::recip(x.mul(x)))
    } else {
        let e = T::from_f64(e);
        map(a, n, |x: T| x.pow(e))
    }
}

/// A dtype's own `tensor ** python_float` kernel (float32's follows ATen's vectorised pow).
type PowByScalar<T> = fn(&Src<T>, f64, usize) -> Result<Vec<T>>;

fn binary_t<T: Arith + Stored>(
    op: BinaryOp,
    a: Arg<'_, HostStorage>,
    b: Arg<'_, HostStorage>,
    n: usize,
    pow_float: Option<PowByScalar<T>>,
) -> Result<HostStorage> {
    use BinaryOp::*;
    let exponent = match b {
        Arg::Scalar(s) => Some(s.as_f64()),
        _ => None,
    };
    let (x, y) = (src::<T>(a)?, src::<T>(b)?);
    macro_rules! num {
        ($f:expr) => {
            T::wrap(zip_map(&x, &y, n, $f)?)
        };
    }
    macro_rules! cmp {
        ($f:expr) => {
            bool::wrap(zip_map(&x, &y, n, $f)?)
        };
    }
    Ok(match op {
        Add => num!(T::add),
        Sub => num!(T::sub),
        Mul => num!(T::mul),
        Div => num!(T::div),
        FloorDiv => num!(T::floor_div),
        Rem => num!(T::rem),
        Pow => match (pow_float, exponent) {
            (Some(p), Some(e)) => T::wrap(p(&x, e, n)?),
            _ => num!(T::pow),
        },
        Maximum => num!(T::maximum),
        Minimum => num!(T::minimum),
        Fmod => num!(T::fmod),
        TruncDiv => num!(T::trunc_div),
        Atan2 | Hypot => {
            return Err(EngineError::not_implemented(format!(
                "\"{}_cpu\" not implemented for '{}'",
                op.name(),
                T::DTYPE.scalar_name()
            )));
        }
        BitAnd => num!(T::bitand),
        BitOr => num!(T::bitor),
        BitXor => num!(T::bitxor),
        Eq => cmp!(|p: T, q: T| p == q),
        Ne => cmp!(|p: T, q: T| p != q),
        Lt => cmp!(|p: T, q: T| p < q),
        Le => cmp!(|p: T, q: T| p <= q),
        Gt => cmp!(|p: T, q: T| p > q),
        Ge => cmp!(|p: T, q: T| p >= q),
        LogicalAnd => cmp!(|p: T, q: T| !p.is_zero() && !q.is_zero()),
        LogicalOr => cmp!(|p: T, q: T| !p.is_zero() || !q.is_zero()),
        LogicalXor => cmp!(|p: T, q: T| p.is_zero() != q.is_zero()),
    })
}

/// `a op b` in `compute` (both tensor operands are of that dtype).
pub(crate) fn binary(
    op: BinaryOp,
    a: Arg<'_, HostStorage>,
    b: Arg<'_, HostStorage>,
    n: usize,
    compute: DType,
) -> Result<HostStorage> {
    if compute == DType::Float32
        && (op == BinaryOp::Atan2 || (op == BinaryOp::Pow && matches!(b, Arg::Tensor(..))))
        && let Some(r) = vector_binary_f32(op, a, b, n)
    {
        return r;
    }
    if compute == DType::Float32
        && op == BinaryOp::Pow
        && let (Arg::Tensor(HostStorage::F32(x), layout), Arg::Scalar(e)) = (&a, &b)
    {
        return pow_by_number_f32(x, layout, e.as_f64(), n);
    }
    if matches!(op, BinaryOp::Atan2 | BinaryOp::Hypot) {
        // ATen's scalar half (glibc atan2f/hypotf; the AVX2 vector half, on the leading
        // multiple of 16 of a contiguous row, is SLEEF's atan2f8_u10/hypotf8_u05)
        let f32op = move |x: f32, y: f32| {
            if op == BinaryOp::Atan2 {
                x.atan2(y)
            } else {
                x.hypot(y)
            }
        };
        macro_rules! via_f32 {
            ($t:ty) => {{
                let (x, y) = (src::<$t>(a)?, src::<$t>(b)?);
                return Ok(<$t>::wrap(zip_map(&x, &y, n, |p: $t, q: $t| {
                    <$t>::from_f32(f32op(p.to_f32(), q.to_f32()))
                })?));
            }};
        }
        match compute {
            DType::Float32 => via_f32!(f32),
            DType::Float16 => via_f32!(f16),
            DType::BFloat16 => via_f32!(bf16),
            DType::Float64 => {
                let (x, y) = (src::<f64>(a)?, src::<f64>(b)?);
                return Ok(f64::wrap(zip_map(&x, &y, n, |p: f64, q: f64| {
                    if op == BinaryOp::Atan2 {
                        p.atan2(q)
                    } else {
                        p.hypot(q)
                    }
                })?));
            }
            _ => {}
        }
    }
    match compute {
        DType::Float32 => binary_t::<f32>(op, a, b, n, Some(pow_scalar::<f32>)),
        DType::Float64 => binary_t::<f64>(op, a, b, n, Some(pow_scalar::<f64>)),
        DType::Float16 => match reduced_by_scalar::<f16>(op, a, b, n) {
            Some(r) => r,
            None => binary_t::<f16>(op, a, b, n, Some(pow_scalar::<f16>)),
        },
        DType::BFloat16 => match reduced_by_scalar::<bf16>(op, a, b, n) {
            Some(r) => r,
            None => binary_t::<bf16>(op, a, b, n, Some(pow_scalar::<bf16>)),
        },
        DType::Int64 => binary_t::<i64>(op, a, b, n, None),
        DType::Int32 => binary_t::<i32>(op, a, b, n, None),
        DType::Int16 => binary_t::<i16>(op, a, b, n, None),
        DType::Int8 => binary_t::<i8>(op, a, b, n, None),
        DType::UInt8 => binary_t::<u8>(op, a, b, n, None),
        DType::Bool => binary_t::<bool>(op, a, b, n, None),
    }
}

/// float32 atan2, and pow of two tensors, as `cpu_kernel_vec` splits them between SLEEF and
/// glibc (engine::numerics::binary); None when neither operand is a float32 tensor.
fn vector_binary_f32(
    op: BinaryOp,
    a: Arg<'_, HostStorage>,
    b: Arg<'_, HostStorage>,
    n: usize,
) -> Option<Result<HostStorage>> {
    use crate::engine::numerics::binary::{Binary, binary_strided_f32};
    let shape = match (a, b) {
        (Arg::Tensor(_, l), _) | (_, Arg::Tensor(_, l)) => l.shape.clone(),
        _ => return None,
    };
    let zeros = vec![0usize; shape.len()];
    let (av, ast, aoff) = f32_operand(a, &zeros)?;
    let (bv, bst, boff) = f32_operand(b, &zeros)?;
    let bin = if op == BinaryOp::Atan2 {
        Binary::Atan2
    } else {
        Binary::Pow
    };
    Some((|| {
        let mut out = super::got(crate::engine::hostbuf::try_zeroed::<f32>(n), n)?;
        if n > 0 {
            let ost = crate::engine::layout::contiguous_strides(&shape);
            let view = crate::engine::numerics::View::contiguous;
            binary_strided_f32(
                bin,
                &av,
                crate::engine::numerics::View {
                    offset: aoff,
                    ..view(&shape, &ast)
                },
                &bv,
                crate::engine::numerics::View {
                    offset: boff,
                    ..view(&shape, &bst)
                },
                &mut out,
                view(&shape, &ost),
            );
        }
        Ok(HostStorage::F32(out))
    })())
}

/// float32 `tensor ** python_number`: ATen's pow_tensor_scalar_optimized_kernel through
/// cpu_kernel_vec (numerics::unary's PowScalar: its shortcuts for 2, 3, 0.5, -0.5, -1, -2;
/// otherwise SLEEF's powf with the exponent rounded to float on the leading multiple of 32 of
/// each contiguous row, and `std::pow(float, double)` on the rest and on strided rows).
/// Measured on 2.15: `full((40,), 19.260563).pow(1 / 1.5)` gives 7.1853185 at index 0 and
/// 7.185318 at index 39, and 7.185318 everywhere for 20 elements.
fn pow_by_number_f32(x: &[f32], layout: &Layout, e: f64, n: usize) -> Result<HostStorage> {
    use crate::engine::numerics::unary::Unary;
    let u = Unary::PowScalar { exponent: e };
    if n == 0 {
        return Ok(HostStorage::F32(Vec::new()));
    }
    if layout.dims() == 0 {
        return Ok(HostStorage::F32(vec![u.scalar(x[layout.offset])]));
    }
    unary_f32_to_contiguous(u, x, layout, n)
}

/// `u` on every element of the float32 tensor `layout` of `x` (n elements, at least one
/// dimension), in engine::numerics' strided order, into a fresh contiguous tensor.
fn unary_f32_to_contiguous(
    u: crate::engine::numerics::unary::Unary,
    x: &[f32],
    layout: &Layout,
    n: usize,
) -> Result<HostStorage> {
    let mut out = super::got(try_zeroed::<f32>(n), n)?;
    let ost = crate::engine::layout::contiguous_strides(&layout.shape);
    let xv = crate::engine::numerics::View {
        shape: &layout.shape,
        strides: &layout.strides,
        offset: layout.offset,
    };
    let ov = crate::engine::numerics::View::contiguous(&layout.shape, &ost);
    crate::engine::numerics::unary::unary_strided_f32(u, x, xv, &mut out, ov);
    Ok(HostStorage::F32(out))
}

/// A float32 operand as (values, strides, offset); a Python number is a broadcast scalar.
fn f32_operand<'a>(
    x: Arg<'a, HostStorage>,
    zeros: &[usize],
) -> Option<(std::borrow::Cow<'a, [f32]>, Vec<usize>, usize)> {
    match x {
        Arg::Tensor(HostStorage::F32(v), l) => Some((
            std::borrow::Cow::Borrowed(&v[..]),
            l.strides.clone(),
            l.offset,
        )),
        Arg::Scalar(s) => Some((
            std::borrow::Cow::Owned(vec![s.as_f64() as f32]),
            zeros.to_vec(),
            0,
        )),
        _ => None,
    }
}

/// float16/bfloat16 times or divided by a Python number: ATen's mul_kernel and div_true_kernel
/// keep the number in float (`original_scalar_value<opmath_t>`), compute `float(a) * b` (or
/// `/ b`) and round once, so `arange(200, dtype=half) * 0.01` differs from multiplying by
/// 0.01 rounded to half. None for the other cases.
fn reduced_by_scalar<T: Float + Stored>(
    op: BinaryOp,
    a: Arg<'_, HostStorage>,
    b: Arg<'_, HostStorage>,
    n: usize,
) -> Option<Result<HostStorage>> {
    let s = match (op, b) {
        (BinaryOp::Mul | BinaryOp::Div, Arg::Scalar(s)) => s.as_f64() as f32,
        _ => return None,
    };
    let f = |x: T| {
        let x = x.to_f32();
        T::from_f32(if op == BinaryOp::Mul { x * s } else { x / s })
    };
    Some((|| {
        let x = src::<T>(a)?;
        let one = Src::Const(T::from_f32(0.0));
        Ok(T::wrap(zip_map(&x, &one, n, |p: T, _: T| f(p))?))
    })())
}

/// `a + alpha * b` in `compute` (add/sub with `alpha`): floats fuse the multiply into the
/// add as ATen's vectorised add kernel does (`vec::fmadd(b, alpha, a)`; float16 and bfloat16
/// in float32), integers wrap.
pub(crate) fn add_scaled(
    a: Arg<'_, HostStorage>,
    b: Arg<'_, HostStorage>,
    alpha: Scalar,
    n: usize,
    compute: DType,
) -> Result<HostStorage> {
    fn slice_of<'a, T>(s: &'a Src<'a, T>) -> &'a [T] {
        match s {
            Src::Slice(v) => v,
            Src::Owned(v) => v,
            Src::Const(c) => std::slice::from_ref(c),
        }
    }
    fn range<T>(v: &[T], r: std::ops::Range<usize>) -> &[T] {
        if v.len() == 1 { v } else { &v[r] }
    }
    if compute == DType::Float32 {
        let (x, y) = (src::<f32>(a)?, src::<f32>(b)?);
        let (xs, ys) = (slice_of(&x), slice_of(&y));
        let s = alpha.as_f64() as f32;
        let mut out = got(try_zeroed::<f32>(n), n)?;
        // every element is one FMA whatever piece it falls in: split over threads above the grain
        parallel_rows_mut(&mut out, 1, GRAIN_SIZE, |first, part| {
            for (k, piece) in part.chunks_mut(CHUNK).enumerate() {
                if should_stop() {
                    return;
                }
                let i = first + k * CHUNK;
                let e = i + piece.len();
                crate::engine::numerics::pointwise::add_alpha_into(
                    piece,
                    range(xs, i..e),
                    range(ys, i..e),
                    s,
                );
            }
        });
        if let Some(stop) = take_pending() {
            return Err(stop);
        }
        return Ok(HostStorage::F32(out));
    }
    fn go<T: Arith + Stored>(
        a: Arg<'_, HostStorage>,
        b: Arg<'_, HostStorage>,
        n: usize,
        f: impl Fn(T, T) -> T + Sync,
    ) -> Result<HostStorage> {
        let (x, y) = (src::<T>(a)?, src::<T>(b)?);
        Ok(T::wrap(zip_map(&x, &y, n, f)?))
    }
    let af = alpha.as_f64();
    let half = |p: f32, q: f32| q.mul_add(af as f32, p);
    macro_rules! int {
        ($t:ty) => {{
            let s = <$t>::from_scalar(alpha);
            go::<$t>(a, b, n, move |p, q| p.add(q.mul(s)))
        }};
    }
    match compute {
        DType::Float64 => go::<f64>(a, b, n, move |p, q| q.mul_add(af, p)),
        DType::Float16 => go::<f16>(a, b, n, move |p, q| {
            f16::from_f32(half(p.to_f32(), q.to_f32()))
        }),
        DType::BFloat16 => go::<bf16>(a, b, n, move |p, q| {
            bf16::from_f32(half(p.to_f32(), q.to_f32()))
        }),
        DType::Int64 => int!(i64),
        DType::Int32 => int!(i32),
        DType::Int16 => int!(i16),
        DType::Int8 => int!(i8),
        DType::UInt8 => int!(u8),
        _ => int!(bool),
    }
}

/// Whether any element of `arg` (int or bool) is zero: the CPU's integer division check.
pub(crate) fn has_zero(arg: Arg<'_, HostStorage>) -> Result<bool> {
    Ok(match arg {
        Arg::Scalar(s) => s.as_f64() == 0.0,
        Arg::Tensor(h, l) => {
            fn z<T: Element>(v: &[T], l: &Layout) -> bool {
                let mut found = false;
                l.for_each_run(|start, len, stride| {
                    found |= (0..len).any(|i| v[start + i * stride].is_zero());
                });
                found
            }
            host_dispatch!(h, v => z(v, l))
        }
    })
}

// ----- where, clamp, masked_fill -----

fn where_t<T: Stored>(
    c: &Src<bool>,
    a: Arg<'_, HostStorage>,
    b: Arg<'_, HostStorage>,
    n: usize,
) -> Result<HostStorage> {
    let (x, y) = (src::<T>(a)?, src::<T>(b)?);
    let mut out = got(try_with_capacity(n), n)?;
    let mut i = 0;
    while i < n {
        let e = (i + CHUNK).min(n);
        let (cc, xc, yc) = (c.chunk(i..e), x.chunk(i..e), y.chunk(i..e));
        let pick = |k: usize| {
            let t = match &cc {
                Chunk::Slice(s) => s[k],
                Chunk::Const(v) => *v,
            };
            let from = if t { &xc } else { &yc };
            match from {
                Chunk::Slice(s) => s[k],
                Chunk::Const(v) => *v,
            }
        };
        out.extend((0..e - i).map(pick));
        poll()?;
        i = e;
    }
    Ok(T::wrap(out))
}

/// `cond ? a : b` in `dtype`.
pub(crate) fn where_cond(
    cond: (&HostStorage, &Layout),
    a: Arg<'_, HostStorage>,
    b: Arg<'_, HostStorage>,
    n: usize,
    dtype: DType,
) -> Result<HostStorage> {
    let c = src::<bool>(Arg::Tensor(cond.0, cond.1))?;
    crate::dtype_dispatch!(dtype, where_t(&c, a, b, n))
}

fn clamp_t<T: Stored>(
    h: &HostStorage,
    layout: &Layout,
    lo: Option<Scalar>,
    hi: Option<Scalar>,
) -> Result<HostStorage> {
    let a = src::<T>(Arg::Tensor(h, layout))?;
    let n = layout.numel();
    let (lo, hi) = (lo.map(T::from_scalar), hi.map(T::from_scalar));
    Ok(T::wrap(map(&a, n, |x: T| {
        let mut y = x;
        if let Some(l) = lo
            && y < l
        {
            y = l;
        }
        if let Some(h) = hi
            && y > h
        {
            y = h;
        }
        y
    })?))
}

/// Elements clamped to [lo, hi]; NaN stays NaN (its comparisons are false).
pub(crate) fn clamp(
    h: &HostStorage,
    layout: &Layout,
    lo: Option<Scalar>,
    hi: Option<Scalar>,
) -> Result<HostStorage> {
    crate::dtype_dispatch!(h.dtype(), clamp_t(h, layout, lo, hi))
}

fn masked_fill_t<T: Stored>(
    h: &HostStorage,
    layout: &Layout,
    mask: &Src<bool>,
    value: Scalar,
) -> Result<HostStorage> {
    let a = src::<T>(Arg::Tensor(h, layout))?;
    let v = T::from_scalar(value);
    let n = layout.numel();
    let mut out = got(try_with_capacity(n), n)?;
    let mut i = 0;
    while i < n {
        let e = (i + CHUNK).min(n);
        match (a.chunk(i..e), mask.chunk(i..e)) {
            (Chunk::Slice(x), Chunk::Slice(m)) => {
                out.extend(x.iter().zip(m).map(|(&x, &m)| if m { v } else { x }))
            }
            (Chunk::Slice(x), Chunk::Const(m)) => {
                out.extend(x.iter().map(|&x| if m { v } else { x }))
            }
            (Chunk::Const(x), Chunk::Slice(m)) => {
                out.extend(m.iter().map(|&m| if m { v } else { x }))
            }
            (Chunk::Const(x), Chunk::Const(m)) => out.resize(e, if m { v } else { x }),
        }
        poll()?;
        i = e;
    }
    Ok(T::wrap(out))
}

/// `value` where `mask` (bool, broadcast to `layout`'s shape) is true.
pub(crate) fn masked_fill(
    h: &HostStorage,
    layout: &Layout,
    mask: (&HostStorage, &Layout),
    value: Scalar,
) -> Result<HostStorage> {
    let m = src::<bool>(Arg::Tensor(mask.0, mask.1))?;
    crate::dtype_dispatch!(h.dtype(), masked_fill_t(h, layout, &m, value))
}

/// `addcmul` / `addcdiv` / `lerp` (see [`crate::engine::op::TernaryOp`]) in `compute`:
/// float32 as ATen's CPU kernels round it ([`crate::engine::numerics::pointwise`]: the
/// vectorised and scalar halves give the same bits, so the split does not matter), float64 the
/// same formulas in double, float16 and bfloat16 in float32 rounded once (ATen's opmath),
/// integers (addcmul only; the front half refuses the others) wrapping.
pub(crate) fn ternary(
    op: crate::engine::op::TernaryOp,
    a: Arg<'_, HostStorage>,
    b: Arg<'_, HostStorage>,
    c: Arg<'_, HostStorage>,
    value: Scalar,
    n: usize,
    compute: DType,
) -> Result<HostStorage> {
    use crate::engine::numerics::pointwise as pw;
    use crate::engine::op::TernaryOp;
    #[inline(always)]
    fn at<T: Copy>(s: &Src<'_, T>, i: usize) -> T {
        match s {
            Src::Slice(v) => v[i],
            Src::Owned(v) => v[i],
            Src::Const(c) => *c,
        }
    }
    #[inline(always)]
    fn go<T: Stored + Copy>(
        a: Arg<'_, HostStorage>,
        b: Arg<'_, HostStorage>,
        c: Arg<'_, HostStorage>,
        n: usize,
        f: impl Fn(T, T, T) -> T,
    ) -> Result<HostStorage> {
        let (x, y, z) = (src::<T>(a)?, src::<T>(b)?, src::<T>(c)?);
        let mut out = got(try_with_capacity(n), n)?;
        let mut i = 0;
        while i < n {
            let e = (i + CHUNK).min(n);
            // The optimisers' shapes (addcmul_/addcdiv_ of three tensors, lerp_ with a number)
            // get loops over plain slices, which vectorise; the rest reads operand by operand.
            match (x.chunk(i..e), y.chunk(i..e), z.chunk(i..e)) {
                (Chunk::Slice(p), Chunk::Slice(q), Chunk::Slice(r)) => {
                    out.extend(p.iter().zip(q).zip(r).map(|((&s, &t1), &t2)| f(s, t1, t2)))
                }
                (Chunk::Slice(p), Chunk::Slice(q), Chunk::Const(t2)) => {
                    out.extend(p.iter().zip(q).map(|(&s, &t1)| f(s, t1, t2)))
                }
                _ => out.extend((i..e).map(|k| f(at(&x, k), at(&y, k), at(&z, k)))),
            }
            poll()?;
            i = e;
        }
        Ok(T::wrap(out))
    }
    let v64 = value.as_f64();
    let v = v64 as f32;
    // float32 kernels, and float16/bfloat16 through them (one concrete closure per op, so the
    // loop inlines it)
    macro_rules! per_op {
        ($t:ty, $to:expr, $from:expr) => {
            match op {
                TernaryOp::Addcmul => go::<$t>(a, b, c, n, move |s, t1, t2| {
                    $from(pw::addcmul($to(s), $to(t1), $to(t2), v))
                }),
                TernaryOp::Addcdiv => go::<$t>(a, b, c, n, move |s, t1, t2| {
                    $from(pw::addcdiv($to(s), $to(t1), $to(t2), v))
                }),
                TernaryOp::Lerp => go::<$t>(a, b, c, n, move |s, t1, t2| {
                    $from(pw::lerp($to(s), $to(t1), $to(t2)))
                }),
            }
        };
    }
    crate::engine::numerics::fast::avx2_fma! {
        /// The float32 kernels compiled for AVX2/AVX-512 with FMA: in baseline x86-64 code each
        /// element's `mul_add` was a call into libm's `fmaf` (a quarter of an Adam step).
        fn float32_ternary(
            op: TernaryOp,
            a: Arg<'_, HostStorage>,
            b: Arg<'_, HostStorage>,
            c: Arg<'_, HostStorage>,
            n: usize,
            v: f32,
        ) -> Result<HostStorage> {
            match op {
                TernaryOp::Addcmul => go::<f32>(a, b, c, n, move |s, t1, t2| {
                    pw::addcmul(s, t1, t2, v)
                }),
                TernaryOp::Addcdiv => go::<f32>(a, b, c, n, move |s, t1, t2| {
                    pw::addcdiv(s, t1, t2, v)
                }),
                TernaryOp::Lerp => go::<f32>(a, b, c, n, pw::lerp),
            }
        }
    }
    match compute {
        DType::Float32 => float32_ternary(op, a, b, c, n, v),
        DType::Float64 => go::<f64>(a, b, c, n, move |s, t1, t2| match op {
            TernaryOp::Addcmul => (v64 * t1).mul_add(t2, s),
            TernaryOp::Addcdiv => s + v64 * t1 / t2,
            TernaryOp::Lerp => {
                let diff = t1 - s;
                if t2.abs() < 0.5 {
                    t2.mul_add(diff, s)
                } else {
                    (t2 - 1.0).mul_add(diff, t1)
                }
            }
        }),
        DType::Float16 => per_op!(f16, |x: f16| x.to_f32(), f16::from_f32),
        DType::BFloat16 => per_op!(bf16, |x: bf16| x.to_f32(), bf16::from_f32),
        _ if op != TernaryOp::Addcmul => Err(EngineError::runtime(format!(
            "\"{}_cpu\" not implemented for '{}'",
            op.name(),
            compute.scalar_name()
        ))),
        _ => {
            macro_rules! int {
                ($t:ty) => {{
                    let s = <$t>::from_scalar(value);
                    go::<$t>(a, b, c, n, move |p, q, r| p.add(s.mul(q).mul(r)))
                }};
            }
            match compute {
                DType::Int64 => int!(i64),
                DType::Int32 => int!(i32),
                DType::Int16 => int!(i16),
                DType::Int8 => int!(i8),
                DType::UInt8 => int!(u8),
                _ => int!(bool),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(h: &HostStorage) -> Vec<f32> {
        typed::<f32>(h).unwrap().to_vec()
    }

    /// A copy into a transposed destination (the blocked path) writes what the element-by-
    /// element walk writes, for sides around the block size, a gap between columns and an
    /// offset, and leaves the gaps alone.
    #[test]
    fn copy_into_a_transposed_destination_matches_the_element_walk() {
        let _held = crate::engine::parallel::TEST_THREADS_LOCK
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        let threads_before = crate::engine::parallel::num_threads();
        // the last three are over the split grain: their columns go to 2 and 3 threads
        for (threads, (rows, cols, gap, offset)) in [1, 2, 3].into_iter().flat_map(|t| {
            [
                (1, 5, 0, 0),
                (3, 70, 1, 2),
                (33, 31, 0, 5),
                (64, 65, 3, 0),
                (100, 1, 0, 1),
                (35, 38, 2, 3),
                (256, 784, 0, 0),
                (783, 255, 2, 9),
                (130, 1000, 1, 0),
            ]
            .map(|case| (t, case))
        }) {
            crate::engine::parallel::set_num_threads(threads);
            let s = rows + gap;
            let len = offset + s * cols;
            let layout = Layout::new(vec![rows, cols], vec![1, s], offset);
            let vals: Vec<f32> = (0..rows * cols).map(|v| v as f32).collect();
            let mut want = vec![-1f32; len];
            let mut k = 0;
            layout.for_each_offset(|o| {
                want[o] = vals[k];
                k += 1;
            });
            let mut got = HostStorage::F32(vec![-1f32; len]);
            let src = HostStorage::F32(vals);
            copy_into(&mut got, &layout, &src, &Layout::contiguous(&[rows, cols])).unwrap();
            assert_eq!(
                f32s(&got),
                want,
                "{rows}x{cols} gap {gap} offset {offset} at {threads} threads"
            );
            // the other dtypes take the value-at-a-time walk
            let mut got = HostStorage::I64(vec![-1i64; len]);
            let src = HostStorage::I64((0..rows * cols).map(|v| v as i64).collect());
            copy_into(&mut got, &layout, &src, &Layout::contiguous(&[rows, cols])).unwrap();
            let want: Vec<i64> = want.iter().map(|&v| v as i64).collect();
            assert_eq!(
                typed::<i64>(&got).unwrap(),
                &want[..],
                "int64 {rows}x{cols}"
            );
        }
        crate::engine::parallel::set_num_threads(threads_before);
    }

    #[test]
    fn binary_broadcasts_casts_and_compares() {
        let a = HostStorage::F32(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let la = Layout::contiguous(&[2, 3]);
        let b = HostStorage::F32(vec![10.0, 20.0, 30.0]);
        let lb = Layout::contiguous(&[3]).broadcast_as(&[2, 3]);
        let r = binary(
            BinaryOp::Add,
            Arg::Tensor(&a, &la),
            Arg::Tensor(&b, &lb),
            6,
            DType::Float32,
        )
        .unwrap();
        assert_eq!(f32s(&r), vec![11.0, 22.0, 33.0, 14.0, 25.0, 36.0]);
        // a transposed operand is gathered in logical order
        let t = Layout::new(vec![3, 2], vec![1, 3], 0);
        let r = binary(
            BinaryOp::Mul,
            Arg::Tensor(&a, &t),
            Arg::Scalar(Scalar::Int(2)),
            6,
            DType::Float32,
        )
        .unwrap();
        assert_eq!(f32s(&r), vec![2.0, 8.0, 4.0, 10.0, 6.0, 12.0]);
        let r = binary(
            BinaryOp::Gt,
            Arg::Tensor(&a, &la),
            Arg::Scalar(Scalar::Float(3.5)),
            6,
            DType::Float32,
        )
        .unwrap();
        assert_eq!(
            r,
            HostStorage::Bool(vec![false, false, false, true, true, true])
        );
        // int64 stays exact and wraps
        let i = HostStorage::I64(vec![i64::MIN, 9_007_199_254_740_993]);
        let li = Layout::contiguous(&[2]);
        let r = binary(
            BinaryOp::FloorDiv,
            Arg::Tensor(&i, &li),
            Arg::Scalar(Scalar::Int(-1)),
            2,
            DType::Int64,
        )
        .unwrap();
        assert_eq!(r, HostStorage::I64(vec![i64::MIN, -9_007_199_254_740_993]));
        assert!(has_zero(Arg::Tensor(&HostStorage::I64(vec![1, 0]), &li)).unwrap());
    }

    #[test]
    fn casts_copies_and_fills_follow_layouts() {
        let a = HostStorage::F64(vec![1.5, -2.5, 3.0e10, f64::NAN]);
        let l = Layout::contiguous(&[4]);
        assert_eq!(
            to_dtype(&a, &l, DType::Int32).unwrap(),
            HostStorage::I32(vec![1, -2, i32::MIN, i32::MIN])
        );
        let mut d = HostStorage::F32(vec![0.0; 4]);
        let dl = Layout::new(vec![2], vec![2], 1);
        copy_into(
            &mut d,
            &dl,
            &HostStorage::I64(vec![7, 8]),
            &Layout::contiguous(&[2]),
        )
        .unwrap();
        assert_eq!(f32s(&d), vec![0.0, 7.0, 0.0, 8.0]);
        fill(
            &mut d,
            &Layout::new(vec![2], vec![2], 0),
            Scalar::Float(0.5),
        );
        assert_eq!(f32s(&d), vec![0.5, 7.0, 0.5, 8.0]);
    }

    #[test]
    fn unary_where_clamp_and_mask() {
        let a = HostStorage::F32(vec![-1.0, f32::NAN, 2.0]);
        let l = Layout::contiguous(&[3]);
        assert_eq!(unary(&a, &l, UnaryOp::Relu).unwrap().gather_f64(&l)[2], 2.0);
        assert!(unary(&a, &l, UnaryOp::Relu).unwrap().gather_f64(&l)[1].is_nan());
        let c = HostStorage::Bool(vec![true, false, true]);
        let w = where_cond(
            (&c, &l),
            Arg::Tensor(&a, &l),
            Arg::Scalar(Scalar::Int(9)),
            3,
            DType::Float32,
        )
        .unwrap();
        assert_eq!(f32s(&w)[..2], [-1.0, 9.0]);
        let cl = clamp(&a, &l, Some(Scalar::Float(0.0)), Some(Scalar::Float(1.0))).unwrap();
        let v = f32s(&cl);
        assert_eq!((v[0], v[2]), (0.0, 1.0));
        assert!(v[1].is_nan());
        let m = masked_fill(&a, &l, (&c, &l), Scalar::Int(0)).unwrap();
        assert_eq!(f32s(&m)[0], 0.0);
        assert_eq!(
            unary(
                &HostStorage::I64(vec![i64::MIN]),
                &Layout::contiguous(&[1]),
                UnaryOp::Neg
            )
            .unwrap(),
            HostStorage::I64(vec![i64::MIN])
        );
    }
}
