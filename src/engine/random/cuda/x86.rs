//! The few AVX2 helpers rounded_log.rs and rounded_sin.rs share in their four-lane forms.

use std::arch::x86_64::*;

/// Every lane `v`.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn splat(v: f64) -> __m256d {
    _mm256_set1_pd(v)
}

/// |v| in every lane (the sign bit cleared).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn abs(v: __m256d) -> __m256d {
    _mm256_andnot_pd(_mm256_set1_pd(-0.0), v)
}

/// Lanes where `a <= b` as unsigned integers (SSE compares only signed ones: both sides with
/// the sign bit flipped compare the same way signed).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn le_u32(a: __m128i, b: u32) -> __m128i {
    let flip = _mm_set1_epi32(i32::MIN);
    let above = _mm_cmpgt_epi32(
        _mm_xor_si128(a, flip),
        _mm_set1_epi32((b ^ 0x8000_0000) as i32),
    );
    _mm_xor_si128(above, _mm_set1_epi32(-1))
}

/// Lanes where `y - slack` and `y + slack` round to the same float: a value within `slack` of
/// `y` rounds as `y` does (an ordered compare, so NaN is never decided).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn rounds_alike(y: __m256d, slack: __m256d) -> __m128 {
    let low = _mm256_cvtpd_ps(_mm256_sub_pd(y, slack));
    let high = _mm256_cvtpd_ps(_mm256_add_pd(y, slack));
    _mm_cmpeq_ps(low, high)
}
