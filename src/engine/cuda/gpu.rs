//! [`GpuDevice`]: what the emulated device and the real cuda device both provide to the layer
//! above (the kernel calls in [`super::ops`], the caching allocator, the engine's device trait):
//! launching an entry point of kernels/*.cu with a [`LaunchConfig`] and a [`KernelArgs`] array,
//! raw device memory for the allocator's segments, copies, synchronisation, the device log, and
//! the sticky poisoned state.

use super::launch::{DeviceError, DevicePtr, KernelArgs, LaunchConfig};
use crate::engine::allocator::SegmentSource;
use std::rc::Rc;

/// Which kind of device runs the kernels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GpuKind {
    /// kernels/*.cu compiled for the CPU (build.rs), run by kernels/emu/emu.cpp.
    Emulated,
    /// A real NVIDIA GPU through the CUDA driver (cudarc).
    Cuda,
}

impl GpuKind {
    pub fn name(self) -> &'static str {
        match self {
            GpuKind::Emulated => "emulated",
            GpuKind::Cuda => "cuda",
        }
    }
}

/// Device times of one launch or copy measured with CUDA events, in µs from the device's
/// first event.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeasuredSpan {
    pub start_us: f64,
    pub end_us: f64,
}

/// What `torch.cuda.get_device_name` / `get_device_capability` / `get_device_properties`
/// report for a device: on the cuda device, the driver's answers (cuDeviceGetName,
/// cuDeviceTotalMem, the compute-capability and multiprocessor-count attributes); the sim
/// and the emulated device report the modelled H200 instead ([`DeviceIdentity::modelled_h200`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceIdentity {
    pub name: String,
    pub capability: (i32, i32),
    pub total_memory: u64,
    pub sm_count: u32,
}

impl DeviceIdentity {
    /// The simulated GPU: an H200 (capability 9.0, 132 SMs) named as modelled, with
    /// `total_memory` the sim's configured capacity.
    pub(crate) fn modelled_h200(name: &str, total_memory: u64) -> DeviceIdentity {
        DeviceIdentity {
            name: name.to_string(),
            capability: (9, 0),
            total_memory,
            sm_count: crate::engine::random::cuda::DeviceShape::H200.sm_count,
        }
    }
}

/// One device that runs kernels/*.cu.
///
/// Errors follow CUDA: a kernel's device-side assert poisons the context, and from then on
/// every call returns [`DeviceError::Assert`]; on the cuda device that happens when the driver
/// reports it (asynchronously), on the emulated device right after the launch.
pub trait GpuDevice {
    fn kind(&self) -> GpuKind;
    /// What `torch.cuda.get_device_name()` shows.
    fn name(&self) -> String;
    /// `sm_90` for a real device; the emulated device says `host`.
    fn arch(&self) -> String;
    /// The device as its driver describes it (None: a device with no driver of its own, the
    /// emulated one, whose runs report the sim's modelled H200).
    fn identity(&self) -> Option<DeviceIdentity> {
        None
    }

    /// Launches `entry` (an `extern "C"` kernel of kernels/*.cu) on the device's stream.
    fn launch(&self, entry: &str, cfg: LaunchConfig, args: &KernelArgs) -> Result<(), DeviceError>;

    /// Raw device memory for one allocator segment (cuMemAlloc).
    fn mem_alloc(&self, bytes: u64) -> Result<DevicePtr, DeviceError>;
    /// Returns a segment from [`GpuDevice::mem_alloc`] (cuMemFree).
    fn mem_free(&self, ptr: DevicePtr, bytes: u64);
    /// `(free, total)` bytes, as cudaMemGetInfo.
    fn mem_info(&self) -> (u64, u64);
    /// Device memory for an op's temporaries that PyTorch's caching allocator would not show
    /// in the counters the sim models (casts of operands, intermediate results of composite
    /// ops, staging of host values): by default an ordinary allocation; the emulated device
    /// keeps it out of [`GpuDevice::mem_info`], so `torch.cuda.mem_get_info()` reads as the
    /// sim's.
    fn scratch_alloc(&self, bytes: u64) -> Result<DevicePtr, DeviceError> {
        self.mem_alloc(bytes)
    }
    /// Returns memory from [`GpuDevice::scratch_alloc`].
    fn scratch_free(&self, ptr: DevicePtr, bytes: u64) {
        self.mem_free(ptr, bytes)
    }
    /// Multiprocessor count (some of PyTorch's grids depend on it, and so which thread
    /// reports an assert): the emulated device reports the sim's H200, 132.
    fn sm_count(&self) -> u32 {
        crate::engine::random::cuda::DeviceShape::H200.sm_count
    }

    /// Host to device. With `non_blocking` from pinned memory the call may return before the
    /// copy ends (stream ordered); otherwise it returns when `src` may be reused.
    fn copy_h2d(&self, dst: DevicePtr, src: &[u8], non_blocking: bool) -> Result<(), DeviceError>;
    /// Device to host; waits for the stream's earlier work and the copy.
    fn copy_d2h(&self, dst: &mut [u8], src: DevicePtr) -> Result<(), DeviceError>;
    /// Device to device, stream ordered.
    fn copy_d2d(&self, dst: DevicePtr, src: DevicePtr, bytes: u64) -> Result<(), DeviceError>;
    /// Waits for all work on the device's stream; reports a pending error.
    fn synchronize(&self) -> Result<(), DeviceError>;

    /// The assert lines kernels printed since the last call (the device's stderr).
    fn take_device_log(&self) -> Vec<String>;
    /// True once a sticky error poisoned the context.
    fn poisoned(&self) -> bool;
    /// The CUDA error that poisoned the context, once one did (None: not poisoned, or an
    /// error PyTorch has no words of its own for).
    fn sticky_fault(&self) -> Option<crate::engine::error::CudaFault> {
        None
    }
    /// Device time of the last launch or copy, when the device measures it (CUDA events).
    fn last_span(&self) -> Option<MeasuredSpan> {
        None
    }
    /// How many launches and copies the device has timed so far (finished or not): the
    /// runtime tags each op of the timeline with the spans recorded while it ran.
    fn spans_recorded(&self) -> usize {
        0
    }
    /// The device times of every launch and copy timed so far, in the order they were
    /// recorded (waits for the work to finish). A span that could not be measured (its
    /// events failed on a poisoned context) is NaN, so the indices still match.
    fn measured_spans(&self) -> Vec<MeasuredSpan> {
        Vec::new()
    }
}

/// The caching allocator's segment source on a [`GpuDevice`]: segments are real device memory
/// (cuMemAlloc/cuMemFree, or host pages on the emulated device), so a block's address is a
/// pointer kernels can use, and the counters are the same as the sim's for the same script.
pub struct DeviceSegments {
    device: Rc<dyn GpuDevice>,
    /// Per-process cap below the device's own capacity (`--gpu-mem-limit`), as PyTorch's
    /// per-process memory fraction: segments beyond it are refused like a full device.
    limit: Option<u64>,
    reserved: u64,
    /// Why the last segment was refused, when not for lack of memory.
    failure: Option<crate::engine::error::EngineError>,
    /// The engine's context on this device, whose pooled scratch is given back when the card
    /// is full (scratch takes card memory as segments do).
    scratch: Option<Rc<super::gpu_storage::GpuCtx>>,
    /// Segments not yet freed (address -> bytes): freed when the run's allocator goes, since
    /// the device's context may outlive the run (a warm worker keeps it for the next run).
    live: std::collections::BTreeMap<u64, u64>,
}

impl Drop for DeviceSegments {
    fn drop(&mut self) {
        for (addr, size) in std::mem::take(&mut self.live) {
            self.device.mem_free(DevicePtr(addr), size);
        }
    }
}

impl DeviceSegments {
    pub fn new(device: Rc<dyn GpuDevice>, limit: Option<u64>) -> DeviceSegments {
        DeviceSegments {
            device,
            limit,
            reserved: 0,
            failure: None,
            scratch: None,
            live: std::collections::BTreeMap::new(),
        }
    }

    /// The segments of `ctx`'s device: a segment that does not fit while `ctx` pools freed
    /// scratch is tried once more after the pool is freed (PyTorch's process holds no such
    /// pool, so its allocation would have found that memory free).
    pub(crate) fn for_ctx(
        ctx: &Rc<super::gpu_storage::GpuCtx>,
        limit: Option<u64>,
    ) -> DeviceSegments {
        let mut segments = DeviceSegments::new(ctx.device.clone(), limit);
        segments.scratch = Some(ctx.clone());
        segments
    }
}

impl SegmentSource for DeviceSegments {
    fn malloc(&mut self, size: u64) -> Option<u64> {
        if let Some(limit) = self.limit
            && self.reserved.saturating_add(size) > limit
        {
            return None;
        }
        let mut got = self.device.mem_alloc(size);
        if matches!(got, Err(DeviceError::OutOfMemory { .. }))
            && self
                .scratch
                .as_ref()
                .is_some_and(|c| c.release_scratch_pool())
        {
            got = self.device.mem_alloc(size);
        }
        let p = match got {
            Ok(p) => p,
            Err(DeviceError::OutOfMemory { .. }) => return None,
            Err(e) => {
                self.failure = Some(segment_error(e));
                return None;
            }
        };
        self.failure = None;
        self.reserved += size;
        self.live.insert(p.0, size);
        Some(p.0)
    }

    fn take_failure(&mut self) -> Option<crate::engine::error::EngineError> {
        self.failure.take()
    }

    fn free(&mut self, addr: u64, size: u64) {
        self.live.remove(&addr);
        self.device.mem_free(DevicePtr(addr), size);
        self.reserved = self.reserved.saturating_sub(size);
    }

    fn mem_info(&self) -> (u64, u64) {
        self.device.mem_info()
    }
}

/// The error a segment refused for another reason than a full device raises: the CUDA error
/// as PyTorch's C10_CUDA_CHECK would (a sticky one with its full text), or the emulated
/// device's own limit in its words.
fn segment_error(e: DeviceError) -> crate::engine::error::EngineError {
    use crate::engine::error::{CudaFault, EngineError, ErrorKind};
    match e {
        DeviceError::Assert => EngineError::device_assert_for(false),
        DeviceError::Sticky { code, name } => match CudaFault::from_code(code) {
            Some(f) => EngineError::cuda_fault_for(f, false),
            None => EngineError::new(ErrorKind::AcceleratorError, format!("CUDA error: {name}")),
        },
        DeviceError::Driver { name, .. } => {
            EngineError::new(ErrorKind::AcceleratorError, format!("CUDA error: {name}"))
        }
        DeviceError::Unsupported(why)
        | DeviceError::Unavailable(why)
        | DeviceError::Launch(why) => EngineError::runtime(why),
        DeviceError::OutOfMemory { bytes } => {
            EngineError::runtime(format!("out of memory allocating {bytes} bytes"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{DeviceSegments, GpuDevice};
    use crate::engine::allocator::SegmentSource;
    use crate::engine::backend::BackendDevice;
    use crate::engine::cuda::emulated::EmulatedDevice;
    use crate::engine::cuda::gpu_storage::{GpuCtx, GpuHandle};
    use crate::engine::dtype::DType;
    use std::rc::Rc;

    /// A 64 MiB emulated card, or None where the emulated kernels are not built (the test
    /// then has nothing to run on).
    fn emulated_64_mib_card() -> Option<Rc<dyn GpuDevice>> {
        if !crate::engine::cuda::emulated::built() {
            return None;
        }
        Some(Rc::new(
            EmulatedDevice::new(64 << 20, 1 << 30).expect("an emulated device"),
        ))
    }

    /// Freed scratch kept in the pool takes card memory: a segment that only fits without it
    /// is granted after the pool is freed, and the figures say what scratch held.
    #[test]
    fn a_segment_that_fits_once_the_scratch_pool_is_freed_is_granted() {
        let Some(dev) = emulated_64_mib_card() else {
            return;
        };
        let ctx = GpuCtx::new(dev, 0);
        let values = GpuHandle(ctx.clone())
            .zeros(4 << 20, DType::Float32)
            .expect("16 MiB of zeros in scratch");
        assert_eq!(ctx.scratch_figures().live, 16 << 20);
        drop(values);
        assert_eq!(ctx.scratch_figures().pooled, 16 << 20);
        assert_eq!(ctx.scratch_figures().live, 0);

        let mut without_pool = DeviceSegments::new(ctx.device.clone(), None);
        assert_eq!(
            without_pool.malloc(56 << 20),
            None,
            "the pooled scratch holds 16 of the card's 64 MiB"
        );
        let mut segments = DeviceSegments::for_ctx(&ctx, None);
        let seg = segments.malloc(56 << 20);
        assert!(seg.is_some(), "the pool was freed for the segment");
        let figures = ctx.scratch_figures();
        assert_eq!((figures.live, figures.pooled), (0, 0));
        assert_eq!(figures.peak, 16 << 20);
        if let Some(addr) = seg {
            segments.free(addr, 56 << 20);
        }
    }

    /// The segments a run's allocator still held when it went are freed with it: a device
    /// kept open for the next run (the warm worker) starts that run with the card as empty
    /// as a fresh process's.
    #[test]
    fn segments_still_held_when_the_allocator_goes_are_freed() {
        let Some(dev) = emulated_64_mib_card() else {
            return;
        };
        let mut segments = DeviceSegments::new(dev.clone(), None);
        let a = segments.malloc(2 << 20).expect("a small segment");
        let _b = segments.malloc(20 << 20).expect("a large segment");
        segments.free(a, 2 << 20);
        assert_eq!(dev.mem_info(), ((64 - 20) << 20, 64 << 20));
        drop(segments);
        assert_eq!(dev.mem_info(), (64 << 20, 64 << 20), "every segment freed");
    }
}
