//! Operators, truth, equality, hashing, repr/str, subscripts, `in`, `len`, `with`.

use std::rc::Rc;

use num_bigint::BigInt;

use super::super::bigint;
use super::super::errors::{Payload, PyException, PyResult};
use super::super::ir::CmpKind;
use super::super::native::{Args, BinOp, BinaryCall, CmpOp, NativeCx, UnaryOp};
use super::super::strfmt;
use super::super::value::{ClassKind, HKey, Value};
use super::Interpreter;
use super::builtin_subclass;
use super::polled::SlicePositions;
use crate::script::ExcType;

/// Sizes past which strings and lists raise MemoryError instead of exhausting the machine
/// (`s += s` in a loop doubles faster than the step limit can stop it).
pub(crate) const MAX_STR: usize = 64 << 20;
pub(crate) const MAX_ITEMS: usize = 10_000_000;

/// CPython's MemoryError (no message).
pub(crate) fn memory_error() -> PyException {
    PyException::new(ExcType::MemoryError, "")
}

/// MemoryError unless the run's memory budget (crate::budget: tensors, interpreter objects
/// and temporaries together, under RLIMIT_AS and the cgroup limit) has room for `n` more `T`s.
#[inline]
pub(crate) fn budget_for<T>(n: usize) -> PyResult<()> {
    let bytes = (n as u64).saturating_mul(std::mem::size_of::<T>() as u64);
    if crate::budget::can_allocate(bytes) {
        Ok(())
    } else {
        Err(memory_error())
    }
}

/// Before a key is added to `d`: a dict's storage doubles when its size reaches a power of
/// two, and that doubling must fit the budget (checked from 1024 entries up).
#[inline]
pub(crate) fn dict_grow_check(d: &super::super::value::Dict) -> PyResult<()> {
    let n = d.len();
    if n >= 1024 && n.is_power_of_two() {
        // An entry (key, value, hash key) plus its index slot, for twice as many entries.
        budget_for::<(HKey, Value, Value, usize)>(2 * n)?;
    }
    Ok(())
}

/// A copy of a dict's items (a module's namespace, a mapping being unpacked or printed), so that
/// what runs while they are walked may change the dict; MemoryError when the allocator refuses
/// the copy.
pub(crate) fn dict_items(
    d: &std::cell::RefCell<super::super::value::Dict>,
) -> PyResult<Vec<(Value, Value)>> {
    let d = d.borrow();
    let mut items = Vec::new();
    items
        .try_reserve_exact(d.len())
        .map_err(|_| memory_error())?;
    items.extend(d.iter().map(|(k, v)| (k.clone(), v.clone())));
    Ok(items)
}

/// Before `v` grows by `extra`: when that reallocates, the new buffer (at least double, as
/// Vec grows) must fit the budget.
#[inline]
pub(crate) fn grow_check<T>(v: &[T], capacity: usize, extra: usize) -> PyResult<()> {
    let need = v.len().saturating_add(extra);
    if need <= capacity {
        return Ok(());
    }
    budget_for::<T>(need.max(capacity.saturating_mul(2)))
}

/// An i64 operation whose result does not fit i64: redo it with big ints.
#[cold]
#[inline(never)]
fn big_fallback(op: BinOp, a: i64, b: i64) -> PyResult<Value> {
    bigint::int_op(op, &BigInt::from(a), &BigInt::from(b))
}

/// An int or float operand as f64 for mixed arithmetic (`10**400 * 1.0` overflows as in CPython).
fn num_f64(v: &Value) -> PyResult<f64> {
    match v {
        Value::BigInt(b) => bigint::to_f64(b),
        _ => Ok(v.as_float().unwrap_or(0.0)),
    }
}

/// CPython names the in-place operator when neither side supports it (`for +=:`, `for **=:`).
fn inplace_message(mut e: PyException, op: BinOp) -> PyException {
    if let Payload::Lazy { kind, message } = &mut e.0.payload
        && *kind == ExcType::TypeError
        && let Some(rest) = message.strip_prefix("unsupported operand type(s) for ")
        && let Some((_, operands)) = rest.split_once(": ")
    {
        *message = format!(
            "unsupported operand type(s) for {}=: {operands}",
            op.symbol().split(' ').next().unwrap_or("")
        );
    }
    e
}

fn unsupported(op: BinOp, a: &Value, b: &Value) -> PyException {
    PyException::new(
        ExcType::TypeError,
        format!(
            "unsupported operand type(s) for {}: '{}' and '{}'",
            op.symbol(),
            a.type_name(),
            b.type_name()
        ),
    )
}

pub(crate) fn int_op(op: BinOp, a: i64, b: i64) -> PyResult<Value> {
    Ok(match op {
        BinOp::Add => match a.checked_add(b) {
            Some(r) => Value::Int(r),
            None => return big_fallback(op, a, b),
        },
        BinOp::Sub => match a.checked_sub(b) {
            Some(r) => Value::Int(r),
            None => return big_fallback(op, a, b),
        },
        BinOp::Mul => match a.checked_mul(b) {
            Some(r) => Value::Int(r),
            None => return big_fallback(op, a, b),
        },
        BinOp::TrueDiv => Value::Float(bigint::i64_true_div(a, b)?),
        BinOp::FloorDiv => {
            if b == 0 {
                return Err(PyException::new(
                    ExcType::ZeroDivisionError,
                    "integer division or modulo by zero",
                ));
            }
            let Some(q) = a.checked_div(b) else {
                return big_fallback(op, a, b);
            };
            let r = a.wrapping_rem(b);
            Value::Int(if r != 0 && ((r < 0) != (b < 0)) {
                q - 1
            } else {
                q
            })
        }
        BinOp::Mod => {
            if b == 0 {
                return Err(PyException::new(
                    ExcType::ZeroDivisionError,
                    "integer modulo by zero",
                ));
            }
            let r = a.checked_rem(b).unwrap_or(0);
            Value::Int(if r != 0 && ((r < 0) != (b < 0)) {
                r + b
            } else {
                r
            })
        }
        BinOp::Pow => {
            if b < 0 {
                if a == 0 {
                    return Err(PyException::new(
                        ExcType::ZeroDivisionError,
                        "0.0 cannot be raised to a negative power",
                    ));
                }
                Value::Float((a as f64).powf(b as f64))
            } else {
                match u32::try_from(b).ok().and_then(|e| a.checked_pow(e)) {
                    Some(r) => Value::Int(r),
                    None => return big_fallback(op, a, b),
                }
            }
        }
        BinOp::LShift => {
            if b < 0 {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "negative shift count",
                ));
            }
            if a == 0 {
                return Ok(Value::Int(0));
            }
            if b >= 63 {
                return big_fallback(op, a, b);
            }
            let r = a << b;
            if r >> b != a {
                return big_fallback(op, a, b);
            }
            Value::Int(r)
        }
        BinOp::RShift => {
            if b < 0 {
                return Err(PyException::new(
                    ExcType::ValueError,
                    "negative shift count",
                ));
            }
            Value::Int(a >> b.min(63))
        }
        BinOp::And => Value::Int(a & b),
        BinOp::Or => Value::Int(a | b),
        BinOp::Xor => Value::Int(a ^ b),
        BinOp::MatMul => {
            return Err(PyException::new(
                ExcType::TypeError,
                "unsupported operand type(s) for @: 'int' and 'int'",
            ));
        }
    })
}

pub(crate) fn float_op(op: BinOp, a: f64, b: f64, an: &str, bn: &str) -> PyResult<Value> {
    Ok(Value::Float(match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::TrueDiv => {
            if b == 0.0 {
                return Err(PyException::new(
                    ExcType::ZeroDivisionError,
                    "float division by zero",
                ));
            }
            a / b
        }
        BinOp::FloorDiv => {
            if b == 0.0 {
                return Err(PyException::new(
                    ExcType::ZeroDivisionError,
                    "float floor division by zero",
                ));
            }
            // CPython's float_divmod: the quotient from the unadjusted fmod, then floored; a
            // zero quotient takes the sign of a / b.
            let m = a % b;
            let mut div = (a - m) / b;
            if m != 0.0 && ((b < 0.0) != (m < 0.0)) {
                div -= 1.0;
            }
            if div == 0.0 {
                0.0f64.copysign(a / b)
            } else {
                let f = div.floor();
                if div - f > 0.5 { f + 1.0 } else { f }
            }
        }
        BinOp::Mod => {
            if b == 0.0 {
                return Err(PyException::new(ExcType::ZeroDivisionError, "float modulo"));
            }
            pymod(a, b)
        }
        BinOp::Pow => {
            if a == 0.0 && b < 0.0 {
                return Err(PyException::new(
                    ExcType::ZeroDivisionError,
                    "0.0 cannot be raised to a negative power",
                ));
            }
            let r = a.powf(b);
            if r.is_infinite() && a.is_finite() && b.is_finite() {
                return Err(PyException::new(
                    ExcType::OverflowError,
                    "(34, 'Numerical result out of range')",
                ));
            }
            r
        }
        _ => {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "unsupported operand type(s) for {}: '{an}' and '{bn}'",
                    op.symbol()
                ),
            ));
        }
    }))
}

fn pymod(a: f64, b: f64) -> f64 {
    let r = a % b;
    if r != 0.0 && ((r < 0.0) != (b < 0.0)) {
        r + b
    } else if r == 0.0 {
        0.0f64.copysign(b)
    } else {
        r
    }
}

/// The most elements (bytes of a string) `seq * n` makes.
const REPEAT_MAX: usize = 50_000_000;

/// The endings of CPython's RecursionError messages for nested data.
const IN_COMPARISON: &str = " in comparison";
const WHILE_REPR: &str = " while getting the repr of an object";

impl Interpreter {
    /// `a <op> b` with CPython's dispatch (left operand, then the reflected right one).
    pub fn binary_op(&mut self, op: BinOp, a: &Value, b: &Value) -> PyResult<Value> {
        match (a, b) {
            (Value::Int(x), Value::Int(y)) => return int_op(op, *x, *y),
            (Value::Float(x), Value::Float(y)) => return float_op(op, *x, *y, "float", "float"),
            (Value::Float(x), Value::Int(y)) => return float_op(op, *x, *y as f64, "float", "int"),
            (Value::Int(x), Value::Float(y)) => return float_op(op, *x as f64, *y, "int", "float"),
            _ => {}
        }
        if let Some(v) = self.builtin_binop(op, a, b)? {
            return Ok(v);
        }
        // Objects: left's method, then right's reflected one.
        if let Some(v) = self.object_binop(op, a, b, false)? {
            return Ok(v);
        }
        if let Some(v) = self.object_binop(op, b, a, true)? {
            return Ok(v);
        }
        // dict/list subclasses without the operator's methods: the builtin's operator.
        if let Some((a, b)) = builtin_subclass::operands_as_builtins(a, b, &[]) {
            return self.binary_op(op, &a, &b);
        }
        Err(match (op, a, b) {
            (BinOp::Add, Value::Str(_), _) => PyException::new(
                ExcType::TypeError,
                format!(
                    "can only concatenate str (not \"{}\") to str",
                    b.type_name()
                ),
            ),
            (BinOp::Add, Value::List(_), _) => PyException::new(
                ExcType::TypeError,
                format!(
                    "can only concatenate list (not \"{}\") to list",
                    b.type_name()
                ),
            ),
            (BinOp::Add, Value::Tuple(_), _) => PyException::new(
                ExcType::TypeError,
                format!(
                    "can only concatenate tuple (not \"{}\") to tuple",
                    b.type_name()
                ),
            ),
            (BinOp::Mul, Value::Str(_) | Value::List(_) | Value::Tuple(_), _)
            | (BinOp::Mul, _, Value::Str(_) | Value::List(_) | Value::Tuple(_)) => {
                let other = if matches!(a, Value::Str(_) | Value::List(_) | Value::Tuple(_)) {
                    b
                } else {
                    a
                };
                PyException::new(
                    ExcType::TypeError,
                    format!(
                        "can't multiply sequence by non-int of type '{}'",
                        other.type_name()
                    ),
                )
            }
            _ => unsupported(op, a, b),
        })
    }

    fn builtin_binop(&mut self, op: BinOp, a: &Value, b: &Value) -> PyResult<Option<Value>> {
        let num = |v: &Value| {
            matches!(
                v,
                Value::Int(_) | Value::Bool(_) | Value::Float(_) | Value::BigInt(_)
            )
        };
        if num(a) && num(b) {
            return Ok(Some(match (a, b) {
                // Bitwise operators do not take floats: the TypeError, before any conversion.
                (Value::Float(_), _) | (_, Value::Float(_))
                    if matches!(
                        op,
                        BinOp::LShift
                            | BinOp::RShift
                            | BinOp::And
                            | BinOp::Or
                            | BinOp::Xor
                            | BinOp::MatMul
                    ) =>
                {
                    return Err(unsupported(op, a, b));
                }
                (Value::Float(_), _) | (_, Value::Float(_)) => {
                    float_op(op, num_f64(a)?, num_f64(b)?, &a.type_name(), &b.type_name())?
                }
                (Value::BigInt(_), _) | (_, Value::BigInt(_)) => {
                    let (x, y) = (bigint::to_big(a), bigint::to_big(b));
                    let (x, y) = (x.unwrap_or_default(), y.unwrap_or_default());
                    // Up to 2**20-bit operands: a multiplication or division of two is
                    // quadratic-ish work; count it so a loop of them meets the time limit.
                    let words = (x.bits() + y.bits()) / 64;
                    self.work(
                        if matches!(
                            op,
                            BinOp::Mul | BinOp::FloorDiv | BinOp::Mod | BinOp::Pow | BinOp::TrueDiv
                        ) {
                            words.saturating_mul(words) / 64 + words
                        } else {
                            words
                        },
                    )?;
                    bigint::int_op(op, &x, &y)?
                }
                _ => int_op(op, a.as_int().unwrap_or(0), b.as_int().unwrap_or(0))?,
            }));
        }
        Ok(match (op, a, b) {
            (BinOp::Add, Value::Str(x), Value::Str(y)) => {
                if x.len() + y.len() > MAX_STR {
                    return Err(PyException::new(ExcType::MemoryError, ""));
                }
                budget_for::<u8>(x.len() + y.len())?;
                let mut s = String::new();
                s.try_reserve_exact(x.len() + y.len())
                    .map_err(|_| memory_error())?;
                self.push_str_polled(&mut s, x)?;
                self.push_str_polled(&mut s, y)?;
                Some(Value::string(s))
            }
            (BinOp::Mul, Value::Str(s), n) | (BinOp::Mul, n, Value::Str(s))
                if n.as_int().is_some() =>
            {
                let n = n.as_int().unwrap_or(0);
                let bytes = self.repeat_polled(s.as_bytes(), n, REPEAT_MAX)?;
                Some(Value::string(String::from_utf8(bytes).unwrap_or_default()))
            }
            (BinOp::Mul, Value::Str(_) | Value::List(_) | Value::Tuple(_), Value::BigInt(_))
            | (BinOp::Mul, Value::BigInt(_), Value::Str(_) | Value::List(_) | Value::Tuple(_)) => {
                // Even a negative one: CPython converts the count to ssize_t first.
                return Err(index_size_error(ExcType::OverflowError));
            }
            (BinOp::Mod, Value::Str(fmt), args) => {
                Some(Value::string(strfmt::percent_format(self, fmt, args)?))
            }
            (BinOp::Add, Value::List(x), Value::List(y)) => {
                if x.borrow().len() + y.borrow().len() > MAX_ITEMS {
                    return Err(PyException::new(ExcType::MemoryError, ""));
                }
                let v = self.concat_polled(&x.borrow(), &y.borrow())?;
                Some(Value::list(v))
            }
            (BinOp::Add, Value::Tuple(x), Value::Tuple(y)) => {
                let v = self.concat_polled(x, y)?;
                Some(Value::tuple(v))
            }
            (BinOp::Mul, Value::List(l), n) | (BinOp::Mul, n, Value::List(l))
                if n.as_int().is_some() =>
            {
                let v = self.repeat_polled(&l.borrow(), n.as_int().unwrap_or(0), REPEAT_MAX)?;
                Some(Value::list(v))
            }
            (BinOp::Mul, Value::Tuple(l), n) | (BinOp::Mul, n, Value::Tuple(l))
                if n.as_int().is_some() =>
            {
                let v = self.repeat_polled(l, n.as_int().unwrap_or(0), REPEAT_MAX)?;
                Some(Value::tuple(v))
            }
            (BinOp::Or, Value::Dict(x), Value::Dict(y)) => {
                let mut d = self.copy_dict_polled(&x.borrow())?;
                for (h, k, v) in y.borrow().iter_full() {
                    self.work(1)?;
                    dict_grow_check(&d)?;
                    d.insert(h.clone(), k.clone(), v.clone());
                }
                Some(Value::dict(d))
            }
            (BinOp::Or | BinOp::And | BinOp::Sub | BinOp::Xor, Value::Set(x), Value::Set(y)) => {
                let (x, y) = (x.borrow(), y.borrow());
                let mut d = super::super::value::Dict::new();
                match op {
                    BinOp::Or => {
                        for (h, k, _) in x.iter_full().chain(y.iter_full()) {
                            self.work(1)?;
                            dict_grow_check(&d)?;
                            d.insert(h.clone(), k.clone(), Value::None);
                        }
                    }
                    BinOp::And => {
                        for (h, k, _) in x.iter_full() {
                            self.work(1)?;
                            if y.contains(h) {
                                dict_grow_check(&d)?;
                                d.insert(h.clone(), k.clone(), Value::None);
                            }
                        }
                    }
                    BinOp::Sub => {
                        for (h, k, _) in x.iter_full() {
                            self.work(1)?;
                            if !y.contains(h) {
                                dict_grow_check(&d)?;
                                d.insert(h.clone(), k.clone(), Value::None);
                            }
                        }
                    }
                    _ => {
                        for (h, k, _) in x.iter_full() {
                            self.work(1)?;
                            if !y.contains(h) {
                                dict_grow_check(&d)?;
                                d.insert(h.clone(), k.clone(), Value::None);
                            }
                        }
                        for (h, k, _) in y.iter_full() {
                            self.work(1)?;
                            if !x.contains(h) {
                                dict_grow_check(&d)?;
                                d.insert(h.clone(), k.clone(), Value::None);
                            }
                        }
                    }
                }
                Some(Value::Set(Rc::new(std::cell::RefCell::new(d))))
            }
            _ => None,
        })
    }

    /// `x.m(other)` for an operator method `m`; `None` when it answers NotImplemented, so
    /// that Python's next candidate (the reflected method, the default) gets its turn.
    fn call_operator_dunder(
        &mut self,
        m: &Value,
        x: &Value,
        other: &Value,
    ) -> PyResult<Option<Value>> {
        let r = self.call_bound(m, x.clone(), Args::new(vec![other.clone()]))?;
        Ok((!matches!(r, Value::NotImplemented)).then_some(r))
    }

    /// `x.__op__(other)` (or `__rop__` when reflected) for instances and natives.
    fn object_binop(
        &mut self,
        op: BinOp,
        x: &Value,
        other: &Value,
        reflected: bool,
    ) -> PyResult<Option<Value>> {
        match x {
            Value::Instance(i) => {
                let name = if reflected { op.rdunder() } else { op.dunder() };
                match i.class.lookup_user(name) {
                    Some(m) => self.call_operator_dunder(&m, x, other),
                    None => Ok(None),
                }
            }
            Value::Native(n) => {
                let n = n.clone();
                let call = BinaryCall {
                    op,
                    other,
                    reflected,
                };
                n.binary_op(NativeCx::new(&n, self), call)
            }
            _ => Ok(None),
        }
    }

    /// `a <op>= b`: in place where the type supports it (lists, `__iadd__`, natives).
    pub(crate) fn inplace_op(&mut self, op: BinOp, a: Value, b: &Value) -> PyResult<Value> {
        match (&a, op) {
            (Value::List(l), BinOp::Add) => {
                let items = match b {
                    Value::List(o) => o.borrow().clone(),
                    other => self.iterate(other)?,
                };
                if l.borrow().len() + items.len() > MAX_ITEMS {
                    return Err(PyException::new(ExcType::MemoryError, ""));
                }
                {
                    let lb = l.borrow();
                    grow_check(&lb, lb.capacity(), items.len())?;
                }
                l.borrow_mut().extend(items);
                return Ok(a);
            }
            (Value::Instance(i), _) => {
                if let Some(m) = i.class.lookup_user(op.idunder())
                    && let Some(r) = self.call_operator_dunder(&m, &a, b)?
                {
                    return Ok(r);
                }
                // `xs += ys` on a list subclass extends it in place (and stays `xs`).
                if i.class.lookup_user(op.dunder()).is_none()
                    && let Some(base) = i.base.clone()
                {
                    let other = builtin_subclass::inherited_base(b, op.rdunder());
                    let other = other.as_ref().unwrap_or(b);
                    if op == BinOp::Or && matches!(base, Value::Dict(_)) {
                        // `d |= pairs` updates a dict in place.
                        self.call_method(&base, "update", Args::new(vec![other.clone()]))?;
                        return Ok(a);
                    }
                    let r = self.inplace_op(op, base.clone(), other)?;
                    return Ok(if r.is(&base) { a } else { r });
                }
            }
            (Value::Native(n), _) => {
                let n = n.clone();
                if let Some(v) = n.inplace_op(NativeCx::new(&n, self), op, b)? {
                    return Ok(v);
                }
            }
            _ => {}
        }
        self.binary_op(op, &a, b)
            .map_err(|e| inplace_message(e, op))
    }

    pub fn unary_op(&mut self, op: UnaryOp, a: &Value) -> PyResult<Value> {
        match (op, a) {
            (UnaryOp::Neg, Value::Int(i)) => {
                return match i.checked_neg() {
                    Some(r) => Ok(Value::Int(r)),
                    None => bigint::neg(&BigInt::from(*i)),
                };
            }
            (UnaryOp::Neg, Value::BigInt(b)) => return bigint::neg(b),
            (UnaryOp::Pos, Value::BigInt(_)) => return Ok(a.clone()),
            (UnaryOp::Invert, Value::BigInt(b)) => return bigint::value(-(&**b + 1u32)),
            (UnaryOp::Neg, Value::Bool(b)) => return Ok(Value::Int(-(*b as i64))),
            (UnaryOp::Neg, Value::Float(f)) => return Ok(Value::Float(-f)),
            (UnaryOp::Pos, Value::Int(_) | Value::Float(_)) => return Ok(a.clone()),
            (UnaryOp::Pos, Value::Bool(b)) => return Ok(Value::Int(*b as i64)),
            (UnaryOp::Invert, Value::Int(i)) => return Ok(Value::Int(!i)),
            (UnaryOp::Invert, Value::Bool(b)) => return Ok(Value::Int(!(*b as i64))),
            (_, Value::Instance(i)) => {
                if let Some(m) = i.class.lookup_user(op.dunder()) {
                    return self.call_bound(&m, a.clone(), Args::default());
                }
            }
            (_, Value::Native(n)) => {
                let n = n.clone();
                if let Some(v) = n.unary_op(NativeCx::new(&n, self), op)? {
                    return Ok(v);
                }
            }
            _ => {}
        }
        Err(PyException::new(
            ExcType::TypeError,
            format!("bad operand type for {}: '{}'", op.symbol(), a.type_name()),
        ))
    }

    pub(crate) fn compare_kind(&mut self, k: CmpKind, a: &Value, b: &Value) -> PyResult<Value> {
        match k {
            CmpKind::Op(op) => self.compare(op, a, b),
            CmpKind::Is => Ok(Value::Bool(a.is(b))),
            CmpKind::IsNot => Ok(Value::Bool(!a.is(b))),
            CmpKind::In => Ok(Value::Bool(self.contains(b, a)?)),
            CmpKind::NotIn => Ok(Value::Bool(!self.contains(b, a)?)),
        }
    }

    /// Rich comparison; the result may be any value (a native may return a tensor).
    pub fn compare(&mut self, op: CmpOp, a: &Value, b: &Value) -> PyResult<Value> {
        if let Some(r) = self.builtin_compare(op, a, b)? {
            return Ok(Value::Bool(r));
        }
        if let Some(v) = self.object_compare(op, a, b)? {
            return Ok(v);
        }
        if let Some(v) = self.object_compare(op.swapped(), b, a)? {
            return Ok(v);
        }
        if let Some((a, b)) =
            builtin_subclass::operands_as_builtins(a, b, &[op.dunder(), op.swapped().dunder()])
        {
            return self.compare(op, &a, &b);
        }
        match op {
            CmpOp::Eq => Ok(Value::Bool(a.is(b))),
            CmpOp::Ne => Ok(Value::Bool(!a.is(b))),
            _ => Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "'{}' not supported between instances of '{}' and '{}'",
                    op.symbol(),
                    a.type_name(),
                    b.type_name()
                ),
            )),
        }
    }

    fn object_compare(&mut self, op: CmpOp, x: &Value, other: &Value) -> PyResult<Option<Value>> {
        match x {
            Value::Instance(i) => {
                let m = i.class.lookup_user(op.dunder());
                let m = match (m, op) {
                    (None, CmpOp::Ne) => {
                        // Default __ne__ inverts __eq__.
                        if let Some(eq) = i.class.lookup_user("__eq__") {
                            let Some(r) = self.call_operator_dunder(&eq, x, other)? else {
                                return Ok(None);
                            };
                            let t = self.truthy(&r)?;
                            return Ok(Some(Value::Bool(!t)));
                        }
                        None
                    }
                    (m, _) => m,
                };
                match m {
                    Some(m) => self.call_operator_dunder(&m, x, other),
                    None => Ok(None),
                }
            }
            Value::Native(n) => {
                let n = n.clone();
                n.compare(NativeCx::new(&n, self), op, other)
            }
            _ => Ok(None),
        }
    }

    /// Comparisons between builtin values; `None` when the pair is not builtin-comparable.
    fn builtin_compare(&mut self, op: CmpOp, a: &Value, b: &Value) -> PyResult<Option<bool>> {
        use std::cmp::Ordering;
        let ord: Option<Ordering> = match (a, b) {
            (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
            (Value::Float(x), Value::Float(y)) => {
                return Ok(Some(op.holds(*x, *y)));
            }
            (
                Value::Int(_) | Value::Bool(_) | Value::Float(_) | Value::BigInt(_),
                Value::Int(_) | Value::Bool(_) | Value::Float(_) | Value::BigInt(_),
            ) => match num_cmp(a, b) {
                Some(o) => Some(o),
                // NaN: only != holds.
                None => return Ok(Some(op == CmpOp::Ne)),
            },
            (Value::Str(x), Value::Str(y)) => Some(x.cmp(y)),
            (Value::None, Value::None) => {
                if matches!(op, CmpOp::Eq | CmpOp::Ne) {
                    Some(Ordering::Equal)
                } else {
                    None
                }
            }
            (Value::List(x), Value::List(y)) => {
                let (x, y) = (x.borrow().clone(), y.borrow().clone());
                return self.seq_compare(op, &x, &y).map(Some);
            }
            (Value::Tuple(x), Value::Tuple(y)) => {
                let (x, y) = (x.clone(), y.clone());
                return self.seq_compare(op, &x, &y).map(Some);
            }
            // CPython compares slices as their (start, stop, step) tuples
            (Value::Slice(x), Value::Slice(y)) => {
                let (x, y) = (x.clone(), y.clone());
                return self.seq_compare(op, &x[..], &y[..]).map(Some);
            }
            (Value::Dict(_), Value::Dict(_)) | (Value::Set(_), Value::Set(_))
                if matches!(op, CmpOp::Eq | CmpOp::Ne) =>
            {
                let e = self.container_eq(a, b)?;
                return Ok(Some(if op == CmpOp::Eq { e } else { !e }));
            }
            (Value::Set(x), Value::Set(y)) => {
                let (x, y) = (x.borrow(), y.borrow());
                let sub = x.iter_full().all(|(h, _, _)| y.contains(h));
                let sup = y.iter_full().all(|(h, _, _)| x.contains(h));
                return Ok(Some(match op {
                    CmpOp::Le => sub,
                    CmpOp::Lt => sub && x.len() < y.len(),
                    CmpOp::Ge => sup,
                    CmpOp::Gt => sup && x.len() > y.len(),
                    _ => false,
                }));
            }
            (Value::Range(x), Value::Range(y)) if matches!(op, CmpOp::Eq | CmpOp::Ne) => {
                let n = x.len_exact();
                let e = n == y.len_exact()
                    && (n == 0 || (x.start == y.start && (n == 1 || x.step == y.step)));
                return Ok(Some(if op == CmpOp::Eq { e } else { !e }));
            }
            (Value::Instance(_) | Value::Native(_), _)
            | (_, Value::Instance(_) | Value::Native(_)) => return Ok(None),
            _ => {
                if matches!(op, CmpOp::Eq | CmpOp::Ne) {
                    let e = a.is(b);
                    return Ok(Some(if op == CmpOp::Eq { e } else { !e }));
                }
                None
            }
        };
        Ok(ord.map(|o| match op {
            CmpOp::Eq => o == Ordering::Equal,
            CmpOp::Ne => o != Ordering::Equal,
            CmpOp::Lt => o == Ordering::Less,
            CmpOp::Le => o != Ordering::Greater,
            CmpOp::Gt => o == Ordering::Greater,
            CmpOp::Ge => o != Ordering::Less,
        }))
    }

    fn container_eq(&mut self, a: &Value, b: &Value) -> PyResult<bool> {
        self.enter_nested(IN_COMPARISON)?;
        let r = self.container_eq_inner(a, b);
        self.leave_nested();
        r
    }

    fn container_eq_inner(&mut self, a: &Value, b: &Value) -> PyResult<bool> {
        match (a, b) {
            (Value::Dict(x), Value::Dict(y)) => {
                if Rc::ptr_eq(x, y) {
                    return Ok(true);
                }
                let xs: Vec<(HKey, Value)> = x
                    .borrow()
                    .iter_full()
                    .map(|(h, _, v)| (h.clone(), v.clone()))
                    .collect();
                if xs.len() != y.borrow().len() {
                    return Ok(false);
                }
                for (h, v) in xs {
                    let other = y.borrow().get(&h).cloned();
                    match other {
                        Some(o) => {
                            if !self.eq(&v, &o)? {
                                return Ok(false);
                            }
                        }
                        None => return Ok(false),
                    }
                }
                Ok(true)
            }
            (Value::Set(x), Value::Set(y)) => {
                let (x, y) = (x.borrow(), y.borrow());
                Ok(x.len() == y.len() && x.iter_full().all(|(h, _, _)| y.contains(h)))
            }
            _ => Ok(false),
        }
    }

    fn seq_compare(&mut self, op: CmpOp, x: &[Value], y: &[Value]) -> PyResult<bool> {
        self.enter_nested(IN_COMPARISON)?;
        let r = self.seq_compare_inner(op, x, y);
        self.leave_nested();
        r
    }

    fn seq_compare_inner(&mut self, op: CmpOp, x: &[Value], y: &[Value]) -> PyResult<bool> {
        if matches!(op, CmpOp::Eq | CmpOp::Ne) && x.len() != y.len() {
            return Ok(op == CmpOp::Ne);
        }
        for (a, b) in x.iter().zip(y.iter()) {
            self.work(1)?;
            if a.is(b) {
                continue;
            }
            if !self.eq(a, b)? {
                return match op {
                    CmpOp::Eq => Ok(false),
                    CmpOp::Ne => Ok(true),
                    _ => {
                        let r = self.compare(op, a, b)?;
                        self.truthy(&r)
                    }
                };
            }
        }
        let (n, m) = (x.len(), y.len());
        Ok(match op {
            CmpOp::Eq => true,
            CmpOp::Ne => false,
            CmpOp::Lt => n < m,
            CmpOp::Le => n <= m,
            CmpOp::Gt => n > m,
            CmpOp::Ge => n >= m,
        })
    }

    /// Guard for recursion that does not go through Python frames (repr/eq/hash of nested
    /// data): CPython counts it with the frames against the recursion limit, and so do we; the
    /// Rust stack check stops it first where the stack is shorter. `what` completes CPython's
    /// message ("... in comparison", "... while getting the repr of an object").
    pub(crate) fn enter_nested(&mut self, what: &str) -> PyResult<()> {
        self.nested_depth += 1;
        if self.nested_depth + self.frames.len() > self.recursion_limit
            || self.check_stack().is_err()
        {
            self.nested_depth -= 1;
            return Err(PyException::new(
                ExcType::RecursionError,
                format!("maximum recursion depth exceeded{what}"),
            ));
        }
        Ok(())
    }
    pub(crate) fn leave_nested(&mut self) {
        self.nested_depth = self.nested_depth.saturating_sub(1);
    }

    /// `a == b` as a bool.
    pub fn eq(&mut self, a: &Value, b: &Value) -> PyResult<bool> {
        match (a, b) {
            (Value::Int(x), Value::Int(y)) => return Ok(x == y),
            (Value::Str(x), Value::Str(y)) => return Ok(x == y),
            _ => {}
        }
        let r = self.compare(CmpOp::Eq, a, b)?;
        self.truthy(&r)
    }

    /// Truth value (`if v:`).
    pub(crate) fn truthy(&mut self, v: &Value) -> PyResult<bool> {
        Ok(match v {
            Value::None => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::List(l) => !l.borrow().is_empty(),
            Value::Tuple(t) => !t.is_empty(),
            Value::Dict(d) | Value::Set(d) => !d.borrow().is_empty(),
            Value::Range(r) => !r.is_empty(),
            Value::Instance(i) => {
                if let Some(m) = i.class.lookup_user("__bool__") {
                    let r = self.call_bound(&m, v.clone(), Args::default())?;
                    match r {
                        Value::Bool(b) => b,
                        other => {
                            return Err(PyException::new(
                                ExcType::TypeError,
                                format!(
                                    "__bool__ should return bool, returned {}",
                                    other.type_name()
                                ),
                            ));
                        }
                    }
                } else if i.class.lookup_user("__len__").is_some() || i.base.is_some() {
                    self.len(v)? > 0
                } else {
                    true
                }
            }
            Value::Native(n) => {
                let n = n.clone();
                match n.bool(NativeCx::new(&n, self))? {
                    Some(b) => b,
                    None => match n.len(NativeCx::new(&n, self))? {
                        Some(l) => l > 0,
                        None => true,
                    },
                }
            }
            _ => true,
        })
    }

    /// The dict key of a value, or `TypeError: unhashable type: 'list'`.
    pub(crate) fn hkey(&mut self, v: &Value) -> PyResult<HKey> {
        Ok(match v {
            Value::None => HKey::None,
            Value::Bool(b) => HKey::Int(*b as i64),
            Value::Int(i) => HKey::Int(*i),
            Value::BigInt(b) => HKey::Big(b.clone()),
            Value::Float(f) => HKey::float(*f),
            Value::Str(s) => HKey::Str(s.clone()),
            Value::Tuple(t) => {
                self.enter_nested("")?;
                let mut ks = Vec::with_capacity(t.len());
                for x in t.iter() {
                    if let Err(e) = self.work(1) {
                        self.leave_nested();
                        return Err(e);
                    }
                    match self.hkey(x) {
                        Ok(k) => ks.push(k),
                        Err(e) => {
                            self.leave_nested();
                            return Err(e);
                        }
                    }
                }
                self.leave_nested();
                HKey::Tuple(ks.into_boxed_slice())
            }
            Value::Ellipsis => HKey::Ellipsis,
            Value::List(_) | Value::Dict(_) | Value::Set(_) | Value::Slice(_) => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!("unhashable type: '{}'", v.type_name()),
                ));
            }
            Value::Instance(i) => {
                if let Some(h) = i.class.lookup_user("__hash__") {
                    if h.is_none() {
                        return Err(PyException::new(
                            ExcType::TypeError,
                            format!("unhashable type: '{}'", i.class.name),
                        ));
                    }
                    let r = self.call_bound(&h, v.clone(), Args::default())?;
                    // A big int from __hash__ is reduced as CPython reduces it.
                    let r = match &r {
                        Value::BigInt(b) => Value::Int(bigint::hash(b)),
                        _ => r,
                    };
                    match r.as_int() {
                        // without its own __eq__ an object equals only itself
                        Some(x) if i.class.lookup_user("__eq__").is_none() => HKey::HashedObject(
                            Box::new((i.class.name.clone(), x, v.ptr_id().unwrap_or(0))),
                        ),
                        Some(x) => HKey::EqObject(x, v.ptr_id().unwrap_or(0)),
                        None => {
                            return Err(PyException::new(
                                ExcType::TypeError,
                                "__hash__ method should return an integer",
                            ));
                        }
                    }
                } else if i.class.lookup_user("__eq__").is_some() || i.base.is_some() {
                    // dict and list set `__hash__ = None`, and so do their subclasses.
                    return Err(PyException::new(
                        ExcType::TypeError,
                        format!("unhashable type: '{}'", i.class.name),
                    ));
                } else {
                    HKey::Id(v.ptr_id().unwrap_or(0))
                }
            }
            Value::Native(n) => {
                let n = n.clone();
                match n.hash(NativeCx::new(&n, self))? {
                    Some(h) => HKey::Hashed(Box::new((n.type_name().into(), h))),
                    None => HKey::Id(v.ptr_id().unwrap_or(0)),
                }
            }
            _ => HKey::Id(v.ptr_id().unwrap_or(0)),
        })
    }

    /// The key `v` has in `d`: its own [`HKey`], or, for an object with its own `__hash__` and
    /// `__eq__`, the key of an entry with the same hash that its `__eq__` (or the entry's,
    /// CPython's `==`) says it equals. An `__eq__` that raises propagates.
    pub(crate) fn key_in(&mut self, d: &super::super::value::Dict, v: &Value) -> PyResult<HKey> {
        let k = self.hkey(v)?;
        let candidates = d.eq_candidates(&k);
        self.equal_key(k, v, candidates)
    }

    /// [`Interpreter::key_in`] for a dict behind a `RefCell` (not borrowed while `__eq__` runs).
    pub(crate) fn key_in_cell(
        &mut self,
        d: &std::cell::RefCell<super::super::value::Dict>,
        v: &Value,
    ) -> PyResult<HKey> {
        let k = self.hkey(v)?;
        let candidates = d.borrow().eq_candidates(&k);
        self.equal_key(k, v, candidates)
    }

    /// The first candidate that is `v` itself or that `candidate == v` (the stored key's
    /// `__eq__` first, as CPython's `lookdict` compares `startkey` with the new key); else `k`.
    fn equal_key(&mut self, k: HKey, v: &Value, candidates: Vec<(HKey, Value)>) -> PyResult<HKey> {
        for (hk, key) in candidates {
            if hk.view() == k.view() || self.eq(&key, v)? {
                return Ok(hk);
            }
        }
        Ok(k)
    }

    /// `repr(v)`.
    pub fn repr(&mut self, v: &Value) -> PyResult<String> {
        Ok(match v {
            Value::None => "None".into(),
            Value::Bool(b) => (if *b { "True" } else { "False" }).into(),
            Value::Int(i) => i.to_string(),
            Value::BigInt(b) => bigint::to_decimal(b)?,
            Value::Float(f) => strfmt::float_repr(*f),
            Value::Str(s) => strfmt::str_repr(s),
            Value::List(l) => {
                let items = l.borrow().clone();
                if self.repr_active(v) {
                    return Ok("[...]".into());
                }
                format!("[{}]", self.repr_join(v, &items)?)
            }
            Value::Tuple(t) => {
                if t.len() == 1 {
                    format!("({},)", self.repr_join(v, t)?)
                } else {
                    format!("({})", self.repr_join(v, t)?)
                }
            }
            Value::Dict(d) => {
                if self.repr_active(v) {
                    return Ok("{...}".into());
                }
                let items = dict_items(d)?;
                self.enter_nested(WHILE_REPR)?;
                self.repr_stack.push(v.ptr_id().unwrap_or(0));
                let mut parts = Vec::with_capacity(items.len());
                let mut err = None;
                let mut total = 0;
                for (i, (k, x)) in items.into_iter().enumerate() {
                    match self.repr_entry(&k, &x, i, &mut total) {
                        Ok(p) => parts.push(p),
                        Err(e) => {
                            err = Some(e);
                            break;
                        }
                    }
                }
                self.repr_stack.pop();
                self.leave_nested();
                if let Some(e) = err {
                    return Err(e);
                }
                format!("{{{}}}", parts.join(", "))
            }
            Value::Set(d) => {
                let items = super::super::value::cpython_set_order_of(&d.borrow());
                if items.is_empty() {
                    "set()".into()
                } else {
                    format!("{{{}}}", self.repr_join(v, &items)?)
                }
            }
            Value::Range(r) => {
                if r.step == 1 {
                    format!("range({}, {})", r.start, r.stop)
                } else {
                    format!("range({}, {}, {})", r.start, r.stop, r.step)
                }
            }
            Value::Slice(s) => {
                let [a, b, c] = &**s;
                format!(
                    "slice({}, {}, {})",
                    self.repr(a)?,
                    self.repr(b)?,
                    self.repr(c)?
                )
            }
            Value::Function(f) => format!("<function {} at {}>", f.qualname, addr(v)),
            Value::NativeFn(f) => format!("<built-in function {}>", f.name),
            Value::BuiltinMethod(m) => format!(
                "<built-in method {} of {} object at {}>",
                m.1,
                m.0.type_name(),
                addr(&m.0)
            ),
            Value::BoundMethod(m) => {
                let fname = match &m.func {
                    Value::Function(f) => f.qualname.to_string(),
                    Value::NativeFn(f) => f.name.to_string(),
                    _ => "?".into(),
                };
                let r = self.repr(&m.receiver)?;
                format!("<bound method {fname} of {r}>")
            }
            Value::Class(c) => {
                let module = c.module_name();
                if &*module == "builtins" {
                    format!("<class '{}'>", c.name)
                } else {
                    format!("<class '{}.{}'>", module, c.name)
                }
            }
            Value::Module(m) => format!("<module '{}'>", m.name),
            Value::Instance(i) => {
                if let Some(m) = i.class.lookup_user("__repr__") {
                    let r = self.call_bound(&m, v.clone(), Args::default())?;
                    match r {
                        Value::Str(s) => s.to_string(),
                        other => {
                            return Err(PyException::new(
                                ExcType::TypeError,
                                format!(
                                    "__repr__ returned non-string (type {})",
                                    other.type_name()
                                ),
                            ));
                        }
                    }
                } else if let Some(base) = &i.base {
                    self.repr(base)?
                } else {
                    format!(
                        "<{}.{} object at {}>",
                        i.class.module_name(),
                        i.class.name,
                        addr(v)
                    )
                }
            }
            Value::Native(n) => {
                let n = n.clone();
                match n.repr(NativeCx::new(&n, self))? {
                    Some(s) => s,
                    None => format!("<{} object at {}>", n.type_name(), addr(v)),
                }
            }
            Value::Iter(_) => format!("<iterator object at {}>", addr(v)),
            Value::Super(_) => "<super object>".into(),
            Value::StaticMethod(_) => format!("<staticmethod object at {}>", addr(v)),
            Value::ClassMethod(_) => format!("<classmethod object at {}>", addr(v)),
            Value::Property(_) => format!("<property object at {}>", addr(v)),
            Value::Ellipsis => "Ellipsis".into(),
            Value::NotImplemented => "NotImplemented".into(),
        })
    }

    /// Append one item's repr: MemoryError past [`MAX_STR`], and the wall-time and cancel
    /// limits polled every 4096 items (a repr of ten million items is one native call).
    fn repr_grow(&mut self, out: &mut String, s: &str, i: usize) -> PyResult<()> {
        if out.len() + s.len() > MAX_STR {
            return Err(PyException::new(ExcType::MemoryError, ""));
        }
        grow_check(out.as_bytes(), out.capacity(), s.len())?;
        out.push_str(s);
        if i % 4096 == 4095 {
            self.check_limits()?;
        }
        Ok(())
    }

    /// `k: v` of a dict's repr, counted into `total` (MemoryError past [`MAX_STR`]).
    fn repr_entry(
        &mut self,
        k: &Value,
        x: &Value,
        i: usize,
        total: &mut usize,
    ) -> PyResult<String> {
        let a = self.repr(k)?;
        let b = self.repr(x)?;
        let mut part = String::new();
        self.repr_grow(&mut part, &format!("{a}: {b}"), i)?;
        *total += part.len() + 2;
        if *total > MAX_STR {
            return Err(PyException::new(ExcType::MemoryError, ""));
        }
        Ok(part)
    }

    fn repr_active(&self, v: &Value) -> bool {
        let id = v.ptr_id().unwrap_or(0);
        self.repr_stack.contains(&id)
    }

    fn repr_join(&mut self, container: &Value, items: &[Value]) -> PyResult<String> {
        self.enter_nested(WHILE_REPR)?;
        self.repr_stack.push(container.ptr_id().unwrap_or(0));
        let mut out = String::new();
        let mut r = Ok(());
        for (i, x) in items.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            match self.repr(x).and_then(|s| self.repr_grow(&mut out, &s, i)) {
                Ok(()) => {}
                Err(e) => {
                    r = Err(e);
                    break;
                }
            }
        }
        self.repr_stack.pop();
        self.leave_nested();
        r.map(|_| out)
    }

    /// `str(v)`.
    pub fn str(&mut self, v: &Value) -> PyResult<String> {
        match v {
            Value::Str(s) => Ok(s.to_string()),
            Value::Instance(i) => {
                if let Some(m) = i.class.lookup_user("__str__") {
                    let r = self.call_bound(&m, v.clone(), Args::default())?;
                    match r {
                        Value::Str(s) => Ok(s.to_string()),
                        other => Err(PyException::new(
                            ExcType::TypeError,
                            format!("__str__ returned non-string (type {})", other.type_name()),
                        )),
                    }
                } else {
                    self.repr(v)
                }
            }
            Value::Native(n) => {
                let n = n.clone();
                match n.str(NativeCx::new(&n, self))? {
                    Some(s) => Ok(s),
                    None => self.repr(v),
                }
            }
            _ => self.repr(v),
        }
    }

    /// `format(v, spec)`.
    pub(crate) fn format_value(&mut self, v: &Value, spec: &str) -> PyResult<String> {
        match v {
            Value::Instance(i) => {
                if let Some(m) = i.class.lookup_user("__format__") {
                    let r = self.call_bound(&m, v.clone(), Args::new(vec![Value::str(spec)]))?;
                    return self.str(&r);
                }
                if spec.is_empty() {
                    return self.str(v);
                }
                Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "unsupported format string passed to {}.__format__",
                        i.class.name
                    ),
                ))
            }
            Value::Native(n) => {
                let n = n.clone();
                if let Some(s) = n.format(NativeCx::new(&n, self), spec)? {
                    return Ok(s);
                }
                if spec.is_empty() {
                    return self.str(v);
                }
                // A 0-d tensor formats like its number.
                if let Some(f) = n.to_float(NativeCx::new(&n, self))? {
                    return strfmt::format_spec(self, &Value::Float(f), spec);
                }
                Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "unsupported format string passed to {}.__format__",
                        n.type_name()
                    ),
                ))
            }
            _ => strfmt::format_spec(self, v, spec),
        }
    }

    /// `len(v)`.
    pub fn len(&mut self, v: &Value) -> PyResult<usize> {
        Ok(match v {
            Value::Str(s) => s.chars().count(),
            Value::List(l) => l.borrow().len(),
            Value::Tuple(t) => t.len(),
            Value::Dict(d) | Value::Set(d) => d.borrow().len(),
            Value::Range(r) => {
                if r.len_exact() > i64::MAX as u128 {
                    return Err(PyException::new(
                        ExcType::OverflowError,
                        "Python int too large to convert to C ssize_t",
                    ));
                }
                r.len()
            }
            Value::Instance(i) => match i.class.lookup_user("__len__") {
                Some(m) => {
                    let r = self.call_bound(&m, v.clone(), Args::default())?;
                    if let Value::BigInt(b) = &r {
                        return Err(if b.sign() == num_bigint::Sign::Minus {
                            PyException::new(ExcType::ValueError, "__len__() should return >= 0")
                        } else {
                            index_size_error(ExcType::OverflowError)
                        });
                    }
                    match r.as_int() {
                        Some(n) if n >= 0 => n as usize,
                        Some(_) => {
                            return Err(PyException::new(
                                ExcType::ValueError,
                                "__len__() should return >= 0",
                            ));
                        }
                        None => {
                            return Err(PyException::not_an_integer(r.type_name()));
                        }
                    }
                }
                None => match &i.base {
                    Some(base) => self.len(base)?,
                    None => return Err(PyException::no_len(&i.class.name)),
                },
            },
            Value::Native(n) => {
                let n = n.clone();
                match n.len(NativeCx::new(&n, self))? {
                    Some(l) => l,
                    None => return Err(PyException::no_len(n.type_name())),
                }
            }
            _ => {
                return Err(PyException::no_len(v.type_name()));
            }
        })
    }

    /// `item in container`.
    pub fn contains(&mut self, container: &Value, item: &Value) -> PyResult<bool> {
        match container {
            Value::Str(s) => match item {
                Value::Str(x) => Ok(s.contains(&**x)),
                _ => Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "'in <string>' requires string as left operand, not {}",
                        item.type_name()
                    ),
                )),
            },
            Value::List(l) => {
                // By index, re-reading the list each time, as CPython does (an __eq__ may
                // change it), and without copying it.
                let mut i = 0;
                loop {
                    let x = match l.borrow().get(i) {
                        Some(x) => x.clone(),
                        None => return Ok(false),
                    };
                    i += 1;
                    self.work(1)?;
                    if x.is(item) || self.eq(&x, item)? {
                        return Ok(true);
                    }
                }
            }
            Value::Tuple(t) => {
                for x in t.iter() {
                    self.work(1)?;
                    if x.is(item) || self.eq(x, item)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Value::Dict(d) | Value::Set(d) => {
                let k = self.key_in_cell(d, item)?;
                Ok(d.borrow().contains(&k))
            }
            Value::Range(r) => Ok(match super::super::bigint::to_i128(item) {
                Some(i) => r.index_of(i).is_some(),
                None => false,
            }),
            Value::Instance(i) => {
                if let Some(m) = i.class.lookup_user("__contains__") {
                    let r =
                        self.call_bound(&m, container.clone(), Args::new(vec![item.clone()]))?;
                    return self.truthy(&r);
                }
                if let Some(base) = &i.base {
                    return self.contains(base, item);
                }
                self.contains_by_iter(container, item)
            }
            Value::Native(n) => {
                let n = n.clone();
                match n.contains(NativeCx::new(&n, self), item)? {
                    Some(b) => Ok(b),
                    None => self.contains_by_iter(container, item),
                }
            }
            _ => {
                if self.is_iterable(container) {
                    return self.contains_by_iter(container, item);
                }
                Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "argument of type '{}' is not iterable",
                        container.type_name()
                    ),
                ))
            }
        }
    }

    fn contains_by_iter(&mut self, container: &Value, item: &Value) -> PyResult<bool> {
        let it = self.get_iter(container)?;
        while let Some(x) = self.next_item(&it)? {
            self.work(1)?;
            if x.is(item) || self.eq(&x, item)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// An index for a sequence of length `n` (negative counts from the end).
    pub(crate) fn seq_index(
        &mut self,
        key: &Value,
        n: usize,
        what: &str,
    ) -> PyResult<Option<usize>> {
        let i = match key {
            Value::Int(i) => *i,
            Value::Bool(b) => *b as i64,
            Value::BigInt(_) => return Err(index_size_error(ExcType::IndexError)),
            Value::Native(nat) => {
                let nat = nat.clone();
                match nat.to_int(NativeCx::new(&nat, self))? {
                    Some(i) => i,
                    None => {
                        return Err(PyException::new(
                            ExcType::TypeError,
                            format!(
                                "{what} indices must be integers or slices, not {}",
                                key.type_name()
                            ),
                        ));
                    }
                }
            }
            _ => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "{what} indices must be integers or slices, not {}",
                        key.type_name()
                    ),
                ));
            }
        };
        let n = n as i64;
        let j = if i < 0 { i + n } else { i };
        Ok(if j < 0 || j >= n {
            None
        } else {
            Some(j as usize)
        })
    }

    /// A slice's start or stop against a length `n` (CPython's `PySlice_AdjustIndices`):
    /// `default` when absent, counted from the end when negative, then clamped to the range
    /// the step walks (`0..=n` forwards, `-1..=n-1` backwards).
    fn slice_bound(&mut self, v: &Value, default: i64, n: i64, step: i64) -> PyResult<i64> {
        if let Value::None = v {
            return Ok(default);
        }
        let x = self.slice_int(v)?;
        let x = if x < 0 { x.saturating_add(n) } else { x };
        let (lo, hi) = if step > 0 { (0, n) } else { (-1, n - 1) };
        Ok(x.max(lo).min(hi))
    }

    /// Resolve a slice against a length: the positions it selects.
    pub(crate) fn slice_positions(&mut self, s: &[Value; 3], n: usize) -> PyResult<SlicePositions> {
        let step = match &s[2] {
            Value::None => 1,
            v => self.slice_int(v)?,
        };
        if step == 0 {
            return Err(PyException::new(
                ExcType::ValueError,
                "slice step cannot be zero",
            ));
        }
        let n = n as i64;
        let (lo_def, hi_def) = if step > 0 { (0, n) } else { (n - 1, -1) };
        let start = self.slice_bound(&s[0], lo_def, n, step)?;
        let stop = self.slice_bound(&s[1], hi_def, n, step)?;
        // start and stop are within -1..=n, so the span fits an i128 whatever the step
        let span = if step > 0 {
            i128::from(stop) - i128::from(start)
        } else {
            i128::from(start) - i128::from(stop)
        };
        let step_size = i128::from(step).abs();
        let left = if span > 0 {
            ((span - 1) / step_size + 1) as usize
        } else {
            0
        };
        Ok(SlicePositions {
            next: start,
            step,
            left,
        })
    }

    /// The indices a slice of a sequence of length `n` takes, in order (MemoryError past
    /// [`MAX_ITEMS`] of them).
    pub(crate) fn slice_indices(&mut self, s: &[Value; 3], n: usize) -> PyResult<Vec<usize>> {
        let positions = self.slice_positions(s, n)?;
        if positions.len() > MAX_ITEMS {
            return Err(PyException::new(ExcType::MemoryError, ""));
        }
        self.work(positions.len() as u64)?;
        Ok(positions.collect())
    }

    /// `slice.indices(n)`: start, stop and step adjusted to a length, as CPython's
    /// `PySlice_AdjustIndices`.
    pub(crate) fn slice_bounds(&mut self, s: &[Value; 3], n: i128) -> PyResult<(i128, i128, i128)> {
        // Exact for ints within i128; bigger ones only matter by their sign here.
        let mut int = |v: &Value| -> PyResult<i128> {
            match v {
                Value::BigInt(b) => Ok(bigint::to_i128(v).unwrap_or(
                    if b.sign() == num_bigint::Sign::Minus {
                        -(1 << 126)
                    } else {
                        1 << 126
                    },
                )),
                _ => Ok(self.slice_int(v)? as i128),
            }
        };
        let step = match &s[2] {
            Value::None => 1,
            v => int(v)?,
        };
        if step == 0 {
            return Err(PyException::new(
                ExcType::ValueError,
                "slice step cannot be zero",
            ));
        }
        let mut adjust = |v: &Value, default: i128| -> PyResult<i128> {
            if v.is_none() {
                return Ok(default);
            }
            let x = int(v)?;
            Ok(if x < 0 {
                (x + n).max(if step < 0 { -1 } else { 0 })
            } else if x >= n {
                if step < 0 { n - 1 } else { n }
            } else {
                x
            })
        };
        let start = adjust(&s[0], if step < 0 { n - 1 } else { 0 })?;
        let stop = adjust(&s[1], if step < 0 { -1 } else { n })?;
        Ok((start, stop, step))
    }

    /// A slice bound: like [`Interpreter::index_int`], but a big int clamps (`x[:10**20]`).
    pub(crate) fn slice_int(&mut self, v: &Value) -> PyResult<i64> {
        match v {
            Value::BigInt(b) => Ok(if b.sign() == num_bigint::Sign::Minus {
                i64::MIN
            } else {
                i64::MAX
            }),
            _ => self.index_int(v),
        }
    }

    /// A slice's start, stop and step as ints (`None` where left out, big ints clamped), for
    /// the tensor and array indexers that resolve them against a dimension themselves; a zero
    /// step is CPython's ValueError.
    pub(crate) fn slice_ints(&mut self, s: &[Value; 3]) -> PyResult<[Option<i64>; 3]> {
        let mut b = [None, None, None];
        for (k, x) in s.iter().enumerate() {
            if !x.is_none() {
                b[k] = Some(self.slice_int(x)?);
            }
        }
        if b[2] == Some(0) {
            return Err(PyException::value_error("slice step cannot be zero"));
        }
        Ok(b)
    }

    /// An int for slicing/indexing (ints, bools, natives with `to_int`, `__index__`).
    pub(crate) fn index_int(&mut self, v: &Value) -> PyResult<i64> {
        match v {
            Value::Int(i) => Ok(*i),
            Value::BigInt(_) => Err(PyException::new(
                ExcType::OverflowError,
                "Python int too large to convert to C ssize_t",
            )),
            Value::Bool(b) => Ok(*b as i64),
            Value::Native(n) => {
                let n = n.clone();
                n.to_int(NativeCx::new(&n, self))?.ok_or_else(|| {
                    PyException::new(
                        ExcType::TypeError,
                        "slice indices must be integers or None or have an __index__ method",
                    )
                })
            }
            Value::Instance(i) => match i.class.lookup_user("__index__") {
                Some(m) => {
                    let r = self.call_bound(&m, v.clone(), Args::default())?;
                    if let Value::BigInt(_) = r {
                        return self.index_int(&r);
                    }
                    r.as_int().ok_or_else(|| {
                        PyException::new(ExcType::TypeError, "__index__ returned non-int")
                    })
                }
                None => Err(PyException::not_an_integer(&i.class.name)),
            },
            _ => Err(PyException::not_an_integer(v.type_name())),
        }
    }

    /// `obj[key]`.
    pub fn getitem(&mut self, obj: &Value, key: &Value) -> PyResult<Value> {
        match obj {
            Value::List(_) | Value::Tuple(_) => {
                let what = if matches!(obj, Value::List(_)) {
                    "list"
                } else {
                    "tuple"
                };
                if let Value::Slice(s) = key {
                    let n = match obj {
                        Value::List(l) => l.borrow().len(),
                        Value::Tuple(t) => t.len(),
                        _ => 0,
                    };
                    // (an `__index__` in the slice may have shortened the list meanwhile:
                    // positions past its end are left out)
                    let positions = self.slice_positions(s, n)?;
                    let out = match obj {
                        Value::List(l) => self.slice_polled(&l.borrow(), positions)?,
                        Value::Tuple(t) => self.slice_polled(t, positions)?,
                        _ => Vec::new(),
                    };
                    return Ok(if what == "list" {
                        Value::list(out)
                    } else {
                        Value::tuple(out)
                    });
                }
                let n = match obj {
                    Value::List(l) => l.borrow().len(),
                    Value::Tuple(t) => t.len(),
                    _ => 0,
                };
                match self.seq_index(key, n, what)? {
                    Some(i) => {
                        let v = match obj {
                            Value::List(l) => l.borrow().get(i).cloned(),
                            Value::Tuple(t) => t.get(i).cloned(),
                            _ => None,
                        };
                        v.ok_or_else(|| {
                            PyException::new(
                                ExcType::IndexError,
                                format!("{what} index out of range"),
                            )
                        })
                    }
                    None => Err(PyException::new(
                        ExcType::IndexError,
                        format!("{what} index out of range"),
                    )),
                }
            }
            Value::Str(s) => {
                // ASCII text indexes by byte: no copy of the whole string as characters
                if s.is_ascii() {
                    if let Value::Slice(sl) = key {
                        let positions = self.slice_positions(sl, s.len())?;
                        let bytes = self.slice_polled(s.as_bytes(), positions)?;
                        return Ok(Value::string(String::from_utf8(bytes).unwrap_or_default()));
                    }
                    return match self.seq_index(key, s.len(), "string")? {
                        Some(i) => Ok(Value::str(s.get(i..i + 1).unwrap_or_default())),
                        None => Err(PyException::new(
                            ExcType::IndexError,
                            "string index out of range",
                        )),
                    };
                }
                let chars: Vec<char> = s.chars().collect();
                if let Value::Slice(sl) = key {
                    let positions = self.slice_positions(sl, chars.len())?;
                    let picked = self.slice_polled(&chars, positions)?;
                    return Ok(Value::string(picked.into_iter().collect()));
                }
                match self.seq_index(key, chars.len(), "string")? {
                    Some(i) => Ok(Value::string(
                        chars.get(i).map(|c| c.to_string()).unwrap_or_default(),
                    )),
                    None => Err(PyException::new(
                        ExcType::IndexError,
                        "string index out of range",
                    )),
                }
            }
            Value::Range(r) => {
                if let Value::Slice(sl) = key {
                    // A range's slice is a range (CPython's compute_slice).
                    let (a, b, k) = self.slice_bounds(sl, r.len_exact() as i128)?;
                    let step = r
                        .step
                        .checked_mul(k)
                        .filter(|s| s.abs() <= super::super::value::RANGE_BOUND)
                        .ok_or_else(|| {
                            PyException::new(
                                ExcType::OverflowError,
                                "cudatutor's range() takes ints up to 2**120 in magnitude",
                            )
                        })?;
                    return Ok(Value::Range(Rc::new(super::super::value::RangeObj {
                        start: r.start + a * r.step,
                        stop: r.start + b * r.step,
                        step,
                    })));
                }
                if let Some(k) = bigint::to_i128(key) {
                    let n = r.len_exact() as i128;
                    let k = if k < 0 { k + n } else { k };
                    return match (k >= 0).then(|| r.item(k as u128)).flatten() {
                        Some(v) => Ok(bigint::from_i128(v)),
                        None => Err(PyException::new(
                            ExcType::IndexError,
                            "range object index out of range",
                        )),
                    };
                }
                match self.seq_index(key, r.len(), "range")? {
                    Some(i) => r.get(i).map(Value::Int).ok_or_else(|| {
                        PyException::new(ExcType::IndexError, "range object index out of range")
                    }),
                    None => Err(PyException::new(
                        ExcType::IndexError,
                        "range object index out of range",
                    )),
                }
            }
            Value::Dict(d) => {
                let k = self.key_in_cell(d, key)?;
                let v = d.borrow().get(&k).cloned();
                match v {
                    Some(v) => Ok(v),
                    None => Err(self.key_error(key)),
                }
            }
            Value::Instance(i) => match i.class.lookup_user("__getitem__") {
                Some(m) => self.call_bound(&m, obj.clone(), Args::new(vec![key.clone()])),
                None if let Some(base) = &i.base => self.subclass_getitem(obj, base, key),
                None => Err(PyException::new(
                    ExcType::TypeError,
                    format!("'{}' object is not subscriptable", i.class.name),
                )),
            },
            Value::Native(n) => {
                let n = n.clone();
                match n.getitem(NativeCx::new(&n, self), key)? {
                    Some(v) => Ok(v),
                    None => Err(PyException::new(
                        ExcType::TypeError,
                        format!("'{}' object is not subscriptable", n.type_name()),
                    )),
                }
            }
            // `list[int]` and friends in annotations.
            Value::Class(c) if matches!(c.kind, ClassKind::Builtin(_)) => Ok(obj.clone()),
            _ => Err(PyException::new(
                ExcType::TypeError,
                format!("'{}' object is not subscriptable", obj.type_name()),
            )),
        }
    }

    pub(crate) fn key_error(&mut self, key: &Value) -> PyException {
        let cls = self.exc_class(ExcType::KeyError);
        PyException::from_value(self.new_exception_instance(&cls, vec![key.clone()]))
    }

    /// `obj[key] = v`.
    pub fn setitem(&mut self, obj: &Value, key: &Value, v: Value) -> PyResult<()> {
        match obj {
            Value::List(l) => {
                if let Value::Slice(s) = key {
                    let items = self.iterate(&v)?;
                    let n = l.borrow().len();
                    let step_one = matches!(s[2], Value::None) || s[2].as_int() == Some(1);
                    if step_one {
                        let idx = self.slice_indices(s, n)?;
                        let start = match &s[0] {
                            Value::None => 0,
                            x => {
                                let x = self.index_int(x)?;
                                let x = if x < 0 { (x + n as i64).max(0) } else { x };
                                (x as usize).min(n)
                            }
                        };
                        let end = idx.last().map(|e| e + 1).unwrap_or(start).max(start);
                        if n + items.len() > MAX_ITEMS {
                            return Err(PyException::new(ExcType::MemoryError, ""));
                        }
                        budget_for::<Value>(n + items.len())?;
                        let mut lb = l.borrow_mut();
                        let removed: Vec<Value> = lb.splice(start..end.min(n), items).collect();
                        drop(lb);
                        drop(removed);
                        return Ok(());
                    }
                    let idx = self.slice_indices(s, n)?;
                    if idx.len() != items.len() {
                        return Err(PyException::new(
                            ExcType::ValueError,
                            format!(
                                "attempt to assign sequence of size {} to extended slice of size {}",
                                items.len(),
                                idx.len()
                            ),
                        ));
                    }
                    let mut lb = l.borrow_mut();
                    let mut old = Vec::new();
                    for (i, x) in idx.into_iter().zip(items) {
                        if let Some(slot) = lb.get_mut(i) {
                            old.push(std::mem::replace(slot, x));
                        }
                    }
                    drop(lb);
                    drop(old);
                    return Ok(());
                }
                let n = l.borrow().len();
                let i = self.list_assignment_index(key, n)?;
                let old = l.borrow_mut().get_mut(i).map(|s| std::mem::replace(s, v));
                drop(old);
                Ok(())
            }
            Value::Dict(d) => {
                let k = match key {
                    // No `__eq__` to ask: the key is its own.
                    Value::Int(i) => HKey::Int(*i),
                    Value::Str(s) => HKey::Str(s.clone()),
                    _ => self.key_in_cell(d, key)?,
                };
                let mut db = d.borrow_mut();
                dict_grow_check(&db)?;
                let old = db.insert(k, key.clone(), v);
                drop(db);
                drop(old);
                Ok(())
            }
            Value::Instance(i) => match i.class.lookup_user("__setitem__") {
                Some(m) => self
                    .call_bound(&m, obj.clone(), Args::new(vec![key.clone(), v]))
                    .map(|_| ()),
                None if let Some(base) = &i.base => self.setitem(base, key, v),
                None => Err(PyException::no_item_assignment(&i.class.name)),
            },
            Value::Native(n) => {
                let n = n.clone();
                if n.setitem(NativeCx::new(&n, self), key, v)? {
                    Ok(())
                } else {
                    Err(PyException::no_item_assignment(n.type_name()))
                }
            }
            _ => Err(PyException::no_item_assignment(obj.type_name())),
        }
    }

    /// The index `list[key] = v` and `del list[key]` act on; CPython words an index out of
    /// range the same way for both.
    fn list_assignment_index(&mut self, key: &Value, n: usize) -> PyResult<usize> {
        self.seq_index(key, n, "list")?
            .ok_or_else(|| PyException::index_error("list assignment index out of range"))
    }

    /// `del obj[key]`.
    pub(crate) fn delitem(&mut self, obj: &Value, key: &Value) -> PyResult<()> {
        match obj {
            Value::List(l) => {
                let n = l.borrow().len();
                if let Value::Slice(s) = key {
                    let mut idx = self.slice_indices(s, n)?;
                    idx.sort_unstable();
                    idx.dedup();
                    let mut old = Vec::new();
                    let mut lb = l.borrow_mut();
                    for i in idx.into_iter().rev() {
                        if i < lb.len() {
                            old.push(lb.remove(i));
                        }
                    }
                    drop(lb);
                    drop(old);
                    return Ok(());
                }
                let i = self.list_assignment_index(key, n)?;
                let old = l.borrow_mut().remove(i);
                drop(old);
                Ok(())
            }
            Value::Dict(d) => {
                let k = self.key_in_cell(d, key)?;
                let old = d.borrow_mut().remove(&k);
                match old {
                    Some(x) => {
                        drop(x);
                        Ok(())
                    }
                    None => Err(self.key_error(key)),
                }
            }
            Value::Instance(i) => match i.class.lookup_user("__delitem__") {
                Some(m) => self
                    .call_bound(&m, obj.clone(), Args::new(vec![key.clone()]))
                    .map(|_| ()),
                None if let Some(base) = &i.base => self.delitem(base, key),
                None => Err(PyException::no_item_deletion(&i.class.name)),
            },
            Value::Native(n) => {
                let n = n.clone();
                if n.delitem(NativeCx::new(&n, self), key)? {
                    Ok(())
                } else {
                    Err(PyException::no_item_deletion(n.type_name()))
                }
            }
            _ => Err(PyException::no_item_deletion(obj.type_name())),
        }
    }

    /// `with` entry.
    pub(crate) fn ctx_enter(&mut self, mgr: &Value) -> PyResult<Value> {
        match mgr {
            Value::Native(n) => {
                let n = n.clone();
                match n.enter(NativeCx::new(&n, self))? {
                    Some(v) => Ok(v),
                    None => Err(PyException::new(
                        ExcType::TypeError,
                        format!(
                            "'{}' object does not support the context manager protocol",
                            n.type_name()
                        ),
                    )),
                }
            }
            Value::Instance(i) => match (
                i.class.lookup_user("__enter__"),
                i.class.lookup_user("__exit__"),
            ) {
                (Some(m), Some(_)) => self.call_bound(&m, mgr.clone(), Args::default()),
                _ => Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "'{}' object does not support the context manager protocol",
                        i.class.name
                    ),
                )),
            },
            _ => Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "'{}' object does not support the context manager protocol",
                    mgr.type_name()
                ),
            )),
        }
    }

    /// `with` exit; true = swallow the exception.
    pub(crate) fn ctx_exit(&mut self, mgr: &Value, exc: Option<&Value>) -> PyResult<bool> {
        match mgr {
            Value::Native(n) => {
                let n = n.clone();
                n.exit(NativeCx::new(&n, self), exc)
            }
            Value::Instance(i) => {
                let Some(m) = i.class.lookup_user("__exit__") else {
                    return Ok(false);
                };
                let args = match exc {
                    Some(e) => {
                        let t = Value::Class(self.type_of(e));
                        vec![t, e.clone(), Value::None]
                    }
                    None => vec![Value::None, Value::None, Value::None],
                };
                let r = self.call_bound(&m, mgr.clone(), Args::new(args))?;
                if exc.is_some() {
                    self.truthy(&r)
                } else {
                    Ok(false)
                }
            }
            _ => Ok(false),
        }
    }
}

/// "cannot fit 'int' into an index-sized integer" (IndexError for `x[10**20]`, OverflowError
/// for `'a' * 10**20`).
pub(crate) fn index_size_error(kind: ExcType) -> PyException {
    PyException::new(kind, "cannot fit 'int' into an index-sized integer")
}

/// Ordering of two numbers (ints of any size, bools, floats), exact as CPython's;
/// `None` when a NaN is involved.
fn num_cmp(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    use std::cmp::Ordering;
    match (a, b) {
        (Value::Float(x), Value::Float(y)) => x.partial_cmp(y),
        (Value::Float(x), Value::BigInt(y)) => bigint::cmp_int_float(y, *x).map(Ordering::reverse),
        (Value::BigInt(x), Value::Float(y)) => bigint::cmp_int_float(x, *y),
        (Value::Float(x), _) => bigint::cmp_i64_float(b.as_int()?, *x).map(Ordering::reverse),
        (_, Value::Float(y)) => bigint::cmp_i64_float(a.as_int()?, *y),
        (Value::BigInt(x), Value::BigInt(y)) => Some(x.cmp(y)),
        // A big int is outside the i64 range: its sign decides.
        (Value::BigInt(x), _) => Some(x.sign().cmp(&num_bigint::Sign::NoSign)),
        (_, Value::BigInt(y)) => Some(num_bigint::Sign::NoSign.cmp(&y.sign())),
        _ => Some(a.as_int()?.cmp(&b.as_int()?)),
    }
}

/// A stable fake address for reprs (`0x7f…`): the object's pointer.
pub(crate) fn addr(v: &Value) -> String {
    format!("0x{:012x}", v.ptr_id().unwrap_or(0))
}
