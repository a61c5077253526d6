//! Creating tensors, moving them between devices and dtypes, reading them back.

use super::{Layout, MAX_HOST_ELEMENTS, Storage, Tensor, contiguous_strides};
use crate::engine::device::Device;
use crate::engine::dtype::{DEFAULT_FLOAT, DType, Scalar};
use crate::engine::error::{EngineError, Result};
use crate::engine::host::HostStorage;
use crate::engine::hostmem;
use crate::engine::rng::Generator;
use crate::engine::runtime::Runtime;
use crate::engine::timing::Cost;
use std::cell::RefCell;
use std::rc::Rc;

/// The dtype `torch.tensor(data)` infers: any float → float32, else any int → int64, else bool.
pub fn infer_dtype(values: &[Scalar]) -> DType {
    let mut dt = DType::Bool;
    for v in values {
        match v {
            Scalar::Float(_) => return DEFAULT_FLOAT,
            Scalar::Int(_) => dt = DType::Int64,
            Scalar::Bool(_) => {}
        }
    }
    if values.is_empty() { DEFAULT_FLOAT } else { dt }
}

impl Runtime {
    /// A fresh contiguous tensor on `device` (an allocator block on CUDA). `data` holds the
    /// `numel` values already cast to `dtype`; None means they are not known (an input was a
    /// phantom, or the tensor is too large to keep): the result is a phantom too, so nothing
    /// computed from unkept values is ever shown as if it were real. The values take their
    /// share of the host budget (hostmem.rs): past it a CPU tensor raises PyTorch's
    /// allocation failure and a CUDA tensor keeps its memory counted but not its values.
    pub(crate) fn alloc_tensor(
        &self,
        shape: Vec<usize>,
        dtype: DType,
        device: Device,
        data: Option<Vec<f64>>,
        pinned: bool,
    ) -> Result<Tensor> {
        let numel = super::checked_numel(&shape)?;
        let data = match data {
            Some(d) if numel <= MAX_HOST_ELEMENTS => {
                debug_assert_eq!(d.len(), numel);
                Some(HostStorage::from_f64s(dtype, &d[..numel.min(d.len())])?)
            }
            _ => None,
        };
        self.alloc_host(shape, dtype, device, data, pinned)
    }

    /// [`Runtime::alloc_tensor`] for typed values (`data`: `numel` elements of `dtype`).
    pub(crate) fn alloc_host(
        &self,
        shape: Vec<usize>,
        dtype: DType,
        device: Device,
        data: Option<HostStorage>,
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
        let mut phantom =
            device == Device::Meta || numel > MAX_HOST_ELEMENTS || (data.is_none() && numel > 0);
        let mut host = None;
        if !phantom && numel > 0 {
            host = self.host.take(nbytes);
            if host.is_none() {
                if device == Device::Cpu {
                    return Err(EngineError::runtime(hostmem::cpu_alloc_error(nbytes)));
                }
                phantom = true;
            }
        }
        let data = match data {
            Some(d) if !phantom => {
                debug_assert_eq!((d.len(), d.dtype()), (numel, dtype));
                Some(d)
            }
            _ if !phantom => Some(HostStorage::zeros(dtype, numel)?),
            _ => None,
        };
        let strides = contiguous_strides(&shape);
        Ok(Tensor {
            storage: Rc::new(Storage {
                data: RefCell::new(data),
                numel,
                dtype,
                device,
                pinned,
                _block: block,
                _host: host,
            }),
            layout: Layout::new(shape, strides, 0),
            requires_grad: false,
            grad_fn: None,
            node: None,
            leaf: None,
        })
    }

    /// Whether `numel` more values fit the host budget now (the caller then builds them).
    /// A CPU tensor that does not fit is PyTorch's allocation failure.
    pub(crate) fn host_room(&self, numel: usize, dtype: DType, device: Device) -> Result<bool> {
        if device == Device::Meta || numel > MAX_HOST_ELEMENTS {
            return Ok(false);
        }
        let nbytes = (numel as u64).saturating_mul(dtype.element_size() as u64);
        let fits = self.host.used().saturating_add(nbytes) <= self.host.limit;
        if !fits && device == Device::Cpu {
            return Err(EngineError::runtime(hostmem::cpu_alloc_error(nbytes)));
        }
        Ok(fits)
    }

    /// Record a creation/fill op: a kernel on CUDA, host work on the CPU.
    pub(crate) fn finish_fill(&self, op: &str, t: &Tensor) -> Result<()> {
        let cost = Cost::new(t.nbytes() as u64, t.numel() as u64);
        self.complete(op, t.device(), cost, Vec::new())
    }

    /// Record a finished op on `dev`.
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

    pub(crate) fn with_gen_pub<T>(&self, device: Device, f: impl FnOnce(&mut Generator) -> T) -> T {
        self.with_gen(device, f)
    }

    fn with_gen<T>(&self, device: Device, f: impl FnOnce(&mut Generator) -> T) -> T {
        match device {
            Device::Cuda(i) => f(&mut self.cuda_gens.borrow_mut()[i as usize]),
            _ => f(&mut self.cpu_gen.borrow_mut()),
        }
    }

    pub(crate) fn created(
        &self,
        op: &str,
        shape: Vec<usize>,
        dtype: DType,
        device: Device,
        make: impl FnOnce(usize) -> Vec<f64>,
    ) -> Result<Tensor> {
        let numel = super::checked_numel(&shape)
            .map_err(|e| self.host_error(op, device.cuda_index(), e))?;
        let room = self
            .host_room(numel, dtype, device)
            .map_err(|e| self.host_error(op, device.cuda_index(), e))?;
        let data = room.then(|| make(numel));
        let t = self
            .alloc_tensor(shape, dtype, device, data, false)
            .map_err(|e| self.host_error(op, device.cuda_index(), e))?;
        self.finish_fill(op, &t)?;
        Ok(t)
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
        let data = HostStorage::from_scalars(dt, values)
            .map_err(|e| self.host_error("tensor", device.cuda_index(), e))?;
        let t = self
            .alloc_host(shape, dt, device, Some(data), false)
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
            Scalar::Float(_) => DEFAULT_FLOAT,
            Scalar::Int(_) => DType::Int64,
            Scalar::Bool(_) => DType::Bool,
        });
        let v = dt.cast(value.as_f64());
        self.created("full", shape.to_vec(), dt, device, |n| vec![v; n])
    }
    pub fn zeros(&self, shape: &[usize], dtype: Option<DType>, device: Device) -> Result<Tensor> {
        let dt = dtype.unwrap_or(DEFAULT_FLOAT);
        self.created("zeros", shape.to_vec(), dt, device, |n| vec![0.0; n])
    }
    pub fn ones(&self, shape: &[usize], dtype: Option<DType>, device: Device) -> Result<Tensor> {
        let dt = dtype.unwrap_or(DEFAULT_FLOAT);
        self.created("ones", shape.to_vec(), dt, device, |n| vec![1.0; n])
    }
    /// `torch.empty`: zeros in the simulator (PyTorch leaves garbage).
    pub fn empty(&self, shape: &[usize], dtype: Option<DType>, device: Device) -> Result<Tensor> {
        let dt = dtype.unwrap_or(DEFAULT_FLOAT);
        let t = super::checked_numel(shape)
            .and_then(|n| {
                let zeros = if self.host_room(n, dt, device)? {
                    Some(vec![0.0; n])
                } else {
                    None
                };
                self.alloc_tensor(shape.to_vec(), dt, device, zeros, false)
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
        if (step > 0.0 && start > end) || (step < 0.0 && start < end) {
            return Err(self.host_error(
                "arange",
                device.cuda_index(),
                EngineError::runtime("upper bound and larger bound inconsistent with step sign"),
            ));
        }
        let dt = dtype.unwrap_or(if float_args {
            DEFAULT_FLOAT
        } else {
            DType::Int64
        });
        let n = ((end - start) / step).ceil().max(0.0) as usize;
        self.created("arange", vec![n], dt, device, |n| {
            (0..n).map(|i| dt.cast(start + i as f64 * step)).collect()
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
        let dt = dtype.unwrap_or(DEFAULT_FLOAT);
        let step = if steps > 1 {
            (end - start) / (steps - 1) as f64
        } else {
            0.0
        };
        let half = steps / 2;
        let f32m = dt != DType::Float64 && dt.is_floating_point();
        self.created("linspace", vec![steps], dt, device, |n| {
            (0..n)
                .map(|i| {
                    // ATen fills the second half from the end for symmetry, in the dtype's
                    // arithmetic (float32 step and products for float32)
                    let v = if f32m {
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
                .collect()
        })
    }

    pub fn rand(&self, shape: &[usize], dtype: Option<DType>, device: Device) -> Result<Tensor> {
        let dt = dtype.unwrap_or(DEFAULT_FLOAT);
        let vals = self.gen_values(shape, device, |g| g.uniform_f32());
        self.created("rand", shape.to_vec(), dt, device, |_| {
            vals.into_iter().map(|v| dt.cast(v)).collect()
        })
    }

    pub fn randn(&self, shape: &[usize], dtype: Option<DType>, device: Device) -> Result<Tensor> {
        let dt = dtype.unwrap_or(DEFAULT_FLOAT);
        let vals = self.gen_values(shape, device, |g| g.normal());
        self.created("randn", shape.to_vec(), dt, device, |_| {
            vals.into_iter().map(|v| dt.cast(v)).collect()
        })
    }

    /// `torch.randint(low, high, size)`: high is exclusive.
    pub fn randint(
        &self,
        low: i64,
        high: i64,
        shape: &[usize],
        dtype: Option<DType>,
        device: Device,
    ) -> Result<Tensor> {
        if low >= high {
            return Err(self.host_error(
                "randint",
                device.cuda_index(),
                EngineError::runtime(format!(
                    "random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
                )),
            ));
        }
        let dt = dtype.unwrap_or(DType::Int64);
        let vals = self.gen_values(shape, device, |g| g.int_range(low, high) as f64);
        self.created("randint", shape.to_vec(), dt, device, |_| {
            vals.into_iter().map(|v| dt.cast(v)).collect()
        })
    }

    pub fn randperm(&self, n: usize, dtype: Option<DType>, device: Device) -> Result<Tensor> {
        let dt = dtype.unwrap_or(DType::Int64);
        if n > MAX_HOST_ELEMENTS || device == Device::Meta {
            return self.created("randperm", vec![n], dt, device, |_| Vec::new());
        }
        let mut p: Vec<f64> = (0..n).map(|i| i as f64).collect();
        self.with_gen(device, |g| {
            for i in (1..n).rev() {
                let j = (g.next_u64() % (i as u64 + 1)) as usize;
                p.swap(i, j);
            }
        });
        self.created("randperm", vec![n], dt, device, |_| p)
    }

    fn gen_values(
        &self,
        shape: &[usize],
        device: Device,
        mut f: impl FnMut(&mut Generator) -> f64,
    ) -> Vec<f64> {
        let n = super::checked_numel(shape).unwrap_or(usize::MAX);
        if n > MAX_HOST_ELEMENTS || device == Device::Meta {
            return Vec::new();
        }
        self.with_gen(device, |g| (0..n).map(|_| f(g)).collect())
    }

    // ----- moving and converting -----

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
                    let data = if t.is_phantom() {
                        None
                    } else {
                        Some(
                            t.values_unchecked()
                                .into_iter()
                                .map(|v| dt.cast(v))
                                .collect(),
                        )
                    };
                    let out = self
                        .alloc_tensor(t.layout.shape.clone(), dt, dev, data, false)
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
        let data = if t.is_phantom() {
            None
        } else {
            Some(
                t.values_unchecked()
                    .into_iter()
                    .map(|v| dt.cast(v))
                    .collect(),
            )
        };
        let out = self
            .alloc_tensor(t.layout.shape.clone(), dt, dev, data, false)
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
        let data = if t.is_phantom() {
            None
        } else {
            Some(t.values_unchecked())
        };
        let out = self.alloc_tensor(t.layout.shape.clone(), t.dtype(), Device::Cpu, data, true)?;
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
        let v = t.values()?;
        Ok(Scalar::from_element(t.dtype(), v[0]))
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
        Ok(t.values()?[0] != 0.0)
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
        let data = if t.is_phantom() {
            None
        } else {
            Some(t.values_unchecked())
        };
        let mut out = self
            .alloc_tensor(t.layout.shape.clone(), t.dtype(), t.device(), data, false)
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
    pub fn view_op(&self, op: &str, t: &Tensor, r: Result<Tensor>) -> Result<Tensor> {
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
