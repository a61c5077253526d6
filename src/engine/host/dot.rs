//! `torch.dot` (and `1-D @ 1-D`) in the summation order of MKL's `sdot`/`ddot` as PyTorch
//! 2.15's CPU build runs them on this AVX-512 machine with one thread (ATen's dot calls the
//! BLAS dot), found by experiment (docs/engine.md, "Matrix products"):
//!
//! - vectors of `V` lanes (16 floats, 8 doubles) and four accumulators;
//! - the products go in blocks of four vectors, vector `i` of a block into accumulator `i`;
//!   then one block of two vectors (accumulators 0 and 1) if two are left, then one vector
//!   (accumulator 0) if one is left, then the last `k % V` products into the first lanes of
//!   accumulator 0; every step a fused multiply-add;
//! - the accumulators are added lane by lane as `(a0 + a1) + (a2 + a3)`;
//! - the lanes are halved (`l[i] + l[i + w/2]`) down to one for float64, down to four for
//!   float32, whose last four add as `(l0 + l1) + (l2 + l3)`.
//!
//! Measured bit for bit against `torch.dot` on 1,515 random pairs per dtype, k from 1 to 299
//! and 500, 1000, 2000, 4096 (contiguous operands): all identical.

use crate::engine::error::Result;
use crate::engine::interrupt::{CHUNK, poll};

/// A float MKL's dot kernels multiply, with its vector width and final lane reduction.
pub(crate) trait DotFloat: Copy + Default + std::ops::Add<Output = Self> {
    /// Lanes of one vector (AVX-512: 16 floats, 8 doubles).
    const LANES: usize;
    /// Lanes left when the halving stops; they add as `(l0 + l1) + (l2 + l3)` (4) or are one.
    const LAST: usize;
    fn fma(a: Self, b: Self, c: Self) -> Self;
}

/// The two float types differ only in their widths: one impl, written once.
macro_rules! dot_float {
    ($t:ty, lanes: $lanes:expr, last: $last:expr) => {
        impl DotFloat for $t {
            const LANES: usize = $lanes;
            const LAST: usize = $last;
            #[inline]
            fn fma(a: $t, b: $t, c: $t) -> $t {
                a.mul_add(b, c)
            }
        }
    };
}
dot_float!(f32, lanes: 16, last: 4);
dot_float!(f64, lanes: 8, last: 1);

/// Accumulators of the main loop.
const ACCS: usize = 4;

/// `sum x[p] * y[p]` in MKL's order (see the module comment); `x` and `y` have equal length.
pub(crate) fn dot<T: DotFloat>(x: &[T], y: &[T]) -> Result<T> {
    let k = x.len().min(y.len());
    let v = T::LANES;
    let mut acc = [[T::default(); 16]; ACCS];
    let mut p = 0;
    // one vector into accumulator `a`
    let vector = |acc: &mut [[T; 16]; ACCS], a: usize, p: usize, len: usize| {
        for l in 0..len {
            acc[a][l] = T::fma(x[p + l], y[p + l], acc[a][l]);
        }
    };
    let mut done = 0;
    while p + ACCS * v <= k {
        for a in 0..ACCS {
            vector(&mut acc, a, p + a * v, v);
        }
        p += ACCS * v;
        done += ACCS * v;
        // views expanded from one element make k as long as memory allows nothing
        if done >= CHUNK {
            poll()?;
            done = 0;
        }
    }
    if p + 2 * v <= k {
        vector(&mut acc, 0, p, v);
        vector(&mut acc, 1, p + v, v);
        p += 2 * v;
    }
    if p + v <= k {
        vector(&mut acc, 0, p, v);
        p += v;
    }
    vector(&mut acc, 0, p, k - p);
    let mut lanes = [T::default(); 16];
    for (l, out) in lanes.iter_mut().enumerate().take(v) {
        *out = (acc[0][l] + acc[1][l]) + (acc[2][l] + acc[3][l]);
    }
    let mut w = v;
    while w > T::LAST {
        for l in 0..w / 2 {
            lanes[l] = lanes[l] + lanes[l + w / 2];
        }
        w /= 2;
    }
    Ok(if T::LAST == 4 {
        (lanes[0] + lanes[1]) + (lanes[2] + lanes[3])
    } else {
        lanes[0]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random-looking values from a fixed integer sequence (no RNG dependency).
    fn values(n: usize, seed: u64) -> Vec<f64> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((s >> 11) as f64 / (1u64 << 53) as f64) * 20.0 - 10.0
            })
            .collect()
    }

    #[test]
    fn short_dots_are_the_rounded_lane_sums() {
        // k < LANES: products land in lanes 0..k of accumulator 0, the others stay 0, so the
        // float64 result is the halving tree of the rounded products
        let x = [1.5f64, 2.25, -3.0];
        let y = [2.0f64, 4.0, 0.5];
        let p: Vec<f64> = x.iter().zip(&y).map(|(a, b)| a * b).collect();
        // halving 8 -> 4 -> 2 -> 1 with p in lanes 0..3: ((p0 + p2) + p1)
        assert_eq!(dot(&x, &y).unwrap(), (p[0] + p[2]) + p[1]);
        // float32 halves to 4 lanes then adds (l0 + l1) + (l2 + l3)
        let xf = [1.5f32, 2.25, -3.0];
        let yf = [2.0f32, 4.0, 0.5];
        let pf: Vec<f32> = xf.iter().zip(&yf).map(|(a, b)| a * b).collect();
        assert_eq!(dot(&xf, &yf).unwrap(), (pf[0] + pf[1]) + pf[2]);
    }

    #[test]
    fn block_structure_follows_mkl_for_three_leftover_vectors() {
        // k = 24 doubles: three vectors go to accumulators 0, 1, 0 (the two-vector block,
        // then the single vector), not 0, 1, 2
        let x = values(24, 1);
        let y = values(24, 2);
        let mut acc = [[0f64; 8]; 2];
        for (j, a) in [0usize, 1, 0].iter().enumerate() {
            for l in 0..8 {
                acc[*a][l] = x[j * 8 + l].mul_add(y[j * 8 + l], acc[*a][l]);
            }
        }
        let mut v: Vec<f64> = (0..8)
            .map(|l| (acc[0][l] + acc[1][l]) + (0.0 + 0.0))
            .collect();
        for w in [8, 4, 2] {
            for l in 0..w / 2 {
                v[l] += v[l + w / 2];
            }
        }
        assert_eq!(dot(&x, &y).unwrap(), v[0]);
    }
}
