//! The SLEEF float functions ATen's vectorised kernels call (`Sleef_expf8_u10` and friends),
//! written again in Rust from SLEEF's published algorithms (src/libm/sleefsimdsp.c, df.h,
//! helperavx2.h). ATen links SLEEF's AVX2 build with FMA on this machine, and every SIMD lane
//! computes independently, so one lane written as scalar code with `mul_add` where SLEEF's
//! helpers use `_mm256_fmadd_ps` gives the same bits. Checked against the SLEEF build inside
//! libtorch_cpu.so on every float32 input (see docs/engine.md, "Numerics").
//!
//! Constants SLEEF writes as double literals passed to `vcast_vf_f(float)` are rounded the way C
//! does it (decimal to double to float): [`c`].

#![allow(clippy::excessive_precision, clippy::approx_constant)]

/// A double literal converted to float, as C's `vcast_vf_f(0.1234...)` does.
#[inline(always)]
const fn c(v: f64) -> f32 {
    v as f32
}

const L2UF: f32 = 0.693145751953125;
const L2LF: f32 = 1.428606765330187045e-06;
const R_LN2F: f32 = c(1.442695040888963407359924681001892137426645954152985934135449406931);
const FLT_MIN: f32 = f32::MIN_POSITIVE;
/// The NaN SLEEF makes by OR-ing a lane with an all-ones mask (`vor_vm_vo32_vm`).
const ALL_ONES_NAN: f32 = f32::from_bits(0xffff_ffff);

#[inline(always)]
fn fma(x: f32, y: f32, z: f32) -> f32 {
    x.mul_add(y, z)
}

/// `_mm256_cvtps_epi32`: round to nearest even; NaN and out-of-range give i32::MIN.
#[inline(always)]
fn rint_i(x: f32) -> i32 {
    integral_to_i32(x.round_ties_even())
}

/// `_mm256_cvttps_epi32`: truncate; NaN and out-of-range give i32::MIN.
#[inline(always)]
fn trunc_i(x: f32) -> i32 {
    integral_to_i32(x.trunc())
}

/// The conversion both take once `r` is rounded to an integer: NaN and out-of-range give
/// i32::MIN (the x86 "integer indefinite").
#[inline(always)]
fn integral_to_i32(r: f32) -> i32 {
    if r.is_nan() || !(-2147483648.0..2147483648.0).contains(&r) {
        i32::MIN
    } else {
        // SAFETY: r is an integer (the callers round it) inside i32's range (checked just
        // above). `r as i32` gives the same value but its saturating form kept LLVM from
        // vectorising every loop that calls exp/log (one scalar cvttss2si per lane:
        // softmax's exp ran at a third of its speed).
        unsafe { r.to_int_unchecked::<i32>() }
    }
}

#[inline(always)]
fn pow2i(q: i32) -> f32 {
    f32::from_bits((q.wrapping_add(0x7f) as u32).wrapping_shl(23))
}

#[inline(always)]
fn ldexp2(d: f32, e: i32) -> f32 {
    d * pow2i(e >> 1) * pow2i(e.wrapping_sub(e >> 1))
}

#[inline(always)]
fn ldexp3(d: f32, q: i32) -> f32 {
    f32::from_bits((d.to_bits() as i32).wrapping_add(q.wrapping_shl(23)) as u32)
}

/// SLEEF's `vldexp_vf_vf_vi2`.
#[inline(always)]
fn ldexp(x: f32, q: i32) -> f32 {
    let mut m = q >> 31;
    m = ((m.wrapping_add(q) >> 6).wrapping_sub(m)).wrapping_shl(4);
    let q = q.wrapping_sub(m.wrapping_shl(2));
    m = m.wrapping_add(0x7f);
    m = if m > 0 { m } else { 0 };
    m = if m > 0xff { 0xff } else { m };
    let u = f32::from_bits((m as u32).wrapping_shl(23));
    let x = x * u * u * u * u;
    let u = f32::from_bits((q.wrapping_add(0x7f) as u32).wrapping_shl(23));
    x * u
}

#[inline(always)]
fn ilogb2k(d: f32) -> i32 {
    (((d.to_bits() >> 23) & 0xff) as i32) - 0x7f
}

/// x with its sign flipped where y is negative (`vmulsign`).
#[inline(always)]
fn mulsign(x: f32, y: f32) -> f32 {
    f32::from_bits(x.to_bits() ^ (y.to_bits() & 0x8000_0000))
}

#[inline(always)]
fn is_neg_zero(d: f32) -> bool {
    d.to_bits() == 0x8000_0000
}

/// A double-float (hi + lo), SLEEF's `vfloat2`.
#[derive(Clone, Copy, Debug)]
struct F2 {
    x: f32,
    y: f32,
}

#[inline(always)]
fn f2(x: f32, y: f32) -> F2 {
    F2 { x, y }
}

#[inline(always)]
fn dfneg(a: F2) -> F2 {
    f2(-a.x, -a.y)
}

#[inline(always)]
fn dfnormalize(t: F2) -> F2 {
    let s = t.x + t.y;
    f2(s, t.x - s + t.y)
}

#[inline(always)]
fn dfscale(d: F2, s: f32) -> F2 {
    f2(d.x * s, d.y * s)
}

#[inline(always)]
fn dfadd_ff(x: f32, y: f32) -> F2 {
    let s = x + y;
    f2(s, x - s + y)
}

#[inline(always)]
fn dfadd2_ff(x: f32, y: f32) -> F2 {
    let s = x + y;
    let v = s - x;
    f2(s, (x - (s - v)) + (y - v))
}

#[inline(always)]
fn dfadd_f2f(x: F2, y: f32) -> F2 {
    let s = x.x + y;
    f2(s, x.x - s + y + x.y)
}

#[inline(always)]
fn dfadd2_f2f(x: F2, y: f32) -> F2 {
    let s = x.x + y;
    let v = s - x.x;
    let t = (x.x - (s - v)) + (y - v);
    f2(s, t + x.y)
}

#[inline(always)]
fn dfadd_ff2(x: f32, y: F2) -> F2 {
    let s = x + y.x;
    f2(s, x - s + y.x + y.y)
}

#[inline(always)]
fn dfadd_f2f2(x: F2, y: F2) -> F2 {
    let s = x.x + y.x;
    f2(s, x.x - s + y.x + x.y + y.y)
}

#[inline(always)]
fn dfadd2_f2f2(x: F2, y: F2) -> F2 {
    let s = x.x + y.x;
    let v = s - x.x;
    let t = (x.x - (s - v)) + (y.x - v);
    f2(s, t + (x.y + y.y))
}

#[inline(always)]
fn dfdiv(n: F2, d: F2) -> F2 {
    let t = 1.0 / d.x;
    let s = n.x * t;
    let u = fma(t, n.x, -s);
    let v = fma(-d.y, t, fma(-d.x, t, 1.0));
    f2(s, fma(s, v, fma(n.y, t, u)))
}

#[inline(always)]
fn dfsqu(x: F2) -> F2 {
    let s = x.x * x.x;
    f2(s, fma(x.x + x.x, x.y, fma(x.x, x.x, -s)))
}

#[inline(always)]
fn dfmul_f2f2(x: F2, y: F2) -> F2 {
    let s = x.x * y.x;
    f2(s, fma(x.x, y.y, fma(x.y, y.x, fma(x.x, y.x, -s))))
}

#[inline(always)]
fn dfmul_f2f(x: F2, y: f32) -> F2 {
    let s = x.x * y;
    f2(s, fma(x.y, y, fma(x.x, y, -s)))
}

#[inline(always)]
fn dfrec_f2(d: F2) -> F2 {
    let s = 1.0 / d.x;
    f2(s, s * fma(-d.y, s, fma(-d.x, s, 1.0)))
}

/// `Sleef_expf8_u10` (xexpf).
#[inline(always)]
pub(crate) fn expf_u10(d: f32) -> f32 {
    let q = rint_i(d * R_LN2F);
    let qf = q as f32;
    let mut s = fma(qf, -L2UF, d);
    s = fma(qf, -L2LF, s);
    let mut u = c(0.000198527617612853646278381);
    u = fma(u, s, c(0.00139304355252534151077271));
    u = fma(u, s, c(0.00833336077630519866943359));
    u = fma(u, s, c(0.0416664853692054748535156));
    u = fma(u, s, c(0.166666671633720397949219));
    u = fma(u, s, 0.5);
    u = 1.0 + fma(s * s, u, s);
    u = ldexp2(u, q);
    if d < -104.0 {
        u = 0.0;
    }
    if 100.0 < d {
        u = f32::INFINITY;
    }
    u
}

/// The range reduction of SLEEF's float logs: `d0 = m * 2^e` with `m` in [0.75, 1.5), a
/// subnormal `d0` scaled by 2^64 first (and 64 taken off `e`).
#[inline(always)]
fn log_reduce(d0: f32) -> (f32, i32) {
    let o = d0 < FLT_MIN;
    let d = if o {
        d0 * ((1u64 << 32) as f32 * (1u64 << 32) as f32)
    } else {
        d0
    };
    let mut e = ilogb2k(d * (1.0f32 / 0.75f32));
    let m = ldexp3(d, e.wrapping_neg());
    if o {
        e -= 64;
    }
    (m, e)
}

/// The tail logf and log1pf share: `e * ln 2 + 2 * atanh(x)` in double-float, from
/// `x = (m - 1) / (m + 1)` of the reduced mantissa `m` and the exponent `e` taken out.
#[inline(always)]
fn log_from_atanh_ratio(x: F2, e: i32) -> f32 {
    let mut s = dfmul_f2f(
        f2(0.69314718246459960938, -1.904654323148236017e-09),
        e as f32,
    );
    let x2 = x.x * x.x;
    let mut t = 0.3027294874_f32;
    t = fma(t, x2, 0.3996108174);
    t = fma(t, x2, 0.6666694880);
    s = dfadd_f2f2(s, dfscale(x, 2.0));
    s = dfadd_f2f(s, x2 * x.x * t);
    s.x + s.y
}

/// `Sleef_logf8_u10` (xlogf_u1), the non-AVX512 path.
#[inline(always)]
pub(crate) fn logf_u10(d0: f32) -> f32 {
    let (m, e) = log_reduce(d0);
    let x = dfdiv(dfadd2_ff(-1.0, m), dfadd2_ff(1.0, m));
    let mut r = log_from_atanh_ratio(x, e);
    if d0 == f32::INFINITY {
        r = f32::INFINITY;
    }
    if d0 < 0.0 || d0.is_nan() {
        r = f32::NAN;
    }
    if d0 == 0.0 {
        r = f32::NEG_INFINITY;
    }
    r
}

/// `Sleef_logf16_u10` (the AVX512 build): the same values, but its `vfixupimm` special cases
/// give a NaN input back quieted and a negative input as its own bits made a quiet NaN.
#[inline(always)]
pub(crate) fn logf_u10_avx512(d: f32) -> f32 {
    if d.is_nan() || (d < 0.0) {
        return f32::from_bits(d.to_bits() | 0x7fc0_0000);
    }
    logf_u10(d)
}

/// `Sleef_log1pf16_u10` (the AVX512 build): a NaN input comes back quieted.
#[inline(always)]
pub(crate) fn log1pf_u10_avx512(d: f32) -> f32 {
    if d.is_nan() {
        return f32::from_bits(d.to_bits() | 0x0040_0000);
    }
    log1pf_u10(d)
}

/// The range reduction of SLEEF's double-float exps: `d = q * ln 2 + s`, q rounded to
/// nearest, ln 2 taken off in two parts.
#[inline(always)]
fn exp_reduce(d: F2) -> (F2, i32) {
    let u = (d.x + d.y) * R_LN2F;
    let q = rint_i(u);
    let qf = q as f32;
    let mut s = dfadd2_f2f(d, qf * -L2UF);
    s = dfadd2_f2f(s, qf * -L2LF);
    (s, q)
}

/// SLEEF's `expk2f`: exp of a double-float, as a double-float.
#[inline(always)]
fn expk2f(d: F2) -> F2 {
    let (s, q) = exp_reduce(d);
    let mut u = 0.1980960224e-3_f32;
    u = fma(u, s.x, 0.1394256484e-2);
    u = fma(u, s.x, 0.8333456703e-2);
    u = fma(u, s.x, 0.4166637361e-1);
    let mut t = dfadd2_f2f(dfmul_f2f(s, u), 0.166666659414234244790680580464e+0);
    t = dfadd2_f2f(dfmul_f2f2(s, t), 0.5);
    t = dfadd2_f2f2(s, dfmul_f2f2(dfsqu(s), t));
    t = dfadd_ff2(1.0, t);
    t.x = ldexp2(t.x, q);
    t.y = ldexp2(t.y, q);
    if d.x < -104.0 {
        t.x = 0.0;
        t.y = 0.0;
    }
    t
}

/// `Sleef_expm1f8_u10` (xexpm1f).
#[inline(always)]
pub(crate) fn expm1f_u10(a: f32) -> f32 {
    let d = dfadd2_f2f(expk2f(f2(a, 0.0)), -1.0);
    let mut x = d.x + d.y;
    if a > 88.72283172607421875 {
        x = f32::INFINITY;
    }
    if a < c(-16.635532333438687426013570) {
        x = -1.0;
    }
    if is_neg_zero(a) {
        x = -0.0;
    }
    x
}

/// `Sleef_tanhf8_u10` (xtanhf).
#[inline(always)]
pub(crate) fn tanhf_u10(x: f32) -> f32 {
    let y = x.abs();
    let mut d = expk2f(f2(y, 0.0));
    let e = dfrec_f2(d);
    d = dfdiv(dfadd_f2f2(d, dfneg(e)), dfadd_f2f2(d, e));
    let mut y = d.x + d.y;
    if x.abs() > 8.664339742 || y.is_nan() {
        y = 1.0;
    }
    y = mulsign(y, x);
    if x.is_nan() { ALL_ONES_NAN } else { y }
}

const LOG1PF_BOUND: f32 = c(1e+38);

/// `Sleef_log1pf8_u10` (xlog1pf), the non-AVX512 path.
#[inline(always)]
pub(crate) fn log1pf_u10(d: f32) -> f32 {
    let mut dp1 = d + 1.0;
    let o = dp1 < FLT_MIN;
    if o {
        dp1 *= (1u64 << 32) as f32 * (1u64 << 32) as f32;
    }
    let mut e = ilogb2k(dp1 * (1.0f32 / 0.75f32));
    let t = ldexp3(1.0, e.wrapping_neg());
    let m = fma(d, t, t - 1.0);
    if o {
        e -= 64;
    }
    let x = dfdiv(f2(m, 0.0), dfadd_ff(2.0, m));
    let mut r = log_from_atanh_ratio(x, e);
    if d > LOG1PF_BOUND || d.is_nan() {
        r = logf_u10(d);
    }
    if -1.0 > d {
        r = ALL_ONES_NAN;
    }
    if d == -1.0 {
        r = f32::NEG_INFINITY;
    }
    if is_neg_zero(d) {
        r = -0.0;
    }
    r
}

/// SLEEF's `logkf`: log as a double-float.
#[inline(always)]
fn logkf(d0: f32) -> F2 {
    let (m, e) = log_reduce(d0);
    let x = dfdiv(dfadd2_ff(-1.0, m), dfadd2_ff(1.0, m));
    let x2 = dfsqu(x);
    let mut t = 0.240320354700088500976562_f32;
    t = fma(t, x2.x, 0.285112679004669189453125);
    t = fma(t, x2.x, 0.400007992982864379882812);
    let cc = f2(0.66666662693023681640625, 3.69183861259614332084311e-09);
    let mut s = dfmul_f2f(
        f2(0.69314718246459960938, -1.904654323148236017e-09),
        e as f32,
    );
    s = dfadd_f2f2(s, dfscale(x, 2.0));
    s = dfadd_f2f2(
        s,
        dfmul_f2f2(dfmul_f2f2(x2, x), dfadd2_f2f2(dfmul_f2f(x2, t), cc)),
    );
    s
}

/// SLEEF's `expkf`: exp of a double-float, as a float.
#[inline(always)]
fn expkf(d: F2) -> f32 {
    let (mut s, q) = exp_reduce(d);
    s = dfnormalize(s);
    let mut u = 0.00136324646882712841033936_f32;
    u = fma(u, s.x, 0.00836596917361021041870117);
    u = fma(u, s.x, 0.0416710823774337768554688);
    u = fma(u, s.x, 0.166665524244308471679688);
    u = fma(u, s.x, 0.499999850988388061523438);
    let mut t = dfadd_f2f2(s, dfmul_f2f(dfsqu(s), u));
    t = dfadd_ff2(1.0, t);
    let mut u = t.x + t.y;
    u = ldexp(u, q);
    if d.x < -104.0 { 0.0 } else { u }
}

/// `Sleef_powf8_u10` (xpowf).
#[inline(always)]
pub(crate) fn powf_u10(x: f32, y: f32) -> f32 {
    let yisint = y.trunc() == y || y.abs() > (1 << 24) as f32;
    let yisodd = (trunc_i(y) & 1) == 1 && yisint && y.abs() < (1 << 24) as f32;
    let mut result = expkf(dfmul_f2f(logkf(x.abs()), y));
    if result.is_nan() {
        result = f32::INFINITY;
    }
    result *= if x > 0.0 {
        1.0
    } else if yisint {
        if yisodd { -1.0 } else { 1.0 }
    } else {
        f32::NAN
    };
    let efx = mulsign(x.abs() - 1.0, y);
    if y.is_infinite() {
        result = if efx < 0.0 {
            0.0
        } else if efx == 0.0 {
            1.0
        } else {
            f32::INFINITY
        };
    }
    if x.is_infinite() || x == 0.0 {
        let sel = if (y.to_bits() >> 31 == 1) ^ (x == 0.0) {
            0.0
        } else {
            f32::INFINITY
        };
        result = mulsign(sel, if yisodd { x } else { 1.0 });
    }
    if x.is_nan() || y.is_nan() {
        result = ALL_ONES_NAN;
    }
    if y == 0.0 || x == 1.0 {
        result = 1.0;
    }
    result
}

/// ATen's `Vectorized<float>::erf` (vec256_float.h): Abramowitz-Stegun 7.1.26 with a SLEEF exp.
#[inline(always)]
pub(crate) fn erf_vec(x: f32) -> f32 {
    let p = 0.3275911_f32;
    let p1 = 0.254829592_f32;
    let p2 = -0.284496736_f32;
    let p3 = 1.421413741_f32;
    let p4 = -1.453152027_f32;
    let p5 = 1.061405429_f32;
    let sign = x.to_bits() & 0x8000_0000;
    let a = x.abs();
    let t = 1.0 / fma(p, a, 1.0);
    let r = fma(fma(fma(fma(p5, t, p4), t, p3), t, p2), t, p1);
    let neg_pow2 = -(x * x);
    let e = -expf_u10(neg_pow2);
    let v = fma(e * t, r, 1.0);
    f32::from_bits(v.to_bits() ^ sign)
}

/// SLEEF's `atan2kf_u1`: atan2 of two double-floats (y >= 0), as a double-float.
#[inline(always)]
fn atan2kf_u1(y: F2, x: F2) -> F2 {
    let mut q: i32 = if x.x < 0.0 { -2 } else { 0 };
    let x = if x.x < 0.0 { dfneg(x) } else { x };
    if x.x < y.x {
        q += 1;
    }
    let p = x.x < y.x;
    let s = if p { dfneg(x) } else { y };
    let t = if p { y } else { x };
    let s = dfdiv(s, t);
    let mut t = dfsqu(s);
    t = dfnormalize(t);
    let mut u = -0.00176397908944636583328247_f32;
    u = fma(u, t.x, 0.0107900900766253471374512);
    u = fma(u, t.x, -0.0309564601629972457885742);
    u = fma(u, t.x, 0.0577365085482597351074219);
    u = fma(u, t.x, -0.0838950723409652709960938);
    u = fma(u, t.x, 0.109463557600975036621094);
    u = fma(u, t.x, -0.142626821994781494140625);
    u = fma(u, t.x, 0.199983194470405578613281);
    t = dfmul_f2f2(t, dfadd_ff(-0.333332866430282592773438, u * t.x));
    t = dfmul_f2f2(s, dfadd_ff2(1.0, t));
    dfadd_f2f2(
        dfmul_f2f(
            f2(1.5707963705062866211, -4.3711388286737928865e-08),
            q as f32,
        ),
        t,
    )
}

/// `Sleef_atan2f16_u10` (xatan2f_u1).
#[inline(always)]
pub(crate) fn atan2f_u10(y: f32, x: f32) -> f32 {
    let (y0, x0) = (y, x);
    let o = x.abs() < 2.9387372783541830947e-39;
    let (y, x) = if o {
        (y * (1 << 24) as f32, x * (1 << 24) as f32)
    } else {
        (y, x)
    };
    let d = atan2kf_u1(f2(y.abs(), 0.0), f2(x, 0.0));
    let mut r = d.x + d.y;
    r = mulsign(r, x);
    const PI_2: f32 = std::f64::consts::FRAC_PI_2 as f32;
    const PI_4: f32 = std::f64::consts::FRAC_PI_4 as f32;
    // visinf2(d, m): m with d's sign bit OR-ed in where d is infinite; else 0
    let isinf2 = |d: f32, m: f32| {
        if d.is_infinite() {
            f32::from_bits((d.to_bits() & 0x8000_0000) | m.to_bits())
        } else {
            0.0
        }
    };
    if x.is_infinite() || x == 0.0 {
        r = PI_2 - isinf2(x, mulsign(PI_2, x));
    }
    if y.is_infinite() {
        r = PI_2 - isinf2(x, mulsign(PI_4, x));
    }
    if y == 0.0 {
        r = if x.to_bits() & 0x8000_0000 != 0 {
            std::f32::consts::PI
        } else {
            0.0
        };
    }
    if x0.is_nan() || y0.is_nan() {
        return ALL_ONES_NAN;
    }
    mulsign(r, y)
}
