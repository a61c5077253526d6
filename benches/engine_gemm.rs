//! The two GEMM crates on this machine, on the float32 products of the MLP 784-256-10 training
//! step at batch 64 (forward, and backward's transposed operands) and one square product.
//! docs/engine.md ("Matrix products") records the figures and the choice.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn data(n: usize, seed: u32) -> Vec<f32> {
    let mut s = seed.wrapping_mul(2654435761).max(1);
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            (s % 2000) as f32 / 1000.0 - 1.0
        })
        .collect()
}

/// `dst[m x n] = a[m x k] @ b[k x n]` with row/column strides for a and b (elements).
#[allow(clippy::too_many_arguments)]
fn with_gemm(
    dst: &mut [f32],
    a: &[f32],
    ars: isize,
    acs: isize,
    b: &[f32],
    brs: isize,
    bcs: isize,
    m: usize,
    k: usize,
    n: usize,
) {
    // SAFETY: products() below, the only caller, passes slices of m x k, k x n and m x n
    // elements with strides inside them; dst is borrowed mutably for the call.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            dst.as_mut_ptr(),
            1,
            n as isize,
            false,
            a.as_ptr(),
            acs,
            ars,
            b.as_ptr(),
            bcs,
            brs,
            0.0f32,
            1.0f32,
            false,
            false,
            false,
            gemm::Parallelism::None,
        )
    }
}

#[allow(clippy::too_many_arguments)]
fn with_matrixmultiply(
    dst: &mut [f32],
    a: &[f32],
    ars: isize,
    acs: isize,
    b: &[f32],
    brs: isize,
    bcs: isize,
    m: usize,
    k: usize,
    n: usize,
) {
    // SAFETY: products() below, the only caller, passes slices of m x k, k x n and m x n
    // elements with strides inside them; dst is borrowed mutably for the call.
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            1.0,
            a.as_ptr(),
            ars,
            acs,
            b.as_ptr(),
            brs,
            bcs,
            0.0,
            dst.as_mut_ptr(),
            n as isize,
            1,
        )
    }
}

fn products(c: &mut Criterion) {
    // (name, m, k, n, a transposed, b transposed)
    let cases = [
        ("fwd_64x784_784x256", 64, 784, 256, false, true),
        ("fwd_64x256_256x10", 64, 256, 10, false, true),
        ("bwd_dW1_256x64_64x784", 256, 64, 784, true, false),
        ("bwd_dX_64x256_256x784", 64, 256, 784, false, false),
        ("square_512", 512, 512, 512, false, false),
    ];
    for (name, m, k, n, at, bt) in cases {
        let a = data(m * k, 1);
        let b = data(k * n, 2);
        // a transposed: stored k x m, read with (1, m); b transposed: stored n x k
        let (ars, acs) = if at { (1, m as isize) } else { (k as isize, 1) };
        let (brs, bcs) = if bt { (1, k as isize) } else { (n as isize, 1) };
        let mut dst = vec![0f32; m * n];
        c.bench_function(&format!("gemm_crate/{name}"), |bn| {
            bn.iter(|| {
                with_gemm(&mut dst, &a, ars, acs, &b, brs, bcs, m, k, n);
                black_box(dst[0])
            })
        });
        c.bench_function(&format!("matrixmultiply/{name}"), |bn| {
            bn.iter(|| {
                with_matrixmultiply(&mut dst, &a, ars, acs, &b, brs, bcs, m, k, n);
                black_box(dst[0])
            })
        });
    }
}

criterion_group!(benches, products);
criterion_main!(benches);
