//! Creating tensors, moving them between devices and dtypes, reading them back.

use super::{Layout, Tensor, contiguous_strides};
use crate::engine::backend::{BackendDevice, BackendStorage};
use crate::engine::device::Device;
use crate::engine::dtype::{DType, Scalar, default_float};
use crate::engine::error::{EngineError, Result};
use crate::engine::host::HostStorage;
use crate::engine::runtime::Runtime;
use crate::engine::storage::DeviceStorage;
use crate::engine::timing::Cost;

/// The dtype `torch.tensor(data)` infers: any float → float32, else any int → int64, else bool.
pub fn infer_dtype(values: &[Scalar]) -> DType {
    let mut dt = DType::Bool;
    for v in values {
        match v {
            Scalar::Float(_) => return default_float(),
            Scalar::Int(_) => dt = DType::Int64,
            Scalar::Bool(_) => {}
        }
    }
    if values.is_empty() {
        default_float()
    } else {
        dt
    }
}

impl Runtime {
    /// A tensor on `device` of already computed host values (a phantom past the host
    /// budget on CUDA; PyTorch's allocation failure past it on the CPU).
    pub(crate) fn tensor_from_host(
        &self,
        shape: Vec<usize>,
        device: Device,
        values: HostStorage,
        pinned: bool,
    ) -> Result<Tensor> {
        let out = self.alloc_out(
            shape,
            values.dtype(),
            device,
            device != Device::Meta,
            pinned,
        )?;
        if out.wants_values() {
            out.set_values(self.backend_for(device).upload(values)?)?;
        }
        Ok(out)
    }

    /// Record a creation/fill op: a kernel on CUDA, host work on the CPU.
    pub(crate) fn finish_fill(&self, op: &str, t: &Tensor) -> Result<()> {
        let cost = Cost::new(t.nbytes() as u64, t.numel() as u64);
        self.complete(op, t.device(), cost, Vec::new())
    }

    /// A new tensor whose `numel` values `make` builds on the tensor's device (not called
    /// for meta tensors or CUDA tensors past the host budget), recorded as one fill.
    pub(crate) fn created(
        &self,
        op: &str,
        shape: Vec<usize>,
        dtype: DType,
        device: Device,
        make: impl FnOnce(usize) -> Result<DeviceStorage>,
    ) -> Result<Tensor> {
        let t = self
            .alloc_out(shape, dtype, device, device != Device::Meta, false)
            .and_then(|t| {
                if t.wants_values() {
                    let n = t.numel();
                    t.set_values(self.compute(|| make(n))?)?;
                }
                Ok(t)
            })
            .map_err(|e| self.host_error(op, device.cuda_index(), e))?;
        self.finish_fill(op, &t)?;
        Ok(t)
    }

    /// [`Runtime::created`] with the values built on the host first.
    pub(crate) fn created_host(
        &self,
        op: &str,
        shape: Vec<usize>,
        dtype: DType,
        device: Device,
        make: impl FnOnce(usize) -> Result<HostStorage>,
    ) -> Result<Tensor> {
        let backend = self.backend_for(device);
        self.created(op, shape, dtype, device, |n| backend.upload(make(n)?))
    }

    /// `torch.tensor(data, dtype=, device=)`: `values` flattened row-major with `shape`.
    pub fn tensor(
        &self,
        values: &[Scalar],
        shape: Vec<usize>,
        dtype: Option<DType>,
        device: Device,
    ) -> Result<Tensor> {
        let dt = dtype.unwrap_or_else(|| infer_dtype(values));
        let numel: usize = shape.iter().product();
        if numel != values.len() {
            return Err(EngineError::value("tensor data and shape disagree"));
        }
        let t = HostStorage::from_scalars(dt, values)
            .and_then(|h| self.tensor_from_host(shape, device, h, false))
            .map_err(|e| self.host_error("tensor", device.cuda_index(), e))?;
        match device {
            Device::Cuda(i) => self.h2d("tensor", i, t.nbytes() as u64, false, false)?,
            _ => self.cpu_op("tensor", Cost::new(t.nbytes() as u64, 0)),
        }
        Ok(t)
    }

    pub fn full(
        &self,
        shape: &[usize],
        value: Scalar,
        dtype: Option<DType>,
        device: Device,
    ) -> Result<Tensor> {
        let dt = dtype.unwrap_or(match value {
            Scalar::Float(_) => default_float(),
            Scalar::Int(_) => DType::Int64,
            Scalar::Bool(_) => DType::Bool,
        });
        let b = self.backend_for(device);
        self.created("full", shape.to_vec(), dt, device, |n| b.full(n, dt, value))
    }
    pub fn zeros(&self, shape: &[usize], dtype: Option<DType>, device: Device) -> Result<Tensor> {
        let dt = dtype.unwrap_or_else(default_float);
        let b = self.backend_for(device);
        self.created("zeros", shape.to_vec(), dt, device, |n| b.zeros(n, dt))
    }
    pub fn ones(&self, shape: &[usize], dtype: Option<DType>, device: Device) -> Result<Tensor> {
        let dt = dtype.unwrap_or_else(default_float);
        let b = self.backend_for(device);
        self.created("ones", shape.to_vec(), dt, device, |n| {
            b.full(n, dt, Scalar::Int(1))
        })
    }
    /// `torch.empty`: zeros in the simulator (PyTorch leaves garbage).
    pub fn empty(&self, shape: &[usize], dtype: Option<DType>, device: Device) -> Result<Tensor> {
        let dt = dtype.unwrap_or_else(default_float);
        let b = self.backend_for(device);
        let t = self
            .alloc_out(shape.to_vec(), dt, device, device != Device::Meta, false)
            .and_then(|t| {
                if t.wants_values() {
                    t.set_values(b.zeros(t.numel(), dt)?)?;
                }
                Ok(t)
            })
            .map_err(|e| self.host_error("empty", device.cuda_index(), e))?;
        // Allocation only: no kernel.
        self.host_event("empty", device.cuda_index(), self.timing().host_dispatch_us);
        Ok(t)
    }

    /// `torch.arange(start, end, step)`; `float_args` when any argument was a Python float.
    pub fn arange(
        &self,
        start: f64,
        end: f64,
        step: f64,
        float_args: bool,
        dtype: Option<DType>,
        device: Device,
    ) -> Result<Tensor> {
        if step == 0.0 {
            return Err(self.host_error(
                "arange",
                device.cuda_index(),
                EngineError::runtime("step must be nonzero"),
            ));
        }
        if !start.is_finite() || !end.is_finite() {
            return Err(self.host_error(
                "arange",
                device.cuda_index(),
                EngineError::runtime(format!("unsupported range: {start} -> {end}")),
            ));
        }
        if (step > 0.0 && start > end) || (step < 0.0 && start < end) {
            return Err(self.host_error(
                "arange",
                device.cuda_index(),
                EngineError::runtime("upper bound and lower bound inconsistent with step sign"),
            ));
        }
        let dt = dtype.unwrap_or(if float_args {
            default_float()
        } else {
            DType::Int64
        });
        let n = ((end - start) / step).ceil().max(0.0) as usize;
        self.created_host("arange", vec![n], dt, device, |n| {
            if !float_args && !dt.is_floating_point() {
                // integer arguments count exactly in int64
                let (s, st) = (start as i64, step as i64);
                let v: Vec<Scalar> = (0..n as i64)
                    .map(|i| Scalar::Int(s.wrapping_add(i.wrapping_mul(st))))
                    .collect();
                return HostStorage::from_scalars(dt, &v);
            }
            if dt == DType::Float32 {
                // RangeFactoriesKernel.cpp's vectorised fill, bit for bit
                let v = crate::engine::numerics::range::arange_f32(start, end, step);
                if v.len() == n {
                    return Ok(HostStorage::F32(v));
                }
            }
            // in double, then converted (ATen's accumulate type for float on the CPU)
            let v: Vec<f64> = (0..n).map(|i| dt.cast(start + i as f64 * step)).collect();
            HostStorage::from_f64s(dt, &v)
        })
    }

    pub fn linspace(
        &self,
        start: f64,
        end: f64,
        steps: usize,
        dtype: Option<DType>,
        device: Device,
    ) -> Result<Tensor> {
        let dt = dtype.unwrap_or_else(default_float);
        let step = if steps > 1 {
            (end - start) / (steps - 1) as f64
        } else {
            0.0
        };
        let half = steps / 2;
        let f32m = dt != DType::Float64 && dt.is_floating_point();
        self.created_host("linspace", vec![steps], dt, device, |n| {
            let v: Vec<f64> = (0..n)
                .map(|i| {
                    // ATen fills the second half from the end for symmetry, in the dtype's
                    // arithmetic (float32 step and products for float32)
                    // steps == 1: ATen fills the start
                    let v = if steps == 1 {
                        start
                    } else if f32m {
                        let (s, e) = (start as f32, end as f32);
                        let st = if steps > 1 {
                            (e - s) / (steps - 1) as f32
                        } else {
                            0.0
                        };
                        (if i < half {
                            st.mul_add(i as f32, s)
                        } else {
                            (-st).mul_add((steps - 1 - i) as f32, e)
                        }) as f64
                    } else if i < half {
                        start + step * i as f64
                    } else {
                        end - step * (steps - 1 - i) as f64
                    };
                    dt.cast(v)
                })
                .collect();
            HostStorage::from_f64s(dt, &v)
        })
    }

    // ----- moving and converting -----

    /// `t`'s values converted to `dt` and placed on `dev` (None: `t` is a phantom).
    fn converted(&self, t: &Tensor, dt: DType, dev: Device) -> Result<Option<DeviceStorage>> {
        let r = t.read();
        let Some(s) = r.as_ref() else {
            return Ok(None);
        };
        self.compute(|| {
            if self.backend_for(t.device()) == self.backend_for(dev) {
                return s.to_dtype(&t.layout, dt).map(Some);
            }
            let h = s.to_host(&t.layout)?;
            let h = crate::engine::host::elementwise::to_dtype(
                &h,
                &Layout::contiguous(&[h.len()]),
                dt,
            )?;
            self.backend_for(dev).upload(h).map(Some)
        })
    }

    /// A contiguous copy of `t` on `dev` as `dt` (a phantom when `t` is one or the values
    /// do not fit).
    pub(crate) fn copy_to(
        &self,
        t: &Tensor,
        dt: DType,
        dev: Device,
        pinned: bool,
    ) -> Result<Tensor> {
        let keep = dev != Device::Meta && !t.is_phantom();
        let out = self.alloc_out(t.layout.shape.clone(), dt, dev, keep, pinned)?;
        out.storage
            .provenance
            .note_copy_of(&t.storage.provenance, t.device().to_string());
        if out.wants_values()
            && let Some(v) = self.converted(t, dt, dev)?
        {
            out.set_values(v)?;
        }
        Ok(out)
    }

    /// `t.to(device=, dtype=, non_blocking=, copy=)`; `op` names it in the timeline
    /// (`to`, `cuda`, `cpu`, `float`, ...). Returns a handle to `t` itself when nothing changes.
    pub fn to(
        &self,
        t: &Tensor,
        device: Option<Device>,
        dtype: Option<DType>,
        non_blocking: bool,
        copy: bool,
        op: &str,
    ) -> Result<Tensor> {
        let dev = device.unwrap_or(t.device());
        let dt = dtype.unwrap_or(t.dtype());
        let src = t.device();
        if dev == src && dt == t.dtype() && !copy {
            self.host_event(op, src.cuda_index(), 1.0);
            return Ok(t.clone());
        }
        if src == Device::Meta && dev != Device::Meta {
            return Err(self.host_error(
                op,
                dev.cuda_index(),
                EngineError::not_implemented("Cannot copy out of meta tensor; no data!"),
            ));
        }
        let bytes = (t.numel() * dt.element_size()) as u64;
        // Values leave a CUDA device only through a copy the host waits for.
        if let (Device::Cuda(s), false) = (src, dev == src) {
            match dev {
                Device::Cpu => self.d2h(op, s, bytes, false)?,
                Device::Cuda(d) => {
                    let out = self
                        .copy_to(t, dt, dev, false)
                        .map_err(|e| self.host_error(op, Some(d), e))?;
                    self.d2d(op, s, d, bytes)?;
                    return Ok(self.keep_grad(t, out));
                }
                Device::Meta => {}
            }
        }
        if t.is_phantom() && dev == Device::Cpu {
            return Err(t.phantom_error());
        }
        let out = self
            .copy_to(t, dt, dev, false)
            .map_err(|e| self.host_error(op, dev.cuda_index(), e))?;
        match (src, dev) {
            (Device::Cpu, Device::Cuda(d)) => {
                self.h2d(op, d, bytes, t.is_pinned(), non_blocking)?
            }
            (Device::Cuda(d), Device::Cuda(_)) => {
                self.launch(op, d, Cost::new(bytes * 2, 0), Vec::new())?
            }
            (Device::Cuda(_), _) => {}
            _ => self.cpu_op(op, Cost::new(bytes * 2, 0)),
        }
        Ok(self.keep_grad(t, out))
    }

    fn keep_grad(&self, src: &Tensor, mut out: Tensor) -> Tensor {
        if src.requires_grad && self.grad_enabled() && out.dtype().is_floating_point() {
            out.requires_grad = true;
            out.grad_fn = Some("ToCopyBackward0");
            let e = [super::autograd::edge_of(src)];
            super::autograd::attach(&mut out, &e, super::autograd::Kind::Identity);
        }
        out
    }

    /// `t.pin_memory()`.
    pub fn pin_memory(&self, t: &Tensor) -> Result<Tensor> {
        if t.device() != Device::Cpu {
            return Err(self.host_error(
                "pin_memory",
                t.device().cuda_index(),
                EngineError::runtime(format!(
                    "cannot pin '{}' only dense CPU tensors can be pinned",
                    tensor_type_name(t)
                )),
            ));
        }
        let out = self.copy_to(t, t.dtype(), Device::Cpu, true)?;
        self.cpu_op("pin_memory", Cost::new(t.nbytes() as u64 * 2, 0));
        Ok(out)
    }

    /// Bring a tensor's values to the host for reading (`item`, `tolist`, printing): a D2H
    /// copy the host waits for on CUDA.
    pub(crate) fn read_back(&self, t: &Tensor, op: &str, bytes: u64) -> Result<()> {
        match t.device() {
            Device::Cuda(i) => self.d2h(op, i, bytes, false),
            Device::Meta => Err(self.host_error(op, None, EngineError::not_implemented("Cannot copy out of meta tensor; no data! Please consider using .to_empty() instead of .to() when moving module from meta to a different device.".to_string()))),
            Device::Cpu => {
                self.host_event(op, None, self.timing().host_query_us + bytes as f64 / self.timing().cpu_bytes_per_us);
                Ok(())
            }
        }
    }

    /// `t.item()`.
    pub fn item(&self, t: &Tensor) -> Result<Scalar> {
        if t.numel() != 1 {
            return Err(self.host_error(
                "item",
                t.device().cuda_index(),
                EngineError::runtime(format!(
                    "a Tensor with {} elements cannot be converted to Scalar",
                    t.numel()
                )),
            ));
        }
        self.read_back(t, "item", t.element_size() as u64)?;
        Ok(t.scalars()?[0])
    }

    /// `bool(t)` / `if t:`.
    pub fn to_bool(&self, t: &Tensor) -> Result<bool> {
        if t.numel() == 0 {
            return Err(self.host_error(
                "bool",
                t.device().cuda_index(),
                EngineError::runtime("Boolean value of Tensor with no values is ambiguous"),
            ));
        }
        if t.numel() > 1 {
            return Err(self.host_error(
                "bool",
                t.device().cuda_index(),
                EngineError::runtime(
                    "Boolean value of Tensor with more than one value is ambiguous",
                ),
            ));
        }
        self.read_back(t, "bool", t.element_size() as u64)?;
        Ok(t.scalars()?[0].as_f64() != 0.0)
    }

    /// `t.tolist()`: the elements in row-major order (the shape is `t.shape()`).
    pub fn tolist(&self, t: &Tensor) -> Result<Vec<Scalar>> {
        self.read_back(t, "tolist", t.nbytes() as u64)?;
        t.scalars()
    }

    /// `t.numpy()`: the checks PyTorch makes, then the values (row-major).
    pub fn numpy(&self, t: &Tensor) -> Result<Vec<Scalar>> {
        if t.requires_grad {
            return Err(self.host_error(
                "numpy",
                t.device().cuda_index(),
                EngineError::runtime("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."),
            ));
        }
        if t.device() != Device::Cpu {
            return Err(self.host_error(
                "numpy",
                t.device().cuda_index(),
                EngineError::type_error(format!(
                    "can't convert {} device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.",
                    t.device()
                )),
            ));
        }
        if t.dtype() == DType::BFloat16 {
            // numpy has no bfloat16
            return Err(self.host_error(
                "numpy",
                None,
                EngineError::type_error("Got unsupported ScalarType BFloat16"),
            ));
        }
        self.host_event("numpy", None, self.timing().host_query_us);
        t.scalars()
    }

    /// `t.clone()`.
    pub fn clone_tensor(&self, t: &Tensor) -> Result<Tensor> {
        let mut out = self
            .copy_to(t, t.dtype(), t.device(), false)
            .map_err(|e| self.host_error("clone", t.device().cuda_index(), e))?;
        if t.requires_grad && self.grad_enabled() {
            out.requires_grad = true;
            out.grad_fn = Some("CloneBackward0");
            let e = [super::autograd::edge_of(t)];
            super::autograd::attach(&mut out, &e, super::autograd::Kind::Identity);
        }
        self.complete(
            "clone",
            t.device(),
            Cost::new(2 * t.nbytes() as u64, 0),
            Vec::new(),
        )?;
        Ok(out)
    }

    /// `t.contiguous()`: the same tensor when already contiguous.
    pub fn contiguous(&self, t: &Tensor) -> Result<Tensor> {
        if t.is_contiguous() {
            return Ok(t.clone());
        }
        self.clone_tensor(t)
    }

    /// `t.reshape(shape)`: a view when possible, else a copy.
    pub fn reshape(&self, t: &Tensor, shape: &[i64]) -> Result<Tensor> {
        let shape_u = super::infer_shape(shape, t.numel())
            .map_err(|e| self.host_error("reshape", t.device().cuda_index(), e))?;
        match t.view(shape) {
            Ok(v) => {
                self.host_event("reshape", t.device().cuda_index(), 1.0);
                Ok(v)
            }
            Err(_) => {
                let c = self.clone_tensor(t)?;
                let strides = contiguous_strides(&shape_u);
                Ok(c.view_of(shape_u, strides, 0))
            }
        }
    }

    /// A view op (no device work): records a short host event, passes errors on.
    pub(crate) fn view_op(&self, op: &str, t: &Tensor, r: Result<Tensor>) -> Result<Tensor> {
        match r {
            Ok(v) => {
                self.host_event(op, t.device().cuda_index(), 1.0);
                Ok(v)
            }
            Err(e) => Err(self.host_error(op, t.device().cuda_index(), e)),
        }
    }
}

/// The legacy tensor type name of a dtype (`FloatTensor`).
fn type_base(dt: DType) -> &'static str {
    match dt {
        DType::Bool => "BoolTensor",
        DType::UInt8 => "ByteTensor",
        DType::Int8 => "CharTensor",
        DType::Int16 => "ShortTensor",
        DType::Int32 => "IntTensor",
        DType::Int64 => "LongTensor",
        DType::Float16 => "HalfTensor",
        DType::BFloat16 => "BFloat16Tensor",
        DType::Float32 => "FloatTensor",
        DType::Float64 => "DoubleTensor",
    }
}

/// `t.type()`: `torch.FloatTensor`, `torch.cuda.LongTensor`, ...
pub fn tensor_type_name(t: &Tensor) -> String {
    let base = type_base(t.dtype());
    if t.is_cuda() {
        format!("torch.cuda.{base}")
    } else {
        format!("torch.{base}")
    }
}

/// The dtype of a legacy type name (`torch.LongTensor`, `torch.cuda.FloatTensor`).
pub fn dtype_of_type_name(name: &str) -> Option<DType> {
    let base = name
        .strip_prefix("torch.cuda.")
        .or_else(|| name.strip_prefix("torch."))?;
    DType::ALL.into_iter().find(|&d| type_base(d) == base)
}
