//! Max pooling with 2 x 2 windows at stride 2, no padding or dilation (`MaxPool2d(2)`, every
//! small CNN's), a whole output row at a time.
//!
//! The general path (conv_f32.rs) finds each window's maximum through a per-output closure,
//! one value at a time: forward and backward of the two poolings were a fifth of a small CNN's
//! training step. Here each output row reads its two input rows once and picks in loops the
//! compiler vectorises. The pick is the general path's: the window's values in row-major
//! order, each replacing the running maximum when larger or NaN, so the first largest value
//! wins (and of 0.0 and -0.0 the first) and the last NaN.

use super::conv::PoolGeom;

/// Whether `g` is a max pooling this module computes: 2 x 2 windows, stride 2, no padding,
/// no dilation, and every window inside the input (no ceil_mode edge).
pub(super) fn applies(g: &PoolGeom) -> bool {
    g.kernel == (2, 2)
        && g.stride == (2, 2)
        && g.pad == (0, 0)
        && g.dil == (1, 1)
        && g.oh * 2 <= g.h
        && g.ow * 2 <= g.w
}

/// The running maximum after `v`, and whether `v` replaced it.
#[inline(always)]
fn step(m: f32, v: f32) -> (f32, bool) {
    let take = v > m || v.is_nan();
    (if take { v } else { m }, take)
}

/// The maximum of `[a, b, c, d]` as the window walk picks it, and its position (0..4).
#[inline(always)]
fn pick(a: f32, b: f32, c: f32, d: f32) -> (f32, u32) {
    let (m, _) = step(f32::NEG_INFINITY, a);
    let (m, tb) = step(m, b);
    let at = if tb { 1 } else { 0 };
    let (m, tc) = step(m, c);
    let at = if tc { 2 } else { at };
    let (m, td) = step(m, d);
    (m, if td { 3 } else { at })
}

/// One plane's outputs (`oh x ow`) from its input (`h x w`).
pub(super) fn forward_plane(plane: &[f32], g: &PoolGeom, out: &mut [f32]) {
    let w = g.w;
    for (oy, o) in out.chunks_exact_mut(g.ow.max(1)).take(g.oh).enumerate() {
        let (top, bottom) = (
            &plane[2 * oy * w..][..2 * g.ow],
            &plane[(2 * oy + 1) * w..][..2 * g.ow],
        );
        for ((o, t), b) in o
            .iter_mut()
            .zip(top.chunks_exact(2))
            .zip(bottom.chunks_exact(2))
        {
            *o = pick(t[0], t[1], b[0], b[1]).0;
        }
    }
}

/// One plane's input gradient (`h x w`, zero on entry) from its input and its outputs'
/// gradient: each window's picked element takes the output's gradient (plus 0.0, which makes
/// -0.0 the 0.0 the general path's sum from zero gives), the others keep their zero.
pub(super) fn backward_plane(plane: &[f32], go: &[f32], g: &PoolGeom, gx: &mut [f32]) {
    let w = g.w;
    for (oy, go) in go.chunks_exact(g.ow.max(1)).take(g.oh).enumerate() {
        let (top, bottom) = (
            &plane[2 * oy * w..][..2 * g.ow],
            &plane[(2 * oy + 1) * w..][..2 * g.ow],
        );
        let (gtop, gbottom) = gx[2 * oy * w..].split_at_mut(w);
        let (gtop, gbottom) = (&mut gtop[..2 * g.ow], &mut gbottom[..2 * g.ow]);
        let rows = top.chunks_exact(2).zip(bottom.chunks_exact(2));
        let grads = gtop.chunks_exact_mut(2).zip(gbottom.chunks_exact_mut(2));
        for (((t, b), (gt, gb)), &gv) in rows.zip(grads).zip(go) {
            let (_, at) = pick(t[0], t[1], b[0], b[1]);
            let gv = gv + 0.0;
            gt[0] = if at == 0 { gv } else { 0.0 };
            gt[1] = if at == 1 { gv } else { 0.0 };
            gb[0] = if at == 2 { gv } else { 0.0 };
            gb[1] = if at == 3 { gv } else { 0.0 };
        }
    }
}
