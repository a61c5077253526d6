//! The issue-5 workload on the engine API: a 2-layer MLP forward (784 → 256 → ReLU → 10) on a
//! 64x784 batch plus cross_entropy, on the simulated GPU; and issue 15's training step on the
//! CPU (forward, cross_entropy, backward, SGD update of the four parameters).

use criterion::{Criterion, criterion_group, criterion_main};
use cudatutor::engine::{BinaryOp, Device, Reduction, Runtime, RuntimeConfig, Scalar, UnaryOp};
use std::hint::black_box;

fn mlp_forward(c: &mut Criterion) {
    let rt = Runtime::new(RuntimeConfig::default());
    let dev = Device::Cuda(0);
    rt.manual_seed(0);
    let x = rt.randn(&[64, 784], None, dev, None).unwrap();
    let w1 = rt.randn(&[256, 784], None, dev, None).unwrap();
    let b1 = rt.zeros(&[256], None, dev).unwrap();
    let w2 = rt.randn(&[10, 256], None, dev, None).unwrap();
    let b2 = rt.zeros(&[10], None, dev).unwrap();
    let y = rt.randint(0, 10, &[64], None, dev, None).unwrap();
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

fn mlp_train_step(c: &mut Criterion) {
    let rt = Runtime::new(RuntimeConfig::default());
    let dev = Device::Cpu;
    rt.manual_seed(0);
    let x = rt.randn(&[64, 784], None, dev, None).unwrap();
    let y = rt.randint(0, 10, &[64], None, dev, None).unwrap();
    let scaled = |shape: &[usize], s: f64| {
        let t = rt.randn(shape, None, dev, None).unwrap();
        let mut t = rt
            .binary(BinaryOp::Mul, &(&t).into(), &Scalar::Float(s).into())
            .unwrap();
        t.set_requires_grad(true).unwrap();
        t
    };
    let params = [
        scaled(&[256, 784], 0.03),
        scaled(&[256], 0.03),
        scaled(&[10, 256], 0.06),
        scaled(&[10], 0.06),
    ];
    let step = || {
        let [w1, b1, w2, b2] = &params;
        let h = rt.linear(&x, w1, Some(b1)).unwrap();
        let h = rt.unary(UnaryOp::Relu, &h).unwrap();
        let o = rt.linear(&h, w2, Some(b2)).unwrap();
        let l = rt
            .cross_entropy(&o, &y, None, -100, Reduction::Mean)
            .unwrap();
        rt.backward(&l, None, false).unwrap();
        rt.set_grad_enabled(false);
        for p in &params {
            let g = p.grad().unwrap();
            let upd = rt
                .binary(BinaryOp::Mul, &g.into(), &Scalar::Float(0.01).into())
                .unwrap();
            rt.inplace(BinaryOp::Sub, p, &upd.into()).unwrap();
            p.set_grad(None).unwrap();
        }
        rt.set_grad_enabled(true);
        l
    };
    c.bench_function("engine_mlp_train_step_64x784_cpu", |b| {
        b.iter(|| black_box(step()))
    });
}

criterion_group!(benches, mlp_forward, mlp_train_step);
criterion_main!(benches);
