//! `Lanes<T, N>`: a fixed group of N values that stands for one ATen `Vectorized<T>` register.
//!
//! ATen's kernels keep several partial results side by side, one per SIMD lane, and combine
//! them in a fixed order at the end. Reproducing their bits means keeping exactly those lanes,
//! so this is a plain array with lane-wise arithmetic (LLVM turns the loops into SIMD code).
//!
//! How many lanes depends on the kernel, not only on the CPU: ATen compiles each kernel file
//! for several capabilities, and `REGISTER_DISPATCH` registers *no* AVX512 version (DispatchStub.h:
//! "REGISTER_DISPATCH now dispatches an AVX512 kernel to nullptr"), so on an AVX512 machine most
//! kernels run their AVX2 build (8 float / 4 double lanes). Only kernels registered with
//! `ALSO_REGISTER_AVX512_DISPATCH` run with 16 / 8 lanes. Each kernel here names the width it
//! was measured to use: [`F32_AVX2`] and friends.

use std::ops::{Add, Div, Mul, Neg, Sub};

/// `Vectorized<float>` lanes in ATen's AVX2 build (what `REGISTER_DISPATCH` kernels run).
pub(crate) const F32_AVX2: usize = 8;
/// `Vectorized<double>` lanes in the AVX2 build.
pub(crate) const F64_AVX2: usize = 4;

/// The floating-point types the numerics work in (f32, f64).
pub(crate) trait Real:
    Copy
    + Summand
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + std::fmt::Debug
    + Send
    + Sync
    + 'static
{
    const ZERO: Self;
    const ONE: Self;
    const INFINITY: Self;
    const NEG_INFINITY: Self;
    const NAN: Self;
    fn is_nan(self) -> bool;
    /// Rounds an f64 to this type (RNE), as a C++ `static_cast` does.
    fn from_f64(v: f64) -> Self;
    fn to_f64(self) -> f64;
    /// `self * a + b` with one rounding (a hardware FMA).
    fn fma(self, a: Self, b: Self) -> Self;
    fn sqrt(self) -> Self;
}

/// f32 and f64 implement [`Real`] and [`Summand`] with the same code: written once.
macro_rules! real {
    ($t:ty) => {
        impl Real for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const INFINITY: Self = <$t>::INFINITY;
            const NEG_INFINITY: Self = <$t>::NEG_INFINITY;
            const NAN: Self = <$t>::NAN;
            #[inline(always)]
            fn is_nan(self) -> bool {
                self.is_nan()
            }
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn fma(self, a: Self, b: Self) -> Self {
                self.mul_add(a, b)
            }
            #[inline(always)]
            fn sqrt(self) -> Self {
                self.sqrt()
            }
        }

        impl Summand for $t {
            #[inline(always)]
            fn zero() -> Self {
                0.0
            }
            #[inline(always)]
            fn plus(self, o: Self) -> Self {
                self + o
            }
        }
    };
}
real!(f32);
real!(f64);

/// N lanes of T: one ATen vector register.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Lanes<T, const N: usize>(pub [T; N]);

impl<T: Real, const N: usize> Lanes<T, N> {
    #[inline(always)]
    pub(crate) fn splat(v: T) -> Self {
        Lanes([v; N])
    }

    /// `Vectorized::loadu(ptr)`: the first N values of `s` (which must hold at least N).
    #[inline(always)]
    pub(crate) fn load(s: &[T]) -> Self {
        let mut out = [T::ZERO; N];
        out.copy_from_slice(&s[..N]);
        Lanes(out)
    }

    /// `Vectorized::loadu(ptr, count)`: the first `count` values, zeros in the other lanes.
    #[inline(always)]
    pub(crate) fn load_partial(s: &[T], count: usize) -> Self {
        let mut out = [T::ZERO; N];
        out[..count].copy_from_slice(&s[..count]);
        Lanes(out)
    }

    /// `Vectorized::store(ptr)`.
    #[inline(always)]
    pub(crate) fn store(self, s: &mut [T]) {
        s[..N].copy_from_slice(&self.0);
    }

    #[inline(always)]
    pub(crate) fn map(self, f: impl Fn(T) -> T) -> Self {
        let mut out = self.0;
        for v in out.iter_mut() {
            *v = f(*v);
        }
        Lanes(out)
    }

    #[inline(always)]
    pub(crate) fn zip(self, o: Self, f: impl Fn(T, T) -> T) -> Self {
        let mut out = self.0;
        for (v, w) in out.iter_mut().zip(o.0) {
            *v = f(*v, w);
        }
        Lanes(out)
    }

    /// `Vectorized::set(a, b, count)`: lanes below `count` from `b`, the rest from `self`.
    #[inline(always)]
    pub(crate) fn set_first(self, b: Self, count: usize) -> Self {
        let mut out = self.0;
        out[..count].copy_from_slice(&b.0[..count]);
        Lanes(out)
    }
}

macro_rules! lanewise {
    ($tr:ident, $f:ident, $op:tt) => {
        impl<T: Real, const N: usize> $tr for Lanes<T, N> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, o: Self) -> Self {
                let mut out = self.0;
                for (v, w) in out.iter_mut().zip(o.0) {
                    *v = *v $op w;
                }
                Lanes(out)
            }
        }
    };
}
lanewise!(Add, add, +);
lanewise!(Sub, sub, -);
lanewise!(Mul, mul, *);
lanewise!(Div, div, /);

/// A value a cascade sum accumulates: a scalar or a whole vector register.
pub(crate) trait Summand: Copy {
    fn zero() -> Self;
    fn plus(self, o: Self) -> Self;
}

impl<T: Real, const N: usize> Summand for Lanes<T, N> {
    #[inline(always)]
    fn zero() -> Self {
        Lanes::splat(T::ZERO)
    }
    #[inline(always)]
    fn plus(self, o: Self) -> Self {
        self + o
    }
}
