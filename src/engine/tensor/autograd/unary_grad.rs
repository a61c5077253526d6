//! A unary op's backward, evaluated from its entry in engine::op::unary (`backward:`) by
//! either of autograd's paths: [`Buffers`] on raw device buffers (plain backward) and
//! [`Tensors`] with Tensor ops that record a graph (`create_graph=True`). The formula is the
//! same text for both, so the steps, their order and their kernels are the same, and so are
//! the bits.

use super::backward_ops::BackOp;
use super::{G, unsupported_create_graph};
use crate::engine::backend::{Arg, BackendDevice, BackendStorage, Operands};
use crate::engine::dtype::DType;
use crate::engine::error::{EngineError, Result};
use crate::engine::layout::Layout;
use crate::engine::op::{GradAlgebra, Val};
use crate::engine::runtime::Runtime;
use crate::engine::storage::DeviceStorage;
use crate::engine::tensor::ops::{Prepared, prepare};
use crate::engine::tensor::{BinaryOp, Operand, Tensor, UnaryOp};

/// A value of the buffer path: a saved tensor read in place (or cast), or a buffer laid
/// out contiguously in the gradient's shape (the incoming gradient, or a step's result).
pub(super) enum Buf<'a> {
    Saved(Prepared<'a>),
    Grad(&'a G),
    Own(G),
}

/// Plain backward's evaluation: each step one device kernel on `dt` buffers shaped as the
/// gradient.
pub(super) struct Buffers<'a> {
    pub input: &'a Tensor,
    pub out: &'a Tensor,
    pub g: &'a G,
    pub shape: &'a [usize],
    pub dt: DType,
    pub layout: Layout,
}

impl<'a> Buffers<'a> {
    fn arg<'b>(&'b self, v: &'b Buf<'a>) -> Result<Arg<'b, G>> {
        match v {
            Buf::Saved(p) => p.arg(),
            Buf::Grad(g) => Ok(Arg::Tensor(g, &self.layout)),
            Buf::Own(g) => Ok(Arg::Tensor(g, &self.layout)),
        }
    }
    fn pair<'b>(&'b self, v: &'b Buf<'a>) -> Result<(&'b G, &'b Layout)> {
        match self.arg(v)? {
            Arg::Tensor(s, l) => Ok((s, l)),
            Arg::Scalar(_) => Err(EngineError::runtime(
                "internal: a number where a tensor was expected",
            )),
        }
    }
    fn val<'b>(&'b self, v: Val<'b, Buf<'a>>) -> Result<Arg<'b, G>> {
        match v {
            Val::V(b) => self.arg(b),
            Val::S(s) => Ok(Arg::Scalar(s)),
        }
    }
    /// The gradient as a buffer of its own (the formulas end in a step, so this moves).
    pub(super) fn finish(&self, v: Buf<'a>) -> Result<G> {
        match v {
            Buf::Own(g) => Ok(g),
            other => {
                let (s, l) = self.pair(&other)?;
                s.to_dtype(l, self.dt)
            }
        }
    }
}

impl<'a> GradAlgebra for Buffers<'a> {
    type V = Buf<'a>;
    fn input(&self) -> Result<Buf<'a>> {
        prepare(self.input, self.dt, self.shape).map(Buf::Saved)
    }
    fn result(&self) -> Result<Buf<'a>> {
        prepare(self.out, self.dt, self.shape).map(Buf::Saved)
    }
    fn grad(&self) -> Result<Buf<'a>> {
        Ok(Buf::Grad(self.g))
    }
    fn unary(&self, op: UnaryOp, a: &Buf<'a>) -> Result<Buf<'a>> {
        let (s, l) = self.pair(a)?;
        s.unary(l, op, self.dt).map(Buf::Own)
    }
    fn binary(&self, op: BinaryOp, a: Val<'_, Buf<'a>>, b: Val<'_, Buf<'a>>) -> Result<Buf<'a>> {
        G::binary(
            op,
            Operands::new([self.val(a)?, self.val(b)?], self.shape, self.dt),
            self.dt,
        )
        .map(Buf::Own)
    }
    fn activation_backward(&self, op: UnaryOp, grad: &Buf<'a>, saved: &Buf<'a>) -> Result<Buf<'a>> {
        let grad_y = [self.pair(grad)?, self.pair(saved)?];
        G::activation_backward(op, Operands::new(grad_y, self.shape, self.dt)).map(Buf::Own)
    }
    fn zeros(&self) -> Result<Buf<'a>> {
        crate::engine::host::HostDevice
            .zeros(self.shape.iter().product(), self.dt)
            .map(|z| Buf::Own(DeviceStorage::Host(z)))
    }
}

/// create_graph's evaluation: each step a Tensor op, so with grad mode on the gradient
/// records a graph; `input` and `result` are the saved values linked back to the graph.
pub(super) struct Tensors<'a> {
    pub rt: &'a Runtime,
    pub input: Tensor,
    pub result: Tensor,
    pub g: &'a Tensor,
    /// The node's grad_fn name (the error for a formula without a Tensor form).
    pub name: &'a str,
}

fn operand(v: Val<'_, Tensor>) -> Operand {
    match v {
        Val::V(t) => Operand::Tensor(t.clone()),
        Val::S(s) => Operand::Scalar(s),
    }
}

impl GradAlgebra for Tensors<'_> {
    type V = Tensor;
    fn input(&self) -> Result<Tensor> {
        Ok(self.input.clone())
    }
    fn result(&self) -> Result<Tensor> {
        Ok(self.result.clone())
    }
    fn grad(&self) -> Result<Tensor> {
        Ok(self.g.clone())
    }
    fn unary(&self, op: UnaryOp, a: &Tensor) -> Result<Tensor> {
        self.rt.unary(op, a)
    }
    fn binary(&self, op: BinaryOp, a: Val<'_, Tensor>, b: Val<'_, Tensor>) -> Result<Tensor> {
        self.rt.binary(op, &operand(a), &operand(b))
    }
    /// tanh_backward, sigmoid_backward and threshold_backward are ops of their own
    /// (backward_ops.rs); the other fused backward kernels have no Tensor form yet.
    fn activation_backward(&self, op: UnaryOp, grad: &Tensor, saved: &Tensor) -> Result<Tensor> {
        match op {
            UnaryOp::Sigmoid | UnaryOp::Tanh | UnaryOp::Relu => {
                self.rt.backward_op(BackOp::Activation(op), grad, saved)
            }
            _ => Err(unsupported_create_graph(self.name)),
        }
    }
    fn zeros(&self) -> Result<Tensor> {
        self.rt
            .zeros(self.g.shape(), Some(self.g.dtype()), self.g.device())
    }
}
