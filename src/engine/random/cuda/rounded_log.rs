//! `u.ln()` for the Box-Muller radius (libm's `logf`, the emulated sampler's stand-in for the
//! GPU's `logf`) without a libm call for nearly every argument, in lanes that share vector
//! registers.
//!
//! libm's `logf` here is glibc's (2.28 and later; the same algorithm as musl's and Arm's
//! optimized-routines, MIT licence): x = 2^k z, z/c - 1 for one of 16 table points c, a
//! degree-3 polynomial in double, and one rounding to float at the end. It is not correctly
//! rounded (0.82 ulp), so a correctly rounded log would move bits; this module evaluates the
//! same algorithm with the same constants. glibc's own build may fuse multiply-adds that this
//! one does not, or not fuse ones this one does; the double results then differ by a few
//! ulps of the largest term (below 2^-50 of it). So the value is widened by 2^-40 of its
//! terms' size either side, and where the two ends round to different floats (about one
//! argument in 2^15), or the argument is not a positive normal float, libm decides. The tests
//! compare every uniform the CUDA sampler can produce with libm's bits.

/// log(2) in double (the algorithm's `Ln2`).
const LN2: f64 = f64::from_bits(0x3FE6_2E42_FEFA_39EF);
/// z is scaled into [OFF, 2 OFF) (about 0.699 to 1.398) around the table's points.
const OFF: u32 = 0x3F33_0000;
/// 1/c and log(c) for the 16 table points c (the algorithm's `tab`), as bit patterns.
const INV_C: [f64; 16] = bits([
    0x3FF6_61EC_79F8_F3BE,
    0x3FF5_71ED_4AAF_883D,
    0x3FF4_9539_F0F0_10B0,
    0x3FF3_C995_B0B8_0385,
    0x3FF3_0D19_0C88_64A5,
    0x3FF2_5E22_7B0B_8EA0,
    0x3FF1_BB4A_4A1A_343F,
    0x3FF1_2358_F08A_E5BA,
    0x3FF0_953F_4199_00A7,
    0x3FF0_0000_0000_0000,
    0x3FEE_608C_FD9A_47AC,
    0x3FEC_A4B3_1F02_6AA0,
    0x3FEB_2036_576A_FCE6,
    0x3FE9_C2D1_63A1_AA2D,
    0x3FE8_86E6_0378_41ED,
    0x3FE7_67DC_F553_4862,
]);
const LOG_C: [f64; 16] = bits([
    0xBFD5_7BF7_808C_AADE,
    0xBFD2_BEF0_A7C0_6DDB,
    0xBFD0_1EAE_7F51_3A67,
    0xBFCB_31D8_A682_24E9,
    0xBFC6_574F_0AC0_7758,
    0xBFC1_AA2B_C79C_8100,
    0xBFBA_4E76_CE8C_0E5E,
    0xBFB1_973C_5A61_1CCC,
    0xBFA2_52F4_38E1_0C1E,
    0x0000_0000_0000_0000,
    0x3FAA_A5AA_5DF2_5984,
    0x3FBC_5E53_AA36_2EB4,
    0x3FC5_26E5_7720_DB08,
    0x3FCB_C286_0D22_4770,
    0x3FD1_058B_C8A0_7EE1,
    0x3FD4_0430_57B6_EE09,
]);
/// log1p(r) = r + A[2] r^2 + A[1] r^3 + A[0] r^4 (the algorithm's `poly`).
const A: [f64; 3] = bits([
    0xBFD0_0EA3_48B8_8334,
    0x3FD5_575B_0BE0_0B6A,
    0xBFDF_FFFE_F20A_4123,
]);
/// How far either side of this evaluation libm's may lie, relative to the size of the terms
/// summed (the true differences are below 2^-50; see the module note).
const TOLERANCE: f64 = 1.0 / (1u64 << 40) as f64;

const fn bits<const N: usize>(b: [u64; N]) -> [f64; N] {
    let mut out = [0.0; N];
    let mut i = 0;
    while i < N {
        out[i] = f64::from_bits(b[i]);
        i += 1;
    }
    out
}

/// The log of `x` by libm's algorithm, and whether it rounds to the same float as libm's.
#[inline(always)]
fn table_log(x: f32) -> (f32, bool) {
    let ix = x.to_bits();
    // positive normal floats only: zero, subnormals, negatives, infinity and NaN go to libm
    let normal = ix.wrapping_sub(0x0080_0000) < 0x7F80_0000 - 0x0080_0000;
    let tmp = ix.wrapping_sub(OFF);
    let i = ((tmp >> 19) & 15) as usize;
    let k = (tmp as i32) >> 23;
    let z = f32::from_bits(ix.wrapping_sub(tmp & 0xFF80_0000)) as f64;
    let r = z.mul_add(INV_C[i], -1.0);
    let y0 = (k as f64).mul_add(LN2, LOG_C[i]);
    let r2 = r * r;
    let p = A[1].mul_add(r, A[2]);
    let p = A[0].mul_add(r2, p);
    let y = p.mul_add(r2, y0 + r);
    // y0 and r may partly cancel: the slack follows the larger terms, not only the sum
    let slack = (y0.abs() + r.abs() + y.abs()) * TOLERANCE;
    let decided = (y - slack) as f32 == (y + slack) as f32;
    (y as f32, decided && normal)
}

fn libm_ln(x: f32) -> f32 {
    x.ln()
}

/// `x.ln()` (libm's `logf`).
#[cfg(test)]
fn ln_as_libm(x: f32) -> f32 {
    super::decided::or_libm(x, table_log, libm_ln)
}

/// `x.ln()` of `L` lanes: the table algorithm in every lane, libm in the rare lanes it cannot
/// decide.
#[inline(always)]
pub(super) fn ln_as_libm_lanes<const L: usize>(x: [f32; L]) -> [f32; L] {
    super::decided::lanes_or_libm(x, table_log, libm_ln)
}

/// [`ln_as_libm`] of four lanes in x86 registers: the table algorithm in four double lanes,
/// its two table reads as gathers (LLVM turns the portable lanes' reads into one load per lane),
/// libm in the rare lanes it cannot decide. The same operations as [`table_log`], so the same
/// doubles.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline]
pub(super) fn ln_as_libm_x4(x: std::arch::x86_64::__m128) -> std::arch::x86_64::__m128 {
    use super::x86::{abs, le_u32, rounds_alike, splat};
    use std::arch::x86_64::*;
    let ix = _mm_castps_si128(x);
    // positive normal floats only, as in table_log (`<` there, `<=` one less here)
    let normal = le_u32(
        _mm_sub_epi32(ix, _mm_set1_epi32(0x0080_0000)),
        0x7F80_0000 - 0x0080_0000 - 1,
    );
    let tmp = _mm_sub_epi32(ix, _mm_set1_epi32(OFF as i32));
    let i = _mm_and_si128(_mm_srli_epi32::<19>(tmp), _mm_set1_epi32(15));
    let k = _mm_srai_epi32::<23>(tmp);
    let top = _mm_and_si128(tmp, _mm_set1_epi32(0xFF80_0000u32 as i32));
    let z = _mm256_cvtps_pd(_mm_castsi128_ps(_mm_sub_epi32(ix, top)));
    // SAFETY: every index is 0..=15 (masked above) and both tables have 16 entries
    let (inv_c, log_c) = unsafe {
        (
            _mm256_i32gather_pd::<8>(INV_C.as_ptr(), i),
            _mm256_i32gather_pd::<8>(LOG_C.as_ptr(), i),
        )
    };
    let r = _mm256_fmadd_pd(z, inv_c, splat(-1.0));
    let y0 = _mm256_fmadd_pd(_mm256_cvtepi32_pd(k), splat(LN2), log_c);
    let r2 = _mm256_mul_pd(r, r);
    let p = _mm256_fmadd_pd(splat(A[1]), r, splat(A[2]));
    let p = _mm256_fmadd_pd(splat(A[0]), r2, p);
    let y = _mm256_fmadd_pd(p, r2, _mm256_add_pd(y0, r));
    let size = _mm256_add_pd(_mm256_add_pd(abs(y0), abs(r)), abs(y));
    let decided = _mm_and_ps(
        rounds_alike(y, _mm256_mul_pd(size, splat(TOLERANCE))),
        _mm_castsi128_ps(normal),
    );
    super::decided::x4_or_libm(_mm256_cvtpd_ps(y), decided, x, libm_ln)
}

#[cfg(test)]
mod tests {
    use super::super::rounded_sin::tests::{
        X86Form, in_sixteens, neighbours, random_floats, words_of_distinct_floats, x86_fours,
    };
    use super::*;

    fn same(a: f32, b: f32) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    /// One argument, alone and in every lane.
    fn check(x: f32) {
        let want = libm_ln(x);
        assert!(same(ln_as_libm(x), want), "ln({x:e})");
        let lanes = ln_as_libm_lanes([x; 16]);
        assert!(lanes.into_iter().all(|y| same(y, want)), "ln({x:e}) x16");
        if let Some((form, lanes)) = x86_fours([x; 16], X86_LN) {
            assert!(same(lanes[0], want), "ln({x:e}) in {form}");
        }
    }

    /// The four-lane x86 form of the log, where this build has one.
    #[cfg(target_arch = "x86_64")]
    const X86_LN: X86Form = Some(ln_as_libm_x4);
    #[cfg(not(target_arch = "x86_64"))]
    const X86_LN: X86Form = None;

    /// Sixteen arguments at once, each lane against libm.
    fn check_lanes(x: [f32; 16]) {
        for (x, got) in x.into_iter().zip(ln_as_libm_lanes(x)) {
            assert!(same(got, libm_ln(x)), "ln({x:e}) in a lane");
        }
        if let Some((form, got)) = x86_fours(x, X86_LN) {
            for (x, got) in x.into_iter().zip(got) {
                assert!(same(got, libm_ln(x)), "ln({x:e}) in {form}");
            }
        }
    }

    #[test]
    fn edge_arguments_give_libms_bits() {
        let specials = [
            0.0,
            -0.0,
            f32::MIN_POSITIVE,
            f32::from_bits(1),
            f32::from_bits(0x007f_ffff),
            f32::EPSILON,
            1.0,
            0.5,
            2.0,
            f32::from_bits(OFF),
            f32::from_bits(OFF) * 2.0,
            (-33f32).exp2(),
            (-32f32).exp2(),
            std::f32::consts::E,
            -1.0,
            1e30,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        neighbours(&specials).for_each(check);
    }

    #[test]
    fn sampled_floats_give_libms_bits() {
        // every 997th positive float, then random bit patterns (negatives and NaNs included)
        for bits in (0..=f32::INFINITY.to_bits()).step_by(997) {
            check(f32::from_bits(bits));
        }
        random_floats(0x2545_f491_4f6c_dd1d, 200_000).for_each(check);
    }

    #[test]
    fn every_sampler_uniform_gives_libms_bits() {
        // 84 million uniforms, 16 to a call. A uniform depends on its word only through
        // `x as f32`: every integer below 2^24, then every float from 2^24 to 2^32.
        let uniform = super::super::kernels::curand_uniform;
        in_sixteens(words_of_distinct_floats().map(uniform), check_lanes);
    }
}
