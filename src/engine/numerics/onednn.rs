//! The oneDNN (MKL-DNN) eltwise kernels PyTorch routes some float32 ops to.
//!
//! `F.gelu(x)` (approximate='none') of a contiguous float32 tensor with more than one element
//! goes through `ideep::eltwise_forward` (`use_mkldnn` in Activation.cpp), not ATen's GeluKernel.
//! On an AVX512 machine oneDNN's JIT evaluates erf(x/sqrt 2) with a piecewise minimax polynomial
//! (`gelu_erf_minimax_approx_compute_vector_fwd` in src/cpu/x64/injectors/
//! jit_uni_eltwise_injector.cpp, oneDNN 3.13): 25 degree-5 polynomials, one picked from the
//! bits of |x|, evaluated with FMAs. The coefficients below are that table's float bit patterns.

/// Coefficients by degree (0..=5), then by polynomial index (0..=24).
const GELU_ERF_POLY: [[u32; 25]; 6] = [
    [
        0xa6f2cb94, 0x32827792, 0x3381cc0c, 0x34523d4a, 0x351ac44d, 0x35f36d88, 0x36ee8229,
        0x37b8a3bb, 0x3867a213, 0x3940033b, 0x3a2a5a1d, 0x3ae35863, 0x3b7828f2, 0x3c08b14b,
        0x3c515ed3, 0xbb503236, 0xbd8d8e5e, 0xbe8abcd9, 0xbf0c19a2, 0xbeccb328, 0x3e176ced,
        0x3f470d99, 0x3f7abb28, 0x3f800000, 0x00000000,
    ],
    [
        0x3f4c422a, 0x3f4c421f, 0x3f4c4207, 0x3f4c41cb, 0x3f4c413b, 0x3f4c3fad, 0x3f4c3a2f,
        0x3f4c2d40, 0x3f4c146a, 0x3f4bc341, 0x3f4ad08c, 0x3f48f8cf, 0x3f45fac7, 0x3f404e07,
        0x3f3b980f, 0x3f48dff3, 0x3f78b21b, 0x3fbb0704, 0x40019c32, 0x3fe536d6, 0x3f81331e,
        0x3e6c8684, 0x3c98f936, 0x00000000, 0x3f800000,
    ],
    [
        0xb62173f4, 0x3735e4cf, 0x37f2ff89, 0x388c23be, 0x3917535c, 0x39ab2ab0, 0x3a60fadb,
        0x3af9b960, 0x3b6e5491, 0x3c0a4ec5, 0x3ca5aa8c, 0x3d2138d9, 0x3d8737d4, 0x3ddfb660,
        0x3e0f27ab, 0x3d94004b, 0xbe0efdeb, 0xbf1d96c3, 0xbf89db58, 0xbf6d9897, 0xbef69fb8,
        0xbdc4f8a8, 0xbbde6422, 0x00000000, 0x00000000,
    ],
    [
        0xbe081a19, 0xbe084570, 0xbe08639b, 0xbe089837, 0xbe08f409, 0xbe09ab95, 0xbe0b66d0,
        0xbe0e400a, 0xbe124df8, 0xbe1bde02, 0xbe2f19c9, 0xbe4931bf, 0xbe685fbc, 0xbe89c95f,
        0xbe96cbca, 0xbe8044aa, 0xbe0550f2, 0x3dcfd6a1, 0x3e94c826, 0x3e79345f, 0x3decec91,
        0x3ca46568, 0x3aa1e00a, 0x00000000, 0x00000000,
    ],
    [
        0xba3d61db, 0x39f097a3, 0x3a5845dc, 0x3ab1fa35, 0x3b0cefb8, 0x3b653ab6, 0x3bcae527,
        0x3c221712, 0x3c6c5840, 0x3cc0a703, 0x3d1dcc19, 0x3d63656d, 0x3d955907, 0x3dbf9910,
        0x3dd53f69, 0x3db7dcef, 0x3d639ebe, 0xba6ede48, 0xbd22be69, 0xbd041cf1, 0xbc64f5ab,
        0xbb097a32, 0xb8ebf380, 0x00000000, 0x00000000,
    ],
    [
        0x3cb7d80c, 0x3c9b6050, 0x3c978d11, 0x3c92e850, 0x3c8d058b, 0x3c848454, 0x3c6cd623,
        0x3c4c824b, 0x3c2a7935, 0x3be0b390, 0x3b0651ac, 0xbb232f53, 0xbbd42fa0, 0xbc2c5366,
        0xbc492c9e, 0xbc2a7aa6, 0xbbd55d04, 0xba823a76, 0x3b102aa8, 0x3ae25a7e, 0x3a31f792,
        0x38b84375, 0x3689bb5a, 0x00000000, 0x00000000,
    ],
];

/// oneDNN's gelu_erf of one element (AVX512 JIT path).
pub(crate) fn gelu_erf(x: f32) -> f32 {
    let pos = f32::from_bits(x.to_bits() & 0x7fff_ffff);
    // Index from the exponent and two mantissa bits of |x| (arithmetic shift, then clamped).
    let mut idx = ((pos.to_bits() as i32).wrapping_add(0xc21f_ffff_u32 as i32)) >> 21;
    idx = idx.clamp(1, 24);
    let rbound = f32::from_bits(0x40b1_5cee);
    if rbound < pos {
        idx = 23;
    }
    let k = idx as usize;
    let coef = |deg: usize| f32::from_bits(GELU_ERF_POLY[deg][k]);
    let mut pol = coef(5);
    for deg in (0..5).rev() {
        pol = pol.mul_add(pos, coef(deg));
    }
    let pol = f32::from_bits(pol.to_bits() ^ (x.to_bits() & 0x8000_0000));
    x * (pol + 1.0) * 0.5
}

/// oneDNN's `exp_compute_vector_fwd`: x clamped to [ln(FLT_MIN), ln(FLT_MAX)], n = floor(x *
/// log2(e) + 0.5) (a multiply and an add), a degree-5 polynomial of r = x - n ln2, scaled by
/// 2^(n-1) * 2; inputs below ln(FLT_MIN) give 0.
fn exp(x: f32) -> f32 {
    let ln_flt_min = f32::from_bits(0xc2ae_ac50);
    let ln_flt_max = f32::from_bits(0x42b1_7218);
    let below = x < ln_flt_min;
    // vminps/vmaxps return the second operand when the first is NaN.
    let src = if x < ln_flt_max { x } else { ln_flt_max };
    let src = if src > ln_flt_min { src } else { ln_flt_min };
    let fx = (src * f32::from_bits(0x3fb8_aa3b) + 0.5).floor();
    let r = (-fx).mul_add(f32::from_bits(0x3f31_7218), src);
    let n = {
        let v = (fx - 1.0).round_ties_even();
        if v.is_nan() || !(-2147483648.0..2147483648.0).contains(&v) {
            i32::MIN
        } else {
            v as i32
        }
    };
    let pow2 = if below {
        0.0
    } else {
        f32::from_bits((n.wrapping_add(0x7f) as u32).wrapping_shl(23))
    };
    let p = [
        0x3f7f_fffb_u32,
        0x3eff_fee3,
        0x3e2a_ad40,
        0x3d2b_9d0d,
        0x3c07_cfce,
    ]
    .map(f32::from_bits);
    let mut y = p[4];
    for k in (0..4).rev() {
        y = y.mul_add(r, p[k]);
    }
    y = y.mul_add(r, 1.0);
    y * pow2 * 2.0
}

/// oneDNN's `gelu_erf_compute_vector_bwd`: d/dx gelu(x) with the Abramowitz-Stegun erf and
/// oneDNN's exp (the caller multiplies by the incoming gradient).
pub(crate) fn gelu_erf_backward(s: f32) -> f32 {
    let p = f32::from_bits(0x3ea7_ba05);
    let pol = [
        0x3e82_7906_u32,
        0xbe91_a98e,
        0x3fb5_f0e3,
        0xbfba_00e3,
        0x3f87_dc22,
    ]
    .map(f32::from_bits);
    let r = s * f32::from_bits(0x3f35_04f3);
    let q = exp(-(r * r));
    let t = r * f32::from_bits(0x3f10_6eba) * q;
    let neg_q = -q;
    let sign = r.to_bits() & 0x8000_0000;
    let w = 1.0 / p.mul_add(r.abs(), 1.0);
    let qw = neg_q * w;
    let mut poly = pol[4];
    for k in (0..4).rev() {
        poly = poly.mul_add(w, pol[k]);
    }
    let erf = f32::from_bits(qw.mul_add(poly, 1.0).to_bits() ^ sign);
    let pp = t + 0.5;
    erf.mul_add(0.5, pp)
}
