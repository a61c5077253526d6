//! numpy's arithmetic: operands (arrays, numpy scalars, Python numbers, nested lists,
//! tensors), NEP 50 type promotion (numpy 2: Python numbers are "weak"), broadcasting,
//! element-wise ufuncs and reductions (pairwise float sums as numpy's `pairwise_sum`).

use super::array::{NdArray, NpScalar, broadcast_shapes, err, np_cast, numel};
use crate::engine::dtype::{Category, DType};
use crate::engine::runtime::Runtime;
use crate::script::ExcType;
use crate::script::{CmpOp, Interpreter, PyException, PyResult, Value};
use std::rc::Rc;

/// How an operand takes part in promotion.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum Weak {
    /// An array or numpy scalar: its dtype counts.
    Strong,
    /// A Python bool / int / float: only its kind counts (NEP 50).
    Bool,
    Int,
    Float,
}

/// An operand read into values.
pub(crate) struct Operand {
    pub vals: Vec<f64>,
    pub shape: Vec<usize>,
    pub dtype: DType,
    pub weak: Weak,
    /// A numpy or Python scalar (results of scalar-only ops are numpy scalars).
    pub scalar: bool,
}

/// numpy's `promote_types` for the dtypes the engine has.
pub(crate) fn np_promote(a: DType, b: DType) -> DType {
    use DType::*;
    if a == b {
        return a;
    }
    let (ca, cb) = (a.category(), b.category());
    if ca == Category::Bool {
        return b;
    }
    if cb == Category::Bool {
        return a;
    }
    if ca == Category::Floating && cb == Category::Floating {
        return if a.element_size() >= b.element_size() {
            a
        } else {
            b
        };
    }
    if ca == Category::Integral && cb == Category::Integral {
        let signed = |d: DType| d != UInt8;
        let (sa, sb) = (a.element_size(), b.element_size());
        if signed(a) == signed(b) {
            return if sa >= sb { a } else { b };
        }
        // uint8 with a signed type: the signed one when it is wider, else the next wider
        let s = if signed(a) { sa } else { sb };
        return if s > 1 {
            if signed(a) { a } else { b }
        } else {
            Int16
        };
    }
    // integer with float: a float wide enough for the integer's values
    let (i, f) = if ca == Category::Integral {
        (a, b)
    } else {
        (b, a)
    };
    let need = match i.element_size() {
        1 => 2,
        2 => 4,
        _ => 8,
    };
    if f.element_size() >= need {
        f
    } else if need == 4 {
        Float32
    } else {
        Float64
    }
}

/// The dtype of a Python number meeting `strong` (NEP 50).
fn weak_with(strong: DType, weak: Weak) -> DType {
    match (weak, strong.category()) {
        (Weak::Int, Category::Bool) => DType::Int64,
        (Weak::Float, Category::Bool | Category::Integral) => DType::Float64,
        _ => strong,
    }
}

fn weak_dtype(w: Weak) -> DType {
    match w {
        Weak::Bool => DType::Bool,
        Weak::Int => DType::Int64,
        _ => DType::Float64,
    }
}

pub(crate) fn result_dtype(a: &Operand, b: &Operand) -> DType {
    match (a.weak, b.weak) {
        (Weak::Strong, Weak::Strong) => np_promote(a.dtype, b.dtype),
        (Weak::Strong, w) => weak_with(a.dtype, w),
        (w, Weak::Strong) => weak_with(b.dtype, w),
        (x, y) => np_promote(weak_dtype(x), weak_dtype(y)),
    }
}

/// Infer the dtype and shape of nested Python data (lists, tuples, numbers, numpy scalars,
/// arrays, tensors) and collect its values.
pub(crate) fn from_data(
    it: &mut Interpreter,
    v: &Value,
) -> PyResult<(Vec<f64>, Vec<usize>, DType)> {
    fn rec(
        it: &mut Interpreter,
        v: &Value,
        depth: usize,
        shape: &mut Vec<usize>,
        out: &mut Vec<f64>,
        dt: &mut Option<DType>,
    ) -> PyResult<()> {
        let leaf = |dt: &mut Option<DType>, d: DType| {
            *dt = Some(match *dt {
                None => d,
                Some(x) => np_promote(x, d),
            });
        };
        let check_leaf = |shape: &Vec<usize>| {
            if depth < shape.len() {
                Err(inhomogeneous(shape, depth))
            } else {
                Ok(())
            }
        };
        match v {
            Value::Bool(b) => {
                check_leaf(shape)?;
                leaf(dt, DType::Bool);
                out.push(*b as i64 as f64);
                return Ok(());
            }
            Value::Int(i) => {
                check_leaf(shape)?;
                leaf(dt, DType::Int64);
                out.push(*i as f64);
                return Ok(());
            }
            Value::BigInt(_) => {
                return Err(err(
                    ExcType::OverflowError,
                    "Python int too large to convert to C long",
                ));
            }
            Value::Float(f) => {
                check_leaf(shape)?;
                leaf(dt, DType::Float64);
                out.push(*f);
                return Ok(());
            }
            _ => {}
        }
        if let Some(s) = v.downcast::<NpScalar>() {
            check_leaf(shape)?;
            leaf(dt, s.dtype);
            out.push(s.v);
            return Ok(());
        }
        let sub: Option<NdArray> = if let Some(a) = v.downcast::<NdArray>() {
            Some(a.view(a.shape.clone(), a.strides.clone(), a.offset))
        } else if let Some(t) = crate::binding::tensor_of(v) {
            Some(tensor_array(it, &t)?)
        } else {
            None
        };
        if let Some(a) = sub {
            leaf(dt, a.dtype());
            if depth == shape.len() {
                shape.extend(a.shape.iter().copied());
            } else if shape[depth..] != a.shape[..] {
                return Err(err(
                    ExcType::ValueError,
                    "setting an array element with a sequence. The requested array has an inhomogeneous shape",
                ));
            }
            out.extend(a.values()?);
            return Ok(());
        }
        let items = match v {
            Value::List(_) | Value::Tuple(_) => v.as_vec().unwrap_or_default(),
            Value::Range(_) => it.iterate(v)?,
            _ => {
                return Err(err(
                    ExcType::TypeError,
                    format!(
                        "cudatutor's numpy cannot make an array from '{}'",
                        v.type_name()
                    ),
                ));
            }
        };
        if depth == shape.len() {
            shape.push(items.len());
            if shape.len() > 64 {
                return Err(err(
                    ExcType::ValueError,
                    "maximum supported dimension for an ndarray is currently 64",
                ));
            }
        } else if shape[depth] != items.len() {
            return Err(inhomogeneous(shape, depth));
        }
        for x in &items {
            rec(it, x, depth + 1, shape, out, dt)?;
        }
        Ok(())
    }
    let mut shape = Vec::new();
    let mut out = Vec::new();
    let mut dt = None;
    rec(it, v, 0, &mut shape, &mut out, &mut dt)?;
    Ok((out, shape, dt.unwrap_or(DType::Float64)))
}

/// numpy's error for nested data whose lengths disagree below the first `depth` dimensions
/// (a leaf where a sequence was found before, or a sequence of another length).
fn inhomogeneous(shape: &[usize], depth: usize) -> PyException {
    let detected: Vec<String> = shape[..depth].iter().map(|d| d.to_string()).collect();
    err(
        ExcType::ValueError,
        format!(
            "setting an array element with a sequence. The requested array has an inhomogeneous shape after {depth} dimensions. The detected shape was ({},) + inhomogeneous part.",
            detected.join(",")
        ),
    )
}

/// A tensor's values as a fresh array (`np.array(t)`: a copy; `t.__array__()`).
pub(crate) fn tensor_array(it: &mut Interpreter, t: &crate::engine::Tensor) -> PyResult<NdArray> {
    let _ = it;
    let rt = super::runtime();
    rt.numpy(t).map_err(crate::binding::py_err)?;
    let a = NdArray::from_tensor(&rt, t);
    a.copy_as(a.dtype())
}

pub(crate) fn operand(it: &mut Interpreter, v: &Value) -> PyResult<Operand> {
    // A Python scalar is weak (its kind, not its dtype, takes part in promotion).
    let scalar = match v {
        Value::Bool(b) => Some((*b as i64 as f64, DType::Bool, Weak::Bool)),
        Value::Int(i) => Some((*i as f64, DType::Int64, Weak::Int)),
        Value::Float(f) => Some((*f, DType::Float64, Weak::Float)),
        _ => v
            .downcast::<NpScalar>()
            .map(|s| (s.v, s.dtype, Weak::Strong)),
    };
    if let Some((val, dtype, weak)) = scalar {
        return Ok(Operand {
            vals: vec![val],
            shape: vec![],
            dtype,
            weak,
            scalar: true,
        });
    }
    if let Some(a) = v.downcast::<NdArray>() {
        return Ok(Operand {
            vals: a.values()?,
            shape: a.shape.clone(),
            dtype: a.dtype(),
            weak: Weak::Strong,
            scalar: false,
        });
    }
    let (vals, shape, dtype) = from_data(it, v)?;
    Ok(Operand {
        vals,
        shape,
        dtype,
        weak: Weak::Strong,
        scalar: false,
    })
}

/// Whether a value is something numpy arithmetic takes (not a tensor: numpy defers to
/// torch's reflected operators, as Tensor's `__array_priority__` makes it).
pub(crate) fn is_operand(v: &Value) -> bool {
    matches!(
        v,
        Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::List(_) | Value::Tuple(_)
    ) || v.downcast::<NpScalar>().is_some()
        || v.downcast::<NdArray>().is_some()
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum Bin {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    Max,
    Min,
    /// `==`, `<`, … (numpy.equal, numpy.less, …): 1.0 where it holds.
    Cmp(CmpOp),
    And,
    Or,
    Xor,
    Arctan2,
    Hypot,
}

impl Bin {
    fn is_cmp(self) -> bool {
        matches!(self, Bin::Cmp(_))
    }
}

fn py_floor_div(a: f64, b: f64) -> f64 {
    if b == 0.0 {
        return a / b;
    }
    let m = py_mod(a, b);
    ((a - m) / b).round()
}

fn py_mod(a: f64, b: f64) -> f64 {
    if b == 0.0 {
        return f64::NAN;
    }
    let m = a % b;
    if m != 0.0 && ((m < 0.0) != (b < 0.0)) {
        m + b
    } else {
        m
    }
}

fn apply_bin(op: Bin, a: f64, b: f64, int: bool) -> f64 {
    let t = |c: bool| if c { 1.0 } else { 0.0 };
    match op {
        Bin::Add => a + b,
        Bin::Sub => a - b,
        Bin::Mul => a * b,
        Bin::Div => a / b,
        Bin::FloorDiv => {
            if int {
                if b == 0.0 { 0.0 } else { (a / b).floor() }
            } else {
                py_floor_div(a, b)
            }
        }
        Bin::Mod => {
            if int && b == 0.0 {
                0.0
            } else {
                py_mod(a, b)
            }
        }
        Bin::Pow => a.powf(b),
        Bin::Max => {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else {
                a.max(b)
            }
        }
        Bin::Min => {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else {
                a.min(b)
            }
        }
        Bin::Cmp(op) => t(op.holds(a, b)),
        Bin::And => ((a as i64) & (b as i64)) as f64,
        Bin::Or => ((a as i64) | (b as i64)) as f64,
        Bin::Xor => ((a as i64) ^ (b as i64)) as f64,
        Bin::Arctan2 => a.atan2(b),
        Bin::Hypot => a.hypot(b),
    }
}

/// Values of an operand broadcast to `shape`.
fn spread(o: &Operand, shape: &[usize]) -> Vec<f64> {
    if o.shape == shape {
        return o.vals.clone();
    }
    let n = numel(shape);
    if o.vals.len() == 1 {
        return vec![o.vals[0]; n];
    }
    let k = o.shape.len();
    let nd = shape.len();
    let src = super::array::contiguous_strides(&o.shape);
    let mut strides = vec![0isize; nd];
    for (i, stride) in strides.iter_mut().enumerate() {
        if i + k >= nd {
            let j = i + k - nd;
            if o.shape[j] != 1 {
                *stride = src[j];
            }
        }
    }
    super::array::walk(shape, &strides)
        .into_iter()
        .map(|i| o.vals[i as usize])
        .collect()
}

/// The result of a binary ufunc: values, shape, dtype, and whether both were scalars.
pub(crate) struct Out {
    pub vals: Vec<f64>,
    pub shape: Vec<usize>,
    pub dtype: DType,
    pub scalar: bool,
}

impl Out {
    pub(crate) fn into_value(self, rt: &Rc<Runtime>) -> PyResult<Value> {
        if self.scalar {
            return Ok(super::array::np_value(self.dtype, self.vals[0]));
        }
        Ok(Value::native(NdArray::from_f64(
            rt, &self.vals, self.shape, self.dtype,
        )?))
    }
}

pub(crate) fn binary(op: Bin, a: &Operand, b: &Operand) -> PyResult<Out> {
    let shape = broadcast_shapes(&a.shape, &b.shape)?;
    let mut dt = result_dtype(a, b);
    if matches!(op, Bin::And | Bin::Or | Bin::Xor) && dt.category() == Category::Floating {
        return Err(err(
            ExcType::TypeError,
            format!(
                "ufunc 'bitwise_{}' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''",
                match op {
                    Bin::And => "and",
                    Bin::Or => "or",
                    _ => "xor",
                }
            ),
        ));
    }
    if matches!(op, Bin::Div | Bin::Arctan2 | Bin::Hypot) && dt.category() != Category::Floating {
        dt = DType::Float64;
    }
    if op == Bin::Sub && dt == DType::Bool {
        return Err(err(
            ExcType::TypeError,
            "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead.",
        ));
    }
    if op == Bin::Pow && dt.category() == Category::Integral && b.vals.iter().any(|&v| v < 0.0) {
        return Err(err(
            ExcType::ValueError,
            "Integers to negative integer powers are not allowed.",
        ));
    }
    let int = dt.category() != Category::Floating;
    // operands in the computation dtype (a Python float meeting float32 is rounded first)
    let va: Vec<f64> = spread(a, &shape)
        .into_iter()
        .map(|v| np_cast(dt, v))
        .collect();
    let vb: Vec<f64> = spread(b, &shape)
        .into_iter()
        .map(|v| np_cast(dt, v))
        .collect();
    let vals: Vec<f64> = va
        .iter()
        .zip(&vb)
        .map(|(&x, &y)| apply_bin(op, x, y, int))
        .collect();
    let out_dt = if op.is_cmp() { DType::Bool } else { dt };
    let vals = if out_dt == DType::Float32 || out_dt == DType::Float16 {
        vals.into_iter().map(|v| np_cast(out_dt, v)).collect()
    } else {
        vals
    };
    Ok(Out {
        vals,
        shape,
        dtype: out_dt,
        scalar: a.scalar && b.scalar,
    })
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum Un {
    Neg,
    Pos,
    Abs,
    Sign,
    Exp,
    Log,
    Log2,
    Log10,
    Log1p,
    Expm1,
    Sqrt,
    Square,
    Sin,
    Cos,
    Tan,
    Tanh,
    Arctan,
    Floor,
    Ceil,
    Rint,
    Trunc,
    IsNan,
    IsInf,
    IsFinite,
    Not,
    Invert,
}

pub(crate) fn unary(op: Un, a: &Operand) -> PyResult<Out> {
    let src = match a.weak {
        Weak::Strong => a.dtype,
        w => weak_dtype(w),
    };
    let float_out = matches!(
        op,
        Un::Exp
            | Un::Log
            | Un::Log2
            | Un::Log10
            | Un::Log1p
            | Un::Expm1
            | Un::Sqrt
            | Un::Sin
            | Un::Cos
            | Un::Tan
            | Un::Tanh
            | Un::Arctan
    );
    let dt = if matches!(op, Un::IsNan | Un::IsInf | Un::IsFinite | Un::Not) {
        DType::Bool
    } else if float_out && src.category() != Category::Floating {
        DType::Float64
    } else if src == DType::Bool && matches!(op, Un::Neg) {
        return Err(err(
            ExcType::TypeError,
            "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not function instead.",
        ));
    } else if src == DType::Bool && matches!(op, Un::Square | Un::Sign) {
        DType::Int8
    } else {
        src
    };
    let vals = a
        .vals
        .iter()
        .map(|&x| {
            let x = np_cast(src, x);
            let r = match op {
                Un::Neg => -x,
                Un::Pos => x,
                Un::Abs => x.abs(),
                Un::Sign => {
                    if x.is_nan() {
                        f64::NAN
                    } else if x > 0.0 {
                        1.0
                    } else if x < 0.0 {
                        -1.0
                    } else {
                        0.0
                    }
                }
                Un::Exp => x.exp(),
                Un::Log => x.ln(),
                Un::Log2 => x.log2(),
                Un::Log10 => x.log10(),
                Un::Log1p => x.ln_1p(),
                Un::Expm1 => x.exp_m1(),
                Un::Sqrt => x.sqrt(),
                Un::Square => x * x,
                Un::Sin => x.sin(),
                Un::Cos => x.cos(),
                Un::Tan => x.tan(),
                Un::Tanh => x.tanh(),
                Un::Arctan => x.atan(),
                Un::Floor => x.floor(),
                Un::Ceil => x.ceil(),
                Un::Rint => x.round_ties_even(),
                Un::Trunc => x.trunc(),
                Un::IsNan => x.is_nan() as i64 as f64,
                Un::IsInf => x.is_infinite() as i64 as f64,
                Un::IsFinite => x.is_finite() as i64 as f64,
                Un::Not => (x == 0.0) as i64 as f64,
                Un::Invert => {
                    if src == DType::Bool {
                        (x == 0.0) as i64 as f64
                    } else {
                        !(x as i64) as f64
                    }
                }
            };
            np_cast(dt, r)
        })
        .collect();
    Ok(Out {
        vals,
        shape: a.shape.clone(),
        dtype: dt,
        scalar: a.scalar,
    })
}

/// numpy's `pairwise_sum` (loops_utils.h.src), accumulating in `dt` (float32 sums round
/// every addition to float32).
pub(crate) fn pairwise(a: &[f64], dt: DType) -> f64 {
    let r = |v: f64| np_cast(dt, v);
    let n = a.len();
    if n < 8 {
        let mut res = -0.0f64;
        for &x in a {
            res = r(res + x);
        }
        res
    } else if n <= 128 {
        let mut acc = [0f64; 8];
        acc.copy_from_slice(&a[..8]);
        let mut i = 8;
        while i < n - (n % 8) {
            for j in 0..8 {
                acc[j] = r(acc[j] + a[i + j]);
            }
            i += 8;
        }
        let mut res =
            r(r(r(acc[0] + acc[1]) + r(acc[2] + acc[3]))
                + r(r(acc[4] + acc[5]) + r(acc[6] + acc[7])));
        while i < n {
            res = r(res + a[i]);
            i += 1;
        }
        res
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        r(pairwise(&a[..n2], dt) + pairwise(&a[n2..], dt))
    }
}

/// Normalise an `axis=` argument: None (all), or the sorted distinct axes.
pub(crate) fn axes_arg(
    it: &mut Interpreter,
    v: Option<&Value>,
    ndim: usize,
) -> PyResult<Option<Vec<usize>>> {
    let v = match v {
        None | Some(Value::None) => return Ok(None),
        Some(v) => v,
    };
    let items = match v {
        Value::Tuple(_) | Value::List(_) => v.as_vec().unwrap_or_default(),
        _ => vec![v.clone()],
    };
    let mut out = Vec::new();
    for x in &items {
        let a = it.index_int(x)?;
        let n = ndim as i64;
        if a < -n || a >= n {
            return Err(err(
                ExcType::AxisError,
                format!("axis {a} is out of bounds for array of dimension {ndim}"),
            ));
        }
        let a = if a < 0 { a + n } else { a } as usize;
        if out.contains(&a) {
            return Err(err(ExcType::ValueError, "duplicate value in 'axis'"));
        }
        out.push(a);
    }
    out.sort();
    Ok(Some(out))
}

/// Groups of values, one per output element, in numpy's iteration order for a reduction
/// over `axes`; returns (groups, output shape without keepdims, output shape with keepdims,
/// whether the reduced axes are the innermost ones).
pub(crate) fn groups(
    vals: &[f64],
    shape: &[usize],
    axes: &Option<Vec<usize>>,
) -> (Vec<Vec<f64>>, Vec<usize>, Vec<usize>, bool) {
    let nd = shape.len();
    let red: Vec<bool> = (0..nd)
        .map(|d| axes.as_ref().is_none_or(|a| a.contains(&d)))
        .collect();
    let out_shape: Vec<usize> = (0..nd).filter(|&d| !red[d]).map(|d| shape[d]).collect();
    let keep: Vec<usize> = (0..nd).map(|d| if red[d] { 1 } else { shape[d] }).collect();
    let inner = red.iter().rev().skip_while(|&&r| r).all(|&r| !r);
    let n_out = numel(&out_shape);
    let mut gs: Vec<Vec<f64>> = vec![Vec::new(); n_out];
    let strides = super::array::contiguous_strides(shape);
    let out_strides = super::array::contiguous_strides(&out_shape);
    // row-major walk: element index -> output index
    let n = vals.len();
    let mut idx = vec![0usize; nd];
    for (k, &v) in vals.iter().enumerate().take(n) {
        let _ = k;
        let mut o = 0usize;
        let mut j = 0;
        for d in 0..nd {
            if !red[d] {
                o += idx[d] * out_strides[j] as usize;
                j += 1;
            }
        }
        gs[o].push(v);
        crate::binding::row_major::step_index(&mut idx, shape);
    }
    let _ = strides;
    (gs, out_shape, keep, inner)
}

/// A float sum of one group as numpy computes it: pairwise when the reduction runs over
/// the innermost axes, else one addition after another.
pub(crate) fn sum_group(g: &[f64], dt: DType, inner: bool) -> f64 {
    if dt.category() == Category::Floating {
        if inner {
            np_cast(dt, 0.0 + pairwise(g, dt))
        } else {
            g.iter().fold(0.0, |s, &x| np_cast(dt, s + x))
        }
    } else {
        g.iter().sum()
    }
}

/// The accumulation dtype of `sum` (numpy's `add.reduce` default: small ints widen to int64).
pub(crate) fn sum_dtype(dt: DType) -> DType {
    match dt.category() {
        Category::Bool | Category::Integral => DType::Int64,
        Category::Floating => dt,
    }
}

/// The mean's dtype: float64 for integers and bools.
pub(crate) fn mean_dtype(dt: DType) -> DType {
    match dt.category() {
        Category::Floating => dt,
        _ => DType::Float64,
    }
}
