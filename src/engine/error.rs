//! Engine errors: a Python exception type and PyTorch's exact message.

use std::fmt;

/// The Python exception class an engine error becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    RuntimeError,
    /// `torch.AcceleratorError` (PyTorch 2.8+), a subclass of RuntimeError: every CUDA error.
    AcceleratorError,
    IndexError,
    ValueError,
    TypeError,
    /// `torch.OutOfMemoryError`, a subclass of RuntimeError.
    OutOfMemoryError,
    NotImplementedError,
    /// Python's own ZeroDivisionError (`nn.init`'s fan arithmetic on an empty tensor).
    ZeroDivisionError,
    /// The run was cancelled (Ctrl-c) inside an op.
    KeyboardInterrupt,
    /// The run's wall-clock limit passed inside an op.
    TimeoutError,
}

impl ErrorKind {
    /// The exception's Python name.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::RuntimeError => "RuntimeError",
            ErrorKind::AcceleratorError => "AcceleratorError",
            ErrorKind::IndexError => "IndexError",
            ErrorKind::ValueError => "ValueError",
            ErrorKind::TypeError => "TypeError",
            ErrorKind::OutOfMemoryError => "OutOfMemoryError",
            ErrorKind::NotImplementedError => "NotImplementedError",
            ErrorKind::ZeroDivisionError => "ZeroDivisionError",
            ErrorKind::KeyboardInterrupt => "KeyboardInterrupt",
            ErrorKind::TimeoutError => "TimeoutError",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An error raised by an engine call, carrying the exception type and message PyTorch would.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineError {
    pub kind: ErrorKind,
    pub message: String,
    /// True for `CUDA error: device-side assert triggered` (a deferred device error); the
    /// runtime's [`crate::engine::Runtime::cuda_failure`] then names the origin line and the
    /// device log.
    pub cuda_assert: bool,
}

impl EngineError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        EngineError {
            kind,
            message: message.into(),
            cuda_assert: false,
        }
    }
    pub fn runtime(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::RuntimeError, message)
    }
    pub fn index(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::IndexError, message)
    }
    pub fn value(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::ValueError, message)
    }
    pub fn type_error(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::TypeError, message)
    }
    pub fn not_implemented(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::NotImplementedError, message)
    }
    /// The same error as PyTorch 2.15 words it: `launch_blocking` drops the two
    /// "asynchronously reported" lines (c10/cuda/CUDAMiscFunctions.cpp).
    pub fn device_assert_for(launch_blocking: bool) -> Self {
        EngineError {
            kind: ErrorKind::AcceleratorError,
            message: if launch_blocking {
                CUDA_ASSERT_MESSAGE_BLOCKING.to_string()
            } else {
                CUDA_ASSERT_MESSAGE.to_string()
            },
            cuda_assert: true,
        }
    }
}

/// `torch.AcceleratorError: CUDA error: device-side assert triggered`, the help line naming
/// the CUDA error and the two advice lines, as PyTorch 2.15 builds them
/// (c10/cuda/CUDAException.cpp; pytorch-facts.md). The "Compile with `TORCH_USE_CUDA_DSA`"
/// line of older releases is not in 2.15's libraries.
pub const CUDA_ASSERT_MESSAGE: &str = "CUDA error: device-side assert triggered\n\
Search for `cudaErrorAssert' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information.\n\
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\n\
For debugging consider passing CUDA_LAUNCH_BLOCKING=1";

/// The same with CUDA_LAUNCH_BLOCKING=1: the report is no longer asynchronous, so PyTorch
/// leaves out the two advice lines.
pub const CUDA_ASSERT_MESSAGE_BLOCKING: &str = "CUDA error: device-side assert triggered\n\
Search for `cudaErrorAssert' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information.";

/// `CUDA error: invalid device ordinal` with its help line (CUDAMiscFunctions.cpp's
/// get_cuda_error_help for cudaErrorInvalidDevice).
pub const CUDA_INVALID_DEVICE_MESSAGE: &str = "CUDA error: invalid device ordinal\n\
GPU device may be out of range, do you have enough GPUs?\n\
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\n\
For debugging consider passing CUDA_LAUNCH_BLOCKING=1";

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.message)
    }
}

impl std::error::Error for EngineError {}

pub type Result<T> = std::result::Result<T, EngineError>;
