//! float32 binary math as ATen's CPU kernels compute it: `torch.atan2` (BinaryOpsKernel's
//! atan2_kernel) and `torch.pow` of two tensors (PowKernel's pow_tensor_tensor_kernel). Both
//! are `cpu_kernel_vec` in the AVX-512 build: SLEEF's `Sleef_atan2f16_u10` /
//! `Sleef_powf16_u10` on the leading multiple of 32 elements of each row whose operands are
//! contiguous (or one a broadcast scalar), glibc's `atan2f` / `powf` on the rest (measured:
//! atan2 of rows of 17..100 floats matches with a split at 32 on every element; at 16, 2 to 4
//! elements of a row differ).

use super::fast::avx2_fma;
use super::iter::is_contiguous;
use super::loops::{Flat, binary_strided, split_row};
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

/// `op(a, b)` of strided float32 views of one shape into `out` (its own view). When the output
/// is contiguous and each operand contiguous or a broadcast scalar (one at least contiguous),
/// the row is one run, cut for the intra-op threads at multiples of [`super::loops::ROW_ALIGN`]
/// ([`split_row`]).
pub fn binary_strided_f32(
    op: Binary,
    a: &[f32],
    av: View<'_>,
    b: &[f32],
    bv: View<'_>,
    out: &mut [f32],
    ov: View<'_>,
) {
    let n: usize = ov.shape.iter().product();
    if n > 0 && is_contiguous(ov.shape, ov.strides) {
        let (fa, fb) = (Flat::of(a, av, n), Flat::of(b, bv, n));
        if let (Some(fa), Some(fb)) = (fa, fb)
            && !matches!((fa, fb), (Flat::Scalar(_), Flat::Scalar(_)))
        {
            split_row(&mut out[ov.offset..ov.offset + n], |at, part| {
                let len = part.len();
                let ((a, sa), (b, sb)) = (fa.part(at, len), fb.part(at, len));
                let shape = [len];
                binary_strided_f32_serial(
                    op,
                    a,
                    View::contiguous(&shape, &[sa]),
                    b,
                    View::contiguous(&shape, &[sb]),
                    part,
                    View::contiguous(&shape, &[1]),
                );
            });
            return;
        }
    }
    binary_strided_f32_serial(op, a, av, b, bv, out, ov)
}

avx2_fma! {
    /// [`binary_strided_f32`] on this thread, as `cpu_kernel_vec` runs it.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn binary_strided_f32_serial(
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
