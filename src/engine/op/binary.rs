//! The binary elementwise ops, each defined once: one entry of [`binary_ops!`] gives the
//! op's PyTorch name, its autograd node, and whether its result is bool (a comparison or a
//! logical op). The kernels that compute it (host/elementwise.rs `binary_t`, the CUDA ones
//! of kernels/elementwise.cu) and its backward (tensor/autograd.rs) follow the same op
//! (docs/engine.md: adding an op).

/// `result: bool` marks an op whose result is bool.
macro_rules! is_bool {
    (bool) => {
        true
    };
}

macro_rules! binary_ops {
    ($(
        $(#[doc = $doc:literal])*
        $op:ident {
            name: $name:literal,
            $(grad_fn: $grad:literal,)?
            $(result: $result:ident,)?
        }
    )*) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum BinaryOp {
            $( $(#[doc = $doc])* $op, )*
        }

        impl BinaryOp {
            /// PyTorch's name of the op (errors, the timeline).
            pub fn name(self) -> &'static str {
                match self {
                    $( BinaryOp::$op => $name, )*
                }
            }
            /// Its autograd node's name; None: the result never requires grad.
            pub fn grad_fn(self) -> Option<&'static str> {
                match self {
                    $( BinaryOp::$op => None $(.or(Some($grad)))?, )*
                }
            }
            /// Whether the result is bool whatever the operands' dtype.
            pub(crate) fn is_comparison(self) -> bool {
                match self {
                    $( BinaryOp::$op => false $(|| is_bool!($result))?, )*
                }
            }
        }
    };
}

binary_ops! {
    Add { name: "add", grad_fn: "AddBackward0", }
    Sub { name: "sub", grad_fn: "SubBackward0", }
    Mul { name: "mul", grad_fn: "MulBackward0", }
    Div { name: "div", grad_fn: "DivBackward0", }
    FloorDiv { name: "floor_divide", }
    Rem { name: "remainder", grad_fn: "RemainderBackward0", }
    Pow { name: "pow", grad_fn: "PowBackward0", }
    Eq { name: "eq", result: bool, }
    Ne { name: "ne", result: bool, }
    Lt { name: "lt", result: bool, }
    Le { name: "le", result: bool, }
    Gt { name: "gt", result: bool, }
    Ge { name: "ge", result: bool, }
    /// `&`, `|`, `^` (bitwise; logical on bool).
    BitAnd { name: "bitwise_and", }
    BitOr { name: "bitwise_or", }
    BitXor { name: "bitwise_xor", }
    LogicalAnd { name: "logical_and", result: bool, }
    LogicalOr { name: "logical_or", result: bool, }
    LogicalXor { name: "logical_xor", result: bool, }
    Maximum { name: "maximum", grad_fn: "MaximumBackward0", }
    Minimum { name: "minimum", grad_fn: "MinimumBackward0", }
    /// `torch.fmod` (C's fmod: the sign of the dividend).
    Fmod { name: "fmod", grad_fn: "FmodBackward0", }
    /// `div(rounding_mode='trunc')`.
    TruncDiv { name: "div", grad_fn: "DivBackward2", }
    /// `torch.atan2(input, other)` (float only).
    Atan2 { name: "atan2", grad_fn: "Atan2Backward0", }
    /// `torch.hypot` (float only).
    Hypot { name: "hypot", grad_fn: "HypotBackward0", }
}
