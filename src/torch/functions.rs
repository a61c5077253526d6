//! `torch.*` and `torch.nn.functional.*` functions.

use super::PyTensor;
use super::objects::{GradMode, PyDType, PyDevice, PySize};
use super::tensor::max_like;
use super::{
    at_line, device_arg, device_spec, dims_arg, dtype_arg, flatten_data, need_tensor, operand_of,
    py_err, scalar_of, size_from, tensor_of, truthy_opt, wrap,
};
use crate::engine::backend::TernaryOp;
use crate::engine::dtype::{Scalar, default_float};
use crate::engine::tensor::LossOp;
use crate::engine::{
    BinaryOp, DType, Device, DeviceSpec, Operand, Reduction, Runtime, Tensor, UnaryOp,
};
use crate::script::ExcType;
use crate::script::StructSeq;
use crate::script::{Args, Interpreter, Module, PyException, PyResult, Value};
use std::rc::Rc;

type F = fn(&mut Interpreter, &Rc<Runtime>, Args) -> PyResult<Value>;

fn reg(m: &Module, rt: &Rc<Runtime>, name: &str, f: F) {
    let rt = rt.clone();
    m.add_fn(name, move |it, mut args| {
        at_line(&rt, it);
        super::numpy_aliases(&mut args);
        f(it, &rt, args)
    });
}

fn nonneg(v: i64, what: &str) -> PyResult<usize> {
    if v < 0 {
        return Err(PyException::new(
            ExcType::RuntimeError,
            match what {
                // conv2d words its argument errors as ATen's check_shape_forward does
                "conv stride" => "non-positive stride is not supported".to_string(),
                "conv padding" => "negative padding is not supported".to_string(),
                "conv dilation" => "dilation should be greater than zero".to_string(),
                "conv groups" => "non-positive groups is not supported".to_string(),
                _ => format!("{what} must be non-negative, but got {v}"),
            },
        ));
    }
    Ok(v as usize)
}

/// An int or a pair of ints (`_pair` in torch.nn.modules.utils); `default` when absent.
fn pair_arg(
    it: &mut Interpreter,
    v: &Option<Value>,
    what: &str,
    default: (usize, usize),
) -> PyResult<(usize, usize)> {
    match v {
        None | Some(Value::None) => Ok(default),
        Some(Value::Tuple(_)) | Some(Value::List(_)) => {
            let items = v.as_ref().unwrap().as_vec().unwrap_or_default();
            match items.len() {
                0 => Ok(default),
                1 => {
                    let a = nonneg(super::int_arg(it, &items[0])?, what)?;
                    Ok((a, a))
                }
                _ => Ok((
                    nonneg(super::int_arg(it, &items[0])?, what)?,
                    nonneg(super::int_arg(it, &items[1])?, what)?,
                )),
            }
        }
        Some(x) => {
            let a = nonneg(super::int_arg(it, x)?, what)?;
            Ok((a, a))
        }
    }
}

/// A pooling argument read as `_pair` reads it, signs unchecked: [`pool_checks`] checks them
/// in ATen's order.
fn pair_i64(it: &mut Interpreter, v: &Option<Value>, default: (i64, i64)) -> PyResult<(i64, i64)> {
    match v {
        None | Some(Value::None) => Ok(default),
        Some(Value::Tuple(_)) | Some(Value::List(_)) => {
            let items = v.as_ref().unwrap().as_vec().unwrap_or_default();
            match items.len() {
                0 => Ok(default),
                1 => {
                    let a = super::int_arg(it, &items[0])?;
                    Ok((a, a))
                }
                _ => Ok((
                    super::int_arg(it, &items[0])?,
                    super::int_arg(it, &items[1])?,
                )),
            }
        }
        Some(x) => {
            let a = super::int_arg(it, x)?;
            Ok((a, a))
        }
    }
}

/// The checks of max_pool2d / avg_pool2d that come before the input's sizes, in ATen's order
/// (the input's rank, then pooling_output_shape for height and width, then the signs in
/// pool2d_shape_check); the engine checks the rest. Returns the arguments as sizes.
#[allow(clippy::type_complexity)]
fn pool_checks(
    x: &crate::engine::tensor::Tensor,
    kernel: (i64, i64),
    stride: (i64, i64),
    padding: (i64, i64),
    dilation: (i64, i64),
) -> PyResult<(
    (usize, usize),
    (usize, usize),
    (usize, usize),
    (usize, usize),
)> {
    let rt_err = |m: String| PyException::new(ExcType::RuntimeError, m);
    if !(x.dim() == 3 || x.dim() == 4) {
        return Err(rt_err(
            "non-empty 3D or 4D (batch mode) tensor expected for input".to_string(),
        ));
    }
    for (k, s, p, d) in [
        (kernel.0, stride.0, padding.0, dilation.0),
        (kernel.1, stride.1, padding.1, dilation.1),
    ] {
        if s == 0 {
            return Err(rt_err("stride should not be zero".to_string()));
        }
        if p < 0 {
            return Err(rt_err(format!(
                "pad must be non-negative, but got pad: {p}"
            )));
        }
        let effective = k.saturating_sub(1).saturating_mul(d).saturating_add(1) / 2;
        if p > effective {
            return Err(rt_err(format!(
                "pad should be at most half of effective kernel size, but got pad={p}, kernel_size={k} and dilation={d}"
            )));
        }
    }
    if kernel.0 <= 0 || kernel.1 <= 0 {
        return Err(rt_err(format!(
            "kernel size should be greater than zero, but got kH: {} kW: {}",
            kernel.0, kernel.1
        )));
    }
    if stride.0 <= 0 || stride.1 <= 0 {
        return Err(rt_err(format!(
            "stride should be greater than zero, but got dH: {} dW: {}",
            stride.0, stride.1
        )));
    }
    if dilation.0 <= 0 || dilation.1 <= 0 {
        return Err(rt_err(format!(
            "dilation should be greater than zero, but got dilationH: {} dilationW: {}",
            dilation.0, dilation.1
        )));
    }
    let u = |v: (i64, i64)| (v.0 as usize, v.1 as usize);
    Ok((u(kernel), u(stride), u(padding), u(dilation)))
}

/// Common creation keywords: (dtype, device, requires_grad).
fn creation_kw(
    rt: &Runtime,
    a: &[Option<Value>],
    it: &mut Interpreter,
) -> PyResult<(Option<DType>, Device, bool)> {
    let dt = match &a[0] {
        Some(v) => dtype_arg(v)?,
        None => None,
    };
    let dev = device_arg(rt, a[1].as_ref())?.unwrap_or(Device::Cpu);
    let rg = truthy_opt(it, &a[2], false)?;
    Ok((dt, dev, rg))
}

fn finish(rt: &Rc<Runtime>, mut t: Tensor, rg: bool) -> PyResult<Value> {
    if rg && !t.dtype().is_floating_point() {
        // a factory's requires_grad=True says it capitalised (the setter does not)
        return Err(PyException::new(
            ExcType::RuntimeError,
            "Only Tensors of floating point and complex dtype can require gradients",
        ));
    }
    if rg {
        t.set_requires_grad(true).map_err(py_err)?;
    }
    Ok(wrap(rt, t))
}

const CREATE: [&str; 6] = [
    "*size",
    "dtype",
    "device",
    "requires_grad",
    "out",
    "pin_memory",
];

fn sized(
    it: &mut Interpreter,
    rt: &Rc<Runtime>,
    args: &Args,
    fname: &str,
) -> PyResult<(Vec<usize>, Option<DType>, Device, bool)> {
    // `torch.rand(size=(2, 3))`: the size as a keyword
    let mut args = args.clone();
    if let Some(s) = args.take_kw("size") {
        if !args.positional.is_empty() {
            return Err(PyException::new(
                ExcType::TypeError,
                format!("{fname}() got multiple values for argument 'size'"),
            ));
        }
        args.positional = match s.as_vec() {
            Some(v) => v,
            None => vec![s],
        };
    }
    let mut a = args.bind(fname, &CREATE, 0)?;
    let items = a[0].take().and_then(|v| v.as_vec()).unwrap_or_default();
    let size = size_from(it, &items)?;
    let (dt, dev, rg) = creation_kw(rt, &a[1..4], it)?;
    Ok((size, dt, dev, rg))
}

fn like(
    it: &mut Interpreter,
    rt: &Rc<Runtime>,
    args: &Args,
    fname: &str,
) -> PyResult<(Tensor, Option<DType>, Device, bool)> {
    let a = args.bind(
        fname,
        &["input", "dtype", "device", "requires_grad", "memory_format"],
        1,
    )?;
    let t = need_tensor(a[0].as_ref().unwrap(), fname, "input")?;
    let (dt, dev, rg) = creation_kw(rt, &a[1..4], it)?;
    let dev = if a[2].as_ref().is_some_and(|v| !v.is_none()) {
        dev
    } else {
        t.device()
    };
    Ok((t.clone(), Some(dt.unwrap_or(t.dtype())), dev, rg))
}

/// torch/nn/functional.py's warning for a target whose size differs from the input's.
pub(crate) fn size_warning(x: &Tensor, y: &Tensor) -> String {
    let size = |t: &Tensor| crate::engine::tensor::size_repr(t.shape());
    format!(
        "Using a target size ({}) that is different to the input size ({}). This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.",
        size(y),
        size(x)
    )
}

fn reduction_arg(v: &Option<Value>) -> PyResult<Reduction> {
    match v.as_ref().and_then(|v| v.as_str()) {
        None => Ok(Reduction::Mean),
        Some(s) => Reduction::parse(s).map_err(py_err),
    }
}

fn unary_fn(
    it: &mut Interpreter,
    rt: &Rc<Runtime>,
    args: Args,
    op: UnaryOp,
    fname: &str,
) -> PyResult<Value> {
    let a = args.bind(fname, &["input", "inplace"], 1)?;
    let input = a[0].as_ref().unwrap();
    let t = need_tensor(input, fname, "input")?;
    if let Some(flag) = &a[1]
        && it.truthy(flag)?
    {
        // F.relu(x, inplace=True) is torch.relu_(x): the tensor's own in-place method
        let method = it.getattr(input, &format!("{fname}_"))?;
        return it.call(&method, Args::default());
    }
    Ok(wrap(rt, rt.unary(op, &t).map_err(py_err)?))
}

type SoftmaxOp = fn(&Runtime, &Tensor, i64, Option<DType>) -> crate::engine::Result<Tensor>;

/// `softmax` / `log_softmax(input, dim=None, _stacklevel=3, dtype=None)`. Without `dim`,
/// PyTorch's legacy rule (`_get_softmax_dim`): 0 for 0-, 1- and 3-d inputs, else 1.
fn softmax_fn(
    it: &mut Interpreter,
    rt: &Rc<Runtime>,
    args: Args,
    fname: &str,
    op: SoftmaxOp,
) -> PyResult<Value> {
    let a = args.bind(fname, &["input", "dim", "_stacklevel", "dtype"], 1)?;
    let t = need_tensor(a[0].as_ref().unwrap(), fname, "input")?;
    let d = match &a[1] {
        Some(v) if !v.is_none() => crate::torch::int_arg(it, v)?,
        _ => {
            super::warn(
                it,
                &format!(
                    "Implicit dimension choice for {fname} has been deprecated. Change the call to include dim=X as an argument."
                ),
                false,
            )?;
            if t.dim() <= 1 || t.dim() == 3 { 0 } else { 1 }
        }
    };
    let dt = match &a[3] {
        Some(v) => dtype_arg(v)?,
        None => None,
    };
    Ok(wrap(rt, op(rt, &t, d, dt).map_err(py_err)?))
}

/// `torch.atan2(input, other)` and the other plain binary functions.
fn binary_plain(rt: &Rc<Runtime>, args: Args, op: BinaryOp) -> PyResult<Value> {
    let a = args.bind(op.name(), &["input", "other"], 2)?;
    let x = operand_of(a[0].as_ref().unwrap())?.ok_or_else(|| {
        PyException::new(
            ExcType::TypeError,
            format!("{}(): argument 'input' must be Tensor", op.name()),
        )
    })?;
    let y = operand_of(a[1].as_ref().unwrap())?.ok_or_else(|| {
        PyException::new(
            ExcType::TypeError,
            format!("{}(): argument 'other' must be Tensor", op.name()),
        )
    })?;
    Ok(wrap(rt, rt.binary(op, &x, &y).map_err(py_err)?))
}

/// The op of `div(..., rounding_mode=)`: true division, trunc or floor (PyTorch's message
/// for any other value).
pub(crate) fn div_mode(mode: Option<&Value>) -> PyResult<BinaryOp> {
    match mode {
        None | Some(Value::None) => Ok(BinaryOp::Div),
        Some(Value::Str(s)) if &**s == "trunc" => Ok(BinaryOp::TruncDiv),
        Some(Value::Str(s)) if &**s == "floor" => Ok(BinaryOp::FloorDiv),
        Some(Value::Str(s)) => Err(PyException::new(
            ExcType::RuntimeError,
            format!(
                "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{s}'"
            ),
        )),
        Some(_) => Err(PyException::new(
            ExcType::TypeError,
            "div(): argument 'rounding_mode' must be str or None",
        )),
    }
}

/// `torch.lerp(input, end, weight, *, out=None)`, `torch.addcmul(input, tensor1, tensor2, *,
/// value=1, out=None)`, `torch.addcdiv(...)`.
fn ternary_fn(rt: &Rc<Runtime>, args: Args, op: TernaryOp, name: &str) -> PyResult<Value> {
    let params: &[&str] = if op == TernaryOp::Lerp {
        &["input", "end", "weight", "value", "out"]
    } else {
        &["input", "tensor1", "tensor2", "value", "out"]
    };
    let a = args.bind(name, params, 3)?;
    let x = need_tensor(a[0].as_ref().unwrap(), name, "input")?;
    let value = if op == TernaryOp::Lerp {
        None
    } else {
        a[3].as_ref()
    };
    let (b, c, v) = super::ternary_operands(op, a[1].as_ref(), a[2].as_ref(), value, name)?;
    let r = rt.ternary(op, &x, &b, &c, v).map_err(py_err)?;
    write_out(rt, a[4].as_ref(), r)
}

fn binary_fn(rt: &Rc<Runtime>, args: Args, op: BinaryOp, fname: &str) -> PyResult<Value> {
    let a = args.bind(fname, &["input", "other", "alpha", "out"], 2)?;
    let x = operand_of(a[0].as_ref().unwrap())?.ok_or_else(|| {
        PyException::new(
            ExcType::TypeError,
            format!("{fname}(): argument 'input' must be Tensor"),
        )
    })?;
    let y = operand_of(a[1].as_ref().unwrap())?.ok_or_else(|| {
        PyException::new(
            ExcType::TypeError,
            format!("{fname}(): argument 'other' must be Tensor"),
        )
    })?;
    let alpha = super::alpha_of(a[2].as_ref(), fname)?;
    let r = rt.binary_alpha(op, &x, &y, alpha).map_err(py_err)?;
    write_out(rt, a[3].as_ref(), r)
}

/// conv2d's `padding='valid'` (none) and `padding='same'` (ATen's _convolution_mode: half of
/// `dilation * (kernel - 1)` on each side). A weight that is not 4-D keeps padding 0 so that the
/// convolution raises PyTorch's shape error.
fn conv2d_string_padding(
    mode: &str,
    x: &Tensor,
    w: &Tensor,
    stride: (usize, usize),
    dilation: (usize, usize),
    groups: i64,
) -> PyResult<(usize, usize)> {
    match mode {
        "valid" => Ok((0, 0)),
        "same" => {
            if stride != (1, 1) {
                return Err(PyException::new(
                    ExcType::RuntimeError,
                    "padding='same' is not supported for strided convolutions",
                ));
            }
            // the convolution's own checks come before the padding: the groups, then
            // check_shape_forward's dimensions
            if groups <= 0 {
                return Err(PyException::new(
                    ExcType::RuntimeError,
                    "non-positive groups is not supported",
                ));
            }
            if w.dim() != x.dim() && w.dim() >= 3 {
                return Err(PyException::new(
                    ExcType::RuntimeError,
                    format!(
                        "Expected {wd}-dimensional input for {wd}-dimensional weight{:?}, but got {}-dimensional input of size {:?} instead",
                        w.shape(),
                        x.dim(),
                        x.shape(),
                        wd = w.dim()
                    ),
                ));
            }
            if w.dim() != 4 {
                return Ok((0, 0));
            }
            let total = |k: usize, d: usize| d * k.saturating_sub(1);
            let (th, tw) = (
                total(w.shape()[2], dilation.0),
                total(w.shape()[3], dilation.1),
            );
            if th % 2 == 1 || tw % 2 == 1 {
                return Err(PyException::new(
                    ExcType::NotImplementedError,
                    "cudatutor: conv2d padding='same' with an even kernel extent (asymmetric padding) is not supported yet",
                ));
            }
            Ok((th / 2, tw / 2))
        }
        _ => Err(PyException::new(
            ExcType::RuntimeError,
            format!("Invalid padding string: '{mode}'"),
        )),
    }
}

/// The result `r` of a function called with `out=`: written into that tensor (which is
/// returned, as PyTorch returns `out`); `r` itself without one.
pub(crate) fn write_out(rt: &Rc<Runtime>, out: Option<&Value>, r: Tensor) -> PyResult<Value> {
    let Some(o) = out.filter(|v| !v.is_none()) else {
        return Ok(wrap(rt, r));
    };
    let dst = need_tensor(o, "out", "out")?;
    let (rd, od) = (r.dtype(), dst.dtype());
    if rd.category() > od.category() {
        return Err(PyException::new(
            ExcType::RuntimeError,
            format!(
                "result type {} can't be cast to the desired output type {}",
                rd.scalar_name(),
                od.scalar_name()
            ),
        ));
    }
    if dst.shape() != r.shape() {
        return Err(PyException::new(
            ExcType::NotImplementedError,
            format!(
                "cudatutor: out= of shape {} for a result of shape {} (PyTorch resizes it) is not supported yet",
                crate::engine::tensor::size_repr(dst.shape()),
                crate::engine::tensor::size_repr(r.shape())
            ),
        ));
    }
    rt.copy_(&dst, &r, "copy_").map_err(py_err)?;
    Ok(o.clone())
}

fn tensor_list(it: &mut Interpreter, v: &Value, fname: &str) -> PyResult<Vec<Tensor>> {
    let items = it.iterate(v)?;
    items
        .iter()
        .enumerate()
        .map(|(i, x)| {
            tensor_of(x).ok_or_else(|| {
                PyException::new(
                    ExcType::TypeError,
                    format!(
                        "expected Tensor as element {i} in argument 0, but got {}",
                        x.type_name()
                    ),
                )
            })
        })
        .collect::<PyResult<Vec<_>>>()
        .inspect_err(|_e| {
            let _ = fname;
        })
}

fn loss_fn(
    it: &mut Interpreter,
    rt: &Rc<Runtime>,
    args: Args,
    fname: &str,
    ce: bool,
) -> PyResult<Value> {
    let a = args.bind(
        fname,
        &[
            "input",
            "target",
            "weight",
            "size_average",
            "ignore_index",
            "reduce",
            "reduction",
            "label_smoothing",
        ],
        2,
    )?;
    let x = need_tensor(a[0].as_ref().unwrap(), fname, "input")?;
    let t = need_tensor(a[1].as_ref().unwrap(), fname, "target")?;
    let w = a[2].as_ref().and_then(tensor_of);
    let ii = match &a[4] {
        Some(v) => crate::torch::int_arg(it, v)?,
        None => -100,
    };
    let red = reduction_arg(&a[6])?;
    if let Some(ls) = a[7].as_ref().and_then(|v| v.as_float())
        && ls != 0.0
    {
        return Err(PyException::new(
            ExcType::NotImplementedError,
            "cudatutor does not support label_smoothing yet",
        ));
    }
    let r = if ce {
        rt.cross_entropy(&x, &t, w.as_ref(), ii, red)
    } else {
        rt.nll_loss(&x, &t, w.as_ref(), ii, red)
    };
    Ok(wrap(rt, r.map_err(py_err)?))
}

fn add_dtypes(m: &Module) {
    for (n, d) in crate::binding::dtype_names(crate::binding::Library::Torch) {
        m.set_attr(n, Value::native(PyDType(d)));
    }
    for n in super::objects::MEMORY_FORMATS {
        m.set_attr(n, Value::native(super::objects::PyMemoryFormat(n)));
    }
}

/// The `torch` module.
pub(super) fn torch_module(it: &mut Interpreter, rt: &Rc<Runtime>) -> PyResult<Value> {
    let m = Module::new("torch");
    add_dtypes(&m);
    // the wheel the lessons describe (torch.version.cuda is its CUDA)
    m.set_attr("__version__", Value::str("2.15.0+cu132"));
    super::cuda::add_cuda_error_classes(it, &m);
    let tcls = it.native_class("Tensor");
    let r = rt.clone();
    let ctor = Value::native_fn("Tensor", move |it, args| {
        at_line(&r, it);
        if args.positional.len() == 1
            && (matches!(args.positional[0], Value::List(_) | Value::Tuple(_))
                || args.positional[0]
                    .downcast::<crate::numpy::NdArray>()
                    .is_some())
        {
            let (vals, shape, _) = flatten_data(&args.positional[0])?;
            return Ok(wrap(
                &r,
                r.tensor(&vals, shape, Some(DType::Float32), Device::Cpu)
                    .map_err(py_err)?,
            ));
        }
        let s = size_from(it, &args.positional)?;
        Ok(wrap(
            &r,
            r.empty(&s, Some(DType::Float32), Device::Cpu)
                .map_err(py_err)?,
        ))
    });
    it.set_class_ctor(&tcls, ctor);
    m.set_attr("Tensor", Value::Class(tcls));
    reg(&m, rt, "tensor", |it, rt, args| {
        let a = args.bind(
            "tensor",
            &["data", "dtype", "device", "requires_grad", "pin_memory"],
            1,
        )?;
        if let Some(src) = tensor_of(a[0].as_ref().unwrap()) {
            // torch.tensor(t): a detached copy, with PyTorch's advice
            super::warn(
                it,
                "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).",
                false,
            )?;
            let (dt, _, rg) = creation_kw(rt, &a[1..4], it)?;
            let dev = device_arg(rt, a[2].as_ref())?;
            let t = rt
                .to(&src.detach(), dev, dt, false, true, "tensor")
                .map_err(py_err)?;
            return finish(rt, t, rg);
        }
        let np_dt = super::numpy_dtype(a[0].as_ref().unwrap());
        let (vals, shape, inner_dt) = flatten_data(a[0].as_ref().unwrap())?;
        let (dt, dev, rg) = creation_kw(rt, &a[1..4], it)?;
        let dt = dt.or(np_dt).or(
            if inner_dt.is_some() && vals.iter().all(|v| !matches!(v, Scalar::Float(_))) {
                inner_dt
            } else {
                None
            },
        );
        let t = rt.tensor(&vals, shape, dt, dev).map_err(py_err)?;
        let t = if truthy_opt(it, &a[4], false)? {
            rt.pin_memory(&t).map_err(py_err)?
        } else {
            t
        };
        finish(rt, t, rg)
    });
    reg(&m, rt, "as_tensor", |it, rt, args| {
        let a = args.bind("as_tensor", &["data", "dtype", "device"], 1)?;
        if let Some(t) = tensor_of(a[0].as_ref().unwrap()) {
            let dt = match &a[1] {
                Some(v) => dtype_arg(v)?,
                None => None,
            };
            let dev = device_arg(rt, a[2].as_ref())?;
            return Ok(wrap(
                rt,
                rt.to(&t, dev, dt, false, false, "as_tensor")
                    .map_err(py_err)?,
            ));
        }
        if let Some(arr) = a[0].as_ref().unwrap().downcast::<crate::numpy::NdArray>() {
            // as_tensor(ndarray) shares the array's memory (a copy only for another dtype or
            // device), as torch.from_numpy does
            let t = arr.to_tensor()?;
            let dt = match &a[1] {
                Some(v) => dtype_arg(v)?,
                None => None,
            };
            let dev = device_arg(rt, a[2].as_ref())?;
            if dt.is_none_or(|d| d == t.dtype()) && dev.is_none_or(|d| d == Device::Cpu) {
                return Ok(wrap(rt, t));
            }
            return Ok(wrap(
                rt,
                rt.to(&t, dev, dt, false, false, "as_tensor")
                    .map_err(py_err)?,
            ));
        }
        let np_dt = super::numpy_dtype(a[0].as_ref().unwrap());
        let (vals, shape, _) = flatten_data(a[0].as_ref().unwrap())?;
        let (dt, dev, _) = creation_kw(rt, &[a[1].clone(), a[2].clone(), None], it)?;
        let dt = dt.or(np_dt);
        Ok(wrap(rt, rt.tensor(&vals, shape, dt, dev).map_err(py_err)?))
    });
    reg(&m, rt, "from_numpy", |_it, rt, args| {
        let a = args.exact("from_numpy", 1)?;
        let Some(arr) = a[0].downcast::<crate::numpy::NdArray>() else {
            return Err(PyException::new(
                ExcType::TypeError,
                format!("expected np.ndarray (got {})", a[0].type_name()),
            ));
        };
        Ok(wrap(rt, arr.to_tensor()?))
    });
    reg(&m, rt, "zeros", |it, rt, args| {
        let (s, dt, dev, rg) = sized(it, rt, &args, "zeros")?;
        finish(rt, rt.zeros(&s, dt, dev).map_err(py_err)?, rg)
    });
    reg(&m, rt, "ones", |it, rt, args| {
        let (s, dt, dev, rg) = sized(it, rt, &args, "ones")?;
        finish(rt, rt.ones(&s, dt, dev).map_err(py_err)?, rg)
    });
    reg(&m, rt, "empty", |it, rt, args| {
        let (s, dt, dev, rg) = sized(it, rt, &args, "empty")?;
        finish(rt, rt.empty(&s, dt, dev).map_err(py_err)?, rg)
    });
    reg(&m, rt, "rand", |it, rt, mut args| {
        let g = generator_kw(&mut args)?;
        let (s, dt, dev, rg) = sized(it, rt, &args, "rand")?;
        finish(rt, rt.rand(&s, dt, dev, g.as_ref()).map_err(py_err)?, rg)
    });
    reg(&m, rt, "randn", |it, rt, mut args| {
        let g = generator_kw(&mut args)?;
        let (s, dt, dev, rg) = sized(it, rt, &args, "randn")?;
        finish(rt, rt.randn(&s, dt, dev, g.as_ref()).map_err(py_err)?, rg)
    });
    reg(&m, rt, "full", |it, rt, args| {
        let a = args.bind(
            "full",
            &["size", "fill_value", "dtype", "device", "requires_grad"],
            2,
        )?;
        let s = size_from(it, &[a[0].clone().unwrap()])?;
        super::check_long(a[1].as_ref().unwrap())?;
        let v = scalar_of(a[1].as_ref().unwrap()).ok_or_else(|| {
            PyException::new(
                ExcType::TypeError,
                "full(): argument 'fill_value' must be Number",
            )
        })?;
        let (dt, dev, rg) = creation_kw(rt, &a[2..5], it)?;
        finish(rt, rt.full(&s, v, dt, dev).map_err(py_err)?, rg)
    });
    reg(&m, rt, "randint", |it, rt, mut args| {
        let g = generator_kw(&mut args)?;
        let size_kw = args.take_kw("size");
        let mut pos = args.positional.clone();
        if let Some(s) = size_kw {
            pos.push(s);
        }
        let (low, high, size) = match pos.len() {
            2 => (0, crate::torch::int_arg(it, &pos[0])?, pos[1].clone()),
            3 => (
                crate::torch::int_arg(it, &pos[0])?,
                crate::torch::int_arg(it, &pos[1])?,
                pos[2].clone(),
            ),
            _ => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    "randint() received an invalid combination of arguments",
                ));
            }
        };
        let a = Args::with_keywords(vec![], args.keywords.clone()).bind(
            "randint",
            &["dtype", "device", "requires_grad"],
            0,
        )?;
        let s = size_from(it, &[size])?;
        let (dt, dev, rg) = creation_kw(rt, &a[0..3], it)?;
        finish(
            rt,
            rt.randint(low, high, &s, dt, dev, g.as_ref())
                .map_err(py_err)?,
            rg,
        )
    });
    reg(&m, rt, "randperm", |it, rt, mut args| {
        let g = generator_kw(&mut args)?;
        let a = args.bind(
            "randperm",
            &["n", "dtype", "device", "requires_grad", "pin_memory"],
            1,
        )?;
        let n = crate::torch::int_arg(it, a[0].as_ref().unwrap())?;
        let (dt, dev, rg) = creation_kw(rt, &a[1..4], it)?;
        finish(rt, rt.randperm(n, dt, dev, g.as_ref()).map_err(py_err)?, rg)
    });
    reg(&m, rt, "arange", |it, rt, args| {
        let mut a = args.bind(
            "arange",
            &["start", "end", "step", "dtype", "device", "requires_grad"],
            1,
        )?;
        let mut nums: Vec<Value> = a[..3].iter_mut().filter_map(|x| x.take()).collect();
        let float_args = nums.iter().any(|v| matches!(v, Value::Float(_)))
            || nums
                .iter()
                .any(|v| tensor_of(v).is_some_and(|t| t.dtype().is_floating_point()));
        let mut f = Vec::new();
        for v in nums.drain(..) {
            f.push(match v.as_float() {
                Some(x) => x,
                None => crate::torch::int_arg(it, &v)? as f64,
            });
        }
        let (start, end, step) = match f.len() {
            1 => (0.0, f[0], 1.0),
            2 => (f[0], f[1], 1.0),
            _ => (f[0], f[1], f[2]),
        };
        let (dt, dev, rg) = creation_kw(rt, &a[3..6], it)?;
        finish(
            rt,
            rt.arange(start, end, step, float_args, dt, dev)
                .map_err(py_err)?,
            rg,
        )
    });
    reg(&m, rt, "linspace", |it, rt, args| {
        let a = args.bind(
            "linspace",
            &["start", "end", "steps", "dtype", "device", "requires_grad"],
            3,
        )?;
        // tensor bounds must be 0-d (ATen's linspace), and steps non-negative
        let rank = |v: &Option<Value>| v.as_ref().and_then(tensor_of).map(|t| t.dim());
        let (rs, re) = (rank(&a[0]), rank(&a[1]));
        if rs.unwrap_or(0) > 0 || re.unwrap_or(0) > 0 {
            return Err(PyException::new(
                ExcType::RuntimeError,
                format!(
                    "linspace only supports 0-dimensional start and end tensors, but got start with {} dimension(s) and end with {} dimension(s).",
                    rs.unwrap_or(0),
                    re.unwrap_or(0)
                ),
            ));
        }
        // a bound is a number or a 0-d tensor's value
        let bound = |v: &Option<Value>| {
            v.as_ref()
                .and_then(|v| {
                    v.as_float().or_else(|| {
                        tensor_of(v).and_then(|t| t.scalars().ok()?.first().map(|s| s.as_f64()))
                    })
                })
                .unwrap_or(0.0)
        };
        let (s, e) = (bound(&a[0]), bound(&a[1]));
        let n = match crate::torch::int_arg(it, a[2].as_ref().unwrap()) {
            Ok(n) => n,
            Err(err) => {
                // PyTorch's argument parser words a bad `steps` (no overload takes it)
                if let Some(p) =
                    super::argparse::parser(super::argparse::Namespace::Torch, "linspace")
                {
                    let pos: Vec<Value> = a[..3].iter().flatten().cloned().collect();
                    p.parse(&pos, &[])?;
                }
                return Err(err);
            }
        };
        if n < 0 {
            return Err(PyException::new(
                ExcType::RuntimeError,
                "number of steps must be non-negative",
            ));
        }
        let (dt, dev, rg) = creation_kw(rt, &a[3..6], it)?;
        finish(
            rt,
            rt.linspace(s, e, n.max(0) as usize, dt, dev)
                .map_err(py_err)?,
            rg,
        )
    });
    reg(&m, rt, "zeros_like", |it, rt, args| {
        let (t, dt, dev, rg) = like(it, rt, &args, "zeros_like")?;
        finish(rt, rt.zeros(t.shape(), dt, dev).map_err(py_err)?, rg)
    });
    reg(&m, rt, "ones_like", |it, rt, args| {
        let (t, dt, dev, rg) = like(it, rt, &args, "ones_like")?;
        finish(rt, rt.ones(t.shape(), dt, dev).map_err(py_err)?, rg)
    });
    reg(&m, rt, "empty_like", |it, rt, args| {
        let (t, dt, dev, rg) = like(it, rt, &args, "empty_like")?;
        finish(rt, rt.empty(t.shape(), dt, dev).map_err(py_err)?, rg)
    });
    reg(&m, rt, "rand_like", |it, rt, args| {
        let (t, dt, dev, rg) = like(it, rt, &args, "rand_like")?;
        finish(rt, rt.rand(t.shape(), dt, dev, None).map_err(py_err)?, rg)
    });
    reg(&m, rt, "randn_like", |it, rt, args| {
        let (t, dt, dev, rg) = like(it, rt, &args, "randn_like")?;
        finish(rt, rt.randn(t.shape(), dt, dev, None).map_err(py_err)?, rg)
    });
    reg(&m, rt, "full_like", |it, rt, args| {
        let a = args.bind(
            "full_like",
            &["input", "fill_value", "dtype", "device", "requires_grad"],
            2,
        )?;
        let t = need_tensor(a[0].as_ref().unwrap(), "full_like", "input")?;
        super::check_long(a[1].as_ref().unwrap())?;
        let v = scalar_of(a[1].as_ref().unwrap()).ok_or_else(|| {
            PyException::new(
                ExcType::TypeError,
                "full_like(): argument 'fill_value' must be Number",
            )
        })?;
        let (dt, dev, rg) = creation_kw(rt, &a[2..5], it)?;
        let dev = if a[3].is_some() { dev } else { t.device() };
        finish(
            rt,
            rt.full(t.shape(), v, Some(dt.unwrap_or(t.dtype())), dev)
                .map_err(py_err)?,
            rg,
        )
    });
    reg(&m, rt, "manual_seed", |it, rt, args| {
        let a = args.bind("manual_seed", &["seed"], 1)?;
        let s = super::objects::seed_arg(it, a[0].as_ref().unwrap())?;
        rt.manual_seed(s);
        Ok(Value::Native(Rc::new(super::objects::PyGenerator {
            rt: rt.clone(),
            generator: rt.default_generator(),
        })))
    });
    reg(&m, rt, "initial_seed", |_, rt, _| {
        // a u64: fresh processes start from 64 random bits
        Ok(crate::script::bigint::from_i128(rt.initial_seed() as i128))
    });
    reg(&m, rt, "seed", |_, rt, _| {
        let s = super::objects::nondeterministic_seed();
        rt.manual_seed(s);
        Ok(crate::script::bigint::from_i128(s as i128))
    });
    reg(&m, rt, "get_rng_state", |_, rt, _| {
        super::objects::state_tensor(rt, &rt.cpu_rng_state())
    });
    reg(&m, rt, "set_rng_state", |_, rt, args| {
        let a = args.bind("set_rng_state", &["new_state"], 1)?;
        let b = super::objects::state_bytes(a[0].as_ref().unwrap(), "set_state")?;
        rt.set_cpu_rng_state(&b).map_err(py_err)?;
        Ok(Value::None)
    });
    reg(&m, rt, "Generator", |it, rt, args| {
        let a = args.bind("Generator", &["device"], 0)?;
        let dev = device_arg(rt, a[0].as_ref())?.unwrap_or(Device::Cpu);
        if dev != Device::Cpu {
            return Err(PyException::new(
                ExcType::RuntimeError,
                "cudatutor models torch.Generator objects on the CPU only (device='cpu')",
            ));
        }
        let _ = it;
        Ok(Value::Native(Rc::new(super::objects::PyGenerator {
            rt: rt.clone(),
            generator: Rc::new(std::cell::RefCell::new(
                crate::engine::random::CpuGenerator::default(),
            )),
        })))
    });
    reg(&m, rt, "bernoulli", |_, rt, mut args| {
        let g = generator_kw(&mut args)?;
        let a = args.bind("bernoulli", &["input", "p"], 1)?;
        let x = need_tensor(a[0].as_ref().unwrap(), "bernoulli", "input")?;
        let t = match a[1].as_ref().and_then(|v| v.as_float()) {
            Some(p) => rt
                .empty(x.shape(), Some(x.dtype()), x.device())
                .and_then(|t| {
                    rt.bernoulli_scalar_(&t, p, g.as_ref())?;
                    Ok(t)
                }),
            None => rt.bernoulli(&x, g.as_ref()),
        }
        .map_err(py_err)?;
        Ok(wrap(rt, t))
    });
    reg(&m, rt, "multinomial", |it, rt, mut args| {
        let g = generator_kw(&mut args)?;
        let a = args.bind("multinomial", &["input", "num_samples", "replacement"], 2)?;
        let x = need_tensor(a[0].as_ref().unwrap(), "multinomial", "input")?;
        let n = crate::torch::int_arg(it, a[1].as_ref().unwrap())?;
        let r = truthy_opt(it, &a[2], false)?;
        Ok(wrap(
            rt,
            rt.multinomial(&x, n, r, g.as_ref()).map_err(py_err)?,
        ))
    });
    reg(&m, rt, "normal", |it, rt, mut args| {
        let g = generator_kw(&mut args)?;
        let a = args.bind(
            "normal",
            &["mean", "std", "size", "dtype", "device", "requires_grad"],
            2,
        )?;
        let num = |v: &Option<Value>| v.as_ref().and_then(|v| v.as_float());
        let (Some(m), Some(s)) = (num(&a[0]), num(&a[1])) else {
            return Err(PyException::new(
                ExcType::NotImplementedError,
                "cudatutor models torch.normal(mean, std, size) with float mean and std only",
            ));
        };
        let size = match &a[2] {
            Some(v) => size_from(it, &v.as_vec().unwrap_or_default())?,
            None => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    "normal() received an invalid combination of arguments",
                ));
            }
        };
        let (dt, dev, rg) = creation_kw(rt, &a[3..6], it)?;
        let t = rt
            .empty(&size, dt, dev)
            .and_then(|t| {
                rt.normal_(&t, m, s, g.as_ref())?;
                Ok(t)
            })
            .map_err(py_err)?;
        finish(rt, t, rg)
    });
    reg(&m, rt, "is_tensor", |_, _, args| {
        Ok(Value::Bool(
            args.positional.first().and_then(tensor_of).is_some(),
        ))
    });
    reg(&m, rt, "numel", |_, _, args| {
        let t = need_tensor(
            args.positional.first().unwrap_or(&Value::None),
            "numel",
            "input",
        )?;
        Ok(Value::Int(t.numel() as i64))
    });
    reg(&m, rt, "get_default_dtype", |_, _, _| {
        Ok(Value::native(PyDType(default_float())))
    });
    reg(&m, rt, "set_default_dtype", |_, _, args| {
        let a = args.bind("set_default_dtype", &["d"], 1)?;
        let d = a[0].as_ref().unwrap();
        let Some(dt) = d.downcast::<PyDType>().map(|d| d.0) else {
            return Err(PyException::new(
                ExcType::TypeError,
                "invalid dtype object: only floating-point types are supported as the default type",
            ));
        };
        if !dt.is_floating_point() {
            return Err(PyException::new(
                ExcType::TypeError,
                "only floating-point types are supported as the default type",
            ));
        }
        crate::engine::dtype::set_default_float(dt);
        Ok(Value::None)
    });
    reg(&m, rt, "device", |it, _, args| {
        let a = args.bind("device", &["type", "index"], 1)?;
        let v = a[0].as_ref().unwrap();
        let idx = match &a[1] {
            Some(i) => Some(crate::torch::int_arg(it, i)?),
            None => None,
        };
        let spec = match (v.as_str(), idx) {
            (Some(s), i) => DeviceSpec::new(s, i).map_err(py_err)?,
            (None, None) => device_spec(v)?.unwrap_or(DeviceSpec::CPU),
            (None, Some(_)) => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    "device(): argument 'type' must be str",
                ));
            }
        };
        Ok(Value::native(PyDevice(spec)))
    });
    reg(&m, rt, "Size", |it, _, args| {
        let items = match args.positional.first() {
            Some(v) => it.iterate(v)?,
            None => Vec::new(),
        };
        let mut dims = Vec::new();
        for v in &items {
            dims.push(crate::torch::int_arg(it, v)?.max(0) as usize);
        }
        Ok(Value::native(PySize(dims)))
    });
    // torch.Size is a class (a tuple subclass): `isinstance(x.shape, torch.Size)` holds and
    // calling it builds one
    if let Some(f) = m.get_attr("Size") {
        let scls = it.native_class("Size");
        it.set_class_ctor(&scls, f);
        m.set_attr("Size", Value::Class(scls));
    }
    reg(&m, rt, "no_grad", |_, rt, _| {
        Ok(Value::native(GradMode::new(rt.clone(), false)))
    });
    reg(&m, rt, "enable_grad", |_, rt, _| {
        Ok(Value::native(GradMode::new(rt.clone(), true)))
    });
    reg(&m, rt, "is_inference_mode_enabled", |_it, rt, args| {
        args.exact("is_inference_mode_enabled", 0)?;
        Ok(Value::Bool(rt.inference_mode()))
    });
    reg(&m, rt, "inference_mode", |it, rt, args| {
        let a = args.bind("inference_mode", &["mode"], 0)?;
        let mode = truthy_opt(it, &a[0], true)?;
        Ok(Value::native(GradMode::inference_mode(rt.clone(), mode)))
    });
    reg(&m, rt, "set_grad_enabled", |it, rt, args| {
        let a = args.bind("set_grad_enabled", &["mode"], 1)?;
        let on = it.truthy(a[0].as_ref().unwrap())?;
        Ok(Value::native(GradMode::set_now(rt.clone(), on)))
    });
    reg(&m, rt, "set_printoptions", |it, _rt, args| {
        use crate::binding::print_counts::{COUNT_PARAMS, print_counts};
        use crate::engine::print::{PrintOptions, print_options, set_print_options};
        let params = [COUNT_PARAMS.as_slice(), &["profile", "sci_mode"]].concat();
        let a = args.bind("set_printoptions", &params, 0)?;
        let mut o = print_options();
        if let Some(p) = a[4].as_ref().filter(|v| !v.is_none()) {
            let base = PrintOptions::default();
            o = match p.as_str().unwrap_or_default() {
                "short" => PrintOptions {
                    precision: 2,
                    edgeitems: 2,
                    ..base
                },
                "full" => PrintOptions {
                    threshold: usize::MAX,
                    ..base
                },
                _ => base,
            };
        }
        let counts = print_counts(it, &a, |it, v| match v {
            // threshold=float('inf') (or sys.maxsize) prints everything
            Value::Float(f) if f.is_infinite() && *f > 0.0 => Ok(usize::MAX),
            v => Ok(crate::torch::int_arg(it, v)?.max(0) as usize),
        })?;
        o.precision = counts.precision.map_or(o.precision, |p| p.min(60));
        o.threshold = counts.threshold.unwrap_or(o.threshold);
        o.edgeitems = counts.edgeitems.unwrap_or(o.edgeitems);
        o.linewidth = counts.linewidth.unwrap_or(o.linewidth);
        o.sci_mode = match &a[5] {
            None | Some(Value::None) => None,
            Some(v) => Some(it.truthy(v)?),
        };
        set_print_options(o);
        Ok(Value::None)
    });
    reg(&m, rt, "is_grad_enabled", |_, rt, _| {
        Ok(Value::Bool(rt.grad_enabled()))
    });
    reg(&m, rt, "cat", |it, rt, args| {
        let a = args.bind("cat", &["tensors", "dim"], 1)?;
        let ts = tensor_list(it, a[0].as_ref().unwrap(), "cat")?;
        let d = match &a[1] {
            Some(v) => crate::torch::int_arg(it, v)?,
            None => 0,
        };
        Ok(wrap(rt, rt.cat(&ts, d).map_err(py_err)?))
    });
    m.set_attr("concat", m.get_attr("cat").unwrap());
    reg(&m, rt, "stack", |it, rt, args| {
        let a = args.bind("stack", &["tensors", "dim"], 1)?;
        let ts = tensor_list(it, a[0].as_ref().unwrap(), "stack")?;
        let d = match &a[1] {
            Some(v) => crate::torch::int_arg(it, v)?,
            None => 0,
        };
        Ok(wrap(rt, rt.stack(&ts, d).map_err(py_err)?))
    });
    reg(&m, rt, "lerp", |_, rt, args| {
        ternary_fn(rt, args, TernaryOp::Lerp, "lerp")
    });
    reg(&m, rt, "addcmul", |_, rt, args| {
        ternary_fn(rt, args, TernaryOp::Addcmul, "addcmul")
    });
    reg(&m, rt, "addcdiv", |_, rt, args| {
        ternary_fn(rt, args, TernaryOp::Addcdiv, "addcdiv")
    });
    reg(&m, rt, "where", |_, rt, args| {
        let a = args.bind("where", &["condition", "input", "other"], 1)?;
        let c = need_tensor(a[0].as_ref().unwrap(), "where", "condition")?;
        match (&a[1], &a[2]) {
            (Some(x), Some(y)) => {
                let x = operand_of(x)?.ok_or_else(|| {
                    PyException::new(
                        ExcType::TypeError,
                        "where(): argument 'input' must be Tensor",
                    )
                })?;
                let y = operand_of(y)?.ok_or_else(|| {
                    PyException::new(
                        ExcType::TypeError,
                        "where(): argument 'other' must be Tensor",
                    )
                })?;
                Ok(wrap(rt, rt.where_(&c, &x, &y).map_err(py_err)?))
            }
            _ => {
                let nz = rt.nonzero(&c).map_err(py_err)?;
                let cols = (0..c.dim())
                    .map(|k| nz.select(1, k as i64).map(|t| wrap(rt, t)))
                    .collect::<crate::engine::Result<Vec<_>>>()
                    .map_err(py_err)?;
                Ok(Value::tuple(cols))
            }
        }
    });
    reg(&m, rt, "matmul", |_, rt, args| {
        let a = args.bind("matmul", &["input", "other", "out"], 2)?;
        let x = need_tensor(a[0].as_ref().unwrap(), "matmul", "input")?;
        let y = need_tensor(a[1].as_ref().unwrap(), "matmul", "other")?;
        write_out(rt, a[2].as_ref(), rt.matmul(&x, &y).map_err(py_err)?)
    });
    reg(&m, rt, "mm", |_, rt, args| {
        let a = args.bind("mm", &["input", "mat2", "out"], 2)?;
        let x = need_tensor(a[0].as_ref().unwrap(), "mm", "input")?;
        let y = need_tensor(a[1].as_ref().unwrap(), "mm", "mat2")?;
        write_out(rt, a[2].as_ref(), rt.mm(&x, &y).map_err(py_err)?)
    });
    for (name, second) in [("mv", "vec"), ("dot", "tensor"), ("bmm", "mat2")] {
        let rt = rt.clone();
        m.add_fn(name, move |it, args| {
            at_line(&rt, it);
            let a = args.bind(name, &["input", second], 2)?;
            let x = need_tensor(a[0].as_ref().unwrap(), name, "input")?;
            let y = need_tensor(a[1].as_ref().unwrap(), name, second)?;
            rt.check_product(name, &x, &y).map_err(py_err)?;
            Ok(wrap(&rt, rt.matmul(&x, &y).map_err(py_err)?))
        });
    }
    reg(&m, rt, "eye", |it, rt, args| {
        let a = args.bind(
            "eye",
            &["n", "m", "dtype", "device", "requires_grad", "out"],
            1,
        )?;
        let n = crate::torch::int_arg(it, a[0].as_ref().unwrap())?;
        let mm = match &a[1] {
            Some(v) if !v.is_none() => Some(crate::torch::int_arg(it, v)?),
            _ => None,
        };
        for (name, v) in [("n", Some(n)), ("m", mm)] {
            if let Some(v) = v
                && v < 0
            {
                return Err(PyException::new(
                    ExcType::RuntimeError,
                    format!("{name} must be greater or equal to 0, got {v}"),
                ));
            }
        }
        let (dt, dev, rg) = creation_kw(rt, &a[2..5], it)?;
        finish(
            rt,
            rt.eye(n as usize, mm.map(|v| v as usize), dt, dev)
                .map_err(py_err)?,
            rg,
        )
    });
    reg(&m, rt, "broadcast_shapes", |it, _, args| {
        let mut shape: Vec<usize> = Vec::new();
        for v in &args.positional {
            let s = match v {
                Value::Int(_) => vec![crate::torch::int_arg(it, v)?],
                _ => super::shape_from(it, std::slice::from_ref(v))?,
            };
            let s: Vec<usize> = s.into_iter().map(|d| d.max(0) as usize).collect();
            shape = crate::engine::tensor::broadcast_shapes(&shape, &s).map_err(py_err)?;
        }
        Ok(Value::native(PySize(shape)))
    });
    reg(&m, rt, "unique", |it, rt, mut args| {
        let x = if args.positional.is_empty() {
            args.take_kw("input")
        } else {
            Some(args.positional.remove(0))
        };
        let t = need_tensor(&x.unwrap_or_default(), "unique", "input")?;
        super::tensor::unique_value(it, rt, &t, &args)
    });
    reg(&m, rt, "addmm", |_, rt, args| {
        let a = args.bind("addmm", &["input", "mat1", "mat2"], 3)?;
        let b = need_tensor(a[0].as_ref().unwrap(), "addmm", "input")?;
        let x = need_tensor(a[1].as_ref().unwrap(), "addmm", "mat1")?;
        let y = need_tensor(a[2].as_ref().unwrap(), "addmm", "mat2")?;
        Ok(wrap(rt, rt.addmm(&b, &x, &y).map_err(py_err)?))
    });
    reg(&m, rt, "add", |_, rt, args| {
        binary_fn(rt, args, BinaryOp::Add, "add")
    });
    reg(&m, rt, "sub", |_, rt, args| {
        binary_fn(rt, args, BinaryOp::Sub, "sub")
    });
    reg(&m, rt, "mul", |_, rt, args| {
        binary_fn(rt, args, BinaryOp::Mul, "mul")
    });
    reg(&m, rt, "div", |_, rt, args| {
        let a = args.bind("div", &["input", "other", "rounding_mode"], 2)?;
        let x = operand_of(a[0].as_ref().unwrap())?.ok_or_else(|| {
            PyException::new(ExcType::TypeError, "div(): argument 'input' must be Tensor")
        })?;
        let y = operand_of(a[1].as_ref().unwrap())?.ok_or_else(|| {
            PyException::new(ExcType::TypeError, "div(): argument 'other' must be Tensor")
        })?;
        let op = div_mode(a[2].as_ref())?;
        Ok(wrap(rt, rt.binary(op, &x, &y).map_err(py_err)?))
    });
    reg(&m, rt, "atan2", |_, rt, args| {
        binary_plain(rt, args, BinaryOp::Atan2)
    });
    reg(&m, rt, "arctan2", |_, rt, args| {
        binary_plain(rt, args, BinaryOp::Atan2)
    });
    reg(&m, rt, "hypot", |_, rt, args| {
        binary_plain(rt, args, BinaryOp::Hypot)
    });
    reg(&m, rt, "fmod", |_, rt, args| {
        binary_plain(rt, args, BinaryOp::Fmod)
    });
    reg(&m, rt, "remainder", |_, rt, args| {
        binary_plain(rt, args, BinaryOp::Rem)
    });
    reg(&m, rt, "floor_divide", |_, rt, args| {
        binary_plain(rt, args, BinaryOp::FloorDiv)
    });

    reg(&m, rt, "eq", |_, rt, args| {
        binary_fn(rt, args, BinaryOp::Eq, "eq")
    });
    reg(&m, rt, "maximum", |_, rt, args| {
        binary_fn(rt, args, BinaryOp::Maximum, "maximum")
    });
    reg(&m, rt, "minimum", |_, rt, args| {
        binary_fn(rt, args, BinaryOp::Minimum, "minimum")
    });
    reg(&m, rt, "equal", |_, rt, args| {
        let a = args.bind("equal", &["input", "other"], 2)?;
        let x = need_tensor(a[0].as_ref().unwrap(), "equal", "input")?;
        let y = need_tensor(a[1].as_ref().unwrap(), "equal", "other")?;
        if x.shape() != y.shape() {
            return Ok(Value::Bool(false));
        }
        let e = rt
            .binary(BinaryOp::Eq, &Operand::Tensor(x), &Operand::Tensor(y))
            .map_err(py_err)?;
        let all = rt.all(&e, None, false).map_err(py_err)?;
        Ok(Value::Bool(rt.to_bool(&all).map_err(py_err)?))
    });
    reg(&m, rt, "allclose", |_, rt, args| {
        let a = args.bind(
            "allclose",
            &["input", "other", "rtol", "atol", "equal_nan"],
            2,
        )?;
        let x = need_tensor(a[0].as_ref().unwrap(), "allclose", "input")?;
        let y = need_tensor(a[1].as_ref().unwrap(), "allclose", "other")?;
        let rtol = a[2].as_ref().and_then(|v| v.as_float()).unwrap_or(1e-5);
        let atol = a[3].as_ref().and_then(|v| v.as_float()).unwrap_or(1e-8);
        let d = rt
            .binary(
                BinaryOp::Sub,
                &Operand::Tensor(x.clone()),
                &Operand::Tensor(y.clone()),
            )
            .map_err(py_err)?;
        let d = rt.unary(UnaryOp::Abs, &d).map_err(py_err)?;
        let ay = rt.unary(UnaryOp::Abs, &y).map_err(py_err)?;
        let tol = rt
            .binary(
                BinaryOp::Mul,
                &Operand::Tensor(ay),
                &Operand::Scalar(Scalar::Float(rtol)),
            )
            .map_err(py_err)?;
        let tol = rt
            .binary(
                BinaryOp::Add,
                &Operand::Tensor(tol),
                &Operand::Scalar(Scalar::Float(atol)),
            )
            .map_err(py_err)?;
        let ok = rt
            .binary(BinaryOp::Le, &Operand::Tensor(d), &Operand::Tensor(tol))
            .map_err(py_err)?;
        let all = rt.all(&ok, None, false).map_err(py_err)?;
        Ok(Value::Bool(rt.to_bool(&all).map_err(py_err)?))
    });
    // torch.round(input, *, decimals): its decimals overload is not in the registry yet
    {
        let rt = rt.clone();
        m.add_fn("round", move |it, args| {
            at_line(&rt, it);
            unary_fn(it, &rt, args, UnaryOp::Round, "round")
        });
    }
    // method-style reductions and others as functions: torch.sum(x, dim) → x.sum(dim)
    let reductions = crate::binding::reductions::METHOD_REDUCTIONS;
    for name in reductions.into_iter().chain([
        "softmax",
        "log_softmax",
        "clamp",
        "clip",
        "flatten",
        "unsqueeze",
        "squeeze",
        "transpose",
        "permute",
        "reshape",
        "t",
        "index_select",
        "gather",
        "masked_fill",
        "nonzero",
        "select",
        "pow",
        "ne",
        "lt",
        "le",
        "gt",
        "ge",
        "logical_and",
        "logical_or",
        "cumsum",
        "cumprod",
        "logcumsumexp",
        "sort",
        "argsort",
        "topk",
        "norm",
        "median",
        "count_nonzero",
        "chunk",
        "split",
    ]) {
        let rt = rt.clone();
        let n = name.to_string();
        m.add_fn(name, move |it, mut args| {
            at_line(&rt, it);
            super::numpy_aliases(&mut args);
            let from_kw = args.positional.is_empty();
            let x = if from_kw {
                args.take_kw("input")
            } else {
                Some(args.positional.remove(0))
            };
            let x = x.unwrap_or_default();
            if n == "pow"
                && tensor_of(&x).is_none()
                && let Some(base) = scalar_of(&x)
                && let Some(e) = args.positional.first().and_then(tensor_of)
            {
                // torch.pow(self: Number, exponent: Tensor)
                return Ok(wrap(
                    &rt,
                    rt.binary(BinaryOp::Pow, &Operand::Scalar(base), &Operand::Tensor(e))
                        .map_err(py_err)?,
                ));
            }
            if tensor_of(&x).is_none() {
                // PyTorch's argument parser words this error (an invalid combination of
                // arguments where the function has several overloads)
                if let Some(p) = super::argparse::parser(super::argparse::Namespace::Torch, &n) {
                    let (mut pos, mut kw) = (args.positional.clone(), args.keywords.clone());
                    if from_kw {
                        kw.push(("input".to_string(), x.clone()));
                    } else {
                        pos.insert(0, x.clone());
                    }
                    p.parse(&pos, &kw)?;
                }
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "{n}(): argument 'input' (position 1) must be Tensor, not {}",
                        x.type_name()
                    ),
                ));
            }
            if n == "max" || n == "min" {
                return max_like(it, &rt, &tensor_of(&x).unwrap(), &args, n == "max");
            }
            let f = it.getattr(&x, &n)?;
            it.call(&f, args)
        });
    }
    // every function of the registry PyTorch declares in torch (after the hand-written ones:
    // a registered name replaces its old binding)
    super::registry::install_functions(&m, rt, super::argparse::Namespace::Torch);
    // torch._extra (imported on the first name this module lacks) defines these in Python
    // over the native ops; the native module must not have them, or a script would get the
    // native one until something else loaded the prelude. `round` stays reachable for it.
    let round = m.dict.borrow_mut().remove_str("round");
    if let Some(r) = round {
        m.set_attr("_round_native", r);
    }
    let dot = m.dict.borrow_mut().remove_str("dot");
    drop(dot);
    // out= wrappers and addmm's reduced-precision path (extra.py) call these natives
    for name in [
        "gather",
        "cat",
        "index_select",
        "bernoulli",
        "multinomial",
        "addmm",
    ] {
        let native = m.dict.borrow_mut().remove_str(name);
        if let Some(f) = native {
            m.set_attr(&format!("_{name}_native"), f);
        }
    }
    // normal: the prelude's takes tensor mean/std too and calls the native one for floats
    let normal = m.dict.borrow_mut().remove_str("normal");
    if let Some(n) = normal {
        m.set_attr("_normal_native", n);
    }
    Ok(m.into_value())
}

/// `torch.nn.functional`.
pub(super) fn functional_module(_it: &mut Interpreter, rt: &Rc<Runtime>) -> PyResult<Value> {
    let m = Module::new("torch.nn.functional");
    reg(&m, rt, "relu", |it, rt, args| {
        unary_fn(it, rt, args, UnaryOp::Relu, "relu")
    });
    reg(&m, rt, "sigmoid", |it, rt, args| {
        unary_fn(it, rt, args, UnaryOp::Sigmoid, "sigmoid")
    });
    reg(&m, rt, "tanh", |it, rt, args| {
        unary_fn(it, rt, args, UnaryOp::Tanh, "tanh")
    });
    reg(&m, rt, "gelu", |_, rt, args| {
        let a = args.bind("gelu", &["input", "approximate"], 1)?;
        let t = need_tensor(a[0].as_ref().unwrap(), "gelu", "input")?;
        let op = match a[1].as_ref() {
            None => UnaryOp::Gelu,
            Some(Value::Str(s)) if &**s == "none" => UnaryOp::Gelu,
            Some(Value::Str(s)) if &**s == "tanh" => UnaryOp::GeluTanh,
            Some(Value::Str(_)) => {
                return Err(PyException::new(
                    ExcType::RuntimeError,
                    "approximate argument must be either none or tanh.",
                ));
            }
            Some(_) => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    "gelu(): argument 'approximate' must be str",
                ));
            }
        };
        Ok(wrap(rt, rt.unary(op, &t).map_err(py_err)?))
    });
    reg(&m, rt, "softmax", |it, rt, args| {
        softmax_fn(it, rt, args, "softmax", Runtime::softmax)
    });
    reg(&m, rt, "log_softmax", |it, rt, args| {
        softmax_fn(it, rt, args, "log_softmax", Runtime::log_softmax)
    });
    reg(&m, rt, "cross_entropy", |it, rt, args| {
        loss_fn(it, rt, args, "cross_entropy", true)
    });
    reg(&m, rt, "nll_loss", |it, rt, args| {
        loss_fn(it, rt, args, "nll_loss", false)
    });
    reg(&m, rt, "dropout", |it, rt, args| {
        let a = args.bind("dropout", &["input", "p", "training", "inplace"], 1)?;
        let x = need_tensor(a[0].as_ref().unwrap(), "dropout", "input")?;
        let p = match &a[1] {
            Some(v) => v.as_float().ok_or_else(|| {
                PyException::new(
                    ExcType::TypeError,
                    format!(
                        "dropout(): argument 'p' must be float, not {}",
                        v.type_name()
                    ),
                )
            })?,
            None => 0.5,
        };
        if !(0.0..=1.0).contains(&p) {
            return Err(PyException::new(
                ExcType::ValueError,
                format!(
                    "dropout probability has to be between 0 and 1, but got {}",
                    crate::script::strfmt::float_repr(p)
                ),
            ));
        }
        let training = truthy_opt(it, &a[2], true)?;
        if !training || p == 0.0 {
            return Ok(a[0].clone().unwrap());
        }
        let out = if p == 1.0 {
            rt.mul(
                &Operand::Tensor(x.clone()),
                &Operand::Scalar(Scalar::Float(0.0)),
            )
        } else {
            rt.dropout_noise(&x, p)
                .and_then(|n| rt.mul(&Operand::Tensor(x.clone()), &Operand::Tensor(n)))
        }
        .map_err(py_err)?;
        Ok(wrap(rt, out))
    });
    reg(&m, rt, "conv2d", |it, rt, args| {
        let a = args.bind(
            "conv2d",
            &[
                "input", "weight", "bias", "stride", "padding", "dilation", "groups",
            ],
            2,
        )?;
        let x = need_tensor(a[0].as_ref().unwrap(), "conv2d", "input")?;
        let w = need_tensor(a[1].as_ref().unwrap(), "conv2d", "weight")?;
        let b = a[2].as_ref().and_then(tensor_of);
        let stride = pair_arg(it, &a[3], "conv stride", (1, 1))?;
        let dilation = pair_arg(it, &a[5], "conv dilation", (1, 1))?;
        let padding = match a[4].as_ref().and_then(|v| v.as_str().map(str::to_string)) {
            Some(mode) => {
                let groups = a[6].as_ref().and_then(|v| v.as_int()).unwrap_or(1);
                conv2d_string_padding(&mode, &x, &w, stride, dilation, groups)?
            }
            None => pair_arg(it, &a[4], "conv padding", (0, 0))?,
        };
        let ca = crate::engine::tensor::Conv2dArgs {
            stride,
            padding,
            dilation,
            groups: pair_arg(it, &a[6], "conv groups", (1, 1))?.0,
        };
        Ok(wrap(rt, rt.conv2d(&x, &w, b.as_ref(), ca).map_err(py_err)?))
    });
    reg(&m, rt, "max_pool2d", |it, rt, args| {
        let a = args.bind(
            "max_pool2d",
            &[
                "input",
                "kernel_size",
                "stride",
                "padding",
                "dilation",
                "ceil_mode",
                "return_indices",
            ],
            2,
        )?;
        let x = need_tensor(a[0].as_ref().unwrap(), "max_pool2d", "input")?;
        let k = pair_i64(it, &a[1], (1, 1))?;
        let stride = pair_i64(it, &a[2], k)?;
        let padding = pair_i64(it, &a[3], (0, 0))?;
        let dilation = pair_i64(it, &a[4], (1, 1))?;
        let (kernel, stride, padding, dilation) = pool_checks(&x, k, stride, padding, dilation)?;
        let pa = crate::engine::tensor::Pool2dArgs {
            kind: crate::engine::host::conv::PoolKind::Max,
            kernel,
            stride,
            padding,
            dilation,
            ceil_mode: truthy_opt(it, &a[5], false)?,
        };
        if truthy_opt(it, &a[6], false)? {
            return Err(PyException::new(
                ExcType::NotImplementedError,
                "cudatutor does not support max_pool2d(return_indices=True) yet",
            ));
        }
        Ok(wrap(rt, rt.pool2d(&x, pa).map_err(py_err)?))
    });
    reg(&m, rt, "avg_pool2d", |it, rt, args| {
        let a = args.bind(
            "avg_pool2d",
            &[
                "input",
                "kernel_size",
                "stride",
                "padding",
                "ceil_mode",
                "count_include_pad",
                "divisor_override",
            ],
            2,
        )?;
        let x = need_tensor(a[0].as_ref().unwrap(), "avg_pool2d", "input")?;
        let k = pair_i64(it, &a[1], (1, 1))?;
        let stride = pair_i64(it, &a[2], k)?;
        let padding = pair_i64(it, &a[3], (0, 0))?;
        let divisor = match &a[6] {
            None | Some(Value::None) => None,
            Some(v) => Some(super::int_arg(it, v)?),
        };
        if divisor == Some(0) {
            return Err(PyException::new(
                ExcType::RuntimeError,
                "divisor must be not zero",
            ));
        }
        let (kernel, stride, padding, _) = pool_checks(&x, k, stride, padding, (1, 1))?;
        let pa = crate::engine::tensor::Pool2dArgs {
            kind: crate::engine::host::conv::PoolKind::Avg {
                count_include_pad: truthy_opt(it, &a[5], true)?,
                divisor,
            },
            kernel,
            stride,
            padding,
            dilation: (1, 1),
            ceil_mode: truthy_opt(it, &a[4], false)?,
        };
        Ok(wrap(rt, rt.pool2d(&x, pa).map_err(py_err)?))
    });
    reg(&m, rt, "adaptive_avg_pool2d", |it, rt, args| {
        let a = args.bind("adaptive_avg_pool2d", &["input", "output_size"], 2)?;
        let x = need_tensor(a[0].as_ref().unwrap(), "adaptive_avg_pool2d", "input")?;
        let nd = x.dim();
        // None in output_size keeps the input's size there
        let keep = |i: usize| if nd >= 2 { x.shape()[nd - 2 + i] } else { 1 };
        let out = match &a[1] {
            Some(Value::Tuple(_)) | Some(Value::List(_)) => {
                let items = a[1].as_ref().unwrap().as_vec().unwrap_or_default();
                // functional.py's _list_with_default, then the ATen checks in their order
                if nd <= items.len() {
                    return Err(PyException::new(
                        ExcType::ValueError,
                        format!("Input dimension should be at least {}", items.len() + 1),
                    ));
                }
                if items.len() != 2 {
                    return Err(PyException::new(
                        ExcType::RuntimeError,
                        "adaptive_avg_pool2d: output_size must be 2",
                    ));
                }
                let mut o = [0i64; 2];
                for (i, v) in items.iter().enumerate() {
                    o[i] = if v.is_none() {
                        keep(i) as i64
                    } else {
                        super::int_arg(it, v)?
                    };
                }
                if o[0] < 0 || o[1] < 0 {
                    return Err(PyException::new(
                        ExcType::RuntimeError,
                        format!(
                            "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {{{}, {}}}",
                            o[0], o[1]
                        ),
                    ));
                }
                (o[0] as usize, o[1] as usize)
            }
            Some(v) if !v.is_none() => {
                let s = nonneg(super::int_arg(it, v)?, "output_size")?;
                (s, s)
            }
            _ => (keep(0), keep(1)),
        };
        // ATen's adaptive_avg_pool2d: an output of 1 x 1 is the mean over the last two dims
        // (its summation order, its MeanBackward1 node, and no pooling checks)
        if out == (1, 1) {
            return Ok(wrap(
                rt,
                rt.mean(&x, Some(&[-1, -2]), true).map_err(py_err)?,
            ));
        }
        let pa = crate::engine::tensor::Pool2dArgs {
            kind: crate::engine::host::conv::PoolKind::Adaptive,
            kernel: out,
            stride: (1, 1),
            padding: (0, 0),
            dilation: (1, 1),
            ceil_mode: false,
        };
        Ok(wrap(rt, rt.pool2d(&x, pa).map_err(py_err)?))
    });
    reg(&m, rt, "linear", |_, rt, args| {
        let a = args.bind("linear", &["input", "weight", "bias"], 2)?;
        let x = need_tensor(a[0].as_ref().unwrap(), "linear", "input")?;
        let w = need_tensor(a[1].as_ref().unwrap(), "linear", "weight")?;
        let b = a[2].as_ref().and_then(tensor_of);
        Ok(wrap(rt, rt.linear(&x, &w, b.as_ref()).map_err(py_err)?))
    });
    reg(&m, rt, "embedding", |it, rt, args| {
        let a = args.bind(
            "embedding",
            &[
                "input",
                "weight",
                "padding_idx",
                "max_norm",
                "norm_type",
                "scale_grad_by_freq",
                "sparse",
            ],
            2,
        )?;
        let x = need_tensor(a[0].as_ref().unwrap(), "embedding", "input")?;
        let w = need_tensor(a[1].as_ref().unwrap(), "embedding", "weight")?;
        let pad = match &a[2] {
            Some(v) if !v.is_none() => {
                let p = crate::torch::int_arg(it, v)?;
                let n = w.shape().first().copied().unwrap_or(0) as i64;
                if p >= n || p < -n {
                    return Err(PyException::new(
                        ExcType::AssertionError,
                        "Padding_idx must be within num_embeddings",
                    ));
                }
                Some(if p < 0 { p + n } else { p })
            }
            _ => None,
        };
        Ok(wrap(rt, rt.embedding_padded(&w, &x, pad).map_err(py_err)?))
    });
    reg(&m, rt, "l1_loss", |it, rt, args| {
        let a = args.bind(
            "l1_loss",
            &[
                "input",
                "target",
                "size_average",
                "reduce",
                "reduction",
                "weight",
                "_warn",
            ],
            2,
        )?;
        let x = need_tensor(a[0].as_ref().unwrap(), "l1_loss", "input")?;
        let y = need_tensor(a[1].as_ref().unwrap(), "l1_loss", "target")?;
        if x.shape() != y.shape() && truthy_opt(it, &a[6], true)? {
            super::warn(it, &size_warning(&x, &y), false)?;
        }
        // ATen's l1_loss is composite: (input - target).abs(), then the reduction (so its
        // nodes are SubBackward0, AbsBackward0 and MeanBackward0 / SumBackward0)
        let red = reduction_arg(&a[4])?;
        let d = rt
            .binary(BinaryOp::Sub, &Operand::Tensor(x), &Operand::Tensor(y))
            .map_err(py_err)?;
        let l = rt.unary(UnaryOp::Abs, &d).map_err(py_err)?;
        let r = match red {
            Reduction::None => l,
            Reduction::Sum => rt.sum(&l, None, false, None).map_err(py_err)?,
            Reduction::Mean => rt.mean(&l, None, false).map_err(py_err)?,
        };
        Ok(wrap(rt, r))
    });
    reg(&m, rt, "binary_cross_entropy", |_, rt, args| {
        let a = args.bind(
            "binary_cross_entropy",
            &[
                "input",
                "target",
                "weight",
                "size_average",
                "reduce",
                "reduction",
            ],
            2,
        )?;
        let x = need_tensor(a[0].as_ref().unwrap(), "binary_cross_entropy", "input")?;
        let y = need_tensor(a[1].as_ref().unwrap(), "binary_cross_entropy", "target")?;
        let w = match &a[2] {
            Some(v) if !v.is_none() => Some(need_tensor(v, "binary_cross_entropy", "weight")?),
            _ => None,
        };
        let red = reduction_arg(&a[5])?;
        // on CUDA an input outside [0, 1] is a device-side assert, not a host error
        if let Some(r) =
            super::device_asserts::binary_cross_entropy_cuda(rt, &x, &y, w.as_ref(), red)
        {
            return Ok(wrap(rt, r.map_err(py_err)?));
        }
        if x.shape() != y.shape() {
            return Err(PyException::new(
                ExcType::ValueError,
                format!(
                    "Using a target size ({}) that is different to the input size ({}) is deprecated. Please ensure they have the same size.",
                    crate::engine::tensor::size_repr(&y.layout.shape),
                    crate::engine::tensor::size_repr(&x.layout.shape)
                ),
            ));
        }
        let r = rt
            .elementwise_loss(LossOp::Bce, &x, &y, w.as_ref(), None, red)
            .map_err(py_err)?;
        Ok(wrap(rt, r))
    });
    reg(&m, rt, "mse_loss", |it, rt, args| {
        let a = args.bind(
            "mse_loss",
            &[
                "input",
                "target",
                "size_average",
                "reduce",
                "reduction",
                "weight",
                "_warn",
            ],
            2,
        )?;
        let x = need_tensor(a[0].as_ref().unwrap(), "mse_loss", "input")?;
        let y = need_tensor(a[1].as_ref().unwrap(), "mse_loss", "target")?;
        if x.shape() != y.shape() && truthy_opt(it, &a[6], true)? {
            super::warn(it, &size_warning(&x, &y), false)?;
        }
        // composed here from sub, mul and mean; one node named as PyTorch's single op
        let outer = [x, y];
        let inner = rt.composite_inputs(&outer);
        let [x, y] = [inner[0].clone(), inner[1].clone()];
        let d = rt
            .binary(BinaryOp::Sub, &Operand::Tensor(x), &Operand::Tensor(y))
            .map_err(py_err)?;
        let sq = rt
            .binary(
                BinaryOp::Mul,
                &Operand::Tensor(d.clone()),
                &Operand::Tensor(d),
            )
            .map_err(py_err)?;
        let r = match reduction_arg(&a[4])? {
            Reduction::None => sq,
            Reduction::Sum => rt.sum(&sq, None, false, None).map_err(py_err)?,
            Reduction::Mean => rt.mean(&sq, None, false).map_err(py_err)?,
        };
        Ok(wrap(
            rt,
            rt.composite_finish("MseLossBackward0", &outer, &inner, r),
        ))
    });
    reg(&m, rt, "one_hot", |it, rt, args| {
        let a = args.bind("one_hot", &["tensor", "num_classes"], 1)?;
        let t = need_tensor(a[0].as_ref().unwrap(), "one_hot", "tensor")?;
        let n = match &a[1] {
            Some(v) => crate::torch::int_arg(it, v)?,
            None => -1,
        };
        one_hot(rt, &t, n)
    });
    Ok(m.into_value())
}

/// `F.one_hot` as ATen's Onehot.cpp checks it, in its order; the result's size is validated
/// (PyTorch's storage-size overflow, then its CPU allocation failure past the host budget)
/// before anything is allocated, so `one_hot(t, 2**62)` or `one_hot(tensor([2**40]))` is
/// PyTorch's error rather than an abort.
fn one_hot(rt: &Rc<Runtime>, t: &Tensor, num_classes: i64) -> PyResult<Value> {
    let rt_err = |m: String| PyException::new(ExcType::RuntimeError, m);
    if t.dtype() != DType::Int64 {
        return Err(rt_err(
            "one_hot is only applicable to index tensor of type LongTensor.".into(),
        ));
    }
    let mut shape = t.shape().to_vec();
    let vals = t.values().map_err(py_err)?;
    let n = if vals.is_empty() {
        if num_classes <= 0 {
            return Err(rt_err(
                "Can not infer total number of classes from empty tensor.".into(),
            ));
        }
        num_classes
    } else {
        // Values are kept as f64: exact for every class index a tensor can hold.
        let min = vals.iter().cloned().fold(f64::INFINITY, f64::min) as i64;
        let max = vals.iter().cloned().fold(f64::NEG_INFINITY, f64::max) as i64;
        if t.device() == Device::Cpu && min < 0 {
            return Err(rt_err("Class values must be non-negative.".into()));
        }
        if num_classes == -1 {
            max.wrapping_add(1)
        } else if num_classes > max {
            num_classes
        } else {
            return Err(rt_err(
                "Class values must be smaller than num_classes.".into(),
            ));
        }
    };
    if n < 0 {
        return Err(rt_err("zeros: Dimension size must be non-negative.".into()));
    }
    let n = n as u64;
    let rows = vals.len() as u64;
    let sizes = || {
        let dims: Vec<String> = shape
            .iter()
            .map(|d| d.to_string())
            .chain([n.to_string()])
            .collect();
        format!("[{}]", dims.join(", "))
    };
    // c10's computeStorageNbytesContiguous: numel * itemsize must fit in 64 bits.
    let nbytes = rows
        .checked_mul(n)
        .and_then(|e| e.checked_mul(8))
        .filter(|b| *b <= i64::MAX as u64)
        .ok_or_else(|| {
            rt_err(format!(
                "Storage size calculation overflowed with sizes={}",
                sizes()
            ))
        })?;
    if t.device() == Device::Cpu
        && nbytes > rt.host.limit.min(crate::engine::hostmem::run_limit_now())
    {
        return Err(rt_err(crate::engine::hostmem::cpu_alloc_error(nbytes)));
    }
    shape.push(n as usize);
    let numel = (rows * n) as usize;
    if numel > 1 << 24 {
        // Too big to keep values for (the engine's rule): zeros whose values are not kept,
        // or the device's out-of-memory error.
        return Ok(wrap(
            rt,
            rt.zeros(&shape, Some(DType::Int64), t.device())
                .map_err(py_err)?,
        ));
    }
    let mut out = vec![Scalar::Int(0); numel];
    for (i, v) in vals.iter().enumerate() {
        out[i * n as usize + *v as usize] = Scalar::Int(1);
    }
    Ok(wrap(
        rt,
        rt.tensor(&out, shape, Some(DType::Int64), t.device())
            .map_err(py_err)?,
    ))
}

/// `torch._C`: native helpers the Python preludes use.
pub(super) fn native_helpers(it: &mut Interpreter, rt: &Rc<Runtime>) -> PyResult<Value> {
    let m = Module::new("torch._C");
    super::fused_optim::register(&m, rt);
    // _parsed(module, name): module.NAME (written in Python) behind PyTorch's argument parser
    // for torch.NAME (torch._extra wraps the functions PyTorch binds in C++ with it); a
    // deferred alias stays deferred until the first call
    m.add_fn("_parsed", |it, args| {
        let a = args.exact("_parsed", 2)?;
        let name = a[1].as_str().unwrap_or_default().to_string();
        let Value::Module(module) = &a[0] else {
            return Err(PyException::type_error("_parsed() needs a module"));
        };
        let body = match it.take_deferred_alias(module, &name) {
            Some((from, attr)) => super::argparse::Body::Attribute(from, attr),
            None => super::argparse::Body::Ready(it.getattr(&a[0], &name)?),
        };
        Ok(super::argparse::parsed_by_signature(
            super::argparse::Namespace::Torch,
            &name,
            body,
        ))
    });
    // _set_num_threads(n): the engine's intra-op thread count (engine::parallel), which
    // torch.set_num_threads and the script's first torch import set
    m.add_fn("_set_num_threads", |_it, args| {
        let a = args.exact("_set_num_threads", 1)?;
        match a[0] {
            Value::Int(n) if n > 0 => {
                crate::engine::parallel::set_num_threads(usize::try_from(n).unwrap_or(usize::MAX));
                Ok(Value::None)
            }
            _ => Err(PyException::new(
                ExcType::RuntimeError,
                "set_num_threads expects a positive integer",
            )),
        }
    });
    // _inplace_result(self, result, name, grad_fn=None): the end of an in-place op a prelude
    // computes out of place (tril_, cumsum_, ...): PyTorch's leaf and cast refusals, result's
    // values written into self's storage, self given result's autograd history (its node
    // renamed `grad_fn` where PyTorch names the in-place node apart: LeakyReluBackward1);
    // returns self
    let engine = rt.clone();
    m.add_fn("_inplace_result", move |_it, args| {
        let a = args.bind("_inplace_result", &["self", "result", "name", "grad_fn"], 3)?;
        let (Some(this), Some(result), Some(name)) = (&a[0], &a[1], &a[2]) else {
            return Err(PyException::new(
                ExcType::TypeError,
                "_inplace_result: 3 arguments",
            ));
        };
        let name = name.as_str().unwrap_or("_inplace_result").to_string();
        let dst = super::need_tensor(this, &name, "self")?;
        let r = super::need_tensor(result, &name, "result")?;
        let mut t = engine.inplace_result(&name, &dst, r).map_err(py_err)?;
        if let Some(Value::Str(node)) = &a[3] {
            t = t.with_grad_fn_name(node);
        }
        if let Some(p) = this.downcast::<super::PyTensor>() {
            *p.t.borrow_mut() = t;
        }
        Ok(this.clone())
    });
    // t.is_inference(): allocated under torch.inference_mode()
    m.add_fn("_is_inference", |_it, args| {
        let a = args.exact("_is_inference", 1)?;
        let t = super::need_tensor(&a[0], "is_inference", "self")?;
        Ok(Value::Bool(t.is_inference()))
    });
    // warn(message, file=None, line=0, source=''): a UserWarning at the script line running
    // now, or at a line of PyTorch's own Python source
    m.add_fn("warn", |it, mut args| {
        // category='FutureWarning' (…): a warning of that class at the script line running now
        if let Some(cat) = args.take_kw("category") {
            let a = args.bind("warn", &["message"], 1)?;
            let msg = a[0].as_ref().and_then(|v| v.as_str()).unwrap_or_default();
            let cat = cat.as_str().unwrap_or("UserWarning").to_string();
            super::warn_as(it, &cat, msg)?;
            return Ok(Value::None);
        }
        let a = args.bind("warn", &["message", "file", "line", "source"], 1)?;
        let msg = a[0]
            .as_ref()
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string();
        match a[1].as_ref().and_then(|v| v.as_str()) {
            Some(file) => {
                let file = file.to_string();
                let line = match &a[2] {
                    Some(v) => crate::torch::int_arg(it, v)?.max(0) as u32,
                    None => 0,
                };
                let src = a[3]
                    .as_ref()
                    .and_then(|v| v.as_str())
                    .unwrap_or_default()
                    .to_string();
                super::warn_at(it, &file, line, &msg, &src)?;
            }
            None => super::warn(it, &msg, false)?,
        }
        Ok(Value::None)
    });
    // _kthvalue_positions(input, dim, k): the positions kthvalue reports (PyTorch's
    // quick_select order decides among equal values); extra.py gathers the values
    reg(&m, rt, "_kthvalue_positions", |it, rt, args| {
        let a = args.bind("_kthvalue_positions", &["input", "dim", "k"], 3)?;
        let t = need_tensor(a[0].as_ref().unwrap(), "kthvalue", "input")?;
        let d = crate::torch::int_arg(it, a[1].as_ref().unwrap())?;
        let k = crate::torch::int_arg(it, a[2].as_ref().unwrap())?;
        let i = rt
            .kthvalue_positions(&t, d, k.max(1) as usize)
            .map_err(py_err)?;
        Ok(wrap(rt, i))
    });
    // _activation(name, input, p0, p1, p2): the fused activation kernels (F.silu, F.softplus,
    // F.elu/selu/celu, F.leaky_relu, F.hardtanh/relu6, F.mish, F.hardswish, F.hardsigmoid,
    // F.logsigmoid) as one engine op with PyTorch's node; nn.py passes the numbers
    reg(&m, rt, "_activation", |it, rt, args| {
        let a = args.bind("_activation", &["name", "input", "p0", "p1", "p2"], 2)?;
        let name = a[0]
            .as_ref()
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string();
        let t = need_tensor(a[1].as_ref().unwrap(), &name, "input")?;
        let mut p = [0.0f64; 3];
        for (k, v) in a[2..].iter().enumerate() {
            if let Some(v) = v
                && !v.is_none()
            {
                p[k] = match v.as_float() {
                    Some(x) => x,
                    None => crate::torch::int_arg(it, v)? as f64,
                };
            }
        }
        let op = match name.as_str() {
            "silu" => UnaryOp::Silu,
            "mish" => UnaryOp::Mish,
            "hardswish" => UnaryOp::Hardswish,
            "hardsigmoid" => UnaryOp::Hardsigmoid,
            "log_sigmoid" => UnaryOp::LogSigmoid,
            "softplus" => UnaryOp::Softplus {
                beta: p[0],
                threshold: p[1],
            },
            "elu" => UnaryOp::Elu {
                alpha: p[0],
                scale: p[1],
                input_scale: p[2],
            },
            "celu" => UnaryOp::Celu { alpha: p[0] },
            "logit" => UnaryOp::Logit {
                eps: if a[2].as_ref().is_none_or(|v| v.is_none()) {
                    -1.0
                } else {
                    p[0]
                },
            },
            "leaky_relu" => UnaryOp::LeakyRelu { slope: p[0] },
            "hardtanh" => UnaryOp::Hardtanh {
                min: p[0],
                max: p[1],
            },
            other => {
                return Err(PyException::new(
                    ExcType::RuntimeError,
                    format!("_activation(): unknown activation {other}"),
                ));
            }
        };
        Ok(wrap(rt, rt.unary(op, &t).map_err(py_err)?))
    });
    // _var_mean(input, dim, correction, keepdim, std): torch.var_mean / std_mean as one
    // Welford reduction (extra.py has bound PyTorch's overloads; dim is None or a list)
    reg(&m, rt, "_var_mean", |it, rt, args| {
        let a = args.bind(
            "_var_mean",
            &["input", "dim", "correction", "keepdim", "std"],
            5,
        )?;
        let t = need_tensor(a[0].as_ref().unwrap(), "var_mean", "input")?;
        let d = dims_arg(it, &a[1])?;
        let v = a[2].as_ref().unwrap();
        let corr = match v.as_float() {
            Some(x) => x,
            None => crate::torch::int_arg(it, v)? as f64,
        };
        // extra.py passes both as bool()
        let keep = matches!(a[3], Some(Value::Bool(true)));
        let std = matches!(a[4], Some(Value::Bool(true)));
        let (var, mean) = rt
            .var_mean(&t, d.as_deref(), corr, keep, std)
            .map_err(py_err)?;
        Ok(Value::tuple(vec![wrap(rt, var), wrap(rt, mean)]))
    });
    // _loss(name, input, target, weight, pos_weight, reduction, param): the fused elementwise
    // losses (binary_cross_entropy_with_logits, huber_loss, smooth_l1_loss) after nn.py's
    // argument checks
    reg(&m, rt, "_loss", |it, rt, args| {
        let a = args.bind(
            "_loss",
            &[
                "name",
                "input",
                "target",
                "weight",
                "pos_weight",
                "reduction",
                "param",
            ],
            6,
        )?;
        let name = a[0]
            .as_ref()
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string();
        let x = need_tensor(a[1].as_ref().unwrap(), &name, "input")?;
        let y = need_tensor(a[2].as_ref().unwrap(), &name, "target")?;
        let opt = |v: &Option<Value>, what: &str| -> PyResult<Option<Tensor>> {
            match v {
                Some(v) if !v.is_none() => Ok(Some(need_tensor(v, &name, what)?)),
                _ => Ok(None),
            }
        };
        let w = opt(&a[3], "weight")?;
        let pw = opt(&a[4], "pos_weight")?;
        let red = reduction_arg(&a[5])?;
        let param = match &a[6] {
            Some(v) if !v.is_none() => match v.as_float() {
                Some(x) => x,
                None => crate::torch::int_arg(it, v)? as f64,
            },
            _ => 1.0,
        };
        let op = match name.as_str() {
            "binary_cross_entropy_with_logits" => LossOp::BceLogits,
            "huber_loss" => LossOp::Huber(param),
            "smooth_l1_loss" => LossOp::SmoothL1(param),
            other => {
                return Err(PyException::new(
                    ExcType::RuntimeError,
                    format!("_loss(): unknown loss {other}"),
                ));
            }
        };
        let r = rt
            .elementwise_loss(op, &x, &y, w.as_ref(), pw.as_ref(), red)
            .map_err(py_err)?;
        Ok(wrap(rt, r))
    });
    // _composite(name, fn, *args, _edges=K): fn(*args) computed as one autograd node named
    // `name` (PyTorch's fused op: NativeBatchNormBackward0, BinaryCrossEntropyWithLogitsBackward0,
    // ...); backward runs fn's own graph. Its inputs are the tensors among args, or with
    // `_edges=K` the first K args, as derivatives.yaml lists the op's differentiable inputs
    // (None for an absent optional tensor: layer_norm's weight and bias); tensors after them
    // are not differentiable (running stats) and reach fn detached.
    reg(&m, rt, "_composite", |it, rt, args| {
        let mut pos = args.positional;
        if pos.len() < 2 {
            return Err(PyException::new(
                ExcType::TypeError,
                "_composite() needs a name and a function",
            ));
        }
        let mut keywords = args.keywords;
        let edge_count = match keywords.iter().position(|(k, _)| k == "_edges") {
            Some(i) => Some(crate::torch::int_arg(it, &keywords.remove(i).1)?.max(0) as usize),
            None => None,
        };
        let rest = pos.split_off(2);
        let name = pos[0].as_str().unwrap_or("CompositeBackward0").to_string();
        let f = pos[1].clone();
        let is_edge = |i: usize| edge_count.is_none_or(|k| i < k);
        // the node's inputs: a tensor, or None for an absent optional one (with `_edges`)
        let outer: Vec<Option<Tensor>> = rest
            .iter()
            .enumerate()
            .filter(|(i, v)| is_edge(*i) && (edge_count.is_some() || tensor_of(v).is_some()))
            .map(|(_, v)| tensor_of(v))
            .collect();
        let present: Vec<Tensor> = outer.iter().flatten().cloned().collect();
        let mut inner = rt.composite_inputs(&present).into_iter();
        let call_args: Vec<Value> = rest
            .iter()
            .enumerate()
            .map(|(i, v)| match tensor_of(v) {
                Some(_) if is_edge(i) => inner
                    .next()
                    .map(|t| wrap(rt, t))
                    .unwrap_or_else(|| v.clone()),
                Some(t) => wrap(rt, t.detach()),
                None => v.clone(),
            })
            .collect();
        let inner: Vec<Option<Tensor>> = {
            let mut k = 0;
            let inner_args: Vec<Tensor> = call_args
                .iter()
                .enumerate()
                .filter(|(i, v)| is_edge(*i) && tensor_of(v).is_some())
                .filter_map(|(_, v)| tensor_of(v))
                .collect();
            outer
                .iter()
                .map(|o| {
                    o.as_ref().map(|_| {
                        k += 1;
                        inner_args[k - 1].clone()
                    })
                })
                .collect()
        };
        let out = it.call(
            &f,
            Args {
                positional: call_args,
                keywords,
            },
        )?;
        match tensor_of(&out) {
            Some(o) => Ok(wrap(
                rt,
                rt.composite_finish_optional(&name, &outer, &inner, o),
            )),
            None => Ok(out),
        }
    });
    // _private_copy(t): t's autograd history on a copy of its values (what an in-place op
    // computes from when t requires grad, so its node keeps the values from before the write)
    reg(&m, rt, "_private_copy", |_, rt, args| {
        let t = args
            .positional
            .first()
            .and_then(tensor_of)
            .ok_or_else(|| PyException::type_error("_private_copy() needs a tensor"))?;
        Ok(wrap(rt, rt.private_copy(&t).map_err(py_err)?))
    });
    // _grad_node(t, name, edges=None): t's own node shown as PyTorch's `name` with only the
    // listed edges of the engine's node (None: all): an op computed by one node of another op
    // keeps that node's backward, create_graph form included
    // _node(name, fn, *args, _edges=K): fn(*args), computed by several ops, shown as PyTorch's
    // one node `name` over the tensors among args (with `_edges=K`: the first K args, None
    // for an absent optional tensor, as derivatives.yaml lists the op's differentiable
    // inputs); backward runs the ops' own graph, so gradients and create_graph are theirs
    reg(&m, rt, "_node", |it, rt, args| {
        let mut pos = args.positional;
        let mut keywords = args.keywords;
        if pos.len() < 2 {
            return Err(PyException::new(
                ExcType::TypeError,
                "_node() needs a name and a function",
            ));
        }
        let edge_count = match keywords.iter().position(|(k, _)| k == "_edges") {
            Some(i) => Some(crate::torch::int_arg(it, &keywords.remove(i).1)?.max(0) as usize),
            None => None,
        };
        let rest = pos.split_off(2);
        let name = pos[0].as_str().unwrap_or("Backward0").to_string();
        let inputs: Vec<Option<Tensor>> = match edge_count {
            Some(k) => rest.iter().take(k).map(tensor_of).collect(),
            None => rest.iter().filter_map(tensor_of).map(Some).collect(),
        };
        let out = it.call(
            &pos[1],
            Args {
                positional: rest,
                keywords,
            },
        )?;
        match tensor_of(&out) {
            Some(o) => Ok(wrap(rt, rt.named_node(&name, &inputs, o))),
            None => Ok(out),
        }
    });
    reg(&m, rt, "_grad_node", |it, rt, args| {
        let a = args.bind("_grad_node", &["t", "name", "edges"], 2)?;
        let t = a[0]
            .as_ref()
            .and_then(tensor_of)
            .ok_or_else(|| PyException::new(ExcType::TypeError, "_grad_node() needs a tensor"))?;
        let name = a[1]
            .as_ref()
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_string();
        let shown: Option<Vec<usize>> = match &a[2] {
            Some(v) if !v.is_none() => Some(
                it.iterate(v)?
                    .iter()
                    .filter_map(|e| e.as_int())
                    .filter_map(|i| usize::try_from(i).ok())
                    .collect(),
            ),
            _ => None,
        };
        Ok(wrap(rt, t.into_pytorch_node(&name, shown.as_deref())))
    });
    // _storage_info(t): (an address for t's storage, its size in bytes): data_ptr() and
    // untyped_storage() compare and subtract these as PyTorch's real pointers
    m.add_fn("_storage_info", |_, args| {
        let t = args.positional.first().and_then(tensor_of).ok_or_else(|| {
            PyException::new(ExcType::TypeError, "_storage_info() needs a tensor")
        })?;
        // the storage's own heap address: distinct per live storage, never 0
        let addr = Rc::as_ptr(&t.storage) as usize as i64;
        let nbytes = t.storage.numel * t.dtype().element_size();
        Ok(Value::tuple(vec![
            Value::Int(addr),
            Value::Int(nbytes as i64),
        ]))
    });
    // _return_types(name, keys, values): torch.return_types.NAME(key=value, ...)
    m.add_fn("_return_types", |it, args| {
        let a = args.bind("_return_types", &["name", "keys", "values"], 3)?;
        let name = a[0]
            .as_ref()
            .and_then(|v| v.as_str())
            .unwrap_or("tuple")
            .to_string();
        let keys = it.iterate(a[1].as_ref().unwrap())?;
        let vals = it.iterate(a[2].as_ref().unwrap())?;
        let fields = keys
            .iter()
            .zip(vals)
            .map(|(k, v)| {
                let k: &'static str =
                    crate::engine::tensor::autograd::intern_name(k.as_str().unwrap_or("value"));
                (k, v)
            })
            .collect();
        Ok(Value::native(StructSeq::torch_return_type(&name, fields)))
    });
    reg(&m, rt, "make_parameter", |it, rt, args| {
        let a = args.bind("Parameter", &["data", "requires_grad"], 0)?;
        let t = match &a[0] {
            Some(v) => need_tensor(v, "Parameter", "data")?,
            None => rt.empty(&[0], None, Device::Cpu).map_err(py_err)?,
        };
        let rg = truthy_opt(it, &a[1], true)?;
        let mut t = t.detach();
        if rg {
            t.set_requires_grad(true).map_err(py_err)?;
        }
        let mut p = PyTensor::new(rt.clone(), t);
        p.param = true;
        Ok(Value::native(p))
    });
    let pcls = it.define_native_class_in("Parameter", "torch.nn.parameter", &["Tensor"]);
    let ctor = m.get_attr("make_parameter").unwrap();
    it.set_class_ctor(&pcls, ctor);
    m.set_attr("Parameter", Value::Class(pcls));
    // UninitializedParameter / UninitializedBuffer(requires_grad=..., device=None, dtype=None):
    // an empty tensor of that dtype and device stands for what the lazy module will create
    reg(&m, rt, "make_uninitialized_parameter", |it, rt, args| {
        make_uninitialized(it, rt, args, false)
    });
    reg(&m, rt, "make_uninitialized_buffer", |it, rt, args| {
        make_uninitialized(it, rt, args, true)
    });
    for (class, base, ctor) in [
        (
            "UninitializedParameter",
            "Parameter",
            "make_uninitialized_parameter",
        ),
        ("UninitializedBuffer", "Tensor", "make_uninitialized_buffer"),
    ] {
        let cls = it.define_native_class_in(class, "torch.nn.parameter", &[base]);
        if let Some(f) = m.get_attr(ctor) {
            it.set_class_ctor(&cls, f);
        }
        m.set_attr(class, Value::Class(cls));
    }
    reg(&m, rt, "is_parameter", |_, _, args| {
        Ok(Value::Bool(
            args.positional
                .first()
                .and_then(|v| v.downcast::<PyTensor>())
                .is_some_and(|p| p.param),
        ))
    });
    reg(&m, rt, "device_count", |_, rt, _| {
        Ok(Value::Int(rt.device_count() as i64))
    });
    reg(&m, rt, "dims", |it, _, args| {
        let v = args.positional.first().cloned().unwrap_or_default();
        let d = dims_arg(it, &Some(v))?;
        Ok(Value::list(
            d.unwrap_or_default().into_iter().map(Value::Int).collect(),
        ))
    });
    Ok(m.into_value())
}

/// `UninitializedParameter(requires_grad=True, device=None, dtype=None)` and
/// `UninitializedBuffer(requires_grad=False, ...)` (torch/nn/parameter.py's defaults).
fn make_uninitialized(
    it: &mut Interpreter,
    rt: &Rc<Runtime>,
    args: Args,
    buffer: bool,
) -> PyResult<Value> {
    let name = if buffer {
        "UninitializedBuffer"
    } else {
        "UninitializedParameter"
    };
    let a = args.bind(name, &["requires_grad", "device", "dtype"], 0)?;
    let torch = it.import_module("torch")?;
    let empty = it.getattr(&torch, "empty")?;
    let mut kw = Vec::new();
    for (key, v) in [("device", &a[1]), ("dtype", &a[2])] {
        if let Some(v) = v {
            kw.push((key.to_string(), v.clone()));
        }
    }
    let t = it.call(&empty, Args::with_keywords(vec![Value::Int(0)], kw))?;
    let t = need_tensor(&t, name, "data")?;
    let grad = truthy_opt(it, &a[0], !buffer)?;
    let mut t = t.detach();
    if grad {
        t.set_requires_grad(true).map_err(py_err)?;
    }
    let mut p = PyTensor::new(rt.clone(), t);
    p.param = !buffer;
    Ok(Value::native(super::uninitialized::Uninitialized::new(
        buffer, p,
    )))
}

/// The `generator=` keyword of a random op (None or a `torch.Generator`).
pub(crate) fn generator_kw(args: &mut Args) -> PyResult<Option<crate::engine::SharedGenerator>> {
    match args.take_kw("generator") {
        None | Some(Value::None) => Ok(None),
        Some(v) => match v.downcast::<super::objects::PyGenerator>() {
            Some(g) => Ok(Some(g.generator.clone())),
            None => Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "expected a torch.Generator for argument 'generator', not {}",
                    v.type_name()
                ),
            )),
        },
    }
}
