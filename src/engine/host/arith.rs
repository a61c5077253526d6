//! Per-dtype arithmetic with PyTorch's semantics: floats in their own precision (float16 and
//! bfloat16 computed in float32 and rounded, as c10::Half's operators do), integers wrapping
//! on overflow, bool as logic.

use crate::engine::element::Element;
use half::{bf16, f16};

/// The binary arithmetic of one element type.
pub(crate) trait Arith: Element {
    fn add(self, b: Self) -> Self;
    fn sub(self, b: Self) -> Self;
    fn mul(self, b: Self) -> Self;
    /// True division (floats only: the front half computes integer division in float32).
    fn div(self, b: Self) -> Self;
    /// Python's `//` (rounds toward negative infinity). An integer zero divisor gives 0
    /// (the CPU front half raises before calling).
    fn floor_div(self, b: Self) -> Self;
    /// Python's `%` (the sign of the divisor).
    fn rem(self, b: Self) -> Self;
    /// C's `fmod` (the sign of the dividend; integers: `%`).
    fn fmod(self, b: Self) -> Self;
    /// Division rounded toward zero (`div(rounding_mode='trunc')`).
    fn trunc_div(self, b: Self) -> Self;
    fn pow(self, b: Self) -> Self;
    /// NaN propagates.
    fn maximum(self, b: Self) -> Self;
    fn minimum(self, b: Self) -> Self;
    fn bitand(self, b: Self) -> Self;
    fn bitor(self, b: Self) -> Self;
    fn bitxor(self, b: Self) -> Self;
    fn is_nan(self) -> bool {
        false
    }
}

/// `c10::div_floor_floating`: floor division that agrees with `%` and is exact where
/// `floor(a / b)` would round the wrong way (one body for both float types).
macro_rules! div_floor_floating {
    ($name:ident, $t:ty) => {
        #[inline]
        pub(crate) fn $name(a: $t, b: $t) -> $t {
            if b == 0.0 {
                return a / b;
            }
            let m = a % b;
            let mut div = (a - m) / b;
            if m != 0.0 && ((b < 0.0) != (m < 0.0)) {
                div -= 1.0;
            }
            if div != 0.0 {
                let mut f = div.floor();
                if div - f > 0.5 {
                    f += 1.0;
                }
                f
            } else {
                (0.0 as $t).copysign(a / b)
            }
        }
    };
}
div_floor_floating!(div_floor_f64, f64);
div_floor_floating!(div_floor_f32, f32);

/// torch.maximum/minimum of floats: `nan` when either side is NaN, else `pick` (f32::max or
/// f32::min, which would drop a NaN).
#[inline(always)]
fn nan_propagating<T: Arith>(a: T, b: T, nan: T, pick: impl Fn(T, T) -> T) -> T {
    if a.is_nan() || b.is_nan() {
        nan
    } else {
        pick(a, b)
    }
}

/// The bitwise ops of a floating type, which the front half never calls (it rejects them).
macro_rules! no_float_bitwise {
    () => {
        fn bitand(self, _: Self) -> Self {
            unreachable!("the front half rejects bitwise ops on floats")
        }
        fn bitor(self, _: Self) -> Self {
            unreachable!("the front half rejects bitwise ops on floats")
        }
        fn bitxor(self, _: Self) -> Self {
            unreachable!("the front half rejects bitwise ops on floats")
        }
    };
}

macro_rules! float_arith {
    ($t:ty, $div_floor:ident) => {
        impl Arith for $t {
            #[inline(always)]
            fn add(self, b: Self) -> Self {
                self + b
            }
            #[inline(always)]
            fn sub(self, b: Self) -> Self {
                self - b
            }
            #[inline(always)]
            fn mul(self, b: Self) -> Self {
                self * b
            }
            #[inline(always)]
            fn div(self, b: Self) -> Self {
                self / b
            }
            #[inline(always)]
            fn floor_div(self, b: Self) -> Self {
                $div_floor(self, b)
            }
            #[inline(always)]
            fn rem(self, b: Self) -> Self {
                let m = self % b;
                if m != 0.0 && ((b < 0.0) != (m < 0.0)) {
                    m + b
                } else {
                    m
                }
            }
            #[inline(always)]
            fn fmod(self, b: Self) -> Self {
                self % b
            }
            #[inline(always)]
            fn trunc_div(self, b: Self) -> Self {
                (self / b).trunc()
            }
            #[inline(always)]
            fn pow(self, b: Self) -> Self {
                self.powf(b)
            }
            #[inline(always)]
            fn maximum(self, b: Self) -> Self {
                nan_propagating(self, b, <$t>::NAN, <$t>::max)
            }
            #[inline(always)]
            fn minimum(self, b: Self) -> Self {
                nan_propagating(self, b, <$t>::NAN, <$t>::min)
            }
            no_float_bitwise!();
            #[inline(always)]
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
        }
    };
}
float_arith!(f32, div_floor_f32);
float_arith!(f64, div_floor_f64);

macro_rules! half_arith {
    ($t:ty) => {
        impl Arith for $t {
            #[inline(always)]
            fn add(self, b: Self) -> Self {
                <$t>::from_f32(self.to_f32() + b.to_f32())
            }
            #[inline(always)]
            fn sub(self, b: Self) -> Self {
                <$t>::from_f32(self.to_f32() - b.to_f32())
            }
            #[inline(always)]
            fn mul(self, b: Self) -> Self {
                <$t>::from_f32(self.to_f32() * b.to_f32())
            }
            #[inline(always)]
            fn div(self, b: Self) -> Self {
                <$t>::from_f32(self.to_f32() / b.to_f32())
            }
            fn floor_div(self, b: Self) -> Self {
                <$t>::from_f32(Arith::floor_div(self.to_f32(), b.to_f32()))
            }
            fn rem(self, b: Self) -> Self {
                <$t>::from_f32(Arith::rem(self.to_f32(), b.to_f32()))
            }
            fn fmod(self, b: Self) -> Self {
                <$t>::from_f32(self.to_f32() % b.to_f32())
            }
            fn trunc_div(self, b: Self) -> Self {
                <$t>::from_f32((self.to_f32() / b.to_f32()).trunc())
            }
            fn pow(self, b: Self) -> Self {
                <$t>::from_f32(self.to_f32().powf(b.to_f32()))
            }
            fn maximum(self, b: Self) -> Self {
                <$t>::from_f32(Arith::maximum(self.to_f32(), b.to_f32()))
            }
            fn minimum(self, b: Self) -> Self {
                <$t>::from_f32(Arith::minimum(self.to_f32(), b.to_f32()))
            }
            no_float_bitwise!();
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
        }
    };
}
half_arith!(f16);
half_arith!(bf16);

macro_rules! int_arith {
    ($t:ty) => {
        // the sign tests are always false for u8, and right for it
        #[allow(unused_comparisons)]
        impl Arith for $t {
            #[inline(always)]
            fn add(self, b: Self) -> Self {
                self.wrapping_add(b)
            }
            #[inline(always)]
            fn sub(self, b: Self) -> Self {
                self.wrapping_sub(b)
            }
            #[inline(always)]
            fn mul(self, b: Self) -> Self {
                self.wrapping_mul(b)
            }
            fn div(self, b: Self) -> Self {
                // unused: integer true division is computed in float32
                if b == 0 { 0 } else { self.wrapping_div(b) }
            }
            /// Python's floor division; `MIN // -1` wraps to MIN as PyTorch's does.
            #[inline(always)]
            fn floor_div(self, b: Self) -> Self {
                if b == 0 {
                    return 0;
                }
                let q = self.wrapping_div(b);
                if self.wrapping_rem(b) != 0 && ((self < 0) != (b < 0)) {
                    q.wrapping_sub(1)
                } else {
                    q
                }
            }
            #[inline(always)]
            fn rem(self, b: Self) -> Self {
                if b == 0 {
                    return 0;
                }
                let r = self.wrapping_rem(b);
                if r != 0 && ((r < 0) != (b < 0)) {
                    r.wrapping_add(b)
                } else {
                    r
                }
            }
            #[inline(always)]
            fn fmod(self, b: Self) -> Self {
                if b == 0 { 0 } else { self.wrapping_rem(b) }
            }
            #[inline(always)]
            fn trunc_div(self, b: Self) -> Self {
                if b == 0 { 0 } else { self.wrapping_div(b) }
            }
            /// c10's powi: negative exponents give 0 except for bases 1 and -1.
            fn pow(self, b: Self) -> Self {
                if b < 0 {
                    return if self == 1 {
                        1
                    } else if self == (0 as $t).wrapping_sub(1) && self < 0 {
                        if b % 2 == 0 { 1 } else { self }
                    } else {
                        0
                    };
                }
                let (mut base, mut e, mut acc): ($t, $t, $t) = (self, b, 1);
                while e != 0 {
                    if e & 1 == 1 {
                        acc = acc.wrapping_mul(base);
                    }
                    base = base.wrapping_mul(base);
                    e >>= 1;
                }
                acc
            }
            #[inline(always)]
            fn maximum(self, b: Self) -> Self {
                Ord::max(self, b)
            }
            #[inline(always)]
            fn minimum(self, b: Self) -> Self {
                Ord::min(self, b)
            }
            #[inline(always)]
            fn bitand(self, b: Self) -> Self {
                self & b
            }
            #[inline(always)]
            fn bitor(self, b: Self) -> Self {
                self | b
            }
            #[inline(always)]
            fn bitxor(self, b: Self) -> Self {
                self ^ b
            }
        }
    };
}
int_arith!(i64);
int_arith!(i32);
int_arith!(i16);
int_arith!(i8);
int_arith!(u8);

impl Arith for bool {
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        self || b
    }
    fn sub(self, b: Self) -> Self {
        // the front half rejects bool - bool; logical xor is the nearest meaning
        self != b
    }
    #[inline(always)]
    fn mul(self, b: Self) -> Self {
        self && b
    }
    fn div(self, b: Self) -> Self {
        self && b
    }
    fn floor_div(self, b: Self) -> Self {
        self && b
    }
    fn fmod(self, _: Self) -> Self {
        false
    }
    fn trunc_div(self, b: Self) -> Self {
        self && b
    }
    fn rem(self, _: Self) -> Self {
        false
    }
    fn pow(self, b: Self) -> Self {
        self || !b
    }
    fn maximum(self, b: Self) -> Self {
        self || b
    }
    fn minimum(self, b: Self) -> Self {
        self && b
    }
    fn bitand(self, b: Self) -> Self {
        self && b
    }
    fn bitor(self, b: Self) -> Self {
        self || b
    }
    fn bitxor(self, b: Self) -> Self {
        self != b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_wrap_and_floor_like_pytorch() {
        // torch 2.15: tensor([-2**63]) // -1 == tensor([-2**63]); % -1 == 0
        assert_eq!(i64::MIN.floor_div(-1), i64::MIN);
        assert_eq!(i64::MIN.rem(-1), 0);
        assert_eq!((-7i64).floor_div(2), -4);
        assert_eq!((-7i64).rem(2), 1);
        assert_eq!(7i64.rem(-2), -1);
        assert_eq!((1i64 << 62).mul(4), 0);
        assert_eq!(100i8.mul(3), 44);
        assert_eq!(Arith::pow(3i32, 40), 689956897);
        assert_eq!(Arith::pow(2i64, -1), 0);
        assert_eq!(Arith::pow(-1i64, -3), -1);
        assert_eq!(Arith::pow(-1i64, -2), 1);
        assert_eq!(Arith::pow(200u8, 2), 64);
    }

    #[test]
    fn floats_follow_c10() {
        assert_eq!(div_floor_f64(7.0, 2.0), 3.0);
        assert_eq!(div_floor_f64(-7.0, 2.0), -4.0);
        assert_eq!(div_floor_f64(1.0, 0.0), f64::INFINITY);
        assert!(div_floor_f64(-0.5, 2.0) == -1.0);
        assert_eq!(div_floor_f32(0.5, -2.0), -1.0);
        assert!(div_floor_f64(0.0, -2.0).is_sign_negative());
        assert_eq!(Arith::rem(-7.5f32, 2.0), 0.5);
        assert!(Arith::maximum(1.0f32, f32::NAN).is_nan());
    }
}
