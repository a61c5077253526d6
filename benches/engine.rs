//! The issue-5 workload on the engine API: a 2-layer MLP forward (784 → 256 → ReLU → 10) on a
//! 64x784 batch plus cross_entropy, on the simulated GPU.

use criterion::{Criterion, criterion_group, criterion_main};
use cudatutor::engine::{Device, Reduction, Runtime, RuntimeConfig, UnaryOp};
use std::hint::black_box;

fn mlp_forward(c: &mut Criterion) {
    let rt = Runtime::new(RuntimeConfig::default());
    let dev = Device::Cuda(0);
    rt.manual_seed(0);
    let x = rt.randn(&[64, 784], None, dev).unwrap();
    let w1 = rt.randn(&[256, 784], None, dev).unwrap();
    let b1 = rt.zeros(&[256], None, dev).unwrap();
    let w2 = rt.randn(&[10, 256], None, dev).unwrap();
    let b2 = rt.zeros(&[10], None, dev).unwrap();
    let y = rt.randint(0, 10, &[64], None, dev).unwrap();
    c.bench_function("engine_mlp_forward_64x784_sim_cuda", |b| {
        b.iter(|| {
            let h = rt.linear(&x, &w1, Some(&b1)).unwrap();
            let h = rt.unary(UnaryOp::Relu, &h).unwrap();
            let o = rt.linear(&h, &w2, Some(&b2)).unwrap();
            let l = rt
                .cross_entropy(&o, &y, None, -100, Reduction::Mean)
                .unwrap();
            black_box(rt.item(&l).unwrap())
        })
    });
}

criterion_group!(benches, mlp_forward);
criterion_main!(benches);
