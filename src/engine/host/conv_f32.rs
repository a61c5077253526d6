//! float32 conv2d and max pooling on float32 buffers, forward and backward, split over the
//! batch (conv) or the planes (pooling) on the intra-op threads ([`crate::engine::parallel`]).
//!
//! The bits are those of conv.rs's path through f64 (kept for the other dtypes and as the
//! reference of the tests below): the same host GEMM per sample and group; each input-gradient
//! element, and each max pooling's input gradient, the f64 sum of the same terms in the same
//! order rounded once to float32; the weight and bias gradients f64 sums over the batch in
//! sample order. A task computes whole samples (or planes) into its own slots, and the batch
//! sums are added on the calling thread in sample order, so no result depends on the thread
//! count.
//!
//! The host GEMM allocates its packed operands and its result on the thread that runs it,
//! which the run's memory count does not see: before a split the calling thread asks for room
//! for every task's share ([`ensure_gemm_room`]), and a worker frees what it allocated before
//! it returns (memory freed on another thread would lower the caller's count for good).

use super::HostStorage;
use super::conv::{ConvGeom, MaxSpans, PoolGeom, Window};
use super::elementwise::{gather, in_order, typed};
use super::got;
use super::pool2x2;
use crate::engine::dtype::DType;
use crate::engine::error::{EngineError, Result};
use crate::engine::hostbuf::{try_collect, try_filled, try_with_capacity, try_zeroed};
use crate::engine::interrupt::{poll, poll_now, should_stop};
use crate::engine::layout::Layout;
use crate::engine::op::MatmulDims;
use crate::engine::parallel::{GRAIN_SIZE, num_threads, parallel_rows_mut};

/// Multiply-adds a sample's product must reach before samples go to the threads: each task
/// takes one sample per hand-off, and a hand-off to a sleeping pool worker costs ~15 us, so
/// the small CNN of the benchmark (56k-225k per sample) ran 1.4x slower on two threads than
/// on one when every sample was handed over. Unit tests hand over every sample, so that their
/// small geometries run the split.
const MIN_SAMPLE_WORK: usize = if cfg!(test) { 1 } else { 1 << 21 };

/// Tasks for `n` samples of `work` multiply-adds each: one per thread, at most one per
/// sample, one when a sample is too small to hand over.
fn sample_tasks(n: usize, work: usize) -> usize {
    if work < MIN_SAMPLE_WORK {
        return 1;
    }
    num_threads().clamp(1, n.max(1))
}

/// Room, asked on the calling thread, for what `tasks` workers' GEMMs of
/// `[batch, m, k] @ [batch, k, n]` allocate on their own threads at once: one product's packed
/// operands (sgemm.rs: `a` row-major with two register tiles of padding rows, `b` in 16-wide
/// column panels) and the whole result.
fn ensure_gemm_room(tasks: usize, (batch, m, k, n): (usize, usize, usize, usize)) -> Result<()> {
    if tasks <= 1 {
        return Ok(());
    }
    let packs = m
        .saturating_add(12)
        .saturating_mul(k)
        .saturating_add(k.saturating_mul(n.div_ceil(16).saturating_mul(16)));
    let result = batch.saturating_mul(m).saturating_mul(n);
    let per_task = packs.saturating_add(result);
    super::ensure_room_for_elements(tasks.saturating_mul(per_task), 4, DType::Float32)
}

/// One zeroed float32 buffer of `len` per task.
fn zeroed_slots<S>(tasks: usize, len: usize, make: impl Fn(Vec<f32>) -> S) -> Result<Vec<S>> {
    let mut slots = got_slots(tasks)?;
    for _ in 0..tasks {
        slots.push(make(got(try_zeroed(len), len)?));
    }
    Ok(slots)
}

fn got_slots<S>(tasks: usize) -> Result<Vec<S>> {
    try_with_capacity(tasks).ok_or_else(|| super::alloc_error(DType::Int64, tasks))
}

/// Runs `work(sample, slot, rows)` for samples `0..n`, `rows` being sample `s`'s
/// `out[s * per..(s + 1) * per]`: one sample per slot at a time, the samples of a block on
/// the threads; then `take(sample, slot)` on the calling thread in sample order. The first
/// error in sample order is returned.
fn per_sample<S: Send>(
    slots: &mut [S],
    out: &mut [f32],
    (n, per): (usize, usize),
    work: impl Fn(usize, &mut S, &mut [f32]) -> Result<()> + Sync,
    mut take: impl FnMut(usize, &mut S) -> Result<()>,
) -> Result<()> {
    let per_block = slots.len().max(1);
    let mut rest = &mut out[..n * per];
    let mut s0 = 0;
    while s0 < n {
        let b = per_block.min(n - s0);
        let (mut block, tail) = std::mem::take(&mut rest).split_at_mut(b * per);
        rest = tail;
        let mut jobs: Vec<(&mut S, &mut [f32], Result<()>)> = got_slots(b)?;
        for slot in slots[..b].iter_mut() {
            let (rows, more) = std::mem::take(&mut block).split_at_mut(per);
            block = more;
            jobs.push((slot, rows, Ok(())));
        }
        parallel_rows_mut(&mut jobs, 1, 1, |first, js| {
            for (i, (slot, rows, r)) in js.iter_mut().enumerate() {
                *r = work(s0 + first + i, slot, rows);
            }
        });
        for (i, (slot, _, r)) in jobs.iter_mut().enumerate() {
            std::mem::replace(r, Ok(()))?;
            take(s0 + i, slot)?;
        }
        poll_now()?;
        s0 += b;
    }
    Ok(())
}

/// conv2d of float32 tensors: each sample's columns written into its task's reused buffer and
/// multiplied there, the same products (and so the same bits) as conv.rs's path through f64.
/// `None` when an operand is not float32.
pub(super) fn conv2d(
    x: (&HostStorage, &Layout),
    weight: (&HostStorage, &Layout),
    bias: Option<(&HostStorage, &Layout)>,
    g: &ConvGeom,
) -> Result<Option<HostStorage>> {
    let (HostStorage::F32(xs), HostStorage::F32(ws)) = (x.0, weight.0) else {
        return Ok(None);
    };
    let bs = match bias {
        Some((HostStorage::F32(b), l)) => Some(gather(b, l)?),
        Some(_) => return Ok(None),
        None => None,
    };
    let xv = in_order(xs, x.1)?;
    let hw = HostStorage::F32(gather(ws, weight.1)?);
    let hb = bs.map(HostStorage::F32);
    let (cog, k, l) = (g.cog(), g.k(), g.l());
    let per_in = g.c * g.h * g.w;
    let per_out = g.cout * l;
    let tasks = sample_tasks(g.n, g.cout.saturating_mul(k).saturating_mul(l));
    ensure_gemm_room(tasks, (g.groups, cog, k, l))?;
    // padding entries stay zero: im2col never writes them
    let mut slots = zeroed_slots(tasks, g.groups * k * l, HostStorage::F32)?;
    let la = Layout::contiguous(&[g.groups, cog, k]);
    let lb = Layout::contiguous(&[g.groups, k, l]);
    let lbias = Layout::new(vec![g.groups, cog, l], vec![cog, 1, 0], 0);
    let dims = MatmulDims {
        batch: g.groups,
        m: cog,
        k,
        n: l,
    };
    let total = g.n * per_out;
    let mut out = got(try_zeroed(total), total)?;
    per_sample(
        &mut slots,
        &mut out,
        (g.n, per_out),
        |s, cols, y| {
            if let HostStorage::F32(c) = cols {
                g.im2col_into(&xv[s * per_in..(s + 1) * per_in], c)?;
            }
            poll_now()?;
            let r = super::matmul::matmul_for_conv(
                (&hw, &la),
                (cols, &lb),
                hb.as_ref().map(|h| (h, &lbias)),
                dims,
            )?;
            y.copy_from_slice(typed::<f32>(&r)?);
            Ok(())
        },
        |_, _| Ok(()),
    )?;
    Ok(Some(HostStorage::F32(out)))
}

/// conv2d's float32 gradients; `None` for those not asked for.
pub(crate) struct ConvGrads {
    pub(crate) x: Option<Vec<f32>>,
    pub(crate) weight: Option<Vec<f32>>,
    pub(crate) bias: Vec<f32>,
}

/// One task's buffers in [`conv2d_backward`].
struct GradSlot {
    /// one sample's columns (padding entries zero)
    cols: HostStorage,
    /// one sample's input gradient, summed in f64
    gx: Vec<f64>,
    /// one sample's weight gradient
    gw: Vec<f32>,
    /// one sample's bias gradient (f64 sums of each output channel)
    gb: Vec<f64>,
}

fn length_error(what: &str) -> EngineError {
    EngineError::runtime(format!(
        "conv2d backward: {what} does not match the geometry"
    ))
}

/// The gradients of a float32 conv2d's input (when `need_x`), weight (when `need_w`) and bias
/// given the output's gradient `go` (`[n, cout, oh, ow]`, contiguous), the input `x`
/// (`[n, c, h, w]`, contiguous) and the weight (contiguous).
pub(crate) fn conv2d_backward(
    go: &HostStorage,
    x: &[f32],
    weight: &HostStorage,
    g: &ConvGeom,
    (need_x, need_w): (bool, bool),
) -> Result<ConvGrads> {
    let (cog, k, l) = (g.cog(), g.k(), g.l());
    let per_in = g.c * g.h * g.w;
    let per_out = g.cout * l;
    let gov = typed::<f32>(go)?;
    if gov.len() != g.n * per_out {
        return Err(length_error("the output's gradient"));
    }
    if x.len() != g.n * per_in {
        return Err(length_error("the input"));
    }
    if typed::<f32>(weight)?.len() != g.cout * k {
        return Err(length_error("the weight"));
    }
    let tasks = sample_tasks(g.n, g.cout.saturating_mul(k).saturating_mul(l));
    let mut gemm = (0, 0, 0, 0);
    if need_x {
        gemm = (g.groups, k, cog, l);
    }
    if need_w {
        let w = (g.groups, cog, l, k);
        gemm = (
            gemm.0.max(w.0),
            gemm.1.max(w.1),
            gemm.2.max(w.2),
            gemm.3.max(w.3),
        );
    }
    ensure_gemm_room(tasks, gemm)?;
    let cols_len = if need_w { g.groups * k * l } else { 0 };
    let mut slots = got_slots(tasks)?;
    for _ in 0..tasks {
        let gx_len = if need_x { per_in } else { 0 };
        let gw_len = if need_w { g.cout * k } else { 0 };
        slots.push(GradSlot {
            cols: HostStorage::F32(got(try_zeroed(cols_len), cols_len)?),
            gx: got(try_zeroed(gx_len), gx_len)?,
            gw: got(try_zeroed(gw_len), gw_len)?,
            gb: got(try_zeroed(g.cout), g.cout)?,
        });
    }
    // weight^T: weight `[groups, cog, k]` read as `[groups, k, cog]`
    let lwt = Layout::new(vec![g.groups, k, cog], vec![k * cog, 1, k], 0);
    // cols^T: `[groups, k, L]` read as `[groups, L, k]`
    let lct = Layout::new(vec![g.groups, l, k], vec![l * k, 1, l], 0);
    let gx_len = if need_x { g.n * per_in } else { 0 };
    let mut gx = got(try_zeroed(gx_len), gx_len)?;
    let gw_len = if need_w { g.cout * k } else { 0 };
    let mut gw = got(try_zeroed::<f64>(gw_len), gw_len)?;
    let mut gb = got(try_zeroed::<f64>(g.cout), g.cout)?;
    per_sample(
        &mut slots,
        &mut gx,
        (g.n, if need_x { per_in } else { 0 }),
        |s, slot, gx_s| {
            let lgo = Layout::new(vec![g.groups, cog, l], vec![cog * l, l, 1], s * per_out);
            if need_x {
                // input: weight^T [k, cog] @ grad [cog, L] per group, folded back in f64
                let gcols = super::matmul::matmul_for_conv(
                    (weight, &lwt),
                    (go, &lgo),
                    None,
                    MatmulDims {
                        batch: g.groups,
                        m: k,
                        k: cog,
                        n: l,
                    },
                )?;
                slot.gx.fill(0.0);
                g.col2im(typed::<f32>(&gcols)?, &mut slot.gx)?;
                for (o, &v) in gx_s.iter_mut().zip(&slot.gx) {
                    *o = v as f32;
                }
            }
            if need_w {
                // weight: grad [cog, L] @ cols^T [L, k] per group
                if let HostStorage::F32(c) = &mut slot.cols {
                    g.im2col_into(&x[s * per_in..(s + 1) * per_in], c)?;
                }
                poll_now()?;
                let w = super::matmul::matmul_for_conv(
                    (go, &lgo),
                    (&slot.cols, &lct),
                    None,
                    MatmulDims {
                        batch: g.groups,
                        m: cog,
                        k: l,
                        n: k,
                    },
                )?;
                slot.gw.copy_from_slice(typed::<f32>(&w)?);
            }
            let go_s = &gov[s * per_out..(s + 1) * per_out];
            for (co, b) in slot.gb.iter_mut().enumerate() {
                *b = go_s[co * l..(co + 1) * l]
                    .iter()
                    .map(|&v| v as f64)
                    .sum::<f64>();
            }
            Ok(())
        },
        // the batch sums, in sample order
        |_, slot| {
            for (a, &b) in gw.iter_mut().zip(&slot.gw) {
                *a += b as f64;
            }
            for (a, &b) in gb.iter_mut().zip(&slot.gb) {
                *a += b;
            }
            Ok(())
        },
    )?;
    let narrow = |v: &[f64]| got(try_collect(v.iter().map(|&a| a as f32)), v.len());
    Ok(ConvGrads {
        x: need_x.then_some(gx),
        weight: if need_w { Some(narrow(&gw)?) } else { None },
        bias: narrow(&gb)?,
    })
}

/// Outputs of max pooling per task: ATen's max_pool2d splits its outputs with no grain; a
/// share this big keeps the thread start-up (a few microseconds) small beside the work.
fn pool_grain(g: &PoolGeom) -> usize {
    (GRAIN_SIZE / (g.kernel.0 * g.kernel.1).max(1)).max(1)
}

/// The value [`PoolGeom::argmax`] picks in one window: the first largest, or the last NaN.
/// Which element wins is data-dependent and unpredictable (random inputs pick any corner of
/// a window), so the pick is a select rather than a branch: with a branch, max-pool backward
/// (which needs the index) spent three times as long as the forward pass on mispredictions.
#[inline(always)]
fn window_max(plane: &[f32], w: usize, win: &Window) -> (usize, f32) {
    let mut best = win.rows.0 * w + win.cols.0;
    let mut m = f32::NEG_INFINITY;
    PoolGeom::each_position(win, |y, x| {
        let i = y * w + x;
        let (take, larger) = take_larger(plane[i], m);
        m = larger;
        best = std::hint::select_unpredictable(take, i, best);
    });
    (best, m)
}

/// Whether `v` replaces the running maximum `m` (it is larger, or NaN) and the maximum after
/// it. On x86-64 through SSE2 masks: LLVM turns a scalar float select (even written with the
/// bits) back into a branch, and the index select then waits on that branch.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn take_larger(v: f32, m: f32) -> (bool, f32) {
    use std::arch::x86_64::{
        _mm_and_ps, _mm_andnot_ps, _mm_cmplt_ss, _mm_cmpunord_ss, _mm_cvtss_f32, _mm_movemask_ps,
        _mm_or_ps, _mm_set_ss,
    };
    // SAFETY: register-only SSE operations (no memory is touched), and SSE is part of the
    // x86-64 baseline every x86-64 CPU has.
    unsafe {
        let (vv, mm) = (_mm_set_ss(v), _mm_set_ss(m));
        let mask = _mm_or_ps(_mm_cmplt_ss(mm, vv), _mm_cmpunord_ss(vv, vv));
        let larger = _mm_or_ps(_mm_and_ps(mask, vv), _mm_andnot_ps(mask, mm));
        (_mm_movemask_ps(mask) & 1 != 0, _mm_cvtss_f32(larger))
    }
}

/// Whether `v` replaces the running maximum `m` (it is larger, or NaN) and the maximum after it.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn take_larger(v: f32, m: f32) -> (bool, f32) {
    let take = v > m || v.is_nan();
    (take, if take { v } else { m })
}

/// Max pooling of a float32 tensor on its own buffer, planes split over the threads: the same
/// windows and picks as conv.rs's `pool2d`.
pub(super) fn max_pool2d(x: &[f32], layout: &Layout, g: &PoolGeom) -> Result<HostStorage> {
    let xv = in_order(x, layout)?;
    let spans = MaxSpans::of(g)?;
    let per = g.h * g.w;
    let per_out = g.oh * g.ow;
    let total = g.planes * per_out;
    let two_by_two = pool2x2::applies(g);
    let mut out = got(try_filled(total, f32::NEG_INFINITY), total)?;
    parallel_rows_mut(&mut out, per_out.max(1), pool_grain(g), |first, rows| {
        for (i, o) in rows.chunks_exact_mut(per_out.max(1)).enumerate() {
            if should_stop() {
                return;
            }
            let p = first + i;
            let plane = &xv[p * per..(p + 1) * per];
            if two_by_two {
                pool2x2::forward_plane(plane, g, o);
            } else {
                spans.each_output(|j, win| o[j] = window_max(plane, g.w, win).1);
            }
        }
    });
    poll()?;
    Ok(HostStorage::F32(out))
}

/// The outputs whose max-pooling windows can hold input row (or column) `y`: `oy` with
/// `oy * s - p <= y <= oy * s - p + (k - 1) * d`, within `0..o`.
fn covering(y: usize, (k, s, p, d): (usize, usize, usize, usize), o: usize) -> (usize, usize) {
    let top = (y + p) as i64;
    let reach = ((k.max(1) - 1) * d) as i64;
    let s = s.max(1) as i64;
    let lo = (top - reach).max(0);
    let lo = (lo + s - 1) / s;
    let hi = (top / s + 1).min(o as i64);
    (lo as usize, hi.max(lo) as usize)
}

/// The input gradient of a float32 max pooling (`[planes, h, w]`) given the output's gradient
/// `go` and the input `x` (both contiguous): each input element the f64 sum, in output order,
/// of the gradients of the outputs that picked it, rounded once to float32, as conv.rs's
/// `pool2d_backward` (which adds every output's gradient into an f64 copy of the input).
pub(crate) fn max_pool2d_backward(go: &[f32], x: &[f32], g: &PoolGeom) -> Result<Vec<f32>> {
    let per = g.h * g.w;
    let per_out = g.oh * g.ow;
    if go.len() != g.planes * per_out || x.len() != g.planes * per {
        return Err(EngineError::runtime(
            "max_pool2d backward: a tensor does not match the geometry",
        ));
    }
    let spans = MaxSpans::of(g)?;
    let apart = |k: usize, s: usize, d: usize| s > k.saturating_sub(1).saturating_mul(d);
    if apart(g.kernel.0, g.stride.0, g.dil.0) && apart(g.kernel.1, g.stride.1, g.dil.1) {
        // windows that do not overlap (MaxPool2d(2) and the like): every input element takes
        // at most one output's gradient, so its sum is that gradient plus the zero it starts
        // from (-0.0 becomes 0.0 as there), written as each window's maximum is found
        let mut gx = got(try_zeroed(g.planes * per), g.planes * per)?;
        let two_by_two = pool2x2::applies(g);
        parallel_rows_mut(&mut gx, per.max(1), pool_grain(g), |first, rows| {
            for (i, gp) in rows.chunks_exact_mut(per.max(1)).enumerate() {
                if should_stop() {
                    return;
                }
                let p = first + i;
                let plane = &x[p * per..(p + 1) * per];
                let go = &go[p * per_out..(p + 1) * per_out];
                if two_by_two {
                    pool2x2::backward_plane(plane, go, g, gp);
                } else {
                    spans.each_output(|j, win| gp[window_max(plane, g.w, win).0] = go[j] + 0.0);
                }
            }
        });
        poll()?;
        return Ok(gx);
    }
    // where each output's maximum is (its index in the plane; -1: an empty window), as
    // PyTorch's indices
    let mut picks = got(try_filled(g.planes * per_out, -1i64), g.planes * per_out)?;
    parallel_rows_mut(&mut picks, per_out.max(1), pool_grain(g), |first, rows| {
        for (i, o) in rows.chunks_exact_mut(per_out.max(1)).enumerate() {
            if should_stop() {
                return;
            }
            let p = first + i;
            let plane = &x[p * per..(p + 1) * per];
            spans.each_output(|j, win| o[j] = window_max(plane, g.w, win).0 as i64);
        }
    });
    poll()?;
    let rows_of = |y| covering(y, (g.kernel.0, g.stride.0, g.pad.0, g.dil.0), g.oh);
    let cols_of = |x| covering(x, (g.kernel.1, g.stride.1, g.pad.1, g.dil.1), g.ow);
    let covers = |n: usize, f: &dyn Fn(usize) -> (usize, usize)| {
        try_collect((0..n).map(f)).ok_or_else(|| super::alloc_error(DType::Int64, 2 * n))
    };
    let row_cover = covers(g.h, &rows_of)?;
    let col_cover = covers(g.w, &cols_of)?;
    let mut gx = got(try_zeroed(g.planes * per), g.planes * per)?;
    parallel_rows_mut(&mut gx, per.max(1), GRAIN_SIZE, |first, rows| {
        for (i, gp) in rows.chunks_exact_mut(per.max(1)).enumerate() {
            if should_stop() {
                return;
            }
            let p = first + i;
            let (picks, go) = (
                &picks[p * per_out..(p + 1) * per_out],
                &go[p * per_out..(p + 1) * per_out],
            );
            for (y, &(oy0, oy1)) in row_cover.iter().enumerate() {
                for (xx, &(ox0, ox1)) in col_cover.iter().enumerate() {
                    let e = (y * g.w + xx) as i64;
                    let mut sum = 0f64;
                    for oy in oy0..oy1 {
                        for o in oy * g.ow + ox0..oy * g.ow + ox1 {
                            if picks[o] == e {
                                sum += go[o] as f64;
                            }
                        }
                    }
                    gp[y * g.w + xx] = sum as f32;
                }
            }
        }
    });
    poll()?;
    Ok(gx)
}

#[cfg(test)]
mod tests {
    use super::super::conv::{PoolKind, conv2d_backward_f64, pool2d_backward};
    use super::*;
    use crate::engine::test_sequence::Lcg;

    /// Values with ties, signed zeros and a spread of magnitudes (the f64 sums must round as
    /// the old path's).
    fn values(n: usize, seed: u32) -> Vec<f32> {
        let mut lcg = Lcg::new(seed);
        (0..n)
            .map(|i| {
                let v = lcg.next_centered() * 4.0;
                match i % 11 {
                    3 => 0.0,
                    5 => -0.0,
                    7 => (v * 8.0).round() / 8.0,
                    9 => v * 1e-6,
                    _ => v,
                }
            })
            .collect()
    }

    fn bits(v: &[f32]) -> Vec<u32> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    fn bits64(v: &[f64]) -> Vec<u32> {
        v.iter().map(|&x| (x as f32).to_bits()).collect()
    }

    fn conv_geom(
        (n, c, h, w): (usize, usize, usize, usize),
        (cout, kh, kw): (usize, usize, usize),
        stride: (usize, usize),
        pad: (usize, usize),
        dil: (usize, usize),
        groups: usize,
    ) -> ConvGeom {
        let oh = (h + 2 * pad.0 - dil.0 * (kh - 1) - 1) / stride.0 + 1;
        let ow = (w + 2 * pad.1 - dil.1 * (kw - 1) - 1) / stride.1 + 1;
        ConvGeom {
            n,
            c,
            h,
            w,
            cout,
            kh,
            kw,
            oh,
            ow,
            stride,
            pad,
            dil,
            groups,
        }
    }

    fn geometries() -> Vec<ConvGeom> {
        vec![
            conv_geom((5, 1, 9, 9), (4, 3, 3), (1, 1), (1, 1), (1, 1), 1),
            conv_geom((3, 4, 8, 7), (6, 3, 2), (2, 1), (1, 0), (1, 2), 2),
            conv_geom((4, 3, 11, 10), (3, 3, 3), (2, 3), (2, 1), (2, 1), 3),
            conv_geom((2, 2, 6, 6), (5, 1, 1), (1, 1), (0, 0), (1, 1), 1),
        ]
    }

    /// The float32 backward against the f64 path, bit for bit, at 1, 2 and 3 threads.
    #[test]
    fn conv_backward_in_float32_matches_the_f64_path_at_every_thread_count() {
        let _lock = crate::engine::parallel::TEST_THREADS_LOCK
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        for (gi, g) in geometries().iter().enumerate() {
            let seed = gi as u32 * 7;
            let x = values(g.n * g.c * g.h * g.w, seed + 1);
            let w = values(g.cout * g.k(), seed + 2);
            let go = values(g.n * g.cout * g.l(), seed + 3);
            let wide = |v: &[f32]| v.iter().map(|&a| a as f64).collect::<Vec<_>>();
            let (ox, ow, ob) =
                conv2d_backward_f64(DType::Float32, &wide(&go), &wide(&x), &wide(&w), g).unwrap();
            for threads in [1, 2, 3] {
                crate::engine::parallel::set_num_threads(threads);
                let r = conv2d_backward(
                    &HostStorage::F32(go.clone()),
                    &x,
                    &HostStorage::F32(w.clone()),
                    g,
                    (true, true),
                )
                .unwrap();
                let at = format!("geometry {gi}, {threads} threads");
                assert_eq!(bits(&r.x.unwrap()), bits64(&ox), "input grad, {at}");
                assert_eq!(bits(&r.weight.unwrap()), bits64(&ow), "weight grad, {at}");
                assert_eq!(bits(&r.bias), bits64(&ob), "bias grad, {at}");
                let only_w = conv2d_backward(
                    &HostStorage::F32(go.clone()),
                    &x,
                    &HostStorage::F32(w.clone()),
                    g,
                    (false, true),
                )
                .unwrap();
                assert!(only_w.x.is_none());
                assert_eq!(bits(&only_w.weight.unwrap()), bits64(&ow), "{at}");
            }
            crate::engine::parallel::set_num_threads(1);
        }
    }

    #[test]
    fn conv_forward_bits_do_not_depend_on_the_thread_count() {
        let _lock = crate::engine::parallel::TEST_THREADS_LOCK
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        for g in geometries() {
            let x = HostStorage::F32(values(g.n * g.c * g.h * g.w, 11));
            let w = HostStorage::F32(values(g.cout * g.k(), 12));
            let b = HostStorage::F32(values(g.cout, 13));
            let lx = Layout::contiguous(&[g.n, g.c, g.h, g.w]);
            let lw = Layout::contiguous(&[g.cout, g.c / g.groups, g.kh, g.kw]);
            let lb = Layout::contiguous(&[g.cout]);
            let run = |t| {
                crate::engine::parallel::set_num_threads(t);
                let y = conv2d((&x, &lx), (&w, &lw), Some((&b, &lb)), &g)
                    .unwrap()
                    .unwrap();
                bits(typed::<f32>(&y).unwrap())
            };
            let one = run(1);
            assert_eq!(one.len(), g.n * g.cout * g.l());
            assert_eq!(run(2), one);
            assert_eq!(run(3), one);
        }
        crate::engine::parallel::set_num_threads(1);
    }

    fn pool_geom(
        (planes, h, w): (usize, usize, usize),
        kernel: (usize, usize),
        stride: (usize, usize),
        pad: (usize, usize),
        dil: (usize, usize),
        ceil: bool,
    ) -> PoolGeom {
        let out = |i: usize, k: usize, p: usize, s: usize, d: usize| {
            let num =
                (i + 2 * p) as i64 - (d * (k - 1)) as i64 - 1 + if ceil { s as i64 - 1 } else { 0 };
            let mut o = num.div_euclid(s as i64) + 1;
            if ceil && (o - 1) * s as i64 >= (i + p) as i64 {
                o -= 1;
            }
            o as usize
        };
        PoolGeom {
            planes,
            h,
            w,
            oh: out(h, kernel.0, pad.0, stride.0, dil.0),
            ow: out(w, kernel.1, pad.1, stride.1, dil.1),
            kernel,
            stride,
            pad,
            dil,
            kind: PoolKind::Max,
        }
    }

    /// Windows apart and overlapping (several picks of one element summed), padding,
    /// dilation and ceil_mode, against the f64 path bit for bit, at 1, 2 and 3 threads.
    #[test]
    fn max_pool_backward_in_float32_matches_the_f64_path_at_every_thread_count() {
        let _lock = crate::engine::parallel::TEST_THREADS_LOCK
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let geoms = [
            pool_geom((6, 8, 8), (2, 2), (2, 2), (0, 0), (1, 1), false),
            // 2 x 2 at stride 2 (pool2x2.rs) with a row and a column no window covers, and
            // with ceil_mode's partial windows (the general path)
            pool_geom((3, 7, 9), (2, 2), (2, 2), (0, 0), (1, 1), false),
            pool_geom((3, 7, 9), (2, 2), (2, 2), (0, 0), (1, 1), true),
            pool_geom((3, 9, 11), (2, 3), (3, 3), (1, 1), (2, 1), true),
            pool_geom((3, 9, 7), (3, 3), (1, 2), (1, 1), (1, 1), false),
            pool_geom((4, 9, 10), (3, 2), (2, 2), (1, 1), (2, 1), true),
            pool_geom((2, 7, 7), (3, 3), (2, 2), (0, 0), (1, 1), true),
            pool_geom((2, 5, 6), (2, 3), (3, 1), (1, 0), (2, 2), false),
        ];
        // few distinct values (ties and elements picked by several windows), then the same
        // with NaNs, infinities and signed zeros among them (the last NaN wins a window, -0.0
        // and 0.0 tie)
        let specials = [
            f32::NAN,
            -0.0,
            0.0,
            f32::NEG_INFINITY,
            f32::INFINITY,
            -f32::NAN,
        ];
        let inputs = geoms.iter().enumerate().flat_map(|(gi, g)| {
            let plain: Vec<f32> = values(g.planes * g.h * g.w, gi as u32)
                .iter()
                .map(|v| (v * 2.0).round())
                .collect();
            let mut special = plain.clone();
            for (i, v) in special.iter_mut().enumerate() {
                if i % 3 == gi % 3 {
                    *v = specials[(i / 3) % specials.len()];
                }
            }
            [(gi, g, plain), (gi, g, special)]
        });
        for (gi, g, x) in inputs {
            let go = values(g.planes * g.oh * g.ow, gi as u32 + 40);
            let wide = |v: &[f32]| v.iter().map(|&a| a as f64).collect::<Vec<_>>();
            let want = pool2d_backward(DType::Float32, &wide(&go), &wide(&x), g).unwrap();
            let hx = HostStorage::F32(x.clone());
            let lx = Layout::contiguous(&[g.planes, g.h, g.w]);
            let fwd_want = super::super::conv::pool2d_f64(&hx, &lx, g).unwrap();
            for threads in [1, 2, 3] {
                crate::engine::parallel::set_num_threads(threads);
                let got = max_pool2d_backward(&go, &x, g).unwrap();
                assert_eq!(
                    bits(&got),
                    bits64(&want),
                    "geometry {gi}, {threads} threads"
                );
                let fwd = max_pool2d(&x, &lx, g).unwrap();
                assert_eq!(
                    bits(typed::<f32>(&fwd).unwrap()),
                    bits(typed::<f32>(&fwd_want).unwrap()),
                    "forward, geometry {gi}, {threads} threads"
                );
            }
            crate::engine::parallel::set_num_threads(1);
        }
    }
}
