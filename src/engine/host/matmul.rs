//! Matrix products on host buffers: float32 in the summation order of PyTorch's CPU BLAS
//! (`sgemm.rs`; float16 and bfloat16 go through it), float64 through the `gemm` crate called
//! once per K block of MKL's dgemm (`sgemm::k_blocks`: each block one fused chain per element,
//! the blocks added in order), `torch.dot` in MKL's sdot/ddot order (`dot.rs`), a plain loop
//! with wrapping arithmetic for the integers.
//!
//! Each product is split into blocks of rows with an interrupt poll between them; splitting
//! rows does not change any result (every element still sums its k products in the same
//! order). float64 products too large for one poll interval (a block of rows past
//! [`WORK_PER_CALL`] multiply-adds, which views expanded from one element make possible
//! without memory) are cut further into column blocks and, for k past it, k blocks
//! accumulated in order. The float32 kernels poll inside their own loops (sgemm.rs).

use super::arith::Arith;
use super::elementwise::{gather, typed};
use super::{HostStorage, Stored, got};
use crate::engine::dtype::DType;
use crate::engine::element::{Element, convert};
use crate::engine::error::{EngineError, Result};
use crate::engine::hostbuf::{try_filled, try_zeroed};
use crate::engine::interrupt::{CHUNK, poll, poll_now};
use crate::engine::layout::Layout;
use crate::engine::op::MatmulDims;
use half::{bf16, f16};

/// Rows of the output computed between two interrupt polls: a 1024x1024x1024 float32
/// product is split into 8 pieces of about 10 ms each.
const ROWS_PER_POLL: usize = 128;

/// Multiply-adds of one float64 GEMM call between two polls: about 50 ms of one core on a
/// loaded machine. Products whose 128-row blocks stay under it (`k * n` up to 2^21: every
/// size the tests record) keep the plain row blocks above, so their bits are the ones the
/// row split always gave.
const WORK_PER_CALL: usize = 1 << 28;

/// The gemm crate computes whole register tiles: a call with fewer rows or columns than this
/// costs about as much as one with this many (a 1 x 1 x 2^28 call on views expanded from one
/// element took seconds), so work is counted with both sides at least this.
const TILE: usize = 16;

/// The work of one gemm call, its sides counted as whole tiles.
fn call_work(rows: usize, k: usize, cols: usize) -> usize {
    rows.max(TILE)
        .saturating_mul(cols.max(TILE))
        .saturating_mul(k)
}

/// One matrix of a batch: element strides of its rows and columns, and its offset.
#[derive(Clone, Copy)]
struct Mat {
    offset: usize,
    rs: isize,
    cs: isize,
}

/// The `i`th matrix of a `[batch, r, c]` layout.
fn mat(l: &Layout, i: usize) -> Mat {
    Mat {
        offset: l.offset + i * l.strides[0],
        rs: l.strides[1] as isize,
        cs: l.strides[2] as isize,
    }
}

/// Floats the gemm crate multiplies natively (float64 here; float32 has its own kernels in
/// [`super::sgemm`]): `gemm::gemm` panics for a type it does not know.
trait GemmFloat: Element + Arith {
    /// `a * b + c` rounded once.
    fn fma(a: Self, b: Self, c: Self) -> Self;
    /// `dst[m x n] (+)= a[m x k] @ b[k x n]`, dst's rows `dst_rs` apart; `accumulate` keeps
    /// dst's values (the bias, or the sum of earlier k blocks).
    #[allow(clippy::too_many_arguments)]
    fn gemm(
        dst: &mut [Self],
        dst_rs: usize,
        a: &[Self],
        am: Mat,
        b: &[Self],
        bm: Mat,
        m: usize,
        k: usize,
        n: usize,
        accumulate: bool,
    ) {
        if m == 0 || n == 0 {
            return;
        }
        assert!(dst_rs >= n && dst.len() >= (m - 1) * dst_rs + n);
        if k == 0 {
            if !accumulate {
                for r in 0..m {
                    dst[r * dst_rs..r * dst_rs + n].fill(Self::ZERO);
                }
            }
            return;
        }
        // The furthest element each operand view reaches must lie inside its slice.
        let end = |mt: Mat, r: usize, c: usize| {
            mt.offset as isize + (r as isize - 1) * mt.rs + (c as isize - 1) * mt.cs
        };
        assert!(end(am, m, k) < a.len() as isize && end(bm, k, n) < b.len() as isize);
        // SAFETY: dst holds the m x n elements written with row stride dst_rs and
        // column stride 1 (asserted above); a and b are read at offset + r*rs + c*cs for r, c inside their shapes,
        // all inside the slices (asserted above, strides are non-negative). The three
        // do not alias: dst is a fresh buffer of its own.
        unsafe {
            gemm::gemm(
                m,
                n,
                k,
                dst.as_mut_ptr(),
                1,
                dst_rs as isize,
                accumulate,
                a.as_ptr().add(am.offset),
                am.cs,
                am.rs,
                b.as_ptr().add(bm.offset),
                bm.cs,
                bm.rs,
                Self::ONE,
                Self::ONE,
                false,
                false,
                false,
                gemm::Parallelism::None,
            );
        }
    }
}

impl GemmFloat for f64 {
    fn fma(a: Self, b: Self, c: Self) -> Self {
        a.mul_add(b, c)
    }
}

/// The bias broadcast over one `[m, n]` product, or zeros.
fn init_out<T: Stored>(bias: Option<(&HostStorage, &Layout)>, dims: MatmulDims) -> Result<Vec<T>> {
    let total = dims.batch * dims.m * dims.n;
    match bias {
        Some((h, l)) => gather(typed::<T>(h)?, l),
        None => got(try_zeroed::<T>(total), total),
    }
}

fn matmul_float<T: GemmFloat + Stored>(
    a: (&HostStorage, &Layout),
    b: (&HostStorage, &Layout),
    bias: Option<(&HostStorage, &Layout)>,
    d: MatmulDims,
) -> Result<HostStorage> {
    let (av, bv) = (typed::<T>(a.0)?, typed::<T>(b.0)?);
    let mut out = init_out::<T>(bias, d)?;
    let acc = bias.is_some();
    for i in 0..d.batch {
        let (am, bm) = (mat(a.1, i), mat(b.1, i));
        let base = i * d.m * d.n;
        if d.k == 1 && acc && d.n >= 2 {
            // MKL fuses the one product with the bias (n == 1 adds it unfused)
            for r in 0..d.m {
                poll()?;
                for c in 0..d.n {
                    let x = av[(am.offset as isize + r as isize * am.rs) as usize];
                    let y = bv[(bm.offset as isize + c as isize * bm.cs) as usize];
                    let o = &mut out[base + r * d.n + c];
                    *o = T::fma(x, y, *o);
                }
            }
            continue;
        }
        let per_row = d.k.saturating_mul(d.n.max(TILE)).max(1);
        let rows_per_call = (WORK_PER_CALL / per_row).clamp(1, ROWS_PER_POLL);
        let whole_rows = call_work(rows_per_call, d.k, d.n) <= WORK_PER_CALL;
        let mut r = 0;
        while r < d.m {
            let rows = rows_per_call.min(d.m - r);
            let sub = Mat {
                offset: am.offset + r * a.1.strides[1],
                ..am
            };
            let dst = &mut out[base + r * d.n..base + (r + rows) * d.n];
            if whole_rows {
                // MKL dgemm's K blocks, each one gemm call (one fused chain per element from
                // 0, added to what dst holds)
                for (p, len) in super::sgemm::k_blocks(d.k) {
                    let a_sub = Mat {
                        offset: (sub.offset as isize + p as isize * sub.cs) as usize,
                        ..sub
                    };
                    let b_sub = Mat {
                        offset: (bm.offset as isize + p as isize * bm.rs) as usize,
                        ..bm
                    };
                    T::gemm(dst, d.n, av, a_sub, bv, b_sub, rows, len, d.n, acc || p > 0);
                }
                if d.k == 0 {
                    T::gemm(dst, d.n, av, sub, bv, bm, rows, 0, d.n, acc);
                }
                poll_now()?;
            } else {
                gemm_in_blocks(dst, (av, sub), (bv, bm), rows, d.k, d.n, acc)?;
            }
            r += rows;
        }
    }
    Ok(T::wrap(out))
}

/// A block of rows too much work for one call ([`call_work`] past [`WORK_PER_CALL`]):
/// column blocks, and k blocks added in order, each call within it, polled between calls.
fn gemm_in_blocks<T: GemmFloat>(
    dst: &mut [T],
    (av, am): (&[T], Mat),
    (bv, bm): (&[T], Mat),
    m: usize,
    k: usize,
    n: usize,
    accumulate: bool,
) -> Result<()> {
    let k_block = k.min(WORK_PER_CALL / (m.max(TILE) * TILE)).max(1);
    let cols = (WORK_PER_CALL / (m.max(TILE) * k_block)).clamp(1, n);
    let mut c = 0;
    while c < n {
        let w = cols.min(n - c);
        let mut p = 0;
        while p < k {
            let len = k_block.min(k - p);
            let a_sub = Mat {
                offset: (am.offset as isize + p as isize * am.cs) as usize,
                ..am
            };
            let b_sub = Mat {
                offset: (bm.offset as isize + p as isize * bm.rs + c as isize * bm.cs) as usize,
                ..bm
            };
            let sums = accumulate || p > 0;
            T::gemm(&mut dst[c..], n, av, a_sub, bv, b_sub, m, len, w, sums);
            poll_now()?;
            p += len;
        }
        c += w;
    }
    Ok(())
}

/// float32: PyTorch's CPU BLAS order (see [`super::sgemm`]). `mkl_small`: a transposed `b`
/// may take MKL's small-product kernels (pair_dot.rs, the fused chain); false for products
/// that are not MKL's sgemm in PyTorch (conv's), which keep the older dot path.
fn matmul_f32(
    a: (&HostStorage, &Layout),
    b: (&HostStorage, &Layout),
    bias: Option<(&HostStorage, &Layout)>,
    d: MatmulDims,
    mkl_small: bool,
) -> Result<HostStorage> {
    let (av, bv) = (typed::<f32>(a.0)?, typed::<f32>(b.0)?);
    let mut out = init_out::<f32>(bias, d)?;
    let (m, k, n) = (d.m, d.k, d.n);
    for i in 0..d.batch {
        let (am, bm) = (mat(a.1, i), mat(b.1, i));
        let view = |data, mt: Mat| super::sgemm::View {
            data,
            offset: mt.offset,
            rs: mt.rs,
            cs: mt.cs,
        };
        let dst = &mut out[i * m * n..(i + 1) * m * n];
        let (va, vb) = (view(av, am), view(bv, bm));
        if d.batch == 1
            && m == 1
            && n < super::sgemm::ROW_CHAIN_MAX_N
            && bias.is_none()
            && !super::sgemm::b_transposed(&vb, k, n)
        {
            super::sgemm::row_chains(dst, &va, &vb, k, n)?;
            continue;
        }
        let transposed = super::sgemm::b_transposed(&vb, k, n);
        // MKL's kernels for a transposed `b` of one product (bmm's batched kernels were not
        // measured): the pair-dot kernel, or a fused chain everywhere else measured (m, n in
        // 2..=32, k <= 300, below sgemm_t_smalln); one row, one column, smalln and larger
        // products keep the older dot path (a Linear(784, 10) on a batch of 256 matches
        // PyTorch that way in the learner corpus, and not through the fused chain)
        let measured = mkl_small
            && transposed
            && d.batch == 1
            && (2..=32).contains(&m)
            && (2..=32).contains(&n)
            && k <= 300;
        if measured && super::pair_dot::mkl_picks_pair_dot(m, k, n) {
            let rows = gather_rows(&va, m, k)?;
            let wrow = |j: usize| {
                let s = (vb.offset as isize + j as isize * vb.cs) as usize;
                &vb.data[s..s + k]
            };
            super::pair_dot::pair_dots(
                dst,
                bias.is_some(),
                |i| &rows[i * k..(i + 1) * k],
                wrow,
                m,
                n,
            )?;
            continue;
        }
        // outside the measured shapes, and in sgemm_t_smalln's, the older dot path
        let old_dot = transposed && (!measured || super::pair_dot::mkl_picks_small_n(m, k));
        super::sgemm::sgemm(dst, bias.is_some(), va, vb, m, k, n, old_dot)?;
    }
    Ok(HostStorage::F32(out))
}

/// `v` (`m x k`) copied row-major.
fn gather_rows(v: &super::sgemm::View, m: usize, k: usize) -> Result<Vec<f32>> {
    let mut rows = got(try_zeroed::<f32>(m * k), m * k)?;
    for i in 0..m {
        for p in 0..k {
            rows[i * k + p] = v.at(i, p);
        }
    }
    Ok(rows)
}

/// float16/bfloat16: operands widened to float32, multiplied, rounded back once.
fn matmul_reduced<T: Stored>(
    a: (&HostStorage, &Layout),
    b: (&HostStorage, &Layout),
    bias: Option<(&HostStorage, &Layout)>,
    d: MatmulDims,
) -> Result<HostStorage> {
    let widen = |(h, l): (&HostStorage, &Layout)| -> Result<(HostStorage, Layout)> {
        Ok((
            super::elementwise::to_dtype(h, l, DType::Float32)?,
            Layout::contiguous(&l.shape),
        ))
    };
    let (a32, al) = widen(a)?;
    let (b32, bl) = widen(b)?;
    let bias32 = bias.map(widen).transpose()?;
    let r = matmul_f32(
        (&a32, &al),
        (&b32, &bl),
        bias32.as_ref().map(|(h, l)| (h, l)),
        d,
        true,
    )?;
    let v = typed::<f32>(&r)?;
    let n = v.len();
    let mut out = got(try_filled(n, T::ZERO), n)?;
    for (o, &x) in out.iter_mut().zip(v) {
        *o = convert::<f32, T>(x);
    }
    Ok(T::wrap(out))
}

/// Integers: one wrapping multiply-add chain per element, in the element type.
fn matmul_int<T: Stored + Arith>(
    a: (&HostStorage, &Layout),
    b: (&HostStorage, &Layout),
    bias: Option<(&HostStorage, &Layout)>,
    d: MatmulDims,
) -> Result<HostStorage> {
    let (av, bv) = (typed::<T>(a.0)?, typed::<T>(b.0)?);
    let mut out = init_out::<T>(bias, d)?;
    for i in 0..d.batch {
        let (am, bm) = (mat(a.1, i), mat(b.1, i));
        for r in 0..d.m {
            for c in 0..d.n {
                let mut acc = T::ZERO;
                for p in 0..d.k {
                    // views expanded from one element can make k itself 10^12 long
                    if p % CHUNK == CHUNK - 1 {
                        poll()?;
                    }
                    let x =
                        av[(am.offset as isize + r as isize * am.rs + p as isize * am.cs) as usize];
                    let y =
                        bv[(bm.offset as isize + p as isize * bm.rs + c as isize * bm.cs) as usize];
                    acc = acc.add(x.mul(y));
                }
                poll()?;
                let o = &mut out[(i * d.m + r) * d.n + c];
                *o = o.add(acc);
            }
            if r % ROWS_PER_POLL == 0 {
                poll_now()?;
            }
        }
    }
    Ok(T::wrap(out))
}

/// `a @ b` for one `[1, k] @ [k, 1]` product that PyTorch computes as a dot product
/// (`torch.dot`, `1-D @ 1-D`): float32 and float64 in MKL's sdot/ddot order ([`super::dot`]),
/// other dtypes as any product.
pub(crate) fn dot(
    a: (&HostStorage, &Layout),
    b: (&HostStorage, &Layout),
    dims: MatmulDims,
) -> Result<HostStorage> {
    fn vectors<T: Stored>(
        a: (&HostStorage, &Layout),
        b: (&HostStorage, &Layout),
    ) -> Result<(Vec<T>, Vec<T>)> {
        Ok((
            gather(typed::<T>(a.0)?, a.1)?,
            gather(typed::<T>(b.0)?, b.1)?,
        ))
    }
    if dims.batch != 1 || dims.m != 1 || dims.n != 1 {
        return matmul(a, b, None, dims);
    }
    match a.0.dtype() {
        DType::Float32 => {
            let (x, y) = vectors::<f32>(a, b)?;
            Ok(HostStorage::F32(vec![super::dot::dot(&x, &y)?]))
        }
        DType::Float64 => {
            let (x, y) = vectors::<f64>(a, b)?;
            Ok(HostStorage::F64(vec![super::dot::dot(&x, &y)?]))
        }
        _ => matmul(a, b, None, dims),
    }
}

/// `a @ b (+ bias)` for `dims.batch` products (see [`crate::engine::backend::BackendStorage::matmul`]).
pub(crate) fn matmul(
    a: (&HostStorage, &Layout),
    b: (&HostStorage, &Layout),
    bias: Option<(&HostStorage, &Layout)>,
    dims: MatmulDims,
) -> Result<HostStorage> {
    match a.0.dtype() {
        DType::Float32 => matmul_f32(a, b, bias, dims, true),
        DType::Float64 => matmul_float::<f64>(a, b, bias, dims),
        DType::Float16 => matmul_reduced::<f16>(a, b, bias, dims),
        DType::BFloat16 => matmul_reduced::<bf16>(a, b, bias, dims),
        DType::Int64 => matmul_int::<i64>(a, b, bias, dims),
        DType::Int32 => matmul_int::<i32>(a, b, bias, dims),
        DType::Int16 => matmul_int::<i16>(a, b, bias, dims),
        DType::Int8 => matmul_int::<i8>(a, b, bias, dims),
        DType::UInt8 => matmul_int::<u8>(a, b, bias, dims),
        DType::Bool => Err(EngineError::runtime(
            "\"addmm_impl_cpu_\" not implemented for 'Bool'",
        )),
    }
}

/// conv's GEMMs (host/conv.rs): PyTorch convolves through oneDNN or slow_conv2d, not MKL's
/// small-product kernels, so a transposed `b` keeps the older dot path there (the learner
/// corpus' small CNNs match PyTorch that way and not through the small kernels).
pub(crate) fn matmul_for_conv(
    a: (&HostStorage, &Layout),
    b: (&HostStorage, &Layout),
    bias: Option<(&HostStorage, &Layout)>,
    dims: MatmulDims,
) -> Result<HostStorage> {
    match a.0.dtype() {
        DType::Float32 => matmul_f32(a, b, bias, dims, false),
        _ => matmul(a, b, bias, dims),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::test_sequence::Lcg;

    /// One fused multiply-add chain per element: PyTorch's order for n >= 12 (and more than 3
    /// rows in each thread's part) up to k = 192 (host/sgemm.rs).
    fn chain(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f32> {
        let mut c = vec![0f32; m * n];
        for i in 0..m {
            for j in 0..n {
                c[i * n + j] = (0..k).fold(0f32, |acc, p| a[i * k + p].mul_add(b[p * n + j], acc));
            }
        }
        c
    }

    #[test]
    fn products_follow_layouts_and_keep_the_fma_order() {
        let (m, k, n) = (37, 150, 19);
        let mut r = Lcg::new(1);
        let (a, b) = (r.centered(m * k), r.centered(k * n));
        let want = chain(&a, &b, m, k, n);
        let ha = HostStorage::F32(a.clone());
        let la = Layout::contiguous(&[1, m, k]);
        // b given transposed in memory, read through strides
        let mut bt = vec![0f32; k * n];
        for p in 0..k {
            for j in 0..n {
                bt[j * k + p] = b[p * n + j];
            }
        }
        let hb = HostStorage::F32(bt);
        let lb = Layout::new(vec![1, k, n], vec![0, 1, k], 0);
        let d = MatmulDims { batch: 1, m, k, n };
        let got = matmul((&ha, &la), (&hb, &lb), None, d).unwrap();
        assert_eq!(typed::<f32>(&got).unwrap(), &want[..]);
        // ints wrap
        let i = HostStorage::I64(vec![i64::MAX, 2]);
        let li = Layout::contiguous(&[1, 1, 2]);
        let j = HostStorage::I64(vec![2, 1]);
        let lj = Layout::contiguous(&[1, 2, 1]);
        let d = MatmulDims {
            batch: 1,
            m: 1,
            k: 2,
            n: 1,
        };
        assert_eq!(
            matmul((&i, &li), (&j, &lj), None, d).unwrap(),
            HostStorage::I64(vec![0])
        );
    }
}
