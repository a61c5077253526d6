//! The float `log` and `sincos` of ATen's vectorised Box-Muller (native/cpu/avx_mathfun.h,
//! Cephes polynomials after Pommier's sse_mathfun), one lane at a time.
//!
//! The header is written with separate multiplies and adds, but PyTorch's AVX2/AVX512 builds
//! compile it with FMA enabled and GCC's default `-ffp-contract=fast`, which fuses every
//! multiply whose only use is an add. The fusions below are the ones GCC makes (walking the
//! statements in order, a product feeding an add becomes that add's FMA); without them 873 of
//! 100 003 `randn` values differed from PyTorch's, with them none.

const MIN_NORM_POS: u32 = 0x0080_0000;
const SQRTHF: f32 = 0.707_106_77;
const LOG_P: [f32; 9] = [
    0.070_376_836,
    -0.115_146_1,
    0.116_769_984,
    -0.124_201_41,
    0.142_493_23,
    -0.166_680_57,
    0.200_007_14,
    -0.249_999_94,
    0.333_333_3,
];
const LOG_Q1: f32 = -0.000_212_194_44;
const LOG_Q2: f32 = 0.693_359_4;

/// `log256_ps` on one lane: NaN for x <= 0, denormals treated as the smallest normal.
#[inline(always)] // into its AVX2+FMA caller, where each mul_add is one instruction
pub(super) fn log(x: f32) -> f32 {
    let invalid = x <= 0.0;
    let x = x.max(f32::from_bits(MIN_NORM_POS));
    let bits = x.to_bits();
    // Exponent (unbiased by 0x7f, so the mantissa below lies in [0.5, 1)).
    let exponent = (bits >> 23) as i32 - 0x7f;
    let mut m = f32::from_bits((bits & !0x7f80_0000) | 0.5f32.to_bits());
    let mut e = exponent as f32 + 1.0;
    // Below sqrt(1/2): use 2m - 1 and one less in the exponent.
    let below = m < SQRTHF;
    let extra = if below { m } else { 0.0 };
    m -= 1.0;
    e -= if below { 1.0 } else { 0.0 };
    m += extra;
    let z = m * m;
    let mut y = LOG_P[0];
    for p in &LOG_P[1..] {
        y = y.mul_add(m, *p);
    }
    y *= m;
    y = y.mul_add(z, e * LOG_Q1);
    y = (-z).mul_add(0.5, y);
    let result = e.mul_add(LOG_Q2, m + y);
    if invalid { f32::NAN } else { result }
}

const FOUR_OVER_PI: f32 = 1.273_239_5;
const MINUS_DP1: f32 = -0.785_156_25;
const MINUS_DP2: f32 = -0.000_241_875_65;
const MINUS_DP3: f32 = -3.774_895e-8;
const SINCOF: [f32; 3] = [-0.000_195_152_96, 0.008_332_161, -0.166_666_55];
const COSCOF: [f32; 3] = [2.443_315_7e-5, -0.001_388_731_6, 0.041_666_646];

/// `sincos256_ps` on one lane: (sin x, cos x). Accurate for |x| below about 8192, which
/// covers Box-Muller's [0, 2*pi).
#[inline(always)] // as log
pub(super) fn sincos(x: f32) -> (f32, f32) {
    let mut sign_sin = x.to_bits() & 0x8000_0000;
    let mut x = x.abs();
    // Octant j, rounded up to even (Cephes' j = (j + 1) & ~1). Truncation like cvttps; the
    // saturating cast matches it for every argument the sampler can produce.
    let mut j = (x * FOUR_OVER_PI) as i32;
    j = j.wrapping_add(1) & !1;
    let y = j as f32;
    let swap_sin = ((j & 4) as u32) << 29;
    let sine_poly_is_cos = (j & 2) == 0;
    // Extended-precision reduction x - y*pi/4 in three steps (each one FMA).
    x = y.mul_add(MINUS_DP1, x);
    x = y.mul_add(MINUS_DP2, x);
    x = y.mul_add(MINUS_DP3, x);
    let sign_cos = ((!(j.wrapping_sub(2)) & 4) as u32) << 29;
    sign_sin ^= swap_sin;

    let z = x * x;
    let mut yc = COSCOF[0].mul_add(z, COSCOF[1]);
    yc = yc.mul_add(z, COSCOF[2]);
    yc *= z;
    yc = yc.mul_add(z, -(z * 0.5));
    yc += 1.0;

    let mut ys = SINCOF[0].mul_add(z, SINCOF[1]);
    ys = ys.mul_add(z, SINCOF[2]);
    ys *= z;
    ys = ys.mul_add(x, x);

    let (s, c) = if sine_poly_is_cos { (ys, yc) } else { (yc, ys) };
    (
        f32::from_bits(s.to_bits() ^ sign_sin),
        f32::from_bits(c.to_bits() ^ sign_cos),
    )
}
