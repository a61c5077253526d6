//! ATen's elementwise loops (Loops.h): which elements get the vector version of an op.
//!
//! `cpu_kernel_vec` hands each 1-d row of a TensorIterator to `vectorized_loop` when every
//! operand is contiguous in it (or is a broadcast scalar), and to `basic_loop` otherwise. The
//! vector loop processes `2 * Vec::size()` elements per step and leaves the rest of the row to
//! the scalar op. Where the two versions of an op round differently (SLEEF vs glibc, an FMA vs a
//! multiply and an add), which element went which way decides its bits, so the loops here keep
//! exactly that split. `chunk` is `2 * Vec::size()`: 16 for the AVX2 build most kernels run, 32
//! for kernels registered with `ALSO_REGISTER_AVX512_DISPATCH`.

use super::iter::{Operand, is_contiguous, plan};
use super::sum::View;
use crate::engine::parallel::{GRAIN_SIZE, parallel_rows_mut};

/// Where a contiguous row is cut for the intra-op threads: a multiple of every `chunk` (16,
/// 32), so each part's own vector/scalar split puts every element on the side the whole row's
/// split does (the parts before the last are all vector steps; the last ends where the row
/// does), and the bits never depend on the thread count.
pub(crate) const ROW_ALIGN: usize = 64;

/// One operand of an elementwise op that may be split over threads: a contiguous run of the
/// op's elements, or one value broadcast to all of them.
#[derive(Clone, Copy)]
pub(crate) enum Flat<'a, T> {
    Run(&'a [T]),
    Scalar(&'a T),
}

impl<'a, T> Flat<'a, T> {
    /// `x` seen through `v` as a [`Flat`] operand of `n` elements, or None when it is neither
    /// contiguous nor a broadcast scalar.
    pub(crate) fn of(x: &'a [T], v: View<'_>, n: usize) -> Option<Self> {
        if v.strides
            .iter()
            .zip(v.shape)
            .all(|(&s, &d)| s == 0 || d == 1)
        {
            return Some(Flat::Scalar(&x[v.offset]));
        }
        is_contiguous(v.shape, v.strides).then(|| Flat::Run(&x[v.offset..v.offset + n]))
    }

    /// This operand for elements `at..at + len`, as a 1-d buffer and its view's stride.
    pub(crate) fn part(self, at: usize, len: usize) -> (&'a [T], usize) {
        match self {
            Flat::Run(r) => (&r[at..at + len], 1),
            Flat::Scalar(s) => (std::slice::from_ref(s), 0),
        }
    }
}

/// The contiguous output `out` of an elementwise op, in parts cut at multiples of
/// [`ROW_ALIGN`] and shared out over the intra-op threads above [`GRAIN_SIZE`] elements
/// (TensorIterator's `for_each` splits there too): `kernel(at, part)` computes elements
/// `at..at + part.len()` as a 1-d row of their own.
pub(crate) fn split_row<T: Send>(out: &mut [T], kernel: impl Fn(usize, &mut [T]) + Sync) {
    parallel_rows_mut(out, ROW_ALIGN, GRAIN_SIZE, |first, part| {
        kernel(first * ROW_ALIGN, part)
    });
}

/// `vectorized_loop` over one contiguous row: `vop` on the first multiple of `chunk`, `op` on
/// the rest.
#[inline(always)]
pub(crate) fn vectorized_row<T: Copy>(
    x: &[T],
    out: &mut [T],
    chunk: usize,
    vop: impl Fn(T) -> T,
    op: impl Fn(T) -> T,
) {
    let n = x.len().min(out.len());
    let split = n - n % chunk;
    for (o, &v) in out[..split].iter_mut().zip(&x[..split]) {
        *o = vop(v);
    }
    for (o, &v) in out[split..n].iter_mut().zip(&x[split..n]) {
        *o = op(v);
    }
}

/// The same for a binary op whose operands are both contiguous rows.
#[inline(always)]
pub(crate) fn vectorized_row2<T: Copy>(
    a: &[T],
    b: &[T],
    out: &mut [T],
    chunk: usize,
    vop: impl Fn(T, T) -> T,
    op: impl Fn(T, T) -> T,
) {
    let n = out.len().min(a.len()).min(b.len());
    let split = n - n % chunk;
    for i in 0..split {
        out[i] = vop(a[i], b[i]);
    }
    for i in split..n {
        out[i] = op(a[i], b[i]);
    }
}

/// A unary elementwise op over strided views, as `cpu_kernel_vec` iterates it: the views are
/// sorted and merged like TensorIterator's, and each row goes through the vector loop when both
/// are contiguous in it, through the scalar op otherwise. `out` must not overlap `x`.
pub(crate) fn unary_strided<T: Copy>(
    x: &[T],
    xv: View<'_>,
    out: &mut [T],
    ov: View<'_>,
    chunk: usize,
    vop: impl Fn(T) -> T,
    op: impl Fn(T) -> T,
) {
    let p = plan(
        xv.shape,
        &[
            Operand::input(ov.strides, ov.offset),
            Operand::input(xv.strides, xv.offset),
        ],
    );
    p.for_each_2d(|offs, size0, size1, s0, s1| {
        for j in 0..size1 {
            let o0 = offs[0] + j * s1[0];
            let i0 = offs[1] + j * s1[1];
            if s0[0] == 1 && s0[1] == 1 {
                vectorized_row(
                    &x[i0..i0 + size0],
                    &mut out[o0..o0 + size0],
                    chunk,
                    &vop,
                    &op,
                );
            } else if s0[0] == 1 && s0[1] == 0 {
                // A broadcast input: vectorized_loop with its scalar operand.
                let split = size0 - size0 % chunk;
                for i in 0..size0 {
                    out[o0 + i] = if i < split { vop(x[i0]) } else { op(x[i0]) };
                }
            } else {
                for i in 0..size0 {
                    out[o0 + i * s0[0]] = op(x[i0 + i * s0[1]]);
                }
            }
        }
    });
}

/// A binary elementwise op over strided views of one shape, as `cpu_kernel_vec` iterates it:
/// the views are sorted and merged like TensorIterator's, and a row goes through the vector
/// loop when the output and both inputs are contiguous in it or one input is a broadcast
/// scalar (`is_contiguous_scalar`), through the scalar op otherwise. `out` must not overlap
/// the inputs.
#[allow(clippy::too_many_arguments)]
pub(crate) fn binary_strided<T: Copy>(
    a: &[T],
    av: View<'_>,
    b: &[T],
    bv: View<'_>,
    out: &mut [T],
    ov: View<'_>,
    chunk: usize,
    vop: impl Fn(T, T) -> T,
    op: impl Fn(T, T) -> T,
) {
    let p = plan(
        ov.shape,
        &[
            Operand::input(ov.strides, ov.offset),
            Operand::input(av.strides, av.offset),
            Operand::input(bv.strides, bv.offset),
        ],
    );
    p.for_each_2d(|offs, size0, size1, s0, s1| {
        // contiguous output, operands contiguous or one of them a broadcast scalar
        let vector = s0[0] == 1 && matches!((s0[1], s0[2]), (1, 1) | (0, 1) | (1, 0));
        for j in 0..size1 {
            let o0 = offs[0] + j * s1[0];
            let a0 = offs[1] + j * s1[1];
            let b0 = offs[2] + j * s1[2];
            let split = if vector { size0 - size0 % chunk } else { 0 };
            for i in 0..size0 {
                let (x, y) = (a[a0 + i * s0[1]], b[b0 + i * s0[2]]);
                out[o0 + i * s0[0]] = if i < split { vop(x, y) } else { op(x, y) };
            }
        }
    });
}
