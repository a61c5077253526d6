//! The backward functions PyTorch exposes as ops of their own (`tanh_backward`,
//! `sigmoid_backward`, `threshold_backward`, `_softmax_backward_data`,
//! `_log_softmax_backward_data`) and a view's backward laid onto its base, as Tensor ops: a
//! gradient computed with `create_graph=True` goes through them, so it records a node
//! (`TanhBackwardBackward0` ...) and can be differentiated again.
//!
//! Each computes its values with the same device kernel as the buffer backward in mod.rs
//! (so the bits are the same), and each node's own backward is written once, here, with
//! Tensor ops (derivatives.yaml's formulas): backward with `create_graph=True` records
//! them, plain backward runs the same formulas with grad mode off.

use super::{Edge, Geometry, Kind, Node, attach, edge_of, unsupported_create_graph};
use crate::engine::backend::{BackendStorage, Operands};
use crate::engine::dtype::Scalar;
use crate::engine::error::{EngineError, Result};
use crate::engine::runtime::Runtime;
use crate::engine::storage::DeviceStorage;
use crate::engine::tensor::{Operand, Tensor, UnaryOp, contiguous_strides};
use crate::engine::timing::Cost;

/// Which backward function a [`Kind::BackwardOp`] node computed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum BackOp {
    /// tanh_backward / sigmoid_backward (from the result) or threshold_backward(grad,
    /// result, 0) (ReLU's).
    Activation(UnaryOp),
    /// _softmax_backward_data / _log_softmax_backward_data over `dim`, from the output.
    Softmax { dim: usize, log: bool },
}

impl BackOp {
    /// The grad_fn name PyTorch gives the op's output.
    fn grad_fn(self) -> Option<&'static str> {
        Some(match self {
            BackOp::Activation(UnaryOp::Tanh) => "TanhBackwardBackward0",
            BackOp::Activation(UnaryOp::Sigmoid) => "SigmoidBackwardBackward0",
            BackOp::Activation(UnaryOp::Relu) => "ThresholdBackwardBackward0",
            BackOp::Softmax { log: false, .. } => "SoftmaxBackwardDataBackward0",
            BackOp::Softmax { log: true, .. } => "LogSoftmaxBackwardDataBackward0",
            BackOp::Activation(_) => return None,
        })
    }

    fn op_name(self) -> &'static str {
        match self {
            BackOp::Activation(UnaryOp::Tanh) => "tanh_backward",
            BackOp::Activation(UnaryOp::Sigmoid) => "sigmoid_backward",
            BackOp::Activation(_) => "threshold_backward",
            BackOp::Softmax { log: false, .. } => "_softmax_backward_data",
            BackOp::Softmax { log: true, .. } => "_log_softmax_backward_data",
        }
    }
}

/// The grad_fn PyTorch gives a view's gradient laid back onto its base (the backward of
/// the view op named `view`): a reshape's is a view, a transpose's a transpose, a select's
/// or a slice's their `*_backward` op, an expand's a sum.
fn view_grad_name(view: &str) -> &'static str {
    match view {
        "TBackward0" => "TBackward0",
        "TransposeBackward0" => "TransposeBackward0",
        "PermuteBackward0" => "PermuteBackward0",
        "UnsqueezeBackward0" => "SqueezeBackward1",
        "SqueezeBackward0" | "SqueezeBackward1" => "UnsqueezeBackward0",
        "SelectBackward0" => "SelectBackwardBackward0",
        "SliceBackward0" => "SliceBackwardBackward0",
        "ExpandBackward0" => "SumBackward1",
        _ => "ViewBackward0",
    }
}

impl Runtime {
    /// `op(g, y)` as a Tensor op: the backward kernel's values, and (grad mode on, an
    /// operand requiring grad) a node whose backward is [`Runtime::backward_op_grads`].
    pub(crate) fn backward_op(&self, op: BackOp, g: &Tensor, y: &Tensor) -> Result<Tensor> {
        let Some(name) = op.grad_fn() else {
            return Err(EngineError::not_implemented(format!(
                "cudatutor's autograd cannot compute gradients with create_graph=True through {} yet",
                op.op_name()
            )));
        };
        let shape = y.layout.shape.clone();
        let dt = y.dtype();
        let dev = self.common_device(&[g, y])?;
        let mut out = self.produce(&[g, y], shape.clone(), dt, dev, || {
            let pg = crate::engine::tensor::ops::prepare(g, dt, &shape)?;
            let py = crate::engine::tensor::ops::prepare(y, dt, &shape)?;
            let (gs, gl) = pg.pair()?;
            let (ys, yl) = py.pair()?;
            match op {
                BackOp::Activation(u) => DeviceStorage::activation_backward(
                    u,
                    Operands::new([(gs, gl), (ys, yl)], &shape, dt),
                ),
                BackOp::Softmax { dim, log } => {
                    // the kernel reads both row-major
                    let gc = gs.to_dtype(gl, dt)?;
                    let yc = ys.to_dtype(yl, dt)?;
                    DeviceStorage::softmax_backward(Operands::new([&gc, &yc], &shape, dt), dim, log)
                }
            }
        })?;
        self.grad_of(&[g, y], &mut out, name);
        let kind = Kind::BackwardOp {
            op,
            g: g.detach(),
            y: y.detach(),
        };
        attach(&mut out, &[edge_of(g), edge_of(y)], kind);
        let cost = Cost::new(3 * out.nbytes() as u64, out.numel() as u64);
        self.complete(op.op_name(), dev, cost, Vec::new())?;
        Ok(out)
    }

    /// The gradients of a [`Kind::BackwardOp`] node's (grad_output, output) given `gg`
    /// (derivatives.yaml's entries for the backward ops); `g`, `y` are its saved operands
    /// linked back to their graph.
    pub(crate) fn backward_op_grads(
        &self,
        op: BackOp,
        g: &Tensor,
        y: &Tensor,
        gg: &Tensor,
        need: [bool; 2],
    ) -> Result<Vec<Option<Tensor>>> {
        let t = |x: &Tensor| Operand::Tensor(x.clone());
        let int = |v: i64| Operand::Scalar(Scalar::Int(v));
        let (dg, dy) = match op {
            // tanh_backward: grad_output: tanh_backward(grad, output);
            // output: grad * (-2 * output * grad_output)
            BackOp::Activation(UnaryOp::Tanh) => (
                need[0].then(|| self.backward_op(op, gg, y)).transpose()?,
                need[1]
                    .then(|| -> Result<Tensor> {
                        let a = self.mul(&int(-2), &t(y))?;
                        let a = self.mul(&t(&a), &t(g))?;
                        self.mul(&t(gg), &t(&a))
                    })
                    .transpose()?,
            ),
            // sigmoid_backward: grad_output: sigmoid_backward(grad, output);
            // output: grad * grad_output * (-2 * output + 1)
            BackOp::Activation(UnaryOp::Sigmoid) => (
                need[0].then(|| self.backward_op(op, gg, y)).transpose()?,
                need[1]
                    .then(|| -> Result<Tensor> {
                        let a = self.mul(&t(gg), &t(g))?;
                        let b = self.mul(&int(-2), &t(y))?;
                        let b = self.add(&t(&b), &int(1))?;
                        self.mul(&t(&a), &t(&b))
                    })
                    .transpose()?,
            ),
            // threshold_backward: grad_output: threshold_backward(grad, self, threshold);
            // self: zeros_like(grad)
            BackOp::Activation(UnaryOp::Relu) => (
                need[0].then(|| self.backward_op(op, gg, y)).transpose()?,
                need[1]
                    .then(|| self.zeros(gg.shape(), Some(gg.dtype()), gg.device()))
                    .transpose()?,
            ),
            BackOp::Activation(_) => return Err(unsupported_create_graph(op.op_name())),
            // _softmax_backward_data: grad_output: _softmax_backward_data(grad, output);
            // output: softmax_double_backward(grad, grad_output, dim, output) =
            // grad_output * grad - (output * grad_output).sum(dim, true) * grad
            //   - grad_output * (output * grad).sum(dim, true)
            BackOp::Softmax { dim, log: false } => (
                need[0].then(|| self.backward_op(op, gg, y)).transpose()?,
                need[1]
                    .then(|| -> Result<Tensor> {
                        let d = [dim as i64];
                        let a = self.mul(&t(g), &t(gg))?;
                        let yg = self.mul(&t(y), &t(g))?;
                        let s = self.sum(&yg, Some(&d), true, None)?;
                        let b = self.mul(&t(&s), &t(gg))?;
                        let a = self.sub(&t(&a), &t(&b))?;
                        let ygg = self.mul(&t(y), &t(gg))?;
                        let s2 = self.sum(&ygg, Some(&d), true, None)?;
                        let c = self.mul(&t(g), &t(&s2))?;
                        self.sub(&t(&a), &t(&c))
                    })
                    .transpose()?,
            ),
            // _log_softmax_backward_data: grad_output: grad - (grad * output.exp()).sum(dim,
            // true); output: -grad_output.sum(dim, true) * output.exp() * grad
            BackOp::Softmax { dim, log: true } => {
                let d = [dim as i64];
                let e = self.unary(UnaryOp::Exp, y)?;
                (
                    need[0]
                        .then(|| -> Result<Tensor> {
                            let a = self.mul(&t(gg), &t(&e))?;
                            let s = self.sum(&a, Some(&d), true, None)?;
                            self.sub(&t(gg), &t(&s))
                        })
                        .transpose()?,
                    need[1]
                        .then(|| -> Result<Tensor> {
                            let s = self.sum(g, Some(&d), true, None)?;
                            let s = self.unary(UnaryOp::Neg, &s)?;
                            let a = self.mul(&t(&s), &t(&e))?;
                            self.mul(&t(&a), &t(gg))
                        })
                        .transpose()?,
                )
            }
        };
        Ok(vec![dg, dy])
    }

    /// A view's gradient `g` laid onto its base (zeros where the view does not reach, the
    /// view's elements added where it does: the buffer backward's values), as a Tensor op
    /// whose backward views its gradient again. Only for a base whose elements are
    /// contiguous in storage.
    pub(crate) fn view_scatter(
        &self,
        node: &Node,
        base: &Geometry,
        view: &Geometry,
        g: &Tensor,
    ) -> Result<Tensor> {
        let bn: usize = base.shape.iter().product();
        let base_contig = base.strides == contiguous_strides(&base.shape) || bn <= 1;
        if !base_contig || view.offset < base.offset {
            return Err(unsupported_create_graph(node.name));
        }
        let dt = node.out_dtype;
        let name = view_grad_name(node.name);
        let mut out = self.produce(&[g], base.shape.clone(), dt, g.device(), || {
            let gc = super::contiguous_of(g, dt)?;
            super::view_grad(node, base, view, gc, dt)
        })?;
        self.grad_of(&[g], &mut out, name);
        let kind = Kind::ViewScatter {
            base: base.clone(),
            view: view.clone(),
            view_name: node.name,
            device: g.device(),
        };
        attach(&mut out, &[edge_of(g)], kind);
        self.complete(
            "view_backward",
            g.device(),
            Cost::new(2 * out.nbytes() as u64, 0),
            Vec::new(),
        )?;
        Ok(out)
    }

    /// The backward of [`Runtime::view_scatter`]: its gradient (the base's shape) viewed as
    /// the view was (made contiguous first, so the view's strides address it as they did
    /// the base).
    pub(crate) fn view_scatter_grad(
        &self,
        base: &Geometry,
        view: &Geometry,
        view_name: &'static str,
        gg: &Tensor,
    ) -> Result<Tensor> {
        let c = self.contiguous(gg)?;
        Ok(c.view_named(
            view_name,
            view.shape.clone(),
            view.strides.clone(),
            c.layout.offset + (view.offset - base.offset),
        ))
    }
}

/// A tensor of `node`'s output shape and dtype holding `g` (a backward buffer), on
/// `device`: how plain backward hands a buffer to the Tensor formulas above.
pub(crate) fn tensor_of_buffer(
    rt: &Runtime,
    shape: &[usize],
    g: DeviceStorage,
    device: crate::engine::device::Device,
) -> Result<Tensor> {
    let t = rt.alloc_out(shape.to_vec(), g.dtype(), device, true, false)?;
    if t.wants_values() {
        if g.len() != t.numel() {
            return Err(EngineError::runtime(
                "internal: a gradient's size does not match its node",
            ));
        }
        t.set_values(g)?;
    }
    Ok(t)
}

/// Whether an edge carries a gradient.
pub(crate) fn needs(e: Option<&Edge>) -> bool {
    !matches!(e, None | Some(Edge::None))
}
