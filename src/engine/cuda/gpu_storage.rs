//! The engine's device interface on a [`GpuDevice`] (the emulated device now, the cuda device
//! through the same code): [`GpuStorage`] is a buffer in device memory, and its
//! [`BackendStorage`] methods launch the kernels of kernels/*.cu through [`super::ops`] where a
//! kernel exists; every other method runs on the host (`to_host`, the host implementation,
//! `from_host`), so the engine works whole and each op moves onto a kernel on its own.
//!
//! Memory. A tensor's values live in its caching-allocator block (the runtime's allocator for
//! this device takes its segments from the device, see [`super::gpu::DeviceSegments`]), so the
//! counters are the sim's and the block's address is the tensor's device pointer. A back half
//! computes into scratch memory ([`GpuDevice::scratch_alloc`], pooled here) and the front
//! half's `set_values` moves the result into the output's block ([`adopt`]). Temporaries a
//! back half makes (casts of operands, the log-probabilities between log_softmax and nll_loss)
//! stay in scratch: the sim does not count them, and neither do these counters.
//!
//! Scratch is card memory all the same (on a real GPU cuMemGetInfo sees it): [`GpuCtx`]
//! counts it ([`ScratchFigures`]: live, pooled, peak; the report's device usage shows them),
//! and a segment the caching allocator cannot get while freed scratch is pooled gets it after
//! the pool is given back ([`super::gpu::DeviceSegments`]), so the pool never makes a script
//! run out of memory where PyTorch's process would not.
//!
//! Errors. A kernel's device-side assert poisons the device; from then on no kernel runs and
//! no copy is made (the buffers made after it are "dead": they read as zeros). That never
//! shows: the sim's stream model, which the run keeps, raises the CUDA error at the next
//! synchronising call, before any value of a later op can be read.

use super::gpu::GpuDevice;
use super::launch::{CtReduceGeom, DeviceError, DevicePtr};
use super::ops::{
    BackwardKernel, BinaryKernel, CompareKernel, Elem, FloatTest, Gemm, Kernels, NllReduction,
    ReduceKernel, Scalar as KScalar, Strided, UnaryKernel,
};
use crate::engine::backend::{
    Affine, Arg, BackendDevice, BackendStorage, Checked, MatmulDims, NllLoss, Operands, ReduceOp,
    TernaryOp,
};
use crate::engine::dtype::{DType, Scalar};
use crate::engine::error::{EngineError, Result};
use crate::engine::host::{HostStorage, host_dispatch};
use crate::engine::layout::Layout;
use crate::engine::op::{BinaryOp, Reduction, UnaryOp};
use std::cell::{Cell, RefCell};

mod random;
use random::half_bits;
use std::rc::Rc;

/// Most bytes of freed scratch kept for reuse.
const POOL_LIMIT: u64 = 256 << 20;

/// One device as the engine sees it: the [`GpuDevice`], its index, and the scratch pool.
pub(crate) struct GpuCtx {
    pub device: Rc<dyn GpuDevice>,
    pub index: u32,
    pub sm_count: u32,
    /// Freed scratch mappings: (bytes, address).
    pool: RefCell<Vec<(u64, DevicePtr)>>,
    pool_bytes: Cell<u64>,
    /// Scratch bytes handed out and not yet returned (an op's result before [`adopt`], the
    /// temporaries a back half holds, values made on the host on their way in).
    scratch_live: Cell<u64>,
    /// The most scratch (live and pooled) this context held at once.
    scratch_peak: Cell<u64>,
    /// Launches of kernels that check their indices with a device-side assert since the last
    /// [`GpuCtx::take_checked_launches`].
    checked_launches: Cell<u32>,
    /// Kernel launches and host fallbacks, for the report of what ran where.
    launches: Cell<u64>,
    fallbacks: RefCell<std::collections::BTreeMap<String, u64>>,
}

impl std::fmt::Debug for GpuCtx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GpuCtx({} {})", self.device.kind().name(), self.index)
    }
}

impl GpuCtx {
    pub(crate) fn new(device: Rc<dyn GpuDevice>, index: u32) -> Rc<GpuCtx> {
        let sm_count = device.sm_count();
        Rc::new(GpuCtx {
            device,
            index,
            sm_count,
            pool: RefCell::new(Vec::new()),
            pool_bytes: Cell::new(0),
            scratch_live: Cell::new(0),
            scratch_peak: Cell::new(0),
            checked_launches: Cell::new(0),
            launches: Cell::new(0),
            fallbacks: RefCell::new(Default::default()),
        })
    }

    fn kernels(&self) -> Kernels<'_> {
        Kernels {
            device: &*self.device,
            sm_count: self.sm_count,
        }
    }

    pub(crate) fn poisoned(&self) -> bool {
        self.device.poisoned()
    }

    /// How many kernels that assert on bad indices ran since the last call (the runtime
    /// decides from it whether the kernels or the host's checks speak for an op).
    pub(crate) fn take_checked_launches(&self) -> u32 {
        self.checked_launches.replace(0)
    }

    /// Kernel launches so far, and the ops that ran on the host instead (name, count).
    pub(crate) fn usage(&self) -> (u64, Vec<(String, u64)>) {
        (
            self.launches.get(),
            self.fallbacks
                .borrow()
                .iter()
                .map(|(k, v)| (k.clone(), *v))
                .collect(),
        )
    }

    fn note_fallback(&self, what: impl Into<String>) {
        *self.fallbacks.borrow_mut().entry(what.into()).or_insert(0) += 1;
    }

    /// Runs one kernel call unless the device is poisoned (then nothing runs, as on a GPU
    /// after a device-side assert).
    fn run(&self, f: impl FnOnce(&Kernels) -> std::result::Result<(), DeviceError>) -> Result<()> {
        if self.poisoned() {
            return Ok(());
        }
        self.launches.set(self.launches.get() + 1);
        match f(&self.kernels()) {
            // A sticky error (the cuda device learns of a kernel's fault at a later call, or
            // at once with CUDA_LAUNCH_BLOCKING) poisoned the device: the runtime's launch
            // record sees it (`GpuDevice::sticky_fault`) and raises PyTorch's error on the
            // line PyTorch would, naming the origin; nothing more runs here.
            Err(e) if e.is_sticky() => Ok(()),
            r => r.map_err(dev_err),
        }
    }

    /// Runs one kernel that asserts on bad indices (counted for
    /// [`GpuCtx::take_checked_launches`]); the result's `bad` is non-empty when this launch
    /// poisoned the context: its assert lines are in the device log, and the front half only
    /// needs to know that one fired.
    fn run_checked(
        &self,
        f: impl FnOnce(&Kernels) -> std::result::Result<(), DeviceError>,
    ) -> Result<Vec<usize>> {
        let was = self.poisoned();
        self.checked_launches.set(self.checked_launches.get() + 1);
        self.run(f)?;
        // A real GPU runs the launch asynchronously: a failed assert shows only when its
        // stream is waited for (CUDA_ERROR_ASSERT, which poisons the device). Wait here, for
        // the kernels that check indices only, so the op learns at once whether it failed, as
        // on the emulated device (which runs each launch to its end). The host's stream model
        // still reports the error on the line PyTorch would.
        if !was && self.device.kind() == super::gpu::GpuKind::Cuda {
            let _ = self.device.synchronize();
        }
        Ok(if !was && self.poisoned() {
            vec![0]
        } else {
            Vec::new()
        })
    }

    /// What scratch holds of the card now and at most so far: the device memory this
    /// context uses outside the caching allocator's segments.
    pub(crate) fn scratch_figures(&self) -> ScratchFigures {
        ScratchFigures {
            live: self.scratch_live.get(),
            pooled: self.pool_bytes.get(),
            peak: self.scratch_peak.get(),
        }
    }

    /// Frees the pooled scratch (the caching allocator needs the memory); true when there was
    /// some.
    pub(crate) fn release_scratch_pool(&self) -> bool {
        let had = self.pool_bytes.get() > 0;
        self.drain_pool();
        had
    }

    fn note_scratch_out(&self, bytes: u64) {
        self.scratch_live.set(self.scratch_live.get() + bytes);
        let held = self.scratch_live.get() + self.pool_bytes.get();
        if held > self.scratch_peak.get() {
            self.scratch_peak.set(held);
        }
    }

    /// Scratch of at least `bytes`: its address and its size (a pooled block may be up to
    /// twice the request; the whole block is what it holds of the card).
    fn scratch(&self, bytes: u64) -> Result<(DevicePtr, u64)> {
        let bytes = bytes.max(1).div_ceil(512) * 512;
        let (p, held) = self.scratch_block(bytes)?;
        self.note_scratch_out(held);
        Ok((p, held))
    }

    fn scratch_block(&self, bytes: u64) -> Result<(DevicePtr, u64)> {
        {
            let mut pool = self.pool.borrow_mut();
            // best fit among blocks at most twice the request
            let best = pool
                .iter()
                .enumerate()
                .filter(|(_, (b, _))| *b >= bytes && *b <= bytes.saturating_mul(2))
                .min_by_key(|(_, (b, _))| *b)
                .map(|(i, _)| i);
            if let Some(i) = best {
                let (b, p) = pool.swap_remove(i);
                self.pool_bytes.set(self.pool_bytes.get() - b);
                return Ok((p, b));
            }
        }
        match self.device.scratch_alloc(bytes) {
            Ok(p) => Ok((p, bytes)),
            Err(_) => {
                // give the pool back and try once more
                self.drain_pool();
                self.device
                    .scratch_alloc(bytes)
                    .map(|p| (p, bytes))
                    .map_err(dev_err)
            }
        }
    }

    fn release(&self, ptr: DevicePtr, bytes: u64) {
        let bytes = bytes.max(1).div_ceil(512) * 512;
        self.scratch_live
            .set(self.scratch_live.get().saturating_sub(bytes));
        if self.pool_bytes.get() + bytes <= POOL_LIMIT {
            self.pool.borrow_mut().push((bytes, ptr));
            self.pool_bytes.set(self.pool_bytes.get() + bytes);
        } else {
            self.device.scratch_free(ptr, bytes);
        }
    }

    fn drain_pool(&self) {
        let pool = std::mem::take(&mut *self.pool.borrow_mut());
        for (b, p) in pool {
            self.device.scratch_free(p, b);
        }
        self.pool_bytes.set(0);
    }
}

/// Device memory a [`GpuCtx`] holds outside the caching allocator's segments, in bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct ScratchFigures {
    /// Handed out now (an op in progress, or a value not yet moved into its block).
    pub live: u64,
    /// Freed and kept for reuse (at most [`POOL_LIMIT`]).
    pub pooled: u64,
    /// The most live and pooled scratch at once.
    pub peak: u64,
}

impl Drop for GpuCtx {
    fn drop(&mut self) {
        self.drain_pool();
    }
}

fn dev_err(e: DeviceError) -> EngineError {
    use crate::engine::error::CudaFault;
    match e {
        DeviceError::OutOfMemory { bytes } => EngineError::runtime(format!(
            "the GPU backend could not allocate {bytes} bytes for an op's temporary"
        )),
        // a sticky error found outside a launch (a copy after an asynchronous fault): PyTorch's
        // words for it (the launch path lets the runtime raise it instead, with its origin)
        DeviceError::Assert => EngineError::device_assert_for(false),
        DeviceError::Sticky { code, .. } if CudaFault::from_code(code).is_some() => {
            EngineError::cuda_fault_for(CudaFault::from_code(code).unwrap_or_default(), false)
        }
        e => EngineError::runtime(format!("internal: GPU backend: {e}")),
    }
}

/// Device memory a [`GpuStorage`] reads: scratch it owns, or an allocator block it does not.
struct GpuMem {
    ctx: Rc<GpuCtx>,
    ptr: DevicePtr,
    bytes: u64,
    owned: bool,
}

impl Drop for GpuMem {
    fn drop(&mut self) {
        if self.owned {
            self.ctx.release(self.ptr, self.bytes);
        }
    }
}

/// A buffer of one dtype in a GPU's memory.
#[derive(Clone)]
pub(crate) struct GpuStorage {
    ctx: Rc<GpuCtx>,
    /// None: no elements, or the values were lost to a poisoned context ("dead").
    mem: Option<Rc<GpuMem>>,
    dtype: DType,
    len: usize,
}

impl std::fmt::Debug for GpuStorage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "GpuStorage({:?}, {} x {}, {:#x})",
            self.ctx,
            self.len,
            self.dtype,
            self.ptr().0
        )
    }
}

impl PartialEq for GpuStorage {
    /// The same buffer (device memory is compared by identity, not by value).
    fn eq(&self, other: &Self) -> bool {
        self.ptr() == other.ptr() && self.dtype == other.dtype && self.len == other.len
    }
}

/// The device a [`GpuStorage`] lives on.
#[derive(Clone, Debug)]
pub(crate) struct GpuHandle(pub Rc<GpuCtx>);

impl PartialEq for GpuHandle {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}
impl Eq for GpuHandle {}

impl GpuHandle {}

fn esize(dtype: DType) -> u64 {
    dtype.element_size() as u64
}

fn strides(l: &Layout) -> Vec<isize> {
    l.strides.iter().map(|&s| s as isize).collect()
}

fn contiguous_strides(shape: &[usize]) -> Vec<isize> {
    strides(&Layout::contiguous(shape))
}

/// The raw bytes of a host buffer (every element type is plain data; bool is one byte 0/1,
/// as C++'s).
fn host_bytes(h: &HostStorage) -> &[u8] {
    fn b<T>(v: &[T]) -> &[u8] {
        // SAFETY: the element types of HostStorage are plain data without padding.
        unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v)) }
    }
    host_dispatch!(h, v => b(v))
}

/// A host buffer of `n` elements of `dtype` read from `bytes` (bool: any non-zero byte is true).
fn host_from_bytes(dtype: DType, n: usize, bytes: &[u8]) -> Result<HostStorage> {
    let mut h = HostStorage::zeros(dtype, n)?;
    if let HostStorage::Bool(v) = &mut h {
        for (x, &b) in v.iter_mut().zip(bytes) {
            *x = b != 0;
        }
        return Ok(h);
    }
    fn w<T>(v: &mut [T], bytes: &[u8]) {
        let len = std::mem::size_of_val(v).min(bytes.len());
        // SAFETY: every bit pattern is a valid value of the numeric element types (bool is
        // handled above); `len` fits both buffers.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), v.as_mut_ptr() as *mut u8, len) }
    }
    match &mut h {
        HostStorage::Bool(_) => {}
        HostStorage::U8(v) => w(v, bytes),
        HostStorage::I8(v) => w(v, bytes),
        HostStorage::I16(v) => w(v, bytes),
        HostStorage::I32(v) => w(v, bytes),
        HostStorage::I64(v) => w(v, bytes),
        HostStorage::F16(v) => w(v, bytes),
        HostStorage::BF16(v) => w(v, bytes),
        HostStorage::F32(v) => w(v, bytes),
        HostStorage::F64(v) => w(v, bytes),
    }
    Ok(h)
}

/// A loss's `reduction=` as Loss.cu's kernels take it.
fn nll_reduction(r: Reduction) -> NllReduction {
    match r {
        Reduction::None => NllReduction::None,
        Reduction::Mean => NllReduction::Mean,
        Reduction::Sum => NllReduction::Sum,
    }
}

/// A Python number as a kernel argument of `elem`.
fn kscalar(s: Scalar, elem: Elem) -> KScalar {
    match s {
        Scalar::Float(v) => KScalar::from_f64(v, elem),
        Scalar::Int(v) => KScalar::from_i64(v, elem),
        Scalar::Bool(b) => KScalar::from_i64(b as i64, elem),
    }
}

impl GpuStorage {
    /// A fresh buffer of `len` elements in scratch memory (contents undefined); dead when the
    /// device is poisoned.
    fn alloc(ctx: &Rc<GpuCtx>, dtype: DType, len: usize) -> Result<GpuStorage> {
        if len == 0 || ctx.poisoned() {
            return Ok(GpuStorage {
                ctx: ctx.clone(),
                mem: None,
                dtype,
                len,
            });
        }
        let bytes = (len as u64)
            .checked_mul(esize(dtype))
            .ok_or_else(|| EngineError::runtime("tensor too large"))?;
        let (ptr, held) = ctx.scratch(bytes)?;
        Ok(GpuStorage {
            ctx: ctx.clone(),
            mem: Some(Rc::new(GpuMem {
                ctx: ctx.clone(),
                ptr,
                bytes: held,
                owned: true,
            })),
            dtype,
            len,
        })
    }

    /// The device address of element 0 (NULL for an empty or dead buffer).
    pub(crate) fn ptr(&self) -> DevicePtr {
        self.mem.as_ref().map_or(DevicePtr::NULL, |m| m.ptr)
    }

    /// Whether the values are gone (made after the context was poisoned).
    fn dead(&self) -> bool {
        self.mem.is_none() && self.len > 0
    }

    fn elem(&self) -> Option<Elem> {
        Elem::of(self.dtype)
    }

    /// The operand at `layout` for a kernel.
    fn at<'a>(&self, layout: &Layout, st: &'a [isize]) -> Strided<'a> {
        Strided {
            ptr: self.ptr().offset(layout.offset as u64 * esize(self.dtype)),
            strides: st,
        }
    }

    /// A new contiguous `dtype` buffer of `layout`'s shape, written by one kernel `launch`
    /// that reads this buffer at `layout` (`launch(kernels, src, dst)`).
    fn map_contiguous(
        &self,
        layout: &Layout,
        dtype: DType,
        launch: impl FnOnce(&Kernels, Strided<'_>, Strided<'_>) -> std::result::Result<(), DeviceError>,
    ) -> Result<GpuStorage> {
        let res = GpuStorage::alloc(&self.ctx, dtype, layout.numel())?;
        let (ss, ds) = (strides(layout), contiguous_strides(&layout.shape));
        let (src, dst) = (
            self.at(layout, &ss),
            res.at(&Layout::contiguous(&layout.shape), &ds),
        );
        self.ctx.run(|k| launch(k, src, dst))?;
        Ok(res)
    }

    /// The whole buffer on the host.
    fn download(&self) -> Result<HostStorage> {
        if self.mem.is_none() || self.ctx.poisoned() {
            return HostStorage::zeros(self.dtype, self.len);
        }
        let bytes = self.len as u64 * esize(self.dtype);
        let mut buf = crate::engine::hostbuf::try_zeroed::<u8>(bytes as usize)
            .ok_or_else(|| crate::engine::host::alloc_error(DType::UInt8, bytes as usize))?;
        // A failed copy raises (a copy that found the context broken by an earlier kernel's
        // fault, on the cuda device where faults arrive late): zeros would be read as values.
        self.ctx
            .device
            .copy_d2h(&mut buf, self.ptr())
            .map_err(dev_err)?;
        host_from_bytes(self.dtype, self.len, &buf)
    }

    /// Replaces every element with `h`'s (same dtype and length), in place.
    pub(crate) fn overwrite(&self, h: &HostStorage) -> Result<()> {
        if h.dtype() != self.dtype || h.len() != self.len {
            return Err(EngineError::runtime(
                "internal: overwrite with other values",
            ));
        }
        if let Some(m) = &self.mem
            && !self.ctx.poisoned()
        {
            // a failed copy poisons the device, which the run reports as the sim does
            let _ = self.ctx.device.copy_h2d(m.ptr, host_bytes(h), false);
        }
        Ok(())
    }

    /// Host values moved onto `ctx`'s device.
    fn upload(ctx: &Rc<GpuCtx>, host: &HostStorage) -> Result<GpuStorage> {
        let out = GpuStorage::alloc(ctx, host.dtype(), host.len())?;
        if let Some(m) = &out.mem
            && ctx.device.copy_h2d(m.ptr, host_bytes(host), false).is_err()
        {
            return GpuStorage::alloc(ctx, host.dtype(), 0).map(|mut d| {
                d.len = host.len();
                d
            });
        }
        Ok(out)
    }

    /// The operand of a kernel along dimension `dim` (scan, softmax): `layout`'s elements as
    /// one contiguous run (this buffer's own when they are, else a copy, returned to be kept
    /// alive until the launch), the pointer to the first, and (outer, size, inner) around
    /// `dim`.
    fn contiguous_along(
        &self,
        layout: &Layout,
        dim: usize,
    ) -> Result<(Option<GpuStorage>, DevicePtr, [usize; 3])> {
        let shape = &layout.shape;
        let outer: usize = shape[..dim].iter().product();
        let inner: usize = shape[dim + 1..].iter().product();
        let sizes = [outer, shape[dim], inner];
        if layout.is_contiguous() {
            let first = self.ptr().offset(layout.offset as u64 * esize(self.dtype));
            return Ok((None, first, sizes));
        }
        let copy = self.contiguous(layout)?;
        let first = copy.ptr();
        Ok((Some(copy), first, sizes))
    }

    /// The same values as a fresh contiguous buffer of `layout`'s elements (a copy kernel).
    fn contiguous(&self, layout: &Layout) -> Result<GpuStorage> {
        self.to_dtype(layout, self.dtype)
    }

    /// Run `op` on the host: the fallback of every method without a kernel.
    fn on_host<T>(
        &self,
        what: impl Into<String>,
        op: impl FnOnce(&HostStorage) -> Result<T>,
    ) -> Result<T> {
        self.ctx.note_fallback(what);
        let h = self.download()?;
        op(&h)
    }

    fn up(&self, h: HostStorage) -> Result<GpuStorage> {
        GpuStorage::upload(&self.ctx, &h)
    }

    /// [`Self::on_host`] for a checked op: the host's values uploaded, its bad positions kept.
    fn checked_on_host(
        &self,
        what: &str,
        op: impl FnOnce(&HostStorage) -> Result<Checked<HostStorage>>,
    ) -> Result<Checked<GpuStorage>> {
        self.on_host(what, |h| {
            let r = op(h)?;
            Ok(Checked {
                value: self.up(r.value)?,
                bad: r.bad,
            })
        })
    }
}

/// The adopted form of a back half's result for a tensor whose allocator block starts at
/// `block` (the front half's `set_values`): the values are copied into the block (unless they
/// are there already) and the scratch returns to the pool, so the tensor's device memory is
/// the memory the caching allocator counts.
pub(crate) fn adopt(v: GpuStorage, block: u64) -> Result<GpuStorage> {
    let bytes = v.len as u64 * esize(v.dtype);
    if v.len == 0 || block == 0 {
        return Ok(v);
    }
    let ctx = v.ctx.clone();
    let target = DevicePtr(block);
    if v.ptr() == target {
        return Ok(v);
    }
    let dead = GpuStorage {
        ctx: ctx.clone(),
        mem: None,
        dtype: v.dtype,
        len: v.len,
    };
    if v.dead() || ctx.poisoned() {
        return Ok(dead);
    }
    if ctx.device.copy_d2d(target, v.ptr(), bytes).is_err() {
        return Ok(dead);
    }
    Ok(GpuStorage {
        ctx: ctx.clone(),
        mem: Some(Rc::new(GpuMem {
            ctx,
            ptr: target,
            bytes,
            owned: false,
        })),
        dtype: v.dtype,
        len: v.len,
    })
}

impl BackendDevice for GpuHandle {
    type Storage = GpuStorage;
    fn zeros(&self, n: usize, dtype: DType) -> Result<GpuStorage> {
        self.full(n, dtype, Scalar::Int(0))
    }
    fn full(&self, n: usize, dtype: DType, value: Scalar) -> Result<GpuStorage> {
        let out = GpuStorage::alloc(&self.0, dtype, n)?;
        match Elem::of(dtype) {
            Some(e) => {
                let p = out.ptr();
                self.0.run(|k| k.fill(n, kscalar(value, e), p))?;
                Ok(out)
            }
            None => {
                if let Some(bits) = half_bits(dtype, value)? {
                    let p = out.ptr();
                    self.0.run(|k| k.fill_bits16(n, bits, p))?;
                    return Ok(out);
                }
                self.0.note_fallback("full");
                GpuStorage::upload(&self.0, &HostStorage::full(dtype, n, value)?)
            }
        }
    }
    fn upload(&self, host: HostStorage) -> Result<GpuStorage> {
        GpuStorage::upload(&self.0, &host)
    }
}

/// The CUDA kernel the op's definition names (engine::op::unary), if any.
fn unary_kernel(op: UnaryOp) -> Option<UnaryKernel> {
    UnaryKernel::from_name(op.cuda_kernel()?)
}

fn compare_kernel(op: BinaryOp) -> Option<CompareKernel> {
    Some(match op {
        BinaryOp::Eq => CompareKernel::Eq,
        BinaryOp::Ne => CompareKernel::Ne,
        BinaryOp::Lt => CompareKernel::Lt,
        BinaryOp::Le => CompareKernel::Le,
        BinaryOp::Gt => CompareKernel::Gt,
        BinaryOp::Ge => CompareKernel::Ge,
        _ => return None,
    })
}

/// `s OP x` as `x OP' s`.
fn flipped(op: CompareKernel) -> CompareKernel {
    match op {
        CompareKernel::Lt => CompareKernel::Gt,
        CompareKernel::Le => CompareKernel::Ge,
        CompareKernel::Gt => CompareKernel::Lt,
        CompareKernel::Ge => CompareKernel::Le,
        o => o,
    }
}

/// The elementwise kernel of `op` on `e` (tensor OP tensor), when elementwise.cu has one.
fn binary_kernel(op: BinaryOp, e: Elem) -> Option<BinaryKernel> {
    let numeric = e != Elem::Bool;
    Some(match op {
        BinaryOp::Add => BinaryKernel::Add,
        BinaryOp::Mul => BinaryKernel::Mul,
        BinaryOp::Maximum => BinaryKernel::Maximum,
        BinaryOp::Minimum => BinaryKernel::Minimum,
        BinaryOp::Sub if numeric => BinaryKernel::Sub,
        BinaryOp::Div if e.is_float() => BinaryKernel::Div,
        BinaryOp::Pow if e.is_float() => BinaryKernel::Pow,
        BinaryOp::LogicalAnd if !numeric => BinaryKernel::LogicalAnd,
        BinaryOp::LogicalOr if !numeric => BinaryKernel::LogicalOr,
        BinaryOp::LogicalXor if !numeric => BinaryKernel::LogicalXor,
        BinaryOp::BitAnd if !e.is_float() => BinaryKernel::BitwiseAnd,
        BinaryOp::BitOr if !e.is_float() => BinaryKernel::BitwiseOr,
        BinaryOp::BitXor if !e.is_float() => BinaryKernel::BitwiseXor,
        _ => return None,
    })
}

/// Whether a scalar-operand kernel exists for `op` on `e` (see ops::binary_scalar).
fn scalar_kernel(op: BinaryOp, scalar_first: bool, e: Elem) -> Option<BinaryKernel> {
    if e == Elem::Bool {
        return None;
    }
    Some(match (op, scalar_first) {
        (BinaryOp::Add, _) => BinaryKernel::Add,
        (BinaryOp::Mul, _) => BinaryKernel::Mul,
        (BinaryOp::Maximum, _) => BinaryKernel::Maximum,
        (BinaryOp::Minimum, _) => BinaryKernel::Minimum,
        (BinaryOp::Sub, _) => BinaryKernel::Sub,
        (BinaryOp::Div, _) if e.is_float() => BinaryKernel::Div,
        (BinaryOp::Pow, _) if e.is_float() => BinaryKernel::Pow,
        _ => return None,
    })
}

/// Host operands of a fallback (each tensor downloaded once).
enum HostArg {
    Tensor(HostStorage, Layout),
    Scalar(Scalar),
}

impl HostArg {
    fn of(a: Arg<'_, GpuStorage>) -> Result<HostArg> {
        Ok(match a {
            Arg::Tensor(s, l) => HostArg::Tensor(s.download()?, l.clone()),
            Arg::Scalar(s) => HostArg::Scalar(s),
        })
    }
    fn arg(&self) -> Arg<'_, HostStorage> {
        match self {
            HostArg::Tensor(h, l) => Arg::Tensor(h, l),
            HostArg::Scalar(s) => Arg::Scalar(*s),
        }
    }
}

/// `f` on host copies of the operands (conv2d's and matmul's fallback).
fn on_host_affine(
    xwb: Affine<'_, GpuStorage>,
    f: impl FnOnce(Affine<'_, HostStorage>) -> Result<HostStorage>,
) -> Result<HostStorage> {
    let Affine { x, weight, bias } = xwb;
    let (hx, hw) = (x.0.download()?, weight.0.download()?);
    let hbias = bias
        .map(|(s, l)| s.download().map(|h| (h, l)))
        .transpose()?;
    f(Affine {
        x: (&hx, x.1),
        weight: (&hw, weight.1),
        bias: hbias.as_ref().map(|(h, l)| (h, *l)),
    })
}

fn ctx_of(args: &[&Arg<'_, GpuStorage>]) -> Option<Rc<GpuCtx>> {
    args.iter().find_map(|a| match a {
        Arg::Tensor(s, _) => Some(s.ctx.clone()),
        Arg::Scalar(_) => None,
    })
}

/// `[outer, len, inner]` of a reduction over the dims marked in `reduced`, reading `src`
/// (made contiguous with the reduced dims last when they are not one block of dims of a
/// contiguous layout).
fn reduce_geometry(
    src: &GpuStorage,
    layout: &Layout,
    reduced: &[bool],
) -> Result<(Option<GpuStorage>, CtReduceGeom, u64)> {
    let shape = &layout.shape;
    let nd = shape.len();
    let first = reduced.iter().position(|&r| r);
    let last = reduced.iter().rposition(|&r| r);
    if let (Some(f), Some(l)) = (first, last)
        && layout.is_contiguous()
        && reduced[f..=l].iter().all(|&r| r)
    {
        let outer: usize = shape[..f].iter().product();
        let len: usize = shape[f..=l].iter().product();
        let inner: usize = shape[l + 1..].iter().product();
        let g = CtReduceGeom {
            outer: outer as i64,
            len: len as i64,
            inner: inner as i64,
            s_outer: (len * inner) as i64,
            s_len: inner as i64,
            s_inner: 1,
        };
        return Ok((None, g, layout.offset as u64));
    }
    if first.is_none() {
        // nothing reduced: every element is its own output
        let c = src.contiguous(layout)?;
        let n = layout.numel();
        let g = CtReduceGeom {
            outer: n as i64,
            len: 1,
            inner: 1,
            s_outer: 1,
            s_len: 1,
            s_inner: 1,
        };
        return Ok((Some(c), g, 0));
    }
    // kept dims first, reduced dims last, then contiguous
    let mut perm: Vec<usize> = (0..nd).filter(|&d| !reduced[d]).collect();
    perm.extend((0..nd).filter(|&d| reduced[d]));
    let permuted = layout.permuted(&perm);
    let c = src.contiguous(&permuted)?;
    let outer: usize = (0..nd).filter(|&d| !reduced[d]).map(|d| shape[d]).product();
    let len: usize = (0..nd).filter(|&d| reduced[d]).map(|d| shape[d]).product();
    let g = CtReduceGeom {
        outer: outer as i64,
        len: len as i64,
        inner: 1,
        s_outer: len as i64,
        s_len: 1,
        s_inner: 1,
    };
    Ok((Some(c), g, 0))
}

impl BackendStorage for GpuStorage {
    type Device = GpuHandle;

    fn device(&self) -> GpuHandle {
        GpuHandle(self.ctx.clone())
    }
    fn dtype(&self) -> DType {
        self.dtype
    }
    fn len(&self) -> usize {
        self.len
    }

    fn to_host(&self, layout: &Layout) -> Result<HostStorage> {
        let h = self.download()?;
        h.to_host(layout)
    }

    fn to_dtype(&self, layout: &Layout, dtype: DType) -> Result<Self> {
        let n = layout.numel();
        match (self.elem(), Elem::of(dtype)) {
            (Some(se), Some(de)) if n > 0 && !self.dead() => {
                self.map_contiguous(layout, dtype, |k, src, dst| {
                    k.copy(se, de, &layout.shape, src, dst)
                })
            }
            _ if n == 0 || self.dead() => GpuStorage::alloc(&self.ctx, dtype, n).map(|mut s| {
                s.len = n;
                s
            }),
            _ => self.on_host("to_dtype", |h| self.up(h.to_dtype(layout, dtype)?)),
        }
    }

    fn copy_from(&mut self, dst_layout: &Layout, src: &Self, src_layout: &Layout) -> Result<()> {
        if dst_layout.numel() == 0 || self.dead() {
            return Ok(());
        }
        if !Rc::ptr_eq(&self.ctx, &src.ctx) {
            // another GPU: through the host
            let h = src.to_host(src_layout)?;
            let staged = GpuStorage::upload(&self.ctx, &h)?;
            return self.copy_from(dst_layout, &staged, &Layout::contiguous(&src_layout.shape));
        }
        match (src.elem(), self.elem()) {
            (Some(se), Some(de)) => {
                // a source overlapping the destination is read from a copy first
                let overlap = src.ptr() == self.ptr();
                let tmp;
                let (src, src_layout) = if overlap {
                    tmp = (
                        src.contiguous(src_layout)?,
                        Layout::contiguous(&src_layout.shape),
                    );
                    (&tmp.0, &tmp.1)
                } else {
                    (src, src_layout)
                };
                let (ss, ds) = (strides(src_layout), strides(dst_layout));
                let (s, d) = (src.at(src_layout, &ss), self.at(dst_layout, &ds));
                self.ctx.run(|k| k.copy(se, de, &dst_layout.shape, s, d))
            }
            _ => {
                self.ctx.note_fallback("copy_from");
                let mut h = self.download()?;
                let hs = src.download()?;
                h.copy_from(dst_layout, &hs, src_layout)?;
                self.up(h)?.rehome(self)
            }
        }
    }

    fn fill(&mut self, layout: &Layout, value: Scalar) -> Result<()> {
        if layout.numel() == 0 || self.dead() {
            return Ok(());
        }
        match self.elem() {
            Some(e) => {
                let st = strides(layout);
                let out = self.at(layout, &st);
                self.ctx
                    .run(|k| k.fill_strided(&layout.shape, kscalar(value, e), out))
            }
            None => {
                self.ctx.note_fallback("fill");
                let mut h = self.download()?;
                BackendStorage::fill(&mut h, layout, value)?;
                self.up(h)?.rehome(self)
            }
        }
    }

    fn unary(&self, layout: &Layout, op: UnaryOp, out: DType) -> Result<Self> {
        let n = layout.numel();
        if let (Some(e), Some(kop)) = (self.elem(), unary_kernel(op))
            && out == self.dtype
            && kop.supports(e)
        {
            return self
                .map_contiguous(layout, out, |k, a, o| k.unary(kop, e, &layout.shape, a, o));
        }
        let test = match op {
            UnaryOp::IsNan => Some(FloatTest::IsNan),
            UnaryOp::IsFinite => Some(FloatTest::IsFinite),
            _ => None,
        };
        if let (Some(test), Some(e)) = (test, self.elem())
            && out == DType::Bool
        {
            if !e.is_float() {
                // integers and bools: never NaN, always finite (PyTorch fills the result too)
                let value = test == FloatTest::IsFinite;
                return GpuHandle(self.ctx.clone()).full(n, DType::Bool, Scalar::Bool(value));
            }
            return self.map_contiguous(layout, out, |k, a, o| {
                k.float_test(test, e, &layout.shape, a, o)
            });
        }
        self.on_host(format!("unary {op:?}"), |h| {
            self.up(h.unary(layout, op, out)?)
        })
    }

    fn binary(op: BinaryOp, ab: Operands<'_, Arg<'_, Self>, 2>, out: DType) -> Result<Self> {
        let ([a, b], shape, compute) = (ab.args, ab.shape, ab.dtype);
        let Some(ctx) = ctx_of(&[&a, &b]) else {
            return Err(EngineError::runtime(
                "internal: a GPU op without a tensor operand",
            ));
        };
        let n: usize = if shape.contains(&0) {
            0
        } else {
            shape.iter().product()
        };
        let oshape = Layout::contiguous(shape);
        let so = contiguous_strides(shape);
        let e = Elem::of(compute);
        // a Python number on the left: the scalar kernels take the tensor first and are told
        let scalar_first = matches!((&a, &b), (Arg::Scalar(_), Arg::Tensor(..)));
        let same_ctx = |x: &Arg<'_, GpuStorage>| match x {
            Arg::Tensor(s, _) => Rc::ptr_eq(&s.ctx, &ctx),
            Arg::Scalar(_) => true,
        };
        if let Some(e) = e
            && same_ctx(&a)
            && same_ctx(&b)
        {
            // comparisons
            if let Some(cop) = compare_kernel(op)
                && out == DType::Bool
            {
                let res = GpuStorage::alloc(&ctx, out, n)?;
                let o = res.at(&oshape, &so);
                match (&a, &b) {
                    (Arg::Tensor(x, lx), Arg::Tensor(y, ly))
                        if x.dtype == compute && y.dtype == compute =>
                    {
                        let (sx, sy) = (strides(lx), strides(ly));
                        let (px, py) = (x.at(lx, &sx), y.at(ly, &sy));
                        ctx.run(|k| k.compare(cop, e, shape, px, py, o))?;
                        return Ok(res);
                    }
                    (Arg::Tensor(x, lx), Arg::Scalar(s)) | (Arg::Scalar(s), Arg::Tensor(x, lx))
                        if x.dtype == compute =>
                    {
                        // `scalar op x` compares as `x flipped(op) scalar`
                        let cop = if scalar_first { flipped(cop) } else { cop };
                        let sx = strides(lx);
                        let px = x.at(lx, &sx);
                        ctx.run(|k| k.compare_scalar(cop, shape, px, kscalar(*s, e), o))?;
                        return Ok(res);
                    }
                    _ => {}
                }
            } else if out == compute {
                match (&a, &b) {
                    (Arg::Tensor(x, lx), Arg::Tensor(y, ly))
                        if x.dtype == compute && y.dtype == compute =>
                    {
                        if let Some(kop) = binary_kernel(op, e) {
                            let res = GpuStorage::alloc(&ctx, out, n)?;
                            let o = res.at(&oshape, &so);
                            let (sx, sy) = (strides(lx), strides(ly));
                            let (px, py) = (x.at(lx, &sx), y.at(ly, &sy));
                            ctx.run(|k| k.binary(kop, e, shape, px, py, o))?;
                            return Ok(res);
                        }
                    }
                    (Arg::Tensor(x, lx), Arg::Scalar(s)) | (Arg::Scalar(s), Arg::Tensor(x, lx))
                        if x.dtype == compute =>
                    {
                        if let Some(kop) = scalar_kernel(op, scalar_first, e) {
                            let res = GpuStorage::alloc(&ctx, out, n)?;
                            let o = res.at(&oshape, &so);
                            let sx = strides(lx);
                            let px = x.at(lx, &sx);
                            ctx.run(|k| {
                                k.binary_scalar(kop, scalar_first, shape, px, kscalar(*s, e), o)
                            })?;
                            return Ok(res);
                        }
                    }
                    _ => {}
                }
            }
        }
        ctx.note_fallback("binary");
        let (ha, hb) = (HostArg::of(a)?, HostArg::of(b)?);
        let h = HostStorage::binary(op, ab.with([ha.arg(), hb.arg()]), out)?;
        GpuStorage::upload(&ctx, &h)
    }

    fn ternary(op: TernaryOp, abc: Operands<'_, Arg<'_, Self>, 3>, value: Scalar) -> Result<Self> {
        // no CUDA kernel yet: the host's (PyTorch CPU's rounding), uploaded back
        let [a, b, c] = abc.args;
        let Some(ctx) = ctx_of(&[&a, &b, &c]) else {
            return Err(EngineError::runtime(
                "internal: ternary on the GPU backend without a GPU operand",
            ));
        };
        ctx.note_fallback(op.name());
        let (ha, hb, hc) = (HostArg::of(a)?, HostArg::of(b)?, HostArg::of(c)?);
        let h = HostStorage::ternary(op, abc.with([ha.arg(), hb.arg(), hc.arg()]), value)?;
        GpuStorage::upload(&ctx, &h)
    }

    fn add_scaled(ab: Operands<'_, Arg<'_, Self>, 2>, alpha: Scalar) -> Result<Self> {
        // `torch.add(a, b, alpha=...)`: elementwise.cu's add_alpha (a number operand is a
        // one-element temporary read with stride 0, as PyTorch passes it as a kernel argument)
        let ([a, b], shape, dtype) = (ab.args, ab.shape, ab.dtype);
        let Some(ctx) = ctx_of(&[&a, &b]) else {
            return Err(EngineError::runtime(
                "internal: add_scaled on the GPU backend without a GPU operand",
            ));
        };
        let usable = |x: &Arg<'_, GpuStorage>| match x {
            Arg::Tensor(s, _) => Rc::ptr_eq(&s.ctx, &ctx) && s.dtype == dtype && !s.dead(),
            Arg::Scalar(_) => true,
        };
        if let Some(e) = Elem::of(dtype)
            && e != Elem::Bool
            && usable(&a)
            && usable(&b)
        {
            let n: usize = if shape.contains(&0) {
                0
            } else {
                shape.iter().product()
            };
            let handle = GpuHandle(ctx.clone());
            let zero = vec![0isize; shape.len()];
            let operand = |x: Arg<'_, GpuStorage>| -> Result<(GpuStorage, Vec<isize>, u64)> {
                match x {
                    Arg::Tensor(s, l) => Ok((s.clone(), strides(l), l.offset as u64)),
                    Arg::Scalar(v) => Ok((handle.full(1, dtype, v)?, zero.clone(), 0)),
                }
            };
            let (sa, sta, oa) = operand(a)?;
            let (sb, stb, ob) = operand(b)?;
            let res = GpuStorage::alloc(&ctx, dtype, n)?;
            let so = contiguous_strides(shape);
            let es = esize(dtype);
            let pa = Strided {
                ptr: sa.ptr().offset(oa * es),
                strides: &sta,
            };
            let pb = Strided {
                ptr: sb.ptr().offset(ob * es),
                strides: &stb,
            };
            let po = res.at(&Layout::contiguous(shape), &so);
            ctx.run(|k| k.add_alpha(shape, pa, pb, kscalar(alpha, e), po))?;
            return Ok(res);
        }
        ctx.note_fallback("add_scaled");
        let (ha, hb) = (HostArg::of(a)?, HostArg::of(b)?);
        let h = HostStorage::add_scaled(ab.with([ha.arg(), hb.arg()]), alpha)?;
        GpuStorage::upload(&ctx, &h)
    }

    fn activation_backward(op: UnaryOp, grad_y: Operands<'_, (&Self, &Layout), 2>) -> Result<Self> {
        let ([grad, out], shape, dtype) = (grad_y.args, grad_y.shape, grad_y.dtype);
        let ctx = grad.0.ctx.clone();
        let kop = match op {
            UnaryOp::Sigmoid => Some(BackwardKernel::Sigmoid),
            UnaryOp::Tanh => Some(BackwardKernel::Tanh),
            UnaryOp::Relu => Some(BackwardKernel::Threshold),
            _ => None,
        };
        if let (Some(kop), Some(e @ (Elem::F32 | Elem::F64))) = (kop, Elem::of(dtype))
            && grad.0.dtype == dtype
            && out.0.dtype == dtype
            && Rc::ptr_eq(&out.0.ctx, &ctx)
        {
            let n: usize = shape.iter().product();
            let res = GpuStorage::alloc(&ctx, dtype, n)?;
            let (sg, sy, so) = (strides(grad.1), strides(out.1), contiguous_strides(shape));
            let (pg, py, po) = (
                grad.0.at(grad.1, &sg),
                out.0.at(out.1, &sy),
                res.at(&Layout::contiguous(shape), &so),
            );
            ctx.run(|k| k.activation_backward(kop, e, shape, pg, py, po))?;
            return Ok(res);
        }
        ctx.note_fallback(format!("activation_backward {op:?}"));
        let (g, o) = (grad.0.download()?, out.0.download()?);
        let h = HostStorage::activation_backward(op, grad_y.with([(&g, grad.1), (&o, out.1)]))?;
        GpuStorage::upload(&ctx, &h)
    }

    fn where_cond(cond: (&Self, &Layout), ab: Operands<'_, Arg<'_, Self>, 2>) -> Result<Self> {
        let ([a, b], shape, dtype) = (ab.args, ab.shape, ab.dtype);
        let ctx = cond.0.ctx.clone();
        let n: usize = if shape.contains(&0) {
            0
        } else {
            shape.iter().product()
        };
        let all_here = |x: &Arg<'_, GpuStorage>| match x {
            Arg::Tensor(s, _) => Rc::ptr_eq(&s.ctx, &ctx) && s.dtype == dtype,
            Arg::Scalar(_) => true,
        };
        if let Some(e) = Elem::of(dtype)
            && cond.0.dtype == DType::Bool
            && all_here(&a)
            && all_here(&b)
        {
            // a number operand becomes a filled temporary of the output's shape
            let handle = GpuHandle(ctx.clone());
            let full = Layout::contiguous(shape);
            let fa = match a {
                Arg::Scalar(v) => Some(handle.full(n, dtype, v)?),
                Arg::Tensor(..) => None,
            };
            let fb = match b {
                Arg::Scalar(v) => Some(handle.full(n, dtype, v)?),
                Arg::Tensor(..) => None,
            };
            let pick = |x: Arg<'_, GpuStorage>,
                        f: &Option<GpuStorage>|
             -> Result<(GpuStorage, Layout)> {
                match (x, f) {
                    (Arg::Tensor(s, l), _) => Ok((s.clone(), l.clone())),
                    (Arg::Scalar(_), Some(f)) => Ok((f.clone(), full.clone())),
                    (Arg::Scalar(_), None) => Err(EngineError::runtime("internal: where operand")),
                }
            };
            let (sa, la) = pick(a, &fa)?;
            let (sb, lb) = pick(b, &fb)?;
            let (sa, la, sb, lb) = (&sa, &la, &sb, &lb);
            let res = GpuStorage::alloc(&ctx, dtype, n)?;
            let (sc, ssa, ssb, so) = (
                strides(cond.1),
                strides(la),
                strides(lb),
                contiguous_strides(shape),
            );
            let (pc, pa, pb, po) = (
                cond.0.at(cond.1, &sc),
                sa.at(la, &ssa),
                sb.at(lb, &ssb),
                res.at(&full, &so),
            );
            ctx.run(|k| k.where_(e, shape, pc, pa, pb, po))?;
            return Ok(res);
        }
        ctx.note_fallback("where");
        let hc = cond.0.download()?;
        let (ha, hb) = (HostArg::of(a)?, HostArg::of(b)?);
        let h = HostStorage::where_cond((&hc, cond.1), ab.with([ha.arg(), hb.arg()]))?;
        GpuStorage::upload(&ctx, &h)
    }

    fn clamp(&self, layout: &Layout, lo: Option<Scalar>, hi: Option<Scalar>) -> Result<Self> {
        let kernel_ok = |s: Option<Scalar>, e: Elem| match s {
            None => true,
            Some(Scalar::Float(_)) => e.is_float(),
            Some(_) => e != Elem::Bool,
        };
        if let Some(e) = self.elem()
            && e != Elem::Bool
            && kernel_ok(lo, e)
            && kernel_ok(hi, e)
        {
            // clamp(x, lo, hi) = min(max(x, lo), hi), NaN kept (maximum/minimum propagate it)
            let full = Layout::contiguous(&layout.shape);
            let mut cur: Option<GpuStorage> = None;
            for (bound, op) in [(lo, BinaryOp::Maximum), (hi, BinaryOp::Minimum)] {
                let Some(s) = bound else { continue };
                let next = match &cur {
                    None => GpuStorage::binary(
                        op,
                        Operands::new(
                            [Arg::Tensor(self, layout), Arg::Scalar(s)],
                            &layout.shape,
                            self.dtype,
                        ),
                        self.dtype,
                    )?,
                    Some(c) => GpuStorage::binary(
                        op,
                        Operands::new(
                            [Arg::Tensor(c, &full), Arg::Scalar(s)],
                            &layout.shape,
                            self.dtype,
                        ),
                        self.dtype,
                    )?,
                };
                cur = Some(next);
            }
            return match cur {
                Some(c) => Ok(c),
                None => self.contiguous(layout),
            };
        }
        self.on_host("clamp", |h| self.up(h.clamp(layout, lo, hi)?))
    }

    fn masked_fill(&self, layout: &Layout, mask: (&Self, &Layout), value: Scalar) -> Result<Self> {
        if Elem::of(self.dtype).is_some() && mask.0.dtype == DType::Bool {
            let operands = [Arg::Scalar(value), Arg::Tensor(self, layout)];
            return GpuStorage::where_cond(
                mask,
                Operands::new(operands, &layout.shape, self.dtype),
            );
        }
        let hm = mask.0.download()?;
        self.on_host("masked_fill", |h| {
            self.up(h.masked_fill(layout, (&hm, mask.1), value)?)
        })
    }

    fn reduce(&self, layout: &Layout, op: ReduceOp, reduced: &[bool], out: DType) -> Result<Self> {
        let kop = match op {
            ReduceOp::Sum => Some(ReduceKernel::Sum),
            ReduceOp::Mean => Some(ReduceKernel::Mean),
            ReduceOp::Max => Some(ReduceKernel::Max),
            ReduceOp::Min => Some(ReduceKernel::Min),
            ReduceOp::ArgMax => Some(ReduceKernel::Argmax),
            ReduceOp::ArgMin => Some(ReduceKernel::Argmin),
            ReduceOp::Any => Some(ReduceKernel::Any),
            ReduceOp::All => Some(ReduceKernel::All),
            _ => None,
        };
        let len: usize = layout
            .shape
            .iter()
            .zip(reduced)
            .filter(|(_, r)| **r)
            .map(|(s, _)| *s)
            .product();
        let n_out: usize = layout
            .shape
            .iter()
            .zip(reduced)
            .filter(|(_, r)| !**r)
            .map(|(s, _)| *s)
            .product();
        // var/std and the vector norm: reduce.cu's kernels with one float parameter (the
        // correction, with std's sqrt flag; or p)
        let float_param = match op {
            ReduceOp::Var { correction, std } => Some((correction, Some(std))),
            ReduceOp::Norm(p) => Some((p, None)),
            _ => None,
        };
        if let Some((param, var_sqrt)) = float_param
            && let Some(e @ (Elem::F32 | Elem::F64)) = self.elem()
            && out == self.dtype
            && len > 0
            && n_out > 0
        {
            let (tmp, geom, offset) = reduce_geometry(self, layout, reduced)?;
            let src = tmp.as_ref().unwrap_or(self);
            let input = src.ptr().offset(offset * esize(self.dtype));
            let res = GpuStorage::alloc(&self.ctx, out, n_out)?;
            let o = res.ptr();
            self.ctx.run(|k| match var_sqrt {
                Some(std) => k.var(e, geom, param, std, input, o),
                None => k.norm(e, geom, param, input, o),
            })?;
            return Ok(res);
        }
        if let (Some(kop), Some(e)) = (kop, self.elem())
            && len > 0
            && n_out > 0
            && layout.numel() > 0
        {
            // the kernel's output type
            let kout = match kop {
                ReduceKernel::Sum => {
                    if e.is_float() {
                        self.dtype
                    } else {
                        DType::Int64
                    }
                }
                ReduceKernel::Mean if e.is_float() => self.dtype,
                ReduceKernel::Mean => DType::Bool, // never matches: no integer mean kernel
                ReduceKernel::Max | ReduceKernel::Min => self.dtype,
                ReduceKernel::Argmax | ReduceKernel::Argmin => DType::Int64,
                ReduceKernel::Any | ReduceKernel::All => DType::Bool,
            };
            if kout == out {
                let (tmp, geom, offset) = reduce_geometry(self, layout, reduced)?;
                let src = tmp.as_ref().unwrap_or(self);
                let input = src.ptr().offset(offset * esize(self.dtype));
                let res = GpuStorage::alloc(&self.ctx, out, n_out)?;
                let o = res.ptr();
                self.ctx.run(|k| k.reduce(kop, e, geom, input, o, None))?;
                return Ok(res);
            }
        }
        self.on_host(format!("reduce {op:?}"), |h| {
            self.up(h.reduce(layout, op, reduced, out)?)
        })
    }

    fn scan(&self, layout: &Layout, dim: usize, prod: bool, out: DType) -> Result<Self> {
        let n = layout.numel();
        if let Some(e) = self.elem()
            && out
                == if e.is_float() {
                    self.dtype
                } else {
                    DType::Int64
                }
            && n > 0
            && dim < layout.shape.len()
        {
            let (_copy, i, [outer, size, inner]) = self.contiguous_along(layout, dim)?;
            let res = GpuStorage::alloc(&self.ctx, out, n)?;
            let o = res.ptr();
            self.ctx
                .run(|k| k.scan(prod, e, outer, size, inner, i, o))?;
            return Ok(res);
        }
        self.on_host(if prod { "cumprod" } else { "cumsum" }, |h| {
            self.up(h.scan(layout, dim, prod, out)?)
        })
    }

    fn softmax(&self, layout: &Layout, dim: usize, log: bool) -> Result<Self> {
        if let Some(e @ (Elem::F32 | Elem::F64)) = self.elem()
            && layout.numel() > 0
        {
            let (_copy, i, [outer, size, inner]) = self.contiguous_along(layout, dim)?;
            let res = GpuStorage::alloc(&self.ctx, self.dtype, layout.numel())?;
            let o = res.ptr();
            self.ctx
                .run(|k| k.softmax(log, e, outer, size, inner, i, o))?;
            return Ok(res);
        }
        self.on_host("softmax", |h| self.up(h.softmax(layout, dim, log)?))
    }

    fn softmax_backward(grad_y: Operands<'_, &Self, 2>, dim: usize, log: bool) -> Result<Self> {
        let ([grad, out], shape) = (grad_y.args, grad_y.shape);
        if let Some(e @ (Elem::F32 | Elem::F64)) = grad.elem()
            && out.dtype == grad.dtype
            && Rc::ptr_eq(&grad.ctx, &out.ctx)
            && dim < shape.len()
        {
            let n: usize = shape.iter().product();
            let outer: usize = shape[..dim].iter().product();
            let inner: usize = shape[dim + 1..].iter().product();
            let res = GpuStorage::alloc(&grad.ctx, grad.dtype, n)?;
            let (pg, py, po) = (grad.ptr(), out.ptr(), res.ptr());
            grad.ctx
                .run(|k| k.softmax_backward(log, e, outer, shape[dim], inner, pg, py, po))?;
            return Ok(res);
        }
        grad.ctx.note_fallback("softmax_backward");
        let (g, o) = (grad.download()?, out.download()?);
        grad.up(HostStorage::softmax_backward(
            grad_y.with([&g, &o]),
            dim,
            log,
        )?)
    }

    fn nll_loss(&self, loss: &NllLoss<'_, Self>) -> Result<Checked<Self>> {
        let (n, c, ignore_index) = (loss.n, loss.c, loss.ignore_index);
        let (target, weight) = (loss.target, loss.weight);
        if let Some(e @ (Elem::F32 | Elem::F64)) = self.elem()
            && target.dtype == DType::Int64
            && weight.is_none_or(|w| w.dtype == self.dtype)
            && c > 0
        {
            let red = nll_reduction(loss.reduction);
            let out_len = if red == NllReduction::None { n } else { 1 };
            let output = GpuStorage::alloc(&self.ctx, self.dtype, out_len)?;
            let total = GpuStorage::alloc(&self.ctx, self.dtype, 1)?;
            let (po, pt) = (output.ptr(), total.ptr());
            let (pi, ptg) = (self.ptr(), target.ptr());
            let pw = weight.map(|w| w.ptr());
            let bad = self.ctx.run_checked(|k| {
                k.nll_loss(e, false, red, Some(n), c, pi, ptg, pw, ignore_index, po, pt)
            })?;
            return Ok(Checked { value: output, bad });
        }
        let ht = target.download()?;
        let hw = weight.map(|w| w.download()).transpose()?;
        self.checked_on_host("nll_loss", |h| h.nll_loss(&loss.over(&ht, hw.as_ref())))
    }

    fn nll_loss_backward(grad: &Self, loss: &NllLoss<'_, Self>, dtype: DType) -> Result<Self> {
        let (n, c, ignore_index) = (loss.n, loss.c, loss.ignore_index);
        let (target, weight) = (loss.target, loss.weight);
        if let Some(e @ (Elem::F32 | Elem::F64)) = Elem::of(dtype)
            && grad.dtype == dtype
            && matches!(target.dtype, DType::Int64 | DType::UInt8)
            && weight.is_none_or(|w| w.dtype == dtype && Rc::ptr_eq(&w.ctx, &grad.ctx))
            && Rc::ptr_eq(&target.ctx, &grad.ctx)
            && c > 0
        {
            let ctx = &grad.ctx;
            let red = nll_reduction(loss.reduction);
            let u8t = target.dtype == DType::UInt8;
            // zeros, as PyTorch's at::zeros_like before its backward kernel
            let gin = GpuHandle(ctx.clone()).zeros(n * c, dtype)?;
            let total = GpuStorage::alloc(ctx, dtype, 1)?;
            let (pgi, pt, ptg, pg) = (gin.ptr(), total.ptr(), target.ptr(), grad.ptr());
            let pw = weight.map(|w| w.ptr());
            if red == NllReduction::Mean && n > 0 {
                // the forward's total weight: the forward kernel once more (on the zeros,
                // its loss output is not used), so the divisor is the forward's own sum
                let unused_loss = GpuStorage::alloc(ctx, dtype, 1)?;
                let pl = unused_loss.ptr();
                ctx.run(|k| {
                    k.nll_loss(e, u8t, red, Some(n), c, pgi, ptg, pw, ignore_index, pl, pt)
                })?;
            }
            ctx.run(|k| {
                k.nll_loss_backward(e, u8t, red, n, c, pg, ptg, pw, ignore_index, pt, pgi)
            })?;
            return Ok(gin);
        }
        grad.ctx.note_fallback("nll_loss_backward");
        let (g, t) = (grad.download()?, target.download()?);
        let w = weight.map(|w| w.download()).transpose()?;
        grad.up(HostStorage::nll_loss_backward(
            &g,
            &loss.over(&t, w.as_ref()),
            dtype,
        )?)
    }

    fn index_select(&self, layout: &Layout, dim: usize, index: &Self) -> Result<Checked<Self>> {
        let n_idx = index.len;
        if let Some(e) = self.elem()
            && matches!(index.dtype, DType::Int64 | DType::Int32)
            && Rc::ptr_eq(&self.ctx, &index.ctx)
        {
            let shape = &layout.shape;
            let (outer, size, inner) = if shape.is_empty() {
                (1, 1, 1)
            } else {
                (
                    shape[..dim].iter().product::<usize>(),
                    shape[dim],
                    shape[dim + 1..].iter().product::<usize>(),
                )
            };
            let tmp;
            let (src, off) = if layout.is_contiguous() {
                (self, layout.offset as u64)
            } else {
                tmp = self.contiguous(layout)?;
                (&tmp, 0)
            };
            let res = GpuStorage::alloc(&self.ctx, self.dtype, outer * n_idx * inner)?;
            let (ps, pi, po) = (
                src.ptr().offset(off * esize(self.dtype)),
                index.ptr(),
                res.ptr(),
            );
            let i32s = index.dtype == DType::Int32;
            let bad = self.ctx.run_checked(|k| {
                k.index_select(e, false, i32s, outer, size, inner, n_idx, ps, pi, po)
            })?;
            return Ok(Checked { value: res, bad });
        }
        let hi = index.download()?;
        self.checked_on_host("index_select", |h| h.index_select(layout, dim, &hi))
    }

    fn gather(src: (&Self, &Layout), dim: usize, index: (&Self, &Layout)) -> Result<Checked<Self>> {
        let ((this, layout), index_shape) = (src, &index.1.shape[..]);
        if let Some(e) = this.elem()
            && index.0.dtype == DType::Int64
            && Rc::ptr_eq(&this.ctx, &index.0.ctx)
            && !layout.shape.is_empty()
        {
            let n: usize = index_shape.iter().product();
            let res = GpuStorage::alloc(&this.ctx, this.dtype, n)?;
            let (si, sx, so) = (
                strides(layout),
                strides(index.1),
                contiguous_strides(index_shape),
            );
            let (pi, px, po) = (
                this.at(layout, &si),
                index.0.at(index.1, &sx),
                res.at(&Layout::contiguous(index_shape), &so),
            );
            let size = layout.shape[dim];
            let bad = this
                .ctx
                .run_checked(|k| k.gather(e, index_shape, dim, size, pi, px, po))?;
            return Ok(Checked { value: res, bad });
        }
        let hi = index.0.download()?;
        this.checked_on_host("gather", |h| {
            HostStorage::gather((h, layout), dim, (&hi, index.1))
        })
    }

    fn conv2d(xwb: Affine<'_, Self>, geom: &crate::engine::host::conv::ConvGeom) -> Result<Self> {
        xwb.x.0.ctx.note_fallback("conv2d");
        xwb.x
            .0
            .up(on_host_affine(xwb, |h| HostStorage::conv2d(h, geom))?)
    }

    fn pool2d(&self, layout: &Layout, geom: &crate::engine::host::conv::PoolGeom) -> Result<Self> {
        self.ctx.note_fallback("pool2d");
        let h = self.download()?;
        self.up(h.pool2d(layout, geom)?)
    }

    fn index_add(src: &Self, shape: &[usize], dim: usize, index: &Self) -> Result<Self> {
        if let Some(e @ (Elem::F32 | Elem::F64)) = src.elem()
            && matches!(index.dtype, DType::Int64 | DType::Int32)
            && Rc::ptr_eq(&src.ctx, &index.ctx)
            && (shape.is_empty() || dim < shape.len())
        {
            let total: usize = shape.iter().product();
            let nd = shape.len();
            let (outer, size, inner) = if nd == 0 {
                (1, 1, 1)
            } else {
                (
                    shape[..dim].iter().product::<usize>(),
                    shape[dim],
                    shape[dim + 1..].iter().product::<usize>(),
                )
            };
            let out = GpuHandle(src.ctx.clone()).zeros(total, src.dtype)?;
            let n_idx = index.len;
            let i32s = index.dtype == DType::Int32;
            let (ps, pi, po) = (src.ptr(), index.ptr(), out.ptr());
            if total > 0 {
                src.ctx
                    .run(|k| k.index_add(e, i32s, outer, size, inner, n_idx, ps, pi, po))?;
            }
            return Ok(out);
        }
        src.ctx.note_fallback("index_add");
        let (s, i) = (src.download()?, index.download()?);
        src.up(HostStorage::index_add(&s, shape, dim, &i)?)
    }

    fn matmul(xwb: Affine<'_, Self>, dims: MatmulDims) -> Result<Self> {
        let Affine {
            x: a,
            weight: b,
            bias,
        } = xwb;
        let ctx = a.0.ctx.clone();
        let dt = a.0.dtype;
        let MatmulDims { batch, m, k, n } = dims;
        if let Some(e @ (Elem::F32 | Elem::F64)) = a.0.elem()
            && b.0.dtype == dt
            && bias.is_none_or(|(s, _)| s.dtype == dt)
            && a.1.shape.len() == 3
            && b.1.shape.len() == 3
        {
            let out_shape = [batch, m, n];
            let out = GpuStorage::alloc(&ctx, dt, batch * m * n)?;
            let full = Layout::contiguous(&out_shape);
            let beta = if let Some((bs, bl)) = bias {
                // the bias first, then C = A @ B + 1 * C, as addmm with beta = 1
                let (sb, so) = (strides(bl), contiguous_strides(&out_shape));
                let (pb, po) = (bs.at(bl, &sb), out.at(&full, &so));
                let be = bs.elem().unwrap_or(e);
                ctx.run(|kk| kk.copy(be, e, &out_shape, pb, po))?;
                1.0
            } else {
                0.0
            };
            let es = esize(dt);
            let pa = (
                a.0.ptr().offset(a.1.offset as u64 * es),
                a.1.strides[1] as isize,
                a.1.strides[2] as isize,
                a.1.strides[0] as isize,
            );
            let pb = (
                b.0.ptr().offset(b.1.offset as u64 * es),
                b.1.strides[1] as isize,
                b.1.strides[2] as isize,
                b.1.strides[0] as isize,
            );
            let pc = (out.ptr(), n as isize, (m * n) as isize);
            let product = Gemm {
                elem: e,
                batch,
                m,
                n,
                k,
                alpha: 1.0,
                a: pa,
                b: pb,
                beta,
                c: pc,
            };
            ctx.run(|kk| kk.gemm(&product))?;
            return Ok(out);
        }
        ctx.note_fallback("matmul");
        let h = on_host_affine(xwb, |h| HostStorage::matmul(h, dims))?;
        GpuStorage::upload(&ctx, &h)
    }
}

impl GpuStorage {
    /// After a host fallback computed this buffer's new values into `self` (fresh scratch),
    /// copy them to where `old` lives (the tensor's block).
    fn rehome(self, old: &GpuStorage) -> Result<()> {
        if let Some(m) = &old.mem
            && !self.dead()
            && !self.ctx.poisoned()
        {
            let bytes = self.len as u64 * esize(self.dtype);
            // a failed copy poisons the device, which the run reports as the sim does
            let _ = self.ctx.device.copy_d2d(m.ptr, self.ptr(), bytes);
        }
        Ok(())
    }
}

impl GpuStorage {
    /// `torch.rand`/`randn` (`uniform_(a, b)`, `normal_(a = mean, b = std)`) on elements
    /// `start..start + n` by random.cu's kernels, drawn from `gen` as PyTorch's CUDA generator
    /// draws (its Philox offset advances by the launch's increment). `false`: no kernel for
    /// this dtype (the caller falls back to the host's mirror of the same stream).
    pub(crate) fn random_float(
        &self,
        normal: bool,
        start: usize,
        n: usize,
        generator: &mut crate::engine::random::CudaGenerator,
        a: f64,
        b: f64,
    ) -> Result<bool> {
        if self.dtype == DType::Float16 && normal {
            return self.normal_f16(start, n, generator, a, b);
        }
        let Some(e @ (Elem::F32 | Elem::F64)) = self.elem() else {
            return Ok(false);
        };
        if n == 0 {
            return Ok(true);
        }
        let (seed, offset) = self.philox_for_draw(generator, n, super::ops::draw_unroll(e));
        let p = self.ptr().offset(start as u64 * esize(self.dtype));
        self.ctx.run(|k| {
            k.random_float(normal, e, n, seed, offset, a, b, p)
                .map(|_| ())
        })?;
        Ok(true)
    }

    /// A host fallback that changes the buffer in place: download, `f`, copy back. Counted
    /// under `what` in the report of what ran where.
    pub(crate) fn update_on_host(
        &self,
        what: impl Into<String>,
        f: impl FnOnce(&mut HostStorage) -> Result<()>,
    ) -> Result<()> {
        self.ctx.note_fallback(what);
        let mut h = self.download()?;
        f(&mut h)?;
        self.overwrite(&h)
    }
}
