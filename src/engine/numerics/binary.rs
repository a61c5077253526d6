//! float32 binary math as ATen's CPU kernels compute it: `torch.atan2` (BinaryOpsKernel's
//! atan2_kernel) and `torch.pow` of two tensors (PowKernel's pow_tensor_tensor_kernel). Both
//! are `cpu_kernel_vec` in the AVX-512 build: SLEEF's `Sleef_atan2f16_u10` /
//! `Sleef_powf16_u10` on the leading multiple of 32 elements of each row whose operands are
//! contiguous (or one a broadcast scalar), glibc's `atan2f` / `powf` on the rest (measured:
//! atan2 of rows of 17..100 floats matches with a split at 32 on every element; at 16, 2 to 4
//! elements of a row differ).

use super::fast::avx2_fma;
use super::loops::binary_strided;
use super::sleef;
use super::sum::View;

/// `2 * Vectorized<float>::size()` in the AVX-512 build.
const CHUNK: usize = 32;

/// Which binary op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binary {
    /// `torch.atan2(a, b)`.
    Atan2,
    /// `torch.pow(a, b)` of two tensors.
    Pow,
}

avx2_fma! {
    /// `op(a, b)` of strided float32 views of one shape into `out` (its own view).
    #[allow(clippy::too_many_arguments)]
    pub fn binary_strided_f32(
        op: Binary,
        a: &[f32],
        av: View<'_>,
        b: &[f32],
        bv: View<'_>,
        out: &mut [f32],
        ov: View<'_>,
    ) {
        match op {
            Binary::Atan2 => binary_strided(a, av, b, bv, out, ov, CHUNK, sleef::atan2f_u10, f32::atan2),
            Binary::Pow => binary_strided(a, av, b, bv, out, ov, CHUNK, sleef::powf_u10, f32::powf),
        }
    }
}
