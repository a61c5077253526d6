//! The stream model's constants and cost functions: one table, used by the sim backend.
//! Every device time they produce is *modelled* (and labelled so wherever it is shown).

/// The modelled machine. Times in microseconds, rates in bytes or flops per microsecond.
#[derive(Debug, Clone, PartialEq)]
pub struct TimingModel {
    /// Host time PyTorch's eager dispatcher spends per op (Python binding, dispatch, checks).
    pub host_dispatch_us: f64,
    /// Host time of a cheap runtime query (memory_allocated, device_count, ...).
    pub host_query_us: f64,
    /// From the host enqueueing a kernel to the device being able to start it.
    pub launch_latency_us: f64,
    /// Shortest kernel.
    pub min_kernel_us: f64,
    /// Device memory bandwidth (H200-like 4.3 TB/s = 4.3e6 bytes/µs).
    pub device_bytes_per_us: f64,
    /// Device fp32 throughput (60 TFLOP/s = 6e7 flop/µs).
    pub device_flops_per_us: f64,
    /// PCIe host<->device copy from pinned memory (25 GB/s).
    pub pcie_pinned_bytes_per_us: f64,
    /// PCIe copy from pageable memory (12 GB/s; the host blocks while it runs).
    pub pcie_pageable_bytes_per_us: f64,
    /// A device-side assert: time from the failing kernel's end until the context is marked
    /// failed. Zero: on an H200 (PyTorch 2.11, tests/cuda/assert_deferred.py) the first launch
    /// of a new kernel one op after the failing one (about 7 µs of host time) already saw it.
    pub assert_trap_us: f64,
    /// Host CPU math (reference implementation) bandwidth and throughput, for CPU tensors.
    pub cpu_bytes_per_us: f64,
    pub cpu_flops_per_us: f64,
    /// The host's cost of a synchronising call on top of waiting (cudaStreamSynchronize).
    pub sync_us: f64,
    /// Host time of one interpreter step (statement, loop iteration or call) between ops.
    pub python_step_us: f64,
}

impl Default for TimingModel {
    fn default() -> Self {
        TimingModel {
            host_dispatch_us: 6.0,
            host_query_us: 1.0,
            launch_latency_us: 3.0,
            min_kernel_us: 2.0,
            device_bytes_per_us: 4.3e6,
            device_flops_per_us: 6.0e7,
            pcie_pinned_bytes_per_us: 25.0e3,
            pcie_pageable_bytes_per_us: 12.0e3,
            assert_trap_us: 0.0,
            cpu_bytes_per_us: 20.0e3,
            cpu_flops_per_us: 1.0e5,
            sync_us: 2.0,
            python_step_us: 0.2,
        }
    }
}

/// The work an op does: bytes read + written and floating-point operations.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Cost {
    pub bytes: u64,
    pub flops: u64,
}

impl Cost {
    pub(crate) fn new(bytes: u64, flops: u64) -> Self {
        Cost { bytes, flops }
    }
}

impl TimingModel {
    /// Modelled duration of a kernel on the device.
    pub(crate) fn kernel_us(&self, c: Cost) -> f64 {
        let mem = c.bytes as f64 / self.device_bytes_per_us;
        let comp = c.flops as f64 / self.device_flops_per_us;
        self.min_kernel_us.max(mem).max(comp)
    }
    /// Modelled duration of a PCIe copy.
    pub(crate) fn copy_us(&self, bytes: u64, pinned: bool) -> f64 {
        let bw = if pinned {
            self.pcie_pinned_bytes_per_us
        } else {
            self.pcie_pageable_bytes_per_us
        };
        self.min_kernel_us.max(bytes as f64 / bw)
    }
    /// Host time of a CPU op (dispatch + the math itself).
    pub(crate) fn cpu_op_us(&self, c: Cost) -> f64 {
        self.host_dispatch_us
            + (c.bytes as f64 / self.cpu_bytes_per_us).max(c.flops as f64 / self.cpu_flops_per_us)
    }
}
