//! Reductions and scans on host buffers.
//!
//! A reduction permutes its operand so the kept dims come first and the reduced dims last;
//! each output element then reduces one run of `group` consecutive values (read in place
//! when the permuted view is contiguous, from one gathered copy otherwise).
//!
//! float32 sum, mean, prod, var/std and norm, and float64 sum and mean, are engine::numerics'
//! kernels: PyTorch's own order of operations (cascade sum with vectorised accumulators,
//! Welford in double, ...), so results match PyTorch CPU bit for bit ([`exact`]). The other
//! float dtypes accumulate in float64 and round once ([`sum_float`]).

use super::elementwise::{gather, typed};
use super::math::Float;
use super::{HostStorage, Stored, got};
use crate::engine::dtype::DType;
use crate::engine::element::Element;
use crate::engine::error::{EngineError, Result};
use crate::engine::hostbuf::try_with_capacity;
use crate::engine::interrupt::{CHUNK, poll};
use crate::engine::layout::Layout;
use crate::engine::op::ReduceOp;
use half::{bf16, f16};

/// The values of `layout` arranged as `groups` runs of `group` (reduced dims last).
struct Grouped<'a, T: Clone> {
    data: std::borrow::Cow<'a, [T]>,
    groups: usize,
    group: usize,
}

fn grouped<'a, T: Element>(
    v: &'a [T],
    layout: &Layout,
    reduced: &[bool],
) -> Result<Grouped<'a, T>> {
    let nd = layout.dims();
    let perm: Vec<usize> = (0..nd)
        .filter(|&d| !reduced[d])
        .chain((0..nd).filter(|&d| reduced[d]))
        .collect();
    let p = layout.permuted(&perm);
    let group: usize = (0..nd)
        .filter(|&d| reduced[d])
        .map(|d| layout.shape[d])
        .product();
    let groups: usize = (0..nd)
        .filter(|&d| !reduced[d])
        .map(|d| layout.shape[d])
        .product();
    let data = super::elementwise::in_order(v, &p)?;
    Ok(Grouped {
        data,
        groups,
        group,
    })
}

/// `f` of each group (an empty slice for empty groups), with interrupt polls.
fn per_group<T: Element, U: Element>(g: &Grouped<T>, f: impl Fn(&[T]) -> U) -> Result<Vec<U>> {
    let mut out = got(try_with_capacity(g.groups), g.groups)?;
    let mut since = 0usize;
    for i in 0..g.groups {
        out.push(f(&g.data[i * g.group..(i + 1) * g.group]));
        since += g.group.max(1);
        if since >= CHUNK {
            since = 0;
            poll()?;
        }
    }
    Ok(out)
}

/// The sum of floats, rounded once to `T` (see the module docs).
#[inline]
pub(crate) fn sum_float<T: Element>(c: &[T]) -> f64 {
    c.iter().map(|x| x.to_f64()).sum()
}

fn float_reduce<T: Float + Stored>(g: &Grouped<T>, op: ReduceOp) -> Result<HostStorage> {
    let w = |v: Result<Vec<T>>| v.map(T::wrap);
    // var_mean's parts where no exact kernel ran (empty inputs, float16/bfloat16)
    let op = match op {
        ReduceOp::WelfordVar { correction, std } => ReduceOp::Var { correction, std },
        ReduceOp::WelfordMean => ReduceOp::Mean,
        op => op,
    };
    match op {
        ReduceOp::Sum => w(per_group(g, |c| T::from_f64(sum_float(c)))),
        ReduceOp::Mean => w(per_group(g, |c| {
            // sum rounded to T, then divided by the count in T (ATen: sum, then div_)
            let s = T::from_f64(sum_float(c));
            if T::DTYPE == DType::Float64 {
                T::from_f64(s.to_f64() / c.len() as f64)
            } else {
                T::from_f32(s.to_f32() / c.len() as f32)
            }
        })),
        ReduceOp::Prod => w(per_group(g, |c| {
            T::from_f64(c.iter().map(|x| x.to_f64()).product())
        })),
        ReduceOp::Var { correction, std } => w(per_group(g, |c| {
            let n = c.len() as f64;
            let m = sum_float(c) / n;
            let ss: f64 = c.iter().map(|x| (x.to_f64() - m) * (x.to_f64() - m)).sum();
            let v = ss / (n - correction).max(0.0);
            T::from_f64(if std { v.sqrt() } else { v })
        })),
        ReduceOp::Norm(p) => w(per_group(g, |c| {
            let a = c.iter().map(|x| x.to_f64().abs());
            let r = if p == f64::INFINITY {
                a.fold(0.0f64, f64::max)
            } else if p == f64::NEG_INFINITY {
                a.fold(f64::INFINITY, f64::min)
            } else if p == 0.0 {
                a.filter(|x| *x != 0.0).count() as f64
            } else if p == 2.0 {
                a.map(|x| x * x).sum::<f64>().sqrt()
            } else if p == 1.0 {
                a.sum::<f64>()
            } else {
                a.map(|x| x.powf(p)).sum::<f64>().powf(1.0 / p)
            };
            T::from_f64(r)
        })),
        _ => ordered_reduce(g, op),
    }
}

/// (index, value) of the first maximum (or minimum); a NaN wins and stops the search.
fn extreme<T: Element>(c: &[T], is_max: bool, is_nan: impl Fn(T) -> bool) -> (usize, T) {
    let mut bi = 0;
    let mut bv = c.first().copied().unwrap_or(T::ZERO);
    for (i, &v) in c.iter().enumerate() {
        if is_nan(bv) {
            break;
        }
        if is_nan(v) || (is_max && v > bv) || (!is_max && v < bv) {
            bi = i;
            bv = v;
        }
    }
    (bi, bv)
}

/// The reductions every dtype has (order, truth, counts).
fn ordered_reduce<T: Stored>(g: &Grouped<T>, op: ReduceOp) -> Result<HostStorage> {
    let nan = |x: T| x.to_f64().is_nan();
    Ok(match op {
        ReduceOp::Max => T::wrap(per_group(g, |c| extreme(c, true, nan).1)?),
        ReduceOp::Min => T::wrap(per_group(g, |c| extreme(c, false, nan).1)?),
        ReduceOp::ArgMax => i64::wrap(per_group(g, |c| extreme(c, true, nan).0 as i64)?),
        ReduceOp::ArgMin => i64::wrap(per_group(g, |c| extreme(c, false, nan).0 as i64)?),
        ReduceOp::Any => bool::wrap(per_group(g, |c| c.iter().any(|x| !x.is_zero()))?),
        ReduceOp::All => bool::wrap(per_group(g, |c| c.iter().all(|x| !x.is_zero()))?),
        ReduceOp::CountNonzero => i64::wrap(per_group(g, |c| {
            c.iter().filter(|x| !x.is_zero()).count() as i64
        })?),
        other => {
            return Err(EngineError::runtime(format!(
                "internal: {other:?} of {} reaches the kernel uncast",
                T::DTYPE
            )));
        }
    })
}

fn int_reduce<T: Stored + super::arith::Arith>(
    g: &Grouped<T>,
    op: ReduceOp,
) -> Result<HostStorage> {
    match op {
        // wrapping, in the type the front half chose (int64 for sum and prod of integers)
        ReduceOp::Sum => Ok(T::wrap(per_group(g, |c| {
            c.iter().fold(T::ZERO, |a, &x| a.add(x))
        })?)),
        ReduceOp::Prod => Ok(T::wrap(per_group(g, |c| {
            c.iter().fold(T::ONE, |a, &x| a.mul(x))
        })?)),
        _ => ordered_reduce(g, op),
    }
}

fn reduce_t<T: Stored>(
    h: &HostStorage,
    layout: &Layout,
    op: ReduceOp,
    reduced: &[bool],
    f: impl FnOnce(&Grouped<T>, ReduceOp) -> Result<HostStorage>,
) -> Result<HostStorage> {
    let g = grouped(typed::<T>(h)?, layout, reduced)?;
    f(&g, op)
}

/// Reduce the dims marked in `reduced`; the result holds the kept dims in order. The front
/// half has cast the operand to the dtype the op computes in.
pub(crate) fn reduce(
    h: &HostStorage,
    layout: &Layout,
    op: ReduceOp,
    reduced: &[bool],
) -> Result<HostStorage> {
    if let Some(r) = exact(h, layout, op, reduced) {
        return Ok(r);
    }
    if let Some(r) = extreme_in_place(h, layout, op, reduced) {
        return r;
    }
    match h.dtype() {
        DType::Float32 => reduce_t::<f32>(h, layout, op, reduced, float_reduce),
        DType::Float64 => reduce_t::<f64>(h, layout, op, reduced, float_reduce),
        DType::Float16 => reduce_t::<f16>(h, layout, op, reduced, float_reduce),
        DType::BFloat16 => reduce_t::<bf16>(h, layout, op, reduced, float_reduce),
        DType::Int64 => reduce_t::<i64>(h, layout, op, reduced, int_reduce),
        DType::Int32 => reduce_t::<i32>(h, layout, op, reduced, int_reduce),
        DType::Int16 => reduce_t::<i16>(h, layout, op, reduced, int_reduce),
        DType::Int8 => reduce_t::<i8>(h, layout, op, reduced, int_reduce),
        DType::UInt8 => reduce_t::<u8>(h, layout, op, reduced, int_reduce),
        DType::Bool => reduce_t::<bool>(h, layout, op, reduced, ordered_reduce),
    }
}

/// float32 max/min/argmax/argmin along one dimension, read in place ([`super::extreme`]);
/// None for the other cases (the generic path gives the same values).
fn extreme_in_place(
    h: &HostStorage,
    layout: &Layout,
    op: ReduceOp,
    reduced: &[bool],
) -> Option<Result<HostStorage>> {
    let HostStorage::F32(x) = h else {
        return None;
    };
    let is_max = match op {
        ReduceOp::Max | ReduceOp::ArgMax => true,
        ReduceOp::Min | ReduceOp::ArgMin => false,
        _ => return None,
    };
    let mut dims = (0..layout.dims()).filter(|&d| reduced[d]);
    let (Some(dim), None) = (dims.next(), dims.next()) else {
        return None;
    };
    if layout.numel() == 0 {
        return None;
    }
    let want_values = matches!(op, ReduceOp::Max | ReduceOp::Min);
    Some(
        super::extreme::extreme_dim_f32(x, layout, dim, is_max).map(|(values, indices)| {
            if want_values {
                HostStorage::F32(values)
            } else {
                HostStorage::I64(indices)
            }
        }),
    )
}

/// The reductions engine::numerics reproduces bit for bit (float32; float64 sum and mean);
/// None for the others (their order does not change the result, or it is not reproduced).
fn exact(h: &HostStorage, layout: &Layout, op: ReduceOp, reduced: &[bool]) -> Option<HostStorage> {
    use crate::engine::numerics::{View, reduce as nr, stats, sum};
    let nd = layout.dims();
    let dims: Vec<usize> = (0..nd).filter(|&d| reduced[d]).collect();
    // numerics reads an empty `dims` as "all dims"
    if (nd > 0 && dims.is_empty()) || layout.numel() == 0 {
        return None;
    }
    let v = View {
        shape: &layout.shape,
        strides: &layout.strides,
        offset: layout.offset,
    };
    match h {
        HostStorage::F32(x) => Some(HostStorage::F32(match op {
            ReduceOp::Sum => sum::sum_dims_f32(x, v, &dims),
            ReduceOp::Mean => sum::mean_dims_f32(x, v, &dims),
            ReduceOp::Prod => nr::prod_f32(x, v, &dims),
            ReduceOp::Var { correction, std } => stats::var_f32(x, v, &dims, correction, std),
            ReduceOp::WelfordVar { correction, std } => {
                stats::var_mean_f32(x, v, &dims, correction, std).0
            }
            ReduceOp::WelfordMean => stats::var_mean_f32(x, v, &dims, 0.0, false).1,
            ReduceOp::Norm(p) => stats::vector_norm_f32(x, v, &dims, stats::NormOrd::from_f64(p)),
            _ => return None,
        })),
        HostStorage::F64(x) => Some(HostStorage::F64(match op {
            ReduceOp::Sum => sum::sum_dims_f64(x, v, &dims),
            ReduceOp::Mean => sum::mean_dims_f64(x, v, &dims),
            ReduceOp::Var { correction, std } => stats::var_f64(x, v, &dims, correction, std),
            ReduceOp::WelfordVar { correction, std } => {
                stats::var_mean_f64(x, v, &dims, correction, std).0
            }
            ReduceOp::WelfordMean => stats::var_mean_f64(x, v, &dims, 0.0, false).1,
            ReduceOp::Norm(2.0) => stats::vector_norm2_f64(x, v, &dims)?,
            // (a reduction over a size-1 dimension is a copy; the generic loop gives it)
            ReduceOp::Prod if dims.iter().all(|&d| layout.shape[d] > 1) => {
                nr::prod_f64(x, v, &dims)
            }
            _ => return None,
        })),
        _ => None,
    }
}

// ----- scans -----

/// `layout` with `dim` moved last: (the permuted layout, the permutation).
pub(crate) fn dim_last(layout: &Layout, dim: usize) -> (Layout, Vec<usize>) {
    let nd = layout.dims();
    if nd == 0 {
        // a 0-dim tensor is one row of one element along its (only) dim
        return (layout.clone(), Vec::new());
    }
    let perm: Vec<usize> = (0..nd).filter(|&i| i != dim).chain([dim]).collect();
    (layout.permuted(&perm), perm)
}

/// Rows laid out with `dim` last (row-major over the permuted shape) put back in row-major
/// order of `shape`.
pub(crate) fn unrows<T: Element>(rows: Vec<T>, shape: &[usize], dim: usize) -> Result<Vec<T>> {
    let nd = shape.len();
    if nd == 0 || dim + 1 == nd {
        return Ok(rows);
    }
    let (_, perm) = dim_last(&Layout::contiguous(shape), dim);
    let pshape: Vec<usize> = perm.iter().map(|&i| shape[i]).collect();
    let pst = crate::engine::layout::contiguous_strides(&pshape);
    let mut st = vec![0usize; nd];
    for (j, &i) in perm.iter().enumerate() {
        st[i] = pst[j];
    }
    gather(&rows, &Layout::new(shape.to_vec(), st, 0))
}

/// A scan accumulated in `A` (the element type, or float32 for float16/bfloat16 as ATen's
/// `at::acc_type` on the CPU): each element widened, one rounding per step, each output
/// narrowed back to `T`.
fn scan_in<T: Stored, A: super::arith::Arith>(
    h: &HostStorage,
    layout: &Layout,
    dim: usize,
    prod: bool,
    widen: impl Fn(T) -> A,
    narrow: impl Fn(A) -> T,
) -> Result<HostStorage> {
    scan_rows::<T>(h, layout, dim, |row| {
        let mut acc = if prod { A::ONE } else { A::ZERO };
        for x in row.iter_mut() {
            let v = widen(*x);
            acc = if prod { acc.mul(v) } else { acc.add(v) };
            *x = narrow(acc);
        }
    })
}

/// What every scan shares: the rows along `dim` gathered contiguous, `scan_row` run on each
/// in place (the interrupt polled every [`CHUNK`] elements), then put back in `layout`'s
/// shape.
fn scan_rows<T: Stored>(
    h: &HostStorage,
    layout: &Layout,
    dim: usize,
    mut scan_row: impl FnMut(&mut [T]),
) -> Result<HostStorage> {
    let (p, _) = dim_last(layout, dim);
    let mut rows = gather(typed::<T>(h)?, &p)?;
    let len = if layout.dims() == 0 {
        1
    } else {
        layout.shape[dim]
    };
    let mut since = 0;
    for row in rows.chunks_mut(len.max(1)) {
        scan_row(row);
        since += len;
        if since >= CHUNK {
            since = 0;
            poll()?;
        }
    }
    poll()?;
    Ok(T::wrap(unrows(rows, &layout.shape, dim)?))
}

/// cumsum (cumprod when `prod`) along `dim`, in `h`'s dtype.
pub(crate) fn scan(
    h: &HostStorage,
    layout: &Layout,
    dim: usize,
    prod: bool,
) -> Result<HostStorage> {
    macro_rules! go {
        ($t:ty) => {
            scan_in::<$t, $t>(h, layout, dim, prod, |x| x, |a| a)
        };
    }
    if let HostStorage::F32(x) = h {
        // accumulated in double, as ATen's cumsum/cumprod of float32
        let v = crate::engine::numerics::View {
            shape: &layout.shape,
            strides: &layout.strides,
            offset: layout.offset,
        };
        if layout.dims() > 0 {
            return Ok(HostStorage::F32(
                crate::engine::numerics::stats::cumulative_f32(x, v, dim, prod),
            ));
        }
    }
    match h.dtype() {
        DType::Float32 => go!(f32),
        DType::Float64 => go!(f64),
        // ATen accumulates half and bfloat16 in float (at::acc_type on the CPU)
        DType::Float16 => scan_in::<f16, f32>(h, layout, dim, prod, f16::to_f32, f16::from_f32),
        DType::BFloat16 => scan_in::<bf16, f32>(h, layout, dim, prod, bf16::to_f32, bf16::from_f32),
        DType::Int64 => go!(i64),
        DType::Int32 => go!(i32),
        DType::Int16 => go!(i16),
        DType::Int8 => go!(i8),
        DType::UInt8 => go!(u8),
        DType::Bool => go!(bool),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_over_dims_and_scans() {
        let h = HostStorage::F32(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let l = Layout::contiguous(&[2, 3]);
        let s = reduce(&h, &l, ReduceOp::Sum, &[true, false]).unwrap();
        assert_eq!(s, HostStorage::F32(vec![5.0, 7.0, 9.0]));
        let m = reduce(&h, &l, ReduceOp::Mean, &[false, true]).unwrap();
        assert_eq!(m, HostStorage::F32(vec![2.0, 5.0]));
        let a = reduce(&h, &l, ReduceOp::ArgMax, &[true, true]).unwrap();
        assert_eq!(a, HostStorage::I64(vec![5]));
        let i = HostStorage::I64(vec![i64::MAX, 1]);
        let li = Layout::contiguous(&[2]);
        assert_eq!(
            reduce(&i, &li, ReduceOp::Sum, &[true]).unwrap(),
            HostStorage::I64(vec![i64::MIN])
        );
        let n = HostStorage::F32(vec![1.0, f32::NAN, 3.0]);
        let ln = Layout::contiguous(&[3]);
        assert_eq!(
            reduce(&n, &ln, ReduceOp::ArgMax, &[true]).unwrap(),
            HostStorage::I64(vec![1])
        );
        let c = scan(&h, &l, 0, false).unwrap();
        assert_eq!(c, HostStorage::F32(vec![1.0, 2.0, 3.0, 5.0, 7.0, 9.0]));
        let c = scan(&h, &l, 1, true).unwrap();
        assert_eq!(c, HostStorage::F32(vec![1.0, 2.0, 6.0, 4.0, 20.0, 120.0]));
        let e = reduce(
            &h,
            &Layout::contiguous(&[2, 0]),
            ReduceOp::Sum,
            &[false, true],
        );
        assert_eq!(e.unwrap(), HostStorage::F32(vec![0.0, 0.0]));
    }
}
