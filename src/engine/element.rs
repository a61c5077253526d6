//! The element types of host storage, one Rust type per dtype, and the conversions between
//! them exactly as PyTorch's `c10::convert` does them on x86-64.

use crate::engine::dtype::{DType, Scalar, f64_to_i32, f64_to_i64};
use half::{bf16, f16};

/// A value on its way from one element type to another: integers stay exact (an int64 is
/// never squeezed through an f64), floats carry their own value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    Bool(bool),
    Int(i64),
    Float(f64),
}

/// One dtype's element type.
pub trait Element:
    Copy + Default + PartialEq + PartialOrd + Send + Sync + std::fmt::Debug + 'static
{
    const DTYPE: DType;
    const ZERO: Self;
    const ONE: Self;
    fn to_num(self) -> Num;
    fn from_num(n: Num) -> Self;
    /// The value widened to f64 (exact for every type but int64 beyond 2^53).
    fn to_f64(self) -> f64;
    /// Python's view of an element (`item()`, `tolist()`).
    fn to_scalar(self) -> Scalar {
        match self.to_num() {
            Num::Bool(b) => Scalar::Bool(b),
            Num::Int(i) => Scalar::Int(i),
            Num::Float(f) => Scalar::Float(f),
        }
    }
    /// A Python number converted to this type (PyTorch converts a wrapped number with the
    /// same rules as an element).
    fn from_scalar(s: Scalar) -> Self {
        Self::from_num(match s {
            Scalar::Bool(b) => Num::Bool(b),
            Scalar::Int(i) => Num::Int(i),
            Scalar::Float(f) => Num::Float(f),
        })
    }
    fn from_f64(v: f64) -> Self {
        Self::from_num(Num::Float(v))
    }
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }
}

/// `a` converted to `B` as PyTorch converts between dtypes.
#[inline(always)]
pub fn convert<A: Element, B: Element>(a: A) -> B {
    B::from_num(a.to_num())
}

impl Element for bool {
    const DTYPE: DType = DType::Bool;
    const ZERO: Self = false;
    const ONE: Self = true;
    #[inline(always)]
    fn to_num(self) -> Num {
        Num::Bool(self)
    }
    #[inline(always)]
    fn from_num(n: Num) -> Self {
        match n {
            Num::Bool(b) => b,
            Num::Int(i) => i != 0,
            Num::Float(f) => f != 0.0,
        }
    }
    fn to_f64(self) -> f64 {
        self as u8 as f64
    }
}

macro_rules! int_element {
    ($t:ty, $dt:expr, $from_float:expr) => {
        impl Element for $t {
            const DTYPE: DType = $dt;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline(always)]
            fn to_num(self) -> Num {
                Num::Int(self as i64)
            }
            #[inline(always)]
            fn from_num(n: Num) -> Self {
                match n {
                    Num::Bool(b) => b as $t,
                    // integer to integer keeps the low bits
                    Num::Int(i) => i as $t,
                    Num::Float(f) => $from_float(f),
                }
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    };
}
int_element!(i64, DType::Int64, f64_to_i64);
int_element!(i32, DType::Int32, f64_to_i32);
int_element!(i16, DType::Int16, |f| f64_to_i32(f) as i16);
int_element!(i8, DType::Int8, |f| f64_to_i32(f) as i8);
int_element!(u8, DType::UInt8, |f| f64_to_i32(f) as u8);

impl Element for f64 {
    const DTYPE: DType = DType::Float64;
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    #[inline(always)]
    fn to_num(self) -> Num {
        Num::Float(self)
    }
    #[inline(always)]
    fn from_num(n: Num) -> Self {
        match n {
            Num::Bool(b) => b as u8 as f64,
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
    fn to_f64(self) -> f64 {
        self
    }
}

impl Element for f32 {
    const DTYPE: DType = DType::Float32;
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    #[inline(always)]
    fn to_num(self) -> Num {
        Num::Float(self as f64)
    }
    #[inline(always)]
    fn from_num(n: Num) -> Self {
        match n {
            Num::Bool(b) => b as u8 as f32,
            // one rounding from the integer, as static_cast<float>(int64_t)
            Num::Int(i) => i as f32,
            Num::Float(f) => f as f32,
        }
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
}

macro_rules! half_element {
    ($t:ty, $dt:expr) => {
        impl Element for $t {
            const DTYPE: DType = $dt;
            const ZERO: Self = <$t>::ZERO;
            const ONE: Self = <$t>::ONE;
            #[inline(always)]
            fn to_num(self) -> Num {
                Num::Float(self.to_f64())
            }
            /// Through float32, as c10::Half(float) and c10::BFloat16(float) are built from
            /// any other type.
            #[inline(always)]
            fn from_num(n: Num) -> Self {
                <$t>::from_f32(match n {
                    Num::Bool(b) => b as u8 as f32,
                    Num::Int(i) => i as f32,
                    Num::Float(f) => f as f32,
                })
            }
            fn to_f64(self) -> f64 {
                <$t>::to_f64(self)
            }
        }
    };
}
half_element!(f16, DType::Float16);
half_element!(bf16, DType::BFloat16);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_follow_pytorch() {
        // recorded with torch 2.15: x.to(dtype) for these float32 values
        let x: [f32; 10] = [
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            1e10,
            -1e10,
            3e9,
            70000.7,
            -129.9,
            255.5,
            300.2,
        ];
        let i64s: Vec<i64> = x.iter().map(|&v| convert(v)).collect();
        let m = i64::MIN;
        assert_eq!(
            i64s,
            vec![
                m,
                m,
                m,
                10000000000,
                -10000000000,
                3000000000,
                70000,
                -129,
                255,
                300
            ]
        );
        let i32s: Vec<i32> = x.iter().map(|&v| convert(v)).collect();
        let n = i32::MIN;
        assert_eq!(i32s, vec![n, n, n, n, n, n, 70000, -129, 255, 300]);
        let i16s: Vec<i16> = x.iter().map(|&v| convert(v)).collect();
        assert_eq!(i16s, vec![0, 0, 0, 0, 0, 0, 4464, -129, 255, 300]);
        let i8s: Vec<i8> = x.iter().map(|&v| convert(v)).collect();
        assert_eq!(i8s, vec![0, 0, 0, 0, 0, 0, 112, 127, -1, 44]);
        let u8s: Vec<u8> = x.iter().map(|&v| convert(v)).collect();
        assert_eq!(u8s, vec![0, 0, 0, 0, 0, 0, 112, 127, 255, 44]);
        assert!(x.iter().all(|&v| convert::<f32, bool>(v)));
        // int64 stays exact and rounds once into float32
        let big: i64 = (1 << 62) + 1;
        assert_eq!(convert::<i64, i64>(big), big);
        assert_eq!(convert::<i64, f32>(big), 4.611686e18);
        assert_eq!(convert::<i64, u8>(-1), 255);
        assert_eq!(convert::<i64, u8>(300), 44);
        // half types round to nearest even
        assert_eq!(convert::<f32, f16>(65520.0).to_f64(), f64::INFINITY);
        assert_eq!(convert::<f32, bf16>(1.0 + 1.0 / 256.0).to_f64(), 1.0);
        assert_eq!(convert::<f64, f16>(1.7).to_f64(), 1.7001953125);
    }
}
