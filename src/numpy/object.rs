//! The script-facing behaviour of `ndarray` and numpy scalars: attributes, methods,
//! operators, indexing, printing.

use super::array::{NdArray, NpScalar, err, np_name, np_value, numel, py_value, walk};
use super::ops::{self, Bin, Un, operand};
use crate::engine::dtype::{Category, DType};
use crate::engine::numpy_print::{numpy_repr, numpy_str};
use crate::script::{
    BinOp, BinaryCall, CmpOp, ExcType, Interpreter, NativeCx, NativeObject, PyResult,
    UnaryOp as PyUnary, Value,
};

pub(crate) fn bin_of(op: BinOp) -> Option<Bin> {
    Some(match op {
        BinOp::Add => Bin::Add,
        BinOp::Sub => Bin::Sub,
        BinOp::Mul => Bin::Mul,
        BinOp::TrueDiv => Bin::Div,
        BinOp::FloorDiv => Bin::FloorDiv,
        BinOp::Mod => Bin::Mod,
        BinOp::Pow => Bin::Pow,
        BinOp::And => Bin::And,
        BinOp::Or => Bin::Or,
        BinOp::Xor => Bin::Xor,
        _ => return None,
    })
}

/// `a <op> b` for numpy operands (None when `other` is not one: a tensor answers instead).
fn arith(
    it: &mut Interpreter,
    this: &Value,
    op: Bin,
    other: &Value,
    reflected: bool,
) -> PyResult<Option<Value>> {
    if !ops::is_operand(other) {
        return Ok(None);
    }
    let a = operand(it, this)?;
    let b = operand(it, other)?;
    let out = if reflected {
        ops::binary(op, &b, &a)?
    } else {
        ops::binary(op, &a, &b)?
    };
    out.into_value(&super::runtime()).map(Some)
}

fn matmul_values(it: &mut Interpreter, a: &Value, b: &Value) -> PyResult<Value> {
    super::funcs::matmul(it, a, b)
}

// ---------------------------------------------------------------- scalars

/// Python's repr of a float with `digits` (shortest) and decimal exponent `exp`
/// (value = 0.d1d2d3... * 10^(exp+1), i.e. d1.d2d3 * 10^exp).
fn python_style(neg: bool, digits: &str, exp: i32) -> String {
    let sign = if neg { "-" } else { "" };
    let nd = digits.len() as i32;
    if (-4..16).contains(&exp) {
        if exp >= 0 {
            if nd > exp + 1 {
                format!(
                    "{sign}{}.{}",
                    &digits[..(exp + 1) as usize],
                    &digits[(exp + 1) as usize..]
                )
            } else {
                format!("{sign}{digits}{}.0", "0".repeat((exp + 1 - nd) as usize))
            }
        } else {
            format!("{sign}0.{}{digits}", "0".repeat((-exp - 1) as usize))
        }
    } else {
        let m = if nd > 1 {
            format!("{}.{}", &digits[..1], &digits[1..])
        } else {
            digits.to_string()
        };
        format!(
            "{sign}{m}e{}{:02}",
            if exp < 0 { '-' } else { '+' },
            exp.abs()
        )
    }
}

/// `str(np.float32(x))`: the shortest digits that read back as the same float32.
pub(crate) fn float_str(dtype: DType, v: f64) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let s = match dtype {
        DType::Float32 => format!("{:e}", v as f32),
        DType::Float16 => format!("{:e}", half::f16::from_f64(v)),
        _ => return crate::script::strfmt::float_repr(v),
    };
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let neg = m.starts_with('-');
    let digits: String = m.chars().filter(|c| c.is_ascii_digit()).collect();
    let exp: i32 = e.parse().unwrap_or(0);
    python_style(neg, &digits, exp)
}

pub(crate) fn scalar_str(dtype: DType, v: f64) -> String {
    match dtype.category() {
        Category::Bool => if v != 0.0 { "True" } else { "False" }.into(),
        Category::Integral => format!("{}", v as i64),
        Category::Floating => float_str(dtype, v),
    }
}

pub(crate) fn scalar_repr(dtype: DType, v: f64) -> String {
    match dtype.category() {
        Category::Bool => if v != 0.0 { "np.True_" } else { "np.False_" }.into(),
        _ => format!("np.{}({})", np_name(dtype), scalar_str(dtype, v)),
    }
}

impl NativeObject for NpScalar {
    fn type_name(&self) -> &str {
        np_name(self.dtype)
    }
    fn getattr(&self, NativeCx { this, .. }: NativeCx<'_>, name: &str) -> PyResult<Option<Value>> {
        let s = *self;
        Ok(match name {
            "dtype" => Some(Value::native(super::NpDType(s.dtype))),
            "shape" => Some(Value::tuple(vec![])),
            "ndim" => Some(Value::Int(0)),
            "size" => Some(Value::Int(1)),
            "real" => Some(Value::Native(this.clone())),
            "item" | "tolist" => Some(Value::native_fn(name, move |_, _| {
                Ok(py_value(s.dtype, s.v))
            })),
            "astype" => Some(Value::native_fn("astype", move |_, args| {
                let a = args.bind("astype", &["dtype"], 1)?;
                let dt = super::dtype_of(a[0].as_ref().unwrap())?;
                Ok(np_value(dt, s.v))
            })),
            "round" => Some(Value::native_fn("round", move |it, args| {
                let a = args.bind("round", &["decimals"], 0)?;
                let d = match &a[0] {
                    Some(v) => it.index_int(v)?,
                    None => 0,
                };
                super::funcs::round_values(&Value::native(s), d)
            })),
            "is_integer" => Some(Value::native_fn("is_integer", move |_, _| {
                Ok(Value::Bool(s.v.fract() == 0.0))
            })),
            "__array_priority__" => Some(Value::Float(-1000000.0)),
            _ => None,
        })
    }
    fn str(&self, _: NativeCx<'_>) -> PyResult<Option<String>> {
        Ok(Some(scalar_str(self.dtype, self.v)))
    }
    fn plain_repr(&self) -> Option<String> {
        Some(scalar_repr(self.dtype, self.v))
    }
    fn format(&self, NativeCx { it, .. }: NativeCx<'_>, spec: &str) -> PyResult<Option<String>> {
        if spec.is_empty() {
            return Ok(Some(scalar_str(self.dtype, self.v)));
        }
        let v = py_value(self.dtype, self.v);
        crate::script::strfmt::format_spec(it, &v, spec).map(Some)
    }
    fn binary_op(&self, cx: NativeCx<'_>, call: BinaryCall<'_>) -> PyResult<Option<Value>> {
        if call.op == BinOp::MatMul {
            return Ok(None);
        }
        let Some(b) = bin_of(call.op) else {
            return Ok(None);
        };
        let me = Value::Native(cx.this.clone());
        arith(cx.it, &me, b, call.other, call.reflected)
    }
    fn unary_op(&self, cx: NativeCx<'_>, op: PyUnary) -> PyResult<Option<Value>> {
        unary_value(cx, op).map(Some)
    }
    fn compare(&self, cx: NativeCx<'_>, op: CmpOp, other: &Value) -> PyResult<Option<Value>> {
        compare_values(cx, op, other)
    }
    fn bool(&self, _: NativeCx<'_>) -> PyResult<Option<bool>> {
        Ok(Some(self.v != 0.0))
    }
    fn hash(&self, NativeCx { it, .. }: NativeCx<'_>) -> PyResult<Option<i64>> {
        let k = it.hkey(&py_value(self.dtype, self.v))?;
        Ok(Some(k.py_hash()))
    }
    fn to_int(&self, _: NativeCx<'_>) -> PyResult<Option<i64>> {
        Ok(match self.dtype.category() {
            Category::Floating => None,
            _ => Some(self.v as i64),
        })
    }
    fn to_float(&self, _: NativeCx<'_>) -> PyResult<Option<f64>> {
        Ok(Some(self.v))
    }
}

/// `-x`, `+x`, `~x` for a numpy scalar or array alike: numpy's elementwise unary on `cx.this`.
fn unary_value(cx: NativeCx<'_>, op: PyUnary) -> PyResult<Value> {
    let a = operand(cx.it, &Value::Native(cx.this.clone()))?;
    let u = match op {
        PyUnary::Neg => Un::Neg,
        PyUnary::Pos => Un::Pos,
        PyUnary::Invert => Un::Invert,
    };
    ops::unary(u, &a)?.into_value(&super::runtime())
}

/// `x <op> other` for a numpy scalar or array alike: numpy's elementwise comparison.
fn compare_values(cx: NativeCx<'_>, op: CmpOp, other: &Value) -> PyResult<Option<Value>> {
    arith(
        cx.it,
        &Value::Native(cx.this.clone()),
        Bin::Cmp(op),
        other,
        false,
    )
}

// ---------------------------------------------------------------- indexing

enum Idx {
    Int(i64),
    Slice(Option<i64>, Option<i64>, Option<i64>),
    NewAxis,
    Ellipsis,
    /// integer index array (values, shape)
    Arr(Vec<i64>, Vec<usize>),
    /// boolean mask (values, shape)
    Mask(Vec<bool>, Vec<usize>),
}

fn parse_key(it: &mut Interpreter, key: &Value) -> PyResult<Vec<Idx>> {
    let mut out = Vec::new();
    for p in &key.subscript_items() {
        out.push(match p {
            Value::None => Idx::NewAxis,
            Value::Ellipsis => Idx::Ellipsis,
            Value::Int(i) => Idx::Int(*i),
            Value::Bool(b) => Idx::Mask(vec![*b], vec![]),
            Value::Slice(s) => {
                let [start, stop, step] = it.slice_ints(s)?;
                Idx::Slice(start, stop, step)
            }
            v => {
                if let Some(s) = v.downcast::<NpScalar>()
                    && s.dtype.category() == Category::Integral
                {
                    Idx::Int(s.v as i64)
                } else if matches!(v, Value::List(_) | Value::Tuple(_) | Value::Native(_)) {
                    let o = operand(it, v)?;
                    match o.dtype.category() {
                        Category::Bool => {
                            Idx::Mask(o.vals.iter().map(|&x| x != 0.0).collect(), o.shape)
                        }
                        Category::Integral => {
                            Idx::Arr(o.vals.iter().map(|&x| x as i64).collect(), o.shape)
                        }
                        Category::Floating if o.vals.is_empty() => Idx::Arr(vec![], o.shape),
                        Category::Floating => {
                            return Err(err(
                                ExcType::IndexError,
                                "arrays used as indices must be of integer (or boolean) type",
                            ));
                        }
                    }
                } else {
                    Idx::Int(it.index_int(v).map_err(|_| {
                        err(
                            ExcType::IndexError,
                            "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices",
                        )
                    })?)
                }
            }
        });
    }
    Ok(out)
}

/// Where indexing lands: either a view, or gathered storage offsets with a result shape.
enum Target {
    View(NdArray, bool),
    Gather(Vec<usize>, Vec<usize>),
}

fn slice_range(n: usize, s: Option<i64>, e: Option<i64>, step: Option<i64>) -> (i64, usize, i64) {
    let n = n as i64;
    let step = step.unwrap_or(1);
    let clamp = |v: i64, lo: i64, hi: i64| v.max(lo).min(hi);
    let (start, stop) = if step > 0 {
        let s = s.map_or(0, |v| {
            if v < 0 {
                clamp(v + n, 0, n)
            } else {
                clamp(v, 0, n)
            }
        });
        let e = e.map_or(n, |v| {
            if v < 0 {
                clamp(v + n, 0, n)
            } else {
                clamp(v, 0, n)
            }
        });
        (s, e)
    } else {
        let s = s.map_or(n - 1, |v| {
            if v < 0 {
                clamp(v + n, -1, n - 1)
            } else {
                clamp(v, -1, n - 1)
            }
        });
        let e = e.map_or(-1, |v| {
            if v < 0 {
                clamp(v + n, -1, n)
            } else {
                clamp(v, -1, n)
            }
        });
        (s, e)
    };
    let len = if step > 0 {
        if stop > start {
            (stop - start + step - 1) / step
        } else {
            0
        }
    } else if start > stop {
        (start - stop + (-step) - 1) / (-step)
    } else {
        0
    };
    (start, len as usize, step)
}

fn locate(it: &mut Interpreter, a: &NdArray, key: &Value) -> PyResult<Target> {
    let items = parse_key(it, key)?;
    let consumed: usize = items
        .iter()
        .map(|i| match i {
            Idx::Int(_) | Idx::Slice(..) | Idx::Arr(..) => 1,
            Idx::Mask(_, s) => s.len(),
            _ => 0,
        })
        .sum();
    let nd = a.ndim();
    if consumed > nd {
        return Err(err(
            ExcType::IndexError,
            format!(
                "too many indices for array: array is {nd}-dimensional, but {consumed} were indexed"
            ),
        ));
    }
    if items.iter().filter(|i| matches!(i, Idx::Ellipsis)).count() > 1 {
        return Err(err(
            ExcType::IndexError,
            "an index can only have a single ellipsis ('...')",
        ));
    }
    let mut full = Vec::new();
    let mut saw_ellipsis = false;
    for i in items {
        match i {
            Idx::Ellipsis => {
                saw_ellipsis = true;
                for _ in 0..nd - consumed {
                    full.push(Idx::Slice(None, None, None));
                }
            }
            Idx::Mask(m, s) if s.is_empty() => {
                // a bare True/False: a new axis of length 1 or 0
                full.push(Idx::Mask(m, s));
            }
            Idx::Mask(m, s) => {
                // expand into one integer array per mask dim (np.nonzero)
                let strides = super::array::contiguous_strides(&s);
                let mut cols: Vec<Vec<i64>> = vec![Vec::new(); s.len()];
                for (k, &b) in m.iter().enumerate() {
                    if b {
                        for d in 0..s.len() {
                            cols[d].push((k as isize / strides[d]) as i64 % s[d] as i64);
                        }
                    }
                }
                for c in cols {
                    let n = c.len();
                    full.push(Idx::Arr(c, vec![n]));
                }
            }
            other => full.push(other),
        }
    }
    let _ = saw_ellipsis;
    let mut shape = Vec::new();
    let mut strides = Vec::new();
    let mut offset = a.offset as isize;
    let mut axis = 0usize;
    // advanced indices: (position in the view's dims, stride, values, shape)
    let mut advs: Vec<(usize, isize, Vec<i64>, Vec<usize>)> = Vec::new();
    let mut all_int = true;
    let mut mask_scalar: Option<bool> = None;
    for i in full {
        match i {
            Idx::Int(k) => {
                let n = a.shape[axis] as i64;
                let j = if k < 0 { k + n } else { k };
                if j < 0 || j >= n {
                    return Err(err(
                        ExcType::IndexError,
                        format!("index {k} is out of bounds for axis {axis} with size {n}"),
                    ));
                }
                offset += j as isize * a.strides[axis];
                axis += 1;
            }
            Idx::Slice(s, e, st) => {
                all_int = false;
                let (start, len, step) = slice_range(a.shape[axis], s, e, st);
                if len > 0 {
                    offset += start as isize * a.strides[axis];
                }
                shape.push(len);
                strides.push(a.strides[axis] * step as isize);
                axis += 1;
            }
            Idx::NewAxis => {
                all_int = false;
                shape.push(1);
                strides.push(0);
            }
            Idx::Mask(m, _) => {
                all_int = false;
                mask_scalar = Some(m[0]);
                shape.push(if m[0] { 1 } else { 0 });
                strides.push(0);
            }
            Idx::Arr(vals, s) => {
                all_int = false;
                let n = a.shape[axis] as i64;
                let mut fixed = Vec::with_capacity(vals.len());
                for &k in &vals {
                    let j = if k < 0 { k + n } else { k };
                    if j < 0 || j >= n {
                        return Err(err(
                            ExcType::IndexError,
                            format!("index {k} is out of bounds for axis {axis} with size {n}"),
                        ));
                    }
                    fixed.push(j);
                }
                advs.push((shape.len(), a.strides[axis], fixed, s));
                shape.push(usize::MAX);
                strides.push(0);
                axis += 1;
            }
            Idx::Ellipsis => {}
        }
    }
    let _ = mask_scalar;
    while axis < nd {
        shape.push(a.shape[axis]);
        strides.push(a.strides[axis]);
        axis += 1;
    }
    if advs.is_empty() {
        let v = a.view(shape, strides, offset as usize);
        return Ok(Target::View(v, all_int));
    }
    // broadcast the index arrays
    let mut b: Vec<usize> = vec![];
    for (_, _, _, s) in &advs {
        b = super::array::broadcast_shapes(&b, s).map_err(|_| {
            let shapes: Vec<String> = advs
                .iter()
                .map(|(_, _, _, s)| super::array::shape_str(s))
                .collect();
            err(
                ExcType::IndexError,
                format!(
                    "shape mismatch: indexing arrays could not be broadcast together with shapes {} ",
                    shapes.join(" ")
                ),
            )
        })?;
    }
    let nb = numel(&b);
    let mut adv_off = vec![0isize; nb];
    for (_, st, vals, s) in &advs {
        let o = ops::Operand {
            vals: vals.iter().map(|&v| v as f64).collect(),
            shape: s.clone(),
            dtype: DType::Int64,
            weak: ops::Weak::Strong,
            scalar: false,
        };
        let spread = ops::binary(
            Bin::Add,
            &o,
            &ops::Operand {
                vals: vec![0.0; nb],
                shape: b.clone(),
                dtype: DType::Int64,
                weak: ops::Weak::Strong,
                scalar: false,
            },
        )?;
        for (k, v) in spread.vals.iter().enumerate() {
            adv_off[k] += *v as isize * st;
        }
    }
    let positions: Vec<usize> = advs.iter().map(|a| a.0).collect();
    let consecutive = positions.windows(2).all(|w| w[1] == w[0] + 1);
    let basic: Vec<(usize, usize, isize)> = shape
        .iter()
        .zip(&strides)
        .enumerate()
        .filter(|(i, _)| !positions.contains(i))
        .map(|(i, (&n, &s))| (i, n, s))
        .collect();
    let first = positions[0];
    let (before, after): (Vec<_>, Vec<_>) = if consecutive {
        basic.iter().partition(|(i, _, _)| *i < first)
    } else {
        (vec![], basic.iter().collect())
    };
    let bs: Vec<usize> = before.iter().map(|x| x.1).collect();
    let bst: Vec<isize> = before.iter().map(|x| x.2).collect();
    let as_: Vec<usize> = after.iter().map(|x| x.1).collect();
    let ast: Vec<isize> = after.iter().map(|x| x.2).collect();
    let w1 = walk(&bs, &bst);
    let w3 = walk(&as_, &ast);
    let mut offs = Vec::with_capacity(w1.len() * nb * w3.len());
    for &o1 in &w1 {
        for &o2 in &adv_off {
            for &o3 in &w3 {
                offs.push((offset + o1 + o2 + o3) as usize);
            }
        }
    }
    let mut out_shape = bs;
    out_shape.extend(b);
    out_shape.extend(as_);
    Ok(Target::Gather(offs, out_shape))
}

pub(crate) fn getitem(it: &mut Interpreter, a: &NdArray, key: &Value) -> PyResult<Value> {
    match locate(it, a, key)? {
        Target::View(v, all_int) => {
            if all_int && v.shape.is_empty() {
                let vals = v.values()?;
                Ok(np_value(v.dtype(), vals[0]))
            } else {
                Ok(Value::native(v))
            }
        }
        Target::Gather(offs, shape) => {
            let all = a.view(vec![a.storage.numel], vec![1], 0);
            let vals = all.values()?;
            let picked: Vec<f64> = offs.iter().map(|&o| vals[o]).collect();
            Ok(Value::native(NdArray::from_f64(
                &a.rt,
                &picked,
                shape,
                a.dtype(),
            )?))
        }
    }
}

pub(crate) fn setitem(it: &mut Interpreter, a: &NdArray, key: &Value, v: &Value) -> PyResult<()> {
    let (offs, shape) = match locate(it, a, key)? {
        Target::View(v, _) => (v.offsets(), v.shape.clone()),
        Target::Gather(o, s) => (o, s),
    };
    let o = operand(it, v)?;
    if o.dtype.category() == Category::Floating
        && a.dtype().category() != Category::Floating
        && o.vals.iter().any(|x| x.is_nan())
    {
        return Err(err(
            ExcType::ValueError,
            "cannot convert float NaN to integer",
        ));
    }
    // numpy raises the same error whether the shapes do not broadcast at all or broadcast to
    // something larger. Spread as Float64: the values themselves, not re-rounded by the add.
    let vals = spread_into(
        &o.vals,
        &o.shape,
        DType::Float64,
        &shape,
        |value, place, _| {
            format!("could not broadcast input array from shape {value} into shape {place}")
        },
    )?;
    a.write(&offs, &vals)
}

/// `vals` (of `shape` and `dtype`) repeated out to fill a place of shape `place`, as numpy
/// writes a smaller value into a larger place (`a[:] = 1`, `a += b`, `out=a`). A value may fill
/// its place but never grow it: otherwise numpy's ValueError, worded per operation by
/// `misfit(value shape, place shape, broadcast shape)` (the broadcast shape is the value's own
/// where the two do not broadcast at all).
fn spread_into(
    vals: &[f64],
    shape: &[usize],
    dtype: DType,
    place: &[usize],
    misfit: impl FnOnce(&str, &str, &str) -> String,
) -> PyResult<Vec<f64>> {
    let broadcast = super::array::broadcast_shapes(shape, place);
    if !matches!(&broadcast, Ok(b) if b == place) {
        let shape_str = super::array::shape_str;
        let grown = broadcast.as_deref().unwrap_or(shape);
        let message = misfit(&shape_str(shape), &shape_str(place), &shape_str(grown));
        return Err(err(ExcType::ValueError, message));
    }
    let operand = |vals: Vec<f64>, shape: &[usize], dtype| ops::Operand {
        vals,
        shape: shape.to_vec(),
        dtype,
        weak: ops::Weak::Strong,
        scalar: false,
    };
    // adding false to every element: numpy's broadcast does the repeating
    let mut zeros = Vec::new();
    zeros
        .try_reserve_exact(numel(place))
        .map_err(|_| err(ExcType::MemoryError, "the array does not fit in memory"))?;
    zeros.resize(numel(place), 0.0);
    let value = operand(vals.to_vec(), shape, dtype);
    let spread = ops::binary(Bin::Add, &value, &operand(zeros, place, DType::Bool))?;
    Ok(spread.vals)
}

// ---------------------------------------------------------------- the array object

impl NativeObject for NdArray {
    fn type_name(&self) -> &str {
        "ndarray"
    }
    fn getattr(&self, NativeCx { this, it }: NativeCx<'_>, name: &str) -> PyResult<Option<Value>> {
        let shape_t = || Value::tuple(self.shape.iter().map(|&d| Value::Int(d as i64)).collect());
        Ok(Some(match name {
            "shape" => shape_t(),
            "ndim" => Value::Int(self.ndim() as i64),
            "size" => Value::Int(self.size() as i64),
            "dtype" => Value::native(super::NpDType(self.dtype())),
            "itemsize" => Value::Int(self.dtype().element_size() as i64),
            "nbytes" => Value::Int((self.size() * self.dtype().element_size()) as i64),
            "strides" => Value::tuple(
                self.strides
                    .iter()
                    .map(|&s| Value::Int(s as i64 * self.dtype().element_size() as i64))
                    .collect(),
            ),
            "T" => Value::native(self.transpose(None)),
            "flags" => return Ok(None),
            _ => {
                let me = Value::Native(this.clone());
                return super::funcs::method(it, &me, name);
            }
        }))
    }
    fn str(&self, _: NativeCx<'_>) -> PyResult<Option<String>> {
        if self.shape.is_empty() {
            let v = self.values()?;
            return Ok(Some(scalar_str(self.dtype(), v[0])));
        }
        Ok(Some(numpy_str(&self.values()?, &self.shape, self.dtype())))
    }
    fn repr(&self, _: NativeCx<'_>) -> PyResult<Option<String>> {
        Ok(Some(numpy_repr(&self.values()?, &self.shape, self.dtype())))
    }
    fn format(&self, NativeCx { this, it }: NativeCx<'_>, spec: &str) -> PyResult<Option<String>> {
        if spec.is_empty() {
            return self.str(NativeCx::new(this, it));
        }
        if self.shape.is_empty() {
            let v = self.values()?;
            return crate::script::strfmt::format_spec(it, &py_value(self.dtype(), v[0]), spec)
                .map(Some);
        }
        Err(err(
            ExcType::TypeError,
            "unsupported format string passed to numpy.ndarray.__format__",
        ))
    }
    fn len(&self, _: NativeCx<'_>) -> PyResult<Option<usize>> {
        match self.shape.first() {
            Some(n) => Ok(Some(*n)),
            None => Err(err(ExcType::TypeError, "len() of unsized object")),
        }
    }
    fn iter(&self, NativeCx { it, .. }: NativeCx<'_>) -> PyResult<Option<Value>> {
        let Some(&n) = self.shape.first() else {
            return Err(err(ExcType::TypeError, "iteration over a 0-d array"));
        };
        let mut items = Vec::with_capacity(n);
        for i in 0..n {
            items.push(getitem(it, self, &Value::Int(i as i64))?);
        }
        Ok(Some(Value::iter_from_vec(items)))
    }
    fn getitem(&self, NativeCx { it, .. }: NativeCx<'_>, key: &Value) -> PyResult<Option<Value>> {
        getitem(it, self, key).map(Some)
    }
    fn setitem(&self, NativeCx { it, .. }: NativeCx<'_>, key: &Value, v: Value) -> PyResult<bool> {
        setitem(it, self, key, &v)?;
        Ok(true)
    }
    fn binary_op(&self, cx: NativeCx<'_>, call: BinaryCall<'_>) -> PyResult<Option<Value>> {
        let BinaryCall {
            op,
            other,
            reflected,
        } = call;
        let me = Value::Native(cx.this.clone());
        if !reflected && crate::binding::tensor_of(other).is_some() {
            // numpy 2.4 with PyTorch 2.15: `ndarray <op> tensor` fails (tensor <op> ndarray works)
            return Err(err(
                ExcType::TypeError,
                if op == BinOp::Add {
                    "Concatenation operation is not implemented for NumPy arrays, use np.concatenate() instead. Please do not rely on this error; it may not be given on all Python implementations.".to_string()
                } else {
                    format!(
                        "unsupported operand type(s) for {}: 'numpy.ndarray' and 'Tensor'",
                        op.symbol()
                    )
                },
            ));
        }
        if op == BinOp::MatMul {
            if !ops::is_operand(other) {
                return Ok(None);
            }
            let (a, b) = call.in_order(&me, other);
            return matmul_values(cx.it, a, b).map(Some);
        }
        let Some(b) = bin_of(op) else { return Ok(None) };
        arith(cx.it, &me, b, other, reflected)
    }
    fn inplace_op(&self, cx: NativeCx<'_>, op: BinOp, other: &Value) -> PyResult<Option<Value>> {
        let me = Value::Native(cx.this.clone());
        let Some(b) = bin_of(op) else { return Ok(None) };
        if !ops::is_operand(other) {
            return Ok(None);
        }
        let x = operand(cx.it, &me)?;
        let y = operand(cx.it, other)?;
        let out = ops::binary(b, &x, &y)?;
        store_into(self, &out, op.dunder().trim_matches('_'))?;
        Ok(Some(me))
    }
    fn unary_op(&self, cx: NativeCx<'_>, op: PyUnary) -> PyResult<Option<Value>> {
        unary_value(cx, op).map(Some)
    }
    fn compare(&self, cx: NativeCx<'_>, op: CmpOp, other: &Value) -> PyResult<Option<Value>> {
        compare_values(cx, op, other)
    }
    fn bool(&self, _: NativeCx<'_>) -> PyResult<Option<bool>> {
        if self.size() != 1 {
            return Err(err(
                ExcType::ValueError,
                "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()",
            ));
        }
        Ok(Some(self.values()?[0] != 0.0))
    }
    fn to_int(&self, _: NativeCx<'_>) -> PyResult<Option<i64>> {
        if self.size() != 1 || self.dtype().category() == Category::Floating {
            return Ok(None);
        }
        Ok(Some(self.values()?[0] as i64))
    }
    fn to_float(&self, _: NativeCx<'_>) -> PyResult<Option<f64>> {
        if self.size() != 1 {
            return Err(err(
                ExcType::TypeError,
                "only length-1 arrays can be converted to Python scalars",
            ));
        }
        Ok(Some(self.values()?[0]))
    }
    fn contains(&self, _: NativeCx<'_>, v: &Value) -> PyResult<Option<bool>> {
        let x = v.as_float();
        Ok(Some(x.is_some_and(|x| {
            self.values().unwrap_or_default().contains(&x)
        })))
    }
}

/// Write a ufunc's result into `a` (`a += b`, `out=a`), with numpy's same-kind casting check.
pub(crate) fn store_into(a: &NdArray, out: &ops::Out, ufunc: &str) -> PyResult<()> {
    let (src, dst) = (out.dtype.category(), a.dtype().category());
    if src > dst {
        let name = match ufunc {
            "iadd" => "add",
            "isub" => "subtract",
            "imul" => "multiply",
            "itruediv" => "divide",
            "ifloordiv" => "floor_divide",
            "ipow" => "power",
            "imod" => "remainder",
            other => other,
        };
        return Err(err(
            ExcType::UFuncTypeError,
            format!(
                "Cannot cast ufunc '{name}' output from dtype('{}') to dtype('{}') with casting rule 'same_kind'",
                np_name(out.dtype),
                np_name(a.dtype())
            ),
        ));
    }
    // shapes that do not broadcast at all: numpy's "operands could not be broadcast" error
    super::array::broadcast_shapes(&out.shape, &a.shape)?;
    let vals = spread_into(
        &out.vals,
        &out.shape,
        out.dtype,
        &a.shape,
        |_, place, grown| {
            format!(
                "non-broadcastable output operand with shape {place} doesn't match the broadcast shape {grown}"
            )
        },
    )?;
    a.write(&a.offsets(), &vals)
}
