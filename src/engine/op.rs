//! The ops' vocabulary, shared by the front halves (`tensor/`) and the devices' back halves
//! (`backend.rs`): which elementwise function, which loss reduction.

use super::error::{EngineError, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Rem,
    Pow,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// `&`, `|`, `^` (bitwise; logical on bool).
    BitAnd,
    BitOr,
    BitXor,
    LogicalAnd,
    LogicalOr,
    LogicalXor,
    Maximum,
    Minimum,
    /// `torch.fmod` (C's fmod: the sign of the dividend).
    Fmod,
    /// `div(rounding_mode='trunc')`.
    TruncDiv,
    /// `torch.atan2(input, other)` (float only).
    Atan2,
    /// `torch.hypot` (float only).
    Hypot,
}

impl BinaryOp {
    pub fn name(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Add => "add",
            Sub => "sub",
            Mul => "mul",
            Div => "div",
            FloorDiv => "floor_divide",
            Rem => "remainder",
            Pow => "pow",
            Eq => "eq",
            Ne => "ne",
            Lt => "lt",
            Le => "le",
            Gt => "gt",
            Ge => "ge",
            BitAnd => "bitwise_and",
            BitOr => "bitwise_or",
            BitXor => "bitwise_xor",
            LogicalAnd => "logical_and",
            LogicalOr => "logical_or",
            LogicalXor => "logical_xor",
            Maximum => "maximum",
            Minimum => "minimum",
            Fmod => "fmod",
            TruncDiv => "div",
            Atan2 => "atan2",
            Hypot => "hypot",
        }
    }
    pub fn is_comparison(self) -> bool {
        use BinaryOp::*;
        matches!(
            self,
            Eq | Ne | Lt | Le | Gt | Ge | LogicalAnd | LogicalOr | LogicalXor
        )
    }
    pub fn grad_fn(self) -> Option<&'static str> {
        use BinaryOp::*;
        Some(match self {
            Add => "AddBackward0",
            Sub => "SubBackward0",
            Mul => "MulBackward0",
            Div => "DivBackward0",
            Pow => "PowBackward0",
            Rem => "RemainderBackward0",
            Maximum => "MaximumBackward0",
            Minimum => "MinimumBackward0",
            Fmod => "FmodBackward0",
            TruncDiv => "DivBackward2",
            Atan2 => "Atan2Backward0",
            Hypot => "HypotBackward0",
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum UnaryOp {
    Neg,
    Abs,
    Exp,
    Log,
    Sqrt,
    Sigmoid,
    Tanh,
    Relu,
    Sin,
    Cos,
    Floor,
    Ceil,
    Round,
    Sign,
    Reciprocal,
    LogicalNot,
    /// `~`
    BitNot,
    IsNan,
    IsFinite,
    // float functions computed as ATen's CPU kernels do (engine::numerics for float32)
    Log2,
    Log10,
    Log1p,
    Expm1,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Asinh,
    Acosh,
    Atanh,
    Rsqrt,
    Erf,
    Erfc,
    Erfinv,
    /// `F.gelu(x)` (approximate='none')
    Gelu,
    /// `F.gelu(x, approximate='tanh')`
    GeluTanh,
    Trunc,
    // fused activations (Activation.cpp's kernels; parameters as the Python numbers given)
    /// `F.silu`
    Silu,
    /// `F.mish`
    Mish,
    /// `F.hardswish`
    Hardswish,
    /// `F.hardsigmoid`
    Hardsigmoid,
    /// `F.logsigmoid`
    LogSigmoid,
    /// `F.softplus(beta, threshold)`
    Softplus {
        beta: f64,
        threshold: f64,
    },
    /// `F.elu(alpha)`; selu and celu are elu with `scale` / `input_scale`
    Elu {
        alpha: f64,
        scale: f64,
        input_scale: f64,
    },
    /// `F.celu(alpha)`: elu(alpha, scale 1, input_scale 1/alpha) with its own node
    Celu {
        alpha: f64,
    },
    /// `F.leaky_relu(negative_slope)`
    LeakyRelu {
        slope: f64,
    },
    /// `F.hardtanh(min_val, max_val)` (relu6 is hardtanh(0, 6))
    Hardtanh {
        min: f64,
        max: f64,
    },
    /// `torch.logit(eps)` (eps=None is -1, as ATen passes it)
    Logit {
        eps: f64,
    },
}

impl UnaryOp {
    pub fn name(self) -> &'static str {
        use UnaryOp::*;
        match self {
            Neg => "neg",
            Abs => "abs",
            Exp => "exp",
            Log => "log",
            Sqrt => "sqrt",
            Sigmoid => "sigmoid",
            Tanh => "tanh",
            Relu => "relu",
            Sin => "sin",
            Cos => "cos",
            Floor => "floor",
            Ceil => "ceil",
            Round => "round",
            Sign => "sign",
            Reciprocal => "reciprocal",
            LogicalNot => "logical_not",
            BitNot => "bitwise_not",
            IsNan => "isnan",
            IsFinite => "isfinite",
            Log2 => "log2",
            Log10 => "log10",
            Log1p => "log1p",
            Expm1 => "expm1",
            Tan => "tan",
            Asin => "asin",
            Acos => "acos",
            Atan => "atan",
            Sinh => "sinh",
            Cosh => "cosh",
            Asinh => "asinh",
            Acosh => "acosh",
            Atanh => "atanh",
            Rsqrt => "rsqrt",
            Erf => "erf",
            Erfc => "erfc",
            Erfinv => "erfinv",
            Gelu => "gelu",
            GeluTanh => "gelu",
            Trunc => "trunc",
            Silu => "silu",
            Mish => "mish",
            Hardswish => "hardswish",
            Hardsigmoid => "hardsigmoid",
            LogSigmoid => "log_sigmoid",
            Softplus { .. } => "softplus",
            Elu { .. } => "elu",
            Celu { .. } => "celu",
            LeakyRelu { .. } => "leaky_relu",
            Hardtanh { .. } => "hardtanh",
            Logit { .. } => "logit",
        }
    }
    pub fn float_only(self) -> bool {
        use UnaryOp::*;
        matches!(
            self,
            Exp | Log | Sqrt | Sigmoid | Tanh | Sin | Cos | Reciprocal | Logit { .. }
        ) || self.is_math()
            || self.is_activation()
    }
    /// The fused activations: float only, and ATen raises for integer inputs
    /// (`"silu_cpu" not implemented for 'Long'`) rather than computing them in float.
    pub fn is_activation(self) -> bool {
        use UnaryOp::*;
        matches!(
            self,
            Silu | Mish
                | Hardswish
                | Hardsigmoid
                | LogSigmoid
                | Softplus { .. }
                | Elu { .. }
                | Celu { .. }
                | LeakyRelu { .. }
                | Hardtanh { .. }
        )
    }
    /// The float functions added with their float32 kernels (log2 ... gelu).
    pub fn is_math(self) -> bool {
        use UnaryOp::*;
        matches!(
            self,
            Log2 | Log10
                | Log1p
                | Expm1
                | Tan
                | Asin
                | Acos
                | Atan
                | Sinh
                | Cosh
                | Asinh
                | Acosh
                | Atanh
                | Rsqrt
                | Erf
                | Erfc
                | Erfinv
                | Gelu
                | GeluTanh
        )
    }
    /// celu as the elu it computes (ATen's celu calls elu with input_scale 1/alpha); every other
    /// op as itself.
    pub fn as_elu(self) -> UnaryOp {
        match self {
            UnaryOp::Celu { alpha } => UnaryOp::Elu {
                alpha,
                scale: 1.0,
                input_scale: 1.0 / alpha,
            },
            op => op,
        }
    }
    /// Whether autograd has this op's backward formula (autograd.rs `unary_grad`).
    pub fn has_backward(self) -> bool {
        true
    }
    pub fn grad_fn(self) -> Option<&'static str> {
        use UnaryOp::*;
        Some(match self {
            Neg => "NegBackward0",
            Abs => "AbsBackward0",
            Exp => "ExpBackward0",
            Log => "LogBackward0",
            Sqrt => "SqrtBackward0",
            Sigmoid => "SigmoidBackward0",
            Tanh => "TanhBackward0",
            Relu => "ReluBackward0",
            Sin => "SinBackward0",
            Cos => "CosBackward0",
            Reciprocal => "ReciprocalBackward0",
            Log2 => "Log2Backward0",
            Log10 => "Log10Backward0",
            Log1p => "Log1PBackward0",
            Expm1 => "Expm1Backward0",
            Tan => "TanBackward0",
            Asin => "AsinBackward0",
            Acos => "AcosBackward0",
            Atan => "AtanBackward0",
            Sinh => "SinhBackward0",
            Cosh => "CoshBackward0",
            Asinh => "AsinhBackward0",
            Acosh => "AcoshBackward0",
            Atanh => "AtanhBackward0",
            Rsqrt => "RsqrtBackward0",
            Erf => "ErfBackward0",
            Erfc => "ErfcBackward0",
            Erfinv => "ErfinvBackward0",
            Gelu => "GeluBackward0",
            GeluTanh => "GeluBackward0",
            Trunc => "TruncBackward0",
            Silu => "SiluBackward0",
            Mish => "MishBackward0",
            Hardswish => "HardswishBackward0",
            Hardsigmoid => "HardsigmoidBackward0",
            LogSigmoid => "LogSigmoidBackward0",
            Softplus { .. } => "SoftplusBackward0",
            Elu { .. } => "EluBackward0",
            Celu { .. } => "CeluBackward0",
            LeakyRelu { .. } => "LeakyReluBackward0",
            Hardtanh { .. } => "HardtanhBackward0",
            Logit { .. } => "LogitBackward0",
            _ => return None,
        })
    }
}

/// `reduction=` of the losses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reduction {
    None,
    Mean,
    Sum,
}

impl Reduction {
    pub fn parse(s: &str) -> Result<Reduction> {
        match s {
            "none" => Ok(Reduction::None),
            "mean" => Ok(Reduction::Mean),
            "sum" => Ok(Reduction::Sum),
            _ => Err(EngineError::value(format!(
                "{s} is not a valid value for reduction"
            ))),
        }
    }
}
