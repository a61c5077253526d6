//! One draw at a time: ATen's `at::*_distribution` samplers and the transformations they
//! apply (core/DistributionsHelper.h, core/TransformationHelper.h), on a [`CpuGenerator`].
//!
//! Whether `x * (to - from) + from` and `z * std + mean` are rounded once (fused
//! multiply-add) or twice depends on the kernel build PyTorch dispatches to: its AVX2/AVX512
//! builds let GCC fuse them, its DEFAULT build cannot. [`CpuCapability`] says which.

use super::cpu_generator::CpuGenerator;

/// The kernel build ATen dispatches to (`torch.backends.cpu.get_cpu_capability()`).
/// AVX512 machines run the AVX2 numbers for every sampler here (measured on 100 003 draws).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CpuCapability {
    /// "AVX2" or "AVX512": fused multiply-adds, and the 8-lane Box-Muller for float tensors.
    #[default]
    Avx2,
    /// "DEFAULT" (`ATEN_CPU_CAPABILITY=default`): separate roundings, libm Box-Muller.
    Default,
}

impl CpuCapability {
    /// `a * b + c` as the kernel build computes it.
    #[inline]
    pub(crate) fn mul_add_f32(self, a: f32, b: f32, c: f32) -> f32 {
        match self {
            CpuCapability::Avx2 => a.mul_add(b, c),
            CpuCapability::Default => a * b + c,
        }
    }
    #[inline]
    pub(crate) fn mul_add_f64(self, a: f64, b: f64, c: f64) -> f64 {
        match self {
            CpuCapability::Avx2 => a.mul_add(b, c),
            CpuCapability::Default => a * b + c,
        }
    }
}

const TWO_POW_24: f32 = 16_777_216.0;
const TWO_POW_53: f64 = 9_007_199_254_740_992.0;

/// A float in [0, 1) from the low 24 bits of one 32-bit draw.
#[inline]
pub fn unit_f32(rng: &mut CpuGenerator) -> f32 {
    (rng.random() & 0x00ff_ffff) as f32 * (1.0 / TWO_POW_24)
}

/// A double in [0, 1) from the low 53 bits of one 64-bit draw (two 32-bit ones).
#[inline]
pub fn unit_f64(rng: &mut CpuGenerator) -> f64 {
    (rng.random64() & ((1u64 << 53) - 1)) as f64 * (1.0 / TWO_POW_53)
}

/// `at::uniform_real_distribution<float>(from, to)`.
#[inline]
pub fn uniform_f32(rng: &mut CpuGenerator, from: f32, to: f32, cap: CpuCapability) -> f32 {
    cap.mul_add_f32(unit_f32(rng), to - from, from)
}

/// `at::uniform_real_distribution<double>(from, to)`.
#[inline]
pub fn uniform_f64(rng: &mut CpuGenerator, from: f64, to: f64, cap: CpuCapability) -> f64 {
    cap.mul_add_f64(unit_f64(rng), to - from, from)
}

/// `at::normal_distribution<double>(mean, std)`: Box-Muller on two doubles, the sine half
/// kept in the generator for the next call (any dtype's scalar `normal_` shares it).
pub fn normal_f64(rng: &mut CpuGenerator, mean: f64, std: f64, cap: CpuCapability) -> f64 {
    let z = match rng.take_double_normal() {
        Some(z) => z,
        None => {
            let u1 = unit_f64(rng);
            let u2 = unit_f64(rng);
            let r = (-2.0 * (-u2).ln_1p()).sqrt();
            let theta = 2.0 * std::f64::consts::PI * u1;
            rng.set_double_normal(r * theta.sin());
            r * theta.cos()
        }
    };
    cap.mul_add_f64(z, std, mean)
}

/// `at::bernoulli_distribution<double>(p)`: one double uniform below `p`.
#[inline]
pub fn bernoulli_f64(rng: &mut CpuGenerator, p: f64) -> bool {
    unit_f64(rng) < p
}

/// `at::bernoulli_distribution<float>(p)`: one 24-bit uniform below `p` (a float/half
/// probability tensor).
#[inline]
pub fn bernoulli_f32(rng: &mut CpuGenerator, p: f32) -> bool {
    unit_f32(rng) < p
}

/// `at::exponential_distribution<double>(lambda)` on the CPU: `-1/lambda * log1p(-u)`.
#[inline]
pub fn exponential_f64(rng: &mut CpuGenerator, lambda: f64) -> f64 {
    let u = unit_f64(rng);
    (-1.0 / lambda) * (-u).ln_1p()
}

/// `at::geometric_distribution<double>(p)`: `ceil(log(u) / log1p(-p))`.
#[inline]
pub(super) fn geometric_f64(rng: &mut CpuGenerator, p: f64) -> f64 {
    let u = unit_f64(rng);
    (u.ln() / (-p).ln_1p()).ceil()
}

/// `at::cauchy_distribution<double>(median, sigma)`.
#[inline]
pub(super) fn cauchy_f64(rng: &mut CpuGenerator, median: f64, sigma: f64) -> f64 {
    let u = unit_f64(rng);
    median + sigma * (std::f64::consts::PI * (u - 0.5)).tan()
}

/// `at::lognormal_distribution<double>(mean, std)`: `exp` of a cached-pair normal.
#[inline]
pub(super) fn log_normal_f64(
    rng: &mut CpuGenerator,
    mean: f64,
    std: f64,
    cap: CpuCapability,
) -> f64 {
    normal_f64(rng, mean, std, cap).exp()
}

/// `uniform_int_from_to_distribution`: `(draw % range) + base` as an int64, the draw 64 bits
/// wide when `range >= 2^28` (PyTorch's public builds; Meta's internal ones switch at 2^32
/// for some dtypes only), whatever the dtype.
#[inline]
pub(super) fn int_from_to(rng: &mut CpuGenerator, range: u64, base: i64) -> i64 {
    let draw = if range >= (1u64 << 28) {
        rng.random64()
    } else {
        rng.random() as u64
    };
    (draw % range).wrapping_add(base as u64) as i64
}
