//! What every op's front half shares: output allocation (the caching allocator for CUDA,
//! the host-memory budget for values), running the back half under the run's interrupt,
//! the devices check, autograd's flags, and the timeline event.
//!
//! An op is written as: checks (PyTorch's errors, via [`Runtime::guarded`]) → [`Runtime::produce`]
//! (allocate, then compute through the device interface when every input keeps its values)
//! → autograd (`grad_of`, `autograd::attach`) → [`Runtime::complete`] (the event).

use super::{Layout, Storage, Tensor};
use crate::engine::backend::{BackendDevice, BackendStorage};
use crate::engine::device::Device;
use crate::engine::dtype::DType;
use crate::engine::error::{EngineError, Result};
use crate::engine::host::HostDevice;
use crate::engine::hostmem;
use crate::engine::runtime::Runtime;
use crate::engine::storage::{AnyDevice, DeviceStorage};
use crate::engine::timing::Cost;
use std::cell::RefCell;
use std::rc::Rc;

impl Runtime {
    /// The backend device that holds the values of tensors on `device`. The one place a
    /// tensor device maps to a [`crate::engine::backend::BackendDevice`]: today the host, for
    /// CPU tensors and the simulated GPU alike.
    pub(crate) fn backend_for(&self, device: Device) -> AnyDevice {
        match device {
            Device::Cuda(i) => match self.gpus.get(i as usize) {
                Some(g) => AnyDevice::Gpu(crate::engine::cuda::gpu_storage::GpuHandle(g.clone())),
                None => AnyDevice::Host(HostDevice),
            },
            _ => AnyDevice::Host(HostDevice),
        }
    }

    /// A fresh output tensor on `device`: its allocator block on CUDA (the caching
    /// allocator's counters, OutOfMemoryError past the card) and, when `keep`, its share of
    /// the host budget for values. Past the budget a CPU tensor is PyTorch's allocation
    /// failure and a CUDA tensor a phantom. The values are installed by the caller
    /// ([`Tensor::set_values`]); until then the tensor is a phantom (empty ones excepted).
    pub(crate) fn alloc_out(
        &self,
        shape: Vec<usize>,
        dtype: DType,
        device: Device,
        keep: bool,
        pinned: bool,
    ) -> Result<Tensor> {
        let numel = super::checked_numel(&shape)?;
        let nbytes = (numel as u64).saturating_mul(dtype.element_size() as u64);
        if device == Device::Cpu && nbytes > self.host.limit {
            return Err(EngineError::runtime(hostmem::cpu_alloc_error(nbytes)));
        }
        let block = match device {
            Device::Cuda(i) => Some(self.alloc_block(i, nbytes)?),
            _ => None,
        };
        let mut host = None;
        let mut data = None;
        if keep && device != Device::Meta {
            if numel == 0 {
                data = Some(self.backend_for(device).zeros(0, dtype)?);
            } else {
                host = self.host.take(nbytes);
                if host.is_none() && device == Device::Cpu {
                    return Err(EngineError::runtime(hostmem::cpu_alloc_error(nbytes)));
                }
            }
        }
        Ok(Tensor {
            storage: Rc::new(Storage {
                data: RefCell::new(data),
                numel,
                dtype,
                device,
                pinned,
                _block: block,
                _host: host,
                inference: self.inference_mode(),
                provenance: crate::engine::provenance::Provenance::new(self.line()),
            }),
            layout: Layout::contiguous(&shape),
            requires_grad: false,
            grad_fn: None,
            node: None,
            leaf: None,
        })
    }

    /// Allocate the output and, when every input keeps its values and the output may keep
    /// its own, compute them with `back` (the device's back half) under the run's interrupt.
    pub(crate) fn produce(
        &self,
        inputs: &[&Tensor],
        shape: Vec<usize>,
        dtype: DType,
        device: Device,
        back: impl FnOnce() -> Result<DeviceStorage>,
    ) -> Result<Tensor> {
        let keep = device != Device::Meta && inputs.iter().all(|t| !t.is_phantom());
        let out = self.alloc_out(shape, dtype, device, keep, false)?;
        if out.wants_values() {
            let v = self.compute(back)?;
            out.set_values(v)?;
        }
        Ok(out)
    }

    /// Run a back half with the run's cancel flag and deadline polled inside its loops.
    pub(crate) fn compute<T>(&self, f: impl FnOnce() -> Result<T>) -> Result<T> {
        let _guard = crate::engine::interrupt::enter(&self.cfg.interrupt, self.line());
        let r = f();
        // A bit-exact kernel that stopped early returned a partial result: the stop wins.
        match crate::engine::interrupt::take_pending() {
            Some(e) => Err(e),
            None => r,
        }
    }

    /// Run `f` (the checks); on error record a host error for `op` on the timeline.
    pub(crate) fn guarded<T>(
        &self,
        op: &str,
        hint: Option<u32>,
        f: impl FnOnce() -> Result<T>,
    ) -> Result<T> {
        f().map_err(|e| self.host_error(op, hint, e))
    }

    /// Record a finished op on `dev`: a kernel on CUDA, host work on the CPU.
    pub(crate) fn complete(
        &self,
        op: &str,
        dev: Device,
        cost: Cost,
        assert: Vec<String>,
    ) -> Result<()> {
        match dev {
            Device::Cuda(i) => self.launch(op, i, cost, assert),
            Device::Cpu => {
                self.cpu_op(op, cost);
                Ok(())
            }
            Device::Meta => {
                self.host_event(op, None, self.timing().host_dispatch_us);
                Ok(())
            }
        }
    }

    /// Record a finished op that reads its input `t` and writes `out` once (a unary op, a
    /// reduction, a scan), returning `out`.
    pub(crate) fn complete_pass(&self, op: &str, t: &Tensor, out: Tensor) -> Result<Tensor> {
        let cost = Cost::new((t.nbytes() + out.nbytes()) as u64, t.numel() as u64);
        self.complete(op, t.device(), cost, Vec::new())?;
        Ok(out)
    }

    /// The common device of tensor operands (CPU 0-dim tensors may join CUDA ones, as
    /// scalars), with PyTorch's mismatch messages.
    pub(crate) fn common_device(&self, ts: &[&Tensor]) -> Result<Device> {
        if ts.iter().any(|t| t.is_meta()) {
            if let Some(o) = ts.iter().find(|t| !t.is_meta()) {
                return Err(EngineError::runtime(format!(
                    "Tensor on device {} is not on the expected device meta!",
                    o.device()
                )));
            }
            return Ok(Device::Meta);
        }
        let common = ts
            .iter()
            .map(|t| t.device())
            .find(|d| *d != Device::Cpu)
            .unwrap_or(Device::Cpu);
        for t in ts {
            let d = t.device();
            if d == common || (d == Device::Cpu && t.dim() == 0 && common.is_cuda()) {
                continue;
            }
            let roles = ["self", "other", "third", "fourth"];
            let named: Vec<(&Tensor, &str)> = ts
                .iter()
                .enumerate()
                .map(|(i, t)| (*t, roles.get(i).copied().unwrap_or("operand")))
                .collect();
            self.note_device_clash("", &named);
            return Err(EngineError::runtime(format!(
                "Expected all tensors to be on the same device, but found at least two devices, {common} and {d}!"
            )));
        }
        Ok(common)
    }

    /// The device check of an ATen CUDA wrapper: the first argument's device is the common one.
    pub(crate) fn wrapper_devices(&self, args: &[(&Tensor, &str)], method: &str) -> Result<Device> {
        let any_cuda = args.iter().any(|(t, _)| t.is_cuda());
        let first = args[0].0.device();
        if args.iter().any(|(t, _)| t.is_meta()) {
            if let Some((o, _)) = args.iter().find(|(t, _)| !t.is_meta()) {
                return Err(EngineError::runtime(format!(
                    "Tensor on device {} is not on the expected device meta!",
                    o.device()
                )));
            }
            return Ok(Device::Meta);
        }
        if !any_cuda {
            return Ok(Device::Cpu);
        }
        for (t, name) in &args[1..] {
            if t.device() != first {
                self.note_device_clash(method, args);
                return Err(EngineError::runtime(format!(
                    "Expected all tensors to be on the same device, but found at least two devices, {first} and {}! (when checking argument for argument {name} in method wrapper_CUDA_{method})",
                    t.device()
                )));
            }
        }
        Ok(first)
    }

    /// Mark `out` as requiring grad with node name `name` when grad mode is on, it is
    /// floating and an input requires grad.
    pub(crate) fn grad_of(&self, ts: &[&Tensor], out: &mut Tensor, name: &'static str) {
        if self.grad_enabled()
            && out.dtype().is_floating_point()
            && ts.iter().any(|t| t.requires_grad)
        {
            out.requires_grad = true;
            out.grad_fn = Some(name);
            // the inputs' edges, for next_functions; an op with a formula replaces this node
            let edges: Vec<_> = ts.iter().map(|t| super::autograd::edge_of(t)).collect();
            super::autograd::attach(out, &edges, super::autograd::Kind::NoFormula);
        }
    }
}

impl Tensor {
    /// `t.is_inference()`: made under `torch.inference_mode()`.
    pub(crate) fn is_inference(&self) -> bool {
        self.storage.inference
    }

    /// Whether this fresh output should get values (it has its host-budget share).
    pub(crate) fn wants_values(&self) -> bool {
        self.storage._host.is_some()
    }

    /// Install computed values into a fresh output.
    pub(crate) fn set_values(&self, v: DeviceStorage) -> Result<()> {
        if v.len() != self.storage.numel || v.dtype() != self.dtype() {
            return Err(EngineError::runtime(format!(
                "internal: a kernel returned {} {} values for a {} tensor of {} elements",
                v.len(),
                v.dtype(),
                self.dtype(),
                self.storage.numel
            )));
        }
        // on a GPU backend the values move into the tensor's allocator block
        let v = match (v, &self.storage._block) {
            (DeviceStorage::Gpu(g), Some(b)) => {
                DeviceStorage::Gpu(crate::engine::cuda::gpu_storage::adopt(g, b.addr())?)
            }
            (v, _) => v,
        };
        *self.storage.data.borrow_mut() = Some(v);
        Ok(())
    }

    /// The storage's values and this tensor's layout, for a back half (None: a phantom).
    pub(crate) fn read(&self) -> std::cell::Ref<'_, Option<DeviceStorage>> {
        self.storage.data.borrow()
    }
}
