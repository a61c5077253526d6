//! The host's implementation of the device interface: each method a call of the host
//! kernel that computes it (engine::host). It lives here, above the kernels, so that host/
//! never imports the interface it serves.

use crate::engine::backend::{
    Affine, Arg, BackendDevice, BackendStorage, Checked, MatmulDims, NllLoss, Operands, ReduceOp,
    TernaryOp,
};
use crate::engine::dtype::{DType, Scalar};
use crate::engine::error::Result;
use crate::engine::host::{HostDevice, HostStorage, conv, elementwise, matmul, nn, reduce};
use crate::engine::layout::Layout;
use crate::engine::op::{BinaryOp, UnaryOp};
use std::borrow::Cow;

impl BackendDevice for HostDevice {
    type Storage = HostStorage;
    fn zeros(&self, n: usize, dtype: DType) -> Result<HostStorage> {
        HostStorage::zeros(dtype, n)
    }
    fn full(&self, n: usize, dtype: DType, value: Scalar) -> Result<HostStorage> {
        HostStorage::full(dtype, n, value)
    }
    fn upload(&self, host: HostStorage) -> Result<HostStorage> {
        Ok(host)
    }
}

impl BackendStorage for HostStorage {
    type Device = HostDevice;

    fn device(&self) -> HostDevice {
        HostDevice
    }
    fn dtype(&self) -> DType {
        HostStorage::dtype(self)
    }
    fn len(&self) -> usize {
        HostStorage::len(self)
    }
    fn to_host(&self, layout: &Layout) -> Result<HostStorage> {
        elementwise::to_dtype(self, layout, self.dtype())
    }
    fn to_dtype(&self, layout: &Layout, dtype: DType) -> Result<Self> {
        elementwise::to_dtype(self, layout, dtype)
    }
    fn copy_from(&mut self, dst_layout: &Layout, src: &Self, src_layout: &Layout) -> Result<()> {
        elementwise::copy_into(self, dst_layout, src, src_layout)
    }
    fn fill(&mut self, layout: &Layout, value: Scalar) -> Result<()> {
        elementwise::fill(self, layout, value);
        Ok(())
    }
    fn unary(&self, layout: &Layout, op: UnaryOp, out: DType) -> Result<Self> {
        let r = elementwise::unary(self, layout, op)?;
        debug_assert_eq!(r.dtype(), out);
        Ok(r)
    }
    fn binary(op: BinaryOp, ab: Operands<'_, Arg<'_, Self>, 2>, out: DType) -> Result<Self> {
        let n = Layout::contiguous(ab.shape).numel();
        let [a, b] = ab.args;
        let r = elementwise::binary(op, a, b, n, ab.dtype)?;
        debug_assert_eq!(r.dtype(), out);
        Ok(r)
    }
    fn where_cond(cond: (&Self, &Layout), ab: Operands<'_, Arg<'_, Self>, 2>) -> Result<Self> {
        let n = Layout::contiguous(ab.shape).numel();
        let [a, b] = ab.args;
        elementwise::where_cond(cond, a, b, n, ab.dtype)
    }
    fn clamp(&self, layout: &Layout, lo: Option<Scalar>, hi: Option<Scalar>) -> Result<Self> {
        elementwise::clamp(self, layout, lo, hi)
    }
    fn masked_fill(&self, layout: &Layout, mask: (&Self, &Layout), value: Scalar) -> Result<Self> {
        elementwise::masked_fill(self, layout, mask, value)
    }
    fn reduce(&self, layout: &Layout, op: ReduceOp, reduced: &[bool], out: DType) -> Result<Self> {
        let r = reduce::reduce(self, layout, op, reduced)?;
        debug_assert_eq!(r.dtype(), out);
        Ok(r)
    }
    fn scan(&self, layout: &Layout, dim: usize, prod: bool, out: DType) -> Result<Self> {
        let r = reduce::scan(self, layout, dim, prod)?;
        debug_assert_eq!(r.dtype(), out);
        Ok(r)
    }
    fn conv2d(xwb: Affine<'_, Self>, geom: &conv::ConvGeom) -> Result<Self> {
        conv::conv2d(xwb.x, xwb.weight, xwb.bias, geom)
    }
    fn pool2d(&self, layout: &Layout, geom: &conv::PoolGeom) -> Result<Self> {
        conv::pool2d(self, layout, geom)
    }
    fn softmax(&self, layout: &Layout, dim: usize, log: bool) -> Result<Self> {
        nn::softmax(self, layout, dim, log)
    }
    fn ternary(op: TernaryOp, abc: Operands<'_, Arg<'_, Self>, 3>, value: Scalar) -> Result<Self> {
        let n = Layout::contiguous(abc.shape).numel();
        let [a, b, c] = abc.args;
        elementwise::ternary(op, a, b, c, value, n, abc.dtype)
    }
    fn add_scaled(ab: Operands<'_, Arg<'_, Self>, 2>, alpha: Scalar) -> Result<Self> {
        let n = Layout::contiguous(ab.shape).numel();
        let [a, b] = ab.args;
        elementwise::add_scaled(a, b, alpha, n, ab.dtype)
    }
    fn activation_backward(op: UnaryOp, grad_y: Operands<'_, (&Self, &Layout), 2>) -> Result<Self> {
        nn::activation_backward(op, grad_y)
    }
    fn softmax_backward(grad_y: Operands<'_, &Self, 2>, dim: usize, log: bool) -> Result<Self> {
        nn::softmax_backward(grad_y, dim, log)
    }
    fn nll_loss(&self, loss: &NllLoss<'_, Self>) -> Result<Checked<Self>> {
        nn::nll_loss(self, loss)
    }
    fn nll_loss_backward(grad: &Self, loss: &NllLoss<'_, Self>, dtype: DType) -> Result<Self> {
        nn::nll_loss_backward(grad, loss, dtype)
    }
    fn index_select(&self, layout: &Layout, dim: usize, index: &Self) -> Result<Checked<Self>> {
        nn::index_select(self, layout, dim, index)
    }
    fn gather(src: (&Self, &Layout), dim: usize, index: (&Self, &Layout)) -> Result<Checked<Self>> {
        // the kernel reads the index in row-major order from the buffer's start
        let rows = match index.1.contiguous_range() {
            Some(r) if r.start == 0 => Cow::Borrowed(index.0),
            _ => Cow::Owned(elementwise::to_dtype(index.0, index.1, index.0.dtype())?),
        };
        nn::gather(src.0, src.1, dim, &rows, &index.1.shape)
    }
    fn index_add(src: &Self, shape: &[usize], dim: usize, index: &Self) -> Result<Self> {
        nn::index_add(src, shape, dim, index)
    }
    fn matmul(xwb: Affine<'_, Self>, dims: MatmulDims) -> Result<Self> {
        matmul::matmul(xwb.x, xwb.weight, xwb.bias, dims)
    }
    fn dot(a: (&Self, &Layout), b: (&Self, &Layout), dims: MatmulDims) -> Result<Self> {
        matmul::dot(a, b, dims)
    }
}
