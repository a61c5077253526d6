//! The real-GPU backend: cudarc + NVRTC-compiled kernels from kernels/*.cu.
