//! `torch.optim` updates on float32 parameters, op for op as the single-tensor CPU paths of
//! torch/optim/sgd.py, adam.py (AdamW is Adam with decoupled weight decay) and rmsprop.py
//! compute them (`foreach` is off on the CPU). Python-side scalars (`1 - beta1 ** step`,
//! `lr / bias_correction1`, `bias_correction2 ** 0.5`) are computed in f64 as Python does and
//! rounded to float32 where they enter a tensor op. Square roots of tensors go through
//! [`super::mkl::sqrt`] (`torch.sqrt` is MKL's vsSqrt on the CPU, which this can only
//! approximate); the `*_with_sqrt` variants take the square root from the caller, which is how
//! the tests check the rest of the update bit for bit against PyTorch's own square roots.

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

/// One `SGD.step()` for one parameter. `buf` is the momentum buffer (None before the first step).
pub fn sgd_step(cfg: &Sgd, param: &mut [f32], grad: &[f32], buf: &mut Option<Vec<f32>>) {
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
    if cfg.momentum != 0.0 {
        let m = scalar(cfg.momentum);
        match buf {
            None => *buf = Some(g.clone()),
            Some(b) => {
                let keep = scalar(1.0 - cfg.dampening);
                for (bv, &gv) in b.iter_mut().zip(&g) {
                    *bv = add_alpha(*bv * m, gv, keep);
                }
            }
        }
        let b = buf.as_ref().map(|b| b.as_slice()).unwrap_or(&[]);
        if cfg.nesterov {
            for (gv, &bv) in g.iter_mut().zip(b) {
                *gv = add_alpha(*gv, bv, m);
            }
        } else {
            g.copy_from_slice(b);
        }
    }
    let neg_lr = scalar(-cfg.lr);
    for (p, &gv) in param.iter_mut().zip(&g) {
        *p = add_alpha(*p, gv, neg_lr);
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

/// One `Adam.step()` / `AdamW.step()` for one parameter (`_single_tensor_adam`, not capturable).
pub(crate) fn adam_step(cfg: &Adam, param: &mut [f32], grad: &[f32], st: &mut AdamState) {
    adam_step_with_sqrt(cfg, param, grad, st, mkl::sqrt);
}

/// [`adam_step`] with the elementwise `torch.sqrt` supplied by the caller.
pub fn adam_step_with_sqrt(
    cfg: &Adam,
    param: &mut [f32],
    grad: &[f32],
    st: &mut AdamState,
    sqrt: impl Fn(f32) -> f32,
) {
    let mut g: Vec<f32> = if cfg.maximize {
        grad.iter().map(|v| -v).collect()
    } else {
        grad.to_vec()
    };
    st.step += 1.0;
    if cfg.weight_decay != 0.0 {
        if cfg.decoupled_weight_decay {
            let f = scalar(1.0 - cfg.lr * cfg.weight_decay);
            param.iter_mut().for_each(|p| *p *= f);
        } else {
            let wd = scalar(cfg.weight_decay);
            for (gv, &p) in g.iter_mut().zip(param.iter()) {
                *gv = add_alpha(*gv, p, wd);
            }
        }
    }
    let w1 = scalar(1.0 - cfg.beta1);
    for (m, &gv) in st.exp_avg.iter_mut().zip(&g) {
        *m = lerp(*m, gv, w1);
    }
    let b2 = scalar(cfg.beta2);
    let v2 = scalar(1.0 - cfg.beta2);
    for (v, &gv) in st.exp_avg_sq.iter_mut().zip(&g) {
        *v = addcmul(*v * b2, gv, gv, v2);
    }
    let step = st.step as f64;
    let bc1 = 1.0 - cfg.beta1.powf(step);
    let bc2 = 1.0 - cfg.beta2.powf(step);
    let step_size = cfg.lr / bc1;
    let bc2_sqrt = scalar(bc2.powf(0.5));
    let eps = scalar(cfg.eps);
    let second: &[f32] = if cfg.amsgrad {
        for (mx, &v) in st.max_exp_avg_sq.iter_mut().zip(&st.exp_avg_sq) {
            *mx = maximum(*mx, v);
        }
        &st.max_exp_avg_sq
    } else {
        &st.exp_avg_sq
    };
    let value = scalar(-step_size);
    for ((p, &m), &v) in param.iter_mut().zip(&st.exp_avg).zip(second) {
        let denom = sqrt(v) / bc2_sqrt + eps;
        *p = addcdiv(*p, m, denom, value);
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

/// One `RMSprop.step()` for one parameter (`_single_tensor_rmsprop`).
pub(crate) fn rmsprop_step(cfg: &RmsProp, param: &mut [f32], grad: &[f32], st: &mut RmsPropState) {
    rmsprop_step_with_sqrt(cfg, param, grad, st, mkl::sqrt);
}

/// [`rmsprop_step`] with the elementwise `torch.sqrt` supplied by the caller.
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
