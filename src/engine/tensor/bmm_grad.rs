//! Backward of the batched matrix product (`torch.bmm`, and `matmul` with batch dims that
//! does not fold into one `mm`): derivatives.yaml's bmm formulas per batch entry,
//! self: grad.bmm(mat2.transpose(1, 2)), mat2: self.transpose(1, 2).bmm(grad), through the
//! same host GEMM as the forward; then each operand's broadcast batch dims are summed back
//! (expand's backward), as matmul's expand + bmm + view is differentiated in ATen.

use super::Tensor;
use super::autograd::{Edge, Node, sum_to};
use super::raw::collapse_batch;
use crate::engine::backend::{Affine, BackendStorage, MatmulDims};
use crate::engine::dtype::DType;
use crate::engine::error::Result;
use crate::engine::layout::Layout;
use crate::engine::storage::DeviceStorage as G;

/// `l` with its last two dims swapped (a transpose as strides, not a copy).
fn transposed(l: &Layout) -> Layout {
    Layout::new(
        vec![l.shape[0], l.shape[2], l.shape[1]],
        vec![l.strides[0], l.strides[2], l.strides[1]],
        l.offset,
    )
}

/// Runs `f` with `t`'s values broadcast to `shape` (batch dims, then a matrix) as one
/// 3-D operand with a single batch stride, copying them when the batch dims cannot be read
/// with one stride (as the forward does).
pub(super) fn with_batched<R>(
    t: &Tensor,
    shape: &[usize],
    dt: DType,
    f: impl FnOnce(&G, &Layout) -> Result<R>,
) -> Result<R> {
    let p = super::ops::prepare(t, dt, shape)?;
    let (s, l) = p.pair()?;
    match collapse_batch(l) {
        Some(l3) => f(s, &l3),
        None => {
            let copy = s.to_dtype(l, dt)?;
            let l3 = collapse_batch(&Layout::contiguous(shape)).expect("contiguous batch");
            f(&copy, &l3)
        }
    }
}

/// The gradients of (a, b) given the output's gradient `g` (contiguous, the output's order);
/// `a` and `b` are the operands with their 1-D sides already made matrices, `batch` the
/// broadcast batch shape.
pub(super) fn input_grads(
    node: &Node,
    a: &Tensor,
    b: &Tensor,
    batch: &[usize],
    g: G,
    dt: DType,
) -> Result<Vec<Option<G>>> {
    let (m, k) = (a.layout.shape[a.dim() - 2], a.layout.shape[a.dim() - 1]);
    let n = b.layout.shape[b.dim() - 1];
    let nb: usize = batch.iter().product();
    let g3 = Layout::new(vec![nb, m, n], vec![m * n, n, 1], 0);
    let wants = |i: usize| !matches!(node.edges.get(i), None | Some(Edge::None));
    let mut sa = batch.to_vec();
    sa.extend([m, k]);
    let mut sb = batch.to_vec();
    sb.extend([k, n]);
    // input i's gradient: g @ b^T (i = 0) or a^T @ g (i = 1), the other operand read
    // transposed at the broadcast batch, then summed back to the input's own batch dims
    let grad = |i: usize| -> Result<Option<G>> {
        if !wants(i) {
            return Ok(None);
        }
        let (input, input_shape, other, other_shape, dims) = if i == 0 {
            let dims = MatmulDims {
                batch: nb,
                m,
                k: n,
                n: k,
            };
            (a, &sa, b, &sb, dims)
        } else {
            let dims = MatmulDims {
                batch: nb,
                m: k,
                k: m,
                n,
            };
            (b, &sb, a, &sa, dims)
        };
        let full = with_batched(other, other_shape, dt, |os, ol| {
            let ot = transposed(ol);
            let operands = if i == 0 {
                Affine::new((&g, &g3), (os, &ot), None)
            } else {
                Affine::new((os, &ot), (&g, &g3), None)
            };
            G::matmul(operands, dims)
        })?;
        sum_to(full, input_shape, &input.layout.shape, dt).map(Some)
    };
    Ok(vec![grad(0)?, grad(1)?])
}
