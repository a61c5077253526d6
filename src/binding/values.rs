//! Engine scalars as Python values.

use crate::engine::dtype::Scalar;
use crate::script::Value;

/// A scalar as the Python `bool`, `int` or `float` it is.
pub(crate) fn scalar_value(s: Scalar) -> Value {
    match s {
        Scalar::Bool(b) => Value::Bool(b),
        Scalar::Int(i) => Value::Int(i),
        Scalar::Float(f) => Value::Float(f),
    }
}

/// Nested Python lists from row-major values.
pub(crate) fn nested(vals: &[Scalar], shape: &[usize]) -> Value {
    if shape.is_empty() {
        return vals
            .first()
            .map(|s| scalar_value(*s))
            .unwrap_or(Value::None);
    }
    let inner: usize = shape[1..].iter().product();
    let items = (0..shape[0])
        .map(|i| nested(&vals[i * inner..(i + 1) * inner], &shape[1..]))
        .collect();
    Value::list(items)
}
