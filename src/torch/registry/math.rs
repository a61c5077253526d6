//! Elementwise math: every unary op of the engine, registered from one list.

use super::{Registry, tensor_value};
use crate::engine::{Runtime, UnaryOp};
use crate::script::Interpreter;
use crate::torch::argparse::Parsed;
use std::rc::Rc;

/// PyTorch name → engine op. Aliases (`arcsin`, `fix`) are PyTorch's own names, each with its
/// own signature in the table.
const UNARY: &[(&str, UnaryOp)] = &[
    ("abs", UnaryOp::Abs),
    ("absolute", UnaryOp::Abs),
    ("exp", UnaryOp::Exp),
    ("log", UnaryOp::Log),
    ("sqrt", UnaryOp::Sqrt),
    ("sigmoid", UnaryOp::Sigmoid),
    ("tanh", UnaryOp::Tanh),
    ("relu", UnaryOp::Relu),
    ("neg", UnaryOp::Neg),
    ("negative", UnaryOp::Neg),
    ("floor", UnaryOp::Floor),
    ("ceil", UnaryOp::Ceil),
    ("isnan", UnaryOp::IsNan),
    ("isfinite", UnaryOp::IsFinite),
    ("logical_not", UnaryOp::LogicalNot),
    ("sin", UnaryOp::Sin),
    ("cos", UnaryOp::Cos),
    ("sign", UnaryOp::Sign),
    ("reciprocal", UnaryOp::Reciprocal),
    ("log2", UnaryOp::Log2),
    ("log10", UnaryOp::Log10),
    ("log1p", UnaryOp::Log1p),
    ("expm1", UnaryOp::Expm1),
    ("tan", UnaryOp::Tan),
    ("asin", UnaryOp::Asin),
    ("acos", UnaryOp::Acos),
    ("atan", UnaryOp::Atan),
    ("arcsin", UnaryOp::Asin),
    ("arccos", UnaryOp::Acos),
    ("arctan", UnaryOp::Atan),
    ("sinh", UnaryOp::Sinh),
    ("cosh", UnaryOp::Cosh),
    ("asinh", UnaryOp::Asinh),
    ("acosh", UnaryOp::Acosh),
    ("atanh", UnaryOp::Atanh),
    ("arcsinh", UnaryOp::Asinh),
    ("arccosh", UnaryOp::Acosh),
    ("arctanh", UnaryOp::Atanh),
    ("rsqrt", UnaryOp::Rsqrt),
    ("erf", UnaryOp::Erf),
    ("erfc", UnaryOp::Erfc),
    ("erfinv", UnaryOp::Erfinv),
    ("trunc", UnaryOp::Trunc),
    ("fix", UnaryOp::Trunc),
    ("frac", UnaryOp::Frac),
];

pub fn register(r: &mut Registry) {
    for &(name, op) in UNARY {
        r.add_boxed(
            name,
            Box::new(move |_: &mut Interpreter, rt: &Rc<Runtime>, a: &Parsed| {
                tensor_value(rt, rt.unary(op, &a.tensor("input")?))
            }),
        );
    }
}
