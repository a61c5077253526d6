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
