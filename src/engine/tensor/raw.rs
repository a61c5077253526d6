//! Value access for the code that has not moved onto the device interface yet (indexing's
//! scatter paths, a few ops in extra.rs, autograd's gradient arithmetic): values read and
//! written as f64 through a tensor's layout. Each user goes away as its op moves onto typed
//! kernels; nothing new should call these.

use super::{Layout, Tensor, for_each_offset};
use crate::engine::backend::{Arg, BackendDevice, BackendStorage, Checked, NllLoss};
use crate::engine::device::Device;
use crate::engine::dtype::DType;
use crate::engine::error::{EngineError, Result};
use crate::engine::host::HostStorage;
use crate::engine::runtime::Runtime;
use crate::engine::storage::DeviceStorage;

use super::Reduction;

/// The paths that still compute in f64 vectors (autograd's gradients, the ops of extra.rs)
/// skip tensors over this many elements (their results become phantoms).
pub(crate) const MAX_F64_ELEMENTS: usize = 1 << 24;

impl Tensor {
    /// The values of this tensor's storage read through `layout`, widened to f64 (zeros
    /// for a phantom).
    pub(crate) fn layout_values(&self, layout: &Layout) -> Vec<f64> {
        match self.storage.data.borrow().as_ref() {
            Some(s) => match s.as_host() {
                Some(h) => h.gather_f64(layout),
                None => s
                    .to_host(layout)
                    .map(|h| h.gather_f64(&Layout::contiguous(&[layout.numel()])))
                    .unwrap_or_else(|_| vec![0.0; layout.numel()]),
            },
            None => vec![0.0; layout.numel()],
        }
    }

    /// Every element of the storage, in storage order, widened to f64.
    pub(crate) fn storage_values(&self) -> Vec<f64> {
        let n = self.storage.data.borrow().as_ref().map_or(0, |s| s.len());
        self.layout_values(&Layout::contiguous(&[n]))
    }

    /// Write `vals` at the storage offsets `offsets` (converted to the dtype); nothing for
    /// a phantom.
    pub(crate) fn write_at(&self, offsets: &[usize], vals: &[f64]) {
        let mut data = self.storage.data.borrow_mut();
        match data.as_mut() {
            Some(DeviceStorage::Host(h)) => h.write_f64_at(offsets, vals),
            Some(DeviceStorage::Gpu(g)) => {
                // through the host: read the buffer, write, copy it back in place
                let whole = Layout::contiguous(&[g.len()]);
                if let Ok(mut h) = g.to_host(&whole) {
                    h.write_f64_at(offsets, vals);
                    let _ = g.overwrite(&h);
                }
            }
            None => {}
        }
    }

    /// Storage offsets of every element, in logical order.
    pub(crate) fn offsets(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.numel());
        for_each_offset(
            &self.layout.shape,
            &self.layout.strides,
            self.layout.offset,
            |o| out.push(o),
        );
        out
    }
}

/// Write `src` (broadcast to `dst`'s shape) into `dst`'s storage at its layout, converted to
/// `dst`'s dtype, through the device interface (copy_, in-place results). A source that reads
/// `dst`'s own storage is copied out first, so overlapping views behave as a copy.
pub(crate) fn store_into(dst: &Tensor, src: &Tensor) -> Result<()> {
    if dst.numel() == 0 {
        return Ok(());
    }
    let shape = dst.layout.shape.clone();
    let copy = if dst.shares_storage(src) {
        let r = src.read();
        let s = r.as_ref().ok_or_else(|| src.phantom_error())?;
        Some(s.to_dtype(&src.layout, src.dtype())?)
    } else {
        None
    };
    let mut d = dst.storage.data.borrow_mut();
    let d = d.as_mut().ok_or_else(|| dst.phantom_error())?;
    match &copy {
        Some(c) => d.copy_from(
            &dst.layout,
            c,
            &Layout::contiguous(&src.layout.shape).broadcast_as(&shape),
        ),
        None => {
            let r = src.read();
            let s = r.as_ref().ok_or_else(|| src.phantom_error())?;
            d.copy_from(&dst.layout, s, &src.layout.broadcast_as(&shape))
        }
    }
}

/// Gather `t` broadcast to `shape` into a contiguous vector.
pub(crate) fn broadcast_values(t: &Tensor, shape: &[usize]) -> Vec<f64> {
    t.layout_values(&t.layout.broadcast_as(shape))
}

/// A `[r, c]` layout seen as a batch of one: `[1, r, c]`.
pub(crate) fn batched(l: &Layout) -> Layout {
    let mut shape = vec![1];
    shape.extend_from_slice(&l.shape);
    let mut strides = vec![0];
    strides.extend_from_slice(&l.strides);
    Layout::new(shape, strides, l.offset)
}

/// A `[b.., r, c]` layout as `[B, r, c]` when its batch dims can be walked with one stride
/// (None: the operand must be copied first).
pub(crate) fn collapse_batch(l: &Layout) -> Option<Layout> {
    let nd = l.shape.len();
    if nd < 2 {
        return None;
    }
    let (bs, bst) = (&l.shape[..nd - 2], &l.strides[..nd - 2]);
    let total: usize = bs.iter().product();
    // the batch dims with more than one entry must nest: stride[i] = stride[i+1] * size[i+1]
    let live: Vec<(usize, usize)> = bs
        .iter()
        .zip(bst)
        .filter(|(s, _)| **s != 1)
        .map(|(a, b)| (*a, *b))
        .collect();
    for w in live.windows(2) {
        if w[0].1 != w[1].1 * w[1].0 {
            return None;
        }
    }
    let stride = live.last().map_or(0, |&(_, s)| s);
    Some(Layout::new(
        vec![total, l.shape[nd - 2], l.shape[nd - 1]],
        vec![stride, l.strides[nd - 2], l.strides[nd - 1]],
        l.offset,
    ))
}

impl Runtime {
    /// A fresh contiguous tensor of f64 `data` cast to `dtype` (None: a phantom).
    pub(crate) fn alloc_tensor(
        &self,
        shape: Vec<usize>,
        dtype: DType,
        device: Device,
        data: Option<Vec<f64>>,
        pinned: bool,
    ) -> Result<Tensor> {
        let keep = data.is_some() && device != Device::Meta;
        let out = self.alloc_out(shape, dtype, device, keep, pinned)?;
        if let Some(d) = data
            && out.wants_values()
        {
            if d.len() != out.numel() {
                return Err(EngineError::runtime(
                    "internal: value count does not match the shape",
                ));
            }
            let h = HostStorage::from_f64s(dtype, &d)?;
            out.set_values(self.backend_for(device).upload(h)?)?;
        }
        Ok(out)
    }

    /// nll_loss (after log_softmax when `softmax_first`) of 1-D or 2-D `input` (n samples
    /// of c classes), through the device interface.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn nll_values(
        &self,
        input: &Tensor,
        target: &Tensor,
        weight: Option<&Tensor>,
        n: usize,
        c: usize,
        ignore_index: i64,
        reduction: Reduction,
        softmax_first: bool,
    ) -> Result<Checked<DeviceStorage>> {
        let dt = input.dtype();
        let pi = super::ops::prepare(input, dt, &input.layout.shape)?;
        let (si, li) = pi.pair()?;
        let lp = if softmax_first {
            si.softmax(li, input.dim() - 1, true)?
        } else {
            si.to_dtype(li, dt)?
        };
        let pt = super::ops::prepare(target, DType::Int64, &target.layout.shape)?;
        let tgt = match pt.arg()? {
            Arg::Tensor(s, l) => s.to_dtype(l, DType::Int64)?,
            Arg::Scalar(_) => return Err(EngineError::runtime("internal: scalar target")),
        };
        let w = match weight {
            Some(w) => {
                let pw = super::ops::prepare(w, dt, &w.layout.shape)?;
                let (sw, lw) = pw.pair()?;
                Some(sw.to_dtype(lw, dt)?)
            }
            None => None,
        };
        lp.nll_loss(&NllLoss {
            n,
            c,
            target: &tgt,
            weight: w.as_ref(),
            ignore_index,
            reduction,
        })
    }
}
