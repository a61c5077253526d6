//! `torch.float32` and its kind: the dtype objects torch hands out and numpy accepts.

use crate::engine::DType;
use crate::script::{NativeCx, NativeObject, PyResult, Value};

/// `torch.float32` etc.
pub struct PyDType(pub DType);

impl NativeObject for PyDType {
    fn type_name(&self) -> &str {
        "dtype"
    }
    fn plain_attr(&self, name: &str) -> Option<Value> {
        match name {
            "is_floating_point" => Some(Value::Bool(self.0.is_floating_point())),
            "itemsize" => Some(Value::Int(self.0.element_size() as i64)),
            "is_signed" => Some(Value::Bool(!matches!(self.0, DType::Bool | DType::UInt8))),
            _ => None,
        }
    }
    fn plain_repr(&self) -> Option<String> {
        Some(self.0.to_string())
    }
    fn equals(&self, other: &Value) -> Option<bool> {
        other.downcast::<PyDType>().map(|o| self.0 == o.0)
    }
    fn hash(&self, _: NativeCx<'_>) -> PyResult<Option<i64>> {
        Ok(Some(self.0 as i64 + 1000))
    }
}
