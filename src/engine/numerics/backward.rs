//! The backward kernels of the float32 activations (Activation.cpp, UnaryOpsKernel.cpp,
//! BinaryOpsKernel.cpp): `grad_input = f(grad_output, x or y)` elementwise, with the same
//! vector/scalar split as the forward kernels ([`super::loops`]).

use super::fast::avx2_fma;
use super::lanes::Real;
use super::loops::vectorized_row2;
use super::onednn;
use super::sleef;
use super::unary::{CHUNK_AVX512, erff};

const SQRT1_2: f32 = std::f64::consts::FRAC_1_SQRT_2 as f32;
/// `M_2_SQRTPI * M_SQRT1_2 * 0.5`: 1/sqrt(2 pi).
const GELU_PDF: f32 =
    (std::f64::consts::FRAC_2_SQRT_PI * std::f64::consts::FRAC_1_SQRT_2 * 0.5) as f32;
const GELU_BETA: f32 = (std::f64::consts::SQRT_2 * std::f64::consts::FRAC_2_SQRT_PI * 0.5) as f32;
const GELU_KAPPA: f32 = 0.044715f64 as f32;

/// An activation's backward, with the forward's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Backward {
    /// `threshold_backward(grad, x, 0)`: ReLU's gradient.
    Relu,
    /// `sigmoid_backward(grad, y)` from the forward's output y.
    Sigmoid,
    /// `tanh_backward(grad, y)` from the forward's output y.
    Tanh,
    /// `gelu_backward(grad, x)` (approximate='none').
    Gelu,
    /// `gelu_backward(grad, x, approximate='tanh')`.
    GeluTanh,
    /// `silu_backward(grad, x)`.
    Silu,
    /// `softplus_backward(grad, x, beta, threshold)`.
    Softplus { beta: f32, threshold: f32 },
    /// `elu_backward(grad, alpha, scale, input_scale, is_result=False, x)`.
    Elu {
        alpha: f32,
        scale: f32,
        input_scale: f32,
    },
    /// `leaky_relu_backward(grad, x, slope)`.
    LeakyRelu { slope: f32 },
    /// `mish_backward(grad, x)`.
    Mish,
    /// `hardswish_backward(grad, x)`.
    Hardswish,
    /// `hardsigmoid_backward(grad, x)`.
    Hardsigmoid,
    /// `hardtanh_backward(grad, x, min, max)`.
    Hardtanh { min: f32, max: f32 },
    /// `log_sigmoid_backward(grad, x, buffer)`, the buffer exp(-|x|) recomputed as the forward
    /// stored it (SLEEF's exp on every element).
    LogSigmoid,
    /// `logit_backward(grad, x, eps)` (eps < 0: None).
    Logit { eps: f32 },
}

impl Backward {
    /// The vector half, one lane: `g` is the incoming gradient, `v` the saved x or y.
    #[inline(always)]
    pub fn lane(self, g: f32, v: f32) -> f32 {
        self.eval::<true>(g, v)
    }

    /// The scalar half.
    #[inline(always)]
    pub fn scalar(self, g: f32, v: f32) -> f32 {
        self.eval::<false>(g, v)
    }

    /// One element of the vector half (`VECTOR`: SLEEF's functions, as ATen's
    /// `Vectorized<float>`) or of the scalar tail (the C library's, as `std::`): the formulas
    /// are the same in both, only exp, tanh, erf, log1p and ELU's branch differ.
    #[inline(always)]
    fn eval<const VECTOR: bool>(self, g: f32, v: f32) -> f32 {
        let exp = |x: f32| if VECTOR { sleef::expf_u10(x) } else { x.exp() };
        let tanh = |x: f32| {
            if VECTOR {
                sleef::tanhf_u10(x)
            } else {
                x.tanh()
            }
        };
        let erf = |x: f32| if VECTOR { sleef::erf_vec(x) } else { erff(x) };
        let log1p = |x: f32| {
            if VECTOR {
                sleef::log1pf_u10(x)
            } else {
                x.ln_1p()
            }
        };
        match self {
            Backward::Relu => relu(g, v),
            Backward::Sigmoid => g * (1.0 - v) * v,
            Backward::Tanh => g * (-v).mul_add(v, 1.0),
            Backward::Gelu => {
                let cdf = 0.5 * (1.0 + erf(v * SQRT1_2));
                let pdf = GELU_PDF * exp(v * v * -0.5);
                g * v.mul_add(pdf, cdf)
            }
            Backward::GeluTanh => gelu_tanh_bwd(g, v, tanh),
            Backward::Silu => {
                let s = 1.0 / (1.0 + exp(-v));
                g * s * v.mul_add(1.0 - s, 1.0)
            }
            Backward::Softplus { beta, threshold } => {
                let z = exp(v * beta);
                if v * beta > threshold {
                    g
                } else {
                    g * z / (z + 1.0)
                }
            }
            Backward::Elu {
                alpha,
                scale,
                input_scale,
            } => {
                // the vector half tests `x > 0` (a NaN takes the exp branch), the scalar
                // half `x <= 0`
                if !VECTOR {
                    elu_from_input(g, v, alpha, scale, input_scale, f32::exp)
                } else if v > 0.0 {
                    g * scale
                } else {
                    g * input_scale * (alpha * scale) * exp(v * input_scale)
                }
            }
            Backward::LeakyRelu { slope } => leaky(g, v, slope),
            Backward::Mish => {
                let s = 1.0 / (1.0 + exp(-v));
                let t = tanh(log1p(exp(v)));
                g * (v * s).mul_add((-t).mul_add(t, 1.0), t)
            }
            Backward::Hardswish => hardswish(g, v),
            Backward::Hardsigmoid => hardsigmoid(g, v),
            Backward::Hardtanh { min, max } => hardtanh(g, v, min, max),
            Backward::LogSigmoid => log_sigmoid(g, v),
            Backward::Logit { eps } => logit(g, v, eps),
        }
    }
}

#[inline(always)]
fn hardswish(g: f32, x: f32) -> f32 {
    if x < -3.0 {
        0.0
    } else if x <= 3.0 {
        g * (x / 3.0 + 0.5)
    } else {
        g
    }
}

#[inline(always)]
fn hardsigmoid(g: f32, x: f32) -> f32 {
    if x > -3.0 && x < 3.0 {
        g * (1.0f32 / 6.0f32)
    } else {
        0.0
    }
}

#[inline(always)]
fn hardtanh(g: f32, x: f32, min: f32, max: f32) -> f32 {
    if x <= min || x >= max { 0.0 } else { g }
}

/// logit's gradient from x, in float32 here and in float64 for the host's other float types
/// (`crate::engine::host::nn`).
#[inline(always)]
pub(crate) fn logit<R: Real>(g: R, x: R, eps: R) -> R {
    let (lo, hi, outside) = if eps < R::ZERO {
        (R::ZERO, R::ONE, R::NAN)
    } else {
        (eps, R::ONE - eps, R::ZERO)
    };
    if x < lo || x > hi {
        outside
    } else if x == R::ZERO || x == R::ONE {
        g * R::INFINITY
    } else {
        g / (x * (R::ONE - x))
    }
}

/// ELU's gradient from x (`is_result=False`) with the `exp` of the caller's type: the scalar
/// half's and the host's float64 one (the vector half tests `x > 0` and uses SLEEF's exp).
#[inline(always)]
pub(crate) fn elu_from_input<R: Real>(
    g: R,
    x: R,
    alpha: R,
    scale: R,
    input_scale: R,
    exp: impl Fn(R) -> R,
) -> R {
    if x <= R::ZERO {
        g * input_scale * (alpha * scale) * exp(x * input_scale)
    } else {
        g * scale
    }
}

#[inline(always)]
fn log_sigmoid(g: f32, x: f32) -> f32 {
    let b = sleef::expf_u10(-x.abs());
    let neg = x < 0.0;
    let max_deriv = if neg { 1.0 } else { 0.0 };
    let sign = if neg { 1.0 } else { -1.0 };
    (max_deriv - sign * (b / (1.0 + b))) * g
}

#[inline(always)]
fn relu(g: f32, x: f32) -> f32 {
    if x <= 0.0 { 0.0 } else { g }
}

#[inline(always)]
fn leaky(g: f32, x: f32, slope: f32) -> f32 {
    if x > 0.0 { g } else { g * slope }
}

#[inline(always)]
fn gelu_tanh_bwd(dy: f32, x: f32, tanh: impl Fn(f32) -> f32) -> f32 {
    let x_sq = x * x;
    let x_cube = x_sq * x;
    let inner = GELU_BETA * GELU_KAPPA.mul_add(x_cube, x);
    let t = tanh(inner);
    let left = 0.5 * x;
    let right = 1.0 + t;
    let left_derivative = 0.5 * right;
    let tanh_derivative = (-t).mul_add(t, 1.0);
    let inner_derivative = GELU_BETA * (3.0 * GELU_KAPPA).mul_add(x_sq, 1.0);
    let right_derivative = left * tanh_derivative * inner_derivative;
    dy * (left_derivative + right_derivative)
}

avx2_fma! {
/// The backward over contiguous `grad` and saved `v` (same length) into `out`.
pub fn backward_f32(op: Backward, grad: &[f32], v: &[f32], out: &mut [f32]) {
    if op == Backward::Gelu && v.len() > 1 {
        // Contiguous float32 gelu backward runs in oneDNN, like the forward.
        for ((o, &g), &x) in out.iter_mut().zip(grad).zip(v) {
            *o = onednn::gelu_erf_backward(x) * g;
        }
        return;
    }
    // The common ops get a loop of their own: with `op` matched per element LLVM keeps one
    // scalar, branchy loop (relu's backward on random data mispredicted half its elements).
    // Each arm runs the same lane/scalar functions, so the bits do not change.
    macro_rules! own_loop {
        ($op:expr) => {
            vectorized_row2(
                grad,
                v,
                out,
                CHUNK_AVX512,
                |g, x| $op.lane(g, x),
                |g, x| $op.scalar(g, x),
            )
        };
    }
    match op {
        Backward::Relu => own_loop!(Backward::Relu),
        Backward::Sigmoid => own_loop!(Backward::Sigmoid),
        Backward::Tanh => own_loop!(Backward::Tanh),
        _ => own_loop!(op),
    }
}
}
