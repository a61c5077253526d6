//! The values of ATen's CUDA distribution kernels, element by element: the grid-stride
//! `distribution_nullary_kernel` (one curand4 per thread per iteration, `unroll` elements
//! from it, a grid-stride apart), the bernoulli-tensor apply kernel, and dropout.
//! Elements are in TensorIterator order (memory order for a contiguous tensor).

use super::super::cpu_kernels::{self, Probabilities, RandomError, Result};
use super::super::elements::{ElementType, ElementsMut};
use super::super::half::{f16_bits_to_f32, f32_to_f16_bits};
#[cfg(target_arch = "x86_64")]
use super::philox::philox4x32_10_x8;
use super::philox::{philox4x32_10, philox4x32_10_lanes};
use super::rounded_log::ln_as_libm_lanes;
#[cfg(target_arch = "x86_64")]
use super::rounded_log::ln_as_libm_x4;
#[cfg(target_arch = "x86_64")]
use super::rounded_sin::sin_as_f32_x4;
use super::rounded_sin::{sin_as_f32, sin_as_f32_lanes};
use super::{CudaGenerator, DeviceShape, launch_policy};
#[cfg(target_arch = "x86_64")]
use crate::engine::numerics::fast;
use crate::engine::numerics::fast::avx2_fma;

const TWO_POW_M32: f32 = 2.328_306_4e-10; // CURAND_2POW32_INV (exactly 2^-32)
const TWO_POW_M53: f64 = 1.110_223_024_625_156_5e-16; // CURAND_2POW53_INV_DOUBLE (2^-53)

/// The four words `curand4` returns for thread `idx` on its `call`-th call, after
/// `curand_init(seed, idx, offset)` with `offset` a multiple of 4 (as PyTorch's always is).
fn words(seed: u64, offset: u64, idx: u64, call: u64) -> [u32; 4] {
    let c = offset / 4 + call;
    philox4x32_10(
        [c as u32, (c >> 32) as u32, idx as u32, (idx >> 32) as u32],
        [seed as u32, (seed >> 32) as u32],
    )
}

/// `_curand_uniform`: (0, 1], the u32 rounded to float then one fused multiply-add.
#[inline(always)]
pub(super) fn curand_uniform(x: u32) -> f32 {
    (x as f32).mul_add(TWO_POW_M32, TWO_POW_M32 / 2.0)
}

/// `_curand_uniform_double_hq`: 53 bits from two words, (0, 1].
fn curand_uniform_double(x: u32, y: u32) -> f64 {
    let z = x as u64 ^ ((y as u64) << 21);
    (z as f64).mul_add(TWO_POW_M53, TWO_POW_M53 / 2.0)
}

/// The angle `_curand_box_muller` takes from its second word: 2 pi times a (0, 1] uniform,
/// one fused multiply-add.
#[inline(always)]
pub(super) fn curand_angle(y: u32) -> f32 {
    (y as f32).mul_add(TWO_PI_OVER_2_32, TWO_PI_OVER_2_32 / 2.0)
}

/// 2 pi (as a float) times 2^-32: the step of [`curand_angle`].
const TWO_PI_OVER_2_32: f32 = TWO_POW_M32 * 6.283_185_5;

/// `_curand_box_muller`'s radius, sqrt(-2 log u), from its first word.
#[inline(always)]
fn box_muller_radius(x: u32) -> f32 {
    radius_of_log(curand_uniform(x).ln())
}

/// sqrt(-2 log u) from log u.
#[inline(always)]
fn radius_of_log(log: f32) -> f32 {
    (-2.0f32 * log).sqrt()
}

/// `_curand_box_muller`: (sin, cos) times the radius. The GPU takes `logf` and the fast
/// `__sincosf`; correctly rounded stand-ins here (see the module note; the sine is libm's
/// double `sin` rounded to float, [`sin_as_f32`]).
fn box_muller(x: u32, y: u32) -> (f32, f32) {
    let v = curand_angle(y);
    let s = box_muller_radius(x);
    (sin_as_f32(v) * s, ((v as f64).cos() as f32) * s)
}

/// The first of [`box_muller`]'s pair alone (sin times the radius, the same operations),
/// for a thread whose second value falls past the tensor's end.
fn box_muller_sin(x: u32, y: u32) -> f32 {
    sin_as_f32(curand_angle(y)) * box_muller_radius(x)
}

/// `_curand_box_muller_double` (GPU `log` and `sincospi`; correctly rounded stand-ins).
fn box_muller_double(w: [u32; 4]) -> (f64, f64) {
    let zx = w[0] as u64 ^ ((w[1] as u64) << 21);
    let u = (zx as f64).mul_add(TWO_POW_M53, TWO_POW_M53 / 2.0);
    let zy = w[2] as u64 ^ ((w[3] as u64) << 21);
    let v = (zy as f64).mul_add(TWO_POW_M53 * 2.0, TWO_POW_M53);
    let s = (-2.0 * u.ln()).sqrt();
    let (sin, cos) = sincospi(v);
    (sin * s, cos * s)
}

/// sin(pi x), cos(pi x) for x in (0, 2], reduced exactly to |r| <= 1/4 first.
fn sincospi(x: f64) -> (f64, f64) {
    let n = (x * 2.0).round();
    let r = x - n / 2.0; // exact: x and n/2 are close
    let (s, c) = (std::f64::consts::PI * r).sin_cos();
    match (n as i64).rem_euclid(4) {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

/// The grid-stride kernel: calls `write(li, value)` for every element index `li < numel`,
/// where `value` is component `ii` of the `draw` of thread `idx` on call `k`. `draw` is told
/// how many of its leading components land in the tensor (the others are dropped, so a draw
/// may skip computing them: a 256 x 256 `randn` keeps one value of each thread's four).
fn grid_stride<const U: usize, T: Copy>(
    rng: &mut CudaGenerator,
    numel: usize,
    device: DeviceShape,
    draw: impl Fn([u32; 4], usize) -> [T; U],
    write: impl FnMut(usize, T),
) {
    if numel == 0 {
        return;
    }
    let policy = launch_policy(numel as u64, U as u64, device);
    let (seed, offset) = rng.philox_state(policy.counter_offset);
    let threads = (policy.block * policy.grid) as usize;
    grid_stride_calls((seed, offset), threads, numel, draw, write);
}

/// [`grid_stride`]'s loop once the launch is fixed: `threads` threads draw from the Philox
/// stream at `(seed, offset)`, each call of the kernel covering `threads * U` elements;
/// component `ii` of thread `idx`'s draw on call `k` goes to element
/// `k * threads * U + idx + ii * threads` (those past `numel` are dropped).
fn grid_stride_calls<const U: usize, T: Copy>(
    (seed, offset): (u64, u64),
    threads: usize,
    numel: usize,
    draw: impl Fn([u32; 4], usize) -> [T; U],
    mut write: impl FnMut(usize, T),
) {
    let per_call = threads * U;
    let calls = numel.div_ceil(per_call);
    for k in 0..calls {
        for idx in 0..threads {
            let base = k * per_call + idx;
            if base >= numel {
                break;
            }
            // components ii with base + ii * threads < numel
            let kept = (numel - base).div_ceil(threads).min(U);
            let vals = draw(words(seed, offset, idx as u64, k as u64), kept);
            for (ii, v) in vals.iter().take(kept).enumerate() {
                write(base + ii * threads, *v);
            }
        }
    }
}

/// Elements a thread of the intra-op pool takes at least in [`first_components`]: a normal
/// costs a Philox block, a log and a sine (tens of ns), far above an elementwise op's element.
const DRAW_GRAIN: usize = 4096;

/// The launch when no thread keeps more than its first value: a tensor of at most one element
/// per thread of the grid (up to 270,336 elements on an H200, so nearly every tensor), where
/// element i is the first component of thread i's first draw. The elements then split over
/// the intra-op threads as an elementwise op's do (each one's value depends on its index
/// alone, so the bits do not depend on the thread count). `fill(part, first_thread, words)`
/// writes the elements of threads `first_thread..first_thread + part.len()`. False, with
/// nothing drawn, for a larger tensor.
fn first_components(
    rng: &mut CudaGenerator,
    out: &mut [f32],
    unroll: u64,
    device: DeviceShape,
    fill: impl Fn(&mut [f32], u64, FirstWords) + Sync,
) -> bool {
    let numel = out.len();
    let policy = launch_policy(numel as u64, unroll, device);
    if numel == 0 || numel as u64 > policy.block * policy.grid {
        return false;
    }
    let (seed, offset) = rng.philox_state(policy.counter_offset);
    let words = FirstWords {
        call: offset / 4,
        key: [seed as u32, (seed >> 32) as u32],
    };
    crate::engine::parallel::parallel_rows_mut(out, 1, DRAW_GRAIN, |start, part| {
        fill(part, start as u64, words)
    });
    true
}

/// The Philox stream of a [`first_components`] launch: every thread's first curand4.
#[derive(Clone, Copy)]
struct FirstWords {
    call: u64,
    key: [u32; 2],
}

/// Threads whose Philox blocks, logs and sines [`FirstWords::first_two`]'s callers compute
/// together: 16 fill a 512-bit register with the blocks' 32-bit words (two 256-bit ones
/// without AVX-512).
const LANES: usize = 16;

impl FirstWords {
    /// The first two words of threads `idx..idx + LANES`, their Philox blocks computed
    /// together (a `randn` of a 256 x 256 CUDA tensor is 65,536 blocks).
    #[inline(always)]
    fn first_two(self, idx: u64) -> [[u32; LANES]; 2] {
        let ctr = [
            [self.call as u32; LANES],
            [(self.call >> 32) as u32; LANES],
            std::array::from_fn(|l| (idx + l as u64) as u32),
            std::array::from_fn(|l| ((idx + l as u64) >> 32) as u32),
        ];
        let w = philox4x32_10_lanes(ctr, self.key);
        [w[0], w[1]]
    }
}

/// [`first_components`]' elements of `normal_(mean, std)`: [`box_muller_sin`] of each thread's
/// first two words, scaled. With AVX2 and FMA but not AVX-512, the log and the sine in explicit
/// four-lane code ([`normals_x86`]); otherwise the portable lanes, compiled for AVX-512 where
/// the CPU has it.
fn normals_of_first_words(
    part: &mut [f32],
    first_thread: u64,
    words: FirstWords,
    mean: f32,
    std: f32,
) {
    #[cfg(target_arch = "x86_64")]
    if fast::has_avx2_fma() && !fast::has_avx512() {
        // SAFETY: the CPU has AVX2 and FMA (checked just above), all the function enables
        return unsafe { normals_x86(part, first_thread, words, mean, std) };
    }
    normals_in_lanes(part, first_thread, words, mean, std)
}

avx2_fma! {
    /// [`normals_of_first_words`] in portable lanes. Compiled for AVX2+FMA (or AVX-512) where
    /// the CPU has them, so the multiply-adds are single instructions and the lanes share
    /// vector registers (the log as well as the sine: libm's algorithm lane by lane,
    /// rounded_log.rs).
    fn normals_in_lanes(
        part: &mut [f32],
        first_thread: u64,
        words: FirstWords,
        mean: f32,
        std: f32,
    ) {
        let mut idx = first_thread;
        for chunk in part.chunks_mut(LANES) {
            let [x, y] = words.first_two(idx);
            let radius = ln_as_libm_lanes(x.map(curand_uniform)).map(radius_of_log);
            let sin = sin_as_f32_lanes(y.map(curand_angle));
            // all lanes, then the chunk's share: a loop over the chunk's length kept the
            // radius's square roots and these multiply-adds scalar
            let values: [f32; LANES] =
                std::array::from_fn(|l| (sin[l] * radius[l]).mul_add(std, mean));
            chunk.copy_from_slice(&values[..chunk.len()]);
            idx += LANES as u64;
        }
    }
}

/// [`normals_of_first_words`] in explicit AVX2 code, eight threads at a time: the Philox blocks
/// ([`philox4x32_10_x8`]), the words' floats, and the log and the sine four lanes at a time
/// ([`ln_as_libm_x4`], [`sin_as_f32_x4`]). LLVM kept the portable lanes' table reads scalar,
/// their polynomials in long chains of dependent operations, and in this function part of
/// their Philox rounds scalar too.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn normals_x86(part: &mut [f32], first_thread: u64, words: FirstWords, mean: f32, std: f32) {
    use std::arch::x86_64::*;
    let flip = _mm256_set1_epi32(i32::MIN);
    let halves = |v: __m256, f: &dyn Fn(__m128) -> __m128| {
        let low = f(_mm256_castps256_ps128(v));
        let high = f(_mm256_extractf128_ps::<1>(v));
        _mm256_set_m128(high, low)
    };
    let mut idx = first_thread;
    for chunk in part.chunks_mut(8) {
        // threads idx..idx + 8: the counter's low 64 bits, carried where the low word wraps
        let low = _mm256_set1_epi32(idx as u32 as i32);
        let threads = _mm256_add_epi32(low, _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        let wrapped =
            _mm256_cmpgt_epi32(_mm256_xor_si256(low, flip), _mm256_xor_si256(threads, flip));
        let high = _mm256_sub_epi32(_mm256_set1_epi32((idx >> 32) as u32 as i32), wrapped);
        let call =
            [words.call as u32, (words.call >> 32) as u32].map(|w| _mm256_set1_epi32(w as i32));
        let [x, y, ..] = philox4x32_10_x8([call[0], call[1], threads, high], words.key);
        // curand_uniform and curand_angle: the word as a float (two exact halves, one
        // rounding: AVX2 converts only signed integers), then one fused multiply-add
        let float = |w: __m256i| {
            let top = _mm256_cvtepi32_ps(_mm256_srli_epi32::<16>(w));
            let bottom = _mm256_cvtepi32_ps(_mm256_and_si256(w, _mm256_set1_epi32(0xFFFF)));
            _mm256_fmadd_ps(top, _mm256_set1_ps(65536.0), bottom)
        };
        let scaled = |w, step: f32| {
            _mm256_fmadd_ps(float(w), _mm256_set1_ps(step), _mm256_set1_ps(step / 2.0))
        };
        let log = halves(scaled(x, TWO_POW_M32), &|h| ln_as_libm_x4(h));
        let sin = halves(scaled(y, TWO_PI_OVER_2_32), &|h| sin_as_f32_x4(h));
        // radius_of_log, then (sin * radius).mul_add(std, mean), as the portable lanes
        let radius = _mm256_sqrt_ps(_mm256_mul_ps(_mm256_set1_ps(-2.0), log));
        let v = _mm256_fmadd_ps(
            _mm256_mul_ps(sin, radius),
            _mm256_set1_ps(std),
            _mm256_set1_ps(mean),
        );
        if chunk.len() == 8 {
            // SAFETY: the chunk holds the eight floats the store writes (a copy of a length
            // known only at run time is a memcpy call for every eight values)
            unsafe { _mm256_storeu_ps(chunk.as_mut_ptr(), v) };
        } else {
            let mut values = [0f32; 8];
            // SAFETY: `values` holds the eight floats the store writes
            unsafe { _mm256_storeu_ps(values.as_mut_ptr(), v) };
            chunk.copy_from_slice(&values[..chunk.len()]);
        }
        idx += 8;
    }
}

avx2_fma! {
    /// [`first_components`]' elements of `uniform_(from, to)`: each thread's first uniform,
    /// scaled (a value that rounds up to `to` becomes `from`, as in ATen).
    fn uniforms_of_first_words(
        part: &mut [f32],
        first_thread: u64,
        words: FirstWords,
        from: f32,
        to: f32,
    ) {
        let mut idx = first_thread;
        for chunk in part.chunks_mut(LANES) {
            let [x, _] = words.first_two(idx);
            let values = x.map(|x| uniform_between(curand_uniform(x), from, to));
            chunk.copy_from_slice(&values[..chunk.len()]);
            idx += LANES as u64;
        }
    }
}

/// A (0, 1] uniform `r` scaled to [from, to): `r * (to - from) + from` in one fused
/// multiply-add, and a value that rounds up to `to` becomes `from` (ATen's uniform_ kernel).
#[inline(always)]
fn uniform_between(r: f32, from: f32, to: f32) -> f32 {
    let v = r.mul_add(to - from, from);
    if v == to { from } else { v }
}

fn uniform4(w: [u32; 4]) -> [f32; 4] {
    w.map(curand_uniform)
}

fn uniform2_double(w: [u32; 4]) -> [f64; 2] {
    [
        curand_uniform_double(w[0], w[1]),
        curand_uniform_double(w[2], w[3]),
    ]
}

/// The four normals of one curand4, of which only the first `kept` are computed (the rest
/// are 0 and dropped by the caller): each pair costs a log, a sine and a cosine.
fn normal4(w: [u32; 4], kept: usize) -> [f32; 4] {
    let pair = |x: u32, y: u32, kept: usize| match kept {
        0 => (0.0, 0.0),
        1 => (box_muller_sin(x, y), 0.0),
        _ => box_muller(x, y),
    };
    let (a, b) = pair(w[0], w[1], kept);
    let (c, d) = pair(w[2], w[3], kept.saturating_sub(2));
    [a, b, c, d]
}

/// A draw that computes all its components whatever the caller keeps (the cheap ones).
fn whole<const U: usize, T>(
    draw: impl Fn([u32; 4]) -> [T; U],
) -> impl Fn([u32; 4], usize) -> [T; U] {
    move |w, _kept| draw(w)
}

fn normal2_double(w: [u32; 4]) -> [f64; 2] {
    let (a, b) = box_muller_double(w);
    [a, b]
}

fn u64x2(w: [u32; 4]) -> [u64; 2] {
    [
        ((w[0] as u64) << 32) | w[1] as u64,
        ((w[2] as u64) << 32) | w[3] as u64,
    ]
}

/// `uniform_(from, to)` on a CUDA tensor (`torch.rand(..., device='cuda')`).
pub fn uniform_(
    rng: &mut CudaGenerator,
    out: ElementsMut,
    from: f64,
    to: f64,
    device: DeviceShape,
) -> Result<()> {
    cpu_kernels::check_uniform_args(out.element_type(), from, to)?;
    let n = out.len();
    match out {
        ElementsMut::F32(s) => {
            let (a, b) = (from as f32, to as f32);
            let first =
                |part: &mut [f32], idx, words| uniforms_of_first_words(part, idx, words, a, b);
            if !first_components(rng, s, 4, device, first) {
                grid_stride(rng, n, device, whole(uniform4), |i, r| {
                    s[i] = uniform_between(r, a, b)
                });
            }
        }
        ElementsMut::F64(s) => {
            let range = to - from;
            grid_stride(rng, n, device, whole(uniform2_double), |i, r| {
                let v = r.mul_add(range, from);
                s[i] = if v == to { from } else { v };
            });
        }
        ElementsMut::F16(s) => {
            // from/to are cast to half first; their difference is a half too.
            let (a, b) = (f32_to_f16_bits(from as f32), f32_to_f16_bits(to as f32));
            let (af, bf) = (f16_bits_to_f32(a), f16_bits_to_f32(b));
            let range = f16_bits_to_f32(f32_to_f16_bits(bf - af));
            grid_stride(rng, n, device, whole(uniform4), |i, r| {
                let v = f32_to_f16_bits(r.mul_add(range, af));
                s[i] = if f16_bits_to_f32(v) == bf { a } else { v };
            });
        }
        _ => unreachable!("checked floating above"),
    }
    Ok(())
}

/// `normal_(mean, std)` on a CUDA tensor (`torch.randn(..., device='cuda')`).
pub fn normal_(
    rng: &mut CudaGenerator,
    out: ElementsMut,
    mean: f64,
    std: f64,
    device: DeviceShape,
) -> Result<()> {
    cpu_kernels::check_normal_std(std)?;
    let n = out.len();
    match out {
        ElementsMut::F32(s) => {
            let (m, sd) = (mean as f32, std as f32);
            let first =
                |part: &mut [f32], idx, words| normals_of_first_words(part, idx, words, m, sd);
            if !first_components(rng, s, 4, device, first) {
                grid_stride(rng, n, device, normal4, |i, r| s[i] = r.mul_add(sd, m));
            }
        }
        ElementsMut::F16(s) => {
            let (m, sd) = (mean as f32, std as f32);
            grid_stride(rng, n, device, normal4, |i, r| {
                s[i] = f32_to_f16_bits(r.mul_add(sd, m))
            });
        }
        ElementsMut::F64(s) => {
            grid_stride(rng, n, device, whole(normal2_double), |i, r| {
                s[i] = r.mul_add(std, mean)
            });
        }
        other => {
            return Err(RandomError::runtime(format!(
                "\"normal_kernel_cuda\" not implemented for '{}'",
                other.element_type().scalar_type_name()
            )));
        }
    }
    Ok(())
}

fn write_i64(out: &mut ElementsMut, i: usize, v: i64) {
    match out {
        ElementsMut::Bool(s) => s[i] = v != 0,
        ElementsMut::U8(s) => s[i] = v as u8,
        ElementsMut::I8(s) => s[i] = v as i8,
        ElementsMut::I16(s) => s[i] = v as i16,
        ElementsMut::I32(s) => s[i] = v as i32,
        ElementsMut::I64(s) => s[i] = v,
        ElementsMut::F16(s) => s[i] = f32_to_f16_bits(v as f32),
        ElementsMut::F32(s) => s[i] = v as f32,
        ElementsMut::F64(s) => s[i] = v as f64,
    }
}

/// `random_(from, to)` / `torch.randint(..., device='cuda')`: 64-bit draws (two per
/// curand4) when the range reaches 2^28, else 32-bit ones (four per curand4).
pub fn random_from_to_(
    rng: &mut CudaGenerator,
    mut out: ElementsMut,
    from: i64,
    to: Option<i64>,
    device: DeviceShape,
) -> Result<()> {
    let (range, base) = match cpu_kernels::random_range(out.element_type(), from, to)? {
        Some(rb) => rb,
        None => {
            // The full int64 range.
            if !matches!(
                out.element_type(),
                ElementType::I64 | ElementType::F32 | ElementType::F64
            ) {
                return Err(RandomError::runtime(
                    "random_full_64_bits_range_kernel_cuda handles only int64, double, float and bfloat16",
                ));
            }
            let n = out.len();
            grid_stride(rng, n, device, whole(u64x2), |i, r| {
                write_i64(&mut out, i, r as i64)
            });
            return Ok(());
        }
    };
    let n = out.len();
    if n == 0 {
        return Ok(());
    }
    if range >= 1 << 28 {
        grid_stride(rng, n, device, whole(u64x2), |i, r| {
            write_i64(&mut out, i, (r % range).wrapping_add(base as u64) as i64)
        });
    } else {
        grid_stride(rng, n, device, whole(|w| w), |i, r: u32| {
            write_i64(
                &mut out,
                i,
                (r as u64 % range).wrapping_add(base as u64) as i64,
            )
        });
    }
    Ok(())
}

/// `random_()` with no bounds on a CUDA tensor.
pub fn random_(rng: &mut CudaGenerator, mut out: ElementsMut, device: DeviceShape) {
    let n = out.len();
    let t = out.element_type();
    if matches!(t, ElementType::I64 | ElementType::F64) {
        let m = if t == ElementType::I64 {
            1u64 << 63
        } else {
            (1u64 << 53) + 1
        };
        grid_stride(rng, n, device, whole(u64x2), |i, r| {
            write_i64(&mut out, i, (r % m) as i64)
        });
        return;
    }
    let m: u64 = match t {
        ElementType::Bool => 2,
        ElementType::U8 => 256,
        ElementType::I8 => 128,
        ElementType::I16 => 32768,
        ElementType::I32 => 1 << 31,
        ElementType::F16 => (1 << 11) + 1,
        _ => (1 << 24) + 1,
    };
    grid_stride(rng, n, device, whole(|w| w), |i, r: u32| {
        write_i64(&mut out, i, (r as u64 % m) as i64)
    });
}

/// `bernoulli_(p)` on a CUDA tensor: a float uniform (double for float64 tensors) below p.
pub fn bernoulli_scalar_(
    rng: &mut CudaGenerator,
    mut out: ElementsMut,
    p: f64,
    device: DeviceShape,
) -> Result<()> {
    cpu_kernels::check_bernoulli_p(p)?;
    let n = out.len();
    if out.element_type() == ElementType::F64 {
        grid_stride(rng, n, device, whole(uniform2_double), |i, r| {
            write_i64(&mut out, i, (r < p) as i64)
        });
    } else {
        let pf = p as f32;
        grid_stride(rng, n, device, whole(uniform4), |i, r| {
            write_i64(&mut out, i, (r < pf) as i64)
        });
    }
    Ok(())
}

/// `torch.bernoulli(p)` / `bernoulli_(p_tensor)` on CUDA: 512-thread blocks, four elements
/// per thread from one curand_uniform4, kept when `u <= p`; the offset advances by 12.
pub fn bernoulli_tensor_(
    rng: &mut CudaGenerator,
    mut out: ElementsMut,
    p: Probabilities,
) -> Result<()> {
    let (seed, offset) = rng.philox_state(10);
    if out.len() != p.len() {
        return Err(RandomError::runtime(format!(
            "bernoulli_: {} probabilities for {} elements",
            p.len(),
            out.len()
        )));
    }
    let double = out.element_type() == ElementType::F64;
    let prob = |i: usize| -> f64 {
        match p {
            // Probabilities are cast to float (double for a double output) on the device.
            Probabilities::F64(v) if double => v[i],
            Probabilities::F64(v) => v[i] as f32 as f64,
            Probabilities::F32(v) => v[i] as f64,
            Probabilities::F16(v) => f16_bits_to_f32(v[i]) as f64,
        }
    };
    let n = out.len();
    for t in 0..n.div_ceil(4) {
        let r = uniform4(words(seed, offset, t as u64, 0));
        for (j, rj) in r.iter().enumerate() {
            let i = 4 * t + j;
            if i >= n {
                break;
            }
            let pi = prob(i);
            if !(0.0..=1.0).contains(&pi) {
                return Err(RandomError::runtime("device-side assert triggered"));
            }
            write_i64(&mut out, i, (*rj as f64 <= pi) as i64);
        }
    }
    Ok(())
}

/// `exponential_(lambd)` on a CUDA tensor (float math for float/half, double for double).
pub fn exponential_(
    rng: &mut CudaGenerator,
    out: ElementsMut,
    lambda: f64,
    device: DeviceShape,
) -> Result<()> {
    cpu_kernels::check_exponential_lambda(out.element_type(), lambda)?;
    let n = out.len();
    match out {
        ElementsMut::F64(s) => {
            let eps = f64::EPSILON;
            grid_stride(rng, n, device, whole(uniform2_double), |i, r| {
                let log = if r >= 1.0 - eps / 2.0 {
                    -eps / 2.0
                } else {
                    r.ln()
                };
                s[i] = (-1.0 / lambda) * log;
            });
        }
        ElementsMut::F32(s) => {
            let l = lambda as f32;
            grid_stride(rng, n, device, whole(uniform4), |i, r| s[i] = exp_f32(r, l));
        }
        ElementsMut::F16(s) => {
            let l = lambda as f32;
            grid_stride(rng, n, device, whole(uniform4), |i, r| {
                s[i] = f32_to_f16_bits(exp_f32(r, l))
            });
        }
        _ => unreachable!("checked floating above"),
    }
    Ok(())
}

fn exp_f32(r: f32, lambda: f32) -> f32 {
    let eps = f32::EPSILON;
    let log = if r >= 1.0 - eps / 2.0 {
        -eps / 2.0
    } else {
        r.ln()
    };
    (-1.0 / lambda) * log
}

/// What `F.dropout(x, p, training=True)` returns on CUDA (the fused kernel) and its mask.
#[derive(Debug, Clone, PartialEq)]
pub struct DropoutOutput<T> {
    pub output: Vec<T>,
    pub mask: Vec<bool>,
}

/// `native_dropout` on CUDA for a float32 input (elements in visit order; `aligned` when
/// the tensor is contiguous and dense, which lets the kernel take 4 (or 2) elements per
/// thread per draw). p = 1 returns zeros without drawing; call only in training mode.
pub fn dropout_(
    rng: &mut CudaGenerator,
    input: &[f32],
    p: f64,
    aligned: bool,
    device: DeviceShape,
) -> Result<DropoutOutput<f32>> {
    cpu_kernels::check_dropout_prob(p)?;
    let n = input.len();
    if p == 1.0 {
        return Ok(DropoutOutput {
            output: vec![0.0; n],
            mask: vec![false; n],
        });
    }
    let mut output = vec![0f32; n];
    let mut mask = vec![false; n];
    if n == 0 {
        return Ok(DropoutOutput { output, mask });
    }
    let keep = (1.0 - p) as f32;
    let scale = (1.0 / keep as f64) as f32;
    let policy = launch_policy(n as u64, 4, device);
    let (seed, offset) = rng.philox_state(policy.counter_offset);
    let threads = (policy.block * policy.grid) as usize;
    let mut vec = if aligned { 4 } else { 1 };
    while vec > 1 && !n.is_multiple_of(vec) {
        vec /= 2;
    }
    let mut apply = |i: usize, r: f32| {
        let m = r < keep;
        mask[i] = m;
        output[i] = input[i] * (m as u8 as f32) * scale;
    };
    if vec > 1 {
        // Each thread takes `vec` consecutive elements per iteration, one curand4 each time.
        for idx in 0..threads {
            let mut k = 0u64;
            let mut li = idx * vec;
            while li < n {
                let r = uniform4(words(seed, offset, idx as u64, k));
                for (j, rj) in r.iter().take(vec).enumerate() {
                    apply(li + j, *rj);
                }
                k += 1;
                li += threads * vec;
            }
        }
    } else {
        grid_stride_calls((seed, offset), threads, n, whole(uniform4), apply);
    }
    Ok(DropoutOutput { output, mask })
}

#[cfg(test)]
mod tests {
    use super::super::philox::PhiloxState;
    use super::*;

    #[test]
    fn direct_words_match_the_stateful_generator() {
        for (seed, idx, offset) in [(0u64, 0u64, 0u64), (42, 3, 8), (u64::MAX, 1055, 1 << 40)] {
            let mut s = PhiloxState::new(seed, idx, offset);
            for call in 0..5 {
                assert_eq!(s.next4(), words(seed, offset, idx, call));
            }
        }
    }

    #[test]
    fn launch_offsets() {
        let h = DeviceShape::H200;
        // 5 elements: one block, one iteration, offset += 4.
        let p = launch_policy(5, 4, h);
        assert_eq!((p.grid, p.counter_offset), (1, 4));
        // The grid caps at 132 * 8 blocks; beyond 4 * 270336 elements a second pass.
        let p = launch_policy(10_000_000, 4, h);
        assert_eq!(p.grid, 1056);
        assert_eq!(p.counter_offset, (9_999_999 / (256 * 1056 * 4) + 1) * 4);
    }

    #[test]
    fn uniform_is_in_the_half_open_range() {
        let mut g = CudaGenerator::new(0);
        let mut v = vec![0f32; 1000];
        uniform_(
            &mut g,
            ElementsMut::F32(&mut v),
            0.0,
            1.0,
            DeviceShape::H200,
        )
        .unwrap();
        assert!(v.iter().all(|x| (0.0..1.0).contains(x)));
        assert_eq!(g.offset(), 4);
    }
    #[test]
    fn draws_split_over_threads_have_the_bits_of_the_one_thread_loop() {
        let _guard = crate::engine::parallel::TEST_THREADS_LOCK
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        let all_four = |w: [u32; 4]| {
            let (a, b) = box_muller(w[0], w[1]);
            let (c, d) = box_muller(w[2], w[3]);
            [a, b, c, d]
        };
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        for n in [1usize, 7, 8, 9, 15, 16, 17, 4095, 4097, 65_536, 70_001] {
            let policy = launch_policy(n as u64, 4, DeviceShape::H200);
            let threads = (policy.block * policy.grid) as usize;
            let (mut normals, mut uniforms) = (vec![0f32; n], vec![0f32; n]);
            // the generator after two earlier launches: a counter offset that is not 0
            grid_stride_calls((3, 8), threads, n, whole(all_four), |i, r| {
                normals[i] = r.mul_add(1.5, -1.0)
            });
            grid_stride_calls((3, 8 + 4), threads, n, whole(uniform4), |i, r| {
                let v = r.mul_add(2.0, 1.0);
                uniforms[i] = if v == 3.0 { 1.0 } else { v };
            });
            for threads in [1, 2, 3] {
                crate::engine::parallel::set_num_threads(threads);
                let mut g = CudaGenerator::new(3);
                g.set_offset(8).unwrap();
                let mut got = vec![0f32; n];
                normal_(
                    &mut g,
                    ElementsMut::F32(&mut got),
                    -1.0,
                    1.5,
                    DeviceShape::H200,
                )
                .unwrap();
                assert_eq!(
                    bits(&got),
                    bits(&normals),
                    "normal n = {n}, {threads} threads"
                );
                uniform_(
                    &mut g,
                    ElementsMut::F32(&mut got),
                    1.0,
                    3.0,
                    DeviceShape::H200,
                )
                .unwrap();
                assert_eq!(
                    bits(&got),
                    bits(&uniforms),
                    "uniform n = {n}, {threads} threads"
                );
                assert_eq!(g.offset(), 16);
            }
        }
        crate::engine::parallel::set_num_threads(1);
    }

    #[test]
    fn normals_computed_only_where_kept_have_the_bits_of_all_four() {
        // the draw as it was: both Box-Muller pairs of every curand4
        let all_four = |w: [u32; 4]| {
            let (a, b) = box_muller(w[0], w[1]);
            let (c, d) = box_muller(w[2], w[3]);
            [a, b, c, d]
        };
        // one 256-thread block: up to 1024 elements a call, so a thread keeps 1 to 4 values
        let small = DeviceShape {
            sm_count: 1,
            max_threads_per_sm: 256,
        };
        for device in [small, DeviceShape::H200] {
            for n in [1usize, 5, 255, 300, 700, 1000, 1023, 1500, 2100] {
                let mut g = CudaGenerator::new(7);
                let mut got = vec![0f32; n];
                normal_(&mut g, ElementsMut::F32(&mut got), 0.5, 2.0, device).unwrap();
                let policy = launch_policy(n as u64, 4, device);
                let threads = (policy.block * policy.grid) as usize;
                let mut want = vec![0f32; n];
                grid_stride_calls((7, 0), threads, n, whole(all_four), |i, r| {
                    want[i] = r.mul_add(2.0, 0.5)
                });
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&got), bits(&want), "n = {n}");
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_normals_have_the_bits_of_the_portable_lanes() {
        if !fast::has_avx2_fma() {
            eprintln!("this CPU has no AVX2: the portable lanes serve it, tested above");
            return;
        }
        // counters with high words (a long-used generator, threads past 2^32) and a thread
        // range whose low word wraps inside an eight-thread group
        let cases = [
            (0u64, [0u32, 0u32], 0u64, 64usize),
            (3, [7, 0], 1, 37),
            (
                0x1234_5678_9abc,
                [0xdead_beef, 0x0bad_f00d],
                (1 << 32) - 5,
                45,
            ),
            (u64::MAX / 4, [u32::MAX, 1], u64::MAX - 100, 33),
        ];
        for (call, key, first, n) in cases {
            let words = FirstWords { call, key };
            let (mut want, mut got) = (vec![0f32; n], vec![0f32; n]);
            normals_in_lanes(&mut want, first, words, 0.25, 3.0);
            // SAFETY: the CPU has AVX2 and FMA (checked above)
            unsafe { normals_x86(&mut got, first, words, 0.25, 3.0) };
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits(&got),
                bits(&want),
                "call {call:#x}, first thread {first:#x}"
            );
        }
    }
}
