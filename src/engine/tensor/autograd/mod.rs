//! A small reverse-mode autograd: enough for `loss.backward()` through the ops a training
//! step uses (elementwise arithmetic and math, sum/mean, mm/addmm/linear/matmul with 1-D and
//! 2-D operands, views, softmax/log_softmax, nll_loss/cross_entropy, clone/to).
//!
//! An output that requires grad carries `grad_fn` (the name PyTorch prints) and, for those ops,
//! a [`Node`]: its inputs' edges and what its backward needs (detached handles, so no Rc
//! cycle keeps storage alive). A leaf that requires grad carries a shared [`Leaf`] holding
//! `.grad`. Any other op keeps only its name; backward reaching it raises NotImplementedError
//! naming it. Saved values are freed by backward unless `retain_graph`, as in PyTorch.
//! Gradients travel between nodes as device buffers of the node's dtype (contiguous, in the
//! output's row-major order), and every formula is PyTorch's (derivatives.yaml,
//! FunctionsManual.cpp) computed with the device interface's kernels, the ones the forward
//! ops use: float32 gradients are float32 arithmetic in PyTorch's order (sum_to's sums, the
//! softmax/log_softmax, nll_loss, sigmoid and tanh backward kernels of engine::numerics), and
//! matrix products run through the host GEMM (host/matmul.rs). The device work is modelled
//! as one `backward` kernel.

mod backward_ops;
mod graph_backward;
mod ready;
mod unary_grad;

use super::ops::Prepared;
use super::{
    BinaryOp, CommaSeparated, Operand, Tensor, UnaryOp, contiguous_strides, for_each_offset,
};
use crate::engine::backend::{
    Affine, Arg, BackendDevice, BackendStorage, MatmulDims, NllLoss, Operands, ReduceOp,
};
use crate::engine::device::Device;
use crate::engine::dtype::{DType, Scalar};
use crate::engine::error::{EngineError, Result};
use crate::engine::host::HostStorage;
use crate::engine::layout::Layout;
use crate::engine::runtime::Runtime;
use crate::engine::storage::DeviceStorage;
use crate::engine::timing::Cost;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// `.grad` of a leaf tensor, shared by every handle (and Python object) of that leaf.
pub(crate) struct Leaf {
    pub grad: RefCell<Option<Tensor>>,
    /// `register_hook` ids, in registration order (the bindings keep the callables).
    pub hooks: RefCell<Vec<u64>>,
    pub shape: Vec<usize>,
    pub dtype: DType,
    pub device: Device,
}

#[derive(Clone)]
pub(crate) enum Edge {
    None,
    Leaf(Rc<Leaf>),
    Node(Rc<Node>),
    /// An input made by an op this autograd cannot differentiate (its grad_fn name), with
    /// its [`Kind::NoFormula`] node when it has one (what `next_functions` shows of it).
    Unsupported(&'static str, Option<Rc<Node>>),
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
    /// a + b or a - b: only the operands' shapes (None for a Python number), and `alpha`.
    AddSub(bool, Option<Vec<usize>>, Option<Vec<usize>>, Option<Scalar>),
    /// mul, div, pow: the operands' values are needed.
    Binary(BinaryOp, Operand, Operand),
    Unary(UnaryOp, Tensor, Tensor),
    /// sum (mean when `mean`) over the dims marked in `reduced`.
    Reduce {
        in_shape: Vec<usize>,
        reduced: Vec<bool>,
        mean: bool,
    },
    /// a @ b (+ bias of `bias_shape`), 2-D.
    Mm(Tensor, Tensor, Option<Vec<usize>>),
    /// a @ b with batch dims: the operands (1-D ones made matrices) and the broadcast batch.
    Bmm {
        a: Tensor,
        b: Tensor,
        batch: Vec<usize>,
    },
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
    /// addcmul / addcdiv / lerp of (a, b, c) (lerp's weight `c` may be a number), `value`
    /// addcmul/addcdiv's `value=`.
    Ternary {
        op: crate::engine::backend::TernaryOp,
        a: Operand,
        b: Operand,
        c: Operand,
        value: Scalar,
    },
    /// index_select, embedding, advanced indexing: output element k is input element
    /// `pos[k]` (row-major in `in_shape`); `usize::MAX`: no gradient (embedding's
    /// padding_idx). Backward adds each output gradient into its input position, in output
    /// order (index_add / embedding_dense_backward), rounding to the dtype at every step.
    Scatter {
        in_shape: Vec<usize>,
        pos: Rc<Vec<usize>>,
    },
    /// torch.where(cond, a, b): the condition and the shapes of the tensor operands (None for a
    /// Python number); grad goes to `a` where cond holds, to `b` elsewhere, then sum_to.
    Where {
        cond: Tensor,
        a: Option<Vec<usize>>,
        b: Option<Vec<usize>>,
    },
    /// clamp with Python-number bounds: the input (clamp_backward: grad where min <= x <= max).
    Clamp {
        x: Tensor,
        min: Option<Scalar>,
        max: Option<Scalar>,
    },
    /// cat (and stack, over unsqueezed views) along `dim`: each input's shape and where its
    /// slab starts along `dim` (None for a legacy empty 1-D input, which gets no gradient).
    Cat {
        dim: usize,
        parts: Vec<Option<(Vec<usize>, usize)>>,
    },
    /// A composite op (mse_loss, batch_norm, layer_norm,
    /// ...) written over other ops but shown as one node, as PyTorch's fused op: the inner
    /// graph from `root` down to fresh leaves standing for the inputs (`leaves[i]` for input
    /// i, None when it does not require grad) is run by backward and its leaf gradients are
    /// this node's input gradients.
    Composite {
        root: Edge,
        leaves: Vec<Option<Rc<Leaf>>>,
    },
    /// var / std (`std_out`: std's result) with `correction` over the dims marked in
    /// `reduced` (`all`: no dim given), or the vector norm of order `p` (`norm_out`: its
    /// result).
    Stat {
        input: Tensor,
        reduced: Vec<bool>,
        all: bool,
        correction: f64,
        std_out: Option<Tensor>,
        norm: Option<(f64, Tensor)>,
    },
    /// binary_cross_entropy(_with_logits), huber_loss, smooth_l1_loss (tensor/loss.rs): the
    /// operands and the shape they were broadcast to.
    Loss(super::loss::LossNode),
    /// A backward function computed as an op of its own with `create_graph=True`
    /// (backward_ops.rs): its (grad_output, output) operands.
    BackwardOp {
        op: backward_ops::BackOp,
        g: Tensor,
        y: Tensor,
    },
    /// A custom `torch.autograd.Function`: its backward is Python code the bindings keep under
    /// `id` ([`HookCall::Function`]); `inputs[i]` is the shape and dtype of input edge i's
    /// gradient (None for an input that does not require grad).
    Function {
        id: u64,
        inputs: Vec<Option<(Vec<usize>, DType)>>,
        device: Device,
    },
    /// A view's gradient laid onto its base with `create_graph=True` (backward_ops.rs):
    /// its backward views the gradient as `view_name` viewed the base.
    ViewScatter {
        base: Geometry,
        view: Geometry,
        view_name: &'static str,
        device: Device,
    },
    /// An op with no backward formula here yet: the node only links the op's inputs, so
    /// `grad_fn.next_functions` lists them as PyTorch does. [`edge_of`] turns it into an
    /// [`Edge::Unsupported`], which backward refuses where a gradient would reach it.
    NoFormula,
}

impl Kind {
    /// Whether backward needs saved values (freed by backward unless retain_graph); the
    /// others can be run again, as PyTorch's nodes without saved tensors can.
    fn holds_saved(&self) -> bool {
        !matches!(
            self,
            Kind::AddSub(..)
                | Kind::Reduce { .. }
                | Kind::View(..)
                | Kind::Identity
                | Kind::Composite { .. }
                | Kind::Cat { .. }
                | Kind::ViewScatter { .. }
                | Kind::NoFormula
        )
    }

    /// The node of `op` applied to (a, b).
    pub(crate) fn binary(op: BinaryOp, a: &Operand, b: &Operand, alpha: Option<Scalar>) -> Kind {
        let shape = |o: &Operand| match o {
            Operand::Tensor(t) => Some(t.layout.shape.clone()),
            Operand::Scalar(_) => None,
        };
        match op {
            BinaryOp::Add | BinaryOp::Sub => {
                Kind::AddSub(op == BinaryOp::Sub, shape(a), shape(b), alpha)
            }
            _ => Kind::Binary(op, saved(a), saved(b)),
        }
    }
}

pub(crate) struct Node {
    pub name: &'static str,
    pub edges: Vec<Edge>,
    /// The edges PyTorch's node has, in its order, where they are not `edges` (None: they
    /// are): the engine keeps an edge per operand for its formulas where PyTorch's overload
    /// may take fewer tensors (`x ** 2` is pow.Tensor_Scalar, one edge; masked_fill's mask is
    /// not differentiable) or order them differently (addmm's bias first), and a node naming
    /// an op the engine computes with several ops links to their graph but shows the op's
    /// inputs ([`Runtime::named_node`]).
    pub display: Option<Vec<Edge>>,
    pub kind: RefCell<Option<Kind>>,
    pub out_shape: Vec<usize>,
    pub out_dtype: DType,
    /// `retain_grad()` on the output: the gradient reaching this node is also kept here as
    /// the output's `.grad`.
    pub retained: RefCell<Option<Rc<Leaf>>>,
    /// `register_hook` ids on the output (a non-leaf), in registration order, with the
    /// output's device (the hooks see the gradient as a tensor there).
    pub hooks: RefCell<Vec<(u64, Device)>>,
    /// When it was made (ready.rs: backward runs the latest-made ready node first).
    pub seq: u64,
}

impl Node {
    /// Whether this is a custom `autograd.Function`'s node (its backward is Python code).
    pub(crate) fn is_python_function(&self) -> bool {
        matches!(*self.kind.borrow(), Some(Kind::Function { .. }))
    }

    /// The edges `grad_fn.next_functions` lists: PyTorch's node's inputs ([`Node::display`]).
    pub(crate) fn pytorch_edges(&self) -> Vec<Edge> {
        self.display.as_ref().unwrap_or(&self.edges).clone()
    }

    /// Whether this node only links its inputs (no backward formula yet).
    fn has_no_formula(&self) -> bool {
        matches!(*self.kind.borrow(), Some(Kind::NoFormula))
    }

    pub(crate) fn new(
        name: &'static str,
        edges: Vec<Edge>,
        kind: Kind,
        out_shape: Vec<usize>,
        out_dtype: DType,
    ) -> Node {
        Node {
            name,
            edges,
            display: None,
            kind: RefCell::new(Some(kind)),
            out_shape,
            out_dtype,
            retained: RefCell::new(None),
            hooks: RefCell::new(Vec::new()),
            seq: ready::next_seq(),
        }
    }
}

impl Tensor {
    /// This tensor under another grad_fn name: an in-place view op (`unsqueeze_`, `t_` …)
    /// computes the out-of-place view, whose node PyTorch names differently
    /// (`UnsqueezeBackward1` for `UnsqueezeBackward0`). Backward is the same.
    pub(crate) fn with_grad_fn_name(self, name: &str) -> Tensor {
        self.into_pytorch_node(name, None)
    }

    /// This tensor's node shown as PyTorch's: named `name`, and when `shown` is given listing
    /// only those of its edges, by index ([`Node::display`]): an op the engine computes with
    /// one node of another op (`flip` as index_select, `tril` as masked_fill) keeps that
    /// node's backward (and its `create_graph` form) under PyTorch's name and edges.
    pub(crate) fn into_pytorch_node(mut self, name: &str, shown: Option<&[usize]>) -> Tensor {
        if self.grad_fn.is_none() {
            return self;
        }
        let name = intern_name(name);
        self.grad_fn = Some(name);
        if let Some(node) = self.node.take() {
            let mut renamed = match Rc::try_unwrap(node) {
                Ok(n) => n,
                Err(shared) => Node {
                    name,
                    edges: shared.edges.clone(),
                    display: shared.display.clone(),
                    kind: RefCell::new(shared.kind.borrow().clone()),
                    out_shape: shared.out_shape.clone(),
                    out_dtype: shared.out_dtype,
                    retained: RefCell::new(shared.retained.borrow().clone()),
                    hooks: RefCell::new(shared.hooks.borrow().clone()),
                    seq: shared.seq,
                },
            };
            renamed.name = name;
            if let Some(idx) = shown {
                // indices into the edges shown so far
                let base = renamed.pytorch_edges();
                renamed.display = Some(idx.iter().filter_map(|&i| base.get(i).cloned()).collect());
            }
            self.node = Some(Rc::new(renamed));
        }
        self
    }
}

/// A grad_fn name given at run time (a composite op's), as the `&'static str` every node
/// name is: each distinct name is leaked once.
pub(crate) fn intern_name(name: &str) -> &'static str {
    thread_local! {
        static NAMES: RefCell<std::collections::HashSet<&'static str>> =
            RefCell::new(std::collections::HashSet::new());
    }
    NAMES.with(|n| {
        let mut n = n.borrow_mut();
        if let Some(s) = n.get(name) {
            return *s;
        }
        let s: &'static str = Box::leak(name.to_string().into_boxed_str());
        n.insert(s);
        s
    })
}

/// For each storage offset in `offsets`, the row-major position of that element in a tensor
/// of `layout` (None when the layout repeats elements or an offset is outside it).
pub(crate) fn positions_of(layout: &Layout, offsets: &[usize]) -> Option<Vec<usize>> {
    let mut offs = Vec::with_capacity(layout.numel());
    if layout.shape.is_empty() {
        offs.push(layout.offset);
    } else {
        for_each_offset(&layout.shape, &layout.strides, layout.offset, |o| {
            offs.push(o)
        });
    }
    let lo = offs.iter().copied().min().unwrap_or(0);
    let hi = offs.iter().copied().max().unwrap_or(0);
    let mut pos = vec![usize::MAX; if offs.is_empty() { 0 } else { hi - lo + 1 }];
    for (i, &o) in offs.iter().enumerate() {
        if pos[o - lo] != usize::MAX {
            return None;
        }
        pos[o - lo] = i;
    }
    offsets
        .iter()
        .map(|&o| {
            o.checked_sub(lo)
                .and_then(|d| pos.get(d).copied())
                .filter(|&p| p != usize::MAX)
        })
        .collect()
}

pub(crate) fn edge_of(t: &Tensor) -> Edge {
    if !t.requires_grad {
        return Edge::None;
    }
    if let Some(n) = &t.node {
        if n.has_no_formula() {
            return Edge::Unsupported(t.grad_fn.unwrap_or(n.name), Some(n.clone()));
        }
        return Edge::Node(n.clone());
    }
    match (t.grad_fn, &t.leaf) {
        (Some(name), _) => Edge::Unsupported(name, None),
        (None, Some(l)) => Edge::Leaf(l.clone()),
        (None, None) => Edge::None,
    }
}

/// Give `out` (which already requires grad and has its grad_fn name) a backward node.
pub(crate) fn attach(out: &mut Tensor, inputs: &[Edge], kind: Kind) {
    if !out.requires_grad || out.grad_fn.is_none() {
        return;
    }
    out.node = Some(Rc::new(Node::new(
        out.grad_fn.unwrap_or("Backward"),
        inputs.to_vec(),
        kind,
        out.layout.shape.clone(),
        out.dtype(),
    )));
}

/// An operand as saved for backward (a detached handle: no graph, same storage).
pub(crate) fn saved(o: &Operand) -> Operand {
    match o {
        Operand::Tensor(t) => Operand::Tensor(t.detach()),
        s => s.clone(),
    }
}

/// How many input elements each output of a reduction over the `reduced` dims of
/// `in_shape` gathers: what mean's backward divides by.
fn reduced_count(in_shape: &[usize], reduced: &[bool]) -> usize {
    in_shape
        .iter()
        .zip(reduced)
        .filter(|(_, r)| **r)
        .map(|(d, _)| *d)
        .product()
}

fn numel(shape: &[usize]) -> usize {
    shape.iter().product()
}

/// A gradient: a contiguous buffer in row-major order of its node's output shape.
type G = DeviceStorage;

/// `a op b` in `dt` (both operands already of `dt` or numbers), stored as `dt`.
fn bin(op: BinaryOp, a: Arg<'_, G>, b: Arg<'_, G>, shape: &[usize], dt: DType) -> Result<G> {
    G::binary(op, Operands::new([a, b], shape, dt), dt)
}

/// A saved operand read as `dt` through a layout broadcast to `shape` (no copy when it
/// already has that dtype).
fn prep<'a>(o: &'a Operand, dt: DType, shape: &[usize]) -> Result<Prepared<'a>> {
    match o {
        Operand::Tensor(t) => super::ops::prepare(t, dt, shape),
        Operand::Scalar(s) => Ok(Prepared::Scalar(*s)),
    }
}

/// A saved tensor as a contiguous buffer of `dt` (borrowed when it already is one).
fn contiguous_of(t: &Tensor, dt: DType) -> Result<G> {
    let p = super::ops::prepare(t, dt, &t.layout.shape)?;
    let (s, l) = p.pair()?;
    s.to_dtype(l, dt)
}

/// `g` (laid out for `from`) summed down to `to` (a shape `from` broadcasts from): ATen's
/// `sum_to`, one sum over the leading dims and the dims `to` broadcasts, through the same
/// reduction kernel as `Tensor.sum` (PyTorch's float32 order).
pub(super) fn sum_to(g: G, from: &[usize], to: &[usize], dt: DType) -> Result<G> {
    if from == to {
        return Ok(g);
    }
    let lead = from.len() - to.len().min(from.len());
    let reduced: Vec<bool> = (0..from.len())
        .map(|k| k < lead || (to[k - lead] == 1 && from[k] != 1))
        .collect();
    if !reduced.iter().any(|&r| r) {
        return Ok(g);
    }
    let r = g.reduce(&Layout::contiguous(from), ReduceOp::Sum, &reduced, dt)?;
    if r.dtype() == dt {
        Ok(r)
    } else {
        r.to_dtype(&Layout::contiguous(&[r.len()]), dt)
    }
}

/// Whether a saved tensor of `kind` holds no values (a phantom): its gradients are phantoms.
fn saves_phantom(kind: &Kind) -> bool {
    let op = |o: &Operand| matches!(o, Operand::Tensor(t) if t.is_phantom());
    match kind {
        Kind::Binary(_, a, b) => op(a) || op(b),
        Kind::Ternary { a, b, c, .. } => op(a) || op(b) || op(c),
        Kind::Unary(_, x, y) => x.is_phantom() || y.is_phantom(),
        Kind::Mm(a, b, _) => a.is_phantom() || b.is_phantom(),
        Kind::Bmm { a, b, .. } => a.is_phantom() || b.is_phantom(),
        Kind::Softmax { out, .. } => out.is_phantom(),
        Kind::Conv2d { x, weight, .. } => x.is_phantom() || weight.is_phantom(),
        Kind::Pool2d { x, .. } => x.is_phantom(),
        Kind::Nll {
            input,
            target,
            weight,
            ..
        } => {
            input.is_phantom()
                || target.is_phantom()
                || weight.as_ref().is_some_and(|w| w.is_phantom())
        }
        Kind::Stat {
            input,
            std_out,
            norm,
            ..
        } => {
            input.is_phantom()
                || std_out.as_ref().is_some_and(|t| t.is_phantom())
                || norm.as_ref().is_some_and(|(_, t)| t.is_phantom())
        }
        Kind::Loss(n) => {
            n.input.is_phantom()
                || n.target.is_phantom()
                || n.weight.as_ref().is_some_and(|w| w.is_phantom())
                || n.pos_weight.as_ref().is_some_and(|w| w.is_phantom())
        }
        Kind::AddSub(..)
        | Kind::Reduce { .. }
        | Kind::View(..)
        | Kind::Identity
        | Kind::Scatter { .. }
        | Kind::Cat { .. }
        | Kind::Composite { .. }
        | Kind::Function { .. } => false,
        Kind::Where { cond, .. } => cond.is_phantom(),
        Kind::Clamp { x, .. } => x.is_phantom(),
        Kind::BackwardOp { g, y, .. } => g.is_phantom() || y.is_phantom(),
        Kind::ViewScatter { .. } | Kind::NoFormula => false,
    }
}

/// A gradient's values on the host in `l`'s order: its own buffer when it is on the host and
/// holds exactly them, else a copy kept in `copy`.
fn host_f32<'a>(
    g: &'a G,
    l: &Layout,
    copy: &'a mut Option<HostStorage>,
) -> Result<&'a HostStorage> {
    match g {
        DeviceStorage::Host(h) if h.len() == l.numel() && l.contiguous_range().is_some() => Ok(h),
        _ => Ok(copy.insert(g.to_host(l)?)),
    }
}

/// A saved tensor's values on the host in logical order: its storage (`data`, borrowed) when
/// that is on the host and the tensor covers it contiguously from its start, else a copy kept
/// in `copy`.
fn saved_f32<'a>(
    t: &Tensor,
    data: Option<&'a DeviceStorage>,
    copy: &'a mut Option<HostStorage>,
) -> Result<&'a HostStorage> {
    match data {
        Some(DeviceStorage::Host(h))
            if h.len() == t.numel() && t.layout.contiguous_range() == Some(0..t.numel()) =>
        {
            Ok(h)
        }
        _ => Ok(copy.insert(t.host_values()?)),
    }
}

/// The gradients of a node's inputs given the gradient `g` of its output (dtype `dt`), each
/// formula PyTorch's (tools/autograd/derivatives.yaml, FunctionsManual.cpp) computed with
/// the same device kernels as the forward ops, so float32 rounds as PyTorch's CPU rounds.
fn input_grads(node: &Node, kind: &Kind, g: G) -> Result<Vec<Option<G>>> {
    let shape = &node.out_shape;
    let dt = node.out_dtype;
    let l = Layout::contiguous(shape);
    Ok(match kind {
        Kind::Identity => vec![Some(g)],
        Kind::Composite { .. }
        | Kind::BackwardOp { .. }
        | Kind::ViewScatter { .. }
        | Kind::Function { .. } => {
            unreachable!("composite, formula and Python nodes are run by the runtime")
        }
        Kind::NoFormula => {
            unreachable!("edge_of makes a node without a formula an Edge::Unsupported")
        }
        Kind::Scatter { in_shape, pos } => {
            let gv = g.to_host(&l)?.gather_f64(&Layout::contiguous(&[g.len()]));
            let mut out = vec![0.0; numel(in_shape)];
            for (k, &p) in pos.iter().enumerate() {
                if let (Some(o), Some(v)) = (out.get_mut(p), gv.get(k)) {
                    *o = dt.cast(*o + v);
                }
            }
            vec![Some(DeviceStorage::Host(HostStorage::from_f64s(dt, &out)?))]
        }
        Kind::Conv2d { x, weight, geom } if dt == DType::Float32 => {
            // host/conv_f32.rs: the same bits as below on float32 buffers, over the batch on
            // the threads; the gradients no edge takes are not computed (ATen's output_mask)
            let need = |i: usize| !matches!(node.edges.get(i), None | Some(Edge::None));
            let (mut go_copy, mut x_copy, mut w_copy) = (None, None, None);
            let go = host_f32(&g, &l, &mut go_copy)?;
            let (xs, ws) = (x.storage.data.borrow(), weight.storage.data.borrow());
            let xh = saved_f32(x, xs.as_ref(), &mut x_copy)?;
            let wh = saved_f32(weight, ws.as_ref(), &mut w_copy)?;
            let grads = crate::engine::host::conv_f32::conv2d_backward(
                go,
                crate::engine::host::elementwise::typed::<f32>(xh)?,
                wh,
                geom,
                (need(0), need(1)),
            )?;
            let host = |v: Vec<f32>| DeviceStorage::Host(HostStorage::F32(v));
            let mut v = vec![grads.x.map(host), grads.weight.map(host)];
            if node.edges.len() > 2 {
                v.push(Some(host(grads.bias)));
            }
            v
        }
        Kind::Conv2d { x, weight, geom } => {
            // host/conv.rs: the GEMMs through the host GEMM in `dt`, the folds and batch
            // sums in f64 rounded once to `dt`
            let gv = g.to_host(&l)?.gather_f64(&Layout::contiguous(&[g.len()]));
            let (gx, gw, gb) = crate::engine::host::conv::conv2d_backward_f64(
                dt,
                &gv,
                &x.values_or_zeros()?,
                &weight.values_or_zeros()?,
                geom,
            )?;
            let back = |v: Vec<f64>| HostStorage::from_f64s(dt, &v).map(DeviceStorage::Host);
            let mut v = vec![Some(back(gx)?), Some(back(gw)?)];
            if node.edges.len() > 2 {
                v.push(Some(back(gb)?));
            }
            v
        }
        Kind::Pool2d { x, geom }
            if dt == DType::Float32 && geom.kind == crate::engine::host::conv::PoolKind::Max =>
        {
            // host/conv_f32.rs: the same bits as below on float32 buffers, planes on threads
            let (mut go_copy, mut x_copy) = (None, None);
            let go = host_f32(&g, &l, &mut go_copy)?;
            let xs = x.storage.data.borrow();
            let xh = saved_f32(x, xs.as_ref(), &mut x_copy)?;
            let gx = crate::engine::host::conv_f32::max_pool2d_backward(
                crate::engine::host::elementwise::typed::<f32>(go)?,
                crate::engine::host::elementwise::typed::<f32>(xh)?,
                geom,
            )?;
            vec![Some(DeviceStorage::Host(HostStorage::F32(gx)))]
        }
        Kind::Pool2d { x, geom } => {
            let gv = g.to_host(&l)?.gather_f64(&Layout::contiguous(&[g.len()]));
            let gx =
                crate::engine::host::conv::pool2d_backward(dt, &gv, &x.values_or_zeros()?, geom)?;
            vec![Some(DeviceStorage::Host(HostStorage::from_f64s(dt, &gx)?))]
        }
        Kind::AddSub(sub, a, b, alpha) => {
            // add: grad, grad * alpha; sub: grad, -grad * alpha; then sum_to
            let gb = match b {
                Some(bs) => {
                    let mut v = if *sub {
                        g.unary(&l, UnaryOp::Neg, dt)?
                    } else {
                        g.clone()
                    };
                    if let Some(al) = alpha {
                        v = bin(
                            BinaryOp::Mul,
                            Arg::Tensor(&v, &l),
                            Arg::Scalar(*al),
                            shape,
                            dt,
                        )?;
                    }
                    Some(sum_to(v, shape, bs, dt)?)
                }
                None => None,
            };
            let ga = match a {
                Some(s) => Some(sum_to(g, shape, s, dt)?),
                None => None,
            };
            vec![ga, gb]
        }
        Kind::Binary(op, a, b) => {
            let pa = prep(a, dt, shape)?;
            let pb = prep(b, dt, shape)?;
            let (av, bv) = (pa.arg()?, pb.arg()?);
            let gv = Arg::Tensor(&g, &l);
            let need = |i: usize| !matches!(node.edges.get(i), None | Some(Edge::None));
            let (ga, gb) = match op {
                // mul_tensor_backward: grad * other
                BinaryOp::Mul => (
                    need(0)
                        .then(|| bin(BinaryOp::Mul, gv, bv, shape, dt))
                        .transpose()?,
                    need(1)
                        .then(|| bin(BinaryOp::Mul, gv, av, shape, dt))
                        .transpose()?,
                ),
                // div_tensor_self_backward: grad / other;
                // div_tensor_other_backward: -grad * ((self / other) / other)
                BinaryOp::Div => (
                    need(0)
                        .then(|| bin(BinaryOp::Div, gv, bv, shape, dt))
                        .transpose()?,
                    need(1)
                        .then(|| -> Result<G> {
                            let q = bin(BinaryOp::Div, av, bv, shape, dt)?;
                            let q = bin(BinaryOp::Div, Arg::Tensor(&q, &l), bv, shape, dt)?;
                            let ng = g.unary(&l, UnaryOp::Neg, dt)?;
                            bin(
                                BinaryOp::Mul,
                                Arg::Tensor(&ng, &l),
                                Arg::Tensor(&q, &l),
                                shape,
                                dt,
                            )
                        })
                        .transpose()?,
                ),
                BinaryOp::Pow => (
                    need(0)
                        .then(|| pow_self_grad(gv, av, bv, b, shape, dt))
                        .transpose()?,
                    need(1)
                        .then(|| pow_exp_grad(gv, av, bv, shape, dt))
                        .transpose()?,
                ),
                // maximum: where(self == other, grad / 2, grad).masked_fill_(self < other, 0),
                // other: the same masked where self > other (minimum: the comparisons swapped)
                BinaryOp::Maximum | BinaryOp::Minimum => {
                    let half = bin(BinaryOp::Div, gv, Arg::Scalar(Scalar::Int(2)), shape, dt)?;
                    let eq = G::binary(
                        BinaryOp::Eq,
                        Operands::new([av, bv], shape, dt),
                        DType::Bool,
                    )?;
                    let t = G::where_cond(
                        (&eq, &l),
                        Operands::new([Arg::Tensor(&half, &l), gv], shape, dt),
                    )?;
                    let (lose_a, lose_b) = if *op == BinaryOp::Maximum {
                        (BinaryOp::Lt, BinaryOp::Gt)
                    } else {
                        (BinaryOp::Gt, BinaryOp::Lt)
                    };
                    let side = |cmp: BinaryOp| -> Result<G> {
                        let m = G::binary(cmp, Operands::new([av, bv], shape, dt), DType::Bool)?;
                        G::where_cond(
                            (&m, &l),
                            Operands::new(
                                [Arg::Scalar(Scalar::Float(0.0)), Arg::Tensor(&t, &l)],
                                shape,
                                dt,
                            ),
                        )
                    };
                    (
                        need(0).then(|| side(lose_a)).transpose()?,
                        need(1).then(|| side(lose_b)).transpose()?,
                    )
                }
                // atan2_backward: recip = (self * self + other * other).reciprocal();
                // grad * other * recip, grad * -self * recip
                BinaryOp::Atan2 => {
                    let aa = bin(BinaryOp::Mul, av, av, shape, dt)?;
                    let bb = bin(BinaryOp::Mul, bv, bv, shape, dt)?;
                    let sum = bin(
                        BinaryOp::Add,
                        Arg::Tensor(&aa, &l),
                        Arg::Tensor(&bb, &l),
                        shape,
                        dt,
                    )?;
                    let recip = sum.unary(&l, UnaryOp::Reciprocal, dt)?;
                    let rv = Arg::Tensor(&recip, &l);
                    (
                        need(0)
                            .then(|| -> Result<G> {
                                let t = bin(BinaryOp::Mul, gv, bv, shape, dt)?;
                                bin(BinaryOp::Mul, Arg::Tensor(&t, &l), rv, shape, dt)
                            })
                            .transpose()?,
                        need(1)
                            .then(|| -> Result<G> {
                                let na = match av {
                                    Arg::Tensor(s, sl) => s.unary(sl, UnaryOp::Neg, dt)?,
                                    Arg::Scalar(_) => bin(
                                        BinaryOp::Mul,
                                        av,
                                        Arg::Scalar(Scalar::Int(-1)),
                                        shape,
                                        dt,
                                    )?,
                                };
                                let t = bin(BinaryOp::Mul, gv, Arg::Tensor(&na, &l), shape, dt)?;
                                bin(BinaryOp::Mul, Arg::Tensor(&t, &l), rv, shape, dt)
                            })
                            .transpose()?,
                    )
                }
                // grad * self / result, grad * other / result
                BinaryOp::Hypot => {
                    let r = bin(BinaryOp::Hypot, av, bv, shape, dt)?;
                    let rv = Arg::Tensor(&r, &l);
                    let side = |v: Arg<'_, G>| -> Result<G> {
                        let t = bin(BinaryOp::Mul, gv, v, shape, dt)?;
                        bin(BinaryOp::Div, Arg::Tensor(&t, &l), rv, shape, dt)
                    };
                    (
                        need(0).then(|| side(av)).transpose()?,
                        need(1).then(|| side(bv)).transpose()?,
                    )
                }
                _ => unreachable!("only differentiable binary ops get a node"),
            };
            drop((pa, pb));
            let to = |o: &Operand, v: Option<G>| -> Result<Option<G>> {
                match (o, v) {
                    (Operand::Tensor(t), Some(v)) => {
                        Ok(Some(sum_to(v, shape, &t.layout.shape, dt)?))
                    }
                    _ => Ok(None),
                }
            };
            vec![to(a, ga)?, to(b, gb)?]
        }
        Kind::Ternary { op, a, b, c, value } => {
            // derivatives.yaml: addcmul: grad, grad * (tensor2 * value), grad * (tensor1 *
            // value); addcdiv: grad, grad * (value / tensor2), -grad * (value * tensor1 /
            // (tensor2 * tensor2)); lerp: grad * (1 - weight), grad * weight, and for a
            // tensor weight grad * (end - self)
            use crate::engine::backend::TernaryOp;
            let pa = prep(a, dt, shape)?;
            let pb = prep(b, dt, shape)?;
            let pc = prep(c, dt, shape)?;
            let (av, bv, cv) = (pa.arg()?, pb.arg()?, pc.arg()?);
            let gv = Arg::Tensor(&g, &l);
            let need = |i: usize| !matches!(node.edges.get(i), None | Some(Edge::None));
            let times = |x: Arg<'_, G>| bin(BinaryOp::Mul, gv, x, shape, dt);
            let sv = Arg::Scalar(*value);
            let (ga, gb, gc) = match op {
                TernaryOp::Addcmul => (
                    need(0).then(|| Ok(g.clone())).transpose()?,
                    need(1)
                        .then(|| -> Result<G> {
                            let f = bin(BinaryOp::Mul, cv, sv, shape, dt)?;
                            times(Arg::Tensor(&f, &l))
                        })
                        .transpose()?,
                    need(2)
                        .then(|| -> Result<G> {
                            let f = bin(BinaryOp::Mul, bv, sv, shape, dt)?;
                            times(Arg::Tensor(&f, &l))
                        })
                        .transpose()?,
                ),
                TernaryOp::Addcdiv => (
                    need(0).then(|| Ok(g.clone())).transpose()?,
                    need(1)
                        .then(|| -> Result<G> {
                            let f = bin(BinaryOp::Div, sv, cv, shape, dt)?;
                            times(Arg::Tensor(&f, &l))
                        })
                        .transpose()?,
                    need(2)
                        .then(|| -> Result<G> {
                            let num = bin(BinaryOp::Mul, bv, sv, shape, dt)?;
                            let den = bin(BinaryOp::Mul, cv, cv, shape, dt)?;
                            let q = bin(
                                BinaryOp::Div,
                                Arg::Tensor(&num, &l),
                                Arg::Tensor(&den, &l),
                                shape,
                                dt,
                            )?;
                            let ng = g.unary(&l, UnaryOp::Neg, dt)?;
                            bin(
                                BinaryOp::Mul,
                                Arg::Tensor(&ng, &l),
                                Arg::Tensor(&q, &l),
                                shape,
                                dt,
                            )
                        })
                        .transpose()?,
                ),
                TernaryOp::Lerp => {
                    let one_minus = || -> Result<G> {
                        match c {
                            // grad * (1 - weight.toDouble()): the difference in double
                            Operand::Scalar(w) => {
                                times(Arg::Scalar(Scalar::Float(1.0 - w.as_f64())))
                            }
                            Operand::Tensor(_) => {
                                let f =
                                    bin(BinaryOp::Sub, Arg::Scalar(Scalar::Int(1)), cv, shape, dt)?;
                                times(Arg::Tensor(&f, &l))
                            }
                        }
                    };
                    (
                        need(0).then(one_minus).transpose()?,
                        need(1).then(|| times(cv)).transpose()?,
                        need(2)
                            .then(|| -> Result<G> {
                                let d = bin(BinaryOp::Sub, bv, av, shape, dt)?;
                                times(Arg::Tensor(&d, &l))
                            })
                            .transpose()?,
                    )
                }
            };
            drop((pa, pb, pc));
            let to = |o: &Operand, v: Option<G>| -> Result<Option<G>> {
                match (o, v) {
                    (Operand::Tensor(t), Some(v)) => {
                        Ok(Some(sum_to(v, shape, &t.layout.shape, dt)?))
                    }
                    _ => Ok(None),
                }
            };
            let mut v = vec![to(a, ga)?, to(b, gb)?];
            if matches!(c, Operand::Tensor(_)) {
                v.push(to(c, gc)?);
            }
            v
        }
        Kind::Unary(op, input, out) => {
            let alg = unary_grad::Buffers {
                input,
                out,
                g: &g,
                shape,
                dt,
                layout: Layout::contiguous(shape),
            };
            vec![Some(alg.finish(op.backward(&alg)?)?)]
        }
        Kind::Stat {
            input,
            reduced,
            all,
            correction,
            std_out,
            norm,
        } => vec![Some(stat_grad(
            input,
            reduced,
            *all,
            *correction,
            std_out.as_ref(),
            norm.as_ref(),
            g,
            shape,
            dt,
        )?)],
        Kind::Loss(n) => {
            let gv = g.to_host(&l)?.gather_f64(&Layout::contiguous(&[g.len()]));
            let need_t = !matches!(node.edges.get(1), None | Some(Edge::None));
            let (gi, gt) = n.grads(&gv, need_t)?;
            let gi = sum_to(DeviceStorage::Host(gi), &n.shape, &n.input.layout.shape, dt)?;
            let gt = match gt {
                Some(v) => Some(sum_to(
                    DeviceStorage::Host(v),
                    &n.shape,
                    &n.target.layout.shape,
                    dt,
                )?),
                None => None,
            };
            vec![Some(gi), gt]
        }
        Kind::Reduce {
            in_shape,
            reduced,
            mean,
        } => {
            let count = reduced_count(in_shape, reduced);
            // the output's strides seen from the input's dims (0 on reduced dims): grad
            // expanded to the input's shape
            let kept: Vec<usize> = (0..in_shape.len())
                .map(|i| if reduced[i] { 1 } else { in_shape[i] })
                .collect();
            let kst = contiguous_strides(&kept);
            let st: Vec<usize> = (0..in_shape.len())
                .map(|i| if reduced[i] { 0 } else { kst[i] })
                .collect();
            let ex = Layout::new(in_shape.clone(), st, 0);
            vec![Some(if *mean {
                // mean_backward: grad.expand(sizes) / numel
                bin(
                    BinaryOp::Div,
                    Arg::Tensor(&g, &ex),
                    Arg::Scalar(Scalar::Int(count as i64)),
                    in_shape,
                    dt,
                )?
            } else {
                g.to_dtype(&ex, dt)?
            })]
        }
        Kind::Mm(a, b, bias) => {
            let (m, k, n) = (a.layout.shape[0], a.layout.shape[1], b.layout.shape[1]);
            let g3 = Layout::new(vec![1, m, n], vec![0, n, 1], 0);
            let tr = |l: &Layout| {
                Layout::new(
                    vec![1, l.shape[1], l.shape[0]],
                    vec![0, l.strides[1], l.strides[0]],
                    l.offset,
                )
            };
            // mm_mat1_backward: grad @ mat2.T; mm_mat2_backward: mat1.T @ grad (transposes
            // are strides, not copies)
            let ga = if !matches!(node.edges.first(), None | Some(Edge::None)) {
                let pb = super::ops::prepare(b, dt, &b.layout.shape)?;
                let (bs, bl) = pb.pair()?;
                Some(G::matmul(
                    Affine::new((&g, &g3), (bs, &tr(bl)), None),
                    MatmulDims {
                        batch: 1,
                        m,
                        k: n,
                        n: k,
                    },
                )?)
            } else {
                None
            };
            let gb = if !matches!(node.edges.get(1), None | Some(Edge::None)) {
                let pa = super::ops::prepare(a, dt, &a.layout.shape)?;
                let (as_, al) = pa.pair()?;
                Some(G::matmul(
                    Affine::new((as_, &tr(al)), (&g, &g3), None),
                    MatmulDims {
                        batch: 1,
                        m: k,
                        k: m,
                        n,
                    },
                )?)
            } else {
                None
            };
            let mut v = vec![ga, gb];
            if let Some(bs) = bias {
                v.push(Some(sum_to(g, &[m, n], bs, dt)?));
            }
            v
        }
        Kind::Bmm { a, b, batch } => super::bmm_grad::input_grads(node, a, b, batch, g, dt)?,
        Kind::View(base, view) => vec![Some(view_grad(node, base, view, g, dt)?)],
        // derivatives.yaml: self: where(condition, grad, 0), other: where(condition, 0, grad),
        // each summed to its operand's shape
        Kind::Where { cond, a, b } => {
            let pc = super::ops::prepare(cond, DType::Bool, shape)?;
            let (cs, cl) = pc.pair()?;
            let zero = || Arg::Scalar(Scalar::Float(0.0));
            let side = |s: &Option<Vec<usize>>, first: bool| -> Result<Option<G>> {
                let Some(s) = s else { return Ok(None) };
                let gv = Arg::Tensor(&g, &l);
                let (x, y) = if first { (gv, zero()) } else { (zero(), gv) };
                let w = G::where_cond((cs, cl), Operands::new([x, y], shape, dt))?;
                sum_to(w, shape, s, dt).map(Some)
            };
            vec![side(a, true)?, side(b, false)?]
        }
        // clamp_backward: where(self >= min, grad, 0), then where(self <= max, ..., 0)
        Kind::Clamp { x, min, max } => {
            let xo = Operand::Tensor(x.clone());
            let px = prep(&xo, dt, shape)?;
            let mut r = g;
            // PyTorch 2.15's clamp_backward for number bounds passes the gradient strictly
            // inside them: zero at a bound (x.clamp(-1, 1) at x = 1)
            for (bound, op) in [(min, BinaryOp::Gt), (max, BinaryOp::Lt)] {
                let Some(b) = bound else { continue };
                let m = G::binary(
                    op,
                    Operands::new([px.arg()?, Arg::Scalar(*b)], shape, dt),
                    DType::Bool,
                )?;
                r = G::where_cond(
                    (&m, &l),
                    Operands::new(
                        [Arg::Tensor(&r, &l), Arg::Scalar(Scalar::Float(0.0))],
                        shape,
                        dt,
                    ),
                )?;
            }
            vec![Some(r)]
        }
        // cat_tensors_backward: each input's slab of the gradient, copied out
        Kind::Cat { dim, parts } => {
            let strides = contiguous_strides(shape);
            let mut v = Vec::with_capacity(parts.len());
            for part in parts {
                let Some((in_shape, at)) = part else {
                    v.push(None);
                    continue;
                };
                let n = numel(in_shape);
                let mut out = crate::engine::host::HostDevice
                    .zeros(n, dt)
                    .map(DeviceStorage::Host)?;
                if n > 0 {
                    let slab = Layout::new(in_shape.clone(), strides.clone(), at * strides[*dim]);
                    out.copy_from(&Layout::contiguous(in_shape), &g, &slab)?;
                }
                v.push(Some(out));
            }
            v
        }
        Kind::Softmax { dim, out, log } => {
            let y = contiguous_of(out, dt)?;
            vec![Some(G::softmax_backward(
                Operands::new([&g, &y], shape, dt),
                *dim,
                *log,
            )?)]
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
            let tgt = contiguous_of(target, DType::Int64)?;
            let w = weight.as_ref().map(|w| contiguous_of(w, dt)).transpose()?;
            let loss = NllLoss {
                n,
                c,
                target: &tgt,
                weight: w.as_ref(),
                ignore_index: *ignore,
                reduction: *reduction,
            };
            let d = G::nll_loss_backward(&g, &loss, dt)?;
            if *log_softmax_first {
                // through log_softmax over the class dim, from its (recomputed) output
                let p = super::ops::prepare(input, dt, &input.layout.shape)?;
                let (s, li) = p.pair()?;
                let lp = s.softmax(li, input.dim() - 1, true)?;
                vec![Some(G::softmax_backward(
                    Operands::new([&d, &lp], &input.layout.shape, dt),
                    input.dim() - 1,
                    true,
                )?)]
            } else {
                vec![Some(d)]
            }
        }
    })
}

/// var_backward / std_backward / norm_backward (FunctionsManual.cpp) with the device kernels.
#[allow(clippy::too_many_arguments)]
fn stat_grad(
    input: &Tensor,
    reduced: &[bool],
    all: bool,
    correction: f64,
    std_out: Option<&Tensor>,
    norm: Option<&(f64, Tensor)>,
    g: G,
    out_shape: &[usize],
    dt: DType,
) -> Result<G> {
    let in_shape = input.layout.shape.clone();
    let nd = in_shape.len();
    let lo = Layout::contiguous(out_shape);
    // an output-shaped buffer seen over the input's shape (stride 0 on reduced dims)
    let expanded = |_: ()| -> Layout {
        let kept: Vec<usize> = (0..nd)
            .map(|i| if reduced[i] { 1 } else { in_shape[i] })
            .collect();
        let kst = contiguous_strides(&kept);
        let st: Vec<usize> = (0..nd)
            .map(|i| if reduced[i] { 0 } else { kst[i] })
            .collect();
        Layout::new(in_shape.clone(), st, 0)
    };
    let ex = expanded(());
    let li = Layout::contiguous(&in_shape);
    let n_in = numel(&in_shape);
    let p = super::ops::prepare(input, dt, &in_shape)?;
    let (xs, xl) = p.pair()?;
    if let Some((ord, result)) = norm {
        let r = contiguous_of(result, dt)?;
        let zero = G::binary(
            BinaryOp::Eq,
            Operands::new(
                [Arg::Tensor(&r, &lo), Arg::Scalar(Scalar::Float(0.0))],
                out_shape,
                dt,
            ),
            DType::Bool,
        )?;
        if *ord == 1.0 {
            // self.sgn() * grad
            let sg = xs.unary(xl, UnaryOp::Sign, dt)?;
            return bin(
                BinaryOp::Mul,
                Arg::Tensor(&sg, &li),
                Arg::Tensor(&g, &ex),
                &in_shape,
                dt,
            );
        }
        // p = 2: grad * (self / norm).masked_fill_(norm == 0, 0)
        let q = bin(
            BinaryOp::Div,
            Arg::Tensor(xs, xl),
            Arg::Tensor(&r, &ex),
            &in_shape,
            dt,
        )?;
        let q = q.masked_fill(&li, (&zero, &ex), Scalar::Float(0.0))?;
        return bin(
            BinaryOp::Mul,
            Arg::Tensor(&g, &ex),
            Arg::Tensor(&q, &li),
            &in_shape,
            dt,
        );
    }
    // std_backward: grad_var = (grad / (result * 2)).masked_fill_(result == 0, 0)
    let gv = match std_out {
        Some(result) => {
            let r = contiguous_of(result, dt)?;
            let r2 = bin(
                BinaryOp::Mul,
                Arg::Tensor(&r, &lo),
                Arg::Scalar(Scalar::Int(2)),
                out_shape,
                dt,
            )?;
            let q = bin(
                BinaryOp::Div,
                Arg::Tensor(&g, &lo),
                Arg::Tensor(&r2, &lo),
                out_shape,
                dt,
            )?;
            let zero = G::binary(
                BinaryOp::Eq,
                Operands::new(
                    [Arg::Tensor(&r, &lo), Arg::Scalar(Scalar::Float(0.0))],
                    out_shape,
                    dt,
                ),
                DType::Bool,
            )?;
            q.masked_fill(&lo, (&zero, &lo), Scalar::Float(0.0))?
        }
        None => g,
    };
    // var_backward: (2.0 / (n - correction)) * grad * (self - self.mean(dim, keepdim=True))
    let count: usize = if all {
        n_in
    } else {
        (0..nd)
            .filter(|&i| reduced[i])
            .map(|i| in_shape[i])
            .product()
    };
    let mask: Vec<bool> = if all {
        vec![true; nd]
    } else {
        reduced.to_vec()
    };
    let mean = xs.reduce(xl, ReduceOp::Mean, &mask, dt)?;
    let mean_l = if all {
        Layout::new(in_shape.clone(), vec![0; nd], 0)
    } else {
        ex.clone()
    };
    let diff = bin(
        BinaryOp::Sub,
        Arg::Tensor(xs, xl),
        Arg::Tensor(&mean, &mean_l),
        &in_shape,
        dt,
    )?;
    let dof = count as f64 - correction;
    if dof <= 0.0 {
        // grad * where(self == self.mean(), NaN, inf)
        let eq = G::binary(
            BinaryOp::Eq,
            Operands::new(
                [Arg::Tensor(xs, xl), Arg::Tensor(&mean, &mean_l)],
                &in_shape,
                dt,
            ),
            DType::Bool,
        )?;
        let w = G::where_cond(
            (&eq, &li),
            Operands::new(
                [
                    Arg::Scalar(Scalar::Float(f64::NAN)),
                    Arg::Scalar(Scalar::Float(f64::INFINITY)),
                ],
                &in_shape,
                dt,
            ),
        )?;
        return bin(
            BinaryOp::Mul,
            Arg::Tensor(&gv, &ex),
            Arg::Tensor(&w, &li),
            &in_shape,
            dt,
        );
    }
    let sg = bin(
        BinaryOp::Mul,
        Arg::Scalar(Scalar::Float(2.0 / dof)),
        Arg::Tensor(&gv, &lo),
        out_shape,
        dt,
    )?;
    bin(
        BinaryOp::Mul,
        Arg::Tensor(&sg, &ex),
        Arg::Tensor(&diff, &li),
        &in_shape,
        dt,
    )
}

/// pow_backward_self: `grad * (exponent * self.pow(exponent - 1))`, zero where the
/// exponent is 0.
fn pow_self_grad(
    g: Arg<'_, G>,
    a: Arg<'_, G>,
    b: Arg<'_, G>,
    bo: &Operand,
    shape: &[usize],
    dt: DType,
) -> Result<G> {
    let l = Layout::contiguous(shape);
    match bo {
        Operand::Scalar(s) => {
            let e = s.as_f64();
            if e == 0.0 {
                return crate::engine::host::HostDevice
                    .zeros(numel(shape), dt)
                    .map(DeviceStorage::Host);
            }
            let p = bin(
                BinaryOp::Pow,
                a,
                Arg::Scalar(Scalar::Float(e - 1.0)),
                shape,
                dt,
            )?;
            let t = bin(
                BinaryOp::Mul,
                Arg::Scalar(Scalar::Float(e)),
                Arg::Tensor(&p, &l),
                shape,
                dt,
            )?;
            bin(BinaryOp::Mul, g, Arg::Tensor(&t, &l), shape, dt)
        }
        Operand::Tensor(_) => {
            let e1 = bin(BinaryOp::Sub, b, Arg::Scalar(Scalar::Int(1)), shape, dt)?;
            let p = bin(BinaryOp::Pow, a, Arg::Tensor(&e1, &l), shape, dt)?;
            let t = bin(BinaryOp::Mul, b, Arg::Tensor(&p, &l), shape, dt)?;
            let t = bin(BinaryOp::Mul, g, Arg::Tensor(&t, &l), shape, dt)?;
            let zero = G::binary(
                BinaryOp::Eq,
                Operands::new([b, Arg::Scalar(Scalar::Float(0.0))], shape, dt),
                DType::Bool,
            )?;
            G::where_cond(
                (&zero, &l),
                Operands::new(
                    [Arg::Scalar(Scalar::Float(0.0)), Arg::Tensor(&t, &l)],
                    shape,
                    dt,
                ),
            )
        }
    }
}

/// pow_backward_exponent: `grad * where(self == 0 & exponent >= 0, 0, result * self.log())`.
fn pow_exp_grad(
    g: Arg<'_, G>,
    a: Arg<'_, G>,
    b: Arg<'_, G>,
    shape: &[usize],
    dt: DType,
) -> Result<G> {
    let l = Layout::contiguous(shape);
    let result = bin(BinaryOp::Pow, a, b, shape, dt)?;
    let la = match a {
        Arg::Tensor(s, sl) => s.unary(sl, UnaryOp::Log, dt)?,
        Arg::Scalar(s) => crate::engine::host::HostDevice
            .full(numel(shape), dt, Scalar::Float(s.as_f64()))
            .map(DeviceStorage::Host)?
            .unary(&l, UnaryOp::Log, dt)?,
    };
    let t = bin(
        BinaryOp::Mul,
        Arg::Tensor(&result, &l),
        Arg::Tensor(&la, &l),
        shape,
        dt,
    )?;
    let z = G::binary(
        BinaryOp::Eq,
        Operands::new([a, Arg::Scalar(Scalar::Float(0.0))], shape, dt),
        DType::Bool,
    )?;
    let nn = G::binary(
        BinaryOp::Ge,
        Operands::new([b, Arg::Scalar(Scalar::Float(0.0))], shape, dt),
        DType::Bool,
    )?;
    let cond = G::binary(
        BinaryOp::LogicalAnd,
        Operands::new(
            [Arg::Tensor(&z, &l), Arg::Tensor(&nn, &l)],
            shape,
            DType::Bool,
        ),
        DType::Bool,
    )?;
    let t = G::where_cond(
        (&cond, &l),
        Operands::new(
            [Arg::Scalar(Scalar::Float(0.0)), Arg::Tensor(&t, &l)],
            shape,
            dt,
        ),
    )?;
    bin(BinaryOp::Mul, g, Arg::Tensor(&t, &l), shape, dt)
}

/// A view's gradient laid back onto its base: the base's shape, zeros where the view does
/// not reach, the view's elements added where it does.
pub(super) fn view_grad(
    node: &Node,
    base: &Geometry,
    view: &Geometry,
    g: G,
    dt: DType,
) -> Result<G> {
    let bn = numel(&base.shape);
    // the common case: a contiguous base and a view that does not repeat elements (t(),
    // reshape, slices, permutes): one strided copy into zeros
    let base_contig = base.strides == contiguous_strides(&base.shape) || bn <= 1;
    if base_contig && !overlaps(view) && view.offset >= base.offset {
        let vl = Layout::new(
            view.shape.clone(),
            view.strides.clone(),
            view.offset - base.offset,
        );
        if vl.numel() == 0 || vl.storage_end() <= bn {
            if vl.numel() == bn && vl.is_contiguous() && vl.offset == 0 {
                return Ok(g);
            }
            let mut out = crate::engine::host::HostDevice
                .zeros(bn, dt)
                .map(DeviceStorage::Host)?;
            out.copy_from(&vl, &g, &Layout::contiguous(&view.shape))?;
            return Ok(out);
        }
    }
    // otherwise: base's storage offsets -> its logical positions, in a table over the
    // offsets' span (views never reach past their storage), then the view's elements added
    // through it: two strided walks, no hashing
    let mut offs = Vec::with_capacity(bn);
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
    // repeated view elements (expand) sum in the gradient's own dtype, in view order
    let gh = g.to_host(&Layout::contiguous(&[g.len()]))?;
    let gv = gh.gather_f64(&Layout::contiguous(&[gh.len()]));
    let mut out = vec![0.0; offs.len()];
    let mut k = 0usize;
    let mut add = |o: usize| {
        if let Some(&j) = o.checked_sub(lo).and_then(|d| pos.get(d))
            && j != usize::MAX
        {
            out[j] = dt.cast(out[j] + gv[k]);
        }
        k += 1;
    };
    if view.shape.is_empty() {
        add(view.offset);
    } else {
        for_each_offset(&view.shape, &view.strides, view.offset, add);
    }
    Ok(DeviceStorage::Host(HostStorage::from_f64s(dt, &out)?))
}

/// Whether two elements of a view can sit at one storage offset (an expanded or otherwise
/// self-overlapping view).
fn overlaps(v: &Geometry) -> bool {
    let mut dims: Vec<(usize, usize)> = v
        .shape
        .iter()
        .zip(&v.strides)
        .filter(|(s, _)| **s > 1)
        .map(|(a, b)| (*b, *a))
        .collect();
    dims.sort_unstable();
    let mut reach = 1usize;
    for (stride, size) in dims {
        if stride < reach {
            return true;
        }
        reach = stride.saturating_mul(size);
    }
    false
}

/// `g` converted to `dt` when it has another dtype.
fn as_dtype(g: G, dt: DType) -> Result<G> {
    if g.dtype() == dt {
        Ok(g)
    } else {
        g.to_dtype(&Layout::contiguous(&[g.len()]), dt)
    }
}

impl Runtime {
    /// Add `g` (row-major, the leaf's shape; None: a phantom) into the leaf's `.grad` (in
    /// place when it exists).
    fn accumulate(&self, leaf: &Leaf, g: Option<G>) -> Result<()> {
        let dt = leaf.dtype;
        let g = g.map(|g| as_dtype(g, dt)).transpose()?;
        let mut slot = leaf.grad.borrow_mut();
        match slot.as_ref() {
            Some(old) => {
                if let Some(g) = g
                    && !old.is_phantom()
                {
                    let shape = old.layout.shape.clone();
                    if numel(&shape) != g.len() {
                        return Err(EngineError::runtime(format!(
                            "Function AccumulateGrad returned an invalid gradient at index 0 - got {} but expected shape compatible with {}",
                            super::size_repr(&leaf.shape),
                            super::size_repr(&shape)
                        )));
                    }
                    let gl = Layout::contiguous(&shape);
                    let sum = {
                        let r = old.read();
                        let s = r.as_ref().ok_or_else(|| old.phantom_error())?;
                        G::binary(
                            BinaryOp::Add,
                            Operands::new(
                                [Arg::Tensor(s, &old.layout), Arg::Tensor(&g, &gl)],
                                &shape,
                                old.dtype(),
                            ),
                            old.dtype(),
                        )?
                    };
                    let mut d = old.storage.data.borrow_mut();
                    if let Some(d) = d.as_mut() {
                        d.copy_from(&old.layout, &sum, &gl)?;
                    }
                }
            }
            None => {
                let out =
                    self.alloc_out(leaf.shape.clone(), dt, leaf.device, g.is_some(), false)?;
                if let Some(g) = g
                    && out.wants_values()
                {
                    if g.len() != out.numel() {
                        return Err(EngineError::runtime(
                            "internal: a gradient's size does not match its leaf",
                        ));
                    }
                    out.set_values(g)?;
                }
                *slot = Some(out);
            }
        }
        Ok(())
    }

    /// `t.backward(gradient=None, retain_graph=False)`.
    pub fn backward(&self, t: &Tensor, gradient: Option<&Tensor>, retain: bool) -> Result<()> {
        self.backward_with_hooks(t, gradient, retain, &mut |_, _| Ok(Vec::new()))
    }

    /// `t.backward(...)` with the leaves' `register_hook` hooks run by `hooks`.
    pub(crate) fn backward_with_hooks(
        &self,
        t: &Tensor,
        gradient: Option<&Tensor>,
        retain: bool,
        hooks: &mut HookFn<'_>,
    ) -> Result<()> {
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
        let dt = t.dtype();
        let seed: Option<G> = match gradient {
            None if t.numel() != 1 => {
                return Err(self.host_error(
                    "backward",
                    hint,
                    EngineError::runtime("grad can be implicitly created only for scalar outputs"),
                ));
            }
            None if t.is_phantom() => None,
            None => Some(DeviceStorage::Host(HostStorage::full(
                dt,
                1,
                Scalar::Int(1),
            )?)),
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
                if g.is_phantom() || t.is_phantom() {
                    None
                } else {
                    Some(contiguous_of(g, dt)?)
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
            Edge::Leaf(l) => {
                let seed = self.leaf_hooks(&l, seed, hooks)?;
                return self.accumulate(&l, seed);
            }
            Edge::Node(n) => n,
            Edge::Unsupported(name, _) => return Err(unsupported(name)),
            Edge::None => return Ok(()),
        };
        self.run_graph(root, seed, retain, &[], hooks).map(|_| ())
    }

    /// A leaf's gradient after its `register_hook` hooks (each may replace it).
    fn leaf_hooks(&self, leaf: &Leaf, g: Option<G>, hooks: &mut HookFn<'_>) -> Result<Option<G>> {
        let ids: Vec<u64> = leaf.hooks.borrow().clone();
        self.tensor_hooks(&ids, &leaf.shape, leaf.dtype, leaf.device, g, hooks)
    }

    /// The gradient `g` of a tensor of `shape`/`dtype` on `device` after its `register_hook`
    /// hooks `ids`, each seeing it as a tensor and maybe replacing it.
    fn tensor_hooks(
        &self,
        ids: &[u64],
        shape: &[usize],
        dtype: DType,
        device: Device,
        g: Option<G>,
        hooks: &mut HookFn<'_>,
    ) -> Result<Option<G>> {
        let Some(mut g) = g else { return Ok(None) };
        for &id in ids {
            let t = self.alloc_out(shape.to_vec(), dtype, device, true, false)?;
            if t.wants_values() {
                t.set_values(as_dtype(g.clone(), dtype)?)?;
            }
            if let Some(r) = hook_replacement(hooks(id, HookCall::Tensor(t))?, shape)? {
                g = contiguous_of(&r, dtype)?;
            }
        }
        Ok(Some(g))
    }

    /// A custom Function's input gradients: its Python backward run by the bindings on the
    /// output's gradient `g`, each answer checked against its input's shape.
    fn function_grads(
        &self,
        n: &Node,
        kind: &Kind,
        g: G,
        hooks: &mut HookFn<'_>,
    ) -> Result<Vec<Option<G>>> {
        let Kind::Function { id, inputs, device } = kind else {
            unreachable!("only Function nodes")
        };
        let t = self.alloc_out(n.out_shape.clone(), n.out_dtype, *device, true, false)?;
        if t.wants_values() {
            t.set_values(g)?;
        }
        let answers = hooks(*id, HookCall::Function(t))?;
        function_answers(n.name, inputs, answers)?
            .into_iter()
            .map(|a| a.map(|(g, dt)| contiguous_of(&g, dt)).transpose())
            .collect()
    }

    /// Run backward from `root` with gradient `seed`. Gradients reaching the leaves in
    /// `capture` are returned (in its order) instead of being added into their `.grad`.
    fn run_graph(
        &self,
        root: Rc<Node>,
        seed: Option<G>,
        retain: bool,
        capture: &[Rc<Leaf>],
        hooks: &mut HookFn<'_>,
    ) -> Result<Vec<Option<G>>> {
        let mut captured: Vec<Option<G>> = vec![None; capture.len()];
        // dependency counts over the graph reachable from the root (a handful of nodes: the
        // hash maps cost nothing next to one kernel)
        let key = |n: &Rc<Node>| Rc::as_ptr(n) as usize;
        let mut deps: HashMap<usize, usize> = HashMap::new();
        let mut stack = vec![root.clone()];
        let mut seen = std::collections::HashSet::new();
        seen.insert(key(&root));
        while let Some(n) = stack.pop() {
            for e in &n.edges {
                if let Edge::Node(c) = e {
                    *deps.entry(key(c)).or_insert(0) += 1;
                    if seen.insert(key(c)) {
                        stack.push(c.clone());
                    }
                }
            }
        }
        // a node's gradient so far: Some(None) once a phantom contribution arrived
        let mut pending: HashMap<usize, Option<G>> = HashMap::new();
        pending.insert(key(&root), seed);
        let mut ready = ready::ReadyQueue::default();
        ready.push(root);
        while let Some(n) = ready.pop() {
            let keep = retain || n.kind.borrow().as_ref().is_some_and(|k| !k.holds_saved());
            let kind = if keep {
                n.kind.borrow().clone()
            } else {
                n.kind.borrow_mut().take()
            };
            let Some(kind) = kind else {
                return Err(freed_error());
            };
            let g = pending.remove(&key(&n)).flatten();
            // the output's own hooks first, then retain_grad's capture (PyTorch runs the
            // retains_grad hook last)
            let ids: Vec<u64> = n.hooks.borrow().iter().map(|h| h.0).collect();
            let g = match n.hooks.borrow().first() {
                Some(&(_, device)) => {
                    self.tensor_hooks(&ids, &n.out_shape, n.out_dtype, device, g, hooks)?
                }
                None => g,
            };
            // retain_grad(): the output keeps the gradient that reached its node
            let retained = n.retained.borrow().clone();
            if let Some(l) = retained {
                self.accumulate(&l, g.clone())?;
            }
            // tensors whose values are not kept: gradients get their memory, not values
            let grads = match g {
                Some(g) if !saves_phantom(&kind) => {
                    let g = as_dtype(g, n.out_dtype)?;
                    match &kind {
                        Kind::Composite { root, leaves } => {
                            self.run_composite(root, leaves, g, retain, hooks)?
                        }
                        Kind::BackwardOp { .. } | Kind::ViewScatter { .. } => {
                            self.formula_grads(&n, &kind, g)?
                        }
                        Kind::Function { .. } => self.function_grads(&n, &kind, g, hooks)?,
                        _ => input_grads(&n, &kind, g)?,
                    }
                }
                _ => vec![None; n.edges.len()],
            };
            for (e, gi) in n
                .edges
                .iter()
                .zip(grads.into_iter().chain(std::iter::repeat(None)))
            {
                match e {
                    Edge::None => {}
                    Edge::Unsupported(name, _) => return Err(unsupported(name)),
                    Edge::Leaf(l) => {
                        if let Some(i) = capture.iter().position(|c| Rc::ptr_eq(c, l)) {
                            let gi = gi.map(|g| as_dtype(g, l.dtype)).transpose()?;
                            captured[i] = match (captured[i].take(), gi) {
                                (Some(acc), Some(g)) => {
                                    let sl = Layout::contiguous(&l.shape);
                                    Some(bin(
                                        BinaryOp::Add,
                                        Arg::Tensor(&acc, &sl),
                                        Arg::Tensor(&g, &sl),
                                        &l.shape,
                                        l.dtype,
                                    )?)
                                }
                                (a, g) => a.or(g),
                            };
                        } else {
                            let gi = self.leaf_hooks(l, gi, hooks)?;
                            self.accumulate(l, gi)?
                        }
                    }
                    Edge::Node(c) => {
                        let gi = gi.map(|g| as_dtype(g, c.out_dtype)).transpose()?;
                        let sum = match (pending.remove(&key(c)), gi) {
                            (None, g) => g,
                            (Some(Some(acc)), Some(g)) => {
                                let l = Layout::contiguous(&c.out_shape);
                                Some(bin(
                                    BinaryOp::Add,
                                    Arg::Tensor(&acc, &l),
                                    Arg::Tensor(&g, &l),
                                    &c.out_shape,
                                    c.out_dtype,
                                )?)
                            }
                            _ => None,
                        };
                        pending.insert(key(c), sum);
                        let d = deps.get_mut(&key(c)).expect("counted");
                        *d -= 1;
                        if *d == 0 {
                            ready.push(c.clone());
                        }
                    }
                }
            }
        }
        Ok(captured)
    }

    /// The input gradients of a node whose backward is written with Tensor ops
    /// (backward_ops.rs), for plain backward: the same formulas with grad mode off, on `g`
    /// as a tensor, their results as buffers.
    fn formula_grads(&self, n: &Node, kind: &Kind, g: G) -> Result<Vec<Option<G>>> {
        self.with_grad_mode(false, || -> Result<Vec<Option<G>>> {
            let ts = match kind {
                Kind::BackwardOp { op, g: sg, y } => {
                    let gg = backward_ops::tensor_of_buffer(self, &n.out_shape, g, y.device())?;
                    let need = [
                        backward_ops::needs(n.edges.first()),
                        backward_ops::needs(n.edges.get(1)),
                    ];
                    self.backward_op_grads(*op, sg, y, &gg, need)?
                }
                Kind::ViewScatter {
                    base,
                    view,
                    view_name,
                    device,
                } => {
                    let gg = backward_ops::tensor_of_buffer(self, &n.out_shape, g, *device)?;
                    vec![Some(self.view_scatter_grad(base, view, view_name, &gg)?)]
                }
                _ => unreachable!("only formula nodes"),
            };
            ts.into_iter()
                .map(|t| t.map(|t| contiguous_of(&t, t.dtype())).transpose())
                .collect()
        })
    }

    /// A composite node's input gradients: its inner graph run from its root with `g`, the
    /// gradients of the inner leaves captured.
    fn run_composite(
        &self,
        root: &Edge,
        leaves: &[Option<Rc<Leaf>>],
        g: G,
        retain: bool,
        hooks: &mut HookFn<'_>,
    ) -> Result<Vec<Option<G>>> {
        let cap: Vec<Rc<Leaf>> = leaves.iter().flatten().cloned().collect();
        let got = match root {
            Edge::Node(n) => self.run_graph(n.clone(), Some(g), retain, &cap, hooks)?,
            Edge::Leaf(l) => cap
                .iter()
                .map(|c| Rc::ptr_eq(c, l).then(|| g.clone()))
                .collect(),
            Edge::Unsupported(name, _) => return Err(unsupported(name)),
            Edge::None => vec![None; cap.len()],
        };
        let mut got = got.into_iter();
        Ok(leaves
            .iter()
            .map(|l| {
                if l.is_some() {
                    got.next().flatten()
                } else {
                    None
                }
            })
            .collect())
    }

    /// The output of a custom `autograd.Function`: `out` (computed by its forward with grad
    /// mode off) as one node named `name` over `inputs`, whose backward is the Python code
    /// the bindings keep under `id`.
    pub(crate) fn function_finish(
        &self,
        name: &str,
        id: u64,
        inputs: &[Tensor],
        out: Tensor,
    ) -> Tensor {
        let name = intern_name(name);
        let mut o = out.detach();
        o.requires_grad = true;
        o.grad_fn = Some(name);
        let kind = Kind::Function {
            id,
            inputs: inputs
                .iter()
                .map(|t| t.requires_grad.then(|| (t.layout.shape.clone(), t.dtype())))
                .collect(),
            device: o.device(),
        };
        let edges: Vec<Edge> = inputs.iter().map(edge_of).collect();
        attach(&mut o, &edges, kind);
        o
    }

    /// The inputs a composite op computes on: detached handles of `inputs`, each a fresh leaf
    /// when its input requires grad (and grad mode is on).
    pub(crate) fn composite_inputs(&self, inputs: &[Tensor]) -> Vec<Tensor> {
        inputs
            .iter()
            .map(|t| {
                let mut d = t.detach();
                if t.requires_grad && self.grad_enabled() {
                    let _ = d.set_requires_grad(true);
                }
                d
            })
            .collect()
    }

    /// The output of a composite op: `out` (computed from `inner`, made by
    /// [`Runtime::composite_inputs`] from `inputs`) as one node named `name` whose inputs are
    /// `inputs`; `out` itself when it does not require grad.
    pub(crate) fn composite_finish(
        &self,
        name: &str,
        inputs: &[Tensor],
        inner: &[Tensor],
        out: Tensor,
    ) -> Tensor {
        let some = |ts: &[Tensor]| ts.iter().cloned().map(Some).collect::<Vec<_>>();
        self.composite_finish_optional(name, &some(inputs), &some(inner), out)
    }

    /// [`Runtime::composite_finish`] where an input may be absent (None: an optional tensor
    /// not given, which PyTorch's node lists as a None edge), `inner[i]` standing for
    /// `inputs[i]`.
    pub(crate) fn composite_finish_optional(
        &self,
        name: &str,
        inputs: &[Option<Tensor>],
        inner: &[Option<Tensor>],
        out: Tensor,
    ) -> Tensor {
        if !out.requires_grad || out.grad_fn.is_none() && out.leaf.is_none() {
            return out;
        }
        let name = intern_name(name);
        let mut o = out.detach();
        o.requires_grad = true;
        o.grad_fn = Some(name);
        let kind = Kind::Composite {
            root: edge_of(&out),
            leaves: inner
                .iter()
                .map(|t| t.as_ref().and_then(|t| t.leaf.clone()))
                .collect(),
        };
        let edges: Vec<Edge> = inputs
            .iter()
            .map(|t| t.as_ref().map_or(Edge::None, edge_of))
            .collect();
        attach(&mut o, &edges, kind);
        o
    }

    /// `out`, computed from `inputs` by several ops, as PyTorch's one node `name` over
    /// `inputs` (None: an absent optional tensor, a None edge): a node that passes its
    /// gradient on unchanged to `out`'s own graph, so backward (and its `create_graph` form)
    /// and the gradients' bits are those of the ops, while `grad_fn` and `next_functions`
    /// show PyTorch's node. `out` itself when it does not require grad.
    pub(crate) fn named_node(&self, name: &str, inputs: &[Option<Tensor>], out: Tensor) -> Tensor {
        if !out.requires_grad || !self.grad_enabled() {
            return out;
        }
        let mut o = out.detach();
        o.requires_grad = true;
        o.grad_fn = Some(intern_name(name));
        attach(&mut o, &[edge_of(&out)], Kind::Identity);
        if let Some(n) = o.node.as_mut().and_then(Rc::get_mut) {
            n.display = Some(
                inputs
                    .iter()
                    .map(|t| t.as_ref().map_or(Edge::None, edge_of))
                    .collect(),
            );
        }
        o
    }
}

/// What backward asks of the bindings, which keep the Python callables by id.
pub enum HookCall {
    /// A `register_hook` hook with the gradient reaching its tensor: the answer's first
    /// element, when Some, replaces it.
    Tensor(Tensor),
    /// A custom `autograd.Function`'s backward with its output's gradient: the answer is one
    /// gradient (or None) per input edge.
    Function(Tensor),
}

/// What backward calls for hooks and custom Functions: (id, call) -> the answer.
pub type HookFn<'a> = dyn FnMut(u64, HookCall) -> Result<Vec<Option<Tensor>>> + 'a;

/// A tensor hook's answer for a gradient of `shape`: its replacement, if it gave one, which
/// must keep the shape.
pub(crate) fn hook_replacement(
    answer: Vec<Option<Tensor>>,
    shape: &[usize],
) -> Result<Option<Tensor>> {
    match answer.into_iter().next().flatten() {
        Some(r) if r.layout.shape != shape => Err(EngineError::runtime(
            "hook 'hook' has changed the size of value".to_string(),
        )),
        r => Ok(r),
    }
}

/// A custom Function's answer (one gradient or None per input edge), checked against the
/// inputs' shapes and paired with their dtypes; None where an input takes no gradient.
pub(crate) fn function_answers(
    name: &str,
    inputs: &[Option<(Vec<usize>, DType)>],
    answers: Vec<Option<Tensor>>,
) -> Result<Vec<Option<(Tensor, DType)>>> {
    let mut answers = answers.into_iter();
    inputs
        .iter()
        .enumerate()
        .map(|(i, want)| match (want, answers.next().flatten()) {
            (Some((shape, dt)), Some(g)) => {
                check_function_grad(name, i, &g, shape)?;
                Ok(Some((g, *dt)))
            }
            _ => Ok(None),
        })
        .collect()
}

/// validate_outputs: a custom Function's gradient for input `i` must have the input's shape.
fn check_function_grad(name: &str, i: usize, g: &Tensor, want: &[usize]) -> Result<()> {
    if g.layout.shape == want {
        return Ok(());
    }
    Err(EngineError::runtime(format!(
        "Function {name} returned an invalid gradient at index {i} - got [{}] but expected shape compatible with [{}]",
        g.layout.shape.comma_separated(),
        want.comma_separated()
    )))
}

/// Backward reaching a node whose saved values an earlier backward freed.
fn freed_error() -> EngineError {
    EngineError::runtime(
        "Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.",
    )
}

/// A node whose backward has no Tensor-op form yet, reached with `create_graph=True`.
fn unsupported_create_graph(name: &str) -> EngineError {
    EngineError::not_implemented(format!(
        "cudatutor's autograd cannot compute gradients with create_graph=True through {name} yet"
    ))
}

fn unsupported(name: &str) -> EngineError {
    EngineError::not_implemented(format!(
        "cudatutor's autograd cannot compute gradients through {name} yet"
    ))
}
