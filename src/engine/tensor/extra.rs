//! Less central ops: eye, scans (cumsum/cumprod), sort/argsort/topk/unique, median, norm,
//! count_nonzero, repeat, split/chunk, dot/mv/bmm checks, logcumsumexp.

use super::{CommaSeparated, Tensor, contiguous_strides, for_each_offset, wrap_dim};
use crate::engine::backend::{BackendDevice, BackendStorage};
use crate::engine::device::Device;
use crate::engine::dtype::DType;
use crate::engine::error::{EngineError, Result};
use crate::engine::host::{HostStorage, Stored};
use crate::engine::runtime::Runtime;
use crate::engine::timing::Cost;
use std::cmp::Ordering;

/// The values of `t` with dim `d` moved last: (rows concatenated, row length).
fn rows_along(t: &Tensor, d: usize) -> Result<(Vec<f64>, usize)> {
    let nd = t.dim();
    if nd == 0 {
        return Ok((t.values_or_zeros()?, 1));
    }
    let perm: Vec<i64> = (0..nd)
        .filter(|&i| i != d)
        .chain([d])
        .map(|i| i as i64)
        .collect();
    let p = t.permute(&perm).expect("a valid permutation");
    Ok((p.values_or_zeros()?, t.layout.shape[d]))
}

/// Inverse of [`rows_along`]: `rows` (dim `d` last, each row of length `shape[d]`) laid out
/// row-major for `shape`.
fn unrows(rows: &[f64], shape: &[usize], d: usize) -> Vec<f64> {
    let nd = shape.len();
    if nd == 0 {
        return rows.to_vec();
    }
    let perm: Vec<usize> = (0..nd).filter(|&i| i != d).chain([d]).collect();
    let pshape: Vec<usize> = perm.iter().map(|&i| shape[i]).collect();
    let pst = contiguous_strides(&pshape);
    let mut st = vec![0usize; nd];
    for (j, &i) in perm.iter().enumerate() {
        st[i] = pst[j];
    }
    let mut out = Vec::with_capacity(rows.len());
    for_each_offset(shape, &st, 0, |o| out.push(rows[o]));
    out
}

/// Ascending order with NaN greatest (PyTorch's sort order).
fn cmp_nan_last(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => a.partial_cmp(&b).unwrap(),
    }
}

/// [`Runtime::unique`]'s sort: distinct values ascending (NaN last, each NaN distinct), each
/// element's group, and the groups' sizes.
fn unique_sorted<T: Stored + PartialOrd>(v: &[T]) -> (HostStorage, Vec<i64>, Vec<i64>) {
    #[allow(clippy::eq_op)]
    let nan = |x: &T| x != x;
    let mut order: Vec<usize> = (0..v.len()).collect();
    // a stable sort: equal values keep their input order (polled: see Runtime::unique)
    crate::engine::interrupt::polling_sort_by(&mut order, |&i: &usize, &j: &usize| {
        let (a, b) = (&v[i], &v[j]);
        match (nan(a), nan(b)) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            _ => a.partial_cmp(b).unwrap_or(Ordering::Equal),
        }
    });
    let mut vals: Vec<T> = Vec::new();
    let mut counts: Vec<i64> = Vec::new();
    let mut inverse = vec![0i64; v.len()];
    for (n, &i) in order.iter().enumerate() {
        // the groups of 2^24 elements take a second on a loaded machine: polled as the sort
        // (a stopped op's partial result is never seen)
        if n % crate::engine::interrupt::CHUNK == 0 && crate::engine::interrupt::should_stop() {
            break;
        }
        let x = v[i];
        if vals.last().is_none_or(|l| *l != x) {
            vals.push(x);
            counts.push(0);
        }
        if let Some(c) = counts.last_mut() {
            *c += 1;
        }
        inverse[i] = vals.len() as i64 - 1;
    }
    (T::wrap(vals), inverse, counts)
}

/// ATen's `_log_add_exp_helper` in double.
fn log_add_exp(x: f64, y: f64) -> f64 {
    // std::min/std::max return the first argument when one is NaN
    let (min, max) = if y.is_nan() {
        (y, y)
    } else {
        (if y < x { y } else { x }, if x < y { y } else { x })
    };
    if min != max || min.is_finite() {
        (min - max).exp().ln_1p() + max
    } else {
        x
    }
}

fn err_hint(t: &Tensor) -> Option<u32> {
    t.device().cuda_index()
}

impl Runtime {
    /// A new tensor computed from `inputs` (phantom when any input is), with its autograd
    /// node name, recorded as one op.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn computed(
        &self,
        name: &str,
        inputs: &[&Tensor],
        shape: Vec<usize>,
        dtype: DType,
        device: Device,
        data: impl FnOnce() -> Result<Vec<f64>>,
        grad_fn: Option<&'static str>,
    ) -> Result<Tensor> {
        // the f64 path keeps no values past MAX_F64_ELEMENTS (its results are phantoms)
        let keep = shape.iter().product::<usize>() <= super::MAX_F64_ELEMENTS;
        self.computed_host(
            name,
            inputs,
            shape,
            dtype,
            device,
            keep.then_some(move || HostStorage::from_f64s(dtype, &data()?)),
            grad_fn,
        )
    }

    /// [`Runtime::computed`] with typed values (`data` returns a buffer of `dtype`; None: a
    /// phantom).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn computed_host(
        &self,
        name: &str,
        inputs: &[&Tensor],
        shape: Vec<usize>,
        dtype: DType,
        device: Device,
        data: Option<impl FnOnce() -> Result<HostStorage>>,
        grad_fn: Option<&'static str>,
    ) -> Result<Tensor> {
        let hint = device.cuda_index();
        let phantom = inputs.iter().any(|t| t.is_phantom()) || device == Device::Meta;
        let keep = !phantom && data.is_some();
        let mut out = self
            .alloc_out(shape, dtype, device, keep, false)
            .map_err(|e| self.host_error(name, hint, e))?;
        if keep
            && out.wants_values()
            && let Some(data) = data
        {
            // under the run's interrupt: long loops inside poll its deadline
            let h = self
                .compute(data)
                .map_err(|e| self.host_error(name, hint, e))?;
            if h.len() != out.numel() || h.dtype() != dtype {
                return Err(self.host_error(
                    name,
                    hint,
                    EngineError::runtime("internal: values do not match the shape"),
                ));
            }
            let v = self
                .backend_for(device)
                .upload(h)
                .map_err(|e| self.host_error(name, hint, e))?;
            out.set_values(v)
                .map_err(|e| self.host_error(name, hint, e))?;
        }
        if let Some(g) = grad_fn {
            // grad_of: the node links the inputs (next_functions), with no formula yet
            self.grad_of(inputs, &mut out, g);
        }
        let bytes: usize = inputs.iter().map(|t| t.nbytes()).sum::<usize>() + out.nbytes();
        let n: usize = inputs.iter().map(|t| t.numel()).sum();
        self.complete(name, device, Cost::new(bytes as u64, n as u64), Vec::new())?;
        Ok(out)
    }

    /// `torch.eye(n, m)`.
    pub(crate) fn eye(
        &self,
        n: usize,
        m: Option<usize>,
        dtype: Option<DType>,
        device: Device,
    ) -> Result<Tensor> {
        let m = m.unwrap_or(n);
        let dt = dtype.unwrap_or_else(crate::engine::dtype::default_float);
        self.created_host("eye", vec![n, m], dt, device, |len| {
            let v: Vec<f64> = (0..len)
                .map(|i| {
                    if i / m.max(1) == i % m.max(1) {
                        1.0
                    } else {
                        0.0
                    }
                })
                .collect();
            crate::engine::host::HostStorage::from_f64s(dt, &v)
        })
    }

    /// `cumsum(dim)` / `cumprod(dim)`: integer inputs accumulate in int64.
    pub(crate) fn cumulative(
        &self,
        t: &Tensor,
        dim: i64,
        prod: bool,
        dtype: Option<DType>,
    ) -> Result<Tensor> {
        let name = if prod { "cumprod" } else { "cumsum" };
        let d = wrap_dim(dim, t.dim()).map_err(|e| self.host_error(name, err_hint(t), e))?;
        let dt = dtype.unwrap_or(if t.dtype().is_floating_point() {
            t.dtype()
        } else {
            DType::Int64
        });
        let shape = t.layout.shape.clone();
        let hint = err_hint(t);
        // the device's scan (float32: accumulated in double, as ATen's cpu_cum_base_kernel)
        let mut out = self
            .produce(&[t], shape, dt, t.device(), || {
                let p = super::ops::prepare(t, dt, &t.layout.shape)?;
                let (s, l) = p.pair()?;
                s.scan(l, d.min(t.dim().saturating_sub(1)), prod, dt)
            })
            .map_err(|e| self.host_error(name, hint, e))?;
        self.grad_of(
            &[t],
            &mut out,
            if prod {
                "CumprodBackward0"
            } else {
                "CumsumBackward0"
            },
        );
        self.complete_pass(name, t, out)
    }

    /// `torch.logcumsumexp(t, dim)`: ATen's logcumsumexp_cpu_kernel, accumulated in double
    /// (`acc_type<float, false>`) with `_log_add_exp_helper` (glibc's exp and log1p) and each
    /// output rounded once, so the f64 path here is exact for float32.
    pub(crate) fn logcumsumexp(&self, t: &Tensor, dim: i64) -> Result<Tensor> {
        let name = "logcumsumexp";
        let hint = err_hint(t);
        if !t.dtype().is_floating_point() {
            return Err(self.host_error(
                name,
                hint,
                EngineError::runtime(format!(
                    "\"logcumsumexp_out_cpu\" not implemented for '{}'",
                    t.dtype().scalar_name()
                )),
            ));
        }
        let d = wrap_dim(dim, t.dim()).map_err(|e| self.host_error(name, hint, e))?;
        let shape = t.layout.shape.clone();
        let x = t.clone();
        let dims = shape.clone();
        self.computed(
            name,
            &[t],
            shape,
            t.dtype(),
            t.device(),
            move || {
                let v = x.values_or_zeros()?;
                if dims.is_empty() {
                    return Ok(v);
                }
                let len = dims[d];
                let inner: usize = dims[d + 1..].iter().product();
                let outer: usize = dims[..d].iter().product();
                let mut out = vec![0.0; v.len()];
                for o in 0..outer {
                    for i in 0..inner {
                        let mut cum = f64::NEG_INFINITY;
                        for k in 0..len {
                            let at = (o * len + k) * inner + i;
                            cum = log_add_exp(v[at], cum);
                            out[at] = cum;
                        }
                    }
                }
                Ok(out)
            },
            Some("LogcumsumexpBackward0"),
        )
    }

    /// `sort(dim=-1, descending=False)` (stable): (values, indices). `k` keeps the first k
    /// (topk, which sorts descending by default).
    pub fn sort(
        &self,
        t: &Tensor,
        dim: i64,
        descending: bool,
        k: Option<usize>,
    ) -> Result<(Tensor, Tensor)> {
        let name = if k.is_some() { "topk" } else { "sort" };
        let hint = err_hint(t);
        let d = wrap_dim(dim, t.dim()).map_err(|e| self.host_error(name, hint, e))?;
        let len = if t.dim() == 0 { 1 } else { t.layout.shape[d] };
        if let Some(k) = k
            && k > len
        {
            return Err(self.host_error(
                name,
                hint,
                EngineError::runtime("selected index k out of range"),
            ));
        }
        // Working memory per element: the f64 copy and its index, the kept values and indices,
        // both laid back out, and the two outputs. Asked for before any work, so a sort of a
        // huge expanded view fails at once (PyTorch fails on its values output; its topk on a
        // scratch vector, with C++'s bare std::bad_alloc).
        let per_element = 56 + 2 * t.dtype().element_size() as u64;
        if let Err(e) =
            crate::engine::host::ensure_room_for_elements(t.numel(), per_element, t.dtype())
        {
            let e = if k.is_some() {
                EngineError::runtime("std::bad_alloc")
            } else {
                e
            };
            return Err(self.host_error(name, hint, e));
        }
        let keep = k.unwrap_or(len);
        let mut shape = t.layout.shape.clone();
        if t.dim() > 0 {
            shape[d] = keep;
        }
        let mut order: Vec<f64> = Vec::new();
        let mut vals: Vec<f64> = Vec::new();
        if !t.is_phantom() {
            let (rows, _) = rows_along(t, d).map_err(|e| self.host_error(name, hint, e))?;
            // polled between rows and inside each row's sort: a sort of 2^24 elements stops
            // at the run's limit
            self.compute(|| {
                for row in rows.chunks(len.max(1)) {
                    if crate::engine::interrupt::should_stop() {
                        break;
                    }
                    if let Some(k) = k {
                        // topk: libstdc++'s selection, whose order decides the ties
                        let picked =
                            crate::engine::host::stl_select::topk_order(row, k, descending);
                        for i in picked {
                            order.push(i as f64);
                            vals.push(row[i]);
                        }
                        continue;
                    }
                    let mut idx: Vec<usize> = (0..row.len()).collect();
                    crate::engine::interrupt::polling_sort_by(
                        &mut idx,
                        |&a: &usize, &b: &usize| {
                            let o = cmp_nan_last(row[a], row[b]);
                            if descending { o.reverse() } else { o }
                        },
                    );
                    if crate::engine::interrupt::should_stop() {
                        // the order is meaningless once stopped: nothing to keep
                        break;
                    }
                    for &i in idx.iter().take(keep) {
                        order.push(i as f64);
                        vals.push(row[i]);
                    }
                }
                Ok(())
            })?;
        }
        let dd = d.min(shape.len().saturating_sub(1));
        let (vs, is) = if t.is_phantom() {
            (Vec::new(), Vec::new())
        } else {
            (unrows(&vals, &shape, dd), unrows(&order, &shape, dd))
        };
        let values = self.computed(
            name,
            &[t],
            shape.clone(),
            t.dtype(),
            t.device(),
            || Ok(vs),
            Some(if k.is_some() {
                "TopkBackward0"
            } else {
                "SortBackward0"
            }),
        )?;
        let indices = self.computed(name, &[], shape, DType::Int64, t.device(), || Ok(is), None)?;
        Ok((values, indices))
    }

    /// The positions `kthvalue(k, dim)` returns (int64, dim `dim` removed): PyTorch's
    /// quick_select order, which decides which of equal values is reported.
    pub(crate) fn kthvalue_positions(&self, t: &Tensor, dim: i64, k: usize) -> Result<Tensor> {
        let hint = err_hint(t);
        let d = wrap_dim(dim, t.dim()).map_err(|e| self.host_error("kthvalue", hint, e))?;
        let len = if t.dim() == 0 { 1 } else { t.layout.shape[d] };
        crate::engine::host::ensure_room_for_elements(t.numel(), 24, t.dtype())
            .map_err(|e| self.host_error("kthvalue", hint, e))?;
        let mut shape = t.layout.shape.clone();
        if t.dim() > 0 {
            shape.remove(d);
        }
        let mut picked: Vec<f64> = Vec::new();
        if !t.is_phantom() {
            let (rows, _) = rows_along(t, d).map_err(|e| self.host_error("kthvalue", hint, e))?;
            self.compute(|| {
                for row in rows.chunks(len.max(1)) {
                    if crate::engine::interrupt::should_stop() {
                        break;
                    }
                    picked.push(crate::engine::host::stl_select::kth_position(row, k) as f64);
                }
                Ok(())
            })?;
        }
        self.computed(
            "kthvalue",
            &[],
            shape,
            DType::Int64,
            t.device(),
            || Ok(picked),
            None,
        )
    }

    /// `torch.unique(t)` (sorted, dim=None): (values, inverse indices, counts), by one stable
    /// sort of the elements in their own dtype (O(n log n)): ascending with NaN last, equal
    /// neighbours merged (the first in input order stays, so -0.0 and 0.0 give the one seen
    /// first; NaN equals nothing, so every NaN is its own value), as PyTorch's CPU kernel.
    pub fn unique(&self, t: &Tensor) -> Result<(Tensor, Tensor, Tensor)> {
        // the copy, its order, the inverse, the values and counts: asked for before any work
        let per_element = 24 + 2 * t.dtype().element_size() as u64;
        crate::engine::host::ensure_room_for_elements(t.numel(), per_element, t.dtype())
            .map_err(|e| self.host_error("unique", err_hint(t), e))?;
        let h = t
            .host_values()
            .map_err(|e| self.host_error("unique", err_hint(t), e))?;
        let (u, inverse, counts) =
            self.compute(|| Ok(crate::engine::host::host_dispatch!(&h, v => unique_sorted(v))))?;
        if let Device::Cuda(i) = t.device() {
            // the output size depends on the data
            self.sync("unique", i)?;
        }
        let n = counts.len();
        let dev = t.device();
        let values = self.computed_host(
            "unique",
            &[t],
            vec![n],
            t.dtype(),
            dev,
            Some(|| Ok(u)),
            None,
        )?;
        let inv = self.computed_host(
            "unique",
            &[],
            t.layout.shape.clone(),
            DType::Int64,
            dev,
            Some(|| Ok(HostStorage::I64(inverse))),
            None,
        )?;
        let cnt = self.computed_host(
            "unique",
            &[],
            vec![n],
            DType::Int64,
            dev,
            Some(|| Ok(HostStorage::I64(counts))),
            None,
        )?;
        Ok((values, inv, cnt))
    }

    /// `median()` of all elements: the lower of the two middle values; NaN if any is NaN.
    pub fn median(&self, t: &Tensor) -> Result<Tensor> {
        if t.numel() == 0 {
            return Err(self.host_error(
                "median",
                err_hint(t),
                EngineError::index("median() input tensor cannot be empty"),
            ));
        }
        let src = t.clone();
        self.computed(
            "median",
            &[t],
            vec![],
            t.dtype(),
            t.device(),
            || {
                let mut v = src.values_or_zeros()?;
                if v.iter().any(|x| x.is_nan()) {
                    return Ok(vec![f64::NAN]);
                }
                crate::engine::interrupt::polling_sort_by(&mut v, |a: &f64, b: &f64| {
                    cmp_nan_last(*a, *b)
                });
                Ok(vec![v[(v.len() - 1) / 2]])
            },
            Some("MedianBackward0"),
        )
    }

    /// `norm(p=2)` over all elements or `dim` (p may be inf / -inf / 0).
    pub fn norm(&self, t: &Tensor, p: f64, dims: Option<&[i64]>, keepdim: bool) -> Result<Tensor> {
        let op = crate::engine::backend::ReduceOp::Norm(p);
        let refusal = |got: &str| {
            EngineError::not_implemented(format!(
                "linalg.vector_norm: Expected a floating point or complex tensor as input. Got {got}"
            ))
        };
        let grad_fn = "LinalgVectorNormBackward0";
        let mut out = self.floating_reduce("norm", t, dims, keepdim, op, grad_fn, refusal)?;
        // norm_backward for p = 2 and p = 1; other orders stay without a formula
        if p == 2.0 || p == 1.0 {
            let saved = out.detach();
            Self::stat_node(&mut out, t, dims, 0.0, None, Some((p, saved)));
        }
        Ok(out)
    }

    /// `torch.count_nonzero(t, dim=None)` (int64).
    pub(crate) fn count_nonzero(&self, t: &Tensor, dims: Option<&[i64]>) -> Result<Tensor> {
        self.reduce_op(
            "count_nonzero",
            t,
            dims,
            false,
            t.dtype(),
            DType::Int64,
            crate::engine::backend::ReduceOp::CountNonzero,
            None,
        )
    }

    /// `repeat(*sizes)`: tiles `t` (a copy).
    pub fn repeat(&self, t: &Tensor, sizes: &[i64]) -> Result<Tensor> {
        let hint = err_hint(t);
        if sizes.len() < t.dim() {
            return Err(self.host_error(
                "repeat",
                hint,
                EngineError::runtime(
                    "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor",
                ),
            ));
        }
        if let Some(s) = sizes.iter().find(|s| **s < 0) {
            return Err(self.host_error(
                "repeat",
                hint,
                EngineError::runtime(format!(
                    "Trying to create tensor with negative dimension {s}: [{}]",
                    sizes.comma_separated()
                )),
            ));
        }
        let lead = sizes.len() - t.dim();
        let src_shape: Vec<usize> = std::iter::repeat_n(1, lead)
            .chain(t.layout.shape.iter().copied())
            .collect();
        let shape: Vec<usize> = src_shape
            .iter()
            .zip(sizes)
            .map(|(&a, &s)| a * s as usize)
            .collect();
        let src = t.clone();
        let out_shape = shape.clone();
        self.computed(
            "repeat",
            &[t],
            shape,
            t.dtype(),
            t.device(),
            move || {
                let v = src.values_or_zeros()?;
                let sst = contiguous_strides(&src_shape);
                let n: usize = out_shape.iter().product();
                let mut out = Vec::with_capacity(n);
                let mut idx = vec![0usize; out_shape.len()];
                for _ in 0..n {
                    let off: usize = idx
                        .iter()
                        .enumerate()
                        .map(|(k, &i)| (i % src_shape[k]) * sst[k])
                        .sum();
                    out.push(v[off]);
                    for a in (0..idx.len()).rev() {
                        idx[a] += 1;
                        if idx[a] < out_shape[a] {
                            break;
                        }
                        idx[a] = 0;
                    }
                }
                Ok(out)
            },
            Some("RepeatBackward0"),
        )
    }

    /// The dimension both forms of `split` cut: `dim` wrapped, refused on a 0-d tensor.
    fn split_dim(&self, t: &Tensor, dim: i64) -> Result<usize> {
        let hint = err_hint(t);
        let d = wrap_dim(dim, t.dim()).map_err(|e| self.host_error("split", hint, e))?;
        if t.dim() == 0 {
            return Err(self.host_error(
                "split",
                hint,
                EngineError::runtime("split expects at least a 1-dimensional tensor"),
            ));
        }
        Ok(d)
    }

    /// `split(sizes, dim)`: views of consecutive pieces (no kernel).
    pub(crate) fn split_sizes(&self, t: &Tensor, sizes: &[usize], dim: i64) -> Result<Vec<Tensor>> {
        let hint = err_hint(t);
        let d = self.split_dim(t, dim)?;
        let total: usize = sizes.iter().sum();
        if total != t.layout.shape[d] {
            return Err(self.host_error(
                "split",
                hint,
                EngineError::runtime(format!(
                    "split_with_sizes expects split_sizes to sum exactly to {} (input tensor's size at dimension {d}), but got split_sizes=[{}]",
                    t.layout.shape[d],
                    sizes.comma_separated()
                )),
            ));
        }
        let mut out = Vec::new();
        let mut start = 0usize;
        for &s in sizes {
            let mut v = t.slice(d as i64, Some(start as i64), Some((start + s) as i64), 1)?;
            if v.grad_fn.is_some() {
                v.grad_fn = Some("SplitWithSizesBackward0");
            }
            out.push(v);
            start += s;
        }
        self.host_event("split", hint, self.timing().host_dispatch_us);
        Ok(out)
    }

    /// `split(size, dim)`: pieces of `size` (the last may be smaller).
    pub(crate) fn split_even(&self, t: &Tensor, size: usize, dim: i64) -> Result<Vec<Tensor>> {
        let hint = err_hint(t);
        let d = self.split_dim(t, dim)?;
        let n = t.layout.shape[d];
        if size == 0 && n != 0 {
            return Err(self.host_error(
                "split",
                hint,
                EngineError::runtime(format!(
                    "split_size can only be 0 if dimension size is 0, but got dimension size of {n}"
                )),
            ));
        }
        let mut sizes = Vec::new();
        let mut left = n;
        while left > 0 {
            sizes.push(size.min(left));
            left -= size.min(left);
        }
        if sizes.is_empty() {
            sizes.push(0);
        }
        let mut out = self.split_sizes(t, &sizes, dim)?;
        for v in out.iter_mut() {
            if v.grad_fn.is_some() {
                v.grad_fn = Some("SplitBackward0");
            }
        }
        Ok(out)
    }

    /// `chunk(n, dim)`: pieces of ceil(size / n).
    pub(crate) fn chunk(&self, t: &Tensor, chunks: i64, dim: i64) -> Result<Vec<Tensor>> {
        if chunks <= 0 {
            return Err(self.host_error(
                "chunk",
                err_hint(t),
                EngineError::runtime(
                    "chunk expects `chunks` to be greater than 0, got: ".to_string()
                        + &chunks.to_string(),
                ),
            ));
        }
        let d = wrap_dim(dim, t.dim()).map_err(|e| self.host_error("chunk", err_hint(t), e))?;
        let n = t.layout.shape.get(d).copied().unwrap_or(0);
        let size = n.div_ceil(chunks as usize);
        if n == 0 {
            return self.split_even(t, 0, dim);
        }
        self.split_even(t, size, dim)
    }

    /// The checks of `torch.dot`, `torch.mv` and `torch.bmm` before they multiply.
    pub(crate) fn check_product(&self, op: &str, a: &Tensor, b: &Tensor) -> Result<()> {
        let hint = err_hint(a).or(err_hint(b));
        let e = match op {
            "dot" if a.dim() != 1 || b.dim() != 1 => Some(format!(
                "1D tensors expected, but got {}D and {}D tensors",
                a.dim(),
                b.dim()
            )),
            "dot" if a.layout.shape[0] != b.layout.shape[0] => Some(format!(
                "inconsistent tensor size, expected tensor [{}] and src [{}] to have the same number of elements, but got {} and {} elements respectively",
                a.layout.shape[0], b.layout.shape[0], a.layout.shape[0], b.layout.shape[0]
            )),
            "mv" if a.dim() != 2 || b.dim() != 1 => Some(format!(
                "vector + matrix @ vector expected, got {}, {}, {}",
                1,
                a.dim(),
                b.dim()
            )),
            "bmm" if a.dim() != 3 => Some("batch1 must be a 3D tensor".into()),
            "bmm" if b.dim() != 3 => Some("batch2 must be a 3D tensor".into()),
            "bmm"
                if a.layout.shape[0] != b.layout.shape[0]
                    || a.layout.shape[2] != b.layout.shape[1] =>
            {
                Some(format!(
                    "Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].",
                    a.layout.shape[0], a.layout.shape[2], b.layout.shape[0], b.layout.shape[1]
                ))
            }
            _ => None,
        };
        match e {
            Some(m) => Err(self.host_error(op, hint, EngineError::runtime(m))),
            None => Ok(()),
        }
    }
}
