//! The tensor engine: tensors and their reference CPU math, the caching allocator, the
//! stream/timing model, and the backends (simulated GPU and real CUDA).
//!
//! Entry point: [`Runtime::new`] builds one run's state; every op is a method on it and
//! records an [`OpEvent`] (convertible into the RunReport's `TimelineEntry`). See
//! docs/engine.md.

pub mod allocator;
pub mod backend;
pub mod cuda;
pub mod device;
pub mod dtype;
pub mod error;
pub mod hostbuf;
pub mod hostmem;
pub mod numerics;
pub mod numpy_print;
pub mod print;
pub mod random;
pub mod rng;
pub mod runtime;
pub mod tensor;
pub mod timing;

pub use device::{Device, DeviceSpec, DeviceType};
pub use dtype::{DType, Scalar};
pub use error::{EngineError, ErrorKind, Result};
pub use runtime::{CudaFailure, OpEvent, Runtime, RuntimeConfig, SIM_DEVICE_NAME};
pub use tensor::{BinaryOp, Operand, Reduction, Tensor, TensorIndex, UnaryOp};
