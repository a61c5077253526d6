//! `(v as f64).sin() as f32` (libm's double sine rounded to float, the emulated Box-Muller's
//! stand-in for the GPU's `__sincosf`) without calling libm for nearly every argument.
//!
//! A double polynomial lands within 2^-50 (relative) of the true sine, and libm's `sin` within
//! one double ulp (2^-52). Rounded to float, the two agree unless a float rounding boundary
//! lies between them; so the polynomial's value is widened by 2^-40 either side (a thousand
//! times both errors), and where the two ends round to different floats (about one argument in
//! 2^16) libm decides. Arguments outside [+0, 8] (the samplers' angles lie in (0, 2 pi]) and NaN
//! go to libm as well. Every result is therefore libm's, bit for bit; the tests compare every
//! angle the CUDA sampler can produce.

/// The first 33 bits of pi/2 (fdlibm's `pio2_1`): `k * PIO2_HI` is exact for k <= 5.
const PIO2_HI: f64 = f64::from_bits(0x3FF9_21FB_5440_0000);
/// pi/2 - [`PIO2_HI`] (fdlibm's `pio2_1t`).
const PIO2_LO: f64 = f64::from_bits(0x3DD0_B461_1A62_6331);
const TWO_OVER_PI: f64 = std::f64::consts::FRAC_2_PI;
/// Adding and subtracting 1.5 * 2^52 rounds a small double to the nearest integer.
const ROUNDER: f64 = 6_755_399_441_055_744.0;
/// fdlibm's `__kernel_sin` coefficients (|r| <= pi/4).
const SIN: [f64; 6] = [
    f64::from_bits(0xBFC5_5555_5555_5549),
    f64::from_bits(0x3F81_1111_1110_F8A6),
    f64::from_bits(0xBF2A_01A0_19C1_61D5),
    f64::from_bits(0x3EC7_1DE3_57B1_FE7D),
    f64::from_bits(0xBE5A_E5E6_8A2B_9CEB),
    f64::from_bits(0x3DE5_D93A_5ACF_D57C),
];
/// fdlibm's `__kernel_cos` coefficients (|r| <= pi/4).
const COS: [f64; 6] = [
    f64::from_bits(0x3FA5_5555_5555_554C),
    f64::from_bits(0xBF56_C16C_16C1_5177),
    f64::from_bits(0x3EFA_01A0_19CB_1590),
    f64::from_bits(0xBE92_7E4F_809C_52AD),
    f64::from_bits(0x3E21_EE9E_BDB4_B1C4),
    f64::from_bits(0xBDA8_FAE9_BE88_38D4),
];
/// How far either side of the polynomial's value libm's may lie, relative (see the module
/// note: the true errors are below 2^-50).
const TOLERANCE: f64 = 1.0 / (1u64 << 40) as f64;
/// The arguments the polynomial path takes: the reduction below is exact up to 5 * pi/2.
const MAX_ARGUMENT: f32 = 8.0;

/// The sine of `v` by the polynomial, and whether it rounds to the same float as libm's.
#[inline(always)]
fn polynomial_sin(v: f32) -> (f32, bool) {
    let x = v as f64;
    // Quadrant k (0..=5), r = x - k pi/2 with |r| <= pi/4. For k >= 1, x >= pi/4 is a multiple
    // of 2^-24 and k * PIO2_HI one of 2^-32 below 8, so `x - k * PIO2_HI` is exact.
    let shifted = x * TWO_OVER_PI + ROUNDER;
    let k = shifted - ROUNDER;
    // k's low bits, read from the mantissa where the rounder put it (an `as` cast to an
    // integer saturates NaN and infinities lane by lane, which kept this loop scalar)
    let quadrant = shifted.to_bits();
    let r = (x - k * PIO2_HI) - k * PIO2_LO;
    let z = r * r;
    let sin_poly = SIN[1] + z * (SIN[2] + z * (SIN[3] + z * (SIN[4] + z * SIN[5])));
    let sin_r = r + (z * r) * (SIN[0] + z * sin_poly);
    let cos_poly = COS[0] + z * (COS[1] + z * (COS[2] + z * (COS[3] + z * (COS[4] + z * COS[5]))));
    let cos_r = (1.0 - 0.5 * z) + (z * z) * cos_poly;
    let magnitude = if quadrant & 1 == 0 { sin_r } else { cos_r };
    let y = if quadrant & 2 == 0 {
        magnitude
    } else {
        -magnitude
    };
    let slack = y.abs() * TOLERANCE;
    let decided = (y - slack) as f32 == (y + slack) as f32;
    // +0 through MAX_ARGUMENT: the bit patterns of the positive floats are ordered as their
    // values, and -0 (whose sine is -0, the polynomial's +0) and NaN lie above.
    let in_range = v.to_bits() <= MAX_ARGUMENT.to_bits();
    (y as f32, decided && in_range)
}

fn libm_sin(v: f32) -> f32 {
    (v as f64).sin() as f32
}

/// `(v as f64).sin() as f32`.
#[inline(always)]
pub(super) fn sin_as_f32(v: f32) -> f32 {
    super::decided::or_libm(v, polynomial_sin, libm_sin)
}

/// [`sin_as_f32`] of `L` lanes: the polynomial in every lane, libm in the rare lanes it
/// cannot decide.
#[inline(always)]
pub(super) fn sin_as_f32_lanes<const L: usize>(v: [f32; L]) -> [f32; L] {
    super::decided::lanes_or_libm(v, polynomial_sin, libm_sin)
}

/// [`sin_as_f32`] of four lanes in x86 registers: the reduction of [`polynomial_sin`] in four
/// double lanes, its polynomials with fused multiply-adds in Estrin's order (shorter chains of
/// dependent operations than Horner's; the decided test makes any evaluation within the
/// tolerance give libm's bits, and the tests compare every sampler angle), libm in the rare
/// lanes it cannot decide.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline]
pub(super) fn sin_as_f32_x4(v: std::arch::x86_64::__m128) -> std::arch::x86_64::__m128 {
    use super::x86::{abs, le_u32, rounds_alike, splat};
    use std::arch::x86_64::*;
    let (add, sub, mul) = (_mm256_add_pd, _mm256_sub_pd, _mm256_mul_pd);
    let fma = |a, b, c| _mm256_fmadd_pd(a, b, c);
    let x = _mm256_cvtps_pd(v);
    let shifted = add(mul(x, splat(TWO_OVER_PI)), splat(ROUNDER));
    let k = sub(shifted, splat(ROUNDER));
    let quadrant = _mm256_castpd_si256(shifted);
    let r = sub(sub(x, mul(k, splat(PIO2_HI))), mul(k, splat(PIO2_LO)));
    let z = mul(r, r);
    let z2 = mul(z, z);
    let (s, c) = (SIN.map(|s| splat(s)), COS.map(|c| splat(c)));
    let sin_tail = fma(z2, fma(z2, s[5], fma(z, s[4], s[3])), fma(z, s[2], s[1]));
    let sin_r = fma(mul(z, r), fma(z, sin_tail, s[0]), r);
    let cos_tail = fma(
        mul(z2, z2),
        fma(z, c[5], c[4]),
        fma(z2, fma(z, c[3], c[2]), fma(z, c[1], c[0])),
    );
    let cos_r = fma(z2, cos_tail, fma(splat(-0.5), z, splat(1.0)));
    let one = _mm256_set1_epi64x(1);
    let odd = _mm256_cmpeq_epi64(_mm256_and_si256(quadrant, one), one);
    let magnitude = _mm256_blendv_pd(sin_r, cos_r, _mm256_castsi256_pd(odd));
    // quadrants 2 and 3 negate: bit 1 of k moved to the sign bit
    let sign = _mm256_slli_epi64::<62>(_mm256_and_si256(quadrant, _mm256_set1_epi64x(2)));
    let y = _mm256_xor_pd(magnitude, _mm256_castsi256_pd(sign));
    let in_range = le_u32(_mm_castps_si128(v), MAX_ARGUMENT.to_bits());
    let decided = _mm_and_ps(
        rounds_alike(y, mul(abs(y), splat(TOLERANCE))),
        _mm_castsi128_ps(in_range),
    );
    super::decided::x4_or_libm(_mm256_cvtpd_ps(y), decided, v, libm_sin)
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::kernels::curand_angle as angle;
    use super::*;

    fn check(v: f32) {
        let want = libm_sin(v);
        assert_eq!(sin_as_f32(v).to_bits(), want.to_bits(), "sin({v:e})");
        let lanes = sin_as_f32_lanes([v; 16]);
        assert!(
            lanes.iter().all(|s| s.to_bits() == want.to_bits()),
            "sin({v:e}) x16"
        );
        if let Some((form, lanes)) = x86_fours([v; 16], X86_SIN) {
            assert_eq!(lanes[0].to_bits(), want.to_bits(), "sin({v:e}) in {form}");
        }
    }

    /// The four-lane x86 form of the sine, where this build has one.
    #[cfg(target_arch = "x86_64")]
    const X86_SIN: X86Form = Some(sin_as_f32_x4);
    #[cfg(not(target_arch = "x86_64"))]
    const X86_SIN: X86Form = None;

    /// A four-lane x86 form (`ln_as_libm_x4`, `sin_as_f32_x4`), as the tests take it.
    #[cfg(target_arch = "x86_64")]
    pub(in super::super) type X86Form =
        Option<unsafe fn(std::arch::x86_64::__m128) -> std::arch::x86_64::__m128>;
    #[cfg(not(target_arch = "x86_64"))]
    pub(in super::super) type X86Form = Option<fn()>;

    /// `form` of sixteen values, four lanes at a time, named for the messages: nothing where
    /// the build has no such form or the CPU lacks AVX2 and FMA (the portable lanes are
    /// checked there).
    pub(in super::super) fn x86_fours(
        v: [f32; 16],
        form: X86Form,
    ) -> Option<(&'static str, [f32; 16])> {
        #[cfg(target_arch = "x86_64")]
        if let Some(f) = form
            && crate::engine::numerics::fast::has_avx2_fma()
        {
            use std::arch::x86_64::{_mm_loadu_ps, _mm_storeu_ps};
            let mut out = [0f32; 16];
            for at in (0..16).step_by(4) {
                // SAFETY: the CPU has AVX2 and FMA (checked above), all the forms enable; and
                // `at + 4 <= 16`, the length of both arrays
                unsafe {
                    _mm_storeu_ps(
                        out.as_mut_ptr().add(at),
                        f(_mm_loadu_ps(v.as_ptr().add(at))),
                    )
                };
            }
            return Some(("the x86 four-lane form", out));
        }
        let _ = (v, form);
        None
    }

    /// `f` of the values sixteen at a time (the last group padded with its own values).
    /// Every float within 64 bit patterns of each of `values` (the edges of an algorithm's
    /// cases: zero, powers of two, infinities, NaN).
    pub(in super::super) fn neighbours(values: &[f32]) -> impl Iterator<Item = f32> + '_ {
        values.iter().flat_map(|v| {
            (-64i64..=64)
                .map(move |d| v.to_bits() as i64 + d)
                .filter(|bits| (0..=u32::MAX as i64).contains(bits))
                .map(|bits| f32::from_bits(bits as u32))
        })
    }

    /// `n` random f32 bit patterns (xorshift64 from `seed`): negatives, NaNs and every size.
    pub(in super::super) fn random_floats(seed: u64, n: usize) -> impl Iterator<Item = f32> {
        let mut x = seed;
        (0..n).map(move |_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            f32::from_bits(x as u32)
        })
    }

    /// One 32-bit word for each value `word as f32` can take, the only way the sampler's
    /// uniforms and angles depend on their word: every integer below 2^24, then every float
    /// from 2^24 to 2^32.
    pub(in super::super) fn words_of_distinct_floats() -> impl Iterator<Item = u32> {
        let floats = (16_777_216f32.to_bits()..=4_294_967_296f32.to_bits())
            .map(|bits| f32::from_bits(bits) as u32);
        (0..1u32 << 24).chain(floats)
    }

    pub(in super::super) fn in_sixteens(
        values: impl Iterator<Item = f32>,
        mut f: impl FnMut([f32; 16]),
    ) {
        let (mut group, mut n) = ([0f32; 16], 0);
        for v in values {
            group[n] = v;
            n += 1;
            if n == 16 {
                f(group);
                n = 0;
            }
        }
        if n > 0 {
            f(std::array::from_fn(|l| group[l % n]));
        }
    }

    /// Sixteen arguments at once, each lane against libm.
    fn check_lanes(v: [f32; 16]) {
        for (v, got) in v.into_iter().zip(sin_as_f32_lanes(v)) {
            assert_eq!(got.to_bits(), libm_sin(v).to_bits(), "sin({v:e}) in a lane");
        }
        if let Some((form, got)) = x86_fours(v, X86_SIN) {
            for (v, got) in v.into_iter().zip(got) {
                assert_eq!(got.to_bits(), libm_sin(v).to_bits(), "sin({v:e}) in {form}");
            }
        }
    }

    #[test]
    fn edge_arguments_give_libms_bits() {
        let pi = std::f32::consts::PI;
        let specials = [
            0.0,
            -0.0,
            f32::MIN_POSITIVE,
            f32::from_bits(1),
            f32::from_bits(0x007f_ffff),
            f32::EPSILON,
            pi / 4.0,
            pi / 2.0,
            pi,
            1.5 * pi,
            2.0 * pi,
            2.5 * pi,
            MAX_ARGUMENT,
            f32::from_bits(MAX_ARGUMENT.to_bits() + 1),
            -1.0,
            -pi,
            1e10,
            -1e30,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            angle(0),
            angle(u32::MAX),
        ];
        neighbours(&specials).for_each(check);
    }

    #[test]
    fn sampled_floats_give_libms_bits() {
        // every 997th float from 0 to past MAX_ARGUMENT, then random bit patterns of any size
        let end = MAX_ARGUMENT.to_bits() + 4096;
        for bits in (0..end).step_by(997) {
            check(f32::from_bits(bits));
        }
        random_floats(0x9e37_79b9_7f4a_7c15, 200_000).for_each(check);
    }

    #[test]
    fn every_sampler_angle_gives_libms_bits() {
        // 84 million angles, each alone and in a group of 16.
        // The angle depends on the word only through `y as f32`: every integer below 2^24,
        // then every float from 2^24 to 2^32.
        // Each angle alone, then 16 neighbours to a call.
        in_sixteens(words_of_distinct_floats().map(angle), |v| {
            for x in v {
                assert_eq!(sin_as_f32(x).to_bits(), libm_sin(x).to_bits(), "sin({x:e})");
            }
            check_lanes(v);
        });
    }
}
