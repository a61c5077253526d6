//! softmax/log_softmax and their backward, nll_loss and its backward, and the gathers
//! (index_select, embedding, gather) with index_add for their backward, on host buffers.

use super::elementwise::{in_order, typed};
use super::math::Float;
use super::reduce::{dim_last, unrows};
use super::{HostStorage, Stored, got};
use crate::engine::dtype::DType;
use crate::engine::element::Element;
use crate::engine::error::{EngineError, Result};
use crate::engine::hostbuf::{try_with_capacity, try_zeroed};
use crate::engine::interrupt::{CHUNK, poll};
use crate::engine::layout::Layout;
use crate::engine::numerics::lanes::Real;
use crate::engine::numerics::loss as loss_kernels;
use crate::engine::numerics::softmax as softmax_kernels;
use crate::engine::op::{Checked, NllLoss, Operands};
use crate::engine::op::{Reduction, UnaryOp};
use half::{bf16, f16};

/// Calls `$f::<T>(...)` for the floating dtypes, or returns the "not implemented" error.
macro_rules! float_dispatch {
    ($dtype:expr, $what:expr, $f:ident ( $($args:expr),* )) => {
        match $dtype {
            DType::Float32 => $f::<f32>($($args),*),
            DType::Float64 => $f::<f64>($($args),*),
            DType::Float16 => $f::<f16>($($args),*),
            DType::BFloat16 => $f::<bf16>($($args),*),
            other => Err(EngineError::runtime(format!(
                "\"{}\" not implemented for '{}'",
                $what,
                other.scalar_name()
            ))),
        }
    };
}

// ----- softmax -----

/// One row of softmax or log_softmax. float32 (and the reduced types, through float32) in
/// float32 arithmetic, float64 in float64: the max, the sum of exp(x - max) in order, then
/// exp(x - max) / sum or x - max - log(sum).
fn softmax_row<T: Float>(row: &[T], out: &mut [T], log: bool) {
    if T::DTYPE == DType::Float64 {
        let m = row
            .iter()
            .map(|v| v.to_f64())
            .fold(f64::NEG_INFINITY, f64::max);
        let s: f64 = row.iter().map(|v| (v.to_f64() - m).exp()).sum();
        for (o, v) in out.iter_mut().zip(row) {
            let t = v.to_f64() - m;
            *o = T::from_f64(if log { t - s.ln() } else { t.exp() / s });
        }
        return;
    }
    let m = row
        .iter()
        .map(|v| v.to_f32())
        .fold(f32::NEG_INFINITY, f32::max);
    let mut s = 0f32;
    for v in row {
        s += Float::exp(v.to_f32() - m);
    }
    let ls = Float::ln(s);
    for (o, v) in out.iter_mut().zip(row) {
        let t = v.to_f32() - m;
        *o = T::from_f32(if log { t - ls } else { Float::exp(t) / s });
    }
}

/// Rows of `layout` along `dim` (dim last): the row-major values and the row length.
fn rows<'a, T: Element>(
    v: &'a [T],
    layout: &Layout,
    dim: usize,
) -> Result<(std::borrow::Cow<'a, [T]>, usize)> {
    let len = if layout.dims() == 0 {
        1
    } else {
        layout.shape[dim]
    };
    let (p, _) = dim_last(layout, dim);
    Ok((in_order(v, &p)?, len))
}

fn softmax_t<T: Float + Stored>(
    h: &HostStorage,
    layout: &Layout,
    dim: usize,
    log: bool,
) -> Result<HostStorage> {
    let (rv, len) = rows(typed::<T>(h)?, layout, dim)?;
    let n = rv.len();
    let mut out = got(try_zeroed::<T>(n), n)?;
    if len > 0 {
        let mut since = 0;
        for (r, o) in rv.chunks(len).zip(out.chunks_mut(len)) {
            softmax_row(r, o, log);
            since += len;
            if since >= CHUNK {
                since = 0;
                poll()?;
            }
        }
    }
    Ok(T::wrap(unrows(out, &layout.shape, dim)?))
}

/// `outer x dim x inner` of a shape split at `dim` (a 0-dim shape is 1 x 1 x 1).
fn split_at_dim(shape: &[usize], dim: usize) -> (usize, usize, usize) {
    if shape.is_empty() {
        return (1, 1, 1);
    }
    (
        shape[..dim].iter().product(),
        shape[dim],
        shape[dim + 1..].iter().product(),
    )
}

/// softmax (log_softmax when `log`) along `dim`: float32 through engine::numerics (ATen's
/// vectorised kernels, bit for bit), the other floats row by row.
pub(crate) fn softmax(
    h: &HostStorage,
    layout: &Layout,
    dim: usize,
    log: bool,
) -> Result<HostStorage> {
    if h.dtype() == DType::Float32 {
        // A contiguous input is read in place (ATen's `.contiguous()` is a no-op then); only a
        // strided one is gathered first.
        let gathered;
        let x = match (h, layout.contiguous_range()) {
            (HostStorage::F32(v), Some(r)) => &v[r],
            _ => {
                gathered = super::elementwise::to_dtype(h, layout, DType::Float32)?;
                typed::<f32>(&gathered)?
            }
        };
        let (outer, d, inner) = split_at_dim(&layout.shape, dim);
        // written by the kernel's threads, not zeroed first (see numerics::softmax)
        let out = softmax_kernels::softmax_f32_new(x, outer, d, inner, log);
        return Ok(HostStorage::F32(got(out, x.len())?));
    }
    if let (HostStorage::F64(v), Some(r)) = (h, layout.contiguous_range()) {
        // float64 through Vectorized<double>'s kernels (SLEEF's double exp and log).
        let x = &v[r];
        let (outer, d, inner) = split_at_dim(&layout.shape, dim);
        let out = softmax_kernels::softmax_f64_new(x, outer, d, inner, log);
        return Ok(HostStorage::F64(got(out, x.len())?));
    }
    if h.dtype() == DType::Float64 {
        // A strided float64 input: ATen's `.contiguous()` first, then the same kernel.
        let gathered = super::elementwise::to_dtype(h, layout, DType::Float64)?;
        let contiguous = Layout::contiguous(&layout.shape);
        return softmax(&gathered, &contiguous, dim, log);
    }
    let what = if log {
        "log_softmax_lastdim_kernel_impl"
    } else {
        "softmax_lastdim_kernel_impl"
    };
    float_dispatch!(h.dtype(), what, softmax_t(h, layout, dim, log))
}

fn softmax_backward_t<T: Float + Stored>(
    grad: &HostStorage,
    out: &HostStorage,
    shape: &[usize],
    dim: usize,
    log: bool,
) -> Result<HostStorage> {
    let l = Layout::contiguous(shape);
    let (g, len) = rows(typed::<T>(grad)?, &l, dim)?;
    let (y, _) = rows(typed::<T>(out)?, &l, dim)?;
    let n = g.len();
    let mut res = got(try_zeroed::<T>(n), n)?;
    if len > 0 {
        let f64m = T::DTYPE == DType::Float64;
        for ((gr, yr), rr) in g.chunks(len).zip(y.chunks(len)).zip(res.chunks_mut(len)) {
            if f64m {
                if log {
                    // grad - exp(out) * sum(grad)
                    let s: f64 = gr.iter().map(|v| v.to_f64()).sum();
                    for ((r, gv), yv) in rr.iter_mut().zip(gr).zip(yr) {
                        *r = T::from_f64(gv.to_f64() - yv.to_f64().exp() * s);
                    }
                } else {
                    // out * (grad - sum(grad * out))
                    let d: f64 = gr
                        .iter()
                        .zip(yr)
                        .map(|(a, b)| a.to_f64() * b.to_f64())
                        .sum();
                    for ((r, gv), yv) in rr.iter_mut().zip(gr).zip(yr) {
                        *r = T::from_f64(yv.to_f64() * (gv.to_f64() - d));
                    }
                }
            } else if log {
                let mut s = 0f32;
                for v in gr {
                    s += v.to_f32();
                }
                for ((r, gv), yv) in rr.iter_mut().zip(gr).zip(yr) {
                    *r = T::from_f32(gv.to_f32() - Float::exp(yv.to_f32()) * s);
                }
            } else {
                let mut d = 0f32;
                for (a, b) in gr.iter().zip(yr) {
                    d += a.to_f32() * b.to_f32();
                }
                for ((r, gv), yv) in rr.iter_mut().zip(gr).zip(yr) {
                    *r = T::from_f32(yv.to_f32() * (gv.to_f32() - d));
                }
            }
        }
    }
    Ok(T::wrap(unrows(res, shape, dim)?))
}

/// An activation's backward in float64 (float64 values; float16/bfloat16 rounded once): from
/// the result y for sigmoid, tanh and ReLU, from the input x for the others.
fn activation_backward_f64(op: UnaryOp, g: f64, v: f64) -> f64 {
    use crate::engine::numerics::backward::{elu_from_input, logit};
    use UnaryOp::*;
    match op.as_elu() {
        Sigmoid => g * (1.0 - v) * v,
        Tanh => g * (1.0 - v * v),
        Relu => {
            if v <= 0.0 {
                0.0
            } else {
                g
            }
        }
        Silu => {
            let s = 1.0 / (1.0 + (-v).exp());
            g * s * (1.0 + v * (1.0 - s))
        }
        Mish => {
            let s = 1.0 / (1.0 + (-v).exp());
            let t = v.exp().ln_1p().tanh();
            g * (t + v * s * (1.0 - t * t))
        }
        Hardswish => {
            if v < -3.0 {
                0.0
            } else if v <= 3.0 {
                g * (v / 3.0 + 0.5)
            } else {
                g
            }
        }
        Hardsigmoid => {
            if v > -3.0 && v < 3.0 {
                g / 6.0
            } else {
                0.0
            }
        }
        LogSigmoid => {
            let b = (-v.abs()).exp();
            let (md, sign) = if v < 0.0 { (1.0, 1.0) } else { (0.0, -1.0) };
            (md - sign * (b / (1.0 + b))) * g
        }
        Softplus { beta, threshold } => {
            let z = (v * beta).exp();
            if v * beta > threshold {
                g
            } else {
                g * z / (z + 1.0)
            }
        }
        Elu {
            alpha,
            scale,
            input_scale,
        } => elu_from_input(g, v, alpha, scale, input_scale, f64::exp),
        LeakyRelu { slope } => {
            if v > 0.0 {
                g
            } else {
                g * slope
            }
        }
        Hardtanh { min, max } => {
            if v <= min || v >= max {
                0.0
            } else {
                g
            }
        }
        Logit { eps } => logit(g, v, eps),
        Gelu => {
            let cdf = 0.5 * (1.0 + UnaryOp::Erf.f64(v * std::f64::consts::FRAC_1_SQRT_2));
            let pdf = std::f64::consts::FRAC_2_SQRT_PI
                * std::f64::consts::FRAC_1_SQRT_2
                * 0.5
                * (v * v * -0.5).exp();
            g * (cdf + v * pdf)
        }
        GeluTanh => {
            let beta = std::f64::consts::SQRT_2 * std::f64::consts::FRAC_2_SQRT_PI * 0.5;
            let kappa = 0.044715;
            let inner = beta * (v + kappa * v * v * v);
            let t = inner.tanh();
            let left = 0.5 * v;
            let right = 1.0 + t;
            let left_d = 0.5 * right;
            let tanh_d = 1.0 - t * t;
            let inner_d = beta * (1.0 + 3.0 * kappa * v * v);
            g * (left_d + left * tanh_d * inner_d)
        }
        _ => f64::NAN,
    }
}

fn activation_backward_t<T: Float + Stored>(op: UnaryOp, g: &[T], y: &[T]) -> Result<HostStorage> {
    let n = g.len();
    let mut out = got(try_with_capacity::<T>(n), n)?;
    for (i, (&g, &y)) in g.iter().zip(y).enumerate() {
        out.push(T::from_f64(activation_backward_f64(
            op,
            g.to_f64(),
            y.to_f64(),
        )));
        if i % CHUNK == CHUNK - 1 {
            poll()?;
        }
    }
    Ok(T::wrap(out))
}

/// The engine::numerics backward kernel of an activation.
fn backward_kernel(op: UnaryOp) -> Option<crate::engine::numerics::backward::Backward> {
    use crate::engine::numerics::backward::Backward as B;
    let f = |v: f64| v as f32;
    Some(match op.as_elu() {
        UnaryOp::Sigmoid => B::Sigmoid,
        UnaryOp::Tanh => B::Tanh,
        UnaryOp::Relu => B::Relu,
        UnaryOp::Gelu => B::Gelu,
        UnaryOp::GeluTanh => B::GeluTanh,
        UnaryOp::Silu => B::Silu,
        UnaryOp::Mish => B::Mish,
        UnaryOp::Hardswish => B::Hardswish,
        UnaryOp::Hardsigmoid => B::Hardsigmoid,
        UnaryOp::LogSigmoid => B::LogSigmoid,
        UnaryOp::Softplus { beta, threshold } => B::Softplus {
            beta: f(beta),
            threshold: f(threshold),
        },
        UnaryOp::Elu {
            alpha,
            scale,
            input_scale,
        } => B::Elu {
            alpha: f(alpha),
            scale: f(scale),
            input_scale: f(input_scale),
        },
        UnaryOp::LeakyRelu { slope } => B::LeakyRelu { slope: f(slope) },
        UnaryOp::Hardtanh { min, max } => B::Hardtanh {
            min: f(min),
            max: f(max),
        },
        UnaryOp::Logit { eps } => B::Logit { eps: f(eps) },
        _ => return None,
    })
}

/// An activation's input gradient: sigmoid_backward / tanh_backward (from the result y),
/// ReLU's threshold_backward (`y <= 0 ? 0 : grad`), and the backward kernels of gelu, silu,
/// mish, hardswish, hardsigmoid, log_sigmoid, softplus, elu, leaky_relu and hardtanh (from the
/// input x): float32 through PyTorch's vectorised kernels (engine::numerics), the other floats
/// in float64 rounded once. `grad_y` is `[grad, y]` (y: the result, or the input x).
pub(crate) fn activation_backward(
    op: UnaryOp,
    grad_y: Operands<'_, (&HostStorage, &Layout), 2>,
) -> Result<HostStorage> {
    use crate::engine::numerics::backward::backward_f32;
    let (n, dtype) = (Layout::contiguous(grad_y.shape).numel(), grad_y.dtype);
    let [grad, out] = grad_y.args;
    let Some(which) = backward_kernel(op) else {
        return Err(EngineError::runtime(format!(
            "internal: no activation backward for {}",
            op.name()
        )));
    };
    if dtype == DType::Float32 {
        // read in place when contiguous: copying both first was 8 % of a small CNN's step
        let g = in_order(typed::<f32>(grad.0)?, grad.1)?;
        let y = in_order(typed::<f32>(out.0)?, out.1)?;
        let mut gi = got(try_zeroed::<f32>(n), n)?;
        if matches!(op, UnaryOp::Gelu) && n > 1 {
            // oneDNN's gelu backward runs over the whole (contiguous) tensor
            backward_f32(which, &g, &y, &mut gi);
            return Ok(HostStorage::F32(gi));
        }
        for ((o, g), y) in gi
            .chunks_mut(CHUNK)
            .zip(g.chunks(CHUNK))
            .zip(y.chunks(CHUNK))
        {
            backward_f32(which, g, y, o);
            poll()?;
        }
        return Ok(HostStorage::F32(gi));
    }
    fn go<T: Float + Stored>(
        op: UnaryOp,
        grad: (&HostStorage, &Layout),
        out: (&HostStorage, &Layout),
    ) -> Result<HostStorage> {
        let g = in_order(typed::<T>(grad.0)?, grad.1)?;
        let y = in_order(typed::<T>(out.0)?, out.1)?;
        activation_backward_t::<T>(op, &g, &y)
    }
    float_dispatch!(dtype, "activation_backward", go(op, grad, out))
}

/// softmax's (or log_softmax's) input gradient from `[grad, out]` along `dim`.
pub(crate) fn softmax_backward(
    grad_out: Operands<'_, &HostStorage, 2>,
    dim: usize,
    log: bool,
) -> Result<HostStorage> {
    let ([grad, out], shape) = (grad_out.args, grad_out.shape);
    if let (HostStorage::F32(g), HostStorage::F32(y)) = (grad, out) {
        let (outer, d, inner) = split_at_dim(shape, dim);
        let gi = softmax_kernels::softmax_backward_f32_new(g, y, outer, d, inner, log);
        return Ok(HostStorage::F32(got(gi, g.len())?));
    }
    float_dispatch!(
        grad.dtype(),
        "softmax_backward_data",
        softmax_backward_t(grad, out, shape, dim, log)
    )
}

// ----- nll_loss -----

fn targets(t: &HostStorage) -> Result<Vec<i64>> {
    Ok(match t {
        HostStorage::I64(v) => v.clone(),
        HostStorage::U8(v) => v.iter().map(|&x| x as i64).collect(),
        other => return Err(super::elementwise::dtype_error(DType::Int64, other.dtype())),
    })
}

#[allow(clippy::too_many_arguments)]
fn nll_t<T: Float + Stored>(
    lp: &HostStorage,
    loss: &NllLoss<'_, HostStorage>,
) -> Result<Checked<HostStorage>> {
    let (n, c, ignore) = (loss.n, loss.c, loss.ignore_index);
    let lp = typed::<T>(lp)?;
    let tv = targets(loss.target)?;
    let wv = loss.weight.map(typed::<T>).transpose()?;
    let mut bad = Vec::new();
    let mut per = got(try_zeroed::<T>(n), n)?;
    let (mut sum, mut total_w) = (0.0f64, 0.0f64);
    for i in 0..n {
        let t = tv[i];
        if t == ignore {
            continue;
        }
        if t < 0 || t >= c as i64 {
            bad.push(i);
            continue;
        }
        let w = wv.map(|w| w[t as usize].to_f64()).unwrap_or(1.0);
        let l = T::from_f64(-lp[i * c + t as usize].to_f64() * w);
        per[i] = l;
        sum += l.to_f64();
        total_w += w;
    }
    let value = match loss.reduction {
        Reduction::None => per,
        Reduction::Sum => vec![T::from_f64(sum)],
        Reduction::Mean => vec![if T::DTYPE == DType::Float64 {
            T::from_f64(sum / total_w)
        } else {
            T::from_f32(sum as f32 / total_w as f32)
        }],
    };
    Ok(Checked {
        value: T::wrap(value),
        bad,
    })
}

/// The numerics kernels' description of an nll_loss: `[n, c]` classes (one map) and the
/// reduction.
fn numerics_nll(
    loss: &NllLoss<'_, HostStorage>,
) -> (loss_kernels::ClassShape, loss_kernels::Reduction) {
    use loss_kernels::Reduction as R;
    let shape = loss_kernels::ClassShape {
        n: loss.n,
        c: loss.c,
        map: 1,
        one_d: false,
    };
    let r = match loss.reduction {
        Reduction::None => R::None,
        Reduction::Mean => R::Mean,
        Reduction::Sum => R::Sum,
    };
    (shape, r)
}

/// The numerics kernel's nll_loss of `x` when every target is valid (None: a bad target).
fn nll_kernel<T: Stored + Real>(
    x: &[T],
    loss: &NllLoss<'_, HostStorage>,
) -> Result<Option<HostStorage>> {
    let (n, c, ignore) = (loss.n, loss.c, loss.ignore_index);
    let tv = targets(loss.target)?;
    let valid = tv[..n]
        .iter()
        .all(|&t| t == ignore || (t >= 0 && t < c as i64));
    let w = match loss.weight {
        Some(w) => Some(typed::<T>(w)?),
        None => None,
    };
    if !valid {
        return Ok(None);
    }
    let (shape, r) = numerics_nll(loss);
    Ok(loss_kernels::nll_loss_t(x, shape, &tv[..n], w, r, ignore)
        .ok()
        .map(|(value, _)| T::wrap(value)))
}

/// nll_loss of `[n, c]` log-probabilities (contiguous) against `[n]` targets.
pub(crate) fn nll_loss(
    lp: &HostStorage,
    loss: &NllLoss<'_, HostStorage>,
) -> Result<Checked<HostStorage>> {
    // float32: LossNLL.cpp's kernel (its 8-level cascade) when every target is valid,
    // float64 the same kernel in double; a bad target goes through the generic loop below,
    // which lists them all
    let fast = match lp {
        HostStorage::F32(x) => nll_kernel(x, loss)?,
        HostStorage::F64(x) => nll_kernel(x, loss)?,
        _ => None,
    };
    if let Some(value) = fast {
        return Ok(Checked {
            value,
            bad: Vec::new(),
        });
    }
    float_dispatch!(lp.dtype(), "nll_loss_out_frame", nll_t(lp, loss))
}

fn nll_backward_t<T: Float + Stored>(
    grad: &HostStorage,
    loss: &NllLoss<'_, HostStorage>,
) -> Result<HostStorage> {
    let (n, c, ignore) = (loss.n, loss.c, loss.ignore_index);
    let g = typed::<T>(grad)?;
    let tv = targets(loss.target)?;
    let wv = loss.weight.map(typed::<T>).transpose()?;
    let w = |t: usize| wv.map(|w| w[t].to_f64()).unwrap_or(1.0);
    let total: f64 = (0..n)
        .filter(|&i| tv[i] != ignore && tv[i] >= 0 && (tv[i] as usize) < c)
        .map(|i| w(tv[i] as usize))
        .sum();
    let mut d = got(try_zeroed::<T>(n * c), n * c)?;
    let r = |x: f64| T::from_f64(x).to_f64();
    for i in 0..n {
        let t = tv[i];
        if t == ignore || t < 0 || t as usize >= c {
            continue;
        }
        let gi = match loss.reduction {
            Reduction::None => -g[i].to_f64(),
            Reduction::Sum => -g[0].to_f64(),
            Reduction::Mean => -r(g[0].to_f64() / r(total)),
        };
        d[i * c + t as usize] = T::from_f64(w(t as usize) * gi);
    }
    Ok(T::wrap(d))
}

/// The `[n, c]` input gradient of nll_loss.
pub(crate) fn nll_loss_backward(
    grad: &HostStorage,
    loss: &NllLoss<'_, HostStorage>,
    dtype: DType,
) -> Result<HostStorage> {
    if dtype == DType::Float32 {
        // LossNLL.cpp's backward, dividing by the forward's total weight (its cascade sum)
        use loss_kernels::{Reduction as R, nll_loss_backward_f32, nll_loss_f32};
        let (n, c, ignore) = (loss.n, loss.c, loss.ignore_index);
        let g = typed::<f32>(grad)?;
        let tv = targets(loss.target)?;
        let w = loss.weight.map(typed::<f32>).transpose()?;
        let (shape, r) = numerics_nll(loss);
        let mut gi = got(try_zeroed::<f32>(n * c), n * c)?;
        let total = match (r, w) {
            (R::Mean, Some(_)) => nll_loss_f32(&gi, shape, &tv[..n], w, r, ignore)
                .map(|o| o.total_weight)
                .unwrap_or(0.0),
            (R::Mean, None) => tv[..n].iter().filter(|&&t| t != ignore).count() as f32,
            _ => 0.0,
        };
        if g.len() >= if r == R::None { n } else { 1 } {
            nll_loss_backward_f32(g, shape, &tv[..n], w, r, ignore, total, &mut gi);
        }
        return Ok(HostStorage::F32(gi));
    }
    float_dispatch!(
        dtype,
        "nll_loss_backward_out_frame",
        nll_backward_t(grad, loss)
    )
}

// ----- gathers -----

/// The positions of the entries of `idx` outside [0, size): the picks index_select and
/// embedding refuse (an IndexError on the CPU, a device-side assert each on CUDA).
pub(crate) fn out_of_range(idx: &[i64], size: usize) -> Vec<usize> {
    idx.iter()
        .enumerate()
        .filter(|(_, i)| **i < 0 || **i >= size as i64)
        .map(|(p, _)| p)
        .collect()
}

fn index_values(index: &HostStorage) -> Result<Vec<i64>> {
    Ok(match index {
        HostStorage::I64(v) => v.clone(),
        HostStorage::I32(v) => v.iter().map(|&x| x as i64).collect(),
        other => return Err(super::elementwise::dtype_error(DType::Int64, other.dtype())),
    })
}

fn index_select_t<T: Stored>(
    h: &HostStorage,
    layout: &Layout,
    dim: usize,
    idx: &[i64],
) -> Result<Checked<HostStorage>> {
    let src = in_order(typed::<T>(h)?, layout)?;
    let l = Layout::contiguous(&layout.shape);
    let nd = l.dims();
    let size = if nd == 0 { 1 } else { l.shape[dim] };
    let outer: usize = l.shape[..dim.min(nd)].iter().product();
    let inner: usize = if nd > 0 {
        l.shape[dim + 1..].iter().product()
    } else {
        1
    };
    let bad = out_of_range(idx, size);
    let n = outer * idx.len() * inner;
    let mut out = got(try_with_capacity(n), n)?;
    if n > 0 {
        for o in 0..outer {
            for &i in idx {
                if i < 0 || i >= size as i64 {
                    out.resize(out.len() + inner, T::ZERO);
                    continue;
                }
                let base = (o * size + i as usize) * inner;
                out.extend_from_slice(&src[base..base + inner]);
            }
            poll()?;
        }
    }
    Ok(Checked {
        value: T::wrap(out),
        bad,
    })
}

/// Slices along `dim` picked by `index` (int64/int32, 1-D).
pub(crate) fn index_select(
    h: &HostStorage,
    layout: &Layout,
    dim: usize,
    index: &HostStorage,
) -> Result<Checked<HostStorage>> {
    let idx = index_values(index)?;
    crate::dtype_dispatch!(h.dtype(), index_select_t(h, layout, dim, &idx))
}

fn gather_t<T: Stored>(
    h: &HostStorage,
    layout: &Layout,
    dim: usize,
    idx: &[i64],
    ishape: &[usize],
) -> Result<Checked<HostStorage>> {
    let v = typed::<T>(h)?;
    let size = if layout.dims() == 0 {
        1
    } else {
        layout.shape[dim]
    } as i64;
    let ist = crate::engine::layout::contiguous_strides(ishape);
    let mut bad = Vec::new();
    let mut out = got(try_with_capacity(idx.len()), idx.len())?;
    for (k, &x) in idx.iter().enumerate() {
        if x < 0 || x >= size {
            bad.push(k);
            out.push(T::ZERO);
            continue;
        }
        let mut off = layout.offset;
        let mut rem = k;
        for (d, &step) in ist.iter().enumerate() {
            let c = rem / step;
            rem %= step;
            let c = if d == dim { x as usize } else { c };
            off += c * layout.strides.get(d).copied().unwrap_or(0);
        }
        out.push(v.get(off).copied().unwrap_or(T::ZERO));
        if k % CHUNK == CHUNK - 1 {
            poll()?;
        }
    }
    Ok(Checked {
        value: T::wrap(out),
        bad,
    })
}

/// `out[...i...] = self[...index[...i...]...]` along `dim`.
pub(crate) fn gather(
    h: &HostStorage,
    layout: &Layout,
    dim: usize,
    index: &HostStorage,
    index_shape: &[usize],
) -> Result<Checked<HostStorage>> {
    let idx = index_values(index)?;
    crate::dtype_dispatch!(h.dtype(), gather_t(h, layout, dim, &idx, index_shape))
}

fn index_add_t<T: Stored + super::arith::Arith>(
    src: &HostStorage,
    shape: &[usize],
    dim: usize,
    idx: &[i64],
) -> Result<HostStorage> {
    let s = typed::<T>(src)?;
    let total: usize = shape.iter().product();
    let mut out = got(try_zeroed::<T>(total), total)?;
    let nd = shape.len();
    let size = if nd == 0 { 1 } else { shape[dim] };
    let outer: usize = shape[..dim.min(nd)].iter().product();
    let inner: usize = if nd > 0 {
        shape[dim + 1..].iter().product()
    } else {
        1
    };
    for o in 0..outer {
        for (p, &i) in idx.iter().enumerate() {
            if i < 0 || i as usize >= size {
                continue;
            }
            let from = (o * idx.len() + p) * inner;
            let to = (o * size + i as usize) * inner;
            for k in 0..inner {
                out[to + k] = out[to + k].add(s[from + k]);
            }
        }
        poll()?;
    }
    Ok(T::wrap(out))
}

/// Zeros of `shape` with the slices of `src` added along `dim` at `index`.
pub(crate) fn index_add(
    src: &HostStorage,
    shape: &[usize],
    dim: usize,
    index: &HostStorage,
) -> Result<HostStorage> {
    let idx = index_values(index)?;
    crate::dtype_dispatch!(src.dtype(), index_add_t(src, shape, dim, &idx))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn softmax_rows_sum_to_one_and_backward_matches_formula() {
        let h = HostStorage::F32(vec![1.0, 2.0, 3.0, 1.0, 1.0, 1.0]);
        let l = Layout::contiguous(&[2, 3]);
        let s = softmax(&h, &l, 1, false).unwrap();
        let v = typed::<f32>(&s).unwrap();
        assert!((v[0] + v[1] + v[2] - 1.0).abs() < 1e-6);
        assert_eq!(v[3], v[4]);
        // along dim 0 of the same values
        let s0 = softmax(&h, &l, 0, true).unwrap();
        assert_eq!(typed::<f32>(&s0).unwrap().len(), 6);
        let g = HostStorage::F32(vec![1.0; 6]);
        let b =
            softmax_backward(Operands::new([&g, &s], &[2, 3], DType::Float32), 1, false).unwrap();
        assert!(typed::<f32>(&b).unwrap().iter().all(|x| x.abs() < 1e-6));
        assert!(
            softmax(
                &HostStorage::I64(vec![1]),
                &Layout::contiguous(&[1]),
                0,
                false
            )
            .is_err()
        );
    }

    #[test]
    fn nll_and_gathers_report_bad_positions() {
        let lp = HostStorage::F32(vec![-1.0, -2.0, -3.0, -4.0]);
        let t = HostStorage::I64(vec![1, 5]);
        let loss = NllLoss {
            n: 2,
            c: 2,
            target: &t,
            weight: None,
            ignore_index: -100,
            reduction: Reduction::None,
        };
        let r = nll_loss(&lp, &loss).unwrap();
        assert_eq!(r.bad, vec![1]);
        assert_eq!(typed::<f32>(&r.value).unwrap(), &[2.0, 0.0]);
        let w = HostStorage::F32(vec![1.0, 2.0, 3.0]);
        let sel = index_select(
            &w,
            &Layout::contiguous(&[3]),
            0,
            &HostStorage::I64(vec![2, 0, 7]),
        )
        .unwrap();
        assert_eq!(sel.bad, vec![2]);
        assert_eq!(typed::<f32>(&sel.value).unwrap(), &[3.0, 1.0, 0.0]);
        let back = index_add(
            &HostStorage::F32(vec![1.0, 1.0]),
            &[3],
            0,
            &HostStorage::I64(vec![2, 2]),
        )
        .unwrap();
        assert_eq!(typed::<f32>(&back).unwrap(), &[0.0, 0.0, 2.0]);
        let m = HostStorage::F32(vec![1.0, 2.0, 3.0, 4.0]);
        let g = gather(
            &m,
            &Layout::contiguous(&[2, 2]),
            1,
            &HostStorage::I64(vec![1, 0, 0, 0]),
            &[2, 2],
        )
        .unwrap();
        assert_eq!(typed::<f32>(&g.value).unwrap(), &[2.0, 1.0, 3.0, 3.0]);
    }
}
