//! Elementwise math: every unary op of the engine that its definition binds (`torch:` in
//! engine::op::unary), and its in-place form (`exp_`, written back into the receiver).

use super::{Registry, inplace_value, tensor_value};
use crate::engine::{Runtime, UnaryOp};
use crate::script::Interpreter;
use crate::torch::argparse::Parsed;
use std::rc::Rc;

pub(super) fn register(r: &mut Registry) {
    for &(name, op) in UnaryOp::TORCH_NAMES {
        r.add_boxed(
            name,
            Box::new(move |_: &mut Interpreter, rt: &Rc<Runtime>, a: &Parsed| {
                tensor_value(rt, rt.unary(op, &a.tensor("input")?))
            }),
        );
    }
    for &(name, op) in UnaryOp::TORCH_INPLACE_NAMES {
        r.add_boxed(
            name,
            Box::new(move |_: &mut Interpreter, rt: &Rc<Runtime>, a: &Parsed| {
                inplace_value(a, rt.inplace_unary(op, &a.tensor("input")?))
            }),
        );
    }
}
