//! The elementwise functions PyTorch hands to Intel MKL's VML on the CPU.
//!
//! For a float32 tensor, `torch.sqrt`, `exp`, `log`, `log2`, `log10`, `sin`, `cos`, `tan`,
//! `tanh`, `erf`, `erfc`, `erfinv`, `acos`, `asin`, `atan` call MKL's `vms*` functions in high
//! accuracy mode (ATen's vml.h, `IMPLEMENT_VML_MKL`), on contiguous and strided tensors alike
//! (strided data is copied through a buffer first). MKL's algorithms are not public, and the
//! code path it picks on this AMD CPU is not correctly rounded. Calling libtorch's own `vms*`
//! on every float32 input of a range showed how often each stand-in here differs from MKL,
//! always by exactly one ulp ("typical" is the recorded sample of tests/numerics_exact.rs
//! `mkl_stand_ins`: normal or uniform values of everyday size):
//!
//! | function | stand-in | inputs compared | differ | typical |
//! |---|---|---|---|---|
//! | sqrt | correctly rounded | every positive finite float | 17.08% | 11-15% |
//! | exp | correctly rounded | every float | 0.07% | 1.3% |
//! | log | correctly rounded | every positive finite float | 0.58% | 4.0% |
//! | tanh | correctly rounded | every positive float | 0.004% | 0% |
//! | sin | correctly rounded | \|x\| < 2^23 | 0.61% | 4.9% |
//! | cos | correctly rounded | \|x\| < 2^23 | 1.07% | 3.6% |
//! | erf | correctly rounded | every positive float | 2.8% | 1.1% |
//! | log2, log10 | correctly rounded | (sample only) | | 0% |
//! | tan, erfc | correctly rounded / glibc erfc | (sample only) | | 17.8%, 4.7% |
//!
//! So results through these functions are within one ulp of PyTorch's, not bit-exact.

/// Rounds a double-precision result (glibc's libm, correctly rounded in practice) to float.
#[inline(always)]
fn via_f64(x: f32, f: impl Fn(f64) -> f64) -> f32 {
    f(x as f64) as f32
}

/// `torch.sqrt` (stand-in: the correctly rounded square root).
#[inline]
pub(crate) fn sqrt(x: f32) -> f32 {
    x.sqrt()
}

/// `torch.exp` (stand-in: correctly rounded).
#[inline]
pub(crate) fn exp(x: f32) -> f32 {
    via_f64(x, f64::exp)
}

/// `torch.log` (stand-in: correctly rounded).
#[inline]
pub(crate) fn log(x: f32) -> f32 {
    via_f64(x, f64::ln)
}

/// `torch.log2` (stand-in: correctly rounded).
#[inline]
pub(crate) fn log2(x: f32) -> f32 {
    via_f64(x, f64::log2)
}

/// `torch.log10` (stand-in: correctly rounded).
#[inline]
pub(crate) fn log10(x: f32) -> f32 {
    via_f64(x, f64::log10)
}

/// `torch.tanh` (stand-in: correctly rounded).
#[inline]
pub(crate) fn tanh(x: f32) -> f32 {
    via_f64(x, f64::tanh)
}

/// `torch.sin` (stand-in: correctly rounded).
#[inline]
pub(crate) fn sin(x: f32) -> f32 {
    via_f64(x, f64::sin)
}

/// `torch.cos` (stand-in: correctly rounded).
#[inline]
pub(crate) fn cos(x: f32) -> f32 {
    via_f64(x, f64::cos)
}

/// `torch.tan` (stand-in: correctly rounded).
#[inline]
pub(crate) fn tan(x: f32) -> f32 {
    via_f64(x, f64::tan)
}

unsafe extern "C" {
    #[link_name = "erf"]
    fn libm_erf(x: f64) -> f64;
    #[link_name = "erfc"]
    fn libm_erfc(x: f64) -> f64;
}

/// `torch.erf` (stand-in: glibc's double erf, rounded). Over every positive float glibc's erff
/// agrees with MKL more often (0.31% differ against 2.8%, the difference being tiny inputs), but
/// on values of everyday size this one does (1.1% against 4.5%).
#[inline]
pub(crate) fn erf(x: f32) -> f32 {
    // SAFETY: erf is a pure libm function of one double.
    unsafe { libm_erf(x as f64) as f32 }
}

/// `torch.erfc` (stand-in: glibc's double erfc, rounded).
#[inline]
pub(crate) fn erfc(x: f32) -> f32 {
    // SAFETY: erfc is a pure libm function of one double.
    unsafe { libm_erfc(x as f64) as f32 }
}
