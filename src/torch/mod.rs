//! The Python-visible torch API: thin bindings from script values onto engine calls.
//!
//! `install(it, rt)` registers `torch`, `torch.nn`, `torch.nn.functional`, `torch.cuda`,
//! `torch.utils`, `torch.utils.data` and `torch.optim`. Every op first tells the runtime the
//! current script line, so the timeline knows where each op came from. Engine errors become
//! Python exceptions with the same type and message (`torch.OutOfMemoryError` is a
//! RuntimeError subclass).

pub mod argparse;
mod checkpoint;
mod cuda;
mod cuda_tools;
mod device_asserts;
mod functions;
mod fused_optim;
mod objects;
mod registry;
mod tensor;
mod uninitialized;

pub use objects::{PyDevice, PySize};
// What torch and numpy share lives beneath both (src/binding/).
pub use crate::binding::{PyDType, PyTensor, py_err};
pub(crate) use crate::binding::{
    async_copy, exc_type_of, nested, scalar_value, tensor_of, warn, warn_as, warn_at,
};

use crate::engine::dtype::Scalar;
use crate::engine::{DType, Device, DeviceSpec, Operand, Runtime, Tensor, TensorIndex};
use crate::script::{Args, ExcType, Interpreter, PyException, PyResult, Value};
use std::rc::Rc;

/// torch.nn: nn.py, then the modules added in their own files (one prelude: they share its
/// helpers and its `_PY_FUNCTIONAL` list).
/// (Public for the tests that compare its deferred loading with running it whole.)
pub const NN_SRC: &str = concat!(
    include_str!("nn.py"),
    include_str!("nn_layers.py"),
    include_str!("nn_losses.py"),
    include_str!("nn_attention.py"),
    include_str!("nn_pool_pad.py"),
    include_str!("nn_bilinear.py"),
    include_str!("nn_conv3d.py"),
    include_str!("nn_conv_transpose.py"),
    include_str!("nn_fractional_pool.py"),
    include_str!("nn_interpolate.py"),
    include_str!("nn_upsample2d.py"),
    include_str!("nn_sdpa.py"),
    include_str!("nn_padding.py"),
    include_str!("nn_lazy.py"),
    include_str!("nn_inplace.py")
);
const DATA_SRC: &str = include_str!("data.py");
const OPTIM_SRC: &str = include_str!("optim.py");
/// torch._extra: extra.py, then the families kept in their own files.
const EXTRA_SRC: &str = concat!(
    include_str!("extra.py"),
    include_str!("extra_views.py"),
    include_str!("extra_search.py"),
    include_str!("extra_runtime.py"),
    include_str!("extra_poisson_qr.py"),
    include_str!("extra_aliases.py"),
    // last: it wraps what the files above set on torch
    include_str!("extra_parsed.py")
);
const VERSION_SRC: &str = "__version__ = '2.15.0+cu132'\ncuda = '13.2'\ndebug = False\ngit_version = 'd0f2af8b66b20da4baa50644c0cd3f887a2eae2e'\nhip = None\nrocm = None\nxpu = None\n";
const AUTOGRAD_SRC: &str = concat!(
    include_str!("autograd.py"),
    include_str!("autograd_functional.py")
);
const LR_SCHEDULER_SRC: &str = include_str!("lr_scheduler.py");
const NN_UTILS_SRC: &str = include_str!("nn_utils.py");
const NN_UTILS_RNN_SRC: &str = include_str!("nn_utils_rnn.py");
const NN_INIT_SRC: &str = include_str!("nn_init.py");
const DISTRIBUTIONS_SRC: &str = include_str!("distributions.py");
const SPECIAL_SRC: &str = include_str!("special.py");
const CUDA_PY_SRC: &str = include_str!("cuda_py.py");
const CUDA_MEMORY_SRC: &str = include_str!("cuda_memory.py");
const LINALG_SRC: &str = "from torch._extra import _linalg_norm as norm, _vector_norm as vector_norm\nfrom torch._extra import det, inv, solve, matrix_rank, matrix_power\nfrom torch._extra import linalg_cross as cross\nfrom torch._extra import linalg_qr as qr\n";
/// torch.nn's Python-written functional forms (`_f_NAME` for each NAME of its
/// `_PY_FUNCTIONAL`), put into torch.nn.functional and torch._F once torch.nn exists, each
/// at its first use as the `_f_` definitions themselves are (script/interp/deferred.rs).
fn functional_forms(it: &mut Interpreter) -> PyResult<Value> {
    let Value::Module(nn) = it.import_module("torch.nn")? else {
        return Err(PyException::new(
            ExcType::ImportError,
            "torch.nn is not a module",
        ));
    };
    let names = nn
        .get_attr("_PY_FUNCTIONAL")
        .and_then(|v| v.as_vec())
        .unwrap_or_default();
    for target in ["torch.nn.functional", "torch._F"] {
        let Value::Module(f) = it.import_module(target)? else {
            continue;
        };
        for k in names.iter().filter_map(Value::as_str) {
            it.bind_deferred_alias(&f, k, &nn, &format!("_f_{k}"))?;
        }
    }
    Ok(crate::script::Module::new("torch.nn._fx").into_value())
}

const BACKENDS_SRC: &str = "class _Flags:\n    enabled = True\n    benchmark = False\n    deterministic = False\n    allow_tf32 = False\n\n    def version(self):\n        return 92600\n\n    def is_available(self):\n        return True\n\n\nclass _Absent:\n    def is_available(self):\n        return False\n\n    def is_built(self):\n        return False\n\n\ncudnn = _Flags()\ncuda = _Flags()\nmps = _Absent()\n";

/// The torch modules written in Python: (module name, source).
pub(crate) const PRELUDES: &[(&str, &str)] = &[
    ("torch.nn", NN_SRC),
    ("torch.utils.data", DATA_SRC),
    ("torch.optim", OPTIM_SRC),
    ("torch._extra", EXTRA_SRC),
    ("torch.autograd", AUTOGRAD_SRC),
    ("torch.distributions", DISTRIBUTIONS_SRC),
    ("torch.linalg", LINALG_SRC),
    ("torch.optim.lr_scheduler", LR_SCHEDULER_SRC),
    ("torch.nn.utils", NN_UTILS_SRC),
    ("torch.nn.utils.rnn", NN_UTILS_RNN_SRC),
    ("torch.nn.init", NN_INIT_SRC),
    ("torch.special", SPECIAL_SRC),
    ("torch.backends", BACKENDS_SRC),
    ("torch.cuda._py", CUDA_PY_SRC),
    ("torch.cuda.memory", CUDA_MEMORY_SRC),
    ("torch.version", VERSION_SRC),
];

/// The preludes whose top-level definitions run at the first use of their names
/// (script/interp/deferred.rs): torch.nn's 350 classes and functions cost an eager import
/// about 25 ms, where a typical script uses a dozen of them. Each one's plain `def`s and
/// `class`es only bind their names: no class body, default or base reads a name that a later
/// top-level statement rebinds, no base class registers its subclasses, and nothing at import
/// walks the namespace. torch.distributions stays eager: its `@register_kl` decorators need
/// nearly every class at import.
pub(crate) const DEFERRING: &[&str] = &[
    "torch.nn",
    "torch.utils.data",
    "torch.optim",
    "torch._extra",
    "torch.autograd",
    "torch.optim.lr_scheduler",
    "torch.nn.utils",
    "torch.nn.utils.rnn",
    "torch.nn.init",
    "torch.special",
];

/// The preludes that stand for functions PyTorch writes in C (`torch.amax`, `torch.special.erf`,
/// `torch.linalg.inv`): PyTorch's tracebacks go from the learner's line straight to the error,
/// so ours leave these frames out.
const C_STAND_INS: &[&str] = &["torch._extra", "torch.special", "torch.linalg"];

/// (name, source) of each prelude that [`install`] loads with its definitions deferred (for
/// the tests that compare that with running the whole prelude at import).
pub fn deferring_preludes() -> impl Iterator<Item = (&'static str, &'static str)> {
    PRELUDES
        .iter()
        .copied()
        .filter(|(name, _)| DEFERRING.contains(name))
}

/// Register the torch modules on `it`, all backed by `rt`.
pub fn install(it: &mut Interpreter, rt: Rc<Runtime>) {
    crate::engine::print::reset_print_options();
    crate::engine::dtype::reset_default_float();
    crate::engine::parallel::reset_num_threads();
    crate::numpy::install(it, rt.clone());
    crate::binding::warnings::forget_shown();
    async_copy::clear();
    tensor::clear_hooks();
    it.define_exception(ExcType::OutOfMemoryError);
    // PyTorch 2.8+ raises every CUDA error (a device-side assert too) as this subclass
    it.define_exception(ExcType::AcceleratorError);
    it.define_native_class("Tensor", &[]);
    it.define_native_class_in("Parameter", "torch.nn.parameter", &["Tensor"]);
    it.define_native_subclass_of("Size", "torch", crate::script::value::BuiltinType::Tuple);
    // the modules written in Rust, each built at its first import around the one runtime
    type RuntimeModule = fn(&mut Interpreter, &Rc<Runtime>) -> PyResult<Value>;
    let native_modules: [(&str, RuntimeModule); 6] = [
        ("torch", functions::torch_module),
        ("torch.nn.functional", functions::functional_module),
        // the same functions under a name the torch.nn prelude can import while torch.nn
        // initialises
        ("torch._F", functions::functional_module),
        ("torch.cuda", cuda::cuda_module),
        ("torch.cuda._tools", cuda_tools::tools_module),
        ("torch._C", functions::native_helpers),
    ];
    for (name, build) in native_modules {
        let r = rt.clone();
        it.register_module(name, Box::new(move |it| build(it, &r)));
    }
    // torch.nn, torch.optim … compile at first use; a name torch lacks loads torch._extra
    it.set_lazy_package("torch", Some("torch._extra"));
    // Event, current_stream … (cuda_py.py) load at first use, as torch.cuda.memory does
    it.set_lazy_package("torch.cuda", Some("torch.cuda._py"));
    let r = rt.clone();
    // torch.load of a checkpoint in a host folder the run may read (--allow-read)
    it.register_module(
        "torch._checkpoint",
        Box::new(move |_it| {
            let m = crate::script::Module::new("torch._checkpoint");
            let rt = r.clone();
            m.add_fn("load", move |it, args| {
                let a = args.exact("load", 2)?;
                let path = a[0].as_str().unwrap_or_default().to_string();
                let restore = matches!(a[1], Value::Bool(true));
                checkpoint::load(it, &rt, &path, restore)
            });
            Ok(m.into_value())
        }),
    );
    it.register_module("torch.nn._fx", Box::new(functional_forms));
    it.register_module(
        "torch.utils",
        Box::new(|_it| Ok(crate::script::Module::new("torch.utils").into_value())),
    );
    it.register_preludes(PRELUDES, DEFERRING);
    it.hide_frames_of(C_STAND_INS.iter().copied());
    // These packages' submodules load at first access, not with the package: the alias
    // submodules below (`torch.optim.optimizer` is `from torch.optim import *`) run every
    // deferred definition of their package, a third of a small training script's start-up
    // when `torch.optim` loaded them with itself. (A child's `import *` of its lazy package
    // skips that child while it initialises: `Interpreter::initializing`.)
    for package in [
        "torch.autograd",
        "torch.optim",
        "torch.utils.data",
        "torch.nn.utils",
    ] {
        it.set_lazy_package(package, None);
    }
    // torch/optim/__init__.py ends with `del optimizer`: `torch.optim.optimizer` is an
    // AttributeError ("Did you mean: 'Optimizer'?") though `from torch.optim.optimizer import
    // Optimizer` works.
    it.detach_submodule("torch.optim.optimizer");
    // `from torch.utils.data.sampler import RandomSampler`, `from torch.optim.optimizer import
    // Optimizer`: PyTorch's own module paths for names the preludes define
    for (name, src) in [
        (
            "torch.utils.data.dataset",
            "from torch.utils.data import *\n",
        ),
        (
            "torch.utils.data.sampler",
            "from torch.utils.data import *\n",
        ),
        (
            "torch.utils.data.dataloader",
            "from torch.utils.data import *\n",
        ),
        ("torch.optim.optimizer", "from torch.optim import *\n"),
        (
            "torch.autograd.functional",
            "from torch.autograd import functional as _f\nvjp, jvp, jacobian, hessian, vhp, hvp = _f.vjp, _f.jvp, _f.jacobian, _f.hessian, _f.vhp, _f.hvp\n",
        ),
        (
            "torch.autograd.function",
            "from torch.autograd import Function, FunctionCtx, once_differentiable\n",
        ),
        ("torch.nn.utils.clip_grad", "from torch.nn.utils import *\n"),
        (
            "torch.nn.utils.convert_parameters",
            "from torch.nn.utils import *\n",
        ),
    ] {
        it.register_module(name, Box::new(move |it| it.module_from_source(name, src)));
    }
    // `from torch.distributions.normal import Normal` as well as the package's own names
    for name in [
        "torch.distributions.normal",
        "torch.distributions.bernoulli",
        "torch.distributions.categorical",
        "torch.distributions.uniform",
        "torch.distributions.multinomial",
        "torch.distributions.kl",
    ] {
        let src = "from torch.distributions import *\n";
        it.register_module(name, Box::new(move |it| it.module_from_source(name, src)));
    }
}

/// PyTorch's argument parser takes numpy's names too: `axis` for `dim`, `keepdims` for
/// `keepdim` (python_arg_parser.cpp's numpy_compatibility_arg_names).
pub(crate) fn numpy_aliases(args: &mut Args) {
    for (np, torch) in [("axis", "dim"), ("keepdims", "keepdim")] {
        if args.keywords.iter().any(|(k, _)| k == np)
            && !args.keywords.iter().any(|(k, _)| k == torch)
        {
            for (k, _) in args.keywords.iter_mut() {
                if k == np {
                    *k = torch.to_string();
                }
            }
        }
    }
}

/// Tell the runtime which line runs now, and pick up CUDA_LAUNCH_BLOCKING and
/// CUDA_VISIBLE_DEVICES before CUDA starts.
pub(crate) fn at_line(rt: &Runtime, it: &Interpreter) {
    rt.set_line(it.current_line());
    rt.interpreter_steps(it.steps());
    if !rt.cuda_initialized() {
        // the process environment (os.environ, or os.putenv), as CUDA's getenv sees it
        if it
            .process_env("CUDA_LAUNCH_BLOCKING")
            .is_some_and(|v| v.trim() == "1")
        {
            rt.set_launch_blocking(true);
        }
        // read until CUDA starts, as the driver reads it once at initialisation
        rt.set_visible_devices(it.process_env("CUDA_VISIBLE_DEVICES").as_deref());
    }
}

pub(crate) fn wrap(rt: &Rc<Runtime>, t: Tensor) -> Value {
    Value::native(PyTensor::new(rt.clone(), t))
}

pub(crate) fn need_tensor(v: &Value, fname: &str, arg: &str) -> PyResult<Tensor> {
    tensor_of(v).ok_or_else(|| {
        PyException::new(
            ExcType::TypeError,
            format!(
                "{fname}(): argument '{arg}' (position 1) must be Tensor, not {}",
                v.type_name()
            ),
        )
    })
}

pub(crate) fn scalar_of(v: &Value) -> Option<Scalar> {
    match v {
        Value::Bool(b) => Some(Scalar::Bool(*b)),
        Value::Int(i) => Some(Scalar::Int(*i)),
        Value::Float(f) => Some(Scalar::Float(*f)),
        // numpy scalars take part as Python numbers (np.float64 is a float subclass)
        Value::Native(_) => v
            .downcast::<crate::numpy::NpScalar>()
            .map(|s| s.to_scalar()),
        _ => None,
    }
}

/// A Number argument (`alpha=`, `value=`): a Python number or, as PyTorch's argument parser
/// takes it, a 0-dim tensor that does not require grad (its value: an optimizer's tensor lr).
fn number_arg(v: &Value) -> PyResult<Option<Scalar>> {
    if let Some(s) = scalar_of(v) {
        return Ok(Some(s));
    }
    if let Some(p) = v.downcast::<PyTensor>() {
        let t = p.tensor();
        if t.dim() == 0 && !t.requires_grad() {
            return p.rt.item(&t).map(Some).map_err(py_err);
        }
    }
    Ok(None)
}

/// The `alpha=` of add/sub (None when absent or 1, which is a plain add).
pub(crate) fn alpha_of(v: Option<&Value>, fname: &str) -> PyResult<Option<Scalar>> {
    match v {
        None => Ok(None),
        Some(v) => match number_arg(v)? {
            Some(Scalar::Int(1)) => Ok(None),
            Some(s) => Ok(Some(s)),
            None => Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "{fname}(): argument 'alpha' must be Number, not {}",
                    v.type_name()
                ),
            )),
        },
    }
}

/// A tensor or scalar operand; a Python int beyond int64 fails as in PyTorch.
/// The operands of `addcmul`/`addcdiv`/`lerp` after `input`, already bound: the second
/// tensor, the third operand (lerp's weight may be a number) and `value=` (default 1).
pub(crate) fn ternary_operands(
    op: crate::engine::backend::TernaryOp,
    b: Option<&Value>,
    c: Option<&Value>,
    value: Option<&Value>,
    fname: &str,
) -> PyResult<(Tensor, Operand, Scalar)> {
    use crate::engine::backend::TernaryOp;
    let (bn, cn) = match op {
        TernaryOp::Lerp => ("end", "weight"),
        _ => ("tensor1", "tensor2"),
    };
    let none = Value::None;
    let b = need_tensor(b.unwrap_or(&none), fname, bn)?;
    let cv = c.unwrap_or(&none);
    let c = match (op, operand_of(cv)?) {
        (_, Some(Operand::Tensor(t))) => Operand::Tensor(t),
        (TernaryOp::Lerp, Some(Operand::Scalar(s))) => Operand::Scalar(s),
        _ => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "{fname}(): argument '{cn}' (position 3) must be Tensor, not {}",
                    cv.type_name()
                ),
            ));
        }
    };
    let value = match value.filter(|v| !v.is_none()) {
        None => Scalar::Int(1),
        Some(v) => number_arg(v)?.ok_or_else(|| {
            PyException::new(
                ExcType::TypeError,
                format!(
                    "{fname}(): argument 'value' must be Number, not {}",
                    v.type_name()
                ),
            )
        })?,
    };
    Ok((b, c, value))
}

pub(crate) fn operand_of(v: &Value) -> PyResult<Option<Operand>> {
    check_long(v)?;
    if let Some(s) = scalar_of(v) {
        return Ok(Some(Operand::Scalar(s)));
    }
    // an ndarray meeting a tensor is read as a tensor over its memory (a copy when its
    // strides are negative), as Tensor's operators convert it
    if let Some(a) = v.downcast::<crate::numpy::NdArray>() {
        let t = match a.to_tensor() {
            Ok(t) => t,
            Err(_) => a.copy_as(a.dtype())?.to_tensor()?,
        };
        return Ok(Some(Operand::Tensor(t)));
    }
    Ok(tensor_of(v).map(Operand::Tensor))
}

/// PyTorch unpacks Python ints into int64 (`THPUtils_unpackLong`): a larger one raises
/// `RuntimeError: Overflow when unpacking long` (tensor data, scalars, sizes, indices, dims).
pub(crate) fn check_long(v: &Value) -> PyResult<()> {
    if let Value::BigInt(_) = v {
        return Err(PyException::new(
            ExcType::RuntimeError,
            "Overflow when unpacking long",
        ));
    }
    Ok(())
}

/// An int argument (size, dim, index) as PyTorch reads it.
pub(crate) fn int_arg(it: &mut Interpreter, v: &Value) -> PyResult<i64> {
    check_long(v)?;
    it.index_int(v)
}

/// The dtype numpy data brings to `torch.tensor` (an array's or numpy scalar's own; for a
/// list, that of its first numpy element), None for plain Python data.
pub(crate) fn numpy_dtype(v: &Value) -> Option<DType> {
    if let Some(a) = v.downcast::<crate::numpy::NdArray>() {
        return Some(a.dtype());
    }
    if let Some(s) = v.downcast::<crate::numpy::NpScalar>() {
        return Some(s.dtype);
    }
    match v {
        Value::List(_) | Value::Tuple(_) => {
            let items = v.as_vec().unwrap_or_default();
            let mut dt = None;
            for x in items.iter().take(64) {
                match numpy_dtype(x) {
                    Some(d) => {
                        dt = Some(match dt {
                            None => d,
                            Some(p) => crate::numpy::ops::np_promote(p, d),
                        })
                    }
                    None => return None,
                }
            }
            dt
        }
        _ => None,
    }
}

/// Flatten `torch.tensor` data: nested lists/tuples of numbers (or one-element tensors).
pub(crate) fn flatten_data(v: &Value) -> PyResult<(Vec<Scalar>, Vec<usize>, Option<DType>)> {
    fn rec(
        v: &Value,
        depth: usize,
        shape: &mut Vec<usize>,
        out: &mut Vec<Scalar>,
        dt: &mut Option<DType>,
    ) -> PyResult<()> {
        check_long(v)?;
        if let Some(s) = v.downcast::<crate::numpy::NpScalar>() {
            if depth < shape.len() {
                return Err(length_mismatch(shape, depth, 0));
            }
            if dt.is_none() {
                *dt = Some(s.dtype);
            }
            out.push(s.to_scalar());
            return Ok(());
        }
        if let Some(s) = scalar_of(v) {
            if depth < shape.len() {
                return Err(length_mismatch(shape, depth, 0));
            }
            out.push(s);
            return Ok(());
        }
        if let Some(t) = tensor_of(v) {
            if t.numel() != 1 || t.dim() != 0 {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "only one element tensors can be converted to Python scalars",
                ));
            }
            let vals = t.scalars().map_err(py_err)?;
            if dt.is_none() {
                *dt = Some(t.dtype());
            }
            out.push(vals[0]);
            return Ok(());
        }
        let items = match v {
            Value::List(_) | Value::Tuple(_) => v.as_vec().unwrap_or_default(),
            Value::Native(_) if v.downcast::<crate::numpy::NdArray>().is_some() => {
                let a = v.downcast::<crate::numpy::NdArray>().unwrap();
                out.extend(a.scalars()?);
                if dt.is_none() {
                    *dt = Some(a.dtype());
                }
                if depth == shape.len() {
                    shape.extend(a.shape.iter().copied());
                } else if shape[depth..] != a.shape[..] {
                    let got = a.shape.first().copied().unwrap_or(0);
                    return Err(length_mismatch(shape, depth, got));
                }
                return Ok(());
            }
            // a string on the first-element chain is a sequence to PyTorch's size walk, which
            // then refuses it; elsewhere it is an invalid scalar
            Value::Str(_) if depth > 0 && depth == shape.len() && out.is_empty() => {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "too many dimensions 'str'",
                ));
            }
            _ => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!("new(): invalid data type '{}'", v.type_name()),
                ));
            }
        };
        if depth == shape.len() {
            shape.push(items.len());
            // PyTorch's MAX_DIMS for tensor data (tensor_new.cpp); it also bounds this
            // recursion for `x = [x]` nested a million times.
            if shape.len() > 128 {
                return Err(PyException::new(
                    ExcType::ValueError,
                    format!("too many dimensions '{}'", v.type_name()),
                ));
            }
        } else if shape[depth] != items.len() {
            return Err(length_mismatch(shape, depth, items.len()));
        }
        for x in &items {
            rec(x, depth + 1, shape, out, dt)?;
        }
        Ok(())
    }
    let mut shape = Vec::new();
    let mut out = Vec::new();
    let mut dt = None;
    rec(v, 0, &mut shape, &mut out, &mut dt)?;
    Ok((out, shape, dt))
}

/// PyTorch's error for data whose length at `depth` is `got` where the first element's walk
/// found `shape[depth]` (a number where a sequence is due counts as length 0).
fn length_mismatch(shape: &[usize], depth: usize, got: usize) -> PyException {
    PyException::new(
        ExcType::ValueError,
        format!(
            "expected sequence of length {} at dim {depth} (got {got})",
            shape[depth]
        ),
    )
}

/// A dtype argument (`torch.float32`, or Python's `float`/`int`/`bool`).
pub(crate) fn dtype_arg(v: &Value) -> PyResult<Option<DType>> {
    if v.is_none() {
        return Ok(None);
    }
    if let Some(d) = v.downcast::<PyDType>() {
        return Ok(Some(d.0));
    }
    if let Value::Class(c) = v {
        match &*c.name {
            "float" => return Ok(Some(DType::Float64)),
            "int" => return Ok(Some(DType::Int64)),
            "bool" => return Ok(Some(DType::Bool)),
            _ => {}
        }
    }
    Err(PyException::new(
        ExcType::TypeError,
        format!(
            "argument 'dtype' must be torch.dtype, not {}",
            v.type_name()
        ),
    ))
}

/// A device argument (`'cuda'`, `'cuda:1'`, `torch.device(...)`, `0`).
pub(crate) fn device_spec(v: &Value) -> PyResult<Option<DeviceSpec>> {
    if v.is_none() {
        return Ok(None);
    }
    if let Some(s) = v.as_str() {
        return DeviceSpec::parse(s).map(Some).map_err(py_err);
    }
    if let Some(d) = v.downcast::<PyDevice>() {
        return Ok(Some(d.0));
    }
    if let Value::Int(i) = v {
        return DeviceSpec::new("cuda", Some(*i)).map(Some).map_err(py_err);
    }
    Err(PyException::new(
        ExcType::TypeError,
        format!(
            "Device() received an invalid combination of arguments - got ({})",
            v.type_name()
        ),
    ))
}

pub(crate) fn device_arg(rt: &Runtime, v: Option<&Value>) -> PyResult<Option<Device>> {
    match v {
        None => Ok(None),
        Some(v) => match device_spec(v)? {
            None => Ok(None),
            Some(s) => rt.resolve_device(&s).map(Some).map_err(py_err),
        },
    }
}

/// A size given as `2, 3`, `(2, 3)`, `[2, 3]` or a torch.Size.
pub(crate) fn shape_from(it: &mut Interpreter, items: &[Value]) -> PyResult<Vec<i64>> {
    let items: Vec<Value> = if items.len() == 1 {
        match &items[0] {
            Value::List(_) | Value::Tuple(_) => items[0].as_vec().unwrap_or_default(),
            v if v.downcast::<PySize>().is_some() => v
                .downcast::<PySize>()
                .unwrap()
                .0
                .iter()
                .map(|&d| Value::Int(d as i64))
                .collect(),
            _ => items.to_vec(),
        }
    } else {
        items.to_vec()
    };
    let mut out = Vec::new();
    for v in &items {
        out.push(int_arg(it, v)?);
    }
    Ok(out)
}

pub(crate) fn size_from(it: &mut Interpreter, items: &[Value]) -> PyResult<Vec<usize>> {
    let s = shape_from(it, items)?;
    if let Some(neg) = s.iter().find(|d| **d < 0) {
        return Err(PyException::new(
            ExcType::RuntimeError,
            format!(
                "Trying to create tensor with negative dimension {neg}: [{}]",
                s.iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    Ok(s.into_iter().map(|d| d as usize).collect())
}

/// `dim=` arguments: an int or a tuple of ints.
pub(crate) fn dims_arg(it: &mut Interpreter, v: &Option<Value>) -> PyResult<Option<Vec<i64>>> {
    match v {
        None => Ok(None),
        Some(Value::None) => Ok(None),
        Some(Value::List(_)) | Some(Value::Tuple(_)) => {
            let items = v.as_ref().unwrap().as_vec().unwrap_or_default();
            let mut out = Vec::new();
            for x in &items {
                out.push(int_arg(it, x)?);
            }
            Ok(Some(out))
        }
        Some(x) => Ok(Some(vec![int_arg(it, x)?])),
    }
}

pub(crate) fn truthy_opt(it: &mut Interpreter, v: &Option<Value>, default: bool) -> PyResult<bool> {
    match v {
        None => Ok(default),
        Some(x) => it.truthy(x),
    }
}

/// Convert a subscript into engine index items.
pub(crate) fn index_items(
    it: &mut Interpreter,
    rt: &Rc<Runtime>,
    key: &Value,
) -> PyResult<Vec<TensorIndex>> {
    let mut out = Vec::new();
    for p in &key.subscript_items() {
        out.push(match p {
            Value::None => TensorIndex::None,
            Value::Ellipsis => TensorIndex::Ellipsis,
            Value::Bool(b) => {
                let t = rt
                    .tensor(&[Scalar::Bool(*b)], vec![], None, Device::Cpu)
                    .map_err(py_err)?;
                TensorIndex::Tensor(t)
            }
            Value::Int(i) => TensorIndex::Int(*i),
            Value::BigInt(_) => return Err(check_long(p).unwrap_err()),
            // Slice bounds clamp, as PySlice_Unpack does.
            Value::Slice(s) => {
                let [start, stop, step] = it.slice_ints(s)?;
                TensorIndex::Slice(start, stop, step)
            }
            // a range indexes like the list of its ints (PyTorch treats it as a sequence)
            Value::Range(r) => {
                if r.len() > 1 << 27 {
                    return Err(PyException::new(
                        ExcType::RuntimeError,
                        "cudatutor: a range index longer than 2**27 items is not supported",
                    ));
                }
                let vals: Vec<Scalar> = (0..r.len())
                    .map(|i| Scalar::Int(r.get(i).unwrap_or(0)))
                    .collect();
                let t = rt
                    .tensor(&vals, vec![vals.len()], Some(DType::Int64), Device::Cpu)
                    .map_err(py_err)?;
                TensorIndex::Tensor(t)
            }
            Value::List(_) => {
                let (vals, shape, _) = flatten_data(p)?;
                let t = rt.tensor(&vals, shape, None, Device::Cpu).map_err(py_err)?;
                TensorIndex::Tensor(t)
            }
            other => match (tensor_of(other), other.downcast::<crate::numpy::NdArray>()) {
                (Some(t), _) => TensorIndex::Tensor(t),
                // a numpy array indexes like the tensor of its values (integer or boolean)
                (None, Some(a)) => TensorIndex::Tensor(a.copy_as(a.dtype())?.to_tensor()?),
                (None, None) => TensorIndex::Int(int_arg(it, other)?),
            },
        });
    }
    Ok(out)
}

/// Parse the arguments of `.to(...)`: (device, dtype, non_blocking, copy).
pub(crate) fn to_args(
    rt: &Runtime,
    args: &Args,
) -> PyResult<(Option<Device>, Option<DType>, bool, bool)> {
    let mut device = None;
    let mut dtype = None;
    let mut non_blocking = false;
    let mut copy = false;
    for (i, v) in args.positional.iter().enumerate() {
        if let Some(t) = tensor_of(v) {
            device = Some(t.device());
            dtype = Some(t.dtype());
        } else if v.downcast::<PyDType>().is_some() {
            dtype = dtype_arg(v)?;
        } else if let (true, Some(b)) = (i > 0, v.as_bool()) {
            non_blocking = b;
        } else {
            device = device_arg(rt, Some(v))?;
        }
    }
    for (k, v) in &args.keywords {
        match k.as_str() {
            "device" => device = device_arg(rt, Some(v))?,
            "dtype" => dtype = dtype_arg(v)?,
            "non_blocking" => non_blocking = v.as_bool().unwrap_or(false),
            "copy" => copy = v.as_bool().unwrap_or(false),
            "memory_format" => {}
            _ => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!("to() got an unexpected keyword argument '{k}'"),
                ));
            }
        }
    }
    Ok((device, dtype, non_blocking, copy))
}
