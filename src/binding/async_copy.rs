//! `cuda_t.to('cpu', non_blocking=True)`: a device-to-host copy the host does not wait for.
//!
//! PyTorch returns a CPU tensor in pinned memory at once and queues the copy on the stream
//! (PyTorch's tutorial "A guide on good usage of non_blocking and pin_memory()"). Its values
//! are there only once the copy has run; reading it before a synchronisation gives whatever the
//! buffer held (zeros for a fresh one). Here the copy is queued on the source device's stream;
//! the returned tensor holds zeros until the host clock has passed the copy's end on the
//! device (after `torch.cuda.synchronize()`, an `.item()` of later work, or plain host time),
//! and the copied values from then on.

use crate::engine::timing::Cost;
use crate::engine::{Device, Runtime, Tensor};
use std::cell::RefCell;
use std::rc::Rc;

use super::PyTensor;

/// A copy whose values have not landed: the placeholder's storage (identity), the values, and
/// the copy's end on the device clock.
struct Pending {
    placeholder: Tensor,
    values: Vec<f64>,
    end_us: f64,
}

thread_local! {
    static PENDING: RefCell<Vec<Pending>> = const { RefCell::new(Vec::new()) };
}

/// The non-blocking device-to-host copy of `t`; None leaves it to the engine (not a CUDA to
/// CPU copy, a dtype change, autograd, values not kept).
pub(crate) fn d2h_non_blocking(
    rt: &Runtime,
    t: &Tensor,
    device: Option<Device>,
    dtype_change: bool,
) -> Option<crate::engine::Result<Tensor>> {
    let Device::Cuda(src) = t.device() else {
        return None;
    };
    if device != Some(Device::Cpu) || dtype_change || t.requires_grad() || t.is_phantom() {
        return None;
    }
    let values = t.values_unchecked();
    if values.len() != t.numel() {
        return None;
    }
    Some((|| {
        let zeros = vec![0.0; values.len()];
        let placeholder = rt.alloc_tensor(
            t.shape().to_vec(),
            t.dtype(),
            Device::Cpu,
            Some(zeros),
            true,
        )?;
        // queued on the stream behind the work already there; the host does not wait
        let bytes = (t.numel() * t.dtype().element_size()) as u64;
        rt.launch("to", src, Cost::new(bytes, 0), Vec::new())?;
        let end_us = rt
            .events()
            .last()
            .and_then(|e| e.device_end_us)
            .unwrap_or_else(|| rt.host_us());
        PENDING.with(|p| {
            p.borrow_mut().push(Pending {
                placeholder: placeholder.clone(),
                values,
                end_us,
            })
        });
        Ok(placeholder)
    })())
}

/// Before `p`'s tensor is read: when it is a pending copy whose end the host clock has passed,
/// its values land (a pinned CPU tensor with the copied values replaces the placeholder).
pub(crate) fn settle(p: &PyTensor) {
    let landed = PENDING.with(|pending| {
        let mut pending = pending.borrow_mut();
        if pending.is_empty() {
            return None;
        }
        let now = p.rt.host_us();
        let t = p.t.borrow();
        let i = pending
            .iter()
            .position(|e| Rc::ptr_eq(&e.placeholder.storage, &t.storage))?;
        if pending[i].end_us > now {
            return None;
        }
        Some(pending.swap_remove(i))
    });
    if let Some(e) = landed {
        let shape = e.placeholder.shape().to_vec();
        let dtype = e.placeholder.dtype();
        if let Ok(real) =
            p.rt.alloc_tensor(shape, dtype, Device::Cpu, Some(e.values), true)
        {
            *p.t.borrow_mut() = real;
        }
    }
}

/// Forget every pending copy (a new run).
pub(crate) fn clear() {
    PENDING.with(|p| p.borrow_mut().clear());
}
