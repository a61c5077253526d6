//! `torch.sum` / `nansum` / `mean` of floating tensors: ATen's cascade sum (SumKernel.cpp).
//!
//! The float32 sum accumulates in float32 (`acc_type<float, /*is_cuda=*/true>`), but not left
//! to right: each row is cut into groups of `ilp_factor = 4` interleaved partial sums, each of
//! which is a 4-level cascade whose level size grows with the row (`multi_row_sum`), and a
//! contiguous row is first read as vectors. `sum_stub` is registered with `REGISTER_DISPATCH`, so
//! on an AVX512 machine it runs its AVX2 build: 8 float lanes, 4 double lanes (measured: with 16
//! lanes rows of 8..15 elements already differ). The result is then combined in a fixed
//! order: the vector partials, the scalar tail, the lanes left to right. Everything below follows
//! that structure step by step; the iteration over dimensions comes from [`super::iter`].

use super::fast::avx2_fma;
pub use super::iter::View;
use super::iter::{reduction_output, reduction_plan};
use super::lanes::{F32_AVX2, F64_AVX2, Lanes, Real, Summand};

/// `utils::CeilLog2`: 1 for x <= 2, else ceil(log2(x)).
#[inline]
pub(crate) fn ceil_log2(x: usize) -> u32 {
    if x <= 2 {
        1
    } else {
        64 - ((x - 1) as u64).leading_zeros()
    }
}

/// `multi_row_sum`: R running sums over `size` rows at once, through a 4-level cascade.
/// `load(i, k)` reads column k of row i.
#[inline(always)]
fn multi_row_sum<S: Summand, const R: usize>(
    load: impl Fn(usize, usize) -> S,
    size: usize,
) -> [S; R] {
    const NUM_LEVELS: usize = 4;
    let level_power = (ceil_log2(size) / NUM_LEVELS as u32).max(4);
    let level_step = 1usize << level_power;
    let level_mask = level_step - 1;
    let mut acc = [[S::zero(); R]; NUM_LEVELS];
    let mut i = 0usize;
    // Rows can be long (a sum over an expanded view of 10^12 elements): poll the run's stop
    // every CHUNK rows; a stopped op discards this partial sum (interrupt::should_stop).
    let mut since_poll = 0usize;
    while i + level_step <= size {
        since_poll += level_step;
        if since_poll >= crate::engine::interrupt::CHUNK {
            since_poll = 0;
            if crate::engine::interrupt::should_stop() {
                return acc[0];
            }
        }
        for _ in 0..level_step {
            for (k, a) in acc[0].iter_mut().enumerate() {
                *a = a.plus(load(i, k));
            }
            i += 1;
        }
        for j in 1..NUM_LEVELS {
            // Move level j-1 up into level j.
            let (lower, upper) = acc.split_at_mut(j);
            for (hi, lo) in upper[0].iter_mut().zip(lower[j - 1].iter_mut()) {
                *hi = hi.plus(*lo);
                *lo = S::zero();
            }
            let mask = level_mask << (j as u32 * level_power);
            if i & mask != 0 {
                break;
            }
        }
    }
    while i < size {
        for (k, a) in acc[0].iter_mut().enumerate() {
            *a = a.plus(load(i, k));
        }
        i += 1;
    }
    let (first, rest) = acc.split_at_mut(1);
    for level in rest.iter() {
        for (a, b) in first[0].iter_mut().zip(level) {
            *a = a.plus(*b);
        }
    }
    acc[0]
}

/// `row_sum`: one row of `size` values as 4 interleaved cascades, the tail added to the first,
/// then the four combined left to right.
#[inline(always)]
fn row_sum<S: Summand>(load: impl Fn(usize) -> S, size: usize) -> S {
    const ILP: usize = 4;
    let size_ilp = size / ILP;
    let mut p = multi_row_sum::<S, ILP>(|i, k| load(i * ILP + k), size_ilp);
    for i in size_ilp * ILP..size {
        p[0] = p[0].plus(load(i));
    }
    p[0].plus(p[1]).plus(p[2]).plus(p[3])
}

/// How an element is read: as is (sum) or with NaN read as zero (nansum).
#[inline(always)]
fn read<T: Real>(v: T, ignore_nan: bool) -> T {
    if ignore_nan && v.is_nan() { T::ZERO } else { v }
}

#[inline(always)]
fn read_vec<T: Real, const N: usize>(s: &[T], ignore_nan: bool) -> Lanes<T, N> {
    let v = Lanes::<T, N>::load(s);
    if ignore_nan {
        v.map(|x| read(x, true))
    } else {
        v
    }
}

/// The body of `cascade_sum`'s loop for one 2-d slice (`size0` x `size1`): picks the inner,
/// outer, or scalar variant from the strides exactly as ATen does, and adds each row's sum into
/// `out` (the output starts at zero and is accumulated into, as `CastStoreAccumulate` does).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn cascade_slice<T: Real, const N: usize>(
    input: &[T],
    in_off: usize,
    out: &mut [T],
    out_off: usize,
    mut in_strides: [usize; 2],
    mut out_strides: [usize; 2],
    mut size0: usize,
    mut size1: usize,
    ignore_nan: bool,
) {
    if out_strides[0] != 0 && out_strides[1] == 0 {
        in_strides.swap(0, 1);
        out_strides.swap(0, 1);
        std::mem::swap(&mut size0, &mut size1);
    }
    let ld = |o: usize| read(input[o], ignore_nan);
    if out_strides[0] != 0 && out_strides[1] != 0 {
        // Not a true reduction: out[i] = out[i] + in[i].
        for j in 0..size1 {
            for i in 0..size0 {
                let o = out_off + j * out_strides[1] + i * out_strides[0];
                let a = read(out[o], ignore_nan);
                out[o] = a + ld(in_off + j * in_strides[1] + i * in_strides[0]);
            }
        }
        return;
    }
    let out_stride = out_strides[1];
    if in_strides[0] == 1 && size0 >= N {
        // vectorized_inner_sum: each row read as N-lane vectors, tail and lanes added after.
        let vec_size = size0 / N;
        for j in 0..size1 {
            let row = in_off + j * in_strides[1];
            let vacc = row_sum::<Lanes<T, N>>(
                |i| read_vec::<T, N>(&input[row + i * N..], ignore_nan),
                vec_size,
            );
            let mut fin = T::ZERO;
            for k in vec_size * N..size0 {
                fin = fin + ld(row + k);
            }
            for lane in vacc.0 {
                fin = fin + lane;
            }
            let o = out_off + j * out_stride;
            out[o] = out[o] + fin;
        }
    } else if in_strides[1] == 1 && size1 >= N {
        // vectorized_outer_sum: N (or 4N) neighbouring outputs summed as vectors.
        let inner = in_strides[0];
        let mut j = 0usize;
        while j + 4 * N <= size1 {
            let base = in_off + j;
            let sums = multi_row_sum::<Lanes<T, N>, 4>(
                |i, k| read_vec::<T, N>(&input[base + i * inner + k * N..], ignore_nan),
                size0,
            );
            for (r, s) in sums.iter().enumerate() {
                for (lane, v) in s.0.iter().enumerate() {
                    let o = out_off + (j + r * N + lane) * out_stride;
                    out[o] = out[o] + *v;
                }
            }
            j += 4 * N;
        }
        while j + N <= size1 {
            let base = in_off + j;
            let s = row_sum::<Lanes<T, N>>(
                |i| read_vec::<T, N>(&input[base + i * inner..], ignore_nan),
                size0,
            );
            for (lane, v) in s.0.iter().enumerate() {
                let o = out_off + (j + lane) * out_stride;
                out[o] = out[o] + *v;
            }
            j += N;
        }
        while j < size1 {
            let base = in_off + j;
            let s = row_sum::<T>(|i| ld(base + i * inner), size0);
            let o = out_off + j * out_stride;
            out[o] = out[o] + s;
            j += 1;
        }
    } else if in_strides[0] < in_strides[1] {
        // scalar_inner_sum
        for j in 0..size1 {
            let row = in_off + j * in_strides[1];
            let s = row_sum::<T>(|i| ld(row + i * in_strides[0]), size0);
            let o = out_off + j * out_stride;
            out[o] = out[o] + s;
        }
    } else {
        // scalar_outer_sum: four outputs at a time.
        let mut j = 0usize;
        while j + 3 < size1 {
            let base = in_off + j * in_strides[1];
            let sums = multi_row_sum::<T, 4>(
                |i, k| ld(base + i * in_strides[0] + k * in_strides[1]),
                size0,
            );
            for (k, s) in sums.iter().enumerate() {
                let o = out_off + (j + k) * out_stride;
                out[o] = out[o] + *s;
            }
            j += 4;
        }
        while j < size1 {
            let base = in_off + j * in_strides[1];
            let s = row_sum::<T>(|i| ld(base + i * in_strides[0]), size0);
            let o = out_off + j * out_stride;
            out[o] = out[o] + s;
            j += 1;
        }
    }
}

/// Sums `dims` of a strided view (an empty `dims` means every dimension, as `x.sum()`).
/// Returns the result contiguous, in the order of the kept dimensions (keepdim or not, the
/// values are the same).
#[inline(always)]
fn cascade_sum<T: Real, const N: usize>(
    input: &[T],
    view: View<'_>,
    dims: &[usize],
    ignore_nan: bool,
) -> Vec<T> {
    let (out_shape, out_strides) = reduction_output(view.shape, dims);
    let out_numel: usize = out_shape.iter().product();
    let mut out = vec![T::ZERO; out_numel];
    if view.shape.contains(&0) {
        return out;
    }
    let p = reduction_plan(view, &out_strides);
    p.for_each_2d(|offs, size0, size1, s0, s1| {
        cascade_slice::<T, N>(
            input,
            offs[1],
            &mut out,
            offs[0],
            [s0[1], s1[1]],
            [s0[0], s1[0]],
            size0,
            size1,
            ignore_nan,
        );
    });
    out
}

/// `torch.sum(x)` of a contiguous float32 buffer.
pub fn sum_f32(x: &[f32]) -> f32 {
    let shape = [x.len()];
    sum_dims_f32(x, View::contiguous(&shape, &[1]), &[])[0]
}

/// `torch.sum(x)` of a contiguous float64 buffer.
pub(crate) fn sum_f64(x: &[f64]) -> f64 {
    let shape = [x.len()];
    sum_dims_f64(x, View::contiguous(&shape, &[1]), &[])[0]
}

/// One entry point of the cascade sum: its own AVX2+FMA (or AVX512) function, so that the
/// generic kernel is compiled for that target inside each.
macro_rules! cascade_entry {
    ($(#[$doc:meta])* $name:ident, $t:ty, $lanes:ident, ignore_nan: $ignore_nan:literal) => {
        avx2_fma! {
            $(#[$doc])*
            pub fn $name(x: &[$t], view: View<'_>, dims: &[usize]) -> Vec<$t> {
                cascade_sum::<$t, $lanes>(x, view, dims, $ignore_nan)
            }
        }
    };
}

cascade_entry!(
    /// `torch.sum(x, dims)` of a strided float32 view (`dims` empty: all dimensions).
    sum_dims_f32, f32, F32_AVX2, ignore_nan: false
);
cascade_entry!(
    /// `torch.sum(x, dims)` of a strided float64 view.
    sum_dims_f64, f64, F64_AVX2, ignore_nan: false
);
cascade_entry!(
    /// `torch.nansum(x, dims)` of a strided float32 view.
    nansum_dims_f32, f32, F32_AVX2, ignore_nan: true
);
cascade_entry!(
    /// `torch.nansum(x, dims)` of a strided float64 view.
    nansum_dims_f64, f64, F64_AVX2, ignore_nan: true
);

/// The number of elements `mean` divides by: the product of the reduced sizes.
fn reduced_count(view: View<'_>, dims: &[usize]) -> usize {
    if dims.is_empty() {
        view.shape.iter().product()
    } else {
        dims.iter().map(|&d| view.shape[d]).product()
    }
}

/// `torch.mean(x, dims)` of a float32 view: on the CPU, `sum_out(...).div_(count)` with the
/// count converted to float32 (ReduceOps.cpp, mean_out).
pub fn mean_dims_f32(x: &[f32], view: View<'_>, dims: &[usize]) -> Vec<f32> {
    let n = reduced_count(view, dims) as f32;
    let mut s = sum_dims_f32(x, view, dims);
    for v in s.iter_mut() {
        *v /= n;
    }
    s
}

/// `torch.mean(x, dims)` of a float64 view.
pub fn mean_dims_f64(x: &[f64], view: View<'_>, dims: &[usize]) -> Vec<f64> {
    let n = reduced_count(view, dims) as f64;
    let mut s = sum_dims_f64(x, view, dims);
    for v in s.iter_mut() {
        *v /= n;
    }
    s
}
