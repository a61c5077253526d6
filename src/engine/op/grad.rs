//! What a backward formula is written over, so that each op's derivative is written once
//! (its entry in unary.rs) and computed by both of autograd's paths: plain backward on raw
//! buffers (tensor/autograd/mod.rs) and `create_graph=True` backward on Tensors that record
//! a graph of their own (tensor/autograd/graph_backward.rs). Both evaluate the same steps
//! in the same order with the same kernels, so their gradients have the same bits.

use super::{BinaryOp, UnaryOp};
use crate::engine::dtype::Scalar;
use crate::engine::error::Result;

/// An operand of one step: a value of the algebra or a Python number.
pub enum Val<'a, V> {
    V(&'a V),
    S(Scalar),
}

impl<'a, V> From<&'a V> for Val<'a, V> {
    fn from(v: &'a V) -> Self {
        Val::V(v)
    }
}

impl<V> From<i64> for Val<'_, V> {
    fn from(v: i64) -> Self {
        Val::S(Scalar::Int(v))
    }
}

impl<V> From<f64> for Val<'_, V> {
    fn from(v: f64) -> Self {
        Val::S(Scalar::Float(v))
    }
}

/// [`GradAlgebra`]'s named binary steps (`a.mul(x, y)` for `binary(Mul, x, y)`), each taking
/// values or Python numbers: one default method per op, written once.
macro_rules! binary_steps {
    ($($name:ident => $op:ident),* $(,)?) => {
        $(
            fn $name<'a>(
                &self,
                a: impl Into<Val<'a, Self::V>>,
                b: impl Into<Val<'a, Self::V>>,
            ) -> Result<Self::V>
            where
                Self::V: 'a,
            {
                self.binary(BinaryOp::$op, a.into(), b.into())
            }
        )*
    };
}

/// The values and steps of one node's backward. `input`, `result` and `grad` are the
/// op's saved input, its saved result and the gradient arriving at it.
pub trait GradAlgebra {
    type V;
    fn input(&self) -> Result<Self::V>;
    fn result(&self) -> Result<Self::V>;
    fn grad(&self) -> Result<Self::V>;
    fn unary(&self, op: UnaryOp, a: &Self::V) -> Result<Self::V>;
    fn binary(&self, op: BinaryOp, a: Val<'_, Self::V>, b: Val<'_, Self::V>) -> Result<Self::V>;
    /// ATen's fused backward kernel of `op` (sigmoid_backward, tanh_backward,
    /// threshold_backward, gelu_backward, ...) from the gradient and `saved` (the result or
    /// the input, as the op's formula says).
    fn activation_backward(&self, op: UnaryOp, grad: &Self::V, saved: &Self::V) -> Result<Self::V>;
    /// Zeros shaped as the gradient (`zeros_like(grad)`: ops whose derivative is zero).
    fn zeros(&self) -> Result<Self::V>;

    binary_steps! {
        add => Add,
        sub => Sub,
        mul => Mul,
        div => Div,
        pow => Pow,
    }
}
