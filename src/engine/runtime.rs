//! The runtime: devices, their caching allocators and streams, the host clock, generators,
//! the sticky CUDA error, the event log and the device log. One per script run.

use super::allocator::{BlockId, CachingAllocator};
use super::device::Device;
use super::error::{EngineError, Result};
use super::event::{DeviceMemory, MemoryReport, OpKind, OpStatus, TimelineEntry};
use super::random::{CpuGenerator, CudaGenerator};
use super::timing::{Cost, TimingModel};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

mod measured;
mod memory_snapshot;
mod streams;
pub use streams::{BAD_FORK_MESSAGE, elapsed_ms};

/// One device's cuBLAS and cuBLASLt workspaces: each a block and its size in bytes.
type BlasWorkspaces = [Option<(CudaBlock, u64)>; 2];

/// How to build a runtime.
#[derive(Debug, Clone)]
pub struct RuntimeConfig {
    /// Number of (virtual) GPUs.
    pub gpus: u32,
    /// Capacity of each GPU in bytes.
    pub gpu_memory: u64,
    pub device_name: String,
    /// CUDA_LAUNCH_BLOCKING=1: every launch waits for its kernel.
    pub launch_blocking: bool,
    pub timing: TimingModel,
    /// Most events kept in the log (later ones are counted, not stored).
    pub max_events: usize,
    /// Bound on the host memory holding tensor values; None: the process default
    /// ([`super::hostmem::default_limit`], `CUDATUTOR_HOST_MEM_LIMIT`).
    pub host_mem_limit: Option<u64>,
    /// The run's cancel flag and deadline, polled inside busy kernels.
    pub interrupt: super::interrupt::Interrupt,
    /// Where CUDA tensors' values live and their kernels run.
    pub gpu_backend: GpuBackend,
}

/// Where a run's CUDA tensors live: host memory with the host's kernels (the sim), or a
/// [`super::cuda::gpu::GpuDevice`] running kernels/*.cu. The stream model, the timeline and
/// the allocator's rules are the same for all three.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GpuBackend {
    #[default]
    Sim,
    /// kernels/*.cu compiled for the CPU (`--backend emulated`).
    Emulated,
    /// A real NVIDIA GPU through the driver (`--backend cuda`).
    Cuda,
}

impl GpuBackend {
    pub fn name(self) -> &'static str {
        match self {
            GpuBackend::Sim => "sim",
            GpuBackend::Emulated => "emulated",
            GpuBackend::Cuda => "cuda",
        }
    }
}

impl Default for RuntimeConfig {
    fn default() -> Self {
        RuntimeConfig {
            gpus: 1,
            gpu_memory: SIM_GPU_MEMORY,
            device_name: SIM_DEVICE_NAME.to_string(),
            launch_blocking: false,
            timing: TimingModel::default(),
            max_events: 200_000,
            host_mem_limit: None,
            interrupt: super::interrupt::Interrupt::default(),
            gpu_backend: GpuBackend::Sim,
        }
    }
}

/// What PyTorch raises for a CUDA call on a machine without a GPU (the sim with `gpus: 0`).
pub const NO_DRIVER_MESSAGE: &str = "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx";

/// What PyTorch raises for a CUDA call when CUDA_VISIBLE_DEVICES leaves no GPU visible.
pub(crate) const NO_VISIBLE_GPU_MESSAGE: &str = "No CUDA GPUs are available";

/// How many of `physical` GPUs a CUDA_VISIBLE_DEVICES value leaves visible, by the CUDA
/// runtime's rule: the comma-separated entries are read in order and the list ends at the
/// first entry that is not a valid index (not a number, negative, past the last GPU, or
/// already listed), so `"1"` is one GPU, `"0,1"` two, `"1,5,0"` one, `""` and `"-1"` none.
/// UUIDs (`GPU-...`) name no simulated card, so they end the list too.
pub(crate) fn visible_count(spec: &str, physical: u32) -> u32 {
    let mut seen: Vec<u32> = Vec::new();
    for entry in spec.split(',') {
        match entry.trim().parse::<u32>() {
            Ok(i) if i < physical && !seen.contains(&i) => seen.push(i),
            _ => break,
        }
    }
    seen.len() as u32
}

/// What `torch.cuda.get_device_name()` says on the sim backend.
pub const SIM_DEVICE_NAME: &str = "Simulated H200 (modelled)";

/// The simulated card's memory by default: a real H200's, as PyTorch reports it
/// (`total_memory=143156MB` in `_CudaDeviceProperties`, i.e. 143,156 MiB, printed as "139.80
/// GiB" in the OOM messages recorded on an H200 in tests/fixtures/cuda/oom.json). The bytes
/// below the MiB are not known here, so the model takes exactly 143,156 MiB.
pub(crate) const SIM_GPU_MEMORY: u64 = 143_156 << 20;

/// One engine operation as the runtime records it: the timeline's entry itself.
pub type OpEvent = TimelineEntry;

/// A device-side assert (or another sticky kernel fault): where it was launched and when the
/// host learnt of it.
#[derive(Debug, Clone, PartialEq)]
pub struct CudaFailure {
    /// Which CUDA error the kernel left (an assert on the sim; the device's own on a GPU
    /// backend).
    pub fault: super::error::CudaFault,
    pub device: u32,
    /// Script line that launched the failing kernel.
    pub origin_line: u32,
    pub origin_op: String,
    /// Device time at which the context was marked failed.
    pub failed_at_us: f64,
    /// Line of the call that raised it, once raised.
    pub reported_line: Option<u32>,
    /// What the failing kernel's check found (the offending element and where its values came
    /// from), for `run --explain`.
    pub detail: Option<super::provenance::Detail>,
}

/// State shared with storages (so a freed tensor can record its `free` event).
pub(crate) struct Shared {
    pub line: Cell<u32>,
    pub host_us: Cell<f64>,
    pub events: RefCell<Vec<OpEvent>>,
    pub dropped_events: Cell<u64>,
    pub max_events: usize,
}

impl Shared {
    pub(crate) fn push(&self, e: OpEvent) {
        if let Ok(mut ev) = self.events.try_borrow_mut()
            && ev.len() < self.max_events
        {
            ev.push(e);
            return;
        }
        self.dropped_events.set(self.dropped_events.get() + 1);
    }
}

/// One GPU's allocator, shared by every storage allocated on it.
pub(crate) struct DeviceShared {
    pub index: u32,
    pub alloc: RefCell<CachingAllocator>,
}

/// An allocated CUDA block; returns itself to the allocator when the storage drops.
pub(crate) struct CudaBlock {
    pub dev: Rc<DeviceShared>,
    pub shared: Rc<Shared>,
    pub id: BlockId,
}

impl CudaBlock {
    /// The block's device address (a pointer into device memory on a GPU backend).
    pub(crate) fn addr(&self) -> u64 {
        self.dev
            .alloc
            .try_borrow()
            .map(|a| a.block_addr(self.id))
            .unwrap_or(0)
    }
}

impl Drop for CudaBlock {
    fn drop(&mut self) {
        let (allocated, reserved) = match self.dev.alloc.try_borrow_mut() {
            Ok(mut a) => {
                a.trace_line = self.shared.line.get();
                a.free(self.id);
                (a.allocated(), a.reserved())
            }
            Err(_) => return,
        };
        let t = self.shared.host_us.get();
        self.shared.push(OpEvent {
            line: self.shared.line.get(),
            op: "free".to_string(),
            kind: OpKind::Free,
            device: Some(self.dev.index),
            host_us: t,
            host_end_us: t,
            device_start_us: None,
            device_end_us: None,
            status: OpStatus::Ok,
            allocated,
            reserved,
        });
    }
}

#[derive(Debug, Clone, Default)]
struct Stream {
    /// Device time at which the last enqueued kernel ends.
    end_us: f64,
    /// The context is broken from this device time on.
    failed_at: Option<f64>,
    /// The host has been told (sticky from then on).
    reported: bool,
}

/// The engine's per-run state. Create with [`Runtime::new`]; ops are methods on it.
pub struct Runtime {
    pub(crate) cfg: RuntimeConfig,
    pub(crate) shared: Rc<Shared>,
    pub(crate) devices: Vec<Rc<DeviceShared>>,
    streams: RefCell<Vec<Stream>>,
    /// (device, kernel) pairs launched so far in this process: CUDA loads a kernel at its
    /// first launch, and only that load notices a failed context.
    loaded_kernels: RefCell<std::collections::HashSet<(u32, String)>>,
    failure: RefCell<Option<CudaFailure>>,
    /// The latest check an op failed, with its offending values (provenance.rs).
    detail: RefCell<Option<super::provenance::Detail>>,
    device_log: RefCell<Vec<String>>,
    /// Device-log lines already handed to the script's stderr ([`Runtime::take_printed_device_log`]).
    device_log_printed: Cell<usize>,
    current_device: Cell<u32>,
    /// Each device's cuBLAS and cuBLASLt workspaces, once a matrix product needed them.
    blas_workspaces: RefCell<Vec<BlasWorkspaces>>,
    launch_blocking: Cell<bool>,
    /// GPUs the script can see (CUDA_VISIBLE_DEVICES; all of them when unset).
    visible_gpus: Cell<u32>,
    cuda_used: Cell<bool>,
    py_steps: Cell<u64>,
    grad_enabled: Cell<bool>,
    /// `torch.inference_mode()`: tensors allocated meanwhile are inference tensors.
    inference_mode: Cell<bool>,
    /// Code runs in a DataLoader worker forked after CUDA had started in the parent: any CUDA
    /// call raises PyTorch's "Cannot re-initialize CUDA in forked subprocess" (streams.rs).
    in_bad_fork: Cell<bool>,
    pub(crate) cpu_gen: Rc<RefCell<CpuGenerator>>,
    pub(crate) cuda_gens: RefCell<Vec<CudaGenerator>>,
    /// Host bytes of tensor values (see hostmem.rs).
    pub(crate) host: Rc<super::hostmem::HostBudget>,
    /// The GPU backend's devices, one per CUDA index (empty on the sim).
    pub(crate) gpus: Vec<Rc<super::cuda::gpu_storage::GpuCtx>>,
    /// Why the GPU backend the config asked for could not be built (the run then stops at
    /// its first CUDA call with this message).
    gpu_error: Option<String>,
    /// Which measured spans of the GPU backend's devices each timeline entry made
    /// (measured.rs), and how many of each device's spans are tagged so far.
    span_tags: RefCell<Vec<measured::SpanTag>>,
    spans_seen: RefCell<Vec<usize>>,
}

/// Device-side assert lines a kernel prints when it runs.
pub(crate) type DeviceAssert = Vec<String>;

impl Runtime {
    pub fn new(mut cfg: RuntimeConfig) -> Rc<Runtime> {
        super::hostbuf::tune_malloc();
        let shared = Rc::new(Shared {
            line: Cell::new(0),
            host_us: Cell::new(0.0),
            events: RefCell::new(Vec::new()),
            dropped_events: Cell::new(0),
            max_events: cfg.max_events,
        });
        let host_limit = cfg
            .host_mem_limit
            .unwrap_or_else(super::hostmem::default_limit);
        let (gpus, gpu_error) = match open_gpus(&cfg, host_limit) {
            Ok(g) => (g, None),
            Err(e) => (Vec::new(), Some(e)),
        };
        // a real GPU is named by its driver (torch.cuda.get_device_name, the report)
        if let Some(id) = gpus.first().and_then(|g| g.device.identity()) {
            cfg.device_name = id.name;
        }
        let devices = (0..cfg.gpus)
            .map(|i| {
                let alloc = match gpus.get(i as usize) {
                    Some(ctx) => CachingAllocator::new(
                        i,
                        Box::new(super::cuda::gpu::DeviceSegments::for_ctx(ctx, None)),
                    ),
                    None => CachingAllocator::sim(i, cfg.gpu_memory),
                };
                Rc::new(DeviceShared {
                    index: i,
                    alloc: RefCell::new(alloc),
                })
            })
            .collect();
        Rc::new(Runtime {
            gpus,
            gpu_error,
            streams: RefCell::new(vec![Stream::default(); cfg.gpus as usize]),
            loaded_kernels: RefCell::new(Default::default()),
            blas_workspaces: RefCell::new((0..cfg.gpus).map(|_| [None, None]).collect()),
            cuda_gens: RefCell::new((0..cfg.gpus).map(|_| CudaGenerator::default()).collect()),
            cpu_gen: Rc::new(RefCell::new(CpuGenerator::default())),
            launch_blocking: Cell::new(cfg.launch_blocking),
            visible_gpus: Cell::new(cfg.gpus),
            host: super::hostmem::HostBudget::new(
                cfg.host_mem_limit
                    .unwrap_or_else(super::hostmem::default_limit),
            ),
            cfg,
            shared,
            devices,
            failure: RefCell::new(None),
            detail: RefCell::new(None),
            device_log: RefCell::new(Vec::new()),
            device_log_printed: Cell::new(0),
            current_device: Cell::new(0),
            cuda_used: Cell::new(false),
            py_steps: Cell::new(0),
            grad_enabled: Cell::new(true),
            inference_mode: Cell::new(false),
            in_bad_fork: Cell::new(false),
            span_tags: RefCell::new(Vec::new()),
            spans_seen: RefCell::new(Vec::new()),
        })
    }

    // ----- configuration and queries used by the bindings and the runner -----

    /// The script line the next ops belong to (1-based).
    pub fn set_line(&self, line: u32) {
        self.shared.line.set(line);
    }
    pub fn line(&self) -> u32 {
        self.shared.line.get()
    }
    /// Host bytes now holding tensor values, and the bound on them.
    pub fn host_memory(&self) -> (u64, u64) {
        (self.host.used(), self.host.limit)
    }
    /// `torch.cuda.device_count()`: the GPUs CUDA_VISIBLE_DEVICES leaves visible.
    pub fn device_count(&self) -> u32 {
        self.visible_gpus.get()
    }
    /// CUDA_VISIBLE_DEVICES as the script's environment holds it before CUDA starts (None:
    /// unset, every GPU visible). The simulated GPUs are identical, so renumbering them shows
    /// only in how many there are and which indices are valid.
    pub(crate) fn set_visible_devices(&self, spec: Option<&str>) {
        self.visible_gpus.set(match spec {
            None => self.cfg.gpus,
            Some(s) => visible_count(s, self.cfg.gpus),
        });
    }
    pub fn device_name(&self) -> &str {
        &self.cfg.device_name
    }
    /// Device `index` as `torch.cuda` describes it: the driver's answers on the cuda backend,
    /// the modelled H200 (with the configured capacity) on the sim and the emulated device.
    pub(crate) fn device_identity(&self, index: u32) -> super::cuda::gpu::DeviceIdentity {
        self.gpus
            .get(index as usize)
            .and_then(|g| g.device.identity())
            .unwrap_or_else(|| {
                super::cuda::gpu::DeviceIdentity::modelled_h200(
                    &self.cfg.device_name,
                    self.cfg.gpu_memory,
                )
            })
    }
    pub fn timing(&self) -> &TimingModel {
        &self.cfg.timing
    }
    pub fn launch_blocking(&self) -> bool {
        self.launch_blocking.get()
    }
    /// `os.environ['CUDA_LAUNCH_BLOCKING'] = '1'` before the first CUDA call, or the CLI flag.
    pub(crate) fn set_launch_blocking(&self, on: bool) {
        self.launch_blocking.set(on);
    }
    /// True once any CUDA work was issued (CUDA_LAUNCH_BLOCKING is read before that, as
    /// PyTorch reads it when CUDA initialises).
    pub(crate) fn cuda_initialized(&self) -> bool {
        self.cuda_used.get()
    }
    pub(crate) fn grad_enabled(&self) -> bool {
        self.grad_enabled.get()
    }
    /// `torch.no_grad()` / `torch.set_grad_enabled`.
    pub fn set_grad_enabled(&self, on: bool) {
        self.grad_enabled.set(on);
    }

    /// `f` run with grad mode `on`, the mode restored afterwards (also when `f` fails).
    pub(crate) fn with_grad_mode<R>(&self, on: bool, f: impl FnOnce() -> R) -> R {
        let was = self.grad_enabled();
        self.set_grad_enabled(on);
        let r = f();
        self.set_grad_enabled(was);
        r
    }
    /// `torch.is_inference_mode_enabled()`.
    pub(crate) fn inference_mode(&self) -> bool {
        self.inference_mode.get()
    }
    pub(crate) fn set_inference_mode(&self, on: bool) {
        self.inference_mode.set(on);
    }
    /// `torch.cuda.current_device()`.
    pub fn current_device(&self) -> u32 {
        self.current_device.get()
    }
    /// `torch.cuda.set_device(i)` (also the `torch.cuda.device(i)` context manager).
    pub fn set_device(&self, i: i64) -> Result<()> {
        self.check_device_index(i)?;
        self.current_device.set(i as u32);
        Ok(())
    }
    pub(crate) fn check_device_index(&self, i: i64) -> Result<u32> {
        if self.in_bad_fork.get() {
            return Err(EngineError::runtime(streams::BAD_FORK_MESSAGE));
        }
        if self.cfg.gpus == 0 {
            return Err(EngineError::runtime(NO_DRIVER_MESSAGE));
        }
        if self.visible_gpus.get() == 0 {
            // CUDA_VISIBLE_DEVICES hid every GPU: c10::cuda::device_count_ensure_non_zero
            return Err(EngineError::runtime(NO_VISIBLE_GPU_MESSAGE));
        }
        if i < 0 || i >= self.visible_gpus.get() as i64 {
            return Err(EngineError::new(
                super::error::ErrorKind::AcceleratorError,
                super::error::CUDA_INVALID_DEVICE_MESSAGE,
            ));
        }
        Ok(i as u32)
    }
    /// Host clock, µs since the run started.
    pub fn host_us(&self) -> f64 {
        self.shared.host_us.get()
    }
    /// The interpreter has executed `steps` steps in total: the new ones cost host time
    /// (`python_step_us` each) before the next op.
    pub(crate) fn interpreter_steps(&self, steps: u64) {
        let last = self.py_steps.replace(steps);
        if steps > last {
            self.advance_host((steps - last) as f64 * self.cfg.timing.python_step_us);
        }
    }
    /// Let time pass on the host (interpreter work between ops, `time.sleep`).
    pub(crate) fn advance_host(&self, us: f64) {
        self.shared.host_us.set(self.host_us() + us.max(0.0));
    }
    pub fn events(&self) -> Vec<OpEvent> {
        self.shared.events.borrow().clone()
    }
    /// The event log as RunReport timeline entries.
    pub fn timeline(&self) -> Vec<TimelineEntry> {
        self.events()
    }
    /// Lines the (simulated) device printed: kernel assertion messages.
    pub fn device_log(&self) -> Vec<String> {
        self.device_log.borrow().clone()
    }
    /// The device-log lines the script's stderr has not shown yet, once the host has been
    /// told of the failure (CUDA prints a kernel's assert lines at the synchronization that
    /// reports it, PyTorch's RuntimeError being raised there); with `all`, whatever is left
    /// (the run's end).
    pub(crate) fn take_printed_device_log(&self, all: bool) -> Vec<String> {
        let reported = self
            .failure
            .borrow()
            .as_ref()
            .is_some_and(|f| f.reported_line.is_some());
        if !(all || reported) {
            return Vec::new();
        }
        let log = self.device_log.borrow();
        let from = self.device_log_printed.get().min(log.len());
        self.device_log_printed.set(log.len());
        log[from..].to_vec()
    }
    /// The device-side assert of this run, if one happened.
    pub fn cuda_failure(&self) -> Option<CudaFailure> {
        self.failure.borrow().clone()
    }
    /// The latest check an op failed (an out-of-range value, tensors on two devices), with
    /// the line it ran on: see provenance.rs.
    pub(crate) fn last_detail(&self) -> Option<super::provenance::Detail> {
        self.detail.borrow().clone()
    }
    pub(crate) fn note_detail(&self, detail: super::provenance::Detail) {
        *self.detail.borrow_mut() = Some(detail);
    }
    pub fn memory_allocated(&self, dev: u32) -> u64 {
        self.devices[dev as usize].alloc.borrow().allocated()
    }
    pub fn memory_reserved(&self, dev: u32) -> u64 {
        self.devices[dev as usize].alloc.borrow().reserved()
    }
    pub fn max_memory_allocated(&self, dev: u32) -> u64 {
        self.devices[dev as usize].alloc.borrow().peak_allocated()
    }
    pub(crate) fn max_memory_reserved(&self, dev: u32) -> u64 {
        self.devices[dev as usize].alloc.borrow().peak_reserved()
    }
    pub fn reset_peak_memory_stats(&self, dev: u32) {
        self.devices[dev as usize].alloc.borrow_mut().reset_peak();
    }
    /// `torch.cuda.mem_get_info()`: (free, total).
    pub(crate) fn mem_get_info(&self, dev: u32) -> (u64, u64) {
        self.devices[dev as usize].alloc.borrow().mem_info()
    }
    /// The allocator statistics behind `torch.cuda.memory_stats()`.
    pub fn memory_stats(&self, dev: u32) -> super::allocator::MemoryStats {
        self.devices[dev as usize].alloc.borrow().stats().clone()
    }
    pub(crate) fn memory_summary(&self, dev: u32, abbreviated: bool) -> String {
        self.devices[dev as usize]
            .alloc
            .borrow()
            .summary(abbreviated)
    }
    /// `torch.cuda.empty_cache()` (does not synchronise, does not check errors).
    pub fn empty_cache(&self) {
        for d in &self.devices {
            let mut a = d.alloc.borrow_mut();
            a.trace_line = self.line();
            a.empty_cache();
        }
        self.host_event(
            "empty_cache",
            Some(self.current_device()),
            self.cfg.timing.host_query_us,
        );
    }
    /// Apply a per-process cap to every device's allocator.
    pub(crate) fn set_memory_cap(&self, bytes: Option<u64>) {
        for d in &self.devices {
            d.alloc.borrow_mut().allowed_max = bytes;
        }
    }
    /// Allocator counters of every device, for the RunReport.
    pub fn memory_report(&self) -> MemoryReport {
        let cur = self.current_device() as usize;
        let devices: Vec<DeviceMemory> = self
            .devices
            .iter()
            .map(|d| {
                let a = d.alloc.borrow();
                DeviceMemory {
                    index: d.index,
                    name: self.cfg.device_name.clone(),
                    allocated: a.allocated(),
                    reserved: a.reserved(),
                    peak_allocated: a.peak_allocated(),
                    capacity: a.mem_info().1,
                }
            })
            .collect();
        let (allocated, reserved, peak_allocated) = devices
            .get(cur)
            .map(|d| (d.allocated, d.reserved, d.peak_allocated))
            .unwrap_or_default();
        MemoryReport {
            allocated,
            reserved,
            peak_allocated,
            devices,
        }
    }
    /// `torch.manual_seed(s)`: every generator (CPU and each GPU).
    pub fn manual_seed(&self, seed: u64) {
        self.cpu_gen.borrow_mut().manual_seed(seed);
        for g in self.cuda_gens.borrow_mut().iter_mut() {
            g.manual_seed(seed);
        }
    }
    /// `torch.default_generator`: the CPU stream itself, shared.
    pub(crate) fn default_generator(&self) -> super::random::SharedGenerator {
        self.cpu_gen.clone()
    }
    /// `torch.cuda.initial_seed()`: the current GPU's seed.
    pub(crate) fn cuda_initial_seed(&self) -> u64 {
        let d = self.current_device() as usize;
        self.cuda_gens
            .borrow()
            .get(d)
            .map(|g| g.initial_seed())
            .unwrap_or(super::random::DEFAULT_SEED)
    }
    /// `torch.cuda.get_rng_state()`: the current GPU's generator state (seed and Philox
    /// offset, 16 bytes, as PyTorch's CUDA generator gives them).
    pub(crate) fn cuda_rng_state(&self) -> Vec<u8> {
        let d = self.current_device() as usize;
        self.cuda_gens
            .borrow()
            .get(d)
            .map(|g| g.get_state())
            .unwrap_or_default()
    }
    /// `torch.cuda.set_rng_state(state)`.
    pub(crate) fn set_cuda_rng_state(&self, bytes: &[u8]) -> std::result::Result<(), String> {
        let d = self.current_device() as usize;
        match self.cuda_gens.borrow_mut().get_mut(d) {
            Some(g) => g.set_state(bytes),
            None => Ok(()),
        }
    }
    /// `torch.cuda.manual_seed_all(s)`.
    pub(crate) fn cuda_manual_seed_all(&self, seed: u64) {
        for g in self.cuda_gens.borrow_mut().iter_mut() {
            g.manual_seed(seed);
        }
    }
    /// Check a CUDA device index exists (PyTorch's invalid device ordinal error otherwise).
    pub(crate) fn check_device(&self, i: i64) -> Result<u32> {
        self.check_device_index(i)
    }
    /// `torch.cuda.manual_seed(s)`: the current GPU's generator.
    pub(crate) fn cuda_manual_seed(&self, seed: u64) {
        let d = self.current_device() as usize;
        if let Some(g) = self.cuda_gens.borrow_mut().get_mut(d) {
            g.manual_seed(seed);
        }
    }

    // ----- allocation -----

    pub(crate) fn alloc_block(&self, dev: u32, nbytes: u64) -> Result<CudaBlock> {
        self.check_device_index(dev as i64)?;
        let d = &self.devices[dev as usize];
        let id = {
            let mut a = d.alloc.borrow_mut();
            a.trace_line = self.line();
            a.malloc(nbytes).map_err(|e| {
                e.other.unwrap_or_else(|| {
                    EngineError::new(super::error::ErrorKind::OutOfMemoryError, e.message)
                })
            })?
        };
        Ok(CudaBlock {
            dev: d.clone(),
            shared: self.shared.clone(),
            id,
        })
    }

    /// The workspace cuBLAS (`lt` false) or cuBLASLt (`lt` true) takes at a device's first
    /// matrix product of that kind: PyTorch allocates it through its caching allocator and
    /// keeps it, so memory_allocated() and memory_reserved() count it. Measured on an H200
    /// with PyTorch 2.11 (tests/cuda/matmul_workspace.py): 32 MiB at the first `a @ b` (the
    /// `:4096:8` default from sm_90, in a segment of its own), 1 MiB more at the first
    /// nn.Linear with a bias (cuBLASLt's). A CPU product takes none.
    pub(crate) fn cublas_workspace(&self, dev: Device, lt: bool) -> Result<()> {
        let Device::Cuda(d) = dev else {
            return Ok(());
        };
        let slot = usize::from(lt);
        if self
            .blas_workspaces
            .borrow()
            .get(d as usize)
            .is_none_or(|w| w[slot].is_some())
        {
            return Ok(());
        }
        let bytes = if lt {
            1 << 20
        } else {
            super::cuda::cublas::workspace_size(None, 9)
        };
        let block = self.alloc_block(d, bytes)?;
        if let Some(w) = self.blas_workspaces.borrow_mut().get_mut(d as usize) {
            w[slot] = Some((block, bytes));
        }
        Ok(())
    }

    /// Bytes device `dev` holds for cuBLAS workspaces (kept for the process's life, as
    /// PyTorch keeps them: they are not a leak).
    pub fn blas_workspace_bytes(&self, dev: u32) -> u64 {
        self.blas_workspaces
            .borrow()
            .get(dev as usize)
            .map(|w| w.iter().flatten().map(|(_, b)| *b).sum())
            .unwrap_or(0)
    }

    fn counters(&self, dev: Option<u32>) -> (u64, u64) {
        match dev {
            Some(d) => {
                let a = self.devices[d as usize].alloc.borrow();
                (a.allocated(), a.reserved())
            }
            None => (0, 0),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn record(
        &self,
        op: &str,
        kind: OpKind,
        device: Option<u32>,
        host_us: f64,
        dev_times: Option<(f64, f64)>,
        status: OpStatus,
    ) {
        let (allocated, reserved) = self.counters(device);
        if let Some(dev) = device
            && !self.gpus.is_empty()
        {
            let index = self.shared.events.try_borrow().map(|e| e.len());
            if let Ok(index) = index
                && index < self.shared.max_events
            {
                self.tag_measured_spans(index, dev);
            }
        }
        self.shared.push(OpEvent {
            line: self.line(),
            op: op.to_string(),
            kind,
            device,
            host_us,
            host_end_us: self.host_us(),
            device_start_us: dev_times.map(|t| t.0),
            device_end_us: dev_times.map(|t| t.1),
            status,
            allocated,
            reserved,
        });
    }

    // ----- the stream model -----

    /// A host-only op (CPU tensors, views, queries): costs `us` of host time.
    pub(crate) fn host_event(&self, op: &str, device: Option<u32>, us: f64) {
        let t0 = self.host_us();
        self.advance_host(us);
        self.record(op, OpKind::Host, device, t0, None, OpStatus::Ok);
    }

    /// A CPU op with a modelled cost.
    pub(crate) fn cpu_op(&self, op: &str, cost: Cost) {
        let us = self.cfg.timing.cpu_op_us(cost);
        self.host_event(op, None, us);
    }

    /// A host-side check failed inside `op`: record it and pass the error on.
    pub(crate) fn host_error(&self, op: &str, device: Option<u32>, e: EngineError) -> EngineError {
        let t0 = self.host_us();
        self.advance_host(self.cfg.timing.host_dispatch_us);
        self.record(op, OpKind::Host, device, t0, None, OpStatus::Error);
        e
    }

    /// Every CUDA API call starts here: a reported error is sticky, and a failure whose time
    /// has come is reported now.
    fn cuda_check(&self, op: &str, kind: OpKind, dev: u32) -> Result<()> {
        self.cuda_check_noticing(op, kind, dev, true, 0.0)
    }

    /// [`Runtime::cuda_check`] for a call that notices a new failure only when `notices`
    /// (a kernel launch whose kernel is already loaded does not: see [`Runtime::launch`]), at
    /// `after_us` past the call's start; an error the host was already told about is sticky
    /// for every call.
    fn cuda_check_noticing(
        &self,
        op: &str,
        kind: OpKind,
        dev: u32,
        notices: bool,
        after_us: f64,
    ) -> Result<()> {
        self.check_device_index(dev as i64)?;
        self.cuda_used.set(true);
        let now = self.host_us();
        let status = {
            let mut st = self.streams.borrow_mut();
            let s = &mut st[dev as usize];
            if s.reported {
                Some(OpStatus::Failed)
            } else if notices && s.failed_at.is_some_and(|f| f <= now + after_us) {
                s.reported = true;
                Some(OpStatus::Reported)
            } else {
                None
            }
        };
        match status {
            None => Ok(()),
            Some(status) => {
                self.advance_host(self.cfg.timing.host_query_us);
                self.record(op, kind, Some(dev), now, None, status);
                if status == OpStatus::Reported {
                    self.mark_reported();
                }
                Err(self.failure_error())
            }
        }
    }

    fn mark_reported(&self) {
        if let Some(f) = self.failure.borrow_mut().as_mut()
            && f.reported_line.is_none()
        {
            f.reported_line = Some(self.line());
        }
    }

    /// Wait on the host until `dev`'s stream is idle (or broken), then raise if broken.
    fn wait_idle(&self, op: &str, kind: OpKind, dev: u32, t0: f64) -> Result<()> {
        let (end, failed) = {
            let st = self.streams.borrow();
            let s = &st[dev as usize];
            (s.end_us, s.failed_at)
        };
        let mut t = self.host_us().max(end);
        if let Some(f) = failed {
            t = t.max(f);
        }
        self.shared.host_us.set(t);
        if failed.is_some() {
            self.streams.borrow_mut()[dev as usize].reported = true;
            self.record(op, kind, Some(dev), t0, None, OpStatus::Reported);
            self.mark_reported();
            return Err(self.failure_error());
        }
        Ok(())
    }

    /// The error every CUDA call raises once the context failed: the failing kernel's fault,
    /// as PyTorch words it.
    fn failure_error(&self) -> EngineError {
        let fault = self
            .failure
            .borrow()
            .as_ref()
            .map(|f| f.fault)
            .unwrap_or_default();
        EngineError::cuda_fault_for(fault, self.launch_blocking())
    }

    /// Enqueue work lasting `dur` on `dev`'s stream; its device (start, end), or None when
    /// the context is already broken (the work never runs).
    fn enqueue(&self, dev: u32, dur: f64) -> Option<(f64, f64)> {
        let ready = self.host_us() + self.cfg.timing.launch_latency_us;
        let mut st = self.streams.borrow_mut();
        let s = &mut st[dev as usize];
        if s.failed_at.is_some() {
            return None;
        }
        let start = ready.max(s.end_us);
        let end = start + dur;
        s.end_us = end;
        Some((start, end))
    }

    /// Launch a kernel on `dev`. `assert` holds the device-log lines when this kernel fails a
    /// device-side assert (empty: it succeeds).
    pub(crate) fn launch(
        &self,
        op: &str,
        dev: u32,
        cost: Cost,
        assert: DeviceAssert,
    ) -> Result<()> {
        // A launch notices a failed kernel only when it loads its own kernel first: CUDA loads
        // modules lazily (CUDA_MODULE_LOADING=LAZY, the default since CUDA 12), at the first
        // launch of each kernel in a process, and that load reports the context's sticky
        // error; a kernel already used launches without looking, and the error waits for a
        // synchronising call. Measured on an H200 with PyTorch 2.11 (scripts/gpu-trap-timing.py):
        // `y * 2` launched 0 to 160 µs after a failed nll_loss never raised once `y * 2` had run
        // before; in tests/cuda/assert_deferred.py the first `loss * 2` raised. The launch
        // check follows the host's dispatch (C10_CUDA_KERNEL_LAUNCH_CHECK after `<<<...>>>`).
        let first_use = self
            .loaded_kernels
            .borrow_mut()
            .insert((dev, op.to_string()));
        let check_after = self.cfg.timing.host_dispatch_us;
        self.cuda_check_noticing(op, OpKind::Kernel, dev, first_use, check_after)?;
        let assert = self.device_asserts(dev, assert);
        // A kernel that faulted without an assert line (an illegal or misaligned address, a
        // trap) fails the stream the same way, with its own CUDA error.
        let fault = if assert.is_empty() {
            self.device_fault(dev)
        } else {
            Some(super::error::CudaFault::Assert)
        };
        let t0 = self.host_us();
        self.advance_host(self.cfg.timing.host_dispatch_us);
        let asserts = fault.is_some();
        let mut dur = self.cfg.timing.kernel_us(cost);
        if asserts {
            dur += self.cfg.timing.assert_trap_us;
        }
        let times = self.enqueue(dev, dur);
        let mut status = OpStatus::Ok;
        if let Some(fault) = fault
            && let Some((_, end)) = times
        {
            status = OpStatus::Assert;
            self.streams.borrow_mut()[dev as usize].failed_at = Some(end);
            self.device_log.borrow_mut().extend(assert);
            // what the host's check found explains an assert, not an address fault
            let detail =
                self.detail.borrow().clone().filter(|d| {
                    fault == super::error::CudaFault::Assert && d.line() == self.line()
                });
            *self.failure.borrow_mut() = Some(CudaFailure {
                fault,
                device: dev,
                origin_line: self.line(),
                origin_op: op.to_string(),
                failed_at_us: end,
                reported_line: None,
                detail,
            });
        }
        self.record(op, OpKind::Kernel, Some(dev), t0, times, status);
        if self.launch_blocking() {
            let t1 = self.host_us();
            return self.wait_idle(op, OpKind::Sync, dev, t1);
        }
        Ok(())
    }

    /// On a GPU backend the kernels speak for themselves: the assert lines a kernel printed
    /// while this op ran replace the host's lines. On the emulated device (which runs each
    /// kernel to its end at the launch) an op whose asserting kernels ran without printing
    /// did not fail, whatever the host's checks said; on the cuda device the driver's lines
    /// reach the worker's capture instead, so the host's lines stand.
    fn device_asserts(&self, dev: u32, assert: DeviceAssert) -> DeviceAssert {
        let Some(ctx) = self.gpus.get(dev as usize) else {
            return assert;
        };
        let lines = ctx.device.take_device_log();
        let checked = ctx.take_checked_launches();
        if !lines.is_empty() {
            return lines;
        }
        if checked > 0 && ctx.device.kind() == super::cuda::gpu::GpuKind::Emulated {
            return Vec::new();
        }
        assert
    }

    /// A sticky fault other than an assert that `dev`'s GPU backend device reported while
    /// this op ran (None on the sim, and once the stream has already failed).
    fn device_fault(&self, dev: u32) -> Option<super::error::CudaFault> {
        let ctx = self.gpus.get(dev as usize)?;
        if self.streams.borrow()[dev as usize].failed_at.is_some() {
            return None;
        }
        ctx.device.sticky_fault()
    }

    /// The GPU backend CUDA tensors run on (`sim` when none was built).
    pub(crate) fn gpu_backend(&self) -> GpuBackend {
        if self.gpus.is_empty() {
            GpuBackend::Sim
        } else {
            self.cfg.gpu_backend
        }
    }

    /// Why the GPU backend the config asked for could not be opened.
    pub(crate) fn gpu_error(&self) -> Option<&str> {
        self.gpu_error.as_deref()
    }

    /// Whether a GPU backend's device context is poisoned (a device-side assert or another
    /// sticky error): nothing more can run in this process.
    pub(crate) fn gpu_poisoned(&self) -> bool {
        self.gpus.iter().any(|g| g.poisoned())
    }

    /// Kernel launches on the GPU backend's devices, and the ops that ran on the host
    /// instead (op, count), summed over the devices.
    pub(crate) fn gpu_usage(&self) -> (u64, Vec<(String, u64)>) {
        let mut launches = 0;
        let mut fallbacks: std::collections::BTreeMap<String, u64> = Default::default();
        for g in &self.gpus {
            let (l, f) = g.usage();
            launches += l;
            for (k, v) in f {
                *fallbacks.entry(k).or_insert(0) += v;
            }
        }
        (launches, fallbacks.into_iter().collect())
    }

    /// Device memory the GPU backend's contexts hold outside the caching allocator's
    /// segments (scratch), summed over the devices; zeros on the sim.
    pub(crate) fn gpu_scratch(&self) -> super::cuda::gpu_storage::ScratchFigures {
        let mut sum = super::cuda::gpu_storage::ScratchFigures::default();
        for g in &self.gpus {
            let f = g.scratch_figures();
            sum.live += f.live;
            sum.pooled += f.pooled;
            sum.peak += f.peak;
        }
        sum
    }

    /// A synchronising call (`torch.cuda.synchronize`, `bool`, `nonzero`, ...).
    pub(crate) fn sync(&self, op: &str, dev: u32) -> Result<()> {
        self.cuda_check(op, OpKind::Sync, dev)?;
        let t0 = self.host_us();
        self.advance_host(self.cfg.timing.sync_us);
        self.wait_idle(op, OpKind::Sync, dev, t0)?;
        self.record(op, OpKind::Sync, Some(dev), t0, None, OpStatus::Ok);
        Ok(())
    }

    /// A device-to-host copy of `bytes` (`.cpu()`, `.item()`, `.tolist()`, printing): stream
    /// ordered, and the host waits for it.
    pub(crate) fn d2h(&self, op: &str, dev: u32, bytes: u64, pinned: bool) -> Result<()> {
        self.cuda_check(op, OpKind::D2h, dev)?;
        let t0 = self.host_us();
        self.advance_host(self.cfg.timing.host_dispatch_us);
        let times = self.enqueue(dev, self.cfg.timing.copy_us(bytes, pinned));
        self.wait_idle(op, OpKind::D2h, dev, t0)?;
        self.record(op, OpKind::D2h, Some(dev), t0, times, OpStatus::Ok);
        Ok(())
    }

    /// A host-to-device copy. Blocking copies (non_blocking=False, or from pageable memory)
    /// return when the data has arrived and, like PyTorch's copy_, synchronise the stream.
    pub(crate) fn h2d(
        &self,
        op: &str,
        dev: u32,
        bytes: u64,
        pinned: bool,
        non_blocking: bool,
    ) -> Result<()> {
        self.cuda_check(op, OpKind::H2d, dev)?;
        let t0 = self.host_us();
        self.advance_host(self.cfg.timing.host_dispatch_us);
        let times = self.enqueue(dev, self.cfg.timing.copy_us(bytes, pinned));
        if non_blocking && pinned {
            self.record(op, OpKind::H2d, Some(dev), t0, times, OpStatus::Ok);
            return Ok(());
        }
        if non_blocking {
            // Pageable source: the host stages the copy, but the stream is not synchronised.
            if let Some((_, end)) = times {
                self.shared.host_us.set(self.host_us().max(end));
            }
        } else {
            self.wait_idle(op, OpKind::H2d, dev, t0)?;
        }
        self.record(op, OpKind::H2d, Some(dev), t0, times, OpStatus::Ok);
        Ok(())
    }

    /// A device-to-device copy (`.to('cuda:1')`): waits for the source's work, runs on the
    /// destination's stream.
    pub(crate) fn d2d(&self, op: &str, src: u32, dst: u32, bytes: u64) -> Result<()> {
        self.cuda_check(op, OpKind::D2d, src)?;
        self.cuda_check(op, OpKind::D2d, dst)?;
        let t0 = self.host_us();
        self.advance_host(self.cfg.timing.host_dispatch_us);
        let src_end = self.streams.borrow()[src as usize].end_us;
        {
            let mut st = self.streams.borrow_mut();
            let s = &mut st[dst as usize];
            s.end_us = s.end_us.max(src_end);
        }
        let dur = self.cfg.timing.kernel_us(Cost::new(2 * bytes, 0));
        let times = self.enqueue(dst, dur);
        self.record(op, OpKind::D2d, Some(dst), t0, times, OpStatus::Ok);
        if self.launch_blocking() {
            let t1 = self.host_us();
            return self.wait_idle(op, OpKind::Sync, dst, t1);
        }
        Ok(())
    }

    /// `torch.cuda.synchronize(device)`.
    pub fn synchronize(&self, dev: Option<u32>) -> Result<()> {
        let d = dev.unwrap_or(self.current_device());
        self.sync("synchronize", d)
    }

    /// Resolve a tensor device request (`'cuda'` → the current device) and check it exists.
    pub fn resolve_device(&self, spec: &super::device::DeviceSpec) -> Result<Device> {
        use super::device::DeviceType;
        match spec.kind {
            DeviceType::Cpu => Ok(Device::Cpu),
            DeviceType::Meta => Ok(Device::Meta),
            DeviceType::Cuda => {
                let i = spec
                    .index
                    .map(|i| i as i64)
                    .unwrap_or(self.current_device() as i64);
                Ok(Device::Cuda(self.check_device_index(i)?))
            }
            DeviceType::Other(n) => Err(EngineError::runtime(format!(
                "cudatutor does not support device type '{n}' (only cpu, cuda and meta)"
            ))),
        }
    }
}

/// The devices of a GPU backend, one per CUDA index (empty for the sim); `Err` says why they
/// cannot be opened.
fn open_gpus(
    cfg: &RuntimeConfig,
    host_limit: u64,
) -> std::result::Result<Vec<Rc<super::cuda::gpu_storage::GpuCtx>>, String> {
    use super::cuda::gpu::GpuDevice;
    use super::cuda::gpu_storage::GpuCtx;
    let mut out = Vec::new();
    match cfg.gpu_backend {
        GpuBackend::Sim => {}
        GpuBackend::Emulated => {
            for i in 0..cfg.gpus {
                // Segments are mapped without reserving memory: only the pages a kernel
                // writes cost host memory, and which tensors keep values is the host budget's
                // decision, as on the sim.
                let dev = super::cuda::emulated::EmulatedDevice::new(
                    cfg.gpu_memory,
                    cfg.gpu_memory.saturating_add(host_limit),
                )
                .map_err(|e| e.to_string())?;
                let dev: Rc<dyn GpuDevice> = Rc::new(dev);
                out.push(GpuCtx::new(dev, i));
            }
        }
        GpuBackend::Cuda => {
            let nvrtc = super::cuda::nvrtc::locate().map_err(|e| e.to_string())?;
            let dir = std::env::var_os("CUDATUTOR_CACHE_DIR")
                .filter(|d| !d.is_empty())
                .map(std::path::PathBuf::from)
                .or_else(|| {
                    directories::ProjectDirs::from("", "", "cudatutor")
                        .map(|d| d.cache_dir().join("ptx"))
                })
                .unwrap_or_else(|| std::env::temp_dir().join("cudatutor-ptx"));
            for i in 0..cfg.gpus {
                let dev = super::cuda::real::CudaDevice::open(
                    i as i32,
                    nvrtc.clone(),
                    super::cuda::cache::PtxCache::new(dir.clone()),
                    cfg.launch_blocking,
                )
                .map_err(|e| e.to_string())?;
                let dev: Rc<dyn GpuDevice> = Rc::new(dev);
                out.push(GpuCtx::new(dev, i));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::visible_count;

    /// Without a driver's device (the sim), torch.cuda describes the modelled H200: its name,
    /// capability 9.0, 132 SMs and the configured capacity, not fixed numbers.
    #[test]
    fn the_sim_describes_itself_as_the_modelled_h200_with_its_configured_memory() {
        let rt = super::Runtime::new(super::RuntimeConfig {
            gpu_memory: 24 << 30,
            ..super::RuntimeConfig::default()
        });
        let id = rt.device_identity(0);
        assert_eq!(id.name, super::SIM_DEVICE_NAME);
        assert_eq!(id.capability, (9, 0));
        assert_eq!(id.sm_count, 132);
        assert_eq!(id.total_memory, 24 << 30);
    }

    #[test]
    fn cuda_visible_devices_is_read_as_the_cuda_runtime_reads_it() {
        assert_eq!(visible_count("1", 2), 1);
        assert_eq!(visible_count("1,0", 2), 2);
        assert_eq!(visible_count(" 0 , 1 ", 2), 2);
        // the list ends at the first invalid entry
        assert_eq!(visible_count("1,5,0", 2), 1);
        assert_eq!(visible_count("0,0,1", 2), 1);
        assert_eq!(visible_count("GPU-8a1b,0", 2), 0);
        assert_eq!(visible_count("", 2), 0);
        assert_eq!(visible_count("-1", 2), 0);
        assert_eq!(visible_count("2", 2), 0);
    }
}
