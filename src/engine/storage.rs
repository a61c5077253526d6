//! The storage a tensor's front half holds: one enum over the devices' buffer types, each
//! method dispatching to that device's [`BackendStorage`] implementation (candle-core's
//! `Storage` is the model). A device joins by adding its variant here (and to [`AnyDevice`])
//! and one arm per method; the ops' front halves only ever see [`DeviceStorage`].

use super::backend::{Arg, BackendDevice, BackendStorage, Checked, MatmulDims, ReduceOp};
use super::dtype::{DType, Scalar};
use super::error::Result;
use super::host::{HostDevice, HostStorage};
use super::layout::Layout;
use super::tensor::{BinaryOp, Reduction, UnaryOp};

/// A buffer on some device.
#[derive(Debug, Clone, PartialEq)]
pub enum DeviceStorage {
    /// Host memory: CPU tensors and the simulated GPU.
    Host(HostStorage),
}

/// The device a [`DeviceStorage`] lives on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnyDevice {
    Host(HostDevice),
}

impl BackendDevice for AnyDevice {
    type Storage = DeviceStorage;
    fn zeros(&self, n: usize, dtype: DType) -> Result<DeviceStorage> {
        match self {
            AnyDevice::Host(d) => d.zeros(n, dtype).map(DeviceStorage::Host),
        }
    }
    fn full(&self, n: usize, dtype: DType, value: Scalar) -> Result<DeviceStorage> {
        match self {
            AnyDevice::Host(d) => d.full(n, dtype, value).map(DeviceStorage::Host),
        }
    }
    fn from_host(&self, host: HostStorage) -> Result<DeviceStorage> {
        match self {
            AnyDevice::Host(d) => d.from_host(host).map(DeviceStorage::Host),
        }
    }
}

/// An elementwise operand on the host variant.
fn host_arg<'a>(a: Arg<'a, DeviceStorage>) -> Arg<'a, HostStorage> {
    match a {
        Arg::Tensor(DeviceStorage::Host(h), l) => Arg::Tensor(h, l),
        Arg::Scalar(s) => Arg::Scalar(s),
    }
}

fn host_pair<'a>(p: (&'a DeviceStorage, &'a Layout)) -> (&'a HostStorage, &'a Layout) {
    match p.0 {
        DeviceStorage::Host(h) => (h, p.1),
    }
}

fn host_of(s: &DeviceStorage) -> &HostStorage {
    match s {
        DeviceStorage::Host(h) => h,
    }
}

fn checked(c: Checked<HostStorage>) -> Checked<DeviceStorage> {
    Checked {
        value: DeviceStorage::Host(c.value),
        bad: c.bad,
    }
}

impl DeviceStorage {
    /// The host buffer itself when this storage lives in host memory (no copy).
    pub fn as_host(&self) -> Option<&HostStorage> {
        match self {
            DeviceStorage::Host(h) => Some(h),
        }
    }
}

impl BackendStorage for DeviceStorage {
    type Device = AnyDevice;

    fn device(&self) -> AnyDevice {
        match self {
            DeviceStorage::Host(h) => AnyDevice::Host(h.device()),
        }
    }
    fn dtype(&self) -> DType {
        match self {
            DeviceStorage::Host(h) => h.dtype(),
        }
    }
    fn len(&self) -> usize {
        match self {
            DeviceStorage::Host(h) => h.len(),
        }
    }
    fn to_host(&self, layout: &Layout) -> Result<HostStorage> {
        match self {
            DeviceStorage::Host(h) => h.to_host(layout),
        }
    }
    fn to_dtype(&self, layout: &Layout, dtype: DType) -> Result<Self> {
        match self {
            DeviceStorage::Host(h) => h.to_dtype(layout, dtype).map(DeviceStorage::Host),
        }
    }
    fn copy_from(&mut self, dst_layout: &Layout, src: &Self, src_layout: &Layout) -> Result<()> {
        match (self, src) {
            (DeviceStorage::Host(d), DeviceStorage::Host(s)) => {
                d.copy_from(dst_layout, s, src_layout)
            }
        }
    }
    fn fill(&mut self, layout: &Layout, value: Scalar) -> Result<()> {
        match self {
            DeviceStorage::Host(h) => BackendStorage::fill(h, layout, value),
        }
    }
    fn unary(&self, layout: &Layout, op: UnaryOp, out: DType) -> Result<Self> {
        match self {
            DeviceStorage::Host(h) => h.unary(layout, op, out).map(DeviceStorage::Host),
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
        HostStorage::binary(op, host_arg(a), host_arg(b), shape, compute, out)
            .map(DeviceStorage::Host)
    }
    fn where_cond(
        cond: (&Self, &Layout),
        a: Arg<'_, Self>,
        b: Arg<'_, Self>,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Self> {
        HostStorage::where_cond(host_pair(cond), host_arg(a), host_arg(b), shape, dtype)
            .map(DeviceStorage::Host)
    }
    fn clamp(&self, layout: &Layout, lo: Option<Scalar>, hi: Option<Scalar>) -> Result<Self> {
        match self {
            DeviceStorage::Host(h) => h.clamp(layout, lo, hi).map(DeviceStorage::Host),
        }
    }
    fn masked_fill(&self, layout: &Layout, mask: (&Self, &Layout), value: Scalar) -> Result<Self> {
        match self {
            DeviceStorage::Host(h) => h
                .masked_fill(layout, host_pair(mask), value)
                .map(DeviceStorage::Host),
        }
    }
    fn reduce(&self, layout: &Layout, op: ReduceOp, reduced: &[bool], out: DType) -> Result<Self> {
        match self {
            DeviceStorage::Host(h) => h.reduce(layout, op, reduced, out).map(DeviceStorage::Host),
        }
    }
    fn scan(&self, layout: &Layout, dim: usize, prod: bool, out: DType) -> Result<Self> {
        match self {
            DeviceStorage::Host(h) => h.scan(layout, dim, prod, out).map(DeviceStorage::Host),
        }
    }
    fn conv2d(
        x: (&Self, &Layout),
        weight: (&Self, &Layout),
        bias: Option<(&Self, &Layout)>,
        geom: &crate::engine::host::conv::ConvGeom,
    ) -> Result<Self> {
        HostStorage::conv2d(host_pair(x), host_pair(weight), bias.map(host_pair), geom)
            .map(DeviceStorage::Host)
    }
    fn pool2d(&self, layout: &Layout, geom: &crate::engine::host::conv::PoolGeom) -> Result<Self> {
        host_of(self).pool2d(layout, geom).map(DeviceStorage::Host)
    }
    fn softmax(&self, layout: &Layout, dim: usize, log: bool) -> Result<Self> {
        match self {
            DeviceStorage::Host(h) => h.softmax(layout, dim, log).map(DeviceStorage::Host),
        }
    }
    fn add_scaled(
        a: Arg<'_, Self>,
        b: Arg<'_, Self>,
        alpha: Scalar,
        shape: &[usize],
        dtype: DType,
    ) -> Result<Self> {
        HostStorage::add_scaled(host_arg(a), host_arg(b), alpha, shape, dtype)
            .map(DeviceStorage::Host)
    }
    fn activation_backward(
        op: UnaryOp,
        grad: (&Self, &Layout),
        out: (&Self, &Layout),
        shape: &[usize],
        dtype: DType,
    ) -> Result<Self> {
        HostStorage::activation_backward(op, host_pair(grad), host_pair(out), shape, dtype)
            .map(DeviceStorage::Host)
    }
    fn softmax_backward(
        grad: &Self,
        out: &Self,
        shape: &[usize],
        dim: usize,
        log: bool,
    ) -> Result<Self> {
        HostStorage::softmax_backward(host_of(grad), host_of(out), shape, dim, log)
            .map(DeviceStorage::Host)
    }
    fn nll_loss(
        &self,
        n: usize,
        c: usize,
        target: &Self,
        weight: Option<&Self>,
        ignore_index: i64,
        reduction: Reduction,
    ) -> Result<Checked<Self>> {
        host_of(self)
            .nll_loss(
                n,
                c,
                host_of(target),
                weight.map(host_of),
                ignore_index,
                reduction,
            )
            .map(checked)
    }
    fn nll_loss_backward(
        grad: &Self,
        n: usize,
        c: usize,
        target: &Self,
        weight: Option<&Self>,
        ignore_index: i64,
        reduction: Reduction,
        dtype: DType,
    ) -> Result<Self> {
        HostStorage::nll_loss_backward(
            host_of(grad),
            n,
            c,
            host_of(target),
            weight.map(host_of),
            ignore_index,
            reduction,
            dtype,
        )
        .map(DeviceStorage::Host)
    }
    fn index_select(&self, layout: &Layout, dim: usize, index: &Self) -> Result<Checked<Self>> {
        host_of(self)
            .index_select(layout, dim, host_of(index))
            .map(checked)
    }
    fn gather(
        &self,
        layout: &Layout,
        dim: usize,
        index: &Self,
        index_shape: &[usize],
    ) -> Result<Checked<Self>> {
        host_of(self)
            .gather(layout, dim, host_of(index), index_shape)
            .map(checked)
    }
    fn index_add(src: &Self, shape: &[usize], dim: usize, index: &Self) -> Result<Self> {
        HostStorage::index_add(host_of(src), shape, dim, host_of(index)).map(DeviceStorage::Host)
    }
    fn matmul(
        a: (&Self, &Layout),
        b: (&Self, &Layout),
        bias: Option<(&Self, &Layout)>,
        dims: MatmulDims,
    ) -> Result<Self> {
        HostStorage::matmul(host_pair(a), host_pair(b), bias.map(host_pair), dims)
            .map(DeviceStorage::Host)
    }
}
