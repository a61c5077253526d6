//! float32 binary/ternary elementwise arithmetic with Python-number scalars, as ATen's kernels
//! round it: `add`/`sub` with `alpha`, `mul`/`div` by a scalar, `addcmul`, `addcdiv`, `lerp`.
//!
//! A Python float given to an op becomes a float32 scalar (the wrapped-number tensor is cast to
//! the tensor's dtype), so every scalar here is `f64` rounded once with `as f32`. The kernels
//! are compiled for AVX2/AVX512 with FMA, and GCC contracts `a + s * b` into one FMA in both
//! their vector and scalar halves, so these results do not depend on the vector/scalar split.

/// A Python float as ATen's float32 scalar operand.
#[inline(always)]
pub fn scalar(v: f64) -> f32 {
    v as f32
}

/// `a.add(b, alpha=alpha)`: `fma(b, alpha, a)` (ufunc add: `vec::fmadd(other, alpha, self)`).
#[inline(always)]
pub fn add_alpha(a: f32, b: f32, alpha: f32) -> f32 {
    b.mul_add(alpha, a)
}

/// `a.sub(b, alpha=alpha)` is `add` with `-alpha`.
#[inline(always)]
pub fn sub_alpha(a: f32, b: f32, alpha: f32) -> f32 {
    b.mul_add(-alpha, a)
}

/// `self.addcmul(t1, t2, value=v)`: `self + v * t1 * t2` with the last add fused.
#[inline(always)]
pub fn addcmul(s: f32, t1: f32, t2: f32, v: f32) -> f32 {
    (v * t1).mul_add(t2, s)
}

/// `self.addcdiv(t1, t2, value=v)`: `self + v * t1 / t2` (no fusion possible across the divide).
#[inline(always)]
pub fn addcdiv(s: f32, t1: f32, t2: f32, v: f32) -> f32 {
    s + v * t1 / t2
}

/// `start.lerp(end, weight)` (LerpKernel): `start + w * (end - start)` for |w| < 0.5, else
/// `end - (end - start) * (1 - w)`, each with one FMA.
#[inline(always)]
pub fn lerp(start: f32, end: f32, w: f32) -> f32 {
    let diff = end - start;
    if w.abs() < 0.5 {
        w.mul_add(diff, start)
    } else {
        (w - 1.0).mul_add(diff, end)
    }
}

use super::fast::avx2_fma;

avx2_fma! {
/// `out = x + alpha * y` elementwise, one FMA each ([`add_alpha`]); `x` or `y` of length 1
/// broadcasts.
pub(crate) fn add_alpha_into(out: &mut [f32], x: &[f32], y: &[f32], alpha: f32) {
    match (x.len(), y.len()) {
        (1, 1) => out.fill(add_alpha(x[0], y[0], alpha)),
        (1, _) => {
            let a = x[0];
            out.iter_mut().zip(y).for_each(|(o, &b)| *o = b.mul_add(alpha, a));
        }
        (_, 1) => {
            let b = y[0];
            out.iter_mut().zip(x).for_each(|(o, &a)| *o = b.mul_add(alpha, a));
        }
        _ => out
            .iter_mut()
            .zip(x.iter().zip(y))
            .for_each(|(o, (&a, &b))| *o = b.mul_add(alpha, a)),
    }
}
}

/// In-place `x.addcdiv_(t1, t2, value=v)`.
pub fn addcdiv_(x: &mut [f32], t1: &[f32], t2: &[f32], v: f32) {
    for ((a, &b), &c) in x.iter_mut().zip(t1).zip(t2) {
        *a = addcdiv(*a, b, c, v);
    }
}

/// In-place `x.lerp_(end, w)` with a scalar weight.
pub fn lerp_(x: &mut [f32], end: &[f32], w: f32) {
    x.iter_mut()
        .zip(end)
        .for_each(|(a, &b)| *a = lerp(*a, b, w));
}
