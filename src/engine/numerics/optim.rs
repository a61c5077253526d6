//! `torch.optim` updates on float32 parameters, op for op as the single-tensor CPU paths of
//! torch/optim/sgd.py, adam.py (AdamW is Adam with decoupled weight decay) and rmsprop.py
//! compute them (`foreach` is off on the CPU). Python-side scalars (`1 - beta1 ** step`,
//! `lr / bias_correction1`, `bias_correction2 ** 0.5`) are computed in f64 as Python does and
//! rounded to float32 where they enter a tensor op. Square roots of tensors go through
//! [`super::mkl::sqrt`] (`torch.sqrt` is MKL's vsSqrt on the CPU, which this can only
//! approximate); the `*_with_sqrt` variants take the square root from the caller, which is how
//! the tests check the rest of the update bit for bit against PyTorch's own square roots.

use super::fast::avx2_fma;
use super::mkl;
use super::pointwise::{add_alpha, addcdiv, addcmul, lerp, scalar};

/// `torch.optim.SGD` hyper-parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sgd {
    pub lr: f64,
    pub momentum: f64,
    pub dampening: f64,
    pub weight_decay: f64,
    pub nesterov: bool,
    pub maximize: bool,
}

impl Default for Sgd {
    fn default() -> Self {
        Sgd {
            lr: 1e-3,
            momentum: 0.0,
            dampening: 0.0,
            weight_decay: 0.0,
            nesterov: false,
            maximize: false,
        }
    }
}

/// SGD's float32 scalars for one step, as `_single_tensor_sgd` hands them to its tensor ops
/// (each a Python float rounded once to float32).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SgdScalars {
    pub maximize: bool,
    /// `grad.add(param, alpha=weight_decay)` when weight decay is on.
    pub weight_decay: Option<f32>,
    /// `(momentum, 1 - dampening)` when momentum is on.
    pub momentum: Option<(f32, f32)>,
    pub nesterov: bool,
    /// `param.add_(grad, alpha=-lr)`.
    pub neg_lr: f32,
}

impl SgdScalars {
    pub(crate) fn of(cfg: &Sgd) -> Self {
        SgdScalars {
            maximize: cfg.maximize,
            weight_decay: (cfg.weight_decay != 0.0).then(|| scalar(cfg.weight_decay)),
            momentum: (cfg.momentum != 0.0)
                .then(|| (scalar(cfg.momentum), scalar(1.0 - cfg.dampening))),
            nesterov: cfg.nesterov,
            neg_lr: scalar(-cfg.lr),
        }
    }
}

/// One `SGD.step()` for one parameter. `buf` is the momentum buffer (None before the first step).
pub fn sgd_step(cfg: &Sgd, param: &mut [f32], grad: &[f32], buf: &mut Option<Vec<f32>>) {
    let s = SgdScalars::of(cfg);
    match buf {
        Some(b) => sgd_pass(&s, param, grad, Some(b), false),
        None if s.momentum.is_some() => {
            let mut b = vec![0.0; param.len()];
            sgd_pass(&s, param, grad, Some(&mut b), true);
            *buf = Some(b);
        }
        None => sgd_pass(&s, param, grad, None, false),
    }
}

/// One SGD step in one pass over the elements, each element through the same float32 ops in
/// the same order as `_single_tensor_sgd`'s tensor ops (those ops are elementwise, so running
/// them element by element instead of op by op changes no bit). `first`: the momentum buffer
/// is new (`grad.clone()` after the weight decay) and `buf` only receives it.
#[inline(always)]
fn sgd_pass(s: &SgdScalars, param: &mut [f32], grad: &[f32], buf: Option<&mut [f32]>, first: bool) {
    let step = |p: &mut f32, gv: f32, b: Option<&mut f32>| {
        let mut g = if s.maximize { -gv } else { gv };
        if let Some(wd) = s.weight_decay {
            g = add_alpha(g, *p, wd);
        }
        if let (Some((m, keep)), Some(b)) = (s.momentum, b) {
            *b = if first { g } else { add_alpha(*b * m, g, keep) };
            g = if s.nesterov { add_alpha(g, *b, m) } else { *b };
        }
        *p = add_alpha(*p, g, s.neg_lr);
    };
    match buf {
        Some(buf) => {
            for ((p, &gv), b) in param.iter_mut().zip(grad).zip(buf.iter_mut()) {
                step(p, gv, Some(b));
            }
        }
        None => {
            for (p, &gv) in param.iter_mut().zip(grad) {
                step(p, gv, None);
            }
        }
    }
}

avx2_fma! {
/// [`sgd_step`] on buffers the caller owns (a momentum buffer from an earlier step, or none
/// when momentum is off), in one pass.
pub(crate) fn sgd_update(s: &SgdScalars, param: &mut [f32], grad: &[f32], buf: Option<&mut [f32]>) {
    sgd_pass(s, param, grad, buf, false)
}
}

/// `torch.optim.Adam` / `AdamW` hyper-parameters (`decoupled_weight_decay` is AdamW).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Adam {
    pub lr: f64,
    pub beta1: f64,
    pub beta2: f64,
    pub eps: f64,
    pub weight_decay: f64,
    pub amsgrad: bool,
    pub maximize: bool,
    pub decoupled_weight_decay: bool,
}

impl Default for Adam {
    fn default() -> Self {
        Adam {
            lr: 1e-3,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            weight_decay: 0.0,
            amsgrad: false,
            maximize: false,
            decoupled_weight_decay: false,
        }
    }
}

/// Adam's per-parameter state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AdamState {
    /// `state['step']`, a float32 tensor.
    pub step: f32,
    pub exp_avg: Vec<f32>,
    pub exp_avg_sq: Vec<f32>,
    pub max_exp_avg_sq: Vec<f32>,
}

impl AdamState {
    pub fn new(n: usize, amsgrad: bool) -> Self {
        AdamState {
            step: 0.0,
            exp_avg: vec![0.0; n],
            exp_avg_sq: vec![0.0; n],
            max_exp_avg_sq: if amsgrad { vec![0.0; n] } else { Vec::new() },
        }
    }
}

/// Adam's float32 scalars for one step, as `_single_tensor_adam` hands them to its tensor ops:
/// each a Python float (bias corrections in f64 as Python computes them) rounded once to
/// float32.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct AdamScalars {
    pub maximize: bool,
    /// `param.mul_(1 - lr * weight_decay)` (AdamW's decoupled decay) when on.
    pub decay_factor: Option<f32>,
    /// `grad.add(param, alpha=weight_decay)` (Adam's L2 decay) when on.
    pub l2: Option<f32>,
    pub one_minus_beta1: f32,
    pub beta2: f32,
    pub one_minus_beta2: f32,
    pub bias_correction2_sqrt: f32,
    pub eps: f32,
    /// `param.addcdiv_(exp_avg, denom, value=-step_size)`.
    pub neg_step_size: f32,
}

impl AdamScalars {
    /// The scalars of step number `step` (already counted).
    pub(crate) fn of(cfg: &Adam, step: f64) -> Self {
        let decay = cfg.weight_decay != 0.0;
        let bc1 = 1.0 - cfg.beta1.powf(step);
        let bc2 = 1.0 - cfg.beta2.powf(step);
        AdamScalars {
            maximize: cfg.maximize,
            decay_factor: (decay && cfg.decoupled_weight_decay)
                .then(|| scalar(1.0 - cfg.lr * cfg.weight_decay)),
            l2: (decay && !cfg.decoupled_weight_decay).then(|| scalar(cfg.weight_decay)),
            one_minus_beta1: scalar(1.0 - cfg.beta1),
            beta2: scalar(cfg.beta2),
            one_minus_beta2: scalar(1.0 - cfg.beta2),
            bias_correction2_sqrt: scalar(bc2.powf(0.5)),
            eps: scalar(cfg.eps),
            neg_step_size: scalar(-(cfg.lr / bc1)),
        }
    }
}

/// One `Adam.step()` / `AdamW.step()` for one parameter (`_single_tensor_adam`, not capturable),
/// with the elementwise `torch.sqrt` supplied by the caller (MKL's vsSqrt on the CPU).
pub fn adam_step_with_sqrt(
    cfg: &Adam,
    param: &mut [f32],
    grad: &[f32],
    st: &mut AdamState,
    sqrt: impl Fn(f32) -> f32,
) {
    st.step += 1.0;
    let s = AdamScalars::of(cfg, st.step as f64);
    let max = cfg.amsgrad.then_some(st.max_exp_avg_sq.as_mut_slice());
    adam_pass(
        &s,
        param,
        grad,
        (&mut st.exp_avg, &mut st.exp_avg_sq, max),
        sqrt,
    );
}

/// Adam's moments: `exp_avg`, `exp_avg_sq` and, with amsgrad, `max_exp_avg_sq`.
type Moments<'a> = (&'a mut [f32], &'a mut [f32], Option<&'a mut [f32]>);

/// One Adam step in one pass over the elements, each element through the same float32 ops in
/// the same order as `_single_tensor_adam`'s tensor ops (those ops are elementwise, so running
/// them element by element instead of op by op changes no bit).
#[inline(always)]
fn adam_pass(
    s: &AdamScalars,
    param: &mut [f32],
    grad: &[f32],
    (exp_avg, exp_avg_sq, max): Moments<'_>,
    sqrt: impl Fn(f32) -> f32,
) {
    let step = |p: &mut f32, gv: f32, m: &mut f32, v: &mut f32, mx: Option<&mut f32>| {
        let mut g = if s.maximize { -gv } else { gv };
        if let Some(f) = s.decay_factor {
            *p *= f;
        }
        if let Some(wd) = s.l2 {
            g = add_alpha(g, *p, wd);
        }
        *m = lerp(*m, g, s.one_minus_beta1);
        *v = addcmul(*v * s.beta2, g, g, s.one_minus_beta2);
        let second = match mx {
            Some(mx) => {
                *mx = maximum(*mx, *v);
                *mx
            }
            None => *v,
        };
        let denom = sqrt(second) / s.bias_correction2_sqrt + s.eps;
        *p = addcdiv(*p, *m, denom, s.neg_step_size);
    };
    let it = param
        .iter_mut()
        .zip(grad)
        .zip(exp_avg.iter_mut().zip(exp_avg_sq.iter_mut()));
    match max {
        Some(max) => {
            for (((p, &g), (m, v)), mx) in it.zip(max.iter_mut()) {
                step(p, g, m, v, Some(mx));
            }
        }
        None => {
            for ((p, &g), (m, v)) in it {
                step(p, g, m, v, None);
            }
        }
    }
}

avx2_fma! {
/// [`adam_step_with_sqrt`] on buffers the caller owns, in one pass; `max_exp_avg_sq` with amsgrad.
pub(crate) fn adam_update(
    s: &AdamScalars,
    param: &mut [f32],
    grad: &[f32],
    exp_avg: &mut [f32],
    exp_avg_sq: &mut [f32],
    max_exp_avg_sq: Option<&mut [f32]>,
) {
    adam_pass(s, param, grad, (exp_avg, exp_avg_sq, max_exp_avg_sq), mkl::sqrt)
}
}

/// `torch.maximum`: NaN if either is NaN.
fn maximum(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::NAN
    } else {
        a.max(b)
    }
}

/// `torch.optim.RMSprop` hyper-parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RmsProp {
    pub lr: f64,
    pub alpha: f64,
    pub eps: f64,
    pub weight_decay: f64,
    pub momentum: f64,
    pub centered: bool,
    pub maximize: bool,
}

impl Default for RmsProp {
    fn default() -> Self {
        RmsProp {
            lr: 1e-2,
            alpha: 0.99,
            eps: 1e-8,
            weight_decay: 0.0,
            momentum: 0.0,
            centered: false,
            maximize: false,
        }
    }
}

/// RMSprop's per-parameter state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RmsPropState {
    pub square_avg: Vec<f32>,
    pub grad_avg: Vec<f32>,
    pub momentum_buffer: Vec<f32>,
}

impl RmsPropState {
    pub fn new(n: usize) -> Self {
        RmsPropState {
            square_avg: vec![0.0; n],
            grad_avg: vec![0.0; n],
            momentum_buffer: vec![0.0; n],
        }
    }
}

/// One `RMSprop.step()` for one parameter (`_single_tensor_rmsprop`), with the elementwise
/// `torch.sqrt` supplied by the caller.
pub fn rmsprop_step_with_sqrt(
    cfg: &RmsProp,
    param: &mut [f32],
    grad: &[f32],
    st: &mut RmsPropState,
    sqrt: impl Fn(f32) -> f32,
) {
    let mut g: Vec<f32> = if cfg.maximize {
        grad.iter().map(|v| -v).collect()
    } else {
        grad.to_vec()
    };
    if cfg.weight_decay != 0.0 {
        let wd = scalar(cfg.weight_decay);
        for (gv, &p) in g.iter_mut().zip(param.iter()) {
            *gv = add_alpha(*gv, p, wd);
        }
    }
    let a = scalar(cfg.alpha);
    let one_minus = scalar(1.0 - cfg.alpha);
    for (s, &gv) in st.square_avg.iter_mut().zip(&g) {
        *s = addcmul(*s * a, gv, gv, one_minus);
    }
    let eps = scalar(cfg.eps);
    let avg: Vec<f32> = if cfg.centered {
        for (ga, &gv) in st.grad_avg.iter_mut().zip(&g) {
            *ga = lerp(*ga, gv, one_minus);
        }
        st.square_avg
            .iter()
            .zip(&st.grad_avg)
            .map(|(&s, &ga)| sqrt(addcmul(s, ga, ga, -1.0)) + eps)
            .collect()
    } else {
        st.square_avg.iter().map(|&s| sqrt(s) + eps).collect()
    };
    if cfg.momentum > 0.0 {
        let m = scalar(cfg.momentum);
        for ((b, &gv), &av) in st.momentum_buffer.iter_mut().zip(&g).zip(&avg) {
            *b = addcdiv(*b * m, gv, av, 1.0);
        }
        let neg_lr = scalar(-cfg.lr);
        for (p, &b) in param.iter_mut().zip(&st.momentum_buffer) {
            *p = add_alpha(*p, b, neg_lr);
        }
    } else {
        let v = scalar(-cfg.lr);
        for ((p, &gv), &av) in param.iter_mut().zip(&g).zip(&avg) {
            *p = addcdiv(*p, gv, av, v);
        }
    }
}
