//! numpy's functions (module level and as array methods): creation, ufuncs, reductions,
//! shape manipulation, sorting, linear algebra.

use super::array::{NdArray, NpScalar, contiguous_strides, err, np_cast, np_value, numel};
use super::ops::{self, Bin, Un, operand};
use crate::binding::reductions::METHOD_REDUCTIONS;
use crate::engine::dtype::{Category, DType};
use crate::script::ExcType;
use crate::script::{Args, CmpOp, Interpreter, Module, PyResult, Value};

pub(crate) type F = fn(&mut Interpreter, Args) -> PyResult<Value>;

fn rt() -> std::rc::Rc<crate::engine::Runtime> {
    super::runtime()
}

fn arr_value(a: NdArray) -> Value {
    Value::native(a)
}

/// Any array-like as an array (arrays themselves are shared, not copied).
pub(crate) fn as_array(it: &mut Interpreter, v: &Value) -> PyResult<NdArray> {
    if let Some(a) = v.downcast::<NdArray>() {
        return Ok(a.view(a.shape.clone(), a.strides.clone(), a.offset));
    }
    let o = operand(it, v)?;
    NdArray::from_f64(&rt(), &o.vals, o.shape, o.dtype)
}

fn opt_dtype(v: &Option<Value>) -> PyResult<Option<DType>> {
    match v {
        None | Some(Value::None) => Ok(None),
        Some(v) => super::dtype_of(v).map(Some),
    }
}

fn truthy(it: &mut Interpreter, v: &Option<Value>) -> PyResult<bool> {
    match v {
        None => Ok(false),
        Some(v) => it.truthy(v),
    }
}

/// A shape argument: an int or a sequence of ints.
pub(crate) fn shape_arg(it: &mut Interpreter, v: &Value) -> PyResult<Vec<usize>> {
    let items = match v {
        Value::Tuple(_) | Value::List(_) => v.as_vec().unwrap_or_default(),
        _ => vec![v.clone()],
    };
    dims_of(it, &items)
}

/// The dimensions `items` name (ints, none negative), once an array of that shape is known to
/// fit: its values as f64 and its storage (numpy's default dtype names the size), asked for
/// before anything is filled or drawn.
pub(crate) fn dims_of(it: &mut Interpreter, items: &[Value]) -> PyResult<Vec<usize>> {
    let mut out = Vec::new();
    for x in items {
        let d = it.index_int(x)?;
        if d < 0 {
            return Err(err(
                ExcType::ValueError,
                "negative dimensions are not allowed",
            ));
        }
        out.push(d as usize);
    }
    super::array::ensure_room(&out, DType::Float64, 16)?;
    Ok(out)
}

fn filled(shape: Vec<usize>, v: f64, dt: DType) -> PyResult<Value> {
    let n = numel(&shape);
    Ok(arr_value(NdArray::from_f64(&rt(), &vec![v; n], shape, dt)?))
}

fn f_zeros(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("zeros", &["shape", "dtype", "order"], 1)?;
    let s = shape_arg(it, a[0].as_ref().unwrap())?;
    filled(s, 0.0, opt_dtype(&a[1])?.unwrap_or(DType::Float64))
}
fn f_ones(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("ones", &["shape", "dtype", "order"], 1)?;
    let s = shape_arg(it, a[0].as_ref().unwrap())?;
    filled(s, 1.0, opt_dtype(&a[1])?.unwrap_or(DType::Float64))
}
fn f_empty(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("empty", &["shape", "dtype", "order"], 1)?;
    let s = shape_arg(it, a[0].as_ref().unwrap())?;
    filled(s, 0.0, opt_dtype(&a[1])?.unwrap_or(DType::Float64))
}
fn f_full(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("full", &["shape", "fill_value", "dtype", "order"], 2)?;
    let s = shape_arg(it, a[0].as_ref().unwrap())?;
    let o = operand(it, a[1].as_ref().unwrap())?;
    let dt = opt_dtype(&a[2])?.unwrap_or(match o.weak {
        ops::Weak::Strong => o.dtype,
        ops::Weak::Bool => DType::Bool,
        ops::Weak::Int => DType::Int64,
        ops::Weak::Float => DType::Float64,
    });
    if o.vals.len() == 1 {
        filled(s, o.vals[0], dt)
    } else {
        let base = NdArray::from_f64(&rt(), &o.vals, o.shape, dt)?;
        let b = base.broadcast_to(&s)?;
        Ok(arr_value(b.copy_as(dt)?))
    }
}
fn like(it: &mut Interpreter, args: Args, name: &str, v: Option<f64>) -> PyResult<Value> {
    let params: &[&str] = if v.is_some() {
        &["a", "dtype", "order", "subok", "shape"]
    } else {
        &["a", "fill_value", "dtype", "order", "subok", "shape"]
    };
    let a = args.bind(name, params, if v.is_some() { 1 } else { 2 })?;
    let src = as_array(it, a[0].as_ref().unwrap())?;
    let (fill, dt) = match v {
        Some(x) => (x, opt_dtype(&a[1])?),
        None => (
            operand(it, a[1].as_ref().unwrap())?.vals[0],
            opt_dtype(&a[2])?,
        ),
    };
    filled(src.shape.clone(), fill, dt.unwrap_or(src.dtype()))
}
fn f_zeros_like(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    like(it, args, "zeros_like", Some(0.0))
}
fn f_ones_like(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    like(it, args, "ones_like", Some(1.0))
}
fn f_empty_like(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    like(it, args, "empty_like", Some(0.0))
}
fn f_full_like(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    like(it, args, "full_like", None)
}

fn f_array(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("array", &["object", "dtype", "copy", "order", "ndmin"], 1)?;
    let src = a[0].as_ref().unwrap();
    let dt = opt_dtype(&a[1])?;
    if crate::binding::tensor_of(src).is_some() {
        tensor_array_copy(it, a[2].as_ref())?;
    }
    let o = operand(it, src)?;
    let dt = dt.unwrap_or(o.dtype);
    Ok(arr_value(NdArray::from_f64(&rt(), &o.vals, o.shape, dt)?))
}

/// What numpy 2.4 says before `np.array(tensor, copy=...)` makes its array: it calls
/// `Tensor.__array__(dtype, copy=copy)`, which takes no `copy`, so it warns and calls it again
/// without (copy=True, the default); `copy=None` passes no keyword; `copy=False` warns and
/// then refuses, since the retry cannot promise to share memory (all measured with 2.15).
fn tensor_array_copy(it: &mut Interpreter, copy: Option<&Value>) -> PyResult<()> {
    let copy = match copy {
        None => Some(true),
        Some(v) if v.is_none() => None,
        Some(v) => Some(it.truthy(v)?),
    };
    if copy.is_none() {
        return Ok(());
    }
    crate::binding::warn_as(
        it,
        "DeprecationWarning",
        "__array__ implementation doesn't accept a copy keyword, so passing copy=False failed. __array__ must implement 'dtype' and 'copy' keyword arguments. To learn more, see the migration guide https://numpy.org/devdocs/numpy_2_0_migration_guide.html#adapting-to-changes-in-the-copy-keyword",
    )?;
    if copy == Some(false) {
        return Err(err(
            ExcType::ValueError,
            "Unable to avoid copy while creating an array as requested.\nIf using `np.array(obj, copy=False)` replace it with `np.asarray(obj)` to allow a copy when needed (no behavior change in NumPy 1.x).\nFor more details, see https://numpy.org/devdocs/numpy_2_0_migration_guide.html#adapting-to-changes-in-the-copy-keyword.",
        ));
    }
    Ok(())
}

fn f_asarray(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("asarray", &["a", "dtype", "order"], 1)?;
    let src = a[0].as_ref().unwrap();
    let dt = opt_dtype(&a[1])?;
    if let Some(x) = src.downcast::<NdArray>()
        && dt.is_none_or(|d| d == x.dtype())
    {
        return Ok(src.clone());
    }
    if let Some(t) = crate::binding::tensor_of(src) {
        // np.asarray(t) shares the tensor's memory (t.__array__ returns t.numpy()); numpy 2.4
        // calls __array__ without a copy keyword here, so nothing is said (measured)
        let r = rt();
        r.numpy(&t).map_err(crate::binding::py_err)?;
        let x = NdArray::from_tensor(&r, &t);
        return match dt {
            Some(d) if d != x.dtype() => Ok(arr_value(x.copy_as(d)?)),
            _ => Ok(arr_value(x)),
        };
    }
    let o = operand(it, src)?;
    let dt = dt.unwrap_or(o.dtype);
    Ok(arr_value(NdArray::from_f64(&rt(), &o.vals, o.shape, dt)?))
}

fn num(it: &mut Interpreter, v: &Value) -> PyResult<f64> {
    let o = operand(it, v)?;
    if o.vals.len() != 1 {
        return Err(err(ExcType::TypeError, "expected a number"));
    }
    Ok(o.vals[0])
}

fn f_arange(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("arange", &["start", "stop", "step", "dtype"], 1)?;
    let mut is_float = false;
    let mut get = |it: &mut Interpreter, v: &Option<Value>| -> PyResult<Option<f64>> {
        match v {
            None | Some(Value::None) => Ok(None),
            Some(v) => {
                let o = operand(it, v)?;
                if o.dtype.category() == Category::Floating {
                    is_float = true;
                }
                Ok(Some(o.vals[0]))
            }
        }
    };
    let x0 = get(it, &a[0])?.unwrap_or(0.0);
    let x1 = get(it, &a[1])?;
    let step = get(it, &a[2])?.unwrap_or(1.0);
    let (start, stop) = match x1 {
        Some(s) => (x0, s),
        None => (0.0, x0),
    };
    if step == 0.0 {
        return Err(err(ExcType::ZeroDivisionError, "division by zero"));
    }
    let n = ((stop - start) / step).ceil().max(0.0) as usize;
    let dt = opt_dtype(&a[3])?.unwrap_or(if is_float {
        DType::Float64
    } else {
        DType::Int64
    });
    super::array::ensure_room(&[n], dt, 16)?;
    // numpy fills start, start + step, then start + i * delta
    let delta = (start + step) - start;
    let vals: Vec<f64> = (0..n)
        .map(|i| {
            if i == 0 {
                start
            } else {
                start + i as f64 * delta
            }
        })
        .collect();
    Ok(arr_value(NdArray::from_f64(&rt(), &vals, vec![n], dt)?))
}

fn f_linspace(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind(
        "linspace",
        &[
            "start", "stop", "num", "endpoint", "retstep", "dtype", "axis",
        ],
        2,
    )?;
    let start = num(it, a[0].as_ref().unwrap())?;
    let stop = num(it, a[1].as_ref().unwrap())?;
    let n = match &a[2] {
        Some(v) => it.index_int(v)?,
        None => 50,
    };
    if n < 0 {
        return Err(err(
            ExcType::ValueError,
            format!("Number of samples, {n}, must be non-negative."),
        ));
    }
    let n = n as usize;
    let endpoint = match &a[3] {
        Some(v) => it.truthy(v)?,
        None => true,
    };
    let div = if endpoint { n.saturating_sub(1) } else { n } as f64;
    let delta = stop - start;
    let step = delta / div;
    let mut vals: Vec<f64> = (0..n)
        .map(|i| {
            let y = i as f64;
            if div > 0.0 {
                if step == 0.0 {
                    y / div * delta + start
                } else {
                    y * step + start
                }
            } else {
                y * delta + start
            }
        })
        .collect();
    if endpoint && n > 1 {
        vals[n - 1] = stop;
    }
    let dt = opt_dtype(&a[5])?.unwrap_or(DType::Float64);
    Ok(arr_value(NdArray::from_f64(&rt(), &vals, vec![n], dt)?))
}

fn f_eye(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("eye", &["N", "M", "k", "dtype"], 1)?;
    let n = it.index_int(a[0].as_ref().unwrap())?.max(0) as usize;
    let m = match &a[1] {
        Some(Value::None) | None => n,
        Some(v) => it.index_int(v)?.max(0) as usize,
    };
    let k = match &a[2] {
        Some(v) => it.index_int(v)?,
        None => 0,
    };
    let dt = opt_dtype(&a[3])?.unwrap_or(DType::Float64);
    let mut vals = vec![0.0; n * m];
    for i in 0..n {
        let j = i as i64 + k;
        if j >= 0 && (j as usize) < m {
            vals[i * m + j as usize] = 1.0;
        }
    }
    Ok(arr_value(NdArray::from_f64(&rt(), &vals, vec![n, m], dt)?))
}

fn f_identity(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("identity", &["n", "dtype"], 1)?;
    let mut kw = vec![];
    if let Some(d) = &a[1] {
        kw.push(("dtype".to_string(), d.clone()));
    }
    f_eye(it, Args::with_keywords(vec![a[0].clone().unwrap()], kw))
}

// ---------------------------------------------------------------- ufuncs

fn ufunc2(it: &mut Interpreter, args: Args, name: &str, op: Bin) -> PyResult<Value> {
    let a = args.bind(name, &["x1", "x2", "out", "where", "dtype"], 2)?;
    let x = operand(it, a[0].as_ref().unwrap())?;
    let y = operand(it, a[1].as_ref().unwrap())?;
    let out = ops::binary(op, &x, &y)?;
    finish_out(it, out, &a[2], name)
}

fn finish_out(
    _it: &mut Interpreter,
    out: ops::Out,
    dest: &Option<Value>,
    name: &str,
) -> PyResult<Value> {
    if let Some(d) = dest
        && !d.is_none()
    {
        let d = match d {
            Value::Tuple(t) if t.len() == 1 => t[0].clone(),
            other => other.clone(),
        };
        let Some(arr) = d.downcast::<NdArray>() else {
            return Err(err(
                ExcType::TypeError,
                "return arrays must be of ArrayType",
            ));
        };
        super::object::store_into(arr, &out, name)?;
        return Ok(d);
    }
    out.into_value(&rt())
}

/// `fn f_add(it, args) { ufunc2(it, args, "add", Bin::Add) }` and its kind: the numpy
/// functions that are one shared implementation bound to a name and the operation it performs.
macro_rules! bound_to {
    ($($f:ident = $imp:ident($name:literal, $op:expr);)*) => {
        $(fn $f(it: &mut Interpreter, args: Args) -> PyResult<Value> {
            $imp(it, args, $name, $op)
        })*
    };
}

bound_to! {
    // binary ufuncs
    f_add = ufunc2("add", Bin::Add);
    f_subtract = ufunc2("subtract", Bin::Sub);
    f_multiply = ufunc2("multiply", Bin::Mul);
    f_divide = ufunc2("divide", Bin::Div);
    f_floor_divide = ufunc2("floor_divide", Bin::FloorDiv);
    f_mod = ufunc2("remainder", Bin::Mod);
    f_power = ufunc2("power", Bin::Pow);
    f_maximum = ufunc2("maximum", Bin::Max);
    f_minimum = ufunc2("minimum", Bin::Min);
    f_equal = ufunc2("equal", Bin::Cmp(CmpOp::Eq));
    f_not_equal = ufunc2("not_equal", Bin::Cmp(CmpOp::Ne));
    f_less = ufunc2("less", Bin::Cmp(CmpOp::Lt));
    f_less_equal = ufunc2("less_equal", Bin::Cmp(CmpOp::Le));
    f_greater = ufunc2("greater", Bin::Cmp(CmpOp::Gt));
    f_greater_equal = ufunc2("greater_equal", Bin::Cmp(CmpOp::Ge));
    f_logical_and = ufunc2("logical_and", Bin::And);
    f_logical_or = ufunc2("logical_or", Bin::Or);
    f_arctan2 = ufunc2("arctan2", Bin::Arctan2);
    f_hypot = ufunc2("hypot", Bin::Hypot);
    // unary ufuncs
    f_negative = ufunc1("negative", Un::Neg);
    f_abs = ufunc1("absolute", Un::Abs);
    f_sign = ufunc1("sign", Un::Sign);
    f_exp = ufunc1("exp", Un::Exp);
    f_log = ufunc1("log", Un::Log);
    f_log2 = ufunc1("log2", Un::Log2);
    f_log10 = ufunc1("log10", Un::Log10);
    f_log1p = ufunc1("log1p", Un::Log1p);
    f_expm1 = ufunc1("expm1", Un::Expm1);
    f_sqrt = ufunc1("sqrt", Un::Sqrt);
    f_square = ufunc1("square", Un::Square);
    f_sin = ufunc1("sin", Un::Sin);
    f_cos = ufunc1("cos", Un::Cos);
    f_tan = ufunc1("tan", Un::Tan);
    f_tanh = ufunc1("tanh", Un::Tanh);
    f_arctan = ufunc1("arctan", Un::Arctan);
    f_floor = ufunc1("floor", Un::Floor);
    f_ceil = ufunc1("ceil", Un::Ceil);
    f_rint = ufunc1("rint", Un::Rint);
    f_trunc = ufunc1("trunc", Un::Trunc);
    f_isnan = ufunc1("isnan", Un::IsNan);
    f_isinf = ufunc1("isinf", Un::IsInf);
    f_isfinite = ufunc1("isfinite", Un::IsFinite);
    f_logical_not = ufunc1("logical_not", Un::Not);
    // reductions
    f_sum = reduce("sum", Red::Sum);
    f_prod = reduce("prod", Red::Prod);
    f_mean = reduce("mean", Red::Mean);
    f_var = reduce("var", Red::Var);
    f_std = reduce("std", Red::Std);
    f_max = reduce("max", Red::Max);
    f_min = reduce("min", Red::Min);
    f_argmax = reduce("argmax", Red::ArgMax);
    f_argmin = reduce("argmin", Red::ArgMin);
    f_any = reduce("any", Red::Any);
    f_all = reduce("all", Red::All);
    f_median = reduce("median", Red::Median);
}

fn ufunc1(it: &mut Interpreter, args: Args, name: &str, op: Un) -> PyResult<Value> {
    let a = args.bind(name, &["x", "out", "where", "dtype"], 1)?;
    let x = operand(it, a[0].as_ref().unwrap())?;
    let out = ops::unary(op, &x)?;
    finish_out(it, out, &a[1], name)
}

/// `np.round(x, decimals)`: multiply by 10**d, round half to even, divide (numpy's
/// PyArray_Round, in the array's own dtype).
pub(crate) fn round_values(v: &Value, decimals: i64) -> PyResult<Value> {
    let mut it_dummy = None::<()>;
    let _ = &mut it_dummy;
    let (vals, shape, dt, scalar) = if let Some(s) = v.downcast::<NpScalar>() {
        (vec![s.v], vec![], s.dtype, true)
    } else if let Some(a) = v.downcast::<NdArray>() {
        (a.values()?, a.shape.clone(), a.dtype(), false)
    } else {
        return Err(err(ExcType::TypeError, "round: expected an array"));
    };
    let out: Vec<f64> = if dt.category() != Category::Floating {
        if decimals >= 0 {
            vals
        } else {
            let f = 10f64.powi(-decimals as i32);
            vals.iter()
                .map(|&x| ((x / f).round_ties_even()) * f)
                .collect()
        }
    } else if decimals >= 0 {
        let f = np_cast(dt, 10f64.powi(decimals as i32));
        vals.iter()
            .map(|&x| {
                let y = np_cast(dt, x * f).round_ties_even();
                np_cast(dt, y / f)
            })
            .collect()
    } else {
        let f = np_cast(dt, 10f64.powi(-decimals as i32));
        vals.iter()
            .map(|&x| {
                let y = np_cast(dt, x / f).round_ties_even();
                np_cast(dt, y * f)
            })
            .collect()
    };
    if scalar {
        return Ok(np_value(dt, out[0]));
    }
    Ok(arr_value(NdArray::from_f64(&rt(), &out, shape, dt)?))
}

fn f_round(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("round", &["a", "decimals", "out"], 1)?;
    let d = match &a[1] {
        Some(v) => it.index_int(v)?,
        None => 0,
    };
    let src = a[0].as_ref().unwrap();
    let v = if src.downcast::<NdArray>().is_some() || src.downcast::<NpScalar>().is_some() {
        src.clone()
    } else {
        let o = operand(it, src)?;
        if o.scalar {
            np_value(o.dtype, o.vals[0])
        } else {
            arr_value(NdArray::from_f64(&rt(), &o.vals, o.shape, o.dtype)?)
        }
    };
    round_values(&v, d)
}

fn f_clip(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("clip", &["a", "a_min", "a_max", "out"], 1)?;
    let x = operand(it, a[0].as_ref().unwrap())?;
    let mut out = ops::Out {
        vals: x.vals.clone(),
        shape: x.shape.clone(),
        dtype: x.dtype,
        scalar: x.scalar,
    };
    let mut cur = x;
    if let Some(lo) = &a[1]
        && !lo.is_none()
    {
        let l = operand(it, lo)?;
        out = ops::binary(Bin::Max, &cur, &l)?;
        cur = ops::Operand {
            vals: out.vals.clone(),
            shape: out.shape.clone(),
            dtype: out.dtype,
            weak: ops::Weak::Strong,
            scalar: out.scalar,
        };
    }
    if let Some(hi) = &a[2]
        && !hi.is_none()
    {
        let h = operand(it, hi)?;
        out = ops::binary(Bin::Min, &cur, &h)?;
    }
    finish_out(it, out, &a[3], "clip")
}

fn f_where(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("where", &["condition", "x", "y"], 1)?;
    let c = operand(it, a[0].as_ref().unwrap())?;
    match (&a[1], &a[2]) {
        (None, None) => {
            let arr = NdArray::from_f64(&rt(), &c.vals, c.shape.clone(), DType::Bool)?;
            nonzero(&arr)
        }
        (Some(x), Some(y)) => {
            let x = operand(it, x)?;
            let y = operand(it, y)?;
            let dt = ops::result_dtype(&x, &y);
            let shape = super::array::broadcast_shapes(
                &super::array::broadcast_shapes(&c.shape, &x.shape)?,
                &y.shape,
            )?;
            let z = |dt| ops::Operand {
                vals: vec![0.0; numel(&shape)],
                shape: shape.clone(),
                dtype: dt,
                weak: ops::Weak::Strong,
                scalar: false,
            };
            let cs = ops::binary(Bin::Add, &c, &z(DType::Bool))?.vals;
            let xs = ops::binary(Bin::Add, &x, &z(DType::Bool))?.vals;
            let ys = ops::binary(Bin::Add, &y, &z(DType::Bool))?.vals;
            let vals: Vec<f64> = (0..cs.len())
                .map(|i| np_cast(dt, if cs[i] != 0.0 { xs[i] } else { ys[i] }))
                .collect();
            Ok(arr_value(NdArray::from_f64(&rt(), &vals, shape, dt)?))
        }
        _ => Err(err(
            ExcType::ValueError,
            "either both or neither of x and y should be given",
        )),
    }
}

fn nonzero(a: &NdArray) -> PyResult<Value> {
    let vals = a.values()?;
    let strides = contiguous_strides(&a.shape);
    let nd = a.ndim().max(1);
    let mut cols: Vec<Vec<f64>> = vec![Vec::new(); nd];
    for (k, &v) in vals.iter().enumerate() {
        if v != 0.0 {
            if a.ndim() == 0 {
                cols[0].push(0.0);
            }
            for d in 0..a.ndim() {
                cols[d].push(((k as isize / strides[d]) as usize % a.shape[d]) as f64);
            }
        }
    }
    let mut out = Vec::new();
    for c in cols {
        let n = c.len();
        out.push(arr_value(NdArray::from_f64(
            &rt(),
            &c,
            vec![n],
            DType::Int64,
        )?));
    }
    Ok(Value::tuple(out))
}

fn f_nonzero(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("nonzero", &["a"], 1)?;
    let x = as_array(it, a[0].as_ref().unwrap())?;
    nonzero(&x)
}

fn f_count_nonzero(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("count_nonzero", &["a", "axis"], 1)?;
    let x = as_array(it, a[0].as_ref().unwrap())?;
    let n = x.values()?.iter().filter(|&&v| v != 0.0).count();
    Ok(Value::Int(n as i64))
}

// ---------------------------------------------------------------- reductions

#[derive(Clone, Copy, PartialEq)]
enum Red {
    Sum,
    Prod,
    Mean,
    Var,
    Std,
    Max,
    Min,
    ArgMax,
    ArgMin,
    Any,
    All,
    Median,
}

fn reduce(it: &mut Interpreter, args: Args, name: &str, kind: Red) -> PyResult<Value> {
    let params: &[&str] = match kind {
        Red::Sum | Red::Prod | Red::Mean => &["a", "axis", "dtype", "out", "keepdims"],
        Red::Var | Red::Std => &["a", "axis", "dtype", "out", "ddof", "keepdims"],
        Red::Median => &["a", "axis", "out", "overwrite_input", "keepdims"],
        _ => &["a", "axis", "out", "keepdims"],
    };
    let a = args.bind(name, params, 1)?;
    let get = |n: &str| {
        params
            .iter()
            .position(|p| *p == n)
            .and_then(|i| a[i].clone())
    };
    let x = operand(it, a[0].as_ref().unwrap())?;
    let axes = ops::axes_arg(it, get("axis").as_ref(), x.shape.len())?;
    let keepdims = truthy(it, &get("keepdims"))?;
    let ddof = match get("ddof") {
        Some(v) => num(it, &v)?,
        None => 0.0,
    };
    let given_dt = opt_dtype(&get("dtype"))?;
    let (groups, out_shape, keep_shape, inner) = ops::groups(&x.vals, &x.shape, &axes);
    let idt = x.dtype;
    let empty_err = |what: &str| {
        err(
            ExcType::ValueError,
            format!("zero-size array to reduction operation {what} which has no identity"),
        )
    };
    let (vals, dt): (Vec<f64>, DType) = match kind {
        Red::Sum => {
            let dt = given_dt.unwrap_or(ops::sum_dtype(idt));
            (
                groups
                    .iter()
                    .map(|g| {
                        let g: Vec<f64> = g.iter().map(|&v| np_cast(dt, v)).collect();
                        ops::sum_group(&g, dt, inner)
                    })
                    .collect(),
                dt,
            )
        }
        Red::Prod => {
            let dt = given_dt.unwrap_or(ops::sum_dtype(idt));
            (
                groups
                    .iter()
                    .map(|g| g.iter().fold(1.0, |p, &v| np_cast(dt, p * np_cast(dt, v))))
                    .collect(),
                dt,
            )
        }
        Red::Mean | Red::Var | Red::Std => {
            let dt = given_dt.unwrap_or(ops::mean_dtype(idt));
            let vals = groups
                .iter()
                .map(|g| {
                    let g: Vec<f64> = g.iter().map(|&v| np_cast(dt, v)).collect();
                    let n = g.len() as f64;
                    let mean = np_cast(dt, ops::sum_group(&g, dt, inner) / n);
                    if kind == Red::Mean {
                        return mean;
                    }
                    let sq: Vec<f64> = g
                        .iter()
                        .map(|&v| {
                            let d = np_cast(dt, v - mean);
                            np_cast(dt, d * d)
                        })
                        .collect();
                    let var = np_cast(dt, ops::sum_group(&sq, dt, inner) / (n - ddof).max(0.0));
                    if kind == Red::Std {
                        np_cast(dt, var.sqrt())
                    } else {
                        var
                    }
                })
                .collect();
            (vals, dt)
        }
        Red::Max | Red::Min => {
            if groups.iter().any(|g| g.is_empty()) {
                return Err(empty_err(if kind == Red::Max {
                    "maximum"
                } else {
                    "minimum"
                }));
            }
            let vals = groups
                .iter()
                .map(|g| {
                    g.iter().skip(1).fold(g[0], |m, &v| {
                        if m.is_nan() || v.is_nan() {
                            f64::NAN
                        } else if (kind == Red::Max && v > m) || (kind == Red::Min && v < m) {
                            v
                        } else {
                            m
                        }
                    })
                })
                .collect();
            (vals, idt)
        }
        Red::ArgMax | Red::ArgMin => {
            if groups.iter().any(|g| g.is_empty()) {
                return Err(err(
                    ExcType::ValueError,
                    format!(
                        "attempt to get {} of an empty sequence",
                        if kind == Red::ArgMax {
                            "argmax"
                        } else {
                            "argmin"
                        }
                    ),
                ));
            }
            let vals = groups
                .iter()
                .map(|g| {
                    let mut best = 0usize;
                    for (i, &v) in g.iter().enumerate() {
                        if g[best].is_nan() {
                            break;
                        }
                        if v.is_nan()
                            || (kind == Red::ArgMax && v > g[best])
                            || (kind == Red::ArgMin && v < g[best])
                        {
                            best = i;
                        }
                    }
                    best as f64
                })
                .collect();
            (vals, DType::Int64)
        }
        Red::Any => (
            groups
                .iter()
                .map(|g| g.iter().any(|&v| v != 0.0) as i64 as f64)
                .collect(),
            DType::Bool,
        ),
        Red::All => (
            groups
                .iter()
                .map(|g| g.iter().all(|&v| v != 0.0) as i64 as f64)
                .collect(),
            DType::Bool,
        ),
        Red::Median => {
            let dt = ops::mean_dtype(idt);
            let vals = groups
                .iter()
                .map(|g| {
                    let mut s = g.clone();
                    s.sort_by(|a, b| a.total_cmp(b));
                    let n = s.len();
                    if n == 0 {
                        f64::NAN
                    } else if n % 2 == 1 {
                        s[n / 2]
                    } else {
                        np_cast(dt, np_cast(dt, s[n / 2 - 1] + s[n / 2]) / 2.0)
                    }
                })
                .collect();
            (vals, dt)
        }
    };
    if axes.is_none() && !keepdims {
        return Ok(np_value(dt, vals[0]));
    }
    let shape = if keepdims { keep_shape } else { out_shape };
    if shape.is_empty() {
        return Ok(np_value(dt, vals[0]));
    }
    Ok(arr_value(NdArray::from_f64(&rt(), &vals, shape, dt)?))
}

fn f_cumsum(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    cum(it, args, "cumsum", false)
}
fn f_cumprod(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    cum(it, args, "cumprod", true)
}

fn cum(it: &mut Interpreter, args: Args, name: &str, prod: bool) -> PyResult<Value> {
    let a = args.bind(name, &["a", "axis", "dtype", "out"], 1)?;
    let x = as_array(it, a[0].as_ref().unwrap())?;
    let dt = opt_dtype(&a[2])?.unwrap_or(ops::sum_dtype(x.dtype()));
    let vals = x.values()?;
    let (shape, axis) = match &a[1] {
        None | Some(Value::None) => (vec![vals.len()], 0usize),
        Some(v) => {
            let ax = ops::axes_arg(it, Some(v), x.ndim())?.unwrap_or_default();
            (x.shape.clone(), ax.first().copied().unwrap_or(0))
        }
    };
    let strides = contiguous_strides(&shape);
    let mut out = vals.clone();
    let n = shape[axis];
    let st = strides[axis] as usize;
    for (k, slot) in vals.iter().enumerate() {
        let i = (k / st) % n;
        out[k] = if i == 0 {
            np_cast(dt, *slot)
        } else if prod {
            np_cast(dt, out[k - st] * np_cast(dt, *slot))
        } else {
            np_cast(dt, out[k - st] + np_cast(dt, *slot))
        };
    }
    Ok(arr_value(NdArray::from_f64(&rt(), &out, shape, dt)?))
}

// ---------------------------------------------------------------- shapes

fn f_reshape(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("reshape", &["a", "*shape", "order", "newshape"], 1)?;
    let x = as_array(it, a[0].as_ref().unwrap())?;
    let mut items = a[1].as_ref().and_then(|v| v.as_vec()).unwrap_or_default();
    if let Some(ns) = &a[3] {
        items = vec![ns.clone()];
    }
    let items = if items.len() == 1 {
        match &items[0] {
            Value::Tuple(_) | Value::List(_) => items[0].as_vec().unwrap_or_default(),
            _ => items,
        }
    } else {
        items
    };
    let mut dims = Vec::new();
    for v in &items {
        dims.push(it.index_int(v)?);
    }
    Ok(arr_value(x.reshape(&dims)?))
}

fn f_transpose(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("transpose", &["a", "*axes"], 1)?;
    let x = as_array(it, a[0].as_ref().unwrap())?;
    let mut items = a[1].as_ref().and_then(|v| v.as_vec()).unwrap_or_default();
    if items.len() == 1 {
        items = match &items[0] {
            Value::Tuple(_) | Value::List(_) => items[0].as_vec().unwrap_or_default(),
            Value::None => vec![],
            _ => items,
        };
    }
    if items.is_empty() {
        return Ok(arr_value(x.transpose(None)));
    }
    let mut perm = Vec::new();
    for v in &items {
        let d = it.index_int(v)?;
        let n = x.ndim() as i64;
        let d = if d < 0 { d + n } else { d };
        if d < 0 || d >= n {
            return Err(err(
                ExcType::AxisError,
                format!("axis {} is out of bounds for array of dimension {n}", d),
            ));
        }
        perm.push(d as usize);
    }
    let mut sorted = perm.clone();
    sorted.sort();
    if sorted != (0..x.ndim()).collect::<Vec<_>>() {
        return Err(err(ExcType::ValueError, "axes don't match array"));
    }
    Ok(arr_value(x.transpose(Some(&perm))))
}

fn f_expand_dims(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("expand_dims", &["a", "axis"], 2)?;
    let x = as_array(it, a[0].as_ref().unwrap())?;
    let n = x.ndim() as i64 + 1;
    let d = it.index_int(a[1].as_ref().unwrap())?;
    let d = if d < 0 { d + n } else { d };
    if d < 0 || d >= n {
        return Err(err(
            ExcType::AxisError,
            format!("axis {d} is out of bounds for array of dimension {n}"),
        ));
    }
    let mut shape = x.shape.clone();
    let mut strides = x.strides.clone();
    shape.insert(d as usize, 1);
    strides.insert(d as usize, 0);
    Ok(arr_value(x.view(shape, strides, x.offset)))
}

fn f_squeeze(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("squeeze", &["a", "axis"], 1)?;
    let x = as_array(it, a[0].as_ref().unwrap())?;
    let axes = ops::axes_arg(it, a[1].as_ref(), x.ndim())?;
    let mut shape = Vec::new();
    let mut strides = Vec::new();
    for d in 0..x.ndim() {
        let drop = match &axes {
            None => x.shape[d] == 1,
            Some(ax) => {
                if ax.contains(&d) && x.shape[d] != 1 {
                    return Err(err(
                        ExcType::ValueError,
                        "cannot select an axis to squeeze out which has size not equal to one",
                    ));
                }
                ax.contains(&d)
            }
        };
        if !drop {
            shape.push(x.shape[d]);
            strides.push(x.strides[d]);
        }
    }
    Ok(arr_value(x.view(shape, strides, x.offset)))
}

fn f_ravel(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("ravel", &["a", "order"], 1)?;
    let x = as_array(it, a[0].as_ref().unwrap())?;
    Ok(arr_value(x.reshape(&[-1])?))
}

fn f_flatten(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("flatten", &["a", "order"], 1)?;
    let x = as_array(it, a[0].as_ref().unwrap())?;
    let c = x.copy_as(x.dtype())?;
    let n = c.size();
    Ok(arr_value(c.view(vec![n], vec![1], 0)))
}

fn f_copy(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("copy", &["a", "order"], 1)?;
    let x = as_array(it, a[0].as_ref().unwrap())?;
    Ok(arr_value(x.copy_as(x.dtype())?))
}

fn f_astype(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind(
        "astype",
        &["a", "dtype", "order", "casting", "subok", "copy"],
        2,
    )?;
    let x = as_array(it, a[0].as_ref().unwrap())?;
    let dt = super::dtype_of(a[1].as_ref().unwrap())?;
    Ok(arr_value(x.copy_as(dt)?))
}

/// The arrays of a sequence argument (`np.concatenate`'s and `np.stack`'s `arrays`), each
/// item converted as `np.asarray` would.
fn arrays_of(it: &mut Interpreter, seq: &Value) -> PyResult<Vec<NdArray>> {
    let items = it.iterate(seq)?;
    items.iter().map(|v| as_array(it, v)).collect()
}

fn f_concatenate(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("concatenate", &["arrays", "axis", "out", "dtype"], 1)?;
    let mut arrs = arrays_of(it, a[0].as_ref().unwrap())?;
    let axis_none = matches!(a[1], Some(Value::None));
    if axis_none {
        arrs = arrs
            .into_iter()
            .map(|x| x.reshape(&[-1]))
            .collect::<PyResult<Vec<_>>>()?;
    }
    concat(it, arrs, if axis_none { None } else { a[1].clone() })
}

fn concat(it: &mut Interpreter, arrs: Vec<NdArray>, axis: Option<Value>) -> PyResult<Value> {
    if arrs.is_empty() {
        return Err(err(
            ExcType::ValueError,
            "need at least one array to concatenate",
        ));
    }
    let nd = arrs[0].ndim();
    if nd == 0 {
        return Err(err(
            ExcType::ValueError,
            "zero-dimensional arrays cannot be concatenated",
        ));
    }
    let ax = match &axis {
        None => 0,
        Some(v) => ops::axes_arg(it, Some(v), nd)?
            .and_then(|a| a.first().copied())
            .unwrap_or(0),
    };
    let mut dt = arrs[0].dtype();
    for (i, x) in arrs.iter().enumerate() {
        if x.ndim() != nd {
            return Err(err(
                ExcType::ValueError,
                format!(
                    "all the input array dimensions except for the concatenation axis must match exactly, but along dimension 0, the array at index 0 has size {} and the array at index {i} has size {}",
                    arrs[0].shape.first().unwrap_or(&0),
                    x.shape.first().unwrap_or(&0)
                ),
            ));
        }
        for d in 0..nd {
            if d != ax && x.shape[d] != arrs[0].shape[d] {
                return Err(err(
                    ExcType::ValueError,
                    format!(
                        "all the input array dimensions except for the concatenation axis must match exactly, but along dimension {d}, the array at index 0 has size {} and the array at index {i} has size {}",
                        arrs[0].shape[d], x.shape[d]
                    ),
                ));
            }
        }
        dt = ops::np_promote(dt, x.dtype());
    }
    let mut shape = arrs[0].shape.clone();
    shape[ax] = arrs.iter().map(|x| x.shape[ax]).sum();
    let outer: usize = shape[..ax].iter().product();
    let mut vals = Vec::with_capacity(numel(&shape));
    let parts: Vec<(Vec<f64>, usize)> = arrs
        .iter()
        .map(|x| {
            let inner: usize = x.shape[ax..].iter().product();
            x.values().map(|v| (v, inner))
        })
        .collect::<PyResult<_>>()?;
    for o in 0..outer {
        for (v, inner) in &parts {
            vals.extend_from_slice(&v[o * inner..(o + 1) * inner]);
        }
    }
    Ok(arr_value(NdArray::from_f64(&rt(), &vals, shape, dt)?))
}

fn f_stack(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("stack", &["arrays", "axis", "out", "dtype"], 1)?;
    let arrs = arrays_of(it, a[0].as_ref().unwrap())?;
    if arrs.is_empty() {
        return Err(err(ExcType::ValueError, "need at least one array to stack"));
    }
    if arrs.iter().any(|x| x.shape != arrs[0].shape) {
        return Err(err(
            ExcType::ValueError,
            "all input arrays must have the same shape",
        ));
    }
    let n = arrs[0].ndim() as i64 + 1;
    let ax = match &a[1] {
        None => 0,
        Some(v) => it.index_int(v)?,
    };
    let ax = if ax < 0 { ax + n } else { ax };
    if ax < 0 || ax >= n {
        return Err(err(
            ExcType::AxisError,
            format!("axis {ax} is out of bounds for array of dimension {n}"),
        ));
    }
    let expanded: Vec<NdArray> = arrs
        .iter()
        .map(|x| {
            let mut s = x.shape.clone();
            let mut st = x.strides.clone();
            s.insert(ax as usize, 1);
            st.insert(ax as usize, 0);
            x.view(s, st, x.offset)
        })
        .collect();
    concat(it, expanded, Some(Value::Int(ax)))
}

// ---------------------------------------------------------------- products

pub(crate) fn matmul(it: &mut Interpreter, a: &Value, b: &Value) -> PyResult<Value> {
    let x = as_array(it, a)?;
    let y = as_array(it, b)?;
    if x.ndim() == 0 || y.ndim() == 0 {
        return Err(err(
            ExcType::ValueError,
            "matmul: Input operand 0 does not have enough dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)",
        ));
    }
    if x.ndim() > 2 || y.ndim() > 2 {
        return Err(err(
            ExcType::NotImplementedError,
            "cudatutor's numpy multiplies 1-d and 2-d arrays only",
        ));
    }
    let dt = ops::np_promote(x.dtype(), y.dtype());
    let (n, k) = if x.ndim() == 2 {
        (x.shape[0], x.shape[1])
    } else {
        (1, x.shape[0])
    };
    let (k2, m) = if y.ndim() == 2 {
        (y.shape[0], y.shape[1])
    } else {
        (y.shape[0], 1)
    };
    if k != k2 {
        return Err(err(
            ExcType::ValueError,
            format!(
                "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size {k2} is different from {k})"
            ),
        ));
    }
    let xv: Vec<f64> = x.values()?.into_iter().map(|v| np_cast(dt, v)).collect();
    let yv: Vec<f64> = y.values()?.into_iter().map(|v| np_cast(dt, v)).collect();
    let mut out = vec![0.0; n * m];
    for i in 0..n {
        for j in 0..m {
            let mut s = 0.0;
            for p in 0..k {
                s = np_cast(dt, s + np_cast(dt, xv[i * k + p] * yv[p * m + j]));
            }
            out[i * m + j] = s;
        }
    }
    let shape = match (x.ndim(), y.ndim()) {
        (2, 2) => vec![n, m],
        (2, 1) => vec![n],
        (1, 2) => vec![m],
        _ => vec![],
    };
    if shape.is_empty() {
        return Ok(np_value(dt, out[0]));
    }
    Ok(arr_value(NdArray::from_f64(&rt(), &out, shape, dt)?))
}

fn f_matmul(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("matmul", &["x1", "x2", "out"], 2)?;
    matmul(it, a[0].as_ref().unwrap(), a[1].as_ref().unwrap())
}

fn f_dot(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("dot", &["a", "b", "out"], 2)?;
    let x = operand(it, a[0].as_ref().unwrap())?;
    let y = operand(it, a[1].as_ref().unwrap())?;
    if x.shape.is_empty() || y.shape.is_empty() {
        return ops::binary(Bin::Mul, &x, &y)?.into_value(&rt());
    }
    matmul(it, a[0].as_ref().unwrap(), a[1].as_ref().unwrap())
}

/// `np.linalg.solve(a, b)`: LU with partial pivoting (LAPACK's gesv).
fn f_solve(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("solve", &["a", "b"], 2)?;
    let x = as_array(it, a[0].as_ref().unwrap())?;
    let y = as_array(it, a[1].as_ref().unwrap())?;
    if x.ndim() != 2 || x.shape[0] != x.shape[1] {
        return Err(err(
            ExcType::LinAlgError,
            "Last 2 dimensions of the array must be square",
        ));
    }
    let n = x.shape[0];
    let mut m = x.values()?;
    let cols = if y.ndim() == 2 { y.shape[1] } else { 1 };
    let mut b = y.values()?;
    if b.len() != n * cols {
        return Err(err(
            ExcType::ValueError,
            "solve: Input operand 1 has a mismatch in its core dimension 0",
        ));
    }
    for c in 0..n {
        let p = (c..n)
            .max_by(|&i, &j| m[i * n + c].abs().total_cmp(&m[j * n + c].abs()))
            .unwrap_or(c);
        if m[p * n + c] == 0.0 {
            return Err(err(ExcType::LinAlgError, "Singular matrix"));
        }
        if p != c {
            for k in 0..n {
                m.swap(c * n + k, p * n + k);
            }
            for k in 0..cols {
                b.swap(c * cols + k, p * cols + k);
            }
        }
        for r in c + 1..n {
            let f = m[r * n + c] / m[c * n + c];
            for k in c..n {
                m[r * n + k] -= f * m[c * n + k];
            }
            for k in 0..cols {
                b[r * cols + k] -= f * b[c * cols + k];
            }
        }
    }
    for c in (0..n).rev() {
        for k in 0..cols {
            let mut s = b[c * cols + k];
            for j in c + 1..n {
                s -= m[c * n + j] * b[j * cols + k];
            }
            b[c * cols + k] = s / m[c * n + c];
        }
    }
    Ok(arr_value(NdArray::from_f64(
        &rt(),
        &b,
        y.shape.clone(),
        DType::Float64,
    )?))
}

fn f_norm(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("norm", &["x", "ord", "axis", "keepdims"], 1)?;
    let x = operand(it, a[0].as_ref().unwrap())?;
    let dt = ops::mean_dtype(x.dtype);
    let sq: Vec<f64> = x.vals.iter().map(|&v| np_cast(dt, v * v)).collect();
    let s = ops::sum_group(&sq, dt, true);
    Ok(np_value(dt, np_cast(dt, s.sqrt())))
}

// ---------------------------------------------------------------- sorting

fn sort_along(vals: &[f64], shape: &[usize], axis: usize, arg: bool) -> Vec<f64> {
    let strides = contiguous_strides(shape);
    let n = shape[axis];
    let st = strides[axis] as usize;
    let mut out = vals.to_vec();
    for base in 0..vals.len() {
        if !(base / st).is_multiple_of(n) {
            continue;
        }
        let mut idx: Vec<usize> = (0..n).collect();
        idx.sort_by(|&i, &j| vals[base + i * st].total_cmp(&vals[base + j * st]));
        for (k, &i) in idx.iter().enumerate() {
            out[base + k * st] = if arg { i as f64 } else { vals[base + i * st] };
        }
    }
    out
}

fn sort_impl(it: &mut Interpreter, args: Args, name: &str, arg: bool) -> PyResult<Value> {
    let a = args.bind(name, &["a", "axis", "kind", "order", "stable"], 1)?;
    let x = as_array(it, a[0].as_ref().unwrap())?;
    let vals = x.values()?;
    let (shape, axis) = match &a[1] {
        Some(Value::None) => (vec![vals.len()], 0),
        None if x.ndim() == 0 => (vec![1], 0),
        None => (x.shape.clone(), x.ndim() - 1),
        Some(v) => (
            x.shape.clone(),
            ops::axes_arg(it, Some(v), x.ndim())?
                .and_then(|a| a.first().copied())
                .unwrap_or(0),
        ),
    };
    let out = sort_along(&vals, &shape, axis, arg);
    let dt = if arg { DType::Int64 } else { x.dtype() };
    Ok(arr_value(NdArray::from_f64(&rt(), &out, shape, dt)?))
}

fn f_sort(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    sort_impl(it, args, "sort", false)
}
fn f_argsort(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    sort_impl(it, args, "argsort", true)
}

fn f_unique(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind(
        "unique",
        &[
            "ar",
            "return_index",
            "return_inverse",
            "return_counts",
            "axis",
        ],
        1,
    )?;
    let x = as_array(it, a[0].as_ref().unwrap())?;
    let vals = x.values()?;
    let mut s = vals.clone();
    s.sort_by(|a, b| a.total_cmp(b));
    s.dedup();
    let r = rt();
    let uniq = arr_value(NdArray::from_f64(&r, &s, vec![s.len()], x.dtype())?);
    let want_index = truthy(it, &a[1])?;
    let want_inverse = truthy(it, &a[2])?;
    let want_counts = truthy(it, &a[3])?;
    if !(want_index || want_inverse || want_counts) {
        return Ok(uniq);
    }
    let mut out = vec![uniq];
    // the index, inverse and count arrays numpy returns are int64
    let int64 = |vals: &[f64], shape: Vec<usize>| {
        NdArray::from_f64(&r, vals, shape, DType::Int64).map(arr_value)
    };
    let pos = |v: f64| s.iter().position(|&u| u.total_cmp(&v).is_eq()).unwrap_or(0);
    if want_index {
        let idx: Vec<f64> = s
            .iter()
            .map(|&u| {
                vals.iter()
                    .position(|&v| v.total_cmp(&u).is_eq())
                    .unwrap_or(0) as f64
            })
            .collect();
        out.push(int64(&idx, vec![idx.len()])?);
    }
    if want_inverse {
        let inv: Vec<f64> = vals.iter().map(|&v| pos(v) as f64).collect();
        out.push(int64(&inv, x.shape.clone())?);
    }
    if want_counts {
        let mut c = vec![0.0; s.len()];
        for &v in &vals {
            c[pos(v)] += 1.0;
        }
        out.push(int64(&c, vec![c.len()])?);
    }
    Ok(Value::tuple(out))
}

fn f_bincount(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("bincount", &["x", "weights", "minlength"], 1)?;
    let x = as_array(it, a[0].as_ref().unwrap())?;
    if x.dtype().category() == Category::Floating {
        return Err(err(
            ExcType::TypeError,
            "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'",
        ));
    }
    let vals = x.values()?;
    if vals.iter().any(|&v| v < 0.0) {
        return Err(err(
            ExcType::ValueError,
            "'list' argument must have no negative elements",
        ));
    }
    let minlength = match &a[2] {
        Some(v) => it.index_int(v)?.max(0) as usize,
        None => 0,
    };
    let n = (vals.iter().fold(-1.0f64, |m, &v| m.max(v)) + 1.0) as usize;
    let n = n.max(minlength);
    let weights = match &a[1] {
        Some(w) if !w.is_none() => Some(operand(it, w)?.vals),
        _ => None,
    };
    let mut c = vec![0.0; n];
    for (i, &v) in vals.iter().enumerate() {
        c[v as usize] += weights.as_ref().map_or(1.0, |w| w[i]);
    }
    let dt = if weights.is_some() {
        DType::Float64
    } else {
        DType::Int64
    };
    Ok(arr_value(NdArray::from_f64(&rt(), &c, vec![n], dt)?))
}

// ---------------------------------------------------------------- methods

fn f_tolist(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("tolist", &["a"], 1)?;
    let x = as_array(it, a[0].as_ref().unwrap())?;
    let vals = x.scalars()?;
    Ok(crate::binding::nested(&vals, &x.shape))
}

fn f_item(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("item", &["a", "*args"], 1)?;
    let x = as_array(it, a[0].as_ref().unwrap())?;
    let rest = a[1].as_ref().and_then(|v| v.as_vec()).unwrap_or_default();
    let vals = x.scalars()?;
    if rest.is_empty() {
        if vals.len() != 1 {
            return Err(err(
                ExcType::ValueError,
                "can only convert an array of size 1 to a Python scalar",
            ));
        }
        return Ok(crate::binding::scalar_value(vals[0]));
    }
    let i = it.index_int(&rest[0])?;
    let n = vals.len() as i64;
    let j = if i < 0 { i + n } else { i };
    if j < 0 || j >= n {
        return Err(err(
            ExcType::IndexError,
            format!("index {i} is out of bounds for size {n}"),
        ));
    }
    Ok(crate::binding::scalar_value(vals[j as usize]))
}

fn f_fill(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let a = args.bind("fill", &["a", "value"], 2)?;
    let x = as_array(it, a[0].as_ref().unwrap())?;
    let v = num(it, a[1].as_ref().unwrap())?;
    x.write(&x.offsets(), &vec![v; x.size()])?;
    Ok(Value::None)
}

fn f_sort_inplace(it: &mut Interpreter, args: Args) -> PyResult<Value> {
    let me = args.positional[0].clone();
    let sorted = f_sort(it, args)?;
    let x = as_array(it, &me)?;
    let s = as_array(it, &sorted)?;
    x.write(&x.offsets(), &s.values()?)?;
    Ok(Value::None)
}

fn f_view_as_self(_it: &mut Interpreter, args: Args) -> PyResult<Value> {
    Ok(args.positional[0].clone())
}

/// The module's functions (name, implementation).
pub(crate) const FUNCS: &[(&str, F)] = &[
    ("array", f_array),
    ("asarray", f_asarray),
    ("zeros", f_zeros),
    ("ones", f_ones),
    ("empty", f_empty),
    ("full", f_full),
    ("zeros_like", f_zeros_like),
    ("ones_like", f_ones_like),
    ("empty_like", f_empty_like),
    ("full_like", f_full_like),
    ("arange", f_arange),
    ("linspace", f_linspace),
    ("eye", f_eye),
    ("identity", f_identity),
    ("add", f_add),
    ("subtract", f_subtract),
    ("multiply", f_multiply),
    ("divide", f_divide),
    ("true_divide", f_divide),
    ("floor_divide", f_floor_divide),
    ("mod", f_mod),
    ("remainder", f_mod),
    ("power", f_power),
    ("maximum", f_maximum),
    ("minimum", f_minimum),
    ("fmax", f_maximum),
    ("fmin", f_minimum),
    ("equal", f_equal),
    ("not_equal", f_not_equal),
    ("less", f_less),
    ("less_equal", f_less_equal),
    ("greater", f_greater),
    ("greater_equal", f_greater_equal),
    ("logical_and", f_logical_and),
    ("logical_or", f_logical_or),
    ("logical_not", f_logical_not),
    ("arctan2", f_arctan2),
    ("hypot", f_hypot),
    ("negative", f_negative),
    ("abs", f_abs),
    ("absolute", f_abs),
    ("sign", f_sign),
    ("exp", f_exp),
    ("log", f_log),
    ("log2", f_log2),
    ("log10", f_log10),
    ("log1p", f_log1p),
    ("expm1", f_expm1),
    ("sqrt", f_sqrt),
    ("square", f_square),
    ("sin", f_sin),
    ("cos", f_cos),
    ("tan", f_tan),
    ("tanh", f_tanh),
    ("arctan", f_arctan),
    ("floor", f_floor),
    ("ceil", f_ceil),
    ("rint", f_rint),
    ("trunc", f_trunc),
    ("isnan", f_isnan),
    ("isinf", f_isinf),
    ("isfinite", f_isfinite),
    ("round", f_round),
    ("around", f_round),
    ("clip", f_clip),
    ("where", f_where),
    ("nonzero", f_nonzero),
    ("count_nonzero", f_count_nonzero),
    ("sum", f_sum),
    ("prod", f_prod),
    ("mean", f_mean),
    ("var", f_var),
    ("std", f_std),
    ("max", f_max),
    ("min", f_min),
    ("amax", f_max),
    ("amin", f_min),
    ("argmax", f_argmax),
    ("argmin", f_argmin),
    ("any", f_any),
    ("all", f_all),
    ("median", f_median),
    ("cumsum", f_cumsum),
    ("cumprod", f_cumprod),
    ("reshape", f_reshape),
    ("transpose", f_transpose),
    ("expand_dims", f_expand_dims),
    ("squeeze", f_squeeze),
    ("ravel", f_ravel),
    ("copy", f_copy),
    ("concatenate", f_concatenate),
    ("stack", f_stack),
    ("matmul", f_matmul),
    ("dot", f_dot),
    ("sort", f_sort),
    ("argsort", f_argsort),
    ("unique", f_unique),
    ("bincount", f_bincount),
];

/// Array methods that are not module functions of the same name.
const METHODS: &[(&str, F)] = &[
    ("astype", f_astype),
    ("flatten", f_flatten),
    ("tolist", f_tolist),
    ("item", f_item),
    ("fill", f_fill),
    ("sort", f_sort_inplace),
    ("__array__", f_view_as_self),
];

/// Array methods that are the module function with the array first (`a.reshape(2, 3)`), besides
/// the [`METHOD_REDUCTIONS`].
const METHOD_FUNCS: &[&str] = &[
    "reshape",
    "transpose",
    "squeeze",
    "ravel",
    "copy",
    "cumsum",
    "cumprod",
    "round",
    "clip",
    "nonzero",
    "dot",
    "argsort",
];

/// `a.name` for a method: the function bound to the array.
pub(crate) fn method(_it: &mut Interpreter, me: &Value, name: &str) -> PyResult<Option<Value>> {
    let f = METHODS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, f)| *f)
        .or_else(|| {
            (METHOD_REDUCTIONS.contains(&name) || METHOD_FUNCS.contains(&name))
                .then(|| FUNCS.iter().find(|(n, _)| *n == name).map(|(_, f)| *f))
                .flatten()
        });
    let Some(f) = f else { return Ok(None) };
    let me = me.clone();
    let nm = name.to_string();
    Ok(Some(Value::native_fn(name, move |it, mut args| {
        args.positional.insert(0, me.clone());
        if nm == "round" {
            // a.round(decimals)
        }
        f(it, args)
    })))
}

pub(crate) fn linalg_module() -> Value {
    let m = Module::new("numpy.linalg");
    m.add_fn("solve", f_solve);
    m.add_fn("norm", f_norm);
    m.into_value()
}
