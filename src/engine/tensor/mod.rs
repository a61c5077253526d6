//! Tensor, its storage, and the ops' front halves. Storage is shared (views alias it
//! through their [`Layout`]); a CUDA storage owns an allocator block, returned when the last
//! view drops, so the allocator counters follow Rust drops (and so CPython refcounts)
//! exactly.
//!
//! Values are typed buffers on a device ([`DeviceStorage`]); a storage without values is a
//! *phantom*: meta tensors, CUDA tensors whose values would not fit the host memory limit,
//! and anything computed from those. Their memory is counted, reading them raises
//! NotImplementedError.

pub(crate) mod autograd;
mod bmm_grad;
mod conv;
mod create;
mod extra;
mod front;
mod index;
pub(crate) mod loss;
mod matmul_fold;
mod nn;
mod ops;
mod provenance_notes;
mod random_ops;
mod raw;
mod strided;

pub use super::op::{BinaryOp, Reduction, UnaryOp};
pub use autograd::{HookCall, HookFn};
pub use conv::{Conv2dArgs, Pool2dArgs};
pub use create::{dtype_of_type_name, infer_dtype, tensor_type_name};
pub use index::TensorIndex;
pub use loss::LossOp;
pub use ops::Operand;
pub use random_ops::SharedGenerator;
pub(crate) use raw::{MAX_F64_ELEMENTS, batched, broadcast_values};

use super::backend::BackendStorage;
use super::device::Device;
use super::dtype::{DType, Scalar};
use super::error::{EngineError, Result};
use super::host::HostStorage;
pub(crate) use super::layout::{Layout, contiguous_strides, for_each_offset};
use super::runtime::CudaBlock;
use super::storage::DeviceStorage;
use std::cell::RefCell;
use std::rc::Rc;

#[allow(dead_code)]
pub(crate) struct Storage {
    /// The values; None when they are not kept (a phantom: see [`Tensor::is_phantom`]).
    pub data: RefCell<Option<DeviceStorage>>,
    pub numel: usize,
    pub dtype: DType,
    pub device: Device,
    pub pinned: bool,
    pub _block: Option<CudaBlock>,
    /// This storage's share of the runtime's host-memory budget (None for phantoms and
    /// backward's temporaries).
    pub _host: Option<super::hostmem::HostBytes>,
    /// Allocated under `torch.inference_mode()` (its views share the flag, as in PyTorch).
    pub inference: bool,
    /// Where the values came from, for `run --explain` (see provenance.rs).
    pub provenance: super::provenance::Provenance,
}

/// A tensor handle: cloning shares storage *and* is a new handle (like a second Python name
/// for the same tensor the bindings keep their own Rc for identity).
#[derive(Clone)]
pub struct Tensor {
    pub(crate) storage: Rc<Storage>,
    /// Where this view's elements sit in `storage`.
    pub(crate) layout: Layout,
    pub(crate) requires_grad: bool,
    pub(crate) grad_fn: Option<&'static str>,
    /// The backward node of a differentiable op's output (see autograd.rs).
    pub(crate) node: Option<Rc<autograd::Node>>,
    /// `.grad` of a leaf that requires grad, shared by all its handles.
    pub(crate) leaf: Option<Rc<autograd::Leaf>>,
}

impl std::fmt::Debug for Tensor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Tensor(shape={:?}, dtype={}, device={})",
            self.layout.shape,
            self.dtype(),
            self.device()
        )
    }
}

/// `torch.Size([10, 5])`.
pub fn size_repr(shape: &[usize]) -> String {
    format!("torch.Size([{}])", shape.comma_separated())
}

/// A list written as PyTorch's messages and reprs write sizes, strides and index lists inside
/// their brackets: `2, 3, 4` (the brackets are the caller's, as they differ by message).
pub(crate) trait CommaSeparated {
    fn comma_separated(&self) -> String;
}

impl<T: std::fmt::Display> CommaSeparated for [T] {
    fn comma_separated(&self) -> String {
        self.iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl Tensor {
    pub fn shape(&self) -> &[usize] {
        &self.layout.shape
    }
    pub fn strides(&self) -> &[usize] {
        &self.layout.strides
    }
    pub(crate) fn storage_offset(&self) -> usize {
        self.layout.offset
    }
    pub fn dim(&self) -> usize {
        self.layout.shape.len()
    }
    pub fn numel(&self) -> usize {
        // An empty tensor's other dims may multiply past usize ([2**31, 0, 2**40] permuted
        // to [2**31, 2**40, 0]); a non-empty one's cannot (checked at creation).
        if self.layout.shape.contains(&0) {
            0
        } else {
            self.layout.shape.iter().product()
        }
    }
    /// `size(d)` with a negative `d` allowed.
    pub fn size(&self, d: i64) -> Result<usize> {
        let d = wrap_dim(d, self.dim())?;
        Ok(self.layout.shape[d])
    }
    pub fn dtype(&self) -> DType {
        self.storage.dtype
    }
    pub fn device(&self) -> Device {
        self.storage.device
    }
    pub fn is_cuda(&self) -> bool {
        self.device().is_cuda()
    }
    pub(crate) fn is_meta(&self) -> bool {
        self.device() == Device::Meta
    }
    pub fn is_pinned(&self) -> bool {
        self.storage.pinned
    }
    pub fn requires_grad(&self) -> bool {
        self.requires_grad
    }
    /// `requires_grad_()` / setting `.requires_grad` (only floating tensors may).
    pub fn set_requires_grad(&mut self, on: bool) -> Result<()> {
        if on && !self.dtype().is_floating_point() {
            return Err(EngineError::runtime(
                "only Tensors of floating point and complex dtype can require gradients",
            ));
        }
        if !on && self.grad_fn.is_some() {
            return Err(EngineError::runtime(
                "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().",
            ));
        }
        self.requires_grad = on;
        if !on {
            self.leaf = None;
        } else if self.leaf.is_none() && self.grad_fn.is_none() {
            self.leaf = Some(self.new_grad_holder());
        }
        Ok(())
    }
    /// An empty `.grad` slot of this tensor's shape, dtype and device, with no hooks: a
    /// leaf's own, or the one `retain_grad` gives a non-leaf.
    fn new_grad_holder(&self) -> Rc<autograd::Leaf> {
        Rc::new(autograd::Leaf {
            grad: RefCell::new(None),
            hooks: RefCell::new(Vec::new()),
            shape: self.layout.shape.clone(),
            dtype: self.dtype(),
            device: self.device(),
        })
    }
    /// `.grad` of a leaf (None for non-leaves and before the first backward).
    pub fn grad(&self) -> Option<Tensor> {
        if let Some(l) = &self.leaf {
            return l.grad.borrow().clone();
        }
        let n = self.node.as_ref()?;
        let r = n.retained.borrow();
        r.as_ref().and_then(|l| l.grad.borrow().clone())
    }

    /// `t.retain_grad()`: a non-leaf keeps the gradient backward brings it as `.grad`
    /// (a leaf does anyway; an output without a backward node cannot).
    pub(crate) fn retain_grad(&self) -> Result<()> {
        if !self.requires_grad {
            return Err(EngineError::runtime(
                "can't retain_grad on Tensor that has requires_grad=False",
            ));
        }
        if let Some(n) = &self.node {
            let mut r = n.retained.borrow_mut();
            if r.is_none() {
                *r = Some(self.new_grad_holder());
            }
        }
        Ok(())
    }

    /// Whether `.grad` of this non-leaf is kept (`retain_grad()`); False for leaves, as PyTorch.
    pub(crate) fn retains_grad(&self) -> bool {
        self.leaf.is_none()
            && self
                .node
                .as_ref()
                .is_some_and(|n| n.retained.borrow().is_some())
    }

    /// `register_hook`: remember hook `id` on the leaf or on the node that made this tensor
    /// (backward passes it to its hook runner). False when it has neither (no grad).
    pub(crate) fn add_hook(&self, id: u64) -> bool {
        match (&self.leaf, &self.node) {
            (Some(l), _) => {
                l.hooks.borrow_mut().push(id);
                true
            }
            (None, Some(n)) => {
                n.hooks.borrow_mut().push((id, self.device()));
                true
            }
            (None, None) => false,
        }
    }

    /// Forget hook `id` (`handle.remove()`).
    pub(crate) fn remove_hook(&self, id: u64) {
        if let Some(l) = &self.leaf {
            l.hooks.borrow_mut().retain(|h| *h != id);
        }
        if let Some(n) = &self.node {
            n.hooks.borrow_mut().retain(|h| h.0 != id);
        }
    }
    /// `t.grad = g` (None clears it).
    pub fn set_grad(&self, g: Option<Tensor>) -> Result<()> {
        let Some(l) = &self.leaf else {
            return Ok(());
        };
        if let Some(g) = &g
            && g.layout.shape != self.layout.shape
        {
            return Err(EngineError::runtime(
                "assigned grad has data of a different size".to_string(),
            ));
        }
        *l.grad.borrow_mut() = g.map(|g| g.detach());
        Ok(())
    }
    /// The autograd node name PyTorch would show (`AddBackward0`), for printing.
    pub fn grad_fn(&self) -> Option<&'static str> {
        self.grad_fn
    }
    pub(crate) fn is_leaf(&self) -> bool {
        self.grad_fn.is_none()
    }
    pub fn element_size(&self) -> usize {
        self.dtype().element_size()
    }
    pub fn nbytes(&self) -> usize {
        self.numel() * self.element_size()
    }
    pub fn is_contiguous(&self) -> bool {
        let mut expected = 1;
        for i in (0..self.dim()).rev() {
            if self.layout.shape[i] != 1 && self.layout.strides[i] != expected {
                return false;
            }
            expected *= self.layout.shape[i];
        }
        true
    }
    /// True when both share one storage (a view of the other, or the same tensor).
    pub fn shares_storage(&self, other: &Tensor) -> bool {
        Rc::ptr_eq(&self.storage, &other.storage)
    }
    /// Whether this tensor's values are not kept (see the module docs). A tensor without
    /// elements always has its (no) values.
    pub(crate) fn is_phantom(&self) -> bool {
        self.storage.data.borrow().is_none() && self.numel() > 0
    }
    pub(crate) fn phantom_error(&self) -> EngineError {
        EngineError::not_implemented(format!(
            "cudatutor does not keep the values of tensors past its host memory limit (CUDATUTOR_HOST_MEM_LIMIT), nor of tensors computed from those (this one has {} elements); their memory and timing are modelled, their contents are not",
            self.numel()
        ))
    }

    /// The elements in logical order, copied to the host with their own dtype.
    /// A copy of an expanded view is as big as the view, so its size is asked for first.
    pub(crate) fn host_values(&self) -> Result<HostStorage> {
        let elem = self.dtype().element_size() as u64;
        crate::engine::host::ensure_room_for_elements(self.numel(), elem, self.dtype())?;
        match self.storage.data.borrow().as_ref() {
            Some(s) => s.to_host(&self.layout),
            None if self.numel() == 0 => HostStorage::zeros(self.dtype(), 0),
            None => Err(self.phantom_error()),
        }
    }

    /// The elements in logical order (row-major), widened to f64 (exact for every dtype
    /// but int64 beyond 2^53: use [`Tensor::scalars`] for exact values).
    pub fn values(&self) -> Result<Vec<f64>> {
        // the copy in its own dtype, then the widened one
        let elem = self.dtype().element_size() as u64;
        crate::engine::host::ensure_room_for_elements(self.numel(), elem + 8, self.dtype())?;
        Ok(self
            .host_values()?
            .gather_f64(&Layout::contiguous(&[self.numel()])))
    }

    /// [`Tensor::values`], or nothing (an empty vector) for a phantom or when there is no
    /// room for them: callers compare the length with `numel` and skip what they cannot see.
    pub(crate) fn values_unchecked(&self) -> Vec<f64> {
        self.values().unwrap_or_default()
    }

    /// [`Tensor::values`], zeros for a phantom; PyTorch's allocation failure when there is no
    /// room for them.
    pub(crate) fn values_or_zeros(&self) -> Result<Vec<f64>> {
        if self.is_phantom() {
            crate::engine::host::ensure_room_for_elements(self.numel(), 8, self.dtype())?;
            return crate::engine::hostbuf::try_zeroed(self.numel())
                .ok_or_else(|| crate::engine::host::alloc_error(self.dtype(), self.numel()));
        }
        self.values()
    }

    /// Element values as Python scalars, logical order (int64 exact).
    pub(crate) fn scalars(&self) -> Result<Vec<Scalar>> {
        let per = (self.dtype().element_size() + std::mem::size_of::<Scalar>()) as u64;
        crate::engine::host::ensure_room_for_elements(self.numel(), per, self.dtype())?;
        Ok(self
            .host_values()?
            .gather_scalars(&Layout::contiguous(&[self.numel()])))
    }

    /// A view with new shape/strides/offset over the same storage.
    pub(crate) fn view_of(&self, shape: Vec<usize>, strides: Vec<usize>, offset: usize) -> Tensor {
        self.view_named("ViewBackward0", shape, strides, offset)
    }

    /// A view whose autograd node (when it requires grad) is `grad_fn`.
    pub(crate) fn view_named(
        &self,
        grad_fn: &'static str,
        shape: Vec<usize>,
        strides: Vec<usize>,
        offset: usize,
    ) -> Tensor {
        let node = if self.requires_grad {
            Some(Rc::new(autograd::Node::new(
                grad_fn,
                vec![autograd::edge_of(self)],
                autograd::Kind::View(
                    autograd::Geometry {
                        shape: self.layout.shape.clone(),
                        strides: self.layout.strides.clone(),
                        offset: self.layout.offset,
                    },
                    autograd::Geometry {
                        shape: shape.clone(),
                        strides: strides.clone(),
                        offset,
                    },
                ),
                shape.clone(),
                self.dtype(),
            )))
        } else {
            None
        };
        Tensor {
            storage: self.storage.clone(),
            layout: Layout::new(shape, strides, offset),
            requires_grad: self.requires_grad,
            grad_fn: if self.requires_grad {
                Some(grad_fn)
            } else {
                None
            },
            node,
            leaf: None,
        }
    }

    /// A handle to the same data with requires_grad off (`detach()`).
    pub fn detach(&self) -> Tensor {
        let mut t = self.clone();
        t.requires_grad = false;
        t.grad_fn = None;
        t.node = None;
        t.leaf = None;
        t
    }

    // ----- views (no data movement; these do not touch the device) -----

    pub fn unsqueeze(&self, d: i64) -> Result<Tensor> {
        let d = wrap_dim(d, self.dim() + 1)?;
        let mut shape = self.layout.shape.clone();
        let mut strides = self.layout.strides.clone();
        let st = if d < self.dim() {
            self.layout.strides[d] * self.layout.shape[d]
        } else {
            1
        };
        shape.insert(d, 1);
        strides.insert(d, st);
        Ok(self.view_named("UnsqueezeBackward0", shape, strides, self.layout.offset))
    }

    /// `squeeze()` (all size-1 dims) or `squeeze(d)`.
    pub fn squeeze(&self, d: Option<i64>) -> Result<Tensor> {
        let mut shape = Vec::new();
        let mut strides = Vec::new();
        let only = match d {
            Some(d) if self.dim() > 0 => Some(wrap_dim(d, self.dim())?),
            Some(d) => {
                wrap_dim(d, 0)?;
                None
            }
            None => None,
        };
        for i in 0..self.dim() {
            let drop = self.layout.shape[i] == 1 && (d.is_none() || only == Some(i));
            if !drop {
                shape.push(self.layout.shape[i]);
                strides.push(self.layout.strides[i]);
            }
        }
        // PyTorch's squeeze() and squeeze(dim) are two overloads with their own node names
        let name = if d.is_some() {
            "SqueezeBackward1"
        } else {
            "SqueezeBackward0"
        };
        Ok(self.view_named(name, shape, strides, self.layout.offset))
    }

    /// `squeeze(dims)` with a tuple of dims (ATen's squeeze.dims): drops each listed dim of
    /// size 1, keeps the others; a dim listed twice is an error, as dim_list_to_bitset says.
    pub(crate) fn squeeze_dims(&self, dims: &[i64]) -> Result<Tensor> {
        let n = self.dim();
        let mut listed = vec![false; n.max(1)];
        for &d in dims {
            let w = wrap_dim(d, n)?;
            if listed[w] {
                return Err(EngineError::runtime(format!(
                    "dim {w} appears multiple times in the list of dims"
                )));
            }
            listed[w] = true;
        }
        let mut shape = Vec::new();
        let mut strides = Vec::new();
        for (i, &drop) in listed.iter().enumerate().take(n) {
            if !(self.layout.shape[i] == 1 && drop) {
                shape.push(self.layout.shape[i]);
                strides.push(self.layout.strides[i]);
            }
        }
        Ok(self.view_named("SqueezeBackward2", shape, strides, self.layout.offset))
    }

    pub fn transpose(&self, a: i64, b: i64) -> Result<Tensor> {
        if self.dim() == 0 {
            wrap_dim(a, 0)?;
            wrap_dim(b, 0)?;
            return Ok(self.view_named("TransposeBackward0", vec![], vec![], self.layout.offset));
        }
        let a = wrap_dim(a, self.dim())?;
        let b = wrap_dim(b, self.dim())?;
        let mut shape = self.layout.shape.clone();
        let mut strides = self.layout.strides.clone();
        shape.swap(a, b);
        strides.swap(a, b);
        Ok(self.view_named("TransposeBackward0", shape, strides, self.layout.offset))
    }

    /// `t()`: 0-d and 1-d unchanged, 2-d transposed.
    pub fn t(&self) -> Result<Tensor> {
        if self.dim() > 2 {
            return Err(EngineError::runtime(format!(
                "t() expects a tensor with <= 2 dimensions, but self is {}D",
                self.dim()
            )));
        }
        if self.dim() < 2 {
            return Ok(self.view_of(
                self.layout.shape.clone(),
                self.layout.strides.clone(),
                self.layout.offset,
            ));
        }
        let mut r = self.transpose(0, 1)?;
        if r.grad_fn.is_some() {
            r.grad_fn = Some("TBackward0");
        }
        Ok(r)
    }

    /// `.T` (reverses all dims).
    pub(crate) fn t_all(&self) -> Tensor {
        let mut shape = self.layout.shape.clone();
        let mut strides = self.layout.strides.clone();
        shape.reverse();
        strides.reverse();
        self.view_named("PermuteBackward0", shape, strides, self.layout.offset)
    }

    pub fn permute(&self, dims: &[i64]) -> Result<Tensor> {
        if dims.len() != self.dim() {
            return Err(EngineError::runtime(format!(
                "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = {} is not equal to len(dims) = {}",
                self.dim(),
                dims.len()
            )));
        }
        let mut seen = vec![false; self.dim()];
        let mut shape = Vec::new();
        let mut strides = Vec::new();
        for &d in dims {
            let d = wrap_dim(d, self.dim())?;
            if seen[d] {
                return Err(EngineError::runtime(
                    "permute(): duplicate dims are not allowed.",
                ));
            }
            seen[d] = true;
            shape.push(self.layout.shape[d]);
            strides.push(self.layout.strides[d]);
        }
        Ok(self.view_named("PermuteBackward0", shape, strides, self.layout.offset))
    }

    /// `view(shape)`: needs compatible strides (always true for contiguous tensors).
    pub fn view(&self, shape: &[i64]) -> Result<Tensor> {
        let shape = infer_shape(shape, self.numel())?;
        if self.is_contiguous() {
            let strides = contiguous_strides(&shape);
            return Ok(self.view_of(shape, strides, self.layout.offset));
        }
        match compute_view_strides(&self.layout.shape, &self.layout.strides, &shape) {
            Some(strides) => Ok(self.view_of(shape, strides, self.layout.offset)),
            None => Err(EngineError::runtime(
                "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.",
            )),
        }
    }

    /// `expand(sizes)` (-1 keeps a dim).
    pub fn expand(&self, sizes: &[i64]) -> Result<Tensor> {
        if sizes.len() < self.dim() {
            return Err(EngineError::runtime(format!(
                "expand({}{{{:?}}}, size=[{}]): the number of sizes provided ({}) must be greater or equal to the number of dimensions in the tensor ({})",
                self.dtype().scalar_name().to_string() + "Type",
                self.layout.shape,
                sizes.comma_separated(),
                sizes.len(),
                self.dim()
            )));
        }
        let lead = sizes.len() - self.dim();
        let mut shape = Vec::new();
        let mut strides = Vec::new();
        for (i, &s) in sizes.iter().enumerate() {
            if i < lead {
                if s < 0 {
                    return Err(EngineError::runtime(format!(
                        "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension {i}"
                    )));
                }
                shape.push(s as usize);
                strides.push(0);
            } else {
                let j = i - lead;
                let cur = self.layout.shape[j];
                if s == -1 || s as usize == cur {
                    shape.push(cur);
                    strides.push(self.layout.strides[j]);
                } else if cur == 1 {
                    shape.push(s as usize);
                    strides.push(0);
                } else {
                    return Err(EngineError::runtime(format!(
                        "The expanded size of the tensor ({s}) must match the existing size ({cur}) at non-singleton dimension {i}.  Target sizes: [{}].  Tensor sizes: [{}]",
                        sizes.comma_separated(),
                        self.layout.shape.comma_separated()
                    )));
                }
            }
        }
        checked_numel(&shape)?;
        Ok(self.view_named("ExpandBackward0", shape, strides, self.layout.offset))
    }

    /// `select(dim, index)` (`x[i]` along a dim).
    pub fn select(&self, dim: i64, index: i64) -> Result<Tensor> {
        if self.dim() == 0 {
            return Err(EngineError::index(
                "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number",
            ));
        }
        let d = wrap_dim(dim, self.dim())?;
        let size = self.layout.shape[d] as i64;
        if index < -size || index >= size {
            return Err(EngineError::index(format!(
                "index {index} is out of bounds for dimension {d} with size {size}"
            )));
        }
        let i = if index < 0 { index + size } else { index } as usize;
        let mut shape = self.layout.shape.clone();
        let mut strides = self.layout.strides.clone();
        let off = self.layout.offset + i * strides[d];
        shape.remove(d);
        strides.remove(d);
        Ok(self.view_named("SelectBackward0", shape, strides, off))
    }

    /// `narrow`/slicing along `dim` with Python slice semantics (step > 0).
    pub fn slice(
        &self,
        dim: i64,
        start: Option<i64>,
        stop: Option<i64>,
        step: i64,
    ) -> Result<Tensor> {
        if step <= 0 {
            return Err(EngineError::value("step must be greater than zero"));
        }
        let d = wrap_dim(dim, self.dim())?;
        let n = self.layout.shape[d] as i64;
        let clampi = |v: Option<i64>, def: i64| -> i64 {
            match v {
                None => def,
                Some(v) if v < 0 => (v + n).max(0),
                Some(v) => v.min(n),
            }
        };
        let s = clampi(start, 0);
        let e = clampi(stop, n).max(s);
        let len = ((e - s) + step - 1) / step;
        let mut shape = self.layout.shape.clone();
        let mut strides = self.layout.strides.clone();
        // Saturating: an empty tensor's strides may be saturated (contiguous_strides).
        let off = self
            .layout
            .offset
            .saturating_add((s.min(n.max(0)) as usize).saturating_mul(strides[d]));
        shape[d] = len.max(0) as usize;
        strides[d] = strides[d].saturating_mul(step as usize);
        Ok(self.view_named(
            "SliceBackward0",
            shape,
            strides,
            if len > 0 { off } else { self.layout.offset },
        ))
    }

    /// `unbind(0)` / iteration over the first dim.
    pub(crate) fn unbind0(&self) -> Result<Vec<Tensor>> {
        if self.dim() == 0 {
            return Err(EngineError::type_error("iteration over a 0-d tensor"));
        }
        (0..self.layout.shape[0])
            .map(|i| self.select(0, i as i64))
            .collect()
    }
}

/// The element count of `shape`, or PyTorch's overflow error.
pub(crate) fn checked_numel(shape: &[usize]) -> Result<usize> {
    shape
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        // Headroom for byte counts and the timing model's arithmetic on them (bytes * 2 for
        // a copy...): a [1000, 2**20, 2**31] meta tensor overflowed there.
        .filter(|n| n.checked_mul(64).is_some())
        .ok_or_else(|| EngineError::runtime("numel: integer multiplication overflow"))
}

/// Wrap a possibly negative dim, with PyTorch's message.
pub(crate) fn wrap_dim(d: i64, ndim: usize) -> Result<usize> {
    let n = ndim.max(1) as i64;
    if d < -n || d >= n {
        return Err(EngineError::index(format!(
            "Dimension out of range (expected to be in range of [{}, {}], but got {d})",
            -n,
            n - 1
        )));
    }
    Ok(if d < 0 { d + n } else { d } as usize)
}

/// Resolve a shape with at most one -1 for `numel` elements.
pub(crate) fn infer_shape(shape: &[i64], numel: usize) -> Result<Vec<usize>> {
    let mut infer = None;
    let mut prod: usize = 1;
    for (i, &s) in shape.iter().enumerate() {
        if s == -1 {
            if infer.is_some() {
                return Err(EngineError::runtime("only one dimension can be inferred"));
            }
            infer = Some(i);
        } else if s < 0 {
            return Err(EngineError::runtime(format!("invalid shape dimension {s}")));
        } else {
            // Saturate: a product past usize (it wrapped in release builds and could match
            // `numel` by accident) can equal no real size.
            prod = prod.saturating_mul(s as usize);
        }
    }
    let bad = || {
        EngineError::runtime(format!(
            "shape '[{}]' is invalid for input of size {numel}",
            shape.comma_separated()
        ))
    };
    let mut out: Vec<usize> = shape.iter().map(|&s| s.max(0) as usize).collect();
    match infer {
        Some(i) => {
            // infer_size_impl: 0 elements into a shape whose other dims multiply to 0 leave
            // the -1 free, which PyTorch refuses with its own message
            if prod == 0 && numel == 0 {
                return Err(EngineError::runtime(format!(
                    "cannot reshape tensor of 0 elements into shape [{}] because the unspecified dimension size -1 can be any value and is ambiguous",
                    shape.comma_separated()
                )));
            }
            if prod == 0 || !numel.is_multiple_of(prod) {
                return Err(bad());
            }
            out[i] = numel / prod;
        }
        None => {
            if prod != numel {
                return Err(bad());
            }
        }
    }
    Ok(out)
}

/// Strides for viewing (shape, strides) as `new_shape` without copying, if possible
/// (ATen's computeStride).
fn compute_view_strides(old: &[usize], old_st: &[usize], new: &[usize]) -> Option<Vec<usize>> {
    let numel: usize = old.iter().product();
    let mut new_st = vec![0usize; new.len()];
    if numel == 0 {
        return Some(contiguous_strides(new));
    }
    let mut view_d = new.len() as i64 - 1;
    let mut chunk_base_stride = *old_st.last().unwrap_or(&1);
    let mut tensor_numel = 1usize;
    let mut view_numel = 1usize;
    for tensor_d in (0..old.len()).rev() {
        tensor_numel *= old[tensor_d];
        if tensor_d == 0
            || (old[tensor_d - 1] != 1 && old_st[tensor_d - 1] != tensor_numel * chunk_base_stride)
        {
            while view_d >= 0 && (view_numel < tensor_numel || new[view_d as usize] == 1) {
                new_st[view_d as usize] = view_numel * chunk_base_stride;
                view_numel *= new[view_d as usize];
                view_d -= 1;
            }
            if view_numel != tensor_numel {
                return None;
            }
            if tensor_d > 0 {
                chunk_base_stride = old_st[tensor_d - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    if view_d != -1 {
        return None;
    }
    Some(new_st)
}

/// Broadcast two shapes (PyTorch's message on mismatch).
pub(crate) fn broadcast_shapes(a: &[usize], b: &[usize]) -> Result<Vec<usize>> {
    broadcast_or_clash(a, b).map_err(|(i, da, db)| {
        EngineError::runtime(format!(
            "The size of tensor a ({da}) must match the size of tensor b ({db}) at non-singleton dimension {i}"
        ))
    })
}

/// The broadcast of two shapes, or where they clash: `(dim, size in a, size in b)` (tensors
/// and numpy arrays word a clash differently). Like ATen's infer_size, the dims are compared
/// from the last one back, so the clash reported is the rightmost.
pub(crate) fn broadcast_or_clash(
    a: &[usize],
    b: &[usize],
) -> std::result::Result<Vec<usize>, (usize, usize, usize)> {
    let n = a.len().max(b.len());
    let mut out = vec![0; n];
    for i in (0..n).rev() {
        let da = if i + a.len() >= n {
            a[i + a.len() - n]
        } else {
            1
        };
        let db = if i + b.len() >= n {
            b[i + b.len() - n]
        } else {
            1
        };
        out[i] = if da == db || db == 1 {
            da
        } else if da == 1 {
            db
        } else {
            return Err((i, da, db));
        };
    }
    Ok(out)
}
