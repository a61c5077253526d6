//! Elementwise math of the floating types, and the unary ops of the integer types.
//!
//! float32 is computed in float32 and float64 in float64; float16 and bfloat16 go through
//! float32 and round back, as PyTorch's CPU kernels do (they load reduced types into float
//! vectors). The float32 transcendental functions here use the platform's `expf`/`logf`/...;
//! PyTorch uses SLEEF's vectorised versions, which may differ in the last bit.

use super::arith::Arith;
use half::{bf16, f16};

/// The unary math of one floating type.
pub(crate) trait Float: Arith {
    fn exp(self) -> Self;
    fn ln(self) -> Self;
    fn sqrt(self) -> Self;
    fn tanh(self) -> Self;
    fn sigmoid(self) -> Self;
    fn sin(self) -> Self;
    fn cos(self) -> Self;
    fn floor(self) -> Self;
    fn ceil(self) -> Self;
    /// Round half to even, as torch.round.
    fn round(self) -> Self;
    fn abs(self) -> Self;
    fn neg(self) -> Self;
    /// -1, 0 or 1 (NaN and ±0 stay themselves).
    fn sign(self) -> Self;
    fn recip(self) -> Self;
    /// max(x, 0), NaN kept.
    fn relu(self) -> Self;
    fn is_finite(self) -> bool;
    /// The value as f32 / from f32 (for reduced types' float32 arithmetic).
    fn to_f32(self) -> f32;
    fn from_f32(v: f32) -> Self;
}

macro_rules! native_float {
    ($t:ty) => {
        impl Float for $t {
            #[inline(always)]
            fn exp(self) -> Self {
                <$t>::exp(self)
            }
            #[inline(always)]
            fn ln(self) -> Self {
                <$t>::ln(self)
            }
            #[inline(always)]
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            #[inline(always)]
            fn tanh(self) -> Self {
                <$t>::tanh(self)
            }
            #[inline(always)]
            fn sigmoid(self) -> Self {
                1.0 / (1.0 + <$t>::exp(-self))
            }
            #[inline(always)]
            fn sin(self) -> Self {
                <$t>::sin(self)
            }
            #[inline(always)]
            fn cos(self) -> Self {
                <$t>::cos(self)
            }
            #[inline(always)]
            fn floor(self) -> Self {
                <$t>::floor(self)
            }
            #[inline(always)]
            fn ceil(self) -> Self {
                <$t>::ceil(self)
            }
            #[inline(always)]
            fn round(self) -> Self {
                <$t>::round_ties_even(self)
            }
            #[inline(always)]
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
            #[inline(always)]
            fn neg(self) -> Self {
                -self
            }
            #[inline(always)]
            fn sign(self) -> Self {
                if self > 0.0 {
                    1.0
                } else if self < 0.0 {
                    -1.0
                } else {
                    self
                }
            }
            #[inline(always)]
            fn recip(self) -> Self {
                1.0 / self
            }
            #[inline(always)]
            fn relu(self) -> Self {
                // NaN > 0 is false, so test the negative side to keep NaN
                if self < 0.0 { 0.0 } else { self }
            }
            #[inline(always)]
            fn is_finite(self) -> bool {
                <$t>::is_finite(self)
            }
            #[inline(always)]
            fn to_f32(self) -> f32 {
                self as f32
            }
            #[inline(always)]
            fn from_f32(v: f32) -> Self {
                v as $t
            }
        }
    };
}
native_float!(f32);
native_float!(f64);

macro_rules! reduced_float {
    ($t:ty) => {
        impl Float for $t {
            fn exp(self) -> Self {
                <$t>::from_f32(Float::exp(self.to_f32()))
            }
            fn ln(self) -> Self {
                <$t>::from_f32(Float::ln(self.to_f32()))
            }
            fn sqrt(self) -> Self {
                <$t>::from_f32(Float::sqrt(self.to_f32()))
            }
            fn tanh(self) -> Self {
                <$t>::from_f32(Float::tanh(self.to_f32()))
            }
            fn sigmoid(self) -> Self {
                <$t>::from_f32(Float::sigmoid(self.to_f32()))
            }
            fn sin(self) -> Self {
                <$t>::from_f32(Float::sin(self.to_f32()))
            }
            fn cos(self) -> Self {
                <$t>::from_f32(Float::cos(self.to_f32()))
            }
            fn floor(self) -> Self {
                <$t>::from_f32(Float::floor(self.to_f32()))
            }
            fn ceil(self) -> Self {
                <$t>::from_f32(Float::ceil(self.to_f32()))
            }
            fn round(self) -> Self {
                <$t>::from_f32(Float::round(self.to_f32()))
            }
            fn abs(self) -> Self {
                <$t>::from_f32(Float::abs(self.to_f32()))
            }
            fn neg(self) -> Self {
                -self
            }
            fn sign(self) -> Self {
                <$t>::from_f32(Float::sign(self.to_f32()))
            }
            fn recip(self) -> Self {
                <$t>::from_f32(Float::recip(self.to_f32()))
            }
            fn relu(self) -> Self {
                <$t>::from_f32(Float::relu(self.to_f32()))
            }
            fn is_finite(self) -> bool {
                <$t>::is_finite(self)
            }
            fn to_f32(self) -> f32 {
                <$t>::to_f32(self)
            }
            fn from_f32(v: f32) -> Self {
                <$t>::from_f32(v)
            }
        }
    };
}
reduced_float!(f16);
reduced_float!(bf16);

/// The unary ops of an integer type (wrapping, as PyTorch's integer kernels).
pub(crate) trait Int: Arith + Ord {
    fn neg(self) -> Self;
    fn abs(self) -> Self;
    fn sign(self) -> Self;
    fn not(self) -> Self;
}

macro_rules! signed_int {
    ($t:ty) => {
        impl Int for $t {
            #[inline(always)]
            fn neg(self) -> Self {
                self.wrapping_neg()
            }
            #[inline(always)]
            fn abs(self) -> Self {
                self.wrapping_abs()
            }
            #[inline(always)]
            fn sign(self) -> Self {
                self.signum()
            }
            #[inline(always)]
            fn not(self) -> Self {
                !self
            }
        }
    };
}
signed_int!(i64);
signed_int!(i32);
signed_int!(i16);
signed_int!(i8);

impl Int for u8 {
    fn neg(self) -> Self {
        self.wrapping_neg()
    }
    fn abs(self) -> Self {
        self
    }
    fn sign(self) -> Self {
        self.min(1)
    }
    fn not(self) -> Self {
        !self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_ops_keep_nan_and_round_half_even() {
        assert!(Float::relu(f32::NAN).is_nan());
        assert_eq!(Float::relu(-2.0f32), 0.0);
        assert_eq!(Float::round(2.5f64), 2.0);
        assert_eq!(Float::round(-3.5f32), -4.0);
        assert!(Float::sign(-0.0f32).is_sign_negative());
        assert_eq!(
            Float::exp(bf16::from_f32(1.0)),
            bf16::from_f32(std::f32::consts::E)
        );
        assert_eq!(Int::abs(i64::MIN), i64::MIN);
        assert_eq!(Int::neg(1u8), 255);
    }
}
