//! Data types, their names, and PyTorch's type-promotion rules.

use std::fmt;

/// A tensor element type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    Bool,
    UInt8,
    Int8,
    Int16,
    Int32,
    Int64,
    /// IEEE binary16.
    Float16,
    /// bfloat16 (float32's exponent, 8 bits of mantissa).
    BFloat16,
    Float32,
    Float64,
}

/// The kind of a dtype, for promotion: bool < integral < floating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Category {
    Bool,
    Integral,
    Floating,
}

thread_local! {
    /// `torch.set_default_dtype`'s choice for the run on this thread (float32 until a script
    /// sets it; each run starts afresh: [`reset_default_float`]).
    static DEFAULT_FLOAT: std::cell::Cell<DType> = const { std::cell::Cell::new(DType::Float32) };
}

/// The default floating dtype (`torch.get_default_dtype()`): what a Python float becomes,
/// and what factory functions make without `dtype=`.
pub(crate) fn default_float() -> DType {
    DEFAULT_FLOAT.with(|d| d.get())
}

/// `torch.set_default_dtype(dt)` (the bindings check that `dt` is float32 or float64 as
/// PyTorch's CPU build allows, plus float16/bfloat16).
pub(crate) fn set_default_float(dt: DType) {
    DEFAULT_FLOAT.with(|d| d.set(dt));
}

/// Back to float32, as a fresh PyTorch process starts.
pub(crate) fn reset_default_float() {
    set_default_float(DType::Float32);
}

impl DType {
    pub const ALL: [DType; 10] = [
        DType::Bool,
        DType::UInt8,
        DType::Int8,
        DType::Int16,
        DType::Int32,
        DType::Int64,
        DType::Float16,
        DType::BFloat16,
        DType::Float32,
        DType::Float64,
    ];

    /// `float32`, `int64`, ... (what follows `torch.`).
    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::UInt8 => "uint8",
            DType::Int8 => "int8",
            DType::Int16 => "int16",
            DType::Int32 => "int32",
            DType::Int64 => "int64",
            DType::Float16 => "float16",
            DType::BFloat16 => "bfloat16",
            DType::Float32 => "float32",
            DType::Float64 => "float64",
        }
    }

    /// Accepts `float32`, `float`, `torch.float32`, `long`, `int`, `double`, `half`, ...
    pub fn from_name(name: &str) -> Option<DType> {
        let n = name.strip_prefix("torch.").unwrap_or(name);
        Some(match n {
            "bool" => DType::Bool,
            "uint8" => DType::UInt8,
            "int8" => DType::Int8,
            "int16" | "short" => DType::Int16,
            "int32" | "int" => DType::Int32,
            "int64" | "long" => DType::Int64,
            "float16" | "half" => DType::Float16,
            "bfloat16" => DType::BFloat16,
            "float32" | "float" => DType::Float32,
            "float64" | "double" => DType::Float64,
            _ => return None,
        })
    }

    /// The C++ scalar-type name PyTorch uses in some messages (`Float`, `Long`, `Double`).
    pub(crate) fn scalar_name(self) -> &'static str {
        match self {
            DType::Bool => "Bool",
            DType::UInt8 => "Byte",
            DType::Int8 => "Char",
            DType::Int16 => "Short",
            DType::Int32 => "Int",
            DType::Int64 => "Long",
            DType::Float16 => "Half",
            DType::BFloat16 => "BFloat16",
            DType::Float32 => "Float",
            DType::Float64 => "Double",
        }
    }

    /// The lower-case C type name used by matmul's dtype message (`float != double`).
    pub(crate) fn c_name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::UInt8 => "unsigned char",
            DType::Int8 => "signed char",
            DType::Int16 => "short int",
            DType::Int32 => "int",
            DType::Int64 => "long int",
            DType::Float16 => "c10::Half",
            DType::BFloat16 => "c10::BFloat16",
            DType::Float32 => "float",
            DType::Float64 => "double",
        }
    }

    pub fn element_size(self) -> usize {
        match self {
            DType::Bool | DType::UInt8 | DType::Int8 => 1,
            DType::Float16 | DType::BFloat16 | DType::Int16 => 2,
            DType::Int32 | DType::Float32 => 4,
            DType::Int64 | DType::Float64 => 8,
        }
    }

    pub(crate) fn category(self) -> Category {
        match self {
            DType::Bool => Category::Bool,
            DType::UInt8 | DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => {
                Category::Integral
            }
            DType::Float16 | DType::BFloat16 | DType::Float32 | DType::Float64 => {
                Category::Floating
            }
        }
    }

    pub(crate) fn is_floating_point(self) -> bool {
        self.category() == Category::Floating
    }

    pub(crate) fn is_integral(self) -> bool {
        self.category() == Category::Integral
    }

    /// Normalise a value to what an element of this dtype holds, with PyTorch's
    /// conversions (`c10::convert`, as x86-64 compiles them): rounding to nearest even for
    /// the floating types (float16 and bfloat16 through float32), and for the integers a
    /// truncation toward zero where NaN or an out-of-range value becomes the minimum of
    /// int64 (int64) or int32 (the narrower integers, which then keep the low bits), bool as
    /// 0/1.
    #[inline]
    pub fn cast(self, v: f64) -> f64 {
        match self {
            DType::Float64 => v,
            DType::Float32 => v as f32 as f64,
            DType::Float16 => half::f16::from_f32(v as f32).to_f64(),
            DType::BFloat16 => half::bf16::from_f32(v as f32).to_f64(),
            DType::Int64 => f64_to_i64(v) as f64,
            DType::Int32 => f64_to_i32(v) as f64,
            DType::Int16 => f64_to_i32(v) as i16 as f64,
            DType::Int8 => f64_to_i32(v) as i8 as f64,
            DType::UInt8 => f64_to_i32(v) as u8 as f64,
            DType::Bool => {
                if v != 0.0 {
                    1.0
                } else {
                    0.0
                }
            }
        }
    }
}

/// `static_cast<int64_t>(double)` on x86-64 (cvttsd2si): truncation, and the "integer
/// indefinite" value i64::MIN for NaN and values out of range.
#[inline]
pub(crate) fn f64_to_i64(v: f64) -> i64 {
    // 2^63 is the first value out of range; -2^63 itself is in range.
    if v.is_nan() || !(i64::MIN as f64..-(i64::MIN as f64)).contains(&v) {
        i64::MIN
    } else {
        v as i64
    }
}

/// `static_cast<int32_t>(double)` on x86-64: truncation, i32::MIN for NaN and out of range.
/// The narrower integer types go through it and keep the low bits, as PyTorch's do.
#[inline]
pub(crate) fn f64_to_i32(v: f64) -> i32 {
    if v.is_nan() || v >= 2_147_483_648.0 || v <= -2_147_483_649.0 {
        i32::MIN
    } else {
        v as i32
    }
}

/// `v` rounded to the nearest IEEE binary16 value through float32, as c10::Half converts a
/// double.
pub(crate) fn round_f16(v: f64) -> f64 {
    half::f16::from_f32(v as f32).to_f64()
}

impl fmt::Display for DType {
    /// `torch.float32` (both str and repr of a PyTorch dtype).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "torch.{}", self.name())
    }
}

/// `torch.promote_types(a, b)`.
pub(crate) fn promote_types(a: DType, b: DType) -> DType {
    use DType::*;
    if a == b {
        return a;
    }
    let (ca, cb) = (a.category(), b.category());
    if ca != cb {
        return if ca > cb { a } else { b };
    }
    match ca {
        Category::Bool => Bool,
        // neither half type holds the other
        Category::Floating if a.element_size() == 2 && b.element_size() == 2 => Float32,
        // uint8 and int8 need a type that holds both
        Category::Integral if a.element_size() == 1 && b.element_size() == 1 => Int16,
        Category::Integral | Category::Floating => {
            if a.element_size() >= b.element_size() {
                a
            } else {
                b
            }
        }
    }
}

/// A Python number taking part in an op (a "wrapped number" in ATen).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    Float(f64),
}

impl Scalar {
    pub fn as_f64(self) -> f64 {
        match self {
            Scalar::Bool(b) => b as i64 as f64,
            Scalar::Int(i) => i as f64,
            Scalar::Float(f) => f,
        }
    }
    /// The dtype a Python scalar has as a wrapped number (floats map to the default dtype).
    pub fn dtype(self) -> DType {
        match self {
            Scalar::Bool(_) => DType::Bool,
            Scalar::Int(_) => DType::Int64,
            Scalar::Float(_) => default_float(),
        }
    }
    /// The Python value an element of `dtype` reads back as (`item()`, `tolist()`).
    pub(crate) fn from_element(dtype: DType, v: f64) -> Scalar {
        match dtype.category() {
            Category::Bool => Scalar::Bool(v != 0.0),
            Category::Integral => Scalar::Int(v as i64),
            Category::Floating => Scalar::Float(v),
        }
    }
}

/// One operand's contribution to a result type (ATen's ResultTypeState).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ResultType {
    dim: Option<DType>,
    zero_dim: Option<DType>,
    wrapped: Option<DType>,
}

fn promote_opt(a: Option<DType>, b: DType) -> Option<DType> {
    Some(match a {
        None => b,
        Some(a) => promote_types(a, b),
    })
}

fn combine_categories(higher: Option<DType>, lower: Option<DType>) -> Option<DType> {
    let Some(h) = higher else { return lower };
    let Some(l) = lower else { return higher };
    if h.is_floating_point() {
        return Some(h);
    }
    if h == DType::Bool || l.is_floating_point() {
        return Some(promote_types(h, l));
    }
    Some(h)
}

impl ResultType {
    pub(crate) fn new() -> Self {
        Self::default()
    }
    /// A tensor operand with `ndim` dimensions.
    pub(crate) fn tensor(mut self, dtype: DType, ndim: usize) -> Self {
        if ndim == 0 {
            self.zero_dim = promote_opt(self.zero_dim, dtype);
        } else {
            self.dim = promote_opt(self.dim, dtype);
        }
        self
    }
    /// A Python scalar operand.
    pub(crate) fn scalar(mut self, s: Scalar) -> Self {
        self.wrapped = promote_opt(self.wrapped, s.dtype());
        self
    }
    pub(crate) fn result(self) -> DType {
        combine_categories(self.dim, combine_categories(self.zero_dim, self.wrapped))
            .unwrap_or_else(default_float)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn promotion() {
        use DType::*;
        assert_eq!(promote_types(Int64, Float32), Float32);
        assert_eq!(promote_types(UInt8, Int32), Int32);
        assert_eq!(promote_types(Bool, UInt8), UInt8);
        assert_eq!(promote_types(Float32, Float64), Float64);
        assert_eq!(promote_types(UInt8, Int8), Int16);
        assert_eq!(promote_types(Int8, Int16), Int16);
        assert_eq!(round_f16(1.7), 1.7001953125);
        assert_eq!(round_f16(65519.0), 65504.0);
        assert_eq!(round_f16(65520.0), f64::INFINITY);
        assert_eq!(round_f16(1e-8), 0.0);
        let r = |d, s| ResultType::new().tensor(d, 1).scalar(s).result();
        assert_eq!(r(Int64, Scalar::Float(2.5)), Float32);
        assert_eq!(r(Int32, Scalar::Int(5)), Int32);
        assert_eq!(r(Bool, Scalar::Int(5)), Int64);
        assert_eq!(r(Bool, Scalar::Bool(true)), Bool);
        assert_eq!(r(Float64, Scalar::Float(1.0)), Float64);
        assert_eq!(r(UInt8, Scalar::Int(300)), UInt8);
        assert_eq!(
            ResultType::new()
                .tensor(Float32, 1)
                .tensor(Float64, 0)
                .result(),
            Float32
        );
        assert_eq!(
            ResultType::new()
                .tensor(Int64, 1)
                .tensor(Float64, 0)
                .result(),
            Float64
        );
        assert_eq!(
            ResultType::new()
                .tensor(Int64, 0)
                .tensor(Float64, 0)
                .result(),
            Float64
        );
    }
}
