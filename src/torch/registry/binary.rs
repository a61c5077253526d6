//! Binary elementwise ops whose signatures take a Tensor or a Number as `other` (and for a few
//! a Number as `self`), registered from one list: argument errors are PyTorch's
//! ("eq() received an invalid combination of arguments - got (int, int) ...", "maximum():
//! argument 'other' (position 2) must be Tensor, not int") and `out=` follows from the table.

use super::{Registry, inplace_value, tensor_value};
use crate::engine::{BinaryOp, Operand, Runtime};
use crate::script::{ExcType, Interpreter, PyException, PyResult, Value};
use crate::torch::argparse::Parsed;
use crate::torch::operand_of;
use std::rc::Rc;

/// PyTorch name → engine op.
const BINARY: &[(&str, BinaryOp)] = &[
    ("eq", BinaryOp::Eq),
    ("ne", BinaryOp::Ne),
    ("lt", BinaryOp::Lt),
    ("le", BinaryOp::Le),
    ("gt", BinaryOp::Gt),
    ("ge", BinaryOp::Ge),
    ("fmod", BinaryOp::Fmod),
    ("remainder", BinaryOp::Rem),
    ("maximum", BinaryOp::Maximum),
    ("minimum", BinaryOp::Minimum),
    ("atan2", BinaryOp::Atan2),
    ("arctan2", BinaryOp::Atan2),
    ("logical_and", BinaryOp::LogicalAnd),
    ("logical_or", BinaryOp::LogicalOr),
    ("logical_xor", BinaryOp::LogicalXor),
    ("bitwise_and", BinaryOp::BitAnd),
    ("bitwise_or", BinaryOp::BitOr),
    ("bitwise_xor", BinaryOp::BitXor),
    ("hypot", BinaryOp::Hypot),
    ("greater", BinaryOp::Gt),
    ("greater_equal", BinaryOp::Ge),
    ("less", BinaryOp::Lt),
    ("less_equal", BinaryOp::Le),
    ("not_equal", BinaryOp::Ne),
    ("multiply", BinaryOp::Mul),
    ("true_divide", BinaryOp::Div),
];

/// In-place name → engine op: the op's result written back into the receiver
/// (`Runtime::inplace`: a comparison's bools become 1/0 of the receiver's dtype, a float
/// result into an integer receiver is PyTorch's cast error).
const BINARY_INPLACE: &[(&str, BinaryOp)] = &[
    ("eq_", BinaryOp::Eq),
    ("ne_", BinaryOp::Ne),
    ("not_equal_", BinaryOp::Ne),
    ("lt_", BinaryOp::Lt),
    ("less_", BinaryOp::Lt),
    ("le_", BinaryOp::Le),
    ("less_equal_", BinaryOp::Le),
    ("gt_", BinaryOp::Gt),
    ("greater_", BinaryOp::Gt),
    ("ge_", BinaryOp::Ge),
    ("greater_equal_", BinaryOp::Ge),
    ("fmod_", BinaryOp::Fmod),
    ("remainder_", BinaryOp::Rem),
    ("logical_and_", BinaryOp::LogicalAnd),
    ("logical_or_", BinaryOp::LogicalOr),
    ("logical_xor_", BinaryOp::LogicalXor),
    ("bitwise_and_", BinaryOp::BitAnd),
    ("bitwise_or_", BinaryOp::BitOr),
    ("bitwise_xor_", BinaryOp::BitXor),
    ("hypot_", BinaryOp::Hypot),
    ("atan2_", BinaryOp::Atan2),
    ("arctan2_", BinaryOp::Atan2),
    ("multiply_", BinaryOp::Mul),
    ("true_divide_", BinaryOp::Div),
    ("floor_divide_", BinaryOp::FloorDiv),
];

/// The operand bound to `name` (a Tensor, or a Number where the overload takes a Scalar).
fn operand(a: &Parsed, name: &str) -> PyResult<Option<Operand>> {
    match a.value(name) {
        Some(v) => operand_of(v),
        None => Ok(None),
    }
}

/// `clamp_min(input, min)` / `clamp_max(input, max)`: a Tensor or a Number bound (a Number
/// clamps in the input's dtype, as `clamp(min=)` does).
fn clamp_min(_: &mut Interpreter, rt: &Rc<Runtime>, a: &Parsed) -> PyResult<Value> {
    let x = a.tensor("input")?;
    match operand(a, "min")? {
        // clamp_min(Tensor, Scalar) is a node of its own in PyTorch (derivatives.yaml)
        Some(Operand::Scalar(s)) => tensor_value(
            rt,
            rt.clamp(&x, Some(s), None)
                .map(|t| t.with_grad_fn_name("ClampMinBackward0")),
        ),
        lo => tensor_value(rt, rt.clamp_tensor(&x, lo.as_ref(), None)),
    }
}

fn clamp_max(_: &mut Interpreter, rt: &Rc<Runtime>, a: &Parsed) -> PyResult<Value> {
    let x = a.tensor("input")?;
    match operand(a, "max")? {
        Some(Operand::Scalar(s)) => tensor_value(
            rt,
            rt.clamp(&x, None, Some(s))
                .map(|t| t.with_grad_fn_name("ClampMaxBackward0")),
        ),
        hi => tensor_value(rt, rt.clamp_tensor(&x, None, hi.as_ref())),
    }
}

/// The operand bound to `other`.
fn other(a: &Parsed, name: &str) -> PyResult<Operand> {
    operand(a, "other")?
        .ok_or_else(|| PyException::new(ExcType::TypeError, format!("{name}(): missing other")))
}

/// `subtract(input, other, *, alpha=1)`: `sub`.
fn subtract(_: &mut Interpreter, rt: &Rc<Runtime>, a: &Parsed) -> PyResult<Value> {
    let alpha = crate::torch::alpha_of(a.value("alpha"), "subtract")?;
    let x = Operand::Tensor(a.tensor("input")?);
    tensor_value(
        rt,
        rt.binary_alpha(BinaryOp::Sub, &x, &other(a, "subtract")?, alpha),
    )
}

fn subtract_(_: &mut Interpreter, rt: &Rc<Runtime>, a: &Parsed) -> PyResult<Value> {
    let alpha = crate::torch::alpha_of(a.value("alpha"), "subtract_")?;
    let r = rt.inplace_alpha(
        BinaryOp::Sub,
        &a.tensor("input")?,
        &other(a, "subtract_")?,
        alpha,
    );
    inplace_value(a, r)
}

/// `divide(input, other, *, rounding_mode=None)`: `div`.
fn divide(_: &mut Interpreter, rt: &Rc<Runtime>, a: &Parsed) -> PyResult<Value> {
    let op = crate::torch::functions::div_mode(a.value("rounding_mode"))?;
    let x = Operand::Tensor(a.tensor("input")?);
    tensor_value(rt, rt.binary(op, &x, &other(a, "divide")?))
}

fn divide_(_: &mut Interpreter, rt: &Rc<Runtime>, a: &Parsed) -> PyResult<Value> {
    let op = crate::torch::functions::div_mode(a.value("rounding_mode"))?;
    inplace_value(
        a,
        rt.inplace(op, &a.tensor("input")?, &other(a, "divide_")?),
    )
}

pub(super) fn register(r: &mut Registry) {
    r.add("clamp_min", clamp_min);
    r.add("clamp_max", clamp_max);
    r.add("subtract", subtract);
    r.add("subtract_", subtract_);
    r.add("divide", divide);
    r.add("divide_", divide_);
    for &(name, op) in BINARY_INPLACE {
        r.add_boxed(
            name,
            Box::new(move |_: &mut Interpreter, rt: &Rc<Runtime>, a: &Parsed| {
                inplace_value(a, rt.inplace(op, &a.tensor("input")?, &other(a, name)?))
            }),
        );
    }
    for &(name, op) in BINARY {
        r.add_boxed(
            name,
            Box::new(move |_: &mut Interpreter, rt: &Rc<Runtime>, a: &Parsed| {
                // `bitwise_and(Scalar self, Tensor other)` binds its number as `self`
                let x = match operand(a, "input")? {
                    Some(x) => x,
                    None => operand(a, "self")?.ok_or_else(|| {
                        PyException::new(ExcType::TypeError, format!("{name}(): missing input"))
                    })?,
                };
                let y = operand(a, "other")?.ok_or_else(|| {
                    PyException::new(ExcType::TypeError, format!("{name}(): missing other"))
                })?;
                tensor_value(rt, rt.binary(op, &x, &y))
            }),
        );
    }
}
