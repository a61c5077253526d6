//! `t[...]` and `t[...] = v`: ints, slices, None, Ellipsis (views), bool masks and index
//! tensors (advanced indexing, copies), and in-place writes.

use super::{
    CommaSeparated, Operand, Tensor, broadcast_shapes, broadcast_values, contiguous_strides,
};
use crate::engine::device::Device;
use crate::engine::dtype::{Category, DType, Scalar};
use crate::engine::error::{EngineError, Result};
use crate::engine::runtime::Runtime;
use crate::engine::storage::DeviceStorage;
use crate::engine::timing::Cost;

/// One item of a subscript.
#[derive(Debug, Clone)]
pub enum TensorIndex {
    Int(i64),
    Slice(Option<i64>, Option<i64>, Option<i64>),
    None,
    Ellipsis,
    /// A bool mask or an integer index tensor (lists are converted by the bindings).
    Tensor(Tensor),
}

/// An index out of range in an advanced index.
#[derive(Clone, Copy)]
struct BadIndex {
    /// Its place in the broadcast index.
    place: usize,
    value: i64,
    /// Which index tensor held it: what reading (IndexKernel) names as the "dimension"
    /// (`x[:, i]` with a bad `i` is "for dimension 0"; PyTorch 2.15, measured).
    tensor: usize,
    /// The dim it indexes: what writing (`index_put_`) names (`x[:, i] = v`: "dimension 1").
    dim: usize,
    size: usize,
}

/// What a subscript selects.
enum Selection {
    /// A view of the original storage.
    View(Tensor),
    /// Storage offsets (advanced indexing) with the result shape.
    Gather {
        offsets: Vec<usize>,
        shape: Vec<usize>,
        bad: Vec<BadIndex>,
    },
}

impl Runtime {
    fn select_items(&self, t: &Tensor, items: &[TensorIndex]) -> Result<Selection> {
        let consuming: usize = items
            .iter()
            .map(|i| match i {
                TensorIndex::Int(_) | TensorIndex::Slice(..) => 1,
                TensorIndex::Tensor(x) if x.dtype() == DType::Bool || x.dtype() == DType::UInt8 => {
                    x.dim().max(1)
                }
                TensorIndex::Tensor(_) => 1,
                _ => 0,
            })
            .sum();
        if consuming > t.dim() && !(t.dim() == 0 && items.iter().all(|i| matches!(i, TensorIndex::Tensor(x) if x.dtype() == DType::Bool && x.dim() == 0))) {
            return Err(EngineError::index(format!("too many indices for tensor of dimension {}", t.dim())));
        }
        let mut v = t.clone();
        let mut d: usize = 0;
        // dims of `t` consumed so far (d counts dims of the view `v`)
        let mut od: usize = 0;
        let mut adv: Vec<(usize, Tensor)> = Vec::new();
        let mut mask_only = true;
        let mut seen_ellipsis = false;
        for it in items {
            match it {
                TensorIndex::Int(i) => {
                    // PyTorch names the dimension of the indexed tensor, not of the view
                    v = v.select(d as i64, *i).map_err(|e| {
                        if e.message.starts_with("index ") {
                            EngineError::index(e.message.replacen(
                                &format!("dimension {d}"),
                                &format!("dimension {od}"),
                                1,
                            ))
                        } else {
                            e
                        }
                    })?;
                    od += 1;
                }
                TensorIndex::Slice(a, b, s) => {
                    v = v.slice(d as i64, *a, *b, s.unwrap_or(1))?;
                    d += 1;
                    od += 1;
                }
                TensorIndex::None => {
                    v = v.unsqueeze(d as i64)?;
                    d += 1;
                }
                TensorIndex::Ellipsis => {
                    if seen_ellipsis {
                        return Err(EngineError::index(
                            "an index can only have a single ellipsis ('...')",
                        ));
                    }
                    seen_ellipsis = true;
                    d += t.dim().saturating_sub(consuming);
                    od += t.dim().saturating_sub(consuming);
                }
                TensorIndex::Tensor(x) => {
                    if !matches!(
                        x.dtype(),
                        DType::Bool | DType::UInt8 | DType::Int64 | DType::Int32
                    ) {
                        return Err(EngineError::index(
                            "tensors used as indices must be long, int, byte or bool tensors",
                        ));
                    }
                    if x.is_cuda() && !v.is_cuda() {
                        return Err(EngineError::runtime(format!(
                            "indices should be either on cpu or on the same device as the indexed tensor ({})",
                            v.device()
                        )));
                    }
                    if x.dtype().category() == Category::Bool || x.dtype() == DType::UInt8 {
                        // a mask: its nonzero positions, one index tensor per mask dim
                        if x.dim() == 0 {
                            // x[True] / x[False]
                            let keep = x.values()?[0] != 0.0;
                            v = v.unsqueeze(d as i64)?;
                            if !keep {
                                v = v.slice(d as i64, Some(0), Some(0), 1)?;
                            }
                            d += 1;
                            continue;
                        }
                        for k in 0..x.dim() {
                            if x.layout.shape[k] != v.layout.shape[d + k] {
                                return Err(EngineError::index(format!(
                                    "The shape of the mask [{}] at index {k} does not match the shape of the indexed tensor [{}] at index {}",
                                    x.layout.shape.comma_separated(),
                                    v.layout.shape.comma_separated(),
                                    d + k
                                )));
                            }
                        }
                        let vals = x.values()?;
                        let st = contiguous_strides(&x.layout.shape);
                        let mut cols: Vec<Vec<f64>> = vec![Vec::new(); x.dim()];
                        for (lin, &m) in vals.iter().enumerate() {
                            if m != 0.0 {
                                let mut rem = lin;
                                for k in 0..x.dim() {
                                    cols[k].push((rem / st[k]) as f64);
                                    rem %= st[k];
                                }
                            }
                        }
                        for (k, c) in cols.into_iter().enumerate() {
                            let n = c.len();
                            let it = self.alloc_tensor(
                                vec![n],
                                DType::Int64,
                                Device::Cpu,
                                Some(c),
                                false,
                            )?;
                            adv.push((d + k, it));
                        }
                        d += x.dim();
                        od += x.dim();
                    } else {
                        mask_only = false;
                        adv.push((d, x.clone()));
                        d += 1;
                        od += 1;
                    }
                }
            }
        }
        if adv.is_empty() {
            return Ok(Selection::View(v));
        }
        // advanced indexing
        let mut bshape: Vec<usize> = Vec::new();
        for (_, x) in &adv {
            bshape = broadcast_shapes(&bshape, &x.layout.shape).map_err(|_| {
                EngineError::index(format!(
                    "shape mismatch: indexing tensors could not be broadcast together with shapes {}",
                    adv.iter()
                        .map(|(_, x)| format!("[{}]", x.layout.shape.comma_separated()))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?;
        }
        let nb: usize = bshape.iter().product();
        let idxvals: Vec<Vec<f64>> = adv
            .iter()
            .map(|(_, x)| broadcast_values(x, &bshape))
            .collect();
        let adv_dims: Vec<usize> = adv.iter().map(|(k, _)| *k).collect();
        let contiguous_adv = adv_dims.windows(2).all(|w| w[1] == w[0] + 1);
        let rest: Vec<usize> = (0..v.dim()).filter(|k| !adv_dims.contains(k)).collect();
        // output axes: B axes (None) or view dims (Some)
        let mut axes: Vec<Option<usize>> = Vec::new();
        if contiguous_adv {
            let first = adv_dims[0];
            axes.extend(rest.iter().filter(|&&k| k < first).map(|&k| Some(k)));
            axes.extend(std::iter::repeat_n(None, bshape.len()));
            axes.extend(rest.iter().filter(|&&k| k > first).map(|&k| Some(k)));
        } else {
            axes.extend(std::iter::repeat_n(None, bshape.len()));
            axes.extend(rest.iter().map(|&k| Some(k)));
        }
        let mut bad = Vec::new();
        for (j, vals) in idxvals.iter().enumerate() {
            let size = v.layout.shape[adv_dims[j]] as i64;
            for (p, &x) in vals.iter().enumerate() {
                let x = x as i64;
                if x < -size || x >= size {
                    bad.push(BadIndex {
                        place: p,
                        value: x,
                        tensor: j,
                        dim: adv_dims[j],
                        size: size as usize,
                    });
                }
            }
        }
        if let Some(&BadIndex {
            place: p,
            value: x,
            tensor: j,
            dim: d,
            size,
        }) = bad.first()
        {
            // the index tensor that held it, and its place there (indices broadcast together)
            let it = &adv[j].1;
            let at = crate::engine::provenance::unravel(p, &bshape);
            let skip = bshape.len().saturating_sub(it.dim());
            let position = it
                .layout
                .shape
                .iter()
                .enumerate()
                .map(|(i, &s)| if s == 1 { 0 } else { at[skip + i] })
                .collect();
            let bound = crate::engine::provenance::Bound::DimSize {
                dim: d,
                size,
                negative_ok: true,
            };
            self.note_bad_value("index", "index", it, position, x as f64, bound, bad.len());
        }
        let mut shape = Vec::new();
        let mut bi = 0;
        for a in &axes {
            match a {
                None => {
                    shape.push(bshape[bi]);
                    bi += 1;
                }
                Some(k) => shape.push(v.layout.shape[*k]),
            }
        }
        let bst = contiguous_strides(&bshape);
        // walk the output: split each output index into its B part and its view-dim part
        let mut out_axes_st = Vec::new(); // per output axis: (is_b, stride)
        let mut bj = 0;
        for a in &axes {
            match a {
                None => {
                    out_axes_st.push((true, bst[bj]));
                    bj += 1;
                }
                Some(k) => out_axes_st.push((false, v.layout.strides[*k])),
            }
        }
        let n = super::checked_numel(&shape)?;
        let mut offsets = Vec::with_capacity(n);
        let _ = nb;
        // When the last output axis is a dim of the view (`x[idx]` of a matrix: a row a
        // pick), each run along it is `base + i * stride`: the index arithmetic below runs
        // once a run instead of once an element.
        let (run, run_stride, outer_axes) = match (out_axes_st.last(), shape.last()) {
            (Some(&(false, st)), Some(&len)) => (len, st, shape.len() - 1),
            _ => (1, 0, shape.len()),
        };
        let runs = n.checked_div(run).unwrap_or(0);
        let mut idx = vec![0usize; shape.len()];
        for _ in 0..runs {
            let mut blin = 0;
            let mut off = v.layout.offset;
            for (a, &(is_b, st)) in out_axes_st.iter().enumerate() {
                if is_b {
                    blin += idx[a] * st
                } else {
                    off += idx[a] * st
                }
            }
            for (j, vals) in idxvals.iter().enumerate() {
                let size = v.layout.shape[adv_dims[j]] as i64;
                let mut x = vals[blin] as i64;
                if x < 0 {
                    x += size;
                }
                if x >= 0 && x < size {
                    off += x as usize * v.layout.strides[adv_dims[j]];
                }
            }
            offsets.extend((0..run).map(|i| off + i * run_stride));
            for a in (0..outer_axes).rev() {
                idx[a] += 1;
                if idx[a] < shape[a] {
                    break;
                }
                idx[a] = 0;
            }
        }
        let _ = mask_only;
        Ok(Selection::Gather {
            offsets,
            shape,
            bad,
        })
    }

    /// A new tensor of `t`'s elements at the storage `offsets` (an advanced index's picks),
    /// of `shape`. A host buffer is read at those offsets alone, in its own type; before, the
    /// whole storage was widened to f64 for each pick (a DataLoader batch of 64 rows of a
    /// 256x512 dataset converted all 131,072 values, four times an epoch).
    fn gathered(&self, t: &Tensor, shape: Vec<usize>, offsets: &[usize]) -> Result<Tensor> {
        if t.is_phantom() {
            return self.alloc_tensor(shape, t.dtype(), t.device(), None, false);
        }
        let taken = match t.storage.data.borrow().as_ref() {
            Some(DeviceStorage::Host(h)) => Some(h.take_at(offsets)?),
            _ => None,
        };
        match taken {
            Some(h) => self.tensor_from_host(shape, t.device(), h, false),
            None => {
                let d = t.storage_values();
                let data = offsets
                    .iter()
                    .map(|&o| d.get(o).copied().unwrap_or(0.0))
                    .collect();
                self.alloc_tensor(shape, t.dtype(), t.device(), Some(data), false)
            }
        }
    }

    /// What `op` (getitem, setitem) does about indices out of range: on the CPU an IndexError
    /// for the first (recorded as `op`'s host error), on CUDA the device-side assert lines.
    fn index_bad(&self, op: &str, t: &Tensor, bad: &[BadIndex]) -> Result<Vec<String>> {
        if bad.is_empty() {
            return Ok(Vec::new());
        }
        if !t.is_cuda() {
            // the kernel walks the elements in order and checks each one's indices in order:
            // the first bad one by place, then by index tensor (PyTorch 2.15, measured)
            let Some(first) = bad.iter().min_by_key(|b| (b.place, b.tensor)) else {
                return Ok(Vec::new());
            };
            let BadIndex { value, size, .. } = *first;
            let d = if op == "setitem" {
                first.dim
            } else {
                first.tensor
            };
            let e = EngineError::index(format!(
                "index {value} is out of bounds for dimension {d} with size {size}"
            ));
            return Err(self.host_error(op, t.device().cuda_index(), e));
        }
        // index_elementwise_kernel<128, 4>: thread t of block b handles elements
        // b*512 + j*128 + t (j = 0..3) and traps at its first bad one
        let mut seen = std::collections::BTreeSet::new();
        Ok(bad
            .iter()
            .map(|b| (b.place / 512, b.place % 128))
            .filter(|bt| seen.insert(*bt))
            .take(64)
            .map(|(b, t)| {
                format!(
                    "{}/IndexKernel.cu:111: operator(): block: [{b},0,0], thread: [{t},0,0] Assertion `-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"` failed.",
                    super::nn::ATEN_CUDA
                )
            })
            .collect())
    }

    fn has_mask(items: &[TensorIndex]) -> bool {
        items.iter().any(|i| matches!(i, TensorIndex::Tensor(x) if x.dtype() == DType::Bool || x.dtype() == DType::UInt8))
    }

    /// `t[items]`.
    pub fn getitem(&self, t: &Tensor, items: &[TensorIndex]) -> Result<Tensor> {
        let hint = t.device().cuda_index();
        // a bool mask's size depends on the data: the host must wait (a sync on CUDA)
        if Self::has_mask(items)
            && let Device::Cuda(i) = t.device()
        {
            self.sync("getitem", i)?;
        }
        let sel = self
            .select_items(t, items)
            .map_err(|e| self.host_error("getitem", hint, e))?;
        match sel {
            Selection::View(v) => {
                self.host_event("getitem", hint, 1.0);
                Ok(v)
            }
            Selection::Gather {
                offsets,
                shape,
                bad,
                ..
            } => {
                let asserts = self.index_bad("getitem", t, &bad)?;
                let mut out = self
                    .gathered(t, shape, &offsets)
                    .map_err(|e| self.host_error("getitem", hint, e))?;
                if t.requires_grad && self.grad_enabled() {
                    out.requires_grad = true;
                    out.grad_fn = Some("IndexBackward0");
                    // index_put with accumulate into zeros: each picked element's gradient
                    // goes back to where it was read
                    if let Some(pos) = super::autograd::positions_of(&t.layout, &offsets) {
                        let kind = super::autograd::Kind::Scatter {
                            in_shape: t.layout.shape.clone(),
                            pos: std::rc::Rc::new(pos),
                        };
                        super::autograd::attach(&mut out, &[super::autograd::edge_of(t)], kind);
                    }
                }
                self.complete(
                    "getitem",
                    t.device(),
                    Cost::new(2 * out.nbytes() as u64, 0),
                    asserts,
                )?;
                Ok(out)
            }
        }
    }

    /// `t[items] = value`.
    pub fn setitem(&self, t: &Tensor, items: &[TensorIndex], value: &Operand) -> Result<()> {
        let hint = t.device().cuda_index();
        let masked_fill =
            items.len() == 1 && Self::has_mask(items) && matches!(value, Operand::Scalar(_));
        if Self::has_mask(items)
            && !masked_fill
            && let Device::Cuda(i) = t.device()
        {
            self.sync("setitem", i)?;
        }
        if t.is_phantom() {
            // values are not kept: only the modelled cost
            let name = "setitem";
            return self.complete(
                name,
                t.device(),
                Cost::new(2 * t.nbytes() as u64, 0),
                Vec::new(),
            );
        }
        let sel = self
            .select_items(t, items)
            .map_err(|e| self.host_error("setitem", hint, e))?;
        let (offsets, shape, asserts) = match sel {
            Selection::View(v) => {
                // The view's element offsets cost 8 bytes each on the host, and an expanded
                // view can name 2^40 elements of a few real ones: refuse what the run's host
                // memory cannot hold instead of letting the allocation abort the process.
                let bytes = (v.numel() as u64).saturating_mul(8);
                if bytes > self.host.limit || !crate::engine::hostmem::can_allocate(bytes) {
                    return Err(self.host_error(
                        "setitem",
                        hint,
                        EngineError::runtime(format!(
                            "cudatutor cannot write into a view of {} elements: its element offsets alone would need {} bytes of host memory, more than this run's limit",
                            v.numel(),
                            bytes
                        )),
                    ));
                }
                (v.offsets(), v.layout.shape.clone(), Vec::new())
            }
            Selection::Gather {
                offsets,
                shape,
                bad,
                ..
            } => (offsets, shape, self.index_bad("setitem", t, &bad)?),
        };
        let dt = t.dtype();
        let vals: Vec<f64> = match value {
            Operand::Scalar(s) => vec![dt.cast(s.as_f64()); offsets.len()],
            Operand::Tensor(src) => {
                let ok = broadcast_shapes(&shape, &src.layout.shape)
                    .map(|s| s == shape)
                    .unwrap_or(false);
                if !ok {
                    return Err(self.host_error(
                        "setitem",
                        hint,
                        EngineError::runtime(format!(
                            "shape mismatch: value tensor of shape [{}] cannot be broadcast to indexing result of shape [{}]",
                            src.layout.shape.comma_separated(),
                            shape.comma_separated()
                        )),
                    ));
                }
                if src.is_phantom() {
                    Vec::new()
                } else {
                    broadcast_values(src, &shape)
                        .into_iter()
                        .map(|x| dt.cast(x))
                        .collect()
                }
            }
        };
        if !t.is_phantom() && !vals.is_empty() {
            t.write_at(&offsets, &vals);
        }
        t.storage.provenance.note_write(self.line());
        let name = if masked_fill {
            "masked_fill_"
        } else {
            "setitem"
        };
        self.complete(
            name,
            t.device(),
            Cost::new(2 * (offsets.len() * dt.element_size()) as u64, 0),
            asserts,
        )
    }

    /// Write `src` (broadcast, cast) into `dst` in place (`dst.copy_(src)`, `x += y`).
    pub fn copy_(&self, dst: &Tensor, src: &Tensor, op: &str) -> Result<()> {
        let hint = dst.device().cuda_index();
        let ok = broadcast_shapes(&dst.layout.shape, &src.layout.shape)
            .map(|s| s == dst.layout.shape)
            .unwrap_or(false);
        if !ok {
            return Err(self.host_error(
                op,
                hint,
                EngineError::runtime(format!(
                    "output with shape [{}] doesn't match the broadcast shape [{}]",
                    dst.layout.shape.comma_separated(),
                    broadcast_shapes(&dst.layout.shape, &src.layout.shape)
                        .unwrap_or_default()
                        .comma_separated()
                )),
            ));
        }
        if !dst.is_phantom() && !src.is_phantom() {
            super::raw::store_into(dst, src).map_err(|e| self.host_error(op, hint, e))?;
        }
        dst.storage.provenance.note_write(self.line());
        let dev = dst.device();
        match (src.device(), dev) {
            (Device::Cpu, Device::Cuda(i)) if src.dim() > 0 => {
                self.h2d(op, i, dst.nbytes() as u64, src.is_pinned(), false)
            }
            (Device::Cuda(i), Device::Cpu) => self.d2h(op, i, dst.nbytes() as u64, false),
            _ => self.complete(
                op,
                dev,
                Cost::new(2 * dst.nbytes() as u64, dst.numel() as u64),
                Vec::new(),
            ),
        }
    }

    /// `dst <op>= other` (`+=`, `*=`, ...): the op, then written back into `dst`, with
    /// PyTorch's cast check.
    /// `dst <op>= other` (`add_`, `+=`, ...), written into dst's storage. Returns dst's handle
    /// with its new autograd history (an in-place op on a tensor that requires grad becomes
    /// its grad_fn, as in PyTorch); the caller keeps it.
    pub fn inplace(&self, op: super::BinaryOp, dst: &Tensor, other: &Operand) -> Result<Tensor> {
        self.inplace_alpha(op, dst, other, None)
    }

    /// `dst.add_(other, alpha=)` / `sub_`: [`Runtime::binary_alpha`] written back.
    pub(crate) fn inplace_alpha(
        &self,
        op: super::BinaryOp,
        dst: &Tensor,
        other: &Operand,
        alpha: Option<crate::engine::dtype::Scalar>,
    ) -> Result<Tensor> {
        self.refuse_inplace_on_leaf(op.name(), dst)?;
        let r = self.binary_alpha(op, &Operand::Tensor(dst.clone()), other, alpha)?;
        // mul/div/pow need dst's old values for backward
        let reads_old = !matches!(op, super::BinaryOp::Add | super::BinaryOp::Sub);
        let node = |old| super::autograd::Kind::binary(op, &Operand::Tensor(old), other, alpha);
        self.write_back(op.name(), dst, r, reads_old.then_some(node))
    }

    /// `dst.addcmul_(b, c, value=)`, `addcdiv_`, `lerp_`: [`Runtime::ternary`] written back
    /// into dst's storage. Returns dst's handle with its new autograd history (the caller
    /// keeps it).
    pub(crate) fn inplace_ternary(
        &self,
        op: crate::engine::backend::TernaryOp,
        dst: &Tensor,
        b: &Tensor,
        c: &Operand,
        value: crate::engine::dtype::Scalar,
    ) -> Result<Tensor> {
        let name = match op {
            crate::engine::backend::TernaryOp::Addcmul => "addcmul_",
            crate::engine::backend::TernaryOp::Addcdiv => "addcdiv_",
            crate::engine::backend::TernaryOp::Lerp => "lerp_",
        };
        self.refuse_inplace_on_leaf(name, dst)?;
        let r = self.ternary(op, dst, b, c, value)?;
        // backward reads dst's old values
        let node = |old| super::autograd::Kind::Ternary {
            op,
            a: Operand::Tensor(old),
            b: super::autograd::saved(&Operand::Tensor(b.clone())),
            c: super::autograd::saved(c),
            value,
        };
        self.write_back(name, dst, r, Some(node))
    }

    /// `t.exp_()`, `torch.sin_(t)`, ...: [`Runtime::unary`] written back into t's storage.
    /// Returns t's handle with its new autograd history (the caller keeps it). The node saves
    /// a copy of t's old values: the backward of sin, asin, erf, ... reads its input, which
    /// the write overwrites.
    pub(crate) fn inplace_unary(&self, op: super::UnaryOp, dst: &Tensor) -> Result<Tensor> {
        self.refuse_inplace_on_leaf(op.name(), dst)?;
        let r = self.unary(op, dst)?;
        let result = r.detach();
        let node = op
            .has_backward()
            .then_some(move |old| super::autograd::Kind::Unary(op, old, result));
        self.write_back(op.name(), dst, r, node)
    }

    /// The end of an in-place op `name` computed out of place as `r` by a prelude
    /// (`tril_`, `cumsum_`, `nan_to_num_`, ...). r's history must not read dst's storage,
    /// which this overwrites: the preludes compute r from a clone of dst when dst requires
    /// grad. Returns dst's handle with r's autograd history (the caller keeps it).
    pub(crate) fn inplace_result(&self, name: &str, dst: &Tensor, r: Tensor) -> Result<Tensor> {
        self.refuse_inplace_on_leaf(name, dst)?;
        self.write_back(name, dst, r, None::<fn(Tensor) -> super::autograd::Kind>)
    }

    /// PyTorch's refusal of an in-place op on a leaf that requires grad (outside no_grad).
    fn refuse_inplace_on_leaf(&self, name: &str, dst: &Tensor) -> Result<()> {
        if dst.requires_grad && dst.is_leaf() && self.grad_enabled() {
            return Err(self.host_error(
                name,
                dst.device().cuda_index(),
                EngineError::runtime(
                    "a leaf Variable that requires grad is being used in an in-place operation.",
                ),
            ));
        }
        Ok(())
    }

    /// A handle with `t`'s autograd history on a copy of its values: what an in-place op
    /// computes from, so that the node it records saves the values from before the write
    /// (PyTorch saves `original_self`) while its edges still lead to t's history (a clone
    /// would show CloneBackward0 among them).
    pub(crate) fn private_copy(&self, t: &Tensor) -> Result<Tensor> {
        let mut c = self.clone_tensor(&t.detach())?;
        c.requires_grad = t.requires_grad;
        c.grad_fn = t.grad_fn;
        c.node = t.node.clone();
        c.leaf = t.leaf.clone();
        Ok(c)
    }

    /// The end of an in-place op `name` whose out-of-place result is `r`: PyTorch's refusals
    /// (a result dtype dst cannot hold, a result shape not dst's), then r's values written
    /// into dst's storage and dst's handle given r's autograd history. `node_of_old` makes
    /// that history's node from a copy of dst's old values, for the ops whose backward reads
    /// them.
    fn write_back(
        &self,
        name: &str,
        dst: &Tensor,
        mut r: Tensor,
        node_of_old: Option<impl FnOnce(Tensor) -> super::autograd::Kind>,
    ) -> Result<Tensor> {
        let fail = |e: EngineError| self.host_error(name, dst.device().cuda_index(), e);
        if r.dtype().category() > dst.dtype().category() {
            return Err(fail(EngineError::runtime(format!(
                "result type {} can't be cast to the desired output type {}",
                r.dtype().scalar_name(),
                dst.dtype().scalar_name()
            ))));
        }
        if r.layout.shape != dst.layout.shape {
            return Err(fail(EngineError::runtime(format!(
                "output with shape [{}] doesn't match the broadcast shape [{}]",
                dst.layout.shape.comma_separated(),
                r.layout.shape.comma_separated()
            ))));
        }
        let mut out = dst.clone();
        if r.requires_grad {
            if let Some(node) = node_of_old {
                let old = self.clone_tensor(&dst.detach())?;
                let kind = node(old);
                let edges = r.node.as_ref().map(|n| n.edges.clone()).unwrap_or_default();
                super::autograd::attach(&mut r, &edges, kind);
            }
            out.requires_grad = true;
            out.grad_fn = r.grad_fn;
            out.node = r.node.take();
            out.leaf = None;
        }
        self.write_values(dst, &r)?;
        Ok(out)
    }

    fn write_values(&self, dst: &Tensor, r: &Tensor) -> Result<()> {
        if !dst.is_phantom() && !r.is_phantom() {
            super::raw::store_into(dst, r)
                .map_err(|e| self.host_error("copy_", dst.device().cuda_index(), e))?;
        }
        dst.storage.provenance.note_write(self.line());
        Ok(())
    }

    /// Fill every element of `t` with `value` in place (`fill_`, `zero_`).
    pub fn fill_(&self, t: &Tensor, value: Scalar) -> Result<()> {
        let v = t.dtype().cast(value.as_f64());
        if !t.is_phantom() {
            let offs = t.offsets();
            t.write_at(&offs, &vec![v; offs.len()]);
        }
        t.storage.provenance.note_write(self.line());
        self.complete(
            "fill_",
            t.device(),
            Cost::new(t.nbytes() as u64, 0),
            Vec::new(),
        )
    }
}
