//! Backward that records a graph (`create_graph=True`, and `torch.autograd.grad` with
//! respect to non-leaf tensors): gradients travel between nodes as Tensors, and each node's
//! formula is computed with Tensor ops (the ops a script calls), so with grad mode on the
//! gradients get grad_fns of their own and can be differentiated again.
//!
//! The formulas are mod.rs's buffer formulas op for op (the same kernels in the same order,
//! so the same bits: tests/torch fixtures check it against PyTorch); saved values are linked
//! back to their graph (a saved input to its input's edge, a saved result to the node
//! itself) as PyTorch's SavedVariable unpacks them. Ops whose backward is a fused kernel
//! (tanh, sigmoid, relu, softmax) go through backward_ops.rs.

use super::backward_ops::{BackOp, needs};
use super::{
    Edge, HookCall, HookFn, Kind, Leaf, Node, function_answers, hook_replacement, unsupported,
    unsupported_create_graph,
};
use crate::engine::dtype::{DType, Scalar};
use crate::engine::error::{EngineError, Result};
use crate::engine::runtime::Runtime;
use crate::engine::tensor::{BinaryOp, Operand, Tensor, UnaryOp};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// A saved value (a detached handle) linked back to the graph through `e`.
fn relink(saved: &Tensor, e: &Edge) -> Tensor {
    let mut t = saved.detach();
    match e {
        Edge::None => {}
        Edge::Leaf(l) => {
            t.requires_grad = true;
            t.leaf = Some(l.clone());
        }
        Edge::Node(n) => {
            t.requires_grad = true;
            t.grad_fn = Some(n.name);
            t.node = Some(n.clone());
        }
        Edge::Unsupported(name, node) => {
            t.requires_grad = true;
            t.grad_fn = Some(name);
            t.node = node.clone();
        }
    }
    t
}

/// Gradient `g` of a tensor of `shape` after its `register_hook` hooks `ids`, each seeing the
/// gradient so far and maybe replacing it.
fn run_hooks(
    ids: &[u64],
    shape: &[usize],
    mut g: Tensor,
    hooks: &mut HookFn<'_>,
) -> Result<Tensor> {
    for &id in ids {
        if let Some(r) = hook_replacement(hooks(id, HookCall::Tensor(g.clone()))?, shape)? {
            g = r;
        }
    }
    Ok(g)
}

fn op(t: &Tensor) -> Operand {
    Operand::Tensor(t.clone())
}

fn int(v: i64) -> Operand {
    Operand::Scalar(Scalar::Int(v))
}

fn fl(v: f64) -> Operand {
    Operand::Scalar(Scalar::Float(v))
}

/// What a graph run collects: the gradients reaching `targets` (leaves or nodes), or
/// (None) everything added into the leaves' `.grad`.
struct Run<'a> {
    targets: Option<&'a [Edge]>,
    retain: bool,
    create: bool,
}

fn edge_key(e: &Edge) -> Option<usize> {
    match e {
        Edge::Leaf(l) => Some(Rc::as_ptr(l) as *const u8 as usize),
        Edge::Node(n) => Some(Rc::as_ptr(n) as *const u8 as usize),
        _ => None,
    }
}

fn node_key(n: &Rc<Node>) -> usize {
    Rc::as_ptr(n) as *const u8 as usize
}

impl Runtime {
    /// `t.backward(gradient, retain_graph, create_graph=True)`: the leaves' `.grad` get
    /// gradients that have a graph (the first a copy, `CopyBackwards`; later ones added
    /// out of place, `AddBackward0`), as PyTorch's AccumulateGrad does under create_graph.
    pub(crate) fn backward_create_graph(
        &self,
        t: &Tensor,
        gradient: Option<&Tensor>,
        retain: bool,
        hooks: &mut HookFn<'_>,
    ) -> Result<()> {
        let hint = t.device().cuda_index();
        let seed = self
            .root_seed(t, gradient, 0)
            .map_err(|e| self.host_error("backward", hint, e))?;
        let run = Run {
            targets: None,
            retain,
            create: true,
        };
        // the device work, modelled as one kernel as plain backward's
        match t.device() {
            crate::engine::device::Device::Cuda(i) => self.launch(
                "backward",
                i,
                crate::engine::timing::Cost::new(4 * t.nbytes() as u64 + 4096, 0),
                Vec::new(),
            )?,
            _ => self.cpu_op("backward", crate::engine::timing::Cost::new(4096, 0)),
        }
        self.with_grad_mode(run.create, || {
            self.graph_run(&[(super::edge_of(t), seed)], &run, hooks)
        })
        .map(|_| ())
    }

    /// `torch.autograd.grad(outputs, inputs, grad_outputs, retain_graph, create_graph)`:
    /// the gradients reaching each input (None where none does); `.grad` is left alone.
    pub(crate) fn autograd_grad(
        &self,
        outputs: &[(Tensor, Option<Tensor>)],
        inputs: &[Tensor],
        retain: bool,
        create: bool,
        hooks: &mut HookFn<'_>,
    ) -> Result<Vec<Option<Tensor>>> {
        let mut roots = Vec::with_capacity(outputs.len());
        for (i, (t, g)) in outputs.iter().enumerate() {
            if !t.requires_grad {
                return Err(EngineError::runtime(format!(
                    "element {i} of tensors does not require grad and does not have a grad_fn"
                )));
            }
            roots.push((super::edge_of(t), self.root_seed(t, g.as_ref(), i)?));
        }
        let mut targets = Vec::with_capacity(inputs.len());
        for t in inputs {
            let e = super::edge_of(t);
            if matches!(e, Edge::None) {
                return Err(EngineError::runtime(
                    "One of the differentiated Tensors does not require grad",
                ));
            }
            targets.push(e);
        }
        let run = Run {
            targets: Some(&targets),
            retain,
            create,
        };
        self.with_grad_mode(run.create, || self.graph_run(&roots, &run, hooks))
    }

    /// The gradient backward starts from at output `i`: `gradient`, or ones for a
    /// one-element output.
    fn root_seed(&self, t: &Tensor, gradient: Option<&Tensor>, i: usize) -> Result<Tensor> {
        if !t.requires_grad {
            return Err(EngineError::runtime(
                "element 0 of tensors does not require grad and does not have a grad_fn",
            ));
        }
        match gradient {
            None if t.numel() != 1 => Err(EngineError::runtime(
                "grad can be implicitly created only for scalar outputs",
            )),
            None => self.ones(t.shape(), Some(t.dtype()), t.device()),
            Some(g) => {
                if g.layout.shape != t.layout.shape {
                    return Err(EngineError::runtime(format!(
                        "Mismatch in shape: grad_output[{i}] has a shape of {} and output[{i}] has a shape of {}.",
                        crate::engine::tensor::size_repr(&g.layout.shape),
                        crate::engine::tensor::size_repr(&t.layout.shape)
                    )));
                }
                Ok(g.clone())
            }
        }
    }

    /// Run backward from `roots` (with grad mode set to `run.create` by the callers).
    fn graph_run(
        &self,
        roots: &[(Edge, Tensor)],
        run: &Run<'_>,
        hooks: &mut HookFn<'_>,
    ) -> Result<Vec<Option<Tensor>>> {
        let targets = run.targets;
        let target_of = |e: &Edge| -> Option<usize> {
            let k = edge_key(e)?;
            targets?.iter().position(|t| edge_key(t) == Some(k))
        };
        let mut captured: Vec<Option<Tensor>> = vec![None; targets.map_or(0, |t| t.len())];
        // the nodes reachable from the roots, parents before children (Kahn's order)
        let mut nodes: HashMap<usize, Rc<Node>> = HashMap::new();
        let mut deps: HashMap<usize, usize> = HashMap::new();
        let mut stack: Vec<Rc<Node>> = Vec::new();
        for (e, _) in roots {
            if let Edge::Node(n) = e
                && nodes.insert(node_key(n), n.clone()).is_none()
            {
                stack.push(n.clone());
            }
        }
        let mut unsupported_seen: Option<&'static str> = None;
        while let Some(n) = stack.pop() {
            for e in &n.edges {
                match e {
                    Edge::Node(c) => {
                        *deps.entry(node_key(c)).or_insert(0) += 1;
                        if nodes.insert(node_key(c), c.clone()).is_none() {
                            stack.push(c.clone());
                        }
                    }
                    Edge::Unsupported(name, _) => {
                        unsupported_seen.get_or_insert(name);
                    }
                    _ => {}
                }
            }
        }
        let mut order: Vec<Rc<Node>> = Vec::with_capacity(nodes.len());
        {
            let mut left = deps.clone();
            let mut ready: Vec<Rc<Node>> = nodes
                .values()
                .filter(|n| !left.contains_key(&node_key(n)))
                .cloned()
                .collect();
            while let Some(n) = ready.pop() {
                for e in &n.edges {
                    if let Edge::Node(c) = e {
                        let d = left.get_mut(&node_key(c)).expect("counted");
                        *d -= 1;
                        if *d == 0 {
                            ready.push(c.clone());
                        }
                    }
                }
                order.push(n);
            }
        }
        // which nodes run: all for backward; for grad, those leading to an input (a node
        // that is itself an input only hands its gradient over)
        let mut execute: HashSet<usize> = HashSet::new();
        let mut needed: HashSet<usize> = HashSet::new();
        for n in order.iter().rev() {
            let k = node_key(n);
            let ex = targets.is_none()
                || n.edges.iter().any(|e| match e {
                    Edge::Leaf(_) => target_of(e).is_some(),
                    Edge::Node(c) => needed.contains(&node_key(c)),
                    _ => false,
                });
            if ex {
                execute.insert(k);
                needed.insert(k);
            }
            if target_of(&Edge::Node(n.clone())).is_some() {
                needed.insert(k);
            }
        }
        // dependency counts among the nodes that run
        let mut deps: HashMap<usize, usize> = HashMap::new();
        for n in &order {
            if !execute.contains(&node_key(n)) {
                continue;
            }
            for e in &n.edges {
                if let Edge::Node(c) = e
                    && needed.contains(&node_key(c))
                {
                    *deps.entry(node_key(c)).or_insert(0) += 1;
                }
            }
        }
        let mut pending: HashMap<usize, Tensor> = HashMap::new();
        let mut ready = super::ready::ReadyQueue::default();
        for (e, g) in roots {
            match e {
                Edge::Node(n) => {
                    let k = node_key(n);
                    if !needed.contains(&k) {
                        continue;
                    }
                    let sum = match pending.remove(&k) {
                        Some(acc) => self.add(&op(&acc), &op(g))?,
                        None => g.clone(),
                    };
                    pending.insert(k, sum);
                    if !deps.contains_key(&k) && !ready.contains(n) {
                        ready.push(n.clone());
                    }
                }
                Edge::Leaf(_) => {
                    self.deliver(e, Some(g.clone()), run, &target_of, &mut captured, hooks)?
                }
                Edge::Unsupported(name, _) => return Err(unsupported(name)),
                Edge::None => {}
            }
        }
        while let Some(n) = ready.pop() {
            let k = node_key(&n);
            let Some(mut g) = pending.remove(&k) else {
                continue;
            };
            // the output's own hooks first (retain_grad's capture runs last, as in PyTorch)
            let ids: Vec<u64> = n.hooks.borrow().iter().map(|h| h.0).collect();
            g = run_hooks(&ids, &n.out_shape, g, hooks)?;
            if let Some(i) = target_of(&Edge::Node(n.clone())) {
                captured[i] = Some(g.clone());
            }
            if let Some(l) = n.retained.borrow().clone()
                && targets.is_none()
            {
                self.accumulate_tensor(&l, g.clone(), run.create)?;
            }
            if !execute.contains(&k) {
                continue;
            }
            let kind = {
                let keep = run.retain || n.kind.borrow().as_ref().is_some_and(|k| !k.holds_saved());
                if keep {
                    n.kind.borrow().clone()
                } else {
                    n.kind.borrow_mut().take()
                }
            };
            let Some(kind) = kind else {
                return Err(super::freed_error());
            };
            let g = if g.dtype() != n.out_dtype {
                self.to_dtype_tensor(&g, n.out_dtype)?
            } else {
                g
            };
            let grads = self.tensor_input_grads(&n, &kind, g, run, hooks)?;
            for (e, gi) in n
                .edges
                .iter()
                .zip(grads.into_iter().chain(std::iter::repeat(None)))
            {
                match e {
                    Edge::None => {}
                    Edge::Unsupported(name, _) => {
                        if gi.is_some() {
                            return Err(unsupported(name));
                        }
                    }
                    Edge::Leaf(_) => self.deliver(e, gi, run, &target_of, &mut captured, hooks)?,
                    Edge::Node(c) => {
                        let ck = node_key(c);
                        if !needed.contains(&ck) {
                            continue;
                        }
                        if let Some(gi) = gi {
                            let gi = if gi.dtype() != c.out_dtype {
                                self.to_dtype_tensor(&gi, c.out_dtype)?
                            } else {
                                gi
                            };
                            let sum = match pending.remove(&ck) {
                                Some(acc) => self.add(&op(&acc), &op(&gi))?,
                                None => gi,
                            };
                            pending.insert(ck, sum);
                        }
                        let d = deps.get_mut(&ck).expect("counted");
                        *d -= 1;
                        if *d == 0 {
                            ready.push(c.clone());
                        }
                    }
                }
            }
        }
        if let (Some(_), Some(name)) = (targets, unsupported_seen)
            && captured.iter().any(|c| c.is_none())
        {
            return Err(unsupported(name));
        }
        Ok(captured)
    }

    /// A gradient reaching leaf edge `e`: captured when it is an input of grad, added into
    /// `.grad` by backward (after the leaf's hooks).
    fn deliver(
        &self,
        e: &Edge,
        g: Option<Tensor>,
        run: &Run<'_>,
        target_of: &dyn Fn(&Edge) -> Option<usize>,
        captured: &mut [Option<Tensor>],
        hooks: &mut HookFn<'_>,
    ) -> Result<()> {
        let Edge::Leaf(l) = e else { return Ok(()) };
        let Some(mut g) = g else { return Ok(()) };
        if g.dtype() != l.dtype {
            g = self.to_dtype_tensor(&g, l.dtype)?;
        }
        if let Some(i) = target_of(e) {
            captured[i] = Some(match captured[i].take() {
                Some(acc) => self.add(&op(&acc), &op(&g))?,
                None => g,
            });
            return Ok(());
        }
        if run.targets.is_some() {
            return Ok(());
        }
        let ids: Vec<u64> = l.hooks.borrow().clone();
        let g = run_hooks(&ids, &l.shape, g, hooks)?;
        self.accumulate_tensor(l, g, run.create)
    }

    /// AccumulateGrad with a Tensor gradient: `.grad` becomes a copy of it (CopyBackwards
    /// when it has a graph), or `.grad + g` out of place.
    fn accumulate_tensor(&self, leaf: &Leaf, g: Tensor, create: bool) -> Result<()> {
        let old = leaf.grad.borrow_mut().take();
        let new = match old {
            None => {
                let c = self.copy_to(&g, leaf.dtype, leaf.device, false)?;
                let c = if g.requires_grad && create {
                    let mut c = c;
                    c.requires_grad = true;
                    c.grad_fn = Some("CopyBackwards");
                    super::attach(&mut c, &[super::edge_of(&g)], Kind::Identity);
                    c
                } else {
                    c
                };
                if c.layout.shape != leaf.shape {
                    return Err(EngineError::runtime(
                        "internal: a gradient's shape does not match its leaf",
                    ));
                }
                c
            }
            Some(old) => self.add(&op(&old), &op(&g))?,
        };
        *leaf.grad.borrow_mut() = Some(new);
        Ok(())
    }

    /// `t.to(dt)` (ToCopyBackward0 when it has a graph).
    fn to_dtype_tensor(&self, t: &Tensor, dt: DType) -> Result<Tensor> {
        let mut c = self.copy_to(t, dt, t.device(), false)?;
        if t.requires_grad && self.grad_enabled() && dt.is_floating_point() {
            c.requires_grad = true;
            c.grad_fn = Some("ToCopyBackward0");
            super::attach(&mut c, &[super::edge_of(t)], Kind::Identity);
        }
        Ok(c)
    }

    /// `sum_to(g, to)` with Tensor ops (ATen's: one sum over the leading dims and the dims
    /// `to` broadcasts, keepdim, then a view dropping the leading ones).
    fn sum_to_tensor(&self, g: Tensor, to: &[usize]) -> Result<Tensor> {
        let from = g.layout.shape.clone();
        if from == to {
            return Ok(g);
        }
        let lead = from.len() - to.len().min(from.len());
        let dims: Vec<i64> = (0..from.len())
            .filter(|&k| k < lead || (to[k - lead] == 1 && from[k] != 1))
            .map(|k| k as i64)
            .collect();
        if dims.is_empty() {
            return Ok(g);
        }
        let s = self.sum(&g, Some(&dims), true, None)?;
        if lead > 0 {
            let shape: Vec<i64> = to.iter().map(|&d| d as i64).collect();
            self.reshape(&s, &shape)
        } else {
            Ok(s)
        }
    }

    /// A node's input gradients with Tensor ops (see the module docs).
    fn tensor_input_grads(
        &self,
        n: &Rc<Node>,
        kind: &Kind,
        g: Tensor,
        run: &Run<'_>,
        hooks: &mut HookFn<'_>,
    ) -> Result<Vec<Option<Tensor>>> {
        let edge = |i: usize| n.edges.get(i).cloned().unwrap_or(Edge::None);
        let need = |i: usize| needs(n.edges.get(i));
        let rel = |t: &Tensor, i: usize| relink(t, &edge(i));
        let rel_op = |o: &Operand, i: usize| match o {
            Operand::Tensor(t) => Operand::Tensor(rel(t, i)),
            s => s.clone(),
        };
        let shape_of = |o: &Operand| match o {
            Operand::Tensor(t) => Some(t.layout.shape.clone()),
            Operand::Scalar(_) => None,
        };
        Ok(match kind {
            Kind::Identity => vec![Some(g)],
            Kind::AddSub(sub_, a, b, alpha) => {
                let gb = match b {
                    Some(bs) if need(1) => {
                        let mut v = if *sub_ {
                            self.unary(UnaryOp::Neg, &g)?
                        } else {
                            g.clone()
                        };
                        if let Some(al) = alpha {
                            v = self.mul(&op(&v), &Operand::Scalar(*al))?;
                        }
                        Some(self.sum_to_tensor(v, bs)?)
                    }
                    _ => None,
                };
                let ga = match a {
                    Some(s) if need(0) => Some(self.sum_to_tensor(g, s)?),
                    _ => None,
                };
                vec![ga, gb]
            }
            Kind::Binary(bop, a, b) => {
                let (ar, br) = (rel_op(a, 0), rel_op(b, 1));
                let gt = op(&g);
                let (ga, gb) = match bop {
                    BinaryOp::Mul => (
                        need(0).then(|| self.mul(&gt, &br)).transpose()?,
                        need(1).then(|| self.mul(&gt, &ar)).transpose()?,
                    ),
                    BinaryOp::Div => (
                        need(0).then(|| self.div(&gt, &br)).transpose()?,
                        need(1)
                            .then(|| -> Result<Tensor> {
                                let q = self.div(&ar, &br)?;
                                let q = self.div(&op(&q), &br)?;
                                let ng = self.unary(UnaryOp::Neg, &g)?;
                                self.mul(&op(&ng), &op(&q))
                            })
                            .transpose()?,
                    ),
                    BinaryOp::Pow => (
                        need(0)
                            .then(|| self.pow_self_grad_t(&g, &ar, &br))
                            .transpose()?,
                        need(1)
                            .then(|| self.pow_exp_grad_t(&g, &ar, &br))
                            .transpose()?,
                    ),
                    // maximum: where(self == other, grad / 2, grad).masked_fill_(self < other,
                    // 0), other: the same masked where self > other (minimum: the comparisons
                    // swapped), mod.rs's steps as Tensor ops
                    BinaryOp::Maximum | BinaryOp::Minimum => {
                        let (lose_a, lose_b) = if *bop == BinaryOp::Maximum {
                            (BinaryOp::Lt, BinaryOp::Gt)
                        } else {
                            (BinaryOp::Gt, BinaryOp::Lt)
                        };
                        let side = |cmp: BinaryOp| -> Result<Tensor> {
                            let half = self.div(&gt, &int(2))?;
                            let eq = self.binary(BinaryOp::Eq, &ar, &br)?;
                            let t = self.where_(&eq, &op(&half), &gt)?;
                            let m = self.binary(cmp, &ar, &br)?;
                            self.masked_fill(&t, &m, Scalar::Float(0.0))
                        };
                        (
                            need(0).then(|| side(lose_a)).transpose()?,
                            need(1).then(|| side(lose_b)).transpose()?,
                        )
                    }
                    _ => return Err(unsupported_create_graph(n.name)),
                };
                let to = |o: &Operand, v: Option<Tensor>| -> Result<Option<Tensor>> {
                    match (shape_of(o), v) {
                        (Some(s), Some(v)) => Ok(Some(self.sum_to_tensor(v, &s)?)),
                        _ => Ok(None),
                    }
                };
                vec![to(a, ga)?, to(b, gb)?]
            }
            // mod.rs's Kind::Ternary steps as Tensor ops (derivatives.yaml: addcmul, addcdiv,
            // lerp)
            Kind::Ternary {
                op: top,
                a,
                b,
                c,
                value,
            } => {
                use crate::engine::op::TernaryOp;
                let (ar, br, cr) = (rel_op(a, 0), rel_op(b, 1), rel_op(c, 2));
                let gt = op(&g);
                let sv = Operand::Scalar(*value);
                let times = |x: &Operand| self.mul(&gt, x);
                // input i's gradient, computed only when it is needed
                let grad_of =
                    |i: usize, f: &dyn Fn() -> Result<Tensor>| need(i).then(f).transpose();
                let (ga, gb, gc) = match top {
                    TernaryOp::Addcmul => (
                        need(0).then(|| g.clone()),
                        grad_of(1, &|| times(&op(&self.mul(&cr, &sv)?)))?,
                        grad_of(2, &|| times(&op(&self.mul(&br, &sv)?)))?,
                    ),
                    TernaryOp::Addcdiv => (
                        need(0).then(|| g.clone()),
                        grad_of(1, &|| times(&op(&self.div(&sv, &cr)?)))?,
                        grad_of(2, &|| {
                            let num = self.mul(&br, &sv)?;
                            let den = self.mul(&cr, &cr)?;
                            let q = self.div(&op(&num), &op(&den))?;
                            let ng = self.unary(UnaryOp::Neg, &g)?;
                            self.mul(&op(&ng), &op(&q))
                        })?,
                    ),
                    TernaryOp::Lerp => (
                        grad_of(0, &|| match c {
                            // grad * (1 - weight.toDouble()): the difference in double
                            Operand::Scalar(w) => times(&fl(1.0 - w.as_f64())),
                            Operand::Tensor(_) => times(&op(&self.sub(&int(1), &cr)?)),
                        })?,
                        grad_of(1, &|| times(&cr))?,
                        grad_of(2, &|| times(&op(&self.sub(&br, &ar)?)))?,
                    ),
                };
                let to = |o: &Operand, v: Option<Tensor>| -> Result<Option<Tensor>> {
                    match (shape_of(o), v) {
                        (Some(s), Some(v)) => Ok(Some(self.sum_to_tensor(v, &s)?)),
                        _ => Ok(None),
                    }
                };
                let mut v = vec![to(a, ga)?, to(b, gb)?];
                if matches!(c, Operand::Tensor(_)) {
                    v.push(to(c, gc)?);
                }
                v
            }
            Kind::Unary(u, x, y) => {
                let x = rel(x, 0);
                let y = relink(y, &Edge::Node(n.clone()));
                let alg = super::unary_grad::Tensors {
                    rt: self,
                    input: x,
                    result: y,
                    g: &g,
                    name: n.name,
                };
                vec![Some(u.backward(&alg)?)]
            }
            Kind::Reduce {
                in_shape,
                reduced,
                mean,
            } => {
                let count = super::reduced_count(in_shape, reduced);
                let kept: Vec<i64> = (0..in_shape.len())
                    .map(|i| if reduced[i] { 1 } else { in_shape[i] as i64 })
                    .collect();
                let full: Vec<i64> = in_shape.iter().map(|&d| d as i64).collect();
                let e = self.reshape(&g, &kept)?.expand(&full)?;
                vec![Some(if *mean {
                    self.div(&op(&e), &int(count as i64))?
                } else {
                    e
                })]
            }
            Kind::Mm(a, b, bias) => {
                let ga = need(0).then(|| self.mm(&g, &rel(b, 1).t()?)).transpose()?;
                let gb = need(1).then(|| self.mm(&rel(a, 0).t()?, &g)).transpose()?;
                let mut v = vec![ga, gb];
                if let Some(bs) = bias {
                    v.push(if need(2) {
                        Some(self.sum_to_tensor(g, bs)?)
                    } else {
                        None
                    });
                }
                v
            }
            Kind::View(base, view) => vec![Some(self.view_scatter(n, base, view, &g)?)],
            Kind::ViewScatter {
                base,
                view,
                view_name,
                ..
            } => vec![Some(self.view_scatter_grad(base, view, view_name, &g)?)],
            Kind::BackwardOp { op: bo, g: sg, y } => {
                let (sg, y) = (rel(sg, 0), rel(y, 1));
                self.backward_op_grads(*bo, &sg, &y, &g, [need(0), need(1)])?
            }
            Kind::Softmax { dim, out, log } => {
                let y = relink(out, &Edge::Node(n.clone()));
                vec![Some(self.backward_op(
                    BackOp::Softmax {
                        dim: *dim,
                        log: *log,
                    },
                    &g,
                    &y,
                )?)]
            }
            // where(condition, grad, 0), where(condition, 0, grad), each summed to its shape
            Kind::Where { cond, a, b } => {
                let zero = fl(0.0);
                let ga = match a {
                    Some(s) if need(0) => {
                        let w = self.where_(cond, &op(&g), &zero)?;
                        Some(self.sum_to_tensor(w, s)?)
                    }
                    _ => None,
                };
                let gb = match b {
                    Some(s) if need(1) => {
                        let w = self.where_(cond, &zero, &op(&g))?;
                        Some(self.sum_to_tensor(w, s)?)
                    }
                    _ => None,
                };
                vec![ga, gb]
            }
            Kind::Clamp { x, min, max } => {
                let mut r = g;
                // strictly inside the bounds, as the buffer pass (autograd/mod.rs)
                for (bound, cmp) in [(min, BinaryOp::Gt), (max, BinaryOp::Lt)] {
                    let Some(bv) = bound else { continue };
                    let m = self.binary(cmp, &op(x), &Operand::Scalar(*bv))?;
                    r = self.where_(&m, &op(&r), &fl(0.0))?;
                }
                vec![Some(r)]
            }
            // cat_tensors_backward: each input's slab of the gradient (grad.narrow)
            Kind::Cat { dim, parts } => {
                let mut v = Vec::with_capacity(parts.len());
                for part in parts {
                    match part {
                        Some((in_shape, at)) => {
                            let len = in_shape[*dim] as i64;
                            let at = *at as i64;
                            v.push(Some(g.slice(*dim as i64, Some(at), Some(at + len), 1)?));
                        }
                        None => v.push(None),
                    }
                }
                v
            }
            // Python code: with create_graph its Tensor ops record their own graph
            Kind::Function { id, inputs, .. } => {
                let answers = hooks(*id, HookCall::Function(g))?;
                function_answers(n.name, inputs, answers)?
                    .into_iter()
                    .map(|a| a.map(|(g, _)| g))
                    .collect()
            }
            // the inner graph's saved values are linked to its own leaves, not to this node's
            // inputs: its gradients would have no way back to them
            Kind::Composite { .. } if run.create => return Err(unsupported_create_graph(n.name)),
            Kind::Composite { root, leaves } => {
                let ts: Vec<Edge> = leaves
                    .iter()
                    .flatten()
                    .map(|l| Edge::Leaf(l.clone()))
                    .collect();
                let inner = Run {
                    targets: Some(&ts),
                    retain: run.retain,
                    create: false,
                };
                let got = self.graph_run(&[(root.clone(), g)], &inner, hooks)?;
                let mut got = got.into_iter();
                leaves
                    .iter()
                    .map(|l| {
                        if l.is_some() {
                            got.next().flatten()
                        } else {
                            None
                        }
                    })
                    .collect()
            }
            _ => return Err(unsupported_create_graph(n.name)),
        })
    }

    /// pow_backward: grad * (exponent * self.pow(exponent - 1)) (zeros for exponent 0);
    /// with a tensor exponent, where(exponent == 0, 0, grad * (exponent * self.pow(exponent
    /// - 1))).
    fn pow_self_grad_t(&self, g: &Tensor, a: &Operand, b: &Operand) -> Result<Tensor> {
        match b {
            Operand::Scalar(s) => {
                let e = s.as_f64();
                if e == 0.0 {
                    return self.zeros(g.shape(), Some(g.dtype()), g.device());
                }
                let p = self.binary(BinaryOp::Pow, a, &fl(e - 1.0))?;
                let t = self.mul(&fl(e), &op(&p))?;
                self.mul(&op(g), &op(&t))
            }
            Operand::Tensor(_) => {
                let e1 = self.sub(b, &int(1))?;
                let p = self.binary(BinaryOp::Pow, a, &op(&e1))?;
                let t = self.mul(b, &op(&p))?;
                let t = self.mul(&op(g), &op(&t))?;
                let zero = self.binary(BinaryOp::Eq, b, &fl(0.0))?;
                self.where_(&zero, &fl(0.0), &op(&t))
            }
        }
    }

    /// pow_backward_exponent: grad * where(self == 0 & exponent >= 0, 0, result * self.log()).
    fn pow_exp_grad_t(&self, g: &Tensor, a: &Operand, b: &Operand) -> Result<Tensor> {
        let result = self.binary(BinaryOp::Pow, a, b)?;
        let la = match a {
            Operand::Tensor(t) => self.unary(UnaryOp::Log, t)?,
            Operand::Scalar(s) => {
                let f = self.full(
                    g.shape(),
                    Scalar::Float(s.as_f64()),
                    Some(g.dtype()),
                    g.device(),
                )?;
                self.unary(UnaryOp::Log, &f)?
            }
        };
        let t = self.mul(&op(&result), &op(&la))?;
        let z = self.binary(BinaryOp::Eq, a, &fl(0.0))?;
        let nn = self.binary(BinaryOp::Ge, b, &fl(0.0))?;
        let cond = self.binary(BinaryOp::LogicalAnd, &op(&z), &op(&nn))?;
        let t = self.where_(&cond, &fl(0.0), &op(&t))?;
        self.mul(&op(g), &op(&t))
    }
}
