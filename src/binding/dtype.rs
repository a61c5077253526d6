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

/// A library whose module exports dtype names.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Library {
    Numpy,
    Torch,
}

const BOTH: &[Library] = &[Library::Numpy, Library::Torch];
const NUMPY: &[Library] = &[Library::Numpy];
const TORCH: &[Library] = &[Library::Torch];

/// The dtype names numpy and torch export (`np.float32`, `torch.long`), declared once so that a
/// name the two share means the same dtype in both. They part where the libraries do: numpy's
/// `int_` is int64, torch's `int` int32.
const DTYPE_NAMES: [(&str, DType, &[Library]); 21] = [
    ("float32", DType::Float32, BOTH),
    ("float64", DType::Float64, BOTH),
    ("float16", DType::Float16, BOTH),
    ("double", DType::Float64, BOTH),
    ("half", DType::Float16, BOTH),
    ("int64", DType::Int64, BOTH),
    ("int32", DType::Int32, BOTH),
    ("int16", DType::Int16, BOTH),
    ("int8", DType::Int8, BOTH),
    ("uint8", DType::UInt8, BOTH),
    ("bool", DType::Bool, BOTH),
    ("bool_", DType::Bool, NUMPY),
    ("single", DType::Float32, NUMPY),
    ("int_", DType::Int64, NUMPY),
    ("intp", DType::Int64, NUMPY),
    ("float_", DType::Float64, NUMPY),
    ("float", DType::Float32, TORCH),
    ("bfloat16", DType::BFloat16, TORCH),
    ("long", DType::Int64, TORCH),
    ("int", DType::Int32, TORCH),
    ("short", DType::Int16, TORCH),
];

/// The dtype names `library` exports, with the dtype each names.
pub(crate) fn dtype_names(library: Library) -> impl Iterator<Item = (&'static str, DType)> {
    DTYPE_NAMES
        .into_iter()
        .filter(move |(_, _, libraries)| libraries.contains(&library))
        .map(|(name, dtype, _)| (name, dtype))
}

#[cfg(test)]
mod tests {
    use super::{Library, dtype_names};
    use crate::engine::DType;

    #[test]
    fn shared_names_name_the_same_dtype_and_each_library_keeps_its_own() {
        let numpy: Vec<_> = dtype_names(Library::Numpy).collect();
        let torch: Vec<_> = dtype_names(Library::Torch).collect();
        assert_eq!(numpy.len(), 16);
        assert_eq!(torch.len(), 16);
        assert!(
            numpy.contains(&("int_", DType::Int64)) && !torch.iter().any(|(n, _)| *n == "int_")
        );
        assert!(torch.contains(&("int", DType::Int32)) && !numpy.iter().any(|(n, _)| *n == "int"));
        for (name, dtype) in &numpy {
            if let Some((_, t)) = torch.iter().find(|(n, _)| n == name) {
                assert_eq!(dtype, t, "{name}");
            }
        }
    }
}
