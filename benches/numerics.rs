//! The bit-exact float32 kernels of `engine::numerics` on sizes a training loop meets: the
//! cascade sum of 4M floats (PyTorch CPU, one thread, on this machine: 0.8-1.0 ms), a 4M
//! sigmoid (15.6 ms), softmax and log_softmax of 4096x1024 (10.6 / 12.3 ms), and a 64x10
//! cross_entropy forward.

use criterion::{Criterion, criterion_group, criterion_main};
use cudatutor::engine::numerics::{loss, softmax, sum, unary};
use std::hint::black_box;

fn data(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 7919) % 1000) as f32 * 0.002 - 1.0)
        .collect()
}

fn kernels(c: &mut Criterion) {
    let x = data(4 << 20);
    let mut out = vec![0f32; x.len()];
    c.bench_function("numerics_sum_4m_f32", |b| {
        b.iter(|| black_box(sum::sum_f32(black_box(&x))))
    });
    c.bench_function("numerics_sigmoid_4m_f32", |b| {
        b.iter(|| unary::unary_f32(unary::Unary::Sigmoid, black_box(&x), &mut out))
    });
    c.bench_function("numerics_softmax_4096x1024_f32", |b| {
        b.iter(|| softmax::softmax_f32(black_box(&x), &mut out, 4096, 1024, 1))
    });
    c.bench_function("numerics_log_softmax_4096x1024_f32", |b| {
        b.iter(|| softmax::log_softmax_f32(black_box(&x), &mut out, 4096, 1024, 1))
    });
    let logits = data(640);
    let target: Vec<i64> = (0..64).map(|i| (i * 7 % 10) as i64).collect();
    let shape = loss::ClassShape {
        n: 64,
        c: 10,
        map: 1,
        one_d: false,
    };
    c.bench_function("numerics_cross_entropy_64x10_f32", |b| {
        b.iter(|| {
            loss::cross_entropy_f32(
                black_box(&logits),
                shape,
                &target,
                None,
                loss::Reduction::Mean,
                -100,
                0.0,
            )
        })
    });
}

criterion_group!(benches, kernels);
criterion_main!(benches);
