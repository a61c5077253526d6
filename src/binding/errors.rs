//! Engine errors as the Python exceptions PyTorch raises.

use crate::engine::{EngineError, ErrorKind};
use crate::script::{ExcType, PyException};

/// An engine error as the Python exception PyTorch raises.
pub fn py_err(e: EngineError) -> PyException {
    let message = super::messages::device_check_2_15(&e.message).unwrap_or(e.message);
    PyException::new(exc_type_of(e.kind), message)
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
