//! ATen's vector helpers (functional_base.h, vec256_float.h / vec512_float.h) that fix the
//! order of a reduction inside a kernel: `reduce_all`, `map_reduce_all`, `map2_reduce_all`,
//! `vec_reduce_all`'s shuffle tree, and `vec::maximum`'s NaN rule.

use super::lanes::{Lanes, Real};

/// `vec::maximum`: `max_ps(a, b)` (a > b ? a : b), or the all-ones NaN when either is NaN.
#[inline(always)]
pub(crate) fn maximum(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::from_bits(0xffff_ffff)
    } else if a > b {
        a
    } else {
        b
    }
}

/// `vec::maximum` of `Vectorized<double>`: `max_pd(a, b)`, or the all-ones NaN when either
/// is NaN.
#[inline(always)]
pub(crate) fn maximum_f64(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::from_bits(u64::MAX)
    } else if a > b {
        a
    } else {
        b
    }
}

/// `vec::minimum`: `min_ps(a, b)` (a < b ? a : b), or the all-ones NaN when either is NaN.
#[inline(always)]
pub(crate) fn minimum(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::from_bits(0xffff_ffff)
    } else if a < b {
        a
    } else {
        b
    }
}

/// `vec_reduce_all(f, v)`: the shuffle tree. Lane i is combined with lane i ^ (N/2), then
/// i ^ (N/4), ..., and lane 0 is the result: `f(current, shuffled)` at each step.
#[inline(always)]
pub(crate) fn tree<T: Real, const N: usize>(v: Lanes<T, N>, f: impl Fn(T, T) -> T) -> T {
    let mut v = v.0;
    let mut half = N / 2;
    while half >= 1 {
        let prev = v;
        for i in 0..N {
            v[i] = f(prev[i], prev[i ^ half]);
        }
        half /= 2;
    }
    v[0]
}

/// `vec_reduce_all(f, v, size)`, the slow path used below one vector: lane 0 folded left over
/// the first `size` lanes.
#[inline(always)]
pub(crate) fn fold_lanes<T: Real, const N: usize>(
    v: Lanes<T, N>,
    size: usize,
    f: impl Fn(T, T) -> T,
) -> T {
    let mut acc = v.0[0];
    for i in 1..size {
        acc = f(acc, v.0[i]);
    }
    acc
}

/// `vec::map_reduce_all(map, red, data)`.
#[inline(always)]
pub(crate) fn map_reduce_all<T: Real, const N: usize>(
    data: &[T],
    map: impl Fn(T) -> T,
    red: impl Fn(T, T) -> T + Copy,
) -> T {
    let size = data.len();
    if size < N {
        return fold_lanes(Lanes::<T, N>::load_partial(data, size).map(&map), size, red);
    }
    let mut acc = Lanes::<T, N>::load(data).map(&map);
    let mut d = N;
    let full = size - size % N;
    while d < full {
        acc = acc.zip(Lanes::<T, N>::load(&data[d..]).map(&map), red);
        d += N;
    }
    if size > d {
        let count = size - d;
        let v = Lanes::<T, N>::load_partial(&data[d..], count).map(&map);
        acc = acc.set_first(acc.zip(v, red), count);
    }
    tree(acc, red)
}

/// `vec::reduce_all(red, data)` for a type without a SIMD `vec_reduce_all` (double): the
/// last step folds the lanes left to right (`VecReduceAllSIMD`'s generic case) instead of
/// the shuffle tree.
#[inline(always)]
pub(crate) fn reduce_all_folded<T: Real, const N: usize>(
    data: &[T],
    red: impl Fn(T, T) -> T + Copy,
) -> T {
    let size = data.len();
    if size < N {
        return fold_lanes(Lanes::<T, N>::load_partial(data, size), size, red);
    }
    let mut acc = Lanes::<T, N>::load(data);
    let mut d = N;
    let full = size - size % N;
    while d < full {
        acc = acc.zip(Lanes::<T, N>::load(&data[d..]), red);
        d += N;
    }
    if size > d {
        let count = size - d;
        let v = Lanes::<T, N>::load_partial(&data[d..], count);
        acc = acc.set_first(acc.zip(v, red), count);
    }
    fold_lanes(acc, N, red)
}

/// `vec::reduce_all(red, data)`.
#[inline(always)]
pub(crate) fn reduce_all<T: Real, const N: usize>(data: &[T], red: impl Fn(T, T) -> T + Copy) -> T {
    map_reduce_all::<T, N>(data, |x| x, red)
}

/// `vec::map2_reduce_all(x * y, +)`: a dot product as the float softmax backward compiles it.
/// GCC contracts only the tail's `acc + x * y` (inside `Vec::set`) into an FMA; the loop body
/// keeps a multiply and an add (measured on rows of 17..1000: every other combination of fused
/// and unfused steps fails some row).
#[inline(always)]
pub(crate) fn dot_reduce_all<const N: usize>(a: &[f32], b: &[f32]) -> f32 {
    let size = a.len();
    let mul = |x: f32, y: f32| x * y;
    let add = |x: f32, y: f32| x + y;
    if size < N {
        let v = Lanes::<f32, N>::load_partial(a, size).zip(Lanes::load_partial(b, size), mul);
        return fold_lanes(v, size, add);
    }
    let mut acc = Lanes::<f32, N>::load(a).zip(Lanes::load(b), mul);
    let fused = |acc: Lanes<f32, N>, x: Lanes<f32, N>, y: Lanes<f32, N>| {
        let mut out = acc;
        for i in 0..N {
            out.0[i] = x.0[i].mul_add(y.0[i], acc.0[i]);
        }
        out
    };
    let mut d = N;
    let full = size - size % N;
    while d < full {
        acc = acc + Lanes::<f32, N>::load(&a[d..]) * Lanes::load(&b[d..]);
        d += N;
    }
    if size > d {
        let count = size - d;
        let f = fused(
            acc,
            Lanes::load_partial(&a[d..], count),
            Lanes::load_partial(&b[d..], count),
        );
        acc = acc.set_first(f, count);
    }
    tree(acc, add)
}
