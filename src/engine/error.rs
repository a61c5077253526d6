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
    pub(crate) fn not_implemented(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::NotImplementedError, message)
    }
    /// The same error as PyTorch 2.15 words it: `launch_blocking` drops the two
    /// "asynchronously reported" lines (c10/cuda/CUDAMiscFunctions.cpp).
    pub(crate) fn device_assert_for(launch_blocking: bool) -> Self {
        Self::cuda_fault_for(CudaFault::Assert, launch_blocking)
    }

    /// A sticky CUDA error (a deferred kernel failure) as PyTorch 2.15 raises it; the
    /// runtime's [`crate::engine::Runtime::cuda_failure`] names its origin line.
    pub(crate) fn cuda_fault_for(fault: CudaFault, launch_blocking: bool) -> Self {
        EngineError {
            kind: ErrorKind::AcceleratorError,
            message: fault.message(launch_blocking),
            cuda_assert: true,
        }
    }
}

/// The sticky CUDA errors a kernel can leave behind: the context is unusable afterwards, every
/// later CUDA call raises the same error, and only a new process recovers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CudaFault {
    /// A failed device-side assert (cudaErrorAssert, 710).
    #[default]
    Assert,
    /// A load or store outside any allocation (cudaErrorIllegalAddress, 700).
    IllegalAddress,
    /// A load or store not aligned to its size (cudaErrorMisalignedAddress, 716).
    MisalignedAddress,
    /// A kernel that trapped or otherwise died (cudaErrorLaunchFailure, 719).
    LaunchFailure,
    /// An invalid instruction (cudaErrorIllegalInstruction, 715).
    IllegalInstruction,
}

impl CudaFault {
    /// The fault of a CUDA error code (the driver's CUresult and the runtime's cudaError_t
    /// agree on these), or None for an error that is not a sticky kernel fault.
    pub fn from_code(code: i32) -> Option<CudaFault> {
        Some(match code {
            710 => CudaFault::Assert,
            700 => CudaFault::IllegalAddress,
            716 => CudaFault::MisalignedAddress,
            719 => CudaFault::LaunchFailure,
            715 => CudaFault::IllegalInstruction,
            _ => return None,
        })
    }

    pub fn code(self) -> i32 {
        match self {
            CudaFault::Assert => 710,
            CudaFault::IllegalAddress => 700,
            CudaFault::MisalignedAddress => 716,
            CudaFault::LaunchFailure => 719,
            CudaFault::IllegalInstruction => 715,
        }
    }

    /// cudaGetErrorName, as the CUDA 13.2 runtime of PyTorch 2.15's wheel returns it.
    pub fn name(self) -> &'static str {
        match self {
            CudaFault::Assert => "cudaErrorAssert",
            CudaFault::IllegalAddress => "cudaErrorIllegalAddress",
            CudaFault::MisalignedAddress => "cudaErrorMisalignedAddress",
            CudaFault::LaunchFailure => "cudaErrorLaunchFailure",
            CudaFault::IllegalInstruction => "cudaErrorIllegalInstruction",
        }
    }

    /// cudaGetErrorString, as the same runtime returns it (read with ctypes from the wheel's
    /// nvidia/cu13/lib/libcudart.so.13, runtime version 13020, no GPU needed).
    pub fn text(self) -> &'static str {
        match self {
            CudaFault::Assert => "device-side assert triggered",
            CudaFault::IllegalAddress => "an illegal memory access was encountered",
            CudaFault::MisalignedAddress => "misaligned address",
            CudaFault::LaunchFailure => "unspecified launch failure",
            CudaFault::IllegalInstruction => "an illegal instruction was encountered",
        }
    }

    /// PyTorch 2.15's message (c10/cuda/CUDAException.cpp): "CUDA error: " + the error's
    /// string, the help line naming it, and, unless CUDA_LAUNCH_BLOCKING is set, the two
    /// "asynchronously reported" lines (get_cuda_async_error_suffix adds them for exactly
    /// these five errors).
    pub fn message(self, launch_blocking: bool) -> String {
        let mut m = format!(
            "CUDA error: {}\nSearch for `{}' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information.",
            self.text(),
            self.name()
        );
        if !launch_blocking {
            m.push_str("\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1");
        }
        m
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

/// `CUDA error: invalid device ordinal` with its help line, as 2.15 builds it: get_cuda_error_help
/// gives cudaErrorInvalidDevice (101) its own line instead of "Search for ...", and
/// get_cuda_async_error_suffix adds the two "asynchronously reported" lines only for the
/// kernel failures of [`async_suffix_applies`], so not here (libc10_cuda.so of
/// torch-2.15.0+cu132: `cmp $0x65` in get_cuda_error_help, the bit mask 0x98401 over codes
/// 700..719 in get_cuda_async_error_suffix; docs/lessons.md).
pub(crate) const CUDA_INVALID_DEVICE_MESSAGE: &str = "CUDA error: invalid device ordinal\n\
GPU device may be out of range, do you have enough GPUs?";

#[cfg(test)]
/// The CUDA error codes after which 2.15 says the error "might be asynchronously reported"
/// (unless CUDA_LAUNCH_BLOCKING is set): cudaErrorIllegalAddress (700), cudaErrorAssert (710),
/// cudaErrorIllegalInstruction (715), cudaErrorMisalignedAddress (716) and
/// cudaErrorLaunchFailure (719), the errors a kernel raises while it runs. Every other code
/// (an invalid device ordinal, out of memory, ...) is raised by the call that failed.
pub(crate) fn async_suffix_applies(cuda_error_code: u32) -> bool {
    matches!(cuda_error_code, 700 | 710 | 715 | 716 | 719)
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.message)
    }
}

impl std::error::Error for EngineError {}

pub type Result<T> = std::result::Result<T, EngineError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_kernel_failures_say_they_may_be_reported_asynchronously() {
        for code in [700, 710, 715, 716, 719] {
            assert!(async_suffix_applies(code), "{code}");
        }
        // invalid device ordinal (101), out of memory (2), not ready (600), launch timeout (702)
        for code in [101, 2, 600, 702, 0] {
            assert!(!async_suffix_applies(code), "{code}");
        }
        assert!(CUDA_ASSERT_MESSAGE.contains("asynchronously reported"));
        assert!(!CUDA_ASSERT_MESSAGE_BLOCKING.contains("asynchronously"));
        assert_eq!(
            CUDA_INVALID_DEVICE_MESSAGE,
            "CUDA error: invalid device ordinal\nGPU device may be out of range, do you have enough GPUs?"
        );
        assert!(!CUDA_INVALID_DEVICE_MESSAGE.contains("Search for"));
    }
}
