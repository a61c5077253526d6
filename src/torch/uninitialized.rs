//! `torch.nn.parameter.UninitializedParameter` and `UninitializedBuffer`: what a lazy module
//! (LazyLinear, LazyConvNd, LazyBatchNormNd) holds before its first forward. As in
//! torch/nn/parameter.py they are Tensor subclasses (`isinstance(w, torch.Tensor)`, and
//! `isinstance(w, nn.Parameter)` for the parameter) with no shape: reading `.shape` raises
//! PyTorch's RuntimeError and a tensor method raises its ValueError, while what PyTorch lets
//! through (`dtype`, `device`, `requires_grad`, `grad`, `size()`, conversions such as
//! `.double()` that `Module.to` applies) reads an empty tensor of the dtype and device the
//! parameter will get.

use super::PyTensor;
use super::py_err;
use crate::script::{
    Args, ExcType, Interpreter, NativeCx, NativeObject, PyException, PyResult, Value,
};
use std::rc::Rc;

const SHAPE_ERROR: &str = "Can't access the shape of an uninitialized parameter or buffer. This error usually happens in `load_state_dict` when trying to load an uninitialized parameter into an initialized one. Call `forward` to initialize the parameters before accessing their attributes.";

/// UninitializedTensorMixin.__torch_function__'s error for any other tensor function.
fn use_error(method: &str) -> PyException {
    PyException::new(
        ExcType::ValueError,
        format!(
            "Attempted to use an uninitialized parameter in <method '{method}' of 'torch._C.TensorBase' objects>. This error happens when you are using a `LazyModule` or explicitly manipulating `torch.nn.parameter.UninitializedParameter` objects. When using LazyModules Call `forward` with a dummy batch to initialize the parameters before calling torch functions"
        ),
    )
}

pub(crate) struct Uninitialized {
    /// UninitializedBuffer (a Tensor) rather than UninitializedParameter (a Parameter).
    buffer: bool,
    /// An empty tensor of the dtype, device and requires_grad the parameter will have.
    empty: Rc<PyTensor>,
}

impl Uninitialized {
    pub(crate) fn new(buffer: bool, empty: PyTensor) -> Uninitialized {
        Uninitialized {
            buffer,
            empty: Rc::new(empty),
        }
    }

    fn name(&self) -> &'static str {
        if self.buffer {
            "UninitializedBuffer"
        } else {
            "UninitializedParameter"
        }
    }

    /// `.to(...)`, `.double()`, `.cpu()`, ...: the same kind of object with the converted empty
    /// tensor's dtype and device (Module.to / Module.double on a lazy module before its forward).
    fn converted(
        it: &mut Interpreter,
        buffer: bool,
        empty: &Rc<PyTensor>,
        method: &str,
        args: Args,
    ) -> PyResult<Value> {
        let me: Rc<dyn NativeObject> = empty.clone();
        let r = it.call_method(&Value::Native(me), method, args)?;
        let Some(p) = r.downcast::<PyTensor>() else {
            return Ok(r);
        };
        let mut t = p.tensor().detach();
        if empty.tensor().requires_grad() {
            t.set_requires_grad(true).map_err(py_err)?;
        }
        let mut converted = PyTensor::new(p.rt.clone(), t);
        converted.param = !buffer;
        Ok(Value::native(Uninitialized::new(buffer, converted)))
    }

    fn empty_obj(&self) -> Rc<dyn NativeObject> {
        self.empty.clone()
    }
}

impl NativeObject for Uninitialized {
    fn type_name(&self) -> &str {
        self.name()
    }
    fn getattr(&self, NativeCx { it, .. }: NativeCx<'_>, name: &str) -> PyResult<Option<Value>> {
        match name {
            "shape" => return Err(PyException::new(ExcType::RuntimeError, SHAPE_ERROR)),
            "to" | "cpu" | "cuda" | "float" | "double" | "half" | "bfloat16" | "type" => {
                let (buffer, empty) = (self.buffer, self.empty.clone());
                let method: Rc<str> = name.into();
                return Ok(Some(Value::native_fn(name, move |it, args| {
                    Uninitialized::converted(it, buffer, &empty, &method, args)
                })));
            }
            // methods PyTorch answers for an uninitialized parameter
            "size" | "is_floating_point" | "is_complex" | "get_device" | "element_size" => {
                let e = self.empty_obj();
                return e.getattr(NativeCx::new(&e, it), name);
            }
            _ => {}
        }
        let e = self.empty_obj();
        match e.getattr(NativeCx::new(&e, it), name)? {
            Some(Value::BuiltinMethod(_) | Value::NativeFn(_) | Value::BoundMethod(_)) => {
                let method = name.to_string();
                Ok(Some(Value::native_fn(name, move |_, _| {
                    Err(use_error(&method))
                })))
            }
            other => Ok(other),
        }
    }
    fn call_method(&self, cx: NativeCx<'_>, name: &str, args: Args) -> PyResult<Option<Value>> {
        match self.getattr(NativeCx::new(cx.this, cx.it), name)? {
            Some(f) => cx.it.call(&f, args).map(Some),
            None => Ok(None),
        }
    }
    fn setattr(&self, NativeCx { it, .. }: NativeCx<'_>, name: &str, v: Value) -> PyResult<bool> {
        // requires_grad_ / `.requires_grad = False` before the forward: kept for the parameter
        if name == "requires_grad" {
            let e = self.empty_obj();
            return e.setattr(NativeCx::new(&e, it), name, v);
        }
        Ok(false)
    }
    fn len(&self, _: NativeCx<'_>) -> PyResult<Option<usize>> {
        Err(PyException::new(
            ExcType::ValueError,
            "Attempted to use an uninitialized parameter in <function Tensor.__len__>. This error happens when you are using a `LazyModule` or explicitly manipulating `torch.nn.parameter.UninitializedParameter` objects. When using LazyModules Call `forward` with a dummy batch to initialize the parameters before calling torch functions",
        ))
    }
    fn plain_repr(&self) -> Option<String> {
        Some(format!("<{}>", self.name()))
    }
    fn str(&self, _: NativeCx<'_>) -> PyResult<Option<String>> {
        Ok(Some(format!("<{}>", self.name())))
    }
}
