//! `torch.Tensor` as a script value.

use super::PyTensor;
use super::objects::{GradFn, PyDType, PyDevice, PySize};
use super::{
    at_line, device_arg, dims_arg, dtype_arg, index_items, operand_of, py_err, scalar_of,
    scalar_value, shape_from, tensor_of, to_args, truthy_opt, wrap,
};
use crate::engine::backend::TernaryOp;
use crate::engine::dtype::Scalar;
use crate::engine::tensor::{HookCall, HookFn};
use crate::engine::{BinaryOp, DType, Device, Operand, Runtime, Tensor, UnaryOp};
use crate::script::ExcType;
use crate::script::StructSeq;
use crate::script::{
    Args, BinOp, BinaryCall, CmpOp, Interpreter, NativeCx, NativeObject, PyException, PyResult,
    UnaryOp as PyUnary, Value,
};
use std::rc::Rc;

type M = fn(&mut Interpreter, &PyTensor, &Rc<dyn NativeObject>, Args) -> PyResult<Value>;

fn method(
    this: &Rc<dyn NativeObject>,
    name: &str,
    f: impl Fn(&mut Interpreter, &PyTensor, &Rc<dyn NativeObject>, Args) -> PyResult<Value> + 'static,
) -> Value {
    let this = this.clone();
    Value::native_fn(name, move |it, mut args| {
        let p = this.as_any().downcast_ref::<PyTensor>().expect("a tensor");
        at_line(&p.rt, it);
        crate::torch::numpy_aliases(&mut args);
        f(it, p, &this, args)
    })
}

fn binop(op: BinOp) -> Option<BinaryOp> {
    Some(match op {
        BinOp::Add => BinaryOp::Add,
        BinOp::Sub => BinaryOp::Sub,
        BinOp::Mul => BinaryOp::Mul,
        BinOp::TrueDiv => BinaryOp::Div,
        BinOp::FloorDiv => BinaryOp::FloorDiv,
        BinOp::Mod => BinaryOp::Rem,
        BinOp::Pow => BinaryOp::Pow,
        BinOp::And => BinaryOp::BitAnd,
        BinOp::Or => BinaryOp::BitOr,
        BinOp::Xor => BinaryOp::BitXor,
        _ => return None,
    })
}

fn cmpop(op: CmpOp) -> BinaryOp {
    match op {
        CmpOp::Eq => BinaryOp::Eq,
        CmpOp::Ne => BinaryOp::Ne,
        CmpOp::Lt => BinaryOp::Lt,
        CmpOp::Le => BinaryOp::Le,
        CmpOp::Gt => BinaryOp::Gt,
        CmpOp::Ge => BinaryOp::Ge,
    }
}

fn one_tensor_arg(args: &Args, fname: &str) -> PyResult<Value> {
    let a = args.bind(fname, &["other"], 1)?;
    Ok(a[0].clone().unwrap_or_default())
}

fn other_operand(v: &Value, fname: &str) -> PyResult<Operand> {
    operand_of(v)?.ok_or_else(|| {
        PyException::new(
            ExcType::TypeError,
            format!(
                "{fname}(): argument 'other' (position 1) must be Tensor, not {}",
                v.type_name()
            ),
        )
    })
}

fn bin_method(
    it: &mut Interpreter,
    p: &PyTensor,
    args: Args,
    op: BinaryOp,
    fname: &str,
) -> PyResult<Value> {
    let _ = it;
    let o = one_tensor_arg(&args, fname)?;
    let o = other_operand(&o, fname)?;
    let r =
        p.rt.binary(op, &Operand::Tensor(p.tensor()), &o)
            .map_err(py_err)?;
    Ok(wrap(&p.rt, r))
}

/// `t.add(other, alpha=1)` / `t.sub(...)`.
fn alpha_method(p: &PyTensor, args: Args, op: BinaryOp, fname: &str) -> PyResult<Value> {
    let a = args.bind(fname, &["other", "alpha"], 1)?;
    let o = other_operand(&a[0].clone().unwrap_or_default(), fname)?;
    let alpha = super::alpha_of(a[1].as_ref(), fname)?;
    let r =
        p.rt.binary_alpha(op, &Operand::Tensor(p.tensor()), &o, alpha)
            .map_err(py_err)?;
    Ok(wrap(&p.rt, r))
}

/// `t.lerp(end, weight)`, `t.addcmul(tensor1, tensor2, value=1)`, `t.addcdiv(...)`.
fn ternary_method(p: &PyTensor, args: Args, op: TernaryOp, fname: &str) -> PyResult<Value> {
    let (b, c, v) = ternary_bound(&args, op, fname)?;
    let r = p.rt.ternary(op, &p.tensor(), &b, &c, v).map_err(py_err)?;
    Ok(wrap(&p.rt, r))
}

fn ternary_bound(args: &Args, op: TernaryOp, fname: &str) -> PyResult<(Tensor, Operand, Scalar)> {
    if op == TernaryOp::Lerp {
        let a = args.bind(fname, &["end", "weight"], 2)?;
        super::ternary_operands(op, a[0].as_ref(), a[1].as_ref(), None, fname)
    } else {
        let a = args.bind(fname, &["tensor1", "tensor2", "value"], 2)?;
        super::ternary_operands(op, a[0].as_ref(), a[1].as_ref(), a[2].as_ref(), fname)
    }
}

/// `t.lerp_(end, weight)`, `t.addcmul_(...)`, `t.addcdiv_(...)`: written into t, which is
/// returned.
fn ternary_inplace(
    p: &PyTensor,
    this: &Rc<dyn NativeObject>,
    args: Args,
    op: TernaryOp,
    fname: &str,
) -> PyResult<Value> {
    let (b, c, v) = ternary_bound(&args, op, fname)?;
    let t =
        p.rt.inplace_ternary(op, &p.tensor(), &b, &c, v)
            .map_err(py_err)?;
    *p.t.borrow_mut() = t;
    Ok(Value::Native(this.clone()))
}

fn view_args(it: &mut Interpreter, args: &Args) -> PyResult<Vec<i64>> {
    shape_from(it, &args.positional)
}

/// A view of the tensor (`t.permute(...)`, `t.expand(...)`): `view` makes it, and the runtime
/// records it as the view op `op` (its host event; its error, named by `op`).
fn view_method(
    p: &PyTensor,
    op: &str,
    view: impl FnOnce(&Tensor) -> crate::engine::error::Result<Tensor>,
) -> PyResult<Value> {
    let t = p.tensor();
    let v = p.rt.view_op(op, &t, view(&t)).map_err(py_err)?;
    Ok(wrap(&p.rt, v))
}

/// The tensor a method takes first (`t.matmul(other)`, `t.copy_(src)`), named `param` in its
/// TypeError.
fn first_tensor(args: &Args, fname: &str, param: &str) -> PyResult<Tensor> {
    let v = args.positional.first().unwrap_or(&Value::None);
    super::need_tensor(v, fname, param)
}

/// A shape the size of `o`'s (`t.view_as(o)`, `t.expand_as(o)`).
fn shape_of(o: &Tensor) -> Vec<i64> {
    o.shape().iter().map(|&d| d as i64).collect()
}

/// An optional `dtype=` argument (None when absent).
fn dtype_opt(v: &Option<Value>) -> PyResult<Option<DType>> {
    match v {
        Some(v) => dtype_arg(v),
        None => Ok(None),
    }
}

/// `(dim, dtype=None)`: `t.softmax(...)`, `t.cumsum(...)`.
fn dim_dtype(it: &mut Interpreter, args: &Args, fname: &str) -> PyResult<(i64, Option<DType>)> {
    let a = args.bind(fname, &["dim", "dtype"], 1)?;
    let d = crate::torch::int_arg(it, a[0].as_ref().unwrap())?;
    Ok((d, dtype_opt(&a[1])?))
}

/// Required int arguments: `t.transpose(dim0, dim1)`, `t.select(dim, index)`.
fn int_args<const N: usize>(
    it: &mut Interpreter,
    args: &Args,
    fname: &str,
    params: [&str; N],
) -> PyResult<[i64; N]> {
    let a = args.bind(fname, &params, N)?;
    let mut ints = [0; N];
    for (int, arg) in ints.iter_mut().zip(&a) {
        *int = crate::torch::int_arg(it, arg.as_ref().unwrap())?;
    }
    Ok(ints)
}

/// What an in-place method returns: the tensor itself, once `done` succeeded.
fn itself<T>(
    this: &Rc<dyn NativeObject>,
    done: crate::engine::error::Result<T>,
) -> PyResult<Value> {
    done.map_err(py_err)?;
    Ok(Value::Native(this.clone()))
}

/// `(dim, index)`: `t.index_select(...)`, `t.gather(...)`.
fn dim_index(it: &mut Interpreter, args: &Args, fname: &str) -> PyResult<(i64, Tensor)> {
    let a = args.bind(fname, &["dim", "index"], 2)?;
    let d = crate::torch::int_arg(it, a[0].as_ref().unwrap())?;
    Ok((
        d,
        super::need_tensor(a[1].as_ref().unwrap(), fname, "index")?,
    ))
}

/// `(dim=-1, descending=False, stable=False)`: `t.sort(...)`, `t.argsort(...)`.
fn sort_args(it: &mut Interpreter, args: &Args, fname: &str) -> PyResult<(i64, bool)> {
    let a = args.bind(fname, &["dim", "descending", "stable"], 0)?;
    let d = match &a[0] {
        Some(v) if !v.is_none() => crate::torch::int_arg(it, v)?,
        _ => -1,
    };
    Ok((d, truthy_opt(it, &a[1], false)?))
}

/// An in-place random fill's `generator=` and its float parameters, each with its default
/// (`t.uniform_(from=0, to=1)`, `t.exponential_(lambd=1)`).
fn fill_args<const N: usize>(
    it: &mut Interpreter,
    args: &mut Args,
    fname: &str,
    params: [(&str, f64); N],
) -> PyResult<(Option<crate::engine::SharedGenerator>, [f64; N])> {
    let g = super::functions::generator_kw(args)?;
    let a = args.bind(fname, &params.map(|(name, _)| name), 0)?;
    let mut values = [0.0; N];
    for ((value, arg), (_, default)) in values.iter_mut().zip(&a).zip(params) {
        *value = float_or(it, arg, default)?;
    }
    Ok((g, values))
}

fn reduce_args(
    it: &mut Interpreter,
    args: &Args,
    fname: &str,
) -> PyResult<(Option<Vec<i64>>, bool, Option<DType>)> {
    let a = args.bind(fname, &["dim", "keepdim", "dtype"], 0)?;
    let dims = dims_arg(it, &a[0])?;
    let keep = truthy_opt(it, &a[1], false)?;
    Ok((dims, keep, dtype_opt(&a[2])?))
}

fn dim_keep(it: &mut Interpreter, args: &Args, fname: &str) -> PyResult<(Option<i64>, bool)> {
    let a = args.bind(fname, &["dim", "keepdim"], 0)?;
    let d = match &a[0] {
        None | Some(Value::None) => None,
        Some(v) => Some(crate::torch::int_arg(it, v)?),
    };
    Ok((d, truthy_opt(it, &a[1], false)?))
}

/// `t.any(dim, keepdim)` / `t.all(...)`: `dim` an int, None, or a tuple of ints.
fn any_all(it: &mut Interpreter, p: &PyTensor, args: &Args, is_all: bool) -> PyResult<Value> {
    let name = if is_all { "all" } else { "any" };
    let a = args.bind(name, &["dim", "keepdim"], 0)?;
    let keep = truthy_opt(it, &a[1], false)?;
    let t = p.tensor();
    let out = match &a[0] {
        Some(v @ (Value::Tuple(_) | Value::List(_))) => {
            let mut dims = Vec::new();
            for d in v.as_vec().unwrap_or_default() {
                dims.push(crate::torch::int_arg(it, &d)?);
            }
            p.rt.any_all_dims(&t, &dims, keep, is_all)
        }
        other => {
            let d = match other {
                None | Some(Value::None) => None,
                Some(v) => Some(crate::torch::int_arg(it, v)?),
            };
            if is_all {
                p.rt.all(&t, d, keep)
            } else {
                p.rt.any(&t, d, keep)
            }
        }
    };
    Ok(wrap(&p.rt, out.map_err(py_err)?))
}

/// `torch._extra.NAME(self, *args)`: the general form of a method, written in Python
/// (src/torch/extra.py) where the native one covers the common case.
fn call_extra(
    it: &mut Interpreter,
    this: &Rc<dyn NativeObject>,
    name: &str,
    mut args: Args,
) -> PyResult<Value> {
    let m = it.import_module("torch._extra")?;
    let Some(f) = it.getattr_opt(&m, name)? else {
        return Err(PyException::new(
            ExcType::NotImplementedError,
            format!("cudatutor: torch._extra.{name} is missing"),
        ));
    };
    args.positional.insert(0, Value::Native(this.clone()));
    it.call(&f, args)
}

/// `t.max()`, `t.max(dim)`, `t.max(other)` (and min).
pub(crate) fn max_like(
    it: &mut Interpreter,
    rt: &Rc<Runtime>,
    t: &Tensor,
    args: &Args,
    is_max: bool,
) -> PyResult<Value> {
    let name = if is_max { "max" } else { "min" };
    if let Some(o) = args.positional.first().and_then(tensor_of) {
        let op = if is_max {
            BinaryOp::Maximum
        } else {
            BinaryOp::Minimum
        };
        return Ok(wrap(
            rt,
            rt.binary(op, &Operand::Tensor(t.clone()), &Operand::Tensor(o))
                .map_err(py_err)?,
        ));
    }
    let (d, keep) = dim_keep(it, args, name)?;
    match d {
        None => Ok(wrap(rt, rt.max_all(t, is_max).map_err(py_err)?)),
        Some(d) => {
            let (v, i) = rt.max_dim(t, d, keep, is_max).map_err(py_err)?;
            Ok(Value::native(StructSeq::torch_return_type(
                name,
                vec![("values", wrap(rt, v)), ("indices", wrap(rt, i))],
            )))
        }
    }
}

fn std_var(it: &mut Interpreter, p: &PyTensor, args: &Args, std: bool) -> PyResult<Value> {
    let name = if std { "std" } else { "var" };
    // the `std(bool unbiased)` overload: a lone bool is `unbiased`, not a dim
    if let [Value::Bool(unbiased)] = args.positional.as_slice()
        && args.keywords.is_empty()
    {
        let corr = if *unbiased { 1.0 } else { 0.0 };
        return Ok(wrap(
            &p.rt,
            p.rt.var(&p.tensor(), None, corr, false, std)
                .map_err(py_err)?,
        ));
    }
    let a = args.bind(name, &["dim", "unbiased", "keepdim", "correction"], 0)?;
    let d = dims_arg(it, &a[0])?;
    let unbiased = truthy_opt(it, &a[1], true)?;
    let keep = truthy_opt(it, &a[2], false)?;
    let corr = match &a[3] {
        Some(v) if !v.is_none() => v
            .as_float()
            .or_else(|| v.as_int().map(|i| i as f64))
            .unwrap_or(1.0),
        _ => {
            if unbiased {
                1.0
            } else {
                0.0
            }
        }
    };
    Ok(wrap(
        &p.rt,
        p.rt.var(&p.tensor(), d.as_deref(), corr, keep, std)
            .map_err(py_err)?,
    ))
}

fn cumulative(it: &mut Interpreter, p: &PyTensor, args: &Args, prod: bool) -> PyResult<Value> {
    let (d, dt) = dim_dtype(it, args, if prod { "cumprod" } else { "cumsum" })?;
    Ok(wrap(
        &p.rt,
        p.rt.cumulative(&p.tensor(), d, prod, dt).map_err(py_err)?,
    ))
}

/// `torch.unique(t, sorted=True, return_inverse=False, return_counts=False, dim=None)`.
pub(crate) fn unique_value(
    it: &mut Interpreter,
    rt: &Rc<Runtime>,
    t: &Tensor,
    args: &Args,
) -> PyResult<Value> {
    let a = args.bind(
        "unique",
        &["sorted", "return_inverse", "return_counts", "dim"],
        0,
    )?;
    if a[3].as_ref().is_some_and(|v| !v.is_none()) {
        return Err(PyException::new(
            ExcType::NotImplementedError,
            "cudatutor does not support unique(dim=...) yet",
        ));
    }
    let inv = truthy_opt(it, &a[1], false)?;
    let cnt = truthy_opt(it, &a[2], false)?;
    let (v, i, c) = rt.unique(t).map_err(py_err)?;
    if !inv && !cnt {
        return Ok(wrap(rt, v));
    }
    let mut out = vec![wrap(rt, v)];
    if inv {
        out.push(wrap(rt, i));
    }
    if cnt {
        out.push(wrap(rt, c));
    }
    Ok(Value::tuple(out))
}

fn new_like(p: &PyTensor, t: Tensor, this: &Rc<dyn NativeObject>) -> Value {
    let _ = this;
    wrap(&p.rt, t)
}

fn shape_value(t: &Tensor) -> Value {
    Value::native(PySize(t.shape().to_vec()))
}

fn tensor_method(this: &Rc<dyn NativeObject>, p: &PyTensor, name: &str) -> Option<Value> {
    let t = p.tensor();
    let rt = &p.rt;
    // attributes
    match name {
        "shape" => return Some(shape_value(&t)),
        "dtype" => return Some(Value::native(PyDType(t.dtype()))),
        "device" => return Some(Value::native(PyDevice(t.device().spec()))),
        "is_cuda" => return Some(Value::Bool(t.is_cuda())),
        "is_meta" => return Some(Value::Bool(t.is_meta())),
        "is_cpu" => return Some(Value::Bool(t.device() == Device::Cpu)),
        "requires_grad" => return Some(Value::Bool(t.requires_grad())),
        "is_leaf" => return Some(Value::Bool(t.is_leaf())),
        "retains_grad" => return Some(Value::Bool(t.retains_grad())),
        "grad" => return Some(t.grad().map(|g| wrap(rt, g)).unwrap_or(Value::None)),
        "grad_fn" => {
            return Some(GradFn::of(&t).map(Value::native).unwrap_or(Value::None));
        }
        "ndim" => return Some(Value::Int(t.dim() as i64)),
        "nbytes" => return Some(Value::Int(t.nbytes() as i64)),
        "itemsize" => return Some(Value::Int(t.element_size() as i64)),
        "T" => return Some(wrap(rt, t.t_all())),
        "data" => return Some(wrap(rt, t.detach())),
        _ => {}
    }
    let f: M = match name {
        "size" => |it, p, _, args| {
            let a = args.bind("size", &["dim"], 0)?;
            let t = p.tensor();
            match &a[0] {
                None | Some(Value::None) => Ok(shape_value(&t)),
                Some(d) => {
                    let d = crate::torch::int_arg(it, d)?;
                    Ok(Value::Int(t.size(d).map_err(py_err)? as i64))
                }
            }
        },
        "dim" | "ndimension" => |_, p, _, _| Ok(Value::Int(p.tensor().dim() as i64)),
        "numel" | "nelement" => |_, p, _, _| Ok(Value::Int(p.tensor().numel() as i64)),
        "element_size" => |_, p, _, _| Ok(Value::Int(p.tensor().element_size() as i64)),
        "is_pinned" => |_, p, _, _| Ok(Value::Bool(p.tensor().is_pinned())),
        "is_contiguous" => |_, p, _, _| Ok(Value::Bool(p.tensor().is_contiguous())),
        "is_floating_point" => |_, p, _, _| Ok(Value::Bool(p.tensor().dtype().is_floating_point())),
        "get_device" => |_, p, _, _| {
            Ok(Value::Int(
                p.tensor()
                    .device()
                    .cuda_index()
                    .map(|i| i as i64)
                    .unwrap_or(-1),
            ))
        },
        "type" => |it, p, this, args| {
            let a = args.bind("type", &["dtype", "non_blocking"], 0)?;
            let Some(v) = a[0].as_ref().filter(|v| !v.is_none()) else {
                return Ok(Value::string(crate::engine::tensor::tensor_type_name(
                    &p.tensor(),
                )));
            };
            // t.type(torch.FloatTensor): the legacy constructors of src/torch/extra.py
            let legacy = match v {
                Value::Function(_) => it
                    .getattr(v, "__name__")
                    .ok()
                    .and_then(|n| n.as_str().map(|s| format!("torch.{s}"))),
                _ => None,
            };
            let v = &legacy.map(Value::string).unwrap_or_else(|| v.clone());
            // t.type(torch.int64) or t.type('torch.LongTensor')
            let dt = match v.as_str() {
                Some(name) => crate::engine::tensor::dtype_of_type_name(name).ok_or_else(|| {
                    PyException::new(ExcType::ValueError, format!("invalid type: '{name}'"))
                })?,
                None => dtype_arg(v)?.ok_or_else(|| {
                    PyException::new(
                        ExcType::TypeError,
                        format!(
                            "type() received an invalid combination of arguments - got ({})",
                            v.type_name()
                        ),
                    )
                })?,
            };
            cast(p, this, dt, "type")
        },
        "item" => |_, p, _, _| Ok(scalar_value(p.rt.item(&p.tensor()).map_err(py_err)?)),
        "tolist" => |it, p, _, _| {
            let t = p.tensor();
            // A Python int/float object per element: refused with MemoryError up front when
            // the run's memory budget cannot hold it (x.tolist() of 2**24 kept in a loop).
            let per = std::mem::size_of::<crate::script::Value>() + 16;
            it.check_alloc((t.numel() as u64).saturating_mul(per as u64))?;
            let v = p.rt.tolist(&t).map_err(py_err)?;
            Ok(super::nested(&v, t.shape()))
        },
        "numpy" => |_, p, _, _| {
            let t = p.tensor();
            p.rt.numpy(&t).map_err(py_err)?;
            // the tensor's own memory: writes through either are seen by the other
            Ok(crate::numpy::from_tensor(&t))
        },
        "cpu" => |_, p, this, _| {
            let t = p.tensor();
            if t.device() == Device::Cpu {
                return Ok(Value::Native(this.clone()));
            }
            Ok(wrap(
                &p.rt,
                p.rt.to(&t, Some(Device::Cpu), None, false, false, "cpu")
                    .map_err(py_err)?,
            ))
        },
        "cuda" => |_, p, this, args| {
            let a = args.bind("cuda", &["device", "non_blocking", "memory_format"], 0)?;
            let dev = match device_arg(&p.rt, a[0].as_ref())? {
                Some(d) => d,
                None => Device::Cuda(
                    p.rt.check_device(p.rt.current_device() as i64)
                        .map_err(py_err)?,
                ),
            };
            let nb = a[1].as_ref().and_then(|v| v.as_bool()).unwrap_or(false);
            let t = p.tensor();
            if t.device() == dev {
                return Ok(Value::Native(this.clone()));
            }
            Ok(wrap(
                &p.rt,
                p.rt.to(&t, Some(dev), None, nb, false, "cuda")
                    .map_err(py_err)?,
            ))
        },
        "to" => |_, p, this, args| {
            let (dev, dt, nb, copy) = to_args(&p.rt, &args)?;
            let t = p.tensor();
            if nb {
                let dtype_change = dt.is_some_and(|d| d != t.dtype());
                if let Some(r) = super::async_copy::d2h_non_blocking(&p.rt, &t, dev, dtype_change) {
                    return Ok(wrap(&p.rt, r.map_err(py_err)?));
                }
            }
            let r = p.rt.to(&t, dev, dt, nb, copy, "to").map_err(py_err)?;
            if r.shares_storage(&t) && r.shape() == t.shape() && !copy {
                return Ok(Value::Native(this.clone()));
            }
            Ok(wrap(&p.rt, r))
        },
        "float" => |_, p, this, _| cast(p, this, DType::Float32, "float"),
        "double" => |_, p, this, _| cast(p, this, DType::Float64, "double"),
        "half" => |_, p, this, _| cast(p, this, DType::Float16, "half"),
        "bfloat16" => |_, p, this, _| cast(p, this, DType::BFloat16, "bfloat16"),
        "long" => |_, p, this, _| cast(p, this, DType::Int64, "long"),
        "int" => |_, p, this, _| cast(p, this, DType::Int32, "int"),
        "bool" => |_, p, this, _| cast(p, this, DType::Bool, "bool"),
        "byte" => |_, p, this, _| cast(p, this, DType::UInt8, "byte"),
        "char" => |_, p, this, _| cast(p, this, DType::Int8, "char"),
        "short" => |_, p, this, _| cast(p, this, DType::Int16, "short"),
        "pin_memory" => |_, p, _, _| Ok(wrap(&p.rt, p.rt.pin_memory(&p.tensor()).map_err(py_err)?)),
        "clone" => |_, p, _, _| Ok(wrap(&p.rt, p.rt.clone_tensor(&p.tensor()).map_err(py_err)?)),
        "detach" => |_, p, _, _| Ok(wrap(&p.rt, p.tensor().detach())),
        "contiguous" => |_, p, this, _| {
            let t = p.tensor();
            if t.is_contiguous() {
                return Ok(Value::Native(this.clone()));
            }
            Ok(wrap(&p.rt, p.rt.contiguous(&t).map_err(py_err)?))
        },
        "requires_grad_" => |it, p, this, args| {
            let a = args.bind("requires_grad_", &["requires_grad"], 0)?;
            let on = truthy_opt(it, &a[0], true)?;
            if on && !p.tensor().dtype().is_floating_point() {
                // requires_grad_() words it without "and complex" (the setter keeps it)
                return Err(PyException::new(
                    ExcType::RuntimeError,
                    "only Tensors of floating point dtype can require gradients",
                ));
            }
            p.t.borrow_mut().set_requires_grad(on).map_err(py_err)?;
            Ok(Value::Native(this.clone()))
        },
        // `self._set_view_(view, name)`: the in-place view ops (`unsqueeze_`, `t_`, `resize_`
        // … in extra_inplace.py) compute the view out of place, then make this very object
        // (every Python reference to it) that view, its grad_fn renamed as PyTorch names the
        // in-place node.
        "_set_view_" => |_, p, this, args| {
            let a = args.bind("_set_view_", &["view", "grad_fn"], 1)?;
            let view = super::need_tensor(a[0].as_ref().unwrap(), "_set_view_", "view")?;
            let name = match &a[1] {
                Some(Value::Str(s)) => Some(s.to_string()),
                _ => None,
            };
            let cur = p.tensor();
            if cur.requires_grad && cur.is_leaf() && p.rt.grad_enabled() {
                return Err(PyException::new(
                    ExcType::RuntimeError,
                    "a leaf Variable that requires grad is being used in an in-place operation.",
                ));
            }
            let mut new = view.clone();
            if let Some(n) = name {
                new = new.with_grad_fn_name(&n);
            }
            *p.t.borrow_mut() = new;
            Ok(Value::Native(this.clone()))
        },
        "view" => |it, p, _, args| {
            let t = p.tensor();
            if let Some(d) = args
                .positional
                .first()
                .and_then(|v| dtype_arg(v).ok().flatten())
            {
                if d == t.dtype() {
                    return Ok(wrap(&p.rt, t.clone()));
                }
                return Err(PyException::new(
                    ExcType::NotImplementedError,
                    "cudatutor does not support view(dtype) yet",
                ));
            }
            let s = view_args(it, &args)?;
            let r = p.rt.view_op("view", &t, t.view(&s));
            Ok(wrap(&p.rt, r.map_err(py_err)?))
        },
        "reshape" => |it, p, _, args| {
            let s = view_args(it, &args)?;
            Ok(wrap(&p.rt, p.rt.reshape(&p.tensor(), &s).map_err(py_err)?))
        },
        "view_as" | "reshape_as" => |_, p, _, args| {
            let s = shape_of(&first_tensor(&args, "view_as", "other")?);
            Ok(wrap(&p.rt, p.rt.reshape(&p.tensor(), &s).map_err(py_err)?))
        },
        "flatten" => |it, p, _, args| {
            let a = args.bind("flatten", &["start_dim", "end_dim"], 0)?;
            let t = p.tensor();
            let nd = t.dim().max(1) as i64;
            let s = match &a[0] {
                Some(v) => crate::torch::int_arg(it, v)?,
                None => 0,
            };
            let e = match &a[1] {
                Some(v) => crate::torch::int_arg(it, v)?,
                None => -1,
            };
            let s = crate::engine::tensor::wrap_dim(s, t.dim()).map_err(py_err)? as i64;
            let e = crate::engine::tensor::wrap_dim(e, t.dim()).map_err(py_err)? as i64;
            let _ = nd;
            if t.dim() == 0 {
                return Ok(wrap(&p.rt, p.rt.reshape(&t, &[1]).map_err(py_err)?));
            }
            let mut shape: Vec<i64> = t.shape()[..s as usize].iter().map(|&d| d as i64).collect();
            shape.push(t.shape()[s as usize..=e as usize].iter().product::<usize>() as i64);
            shape.extend(t.shape()[e as usize + 1..].iter().map(|&d| d as i64));
            Ok(wrap(&p.rt, p.rt.reshape(&t, &shape).map_err(py_err)?))
        },
        "unsqueeze" => |it, p, _, args| {
            let [d] = int_args(it, &args, "unsqueeze", ["dim"])?;
            view_method(p, "unsqueeze", |t| t.unsqueeze(d))
        },
        "squeeze" => |it, p, _, args| {
            let a = args.bind("squeeze", &["dim"], 0)?;
            if let Some(v @ (Value::Tuple(_) | Value::List(_))) = &a[0] {
                let dims = dims_arg(it, &Some(v.clone()))?.unwrap_or_default();
                return view_method(p, "squeeze", |t| t.squeeze_dims(&dims));
            }
            let d = match &a[0] {
                Some(v) if !v.is_none() => Some(crate::torch::int_arg(it, v)?),
                _ => None,
            };
            view_method(p, "squeeze", |t| t.squeeze(d))
        },
        "t" => |_, p, _, _| view_method(p, "t", Tensor::t),
        "transpose" => |it, p, _, args| {
            let [d0, d1] = int_args(it, &args, "transpose", ["dim0", "dim1"])?;
            view_method(p, "transpose", |t| t.transpose(d0, d1))
        },
        "as_strided" => |it, p, _, args| {
            let a = args.bind("as_strided", &["size", "stride", "storage_offset"], 2)?;
            let size = shape_from(it, std::slice::from_ref(a[0].as_ref().unwrap()))?;
            let stride = shape_from(it, std::slice::from_ref(a[1].as_ref().unwrap()))?;
            let offset = match &a[2] {
                None | Some(Value::None) => None,
                Some(v) => Some(crate::torch::int_arg(it, v)?),
            };
            view_method(p, "as_strided", |t| t.as_strided(&size, &stride, offset))
        },
        "permute" => |it, p, _, args| {
            let dims = shape_from(it, &args.positional)?;
            view_method(p, "permute", |t| t.permute(&dims))
        },
        "expand" => |it, p, _, args| {
            let s = shape_from(it, &args.positional)?;
            view_method(p, "expand", |t| t.expand(&s))
        },
        "expand_as" => |_, p, _, args| {
            let s = shape_of(&first_tensor(&args, "expand_as", "other")?);
            view_method(p, "expand", |t| t.expand(&s))
        },
        "sum" => |it, p, _, args| {
            let (d, k, dt) = reduce_args(it, &args, "sum")?;
            Ok(wrap(
                &p.rt,
                p.rt.sum(&p.tensor(), d.as_deref(), k, dt).map_err(py_err)?,
            ))
        },
        "mean" => |it, p, _, args| {
            let (d, k, dt) = reduce_args(it, &args, "mean")?;
            let mut t = p.tensor();
            if let Some(dt) = dt {
                if !dt.is_floating_point() {
                    // ATen's mean checks the dtype= it was given before the input's
                    return Err(PyException::new(
                        ExcType::NotImplementedError,
                        format!(
                            "mean(): could not infer output dtype. Optional dtype must be either a floating point or complex dtype. Got: {}",
                            dt.scalar_name()
                        ),
                    ));
                }
                t =
                    p.rt.to(&t, None, Some(dt), false, false, "to")
                        .map_err(py_err)?;
            }
            Ok(wrap(&p.rt, p.rt.mean(&t, d.as_deref(), k).map_err(py_err)?))
        },
        // one fn each: a shared `"std" | "var"` arm could not tell them apart (var printed std)
        "std" => |it, p, _, args| std_var(it, p, &args, true),
        "var" => |it, p, _, args| std_var(it, p, &args, false),
        "prod" => |it, p, _, args| {
            let (d, k) = dim_keep(it, &args, "prod")?;
            Ok(wrap(&p.rt, p.rt.prod(&p.tensor(), d, k).map_err(py_err)?))
        },
        "any" => |it, p, _, args| any_all(it, p, &args, false),
        "all" => |it, p, _, args| any_all(it, p, &args, true),
        "max" => |it, p, _, args| max_like(it, &p.rt, &p.tensor(), &args, true),
        "min" => |it, p, _, args| max_like(it, &p.rt, &p.tensor(), &args, false),
        "argmax" => |it, p, _, args| {
            let (d, k) = dim_keep(it, &args, "argmax")?;
            Ok(wrap(
                &p.rt,
                p.rt.argmax(&p.tensor(), d, k, true).map_err(py_err)?,
            ))
        },
        "argmin" => |it, p, _, args| {
            let (d, k) = dim_keep(it, &args, "argmin")?;
            Ok(wrap(
                &p.rt,
                p.rt.argmax(&p.tensor(), d, k, false).map_err(py_err)?,
            ))
        },
        "cumsum" => |it, p, _, args| cumulative(it, p, &args, false),
        "logcumsumexp" => |it, p, _, args| {
            let a = args.bind("logcumsumexp", &["dim"], 1)?;
            let d = crate::torch::int_arg(it, a[0].as_ref().unwrap())?;
            Ok(wrap(
                &p.rt,
                p.rt.logcumsumexp(&p.tensor(), d).map_err(py_err)?,
            ))
        },
        "cumprod" => |it, p, _, args| cumulative(it, p, &args, true),
        "sort" => |it, p, _, args| {
            let (d, desc) = sort_args(it, &args, "sort")?;
            let (v, i) = p.rt.sort(&p.tensor(), d, desc, None).map_err(py_err)?;
            Ok(Value::native(StructSeq::torch_return_type(
                "sort",
                vec![("values", wrap(&p.rt, v)), ("indices", wrap(&p.rt, i))],
            )))
        },
        "argsort" => |it, p, _, args| {
            let (d, desc) = sort_args(it, &args, "argsort")?;
            let (_, i) = p.rt.sort(&p.tensor(), d, desc, None).map_err(py_err)?;
            Ok(wrap(&p.rt, i))
        },
        "topk" => |it, p, _, args| {
            let a = args.bind("topk", &["k", "dim", "largest", "sorted"], 1)?;
            let k = crate::torch::int_arg(it, a[0].as_ref().unwrap())?;
            let d = match &a[1] {
                Some(v) if !v.is_none() => crate::torch::int_arg(it, v)?,
                _ => -1,
            };
            let largest = truthy_opt(it, &a[2], true)?;
            if k < 0 {
                return Err(PyException::new(
                    ExcType::RuntimeError,
                    "selected index k out of range",
                ));
            }
            let (v, i) =
                p.rt.sort(&p.tensor(), d, largest, Some(k as usize))
                    .map_err(py_err)?;
            Ok(Value::native(StructSeq::torch_return_type(
                "topk",
                vec![("values", wrap(&p.rt, v)), ("indices", wrap(&p.rt, i))],
            )))
        },
        "unique" => |it, p, _, args| unique_value(it, &p.rt, &p.tensor(), &args),
        "median" => |it, p, this, args| {
            if !args.is_empty() {
                // median(dim): values and indices, written in Python (src/torch/extra.py)
                return call_extra(it, this, "_median_dim", args);
            }
            Ok(wrap(&p.rt, p.rt.median(&p.tensor()).map_err(py_err)?))
        },
        "norm" => |it, p, _, args| {
            let a = args.bind("norm", &["p", "dim", "keepdim", "dtype"], 0)?;
            let pv = match &a[0] {
                None | Some(Value::None) => 2.0,
                Some(v) if v.as_str() == Some("fro") => 2.0,
                Some(v) => v.as_float().ok_or_else(|| {
                    PyException::new(ExcType::TypeError, "norm(): argument 'p' must be a number")
                })?,
            };
            let d = dims_arg(it, &a[1])?;
            let k = truthy_opt(it, &a[2], false)?;
            Ok(wrap(
                &p.rt,
                p.rt.norm(&p.tensor(), pv, d.as_deref(), k)
                    .map_err(py_err)?,
            ))
        },
        "count_nonzero" => |it, p, _, args| {
            let a = args.bind("count_nonzero", &["dim"], 0)?;
            let d = dims_arg(it, &a[0])?;
            Ok(wrap(
                &p.rt,
                p.rt.count_nonzero(&p.tensor(), d.as_deref())
                    .map_err(py_err)?,
            ))
        },
        "repeat" => |it, p, _, args| {
            let s = shape_from(it, &args.positional)?;
            Ok(wrap(&p.rt, p.rt.repeat(&p.tensor(), &s).map_err(py_err)?))
        },
        "chunk" => |it, p, _, args| {
            let a = args.bind("chunk", &["chunks", "dim"], 1)?;
            let n = crate::torch::int_arg(it, a[0].as_ref().unwrap())?;
            let d = match &a[1] {
                Some(v) => crate::torch::int_arg(it, v)?,
                None => 0,
            };
            let ts = p.rt.chunk(&p.tensor(), n, d).map_err(py_err)?;
            Ok(Value::tuple(
                ts.into_iter().map(|t| wrap(&p.rt, t)).collect(),
            ))
        },
        "split" => |it, p, _, args| {
            let a = args.bind("split", &["split_size", "dim"], 1)?;
            let d = match &a[1] {
                Some(v) => crate::torch::int_arg(it, v)?,
                None => 0,
            };
            let t = p.tensor();
            let sz = a[0].as_ref().unwrap();
            // split_size_or_sections: an int, or a sequence of ints (a list, a tuple, a
            // torch.Size)
            let sections = match sz {
                Value::List(_) | Value::Tuple(_) => sz.as_vec(),
                _ => sz
                    .downcast::<PySize>()
                    .map(|s| s.0.iter().map(|&n| Value::Int(n as i64)).collect()),
            };
            let ts = match sections {
                Some(sections) => {
                    let mut sizes = Vec::new();
                    for v in sections {
                        sizes.push(crate::torch::int_arg(it, &v)?.max(0) as usize);
                    }
                    p.rt.split_sizes(&t, &sizes, d)
                }
                None => {
                    let n = crate::torch::int_arg(it, sz)?;
                    p.rt.split_even(&t, n.max(0) as usize, d)
                }
            }
            .map_err(py_err)?;
            Ok(Value::tuple(
                ts.into_iter().map(|t| wrap(&p.rt, t)).collect(),
            ))
        },
        "stride" => |it, p, _, args| {
            let a = args.bind("stride", &["dim"], 0)?;
            let t = p.tensor();
            match &a[0] {
                None | Some(Value::None) => Ok(Value::tuple(
                    t.strides().iter().map(|&s| Value::Int(s as i64)).collect(),
                )),
                Some(v) => {
                    let d = crate::torch::int_arg(it, v)?;
                    let d = crate::engine::tensor::wrap_dim(d, t.dim()).map_err(py_err)?;
                    Ok(Value::Int(t.strides().get(d).copied().unwrap_or(1) as i64))
                }
            }
        },
        "storage_offset" => |_, p, _, _| Ok(Value::Int(p.tensor().storage_offset() as i64)),
        "clamp" | "clip" => |_, p, _, args| {
            let a = args.bind("clamp", &["min", "max"], 0)?;
            // a tensor bound selects clamp.Tensor (None counts as no bound)
            let bound = |v: &Option<Value>| -> PyResult<Option<Operand>> {
                match v {
                    Some(v) if !v.is_none() => operand_of(v),
                    _ => Ok(None),
                }
            };
            if a.iter().flatten().any(|v| tensor_of(v).is_some()) {
                let (lo, hi) = (bound(&a[0])?, bound(&a[1])?);
                return Ok(wrap(
                    &p.rt,
                    p.rt.clamp_tensor(&p.tensor(), lo.as_ref(), hi.as_ref())
                        .map_err(py_err)?,
                ));
            }
            let lo = a[0].as_ref().and_then(scalar_of);
            let hi = a[1].as_ref().and_then(scalar_of);
            Ok(wrap(
                &p.rt,
                p.rt.clamp(&p.tensor(), lo, hi).map_err(py_err)?,
            ))
        },
        "softmax" => |it, p, _, args| {
            let (d, dt) = dim_dtype(it, &args, "softmax")?;
            Ok(wrap(
                &p.rt,
                p.rt.softmax(&p.tensor(), d, dt).map_err(py_err)?,
            ))
        },
        "log_softmax" => |it, p, _, args| {
            let (d, dt) = dim_dtype(it, &args, "log_softmax")?;
            Ok(wrap(
                &p.rt,
                p.rt.log_softmax(&p.tensor(), d, dt).map_err(py_err)?,
            ))
        },
        "lerp" => |_, p, _, args| ternary_method(p, args, TernaryOp::Lerp, "lerp"),
        "addcmul" => |_, p, _, args| ternary_method(p, args, TernaryOp::Addcmul, "addcmul"),
        "addcdiv" => |_, p, _, args| ternary_method(p, args, TernaryOp::Addcdiv, "addcdiv"),
        "add" => |_, p, _, args| alpha_method(p, args, BinaryOp::Add, "add"),
        "sub" => |_, p, _, args| alpha_method(p, args, BinaryOp::Sub, "sub"),
        "div" => |_, p, _, args| {
            let a = args.bind("div", &["other", "rounding_mode"], 1)?;
            let o = other_operand(&a[0].clone().unwrap_or_default(), "div")?;
            let op = super::functions::div_mode(a[1].as_ref())?;
            let r =
                p.rt.binary(op, &Operand::Tensor(p.tensor()), &o)
                    .map_err(py_err)?;
            Ok(wrap(&p.rt, r))
        },
        "matmul" | "mm" => |_, p, _, args| {
            let o = first_tensor(&args, "matmul", "other")?;
            Ok(wrap(&p.rt, p.rt.matmul(&p.tensor(), &o).map_err(py_err)?))
        },
        "masked_fill" => |_, p, _, args| {
            let a = args.bind("masked_fill", &["mask", "value"], 2)?;
            let m = super::need_tensor(a[0].as_ref().unwrap(), "masked_fill", "mask")?;
            let v = a[1].as_ref().unwrap();
            super::check_long(v)?;
            if let Some(vt) = tensor_of(v).filter(|t| t.dim() > 0) {
                return Err(PyException::new(
                    ExcType::RuntimeError,
                    format!(
                        "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).",
                        vt.dim()
                    ),
                ));
            }
            let s = match scalar_of(v) {
                Some(s) => s,
                None => tensor_of(v)
                    .and_then(|t| t.scalars().ok())
                    .and_then(|v| v.first().copied())
                    .ok_or_else(|| {
                        PyException::new(
                            ExcType::TypeError,
                            "masked_fill(): argument 'value' must be Number",
                        )
                    })?,
            };
            // out of place, PyTorch fills a copy of the input expanded to the broadcast shape
            // of input and mask (a larger mask widens the result)
            let mut t = p.tensor();
            if let Ok(shape) = crate::engine::tensor::broadcast_shapes(t.shape(), m.shape())
                && shape.as_slice() != t.shape()
                && m.dtype() == crate::engine::DType::Bool
            {
                let sizes: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
                let e = t.expand(&sizes);
                t = p.rt.view_op("expand", &t, e).map_err(py_err)?;
            }
            Ok(wrap(&p.rt, p.rt.masked_fill(&t, &m, s).map_err(py_err)?))
        },
        "index_select" => |it, p, _, args| {
            let (d, i) = dim_index(it, &args, "index_select")?;
            Ok(wrap(
                &p.rt,
                p.rt.index_select(&p.tensor(), d, &i).map_err(py_err)?,
            ))
        },
        "gather" => |it, p, _, args| {
            let (d, i) = dim_index(it, &args, "gather")?;
            Ok(wrap(
                &p.rt,
                p.rt.gather(&p.tensor(), d, &i).map_err(py_err)?,
            ))
        },
        "nonzero" => |it, p, _, args| {
            let a = args.bind("nonzero", &["as_tuple"], 0)?;
            let z = p.rt.nonzero(&p.tensor()).map_err(py_err)?;
            if !truthy_opt(it, &a[0], false)? {
                return Ok(wrap(&p.rt, z));
            }
            // as_tuple=True: one index tensor per dimension (a 0-d input counts as 1-d)
            let n = p.tensor().dim().max(1);
            let mut cols = Vec::with_capacity(n);
            for k in 0..n {
                let c = if p.tensor().dim() == 0 {
                    p.rt.zeros(&[z.shape()[0]], Some(DType::Int64), p.tensor().device())
                } else {
                    z.select(1, k as i64).and_then(|c| p.rt.contiguous(&c))
                }
                .map_err(py_err)?;
                cols.push(wrap(&p.rt, c));
            }
            Ok(Value::tuple(cols))
        },
        "select" => |it, p, _, args| {
            let [d, i] = int_args(it, &args, "select", ["dim", "index"])?;
            view_method(p, "select", |t| t.select(d, i))
        },
        "fill_" => |it, p, this, args| {
            if let Some(v) = args.positional.first() {
                super::check_long(v)?;
            }
            let v = args.positional.first().and_then(scalar_of).ok_or_else(|| {
                PyException::new(
                    ExcType::TypeError,
                    "fill_(): argument 'value' must be Number",
                )
            })?;
            if p.rt.grad_enabled() && p.tensor().requires_grad {
                // autograd records it (FillBackward2): src/torch/extra.py
                return call_extra(it, this, "_fill_with_history", args);
            }
            p.rt.fill_(&p.tensor(), v).map_err(py_err)?;
            Ok(Value::Native(this.clone()))
        },
        "zero_" => |it, p, this, _| {
            if p.rt.grad_enabled() && p.tensor().requires_grad {
                // autograd records it (ZeroBackward0): src/torch/extra.py
                let args = Args {
                    positional: vec![Value::Int(0), Value::str("zero_")],
                    ..Args::default()
                };
                return call_extra(it, this, "_fill_with_history", args);
            }
            p.rt.fill_(&p.tensor(), Scalar::Int(0)).map_err(py_err)?;
            Ok(Value::Native(this.clone()))
        },
        "uniform_" => |it, p, this, mut args| {
            let (g, [lo, hi]) = fill_args(it, &mut args, "uniform_", [("from", 0.0), ("to", 1.0)])?;
            itself(this, p.rt.uniform_(&p.tensor(), lo, hi, g.as_ref()))
        },
        "normal_" => |it, p, this, mut args| {
            let (g, [m, s]) = fill_args(it, &mut args, "normal_", [("mean", 0.0), ("std", 1.0)])?;
            itself(this, p.rt.normal_(&p.tensor(), m, s, g.as_ref()))
        },
        "random_" => |it, p, this, mut args| {
            let g = super::functions::generator_kw(&mut args)?;
            let a = args.bind("random_", &["from", "to"], 0)?;
            let t = p.tensor();
            let x = match &a[0] {
                Some(v) if !v.is_none() => Some(crate::torch::int_arg(it, v)?),
                _ => None,
            };
            let y = match &a[1] {
                Some(v) if !v.is_none() => Some(crate::torch::int_arg(it, v)?),
                _ => None,
            };
            match (x, y, a[1].is_some()) {
                (None, _, false) => p.rt.random_full_(&t, g.as_ref()),
                (Some(to), None, false) => p.rt.random_from_to_(&t, 0, Some(to), g.as_ref()),
                (from, to, _) => p.rt.random_from_to_(&t, from.unwrap_or(0), to, g.as_ref()),
            }
            .map_err(py_err)?;
            Ok(Value::Native(this.clone()))
        },
        "bernoulli_" => |it, p, this, mut args| {
            let (g, [pr]) = fill_args(it, &mut args, "bernoulli_", [("p", 0.5)])?;
            itself(this, p.rt.bernoulli_scalar_(&p.tensor(), pr, g.as_ref()))
        },
        "bernoulli" => |_, p, _, mut args| {
            let g = super::functions::generator_kw(&mut args)?;
            args.bind("bernoulli", &[], 0)?;
            let t = p.rt.bernoulli(&p.tensor(), g.as_ref()).map_err(py_err)?;
            Ok(super::wrap(&p.rt, t))
        },
        "exponential_" => |it, p, this, mut args| {
            let (g, [l]) = fill_args(it, &mut args, "exponential_", [("lambd", 1.0)])?;
            itself(this, p.rt.exponential_(&p.tensor(), l, g.as_ref()))
        },
        "multinomial" => |it, p, _, mut args| {
            let g = super::functions::generator_kw(&mut args)?;
            let a = args.bind("multinomial", &["num_samples", "replacement"], 1)?;
            let n = crate::torch::int_arg(it, a[0].as_ref().unwrap())?;
            let r = match &a[1] {
                Some(v) => it.truthy(v)?,
                None => false,
            };
            let t =
                p.rt.multinomial(&p.tensor(), n, r, g.as_ref())
                    .map_err(py_err)?;
            Ok(super::wrap(&p.rt, t))
        },
        "copy_" => |it, p, this, args| {
            let s = first_tensor(&args, "copy_", "src")?;
            if p.rt.grad_enabled() && (p.tensor().requires_grad || s.requires_grad) {
                // autograd records it (CopyBackwards): written in Python (src/torch/extra.py)
                return call_extra(it, this, "_copy_with_history", args);
            }
            p.rt.copy_(&p.tensor(), &s, "copy_").map_err(py_err)?;
            Ok(Value::Native(this.clone()))
        },
        "unbind" => |it, p, this, args| {
            if !args.is_empty() {
                // unbind(dim): written in Python (src/torch/extra.py)
                return call_extra(it, this, "unbind", args);
            }
            let ts = p.tensor().unbind0().map_err(py_err)?;
            // each select node is PyTorch's UnbindBackward0 (edge: the input)
            Ok(Value::tuple(
                ts.into_iter()
                    .map(|t| wrap(&p.rt, t.with_grad_fn_name("UnbindBackward0")))
                    .collect(),
            ))
        },
        "backward" => |it, p, _, args| {
            let a = args.bind(
                "backward",
                &["gradient", "retain_graph", "create_graph", "inputs"],
                0,
            )?;
            let g = match &a[0] {
                Some(v) if !v.is_none() => Some(super::need_tensor(v, "backward", "gradient")?),
                _ => None,
            };
            let create = truthy_opt(it, &a[2], false)?;
            // retain_graph defaults to create_graph
            let retain = truthy_opt(it, &a[1], create)?;
            if create {
                crate::torch::warn_at(
                    it,
                    AUTOGRAD_GRAPH_PY,
                    1113,
                    CREATE_GRAPH_WARNING,
                    AUTOGRAD_GRAPH_LINE,
                )?;
            }
            backward_running_hooks(it, &p.rt, &p.tensor(), g.as_ref(), retain, create)?;
            Ok(Value::None)
        },
        // torch.autograd.grad's engine call (src/torch/autograd.py):
        // _autograd_grad(outputs, grad_outputs, inputs, retain_graph, create_graph)
        "_autograd_grad" => |it, p, _, args| {
            let a = args.bind(
                "_autograd_grad",
                &[
                    "outputs",
                    "grad_outputs",
                    "inputs",
                    "retain_graph",
                    "create_graph",
                ],
                5,
            )?;
            let list = |v: &Option<Value>| v.as_ref().and_then(|v| v.as_vec()).unwrap_or_default();
            let outs = list(&a[0]);
            let gos = list(&a[1]);
            let mut roots = Vec::with_capacity(outs.len());
            for (i, o) in outs.iter().enumerate() {
                let t = super::need_tensor(o, "grad", "outputs")?;
                let g = match gos.get(i) {
                    Some(v) if !v.is_none() => Some(super::need_tensor(v, "grad", "grad_outputs")?),
                    _ => None,
                };
                roots.push((t, g));
            }
            let ins = list(&a[2])
                .iter()
                .map(|v| super::need_tensor(v, "grad", "inputs"))
                .collect::<PyResult<Vec<_>>>()?;
            let retain = truthy_opt(it, &a[3], false)?;
            let create = truthy_opt(it, &a[4], false)?;
            let got = with_python_callbacks(it, &p.rt, |rt, hooks| {
                rt.autograd_grad(&roots, &ins, retain, create, hooks)
            })?;
            Ok(Value::list(
                got.into_iter()
                    .map(|g| g.map_or(Value::None, |g| wrap(&p.rt, g)))
                    .collect(),
            ))
        },
        "retain_grad" => |_, p, _, _| {
            p.tensor().retain_grad().map_err(py_err)?;
            Ok(Value::None)
        },
        // autograd.Function.apply's engine call (src/torch/autograd.py): this tensor (its
        // forward's output) as the output of one node `name` over `inputs`, whose backward
        // calls `backward(grad)` for a list with one gradient or None per input
        "_function_output" => |_, p, _, args| {
            let a = args.bind("_function_output", &["name", "inputs", "backward"], 3)?;
            let name = a[0].as_ref().and_then(|v| v.as_str()).unwrap_or("Backward");
            let inputs = a[1]
                .as_ref()
                .and_then(|v| v.as_vec())
                .unwrap_or_default()
                .iter()
                .map(|v| super::need_tensor(v, "_function_output", "inputs"))
                .collect::<PyResult<Vec<_>>>()?;
            let id = HOOKS.with(|h| {
                let mut h = h.borrow_mut();
                h.0 += 1;
                let id = h.0;
                h.1.insert(id, a[2].clone().unwrap_or(Value::None));
                id
            });
            let out = p.rt.function_finish(name, id, &inputs, p.tensor());
            Ok(wrap(&p.rt, out))
        },
        "register_hook" => |_, p, _, args| {
            let a = args.bind("register_hook", &["hook"], 1)?;
            let t = p.tensor();
            if !t.requires_grad() {
                return Err(PyException::new(
                    ExcType::RuntimeError,
                    "cannot register a hook on a tensor that doesn't require gradient",
                ));
            }
            let id = HOOKS.with(|h| {
                let mut h = h.borrow_mut();
                h.0 += 1;
                let id = h.0;
                h.1.insert(id, a[0].clone().unwrap());
                id
            });
            if !t.add_hook(id) {
                // requires grad with neither a leaf nor a node: an op whose graph is kept
                // only by name
                HOOKS.with(|h| h.borrow_mut().1.remove(&id));
                return Err(PyException::new(
                    ExcType::NotImplementedError,
                    format!(
                        "cudatutor cannot register a hook on the output of {} yet",
                        t.grad_fn().unwrap_or("this op")
                    ),
                ));
            }
            Ok(Value::native(HookHandle { t, id }))
        },
        "__len__" => |_, p, _, _| {
            Ok(Value::Int(
                p.tensor().shape().first().copied().unwrap_or(0) as i64
            ))
        },
        _ => return binary_method(this, name).or_else(|| inplace_method(this, name)),
    };
    Some(method(this, name, f))
}

/// The methods that are one binary op of the tensor and `other` (`t.fmod(2)`, `t.eq(x)`): each
/// name, its op, and the name its errors give.
const BINARY_METHODS: [(&str, BinaryOp, &str); 18] = [
    ("mul", BinaryOp::Mul, "mul"),
    ("atan2", BinaryOp::Atan2, "atan2"),
    ("arctan2", BinaryOp::Atan2, "atan2"),
    ("hypot", BinaryOp::Hypot, "hypot"),
    ("fmod", BinaryOp::Fmod, "fmod"),
    ("remainder", BinaryOp::Rem, "remainder"),
    ("floor_divide", BinaryOp::FloorDiv, "floor_divide"),
    ("pow", BinaryOp::Pow, "pow"),
    ("eq", BinaryOp::Eq, "eq"),
    ("ne", BinaryOp::Ne, "ne"),
    ("lt", BinaryOp::Lt, "lt"),
    ("le", BinaryOp::Le, "le"),
    ("gt", BinaryOp::Gt, "gt"),
    ("ge", BinaryOp::Ge, "ge"),
    ("maximum", BinaryOp::Maximum, "maximum"),
    ("minimum", BinaryOp::Minimum, "minimum"),
    ("logical_and", BinaryOp::LogicalAnd, "logical_and"),
    ("logical_or", BinaryOp::LogicalOr, "logical_or"),
];

fn binary_method(this: &Rc<dyn NativeObject>, name: &str) -> Option<Value> {
    let &(_, op, fname) = BINARY_METHODS.iter().find(|(n, ..)| *n == name)?;
    Some(method(this, name, move |it, p, _, args| {
        bin_method(it, p, args, op, fname)
    }))
}

/// The in-place method's name for an op (its errors name it).
fn name_of(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "add_",
        BinaryOp::Sub => "sub_",
        BinaryOp::Mul => "mul_",
        BinaryOp::Div => "div_",
        _ => "pow_",
    }
}

fn inplace_method(this: &Rc<dyn NativeObject>, name: &str) -> Option<Value> {
    let op = match name {
        "add_" => BinaryOp::Add,
        "sub_" => BinaryOp::Sub,
        "mul_" => BinaryOp::Mul,
        "div_" => BinaryOp::Div,
        "pow_" => BinaryOp::Pow,
        "lerp_" => {
            return Some(method(this, name, |_, p, this, args| {
                ternary_inplace(p, this, args, TernaryOp::Lerp, "lerp_")
            }));
        }
        "addcmul_" => {
            return Some(method(this, name, |_, p, this, args| {
                ternary_inplace(p, this, args, TernaryOp::Addcmul, "addcmul_")
            }));
        }
        "addcdiv_" => {
            return Some(method(this, name, |_, p, this, args| {
                ternary_inplace(p, this, args, TernaryOp::Addcdiv, "addcdiv_")
            }));
        }
        _ => return None,
    };
    let this2 = this.clone();
    Some(Value::native_fn(name, move |it, args| {
        let p = this2.as_any().downcast_ref::<PyTensor>().expect("a tensor");
        at_line(&p.rt, it);
        let alpha = if matches!(op, BinaryOp::Add | BinaryOp::Sub) {
            let a = args.bind(name_of(op), &["other", "alpha"], 1)?;
            super::alpha_of(a[1].as_ref(), name_of(op))?
        } else {
            None
        };
        let o = args.positional.first().cloned().unwrap_or_default();
        let o = other_operand(&o, name_of(op))?;
        let t =
            p.rt.inplace_alpha(op, &p.tensor(), &o, alpha)
                .map_err(py_err)?;
        *p.t.borrow_mut() = t;
        Ok(Value::Native(this2.clone()))
    }))
}

/// `int(t)` / `float(t)` (Tensor.__int__/__float__) need exactly one element; unlike
/// `item()` (a RuntimeError) the Python conversion raises ValueError.
fn one_element(t: &Tensor) -> PyResult<()> {
    if t.numel() != 1 {
        return Err(PyException::new(
            ExcType::ValueError,
            "only one element tensors can be converted to Python scalars",
        ));
    }
    Ok(())
}

fn cast(p: &PyTensor, this: &Rc<dyn NativeObject>, dt: DType, op: &str) -> PyResult<Value> {
    let t = p.tensor();
    if t.dtype() == dt {
        return Ok(Value::Native(this.clone()));
    }
    let r =
        p.rt.to(&t, None, Some(dt), false, false, op)
            .map_err(py_err)?;
    Ok(new_like(p, r, this))
}

impl NativeObject for PyTensor {
    fn type_name(&self) -> &str {
        if self.param { "Parameter" } else { "Tensor" }
    }
    fn call_method(&self, cx: NativeCx<'_>, name: &str, args: Args) -> PyResult<Option<Value>> {
        super::registry::call_method(cx.it, &self.rt, Value::Native(cx.this.clone()), name, args)
    }
    fn getattr(&self, NativeCx { this, it }: NativeCx<'_>, name: &str) -> PyResult<Option<Value>> {
        at_line(&self.rt, it);
        let t = self.tensor();
        match name {
            "T" if t.dim() != 2 && t.dim() != 0 => crate::torch::warn(
                it,
                "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will throw an error in a future release. Consider `x.mT` to transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor. (Triggered internally at /pytorch/aten/src/ATen/native/TensorShape.cpp:4306.)",
                true,
            )?,
            "mT" | "mH" if t.dim() < 2 => {
                return Err(PyException::new(
                    ExcType::RuntimeError,
                    format!(
                        "tensor.{name} is only supported on matrices or batches of matrices. Got {}-D tensor.",
                        t.dim()
                    ),
                ));
            }
            "H" if t.dim() != 2 && t.dim() != 0 => {
                return Err(PyException::new(
                    ExcType::RuntimeError,
                    format!(
                        "tensor.H is only supported on matrices (2-D tensors). Got {}-D tensor.",
                        t.dim()
                    ),
                ));
            }
            "mT" | "mH" | "H" => {
                let r = if t.dim() == 0 {
                    t.clone()
                } else {
                    self.rt
                        .view_op("transpose", &t, t.transpose(-2, -1))
                        .map_err(py_err)?
                };
                return Ok(Some(wrap(&self.rt, r)));
            }
            "grad" if !t.is_leaf() && !t.retains_grad() => crate::torch::warn(
                it,
                "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information. (Triggered internally at /pytorch/build/aten/src/ATen/core/TensorBody.h:488.)",
                false,
            )?,
            _ => {}
        }
        if super::registry::is_method(name) {
            // a method of the registry: the receiver and the name; bound when called
            return Ok(Some(Value::BuiltinMethod(Rc::new((
                Value::Native(this.clone()),
                name.into(),
            )))));
        }
        if let Some(v) = tensor_method(this, self, name) {
            return Ok(Some(v));
        }
        // methods written in Python over the native ones (src/torch/extra.py: `_t_NAME`)
        if !name.starts_with('_') {
            let m = it.import_module("torch._extra")?;
            // attributes written in Python (`_tp_NAME(self)`, e.g. `layout`)
            if let Some(p) = it.getattr_opt(&m, &format!("_tp_{name}"))? {
                let args = crate::script::Args::new(vec![Value::Native(this.clone())]);
                return it.call(&p, args).map(Some);
            }
            let Some(f) = it.getattr_opt(&m, &format!("_t_{name}"))? else {
                return Ok(None);
            };
            let me = Value::Native(this.clone());
            return Ok(Some(Value::native_fn(name, move |it, mut args| {
                args.positional.insert(0, me.clone());
                it.call(&f, args)
            })));
        }
        Ok(None)
    }
    fn setattr(&self, NativeCx { it, .. }: NativeCx<'_>, name: &str, v: Value) -> PyResult<bool> {
        match name {
            "requires_grad" => {
                let on = it.truthy(&v)?;
                self.t.borrow_mut().set_requires_grad(on).map_err(py_err)?;
                Ok(true)
            }
            "grad" => {
                let g = if v.is_none() {
                    None
                } else {
                    Some(super::need_tensor(&v, "grad", "grad")?)
                };
                self.t.borrow().set_grad(g).map_err(py_err)?;
                Ok(true)
            }
            "data" => {
                let t = super::need_tensor(&v, "data", "data")?;
                let rg = self.t.borrow().requires_grad();
                let mut t = t.detach();
                if rg {
                    let _ = t.set_requires_grad(true);
                }
                *self.t.borrow_mut() = t;
                Ok(true)
            }
            _ => Ok(false),
        }
    }
    fn binary_op(&self, cx: NativeCx<'_>, call: BinaryCall<'_>) -> PyResult<Option<Value>> {
        let BinaryCall { op, other, .. } = call;
        at_line(&self.rt, cx.it);
        let Some(o) = operand_of(other)? else {
            return Ok(None);
        };
        if other.downcast::<crate::numpy::NdArray>().is_some() {
            // PyTorch 2.15's Tensor.__array_wrap__ predates numpy 2's signature
            super::warn_as(
                cx.it,
                "DeprecationWarning",
                "__array_wrap__ must accept context and return_scalar arguments (positionally) in the future. (Deprecated NumPy 2.0)",
            )?;
        }
        let me = Operand::Tensor(self.tensor());
        let (a, b) = call.in_order(me, o);
        if op == BinOp::MatMul {
            let (Operand::Tensor(a), Operand::Tensor(b)) = (a, b) else {
                return Ok(None);
            };
            return Ok(Some(wrap(
                &self.rt,
                self.rt.matmul(&a, &b).map_err(py_err)?,
            )));
        }
        let Some(bop) = binop(op) else {
            return Ok(None);
        };
        Ok(Some(wrap(
            &self.rt,
            self.rt.binary(bop, &a, &b).map_err(py_err)?,
        )))
    }
    fn inplace_op(&self, cx: NativeCx<'_>, op: BinOp, other: &Value) -> PyResult<Option<Value>> {
        at_line(&self.rt, cx.it);
        let Some(o) = operand_of(other)? else {
            return Ok(None);
        };
        let Some(bop) = binop(op) else {
            return Ok(None);
        };
        let t = self.rt.inplace(bop, &self.tensor(), &o).map_err(py_err)?;
        *self.t.borrow_mut() = t;
        Ok(Some(Value::Native(cx.this.clone())))
    }
    fn unary_op(&self, cx: NativeCx<'_>, op: PyUnary) -> PyResult<Option<Value>> {
        at_line(&self.rt, cx.it);
        let t = self.tensor();
        let r = match op {
            PyUnary::Neg => self.rt.unary(UnaryOp::Neg, &t),
            PyUnary::Pos => return Ok(Some(Value::Native(cx.this.clone()))),
            PyUnary::Invert => self.rt.unary(UnaryOp::BitNot, &t),
        };
        Ok(Some(wrap(&self.rt, r.map_err(py_err)?)))
    }
    fn compare(&self, cx: NativeCx<'_>, op: CmpOp, other: &Value) -> PyResult<Option<Value>> {
        at_line(&self.rt, cx.it);
        let Some(o) = operand_of(other)? else {
            return Ok(None);
        };
        let r = self
            .rt
            .binary(cmpop(op), &Operand::Tensor(self.tensor()), &o)
            .map_err(py_err)?;
        Ok(Some(wrap(&self.rt, r)))
    }
    fn getitem(&self, NativeCx { it, .. }: NativeCx<'_>, key: &Value) -> PyResult<Option<Value>> {
        at_line(&self.rt, it);
        let items = index_items(it, &self.rt, key)?;
        let r = self.rt.getitem(&self.tensor(), &items).map_err(py_err)?;
        Ok(Some(wrap(&self.rt, r)))
    }
    fn setitem(
        &self,
        NativeCx { it, this }: NativeCx<'_>,
        key: &Value,
        v: Value,
    ) -> PyResult<bool> {
        at_line(&self.rt, it);
        let records = |t: Option<Tensor>| t.is_some_and(|t| t.requires_grad);
        if self.rt.grad_enabled() && (self.tensor().requires_grad || records(tensor_of(&v))) {
            // autograd records it (CopySlices): src/torch/extra.py
            let args = Args {
                positional: vec![key.clone(), v],
                ..Args::default()
            };
            call_extra(it, this, "_setitem_with_history", args)?;
            return Ok(true);
        }
        let items = index_items(it, &self.rt, key)?;
        let val = match operand_of(&v)? {
            Some(o) => o,
            None => {
                let (vals, shape, _) = super::flatten_data(&v)?;
                let t = self.tensor();
                Operand::Tensor(
                    self.rt
                        .tensor(&vals, shape, Some(t.dtype()), Device::Cpu)
                        .map_err(py_err)?,
                )
            }
        };
        self.rt
            .setitem(&self.tensor(), &items, &val)
            .map_err(py_err)?;
        Ok(true)
    }
    fn len(&self, _: NativeCx<'_>) -> PyResult<Option<usize>> {
        let t = self.t.borrow();
        if t.dim() == 0 {
            return Err(PyException::new(
                ExcType::TypeError,
                "len() of a 0-d tensor",
            ));
        }
        Ok(Some(t.shape()[0]))
    }
    fn iter(&self, NativeCx { it, .. }: NativeCx<'_>) -> PyResult<Option<Value>> {
        at_line(&self.rt, it);
        let ts = self.tensor().unbind0().map_err(py_err)?;
        Ok(Some(Value::iter_from_vec(
            ts.into_iter().map(|t| wrap(&self.rt, t)).collect(),
        )))
    }
    fn bool(&self, NativeCx { it, .. }: NativeCx<'_>) -> PyResult<Option<bool>> {
        at_line(&self.rt, it);
        Ok(Some(self.rt.to_bool(&self.tensor()).map_err(py_err)?))
    }
    fn repr(&self, NativeCx { it, .. }: NativeCx<'_>) -> PyResult<Option<String>> {
        at_line(&self.rt, it);
        let s = self.rt.repr(&self.tensor()).map_err(py_err)?;
        Ok(Some(if self.param {
            format!("Parameter containing:\n{s}")
        } else {
            s
        }))
    }
    fn format(&self, NativeCx { this, it }: NativeCx<'_>, spec: &str) -> PyResult<Option<String>> {
        at_line(&self.rt, it);
        let t = self.tensor();
        if t.dim() == 0 && !t.is_meta() {
            let v = scalar_value(self.rt.item(&t).map_err(py_err)?);
            return Ok(Some(it.format_value(&v, spec)?));
        }
        if spec.is_empty() {
            return self.repr(NativeCx::new(this, it));
        }
        Err(PyException::new(
            ExcType::TypeError,
            "unsupported format string passed to Tensor.__format__",
        ))
    }
    fn contains(&self, NativeCx { it, .. }: NativeCx<'_>, v: &Value) -> PyResult<Option<bool>> {
        at_line(&self.rt, it);
        let Some(o) = operand_of(v)? else {
            return Ok(None);
        };
        let eq = self
            .rt
            .binary(BinaryOp::Eq, &Operand::Tensor(self.tensor()), &o)
            .map_err(py_err)?;
        let any = self.rt.any(&eq, None, false).map_err(py_err)?;
        Ok(Some(self.rt.to_bool(&any).map_err(py_err)?))
    }
    fn to_int(&self, NativeCx { it, .. }: NativeCx<'_>) -> PyResult<Option<i64>> {
        at_line(&self.rt, it);
        one_element(&self.t.borrow())?;
        let s = self.rt.item(&self.tensor()).map_err(py_err)?;
        Ok(Some(match s {
            Scalar::Float(f) => {
                if f.is_nan() {
                    return Err(PyException::new(
                        ExcType::ValueError,
                        "cannot convert float NaN to integer",
                    ));
                }
                f.trunc() as i64
            }
            Scalar::Int(i) => i,
            other => other.as_f64() as i64,
        }))
    }
    fn to_float(&self, NativeCx { it, .. }: NativeCx<'_>) -> PyResult<Option<f64>> {
        at_line(&self.rt, it);
        one_element(&self.t.borrow())?;
        // PyTorch warns only while grad mode is on (float(loss) under no_grad is silent)
        if self.t.borrow().requires_grad() && self.rt.grad_enabled() {
            crate::torch::warn(
                it,
                "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\nConsider using tensor.detach() first. (Triggered internally at /pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:820.)",
                false,
            )?;
        }
        Ok(Some(self.rt.item(&self.tensor()).map_err(py_err)?.as_f64()))
    }
    fn dir(&self) -> Vec<String> {
        [
            "shape", "dtype", "device", "size", "dim", "item", "tolist", "numpy", "to", "cuda",
            "cpu", "view", "reshape",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }
}

/// A float argument with a default (ints accepted, as Python floats would be).
fn float_or(it: &mut Interpreter, v: &Option<Value>, default: f64) -> PyResult<f64> {
    match v {
        None => Ok(default),
        Some(v) => match v.as_float() {
            Some(x) => Ok(x),
            None => Ok(crate::torch::int_arg(it, v)? as f64),
        },
    }
}

thread_local! {
    /// `register_hook` callables by id (the engine's leaves keep only the ids), and the last
    /// id given.
    static HOOKS: std::cell::RefCell<(u64, std::collections::HashMap<u64, Value>)> =
        std::cell::RefCell::new((0, std::collections::HashMap::new()));
}

/// Forget every hook (a new run).
pub(crate) fn clear_hooks() {
    HOOKS.with(|h| h.borrow_mut().1.clear());
}

/// `t.backward(gradient, retain_graph)`, calling the leaves' `register_hook` hooks with
/// their gradient (a hook's return value, when not None, replaces it).
/// Where PyTorch's create_graph warning points: the engine call in torch/autograd/graph.py.
const AUTOGRAD_GRAPH_PY: &str = "/usr/local/lib/python3.11/site-packages/torch/autograd/graph.py";
const AUTOGRAD_GRAPH_LINE: &str = "  return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass";
const CREATE_GRAPH_WARNING: &str = "Using backward() with create_graph=True will create a reference cycle between the parameter and its gradient which can cause a memory leak. We recommend using autograd.grad when creating the graph to avoid this. If you have to use this function, make sure to reset the .grad fields of your parameters to None after use to break the cycle and avoid the leak. (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp:1445.)";

pub(crate) fn backward_running_hooks(
    it: &mut Interpreter,
    rt: &Rc<Runtime>,
    t: &Tensor,
    g: Option<&Tensor>,
    retain: bool,
    create: bool,
) -> PyResult<()> {
    with_python_callbacks(it, rt, |rt, hooks| {
        if create {
            rt.backward_create_graph(t, g, retain, hooks)
        } else {
            rt.backward_with_hooks(t, g, retain, hooks)
        }
    })
}

/// Runs `f` (a backward) with the Python callables it reaches: `register_hook` hooks and
/// custom Functions' backward, found by id in [`HOOKS`]. The first Python exception one of
/// them raises is the result.
pub(crate) fn with_python_callbacks<R>(
    it: &mut Interpreter,
    rt: &Rc<Runtime>,
    f: impl FnOnce(&Rc<Runtime>, &mut HookFn<'_>) -> crate::engine::Result<R>,
) -> PyResult<R> {
    let mut failed: Option<PyException> = None;
    let mut run = |id: u64, call: HookCall| -> crate::engine::Result<Vec<Option<Tensor>>> {
        let Some(f) = HOOKS.with(|h| h.borrow().1.get(&id).cloned()) else {
            return Ok(Vec::new());
        };
        let answer = match call {
            HookCall::Tensor(grad) => {
                let shape = grad.shape().to_vec();
                it.call_simple(&f, vec![wrap(rt, grad)])
                    .and_then(|v| hook_answer(it, &f, &v, &shape))
            }
            HookCall::Function(grad) => it
                .call_simple(&f, vec![wrap(rt, grad)])
                .and_then(|v| function_answer(&v)),
        };
        answer.map_err(|e| {
            failed.get_or_insert(e);
            crate::engine::EngineError::runtime("a Python callback failed")
        })
    };
    let r = f(rt, &mut run);
    if let Some(e) = failed {
        return Err(e);
    }
    r.map_err(py_err)
}

/// A `register_hook` hook's return: None keeps the gradient (of `shape`), a tensor of the
/// same shape replaces it.
fn hook_answer(
    it: &mut Interpreter,
    hook: &Value,
    v: &Value,
    shape: &[usize],
) -> PyResult<Vec<Option<Tensor>>> {
    if v.is_none() {
        return Ok(Vec::new());
    }
    match super::tensor_of(v) {
        Some(t) if t.shape() != shape => {
            let name = it
                .getattr(hook, "__name__")
                .ok()
                .and_then(|n| n.as_str().map(str::to_string))
                .unwrap_or_else(|| "hook".to_string());
            Err(PyException::new(
                ExcType::RuntimeError,
                format!("hook '{name}' has changed the size of value"),
            ))
        }
        Some(t) => Ok(vec![Some(t)]),
        None => Err(PyException::new(
            ExcType::TypeError,
            format!("expected Tensor or None (got {})", v.type_name()),
        )),
    }
}

/// A custom Function's backward (through autograd.py's wrapper, which checks the count):
/// a list of tensors or None, one per tensor input.
fn function_answer(v: &Value) -> PyResult<Vec<Option<Tensor>>> {
    let items = v.as_vec().unwrap_or_default();
    items
        .iter()
        .map(|g| {
            if g.is_none() {
                return Ok(None);
            }
            super::tensor_of(g).map(Some).ok_or_else(|| {
                PyException::new(
                    ExcType::TypeError,
                    format!("expected Tensor or None (got {})", g.type_name()),
                )
            })
        })
        .collect()
}

/// What `register_hook` returns: `handle.remove()` unregisters the hook.
pub(super) struct HookHandle {
    t: Tensor,
    id: u64,
}

impl NativeObject for HookHandle {
    fn type_name(&self) -> &str {
        "RemovableHandle"
    }
    fn getattr(&self, NativeCx { this, .. }: NativeCx<'_>, name: &str) -> PyResult<Option<Value>> {
        let me = this.clone();
        Ok(match name {
            "remove" => Some(Value::native_fn("remove", move |_, _| {
                if let Some(h) = me.as_any().downcast_ref::<HookHandle>() {
                    h.t.remove_hook(h.id);
                    HOOKS.with(|x| x.borrow_mut().1.remove(&h.id));
                }
                Ok(Value::None)
            })),
            "id" => Some(Value::Int(self.id as i64)),
            _ => None,
        })
    }
}
