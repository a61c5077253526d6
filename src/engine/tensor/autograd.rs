//! A small reverse-mode autograd: enough for `loss.backward()` through the ops a training
//! step uses (elementwise arithmetic and math, sum/mean, mm/addmm/linear/matmul with 1-D and
//! 2-D operands, views, softmax/log_softmax, nll_loss/cross_entropy, clone/to).
//!
//! An output that requires grad carries `grad_fn` (the name PyTorch prints) and, for those ops,
//! a [`Node`]: its inputs' edges and what its backward needs (detached handles, so no Rc
//! cycle keeps storage alive). A leaf that requires grad carries a shared [`Leaf`] holding
//! `.grad`. Any other op keeps only its name; backward reaching it raises NotImplementedError
//! naming it. Saved values are freed by backward unless `retain_graph`, as in PyTorch.
//! Gradients travel between nodes as f64 vectors holding values of each node's dtype. The
//! steps whose rounding depends on the order of operations run PyTorch's float32 kernels
//! (engine::numerics: sum_to's sums, softmax/log_softmax and nll_loss backward, sigmoid and
//! tanh backward) and matrix products run through the host GEMM (host/matmul.rs); the others
//! are single operations, computed in f64 and rounded once, which is exact for float32. The
//! device work is modelled as one `backward` kernel.

use super::{BinaryOp, Operand, Tensor, UnaryOp, contiguous_strides, for_each_offset};
use crate::engine::device::Device;
use crate::engine::dtype::DType;
use crate::engine::error::{EngineError, Result};
use crate::engine::host::HostStorage;
use crate::engine::layout::Layout;
use crate::engine::numerics;
use crate::engine::runtime::Runtime;
use crate::engine::timing::Cost;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// `.grad` of a leaf tensor, shared by every handle (and Python object) of that leaf.
pub(crate) struct Leaf {
    pub grad: RefCell<Option<Tensor>>,
    pub shape: Vec<usize>,
    pub dtype: DType,
    pub device: Device,
}

#[derive(Clone)]
pub(crate) enum Edge {
    None,
    Leaf(Rc<Leaf>),
    Node(Rc<Node>),
    /// An input made by an op this autograd cannot differentiate (its grad_fn name).
    Unsupported(&'static str),
}

/// Where a view's elements sit: shape, strides, offset into the shared storage.
#[derive(Clone)]
pub(crate) struct Geometry {
    pub shape: Vec<usize>,
    pub strides: Vec<usize>,
    pub offset: usize,
}

#[derive(Clone)]
pub(crate) enum Kind {
    /// a + b or a - b: only the operands' shapes (None for a Python number).
    AddSub(bool, Option<Vec<usize>>, Option<Vec<usize>>),
    /// mul, div, pow: the operands' values are needed.
    Binary(BinaryOp, Operand, Operand),
    Unary(UnaryOp, Tensor, Tensor),
    /// sum (mean when `mean`) over the dims marked in `reduced`.
    Reduce {
        in_shape: Vec<usize>,
        reduced: Vec<bool>,
        keepdim: bool,
        mean: bool,
    },
    /// a @ b (+ bias of `bias_shape`), 2-D.
    Mm(Tensor, Tensor, Option<Vec<usize>>),
    View(Geometry, Geometry),
    Softmax {
        dim: usize,
        out: Tensor,
        log: bool,
    },
    Nll {
        input: Tensor,
        target: Tensor,
        weight: Option<Tensor>,
        ignore: i64,
        reduction: super::Reduction,
        log_softmax_first: bool,
    },
    /// conv2d: the input and weight (a bias is the third edge when present).
    Conv2d {
        x: Tensor,
        weight: Tensor,
        geom: crate::engine::host::conv::ConvGeom,
    },
    /// max/avg/adaptive-avg pooling of the input `x`.
    Pool2d {
        x: Tensor,
        geom: crate::engine::host::conv::PoolGeom,
    },
    Identity,
}

impl Kind {
    /// Whether backward needs saved values (freed by backward unless retain_graph); the
    /// others can be run again, as PyTorch's nodes without saved tensors can.
    fn holds_saved(&self) -> bool {
        !matches!(
            self,
            Kind::AddSub(..) | Kind::Reduce { .. } | Kind::View(..) | Kind::Identity
        )
    }

    /// The node of `op` applied to (a, b).
    pub(crate) fn binary(op: BinaryOp, a: &Operand, b: &Operand) -> Kind {
        let shape = |o: &Operand| match o {
            Operand::Tensor(t) => Some(t.layout.shape.clone()),
            Operand::Scalar(_) => None,
        };
        match op {
            BinaryOp::Add | BinaryOp::Sub => Kind::AddSub(op == BinaryOp::Sub, shape(a), shape(b)),
            _ => Kind::Binary(op, saved(a), saved(b)),
        }
    }
}

pub(crate) struct Node {
    pub name: &'static str,
    pub edges: Vec<Edge>,
    pub kind: RefCell<Option<Kind>>,
    pub out_shape: Vec<usize>,
    pub out_dtype: DType,
}

pub(crate) fn edge_of(t: &Tensor) -> Edge {
    if !t.requires_grad {
        return Edge::None;
    }
    if let Some(n) = &t.node {
        return Edge::Node(n.clone());
    }
    match (t.grad_fn, &t.leaf) {
        (Some(name), _) => Edge::Unsupported(name),
        (None, Some(l)) => Edge::Leaf(l.clone()),
        (None, None) => Edge::None,
    }
}

/// Give `out` (which already requires grad and has its grad_fn name) a backward node.
pub(crate) fn attach(out: &mut Tensor, inputs: &[Edge], kind: Kind) {
    if !out.requires_grad || out.grad_fn.is_none() {
        return;
    }
    out.node = Some(Rc::new(Node {
        name: out.grad_fn.unwrap_or("Backward"),
        edges: inputs.to_vec(),
        kind: RefCell::new(Some(kind)),
        out_shape: out.layout.shape.clone(),
        out_dtype: out.dtype(),
    }));
}

/// An operand as saved for backward (a detached handle: no graph, same storage).
pub(crate) fn saved(o: &Operand) -> Operand {
    match o {
        Operand::Tensor(t) => Operand::Tensor(t.detach()),
        s => s.clone(),
    }
}

fn numel(shape: &[usize]) -> usize {
    shape.iter().product()
}

/// float32 values held in f64, narrowed (exact).
fn f32s(v: &[f64]) -> Vec<f32> {
    v.iter().map(|&x| x as f32).collect()
}

fn f64s(v: &[f32]) -> Vec<f64> {
    v.iter().map(|&x| x as f64).collect()
}

/// `g` (laid out for `from`) summed down to `to` (a broadcastable shape): ATen's `sum_to`,
/// one sum over the leading dims and the dims `to` broadcasts, in `dt`'s arithmetic.
fn sum_to(g: &[f64], from: &[usize], to: &[usize], dt: DType) -> Vec<f64> {
    if from == to {
        return g.to_vec();
    }
    let lead = from.len() - to.len().min(from.len());
    let dims: Vec<usize> = (0..from.len())
        .filter(|&k| k < lead || (to[k - lead] == 1 && from[k] != 1))
        .collect();
    if !dims.is_empty() && numel(from) > 0 && matches!(dt, DType::Float32 | DType::Float64) {
        let st = contiguous_strides(from);
        let v = numerics::View {
            shape: from,
            strides: &st,
            offset: 0,
        };
        // the kept dims in order are `to`'s layout (its other dims have size 1)
        return if dt == DType::Float32 {
            f64s(&numerics::sum::sum_dims_f32(&f32s(g), v, &dims))
        } else {
            numerics::sum::sum_dims_f64(g, v, &dims)
        };
    }
    let mut out = vec![0.0; numel(to)];
    let tst = contiguous_strides(to);
    let lead = from.len() - to.len().min(from.len());
    let mut idx = vec![0usize; from.len()];
    for &v in g {
        let mut o = 0;
        for (k, &i) in idx.iter().enumerate().skip(lead) {
            let j = k - lead;
            if to[j] != 1 {
                o += i * tst[j];
            }
        }
        out[o] += v;
        for a in (0..idx.len()).rev() {
            idx[a] += 1;
            if idx[a] < from[a] {
                break;
            }
            idx[a] = 0;
        }
    }
    out
}

fn operand_values(o: &Operand, shape: &[usize]) -> Vec<f64> {
    match o {
        Operand::Tensor(t) => super::broadcast_values(t, shape),
        Operand::Scalar(s) => vec![s.as_f64(); numel(shape)],
    }
}

/// `exp` in the dtype's arithmetic (float32 math for float32).
fn exp_in(dt: DType, x: f64) -> f64 {
    if dt == DType::Float64 {
        x.exp()
    } else {
        dt.cast((x as f32).exp() as f64)
    }
}

/// `A[m,k] @ B[k,n]` (layouts `[1, m, k]`, `[1, k, n]`) through the host GEMM, as f64.
fn gemm(
    a: (&HostStorage, &Layout),
    b: (&HostStorage, &Layout),
    m: usize,
    k: usize,
    n: usize,
) -> Result<Vec<f64>> {
    let r = crate::engine::host::matmul::matmul(
        a,
        b,
        None,
        crate::engine::backend::MatmulDims { batch: 1, m, k, n },
    )?;
    Ok(r.gather_f64(&Layout::contiguous(&[m * n])))
}

/// Rows of length `shape[dim]` (dim moved last) and back.
fn rows(v: &[f64], shape: &[usize], dim: usize) -> Vec<f64> {
    if shape.is_empty() {
        return v.to_vec();
    }
    let st = contiguous_strides(shape);
    let nd = shape.len();
    let perm: Vec<usize> = (0..nd).filter(|&i| i != dim).chain([dim]).collect();
    let ps: Vec<usize> = perm.iter().map(|&i| shape[i]).collect();
    let pst: Vec<usize> = perm.iter().map(|&i| st[i]).collect();
    let mut out = Vec::with_capacity(v.len());
    for_each_offset(&ps, &pst, 0, |o| out.push(v[o]));
    out
}

fn unrows(r: &[f64], shape: &[usize], dim: usize) -> Vec<f64> {
    if shape.is_empty() {
        return r.to_vec();
    }
    let nd = shape.len();
    let perm: Vec<usize> = (0..nd).filter(|&i| i != dim).chain([dim]).collect();
    let ps: Vec<usize> = perm.iter().map(|&i| shape[i]).collect();
    let pst = contiguous_strides(&ps);
    let mut st = vec![0usize; nd];
    for (j, &i) in perm.iter().enumerate() {
        st[i] = pst[j];
    }
    let mut out = Vec::with_capacity(r.len());
    for_each_offset(shape, &st, 0, |o| out.push(r[o]));
    out
}

/// The gradients of a node's inputs given the gradient `g` of its output, each step rounded
/// to the node's dtype as PyTorch's float kernels round.
fn input_grads(rt: &Runtime, node: &Node, kind: &Kind, g: &[f64]) -> Result<Vec<Option<Vec<f64>>>> {
    let shape = &node.out_shape;
    let dt = node.out_dtype;
    let r = |x: f64| dt.cast(x);
    Ok(match kind {
        Kind::Identity => vec![Some(g.to_vec())],
        Kind::Conv2d { x, weight, geom } => {
            let (gx, gw, gb) = crate::engine::host::conv::conv2d_backward(
                dt,
                g,
                &x.values_unchecked(),
                &weight.values_unchecked(),
                geom,
            )?;
            let mut v = vec![Some(gx), Some(gw)];
            if node.edges.len() > 2 {
                v.push(Some(gb));
            }
            v
        }
        Kind::Pool2d { x, geom } => vec![Some(crate::engine::host::conv::pool2d_backward(
            dt,
            g,
            &x.values_unchecked(),
            geom,
        )?)],
        Kind::AddSub(sub, a, b) => {
            let to = |s: &Option<Vec<usize>>, neg: bool| {
                s.as_ref().map(|s| {
                    let v: Vec<f64> = if neg {
                        g.iter().map(|x| -x).collect()
                    } else {
                        g.to_vec()
                    };
                    sum_to(&v, shape, s, dt).into_iter().map(r).collect()
                })
            };
            vec![to(a, false), to(b, *sub)]
        }
        Kind::Binary(op, a, b) => {
            let av = operand_values(a, shape);
            let bv = operand_values(b, shape);
            let (ga, gb): (Vec<f64>, Vec<f64>) = match op {
                BinaryOp::Mul => (
                    g.iter().zip(&bv).map(|(g, b)| r(g * b)).collect(),
                    g.iter().zip(&av).map(|(g, a)| r(g * a)).collect(),
                ),
                BinaryOp::Div => (
                    g.iter().zip(&bv).map(|(g, b)| r(g / b)).collect(),
                    (0..g.len())
                        .map(|i| r(-g[i] * r(av[i] / r(bv[i] * bv[i]))))
                        .collect(),
                ),
                BinaryOp::Pow => (
                    (0..g.len())
                        .map(|i| {
                            if bv[i] == 0.0 {
                                0.0
                            } else {
                                g[i] * bv[i] * av[i].powf(bv[i] - 1.0)
                            }
                        })
                        .collect(),
                    (0..g.len())
                        .map(|i| {
                            if av[i] == 0.0 && bv[i] >= 0.0 {
                                0.0
                            } else {
                                g[i] * av[i].powf(bv[i]) * av[i].ln()
                            }
                        })
                        .collect(),
                ),
                _ => unreachable!("only differentiable binary ops get a node"),
            };
            let to = |o: &Operand, v: Vec<f64>| match o {
                Operand::Tensor(t) => Some(
                    sum_to(&v, shape, &t.layout.shape, dt)
                        .into_iter()
                        .map(r)
                        .collect(),
                ),
                Operand::Scalar(_) => None,
            };
            vec![to(a, ga), to(b, gb)]
        }
        Kind::Unary(op @ (UnaryOp::Sigmoid | UnaryOp::Tanh), _, out) if dt == DType::Float32 => {
            let y = f32s(&out.values_unchecked());
            let mut gi = vec![0f32; y.len()];
            let b = if *op == UnaryOp::Sigmoid {
                numerics::backward::Backward::Sigmoid
            } else {
                numerics::backward::Backward::Tanh
            };
            numerics::backward::backward_f32(b, &f32s(g), &y, &mut gi);
            vec![Some(f64s(&gi))]
        }
        Kind::Unary(op, input, out) => {
            let x = input.values_unchecked();
            let y = out.values_unchecked();
            let gi: Vec<f64> = (0..g.len())
                .map(|i| {
                    let (g, x, y) = (g[i], x[i], y[i]);
                    match op {
                        UnaryOp::Neg => -g,
                        UnaryOp::Abs => {
                            g * if x > 0.0 {
                                1.0
                            } else if x < 0.0 {
                                -1.0
                            } else {
                                0.0
                            }
                        }
                        UnaryOp::Exp => g * y,
                        UnaryOp::Log => g / x,
                        UnaryOp::Sqrt => g / (2.0 * y),
                        UnaryOp::Sigmoid => g * y * (1.0 - y),
                        UnaryOp::Tanh => g * (1.0 - y * y),
                        UnaryOp::Relu => {
                            if y > 0.0 {
                                g
                            } else {
                                0.0
                            }
                        }
                        UnaryOp::Sin => g * x.cos(),
                        UnaryOp::Cos => -g * x.sin(),
                        UnaryOp::Reciprocal => -g * y * y,
                        _ => 0.0,
                    }
                })
                .map(r)
                .collect();
            vec![Some(gi)]
        }
        Kind::Reduce {
            in_shape,
            reduced,
            keepdim,
            mean,
        } => {
            let count: usize = in_shape
                .iter()
                .zip(reduced)
                .filter(|(_, r)| **r)
                .map(|(d, _)| *d)
                .product();
            // the output's strides seen from the input's dims (0 on reduced dims)
            let kept: Vec<usize> = (0..in_shape.len())
                .map(|i| if reduced[i] { 1 } else { in_shape[i] })
                .collect();
            let kst = contiguous_strides(&kept);
            let st: Vec<usize> = (0..in_shape.len())
                .map(|i| if reduced[i] { 0 } else { kst[i] })
                .collect();
            let _ = keepdim;
            let mut out = Vec::with_capacity(numel(in_shape));
            let scale = if *mean {
                1.0 / count.max(1) as f64
            } else {
                1.0
            };
            let f = |x: f64| {
                if *mean { r(x / count.max(1) as f64) } else { x }
            };
            let _ = scale;
            if in_shape.is_empty() {
                out.push(f(g[0]));
            } else {
                for_each_offset(in_shape, &st, 0, |o| out.push(f(g[o])));
            }
            vec![Some(out)]
        }
        Kind::Mm(a, b, bias) => {
            let (m, k, n) = (a.layout.shape[0], a.layout.shape[1], b.layout.shape[1]);
            let gh = HostStorage::from_f64s(dt, g)?;
            let ah = a.host_values().or_else(|_| HostStorage::zeros(dt, m * k))?;
            let bh = b.host_values().or_else(|_| HostStorage::zeros(dt, k * n))?;
            let g3 = Layout::new(vec![1, m, n], vec![0, n, 1], 0);
            // grad_a = grad @ b.T, grad_b = a.T @ grad (transposes are strides, not copies)
            let ga = gemm(
                (&gh, &g3),
                (&bh, &Layout::new(vec![1, n, k], vec![0, 1, n], 0)),
                m,
                n,
                k,
            )?;
            let gb = gemm(
                (&ah, &Layout::new(vec![1, k, m], vec![0, 1, k], 0)),
                (&gh, &g3),
                k,
                m,
                n,
            )?;
            let mut v = vec![Some(ga), Some(gb)];
            if let Some(bs) = bias {
                v.push(Some(
                    sum_to(g, &[m, n], bs, dt).into_iter().map(r).collect(),
                ));
            }
            v
        }
        Kind::View(base, view) => {
            // base's storage offsets -> its logical positions, in a table over the offsets'
            // span (views never reach past their storage), then the view's elements scattered
            // through it: two strided walks, no hashing
            let mut offs = Vec::with_capacity(numel(&base.shape));
            if base.shape.is_empty() {
                offs.push(base.offset);
            } else {
                for_each_offset(&base.shape, &base.strides, base.offset, |o| offs.push(o));
            }
            let lo = offs.iter().copied().min().unwrap_or(0);
            let hi = offs.iter().copied().max().unwrap_or(0);
            let mut pos = vec![usize::MAX; if offs.is_empty() { 0 } else { hi - lo + 1 }];
            let mut dup = false;
            for (i, &o) in offs.iter().enumerate() {
                dup |= pos[o - lo] != usize::MAX;
                pos[o - lo] = i;
            }
            if dup {
                return Err(EngineError::not_implemented(format!(
                    "cudatutor cannot compute gradients through {} of a tensor with overlapping elements",
                    node.name
                )));
            }
            let mut out = vec![0.0; offs.len()];
            let mut k = 0usize;
            let mut add = |o: usize| {
                if let Some(&j) = o.checked_sub(lo).and_then(|d| pos.get(d))
                    && j != usize::MAX
                {
                    out[j] += g[k];
                }
                k += 1;
            };
            if view.shape.is_empty() {
                add(view.offset);
            } else {
                for_each_offset(&view.shape, &view.strides, view.offset, add);
            }
            vec![Some(out)]
        }
        Kind::Softmax { dim, out, log } if dt == DType::Float32 => {
            let y = f32s(&out.values_unchecked());
            let (outer, c, inner) = if shape.is_empty() {
                (1, 1, 1)
            } else {
                (
                    shape[..*dim].iter().product(),
                    shape[*dim],
                    shape[*dim + 1..].iter().product(),
                )
            };
            let gf = f32s(g);
            let mut gi = vec![0f32; gf.len()];
            if *log {
                numerics::softmax::log_softmax_backward_f32(&gf, &y, &mut gi, outer, c, inner);
            } else {
                numerics::softmax::softmax_backward_f32(&gf, &y, &mut gi, outer, c, inner);
            }
            vec![Some(f64s(&gi))]
        }
        Kind::Softmax { dim, out, log } => {
            let y = out.values_unchecked();
            let c = if shape.is_empty() { 1 } else { shape[*dim] };
            let gr = rows(g, shape, *dim);
            let yr = rows(&y, shape, *dim);
            let mut res = vec![0.0; gr.len()];
            for row in 0..gr.len() / c.max(1) {
                let s = row * c..(row + 1) * c;
                if *log {
                    let sum = s.clone().fold(0.0, |a, j| r(a + gr[j]));
                    for j in s {
                        res[j] = r(gr[j] - r(exp_in(dt, yr[j]) * sum));
                    }
                } else {
                    let dot = s.clone().fold(0.0, |a, j| r(a + r(gr[j] * yr[j])));
                    for j in s {
                        res[j] = r(yr[j] * r(gr[j] - dot));
                    }
                }
            }
            vec![Some(unrows(&res, shape, *dim))]
        }
        Kind::Nll {
            input,
            target,
            weight,
            ignore,
            reduction,
            log_softmax_first,
        } => {
            let (n, c) = if input.dim() == 2 {
                (input.layout.shape[0], input.layout.shape[1])
            } else {
                (1, input.layout.shape[0])
            };
            let tv = target.values_unchecked();
            if dt == DType::Float32 {
                return Ok(vec![Some(nll_backward_f32(
                    rt,
                    input,
                    &tv,
                    weight.as_ref(),
                    *ignore,
                    *reduction,
                    *log_softmax_first,
                    g,
                    (n, c),
                )?)]);
            }
            let wv = weight.as_ref().map(|w| w.values_unchecked());
            let w = |t: usize| wv.as_ref().map(|w| w[t]).unwrap_or(1.0);
            let total: f64 = (0..n)
                .filter(|&i| tv[i] as i64 != *ignore)
                .map(|i| w(tv[i] as usize))
                .sum();
            let mut d = vec![0.0; n * c];
            for i in 0..n {
                let t = tv[i] as i64;
                if t == *ignore || t < 0 || t as usize >= c {
                    continue;
                }
                let gi = match reduction {
                    super::Reduction::None => -g[i],
                    super::Reduction::Sum => -g[0],
                    super::Reduction::Mean => -r(g[0] / r(total)),
                };
                d[i * c + t as usize] = r(w(t as usize) * gi);
            }
            if *log_softmax_first {
                // through log_softmax over the class dim, from its (recomputed) output
                let lp = rt.softmax_values(input, if input.dim() == 2 { 1 } else { 0 }, true, dt);
                for i in 0..n {
                    let sum = (0..c).fold(0.0, |a, j| r(a + d[i * c + j]));
                    for j in 0..c {
                        let p = exp_in(dt, lp[i * c + j]);
                        d[i * c + j] = r(d[i * c + j] - r(p * sum));
                    }
                }
            }
            vec![Some(d)]
        }
    })
}

/// nll_loss's input gradient (through log_softmax when `softmax_first`: cross_entropy) with
/// PyTorch's float32 kernels (LossNLL.cpp's backward, log_softmax_backward).
#[allow(clippy::too_many_arguments)]
fn nll_backward_f32(
    rt: &Runtime,
    input: &Tensor,
    tv: &[f64],
    weight: Option<&Tensor>,
    ignore: i64,
    reduction: super::Reduction,
    softmax_first: bool,
    g: &[f64],
    (n, c): (usize, usize),
) -> Result<Vec<f64>> {
    use numerics::loss::{ClassShape, Reduction as R, nll_loss_backward_f32, nll_loss_f32};
    let tgt: Vec<i64> = tv.iter().map(|&t| t as i64).collect();
    let w = weight.map(|w| f32s(&w.values_unchecked()));
    let shape = ClassShape {
        n,
        c,
        map: 1,
        one_d: input.dim() == 1,
    };
    let red = match reduction {
        super::Reduction::None => R::None,
        super::Reduction::Mean => R::Mean,
        super::Reduction::Sum => R::Sum,
    };
    let mut gi = vec![0f32; n * c];
    // the forward's total weight (what the mean divided by), from the same kernel
    let total = if red == R::Mean {
        nll_loss_f32(&gi, shape, &tgt, w.as_deref(), red, ignore)
            .map(|o| o.total_weight)
            .unwrap_or(0.0)
    } else {
        0.0
    };
    nll_loss_backward_f32(
        &f32s(g),
        shape,
        &tgt,
        w.as_deref(),
        red,
        ignore,
        total,
        &mut gi,
    );
    if softmax_first {
        let lp = f32s(&rt.softmax_values(input, input.dim() - 1, true, DType::Float32));
        let mut out = vec![0f32; n * c];
        numerics::softmax::log_softmax_backward_f32(&gi, &lp, &mut out, n, c, 1);
        gi = out;
    }
    Ok(f64s(&gi))
}

impl Runtime {
    /// Add `g` (row-major, the leaf's shape) into the leaf's `.grad` (in place when it exists).
    fn accumulate(&self, leaf: &Leaf, g: Option<Vec<f64>>) -> Result<()> {
        let dt = leaf.dtype;
        let mut slot = leaf.grad.borrow_mut();
        match slot.as_ref() {
            Some(old) => {
                if let Some(g) = g
                    && !old.is_phantom()
                {
                    let offs = old.offsets();
                    let cur = old.values_unchecked();
                    let sum: Vec<f64> = cur.iter().zip(&g).map(|(a, b)| dt.cast(a + b)).collect();
                    old.write_at(&offs, &sum);
                }
            }
            None => {
                let data = g.map(|g| g.into_iter().map(|v| dt.cast(v)).collect());
                *slot =
                    Some(self.alloc_tensor(leaf.shape.clone(), dt, leaf.device, data, false)?);
            }
        }
        Ok(())
    }

    /// `t.backward(gradient=None, retain_graph=False)`.
    pub fn backward(&self, t: &Tensor, gradient: Option<&Tensor>, retain: bool) -> Result<()> {
        let hint = t.device().cuda_index();
        if !t.requires_grad {
            return Err(self.host_error(
                "backward",
                hint,
                EngineError::runtime(
                    "element 0 of tensors does not require grad and does not have a grad_fn",
                ),
            ));
        }
        let seed: Option<Vec<f64>> = match gradient {
            None if t.numel() != 1 => {
                return Err(self.host_error(
                    "backward",
                    hint,
                    EngineError::runtime("grad can be implicitly created only for scalar outputs"),
                ));
            }
            None => Some(vec![1.0]),
            Some(g) => {
                if g.layout.shape != t.layout.shape {
                    return Err(self.host_error(
                        "backward",
                        hint,
                        EngineError::runtime(format!(
                            "Mismatch in shape: grad_output[0] has a shape of {} and output[0] has a shape of {}.",
                            super::size_repr(&g.layout.shape),
                            super::size_repr(&t.layout.shape)
                        )),
                    ));
                }
                if g.is_phantom() {
                    None
                } else {
                    Some(g.values_unchecked())
                }
            }
        };
        // the device work (one modelled kernel), first: a pending device-side assert surfaces
        // here as it does in real training loops
        match t.device() {
            Device::Cuda(i) => self.launch(
                "backward",
                i,
                Cost::new(4 * t.nbytes() as u64 + 4096, 0),
                Vec::new(),
            )?,
            _ => self.cpu_op("backward", Cost::new(4096, 0)),
        }
        let root = match edge_of(t) {
            Edge::Leaf(l) => return self.accumulate(&l, seed),
            Edge::Node(n) => n,
            Edge::Unsupported(name) => return Err(unsupported(name)),
            Edge::None => return Ok(()),
        };
        // dependency counts over the graph reachable from the root
        let key = |n: &Rc<Node>| Rc::as_ptr(n) as usize;
        let mut deps: HashMap<usize, usize> = HashMap::new();
        let mut stack = vec![root.clone()];
        let mut seen = std::collections::HashSet::new();
        seen.insert(key(&root));
        let mut huge = t.is_phantom();
        while let Some(n) = stack.pop() {
            huge |= numel(&n.out_shape) > super::MAX_F64_ELEMENTS;
            for e in &n.edges {
                match e {
                    Edge::Node(c) => {
                        *deps.entry(key(c)).or_insert(0) += 1;
                        if seen.insert(key(c)) {
                            stack.push(c.clone());
                        }
                    }
                    Edge::Leaf(l) => huge |= numel(&l.shape) > super::MAX_F64_ELEMENTS,
                    _ => {}
                }
            }
        }
        let mut pending: HashMap<usize, Vec<f64>> = HashMap::new();
        if let Some(s) = seed {
            pending.insert(key(&root), s);
        }
        let mut ready = vec![root];
        while let Some(n) = ready.pop() {
            let keep = retain || n.kind.borrow().as_ref().is_some_and(|k| !k.holds_saved());
            let kind = if keep {
                n.kind.borrow().clone()
            } else {
                n.kind.borrow_mut().take()
            };
            let Some(kind) = kind else {
                return Err(EngineError::runtime(
                    "Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.",
                ));
            };
            let g = pending.remove(&key(&n)).map(|g| {
                g.into_iter()
                    .map(|v| n.out_dtype.cast(v))
                    .collect::<Vec<f64>>()
            });
            // tensors too large to hold values: gradients get their memory, not values
            let grads = match g {
                Some(g) if !huge => input_grads(self, &n, &kind, &g)?,
                _ => vec![None; n.edges.len()],
            };
            for (e, gi) in n
                .edges
                .iter()
                .zip(grads.into_iter().chain(std::iter::repeat(None)))
            {
                match e {
                    Edge::None => {}
                    Edge::Unsupported(name) => return Err(unsupported(name)),
                    Edge::Leaf(l) => self.accumulate(l, gi)?,
                    Edge::Node(c) => {
                        if let Some(gi) = gi {
                            match pending.get_mut(&key(c)) {
                                Some(acc) => acc.iter_mut().zip(gi).for_each(|(a, b)| *a += b),
                                None => {
                                    pending.insert(key(c), gi);
                                }
                            }
                        }
                        let d = deps.get_mut(&key(c)).expect("counted");
                        *d -= 1;
                        if *d == 0 {
                            ready.push(c.clone());
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

fn unsupported(name: &str) -> EngineError {
    EngineError::not_implemented(format!(
        "cudatutor's autograd cannot compute gradients through {name} yet"
    ))
}
