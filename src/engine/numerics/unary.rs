//! float32 elementwise math as ATen's CPU kernels compute it.
//!
//! Each op has two halves, as in ATen's `cpu_kernel_vec(iter, scalar_op, vector_op)`: the vector
//! half (SLEEF functions, ATen's own polynomials) runs on the leading multiple of 16 elements of
//! each contiguous row, the scalar half (glibc's libm through `std::exp` and friends) on the rest
//! and on strided rows; see [`super::loops`]. Which kernels and which halves were confirmed
//! against PyTorch is listed in mod.rs.

use super::fast::avx2_fma;
use super::iter::is_contiguous;
use super::loops::{Flat, split_row, unary_strided, vectorized_row};
use super::sleef;
use super::sum::View;
use super::{mkl, onednn};

unsafe extern "C" {
    /// glibc's erff: what ATen's scalar `std::erf(float)` calls.
    #[link_name = "erff"]
    fn libm_erff(x: f32) -> f32;
}

/// glibc's `erff` (the scalar half of gelu).
#[inline]
pub(crate) fn erff(x: f32) -> f32 {
    // SAFETY: erff is a pure libm function of one float; it reads no memory.
    unsafe { libm_erff(x) }
}

/// `2 * Vectorized<float>::size()` in the AVX2 build: the step of `vectorized_loop`.
pub(crate) const CHUNK_AVX2: usize = 16;
/// The same in the AVX512 build.
pub(crate) const CHUNK_AVX512: usize = 32;

const GELU_BETA: f32 = (std::f64::consts::SQRT_2 * std::f64::consts::FRAC_2_SQRT_PI * 0.5) as f32;
const GELU_KAPPA: f32 = 0.044715f64 as f32;
const SQRT1_2: f32 = std::f64::consts::FRAC_1_SQRT_2 as f32;

/// A float32 elementwise op with its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Unary {
    /// `torch.sigmoid`: 1 / (1 + exp(-x)).
    Sigmoid,
    /// `torch.log1p` (SLEEF on every element).
    Log1p,
    /// `torch.expm1` (SLEEF on every element).
    Expm1,
    /// `torch.rsqrt`: 1 / sqrt(x).
    Rsqrt,
    /// `torch.reciprocal`: 1 / x.
    Reciprocal,
    /// `F.gelu(x)` (approximate='none').
    Gelu,
    /// `F.gelu(x, approximate='tanh')`.
    GeluTanh,
    /// `F.silu`: x / (1 + exp(-x)).
    Silu,
    /// `F.softplus(x, beta, threshold)`.
    Softplus { beta: f32, threshold: f32 },
    /// `F.elu(x, alpha)` (`scale` and `input_scale` are 1 except for selu/celu).
    Elu {
        alpha: f32,
        scale: f32,
        input_scale: f32,
    },
    /// `F.leaky_relu(x, negative_slope)`.
    LeakyRelu { slope: f32 },
    /// `F.mish`: x * tanh(log1p(exp(x))).
    Mish,
    /// `F.hardswish`: x * min(max(x + 3, 0), 6) / 6.
    Hardswish,
    /// `F.hardsigmoid`: min(max(x + 3, 0), 6) / 6.
    Hardsigmoid,
    /// `F.hardtanh(x, min, max)`: ATen's clamp kernel.
    Hardtanh { min: f32, max: f32 },
    /// `torch.logit(x, eps)` (eps < 0: None): log(x / (1 - x)) of x clamped to [eps, 1 - eps]
    /// (MKL's log: stand-in).
    Logit { eps: f32 },
    /// `x ** e` for a Python-number exponent (0.5 is `torch.sqrt`, see [`Unary::Sqrt`]).
    PowScalar { exponent: f64 },
    /// `torch.exp` (MKL; [`mkl`] stand-in, not bit-exact).
    Exp,
    /// `torch.log` (MKL stand-in).
    Log,
    /// `torch.log2` (MKL stand-in).
    Log2,
    /// `torch.log10` (MKL stand-in).
    Log10,
    /// `torch.sqrt` and `x ** 0.5` (MKL stand-in).
    Sqrt,
    /// `torch.tanh` (MKL stand-in).
    Tanh,
    /// `torch.sin` (MKL stand-in).
    Sin,
    /// `torch.cos` (MKL stand-in).
    Cos,
    /// `torch.tan` (MKL stand-in).
    Tan,
    /// `torch.erf` (MKL stand-in).
    Erf,
    /// `torch.erfc` (MKL stand-in).
    Erfc,
}

impl Unary {
    /// Whether PyTorch computes this op in MKL, so the result here is a stand-in within one ulp
    /// rather than bit-exact.
    pub fn is_mkl(self) -> bool {
        matches!(
            self,
            Unary::Exp
                | Unary::Log
                | Unary::Log2
                | Unary::Log10
                | Unary::Sqrt
                | Unary::Tanh
                | Unary::Sin
                | Unary::Cos
                | Unary::Tan
                | Unary::Erf
                | Unary::Erfc
                | Unary::Logit { .. }
        ) || self == Unary::PowScalar { exponent: 0.5 }
    }

    #[inline(always)]
    fn mkl(self, x: f32) -> f32 {
        match self {
            Unary::Exp => mkl::exp(x),
            Unary::Log => mkl::log(x),
            Unary::Log2 => mkl::log2(x),
            Unary::Log10 => mkl::log10(x),
            Unary::Tanh => mkl::tanh(x),
            Unary::Sin => mkl::sin(x),
            Unary::Cos => mkl::cos(x),
            Unary::Tan => mkl::tan(x),
            Unary::Erf => mkl::erf(x),
            Unary::Erfc => mkl::erfc(x),
            _ => mkl::sqrt(x),
        }
    }
}

impl Unary {
    /// The vector half, one lane.
    #[inline(always)]
    pub fn lane(self, x: f32) -> f32 {
        match self {
            Unary::Sigmoid => 1.0 / (1.0 + sleef::expf_u10(-x)),
            Unary::Log1p => sleef::log1pf_u10(x),
            Unary::Expm1 => sleef::expm1f_u10(x),
            Unary::Rsqrt => 1.0 / x.sqrt(),
            Unary::Reciprocal => 1.0 / x,
            Unary::Gelu => x * 0.5 * (1.0 + sleef::erf_vec(x * SQRT1_2)),
            Unary::GeluTanh => {
                if x.is_nan() {
                    // Two NaNs meet in the last product; x86 keeps the first operand's (x's).
                    return x;
                }
                let cube = x * x * x;
                let inner = GELU_BETA * GELU_KAPPA.mul_add(cube, x);
                0.5 * x * (1.0 + sleef::tanhf_u10(inner))
            }
            Unary::Silu => x / (1.0 + sleef::expf_u10(-x)),
            Unary::Softplus { beta, threshold } => {
                if x * beta > threshold {
                    x
                } else {
                    sleef::log1pf_u10(sleef::expf_u10(x * beta)) / beta
                }
            }
            Unary::Elu {
                alpha,
                scale,
                input_scale,
            } => {
                if x >= 0.0 {
                    x * scale
                } else {
                    sleef::expm1f_u10(x * input_scale) * (alpha * scale)
                }
            }
            Unary::LeakyRelu { slope } => {
                if x > 0.0 {
                    x
                } else {
                    x * slope
                }
            }
            Unary::Mish => x * sleef::tanhf_u10(sleef::log1pf_u10(sleef::expf_u10(x))),
            Unary::Hardswish => {
                x * super::vecops::minimum(super::vecops::maximum(x + 3.0, 0.0), 6.0) / 6.0
            }
            Unary::Hardsigmoid => {
                super::vecops::minimum(super::vecops::maximum(x + 3.0, 0.0), 6.0) / 6.0
            }
            Unary::Hardtanh { min, max } => {
                super::vecops::minimum(super::vecops::maximum(x, min), max)
            }
            Unary::Logit { eps } => logit(x, eps),
            Unary::PowScalar { exponent } => pow_lane(x, exponent),
            _ => self.mkl(x),
        }
    }

    /// The scalar half (tails of contiguous rows, strided rows).
    #[inline(always)]
    pub fn scalar(self, x: f32) -> f32 {
        match self {
            Unary::Sigmoid => 1.0 / (1.0 + (-x).exp()),
            Unary::Log1p => sleef::log1pf_u10(x),
            Unary::Expm1 => sleef::expm1f_u10(x),
            Unary::Rsqrt => 1.0 / x.sqrt(),
            Unary::Reciprocal => 1.0 / x,
            Unary::Gelu => x * 0.5 * (1.0 + erff(x * SQRT1_2)),
            Unary::GeluTanh => {
                if x.is_nan() {
                    return x;
                }
                let cube = x * x * x;
                let inner = GELU_BETA * GELU_KAPPA.mul_add(cube, x);
                0.5 * x * (1.0 + inner.tanh())
            }
            Unary::Silu => x / (1.0 + (-x).exp()),
            Unary::Softplus { beta, threshold } => {
                if x * beta > threshold {
                    x
                } else {
                    (x * beta).exp().ln_1p() / beta
                }
            }
            Unary::Elu {
                alpha,
                scale,
                input_scale,
            } => {
                if x < 0.0 {
                    (x * input_scale).exp_m1() * (alpha * scale)
                } else {
                    x * scale
                }
            }
            Unary::LeakyRelu { slope } => {
                if x > 0.0 {
                    x
                } else {
                    x * slope
                }
            }
            // glibc's expf, log1pf, tanhf (std:: on floats)
            Unary::Mish => x * x.exp().ln_1p().tanh(),
            Unary::Hardswish => x * std_min(std_max(x + 3.0, 0.0), 6.0) / 6.0,
            Unary::Hardsigmoid => std_min(std_max(x + 3.0, 0.0), 6.0) / 6.0,
            Unary::Hardtanh { min, max } => std_min(std_max(x, min), max),
            Unary::Logit { eps } => logit(x, eps),
            Unary::PowScalar { exponent } => pow_scalar(x, exponent),
            _ => self.mkl(x),
        }
    }

    /// `2 * Vec::size()` of the build this op's kernel runs. Measured: sigmoid, gelu, silu,
    /// softplus, elu and pow with 16-element rows match PyTorch only with the AVX512 split; the
    /// other ops here round the same on both halves, so the split does not show.
    pub(crate) fn chunk(self) -> usize {
        CHUNK_AVX512
    }
}

/// `torch.logit` of a contiguous float32 tensor (LogitMKLKernel): x clamped to [eps, 1 - eps]
/// when eps >= 0 (None is passed as -1), `x == 1 ? inf : x / (1 - x)`, then MKL's vmsLn
/// ([`mkl::log`]'s stand-in). (A strided input runs cpu_kernel_vec with SLEEF's/glibc's log
/// instead; the stand-in is used there too.)
#[inline(always)]
fn logit(x: f32, eps: f32) -> f32 {
    let x = if eps < 0.0 {
        x
    } else if x < eps {
        eps
    } else if x > 1.0 - eps {
        1.0 - eps
    } else {
        x
    };
    if x == 1.0 {
        f32::INFINITY
    } else {
        mkl::log(x / (1.0 - x))
    }
}

/// `std::max(a, b)`: `a < b ? b : a` (a NaN `a` comes back).
#[inline(always)]
fn std_max(a: f32, b: f32) -> f32 {
    if a < b { b } else { a }
}

/// `std::min(a, b)`: `b < a ? b : a`.
#[inline(always)]
fn std_min(a: f32, b: f32) -> f32 {
    if b < a { b } else { a }
}

/// `x ** e` as the vector half runs it: the exponents ATen special-cases, SLEEF's pow for
/// the rest.
#[inline(always)]
fn pow_lane(x: f32, e: f64) -> f32 {
    pow_special_or(x, e, |x, e| sleef::powf_u10(x, e as f32))
}

/// `x ** e` as the scalar tail runs it: `std::pow(float, double)` promotes to double.
#[inline(always)]
fn pow_scalar(x: f32, e: f64) -> f32 {
    pow_special_or(x, e, |x, e| (x as f64).powf(e) as f32)
}

/// ATen's pow_tensor_scalar_optimized_kernel: the exponents 0.5, 2, 3, -2, -1 and -0.5 by
/// their own formula (both halves alike), any other by `general`.
#[inline(always)]
fn pow_special_or(x: f32, e: f64, general: impl Fn(f32, f64) -> f32) -> f32 {
    if e == 0.5 {
        mkl::sqrt(x)
    } else if e == 2.0 {
        x * x
    } else if e == 3.0 {
        x * x * x
    } else if e == -2.0 {
        1.0 / (x * x)
    } else if e == -1.0 {
        1.0 / x
    } else if e == -0.5 {
        1.0 / x.sqrt()
    } else {
        general(x, e)
    }
}

avx2_fma! {
    /// `op(x)` of a contiguous float32 buffer into `out` (same length).
    pub fn unary_f32(op: Unary, x: &[f32], out: &mut [f32]) {
        if op == Unary::Gelu && x.len() > 1 {
            // A contiguous float32 gelu with more than one element runs in oneDNN.
            for (o, &v) in out.iter_mut().zip(x) {
                *o = onednn::gelu_erf(v);
            }
            return;
        }
        // One instantiation per common op, so its per-element code has no dispatch left.
        macro_rules! run {
            ($($p:path),* $(,)?) => {
                match op {
                    $($p => vectorized_row(x, out, op.chunk(), |v| $p.lane(v), |v| $p.scalar(v)),)*
                    _ => vectorized_row(x, out, op.chunk(), |v| op.lane(v), |v| op.scalar(v)),
                }
            };
        }
        run!(
            Unary::Sigmoid,
            Unary::Log1p,
            Unary::Expm1,
            Unary::GeluTanh,
            Unary::Silu,
            Unary::Exp,
            Unary::Log,
            Unary::Sqrt,
            Unary::Tanh,
        )
    }
}

/// `op(x)` of a strided float32 view into a strided output view. When both are contiguous the
/// row is one run, cut for the intra-op threads at multiples of [`super::loops::ROW_ALIGN`] ([`split_row`]);
/// a gelu of more than one element stays oneDNN's on every part.
pub fn unary_strided_f32(op: Unary, x: &[f32], xv: View<'_>, out: &mut [f32], ov: View<'_>) {
    let n: usize = xv.shape.iter().product();
    if n > 0
        && is_contiguous(xv.shape, xv.strides)
        && is_contiguous(ov.shape, ov.strides)
        && let Some(Flat::Run(x)) = Flat::of(x, xv, n)
    {
        let gelu_all = op == Unary::Gelu && n > 1;
        split_row(&mut out[ov.offset..ov.offset + n], |at, part| {
            let x = &x[at..at + part.len()];
            if gelu_all {
                gelu_row(x, part);
            } else {
                unary_strided_f32_serial(
                    op,
                    x,
                    View::contiguous(&[x.len()], &[1]),
                    part,
                    View::contiguous(&[x.len()], &[1]),
                );
            }
        });
        return;
    }
    unary_strided_f32_serial(op, x, xv, out, ov)
}

avx2_fma! {
    /// oneDNN's gelu of every element of a contiguous row.
    fn gelu_row(x: &[f32], out: &mut [f32]) {
        for (o, &v) in out.iter_mut().zip(x) {
            *o = onednn::gelu_erf(v);
        }
    }
}

avx2_fma! {
/// [`unary_strided_f32`] on this thread, as `cpu_kernel_vec` runs it.
pub(crate) fn unary_strided_f32_serial(op: Unary, x: &[f32], xv: View<'_>, out: &mut [f32], ov: View<'_>) {
    let n: usize = xv.shape.iter().product();
    if op == Unary::Gelu && n > 1 && is_contiguous(xv.shape, xv.strides) {
        // oneDNN reads the input and writes the output in memory order.
        let o: Vec<f32> = x[xv.offset..xv.offset + n]
            .iter()
            .map(|&v| onednn::gelu_erf(v))
            .collect();
        unary_strided(
            &o,
            View {
                shape: xv.shape,
                strides: xv.strides,
                offset: 0,
            },
            out,
            ov,
            1,
            |v| v,
            |v| v,
        );
        return;
    }
    unary_strided(x, xv, out, ov, op.chunk(), |v| op.lane(v), |v| op.scalar(v));
}
}
