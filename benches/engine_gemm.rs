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

/// The operands of `dst[m x n] = a[m x k] @ b[k x n]`, with row/column strides for a and b
/// (elements), as both crates take them.
struct Operands<'a> {
    a: &'a [f32],
    ars: isize,
    acs: isize,
    b: &'a [f32],
    brs: isize,
    bcs: isize,
    m: usize,
    k: usize,
    n: usize,
}

/// The product of `p` into `dst` by the gemm crate.
fn with_gemm(dst: &mut [f32], p: &Operands) {
    // SAFETY: products() below, the only caller, passes slices of m x k, k x n and m x n
    // elements with strides inside them; dst is borrowed mutably for the call.
    unsafe {
        gemm::gemm(
            p.m,
            p.n,
            p.k,
            dst.as_mut_ptr(),
            1,
            p.n as isize,
            false,
            p.a.as_ptr(),
            p.acs,
            p.ars,
            p.b.as_ptr(),
            p.bcs,
            p.brs,
            0.0f32,
            1.0f32,
            false,
            false,
            false,
            gemm::Parallelism::None,
        )
    }
}

/// The product of `p` into `dst` by the matrixmultiply crate.
fn with_matrixmultiply(dst: &mut [f32], p: &Operands) {
    // SAFETY: products() below, the only caller, passes slices of m x k, k x n and m x n
    // elements with strides inside them; dst is borrowed mutably for the call.
    unsafe {
        matrixmultiply::sgemm(
            p.m,
            p.k,
            p.n,
            1.0,
            p.a.as_ptr(),
            p.ars,
            p.acs,
            p.b.as_ptr(),
            p.brs,
            p.bcs,
            0.0,
            dst.as_mut_ptr(),
            p.n as isize,
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
        let p = Operands {
            a: &a,
            ars,
            acs,
            b: &b,
            brs,
            bcs,
            m,
            k,
            n,
        };
        let mut dst = vec![0f32; m * n];
        c.bench_function(&format!("gemm_crate/{name}"), |bn| {
            bn.iter(|| {
                with_gemm(&mut dst, &p);
                black_box(dst[0])
            })
        });
        c.bench_function(&format!("matrixmultiply/{name}"), |bn| {
            bn.iter(|| {
                with_matrixmultiply(&mut dst, &p);
                black_box(dst[0])
            })
        });
    }
}

criterion_group!(benches, products);
criterion_main!(benches);
