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
    Affine, Arg, BackendDevice, BackendStorage, Checked, MatmulDims, NllLoss, Operands, ReduceOp,
    TernaryOp,
};
use super::cuda::gpu_storage::{GpuHandle, GpuStorage};
use super::dtype::{DType, Scalar};
use super::error::EngineError;
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

/// The dispatch of conv2d and matmul: run where the operands live (on the host when none
/// is on a GPU, else on that GPU, host operands uploaded).
fn affine_on_device(
    xwb: Affine<'_, DeviceStorage>,
    host: impl FnOnce(Affine<'_, HostStorage>) -> Result<HostStorage>,
    gpu: impl FnOnce(Affine<'_, GpuStorage>) -> Result<GpuStorage>,
) -> Result<DeviceStorage> {
    let Affine { x, weight, bias } = xwb;
    match gpu_among(&[Some(x.0), Some(weight.0), bias.map(|b| b.0)]) {
        None => {
            let (hx, hw) = (as_host(x.0)?, as_host(weight.0)?);
            let hbias = bias.map(|(s, l)| as_host(s).map(|h| (h, l))).transpose()?;
            host(Affine {
                x: (&hx, x.1),
                weight: (&hw, weight.1),
                bias: hbias.as_ref().map(|(h, l)| (h.as_ref(), *l)),
            })
            .map(DeviceStorage::Host)
        }
        Some(dev) => {
            let (gx, gw) = (as_gpu(x.0, &dev)?, as_gpu(weight.0, &dev)?);
            let gbias = bias
                .map(|(s, l)| as_gpu(s, &dev).map(|g| (g, l)))
                .transpose()?;
            gpu(Affine {
                x: (&gx, x.1),
                weight: (&gw, weight.1),
                bias: gbias.as_ref().map(|(g, l)| (g.as_ref(), *l)),
            })
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

/// Every operand moved to one side, in order, stopping at the first that fails.
fn sides<'a, S: Clone, const N: usize>(
    args: [Arg<'a, DeviceStorage>; N],
    to_side: impl FnMut(Arg<'a, DeviceStorage>) -> Result<Side<'a, S>>,
) -> Result<[Side<'a, S>; N]> {
    let moved: Vec<Side<'a, S>> = args.into_iter().map(to_side).collect::<Result<_>>()?;
    <[Side<'a, S>; N]>::try_from(moved)
        .map_err(|_| EngineError::runtime("internal: an operand was lost in the dispatch"))
}

/// The dispatch of an elementwise op on numbers and tensors (binary, ternary, add_scaled):
/// run on the host when no operand is on a GPU, else on that GPU, host operands uploaded.
fn elementwise_args<const N: usize>(
    x: Operands<'_, Arg<'_, DeviceStorage>, N>,
    host: impl FnOnce(Operands<'_, Arg<'_, HostStorage>, N>) -> Result<HostStorage>,
    gpu: impl FnOnce(Operands<'_, Arg<'_, GpuStorage>, N>) -> Result<GpuStorage>,
) -> Result<DeviceStorage> {
    let Operands { args, shape, dtype } = x;
    match gpu_among(&args.each_ref().map(tensor_of)) {
        None => {
            let moved = sides(args, host_side)?;
            host(Operands::new(moved.each_ref().map(Side::arg), shape, dtype))
                .map(DeviceStorage::Host)
        }
        Some(dev) => {
            let moved = sides(args, |a| gpu_side(a, &dev))?;
            gpu(Operands::new(moved.each_ref().map(Side::arg), shape, dtype))
                .map(DeviceStorage::Gpu)
        }
    }
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
    fn binary(op: BinaryOp, ab: Operands<'_, Arg<'_, Self>, 2>, out: DType) -> Result<Self> {
        elementwise_args(
            ab,
            |x| HostStorage::binary(op, x, out),
            |x| GpuStorage::binary(op, x, out),
        )
    }
    fn ternary(op: TernaryOp, abc: Operands<'_, Arg<'_, Self>, 3>, value: Scalar) -> Result<Self> {
        elementwise_args(
            abc,
            |x| HostStorage::ternary(op, x, value),
            |x| GpuStorage::ternary(op, x, value),
        )
    }
    fn where_cond(cond: (&Self, &Layout), ab: Operands<'_, Arg<'_, Self>, 2>) -> Result<Self> {
        let [a, b] = ab.args;
        match gpu_among(&[Some(cond.0), tensor_of(&a), tensor_of(&b)]) {
            None => {
                let c = as_host(cond.0)?;
                let (a, b) = (host_side(a)?, host_side(b)?);
                HostStorage::where_cond((&c, cond.1), ab.with([a.arg(), b.arg()]))
                    .map(DeviceStorage::Host)
            }
            Some(dev) => {
                let c = as_gpu(cond.0, &dev)?;
                let (a, b) = (gpu_side(a, &dev)?, gpu_side(b, &dev)?);
                GpuStorage::where_cond((&c, cond.1), ab.with([a.arg(), b.arg()]))
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
    fn conv2d(xwb: Affine<'_, Self>, geom: &crate::engine::host::conv::ConvGeom) -> Result<Self> {
        affine_on_device(
            xwb,
            |xwb| HostStorage::conv2d(xwb, geom),
            |xwb| GpuStorage::conv2d(xwb, geom),
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
    fn add_scaled(ab: Operands<'_, Arg<'_, Self>, 2>, alpha: Scalar) -> Result<Self> {
        elementwise_args(
            ab,
            |x| HostStorage::add_scaled(x, alpha),
            |x| GpuStorage::add_scaled(x, alpha),
        )
    }
    fn activation_backward(op: UnaryOp, grad_y: Operands<'_, (&Self, &Layout), 2>) -> Result<Self> {
        let [grad, y] = grad_y.args;
        match gpu_among(&[Some(grad.0), Some(y.0)]) {
            None => {
                let (g, o) = (as_host(grad.0)?, as_host(y.0)?);
                HostStorage::activation_backward(op, grad_y.with([(&g, grad.1), (&o, y.1)]))
                    .map(DeviceStorage::Host)
            }
            Some(dev) => {
                let (g, o) = (as_gpu(grad.0, &dev)?, as_gpu(y.0, &dev)?);
                GpuStorage::activation_backward(op, grad_y.with([(&g, grad.1), (&o, y.1)]))
                    .map(DeviceStorage::Gpu)
            }
        }
    }
    fn softmax_backward(grad_y: Operands<'_, &Self, 2>, dim: usize, log: bool) -> Result<Self> {
        let [grad, y] = grad_y.args;
        match gpu_among(&[Some(grad), Some(y)]) {
            None => {
                let (g, y) = (as_host(grad)?, as_host(y)?);
                HostStorage::softmax_backward(grad_y.with([&*g, &*y]), dim, log)
                    .map(DeviceStorage::Host)
            }
            Some(dev) => {
                let (g, y) = (as_gpu(grad, &dev)?, as_gpu(y, &dev)?);
                GpuStorage::softmax_backward(grad_y.with([&*g, &*y]), dim, log)
                    .map(DeviceStorage::Gpu)
            }
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
    fn gather(src: (&Self, &Layout), dim: usize, index: (&Self, &Layout)) -> Result<Checked<Self>> {
        match src.0 {
            DeviceStorage::Host(h) => {
                HostStorage::gather((h, src.1), dim, (&*as_host(index.0)?, index.1))
                    .map(checked_host)
            }
            DeviceStorage::Gpu(g) => {
                let gi = as_gpu(index.0, &g.device())?;
                GpuStorage::gather((g, src.1), dim, (&*gi, index.1)).map(checked_gpu)
            }
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
    fn matmul(xwb: Affine<'_, Self>, dims: MatmulDims) -> Result<Self> {
        affine_on_device(
            xwb,
            |xwb| HostStorage::matmul(xwb, dims),
            |xwb| GpuStorage::matmul(xwb, dims),
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
                let (x, weight, bias) = ((&*ga, a.1), (&*gb, b.1), None);
                GpuStorage::matmul(Affine { x, weight, bias }, dims).map(DeviceStorage::Gpu)
            }
        }
    }
}
