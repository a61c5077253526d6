//! The unary elementwise ops, each defined once.
//!
//! One entry of [`unary_ops!`] below is the whole definition of an op for every device, as
//! candle-core's `UnaryOpT` is: its PyTorch name, its autograd node, which dtypes it takes,
//! the CUDA kernel that computes it (kernels/elementwise.cu, `<name>_<dtype>`), and its host
//! kernels: float32 as ATen's CPU kernels round it (the vectorised SLEEF/glibc split of
//! engine::numerics where ATen vectorises, the scalar function otherwise) and float64 with
//! glibc's double functions. float16 and bfloat16 compute in float32 (ATen's opmath).
//! The integer and bool kernels of the ops that take them, and the backward formulas, follow
//! the same op in host/elementwise.rs and tensor/autograd.rs (docs/engine.md: adding an op).

use super::UnaryOp as Op;
use super::grad::GradAlgebra;
use crate::engine::error::{EngineError, Result};
use crate::engine::numerics::unary::Unary as U;
use crate::engine::numerics::{loss, mkl};

/// Which dtypes an op takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dtypes {
    /// Every dtype, computed in its own (neg, abs, floor, ~, isnan, ...).
    All,
    /// Floats; integers and bool are promoted to the default float first (exp, sin, ...).
    PromoteToFloat,
    /// Floats only: ATen raises for integers (`"silu_cpu" not implemented for 'Long'`)
    /// rather than computing them in float (the fused activations).
    FloatOnly,
}

/// The entry's backward formula with `$a` bound to the algebra and `$o` to the op, else
/// `default`.
macro_rules! backward_or {
    ([], $alg:ident, $me:expr, $default:expr) => {
        $default
    };
    ([$a:ident, $o:ident, $bw:expr], $alg:ident, $me:expr, $default:expr) => {{
        let $a = $alg;
        let $o = $me;
        $bw
    }};
}

/// Whether the entry gives the optional field.
macro_rules! given {
    () => {
        false
    };
    ($($t:tt)+) => {
        true
    };
}

/// `$f(x)` when the entry gives a kernel `$f`, else `default`.
macro_rules! call_or {
    ([], $x:ident, $default:expr) => {
        $default
    };
    ([$f:expr], $x:ident, $default:expr) => {
        ($f)($x)
    };
}

/// Each entry: `Op(params) { name, grad_fn?, dtypes, cuda?, torch?, vector_f32?, f32?, f64?,
/// backward? }`.
/// An op without `grad_fn` never requires grad; without `cuda` a CUDA tensor computes it on the
/// host; `torch: ["name", "alias"]` binds `torch.name` and `Tensor.name` (ops without
/// parameters: the others are reached through their own bindings, e.g. F.leaky_relu);
/// without `f32`/`f64` its float kernel is the dtype-generic one of host/elementwise.rs
/// (`unary_float`: neg, abs, exp, ... the same function for every float dtype).
/// `backward: |a, op| formula` is the derivative (derivatives.yaml's, step for step) over a
/// [`GradAlgebra`] `a`: both of autograd's paths evaluate it (op/grad.rs).
macro_rules! unary_ops {
    ($(
        $(#[doc = $doc:literal])*
        $op:ident $(($($field:ident : $fty:ty),+ $(,)?))? {
            name: $name:literal,
            $(grad_fn: $grad:literal,)?
            dtypes: $dtypes:ident,
            $(cuda: $cuda:literal,)?
            $(torch: [$($torch:literal),+ $(,)?],)?
            $(vector_f32: $vec:expr,)?
            $(f32: $f32:expr,)?
            $(f64: $f64:expr,)?
            $(backward: |$a:ident, $o:ident| $bw:expr,)?
        }
    )*) => {
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub enum UnaryOp {
            $( $(#[doc = $doc])* $op $({ $($field: $fty),+ })?, )*
        }

        impl UnaryOp {
            /// Every CUDA kernel name an entry gives (`cuda:`), in table order.
            #[cfg(test)]
            pub(crate) const CUDA_KERNELS: &[&str] = &[ $( $( $cuda, )? )* ];
            /// The `torch.X` / `Tensor.X` names bound to each op (`torch:`; the signatures
            /// are in src/torch/signatures/*.sig): the bindings are made from this list.
            pub(crate) const TORCH_NAMES: &[(&str, UnaryOp)] = &[ $( $( $( ($torch, UnaryOp::$op), )+ )? )* ];
            /// The in-place forms of those names (`exp_`, `arcsin_`, ...): bound where
            /// PyTorch's signature tables declare them.
            pub(crate) const TORCH_INPLACE_NAMES: &[(&str, UnaryOp)] =
                &[ $( $( $( (concat!($torch, "_"), UnaryOp::$op), )+ )? )* ];
            /// PyTorch's name of the op (errors, the timeline).
            pub fn name(self) -> &'static str {
                match self {
                    $( UnaryOp::$op { .. } => $name, )*
                }
            }
            /// Its autograd node's name; None: the result never requires grad.
            pub fn grad_fn(self) -> Option<&'static str> {
                match self {
                    $( UnaryOp::$op { .. } => None $(.or(Some($grad)))?, )*
                }
            }
            /// Which dtypes it takes.
            pub fn dtypes(self) -> Dtypes {
                match self {
                    $( UnaryOp::$op { .. } => Dtypes::$dtypes, )*
                }
            }
            /// Its kernel's name in kernels/elementwise.cu (the entry is `<name>_<dtype>`);
            /// None: a CUDA tensor computes it on the host.
            pub(crate) fn cuda_kernel(self) -> Option<&'static str> {
                match self {
                    $( UnaryOp::$op { .. } => None $(.or(Some($cuda)))?, )*
                }
            }
            /// The vectorised float32 kernel of engine::numerics that reproduces ATen's bits
            /// (None: each element through [`UnaryOp::f32`] or the generic kernel).
            #[allow(unused_variables)]
            pub(crate) fn vector_f32(self) -> Option<U> {
                match self {
                    $( UnaryOp::$op $({ $($field),+ })? => None $(.or(Some($vec)))?, )*
                }
            }
            /// One float32 element as ATen's scalar code computes it (also the float32
            /// arithmetic of float16 and bfloat16); NaN for an op computed by the generic
            /// kernel.
            #[allow(unused_variables, clippy::redundant_closure_call)]
            pub fn f32(self, x: f32) -> f32 {
                match self {
                    $( UnaryOp::$op $({ $($field),+ })? => call_or!([$($f32)?], x, f32::NAN), )*
                }
            }
            /// One float64 element (glibc's double functions); NaN as for [`UnaryOp::f32`].
            #[allow(unused_variables, clippy::redundant_closure_call)]
            pub fn f64(self, x: f64) -> f64 {
                match self {
                    $( UnaryOp::$op $({ $($field),+ })? => call_or!([$($f64)?], x, f64::NAN), )*
                }
            }
            /// Whether the entry gives a backward formula (an op with a `grad_fn` and none
            /// leaves its result unattached: backward raises NotImplementedError).
            pub(crate) fn has_backward(self) -> bool {
                match self {
                    $( UnaryOp::$op { .. } => given!($($bw)?), )*
                }
            }
            /// The gradient reaching the op's input, by its entry's `backward:` formula,
            /// evaluated by `alg` (autograd's buffer path or its create_graph Tensor path).
            #[allow(unused_variables)]
            pub fn backward<A: GradAlgebra>(self, alg: &A) -> Result<A::V> {
                match self {
                    $( UnaryOp::$op $({ $($field),+ })? => backward_or!(
                        [$($a, $o, $bw)?], alg, self,
                        Err(EngineError::not_implemented(format!(
                            "the derivative for '{}' is not implemented.", $name
                        )))
                    ), )*
                }
            }
        }
    };
}

unary_ops! {
    Neg {
        name: "neg", grad_fn: "NegBackward0", dtypes: All, cuda: "neg",
        torch: ["neg", "negative"],
        backward: |a, _op| a.unary(Op::Neg, &a.grad()?),
    }
    Abs {
        name: "abs", grad_fn: "AbsBackward0", dtypes: All, cuda: "abs",
        torch: ["abs", "absolute"],
        backward: |a, _op| a.mul(&a.grad()?, &a.unary(Op::Sign, &a.input()?)?),
    }
    Exp {
        name: "exp", grad_fn: "ExpBackward0", dtypes: PromoteToFloat, cuda: "exp",
        torch: ["exp"],
        vector_f32: U::Exp,
        backward: |a, _op| a.mul(&a.grad()?, &a.result()?),
    }
    Log {
        name: "log", grad_fn: "LogBackward0", dtypes: PromoteToFloat, cuda: "log",
        torch: ["log"],
        vector_f32: U::Log,
        backward: |a, _op| a.div(&a.grad()?, &a.input()?),
    }
    Sqrt {
        name: "sqrt", grad_fn: "SqrtBackward0", dtypes: PromoteToFloat, cuda: "sqrt",
        torch: ["sqrt"],
        vector_f32: U::Sqrt,
        backward: |a, _op| a.div(&a.grad()?, &a.mul(2i64, &a.result()?)?),
    }
    Sigmoid {
        name: "sigmoid", grad_fn: "SigmoidBackward0", dtypes: PromoteToFloat, cuda: "sigmoid",
        torch: ["sigmoid"],
        vector_f32: U::Sigmoid,
        backward: |a, op| a.activation_backward(op, &a.grad()?, &a.result()?),
    }
    Tanh {
        name: "tanh", grad_fn: "TanhBackward0", dtypes: PromoteToFloat, cuda: "tanh",
        torch: ["tanh"],
        vector_f32: U::Tanh,
        backward: |a, op| a.activation_backward(op, &a.grad()?, &a.result()?),
    }
    Relu {
        name: "relu", grad_fn: "ReluBackward0", dtypes: All, cuda: "relu",
        torch: ["relu"],
        backward: |a, op| a.activation_backward(op, &a.grad()?, &a.result()?),
    }
    Sin {
        name: "sin", grad_fn: "SinBackward0", dtypes: PromoteToFloat, cuda: "sin",
        torch: ["sin"],
        vector_f32: U::Sin,
        backward: |a, _op| a.mul(&a.grad()?, &a.unary(Op::Cos, &a.input()?)?),
    }
    Cos {
        name: "cos", grad_fn: "CosBackward0", dtypes: PromoteToFloat, cuda: "cos",
        torch: ["cos"],
        vector_f32: U::Cos,
        backward: |a, _op| {
            let s = a.unary(Op::Sin, &a.input()?)?;
            a.mul(&a.grad()?, &a.unary(Op::Neg, &s)?)
        },
    }
    Floor {
        name: "floor", grad_fn: "FloorBackward0", dtypes: All, cuda: "floor",
        torch: ["floor"],
        backward: |a, _op| a.zeros(),
    }
    Ceil {
        name: "ceil", grad_fn: "CeilBackward0", dtypes: All, cuda: "ceil",
        torch: ["ceil"],
        backward: |a, _op| a.zeros(),
    }
    Round {
        name: "round", dtypes: All,
    }
    Sign {
        name: "sign", grad_fn: "SignBackward0", dtypes: All,
        torch: ["sign"],
        backward: |a, _op| a.zeros(),
    }
    Reciprocal {
        name: "reciprocal", grad_fn: "ReciprocalBackward0", dtypes: PromoteToFloat,
        torch: ["reciprocal"],
        vector_f32: U::Reciprocal,
        backward: |a, _op| {
            let y = a.result()?;
            let yy = a.mul(&y, &y)?;
            a.mul(&a.unary(Op::Neg, &a.grad()?)?, &yy)
        },
    }
    LogicalNot {
        name: "logical_not", dtypes: All, cuda: "logical_not",
        torch: ["logical_not"],
    }
    /// `~`
    BitNot {
        name: "bitwise_not", dtypes: All,
    }
    IsNan {
        name: "isnan", dtypes: All,
        torch: ["isnan"],
    }
    IsFinite {
        name: "isfinite", dtypes: All,
        torch: ["isfinite"],
    }
    Log2 {
        name: "log2", grad_fn: "Log2Backward0", dtypes: PromoteToFloat,
        torch: ["log2"],
        vector_f32: U::Log2, f32: mkl::log2, f64: f64::log2,
        backward: |a, _op| a.div(&a.grad()?, &a.mul(&a.input()?, std::f64::consts::LN_2)?),
    }
    Log10 {
        name: "log10", grad_fn: "Log10Backward0", dtypes: PromoteToFloat,
        torch: ["log10"],
        vector_f32: U::Log10, f32: mkl::log10, f64: f64::log10,
        backward: |a, _op| a.div(&a.grad()?, &a.mul(&a.input()?, std::f64::consts::LN_10)?),
    }
    Log1p {
        name: "log1p", grad_fn: "Log1PBackward0", dtypes: PromoteToFloat,
        torch: ["log1p"],
        vector_f32: U::Log1p, f32: |x| U::Log1p.scalar(x), f64: f64::ln_1p,
        backward: |a, _op| a.div(&a.grad()?, &a.add(&a.input()?, 1i64)?),
    }
    Expm1 {
        name: "expm1", grad_fn: "Expm1Backward0", dtypes: PromoteToFloat,
        torch: ["expm1"],
        vector_f32: U::Expm1, f32: |x| U::Expm1.scalar(x), f64: f64::exp_m1,
        backward: |a, _op| a.mul(&a.grad()?, &a.add(&a.result()?, 1i64)?),
    }
    Tan {
        name: "tan", grad_fn: "TanBackward0", dtypes: PromoteToFloat,
        torch: ["tan"],
        vector_f32: U::Tan, f32: mkl::tan, f64: f64::tan,
        backward: |a, _op| {
            let sq = a.pow(&a.result()?, 2i64)?;
            a.mul(&a.grad()?, &a.add(1i64, &sq)?)
        },
    }
    // MKL's vmsAsin/Acos/Atan: correctly rounded stand-ins
    Asin {
        name: "asin", grad_fn: "AsinBackward0", dtypes: PromoteToFloat,
        torch: ["asin", "arcsin"],
        f32: |x: f32| (x as f64).asin() as f32, f64: f64::asin,
        backward: |a, _op| a.mul(&a.grad()?, &one_minus_square_rsqrt(a)?),
    }
    Acos {
        name: "acos", grad_fn: "AcosBackward0", dtypes: PromoteToFloat,
        torch: ["acos", "arccos"],
        f32: |x: f32| (x as f64).acos() as f32, f64: f64::acos,
        backward: |a, _op| a.mul(&a.grad()?, &a.unary(Op::Neg, &one_minus_square_rsqrt(a)?)?),
    }
    Atan {
        name: "atan", grad_fn: "AtanBackward0", dtypes: PromoteToFloat,
        torch: ["atan", "arctan"],
        f32: |x: f32| (x as f64).atan() as f32, f64: f64::atan,
        backward: |a, _op| {
            let x = a.input()?;
            let t = a.add(&a.mul(&x, &x)?, 1i64)?;
            a.div(&a.grad()?, &t)
        },
    }
    // ATen's scalar half: glibc (the AVX2 vector half is SLEEF's sinhf8_u10/coshf8_u10)
    Sinh {
        name: "sinh", grad_fn: "SinhBackward0", dtypes: PromoteToFloat,
        torch: ["sinh"],
        f32: f32::sinh, f64: f64::sinh,
        backward: |a, _op| a.mul(&a.grad()?, &a.unary(Op::Cosh, &a.input()?)?),
    }
    Cosh {
        name: "cosh", grad_fn: "CoshBackward0", dtypes: PromoteToFloat,
        torch: ["cosh"],
        f32: f32::cosh, f64: f64::cosh,
        backward: |a, _op| a.mul(&a.grad()?, &a.unary(Op::Sinh, &a.input()?)?),
    }
    Asinh {
        name: "asinh", grad_fn: "AsinhBackward0", dtypes: PromoteToFloat,
        torch: ["asinh", "arcsinh"],
        f32: f32::asinh, f64: f64::asinh,
        backward: |a, _op| {
            let t = a.add(&a.pow(&a.input()?, 2i64)?, 1i64)?;
            a.mul(&a.grad()?, &a.unary(Op::Rsqrt, &t)?)
        },
    }
    Acosh {
        name: "acosh", grad_fn: "AcoshBackward0", dtypes: PromoteToFloat,
        torch: ["acosh", "arccosh"],
        f32: f32::acosh, f64: f64::acosh,
        backward: |a, _op| {
            let x = a.input()?;
            let t = a.sub(&a.mul(&x, &x)?, 1i64)?;
            a.mul(&a.grad()?, &a.unary(Op::Rsqrt, &t)?)
        },
    }
    Atanh {
        name: "atanh", grad_fn: "AtanhBackward0", dtypes: PromoteToFloat,
        torch: ["atanh", "arctanh"],
        f32: f32::atanh, f64: f64::atanh,
        backward: |a, _op| {
            let d = a.sub(1i64, &a.pow(&a.input()?, 2i64)?)?;
            a.div(&a.mul(&a.grad()?, 1i64)?, &d)
        },
    }
    Rsqrt {
        name: "rsqrt", grad_fn: "RsqrtBackward0", dtypes: PromoteToFloat,
        torch: ["rsqrt"],
        vector_f32: U::Rsqrt, f32: |x| U::Rsqrt.scalar(x), f64: |x: f64| 1.0 / x.sqrt(),
        backward: |a, _op| {
            let cube = a.pow(&a.result()?, 3i64)?;
            a.mul(&a.mul(-0.5, &a.grad()?)?, &cube)
        },
    }
    Erf {
        name: "erf", grad_fn: "ErfBackward0", dtypes: PromoteToFloat,
        torch: ["erf"],
        vector_f32: U::Erf, f32: mkl::erf, f64: erf_f64,
        backward: |a, _op| {
            let e = a.unary(Op::Exp, &a.unary(Op::Neg, &a.pow(&a.input()?, 2i64)?)?)?;
            a.mul(&a.mul(std::f64::consts::FRAC_2_SQRT_PI, &e)?, &a.grad()?)
        },
    }
    Erfc {
        name: "erfc", grad_fn: "ErfcBackward0", dtypes: PromoteToFloat,
        torch: ["erfc"],
        vector_f32: U::Erfc, f32: mkl::erfc, f64: |x| 1.0 - erf_f64(x),
        backward: |a, _op| {
            let e = a.unary(Op::Exp, &a.unary(Op::Neg, &a.pow(&a.input()?, 2i64)?)?)?;
            a.mul(&a.mul(-std::f64::consts::FRAC_2_SQRT_PI, &e)?, &a.grad()?)
        },
    }
    Erfinv {
        name: "erfinv", grad_fn: "ErfinvBackward0", dtypes: PromoteToFloat,
        torch: ["erfinv"],
        f32: erfinv_f32, f64: erfinv_f64,
        backward: |a, _op| {
            let r = a.unary(Op::Erfinv, &a.input()?)?;
            let e = a.unary(Op::Exp, &a.pow(&r, 2i64)?)?;
            let c = std::f64::consts::FRAC_PI_4 * std::f64::consts::FRAC_2_SQRT_PI;
            a.mul(&a.mul(c, &e)?, &a.grad()?)
        },
    }
    /// `F.gelu(x)` (approximate='none')
    Gelu {
        name: "gelu", grad_fn: "GeluBackward0", dtypes: PromoteToFloat,
        vector_f32: U::Gelu, f32: |x| U::Gelu.scalar(x),
        f64: |x: f64| x * 0.5 * (1.0 + erf_f64(x * std::f64::consts::FRAC_1_SQRT_2)),
        backward: |a, op| a.activation_backward(op, &a.grad()?, &a.input()?),
    }
    /// `F.gelu(x, approximate='tanh')`
    GeluTanh {
        name: "gelu", grad_fn: "GeluBackward0", dtypes: PromoteToFloat,
        vector_f32: U::GeluTanh, f32: |x| U::GeluTanh.scalar(x),
        f64: |x: f64| {
            let inner = (2.0 / std::f64::consts::PI).sqrt() * (x + 0.044715 * x * x * x);
            0.5 * x * (1.0 + inner.tanh())
        },
        backward: |a, op| a.activation_backward(op, &a.grad()?, &a.input()?),
    }
    Trunc {
        name: "trunc", grad_fn: "TruncBackward0", dtypes: All,
        torch: ["trunc", "fix"],
        f32: f32::trunc, f64: f64::trunc,
        backward: |a, _op| a.zeros(),
    }
    /// `torch.frac`: x - trunc(x) (exact in every float dtype; integers raise, as ATen's
    /// frac_cpu dispatches floats only)
    Frac {
        name: "frac", grad_fn: "FracBackward0", dtypes: FloatOnly, cuda: "frac",
        torch: ["frac"],
        f32: |x: f32| x - x.trunc(),
        f64: |x: f64| x - x.trunc(),
        backward: |a, _op| a.mul(&a.grad()?, 1i64),
    }
    /// `torch.deg2rad`: one multiply by pi/180, as ATen's mul by a wrapped scalar (float32
    /// and the half types multiply by the constant rounded to float32)
    Deg2Rad {
        name: "deg2rad", grad_fn: "Deg2RadBackward0", dtypes: PromoteToFloat, cuda: "deg2rad",
        torch: ["deg2rad"],
        f32: |x: f32| x * RADIANS_PER_DEGREE as f32,
        f64: |x: f64| x * RADIANS_PER_DEGREE,
        backward: |a, _op| a.mul(&a.grad()?, RADIANS_PER_DEGREE),
    }
    /// `torch.rad2deg`: one multiply by 180/pi (as deg2rad)
    Rad2Deg {
        name: "rad2deg", grad_fn: "Rad2DegBackward0", dtypes: PromoteToFloat, cuda: "rad2deg",
        torch: ["rad2deg"],
        f32: |x: f32| x * DEGREES_PER_RADIAN as f32,
        f64: |x: f64| x * DEGREES_PER_RADIAN,
        backward: |a, _op| a.mul(&a.grad()?, DEGREES_PER_RADIAN),
    }
    // fused activations (Activation.cpp's kernels; parameters as the Python numbers given,
    // rounded to float32 for float32 as ATen's `Scalar::to<float>()`)
    /// `F.silu`
    Silu {
        name: "silu", grad_fn: "SiluBackward0", dtypes: FloatOnly,
        vector_f32: U::Silu, f32: |x| U::Silu.scalar(x),
        f64: |x: f64| x / (1.0 + (-x).exp()),
        backward: |a, op| a.activation_backward(op, &a.grad()?, &a.input()?),
    }
    /// `F.mish`
    Mish {
        name: "mish", grad_fn: "MishBackward0", dtypes: FloatOnly,
        vector_f32: U::Mish, f32: |x| U::Mish.scalar(x),
        f64: |x: f64| x * x.exp().ln_1p().tanh(),
        backward: |a, op| a.activation_backward(op, &a.grad()?, &a.input()?),
    }
    /// `F.hardswish`
    Hardswish {
        name: "hardswish", grad_fn: "HardswishBackward0", dtypes: FloatOnly,
        vector_f32: U::Hardswish, f32: |x| U::Hardswish.scalar(x),
        f64: |x: f64| x * (x + 3.0).clamp(0.0, 6.0) / 6.0,
        backward: |a, op| a.activation_backward(op, &a.grad()?, &a.input()?),
    }
    /// `F.hardsigmoid`
    Hardsigmoid {
        name: "hardsigmoid", grad_fn: "HardsigmoidBackward0", dtypes: FloatOnly,
        vector_f32: U::Hardsigmoid, f32: |x| U::Hardsigmoid.scalar(x),
        f64: |x: f64| (x + 3.0).clamp(0.0, 6.0) / 6.0,
        backward: |a, op| a.activation_backward(op, &a.grad()?, &a.input()?),
    }
    /// `F.logsigmoid` (float32: log_sigmoid_cpu_kernel's vector formula on every element;
    /// host/elementwise.rs runs it over whole chunks)
    LogSigmoid {
        name: "log_sigmoid", grad_fn: "LogSigmoidBackward0", dtypes: FloatOnly,
        f32: |x| loss::log_sigmoid_f32(&[x])[0],
        f64: |x: f64| x.min(0.0) - (-x.abs()).exp().ln_1p(),
        backward: |a, op| a.activation_backward(op, &a.grad()?, &a.input()?),
    }
    /// `F.softplus(beta, threshold)`
    Softplus(beta: f64, threshold: f64) {
        name: "softplus", grad_fn: "SoftplusBackward0", dtypes: FloatOnly,
        vector_f32: U::Softplus { beta: beta as f32, threshold: threshold as f32 },
        f32: |x| U::Softplus { beta: beta as f32, threshold: threshold as f32 }.scalar(x),
        f64: |x: f64| if x * beta > threshold { x } else { (x * beta).exp().ln_1p() / beta },
        backward: |a, op| a.activation_backward(op, &a.grad()?, &a.input()?),
    }
    /// `F.elu(alpha)`; selu and celu are elu with `scale` / `input_scale`
    Elu(alpha: f64, scale: f64, input_scale: f64) {
        name: "elu", grad_fn: "EluBackward0", dtypes: FloatOnly,
        vector_f32: elu_f32(alpha, scale, input_scale),
        f32: |x| elu_f32(alpha, scale, input_scale).scalar(x),
        f64: |x| elu_f64(alpha, scale, input_scale, x),
        backward: |a, op| a.activation_backward(op, &a.grad()?, &a.input()?),
    }
    /// `F.celu(alpha)`: elu(alpha, scale 1, input_scale 1/alpha) with its own node
    Celu(alpha: f64) {
        name: "celu", grad_fn: "CeluBackward0", dtypes: FloatOnly,
        vector_f32: elu_f32(alpha, 1.0, 1.0 / alpha),
        f32: |x| elu_f32(alpha, 1.0, 1.0 / alpha).scalar(x),
        f64: |x| elu_f64(alpha, 1.0, 1.0 / alpha, x),
        backward: |a, op| a.activation_backward(op, &a.grad()?, &a.input()?),
    }
    /// `F.leaky_relu(negative_slope)`
    LeakyRelu(slope: f64) {
        name: "leaky_relu", grad_fn: "LeakyReluBackward0", dtypes: FloatOnly,
        vector_f32: U::LeakyRelu { slope: slope as f32 },
        f32: |x| U::LeakyRelu { slope: slope as f32 }.scalar(x),
        f64: |x: f64| if x > 0.0 { x } else { x * slope },
        backward: |a, op| a.activation_backward(op, &a.grad()?, &a.input()?),
    }
    /// `F.hardtanh(min_val, max_val)` (relu6 is hardtanh(0, 6))
    Hardtanh(min: f64, max: f64) {
        name: "hardtanh", grad_fn: "HardtanhBackward0", dtypes: FloatOnly,
        vector_f32: U::Hardtanh { min: min as f32, max: max as f32 },
        f32: |x| U::Hardtanh { min: min as f32, max: max as f32 }.scalar(x),
        f64: |x: f64| x.max(min).min(max),
        backward: |a, op| a.activation_backward(op, &a.grad()?, &a.input()?),
    }
    /// `torch.logit(eps)` (eps=None is -1, as ATen passes it)
    Logit(eps: f64) {
        name: "logit", grad_fn: "LogitBackward0", dtypes: PromoteToFloat,
        vector_f32: U::Logit { eps: eps as f32 },
        f32: |x| U::Logit { eps: eps as f32 }.scalar(x),
        f64: |x: f64| {
            let x = if eps < 0.0 { x } else { x.max(eps).min(1.0 - eps) };
            if x == 1.0 { f64::INFINITY } else { (x / (1.0 - x)).ln() }
        },
        backward: |a, op| a.activation_backward(op, &a.grad()?, &a.input()?),
    }
}

impl UnaryOp {
    /// Integers are promoted to float before the op (or, for the fused activations,
    /// refused).
    pub fn float_only(self) -> bool {
        self.dtypes() != Dtypes::All
    }
    /// The fused activations: float only, and ATen raises for integer inputs
    /// (`"silu_cpu" not implemented for 'Long'`) rather than computing them in float.
    pub(crate) fn is_activation(self) -> bool {
        self.dtypes() == Dtypes::FloatOnly
    }
    /// celu as the elu it computes (ATen's celu calls elu with input_scale 1/alpha); every
    /// other op as itself.
    pub(crate) fn as_elu(self) -> UnaryOp {
        match self {
            UnaryOp::Celu { alpha } => UnaryOp::Elu {
                alpha,
                scale: 1.0,
                input_scale: 1.0 / alpha,
            },
            op => op,
        }
    }
}

/// `(-x * x + 1).rsqrt()`, asin's and acos's derivative (derivatives.yaml).
fn one_minus_square_rsqrt<A: GradAlgebra>(a: &A) -> Result<A::V> {
    let x = a.input()?;
    let t = a.add(&a.mul(&a.unary(Op::Neg, &x)?, &x)?, 1i64)?;
    a.unary(Op::Rsqrt, &t)
}

/// ATen's M_PI_180 (deg2rad) and M_180_PI (rad2deg): the doubles pi/180 and 180/pi round to.
const RADIANS_PER_DEGREE: f64 = std::f64::consts::PI / 180.0;
const DEGREES_PER_RADIAN: f64 = 180.0 / std::f64::consts::PI;

/// elu's float32 kernel, its parameters rounded to float32 as ATen's `Scalar::to<float>()`.
fn elu_f32(alpha: f64, scale: f64, input_scale: f64) -> U {
    U::Elu {
        alpha: alpha as f32,
        scale: scale as f32,
        input_scale: input_scale as f32,
    }
}

fn elu_f64(alpha: f64, scale: f64, input_scale: f64, x: f64) -> f64 {
    if x <= 0.0 {
        ((x * input_scale).exp() - 1.0) * (alpha * scale)
    } else {
        x * scale
    }
}

unsafe extern "C" {
    #[link_name = "erf"]
    fn libm_erf(x: f64) -> f64;
}

/// glibc's double erf.
pub(super) fn erf_f64(x: f64) -> f64 {
    // SAFETY: erf is a pure libm function of one double; it reads no memory.
    unsafe { libm_erf(x) }
}

/// float32 erfinv as PyTorch 2.15's CPU kernel computes it: `calc_erfinv` (Math.h: a rational
/// first guess, two Newton steps) in double with glibc's erf/exp/log, rounded once (measured:
/// the float instantiation, with or without FMA, differs from PyTorch on a quarter of inputs
/// in (-1, 1); the double one on none).
fn erfinv_f32(y: f32) -> f32 {
    erfinv_f64(y as f64) as f32
}

/// ATen's `calc_erfinv` in double.
fn erfinv_f64(y: f64) -> f64 {
    const A: [f64; 4] = [0.886226899, -1.645349621, 0.914624893, -0.140543331];
    const B: [f64; 4] = [-2.118377725, 1.442710462, -0.329097515, 0.012229801];
    const C: [f64; 4] = [-1.970840454, -1.624906493, 3.429567803, 1.641345311];
    const D: [f64; 2] = [3.543889200, 1.637067800];
    let ya = y.abs();
    if ya > 1.0 {
        return f64::NAN;
    }
    if ya == 1.0 {
        return f64::INFINITY.copysign(y);
    }
    let mut x = if ya <= 0.7 {
        let z = y * y;
        let num = ((A[3] * z + A[2]) * z + A[1]) * z + A[0];
        let dem = (((B[3] * z + B[2]) * z + B[1]) * z + B[0]) * z + 1.0;
        y * num / dem
    } else {
        let z = (-((1.0 - ya) / 2.0).ln()).sqrt();
        let num = ((C[3] * z + C[2]) * z + C[1]) * z + C[0];
        let dem = (D[1] * z + D[0]) * z + 1.0;
        num.copysign(y) / dem
    };
    let k = 2.0 / std::f64::consts::PI.sqrt();
    for _ in 0..2 {
        x -= (erf_f64(x) - y) / (k * (-x * x).exp());
    }
    x
}
