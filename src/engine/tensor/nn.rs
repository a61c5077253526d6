//! Matrix products, softmax, losses, gathers (index_select / gather / embedding), cat/stack,
//! nonzero. Device-side checks become device-side asserts on CUDA tensors.

use super::bmm_grad::with_batched;
use super::{BinaryOp, CommaSeparated, UnaryOp};
use super::{Layout, Tensor, batched, broadcast_shapes, contiguous_strides, wrap_dim};
use crate::engine::backend::{
    Affine, Arg, BackendDevice, BackendStorage, MatmulDims, Operands, ReduceOp,
};
use crate::engine::device::Device;
use crate::engine::dtype::{DType, Scalar, promote_types};
use crate::engine::error::{EngineError, Result};
use crate::engine::runtime::Runtime;
use crate::engine::storage::DeviceStorage;
use crate::engine::timing::Cost;

use super::ops::Reduction;
use std::rc::Rc;

/// Where PyTorch's kernels live, for device-log lines.
/// `__FILE__` of ATen's CUDA kernels in the 2.15 wheel (`strings libtorch_cuda.so`; the lines
/// below were read from its SASS: docs/cuda-backend.md, "Device-side asserts").
pub(crate) const ATEN_CUDA: &str = "/__w/pytorch/pytorch/aten/src/ATen/native/cuda";
/// Most assert lines one kernel prints into the device log here.
const MAX_ASSERT_LINES: usize = 64;

/// Device-log lines for the offending elements `bad` (linear thread ids) of a kernel run
/// with `block` threads per block.
/// index_select / embedding take indexSelectSmallIndex for at most this many indices.
const SMALL_INDEX_SELECT: usize = 16;

fn assert_lines(
    file_line: &str,
    kernel: &str,
    cond: &str,
    bad: &[usize],
    block: usize,
) -> Vec<String> {
    bad.iter()
        .take(MAX_ASSERT_LINES)
        .map(|&i| {
            format!(
                "{ATEN_CUDA}/{file_line}: {kernel}: block: [{},0,0], thread: [{},0,0] Assertion `{cond}` failed.",
                i / block,
                i % block
            )
        })
        .collect()
}

fn mm_dims(t: &Tensor) -> String {
    t.layout
        .shape
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("x")
}

impl Runtime {
    /// `a @ b` / `torch.matmul`.
    pub fn matmul(&self, a: &Tensor, b: &Tensor) -> Result<Tensor> {
        let hint = a.device().cuda_index().or(b.device().cuda_index());
        match (a.dim(), b.dim()) {
            (0, _) | (_, 0) => Err(self.host_error(
                "matmul",
                hint,
                EngineError::runtime(format!(
                    "both arguments to matmul need to be at least 1D, but they are {}D and {}D",
                    a.dim(),
                    b.dim()
                )),
            )),
            (1, 1) => {
                let r = self.guarded("matmul", hint, || {
                    if a.layout.shape[0] != b.layout.shape[0] {
                        return Err(EngineError::runtime(format!(
                            "inconsistent tensor size, expected tensor [{}] and src [{}] to have the same number of elements, but got {} and {} elements respectively",
                            a.layout.shape[0], b.layout.shape[0], a.layout.shape[0], b.layout.shape[0]
                        )));
                    }
                    Ok(())
                });
                r?;
                // ATen's dot: the BLAS dot's order, not gemm's
                let (a2, b2) = (a.unsqueeze(0)?, b.unsqueeze(1)?);
                let hint = a2.device().cuda_index().or(b2.device().cuda_index());
                let dev =
                    self.guarded("matmul", hint, || self.check_mm(&a2, &b2, "mm", "mm", None))?;
                let m = self.gemm_out("matmul", &a2, &b2, None, dev, true)?;
                Ok(m.view_named("DotBackward0", vec![], vec![], 0))
            }
            (2, 2) => self.mm_impl("matmul", a, b, "mm", "mm"),
            (1, 2) => {
                // ATen's matmul: unsqueeze(0), mm, squeeze_(0) (SqueezeBackward4)
                let m = self.mm_impl("matmul", &a.unsqueeze(0)?, b, "mm", "mm")?;
                Ok(m.view_named("SqueezeBackward4", vec![b.layout.shape[1]], vec![1], 0))
            }
            (2, 1) => {
                if a.layout.shape[1] != b.layout.shape[0] {
                    return Err(self.host_error(
                        "matmul",
                        hint,
                        EngineError::runtime(format!(
                            "size mismatch, got input ({}), mat ({}x{}), vec ({})",
                            a.layout.shape[0],
                            a.layout.shape[0],
                            a.layout.shape[1],
                            b.layout.shape[0]
                        )),
                    ));
                }
                let m = self.mm_impl("matmul", a, &b.unsqueeze(1)?, "mv", "mv")?;
                Ok(m.view_named("MvBackward0", vec![a.layout.shape[0]], vec![1], 0))
            }
            _ if Self::should_fold(a, b) => self.matmul_folded(a, b),
            _ => self.bmm_broadcast(a, b),
        }
    }

    /// `torch.mm(a, b)`.
    pub fn mm(&self, a: &Tensor, b: &Tensor) -> Result<Tensor> {
        for t in [a, b] {
            if t.dim() != 2 {
                return Err(self.host_error(
                    "mm",
                    t.device().cuda_index(),
                    EngineError::runtime(format!(
                        "{} must be a matrix",
                        if std::ptr::eq(t, a) { "self" } else { "mat2" }
                    )),
                ));
            }
        }
        self.mm_impl("mm", a, b, "mm", "mm")
    }

    fn check_mm(
        &self,
        a: &Tensor,
        b: &Tensor,
        prefix: &str,
        method: &str,
        bias: Option<&Tensor>,
    ) -> Result<Device> {
        let dev = match bias {
            Some(bi) => self.wrapper_devices(&[(bi, "self"), (a, "mat1"), (b, "mat2")], method)?,
            None => self.wrapper_devices(&[(a, "self"), (b, "mat2")], method)?,
        };
        if a.dim() != 2 || b.dim() != 2 {
            return Err(EngineError::runtime(format!(
                "{}: expected 2D tensors, got {}D and {}D",
                prefix,
                a.dim(),
                b.dim()
            )));
        }
        if a.layout.shape[1] != b.layout.shape[0] {
            return Err(EngineError::runtime(format!(
                "{prefix}: mat1 and mat2 shapes cannot be multiplied ({} and {})",
                mm_dims(a),
                mm_dims(b)
            )));
        }
        if a.dtype() != b.dtype() {
            // addmm (and so 2-D linear with a bias) words it its own way
            if method == "addmm" {
                return Err(EngineError::runtime(format!(
                    "mat1 and mat2 must have the same dtype, but got {} and {}",
                    a.dtype().scalar_name(),
                    b.dtype().scalar_name()
                )));
            }
            return Err(EngineError::runtime(format!(
                "expected m1 and m2 to have the same dtype, but got: {} != {}",
                a.dtype().c_name(),
                b.dtype().c_name()
            )));
        }
        Ok(dev)
    }

    pub(super) fn mm_impl(
        &self,
        op: &str,
        a: &Tensor,
        b: &Tensor,
        prefix: &str,
        method: &str,
    ) -> Result<Tensor> {
        let hint = a.device().cuda_index().or(b.device().cuda_index());
        let dev = self.guarded(op, hint, || self.check_mm(a, b, prefix, method, None))?;
        self.gemm_out(op, a, b, None, dev, false)
    }

    fn gemm_out(
        &self,
        op: &str,
        a: &Tensor,
        b: &Tensor,
        bias: Option<&Tensor>,
        dev: Device,
        dot: bool,
    ) -> Result<Tensor> {
        // the node PyTorch records: mm, or addmm when there is a bias (addmm, linear)
        let gf = if bias.is_some() {
            "AddmmBackward0"
        } else {
            "MmBackward0"
        };
        let (m, k, n) = (a.layout.shape[0], a.layout.shape[1], b.layout.shape[1]);
        let dt = a.dtype();
        let mut ins = vec![a, b];
        if let Some(bi) = bias {
            ins.push(bi);
        }
        let mut out = self
            .produce(&ins, vec![m, n], dt, dev, || {
                let pa = super::ops::prepare(a, dt, &a.layout.shape)?;
                let pb = super::ops::prepare(b, dt, &b.layout.shape)?;
                let pbias = bias
                    .map(|bi| super::ops::prepare(bi, dt, &[1, m, n]))
                    .transpose()?;
                let (sa, la) = pa.pair()?;
                let (sb, lb) = pb.pair()?;
                let bias = match &pbias {
                    Some(p) => Some(p.pair()?),
                    None => None,
                };
                let dims = MatmulDims { batch: 1, m, k, n };
                if dot {
                    return DeviceStorage::dot((sa, &batched(la)), (sb, &batched(lb)), dims);
                }
                DeviceStorage::matmul(
                    Affine::new((sa, &batched(la)), (sb, &batched(lb)), bias),
                    dims,
                )
            })
            .map_err(|e| self.host_error(op, dev.cuda_index(), e))?;
        // PyTorch's addmm takes cuBLASLt's bias epilogue for a 1-D bias over matrices whose
        // sides are all larger than 1 (Blas.cpp, useLtInterface), plain cuBLAS otherwise
        let lt = bias.is_some_and(|bi| bi.dim() == 1) && m > 1 && k > 1 && n > 1;
        self.cublas_workspace(dev, lt)?;
        self.grad_of(&ins, &mut out, gf);
        let edges: Vec<_> = ins.iter().map(|t| super::autograd::edge_of(t)).collect();
        let kind =
            super::autograd::Kind::Mm(a.detach(), b.detach(), bias.map(|b| b.layout.shape.clone()));
        super::autograd::attach(&mut out, &edges, kind);
        if bias.is_some() {
            // addmm's inputs are (self=bias, mat1, mat2) in PyTorch; the engine keeps the bias last
            out = out.into_pytorch_node(gf, Some(&[2, 0, 1]));
        }
        let es = dt.element_size() as u64;
        let cost = Cost::new(gemm_bytes(1, m, k, n, es), gemm_flops(1, m, k, n));
        self.complete(op, dev, cost, Vec::new())?;
        Ok(out)
    }

    /// `torch.addmm(bias, a, b)` = bias + a @ b.
    pub fn addmm(&self, bias: &Tensor, a: &Tensor, b: &Tensor) -> Result<Tensor> {
        let hint = a.device().cuda_index().or(b.device().cuda_index());
        let dev = self.guarded("addmm", hint, || {
            let dev = self.check_mm(a, b, "addmm", "addmm", Some(bias))?;
            broadcast_shapes(&bias.layout.shape, &[a.layout.shape[0], b.layout.shape[1]])?;
            Ok(dev)
        })?;
        self.gemm_out("addmm", a, b, Some(bias), dev, false)
    }

    /// `F.linear(x, weight, bias)`: addmm for 2-D input with bias, matmul otherwise.
    pub fn linear(&self, x: &Tensor, weight: &Tensor, bias: Option<&Tensor>) -> Result<Tensor> {
        let wt = weight.t()?;
        if x.dim() == 2
            && weight.dim() == 2
            && let Some(b) = bias
        {
            let hint = x.device().cuda_index().or(weight.device().cuda_index());
            let dev = self.guarded("linear", hint, || {
                let dev = self.check_mm(x, &wt, "addmm", "addmm", Some(b))?;
                broadcast_shapes(&b.layout.shape, &[x.layout.shape[0], wt.layout.shape[1]])?;
                Ok(dev)
            })?;
            return self.gemm_out("linear", x, &wt, Some(b), dev, false);
        }
        // ATen's linear folds a contiguous N-d input with a 1-D bias into one addmm and views
        // the result back (_flatten_nd_linear): its messages say addmm, its grad_fn is a view
        if x.dim() >= 3
            && weight.dim() == 2
            && x.is_contiguous()
            && let Some(b) = bias
            && b.dim() == 1
        {
            let last = x.layout.shape[x.dim() - 1];
            let rows: usize = x.layout.shape[..x.dim() - 1].iter().product();
            let flat = x.view_named(
                "ViewBackward0",
                vec![rows, last],
                vec![last, 1],
                x.layout.offset,
            );
            let y = self.linear(&flat, weight, Some(b))?;
            let mut shape = x.layout.shape[..x.dim() - 1].to_vec();
            shape.push(y.layout.shape[1]);
            let st = contiguous_strides(&shape);
            return Ok(y.view_named("ViewBackward0", shape, st, y.layout.offset));
        }
        let y = self.matmul(x, &wt)?;
        match bias {
            Some(b) => self.add(&y.into(), &b.into()),
            None => Ok(y),
        }
    }

    /// Batched matmul with broadcast batch dims (3-D and more).
    fn bmm_broadcast(&self, a: &Tensor, b: &Tensor) -> Result<Tensor> {
        let hint = a.device().cuda_index().or(b.device().cuda_index());
        let a2 = if a.dim() == 1 {
            a.unsqueeze(0)?
        } else {
            a.clone()
        };
        let b2 = if b.dim() == 1 {
            b.unsqueeze(1)?
        } else {
            b.clone()
        };
        let (m, k) = (a2.layout.shape[a2.dim() - 2], a2.layout.shape[a2.dim() - 1]);
        let (k2, n) = (b2.layout.shape[b2.dim() - 2], b2.layout.shape[b2.dim() - 1]);
        let dev = self.guarded("matmul", hint, || {
            let dev = self.common_device(&[&a2, &b2])?;
            if k != k2 && a.dim() >= 3 && b.dim() <= 2 {
                // ATen folds the batch of `a` into its rows and calls mm
                let rows: usize = a2.layout.shape[..a2.dim() - 1].iter().product();
                return Err(EngineError::runtime(format!(
                    "mm: mat1 and mat2 shapes cannot be multiplied ({rows}x{k} and {k2}x{n})"
                )));
            }
            if k != k2 {
                let ab: usize = a2.layout.shape[..a2.dim() - 2].iter().product();
                let bb: usize = b2.layout.shape[..b2.dim() - 2].iter().product();
                let _ = bb;
                return Err(EngineError::runtime(format!(
                    "Expected size for first two dimensions of batch2 tensor to be: [{ab}, {k}] but got: [{ab}, {k2}]."
                )));
            }
            if a.dtype() != b.dtype() {
                return Err(EngineError::runtime(format!(
                    "expected m1 and m2 to have the same dtype, but got: {} != {}",
                    a.dtype().c_name(),
                    b.dtype().c_name()
                )));
            }
            Ok(dev)
        })?;
        let batch = self.guarded("matmul", hint, || {
            broadcast_shapes(
                &a2.layout.shape[..a2.dim() - 2],
                &b2.layout.shape[..b2.dim() - 2],
            )
        })?;
        let nb = super::checked_numel(&batch).map_err(|e| self.host_error("matmul", hint, e))?;
        let mut sa = batch.clone();
        sa.extend([m, k]);
        let mut sb = batch.clone();
        sb.extend([k, n]);
        let dt = a.dtype();
        // Broadcasting the batch copies each operand to the full batch: bound those copies
        // and the product's work, not just the output.
        let mut shape = batch.clone();
        if a.dim() > 1 {
            shape.push(m);
        }
        if b.dim() > 1 {
            shape.push(n);
        }
        let mut out = self
            .produce(&[a, b], shape, dt, dev, || {
                // operands whose batch dims cannot be read with one stride are copied
                with_batched(&a2, &sa, dt, |xa, la| {
                    with_batched(&b2, &sb, dt, |xb, lb| {
                        DeviceStorage::matmul(
                            Affine::new((xa, la), (xb, lb), None),
                            MatmulDims { batch: nb, m, k, n },
                        )
                    })
                })
            })
            .map_err(|e| self.host_error("matmul", hint, e))?;
        self.cublas_workspace(dev, false)?;
        self.grad_of(&[a, b], &mut out, "BmmBackward0");
        let edges = [super::autograd::edge_of(a), super::autograd::edge_of(b)];
        let kind = super::autograd::Kind::Bmm {
            a: a2.detach(),
            b: b2.detach(),
            batch: batch.clone(),
        };
        super::autograd::attach(&mut out, &edges, kind);
        let es = dt.element_size() as u64;
        self.complete(
            "matmul",
            dev,
            Cost::new(gemm_bytes(nb, m, k, n, es), gemm_flops(nb, m, k, n)),
            Vec::new(),
        )?;
        Ok(out)
    }

    // ----- softmax family -----

    fn softmax_op(
        &self,
        name: &'static str,
        x: &Tensor,
        dim: i64,
        log: bool,
        dtype: Option<DType>,
    ) -> Result<Tensor> {
        let hint = x.device().cuda_index();
        let d = self.guarded(name, hint, || {
            let d = wrap_dim(dim, x.dim())?;
            if !x.dtype().is_floating_point() && dtype.is_none() {
                return Err(EngineError::runtime(format!(
                    "\"{}_lastdim_kernel_impl\" not implemented for '{}'",
                    if log { "log_softmax" } else { "softmax" },
                    x.dtype().scalar_name()
                )));
            }
            Ok(d)
        })?;
        let dt = dtype.unwrap_or(x.dtype());
        let xin = if dt != x.dtype() {
            self.to(x, None, Some(dt), false, false, "to")?
        } else {
            x.clone()
        };
        let mut out = self
            .produce(&[x], x.layout.shape.clone(), dt, x.device(), || {
                let p = super::ops::prepare(&xin, dt, &xin.layout.shape)?;
                let (s, l) = p.pair()?;
                s.softmax(l, d, log)
            })
            .map_err(|e| self.host_error(name, hint, e))?;
        self.grad_of(
            &[x],
            &mut out,
            if log {
                "LogSoftmaxBackward0"
            } else {
                "SoftmaxBackward0"
            },
        );
        let kind = super::autograd::Kind::Softmax {
            dim: d,
            out: out.detach(),
            log,
        };
        super::autograd::attach(&mut out, &[super::autograd::edge_of(&xin)], kind);
        self.complete(
            name,
            x.device(),
            Cost::new(3 * x.nbytes() as u64, 4 * x.numel() as u64),
            Vec::new(),
        )?;
        Ok(out)
    }

    pub fn softmax(&self, x: &Tensor, dim: i64, dtype: Option<DType>) -> Result<Tensor> {
        self.softmax_op("softmax", x, dim, false, dtype)
    }
    pub fn log_softmax(&self, x: &Tensor, dim: i64, dtype: Option<DType>) -> Result<Tensor> {
        self.softmax_op("log_softmax", x, dim, true, dtype)
    }

    // ----- losses -----

    /// Host checks shared by nll_loss and cross_entropy; returns (N, C).
    fn nll_checks(
        &self,
        input: &Tensor,
        target: &Tensor,
        weight: Option<&Tensor>,
    ) -> Result<(usize, usize)> {
        if input.dim() < 1 || input.dim() > 2 {
            if input.dim() > 2 {
                return Err(EngineError::not_implemented(
                    "cudatutor supports nll_loss/cross_entropy on 1-D or 2-D input only",
                ));
            }
            return Err(EngineError::runtime(
                "input tensor should be 1D or 2D".to_string(),
            ));
        }
        // ATen's order: nll_loss_nd's batch check, the meta function's target shape check,
        // then the kernel's target dtype
        if input.dim() == 2 && target.dim() >= 1 && target.layout.shape[0] != input.layout.shape[0]
        {
            return Err(EngineError::value(format!(
                "Expected input batch_size ({}) to match target batch_size ({}).",
                input.layout.shape[0], target.layout.shape[0]
            )));
        }
        if target.dim() > 1 {
            return Err(EngineError::runtime(
                "0D or 1D target tensor expected, multi-target not supported".to_string(),
            ));
        }
        if !matches!(target.dtype(), DType::Int64 | DType::UInt8) {
            return Err(EngineError::runtime(format!(
                "expected target dtype to be Long or Byte, but got {}",
                target.dtype().scalar_name()
            )));
        }
        let (n, c) = if input.dim() == 2 {
            (input.layout.shape[0], input.layout.shape[1])
        } else {
            (1, input.layout.shape[0])
        };
        let tn = if target.dim() == 0 {
            1
        } else {
            target.layout.shape[0]
        };
        if target.dim() > 1 {
            return Err(EngineError::runtime(
                "0D or 1D target tensor expected, multi-target not supported".to_string(),
            ));
        }
        if (input.dim() == 2 && target.dim() != 1)
            || (input.dim() == 1 && target.dim() != 0)
            || tn != n
        {
            if input.dim() == 2 && target.dim() == 1 && tn != n {
                return Err(EngineError::value(format!(
                    "Expected input batch_size ({n}) to match target batch_size ({tn})."
                )));
            }
            if !(input.dim() == 2 && target.dim() == 1 || input.dim() == 1 && target.dim() == 0) {
                return Err(EngineError::runtime(format!(
                    "Expected input batch_size ({n}) to match target batch_size ({tn})."
                )));
            }
        }
        if let Some(w) = weight
            && w.numel() != c
        {
            return Err(EngineError::runtime(format!(
                "weight tensor should be defined either for all {c} classes or no classes but got weight tensor of shape: [{}]",
                w.layout.shape.comma_separated()
            )));
        }
        Ok((n, c))
    }

    /// `F.nll_loss(input, target, weight=None, ignore_index=-100, reduction='mean')`.
    pub fn nll_loss(
        &self,
        input: &Tensor,
        target: &Tensor,
        weight: Option<&Tensor>,
        ignore_index: i64,
        reduction: Reduction,
    ) -> Result<Tensor> {
        self.nll_like(
            "nll_loss",
            input,
            target,
            weight,
            ignore_index,
            reduction,
            false,
        )
    }

    /// `F.cross_entropy(input, target, weight=None, ignore_index=-100, reduction='mean')`:
    /// log_softmax over dim 1 then nll_loss (class-probability targets when `target` is
    /// floating with the input's shape).
    pub fn cross_entropy(
        &self,
        input: &Tensor,
        target: &Tensor,
        weight: Option<&Tensor>,
        ignore_index: i64,
        reduction: Reduction,
    ) -> Result<Tensor> {
        if target.dtype().is_floating_point() && target.layout.shape == input.layout.shape {
            return self.cross_entropy_probs(input, target, reduction);
        }
        self.nll_like(
            "cross_entropy",
            input,
            target,
            weight,
            ignore_index,
            reduction,
            true,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn nll_like(
        &self,
        op: &'static str,
        input: &Tensor,
        target: &Tensor,
        weight: Option<&Tensor>,
        ignore_index: i64,
        reduction: Reduction,
        softmax_first: bool,
    ) -> Result<Tensor> {
        let hint = input.device().cuda_index().or(target.device().cuda_index());
        let (dev, n, c) = self.guarded(op, hint, || {
            let mut args: Vec<(&Tensor, &str)> = vec![(input, "self"), (target, "target")];
            if let Some(w) = weight {
                args.push((w, "weight"));
            }
            let dev = self.wrapper_devices(&args, "nll_loss_forward")?;
            let (n, c) = self.nll_checks(input, target, weight)?;
            if !input.dtype().is_floating_point() {
                return Err(EngineError::runtime(format!(
                    "\"{}\" not implemented for '{}'",
                    if softmax_first {
                        "log_softmax_lastdim_kernel_impl"
                    } else {
                        "nll_loss_out_frame"
                    },
                    input.dtype().scalar_name()
                )));
            }
            Ok((dev, n, c))
        })?;
        let dt = input.dtype();
        let out_shape = if reduction == Reduction::None && input.dim() == 2 {
            vec![n]
        } else {
            vec![]
        };
        let mut ins = vec![input, target];
        if let Some(w) = weight {
            ins.push(w);
        }
        let mut bad = Vec::new();
        let mut out = self
            .produce(&ins, out_shape, dt, dev, || {
                let r = self.nll_values(
                    input,
                    target,
                    weight,
                    n,
                    c,
                    ignore_index,
                    reduction,
                    softmax_first,
                )?;
                bad = r.bad;
                Ok(r.value)
            })
            .map_err(|e| self.host_error(op, hint, e))?;
        let mut asserts = Vec::new();
        if !bad.is_empty() {
            if let Ok(values) = target.scalars() {
                let position = crate::engine::provenance::unravel(bad[0], target.shape());
                let bound = crate::engine::provenance::Bound::Classes { classes: c };
                let value = values[bad[0]].as_f64();
                self.note_bad_value(op, "target", target, position, value, bound, bad.len());
            }
            if dev == Device::Cpu {
                let t = target.scalars()?[bad[0]].as_f64() as i64;
                return Err(self.host_error(
                    op,
                    None,
                    EngineError::index(format!("Target {t} is out of bounds.")),
                ));
            }
            asserts = if reduction == Reduction::None {
                assert_lines(
                    "Loss.cu:179",
                    "nll_loss_forward_no_reduce_cuda_kernel",
                    "cur_target >= 0 && cur_target < n_classes",
                    &bad,
                    128,
                )
            } else if input.dim() == 2 {
                // one block of 32 threads strides over the batch; a thread traps at its first bad sample
                let mut seen = std::collections::BTreeSet::new();
                let firsts: Vec<usize> = bad
                    .iter()
                    .copied()
                    .filter(|i| seen.insert(i % 32))
                    .map(|i| i % 32)
                    .collect();
                assert_lines(
                    "Loss.cu:244",
                    "nll_loss_forward_reduce_cuda_kernel_2d",
                    "t >= 0 && t < n_classes",
                    &firsts,
                    1024,
                )
            } else {
                assert_lines(
                    "Loss.cu:200",
                    "nll_loss_forward_reduce_cuda_kernel_1d",
                    "t >= 0 && t < n_classes",
                    &[0],
                    1024,
                )
            };
        }
        self.grad_of(&[input], &mut out, "NllLossBackward0");
        let kind = super::autograd::Kind::Nll {
            input: input.detach(),
            target: target.detach(),
            weight: weight.map(|w| w.detach()),
            ignore: ignore_index,
            reduction,
            log_softmax_first: softmax_first,
        };
        super::autograd::attach(&mut out, &[super::autograd::edge_of(input)], kind);
        let cost = Cost::new(
            (input.nbytes() * if softmax_first { 3 } else { 1 } + target.nbytes()) as u64,
            5 * input.numel() as u64,
        );
        self.complete(op, dev, cost, asserts)?;
        Ok(out)
    }

    fn cross_entropy_probs(
        &self,
        input: &Tensor,
        target: &Tensor,
        reduction: Reduction,
    ) -> Result<Tensor> {
        let hint = input.device().cuda_index();
        let dev = self.guarded("cross_entropy", hint, || {
            if input.dim() == 0 || input.dim() > 2 {
                return Err(EngineError::not_implemented(
                    "cudatutor supports cross_entropy with class probabilities on 1-D or 2-D input only",
                ));
            }
            self.common_device(&[input, target])
        })?;
        let dt = input.dtype();
        let d = if input.dim() >= 2 { 1 } else { 0 };
        let n = if input.dim() >= 2 {
            input.layout.shape[0]
        } else {
            1
        };
        let shape = if reduction == Reduction::None && input.dim() >= 2 {
            vec![n]
        } else {
            vec![]
        };
        // -(log_softmax(input, 1) * target).sum(1), then the reduction: the ops PyTorch
        // composes, each through the device interface
        let mut out = self
            .produce(&[input, target], shape, dt, dev, || {
                let pi = super::ops::prepare(input, dt, &input.layout.shape)?;
                let (si, li) = pi.pair()?;
                let lp = si.softmax(li, d, true)?;
                let full = Layout::contiguous(&input.layout.shape);
                let pt = super::ops::prepare(target, dt, &input.layout.shape)?;
                let prod = DeviceStorage::binary(
                    BinaryOp::Mul,
                    Operands::new(
                        [Arg::Tensor(&lp, &full), pt.arg()?],
                        &input.layout.shape,
                        dt,
                    ),
                    dt,
                )?;
                let mut red = vec![false; input.dim()];
                red[d] = true;
                let per = prod.reduce(&full, ReduceOp::Sum, &red, dt)?;
                let per_l = Layout::contiguous(&[n]);
                let neg = per.unary(&per_l, UnaryOp::Neg, dt)?;
                match reduction {
                    Reduction::None => Ok(neg),
                    Reduction::Sum => neg.reduce(&per_l, ReduceOp::Sum, &[true], dt),
                    Reduction::Mean => neg.reduce(&per_l, ReduceOp::Mean, &[true], dt),
                }
            })
            .map_err(|e| self.host_error("cross_entropy", hint, e))?;
        self.grad_of(&[input], &mut out, "DivBackward1");
        self.complete(
            "cross_entropy",
            dev,
            Cost::new(3 * input.nbytes() as u64, 5 * input.numel() as u64),
            Vec::new(),
        )?;
        Ok(out)
    }

    // ----- gathers -----

    fn index_values(&self, index: &Tensor) -> Result<Vec<i64>> {
        if !matches!(index.dtype(), DType::Int64 | DType::Int32) {
            return Err(EngineError::runtime(
                "index_select(): Expected dtype int32 or int64 for index".to_string(),
            ));
        }
        Ok(if index.is_phantom() {
            Vec::new()
        } else {
            index
                .scalars()?
                .into_iter()
                .map(|v| v.as_f64() as i64)
                .collect()
        })
    }

    /// `t.index_select(dim, index)`.
    pub fn index_select(&self, t: &Tensor, dim: i64, index: &Tensor) -> Result<Tensor> {
        self.index_select_as("index_select", t, dim, index, index, false, None)
    }

    /// `F.embedding(indices, weight)` (rows of `weight`, output shape indices.shape + [D]).
    pub fn embedding(&self, weight: &Tensor, indices: &Tensor) -> Result<Tensor> {
        self.embedding_padded(weight, indices, None)
    }

    /// `F.embedding(indices, weight, padding_idx)`: rows equal to `padding_idx` get no
    /// gradient.
    pub(crate) fn embedding_padded(
        &self,
        weight: &Tensor,
        indices: &Tensor,
        padding_idx: Option<i64>,
    ) -> Result<Tensor> {
        let hint = weight.device().cuda_index();
        self.guarded("embedding", hint, || {
            if !matches!(indices.dtype(), DType::Int64 | DType::Int32) {
                return Err(EngineError::runtime(format!(
                    "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got {} instead (while checking arguments for embedding)",
                    crate::engine::tensor::create::tensor_type_name(indices)
                )));
            }
            if weight.dim() != 2 {
                return Err(EngineError::runtime("'weight' must be 2-D"));
            }
            Ok(())
        })?;
        let flat = indices.view_of(vec![indices.numel()], vec![1], 0);
        let flat = if indices.is_contiguous() {
            indices.view_of(vec![indices.numel()], vec![1], indices.layout.offset)
        } else {
            let _ = flat;
            self.contiguous(indices)?
                .view_of(vec![indices.numel()], vec![1], 0)
        };
        let mut rows =
            self.index_select_as("embedding", weight, 0, &flat, indices, true, padding_idx)?;
        let mut shape = indices.layout.shape.clone();
        shape.push(weight.layout.shape[1]);
        // the rows are the output, contiguous: only their shape changes (one node,
        // EmbeddingBackward0, as PyTorch's)
        rows.layout = Layout::contiguous(&shape);
        Ok(rows)
    }

    /// `shown` is the index tensor as the script passed it (embedding flattens it to `index`):
    /// the offending element is reported at its place in `shown`.
    #[allow(clippy::too_many_arguments)]
    fn index_select_as(
        &self,
        op: &'static str,
        t: &Tensor,
        dim: i64,
        index: &Tensor,
        shown: &Tensor,
        embedding: bool,
        padding_idx: Option<i64>,
    ) -> Result<Tensor> {
        let hint = t.device().cuda_index();
        let (dev, d, idx) = self.guarded(op, hint, || {
            let dev = self.wrapper_devices(&[(t, "self"), (index, "index")], "_index_select")?;
            let d = wrap_dim(dim, t.dim())?;
            if index.dim() > 1 {
                return Err(EngineError::index(
                    "index_select(): Index is supposed to be a vector",
                ));
            }
            if t.dim() == 0 && index.numel() != 1 {
                return Err(EngineError::index(format!(
                    "index_select(): Index to scalar can have only 1 value, got {} value(s)",
                    index.numel()
                )));
            }
            Ok((dev, d, self.index_values(index)?))
        })?;
        let size = if t.dim() == 0 { 1 } else { t.layout.shape[d] };
        let slice: usize = t
            .layout
            .shape
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != d)
            .map(|(_, s)| *s)
            .product();
        let bad = crate::engine::host::nn::out_of_range(&idx, size);
        let mut asserts = Vec::new();
        if !bad.is_empty() {
            let bound = if embedding {
                crate::engine::provenance::Bound::Rows { rows: size }
            } else {
                crate::engine::provenance::Bound::DimSize {
                    dim: d,
                    size,
                    negative_ok: false,
                }
            };
            let role = if embedding { "indices" } else { "index" };
            let position = crate::engine::provenance::unravel(bad[0], shown.shape());
            let value = idx[bad[0]] as f64;
            self.note_bad_value(op, role, shown, position, value, bound, bad.len());
            if dev == Device::Cpu {
                return Err(self.host_error(
                    op,
                    None,
                    EngineError::index("index out of range in self"),
                ));
            }
            asserts = if idx.len() <= SMALL_INDEX_SELECT {
                // indexSelectSmallIndex: blocks of min(slice, 128) threads, a grid of
                // min(ceil(slice / 128), 8 * SMs) blocks, and every thread checks every index
                // before it copies, so each launched thread reports the first bad one
                let block = slice.clamp(1, 128);
                let sms = crate::engine::random::cuda::DeviceShape::H200.sm_count as usize;
                let grid = slice.div_ceil(128).clamp(1, 8 * sms);
                let threads: Vec<usize> = (0..grid * block).take(MAX_ASSERT_LINES).collect();
                assert_lines(
                    "Indexing.cu:1582",
                    "indexSelectSmallIndex",
                    "srcIndex < srcSelectDimSize",
                    &threads,
                    block,
                )
            } else {
                // one thread per output element; index position p covers p*slice .. (p+1)*slice
                // (2.15's large path is another kernel: this line is 2.x's, unverified)
                let threads: Vec<usize> = bad
                    .iter()
                    .flat_map(|&p| (p * slice.max(1))..((p + 1) * slice.max(1)))
                    .take(MAX_ASSERT_LINES)
                    .collect();
                assert_lines(
                    "Indexing.cu:1369",
                    "indexSelectLargeIndex",
                    "srcIndex < srcSelectDimSize",
                    &threads,
                    128,
                )
            };
        }
        let mut shape = t.layout.shape.clone();
        if t.dim() > 0 {
            shape[d] = idx.len();
        }
        super::checked_numel(&shape).map_err(|e| self.host_error(op, hint, e))?;
        let mut out = self
            .produce(&[t, index], shape, t.dtype(), dev, || {
                let (st, lt) = (t.read(), &t.layout);
                let st = st.as_ref().ok_or_else(|| t.phantom_error())?;
                let pi = super::ops::prepare(index, index.dtype(), &index.layout.shape)?;
                let (si, li) = pi.pair()?;
                let idx_c;
                let si = if li.is_contiguous() && li.offset == 0 && si.len() == li.numel() {
                    si
                } else {
                    idx_c = si.to_dtype(li, index.dtype())?;
                    &idx_c
                };
                Ok(st.index_select(lt, d, si)?.value)
            })
            .map_err(|e| self.host_error(op, hint, e))?;
        self.grad_of(
            &[t],
            &mut out,
            if embedding {
                "EmbeddingBackward0"
            } else {
                "IndexSelectBackward0"
            },
        );
        if out.requires_grad {
            // output element (a, i, b) is input element (a, idx[i], b)
            let inner: usize = t.layout.shape.iter().skip(d + 1).product();
            let outer: usize = t.layout.shape.iter().take(d).product();
            let mut pos = Vec::with_capacity(out.numel());
            for a in 0..outer.max(1) {
                for &i in &idx {
                    let skip = padding_idx == Some(i) || i < 0;
                    for b in 0..inner.max(1) {
                        pos.push(if skip {
                            usize::MAX
                        } else {
                            (a * size + i as usize) * inner + b
                        });
                    }
                }
            }
            let kind = super::autograd::Kind::Scatter {
                in_shape: t.layout.shape.clone(),
                pos: Rc::new(pos),
            };
            super::autograd::attach(&mut out, &[super::autograd::edge_of(t)], kind);
        }
        self.complete(
            op,
            dev,
            Cost::new(2 * out.nbytes() as u64 + index.nbytes() as u64, 0),
            asserts,
        )?;
        Ok(out)
    }

    /// `torch.gather(t, dim, index)`.
    pub fn gather(&self, t: &Tensor, dim: i64, index: &Tensor) -> Result<Tensor> {
        let hint = t.device().cuda_index();
        let (dev, d) = self.guarded("gather", hint, || {
            let dev = self.wrapper_devices(&[(t, "self"), (index, "index")], "gather")?;
            let d = wrap_dim(dim, t.dim())?;
            // 2.15 takes int32 indices too (the kernel reads them as int64 here); an empty
            // index is checked for nothing (gather's meta function returns early)
            if index.numel() == 0 {
                return Ok((dev, d));
            }
            if !matches!(index.dtype(), DType::Int64 | DType::Int32) {
                return Err(EngineError::runtime(
                    "gather(): Expected dtype int32/int64 for index",
                ));
            }
            if index.dim() != t.dim() && !(index.dim() <= 1 && t.dim() <= 1) {
                return Err(EngineError::runtime("Index tensor must have the same number of dimensions as input tensor"));
            }
            for i in 0..t.dim() {
                if i != d && index.layout.shape[i] > t.layout.shape[i] {
                    return Err(EngineError::runtime(format!(
                        "Size does not match at dimension {i} expected index [{}] to be no larger than self [{}] apart from dimension {d}",
                        index.layout.shape.comma_separated(),
                        t.layout.shape.comma_separated()
                    )));
                }
            }
            Ok((dev, d))
        })?;
        let size = if t.dim() == 0 { 1 } else { t.layout.shape[d] } as i64;
        let iv: Vec<i64> = if index.is_phantom() || t.is_phantom() {
            Vec::new()
        } else {
            index.scalars()?.iter().map(|v| v.as_f64() as i64).collect()
        };
        let bad: Vec<usize> = iv
            .iter()
            .enumerate()
            .filter(|(_, v)| **v < 0 || **v >= size)
            .map(|(i, _)| i)
            .collect();
        let mut asserts = Vec::new();
        if !bad.is_empty() {
            let bound = crate::engine::provenance::Bound::DimSize {
                dim: d,
                size: size as usize,
                negative_ok: false,
            };
            let position = crate::engine::provenance::unravel(bad[0], index.shape());
            let value = iv[bad[0]] as f64;
            self.note_bad_value("gather", "index", index, position, value, bound, bad.len());
            if dev == Device::Cpu {
                let v = iv[bad[0]];
                return Err(self.host_error(
                    "gather",
                    None,
                    EngineError::runtime(format!(
                        "index {v} is out of bounds for dimension {d} with size {size}"
                    )),
                ));
            }
            asserts = assert_lines(
                "ScatterGatherKernel.cu:257",
                "operator()",
                "idx_dim >= 0 && idx_dim < index_size && \"index out of bounds\"",
                &bad,
                128,
            );
        }
        let ishape = index.layout.shape.clone();
        let mut out = self
            .produce(&[t, index], ishape.clone(), t.dtype(), dev, || {
                let st = t.read();
                let st = st.as_ref().ok_or_else(|| t.phantom_error())?;
                let pi = super::ops::prepare(index, DType::Int64, &ishape)?;
                let (si, li) = pi.pair()?;
                let ic = si.to_dtype(li, DType::Int64)?;
                let index = (&ic, &Layout::contiguous(&ishape));
                Ok(DeviceStorage::gather((st, &t.layout), d, index)?.value)
            })
            .map_err(|e| self.host_error("gather", hint, e))?;
        self.grad_of(&[t], &mut out, "GatherBackward0");
        if out.requires_grad && iv.len() == out.numel() {
            // output element at coordinates c is input element c with c[d] = index[c]
            let tst = contiguous_strides(&t.layout.shape);
            let ist = contiguous_strides(&ishape);
            let pos: Vec<usize> = (0..iv.len())
                .map(|k| {
                    let mut p = 0usize;
                    for j in 0..ishape.len() {
                        let c = (k / ist[j]) % ishape[j].max(1);
                        let c = if j == d { iv[k] as usize } else { c };
                        p += c * tst.get(j).copied().unwrap_or(0);
                    }
                    p
                })
                .collect();
            let kind = super::autograd::Kind::Scatter {
                in_shape: t.layout.shape.clone(),
                pos: Rc::new(pos),
            };
            super::autograd::attach(&mut out, &[super::autograd::edge_of(t)], kind);
        }
        self.complete(
            "gather",
            dev,
            Cost::new(2 * out.nbytes() as u64 + index.nbytes() as u64, 0),
            asserts,
        )?;
        Ok(out)
    }

    // ----- joining -----

    /// `torch.cat(tensors, dim)`.
    pub fn cat(&self, ts: &[Tensor], dim: i64) -> Result<Tensor> {
        let hint = ts.first().and_then(|t| t.device().cuda_index());
        let (dev, d, dt, shape) = self.guarded("cat", hint, || {
            if ts.is_empty() {
                return Err(EngineError::value(
                    "torch.cat(): expected a non-empty list of Tensors",
                ));
            }
            let refs: Vec<&Tensor> = ts.iter().collect();
            let dev = self.common_device(&refs)?;
            let nonempty: Vec<&Tensor> = ts.iter().filter(|t| !(t.dim() == 1 && t.numel() == 0)).collect();
            let first = nonempty.first().copied().unwrap_or(&ts[0]);
            if first.dim() == 0 {
                return Err(EngineError::runtime("zero-dimensional tensor (at position 0) cannot be concatenated"));
            }
            let d = wrap_dim(dim, first.dim())?;
            let mut dt = first.dtype();
            let mut shape = first.layout.shape.clone();
            shape[d] = 0;
            for (i, t) in ts.iter().enumerate() {
                if t.dim() == 1 && t.numel() == 0 {
                    continue;
                }
                if t.dim() != first.dim() {
                    return Err(EngineError::runtime(format!(
                        "Tensors must have same number of dimensions: got {} and {}",
                        first.dim(),
                        t.dim()
                    )));
                }
                for j in 0..t.dim() {
                    if j != d && t.layout.shape[j] != first.layout.shape[j] {
                        return Err(EngineError::runtime(format!(
                            "Sizes of tensors must match except in dimension {d}. Expected size {} but got size {} for tensor number {i} in the list.",
                            first.layout.shape[j], t.layout.shape[j]
                        )));
                    }
                }
                dt = promote_types(dt, t.dtype());
                shape[d] += t.layout.shape[d];
            }
            Ok((dev, d, dt, shape))
        })?;
        super::checked_numel(&shape).map_err(|e| self.host_error("cat", hint, e))?;
        let refs: Vec<&Tensor> = ts.iter().collect();
        let backend = self.backend_for(dev);
        let mut out = self
            .produce(&refs, shape.clone(), dt, dev, || {
                let mut dst = backend.zeros(super::checked_numel(&shape)?, dt)?;
                let whole = Layout::contiguous(&shape);
                let mut at = 0usize;
                for t in ts.iter().filter(|t| !(t.dim() == 1 && t.numel() == 0)) {
                    let len = t.layout.shape[d];
                    // this input's slab of the output along d
                    let mut l = whole.clone();
                    l.shape[d] = len;
                    l.offset = at * whole.strides[d];
                    at += len;
                    if t.numel() == 0 {
                        continue;
                    }
                    let r = t.read();
                    let src = r.as_ref().ok_or_else(|| t.phantom_error())?;
                    dst.copy_from(&l, src, &t.layout)?;
                    crate::engine::interrupt::poll_now()?;
                }
                Ok(dst)
            })
            .map_err(|e| self.host_error("cat", hint, e))?;
        self.grad_of(&refs, &mut out, "CatBackward0");
        if out.requires_grad {
            let mut at = 0usize;
            let mut parts = Vec::with_capacity(ts.len());
            for t in ts.iter() {
                if t.dim() == 1 && t.numel() == 0 {
                    parts.push(None);
                    continue;
                }
                parts.push(Some((t.layout.shape.clone(), at)));
                at += t.layout.shape[d];
            }
            let edges: Vec<_> = ts.iter().map(super::autograd::edge_of).collect();
            let kind = super::autograd::Kind::Cat { dim: d, parts };
            super::autograd::attach(&mut out, &edges, kind);
        }
        self.complete(
            "cat",
            dev,
            Cost::new(2 * out.nbytes() as u64, 0),
            Vec::new(),
        )?;
        Ok(out)
    }

    /// `torch.stack(tensors, dim)`.
    pub fn stack(&self, ts: &[Tensor], dim: i64) -> Result<Tensor> {
        let hint = ts.first().and_then(|t| t.device().cuda_index());
        self.guarded("stack", hint, || {
            if ts.is_empty() {
                return Err(EngineError::runtime("stack expects a non-empty TensorList"));
            }
            for (i, t) in ts.iter().enumerate() {
                if t.layout.shape != ts[0].layout.shape {
                    return Err(EngineError::runtime(format!(
                        "stack expects each tensor to be equal size, but got [{}] at entry 0 and [{}] at entry {i}",
                        ts[0].layout.shape.comma_separated(),
                        t.layout.shape.comma_separated()
                    )));
                }
            }
            wrap_dim(dim, ts[0].dim() + 1)?;
            Ok(())
        })?;
        let d = wrap_dim(dim, ts[0].dim() + 1)? as i64;
        let us: Vec<Tensor> = ts.iter().map(|t| t.unsqueeze(d)).collect::<Result<_>>()?;
        let out = self.cat(&us, d)?;
        Ok(out.with_grad_fn_name("StackBackward0"))
    }

    /// `t.nonzero()`: (n, ndim) int64 indices; synchronises on CUDA (the size is data-dependent).
    pub fn nonzero(&self, t: &Tensor) -> Result<Tensor> {
        if let Device::Cuda(i) = t.device() {
            self.sync("nonzero", i)?;
        }
        let v = t.host_values()?;
        let nd = t.dim();
        let st = contiguous_strides(&t.layout.shape);
        let flags = crate::engine::host::elementwise::to_dtype(
            &v,
            &Layout::contiguous(&[t.numel()]),
            DType::Bool,
        )?;
        let flags = <bool as crate::engine::host::Stored>::slice(&flags).unwrap_or(&[]);
        let count = flags.iter().filter(|&&f| f).count();
        let mut idx: Vec<i64> = Vec::with_capacity(count * nd);
        for (k, _) in flags.iter().enumerate().filter(|(_, f)| **f) {
            let mut rem = k;
            for s in &st {
                idx.push((rem / s) as i64);
                rem %= s;
            }
        }
        let r = self
            .tensor_from_host(
                vec![count, nd],
                t.device(),
                crate::engine::host::HostStorage::I64(idx),
                false,
            )
            .map_err(|e| self.host_error("nonzero", t.device().cuda_index(), e))?;
        self.complete(
            "nonzero",
            t.device(),
            Cost::new(t.nbytes() as u64 + r.nbytes() as u64, 0),
            Vec::new(),
        )?;
        Ok(r)
    }

    /// `t.masked_fill(mask, value)`.
    pub fn masked_fill(&self, t: &Tensor, mask: &Tensor, value: Scalar) -> Result<Tensor> {
        let hint = t.device().cuda_index();
        let shape = self.guarded("masked_fill", hint, || {
            if mask.dtype() != DType::Bool {
                return Err(EngineError::runtime(format!(
                    "masked_fill_ only supports boolean masks, but got mask with dtype {}",
                    mask.dtype().c_name()
                )));
            }
            self.common_device(&[t, mask])?;
            let s = broadcast_shapes(&t.layout.shape, &mask.layout.shape)?;
            if s != t.layout.shape {
                return Err(EngineError::runtime(
                    "masked_fill: mask must be broadcastable to input".to_string(),
                ));
            }
            Ok(s)
        })?;
        let dt = t.dtype();
        let mut out = self
            .produce(&[t, mask], shape.clone(), dt, t.device(), || {
                let pt = super::ops::prepare(t, dt, &shape)?;
                let pm = super::ops::prepare(mask, DType::Bool, &shape)?;
                let (st, lt) = pt.pair()?;
                st.masked_fill(lt, pm.pair()?, value)
            })
            .map_err(|e| self.host_error("masked_fill", hint, e))?;
        self.grad_of(&[t], &mut out, "MaskedFillBackward0");
        // derivatives.yaml: self: grad.masked_fill(mask, 0) -- where(mask, 0, grad), which
        // the Where node computes (no operand on the filled side: the value is a number)
        let kind = super::autograd::Kind::Where {
            cond: mask.detach(),
            a: None,
            b: Some(t.layout.shape.clone()),
        };
        super::autograd::attach(
            &mut out,
            &[super::autograd::Edge::None, super::autograd::edge_of(t)],
            kind,
        );
        // masked_fill.Scalar: PyTorch's node has `self` only (the mask is not differentiable)
        let out = out.into_pytorch_node("MaskedFillBackward0", Some(&[1]));
        self.complete(
            "masked_fill",
            t.device(),
            Cost::new(3 * t.nbytes() as u64, 0),
            Vec::new(),
        )?;
        Ok(out)
    }
}

/// Bytes a batched `m x k @ k x n` product moves, saturating (phantom operands can be
/// astronomically large: a [0, 2**31, 2**31] batch with huge inner dims overflowed here).
fn gemm_bytes(nb: usize, m: usize, k: usize, n: usize, es: u64) -> u64 {
    let (nb, m, k, n) = (nb as u64, m as u64, k as u64, n as u64);
    let per = m
        .saturating_mul(k)
        .saturating_add(k.saturating_mul(n))
        .saturating_add(m.saturating_mul(n));
    nb.saturating_mul(per).saturating_mul(es)
}

/// Floating-point operations of that product (2 per multiply-add), saturating.
fn gemm_flops(nb: usize, m: usize, k: usize, n: usize) -> u64 {
    [nb, m, k, n]
        .iter()
        .fold(2u64, |acc, &d| acc.saturating_mul(d as u64))
}
