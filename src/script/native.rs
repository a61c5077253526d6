//! The native-object interface: how Rust types (the torch bindings' Tensor, device, dtype, Size,
//! generators…) become Python values with attributes, operators, iteration and `with` support.
//!
//! Every trait method has a default, so an implementor writes only what its type needs; the
//! defaults answer "not supported", and the interpreter turns that into CPython's own error
//! (`AttributeError: 'Tensor' object has no attribute 'x'`, `TypeError: unsupported operand
//! type(s) for +: 'Tensor' and 'str'`, `TypeError: 'Tensor' object is not iterable`, …).

use std::any::Any;
use std::rc::Rc;

use super::errors::{PyException, PyResult};
use super::interp::Interpreter;
use super::value::Value;
use crate::script::ExcType;

/// Binary operators, as they reach [`NativeObject::binary_op`]. `InPlace` forms are not separate:
/// `a += b` first asks for `iadd` via [`NativeObject::inplace_op`], then falls back to `binary_op`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    MatMul,
    TrueDiv,
    FloorDiv,
    Mod,
    Pow,
    LShift,
    RShift,
    And,
    Or,
    Xor,
}

impl BinOp {
    /// The operator as CPython spells it in "unsupported operand type(s) for +: …".
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::MatMul => "@",
            BinOp::TrueDiv => "/",
            BinOp::FloorDiv => "//",
            BinOp::Mod => "%",
            BinOp::Pow => "** or pow()",
            BinOp::LShift => "<<",
            BinOp::RShift => ">>",
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Xor => "^",
        }
    }
    /// The dunder name (`__add__`); the reflected one is `__r` + the rest (`__radd__`).
    pub(crate) fn dunder(self) -> &'static str {
        match self {
            BinOp::Add => "__add__",
            BinOp::Sub => "__sub__",
            BinOp::Mul => "__mul__",
            BinOp::MatMul => "__matmul__",
            BinOp::TrueDiv => "__truediv__",
            BinOp::FloorDiv => "__floordiv__",
            BinOp::Mod => "__mod__",
            BinOp::Pow => "__pow__",
            BinOp::LShift => "__lshift__",
            BinOp::RShift => "__rshift__",
            BinOp::And => "__and__",
            BinOp::Or => "__or__",
            BinOp::Xor => "__xor__",
        }
    }
    pub(crate) fn rdunder(self) -> &'static str {
        match self {
            BinOp::Add => "__radd__",
            BinOp::Sub => "__rsub__",
            BinOp::Mul => "__rmul__",
            BinOp::MatMul => "__rmatmul__",
            BinOp::TrueDiv => "__rtruediv__",
            BinOp::FloorDiv => "__rfloordiv__",
            BinOp::Mod => "__rmod__",
            BinOp::Pow => "__rpow__",
            BinOp::LShift => "__rlshift__",
            BinOp::RShift => "__rrshift__",
            BinOp::And => "__rand__",
            BinOp::Or => "__ror__",
            BinOp::Xor => "__rxor__",
        }
    }
    pub(crate) fn idunder(self) -> &'static str {
        match self {
            BinOp::Add => "__iadd__",
            BinOp::Sub => "__isub__",
            BinOp::Mul => "__imul__",
            BinOp::MatMul => "__imatmul__",
            BinOp::TrueDiv => "__itruediv__",
            BinOp::FloorDiv => "__ifloordiv__",
            BinOp::Mod => "__imod__",
            BinOp::Pow => "__ipow__",
            BinOp::LShift => "__ilshift__",
            BinOp::RShift => "__irshift__",
            BinOp::And => "__iand__",
            BinOp::Or => "__ior__",
            BinOp::Xor => "__ixor__",
        }
    }
}

/// What [`NativeObject::binary_op`] is asked: `x <op> other`, or `other <op> x` when
/// `reflected` (`2 * t` reaches the tensor reflected, after int declined). One value rather than
/// three parameters because the side travels with the operand: [`BinaryCall::in_order`] is the
/// one place that puts the object's side and the other's back in the operator's order.
#[derive(Clone, Copy)]
pub struct BinaryCall<'a> {
    pub op: BinOp,
    pub other: &'a Value,
    pub reflected: bool,
}

impl BinaryCall<'_> {
    /// `(left, right)` of the operator, from the asked object's side and the other operand's.
    pub fn in_order<T>(self, mine: T, theirs: T) -> (T, T) {
        if self.reflected {
            (theirs, mine)
        } else {
            (mine, theirs)
        }
    }
}

/// Unary operators (`-x`, `+x`, `~x`); `not x` is always truth-based and never reaches objects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Neg,
    Pos,
    Invert,
}

impl UnaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Neg => "unary -",
            UnaryOp::Pos => "unary +",
            UnaryOp::Invert => "unary ~",
        }
    }
    pub(crate) fn dunder(self) -> &'static str {
        match self {
            UnaryOp::Neg => "__neg__",
            UnaryOp::Pos => "__pos__",
            UnaryOp::Invert => "__invert__",
        }
    }
}

/// Rich comparisons. `in`/`is` are not here: `in` goes to [`NativeObject::contains`], `is` is
/// identity and never asks the object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
    pub(crate) fn dunder(self) -> &'static str {
        match self {
            CmpOp::Eq => "__eq__",
            CmpOp::Ne => "__ne__",
            CmpOp::Lt => "__lt__",
            CmpOp::Le => "__le__",
            CmpOp::Gt => "__gt__",
            CmpOp::Ge => "__ge__",
        }
    }
    /// Whether `a <op> b` holds for two values of one ordered type (false for a NaN, as IEEE
    /// comparisons are, but for `!=`).
    pub(crate) fn holds<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }
    /// The operator with its operands swapped (`a < b` ⇔ `b > a`), used for the reflected try.
    pub fn swapped(self) -> CmpOp {
        match self {
            CmpOp::Eq => CmpOp::Eq,
            CmpOp::Ne => CmpOp::Ne,
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
        }
    }
}

/// The arguments of one call, as the caller wrote them (after `*args`/`**kwargs` expansion).
#[derive(Default, Clone)]
pub struct Args {
    pub positional: Vec<Value>,
    pub keywords: Vec<(String, Value)>,
}

impl Args {
    pub fn new(positional: Vec<Value>) -> Args {
        Args {
            positional,
            keywords: Vec::new(),
        }
    }
    pub(crate) fn with_keywords(positional: Vec<Value>, keywords: Vec<(String, Value)>) -> Args {
        Args {
            positional,
            keywords,
        }
    }
    pub fn len(&self) -> usize {
        self.positional.len() + self.keywords.len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Remove and return the keyword argument `name`, if given.
    pub(crate) fn take_kw(&mut self, name: &str) -> Option<Value> {
        let i = self.keywords.iter().position(|(k, _)| k == name)?;
        Some(self.keywords.remove(i).1)
    }

    /// Bind the arguments to named parameters like a Python `def f(a, b, c=...)` would, with
    /// CPython's TypeErrors. `params` lists parameter names; the first `required` must be given.
    /// A name starting with `*` (`"*dims"`) collects the remaining positionals into a tuple
    /// (it then is the last positional parameter); names after it are keyword-only. Unknown
    /// keywords raise "f() got an unexpected keyword argument 'x'" unless `allow_extra_kw`.
    /// Returns one slot per parameter (`None` = not given).
    pub fn bind(
        &self,
        fname: &str,
        params: &[&str],
        required: usize,
    ) -> PyResult<Vec<Option<Value>>> {
        let mut out: Vec<Option<Value>> = vec![None; params.len()];
        let star = params.iter().position(|p| p.starts_with('*'));
        let npos = star.unwrap_or(params.len());
        if self.positional.len() > npos && star.is_none() {
            let given = self.positional.len();
            let msg = if required == npos {
                format!(
                    "{fname}() takes {npos} positional argument{} but {given} {} given",
                    if npos == 1 { "" } else { "s" },
                    if given == 1 { "was" } else { "were" }
                )
            } else {
                format!(
                    "{fname}() takes from {required} to {npos} positional arguments but {given} {} given",
                    if given == 1 { "was" } else { "were" }
                )
            };
            return Err(PyException::new(ExcType::TypeError, msg));
        }
        for (i, v) in self.positional.iter().enumerate() {
            if i < npos {
                out[i] = Some(v.clone());
            }
        }
        if let Some(s) = star {
            let rest: Vec<Value> = self.positional.iter().skip(npos).cloned().collect();
            out[s] = Some(Value::tuple(rest));
        }
        for (k, v) in &self.keywords {
            match params
                .iter()
                .position(|p| p.trim_start_matches('*') == k && !p.starts_with('*'))
            {
                Some(i) => bind_keyword(&mut out[i], fname, k, v)?,
                None => return Err(unexpected_keyword(fname, k)),
            }
        }
        let missing: Vec<&str> = params
            .iter()
            .take(required)
            .enumerate()
            .filter(|(i, _)| out[*i].is_none())
            .map(|(_, p)| *p)
            .collect();
        if !missing.is_empty() {
            return Err(PyException::new(
                ExcType::TypeError,
                missing_args_message(fname, &missing, "positional"),
            ));
        }
        Ok(out)
    }

    /// Exactly `n` positional arguments and no keywords (CPython: "f() takes exactly one argument").
    pub fn exact(&self, fname: &str, n: usize) -> PyResult<&[Value]> {
        if !self.keywords.is_empty() {
            return Err(PyException::new(
                ExcType::TypeError,
                format!("{fname}() takes no keyword arguments"),
            ));
        }
        if self.positional.len() != n {
            let msg = match n {
                0 => format!(
                    "{fname}() takes no arguments ({} given)",
                    self.positional.len()
                ),
                1 => format!(
                    "{fname}() takes exactly one argument ({} given)",
                    self.positional.len()
                ),
                _ => format!(
                    "{fname}() takes exactly {n} arguments ({} given)",
                    self.positional.len()
                ),
            };
            return Err(PyException::new(ExcType::TypeError, msg));
        }
        Ok(&self.positional)
    }

    /// Between `min` and `max` positional arguments, no keywords.
    pub fn range(&self, fname: &str, min: usize, max: usize) -> PyResult<&[Value]> {
        if !self.keywords.is_empty() {
            return Err(PyException::new(
                ExcType::TypeError,
                format!("{fname}() takes no keyword arguments"),
            ));
        }
        let n = self.positional.len();
        if n < min {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "{fname} expected at least {min} argument{}, got {n}",
                    if min == 1 { "" } else { "s" }
                ),
            ));
        }
        if n > max {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "{fname} expected at most {max} argument{}, got {n}",
                    if max == 1 { "" } else { "s" }
                ),
            ));
        }
        Ok(&self.positional)
    }
}

/// CPython's "f() missing 2 required positional arguments: 'a' and 'b'".
/// A keyword argument into its parameter's slot, which a positional argument may have filled
/// already (CPython's TypeError then).
pub(crate) fn bind_keyword(
    slot: &mut Option<Value>,
    fname: &str,
    keyword: &str,
    v: &Value,
) -> PyResult<()> {
    if slot.is_some() {
        return Err(PyException::type_error(format!(
            "{fname}() got multiple values for argument '{keyword}'"
        )));
    }
    *slot = Some(v.clone());
    Ok(())
}

/// CPython's TypeError for a keyword that names no parameter.
pub(crate) fn unexpected_keyword(fname: &str, keyword: &str) -> PyException {
    PyException::type_error(format!(
        "{fname}() got an unexpected keyword argument '{keyword}'"
    ))
}

pub(crate) fn missing_args_message(fname: &str, missing: &[&str], kind: &str) -> String {
    let quoted: Vec<String> = missing.iter().map(|m| format!("'{m}'")).collect();
    let list = match quoted.len() {
        0 => String::new(),
        1 => quoted[0].clone(),
        2 => format!("{} and {}", quoted[0], quoted[1]),
        n => format!("{}, and {}", quoted[..n - 1].join(", "), quoted[n - 1]),
    };
    format!(
        "{fname}() missing {} required {kind} argument{}: {list}",
        missing.len(),
        if missing.len() == 1 { "" } else { "s" }
    )
}

/// What every [`NativeObject`] method is called with besides `self` and its own operands: the
/// object as the `Rc` the script holds, and the interpreter. One value rather than two
/// parameters, so each method's signature says only what is particular to it; implementors
/// take the parts they use by destructuring (`NativeCx { it, .. }: NativeCx<'_>`).
pub struct NativeCx<'a> {
    /// The same object as `self`, as the script's `Rc`: capture a clone of it in bound methods
    /// (`Value::native_fn` closures) so that `t.sum` keeps the tensor alive exactly as long as
    /// the bound method lives.
    pub this: &'a Rc<dyn NativeObject>,
    pub it: &'a mut Interpreter,
}

impl<'a> NativeCx<'a> {
    pub fn new(this: &'a Rc<dyn NativeObject>, it: &'a mut Interpreter) -> NativeCx<'a> {
        NativeCx { this, it }
    }
}

/// A Rust object living in the script as a Python value (`Value::Native`).
///
/// Each method gets a [`NativeCx`] with the object's `Rc` and the interpreter. Return
/// `Ok(None)` for "not supported here": the interpreter then does what CPython does (tries the
/// reflected operator, raises the standard TypeError, …).
#[allow(unused_variables)]
pub trait NativeObject: Any {
    /// The Python type name: `type(x).__name__`, and the name in error messages.
    fn type_name(&self) -> &str;
    /// The builtin type this native's Python class derives from, with the class's module:
    /// `torch.return_types.max` is a tuple subclass, so `isinstance(r, tuple)` holds as in
    /// PyTorch. `None`: a plain subclass of `object` in module `torch`.
    fn builtin_base(&self) -> Option<(&'static str, super::value::BuiltinType)> {
        None
    }

    /// `x.name`. `Ok(None)` → `AttributeError: 'T' object has no attribute 'name'`. The
    /// default answers from [`NativeObject::plain_attr`].
    fn getattr(&self, cx: NativeCx<'_>, name: &str) -> PyResult<Option<Value>> {
        Ok(self.plain_attr(name))
    }
    /// `x.name` for attributes read off the object alone (`dtype.itemsize`, `device.type`): most
    /// small natives need neither the script's `Rc` nor the interpreter, and cannot fail, so
    /// they write this instead of [`NativeObject::getattr`].
    fn plain_attr(&self, name: &str) -> Option<Value> {
        None
    }
    /// `x.name(...)` for a method reached through `Value::BuiltinMethod` (what `getattr` returns
    /// for types that keep a method table instead of building a closure per attribute access).
    /// `Ok(None)`: no such method.
    fn call_method(&self, cx: NativeCx<'_>, name: &str, args: Args) -> PyResult<Option<Value>> {
        Ok(None)
    }
    /// `x.name = v`. `Ok(false)` → AttributeError.
    fn setattr(&self, cx: NativeCx<'_>, name: &str, v: Value) -> PyResult<bool> {
        Ok(false)
    }
    /// `callable(x)`: true only for the types that implement [`NativeObject::call`] (a
    /// tensor, a dtype or a generator is not callable).
    fn is_callable(&self) -> bool {
        false
    }
    /// `x(...)`. The default raises `TypeError: 'T' object is not callable`.
    fn call(&self, cx: NativeCx<'_>, args: Args) -> PyResult<Value> {
        Err(PyException::new(
            ExcType::TypeError,
            format!("'{}' object is not callable", self.type_name()),
        ))
    }
    /// `x <op> other` (`call.reflected` false) or `other <op> x` (true). `Ok(None)` =
    /// NotImplemented.
    fn binary_op(&self, cx: NativeCx<'_>, call: BinaryCall<'_>) -> PyResult<Option<Value>> {
        Ok(None)
    }
    /// `x <op>= other` in place (`t += 1`). `Ok(None)` → falls back to `binary_op` and rebinding.
    fn inplace_op(&self, cx: NativeCx<'_>, op: BinOp, other: &Value) -> PyResult<Option<Value>> {
        Ok(None)
    }
    fn unary_op(&self, cx: NativeCx<'_>, op: UnaryOp) -> PyResult<Option<Value>> {
        Ok(None)
    }
    /// Rich comparison. `Ok(None)` = NotImplemented (then `==` falls back to identity, `<`
    /// raises "'<' not supported between instances of …"). The default answers `==` and `!=`
    /// from [`NativeObject::equals`].
    fn compare(&self, cx: NativeCx<'_>, op: CmpOp, other: &Value) -> PyResult<Option<Value>> {
        Ok(match (op, self.equals(other)) {
            (CmpOp::Eq, Some(same)) => Some(Value::Bool(same)),
            (CmpOp::Ne, Some(same)) => Some(Value::Bool(!same)),
            _ => None,
        })
    }
    /// For value-like natives that define only equality (dtype, device, memory_format):
    /// whether `other` is the same value, `None` when it is not comparable (NotImplemented).
    /// Ordering them stays a TypeError, as in PyTorch.
    fn equals(&self, other: &Value) -> Option<bool> {
        None
    }
    /// `x[key]`; slices arrive as `Value::Slice`, `x[a, b]` as a tuple.
    fn getitem(&self, cx: NativeCx<'_>, key: &Value) -> PyResult<Option<Value>> {
        Ok(None)
    }
    /// `x[key] = v`. `Ok(false)` → "'T' object does not support item assignment".
    fn setitem(&self, cx: NativeCx<'_>, key: &Value, v: Value) -> PyResult<bool> {
        Ok(false)
    }
    /// `del x[key]`. `Ok(false)` → "'T' object doesn't support item deletion".
    fn delitem(&self, cx: NativeCx<'_>, key: &Value) -> PyResult<bool> {
        Ok(false)
    }
    /// `len(x)`. `Ok(None)` → "object of type 'T' has no len()".
    fn len(&self, cx: NativeCx<'_>) -> PyResult<Option<usize>> {
        Ok(None)
    }
    /// `iter(x)` / `for v in x`: return an iterator value — e.g. `Value::iter_from_vec(items)`,
    /// or a native object that implements [`NativeObject::next`]. `Ok(None)` falls back to
    /// `getitem` with 0, 1, 2… until IndexError when `len` is known, else "not iterable".
    fn iter(&self, cx: NativeCx<'_>) -> PyResult<Option<Value>> {
        Ok(None)
    }
    /// For native iterators: the next item, `Ok(None)` when exhausted (StopIteration).
    fn next(&self, cx: NativeCx<'_>) -> PyResult<Option<Value>> {
        Err(PyException::new(
            ExcType::TypeError,
            format!("'{}' object is not an iterator", self.type_name()),
        ))
    }
    /// Truth value (`if x:`). `Ok(None)` → `len` if known, else true.
    fn bool(&self, cx: NativeCx<'_>) -> PyResult<Option<bool>> {
        Ok(None)
    }
    /// `repr(x)`. `Ok(None)` → `<T object at 0x…>`. The default answers from
    /// [`NativeObject::plain_repr`].
    fn repr(&self, cx: NativeCx<'_>) -> PyResult<Option<String>> {
        Ok(self.plain_repr())
    }
    /// `repr(x)` when it is made from the object alone (`torch.float32`, `device(type='cpu')`).
    fn plain_repr(&self) -> Option<String> {
        None
    }
    /// `str(x)` / `print(x)`. `Ok(None)` → repr.
    fn str(&self, cx: NativeCx<'_>) -> PyResult<Option<String>> {
        Ok(None)
    }
    /// `format(x, spec)` / `f"{x:spec}"`. `Ok(None)` → str(x) if spec is empty, else TypeError.
    fn format(&self, cx: NativeCx<'_>, spec: &str) -> PyResult<Option<String>> {
        Ok(None)
    }
    /// `hash(x)`; `Ok(None)` → identity hash (like object.__hash__). Objects that return a
    /// hash are dict keys equal when their hashes and type names are equal.
    fn hash(&self, cx: NativeCx<'_>) -> PyResult<Option<i64>> {
        Ok(None)
    }
    /// `with x as v:` entry; the returned value is bound to `v`. `Ok(None)` → TypeError
    /// "'T' object does not support the context manager protocol".
    fn enter(&self, cx: NativeCx<'_>) -> PyResult<Option<Value>> {
        Ok(None)
    }
    /// `with` exit; `exc` is the exception instance when the body raised. Return `Ok(true)` to
    /// swallow it.
    fn exit(&self, cx: NativeCx<'_>, exc: Option<&Value>) -> PyResult<bool> {
        Ok(false)
    }
    /// `v in x`. `Ok(None)` → iterate and compare.
    fn contains(&self, cx: NativeCx<'_>, v: &Value) -> PyResult<Option<bool>> {
        Ok(None)
    }
    /// `int(x)`, `float(x)`, `x.__index__` (range(n) where n is a 0-d tensor): conversions.
    fn to_int(&self, cx: NativeCx<'_>) -> PyResult<Option<i64>> {
        Ok(None)
    }
    fn to_float(&self, cx: NativeCx<'_>) -> PyResult<Option<f64>> {
        Ok(None)
    }
    /// `dir(x)` helpers and `hasattr` do not need this; it only feeds `dir()`.
    fn dir(&self) -> Vec<String> {
        Vec::new()
    }
}

impl dyn NativeObject {
    /// For downcasting in the bindings: `obj.as_any().downcast_ref::<Tensor>()` (trait
    /// upcasting: every native object is `Any`, so no type writes this itself).
    pub fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A Rust function as a Python callable (`builtin_function_or_method`).
pub struct NativeFn {
    pub name: Rc<str>,
    pub f: NativeBody,
}

/// The Rust body of a [`NativeFn`].
pub(crate) type NativeBody = Box<dyn Fn(&mut Interpreter, Args) -> PyResult<Value>>;
