//! The emulated device (`--backend emulated`): the real kernels of kernels/*.cu, compiled for
//! the CPU by build.rs with the shim kernels/emu/shim.h, launched through the same
//! [`GpuDevice`] interface as a real GPU (entry name, grid, block, shared memory, the
//! `void**` argument array). Device memory is host memory (anonymous mappings, one per
//! allocator segment). A device-side assert prints the driver's line into the device log and
//! poisons the context for good, as on a GPU.
//!
//! It is the CI proof of the kernels and of the launch code, and a teaching mode of its own
//! ("these are the real kernels"). Each launch and copy is timed on the host clock
//! ([`GpuDevice::measured_spans`]) exactly where the cuda device records its CUDA events, so
//! the report's measured timeline takes the same code path here as on a GPU; the figures are
//! a CPU's and say nothing about a GPU's speed.

#[cfg(ct_emulated)]
mod ffi;
pub mod source;

use super::gpu::{GpuDevice, GpuKind, MeasuredSpan};
use super::launch::{DeviceError, DevicePtr, KernelArgs, LaunchConfig};
use crate::engine::error::CudaFault;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// What `torch.cuda.get_device_name()` says on the emulated device.
pub(crate) const EMULATED_DEVICE_NAME: &str = "Emulated GPU (kernels/*.cu on the CPU)";

/// Whether this binary holds the emulated device (build.rs found a C++ compiler).
pub fn built() -> bool {
    cfg!(ct_emulated)
}

/// Why the emulated device is missing from this build.
pub const NOT_BUILT: &str = "this build of cudatutor has no emulated device (build.rs found no \
                             working C++ compiler, or CUDATUTOR_NO_EMULATED=1 was set)";

/// The entry points this binary's emulated device holds, by kernel file (empty when not
/// built).
pub fn entry_names() -> Vec<(&'static str, Vec<&'static str>)> {
    #[cfg(ct_emulated)]
    {
        ffi::modules()
            .into_iter()
            .map(|(file, entries)| (file, entries.iter().map(|e| e.name()).collect()))
            .collect()
    }
    #[cfg(not(ct_emulated))]
    {
        Vec::new()
    }
}

#[cfg(ct_emulated)]
fn lookup(entry: &str) -> Option<ffi::Entry> {
    use std::collections::HashMap;
    use std::sync::OnceLock;
    static TABLE: OnceLock<HashMap<&'static str, ffi::Entry>> = OnceLock::new();
    TABLE
        .get_or_init(|| {
            ffi::modules()
                .into_iter()
                .flat_map(|(_, entries)| entries)
                .map(|e| (e.name(), e))
                .collect()
        })
        .get(entry)
        .copied()
}

/// One emulated GPU. Cheap to create; every run gets a fresh one (its poisoned state is the
/// run's).
pub struct EmulatedDevice {
    capacity: u64,
    /// Most bytes of segments that may be mapped at once: values live in host memory.
    host_limit: u64,
    /// Live segments: address -> length.
    segments: Mutex<BTreeMap<u64, u64>>,
    /// Live scratch mappings (ops' temporaries, not counted in `mem_info`): address -> length.
    scratch: Mutex<BTreeMap<u64, u64>>,
    log: Mutex<Vec<String>>,
    poisoned: AtomicBool,
    /// The CUDA error that poisoned it.
    fault: Mutex<Option<CudaFault>>,
    /// Faults to inject (the fault tests): the next launch of an entry whose name contains the
    /// text faults instead of running.
    injected: Mutex<Vec<(String, InjectedFault)>>,
    /// When the device opened: the zero of its measured spans.
    origin: std::time::Instant,
    /// Host-clock times of every launch and copy, in order.
    spans: Mutex<Vec<MeasuredSpan>>,
}

/// A kernel fault the emulated device can be told to cause (a GPU would; the kernels of
/// kernels/*.cu never do on purpose), so each of PyTorch's sticky errors is tested without
/// one. The faulting launch does not run its kernel, whose stray access would hit host memory
/// here: the device is poisoned as the GPU's context would be, and the launch returns as
/// cuLaunchKernel does (the error is the context's, seen at a later call).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InjectedFault {
    /// A store past the end of its allocation: cudaErrorIllegalAddress (700).
    OutOfBoundsWrite,
    /// A 4-byte load from an address that is not a multiple of 4: cudaErrorMisalignedAddress
    /// (716).
    MisalignedLoad,
    /// `__trap()`: cudaErrorLaunchFailure (719).
    Trap,
}

impl InjectedFault {
    /// The CUDA error a GPU reports for it.
    pub fn fault(self) -> CudaFault {
        match self {
            InjectedFault::OutOfBoundsWrite => CudaFault::IllegalAddress,
            InjectedFault::MisalignedLoad => CudaFault::MisalignedAddress,
            InjectedFault::Trap => CudaFault::LaunchFailure,
        }
    }

    /// `oob-write`, `misaligned-load`, `trap` (the names the test hook takes).
    pub fn parse(name: &str) -> Option<InjectedFault> {
        Some(match name {
            "oob-write" => InjectedFault::OutOfBoundsWrite,
            "misaligned-load" => InjectedFault::MisalignedLoad,
            "trap" => InjectedFault::Trap,
            _ => return None,
        })
    }
}

/// The faults `CUDATUTOR_TEST_EMULATED_FAULT=ENTRY:KIND[,ENTRY:KIND...]` asks every new
/// emulated device to inject (KIND as [`InjectedFault::parse`]); only in builds with the
/// `fault-injection` feature (the tests'), so no user's binary reads it.
fn faults_from_env() -> Vec<(String, InjectedFault)> {
    #[cfg(feature = "fault-injection")]
    {
        std::env::var("CUDATUTOR_TEST_EMULATED_FAULT")
            .unwrap_or_default()
            .split(',')
            .filter_map(|item| {
                let (entry, kind) = item.split_once(':')?;
                Some((entry.to_string(), InjectedFault::parse(kind)?))
            })
            .collect()
    }
    #[cfg(not(feature = "fault-injection"))]
    {
        Vec::new()
    }
}

impl EmulatedDevice {
    /// A device reporting `capacity` bytes of memory (like the sim's `--gpu-memory`), whose
    /// segments may map at most `host_limit` bytes of host memory.
    pub fn new(capacity: u64, host_limit: u64) -> Result<EmulatedDevice, DeviceError> {
        if !built() {
            return Err(DeviceError::Unavailable(NOT_BUILT.into()));
        }
        Ok(EmulatedDevice {
            capacity,
            host_limit,
            segments: Mutex::new(BTreeMap::new()),
            scratch: Mutex::new(BTreeMap::new()),
            log: Mutex::new(Vec::new()),
            poisoned: AtomicBool::new(false),
            fault: Mutex::new(None),
            injected: Mutex::new(faults_from_env()),
            origin: std::time::Instant::now(),
            spans: Mutex::new(Vec::new()),
        })
    }

    /// Runs `work` (one launch or copy) and records its host-clock span, as the cuda device
    /// brackets the same calls with a CUDA event pair.
    fn timed<T>(&self, work: impl FnOnce() -> T) -> T {
        let start = self.origin.elapsed();
        let out = work();
        let end = self.origin.elapsed();
        // (bounded: a loop of millions of launches keeps its first 2^21 spans, 32 MiB)
        if let Ok(mut s) = self.spans.lock()
            && s.len() < 1 << 21
        {
            s.push(MeasuredSpan {
                start_us: start.as_secs_f64() * 1e6,
                end_us: end.as_secs_f64() * 1e6,
            });
        }
        out
    }

    /// Makes the next launch of an entry whose name contains `entry` fault as `fault`.
    pub fn inject_fault(&self, entry: &str, fault: InjectedFault) {
        if let Ok(mut f) = self.injected.lock() {
            f.push((entry.to_string(), fault));
        }
    }

    /// Poisons the device with `fault` (the first one stays: CUDA reports the first error).
    fn poison(&self, fault: CudaFault) {
        self.poisoned.store(true, Ordering::SeqCst);
        if let Ok(mut f) = self.fault.lock() {
            f.get_or_insert(fault);
        }
    }

    /// The injected fault for a launch of `entry`, taken (it fires once).
    fn take_injected(&self, entry: &str) -> Option<InjectedFault> {
        let mut injected = self.injected.lock().ok()?;
        let i = injected
            .iter()
            .position(|(e, _)| entry.contains(e.as_str()))?;
        Some(injected.remove(i).1)
    }

    fn used(&self) -> u64 {
        self.segments.lock().map(|s| s.values().sum()).unwrap_or(0)
    }

    /// Bytes of live scratch mappings (handed out or pooled by the engine).
    fn scratch_bytes(&self) -> u64 {
        self.scratch.lock().map(|s| s.values().sum()).unwrap_or(0)
    }

    /// Checks that `[ptr, ptr + len)` lies inside one live segment (a copy out of bounds is a
    /// bug in the caller; on the host it would corrupt memory, so it is refused).
    fn check_range(&self, ptr: DevicePtr, len: u64) -> Result<(), DeviceError> {
        if len == 0 {
            return Ok(());
        }
        let inside = |map: &Mutex<BTreeMap<u64, u64>>| -> Result<bool, DeviceError> {
            let segs = map
                .lock()
                .map_err(|_| DeviceError::Unavailable("emulated device state poisoned".into()))?;
            Ok(segs
                .range(..=ptr.0)
                .next_back()
                .is_some_and(|(&base, &size)| {
                    ptr.0.checked_add(len).is_some_and(|end| end <= base + size)
                }))
        };
        let ok = inside(&self.segments)? || inside(&self.scratch)?;
        if ok {
            Ok(())
        } else {
            Err(DeviceError::Sticky {
                code: 700,
                name: "CUDA_ERROR_ILLEGAL_ADDRESS".into(),
            })
        }
    }

    fn check_alive(&self) -> Result<(), DeviceError> {
        if !self.poisoned() {
            return Ok(());
        }
        Err(match self.sticky_fault() {
            None | Some(CudaFault::Assert) => DeviceError::Assert,
            Some(f) => DeviceError::Sticky {
                code: f.code(),
                name: f.name().into(),
            },
        })
    }
}

impl Drop for EmulatedDevice {
    fn drop(&mut self) {
        for map in [&self.segments, &self.scratch] {
            if let Ok(segs) = map.lock() {
                for (&addr, &len) in segs.iter() {
                    unmap(addr, len);
                }
            }
        }
    }
}

/// A fresh private anonymous mapping of `len` bytes (MAP_NORESERVE: pages are committed only
/// when a kernel touches them, as device memory a tensor never writes costs nothing).
#[cfg(unix)]
fn map_anonymous(len: usize) -> Option<u64> {
    // SAFETY: a fresh private anonymous mapping, owned by the caller.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    (p != libc::MAP_FAILED).then_some(p as u64)
}

/// Without mmap (Windows): zeroed, page-aligned memory from the allocator, committed at once.
#[cfg(not(unix))]
fn map_anonymous(len: usize) -> Option<u64> {
    let layout = std::alloc::Layout::from_size_align(len.max(1), 4096).ok()?;
    // SAFETY: the layout's size is not zero.
    let p = unsafe { std::alloc::alloc_zeroed(layout) };
    (!p.is_null()).then_some(p as u64)
}

#[cfg(not(unix))]
fn unmap(addr: u64, len: u64) {
    if let Ok(layout) = std::alloc::Layout::from_size_align((len as usize).max(1), 4096) {
        // SAFETY: (addr, len) came from map_anonymous with this layout and is freed once.
        unsafe { std::alloc::dealloc(addr as *mut u8, layout) }
    }
}

#[cfg(unix)]
fn unmap(addr: u64, len: u64) {
    // SAFETY: (addr, len) is a mapping this device made with mmap and has not unmapped.
    unsafe {
        libc::munmap(addr as *mut libc::c_void, len as usize);
    }
}

impl GpuDevice for EmulatedDevice {
    fn kind(&self) -> GpuKind {
        GpuKind::Emulated
    }

    fn name(&self) -> String {
        EMULATED_DEVICE_NAME.into()
    }

    fn arch(&self) -> String {
        "host".into()
    }

    fn launch(&self, entry: &str, cfg: LaunchConfig, args: &KernelArgs) -> Result<(), DeviceError> {
        self.check_alive()?;
        if let Some(f) = self.take_injected(entry) {
            self.poison(f.fault());
            return Ok(());
        }
        #[cfg(ct_emulated)]
        {
            self.timed(|| self.launch_built(entry, cfg, args))
        }
        #[cfg(not(ct_emulated))]
        {
            let _ = (entry, cfg, args);
            Err(DeviceError::Unavailable(NOT_BUILT.into()))
        }
    }

    fn mem_alloc(&self, bytes: u64) -> Result<DevicePtr, DeviceError> {
        let used = self.used();
        // Scratch takes the card's memory as on a real GPU (where cuMemGetInfo sees it), so
        // a segment that only fits once the engine's scratch pool is freed fails here too and
        // the same retry runs (gpu::DeviceSegments); `mem_info` leaves scratch out, as the
        // sim's counters do.
        if used
            .saturating_add(self.scratch_bytes())
            .saturating_add(bytes)
            > self.capacity
        {
            return Err(DeviceError::OutOfMemory { bytes });
        }
        if used.saturating_add(bytes) > self.host_limit {
            return Err(DeviceError::Unsupported(format!(
                "the emulated device keeps tensor values in host memory, and {bytes} more bytes \
                 would pass its limit of {} bytes (CUDATUTOR_HOST_MEM_LIMIT); use --backend sim \
                 for larger experiments",
                self.host_limit
            )));
        }
        let len = usize::try_from(bytes).map_err(|_| DeviceError::OutOfMemory { bytes })?;
        if len == 0 {
            return Err(DeviceError::Launch("a zero-byte segment".into()));
        }
        let addr = map_anonymous(len).ok_or(DeviceError::OutOfMemory { bytes })?;
        if let Ok(mut segs) = self.segments.lock() {
            segs.insert(addr, bytes);
        }
        Ok(DevicePtr(addr))
    }

    fn mem_free(&self, ptr: DevicePtr, _bytes: u64) {
        let removed = self.segments.lock().ok().and_then(|mut s| s.remove(&ptr.0));
        if let Some(len) = removed {
            unmap(ptr.0, len);
        }
    }

    fn mem_info(&self) -> (u64, u64) {
        let used = self.used();
        (self.capacity.saturating_sub(used), self.capacity)
    }

    fn scratch_alloc(&self, bytes: u64) -> Result<DevicePtr, DeviceError> {
        let scratch = self.scratch_bytes();
        if self.used().saturating_add(scratch).saturating_add(bytes) > self.host_limit {
            return Err(DeviceError::Unsupported(format!(
                "the emulated device keeps tensor values in host memory, and a temporary of \
                 {bytes} bytes would pass its limit of {} bytes (CUDATUTOR_HOST_MEM_LIMIT); use \
                 --backend sim for larger experiments",
                self.host_limit
            )));
        }
        let len = usize::try_from(bytes.max(1)).map_err(|_| DeviceError::OutOfMemory { bytes })?;
        let addr = map_anonymous(len).ok_or(DeviceError::OutOfMemory { bytes })?;
        if let Ok(mut s) = self.scratch.lock() {
            s.insert(addr, len as u64);
        }
        Ok(DevicePtr(addr))
    }

    fn scratch_free(&self, ptr: DevicePtr, _bytes: u64) {
        let removed = self.scratch.lock().ok().and_then(|mut s| s.remove(&ptr.0));
        if let Some(len) = removed {
            unmap(ptr.0, len);
        }
    }

    fn copy_h2d(&self, dst: DevicePtr, src: &[u8], _non_blocking: bool) -> Result<(), DeviceError> {
        self.check_alive()?;
        self.check_range(dst, src.len() as u64)?;
        // SAFETY: dst..dst+len lies inside a live mapping of this device (checked above) and
        // cannot overlap `src`, a Rust slice outside every device mapping.
        self.timed(|| unsafe {
            std::ptr::copy_nonoverlapping(src.as_ptr(), dst.0 as *mut u8, src.len())
        });
        Ok(())
    }

    fn copy_d2h(&self, dst: &mut [u8], src: DevicePtr) -> Result<(), DeviceError> {
        self.check_alive()?;
        self.check_range(src, dst.len() as u64)?;
        // SAFETY: as in copy_h2d.
        self.timed(|| unsafe {
            std::ptr::copy_nonoverlapping(src.0 as *const u8, dst.as_mut_ptr(), dst.len())
        });
        Ok(())
    }

    fn copy_d2d(&self, dst: DevicePtr, src: DevicePtr, bytes: u64) -> Result<(), DeviceError> {
        self.check_alive()?;
        self.check_range(src, bytes)?;
        self.check_range(dst, bytes)?;
        // SAFETY: both ranges lie in live mappings; `copy` allows overlap (cuMemcpyDtoD does).
        self.timed(|| unsafe {
            std::ptr::copy(src.0 as *const u8, dst.0 as *mut u8, bytes as usize)
        });
        Ok(())
    }

    fn synchronize(&self) -> Result<(), DeviceError> {
        self.check_alive()
    }

    fn take_device_log(&self) -> Vec<String> {
        self.log
            .lock()
            .map(|mut l| std::mem::take(&mut *l))
            .unwrap_or_default()
    }

    fn poisoned(&self) -> bool {
        self.poisoned.load(Ordering::SeqCst)
    }

    fn sticky_fault(&self) -> Option<CudaFault> {
        *self.fault.lock().ok()?
    }

    fn last_span(&self) -> Option<MeasuredSpan> {
        self.spans.lock().ok()?.last().copied()
    }

    fn spans_recorded(&self) -> usize {
        self.spans.lock().map(|s| s.len()).unwrap_or(0)
    }

    fn measured_spans(&self) -> Vec<MeasuredSpan> {
        self.spans.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

#[cfg(ct_emulated)]
impl EmulatedDevice {
    fn launch_built(
        &self,
        entry: &str,
        cfg: LaunchConfig,
        args: &KernelArgs,
    ) -> Result<(), DeviceError> {
        use std::ffi::{c_char, c_void};
        let e = lookup(entry)
            .ok_or_else(|| DeviceError::Launch(format!("no kernel named {entry} in this build")))?;
        if args.sizes() != e.param_sizes() {
            return Err(DeviceError::Launch(format!(
                "{entry}: the arguments have sizes {:?} but the kernel's parameters {:?}",
                args.sizes(),
                e.param_sizes()
            )));
        }
        unsafe extern "C" fn collect(ctx: *mut c_void, line: *const c_char, len: usize) {
            // SAFETY: ctx is the &mut Vec<String> passed below, alive for the whole launch;
            // (line, len) is a valid buffer from emu.cpp.
            unsafe {
                let lines = &mut *(ctx as *mut Vec<String>);
                let bytes = std::slice::from_raw_parts(line as *const u8, len);
                lines.push(String::from_utf8_lossy(bytes).into_owned());
            }
        }
        let mut ptrs = args.pointers();
        let mut lines: Vec<String> = Vec::new();
        let mut err = [0 as c_char; 512];
        // SAFETY: the entry comes from the generated table; `ptrs` has as many pointers as the
        // kernel has parameters, each at a value of the parameter's size (checked above); the
        // device pointers inside are the caller's responsibility, as with cuLaunchKernel.
        let rc = unsafe {
            ffi::ct_emu_launch(
                e.raw,
                i32::from(e.uses_barrier),
                cfg.grid.x,
                cfg.grid.y,
                cfg.grid.z,
                cfg.block.x,
                cfg.block.y,
                cfg.block.z,
                cfg.shared_mem_bytes as usize,
                ptrs.as_mut_ptr(),
                ptrs.len(),
                Some(collect),
                (&mut lines as *mut Vec<String>).cast(),
                err.as_mut_ptr(),
                err.len(),
            )
        };
        let message = || {
            // SAFETY: emu.cpp NUL-terminates within the buffer.
            unsafe { std::ffi::CStr::from_ptr(err.as_ptr()) }
                .to_string_lossy()
                .into_owned()
        };
        match rc {
            ffi::CT_EMU_OK => Ok(()),
            ffi::CT_EMU_ASSERT => {
                self.poison(CudaFault::Assert);
                if let Ok(mut log) = self.log.lock() {
                    log.extend(lines);
                }
                // Like cuLaunchKernel, the launch itself succeeded; the error is the context's.
                Ok(())
            }
            ffi::CT_EMU_INVALID_CONFIG | ffi::CT_EMU_INVALID_ARGS => {
                Err(DeviceError::Launch(format!("{entry}{cfg}: {}", message())))
            }
            _ => Err(DeviceError::Launch(format!("{entry}: {}", message()))),
        }
    }
}
