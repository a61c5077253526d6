//! The elementwise functions PyTorch hands to Intel MKL's VML on the CPU.
//!
//! For a float32 tensor, `torch.sqrt`, `exp`, `log`, `log2`, `log10`, `sin`, `cos`, `tan`,
//! `tanh`, `erf`, `erfc`, `erfinv`, `acos`, `asin`, `atan` call MKL's `vs*` functions in high
//! accuracy mode (ATen's vml.h, `IMPLEMENT_VML_MKL`), on contiguous and strided tensors alike
//! (strided data is copied through a buffer). MKL's algorithms are not public and its code path
//! on this AMD CPU is not correctly rounded (measured: `torch.sqrt` differs from the exact
//! square root by one ulp on 21% of inputs in [1, 4)). The functions here are the closest
//! reproducible stand-ins; docs/engine.md lists how often each differs from PyTorch.

/// `torch.sqrt` of one float32 (stand-in: the correctly rounded square root).
#[inline]
pub fn sqrt(x: f32) -> f32 {
    x.sqrt()
}

/// `torch.tanh` of one float32 (stand-in: SLEEF's tanhf, the vectorised ATen kernel's).
#[inline]
pub fn tanh(x: f32) -> f32 {
    super::sleef::tanhf_u10(x)
}
