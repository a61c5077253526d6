//! Engine errors as the Python exceptions PyTorch raises.

use crate::engine::{EngineError, ErrorKind};
use crate::script::{ExcType, PyException};

/// An engine error as the Python exception PyTorch raises.
pub fn py_err(e: EngineError) -> PyException {
    let message = super::messages::device_check_2_15(&e.message).unwrap_or(e.message);
    let kind = match e.kind {
        ErrorKind::RuntimeError if is_dispatch_refusal(&message) => ErrorKind::NotImplementedError,
        kind => kind,
    };
    PyException::new(exc_type_of(kind), message)
}

/// ATen's dispatch macros refuse a dtype with TORCH_CHECK_NOT_IMPLEMENTED, so PyTorch 2.15
/// raises `"softmax_lastdim_kernel_impl" not implemented for 'Long'` as NotImplementedError
/// whichever kernel words it.
fn is_dispatch_refusal(message: &str) -> bool {
    message.starts_with('"')
        && message.ends_with('\'')
        && message.contains("\" not implemented for '")
}

/// The Python exception type an engine error kind becomes.
pub(crate) fn exc_type_of(kind: ErrorKind) -> ExcType {
    match kind {
        ErrorKind::RuntimeError => ExcType::RuntimeError,
        ErrorKind::AcceleratorError => ExcType::AcceleratorError,
        ErrorKind::IndexError => ExcType::IndexError,
        ErrorKind::ValueError => ExcType::ValueError,
        ErrorKind::TypeError => ExcType::TypeError,
        ErrorKind::OutOfMemoryError => ExcType::OutOfMemoryError,
        ErrorKind::NotImplementedError => ExcType::NotImplementedError,
        ErrorKind::ZeroDivisionError => ExcType::ZeroDivisionError,
        ErrorKind::KeyboardInterrupt => ExcType::KeyboardInterrupt,
        ErrorKind::TimeoutError => ExcType::TimeoutError,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dtype_dispatch_refusal_is_not_implemented_error() {
        let e = py_err(EngineError::runtime(
            "\"softmax_lastdim_kernel_impl\" not implemented for 'Long'",
        ));
        assert_eq!(e.kind(), Some(ExcType::NotImplementedError));
        let other = py_err(EngineError::runtime(
            "expected scalar type Float but found Long",
        ));
        assert_eq!(other.kind(), Some(ExcType::RuntimeError));
    }
}
