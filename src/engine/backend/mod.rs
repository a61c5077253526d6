//! The device interface: the back half of every op.
//!
//! An op's front half (in `tensor/`: PyTorch's argument and dtype checks and errors, type
//! promotion, output allocation through the caching allocator, autograd recording, the
//! timeline event) is written once. What it asks of a device is the computation alone, on
//! buffers and [`Layout`]s it has already checked: that is [`BackendStorage`], with
//! [`BackendDevice`] making new buffers. candle-core's `BackendStorage`/`BackendDevice` split is
//! the model.
//!
//! Implementations: [`crate::engine::host::HostStorage`] (the reference: CPU tensors, and the
//! values of the simulated GPU). A device's storage joins [`crate::engine::storage::DeviceStorage`],
//! the enum the front halves hold, with one dispatch arm per method; no front half changes.
//! Methods with a default body run on the host (`to_host`, compute, `from_host`): a new
//! device works at once and replaces them with its own kernels one by one.
//!
//! Contract for every method:
//! * operands arrive with the dtypes the front half chose (it inserts `to_dtype` casts), and
//!   `Arg::Tensor` layouts already broadcast to the output shape;
//! * results are fresh, contiguous buffers in row-major order of the output shape;
//! * allocation is fallible: an implementation returns an error, never aborts;
//! * long loops call [`crate::engine::interrupt::poll`] so Ctrl-c and the time limit stop them.

mod host;

use super::dtype::{DType, Scalar};
use super::error::Result;
use super::host::HostStorage;
use super::layout::Layout;
pub use super::op::{Affine, Arg, Checked, MatmulDims, NllLoss, Operands, ReduceOp, TernaryOp};
use super::op::{BinaryOp, UnaryOp};

/// A buffer of one dtype on one device.
pub trait BackendStorage: Sized {
    type Device: BackendDevice<Storage = Self>;

    fn device(&self) -> Self::Device;
    fn dtype(&self) -> DType;
    /// Elements held.
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    // ----- copy and cast -----

    /// The elements of `layout`, in logical order, copied to the host.
    fn to_host(&self, layout: &Layout) -> Result<HostStorage>;
    /// A contiguous copy of `layout`'s elements converted to `dtype` (clone, contiguous, to).
    fn to_dtype(&self, layout: &Layout, dtype: DType) -> Result<Self>;
    /// Write `src` (read through `src_layout`, already broadcast to `dst_layout`'s shape)
    /// into this buffer at `dst_layout`, converting to this buffer's dtype (copy_, setitem,
    /// in-place results).
    fn copy_from(&mut self, dst_layout: &Layout, src: &Self, src_layout: &Layout) -> Result<()>;
    /// Set every element of `layout` to `value` (fill_, zero_, setitem with a number).
    fn fill(&mut self, layout: &Layout, value: Scalar) -> Result<()>;

    // ----- elementwise -----

    /// `op` on each element; the result has dtype `out`.
    fn unary(&self, layout: &Layout, op: UnaryOp, out: DType) -> Result<Self>;
    /// `a op b` computed in `ab.dtype` (the dtype of both tensor operands), stored as `out`
    /// (the same, or bool for comparisons and logical ops).
    fn binary(op: BinaryOp, ab: Operands<'_, Arg<'_, Self>, 2>, out: DType) -> Result<Self>;
    /// `a + alpha * b` in `dtype` (add/sub with `alpha`; the front negates it for sub), the
    /// multiply fused into the add for floats.
    fn add_scaled(ab: Operands<'_, Arg<'_, Self>, 2>, alpha: Scalar) -> Result<Self>;
    /// `op` on (a, b, c) in the floating `dtype` of all three, as ATen's CPU kernels round
    /// it (float32: [`crate::engine::numerics::pointwise`]); `value` is addcmul/addcdiv's
    /// `value=`.
    fn ternary(op: TernaryOp, abc: Operands<'_, Arg<'_, Self>, 3>, value: Scalar) -> Result<Self>;
    /// `cond ? a : b` (cond bool; a and b of `dtype`).
    fn where_cond(cond: (&Self, &Layout), ab: Operands<'_, Arg<'_, Self>, 2>) -> Result<Self>;
    /// The gradient of an elementwise activation (sigmoid, tanh: from the result `y`) given
    /// the result's gradient `grad`: `grad_y` is `[grad, y]`, both read through layouts of
    /// its shape.
    fn activation_backward(op: UnaryOp, grad_y: Operands<'_, (&Self, &Layout), 2>) -> Result<Self>;
    /// Elements clamped to [lo, hi] (either may be absent; NaN stays NaN).
    fn clamp(&self, layout: &Layout, lo: Option<Scalar>, hi: Option<Scalar>) -> Result<Self>;
    /// `value` where `mask` (bool, broadcast to `layout`'s shape) is set.
    fn masked_fill(&self, layout: &Layout, mask: (&Self, &Layout), value: Scalar) -> Result<Self>;

    // ----- reductions -----

    /// Reduce the dims marked in `reduced` (of `layout`'s shape), giving a buffer of the kept
    /// dims in order (keepdim is the front half's view). `out` is the result dtype.
    fn reduce(&self, layout: &Layout, op: ReduceOp, reduced: &[bool], out: DType) -> Result<Self>;
    /// Inclusive scan along `dim` (cumsum; cumprod when `prod`), result dtype `out`.
    fn scan(&self, layout: &Layout, dim: usize, prod: bool, out: DType) -> Result<Self>;

    // ----- nn -----

    /// softmax (log_softmax when `log`) along `dim`.
    fn softmax(&self, layout: &Layout, dim: usize, log: bool) -> Result<Self>;
    /// The gradient of softmax/log_softmax along `dim` given `grad_y`, `[grad, y]`: the
    /// output's gradient and the output (contiguous, of its shape).
    fn softmax_backward(grad_y: Operands<'_, &Self, 2>, dim: usize, log: bool) -> Result<Self>;
    /// `loss` of these log-probabilities.
    fn nll_loss(&self, loss: &NllLoss<'_, Self>) -> Result<Checked<Self>>;
    /// The gradient of `loss` with respect to its `[n, c]` input, given the loss's gradient
    /// `grad` (`[n]` for reduction none, else one element).
    fn nll_loss_backward(grad: &Self, loss: &NllLoss<'_, Self>, dtype: DType) -> Result<Self>;
    /// Slices of `layout` along `dim` picked by int64/int32 `index` (1-D, contiguous).
    /// Out-of-range entries give zeros and are listed in `bad`.
    fn index_select(&self, layout: &Layout, dim: usize, index: &Self) -> Result<Checked<Self>>;
    /// `out[...i...] = src[...index[...i...]...]` along `dim` (index int64, of the output's
    /// shape, read through its layout).
    fn gather(src: (&Self, &Layout), dim: usize, index: (&Self, &Layout)) -> Result<Checked<Self>>;
    /// Zeros of `shape` (dtype of `src`) with the slices of contiguous `src` added along
    /// `dim` at the positions `index` names: index_select's and embedding's backward.
    fn index_add(src: &Self, shape: &[usize], dim: usize, index: &Self) -> Result<Self>;
    /// conv2d: input `[n, c, h, w]`, weight `[cout, c / groups, kh, kw]`, optional bias
    /// `[cout]` (any layouts), output `[n, cout, oh, ow]` contiguous.
    fn conv2d(xwb: Affine<'_, Self>, geom: &crate::engine::host::conv::ConvGeom) -> Result<Self>;
    /// Max, average or adaptive average pooling of `[planes, h, w]`, output `[planes, oh, ow]`.
    fn pool2d(&self, layout: &Layout, geom: &crate::engine::host::conv::PoolGeom) -> Result<Self>;
    /// `x @ weight` (+ `bias`, broadcast to the output) for `dims.batch` products; operand
    /// layouts are `[batch, m, k]`, `[batch, k, n]` (any strides), the result `[batch, m, n]`.
    fn matmul(xwb: Affine<'_, Self>, dims: MatmulDims) -> Result<Self>;
    /// `a @ b` for a `[1, 1, k] @ [1, k, 1]` product that PyTorch computes with the BLAS dot
    /// (`torch.dot`, `1-D @ 1-D`), whose summation order is not gemm's; by default a product.
    fn dot(a: (&Self, &Layout), b: (&Self, &Layout), dims: MatmulDims) -> Result<Self> {
        let bias = None;
        Self::matmul(
            Affine {
                x: a,
                weight: b,
                bias,
            },
            dims,
        )
    }
}

/// A device that makes buffers.
pub trait BackendDevice: Sized + Clone {
    type Storage: BackendStorage<Device = Self>;
    fn zeros(&self, n: usize, dtype: DType) -> Result<Self::Storage>;
    fn full(&self, n: usize, dtype: DType, value: Scalar) -> Result<Self::Storage>;
    /// Host values moved onto this device.
    fn upload(&self, host: HostStorage) -> Result<Self::Storage>;
}
