//! The real-GPU backend: cudarc + NVRTC-compiled kernels from kernels/*.cu.
//!
//! What exists so far (see docs/cuda-backend.md):
//! - [`kernels`]: the CUDA C sources, embedded in the binary, and the entry points each one
//!   must define.
//! - [`nvrtc`]: finding NVRTC without panicking and compiling a source to PTX for an arch.
//! - [`cache`]: the on-disk PTX cache (source hash + arch + NVRTC version).
//! - [`probe`]: driver and device detection for `cudatutor doctor` and `--backend auto`.
//!
//! Launching kernels and the allocator on cuMemAlloc come later.

pub mod cache;
pub mod kernels;
pub mod nvrtc;
pub mod probe;
