//! conv2d and 2-D pooling (max, average, adaptive average): the shape checks and messages of
//! ATen's Convolution.cpp and Pool.h, the output on the tensors' device, and the autograd
//! node (ConvolutionBackward0, MaxPool2DWithIndicesBackward0, AvgPool2DBackward0,
//! AdaptiveAvgPool2DBackward0). The back halves are host/conv.rs.

use super::autograd::{Kind, attach, edge_of};
use super::{CommaSeparated, Tensor};
use crate::engine::backend::{Affine, BackendStorage};
use crate::engine::device::Device;
use crate::engine::error::{EngineError, Result};
use crate::engine::host::conv::{ConvGeom, PoolGeom, PoolKind};
use crate::engine::runtime::Runtime;
use crate::engine::storage::DeviceStorage;
use crate::engine::timing::Cost;

/// conv2d's hyper-parameters as F.conv2d takes them.
#[derive(Clone, Copy, Debug)]
pub struct Conv2dArgs {
    pub stride: (usize, usize),
    pub padding: (usize, usize),
    pub dilation: (usize, usize),
    pub groups: usize,
}

/// A 2-D pooling's hyper-parameters (for adaptive pooling, `kernel` is the output size).
#[derive(Clone, Copy, Debug)]
pub struct Pool2dArgs {
    pub kind: PoolKind,
    pub kernel: (usize, usize),
    pub stride: (usize, usize),
    pub padding: (usize, usize),
    pub dilation: (usize, usize),
    pub ceil_mode: bool,
}

/// ATen's pooling_output_shape.
fn pool_out(input: usize, k: usize, pad: usize, stride: usize, dil: usize, ceil: bool) -> i64 {
    let (i, k, p, s, d) = (
        input as i64,
        k as i64,
        pad as i64,
        stride as i64,
        dil as i64,
    );
    let num = i + 2 * p - d * (k - 1) - 1 + if ceil { s - 1 } else { 0 };
    let mut o = num.div_euclid(s) + 1;
    if ceil && (o - 1) * s >= i + p {
        o -= 1;
    }
    o
}

impl Runtime {
    /// `F.conv2d(x, weight, bias, stride, padding, dilation, groups)`.
    pub fn conv2d(
        &self,
        x: &Tensor,
        weight: &Tensor,
        bias: Option<&Tensor>,
        a: Conv2dArgs,
    ) -> Result<Tensor> {
        let hint = x.device().cuda_index().or(weight.device().cuda_index());
        if x.dim() == 3 {
            let y = self.conv2d(&x.unsqueeze(0)?, weight, bias, a)?;
            let mut shape = y.layout.shape.clone();
            let mut strides = y.layout.strides.clone();
            shape.remove(0);
            strides.remove(0);
            return Ok(y.view_named("SqueezeBackward1", shape, strides, y.layout.offset));
        }
        let (dev, g) = self.guarded("conv2d", hint, || {
            if x.dim() != 4 {
                return Err(EngineError::runtime(format!(
                    "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [{}]",
                    x.layout.shape.comma_separated()
                )));
            }
            if weight.dim() != 4 {
                return Err(EngineError::runtime(format!(
                    "weight should have at least three dimensions, but got weight of size: [{}]",
                    weight.layout.shape.comma_separated()
                )));
            }
            if a.stride.0 == 0 || a.stride.1 == 0 {
                return Err(EngineError::runtime("non-positive stride is not supported"));
            }
            if a.groups == 0 {
                return Err(EngineError::runtime("non-positive groups is not supported"));
            }
            let xs = &x.layout.shape;
            let ws = &weight.layout.shape;
            if ws[0] < a.groups {
                return Err(EngineError::runtime(format!(
                    "Given groups={}, expected weight to be at least {} at dimension 0, but got weight of size [{}] instead",
                    a.groups,
                    a.groups,
                    ws.comma_separated()
                )));
            }
            if !ws[0].is_multiple_of(a.groups) {
                return Err(EngineError::runtime(format!(
                    "Given groups={}, expected weight to be divisible by {} at dimension 0, but got weight of size [{}] instead",
                    a.groups,
                    a.groups,
                    ws.comma_separated()
                )));
            }
            if xs[1] != ws[1] * a.groups {
                return Err(EngineError::runtime(format!(
                    "Given groups={}, weight of size [{}], expected input[{}] to have {} channels, but got {} channels instead",
                    a.groups,
                    ws.comma_separated(),
                    xs.comma_separated(),
                    ws[1] * a.groups,
                    xs[1]
                )));
            }
            if let Some(b) = bias
                && (b.dim() != 1 || b.layout.shape[0] != ws[0])
            {
                return Err(EngineError::runtime(format!(
                    "Given weight of size [{}], expected bias to be 1-dimensional with {} elements, but got bias of size [{}] instead",
                    ws.comma_separated(),
                    ws[0],
                    b.layout.shape.comma_separated()
                )));
            }
            let ph = xs[2] + 2 * a.padding.0;
            let pw = xs[3] + 2 * a.padding.1;
            let kh = a.dilation.0 * (ws[2] - 1) + 1;
            let kw = a.dilation.1 * (ws[3] - 1) + 1;
            if ph < kh || pw < kw {
                return Err(EngineError::runtime(format!(
                    "Calculated padded input size per channel: ({ph} x {pw}). Kernel size: ({kh} x {kw}). Kernel size can't be greater than actual input size"
                )));
            }
            let mut ts = vec![x, weight];
            if let Some(b) = bias {
                ts.push(b);
            }
            let dev = self.common_device(&ts)?;
            // ATen's CPU convolution checks the bias first, naming C types ("long int"), and
            // its kernel then refuses the weight ("expected scalar type Double but found
            // Float"); cuDNN's check names the weight first, as tensor types.
            let bias_mismatch = bias.filter(|b| b.dtype() != x.dtype()).map(|b| {
                EngineError::runtime(format!(
                    "Input type ({}) and bias type ({}) should be the same",
                    x.dtype().c_name(),
                    b.dtype().c_name()
                ))
            });
            let weight_mismatch = (weight.dtype() != x.dtype()).then(|| {
                if dev.is_cuda() {
                    EngineError::runtime(format!(
                        "Input type ({}) and weight type ({}) should be the same",
                        crate::engine::tensor::create::tensor_type_name(x),
                        crate::engine::tensor::create::tensor_type_name(weight)
                    ))
                } else {
                    EngineError::runtime(format!(
                        "expected scalar type {} but found {}",
                        x.dtype().scalar_name(),
                        weight.dtype().scalar_name()
                    ))
                }
            });
            let first = if dev.is_cuda() {
                weight_mismatch.or(bias_mismatch)
            } else {
                bias_mismatch.or(weight_mismatch)
            };
            if let Some(e) = first {
                return Err(e);
            }
            Ok((
                dev,
                ConvGeom {
                    n: xs[0],
                    c: xs[1],
                    h: xs[2],
                    w: xs[3],
                    cout: ws[0],
                    kh: ws[2],
                    kw: ws[3],
                    oh: (ph - kh) / a.stride.0 + 1,
                    ow: (pw - kw) / a.stride.1 + 1,
                    stride: a.stride,
                    pad: a.padding,
                    dil: a.dilation,
                    groups: a.groups,
                },
            ))
        })?;
        let dt = x.dtype();
        let shape = vec![g.n, g.cout, g.oh, g.ow];
        super::checked_numel(&shape).map_err(|e| self.host_error("conv2d", hint, e))?;
        let mut ins = vec![x, weight];
        if let Some(b) = bias {
            ins.push(b);
        }
        let mut out = self
            .produce(&ins, shape, dt, dev, || {
                let px = super::ops::prepare(x, dt, &x.layout.shape)?;
                let pw = super::ops::prepare(weight, dt, &weight.layout.shape)?;
                let pb = bias
                    .map(|b| super::ops::prepare(b, dt, &b.layout.shape))
                    .transpose()?;
                let pbias = match &pb {
                    Some(p) => Some(p.pair()?),
                    None => None,
                };
                DeviceStorage::conv2d(Affine::new(px.pair()?, pw.pair()?, pbias), &g)
            })
            .map_err(|e| self.host_error("conv2d", hint, e))?;
        self.grad_of(&ins, &mut out, "ConvolutionBackward0");
        let edges: Vec<_> = ins.iter().map(|t| edge_of(t)).collect();
        let kind = Kind::Conv2d {
            x: x.detach(),
            weight: weight.detach(),
            geom: g.clone(),
        };
        attach(&mut out, &edges, kind);
        let flops = 2 * (g.n * g.cout * g.oh * g.ow * g.k_len()) as u64;
        self.complete(
            "conv2d",
            dev,
            Cost::new((x.nbytes() + weight.nbytes() + out.nbytes()) as u64, flops),
            Vec::new(),
        )?;
        Ok(out)
    }

    /// max_pool2d / avg_pool2d / adaptive_avg_pool2d of a 3-D or 4-D input.
    pub(crate) fn pool2d(&self, x: &Tensor, a: Pool2dArgs) -> Result<Tensor> {
        let (op, gf) = match a.kind {
            PoolKind::Max => ("max_pool2d", "MaxPool2DWithIndicesBackward0"),
            PoolKind::Avg { .. } => ("avg_pool2d", "AvgPool2DBackward0"),
            PoolKind::Adaptive => ("adaptive_avg_pool2d", "AdaptiveAvgPool2DBackward0"),
        };
        let hint = x.device().cuda_index();
        let g = self.guarded(op, hint, || {
            let xs = &x.layout.shape;
            let nd = x.dim();
            if a.kind == PoolKind::Adaptive {
                if !(nd == 3 || nd == 4) || xs[nd - 2] == 0 || xs[nd - 1] == 0 {
                    return Err(EngineError::runtime(format!(
                        "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got [{}]",
                        xs.comma_separated()
                    )));
                }
            } else if !(nd == 3 || nd == 4) {
                return Err(EngineError::runtime(
                    "non-empty 3D or 4D (batch mode) tensor expected for input",
                ));
            }
            let (h, w) = (xs[nd - 2], xs[nd - 1]);
            let planes: usize = xs[..nd - 2].iter().product();
            let (oh, ow) = if a.kind == PoolKind::Adaptive {
                a.kernel
            } else {
                let (kh, kw) = a.kernel;
                if kh == 0 || kw == 0 {
                    return Err(EngineError::runtime(format!(
                        "kernel size should be greater than zero, but got kH: {kh} kW: {kw}"
                    )));
                }
                if a.stride.0 == 0 || a.stride.1 == 0 {
                    return Err(EngineError::runtime(format!(
                        "stride should be greater than zero, but got dH: {} dW: {}",
                        a.stride.0, a.stride.1
                    )));
                }
                let dil = if a.kind == PoolKind::Max { a.dilation } else { (1, 1) };
                if dil.0 == 0 || dil.1 == 0 {
                    return Err(EngineError::runtime(format!(
                        "dilation should be greater than zero, but got dilationH: {} dilationW: {}",
                        dil.0, dil.1
                    )));
                }
                // ATen's pooling_output_shape, height then width
                for (p, k, d) in [(a.padding.0, kh, dil.0), (a.padding.1, kw, dil.1)] {
                    if p > ((k - 1) * d).div_ceil(2) {
                        return Err(EngineError::runtime(format!(
                            "pad should be at most half of effective kernel size, but got pad={p}, kernel_size={k} and dilation={d}"
                        )));
                    }
                }
                // then pool2d_shape_check: a batch may be empty, nothing else
                let spatial_ok = xs[nd - 3] != 0 && xs[nd - 2] != 0 && xs[nd - 1] != 0;
                if !spatial_ok {
                    return Err(EngineError::runtime(format!(
                        "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:[{}]",
                        xs.comma_separated()
                    )));
                }
                if a.padding.0 > kh / 2 || a.padding.1 > kw / 2 {
                    return Err(EngineError::runtime(format!(
                        "pad should be smaller than or equal to half of kernel size, but got padW = {}, padH = {}, kW = {kw}, kH = {kh}",
                        a.padding.1, a.padding.0
                    )));
                }
                let oh = pool_out(h, kh, a.padding.0, a.stride.0, dil.0, a.ceil_mode);
                let ow = pool_out(w, kw, a.padding.1, a.stride.1, dil.1, a.ceil_mode);
                if oh < 1 || ow < 1 {
                    let c = xs[nd - 3];
                    return Err(EngineError::runtime(format!(
                        "Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{oh}x{ow}). Output size is too small"
                    )));
                }
                (oh as usize, ow as usize)
            };
            Ok(PoolGeom {
                planes,
                h,
                w,
                oh,
                ow,
                kernel: a.kernel,
                stride: a.stride,
                pad: a.padding,
                dil: if a.kind == PoolKind::Max {
                    a.dilation
                } else {
                    (1, 1)
                },
                kind: a.kind,
            })
        })?;
        let nd = x.dim();
        let mut shape = x.layout.shape[..nd - 2].to_vec();
        shape.push(g.oh);
        shape.push(g.ow);
        super::checked_numel(&shape).map_err(|e| self.host_error(op, hint, e))?;
        let dt = x.dtype();
        let mut out = self
            .produce(&[x], shape, dt, x.device(), || {
                let p = super::ops::prepare(x, dt, &x.layout.shape)?;
                let (s, l) = p.pair()?;
                s.pool2d(l, &g)
            })
            .map_err(|e| self.host_error(op, hint, e))?;
        self.grad_of(&[x], &mut out, gf);
        attach(
            &mut out,
            &[edge_of(x)],
            Kind::Pool2d {
                x: x.detach(),
                geom: g.clone(),
            },
        );
        let dev: Device = x.device();
        self.complete(
            op,
            dev,
            Cost::new(
                (x.nbytes() + out.nbytes()) as u64,
                (g.planes * g.oh * g.ow * g.kernel.0.max(1) * g.kernel.1.max(1)) as u64,
            ),
            Vec::new(),
        )?;
        Ok(out)
    }
}
