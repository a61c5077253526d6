//! The tensor engine: tensors and their reference CPU math, the caching allocator, the
//! stream/timing model, and the backends (simulated GPU and real CUDA).

pub mod allocator;
pub mod cuda;
pub mod tensor;
pub mod timing;
