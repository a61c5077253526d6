//! float32 loss functions as ATen computes them (LossNLL.cpp, Loss.cpp, the loss kernels in
//! BinaryOpsKernel.cpp / PointwiseOpsKernel.cpp, Activation.cpp's log_sigmoid), forward and
//! backward, for contiguous inputs.
//!
//! Most losses are composites in ATen: an elementwise kernel, then `mean`/`sum` (the cascade
//! sum), or several tensor ops in a row. Each function here performs the same ops in the same
//! order with the same roundings; a Python number that ATen turns into a float32 scalar is
//! rounded the same way (`as f32` of the f64 ATen computes).

use super::lanes::Real;
use super::softmax::log_softmax_f32;
use super::sum::{View, sum_dims_f32, sum_f32};
use super::{sleef, vecops};

/// `reduction=` of the loss functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    None,
    Mean,
    Sum,
}

/// Why a loss could not be computed (the caller turns it into PyTorch's exception).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LossError {
    /// `IndexError: Target {0} is out of bounds.`
    TargetOutOfBounds(i64),
    /// `RuntimeError: all elements of input should be between 0 and 1` (binary_cross_entropy).
    InputOutOfRange,
}

/// `nll_loss` / `nll_loss2d` forward result: the loss (one value when reduced) and the
/// `total_weight` ATen returns alongside it (the backward divides by it).
#[derive(Clone, Debug, PartialEq)]
pub struct NllOutput {
    pub loss: Vec<f32>,
    pub total_weight: f32,
}

/// The shape of an nll/cross-entropy input: `n` samples, `c` classes, `map` positions per sample
/// (the product of the dimensions after the class dimension; 1 for an `(N, C)` input). A 1-d
/// input `(C,)` is `n = 1, map = 1` with `one_d` set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassShape {
    pub n: usize,
    pub c: usize,
    pub map: usize,
    pub one_d: bool,
}

/// `nll_loss_nd` forward on float32 log-probabilities laid out `(n, c, map)`.
///
/// Reduced losses accumulate in the 8-level cascade of `nll_loss_out_frame` /
/// `nll_loss2d_forward_out_frame` (level size from `CeilLog2` of the sample count).
pub fn nll_loss_f32(
    input: &[f32],
    shape: ClassShape,
    target: &[i64],
    weight: Option<&[f32]>,
    reduction: Reduction,
    ignore_index: i64,
) -> Result<NllOutput, LossError> {
    let (loss, total_weight) = nll_loss_t(input, shape, target, weight, reduction, ignore_index)?;
    Ok(NllOutput { loss, total_weight })
}

/// `nll_loss_nd` forward in `T` (float32's cascade, or the same kernel in double); returns
/// (loss, total_weight).
pub(crate) fn nll_loss_t<T: Real>(
    input: &[T],
    shape: ClassShape,
    target: &[i64],
    weight: Option<&[T]>,
    reduction: Reduction,
    ignore_index: i64,
) -> Result<(Vec<T>, T), LossError> {
    let ClassShape { n, c, map, one_d } = shape;
    let check = |t: i64| {
        if t >= 0 && (t as usize) < c {
            Ok(t as usize)
        } else {
            Err(LossError::TargetOutOfBounds(t))
        }
    };
    if reduction == Reduction::None && !one_d {
        let mut out = vec![T::ZERO; n * map];
        for b in 0..n {
            for e in 0..map {
                let t = target[b * map + e];
                if t == ignore_index {
                    continue;
                }
                let t = check(t)?;
                let w = weight.map_or(T::ONE, |w| w[t]);
                out[b * map + e] = -input[b * c * map + t * map + e] * w;
            }
        }
        return Ok((out, T::ZERO));
    }
    const LEVELS: usize = 8;
    let numiter = n * map;
    let level_power = (super::sum::ceil_log2(numiter) / LEVELS as u32).max(4);
    let level_mask = (1usize << level_power) - 1;
    let mut wsum = [T::ZERO; LEVELS];
    let mut lsum = [T::ZERO; LEVELS];
    let mut ignored = 0usize;
    for b in 0..n {
        for e in 0..map {
            let idx = b * map + e;
            let t = target[idx];
            if t == ignore_index {
                ignored += 1;
                continue;
            }
            let t = check(t)?;
            let data = input[b * c * map + t * map + e];
            match weight {
                Some(w) => {
                    lsum[0] = lsum[0] - data * w[t];
                    wsum[0] = wsum[0] + w[t];
                }
                None => lsum[0] = lsum[0] - data,
            }
            for j in 0..LEVELS - 1 {
                let mask = level_mask << (j as u32 * level_power);
                if idx & mask != 0 {
                    break;
                }
                wsum[j + 1] = wsum[j + 1] + wsum[j];
                lsum[j + 1] = lsum[j + 1] + lsum[j];
                wsum[j] = T::ZERO;
                lsum[j] = T::ZERO;
            }
        }
    }
    let total_weight = match weight {
        None => T::from_f64((numiter - ignored) as f64),
        Some(_) => wsum.iter().fold(T::ZERO, |a, &b| a + b),
    };
    let mut out = lsum.iter().fold(T::ZERO, |a, &b| a + b);
    if reduction == Reduction::Mean {
        out = out / total_weight;
    }
    Ok((vec![out], total_weight))
}

/// `nll_loss_backward` into a zeroed `(n, c, map)` gradient: `-grad` (divided by the total
/// weight for a mean) at each target, times its class weight.
#[allow(clippy::too_many_arguments)]
pub fn nll_loss_backward_f32(
    grad_output: &[f32],
    shape: ClassShape,
    target: &[i64],
    weight: Option<&[f32]>,
    reduction: Reduction,
    ignore_index: i64,
    total_weight: f32,
    grad_input: &mut [f32],
) {
    let ClassShape { c, map, one_d, .. } = shape;
    grad_input.fill(0.0);
    if reduction == Reduction::None && !one_d {
        for_each_target(shape, target, ignore_index, |b, e, t| {
            let g = grad_output[b * map + e];
            grad_input[b * c * map + t * map + e] = match weight {
                Some(w) => -w[t] * g,
                None => -g,
            };
        });
        return;
    }
    let g0 = grad_output[0];
    let grad = -(if reduction == Reduction::Mean {
        g0 / total_weight
    } else {
        g0
    });
    for_each_target(shape, target, ignore_index, |b, e, t| {
        grad_input[b * c * map + t * map + e] = match weight {
            Some(w) => w[t] * grad,
            None => grad,
        };
    });
}

/// Calls `f(b, e, t)` for each sample b and map position e whose target t is a class (not
/// ignored, in range), in order.
fn for_each_target(
    shape: ClassShape,
    target: &[i64],
    ignore_index: i64,
    mut f: impl FnMut(usize, usize, usize),
) {
    let ClassShape { n, c, map, .. } = shape;
    for b in 0..n {
        for e in 0..map {
            let t = target[b * map + e];
            if t != ignore_index && t >= 0 && (t as usize) < c {
                f(b, e, t as usize);
            }
        }
    }
}

/// `F.cross_entropy` with class-index targets on float32 logits `(n, c, map)`:
/// `log_softmax(dim=1)` then `nll_loss_nd`, and with `label_smoothing > 0` ATen's composite
/// (`cross_entropy_loss_label_smoothing`). Returns the loss (one value when reduced).
#[allow(clippy::too_many_arguments)]
pub fn cross_entropy_f32(
    logits: &[f32],
    shape: ClassShape,
    target: &[i64],
    weight: Option<&[f32]>,
    reduction: Reduction,
    ignore_index: i64,
    label_smoothing: f64,
) -> Result<Vec<f32>, LossError> {
    let ClassShape { n, c, map, .. } = shape;
    let mut logp = vec![0f32; logits.len()];
    log_softmax_f32(logits, &mut logp, n, c, map);
    let nll = nll_loss_f32(&logp, shape, target, weight, reduction, ignore_index)?;
    if label_smoothing <= 0.0 {
        return Ok(nll.loss);
    }
    // smooth_loss = -(input [* weight]).sum(class_dim), zero where the target is ignored.
    let weighted: Vec<f32> = match weight {
        Some(w) => logp
            .iter()
            .enumerate()
            .map(|(i, &v)| v * w[(i / map) % c])
            .collect(),
        None => logp,
    };
    let full = [n, c, map];
    let strides = [c * map, map, 1];
    let mut smooth = sum_dims_f32(
        &weighted,
        View {
            shape: &full,
            strides: &strides,
            offset: 0,
        },
        &[1],
    );
    for (i, s) in smooth.iter_mut().enumerate() {
        *s = if target[i] == ignore_index { 0.0 } else { -*s };
    }
    let ret: Vec<f32> = match reduction {
        Reduction::None => smooth,
        Reduction::Sum => vec![sum_f32(&smooth)],
        Reduction::Mean => {
            let total = sum_f32(&smooth);
            let denom = match weight {
                // weight.gather(0, target[~ignored]).sum()
                Some(w) => {
                    let picked: Vec<f32> = target
                        .iter()
                        .filter(|&&t| t != ignore_index)
                        .map(|&t| w[t as usize])
                        .collect();
                    sum_f32(&picked)
                }
                // true_mask.sum() is an int64 count, converted to float by the division.
                None => target.iter().filter(|&&t| t != ignore_index).count() as f32,
            };
            vec![total / denom]
        }
    };
    let keep = (1.0 - label_smoothing) as f32;
    let share = (label_smoothing / c as f64) as f32;
    Ok(nll
        .loss
        .iter()
        .zip(&ret)
        .map(|(&l, &r)| keep * l + r * share)
        .collect())
}

/// `F.cross_entropy` with class-probability targets (same shape as the logits),
/// `cross_entropy_loss_prob_target`.
pub fn cross_entropy_probs_f32(
    logits: &[f32],
    shape: ClassShape,
    target: &[f32],
    weight: Option<&[f32]>,
    reduction: Reduction,
    label_smoothing: f64,
) -> Vec<f32> {
    let ClassShape { n, c, map, .. } = shape;
    let mut logp = vec![0f32; logits.len()];
    log_softmax_f32(logits, &mut logp, n, c, map);
    let keep = (1.0 - label_smoothing) as f32;
    let share = (label_smoothing / c as f64) as f32;
    let prod: Vec<f32> = logp
        .iter()
        .zip(target)
        .enumerate()
        .map(|(i, (&x, &t))| {
            let t = if label_smoothing > 0.0 {
                t * keep + share
            } else {
                t
            };
            let v = x * t;
            match weight {
                Some(w) => v * w[(i / map) % c],
                None => v,
            }
        })
        .collect();
    match reduction {
        Reduction::None => {
            let full = [n, c, map];
            let strides = [c * map, map, 1];
            sum_dims_f32(
                &prod,
                View {
                    shape: &full,
                    strides: &strides,
                    offset: 0,
                },
                &[1],
            )
            .iter()
            .map(|v| -v)
            .collect()
        }
        Reduction::Sum => vec![-sum_f32(&prod)],
        Reduction::Mean => vec![-sum_f32(&prod) / ((n * c * map) / c) as f32],
    }
}

/// `apply_loss_reduction` / `mean_out` / `sum_out` of an elementwise loss.
fn reduce(loss: Vec<f32>, reduction: Reduction) -> Vec<f32> {
    match reduction {
        Reduction::None => loss,
        Reduction::Sum => vec![sum_f32(&loss)],
        Reduction::Mean => vec![sum_f32(&loss) / loss.len() as f32],
    }
}

/// An elementwise loss `f(input - target)`, reduced.
fn loss_of_difference(
    input: &[f32],
    target: &[f32],
    reduction: Reduction,
    f: impl Fn(f32) -> f32,
) -> Vec<f32> {
    let loss = input.iter().zip(target).map(|(&a, &b)| f(a - b)).collect();
    reduce(loss, reduction)
}

/// `F.mse_loss`: (input - target)^2, reduced.
pub fn mse_loss_f32(input: &[f32], target: &[f32], reduction: Reduction) -> Vec<f32> {
    loss_of_difference(input, target, reduction, |d| d * d)
}

/// `mse_loss_backward`: `norm * (input - target) * grad`, norm = 2/numel (mean) or 2 as float32.
pub fn mse_loss_backward_f32(
    grad: &[f32],
    input: &[f32],
    target: &[f32],
    reduction: Reduction,
) -> Vec<f32> {
    let norm = if reduction == Reduction::Mean {
        2.0 / input.len() as f64
    } else {
        2.0
    } as f32;
    let g = |i: usize| if grad.len() == 1 { grad[0] } else { grad[i] };
    (0..input.len())
        .map(|i| norm * (input[i] - target[i]) * g(i))
        .collect()
}

/// `F.l1_loss`: |input - target|, reduced.
pub fn l1_loss_f32(input: &[f32], target: &[f32], reduction: Reduction) -> Vec<f32> {
    loss_of_difference(input, target, reduction, f32::abs)
}

/// `F.smooth_l1_loss(beta)`; beta = 0 is `l1_loss`.
pub fn smooth_l1_loss_f32(
    input: &[f32],
    target: &[f32],
    reduction: Reduction,
    beta: f64,
) -> Vec<f32> {
    if beta == 0.0 {
        return l1_loss_f32(input, target, reduction);
    }
    let beta = beta as f32;
    loss_of_difference(input, target, reduction, |d| {
        let z = d.abs();
        if z < beta {
            0.5 * z * z / beta
        } else {
            z - 0.5 * beta
        }
    })
}

/// `F.huber_loss(delta)`.
pub fn huber_loss_f32(input: &[f32], target: &[f32], reduction: Reduction, delta: f64) -> Vec<f32> {
    let delta = delta as f32;
    loss_of_difference(input, target, reduction, |d| {
        let z = d.abs();
        if z < delta {
            0.5 * z * z
        } else {
            delta * (z - 0.5 * delta)
        }
    })
}

/// `F.binary_cross_entropy`: `(t - 1) * max(log1p(-x), -100) - t * max(log(x), -100)` with
/// glibc's log1pf/logf (a scalar `cpu_kernel`; measured: `log(1 - x)` differs in 3% of
/// elements), times the weight, reduced.
pub fn binary_cross_entropy_f32(
    input: &[f32],
    target: &[f32],
    weight: Option<&[f32]>,
    reduction: Reduction,
) -> Result<Vec<f32>, LossError> {
    let mut loss = Vec::with_capacity(input.len());
    for (&x, &t) in input.iter().zip(target) {
        if !(0.0..=1.0).contains(&x) {
            return Err(LossError::InputOutOfRange);
        }
        let a = (-x).ln_1p().max(-100.0);
        let b = x.ln().max(-100.0);
        loss.push((t - 1.0) * a - t * b);
    }
    if let Some(w) = weight {
        for (l, &wv) in loss.iter_mut().zip(w.iter().cycle()) {
            *l *= wv;
        }
    }
    Ok(reduce(loss, reduction))
}

/// `binary_cross_entropy_backward`: `grad * (x - t) / max((1 - x) * x, 1e-12)`, times the
/// weight, divided by numel for a mean.
pub fn binary_cross_entropy_backward_f32(
    grad: &[f32],
    input: &[f32],
    target: &[f32],
    weight: Option<&[f32]>,
    reduction: Reduction,
) -> Vec<f32> {
    const EPSILON: f32 = 1e-12;
    let g = |i: usize| if grad.len() == 1 { grad[0] } else { grad[i] };
    let mut gi: Vec<f32> = (0..input.len())
        .map(|i| g(i) * (input[i] - target[i]) / ((1.0 - input[i]) * input[i]).max(EPSILON))
        .collect();
    if let Some(w) = weight {
        for (v, &wv) in gi.iter_mut().zip(w.iter().cycle()) {
            *v *= wv;
        }
    }
    if reduction == Reduction::Mean {
        let n = input.len() as f32;
        for v in gi.iter_mut() {
            *v /= n;
        }
    }
    gi
}

/// `F.logsigmoid` (log_sigmoid_cpu_kernel): `min(x, 0) - log1p(exp(-|x|))`, every element
/// through the vector path (16 lanes, SLEEF).
pub(crate) fn log_sigmoid_f32(x: &[f32]) -> Vec<f32> {
    x.iter()
        .map(|&v| vecops::minimum(v, 0.0) - sleef::log1pf_u10_avx512(sleef::expf_u10(-v.abs())))
        .collect()
}

/// `F.binary_cross_entropy_with_logits`: `(1 - t) * x - log_sigmoid(x) * log_weight`, where
/// log_weight = (pos_weight - 1) * t + 1, times the weight, reduced.
pub fn bce_with_logits_f32(
    input: &[f32],
    target: &[f32],
    weight: Option<&[f32]>,
    pos_weight: Option<&[f32]>,
    reduction: Reduction,
) -> Vec<f32> {
    let mut ls = log_sigmoid_f32(input);
    if let Some(pw) = pos_weight {
        for (i, l) in ls.iter_mut().enumerate() {
            let p = pw[i % pw.len()];
            let log_weight = (p - 1.0) * target[i] + 1.0;
            *l *= log_weight;
        }
    }
    let mut loss: Vec<f32> = (0..input.len())
        .map(|i| (1.0 - target[i]) * input[i] - ls[i])
        .collect();
    if let Some(w) = weight {
        for (i, l) in loss.iter_mut().enumerate() {
            *l *= w[i % w.len()];
        }
    }
    reduce(loss, reduction)
}

/// The incoming gradient at element i: one value for a reduced loss, else one per element.
fn grad_at(grad: &[f32], i: usize) -> f32 {
    if grad.len() == 1 { grad[0] } else { grad[i] }
}

/// `1/numel` for a mean (ATen computes it in double and rounds it to float), 1 otherwise.
fn norm(reduction: Reduction, n: usize) -> f32 {
    if reduction == Reduction::Mean {
        (1.0 / n as f64) as f32
    } else {
        1.0
    }
}

/// `binary_cross_entropy_with_logits_backward`: `(sigmoid(x) - t) * grad` (with pos_weight:
/// `((pw * t + 1 - t) * sigmoid(x) - pw * t) * grad`), times the weight, divided by numel for a
/// mean. The sigmoid is ATen's kernel ([`super::unary::Unary::Sigmoid`]).
pub fn bce_with_logits_backward_f32(
    grad: &[f32],
    input: &[f32],
    target: &[f32],
    weight: Option<&[f32]>,
    pos_weight: Option<&[f32]>,
    reduction: Reduction,
) -> Vec<f32> {
    let mut sig = vec![0f32; input.len()];
    super::unary::unary_f32(super::unary::Unary::Sigmoid, input, &mut sig);
    let mut gi: Vec<f32> = match pos_weight {
        Some(pw) => (0..input.len())
            .map(|i| {
                let t = pw[i % pw.len()] * target[i];
                ((t + 1.0 - target[i]) * sig[i]) - t
            })
            .collect(),
        None => sig.iter().zip(target).map(|(&s, &t)| s - t).collect(),
    };
    for (i, v) in gi.iter_mut().enumerate() {
        *v *= grad_at(grad, i);
    }
    if let Some(w) = weight {
        for (i, v) in gi.iter_mut().enumerate() {
            *v *= w[i % w.len()];
        }
    }
    if reduction == Reduction::Mean {
        let n = input.len() as f32;
        gi.iter_mut().for_each(|v| *v /= n);
    }
    gi
}

/// The smooth losses whose backward has one shape: a slope clipped at +-beta or +-delta.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SmoothLoss {
    /// `smooth_l1_loss` with beta > 0 (beta = 0 is `l1_loss`).
    SmoothL1 { beta: f64 },
    /// `huber_loss` with its delta.
    Huber { delta: f64 },
}

impl SmoothLoss {
    /// The vector half's slope in float: `|x| >= beta ? sign(x) : x / beta` (smooth_l1),
    /// `|x| >= delta ? sign(x) * delta : x` (huber).
    #[inline(always)]
    fn vector_slope(self, x: f32) -> f32 {
        let sign = if x > 0.0 { 1.0 } else { -1.0 };
        match self {
            SmoothLoss::SmoothL1 { beta } => {
                let bf = beta as f32;
                if x.abs() >= bf { sign } else { x / bf }
            }
            SmoothLoss::Huber { delta } => {
                let df = delta as f32;
                if x.abs() >= df { sign * df } else { x }
            }
        }
    }

    /// The scalar half (the tail of 16), with beta or delta a double: smooth_l1 takes
    /// `+-norm * grad` or `norm * x * grad / beta`, huber `+-norm * grad * delta` or
    /// `norm * x * grad` (measured).
    #[inline(always)]
    fn scalar(self, x: f32, g: f32, nv: f32) -> f32 {
        match self {
            SmoothLoss::SmoothL1 { beta } => {
                if (x as f64) <= -beta {
                    -nv * g
                } else if (x as f64) >= beta {
                    nv * g
                } else {
                    ((nv * x * g) as f64 / beta) as f32
                }
            }
            SmoothLoss::Huber { delta } => {
                if (x as f64) <= -delta {
                    ((-nv * g) as f64 * delta) as f32
                } else if (x as f64) >= delta {
                    ((nv * g) as f64 * delta) as f32
                } else {
                    nv * x * g
                }
            }
        }
    }
}

/// `smooth_l1_loss_backward` (beta > 0) or `huber_loss_backward`, x = input - target: the
/// kernel's vector half takes `norm * slope(x) * grad` in float ([`SmoothLoss`]); its scalar
/// half (the tail of 16) computes with beta or delta a double.
pub fn smooth_loss_backward_f32(
    grad: &[f32],
    input: &[f32],
    target: &[f32],
    reduction: Reduction,
    loss: SmoothLoss,
) -> Vec<f32> {
    let nv = norm(reduction, input.len());
    let n = input.len();
    let split = n - n % super::unary::CHUNK_AVX2;
    (0..n)
        .map(|i| {
            let x = input[i] - target[i];
            let g = grad_at(grad, i);
            if i < split {
                nv * loss.vector_slope(x) * g
            } else {
                loss.scalar(x, g, nv)
            }
        })
        .collect()
}
