//! 2-D convolution and pooling on host buffers, with the gradients autograd needs.
//!
//! conv2d is ATen's slow_conv2d path: per sample and group, the input unfolded into columns
//! (im2col, zeros at the padding) and one product `weight[cout, k] @ cols[k, L]` added to
//! the bias, through the host GEMM (matmul.rs: one fused multiply-add chain along k up to
//! k = 256). PyTorch's CPU float32 convolutions often take oneDNN instead, whose summation
//! order is its own: results may differ from PyTorch's in the last bits.
//!
//! Pooling follows ATen's CPU kernels (MaxPoolKernel.cpp, AvgPoolKernel.cpp,
//! AdaptiveAvgPoolKernel.cpp, NCHW): max keeps the first largest element (NaN wins), the
//! averages sum their window in order in float32 for float32 (`opmath_type`), float64 for
//! float64, then divide.

use super::HostStorage;
use crate::engine::dtype::DType;
use crate::engine::error::{EngineError, Result};
use crate::engine::interrupt::{poll, poll_now};
use crate::engine::layout::Layout;
use crate::engine::op::MatmulDims;

/// Sizes of one conv2d: input `[n, c, h, w]`, weight `[cout, c / groups, kh, kw]`, output
/// `[n, cout, oh, ow]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvGeom {
    pub n: usize,
    pub c: usize,
    pub h: usize,
    pub w: usize,
    pub cout: usize,
    pub kh: usize,
    pub kw: usize,
    pub oh: usize,
    pub ow: usize,
    pub stride: (usize, usize),
    pub pad: (usize, usize),
    pub dil: (usize, usize),
    pub groups: usize,
}

impl ConvGeom {
    pub(super) fn cg(&self) -> usize {
        self.c / self.groups.max(1)
    }
    pub(super) fn cog(&self) -> usize {
        self.cout / self.groups.max(1)
    }
    /// Rows of one group's columns: `c/groups * kh * kw`.
    pub(super) fn k(&self) -> usize {
        self.cg() * self.kh * self.kw
    }
    pub(super) fn l(&self) -> usize {
        self.oh * self.ow
    }
    /// Products summed per output element: `c/groups * kh * kw`.
    pub(crate) fn k_len(&self) -> usize {
        self.k()
    }

    /// Every kernel tap that lands inside the image, in im2col's order, as runs along one
    /// output row: `f(first column index into `[groups, k, L]`, first element index into one
    /// sample's `[c, h, w]`, taps, element step)`; a run's columns follow each other and its
    /// elements are `stride.1` apart. Polled once per column row (every `oh * ow` taps): one
    /// sample's columns can be hundreds of MB, filled in seconds on a loaded machine.
    fn for_each_tap_run(&self, mut f: impl FnMut(usize, usize, usize, usize)) -> Result<()> {
        let l = self.l();
        let (sw, pw) = (self.stride.1.max(1), self.pad.1);
        for ci in 0..self.c {
            for i in 0..self.kh {
                for j in 0..self.kw {
                    poll()?;
                    let row = (ci * self.kh + i) * self.kw + j;
                    // the outputs whose input column `ox * sw + off - pw` lands in 0..w
                    let off = j * self.dil.1;
                    let ox0 = pw.saturating_sub(off).div_ceil(sw);
                    let ox1 = (self.w + pw).saturating_sub(off).div_ceil(sw).min(self.ow);
                    if ox0 >= ox1 {
                        continue;
                    }
                    let x0 = ox0 * sw + off - pw;
                    for oy in 0..self.oh {
                        let y =
                            (oy * self.stride.0 + i * self.dil.0) as isize - self.pad.0 as isize;
                        if y < 0 || y as usize >= self.h {
                            continue;
                        }
                        f(
                            row * l + oy * self.ow + ox0,
                            (ci * self.h + y as usize) * self.w + x0,
                            ox1 - ox0,
                            sw,
                        );
                    }
                }
            }
        }
        Ok(())
    }

    /// One sample's columns `[groups, k, L]` (row-major) from its `[c, h, w]` values, into
    /// `cols`, whose padding entries must already be zero: they are never written, so one
    /// zeroed buffer serves every sample of a batch.
    pub(super) fn im2col_into<T: Copy>(&self, x: &[T], cols: &mut [T]) -> Result<()> {
        self.for_each_tap_run(|c, e, n, step| {
            if step == 1 {
                cols[c..c + n].copy_from_slice(&x[e..e + n]);
            } else {
                for (t, col) in cols[c..c + n].iter_mut().enumerate() {
                    *col = x[e + t * step];
                }
            }
        })
    }

    /// One sample's columns `[groups, k, L]` in a new zeroed buffer.
    fn im2col(&self, x: &[f64]) -> Result<Vec<f64>> {
        let len = self.groups * self.k() * self.l();
        let mut cols = super::got(crate::engine::hostbuf::try_zeroed(len), len)?;
        self.im2col_into(x, &mut cols)?;
        Ok(cols)
    }

    /// The sum of columns `[groups, k, L]` back into one sample's `[c, h, w]` (col2im), in
    /// f64, tap by tap in im2col's order.
    pub(super) fn col2im<T: Copy + Into<f64>>(&self, cols: &[T], out: &mut [f64]) -> Result<()> {
        self.for_each_tap_run(|c, e, n, step| {
            for (t, &col) in cols[c..c + n].iter().enumerate() {
                out[e + t * step] += col.into();
            }
        })
    }
}

fn floating(dtype: DType, what: &str) -> Result<()> {
    if dtype.is_floating_point() {
        Ok(())
    } else {
        Err(EngineError::runtime(format!(
            "\"{what}\" not implemented for '{}'",
            dtype.scalar_name()
        )))
    }
}

/// `[batch, m, k] @ [batch, k, n]` of contiguous f64 values through the host GEMM in `dt`,
/// plus `bias` rows (`[batch, m]`, broadcast along n) when given.
fn product(
    dt: DType,
    a: &[f64],
    b: &[f64],
    bias: Option<&[f64]>,
    (batch, m, k, n): (usize, usize, usize, usize),
    a_transposed: bool,
    b_transposed: bool,
) -> Result<Vec<f64>> {
    let ha = HostStorage::from_f64s(dt, a)?;
    let hb = HostStorage::from_f64s(dt, b)?;
    // a stored [batch, k, m] when transposed (read through strides), b stored [batch, n, k]
    let la = if a_transposed {
        Layout::new(vec![batch, m, k], vec![m * k, 1, m], 0)
    } else {
        Layout::contiguous(&[batch, m, k])
    };
    let lb = if b_transposed {
        Layout::new(vec![batch, k, n], vec![k * n, 1, k], 0)
    } else {
        Layout::contiguous(&[batch, k, n])
    };
    let hbias = bias.map(|v| HostStorage::from_f64s(dt, v)).transpose()?;
    let lbias = Layout::new(vec![batch, m, n], vec![m, 1, 0], 0);
    let r = super::matmul::matmul_for_conv(
        (&ha, &la),
        (&hb, &lb),
        hbias.as_ref().map(|h| (h, &lbias)),
        MatmulDims { batch, m, k, n },
    )?;
    Ok(r.gather_f64(&Layout::contiguous(&[batch * m * n])))
}

/// conv2d of `x` (`[n, c, h, w]`) with `weight` and `bias`, output `[n, cout, oh, ow]`.
pub(crate) fn conv2d(
    x: (&HostStorage, &Layout),
    weight: (&HostStorage, &Layout),
    bias: Option<(&HostStorage, &Layout)>,
    g: &ConvGeom,
) -> Result<HostStorage> {
    let dt = x.0.dtype();
    // slow_conv2d_cpu runs every integer type (an exact wrapping product) but not Bool
    if dt == DType::Bool {
        return Err(EngineError::not_implemented(
            "\"slow_conv2d_cpu\" not implemented for 'Bool'",
        ));
    }
    if let Some(y) = super::conv_f32::conv2d(x, weight, bias, g)? {
        return Ok(y);
    }
    let xv = x.0.gather_f64(x.1);
    let wv = weight.0.gather_f64(weight.1);
    let bv = bias.map(|b| b.0.gather_f64(b.1));
    let (cog, k, l) = (g.cog(), g.k(), g.l());
    let per_in = g.c * g.h * g.w;
    let total = g.n * g.cout * l;
    let mut out = super::got(crate::engine::hostbuf::try_with_capacity(total), total)?;
    for s in 0..g.n {
        let cols = g.im2col(&xv[s * per_in..(s + 1) * per_in])?;
        poll_now()?;
        let y = product(
            dt,
            &wv,
            &cols,
            bv.as_deref(),
            (g.groups, cog, k, l),
            false,
            false,
        )?;
        out.extend_from_slice(&y);
        poll_now()?;
    }
    HostStorage::from_f64s(dt, &out)
}

/// The gradients of conv2d's input, weight and bias (each row-major, f64 holding values
/// of `dt`) given the output's gradient `grad` (`[n, cout, oh, ow]`): the GEMMs in `dt`, the
/// folds and batch sums in f64 rounded once to `dt`. Float32 takes conv_f32.rs's
/// `conv2d_backward` (the same bits on float32 buffers; this is its reference in the tests).
pub(crate) fn conv2d_backward_f64(
    dt: DType,
    grad: &[f64],
    x: &[f64],
    weight: &[f64],
    g: &ConvGeom,
) -> Result<(Vec<f64>, Vec<f64>, Vec<f64>)> {
    let (cog, k, l) = (g.cog(), g.k(), g.l());
    let per_in = g.c * g.h * g.w;
    let per_out = g.cout * l;
    let mut gx = vec![0.0; g.n * per_in];
    let mut gw = vec![0.0; weight.len()];
    let mut gb = vec![0.0; g.cout];
    for s in 0..g.n {
        let go = &grad[s * per_out..(s + 1) * per_out];
        // input: weight^T [k, cog] @ grad [cog, L] per group, folded back
        let gcols = product(dt, weight, go, None, (g.groups, k, cog, l), true, false)?;
        g.col2im(&gcols, &mut gx[s * per_in..(s + 1) * per_in])?;
        // weight: grad [cog, L] @ cols^T [L, k] per group, summed over the batch
        let cols = g.im2col(&x[s * per_in..(s + 1) * per_in])?;
        poll_now()?;
        let w = product(dt, go, &cols, None, (g.groups, cog, l, k), false, true)?;
        for (a, b) in gw.iter_mut().zip(&w) {
            *a += b;
        }
        for (co, b) in gb.iter_mut().enumerate() {
            *b += go[co * l..(co + 1) * l].iter().sum::<f64>();
        }
        poll_now()?;
    }
    let r = |v| round_to(dt, v);
    Ok((r(gx), r(gw), r(gb)))
}

/// Which pooling.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PoolKind {
    Max,
    Avg {
        count_include_pad: bool,
        divisor: Option<i64>,
    },
    Adaptive,
}

/// One 2-D pooling over `planes` planes of `h x w`, output `oh x ow` per plane.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolGeom {
    pub planes: usize,
    pub h: usize,
    pub w: usize,
    pub oh: usize,
    pub ow: usize,
    pub kernel: (usize, usize),
    pub stride: (usize, usize),
    pub pad: (usize, usize),
    pub dil: (usize, usize),
    pub kind: PoolKind,
}

/// One output's window: rows, columns (each `start, end, step`) and the divisor.
pub(super) struct Window {
    pub(super) rows: (usize, usize, usize),
    pub(super) cols: (usize, usize, usize),
    divide: f64,
}

impl PoolGeom {
    fn window(&self, oy: usize, ox: usize) -> Window {
        let (kh, kw) = self.kernel;
        let (sh, sw) = self.stride;
        let (ph, pw) = (self.pad.0 as i64, self.pad.1 as i64);
        let (h, w) = (self.h as i64, self.w as i64);
        match self.kind {
            PoolKind::Max => {
                let (dh, dw) = (self.dil.0 as i64, self.dil.1 as i64);
                let span = |o: usize, s: usize, k: usize, d: i64, p: i64, n: i64| {
                    let mut st = (o * s) as i64 - p;
                    let end = (st + (k as i64 - 1) * d + 1).min(n);
                    while st < 0 {
                        st += d;
                    }
                    (st as usize, end.max(st) as usize, d as usize)
                };
                Window {
                    rows: span(oy, sh, kh, dh, ph, h),
                    cols: span(ox, sw, kw, dw, pw, w),
                    divide: 1.0,
                }
            }
            PoolKind::Avg {
                count_include_pad,
                divisor,
            } => {
                let mut h0 = (oy * sh) as i64 - ph;
                let mut w0 = (ox * sw) as i64 - pw;
                let mut h1 = (h0 + kh as i64).min(h + ph);
                let mut w1 = (w0 + kw as i64).min(w + pw);
                let pool = (h1 - h0) * (w1 - w0);
                h0 = h0.max(0);
                w0 = w0.max(0);
                h1 = h1.min(h);
                w1 = w1.min(w);
                let divide = match divisor {
                    Some(d) => d as f64,
                    None if count_include_pad => pool as f64,
                    None => ((h1 - h0) * (w1 - w0)) as f64,
                };
                Window {
                    rows: (h0 as usize, h1.max(h0) as usize, 1),
                    cols: (w0 as usize, w1.max(w0) as usize, 1),
                    divide,
                }
            }
            PoolKind::Adaptive => {
                let start = |o: usize, n: usize, out: usize| (o * n) / out;
                let end = |o: usize, n: usize, out: usize| ((o + 1) * n).div_ceil(out);
                let rows = (start(oy, self.h, self.oh), end(oy, self.h, self.oh), 1);
                let cols = (start(ox, self.w, self.ow), end(ox, self.w, self.ow), 1);
                Window {
                    rows,
                    cols,
                    divide: ((rows.1 - rows.0) * (cols.1 - cols.0)) as f64,
                }
            }
        }
    }

    /// `f(y, x)` for every position of a window, row by row.
    #[inline]
    pub(super) fn each_position(win: &Window, mut f: impl FnMut(usize, usize)) {
        let (rs, cs) = (win.rows.2.max(1), win.cols.2.max(1));
        let mut y = win.rows.0;
        while y < win.rows.1 {
            let mut x = win.cols.0;
            while x < win.cols.1 {
                f(y, x);
                x += cs;
            }
            y += rs;
        }
    }

    /// For max pooling, the input index (within its plane) each output takes.
    fn argmax<T: Copy + Into<f64>>(&self, plane: &[T], win: &Window) -> usize {
        let mut best = win.rows.0 * self.w + win.cols.0;
        let mut m = f64::NEG_INFINITY;
        Self::each_position(win, |y, x| {
            let v: f64 = plane[y * self.w + x].into();
            if v > m || v.is_nan() {
                m = v;
                best = y * self.w + x;
            }
        });
        best
    }
}

/// A max pooling's windows, once per call: the rows of each output row and the columns of each
/// output column (`start, end, step`; a max window is their product).
pub(super) struct MaxSpans {
    rows: Vec<(usize, usize, usize)>,
    cols: Vec<(usize, usize, usize)>,
}

impl MaxSpans {
    pub(super) fn of(g: &PoolGeom) -> Result<MaxSpans> {
        let rows = crate::engine::hostbuf::try_collect((0..g.oh).map(|oy| g.window(oy, 0).rows));
        let cols = crate::engine::hostbuf::try_collect((0..g.ow).map(|ox| g.window(0, ox).cols));
        match (rows, cols) {
            (Some(rows), Some(cols)) => Ok(MaxSpans { rows, cols }),
            _ => Err(super::alloc_error(DType::Int64, g.oh + g.ow)),
        }
    }

    /// Every output of one `h x w` plane in order: `f(output index, its window)` for outputs
    /// whose window is not empty.
    #[inline(always)]
    pub(super) fn each_output(&self, mut f: impl FnMut(usize, &Window)) {
        for (oy, &rows) in self.rows.iter().enumerate() {
            for (ox, &cols) in self.cols.iter().enumerate() {
                if rows.0 < rows.1 && cols.0 < cols.1 {
                    let win = Window {
                        rows,
                        cols,
                        divide: 1.0,
                    };
                    f(oy * self.cols.len() + ox, &win);
                }
            }
        }
    }
}

/// Pooling of `x` (`[planes, h, w]` in `layout`'s order), output `[planes, oh, ow]`.
pub(crate) fn pool2d(h: &HostStorage, layout: &Layout, g: &PoolGeom) -> Result<HostStorage> {
    let dt = h.dtype();
    let what = match g.kind {
        PoolKind::Max => "max_pool2d",
        PoolKind::Avg { .. } => "avg_pool2d",
        PoolKind::Adaptive => "adaptive_avg_pool2d",
    };
    if g.kind != PoolKind::Max || dt == DType::Bool {
        floating(dt, what)?;
    }
    if let (PoolKind::Max, HostStorage::F32(x)) = (g.kind, h) {
        return super::conv_f32::max_pool2d(x, layout, g);
    }
    pool2d_f64(h, layout, g)
}

/// [`pool2d`] through f64 values (each window's sum or maximum as ATen's kernel for the
/// dtype); float32 max pooling takes conv_f32.rs's (this is its reference in the tests).
pub(super) fn pool2d_f64(h: &HostStorage, layout: &Layout, g: &PoolGeom) -> Result<HostStorage> {
    let dt = h.dtype();
    let xv = h.gather_f64(layout);
    let per = g.h * g.w;
    let f32_acc = dt != DType::Float64;
    let mut out = Vec::with_capacity(g.planes * g.oh * g.ow);
    for p in 0..g.planes {
        let plane = &xv[p * per..(p + 1) * per];
        for oy in 0..g.oh {
            for ox in 0..g.ow {
                let win = g.window(oy, ox);
                let v = match g.kind {
                    PoolKind::Max => {
                        if win.rows.0 >= win.rows.1 || win.cols.0 >= win.cols.1 {
                            f64::NEG_INFINITY
                        } else {
                            plane[g.argmax(plane, &win)]
                        }
                    }
                    PoolKind::Avg { .. } | PoolKind::Adaptive => {
                        if win.rows.0 >= win.rows.1 || win.cols.0 >= win.cols.1 {
                            0.0
                        } else if f32_acc {
                            let mut s = 0f32;
                            PoolGeom::each_position(&win, |y, x| {
                                s += plane[y * g.w + x] as f32;
                            });
                            if g.kind == PoolKind::Adaptive {
                                let kh = (win.rows.1 - win.rows.0) as f32;
                                let kw = (win.cols.1 - win.cols.0) as f32;
                                (s / kh / kw) as f64
                            } else {
                                (s / win.divide as f32) as f64
                            }
                        } else {
                            let mut s = 0f64;
                            PoolGeom::each_position(&win, |y, x| {
                                s += plane[y * g.w + x];
                            });
                            if g.kind == PoolKind::Adaptive {
                                let kh = (win.rows.1 - win.rows.0) as f64;
                                let kw = (win.cols.1 - win.cols.0) as f64;
                                s / kh / kw
                            } else {
                                s / win.divide
                            }
                        }
                    }
                };
                out.push(v);
            }
        }
        poll()?;
    }
    HostStorage::from_f64s(dt, &out)
}

/// The input gradient of a pooling (row-major `[planes, h, w]`, values of `dt`) given the
/// output's gradient and, for max pooling, the input.
pub(crate) fn pool2d_backward(
    dt: DType,
    grad: &[f64],
    x: &[f64],
    g: &PoolGeom,
) -> Result<Vec<f64>> {
    let per = g.h * g.w;
    let mut gx = vec![0.0; g.planes * per];
    let f32_acc = dt != DType::Float64;
    let div = |v: f64, d: f64| {
        if f32_acc {
            (v as f32 / d as f32) as f64
        } else {
            v / d
        }
    };
    if g.kind == PoolKind::Max {
        let spans = MaxSpans::of(g)?;
        let per_out = g.oh * g.ow;
        for p in 0..g.planes {
            let plane = &x[p * per..(p + 1) * per];
            let gp = &mut gx[p * per..(p + 1) * per];
            let go = &grad[p * per_out..(p + 1) * per_out];
            spans.each_output(|i, win| gp[g.argmax(plane, win)] += go[i]);
            poll()?;
        }
        return Ok(round_to(dt, gx));
    }
    for p in 0..g.planes {
        let plane = &x[p * per..(p + 1) * per];
        let gp = &mut gx[p * per..(p + 1) * per];
        for oy in 0..g.oh {
            for ox in 0..g.ow {
                let go = grad[(p * g.oh + oy) * g.ow + ox];
                let win = g.window(oy, ox);
                if win.rows.0 >= win.rows.1 || win.cols.0 >= win.cols.1 {
                    continue;
                }
                match g.kind {
                    PoolKind::Max => gp[g.argmax(plane, &win)] += go,
                    PoolKind::Avg { .. } => {
                        let d = div(go, win.divide);
                        PoolGeom::each_position(&win, |y, x| {
                            gp[y * g.w + x] += d;
                        });
                    }
                    PoolKind::Adaptive => {
                        let kh = (win.rows.1 - win.rows.0) as f64;
                        let kw = (win.cols.1 - win.cols.0) as f64;
                        let d = div(div(go, kh), kw);
                        PoolGeom::each_position(&win, |y, x| {
                            gp[y * g.w + x] += d;
                        });
                    }
                }
            }
        }
        poll()?;
    }
    Ok(round_to(dt, gx))
}

/// f64 sums rounded once to `dt` (float32's rounding without a match per element).
fn round_to(dt: DType, mut v: Vec<f64>) -> Vec<f64> {
    match dt {
        DType::Float64 => {}
        DType::Float32 => v.iter_mut().for_each(|x| *x = *x as f32 as f64),
        _ => v.iter_mut().for_each(|x| *x = dt.cast(*x)),
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conv_matches_a_direct_sum_and_pools_pick_their_windows() {
        // 1 sample, 1 channel 3x3, a 2x2 kernel of ones, bias 0.5, padding 1
        let x: Vec<f32> = (1..=9).map(|v| v as f32).collect();
        let g = ConvGeom {
            n: 1,
            c: 1,
            h: 3,
            w: 3,
            cout: 1,
            kh: 2,
            kw: 2,
            oh: 4,
            ow: 4,
            stride: (1, 1),
            pad: (1, 1),
            dil: (1, 1),
            groups: 1,
        };
        let hx = HostStorage::F32(x);
        let hw = HostStorage::F32(vec![1.0; 4]);
        let hb = HostStorage::F32(vec![0.5]);
        let y = conv2d(
            (&hx, &Layout::contiguous(&[1, 1, 3, 3])),
            (&hw, &Layout::contiguous(&[1, 1, 2, 2])),
            Some((&hb, &Layout::contiguous(&[1]))),
            &g,
        )
        .unwrap();
        let v = y.gather_f64(&Layout::contiguous(&[16]));
        assert_eq!(v[0], 1.5); // only x[0,0]
        assert_eq!(v[5], 12.5); // 1+2+4+5
        assert_eq!(v[15], 9.5);
        let p = PoolGeom {
            planes: 1,
            h: 3,
            w: 3,
            oh: 1,
            ow: 1,
            kernel: (2, 2),
            stride: (2, 2),
            pad: (0, 0),
            dil: (1, 1),
            kind: PoolKind::Max,
        };
        let m = pool2d(&hx, &Layout::contiguous(&[1, 3, 3]), &p).unwrap();
        assert_eq!(m.gather_f64(&Layout::contiguous(&[1])), vec![5.0]);
        let back = pool2d_backward(
            DType::Float32,
            &[1.0],
            &hx.gather_f64(&Layout::contiguous(&[9])),
            &p,
        )
        .unwrap();
        assert_eq!(back[4], 1.0);
        let a = PoolGeom {
            kind: PoolKind::Adaptive,
            ..p
        };
        let m = pool2d(&hx, &Layout::contiguous(&[1, 3, 3]), &a).unwrap();
        assert_eq!(m.gather_f64(&Layout::contiguous(&[1])), vec![5.0]);
    }
}
