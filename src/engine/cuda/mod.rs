//! The GPU backends' lower layers: the kernels of kernels/*.cu, the devices that run them,
//! and what the engine's device trait calls.
//!
//! - [`kernels`]: the CUDA C sources, embedded in the binary, and the entry points each defines.
//! - [`launch`]: one launch (grid, block, shared memory, the `void**` argument array) and the
//!   `#[repr(C)]` structs kernels take by value; [`launch::DeviceError`].
//! - [`gpu`]: the [`gpu::GpuDevice`] trait both devices implement, and the caching allocator's
//!   segment source on a device.
//! - [`emulated`]: kernels/*.cu compiled for the CPU (build.rs) and run by kernels/emu/emu.cpp.
//! - [`nvrtc`]: finding NVRTC without panicking; compiling to PTX and CUBIN.
//! - [`cache`]: the on-disk kernel cache (source hash + arch + NVRTC version).
//! - [`probe`]: driver and device detection for `cudatutor doctor` and `--backend auto`.
//!
//! See docs/cuda-backend.md.

pub mod cache;
pub mod capture;
pub(crate) mod cublas;
pub mod emulated;
pub mod gpu;
pub(crate) mod gpu_storage;
pub mod kernels;
pub mod launch;
pub mod nvrtc;
pub mod ops;
pub mod probe;
pub mod real;
pub mod selftest;
