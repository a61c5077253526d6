//! The random ops, drawn from PyTorch's own streams ([`crate::engine::random`]): the CPU's
//! mt19937 generator (or a `torch.Generator` object) and, for the simulated GPU, each
//! device's Philox generator. The kernels write straight into the tensor's typed buffer, in
//! the order ATen's TensorIterator visits it.

use super::{Layout, Tensor};
use crate::engine::device::Device;
use crate::engine::dtype::DType;
use crate::engine::error::{EngineError, Result};
use crate::engine::host::HostStorage;
use crate::engine::random::{
    self, CpuCapability, CpuGenerator, CudaGenerator, ElementsMut, RandomError, cuda::DeviceShape,
};
use crate::engine::runtime::Runtime;
use crate::engine::storage::DeviceStorage;
use crate::engine::timing::Cost;

pub use crate::engine::random::SharedGenerator;

/// The generator one op draws from.
pub(crate) enum Rng<'a> {
    Cpu(&'a mut CpuGenerator),
    Cuda(&'a mut CudaGenerator),
}

/// The simulated GPU's shape for the CUDA kernels' launch geometry (an H200, the device the
/// simulator models).
const DEVICE: DeviceShape = DeviceShape::H200;
const CAP: CpuCapability = CpuCapability::Avx2;

pub(crate) fn random_err(e: RandomError) -> EngineError {
    EngineError::new(e.kind, e.message)
}

/// `f` over the elements of `layout` in `v`, in visit order: the slice itself when
/// contiguous, else a scratch buffer scattered back afterwards.
fn visit<T: Copy + Default, R>(v: &mut [T], layout: &Layout, f: impl FnOnce(&mut [T]) -> R) -> R {
    if let Some(r) = layout.contiguous_range() {
        return f(&mut v[r]);
    }
    let offs = random::iteration_order(&layout.shape, &layout.strides);
    let mut tmp = vec![T::default(); offs.len()];
    let out = f(&mut tmp);
    for (o, x) in offs.iter().zip(tmp) {
        if let Some(slot) = v.get_mut(layout.offset + o) {
            *slot = x;
        }
    }
    out
}

/// `f` with the typed elements of `layout` in `h` (float16 as its bit patterns).
fn with_elements<R>(
    h: &mut HostStorage,
    layout: &Layout,
    f: impl FnOnce(ElementsMut) -> random::Result<R>,
) -> Result<R> {
    let r = match h {
        HostStorage::Bool(v) => visit(v, layout, |s| f(ElementsMut::Bool(s))),
        HostStorage::U8(v) => visit(v, layout, |s| f(ElementsMut::U8(s))),
        HostStorage::I8(v) => visit(v, layout, |s| f(ElementsMut::I8(s))),
        HostStorage::I16(v) => visit(v, layout, |s| f(ElementsMut::I16(s))),
        HostStorage::I32(v) => visit(v, layout, |s| f(ElementsMut::I32(s))),
        HostStorage::I64(v) => visit(v, layout, |s| f(ElementsMut::I64(s))),
        HostStorage::F32(v) => visit(v, layout, |s| f(ElementsMut::F32(s))),
        HostStorage::F64(v) => visit(v, layout, |s| f(ElementsMut::F64(s))),
        HostStorage::F16(v) => {
            let mut bits: Vec<u16> = Vec::new();
            let mut run = Some(f);
            let mut res = None;
            visit(v, layout, |s| {
                bits = s.iter().map(|x| x.to_bits()).collect();
                if let Some(f) = run.take() {
                    res = Some(f(ElementsMut::F16(&mut bits)));
                }
                for (d, b) in s.iter_mut().zip(&bits) {
                    *d = half::f16::from_bits(*b);
                }
            });
            res.unwrap_or_else(|| Err(RandomError::runtime("internal: no elements visited")))
        }
        HostStorage::BF16(_) => {
            return Err(EngineError::runtime(
                "random ops on bfloat16 tensors are not modelled by cudatutor",
            ));
        }
    };
    r.map_err(random_err)
}

/// The element type of a dtype as the random kernels see it.
fn element_type(dt: DType) -> Option<random::ElementType> {
    use random::ElementType as E;
    Some(match dt {
        DType::Bool => E::Bool,
        DType::UInt8 => E::U8,
        DType::Int8 => E::I8,
        DType::Int16 => E::I16,
        DType::Int32 => E::I32,
        DType::Int64 => E::I64,
        DType::Float16 => E::F16,
        DType::Float32 => E::F32,
        DType::Float64 => E::F64,
        _ => return None,
    })
}

impl Runtime {
    /// `f` with the generator `device` draws from: `gen` (a CPU `torch.Generator`) when
    /// given, else the device's default one.
    pub(crate) fn with_rng<T>(
        &self,
        device: Device,
        generator: Option<&SharedGenerator>,
        f: impl FnOnce(Rng) -> T,
    ) -> Result<T> {
        match (device, generator) {
            (Device::Cuda(_), Some(_)) => Err(EngineError::runtime(
                "Expected a 'cuda' device type for generator but found 'cpu'",
            )),
            (Device::Cuda(i), None) => {
                // The runtime's one device check, so a bad ordinal is 2.15's AcceleratorError
                // with its help line, as everywhere else (not a second, plainer text here).
                let i = self.check_device_index(i as i64)?;
                let mut gens = self.cuda_gens.borrow_mut();
                let g = gens.get_mut(i as usize).ok_or_else(|| {
                    EngineError::new(
                        crate::engine::error::ErrorKind::AcceleratorError,
                        crate::engine::error::CUDA_INVALID_DEVICE_MESSAGE,
                    )
                })?;
                Ok(f(Rng::Cuda(g)))
            }
            (_, Some(g)) => Ok(f(Rng::Cpu(&mut g.borrow_mut()))),
            (_, None) => Ok(f(Rng::Cpu(&mut self.cpu_gen.borrow_mut()))),
        }
    }

    /// Draw into `t` in place with `kernel` (given the generator, the elements in visit
    /// order and whether `t` is contiguous), recorded as the op `op`.
    pub(crate) fn random_fill(
        &self,
        op: &str,
        t: &Tensor,
        generator: Option<&SharedGenerator>,
        kernel: impl FnOnce(Rng, ElementsMut, bool) -> random::Result<()>,
    ) -> Result<()> {
        if !t.is_phantom() && t.device() != Device::Meta {
            // a CPU generator for a CUDA tensor is PyTorch's error before any draw (and no
            // host round trip of the tensor)
            if generator.is_some() && matches!(t.device(), Device::Cuda(_)) {
                self.with_rng(t.device(), generator, |_| ())?;
            }
            let contiguous = t.layout.contiguous_range().is_some();
            let mut data = t.storage.data.borrow_mut();
            // the kernels poll the run's deadline and cancel flag between chunks
            self.compute(|| {
                match data.as_mut() {
                    Some(DeviceStorage::Host(h)) => {
                        self.with_rng(t.device(), generator, |rng| {
                            with_elements(h, &t.layout, |els| kernel(rng, els, contiguous))
                        })??;
                    }
                    // A GPU backend without a kernel for this draw: the host's mirror of the
                    // device's stream fills the values (listed in docs/cuda-backend.md)
                    Some(DeviceStorage::Gpu(g)) => {
                        g.update_on_host(format!("random {op}"), |h| {
                            self.with_rng(t.device(), generator, |rng| {
                                with_elements(h, &t.layout, |els| kernel(rng, els, contiguous))
                            })?
                        })?
                    }
                    None => {}
                }
                Ok(())
            })?;
        }
        self.complete(
            op,
            t.device(),
            Cost::new(t.nbytes() as u64, t.numel() as u64),
            Vec::new(),
        )
    }

    /// On a GPU backend, `uniform_(a, b)` / `normal_(a = mean, b = std)` of a contiguous
    /// float32/float64 CUDA tensor by random.cu's kernels (the same numbers as the host's
    /// mirror, which the sim uses). `false`: not this case; the caller draws on the host.
    fn gpu_random_float(
        &self,
        op: &str,
        t: &Tensor,
        normal: bool,
        a: f64,
        b: f64,
        generator: Option<&SharedGenerator>,
    ) -> Result<bool> {
        if generator.is_some() || t.is_phantom() || !matches!(t.device(), Device::Cuda(_)) {
            return Ok(false);
        }
        let Some(range) = t.layout.contiguous_range() else {
            return Ok(false);
        };
        let drawn = {
            let data = t.storage.data.borrow();
            let Some(DeviceStorage::Gpu(g)) = data.as_ref() else {
                return Ok(false);
            };
            // the checks every backend makes first (ATen's uniform_impl_ / normal_impl_)
            let checked = match (normal, element_type(t.dtype())) {
                (true, _) => random::cpu_kernels::check_normal_std(b),
                (false, Some(et)) => random::cpu_kernels::check_uniform_args(et, a, b),
                (false, None) => return Ok(false),
            };
            checked.map_err(random_err)?;
            self.with_rng(t.device(), None, |rng| match rng {
                Rng::Cuda(philox) => g.random_float(normal, range.start, range.len(), philox, a, b),
                Rng::Cpu(_) => Ok(false),
            })??
        };
        if drawn {
            self.complete(
                op,
                t.device(),
                Cost::new(t.nbytes() as u64, t.numel() as u64),
                Vec::new(),
            )?;
        }
        Ok(drawn)
    }

    /// On a GPU backend, a draw into a contiguous CUDA tensor by random.cu's kernels:
    /// `draw(storage, elements, generator)` launches it (the numbers of the host's mirror,
    /// which the sim uses) and says whether it had a kernel. `false`: not this case (a CPU
    /// tensor, a `torch.Generator`, a strided tensor, a dtype without a kernel); the caller
    /// draws on the host.
    fn gpu_draw(
        &self,
        op: &str,
        t: &Tensor,
        generator: Option<&SharedGenerator>,
        draw: impl FnOnce(
            &crate::engine::cuda::gpu_storage::GpuStorage,
            std::ops::Range<usize>,
            &mut CudaGenerator,
        ) -> Result<bool>,
    ) -> Result<bool> {
        if generator.is_some() || t.is_phantom() || !matches!(t.device(), Device::Cuda(_)) {
            return Ok(false);
        }
        let Some(range) = t.layout.contiguous_range() else {
            return Ok(false);
        };
        let drawn = {
            let data = t.storage.data.borrow();
            let Some(DeviceStorage::Gpu(g)) = data.as_ref() else {
                return Ok(false);
            };
            self.with_rng(t.device(), None, |rng| match rng {
                Rng::Cuda(philox) => draw(g, range, philox),
                Rng::Cpu(_) => Ok(false),
            })??
        };
        if drawn {
            self.complete(
                op,
                t.device(),
                Cost::new(t.nbytes() as u64, t.numel() as u64),
                Vec::new(),
            )?;
        }
        Ok(drawn)
    }

    /// `randint` / `random_(from, to)` on a GPU backend's kernel, after every backend's
    /// range checks ([`Self::gpu_draw`]).
    fn gpu_randint(
        &self,
        op: &str,
        t: &Tensor,
        from: i64,
        to: Option<i64>,
        generator: Option<&SharedGenerator>,
    ) -> Result<bool> {
        let Some(et) = element_type(t.dtype()) else {
            return Ok(false);
        };
        if generator.is_some() || !matches!(t.device(), Device::Cuda(_)) {
            return Ok(false);
        }
        let Some((span, low)) =
            random::cpu_kernels::random_range(et, from, to).map_err(random_err)?
        else {
            return Ok(false);
        };
        self.gpu_draw(op, t, generator, |g, r, philox| {
            g.randint(r.start, r.len(), philox, low, span)
        })
    }

    /// A fresh uninitialised tensor that a random op then fills.
    fn fresh(&self, op: &str, shape: &[usize], dt: DType, device: Device) -> Result<Tensor> {
        self.created(op, shape.to_vec(), dt, device, |n| {
            use crate::engine::backend::BackendDevice;
            self.backend_for(device).zeros(n, dt)
        })
    }

    /// A fresh tensor for a factory whose fill is its one launch: the allocation shows on the
    /// timeline with the fill (PyTorch's randn is one normal kernel, not two events).
    fn fresh_unrecorded(
        &self,
        op: &str,
        shape: &[usize],
        dt: DType,
        device: Device,
    ) -> Result<Tensor> {
        let t = self
            .alloc_out(shape.to_vec(), dt, device, device != Device::Meta, false)
            .and_then(|t| {
                if t.wants_values() {
                    use crate::engine::backend::BackendDevice;
                    let n = t.numel();
                    t.set_values(self.compute(|| self.backend_for(device).zeros(n, dt))?)?;
                }
                Ok(t)
            })
            .map_err(|e| self.host_error(op, device.cuda_index(), e))?;
        Ok(t)
    }

    /// `t.uniform_(from, to)`.
    pub fn uniform_(
        &self,
        t: &Tensor,
        from: f64,
        to: f64,
        generator: Option<&SharedGenerator>,
    ) -> Result<()> {
        self.uniform_as("uniform_", t, from, to, generator)
    }

    /// `uniform_` recorded on the timeline as `op` (a factory like `torch.rand` is one launch).
    fn uniform_as(
        &self,
        op: &str,
        t: &Tensor,
        from: f64,
        to: f64,
        generator: Option<&SharedGenerator>,
    ) -> Result<()> {
        if self.gpu_random_float(op, t, false, from, to, generator)? {
            return Ok(());
        }
        self.random_fill(op, t, generator, |rng, els, _| match rng {
            Rng::Cpu(g) => random::uniform_(g, els, from, to, CAP),
            Rng::Cuda(g) => random::cuda::uniform_(g, els, from, to, DEVICE),
        })
    }

    /// `t.normal_(mean, std)`.
    pub fn normal_(
        &self,
        t: &Tensor,
        mean: f64,
        std: f64,
        generator: Option<&SharedGenerator>,
    ) -> Result<()> {
        self.normal_as("normal_", t, mean, std, generator)
    }

    /// `normal_` recorded on the timeline as `op`.
    fn normal_as(
        &self,
        op: &str,
        t: &Tensor,
        mean: f64,
        std: f64,
        generator: Option<&SharedGenerator>,
    ) -> Result<()> {
        if self.gpu_random_float(op, t, true, mean, std, generator)? {
            return Ok(());
        }
        self.random_fill(op, t, generator, |rng, els, contiguous| match rng {
            Rng::Cpu(g) => random::normal_(g, els, mean, std, contiguous, CAP),
            Rng::Cuda(g) => random::cuda::normal_(g, els, mean, std, DEVICE),
        })
    }

    /// `t.random_(from, to)` (`to = None`: up to the dtype's top).
    pub fn random_from_to_(
        &self,
        t: &Tensor,
        from: i64,
        to: Option<i64>,
        generator: Option<&SharedGenerator>,
    ) -> Result<()> {
        self.random_from_to_as("random_", t, from, to, generator)
    }

    /// `random_(from, to)` recorded on the timeline as `op`.
    fn random_from_to_as(
        &self,
        op: &str,
        t: &Tensor,
        from: i64,
        to: Option<i64>,
        generator: Option<&SharedGenerator>,
    ) -> Result<()> {
        if self.gpu_randint(op, t, from, to, generator)? {
            return Ok(());
        }
        self.random_fill(op, t, generator, |rng, els, _| match rng {
            Rng::Cpu(g) => random::random_from_to_(g, els, from, to),
            Rng::Cuda(g) => random::cuda::random_from_to_(g, els, from, to, DEVICE),
        })
    }

    /// `t.random_()` with no bounds.
    pub(crate) fn random_full_(
        &self,
        t: &Tensor,
        generator: Option<&SharedGenerator>,
    ) -> Result<()> {
        self.random_fill("random_", t, generator, |rng, els, _| {
            match rng {
                Rng::Cpu(g) => random::random_(g, els),
                Rng::Cuda(g) => random::cuda::random_(g, els, DEVICE),
            }
            Ok(())
        })
    }

    /// `t.bernoulli_(p)` with a float p.
    pub fn bernoulli_scalar_(
        &self,
        t: &Tensor,
        p: f64,
        generator: Option<&SharedGenerator>,
    ) -> Result<()> {
        if matches!(t.device(), Device::Cuda(_)) {
            random::cpu_kernels::check_bernoulli_p(p).map_err(random_err)?;
        }
        if self.gpu_draw("bernoulli_", t, generator, |g, r, philox| {
            g.bernoulli_scalar(r.start, r.len(), philox, p)
        })? {
            return Ok(());
        }
        self.random_fill("bernoulli_", t, generator, |rng, els, _| match rng {
            Rng::Cpu(g) => random::bernoulli_scalar_(g, els, p),
            Rng::Cuda(g) => random::cuda::bernoulli_scalar_(g, els, p, DEVICE),
        })
    }

    /// `t.exponential_(lambd)`.
    pub fn exponential_(
        &self,
        t: &Tensor,
        lambd: f64,
        generator: Option<&SharedGenerator>,
    ) -> Result<()> {
        if let Some(et) = element_type(t.dtype())
            && matches!(t.device(), Device::Cuda(_))
        {
            random::cpu_kernels::check_exponential_lambda(et, lambd).map_err(random_err)?;
        }
        if self.gpu_draw("exponential_", t, generator, |g, r, philox| {
            g.exponential(r.start, r.len(), philox, lambd)
        })? {
            return Ok(());
        }
        self.random_fill("exponential_", t, generator, |rng, els, _| match rng {
            Rng::Cpu(g) => random::exponential_(g, els, lambd),
            Rng::Cuda(g) => random::cuda::exponential_(g, els, lambd, DEVICE),
        })
    }

    /// `torch.rand(size)`.
    pub fn rand(
        &self,
        shape: &[usize],
        dtype: Option<DType>,
        device: Device,
        generator: Option<&SharedGenerator>,
    ) -> Result<Tensor> {
        let dt = dtype.unwrap_or_else(crate::engine::dtype::default_float);
        self.check_float_random("rand", dt)?;
        let t = self.fresh_unrecorded("rand", shape, dt, device)?;
        self.uniform_as("rand", &t, 0.0, 1.0, generator)?;
        Ok(t)
    }

    /// `torch.randn(size)`.
    pub fn randn(
        &self,
        shape: &[usize],
        dtype: Option<DType>,
        device: Device,
        generator: Option<&SharedGenerator>,
    ) -> Result<Tensor> {
        let dt = dtype.unwrap_or_else(crate::engine::dtype::default_float);
        self.check_float_random("randn", dt)?;
        let t = self.fresh_unrecorded("randn", shape, dt, device)?;
        self.normal_as("randn", &t, 0.0, 1.0, generator)?;
        Ok(t)
    }

    /// `torch.rand`/`randn` with an integer dtype: PyTorch's dispatch error.
    fn check_float_random(&self, op: &str, dt: DType) -> Result<()> {
        if dt.is_floating_point() {
            return Ok(());
        }
        let kernel = if op == "rand" {
            "check_uniform_bounds"
        } else {
            "normal_kernel_cpu"
        };
        let name = element_type(dt)
            .map(|e| e.scalar_type_name())
            .unwrap_or("Bool");
        Err(EngineError::runtime(format!(
            "\"{kernel}\" not implemented for '{name}'"
        )))
    }

    /// `torch.randint(low, high, size)`: high is exclusive.
    pub fn randint(
        &self,
        low: i64,
        high: i64,
        shape: &[usize],
        dtype: Option<DType>,
        device: Device,
        generator: Option<&SharedGenerator>,
    ) -> Result<Tensor> {
        let dt = dtype.unwrap_or(DType::Int64);
        let t = self.fresh_unrecorded("randint", shape, dt, device)?;
        self.random_from_to_as("randint", &t, low, Some(high), generator)?;
        Ok(t)
    }

    /// `torch.randperm(n)`.
    pub fn randperm(
        &self,
        n: i64,
        dtype: Option<DType>,
        device: Device,
        generator: Option<&SharedGenerator>,
    ) -> Result<Tensor> {
        let dt = dtype.unwrap_or(DType::Int64);
        if n < 0 {
            return Err(EngineError::runtime(format!(
                "n must be non-negative, got{n}"
            )));
        }
        if let Some(max) = element_type(dt).and_then(random::randperm_max_n)
            && n > max
        {
            return Err(EngineError::runtime(format!(
                "n must be less than or equal to {max} for this dtype"
            )));
        }
        let n = n as usize;
        // the permutation, its scalars and the output (and CUDA's keys): asked for before any
        // draw, so `torch.randperm(10**11)` is PyTorch's allocation failure, not an abort
        crate::engine::host::ensure_room_for_elements(n, 48, dt)?;
        let perm: Vec<i64> = self.compute(|| {
            self.with_rng(device, generator, |rng| match rng {
                Rng::Cpu(g) => random::randperm(g, n),
                Rng::Cuda(g) => cuda_randperm(g, n),
            })
        })?;
        let t = self.fresh("randperm", &[n], dt, device)?;
        if !t.is_phantom() && device != Device::Meta {
            // int64 (the default) moves the permutation in: building 16-byte scalars of 2^25
            // elements first took a second, unpolled, after a stop was due
            let h = if dt == DType::Int64 {
                HostStorage::I64(perm)
            } else {
                HostStorage::from_scalars(
                    dt,
                    &perm
                        .iter()
                        .map(|&v| crate::engine::dtype::Scalar::Int(v))
                        .collect::<Vec<_>>(),
                )?
            };
            use crate::engine::backend::BackendDevice;
            *t.storage.data.borrow_mut() = Some(self.backend_for(device).upload(h)?);
        }
        Ok(t)
    }

    /// `F.dropout(x, p, training=True)` for 0 < p < 1: the noise `x` is multiplied by
    /// (`bernoulli_(1 - p) / (1 - p)`, shaped like `x`), drawn from the device's generator.
    pub fn dropout_noise(&self, x: &Tensor, p: f64) -> Result<Tensor> {
        random::check_dropout_p(p).map_err(random_err)?;
        let noise = self.fresh("empty_like", x.shape(), x.dtype(), x.device())?;
        // the noise is a fresh contiguous tensor (the host's mirror draws it as such too)
        if self.gpu_draw("bernoulli_", &noise, None, |g, r, philox| {
            g.dropout_noise(r.start, r.len(), philox, p)
        })? {
            return Ok(noise);
        }
        self.random_fill(
            "bernoulli_",
            &noise,
            None,
            |rng, els, contiguous| match rng {
                Rng::Cpu(g) => random::dropout_noise_(g, els, p),
                Rng::Cuda(g) => match els {
                    ElementsMut::F32(s) => {
                        let ones = vec![1f32; s.len()];
                        let out = random::cuda::dropout_(g, &ones, p, contiguous, DEVICE)?;
                        s.copy_from_slice(&out.output);
                        Ok(())
                    }
                    other => Err(RandomError::runtime(format!(
                        "cudatutor models CUDA dropout for float32 tensors only, not {}",
                        other.element_type().scalar_type_name()
                    ))),
                },
            },
        )?;
        Ok(noise)
    }

    /// `p`'s values, contiguous in logical order, as host storage (None: a phantom).
    fn host_values(&self, p: &Tensor) -> Result<Option<HostStorage>> {
        use crate::engine::backend::BackendStorage;
        let r = p.read();
        match r.as_ref() {
            Some(s) => Ok(Some(s.to_host(&p.layout)?)),
            None => Ok(None),
        }
    }

    /// `torch.bernoulli(p)` on a GPU backend's kernel when `p` is a contiguous float32 or
    /// float64 tensor there (`out` is fresh, so contiguous): the values never leave the
    /// device. `false` when the case stays with the host's mirror of PyTorch's stream.
    fn gpu_bernoulli_tensor(
        &self,
        out: &Tensor,
        p: &Tensor,
        generator: Option<&SharedGenerator>,
    ) -> Result<bool> {
        if !matches!(p.dtype(), DType::Float32 | DType::Float64) || p.is_phantom() {
            return Ok(false);
        }
        let Some(p_range) = p.layout.contiguous_range() else {
            return Ok(false);
        };
        let p_data = p.storage.data.borrow();
        let Some(DeviceStorage::Gpu(probs)) = p_data.as_ref() else {
            return Ok(false);
        };
        self.gpu_draw("bernoulli_", out, generator, |g, r, philox| {
            g.bernoulli_tensor(r.start, r.len(), philox, probs, p_range.start)
        })
    }

    /// `torch.bernoulli(p)`: 0/1 drawn with each element's probability, in `p`'s dtype.
    pub fn bernoulli(&self, p: &Tensor, generator: Option<&SharedGenerator>) -> Result<Tensor> {
        let out = self.fresh("bernoulli", p.shape(), p.dtype(), p.device())?;
        if self.gpu_bernoulli_tensor(&out, p, generator)? {
            return Ok(out);
        }
        let Some(probs) = self.host_values(p)? else {
            return Ok(out);
        };
        let bits: Vec<u16>;
        let pr = match &probs {
            HostStorage::F32(v) => random::Probabilities::F32(v),
            HostStorage::F64(v) => random::Probabilities::F64(v),
            HostStorage::F16(v) => {
                bits = v.iter().map(|x| x.to_bits()).collect();
                random::Probabilities::F16(&bits)
            }
            _ => {
                return Err(EngineError::runtime(format!(
                    "\"bernoulli_tensor_cpu_p_\" not implemented for '{}'",
                    element_type(p.dtype())
                        .map(|e| e.scalar_type_name())
                        .unwrap_or("BFloat16")
                )));
            }
        };
        self.random_fill("bernoulli_", &out, generator, |rng, els, _| match rng {
            Rng::Cpu(g) => random::bernoulli_tensor_(g, els, pr),
            Rng::Cuda(g) => random::cuda::bernoulli_tensor_(g, els, pr),
        })?;
        Ok(out)
    }

    /// `torch.multinomial(input, num_samples, replacement)` (CPU).
    pub fn multinomial(
        &self,
        input: &Tensor,
        num_samples: i64,
        replacement: bool,
        generator: Option<&SharedGenerator>,
    ) -> Result<Tensor> {
        let Some(probs) = self.host_values(input)? else {
            return Err(EngineError::runtime(
                "multinomial of a tensor without values is not modelled",
            ));
        };
        let bits: Vec<u16>;
        let pr = match &probs {
            HostStorage::F32(v) => random::Probabilities::F32(v),
            HostStorage::F64(v) => random::Probabilities::F64(v),
            HostStorage::F16(v) => {
                bits = v.iter().map(|x| x.to_bits()).collect();
                random::Probabilities::F16(&bits)
            }
            _ => {
                return Err(EngineError::runtime(format!(
                    "multinomial only supports floating-point dtypes for input, got: {}",
                    input.dtype().scalar_name()
                )));
            }
        };
        let sizes = input.shape().to_vec();
        let categories = sizes.last().copied().unwrap_or(1);
        if replacement || (num_samples > 0 && num_samples as usize <= categories) {
            // the samples (PyTorch's int64 output), asked for before any draw
            let rows = sizes.iter().rev().skip(1).product::<usize>();
            let n = rows.saturating_mul(num_samples.max(0) as usize);
            crate::engine::host::ensure_room_for_elements(n, 16, DType::Int64)?;
        }
        let inp = random::MultinomialInput {
            probs: pr,
            sizes: &sizes,
        };
        let v = self
            .with_rng(input.device(), generator, |rng| match rng {
                Rng::Cpu(g) => random::multinomial(g, inp, num_samples, replacement),
                Rng::Cuda(_) => Err(RandomError::runtime(
                    "cudatutor models torch.multinomial on the CPU only",
                )),
            })?
            .map_err(random_err)?;
        let mut shape = sizes.clone();
        if let Some(last) = shape.last_mut() {
            *last = num_samples.max(0) as usize;
        }
        let h = HostStorage::I64(v);
        self.tensor_from_host(shape, input.device(), h, false)
    }

    /// The default CPU generator's state (`torch.get_rng_state()`).
    pub(crate) fn cpu_rng_state(&self) -> Vec<u8> {
        self.cpu_gen.borrow().get_state()
    }

    /// `torch.set_rng_state(bytes)`.
    pub(crate) fn set_cpu_rng_state(&self, bytes: &[u8]) -> Result<()> {
        self.cpu_gen
            .borrow_mut()
            .set_state(bytes)
            .map_err(EngineError::runtime)
    }

    /// `torch.initial_seed()`.
    pub fn initial_seed(&self) -> u64 {
        self.cpu_gen.borrow().initial_seed()
    }
}

/// `torch.randperm(n, device='cuda')`: random keys from the device's Philox stream sorted
/// (stably) with their indices, as ATen's radix sort of (key, index) pairs does. ATen's
/// extra shuffle of runs of equal keys is not modelled (unverified, like all CUDA draws).
fn cuda_randperm(g: &mut CudaGenerator, n: usize) -> Vec<i64> {
    let mut keys = vec![0i64; n];
    if n < (1 << 24) {
        let mut k32 = vec![0i32; n];
        random::cuda::random_(g, ElementsMut::I32(&mut k32), DEVICE);
        keys.iter_mut().zip(k32).for_each(|(d, k)| *d = k as i64);
    } else {
        random::cuda::random_(g, ElementsMut::I64(&mut keys), DEVICE);
    }
    let mut idx: Vec<i64> = (0..n as i64).collect();
    idx.sort_by_key(|&i| keys[i as usize]);
    idx
}
