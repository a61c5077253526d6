//! A numpy subset for the scripts beginners write next to PyTorch (`import numpy as np`):
//! arrays over the engine's CPU storage (so `torch.from_numpy` / `t.numpy()` share memory),
//! numpy 2.x printing, NEP 50 promotion, broadcasting, indexing, reductions, and the legacy
//! `np.random` generator bit for bit. `_numpy_core` is native; `numpy` itself is a small
//! Python prelude (numpy.py) over it.

pub(crate) mod array;
pub(crate) mod bit_stream;
pub(crate) mod funcs;
pub(crate) mod generator;
pub(crate) mod npyfile;
pub(crate) mod object;
pub(crate) mod ops;
pub(crate) mod random;

pub(crate) use array::{NdArray, NpScalar};

use crate::engine::dtype::DType;
use crate::engine::numpy_print::{PrintOptions, options, set_options};
use crate::engine::runtime::Runtime;
use crate::script::ExcType;
use crate::script::{Args, Interpreter, Module, NativeCx, NativeObject, PyResult, Value};
use array::{err, np_name, np_value};
use std::cell::RefCell;
use std::rc::Rc;

const PRELUDE: &str = include_str!("numpy.py");

thread_local! {
    /// numpy's exception classes of this run (UFuncTypeError, AxisError, LinAlgError).
    static EXCEPTIONS: RefCell<Vec<Value>> = const { RefCell::new(Vec::new()) };
    static RUNTIME: RefCell<Option<Rc<Runtime>>> = const { RefCell::new(None) };
}

/// The runtime of the run in progress (arrays take their memory from its host budget).
pub(crate) fn runtime() -> Rc<Runtime> {
    RUNTIME.with(|r| {
        r.borrow()
            .clone()
            .unwrap_or_else(|| Runtime::new(Default::default()))
    })
}

/// `a.dtype`: prints as `float32`, compares equal to `np.float32`, `'float32'` and itself.
pub(crate) struct NpDType(pub DType);

/// `np.float32`, `np.int64`, ...: the scalar types (callable, `__name__`).
pub(crate) struct NpType(pub DType);

fn dtype_name_of(v: &Value) -> Option<DType> {
    if let Some(d) = v.downcast::<NpDType>() {
        return Some(d.0);
    }
    if let Some(d) = v.downcast::<NpType>() {
        return Some(d.0);
    }
    if let Some(d) = v.downcast::<crate::binding::PyDType>() {
        return Some(d.0);
    }
    if let Some(s) = v.as_str() {
        return Some(match s {
            "float64" | "f8" | "double" | "float" | "d" => DType::Float64,
            "float32" | "f4" | "single" | "f" => DType::Float32,
            "float16" | "f2" | "half" | "e" => DType::Float16,
            "int64" | "i8" | "int" | "long" | "l" => DType::Int64,
            "int32" | "i4" | "i" => DType::Int32,
            "int16" | "i2" => DType::Int16,
            "int8" | "i1" => DType::Int8,
            "uint8" | "u1" | "B" => DType::UInt8,
            "bool" | "?" | "b1" => DType::Bool,
            _ => return None,
        });
    }
    if let Value::Class(c) = v {
        return match &*c.name {
            "float" => Some(DType::Float64),
            "int" => Some(DType::Int64),
            "bool" => Some(DType::Bool),
            _ => None,
        };
    }
    None
}

/// A `dtype=` argument.
pub(crate) fn dtype_of(v: &Value) -> PyResult<DType> {
    dtype_name_of(v).ok_or_else(|| {
        err(
            ExcType::TypeError,
            format!("Cannot interpret '{}' as a data type", v.type_name()),
        )
    })
}

impl NativeObject for NpDType {
    fn type_name(&self) -> &str {
        "dtype"
    }
    fn plain_attr(&self, name: &str) -> Option<Value> {
        match name {
            "name" => Some(Value::str(np_name(self.0))),
            "itemsize" => Some(Value::Int(self.0.element_size() as i64)),
            "type" => Some(Value::native(NpType(self.0))),
            "kind" => Some(Value::str(match self.0.category() {
                crate::engine::dtype::Category::Bool => "b",
                crate::engine::dtype::Category::Integral => {
                    if self.0 == DType::UInt8 {
                        "u"
                    } else {
                        "i"
                    }
                }
                crate::engine::dtype::Category::Floating => "f",
            })),
            _ => None,
        }
    }
    fn str(&self, _: NativeCx<'_>) -> PyResult<Option<String>> {
        Ok(Some(np_name(self.0).into()))
    }
    fn plain_repr(&self) -> Option<String> {
        Some(format!("dtype('{}')", np_name(self.0)))
    }
    fn equals(&self, other: &Value) -> Option<bool> {
        Some(dtype_name_of(other) == Some(self.0))
    }
    fn hash(&self, _: NativeCx<'_>) -> PyResult<Option<i64>> {
        Ok(Some(self.0 as i64))
    }
}

impl NativeObject for NpType {
    fn type_name(&self) -> &str {
        "type"
    }
    fn plain_attr(&self, name: &str) -> Option<Value> {
        match name {
            "__name__" | "__qualname__" => Some(Value::str(np_name(self.0))),
            "__module__" => Some(Value::str("numpy")),
            "dtype" => Some(Value::native(NpDType(self.0))),
            _ => None,
        }
    }
    fn plain_repr(&self) -> Option<String> {
        Some(format!("<class 'numpy.{}'>", np_name(self.0)))
    }
    fn is_callable(&self) -> bool {
        true
    }
    fn call(&self, NativeCx { it, .. }: NativeCx<'_>, args: Args) -> PyResult<Value> {
        let name = np_name(self.0);
        let a = args.bind(name, &["value"], 0)?;
        let Some(v) = &a[0] else {
            return Ok(np_value(self.0, 0.0));
        };
        if let Some(s) = v.as_str() {
            let x: f64 = s.trim().parse().map_err(|_| {
                err(
                    ExcType::ValueError,
                    format!("could not convert string to float: '{s}'"),
                )
            })?;
            return Ok(np_value(self.0, x));
        }
        let o = ops::operand(it, v)?;
        if o.scalar {
            return Ok(np_value(self.0, o.vals[0]));
        }
        Ok(Value::native(NdArray::from_f64(
            &runtime(),
            &o.vals,
            o.shape,
            self.0,
        )?))
    }
    fn equals(&self, other: &Value) -> Option<bool> {
        Some(dtype_name_of(other) == Some(self.0))
    }
    fn hash(&self, _: NativeCx<'_>) -> PyResult<Option<i64>> {
        Ok(Some(self.0 as i64))
    }
}

fn set_printoptions(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    use crate::binding::print_counts::{COUNT_PARAMS, print_counts};
    let numpy_params = [
        "suppress",
        "nanstr",
        "infstr",
        "formatter",
        "sign",
        "floatmode",
        "legacy",
    ];
    let params = [COUNT_PARAMS.as_slice(), &numpy_params].concat();
    let a = args.bind("set_printoptions", &params, 0)?;
    let mut o = options();
    let counts = print_counts(it, &a, |it, v| Ok(it.index_int(v)?.max(0) as usize))?;
    o.precision = counts.precision.unwrap_or(o.precision);
    o.threshold = counts.threshold.unwrap_or(o.threshold);
    o.edgeitems = counts.edgeitems.unwrap_or(o.edgeitems);
    o.linewidth = counts.linewidth.map_or(o.linewidth, |l| l.max(1));
    if let Some(s) = &a[4]
        && !s.is_none()
    {
        o.suppress = it.truthy(s)?;
    }
    set_options(o);
    Ok(Value::None)
}

fn core_module(_it: &mut Interpreter) -> PyResult<Value> {
    let m = Module::new("_numpy_core");
    for (name, f) in funcs::FUNCS {
        m.add_fn(name, *f);
    }
    for (name, dt) in crate::binding::dtype_names(crate::binding::Library::Numpy) {
        m.set_attr(name, Value::native(NpType(dt)));
    }
    m.add_fn("dtype", |_it, args| {
        let a = args.bind("dtype", &["dtype"], 1)?;
        Ok(Value::native(NpDType(dtype_of(a[0].as_ref().unwrap())?)))
    });
    m.add_fn("set_printoptions", set_printoptions);
    // np.load's reader (numpy.py wraps an .npz's dict in NpzFile)
    m.add_fn("_load", |it, args| {
        let a = args.exact("load", 1)?;
        let path = match &a[0] {
            Value::Str(s) => s.to_string(),
            other => {
                return Err(array::err(
                    ExcType::TypeError,
                    format!(
                        "expected str, bytes or os.PathLike object, not {}",
                        other.type_name()
                    ),
                ));
            }
        };
        npyfile::load(it, &path)
    });
    m.add_fn("get_printoptions", |_it, _args| {
        let o = options();
        let d = crate::script::Dict::new();
        let v = Value::Dict(Rc::new(RefCell::new(d)));
        if let Value::Dict(d) = &v {
            let mut d = d.borrow_mut();
            d.set_str("edgeitems", Value::Int(o.edgeitems as i64));
            d.set_str("threshold", Value::Int(o.threshold as i64));
            d.set_str("precision", Value::Int(o.precision as i64));
            d.set_str("linewidth", Value::Int(o.linewidth as i64));
            d.set_str("suppress", Value::Bool(o.suppress));
        }
        Ok(v)
    });
    let exc = EXCEPTIONS.with(|e| e.borrow().clone());
    let ex = Module::new("numpy.exceptions");
    for (name, v) in ["UFuncTypeError", "AxisError", "LinAlgError"]
        .iter()
        .zip(exc)
    {
        ex.set_attr(name, v.clone());
        m.set_attr(name, v);
    }
    m.set_attr("exceptions", ex.into_value());
    m.set_attr("True_", np_value(DType::Bool, 1.0));
    m.set_attr("False_", np_value(DType::Bool, 0.0));
    m.set_attr("random", random::module());
    m.set_attr("linalg", funcs::linalg_module());
    m.set_attr("pi", Value::Float(std::f64::consts::PI));
    m.set_attr("e", Value::Float(std::f64::consts::E));
    m.set_attr("inf", Value::Float(f64::INFINITY));
    m.set_attr("nan", Value::Float(f64::NAN));
    m.set_attr("newaxis", Value::None);
    m.set_attr("__version__", Value::str("2.4.6"));
    Ok(m.into_value())
}

/// Register `numpy` on `it`, its arrays backed by `rt`'s host memory.
/// `obj.NAME` of a numpy object whose methods are the names in `methods`, all run by one
/// `call` (numpy.random's Generator and RandomState): a bound method, None for another name.
pub(crate) fn bound_method<T: 'static>(
    this: &Rc<dyn NativeObject>,
    methods: &[&str],
    name: &str,
    call: fn(&mut Interpreter, &T, &str, Args) -> PyResult<Value>,
) -> Option<Value> {
    if !methods.contains(&name) {
        return None;
    }
    let me = Value::Native(this.clone());
    let name_owned = name.to_string();
    Some(Value::native_fn(name, move |it, args| {
        let obj = me
            .downcast::<T>()
            .expect("the object the method was taken from");
        call(it, obj, &name_owned, args)
    }))
}

pub(crate) fn install(it: &mut Interpreter, rt: Rc<Runtime>) {
    set_options(PrintOptions::default());
    RUNTIME.with(|r| *r.borrow_mut() = Some(rt));
    it.define_native_class_in("ndarray", "numpy", &[]);
    for dt in DType::ALL {
        if dt != DType::BFloat16 {
            it.define_native_class_in(np_name(dt), "numpy", &[]);
        }
    }
    let ufunc_type_error = it.define_exception(ExcType::UFuncTypeError);
    let axis_error = it.define_exception(ExcType::AxisError);
    let linalg_error = it.define_exception(ExcType::LinAlgError);
    EXCEPTIONS.with(|e| *e.borrow_mut() = vec![ufunc_type_error, axis_error, linalg_error]);
    it.register_module("_numpy_core", Box::new(core_module));
    it.register_module(
        "numpy",
        Box::new(|it| it.module_from_source("numpy", PRELUDE)),
    );
}

/// `t.numpy()`'s array: the tensor's own memory.
pub(crate) fn from_tensor(t: &crate::engine::Tensor) -> Value {
    Value::native(NdArray::from_tensor(&runtime(), t))
}
