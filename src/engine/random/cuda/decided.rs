//! The one shape of rounded_sin.rs and rounded_log.rs: a fast algorithm that also says whether
//! its float is certainly libm's, with libm deciding the rest.

/// `fast(x)`'s value where it says it is decided, `libm(x)` otherwise.
#[inline(always)]
pub(super) fn or_libm(x: f32, fast: impl Fn(f32) -> (f32, bool), libm: impl Fn(f32) -> f32) -> f32 {
    match fast(x) {
        (y, true) => y,
        _ => libm(x),
    }
}

/// [`or_libm`] of `L` lanes: the fast algorithm in every lane (so the compiler can keep them
/// in vector registers), libm in the rare lanes it cannot decide.
#[inline(always)]
pub(super) fn lanes_or_libm<const L: usize>(
    x: [f32; L],
    fast: impl Fn(f32) -> (f32, bool),
    libm: impl Fn(f32) -> f32,
) -> [f32; L] {
    let mut out = [0f32; L];
    let mut decided = [false; L];
    for l in 0..L {
        (out[l], decided[l]) = fast(x[l]);
    }
    // `&` over every lane rather than `all`'s early exit: one vector test, not 16 branches
    if !decided.iter().fold(true, |all, &d| all & d) {
        for l in 0..L {
            if !decided[l] {
                out[l] = libm(x[l]);
            }
        }
    }
    out
}

/// Four x86 lanes of a fast algorithm: `values` where `decided` (a lane mask, as an SSE
/// compare gives) is set, `libm` of the lane's argument where it is not.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn x4_or_libm(
    values: std::arch::x86_64::__m128,
    decided: std::arch::x86_64::__m128,
    args: std::arch::x86_64::__m128,
    libm: impl Fn(f32) -> f32,
) -> std::arch::x86_64::__m128 {
    use std::arch::x86_64::{__m128, _mm_movemask_ps};
    let mask = _mm_movemask_ps(decided);
    if mask == 0b1111 {
        return values;
    }
    // SAFETY: __m128 and [f32; 4] are the same 16 plain bytes, lane 0 first
    let (mut out, args) = unsafe {
        (
            std::mem::transmute::<__m128, [f32; 4]>(values),
            std::mem::transmute::<__m128, [f32; 4]>(args),
        )
    };
    for l in 0..4 {
        if mask & (1 << l) == 0 {
            out[l] = libm(args[l]);
        }
    }
    // SAFETY: as above
    unsafe { std::mem::transmute::<[f32; 4], __m128>(out) }
}
