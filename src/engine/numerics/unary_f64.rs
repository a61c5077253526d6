//! float64 elementwise math as ATen's CPU kernels compute it: the double twin of
//! [`super::unary`] for the ops whose vector half is SLEEF's double functions
//! ([`sleef_f64`]) and whose scalar half is glibc's.
//!
//! The activation kernels (Activation.cpp, GeluKernel) run `cpu_kernel_vec` in the
//! AVX-512 build, as their float versions do (see [`super::unary::Unary::chunk`]): each
//! contiguous row's leading multiple of `2 * Vectorized<double>::size()` = 16 elements takes
//! the vector formula, the rest and strided rows the scalar one. `torch.log1p` and
//! `torch.expm1` are `vml::vlog1p` / `vml::vexpm1`, SLEEF on every element (measured on 8012
//! float64 inputs: 0 differ from `Sleef_log1pd8_u10` / `Sleef_expm1d8_u10`, 377 and 614
//! from glibc). float64 `exp`, `log`, `tanh` are MKL's VML functions in PyTorch and are not
//! here.

use super::fast::avx2_fma;
use super::iter::is_contiguous;
use super::loops::{Flat, split_row, unary_strided};
use super::sleef_f64;
use super::sum::View;

unsafe extern "C" {
    /// glibc's erf: what ATen's scalar `std::erf(double)` calls.
    #[link_name = "erf"]
    fn libm_erf(x: f64) -> f64;
}

/// glibc's `erf` (the scalar half of gelu).
#[inline]
fn erf_libm(x: f64) -> f64 {
    // SAFETY: erf is a pure libm function of one double; it reads no memory.
    unsafe { libm_erf(x) }
}

/// `2 * Vectorized<double>::size()` in the AVX-512 build.
pub(crate) const CHUNK_F64: usize = 16;

/// A float64 elementwise op with its parameters (all in double, as ATen's double kernels take
/// them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum UnaryF64 {
    /// `torch.sigmoid`: 1 / (1 + exp(-x)).
    Sigmoid,
    /// `torch.log1p` (SLEEF on every element).
    Log1p,
    /// `torch.expm1` (SLEEF on every element).
    Expm1,
    /// `F.silu`: x / (1 + exp(-x)).
    Silu,
    /// `F.softplus(x, beta, threshold)`.
    Softplus { beta: f64, threshold: f64 },
    /// `F.elu(x, alpha)` (selu and celu through `scale` and `input_scale`).
    Elu {
        alpha: f64,
        scale: f64,
        input_scale: f64,
    },
    /// `F.mish`: x * tanh(log1p(exp(x))).
    Mish,
    /// `F.gelu(x)` (approximate='none'): x * 0.5 * (1 + erf(x / sqrt 2)).
    Gelu,
    /// `F.gelu(x, approximate='tanh')`.
    GeluTanh,
    /// `torch.sinh` (measured: SLEEF's `Sleef_sinhd8_u10` on the leading multiple of 16 of a
    /// row, glibc on the rest: 0 of 2415 elements of rows of 1..69 differ).
    Sinh,
    /// `torch.cosh` (as sinh).
    Cosh,
    /// `F.logsigmoid` (log_sigmoid_cpu_kernel): `min(x, 0) - log1p(exp(-|x|))`, every element
    /// through the vector formula.
    LogSigmoid,
}

/// `log_sigmoid_cpu_kernel`'s vector formula for one double.
#[inline(always)]
pub(crate) fn log_sigmoid(x: f64) -> f64 {
    // vec::minimum: the all-ones NaN when x is NaN
    let m = if x.is_nan() {
        f64::from_bits(u64::MAX)
    } else if x < 0.0 {
        x
    } else {
        0.0
    };
    m - sleef_f64::log1p_u10(sleef_f64::exp_u10(-x.abs()))
}

const GELU_BETA: f64 = std::f64::consts::SQRT_2 * std::f64::consts::FRAC_2_SQRT_PI * 0.5;
const GELU_KAPPA: f64 = 0.044715;

impl UnaryF64 {
    /// The vector half, one lane.
    #[inline(always)]
    pub fn lane(self, x: f64) -> f64 {
        match self {
            UnaryF64::Sigmoid => 1.0 / (1.0 + sleef_f64::exp_u10(-x)),
            UnaryF64::Log1p => sleef_f64::log1p_u10(x),
            UnaryF64::Expm1 => sleef_f64::expm1_u10(x),
            UnaryF64::Silu => x / (1.0 + sleef_f64::exp_u10(-x)),
            UnaryF64::Softplus { beta, threshold } => {
                if x * beta > threshold {
                    x
                } else {
                    sleef_f64::log1p_u10(sleef_f64::exp_u10(x * beta)) / beta
                }
            }
            UnaryF64::Elu {
                alpha,
                scale,
                input_scale,
            } => {
                if x > 0.0 {
                    x * scale
                } else {
                    sleef_f64::expm1_u10(x * input_scale) * (alpha * scale)
                }
            }
            UnaryF64::Mish => x * sleef_f64::tanh_u10(sleef_f64::log1p_u10(sleef_f64::exp_u10(x))),
            UnaryF64::GeluTanh => {
                if x.is_nan() {
                    // Two NaNs meet in the last product; x86 keeps the first operand's (x's).
                    return x;
                }
                let cube = x * x * x;
                let inner = GELU_BETA * GELU_KAPPA.mul_add(cube, x);
                0.5 * x * (1.0 + sleef_f64::tanh_u10(inner))
            }
            UnaryF64::LogSigmoid => log_sigmoid(x),
            UnaryF64::Sinh => sleef_f64::sinh_u10(x),
            UnaryF64::Cosh => sleef_f64::cosh_u10(x),
            UnaryF64::Gelu => {
                x * 0.5 * (1.0 + sleef_f64::erf_u10(x * std::f64::consts::FRAC_1_SQRT_2))
            }
        }
    }

    /// The scalar half (tails of contiguous rows, strided rows): glibc's double functions.
    #[inline(always)]
    pub fn scalar(self, x: f64) -> f64 {
        match self {
            UnaryF64::Sigmoid => 1.0 / (1.0 + (-x).exp()),
            UnaryF64::Log1p => sleef_f64::log1p_u10(x),
            UnaryF64::Expm1 => sleef_f64::expm1_u10(x),
            UnaryF64::Silu => x / (1.0 + (-x).exp()),
            UnaryF64::Softplus { beta, threshold } => {
                if x * beta > threshold {
                    x
                } else {
                    (x * beta).exp().ln_1p() / beta
                }
            }
            UnaryF64::Elu {
                alpha,
                scale,
                input_scale,
            } => {
                if x <= 0.0 {
                    (x * input_scale).exp_m1() * (alpha * scale)
                } else {
                    x * scale
                }
            }
            UnaryF64::Mish => x * x.exp().ln_1p().tanh(),
            UnaryF64::GeluTanh => {
                if x.is_nan() {
                    return x;
                }
                let cube = x * x * x;
                let inner = GELU_BETA * GELU_KAPPA.mul_add(cube, x);
                0.5 * x * (1.0 + inner.tanh())
            }
            UnaryF64::LogSigmoid => log_sigmoid(x),
            UnaryF64::Sinh => x.sinh(),
            UnaryF64::Cosh => x.cosh(),
            UnaryF64::Gelu => x * 0.5 * (1.0 + erf_libm(x * std::f64::consts::FRAC_1_SQRT_2)),
        }
    }
}

/// `op(x)` of a strided float64 view into `out` (its own view), as `cpu_kernel_vec` splits the
/// rows. When both views are contiguous the row is one run, cut for the intra-op threads at
/// multiples of [`super::loops::ROW_ALIGN`] ([`split_row`]: each element keeps its side of the split).
pub fn unary_strided_f64(op: UnaryF64, x: &[f64], xv: View<'_>, out: &mut [f64], ov: View<'_>) {
    let n: usize = xv.shape.iter().product();
    if n > 0
        && is_contiguous(xv.shape, xv.strides)
        && is_contiguous(ov.shape, ov.strides)
        && let Some(Flat::Run(x)) = Flat::of(x, xv, n)
    {
        split_row(&mut out[ov.offset..ov.offset + n], |at, part| {
            let shape = [part.len()];
            let row = View::contiguous(&shape, &[1]);
            unary_strided_f64_serial(op, &x[at..at + part.len()], row, part, row);
        });
        return;
    }
    unary_strided_f64_serial(op, x, xv, out, ov)
}

avx2_fma! {
    /// [`unary_strided_f64`] on this thread.
    pub(crate) fn unary_strided_f64_serial(op: UnaryF64, x: &[f64], xv: View<'_>, out: &mut [f64], ov: View<'_>) {
        match op {
            UnaryF64::Log1p | UnaryF64::Expm1 | UnaryF64::LogSigmoid => {
                unary_strided(x, xv, out, ov, CHUNK_F64, |v| op.lane(v), |v| op.lane(v))
            }
            _ => unary_strided(x, xv, out, ov, CHUNK_F64, |v| op.lane(v), |v| op.scalar(v)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_split_into_vector_head_and_scalar_tail() {
        // 17 elements: 16 through the lane formula, the last through glibc's.
        let x: Vec<f64> = (0..17).map(|i| -3.0 + i as f64 * 0.37).collect();
        let mut out = vec![0.0; 17];
        let shape = [17usize];
        let strides = [1usize];
        let v = View {
            shape: &shape,
            strides: &strides,
            offset: 0,
        };
        let op = UnaryF64::Mish;
        unary_strided_f64(op, &x, v, &mut out, v);
        for i in 0..16 {
            assert_eq!(out[i].to_bits(), op.lane(x[i]).to_bits(), "lane {i}");
        }
        assert_eq!(out[16].to_bits(), op.scalar(x[16]).to_bits());
    }
}
