//! The elementwise losses PyTorch computes as one op with one autograd node:
//! `binary_cross_entropy` (BinaryCrossEntropyBackward0), `binary_cross_entropy_with_logits`
//! (BinaryCrossEntropyWithLogitsBackward0), `huber_loss` (HuberLossBackward0) and
//! `smooth_l1_loss` (SmoothL1LossBackward0). float32 runs engine::numerics::loss (ATen's
//! kernels and op order, forward and backward); float64 (and float16/bfloat16, rounded once)
//! the same formulas in double. Values are computed on the host for every device.

use super::autograd::{self, Kind};
use super::{Reduction, Tensor, broadcast_values};
use crate::engine::dtype::DType;
use crate::engine::error::{EngineError, Result};
use crate::engine::host::HostStorage;
use crate::engine::numerics::loss as nl;
use crate::engine::runtime::Runtime;

/// Which loss, with its parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LossOp {
    /// `F.binary_cross_entropy` (input probabilities).
    Bce,
    /// `F.binary_cross_entropy_with_logits` (input logits; `pos_weight` allowed).
    BceLogits,
    /// `F.huber_loss(delta)`.
    Huber(f64),
    /// `F.smooth_l1_loss(beta)`.
    SmoothL1(f64),
}

impl LossOp {
    fn name(self) -> &'static str {
        match self {
            LossOp::Bce => "binary_cross_entropy",
            LossOp::BceLogits => "binary_cross_entropy_with_logits",
            LossOp::Huber(_) => "huber_loss",
            LossOp::SmoothL1(_) => "smooth_l1_loss",
        }
    }
    fn grad_fn(self) -> &'static str {
        match self {
            LossOp::Bce => "BinaryCrossEntropyBackward0",
            LossOp::BceLogits => "BinaryCrossEntropyWithLogitsBackward0",
            LossOp::Huber(_) => "HuberLossBackward0",
            LossOp::SmoothL1(_) => "SmoothL1LossBackward0",
        }
    }
}

fn nred(r: Reduction) -> nl::Reduction {
    match r {
        Reduction::None => nl::Reduction::None,
        Reduction::Mean => nl::Reduction::Mean,
        Reduction::Sum => nl::Reduction::Sum,
    }
}

/// The values of the loss's operands broadcast to `shape`.
pub(crate) struct Operands {
    pub x: Vec<f64>,
    pub t: Vec<f64>,
    pub w: Option<Vec<f64>>,
    pub pw: Option<Vec<f64>>,
}

impl Operands {
    fn of(
        x: &Tensor,
        t: &Tensor,
        w: Option<&Tensor>,
        pw: Option<&Tensor>,
        shape: &[usize],
    ) -> Operands {
        Operands {
            x: broadcast_values(x, shape),
            t: broadcast_values(t, shape),
            w: w.map(|w| broadcast_values(w, shape)),
            pw: pw.map(|p| broadcast_values(p, shape)),
        }
    }
}

fn f32s(v: &[f64]) -> Vec<f32> {
    v.iter().map(|&x| x as f32).collect()
}

/// `apply_loss_reduction` in double: `sum()` / `mean()` are the double cascade sum (and / n).
fn reduce64(loss: Vec<f64>, r: Reduction) -> Vec<f64> {
    use crate::engine::numerics::sum::sum_f64;
    match r {
        Reduction::None => loss,
        Reduction::Sum => vec![sum_f64(&loss)],
        Reduction::Mean => vec![sum_f64(&loss) / loss.len() as f64],
    }
}

/// The forward values (one when reduced).
fn forward(op: LossOp, o: &Operands, r: Reduction, dt: DType) -> Result<HostStorage> {
    if dt == DType::Float32 {
        let (x, t) = (f32s(&o.x), f32s(&o.t));
        let w = o.w.as_deref().map(f32s);
        let pw = o.pw.as_deref().map(f32s);
        let v = match op {
            LossOp::Bce => {
                nl::binary_cross_entropy_f32(&x, &t, w.as_deref(), nred(r)).map_err(|_| {
                    EngineError::runtime("all elements of input should be between 0 and 1")
                })?
            }
            LossOp::BceLogits => {
                nl::bce_with_logits_f32(&x, &t, w.as_deref(), pw.as_deref(), nred(r))
            }
            LossOp::Huber(d) => nl::huber_loss_f32(&x, &t, nred(r), d),
            LossOp::SmoothL1(b) => nl::smooth_l1_loss_f32(&x, &t, nred(r), b),
        };
        return Ok(HostStorage::F32(v));
    }
    let n = o.x.len();
    let mut loss = Vec::with_capacity(n);
    for i in 0..n {
        let (x, t) = (o.x[i], o.t[i]);
        let v = match op {
            LossOp::Bce => {
                if !(0.0..=1.0).contains(&x) {
                    return Err(EngineError::runtime(
                        "all elements of input should be between 0 and 1",
                    ));
                }
                (t - 1.0) * (-x).ln_1p().max(-100.0) - t * x.ln().max(-100.0)
            }
            LossOp::BceLogits => {
                let ls = crate::engine::numerics::unary_f64::log_sigmoid(x);
                let lw = o.pw.as_ref().map_or(1.0, |p| (p[i] - 1.0) * t + 1.0);
                (1.0 - t) * x - ls * lw
            }
            LossOp::Huber(d) => {
                let z = (x - t).abs();
                if z < d {
                    0.5 * z * z
                } else {
                    d * (z - 0.5 * d)
                }
            }
            LossOp::SmoothL1(b) => {
                let z = (x - t).abs();
                if b == 0.0 {
                    z
                } else if z < b {
                    0.5 * z * z / b
                } else {
                    z - 0.5 * b
                }
            }
        };
        loss.push(match &o.w {
            Some(w) if matches!(op, LossOp::Bce | LossOp::BceLogits) => v * w[i],
            _ => v,
        });
    }
    HostStorage::from_f64s(dt, &reduce64(loss, r))
}

/// The input's gradient (of the broadcast shape) given the output gradient `g` (one value
/// when reduced).
pub(crate) fn backward(
    op: LossOp,
    o: &Operands,
    g: &[f64],
    r: Reduction,
    dt: DType,
) -> Result<HostStorage> {
    if dt == DType::Float32 {
        let (x, t, gf) = (f32s(&o.x), f32s(&o.t), f32s(g));
        let w = o.w.as_deref().map(f32s);
        let pw = o.pw.as_deref().map(f32s);
        let v = match op {
            LossOp::Bce => {
                nl::binary_cross_entropy_backward_f32(&gf, &x, &t, w.as_deref(), nred(r))
            }
            LossOp::BceLogits => {
                nl::bce_with_logits_backward_f32(&gf, &x, &t, w.as_deref(), pw.as_deref(), nred(r))
            }
            LossOp::Huber(delta) => {
                let huber = nl::SmoothLoss::Huber { delta };
                nl::smooth_loss_backward_f32(&gf, &x, &t, nred(r), huber)
            }
            LossOp::SmoothL1(0.0) => {
                // l1_loss's backward: sign(x - t) * grad (/ numel)
                let n = x.len();
                let norm = if r == Reduction::Mean {
                    (1.0 / n as f64) as f32
                } else {
                    1.0
                };
                (0..n)
                    .map(|i| {
                        let d = x[i] - t[i];
                        let s = if d > 0.0 {
                            1.0
                        } else if d < 0.0 {
                            -1.0
                        } else {
                            0.0
                        };
                        s * gf[if gf.len() == 1 { 0 } else { i }] * norm
                    })
                    .collect()
            }
            LossOp::SmoothL1(beta) => {
                let smooth_l1 = nl::SmoothLoss::SmoothL1 { beta };
                nl::smooth_loss_backward_f32(&gf, &x, &t, nred(r), smooth_l1)
            }
        };
        return Ok(HostStorage::F32(v));
    }
    let n = o.x.len();
    let mean = if r == Reduction::Mean { n as f64 } else { 1.0 };
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let (x, t) = (o.x[i], o.t[i]);
        let gi = g[if g.len() == 1 { 0 } else { i }];
        let d = x - t;
        let mut v = match op {
            LossOp::Bce => gi * d / ((1.0 - x) * x).max(1e-12),
            LossOp::BceLogits => {
                let s = 1.0 / (1.0 + (-x).exp());
                match &o.pw {
                    Some(p) => {
                        let pt = p[i] * t;
                        ((pt + 1.0 - t) * s - pt) * gi
                    }
                    None => (s - t) * gi,
                }
            }
            LossOp::Huber(dl) => {
                if d <= -dl {
                    -dl * gi
                } else if d >= dl {
                    dl * gi
                } else {
                    d * gi
                }
            }
            LossOp::SmoothL1(b) => {
                if b == 0.0 || d.abs() >= b {
                    d.signum() * if d == 0.0 { 0.0 } else { 1.0 } * gi
                } else {
                    d / b * gi
                }
            }
        };
        if let Some(w) = &o.w
            && matches!(op, LossOp::Bce | LossOp::BceLogits)
        {
            v *= w[i];
        }
        out.push(v / mean);
    }
    HostStorage::from_f64s(dt, &out)
}

/// TensorIterator's refusal of an operand whose dtype is not the one every operand must share.
fn found_dtype(found: DType, expected: DType) -> EngineError {
    EngineError::runtime(format!(
        "Found dtype {} but expected {}",
        found.scalar_name(),
        expected.scalar_name()
    ))
}

/// Which operand dtypes a loss of an input of dtype `dt` refuses, as ATen's kernels do:
/// binary_cross_entropy's iterator wants the target in the input's dtype (its weight is a
/// separate, promoting multiply); huber and smooth_l1 cast a target the input's dtype holds
/// (the bindings widen the input first where smooth_l1 promotes past it); the logits loss,
/// a composite, refuses a result it cannot write into an integral target.
fn operand_dtype_error(
    op: LossOp,
    dt: DType,
    target: &Tensor,
    weights: &[&Tensor],
) -> Option<EngineError> {
    let holds = |t: &Tensor| crate::engine::dtype::promote_types(dt, t.dtype()) == dt;
    let mismatch = |t: &Tensor| {
        EngineError::runtime(format!(
            "expected scalar type {} but found {}",
            dt.scalar_name(),
            t.dtype().scalar_name()
        ))
    };
    match op {
        LossOp::Bce => {
            if target.dtype() != dt {
                return Some(found_dtype(target.dtype(), dt));
            }
            weights.iter().find(|w| !holds(w)).map(|w| mismatch(w))
        }
        LossOp::Huber(_) | LossOp::SmoothL1(_) => None,
        LossOp::BceLogits => std::iter::once(&target)
            .chain(weights)
            .find(|t| t.dtype() != dt)
            .map(|t| mismatch(t)),
    }
}

impl Runtime {
    /// One of the [`LossOp`] losses of `input` against `target` (broadcast together; the
    /// bindings check PyTorch's size rules and warnings first), with PyTorch's node.
    pub(crate) fn elementwise_loss(
        &self,
        op: LossOp,
        input: &Tensor,
        target: &Tensor,
        weight: Option<&Tensor>,
        pos_weight: Option<&Tensor>,
        reduction: Reduction,
    ) -> Result<Tensor> {
        let name = op.name();
        let hint = input.device().cuda_index();
        let fail = |e| self.host_error(name, hint, e);
        let mut shape =
            super::broadcast_shapes(&input.layout.shape, &target.layout.shape).map_err(fail)?;
        for extra in [weight, pos_weight].into_iter().flatten() {
            shape = super::broadcast_shapes(&shape, &extra.layout.shape).map_err(fail)?;
        }
        let mut ins = vec![input, target];
        ins.extend(weight);
        ins.extend(pos_weight);
        let dev = self.common_device(&ins).map_err(fail)?;
        if op == LossOp::Bce {
            self.note_outside_unit_interval(name, input, target);
        }
        let dt = input.dtype();
        if !dt.is_floating_point() {
            return Err(fail(EngineError::runtime(format!(
                "\"{name}\" not implemented for '{}'",
                dt.scalar_name()
            ))));
        }
        if let Some(e) = operand_dtype_error(op, dt, target, &ins[2..]) {
            return Err(fail(e));
        }
        let out_shape = if reduction == Reduction::None {
            shape.clone()
        } else {
            Vec::new()
        };
        let keep = shape.iter().product::<usize>() <= super::MAX_F64_ELEMENTS;
        let (x, t) = (input.clone(), target.clone());
        let (w, pw) = (weight.cloned(), pos_weight.cloned());
        let vshape = shape.clone();
        let mut out = self.computed_host(
            name,
            &ins,
            out_shape,
            dt,
            dev,
            keep.then_some(move || {
                let o = Operands::of(&x, &t, w.as_ref(), pw.as_ref(), &vshape);
                forward(op, &o, reduction, dt)
            }),
            Some(op.grad_fn()),
        )?;
        let kind = Kind::Loss(LossNode {
            op,
            input: input.detach(),
            target: target.detach(),
            weight: weight.map(|w| w.detach()),
            pos_weight: pos_weight.map(|p| p.detach()),
            reduction,
            shape,
        });
        autograd::attach(
            &mut out,
            &[autograd::edge_of(input), autograd::edge_of(target)],
            kind,
        );
        Ok(out)
    }
}

/// What a loss's autograd node keeps: the op, its operands (detached) and the broadcast
/// shape the loss was computed over.
#[derive(Clone)]
pub(crate) struct LossNode {
    pub op: LossOp,
    pub input: Tensor,
    pub target: Tensor,
    pub weight: Option<Tensor>,
    pub pos_weight: Option<Tensor>,
    pub reduction: Reduction,
    pub shape: Vec<usize>,
}

impl LossNode {
    /// The input gradients from the output's gradient `g`: the input's (summed to its shape by
    /// the caller), and the target's when `need_target` (see [`loss_grads`]).
    pub(crate) fn grads(
        &self,
        g: &[f64],
        need_target: bool,
    ) -> Result<(HostStorage, Option<HostStorage>)> {
        // huber_loss's forward casts the target, its backward kernel does not
        // (TensorIterator's same-dtype check)
        if matches!(self.op, LossOp::Huber(_)) && self.target.dtype() != self.input.dtype() {
            return Err(found_dtype(self.target.dtype(), self.input.dtype()));
        }
        let o = Operands::of(
            &self.input,
            &self.target,
            self.weight.as_ref(),
            self.pos_weight.as_ref(),
            &self.shape,
        );
        loss_grads(
            self.op,
            &o,
            self.reduction,
            self.input.dtype(),
            g,
            need_target,
        )
    }
}

/// The loss node's input gradients: the input's, and the target's for huber / smooth_l1
/// (minus the input's, as derivatives.yaml); a target that needs binary_cross_entropy's target
/// gradient is not supported yet.
fn loss_grads(
    op: LossOp,
    o: &Operands,
    reduction: Reduction,
    dt: DType,
    g: &[f64],
    need_target: bool,
) -> Result<(HostStorage, Option<HostStorage>)> {
    let gi = backward(op, o, g, reduction, dt)?;
    let gt = if need_target {
        match op {
            LossOp::Huber(_) | LossOp::SmoothL1(_) => {
                let v: Vec<f64> = gi
                    .gather_f64(&crate::engine::layout::Layout::contiguous(&[gi.len()]))
                    .iter()
                    .map(|v| -v)
                    .collect();
                Some(HostStorage::from_f64s(dt, &v)?)
            }
            _ => {
                return Err(EngineError::not_implemented(format!(
                    "cudatutor's autograd cannot compute gradients through {} with respect to the target yet",
                    op.grad_fn()
                )));
            }
        }
    } else {
        None
    };
    Ok((gi, gt))
}
