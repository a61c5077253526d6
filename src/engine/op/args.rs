//! The shapes of a kernel's operands and of the op families that are not elementwise
//! tables (reductions, matmul, the pointwise ops of three operands): the vocabulary that the
//! device interface (engine::backend) and the kernels (host/, cuda/) share.

use crate::engine::dtype::{DType, Scalar};
use crate::engine::layout::Layout;

/// A pointwise op of three operands (PointwiseOpsKernel.cpp, LerpKernel.cpp).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TernaryOp {
    /// `a + value * b * c`
    Addcmul,
    /// `a + value * b / c`
    Addcdiv,
    /// `lerp(a, b, weight c)` (`value` unused; a scalar weight is `c` as a number)
    Lerp,
}

impl TernaryOp {
    /// The op's name (errors, timeline).
    pub fn name(self) -> &'static str {
        match self {
            TernaryOp::Addcmul => "addcmul",
            TernaryOp::Addcdiv => "addcdiv",
            TernaryOp::Lerp => "lerp",
        }
    }
    /// Its autograd node's name.
    pub fn grad_fn(self) -> &'static str {
        match self {
            TernaryOp::Addcmul => "AddcmulBackward0",
            TernaryOp::Addcdiv => "AddcdivBackward0",
            TernaryOp::Lerp => "LerpBackward0",
        }
    }
}

/// An elementwise operand: a buffer read through a layout, or a Python number.
pub enum Arg<'a, S> {
    Tensor(&'a S, &'a Layout),
    Scalar(Scalar),
}

// by hand: a derive would ask `S: Copy`, and an operand only borrows its buffer
impl<S> Clone for Arg<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S> Copy for Arg<'_, S> {}

/// An elementwise op's `N` operands as the device interface takes them: each already
/// broadcast to `shape`, all of `dtype` (the dtype the op computes in, and that of its result
/// unless the op says otherwise). `A` is [`Arg`] for the forward ops, a `(buffer, layout)`
/// pair for a backward that reads only tensors. One value instead of `N + 2` parameters keeps
/// every backend's signature of an op one line (candle-core passes a layout with each buffer
/// the same way).
pub struct Operands<'a, A, const N: usize> {
    pub args: [A; N],
    pub shape: &'a [usize],
    pub dtype: DType,
}

impl<'a, A, const N: usize> Operands<'a, A, N> {
    pub fn new(args: [A; N], shape: &'a [usize], dtype: DType) -> Self {
        Operands { args, shape, dtype }
    }
    /// The same shape and dtype over other operands (the host copies, or the device's a
    /// dispatch chose).
    pub fn with<B>(&self, args: [B; N]) -> Operands<'a, B, N> {
        Operands::new(args, self.shape, self.dtype)
    }
}

/// The operands of an affine product, `x @ weight + bias` (matmul, addmm) or its
/// convolution (conv2d): each a buffer read through its layout, the bias optional.
pub struct Affine<'a, S> {
    pub x: (&'a S, &'a Layout),
    pub weight: (&'a S, &'a Layout),
    pub bias: Option<(&'a S, &'a Layout)>,
}

impl<'a, S> Affine<'a, S> {
    pub fn new(
        x: (&'a S, &'a Layout),
        weight: (&'a S, &'a Layout),
        bias: Option<(&'a S, &'a Layout)>,
    ) -> Self {
        Affine { x, weight, bias }
    }
}

// by hand, as for `Arg`: the operands only borrow their buffers
impl<S> Clone for Affine<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S> Copy for Affine<'_, S> {}

/// A reduction over some dims (see [`BackendStorage::reduce`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ReduceOp {
    Sum,
    Mean,
    Prod,
    /// Variance with `correction` (Bessel: 1); `std` takes the square root.
    Var {
        correction: f64,
        std: bool,
    },
    /// `var_mean`'s variance: Welford's (ATen's `std_var_mean_out`), also over every element
    /// (where plain `var` takes the two-pass route).
    WelfordVar {
        correction: f64,
        std: bool,
    },
    /// `var_mean`'s mean: Welford's running mean (not sum / n).
    WelfordMean,
    Max,
    Min,
    /// Index of the first maximum (NaN counts as the maximum).
    ArgMax,
    ArgMin,
    Any,
    All,
    CountNonzero,
    /// The p-norm (inf, -inf and 0 included).
    Norm(f64),
}

/// `m x k @ k x n`, `batch` times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatmulDims {
    pub batch: usize,
    pub m: usize,
    pub k: usize,
    pub n: usize,
}

/// An nll_loss as its forward and its backward both take it: log-probabilities `[n, c]`
/// (contiguous), int64 targets `[n]` (uint8 on the GPU path), optional class weights `[c]`.
pub struct NllLoss<'a, S> {
    pub n: usize,
    pub c: usize,
    pub target: &'a S,
    pub weight: Option<&'a S>,
    pub ignore_index: i64,
    pub reduction: super::Reduction,
}

impl<S> NllLoss<'_, S> {
    /// The same loss over other buffers holding its target and weight (their host copies,
    /// or the device's a dispatch chose).
    pub fn over<'b, T>(&self, target: &'b T, weight: Option<&'b T>) -> NllLoss<'b, T> {
        NllLoss {
            n: self.n,
            c: self.c,
            target,
            weight,
            ignore_index: self.ignore_index,
            reduction: self.reduction,
        }
    }
}

/// What a loss kernel returns besides the loss: the samples whose target was out of range
/// (on CUDA each becomes a device-side assert line; on the CPU the first is an IndexError).
pub struct Checked<S> {
    pub value: S,
    /// Offending positions (samples, index entries), in order.
    pub bad: Vec<usize>,
}
