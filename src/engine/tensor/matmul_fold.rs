//! `matmul` of an N-d tensor (N >= 3) by a matrix or a vector, folded into one `mm` as
//! ATen's `_matmul_impl` does when `should_fold` holds: the rows of every batch entry form
//! one matrix, so the product, its gradients and their rounding are mm's (a weight's
//! gradient is one GEMM over all rows, not a sum of per-batch products), and the result is
//! an `_unsafe_view` of it (grad_fn UnsafeViewBackward0).

use super::{Tensor, contiguous_strides};
use crate::engine::error::Result;
use crate::engine::runtime::Runtime;

impl Runtime {
    /// ATen's should_fold for a first operand of 3 or more dims and a matrix or vector
    /// second one: always when the second requires grad, otherwise when the first's leading
    /// dims flatten without a copy. Operands whose sizes, dtypes or devices disagree take
    /// the batched path, which words those errors.
    pub(super) fn should_fold(a: &Tensor, b: &Tensor) -> bool {
        if a.dim() < 3 || b.dim() == 0 || b.dim() > 2 {
            return false;
        }
        let k = a.layout.shape[a.dim() - 1];
        if b.layout.shape[0] != k || a.dtype() != b.dtype() || a.device() != b.device() {
            return false;
        }
        if b.requires_grad || a.numel() == 0 {
            return true;
        }
        let (s, st) = (&a.layout.shape, &a.layout.strides);
        (0..a.dim() - 2).all(|i| st[i] == st[i + 1] * s[i + 1])
    }

    /// `a @ b` as `a.reshape(-1, k).mm(b)` (`.mv(b)` for a vector) viewed back to the
    /// output's shape.
    pub(super) fn matmul_folded(&self, a: &Tensor, b: &Tensor) -> Result<Tensor> {
        let d = a.dim();
        let k = a.layout.shape[d - 1];
        let rows: usize = a.layout.shape[..d - 1].iter().product();
        // reshape: a view when the leading dims nest, else a contiguous copy first
        let (sh, st) = (&a.layout.shape, &a.layout.strides);
        let nests = (0..d - 2).all(|i| st[i] == st[i + 1] * sh[i + 1]);
        let src = if nests {
            a.clone()
        } else {
            self.contiguous(a)?
        };
        let (rs, ks) = (src.layout.strides[d - 2], src.layout.strides[d - 1]);
        let flat = src.view_of(vec![rows, k], vec![rs, ks], src.layout.offset);
        let mut shape = a.layout.shape[..d - 1].to_vec();
        let y = if b.dim() == 2 {
            shape.push(b.layout.shape[1]);
            self.mm_impl("matmul", &flat, b, "mm", "mm")?
        } else {
            self.mm_impl("matmul", &flat, &b.unsqueeze(1)?, "mv", "mv")?
        };
        let strides = contiguous_strides(&shape);
        Ok(y.view_named("UnsafeViewBackward0", shape, strides, y.layout.offset))
    }
}
