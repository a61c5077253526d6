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
    let ga = if wants(0) {
        let full = with_batched(b, &sb, dt, |bs, bl| {
            G::matmul(
                Affine::new((&g, &g3), (bs, &transposed(bl)), None),
                MatmulDims {
                    batch: nb,
                    m,
                    k: n,
                    n: k,
                },
            )
        })?;
        Some(sum_to(full, &sa, &a.layout.shape, dt)?)
    } else {
        None
    };
    let gb = if wants(1) {
        let full = with_batched(a, &sa, dt, |as_, al| {
            G::matmul(
                Affine::new((as_, &transposed(al)), (&g, &g3), None),
                MatmulDims {
                    batch: nb,
                    m: k,
                    k: m,
                    n,
                },
            )
        })?;
        Some(sum_to(full, &sb, &b.layout.shape, dt)?)
    } else {
        None
    };
    Ok(vec![ga, gb])
}
