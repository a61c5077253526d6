//! What PyTorch's parser accepts for each parameter type (`FunctionParameter::check` and the
//! THPUtils_check* helpers it calls), and the type names its messages print (`tp_name`).

use super::signature::{Param, ParamType};
use crate::engine::dtype::Category;
use crate::numpy::{NdArray, NpScalar};
use crate::script::{ExcType, PyException, PyResult, Value};
use crate::torch::PyTensor;
use crate::torch::objects::{PyDType, PyDevice, PyGenerator, PyMemoryFormat, PySize};

/// `Py_TYPE(obj)->tp_name`: C types carry their module (`torch.dtype`, `numpy.float64`),
/// Python classes and builtins their bare name.
pub fn tp_name(v: &Value) -> String {
    if let Value::Native(_) = v {
        if v.downcast::<PyDType>().is_some() {
            return "torch.dtype".into();
        }
        if v.downcast::<PyDevice>().is_some() {
            return "torch.device".into();
        }
        if v.downcast::<PyGenerator>().is_some() {
            return "torch._C.Generator".into();
        }
        if v.downcast::<PySize>().is_some() {
            return "torch.Size".into();
        }
        if v.downcast::<PyMemoryFormat>().is_some() {
            return "torch.memory_format".into();
        }
        if v.downcast::<NpScalar>().is_some() || v.downcast::<NdArray>().is_some() {
            return format!("numpy.{}", v.type_name());
        }
    }
    if is_layout(v) {
        return "torch.layout".into();
    }
    v.type_name()
}

/// `torch.strided` and the other layouts: instances of torch._extra's `layout` class.
fn is_layout(v: &Value) -> bool {
    matches!(v, Value::Instance(i) if &*i.class.name == "layout" && i.class.module.starts_with("torch"))
}

fn tensor_of(v: &Value) -> Option<std::cell::Ref<'_, crate::engine::Tensor>> {
    v.downcast::<PyTensor>().map(|t| t.t.borrow())
}

fn np_category(v: &Value) -> Option<Category> {
    v.downcast::<NpScalar>().map(|s| s.dtype.category())
}

/// `THPUtils_checkLong`: an int that is not a bool, or a NumPy integer.
pub(super) fn is_long(v: &Value) -> bool {
    matches!(v, Value::Int(_) | Value::BigInt(_)) || np_category(v) == Some(Category::Integral)
}

/// `THPUtils_checkIndex`: what `operator.index` takes, bools excepted.
pub(super) fn is_index(v: &Value) -> bool {
    if matches!(v, Value::Bool(_)) {
        return false;
    }
    if is_long(v) {
        return true;
    }
    // Tensor.__index__: one element of an integral (or bool) dtype
    tensor_of(v).is_some_and(|t| t.numel() == 1 && !t.dtype().is_floating_point())
}

/// `THPUtils_checkDouble`: a float, an int (bools included) or a NumPy scalar.
pub(super) fn is_double(v: &Value) -> bool {
    matches!(
        v,
        Value::Float(_) | Value::Int(_) | Value::BigInt(_) | Value::Bool(_)
    ) || np_category(v).is_some()
}

/// `THPUtils_checkScalar`.
pub(super) fn is_scalar(v: &Value) -> bool {
    is_double(v)
}

fn is_zero_dim_no_grad(v: &Value) -> Option<bool> {
    tensor_of(v).map(|t| !t.requires_grad() && t.shape().is_empty())
}

fn seq_items(v: &Value) -> Option<Vec<Value>> {
    match v {
        Value::List(_) | Value::Tuple(_) => v.as_vec(),
        _ => v
            .downcast::<PySize>()
            .map(|s| s.0.iter().map(|&d| Value::Int(d as i64)).collect()),
    }
}

/// `is_int_list` / `is_int_or_symint_list`: only the first element is looked at (the rest
/// fail later, when the list is unpacked). `failed` gets the index that decided a refusal.
fn is_int_list(v: &Value, size: usize, failed: &mut Option<usize>) -> bool {
    if let Some(items) = seq_items(v) {
        if items.is_empty() || is_index(&items[0]) {
            return true;
        }
        *failed = Some(0);
        return false;
    }
    size > 0 && is_index(v)
}

/// `is_tensor_list_and_append_overloaded` with throw_error: a non-tensor element is an error
/// even while PyTorch is only trying an overload.
fn is_tensor_list(v: &Value, argnum: usize) -> PyResult<bool> {
    let Some(items) = seq_items(v).filter(|_| matches!(v, Value::List(_) | Value::Tuple(_))) else {
        return Ok(false);
    };
    for (i, item) in items.iter().enumerate() {
        if item.downcast::<PyTensor>().is_none() {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "expected Tensor as element {i} in argument {argnum}, but got {}",
                    tp_name(item)
                ),
            ));
        }
    }
    Ok(true)
}

fn is_dimname(v: &Value) -> bool {
    matches!(v, Value::None | Value::Str(_))
}

/// `FunctionParameter::check`.
pub(super) fn check(
    p: &Param,
    v: &Value,
    argnum: usize,
    failed: &mut Option<usize>,
) -> PyResult<bool> {
    use ParamType as T;
    Ok(match p.ty {
        T::Tensor => {
            v.downcast::<PyTensor>().is_some() || (p.allow_numbers_as_tensors && is_scalar(v))
        }
        T::Scalar | T::Complex | T::Double => is_double(v) || is_zero_dim_no_grad(v) == Some(true),
        T::Int64 => {
            if is_long(v) {
                true
            } else if let Some(t) = tensor_of(v) {
                t.dtype().is_integral() && !t.requires_grad() && t.shape().is_empty()
            } else {
                false
            }
        }
        T::SymInt => is_index(v),
        T::Dimname => is_dimname(v),
        T::DimnameList => match seq_items(v) {
            Some(items) => items.first().is_none_or(is_dimname),
            None => p.size == 1 && is_dimname(v),
        },
        T::TensorList => is_tensor_list(v, argnum)?,
        T::IntList | T::SymIntList => is_int_list(v, p.size, failed),
        T::FloatList => match v {
            Value::List(_) | Value::Tuple(_) => {
                v.as_vec().unwrap_or_default().first().is_none_or(is_double)
            }
            _ => false,
        },
        T::ScalarList => match v {
            Value::List(_) | Value::Tuple(_) => {
                v.as_vec().unwrap_or_default().iter().all(is_scalar)
            }
            _ => false,
        },
        T::Generator => v.downcast::<PyGenerator>().is_some(),
        T::Bool => matches!(v, Value::Bool(_)),
        T::PyObject => true,
        T::ScalarType => v.downcast::<PyDType>().is_some(),
        T::Device => is_long(v) || matches!(v, Value::Str(_)) || v.downcast::<PyDevice>().is_some(),
        T::String => matches!(v, Value::Str(_)),
        T::Layout => is_layout(v),
        T::MemoryFormat => v.downcast::<PyMemoryFormat>().is_some(),
        // the engine has no storage, qscheme or stream objects
        T::Storage | T::QScheme | T::Stream | T::DispatchKeySet => false,
    })
}

/// The element type names `_formattedArgDesc` prints for a list or tuple argument.
pub(super) fn items_of(v: &Value) -> Option<Vec<Value>> {
    match v {
        Value::List(_) | Value::Tuple(_) => v.as_vec(),
        _ => None,
    }
}
