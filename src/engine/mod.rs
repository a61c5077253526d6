//! The tensor engine: tensors and their reference CPU math, the caching allocator, the
//! stream/timing model, and the backends (simulated GPU and real CUDA).
//!
//! Entry point: [`Runtime::new`] builds one run's state; every op is a method on it and
//! records an [`OpEvent`] (convertible into the RunReport's `TimelineEntry`). See
//! docs/engine.md.

pub mod allocator;
pub mod backend;
pub mod cuda;
pub(crate) mod device;
pub mod dtype;
pub(crate) mod element;
pub mod error;
pub mod event;
pub mod host;
pub(crate) mod hostbuf;
pub(crate) mod hostmem;
pub mod interrupt;
pub mod layout;
pub(crate) mod memory_history;
pub mod numerics;
pub(crate) mod numpy_print;
pub(crate) mod op;
pub(crate) mod parallel;
pub mod print;
pub(crate) mod provenance;
pub mod random;
pub mod runtime;
pub(crate) mod storage;
pub mod tensor;
#[cfg(test)]
pub(crate) mod test_sequence;
pub(crate) mod timing;

pub use device::{Device, DeviceSpec, DeviceType};
pub use dtype::{DType, Scalar};
pub use error::{EngineError, ErrorKind, Result};
pub use event::{AssertGap, OpKind, OpStatus, TimelineEntry, assert_gap};
pub use runtime::{CudaFailure, OpEvent, Runtime, RuntimeConfig, SIM_DEVICE_NAME};
pub use tensor::{BinaryOp, Operand, Reduction, SharedGenerator, Tensor, TensorIndex, UnaryOp};
