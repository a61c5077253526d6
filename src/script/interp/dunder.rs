//! The special methods of builtin values read as attributes (`d.__setitem__`, `xs.__len__`,
//! `"a".__add__`): CPython's builtin types have them as slot wrappers, and scripts pass them
//! around (`lambda m, i, o: acts.__setitem__("out", o)`). Each is a bound function doing what
//! the matching syntax does.

use super::super::errors::PyResult;
use super::super::native::{Args, BinOp, CmpOp};
use super::super::value::Value;
use super::Interpreter;

/// Which special methods a builtin value has: item access on containers, size and membership
/// on collections, arithmetic and comparison on everything the operators accept.
fn has(obj: &Value, name: &str) -> bool {
    let seq = matches!(
        obj,
        Value::List(_) | Value::Tuple(_) | Value::Str(_) | Value::Range(_)
    );
    let mapping = matches!(obj, Value::Dict(_));
    let collection = seq || mapping || matches!(obj, Value::Set(_));
    let number = matches!(
        obj,
        Value::Int(_) | Value::BigInt(_) | Value::Float(_) | Value::Bool(_)
    );
    match name {
        "__getitem__" => seq || mapping,
        "__setitem__" | "__delitem__" => matches!(obj, Value::List(_) | Value::Dict(_)),
        "__len__" | "__contains__" | "__iter__" => collection,
        "__add__" | "__mul__" => {
            number || matches!(obj, Value::List(_) | Value::Tuple(_) | Value::Str(_))
        }
        "__sub__" | "__truediv__" | "__floordiv__" | "__mod__" | "__pow__" => number,
        "__eq__" | "__ne__" | "__lt__" | "__le__" | "__gt__" | "__ge__" | "__repr__"
        | "__str__" => !matches!(
            obj,
            Value::Module(_) | Value::Class(_) | Value::Instance(_) | Value::Native(_)
        ),
        _ => false,
    }
}

fn binop(name: &str) -> Option<BinOp> {
    Some(match name {
        "__add__" => BinOp::Add,
        "__sub__" => BinOp::Sub,
        "__mul__" => BinOp::Mul,
        "__truediv__" => BinOp::TrueDiv,
        "__floordiv__" => BinOp::FloorDiv,
        "__mod__" => BinOp::Mod,
        "__pow__" => BinOp::Pow,
        _ => return None,
    })
}

fn cmpop(name: &str) -> Option<CmpOp> {
    Some(match name {
        "__eq__" => CmpOp::Eq,
        "__ne__" => CmpOp::Ne,
        "__lt__" => CmpOp::Lt,
        "__le__" => CmpOp::Le,
        "__gt__" => CmpOp::Gt,
        "__ge__" => CmpOp::Ge,
        _ => return None,
    })
}

fn call(it: &mut Interpreter, obj: &Value, name: &str, args: Args) -> PyResult<Value> {
    let want = match name {
        "__len__" | "__iter__" | "__repr__" | "__str__" => 0,
        "__setitem__" => 2,
        _ => 1,
    };
    let a = args.exact(name, want)?;
    if let Some(op) = binop(name) {
        return it.binary_op(op, obj, &a[0]);
    }
    if let Some(op) = cmpop(name) {
        return it.compare(op, obj, &a[0]);
    }
    match name {
        "__getitem__" => it.getitem(obj, &a[0]),
        "__setitem__" => it.setitem(obj, &a[0], a[1].clone()).map(|_| Value::None),
        "__delitem__" => it.delitem(obj, &a[0]).map(|_| Value::None),
        "__len__" => it.len(obj).map(|n| Value::Int(n as i64)),
        "__contains__" => it.contains(obj, &a[0]).map(Value::Bool),
        "__iter__" => it.get_iter(obj),
        "__repr__" => it.repr(obj).map(|s| Value::str(&s)),
        _ => it.str(obj).map(|s| Value::str(&s)),
    }
}

impl Interpreter {
    /// `obj.__NAME__` for a builtin value that has it, as a bound function.
    pub(crate) fn builtin_dunder(&self, obj: &Value, name: &str) -> Option<Value> {
        if !name.starts_with("__") || !has(obj, name) {
            return None;
        }
        let (obj, owned) = (obj.clone(), name.to_string());
        Some(Value::native_fn(name, move |it, args| {
            call(it, &obj, &owned, args)
        }))
    }
}
