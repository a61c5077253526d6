//! The storage a tensor's front half holds: one enum over the devices' buffer types, each
//! method dispatching to that device's [`BackendStorage`] implementation (candle-core's
//! `Storage` is the model). A device joins by adding its variant here (and to [`AnyDevice`])
//! and one arm per method; the ops' front halves only ever see [`DeviceStorage`].
//!
//! Variants: `Host` (CPU tensors, and the simulated GPU's values) and `Gpu` (a buffer in the
//! memory of a [`crate::engine::cuda::gpu::GpuDevice`]: the emulated device, or a real GPU
//! through the same code). Operands of one op live on one device (the front halves check
//! devices); should a host buffer meet a GPU buffer anyway, the host one is moved to the GPU.

use super::backend::{
    Arg, BackendDevice, BackendStorage, Checked, MatmulDims, NllLoss, ReduceOp, TernaryOp,
};
use super::cuda::gpu_storage::{GpuHandle, GpuStorage};
use super::dtype::{DType, Scalar};
use super::error::Result;
use super::host::{HostDevice, HostStorage};
use super::layout::Layout;
use super::op::{BinaryOp, UnaryOp};
use std::borrow::Cow;

/// A buffer on some device.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum DeviceStorage {
    /// Host memory: CPU tensors and the simulated GPU.
    Host(HostStorage),
    /// Device memory of a GPU backend (emulated or cuda).
    Gpu(GpuStorage),
}

/// The device a [`DeviceStorage`] lives on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AnyDevice {
    Host(HostDevice),
    Gpu(GpuHandle),
}

impl BackendDevice for AnyDevice {
    type Storage = DeviceStorage;
    fn zeros(&self, n: usize, dtype: DType) -> Result<DeviceStorage> {
        match self {
            AnyDevice::Host(d) => d.zeros(n, dtype).map(DeviceStorage::Host),
            AnyDevice::Gpu(d) => d.zeros(n, dtype).map(DeviceStorage::Gpu),
        }
    }
    fn full(&self, n: usize, dtype: DType, value: Scalar) -> Result<DeviceStorage> {
        match self {
            AnyDevice::Host(d) => d.full(n, dtype, value).map(DeviceStorage::Host),
            AnyDevice::Gpu(d) => d.full(n, dtype, value).map(DeviceStorage::Gpu),
        }
    }
    fn upload(&self, host: HostStorage) -> Result<DeviceStorage> {
        match self {
            AnyDevice::Host(d) => d.upload(host).map(DeviceStorage::Host),
            AnyDevice::Gpu(d) => d.upload(host).map(DeviceStorage::Gpu),
        }
    }
}

/// The GPU of the first GPU buffer among `xs` (None: all on the host).
fn gpu_among(xs: &[Option<&DeviceStorage>]) -> Option<GpuHandle> {
    xs.iter().flatten().find_map(|s| match s {
        DeviceStorage::Gpu(g) => Some(g.device()),
        DeviceStorage::Host(_) => None,
    })
}

/// `s` as a host buffer (a download for a GPU buffer: the whole buffer, layouts unchanged).
fn as_host(s: &DeviceStorage) -> Result<Cow<'_, HostStorage>> {
    match s {
        DeviceStorage::Host(h) => Ok(Cow::Borrowed(h)),
        DeviceStorage::Gpu(g) => g.to_host(&Layout::contiguous(&[g.len()])).map(Cow::Owned),
    }
}

/// `s` as a buffer on `dev` (an upload for a host buffer).
fn as_gpu<'a>(s: &'a DeviceStorage, dev: &GpuHandle) -> Result<Cow<'a, GpuStorage>> {
    match s {
        DeviceStorage::Gpu(g) => Ok(Cow::Borrowed(g)),
        DeviceStorage::Host(h) => dev.upload(h.clone()).map(Cow::Owned),
    }
}

/// The dispatch of conv2d and matmul: two operands and an optional bias, run where they
/// live (on the host when none is on a GPU, else on that GPU, host operands uploaded).
fn operands_with_bias(
    a: (&DeviceStorage, &Layout),
    b: (&DeviceStorage, &Layout),
    bias: Option<(&DeviceStorage, &Layout)>,
    host: impl FnOnce(
        (&HostStorage, &Layout),
        (&HostStorage, &Layout),
        Option<(&HostStorage, &Layout)>,
    ) -> Result<HostStorage>,
    gpu: impl FnOnce(
        (&GpuStorage, &Layout),
        (&GpuStorage, &Layout),
        Option<(&GpuStorage, &Layout)>,
    ) -> Result<GpuStorage>,
) -> Result<DeviceStorage> {
    match gpu_among(&[Some(a.0), Some(b.0), bias.map(|x| x.0)]) {
        None => {
            let (ha, hb) = (as_host(a.0)?, as_host(b.0)?);
            let hbias = bias.map(|(s, l)| as_host(s).map(|h| (h, l))).transpose()?;
            host(
                (&ha, a.1),
                (&hb, b.1),
                hbias.as_ref().map(|(h, l)| (h.as_ref(), *l)),
            )
            .map(DeviceStorage::Host)
        }
        Some(dev) => {
            let (ga, gb) = (as_gpu(a.0, &dev)?, as_gpu(b.0, &dev)?);
            let gbias = bias
                .map(|(s, l)| as_gpu(s, &dev).map(|g| (g, l)))
                .transpose()?;
            gpu(
                (&ga, a.1),
                (&gb, b.1),
                gbias.as_ref().map(|(g, l)| (g.as_ref(), *l)),
            )
            .map(DeviceStorage::Gpu)
        }
    }
}

fn tensor_of<'a>(a: &Arg<'a, DeviceStorage>) -> Option<&'a DeviceStorage> {
    match a {
        Arg::Tensor(s, _) => Some(*s),
        Arg::Scalar(_) => None,
    }
}

/// An operand moved to one side of the dispatch.
enum Side<'a, S: Clone> {
    Tensor(Cow<'a, S>, &'a Layout),
    Scalar(Scalar),
}

impl<S: Clone> Side<'_, S> {
    fn arg(&self) -> Arg<'_, S> {
        match self {
            Side::Tensor(s, l) => Arg::Tensor(s.as_ref(), l),
            Side::Scalar(v) => Arg::Scalar(*v),
        }
    }
}

fn host_side<'a>(a: Arg<'a, DeviceStorage>) -> Result<Side<'a, HostStorage>> {
    Ok(match a {
        Arg::Tensor(s, l) => Side::Tensor(as_host(s)?, l),
        Arg::Scalar(v) => Side::Scalar(v),
    })
}

fn gpu_side<'a>(a: Arg<'a, DeviceStorage>, dev: &GpuHandle) -> Result<Side<'a, GpuStorage>> {
    Ok(match a {
        Arg::Tensor(s, l) => Side::Tensor(as_gpu(s, dev)?, l),
        Arg::Scalar(v) => Side::Scalar(v),
    })
}

fn checked_host(c: Checked<HostStorage>) -> Checked<DeviceStorage> {
    Checked {
        value: DeviceStorage::Host(c.value),
        bad: c.bad,
    }
}

fn checked_gpu(c: Checked<GpuStorage>) -> Checked<DeviceStorage> {
    Checked {
        value: DeviceStorage::Gpu(c.value),
        bad: c.bad,
    }
}

impl DeviceStorage {
    /// The host buffer itself when this storage lives in host memory (no copy).
    pub(crate) fn as_host(&self) -> Option<&HostStorage> {
        match self {
            DeviceStorage::Host(h) => Some(h),
            DeviceStorage::Gpu(_) => None,
        }
    }
}

impl BackendStorage for DeviceStorage {
    type Device = AnyDevice;

    fn device(&self) -> AnyDevice {
        match self {
            DeviceStorage::Host(h) => AnyDevice::Host(h.device()),
            DeviceStorage::Gpu(g) => AnyDevice::Gpu(g.device()),
        }
    }
    fn dtype(&self) -> DType {
        match self {
            DeviceStorage::Host(h) => h.dtype(),
            DeviceStorage::Gpu(g) => g.dtype(),
        }
    }
    fn len(&self) -> usize {
        match self {
            DeviceStorage::Host(h) => h.len(),
            DeviceStorage::Gpu(g) => g.len(),
        }
    }
    fn to_host(&self, layout: &Layout) -> Result<HostStorage> {
        match self {
            DeviceStorage::Host(h) => h.to_host(layout),
            DeviceStorage::Gpu(g) => g.to_host(layout),
        }
    }
    fn to_dtype(&self, layout: &Layout, dtype: DType) -> Result<Self> {
        match self {
            DeviceStorage::Host(h) => h.to_dtype(layout, dtype).map(DeviceStorage::Host),
            DeviceStorage::Gpu(g) => g.to_dtype(layout, dtype).map(DeviceStorage::Gpu),
        }
    }
    fn copy_from(&mut self, dst_layout: &Layout, src: &Self, src_layout: &Layout) -> Result<()> {
        match (self, src) {
            (DeviceStorage::Host(d), DeviceStorage::Host(s)) => {
                d.copy_from(dst_layout, s, src_layout)
            }
            (DeviceStorage::Gpu(d), s) => {
                let dev = d.device();
                let s = as_gpu(s, &dev)?;
                d.copy_from(dst_layout, &s, src_layout)
            }
            (DeviceStorage::Host(d), DeviceStorage::Gpu(s)) => {
                let h = s.to_host(src_layout)?;
                d.copy_from(dst_layout, &h, &Layout::contiguous(&src_layout.shape))
            }
        }
    }
    fn fill(&mut self, layout: &Layout, value: Scalar) -> Result<()> {
        match self {
            DeviceStorage::Host(h) => BackendStorage::fill(h, layout, value),
            DeviceStorage::Gpu(g) => BackendStorage::fill(g, layout, value),
        }
    }
    fn unary(&self, layout: &Layout, op: UnaryOp, out: DType) -> Result<Self> {
        match self {
            DeviceStorage::Host(h) => h.unary(layout, op, out).map(DeviceStorage::Host),
            DeviceStorage::Gpu(g) => g.unary(layout, op, out).map(DeviceStorage::Gpu),
        }
    }
    fn binary(
        op: BinaryOp,
        a: Arg<'_, Self>,
        b: Arg<'_, Self>,
        shape: &[usize],
        compute: DType,
        out: DType,
    ) -> Result<Self> {
        match gpu_among(&[tensor_of(&a), tensor_of(&b)]) {
            None => {
                let (a, b) = (host_side(a)?, host_side(b)?);
                HostStorage::binary(op, a.arg(), b.arg(), shape, compute, out)
                    .map(DeviceStorage::Host)
            }
            Some(dev) => {
                let (a, b) = (gpu_side(a, &dev)?, gpu_side(b, &dev)?);
                GpuStorage::binary(op, a.arg(), b.arg(), shape, compute, out)
                    .map(DeviceStorage::Gpu)
            }
        }
    }
    fn ternary(
        op: TernaryOp,
        a: Arg<'_, Self>,
        b: Arg<'_, Self>,
        c: Arg<'_, Self>,
        value: Scalar,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Self> {
        match gpu_among(&[tensor_of(&a), tensor_of(&b), tensor_of(&c)]) {
            None => {
                let (a, b, c) = (host_side(a)?, host_side(b)?, host_side(c)?);
                HostStorage::ternary(op, a.arg(), b.arg(), c.arg(), value, shape, dtype)
                    .map(DeviceStorage::Host)
            }
            Some(dev) => {
                let (a, b, c) = (gpu_side(a, &dev)?, gpu_side(b, &dev)?, gpu_side(c, &dev)?);
                GpuStorage::ternary(op, a.arg(), b.arg(), c.arg(), value, shape, dtype)
                    .map(DeviceStorage::Gpu)
            }
        }
    }
    fn where_cond(
        cond: (&Self, &Layout),
        a: Arg<'_, Self>,
        b: Arg<'_, Self>,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Self> {
        match gpu_among(&[Some(cond.0), tensor_of(&a), tensor_of(&b)]) {
            None => {
                let c = as_host(cond.0)?;
                let (a, b) = (host_side(a)?, host_side(b)?);
                HostStorage::where_cond((&c, cond.1), a.arg(), b.arg(), shape, dtype)
                    .map(DeviceStorage::Host)
            }
            Some(dev) => {
                let c = as_gpu(cond.0, &dev)?;
                let (a, b) = (gpu_side(a, &dev)?, gpu_side(b, &dev)?);
                GpuStorage::where_cond((&c, cond.1), a.arg(), b.arg(), shape, dtype)
                    .map(DeviceStorage::Gpu)
            }
        }
    }
    fn clamp(&self, layout: &Layout, lo: Option<Scalar>, hi: Option<Scalar>) -> Result<Self> {
        match self {
            DeviceStorage::Host(h) => h.clamp(layout, lo, hi).map(DeviceStorage::Host),
            DeviceStorage::Gpu(g) => g.clamp(layout, lo, hi).map(DeviceStorage::Gpu),
        }
    }
    fn masked_fill(&self, layout: &Layout, mask: (&Self, &Layout), value: Scalar) -> Result<Self> {
        match self {
            DeviceStorage::Host(h) => {
                let m = as_host(mask.0)?;
                h.masked_fill(layout, (&m, mask.1), value)
                    .map(DeviceStorage::Host)
            }
            DeviceStorage::Gpu(g) => {
                let m = as_gpu(mask.0, &g.device())?;
                g.masked_fill(layout, (&m, mask.1), value)
                    .map(DeviceStorage::Gpu)
            }
        }
    }
    fn reduce(&self, layout: &Layout, op: ReduceOp, reduced: &[bool], out: DType) -> Result<Self> {
        match self {
            DeviceStorage::Host(h) => h.reduce(layout, op, reduced, out).map(DeviceStorage::Host),
            DeviceStorage::Gpu(g) => g.reduce(layout, op, reduced, out).map(DeviceStorage::Gpu),
        }
    }
    fn scan(&self, layout: &Layout, dim: usize, prod: bool, out: DType) -> Result<Self> {
        match self {
            DeviceStorage::Host(h) => h.scan(layout, dim, prod, out).map(DeviceStorage::Host),
            DeviceStorage::Gpu(g) => g.scan(layout, dim, prod, out).map(DeviceStorage::Gpu),
        }
    }
    fn conv2d(
        x: (&Self, &Layout),
        weight: (&Self, &Layout),
        bias: Option<(&Self, &Layout)>,
        geom: &crate::engine::host::conv::ConvGeom,
    ) -> Result<Self> {
        operands_with_bias(
            x,
            weight,
            bias,
            |x, w, b| HostStorage::conv2d(x, w, b, geom),
            |x, w, b| GpuStorage::conv2d(x, w, b, geom),
        )
    }
    fn pool2d(&self, layout: &Layout, geom: &crate::engine::host::conv::PoolGeom) -> Result<Self> {
        match self {
            DeviceStorage::Host(h) => h.pool2d(layout, geom).map(DeviceStorage::Host),
            DeviceStorage::Gpu(g) => g.pool2d(layout, geom).map(DeviceStorage::Gpu),
        }
    }
    fn softmax(&self, layout: &Layout, dim: usize, log: bool) -> Result<Self> {
        match self {
            DeviceStorage::Host(h) => h.softmax(layout, dim, log).map(DeviceStorage::Host),
            DeviceStorage::Gpu(g) => g.softmax(layout, dim, log).map(DeviceStorage::Gpu),
        }
    }
    fn add_scaled(
        a: Arg<'_, Self>,
        b: Arg<'_, Self>,
        alpha: Scalar,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Self> {
        match gpu_among(&[tensor_of(&a), tensor_of(&b)]) {
            None => {
                let (a, b) = (host_side(a)?, host_side(b)?);
                HostStorage::add_scaled(a.arg(), b.arg(), alpha, shape, dtype)
                    .map(DeviceStorage::Host)
            }
            Some(dev) => {
                let (a, b) = (gpu_side(a, &dev)?, gpu_side(b, &dev)?);
                GpuStorage::add_scaled(a.arg(), b.arg(), alpha, shape, dtype)
                    .map(DeviceStorage::Gpu)
            }
        }
    }
    fn activation_backward(
        op: UnaryOp,
        grad: (&Self, &Layout),
        out: (&Self, &Layout),
        shape: &[usize],
        dtype: DType,
    ) -> Result<Self> {
        match gpu_among(&[Some(grad.0), Some(out.0)]) {
            None => {
                let (g, o) = (as_host(grad.0)?, as_host(out.0)?);
                HostStorage::activation_backward(op, (&g, grad.1), (&o, out.1), shape, dtype)
                    .map(DeviceStorage::Host)
            }
            Some(dev) => {
                let (g, o) = (as_gpu(grad.0, &dev)?, as_gpu(out.0, &dev)?);
                GpuStorage::activation_backward(op, (&g, grad.1), (&o, out.1), shape, dtype)
                    .map(DeviceStorage::Gpu)
            }
        }
    }
    fn softmax_backward(
        grad: &Self,
        out: &Self,
        shape: &[usize],
        dim: usize,
        log: bool,
    ) -> Result<Self> {
        match gpu_among(&[Some(grad), Some(out)]) {
            None => {
                HostStorage::softmax_backward(&*as_host(grad)?, &*as_host(out)?, shape, dim, log)
                    .map(DeviceStorage::Host)
            }
            Some(dev) => GpuStorage::softmax_backward(
                &*as_gpu(grad, &dev)?,
                &*as_gpu(out, &dev)?,
                shape,
                dim,
                log,
            )
            .map(DeviceStorage::Gpu),
        }
    }
    fn nll_loss(&self, loss: &NllLoss<'_, Self>) -> Result<Checked<Self>> {
        match gpu_among(&[Some(self), Some(loss.target), loss.weight]) {
            None => {
                let (t, w) = (as_host(loss.target)?, loss.weight.map(as_host).transpose()?);
                as_host(self)?
                    .nll_loss(&loss.over(&*t, w.as_deref()))
                    .map(checked_host)
            }
            Some(dev) => {
                // uploads in the order the operands are named: weight, input, target
                let w = loss.weight.map(|w| as_gpu(w, &dev)).transpose()?;
                let x = as_gpu(self, &dev)?;
                let t = as_gpu(loss.target, &dev)?;
                x.nll_loss(&loss.over(&*t, w.as_deref())).map(checked_gpu)
            }
        }
    }
    fn nll_loss_backward(grad: &Self, loss: &NllLoss<'_, Self>, dtype: DType) -> Result<Self> {
        match gpu_among(&[Some(grad), Some(loss.target), loss.weight]) {
            None => {
                let (t, w) = (as_host(loss.target)?, loss.weight.map(as_host).transpose()?);
                HostStorage::nll_loss_backward(
                    &*as_host(grad)?,
                    &loss.over(&*t, w.as_deref()),
                    dtype,
                )
                .map(DeviceStorage::Host)
            }
            Some(dev) => {
                // uploads in the order the operands are named: weight, grad, target
                let w = loss.weight.map(|w| as_gpu(w, &dev)).transpose()?;
                let g = as_gpu(grad, &dev)?;
                let t = as_gpu(loss.target, &dev)?;
                GpuStorage::nll_loss_backward(&g, &loss.over(&*t, w.as_deref()), dtype)
                    .map(DeviceStorage::Gpu)
            }
        }
    }
    fn index_select(&self, layout: &Layout, dim: usize, index: &Self) -> Result<Checked<Self>> {
        match self {
            DeviceStorage::Host(h) => h
                .index_select(layout, dim, &*as_host(index)?)
                .map(checked_host),
            DeviceStorage::Gpu(g) => g
                .index_select(layout, dim, &*as_gpu(index, &g.device())?)
                .map(checked_gpu),
        }
    }
    fn gather(
        &self,
        layout: &Layout,
        dim: usize,
        index: &Self,
        index_shape: &[usize],
    ) -> Result<Checked<Self>> {
        match self {
            DeviceStorage::Host(h) => h
                .gather(layout, dim, &*as_host(index)?, index_shape)
                .map(checked_host),
            DeviceStorage::Gpu(g) => g
                .gather(layout, dim, &*as_gpu(index, &g.device())?, index_shape)
                .map(checked_gpu),
        }
    }
    fn index_add(src: &Self, shape: &[usize], dim: usize, index: &Self) -> Result<Self> {
        match gpu_among(&[Some(src), Some(index)]) {
            None => HostStorage::index_add(&*as_host(src)?, shape, dim, &*as_host(index)?)
                .map(DeviceStorage::Host),
            Some(dev) => {
                GpuStorage::index_add(&*as_gpu(src, &dev)?, shape, dim, &*as_gpu(index, &dev)?)
                    .map(DeviceStorage::Gpu)
            }
        }
    }
    fn matmul(
        a: (&Self, &Layout),
        b: (&Self, &Layout),
        bias: Option<(&Self, &Layout)>,
        dims: MatmulDims,
    ) -> Result<Self> {
        operands_with_bias(
            a,
            b,
            bias,
            |a, b, bias| HostStorage::matmul(a, b, bias, dims),
            |a, b, bias| GpuStorage::matmul(a, b, bias, dims),
        )
    }
    fn dot(a: (&Self, &Layout), b: (&Self, &Layout), dims: MatmulDims) -> Result<Self> {
        match gpu_among(&[Some(a.0), Some(b.0)]) {
            None => {
                let (ha, hb) = (as_host(a.0)?, as_host(b.0)?);
                HostStorage::dot((&ha, a.1), (&hb, b.1), dims).map(DeviceStorage::Host)
            }
            Some(dev) => {
                let (ga, gb) = (as_gpu(a.0, &dev)?, as_gpu(b.0, &dev)?);
                GpuStorage::matmul((&ga, a.1), (&gb, b.1), None, dims).map(DeviceStorage::Gpu)
            }
        }
    }
}
