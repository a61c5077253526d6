//! Engine errors: a Python exception type and PyTorch's exact message.

use std::fmt;

/// The Python exception class an engine error becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    RuntimeError,
    IndexError,
    ValueError,
    TypeError,
    /// `torch.OutOfMemoryError`, a subclass of RuntimeError.
    OutOfMemoryError,
    NotImplementedError,
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
            ErrorKind::IndexError => "IndexError",
            ErrorKind::ValueError => "ValueError",
            ErrorKind::TypeError => "TypeError",
            ErrorKind::OutOfMemoryError => "OutOfMemoryError",
            ErrorKind::NotImplementedError => "NotImplementedError",
            ErrorKind::KeyboardInterrupt => "KeyboardInterrupt",
            ErrorKind::TimeoutError => "TimeoutError",
        }
    }
    /// A stop of the whole run (cancel, time limit), which no `except` may catch.
    pub fn is_stop(self) -> bool {
        matches!(self, ErrorKind::KeyboardInterrupt | ErrorKind::TimeoutError)
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
    /// The sticky CUDA error PyTorch raises after a device-side assert (4 lines).
    pub fn device_assert() -> Self {
        EngineError {
            kind: ErrorKind::RuntimeError,
            message: CUDA_ASSERT_MESSAGE.to_string(),
            cuda_assert: true,
        }
    }
}

/// `RuntimeError: CUDA error: device-side assert triggered` and its three advice lines, as
/// PyTorch prints them (pytorch-facts.md).
pub const CUDA_ASSERT_MESSAGE: &str = "CUDA error: device-side assert triggered\n\
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\n\
For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n\
Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.";

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.message)
    }
}

impl std::error::Error for EngineError {}

pub type Result<T> = std::result::Result<T, EngineError>;
