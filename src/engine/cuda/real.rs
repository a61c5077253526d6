//! The cuda device: a real NVIDIA GPU through the CUDA driver (cudarc 0.19, loaded at run
//! time), implementing [`GpuDevice`] exactly as the emulated device does.
//!
//! - Kernels: each kernel file is compiled by NVRTC to CUBIN for this GPU's own architecture
//!   (`sm_90` on an H200), cached on disk ([`PtxCache`]), and loaded with `cuModuleLoadData`
//!   on first use; entry points are looked up once per name.
//! - Launches go to one stream (the legacy default stream, as PyTorch's default stream
//!   behaves for these programs) with the [`KernelArgs`] `void**` array. With
//!   `CUDA_LAUNCH_BLOCKING` each launch is followed by a stream synchronize, so a failing kernel
//!   is reported by the launch that caused it.
//! - Memory: raw `cuMemAlloc`/`cuMemFree` for the caching allocator's segments
//!   ([`super::gpu::DeviceSegments`], which also applies `--gpu-mem-limit`).
//! - Times: a CUDA event pair around every launch and copy; [`CudaDevice::measured_spans`]
//!   resolves them (after a synchronize) into device times, labelled measured.
//! - Matrix products: cuBLAS when it loads ([`CudaDevice::cublas`], its workspace from the
//!   caching allocator), matmul.cu's tiled kernel otherwise.
//! - Errors: `CUDA_ERROR_ASSERT` (710, a device-side assert) and the other sticky errors
//!   (illegal address, launch failure, ...) poison the device: every later call returns the
//!   same error, as the context is lost until the process ends. The driver prints the assert
//!   line itself, on the process's stderr: the worker captures it (see run/worker.rs).
//!
//! Nothing here panics when libcuda is absent: [`CudaDevice::open`] checks the library first
//! and every cudarc call is inside `catch_unwind`.
//!
//! No GPU was available where this was written: this file compiles and its error paths are
//! tested without a driver; scripts/gpu-check.sh proves it on the first GPU.

use super::cache::PtxCache;
use super::gpu::{GpuDevice, GpuKind, MeasuredSpan};
use super::kernels;
use super::launch::{DeviceError, DevicePtr, KernelArgs, LaunchConfig};
use super::nvrtc::Nvrtc;
use super::probe;
use cudarc::driver::{result, sys};
use std::collections::HashMap;
use std::ffi::CString;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Runs a cudarc call, turning a panic (missing library or symbol) into an error.
fn guarded<T>(
    what: &str,
    f: impl FnOnce() -> Result<T, result::DriverError>,
) -> Result<T, DeviceError> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(classify(e.0)),
        Err(_) => Err(DeviceError::Unavailable(format!(
            "{what}: the CUDA driver library panicked"
        ))),
    }
}

/// The driver's name for a result code.
pub(crate) fn error_name(code: sys::CUresult) -> String {
    format!("{code:?}")
}

/// Sorts a driver error into the engine's kinds: which ones poison the context.
pub(crate) fn classify(code: sys::CUresult) -> DeviceError {
    use sys::CUresult as R;
    match code {
        R::CUDA_ERROR_ASSERT => DeviceError::Assert,
        R::CUDA_ERROR_ILLEGAL_ADDRESS
        | R::CUDA_ERROR_LAUNCH_FAILED
        | R::CUDA_ERROR_ILLEGAL_INSTRUCTION
        | R::CUDA_ERROR_MISALIGNED_ADDRESS
        | R::CUDA_ERROR_INVALID_ADDRESS_SPACE
        | R::CUDA_ERROR_INVALID_PC
        | R::CUDA_ERROR_HARDWARE_STACK_ERROR
        | R::CUDA_ERROR_LAUNCH_TIMEOUT => DeviceError::Sticky {
            code: code as i32,
            name: error_name(code),
        },
        R::CUDA_ERROR_OUT_OF_MEMORY => DeviceError::OutOfMemory { bytes: 0 },
        _ => DeviceError::Driver {
            code: code as i32,
            name: error_name(code),
        },
    }
}

#[derive(Default)]
struct Loaded {
    modules: HashMap<&'static str, sys::CUmodule>,
    functions: HashMap<String, sys::CUfunction>,
}

/// Whether a device's context outlives the run that opened it ([`keep_contexts_between_runs`]).
static KEEP_CONTEXTS: AtomicBool = AtomicBool::new(false);

/// Makes every [`CudaDevice`] of this process leave its primary context and loaded kernels to
/// the next run on the same GPU instead of releasing them: the warm worker's runs then skip
/// the context's creation and the module loads. Runs stay isolated: a run's allocator frees
/// its segments when it ends ([`super::gpu::DeviceSegments`]), each run has its own stream
/// events, counters and generators, and a context that ended poisoned, or with an error
/// pending, is never kept (the worker also exits after a poisoned run).
pub(crate) fn keep_contexts_between_runs() {
    KEEP_CONTEXTS.store(true, Ordering::SeqCst);
}

/// A context a finished run left for the next: the primary context's retain and the kernels
/// loaded in it.
struct KeptContext {
    ordinal: i32,
    ctx: sys::CUcontext,
    loaded: Loaded,
}

// SAFETY: the handles are the driver's, valid in every thread of the process (the driver API
// is thread safe); a kept context is taken out of KEPT, under its lock, by one device at a time.
unsafe impl Send for KeptContext {}

static KEPT: Mutex<Vec<KeptContext>> = Mutex::new(Vec::new());

/// The context an earlier run on GPU `ordinal` left, if any.
fn take_kept(ordinal: i32) -> Option<KeptContext> {
    let mut kept = KEPT.lock().ok()?;
    let i = kept.iter().position(|k| k.ordinal == ordinal)?;
    Some(kept.swap_remove(i))
}

/// Unloads `loaded`'s modules and releases one retain of `dev`'s primary context.
///
/// # Safety
/// The modules were loaded in that context, and this retain has not been released.
unsafe fn release_context(dev: sys::CUdevice, loaded: &mut Loaded) {
    loaded.functions.clear();
    for (_, m) in loaded.modules.drain() {
        // SAFETY: as the caller promises.
        let _ = unsafe { result::module::unload(m) };
    }
    // SAFETY: as the caller promises.
    let _ = unsafe { result::primary_ctx::release(dev) };
}

/// Events recorded around one launch or copy.
struct EventPair {
    start: sys::CUevent,
    end: sys::CUevent,
}

/// One GPU, its primary context and stream.
pub struct CudaDevice {
    ordinal: i32,
    dev: sys::CUdevice,
    ctx: sys::CUcontext,
    stream: sys::CUstream,
    info: probe::DeviceInfo,
    nvrtc: Nvrtc,
    cache: PtxCache,
    launch_blocking: bool,
    loaded: Mutex<Loaded>,
    /// Event recorded when the device opened: device times are measured from it.
    origin: sys::CUevent,
    pending: Mutex<Vec<EventPair>>,
    spans: Mutex<Vec<MeasuredSpan>>,
    poisoned: AtomicBool,
    /// The sticky error, once one happened.
    sticky: Mutex<Option<DeviceError>>,
    /// Where this process's stderr goes, when it was redirected (the self-test process): the
    /// driver's assert lines are read back from it.
    log: Option<Mutex<super::capture::DeviceCapture>>,
    /// cuBLAS, created on first use (None inside: the library is absent).
    cublas: std::cell::OnceCell<Option<super::cublas::Cublas>>,
}

impl CudaDevice {
    /// Opens GPU `ordinal`: checks that the driver loads, makes its primary context current,
    /// records the timing origin. Kernels compile (or come from `cache`) on first use.
    pub fn open(
        ordinal: i32,
        nvrtc: Nvrtc,
        cache: PtxCache,
        launch_blocking: bool,
    ) -> Result<CudaDevice, DeviceError> {
        if !probe::driver_library_present() {
            return Err(DeviceError::Unavailable(
                "no NVIDIA driver (libcuda.so not found)".into(),
            ));
        }
        let probe = probe::probe_driver();
        let info = probe
            .devices
            .iter()
            .find(|d| d.ordinal == ordinal)
            .cloned()
            .ok_or_else(|| {
                DeviceError::Unavailable(format!("no CUDA device {ordinal}: {probe}"))
            })?;
        guarded("cuInit", result::init)?;
        let dev = guarded("cuDeviceGet", || result::device::get(ordinal))?;
        // An earlier run's context (the warm worker), or a fresh retain.
        let (ctx, mut loaded) = match take_kept(ordinal) {
            Some(k) => (k.ctx, k.loaded),
            None => {
                // SAFETY: `dev` came from cuDeviceGet; the retain is released in Drop (or
                // handed to the next run, which releases it).
                let ctx = guarded("cuDevicePrimaryCtxRetain", || unsafe {
                    result::primary_ctx::retain(dev)
                })?;
                (ctx, Loaded::default())
            }
        };
        // SAFETY: a context retained above or by the run that kept it.
        if let Err(e) = guarded("cuCtxSetCurrent", || unsafe {
            result::ctx::set_current(ctx)
        }) {
            // SAFETY: this retain and these modules belong to `ctx`, released once here.
            unsafe { release_context(dev, &mut loaded) };
            return Err(e);
        }
        let origin = guarded("cuEventCreate", || {
            result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT)
        })?;
        let stream = result::stream::null();
        // SAFETY: both handles are valid; the null stream is the context's default stream.
        guarded("cuEventRecord", || unsafe {
            result::event::record(origin, stream)
        })?;
        Ok(CudaDevice {
            ordinal,
            dev,
            ctx,
            stream,
            info,
            nvrtc,
            cache,
            launch_blocking,
            loaded: Mutex::new(loaded),
            origin,
            pending: Mutex::new(Vec::new()),
            spans: Mutex::new(Vec::new()),
            poisoned: AtomicBool::new(false),
            sticky: Mutex::new(None),
            log: None,
            cublas: std::cell::OnceCell::new(),
        })
    }

    /// Reads the driver's output (this process's redirected stderr) from `capture` for
    /// [`GpuDevice::take_device_log`].
    pub(crate) fn with_log(mut self, capture: super::capture::DeviceCapture) -> CudaDevice {
        self.log = Some(Mutex::new(capture));
        self
    }

    pub fn info(&self) -> &probe::DeviceInfo {
        &self.info
    }

    pub fn ordinal(&self) -> i32 {
        self.ordinal
    }

    /// Makes this device's context current on the calling thread (the driver's current
    /// context is per thread).
    fn make_current(&self) -> Result<(), DeviceError> {
        // SAFETY: a context this device retained and has not released.
        guarded("cuCtxSetCurrent", || unsafe {
            result::ctx::set_current(self.ctx)
        })
    }

    /// Multiprocessor count (some of PyTorch's grids depend on it).
    pub fn sm_count(&self) -> u32 {
        // SAFETY: `dev` is a valid device handle.
        guarded("cuDeviceGetAttribute", || unsafe {
            result::device::get_attribute(
                self.dev,
                sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
            )
        })
        .map(|n| n.max(1) as u32)
        .unwrap_or(1)
    }

    /// cuBLAS on this device's stream, when the library loads. The caller gives it its
    /// workspace ([`super::cublas::Cublas::set_workspace`], sized by
    /// [`CudaDevice::cublas_workspace_size`]) from the caching allocator.
    pub fn cublas(&self) -> Option<&super::cublas::Cublas> {
        self.cublas
            .get_or_init(|| {
                self.make_current().ok()?;
                super::cublas::Cublas::new(self.stream.cast()).ok()
            })
            .as_ref()
    }

    /// PyTorch's cuBLAS workspace size for this GPU (`CUBLAS_WORKSPACE_CONFIG` honoured).
    pub fn cublas_workspace_size(&self) -> u64 {
        super::cublas::workspace_size(
            std::env::var("CUBLAS_WORKSPACE_CONFIG").ok().as_deref(),
            self.info.compute_capability.0,
        )
    }

    /// Records `e` as this device's error; sticky ones poison it for good.
    fn fail(&self, e: DeviceError) -> DeviceError {
        if e.is_sticky() {
            self.poisoned.store(true, Ordering::SeqCst);
            if let Ok(mut s) = self.sticky.lock() {
                s.get_or_insert(e.clone());
            }
        }
        e
    }

    fn check_alive(&self) -> Result<(), DeviceError> {
        self.make_current()?;
        if self.poisoned() {
            let e = self
                .sticky
                .lock()
                .ok()
                .and_then(|s| s.clone())
                .unwrap_or(DeviceError::Assert);
            return Err(e);
        }
        Ok(())
    }

    fn function(&self, entry: &str) -> Result<sys::CUfunction, DeviceError> {
        let mut loaded = self
            .loaded
            .lock()
            .map_err(|_| DeviceError::Unavailable("device state poisoned".into()))?;
        if let Some(f) = loaded.functions.get(entry) {
            return Ok(*f);
        }
        let k = kernels::file_for_entry(entry)
            .ok_or_else(|| DeviceError::Launch(format!("no kernel named {entry}")))?;
        let module = match loaded.modules.get(k.file) {
            Some(m) => *m,
            None => {
                let arch = self.info.arch();
                let cubin = self
                    .cache
                    .get_or_compile_cubin(&self.nvrtc, k.file, &k.full_source(), &arch)
                    .map_err(|e| DeviceError::Unavailable(e.to_string()))?;
                // SAFETY: `cubin` is an ELF image NVRTC produced; the driver copies it.
                let m = guarded("cuModuleLoadData", || unsafe {
                    result::module::load_data(cubin.cubin.as_ptr().cast())
                })
                .map_err(|e| match e {
                    DeviceError::Driver { name, .. } => DeviceError::Unavailable(format!(
                        "the driver refused the {arch} CUBIN of {} ({name}); run `cudatutor doctor`",
                        k.file
                    )),
                    other => self.fail(other),
                })?;
                loaded.modules.insert(k.file, m);
                m
            }
        };
        let name = CString::new(entry).map_err(|e| DeviceError::Launch(e.to_string()))?;
        // SAFETY: `module` is loaded; `name` is a valid C string.
        let f = guarded("cuModuleGetFunction", || unsafe {
            result::module::get_function(module, name)
        })?;
        loaded.functions.insert(entry.to_string(), f);
        Ok(f)
    }

    /// Records a start event; returns it with an end event to record after the work.
    fn begin_span(&self) -> Option<EventPair> {
        let start = result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT).ok()?;
        let end = result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT).ok()?;
        // SAFETY: fresh events on this context's stream.
        unsafe { result::event::record(start, self.stream) }.ok()?;
        Some(EventPair { start, end })
    }

    fn end_span(&self, pair: Option<EventPair>) {
        if let Some(p) = pair {
            // SAFETY: `p.end` is a fresh event.
            if unsafe { result::event::record(p.end, self.stream) }.is_ok()
                && let Ok(mut pending) = self.pending.lock()
            {
                pending.push(p);
            }
        }
    }

    /// Device times (µs since the device opened) of the launches and copies recorded so far,
    /// resolved once their work has finished. Measured with CUDA events.
    pub(crate) fn measured_spans(&self) -> Vec<MeasuredSpan> {
        let pending: Vec<EventPair> = self
            .pending
            .lock()
            .map(|mut p| std::mem::take(&mut *p))
            .unwrap_or_default();
        let mut spans = self.spans.lock().map(|s| s.clone()).unwrap_or_default();
        for p in pending {
            // SAFETY: events of this context, recorded above; destroyed after use.
            unsafe {
                if result::event::synchronize(p.end).is_ok()
                    && let (Ok(a), Ok(b)) = (
                        result::event::elapsed(self.origin, p.start),
                        result::event::elapsed(self.origin, p.end),
                    )
                {
                    spans.push(MeasuredSpan {
                        start_us: a as f64 * 1000.0,
                        end_us: b as f64 * 1000.0,
                    });
                } else {
                    // unmeasurable (a poisoned context): kept as NaN so later spans keep
                    // their index, which the runtime's op tags refer to
                    spans.push(MeasuredSpan {
                        start_us: f64::NAN,
                        end_us: f64::NAN,
                    });
                }
                let _ = result::event::destroy(p.start);
                let _ = result::event::destroy(p.end);
            }
        }
        if let Ok(mut s) = self.spans.lock() {
            *s = spans.clone();
        }
        spans
    }
}

impl GpuDevice for CudaDevice {
    fn sm_count(&self) -> u32 {
        CudaDevice::sm_count(self)
    }

    fn kind(&self) -> GpuKind {
        GpuKind::Cuda
    }

    fn name(&self) -> String {
        self.info.name.clone()
    }

    fn arch(&self) -> String {
        self.info.arch()
    }

    fn identity(&self) -> Option<super::gpu::DeviceIdentity> {
        Some(super::gpu::DeviceIdentity {
            name: self.info.name.clone(),
            capability: self.info.compute_capability,
            total_memory: self.info.total_memory_bytes,
            sm_count: CudaDevice::sm_count(self),
        })
    }

    fn launch(&self, entry: &str, cfg: LaunchConfig, args: &KernelArgs) -> Result<(), DeviceError> {
        self.check_alive()?;
        let f = self.function(entry)?;
        let mut ptrs = args.pointers();
        let span = self.begin_span();
        // SAFETY: `f` is a loaded kernel; `ptrs` points at one value per parameter, laid out
        // as the kernel declares them (the emulated device checks these layouts in CI).
        let launched = guarded("cuLaunchKernel", || unsafe {
            result::launch_kernel(
                f,
                (cfg.grid.x, cfg.grid.y, cfg.grid.z),
                (cfg.block.x, cfg.block.y, cfg.block.z),
                cfg.shared_mem_bytes,
                self.stream,
                &mut ptrs,
            )
        });
        self.end_span(span);
        launched.map_err(|e| self.fail(e))?;
        if self.launch_blocking {
            self.synchronize()?;
        }
        Ok(())
    }

    fn mem_alloc(&self, bytes: u64) -> Result<DevicePtr, DeviceError> {
        self.check_alive()?;
        let n = usize::try_from(bytes).map_err(|_| DeviceError::OutOfMemory { bytes })?;
        // SAFETY: plain allocation in the current context.
        guarded("cuMemAlloc", || unsafe { result::malloc_sync(n) })
            .map(DevicePtr)
            .map_err(|e| match e {
                DeviceError::OutOfMemory { .. } => DeviceError::OutOfMemory { bytes },
                other => self.fail(other),
            })
    }

    fn mem_free(&self, ptr: DevicePtr, _bytes: u64) {
        // SAFETY: `ptr` came from mem_alloc; errors (a poisoned context) are ignored, the
        // memory goes with the context.
        let _ = guarded("cuMemFree", || unsafe { result::free_sync(ptr.0) });
    }

    fn mem_info(&self) -> (u64, u64) {
        guarded("cuMemGetInfo", result::mem_get_info)
            .map(|(f, t)| (f as u64, t as u64))
            .unwrap_or((0, self.info.total_memory_bytes))
    }

    fn copy_h2d(&self, dst: DevicePtr, src: &[u8], _non_blocking: bool) -> Result<(), DeviceError> {
        // Always a synchronous copy: `src` is only borrowed for this call. (The timeline's
        // non_blocking semantics are the stream model's, above this layer.)
        self.check_alive()?;
        let span = self.begin_span();
        // SAFETY: `dst` is device memory of at least src.len() bytes (the caller's block).
        let r = guarded("cuMemcpyHtoD", || unsafe {
            result::memcpy_htod_sync(dst.0, src)
        });
        self.end_span(span);
        r.map_err(|e| self.fail(e))
    }

    fn copy_d2h(&self, dst: &mut [u8], src: DevicePtr) -> Result<(), DeviceError> {
        self.check_alive()?;
        let span = self.begin_span();
        // SAFETY: `src` is device memory of at least dst.len() bytes.
        let r = guarded("cuMemcpyDtoH", || unsafe {
            result::memcpy_dtoh_sync(dst, src.0)
        });
        self.end_span(span);
        r.map_err(|e| self.fail(e))
    }

    fn copy_d2d(&self, dst: DevicePtr, src: DevicePtr, bytes: u64) -> Result<(), DeviceError> {
        self.check_alive()?;
        let n = usize::try_from(bytes).map_err(|_| DeviceError::Launch("copy too large".into()))?;
        let span = self.begin_span();
        // SAFETY: both ranges are device memory of at least `bytes`.
        let r = guarded("cuMemcpyDtoDAsync", || unsafe {
            result::memcpy_dtod_async(dst.0, src.0, n, self.stream)
        });
        self.end_span(span);
        r.map_err(|e| self.fail(e))
    }

    fn synchronize(&self) -> Result<(), DeviceError> {
        self.check_alive()?;
        // SAFETY: the context's own stream.
        guarded("cuStreamSynchronize", || unsafe {
            result::stream::synchronize(self.stream)
        })
        .map_err(|e| self.fail(e))
    }

    /// On a real GPU the driver prints the assert line on the process's stderr: the lines
    /// read back from it when it was redirected ([`CudaDevice::with_log`]), or from the
    /// worker's shared capture ([`super::capture::share`]); otherwise empty.
    fn take_device_log(&self) -> Vec<String> {
        match &self.log {
            Some(l) => l.lock().map(|mut c| c.take_new_lines()).unwrap_or_default(),
            // In the worker: its shared capture (the driver prints on the process's stderr).
            None => super::capture::take_shared_assert_lines(),
        }
    }

    fn poisoned(&self) -> bool {
        self.poisoned.load(Ordering::SeqCst)
    }

    fn sticky_fault(&self) -> Option<crate::engine::error::CudaFault> {
        use crate::engine::error::CudaFault;
        match self.sticky.lock().ok()?.as_ref()? {
            DeviceError::Assert => Some(CudaFault::Assert),
            DeviceError::Sticky { code, .. } => CudaFault::from_code(*code),
            _ => None,
        }
    }

    fn last_span(&self) -> Option<MeasuredSpan> {
        self.spans.lock().ok().and_then(|s| s.last().copied())
    }

    fn spans_recorded(&self) -> usize {
        let done = self.spans.lock().map(|s| s.len()).unwrap_or(0);
        let pending = self.pending.lock().map(|p| p.len()).unwrap_or(0);
        done + pending
    }

    fn measured_spans(&self) -> Vec<MeasuredSpan> {
        CudaDevice::measured_spans(self)
    }
}

impl Drop for CudaDevice {
    fn drop(&mut self) {
        // Best effort: a poisoned context refuses most of this, and the process is about to
        // end anyway (a poisoned worker exits).
        let _ = catch_unwind(AssertUnwindSafe(|| {
            // SAFETY: handles of this context, released once.
            unsafe {
                if let Ok(mut p) = self.pending.lock() {
                    for e in p.drain(..) {
                        let _ = result::event::destroy(e.start);
                        let _ = result::event::destroy(e.end);
                    }
                }
                let _ = result::event::destroy(self.origin);
                let mut loaded = self
                    .loaded
                    .lock()
                    .map(|mut l| std::mem::take(&mut *l))
                    .unwrap_or_default();
                // Kept for the next run only when nothing failed: not poisoned, and the
                // stream's last work ended without an error (one could still be pending).
                let healthy = KEEP_CONTEXTS.load(Ordering::SeqCst)
                    && !self.poisoned()
                    && self.make_current().is_ok()
                    && guarded("cuCtxSynchronize", result::ctx::synchronize).is_ok();
                let mut kept = KEPT.lock().ok();
                match kept.as_mut() {
                    Some(k) if healthy && !k.iter().any(|c| c.ordinal == self.ordinal) => {
                        k.push(KeptContext {
                            ordinal: self.ordinal,
                            ctx: self.ctx,
                            loaded,
                        });
                    }
                    _ => release_context(self.dev, &mut loaded),
                }
            }
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sys::CUresult as R;

    #[test]
    fn the_assert_and_memory_faults_poison_other_errors_do_not() {
        assert_eq!(classify(R::CUDA_ERROR_ASSERT), DeviceError::Assert);
        assert!(classify(R::CUDA_ERROR_ASSERT).is_sticky());
        assert!(classify(R::CUDA_ERROR_ILLEGAL_ADDRESS).is_sticky());
        assert!(classify(R::CUDA_ERROR_LAUNCH_FAILED).is_sticky());
        assert!(!classify(R::CUDA_ERROR_INVALID_VALUE).is_sticky());
        assert!(matches!(
            classify(R::CUDA_ERROR_OUT_OF_MEMORY),
            DeviceError::OutOfMemory { .. }
        ));
        assert_eq!(R::CUDA_ERROR_ASSERT as i32, 710);
    }

    #[test]
    fn opening_without_a_driver_is_an_error_not_a_panic() {
        if probe::driver_library_present() {
            return; // a machine with a driver: covered by scripts/gpu-check.sh
        }
        let nvrtc = Nvrtc {
            path: None,
            found_by: "test".into(),
            version: (13, 0),
        };
        let dir = std::env::temp_dir().join("cudatutor-real-test");
        match CudaDevice::open(0, nvrtc, PtxCache::new(dir), false) {
            Err(DeviceError::Unavailable(why)) => {
                assert!(why.contains("no NVIDIA driver"), "{why}")
            }
            Err(e) => panic!("unexpected error {e}"),
            Ok(_) => panic!("opened a GPU on a machine without a driver"),
        }
    }
}
